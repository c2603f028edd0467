//! The chess evaluation: material and piece-square tables tapered between middlegame and endgame by the
//! remaining pieces (the tapered eval of Fruit and most engines since), plus pawn structure, mobility, rooks on
//! open files, the bishop pair, a pawn shield and attacks near the king, and a mop-up term for won endings.
//!
//! The tables are our own, written as boards seen from White (rank 8 on top); the other weights are in
//! `params.rs`.

use crate::params::{
    BISHOP_PAIR, DOUBLED, EG_VALUE, ISOLATED, KING_ATTACK_MAX, KING_ATTACK_SCALE, KING_ATTACK_WEIGHT,
    KING_SHIELD, MG_VALUE, MOBILITY, MOBILITY_CENTRE, MOPUP_CENTRE, MOPUP_CLOSE, PASSED, PHASE_MAX,
    PHASE_WEIGHT, ROOK_HALF_OPEN, ROOK_OPEN, TEMPO,
};
use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Chess, Color, Position as _, Role, Square};

#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
       0,   0,   0,   0,   0,   0,   0,   0,
      44,  46,  47,  53,  51,  46,  45,  45,
       9,   8,  16,  16,  18,   9,  13,   2,
      -5, -19, -10,   3,   5,  -7, -14,  -5,
     -24, -28, -11,   8,  -5,  -2, -25, -25,
     -21, -19, -22, -13, -17, -10,   1, -12,
     -29, -32, -28, -39, -30,  -4,  12, -24,
       0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
       0,   0,   0,   0,   0,   0,   0,   0,
      61,  72,  62,  53,  58,  61,  68,  62,
      37,  32,  21,   5,  -1,   3,  29,  19,
       8,  -2,  -6, -19, -28, -20,  -7, -14,
     -10, -18, -25, -31, -22, -19, -32, -20,
     -14, -26, -23, -28, -15, -16, -39, -31,
     -11, -20, -17, -29, -21, -16, -33, -28,
       0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
     -52, -28, -18, -13, -13, -18, -28, -48,
     -23,  -5,   9,  11,  14,   7,  -7, -23,
     -13,  13,  22,  36,  26,  24,  14, -12,
      -5,  18,  29,  42,  26,  31,  14,  -5,
      -1,   9,  25,  22,  21,  30,  13,  -6,
      -8,   7,   6,  17,  15,  15,  14, -12,
     -23,  -6,   1,  13,   9,   8,  -4, -22,
     -43, -16, -17, -10, -14, -15, -12, -43,
];
#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
     -42, -17, -13,  -9,  -8, -16, -19, -36,
     -18,  -1,  10,   9,  13,   3,  -5, -19,
     -13,   6,  17,  28,  20,  15,   6, -13,
      -7,  16,  28,  31,  29,  24,  15,  -8,
      -7,  11,  25,  29,  33,  22,   8,  -6,
     -12,  12,  10,  19,  18,   4,  11, -13,
     -20,  -3,   5,  12,   7,   3,  -1, -19,
     -34, -20, -12,  -6, -10, -13, -14, -33,
];
#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
     -17,  -9,  -9,  -9, -10,  -9,  -9, -19,
     -15,  -2,  -1,   0,   0,   1,   1, -10,
     -12,   2,   7,  11,  12,   9,   3,   0,
     -10,  12,   3,  19,  15,   9,   8,  -4,
      -3,  -2,   9,  18,  16,   4,   3, -11,
      -3,  18,  14,  14,   6,  14,  15,  -2,
      -8,  10,   2,   8,   2,   1,  30, -10,
     -18, -10,  -3, -10, -12, -11, -10, -16,
];
#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
     -12,  -8,  -6,  -3,  -3,  -4,  -8, -11,
      -9,  -3,   1,   4,   1,   1,  -1,  -8,
      -7,   2,   8,   7,  11,  10,   4,  -2,
      -2,   2,   1,  11,  13,   8,   3,  -2,
      -1,   2,   5,   8,   9,   9,   4,  -5,
      -5,  -2,  17,  13,   7,   3,   2,  -2,
      -8,  -3,   1,  -1,   2,   0,   1, -13,
     -12,  -9, -12,  -3,  -8,  -5,  -9, -11,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
       5,   6,   9,   8,   7,   8,   5,   5,
      12,  18,  20,  23,  19,  22,  20,  12,
      -7,  -1,   1,   1,   1,   1,  -2,  -5,
      -7,  -2,   7,   2,   7,  -1,  -2,  -6,
      -7,  -4,  -1,  -1,  -3,   1,  -4,  -6,
     -11, -11,  -8,   2,  -3,  -2,  -2,  -9,
     -14,  -9,  -5,  -3,  -6,  -1,  -6, -16,
     -12,  -3,   2,   4,  11,   2, -23, -19,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
       8,   8,   5,   3,   2,   4,   8,  12,
      15,  12,   9,  15,  13,  14,  10,   7,
       3,   1,   2,  -1,  -1,  -1,  -1,   3,
       1,   2,   7,   2,   9,   1,   1,   3,
       1,  -3,   1,  -2,  -1,   2,  -4,  -1,
      -3,  -5,  -2,  -1,  -2,  -1,   0,  -5,
     -12, -10,  -7, -10,  -9,  -6,  -7,  -7,
      -9, -11,  -1,  -8,  -9,  -7,  -3, -15,
];
#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
     -17,  -7,  -6,   0,  -1,  -6,  -6, -16,
     -11,   0,   7,   5,   5,   5,   3,  -3,
     -14,   5,   9,  11,  11,  13,   5,  -5,
      -5,   1,   8,   4,   7,  12,   2,   0,
       2,  -3,   5,   3,   6,  11,   3,  -2,
      -6,   9,   5,   0,   9,   5,   6,  -9,
      -7,   1,   8,   1,   7,   3,   3,  -7,
     -14,  -6,  -8,   4,  -3, -10,  -8, -17,
];
#[rustfmt::skip]
const QUEEN_EG: [i32; 64] = [
     -20, -11,  -9,  -4,  -4,  -9,  -9, -19,
      -9,  -1,   8,   7,   6,   6,   0,  -9,
     -13,   7,  11,  12,  12,  13,   6,  -8,
      -6,   5,  10,  14,  17,  11,   7,  -4,
      -6,   4,   9,  15,  14,  10,   5,  -6,
     -12,   3,  10,   8,  10,  10,   5, -10,
     -10,   0,   3,   2,   2,   3,  -1, -10,
     -19, -10, -11,  -8,  -6, -12, -11, -20,
];
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
     -40, -50, -50, -60, -60, -50, -50, -40,
     -40, -50, -50, -60, -60, -50, -50, -40,
     -40, -50, -50, -59, -60, -50, -50, -40,
     -40, -49, -50, -58, -59, -49, -49, -40,
     -30, -40, -39, -50, -50, -41, -42, -31,
     -20, -29, -29, -39, -37, -30, -27, -20,
      10,  10,  -1, -21, -24, -11,  15,  21,
      19,  34,   8, -21,   5,  -8,  43,  29,
];
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
     -50, -35, -25, -20, -21, -25, -35, -50,
     -29, -14,  -5,   1,   1,  -8, -14, -31,
     -24,  -1,  17,  26,  20,  18,  -1, -23,
     -18,   6,  19,  41,  34,  22,   4, -18,
     -20,   1,  23,  29,  28,  14,   1, -24,
     -25,  -5,  12,  25,  29,   9,  -7, -22,
     -30, -19,  -4,   7,   1,  -7, -19, -25,
     -51, -41, -28, -25, -30, -31, -59, -56,
];

const TABLES: [(&[i32; 64], &[i32; 64]); 6] = [
    (&PAWN_MG, &PAWN_EG),
    (&KNIGHT_MG, &KNIGHT_EG),
    (&BISHOP_MG, &BISHOP_EG),
    (&ROOK_MG, &ROOK_EG),
    (&QUEEN_MG, &QUEEN_EG),
    (&KING_MG, &KING_EG),
];

/// Material plus table value of each (colour, role, square), (mg, eg), from that colour's point of view.
/// The tables are written with rank 8 first: a white piece on square `s` reads entry `s ^ 56`, a black piece
/// (mirrored) entry `s`.
const PST: [[[(i32, i32); 64]; 6]; 2] = build_pst();

const fn build_pst() -> [[[(i32, i32); 64]; 6]; 2] {
    let mut out = [[[(0, 0); 64]; 6]; 2];
    let mut role = 0;
    while role < 6 {
        let (mg, eg) = TABLES[role];
        let mut sq = 0;
        while sq < 64 {
            // Index 0 = White (shakmaty's Color::White as usize is 1, so we map explicitly in `side`).
            out[0][role][sq] = (MG_VALUE[role] + mg[sq ^ 56], EG_VALUE[role] + eg[sq ^ 56]);
            out[1][role][sq] = (MG_VALUE[role] + mg[sq], EG_VALUE[role] + eg[sq]);
            sq += 1;
        }
        role += 1;
    }
    out
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Squares in front of a pawn on its file and the two next to it: no enemy pawn there means it is passed.
const PASSED_SPAN: [[u64; 64]; 2] = build_passed();

const fn build_passed() -> [[u64; 64]; 2] {
    let mut out = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let file = (sq % 8) as i32;
        let rank = (sq / 8) as i32;
        let mut r = 0;
        while r < 8 {
            let mut f = file - 1;
            while f <= file + 1 {
                if f >= 0 && f < 8 {
                    let bit = 1u64 << (r * 8 + f);
                    if r > rank {
                        out[0][sq] |= bit;
                    }
                    if r < rank {
                        out[1][sq] |= bit;
                    }
                }
                f += 1;
            }
            r += 1;
        }
        sq += 1;
    }
    out
}

#[inline]
fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

#[inline]
fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// Squares attacked by the pawns of `color`.
#[inline]
fn pawn_attacks(pawns: u64, color: Color) -> u64 {
    match color {
        Color::White => ((pawns << 7) & !FILE_H) | ((pawns << 9) & !FILE_A),
        Color::Black => ((pawns >> 9) & !FILE_H) | ((pawns >> 7) & !FILE_A),
    }
}

/// Middlegame and endgame sums for one colour, and its phase contribution.
#[derive(Default)]
struct Sums {
    mg: i32,
    eg: i32,
}

impl Sums {
    #[inline]
    fn add(&mut self, (mg, eg): (i32, i32)) {
        self.mg += mg;
        self.eg += eg;
    }
    #[inline]
    fn add_scaled(&mut self, (mg, eg): (i32, i32), n: i32) {
        self.mg += mg * n;
        self.eg += eg * n;
    }
}

/// The evaluation of a position, in centipawns, for the side to move.
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let mut phase = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        phase += PHASE_WEIGHT[role_index(role)] * board.by_role(role).count() as i32;
    }
    let phase = phase.min(PHASE_MAX);
    let white = side_sums(board, Color::White);
    let black = side_sums(board, Color::Black);
    let mg = white.mg - black.mg;
    let eg = white.eg - black.eg + mopup(board);
    let mut score = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    score = scale_drawish(board, score);
    let score = if pos.turn() == Color::White { score } else { -score };
    score + TEMPO
}

/// What the tuner needs of a position: the piece-square entries of each side, and the rest of the evaluation.
#[derive(Clone, Debug)]
pub struct Terms {
    /// The phase, 0 (bare kings and pawns) to [`PHASE_MAX`].
    pub phase: i32,
    /// `(colour index, role index, table index)` of every piece: the entry of `TABLES` it reads (White 0).
    pub pieces: Vec<(u8, u8, u8)>,
    /// Every other term, White minus Black, (mg, eg).
    pub rest: (i32, i32),
}

/// The linear parts of the evaluation of a position, for tuning; `None` where the mop-up or the draw scaling
/// (which are not linear) apply.
pub fn terms(pos: &Chess) -> Option<Terms> {
    let board = pos.board();
    if mopup(board) != 0 || scale_drawish(board, 1) != 1 || scale_drawish(board, -1) != -1 {
        return None;
    }
    let mut phase = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        phase += PHASE_WEIGHT[role_index(role)] * board.by_role(role).count() as i32;
    }
    let mut pieces = Vec::with_capacity(32);
    for color in [Color::White, Color::Black] {
        for role in Role::ALL {
            for sq in board.by_role(role) & board.by_color(color) {
                let index = if color == Color::White {
                    sq as usize ^ 56
                } else {
                    sq as usize
                };
                pieces.push((side(color) as u8, role_index(role) as u8, index as u8));
            }
        }
    }
    let (w, b) = (side_rest(board, Color::White), side_rest(board, Color::Black));
    Some(Terms {
        phase: phase.min(PHASE_MAX),
        pieces,
        rest: (w.mg - b.mg, w.eg - b.eg),
    })
}

/// The material and table values `(mg, eg)` of a role, `TABLES` order, for the tuner to start from.
pub fn tables() -> [([i32; 64], [i32; 64]); 6] {
    let mut out = [([0; 64], [0; 64]); 6];
    for (r, (mg, eg)) in TABLES.iter().enumerate() {
        for i in 0..64 {
            out[r].0[i] = MG_VALUE[r] + mg[i];
            out[r].1[i] = EG_VALUE[r] + eg[i];
        }
    }
    out
}

fn side_sums(board: &Board, us: Color) -> Sums {
    let s = side(us);
    let mut sums = side_rest(board, us);
    for role in Role::ALL {
        let pieces = board.by_role(role) & board.by_color(us);
        let r = role_index(role);
        for sq in pieces {
            sums.add(PST[s][r][sq as usize]);
        }
    }
    sums
}

/// Every term of one side except material and tables.
fn side_rest(board: &Board, us: Color) -> Sums {
    let them = !us;
    let mut sums = Sums::default();
    let s = side(us);
    let occupied = board.occupied();
    let ours = board.by_color(us);
    let our_pawns = (board.pawns() & ours).0;
    let their_pawns = (board.pawns() & board.by_color(them)).0;
    let their_pawn_attacks = pawn_attacks(their_pawns, them);
    let their_king_zone = board.king_of(them).map_or(0, |k| king_attacks(k).0);

    // Pawn structure.
    for sq in Bitboard(our_pawns) {
        let i = sq as usize;
        if PASSED_SPAN[s][i] & their_pawns == 0 {
            let rank = if us == Color::White { i / 8 } else { 7 - i / 8 };
            sums.add(PASSED[rank]);
        }
        let file = FILE_A << (i % 8);
        let neighbours = ((file << 1) & !FILE_A) | ((file >> 1) & !FILE_H);
        if our_pawns & neighbours == 0 {
            sums.add(ISOLATED);
        }
    }
    for f in 0..8 {
        let n = (our_pawns & (FILE_A << f)).count_ones() as i32;
        if n > 1 {
            sums.add_scaled(DOUBLED, n - 1);
        }
    }

    // Mobility and attacks near the enemy king.
    let safe = !ours.0 & !their_pawn_attacks;
    let mut units = 0;
    let mut attackers = 0;
    for (k, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        for sq in board.by_role(role) & ours {
            let attacks = match role {
                Role::Knight => knight_attacks(sq),
                Role::Bishop => bishop_attacks(sq, occupied),
                Role::Rook => rook_attacks(sq, occupied),
                _ => queen_attacks(sq, occupied),
            }
            .0;
            let n = (attacks & safe).count_ones() as i32 - MOBILITY_CENTRE[k];
            sums.add_scaled(MOBILITY[k], n);
            let hits = (attacks & their_king_zone).count_ones() as i32;
            if hits > 0 {
                attackers += 1;
                units += hits * KING_ATTACK_WEIGHT[k];
            }
            if role == Role::Rook {
                let file = FILE_A << (sq as usize % 8);
                if file & our_pawns == 0 {
                    sums.add(if file & their_pawns == 0 {
                        ROOK_OPEN
                    } else {
                        ROOK_HALF_OPEN
                    });
                }
            }
        }
    }
    if attackers >= 2 {
        sums.mg += (units * units * KING_ATTACK_SCALE / 100).min(KING_ATTACK_MAX);
    }

    if (board.bishops() & ours).more_than_one() {
        sums.add(BISHOP_PAIR);
    }

    // Pawn shield of a king that stayed home.
    if let Some(king) = board.king_of(us) {
        let i = king as usize;
        let home = if us == Color::White {
            i / 8 <= 1
        } else {
            i / 8 >= 6
        };
        if home {
            let front = match us {
                Color::White => king_attacks(king).0 & (0xFFu64 << ((i / 8 + 1) * 8)),
                Color::Black => king_attacks(king).0 & (0xFFu64 << ((i / 8).saturating_sub(1) * 8)),
            };
            sums.mg += KING_SHIELD * (front & our_pawns).count_ones() as i32;
        }
    }
    sums
}

/// With no pawns left on one side and a clear material lead on the other, drive the lone king to the edge and
/// bring the kings together, so a won ending is won rather than shuffled.
fn mopup(board: &Board) -> i32 {
    let (Some(wk), Some(bk)) = (board.king_of(Color::White), board.king_of(Color::Black)) else {
        return 0;
    };
    let material = |c: Color| -> i32 {
        [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .map(|r| EG_VALUE[role_index(r)] * (board.by_role(r) & board.by_color(c)).count() as i32)
            .sum()
    };
    let (w, b) = (material(Color::White), material(Color::Black));
    let lead = w - b;
    let (strong_king, weak_king, sign) = if lead >= EG_VALUE[3] && b <= EG_VALUE[0] * 2 {
        (wk, bk, 1)
    } else if -lead >= EG_VALUE[3] && w <= EG_VALUE[0] * 2 {
        (bk, wk, -1)
    } else {
        return 0;
    };
    sign * (MOPUP_CENTRE * centre_distance(weak_king)
        + MOPUP_CLOSE * (14 - manhattan(strong_king, weak_king)))
}

fn centre_distance(sq: Square) -> i32 {
    let f = u32::from(sq.file()) as i32;
    let r = u32::from(sq.rank()) as i32;
    (3 - f).max(f - 4) + (3 - r).max(r - 4)
}

fn manhattan(a: Square, b: Square) -> i32 {
    let df = u32::from(a.file()) as i32 - u32::from(b.file()) as i32;
    let dr = u32::from(a.rank()) as i32 - u32::from(b.rank()) as i32;
    df.abs() + dr.abs()
}

/// Endings where the side ahead has no pawns and at most a minor piece more are hard or impossible to win:
/// shrink the score so the search prefers keeping pawns.
fn scale_drawish(board: &Board, score: i32) -> i32 {
    let strong = if score > 0 { Color::White } else { Color::Black };
    if (board.pawns() & board.by_color(strong)).any() {
        return score;
    }
    let pieces = |c: Color| -> i32 {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .map(|r| MG_VALUE[role_index(r)] * (board.by_role(r) & board.by_color(c)).count() as i32)
            .sum()
    };
    if pieces(strong) - pieces(!strong) <= MG_VALUE[2] {
        score / 4
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use parlor_chess::Position;

    fn eval(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).unwrap().0)
    }

    #[test]
    fn start_position_is_level_and_symmetric() {
        let start = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(start, TEMPO);
        // The same position with colours swapped scores the same for the side to move.
        let a = eval("r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4");
        let b = eval("r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(a, b);
        for fen in [
            "rnbqkb1r/pp3ppp/4pn2/2pp4/3P4/2P1PN2/PP3PPP/RNBQKB1R w KQkq - 0 5",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            assert_eq!(eval(fen), eval(&mirror(fen)), "{fen}");
        }
    }

    /// The same position with the colours swapped and the board turned over.
    fn mirror(fen: &str) -> String {
        let parts: Vec<&str> = fen.split(' ').collect();
        let swap = |s: &str| {
            s.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect::<String>()
        };
        let board: Vec<String> = parts[0].split('/').rev().map(swap).collect();
        let turn = if parts[1] == "w" { "b" } else { "w" };
        let castling = if parts[2] == "-" {
            "-".to_owned()
        } else {
            swap(parts[2])
        };
        format!("{} {turn} {castling} - 0 1", board.join("/"))
    }

    #[test]
    fn material_counts() {
        // White is a queen up.
        assert!(eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") > 800);
        assert!(eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1") < -800);
    }

    #[test]
    fn lone_minor_piece_is_scaled_down() {
        assert!(eval("8/8/4k3/8/8/2N5/4K3/8 w - - 0 1") < 120);
    }
}
