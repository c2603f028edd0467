//! The draughts evaluation: material (kings worth more than men), advancement, back-rank guard, centre, edges,
//! mobility, tempo, trading down when ahead, and kings hunting in won endings. One function for all four
//! variants, from a board geometry computed once per variant.

use crate::params;
use parlor_draughts::{Color, DraughtsVariant, Position, square_coord};

/// Down-left, down-right, up-right, up-left: a man of White steps up (directions 2 and 3), Black's down.
const DIRECTIONS: [(i8, i8); 4] = [(-1, -1), (1, -1), (1, 1), (-1, 1)];

/// The board of one variant as the evaluation sees it: coordinates, neighbours and masks, indexed by the bits of
/// [`Position::bitboards`] (0-based square `s` is bit `s + s / (2h)`).
#[derive(Clone, Debug)]
pub struct Geometry {
    /// The variant.
    pub variant: DraughtsVariant,
    /// Number of playable squares (32 or 50).
    pub squares: usize,
    /// Rows of the board (8 or 10).
    pub rows: u8,
    /// Every bit that is a square.
    mask: u64,
    /// `(file, rank)` of each bit, rank 0 on White's side.
    coords: [(u8, u8); 64],
    /// Squares in the centre of the board.
    centre: u64,
    /// Squares on the left or right edge.
    edge: u64,
    /// Each side's back row (White: rank 0).
    back: [u64; 2],
    /// The value of a king.
    king_value: i32,
    /// For each of [`DIRECTIONS`], the bits that have a neighbour that way and the bit distance to it (the same
    /// for every square of the layout), so that a whole side's steps are one shift.
    steps: [(u64, i32); 4],
    /// The bits of each rank.
    ranks: [u64; 10],
}

/// The bits of `from` moved `delta` bits up (negative: down).
#[inline]
fn shift(from: u64, delta: i32) -> u64 {
    if delta >= 0 { from << delta } else { from >> -delta }
}

impl Geometry {
    /// The geometry of a variant.
    pub fn new(variant: DraughtsVariant) -> Geometry {
        let squares = Position::start(variant).square_count() as usize;
        let rows = if squares == 50 { 10u8 } else { 8u8 };
        let h = u32::from(rows) / 2;
        let bit_of = |s: u32| s + s / (2 * h);
        let mut coords = [(0u8, 0u8); 64];
        let mut mask = 0u64;
        for s in 0..squares as u32 {
            let c = square_coord(variant, s + 1);
            coords[bit_of(s) as usize] = (c.file, c.rank);
            mask |= 1 << bit_of(s);
        }
        let index_of = |file: i8, rank: i8| {
            (0..64u8).find(|&b| {
                mask & (1 << b) != 0
                    && i16::from(coords[usize::from(b)].0) == i16::from(file)
                    && i16::from(coords[usize::from(b)].1) == i16::from(rank)
            })
        };
        let mut neighbours = [[None; 4]; 64];
        let mut centre = 0u64;
        let mut edge = 0u64;
        let mut back = [0u64; 2];
        let (lo, hi) = if rows == 10 { (3, 6) } else { (2, 5) };
        for b in 0..64usize {
            if mask & (1 << b) == 0 {
                continue;
            }
            let (f, r) = coords[b];
            neighbours[b] = DIRECTIONS.map(|(df, dr)| index_of(f as i8 + df, r as i8 + dr));
            if (lo..=hi).contains(&f) && (lo..=hi).contains(&r) {
                centre |= 1 << b;
            }
            if f == 0 || f == rows - 1 {
                edge |= 1 << b;
            }
            if r == 0 {
                back[0] |= 1 << b;
            }
            if r == rows - 1 {
                back[1] |= 1 << b;
            }
        }
        // The layout puts every square's neighbour in one direction the same number of bits away (checked against
        // the neighbours square by square in the tests).
        let mut steps = [(0u64, 0i32); 4];
        for (b, around) in neighbours.iter().enumerate() {
            for (step, n) in steps.iter_mut().zip(around) {
                if let Some(n) = n {
                    *step = (step.0 | 1 << b, i32::from(*n) - b as i32);
                }
            }
        }
        let mut ranks = [0u64; 10];
        for (b, &(_, rank)) in coords.iter().enumerate() {
            if mask & (1 << b) != 0 {
                ranks[usize::from(rank)] |= 1 << b;
            }
        }
        let king_value = match variant {
            DraughtsVariant::English => params::DRAUGHTS_KING_SHORT,
            _ => params::DRAUGHTS_KING_FLYING,
        };
        Geometry {
            variant,
            squares,
            rows,
            mask,
            coords,
            centre,
            edge,
            back,
            king_value,
            steps,
            ranks,
        }
    }

    /// The value of a king in this variant.
    pub fn king_value(&self) -> i32 {
        self.king_value
    }
}

/// The pieces of a position as bitboards: men and kings of White (index 0) and Black (1).
#[derive(Copy, Clone, Debug, Default)]
struct Pieces {
    men: [u64; 2],
    kings: [u64; 2],
}

fn pieces(pos: &Position) -> Pieces {
    let [white, black, kings] = pos.bitboards();
    Pieces {
        men: [white & !kings, black & !kings],
        kings: [white & kings, black & kings],
    }
}

/// Iterates the set bits of a mask.
fn bits(mut bb: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bb != 0).then(|| {
            let i = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            i
        })
    })
}

/// The number of (piece, direction) pairs of `pieces` stepping to an empty square, over the directions `dirs`.
#[inline]
fn steps_into(geo: &Geometry, pieces: u64, empty: u64, dirs: &[usize]) -> i32 {
    dirs.iter()
        .map(|&d| {
            let (from, delta) = geo.steps[d];
            (shift(pieces & from, delta) & empty).count_ones() as i32
        })
        .sum()
}

/// The advancement of a side's `men`: the sum of the ranks they stand on, counted from that side.
#[inline]
fn advance_of(geo: &Geometry, men: u64, side: usize) -> i32 {
    let top = usize::from(geo.rows) - 1;
    (1..=top)
        .map(|r| {
            let rank = if side == 0 {
                geo.ranks[r]
            } else {
                geo.ranks[top - r]
            };
            r as i32 * (men & rank).count_ones() as i32
        })
        .sum()
}

/// A side's mobility: its men's steps forward and its kings' steps, each to an empty neighbour.
#[inline]
fn mobility_of(geo: &Geometry, p: &Pieces, side: usize, empty: u64) -> i32 {
    let forward: &[usize] = if side == 0 { &[2, 3] } else { &[0, 1] };
    steps_into(geo, p.men[side], empty, forward) + steps_into(geo, p.kings[side], empty, &[0, 1, 2, 3])
}

/// One side's terms, from that side's point of view (without the trade and tempo terms).
fn side_score(p: &Pieces, geo: &Geometry, side: usize, empty: u64, endgame_permille: i32) -> i32 {
    let men = p.men[side];
    let kings = p.kings[side];
    let mut score =
        params::DRAUGHTS_MAN * men.count_ones() as i32 + geo.king_value * kings.count_ones() as i32;
    // Advancement, growing as the board empties.
    let advance = advance_of(geo, men, side);
    let mobility = mobility_of(geo, p, side, empty);
    score += advance * params::DRAUGHTS_ADVANCE * (500 + endgame_permille) / 1000;
    score += mobility * params::DRAUGHTS_MOBILITY;
    if p.kings[1 - side] == 0 {
        score += params::DRAUGHTS_BACK_RANK * (men & geo.back[side]).count_ones() as i32;
    }
    score += params::DRAUGHTS_CENTRE * ((men | kings) & geo.centre).count_ones() as i32;
    score += params::DRAUGHTS_EDGE * (men & geo.edge).count_ones() as i32;
    score
}

/// Chebyshev distance between two squares.
fn distance(geo: &Geometry, a: usize, b: usize) -> i32 {
    let (fa, ra) = geo.coords[a];
    let (fb, rb) = geo.coords[b];
    i32::from(fa.abs_diff(fb).max(ra.abs_diff(rb)))
}

/// The evaluation from the side to move's point of view, in hundredths of a man.
pub fn evaluate(pos: &Position, geo: &Geometry) -> i32 {
    let p = pieces(pos);
    let all = p.men[0] | p.men[1] | p.kings[0] | p.kings[1];
    let full = if geo.squares == 50 { 40 } else { 24 };
    let count = all.count_ones() as i32;
    let empty_permille = (1000 * (full - count).max(0) / full).min(1000);
    let empty = !all & geo.mask;
    let white = side_score(&p, geo, 0, empty, empty_permille);
    let black = side_score(&p, geo, 1, empty, empty_permille);
    let mut score = white - black;
    // Trade down when ahead: the lead counts more on an emptier board.
    score += score * params::DRAUGHTS_TRADE_PERMILLE / 1000 * empty_permille / 1000;
    // In a won ending, the leader's kings close in on the enemy pieces.
    if count <= 10 && score.abs() >= params::DRAUGHTS_MAN {
        let leader = usize::from(score < 0);
        let targets = p.men[1 - leader] | p.kings[1 - leader];
        let mut far = 0;
        for k in bits(p.kings[leader]) {
            far += bits(targets).map(|t| distance(geo, k, t)).min().unwrap_or(0);
        }
        let hunt = far * params::DRAUGHTS_KING_HUNT;
        score += if leader == 0 { -hunt } else { hunt };
    }
    let own = if pos.side_to_move() == Color::White {
        score
    } else {
        -score
    };
    own + params::DRAUGHTS_TEMPO
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_start_is_about_even_and_material_counts() {
        for v in DraughtsVariant::ALL {
            let geo = Geometry::new(v);
            let e = evaluate(&Position::start(v), &geo);
            assert!(e.abs() <= 30, "{v}: {e}");
        }
        let geo = Geometry::new(DraughtsVariant::English);
        // White to move with an extra man, and with an extra king instead.
        let up = Position::from_fen(DraughtsVariant::English, "W:W21,22,30:B1,2").unwrap();
        assert!(evaluate(&up, &geo) > 50);
        let king = Position::from_fen(DraughtsVariant::English, "W:W21,22,K30:B1,2,3").unwrap();
        let man = Position::from_fen(DraughtsVariant::English, "W:W21,22,30:B1,2,3").unwrap();
        assert!(evaluate(&king, &geo) > evaluate(&man, &geo));
    }

    /// Each side's advancement and mobility walked square by square, to check the shifts against.
    fn walked(geo: &Geometry, p: &Pieces, side: usize, empty: u64) -> (i32, i32) {
        let top = i32::from(geo.rows) - 1;
        let free = |b: usize, (df, dr): (i8, i8)| {
            let (f, r) = geo.coords[b];
            (0..64).any(|n: usize| {
                geo.mask & (1 << n) != 0
                    && empty & (1 << n) != 0
                    && i16::from(geo.coords[n].0) == i16::from(f) + i16::from(df)
                    && i16::from(geo.coords[n].1) == i16::from(r) + i16::from(dr)
            })
        };
        let forward: &[usize] = if side == 0 { &[2, 3] } else { &[0, 1] };
        let (mut advance, mut mobility) = (0, 0);
        for b in bits(p.men[side]) {
            let rank = i32::from(geo.coords[b].1);
            advance += if side == 0 { rank } else { top - rank };
            mobility += forward.iter().filter(|&&d| free(b, DIRECTIONS[d])).count() as i32;
        }
        for b in bits(p.kings[side]) {
            mobility += DIRECTIONS.iter().filter(|&&d| free(b, d)).count() as i32;
        }
        (advance, mobility)
    }

    #[test]
    fn the_shifted_terms_equal_the_terms_walked_square_by_square() {
        let mut rng = crate::rng::Rng::from_seed_or_clock(Some(7));
        for v in DraughtsVariant::ALL {
            let geo = Geometry::new(v);
            for game in 0..20 {
                let mut pos = Position::start(v);
                for ply in 0..200 {
                    let p = pieces(&pos);
                    let all = p.men[0] | p.men[1] | p.kings[0] | p.kings[1];
                    let empty = !all & geo.mask;
                    for side in 0..2 {
                        let walked = walked(&geo, &p, side, empty);
                        let shifted = (
                            advance_of(&geo, p.men[side], side),
                            mobility_of(&geo, &p, side, empty),
                        );
                        assert_eq!(shifted, walked, "{v} game {game} ply {ply} side {side}");
                    }
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
                }
            }
        }
    }
}
