//! CPU seats: the table asks for a move, a search runs on a blocking thread with the table's clock as its budget,
//! and the answer comes back to the table's inbox.

use crate::clock::Clock;
use crate::games::{GameSetup, Step, replay};
use parlor_game::GameKind;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tokio::time::Instant;

/// A CPU player's strength.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Level {
    /// A beginner.
    Easy,
    /// A club player.
    Medium,
    /// As strong as the hardware allows in its time.
    Hard,
}

impl Level {
    /// The level that takes over a four-player seat whose player left.
    pub const TAKEOVER: Level = Level::Medium;

    /// The lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// The longest a CPU at this level thinks per move at a table, whatever its clock.
    const fn max_think(self) -> Duration {
        match self {
            Level::Easy => Duration::from_millis(300),
            Level::Medium => Duration::from_millis(1000),
            Level::Hard => Duration::from_millis(3000),
        }
    }
}

impl FromStr for Level {
    type Err = ();
    fn from_str(s: &str) -> Result<Level, ()> {
        match s {
            "easy" => Ok(Level::Easy),
            "medium" => Ok(Level::Medium),
            "hard" => Ok(Level::Hard),
            _ => Err(()),
        }
    }
}

/// What a CPU needs to choose a move.
#[derive(Debug)]
pub struct Request {
    /// The game.
    pub kind: GameKind,
    /// Start position text.
    pub start: String,
    /// The game so far: moves and events (four-player eliminations change whose turn it is).
    pub steps: Vec<Step>,
    /// How the game was set up (options such as mandatory capture).
    pub setup: GameSetup,
    /// Strength.
    pub level: Level,
    /// Time to think.
    pub budget: Duration,
    /// Set to stop thinking at once.
    pub stop: Arc<AtomicBool>,
}

/// Time to think for the seat to move: a share of its clock, within the per-move cap and the level's maximum.
pub fn budget(clock: &Clock, seat: usize, now: Instant, level: Level) -> Duration {
    let snapshot = clock.snapshot(now);
    let mut budget = level.max_think();
    if let Some(s) = snapshot {
        if let Some(Some(left)) = s.remaining_ms.get(seat) {
            budget = budget.min(Duration::from_millis(left / 30));
        }
        if let Some(cap) = s.move_left_ms {
            budget = budget.min(Duration::from_millis(cap / 2));
        }
    }
    budget.max(Duration::from_millis(20))
}

/// Chooses a move (wire notation), or `None` if the position has none.
pub fn choose(request: &Request) -> Option<String> {
    let game = replay(&request.setup, &request.steps).ok()?;
    let legal = game.legal_moves();
    if legal.is_empty() {
        return None;
    }
    // Until the search engines land (crates/ai), a CPU plays a uniformly random legal move.
    let pick = rand::random_range(0..legal.len());
    Some(legal[pick].wire.clone())
}
