//! A move of four-player chess and the stack list the generator fills.

use crate::square::Square;
use std::ops::Deref;

/// What kind of move, beyond from and to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A piece moves or captures; a pawn steps one square or captures.
    Normal,
    /// A pawn's two-square step from its start line: it opens an en-passant window.
    DoubleStep,
    /// A pawn captures en passant: it lands on the square the other pawn passed.
    EnPassant,
    /// A pawn reaches its 8th rank and becomes a promoted queen (worth 1 point).
    Promotion,
    /// Castling toward the near rook (`O-O`); `to` is the king's destination.
    CastleKingSide,
    /// Castling toward the far rook (`O-O-O`); `to` is the king's destination.
    CastleQueenSide,
}

/// A move: the square left, the square reached (the king's destination when castling) and its kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the piece leaves.
    pub from: Square,
    /// The square the piece reaches.
    pub to: Square,
    /// The kind of move.
    pub kind: MoveKind,
}

/// Capacity of a [`MoveList`]. One army has at most 16 pieces; 9 queens (52 moves at most each), 2 rooks, 2
/// bishops, 2 knights and a king with castling stay below 600 moves.
pub const MAX_MOVES: usize = 640;

const NULL_MOVE: Move = Move {
    from: Square::from_index_unchecked(0),
    to: Square::from_index_unchecked(0),
    kind: MoveKind::Normal,
};

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList {
            len: 0,
            moves: [NULL_MOVE; MAX_MOVES],
        }
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl MoveList {
    /// Appends a move. The capacity is above the most moves one army can have, so nothing is ever dropped.
    #[inline]
    pub(crate) fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Empties the list.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }
}

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}
