//! The four-player evaluation: each seat's value is its game points (what decides the places), plus the material
//! it keeps (which makes future points possible), pawn advance, mobility, king safety and the pieces another seat
//! can take at a profit; an eliminated seat can score no more. The search sees the root seat's value minus the
//! mean of its opponents'.

use crate::params;
use parlor_chess4::game::DRAW_POINTS;
use parlor_chess4::{Position, Role, Square};
use parlor_game::{BySeat, Seat};

/// Off the board in [`Grid`].
const OFF: u8 = 0xFF;
/// A grey (eliminated) piece's owner in [`Grid`].
const GREY: u8 = 4;
const ROOK_DIRS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The board as a 14x14 grid of cells: `OFF`, 0 for empty, or `owner << 3 | role` (owner 0-3, or `GREY`).
struct Grid([[u8; 14]; 14]);

impl Grid {
    fn of(pos: &Position) -> Grid {
        let mut g = [[OFF; 14]; 14];
        for sq in Square::all() {
            g[usize::from(sq.file())][usize::from(sq.rank())] = match pos.piece_at(sq) {
                None => 0,
                Some(p) => (p.owner.map_or(GREY, |s| s.index() as u8) << 3) | p.role as u8,
            };
        }
        Grid(g)
    }

    #[inline]
    fn at(&self, f: i8, r: i8) -> u8 {
        if (0..14).contains(&f) && (0..14).contains(&r) {
            self.0[f as usize][r as usize]
        } else {
            OFF
        }
    }
}

fn role_index(code: u8) -> usize {
    usize::from((code & 7).saturating_sub(1))
}

/// Forward step of each seat's pawns, as (file, rank).
const PAWN_FORWARD: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// What the pieces on the board attack: for each cell, the cheapest attacker of another live seat (by material)
/// and whether a piece of the cell's own seat defends it.
struct Attacks {
    cheapest: [[i32; 14]; 14],
    defended: [[bool; 14]; 14],
}

impl Attacks {
    fn new() -> Attacks {
        Attacks {
            cheapest: [[i32::MAX; 14]; 14],
            defended: [[false; 14]; 14],
        }
    }

    /// A piece of `owner` worth `worth` reaches the cell at (`f`, `r`) holding `target` (a piece).
    #[inline]
    fn touch(&mut self, f: i8, r: i8, target: u8, owner: usize, worth: i32) {
        let (x, y) = (f as usize, r as usize);
        let of = usize::from(target >> 3);
        if of == owner {
            self.defended[x][y] = true;
        } else if of < 4 {
            self.cheapest[x][y] = self.cheapest[x][y].min(worth);
        }
    }
}

/// A piece's material for the threat test (a king attacks only what nobody defends).
fn attacker_worth(role: u8) -> i32 {
    if role == Role::King as u8 {
        i32::MAX - 1
    } else {
        params::CHESS4_MATERIAL[usize::from(role.saturating_sub(1))]
    }
}

/// Every live seat's value: points, material, pawn advance, mobility, king safety and pieces left hanging.
/// Eliminated seats get their points minus [`params::CHESS4_ELIMINATED`].
pub fn values(pos: &Position) -> [i32; 4] {
    values_with(pos, true)
}

/// [`values`], with or without the pieces left hanging (`threats`).
pub fn values_with(pos: &Position, threats: bool) -> [i32; 4] {
    let grid = Grid::of(pos);
    let points = pos.points();
    let mut v = [0i32; 4];
    for (s, value) in v.iter_mut().enumerate() {
        let seat = Seat::from_index(s).unwrap_or(Seat::First);
        *value = points[seat] * params::CHESS4_POINT;
        if !pos.is_live(seat) {
            *value -= params::CHESS4_ELIMINATED;
        } else if pos.is_check(seat) {
            *value += params::CHESS4_IN_CHECK;
        }
    }
    let mut attacks = Attacks::new();
    for f in 0..14i8 {
        for r in 0..14i8 {
            let c = grid.at(f, r);
            if c == OFF || c == 0 {
                continue;
            }
            let owner = usize::from(c >> 3);
            if owner >= 4 {
                continue;
            }
            let role = c & 7;
            let worth = attacker_worth(role);
            let mut score = params::CHESS4_MATERIAL[role_index(c)];
            if role == Role::Pawn as u8 {
                let advanced = match owner {
                    0 => r - 1,
                    1 => f - 1,
                    2 => 12 - r,
                    _ => 12 - f,
                };
                score += i32::from(advanced.max(0)) * params::CHESS4_PAWN_ADVANCE;
                let (df, dr) = PAWN_FORWARD[owner];
                // The two diagonal steps forward: across the forward direction on either side.
                for side in [-1i8, 1] {
                    let (x, y) = (f + df + side * dr.abs(), r + dr + side * df.abs());
                    let n = grid.at(x, y);
                    if n != OFF && n != 0 {
                        attacks.touch(x, y, n, owner, worth);
                    }
                }
            } else if role == Role::King as u8 {
                let mut shelter = 0;
                for (df, dr) in ROOK_DIRS.iter().chain(&BISHOP_DIRS) {
                    let n = grid.at(f + df, r + dr);
                    if n != OFF && n != 0 {
                        attacks.touch(f + df, r + dr, n, owner, worth);
                        if usize::from(n >> 3) == owner {
                            shelter += 1;
                        }
                    }
                }
                score += shelter * params::CHESS4_SHELTER;
            } else {
                let mut reach = 0;
                let free = |n: u8| n != OFF && (n == 0 || usize::from(n >> 3) != owner);
                if role == Role::Knight as u8 {
                    for (df, dr) in KNIGHT_STEPS {
                        let n = grid.at(f + df, r + dr);
                        reach += i32::from(free(n));
                        if n != OFF && n != 0 {
                            attacks.touch(f + df, r + dr, n, owner, worth);
                        }
                    }
                } else {
                    let dirs: &[(i8, i8)] = if role == Role::Bishop as u8 {
                        &BISHOP_DIRS
                    } else if role == Role::Rook as u8 {
                        &ROOK_DIRS
                    } else {
                        &[]
                    };
                    let queen = dirs.is_empty();
                    for &(df, dr) in dirs
                        .iter()
                        .chain(if queen { &ROOK_DIRS[..] } else { &[] })
                        .chain(if queen { &BISHOP_DIRS[..] } else { &[] })
                    {
                        let (mut x, mut y) = (f + df, r + dr);
                        loop {
                            let n = grid.at(x, y);
                            if n == OFF {
                                break;
                            }
                            if n != 0 {
                                attacks.touch(x, y, n, owner, worth);
                            }
                            if !free(n) {
                                break;
                            }
                            reach += 1;
                            if n != 0 {
                                break;
                            }
                            x += df;
                            y += dr;
                        }
                    }
                }
                score += reach * params::CHESS4_MOBILITY;
            }
            v[owner] += score;
        }
    }
    if threats {
        hanging(&grid, &attacks, pos.turn().index(), &mut v);
    }
    v
}

/// Pieces another seat can take at a profit (undefended, or attacked by a cheaper piece): between two moves of
/// a seat the three others move, so more than one of them can go. The seat to move saves its most valuable one
/// (the search sees that); every other loses [`params::CHESS4_HANGING_PERCENT`] of what the capture would cost.
fn hanging(grid: &Grid, attacks: &Attacks, to_move: usize, v: &mut [i32; 4]) {
    let mut total = [0i32; 4];
    let mut largest = [0i32; 4];
    for f in 0..14usize {
        for r in 0..14usize {
            let cheapest = attacks.cheapest[f][r];
            if cheapest == i32::MAX {
                continue;
            }
            let c = grid.0[f][r];
            let owner = usize::from(c >> 3);
            let role = c & 7;
            if owner >= 4 || role == Role::King as u8 {
                continue;
            }
            let material = params::CHESS4_MATERIAL[role_index(c)];
            let loss = if !attacks.defended[f][r] {
                material
            } else if cheapest < material {
                material - cheapest
            } else {
                continue;
            };
            total[owner] += loss;
            largest[owner] = largest[owner].max(loss);
        }
    }
    for s in 0..4 {
        let at_risk = if s == to_move {
            total[s] - largest[s]
        } else {
            total[s]
        };
        v[s] -= at_risk * params::CHESS4_HANGING_PERCENT / 100;
    }
}

/// The root seat's value minus the mean of its opponents' (the search's view: the others play against it).
pub fn evaluate(pos: &Position, root: Seat) -> i32 {
    let v = values(pos);
    relative(&v, root.index())
}

/// `v[root]` minus the mean of the other three.
pub fn relative(v: &[i32; 4], root: usize) -> i32 {
    let others: i32 = (0..4).filter(|&s| s != root).map(|s| v[s]).sum();
    v[root] - others / 3
}

/// The score of a finished game for `root`: its points against the others', and a large bonus per opponent it
/// finished above, minus per opponent above it.
pub fn terminal(pos: &Position, root: Seat) -> i32 {
    by_points(&pos.points(), root)
}

/// The score for `root` of the game drawn here (by repetition or the fifty-move rule): every live seat gets
/// [`DRAW_POINTS`], and the game ends on the points as they then stand.
pub fn drawn(pos: &Position, root: Seat) -> i32 {
    let mut points = pos.points();
    for s in Seat::range(4) {
        if pos.is_live(s) {
            points[s] += DRAW_POINTS;
        }
    }
    by_points(&points, root)
}

fn by_points(points: &BySeat<i32>, root: Seat) -> i32 {
    let mine = points[root];
    let mut score = 0;
    let mut others = 0;
    for s in Seat::range(4).filter(|&s| s != root) {
        others += points[s];
        score += params::CHESS4_PLACE * (i32::from(mine > points[s]) - i32::from(mine < points[s]));
    }
    score + (mine * 3 - others) * params::CHESS4_POINT / 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_even_for_every_seat() {
        let pos = Position::start();
        let v = values(&pos);
        assert!(v.iter().all(|&x| x == v[0]), "{v:?}");
        assert_eq!(evaluate(&pos, Seat::Third), 0);
    }

    /// Four kings, a Red knight on h7 and a Yellow pawn on g8 that attacks it; with `second_knight`, a Red knight
    /// on d5 that a Yellow knight on e7 attacks as well. `side` to move.
    fn knight_en_prise(side: char, second_knight: bool) -> Position {
        let rank7 = if second_knight {
            "bK,3,yN,2,rN,6"
        } else {
            "bK,6,rN,6"
        };
        let rank5 = if second_knight { "3,rN,10" } else { "14" };
        let text =
            crate::chess4::sparse_fen4(side, ["14", "14", "14", "6,yP,6,gK", rank7, "14", rank5, "14"]);
        parlor_chess4::Game::from_fen4(&text, None)
            .map(|g| g.position().clone())
            .unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn a_piece_left_to_be_taken_costs_its_owner_unless_it_can_still_move_it() {
        let knight = params::CHESS4_MATERIAL[Role::Knight as usize - 1];
        let loss = knight * params::CHESS4_HANGING_PERCENT / 100;
        // Red to move saves its one hanging knight; with Blue to move, Yellow may take it before Red moves.
        let red_to_move = values(&knight_en_prise('R', false))[0];
        let blue_to_move = values(&knight_en_prise('B', false))[0];
        assert_eq!(red_to_move - blue_to_move, loss);
        // Two knights hang, neither defended: Red to move saves one of them, the other still counts.
        let two_red = values(&knight_en_prise('R', true))[0];
        let two_blue = values(&knight_en_prise('B', true))[0];
        assert_eq!(two_red - two_blue, loss, "{two_red} {two_blue}");
    }
}
