//! Labels International draughts positions again with a teacher engine spoken to over Hub (Scan 2.0 here),
//! given more time than the games that made them: a deeper teacher's scores, for training the evaluation on less
//! noisy targets and for judging it.
//!
//! `cargo run --release -p parlor-ai --features tools --example draughts_label -- in.txt out.txt [movetime ms]
//! [threads] ["hub command"] [seconds] [every]`
//!
//! `in.txt` holds `fen;score` lines (what `examples/draughts_datagen.rs` writes; a line's old score is dropped),
//! `out.txt` gets `fen;score` lines with the teacher's score at `movetime` (default 100 ms), book off, in the
//! order of `in.txt` (so that runs of whole games stay together), for every `every`-th line (default 1: all).
//! `threads` teachers (default 2) each take one contiguous share of the lines; the run stops after `seconds`
//! (default 3600) with what was labelled by then. A position the teacher gives no score is left out.

use parlor_ai::draughts::hub_engine::HubEngine;
use parlor_draughts::{DraughtsVariant, Position};
use std::io::Write as _;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(input), Some(out)) = (args.first(), args.get(1)) else {
        eprintln!(
            "usage: draughts_label in.txt out.txt [movetime ms] [threads] [hub command] [seconds] [every]"
        );
        std::process::exit(2);
    };
    let number = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let movetime = Duration::from_millis(number(2, 100));
    let threads = number(3, 2).max(1) as usize;
    let teacher = args
        .get(4)
        .cloned()
        .unwrap_or_else(|| "/work/scan/scan hub".to_owned());
    let deadline = Instant::now() + Duration::from_secs(number(5, 3600));
    let every = number(6, 1).max(1) as usize;
    let text = std::fs::read_to_string(input).unwrap_or_else(|e| {
        eprintln!("{input}: {e}");
        std::process::exit(1);
    });
    let fens: Vec<&str> = text
        .lines()
        .step_by(every)
        .filter_map(|line| line.split(';').next())
        .collect();
    let share = fens.len().div_ceil(threads);
    let options = vec![("book".to_owned(), "false".to_owned())];
    let labelled: Vec<Vec<String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = fens
            .chunks(share.max(1))
            .map(|chunk| {
                let (teacher, options) = (&teacher, &options);
                scope.spawn(move || label(chunk, teacher, options, movetime, deadline))
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_default())
            .collect()
    });
    let mut file = std::fs::File::create(out)
        .map(std::io::BufWriter::new)
        .unwrap_or_else(|e| {
            eprintln!("{out}: {e}");
            std::process::exit(1);
        });
    let mut written = 0;
    for line in labelled.iter().flatten() {
        if let Err(e) = writeln!(file, "{line}") {
            eprintln!("{out}: {e}");
            std::process::exit(1);
        }
        written += 1;
    }
    if let Err(e) = file.flush() {
        eprintln!("{out}: {e}");
        std::process::exit(1);
    }
    eprintln!("{written} of {} positions labelled", fens.len());
}

/// The teacher's `fen;score` line of each position of `fens` (in order) until the deadline.
fn label(
    fens: &[&str],
    teacher: &str,
    options: &[(String, String)],
    movetime: Duration,
    deadline: Instant,
) -> Vec<String> {
    let mut engine = match HubEngine::start(teacher, DraughtsVariant::International, options) {
        Ok(engine) => engine,
        Err(e) => {
            eprintln!("{teacher}: {e}");
            std::process::exit(1);
        }
    };
    let mut lines = Vec::with_capacity(fens.len());
    for fen in fens {
        if Instant::now() >= deadline {
            break;
        }
        let Ok(pos) = Position::from_fen(DraughtsVariant::International, fen) else {
            continue;
        };
        if pos.legal_moves().is_empty() {
            continue;
        }
        if let Ok((_, Some(score))) = engine.analyse(&pos, movetime) {
            lines.push(format!("{fen};{score}"));
        }
    }
    lines
}
