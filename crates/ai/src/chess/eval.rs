//! The chess evaluation: material and piece-square tables tapered between middlegame and endgame by the
//! remaining pieces (the tapered eval of Fruit and most engines since), plus linear terms ([`feature`]: pawn
//! structure (isolated, doubled, backward, connected pawns), passed pawns, mobility, rooks, outposts, minor pieces
//! behind pawns, the bishop pair and bad bishops, space, king shelter, pawn storms and weak squares near the king,
//! threats, hanging pieces, attacks and safe checks near the king), the square of the attack on the king, and a
//! mop-up term for won endings.
//!
//! The tables are our own, written as boards seen from White (rank 8 on top); the other weights are in
//! `params.rs`. All of them except the king attack's square term come from `tune.rs`.

use crate::params::{
    BACKWARD, BISHOP_PAIR, BISHOP_PAWNS, CONNECTED, CONNECTED_RANK, DOUBLED, EG_VALUE, HANGING, ISOLATED,
    KING_ATTACK, KING_ATTACK_MAX, KING_ATTACK_SCALE, KING_ATTACK_WEIGHT, KING_OPEN_FILE, KING_SHIELD,
    KING_ZONE_WEAK, MG_VALUE, MINOR_BEHIND_PAWN, MOBILITY, MOBILITY_CENTRE, MOPUP_CENTRE, MOPUP_CLOSE,
    OUTPOST, PASSED, PASSED_FREE, PASSED_KINGS, PAWN_STORM, PHASE_MAX, PHASE_WEIGHT, ROOK_HALF_OPEN,
    ROOK_OPEN, ROOK_SEVENTH, SAFE_CHECK, SPACE, TEMPO, THREAT_BY_MINOR, THREAT_BY_PAWN, THREAT_BY_ROOK,
};
use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Chess, Color, Position as _, Role, Square};

#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
       0,   0,   0,   0,   0,   0,   0,   0,
      49,  47,  47,  57,  55,  49,  48,  48,
       4,   6,  13,  13,  24,  14,  15,   5,
     -23, -18, -11,   4,  10,   2, -13, -20,
     -25, -28,  -9,  -3,  -9,  -4, -15, -28,
     -26, -25, -24, -19, -19, -15,  -1, -19,
     -28, -26, -27, -37, -31,  -4,   6, -22,
       0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
       0,   0,   0,   0,   0,   0,   0,   0,
      61,  69,  60,  56,  55,  65,  66,  65,
      31,  32,  19,  -2,  -2,   6,  27,  26,
       5,  -3, -14, -26, -25, -20,  -9, -14,
     -17, -22, -27, -26, -19, -26, -25, -25,
     -13, -19, -22, -27, -23, -23, -36, -30,
      -7, -11, -16, -19, -14, -20, -27, -27,
       0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
     -57, -29, -19, -14, -12, -19, -29, -52,
     -30,  -6,   8,  10,  13,   9,  -8, -24,
     -14,  10,  24,  35,  28,  26,  14, -10,
      -3,  19,  32,  39,  17,  36,  12,  -1,
       3,   6,  27,  22,  23,  26,  12,  -6,
     -13,  12,   5,  17,  20,  18,  22, -15,
     -24, -10,  -3,  14,  15,   8,  -5, -22,
     -44, -13, -18,  -8, -14, -12, -11, -44,
];
#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
     -44, -20, -11, -10,  -5, -17, -20, -40,
     -21,  -2,  10,   8,  12,   2,  -7, -20,
     -15,   6,  21,  26,  20,  16,   5, -13,
      -6,  12,  28,  30,  28,  23,  14,  -6,
      -7,  10,  24,  26,  30,  15,   4,  -6,
     -10,  11,  11,  19,  18,   7,   8, -14,
     -21,  -4,   3,   6,   5,   4,  -2, -20,
     -35, -20, -14,  -7, -10, -13, -15, -34,
];
#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
     -19, -11, -11, -11, -12, -11, -11, -21,
     -19,  -5,  -5,  -2,  -1,  -1,  -4, -18,
     -11,   2,   3,  10,  10,  11,   2,   2,
     -10,   9,   2,  21,  12,   6,   4,  -4,
      -3,  -3,   6,  19,  18,   2,  -1, -10,
       2,  16,  16,  11,   7,  16,  19,   0,
      -2,  12,   5,   6,   6,  -1,  30, -10,
     -20, -14,  -1, -12, -12, -13, -12, -17,
];
#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
     -13,  -7,  -6,  -6,   0,  -5,  -7,  -8,
      -8,  -4,  -1,   5,   0,   0,  -1,  -9,
      -5,   4,   8,   3,  10,  15,   4,  -2,
      -1,   5,   1,  13,  11,  10,   2,  -2,
       1,   3,  16,   6,  10,   9,   1,  -6,
      -3,   0,  23,   6,  20,   8,   3,   2,
      -5,   1,   1,   0,   1,   0,  -4, -11,
     -10, -11,  -2,  -4,  -7,  -8, -10, -11,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
       6,  10,  10,  10,  10,   9,   7,   7,
       8,  17,  22,  26,  21,  23,  20,  15,
      -2,   5,   5,   8,   5,   3,   2,  -1,
      -5,  -2,   8,   5,   7,   4,   1,  -6,
     -13,  -7,   0,   1,  -2,  -1,  -6,  -8,
     -15,  -9, -10,  -2,  -9,  -6,   0,  -8,
     -21, -13,  -8,  -5,  -6,  -1,  -9, -22,
     -11,  -4,  -1,   2,   7,   0, -32, -12,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
       5,  14,   8,   5,   4,   7,   9,  16,
      12,  15,  12,  16,  14,  12,  10,   8,
      11,  11,   7,   4,   3,   3,   3,   7,
       7,   4,   8,   7,   7,   6,   3,   2,
      -1,  -3,   2,  -1,   0,  -2,  -4,  -1,
      -6,  -3,  -1,  -7,  -7,  -4,  -2,  -6,
     -17, -13,  -9, -14, -13, -12, -12, -11,
      -4, -11,  -8, -10, -20, -11,  -4, -27,
];
#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
     -19,  -7,  -6,   1,  -1,  -6,  -6, -16,
     -19,  -6,   4,   7,   7,   7,   6,  -1,
     -14,   4,   5,   9,  15,  20,   8,  -1,
      -6,  -3,   3,   3,   6,  14,   2,   1,
       0, -10,   4,   3,   5,   9,   1,  -5,
      -5,   3,   4,   0,  11,   9,   7,  -8,
      -8,  -2,   8,   7,   9,   7,   4,  -7,
     -15,  -5,  -1,   9,  -5, -10,  -8, -17,
];
#[rustfmt::skip]
const QUEEN_EG: [i32; 64] = [
     -20, -11,  -9,  -2,  -4,  -9,  -9, -19,
     -12,   1,   8,  10,   8,   7,   0,  -9,
     -13,   6,  10,  12,  14,  17,   8,  -6,
      -6,   5,   9,  15,  18,  13,   7,  -3,
      -6,   3,   9,  17,  12,   8,   5,  -8,
     -12,   1,   9,   9,   7,  12,   4, -11,
     -11,  -1,  -3,   3,   0,   3,  -2, -10,
     -20, -10,  -9, -13,  -6, -14, -11, -20,
];
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
     -40, -50, -50, -60, -60, -50, -50, -40,
     -40, -50, -50, -60, -60, -50, -50, -40,
     -40, -50, -50, -59, -60, -50, -49, -40,
     -40, -49, -50, -59, -59, -49, -49, -40,
     -30, -40, -41, -51, -52, -41, -42, -31,
     -20, -29, -30, -40, -35, -31, -26, -21,
      10,   9,   0, -26, -25,  -6,  22,  18,
      16,  31,  16, -25,  12, -11,  45,  26,
];
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
     -50, -35, -25, -20, -21, -25, -35, -50,
     -29, -11,  -4,   1,   1,  -6, -13, -31,
     -22,   5,  22,  27,  23,  24,   7, -19,
     -20,   5,  21,  33,  30,  18,   7, -14,
     -23,  -2,  20,  27,  21,  17,  -2, -25,
     -28,  -5,   9,  17,  18,  10,  -7, -25,
     -31, -18,  -3,  10,   6,  -1, -14, -36,
     -52, -46, -28, -23, -35, -26, -46, -60,
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
/// The dark squares (a1, c1, b2, ...).
const DARK_SQUARES: u64 = 0xAA55_AA55_AA55_AA55;

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
}

/// The linear terms besides material and tables, as indices into [`Features::counts`] (the tuner's weights).
pub mod feature {
    /// A passed pawn on rank `PASSED + r` (rank from its own side, 0 = rank 1).
    pub const PASSED: usize = 0;
    /// An isolated pawn.
    pub const ISOLATED: usize = 8;
    /// Each extra pawn on a file.
    pub const DOUBLED: usize = 9;
    /// Safe squares a knight, bishop, rook, queen reaches (`MOBILITY + k`), centred.
    pub const MOBILITY: usize = 10;
    /// A rook on a file without pawns.
    pub const ROOK_OPEN: usize = 14;
    /// A rook on a file with only enemy pawns.
    pub const ROOK_HALF_OPEN: usize = 15;
    /// Two bishops or more.
    pub const BISHOP_PAIR: usize = 16;
    /// A pawn in front of a king that stayed home.
    pub const KING_SHIELD: usize = 17;
    /// An enemy knight, bishop, rook or queen attacked by one of our pawns.
    pub const THREAT_BY_PAWN: usize = 18;
    /// An enemy rook or queen attacked by one of our knights or bishops.
    pub const THREAT_BY_MINOR: usize = 19;
    /// An enemy queen attacked by one of our rooks.
    pub const THREAT_BY_ROOK: usize = 20;
    /// A passed pawn whose next square is empty, counted by its rank from its own side (so times 1 to 6).
    pub const PASSED_FREE: usize = 21;
    /// A passed pawn: the enemy king's distance to the square in front of it minus our king's, at most 5 each.
    pub const PASSED_KINGS: usize = 22;
    /// A pawn defended by one of ours or with one of ours beside it.
    pub const CONNECTED: usize = 23;
    /// A rook on the seventh rank from its side.
    pub const ROOK_SEVENTH: usize = 24;
    /// A knight or bishop on ranks 4 to 6 from its side, defended by a pawn of ours.
    pub const OUTPOST: usize = 25;
    /// A file next to or under our king without a pawn of ours.
    pub const KING_OPEN_FILE: usize = 26;
    /// An enemy knight, bishop, rook or queen we attack and it does not defend.
    pub const HANGING: usize = 27;
    /// Attack units on the squares next to the enemy king (linear; the square term is fixed).
    pub const KING_ATTACK: usize = 28;
    /// A square from which one of our pieces could check the enemy king and that the enemy does not attack.
    pub const SAFE_CHECK: usize = 29;
    /// A pawn without a pawn of ours beside or behind it on the files next to it, whose next square an enemy
    /// pawn attacks.
    pub const BACKWARD: usize = 30;
    /// A connected pawn (see [`CONNECTED`]), counted by its rank from its own side (so times 1 to 6).
    pub const CONNECTED_RANK: usize = 31;
    /// A square next to our king that the enemy attacks and none of our pawns defends.
    pub const KING_ZONE_WEAK: usize = 32;
    /// An enemy pawn on the files of our king and next to it, on our third to fifth rank (a pawn storm).
    pub const PAWN_STORM: usize = 33;
    /// A pawn of ours on a square of the colour of one of our bishops, per bishop (a bad bishop).
    pub const BISHOP_PAWNS: usize = 34;
    /// A square on files c to f, our second to fourth rank, behind a pawn of ours and not attacked by an enemy
    /// pawn (space).
    pub const SPACE: usize = 35;
    /// A knight or bishop with a pawn of ours right in front of it.
    pub const MINOR_BEHIND_PAWN: usize = 36;
    /// How many there are.
    pub const COUNT: usize = 37;
}

/// Where [`side_rest`] puts what it finds: the evaluation adds the weights, the tuner counts the features.
trait Sink {
    /// `n` times the linear feature `index`, whose weight is `weight`.
    fn feature(&mut self, index: usize, weight: (i32, i32), n: i32);
    /// A term the tuner does not tune (attacks on the king grow as a square).
    fn fixed(&mut self, value: (i32, i32));
}

impl Sink for Sums {
    #[inline]
    fn feature(&mut self, _index: usize, (mg, eg): (i32, i32), n: i32) {
        self.mg += mg * n;
        self.eg += eg * n;
    }
    #[inline]
    fn fixed(&mut self, value: (i32, i32)) {
        self.add(value);
    }
}

/// The counts of the linear features of one side, and the value of its fixed terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Per [`feature`] index.
    pub counts: [i32; feature::COUNT],
    /// `(mg, eg)` of the terms that are not tuned.
    pub fixed: (i32, i32),
}

impl Default for Features {
    fn default() -> Features {
        Features {
            counts: [0; feature::COUNT],
            fixed: (0, 0),
        }
    }
}

impl Sink for Features {
    fn feature(&mut self, index: usize, _weight: (i32, i32), n: i32) {
        self.counts[index] += n;
    }
    fn fixed(&mut self, (mg, eg): (i32, i32)) {
        self.fixed.0 += mg;
        self.fixed.1 += eg;
    }
}

/// The weights of the linear features as `params.rs` has them, per [`feature`] index.
pub fn feature_weights() -> [(i32, i32); feature::COUNT] {
    let mut w = [(0, 0); feature::COUNT];
    w[feature::PASSED..feature::PASSED + 8].copy_from_slice(&PASSED);
    w[feature::ISOLATED] = ISOLATED;
    w[feature::DOUBLED] = DOUBLED;
    w[feature::MOBILITY..feature::MOBILITY + 4].copy_from_slice(&MOBILITY);
    w[feature::ROOK_OPEN] = ROOK_OPEN;
    w[feature::ROOK_HALF_OPEN] = ROOK_HALF_OPEN;
    w[feature::BISHOP_PAIR] = BISHOP_PAIR;
    w[feature::KING_SHIELD] = KING_SHIELD;
    w[feature::THREAT_BY_PAWN] = THREAT_BY_PAWN;
    w[feature::THREAT_BY_MINOR] = THREAT_BY_MINOR;
    w[feature::THREAT_BY_ROOK] = THREAT_BY_ROOK;
    w[feature::PASSED_FREE] = PASSED_FREE;
    w[feature::PASSED_KINGS] = PASSED_KINGS;
    w[feature::CONNECTED] = CONNECTED;
    w[feature::ROOK_SEVENTH] = ROOK_SEVENTH;
    w[feature::OUTPOST] = OUTPOST;
    w[feature::KING_OPEN_FILE] = KING_OPEN_FILE;
    w[feature::HANGING] = HANGING;
    w[feature::KING_ATTACK] = KING_ATTACK;
    w[feature::SAFE_CHECK] = SAFE_CHECK;
    w[feature::BACKWARD] = BACKWARD;
    w[feature::CONNECTED_RANK] = CONNECTED_RANK;
    w[feature::KING_ZONE_WEAK] = KING_ZONE_WEAK;
    w[feature::PAWN_STORM] = PAWN_STORM;
    w[feature::BISHOP_PAWNS] = BISHOP_PAWNS;
    w[feature::SPACE] = SPACE;
    w[feature::MINOR_BEHIND_PAWN] = MINOR_BEHIND_PAWN;
    w
}

/// Every square the pieces of `color` attack.
fn attacks_of(board: &Board, color: Color) -> u64 {
    let occupied = board.occupied();
    let ours = board.by_color(color);
    let mut all = pawn_attacks((board.pawns() & ours).0, color);
    for sq in board.knights() & ours {
        all |= knight_attacks(sq).0;
    }
    for sq in (board.bishops() | board.queens()) & ours {
        all |= bishop_attacks(sq, occupied).0;
    }
    for sq in (board.rooks() | board.queens()) & ours {
        all |= rook_attacks(sq, occupied).0;
    }
    if let Some(king) = board.king_of(color) {
        all |= king_attacks(king).0;
    }
    all
}

/// The evaluation of a position, in centipawns, for the side to move.
pub fn evaluate(pos: &Chess) -> i32 {
    evaluate_with(pos, &pawn_entry(pos.board()), psq(pos.board()))
}

/// Material and piece-square tables `(mg, eg)`, White minus Black: what a search keeps move by move
/// ([`psq_change`]) so that [`PawnCache::evaluate_kept`] need not sum every piece.
pub fn psq(board: &Board) -> (i32, i32) {
    let mut sums = [Sums::default(), Sums::default()];
    for (sq, piece) in board.iter() {
        let s = side(piece.color);
        sums[s].add(PST[s][role_index(piece.role)][sq as usize]);
    }
    (sums[0].mg - sums[1].mg, sums[0].eg - sums[1].eg)
}

/// What taking `piece` off `square` (`put` false) or putting it there (`put` true) adds to [`psq`].
#[inline]
pub fn psq_change(piece: shakmaty::Piece, square: Square, put: bool) -> (i32, i32) {
    let s = side(piece.color);
    let (mg, eg) = PST[s][role_index(piece.role)][square as usize];
    if put == (piece.color == Color::White) {
        (mg, eg)
    } else {
        (-mg, -eg)
    }
}

/// The pawn-structure terms of both sides, White minus Black, and the passed pawns of both.
#[derive(Clone, Copy, Debug, Default)]
struct PawnEntry {
    white: u64,
    black: u64,
    passed: u64,
    mg: i32,
    eg: i32,
}

fn pawn_entry(board: &Board) -> PawnEntry {
    let white = (board.pawns() & board.white()).0;
    let black = (board.pawns() & board.black()).0;
    let (mut w, mut b) = (Sums::default(), Sums::default());
    let passed =
        pawn_terms(white, black, Color::White, &mut w) | pawn_terms(black, white, Color::Black, &mut b);
    PawnEntry {
        white,
        black,
        passed,
        mg: w.mg - b.mg,
        eg: w.eg - b.eg,
    }
}

/// Slots of a [`PawnCache`] (32 bytes each, 128 KiB in all): room for many pawn structures (most moves of a
/// search leave the pawns alone), small enough to stay in the second-level cache.
const PAWN_CACHE_SLOTS: usize = 1 << 12;

/// The pawn-structure terms of the pawn structures met lately, keyed by the pawns themselves: most moves of a
/// search leave the pawns alone, so [`PawnCache::evaluate`] finds them here instead of computing them again. It
/// gives exactly what [`evaluate`] gives.
#[derive(Clone, Debug)]
pub struct PawnCache {
    slots: Vec<PawnEntry>,
}

impl Default for PawnCache {
    fn default() -> PawnCache {
        // An empty slot holds the entry of a board without pawns, which is right for that board.
        PawnCache {
            slots: vec![PawnEntry::default(); PAWN_CACHE_SLOTS],
        }
    }
}

impl PawnCache {
    /// [`evaluate`], with the pawn terms from the cache when it has them.
    pub fn evaluate(&mut self, pos: &Chess) -> i32 {
        self.evaluate_kept(pos, psq(pos.board()))
    }

    /// [`evaluate`], with the pawn terms from the cache when it has them and `psq`, the [`psq`] of `pos`, kept
    /// by the caller.
    #[inline]
    pub fn evaluate_kept(&mut self, pos: &Chess, psq: (i32, i32)) -> i32 {
        debug_assert_eq!(psq, self::psq(pos.board()), "the kept piece-square sums are off");
        let board = pos.board();
        let white = (board.pawns() & board.white()).0;
        let black = (board.pawns() & board.black()).0;
        let mix = white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        // The top bits of the mix pick the slot (the slot count is a power of two, at least 2).
        let index = (mix >> (64 - self.slots.len().trailing_zeros())) as usize;
        let slot = &mut self.slots[index];
        if slot.white != white || slot.black != black {
            *slot = pawn_entry(board);
        }
        evaluate_with(pos, slot, psq)
    }
}

/// The evaluation of `pos`, whose pawn terms are `pawns` and material and tables `psq`.
#[inline]
fn evaluate_with(pos: &Chess, pawns: &PawnEntry, psq: (i32, i32)) -> i32 {
    let board = pos.board();
    let mut phase = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        phase += PHASE_WEIGHT[role_index(role)] * board.by_role(role).count() as i32;
    }
    let phase = phase.min(PHASE_MAX);
    // Each side's pass computes every square it attacks, which the other side's last terms need.
    let (mut white, white_open) = side_sums(board, Color::White, pawns.passed & pawns.white);
    let (mut black, black_open) = side_sums(board, Color::Black, pawns.passed & pawns.black);
    white_open.close(black_open.attacks, &mut white);
    black_open.close(white_open.attacks, &mut black);
    let mg = white.mg - black.mg + pawns.mg + psq.0;
    let eg = white.eg - black.eg + pawns.eg + psq.1 + mopup(board);
    let mut score = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    score = scale_drawish(board, score);
    let score = if pos.turn() == Color::White { score } else { -score };
    score + TEMPO
}

/// What the tuner needs of a position: the piece-square entries of each side, and the other features.
#[derive(Clone, Debug)]
pub struct Terms {
    /// The phase, 0 (bare kings and pawns) to [`PHASE_MAX`].
    pub phase: i32,
    /// `(colour index, role index, table index)` of every piece: the entry of `TABLES` it reads (White 0).
    pub pieces: Vec<(u8, u8, u8)>,
    /// The other features, White minus Black.
    pub features: Features,
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
    let (mut w, mut b) = (Features::default(), Features::default());
    side_rest(board, Color::White, &mut w);
    side_rest(board, Color::Black, &mut b);
    let mut features = Features {
        counts: [0; feature::COUNT],
        fixed: (w.fixed.0 - b.fixed.0, w.fixed.1 - b.fixed.1),
    };
    for (i, count) in features.counts.iter_mut().enumerate() {
        *count = w.counts[i] - b.counts[i];
    }
    Some(Terms {
        phase: phase.min(PHASE_MAX),
        pieces,
        features,
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

/// One side's terms but material, tables, the pawn structure's and those [`Open::close`] adds; `passed` are our
/// passed pawns.
fn side_sums(board: &Board, us: Color, passed: u64) -> (Sums, Open) {
    let mut sums = Sums::default();
    let open = side_open(board, us, passed, &mut sums);
    (sums, open)
}

/// Every term of one side except material and tables.
fn side_rest(board: &Board, us: Color, sums: &mut impl Sink) {
    let our_pawns = (board.pawns() & board.by_color(us)).0;
    let their_pawns = (board.pawns() & board.by_color(!us)).0;
    let passed = pawn_terms(our_pawns, their_pawns, us, sums);
    side_open(board, us, passed, sums).close(attacks_of(board, !us), sums);
}

/// What one side's last terms need besides the squares the other side attacks, which that side's own pass
/// computes: [`evaluate`] runs both passes, then closes each with the other's attacks.
struct Open {
    /// Every square this side attacks.
    attacks: u64,
    /// Squares next to our king that none of our pawns defends.
    king_zone_open: u64,
    /// Squares from which one of our pieces would check the enemy king, not holding a piece of ours.
    check_squares: u64,
    /// Enemy knights, bishops, rooks and queens we attack.
    attacked_pieces: u64,
}

impl Open {
    /// Adds the terms that depend on the squares the enemy attacks (`their_attacks`).
    #[inline]
    fn close(&self, their_attacks: u64, sums: &mut impl Sink) {
        let weak = (self.king_zone_open & their_attacks).count_ones() as i32;
        if weak > 0 {
            sums.feature(feature::KING_ZONE_WEAK, KING_ZONE_WEAK, weak);
        }
        let safe_checks = (self.check_squares & !their_attacks).count_ones() as i32;
        if safe_checks > 0 {
            sums.feature(feature::SAFE_CHECK, SAFE_CHECK, safe_checks);
        }
        let hanging = (self.attacked_pieces & !their_attacks).count_ones() as i32;
        if hanging > 0 {
            sums.feature(feature::HANGING, HANGING, hanging);
        }
    }
}

/// The terms of one side that depend on the pawns alone (the pawn structure, space): they are the same in
/// every position with these pawns, so [`PawnCache`] keeps them. Returns our passed pawns.
fn pawn_terms(our_pawns: u64, their_pawns: u64, us: Color, sums: &mut impl Sink) -> u64 {
    let s = side(us);
    let their_pawn_attacks = pawn_attacks(their_pawns, !us);
    let our_pawn_attacks = pawn_attacks(our_pawns, us);
    // Rank `r` from our side, as a mask.
    let rank_mask = |r: usize| 0xFFu64 << (if us == Color::White { r } else { 7 - r } * 8);
    let mut passed = 0;
    for sq in Bitboard(our_pawns) {
        let i = sq as usize;
        let rank = if us == Color::White { i / 8 } else { 7 - i / 8 };
        if PASSED_SPAN[s][i] & their_pawns == 0 {
            sums.feature(feature::PASSED + rank, PASSED[rank], 1);
            passed |= 1u64 << i;
        }
        let file = FILE_A << (i % 8);
        let neighbours = ((file << 1) & !FILE_A) | ((file >> 1) & !FILE_H);
        if our_pawns & neighbours == 0 {
            sums.feature(feature::ISOLATED, ISOLATED, 1);
        }
        let bit = 1u64 << i;
        let beside = ((bit << 1) & !FILE_A) | ((bit >> 1) & !FILE_H);
        if our_pawn_attacks & bit != 0 || our_pawns & beside != 0 {
            sums.feature(feature::CONNECTED, CONNECTED, 1);
            sums.feature(feature::CONNECTED_RANK, CONNECTED_RANK, rank as i32);
        }
        // Backward: nothing of ours on the files beside it at its rank or behind, and its next square is
        // attacked by an enemy pawn.
        let behind = if us == Color::White {
            u64::MAX >> (63 - (i / 8 * 8 + 7))
        } else {
            u64::MAX << (i / 8 * 8)
        };
        let stop = if us == Color::White { bit << 8 } else { bit >> 8 };
        if our_pawns & neighbours & behind == 0 && their_pawn_attacks & stop != 0 {
            sums.feature(feature::BACKWARD, BACKWARD, 1);
        }
    }
    for f in 0..8 {
        let n = (our_pawns & (FILE_A << f)).count_ones() as i32;
        if n > 1 {
            sums.feature(feature::DOUBLED, DOUBLED, n - 1);
        }
    }
    // Space: safe squares behind our pawns in the centre of our half.
    let behind_pawns = if us == Color::White {
        (our_pawns >> 8) | (our_pawns >> 16) | (our_pawns >> 24)
    } else {
        (our_pawns << 8) | (our_pawns << 16) | (our_pawns << 24)
    };
    let centre_files = (FILE_A << 2) | (FILE_A << 3) | (FILE_A << 4) | (FILE_A << 5);
    let space = behind_pawns
        & centre_files
        & (rank_mask(1) | rank_mask(2) | rank_mask(3))
        & !our_pawns
        & !their_pawn_attacks;
    if space != 0 {
        sums.feature(feature::SPACE, SPACE, space.count_ones() as i32);
    }
    passed
}

/// Every term of one side except material, tables and those [`Open::close`] adds.
#[inline]
fn side_open(board: &Board, us: Color, passed: u64, sums: &mut impl Sink) -> Open {
    let them = !us;
    let occupied = board.occupied();
    let ours = board.by_color(us);
    let our_pawns = (board.pawns() & ours).0;
    let their_pawns = (board.pawns() & board.by_color(them)).0;
    let their_pawn_attacks = pawn_attacks(their_pawns, them);
    let their_king_zone = board.king_of(them).map_or(0, |k| king_attacks(k).0);
    let our_pawn_attacks = pawn_attacks(our_pawns, us);
    let theirs = board.by_color(them).0;
    let their_majors = (board.rooks() | board.queens()).0 & theirs;
    let their_queens = board.queens().0 & theirs;
    let (our_king, their_king) = (board.king_of(us), board.king_of(them));
    // Rank `r` from our side, as a mask.
    let rank_mask = |r: usize| 0xFFu64 << (if us == Color::White { r } else { 7 - r } * 8);

    // Passed pawns: what their kings and the square in front add.
    for sq in Bitboard(passed) {
        let i = sq as usize;
        let rank = if us == Color::White { i / 8 } else { 7 - i / 8 };
        let stop = if us == Color::White {
            i + 8
        } else {
            i.wrapping_sub(8)
        };
        if stop < 64 {
            if occupied.0 & (1u64 << stop) == 0 {
                sums.feature(feature::PASSED_FREE, PASSED_FREE, rank as i32);
            }
            if let (Some(ok), Some(tk)) = (our_king, their_king) {
                let stop = Square::new(stop as u32);
                let gap = tk.distance(stop).min(5) as i32 - ok.distance(stop).min(5) as i32;
                sums.feature(feature::PASSED_KINGS, PASSED_KINGS, gap);
            }
        }
    }
    let their_pieces = theirs & !their_pawns & !board.kings().0;
    let threatened = (our_pawn_attacks & their_pieces).count_ones() as i32;
    if threatened > 0 {
        sums.feature(feature::THREAT_BY_PAWN, THREAT_BY_PAWN, threatened);
    }
    if let Some(king) = our_king {
        let f = king as usize % 8;
        for file in f.saturating_sub(1)..=(f + 1).min(7) {
            if our_pawns & (FILE_A << file) == 0 {
                sums.feature(feature::KING_OPEN_FILE, KING_OPEN_FILE, 1);
            }
        }
    }

    if let Some(king) = our_king {
        let f = king as usize % 8;
        let mut files = 0u64;
        for file in f.saturating_sub(1)..=(f + 1).min(7) {
            files |= FILE_A << file;
        }
        let zone = rank_mask(2) | rank_mask(3) | rank_mask(4);
        let storm = (their_pawns & files & zone).count_ones() as i32;
        if storm > 0 {
            sums.feature(feature::PAWN_STORM, PAWN_STORM, storm);
        }
    }
    let minors = (board.knights() | board.bishops()).0 & ours.0;
    let in_front = if us == Color::White {
        minors << 8
    } else {
        minors >> 8
    };
    let blocked_minors = (in_front & our_pawns).count_ones() as i32;
    if blocked_minors > 0 {
        sums.feature(feature::MINOR_BEHIND_PAWN, MINOR_BEHIND_PAWN, blocked_minors);
    }
    for sq in board.bishops() & ours {
        let same = if (1u64 << (sq as usize)) & DARK_SQUARES != 0 {
            DARK_SQUARES
        } else {
            !DARK_SQUARES
        };
        let n = (our_pawns & same).count_ones() as i32;
        if n > 0 {
            sums.feature(feature::BISHOP_PAWNS, BISHOP_PAWNS, n);
        }
    }

    // Mobility and attacks near the enemy king.
    let safe = !ours.0 & !their_pawn_attacks;
    let mut units = 0;
    let mut attackers = 0;
    let mut our_attacks = our_pawn_attacks | our_king.map_or(0, |k| king_attacks(k).0);
    // Squares from which each of our roles would check their king.
    let checks = their_king.map(|k| {
        let bishop = bishop_attacks(k, occupied).0;
        let rook = rook_attacks(k, occupied).0;
        [knight_attacks(k).0, bishop, rook, bishop | rook]
    });
    let mut check_squares = 0u64;
    // Ranks 4 to 6 from our side, defended by a pawn of ours.
    let outpost_squares = (rank_mask(3) | rank_mask(4) | rank_mask(5)) & our_pawn_attacks;
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
            sums.feature(feature::MOBILITY + k, MOBILITY[k], n);
            our_attacks |= attacks;
            if let Some(checks) = &checks {
                check_squares |= attacks & checks[k];
            }
            match role {
                Role::Knight | Role::Bishop => {
                    let hit = (attacks & their_majors).count_ones() as i32;
                    if hit > 0 {
                        sums.feature(feature::THREAT_BY_MINOR, THREAT_BY_MINOR, hit);
                    }
                    if (1u64 << (sq as usize)) & outpost_squares != 0 {
                        sums.feature(feature::OUTPOST, OUTPOST, 1);
                    }
                }
                Role::Rook => {
                    if attacks & their_queens != 0 {
                        sums.feature(feature::THREAT_BY_ROOK, THREAT_BY_ROOK, 1);
                    }
                    if (1u64 << (sq as usize)) & rank_mask(6) != 0 {
                        sums.feature(feature::ROOK_SEVENTH, ROOK_SEVENTH, 1);
                    }
                }
                _ => {}
            }
            let hits = (attacks & their_king_zone).count_ones() as i32;
            if hits > 0 {
                attackers += 1;
                units += hits * KING_ATTACK_WEIGHT[k];
            }
            if role == Role::Rook {
                let file = FILE_A << (sq as usize % 8);
                if file & our_pawns == 0 {
                    if file & their_pawns == 0 {
                        sums.feature(feature::ROOK_OPEN, ROOK_OPEN, 1);
                    } else {
                        sums.feature(feature::ROOK_HALF_OPEN, ROOK_HALF_OPEN, 1);
                    }
                }
            }
        }
    }
    if attackers >= 2 {
        sums.fixed(((units * units * KING_ATTACK_SCALE / 100).min(KING_ATTACK_MAX), 0));
    }
    if units > 0 {
        sums.feature(feature::KING_ATTACK, KING_ATTACK, units);
    }
    let open = Open {
        attacks: our_attacks,
        king_zone_open: our_king.map_or(0, |k| king_attacks(k).0 & !our_pawn_attacks),
        check_squares: check_squares & !ours.0,
        attacked_pieces: their_pieces & our_attacks,
    };

    if (board.bishops() & ours).more_than_one() {
        sums.feature(feature::BISHOP_PAIR, BISHOP_PAIR, 1);
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
            sums.feature(
                feature::KING_SHIELD,
                KING_SHIELD,
                (front & our_pawns).count_ones() as i32,
            );
        }
    }
    open
}

/// With no pawns left on one side and a clear material lead on the other, drive the lone king to the edge and
/// bring the kings together, so a won ending is won rather than shuffled.
fn mopup(board: &Board) -> i32 {
    const {
        let mut role = 1;
        while role < 5 {
            assert!(EG_VALUE[role] >= EG_VALUE[0], "no man is worth less than a pawn");
            role += 1;
        }
    }
    let (Some(wk), Some(bk)) = (board.king_of(Color::White), board.king_of(Color::Black)) else {
        return 0;
    };
    // The weaker side may have at most two pawns' worth, so at most two men besides its king (no man is worth
    // less than a pawn): most positions stop here.
    let men = |c: Color| (board.by_color(c) & !board.kings()).count();
    if men(Color::White) > 2 && men(Color::Black) > 2 {
        return 0;
    }
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
pub(crate) mod tests {
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
            "4k3/R7/8/4N3/3P4/8/8/4K3 w - - 0 1",
            "7k/8/1P6/8/8/8/8/1K6 w - - 0 1",
            "r1bq1rk1/pp3ppp/2n1pn2/2pp4/1bPP4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 0 8",
        ] {
            assert_eq!(eval(fen), eval(&mirror(fen)), "{fen}");
        }
    }

    /// The same position with the colours swapped and the board turned over.
    pub(crate) fn mirror(fen: &str) -> String {
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

    /// Each feature is counted where the position has it, for the side that has it.
    #[test]
    fn features_are_counted_for_their_side() {
        let features = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap().0;
            let (mut white, mut black) = (Features::default(), Features::default());
            side_rest(pos.board(), Color::White, &mut white);
            side_rest(pos.board(), Color::Black, &mut black);
            (white.counts, black.counts)
        };
        // White's pawn on d5 attacks the knights on c6 and e6, which nothing defends.
        let (w, b) = features("4k3/8/2n1n3/3P4/8/8/8/4K3 w - - 0 1");
        assert_eq!((w[feature::THREAT_BY_PAWN], b[feature::THREAT_BY_PAWN]), (2, 0));
        assert_eq!((w[feature::HANGING], b[feature::HANGING]), (2, 0));
        // White's knight on c3 attacks the rook on b5 and the queen on d5; the rook on d1 sees the queen.
        let (w, b) = features("4k3/8/8/1r1q4/8/2N5/8/3RK3 w - - 0 1");
        assert_eq!((w[feature::THREAT_BY_MINOR], b[feature::THREAT_BY_MINOR]), (2, 0));
        assert_eq!((w[feature::THREAT_BY_ROOK], b[feature::THREAT_BY_ROOK]), (1, 0));
        // A white rook on the seventh rank, a knight on e5 defended by the pawn on d4.
        let (w, b) = features("4k3/R7/8/4N3/3P4/8/8/4K3 w - - 0 1");
        assert_eq!((w[feature::ROOK_SEVENTH], b[feature::ROOK_SEVENTH]), (1, 0));
        assert_eq!((w[feature::OUTPOST], b[feature::OUTPOST]), (1, 0));
        // A white passed pawn on b6 with b7 free (rank 6 from its side, index 5): the black king on h8 is 6
        // steps from b7 (counted as 5), the white king on b2 is 5.
        let (w, _) = features("7k/8/1P6/8/8/8/1K6/8 w - - 0 1");
        assert_eq!(w[feature::PASSED + 5], 1);
        assert_eq!(w[feature::PASSED_FREE], 5);
        assert_eq!(w[feature::PASSED_KINGS], 0);
        // Black's king on g8 behind f7, g7, h7; White's king on g1 has no pawn on f, g or h.
        let (w, b) = features("6k1/5ppp/8/8/8/8/PPP5/6K1 w - - 0 1");
        assert_eq!((w[feature::KING_OPEN_FILE], b[feature::KING_OPEN_FILE]), (3, 0));
        assert_eq!((w[feature::CONNECTED], b[feature::CONNECTED]), (3, 3));
        // The queen on d1 can check from d8 (guarded by nobody black) and from a4-e8 squares: at least one.
        let (w, _) = features("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert!(w[feature::SAFE_CHECK] >= 1);
    }

    /// The cache gives what the evaluation gives, in positions that share pawns and in those that do not, with
    /// a cache small enough for structures to evict one another.
    #[test]
    fn the_pawn_cache_gives_the_evaluation() {
        let mut cache = PawnCache::default();
        let mut tiny = PawnCache {
            slots: vec![PawnEntry::default(); 2],
        };
        let mut seen = 0;
        for fen in crate::positions::CHESS_POSITIONS {
            let root = Position::from_fen(fen).unwrap().0;
            for m in root.legal_moves() {
                let child = root.clone().play(m).unwrap();
                for m in child.legal_moves() {
                    let grandchild = child.clone().play(m).unwrap();
                    for pos in [&root, &child, &grandchild] {
                        let expected = evaluate(pos);
                        assert_eq!(cache.evaluate(pos), expected);
                        assert_eq!(tiny.evaluate(pos), expected);
                        seen += 1;
                    }
                }
            }
        }
        assert!(seen > 20_000, "{seen}");
        // A board without pawns reads an empty slot, which is its entry.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap().0;
        assert_eq!(PawnCache::default().evaluate(&pos), evaluate(&pos));
    }

    /// The pawn terms are the pawns' alone: two positions with the same pawns and other pieces have the same
    /// entry.
    #[test]
    fn pawn_terms_see_only_pawns() {
        let a = Position::from_fen("4k3/pp3p2/8/3P4/8/8/PP3PP1/4K3 w - - 0 1")
            .unwrap()
            .0;
        let b = Position::from_fen("r3k3/pp3p2/8/3P4/8/2N5/PP3PP1/4K2R w - - 0 1")
            .unwrap()
            .0;
        let (ea, eb) = (pawn_entry(a.board()), pawn_entry(b.board()));
        assert_eq!(
            (ea.white, ea.black, ea.passed, ea.mg, ea.eg),
            (eb.white, eb.black, eb.passed, eb.mg, eb.eg)
        );
        // d5 is passed (no black pawn on the c, d or e files in front of it); f7 is not (f2 and g2 stand in
        // front of it on the e, f and g files).
        assert_ne!(ea.passed & (1 << Square::D5 as u32), 0);
        assert_eq!(ea.passed & (1 << Square::F7 as u32), 0);
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
