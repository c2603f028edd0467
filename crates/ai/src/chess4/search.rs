//! The four-player search: best-reply search (Schadd and Winands, "Best Reply Search for Multiplayer Games", IEEE
//! TCIAIG 2011), alpha-beta over the root seat's evaluation. After each move of the root seat comes the one
//! strongest answer of any opponent (each as if it moved next), then the root seat again: three plies already see
//! its own next move, and a threat from the seat that moves last is seen at two. Paranoid search, the seats in
//! their order with three opponents' moves between two of the root's, stood 134 Elo below it at equal depth
//! (docs/results/2026-12-06-four-player-best-reply.md).
//!
//! Iterative deepening, a transposition table keyed by the position, the points and the root seat, killer and
//! history move ordering, and a short capture search at the horizon (every seat may stand pat, any opponent may
//! capture; a level without quiescence evaluates the horizon as it stands). Draws (each live seat scores
//! [`parlor_chess4::game::DRAW_POINTS`] and the game ends): a repetition of any position since the last capture or
//! pawn move, of the game or the line (above the horizon), and the fifty-move rule. The table's move limit is not
//! seen.

use super::eval::{drawn, relative, terminal, values_with};
use crate::clock::Timer;
use crate::driver::{self, Scored};
use crate::params::{self, LevelParams};
use crate::tt::{Bound, Tt};
use parlor_chess4::game::FIFTY_MOVES;
use parlor_chess4::{Move, MoveKind, MoveList, Position};
use parlor_game::Seat;

/// The history table, by from and to square (`file * 14 + rank`).
pub(crate) type History = [[i32; 196]; 196];

/// A completed iteration (its line is the move chosen).
pub(crate) type Iteration = driver::Iteration<Move>;

fn sq(s: parlor_chess4::Square) -> usize {
    usize::from(s.file()) * 14 + usize::from(s.rank())
}

/// The value of what a move captures (0 for a quiet move or a grey piece).
fn victim(pos: &Position, m: Move) -> i32 {
    if m.kind == MoveKind::EnPassant {
        return 1;
    }
    match pos.piece_at(m.to) {
        Some(p) if p.owner.is_some() => p.role.points(),
        _ => 0,
    }
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One search.
pub(crate) struct Search<'a> {
    tt: &'a mut Tt<Move>,
    history: &'a mut History,
    timer: Timer,
    lp: LevelParams,
    root: Seat,
    killers: Vec<[Option<Move>; 2]>,
    buffers: Vec<MoveList>,
    /// The opponents' answers at each ply, with their ordering keys.
    replies: Vec<Vec<(i32, Move)>>,
    /// Repetition keys of the positions of the game and of the current line.
    keys: Vec<u64>,
    /// Where in `keys` the positions since the last capture or pawn move start (none before can come again).
    since: usize,
    /// Nodes searched.
    pub nodes: u64,
}

impl<'a> Search<'a> {
    /// A search for the seat to move at the root, with the repetition keys of the game since its last capture or
    /// pawn move (the root's last).
    pub fn new(
        tt: &'a mut Tt<Move>,
        history: &'a mut History,
        timer: Timer,
        lp: LevelParams,
        root: Seat,
        keys: Vec<u64>,
    ) -> Search<'a> {
        Search {
            tt,
            history,
            timer,
            lp,
            root,
            killers: vec![[None; 2]; params::MAX_PLY + 2],
            buffers: (0..params::MAX_PLY + 2).map(|_| MoveList::default()).collect(),
            replies: (0..params::MAX_PLY + 2).map(|_| Vec::new()).collect(),
            keys,
            since: 0,
            nodes: 0,
        }
    }

    /// The evaluation for the root seat; the pieces left hanging count only for a level that looks at captures
    /// (see [`LevelParams::quiescence`]).
    fn evaluate(&self, pos: &Position) -> i32 {
        relative(&values_with(pos, self.lp.quiescence), self.root.index())
    }

    /// The timer.
    pub fn timer(&self) -> &Timer {
        &self.timer
    }

    fn stopped(&mut self) -> bool {
        if self.nodes & (params::CHESS4_NODES_PER_CLOCK_CHECK - 1) == 0 {
            self.timer.must_stop(self.nodes)
        } else {
            self.timer.is_stopped()
        }
    }

    /// The table key: the position (its `repetition_key`), the points (they change the evaluation) and the root
    /// seat.
    fn key(&self, pos: &Position, repetition_key: u64) -> u64 {
        let p = pos.points();
        let packed = p
            .as_slice()
            .iter()
            .fold(0u64, |acc, &x| (acc << 16) ^ (x as u16 as u64));
        repetition_key ^ mix(packed ^ ((self.root.index() as u64) << 62))
    }

    /// Runs iterative deepening over the root's legal `moves` (not empty), each with a fixed random bonus.
    pub fn run(
        &mut self,
        root: &Position,
        moves: &[Move],
        noise: &[i32],
        report: impl FnMut(&Iteration, u64),
    ) -> Option<Iteration> {
        self.tt.new_search();
        let mut order: Vec<usize> = (0..moves.len()).collect();
        // Captures first in the first iteration.
        order.sort_by_key(|&i| std::cmp::Reverse(victim(root, moves[i])));
        let settings = driver::Settings {
            max_depth: self.lp.max_depth.min(params::MAX_DEPTH),
            aspiration: None,
            stop_when_decided: false,
        };
        driver::iterate(
            &mut Scored::new(self, root, moves, noise, order),
            &settings,
            report,
        )
    }

    fn order_score(&self, pos: &Position, m: Move, tt_move: Option<Move>, ply: usize) -> i32 {
        if Some(m) == tt_move {
            return 1 << 30;
        }
        let v = victim(pos, m);
        if v > 0 {
            let attacker = pos.piece_at(m.from).map_or(0, |p| p.role.points());
            return (1 << 28) + v * 64 - attacker;
        }
        if m.kind == MoveKind::Promotion {
            return 1 << 27;
        }
        if self.killers[ply][0] == Some(m) {
            return (1 << 26) + 1;
        }
        if self.killers[ply][1] == Some(m) {
            return 1 << 26;
        }
        self.history[sq(m.from)][sq(m.to)]
    }

    /// Alpha-beta: the score is always the root seat's; its nodes maximise, the opponents' nodes
    /// ([`Search::best_reply`]) minimise. Keeps the line's repetition keys around [`Search::node`].
    fn search(&mut self, pos: &Position, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if pos.is_over() {
            return terminal(pos, self.root);
        }
        if !pos.is_live(self.root) {
            // Out of the game: its points are final, whatever the others do.
            return self.evaluate(pos);
        }
        // The game's draw rules, after the decisions of the position (as the rules order them).
        if pos.halfmove_clock() >= FIFTY_MOVES * pos.live_count() {
            return drawn(pos, self.root);
        }
        if depth <= 0 || ply >= params::MAX_PLY {
            if !self.lp.quiescence {
                return self.evaluate(pos);
            }
            return self.quiesce(pos, alpha, beta, ply, 0);
        }
        // A position seen before on the line or in the game is taken as drawn (as chess engines take a
        // repetition). Looked at where the key is needed anyway for the table, not at the horizon.
        let repetition_key = pos.repetition_key();
        let since = if pos.halfmove_clock() == 0 {
            self.keys.len()
        } else {
            self.since
        };
        if self.keys[since..].contains(&repetition_key) {
            return drawn(pos, self.root);
        }
        let outer = std::mem::replace(&mut self.since, since);
        self.keys.push(repetition_key);
        let score = self.node(pos, repetition_key, depth, alpha, beta, ply);
        self.keys.pop();
        self.since = outer;
        score
    }

    /// The body of [`Search::search`] for a position that is neither decided nor drawn: the root seat's moves, or
    /// the opponents' answers when it is not the root seat's turn.
    fn node(
        &mut self,
        pos: &Position,
        repetition_key: u64,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.stopped() {
            return 0;
        }
        let key = self.key(pos, repetition_key);
        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && i32::from(e.depth) >= depth
        {
            let s = e.score;
            let cut = e.bound.settles(s, alpha, beta);
            if cut {
                return s;
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        if pos.turn() != self.root {
            let Some((score, best_move)) = self.best_reply(pos, tt_move, depth, alpha, beta, ply) else {
                return 0;
            };
            let bound = Bound::of(score, alpha0, beta0);
            self.tt.store(key, best_move, score, 0, depth, bound);
            return score;
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        pos.generate_into(&mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return terminal(pos, self.root);
        }
        let n_moves = moves.len();
        let mut keyed = [0i32; parlor_chess4::chess_move::MAX_MOVES];
        let mut list = [moves[0]; parlor_chess4::chess_move::MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            keyed[i] = self.order_score(pos, m, tt_move, ply);
            list[i] = m;
        }
        self.buffers[ply] = moves;
        let mut best_score = -params::INFINITY;
        let mut best_move = None;
        for n in 0..n_moves {
            let mut pick = n;
            for j in n + 1..n_moves {
                if keyed[j] > keyed[pick] {
                    pick = j;
                }
            }
            keyed.swap(n, pick);
            list.swap(n, pick);
            let m = list[n];
            let quiet = victim(pos, m) == 0 && m.kind != MoveKind::Promotion;
            let mut child = pos.clone();
            child.play_unchecked(m);
            let score = self.search(&child, depth - 1, alpha, beta, ply + 1);
            if self.timer.is_stopped() {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
            }
            alpha = alpha.max(score);
            if score >= beta {
                if quiet {
                    self.remember_cutoff(m, depth, ply);
                }
                break;
            }
        }
        let bound = Bound::of(best_score, alpha0, beta0);
        self.tt.store(key, best_move, best_score, 0, depth, bound);
        best_score
    }

    /// The opponents' node of best-reply search (Schadd and Winands, "Best Reply Search for Multiplayer Games",
    /// IEEE TCIAIG 2011): every live opponent's moves, as if each were to move now, and the one that is worst for
    /// the root seat; after it the root seat moves again. Returns the score and the answer that gave it, `None`
    /// once the search is stopped.
    fn best_reply(
        &mut self,
        pos: &Position,
        tt_move: Option<Move>,
        depth: i32,
        alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> Option<(i32, Option<Move>)> {
        let mut replies = std::mem::take(&mut self.replies[ply]);
        self.collect_replies(pos, &mut replies, |search, m| {
            Some(search.order_score(pos, m, tt_move, ply))
        });
        if replies.is_empty() {
            self.replies[ply] = replies;
            return Some((self.evaluate(pos), None));
        }
        let mut best_score = params::INFINITY;
        let mut best_move = None;
        for n in 0..replies.len() {
            let mut pick = n;
            for j in n + 1..replies.len() {
                if replies[j].0 > replies[pick].0 {
                    pick = j;
                }
            }
            replies.swap(n, pick);
            let m = replies[n].1;
            let quiet = victim(pos, m) == 0 && m.kind != MoveKind::Promotion;
            let child = self.answer(pos, m);
            let score = self.search(&child, depth - 1, alpha, beta, ply + 1);
            if self.timer.is_stopped() {
                self.replies[ply] = replies;
                return None;
            }
            if score < best_score {
                best_score = score;
                best_move = Some(m);
            }
            beta = beta.min(score);
            if score <= alpha {
                if quiet {
                    self.remember_cutoff(m, depth, ply);
                }
                break;
            }
        }
        self.replies[ply] = replies;
        Some((best_score, best_move))
    }

    /// Fills `replies` with every live opponent's moves in `pos` that `keep` gives an ordering key.
    fn collect_replies(
        &mut self,
        pos: &Position,
        replies: &mut Vec<(i32, Move)>,
        mut keep: impl FnMut(&Self, Move) -> Option<i32>,
    ) {
        replies.clear();
        for seat in Seat::range(4).filter(|&s| s != self.root) {
            let list = pos.moves_of(seat);
            replies.extend(list.iter().filter_map(|&m| Some((keep(self, m)?, m))));
        }
    }

    /// The position after an opponent's answer `m` (its owner plays it out of turn), the root seat to move.
    fn answer(&self, pos: &Position, m: Move) -> Position {
        let mut child = pos.clone();
        if let Some(owner) = pos.piece_at(m.from).and_then(|p| p.owner) {
            child.pass_turn_to(owner);
        }
        child.play_unchecked(m);
        child.pass_turn_to(self.root);
        child
    }

    /// A quiet move refuted the line: the killers and the history remember it.
    fn remember_cutoff(&mut self, m: Move, depth: i32, ply: usize) {
        if self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        let h = &mut self.history[sq(m.from)][sq(m.to)];
        *h = (*h + depth * depth).min(params::HISTORY_MAX);
    }

    /// Captures of live pieces until quiet (at most [`params::CHESS4_QS_MAX_PLY`] plies): the root seat's when it
    /// is to move, else any opponent's, after which the root seat moves; either side may always decline them
    /// (stand pat).
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, mut beta: i32, ply: usize, qply: i32) -> i32 {
        self.nodes += 1;
        if self.stopped() {
            return 0;
        }
        if pos.is_over() {
            return terminal(pos, self.root);
        }
        let stand = self.evaluate(pos);
        if qply >= params::CHESS4_QS_MAX_PLY || ply >= params::MAX_PLY || !pos.is_live(self.root) {
            return stand;
        }
        let maximising = pos.turn() == self.root;
        if maximising {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        let capture_key = |m: Move| {
            let v = victim(pos, m);
            (v > 0).then(|| {
                let attacker = pos.piece_at(m.from).map_or(0, |p| p.role.points());
                v * 64 - attacker
            })
        };
        let mut caps: Vec<(i32, Move)> = Vec::new();
        if !maximising {
            self.collect_replies(pos, &mut caps, |_, m| capture_key(m));
        } else {
            let mut moves = std::mem::take(&mut self.buffers[ply]);
            pos.generate_into(&mut moves);
            caps.extend(moves.iter().filter_map(|&m| Some((capture_key(m)?, m))));
            self.buffers[ply] = moves;
        }
        caps.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        let mut best = stand;
        for (_, m) in caps {
            let child = if !maximising {
                self.answer(pos, m)
            } else {
                let mut child = pos.clone();
                child.play_unchecked(m);
                child
            };
            let score = self.quiesce(&child, alpha, beta, ply + 1, qply + 1);
            if self.timer.is_stopped() {
                return 0;
            }
            if maximising {
                if score > best {
                    best = score;
                }
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            } else {
                if score < best {
                    best = score;
                }
                beta = beta.min(score);
                if score <= alpha {
                    break;
                }
            }
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
        for (n, &i) in order.iter().enumerate() {
            let mut child = root.clone();
            child.play_unchecked(moves[i]);
            let bonus = noise[i];
            let score = if n == 0 {
                self.search(&child, depth - 1, alpha - bonus, beta - bonus, 1) + bonus
            } else {
                let s = self.search(&child, depth - 1, alpha - bonus, alpha - bonus + 1, 1) + bonus;
                if s > alpha && !self.timer.is_stopped() {
                    self.search(&child, depth - 1, alpha - bonus, beta - bonus, 1) + bonus
                } else {
                    s
                }
            };
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
        (best_here, scores)
    }

    fn line(&self, _root: &Position, first: Move, _depth: i32) -> Vec<Move> {
        vec![first]
    }
}
