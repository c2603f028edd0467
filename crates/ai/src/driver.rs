//! The iterative-deepening driver of the three engines: searches the root one depth after another, each depth
//! first within an aspiration window around the last score when the engine uses one (widened after a failure),
//! stops on the clock, the node or depth budget and the stop flag, and keeps the best line found so far. Each engine
//! says how it searches its root moves ([`RootSearch`]); the tree below them (move generation, evaluation,
//! pruning) is its own.

use crate::clock::Timer;
use crate::level::{seen_in_order, seen_moves};
use crate::params::{INFINITY, LevelParams, MATE_BOUND};
use crate::request::Limit;
use crate::rng::Rng;

/// A completed iteration (or the improvement a stopped one found).
#[derive(Clone, Debug)]
pub(crate) struct Iteration<M> {
    /// The nominal depth.
    pub depth: i32,
    /// The score for the side to move at the root (noise included for the levels that have it).
    pub score: i32,
    /// The best line, starting with the move chosen (never empty).
    pub pv: Vec<M>,
}

/// What one pass over the root moves found.
pub(crate) struct Pass<M> {
    /// The best score (at most the window's low end when every move failed low).
    pub score: i32,
    /// The line of the best move if a move raised the window's low end; in a stopped pass, only a move whose own
    /// search completed.
    pub line: Option<Vec<M>>,
}

/// How an engine searches its root moves.
pub(crate) trait RootSearch {
    /// A move of the game.
    type Move: Copy + PartialEq;
    /// The search's clock, budget and stop flag.
    fn timer(&mut self) -> &mut Timer;
    /// Nodes searched so far.
    fn nodes(&self) -> u64;
    /// Whether this search takes iteration `depth` (the helpers of a parallel search skip some).
    fn takes_depth(&self, _depth: i32) -> bool {
        true
    }
    /// Searches the root moves at `depth` within the window `(alpha, beta)`.
    fn pass(&mut self, depth: i32, alpha: i32, beta: i32) -> Pass<Self::Move>;
    /// An iteration completed (the engine orders its root moves for the next).
    fn completed(&mut self) {}
}

/// Aspiration windows: from `min_depth` on, each iteration first searches `score +- window` around the last.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Aspiration {
    /// The first half-width, cp; doubled after each failure.
    pub window: i32,
    /// The first depth searched with a window.
    pub min_depth: i32,
    /// A half-width beyond which the next try searches the full window.
    pub widest: i32,
}

/// How the driver runs an engine's search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    /// The deepest iteration.
    pub max_depth: i32,
    /// Aspiration windows, if the engine uses them.
    pub aspiration: Option<Aspiration>,
    /// Stop once an iteration finds a forced win or loss (deeper ones cannot change a decided game; a level with
    /// noise keeps searching, its scores are not exact).
    pub stop_when_decided: bool,
}

/// The root moves a level considers, and each one's noise: the moves it overlooks are dropped from `moves` (at least
/// one stays), and each move left gets a fixed random bonus in `0..=noise` cp. Drawn from `seed`, else the clock.
pub(crate) fn level_root<M>(moves: &mut Vec<M>, lp: &LevelParams, seed: Option<u64>) -> Vec<i32> {
    let mut rng = Rng::from_seed_or_clock(seed);
    let mut seen = seen_in_order(seen_moves(moves.len(), lp.overlook_permille, &mut rng));
    moves.retain(|_| seen());
    moves
        .iter()
        .map(|_| rng.below(lp.noise as u64 + 1) as i32)
        .collect()
}

/// `go infinite` answers only once told to stop, even when the search ended by itself (a decided game): waits for
/// the stop flag under that limit.
pub(crate) fn hold_until_stopped(limit: &Limit, timer: &Timer) {
    if matches!(limit, Limit::Infinite) {
        while !timer.stop_flag() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}

/// Iterative deepening over `search`'s root, calling `report` after each completed iteration with the nodes so far.
/// Depth 1 is always searched (a search has a move to give unless stopped before it starts a move). Returns the
/// last completed iteration, or the move a stopped iteration found better than it.
pub(crate) fn iterate<S: RootSearch>(
    search: &mut S,
    settings: &Settings,
    mut report: impl FnMut(&Iteration<S::Move>, u64),
) -> Option<Iteration<S::Move>> {
    let mut best: Option<Iteration<S::Move>> = None;
    for depth in 1..=settings.max_depth {
        if depth > 1 {
            let nodes = search.nodes();
            if !search.timer().may_start_iteration(depth as u32, nodes) {
                break;
            }
        }
        if !search.takes_depth(depth) {
            continue;
        }
        let (mut alpha, mut beta, mut window) = match (&settings.aspiration, &best) {
            (Some(a), Some(it)) if depth >= a.min_depth && it.score.abs() < MATE_BOUND => {
                (it.score - a.window, it.score + a.window, a.window)
            }
            _ => (-INFINITY, INFINITY, 0),
        };
        loop {
            let pass = search.pass(depth, alpha, beta);
            if search.timer().is_stopped() {
                // A move that beat the last iteration's best in a complete search of its own is kept.
                if let Some(line) = pass.line
                    && pass.score > alpha
                    && best.as_ref().is_none_or(|b| b.pv.first() != line.first())
                {
                    best = Some(Iteration {
                        depth: (depth - 1).max(1),
                        score: pass.score,
                        pv: line,
                    });
                }
                return best;
            }
            let widest = settings.aspiration.map_or(INFINITY, |a| a.widest);
            let full = alpha <= -INFINITY && beta >= INFINITY;
            if pass.score <= alpha && !full {
                beta = (alpha + beta) / 2;
                alpha = (pass.score - window).max(-INFINITY);
            } else if pass.score >= beta && !full {
                beta = (pass.score + window).min(INFINITY);
            } else if let Some(line) = pass.line {
                let it = Iteration {
                    depth,
                    score: pass.score,
                    pv: line,
                };
                report(&it, search.nodes());
                best = Some(it);
                break;
            } else if full {
                // No move at all (the engine was given none): nothing deeper will find one.
                return best;
            } else {
                // A score inside the window always comes with its move; without one, search again in full.
                (alpha, beta) = (-INFINITY, INFINITY);
            }
            window = window.saturating_mul(2);
            if window > widest {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
        search.completed();
        if settings.stop_when_decided && best.as_ref().is_some_and(|it| it.score.abs() > MATE_BOUND) {
            break;
        }
    }
    best
}

/// An engine whose pass over the root scores every move it reaches (draughts, four-player chess); [`Scored`]
/// drives it.
pub(crate) trait ScoredPass {
    /// A move of the game.
    type Move: Copy + PartialEq;
    /// A position of the game.
    type Position;
    /// The search's clock, budget and stop flag.
    fn timer(&mut self) -> &mut Timer;
    /// Nodes searched so far.
    fn nodes(&self) -> u64;
    /// One pass over `moves` (each with its `noise`) in `order` within `(lo, beta)`: the move that raised `lo`
    /// (its index and score), and each move's score (`-INFINITY` for one the pass did not reach).
    #[allow(clippy::too_many_arguments)]
    fn root_pass(
        &mut self,
        root: &Self::Position,
        moves: &[Self::Move],
        noise: &[i32],
        order: &[usize],
        depth: i32,
        lo: i32,
        beta: i32,
    ) -> (Option<(usize, i32)>, Vec<i32>);
    /// The line that starts with `first` from `root`, at most `depth` moves long.
    fn line(&self, root: &Self::Position, first: Self::Move, depth: i32) -> Vec<Self::Move>;
}

/// The root of a [`ScoredPass`] engine's search: its moves with their noise, and their order, which after each
/// completed iteration puts the best move first and the others by their scores.
pub(crate) struct Scored<'s, E: ScoredPass> {
    engine: &'s mut E,
    root: &'s E::Position,
    moves: &'s [E::Move],
    noise: &'s [i32],
    /// Indices of `moves`, the likeliest best first.
    order: Vec<usize>,
    /// The last pass's best move (its index), if a move raised alpha.
    best: Option<usize>,
    /// The last pass's score of each move.
    scores: Vec<i32>,
}

impl<'s, E: ScoredPass> Scored<'s, E> {
    /// The root `root` with its `moves` and their `noise`, searched first in `order` (indices of `moves`).
    pub fn new(
        engine: &'s mut E,
        root: &'s E::Position,
        moves: &'s [E::Move],
        noise: &'s [i32],
        order: Vec<usize>,
    ) -> Self {
        Scored {
            engine,
            root,
            moves,
            noise,
            order,
            best: None,
            scores: Vec::new(),
        }
    }
}

impl<E: ScoredPass> RootSearch for Scored<'_, E> {
    type Move = E::Move;

    fn timer(&mut self) -> &mut Timer {
        self.engine.timer()
    }

    fn nodes(&self) -> u64 {
        self.engine.nodes()
    }

    fn pass(&mut self, depth: i32, alpha: i32, beta: i32) -> Pass<E::Move> {
        let (found, scores) =
            self.engine
                .root_pass(self.root, self.moves, self.noise, &self.order, depth, alpha, beta);
        self.best = found.map(|(i, _)| i);
        self.scores = scores;
        Pass {
            score: self.scores.iter().copied().max().unwrap_or(-INFINITY),
            line: self
                .best
                .map(|i| self.engine.line(self.root, self.moves[i], depth)),
        }
    }

    fn completed(&mut self) {
        let scores = &self.scores;
        self.order
            .sort_by_key(|&i| std::cmp::Reverse(scores.get(i).copied().unwrap_or(-INFINITY)));
        if let Some(i) = self.best
            && let Some(at) = self.order.iter().position(|&j| j == i)
        {
            self.order[..=at].rotate_right(1);
        }
    }
}
