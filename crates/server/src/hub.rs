//! The hub: what all connections and tables share. The registry of tables and private codes, the lobby and its
//! subscribers, who is online, and the stores.

use crate::cluster::Cluster;
use crate::config::Config;
use crate::limit::{self, Limits};
use crate::metrics::Metrics;
use crate::outbox::{ConnId, Outbox, Session, encode};
use crate::persist::Persist;
use crate::table::Table;
use crate::table::command::Cmd;
use parlor_protocol::{
    ChallengeState, ErrorCode, LobbyTable, OnlinePlayer, PlayerInfo, ServerMsg, TableSpec,
};
use parlor_store::{AnyStore, Relation, Store, StoreError, TableRecord};
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

/// Where a table's commands go.
#[derive(Debug)]
pub enum Route {
    /// A table of this node: its inbox.
    Local(mpsc::Sender<Cmd>),
    /// A table owned by another node (scale-out): forward to it.
    Remote(String),
    /// No such table, or it has closed.
    Missing,
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
    /// The site this node is part of, when it runs with others (scale-out).
    pub cluster: Option<Arc<Cluster>>,
    /// Rate limits per player and per address.
    pub limits: Limits,
    /// The host (creator) of each open table created here, for the cap on tables a player hosts.
    hosts: Mutex<HashMap<String, String>>,
    /// Players visible on other nodes: their info and the nodes where they are.
    remote_presence: Mutex<HashMap<String, (PlayerInfo, HashSet<String>)>>,
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
        cluster: Option<Arc<Cluster>>,
    ) -> Hub {
        Hub {
            config,
            store,
            persist,
            metrics,
            shutdown,
            tracker: TaskTracker::new(),
            cluster,
            limits: Limits::default(),
            hosts: Mutex::new(HashMap::new()),
            remote_presence: Mutex::new(HashMap::new()),
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
        self.load_marks(&session).await;
        let mut sessions = lock(&self.sessions);
        // Another connection of the same player may have raced us: keep one session.
        if let Some(s) = sessions.get(&info.id).and_then(Weak::upgrade) {
            return s;
        }
        sessions.insert(info.id.clone(), Arc::downgrade(&session));
        session
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
                        Relation::Mute => {
                            mutes.insert(other);
                        }
                        Relation::Block => {
                            blocks.insert(other);
                        }
                        Relation::Favourite => {
                            favs.insert(other);
                        }
                    }
                }
                session.set_mutes(mutes);
                lock(&self.blocks).insert(id.clone(), blocks);
                lock(&self.favourites).insert(id, favs);
            }
            Err(e) => tracing::warn!(player = %id, error = %e, "could not load relations"),
        }
    }

    /// Another node changed a player's marks: reload them if the player has a session here.
    pub async fn reload_marks(&self, player: &str) {
        let session = lock(&self.sessions).get(player).and_then(Weak::upgrade);
        if let Some(session) = session {
            self.load_marks(&session).await;
        }
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
        if let Some(cluster) = &self.cluster {
            cluster.connected(outbox);
        }
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
            self.visible_here(&info, true);
        }
        visible
    }

    /// A connection went: the player goes offline with their last connection, and their challenges lapse.
    pub async fn disconnected(&self, conn: ConnId, player: &str) {
        if let Some(cluster) = &self.cluster {
            cluster.disconnected(conn);
        }
        lock(&self.lobby).subscribers.remove(&conn);
        let last = {
            let mut presence = lock(&self.presence);
            let Some(entry) = presence.get_mut(player) else {
                return;
            };
            entry.outboxes.remove(&conn);
            if entry.outboxes.is_empty() {
                let last = (entry.info.clone(), entry.visible);
                presence.remove(player);
                Some(last)
            } else {
                None
            }
        };
        if let Some((info, visible)) = last {
            if visible {
                self.visible_here(&info, false);
            }
            if !self.is_connected_anywhere(player) {
                self.challenges_gone(player).await;
            }
        }
    }

    /// A player became visible on this node, or stopped being: other nodes are told, and lobby watchers here
    /// if that changes whether the player is online at all.
    fn visible_here(&self, info: &PlayerInfo, online: bool) {
        if let Some(cluster) = &self.cluster {
            cluster.presence(info, online);
        }
        if !self.is_visible_elsewhere(&info.id) {
            self.announce_presence(info, online);
        }
    }

    fn is_visible_elsewhere(&self, player: &str) -> bool {
        lock(&self.remote_presence)
            .get(player)
            .is_some_and(|(_, nodes)| !nodes.is_empty())
    }

    fn is_connected_anywhere(&self, player: &str) -> bool {
        lock(&self.presence).contains_key(player) || self.is_visible_elsewhere(player)
    }

    /// What other nodes said of who is online there (a node joining the site).
    pub fn presence_load(&self, online: Vec<(String, PlayerInfo)>) {
        let mut remote = lock(&self.remote_presence);
        remote.clear();
        for (node, info) in online {
            remote
                .entry(info.id.clone())
                .or_insert_with(|| (info.clone(), HashSet::new()))
                .1
                .insert(node);
        }
    }

    /// Tells the other nodes again who is visible here (after this node lost touch with them).
    pub fn republish_presence(&self) {
        let Some(cluster) = &self.cluster else { return };
        let visible: Vec<PlayerInfo> = lock(&self.presence)
            .values()
            .filter(|p| p.visible && !p.outboxes.is_empty())
            .map(|p| p.info.clone())
            .collect();
        for info in visible {
            cluster.presence(&info, true);
        }
    }

    /// A player became visible on another node.
    pub fn remote_online(&self, node: &str, info: PlayerInfo) {
        let was = self.is_online(&info.id);
        {
            let mut remote = lock(&self.remote_presence);
            let entry = remote
                .entry(info.id.clone())
                .or_insert_with(|| (info.clone(), HashSet::new()));
            entry.0 = info.clone();
            entry.1.insert(node.to_owned());
        }
        if !was {
            self.announce_presence(&info, true);
        }
    }

    /// A player stopped being visible on another node.
    pub fn remote_offline(&self, node: &str, player: &str) {
        let info = {
            let mut remote = lock(&self.remote_presence);
            let Some((info, nodes)) = remote.get_mut(player) else {
                return;
            };
            nodes.remove(node);
            let info = info.clone();
            if nodes.is_empty() {
                remote.remove(player);
            }
            info
        };
        if !self.is_online(player) {
            self.announce_presence(&info, false);
        }
    }

    /// A node is gone: its players are no longer online there, and their challenges lapse if they are nowhere.
    pub fn node_gone(self: &Arc<Self>, node: &str) {
        let players: Vec<String> = lock(&self.remote_presence)
            .iter()
            .filter(|(_, (_, nodes))| nodes.contains(node))
            .map(|(id, _)| id.clone())
            .collect();
        for player in players {
            self.remote_offline(node, &player);
            if !self.is_connected_anywhere(&player) {
                let hub = self.clone();
                tokio::spawn(async move { hub.challenges_gone(&player).await });
            }
        }
    }

    /// A player changed their name: the lobby list shows the new one.
    pub fn renamed(&self, info: &PlayerInfo) {
        if let Some(entry) = lock(&self.presence).get_mut(&info.id) {
            entry.info = info.clone();
        }
        if let Some(cluster) = &self.cluster {
            cluster.renamed(info);
        }
    }

    /// A player changed their name on another node: tables and lists here follow.
    pub fn renamed_elsewhere(&self, info: PlayerInfo) {
        if let Some(entry) = lock(&self.remote_presence).get_mut(&info.id) {
            entry.0 = info.clone();
        }
        if let Some(session) = lock(&self.sessions).get(&info.id).and_then(Weak::upgrade) {
            session.rename(info.name.clone());
        }
        // Only in a site, after the player's own node applied the rename limit: the tables of this node that the
        // player watches from another node are not known here, so each is told (a no-op where they do not sit).
        self.to_all_tables(|| Cmd::Renamed { player: info.clone() });
    }

    /// Whether a player is online and visible (on any node).
    pub fn is_online(&self, player: &str) -> bool {
        lock(&self.presence)
            .get(player)
            .is_some_and(|p| !p.outboxes.is_empty() && p.visible)
            || self.is_visible_elsewhere(player)
    }

    /// Sets a player's visibility; going offline withdraws their challenges.
    pub async fn set_visible(&self, info: &PlayerInfo, visible: bool) {
        {
            let mut presence = lock(&self.presence);
            let Some(entry) = presence.get_mut(&info.id) else {
                return;
            };
            if entry.visible == visible {
                return;
            }
            entry.visible = visible;
        }
        self.visible_here(info, visible);
        if !visible {
            self.challenges_gone(&info.id).await;
        }
    }

    /// Sends a message to every connection of a player on this node.
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

    /// Tells both players of a challenge's news, on every node.
    fn tell_both(&self, c: &Challenge, state: ChallengeState, table: Option<String>) {
        if let Some(cluster) = &self.cluster {
            cluster.challenge_news(&c.id, &c.from, &c.to, &c.spec, state, table.clone());
        }
        let msg = Hub::challenge_msg(c, state, table);
        self.to_player(&c.from.id, &msg);
        self.to_player(&c.to.id, &msg);
    }

    /// News of a challenge from another node: keep the list of pending ones, tell the players connected here.
    pub fn challenge_apply(
        &self,
        id: String,
        from: PlayerInfo,
        to: PlayerInfo,
        spec: TableSpec,
        state: ChallengeState,
        table: Option<String>,
    ) {
        let c = Challenge { id, from, to, spec };
        if state == ChallengeState::Pending {
            lock(&self.challenges).insert(c.id.clone(), c.clone());
        } else {
            lock(&self.challenges).remove(&c.id);
        }
        let msg = Hub::challenge_msg(&c, state, table);
        self.to_player(&c.from.id, &msg);
        self.to_player(&c.to.id, &msg);
    }

    /// Takes a pending challenge out of the list if `keep` says so; in a site, only one node can.
    async fn claim(&self, id: &str, keep: impl Fn(&Challenge) -> bool) -> Option<Challenge> {
        lock(&self.challenges).get(id).filter(|c| keep(c))?;
        if let Some(cluster) = &self.cluster
            && !cluster.challenge_claim(id).await
        {
            lock(&self.challenges).remove(id);
            return None;
        }
        lock(&self.challenges).remove(id)
    }

    /// `from` challenges player `to` to a game.
    ///
    /// # Errors
    /// The code and words to send back: the player is offline, blocked, or the spec is invalid.
    pub async fn challenge(
        &self,
        from: PlayerInfo,
        to: &str,
        spec: TableSpec,
    ) -> Result<(), (ErrorCode, String)> {
        if to == from.id {
            return Err((ErrorCode::NotAllowed, "you cannot challenge yourself".into()));
        }
        let blocked_by_them = match lock(&self.blocks).get(to) {
            Some(b) => Some(b.contains(&from.id)),
            None => None,
        };
        let blocked_by_them = match blocked_by_them {
            Some(b) => b,
            // Not connected here: ask the store.
            None => self
                .store
                .relations(to)
                .await
                .map(|marks| {
                    marks
                        .iter()
                        .any(|(other, r)| *other == from.id && *r == Relation::Block)
                })
                .unwrap_or(false),
        };
        if blocked_by_them || self.has_blocked(&from.id, to) {
            return Err((ErrorCode::Blocked, "you cannot challenge this player".into()));
        }
        {
            let challenges = lock(&self.challenges);
            let mut pending = challenges.values().filter(|c| c.from.id == from.id);
            if pending.clone().any(|c| c.to.id == to) {
                return Err((
                    ErrorCode::ChallengeExists,
                    "you already challenged this player: wait for the answer or withdraw it".into(),
                ));
            }
            if pending.by_ref().count() >= limit::MAX_PENDING_CHALLENGES {
                return Err((
                    ErrorCode::TooManyChallenges,
                    format!(
                        "{} challenges are waiting for an answer: withdraw one first",
                        limit::MAX_PENDING_CHALLENGES
                    ),
                ));
            }
        }
        if !self.limits.challenge.try_take(&from.id) {
            return Err((
                ErrorCode::RateLimited,
                "too many challenges: wait a moment".into(),
            ));
        }
        let local = lock(&self.presence)
            .get(to)
            .filter(|p| p.visible && !p.outboxes.is_empty())
            .map(|p| p.info.clone());
        let to = local.or_else(|| lock(&self.remote_presence).get(to).map(|(info, _)| info.clone()));
        let Some(to) = to else {
            return Err((ErrorCode::PlayerOffline, "that player is not online".into()));
        };
        crate::table::validate_spec(&spec).map_err(|e| (ErrorCode::BadSpec, e))?;
        let challenge = Challenge {
            id: uuid::Uuid::new_v4().simple().to_string(),
            from,
            to,
            spec,
        };
        if let Some(cluster) = &self.cluster
            && !cluster.challenge_stored(&challenge.id).await
        {
            return Err((
                ErrorCode::Internal,
                "could not send the challenge; try again".into(),
            ));
        }
        lock(&self.challenges).insert(challenge.id.clone(), challenge.clone());
        self.tell_both(&challenge, ChallengeState::Pending, None);
        Ok(())
    }

    /// The challenger withdraws.
    ///
    /// # Errors
    /// `challenge_not_found` if there is no such pending challenge of theirs.
    pub async fn cancel_challenge(&self, player: &str, id: &str) -> Result<(), (ErrorCode, String)> {
        let c = self
            .claim(id, |c| c.from.id == player)
            .await
            .ok_or_else(not_found)?;
        self.tell_both(&c, ChallengeState::Cancelled, None);
        Ok(())
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
        let challenge = self
            .claim(id, |c| c.to.id == player)
            .await
            .ok_or_else(not_found)?;
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
    async fn challenges_gone(&self, player: &str) {
        let ids: Vec<String> = lock(&self.challenges)
            .values()
            .filter(|c| c.from.id == player || c.to.id == player)
            .map(|c| c.id.clone())
            .collect();
        for id in ids {
            if let Some(c) = self.claim(&id, |_| true).await {
                self.tell_both(&c, ChallengeState::Gone, None);
            }
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

    /// Online visible players as `viewer` sees them (on every node), favourites first, then by name.
    pub fn online_players(&self, viewer: &str) -> Vec<OnlinePlayer> {
        let mut seen = HashSet::new();
        let mut players: Vec<OnlinePlayer> = Vec::new();
        {
            let presence = lock(&self.presence);
            for p in presence.values().filter(|p| p.visible && !p.outboxes.is_empty()) {
                seen.insert(p.info.id.clone());
                players.push(OnlinePlayer {
                    player: p.info.clone(),
                    favourite: self.is_favourite(viewer, &p.info.id),
                });
            }
        }
        for (id, (info, nodes)) in lock(&self.remote_presence).iter() {
            if !nodes.is_empty() && seen.insert(id.clone()) {
                players.push(OnlinePlayer {
                    player: info.clone(),
                    favourite: self.is_favourite(viewer, id),
                });
            }
        }
        players.sort_by(|a, b| {
            b.favourite
                .cmp(&a.favourite)
                .then_with(|| a.player.name.cmp(&b.player.name))
        });
        players
    }

    /// Starts or stops lobby updates for a connection (a start sends the whole lobby; a start while subscribed
    /// does nothing, so a client cannot make the server queue the whole lobby again and again).
    pub fn lobby_subscribe(&self, outbox: &Outbox, on: bool) {
        if on && lock(&self.lobby).subscribers.contains_key(&outbox.conn()) {
            return;
        }
        let viewer = outbox.session().id();
        let players = if on {
            self.online_players(&viewer)
        } else {
            Vec::new()
        };
        let mut lobby = lock(&self.lobby);
        if on {
            if lobby.subscribers.contains_key(&outbox.conn()) {
                return;
            }
            let tables = lobby.tables.values().cloned().collect();
            outbox.send(&ServerMsg::Lobby { tables, players });
            lobby.subscribers.insert(outbox.conn(), outbox.clone());
        } else {
            lobby.subscribers.remove(&outbox.conn());
        }
    }

    /// A public table of this node changed.
    pub fn lobby_update(&self, table: LobbyTable) {
        if let Some(cluster) = &self.cluster {
            cluster.lobby_changed(&table);
        }
        self.lobby_apply(table);
    }

    /// A public table changed (here or on another node): lobby watchers here are told.
    pub fn lobby_apply(&self, table: LobbyTable) {
        let mut lobby = lock(&self.lobby);
        let text = encode(&ServerMsg::LobbyTable { table: table.clone() });
        lobby.tables.insert(table.id.clone(), table);
        lobby.subscribers.retain(|_, o| o.send_text(text.clone()));
    }

    /// The site's lobby as stored in Redis (a node joining the site).
    pub fn lobby_load(&self, tables: Vec<LobbyTable>) {
        let mut lobby = lock(&self.lobby);
        for table in tables {
            lobby.tables.insert(table.id.clone(), table);
        }
    }

    fn lobby_remove(&self, id: &str) {
        if let Some(cluster) = &self.cluster {
            cluster.lobby_gone(id);
        }
        self.lobby_remove_local(id);
    }

    /// A public table is gone (here or on another node).
    pub fn lobby_remove_local(&self, id: &str) {
        let mut lobby = lock(&self.lobby);
        if lobby.tables.remove(id).is_some() {
            let text = encode(&ServerMsg::LobbyGone { id: id.to_owned() });
            lobby.subscribers.retain(|_, o| o.send_text(text.clone()));
        }
    }

    /// The inbox of a table of this node.
    pub fn table(&self, id: &str) -> Option<mpsc::Sender<Cmd>> {
        lock(&self.tables).get(id).cloned()
    }

    /// The ids of this node's tables.
    pub fn table_ids(&self) -> Vec<String> {
        lock(&self.tables).keys().cloned().collect()
    }

    /// Where a table's commands go: this node, the node that owns it, or nowhere. In a site, a table nobody
    /// holds (its node died) is taken over here.
    pub async fn route(self: &Arc<Self>, id: &str) -> Route {
        if let Some(tx) = self.table(id) {
            return Route::Local(tx);
        }
        let Some(cluster) = &self.cluster else {
            return Route::Missing;
        };
        for attempt in 0..20 {
            if let Some(tx) = self.table(id) {
                return Route::Local(tx);
            }
            match cluster.owner(id).await {
                Ok(Some(node)) if node != cluster.node => return Route::Remote(node),
                // Ours, but being restored right now: wait for it.
                Ok(Some(_)) => {}
                Ok(None) => {
                    if cluster.take_over(self, id).await {
                        if let Some(tx) = self.table(id) {
                            return Route::Local(tx);
                        }
                    } else if attempt > 0 && matches!(cluster.owner(id).await, Ok(None)) {
                        // Nobody holds it and it cannot be taken: it does not exist or has closed.
                        return Route::Missing;
                    }
                }
                Err(e) => {
                    tracing::warn!(table = %id, error = %e, "cannot find a table's owner");
                    return Route::Missing;
                }
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
        Route::Missing
    }

    /// Tells a connection that a table does not exist.
    pub fn table_missing(&self, outbox: &Outbox, table: &str) {
        outbox.send(&ServerMsg::Error {
            code: ErrorCode::TableNotFound,
            message: "no such table, or it has closed".to_owned(),
            table: Some(table.to_owned()),
            ack: None,
        });
    }

    /// A table moved to another node (or back here): this node's connections watching it open it again there
    /// and get its whole state.
    pub async fn reopen(self: &Arc<Self>, table: &str) {
        let Some(cluster) = &self.cluster else { return };
        let watchers = cluster.watchers(table);
        if watchers.is_empty() {
            return;
        }
        let route = self.route(table).await;
        for outbox in watchers {
            let msg = parlor_protocol::ClientMsg::Open {
                table: Some(table.to_owned()),
                code: None,
                since: None,
            };
            match &route {
                Route::Local(tx) => {
                    if let Some(cmd) = Cmd::from_client(msg, outbox) {
                        let _ = tx.send(cmd).await;
                    }
                }
                Route::Remote(node) => cluster.forward(node, &outbox, msg),
                Route::Missing => self.table_missing(&outbox, table),
            }
        }
    }

    /// The id of the table with a private code (case-insensitive), on any node.
    pub async fn table_by_code(&self, code: &str) -> Option<String> {
        let code = code.trim().to_ascii_uppercase();
        if let Some(id) = lock(&self.codes).get(&code).cloned() {
            return Some(id);
        }
        self.cluster.as_ref()?;
        match self.store.table_by_code(&code).await {
            Ok(Some(t)) if t.status != parlor_store::table_status::CLOSED => Some(t.id),
            _ => None,
        }
    }

    /// Forgets a closed table.
    pub async fn remove_table(&self, id: &str, code: Option<&str>) {
        self.forget_table(id, code);
        self.lobby_remove(id);
        if let Some(cluster) = &self.cluster {
            cluster.closed(id).await;
        }
    }

    /// Forgets a table that stopped here (closed, or moved to another node).
    pub fn forget_table(&self, id: &str, code: Option<&str>) {
        lock(&self.hosts).remove(id);
        if lock(&self.tables).remove(id).is_some() {
            self.metrics.tables.fetch_sub(1, Ordering::Relaxed);
        }
        if let Some(code) = code {
            lock(&self.codes).remove(code);
        }
    }

    /// A table of this node lost its lease: it stopped; this node's connections watching it follow it.
    pub async fn evicted(self: &Arc<Self>, id: &str, code: Option<&str>) {
        self.forget_table(id, code);
        if let Some(cluster) = &self.cluster {
            cluster.evicted(id);
        }
        let hub = self.clone();
        let id = id.to_owned();
        tokio::spawn(async move {
            // Give the new owner a moment to restore the table.
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            hub.reopen(&id).await;
        });
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
        let creator_id = creator.id.clone();
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
        if let Some(cluster) = &self.cluster
            && !cluster.claim_new(self, &id).await
        {
            let _ = self
                .store
                .update_table_status(&id, parlor_store::table_status::CLOSED, crate::table::now_ms())
                .await;
            return Err("the site is busy (no lease for a new table); try again".to_owned());
        }
        lock(&self.hosts).insert(id.clone(), creator_id);
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

    /// Brings back every open table and live game from the store (after a restart). In a site, only the
    /// tables no live node holds.
    ///
    /// # Errors
    /// The store's error.
    pub async fn restore(self: &Arc<Self>) -> Result<usize, StoreError> {
        let tables = self.store.open_tables().await?;
        if let Some(cluster) = &self.cluster {
            let mut restored = 0;
            for record in tables {
                if matches!(cluster.owner(&record.id).await, Ok(None))
                    && cluster.take_over(self, &record.id).await
                {
                    restored += 1;
                }
            }
            return Ok(restored);
        }
        let games = self.store.live_games().await?;
        let mut by_table: HashMap<String, parlor_store::StoredGame> =
            games.into_iter().map(|g| (g.game.table_id.clone(), g)).collect();
        let mut restored = 0;
        for record in tables {
            // A table without a live game shows its last one over (result, final position, rematch), and does
            // not start a new one by itself.
            let last = match by_table.remove(&record.id) {
                Some(live) => Some(live),
                None => self.store.last_game_of_table(&record.id).await?,
            };
            if self.restore_one(&record, last.as_ref()) {
                restored += 1;
            }
        }
        Ok(restored)
    }

    /// Starts one stored table with its last game, live or over, if any. Returns false if it does not replay.
    pub fn restore_one(
        self: &Arc<Self>,
        record: &TableRecord,
        last: Option<&parlor_store::StoredGame>,
    ) -> bool {
        let (tx, rx) = mpsc::channel(INBOX);
        match Table::restore(self.clone(), record, last, tx.downgrade()) {
            Ok(table) => {
                if last.is_some_and(|g| g.game.status == parlor_store::game_status::LIVE) {
                    self.metrics.live_games.fetch_add(1, Ordering::Relaxed);
                }
                self.spawn(table, tx, rx, record.code.clone());
                true
            }
            Err(e) => {
                tracing::error!(table = %record.id, error = %e, "could not restore table");
                false
            }
        }
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

    /// Whether `player` may create a table now (from `peer`): the cap on hosted tables, then the creation rates
    /// of the player and of the address (a token of each is taken when both have one).
    ///
    /// # Errors
    /// The code and words to send back.
    pub fn may_create(&self, player: &str, peer: std::net::IpAddr) -> Result<(), (ErrorCode, String)> {
        let hosted = lock(&self.hosts).values().filter(|h| *h == player).count();
        if hosted >= limit::MAX_HOSTED {
            return Err((
                ErrorCode::TooManyTables,
                format!("you host {hosted} open tables: close one first"),
            ));
        }
        let by_address = !limit::is_exempt(peer);
        if !self.limits.create_player.has_token(&player.to_owned())
            || (by_address && !self.limits.create_address.has_token(&peer))
        {
            return Err((
                ErrorCode::RateLimited,
                "too many new tables: wait a moment".into(),
            ));
        }
        self.limits.create_player.charge(&player.to_owned());
        if by_address {
            self.limits.create_address.charge(&peer);
        }
        Ok(())
    }

    /// Sends a rename to the tables of this node the player has open here; a table where they sit and that they
    /// do not watch takes the new name when they open it again.
    pub fn rename_at_tables(&self, info: &PlayerInfo, tables: &[String]) {
        let inboxes: Vec<mpsc::Sender<Cmd>> = {
            let all = lock(&self.tables);
            tables.iter().filter_map(|t| all.get(t).cloned()).collect()
        };
        for tx in inboxes {
            let _ = tx.try_send(Cmd::Renamed { player: info.clone() });
        }
    }

    /// Sends a command to every table, e.g. a rename.
    pub fn to_all_tables(&self, make: impl Fn() -> Cmd) {
        for tx in lock(&self.tables).values() {
            let _ = tx.try_send(make());
        }
    }
}
