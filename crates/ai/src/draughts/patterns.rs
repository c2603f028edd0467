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

/// Each 5-bit row of men read as base-3 digits of the given weight: `TERNARY[b]` sums `3^i` over the bits `i` of
/// `b`.
const TERNARY: [u16; 32] = {
    let mut table = [0u16; 32];
    let mut b = 0;
    while b < 32 {
        let (mut i, mut power, mut sum) = (0, 1u16, 0u16);
        while i < 5 {
            if b & (1 << i) != 0 {
                sum += power;
            }
            power *= 3;
            i += 1;
        }
        table[b] = sum;
        b += 1;
    }
    table
};

/// The five bits of a row in reverse order (the row seen from the other side of the board).
const REVERSED: [u8; 32] = {
    let mut table = [0u8; 32];
    let mut b = 0;
    while b < 32 {
        let mut i = 0;
        while i < 5 {
            if b & (1 << i) != 0 {
                table[b] |= 1 << (4 - i);
            }
            i += 1;
        }
        b += 1;
    }
    table
};

/// `PAIR[code][j]`: of a row's arrangement `code` (five base-3 digits), the two digits `j` and `j + 1`: the row's
/// part of an area whose columns start at `2 j`.
const PAIR: [[u16; 4]; 243] = {
    let mut table = [[0u16; 4]; 243];
    let mut code = 0;
    while code < 243 {
        let mut j = 0;
        let mut power = 1;
        while j < 4 {
            table[code][j] = ((code / power) % 9) as u16;
            power *= 3;
            j += 1;
        }
        code += 1;
    }
    table
};

/// The five men of row `r` (0 = the far row of the side to move; square `5 r + k` is bit `k`) of a bitboard in
/// the bit layout of [`Position::bitboards`], where square `s` (0-based) is bit `s + s / 10`.
#[inline]
fn row(bb: u64, r: usize) -> usize {
    ((bb >> (11 * (r / 2) + 5 * (r % 2))) & 31) as usize
}

/// The arrangement index of each area of `pos`, seen by the side to move.
pub fn areas_of(pos: &Position) -> [u16; AREAS] {
    let [white, black, kings] = pos.bitboards();
    let (white, black) = (white & !kings, black & !kings);
    let mut codes = [0usize; 10];
    for (r, code) in codes.iter_mut().enumerate() {
        let (ours, theirs) = if pos.side_to_move() == Color::White {
            (row(white, r), row(black, r))
        } else {
            let turned = 9 - r;
            (
                usize::from(REVERSED[row(black, turned)]),
                usize::from(REVERSED[row(white, turned)]),
            )
        };
        *code = usize::from(TERNARY[ours] + 2 * TERNARY[theirs]);
    }
    let mut out = [0u16; AREAS];
    for (a, index) in out.iter_mut().enumerate() {
        let (top, j) = (2 * (a / 4), a % 4);
        *index = PAIR[codes[top]][j]
            + 9 * PAIR[codes[top + 1]][j]
            + 81 * PAIR[codes[top + 2]][j]
            + 729 * PAIR[codes[top + 3]][j];
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

    #[test]
    fn a_position_and_its_colour_mirror_get_the_same_correction() {
        let (white, black) = super::super::nn::tests::colour_mirrors();
        assert_eq!(areas_of(&white), areas_of(&black));
        assert_eq!(correction(&white), correction(&black));
        assert_eq!(correction(&Position::start(DraughtsVariant::English)), 0);
    }
}
