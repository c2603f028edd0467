//! Abuse limits: token buckets per connection, per player and per address, and every number of that policy.
//! The buckets of players and addresses live in the hub, bounded in count, so reconnecting (or opening more sockets)
//! does not reset them.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

/// A steady rate and the burst allowed above it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Tokens per second.
    pub per_second: f64,
    /// Tokens a full bucket holds.
    pub burst: f64,
}

/// Frames per second a socket may send on average (every frame: text, binary, ping, pong), and the burst. Clients
/// send a move or a click at a time and a ping every 20 s; 20/s is far above a person's pace.
pub const FRAMES: Rate = Rate {
    per_second: 20.0,
    burst: 40.0,
};
/// A socket whose frame bucket falls this far below empty is closed (1008): it ignored the `rate_limited` errors.
pub const FRAMES_CLOSE_DEBT: f64 = 40.0;

/// Wrong private codes per player: ten typos at once, then one try every ten seconds (31^6 codes make guessing
/// hopeless at that pace).
pub const BAD_CODES_PLAYER: Rate = Rate {
    per_second: 0.1,
    burst: 10.0,
};
/// Wrong private codes per address: a school class behind one address typing codes at the same time, but a
/// script making a new identity per guess still gets one guess every two seconds.
pub const BAD_CODES_ADDRESS: Rate = Rate {
    per_second: 0.5,
    burst: 30.0,
};

/// Chat lines per player (all their sockets together): a burst of five, then one every two seconds.
pub const CHAT: Rate = Rate {
    per_second: 0.5,
    burst: 5.0,
};

/// Tables a player creates: as many as they may host at once, then one every ten seconds (creating and leaving
/// tables in a loop).
pub const CREATE_PLAYER: Rate = Rate {
    per_second: 0.1,
    burst: 10.0,
};
/// Tables created from one address: a class creating a table each, then one every two seconds.
pub const CREATE_ADDRESS: Rate = Rate {
    per_second: 0.5,
    burst: 30.0,
};
/// Open tables a player may host (created and not yet closed): more than anyone plays at once, few enough that
/// one player cannot fill the lobby.
pub const MAX_HOSTED: usize = 10;

/// Renames per player: a few tries to get it right, then one a minute. A rename goes to every table the player
/// sits at or watches and to the lobby.
pub const RENAME: Rate = Rate {
    per_second: 1.0 / 60.0,
    burst: 3.0,
};

/// Challenges a player sends: five at once, then one every ten seconds (each one pops up on the other's screen).
pub const CHALLENGE: Rate = Rate {
    per_second: 0.1,
    burst: 5.0,
};
/// Pending challenges a player may have sent at once (and only one to each player).
pub const MAX_PENDING_CHALLENGES: usize = 5;

/// Players or addresses whose buckets are kept. Past this, buckets that have refilled (idle keys) are dropped,
/// then the longest unused one: memory stays bounded under a flood of new identities or addresses.
pub const MAX_KEYS: usize = 10_000;

/// A token bucket.
#[derive(Clone, Debug)]
pub struct Bucket {
    tokens: f64,
    at: Instant,
    rate: Rate,
}

impl Bucket {
    /// A full bucket.
    pub fn new(rate: Rate) -> Bucket {
        Bucket {
            tokens: rate.burst,
            at: Instant::now(),
            rate,
        }
    }

    fn refill(&mut self) {
        let now = Instant::now();
        let elapsed = now.duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.rate.per_second).min(self.rate.burst);
        self.at = now;
    }

    /// Takes a token whatever is left; returns what is left (below zero: over the limit, by that much).
    pub fn charge(&mut self) -> f64 {
        self.refill();
        self.tokens -= 1.0;
        self.tokens
    }

    /// Takes a token if there is one.
    pub fn try_take(&mut self) -> bool {
        self.refill();
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether a token is there (without taking it).
    pub fn has_token(&mut self) -> bool {
        self.refill();
        self.tokens >= 1.0
    }

    fn is_full_at(&self, now: Instant) -> bool {
        let elapsed = now.duration_since(self.at).as_secs_f64();
        self.tokens + elapsed * self.rate.per_second >= self.rate.burst
    }
}

/// Buckets by key (a player or an address), at most [`MAX_KEYS`] of them.
#[derive(Debug)]
pub struct Keyed<K> {
    rate: Rate,
    buckets: Mutex<HashMap<K, Bucket>>,
}

impl<K: Hash + Eq + Clone> Keyed<K> {
    /// No buckets yet; each key starts full.
    pub fn new(rate: Rate) -> Keyed<K> {
        Keyed {
            rate,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    fn with<T>(&self, key: &K, f: impl FnOnce(&mut Bucket) -> T) -> T {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if !buckets.contains_key(key) && buckets.len() >= MAX_KEYS {
            let now = Instant::now();
            buckets.retain(|_, b| !b.is_full_at(now));
            if buckets.len() >= MAX_KEYS
                && let Some(oldest) = buckets.iter().min_by_key(|(_, b)| b.at).map(|(k, _)| k.clone())
            {
                buckets.remove(&oldest);
            }
        }
        f(buckets
            .entry(key.clone())
            .or_insert_with(|| Bucket::new(self.rate)))
    }

    /// Takes a token of `key` if it has one.
    pub fn try_take(&self, key: &K) -> bool {
        self.with(key, Bucket::try_take)
    }

    /// Whether `key` has a token (none is taken).
    pub fn has_token(&self, key: &K) -> bool {
        self.with(key, Bucket::has_token)
    }

    /// Takes a token of `key` whatever is left.
    pub fn charge(&self, key: &K) {
        self.with(key, |b| {
            b.charge();
        });
    }

    /// Keys kept now.
    pub fn len(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether no key is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Whether the per-address limits skip this peer: 127.0.0.1 and ::1 are a reverse proxy on the same host (every
/// client would share its limits) or a local load test; clients behind a proxy are limited per player.
pub fn is_exempt(ip: IpAddr) -> bool {
    ip == IpAddr::from([127, 0, 0, 1]) || ip == IpAddr::from(std::net::Ipv6Addr::LOCALHOST)
}

/// The key of an address: IPv4 as is, IPv6 by its /64 (one subscriber's network, which they can number freely).
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut s = v6.segments();
                s[4..].fill(0);
                IpAddr::V6(s.into())
            }
        },
    }
}

/// The per-player and per-address buckets the hub keeps.
#[derive(Debug)]
pub struct Limits {
    /// Wrong private codes, per player.
    pub bad_codes_player: Keyed<String>,
    /// Wrong private codes, per address.
    pub bad_codes_address: Keyed<IpAddr>,
    /// Chat lines, per player.
    pub chat: Keyed<String>,
    /// Tables created, per player.
    pub create_player: Keyed<String>,
    /// Tables created, per address.
    pub create_address: Keyed<IpAddr>,
    /// Renames, per player.
    pub rename: Keyed<String>,
    /// Challenges sent, per player.
    pub challenge: Keyed<String>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            bad_codes_player: Keyed::new(BAD_CODES_PLAYER),
            bad_codes_address: Keyed::new(BAD_CODES_ADDRESS),
            chat: Keyed::new(CHAT),
            create_player: Keyed::new(CREATE_PLAYER),
            create_address: Keyed::new(CREATE_ADDRESS),
            rename: Keyed::new(RENAME),
            challenge: Keyed::new(CHALLENGE),
        }
    }
}

/// How long the writer waits for one frame to go out before it drops the connection: a client that has not read
/// for this long (its socket buffers full) is gone or hostile, and holding its messages costs memory.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_refills_at_its_rate_up_to_its_burst() {
        let mut b = Bucket::new(Rate {
            per_second: 50.0,
            burst: 2.0,
        });
        assert!(b.try_take());
        assert!(b.try_take());
        assert!(!b.try_take());
        std::thread::sleep(Duration::from_millis(30));
        assert!(b.try_take());
        std::thread::sleep(Duration::from_millis(200));
        assert!(b.try_take() && b.try_take() && !b.try_take());
        assert!(b.charge() < 0.0);
    }

    #[test]
    fn keyed_buckets_stay_bounded_and_keep_the_recent_keys() {
        let keyed = Keyed::new(Rate {
            per_second: 1e-6,
            burst: 1.0,
        });
        for k in 0..(MAX_KEYS as u32 + 500) {
            keyed.charge(&k);
        }
        assert_eq!(keyed.len(), MAX_KEYS);
        assert!(!keyed.has_token(&(MAX_KEYS as u32 + 499)));
        // Idle keys (refilled) go first.
        let quick = Keyed::new(Rate {
            per_second: 1e6,
            burst: 1.0,
        });
        for k in 0..(MAX_KEYS as u32 + 10) {
            quick.charge(&k);
        }
        assert!(quick.len() <= MAX_KEYS);
    }

    #[test]
    fn ipv6_addresses_count_by_their_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap_or(IpAddr::from([0u8; 4]));
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap_or(IpAddr::from([0u8; 4]));
        let c: IpAddr = "::ffff:10.0.0.1".parse().unwrap_or(IpAddr::from([0u8; 4]));
        assert_eq!(address_key(a), address_key(b));
        assert_ne!(
            address_key(a),
            address_key("2001:db8:1:3::1".parse().unwrap_or(a))
        );
        assert_eq!(address_key(c), IpAddr::from([10, 0, 0, 1]));
    }
}
