//! Messages between nodes: what they say to each other (JSON on Redis pub/sub, plus raw frames carrying a
//! server message to one connection), the publisher that sends them in order and in batches, the listener that
//! receives them and keeps the subscription alive, and what a node does with each.

use super::{Cluster, lock};
use crate::hub::{Hub, Route};
use crate::outbox::ConnId;
use crate::table::command::{Cmd, table_of};
use parlor_protocol::{ChallengeState, ClientMsg, LobbyTable, PlayerInfo, TableSpec};
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::{Instant, timeout};

/// A message between nodes (JSON), except [`DELIVER`] frames.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub(super) enum Bus {
    /// To a table's owner: a client's message for the table.
    Fwd {
        from: String,
        conn: ConnId,
        player: PlayerInfo,
        msg: ClientMsg,
        retry: u8,
    },
    /// Back to the client's node: the table is not here.
    NotHere {
        conn: ConnId,
        msg: ClientMsg,
        retry: u8,
    },
    /// To a client's node: close the socket (the client reconnects and resyncs).
    CloseConn {
        conn: ConnId,
        code: u16,
    },
    /// Broadcast: a lobby table changed, or is gone.
    Lobby {
        node: String,
        table: LobbyTable,
    },
    LobbyGone {
        node: String,
        id: String,
    },
    /// Broadcast: a player is visible on a node, or no longer.
    Online {
        node: String,
        player: PlayerInfo,
    },
    Offline {
        node: String,
        id: String,
    },
    /// Broadcast: a challenge's news.
    Challenge {
        node: String,
        id: String,
        from: PlayerInfo,
        to: PlayerInfo,
        spec: TableSpec,
        state: ChallengeState,
        table: Option<String>,
    },
    /// Broadcast: a player's name, or marks, changed.
    Renamed {
        node: String,
        player: PlayerInfo,
    },
    Marks {
        node: String,
        player: String,
    },
    /// Broadcast: a node took these tables (after a takeover).
    Owner {
        node: String,
        tables: Vec<String>,
    },
    /// Broadcast: a stopping node released these tables.
    Released {
        node: String,
        tables: Vec<String>,
    },
    /// Broadcast: a node is gone (stopped, or found dead).
    NodeGone {
        node: String,
        gone: String,
    },
    /// To oneself: the subscription still works.
    Ping,
}

/// How many times a client's message that found its table between nodes is sent again (100 ms apart).
pub(super) const NOT_HERE_RETRIES: u8 = 10;

/// A frame carrying one server message for one connection: `D<conn>\n<text>`.
pub(super) const DELIVER: char = 'D';

/// One message to publish; a forwarded client message keeps a copy, to refuse it if nobody received it.
pub(super) struct Publish {
    pub(super) channel: String,
    pub(super) text: String,
    pub(super) forwarded: Option<(ConnId, ClientMsg)>,
    /// Not published: answered once everything queued before it has been.
    pub(super) flushed: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Cluster {
    /// Handles one message from Redis.
    pub(super) async fn on_message(self: &Arc<Self>, hub: &Arc<Hub>, text: &str) {
        if let Some(rest) = text.strip_prefix(DELIVER) {
            let Some((conn, body)) = rest.split_once('\n') else {
                return;
            };
            let Ok(conn) = conn.parse::<ConnId>() else { return };
            let outbox = lock(&self.local).get(&conn).cloned();
            if let Some(outbox) = outbox {
                outbox.send_text(body.to_owned().into());
            }
            return;
        }
        let Ok(msg) = serde_json::from_str::<Bus>(text) else {
            tracing::warn!("unreadable message between nodes");
            return;
        };
        match msg {
            Bus::Ping => *lock(&self.pinged) = Instant::now(),
            Bus::Fwd {
                from,
                conn,
                player,
                msg,
                retry,
            } => {
                // Order matters per connection (a move after its open): serve inline.
                self.serve_forwarded(hub, from, conn, player, msg, retry).await;
            }
            Bus::NotHere { conn, msg, retry } => {
                let Some(table) = table_of(&msg).map(str::to_owned) else {
                    return;
                };
                self.forget_route(&table);
                let outbox = lock(&self.local).get(&conn).cloned();
                let Some(outbox) = outbox else { return };
                if retry >= NOT_HERE_RETRIES {
                    // The table is between nodes for longer than expected: a move is refused (the client sends
                    // it again), an open waits for the table to be re-opened when its new owner says so.
                    if matches!(msg, ClientMsg::Move { .. }) {
                        self.undelivered(conn, &msg);
                    } else if !matches!(msg, ClientMsg::Open { .. } | ClientMsg::Close { .. }) {
                        hub.table_missing(&outbox, &table);
                    }
                    return;
                }
                let hub = hub.clone();
                let me = self.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    match hub.route(&table).await {
                        Route::Local(tx) => {
                            if let Some(cmd) = Cmd::from_client(msg, outbox) {
                                let _ = tx.send(Box::new(cmd)).await;
                            }
                        }
                        Route::Remote(node) => {
                            me.forward_as(&node, conn, outbox.session().info(), msg, retry + 1);
                        }
                        Route::Missing => hub.table_missing(&outbox, &table),
                    }
                });
            }
            Bus::CloseConn { conn, code } => {
                let outbox = lock(&self.local).get(&conn).cloned();
                if let Some(outbox) = outbox {
                    outbox.close(code, "table moved; reconnect");
                }
            }
            Bus::Lobby { node, table } if node != self.node => hub.lobby.apply(table),
            Bus::LobbyGone { node, id } if node != self.node => hub.lobby.remove_local(&id),
            Bus::Online { node, player } if node != self.node => hub.remote_online(&node, player),
            Bus::Offline { node, id } if node != self.node => hub.remote_offline(&node, &id),
            Bus::Challenge {
                node,
                id,
                from,
                to,
                spec,
                state,
                table,
            } if node != self.node => hub.challenge_apply(id, from, to, spec, state, table),
            Bus::Renamed { node, player } if node != self.node => hub.renamed_elsewhere(player),
            Bus::Marks { node, player } if node != self.node => hub.reload_marks(&player).await,
            Bus::Owner { node, tables } if node != self.node => {
                for table in tables {
                    lock(&self.routes).insert(table.clone(), node.clone());
                    let hub = hub.clone();
                    tokio::spawn(async move { hub.reopen(&table).await });
                }
            }
            Bus::Released { node, tables } if node != self.node => {
                let me = self.clone();
                let hub = hub.clone();
                tokio::spawn(async move {
                    for table in tables {
                        me.forget_route(&table);
                        me.take_over(&hub, &table).await;
                    }
                });
            }
            Bus::NodeGone { node, gone } if node != self.node && gone != self.node => {
                self.node_gone(hub, &gone)
            }
            _ => {}
        }
    }
}

/// Publishes queued messages in order, many per round trip.
pub(super) async fn publisher(
    mut redis: ConnectionManager,
    mut queue: mpsc::UnboundedReceiver<Publish>,
    cluster: std::sync::Weak<Cluster>,
) {
    let Some(stop) = cluster.upgrade().map(|c| c.stop.clone()) else {
        return;
    };
    let mut batch: Vec<Publish> = Vec::new();
    loop {
        let first = tokio::select! {
            m = queue.recv() => m,
            () = stop.cancelled() => None,
        };
        let Some(first) = first else { return };
        batch.push(first);
        while batch.len() < 512 {
            match queue.try_recv() {
                Ok(m) => batch.push(m),
                Err(_) => break,
            }
        }
        let flushes: Vec<tokio::sync::oneshot::Sender<()>> =
            batch.iter_mut().filter_map(|item| item.flushed.take()).collect();
        batch.retain(|item| !item.channel.is_empty());
        let mut pipe = redis::pipe();
        for item in &batch {
            pipe.publish(&item.channel, &item.text);
        }
        let sent: Result<Vec<i64>, _> = if batch.is_empty() {
            Ok(Vec::new())
        } else {
            pipe.query_async(&mut redis).await
        };
        match sent {
            Ok(receivers) => {
                if let Some(cluster) = cluster.upgrade() {
                    for (item, count) in batch.iter().zip(receivers) {
                        if count == 0
                            && let Some((conn, msg)) = &item.forwarded
                        {
                            cluster.undelivered(*conn, msg);
                        }
                    }
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "could not publish to other nodes");
                if let Some(cluster) = cluster.upgrade() {
                    for item in &batch {
                        if let Some((conn, msg)) = &item.forwarded {
                            cluster.undelivered(*conn, msg);
                        }
                    }
                }
            }
        }
        batch.clear();
        for done in flushes {
            let _ = done.send(());
        }
    }
}

/// Receives this node's and the site's messages; makes the subscription again when it breaks or goes silent.
pub(super) async fn listener(cluster: Arc<Cluster>, hub: std::sync::Weak<Hub>, first: redis::aio::PubSub) {
    use futures_util::StreamExt;
    let mut pubsub = Some(first);
    loop {
        if cluster.stop.is_cancelled() {
            return;
        }
        let current = match pubsub.take() {
            Some(p) => p,
            None => match cluster.subscribe().await {
                Ok(p) => {
                    if let Some(hub) = hub.upgrade() {
                        cluster.resync(&hub).await;
                    }
                    p
                }
                Err(e) => {
                    tracing::warn!(error = %e, "cannot subscribe to other nodes; retrying");
                    tokio::time::sleep(cluster.lease / 4).await;
                    continue;
                }
            },
        };
        let mut stream = current.into_on_message();
        let check = cluster.lease / 4;
        loop {
            let next = tokio::select! {
                m = timeout(check, stream.next()) => m,
                () = cluster.stop.cancelled() => return,
            };
            match next {
                Ok(Some(msg)) => {
                    let Some(hub) = hub.upgrade() else { return };
                    let text: String = match msg.get_payload() {
                        Ok(t) => t,
                        Err(_) => continue,
                    };
                    cluster.on_message(&hub, &text).await;
                }
                Ok(None) => break,
                Err(_) => {}
            }
            // Silent for two rounds of pings: the link is broken even if the socket is open.
            if lock(&cluster.pinged).elapsed() > cluster.lease / 2 {
                tracing::warn!(node = %cluster.node, "no news from Redis: subscribing again");
                break;
            }
        }
    }
}
