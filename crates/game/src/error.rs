//! Why a move or a game event was refused. A refusal leaves the game unchanged.

use crate::seat::Seat;

/// What kind of problem a refused move had.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveErrorKind {
    /// The text is not a move in this game's notation.
    Malformed,
    /// Well-formed, but not legal in this position (including a missing promotion choice).
    Illegal,
    /// Names more than one legal move (draughts from-to with several capture paths).
    Ambiguous,
    /// The game has ended.
    GameOver,
}

impl MoveErrorKind {
    /// The lower-case name used on the wire.
    pub const fn name(self) -> &'static str {
        match self {
            MoveErrorKind::Malformed => "malformed",
            MoveErrorKind::Illegal => "illegal",
            MoveErrorKind::Ambiguous => "ambiguous",
            MoveErrorKind::GameOver => "game_over",
        }
    }
}

/// A refused move, with the reason in plain words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct MoveError {
    /// The kind of problem.
    pub kind: MoveErrorKind,
    /// Why, in a sentence a player can read.
    pub reason: String,
}

impl MoveError {
    /// A refusal of the given kind.
    pub fn new(kind: MoveErrorKind, reason: impl Into<String>) -> MoveError {
        MoveError { kind, reason: reason.into() }
    }

    /// The game is over.
    pub fn game_over() -> MoveError {
        MoveError::new(MoveErrorKind::GameOver, "the game is over")
    }
}

/// A refused game event (resign, timeout, draw agreement ...).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The seat is not at this table, or is already out of the game.
    #[error("{0} is not playing in this game")]
    NotPlaying(Seat),
    /// This game has no such event (a draw agreement at a four-player table).
    #[error("{0}")]
    NotAllowed(&'static str),
}
