//! Trains the network that can correct the chess evaluation (`crates/ai/src/chess/nn.rs`).
//!
//! `cargo run --release -p parlor-ai --example nn -- samples.txt [epochs] [threads] [out.bin] [batch] [decay]`
//!
//! `samples.txt` holds `fen;expected score for White` lines labelled by a teacher: the file the tuner writes with
//! `PARLOR_TUNE_SAMPLES` (see `examples/tune.rs`). Every tenth run of 1000 positions (whole games) is held out;
//! the error on them is printed for the evaluation alone and after each epoch. The network is written to
//! `out.bin` (default `nn.bin`).

use parlor_ai::chess::nn::{self, Example, Trainer};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: nn samples.txt [epochs] [threads] [out.bin] [batch] [decay]");
        std::process::exit(2);
    };
    let epochs = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(8);
    let threads = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let out = args.get(3).cloned().unwrap_or_else(|| "nn.bin".to_owned());
    let batch = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(4096);
    let decay = args.get(5).and_then(|a| a.parse().ok()).unwrap_or(0.0);
    let start = Instant::now();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let all: Vec<Example> = text.lines().filter_map(Example::from_line).collect();
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (i, e) in all.into_iter().enumerate() {
        // Whole runs of 1000 positions (about fifteen games) are held out, so that the held-out error measures
        // positions of games the network never saw.
        if (i / 1000) % 10 == 0 {
            held.push(e)
        } else {
            train.push(e)
        }
    }
    // The logistic scale that fits the hand-written evaluation best.
    let mut k = 0.0;
    let mut best = f64::INFINITY;
    for step in 1..=60 {
        let t = Trainer::new(step as f32 * 0.0002, 1);
        let e = t.error(&train, true);
        if e < best {
            best = e;
            k = t.k;
        }
    }
    let mut net = Trainer::new(k, 2026);
    eprintln!(
        "{} positions, {} held out, k {k:.4}; evaluation alone: error {best:.5}, held out {:.5} ({:.0?})",
        train.len(),
        held.len(),
        net.error(&held, true),
        start.elapsed()
    );
    nn::train(
        &mut net,
        &mut train,
        epochs,
        batch,
        threads,
        decay,
        |epoch, net, train| {
            eprintln!(
                "epoch {}: error {:.5}, held out {:.5} ({:.0?})",
                epoch + 1,
                net.error(train, false),
                net.error(&held, false),
                start.elapsed()
            );
        },
    );
    let quantised = net.quantise();
    if let Err(e) = std::fs::write(&out, quantised.to_bytes()) {
        eprintln!("{out}: {e}");
        std::process::exit(1);
    }
    eprintln!("wrote {out}");
}
