//! Pattern weights that correct the International draughts evaluation of a level whose
//! [`crate::params::LevelParams::patterns`] is set (hard), after the network ([`super::nn`]): the board, seen by the
//! side to move (turned when Black is to move, so that the side to move always plays up the board), is covered by
//! 16 overlapping areas of 4 x 4 squares (rows and columns starting at 0, 2, 4 and 6), each holding 8 playable
//! squares; the men on an area's squares (none, ours or theirs on each: 3^8 = 6,561 arrangements) pick one learnt
//! weight, and the correction is the sum of the 16 weights. A piece-square network sees each man alone; an area
//! sees a formation: a man held by the men behind it, a hole in a chain, a tail hanging on the edge. Kings count
//! as empty squares here (the evaluation and the network weigh them).
//!
//! The weights learn the residual between the evaluation with the network and a teacher's judgement of quiet
//! positions (Scan 2.0's scores from its own games, as `examples/draughts_datagen.rs` writes them: facts, not code).
//! Trained by `examples/draughts_patterns.rs`; embedded from `patterns.bin`.

use parlor_draughts::{Color, DraughtsVariant, Position};
use std::sync::LazyLock;

/// The areas.
pub const AREAS: usize = 16;
/// The arrangements of an area's 8 squares.
pub const ARRANGEMENTS: usize = 6561;
/// A stored weight is this many parts of a hundredth of a man.
pub const UNIT: i32 = 16;
/// The file's first bytes.
const MAGIC: &[u8; 4] = b"PPT1";
/// The byte length of a weights file: the magic, then every area's weights (i16, little-endian).
const BYTES: usize = 4 + 2 * AREAS * ARRANGEMENTS;

/// The men of a row (five bits, square `5 r + k` of row `r` is bit `k`) read as base-3 digits: `TERNARY[b]` sums
/// `3^k` over the bits `k` of `b`.
const TERNARY: [u64; 32] = {
    let mut table = [0u64; 32];
    let mut b = 0;
    while b < 32 {
        let (mut k, mut power) = (0, 1u64);
        while k < 5 {
            if b & (1 << k) != 0 {
                table[b] += power;
            }
            power *= 3;
            k += 1;
        }
        b += 1;
    }
    table
};

/// A row's five bits in reverse order (the row seen from the other side of the board).
const fn reversed(b: usize) -> usize {
    let (mut out, mut k) = (0, 0);
    while k < 5 {
        if b & (1 << k) != 0 {
            out |= 1 << (4 - k);
        }
        k += 1;
    }
    out
}

/// A row's arrangement (five base-3 digits `d_k`: 0 none, 1 ours, 2 theirs) cut into the row's parts of the
/// four area columns, packed as four 16-bit lanes: lane `j` holds `d_j + 3 d_(j+1)`, the row's part of the areas
/// whose columns start at `2 j`. Indexed by `ours << 5 | theirs`; `turned`, by the row of the other end of the
/// board (Black's men, then White's), read as Black sees it.
const fn lanes(turned: bool) -> [u64; 1024] {
    let mut table = [0u64; 1024];
    let mut i = 0;
    while i < 1024 {
        let (mut ours, mut theirs) = (i >> 5, i & 31);
        if turned {
            (ours, theirs) = (reversed(ours), reversed(theirs));
        }
        let code = TERNARY[ours] + 2 * TERNARY[theirs];
        let (mut j, mut power) = (0, 1);
        while j < 4 {
            table[i] |= ((code / power) % 9) << (16 * j);
            power *= 3;
            j += 1;
        }
        i += 1;
    }
    table
}

/// [`lanes`] of a row with White to move.
static LANES: [u64; 1024] = lanes(false);
/// [`lanes`] of a row with Black to move (the board turned).
static TURNED: [u64; 1024] = lanes(true);

/// The five men of row `r` (square `5 r + k` is bit `k`) of a bitboard in the bit layout of
/// [`Position::bitboards`], where square `s` (0-based) is bit `s + s / 10`.
#[inline]
fn row(bb: u64, r: usize) -> usize {
    ((bb >> (11 * (r / 2) + 5 * (r % 2))) & 31) as usize
}

/// The arrangement index of each area of `pos`, seen by the side to move: area `4 q + j` covers rows `2 q` to
/// `2 q + 3` and columns `2 j` to `2 j + 3`, its square in row `2 q + i`, digit `k` of the area's two, counting
/// `3^k 9^i`. Four areas are computed at once, one per 16-bit lane: the rows' lanes are summed in pairs of rows
/// (values under 81), and two pairs make an area (under 6,561).
#[inline]
pub fn areas_of(pos: &Position) -> [u16; AREAS] {
    let [white, black, kings] = pos.bitboards();
    let (white, black) = (white & !kings, black & !kings);
    let mut rows = [0u64; 10];
    if pos.side_to_move() == Color::White {
        for (r, lanes) in rows.iter_mut().enumerate() {
            *lanes = LANES[row(white, r) << 5 | row(black, r)];
        }
    } else {
        for (r, lanes) in rows.iter_mut().enumerate() {
            *lanes = TURNED[row(black, 9 - r) << 5 | row(white, 9 - r)];
        }
    }
    let pairs: [u64; 5] = std::array::from_fn(|p| rows[2 * p] + 9 * rows[2 * p + 1]);
    let mut out = [0u16; AREAS];
    for q in 0..4 {
        let area = pairs[q] + 81 * pairs[q + 1];
        for j in 0..4 {
            out[4 * q + j] = (area >> (16 * j)) as u16;
        }
    }
    out
}

/// Why a weights file cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PatternsError {
    /// It does not start with the magic bytes.
    #[error("not a Parlor pattern weights file")]
    Magic,
    /// It is not the length the areas take.
    #[error("the pattern weights file is {0} bytes, not {BYTES}")]
    Length(usize),
}

/// Learnt weights, area-major: `weights[area * ARRANGEMENTS + arrangement]`, in 1/[`UNIT`] hundredths of a man.
#[derive(Clone, Debug)]
pub struct Patterns {
    weights: Vec<i16>,
}

impl Patterns {
    /// The weights of a file [`Patterns::to_bytes`] wrote.
    ///
    /// # Errors
    /// When the bytes are not such a file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Patterns, PatternsError> {
        if bytes.get(..4) != Some(MAGIC.as_slice()) {
            return Err(PatternsError::Magic);
        }
        if bytes.len() != BYTES {
            return Err(PatternsError::Length(bytes.len()));
        }
        let weights = bytes[4..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(Patterns { weights })
    }

    /// Quantises weights given in hundredths of a man, area-major (`AREAS * ARRANGEMENTS` of them).
    pub fn from_hundredths(weights: &[f32]) -> Patterns {
        let limit = f32::from(i16::MAX);
        Patterns {
            weights: weights
                .iter()
                .map(|w| (w * UNIT as f32).round().clamp(-limit, limit) as i16)
                .collect(),
        }
    }

    /// The file [`Patterns::from_bytes`] reads.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(BYTES);
        bytes.extend_from_slice(MAGIC);
        for w in &self.weights {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        bytes
    }

    /// The correction of `pos`, in hundredths of a man for the side to move.
    pub fn correction(&self, pos: &Position) -> i32 {
        let areas = areas_of(pos);
        let sum: i32 = areas
            .iter()
            .enumerate()
            .map(|(a, &index)| i32::from(self.weights[a * ARRANGEMENTS + usize::from(index)]))
            .sum();
        sum / UNIT
    }
}

/// The weights built into this binary.
static PATTERNS: LazyLock<Option<Patterns>> =
    LazyLock::new(|| Patterns::from_bytes(include_bytes!("patterns.bin")).ok());

/// The built-in weights' correction of the evaluation of `pos`, in hundredths of a man for the side to move; 0 for
/// the other variants (and if the built-in file were unreadable, which a test rules out).
#[inline]
pub fn correction(pos: &Position) -> i32 {
    if pos.variant() != DraughtsVariant::International {
        return 0;
    }
    PATTERNS.as_ref().map_or(0, |p| p.correction(pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_weights_read_and_write_back_unchanged() {
        let bytes = include_bytes!("patterns.bin");
        let patterns = Patterns::from_bytes(bytes).expect("the built-in weights");
        assert_eq!(patterns.to_bytes(), bytes.to_vec());
        assert_eq!(
            Patterns::from_bytes(&bytes[..100]).err(),
            Some(PatternsError::Length(100))
        );
        assert_eq!(Patterns::from_bytes(b"PNN1").err(), Some(PatternsError::Magic));
    }

    #[test]
    fn each_area_holds_the_men_on_its_squares() {
        // White to move: squares 6 and 2 (the far corner area) hold a white and a black man, square 50 a white
        // one (the near corner area), and a king counts as empty.
        let pos = Position::from_fen(DraughtsVariant::International, "W:W6,50,K28:B2,K23").expect("fen");
        let areas = areas_of(&pos);
        // Area 0: rows 0-3, columns 0-3; square 2 is row 0, digit 1 (3^1 * 2); square 6 row 1, digit 0 (9^1 * 1).
        assert_eq!(areas[0], 3 * 2 + 9);
        // Area 15: rows 6-9, columns 6-9; square 50 is row 9, digit 4 of its row: the area's second of that row.
        assert_eq!(areas[15], 729 * 3);
        // Areas overlap: square 2 (column 3) is also area 1's (columns 2-5), its first of row 0.
        assert_eq!(areas[1], 2);
        let quiet = areas.iter().enumerate().filter(|&(a, _)| a > 1 && a != 15);
        assert!(quiet.clone().all(|(_, &i)| i == 0), "{areas:?}");
        // Turned round with the colours swapped, Black to move: the same areas.
        let black = Position::from_fen(DraughtsVariant::International, "B:W49,K28:B45,1,K23").expect("fen");
        assert_eq!(areas_of(&black), areas);
    }

    /// The areas of `pos` read square by square: square `s` (0-based, as the side to move sees the board) of row
    /// `2 q + i`, column digit `k` of area `4 q + j`, counts `3^k 9^i` times 1 for our man, 2 for theirs.
    fn areas_square_by_square(pos: &Position) -> [u16; AREAS] {
        let us = pos.side_to_move();
        let mut out = [0u16; AREAS];
        for (a, index) in out.iter_mut().enumerate() {
            let (top, j) = (2 * (a / 4), a % 4);
            for i in 0..4 {
                for k in 0..2 {
                    let s = 5 * (top + i) + j + k;
                    let square = if us == Color::White { s } else { 49 - s };
                    let digit = match pos.piece_at(square as u32 + 1) {
                        Some(p) if !p.king && p.color == us => 1,
                        Some(p) if !p.king => 2,
                        _ => 0,
                    };
                    *index += digit * 3u16.pow(k as u32) * 9u16.pow(i as u32);
                }
            }
        }
        out
    }

    #[test]
    fn the_areas_of_positions_of_random_games_are_their_squares() {
        let mut rng = crate::rng::Rng::new(44);
        let mut checked = 0;
        for _ in 0..100 {
            let mut pos = Position::start(DraughtsVariant::International);
            for _ in 0..120 {
                assert_eq!(areas_of(&pos), areas_square_by_square(&pos), "{}", pos.to_fen());
                checked += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        assert!(checked > 5000, "{checked} positions");
    }

    #[test]
    fn a_position_and_its_colour_mirror_get_the_same_correction() {
        let (white, black) = super::super::nn::tests::colour_mirrors();
        assert_eq!(areas_of(&white), areas_of(&black));
        assert_eq!(correction(&white), correction(&black));
        assert_eq!(correction(&Position::start(DraughtsVariant::English)), 0);
    }
}
