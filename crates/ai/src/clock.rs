//! Time management, kept apart from the search (as dede1751/carp does): a [`Budget`] computed once from the
//! table's clock, and a [`Timer`] the search asks every few thousand nodes whether to go on.
//!
//! The soft limit says "do not start another iteration"; the hard limit aborts the search wherever it is. The
//! hard limit is the budget the caller can rely on: the search returns within it plus the time to unwind (well
//! under 20 ms; see the `timing` test and `parlor bench clock`).

use crate::params;
use crate::request::{Clock, Limit};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The time one search may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Abort the search at this.
    pub hard: Option<Duration>,
    /// Deepest iteration allowed by the limit itself (UCI `go depth`).
    pub depth: Option<u32>,
    /// Nodes after which the search stops (UCI `go nodes`).
    pub nodes: Option<u64>,
}

impl Budget {
    /// The budget for a limit, scaled by a level's share of the time (in 1/1000).
    pub fn new(limit: &Limit, time_permille: u32) -> Budget {
        let scale = |d: Duration| d * time_permille / 1000;
        match *limit {
            Limit::Clock(clock) => {
                let (soft, hard) = clock_budget(&clock);
                Budget {
                    soft: Some(scale(soft)),
                    hard: Some(scale(hard)),
                    depth: None,
                    nodes: None,
                }
            }
            Limit::MoveTime(t) => {
                let hard = scale(movetime_budget(t));
                Budget {
                    soft: Some(hard),
                    hard: Some(hard),
                    depth: None,
                    nodes: None,
                }
            }
            Limit::Depth(d) => Budget {
                soft: None,
                hard: None,
                depth: Some(d),
                nodes: None,
            },
            Limit::Infinite => Budget {
                soft: None,
                hard: None,
                depth: None,
                nodes: None,
            },
            Limit::FirstOf(bounds) => {
                let from_clock = bounds.clock.map(|clock| clock_budget(&clock));
                let from_time = bounds.time.map(movetime_budget);
                let earlier = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                Budget {
                    soft: earlier(from_clock.map(|(soft, _)| soft), from_time).map(scale),
                    hard: earlier(from_clock.map(|(_, hard)| hard), from_time).map(scale),
                    depth: bounds.depth,
                    nodes: bounds.nodes,
                }
            }
        }
    }
}

/// The hard limit of a fixed time per move: a little is kept back for answering.
fn movetime_budget(t: Duration) -> Duration {
    let keep = (t * params::MOVETIME_OVERHEAD_PERMILLE / 1000).min(params::MOVE_OVERHEAD);
    t.saturating_sub(keep)
}

/// Soft and hard limits from a clock: the remaining time spread over the moves to go, plus most of the
/// increment; the hard limit a few times that, never more than a quarter of the clock nor the table's cap.
fn clock_budget(clock: &Clock) -> (Duration, Duration) {
    let available = clock.remaining.saturating_sub(params::MOVE_OVERHEAD);
    let moves = clock
        .moves_to_go
        .unwrap_or(params::MOVES_HORIZON)
        .clamp(1, params::MOVES_HORIZON);
    let mut share = available / moves + clock.increment * params::INCREMENT_PERMILLE / 1000;
    share = share.min(available);
    let mut hard = (share * params::HARD_PERMILLE / 1000)
        .min(available * params::HARD_MAX_OF_REMAINING_PERMILLE / 1000)
        .max(share.min(available));
    let mut soft = share * params::SOFT_PERMILLE / 1000;
    if let Some(cap) = clock.per_move_cap {
        let cap = cap.saturating_sub(params::MOVE_OVERHEAD);
        hard = hard.min(cap);
        soft = soft.min(cap);
    }
    (soft.min(hard), hard)
}

/// Asked by a search whether to go on: the hard limit and the caller's stop flag.
#[derive(Debug)]
pub struct Timer {
    start: Instant,
    budget: Budget,
    stop: Arc<AtomicBool>,
    stopped: bool,
}

impl Timer {
    /// Starts timing now.
    pub fn start(budget: Budget, stop: Arc<AtomicBool>) -> Timer {
        Timer::started_at(Instant::now(), budget, stop)
    }

    /// A timer that started at `start` (when the request arrived, before any set-up).
    pub fn started_at(start: Instant, budget: Budget, stop: Arc<AtomicBool>) -> Timer {
        Timer {
            start,
            budget,
            stop,
            stopped: false,
        }
    }

    /// A timer with the same start and budget that obeys another stop flag (a helper thread's).
    pub fn with_stop(&self, stop: Arc<AtomicBool>) -> Timer {
        Timer::started_at(self.start, self.budget, stop)
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The budget.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Whether the search must end now, after `nodes` nodes. Call it every [`params::NODES_PER_CLOCK_CHECK`]
    /// nodes; once true it stays true.
    pub fn must_stop(&mut self, nodes: u64) -> bool {
        if !self.stopped {
            let late = self.budget.hard.is_some_and(|hard| self.start.elapsed() >= hard);
            let done = self.budget.nodes.is_some_and(|most| nodes >= most);
            self.stopped = late || done || self.stop.load(Ordering::Relaxed);
        }
        self.stopped
    }

    /// Whether the search was stopped (without looking at the clock again).
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// Whether a new iteration of `depth` may start, after `nodes` nodes.
    pub fn may_start_iteration(&mut self, depth: u32, nodes: u64) -> bool {
        if self.must_stop(nodes) {
            return false;
        }
        if self.budget.depth.is_some_and(|d| depth > d) {
            return false;
        }
        self.budget.soft.is_none_or(|soft| self.start.elapsed() < soft)
    }

    /// Whether the stop flag is raised (for `go infinite`, which waits for it).
    pub fn stop_flag(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(remaining_ms: u64, inc_ms: u64, cap: Option<u64>) -> Limit {
        Limit::Clock(Clock {
            remaining: Duration::from_millis(remaining_ms),
            increment: Duration::from_millis(inc_ms),
            per_move_cap: cap.map(Duration::from_millis),
            moves_to_go: None,
        })
    }

    #[test]
    fn default_table_clock_spends_seconds_not_minutes() {
        let b = Budget::new(&Limit::Clock(Clock::chess_default()), 1000);
        let hard = b.hard.unwrap_or_default();
        assert!(
            hard > Duration::from_secs(20) && hard <= Duration::from_secs(60),
            "{hard:?}"
        );
        assert!(b.soft.unwrap_or_default() <= hard);
    }

    #[test]
    fn the_cap_and_the_clock_bound_the_hard_limit() {
        let b = Budget::new(&clock(3_600_000, 0, Some(5_000)), 1000);
        assert!(b.hard.unwrap_or_default() <= Duration::from_secs(5));
        for ms in [0, 1, 15, 40, 100, 1000, 10_000] {
            let b = Budget::new(&clock(ms, 0, None), 1000);
            assert!(
                b.hard.unwrap_or_default() <= Duration::from_millis(ms),
                "{ms}: {b:?}"
            );
        }
    }

    #[test]
    fn movetime_keeps_a_little_back() {
        let b = Budget::new(&Limit::MoveTime(Duration::from_millis(100)), 1000);
        assert_eq!(b.hard, Some(Duration::from_millis(98)));
    }
}
