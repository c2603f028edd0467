//! CPU players for Parlor: a search engine per game at three levels, synchronous and cancellable, plus the tools
//! that measure them (UCI, a match runner, a search benchmark).
//!
//! The server calls [`choose`] from a blocking thread with a [`Request`] (game, start, moves in wire notation,
//! level, time limit, stop flag) and gets a [`Choice`] (a move in wire notation, score, depth, nodes, time). No
//! downcasting, no async: the search checks its clock and the stop flag every few hundred microseconds and never
//! overruns its budget by more than the time to unwind.
//!
//! # Layout
//! - [`request`]: [`Request`], [`Level`], [`Limit`], [`Clock`], [`Choice`], [`Score`], [`AiError`].
//! - [`params`]: every number of the searches, levels and clock.
//! - [`clock`]: the time budget from a table's clock, and the timer the search asks.
//! - [`tt`]: the transposition table (generic over the move type).
//! - [`chess`]: evaluation, static exchange evaluation and search for chess.
//! - [`draughts`]: evaluation and search for the four draughts variants.
//! - [`chess4`]: evaluation and paranoid search for four-player chess.
//! - [`uci`]: the UCI protocol loop (`parlor uci`).
//! - [`arena`]: matches between levels, a random mover and external UCI engines (`parlor match`), with Elo.
//! - [`bench`]: node counts at fixed depth (`parlor bench search`) and the timing check (`parlor bench clock`).
//! - [`rng`]: a small seeded random generator.

pub mod arena;
pub mod bench;
pub mod chess;
pub mod chess4;
pub mod clock;
pub mod draughts;
pub mod params;
pub mod request;
pub mod rng;
pub mod tt;
pub mod uci;

pub use request::{AiError, Choice, Clock, Level, Limit, ParseLevelError, Request, Score};

use parlor_game::GameKind;
use std::cell::RefCell;

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
