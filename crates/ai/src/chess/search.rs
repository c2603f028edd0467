//! The chess search: iterative deepening with aspiration windows over a principal-variation search (negamax
//! alpha-beta) with a transposition table, null-move pruning, reverse futility and futility pruning, late-move
//! pruning and reductions, static-exchange pruning, internal iterative reduction, check and singular extensions,
//! a static evaluation corrected by a pawn-structure correction history (and by a small network, `nn.rs`, where a
//! level asks for it: hard does), killer, counter-move, history and continuation-history move ordering, captures
//! by victim and capture history (the table's move first, before the others are scored), and a quiescence search of captures filtered by static
//! exchange evaluation. Mates score by distance; repetitions and the fifty-move rule score as draws. Several
//! threads may run it on one shared table (lazy SMP, see `mod.rs`; a helper searches only even depths).
//!
//! Every technique here is textbook (see the Chess Programming Wiki pages of the same names); the numbers are in
//! `params.rs`. Positions are copied, not unmade: shakmaty's positions are small. The hash is kept from move to
//! move ([`hash_after`]) rather than computed from the whole board at every node.

use super::changes::for_each_change;
use super::eval;
use super::nn;
use super::see::see_ge;
use super::table::{self, SharedTt};
use crate::clock::Timer;
use crate::driver::{self, Pass, RootSearch};
use crate::params::{self, LevelParams, MATE, MATE_BOUND, MAX_PLY};
use crate::request::with_bonus;
use crate::tt::{Bound, score_from_tt, score_to_tt};
use shakmaty::zobrist::{Zobrist64, ZobristValue as _};
use shakmaty::{
    Bitboard, CastlingSide, Chess, Color, EnPassantMode, Move, MoveList, Piece, Position as _, Role,
};

/// Pieces (colour and role) times squares: the index of a move by what moves and where to.
const PIECE_SQUARES: usize = 12 * 64;

/// What earlier searches learnt about quiet moves, kept between the moves of a game.
#[derive(Debug)]
pub(crate) struct History {
    /// Quiet-move history: `(colour, role) * 64 + destination`.
    quiet: Vec<i32>,
    /// Continuation history (a quiet move's history given the move one or two plies before it):
    /// `earlier move index * PIECE_SQUARES + move index`. Sixteen bits an entry (gravity keeps every entry
    /// within +-[`params::CHESS_HISTORY_MAX`]): half the memory, so more of the table stays in the cache.
    cont: Vec<i16>,
    /// Capture history: how often a capture (by what moves where, and what it takes) refuted a position,
    /// `move index * 6 + captured role` (a queen promotion that takes nothing uses the sixth slot).
    captures: Vec<i16>,
    /// The quiet move that last refuted a move, by the refuted move's index.
    counters: Vec<Option<Move>>,
    /// Correction history: how far searches found the static evaluation off, by side to move and pawn
    /// structure, in 1/[`params::CORRECTION_GRAIN`] cp (see [`Search::corrected`]).
    correction: Vec<i32>,
    /// The evaluation's pawn terms of the pawn structures met (exact, so kept for the game's later moves, which
    /// meet most of them again).
    pawns: eval::PawnCache,
}

impl Default for History {
    fn default() -> History {
        History {
            quiet: vec![0; PIECE_SQUARES],
            cont: vec![0; PIECE_SQUARES * PIECE_SQUARES],
            captures: vec![0; PIECE_SQUARES * 6],
            counters: vec![None; PIECE_SQUARES],
            correction: vec![0; 2 * params::CORRECTION_ENTRIES],
            pawns: eval::PawnCache::default(),
        }
    }
}

impl History {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.quiet.iter_mut().for_each(|h| *h = 0);
        self.cont.iter_mut().for_each(|h| *h = 0);
        self.captures.iter_mut().for_each(|h| *h = 0);
        self.counters.iter_mut().for_each(|c| *c = None);
        self.correction.iter_mut().for_each(|c| *c = 0);
    }

    /// Halves the quiet-move entries, so a new search weighs its own findings more (the continuation entries,
    /// 150 times as many, are left to gravity: halving them would cost a search of a few ms a large part of it).
    fn age(&mut self) {
        self.quiet.iter_mut().for_each(|h| *h /= 2);
    }
}

/// Moves an entry towards `delta`'s sign; gravity keeps it within +-[`params::CHESS_HISTORY_MAX`].
#[inline]
fn nudge(h: &mut i32, delta: i32) {
    *h += delta - *h * delta.abs() / params::CHESS_HISTORY_MAX;
}

/// [`nudge`] for an entry kept in sixteen bits.
#[inline]
fn nudge16(h: &mut i16, delta: i32) {
    let mut wide = i32::from(*h);
    nudge(&mut wide, delta);
    *h = wide as i16;
}

const _: () = assert!(
    params::CHESS_HISTORY_MAX <= i16::MAX as i32,
    "history entries must fit in 16 bits"
);

/// No static evaluation (the side to move is in check).
const NO_EVAL: i32 = -params::INFINITY;

/// The hash of a position for the table and for repetitions (the same hash as `parlor_chess`).
#[inline]
pub(crate) fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The hash of `child`, the position after `m` in `pos` whose hash is `key`, from the pieces, rights and en
/// passant file the move changes (the same value as [`hash`] of `child`, at a fraction of the cost).
#[inline]
pub(crate) fn hash_after(pos: &Chess, key: u64, m: Move, child: &Chess) -> u64 {
    let mut h = key ^ Zobrist64::zobrist_for_white_turn().0;
    let incremental = for_each_change(pos, m, |piece, square, _| {
        h ^= Zobrist64::zobrist_for_piece(square, piece).0;
    });
    if !incremental {
        return hash(child);
    }
    let (before, after) = (pos.castles(), child.castles());
    if before.castling_rights() != after.castling_rights() {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if before.has(color, side) != after.has(color, side) {
                    h ^= Zobrist64::zobrist_for_castling_right(color, side).0;
                }
            }
        }
    }
    if let Some(sq) = pos.ep_square(EnPassantMode::Legal) {
        h ^= Zobrist64::zobrist_for_en_passant_file(sq.file()).0;
    }
    if let Some(sq) = child.ep_square(EnPassantMode::Legal) {
        h ^= Zobrist64::zobrist_for_en_passant_file(sq.file()).0;
    }
    debug_assert_eq!(h, hash(child), "incremental hash of {m:?}");
    h
}

/// The hash after a null move (the turn passes, the en passant right lapses).
#[inline]
fn hash_after_null(pos: &Chess, key: u64) -> u64 {
    let mut h = key ^ Zobrist64::zobrist_for_white_turn().0;
    if let Some(sq) = pos.ep_square(EnPassantMode::Legal) {
        h ^= Zobrist64::zobrist_for_en_passant_file(sq.file()).0;
    }
    h
}

/// A completed iteration.
pub(crate) type Iteration = driver::Iteration<Move>;

/// One search: the tables it borrows and the state of the tree walk.
pub(crate) struct Search<'a> {
    tt: &'a SharedTt,
    history: &'a mut History,
    killers: Vec<[Option<Move>; 2]>,
    /// Static evaluation at each ply of the current line ([`NO_EVAL`] in check).
    evals: Vec<i32>,
    /// The move played at each ply of the current line, as its history index; `None` for a null move.
    played: Vec<Option<usize>>,
    /// The move left out at each ply (a singular-extension search of the other moves).
    excluded: Vec<Option<Move>>,
    pv: Vec<Vec<Move>>,
    timer: Timer,
    pub nodes: u64,
    /// Hashes of the game's positions, then of the current line; `keys[i]` for ply `i - root_index`.
    keys: Vec<u64>,
    /// Repetitions are not looked for before this index (a null move breaks the chain of real moves).
    barrier: usize,
    level: LevelParams,
    lmr: Vec<[i32; 64]>,
    /// The network's first-layer sums at each ply of the current line (kept only when the level uses it).
    acc: Vec<nn::Accumulator>,
    /// A helper thread of a lazy SMP search searches only even depths (after the first), so that it is a ply
    /// ahead of the main thread half the time instead of walking the same nodes at the same moment.
    pub(crate) skip_odd_depths: bool,
    /// The side the search plays for (the side to move at the root): contempt counts draws against it.
    root_turn: Color,
    /// Mixed into every key the table sees ([`Search::tt_key`]).
    tt_salt: u64,
    /// Material and piece-square sums ([`eval::psq`]) at each ply of the current line.
    psq: Vec<(i32, i32)>,
    /// The move lists of each ply, kept so that a node does not allocate its own.
    lists: Vec<Vec<(Move, i32)>>,
    /// Room for [`sort_by_order`].
    sorting: Sorting,
}

impl<'a> Search<'a> {
    /// A search of the position at the end of `keys` (the game's hashes since the last irreversible move,
    /// the current position last).
    pub fn new(
        tt: &'a SharedTt,
        history: &'a mut History,
        timer: Timer,
        keys: Vec<u64>,
        level: LevelParams,
    ) -> Search<'a> {
        let mut lmr = vec![[0i32; 64]; params::MAX_DEPTH as usize + 1];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (params::LMR_BASE + (d as f64).ln() * (m as f64).ln() / params::LMR_DIVISOR) as i32;
            }
        }
        Search {
            tt,
            history,
            killers: vec![[None; 2]; MAX_PLY + 2],
            evals: vec![NO_EVAL; MAX_PLY + 2],
            played: vec![None; MAX_PLY + 2],
            excluded: vec![None; MAX_PLY + 2],
            pv: vec![Vec::new(); MAX_PLY + 2],
            timer,
            nodes: 0,
            keys,
            barrier: 0,
            level,
            lmr,
            acc: Vec::new(),
            skip_odd_depths: false,
            root_turn: Color::White,
            tt_salt: 0,
            psq: vec![(0, 0); MAX_PLY + 2],
            lists: vec![Vec::new(); MAX_PLY + 2],
            sorting: Sorting::default(),
        }
    }

    /// The key of a position in the shared table. Scores and evaluations stored by a search are only valid for
    /// searches that score alike: one engine's table serves every game of its thread (the server) and every
    /// level, so a level with the network stores other evaluations than one without, and with contempt a draw
    /// is scored from the side the search plays for. Those searches use disjoint keys.
    #[inline]
    fn tt_key(&self, key: u64) -> u64 {
        key ^ self.tt_salt
    }

    /// The score of a draw for the side to move in `pos`: below zero for the side the search plays for when the
    /// level has contempt, above zero for its opponent.
    #[inline]
    fn draw(&self, pos: &Chess) -> i32 {
        if pos.turn() == self.root_turn {
            params::DRAW - self.level.contempt
        } else {
            params::DRAW + self.level.contempt
        }
    }

    /// The static evaluation of `pos` at `ply`: the hand-written one, corrected by the network if the level uses
    /// it (from the sums kept for the ply).
    #[inline]
    fn evaluate(&mut self, pos: &Chess, ply: usize) -> i32 {
        let base = self.history.pawns.evaluate_kept(pos, self.psq[ply]);
        if self.level.network {
            let c = nn::correction_of(&self.acc[ply], pos.turn());
            debug_assert_eq!(c, nn::correction(pos), "the sums kept at ply {ply} are off");
            base + (c - params::NETWORK_TEMPO).clamp(-params::NETWORK_MAX, params::NETWORK_MAX)
        } else {
            base
        }
    }

    /// Keeps the piece-square sums, and the network's sums if the level uses it, of the position after `m` in
    /// `pos` (at `ply`) for the next ply; `None` for a null move.
    #[inline]
    fn keep_sums(&mut self, ply: usize, pos: &Chess, m: Option<Move>) {
        let mut psq = self.psq[ply];
        if let Some(m) = m {
            let incremental = for_each_change(pos, m, |piece, square, put| {
                let (mg, eg) = eval::psq_change(piece, square, put);
                psq.0 += mg;
                psq.1 += eg;
            });
            if !incremental {
                let mut after = pos.clone();
                after.play_unchecked(m);
                psq = eval::psq(after.board());
            }
        }
        self.psq[ply + 1] = psq;
        if self.level.network {
            let (done, next) = self.acc.split_at_mut(ply + 1);
            match m {
                Some(m) => nn::update_into(&done[ply], &mut next[0], pos, m),
                None => next[0] = done[ply],
            }
        }
    }

    /// Steps into `child`, the position after `m` in `pos` (at `ply`, whose hash is `key`): its hash goes on the
    /// line's keys and its sums are kept for the next ply. The child's table slot is prefetched first, so that
    /// its memory load runs while the network's sums are updated instead of stalling the child's probe.
    #[inline]
    fn enter(&mut self, ply: usize, pos: &Chess, key: u64, m: Move, child: &Chess) {
        let child_key = hash_after(pos, key, m, child);
        self.tt.prefetch(self.tt_key(child_key));
        self.keep_sums(ply, pos, Some(m));
        self.keys.push(child_key);
    }

    /// The timer (elapsed time, stop state).
    pub fn timer(&mut self) -> &mut Timer {
        &mut self.timer
    }

    /// Iterative deepening from `root`. `noise[i]` is added to the score of `moves[i]` at the root (levels).
    /// Calls `report` after each completed iteration. Returns the last completed (or partly completed, if it
    /// already improved) iteration.
    pub fn run(
        &mut self,
        root: &Chess,
        moves: &[Move],
        noise: &[i32],
        report: impl FnMut(&Iteration, u64),
    ) -> Option<Iteration> {
        self.history.age();
        self.root_turn = root.turn();
        self.tt_salt = salt(&self.level, self.root_turn);
        self.psq[0] = eval::psq(root.board());
        if self.level.network {
            self.acc = vec![nn::accumulate(root); MAX_PLY + 2];
        }
        self.evals[0] = if root.is_check() {
            NO_EVAL
        } else {
            self.evaluate(root, 0)
        };
        let mut order: Vec<(Move, i32)> = moves.iter().copied().zip(noise.iter().copied()).collect();
        // Start from the table's move when it has one.
        let tt_move = self
            .tt
            .probe(self.tt_key(self.keys.last().copied().unwrap_or(0)))
            .and_then(|e| e.mv);
        if let Some(i) = order.iter().position(|(m, _)| table::is(*m, tt_move)) {
            order[..=i].rotate_right(1);
        }
        let settings = driver::Settings {
            max_depth: self.level.max_depth.min(params::MAX_DEPTH),
            aspiration: Some(driver::Aspiration {
                window: params::ASPIRATION_WINDOW,
                min_depth: params::ASPIRATION_MIN_DEPTH,
                widest: params::INFINITY,
            }),
            stop_when_decided: false,
        };
        driver::iterate(
            &mut Root {
                search: self,
                root,
                order,
            },
            &settings,
            report,
        )
    }

    /// Searches every root move; returns the best score and whether a move raised alpha (so `pv[0]` holds a
    /// line found in this call).
    fn root(
        &mut self,
        pos: &Chess,
        order: &mut [(Move, i32)],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, bool) {
        let mut best = -params::INFINITY;
        let mut improved = false;
        self.pv[0].clear();
        let key = self.keys.last().copied().unwrap_or(0);
        let mut i = 0;
        while i < order.len() {
            let (m, noise) = order[i];
            let mut child = pos.clone();
            child.play_unchecked(m);
            self.enter(0, pos, key, m, &child);
            let check = child.is_check();
            let new_depth = depth - 1 + i32::from(check);
            self.played[0] = Some(move_index(pos, m));
            let (a, b) = (alpha - noise, beta - noise);
            let mut score;
            if i == 0 {
                score = with_bonus(-self.negamax(&child, new_depth, -b, -a, 1, true, true), noise);
            } else {
                // Late quiet moves at the root are reduced too, a ply less than inside the tree.
                let mut r = 0;
                if depth >= params::LMR_MIN_DEPTH
                    && i >= params::LMR_MIN_MOVES
                    && !check
                    && !m.is_capture()
                    && !m.is_promotion()
                {
                    r = (self.lmr[depth.min(params::MAX_DEPTH) as usize][i.min(63)] - params::ROOT_LMR_LESS)
                        .clamp(0, new_depth - 1);
                }
                score = with_bonus(
                    -self.negamax(&child, new_depth - r, -a - 1, -a, 1, false, true),
                    noise,
                );
                if score > alpha && r > 0 && !self.timer.is_stopped() {
                    score = with_bonus(
                        -self.negamax(&child, new_depth, -a - 1, -a, 1, false, true),
                        noise,
                    );
                }
                if score > alpha && score < beta && !self.timer.is_stopped() {
                    score = with_bonus(-self.negamax(&child, new_depth, -b, -a, 1, true, true), noise);
                }
            }
            self.keys.pop();
            if self.timer.is_stopped() {
                break;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                improved = true;
                let mut line = vec![m];
                line.extend_from_slice(&self.pv[1]);
                self.pv[0] = line;
                // Best move first for the next iteration.
                order[..=i].rotate_right(1);
                if score >= beta {
                    break;
                }
            }
            i += 1;
        }
        (best, improved)
    }

    /// The static evaluation `raw` of `pos` corrected by what searches of positions with the same pawns found
    /// (correction history, as in Stockfish and most engines since 2023).
    #[inline]
    fn corrected(&self, pos: &Chess, raw: i32) -> i32 {
        let c = self.history.correction[correction_index(pos)] / params::CORRECTION_GRAIN;
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the correction of `pos` towards the difference between the search's finding `best` and the raw
    /// static evaluation `raw` (a running average, weighted by depth).
    #[inline]
    fn update_correction(&mut self, pos: &Chess, raw: i32, best: i32, depth: i32) {
        let diff = (best - raw).clamp(-params::CORRECTION_MAX_DIFF, params::CORRECTION_MAX_DIFF)
            * params::CORRECTION_GRAIN;
        let weight = (depth + 1).min(16);
        let c = &mut self.history.correction[correction_index(pos)];
        *c = ((*c * (256 - weight) + diff * weight) / 256).clamp(
            -params::CORRECTION_MAX_DIFF * params::CORRECTION_GRAIN,
            params::CORRECTION_MAX_DIFF * params::CORRECTION_GRAIN,
        );
    }

    #[inline]
    fn check_clock(&mut self) -> bool {
        if self.nodes & (params::NODES_PER_CLOCK_CHECK - 1) == 0 {
            self.timer.must_stop(self.nodes)
        } else {
            self.timer.is_stopped()
        }
    }

    fn is_repetition(&self, halfmoves: u32) -> bool {
        let n = self.keys.len();
        let Some(&key) = self.keys.last() else {
            return false;
        };
        let earliest = n.saturating_sub(halfmoves as usize + 1).max(self.barrier);
        let mut i = n.saturating_sub(5);
        while i >= earliest && i < n {
            if self.keys[i] == key {
                return true;
            }
            if i < 2 {
                break;
            }
            i -= 2;
        }
        false
    }

    /// The moves one and two plies before `ply` (for the counter move and the continuation history).
    #[inline]
    fn earlier(&self, ply: usize) -> [Option<usize>; 2] {
        [
            ply.checked_sub(1).and_then(|p| self.played[p]),
            ply.checked_sub(2).and_then(|p| self.played[p]),
        ]
    }

    /// The history score of a quiet move: its own and its continuation entries.
    #[inline]
    fn quiet_score(&self, index: usize, earlier: [Option<usize>; 2]) -> i32 {
        let mut score = self.history.quiet[index];
        for e in earlier.into_iter().flatten() {
            score += i32::from(self.history.cont[e * PIECE_SQUARES + index]);
        }
        score
    }

    /// The [`move_key`]s of the killers at `ply` and of the counter move, for [`Search::order_score`] (0 for
    /// none, which no move's key is).
    #[inline]
    fn order_refs(&self, ply: usize, counter: Option<Move>) -> [u32; 3] {
        let k = &self.killers[ply];
        [k[0], k[1], counter].map(|m| m.map_or(0, move_key))
    }

    /// The order of a move at `ply`: `refs` from [`Search::order_refs`], `earlier` the history indices of the
    /// moves that led here.
    fn order_score(&self, pos: &Chess, m: Move, refs: [u32; 3], earlier: [Option<usize>; 2]) -> i32 {
        // The common case, a quiet move that is no promotion, is read from the move's fields at once (what
        // `move_index` finds with a match for each question).
        let index = match m {
            Move::Normal {
                role,
                capture: None,
                to,
                promotion: None,
                ..
            } => {
                let colour = usize::from(pos.turn() == shakmaty::Color::Black);
                (colour * 6 + role as usize - 1) * 64 + to as usize
            }
            _ if m.is_capture() || m.promotion() == Some(Role::Queen) => {
                // Most-valuable victim, then capture history, then least-valuable attacker; the exchange is
                // looked at only if the move's turn comes ([`verify_capture`]), and a losing capture keeps this
                // order among the bad captures.
                let history = i32::from(self.history.captures[capture_index(pos, m)]);
                return UNVERIFIED
                    + mvv_lva(m)
                    + m.promotion().map_or(0, |_| 900)
                    + history / params::CAPTURE_HISTORY_DIVISOR;
            }
            _ if m.is_promotion() => return -20_000_000, // under-promotions last
            _ => move_index(pos, m),
        };
        let key = move_key(m);
        if key == refs[0] {
            return 15_000_000;
        }
        if key == refs[1] {
            return 14_000_000;
        }
        if key == refs[2] {
            return 13_000_000;
        }
        self.quiet_score(index, earlier)
    }

    /// Negamax alpha-beta with principal-variation search, from the point of view of the side to move.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Chess,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        null_ok: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, 0);
        }
        self.nodes += 1;
        if self.check_clock() {
            return 0;
        }
        let halfmoves = pos.halfmoves();
        if self.is_repetition(halfmoves) || pos.is_insufficient_material() {
            return self.draw(pos);
        }
        // Mate-distance pruning: no line from here can beat a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        let in_check = pos.is_check();
        let key = self.keys.last().copied().unwrap_or(0);
        let entry = self.tt.probe(self.tt_key(key));
        let tt_code = entry.and_then(|e| e.mv);
        let excluded = self.excluded[ply];
        if let Some(e) = entry
            && !pv_node
            && excluded.is_none()
            && e.depth >= depth
            && halfmoves < 90
        {
            let s = score_from_tt(e.score, ply);
            let cut = e.bound.settles(s, alpha, beta);
            if cut {
                return s;
            }
        }
        let raw_eval = if in_check {
            NO_EVAL
        } else {
            entry.map_or_else(|| self.evaluate(pos, ply), |e| e.eval)
        };
        let static_eval = if in_check {
            NO_EVAL
        } else {
            self.corrected(pos, raw_eval)
        };
        self.evals[ply] = static_eval;
        // The table's score is a better guess than the static evaluation when its bound points the right way.
        let mut eval = static_eval;
        if let Some(e) = entry
            && !in_check
            && e.score.abs() < MATE_BOUND
        {
            let s = e.score;
            let better = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s > eval,
                Bound::Upper => s < eval,
            };
            if better {
                eval = s;
            }
        }
        // Whether the position got better for the mover over the last two plies: prune less when it did.
        let improving =
            !in_check && (ply < 2 || self.evals[ply - 2] == NO_EVAL || static_eval > self.evals[ply - 2]);

        if !pv_node && !in_check && excluded.is_none() && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta with little depth left, a quiet move will not bring it down.
            if depth <= params::RFP_MAX_DEPTH
                && eval - params::RFP_MARGIN * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }
            // Null move: if passing still fails high, a real move will too (not in pawn endings: zugzwang).
            if null_ok
                && depth >= params::NULL_MIN_DEPTH
                && eval >= beta
                && static_eval >= beta
                && has_pieces(pos)
            {
                let r = params::NULL_BASE
                    + depth / params::NULL_DIVISOR
                    + ((eval - beta) / params::NULL_EVAL_DIVISOR).min(params::NULL_EVAL_MAX);
                if let Ok(null) = pos.clone().swap_turn() {
                    let saved = self.barrier;
                    self.keys.push(hash_after_null(pos, key));
                    self.barrier = self.keys.len() - 1;
                    self.played[ply] = None;
                    self.keep_sums(ply, pos, None);
                    let score = -self.negamax(&null, depth - 1 - r, -beta, -beta + 1, ply + 1, false, false);
                    self.keys.pop();
                    self.barrier = saved;
                    if self.timer.is_stopped() {
                        return 0;
                    }
                    if score >= beta {
                        return if score >= MATE_BOUND { beta } else { score };
                    }
                }
            }
        }
        let moves = pos.legal_moves();
        // ProbCut: a capture that wins at least `PROBCUT_MARGIN` over beta by the static exchange, and still
        // does in quiescence and then in a search `PROBCUT_REDUCTION` plies shallower, cuts the node (unless the
        // table already knows a deep enough search that fell short of that).
        let pc_beta = beta + params::PROBCUT_MARGIN;
        if !pv_node
            && !in_check
            && excluded.is_none()
            && depth >= params::PROBCUT_MIN_DEPTH
            && beta.abs() < MATE_BOUND
            && !entry.is_some_and(|e| {
                e.depth > depth - params::PROBCUT_REDUCTION && score_from_tt(e.score, ply) < pc_beta
            })
        {
            for &m in moves.iter() {
                if !(m.is_capture() || m.promotion() == Some(Role::Queen)) {
                    continue;
                }
                if !see_ge(pos, m, pc_beta - static_eval) {
                    continue;
                }
                let mut child = pos.clone();
                child.play_unchecked(m);
                self.enter(ply, pos, key, m, &child);
                self.played[ply] = Some(move_index(pos, m));
                let mut score = -self.quiescence(&child, -pc_beta, -pc_beta + 1, ply + 1, 0);
                if score >= pc_beta && !self.timer.is_stopped() {
                    let d = depth - params::PROBCUT_REDUCTION;
                    score = -self.negamax(&child, d, -pc_beta, -pc_beta + 1, ply + 1, false, true);
                }
                self.keys.pop();
                if self.timer.is_stopped() {
                    return 0;
                }
                if score >= pc_beta {
                    let d = depth - params::PROBCUT_REDUCTION + 1;
                    self.tt.store(
                        self.tt_key(key),
                        Some(m),
                        score_to_tt(score, ply),
                        raw_eval,
                        d,
                        Bound::Lower,
                    );
                    return score;
                }
            }
        }
        // Internal iterative reduction: without a table move the ordering is poor; search shallower first.
        if depth >= params::IIR_MIN_DEPTH && tt_code.is_none() {
            depth -= 1;
        }

        if moves.is_empty() {
            return if in_check {
                -MATE + ply as i32
            } else {
                self.draw(pos)
            };
        }
        if halfmoves >= 100 {
            return self.draw(pos);
        }
        let earlier = self.earlier(ply);
        let counter = earlier[0].and_then(|e| self.history.counters[e]);
        // The table's move goes first without scoring the others: it often refutes the node by itself.
        // This ply's list (a search nested at the same ply, singular extension's, takes an empty one).
        let mut scored = std::mem::take(&mut self.lists[ply]);
        scored.clear();
        scored.extend(moves.iter().map(|&m| (m, 0)));
        let mut unscored = 0;
        let mut tt_move = None;
        if let Some(j) = scored.iter().position(|s| table::is(s.0, tt_code)) {
            scored.swap(0, j);
            scored[0].1 = TT_MOVE;
            tt_move = Some(scored[0].0);
            unscored = 1;
        }

        let alpha_orig = alpha;
        let mut best = -params::INFINITY;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets: MoveList = MoveList::new();
        let mut captures: MoveList = MoveList::new();
        let lmp_count = if improving {
            params::LMP_BASE + (depth * depth) as usize
        } else {
            (params::LMP_BASE + (depth * depth) as usize) / 2
        };
        let mut sorted = false;
        for i in 0..scored.len() {
            if i == unscored {
                let refs = self.order_refs(ply, counter);
                for s in &mut scored[i..] {
                    s.1 = self.order_score(pos, s.0, refs, earlier);
                }
            }
            if !sorted && i >= unscored + params::ORDER_SELECTION_PICKS {
                // A node that did not cut off after the first few moves usually searches them all: the
                // remaining captures' exchanges are looked at now and the rest is sorted once.
                for s in &mut scored[i..] {
                    verify_capture(pos, s);
                }
                sort_by_order(&mut scored[i..], &mut self.sorting);
                sorted = true;
            }
            // Selection sort: the best remaining move next (most nodes cut off after one or two moves); a
            // capture that loses material goes back among the bad captures.
            if !sorted {
                loop {
                    // The first of the best (ties keep the list's order).
                    let (mut top, mut top_score) = (i, scored[i].1);
                    for (j, s) in scored.iter().enumerate().skip(i + 1) {
                        if s.1 > top_score {
                            (top, top_score) = (j, s.1);
                        }
                    }
                    scored.swap(i, top);
                    if verify_capture(pos, &mut scored[i]) {
                        break;
                    }
                }
            }
            let (m, order) = scored[i];
            if Some(m) == excluded {
                continue;
            }
            let quiet = !m.is_capture() && !m.is_promotion();
            // Futility, late-move and history pruning of quiet moves near the leaves (not of checks). Whether a
            // move checks is found from the board where it can be, so most pruned moves cost no copy of the
            // position; castling is played first. (Looked at before the exchange below, which is dearer: a move
            // either rule prunes is pruned whatever the other says.)
            let prunable = quiet
                && !in_check
                && !pv_node
                && best > -MATE_BOUND
                && ((depth <= params::FUTILITY_MAX_DEPTH
                    && eval + params::FUTILITY_BASE + params::FUTILITY_PER_DEPTH * depth <= alpha)
                    || (depth <= params::LMP_MAX_DEPTH && quiets.len() >= lmp_count)
                    || (depth <= params::HISTORY_PRUNE_MAX_DEPTH
                        && order < -params::HISTORY_PRUNE_MARGIN * depth));
            if prunable && gives_check(pos, m) == Some(false) {
                continue;
            }
            if !in_check && best > -MATE_BOUND && depth <= params::SEE_PRUNE_MAX_DEPTH && searched > 0 {
                // Static exchange pruning: a move that loses material for nothing at low depth.
                let margin = if quiet {
                    params::SEE_QUIET_MARGIN * depth
                } else {
                    params::SEE_CAPTURE_MARGIN * depth
                };
                if (quiet || order < 0) && !see_ge(pos, m, -margin) {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let gives_check = child.is_check();
            if prunable && !gives_check {
                continue;
            }
            let check = i32::from(gives_check && ply < params::CHECK_EXTENSION_MAX_PLY);
            let mut singular = 0;
            // Singular extension: when every other move falls well short of the table's move, it is the only
            // move and gets a ply more; when another move also reaches beta, the node is cut (multi-cut).
            if let Some(e) = entry
                && i == 0
                && Some(m) == tt_move
                && excluded.is_none()
                && depth >= params::SINGULAR_MIN_DEPTH
                && ply < params::CHECK_EXTENSION_MAX_PLY
                && e.bound != Bound::Upper
                && e.depth >= depth - 3
                && e.score.abs() < MATE_BOUND
            {
                let tt_score = score_from_tt(e.score, ply);
                let s_beta = tt_score - params::SINGULAR_MARGIN * depth;
                self.excluded[ply] = Some(m);
                let s = self.negamax(pos, (depth - 1) / 2, s_beta - 1, s_beta, ply, false, false);
                self.excluded[ply] = None;
                if self.timer.is_stopped() {
                    self.lists[ply] = scored;
                    return 0;
                }
                if s < s_beta {
                    singular = 1;
                } else if s_beta >= beta {
                    self.lists[ply] = scored;
                    return s_beta;
                } else if tt_score >= beta {
                    singular = -1;
                }
            }
            let extension = if singular > 0 { 1 } else { check + singular };
            let new_depth = depth - 1 + extension;
            self.enter(ply, pos, key, m, &child);
            self.played[ply] = Some(move_index(pos, m));
            let mut score;
            if searched == 0 {
                score = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, pv_node, true);
            } else {
                let mut r = 0;
                if depth >= params::LMR_MIN_DEPTH && searched >= params::LMR_MIN_MOVES && quiet && !in_check {
                    r = self.lmr[depth.min(params::MAX_DEPTH) as usize][searched.min(63)];
                    r += i32::from(!improving);
                    r -= i32::from(pv_node) + i32::from(gives_check) + i32::from(order >= 13_000_000);
                    if order < 13_000_000 {
                        r -= (order / params::LMR_HISTORY_DIVISOR).clamp(-2, 2);
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.negamax(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, false, true);
                if score > alpha && r > 0 && !self.timer.is_stopped() {
                    score = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, false, true);
                }
                if score > alpha && score < beta && pv_node && !self.timer.is_stopped() {
                    score = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true, true);
                }
            }
            self.keys.pop();
            if self.timer.is_stopped() {
                self.lists[ply] = scored;
                return 0;
            }
            searched += 1;
            if quiet {
                quiets.push(m);
            } else {
                captures.push(m);
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(m);
                        line.extend_from_slice(&tail[0]);
                    }
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(pos, m, &quiets, depth, ply);
                        }
                        self.reward_capture(pos, m, &captures, depth);
                        break;
                    }
                }
            }
        }
        self.lists[ply] = scored;
        if searched == 0 || excluded.is_some() {
            // Every move was pruned: the position is hopeless by the margins; fail low. (A search without the
            // table's move stores nothing: its result is not this position's.)
            return if searched == 0 { alpha } else { best };
        }
        let bound = Bound::of(best, alpha_orig, beta);
        let stored_eval = if in_check { 0 } else { raw_eval };
        self.tt.store(
            self.tt_key(key),
            best_move,
            score_to_tt(best, ply),
            stored_eval,
            depth,
            bound,
        );
        // A quiet result that disagrees with the static evaluation in the direction its bound allows
        // teaches the correction history.
        if !in_check
            && best_move.is_none_or(|m| !m.is_capture() && !m.is_promotion())
            && best.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
        {
            self.update_correction(pos, raw_eval, best, depth);
        }
        best
    }

    /// A quiet move refuted this node: remember it as a killer and a counter move, raise its history and lower
    /// the history of the quiet moves tried before it.
    fn reward_quiet(&mut self, pos: &Chess, m: Move, tried: &[Move], depth: i32, ply: usize) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let earlier = self.earlier(ply);
        if let Some(e) = earlier[0] {
            self.history.counters[e] = Some(m);
        }
        let bonus = (params::QUIET_HISTORY_BONUS * depth * depth).min(params::QUIET_HISTORY_BONUS_MAX);
        for &q in tried {
            let index = move_index(pos, q);
            let delta = if q == m { bonus } else { -bonus };
            nudge(&mut self.history.quiet[index], delta);
            for e in earlier.into_iter().flatten() {
                nudge16(&mut self.history.cont[e * PIECE_SQUARES + index], delta);
            }
        }
    }

    /// After a cut: the capture that made it (if it was one) gains, the captures tried before it lose.
    fn reward_capture(&mut self, pos: &Chess, m: Move, tried: &[Move], depth: i32) {
        let bonus = (params::CAPTURE_HISTORY_BONUS * (depth + 1) * (depth + 1))
            .min(params::CAPTURE_HISTORY_BONUS_MAX);
        for &c in tried {
            let delta = if c == m { bonus } else { -bonus };
            nudge16(&mut self.history.captures[capture_index(pos, c)], delta);
        }
    }

    /// Captures (and queen promotions) only, until the position is quiet; in check, every evasion.
    fn quiescence(&mut self, pos: &Chess, mut alpha: i32, beta: i32, ply: usize, qdepth: u32) -> i32 {
        self.nodes += 1;
        if self.check_clock() {
            return 0;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 1 || !self.level.quiescence || (in_check && qdepth > 6) {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }
        let key = self.keys.last().copied().unwrap_or(0);
        let entry = self.tt.probe(self.tt_key(key));
        if let Some(e) = entry {
            let s = score_from_tt(e.score, ply);
            let cut = e.bound.settles(s, alpha, beta);
            if cut {
                return s;
            }
        }
        let moves;
        let stand;
        let mut static_eval = 0;
        let mut refs = [0; 3];
        if in_check {
            moves = pos.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            stand = -params::INFINITY;
            refs = self.order_refs(ply, None);
        } else {
            static_eval = entry.map_or_else(|| self.evaluate(pos, ply), |e| e.eval);
            let corrected = self.corrected(pos, static_eval);
            // Most nodes here end at once on the static evaluation: their moves are generated only if the king
            // has no step, to tell a stalemate.
            if corrected >= beta && king_can_step(pos) {
                return corrected;
            }
            moves = pos.legal_moves();
            if moves.is_empty() {
                return self.draw(pos); // stalemate
            }
            if corrected >= beta {
                return corrected;
            }
            stand = corrected;
            alpha = alpha.max(stand);
        }
        let alpha_orig = alpha;
        let mut scored = std::mem::take(&mut self.lists[ply]);
        scored.clear();
        for &m in moves.iter() {
            if in_check {
                scored.push((m, self.order_score(pos, m, refs, [None; 2])));
                continue;
            }
            if !m.is_capture() && m.promotion() != Some(Role::Queen) {
                continue;
            }
            let gain = m.capture().map_or(0, |r| params::SEE_VALUE[r as usize - 1])
                + m.promotion()
                    .map_or(0, |_| params::SEE_VALUE[4] - params::SEE_VALUE[0])
                + if m.is_en_passant() {
                    params::SEE_VALUE[0]
                } else {
                    0
                };
            if stand + gain + params::DELTA_MARGIN <= alpha {
                continue;
            }
            let history = i32::from(self.history.captures[capture_index(pos, m)]);
            scored.push((
                m,
                gain * 16 - m.role() as i32 + history / params::CAPTURE_HISTORY_DIVISOR,
            ));
        }
        scored.sort_unstable_by_key(|s| std::cmp::Reverse(s.1));
        let mut best = stand;
        let mut best_move = None;
        for &(m, _) in &scored {
            // Captures that lose material are skipped (looked at only when their turn comes).
            if !in_check && !see_ge(pos, m, params::QS_SEE_MARGIN) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            self.enter(ply, pos, key, m, &child);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, qdepth + 1);
            self.keys.pop();
            if self.timer.is_stopped() {
                self.lists[ply] = scored;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = scored;
        let bound = Bound::of(best, alpha_orig, beta);
        self.tt.store_leaf(
            self.tt_key(key),
            best_move,
            score_to_tt(best, ply),
            static_eval,
            bound,
        );
        best
    }
}

/// What [`Search::tt_key`] mixes into the keys of a search of `level` playing for `side`: nothing for a level
/// without the network or contempt (so its keys are the positions' hashes).
fn salt(level: &LevelParams, side: Color) -> u64 {
    let mut salt = 0;
    if level.network {
        salt ^= 0x9E37_79B9_7F4A_7C15;
    }
    if level.contempt != 0 && side == Color::Black {
        salt ^= 0xD1B5_4A32_D192_ED03;
    }
    salt
}

/// The correction-history slot of a position: side to move and a hash of the pawns.
#[inline]
fn correction_index(pos: &Chess) -> usize {
    let board = pos.board();
    let white = (board.pawns() & board.white()).0;
    let black = (board.pawns() & board.black()).0;
    let h =
        white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29);
    let slot = (h >> 32) as usize & (params::CORRECTION_ENTRIES - 1);
    usize::from(pos.turn() == Color::Black) * params::CORRECTION_ENTRIES + slot
}

/// The order score of the table's move.
const TT_MOVE: i32 = 30_000_000;
/// Order scores from here up to [`TT_MOVE`] are captures whose exchange has not been looked at yet.
const UNVERIFIED: i32 = 24_000_000;
/// A capture that does not lose material, scored by [`mvv_lva`].
const GOOD_CAPTURE: i32 = 20_000_000;
/// A capture that loses material (after the quiet moves).
const BAD_CAPTURE: i32 = -10_000_000;

/// A number for each move: equal for equal moves, different for different ones (what `==` on [`Move`] decides,
/// in a few instructions instead of a match of every field), never 0.
#[inline]
fn move_key(m: Move) -> u32 {
    let role = |r: Option<Role>| r.map_or(0, |r| r as u32);
    match m {
        Move::Normal {
            role: moved,
            from,
            capture,
            to,
            promotion,
        } => {
            1 << 21
                | from as u32
                | (to as u32) << 6
                | role(promotion) << 12
                | (moved as u32) << 15
                | role(capture) << 18
        }
        Move::EnPassant { from, to } => 2 << 21 | from as u32 | (to as u32) << 6,
        Move::Castle { king, rook } => 3 << 21 | king as u32 | (rook as u32) << 6,
        Move::Put { role: put, to } => 4 << 21 | (to as u32) << 6 | (put as u32) << 15,
    }
}

/// Most valuable victim, then least valuable attacker.
#[inline]
fn mvv_lva(m: Move) -> i32 {
    m.capture().map_or(0, |r| params::SEE_VALUE[r as usize - 1]) * 16 - m.role() as i32
}

/// Looks at the exchange of an unverified capture (see [`Search::order_score`]): a good one becomes a
/// [`GOOD_CAPTURE`], a losing one a [`BAD_CAPTURE`]. Returns whether the move keeps its place (it was not an
/// unverified capture, or it does not lose material).
#[inline]
fn verify_capture(pos: &Chess, scored: &mut (Move, i32)) -> bool {
    if !(UNVERIFIED..TT_MOVE).contains(&scored.1) {
        return true;
    }
    if see_ge(pos, scored.0, 0) {
        scored.1 -= UNVERIFIED - GOOD_CAPTURE;
        true
    } else {
        scored.1 += BAD_CAPTURE - UNVERIFIED;
        false
    }
}

/// Room for [`sort_by_order`], kept by the search so that sorting allocates nothing.
#[derive(Default)]
struct Sorting {
    keys: Vec<i64>,
    copy: Vec<(Move, i32)>,
}

/// Sorts moves by order, highest first, ties keeping their order. Each move's order and place go into one
/// integer (the place below the order, reversed), whose unstable sort is the stable sort of the moves: the
/// standard library's unstable sort of integers is several times faster than its stable sort of pairs (made for
/// long slices) on the few dozen moves of a position.
fn sort_by_order(moves: &mut [(Move, i32)], room: &mut Sorting) {
    const PLACES: i64 = 256; // more than the legal moves of any position (218)
    if moves.len() < 2 {
        return;
    }
    room.copy.clear();
    room.copy.extend_from_slice(moves);
    room.keys.clear();
    room.keys.extend(
        moves
            .iter()
            .enumerate()
            .map(|(i, s)| i64::from(s.1) * PLACES + (PLACES - 1 - i as i64)),
    );
    room.keys.sort_unstable_by(|a, b| b.cmp(a));
    for (slot, key) in moves.iter_mut().zip(&room.keys) {
        *slot = room.copy[(PLACES - 1 - key.rem_euclid(PLACES)) as usize];
    }
}

/// The capture-history index of a capture or queen promotion: the move's index and what it takes.
#[inline]
fn capture_index(pos: &Chess, m: Move) -> usize {
    move_index(pos, m) * 6 + m.capture().map_or(5, |r| r as usize - 1)
}

/// The history index of a move: what moves (colour and role) and where to.
#[inline]
fn move_index(pos: &Chess, m: Move) -> usize {
    let colour = usize::from(pos.turn() == shakmaty::Color::Black);
    (colour * 6 + m.role() as usize - 1) * 64 + m.to() as usize
}

/// Whether `m` (legal in `pos`) gives check, found from the board without playing it: a direct check by the piece
/// on its new square, or a discovered one by a slider the move uncovers. `None` for castling and en passant,
/// which the caller plays to find out.
#[inline]
fn gives_check(pos: &Chess, m: Move) -> Option<bool> {
    let Move::Normal {
        role,
        from,
        to,
        promotion,
        ..
    } = m
    else {
        return None;
    };
    let board = pos.board();
    let us = pos.turn();
    let king = board.king_of(!us)?;
    let occupied = (board.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
    let piece = Piece {
        color: us,
        role: promotion.unwrap_or(role),
    };
    if shakmaty::attacks::attacks(to, piece, occupied).contains(king) {
        return Some(true);
    }
    let ours = board.by_color(us) & !Bitboard::from_square(from);
    let straight = shakmaty::attacks::rook_attacks(king, occupied) & board.rooks_and_queens();
    let diagonal = shakmaty::attacks::bishop_attacks(king, occupied) & board.bishops_and_queens();
    Some(((straight | diagonal) & ours).any())
}

/// Whether the king of the side to move, not in check, has a legal step (so the side is not stalemated). Only
/// for a side not in check: then no slider's line runs through the king, and the board's attacks are the
/// attacks the king would meet on its new square.
fn king_can_step(pos: &Chess) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return false;
    };
    let occupied = board.occupied();
    (shakmaty::attacks::king_attacks(king) & !board.by_color(us))
        .into_iter()
        .any(|to| board.attacks_to(to, !us, occupied).is_empty())
}

/// Whether the side to move has a piece besides pawns and king (null move is unsafe in pawn endings).
fn has_pieces(pos: &Chess) -> bool {
    let board = pos.board();
    let ours = board.by_color(pos.turn());
    (ours & !board.pawns() & !board.kings()).any()
}

/// The root of one search, as the driver walks it: the moves with their noise, best first.
struct Root<'s, 'a> {
    search: &'s mut Search<'a>,
    root: &'s Chess,
    order: Vec<(Move, i32)>,
}

impl RootSearch for Root<'_, '_> {
    type Move = Move;

    fn timer(&mut self) -> &mut Timer {
        &mut self.search.timer
    }

    fn nodes(&self) -> u64 {
        self.search.nodes
    }

    /// The helpers of a parallel search take every second depth, so that the threads spread over two depths.
    fn takes_depth(&self, depth: i32) -> bool {
        !(self.search.skip_odd_depths && depth > 1 && depth % 2 == 1)
    }

    fn pass(&mut self, depth: i32, alpha: i32, beta: i32) -> Pass<Move> {
        let (score, improved) = self.search.root(self.root, &mut self.order, depth, alpha, beta);
        let line = (improved && !self.search.pv[0].is_empty()).then(|| self.search.pv[0].clone());
        Pass { score, line }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Calls `f(position, move, position after it)` for every legal move of every position of `games` random
    /// games of at most `plies` plies.
    fn every_move_of_random_games(
        seed: u64,
        games: usize,
        plies: usize,
        mut f: impl FnMut(&Chess, Move, &Chess),
    ) {
        let mut rng = crate::rng::Rng::new(seed);
        for _ in 0..games {
            let mut pos = Chess::default();
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    f(&pos, m, &child);
                }
                pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
    }

    #[test]
    fn a_check_found_without_playing_is_the_check_the_move_gives() {
        let (mut judged, mut checks) = (0, 0);
        every_move_of_random_games(5, 200, 160, |pos, m, child| {
            if let Some(check) = gives_check(pos, m) {
                assert_eq!(check, child.is_check(), "{:?} {m:?}", pos.board());
                judged += 1;
                checks += usize::from(check);
            }
        });
        assert!(
            judged > 100_000 && checks > 2_000,
            "{judged} moves, {checks} checks"
        );
    }

    /// A king not in check can step exactly when one of the legal moves is a king's step.
    #[test]
    fn a_king_can_step_when_a_legal_move_is_its_step() {
        let (mut positions, mut stuck) = (0, 0);
        every_move_of_random_games(13, 100, 200, |_, _, child| {
            if child.is_check() {
                return;
            }
            let steps = child
                .legal_moves()
                .iter()
                .any(|m| m.role() == Role::King && !m.is_castle());
            assert_eq!(king_can_step(child), steps, "{:?}", child.board());
            positions += 1;
            stuck += usize::from(!steps);
        });
        assert!(
            positions > 100_000 && stuck > 1_000,
            "{positions} positions, {stuck} without a step"
        );
    }

    /// [`sort_by_order`] orders as the standard library's stable sort does, ties included, over the whole range
    /// of orders a move can have.
    #[test]
    fn moves_are_sorted_as_a_stable_sort_sorts_them() {
        let mut rng = crate::rng::Rng::new(3);
        let orders = [
            -20_000_000,
            BAD_CAPTURE,
            -3,
            0,
            2,
            13_000_000,
            GOOD_CAPTURE,
            UNVERIFIED,
            TT_MOVE,
        ];
        let mut lists = 0;
        every_move_of_random_games(11, 20, 120, |pos, _, _| {
            let mut ours: Vec<(Move, i32)> = pos
                .legal_moves()
                .iter()
                .map(|&m| (m, orders[rng.below(orders.len() as u64) as usize]))
                .collect();
            let mut theirs = ours.clone();
            theirs.sort_by_key(|s| std::cmp::Reverse(s.1));
            sort_by_order(&mut ours, &mut Sorting::default());
            assert_eq!(ours, theirs);
            lists += 1;
        });
        assert!(lists > 10_000, "{lists}");
    }

    /// Two moves have the same key exactly when they are equal, across positions (killers and counter moves
    /// come from other positions than the one whose moves they are compared with).
    #[test]
    fn move_keys_are_equal_exactly_for_equal_moves() {
        let mut moves = std::collections::HashSet::new();
        every_move_of_random_games(9, 100, 200, |_, m, _| {
            moves.insert(m);
        });
        moves.insert(Move::Put {
            role: Role::Knight,
            to: shakmaty::Square::E4,
        });
        let moves: Vec<Move> = moves.into_iter().collect();
        let mut keys = std::collections::HashMap::new();
        for &m in &moves {
            assert_ne!(move_key(m), 0);
            if let Some(other) = keys.insert(move_key(m), m) {
                panic!("{m:?} and {other:?} share a key");
            }
        }
        assert!(moves.len() > 1_500, "{} moves", moves.len());
        assert!(moves.iter().any(|m| m.is_en_passant()) && moves.iter().any(|m| m.is_castle()));
    }

    #[test]
    fn incremental_hash_equals_hash_from_scratch() {
        let mut checked = 0;
        every_move_of_random_games(11, 60, 120, |pos, m, child| {
            assert_eq!(hash_after(pos, hash(pos), m, child), hash(child), "{m:?}");
            checked += 1;
        });
        assert!(checked > 50_000, "{checked}");
    }

    /// A level that asks for the network gets its correction, less `NETWORK_TEMPO` and kept within `NETWORK_MAX`;
    /// the others do not.
    #[test]
    fn the_network_corrects_the_evaluation_only_where_the_level_asks() {
        let tt = SharedTt::new(1 << 16);
        let mut history = History::default();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let timer = || {
            Timer::start(
                crate::clock::Budget::new(&crate::request::Limit::Depth(1), 1000),
                stop.clone(),
            )
        };
        let hard = params::chess_level(crate::request::Level::HARD);
        let with = LevelParams {
            network: true,
            ..hard
        };
        let mut rng = crate::rng::Rng::new(5);
        let mut corrected = 0;
        let mut pos = Chess::default();
        for _ in 0..200 {
            let base = eval::evaluate(&pos);
            let c = nn::correction(&pos);
            let mut off = Search::new(
                &tt,
                &mut history,
                timer(),
                Vec::new(),
                LevelParams {
                    network: false,
                    ..hard
                },
            );
            off.psq[0] = eval::psq(pos.board());
            assert_eq!(off.evaluate(&pos, 0), base);
            let mut on = Search::new(&tt, &mut history, timer(), Vec::new(), with);
            on.acc = vec![nn::accumulate(&pos)];
            on.psq[0] = eval::psq(pos.board());
            assert_eq!(
                on.evaluate(&pos, 0),
                base + (c - params::NETWORK_TEMPO).clamp(-params::NETWORK_MAX, params::NETWORK_MAX)
            );
            corrected += usize::from(c != 0);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                pos = Chess::default();
                continue;
            }
            pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
        }
        assert!(corrected > 150, "{corrected}");
    }

    /// A lazy SMP helper iterates over the even depths only (after the first); the main thread over every depth.
    #[test]
    fn a_helper_skips_the_odd_depths() {
        let tt = SharedTt::new(1 << 16);
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let pos = Chess::default();
        let moves = pos.legal_moves();
        let noise = vec![0; moves.len()];
        let level = params::chess_level(crate::request::Level::HARD);
        for helper in [false, true] {
            let mut history = History::default();
            let budget = crate::clock::Budget::new(&crate::request::Limit::Depth(6), 1000);
            let mut search = Search::new(
                &tt,
                &mut history,
                Timer::start(budget, stop.clone()),
                vec![hash(&pos)],
                level,
            );
            search.skip_odd_depths = helper;
            let mut depths = Vec::new();
            search.run(&pos, &moves, &noise, |it, _| depths.push(it.depth));
            let expected: &[i32] = if helper {
                &[1, 2, 4, 6]
            } else {
                &[1, 2, 3, 4, 5, 6]
            };
            assert_eq!(depths, expected, "helper: {helper}");
        }
    }

    /// One engine's table serves every game and level of its thread: a search finds in it only what searches
    /// that score alike stored (the same use of the network; with contempt, the same side played for).
    #[test]
    fn searches_that_score_differently_do_not_share_table_entries() {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let level = |l| params::chess_level(l);
        // Easy and level 4 search without the network and without contempt.
        let (easy, four, hard) = (
            level(crate::request::Level::EASY),
            level(crate::request::Level::new(4).unwrap()),
            level(crate::request::Level::HARD),
        );
        let white = Chess::default();
        // Black to move, seven plies from the start: out of reach of the searches from the start.
        let black: Chess = "r1bqkbnr/1ppp1ppp/p1n5/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 1 4"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        // A search of case i fills a table; a search of case j (its level, playing for the side to move in its
        // position) then looks for the position after the first move of case i's search. Easy and level 4 share
        // their entries whatever the side; hard as White and hard as Black do not.
        let cases = [
            (easy, &white),
            (four, &white),
            (hard, &white),
            (hard, &black),
            (four, &black),
        ];
        let class = [0, 0, 1, 2, 0];
        for (i, &(filler, at)) in cases.iter().enumerate() {
            let tt = SharedTt::new(1 << 16);
            let mut history = History::default();
            let budget = crate::clock::Budget::new(&crate::request::Limit::Depth(4), 1000);
            let keys = vec![hash(at)];
            let mut search = Search::new(
                &tt,
                &mut history,
                Timer::start(budget, stop.clone()),
                keys,
                filler,
            );
            let moves = at.legal_moves();
            search.run(at, &moves, &vec![0; moves.len()], |_, _| {});
            let mut child = at.clone();
            child.play_unchecked(moves[0]);
            for (j, &(reader, side)) in cases.iter().enumerate() {
                let found = tt.probe(hash(&child) ^ salt(&reader, side.turn())).is_some();
                assert_eq!(
                    found,
                    class[i] == class[j],
                    "filled by case {i}, read by case {j}"
                );
            }
        }
    }
}
