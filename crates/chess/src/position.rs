//! A chess position behind the shared [`parlor_game::Position`] trait.

use parlor_game::{Coord, Seat};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, MoveList, Position as _, Role, Square};

/// A FEN that could not be read, or that describes an impossible position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Not FEN syntax.
    #[error("not a FEN: {0}")]
    Syntax(String),
    /// Readable, but not a legal chess position (missing king, side not to move in check, ...).
    #[error("not a legal chess position: {0}")]
    Illegal(String),
}

/// A chess position: shakmaty's [`Chess`] with our trait on top. Cheap to clone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Position(pub Chess);

impl Position {
    /// The standard start position.
    pub fn start() -> Position {
        Position(Chess::default())
    }

    /// Reads a FEN (all six fields, or the first four).
    ///
    /// # Errors
    /// [`FenError`] when the text is not FEN or the position is not legal.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fen = Fen::from_ascii(fen.trim().as_bytes()).map_err(|e| FenError::Syntax(e.to_string()))?;
        fen.into_position::<Chess>(CastlingMode::Standard)
            .map(Position)
            .map_err(|e| FenError::Illegal(e.to_string()))
    }

    /// The position as FEN (en-passant square only when a capture there is legal, as lichess writes it).
    pub fn to_fen(&self) -> String {
        Fen::from_position(&self.0, EnPassantMode::Legal).to_string()
    }

    /// The shakmaty position.
    pub fn inner(&self) -> &Chess {
        &self.0
    }
}

/// The seat of a colour: White is the first seat.
pub fn seat_of(color: Color) -> Seat {
    match color {
        Color::White => Seat::First,
        Color::Black => Seat::Second,
    }
}

/// The colour of a seat (first = White); `None` for seats a chess table does not have.
pub fn color_of(seat: Seat) -> Option<Color> {
    match seat {
        Seat::First => Some(Color::White),
        Seat::Second => Some(Color::Black),
        _ => None,
    }
}

/// The grid coordinate of a square (a1 = (0, 0)).
pub fn coord(square: Square) -> Coord {
    Coord::new(u8::from(square.file()), u8::from(square.rank()))
}

/// UCI notation for a move, castling as the king's two-square move (`e1g1`).
pub fn uci(m: Move) -> UciMove {
    UciMove::from_standard(m)
}

/// The lower-case letter of a promotion piece.
pub fn role_char(role: Role) -> char {
    role.char()
}

impl parlor_game::Position for Position {
    type Move = Move;
    type MoveList = MoveList;

    #[inline]
    fn turn(&self) -> Seat {
        seat_of(self.0.turn())
    }

    #[inline]
    fn legal_moves(&self) -> MoveList {
        self.0.legal_moves()
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        self.0.play_unchecked(m);
    }

    fn move_notation(&self, m: Move) -> String {
        uci(m).to_string()
    }

    fn repetition_key(&self) -> u64 {
        self.0.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn fen_round_trips() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(Position::from_fen(fen).unwrap().to_fen(), fen);
    }

    #[test]
    fn bad_fens_get_typed_errors() {
        assert!(matches!(Position::from_fen("hello"), Err(FenError::Syntax(_))));
        assert!(matches!(
            Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
            Err(FenError::Illegal(_))
        ));
    }
}
