//! How strong a CPU player is: [`Level`], a ladder of eight from a beginner's opponent to the strongest, three of
//! them also by name (`easy` is 2, `medium` 5, `hard` 8).

use std::fmt;
use std::str::FromStr;

/// How strong a CPU player is: 1 (weakest) to 8 (strongest). Each game's parameters per level are in
/// [`crate::params`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

impl Level {
    /// Level 1: a first opponent; it hangs pieces and sometimes misses a mate in one, but never plays at random.
    pub const BEGINNER: Level = Level(1);
    /// Level 2: shallow; takes a hanging piece, falls for tactics a few moves deep.
    pub const EASY: Level = Level(2);
    /// Level 5: a club player.
    pub const MEDIUM: Level = Level(5);
    /// Level 8: as strong as the hardware allows in its time.
    pub const HARD: Level = Level(8);
    /// The weakest and the strongest level.
    pub const RANGE: (u8, u8) = (1, 8);
    /// Every level, weakest first.
    pub const ALL: [Level; 8] = [
        Level(1),
        Level(2),
        Level(3),
        Level(4),
        Level(5),
        Level(6),
        Level(7),
        Level(8),
    ];
    /// The levels with a name, weakest first.
    pub const NAMED: [Level; 3] = [Level::EASY, Level::MEDIUM, Level::HARD];

    /// The level `n` (1 to 8), if there is one.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= Level::RANGE.0 && n <= Level::RANGE.1 {
            Some(Level(n))
        } else {
            None
        }
    }

    /// The level's number, 1 to 8.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// Index from 0 (level 1) to 7 (level 8), for the parameter tables.
    pub const fn index(self) -> usize {
        self.0 as usize - 1
    }

    /// The name tables and the protocol use: `easy`, `medium`, `hard` for those three, the number for the others.
    pub const fn name(self) -> &'static str {
        match self.0 {
            1 => "1",
            2 => "easy",
            3 => "3",
            4 => "4",
            5 => "medium",
            6 => "6",
            7 => "7",
            _ => "hard",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level that is neither a number from 1 to 8 nor `easy`, `medium` or `hard`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown level `{0}` (expected 1 to 8, easy, medium or hard)")]
pub struct ParseLevelError(pub String);

impl FromStr for Level {
    type Err = ParseLevelError;
    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        let s = s.trim();
        let by_number = s.parse::<u8>().ok().and_then(Level::new);
        by_number
            .or_else(|| Level::ALL.into_iter().find(|l| l.name().eq_ignore_ascii_case(s)))
            .ok_or_else(|| ParseLevelError(s.to_owned()))
    }
}

/// Which of `count` root moves a level considers: each is overlooked with a chance of `permille` in 1000, but at
/// least one is kept. A level that overlooks nothing draws nothing from `rng`.
pub fn seen_moves(count: usize, permille: u32, rng: &mut crate::rng::Rng) -> Vec<bool> {
    if permille == 0 || count == 0 {
        return vec![true; count];
    }
    let mut seen: Vec<bool> = (0..count)
        .map(|_| rng.below(1000) >= u64::from(permille))
        .collect();
    if !seen.contains(&true) {
        seen[rng.below(count as u64) as usize] = true;
    }
    seen
}

/// Answers, call after call, whether the next move was seen: for `retain` over the moves [`seen_moves`] judged.
pub fn seen_in_order(seen: Vec<bool>) -> impl FnMut() -> bool {
    let mut marks = seen.into_iter();
    move || marks.next().unwrap_or(true)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn levels_read_by_number_and_by_name() {
        assert_eq!("easy".parse::<Level>(), Ok(Level::EASY));
        assert_eq!(" Hard ".parse::<Level>(), Ok(Level::HARD));
        assert_eq!("5".parse::<Level>(), Ok(Level::MEDIUM));
        assert_eq!("1".parse::<Level>().unwrap().number(), 1);
        for bad in ["0", "9", "", "expert", "-1"] {
            assert!(bad.parse::<Level>().is_err(), "{bad}");
        }
        for level in Level::ALL {
            assert_eq!(level.name().parse::<Level>(), Ok(level));
        }
    }

    #[test]
    fn a_level_overlooks_some_moves_but_never_all() {
        let mut rng = crate::rng::Rng::from_seed_or_clock(Some(7));
        assert_eq!(seen_moves(5, 0, &mut rng), vec![true; 5]);
        let mut overlooked = 0;
        for _ in 0..1000 {
            let seen = seen_moves(4, 250, &mut rng);
            assert!(seen.contains(&true));
            overlooked += seen.iter().filter(|s| !**s).count();
        }
        // About a quarter of 4,000 moves.
        assert!((800..1200).contains(&overlooked), "{overlooked}");
        assert_eq!(seen_moves(1, 1000, &mut rng), vec![true]);
        let mut moves = vec![1, 2, 3];
        let mut seen = seen_in_order(vec![true, false, true]);
        moves.retain(|_| seen());
        assert_eq!(moves, [1, 3]);
    }
}
