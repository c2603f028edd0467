//! Tuning of the piece-square tables by Texel's method (Peter Österlund, 2014, described on the Chess
//! Programming Wiki as "Texel's Tuning Method"): play games, keep quiet positions with the game's result, and move
//! the table values so that a logistic curve of the evaluation predicts the results best. Run by
//! `cargo run --release -p parlor-ai --example tune`; its output replaces the tables in `eval.rs`.

use super::eval::{Terms, feature, feature_weights, tables, terms};
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
        let mut req = Request::new(GameKind::Chess, Level::HARD, Limit::Depth(depth));
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
    label_parallel(samples, command, depth, 1)
}

/// As [`label`], with `threads` teacher processes, each labelling its own share of the samples.
///
/// # Errors
/// When a teacher cannot be started or stops answering.
pub fn label_parallel(
    samples: &mut [Sample],
    command: &str,
    depth: u32,
    threads: usize,
) -> std::io::Result<usize> {
    let share = samples.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks_mut(share)
            .map(|chunk| scope.spawn(move || label_with_one(chunk, command, depth)))
            .collect();
        let mut labelled = 0;
        for handle in handles {
            labelled += handle
                .join()
                .map_err(|_| std::io::Error::other("a labelling thread panicked"))??;
        }
        Ok(labelled)
    })
}

/// A running teacher engine: the process, its input and its output.
pub type Teacher = (
    std::process::Child,
    std::process::ChildStdin,
    std::io::BufReader<std::process::ChildStdout>,
);

/// Starts a UCI teacher engine on one thread and waits until it is ready.
///
/// # Errors
/// When it cannot be started or stops answering.
pub fn start_teacher(command: &str) -> std::io::Result<Teacher> {
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
    Ok((child, input, output))
}

fn label_with_one(samples: &mut [Sample], command: &str, depth: u32) -> std::io::Result<usize> {
    use std::io::{BufRead as _, Write as _};
    let (mut child, mut input, mut output) = start_teacher(command)?;
    let broken = || std::io::Error::other("the teacher stopped answering");
    let mut line = String::new();
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

/// Values being tuned: the tables `[mg/eg][role][table index]` and the feature weights `[mg/eg][feature]`.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Material plus table value.
    pub tables: [[[f64; 64]; 6]; 2],
    /// Weights of the linear features (see [`feature`]).
    pub weights: [[f64; feature::COUNT]; 2],
}

impl Params {
    fn zero() -> Params {
        Params {
            tables: [[[0.0; 64]; 6]; 2],
            weights: [[0.0; feature::COUNT]; 2],
        }
    }

    /// Every value, for the optimiser.
    fn values_mut(&mut self) -> impl Iterator<Item = &mut f64> {
        self.tables
            .iter_mut()
            .flat_map(|t| t.iter_mut().flat_map(|r| r.iter_mut()))
            .chain(self.weights.iter_mut().flat_map(|w| w.iter_mut()))
    }
}

impl Params {
    /// The values the evaluation uses now.
    pub fn current() -> Params {
        initial()
    }
}

fn initial() -> Params {
    let mut p = Params::zero();
    for (r, (mg, eg)) in tables().iter().enumerate() {
        for i in 0..64 {
            p.tables[0][r][i] = f64::from(mg[i]);
            p.tables[1][r][i] = f64::from(eg[i]);
        }
    }
    for (f, (mg, eg)) in feature_weights().iter().enumerate() {
        p.weights[0][f] = f64::from(*mg);
        p.weights[1][f] = f64::from(*eg);
    }
    p
}

fn eval(p: &Params, s: &Sample) -> f64 {
    let f = &s.terms.features;
    let (mut mg, mut eg) = (f64::from(f.fixed.0), f64::from(f.fixed.1));
    for &(c, r, i) in &s.terms.pieces {
        let sign = if c == 0 { 1.0 } else { -1.0 };
        mg += sign * p.tables[0][r as usize][i as usize];
        eg += sign * p.tables[1][r as usize][i as usize];
    }
    for (k, &n) in f.counts.iter().enumerate() {
        if n != 0 {
            mg += f64::from(n) * p.weights[0][k];
            eg += f64::from(n) * p.weights[1][k];
        }
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

/// The logistic scale that fits the current values best.
pub fn fit_scale(samples: &[Sample]) -> f64 {
    let p = initial();
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
    k
}

/// Fits the logistic scale to the current values, then the tables and the feature weights by Adam (Kingma and
/// Ba, 2015) on the mean squared error, with a small pull towards the starting values so rarely seen squares
/// stay sensible. Returns the tuned values, the scale, and the errors before and after.
pub fn tune(samples: &[Sample], epochs: usize) -> (Params, f64, f64, f64) {
    let mut p = initial();
    let start = p;
    let k = fit_scale(samples);
    let before = error(samples, &p, k);
    let (mut m, mut v) = (Params::zero(), Params::zero());
    let (lr, b1, b2, pull) = (1.0, 0.9, 0.999, 1e-7);
    let n = samples.len().max(1) as f64;
    for epoch in 1..=epochs {
        let mut g = Params::zero();
        for s in samples {
            let y = sigmoid(k, eval(&p, s));
            let d = -2.0 * (s.result - y) * y * (1.0 - y) * k / n;
            let phase = f64::from(s.terms.phase) / f64::from(PHASE_MAX);
            for &(c, r, i) in &s.terms.pieces {
                let sign = if c == 0 { 1.0 } else { -1.0 };
                g.tables[0][r as usize][i as usize] += d * sign * phase;
                g.tables[1][r as usize][i as usize] += d * sign * (1.0 - phase);
            }
            for (f, &count) in s.terms.features.counts.iter().enumerate() {
                if count != 0 {
                    g.weights[0][f] += d * f64::from(count) * phase;
                    g.weights[1][f] += d * f64::from(count) * (1.0 - phase);
                }
            }
        }
        let mut start_values = start;
        let steps = p
            .values_mut()
            .zip(g.values_mut())
            .zip(start_values.values_mut())
            .zip(m.values_mut().zip(v.values_mut()));
        for (((value, grad), start), (m, v)) in steps {
            let grad = *grad + pull * (*value - *start);
            *m = b1 * *m + (1.0 - b1) * grad;
            *v = b2 * *v + (1.0 - b2) * grad * grad;
            let mh = *m / (1.0 - b1.powi(epoch as i32));
            let vh = *v / (1.0 - b2.powi(epoch as i32));
            *value -= lr * mh / (vh.sqrt() + 1e-9);
        }
    }
    let after = error(samples, &p, k);
    (p, k, before, after)
}

/// The tuned values as Rust source: material values (the mean of each table over the squares a piece can stand
/// on) and the tables around them, in the layout of `eval.rs`, then the feature weights for `params.rs`.
pub fn to_rust(p: &Params) -> String {
    let names = ["PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING"];
    let mut out = String::new();
    let mut values = [[0i32; 6]; 2];
    for (phase, tables) in values.iter_mut().zip(&p.tables) {
        for (r, (value, table)) in phase.iter_mut().zip(tables).enumerate() {
            let range = if r == 0 { 8..56 } else { 0..64 };
            let len = range.len() as f64;
            let mean = if r == 5 {
                0.0
            } else {
                table[range].iter().sum::<f64>() / len
            };
            *value = mean.round() as i32;
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
                            (p.tables[t][r][i] - f64::from(values[t][r])).round() as i32
                        };
                        format!("{v:>4}")
                    })
                    .collect();
                let _ = writeln!(out, "    {},", cells.join(","));
            }
            let _ = writeln!(out, "];");
        }
    }
    let w = |f: usize| {
        format!(
            "({}, {})",
            p.weights[0][f].round() as i32,
            p.weights[1][f].round() as i32
        )
    };
    let list = |range: std::ops::Range<usize>| range.map(w).collect::<Vec<_>>().join(", ");
    let _ = writeln!(
        out,
        "pub const PASSED: [(i32, i32); 8] = [{}];",
        list(feature::PASSED..feature::PASSED + 8)
    );
    let _ = writeln!(
        out,
        "pub const MOBILITY: [(i32, i32); 4] = [{}];",
        list(feature::MOBILITY..feature::MOBILITY + 4)
    );
    for (name, f) in [
        ("DOUBLED", feature::DOUBLED),
        ("ISOLATED", feature::ISOLATED),
        ("ROOK_OPEN", feature::ROOK_OPEN),
        ("ROOK_HALF_OPEN", feature::ROOK_HALF_OPEN),
        ("BISHOP_PAIR", feature::BISHOP_PAIR),
        ("KING_SHIELD", feature::KING_SHIELD),
        ("THREAT_BY_PAWN", feature::THREAT_BY_PAWN),
        ("THREAT_BY_MINOR", feature::THREAT_BY_MINOR),
        ("THREAT_BY_ROOK", feature::THREAT_BY_ROOK),
        ("PASSED_FREE", feature::PASSED_FREE),
        ("PASSED_KINGS", feature::PASSED_KINGS),
        ("CONNECTED", feature::CONNECTED),
        ("ROOK_SEVENTH", feature::ROOK_SEVENTH),
        ("OUTPOST", feature::OUTPOST),
        ("KING_OPEN_FILE", feature::KING_OPEN_FILE),
        ("HANGING", feature::HANGING),
        ("KING_ATTACK", feature::KING_ATTACK),
        ("SAFE_CHECK", feature::SAFE_CHECK),
        ("BACKWARD", feature::BACKWARD),
        ("CONNECTED_RANK", feature::CONNECTED_RANK),
        ("KING_ZONE_WEAK", feature::KING_ZONE_WEAK),
        ("PAWN_STORM", feature::PAWN_STORM),
        ("BISHOP_PAWNS", feature::BISHOP_PAWNS),
        ("SPACE", feature::SPACE),
        ("MINOR_BEHIND_PAWN", feature::MINOR_BEHIND_PAWN),
    ] {
        let _ = writeln!(out, "pub const {name}: (i32, i32) = {};", w(f));
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::chess::eval::evaluate;

    /// The tuner's linear model with the current values is the engine's evaluation (to rounding), so what is
    /// tuned is what plays.
    #[test]
    fn the_tuners_model_is_the_evaluation() {
        let p = Params::current();
        let mut checked = 0;
        for fen in [
            "r1bq1rk1/pp3ppp/2n1pn2/2pp4/1bPP4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 0 8",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "2r2rk1/pp1bqppp/2n1pn2/3p4/2PP4/1PN1PN2/P2BQPPP/2R2RK1 w - - 0 13",
            "8/5pk1/6p1/3R4/7P/6P1/r4PK1/8 w - - 0 40",
            "4k3/R7/8/4N3/3P4/8/8/4K3 b - - 0 1",
        ] {
            let text = format!("{fen};0.5");
            let Some(sample) = from_text(&text).pop() else {
                continue;
            };
            let pos = parlor_chess::Position::from_fen(fen).unwrap().0;
            let engine = f64::from(evaluate(&pos));
            let white = if sample.white_to_move { engine } else { -engine };
            assert!(
                (eval(&p, &sample) - white).abs() <= 1.0,
                "{fen}: {} vs {white}",
                eval(&p, &sample)
            );
            checked += 1;
        }
        assert!(checked >= 4);
    }
}
