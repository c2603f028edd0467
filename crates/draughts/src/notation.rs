//! PDN move notation: `11-15`, `11x18`, `11x18x25`; the paths of capture chains.

use crate::board::Board;
use crate::moves::Move;
use crate::position::Position;
use crate::rule::{DOWN_LEFT, DOWN_RIGHT, Rule, UP_LEFT, UP_RIGHT, with_rule};
use parlor_game::{MoveError, MoveErrorKind};
use std::fmt;
use std::str::FromStr;

/// A move as PDN writes it: the squares (start, landing squares..., end) and whether it was written as a capture.
/// It becomes a [`Move`] only against a position ([`PdnMove::to_move`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PdnMove {
    /// PDN square numbers: the start, then each landing square given.
    pub squares: Vec<u32>,
    /// Written with `x` (a capture) rather than `-`.
    pub capture: bool,
}

impl FromStr for PdnMove {
    type Err = MoveError;

    /// Reads `a-b`, `axb` or `axbxc...` (also `:` as capture separator, as Russian PDN writes it).
    fn from_str(text: &str) -> Result<PdnMove, MoveError> {
        let malformed = || {
            MoveError::new(
                MoveErrorKind::Malformed,
                format!("`{text}` is not a draughts move"),
            )
        };
        let t = text.trim();
        let capture = t.contains(['x', 'X', ':']);
        if capture && t.contains('-') {
            return Err(malformed());
        }
        let squares = t
            .split(['-', 'x', 'X', ':'])
            .map(|part| {
                if part.is_empty() || part.len() > 2 || !part.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(malformed());
                }
                part.parse::<u32>().map_err(|_| malformed())
            })
            .collect::<Result<Vec<_>, _>>()?;
        if squares.len() < 2 || (!capture && squares.len() != 2) {
            return Err(malformed());
        }
        Ok(PdnMove { squares, capture })
    }
}

impl fmt::Display for PdnMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { "x" } else { "-" };
        let parts: Vec<String> = self.squares.iter().map(u32::to_string).collect();
        f.write_str(&parts.join(sep))
    }
}

/// The algebraic name of a square of an 8x8 board, as Russian draughts writes it: square 1 is `b8`, 29 is `a1`
/// (White's left corner); `None` outside 1-32.
pub fn algebraic_square(square: u32) -> Option<String> {
    if !(1..=32).contains(&square) {
        return None;
    }
    // Rows from Black's side: the even ones start on the b file, the odd ones on a.
    let row = (square - 1) / 4;
    let file = 2 * ((square - 1) % 4) + u32::from(row.is_multiple_of(2));
    Some(format!("{}{}", char::from(b'a' + file as u8), 8 - row))
}

/// The square of an 8x8 board an algebraic name (`a1` to `h8`, a dark square) names.
pub fn square_of_algebraic(name: &str) -> Option<u32> {
    let &[file, rank] = name.as_bytes() else {
        return None;
    };
    let file = u32::from(file.to_ascii_lowercase().checked_sub(b'a')?);
    let rank = u32::from(rank.checked_sub(b'1')?) + 1;
    if file > 7 || rank > 8 {
        return None;
    }
    let row = 8 - rank;
    (file % 2 == u32::from(row.is_multiple_of(2))).then_some(row * 4 + file / 2 + 1)
}

impl PdnMove {
    /// The move with algebraic squares of an 8x8 board, as Russian PDN writes it: `c3-d4`, `c3xe5xc7` (PDN's `x`
    /// for captures, which Russian programs read; `:` is read too). `None` for a square that is not on an 8x8
    /// board.
    pub fn to_algebraic(&self) -> Option<String> {
        let sep = if self.capture { "x" } else { "-" };
        let parts = self
            .squares
            .iter()
            .map(|&s| algebraic_square(s))
            .collect::<Option<Vec<_>>>()?;
        Some(parts.join(sep))
    }

    /// Reads a move written with algebraic squares of an 8x8 board (`c3-d4`, `c3:e5`, `c3xe5`).
    ///
    /// # Errors
    /// [`MoveErrorKind::Malformed`] when it is not such a move.
    pub fn from_algebraic(text: &str) -> Result<PdnMove, MoveError> {
        let malformed = || {
            MoveError::new(
                MoveErrorKind::Malformed,
                format!("`{text}` is not a draughts move in algebraic notation"),
            )
        };
        let t = text.trim();
        let capture = t.contains(['x', 'X', ':']);
        let squares = t
            .split(['-', 'x', 'X', ':'])
            .map(|part| square_of_algebraic(part).ok_or_else(malformed))
            .collect::<Result<Vec<_>, _>>()?;
        if squares.len() < 2 || (!capture && squares.len() != 2) || (capture && t.contains('-')) {
            return Err(malformed());
        }
        Ok(PdnMove { squares, capture })
    }

    /// The legal move this names in `pos`. `a-b` names the quiet move; `axb` names the single-jump capture from a
    /// to b if there is one (its full path), else every capture with that start and end; a longer path names the
    /// capture that lands on exactly those squares.
    ///
    /// # Errors
    /// [`MoveErrorKind::Malformed`] for a square not on the board, [`MoveErrorKind::Illegal`] when no legal move
    /// matches, [`MoveErrorKind::Ambiguous`] when several do (the message lists their full paths).
    pub fn to_move(&self, pos: &Position) -> Result<Move, MoveError> {
        let squares = pos.square_count();
        if let Some(bad) = self.squares.iter().find(|&&s| s == 0 || s > squares) {
            return Err(MoveError::new(
                MoveErrorKind::Malformed,
                format!("there is no square {bad} on a board of {squares} squares"),
            ));
        }
        let (first, last) = (self.squares[0], self.squares[self.squares.len() - 1]);
        let legal = pos.legal_moves();
        // `-` names a quiet move and `x` a capture: with capturing optional, a king may have both between the same
        // two squares (a capture ring that ends where a quiet move would).
        let same_ends = legal.iter().filter(|m| {
            m.is_capture() == self.capture && pos.from_square(**m) == first && pos.to_square(**m) == last
        });
        let same_ends: Vec<Move> = same_ends.copied().collect();
        let exact: Vec<Move> = same_ends
            .iter()
            .filter(|m| paths(pos, **m).contains(&self.squares))
            .copied()
            .collect();
        // Two squares are a bare from-to, unless they are themselves the whole path of a one-jump capture: that
        // move has no longer spelling, so `15x24` names the single jump even when a longer chain also ends on 24.
        let matches = if self.squares.len() == 2 && exact.len() != 1 {
            same_ends
        } else {
            exact
        };
        match matches.as_slice() {
            [m] => Ok(*m),
            [] => Err(MoveError::new(
                MoveErrorKind::Illegal,
                format!("{self} is not a legal move here"),
            )),
            several => {
                let options: Vec<String> = several.iter().map(|m| full_path(pos, *m)).collect();
                Err(MoveError::new(
                    MoveErrorKind::Ambiguous,
                    format!("{self} could be {}; give the full path", options.join(" or ")),
                ))
            }
        }
    }
}

/// The move's canonical path written out in full (`11x18x25`), or `a-b` for a quiet move.
fn full_path(pos: &Position, m: Move) -> String {
    let squares = pos.move_path(m);
    PdnMove {
        squares,
        capture: m.is_capture(),
    }
    .to_string()
}

/// The PDN of `m` among the `legal` moves of `pos`: from-to unless another legal move shares both ends, then the
/// full path.
pub(crate) fn write(pos: &Position, m: Move, legal: &[Move]) -> String {
    let (from, to) = (pos.from_square(m), pos.to_square(m));
    if !m.is_capture() {
        return format!("{from}-{to}");
    }
    let shared = legal
        .iter()
        .filter(|o| o.is_capture() && o.from == m.from && o.to == m.to)
        .count();
    if shared <= 1 {
        format!("{from}x{to}")
    } else {
        full_path(pos, m)
    }
}

/// Every path of move `m` in `pos` (start square and each landing square, PDN numbers), in a fixed order. A flying
/// king that may land on several squares beyond a taken piece gives one path per allowed landing square.
pub(crate) fn paths(pos: &Position, m: Move) -> Vec<Vec<u32>> {
    if !m.is_capture() {
        return vec![vec![pos.from_square(m), pos.to_square(m)]];
    }
    let chains = with_rule!(pos.variant, R => chains::<R>(&pos.board, m.from));
    chains
        .into_iter()
        .filter(|(found, _)| *found == m)
        .map(|(_, path)| path.into_iter().map(|bit| pos.square_of_bit(bit)).collect())
        .collect()
}

/// Every capture chain of the piece on bit `from`, path by path (no majority filter, no merging): the slow,
/// plain-spoken twin of the generator, used for notation and to check the generator in tests.
pub(crate) fn chains<R: Rule>(b: &Board, from: u8) -> Vec<(Move, Vec<u8>)> {
    let us = b.turn;
    let piece = 1u64 << from;
    if b.pieces[us.index()] & piece == 0 {
        return Vec::new();
    }
    let mut walk = Walk::<R> {
        from,
        enemy: b.pieces[us.other().index()],
        empty: (!b.occupied() & R::MASK) | piece,
        crown: Board::crown_row::<R>(us),
        forward: match us {
            crate::board::Color::White => [UP_LEFT, UP_RIGHT],
            crate::board::Color::Black => [DOWN_LEFT, DOWN_RIGHT],
        },
        out: Vec::new(),
        rule: std::marker::PhantomData,
    };
    let mut path = vec![from];
    walk.walk(piece, b.kings & piece != 0, false, 0, &mut path);
    walk.out
}

struct Walk<R: Rule> {
    from: u8,
    enemy: u64,
    empty: u64,
    crown: u64,
    forward: [usize; 2],
    out: Vec<(Move, Vec<u8>)>,
    rule: std::marker::PhantomData<R>,
}

const ALL: [usize; 4] = [DOWN_LEFT, DOWN_RIGHT, UP_RIGHT, UP_LEFT];

impl<R: Rule> Walk<R> {
    /// The jumps open to a piece on `cur`: (victim, landing squares allowed) per direction.
    fn jumps(&self, cur: u64, king: bool, captured: u64) -> Vec<(u64, usize, Vec<u64>)> {
        let dirs: &[usize] = if king || R::MEN_CAPTURE_BACKWARD {
            &ALL
        } else {
            &self.forward
        };
        let mut out = Vec::new();
        for &d in dirs {
            if king && R::FLYING_KINGS {
                let mut sq = R::step(cur, d);
                while sq & self.empty != 0 {
                    sq = R::step(sq, d);
                }
                if sq & self.enemy & !captured == 0 {
                    continue;
                }
                let mut run = Vec::new();
                let mut land = R::step(sq, d) & self.empty;
                while land != 0 {
                    run.push(land);
                    land = R::step(land, d) & self.empty;
                }
                if run.is_empty() {
                    continue;
                }
                out.push((sq, d, run));
            } else {
                let victim = R::step(cur, d) & self.enemy & !captured;
                let land = R::step(victim, d) & self.empty;
                if victim != 0 && land != 0 {
                    out.push((victim, d, vec![land]));
                }
            }
        }
        out
    }

    fn walk(&mut self, cur: u64, king: bool, promoted: bool, captured: u64, path: &mut Vec<u8>) {
        let jumps = self.jumps(cur, king, captured);
        if jumps.is_empty() {
            if captured != 0 {
                let promote = promoted || (!king && cur & self.crown != 0);
                let to = cur.trailing_zeros() as u8;
                self.out.push((
                    Move {
                        from: self.from,
                        to,
                        promote,
                        captured,
                    },
                    path.clone(),
                ));
            }
            return;
        }
        for (victim, _, run) in jumps {
            let taken = captured | victim;
            let crown = self.crown;
            let crowned = |land: u64| !king && R::CROWN_MID_CAPTURE && land & crown != 0;
            // Where the capture can go on, the piece must land where it does (flying kings; one square for others).
            let going_on: Vec<u64> = run
                .iter()
                .copied()
                .filter(|&land| !self.jumps(land, king || crowned(land), taken).is_empty())
                .collect();
            let choices = if going_on.is_empty() { run } else { going_on };
            for land in choices {
                let now_king = king || crowned(land);
                path.push(land.trailing_zeros() as u8);
                self.walk(land, now_king, promoted || (now_king && !king), taken, path);
                path.pop();
            }
        }
    }
}

/// A position's moves in PDN (here, beside the notation, so that `position.rs` needs none of it).
impl Position {
    /// One path of the move: its start square, then every landing square (PDN numbers). When several paths give
    /// the same move, the first found is used, always the same one.
    pub fn move_path(&self, m: Move) -> Vec<u32> {
        paths(self, m)
            .into_iter()
            .next()
            .unwrap_or_else(|| vec![self.from_square(m), self.to_square(m)])
    }

    /// The move in PDN: `11-15`, `11x18`, or the full path `11x18x25` when another legal move shares its start
    /// and end squares.
    pub fn move_notation(&self, m: Move) -> String {
        write(self, m, &self.legal_moves())
    }

    /// Finds the legal move named by PDN text (`11-15`, `11x18`, `11x18x25`).
    ///
    /// # Errors
    /// A [`MoveError`]: malformed text, no such legal move, or a from-to naming several legal moves (ambiguous).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let pdn: PdnMove = text.parse()?;
        pdn.to_move(self)
    }
}

#[cfg(test)]
mod algebraic_tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// The standard 8x8 numbering: 1 is b8, 4 h8, 5 a7, 29 a1, 32 g1; every square round-trips, light squares and
    /// squares off the board are refused.
    #[test]
    fn squares_have_their_algebraic_names() {
        let names: Vec<String> = [1, 4, 5, 8, 29, 32]
            .map(|s| algebraic_square(s).unwrap())
            .to_vec();
        assert_eq!(names, ["b8", "h8", "a7", "g7", "a1", "g1"]);
        for s in 1..=32 {
            assert_eq!(square_of_algebraic(&algebraic_square(s).unwrap()), Some(s));
        }
        assert_eq!(algebraic_square(0), None);
        assert_eq!(algebraic_square(33), None);
        for bad in ["a8", "b1", "i1", "a9", "a", "c33"] {
            assert_eq!(square_of_algebraic(bad), None, "{bad}");
        }
        let m = PdnMove::from_algebraic("c3:e5:c7").unwrap();
        assert_eq!(m.to_string(), "22x15x6");
        assert_eq!(m.to_algebraic().as_deref(), Some("c3xe5xc7"));
        assert_eq!(PdnMove::from_algebraic("c3-d4").unwrap().to_string(), "22-18");
        assert!(PdnMove::from_algebraic("c3-d4-e5").is_err());
    }
}
