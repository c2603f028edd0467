//! Writes training positions for the International draughts network (`examples/draughts_nn.rs`): a teacher
//! engine spoken to over Hub (Scan 2.0 here) plays itself from random openings, and each quiet position of its
//! games (the side to move has no capture) is written with the score its search gave it, as `fen;score` lines
//! (hundredths of a man for the side to move).
//!
//! `cargo run --release -p parlor-ai --features tools --example draughts_datagen -- out.txt [seconds] [threads]
//! [movetime ms] ["hub command"] [seed] [side]`
//!
//! Every game starts with 4 to 9 uniformly random plies, then the teacher plays with `movetime` a move (default
//! 10 ms) and the book off. A game ends when the side to move has no move, when the teacher's score passes 15 men
//! (a won ending it has found) or after 200 plies. With `side` (per mille, default 300), that share of the
//! positions also gets a side line: one or two random moves away from the game, searched by the teacher too and,
//! if quiet, written to the same file. Such positions, with a man left to be taken, are what a search visits and
//! no good player reaches.

use parlor_ai::draughts::hub_engine::HubEngine;
use parlor_ai::rng::Rng;
use parlor_draughts::{DraughtsVariant, Position};
use std::io::Write as _;
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first().cloned() else {
        eprintln!(
            "usage: draughts_datagen out.txt [seconds] [threads] [movetime] [hub command] [seed] [side]"
        );
        std::process::exit(2);
    };
    let seconds: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(600);
    let threads: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let movetime = Duration::from_millis(args.get(3).and_then(|a| a.parse().ok()).unwrap_or(10));
    let teacher = args
        .get(4)
        .cloned()
        .unwrap_or_else(|| "/work/scan/scan hub".to_owned());
    let seed: u64 = args.get(5).and_then(|a| a.parse().ok()).unwrap_or(2026);
    let side: u64 = args.get(6).and_then(|a| a.parse().ok()).unwrap_or(300);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut file = match std::fs::File::create(&out) {
        Ok(f) => std::io::BufWriter::new(f),
        Err(e) => {
            eprintln!("{out}: {e}");
            std::process::exit(1);
        }
    };
    let (tx, rx) = mpsc::channel::<Vec<String>>();
    let options = vec![("book".to_owned(), "false".to_owned())];
    for t in 0..threads {
        let tx = tx.clone();
        let teacher = teacher.clone();
        let options = options.clone();
        std::thread::spawn(move || {
            let mut engine = match HubEngine::start(&teacher, &options) {
                Ok(engine) => engine,
                Err(e) => {
                    eprintln!("{teacher}: {e}");
                    std::process::exit(1);
                }
            };
            let mut rng = Rng::new(seed.wrapping_mul(1000).wrapping_add(t));
            while Instant::now() < deadline {
                let lines = play_game(&mut engine, &mut rng, movetime, side);
                if tx.send(lines).is_err() {
                    return;
                }
            }
        });
    }
    drop(tx);
    let (mut games, mut positions) = (0u64, 0u64);
    for lines in rx {
        games += 1;
        positions += lines.len() as u64;
        for line in lines {
            let _ = writeln!(file, "{line}");
        }
        if games % 20 == 0 {
            let _ = file.flush();
            eprintln!("{games} games, {positions} positions");
        }
    }
    let _ = file.flush();
    eprintln!("{games} games, {positions} positions");
}

/// A uniformly random legal move, or `None` when there is none.
fn random_move(pos: &Position, rng: &mut Rng) -> Option<parlor_draughts::Move> {
    let moves = pos.legal_moves();
    (!moves.is_empty()).then(|| moves[rng.below(moves.len() as u64) as usize])
}

/// One game of the teacher against itself; the quiet positions and their scores.
fn play_game(engine: &mut HubEngine, rng: &mut Rng, movetime: Duration, side: u64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut pos = Position::start(DraughtsVariant::International);
    for _ in 0..4 + rng.below(6) {
        match random_move(&pos, rng) {
            Some(m) => pos.play_unchecked(m),
            None => return lines,
        }
    }
    if engine.new_game().is_err() {
        return lines;
    }
    for _ in 0..200 {
        if pos.legal_moves().is_empty() {
            break;
        }
        let Ok((text, score)) = engine.analyse(&pos, movetime) else {
            break;
        };
        if let Some(score) = score
            && !pos.has_capture()
        {
            lines.push(format!("{};{score}", pos.to_fen()));
            if score.abs() > 1500 {
                break;
            }
        }
        if rng.below(1000) < side {
            let mut off = pos;
            let mut ok = true;
            for _ in 0..1 + u64::from(rng.below(10) < 3) {
                match random_move(&off, rng) {
                    Some(m) => off.play_unchecked(m),
                    None => ok = false,
                }
            }
            if ok
                && !off.has_capture()
                && !off.legal_moves().is_empty()
                && let Ok((_, Some(score))) = engine.analyse(&off, movetime)
            {
                lines.push(format!("{};{score}", off.to_fen()));
            }
        }
        let Ok(m) = pos.parse_move(&text) else {
            break;
        };
        pos.play_unchecked(m);
    }
    lines
}
