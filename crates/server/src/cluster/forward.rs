//! Forwarding: this node's connections and the tables they watch wherever those run; a client's table message
//! sent to the table's owner, served there through a proxy connection whose messages travel back in order; what
//! happens to messages that reach nobody, and to the proxies of a node that is gone.

use super::bus::{Bus, DELIVER, Publish};
use super::{Cluster, lock};
use crate::hub::Hub;
use crate::outbox::{ConnId, Out, Outbox};
use crate::table::command::{Cmd, table_of};
use parlor_protocol::{ClientMsg, PlayerInfo};
use std::collections::HashSet;
use std::sync::Arc;

/// A remote connection's proxy on the owner: its outbox and the tables it opened here.
pub(super) struct Proxy {
    pub(super) outbox: Outbox,
    pub(super) tables: HashSet<String>,
}

impl Cluster {
    pub(super) fn forward_as(&self, node: &str, conn: ConnId, player: PlayerInfo, msg: ClientMsg, retry: u8) {
        let bus = Bus::Fwd {
            from: self.node.clone(),
            conn,
            player,
            msg: msg.clone(),
            retry,
        };
        if let Ok(text) = serde_json::to_string(&bus) {
            let _ = self.publish.send(Publish {
                channel: self.channel(node),
                text,
                forwarded: Some((conn, msg)),
                flushed: None,
            });
        }
    }

    /// A forwarded message reached nobody: the owner is gone (its lease has not expired yet). The route is
    /// forgotten, and a command waiting for an answer is refused so that the client tries again.
    pub(super) fn undelivered(&self, conn: ConnId, msg: &ClientMsg) {
        let Some(table) = table_of(msg) else {
            return;
        };
        self.forget_route(table);
        let outbox = lock(&self.local).get(&conn).cloned();
        let Some(outbox) = outbox else { return };
        let ack = match msg {
            ClientMsg::Move { ack, .. } => Some(*ack),
            ClientMsg::Open { .. } | ClientMsg::Close { .. } => return,
            _ => None,
        };
        outbox.send(&parlor_protocol::ServerMsg::Error {
            code: parlor_protocol::ErrorCode::Unavailable,
            message: "this table is moving to another server; try again in a moment".to_owned(),
            table: Some(table.to_owned()),
            ack,
        });
    }

    /// The proxy outbox of another node's connection, made on first use.
    pub(super) async fn proxy(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        node: &str,
        conn: ConnId,
        player: PlayerInfo,
    ) -> Outbox {
        let key = (node.to_owned(), conn);
        if let Some(p) = lock(&self.proxies).get(&key) {
            return p.outbox.clone();
        }
        let session = hub.session(player).await;
        let (outbox, mut rx) = Outbox::new(hub.next_conn(), session);
        let mut proxies = lock(&self.proxies);
        if let Some(p) = proxies.get(&key) {
            return p.outbox.clone();
        }
        proxies.insert(
            key,
            Proxy {
                outbox: outbox.clone(),
                tables: HashSet::new(),
            },
        );
        drop(proxies);
        let publish = self.publish.clone();
        let channel = self.channel(node);
        tokio::spawn(async move {
            while let Some(out) = rx.recv().await {
                let frame = match out {
                    Out::Text(text) => format!("{DELIVER}{conn}\n{}", text.as_str()),
                    Out::Close(code, _) => {
                        serde_json::to_string(&Bus::CloseConn { conn, code }).unwrap_or_default()
                    }
                };
                let item = Publish {
                    channel: channel.clone(),
                    text: frame,
                    forwarded: None,
                    flushed: None,
                };
                if publish.send(item).is_err() {
                    break;
                }
            }
        });
        outbox
    }

    /// A forwarded message arrived for a table of ours.
    pub(super) async fn serve_forwarded(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        from: String,
        conn: ConnId,
        player: PlayerInfo,
        msg: ClientMsg,
        retry: u8,
    ) {
        let Some(table) = table_of(&msg).map(str::to_owned) else {
            return;
        };
        // Not here, or here but stopping (a graceful stop hands the table over in a moment): the sender retries.
        let Some(tx) = hub.table(&table).filter(|_| !hub.shutdown.is_cancelled()) else {
            self.send(&from, &Bus::NotHere { conn, msg, retry });
            return;
        };
        let copy = msg.clone();
        let closing = matches!(msg, ClientMsg::Close { .. });
        let outbox = self.proxy(hub, &from, conn, player).await;
        {
            let mut proxies = lock(&self.proxies);
            let key = (from.clone(), conn);
            if let Some(p) = proxies.get_mut(&key) {
                if closing {
                    p.tables.remove(&table);
                    if p.tables.is_empty() {
                        proxies.remove(&key);
                    }
                } else {
                    p.tables.insert(table.clone());
                }
            }
        }
        if let Some(cmd) = Cmd::from_client(msg, outbox)
            && tx.send(Box::new(cmd)).await.is_err()
        {
            self.send(
                &from,
                &Bus::NotHere {
                    conn,
                    msg: copy,
                    retry,
                },
            );
        }
    }

    /// A node is gone: its connections stop watching our tables; its players go offline here.
    pub(super) fn node_gone(&self, hub: &Arc<Hub>, node: &str) {
        let gone: Vec<(Outbox, HashSet<String>)> = {
            let mut proxies = lock(&self.proxies);
            let keys: Vec<(String, ConnId)> = proxies.keys().filter(|(n, _)| n == node).cloned().collect();
            keys.iter()
                .filter_map(|k| proxies.remove(k))
                .map(|p| (p.outbox, p.tables))
                .collect()
        };
        for (outbox, tables) in gone {
            for table in tables {
                if let Some(tx) = hub.table(&table) {
                    let _ = tx.try_send(Box::new(Cmd::Close { conn: outbox.conn() }));
                }
            }
        }
        lock(&self.routes).retain(|_, n| n != node);
        lock(&self.live_nodes).retain(|n| n != node);
        hub.node_gone(node);
    }
}
