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
//! then each move is hard's (with the network built in for the variant, if any) at `depth` plies (default 11); a
//! win found scores 10,000. With `side` (per mille, default 300), that share of the positions also gets a side
//! line (see `parlor_ai::draughts::datagen::play_game`, which also says when a game ends). `threads` (default 2)
//! play games at once until `seconds` (default 600) have passed.

use parlor_ai::clock::{Budget, Timer};
use parlor_ai::draughts::datagen::{self, Teacher};
use parlor_ai::draughts::{DraughtsEngine, Root};
use parlor_ai::params::{self, LevelParams};
use parlor_ai::{AiError, Level, Limit, Score};
use parlor_draughts::{DraughtsVariant, Position};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: draughts_selfplay english|russian|pool|international out.txt [seconds] [threads] [depth] \
                 [seed] [side]";
    let (Some(variant), Some(out)) = (args.first(), args.get(1)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Ok(variant) = variant.parse::<DraughtsVariant>() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let number = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let depth = number(4, 11) as u32;
    let mut file = match std::fs::File::create(out) {
        Ok(f) => std::io::BufWriter::new(f),
        Err(e) => {
            eprintln!("{out}: {e}");
            std::process::exit(1);
        }
    };
    let start = move |_| {
        Ok::<_, AiError>(OurEngine {
            engine: DraughtsEngine::new(),
            lp: params::draughts_level(variant, Level::HARD),
            limit: Limit::Depth(depth),
        })
    };
    let (seconds, threads, seed, side) = (
        number(2, 600),
        number(3, 2).max(1),
        number(5, 2026),
        number(6, 300),
    );
    match datagen::run(variant, &mut file, seconds, threads, seed, side, start) {
        Ok((games, positions)) => eprintln!("{games} games, {positions} positions"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}

/// Our engine at a fixed depth.
struct OurEngine {
    engine: DraughtsEngine,
    lp: LevelParams,
    limit: Limit,
}

impl Teacher for OurEngine {
    type Error = AiError;

    fn new_game(&mut self) -> Result<(), AiError> {
        self.engine.new_game();
        Ok(())
    }

    /// A found win or loss scores +-10,000.
    fn analyse(&mut self, pos: &Position, keys: &[u64]) -> Result<(String, Option<i32>), AiError> {
        let root = Root {
            pos: *pos,
            keys: keys.to_vec(),
        };
        let budget = Budget::new(&self.limit, self.lp.time_permille);
        let timer = Timer::started_at(Instant::now(), budget, Arc::new(AtomicBool::new(false)));
        let choice = self
            .engine
            .search(&root, self.lp, &self.limit, timer, None, &mut |_| {})?;
        let score = match choice.score {
            Score::Cp(cp) => cp,
            Score::Mate(n) => 10_000 * n.signum(),
        };
        Ok((choice.wire, Some(score)))
    }
}
