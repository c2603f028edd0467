//! Trains the network that can correct the chess evaluation (`crates/ai/src/chess/nn.rs`).
//!
//! `cargo run --release -p parlor-ai --example nn -- samples.txt[,more.txt...] [epochs] [threads] [out.bin] [batch]
//! [decay]`
//!
//! A samples file holds `fen;expected score for White` lines labelled by a teacher: what `examples/datagen.rs`
//! writes, or the tuner with `PARLOR_TUNE_SAMPLES` (see `examples/tune.rs`). Several files, separated by commas,
//! are trained on together. In each, every tenth run of 1000 positions (whole games) is held out; the error on
//! them is printed, file by file, for the evaluation alone and after each epoch. The network is written to
//! `out.bin` (default `nn.bin`).
//!
//! `PARLOR_NN_JUDGE=a.bin[,b.bin...]` first prints the held-out error, file by file, of networks already trained,
//! as the engine uses them (quantised, less `NETWORK_TEMPO`, the correction kept within `NETWORK_MAX`), so that a
//! new network can be compared with the built-in one on the same positions; with 0 epochs it stops there.
//!
//! `PARLOR_NN_GAME=international` (or `english`, `russian`, `pool`) trains that variant's draughts network
//! (`crates/ai/src/draughts/nn.rs`) on `fen;score` lines (what `examples/draughts_datagen.rs` and
//! `examples/draughts_selfplay.rs` write: the teacher's score in hundredths of a man for the side to move), with
//! the logistic scale fixed by the teacher's (`draughts::nn::TEACHER_SCALE`) so that the network's output reads in
//! hundredths of a man; judging is for chess only.
//!
//! `PARLOR_NN_START=a.bin` trains on from that network instead of from a fresh one (fine-tuning: the positions
//! it learnt from before stay in its weights, and each session's fresh positions add to them), and
//! `PARLOR_NN_LR` sets the first learning rate (default `nn::LEARNING_RATE`; less for fine-tuning).

use parlor_ai::chess::nn as chess_nn;
use parlor_ai::draughts::nn as draughts_nn;
use parlor_ai::nn::{self, Example, Net, Trainer};
use parlor_ai::params::{NETWORK_MAX, NETWORK_TEMPO};
use parlor_draughts::DraughtsVariant;
use shakmaty::Chess;
use std::time::Instant;

fn main() {
    let game = std::env::var("PARLOR_NN_GAME").unwrap_or_else(|_| "chess".to_owned());
    if game == "chess" {
        return run::<{ chess_nn::INPUTS }, { chess_nn::HIDDEN }>(Game {
            example: Box::new(chess_nn::example),
            clip: chess_nn::CLIP,
            k: None,
            judge: Some(judge_chess),
        });
    }
    match game.parse::<DraughtsVariant>() {
        Ok(DraughtsVariant::International) => {
            run::<{ draughts_nn::INPUTS }, { draughts_nn::HIDDEN }>(draughts(DraughtsVariant::International))
        }
        Ok(variant) => run::<{ draughts_nn::INPUTS_8X8 }, { draughts_nn::HIDDEN }>(draughts(variant)),
        Err(_) => {
            eprintln!("PARLOR_NN_GAME is chess, international, english, russian or pool, not {game}");
            std::process::exit(2);
        }
    }
}

/// A draughts variant's network: the variant's positions, the teacher's scale, no judging.
fn draughts(variant: DraughtsVariant) -> Game {
    Game {
        example: Box::new(move |line| draughts_nn::example(variant, line)),
        clip: draughts_nn::CLIP,
        k: Some(1.0 / draughts_nn::TEACHER_SCALE),
        judge: None,
    }
}

/// Reads a line of a samples file into an example.
type Reader = Box<dyn Fn(&str) -> Option<Example>>;

/// Judges networks already trained: their paths, the held-out examples of each samples file, those examples'
/// positions (FEN) and the logistic scale.
type Judge = fn(&[String], &[(String, Vec<Example>)], &[Vec<String>], f32);

/// What differs between the games' networks.
struct Game {
    /// Reads a line of a samples file.
    example: Reader,
    /// The clip of the first layer.
    clip: f32,
    /// The logistic scale, when the labels fix it (otherwise the one that fits the evaluation best).
    k: Option<f32>,
    /// Prints the held-out error of networks already trained, as the engine uses them.
    judge: Option<Judge>,
}

fn run<const I: usize, const H: usize>(game: Game) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(paths) = args.first() else {
        eprintln!("usage: nn samples.txt[,more.txt...] [epochs] [threads] [out.bin] [batch] [decay]");
        std::process::exit(2);
    };
    let epochs = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(8);
    let threads = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let out = args.get(3).cloned().unwrap_or_else(|| "nn.bin".to_owned());
    let batch = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(4096);
    let decay = args.get(5).and_then(|a| a.parse().ok()).unwrap_or(0.0);
    let start = Instant::now();
    let mut train = Vec::new();
    let mut held: Vec<(String, Vec<Example>)> = Vec::new();
    let judge: Vec<String> = std::env::var("PARLOR_NN_JUDGE")
        .map(|v| v.split(',').map(str::to_owned).collect())
        .unwrap_or_default();
    // The held-out positions themselves (their FEN), for judging networks already trained.
    let mut held_positions: Vec<Vec<String>> = Vec::new();
    for path in paths.split(',') {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            }
        };
        let (mut out, mut positions) = (Vec::new(), Vec::new());
        let examples = text.lines().filter_map(|l| Some((l, (game.example)(l)?)));
        for (i, (line, e)) in examples.enumerate() {
            // Whole runs of 1000 positions (about fifteen games) are held out, so that the held-out error
            // measures positions of games the network never saw.
            if (i / 1000) % 10 == 0 {
                if !judge.is_empty() {
                    positions.push(line.split_once(';').map_or("", |(f, _)| f).to_owned());
                }
                out.push(e)
            } else {
                train.push(e)
            }
        }
        held.push((path.to_owned(), out));
        held_positions.push(positions);
    }
    let held_errors = |net: &Trainer<I, H>, base: bool| {
        held.iter()
            .map(|(path, h)| format!("{path} {:.5}", net.error(h, base)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // The logistic scale that fits the hand-written evaluation best, unless the labels fix it.
    let mut k = game.k.unwrap_or(0.0);
    let mut best = Trainer::<I, H>::new(k, 1).error(&train, true);
    if game.k.is_none() {
        best = f64::INFINITY;
        for step in 1..=60 {
            let t = Trainer::<I, H>::new(step as f32 * 0.0002, 1);
            let e = t.error(&train, true);
            if e < best {
                best = e;
                k = t.k;
            }
        }
    }
    if !judge.is_empty() {
        let Some(judge_networks) = game.judge else {
            eprintln!("PARLOR_NN_JUDGE judges chess networks only");
            std::process::exit(2);
        };
        judge_networks(&judge, &held, &held_positions, k);
    }
    if epochs == 0 && !judge.is_empty() {
        return;
    }
    let mut net = match std::env::var("PARLOR_NN_START") {
        Ok(path) => match read_net(&path) {
            Ok(start) => Trainer::<I, H>::from_net(&start, k),
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            }
        },
        Err(_) => Trainer::<I, H>::new(k, 2026),
    };
    let lr = match std::env::var("PARLOR_NN_LR").map(|v| v.parse::<f32>()) {
        Err(_) => nn::LEARNING_RATE,
        Ok(Ok(lr)) if lr > 0.0 => lr,
        Ok(_) => {
            eprintln!("PARLOR_NN_LR must be a positive number");
            std::process::exit(2);
        }
    };
    eprintln!(
        "{} positions, {} held out, k {k:.4}, learning rate {lr}; evaluation alone: error {best:.5}, held out {} ({:.0?})",
        train.len(),
        held.iter().map(|(_, h)| h.len()).sum::<usize>(),
        held_errors(&net, true),
        start.elapsed()
    );
    if std::env::var_os("PARLOR_NN_START").is_some() {
        eprintln!(
            "start: error {:.5}, held out {}",
            net.error(&train, false),
            held_errors(&net, false)
        );
    }
    nn::train(
        &mut net,
        &mut train,
        nn::TrainOptions {
            epochs,
            batch,
            threads,
            lr,
            decay,
        },
        |epoch, net, train| {
            eprintln!(
                "epoch {}: error {:.5}, held out {} ({:.0?})",
                epoch + 1,
                net.error(train, false),
                held_errors(net, false),
                start.elapsed()
            );
        },
    );
    let quantised = net.quantise(game.clip);
    if let Err(e) = std::fs::write(&out, quantised.to_bytes()) {
        eprintln!("{out}: {e}");
        std::process::exit(1);
    }
    eprintln!("wrote {out}");
}

/// Prints the held-out error, file by file, of chess networks already trained, as the engine uses them
/// (quantised, less `NETWORK_TEMPO`, the correction kept within `NETWORK_MAX`).
fn judge_chess(paths: &[String], held: &[(String, Vec<Example>)], positions: &[Vec<String>], k: f32) {
    for path in paths {
        let net = match read_net::<{ chess_nn::INPUTS }, { chess_nn::HIDDEN }>(path) {
            Ok(net) => net,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            }
        };
        let errors: Vec<String> = held
            .iter()
            .zip(positions)
            .map(|((file, examples), fens)| {
                let sum: f64 = examples
                    .iter()
                    .zip(fens)
                    .filter_map(|(e, fen)| {
                        let pos: Chess = parlor_chess::Position::from_fen(fen).ok()?.0;
                        let c = (net.correction(&pos) - NETWORK_TEMPO).clamp(-NETWORK_MAX, NETWORK_MAX);
                        let p = 1.0 / (1.0 + (-f64::from(k) * (f64::from(e.base()) + f64::from(c))).exp());
                        Some((p - f64::from(e.target())).powi(2))
                    })
                    .sum();
                format!("{file} {:.5}", sum / examples.len().max(1) as f64)
            })
            .collect();
        eprintln!("{path} held out: {}", errors.join(", "));
    }
}

/// A network file, or why it cannot be read.
fn read_net<const I: usize, const H: usize>(path: &str) -> Result<Net<I, H>, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    Net::from_bytes(&bytes).map_err(|e| e.to_string())
}
