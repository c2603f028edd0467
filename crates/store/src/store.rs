//! The `Store` trait: everything the server keeps, one method per question or change.

use std::future::Future;

use crate::error::StoreError;
use crate::record::{
    ChatRecord, GameRecord, Player, Rating, RatingChange, Relation, StoredGame, TableRecord,
};
use crate::write::Write;

/// Which database a store runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// An SQLite file: one process, no server.
    Sqlite,
    /// A PostgreSQL server: several nodes may share it.
    Postgres,
}

/// Durable storage for Parlor. [`crate::AnyStore`] implements it on SQLite and on PostgreSQL with the same behaviour
/// (checked by one conformance suite). Every future is `Send`, so a table task may await it.
///
/// # Errors
/// Every method fails with [`StoreError::Database`] when the database does; the others are named per method.
pub trait Store: Send + Sync + 'static {
    /// Which database this store runs on.
    fn backend(&self) -> Backend;

    /// Closes the connections (SQLite checkpoints its WAL). Later calls fail.
    fn close(&self) -> impl Future<Output = ()> + Send;

    // ---- settings

    /// The secret called `name`; if there is none yet, stores `generate()` and returns it. Atomic: concurrent
    /// callers (also on other nodes) all get the value that was stored first.
    fn secret(
        &self,
        name: &str,
        generate: impl FnOnce() -> String + Send,
    ) -> impl Future<Output = Result<String, StoreError>> + Send;

    /// The value last set with [`Write::SetSetting`] (or made by [`Store::secret`]).
    fn setting(&self, name: &str) -> impl Future<Output = Result<Option<String>, StoreError>> + Send;

    // ---- players

    /// Inserts the player, or updates the nickname and `last_seen_ms` of an existing one (`created_ms` is kept).
    fn upsert_player(&self, player: &Player) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The player with this id.
    fn player(&self, id: &str) -> impl Future<Output = Result<Option<Player>, StoreError>> + Send;

    /// Renames a player.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] if there is no such player.
    fn set_nickname(&self, id: &str, nickname: &str) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Records that the player was seen at `now_ms`.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] if there is no such player.
    fn touch_player(&self, id: &str, now_ms: i64) -> impl Future<Output = Result<(), StoreError>> + Send;

    // ---- tables

    /// Stores a new table (same as committing [`Write::CreateTable`]).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the id or the code is taken.
    fn create_table(&self, table: &TableRecord) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Changes a table's status.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] if there is no such table.
    fn update_table_status(
        &self,
        id: &str,
        status: &str,
        now_ms: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Replaces a table's settings JSON.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] if there is no such table.
    fn update_table_settings(
        &self,
        id: &str,
        settings: &str,
        now_ms: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The table with this id.
    fn table(&self, id: &str) -> impl Future<Output = Result<Option<TableRecord>, StoreError>> + Send;

    /// The private table with this code.
    fn table_by_code(
        &self,
        code: &str,
    ) -> impl Future<Output = Result<Option<TableRecord>, StoreError>> + Send;

    /// Every table that is not closed, oldest first.
    fn open_tables(&self) -> impl Future<Output = Result<Vec<TableRecord>, StoreError>> + Send;

    // ---- games

    /// Applies the writes in one transaction, in order: all are kept or none. Returns once the transaction is
    /// durable (see [`crate::SqliteDurability`]), so the server may then acknowledge the moves.
    ///
    /// # Errors
    /// As named on each [`Write`]: [`StoreError::Conflict`] (a move's ply stored twice, ...),
    /// [`StoreError::NotFound`], [`StoreError::Invalid`]. Then nothing of the batch is kept.
    fn commit(&self, batch: &[Write]) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Every live game with its moves and events (one consistent snapshot), oldest first: what a restart resumes.
    fn live_games(&self) -> impl Future<Output = Result<Vec<StoredGame>, StoreError>> + Send;

    /// One game with its moves and events.
    fn game(&self, id: &str) -> impl Future<Output = Result<Option<StoredGame>, StoreError>> + Send;

    /// The newest game at a table, live or over, with its moves and events: what a node taking the table over
    /// resumes (a live game goes on; a finished one is shown with its result, and waits for a rematch).
    fn last_game_of_table(
        &self,
        table_id: &str,
    ) -> impl Future<Output = Result<Option<StoredGame>, StoreError>> + Send;

    /// The games a player sat in, newest first, at most `limit`, only those started before `before_ms` if given
    /// (pass the last `created_ms` of a page to get the next page).
    fn games_of_player(
        &self,
        player_id: &str,
        limit: u32,
        before_ms: Option<i64>,
    ) -> impl Future<Output = Result<Vec<GameRecord>, StoreError>> + Send;

    // ---- reviews

    /// Keeps the review of a finished game made by engine `version` (JSON). A second save of the same game and
    /// version keeps the first (two nodes may finish the same review).
    ///
    /// # Errors
    /// [`StoreError::NotFound`] if there is no such game.
    fn save_review(
        &self,
        game_id: &str,
        version: &str,
        review: &str,
        now_ms: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The review of a game by engine `version`, if one was saved.
    fn review(
        &self,
        game_id: &str,
        version: &str,
    ) -> impl Future<Output = Result<Option<String>, StoreError>> + Send;

    // ---- chat

    /// Stores a chat line and returns it with its id (increasing in the order lines are added).
    fn add_chat(
        &self,
        table_id: &str,
        player_id: &str,
        text: &str,
        at_ms: i64,
    ) -> impl Future<Output = Result<ChatRecord, StoreError>> + Send;

    /// The newest `limit` lines of a table's chat, oldest first.
    fn chat(
        &self,
        table_id: &str,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<ChatRecord>, StoreError>> + Send;

    // ---- social

    /// Sets (`on`) or clears how `owner` regards `other`. Idempotent.
    fn set_relation(
        &self,
        owner: &str,
        other: &str,
        relation: Relation,
        on: bool,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Everyone `owner` has a relation with, sorted by id.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] if a stored relation name is unknown.
    fn relations(
        &self,
        owner: &str,
    ) -> impl Future<Output = Result<Vec<(String, Relation)>, StoreError>> + Send;

    // ---- ratings

    /// A player's rating in one pool.
    fn rating(
        &self,
        player_id: &str,
        pool: &str,
    ) -> impl Future<Output = Result<Option<Rating>, StoreError>> + Send;

    /// A player's ratings in every pool they played, sorted by pool.
    fn ratings(&self, player_id: &str) -> impl Future<Output = Result<Vec<Rating>, StoreError>> + Send;

    /// The rating changes a game caused (written with [`Write::Rating`]), sorted by player and pool.
    fn rating_changes(
        &self,
        game_id: &str,
    ) -> impl Future<Output = Result<Vec<RatingChange>, StoreError>> + Send;
}
