//! Tunes the chess piece-square tables from self-play (Texel's method) and prints them as Rust source.
//!
//! `cargo run --release -p parlor-ai --example tune -- [games] [depth] [epochs] [threads] [teacher] [teacher depth]`
//!
//! With a teacher (a UCI engine command such as `/usr/games/stockfish`), positions are labelled with its
//! judgement instead of the game results.

use parlor_ai::chess::tune;
use std::time::Instant;

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<usize> = all.iter().filter_map(|a| a.parse().ok()).collect();
    let teacher = all.iter().find(|a| a.parse::<usize>().is_err()).cloned();
    let teacher_depth = args.get(4).copied().unwrap_or(8) as u32;
    let games = args.first().copied().unwrap_or(1000);
    let depth = args.get(1).copied().unwrap_or(4) as u32;
    let epochs = args.get(2).copied().unwrap_or(300);
    let threads = args.get(3).copied().unwrap_or(2);
    let start = Instant::now();
    // `PARLOR_TUNE_SAMPLES=path`: read the samples from there if it exists, else write them there.
    let saved = std::env::var("PARLOR_TUNE_SAMPLES").ok();
    if let Some(path) = &saved
        && let Ok(text) = std::fs::read_to_string(path)
    {
        let samples = tune::from_text(&text);
        eprintln!("{} positions from {path}", samples.len());
        report(&samples, epochs, start);
        return;
    }
    let mut samples = tune::self_play(games, depth, threads, 2026);
    eprintln!(
        "{} positions from {games} games at depth {depth} in {:.0?}",
        samples.len(),
        start.elapsed()
    );
    if let Some(teacher) = teacher {
        match tune::label_parallel(&mut samples, &teacher, teacher_depth, threads) {
            Ok(n) => eprintln!(
                "{n} positions labelled by {teacher} at depth {teacher_depth} in {:.0?}",
                start.elapsed()
            ),
            Err(e) => {
                eprintln!("{teacher}: {e}");
                return;
            }
        }
    }
    if let Some(path) = &saved
        && let Err(e) = std::fs::write(path, tune::to_text(&samples))
    {
        eprintln!("{path}: {e}");
    }
    report(&samples, epochs, start);
}

/// Tunes on nine tenths of the samples and prints the error on the tenth held out, then the values.
fn report(samples: &[tune::Sample], epochs: usize, start: Instant) {
    let (train, held): (Vec<_>, Vec<_>) = samples
        .iter()
        .cloned()
        .enumerate()
        .partition(|(i, _)| i % 10 != 0);
    let train: Vec<tune::Sample> = train.into_iter().map(|(_, s)| s).collect();
    let held: Vec<tune::Sample> = held.into_iter().map(|(_, s)| s).collect();
    let (values, k, before, after) = tune::tune(&train, epochs);
    let held_before = tune::error(&held, &tune::Params::current(), k);
    let held_after = tune::error(&held, &values, k);
    eprintln!(
        "mean squared error {before:.5} -> {after:.5} on {} positions, held out {held_before:.5} -> {held_after:.5} on {}, in {:.0?}",
        train.len(),
        held.len(),
        start.elapsed()
    );
    print!("{}", tune::to_rust(&values));
}
