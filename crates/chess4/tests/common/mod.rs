//! Test helpers: a deliberately simple second implementation of the free-for-all rules (a plain 14x14 array,
//! every legality test done by playing the move and asking every enemy piece whether it attacks the king), a
//! small seeded random generator and random playouts.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::needless_range_loop,
    clippy::manual_range_contains
)]

use parlor_chess4::{Game, Position, Role, Square};
use parlor_game::{Rules, Seat};

/// Plays wire moves, panicking with the position when one is refused.
pub fn play(g: &mut Game, moves: &[&str]) {
    for m in moves {
        g.play(m)
            .unwrap_or_else(|e| panic!("{m}: {e} in {}", g.position_text()));
    }
}

/// Each seat's points, Red first.
pub fn points(g: &Game) -> [i32; 4] {
    let p = g.points();
    [p[Seat::First], p[Seat::Second], p[Seat::Third], p[Seat::Fourth]]
}

/// xorshift64*: enough randomness for playouts, reproducible from a seed, no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays up to `plies` random legal moves from `pos` (fewer if the game ends).
pub fn playout(mut pos: Position, plies: usize, rng: &mut Rng) -> Position {
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        pos.play_unchecked(m);
    }
    pos
}

/// 200 positions from random playouts of 0 to 199 plies from the start (seeded, so always the same).
pub fn playout_positions(count: usize) -> Vec<Position> {
    let mut rng = Rng::new(2026);
    (0..count)
        .map(|i| {
            let first = Seat::ALL[i % 4];
            let plies = rng.below(200);
            playout(Position::start_with_first(first), plies, &mut rng)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------------------
// The reference rules.

const GREY: u8 = 4;
const FWD: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const RIGHT: [(i32, i32); 4] = [(1, 0), (0, -1), (-1, 0), (0, 1)];
const KING_HOME: [(i32, i32); 4] = [(7, 0), (0, 6), (6, 13), (13, 7)];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(f: i32, r: i32) -> bool {
    (0..14).contains(&f) && (0..14).contains(&r) && !((f < 3 || f > 10) && (r < 3 || r > 10))
}

fn name(f: i32, r: i32) -> String {
    format!("{}{}", char::from(b'a' + f as u8), r + 1)
}

/// Distance from the seat's own edge (1 = pawn start line, 7 = promotion line).
fn line(s: usize, f: i32, r: i32) -> i32 {
    match s {
        0 => r,
        1 => f,
        2 => 13 - r,
        _ => 13 - f,
    }
}

fn add(a: (i32, i32), b: (i32, i32), k: i32) -> (i32, i32) {
    (a.0 + b.0 * k, a.1 + b.1 * k)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Cell {
    pub colour: u8,
    pub role: char,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefPos {
    pub board: [[Option<Cell>; 14]; 14],
    pub turn: usize,
    pub dead: [bool; 4],
    pub ks: [bool; 4],
    pub qs: [bool; 4],
    pub ep: [Option<(i32, i32)>; 4],
    pub points: [i32; 4],
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RefMove {
    pub from: (i32, i32),
    pub to: (i32, i32),
    /// 0 normal, 1 double step, 2 en passant, 3 castle king side, 4 castle queen side.
    pub special: u8,
}

impl RefPos {
    /// Reads a position through the engine's public accessors only.
    pub fn of(pos: &Position) -> RefPos {
        let mut board = [[None; 14]; 14];
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                let colour = p.owner.map_or(GREY, |s| s.index() as u8);
                board[sq.file() as usize][sq.rank() as usize] = Some(Cell {
                    colour,
                    role: p.role.letter(),
                });
            }
        }
        let seats = Seat::ALL;
        RefPos {
            board,
            turn: pos.turn().index(),
            dead: seats.map(|s| !pos.is_live(s)),
            ks: seats.map(|s| pos.can_castle(s, true)),
            qs: seats.map(|s| pos.can_castle(s, false)),
            ep: seats.map(|s| {
                pos.en_passant(s)
                    .map(|q| (i32::from(q.file()), i32::from(q.rank())))
            }),
            points: seats.map(|s| pos.points()[s]),
        }
    }

    fn at(&self, sq: (i32, i32)) -> Option<Cell> {
        if on_board(sq.0, sq.1) {
            self.board[sq.0 as usize][sq.1 as usize]
        } else {
            None
        }
    }

    fn set(&mut self, sq: (i32, i32), c: Option<Cell>) {
        self.board[sq.0 as usize][sq.1 as usize] = c;
    }

    fn live(&self) -> usize {
        self.dead.iter().filter(|d| !**d).count()
    }

    pub fn is_over(&self) -> bool {
        let live: Vec<i32> = (0..4)
            .filter(|&s| !self.dead[s])
            .map(|s| self.points[s])
            .collect();
        live.len() <= 1 || (live.len() == 2 && (live[0] - live[1]).abs() >= 21)
    }

    /// Does the piece on `from` attack `to`?
    fn attacks(&self, from: (i32, i32), to: (i32, i32)) -> bool {
        let Some(c) = self.at(from) else { return false };
        let (df, dr) = (to.0 - from.0, to.1 - from.1);
        let clear_path = |step: (i32, i32)| {
            let mut x = add(from, step, 1);
            while x != to {
                if self.at(x).is_some() || !on_board(x.0, x.1) {
                    return false;
                }
                x = add(x, step, 1);
            }
            true
        };
        let straight = (df == 0) != (dr == 0);
        let diagonal = df != 0 && df.abs() == dr.abs();
        let step = (df.signum(), dr.signum());
        match c.role {
            'P' => {
                let s = c.colour as usize;
                s < 4
                    && [1, -1]
                        .iter()
                        .any(|&k| add(add(from, FWD[s], 1), RIGHT[s], k) == to)
            }
            'N' => KNIGHT.contains(&(df, dr)),
            'K' => df.abs().max(dr.abs()) == 1,
            'B' => diagonal && clear_path(step),
            'R' => straight && clear_path(step),
            _ => (diagonal || straight) && clear_path(step),
        }
    }

    /// Is `sq` attacked by a piece of a live seat other than `s`?
    fn attacked_by_others(&self, sq: (i32, i32), s: usize) -> bool {
        for f in 0..14 {
            for r in 0..14 {
                if let Some(c) = self.board[f as usize][r as usize]
                    && c.colour < 4
                    && c.colour as usize != s
                    && !self.dead[c.colour as usize]
                    && self.attacks((f, r), sq)
                {
                    return true;
                }
            }
        }
        false
    }

    fn king_of(&self, s: usize) -> Option<(i32, i32)> {
        (0..14).flat_map(|f| (0..14).map(move |r| (f, r))).find(|&sq| {
            self.at(sq)
                == Some(Cell {
                    colour: s as u8,
                    role: 'K',
                })
        })
    }

    pub fn in_check(&self, s: usize) -> bool {
        self.king_of(s).is_some_and(|k| self.attacked_by_others(k, s))
    }

    /// May seat `x` take seat `u`'s en-passant pawn? Only if `x` has not moved since: `x` lies in the cyclic range
    /// from `next` (the seat after the last mover) up to `u`.
    fn ep_usable(u: usize, x: usize, next: usize) -> bool {
        let mut y = next;
        while y != u {
            if y == x {
                return true;
            }
            y = (y + 1) % 4;
        }
        false
    }

    /// The legal moves of seat `s`; `next` is the seat after the last mover (for en passant).
    pub fn moves(&self, s: usize, next: usize) -> Vec<RefMove> {
        let mut pseudo = Vec::new();
        let own = s as u8;
        for f in 0..14 {
            for r in 0..14 {
                let from = (f, r);
                let Some(c) = self.at(from) else { continue };
                if c.colour != own {
                    continue;
                }
                let mut push = |to: (i32, i32), special: u8| pseudo.push(RefMove { from, to, special });
                let free = |x: (i32, i32)| on_board(x.0, x.1) && self.at(x).is_none();
                let takeable = |x: (i32, i32)| self.at(x).is_some_and(|p| p.colour != own);
                match c.role {
                    'P' => {
                        let one = add(from, FWD[s], 1);
                        if free(one) {
                            push(one, 0);
                            let two = add(from, FWD[s], 2);
                            if line(s, f, r) == 1 && free(two) {
                                push(two, 1);
                            }
                        }
                        for k in [1, -1] {
                            let to = add(one, RIGHT[s], k);
                            if takeable(to) {
                                push(to, 0);
                            } else if free(to) {
                                for u in 0..4 {
                                    if u != s
                                        && self.ep[u] == Some(to)
                                        && Self::ep_usable(u, s, next)
                                        && self.at(add(to, FWD[u], 1))
                                            == Some(Cell {
                                                colour: u as u8,
                                                role: 'P',
                                            })
                                    {
                                        push(to, 2);
                                    }
                                }
                            }
                        }
                    }
                    'N' | 'K' => {
                        let steps = if c.role == 'N' { &KNIGHT } else { &KING };
                        for &d in steps {
                            let to = add(from, d, 1);
                            if free(to) || takeable(to) {
                                push(to, 0);
                            }
                        }
                    }
                    role => {
                        let dirs: Vec<(i32, i32)> = match role {
                            'B' => BISHOP_DIRS.to_vec(),
                            'R' => ROOK_DIRS.to_vec(),
                            _ => ROOK_DIRS.iter().chain(BISHOP_DIRS.iter()).copied().collect(),
                        };
                        for d in dirs {
                            let mut to = add(from, d, 1);
                            while free(to) {
                                push(to, 0);
                                to = add(to, d, 1);
                            }
                            if takeable(to) {
                                push(to, 0);
                            }
                        }
                    }
                }
            }
        }
        // Castling.
        let home = KING_HOME[s];
        if self.at(home)
            == Some(Cell {
                colour: own,
                role: 'K',
            })
            && !self.in_check(s)
        {
            for (right, k, n, special) in [(self.ks[s], 1, 3, 3u8), (self.qs[s], -1, 4, 4u8)] {
                let rook = add(home, RIGHT[s], k * n);
                if !right
                    || self.at(rook)
                        != Some(Cell {
                            colour: own,
                            role: 'R',
                        })
                {
                    continue;
                }
                if !(1..n).all(|i| self.at(add(home, RIGHT[s], k * i)).is_none()) {
                    continue;
                }
                let mut bare = self.clone();
                bare.set(home, None);
                let pass = add(home, RIGHT[s], k);
                let land = add(home, RIGHT[s], 2 * k);
                if !bare.attacked_by_others(pass, s) && !bare.attacked_by_others(land, s) {
                    pseudo.push(RefMove {
                        from: home,
                        to: land,
                        special,
                    });
                }
            }
        }
        pseudo
            .into_iter()
            .filter(|m| {
                let mut after = self.clone();
                after.make(s, *m);
                !after.in_check(s)
            })
            .collect()
    }

    /// Moves the pieces only (no rights, points or turn).
    fn make(&mut self, s: usize, m: RefMove) -> Option<Cell> {
        let piece = self.at(m.from);
        let mut captured = self.at(m.to);
        if m.special == 2 {
            for u in 0..4 {
                if u != s && self.ep[u] == Some(m.to) {
                    let victim = add(m.to, FWD[u], 1);
                    captured = self.at(victim);
                    self.set(victim, None);
                }
            }
        }
        if m.special == 3 || m.special == 4 {
            let (k, n) = if m.special == 3 { (1, 3) } else { (-1, 4) };
            let rook = add(m.from, RIGHT[s], k * n);
            let rook_piece = self.at(rook);
            self.set(rook, None);
            self.set(add(m.from, RIGHT[s], k), rook_piece);
        }
        let mut moved = piece;
        if let Some(p) = piece
            && p.role == 'P'
            && line(s, m.to.0, m.to.1) == 7
        {
            moved = Some(Cell {
                colour: p.colour,
                role: 'D',
            });
        }
        self.set(m.from, None);
        self.set(m.to, moved);
        captured
    }

    fn eliminate(&mut self, u: usize) {
        self.dead[u] = true;
        self.ks[u] = false;
        self.qs[u] = false;
        self.ep[u] = None;
        for col in self.board.iter_mut() {
            for cell in col.iter_mut() {
                if let Some(c) = cell
                    && c.colour as usize == u
                {
                    c.colour = GREY;
                }
            }
        }
    }

    /// The long algebraic notation of a move, written from scratch.
    pub fn notation(&self, m: RefMove) -> String {
        match m.special {
            3 => return "O-O".into(),
            4 => return "O-O-O".into(),
            _ => {}
        }
        let c = self.at(m.from).unwrap();
        let s = c.colour as usize;
        let letter = if c.role == 'P' {
            String::new()
        } else {
            c.role.to_string()
        };
        let sep = if self.at(m.to).is_some() || m.special == 2 {
            "x"
        } else {
            "-"
        };
        let promo = if c.role == 'P' && line(s, m.to.0, m.to.1) == 7 {
            "=Q"
        } else {
            ""
        };
        format!(
            "{letter}{}{sep}{}{promo}",
            name(m.from.0, m.from.1),
            name(m.to.0, m.to.1)
        )
    }

    /// The legal moves of the side to move, or none once the game is over.
    pub fn legal(&self) -> Vec<RefMove> {
        if self.is_over() {
            Vec::new()
        } else {
            self.moves(self.turn, self.turn)
        }
    }

    /// Plays a move with every rule of the turn.
    pub fn play(&mut self, m: RefMove) {
        let s = self.turn;
        // Castling rights go when a king or rook home square is touched.
        for u in 0..4 {
            for sq in [m.from, m.to] {
                if sq == KING_HOME[u] {
                    self.ks[u] = false;
                    self.qs[u] = false;
                }
                if sq == add(KING_HOME[u], RIGHT[u], 3) {
                    self.ks[u] = false;
                }
                if sq == add(KING_HOME[u], RIGHT[u], -4) {
                    self.qs[u] = false;
                }
            }
        }
        let captured = self.make(s, m);
        self.ep[s] = if m.special == 1 {
            Some(add(m.from, FWD[s], 1))
        } else {
            None
        };
        // A window closes once its square is occupied or its pawn is gone.
        for u in 0..4 {
            if let Some(t) = self.ep[u]
                && (self.at(t).is_some()
                    || self.at(add(t, FWD[u], 1))
                        != Some(Cell {
                            colour: u as u8,
                            role: 'P',
                        }))
            {
                self.ep[u] = None;
            }
        }
        if let Some(c) = captured
            && c.colour < 4
        {
            self.points[s] += match c.role {
                'P' | 'D' => 1,
                'N' => 3,
                'B' | 'R' => 5,
                'Q' => 9,
                _ => 20,
            };
            if c.role == 'K' {
                self.eliminate(c.colour as usize);
            }
        }
        // Check bonus: kings of live opponents attacked by the mover's pieces.
        let mut checked = 0;
        let mut only_queens = true;
        for u in (0..4).filter(|&u| u != s && !self.dead[u]) {
            let Some(k) = self.king_of(u) else { continue };
            let mut hit = false;
            for f in 0..14 {
                for r in 0..14 {
                    if let Some(c) = self.at((f, r))
                        && c.colour as usize == s
                        && self.attacks((f, r), k)
                    {
                        hit = true;
                        only_queens &= c.role == 'Q' || c.role == 'D';
                    }
                }
            }
            checked += i32::from(hit);
        }
        self.points[s] += match (checked, only_queens) {
            (2, true) => 1,
            (2, false) => 5,
            (3, true) => 5,
            (3, false) => 20,
            _ => 0,
        };
        // Mates, all at once.
        let next = (s + 1) % 4;
        let mated: Vec<usize> = (0..4)
            .filter(|&u| u != s && !self.dead[u] && self.in_check(u) && self.moves(u, next).is_empty())
            .collect();
        for &u in &mated {
            self.eliminate(u);
            self.points[s] += 20;
        }
        // Next live seat; stalemated seats to move go out with 20 points.
        let next_live = |p: &RefPos, from: usize| {
            (1..=4)
                .map(|i| (from + i) % 4)
                .find(|&u| !p.dead[u])
                .unwrap_or(from)
        };
        self.turn = next_live(self, s);
        while !self.is_over() && self.moves(self.turn, self.turn).is_empty() {
            let u = self.turn;
            if !self.in_check(u) {
                self.points[u] += 20;
            }
            self.eliminate(u);
            self.turn = next_live(self, u);
        }
        let _ = self.live();
    }
}

/// Walks the tree to `depth` with both implementations side by side: at every node the sets of legal moves (in
/// notation) must agree, and after every move the whole state must agree. Returns the number of leaves.
pub fn cross_check(pos: &Position, depth: u32) -> u64 {
    let reference = RefPos::of(pos);
    let mut ours: Vec<String> = pos.legal_moves().iter().map(|m| pos.move_notation(*m)).collect();
    let theirs_moves = reference.legal();
    let mut theirs: Vec<String> = theirs_moves.iter().map(|m| reference.notation(*m)).collect();
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs, "legal moves differ in {}", pos.to_fen4());
    if depth <= 1 {
        return ours.len() as u64;
    }
    let mut leaves = 0;
    for m in pos.legal_moves().iter() {
        let text = pos.move_notation(*m);
        let mut child = pos.clone();
        child.play_unchecked(*m);
        let rm = theirs_moves
            .iter()
            .find(|r| reference.notation(**r) == text)
            .copied()
            .unwrap();
        let mut ref_child = reference.clone();
        ref_child.play(rm);
        assert_eq!(
            RefPos::of(&child),
            ref_child,
            "state differs after {text} in {}",
            pos.to_fen4()
        );
        leaves += cross_check(&child, depth - 1);
    }
    leaves
}

/// The role letter of a piece, for tests that build positions.
pub fn role(c: char) -> Role {
    Role::from_letter(c).unwrap()
}

/// A FEN4 text from a list of `(square, piece)` pairs (no castling rights, no en passant).
pub fn fen4(turn: char, dead: [u8; 4], points: [i32; 4], halfmove: u32, pieces: &[(&str, &str)]) -> String {
    let mut grid = vec![vec![""; 14]; 14];
    for &(sq, piece) in pieces {
        let s = Square::parse(sq).unwrap_or_else(|| panic!("bad square {sq}"));
        grid[s.rank() as usize][s.file() as usize] = piece;
    }
    let rows: Vec<String> = (0..14)
        .rev()
        .map(|rank| {
            let mut tokens = Vec::new();
            let mut empty = 0;
            for cell in &grid[rank] {
                if cell.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        tokens.push(empty.to_string());
                        empty = 0;
                    }
                    tokens.push((*cell).to_owned());
                }
            }
            if empty > 0 {
                tokens.push(empty.to_string());
            }
            tokens.join(",")
        })
        .collect();
    let list = |v: [i32; 4]| v.map(|x| x.to_string()).join(",");
    format!(
        "{turn}-{}-0,0,0,0-0,0,0,0-{}-{halfmove}-{}",
        list(dead.map(i32::from)),
        list(points),
        rows.join("/")
    )
}

/// The four kings on their home squares: h1, a7, g14, n8.
pub const KINGS: [(&str, &str); 4] = [("h1", "rK"), ("a7", "bK"), ("g14", "yK"), ("n8", "gK")];

/// The kings plus more pieces.
pub fn with_kings(more: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    KINGS.iter().copied().chain(more.iter().copied()).collect()
}
