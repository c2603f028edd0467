//! One websocket connection: a reader that checks and dispatches each message, and a writer that drains the
//! connection's outbox. Bad input gets a clear error; only a broken protocol (no cookie, wrong version, oversized
//! frames, floods, a client that stops reading) closes the socket. The limits are in [`crate::limit`].

use crate::hub::Hub;
use crate::limit::{self, Bucket, FRAMES, FRAMES_CLOSE_DEBT, SEND_TIMEOUT};
use crate::metrics::Stage;
use crate::outbox::{Out, Outbox};
use crate::table::command::table_of;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use parlor_protocol::{ChallengeAnswer, ClientMsg, ErrorCode, PROTOCOL_VERSION, PlayerInfo, ServerMsg};
use parlor_store::{Relation as StoreRelation, Store};
use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::time::timeout;
use tokio_util::sync::CancellationToken;

/// A socket silent this long is closed (clients ping every 20 s).
const IDLE: Duration = Duration::from_secs(60);
/// Time to say hello.
const HELLO: Duration = Duration::from_secs(15);

async fn close_with(socket: &mut WebSocket, msg: &ServerMsg, code: u16, reason: &'static str) {
    let _ = socket.send(Message::Text(crate::outbox::encode(msg))).await;
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: Utf8Bytes::from_static(reason),
        })))
        .await;
}

fn valid_chat(text: &str) -> Option<String> {
    let text = text.trim();
    let count = text.chars().count();
    ((1..=300).contains(&count) && !text.chars().any(|c| c.is_control() && c != '\n'))
        .then(|| text.to_owned())
}

/// Most frames queued for a connection that go out in one write.
const WRITE_BATCH: usize = 64;

/// Serves one socket from the address `peer` until it closes.
pub async fn serve(mut socket: WebSocket, hub: Arc<Hub>, player: Option<PlayerInfo>, peer: IpAddr) {
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
    let (outbox, mut rx) = Outbox::new(conn, session.clone());
    hub.metrics.connections.fetch_add(1, Ordering::Relaxed);
    let online = hub.connected(&outbox);
    outbox.send(&ServerMsg::Welcome {
        protocol: PROTOCOL_VERSION,
        you: session.info(),
        online,
    });
    Box::pin(send_relations(&hub, &outbox)).await;

    let (mut sink, mut stream) = socket.split();
    // The writer ends when the connection is done, fell too far behind, or a frame cannot go out within
    // SEND_TIMEOUT (the client stopped reading): the reader stops with it, and the socket is dropped.
    let writer_gone = CancellationToken::new();
    let writer = tokio::spawn({
        let writer_gone = writer_gone.clone();
        let metrics = hub.metrics.clone();
        async move {
            let _gone = writer_gone.drop_guard();
            'connection: while let Some(first) = rx.recv().await {
                let written = std::time::Instant::now();
                // Whatever is queued by now (a mover's acknowledgement and event, say) goes out in one write.
                let mut next = Some(first);
                let mut frames = 0;
                let mut close = None;
                while let Some(out) = next.take() {
                    match out {
                        Out::Text(text) => {
                            match timeout(SEND_TIMEOUT, sink.feed(Message::Text(text))).await {
                                Ok(Ok(())) => frames += 1,
                                Ok(Err(_)) => break 'connection,
                                Err(_) => {
                                    tracing::debug!(
                                        conn,
                                        "a frame could not be sent in time: dropping the connection"
                                    );
                                    break 'connection;
                                }
                            }
                        }
                        Out::Close(code, reason) => close = Some((code, reason)),
                    }
                    if close.is_none() && frames < WRITE_BATCH {
                        next = rx.try_recv();
                    }
                }
                if frames > 0 {
                    match timeout(SEND_TIMEOUT, sink.flush()).await {
                        Ok(Ok(())) => metrics.observe_stage(Stage::Write, written.elapsed()),
                        Ok(Err(_)) => break,
                        Err(_) => {
                            tracing::debug!(
                                conn,
                                "a frame could not be sent in time: dropping the connection"
                            );
                            break;
                        }
                    }
                }
                if let Some((code, reason)) = close {
                    let frame = CloseFrame {
                        code,
                        reason: Utf8Bytes::from_static(reason),
                    };
                    let _ = timeout(SEND_TIMEOUT, sink.send(Message::Close(Some(frame)))).await;
                    break;
                }
            }
        }
    });

    let mut reader = Reader {
        hub: hub.clone(),
        outbox: outbox.clone(),
        open: HashSet::new(),
        peer: limit::address_key(peer),
    };
    let mut frames = Bucket::new(FRAMES);
    let shutdown = hub.shutdown.clone();
    loop {
        let next = tokio::select! {
            next = timeout(IDLE, stream.next()) => next,
            () = writer_gone.cancelled() => break,
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
        if let Message::Close(_) = msg {
            break;
        }
        // Every frame counts, control frames too: a ping flood costs the server a pong each.
        let tokens = frames.charge();
        if tokens < -FRAMES_CLOSE_DEBT {
            outbox.close(1008, "too many messages");
            break;
        }
        let text = match msg {
            Message::Text(text) => text,
            Message::Binary(_) => {
                outbox.send(&ServerMsg::error(
                    ErrorCode::BadMessage,
                    "binary frames are not part of the protocol",
                ));
                continue;
            }
            Message::Close(_) | Message::Ping(_) | Message::Pong(_) => continue,
        };
        if tokens < 0.0 {
            outbox.send(&ServerMsg::error(
                ErrorCode::RateLimited,
                "too many messages: slow down",
            ));
            continue;
        }
        match serde_json::from_str::<ClientMsg>(&text) {
            // Boxed: handling some messages awaits large futures (the store's), and inline they would make every
            // connection's task as large as the largest, idle or not.
            Ok(msg) => Box::pin(reader.dispatch(msg)).await,
            Err(e) => {
                outbox.send(&ServerMsg::error(
                    ErrorCode::BadMessage,
                    format!("not a Parlor message: {e}"),
                ));
            }
        }
    }

    for table in std::mem::take(&mut reader.open) {
        session.unwatch(&table);
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
    /// The peer's address (IPv6 by its /64), for the per-address limits.
    peer: IpAddr,
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
        self.hub.to_table(table, &self.outbox, msg).await
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
        self.hub.site.watch(&table, self.outbox.conn(), true);
        if self.open.insert(table.clone()) {
            self.outbox.session().watch(&table);
        }
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
                let session = outbox.session().clone();
                let name = match crate::name::check(&name, &session.id()) {
                    Ok(name) => name,
                    Err(e) => {
                        self.error(ErrorCode::NameInvalid, e.to_string(), None);
                        return;
                    }
                };
                if !self.hub.limits.rename.try_take(&session.id()) {
                    self.error(ErrorCode::RateLimited, "too many renames: wait a minute", None);
                    return;
                }
                if let Err(e) = self.hub.store.set_nickname(&session.id(), &name).await {
                    tracing::warn!(error = %e, "could not store name");
                }
                session.rename(name);
                let you = session.info();
                outbox.send(&ServerMsg::Named { you: you.clone() });
                self.hub.renamed(&you);
                self.hub.rename_at_tables(&you, &session.watching());
            }
            ClientMsg::Lobby { on } => self.hub.lobby_subscribe(&outbox, on),
            ClientMsg::Create { spec } => {
                if let Err(e) = self.hub.may_create(&outbox.session().id(), self.peer) {
                    self.error(e.code(), e.to_string(), None);
                    return;
                }
                match self.hub.create_table(spec, outbox.session().info(), None).await {
                    Ok((table, code)) => {
                        outbox.send(&ServerMsg::Created {
                            table: table.clone(),
                            code,
                        });
                        let _ = self.open_table(table, None).await;
                    }
                    Err(e) => self.error(ErrorCode::BadSpec, e.to_string(), None),
                }
            }
            ClientMsg::Open { table, code, since } => {
                let id = match (table, code) {
                    (Some(id), _) => Some(id),
                    (None, Some(code)) => {
                        let player = outbox.session().id();
                        let limits = &self.hub.limits;
                        let by_address = !limit::is_exempt(self.peer);
                        if !limits.bad_codes_player.has_token(&player)
                            || (by_address && !limits.bad_codes_address.has_token(&self.peer))
                        {
                            self.error(
                                ErrorCode::RateLimited,
                                "too many wrong codes: wait a moment",
                                None,
                            );
                            return;
                        }
                        let found = self.hub.table_by_code(&code).await;
                        if found.is_none() {
                            limits.bad_codes_player.charge(&player);
                            if by_address {
                                limits.bad_codes_address.charge(&self.peer);
                            }
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
                    outbox.session().unwatch(&table);
                    self.hub.site.watch(&table, outbox.conn(), false);
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
            | ClientMsg::Rematch { .. }
            | ClientMsg::Takeback { .. }) => {
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
                Some(_) if !self.hub.limits.chat.try_take(&outbox.session().id()) => {
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
                self.hub.site.marks(&session.id());
                send_relations(&self.hub, &outbox).await;
            }
            ClientMsg::Challenge { to, spec } => {
                if let Err(e) = self.hub.challenge(outbox.session().info(), &to, spec).await {
                    self.error(e.code(), e.to_string(), None);
                }
            }
            ClientMsg::ChallengeCancel { id } => {
                if let Err(e) = self.hub.cancel_challenge(&outbox.session().id(), &id).await {
                    self.error(e.code(), e.to_string(), None);
                }
            }
            ClientMsg::ChallengeAnswer { id, answer } => {
                let accept = answer == ChallengeAnswer::Accept;
                if let Err(e) = self
                    .hub
                    .answer_challenge(&outbox.session().id(), &id, accept)
                    .await
                {
                    self.error(e.code(), e.to_string(), None);
                }
            }
            ClientMsg::History { player, before } => {
                let player = player.unwrap_or_else(|| outbox.session().id());
                let viewer = outbox.session().id();
                match crate::history::page(&self.hub.store, &viewer, &player, before).await {
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
