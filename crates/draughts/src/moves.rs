//! A move (a whole turn, capture chain included) and the list the generator fills.

use std::ops::Deref;

/// A legal move: a whole turn, including a whole capture chain.
///
/// Two moves are equal when they start and end on the same squares, take the same set of pieces and crown alike;
/// the path in between is not part of the move (see [`crate::Position::move_path`]). Squares are stored as board
/// bits; ask the [`crate::Position`] that generated the move for PDN square numbers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move {
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) promote: bool,
    pub(crate) captured: u64,
}

impl Move {
    /// True if the move takes at least one piece.
    pub fn is_capture(self) -> bool {
        self.captured != 0
    }

    /// How many pieces the move takes.
    pub fn capture_count(self) -> u32 {
        self.captured.count_ones()
    }

    /// True if a man becomes a king with this move.
    pub fn is_promotion(self) -> bool {
        self.promote
    }
}

/// The legal moves of a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveList(pub(crate) Vec<Move>);

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.0
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = std::vec::IntoIter<Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}
