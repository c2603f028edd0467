//! Four-player chess, free-for-all: the 160-square board, points, eliminations, FEN4 and PGN4, and a fast perft.
//!
//! No library implements these rules, so this crate is written from scratch. `docs/rules/chess4.md` states every
//! rule and every choice made where the sources are silent.
//!
//! # Layout
//! - [`square`]: [`Square`] and the padded 16x18 layout the generator walks on.
//! - [`piece`]: [`Role`], [`Piece`] and the seats' colour letters.
//! - [`chess_move`]: [`Move`], [`MoveKind`] and the stack [`MoveList`].
//! - [`position`]: [`Position`]: the legal move generator and the move that plays every rule of a turn
//!   (captures, points, mates, stalemates, eliminations); implements [`parlor_game::Position`].
//! - [`fen4`]: FEN4 reading and writing, [`Fen4Error`].
//! - [`game`]: [`Game`]: a whole game as a table runs it (draws, move limit, resignations, wire moves, PGN4);
//!   implements [`parlor_game::Rules`].
//! - [`pgn4`]: the PGN4 reader ([`pgn4::read`], [`Pgn4Error`]): a PGN4 game replayed through [`Game`].
//! - [`perft`]: a perft with bulk counting, divide, and the benchmark the `parlor` binary runs.
//!
//! # Example
//! ```
//! use parlor_chess4::{Game, Options, perft};
//! use parlor_game::{Rules, Seat};
//!
//! assert_eq!(perft::perft(&parlor_chess4::Position::start(), 3), 7800);
//! let mut game = Game::new(Options::default());
//! game.play("h2-h4").unwrap();
//! assert_eq!(game.turn(), Some(Seat::Second));
//! assert!(game.play("h4-h5").is_err()); // Blue's turn: refused, nothing changes
//! assert_eq!(game.history().len(), 1);
//! ```

pub mod chess_move;
pub mod fen4;
pub mod game;
pub mod perft;
pub mod pgn4;
pub mod piece;
pub mod position;
pub mod square;

pub use chess_move::{Move, MoveKind, MoveList};
pub use fen4::Fen4Error;
pub use game::{Game, Options};
pub use pgn4::{Pgn4Error, Pgn4Game};
pub use piece::{Piece, Role};
pub use position::Position;
pub use square::Square;
