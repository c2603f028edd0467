//! What `parlor perft` and `parlor bench perft --game draughts` run: timed perft with printed reports.

use crate::fen::FenError;
use crate::perft::{perft, perft_divide};
use crate::position::Position;
use parlor_game::DraughtsVariant;
use std::fmt;
use std::time::{Duration, Instant};

/// The benchmark of each variant: start position, depth, and the published leaf count it must reproduce
/// (dups drop; see `tests/data/draughts.perft`).
pub const BENCH_CASES: [(DraughtsVariant, u32, u64); 4] = [
    (DraughtsVariant::English, 12, 388_617_999),
    (DraughtsVariant::International, 9, 41_022_423),
    (DraughtsVariant::Russian, 11, 110_917_189),
    (DraughtsVariant::Pool, 11, 110_833_952),
];

/// A benchmark run gave the wrong leaf count: the generator changed behaviour.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{variant} perft({depth}) gave {got} leaves, expected {expected}")]
pub struct WrongCount {
    /// The variant.
    pub variant: DraughtsVariant,
    /// The depth.
    pub depth: u32,
    /// What perft counted.
    pub got: u64,
    /// The published count.
    pub expected: u64,
}

/// The timings of one perft benchmark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// The variant.
    pub variant: DraughtsVariant,
    /// The depth searched from the start position.
    pub depth: u32,
    /// The leaf count (checked against the published one).
    pub nodes: u64,
    /// Wall time of each run, in run order.
    pub runs: Vec<Duration>,
}

impl BenchResult {
    /// The median run time.
    pub fn median(&self) -> Duration {
        let mut sorted = self.runs.clone();
        sorted.sort_unstable();
        sorted.get(sorted.len() / 2).copied().unwrap_or_default()
    }

    /// Leaves per second at the median time.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.median().as_secs_f64().max(1e-9)
    }
}

impl fmt::Display for BenchResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let runs: Vec<String> = self
            .runs
            .iter()
            .map(|d| format!("{:.3}", d.as_secs_f64()))
            .collect();
        write!(
            f,
            "{:<14} perft({:>2}) {:>12} nodes  median {:>7.3} s  {:>7.1} Mnodes/s  (runs: {} s)",
            self.variant.name(),
            self.depth,
            self.nodes,
            self.median().as_secs_f64(),
            self.nodes_per_second() / 1e6,
            runs.join(", ")
        )
    }
}

/// Times `runs` perft runs of one variant's start position at `depth` and checks the count against `expected`.
///
/// # Errors
/// [`WrongCount`] if a run does not reproduce the expected count.
pub fn bench_variant(
    variant: DraughtsVariant,
    depth: u32,
    expected: u64,
    runs: usize,
) -> Result<BenchResult, WrongCount> {
    let pos = Position::start(variant);
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let started = Instant::now();
        let got = perft(&pos, depth);
        times.push(started.elapsed());
        if got != expected {
            return Err(WrongCount {
                variant,
                depth,
                got,
                expected,
            });
        }
    }
    Ok(BenchResult {
        variant,
        depth,
        nodes: expected,
        runs: times,
    })
}

/// Times every variant of [`BENCH_CASES`], calling `report` after each.
///
/// # Errors
/// [`WrongCount`] if a count differs from the published one.
pub fn bench_perft(
    runs: usize,
    mut report: impl FnMut(&BenchResult),
) -> Result<Vec<BenchResult>, WrongCount> {
    let mut out = Vec::new();
    for (variant, depth, expected) in BENCH_CASES {
        let result = bench_variant(variant, depth, expected, runs)?;
        report(&result);
        out.push(result);
    }
    Ok(out)
}

/// Runs `parlor perft` for draughts and returns the text to print: the divide (one `move: leaves` line per first
/// move) if asked, then the total, time and speed.
///
/// # Errors
/// [`FenError`] if `fen` is not a valid position of the variant.
pub fn perft_report(
    variant: DraughtsVariant,
    fen: Option<&str>,
    depth: u32,
    divide: bool,
) -> Result<String, FenError> {
    let pos = match fen {
        Some(fen) => Position::from_fen(variant, fen)?,
        None => Position::start(variant),
    };
    let started = Instant::now();
    let mut out = String::new();
    let nodes = if divide {
        let split = perft_divide(&pos, depth);
        for (mv, n) in &split {
            out.push_str(&format!("{mv}: {n}\n"));
        }
        out.push('\n');
        split.iter().map(|(_, n)| n).sum()
    } else {
        perft(&pos, depth)
    };
    let elapsed = started.elapsed().as_secs_f64();
    out.push_str(&format!(
        "{} {} perft({depth}) = {nodes}  ({elapsed:.3} s, {:.1} Mnodes/s)\n",
        variant.name(),
        pos.to_fen(),
        nodes as f64 / elapsed.max(1e-9) / 1e6
    ));
    Ok(out)
}
