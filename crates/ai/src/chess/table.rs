//! The chess transposition table, shared by the threads of one search (lazy SMP) without locks.
//!
//! An entry is two 64-bit words: the data (move, score, static evaluation, depth, bound, age) and the key
//! xor-ed with the data. A probe accepts an entry only when the two words agree with the key, so an entry torn
//! by two threads writing at once reads as a miss instead of as a wrong entry (the scheme of Hyatt and Mann,
//! "A lockless transposition-table implementation for parallel search", ICGA Journal 2002).

use crate::params;
use crate::tt::Bound;
use shakmaty::{Move, Role};
use std::sync::atomic::{AtomicU64, Ordering};

/// A move in 16 bits: from square, to square (the rook's square for castling), promotion role.
#[inline]
pub(crate) fn encode(m: Move) -> u16 {
    let (from, to) = match m {
        Move::Castle { king, rook } => (king, rook),
        _ => (m.from().unwrap_or(m.to()), m.to()),
    };
    let promo = m.promotion().map_or(0, |r| r as u16);
    from as u16 | (to as u16) << 6 | promo << 12
}

/// What a probe finds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The best move found, [`encode`]d; find it among the legal moves.
    pub mv: Option<u16>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    age: u8,
}

impl Entry {
    fn pack(&self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let mv = self.mv.map_or(0, |m| u64::from(m) | 1 << 15);
        mv | (u64::from(self.score as i16 as u16)) << 16
            | (u64::from(self.eval as i16 as u16)) << 32
            | (u64::from(self.depth as i8 as u8)) << 48
            | bound << 56
            | (u64::from(self.age & 0x3f)) << 58
    }

    fn unpack(data: u64) -> Entry {
        let mv = (data & 1 << 15 != 0).then_some((data & 0x7fff) as u16);
        Entry {
            mv,
            score: i32::from((data >> 16) as u16 as i16),
            eval: i32::from((data >> 32) as u16 as i16),
            depth: i32::from((data >> 48) as u8 as i8),
            bound: match (data >> 56) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            age: (data >> 58) as u8,
        }
    }
}

/// One slot: the key xor the data, and the data (both zero when empty).
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The shared table: a power-of-two number of slots, one entry each.
#[derive(Debug)]
pub(crate) struct SharedTt {
    slots: Vec<Slot>,
    mask: usize,
    age: u8,
}

impl SharedTt {
    /// A table of `entries` slots (rounded down to a power of two, at least 1).
    pub fn new(entries: usize) -> SharedTt {
        let n = entries.max(1).next_power_of_two() >> usize::from(!entries.max(1).is_power_of_two());
        SharedTt {
            slots: (0..n).map(|_| Slot::default()).collect(),
            mask: n - 1,
            age: 0,
        }
    }

    /// Slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Empties every slot (a new game).
    pub fn clear(&mut self) {
        for s in &mut self.slots {
            *s.check.get_mut() = 0;
            *s.data.get_mut() = 0;
        }
        self.age = 0;
    }

    /// A new search: older entries give way first.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 0x3f;
    }

    /// The depth an entry counts for when a new one wants its slot: its own, less
    /// [`params::TT_AGE_PENALTY`] for each search since it was stored (an older search's entry of depth 8 keeps
    /// its slot from this search's quiescence for a few moves, and then gives way).
    #[inline]
    fn worth(&self, e: &Entry) -> i32 {
        let searches_ago = i32::from(self.age.wrapping_sub(e.age) & 0x3f);
        e.depth - params::TT_AGE_PENALTY * searches_ago
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        &self.slots[key as usize & self.mask]
    }

    /// Asks the processor to bring `key`'s slot into the cache without waiting for it, so that the probe a
    /// few hundred instructions later (the child's, after the move's network update) finds it there instead of
    /// waiting for memory. A hint only: it changes no result.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        safe_arch::prefetch_t0(self.slot(key));
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if the slot holds it.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        (data != 0 && check ^ data == key).then(|| Entry::unpack(data))
    }

    /// Stores a search result: it replaces the slot's entry if that is of the same position, if this one is
    /// exact, or if it is at least as deep as the old one is worth (its depth less [`params::TT_AGE_PENALTY`] a
    /// search since it was stored, [`SharedTt::worth`]). A result without a move keeps the move already stored for the
    /// position. Scores and evaluations must fit in 16 bits, depths are clamped to 8.
    #[inline]
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound) {
        let slot = self.slot(key);
        let old_data = slot.data.load(Ordering::Relaxed);
        let old_same = old_data != 0 && slot.check.load(Ordering::Relaxed) ^ old_data == key;
        let old = (old_data != 0).then(|| Entry::unpack(old_data));
        let replace = match old {
            None => true,
            Some(o) => old_same || depth >= self.worth(&o) || bound == Bound::Exact,
        };
        if !replace {
            return;
        }
        let mv = match (mv, old) {
            (Some(m), _) => Some(encode(m)),
            (None, Some(o)) if old_same => o.mv,
            (None, _) => None,
        };
        let data = Entry {
            mv,
            score,
            eval,
            depth: depth.clamp(i32::from(i8::MIN), i32::from(i8::MAX)),
            bound,
            age: self.age,
        }
        .pack();
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Stores a quiescence result (depth 0) only where it destroys nothing of this search's main tree, nor an
    /// older search's entry still worth more than depth 0.
    #[inline]
    pub fn store_leaf(&self, key: u64, mv: Option<Move>, score: i32, eval: i32, bound: Bound) {
        let data = self.slot(key).data.load(Ordering::Relaxed);
        let free = data == 0 || {
            let o = Entry::unpack(data);
            self.worth(&o) <= 0
        };
        if free {
            self.store(key, mv, score, eval, 0, bound);
        }
    }
}

/// Whether `m` is the [`encode`]d move `code`.
#[inline]
pub(crate) fn is(m: Move, code: Option<u16>) -> bool {
    code == Some(encode(m))
}

/// Roles fit the three bits [`encode`] gives them.
const _: () = assert!(Role::King as u16 <= 7);

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::params;
    use shakmaty::{Chess, Position as _};

    #[test]
    fn an_older_deep_entry_keeps_its_slot_for_a_few_searches() {
        let mut tt = SharedTt::new(1);
        let (deep, shallow) = (1u64 << 40, 2u64 << 40); // two keys, one slot
        tt.store(deep, None, 10, 5, 8, Bound::Lower);
        // The next search's quiescence and shallow results do not displace it...
        tt.new_search();
        tt.store_leaf(shallow, None, 1, 1, Bound::Upper);
        tt.store(shallow, None, 1, 1, 5, Bound::Upper);
        assert_eq!(tt.probe(deep).map(|e| e.depth), Some(8));
        assert!(tt.probe(shallow).is_none());
        // ...but one as deep as it is worth does (8 less 2 a search)...
        tt.store(shallow, None, 1, 1, 8 - params::TT_AGE_PENALTY, Bound::Upper);
        assert!(tt.probe(deep).is_none());
        // ...and after enough searches even a quiescence result does.
        tt.store(deep, None, 10, 5, 8, Bound::Lower);
        for _ in 0..8 / params::TT_AGE_PENALTY {
            tt.new_search();
        }
        tt.store_leaf(shallow, None, 1, 1, Bound::Upper);
        assert_eq!(tt.probe(shallow).map(|e| e.depth), Some(0));
    }

    #[test]
    fn entries_round_trip_and_keep_their_move() {
        let tt = SharedTt::new(1000);
        assert_eq!(tt.len(), 512);
        let pos = Chess::default();
        let m = pos.legal_moves()[3];
        tt.store(7, Some(m), -params::MATE + 40, 123, 12, Bound::Lower);
        let e = tt.probe(7).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (Some(encode(m)), -params::MATE + 40, 123, 12, Bound::Lower)
        );
        assert!(tt.probe(7 + 512).is_none());
        tt.store(7, None, 12, -5, -3, Bound::Upper);
        let e = tt.probe(7).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (Some(encode(m)), 12, -5, -3, Bound::Upper)
        );
    }

    /// Two threads write entries whose fields all derive from their key while a third reads: every hit must
    /// be a whole entry of its own key, never a mix of two writes.
    #[test]
    fn threads_writing_at_once_never_produce_a_torn_entry() {
        let tt = SharedTt::new(1 << 10);
        let entry = |key: u64| {
            let k = (key >> 16) as i32;
            (k % 20_000, k % 7_000 - 3_500, k % 100)
        };
        // Writer `t` writes key `j` for `j = 2 * i + t`, in slot `i % 1024`.
        let key = |j: u64| (j << 16) | ((j / 2) % 1024);
        std::thread::scope(|scope| {
            for t in 0..2u64 {
                let tt = &tt;
                scope.spawn(move || {
                    for i in 0..200_000u64 {
                        let k = key(2 * i + t);
                        let (score, eval, depth) = entry(k);
                        tt.store(k, None, score, eval, depth, Bound::Exact);
                    }
                });
            }
            let tt = &tt;
            scope.spawn(move || {
                for j in 0..400_000u64 {
                    let k = key(j);
                    if let Some(e) = tt.probe(k) {
                        assert_eq!((e.score, e.eval, e.depth), entry(k), "{k:x}");
                    }
                }
            });
        });
        // Afterwards the slots hold whole entries of written keys (a slot whose last two writes interleaved holds
        // none, which is rare).
        let mut whole = 0;
        for j in 0..400_000u64 {
            let k = key(j);
            if let Some(e) = tt.probe(k) {
                assert_eq!((e.score, e.eval, e.depth), entry(k), "{k:x}");
                whole += 1;
            }
        }
        assert!(whole >= 1000, "{whole} of 1024 slots");
    }

    #[test]
    fn every_legal_move_has_its_own_code() {
        // Positions with castling, en passant and promotions.
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            let pos: Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap();
            let moves = pos.legal_moves();
            let mut codes: Vec<u16> = moves.iter().map(|&m| encode(m)).collect();
            codes.sort_unstable();
            codes.dedup();
            assert_eq!(codes.len(), moves.len(), "{fen}");
        }
    }
}
