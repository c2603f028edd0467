//! What a table may be asked for: a known game, seats that fit it, a sane clock, no CPU at a rated table; and the
//! clock a table gets when its spec names none.

use parlor_game::{GameKind, ParseKindError};
use parlor_protocol::{SeatSpec, TableSpec, TimeControl};

/// A table spec the server does not offer; the words go back to the client with `bad_spec`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Unknown game.
    #[error(transparent)]
    Game(#[from] ParseKindError),
    /// More seats than the game has.
    #[error("{game} has {seats} seats")]
    Seats {
        /// The game asked for.
        game: String,
        /// Its seats.
        seats: usize,
    },
    /// A CPU seat at a rated table.
    #[error("rated games are between people: no CPU seats")]
    RatedCpu,
    /// A move limit of zero.
    #[error("a move limit is at least 1 move")]
    MoveLimit,
    /// A clock outside 1 s to 24 h (or an increment over an hour).
    #[error("time control out of range (1 s to 24 h)")]
    Time,
    /// Unknown CPU level.
    #[error("unknown CPU level `{0}`")]
    CpuLevel(String),
}

/// The clock of a table whose spec names none: chess and draughts 15 minutes each with at most 60 s a move;
/// four-player chess 60 s a turn (a seat that lets it run out is played by a CPU, so one silent player cannot
/// stall the other three).
pub fn default_time(kind: GameKind) -> TimeControl {
    match kind {
        GameKind::Chess4 => FOUR_PLAYER_TURN,
        _ => TimeControl::STANDARD,
    }
}

/// Four-player chess's default clock: 60 s a turn, no overall time.
pub const FOUR_PLAYER_TURN: TimeControl = TimeControl {
    base_ms: None,
    increment_ms: 0,
    per_move_ms: Some(60_000),
};

/// Checks a table spec: a known game, seats that fit it, a sane clock, no CPU at a rated table. Returns the game
/// and its time control.
///
/// # Errors
/// [`SpecError`], sent back as `bad_spec`.
pub fn validate_spec(spec: &TableSpec) -> Result<(GameKind, TimeControl), SpecError> {
    let kind: GameKind = spec.game.parse()?;
    let n = kind.seat_count();
    if spec.seats.len() > n {
        return Err(SpecError::Seats {
            game: spec.game.clone(),
            seats: n,
        });
    }
    if spec.rated && spec.seats.iter().any(|s| matches!(s, SeatSpec::Cpu { .. })) {
        return Err(SpecError::RatedCpu);
    }
    if spec.rules.move_limit == Some(0) {
        return Err(SpecError::MoveLimit);
    }
    let time = spec.time.unwrap_or_else(|| default_time(kind));
    validate_time(&time)?;
    Ok((kind, time))
}

fn validate_time(time: &TimeControl) -> Result<(), SpecError> {
    const DAY: u64 = 86_400_000;
    if time.base_ms.is_some_and(|b| !(1000..=DAY).contains(&b))
        || time.per_move_ms.is_some_and(|c| !(1000..=DAY).contains(&c))
        || time.increment_ms > 3_600_000
    {
        return Err(SpecError::Time);
    }
    Ok(())
}
