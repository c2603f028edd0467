//! The position: pieces, side to move, eliminations, castling rights, en-passant windows and points; the legal move
//! generator and the move that plays every rule of a turn (captures, points, mates, stalemates, eliminations).
//!
//! The board is a mailbox over the padded 16x18 layout of [`crate::square`]: one byte per cell, `kind | colour << 3`,
//! colours 0-3 the seats and 4 grey. Legality is decided without playing each move: the generator first finds the
//! pieces giving check and the pieces pinned against the mover's king (the usual chess method, as in Stockfish's
//! `generate<LEGAL>`), so only king moves and en passant need an attack test.

// Seats are indices 0-3 into several per-seat tables at once.
#![allow(clippy::needless_range_loop)]

use crate::chess_move::{Move, MoveKind, MoveList};
use crate::piece::{Piece, Role};
use crate::square::{CELLS, PLAYING, Square};
use parlor_game::{BySeat, Seat};

pub(crate) const EMPTY: u8 = 0;
/// An off-board cell: kind 0 and colour 7, a colour no mask ever contains.
pub(crate) const OFF: u8 = 7 << 3;
pub(crate) const GREY: u8 = 4;
pub(crate) const PAWN: u8 = 1;
pub(crate) const KNIGHT: u8 = 2;
pub(crate) const BISHOP: u8 = 3;
pub(crate) const ROOK: u8 = 4;
pub(crate) const QUEEN: u8 = 5;
pub(crate) const KING: u8 = 6;
pub(crate) const DQUEEN: u8 = 7;

const ORTHO_SLIDERS: u32 = 1 << ROOK | 1 << QUEEN | 1 << DQUEEN;
const DIAG_SLIDERS: u32 = 1 << BISHOP | 1 << QUEEN | 1 << DQUEEN;
const QUEENS: u32 = 1 << QUEEN | 1 << DQUEEN;
const NONE: usize = usize::MAX;

pub(crate) const fn code(colour: u8, kind: u8) -> u8 {
    colour << 3 | kind
}

/// Orthogonal steps, then diagonal steps (the diagonal order matches [`PAWN_FROM`]).
const DIRS: [isize; 8] = [16, -16, 1, -1, 17, 15, -15, -17];
const KNIGHT_STEPS: [isize; 8] = [33, 31, 18, 14, -14, -18, -31, -33];
/// Each seat's forward step: Red up, Blue right, Yellow down, Green left.
pub(crate) const FWD: [isize; 4] = [16, 1, -16, -1];
/// Each seat's right hand along its home row.
pub(crate) const RIGHT: [isize; 4] = [1, -16, -1, 16];
/// Each seat's two pawn captures: forward plus or minus its right.
pub(crate) const PAWN_CAPS: [[isize; 2]; 4] = [[17, 15], [-15, 17], [-17, -15], [15, -17]];
/// For the diagonal steps `d` of [`DIRS`] (17, 15, -15, -17): the seats whose pawn on `sq + d` attacks `sq`.
const PAWN_FROM: [u32; 4] = [0b1100, 0b0110, 0b1001, 0b0011];
/// Each seat's king square in the set-up (h1, a7, g14, n8).
pub(crate) const KING_HOME: [usize; 4] = [2 * 16 + 7, 8 * 16, 15 * 16 + 6, 9 * 16 + 13];

const fn ks_rook(seat: usize) -> usize {
    (KING_HOME[seat] as isize + 3 * RIGHT[seat]) as usize
}

const fn qs_rook(seat: usize) -> usize {
    (KING_HOME[seat] as isize - 4 * RIGHT[seat]) as usize
}

/// How far a square is from the seat's own edge: 0 on its home row, 1 on its pawn start line, 7 on its
/// promotion line (the 8th rank counted from its side).
#[inline]
pub(crate) const fn line(seat: usize, sq: usize) -> usize {
    let rank = sq / 16 - 2;
    let file = sq % 16;
    match seat {
        0 => rank,
        1 => file,
        2 => 13 - rank,
        _ => 13 - file,
    }
}

#[inline]
fn at(sq: usize, d: isize) -> usize {
    sq.wrapping_add_signed(d)
}

/// A set of cells of the padded layout.
#[derive(Copy, Clone, Default)]
struct Cells([u64; 5]);

impl Cells {
    #[inline]
    fn insert(&mut self, sq: usize) {
        self.0[sq >> 6] |= 1 << (sq & 63);
    }
    #[inline]
    fn contains(&self, sq: usize) -> bool {
        self.0[sq >> 6] & (1 << (sq & 63)) != 0
    }
}

/// True if a piece of a colour in `by` attacks `sq`; the cell `ignore` counts as empty (the king that moves away).
#[inline]
pub(crate) fn attacked(b: &[u8; CELLS], sq: usize, by: u32, ignore: usize) -> bool {
    for (i, &d) in DIRS.iter().enumerate() {
        let sliders = if i < 4 { ORTHO_SLIDERS } else { DIAG_SLIDERS };
        let mut t = at(sq, d);
        let mut first = true;
        loop {
            let p = b[t];
            if p == EMPTY || t == ignore {
                t = at(t, d);
                first = false;
                continue;
            }
            let colour = u32::from(p >> 3);
            if by & (1 << colour) != 0 {
                let kind = p & 7;
                if sliders & (1 << kind) != 0 {
                    return true;
                }
                if first
                    && (kind == KING || (kind == PAWN && i >= 4 && PAWN_FROM[i - 4] & (1 << colour) != 0))
                {
                    return true;
                }
            }
            break;
        }
    }
    KNIGHT_STEPS.iter().any(|&d| {
        let p = b[at(sq, d)];
        p & 7 == KNIGHT && by & (1 << (p >> 3)) != 0
    })
}

/// The kinds of the pieces of colours in `by` that attack `sq`, as a bit set (bit `kind`).
pub(crate) fn attack_kinds(b: &[u8; CELLS], sq: usize, by: u32) -> u32 {
    let mut kinds = 0;
    for (i, &d) in DIRS.iter().enumerate() {
        let sliders = if i < 4 { ORTHO_SLIDERS } else { DIAG_SLIDERS };
        let mut t = at(sq, d);
        let mut first = true;
        loop {
            let p = b[t];
            if p == EMPTY {
                t = at(t, d);
                first = false;
                continue;
            }
            let colour = u32::from(p >> 3);
            if by & (1 << colour) != 0 {
                let kind = p & 7;
                let pawn_hit = kind == PAWN && i >= 4 && PAWN_FROM[i - 4] & (1 << colour) != 0;
                if sliders & (1 << kind) != 0 || (first && (kind == KING || pawn_hit)) {
                    kinds |= 1 << kind;
                }
            }
            break;
        }
    }
    for &d in &KNIGHT_STEPS {
        let p = b[at(sq, d)];
        if p & 7 == KNIGHT && by & (1 << (p >> 3)) != 0 {
            kinds |= 1 << KNIGHT;
        }
    }
    kinds
}

/// Where moves go: a list, or a flag that stops at the first legal move.
pub(crate) trait Sink {
    fn push(&mut self, m: Move);
    fn done(&self) -> bool;
}

impl Sink for MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
    #[inline]
    fn done(&self) -> bool {
        false
    }
}

/// Stops at the first move found.
#[derive(Default)]
pub(crate) struct AnyMove(pub(crate) bool);

impl Sink for AnyMove {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 = true;
    }
    #[inline]
    fn done(&self) -> bool {
        self.0
    }
}

/// A four-player chess position with its points and eliminations (free-for-all rules).
///
/// It knows everything a turn needs: which armies are out, each seat's castling rights and en-passant window,
/// the points and the half-move clock. It does not know the history (repetition), clocks or table options; see
/// [`crate::Game`] for those.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: [u8; CELLS],
    /// The cells of each live seat's pieces, as bit sets over the padded layout (the generator's piece loop).
    pub(crate) occ: [[u64; 5]; 4],
    pub(crate) kings: [usize; 4],
    pub(crate) turn: usize,
    /// Eliminated seats, bit per seat.
    pub(crate) dead: u32,
    /// Bit `2 * seat` king side, `2 * seat + 1` queen side.
    pub(crate) castling: u32,
    /// The square passed by each seat's last move if it was a double step, else 0.
    pub(crate) ep: [usize; 4],
    /// For each seat's en-passant window: the seats that have not moved since the step (bit per seat).
    pub(crate) ep_ok: [u32; 4],
    pub(crate) points: [i32; 4],
    pub(crate) halfmove: u32,
    /// Perft comparison mode: Teams legality (Red+Yellow against Blue+Green) and no points or eliminations.
    pub(crate) teams: bool,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_fen4())
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// A board with no pieces, Red to move, nothing eliminated, no rights (FEN4 parsing fills it).
    pub(crate) fn empty() -> Position {
        let mut board = [OFF; CELLS];
        for sq in Square::all() {
            board[sq.index()] = EMPTY;
        }
        Position {
            board,
            occ: [[0; 5]; 4],
            kings: [0; 4],
            turn: 0,
            dead: 0,
            castling: 0,
            ep: [0; 4],
            ep_ok: [0; 4],
            points: [0; 4],
            halfmove: 0,
            teams: false,
        }
    }

    /// The standard ("modern") start, Red to move.
    pub fn start() -> Position {
        Position::start_with_first(Seat::First)
    }

    /// The standard start with `first` to move (the table rule "rotate first player").
    pub fn start_with_first(first: Seat) -> Position {
        let mut pos = Position::empty();
        const BACK: [u8; 8] = [ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK];
        for s in 0..4 {
            for (i, &kind) in BACK.iter().enumerate() {
                let sq = at(KING_HOME[s], (i as isize - 4) * RIGHT[s]);
                pos.board[sq] = code(s as u8, kind);
                pos.board[at(sq, FWD[s])] = code(s as u8, PAWN);
            }
            pos.kings[s] = KING_HOME[s];
        }
        pos.castling = 0xFF;
        pos.turn = first.index();
        pos.rebuild_occupancy();
        pos
    }

    /// Recomputes the per-seat piece sets from the board.
    pub(crate) fn rebuild_occupancy(&mut self) {
        self.occ = [[0; 5]; 4];
        for &i in &PLAYING {
            let i = usize::from(i);
            let p = self.board[i];
            let colour = usize::from(p >> 3);
            if p != EMPTY && colour < 4 {
                self.occ[colour][i >> 6] |= 1 << (i & 63);
            }
        }
    }

    #[inline]
    fn occ_clear(&mut self, colour: usize, sq: usize) {
        if colour < 4 {
            self.occ[colour][sq >> 6] &= !(1 << (sq & 63));
        }
    }

    #[inline]
    fn occ_set(&mut self, colour: usize, sq: usize) {
        self.occ[colour][sq >> 6] |= 1 << (sq & 63);
    }

    /// Turns on the Teams legality used by the team-mode perft numbers: a move may not leave the mover's king
    /// attacked by either opponent of the other team, only those may be captured, and nothing is scored or
    /// eliminated. For perft comparison only; [`crate::Game`] always plays free-for-all.
    pub fn set_teams_legality(&mut self, on: bool) {
        self.teams = on;
    }

    /// Whose turn it is.
    pub fn turn(&self) -> Seat {
        seat(self.turn)
    }

    /// The piece on a square.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let p = self.board[sq.index()];
        let role = Role::from_code(p & 7)?;
        let colour = usize::from(p >> 3);
        Some(Piece {
            role,
            owner: if colour < 4 { Some(seat(colour)) } else { None },
        })
    }

    /// Points of each seat.
    pub fn points(&self) -> BySeat<i32> {
        BySeat::from_slice(&self.points)
    }

    /// Which seats are eliminated.
    pub fn eliminated(&self) -> BySeat<bool> {
        BySeat::from_slice(&[0, 1, 2, 3].map(|s| self.dead & (1 << s) != 0))
    }

    /// Gives the turn to `seat` out of the order of play, nothing else changed: for searches that let any
    /// opponent answer a move (best-reply search). A seat that is out does not get the turn. The position stays
    /// one the rules can play on: [`Position::legal_moves`] then lists that seat's moves.
    pub fn pass_turn_to(&mut self, seat: Seat) {
        if self.is_live(seat) {
            self.turn = seat.index();
        }
    }

    /// True if the seat still plays.
    pub fn is_live(&self, seat: Seat) -> bool {
        self.dead & (1 << seat.index()) == 0
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Whether the seat may still castle on the king side (`O-O`, toward the near rook) or the queen side.
    pub fn can_castle(&self, seat: Seat, king_side: bool) -> bool {
        self.castling & (1 << (2 * seat.index() + usize::from(!king_side))) != 0
    }

    /// The square the seat's pawn passed with the seat's last move, if that move was a double step.
    pub fn en_passant(&self, seat: Seat) -> Option<Square> {
        let sq = self.ep[seat.index()];
        (sq != 0).then(|| Square::from_index_unchecked(sq))
    }

    /// The seat's king, if the seat still plays.
    pub fn king(&self, seat: Seat) -> Option<Square> {
        self.is_live(seat)
            .then(|| Square::from_index_unchecked(self.kings[seat.index()]))
    }

    /// Number of seats still playing.
    pub fn live_count(&self) -> u32 {
        4 - self.dead.count_ones()
    }

    /// True when the game is decided by the position: three seats are out, or two remain 21 or more points
    /// apart. (Draw rules and the move limit need the history: see [`crate::Game`].)
    pub fn is_over(&self) -> bool {
        if self.teams {
            return false;
        }
        match self.live_count() {
            0 | 1 => true,
            2 => {
                let mut live = (0..4)
                    .filter(|s| self.dead & (1 << s) == 0)
                    .map(|s| self.points[s]);
                match (live.next(), live.next()) {
                    (Some(a), Some(b)) => (a - b).abs() >= 21,
                    _ => true,
                }
            }
            _ => false,
        }
    }

    /// The live opponents whose pieces threaten `seat`'s king (bit per seat).
    #[inline]
    pub(crate) fn enemies(&self, s: usize) -> u32 {
        if self.teams {
            1 << ((s + 1) % 4) | 1 << ((s + 3) % 4)
        } else {
            !self.dead & 0xF & !(1 << s)
        }
    }

    /// The colours `seat` may capture (bit per colour, grey = bit 4).
    #[inline]
    fn capturable(&self, s: usize) -> u32 {
        if self.teams {
            self.enemies(s)
        } else {
            0x1F & !(1 << s)
        }
    }

    /// True if the seat's king is attacked by a live opponent.
    pub fn is_check(&self, seat: Seat) -> bool {
        let s = seat.index();
        self.is_live(seat) && attacked(&self.board, self.kings[s], self.enemies(s), NONE)
    }

    /// The live opponents' kings that pieces of `seat` attack now.
    pub fn kings_attacked_by(&self, seat: Seat) -> Vec<Seat> {
        let mask = self.kings_checked_by(seat.index());
        (0..4).filter(|&u| mask & (1 << u) != 0).map(self::seat).collect()
    }

    /// The live opponents' kings that pieces of seat `s` attack now, bit per seat.
    fn kings_checked_by(&self, s: usize) -> u32 {
        (0..4)
            .filter(|&u| u != s && self.dead & (1 << u) == 0)
            .filter(|&u| attacked(&self.board, self.kings[u], 1 << s, NONE))
            .fold(0, |mask, u| mask | (1 << u))
    }

    /// The legal moves of the side to move (none once the game is over).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::default();
        self.generate_into(&mut list);
        list
    }

    /// Fills `list` with the legal moves of the side to move (emptied first; none once the game is over).
    pub fn generate_into(&self, list: &mut MoveList) {
        list.clear();
        if !self.is_over() {
            self.generate(self.turn, list);
        }
    }

    /// The moves `seat` could play if it were its turn now (its en-passant rights as they stand). The mate test
    /// for seats not on turn uses this.
    pub fn moves_of(&self, seat: Seat) -> MoveList {
        let mut list = MoveList::default();
        if self.is_live(seat) {
            self.generate(seat.index(), &mut list);
        }
        list
    }

    pub(crate) fn has_legal_move(&self, s: usize) -> bool {
        let mut any = AnyMove::default();
        self.generate(s, &mut any);
        any.0
    }

    /// The legal move generator for seat `s`.
    pub(crate) fn generate<S: Sink>(&self, s: usize, out: &mut S) {
        let b = &self.board;
        let enemy = self.enemies(s);
        let capt = self.capturable(s);
        let k = self.kings[s];
        let own = s as u8;

        // Checkers, the squares that answer a single check, and pinned pieces.
        let mut checkers = 0u32;
        let mut targets = Cells::default();
        let mut pins = [(NONE, 0isize); 8];
        let mut npins = 0;
        for (i, &d) in DIRS.iter().enumerate() {
            let sliders = if i < 4 { ORTHO_SLIDERS } else { DIAG_SLIDERS };
            let mut t = at(k, d);
            let mut blocker = NONE;
            let mut first = true;
            loop {
                let p = b[t];
                if p == EMPTY {
                    t = at(t, d);
                    first = false;
                    continue;
                }
                let colour = p >> 3;
                if colour == own {
                    if blocker == NONE {
                        blocker = t;
                        t = at(t, d);
                        first = false;
                        continue;
                    }
                    break;
                }
                if enemy & (1 << colour) != 0 {
                    let kind = p & 7;
                    let slider = sliders & (1 << kind) != 0;
                    let close = first
                        && (kind == KING
                            || (kind == PAWN && i >= 4 && PAWN_FROM[i - 4] & (1 << colour) != 0));
                    if blocker == NONE && (slider || close) {
                        checkers += 1;
                        let mut x = at(k, d);
                        loop {
                            targets.insert(x);
                            if x == t {
                                break;
                            }
                            x = at(x, d);
                        }
                    } else if blocker != NONE && slider {
                        pins[npins] = (blocker, d);
                        npins += 1;
                    }
                }
                break;
            }
        }
        for &d in &KNIGHT_STEPS {
            let t = at(k, d);
            let p = b[t];
            if p & 7 == KNIGHT && enemy & (1 << (p >> 3)) != 0 {
                checkers += 1;
                targets.insert(t);
            }
        }
        let evading = checkers > 0;
        let fits = |t: usize| !evading || targets.contains(t);
        let can_take = |p: u8| p & 7 != 0 && capt & (1 << (p >> 3)) != 0;

        // In double check only the king may move, except that an en-passant capture can in principle take one
        // checker and block the other; en passant is always verified by playing it.
        let double = checkers >= 2;
        {
            let mut bits = self.occ[s];
            let mut word = 0;
            loop {
                while word < 5 && bits[word] == 0 {
                    word += 1;
                }
                if word == 5 {
                    break;
                }
                let from = word * 64 + bits[word].trailing_zeros() as usize;
                bits[word] &= bits[word] - 1;
                let p = b[from];
                if p & 7 == KING || (double && p & 7 != PAWN) {
                    continue;
                }
                let pin = pins[..npins].iter().find(|(x, _)| *x == from).map(|(_, d)| *d);
                let along = |d: isize| pin.is_none_or(|pd| pd == d || pd == -d);
                match p & 7 {
                    PAWN => {
                        let f = FWD[s];
                        let t1 = at(from, f);
                        if !double && b[t1] == EMPTY && along(f) {
                            if fits(t1) {
                                let kind = if line(s, t1) == 7 {
                                    MoveKind::Promotion
                                } else {
                                    MoveKind::Normal
                                };
                                out.push(mv(from, t1, kind));
                            }
                            let t2 = at(t1, f);
                            if line(s, from) == 1 && b[t2] == EMPTY && fits(t2) {
                                out.push(mv(from, t2, MoveKind::DoubleStep));
                            }
                        }
                        for &c in &PAWN_CAPS[s] {
                            let t = at(from, c);
                            let q = b[t];
                            if can_take(q) {
                                if !double && along(c) && fits(t) {
                                    let kind = if line(s, t) == 7 {
                                        MoveKind::Promotion
                                    } else {
                                        MoveKind::Normal
                                    };
                                    out.push(mv(from, t, kind));
                                }
                            } else if q == EMPTY && self.en_passant_ok(s, from, t) {
                                out.push(mv(from, t, MoveKind::EnPassant));
                            }
                        }
                    }
                    KNIGHT => {
                        if pin.is_none() {
                            for &d in &KNIGHT_STEPS {
                                let t = at(from, d);
                                let q = b[t];
                                if (q == EMPTY || can_take(q)) && fits(t) {
                                    out.push(mv(from, t, MoveKind::Normal));
                                }
                            }
                        }
                    }
                    kind => {
                        let dirs: &[isize] = match kind {
                            BISHOP => &DIRS[4..],
                            ROOK => &DIRS[..4],
                            _ => &DIRS,
                        };
                        for &d in dirs {
                            if !along(d) {
                                continue;
                            }
                            let mut t = at(from, d);
                            loop {
                                let q = b[t];
                                if q == EMPTY {
                                    if fits(t) {
                                        out.push(mv(from, t, MoveKind::Normal));
                                    }
                                    t = at(t, d);
                                    continue;
                                }
                                if can_take(q) && fits(t) {
                                    out.push(mv(from, t, MoveKind::Normal));
                                }
                                break;
                            }
                        }
                    }
                }
                if out.done() {
                    return;
                }
            }
        }

        // King steps.
        for &d in &DIRS {
            let t = at(k, d);
            let q = b[t];
            if (q == EMPTY || can_take(q)) && !attacked(b, t, enemy, k) {
                out.push(mv(k, t, MoveKind::Normal));
            }
        }

        // Castling: king and rook on their home squares, the squares between empty, and the king neither in check
        // nor passing or landing on an attacked square.
        if !evading && self.castling & (3 << (2 * s)) != 0 && k == KING_HOME[s] {
            let r = RIGHT[s];
            for (bit, rook, dir, kind) in [
                (2 * s, ks_rook(s), r, MoveKind::CastleKingSide),
                (2 * s + 1, qs_rook(s), -r, MoveKind::CastleQueenSide),
            ] {
                if self.castling & (1 << bit) == 0 || b[rook] != code(own, ROOK) {
                    continue;
                }
                let mut x = at(k, dir);
                let mut clear = true;
                while x != rook {
                    clear &= b[x] == EMPTY;
                    x = at(x, dir);
                }
                let pass = at(k, dir);
                let land = at(pass, dir);
                if clear && !attacked(b, pass, enemy, k) && !attacked(b, land, enemy, k) {
                    out.push(mv(k, land, kind));
                }
            }
        }
    }

    /// True if the pawn of `s` on `from` may take en passant on the empty square `to`: some opponent's pawn passed
    /// `to` with its last move, `s` has not moved since, that pawn is still there, and taking it leaves no check.
    fn en_passant_ok(&self, s: usize, from: usize, to: usize) -> bool {
        for u in 0..4 {
            if u == s || self.ep[u] != to || self.ep_ok[u] & (1 << s) == 0 {
                continue;
            }
            let victim = at(to, FWD[u]);
            if self.board[victim] != code(u as u8, PAWN) {
                continue;
            }
            if self.teams && self.enemies(s) & (1 << u) == 0 {
                continue;
            }
            let mut b = self.board;
            b[to] = b[from];
            b[from] = EMPTY;
            b[victim] = EMPTY;
            return !attacked(&b, self.kings[s], self.enemies(s), NONE);
        }
        false
    }

    /// Plays a legal move with every rule of the turn: the capture and its points, check bonuses, mates decided at
    /// once (every live player in check without a legal move is out, 20 points each to the mover), then the turn
    /// passes clockwise to the next live seat; a seat to move without a legal move and not in check is stalemated
    /// (out, 20 points to it) and the turn passes on. Playing a move not from [`Position::legal_moves`] may
    /// corrupt the position.
    pub fn play_unchecked(&mut self, m: Move) {
        let s = self.turn;
        // Kings the mover already attacks: a check bonus counts only the kings a move puts in check.
        let checking_before = if self.teams { 0 } else { self.kings_checked_by(s) };
        let from = m.from.index();
        let to = m.to.index();
        let piece = self.board[from];
        let mut captured = self.board[to];
        match m.kind {
            MoveKind::EnPassant => {
                if let Some(u) = (0..4).find(|&u| self.ep[u] == to && u != s) {
                    let victim = at(to, FWD[u]);
                    captured = self.board[victim];
                    self.board[victim] = EMPTY;
                    self.occ_clear(u, victim);
                }
            }
            MoveKind::CastleKingSide => {
                let r = RIGHT[s];
                self.board[at(from, 3 * r)] = EMPTY;
                self.board[at(from, r)] = code(s as u8, ROOK);
                self.occ_clear(s, at(from, 3 * r));
                self.occ_set(s, at(from, r));
            }
            MoveKind::CastleQueenSide => {
                let r = RIGHT[s];
                self.board[at(from, -4 * r)] = EMPTY;
                self.board[at(from, -r)] = code(s as u8, ROOK);
                self.occ_clear(s, at(from, -4 * r));
                self.occ_set(s, at(from, -r));
            }
            _ => {
                if captured != EMPTY {
                    self.occ_clear(usize::from(captured >> 3), to);
                }
            }
        }
        self.occ_clear(s, from);
        self.occ_set(s, to);
        self.board[to] = if m.kind == MoveKind::Promotion {
            code(s as u8, DQUEEN)
        } else {
            piece
        };
        self.board[from] = EMPTY;
        if piece & 7 == KING {
            self.kings[s] = to;
        }
        if self.castling != 0 {
            for u in 0..4 {
                for sq in [from, to] {
                    if sq == KING_HOME[u] {
                        self.castling &= !(3 << (2 * u));
                    } else if sq == ks_rook(u) {
                        self.castling &= !(1 << (2 * u));
                    } else if sq == qs_rook(u) {
                        self.castling &= !(1 << (2 * u + 1));
                    }
                }
            }
        }
        for ok in &mut self.ep_ok {
            *ok &= !(1 << s);
        }
        if m.kind == MoveKind::DoubleStep {
            self.ep[s] = at(from, FWD[s]);
            self.ep_ok[s] = !self.dead & 0xF & !(1 << s);
        } else {
            self.ep[s] = 0;
            self.ep_ok[s] = 0;
        }
        // A window closes for good once its square is occupied or its pawn is gone.
        for u in 0..4 {
            let t = self.ep[u];
            if t != 0 && (self.board[t] != EMPTY || self.board[at(t, FWD[u])] != code(u as u8, PAWN)) {
                self.ep[u] = 0;
                self.ep_ok[u] = 0;
            }
        }
        if piece & 7 == PAWN || captured != EMPTY {
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }

        if !self.teams {
            let victim = usize::from(captured >> 3);
            if captured != EMPTY && victim < 4 {
                if let Some(role) = Role::from_code(captured & 7) {
                    self.points[s] += role.points();
                }
                if captured & 7 == KING {
                    self.eliminate(victim);
                }
            }
            // Kings attacked after the move: by the mover (check bonus) and by anyone (mate test). A king nobody
            // attacks needs neither test, which keeps this cheap.
            let mut mated = 0u32;
            let mut checked = 0;
            let mut only_queens = true;
            for u in 0..4 {
                if u == s
                    || self.dead & (1 << u) != 0
                    || !attacked(&self.board, self.kings[u], self.enemies(u), NONE)
                {
                    continue;
                }
                let kinds = attack_kinds(&self.board, self.kings[u], 1 << s);
                if kinds != 0 && checking_before & (1 << u) == 0 {
                    checked += 1;
                    only_queens &= kinds & !QUEENS == 0;
                }
                if !self.has_legal_move(u) {
                    mated |= 1 << u;
                }
            }
            self.points[s] += check_bonus(checked, only_queens);
            for u in 0..4 {
                if mated & (1 << u) != 0 {
                    self.eliminate(u);
                    self.points[s] += 20;
                }
            }
        }
        self.turn = self.next_live(s);
        if !self.teams {
            self.settle();
        }
    }

    /// While the game goes on and the seat to move has no legal move, that seat is out: stalemated (20 points to
    /// it) or, if in check, mated (this cannot arise after a move, since mates are decided at once).
    pub(crate) fn settle(&mut self) {
        while !self.is_over() && !self.has_legal_move(self.turn) {
            let u = self.turn;
            if !attacked(&self.board, self.kings[u], self.enemies(u), NONE) {
                self.points[u] += 20;
            }
            self.eliminate(u);
            self.turn = self.next_live(u);
        }
    }

    /// The next live seat clockwise after `s` (`s` itself if no other is live).
    pub(crate) fn next_live(&self, s: usize) -> usize {
        (1..=4)
            .map(|i| (s + i) % 4)
            .find(|u| self.dead & (1 << u) == 0)
            .unwrap_or(s)
    }

    /// Takes a seat out: its pieces turn grey, its rights and en-passant window go.
    pub(crate) fn eliminate(&mut self, u: usize) {
        self.dead |= 1 << u;
        self.occ[u] = [0; 5];
        for sq in Square::all() {
            let p = self.board[sq.index()];
            if usize::from(p >> 3) == u && p & 7 != 0 {
                self.board[sq.index()] = code(GREY, p & 7);
            }
        }
        self.castling &= !(3 << (2 * u));
        self.ep[u] = 0;
        self.ep_ok[u] = 0;
        self.kings[u] = 0;
        for ok in &mut self.ep_ok {
            *ok &= !(1 << u);
        }
    }

    /// Eliminates a seat that resigned or lost on time (its pieces turn grey, nobody scores), then passes the
    /// turn on if it was that seat's, eliminating stalemated seats to move. Returns false if the seat was already
    /// out.
    pub fn resign(&mut self, seat: Seat) -> bool {
        let u = seat.index();
        if self.dead & (1 << u) != 0 {
            return false;
        }
        self.eliminate(u);
        if self.turn == u {
            self.turn = self.next_live(u);
        }
        self.settle();
        true
    }

    /// The move in wire notation: long algebraic with a piece letter (`h2-h4`, `Nj1-i3`, `Qg1xm7`, `h7-h8=Q`,
    /// `O-O`, `O-O-O`). A promoted queen's letter is `D`.
    pub fn move_notation(&self, m: Move) -> String {
        match m.kind {
            MoveKind::CastleKingSide => return "O-O".to_owned(),
            MoveKind::CastleQueenSide => return "O-O-O".to_owned(),
            _ => {}
        }
        let p = self.board[m.from.index()];
        let mut out = String::with_capacity(10);
        if let Some(role) = Role::from_code(p & 7)
            && role != Role::Pawn
        {
            out.push(role.letter());
        }
        let capture = m.kind == MoveKind::EnPassant || self.board[m.to.index()] != EMPTY;
        out.push_str(&m.from.to_string());
        out.push(if capture { 'x' } else { '-' });
        out.push_str(&m.to.to_string());
        if m.kind == MoveKind::Promotion {
            out.push_str("=Q");
        }
        out
    }

    /// A text diagram, rank 14 at the top: each piece as its owner's mark and its letter (`●K`, `▲P`; grey
    /// pieces `·Q`), empty squares `..`, cut-off corners blank.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (0..14u8).rev() {
            out.push_str(&format!("{:>2} ", rank + 1));
            for file in 0..14u8 {
                let cell = match Square::from_coords(file, rank) {
                    None => "   ".to_owned(),
                    Some(sq) => match self.piece_at(sq) {
                        None => " ..".to_owned(),
                        Some(p) => {
                            let mark = p.owner.map_or('·', crate::piece::seat_mark);
                            format!(" {mark}{}", p.role.letter())
                        }
                    },
                };
                out.push_str(&cell);
            }
            out.push('\n');
        }
        out.push_str("    a  b  c  d  e  f  g  h  i  j  k  l  m  n\n");
        out
    }

    /// A hash of everything that makes two positions the same for repetition: pieces (with grey), side to move,
    /// eliminations, castling rights and open en-passant windows. Points are not part of it.
    pub fn repetition_key(&self) -> u64 {
        // FNV-1a: a stable hash that needs no table.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |x: u64| {
            h ^= x;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        };
        for sq in Square::all() {
            eat(u64::from(self.board[sq.index()]));
        }
        eat(self.turn as u64);
        eat(u64::from(self.dead));
        eat(u64::from(self.castling));
        for u in 0..4 {
            eat(self.ep[u] as u64);
        }
        h
    }
}

/// Points for checking several kings with one move: 5 for two, 20 for three; 1 and 5 when every checking piece
/// is a queen (promoted or not).
const fn check_bonus(checked: u32, only_queens: bool) -> i32 {
    match (checked, only_queens) {
        (2, true) => 1,
        (2, false) => 5,
        (3, true) => 5,
        (3, false) => 20,
        _ => 0,
    }
}

#[inline]
fn mv(from: usize, to: usize, kind: MoveKind) -> Move {
    Move {
        from: Square::from_index_unchecked(from),
        to: Square::from_index_unchecked(to),
        kind,
    }
}

pub(crate) fn seat(s: usize) -> Seat {
    Seat::from_index(s & 3).unwrap_or(Seat::First)
}

impl parlor_game::Position for Position {
    type Move = Move;
    type MoveList = MoveList;

    fn turn(&self) -> Seat {
        Position::turn(self)
    }
    fn legal_moves(&self) -> MoveList {
        Position::legal_moves(self)
    }
    fn play_unchecked(&mut self, m: Move) {
        Position::play_unchecked(self, m);
    }
    fn move_notation(&self, m: Move) -> String {
        Position::move_notation(self, m)
    }
    fn repetition_key(&self) -> u64 {
        Position::repetition_key(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diagram_shows_marks_and_letters() {
        let d = Position::start().diagram();
        assert!(
            d.lines()
                .next()
                .is_some_and(|l| l.contains("■R") && l.contains("■K"))
        );
        assert!(d.contains("▲K") && d.contains("◆Q") && d.contains("●K"));
        assert_eq!(d.lines().count(), 15);
    }

    #[test]
    fn the_turn_can_be_given_to_any_live_seat() {
        let mut pos = Position::start();
        pos.pass_turn_to(Seat::Third);
        assert_eq!(pos.turn(), Seat::Third);
        let yellow = pos.legal_moves();
        assert_eq!(yellow.len(), pos.moves_of(Seat::Third).len());
        let m = yellow[0];
        pos.play_unchecked(m);
        assert_eq!(pos.piece_at(m.to).and_then(|p| p.owner), Some(Seat::Third));
        assert_eq!(
            pos.turn(),
            Seat::Fourth,
            "play goes on clockwise from the seat that moved"
        );
        assert!(pos.resign(Seat::Second));
        pos.pass_turn_to(Seat::Second);
        assert_eq!(
            pos.turn(),
            Seat::Fourth,
            "a seat that is out does not get the turn"
        );
    }
}
