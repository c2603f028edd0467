//! The time of a match's players: a fixed time per move, or a game clock with an increment on which a player whose
//! time runs out loses (`parlor match --clock 60+1`). Every move is timed by the match from the request to the
//! answer, so the time an outside engine spends reading and writing its protocol counts against it. The increment
//! is credited as a move starts: a move may use the time left plus the increment, which is how Scan 2.0 budgets
//! (it may spend up to 95% of both), and our engine, which budgets from the time left alone, stays within it.

use crate::request::{Clock, Limit};
use std::time::{Duration, Instant};

/// A game clock: the time each player starts with and what each move adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    /// Time for the whole game.
    pub base: Duration,
    /// Credited to the mover's time as each of its moves starts.
    pub increment: Duration,
}

impl std::str::FromStr for GameClock {
    type Err = String;

    /// `<base seconds>+<increment seconds>`, each a decimal number: `60+1`, `10+0.1`.
    fn from_str(text: &str) -> Result<GameClock, String> {
        let bad = || format!("`{text}`: expected <seconds>+<increment seconds>, such as 60+1");
        let (base, increment) = text.split_once('+').ok_or_else(bad)?;
        let secs = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v <= 86_400.0)
                .map(Duration::from_secs_f64)
                .ok_or_else(bad)
        };
        let clock = GameClock {
            base: secs(base)?,
            increment: secs(increment)?,
        };
        if clock.base.is_zero() {
            return Err(bad());
        }
        Ok(clock)
    }
}

impl std::fmt::Display for GameClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} s + {} s",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
}

/// How long a player may think for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Think {
    /// This long.
    Move(Duration),
    /// On a game clock: the mover's time left, the opponent's, and the increment credited as each move starts.
    Clock {
        /// The mover's time left.
        own: Duration,
        /// The opponent's time left.
        other: Duration,
        /// Credited as each move starts (this move may use `own` plus it).
        increment: Duration,
    },
}

impl Think {
    /// The search limit of our engine for this move.
    pub fn limit(self) -> Limit {
        match self {
            Think::Move(time) => Limit::MoveTime(time),
            Think::Clock { own, increment, .. } => Limit::Clock(Clock {
                remaining: own,
                increment,
                per_move_cap: None,
                moves_to_go: None,
            }),
        }
    }
}

/// The two players' clocks of one game (or the fixed time per move, which nobody runs out of).
#[derive(Clone, Debug)]
pub struct Clocks {
    movetime: Duration,
    clock: Option<GameClock>,
    /// Time left of the first and the second seat.
    left: [Duration; 2],
}

impl Clocks {
    /// The clocks at the start of a game: `clock` if there is one, else `movetime` a move.
    pub fn new(movetime: Duration, clock: Option<GameClock>) -> Clocks {
        let base = clock.map_or(Duration::ZERO, |c| c.base);
        Clocks {
            movetime,
            clock,
            left: [base; 2],
        }
    }

    /// How long `seat` (0 or 1) may think for its next move.
    pub fn think(&self, seat: usize) -> Think {
        match self.clock {
            None => Think::Move(self.movetime),
            Some(c) => Think::Clock {
                own: self.left[seat & 1],
                other: self.left[(seat + 1) & 1],
                increment: c.increment,
            },
        }
    }

    /// Charges `seat` for a move it started thinking at `started`, the increment credited first: false if the
    /// move took longer than the time left and the increment.
    pub fn charge(&mut self, seat: usize, started: Instant) -> bool {
        let Some(c) = self.clock else {
            return true;
        };
        let left = &mut self.left[seat & 1];
        match (*left + c.increment).checked_sub(started.elapsed()) {
            Some(rest) => {
                *left = rest;
                true
            }
            None => {
                *left = Duration::ZERO;
                false
            }
        }
    }

    /// Time left of `seat` (zero when there is no clock).
    pub fn left(&self, seat: usize) -> Duration {
        self.left[seat & 1]
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn clocks_read_as_seconds_plus_increment() {
        let c: GameClock = "60+1".parse().unwrap();
        assert_eq!(c.base, Duration::from_secs(60));
        assert_eq!(c.increment, Duration::from_secs(1));
        let c: GameClock = "10+0.1".parse().unwrap();
        assert_eq!(c.increment, Duration::from_millis(100));
        assert_eq!(c.to_string(), "10 s + 0.1 s");
        for bad in ["60", "0+1", "-5+1", "x+1", "60+", "1e9+0", "NaN+1"] {
            assert!(bad.parse::<GameClock>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_move_costs_its_time_and_earns_the_increment_and_a_fallen_flag_loses() {
        let clock = GameClock {
            base: Duration::from_millis(300),
            increment: Duration::from_millis(100),
        };
        let mut clocks = Clocks::new(Duration::from_millis(5), Some(clock));
        assert_eq!(
            clocks.think(1),
            Think::Clock {
                own: Duration::from_millis(300),
                other: Duration::from_millis(300),
                increment: Duration::from_millis(100)
            }
        );
        let started = Instant::now();
        std::thread::sleep(Duration::from_millis(50));
        assert!(clocks.charge(0, started));
        let left = clocks.left(0);
        assert!(
            left <= Duration::from_millis(350) && left > Duration::from_millis(200),
            "{left:?}"
        );
        assert_eq!(clocks.left(1), Duration::from_millis(300));
        let Think::Clock { own, other, .. } = clocks.think(1) else {
            panic!("a clock");
        };
        assert_eq!((own, other), (Duration::from_millis(300), left));
        // 300 ms left and the 100 ms increment: 350 ms is within them, 401 ms is not.
        let mut spare = clocks.clone();
        assert!(spare.charge(1, Instant::now() - Duration::from_millis(350)));
        assert!(spare.left(1) <= Duration::from_millis(50));
        let started = Instant::now() - Duration::from_millis(401);
        assert!(!clocks.charge(1, started));
        assert_eq!(clocks.left(1), Duration::ZERO);
        // Without a clock every move has its fixed time and nobody runs out.
        let mut fixed = Clocks::new(Duration::from_millis(5), None);
        assert_eq!(fixed.think(0), Think::Move(Duration::from_millis(5)));
        assert!(fixed.charge(0, Instant::now() - Duration::from_secs(10)));
        assert_eq!(
            Think::Move(Duration::from_millis(5)).limit(),
            Limit::MoveTime(Duration::from_millis(5))
        );
    }
}
