//! The hub: what all connections and tables share. The registry of tables and private codes, the lobby and its
//! subscribers, who is online, and the stores.

use crate::config::Config;
use crate::metrics::Metrics;
use crate::outbox::{ConnId, Outbox, Session, encode};
use crate::persist::Persist;
use crate::table::{Cmd, Table};
use parlor_protocol::{LobbyTable, OnlinePlayer, PlayerInfo, ServerMsg, TableSpec};
use parlor_store::{AnyStore, Relation, Store, StoreError};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Letters of private codes: no look-alikes (no 0/O, 1/I/L).
pub const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Length of a private code (31^6, nearly 900 million codes).
pub const CODE_LEN: usize = 6;
/// Commands queued per table before senders wait.
const INBOX: usize = 1024;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[derive(Default)]
struct Lobby {
    subscribers: HashMap<ConnId, Outbox>,
    tables: BTreeMap<String, LobbyTable>,
}

struct Presence {
    info: PlayerInfo,
    conns: usize,
    visible: bool,
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
    tables: Mutex<HashMap<String, mpsc::Sender<Cmd>>>,
    codes: Mutex<HashMap<String, String>>,
    lobby: Mutex<Lobby>,
    sessions: Mutex<HashMap<String, Weak<Session>>>,
    presence: Mutex<HashMap<String, Presence>>,
    blocks: Mutex<HashMap<String, HashSet<String>>>,
    favourites: Mutex<HashMap<String, HashSet<String>>>,
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
    /// A hub over an opened store.
    pub fn new(
        config: Config,
        store: Arc<AnyStore>,
        persist: Persist,
        metrics: Arc<Metrics>,
        shutdown: CancellationToken,
    ) -> Hub {
        Hub {
            config,
            store,
            persist,
            metrics,
            shutdown,
            tracker: TaskTracker::new(),
            tables: Mutex::new(HashMap::new()),
            codes: Mutex::new(HashMap::new()),
            lobby: Mutex::new(Lobby::default()),
            sessions: Mutex::new(HashMap::new()),
            presence: Mutex::new(HashMap::new()),
            blocks: Mutex::new(HashMap::new()),
            favourites: Mutex::new(HashMap::new()),
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
        match self.store.relations(&info.id).await {
            Ok(marks) => {
                let mut blocks = HashSet::new();
                let mut favs = HashSet::new();
                for (other, relation) in marks {
                    match relation {
                        Relation::Mute => session.set_muted(&other, true),
                        Relation::Block => {
                            blocks.insert(other);
                        }
                        Relation::Favourite => {
                            favs.insert(other);
                        }
                    }
                }
                lock(&self.blocks).insert(info.id.clone(), blocks);
                lock(&self.favourites).insert(info.id.clone(), favs);
            }
            Err(e) => tracing::warn!(player = %info.id, error = %e, "could not load relations"),
        }
        let mut sessions = lock(&self.sessions);
        // Another connection of the same player may have raced us: keep one session.
        if let Some(s) = sessions.get(&info.id).and_then(Weak::upgrade) {
            return s;
        }
        sessions.insert(info.id.clone(), Arc::downgrade(&session));
        session
    }

    /// Whether `owner` blocked `other`.
    pub fn has_blocked(&self, owner: &str, other: &str) -> bool {
        lock(&self.blocks).get(owner).is_some_and(|b| b.contains(other))
    }

    /// Whether `owner` marked `other` as a favourite.
    pub fn is_favourite(&self, owner: &str, other: &str) -> bool {
        lock(&self.favourites)
            .get(owner)
            .is_some_and(|b| b.contains(other))
    }

    /// Sets or clears a mark in memory (the caller stores it).
    pub fn set_mark(&self, session: &Session, other: &str, relation: Relation, on: bool) {
        let owner = session.id();
        let map = match relation {
            Relation::Mute => {
                session.set_muted(other, on);
                return;
            }
            Relation::Block => &self.blocks,
            Relation::Favourite => &self.favourites,
        };
        let mut map = lock(map);
        let set = map.entry(owner).or_default();
        if on {
            set.insert(other.to_owned());
        } else {
            set.remove(other);
        }
    }

    /// A connection came: the player is online (unless they chose to appear offline).
    pub fn connected(&self, info: &PlayerInfo) -> bool {
        let mut presence = lock(&self.presence);
        let entry = presence.entry(info.id.clone()).or_insert(Presence {
            info: info.clone(),
            conns: 0,
            visible: true,
        });
        entry.conns += 1;
        entry.info = info.clone();
        let first = entry.conns == 1 && entry.visible;
        let visible = entry.visible;
        drop(presence);
        if first {
            self.announce_presence(info, true);
        }
        visible
    }

    /// A connection went: the player goes offline with their last connection.
    pub fn disconnected(&self, conn: ConnId, player: &str) {
        lock(&self.lobby).subscribers.remove(&conn);
        let mut presence = lock(&self.presence);
        let Some(entry) = presence.get_mut(player) else {
            return;
        };
        entry.conns = entry.conns.saturating_sub(1);
        if entry.conns == 0 {
            let info = entry.info.clone();
            let visible = entry.visible;
            presence.remove(player);
            drop(presence);
            if visible {
                self.announce_presence(&info, false);
            }
        }
    }

    /// Whether a player is online and visible.
    pub fn is_online(&self, player: &str) -> bool {
        lock(&self.presence)
            .get(player)
            .is_some_and(|p| p.conns > 0 && p.visible)
    }

    /// Sets a player's visibility.
    pub fn set_visible(&self, info: &PlayerInfo, visible: bool) {
        let mut presence = lock(&self.presence);
        let Some(entry) = presence.get_mut(&info.id) else {
            return;
        };
        if entry.visible == visible {
            return;
        }
        entry.visible = visible;
        drop(presence);
        self.announce_presence(info, visible);
    }

    fn announce_presence(&self, info: &PlayerInfo, online: bool) {
        let lobby = lock(&self.lobby);
        for outbox in lobby.subscribers.values() {
            let viewer = outbox.session().id();
            let msg = if online {
                ServerMsg::PlayerOnline {
                    player: OnlinePlayer {
                        player: info.clone(),
                        favourite: self.is_favourite(&viewer, &info.id),
                    },
                }
            } else {
                ServerMsg::PlayerOffline { id: info.id.clone() }
            };
            outbox.send(&msg);
        }
    }

    /// Online visible players as `viewer` sees them, favourites first, then by name.
    pub fn online_players(&self, viewer: &str) -> Vec<OnlinePlayer> {
        let presence = lock(&self.presence);
        let mut players: Vec<OnlinePlayer> = presence
            .values()
            .filter(|p| p.visible && p.conns > 0)
            .map(|p| OnlinePlayer {
                player: p.info.clone(),
                favourite: self.is_favourite(viewer, &p.info.id),
            })
            .collect();
        players.sort_by(|a, b| {
            b.favourite
                .cmp(&a.favourite)
                .then_with(|| a.player.name.cmp(&b.player.name))
        });
        players
    }

    /// Starts or stops lobby updates for a connection (a start sends the whole lobby).
    pub fn lobby_subscribe(&self, outbox: &Outbox, on: bool) {
        let viewer = outbox.session().id();
        let players = if on {
            self.online_players(&viewer)
        } else {
            Vec::new()
        };
        let mut lobby = lock(&self.lobby);
        if on {
            let tables = lobby.tables.values().cloned().collect();
            outbox.send(&ServerMsg::Lobby { tables, players });
            lobby.subscribers.insert(outbox.conn(), outbox.clone());
        } else {
            lobby.subscribers.remove(&outbox.conn());
        }
    }

    /// A public table changed.
    pub fn lobby_update(&self, table: LobbyTable) {
        let mut lobby = lock(&self.lobby);
        let text = encode(&ServerMsg::LobbyTable { table: table.clone() });
        lobby.tables.insert(table.id.clone(), table);
        lobby.subscribers.retain(|_, o| o.send_text(text.clone()));
    }

    fn lobby_remove(&self, id: &str) {
        let mut lobby = lock(&self.lobby);
        if lobby.tables.remove(id).is_some() {
            let text = encode(&ServerMsg::LobbyGone { id: id.to_owned() });
            lobby.subscribers.retain(|_, o| o.send_text(text.clone()));
        }
    }

    /// The inbox of a table.
    pub fn table(&self, id: &str) -> Option<mpsc::Sender<Cmd>> {
        lock(&self.tables).get(id).cloned()
    }

    /// The id of the table with a private code (case-insensitive).
    pub fn table_by_code(&self, code: &str) -> Option<String> {
        lock(&self.codes).get(&code.trim().to_ascii_uppercase()).cloned()
    }

    /// Forgets a closed table.
    pub fn remove_table(&self, id: &str, code: Option<&str>) {
        lock(&self.tables).remove(id);
        if let Some(code) = code {
            lock(&self.codes).remove(code);
        }
        self.lobby_remove(id);
        self.metrics.tables.fetch_sub(1, Ordering::Relaxed);
    }

    fn new_code(&self) -> String {
        let codes = lock(&self.codes);
        loop {
            let code: String = (0..CODE_LEN)
                .map(|_| CODE_ALPHABET[rand::random_range(0..CODE_ALPHABET.len())] as char)
                .collect();
            if !codes.contains_key(&code) {
                return code;
            }
        }
    }

    /// Creates a table for `creator`, stores it and starts its task. Returns its id and private code.
    ///
    /// # Errors
    /// A message for `bad_spec`, or the store's error.
    pub async fn create_table(
        self: &Arc<Self>,
        spec: TableSpec,
        creator: PlayerInfo,
    ) -> Result<(String, Option<String>), String> {
        let id = uuid::Uuid::now_v7().simple().to_string();
        let code = spec.private.then(|| self.new_code());
        let (tx, rx) = mpsc::channel(INBOX);
        let table = Table::create(
            self.clone(),
            id.clone(),
            code.clone(),
            spec,
            creator,
            tx.downgrade(),
        )?;
        self.store
            .create_table(&table.record())
            .await
            .map_err(|e: StoreError| e.to_string())?;
        self.spawn(table, tx, rx, code.clone());
        Ok((id, code))
    }

    fn spawn(
        self: &Arc<Self>,
        table: Table,
        tx: mpsc::Sender<Cmd>,
        rx: mpsc::Receiver<Cmd>,
        code: Option<String>,
    ) {
        let id = table.id().to_owned();
        lock(&self.tables).insert(id.clone(), tx);
        if let Some(code) = code {
            lock(&self.codes).insert(code, id);
        }
        self.metrics.tables.fetch_add(1, Ordering::Relaxed);
        self.tracker.spawn(table.run(rx));
    }

    /// Brings back every open table and live game from the store (after a restart).
    ///
    /// # Errors
    /// The store's error.
    pub async fn restore(self: &Arc<Self>) -> Result<usize, StoreError> {
        let tables = self.store.open_tables().await?;
        let games = self.store.live_games().await?;
        let mut by_table: HashMap<String, parlor_store::StoredGame> =
            games.into_iter().map(|g| (g.game.table_id.clone(), g)).collect();
        let mut restored = 0;
        for record in tables {
            let live = by_table.remove(&record.id);
            let (tx, rx) = mpsc::channel(INBOX);
            match Table::restore(self.clone(), &record, live.as_ref(), tx.downgrade()) {
                Ok(table) => {
                    if live.is_some() {
                        self.metrics.live_games.fetch_add(1, Ordering::Relaxed);
                    }
                    self.spawn(table, tx, rx, record.code.clone());
                    restored += 1;
                }
                Err(e) => tracing::error!(table = %record.id, error = %e, "could not restore table"),
            }
        }
        Ok(restored)
    }

    /// Stores a chat line.
    ///
    /// # Errors
    /// The store's error.
    pub async fn store_chat(&self, table: &str, player: &str, text: &str) -> Result<(), StoreError> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        self.store.add_chat(table, player, text, now).await.map(|_| ())
    }

    /// Sends a command to every table, e.g. a rename.
    pub fn to_all_tables(&self, make: impl Fn() -> Cmd) {
        for tx in lock(&self.tables).values() {
            let _ = tx.try_send(make());
        }
    }
}
