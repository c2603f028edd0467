//! Writes training positions for a draughts variant's network, labelled by our own engine: hard plays itself
//! from random openings, each move searched to a fixed depth, and each quiet position of its games (the side to
//! move has no capture) is written with that search's score, as `fen;score` lines (hundredths of a man for the
//! side to move) that `examples/nn.rs` reads. The 8x8 variants have no outside engine to learn from; a network
//! trained on these scores gives the evaluation at the leaves some of what the deeper search sees.
//!
//! `cargo run --release -p parlor-ai --features tools --example draughts_selfplay -- variant out.txt [seconds]
//! [threads] [depth] [seed] [side]`
//!
//! `variant` is english, russian, pool or international. Every game starts with 4 to 9 uniformly random plies,
//! then each move is hard's (with the network built in for the variant, if any) at `depth` plies (default 11). A
//! game ends when the side to move has no move, when the score passes 15 men or a win is found, when a position
//! comes a third time or the variant's no-progress rule draws it, or after 200 plies. With `side` (per mille,
//! default 300), that share of the positions also gets a side line: one or two random moves away from the game,
//! searched too and, if quiet, written to the same file: positions a search visits and no good player reaches.
//! `threads` (default 2) play games at once until `seconds` (default 600) have passed.

use parlor_ai::clock::{Budget, Timer};
use parlor_ai::draughts::{DraughtsEngine, Root};
use parlor_ai::params::{self, LevelParams};
use parlor_ai::rng::Rng;
use parlor_ai::{Level, Limit, Score};
use parlor_draughts::{DraughtsVariant, Position};
use std::io::Write as _;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: draughts_selfplay english|russian|pool|international out.txt [seconds] [threads] [depth] \
                 [seed] [side]";
    let (Some(variant), Some(out)) = (args.first(), args.get(1)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let variant = match variant.as_str() {
        "english" => DraughtsVariant::English,
        "russian" => DraughtsVariant::Russian,
        "pool" => DraughtsVariant::Pool,
        "international" => DraughtsVariant::International,
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let number = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let deadline = Instant::now() + Duration::from_secs(number(2, 600));
    let threads = number(3, 2).max(1);
    let depth = number(4, 11) as u32;
    let seed = number(5, 2026);
    let side = number(6, 300);
    let mut file = match std::fs::File::create(out) {
        Ok(f) => std::io::BufWriter::new(f),
        Err(e) => {
            eprintln!("{out}: {e}");
            std::process::exit(1);
        }
    };
    let (tx, rx) = mpsc::channel::<Vec<String>>();
    for t in 0..threads {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let mut teacher = Teacher {
                engine: DraughtsEngine::new(),
                lp: params::draughts_level(variant, Level::HARD),
                limit: Limit::Depth(depth),
            };
            let mut rng = Rng::new(seed.wrapping_mul(1000).wrapping_add(t));
            while Instant::now() < deadline {
                let lines = play_game(variant, &mut teacher, &mut rng, side);
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
        if games % 100 == 0 {
            let _ = file.flush();
            eprintln!("{games} games, {positions} positions");
        }
    }
    let _ = file.flush();
    eprintln!("{games} games, {positions} positions");
}

/// Our engine at a fixed depth.
struct Teacher {
    engine: DraughtsEngine,
    lp: LevelParams,
    limit: Limit,
}

impl Teacher {
    /// The best move (PDN) and the score of `pos` for the side to move, in hundredths of a man (a found win or
    /// loss as +-10,000), given the hashes of the game since the last irreversible move.
    fn analyse(&mut self, pos: &Position, keys: &[u64]) -> Option<(String, i32)> {
        let root = Root {
            pos: *pos,
            keys: keys.to_vec(),
        };
        let budget = Budget::new(&self.limit, self.lp.time_permille);
        let timer = Timer::started_at(Instant::now(), budget, Arc::new(AtomicBool::new(false)));
        let choice = self
            .engine
            .search(&root, self.lp, &self.limit, timer, None, &mut |_| {})
            .ok()?;
        let score = match choice.score {
            Score::Cp(cp) => cp,
            Score::Mate(n) => 10_000 * n.signum(),
        };
        Some((choice.wire, score))
    }
}

/// A uniformly random legal move, or `None` when there is none.
fn random_move(pos: &Position, rng: &mut Rng) -> Option<parlor_draughts::Move> {
    let moves = pos.legal_moves();
    (!moves.is_empty()).then(|| moves[rng.below(moves.len() as u64) as usize])
}

/// One game of the teacher against itself; the quiet positions and their scores.
fn play_game(variant: DraughtsVariant, teacher: &mut Teacher, rng: &mut Rng, side: u64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut pos = Position::start(variant);
    for _ in 0..4 + rng.below(6) {
        match random_move(&pos, rng) {
            Some(m) => pos.play_unchecked(m),
            None => return lines,
        }
    }
    teacher.engine.new_game();
    let no_progress = parlor_draughts::no_progress_plies(variant).map_or(usize::MAX, |n| n as usize);
    let mut keys = vec![pos.hash()];
    for _ in 0..200 {
        if pos.legal_moves().is_empty()
            || keys.len() > no_progress
            || keys.iter().filter(|&&k| k == pos.hash()).count() >= 3
        {
            break;
        }
        let Some((text, score)) = teacher.analyse(&pos, &keys) else {
            break;
        };
        if !pos.has_capture() {
            lines.push(format!("{};{score}", pos.to_fen()));
        }
        if score.abs() > 1500 {
            break;
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
                && let Some((_, score)) = teacher.analyse(&off, &[off.hash()])
            {
                lines.push(format!("{};{score}", off.to_fen()));
            }
        }
        let Ok(m) = pos.parse_move(&text) else {
            break;
        };
        if m.is_capture() || pos.is_man_move(m) {
            keys.clear();
        }
        pos.play_unchecked(m);
        keys.push(pos.hash());
    }
    lines
}
