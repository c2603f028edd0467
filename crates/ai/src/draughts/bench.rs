//! The draughts search benchmark (`parlor bench search --game draughts/<variant>`): nodes at a fixed depth on a
//! few positions per variant, and the depth the hard level reaches in one second from the start.

use super::DraughtsEngine;
use crate::request::{Choice, Level, Limit, Request};
use parlor_game::{DraughtsVariant, GameKind};
use std::time::{Duration, Instant};

/// The bench positions of a variant (PDN FEN; empty is the start): the start and one hand-made middlegame.
pub fn positions(variant: DraughtsVariant) -> &'static [&'static str] {
    match variant {
        DraughtsVariant::English => &[
            "",
            "B:W18,19,21,23,24,26,27,28,29,30,31,32:B1,2,3,4,6,7,9,10,11,12,15",
        ],
        DraughtsVariant::Russian => &[
            "",
            "W:W17,18,21,22,23,24,25,26,27,29,30,31:B1,2,3,4,5,6,7,9,10,11,12",
        ],
        DraughtsVariant::Pool => &[
            "",
            "B:W17,21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,13",
        ],
        DraughtsVariant::International => &[
            "",
            "W:W27,28,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,23",
        ],
    }
}

/// The default depth of `parlor bench search` for draughts.
pub const BENCH_DEPTH: u32 = 9;

/// Nodes of [`search`] at [`BENCH_DEPTH`], summed over [`positions`], per variant (English, International,
/// Russian, Pool). A change of the search or the evaluation changes them: update them in the same commit.
pub const BENCH_NODES: [u64; 4] = [34_883, 128_926, 54_365, 52_572];

/// Searches each bench position of `variant` to `depth` with a fresh engine.
pub fn search(variant: DraughtsVariant, depth: u32) -> Vec<(&'static str, Choice)> {
    positions(variant)
        .iter()
        .filter_map(|fen| {
            let mut req = Request::new(GameKind::Draughts(variant), Level::HARD, Limit::Depth(depth));
            req.start = (*fen).to_owned();
            req.seed = Some(0);
            let c = DraughtsEngine::new()
                .choose_since(Instant::now(), &req, &mut |_| {})
                .ok()?;
            Some((*fen, c))
        })
        .collect()
}

/// The deepest iteration the hard level completes from the start in `time`, and its nodes.
pub fn depth_in(variant: DraughtsVariant, time: Duration) -> Option<Choice> {
    let mut req = Request::new(GameKind::Draughts(variant), Level::HARD, Limit::MoveTime(time));
    req.seed = Some(0);
    DraughtsEngine::new()
        .choose_since(Instant::now(), &req, &mut |_| {})
        .ok()
}

/// Prints the benchmark; returns the total node count.
pub fn print(variant: DraughtsVariant, depth: u32) -> u64 {
    let start = Instant::now();
    let mut total = 0;
    for (fen, c) in search(variant, depth) {
        println!(
            "{:>10} nodes  {:>8} {:<10} {:>6} ms  {}",
            c.nodes,
            c.wire,
            c.score,
            c.elapsed.as_millis(),
            if fen.is_empty() { "start" } else { fen }
        );
        total += c.nodes;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "draughts/{variant} depth {depth}: {total} nodes, {secs:.2} s, {:.0} k nodes/s",
        total as f64 / secs.max(1e-9) / 1e3
    );
    if let Some(c) = depth_in(variant, Duration::from_secs(1)) {
        println!(
            "draughts/{variant} hard, 1 s from the start: depth {}, {} nodes, {} ms, best {} ({})",
            c.depth,
            c.nodes,
            c.elapsed.as_millis(),
            c.wire,
            c.score
        );
    }
    total
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn bench_positions_are_valid_and_counts_are_deterministic() {
        for v in DraughtsVariant::ALL {
            let a: Vec<u64> = search(v, 4).iter().map(|(_, c)| c.nodes).collect();
            let b: Vec<u64> = search(v, 4).iter().map(|(_, c)| c.nodes).collect();
            assert_eq!(a.len(), positions(v).len(), "{v}");
            assert_eq!(a, b);
        }
    }

    #[test]
    fn bench_node_counts_are_the_recorded_ones() {
        for (v, recorded) in DraughtsVariant::ALL.into_iter().zip(BENCH_NODES) {
            let total: u64 = search(v, BENCH_DEPTH).iter().map(|(_, c)| c.nodes).sum();
            assert_eq!(
                total, recorded,
                "{v}: search behaviour changed; update BENCH_NODES if intended"
            );
        }
    }
}
