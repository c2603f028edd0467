//! The rules of each variant as compile-time constants, so one generic move generator serves all four.
//!
//! # Board layout
//! Squares are numbered as in PDN: 0-based `s` here is PDN square `s + 1`, row by row from the top (Black's side),
//! left to right, `h` dark squares per row (`h` = 4 on 8x8, 5 on 10x10). Square `s` lives in bit
//! `s + s / (2h)`: after every second row one "ghost" bit is left empty. With that padding the four diagonal
//! steps are plain shifts by `h` (down-left), `h + 1` (down-right), `-h` (up-right) and `-(h + 1)` (up-left), and a
//! step off the left or right edge lands on a ghost bit, which the board mask removes. This is the padded layout
//! used by most draughts programs (e.g. Scan, dctl); 8x8 needs 35 bits, 10x10 54.

use parlor_game::DraughtsVariant;

/// Down-left: towards White's side, one column left.
pub(crate) const DOWN_LEFT: usize = 0;
/// Down-right.
pub(crate) const DOWN_RIGHT: usize = 1;
/// Up-right: towards Black's side.
pub(crate) const UP_RIGHT: usize = 2;
/// Up-left.
pub(crate) const UP_LEFT: usize = 3;

/// The opposite direction of `d` (down-left <-> up-right, down-right <-> up-left).
#[inline(always)]
pub(crate) const fn opposite(d: usize) -> usize {
    d ^ 2
}

/// The two directions at right angles to `d`.
#[inline(always)]
pub(crate) const fn perpendicular(d: usize) -> [usize; 2] {
    [d ^ 1, d ^ 3]
}

/// The bit of 0-based square `s` on a board with `h` dark squares per row.
pub(crate) const fn bit_of(s: u32, h: u32) -> u32 {
    s + s / (2 * h)
}

/// The 0-based square of bit `b` (which must not be a ghost bit).
pub(crate) const fn square_of(b: u32, h: u32) -> u32 {
    b - b / (2 * h + 1)
}

/// The bits of 0-based squares `first..last` (exclusive).
const fn squares_mask(first: u32, last: u32, h: u32) -> u64 {
    let mut mask = 0;
    let mut s = first;
    while s < last {
        mask |= 1 << bit_of(s, h);
        s += 1;
    }
    mask
}

/// One variant's rules as constants. Implemented by zero-sized types; the generator is generic over it.
pub(crate) trait Rule: Copy + Send + Sync + 'static {
    /// Dark squares per row: 4 (8x8) or 5 (10x10).
    const H: u32;
    /// Men capture backward as well as forward.
    const MEN_CAPTURE_BACKWARD: bool;
    /// Kings move and capture at any distance.
    const FLYING_KINGS: bool;
    /// The capture taking the most pieces is compulsory.
    const MAJORITY: bool;
    /// A man reaching the far row during a capture is crowned at once and goes on capturing as a king.
    const CROWN_MID_CAPTURE: bool;

    /// Number of playable squares.
    const SQUARES: u32 = 2 * Self::H * Self::H;
    /// Every bit that is a square.
    const MASK: u64 = squares_mask(0, Self::SQUARES, Self::H);
    /// The top row (White men are crowned here).
    const TOP_ROW: u64 = squares_mask(0, Self::H, Self::H);
    /// The bottom row (Black men are crowned here).
    const BOTTOM_ROW: u64 = squares_mask(Self::SQUARES - Self::H, Self::SQUARES, Self::H);

    /// The left rotation that makes one step in each direction (down-left, down-right, up-right, up-left). A
    /// right shift by `k` is a left rotation by `64 - k`: the bits that wrap round land above bit 55, outside every
    /// board, and the mask clears them. One rotation and one mask, with no branch on the direction.
    const ROTATIONS: [u32; 4] = [Self::H, Self::H + 1, 64 - Self::H, 63 - Self::H];

    /// One diagonal step of every piece in `bb` in direction `d`; pieces stepping off the board vanish. `bb` must
    /// hold board squares only.
    #[inline(always)]
    fn step(bb: u64, d: usize) -> u64 {
        bb.rotate_left(Self::ROTATIONS[d & 3]) & Self::MASK
    }
}

/// English draughts / checkers.
#[derive(Copy, Clone, Debug)]
pub(crate) struct English;
/// International draughts.
#[derive(Copy, Clone, Debug)]
pub(crate) struct International;
/// Russian draughts.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Russian;
/// Pool checkers.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Pool;

impl Rule for English {
    const H: u32 = 4;
    const MEN_CAPTURE_BACKWARD: bool = false;
    const FLYING_KINGS: bool = false;
    const MAJORITY: bool = false;
    const CROWN_MID_CAPTURE: bool = false;
}

impl Rule for International {
    const H: u32 = 5;
    const MEN_CAPTURE_BACKWARD: bool = true;
    const FLYING_KINGS: bool = true;
    const MAJORITY: bool = true;
    const CROWN_MID_CAPTURE: bool = false;
}

impl Rule for Russian {
    const H: u32 = 4;
    const MEN_CAPTURE_BACKWARD: bool = true;
    const FLYING_KINGS: bool = true;
    const MAJORITY: bool = false;
    const CROWN_MID_CAPTURE: bool = true;
}

impl Rule for Pool {
    const H: u32 = 4;
    const MEN_CAPTURE_BACKWARD: bool = true;
    const FLYING_KINGS: bool = true;
    const MAJORITY: bool = false;
    const CROWN_MID_CAPTURE: bool = false;
}

/// Calls `$body` with the type alias `$r` bound to the rule type of `$variant` (one monomorphised copy each).
macro_rules! with_rule {
    ($variant:expr, $r:ident => $body:expr) => {
        match $variant {
            parlor_game::DraughtsVariant::English => {
                type $r = $crate::rule::English;
                $body
            }
            parlor_game::DraughtsVariant::International => {
                type $r = $crate::rule::International;
                $body
            }
            parlor_game::DraughtsVariant::Russian => {
                type $r = $crate::rule::Russian;
                $body
            }
            parlor_game::DraughtsVariant::Pool => {
                type $r = $crate::rule::Pool;
                $body
            }
        }
    };
}
pub(crate) use with_rule;

/// Board size facts that do not need the generic: squares per row and square count.
pub(crate) const fn half_width(variant: DraughtsVariant) -> u32 {
    match variant {
        DraughtsVariant::International => 5,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ghost_bits_catch_steps_off_the_side() {
        // PDN 5 (a7, left edge of the 8x8 board) has no down-left or up-left neighbour.
        let a7 = 1u64 << bit_of(4, 4);
        assert_eq!(English::step(a7, DOWN_LEFT), 0);
        assert_eq!(English::step(a7, UP_LEFT), 0);
        assert_eq!(English::step(a7, UP_RIGHT), 1 << bit_of(0, 4));
        assert_eq!(English::step(a7, DOWN_RIGHT), 1 << bit_of(8, 4));
        // PDN 4 (h8) has no down-right neighbour; 50 (i1 on 10x10) no downward one.
        assert_eq!(English::step(1 << bit_of(3, 4), DOWN_RIGHT), 0);
        assert_eq!(International::step(1 << bit_of(49, 5), DOWN_LEFT), 0);
        assert_eq!(International::MASK.count_ones(), 50);
        assert_eq!(English::MASK.count_ones(), 32);
        for s in 0..50 {
            assert_eq!(square_of(bit_of(s, 5), 5), s);
        }
    }
}
