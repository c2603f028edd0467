//! The chess CPU player: reads a [`Request`], searches, answers a [`Choice`] in UCI notation.
//!
//! - `changes`: what a move changes on the board, piece by piece.
//! - [`eval`]: the evaluation (tapered piece-square tables and a few positional terms).
//! - [`nn`]: a small network that corrects the evaluation of the hard level.
//! - [`see`]: static exchange evaluation.
//! - `search`: PVS and quiescence under the shared driver (`crate::driver`).
//! - `table`: the lock-free transposition table the threads of a hard search share.
//! - [`tune`]: Texel tuning of the piece-square tables from self-play.

mod changes;
pub mod eval;
pub mod nn;
pub(crate) mod search;
pub mod see;
mod table;
#[cfg(feature = "tools")]
pub mod tune;

use crate::clock::{Budget, Timer};
use crate::params::{self, LevelParams};
use crate::request::{AiError, Choice, Limit, Request, Score};
use parlor_chess::position::uci;
use search::{History, Search, hash};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position as _};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use table::SharedTt;

/// A position to search from and the hashes of the game that led to it (for repetitions).
#[derive(Clone, Debug)]
pub struct Root {
    /// The position.
    pub pos: Chess,
    /// Hashes of the positions since the last irreversible move, this one last.
    pub keys: Vec<u64>,
    /// The root moves to search; empty for all (UCI `go searchmoves`).
    pub only: Vec<Move>,
}

impl Root {
    /// The position after `moves` (UCI) from `start` (FEN; empty for the standard start).
    ///
    /// # Errors
    /// [`AiError::BadPosition`] or [`AiError::BadMove`].
    pub fn new(start: &str, moves: &[String]) -> Result<Root, AiError> {
        let mut pos = if start.trim().is_empty() || start.trim() == "startpos" {
            Chess::default()
        } else {
            parlor_chess::Position::from_fen(start)
                .map_err(|e| AiError::BadPosition(e.to_string()))?
                .0
        };
        let mut keys = vec![hash(&pos)];
        for (index, wire) in moves.iter().enumerate() {
            let m = legal_move(&pos, index, wire)?;
            let irreversible = pos.is_irreversible(m);
            pos.play_unchecked(m);
            if irreversible {
                keys.clear();
            }
            keys.push(hash(&pos));
        }
        Ok(Root {
            pos,
            keys,
            only: Vec::new(),
        })
    }

    /// Searches only these moves (UCI notation) of the root; all of them when `wires` is empty.
    ///
    /// # Errors
    /// [`AiError::BadMove`] for a move that is not legal in the root.
    pub fn restrict(&mut self, wires: &[String]) -> Result<(), AiError> {
        self.only = wires
            .iter()
            .enumerate()
            .map(|(index, wire)| legal_move(&self.pos, index, wire))
            .collect::<Result<_, _>>()?;
        Ok(())
    }
}

/// The legal move `wire` (UCI notation, the `index`th of a list) names in `pos`.
fn legal_move(pos: &Chess, index: usize, wire: &str) -> Result<Move, AiError> {
    let bad = |reason: String| AiError::BadMove {
        index,
        wire: wire.to_owned(),
        reason,
    };
    let parsed: UciMove = wire
        .trim()
        .parse()
        .map_err(|_| bad("not UCI notation".to_owned()))?;
    parsed.to_move(pos).map_err(|e| bad(e.to_string()))
}

/// A chess engine that keeps its transposition table and history between moves of a game.
#[derive(Debug)]
pub struct ChessEngine {
    tt: SharedTt,
    history: Box<History>,
    /// The histories of the helper threads of a hard search (each thread learns its own move ordering).
    helpers: Vec<History>,
    /// The most threads the current request allows ([`Request::threads`]).
    max_threads: usize,
}

impl Default for ChessEngine {
    fn default() -> ChessEngine {
        ChessEngine::new()
    }
}

impl ChessEngine {
    /// An engine with a small table; it grows (up to [`params::CHESS_TT_ENTRIES`]) as budgets allow.
    pub fn new() -> ChessEngine {
        ChessEngine {
            tt: SharedTt::new(params::TT_MIN_ENTRIES),
            history: Box::default(),
            helpers: Vec::new(),
            max_threads: usize::MAX,
        }
    }

    /// Grows the table to what the budget can pay for: filling a table takes time that counts against the
    /// budget, so a search of a few milliseconds gets a small one. Tables never shrink.
    fn fit_table(&mut self, budget: &Budget) {
        let wanted = match budget.hard {
            Some(hard) => (hard.as_millis() as usize)
                .saturating_mul(params::TT_ENTRIES_PER_MS)
                .clamp(params::TT_MIN_ENTRIES, params::CHESS_TT_ENTRIES),
            None => params::CHESS_TT_ENTRIES,
        };
        if wanted >= 2 * self.tt.len() {
            self.tt = SharedTt::new(wanted);
        }
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.helpers.iter_mut().for_each(|h| h.clear());
    }

    /// Chooses a move for a request, calling `report` after every completed iteration.
    ///
    /// # Errors
    /// [`AiError`] when the position or a move is bad, or the game is over.
    pub fn choose(&mut self, req: &Request, report: &mut dyn FnMut(&Choice)) -> Result<Choice, AiError> {
        self.choose_since(Instant::now(), req, report)
    }

    /// As [`ChessEngine::choose`], the time budget counted from `start`.
    ///
    /// # Errors
    /// As [`ChessEngine::choose`].
    pub fn choose_since(
        &mut self,
        start: Instant,
        req: &Request,
        report: &mut dyn FnMut(&Choice),
    ) -> Result<Choice, AiError> {
        let mut root = Root::new(&req.start, &req.moves)?;
        root.restrict(&req.search_moves)?;
        let lp = req.params.unwrap_or_else(|| params::chess_level(req.level));
        let budget = Budget::new(&req.limit, lp.time_permille);
        self.fit_table(&budget);
        let timer = Timer::started_at(start, budget, Arc::clone(&req.stop));
        self.max_threads = req.threads.unwrap_or(usize::MAX);
        self.search(&root, lp, &req.limit, timer, req.seed, report)
    }

    /// Searches a root with a running timer.
    ///
    /// # Errors
    /// [`AiError::GameOver`] when the side to move has no legal move.
    pub fn search(
        &mut self,
        root: &Root,
        lp: LevelParams,
        limit: &Limit,
        timer: Timer,
        seed: Option<u64>,
        report: &mut dyn FnMut(&Choice),
    ) -> Result<Choice, AiError> {
        let mut moves: Vec<Move> = root.pos.legal_moves().into_iter().collect();
        if !root.only.is_empty() {
            moves.retain(|m| root.only.contains(m));
        }
        if moves.is_empty() {
            return Err(AiError::GameOver);
        }
        let noise = crate::driver::level_root(&mut moves, &lp, seed);
        self.tt.new_search();
        // Helper threads search the same root into the shared table (lazy SMP); only the main thread's result
        // counts. A fixed-depth search stays on one thread so its node count is reproducible.
        let threads = if limit.is_fixed_work() {
            1
        } else {
            lp.threads.min(cores()).min(self.max_threads).max(1)
        };
        while self.helpers.len() + 1 < threads {
            self.helpers.push(History::default());
        }
        let helpers_stop = Arc::new(AtomicBool::new(false));
        let (tt, history, helpers) = (&self.tt, &mut self.history, &mut self.helpers);
        std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .iter_mut()
                .take(threads - 1)
                .map(|h| {
                    let timer = timer.with_stop(Arc::clone(&helpers_stop));
                    let (keys, moves, noise) = (root.keys.clone(), &moves, &noise);
                    scope.spawn(move || {
                        let mut helper = Search::new(tt, h, timer, keys, lp);
                        helper.skip_odd_depths = true;
                        let best = helper.run(&root.pos, moves, noise, |_, _| {});
                        (best, helper.nodes)
                    })
                })
                .collect();
            let mut result = Self::main_search(tt, history, root, limit, timer, lp, &moves, &noise, report);
            helpers_stop.store(true, Ordering::Relaxed);
            // A helper that completed a deeper iteration than the main thread (it searches only even depths, so
            // it is often a ply ahead) has the better move.
            for handle in running {
                let (Ok(choice), Ok((best, nodes))) = (&mut result, handle.join()) else {
                    continue;
                };
                choice.nodes += nodes;
                if let Some(it) = best
                    && it.depth > choice.depth as i32
                {
                    let deeper =
                        Self::to_choice(root, it.depth, it.score, &it.pv, choice.nodes, choice.elapsed);
                    if !deeper.wire.is_empty() {
                        *choice = deeper;
                    }
                }
            }
            result
        })
    }

    /// A search's finding as the answer: the line in wire notation, as far as it is legal.
    fn to_choice(
        root: &Root,
        depth: i32,
        score: i32,
        pv: &[Move],
        nodes: u64,
        elapsed: std::time::Duration,
    ) -> Choice {
        let mut line = Vec::with_capacity(pv.len());
        let mut pos = root.pos.clone();
        for &m in pv {
            if !pos.is_legal(m) {
                break;
            }
            line.push(uci(m).to_string());
            pos.play_unchecked(m);
        }
        Choice::from_line(line, depth, Score::from_internal(score), nodes, elapsed)
    }

    /// The main thread of a search: its iterations are reported and its result is the answer, unless a helper
    /// got deeper.
    #[allow(clippy::too_many_arguments)]
    fn main_search(
        tt: &SharedTt,
        history: &mut History,
        root: &Root,
        limit: &Limit,
        timer: Timer,
        lp: params::LevelParams,
        moves: &[Move],
        noise: &[i32],
        report: &mut dyn FnMut(&Choice),
    ) -> Result<Choice, AiError> {
        let mut search = Search::new(tt, history, timer, root.keys.clone(), lp);
        let to_choice = |depth, score, pv: &[Move], nodes, elapsed| {
            Self::to_choice(root, depth, score, pv, nodes, elapsed)
        };
        let start = std::time::Instant::now();
        let best = search.run(&root.pos, moves, noise, |it, nodes| {
            report(&to_choice(it.depth, it.score, &it.pv, nodes, start.elapsed()));
        });
        crate::driver::hold_until_stopped(limit, search.timer());
        let nodes = search.nodes;
        let elapsed = search.timer().elapsed();
        let choice = match best {
            Some(it) if !it.pv.is_empty() => to_choice(it.depth, it.score, &it.pv, nodes, elapsed),
            // Stopped before the first iteration ended (a budget of almost nothing): the move whose resulting
            // position evaluates best, which costs microseconds.
            _ => {
                let (m, score) = static_best(&root.pos, moves);
                to_choice(0, score, &[m], nodes, elapsed)
            }
        };
        Ok(choice)
    }
}

/// The threads one search may use: the machine's cores (on Linux the answer reads cgroup files), or fewer if
/// `PARLOR_CPU_THREADS` says so (a self-hoster sharing the machine; two one-thread matches at once). Asked once;
/// a value that is not a positive number is ignored here (`parlor` refuses to start with one, see
/// [`cpu_threads_setting`]).
pub(crate) fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| {
        let machine = std::thread::available_parallelism().map_or(1, |n| n.get());
        cpu_threads_setting()
            .ok()
            .flatten()
            .map_or(machine, |n| n.min(machine))
    })
}

/// `PARLOR_CPU_THREADS` is set to something other than a positive whole number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("PARLOR_CPU_THREADS must be a whole number of threads, 1 or more (it is {0:?})")]
pub struct BadCpuThreads(pub String);

/// The cap on a search's threads that `PARLOR_CPU_THREADS` sets, if it is set.
pub fn cpu_threads_setting() -> Result<Option<usize>, BadCpuThreads> {
    match std::env::var("PARLOR_CPU_THREADS") {
        Ok(value) => parse_cpu_threads(&value).map(Some),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(value)) => {
            Err(BadCpuThreads(value.to_string_lossy().into_owned()))
        }
    }
}

/// A number of threads as `PARLOR_CPU_THREADS` gives it: a whole number, 1 or more (spaces around are allowed).
pub fn parse_cpu_threads(value: &str) -> Result<usize, BadCpuThreads> {
    value
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| BadCpuThreads(value.to_owned()))
}

/// The legal move after which the evaluation is best for the mover (one ply, no search). `moves` is not empty.
fn static_best(pos: &Chess, moves: &[Move]) -> (Move, i32) {
    let mut best = (moves[0], -params::INFINITY);
    for &m in moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let score = if child.is_checkmate() {
            params::MATE - 1
        } else {
            -eval::evaluate(&child)
        };
        if score > best.1 {
            best = (m, score);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Level;
    use parlor_game::GameKind;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn cpu_threads_must_be_a_positive_whole_number() {
        assert_eq!(parse_cpu_threads("1"), Ok(1));
        assert_eq!(parse_cpu_threads(" 4 "), Ok(4));
        for bad in ["", "0", "-1", "two", "1.5", "2 threads"] {
            assert_eq!(
                parse_cpu_threads(bad),
                Err(BadCpuThreads(bad.to_owned())),
                "{bad:?}"
            );
        }
        let message = BadCpuThreads("two".to_owned()).to_string();
        assert!(
            message.contains("PARLOR_CPU_THREADS") && message.contains("\"two\""),
            "{message}"
        );
    }

    fn best(fen: &str, depth: u32) -> Choice {
        let mut req = Request::new(GameKind::Chess, Level::HARD, Limit::Depth(depth));
        req.start = fen.to_owned();
        ChessEngine::new().choose(&req, &mut |_| {}).unwrap()
    }

    #[test]
    fn finds_mate_in_one_and_two() {
        let c = best("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 3);
        assert_eq!(c.wire, "d1d8");
        assert_eq!(c.score, Score::Mate(1));
        // Mate in 2: 1.Rd8+ Rxd8 2.Rxd8#.
        let c = best("r5k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", 5);
        assert_eq!(c.score, Score::Mate(2), "{c:?}");
    }

    #[test]
    fn takes_a_hanging_queen() {
        let c = best(
            "rnb1kbnr/pppp1ppp/8/4p1q1/3P4/2N5/PPP1PPPP/R1BQKBNR w KQkq - 0 1",
            4,
        );
        assert_eq!(c.wire, "c1g5");
    }

    #[test]
    fn knows_repetition_draws() {
        // After Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1, Black's Ng8 repeats the start position: a draw, scored 0 less
        // the level's contempt, where the evaluation of the start position would say -TEMPO for Black.
        let root = Root::new(
            "",
            &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"].map(String::from),
        )
        .unwrap();
        assert_eq!(root.keys.len(), 8);
        let back: UciMove = "f6g8".parse().unwrap();
        let m = back.to_move(&root.pos).unwrap();
        let mut engine = ChessEngine::new();
        let stop = Arc::new(AtomicBool::new(false));
        let timer = Timer::start(Budget::new(&Limit::Depth(2), 1000), stop);
        let lp = params::chess_level(Level::HARD);
        let mut search = Search::new(&engine.tt, &mut engine.history, timer, root.keys.clone(), lp);
        let it = search.run(&root.pos, &[m], &[0], |_, _| {}).unwrap();
        assert_eq!(it.score, params::DRAW - lp.contempt);
        // From a fresh start without that history the same position is not a repetition.
        let fresh = Root::new("", &["g1f3", "g8f6", "f3g1"].map(String::from)).unwrap();
        let mut search = Search::new(
            &engine.tt,
            &mut engine.history,
            Timer::start(
                Budget::new(&Limit::Depth(1), 1000),
                Arc::new(AtomicBool::new(false)),
            ),
            fresh.keys.clone(),
            lp,
        );
        let it = search.run(&fresh.pos, &[m], &[0], |_, _| {}).unwrap();
        assert_ne!(it.score, params::DRAW);
        assert_ne!(it.score, params::DRAW - lp.contempt);
    }

    /// Contempt counts a draw against the side the engine plays for, whichever colour that is, and a level
    /// without contempt scores it 0.
    #[test]
    fn contempt_counts_a_draw_against_the_engine_from_either_side() {
        // After Nf3 Nf6 Ng1 Ng8 Nf3 Nf6, White's Ng1 repeats the position after the first Ng1.
        let root = Root::new(
            "",
            &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6"].map(String::from),
        )
        .unwrap();
        let back: UciMove = "f3g1".parse().unwrap();
        let m = back.to_move(&root.pos).unwrap();
        let mut engine = ChessEngine::new();
        let hard = params::chess_level(Level::HARD);
        assert!(hard.contempt > 0, "hard plays on rather than draw");
        for contempt in [hard.contempt, 0] {
            let lp = params::LevelParams { contempt, ..hard };
            let timer = Timer::start(
                Budget::new(&Limit::Depth(3), 1000),
                Arc::new(AtomicBool::new(false)),
            );
            let mut search = Search::new(&engine.tt, &mut engine.history, timer, root.keys.clone(), lp);
            let it = search.run(&root.pos, &[m], &[0], |_, _| {}).unwrap();
            assert_eq!(it.score, params::DRAW - contempt);
            engine.new_game();
        }
    }

    #[test]
    fn a_search_stopped_before_it_starts_still_answers_a_sensible_legal_move() {
        let mut req = Request::new(
            GameKind::Chess,
            Level::HARD,
            Limit::MoveTime(std::time::Duration::ZERO),
        );
        req.start = "rnb1kbnr/pppp1ppp/8/4p1q1/3P4/2N5/PPP1PPPP/R1BQKBNR w KQkq - 0 1".to_owned();
        let c = ChessEngine::new().choose(&req, &mut |_| {}).unwrap();
        assert_eq!(c.wire, "c1g5", "{c:?}");
    }

    #[test]
    fn bad_input_gets_typed_errors() {
        assert!(matches!(Root::new("nonsense", &[]), Err(AiError::BadPosition(_))));
        assert!(matches!(
            Root::new("", &["e2e5".to_owned()]),
            Err(AiError::BadMove { index: 0, .. })
        ));
        let mut req = Request::new(GameKind::Chess, Level::EASY, Limit::Depth(2));
        req.start = "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1".to_owned();
        assert_eq!(
            ChessEngine::new().choose(&req, &mut |_| {}),
            Err(AiError::GameOver)
        );
    }
}
