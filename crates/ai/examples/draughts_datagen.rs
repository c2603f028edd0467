//! Writes training positions for the International draughts network (`examples/draughts_nn.rs`): a teacher
//! engine spoken to over Hub (Scan 2.0 here) plays itself from random openings, and each quiet position of its
//! games (the side to move has no capture) is written with the score its search gave it, as `fen;score` lines
//! (hundredths of a man for the side to move).
//!
//! `cargo run --release -p parlor-ai --features tools --example draughts_datagen -- out.txt [seconds] [threads]
//! [movetime ms] ["hub command"] [seed] [side]`
//!
//! Every game starts with 4 to 9 uniformly random plies, then the teacher plays with `movetime` a move (default
//! 10 ms) and the book off. With `side` (per mille, default 300), that share of the positions also gets a side
//! line (see `parlor_ai::draughts::datagen::play_game`, which also says when a game ends). `threads` teachers
//! (default 2) play until `seconds` (default 600) have passed.

use parlor_ai::draughts::datagen::{self, HubTeacher};
use parlor_ai::draughts::hub_engine::HubEngine;
use parlor_draughts::DraughtsVariant;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first().cloned() else {
        eprintln!(
            "usage: draughts_datagen out.txt [seconds] [threads] [movetime] [hub command] [seed] [side]"
        );
        std::process::exit(2);
    };
    let number = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let movetime = Duration::from_millis(number(3, 10));
    let command = args
        .get(4)
        .cloned()
        .unwrap_or_else(|| "/work/scan/scan hub".to_owned());
    let mut file = match std::fs::File::create(&out) {
        Ok(f) => std::io::BufWriter::new(f),
        Err(e) => {
            eprintln!("{out}: {e}");
            std::process::exit(1);
        }
    };
    let start = move |_| {
        let options = [("book".to_owned(), "false".to_owned())];
        HubEngine::start(&command, DraughtsVariant::International, &options)
            .map(|engine| HubTeacher { engine, movetime })
    };
    let (seconds, threads, seed, side) = (number(1, 600), number(2, 2), number(5, 2026), number(6, 300));
    match datagen::run(
        DraughtsVariant::International,
        &mut file,
        seconds,
        threads,
        seed,
        side,
        start,
    ) {
        Ok((games, positions)) => eprintln!("{games} games, {positions} positions"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
