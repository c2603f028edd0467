//! Trains the International draughts pattern weights (`crates/ai/src/draughts/patterns.rs`).
//!
//! `cargo run --release -p parlor-ai --features tools --example draughts_patterns -- samples.txt[,more.txt...]
//! [epochs] [out.bin] [learning rate] [decay]`
//!
//! A samples file holds `fen;score` lines (what `examples/draughts_datagen.rs` writes, after
//! `tools/draughts_samples.py`): a teacher's score in hundredths of a man for the side to move. The weights learn
//! what the score says beyond the evaluation as hard's search sees it (the hand-written evaluation plus the
//! built-in network's correction, kept within `DRAUGHTS_NETWORK_MAX`): the expected result `1 / (1 + e^(-x /
//! TEACHER_SCALE))` of the evaluation plus the areas' weights is fitted to the teacher's, by mean squared error,
//! in batches of 1024 positions with Adam (default 12 epochs, learning rate 0.3 hundredth, decay 0.003 a batch,
//! pulling weights of rare arrangements to zero: with 105k weights, rates of 1 and more overfit 160k positions).
//! Every tenth run of 1000 positions (whole games) of each file is held out; the error on them is printed for the
//! evaluation alone, with the network, and after each epoch; the weights of the epoch with the
//! lowest held-out error are written, quantised, to `out.bin` (default `patterns.bin`), and their held-out error
//! as the engine computes it is printed last.
//!
//! `PARLOR_PATTERNS_NETWORK=nn.bin` fits the weights to what that network leaves instead of the built-in one's, so
//! that a network just trained gets its pattern weights without building the trainer again.

use parlor_ai::draughts::eval::{Geometry, evaluate};
use parlor_ai::draughts::nn::{self, TEACHER_SCALE};
use parlor_ai::draughts::patterns::{self, AREAS, ARRANGEMENTS, Patterns};
use parlor_ai::params::DRAUGHTS_NETWORK_MAX;
use parlor_draughts::{DraughtsVariant, Position};
use std::time::Instant;

/// A training position: where its areas point, the evaluation with the network, the teacher's expected result.
struct Sample {
    slots: [u32; AREAS],
    base: f32,
    target: f32,
    /// The evaluation alone (for the printed comparison).
    hand: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x / TEACHER_SCALE).exp())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(paths) = args.first() else {
        eprintln!(
            "usage: draughts_patterns samples.txt[,more.txt...] [epochs] [out.bin] [learning rate] [decay]"
        );
        std::process::exit(2);
    };
    let epochs: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(12);
    let out = args.get(2).cloned().unwrap_or_else(|| "patterns.bin".to_owned());
    let lr: f32 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(0.3);
    let decay: f32 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(0.003);
    let start = Instant::now();
    let geo = Geometry::new(DraughtsVariant::International);
    let network = match std::env::var("PARLOR_PATTERNS_NETWORK") {
        Ok(path) => std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| nn::Net::from_bytes(&bytes).map_err(|e| e.to_string()))
            .unwrap_or_else(|e| {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            }),
        Err(_) => {
            nn::Net::from_bytes(include_bytes!("../src/draughts/nn.bin")).expect("the built-in network")
        }
    };
    let (mut train, mut held, mut held_fens) = (Vec::new(), Vec::new(), Vec::new());
    for path in paths.split(',') {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        });
        let samples = text.lines().filter_map(|line| {
            let (fen, score) = line.split_once(';')?;
            let score: f32 = score.trim().parse().ok()?;
            let pos = Position::from_fen(DraughtsVariant::International, fen).ok()?;
            let hand = evaluate(&pos, &geo);
            let net = network
                .correction(&pos)
                .clamp(-DRAUGHTS_NETWORK_MAX, DRAUGHTS_NETWORK_MAX);
            let areas = patterns::areas_of(&pos);
            let slots = std::array::from_fn(|a| (a * ARRANGEMENTS) as u32 + u32::from(areas[a]));
            Some((
                pos,
                Sample {
                    slots,
                    base: (hand + net) as f32,
                    target: sigmoid(score),
                    hand: hand as f32,
                },
            ))
        });
        for (i, (pos, sample)) in samples.enumerate() {
            if (i / 1000) % 10 == 0 {
                held.push(sample);
                held_fens.push(pos);
            } else {
                train.push(sample);
            }
        }
    }
    let error = |samples: &[Sample], weights: &[f32], with: fn(&Sample) -> f32| -> f64 {
        let sum: f64 = samples
            .iter()
            .map(|s| {
                let x = with(s) + s.slots.iter().map(|&i| weights[i as usize]).sum::<f32>();
                f64::from(sigmoid(x) - s.target).powi(2)
            })
            .sum();
        sum / samples.len().max(1) as f64
    };
    let zero = vec![0f32; AREAS * ARRANGEMENTS];
    eprintln!(
        "{} positions, {} held out; held-out error: evaluation alone {:.5}, with the network {:.5} ({:.0?})",
        train.len(),
        held.len(),
        error(&held, &zero, |s| s.hand),
        error(&held, &zero, |s| s.base),
        start.elapsed()
    );
    let mut weights = zero.clone();
    let (mut m, mut v) = (zero.clone(), zero.clone());
    let (beta1, beta2) = (0.9f32, 0.999f32);
    let mut step = 0i32;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = parlor_ai::rng::Rng::new(2026);
    let mut best = (f64::INFINITY, 0, weights.clone());
    let mut grad = zero.clone();
    let mut touched: Vec<usize> = Vec::new();
    for epoch in 0..epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        // The learning rate falls linearly to a tenth over the epochs.
        let rate = lr * (1.0 - 0.9 * epoch as f32 / epochs.max(1) as f32);
        for batch in order.chunks(1024) {
            for &k in batch {
                let s = &train[k];
                let x = s.base + s.slots.iter().map(|&i| weights[i as usize]).sum::<f32>();
                let p = sigmoid(x);
                let g = 2.0 * (p - s.target) * p * (1.0 - p) / TEACHER_SCALE / batch.len() as f32;
                for &i in &s.slots {
                    if grad[i as usize] == 0.0 {
                        touched.push(i as usize);
                    }
                    grad[i as usize] += g;
                }
            }
            step += 1;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            // Adam on the weights this batch touched; every weight decays towards zero.
            for &i in &touched {
                m[i] = beta1 * m[i] + (1.0 - beta1) * grad[i];
                v[i] = beta2 * v[i] + (1.0 - beta2) * grad[i] * grad[i];
                weights[i] -= rate * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-12);
                grad[i] = 0.0;
            }
            touched.clear();
            for w in &mut weights {
                *w -= decay * *w;
            }
        }
        let held_error = error(&held, &weights, |s| s.base);
        eprintln!(
            "epoch {}: error {:.5}, held out {held_error:.5} ({:.0?})",
            epoch + 1,
            error(&train, &weights, |s| s.base),
            start.elapsed()
        );
        if held_error < best.0 {
            best = (held_error, epoch + 1, weights.clone());
        }
    }
    let quantised = Patterns::from_hundredths(&best.2);
    if let Err(e) = std::fs::write(&out, quantised.to_bytes()) {
        eprintln!("{out}: {e}");
        std::process::exit(1);
    }
    let engine: f64 = held
        .iter()
        .zip(&held_fens)
        .map(|(s, pos)| f64::from(sigmoid(s.base + quantised.correction(pos) as f32) - s.target).powi(2))
        .sum::<f64>()
        / held.len().max(1) as f64;
    eprintln!(
        "wrote {out}: the weights of epoch {}, held out {:.5}, quantised {engine:.5}",
        best.1, best.0
    );
}
