//! CPU players for Parlor: a search engine per game at three levels, synchronous and cancellable, plus the tools
//! that measure them (UCI, a match runner, a search benchmark).
//!
//! The server calls [`choose`] from a blocking thread with a [`Request`] (game, start, moves in wire notation,
//! level, time limit, stop flag) and gets a [`Choice`] (a move in wire notation, score, depth, nodes, time). No
//! downcasting, no async: the search checks its clock and the stop flag every few hundred microseconds and never
//! overruns its budget by more than the time to unwind.
//!
//! # Layout
//! - [`analysis`]: the evaluation of a position for players and the marks of a game's moves (review).
//! - [`request`]: [`Request`], [`Level`], [`Limit`], [`Clock`], [`Choice`], [`Score`], [`AiError`].
//! - [`params`]: every number of the searches, levels and clock.
//! - [`clock`]: the time budget from a table's clock, and the timer the search asks.
//! - [`tt`]: the transposition table (generic over the move type).
//! - `driver`: the iterative deepening, aspiration windows and best-so-far the three engines share, and the
//!   level's choice of root moves and noise.
//! - `engine_process`: an outside engine's process, line by line (the UCI and Hub opponents of `parlor match`).
//! - [`chess`]: evaluation, static exchange evaluation and search for chess.
//! - [`draughts`]: evaluation and search for the four draughts variants.
//! - [`chess4`]: evaluation and best-reply search for four-player chess.
//! - [`uci`]: the UCI protocol loop (`parlor uci`).
//! - [`arena`]: matches between levels, a random mover and outside engines (UCI, Hub) (`parlor match`), with Elo;
//!   [`match_clock`]: their time, a fixed time per move or a game clock.
//! - [`bench`]: node counts at fixed depth (`parlor bench search`) and the timing check (`parlor bench clock`).
//! - [`nn`]: the evaluation networks' common part (the quantised network, its file, the trainer).
//! - [`rng`]: a small seeded random generator.

pub mod analysis;
#[cfg(feature = "tools")]
pub mod arena;
#[cfg(feature = "tools")]
pub mod bench;
pub mod chess;
pub mod chess4;
pub mod clock;
pub mod draughts;
pub(crate) mod driver;
#[cfg(feature = "tools")]
mod engine_process;
pub mod level;
#[cfg(feature = "tools")]
pub mod match_clock;
#[cfg(feature = "tools")]
pub mod matches;
pub mod nn;
pub mod params;
pub mod positions;
pub mod request;
pub mod rng;
#[cfg(test)]
mod test_pipe;
pub mod tt;
pub mod uci;

pub use request::{AiError, Bounds, Choice, Clock, Level, Limit, ParseLevelError, Request, Score};

/// A fingerprint of the engines' code, parameters and data (FNV-1a of `src/` and `data/`, made by `build.rs`): it
/// changes whenever what the engines play or say could change, so a stored review names the engine that made it.
pub const ENGINE_FINGERPRINT: &str = env!("ENGINE_FINGERPRINT");

use parlor_game::GameKind;
use std::cell::RefCell;
#[cfg(test)]
use std::sync::Arc;

/// Engines for every game, keeping their tables between the moves of a game.
#[derive(Debug, Default)]
pub struct Engine {
    chess: Option<chess::ChessEngine>,
    draughts: Option<draughts::DraughtsEngine>,
    chess4: Option<chess4::Chess4Engine>,
}

impl Engine {
    /// An engine with no tables allocated yet.
    pub fn new() -> Engine {
        Engine::default()
    }

    /// Forgets what earlier searches learnt.
    pub fn new_game(&mut self) {
        if let Some(c) = &mut self.chess {
            c.new_game();
        }
        if let Some(d) = &mut self.draughts {
            d.new_game();
        }
        if let Some(c) = &mut self.chess4 {
            c.new_game();
        }
    }

    /// Chooses a move, calling `report` after each completed iteration of the search.
    ///
    /// # Errors
    /// [`AiError`] when the position or a move is bad, the game is over, or the game has no engine yet.
    pub fn choose_with(&mut self, req: &Request, report: &mut dyn FnMut(&Choice)) -> Result<Choice, AiError> {
        // The budget counts from here: allocating the tables on a first call is part of the time.
        let start = std::time::Instant::now();
        match req.kind {
            GameKind::Chess => self
                .chess
                .get_or_insert_with(chess::ChessEngine::new)
                .choose_since(start, req, report),
            GameKind::Draughts(_) => self
                .draughts
                .get_or_insert_with(draughts::DraughtsEngine::new)
                .choose_since(start, req, report),
            GameKind::Chess4 => self
                .chess4
                .get_or_insert_with(chess4::Chess4Engine::new)
                .choose_since(start, req, report),
        }
    }

    /// Chooses a move.
    ///
    /// # Errors
    /// As [`Engine::choose_with`].
    pub fn choose(&mut self, req: &Request) -> Result<Choice, AiError> {
        self.choose_with(req, &mut |_| {})
    }
}

thread_local! {
    static ENGINE: RefCell<Engine> = RefCell::new(Engine::new());
}

/// Chooses a move for a request: the entry point for the server, called from a blocking thread. Each thread
/// keeps one [`Engine`] (and so its tables) between calls, so the table memory is allocated once per thread.
///
/// # Errors
/// [`AiError`] when the position or a move is bad, the game is over, or the game has no engine yet.
pub fn choose(req: &Request) -> Result<Choice, AiError> {
    ENGINE.with(|e| match e.try_borrow_mut() {
        Ok(mut engine) => engine.choose(req),
        // Re-entered from inside a search (not done by the crate): use a fresh engine.
        Err(_) => Engine::new().choose(req),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use parlor_game::Rules;
    use std::sync::atomic::Ordering;
    use std::time::{Duration, Instant};

    #[test]
    fn the_engine_fingerprint_covers_the_sources() {
        assert_eq!(ENGINE_FINGERPRINT.len(), 16);
        assert!(ENGINE_FINGERPRINT.bytes().all(|b| b.is_ascii_hexdigit()));
        // FNV-1a of nothing: the build script found no file.
        assert_ne!(ENGINE_FINGERPRINT, "cbf29ce484222325");
    }

    #[test]
    fn choose_stops_on_the_flag_and_answers_a_legal_move() {
        let mut req = Request::new(GameKind::Chess, Level::HARD, Limit::Infinite);
        req.moves = ["e2e4", "c7c5", "g1f3"].map(String::from).to_vec();
        let stop = Arc::clone(&req.stop);
        let thread = std::thread::spawn(move || choose(&req));
        std::thread::sleep(Duration::from_millis(50));
        stop.store(true, Ordering::Relaxed);
        let raised = Instant::now();
        let choice = thread.join().unwrap().unwrap();
        assert!(
            raised.elapsed() < Duration::from_millis(500),
            "{:?}",
            raised.elapsed()
        );
        let mut game = parlor_chess::Game::new();
        for m in ["e2e4", "c7c5", "g1f3"] {
            game.play(m).unwrap();
        }
        assert!(game.play(&choice.wire).is_ok(), "{choice:?}");
    }

    #[test]
    fn choose_keeps_to_a_table_clock() {
        let limit = Limit::Clock(Clock {
            remaining: Duration::from_millis(600),
            increment: Duration::ZERO,
            per_move_cap: Some(Duration::from_secs(60)),
            moves_to_go: None,
        });
        let started = Instant::now();
        let choice = choose(&Request::new(GameKind::Chess, Level::HARD, limit)).unwrap();
        // 600 ms over 30 moves: a hard limit of 50 ms; generous slack for a loaded machine and a debug build.
        let bound = Duration::from_millis(if cfg!(debug_assertions) { 600 } else { 150 });
        assert!(started.elapsed() < bound, "{:?}", started.elapsed());
        assert!(choice.depth >= 1);
    }

    /// A node limit ends every engine's search by itself, a little past the limit (the count is looked at every
    /// few hundred nodes), with no stop flag and no clock.
    #[test]
    fn a_node_limit_ends_the_search() {
        for kind in [
            GameKind::Chess,
            GameKind::Chess4,
            GameKind::Draughts(parlor_game::DraughtsVariant::International),
        ] {
            let limit = Limit::FirstOf(Bounds {
                nodes: Some(20_000),
                ..Bounds::default()
            });
            let choice = choose(&Request::new(kind, Level::HARD, limit)).unwrap();
            assert!(
                (20_000..20_000 + 4_096).contains(&choice.nodes),
                "{kind}: {choice:?}"
            );
        }
    }

    /// The random bonus of the easy and medium levels never turns a win into a reported loss: a mate in one is
    /// `Mate(1)` at every level, in chess and in draughts.
    #[test]
    fn a_win_is_reported_as_a_win_at_every_level() {
        for level in [Level::EASY, Level::MEDIUM, Level::HARD] {
            let mut req = Request::new(GameKind::Chess, level, Limit::Depth(3));
            req.start = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1".into();
            req.seed = Some(7);
            let choice = choose(&req).unwrap();
            assert_eq!(
                (choice.wire.as_str(), choice.score),
                ("d1d8", Score::Mate(1)),
                "{level:?}"
            );
            let variant = parlor_game::DraughtsVariant::International;
            let mut req = Request::new(GameKind::Draughts(variant), level, Limit::Depth(3));
            req.start = "W:W28:B23".into();
            req.seed = Some(7);
            let choice = choose(&req).unwrap();
            assert_eq!(choice.score, Score::Mate(1), "{level:?}: {choice:?}");
        }
    }

    #[test]
    fn every_game_has_an_engine() {
        for kind in [GameKind::Chess, GameKind::Chess4]
            .into_iter()
            .chain(parlor_game::DraughtsVariant::ALL.map(GameKind::Draughts))
        {
            let req = Request::new(kind, Level::EASY, Limit::Depth(1));
            assert!(choose(&req).is_ok(), "{kind}");
        }
    }
}
