//! The hub: what all connections and tables share. The registry of tables and private codes, the lobby and its
//! subscribers, who is online, and the stores.

use crate::config::Config;
use crate::metrics::Metrics;
use crate::outbox::{ConnId, Outbox, Session, encode};
use crate::persist::Persist;
use crate::table::{Cmd, Table};
use parlor_protocol::{
    ChallengeState, ErrorCode, LobbyTable, OnlinePlayer, PlayerInfo, ServerMsg, TableSpec,
};
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

fn not_found() -> (ErrorCode, String) {
    (
        ErrorCode::ChallengeNotFound,
        "no such challenge (it may have been answered or withdrawn)".to_owned(),
    )
}

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
    outboxes: HashMap<ConnId, Outbox>,
    visible: bool,
}

/// A challenge waiting for an answer.
#[derive(Clone, Debug)]
struct Challenge {
    id: String,
    from: PlayerInfo,
    to: PlayerInfo,
    spec: TableSpec,
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
    challenges: Mutex<HashMap<String, Challenge>>,
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
            challenges: Mutex::new(HashMap::new()),
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

    /// A connection came: the player is online (unless they chose to appear offline). Returns their visibility.
    pub fn connected(&self, outbox: &Outbox) -> bool {
        let info = outbox.session().info();
        let mut presence = lock(&self.presence);
        let entry = presence.entry(info.id.clone()).or_insert(Presence {
            info: info.clone(),
            outboxes: HashMap::new(),
            visible: true,
        });
        entry.outboxes.insert(outbox.conn(), outbox.clone());
        entry.info = info.clone();
        let first = entry.outboxes.len() == 1 && entry.visible;
        let visible = entry.visible;
        drop(presence);
        if first {
            self.announce_presence(&info, true);
        }
        visible
    }

    /// A connection went: the player goes offline with their last connection, and their challenges lapse.
    pub fn disconnected(&self, conn: ConnId, player: &str) {
        lock(&self.lobby).subscribers.remove(&conn);
        let mut presence = lock(&self.presence);
        let Some(entry) = presence.get_mut(player) else {
            return;
        };
        entry.outboxes.remove(&conn);
        if entry.outboxes.is_empty() {
            let info = entry.info.clone();
            let visible = entry.visible;
            presence.remove(player);
            drop(presence);
            if visible {
                self.announce_presence(&info, false);
            }
            self.challenges_gone(player);
        }
    }

    /// A player changed their name: the lobby list shows the new one.
    pub fn renamed(&self, info: &PlayerInfo) {
        if let Some(entry) = lock(&self.presence).get_mut(&info.id) {
            entry.info = info.clone();
        }
    }

    /// Whether a player is online and visible.
    pub fn is_online(&self, player: &str) -> bool {
        lock(&self.presence)
            .get(player)
            .is_some_and(|p| !p.outboxes.is_empty() && p.visible)
    }

    /// Sets a player's visibility; going offline withdraws their challenges.
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
        if !visible {
            self.challenges_gone(&info.id);
        }
    }

    /// Sends a message to every connection of a player.
    pub fn to_player(&self, player: &str, msg: &ServerMsg) {
        let text = encode(msg);
        if let Some(p) = lock(&self.presence).get(player) {
            for outbox in p.outboxes.values() {
                outbox.send_text(text.clone());
            }
        }
    }

    fn challenge_msg(c: &Challenge, state: ChallengeState, table: Option<String>) -> ServerMsg {
        ServerMsg::Challenge {
            id: c.id.clone(),
            from: c.from.clone(),
            to: c.to.clone(),
            spec: c.spec.clone(),
            state,
            table,
        }
    }

    fn tell_both(&self, c: &Challenge, state: ChallengeState, table: Option<String>) {
        let msg = Hub::challenge_msg(c, state, table);
        self.to_player(&c.from.id, &msg);
        self.to_player(&c.to.id, &msg);
    }

    /// `from` challenges player `to` to a game.
    ///
    /// # Errors
    /// The code and words to send back: the player is offline, blocked, or the spec is invalid.
    pub fn challenge(&self, from: PlayerInfo, to: &str, spec: TableSpec) -> Result<(), (ErrorCode, String)> {
        if to == from.id {
            return Err((ErrorCode::NotAllowed, "you cannot challenge yourself".into()));
        }
        if self.has_blocked(to, &from.id) || self.has_blocked(&from.id, to) {
            return Err((ErrorCode::Blocked, "you cannot challenge this player".into()));
        }
        let Some(to) = lock(&self.presence)
            .get(to)
            .filter(|p| p.visible && !p.outboxes.is_empty())
            .map(|p| p.info.clone())
        else {
            return Err((ErrorCode::PlayerOffline, "that player is not online".into()));
        };
        crate::table::validate_spec(&spec).map_err(|e| (ErrorCode::BadSpec, e))?;
        let challenge = Challenge {
            id: uuid::Uuid::new_v4().simple().to_string(),
            from,
            to,
            spec,
        };
        lock(&self.challenges).insert(challenge.id.clone(), challenge.clone());
        self.tell_both(&challenge, ChallengeState::Pending, None);
        Ok(())
    }

    /// The challenger withdraws.
    ///
    /// # Errors
    /// `challenge_not_found` if there is no such pending challenge of theirs.
    pub fn cancel_challenge(&self, player: &str, id: &str) -> Result<(), (ErrorCode, String)> {
        let mut challenges = lock(&self.challenges);
        match challenges.get(id) {
            Some(c) if c.from.id == player => {
                let c = challenges.remove(id).ok_or_else(not_found)?;
                drop(challenges);
                self.tell_both(&c, ChallengeState::Cancelled, None);
                Ok(())
            }
            _ => Err(not_found()),
        }
    }

    /// The challenged player answers; an acceptance seats both at a new table at once.
    ///
    /// # Errors
    /// `challenge_not_found`, or the table could not be made.
    pub async fn answer_challenge(
        self: &Arc<Self>,
        player: &str,
        id: &str,
        accept: bool,
    ) -> Result<(), (ErrorCode, String)> {
        let challenge = {
            let mut challenges = lock(&self.challenges);
            match challenges.get(id) {
                Some(c) if c.to.id == player => challenges.remove(id).ok_or_else(not_found)?,
                _ => return Err(not_found()),
            }
        };
        if !accept {
            self.tell_both(&challenge, ChallengeState::Declined, None);
            return Ok(());
        }
        let (table, _) = self
            .create_table(
                challenge.spec.clone(),
                challenge.from.clone(),
                Some(challenge.to.clone()),
            )
            .await
            .map_err(|e| (ErrorCode::BadSpec, e))?;
        self.tell_both(&challenge, ChallengeState::Accepted, Some(table));
        Ok(())
    }

    /// Every pending challenge from or to `player` lapses: the other side is told.
    fn challenges_gone(&self, player: &str) {
        let gone: Vec<Challenge> = {
            let mut challenges = lock(&self.challenges);
            let ids: Vec<String> = challenges
                .values()
                .filter(|c| c.from.id == player || c.to.id == player)
                .map(|c| c.id.clone())
                .collect();
            ids.iter().filter_map(|id| challenges.remove(id)).collect()
        };
        for c in gone {
            self.tell_both(&c, ChallengeState::Gone, None);
        }
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
            .filter(|p| p.visible && !p.outboxes.is_empty())
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

    /// Creates a table for `creator` (and `guest`, seated too: an accepted challenge), stores it and starts its task. Returns its id and private code.
    ///
    /// # Errors
    /// A message for `bad_spec`, or the store's error.
    pub async fn create_table(
        self: &Arc<Self>,
        spec: TableSpec,
        creator: PlayerInfo,
        guest: Option<PlayerInfo>,
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
            guest,
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
