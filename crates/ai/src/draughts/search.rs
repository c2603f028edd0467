//! The draughts search: iterative deepening over a principal-variation search (negamax alpha-beta with null
//! windows after the first move), a transposition table, killer moves and a history table, late-move reductions
//! of quiet moves, and a capture search at the horizon. Where captures are forced (the rule of every variant, and
//! the default of every table), a position with a capture is never evaluated: the capture search plays every
//! capture until the position is quiet. Where a table makes them optional, the side to move may also stand on the
//! evaluation instead of capturing, as in a chess quiescence search. (A forced-move extension, one ply more for a
//! position with a single legal move, was tried: captures are forced so often that it multiplied the nodes of a
//! 16-ply search from the English start by 27, 673 k to 18.5 M.) Draws: a repetition of any position of the game
//! or the line since the last capture or man move, and the variant's no-progress rule (English 40 plies,
//! International 50, Russian 30), counted from the game's moves; not the International endgame limits. Where the
//! level says so (International hard), a quiet position whose opponent threatens to take is not evaluated but
//! searched one move further, in up to [`LevelParams::threats`] such plies of a capture-search line.

use super::eval::{Geometry, evaluate};
use super::{nn, patterns};
use crate::clock::Timer;
use crate::driver::{self, Scored};
use crate::params::{self, LevelParams};
use crate::request::with_bonus;
use crate::tt::{Bound, Tt, score_from_tt, score_to_tt};
use parlor_draughts::{Move, Position};

/// Mixed into the table's keys when captures are optional, so that an engine kept from one table to another never
/// reads a result searched under the other rule.
const OPTIONAL_CAPTURE_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// The transposition table's key of a position: its hash, and whether capturing is mandatory.
fn tt_key(pos: &Position) -> u64 {
    if pos.is_capture_mandatory() {
        pos.hash()
    } else {
        pos.hash() ^ OPTIONAL_CAPTURE_KEY
    }
}

/// The history table: a bonus per (from, to) square pair for quiet moves that caused cut-offs.
pub(crate) type History = [[i32; 51]; 51];

/// A completed iteration.
pub(crate) type Iteration = driver::Iteration<Move>;

/// One search: the tables it shares with later searches, the clock, and its own bookkeeping.
pub(crate) struct Search<'a> {
    tt: &'a mut Tt<Move>,
    history: &'a mut History,
    geo: &'a Geometry,
    timer: Timer,
    lp: LevelParams,
    killers: Vec<[Option<Move>; 2]>,
    /// Hashes of the positions of the game and of the current line, for repetitions.
    keys: Vec<u64>,
    /// For each entry of `keys`, the index where the positions it could repeat start (after the last capture or
    /// man move).
    since: Vec<usize>,
    /// Plies without a capture or a man move after which the variant's game is drawn (`usize::MAX`: no such rule).
    no_progress: usize,
    /// One move buffer per ply (no allocation in the search).
    buffers: Vec<Vec<Move>>,
    /// The variant's network, where the level uses it and the variant has one.
    network: Option<nn::Network>,
    /// The network's sums of the position at each ply of the line (empty without a network).
    acc: Vec<nn::Accumulator>,
    /// Whether the evaluation adds the pattern weights' correction (International, where the level has them).
    patterns: bool,
    /// Late-move reductions by depth and move number.
    lmr: Box<[[i32; 64]; 64]>,
    /// Nodes searched.
    pub nodes: u64,
}

impl<'a> Search<'a> {
    /// A search with the game's hashes since the last irreversible move (the root's last).
    pub fn new(
        tt: &'a mut Tt<Move>,
        history: &'a mut History,
        geo: &'a Geometry,
        timer: Timer,
        keys: Vec<u64>,
        lp: LevelParams,
    ) -> Search<'a> {
        let since = vec![0; keys.len()];
        let network = nn::Network::built_in(geo.variant).filter(|_| lp.network);
        let acc = network.map_or_else(Vec::new, |net| {
            vec![net.accumulate(&Position::start(geo.variant)); params::MAX_PLY + 2]
        });
        Search {
            network,
            acc,
            patterns: lp.patterns && geo.variant == parlor_draughts::DraughtsVariant::International,
            tt,
            history,
            geo,
            timer,
            lp,
            killers: vec![[None; 2]; params::MAX_PLY + 2],
            keys,
            since,
            no_progress: parlor_draughts::no_progress_plies(geo.variant).map_or(usize::MAX, |n| n as usize),
            buffers: (0..params::MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            lmr: Box::new(std::array::from_fn(|d| {
                std::array::from_fn(|n| {
                    if d == 0 || n == 0 {
                        0
                    } else {
                        (params::DRAUGHTS_LMR_BASE
                            + (d as f64).ln() * (n as f64).ln() / params::DRAUGHTS_LMR_DIVISOR)
                            as i32
                    }
                })
            })),
            nodes: 0,
        }
    }

    /// The timer.
    pub fn timer(&self) -> &Timer {
        &self.timer
    }

    fn stopped(&mut self) -> bool {
        if self.nodes & (params::DRAUGHTS_NODES_PER_CLOCK_CHECK - 1) == 0 {
            self.timer.must_stop(self.nodes)
        } else {
            self.timer.is_stopped()
        }
    }

    /// True if the position now on top of `keys` occurred before since the last irreversible move.
    fn is_repetition(&self) -> bool {
        let n = self.keys.len();
        if n < 3 {
            return false;
        }
        let key = self.keys[n - 1];
        let from = self.since[n - 1];
        // Only positions with the same side to move can repeat: every second one back.
        let mut i = n - 3;
        loop {
            if i < from {
                return false;
            }
            if self.keys[i] == key {
                return true;
            }
            if i < 2 {
                return false;
            }
            i -= 2;
        }
    }

    /// Plies since the last capture or man move, up to the position now on top of `keys`.
    fn quiet_plies(&self) -> usize {
        // `since[i] <= i` for every entry.
        self.since.last().map_or(0, |&from| self.since.len() - 1 - from)
    }

    fn push(&mut self, pos: &Position, m: Move, child: &Position) {
        let irreversible = m.is_capture() || pos.is_man_move(m);
        let n = self.keys.len();
        let since = if irreversible {
            n
        } else {
            self.since.last().copied().unwrap_or(0)
        };
        self.keys.push(child.hash());
        self.since.push(since);
    }

    fn pop(&mut self) {
        self.keys.pop();
        self.since.pop();
    }

    /// Runs iterative deepening from `root` over its legal `moves` (not empty), each with a fixed random bonus
    /// `noise`, calling `report` after each completed iteration. Returns the last completed iteration.
    pub fn run(
        &mut self,
        root: &Position,
        moves: &[Move],
        noise: &[i32],
        report: impl FnMut(&Iteration, u64),
    ) -> Option<Iteration> {
        self.tt.new_search();
        if let (Some(net), Some(acc)) = (self.network, self.acc.first_mut()) {
            *acc = net.accumulate(root);
        }
        let settings = driver::Settings {
            max_depth: self.lp.max_depth.min(params::MAX_DEPTH),
            aspiration: (self.lp.noise == 0).then_some(driver::Aspiration {
                window: params::DRAUGHTS_ASPIRATION_WINDOW,
                min_depth: params::DRAUGHTS_ASPIRATION_MIN_DEPTH,
                widest: params::DRAUGHTS_ASPIRATION_WIDEST,
            }),
            stop_when_decided: self.lp.noise == 0,
        };
        let order = (0..moves.len()).collect();
        driver::iterate(
            &mut Scored::new(self, root, moves, noise, order),
            &settings,
            report,
        )
    }

    /// Follows the table from `pos` to lengthen a principal variation (legal moves only, no repeats).
    fn extend_pv(&self, pos: &Position, pv: &mut Vec<Move>, max: usize) {
        let mut pos = *pos;
        let mut seen = vec![pos.hash()];
        let mut legal = Vec::new();
        while pv.len() < max {
            let Some(m) = self.tt.probe(tt_key(&pos)).and_then(|e| e.mv) else {
                break;
            };
            legal.clear();
            pos.legal_moves_into(&mut legal);
            if !legal.contains(&m) {
                break;
            }
            pv.push(m);
            pos.play_unchecked(m);
            if seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
        }
    }

    fn order_score(&self, pos: &Position, m: Move, tt_move: Option<Move>, ply: usize) -> i32 {
        if Some(m) == tt_move {
            return 1 << 30;
        }
        if m.is_capture() {
            return (1 << 28) + m.capture_count() as i32 * 1000 + i32::from(m.is_promotion());
        }
        if m.is_promotion() {
            return 1 << 27;
        }
        if self.killers[ply][0] == Some(m) {
            return (1 << 26) + 1;
        }
        if self.killers[ply][1] == Some(m) {
            return 1 << 26;
        }
        self.history[pos.from_square(m) as usize][pos.to_square(m) as usize]
    }

    /// Principal-variation search; the score is for the side to move.
    fn search(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32, ply: usize, pv: bool) -> i32 {
        if self.is_repetition() {
            return params::DRAW;
        }
        // The no-progress rule draws, unless the side to move has no move (then it has lost).
        if self.quiet_plies() >= self.no_progress && !pos.legal_moves().is_empty() {
            return params::DRAW;
        }
        if depth <= 0 || ply >= params::MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply, self.lp.threats);
        }
        self.nodes += 1;
        if self.stopped() {
            return 0;
        }
        let alpha0 = alpha;
        let key = tt_key(pos);
        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && !pv
            && i32::from(e.depth) >= depth
        {
            let s = score_from_tt(e.score, ply);
            let cut = e.bound.settles(s, alpha, beta);
            if cut {
                return s;
            }
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return -params::MATE + ply as i32;
        }
        let mut scores: Vec<i32> = Vec::with_capacity(0);
        let mut keyed: [i32; 128] = [0; 128];
        let many = moves.len() > keyed.len();
        if many {
            scores = moves
                .iter()
                .map(|&m| self.order_score(pos, m, tt_move, ply))
                .collect();
        } else {
            for (k, &m) in keyed.iter_mut().zip(moves.iter()) {
                *k = self.order_score(pos, m, tt_move, ply);
            }
        }
        let mut best_score = -params::INFINITY;
        let mut best_move = None;
        for n in 0..moves.len() {
            // Selection sort: the best remaining move next.
            let order = if many {
                &mut scores[..]
            } else {
                &mut keyed[..moves.len()]
            };
            let mut pick = n;
            for j in n + 1..moves.len() {
                if order[j] > order[pick] {
                    pick = j;
                }
            }
            order.swap(n, pick);
            moves.swap(n, pick);
            let m = moves[n];
            let quiet = !m.is_capture() && !m.is_promotion();
            let mut child = *pos;
            child.play_unchecked(m);
            self.advance(ply, pos, &child);
            self.push(pos, m, &child);
            let score = if n == 0 {
                -self.search(&child, depth - 1, -beta, -alpha, ply + 1, pv)
            } else {
                let reduce =
                    if depth >= 3 && quiet && n >= params::DRAUGHTS_LMR_MIN_MOVES && !child.has_capture() {
                        let r = self.lmr[(depth as usize).min(63)][n.min(63)] - i32::from(pv);
                        r.clamp(1, depth - 1)
                    } else {
                        0
                    };
                let mut s = -self.search(&child, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, false);
                if s > alpha && reduce > 0 {
                    s = -self.search(&child, depth - 1, -alpha - 1, -alpha, ply + 1, false);
                }
                if s > alpha && s < beta && pv {
                    s = -self.search(&child, depth - 1, -beta, -alpha, ply + 1, true);
                }
                s
            };
            self.pop();
            if self.timer.is_stopped() {
                self.buffers[ply] = moves;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if quiet {
                            if self.killers[ply][0] != Some(m) {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = Some(m);
                            }
                            let h = &mut self.history[pos.from_square(m) as usize][pos.to_square(m) as usize];
                            *h = (*h + depth * depth).min(params::HISTORY_MAX);
                        }
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        let bound = Bound::of(best_score, alpha0, beta);
        self.tt
            .store(key, best_move, score_to_tt(best_score, ply), 0, depth, bound);
        best_score
    }

    /// The evaluation of a quiet position at `ply`, with the network's and the pattern weights' corrections where
    /// the level has them (the patterns: International).
    fn evaluate(&self, pos: &Position, ply: usize) -> i32 {
        let mut score = evaluate(pos, self.geo);
        if let (Some(net), Some(acc)) = (self.network, self.acc.get(ply)) {
            let c = net.correction_of(acc, pos.side_to_move());
            debug_assert_eq!(c, net.correction(pos), "the sums kept at ply {ply} are off");
            let max = params::DRAUGHTS_NETWORK_MAX;
            score += c.clamp(-max, max);
        }
        if self.patterns {
            let max = params::DRAUGHTS_PATTERNS_MAX;
            score += patterns::correction(pos).clamp(-max, max);
        }
        score
    }

    /// The network's sums of `child`, a move from `pos` at `ply`, for the next ply (nothing without a network).
    #[inline]
    fn advance(&mut self, ply: usize, pos: &Position, child: &Position) {
        if let Some(net) = self.network
            && ply + 1 < self.acc.len()
        {
            let (done, next) = self.acc.split_at_mut(ply + 1);
            net.update_into(&done[ply], &mut next[0], pos, child);
        }
    }

    /// The capture search: a position with a capture plays every capture; a quiet one is evaluated. Where
    /// captures are optional the side to move may instead stand on the evaluation (it could play a quiet move).
    /// A quiet position where the opponent threatens to take is not evaluated, within `threats` such plies of the
    /// line: the evaluation would miss what the threat wins, so every move of the side to move is tried, each
    /// answered by the capture search.
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize, threats: u32) -> i32 {
        self.nodes += 1;
        if self.stopped() {
            return 0;
        }
        if ply >= params::MAX_PLY {
            return self.evaluate(pos, ply);
        }
        if !pos.has_capture() {
            if threats > 0 && pos.is_capture_mandatory() && pos.opponent_has_capture() {
                let lost = -params::MATE + ply as i32;
                return self.best_reply(pos, false, lost, alpha, beta, ply, threats - 1);
            }
            return self.evaluate(pos, ply);
        }
        let mut best = -params::INFINITY;
        if !pos.is_capture_mandatory() {
            best = self.evaluate(pos, ply);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        self.best_reply(pos, true, best, alpha, beta, ply, threats)
    }

    /// The best of `best` and the moves of `pos` (its captures only, with `captures_only`), each answered by the
    /// capture search.
    #[allow(clippy::too_many_arguments)]
    fn best_reply(
        &mut self,
        pos: &Position,
        captures_only: bool,
        mut best: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        threats: u32,
    ) -> i32 {
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        pos.legal_moves_into(&mut moves);
        for &m in &moves {
            if captures_only && !m.is_capture() {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(m);
            self.advance(ply, pos, &child);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, threats);
            if self.timer.is_stopped() {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        if self.timer.is_stopped() {
            return 0;
        }
        best
    }
}

impl driver::ScoredPass for Search<'_> {
    type Move = Move;
    type Position = Position;

    fn timer(&mut self) -> &mut Timer {
        &mut self.timer
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn root_pass(
        &mut self,
        root: &Position,
        moves: &[Move],
        noise: &[i32],
        order: &[usize],
        depth: i32,
        lo: i32,
        beta: i32,
    ) -> (Option<(usize, i32)>, Vec<i32>) {
        let mut alpha = lo;
        let mut best_here: Option<(usize, i32)> = None;
        let mut scores = vec![-params::INFINITY; moves.len()];
        {
            for (n, &i) in order.iter().enumerate() {
                let m = moves[i];
                let mut child = *root;
                child.play_unchecked(m);
                self.advance(0, root, &child);
                self.push(root, m, &child);
                let bonus = noise[i];
                let score = if n == 0 {
                    with_bonus(
                        -self.search(&child, depth - 1, -(beta - bonus), -(alpha - bonus), 1, true),
                        bonus,
                    )
                } else {
                    let s = with_bonus(
                        -self.search(
                            &child,
                            depth - 1,
                            -(alpha - bonus) - 1,
                            -(alpha - bonus),
                            1,
                            false,
                        ),
                        bonus,
                    );
                    if s > alpha && !self.timer.is_stopped() {
                        with_bonus(
                            -self.search(&child, depth - 1, -(beta - bonus), -(alpha - bonus), 1, true),
                            bonus,
                        )
                    } else {
                        s
                    }
                };
                self.pop();
                if self.timer.is_stopped() {
                    break;
                }
                scores[i] = score;
                if score > alpha {
                    alpha = score;
                    best_here = Some((i, score));
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        (best_here, scores)
    }

    fn line(&self, root: &Position, first: Move, depth: i32) -> Vec<Move> {
        let mut pv = vec![first];
        let mut child = *root;
        child.play_unchecked(first);
        self.extend_pv(&child, &mut pv, depth as usize);
        pv
    }
}
