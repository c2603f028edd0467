//! Tunes the chess piece-square tables from self-play (Texel's method) and prints them as Rust source.
//!
//! `cargo run --release -p parlor-ai --example tune -- [games] [depth] [epochs] [threads]`

use parlor_ai::chess::tune;
use std::time::Instant;

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let games = args.first().copied().unwrap_or(1000);
    let depth = args.get(1).copied().unwrap_or(4) as u32;
    let epochs = args.get(2).copied().unwrap_or(300);
    let threads = args.get(3).copied().unwrap_or(2);
    let start = Instant::now();
    let samples = tune::self_play(games, depth, threads, 2026);
    eprintln!(
        "{} positions from {games} games at depth {depth} in {:.0?}",
        samples.len(),
        start.elapsed()
    );
    let (tables, before, after) = tune::tune(&samples, epochs);
    eprintln!(
        "mean squared error {before:.5} -> {after:.5} in {:.0?}",
        start.elapsed()
    );
    print!("{}", tune::to_rust(&tables));
}
