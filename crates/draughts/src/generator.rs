//! The move generator, generic over the variant's [`Rule`]: one copy of the code for all four variants.
//!
//! Captures follow the Turkish-strike rule in every variant: taken pieces stay on the board until the move ends,
//! so they block the way and cannot be jumped twice. A capture chain is generated once per distinct result
//! (from, to, set of taken pieces, crowning): chains that differ only in the order or path are merged ("dups drop"
//! in the perft data). A flying king that takes a piece and may land on several squares beyond it is sent on only
//! from the landing squares where the capture goes on, when there are any; continuing straight ahead is tried once,
//! from the last landing square, since every earlier landing square on that line gives the same result.

use crate::board::{Board, Color};
use crate::moves::Move;
use crate::rule::{DOWN_LEFT, DOWN_RIGHT, Rule, UP_LEFT, UP_RIGHT, opposite, perpendicular};
use std::marker::PhantomData;

/// The directions a man of `color` moves in (and, in English draughts, captures in).
#[inline(always)]
const fn forward(color: Color) -> [usize; 2] {
    match color {
        Color::White => [UP_LEFT, UP_RIGHT],
        Color::Black => [DOWN_LEFT, DOWN_RIGHT],
    }
}

/// All four directions.
const ALL: [usize; 4] = [DOWN_LEFT, DOWN_RIGHT, UP_RIGHT, UP_LEFT];

/// Iterates the set bits of `bb`, lowest first.
#[inline(always)]
fn bits(mut bb: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        if bb == 0 {
            return None;
        }
        let low = bb & bb.wrapping_neg();
        bb ^= low;
        Some(low)
    })
}

/// The index of the single set bit of `bb`.
#[inline(always)]
fn index(bb: u64) -> u8 {
    bb.trailing_zeros() as u8
}

/// Men of the side to move that can take something right now (a quick bitwise test, no chains).
#[inline(always)]
fn men_that_capture<R: Rule>(b: &Board) -> u64 {
    let us = b.turn;
    let men = b.pieces[us.index()] & !b.kings;
    let enemy = b.pieces[us.other().index()];
    let empty = !b.occupied() & R::MASK;
    let mut jumpers = 0;
    if R::MEN_CAPTURE_BACKWARD {
        for d in ALL {
            jumpers |= R::step(R::step(empty, opposite(d)) & enemy, opposite(d));
        }
    } else {
        for d in forward(us) {
            jumpers |= R::step(R::step(empty, opposite(d)) & enemy, opposite(d));
        }
    }
    jumpers & men
}

/// Short kings that can take something right now.
#[inline(always)]
fn short_kings_that_capture<R: Rule>(b: &Board) -> u64 {
    let kings = b.pieces[b.turn.index()] & b.kings;
    let enemy = b.pieces[b.turn.other().index()];
    let empty = !b.occupied() & R::MASK;
    let mut jumpers = 0;
    for d in ALL {
        jumpers |= R::step(R::step(empty, opposite(d)) & enemy, opposite(d));
    }
    jumpers & kings
}

/// True if the flying king on `king` can take a piece in direction `d` (the piece not yet taken, the square
/// beyond it empty).
#[inline(always)]
fn flying_capture_in<R: Rule>(king: u64, d: usize, empty: u64, enemy: u64) -> bool {
    let mut sq = R::step(king, d);
    while sq & empty != 0 {
        sq = R::step(sq, d);
    }
    sq & enemy != 0 && R::step(sq, d) & empty != 0
}

/// True if the side to move has a capture.
#[inline(always)]
pub(crate) fn has_capture<R: Rule>(b: &Board) -> bool {
    if men_that_capture::<R>(b) != 0 {
        return true;
    }
    let kings = b.pieces[b.turn.index()] & b.kings;
    if kings == 0 {
        return false;
    }
    if !R::FLYING_KINGS {
        return short_kings_that_capture::<R>(b) != 0;
    }
    let enemy = b.pieces[b.turn.other().index()];
    let empty = !b.occupied() & R::MASK;
    bits(kings).any(|k| {
        ALL.into_iter()
            .any(|d| flying_capture_in::<R>(k, d, empty, enemy))
    })
}

/// The state of the capture search for one piece.
struct Capture<'a, R: Rule> {
    /// Bit index of the moving piece's square.
    from: u8,
    /// The opponent's pieces (taken ones included: they stay until the move ends).
    enemy: u64,
    /// Empty squares, the moving piece's own start square included.
    empty: u64,
    /// Squares where the moving man is crowned.
    crown: u64,
    /// The directions the side's men move in.
    forward: [usize; 2],
    /// Majority rule: the most pieces any chain found so far takes.
    best: u32,
    /// Where this position's captures begin in `out`.
    start: usize,
    /// Keep chains that differ only in path ("dups keep") instead of merging them.
    keep_paths: bool,
    /// Only count the chains that cannot have duplicates (fewer than three pieces taken) instead of listing them.
    count_only: bool,
    /// Chains counted and not listed.
    counted: usize,
    out: &'a mut Vec<Move>,
    rule: PhantomData<R>,
}

impl<R: Rule> Capture<'_, R> {
    /// Records a finished chain ending on `to`.
    #[inline(always)]
    fn record(&mut self, to: u64, captured: u64, promote: bool) {
        let n = captured.count_ones();
        if R::MAJORITY {
            if n < self.best {
                return;
            }
            if n > self.best {
                self.out.truncate(self.start);
                self.counted = 0;
                self.best = n;
            }
        }
        if self.count_only && n < 3 {
            self.counted += 1;
            return;
        }
        let m = Move {
            from: self.from,
            to: index(to),
            promote,
            captured,
        };
        // Two chains with the same result need at least three taken pieces (two pieces can only be taken in one
        // order from one square), so the duplicate scan is skipped below that.
        if n >= 3 && !self.keep_paths && self.out[self.start..].contains(&m) {
            return;
        }
        self.out.push(m);
    }

    /// A man on `cur` that has taken `captured` goes on capturing if it can.
    fn man(&mut self, cur: u64, captured: u64) {
        let mut more = false;
        if R::MEN_CAPTURE_BACKWARD {
            for d in ALL {
                more |= self.man_jump(cur, captured, d);
            }
        } else {
            for d in self.forward {
                more |= self.man_jump(cur, captured, d);
            }
        }
        if !more && captured != 0 {
            self.record(cur, captured, cur & self.crown != 0);
        }
    }

    /// The man on `cur` jumps in direction `d` if it can, and goes on from there; returns whether it could.
    #[inline(always)]
    fn man_jump(&mut self, cur: u64, captured: u64, d: usize) -> bool {
        let victim = R::step(cur, d) & self.enemy & !captured;
        if victim == 0 {
            return false;
        }
        let land = R::step(victim, d) & self.empty;
        if land == 0 {
            return false;
        }
        let taken = captured | victim;
        if R::CROWN_MID_CAPTURE && land & self.crown != 0 {
            self.flying_landed(land, d, taken, true);
        } else if !R::MEN_CAPTURE_BACKWARD && !self.man_can_jump(land, taken) {
            // Most English chains end after one jump: record them without another call. (Measured: this pays
            // for men with two capture directions, not for men with four.)
            self.record(land, taken, land & self.crown != 0);
        } else {
            self.man(land, taken);
        }
        true
    }

    /// True if a man on `cur` that has taken `captured` can jump again forward.
    #[inline(always)]
    fn man_can_jump(&self, cur: u64, captured: u64) -> bool {
        let enemy = self.enemy & !captured;
        self.forward
            .into_iter()
            .any(|d| R::step(R::step(cur, d) & enemy, d) & self.empty != 0)
    }

    /// A short (English) king on `cur` goes on capturing if it can.
    fn short_king(&mut self, cur: u64, captured: u64) {
        let mut more = false;
        for d in ALL {
            let victim = R::step(cur, d) & self.enemy & !captured;
            if victim == 0 {
                continue;
            }
            let land = R::step(victim, d) & self.empty;
            if land == 0 {
                continue;
            }
            more = true;
            self.short_king(land, captured | victim);
        }
        if !more && captured != 0 {
            self.record(cur, captured, false);
        }
    }

    /// A flying king on `cur` tries to take a piece in direction `d`; returns whether it could.
    fn flying(&mut self, cur: u64, d: usize, captured: u64, promote: bool) -> bool {
        let mut sq = R::step(cur, d);
        while sq & self.empty != 0 {
            sq = R::step(sq, d);
        }
        if sq & self.enemy & !captured == 0 {
            return false;
        }
        let land = R::step(sq, d) & self.empty;
        if land == 0 {
            return false;
        }
        self.flying_landed(land, d, captured | sq, promote);
        true
    }

    /// A flying king has just taken a piece moving in direction `d`; `first` is the nearest square beyond it.
    /// It may land on any empty square of the run beyond, but must land where the capture goes on if it can.
    fn flying_landed(&mut self, first: u64, d: usize, captured: u64, promote: bool) {
        let mut landings = 0;
        let mut last = first;
        let mut sq = first;
        while sq != 0 {
            landings |= sq;
            last = sq;
            sq = R::step(sq, d) & self.empty;
        }
        let mut more = false;
        for land in bits(landings) {
            for p in perpendicular(d) {
                more |= self.flying(land, p, captured, promote);
            }
        }
        more |= self.flying(last, d, captured, promote);
        if !more {
            for land in bits(landings) {
                self.record(land, captured, promote);
            }
        }
    }
}

/// Appends every capture of the side to move to `out` (majority rule applied). Returns how many. With
/// `keep_paths`, a result reached by several paths is listed once per path (the "dups keep" perft convention).
pub(crate) fn captures<R: Rule>(b: &Board, keep_paths: bool, out: &mut Vec<Move>) -> usize {
    capture_search::<R>(b, keep_paths, false, out)
}

/// The number of captures of the side to move; `scratch` holds the ones that need the duplicate check.
#[inline(always)]
fn count_captures<R: Rule>(b: &Board, keep_paths: bool, scratch: &mut Vec<Move>) -> usize {
    capture_search::<R>(b, keep_paths, true, scratch)
}

#[inline(always)]
fn capture_search<R: Rule>(b: &Board, keep_paths: bool, count_only: bool, out: &mut Vec<Move>) -> usize {
    let us = b.turn;
    let own = b.pieces[us.index()];
    let start = out.len();
    let mut cap = Capture::<R> {
        from: 0,
        enemy: b.pieces[us.other().index()],
        empty: !b.occupied() & R::MASK,
        crown: Board::crown_row::<R>(us),
        forward: forward(us),
        best: 1,
        start,
        keep_paths,
        count_only,
        counted: 0,
        out,
        rule: PhantomData,
    };
    let base_empty = cap.empty;
    for man in bits(men_that_capture::<R>(b)) {
        cap.from = index(man);
        cap.empty = base_empty | man;
        cap.man(man, 0);
    }
    let kings = own & b.kings;
    if R::FLYING_KINGS {
        for king in bits(kings) {
            cap.from = index(king);
            cap.empty = base_empty | king;
            for d in ALL {
                cap.flying(king, d, 0, false);
            }
        }
    } else {
        for king in bits(short_kings_that_capture::<R>(b)) {
            cap.from = index(king);
            cap.empty = base_empty | king;
            cap.short_king(king, 0);
        }
    }
    cap.counted + cap.out.len() - start
}

/// Appends every non-capturing move of the side to move to `out`.
pub(crate) fn quiet_moves<R: Rule>(b: &Board, out: &mut Vec<Move>) {
    let us = b.turn;
    let own = b.pieces[us.index()];
    let men = own & !b.kings;
    let kings = own & b.kings;
    let empty = !b.occupied() & R::MASK;
    let crown = Board::crown_row::<R>(us);
    for d in forward(us) {
        for to in bits(R::step(men, d) & empty) {
            let from = R::step(to, opposite(d));
            out.push(Move {
                from: index(from),
                to: index(to),
                promote: to & crown != 0,
                captured: 0,
            });
        }
    }
    if R::FLYING_KINGS {
        for king in bits(kings) {
            for d in ALL {
                let mut sq = R::step(king, d) & empty;
                while sq != 0 {
                    out.push(Move {
                        from: index(king),
                        to: index(sq),
                        promote: false,
                        captured: 0,
                    });
                    sq = R::step(sq, d) & empty;
                }
            }
        }
    } else {
        for d in ALL {
            for to in bits(R::step(kings, d) & empty) {
                let from = R::step(to, opposite(d));
                out.push(Move {
                    from: index(from),
                    to: index(to),
                    promote: false,
                    captured: 0,
                });
            }
        }
    }
}

/// The number of non-capturing moves of the side to move, without listing them.
#[inline(always)]
pub(crate) fn count_quiet<R: Rule>(b: &Board) -> u64 {
    let us = b.turn;
    let own = b.pieces[us.index()];
    let men = own & !b.kings;
    let kings = own & b.kings;
    let empty = !b.occupied() & R::MASK;
    let [f0, f1] = forward(us);
    let mut n = (R::step(men, f0) & empty).count_ones() + (R::step(men, f1) & empty).count_ones();
    if kings != 0 {
        if R::FLYING_KINGS {
            for king in bits(kings) {
                for d in ALL {
                    let mut sq = R::step(king, d) & empty;
                    while sq != 0 {
                        n += 1;
                        sq = R::step(sq, d) & empty;
                    }
                }
            }
        } else {
            for d in ALL {
                n += (R::step(kings, d) & empty).count_ones();
            }
        }
    }
    u64::from(n)
}

/// Appends the legal moves to `out`: the captures if there are any (also the quiet moves when capturing is not
/// mandatory), else the quiet moves.
pub(crate) fn legal_moves<R: Rule>(b: &Board, mandatory_capture: bool, out: &mut Vec<Move>) {
    generate::<R>(b, mandatory_capture, false, out);
}

/// [`legal_moves`] with the choice of keeping capture chains that differ only in path.
#[inline(always)]
pub(crate) fn generate<R: Rule>(b: &Board, mandatory_capture: bool, keep_paths: bool, out: &mut Vec<Move>) {
    let found = if has_capture::<R>(b) {
        captures::<R>(b, keep_paths, out)
    } else {
        0
    };
    if found == 0 || !mandatory_capture {
        quiet_moves::<R>(b, out);
    }
}

/// The number of legal moves with capture mandatory; `scratch` is a buffer for captures.
#[inline(always)]
pub(crate) fn count_legal<R: Rule>(b: &Board, keep_paths: bool, scratch: &mut Vec<Move>) -> u64 {
    if has_capture::<R>(b) {
        scratch.clear();
        count_captures::<R>(b, keep_paths, scratch) as u64
    } else {
        count_quiet::<R>(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::chains;
    use crate::rule::{English, International, Pool, Russian};
    use proptest::prelude::*;
    use std::collections::HashSet;

    /// The generator's moves against the plain path-by-path enumeration of every piece's capture chains.
    fn check<R: Rule>(b: &Board) -> Result<(), TestCaseError> {
        let mut fast = Vec::new();
        legal_moves::<R>(b, true, &mut fast);
        let unique: HashSet<Move> = fast.iter().copied().collect();
        prop_assert_eq!(unique.len(), fast.len(), "a move listed twice");
        let mut slow: HashSet<Move> = HashSet::new();
        for from in 0..64u8 {
            if R::MASK & (1 << from) != 0 {
                slow.extend(chains::<R>(b, from).into_iter().map(|(m, _)| m));
            }
        }
        if R::MAJORITY {
            let best = slow.iter().map(|m| m.captured.count_ones()).max().unwrap_or(0);
            slow.retain(|m| m.captured.count_ones() == best);
        }
        if slow.is_empty() {
            let mut quiet = Vec::new();
            quiet_moves::<R>(b, &mut quiet);
            slow.extend(quiet);
        }
        prop_assert_eq!(unique, slow);
        Ok(())
    }

    /// Random boards: each square occupied with probability `density` percent, one piece in five a king.
    fn board(h: u32) -> impl Strategy<Value = Board> {
        let cells = prop::collection::vec(0u8..100, 50);
        (cells, 10u8..80, any::<bool>()).prop_map(move |(cells, density, white)| {
            let squares = 2 * h * h;
            let turn = if white { Color::White } else { Color::Black };
            let mut b = Board {
                pieces: [0, 0],
                kings: 0,
                turn,
            };
            for s in 0..squares {
                let cell = cells[s as usize];
                if cell >= density {
                    continue;
                }
                let color = usize::from(cell % 2 == 1);
                let bit = 1u64 << crate::rule::bit_of(s, h);
                b.pieces[color] |= bit;
                let crown_row = if color == 1 { s >= squares - h } else { s < h };
                if cell % 5 == 0 || crown_row {
                    b.kings |= bit;
                }
            }
            b
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        #[test]
        fn generator_matches_the_plain_enumeration_english(b in board(4)) { check::<English>(&b)?; }

        #[test]
        fn generator_matches_the_plain_enumeration_russian(b in board(4)) { check::<Russian>(&b)?; }

        #[test]
        fn generator_matches_the_plain_enumeration_pool(b in board(4)) { check::<Pool>(&b)?; }

        #[test]
        fn generator_matches_the_plain_enumeration_international(b in board(5)) { check::<International>(&b)?; }
    }
}
