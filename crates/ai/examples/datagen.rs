//! Writes training positions for the evaluation network (`examples/nn.rs`): a teacher engine (Stockfish) plays
//! itself from random openings at a fixed depth, and each quiet position of its games is written with the score
//! its own search gave it, as `fen;expected score for White` lines.
//!
//! `cargo run --release -p parlor-ai --example datagen -- out.txt [seconds] [threads] [depth] [teacher] [seed]
//! [side] [mean]`
//!
//! Every game starts with 8 or 9 uniformly random plies (so the games differ and reach positions a good player
//! would not), then the teacher plays at `depth` (default 6). A position is kept when the side to move is not in
//! check and the teacher's move is neither a capture nor a promotion; a game ends at mate, stalemate, a score
//! beyond 20 pawns, a repetition or after 240 plies. Each line's label is `1 / (1 + 10^(-cp / 400))`.
//!
//! With `side` (per mille, default 0), that share of the game's positions also gets a side line: one random move
//! (two, three times in ten) away from the game, the position is searched by the teacher too and, if quiet,
//! written to `out.txt.side` (in the order of the games). Such positions, with a piece left hanging or a pawn
//! thrown away, are what a search visits and no good player reaches.
//!
//! With `mean` (the word), each label is the mean of the teacher's scores at `depth - 1` and `depth`, as its
//! search printed them on the way: a search to an odd depth favours the side to move (it has the last move
//! before the quiescence search) and one to an even depth its opponent, and a network learns that bias as if it
//! were chess (Stockfish at depth 5 gave the side to move about 60 cp on average over its own games; the mean
//! of depths 5 and 6, 20). The mean cancels most of it at the price of the deeper search alone.

use parlor_ai::chess::tune;
use parlor_ai::rng::Rng;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position as _};
use std::io::{BufRead as _, Write as _};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first().cloned() else {
        eprintln!("usage: datagen out.txt [seconds] [threads] [depth] [teacher] [seed] [side] [mean]");
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
    let branch: u64 = args.get(6).and_then(|a| a.parse().ok()).unwrap_or(0);
    let mean = args.get(7).is_some_and(|a| a == "mean");
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let create = |path: &str| match std::fs::File::create(path) {
        Ok(f) => std::io::BufWriter::new(f),
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let mut file = create(&out);
    let side_path = format!("{out}.side");
    let mut side_file = (branch > 0).then(|| create(&side_path));
    let (tx, rx) = mpsc::channel::<(Vec<String>, Vec<String>)>();
    let workers: Vec<_> = (0..threads.max(1))
        .map(|t| {
            let tx = tx.clone();
            let teacher = teacher.clone();
            std::thread::spawn(move || {
                let mut rng = Rng::new(seed ^ (t + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                if let Err(e) = play(&teacher, depth, mean, branch, deadline, &mut rng, &tx) {
                    eprintln!("{teacher}: {e}");
                }
            })
        })
        .collect();
    drop(tx);
    let (mut games, mut positions, mut sides) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    for (lines, side) in rx {
        games += 1;
        positions += lines.len() as u64;
        sides += side.len() as u64;
        for line in lines {
            let _ = writeln!(file, "{line}");
        }
        if let Some(f) = side_file.as_mut() {
            for line in side {
                let _ = writeln!(f, "{line}");
            }
        }
        if games % 500 == 0 {
            eprintln!(
                "{games} games, {positions} positions, {sides} side positions, {:.0?}",
                start.elapsed()
            );
        }
    }
    for w in workers {
        let _ = w.join();
    }
    let _ = file.flush();
    if let Some(mut f) = side_file {
        let _ = f.flush();
    }
    eprintln!(
        "{games} games, {positions} positions in {:.0?}, written to {out}; {sides} side positions",
        start.elapsed()
    );
}

/// A teacher process: its input and output.
struct Teacher {
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
    line: String,
}

impl Teacher {
    /// The teacher's best move and score (side to move's view, cp; `None` for a mate) at `depth` after `moves`
    /// from the start position; with `mean`, the score is the mean of its last scores at `depth - 1` and at
    /// `depth` (`None` if either is a mate or missing).
    fn ask(
        &mut self,
        moves: &[String],
        depth: u32,
        mean: bool,
    ) -> std::io::Result<(Option<String>, Option<i32>)> {
        writeln!(
            self.input,
            "position startpos moves {}\ngo depth {depth}",
            moves.join(" ")
        )?;
        // The last score line's score, and the last one's at `depth - 1` (`Some(None)` for a mate).
        let (mut cp, mut before): (Option<i32>, Option<Option<i32>>) = (None, None);
        loop {
            self.line.clear();
            if self.output.read_line(&mut self.line)? == 0 {
                return Err(std::io::Error::other("the teacher stopped answering"));
            }
            let words: Vec<&str> = self.line.split_whitespace().collect();
            if words.first() == Some(&"bestmove") {
                let cp = if mean {
                    before.flatten().zip(cp).map(|(a, b)| (a + b).div_euclid(2))
                } else {
                    cp
                };
                return Ok((words.get(1).map(|w| (*w).to_owned()), cp));
            }
            if let Some(i) = words.iter().position(|w| *w == "score") {
                let n: Option<i32> = words.get(i + 2).and_then(|v| v.parse().ok());
                cp = match (words.get(i + 1), n) {
                    (Some(&"cp"), Some(n)) => Some(n),
                    (Some(&"mate"), Some(_)) => None,
                    _ => cp,
                };
                let at = words
                    .iter()
                    .position(|w| *w == "depth")
                    .and_then(|d| words.get(d + 1))
                    .and_then(|v| v.parse::<u32>().ok());
                if at.is_some_and(|at| at + 1 == depth) {
                    before = Some(cp);
                }
            }
        }
    }
}

/// The training line of `pos` if it is quiet (not in check, the teacher's move `m` neither a capture nor a
/// promotion) and its score `cp` (side to move's view) is within 20 pawns.
fn quiet_line(pos: &Chess, m: &Move, cp: Option<i32>) -> Option<String> {
    let cp = cp.filter(|cp| cp.abs() <= 2000)?;
    if pos.is_check() || m.is_capture() || m.is_promotion() {
        return None;
    }
    let white = if pos.turn() == Color::White { cp } else { -cp };
    let p = 1.0 / (1.0 + 10f64.powf(-f64::from(white) / 400.0));
    Some(format!(
        "{};{p:.4}",
        Fen::from_position(pos, EnPassantMode::Legal)
    ))
}

/// Plays `plies` uniformly random moves from `pos` (after `moves`); `None` if the game ends on the way.
fn random_walk(pos: &Chess, moves: &[String], plies: u64, rng: &mut Rng) -> Option<(Chess, Vec<String>)> {
    let (mut pos, mut moves) = (pos.clone(), moves.to_vec());
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let m = legal[rng.below(legal.len() as u64) as usize];
        moves.push(m.to_uci(CastlingMode::Standard).to_string());
        pos.play_unchecked(m);
    }
    (!pos.legal_moves().is_empty()).then_some((pos, moves))
}

/// Plays games with one teacher process until the deadline, sending each game's lines and its side lines.
fn play(
    command: &str,
    depth: u32,
    mean: bool,
    branch: u64,
    deadline: Instant,
    rng: &mut Rng,
    tx: &mpsc::Sender<(Vec<String>, Vec<String>)>,
) -> std::io::Result<()> {
    let (mut child, input, output) = tune::start_teacher(command)?;
    let mut teacher = Teacher {
        input,
        output,
        line: String::new(),
    };
    while Instant::now() < deadline {
        writeln!(teacher.input, "ucinewgame")?;
        let random = 8 + rng.below(2);
        let Some((mut pos, mut moves)) = random_walk(&Chess::default(), &[], random, rng) else {
            continue;
        };
        let mut seen: Vec<String> = Vec::new();
        let (mut lines, mut side) = (Vec::new(), Vec::new());
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
            let (best, cp) = teacher.ask(&moves, depth, mean)?;
            let Some(m) = best
                .and_then(|b| b.parse::<UciMove>().ok())
                .and_then(|u| u.to_move(&pos).ok())
            else {
                break;
            };
            if cp.is_none_or(|cp| cp.abs() > 2000) {
                break;
            }
            lines.extend(quiet_line(&pos, &m, cp));
            // A side line: one or two random moves away from the game, a position the search visits but no
            // good player reaches.
            if rng.below(1000) < branch {
                let plies = 1 + u64::from(rng.below(10) < 3);
                if let Some((p, ms)) = random_walk(&pos, &moves, plies, rng) {
                    let (b, c) = teacher.ask(&ms, depth, mean)?;
                    if let Some(bm) = b
                        .and_then(|b| b.parse::<UciMove>().ok())
                        .and_then(|u| u.to_move(&p).ok())
                    {
                        side.extend(quiet_line(&p, &bm, c));
                    }
                }
            }
            moves.push(m.to_uci(CastlingMode::Standard).to_string());
            pos.play_unchecked(m);
            if pos.legal_moves().is_empty() {
                break;
            }
        }
        if tx.send((lines, side)).is_err() {
            break;
        }
    }
    let _ = writeln!(teacher.input, "quit");
    let _ = child.wait();
    Ok(())
}
