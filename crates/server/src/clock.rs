//! The server's clocks: base time, increment and a per-move cap, charged from the moment a move was stored.
//! Uses tokio's `Instant` so tests can pause and advance time.

use parlor_protocol::{Clocks, TimeControl};
use std::time::Duration;
use tokio::time::Instant;

/// Why a clock flagged.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flag {
    /// The seat's overall time ran out.
    Time,
    /// The move took longer than the per-move cap.
    MoveCap,
}

/// The clocks of one game.
#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    remaining: Vec<Option<Duration>>,
    running: Option<(usize, Instant)>,
}

impl Clock {
    /// Fresh clocks for `seats` seats.
    pub fn new(control: TimeControl, seats: usize) -> Clock {
        Clock {
            control,
            remaining: vec![control.base_ms.map(Duration::from_millis); seats],
            running: None,
        }
    }

    /// Clocks restored from stored milliseconds left per seat.
    pub fn restore(control: TimeControl, remaining_ms: &[Option<u64>]) -> Clock {
        Clock {
            control,
            remaining: remaining_ms
                .iter()
                .map(|r| r.map(Duration::from_millis))
                .collect(),
            running: None,
        }
    }

    /// True if no clock runs at this table.
    pub fn is_untimed(&self) -> bool {
        self.control.is_untimed()
    }

    /// Starts the turn of `seat` at `now`.
    pub fn start(&mut self, seat: usize, now: Instant) {
        if !self.is_untimed() {
            self.running = Some((seat, now));
        }
    }

    /// Stops the clock without charging anyone (game over).
    pub fn halt(&mut self, now: Instant) {
        if let Some((seat, started)) = self.running.take()
            && let Some(rem) = self.remaining[seat].as_mut()
        {
            *rem = rem.saturating_sub(now.saturating_duration_since(started));
        }
    }

    /// Ends the running turn at `now`: charges the time used and adds the increment.
    ///
    /// # Errors
    /// The [`Flag`] if the time or the per-move cap ran out before `now`; the clock is then halted.
    pub fn finish_turn(&mut self, now: Instant) -> Result<(), Flag> {
        let Some((seat, started)) = self.running.take() else {
            return Ok(());
        };
        let used = now.saturating_duration_since(started);
        if let Some(cap) = self.control.per_move_ms.map(Duration::from_millis)
            && used > cap
        {
            self.charge(seat, used);
            return Err(Flag::MoveCap);
        }
        if let Some(rem) = self.remaining[seat] {
            if used > rem {
                self.remaining[seat] = Some(Duration::ZERO);
                return Err(Flag::Time);
            }
            self.remaining[seat] = Some(rem - used + Duration::from_millis(self.control.increment_ms));
        }
        Ok(())
    }

    fn charge(&mut self, seat: usize, used: Duration) {
        if let Some(rem) = self.remaining[seat].as_mut() {
            *rem = rem.saturating_sub(used);
        }
    }

    /// When the running seat flags if it does not move, and why.
    pub fn deadline(&self) -> Option<(Instant, Flag)> {
        let (seat, started) = self.running?;
        let by_time = self.remaining[seat].map(|r| (started + r, Flag::Time));
        let by_cap = self
            .control
            .per_move_ms
            .map(|c| (started + Duration::from_millis(c), Flag::MoveCap));
        match (by_time, by_cap) {
            (Some(t), Some(c)) => Some(if c.0 < t.0 { c } else { t }),
            (t, c) => t.or(c),
        }
    }

    /// The running seat, if any.
    pub fn running(&self) -> Option<usize> {
        self.running.map(|(seat, _)| seat)
    }

    /// Milliseconds left per seat as of `now` (the running seat charged so far); `None` where there is no base.
    pub fn remaining_ms(&self, now: Instant) -> Vec<Option<u64>> {
        (0..self.remaining.len())
            .map(|seat| {
                self.remaining[seat].map(|r| {
                    let used = match self.running {
                        Some((s, started)) if s == seat => now.saturating_duration_since(started),
                        _ => Duration::ZERO,
                    };
                    r.saturating_sub(used).as_millis() as u64
                })
            })
            .collect()
    }

    /// Milliseconds left per seat at the start of the running turn (what is stored, so a restart gives back the
    /// interrupted turn).
    pub fn stored_ms(&self) -> Vec<Option<u64>> {
        self.remaining
            .iter()
            .map(|r| r.map(|d| d.as_millis() as u64))
            .collect()
    }

    /// The protocol snapshot as of `now`; `None` for untimed games.
    pub fn snapshot(&self, now: Instant) -> Option<Clocks> {
        if self.is_untimed() {
            return None;
        }
        let move_left_ms = match (self.running, self.control.per_move_ms) {
            (Some((_, started)), Some(cap)) => {
                Some(cap.saturating_sub(now.saturating_duration_since(started).as_millis() as u64))
            }
            _ => None,
        };
        Some(Clocks {
            remaining_ms: self.remaining_ms(now),
            running: self.running().map(|s| s as u8),
            move_left_ms,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn time_is_charged_and_incremented() {
        let t0 = Instant::now();
        let tc = TimeControl {
            base_ms: Some(60_000),
            increment_ms: 2_000,
            per_move_ms: None,
        };
        let mut clock = Clock::new(tc, 2);
        clock.start(0, t0);
        assert_eq!(clock.finish_turn(t0 + secs(10)), Ok(()));
        assert_eq!(
            clock.remaining_ms(t0 + secs(10)),
            vec![Some(52_000), Some(60_000)]
        );
        clock.start(1, t0 + secs(10));
        assert_eq!(clock.remaining_ms(t0 + secs(15))[1], Some(55_000));
        assert_eq!(clock.deadline(), Some((t0 + secs(70), Flag::Time)));
    }

    #[test]
    fn running_out_of_time_flags() {
        let t0 = Instant::now();
        let mut clock = Clock::new(
            TimeControl {
                base_ms: Some(5_000),
                increment_ms: 0,
                per_move_ms: None,
            },
            2,
        );
        clock.start(1, t0);
        assert_eq!(clock.finish_turn(t0 + secs(6)), Err(Flag::Time));
        assert_eq!(clock.remaining_ms(t0)[1], Some(0));
    }

    #[test]
    fn the_per_move_cap_flags_before_the_base_runs_out() {
        let t0 = Instant::now();
        let mut clock = Clock::new(TimeControl::STANDARD, 2);
        clock.start(0, t0);
        assert_eq!(clock.deadline(), Some((t0 + secs(60), Flag::MoveCap)));
        assert_eq!(clock.finish_turn(t0 + secs(61)), Err(Flag::MoveCap));
    }

    #[test]
    fn per_turn_limit_without_base() {
        let t0 = Instant::now();
        let mut clock = Clock::new(
            TimeControl {
                base_ms: None,
                increment_ms: 0,
                per_move_ms: Some(30_000),
            },
            4,
        );
        clock.start(2, t0);
        assert_eq!(
            clock.snapshot(t0 + secs(10)).and_then(|c| c.move_left_ms),
            Some(20_000)
        );
        assert_eq!(clock.finish_turn(t0 + secs(29)), Ok(()));
        assert_eq!(clock.remaining_ms(t0), vec![None; 4]);
    }

    #[test]
    fn untimed_games_never_flag() {
        let mut clock = Clock::new(TimeControl::NONE, 4);
        clock.start(0, Instant::now());
        assert_eq!(clock.deadline(), None);
        assert_eq!(clock.snapshot(Instant::now()), None);
    }
}
