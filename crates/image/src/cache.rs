//! A small least-recently-used cache bounded by entry count and by total weight (bytes), for rendered PNGs.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

/// A least-recently-used map. `get` and `put` are O(log n); the oldest entries go first when either bound
/// is passed.
#[derive(Debug)]
pub struct Lru<K, V> {
    max_entries: usize,
    max_weight: usize,
    weight: usize,
    tick: u64,
    entries: HashMap<K, (V, usize, u64)>,
    order: BTreeMap<u64, K>,
}

impl<K: Hash + Eq + Clone, V: Clone> Lru<K, V> {
    /// An empty cache keeping at most `max_entries` entries weighing at most `max_weight` together.
    pub fn new(max_entries: usize, max_weight: usize) -> Lru<K, V> {
        Lru {
            max_entries: max_entries.max(1),
            max_weight,
            weight: 0,
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

    /// Stores a value of some weight (a value heavier than the whole cache is not kept).
    pub fn put(&mut self, key: K, value: V, weight: usize) {
        if let Some((_, w, used)) = self.entries.remove(&key) {
            self.weight -= w;
            self.order.remove(&used);
        }
        if weight > self.max_weight {
            return;
        }
        while self.entries.len() >= self.max_entries || self.weight + weight > self.max_weight {
            let Some((_, oldest)) = self.order.pop_first() else {
                break;
            };
            if let Some((_, w, _)) = self.entries.remove(&oldest) {
                self.weight -= w;
            }
        }
        self.tick += 1;
        self.order.insert(self.tick, key.clone());
        self.entries.insert(key, (value, weight, self.tick));
        self.weight += weight;
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Total weight of the entries.
    pub fn weight(&self) -> usize {
        self.weight
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_goes_first() {
        let mut c = Lru::new(2, 100);
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
    fn weight_bounds_the_cache() {
        let mut c = Lru::new(10, 10);
        c.put(1, (), 4);
        c.put(2, (), 4);
        c.put(3, (), 4);
        assert_eq!(c.get(&1), None);
        assert_eq!(c.weight(), 8);
        c.put(4, (), 11);
        assert_eq!(c.get(&4), None);
        c.put(2, (), 1);
        assert_eq!(c.weight(), 5);
        assert_eq!(c.len(), 2);
    }
}
