//! Tuning of the piece-square tables by Texel's method (Peter Österlund, 2014, described on the Chess
//! Programming Wiki as "Texel's Tuning Method"): play games, keep quiet positions with the game's result, and move
//! the table values so that a logistic curve of the evaluation predicts the results best. Run by
//! `cargo run --release -p parlor-ai --example tune`; its output replaces the tables in `eval.rs`.

use super::eval::{Terms, tables, terms};
use crate::arena::{CHESS_OPENINGS, chess_openings};
use crate::params::{PHASE_MAX, TEMPO};
use crate::request::{Level, Limit, Request};
use crate::rng::Rng;
use crate::{Engine, chess::Root};
use parlor_game::{GameKind, Outcome, Rules, Seat};
use shakmaty::Position as _;
use std::fmt::Write as _;

/// A quiet position and the result of its game for White (1, 0.5, 0).
#[derive(Clone, Debug)]
pub struct Sample {
    terms: Terms,
    white_to_move: bool,
    result: f64,
    fen: String,
}

/// Plays `games` games of the hard level at a fixed `depth` on `threads` threads, from the balanced openings
/// with two random plies added, and keeps the positions that are not in check and whose best move is quiet.
pub fn self_play(games: usize, depth: u32, threads: usize, seed: u64) -> Vec<Sample> {
    let openings = chess_openings(CHESS_OPENINGS).unwrap_or_default();
    if openings.is_empty() {
        return Vec::new();
    }
    let handles: Vec<_> = (0..threads.max(1))
        .map(|t| {
            let openings = openings.clone();
            std::thread::spawn(move || {
                let mut rng = Rng::new(seed ^ (t as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                let mut engine = Engine::new();
                let mut out = Vec::new();
                for g in (t..games).step_by(threads.max(1)) {
                    out.extend(one_game(
                        &mut engine,
                        &mut rng,
                        &openings[g % openings.len()].moves,
                        depth,
                    ));
                }
                out
            })
        })
        .collect();
    handles
        .into_iter()
        .flat_map(|h| h.join().unwrap_or_default())
        .collect()
}

fn one_game(engine: &mut Engine, rng: &mut Rng, opening: &[String], depth: u32) -> Vec<Sample> {
    engine.new_game();
    let mut game = parlor_chess::Game::new();
    let mut moves = Vec::new();
    for m in opening {
        if game.play(m).is_err() {
            return Vec::new();
        }
        moves.push(m.clone());
    }
    for _ in 0..2 {
        let legal = game.legal_moves();
        let Some(m) = legal.get(rng.below(legal.len() as u64) as usize) else {
            return Vec::new();
        };
        let wire = m.wire.clone();
        if game.play(&wire).is_err() {
            return Vec::new();
        }
        moves.push(wire);
    }
    let mut kept = Vec::new();
    while game.outcome().is_running() && moves.len() < 300 {
        let mut req = Request::new(GameKind::Chess, Level::Hard, Limit::Depth(depth));
        req.moves = moves.clone();
        let Ok(choice) = engine.choose(&req) else {
            break;
        };
        if let Ok(root) = Root::new("", &moves) {
            let quiet = !choice.wire.is_empty()
                && root.pos.board().piece_at(square_of(&choice.wire)).is_none()
                && choice.wire.len() == 4;
            if quiet
                && !root.pos.is_check()
                && moves.len() >= 12
                && let Some(t) = terms(&root.pos)
            {
                kept.push(Sample {
                    terms: t,
                    white_to_move: root.pos.turn() == shakmaty::Color::White,
                    result: 0.5,
                    fen: shakmaty::fen::Fen::from_position(&root.pos, shakmaty::EnPassantMode::Legal)
                        .to_string(),
                });
            }
        }
        if game.play(&choice.wire).is_err() {
            break;
        }
        moves.push(choice.wire);
    }
    let result = match game.outcome() {
        Outcome::Decided(d) if d.winner() == Some(Seat::First) => 1.0,
        Outcome::Decided(_) => 0.0,
        _ => 0.5,
    };
    for s in &mut kept {
        s.result = result;
    }
    kept
}

/// Replaces the game result of every sample by the expected score a stronger UCI engine (the teacher, e.g.
/// Stockfish) gives the position in a search of `depth`: `1 / (1 + 10^(-cp / 400))` for White. A teacher's
/// judgement of each position is far less noisy than the result of a whole game (the "teacher" variant of
/// Texel's method). Returns the number of samples labelled.
///
/// # Errors
/// When the engine cannot be started or stops answering.
pub fn label(samples: &mut [Sample], command: &str, depth: u32) -> std::io::Result<usize> {
    use std::io::{BufRead as _, BufReader, Write as _};
    let mut child = std::process::Command::new(command)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()?;
    let broken = || std::io::Error::other("the teacher stopped answering");
    let mut input = child.stdin.take().ok_or_else(broken)?;
    let mut output = BufReader::new(child.stdout.take().ok_or_else(broken)?);
    writeln!(input, "uci\nsetoption name Threads value 1\nisready")?;
    let mut line = String::new();
    loop {
        line.clear();
        if output.read_line(&mut line)? == 0 {
            return Err(broken());
        }
        if line.starts_with("readyok") {
            break;
        }
    }
    let mut labelled = 0;
    for s in samples.iter_mut() {
        writeln!(input, "position fen {}\ngo depth {depth}", s.fen)?;
        let mut cp = None;
        loop {
            line.clear();
            if output.read_line(&mut line)? == 0 {
                return Err(broken());
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.first() == Some(&"bestmove") {
                break;
            }
            if let Some(i) = words.iter().position(|w| *w == "score") {
                let n: Option<i32> = words.get(i + 2).and_then(|v| v.parse().ok());
                cp = match (words.get(i + 1), n) {
                    (Some(&"cp"), Some(n)) => Some(n),
                    (Some(&"mate"), Some(n)) => Some(if n > 0 { 3000 } else { -3000 }),
                    _ => cp,
                };
            }
        }
        if let Some(cp) = cp {
            let white = if s.white_to_move { cp } else { -cp };
            s.result = 1.0 / (1.0 + 10f64.powf(-f64::from(white) / 400.0));
            labelled += 1;
        }
    }
    let _ = writeln!(input, "quit");
    let _ = child.wait();
    Ok(labelled)
}

/// The samples as text, one `fen;result` a line (to tune again without playing and labelling again).
pub fn to_text(samples: &[Sample]) -> String {
    let mut out = String::new();
    for s in samples {
        let _ = writeln!(out, "{};{:.4}", s.fen, s.result);
    }
    out
}

/// Samples read back from [`to_text`]; unreadable lines and positions the tuner cannot use are skipped.
pub fn from_text(text: &str) -> Vec<Sample> {
    text.lines()
        .filter_map(|line| {
            let (fen, result) = line.split_once(';')?;
            let result: f64 = result.trim().parse().ok()?;
            let pos = parlor_chess::Position::from_fen(fen).ok()?.0;
            Some(Sample {
                terms: terms(&pos)?,
                white_to_move: pos.turn() == shakmaty::Color::White,
                result,
                fen: fen.to_owned(),
            })
        })
        .collect()
}

/// The destination square of a UCI move (`e2e4` -> e4); a1 if unreadable.
fn square_of(wire: &str) -> shakmaty::Square {
    wire.get(2..4)
        .and_then(|s| shakmaty::Square::from_ascii(s.as_bytes()).ok())
        .unwrap_or(shakmaty::Square::A1)
}

/// Table values being tuned: `[mg/eg][role][table index]`.
pub type Params = [[[f64; 64]; 6]; 2];

fn initial() -> Params {
    let mut p = [[[0.0; 64]; 6]; 2];
    for (r, (mg, eg)) in tables().iter().enumerate() {
        for i in 0..64 {
            p[0][r][i] = f64::from(mg[i]);
            p[1][r][i] = f64::from(eg[i]);
        }
    }
    p
}

fn eval(p: &Params, s: &Sample) -> f64 {
    let (mut mg, mut eg) = (f64::from(s.terms.rest.0), f64::from(s.terms.rest.1));
    for &(c, r, i) in &s.terms.pieces {
        let sign = if c == 0 { 1.0 } else { -1.0 };
        mg += sign * p[0][r as usize][i as usize];
        eg += sign * p[1][r as usize][i as usize];
    }
    let phase = f64::from(s.terms.phase) / f64::from(PHASE_MAX);
    let tempo = if s.white_to_move {
        f64::from(TEMPO)
    } else {
        -f64::from(TEMPO)
    };
    mg * phase + eg * (1.0 - phase) + tempo
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e).exp())
}

/// Mean squared error of the predicted results.
pub fn error(samples: &[Sample], p: &Params, k: f64) -> f64 {
    samples
        .iter()
        .map(|s| (s.result - sigmoid(k, eval(p, s))).powi(2))
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// Fits the logistic scale to the current tables, then the tables by Adam (Kingma and Ba, 2015) on the mean
/// squared error, with a small pull towards the starting values so rarely seen squares stay sensible. Returns
/// the tuned tables and the errors before and after.
pub fn tune(samples: &[Sample], epochs: usize) -> (Params, f64, f64) {
    let mut p = initial();
    let start = p;
    let mut k = 0.0;
    let mut best = f64::INFINITY;
    for step in 1..=60 {
        let kk = f64::from(step) * 0.0005;
        let e = error(samples, &p, kk);
        if e < best {
            best = e;
            k = kk;
        }
    }
    let before = best;
    let (mut m, mut v) = ([[[0.0; 64]; 6]; 2], [[[0.0; 64]; 6]; 2]);
    let (lr, b1, b2, pull) = (1.0, 0.9, 0.999, 1e-7);
    let n = samples.len().max(1) as f64;
    for epoch in 1..=epochs {
        let mut g: Params = [[[0.0; 64]; 6]; 2];
        for s in samples {
            let y = sigmoid(k, eval(&p, s));
            let d = -2.0 * (s.result - y) * y * (1.0 - y) * k / n;
            let phase = f64::from(s.terms.phase) / f64::from(PHASE_MAX);
            for &(c, r, i) in &s.terms.pieces {
                let sign = if c == 0 { 1.0 } else { -1.0 };
                g[0][r as usize][i as usize] += d * sign * phase;
                g[1][r as usize][i as usize] += d * sign * (1.0 - phase);
            }
        }
        for t in 0..2 {
            for r in 0..6 {
                for i in 0..64 {
                    let grad = g[t][r][i] + pull * (p[t][r][i] - start[t][r][i]);
                    m[t][r][i] = b1 * m[t][r][i] + (1.0 - b1) * grad;
                    v[t][r][i] = b2 * v[t][r][i] + (1.0 - b2) * grad * grad;
                    let mh = m[t][r][i] / (1.0 - b1.powi(epoch as i32));
                    let vh = v[t][r][i] / (1.0 - b2.powi(epoch as i32));
                    p[t][r][i] -= lr * mh / (vh.sqrt() + 1e-9);
                }
            }
        }
    }
    let after = error(samples, &p, k);
    (p, before, after)
}

/// The tuned tables as Rust source: material values (the mean of each table over the squares a piece can stand
/// on) and the tables around them, in the layout of `eval.rs`.
pub fn to_rust(p: &Params) -> String {
    let names = ["PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING"];
    let mut out = String::new();
    let mut values = [[0i32; 6]; 2];
    for t in 0..2 {
        for r in 0..6 {
            let range = if r == 0 { 8..56 } else { 0..64 };
            let len = range.len() as f64;
            let mean = if r == 5 {
                0.0
            } else {
                range.map(|i| p[t][r][i]).sum::<f64>() / len
            };
            values[t][r] = mean.round() as i32;
        }
    }
    let _ = writeln!(out, "pub const MG_VALUE: [i32; 6] = {:?};", values[0]);
    let _ = writeln!(out, "pub const EG_VALUE: [i32; 6] = {:?};", values[1]);
    for (r, name) in names.iter().enumerate() {
        for (t, phase) in ["MG", "EG"].iter().enumerate() {
            let _ = writeln!(out, "#[rustfmt::skip]\nconst {name}_{phase}: [i32; 64] = [");
            for row in 0..8 {
                let cells: Vec<String> = (0..8)
                    .map(|f| {
                        let i = row * 8 + f;
                        let unused = r == 0 && !(8..56).contains(&i);
                        let v = if unused {
                            0
                        } else {
                            (p[t][r][i] - f64::from(values[t][r])).round() as i32
                        };
                        format!("{v:>4}")
                    })
                    .collect();
                let _ = writeln!(out, "    {},", cells.join(","));
            }
            let _ = writeln!(out, "];");
        }
    }
    out
}
