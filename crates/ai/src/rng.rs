//! A small random number generator (SplitMix64, Steele, Lea and Flood, "Fast splittable pseudorandom number
//! generators", OOPSLA 2014) for the levels' noise, random movers and test games: tiny and reproducible from a seed.

use std::time::{SystemTime, UNIX_EPOCH};

/// SplitMix64.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator seeded from the seed given, or else from the system clock.
    pub fn from_seed_or_clock(seed: Option<u64>) -> Rng {
        Rng(seed.unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(0x9E37_79B9_7F4A_7C15)
        }))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_varies() {
        let mut rng = Rng::new(1);
        let draws: Vec<u64> = (0..100).map(|_| rng.below(6)).collect();
        assert!(draws.iter().all(|d| *d < 6));
        assert!((0..6).all(|v| draws.contains(&v)));
        assert_eq!(Rng::new(5).next_u64(), Rng::new(5).next_u64());
    }
}
