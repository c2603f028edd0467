//! Draughts for Parlor: English checkers, International, Russian and Pool draughts on bitboards, with PDN/FEN
//! notation, every draw rule, and a fast perft. No rules library underneath.
//!
//! # Layout
//! - `rule` (private): each variant's rules as constants of one trait, and the padded bitboard
//!   layout; the generator is generic over it, so the four variants share one copy of the code.
//! - `board` / `generator` (private): the bitboards and the move generator.
//! - [`moves`]: [`Move`] (a whole turn) and [`MoveList`].
//! - [`position`]: [`Position`], the pure rules of one position (`impl parlor_game::Position`).
//! - [`fen`]: PDN FEN and [`FenError`].
//! - [`notation`]: PDN moves ([`PdnMove`]) and capture paths.
//! - [`game`]: [`Game`], a whole game as a table runs it (`impl parlor_game::Rules`): draw rules, events, PDN export.
//! - [`pdn`]: the PDN reader ([`pdn::read`], [`PdnError`]): a PDN game replayed through [`Game`].
//! - [`perft`](mod@perft): fast bulk-counting perft; [`bench`](mod@bench): what `parlor perft` and `parlor bench perft` run.
//!
//! The rules of each variant, their sources and the choices made are in `docs/rules/draughts.md`.

mod board;
mod generator;
mod rule;

pub mod bench;
pub mod fen;
pub mod game;
pub mod moves;
pub mod notation;
pub mod pdn;
pub mod perft;
pub mod position;

pub use board::Color;
pub use fen::FenError;
pub use game::{Game, Options, no_progress_plies};
pub use moves::{Move, MoveList};
pub use notation::PdnMove;
pub use parlor_game::DraughtsVariant;
pub use pdn::{PdnError, PdnGame};
pub use perft::{Duplicates, perft, perft_divide, perft_with};
pub use position::{IllegalMove, Piece, Position, first_mover, square_coord};
