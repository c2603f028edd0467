//! Chess for Parlor, on shakmaty: FIDE rules as a table needs them (every draw rule, flag rules, resignation and
//! agreement), UCI on the wire, SAN for display, FEN and PGN.
//!
//! # Layout
//! - [`position`]: [`Position`], shakmaty's position behind our [`parlor_game::Position`] trait (perft, search).
//! - [`game`]: [`Game`], a whole game implementing [`parlor_game::Rules`]: history, repetition, outcome.
//! - [`pgn`]: PGN export and import.
//!
//! The move generator is shakmaty's; nothing here generates moves.

mod export;
pub mod game;
pub mod pgn;
pub mod position;

pub use game::Game;
pub use pgn::{PgnError, PgnGame};
pub use position::{FenError, Position};
pub use shakmaty;
