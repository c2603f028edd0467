//! The registry of this node's tables: their inboxes, private codes and hosts; where a table's commands go (here,
//! another node, nowhere); making, restoring and forgetting tables.

use super::{Hub, lock};
use crate::limit;
use crate::outbox::Outbox;
use crate::site::{Claim, Located};
use crate::table::spec::SpecError;
use crate::table::{Cmd, End, Table, now_ms};
use parlor_protocol::{ClientMsg, ErrorCode, PlayerInfo, ServerMsg, TableSpec};
use parlor_store::{Store, StoreError, StoredGame, TableRecord, game_status, table_status};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tokio::sync::mpsc;

/// Letters of private codes: no look-alikes (no 0/O, 1/I/L).
pub const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Length of a private code (31^6, nearly 900 million codes).
pub const CODE_LEN: usize = 6;
/// Commands queued per table before senders wait. Commands travel boxed: a queue keeps its slots in blocks of 32
/// whatever its bound, and with 88-byte commands each table's empty inbox took 2.8 KB.
const INBOX: usize = 1024;

/// This node's tables.
#[derive(Debug, Default)]
pub(super) struct Registry {
    /// Each running table's inbox.
    inboxes: HashMap<String, mpsc::Sender<Box<Cmd>>>,
    /// Private codes of the tables here.
    codes: HashMap<String, String>,
    /// The host (creator) of each open table created here, for the cap on tables a player hosts.
    hosts: HashMap<String, String>,
}

/// Where a table's commands go.
#[derive(Debug)]
pub enum Route {
    /// A table of this node: its inbox.
    Local(mpsc::Sender<Box<Cmd>>),
    /// A table owned by another node (scale-out): forward to it.
    Remote(String),
    /// No such table, or it has closed.
    Missing,
}

/// A table that could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    /// The spec asks for something the server does not offer.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The store did not take the table.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// In a site, no lease could be had for the table.
    #[error("the site is busy (no lease for a new table); try again")]
    Busy,
}

/// Why a player may not create a table now: sent back as an error with [`CreateRefused::code`].
#[derive(Debug, thiserror::Error)]
pub enum CreateRefused {
    /// The player hosts the most open tables one may.
    #[error("you host {0} open tables: close one first")]
    TooManyTables(usize),
    /// Too many new tables lately, from the player or their address.
    #[error("too many new tables: wait a moment")]
    RateLimited,
}

impl CreateRefused {
    /// The error code the client gets.
    pub fn code(&self) -> ErrorCode {
        match self {
            CreateRefused::TooManyTables(_) => ErrorCode::TooManyTables,
            CreateRefused::RateLimited => ErrorCode::RateLimited,
        }
    }
}

impl Hub {
    /// The inbox of a table of this node.
    pub fn table(&self, id: &str) -> Option<mpsc::Sender<Box<Cmd>>> {
        lock(&self.tables).inboxes.get(id).cloned()
    }

    /// The ids of this node's tables.
    pub fn table_ids(&self) -> Vec<String> {
        lock(&self.tables).inboxes.keys().cloned().collect()
    }

    /// Where a table's commands go: this node, the node that owns it, or nowhere. In a site, a table nobody
    /// holds (its node died) is taken over here.
    pub async fn route(&self, id: &str) -> Route {
        if let Some(tx) = self.table(id) {
            return Route::Local(tx);
        }
        match self.site.locate(id).await {
            Located::Here => self.table(id).map_or(Route::Missing, Route::Local),
            Located::Remote(node) => Route::Remote(node),
            Located::Missing => Route::Missing,
        }
    }

    /// Sends a client's table message where the table is; false if there is no such table (the client was
    /// told).
    pub async fn to_table(&self, table: &str, outbox: &Outbox, msg: ClientMsg) -> bool {
        match self.route(table).await {
            Route::Local(tx) => {
                if let Some(cmd) = Cmd::from_client(msg, outbox.clone()) {
                    let _ = tx.send(Box::new(cmd)).await;
                }
                true
            }
            Route::Remote(node) => {
                self.site.forward(&node, outbox, msg);
                true
            }
            Route::Missing => {
                self.table_missing(outbox, table);
                false
            }
        }
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
    pub async fn reopen(&self, table: &str) {
        let watchers = self.site.watchers(table);
        if watchers.is_empty() {
            return;
        }
        let route = self.route(table).await;
        for outbox in watchers {
            let msg = ClientMsg::Open {
                table: Some(table.to_owned()),
                code: None,
                since: None,
            };
            match &route {
                Route::Local(tx) => {
                    if let Some(cmd) = Cmd::from_client(msg, outbox) {
                        let _ = tx.send(Box::new(cmd)).await;
                    }
                }
                Route::Remote(node) => self.site.forward(node, &outbox, msg),
                Route::Missing => self.table_missing(&outbox, table),
            }
        }
    }

    /// The id of the table with a private code (case-insensitive), on any node.
    pub async fn table_by_code(&self, code: &str) -> Option<String> {
        let code = code.trim().to_ascii_uppercase();
        if let Some(id) = lock(&self.tables).codes.get(&code).cloned() {
            return Some(id);
        }
        self.site.table_by_code(&code).await
    }

    /// Forgets a closed table, here and in the site.
    async fn remove_table(&self, id: &str, code: Option<&str>) {
        self.forget_table(id, code);
        self.lobby.remove(id);
        self.site.closed(id).await;
    }

    /// Forgets a table that stopped here (closed, or moved to another node).
    fn forget_table(&self, id: &str, code: Option<&str>) {
        let mut tables = lock(&self.tables);
        tables.hosts.remove(id);
        if tables.inboxes.remove(id).is_some() {
            self.metrics.tables.fetch_sub(1, Ordering::Relaxed);
        }
        if let Some(code) = code {
            tables.codes.remove(code);
        }
    }

    /// A table of this node lost its lease: it stopped; this node's connections watching it follow it.
    async fn evicted(self: &Arc<Self>, id: &str, code: Option<&str>) {
        self.forget_table(id, code);
        self.site.evicted(id);
        let hub = self.clone();
        let id = id.to_owned();
        tokio::spawn(async move {
            // Give the new owner a moment to restore the table.
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            hub.reopen(&id).await;
        });
    }

    fn new_code(&self) -> String {
        let tables = lock(&self.tables);
        loop {
            let code: String = (0..CODE_LEN)
                .map(|_| CODE_ALPHABET[rand::random_range(0..CODE_ALPHABET.len())] as char)
                .collect();
            if !tables.codes.contains_key(&code) {
                return code;
            }
        }
    }

    /// Creates a table for `creator` (and `guest`, seated too: an accepted challenge), stores it and starts its
    /// task. Returns its id and private code.
    ///
    /// # Errors
    /// [`CreateError`]: a bad spec, the store's error, or no lease for it in a site.
    pub async fn create_table(
        self: &Arc<Self>,
        spec: TableSpec,
        creator: PlayerInfo,
        guest: Option<PlayerInfo>,
    ) -> Result<(String, Option<String>), CreateError> {
        let id = uuid::Uuid::now_v7().simple().to_string();
        let creator_id = creator.id.clone();
        let code = spec.private.then(|| self.new_code());
        let (tx, rx) = mpsc::channel(INBOX);
        let table = Table::create(
            self.context.clone(),
            id.clone(),
            code.clone(),
            spec,
            creator,
            guest,
            tx.downgrade(),
        )?;
        self.store.create_table(&table.record()).await?;
        if !self.site.claim_new(&id).await {
            let _ = self
                .store
                .update_table_status(&id, table_status::CLOSED, now_ms())
                .await;
            return Err(CreateError::Busy);
        }
        lock(&self.tables).hosts.insert(id.clone(), creator_id);
        self.spawn(table, tx, rx, code.clone());
        Ok((id, code))
    }

    /// Runs a table's task; when it ends, the table is forgotten as its end says.
    fn spawn(
        self: &Arc<Self>,
        table: Table,
        tx: mpsc::Sender<Box<Cmd>>,
        rx: mpsc::Receiver<Box<Cmd>>,
        code: Option<String>,
    ) {
        let id = table.id().to_owned();
        {
            let mut tables = lock(&self.tables);
            tables.inboxes.insert(id.clone(), tx);
            if let Some(code) = &code {
                tables.codes.insert(code.clone(), id.clone());
            }
        }
        self.metrics.tables.fetch_add(1, Ordering::Relaxed);
        let hub = self.clone();
        self.tracker.spawn(async move {
            match table.run(rx).await {
                End::Closed => hub.remove_table(&id, code.as_deref()).await,
                End::Lost => hub.evicted(&id, code.as_deref()).await,
                End::Stopped => {}
            }
        });
    }

    /// Brings back every open table and live game from the store (after a restart). In a site, only the
    /// tables no live node holds.
    ///
    /// # Errors
    /// The store's error.
    pub async fn restore(self: &Arc<Self>) -> Result<usize, StoreError> {
        let tables = self.store.open_tables().await?;
        let mut live: Option<HashMap<String, StoredGame>> = None;
        let mut restored = 0;
        for record in tables {
            match self.site.claim_stored(&record.id).await {
                Claim::TakenOver => restored += 1,
                Claim::Elsewhere => {}
                Claim::Restore => {
                    let live = match &mut live {
                        Some(live) => live,
                        None => live.insert(
                            self.store
                                .live_games()
                                .await?
                                .into_iter()
                                .map(|g| (g.game.table_id.clone(), g))
                                .collect(),
                        ),
                    };
                    // A table without a live game shows its last one over (result, final position, rematch),
                    // and does not start a new one by itself.
                    let last = match live.remove(&record.id) {
                        Some(game) => Some(game),
                        None => self.store.last_game_of_table(&record.id).await?,
                    };
                    if self.restore_one(&record, last.as_ref()) {
                        restored += 1;
                    }
                }
            }
        }
        Ok(restored)
    }

    /// Starts one stored table with its last game, live or over, if any. Returns false if it does not replay.
    pub fn restore_one(self: &Arc<Self>, record: &TableRecord, last: Option<&StoredGame>) -> bool {
        let (tx, rx) = mpsc::channel(INBOX);
        match Table::restore(self.context.clone(), record, last, tx.downgrade()) {
            Ok(table) => {
                if last.is_some_and(|g| g.game.status == game_status::LIVE) {
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

    /// Whether `player` may create a table now (from `peer`): the cap on hosted tables, then the creation rates
    /// of the player and of the address (a token of each is taken when both have one).
    ///
    /// # Errors
    /// [`CreateRefused`]: the cap or a rate.
    pub fn may_create(&self, player: &str, peer: std::net::IpAddr) -> Result<(), CreateRefused> {
        let hosted = lock(&self.tables).hosts.values().filter(|h| *h == player).count();
        if hosted >= limit::MAX_HOSTED {
            return Err(CreateRefused::TooManyTables(hosted));
        }
        let by_address = !limit::is_exempt(peer);
        if !self.limits.create_player.has_token(&player.to_owned())
            || (by_address && !self.limits.create_address.has_token(&peer))
        {
            return Err(CreateRefused::RateLimited);
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
        let inboxes: Vec<mpsc::Sender<Box<Cmd>>> = {
            let registry = lock(&self.tables);
            tables
                .iter()
                .filter_map(|t| registry.inboxes.get(t).cloned())
                .collect()
        };
        for tx in inboxes {
            let _ = tx.try_send(Box::new(Cmd::Renamed { player: info.clone() }));
        }
    }

    /// Sends a command to every table, e.g. a rename.
    pub fn to_all_tables(&self, make: impl Fn() -> Cmd) {
        for tx in lock(&self.tables).inboxes.values() {
            let _ = tx.try_send(Box::new(make()));
        }
    }
}
