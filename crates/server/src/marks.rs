//! What players marked about others: blocks and favourites, in memory for the players with a session here (mutes
//! live in the session itself, since only the player's own connections use them). The store keeps them; the hub
//! loads a player's marks with their session.

use parlor_store::Relation;
use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, MutexGuard};

/// Blocks and favourites by owner.
#[derive(Debug, Default)]
pub struct Marks {
    blocks: Mutex<HashMap<String, HashSet<String>>>,
    favourites: Mutex<HashMap<String, HashSet<String>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Marks {
    /// Whether `owner` blocked `other`.
    pub fn has_blocked(&self, owner: &str, other: &str) -> bool {
        lock(&self.blocks).get(owner).is_some_and(|b| b.contains(other))
    }

    /// Whether `owner` blocked `other`, if `owner`'s marks are loaded here.
    pub fn known_block(&self, owner: &str, other: &str) -> Option<bool> {
        lock(&self.blocks).get(owner).map(|b| b.contains(other))
    }

    /// Whether `owner` marked `other` as a favourite.
    pub fn is_favourite(&self, owner: &str, other: &str) -> bool {
        lock(&self.favourites)
            .get(owner)
            .is_some_and(|b| b.contains(other))
    }

    /// Replaces a player's blocks and favourites (loaded from the store).
    pub fn load(&self, owner: &str, blocks: HashSet<String>, favourites: HashSet<String>) {
        lock(&self.blocks).insert(owner.to_owned(), blocks);
        lock(&self.favourites).insert(owner.to_owned(), favourites);
    }

    /// Sets or clears a block or a favourite (a mute is the session's).
    pub fn set(&self, owner: &str, other: &str, relation: Relation, on: bool) {
        let map = match relation {
            Relation::Mute => return,
            Relation::Block => &self.blocks,
            Relation::Favourite => &self.favourites,
        };
        let mut map = lock(map);
        let set = map.entry(owner.to_owned()).or_default();
        if on {
            set.insert(other.to_owned());
        } else {
            set.remove(other);
        }
    }
}
