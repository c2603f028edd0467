//! One change to the store; [`crate::Store::commit`] applies a batch of them in one transaction.

use crate::record::{EventRecord, GameRecord, MoveRecord, Player, Rating, TableRecord};

/// One change, applied with others in one transaction by [`crate::Store::commit`]. A batch may mix tables and
/// games (group commit); if any write fails, none of the batch is kept.
#[derive(Clone, Debug, PartialEq)]
pub enum Write {
    /// Sets a named value (insert or replace), for example a node's heartbeat `alive/<node>` = now in ms, which
    /// tells a restarted server when the outage began.
    SetSetting {
        /// The name.
        name: String,
        /// The value.
        value: String,
    },
    /// Inserts a player, or updates the nickname and `last_seen_ms` of an existing one (as
    /// [`crate::Store::upsert_player`]).
    UpsertPlayer(Player),
    /// Records that a player was seen. [`crate::StoreError::NotFound`] if there is no such player.
    TouchPlayer {
        /// The player.
        id: String,
        /// When (unix ms).
        now_ms: i64,
    },
    /// A new table. [`crate::StoreError::Conflict`] if the id or the code is taken.
    CreateTable(TableRecord),
    /// A node takes a table over (scale-out): raises the table's fencing token to `epoch`.
    /// [`crate::StoreError::Fenced`] if the token is already `epoch` or higher, or there is no such table.
    /// Commit it alone, before reading the table's state: a write of the former owner that holds the old token
    /// either committed before (and is read) or fails.
    Fence {
        /// The table.
        table_id: String,
        /// The new owner's token (from Redis, rising).
        epoch: i64,
    },
    /// Checks that the table's fencing token is still `epoch`, and holds the table's row until the transaction
    /// ends, so that a concurrent [`Write::Fence`] waits for it. Put it first in an owner's batch.
    /// [`crate::StoreError::Fenced`] if the token changed.
    Fenced {
        /// The table.
        table_id: String,
        /// The owner's token.
        epoch: i64,
    },
    /// Change a table's status and/or settings. [`crate::StoreError::NotFound`] if there is no such table.
    UpdateTable {
        /// The table.
        id: String,
        /// The new status, if it changes.
        status: Option<String>,
        /// The new settings JSON, if they change.
        settings: Option<String>,
        /// The time of the change (unix ms).
        updated_ms: i64,
    },
    /// A new game; also indexes the players of its seats. [`crate::StoreError::Conflict`] if the id is taken,
    /// [`crate::StoreError::Invalid`] if `seats` is not a JSON array.
    CreateGame(GameRecord),
    /// A move. [`crate::StoreError::Conflict`] if the ply is already stored, [`crate::StoreError::NotFound`] if
    /// the game is not.
    Move(MoveRecord),
    /// A game event. [`crate::StoreError::Conflict`] if the seq is already stored, [`crate::StoreError::NotFound`]
    /// if the game is not.
    Event(EventRecord),
    /// New seats JSON (a player joined, left or was replaced); re-indexes the game's players.
    UpdateSeats {
        /// The game.
        game_id: String,
        /// As in [`GameRecord::seats`].
        seats: String,
    },
    /// A new clock snapshot (JSON), for example when a game is paused or the server shuts down.
    UpdateClocks {
        /// The game.
        game_id: String,
        /// As in [`GameRecord::clocks`].
        clocks: String,
    },
    /// The game ended.
    Finish {
        /// The game.
        game_id: String,
        /// `finished` or `aborted` (see [`crate::game_status`]).
        status: String,
        /// The result JSON.
        result: Option<String>,
        /// When it ended (unix ms).
        ended_ms: i64,
    },
    /// A player's new rating from a game: replaces the player's rating in the pool and records the change in the
    /// game's history (`after` is `rating.rating`, the time `rating.updated_ms`). Commit it with the game's
    /// `Finish` so that both or neither are kept. [`crate::StoreError::Conflict`] if this game already changed
    /// this player's rating in this pool.
    Rating {
        /// The new rating.
        rating: Rating,
        /// The game that changed it.
        game_id: String,
        /// The rating before the game.
        before: f64,
    },
}
