//! Parlor's durable storage: the [`Store`] trait on SQLite and PostgreSQL with one set of migrations.
//!
//! Every move and game event reaches the server's clients only after [`Store::commit`] has returned. The server
//! batches writes of many tables into one transaction (group commit; [`GroupCommit`] does it) to reach thousands
//! of durable moves per second. After a restart, [`Store::live_games`] gives back every live game with its moves,
//! events, seats and last clocks.
//!
//! # Layout
//! - `store.rs`: the [`Store`] trait.
//! - `record.rs`: the rows ([`Player`], [`TableRecord`], [`GameRecord`], [`MoveRecord`], ...); `write.rs`: [`Write`],
//!   one change of a batch; `error.rs`: [`StoreError`].
//! - `sql.rs`: [`AnyStore`], the one implementation of [`Store`], on sqlx's Any driver for both backends;
//!   `any_store.rs`: opening it from a URL; `migration.rs`: the embedded `migrations/` folder, applied at
//!   start-up on both backends.
//! - `checkpoint.rs`: the background checkpointer of an SQLite file, so that commits seldom wait for one.
//! - `file_guard.rs`: refuses writes once an SQLite file is deleted, replaced or made read-only under a running
//!   server.
//! - `group_commit.rs`: [`GroupCommit`], one writer task that commits the writes of many tables together.
//! - `bench.rs`: [`bench::batch_commits`] and [`bench::closed_loop`], durable moves per second (`benches/commit.rs`).
//!
//! # Durability
//! SQLite runs in WAL mode with `synchronous = NORMAL` by default ([`SqliteDurability::ProcessCrash`]): a
//! committed move survives the process being killed at any moment (`tests/durability.rs` SIGKILLs a writer
//! mid-stream and finds every acknowledged move), but the last commits may be lost in a power cut or an OS crash.
//! `synchronous=full` in the URL (`sqlite://parlor.db?mode=rwc&synchronous=full`) fsyncs every commit and survives
//! those too; with group commit it still measured well above 5,000 moves/s. PostgreSQL keeps its own setting
//! (`synchronous_commit = on` by default: durable on return).
//!
//! The schema is portable: INTEGER, BIGINT, DOUBLE PRECISION and TEXT columns only (booleans 0/1, instants unix ms,
//! ids and JSON as text), `$1` placeholders, no auto-increment. `tests/conformance.rs` runs the same tests on
//! SQLite and on PostgreSQL (`PARLOR_TEST_POSTGRES` holds a URL; those cases are ignored unless asked for).

mod any_store;
pub mod bench;
mod checkpoint;
mod error;
mod file_guard;
mod group_commit;
mod migration;
mod record;
mod sql;
mod store;
mod write;

pub use checkpoint::CheckpointCounts;
pub use error::StoreError;
pub use group_commit::{GroupCommit, GroupCommitConfig};

pub use record::{
    ChatRecord, EventRecord, GameRecord, MoveRecord, Player, Rating, RatingChange, Relation, StoredGame,
    TableRecord, game_status, table_status,
};
pub use sql::{AnyStore, SqliteDurability};
pub use store::{Backend, Store};
pub use write::Write;
