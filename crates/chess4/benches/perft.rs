//! Perft benchmarks (divan): the generator and the turn rules from the start, with node counts asserted so a
//! change of behaviour shows. The headline figure comes from `parlor bench perft --game chess4` (depth 6).
#![allow(clippy::unwrap_used)]

use parlor_chess4::Position;
use parlor_chess4::perft::{START_COUNTS, perft};

fn main() {
    divan::main();
}

#[divan::bench(args = [3, 4, 5])]
fn perft_from_start(depth: u32) -> u64 {
    let nodes = perft(divan::black_box(&Position::start()), depth);
    assert_eq!(nodes, START_COUNTS[depth as usize]);
    nodes
}

#[divan::bench]
fn legal_moves_at_start() -> usize {
    divan::black_box(&Position::start()).legal_moves().len()
}
