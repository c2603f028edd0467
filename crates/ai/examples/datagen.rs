//! Writes training positions for the evaluation network (`examples/nn.rs`): a teacher engine (Stockfish) plays
//! itself from random openings at a fixed depth, and each quiet position of its games is written with the score
//! its own search gave it, as `fen;expected score for White` lines.
//!
//! `cargo run --release -p parlor-ai --example datagen -- out.txt [seconds] [threads] [depth] [teacher] [seed]`
//!
//! Every game starts with 8 or 9 uniformly random plies (so the games differ and reach positions a good player
//! would not), then the teacher plays at `depth` (default 6). A position is kept when the side to move is not in
//! check and the teacher's move is neither a capture nor a promotion; a game ends at mate, stalemate, a score
//! beyond 20 pawns, a repetition or after 240 plies. Each line's label is `1 / (1 + 10^(-cp / 400))`.

use parlor_ai::chess::tune;
use parlor_ai::rng::Rng;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position as _};
use std::io::{BufRead as _, Write as _};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first().cloned() else {
        eprintln!("usage: datagen out.txt [seconds] [threads] [depth] [teacher] [seed]");
        std::process::exit(2);
    };
    let seconds: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(600);
    let threads: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let depth: u32 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(6);
    let teacher = args
        .get(4)
        .cloned()
        .unwrap_or_else(|| "/usr/games/stockfish".to_owned());
    let seed: u64 = args.get(5).and_then(|a| a.parse().ok()).unwrap_or(2026);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut file = match std::fs::File::create(&out) {
        Ok(f) => std::io::BufWriter::new(f),
        Err(e) => {
            eprintln!("{out}: {e}");
            std::process::exit(1);
        }
    };
    let (tx, rx) = mpsc::channel::<Vec<String>>();
    let workers: Vec<_> = (0..threads.max(1))
        .map(|t| {
            let tx = tx.clone();
            let teacher = teacher.clone();
            std::thread::spawn(move || {
                let mut rng = Rng::new(seed ^ (t + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                if let Err(e) = play(&teacher, depth, deadline, &mut rng, &tx) {
                    eprintln!("{teacher}: {e}");
                }
            })
        })
        .collect();
    drop(tx);
    let (mut games, mut positions) = (0u64, 0u64);
    let start = Instant::now();
    for lines in rx {
        games += 1;
        positions += lines.len() as u64;
        for line in lines {
            let _ = writeln!(file, "{line}");
        }
        if games % 500 == 0 {
            eprintln!("{games} games, {positions} positions, {:.0?}", start.elapsed());
        }
    }
    for w in workers {
        let _ = w.join();
    }
    let _ = file.flush();
    eprintln!(
        "{games} games, {positions} positions in {:.0?}, written to {out}",
        start.elapsed()
    );
}

/// Plays games with one teacher process until the deadline, sending each game's lines.
fn play(
    teacher: &str,
    depth: u32,
    deadline: Instant,
    rng: &mut Rng,
    tx: &mpsc::Sender<Vec<String>>,
) -> std::io::Result<()> {
    let (mut child, mut input, mut output) = tune::start_teacher(teacher)?;
    let broken = || std::io::Error::other("the teacher stopped answering");
    let mut line = String::new();
    while Instant::now() < deadline {
        writeln!(input, "ucinewgame")?;
        let mut pos = Chess::default();
        let mut moves: Vec<String> = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        let random = 8 + rng.below(2);
        let mut ok = true;
        for _ in 0..random {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                ok = false;
                break;
            }
            let m = legal[rng.below(legal.len() as u64) as usize];
            moves.push(m.to_uci(CastlingMode::Standard).to_string());
            pos.play_unchecked(m);
        }
        if !ok || pos.legal_moves().is_empty() {
            continue;
        }
        let mut lines = Vec::new();
        while moves.len() < 240 {
            let key = Fen::from_position(&pos, EnPassantMode::Legal)
                .to_string()
                .rsplitn(3, ' ')
                .nth(2)
                .unwrap_or_default()
                .to_owned();
            if seen.contains(&key) {
                break;
            }
            seen.push(key);
            writeln!(
                input,
                "position startpos moves {}\ngo depth {depth}",
                moves.join(" ")
            )?;
            let mut cp = None;
            let best = loop {
                line.clear();
                if output.read_line(&mut line)? == 0 {
                    return Err(broken());
                }
                let words: Vec<&str> = line.split_whitespace().collect();
                if words.first() == Some(&"bestmove") {
                    break words.get(1).map(|w| (*w).to_owned());
                }
                if let Some(i) = words.iter().position(|w| *w == "score") {
                    let n: Option<i32> = words.get(i + 2).and_then(|v| v.parse().ok());
                    cp = match (words.get(i + 1), n) {
                        (Some(&"cp"), Some(n)) => Some(n),
                        (Some(&"mate"), Some(_)) => None,
                        _ => cp,
                    };
                }
            };
            let Some(m) = best
                .and_then(|b| b.parse::<UciMove>().ok())
                .and_then(|u| u.to_move(&pos).ok())
            else {
                break;
            };
            let Some(cp) = cp.filter(|cp| cp.abs() <= 2000) else {
                break;
            };
            if !pos.is_check() && !m.is_capture() && !m.is_promotion() {
                let white = if pos.turn() == Color::White { cp } else { -cp };
                let p = 1.0 / (1.0 + 10f64.powf(-f64::from(white) / 400.0));
                lines.push(format!(
                    "{};{p:.4}",
                    Fen::from_position(&pos, EnPassantMode::Legal)
                ));
            }
            moves.push(m.to_uci(CastlingMode::Standard).to_string());
            pos.play_unchecked(m);
            if pos.legal_moves().is_empty() {
                break;
            }
        }
        if tx.send(lines).is_err() {
            break;
        }
    }
    let _ = writeln!(input, "quit");
    let _ = child.wait();
    Ok(())
}
