//! A least-recently-used cache bounded by bytes, for rendered PNGs: each entry weighs what its caller says
//! (the PNG and its key) plus [`ENTRY_OVERHEAD`] for the maps that hold it.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

/// Bytes counted for each entry besides its own weight: a slot in each of the two maps, the key kept twice and
/// the value's handle (an estimate on the generous side, so that many tiny entries still respect the budget).
pub const ENTRY_OVERHEAD: usize = 128;

/// A least-recently-used map whose entries weigh at most a byte budget together. `get` and `put` are
/// O(log n); the oldest entries go first when the budget is passed.
#[derive(Debug)]
pub struct Lru<K, V> {
    max_bytes: usize,
    bytes: usize,
    tick: u64,
    entries: HashMap<K, (V, usize, u64)>,
    order: BTreeMap<u64, K>,
}

impl<K: Hash + Eq + Clone, V: Clone> Lru<K, V> {
    /// An empty cache whose entries weigh at most `max_bytes` together, each counted as its weight plus
    /// [`ENTRY_OVERHEAD`].
    pub fn new(max_bytes: usize) -> Lru<K, V> {
        Lru {
            max_bytes,
            bytes: 0,
            tick: 0,
            entries: HashMap::new(),
            order: BTreeMap::new(),
        }
    }

    /// The value for `key`, marked as just used.
    pub fn get(&mut self, key: &K) -> Option<V> {
        self.tick += 1;
        let tick = self.tick;
        let (value, _, used) = self.entries.get_mut(key)?;
        let old = std::mem::replace(used, tick);
        let value = value.clone();
        if let Some(k) = self.order.remove(&old) {
            self.order.insert(tick, k);
        }
        Some(value)
    }

    /// Stores a value weighing `weight` bytes (its key's bytes included by the caller); the least recently
    /// used entries go until it fits. A value heavier than the whole budget is not kept.
    pub fn put(&mut self, key: K, value: V, weight: usize) {
        if let Some((_, w, used)) = self.entries.remove(&key) {
            self.bytes -= w;
            self.order.remove(&used);
        }
        let weight = weight.saturating_add(ENTRY_OVERHEAD);
        if weight > self.max_bytes {
            return;
        }
        while self.bytes + weight > self.max_bytes {
            let Some((_, oldest)) = self.order.pop_first() else {
                break;
            };
            if let Some((_, w, _)) = self.entries.remove(&oldest) {
                self.bytes -= w;
            }
        }
        self.tick += 1;
        self.order.insert(self.tick, key.clone());
        self.entries.insert(key, (value, weight, self.tick));
        self.bytes += weight;
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Bytes the entries count for (their weights plus [`ENTRY_OVERHEAD`] each); never more than the budget.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The byte budget.
    pub fn max_bytes(&self) -> usize {
        self.max_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_goes_first() {
        let mut c = Lru::new(2 * (ENTRY_OVERHEAD + 1));
        c.put("a", 1, 1);
        c.put("b", 2, 1);
        assert_eq!(c.get(&"a"), Some(1));
        c.put("c", 3, 1);
        assert_eq!(c.get(&"b"), None);
        assert_eq!(c.get(&"a"), Some(1));
        assert_eq!(c.get(&"c"), Some(3));
        assert_eq!(c.len(), 2);
    }

    #[test]
    fn bytes_bound_the_cache() {
        let entry = |w: usize| w + ENTRY_OVERHEAD;
        let mut c = Lru::new(entry(4) * 2 + 2);
        c.put(1, (), 4);
        c.put(2, (), 4);
        c.put(3, (), 4);
        assert_eq!(c.get(&1), None);
        assert_eq!(c.bytes(), entry(4) * 2);
        c.put(4, (), entry(4) * 3);
        assert_eq!(c.get(&4), None, "heavier than the budget: not kept");
        c.put(2, (), 1);
        assert_eq!(c.bytes(), entry(4) + entry(1));
        assert_eq!(c.len(), 2);
    }

    #[test]
    fn many_entries_of_any_weight_never_pass_the_budget() {
        let budget = 10_000;
        let mut c = Lru::new(budget);
        let mut seed = 7u64;
        for key in 0..5_000u64 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let weight = (seed >> 33) as usize % 3_000;
            c.put(key % 700, key, weight);
            assert!(c.bytes() <= budget, "{} bytes after {key}", c.bytes());
            let sum: usize = c.entries.values().map(|(_, w, _)| *w).sum();
            assert_eq!(sum, c.bytes());
            assert_eq!(c.order.len(), c.len());
        }
        assert!(c.len() >= 3, "{}", c.len());
    }
}
