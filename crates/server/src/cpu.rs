//! CPU seats: the table asks for a move, the search engine of `parlor-ai` runs on a blocking thread with a share of
//! the table's clock as its budget, and the answer comes back to the table's inbox.

use crate::clock::Clock;
use crate::games::{GameSetup, Step, replay};
use parlor_ai::{AiError, Limit};
use parlor_game::{AnyGame, GameKind, Rules};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tokio::time::Instant;

pub use parlor_ai::Level;

/// The level that takes over a four-player seat whose player left.
pub const TAKEOVER: Level = Level::MEDIUM;

/// The longest a CPU at this level thinks per move at a table, whatever its clock: people should not wait long.
const fn max_think(level: Level) -> Duration {
    match level.number() {
        0..=2 => Duration::from_millis(300),
        3..=5 => Duration::from_millis(1000),
        6 => Duration::from_millis(2000),
        _ => Duration::from_millis(3000),
    }
}

/// What a CPU needs to choose a move.
#[derive(Debug)]
pub struct Request {
    /// The game.
    pub kind: GameKind,
    /// How the game was set up (start position, options).
    pub setup: GameSetup,
    /// The game so far: moves and events (four-player eliminations change whose turn it is).
    pub steps: Vec<Step>,
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
    let mut budget = max_think(level);
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

/// Chooses a move (wire notation), or `None` if the position has none or the request was stopped.
pub fn choose(request: &Request) -> Option<String> {
    let game = replay(&request.setup, &request.steps).ok()?;
    let legal = game.legal_moves();
    if legal.is_empty() {
        return None;
    }
    match parlor_ai::choose(&engine_request(request, &game)) {
        Ok(choice) if legal.iter().any(|m| m.wire == choice.wire) => Some(choice.wire),
        Ok(choice) => {
            tracing::error!(wire = %choice.wire, "the engine chose a move the rules do not list");
            None
        }
        Err(AiError::Unsupported(kind)) => {
            // No engine for this game in this build: a legal move at random keeps the table going.
            tracing::warn!(%kind, "no engine for this game; playing a random legal move");
            Some(legal[rand::random_range(0..legal.len())].wire.clone())
        }
        Err(e) => {
            // The table must not stall: an engine failure still plays a legal move, and is logged.
            tracing::error!(error = %e, "the engine failed; playing a random legal move");
            Some(legal[rand::random_range(0..legal.len())].wire.clone())
        }
    }
}

/// What the engine is asked: the game from its start (or from `game`, its current position, when an event that is
/// not a move changed it), the table's options, the level and the budget.
fn engine_request(request: &Request, game: &AnyGame) -> parlor_ai::Request {
    let (start, moves) = engine_position(game.as_ref(), &request.steps);
    let mut ai = parlor_ai::Request::new(request.kind, request.level, Limit::MoveTime(request.budget));
    ai.start = start;
    ai.moves = moves;
    ai.stop = request.stop.clone();
    ai.mandatory_capture = request.setup.mandatory_capture;
    ai
}

/// The position `game` (reached by `steps`) as an engine reads it: a start and the moves since. Moves alone replay
/// the game unless an event (a four-player resignation or flag) changed it: then the engine starts from the current
/// position. The start is the game's own: a four-player game may begin with any seat to move (a rotated rematch),
/// which the standard start would not say.
pub fn engine_position(game: &dyn Rules, steps: &[Step]) -> (String, Vec<String>) {
    let moves: Vec<String> = steps
        .iter()
        .filter_map(|s| match s {
            Step::Move(w) => Some(w.clone()),
            Step::Event(_) => None,
        })
        .collect();
    if moves.len() == steps.len() {
        (game.start_text(), moves)
    } else {
        (game.position_text(), Vec::new())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// A four-player game that Blue opens (a rotated rematch): the engine is given the game's own start, Blue to
    /// move, and answers with one of Blue's moves, also after one move by each.
    #[test]
    fn the_engine_plays_the_seat_to_move_when_the_game_began_with_another() {
        let setup = GameSetup {
            game: "chess4".to_owned(),
            start: None,
            first: 1,
            mandatory_capture: true,
            move_limit: None,
        };
        for steps in [vec![], vec!["b7-c7", "g13-g12", "m8-l8", "h2-h3"]] {
            let request = Request {
                kind: setup.kind().unwrap(),
                setup: setup.clone(),
                steps: steps.iter().map(|w| Step::Move((*w).to_owned())).collect(),
                level: Level::EASY,
                budget: Duration::from_millis(50),
                stop: Arc::new(AtomicBool::new(false)),
            };
            let wire = choose(&request).expect("a move for Blue");
            let mut game = replay(&request.setup, &request.steps).unwrap();
            assert!(game.play(&wire).is_ok(), "{wire} after {steps:?}");
        }
    }

    /// A draughts table where capturing is optional: once a player has declined a capture, the engine still
    /// replays the game and answers (the declined capture is not forced on the replay).
    #[test]
    fn the_engine_plays_on_after_a_declined_capture() {
        let setup = GameSetup {
            game: "draughts/english".to_owned(),
            start: None,
            first: 0,
            mandatory_capture: false,
            move_limit: None,
        };
        // Black's 12-16 declines 15x22.
        let steps: Vec<Step> = ["11-15", "22-18", "12-16"]
            .into_iter()
            .map(|w| Step::Move(w.to_owned()))
            .collect();
        let request = Request {
            kind: setup.kind().unwrap(),
            setup,
            steps,
            level: Level::MEDIUM,
            budget: Duration::from_millis(50),
            stop: Arc::new(AtomicBool::new(false)),
        };
        let game = replay(&request.setup, &request.steps).unwrap();
        let ai = engine_request(&request, &game);
        assert!(!ai.mandatory_capture);
        let choice = parlor_ai::choose(&ai).unwrap();
        assert!(
            game.legal_moves().iter().any(|m| m.wire == choice.wire),
            "{choice:?}"
        );
        assert_eq!(
            choose(&request).map(|w| game.legal_moves().iter().any(|m| m.wire == w)),
            Some(true)
        );
    }
}
