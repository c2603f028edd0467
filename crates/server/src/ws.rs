//! One websocket connection: a reader that checks and dispatches each message, and a writer that drains the
//! connection's outbox. Bad input gets a clear error; only a broken protocol (no cookie, wrong version, oversized
//! frames, floods) closes the socket.

use crate::hub::{Hub, Route};
use crate::outbox::{Out, Outbox};
use crate::table::Cmd;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use parlor_protocol::{ChallengeAnswer, ClientMsg, ErrorCode, PROTOCOL_VERSION, PlayerInfo, ServerMsg};
use parlor_store::{Relation as StoreRelation, Store};
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::time::{Instant, timeout};

/// A socket silent this long is closed (clients ping every 20 s).
const IDLE: Duration = Duration::from_secs(60);
/// Time to say hello.
const HELLO: Duration = Duration::from_secs(15);
/// Messages per second allowed on average, and the burst.
const RATE: f64 = 20.0;
const BURST: f64 = 40.0;
/// Private-code lookups that failed, per connection, before lookups are refused.
const MAX_BAD_CODES: u32 = 10;

/// Chat lines per second on average, and the burst.
const CHAT_RATE: f64 = 0.5;
const CHAT_BURST: f64 = 5.0;

/// A token bucket.
struct Bucket {
    tokens: f64,
    at: Instant,
    rate: f64,
    burst: f64,
}

impl Bucket {
    fn take(&mut self) -> f64 {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        self.tokens -= 1.0;
        self.tokens
    }
}

async fn close_with(socket: &mut WebSocket, msg: &ServerMsg, code: u16, reason: &'static str) {
    let _ = socket.send(Message::Text(crate::outbox::encode(msg))).await;
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: Utf8Bytes::from_static(reason),
        })))
        .await;
}

fn valid_name(name: &str) -> Option<String> {
    let name = name.trim();
    let count = name.chars().count();
    ((1..=24).contains(&count) && !name.chars().any(char::is_control)).then(|| name.to_owned())
}

fn valid_chat(text: &str) -> Option<String> {
    let text = text.trim();
    let count = text.chars().count();
    ((1..=300).contains(&count) && !text.chars().any(|c| c.is_control() && c != '\n'))
        .then(|| text.to_owned())
}

/// Serves one socket until it closes.
pub async fn serve(mut socket: WebSocket, hub: Arc<Hub>, player: Option<PlayerInfo>) {
    let Some(player) = player else {
        let msg = ServerMsg::error(
            ErrorCode::CookiesRequired,
            "multiplayer needs cookies: allow cookies for this site and reload",
        );
        close_with(&mut socket, &msg, 4001, "cookies required").await;
        return;
    };
    // The first message must be hello with our protocol version.
    match timeout(HELLO, socket.recv()).await {
        Ok(Some(Ok(Message::Text(text)))) => match serde_json::from_str::<ClientMsg>(&text) {
            Ok(ClientMsg::Hello { protocol }) if protocol == PROTOCOL_VERSION => {}
            Ok(ClientMsg::Hello { .. }) => {
                let msg = ServerMsg::error(ErrorCode::ClientOutdated, "this page is out of date: reload it");
                close_with(&mut socket, &msg, 4002, "client outdated").await;
                return;
            }
            _ => {
                let msg = ServerMsg::error(ErrorCode::BadMessage, "the first message must be hello");
                close_with(&mut socket, &msg, 1002, "hello expected").await;
                return;
            }
        },
        _ => return,
    }

    let session = hub.session(player.clone()).await;
    let conn = hub.next_conn();
    let (outbox, mut rx, queued) = Outbox::new(conn, session.clone());
    hub.metrics.connections.fetch_add(1, Ordering::Relaxed);
    let online = hub.connected(&outbox);
    outbox.send(&ServerMsg::Welcome {
        protocol: PROTOCOL_VERSION,
        you: session.info(),
        online,
    });
    send_relations(&hub, &outbox).await;

    let (mut sink, mut stream) = socket.split();
    let writer = tokio::spawn(async move {
        while let Some(out) = rx.recv().await {
            queued.fetch_sub(1, Ordering::Relaxed);
            match out {
                Out::Text(text) => {
                    if sink.send(Message::Text(text)).await.is_err() {
                        break;
                    }
                }
                Out::Close(code, reason) => {
                    let frame = CloseFrame {
                        code,
                        reason: Utf8Bytes::from_static(reason),
                    };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    break;
                }
            }
        }
    });

    let mut reader = Reader {
        hub: hub.clone(),
        outbox: outbox.clone(),
        open: HashSet::new(),
        bad_codes: 0,
        chat: Bucket {
            tokens: CHAT_BURST,
            at: Instant::now(),
            rate: CHAT_RATE,
            burst: CHAT_BURST,
        },
    };
    let mut bucket = Bucket {
        tokens: BURST,
        at: Instant::now(),
        rate: RATE,
        burst: BURST,
    };
    let shutdown = hub.shutdown.clone();
    loop {
        let next = tokio::select! {
            next = timeout(IDLE, stream.next()) => next,
            () = shutdown.cancelled() => {
                outbox.close(1012, "server restarting");
                break;
            }
        };
        let msg = match next {
            Ok(Some(Ok(msg))) => msg,
            Ok(Some(Err(e))) => {
                // Oversized frames and protocol violations end here.
                if e.to_string().contains("too long") || e.to_string().contains("size") {
                    outbox.send(&ServerMsg::error(ErrorCode::TooLarge, "message too large"));
                    outbox.close(1009, "message too large");
                }
                break;
            }
            Ok(None) => break,
            Err(_) => {
                outbox.close(1001, "idle");
                break;
            }
        };
        let text = match msg {
            Message::Text(text) => text,
            Message::Binary(_) => {
                outbox.send(&ServerMsg::error(
                    ErrorCode::BadMessage,
                    "binary frames are not part of the protocol",
                ));
                continue;
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        let tokens = bucket.take();
        if tokens < -BURST {
            outbox.close(1008, "too many messages");
            break;
        }
        if tokens < 0.0 {
            outbox.send(&ServerMsg::error(
                ErrorCode::RateLimited,
                "too many messages: slow down",
            ));
            continue;
        }
        match serde_json::from_str::<ClientMsg>(&text) {
            Ok(msg) => reader.dispatch(msg).await,
            Err(e) => {
                outbox.send(&ServerMsg::error(
                    ErrorCode::BadMessage,
                    format!("not a Parlor message: {e}"),
                ));
            }
        }
    }

    for table in std::mem::take(&mut reader.open) {
        let _ = reader
            .to_table(&table, ClientMsg::Close { table: table.clone() })
            .await;
    }
    hub.disconnected(conn, &session.id()).await;
    hub.metrics.connections.fetch_sub(1, Ordering::Relaxed);
    drop(reader);
    drop(outbox);
    let _ = tokio::time::timeout(Duration::from_secs(5), writer).await;
}

struct Reader {
    hub: Arc<Hub>,
    outbox: Outbox,
    open: HashSet<String>,
    bad_codes: u32,
    chat: Bucket,
}

impl Reader {
    fn error(&self, code: ErrorCode, message: impl Into<String>, table: Option<&str>) {
        self.outbox.send(&ServerMsg::Error {
            code,
            message: message.into(),
            table: table.map(str::to_owned),
            ack: None,
        });
    }

    /// Sends a table message to the table, on this node or the node that owns it. False if there is no such
    /// table (the client was told).
    async fn to_table(&self, table: &str, msg: ClientMsg) -> bool {
        match self.hub.route(table).await {
            Route::Local(tx) => {
                if let Some(cmd) = command(msg, self.outbox.clone()) {
                    let _ = tx.send(cmd).await;
                }
                true
            }
            Route::Remote(node) => {
                if let Some(cluster) = &self.hub.cluster {
                    cluster.forward(&node, &self.outbox, msg);
                }
                true
            }
            Route::Missing => {
                self.hub.table_missing(&self.outbox, table);
                false
            }
        }
    }

    async fn open_table(&mut self, table: String, since: Option<u64>) -> bool {
        let open = ClientMsg::Open {
            table: Some(table.clone()),
            code: None,
            since,
        };
        if !self.to_table(&table, open).await {
            return false;
        }
        if let Some(cluster) = &self.hub.cluster {
            cluster.watch(&table, self.outbox.conn(), true);
        }
        self.open.insert(table);
        true
    }

    async fn dispatch(&mut self, msg: ClientMsg) {
        let outbox = self.outbox.clone();
        match msg {
            ClientMsg::Hello { .. } => {}
            ClientMsg::Ping => {
                outbox.send(&ServerMsg::Pong);
            }
            ClientMsg::SetName { name } => {
                let Some(name) = valid_name(&name) else {
                    self.error(ErrorCode::NameInvalid, "a name has 1 to 24 characters", None);
                    return;
                };
                let session = outbox.session();
                if let Err(e) = self.hub.store.set_nickname(&session.id(), &name).await {
                    tracing::warn!(error = %e, "could not store name");
                }
                session.rename(name);
                let you = session.info();
                outbox.send(&ServerMsg::Named { you: you.clone() });
                self.hub.renamed(&you);
                self.hub.to_all_tables(|| Cmd::Renamed { player: you.clone() });
            }
            ClientMsg::Lobby { on } => self.hub.lobby_subscribe(&outbox, on),
            ClientMsg::Create { spec } => {
                match self.hub.create_table(spec, outbox.session().info(), None).await {
                    Ok((table, code)) => {
                        outbox.send(&ServerMsg::Created {
                            table: table.clone(),
                            code,
                        });
                        let _ = self.open_table(table, None).await;
                    }
                    Err(e) => self.error(ErrorCode::BadSpec, e, None),
                }
            }
            ClientMsg::Open { table, code, since } => {
                let id = match (table, code) {
                    (Some(id), _) => Some(id),
                    (None, Some(code)) => {
                        if self.bad_codes >= MAX_BAD_CODES {
                            self.error(ErrorCode::RateLimited, "too many wrong codes", None);
                            return;
                        }
                        let found = self.hub.table_by_code(&code).await;
                        if found.is_none() {
                            self.bad_codes += 1;
                        }
                        found
                    }
                    (None, None) => None,
                };
                match id {
                    Some(id) => {
                        let _ = self.open_table(id, since).await;
                    }
                    None => self.error(ErrorCode::TableNotFound, "no such table, or it has closed", None),
                }
            }
            ClientMsg::Close { table } => {
                if self.open.remove(&table) {
                    if let Some(cluster) = &self.hub.cluster {
                        cluster.watch(&table, outbox.conn(), false);
                    }
                    let _ = self
                        .to_table(&table, ClientMsg::Close { table: table.clone() })
                        .await;
                }
            }
            ClientMsg::Sit { table, seat, confirm } => {
                if !self.open.contains(&table) && !self.open_table(table.clone(), None).await {
                    return;
                }
                let _ = self
                    .to_table(&table.clone(), ClientMsg::Sit { table, seat, confirm })
                    .await;
            }
            msg @ (ClientMsg::Stand { .. }
            | ClientMsg::Resign { .. }
            | ClientMsg::Draw { .. }
            | ClientMsg::Abort { .. }
            | ClientMsg::Rematch { .. }) => {
                if let Some(table) = table_of(&msg).map(str::to_owned) {
                    let _ = self.to_table(&table, msg).await;
                }
            }
            ClientMsg::Move {
                table,
                ack,
                ply,
                wire,
            } => {
                if wire.len() > 200 {
                    self.error(ErrorCode::IllegalMove, "that is not a move", Some(&table));
                    return;
                }
                let _ = self
                    .to_table(
                        &table.clone(),
                        ClientMsg::Move {
                            table,
                            ack,
                            ply,
                            wire,
                        },
                    )
                    .await;
            }
            ClientMsg::Chat { table, text } => match valid_chat(&text) {
                Some(_) if self.chat.take() < 0.0 => {
                    self.error(
                        ErrorCode::RateLimited,
                        "too many chat lines: wait a moment",
                        Some(&table),
                    );
                }
                Some(text) => {
                    let _ = self
                        .to_table(&table.clone(), ClientMsg::Chat { table, text })
                        .await;
                }
                None => self.error(
                    ErrorCode::ChatInvalid,
                    "a chat line has 1 to 300 characters",
                    Some(&table),
                ),
            },
            ClientMsg::Presence { online } => {
                self.hub.set_visible(&outbox.session().info(), online).await;
            }
            ClientMsg::Relation { player, relation, on } => {
                let relation = match relation {
                    parlor_protocol::Relation::Block => StoreRelation::Block,
                    parlor_protocol::Relation::Mute => StoreRelation::Mute,
                    parlor_protocol::Relation::Favourite => StoreRelation::Favourite,
                };
                let session = outbox.session().clone();
                if player == session.id() {
                    self.error(ErrorCode::NotAllowed, "that is you", None);
                    return;
                }
                if let Err(e) = self
                    .hub
                    .store
                    .set_relation(&session.id(), &player, relation, on)
                    .await
                {
                    tracing::warn!(error = %e, "could not store relation");
                    self.error(ErrorCode::Internal, "could not save that; try again", None);
                    return;
                }
                self.hub.set_mark(&session, &player, relation, on);
                if let Some(cluster) = &self.hub.cluster {
                    cluster.marks(&session.id());
                }
                send_relations(&self.hub, &outbox).await;
            }
            ClientMsg::Challenge { to, spec } => {
                if let Err((code, message)) = self.hub.challenge(outbox.session().info(), &to, spec).await {
                    self.error(code, message, None);
                }
            }
            ClientMsg::ChallengeCancel { id } => {
                if let Err((code, message)) = self.hub.cancel_challenge(&outbox.session().id(), &id).await {
                    self.error(code, message, None);
                }
            }
            ClientMsg::ChallengeAnswer { id, answer } => {
                let accept = answer == ChallengeAnswer::Accept;
                if let Err((code, message)) = self
                    .hub
                    .answer_challenge(&outbox.session().id(), &id, accept)
                    .await
                {
                    self.error(code, message, None);
                }
            }
            ClientMsg::History { player, before } => {
                let player = player.unwrap_or_else(|| outbox.session().id());
                let viewer = outbox.session().id();
                match crate::history::page(&self.hub, &viewer, &player, before).await {
                    Ok(games) => {
                        outbox.send(&ServerMsg::History { player, games });
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "history");
                        self.error(ErrorCode::Internal, "could not read the history; try again", None);
                    }
                }
            }
        }
    }
}

/// The table a table message is for; `None` for the others.
pub fn table_of(msg: &ClientMsg) -> Option<&str> {
    match msg {
        ClientMsg::Open { table, .. } => table.as_deref(),
        ClientMsg::Close { table }
        | ClientMsg::Sit { table, .. }
        | ClientMsg::Stand { table }
        | ClientMsg::Move { table, .. }
        | ClientMsg::Resign { table }
        | ClientMsg::Draw { table, .. }
        | ClientMsg::Abort { table }
        | ClientMsg::Rematch { table }
        | ClientMsg::Chat { table, .. } => Some(table),
        _ => None,
    }
}

/// The table command for a (checked) table message from a connection, here or on another node.
pub fn command(msg: ClientMsg, outbox: Outbox) -> Option<Cmd> {
    Some(match msg {
        ClientMsg::Open { since, .. } => Cmd::Open { outbox, since },
        ClientMsg::Close { .. } => Cmd::Close { conn: outbox.conn() },
        ClientMsg::Sit { seat, confirm, .. } => Cmd::Sit {
            outbox,
            seat,
            confirm,
        },
        ClientMsg::Stand { .. } => Cmd::Stand { outbox },
        ClientMsg::Move { ack, ply, wire, .. } => Cmd::Move {
            outbox,
            ack,
            ply,
            wire,
        },
        ClientMsg::Resign { .. } => Cmd::Resign { outbox },
        ClientMsg::Draw { action, .. } => Cmd::Draw { outbox, action },
        ClientMsg::Abort { .. } => Cmd::Abort { outbox },
        ClientMsg::Rematch { .. } => Cmd::Rematch { outbox },
        ClientMsg::Chat { text, .. } => Cmd::Chat { outbox, text },
        _ => return None,
    })
}

/// Sends a player's marks (block, mute, favourite) to one connection.
async fn send_relations(hub: &Hub, outbox: &Outbox) {
    match hub.store.relations(&outbox.session().id()).await {
        Ok(marks) => {
            let marks = marks
                .into_iter()
                .map(|(p, r)| {
                    let r = match r {
                        StoreRelation::Block => parlor_protocol::Relation::Block,
                        StoreRelation::Mute => parlor_protocol::Relation::Mute,
                        StoreRelation::Favourite => parlor_protocol::Relation::Favourite,
                    };
                    (p, r)
                })
                .collect();
            outbox.send(&ServerMsg::Relations { marks });
        }
        Err(e) => tracing::warn!(error = %e, "could not read relations"),
    }
}
