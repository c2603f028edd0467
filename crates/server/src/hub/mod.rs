//! The hub: what all connections and tables of a node share. It owns the registry of this node's tables and
//! private codes (`tables`), who is online and the lobby's presence news (`presence`), pending challenges
//! (`challenges`), the players' sessions and marks, and the stores. What the node shares with other nodes goes
//! through the [`Site`] it is given; the cluster, when there is one, calls back into the hub.

mod challenges;
mod presence;
mod tables;

pub use challenges::ChallengeError;
pub use tables::{CODE_ALPHABET, CODE_LEN, CreateError, CreateRefused, Route};

use crate::config::Config;
use crate::limit::Limits;
use crate::lobby::Lobby;
use crate::marks::Marks;
use crate::metrics::Metrics;
use crate::outbox::{ConnId, Session};
use crate::persist::Persist;
use crate::site::Site;
use crate::table;
use parlor_protocol::PlayerInfo;
use parlor_store::{AnyStore, Relation, Store};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// State shared by the whole server.
pub struct Hub {
    /// Settings.
    pub config: Config,
    /// The store, for reads and small writes.
    pub store: Arc<AnyStore>,
    /// Group commit for game writes.
    pub persist: Persist,
    /// Counters.
    pub metrics: Arc<Metrics>,
    /// Cancelled when the server shuts down.
    pub shutdown: CancellationToken,
    /// Tasks to wait for at shutdown.
    pub tracker: TaskTracker,
    /// The other nodes of the site (scale-out), or nobody.
    pub site: Arc<dyn Site>,
    /// Rate limits per player and per address.
    pub limits: Limits,
    /// The public tables and the connections watching them.
    pub lobby: Arc<Lobby>,
    /// Blocks and favourites.
    pub marks: Arc<Marks>,
    /// What every table of this node is given.
    context: Arc<table::Context>,
    tables: Mutex<tables::Registry>,
    people: Mutex<presence::People>,
    challenges: Mutex<HashMap<String, challenges::Challenge>>,
    sessions: Mutex<HashMap<String, Weak<Session>>>,
    next_conn: AtomicU64,
}

impl std::fmt::Debug for Hub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hub")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Hub {
    /// A hub over an opened store, sharing what it must with `site`.
    pub fn new(
        config: Config,
        store: Arc<AnyStore>,
        persist: Persist,
        metrics: Arc<Metrics>,
        shutdown: CancellationToken,
        site: Arc<dyn Site>,
    ) -> Hub {
        let lobby = Arc::new(Lobby::new(site.clone()));
        let marks = Arc::new(Marks::default());
        let context = Arc::new(table::Context {
            config: config.clone(),
            store: store.clone(),
            persist: persist.clone(),
            metrics: metrics.clone(),
            shutdown: shutdown.clone(),
            site: site.clone(),
            lobby: lobby.clone(),
            marks: marks.clone(),
        });
        Hub {
            config,
            store,
            persist,
            metrics,
            shutdown,
            tracker: TaskTracker::new(),
            site,
            limits: Limits::default(),
            lobby,
            marks,
            context,
            tables: Mutex::new(tables::Registry::default()),
            people: Mutex::new(presence::People::default()),
            challenges: Mutex::new(HashMap::new()),
            sessions: Mutex::new(HashMap::new()),
            next_conn: AtomicU64::new(1),
        }
    }

    /// A fresh connection id.
    pub fn next_conn(&self) -> ConnId {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// The session of a player, shared by their connections; loads their marks on first use.
    pub async fn session(&self, info: PlayerInfo) -> Arc<Session> {
        if let Some(s) = lock(&self.sessions).get(&info.id).and_then(Weak::upgrade) {
            s.rename(info.name);
            return s;
        }
        let session = Arc::new(Session::new(info.clone()));
        self.load_marks(&session).await;
        let mut sessions = lock(&self.sessions);
        // Another connection of the same player may have raced us: keep one session.
        if let Some(s) = sessions.get(&info.id).and_then(Weak::upgrade) {
            return s;
        }
        sessions.insert(info.id.clone(), Arc::downgrade(&session));
        session
    }

    /// The session of a player with a connection here, if any.
    fn live_session(&self, player: &str) -> Option<Arc<Session>> {
        lock(&self.sessions).get(player).and_then(Weak::upgrade)
    }

    /// Loads a player's marks (block, mute, favourite) from the store into memory.
    async fn load_marks(&self, session: &Session) {
        let id = session.id();
        match self.store.relations(&id).await {
            Ok(marks) => {
                let mut blocks = HashSet::new();
                let mut favs = HashSet::new();
                let mut mutes = HashSet::new();
                for (other, relation) in marks {
                    match relation {
                        Relation::Mute => mutes.insert(other),
                        Relation::Block => blocks.insert(other),
                        Relation::Favourite => favs.insert(other),
                    };
                }
                session.set_mutes(mutes);
                self.marks.load(&id, blocks, favs);
            }
            Err(e) => tracing::warn!(player = %id, error = %e, "could not load relations"),
        }
    }

    /// Another node changed a player's marks: reload them if the player has a session here.
    pub async fn reload_marks(&self, player: &str) {
        if let Some(session) = self.live_session(player) {
            self.load_marks(&session).await;
        }
    }

    /// Sets or clears a mark in memory (the caller stores it and tells the site).
    pub fn set_mark(&self, session: &Session, other: &str, relation: Relation, on: bool) {
        match relation {
            Relation::Mute => session.set_muted(other, on),
            Relation::Block | Relation::Favourite => self.marks.set(&session.id(), other, relation, on),
        }
    }
}
