//! The vocabulary every Parlor game shares: seats, outcomes, moves as a UI sees them, and the two traits a
//! game implements.
//!
//! # Layout
//! - [`seat`]: [`Seat`] and the index-by-seat container [`BySeat`].
//! - [`kind`]: which game a table plays ([`GameKind`], [`DraughtsVariant`]).
//! - [`outcome`]: [`Outcome`], [`EndReason`] and the placing of every seat.
//! - [`view`]: moves as a board UI shows them ([`MoveView`], [`Coord`]), played moves ([`Played`]).
//! - [`error`]: why a move or a game event was refused ([`MoveError`], [`EventError`]).
//! - [`rules`]: the traits: [`Position`] (the fast, pure rules of one position: perft and search use it) and
//!   [`Rules`] (a whole game as a table runs it: history, draws, resignations, clocks' flags, export).
//! - [`perft`]: a generic perft over [`Position`].
//! - [`bench`]: medians of repeated timed runs, for `parlor bench`.
//!
//! This crate uses `std` only: no I/O, no async, no logging.

pub mod bench;
pub mod error;
pub mod kind;
pub mod outcome;
pub mod perft;
pub mod rules;
pub mod seat;
pub mod tags;
pub mod view;

pub use error::{EventError, MoveError, MoveErrorKind};
pub use kind::{DraughtsVariant, GameKind, ParseKindError};
pub use outcome::{Decision, EndReason, Outcome};
pub use perft::{perft, perft_divide};
pub use rules::{AnyGame, ExportInfo, GameEvent, Position, Repetitions, Rules, Snapshot, SnapshotError};
pub use seat::{BySeat, Seat};
pub use view::{Coord, MoveView, Played};
