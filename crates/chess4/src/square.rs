//! Squares of the 160-square board and the padded layout the move generator walks on.
//!
//! The 14x14 grid is stored 16 squares wide and 18 rows high: file `f`, rank `r` (both 0-based, a1 = (0, 0)) is
//! index `(r + 2) * 16 + f`. Columns 14-15 and the two rows below and above are padding, so a knight jump or a
//! slider step off the board always lands on an off-board cell instead of wrapping onto another rank. The four
//! 3x3 corners are off-board cells too.

use parlor_game::Coord;
use std::fmt;

/// Number of cells in the padded layout.
pub(crate) const CELLS: usize = 18 * 16;

/// The padded-layout index of every playing square, rank by rank from a1 (the generator's loop).
pub(crate) const PLAYING: [u16; 160] = {
    let mut out = [0u16; 160];
    let mut n = 0;
    let mut rank = 0;
    while rank < 14 {
        let mut file = 0;
        while file < 14 {
            if is_playing(file, rank) {
                out[n] = (rank as u16 + 2) * 16 + file as u16;
                n += 1;
            }
            file += 1;
        }
        rank += 1;
    }
    out
};

/// A square of the board (never a corner or a padding cell).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u16);

/// True if (file, rank) is one of the 160 playing squares.
pub const fn is_playing(file: u8, rank: u8) -> bool {
    file < 14 && rank < 14 && !((file < 3 || file > 10) && (rank < 3 || rank > 10))
}

impl Square {
    /// The square at `file` (0 = a) and `rank` (0 = 1), or `None` off the board or in a corner.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if is_playing(file, rank) {
            Some(Square((rank as u16 + 2) * 16 + file as u16))
        } else {
            None
        }
    }

    /// The square of a grid coordinate, if it is a playing square.
    pub const fn from_coord(c: Coord) -> Option<Square> {
        Square::from_coords(c.file, c.rank)
    }

    /// The index in the padded layout (callers inside the crate only).
    pub(crate) const fn from_index_unchecked(index: usize) -> Square {
        Square(index as u16)
    }

    /// The index in the padded layout.
    pub(crate) const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 0 = a.
    pub const fn file(self) -> u8 {
        (self.0 % 16) as u8
    }

    /// Rank, 0 = rank 1.
    pub const fn rank(self) -> u8 {
        (self.0 / 16 - 2) as u8
    }

    /// The grid coordinate (a1 = (0, 0)).
    pub const fn to_coord(self) -> Coord {
        Coord::new(self.file(), self.rank())
    }

    /// All 160 squares, rank by rank from a1.
    pub fn all() -> impl Iterator<Item = Square> {
        PLAYING.iter().map(|&i| Square(i))
    }

    /// Parses a square name such as `a4` or `n11`; `None` if it is not a playing square.
    pub fn parse(name: &str) -> Option<Square> {
        let bytes = name.as_bytes();
        let (&f, digits) = bytes.split_first()?;
        if !(b'a'..=b'n').contains(&f) || digits.is_empty() || digits.len() > 2 {
            return None;
        }
        if digits[0] == b'0' || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let rank = digits.iter().fold(0u8, |acc, d| acc * 10 + (d - b'0'));
        Square::from_coords(f - b'a', rank.checked_sub(1)?)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file()), self.rank() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_160_squares_and_names_round_trip() {
        assert_eq!(Square::all().count(), 160);
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
            assert_eq!(Square::from_coord(sq.to_coord()), Some(sq));
        }
        assert_eq!(Square::parse("a1"), None);
        assert_eq!(Square::parse("c3"), None);
        assert_eq!(Square::parse("d1").map(|s| s.to_coord()), Some(Coord::new(3, 0)));
        assert_eq!(Square::parse("o5"), None);
        assert_eq!(Square::parse("d15"), None);
        assert_eq!(Square::parse("d0"), None);
    }
}
