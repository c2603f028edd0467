//! The bitboards of one position and how a move changes them.

use crate::moves::Move;
use crate::rule::Rule;

/// A side: White (bottom of the diagram, moving up) or Black (top, moving down).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White: its men start on the bottom rows (21-32 or 31-50) and move up.
    White = 0,
    /// Black: its men start on squares 1-12 (or 1-20) and move down.
    Black = 1,
}

impl Color {
    /// The other side.
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The letter used in FEN and PDN: `W` or `B`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

/// The pieces and the side to move, as bitboards in the padded layout of [`crate::rule`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Board {
    /// Pieces of each side, indexed by [`Color::index`].
    pub(crate) pieces: [u64; 2],
    /// Kings of both sides.
    pub(crate) kings: u64,
    /// The side to move.
    pub(crate) turn: Color,
}

impl Board {
    /// Every occupied bit.
    #[inline(always)]
    pub(crate) fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }

    /// The squares a man of `color` is crowned on.
    #[inline(always)]
    pub(crate) fn crown_row<R: Rule>(color: Color) -> u64 {
        match color {
            Color::White => R::TOP_ROW,
            Color::Black => R::BOTTOM_ROW,
        }
    }

    /// Plays a move generated for this board.
    #[inline(always)]
    pub(crate) fn play(&mut self, m: Move) {
        let us = self.turn.index();
        let them = self.turn.other().index();
        let from = 1u64 << m.from;
        let to = 1u64 << m.to;
        // `from` may equal `to` (a capture ring), so clear before setting.
        self.pieces[us] = (self.pieces[us] & !from) | to;
        self.pieces[them] &= !m.captured;
        let king_lands = (self.kings & from != 0) | m.promote;
        self.kings = (self.kings & !from & !m.captured) | (to * u64::from(king_lands));
        self.turn = self.turn.other();
    }

    /// A 64-bit hash of the pieces and the side to move (splitmix64 finaliser over each word).
    pub(crate) fn hash(&self) -> u64 {
        fn mix(mut z: u64) -> u64 {
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        let mut h = mix(self.pieces[0] ^ 0x9e37_79b9_7f4a_7c15);
        h = mix(h ^ self.pieces[1]);
        h = mix(h ^ self.kings.rotate_left(17));
        h ^ (self.turn as u64).wrapping_mul(0xd6e8_feb8_6659_fd93)
    }
}
