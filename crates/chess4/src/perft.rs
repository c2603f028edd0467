//! Perft for four-player chess: bulk counting at the last ply, with one move buffer per ply and no allocation.
//!
//! The tree follows the free-for-all rules of [`Position::play_unchecked`]: a mate or a stalemate eliminates a
//! player inside the tree and the turn skips that player; a king left attacked may be captured; a finished game
//! (three out, or two left 21 points apart) has no moves. Draw rules are ignored, as in every perft.

use crate::chess_move::MoveList;
use crate::position::Position;
use std::time::{Duration, Instant};

fn count(pos: &Position, depth: u32, buffers: &mut [MoveList]) -> u64 {
    let Some((list, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    pos.generate_into(list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += count(&child, depth - 1, rest);
    }
    nodes
}

/// The number of leaf positions exactly `depth` plies below `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut buffers: Vec<MoveList> = (0..depth).map(|_| MoveList::default()).collect();
    count(pos, depth, &mut buffers)
}

/// Perft split by first move: each move's wire notation with its count, in generation order.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (pos.move_notation(m), perft(&child, depth - 1))
        })
        .collect()
}

/// One benchmark run's result.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchRun {
    /// Leaf nodes counted.
    pub nodes: u64,
    /// Wall time of the run.
    pub elapsed: Duration,
}

impl BenchRun {
    /// Nodes per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Runs perft `runs` times (at least once) and returns every run, for the caller to take the median.
pub fn bench(pos: &Position, depth: u32, runs: usize) -> Vec<BenchRun> {
    (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            let nodes = perft(pos, depth);
            BenchRun {
                nodes,
                elapsed: start.elapsed(),
            }
        })
        .collect()
}

/// The run with the median wall time (the upper median for an even count); `None` for no runs.
pub fn median(runs: &[BenchRun]) -> Option<BenchRun> {
    let mut sorted = runs.to_vec();
    sorted.sort_by_key(|r| r.elapsed);
    sorted.get(sorted.len() / 2).cloned()
}
