//! Seats at a table and the container indexed by them.

use std::fmt;
use std::ops::{Index, IndexMut};

/// A seat at a table, in turn order: the seat that moves first in the game's standard start is [`Seat::First`].
///
/// Chess: White is `First`, Black `Second`. Draughts: the side that moves first in the variant is `First`
/// (Black in English and Pool checkers, White in International and Russian draughts). Four-player chess:
/// Red, Blue, Yellow, Green are `First` to `Fourth` (clockwise from the bottom).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// The first seat (index 0).
    First = 0,
    /// The second seat (index 1).
    Second = 1,
    /// The third seat (index 2), four-player games only.
    Third = 2,
    /// The fourth seat (index 3), four-player games only.
    Fourth = 3,
}

impl Seat {
    /// All four seats in turn order.
    pub const ALL: [Seat; 4] = [Seat::First, Seat::Second, Seat::Third, Seat::Fourth];

    /// The seat's index, 0 to 3.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat with this index, if it is 0 to 3.
    pub const fn from_index(index: usize) -> Option<Seat> {
        match index {
            0 => Some(Seat::First),
            1 => Some(Seat::Second),
            2 => Some(Seat::Third),
            3 => Some(Seat::Fourth),
            _ => None,
        }
    }

    /// The next seat clockwise at a table of `seat_count` seats.
    pub const fn next(self, seat_count: usize) -> Seat {
        match Seat::from_index((self.index() + 1) % seat_count) {
            Some(seat) => seat,
            None => Seat::First,
        }
    }

    /// The seats of a table with `seat_count` seats (2 or 4), in turn order.
    pub fn range(seat_count: usize) -> impl Iterator<Item = Seat> + Clone {
        Seat::ALL.into_iter().take(seat_count)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.index() + 1)
    }
}

/// One value per seat of a table (two or four), indexed by [`Seat`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BySeat<T> {
    len: u8,
    values: [T; 4],
}

impl<T: Copy + Default> BySeat<T> {
    /// `seat_count` (2 to 4) copies of the default value.
    ///
    /// # Panics
    /// If `seat_count` is not 2, 3 or 4: a programming error, never a client's.
    pub fn new(seat_count: usize) -> BySeat<T> {
        BySeat::filled(seat_count, T::default())
    }

    /// `seat_count` (2 to 4) copies of `value`.
    ///
    /// # Panics
    /// If `seat_count` is not 2, 3 or 4.
    pub fn filled(seat_count: usize, value: T) -> BySeat<T> {
        assert!((2..=4).contains(&seat_count), "a table has 2 to 4 seats, not {seat_count}");
        BySeat { len: seat_count as u8, values: [value; 4] }
    }

    /// Values from a slice of 2 to 4 items, the first for [`Seat::First`].
    ///
    /// # Panics
    /// If the slice does not hold 2 to 4 items.
    pub fn from_slice(values: &[T]) -> BySeat<T> {
        let mut out = BySeat::new(values.len());
        out.values[..values.len()].copy_from_slice(values);
        out
    }
}

impl<T> BySeat<T> {
    /// How many seats.
    pub fn seat_count(&self) -> usize {
        usize::from(self.len)
    }

    /// The seats with their values, in turn order.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, &T)> {
        Seat::ALL.into_iter().zip(self.values.iter()).take(self.seat_count())
    }

    /// The values, in turn order.
    pub fn as_slice(&self) -> &[T] {
        &self.values[..self.seat_count()]
    }

    /// The seats, in turn order.
    pub fn seats(&self) -> impl Iterator<Item = Seat> + Clone + use<T> {
        Seat::range(self.seat_count())
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self.values[seat.index()]
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.values[seat.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_seat_wraps_around_the_table() {
        assert_eq!(Seat::Second.next(2), Seat::First);
        assert_eq!(Seat::Second.next(4), Seat::Third);
        assert_eq!(Seat::Fourth.next(4), Seat::First);
    }

    #[test]
    fn by_seat_iterates_only_the_table_seats() {
        let mut points = BySeat::<i32>::new(2);
        points[Seat::Second] = 3;
        assert_eq!(points.as_slice(), &[0, 3]);
        assert_eq!(points.iter().count(), 2);
    }
}
