//! The lobby: the public tables of the whole site and the connections here that watch them. A table of this node
//! publishes its changes here (and, through the [`Site`], to the other nodes); changes from other nodes arrive
//! through the cluster.

use crate::outbox::{ConnId, Outbox, encode};
use crate::site::Site;
use parlor_protocol::{LobbyTable, OnlinePlayer, ServerMsg};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

/// The lobby's tables and watchers.
#[derive(Debug)]
pub struct Lobby {
    site: Arc<dyn Site>,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    subscribers: HashMap<ConnId, Outbox>,
    tables: BTreeMap<String, LobbyTable>,
}

impl Lobby {
    /// An empty lobby whose own changes go to `site` too.
    pub fn new(site: Arc<dyn Site>) -> Lobby {
        Lobby {
            site,
            state: Mutex::new(State::default()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a connection gets lobby updates.
    pub fn is_subscribed(&self, conn: ConnId) -> bool {
        self.lock().subscribers.contains_key(&conn)
    }

    /// Starts lobby updates for a connection: it gets the whole lobby with `players` (who is online, as it sees
    /// them) first. Nothing happens if it is subscribed already.
    pub fn subscribe(&self, outbox: &Outbox, players: Vec<OnlinePlayer>) {
        let mut state = self.lock();
        if state.subscribers.contains_key(&outbox.conn()) {
            return;
        }
        let tables = state.tables.values().cloned().collect();
        outbox.send(&ServerMsg::Lobby { tables, players });
        state.subscribers.insert(outbox.conn(), outbox.clone());
    }

    /// Stops lobby updates for a connection.
    pub fn unsubscribe(&self, conn: ConnId) {
        self.lock().subscribers.remove(&conn);
    }

    /// Calls `f` with every subscribed connection (the lobby is locked meanwhile: `f` must not come back here).
    pub fn each_subscriber(&self, mut f: impl FnMut(&Outbox)) {
        for outbox in self.lock().subscribers.values() {
            f(outbox);
        }
    }

    /// A public table of this node changed: the other nodes and the watchers here are told.
    pub fn update(&self, table: LobbyTable) {
        self.site.lobby_changed(&table);
        self.apply(table);
    }

    /// A public table changed (here or on another node): the watchers here are told.
    pub fn apply(&self, table: LobbyTable) {
        let mut state = self.lock();
        let text = encode(&ServerMsg::LobbyTable { table: table.clone() });
        state.tables.insert(table.id.clone(), table);
        state.subscribers.retain(|_, o| o.send_text(text.clone()));
    }

    /// The site's lobby as another node keeps it (a node joining the site).
    pub fn load(&self, tables: Vec<LobbyTable>) {
        let mut state = self.lock();
        for table in tables {
            state.tables.insert(table.id.clone(), table);
        }
    }

    /// A public table of this node is gone.
    pub fn remove(&self, id: &str) {
        self.site.lobby_gone(id);
        self.remove_local(id);
    }

    /// A public table is gone (here or on another node): the watchers here are told.
    pub fn remove_local(&self, id: &str) {
        let mut state = self.lock();
        if state.tables.remove(id).is_some() {
            let text = encode(&ServerMsg::LobbyGone { id: id.to_owned() });
            state.subscribers.retain(|_, o| o.send_text(text.clone()));
        }
    }
}
