//! Timing for `parlor bench`: run a workload several times and keep the median, so one slow run (another process
//! on the machine) does not move the figure.

use std::time::{Duration, Instant};

/// The result of timing one workload.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample {
    /// What one run counted (nodes, renders ...); every run must count the same.
    pub count: u64,
    /// The median wall time of one run.
    pub median: Duration,
}

impl Sample {
    /// Items per second at the median.
    pub fn per_second(&self) -> f64 {
        self.count as f64 / self.median.as_secs_f64().max(1e-9)
    }
}

/// The median of some durations (the lower middle one for an even count); zero for none.
pub fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times
        .get(times.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or_default()
}

/// Runs each workload `runs` times, interleaved (a, b, a, b ...) so that a change in machine load hits them alike,
/// and returns a [`Sample`] per workload.
///
/// # Panics
/// If a workload counts differently on two runs: the thing measured is not deterministic, a bug.
pub fn compare(runs: usize, workloads: &mut [&mut dyn FnMut() -> u64]) -> Vec<Sample> {
    let mut times = vec![Vec::new(); workloads.len()];
    let mut counts = vec![None; workloads.len()];
    for _ in 0..runs.max(1) {
        for (i, work) in workloads.iter_mut().enumerate() {
            let start = Instant::now();
            let count = work();
            times[i].push(start.elapsed());
            assert!(
                counts[i].is_none_or(|c| c == count),
                "workload {i} counted {count}, before {counts:?}"
            );
            counts[i] = Some(count);
        }
    }
    times
        .into_iter()
        .zip(counts)
        .map(|(t, c)| Sample {
            count: c.unwrap_or(0),
            median: median(t),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_takes_the_middle() {
        let ms = Duration::from_millis;
        assert_eq!(median(vec![ms(5), ms(1), ms(3)]), ms(3));
        assert_eq!(median(vec![ms(4), ms(1), ms(3), ms(2)]), ms(2));
        assert_eq!(median(Vec::new()), Duration::ZERO);
    }

    #[test]
    fn compare_returns_counts_per_workload() {
        let mut a = || 7u64;
        let mut b = || 9u64;
        let samples = compare(3, &mut [&mut a, &mut b]);
        assert_eq!(samples.iter().map(|s| s.count).collect::<Vec<_>>(), vec![7, 9]);
    }
}
