//! The four-player search benchmark (`parlor bench search --game chess4`): nodes at a fixed depth on a few
//! positions, and the depth the hard level reaches in one second from the start.

use super::Chess4Engine;
use crate::request::{Choice, Level, Limit, Request};
use parlor_game::GameKind;
use std::time::{Duration, Instant};

/// The bench positions: move lists from the start (wire notation).
pub const POSITIONS: [&[&str]; 3] = [
    &[],
    &["h2-h4", "b7-d7", "g13-g11", "m8-k8"],
    &[
        "h2-h4", "b7-d7", "g13-g11", "m8-k8", "Nj1-i3", "Na5-c6", "Ne14-f12", "Nn10-l11", "g2-g3", "b8-c8",
        "d13-d12", "m9-l9",
    ],
];

/// The default depth of `parlor bench search` for four-player chess (354,437 nodes in all).
pub const BENCH_DEPTH: u32 = 4;

/// Nodes of [`search`] at depth 3 summed over [`POSITIONS`] (the depth the debug-build test can afford). A change
/// of the search or the evaluation changes it: update it in the same commit.
pub const BENCH_NODES_DEPTH_3: u64 = 12_178;

/// Searches each bench position to `depth` with a fresh engine.
pub fn search(depth: u32) -> Vec<Choice> {
    POSITIONS
        .iter()
        .filter_map(|moves| {
            let mut req = Request::new(GameKind::Chess4, Level::HARD, Limit::Depth(depth));
            req.moves = moves.iter().map(|m| (*m).to_owned()).collect();
            req.seed = Some(0);
            Chess4Engine::new()
                .choose_since(Instant::now(), &req, &mut |_| {})
                .ok()
        })
        .collect()
}

/// Prints the benchmark; returns the total node count.
pub fn print(depth: u32) -> u64 {
    let start = Instant::now();
    let mut total = 0;
    for (c, moves) in search(depth).iter().zip(POSITIONS) {
        println!(
            "{:>10} nodes  {:>10} {:<10} {:>6} ms  after {} moves",
            c.nodes,
            c.wire,
            c.score,
            c.elapsed.as_millis(),
            moves.len()
        );
        total += c.nodes;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "chess4 depth {depth}: {total} nodes, {secs:.2} s, {:.0} k nodes/s",
        total as f64 / secs.max(1e-9) / 1e3
    );
    let mut req = Request::new(
        GameKind::Chess4,
        Level::HARD,
        Limit::MoveTime(Duration::from_secs(1)),
    );
    req.seed = Some(0);
    if let Ok(c) = Chess4Engine::new().choose_since(Instant::now(), &req, &mut |_| {}) {
        println!(
            "chess4 hard, 1 s from the start: depth {}, {} nodes, {} ms, best {}",
            c.depth,
            c.nodes,
            c.elapsed.as_millis(),
            c.wire
        );
    }
    total
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn bench_positions_are_legal_and_counts_deterministic() {
        let a: Vec<u64> = search(2).iter().map(|c| c.nodes).collect();
        let b: Vec<u64> = search(2).iter().map(|c| c.nodes).collect();
        assert_eq!(a.len(), POSITIONS.len());
        assert_eq!(a, b);
    }

    #[test]
    fn bench_node_count_is_the_recorded_one() {
        let total: u64 = search(3).iter().map(|c| c.nodes).sum();
        assert_eq!(
            total, BENCH_NODES_DEPTH_3,
            "search behaviour changed; update it if intended"
        );
    }
}
