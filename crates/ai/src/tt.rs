//! A transposition table: one entry per slot, replaced when the new entry is deeper, from a newer search, or
//! for the same position.

use crate::params;

/// What a stored score says about the true score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact score.
    Exact,
    /// At least this (the search failed high).
    Lower,
    /// At most this (the search failed low).
    Upper,
}

impl Bound {
    /// What the best score `best` of a search with the window `(alpha, beta)` says: at least that when it reached
    /// `beta`, exactly that when it raised `alpha`, at most that when it did not.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored score `score` with this bound settles a search with the window `(alpha, beta)`.
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// One stored search result.
#[derive(Copy, Clone, Debug)]
pub struct Entry<M> {
    key: u64,
    /// The best (or refuting) move found, if any.
    pub mv: Option<M>,
    /// The score, mates stored relative to this node (see [`score_to_tt`]).
    pub score: i32,
    /// The static evaluation of the position.
    pub eval: i32,
    /// The depth searched.
    pub depth: i16,
    /// What the score means.
    pub bound: Bound,
    age: u8,
}

/// A fixed-size table of search results keyed by a 64-bit position hash.
#[derive(Debug)]
pub struct Tt<M: Copy> {
    slots: Vec<Option<Entry<M>>>,
    mask: usize,
    age: u8,
}

impl<M: Copy> Tt<M> {
    /// A table of `entries` slots (rounded down to a power of two, at least 1).
    pub fn new(entries: usize) -> Tt<M> {
        let n = entries.max(1).next_power_of_two() >> usize::from(!entries.max(1).is_power_of_two());
        Tt {
            slots: vec![None; n],
            mask: n - 1,
            age: 0,
        }
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the table has no slots (never: it has at least one).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
        self.age = 0;
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// The entry for this position, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.slots[key as usize & self.mask].filter(|e| e.key == key)
    }

    /// Stores a result (mate scores already converted with [`score_to_tt`]).
    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, eval: i32, depth: i32, bound: Bound) {
        let age = self.age;
        let slot = &mut self.slots[key as usize & self.mask];
        let replace = match slot {
            None => true,
            Some(old) => {
                old.key == key || old.age != age || depth as i16 >= old.depth || bound == Bound::Exact
            }
        };
        if replace {
            // Keep the old move when the new result has none for the same position.
            let mv = match (mv, &slot) {
                (None, Some(old)) if old.key == key => old.mv,
                _ => mv,
            };
            *slot = Some(Entry {
                key,
                mv,
                score,
                eval,
                depth: depth.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                bound,
                age,
            });
        }
    }
}

impl<M: Copy> Tt<M> {
    /// Stores a result of depth 0 (a quiescence search), which never displaces a deeper result of this search.
    #[inline]
    pub fn store_leaf(&mut self, key: u64, mv: Option<M>, score: i32, eval: i32, bound: Bound) {
        let slot = &self.slots[key as usize & self.mask];
        let free = match slot {
            None => true,
            Some(old) => old.age != self.age || old.depth <= 0,
        };
        if free {
            self.store(key, mv, score, eval, 0, bound);
        }
    }
}

/// A score to store: mates counted from this node rather than from the root.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > params::MATE_BOUND {
        score + ply as i32
    } else if score < -params::MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score back at a node `ply` plies from the root.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > params::MATE_BOUND {
        score - ply as i32
    } else if score < -params::MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let mut tt: Tt<u16> = Tt::new(1000);
        assert_eq!(tt.slots.len(), 512);
        tt.store(7, Some(3), 10, 5, 4, Bound::Exact);
        let e = tt.probe(7).map(|e| (e.mv, e.score, e.depth));
        assert_eq!(e, Some((Some(3), 10, 4)));
        assert!(tt.probe(7 + 512).is_none());
        tt.store(7, None, 12, 5, 5, Bound::Lower);
        assert_eq!(tt.probe(7).and_then(|e| e.mv), Some(3));
    }

    #[test]
    fn mate_scores_shift_with_ply() {
        let s = params::MATE - 5;
        assert_eq!(score_from_tt(score_to_tt(s, 3), 3), s);
        assert_eq!(score_to_tt(s, 3), params::MATE - 2);
    }
}
