//! Where the games of an International draughts match were lost: reads the error output of `parlor match
//! --show-moves` and, for every game A lost, has a judge engine over Hub (Scan 2.0 here) score each position, then
//! prints the ply after which A's score never again rose above -1 man, with the pieces then on the board, and the
//! move of A's after which its score fell the most, with the position before it (to search it again).
//!
//! `cargo run --release -p parlor-ai --features tools --example draughts_turning_points -- match.log
//! ["hub command"] [movetime ms]`

use parlor_ai::draughts::hub_engine::HubEngine;
use parlor_ai::{Level, Limit, Request};
use parlor_draughts::{Color, DraughtsVariant, Game, Options, Position};
use parlor_game::Rules as _;
use std::time::Duration;

/// A's score (hundredths of a man) below which a position counts as lost.
const LOST: i32 = -100;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(log) = args.first() else {
        eprintln!("usage: draughts_turning_points match.log [hub command] [movetime ms]");
        std::process::exit(2);
    };
    let judge = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "/work/scan/scan hub".to_owned());
    let movetime = Duration::from_millis(args.get(2).and_then(|a| a.parse().ok()).unwrap_or(30));
    let text = match std::fs::read_to_string(log) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{log}: {e}");
            std::process::exit(1);
        }
    };
    let options = vec![("book".to_owned(), "false".to_owned())];
    let mut engine = match HubEngine::start(&judge, DraughtsVariant::International, &options) {
        Ok(engine) => engine,
        Err(e) => {
            eprintln!("{judge}: {e}");
            std::process::exit(1);
        }
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut histogram = [0usize; 41];
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.strip_prefix("game ") else {
            continue;
        };
        let a_first = rest.contains("A first");
        if !rest.contains(": 0 (") {
            continue;
        }
        let Some(moves) = lines.get(i + 1).and_then(|l| l.trim().strip_prefix("moves: ")) else {
            continue;
        };
        let mut game = Game::new(DraughtsVariant::International, Options::default());
        let mut scores = Vec::new();
        let mut pieces = Vec::new();
        // A's position before its move (FEN, A's score, the ply) and the largest fall of a move of A's.
        let mut before: Option<(String, i32, usize)> = None;
        let mut worst: Option<(i32, String, String, i32)> = None;
        for (ply, m) in moves.split_whitespace().enumerate() {
            if game.play(m).is_err() {
                eprintln!("game {}: move {m} does not replay", rest.trim());
                break;
            }
            let pos: Position = *game.position();
            match pos.legal_moves().len() {
                0 => break,
                // A forced move is played without a search (the engine reports no score).
                1 => continue,
                _ => {}
            }
            let Ok((_, Some(score))) = engine.analyse(&pos, movetime) else {
                continue;
            };
            // Scan 2.0 reports 0 now and then in an ending it has found won or lost (its bitbases): not a draw.
            if score == 0
                && scores
                    .last()
                    .is_some_and(|&(_, s): &(usize, i32)| s.abs() >= 1000)
            {
                continue;
            }
            // After ply `ply`, the side to move is A when A moved second on an even ply or first on an odd one.
            let a_to_move = (ply % 2 == 1) == a_first;
            let a_score = if a_to_move { score } else { -score };
            if let Some((fen, was, at)) = before.take()
                && at == ply
                && !a_to_move
                && was.abs() < 1000
                && a_score.abs() < 1000
                && worst.as_ref().is_none_or(|w| was - a_score > w.0)
            {
                worst = Some((was - a_score, fen, m.to_owned(), was));
            }
            if a_to_move {
                before = Some((pos.to_fen(), a_score, ply + 1));
            }
            scores.push((ply + 1, a_score));
            let ((wm, wk), (bm, bk)) = (pos.count(Color::White), pos.count(Color::Black));
            pieces.push((wm + wk + bm + bk) as usize);
        }
        let turning = scores
            .iter()
            .rposition(|&(_, s)| s > LOST)
            .map_or(0, |k| k + 1)
            .min(scores.len().saturating_sub(1));
        let (ply, score) = scores.get(turning).copied().unwrap_or((0, 0));
        let men = pieces.get(turning).copied().unwrap_or(0);
        let trail: Vec<String> = scores
            .iter()
            .skip(turning.saturating_sub(6))
            .take(8)
            .map(|(p, s)| format!("{p}:{s}"))
            .collect();
        println!(
            "{}  lost from ply {ply} (score {score}, {men} pieces; {} plies in all): {}",
            rest.split(']').next().unwrap_or(rest),
            scores.len(),
            trail.join(" ")
        );
        if let Some((fall, fen, m, was)) = worst {
            println!("    largest fall after a move of A's: {m} from {was} by {fall}, in {fen}");
            if fall >= 60 {
                second_look(&mut engine, &fen, &m);
            }
        }
        histogram[(men / 5).min(40)] += 1;
    }
    println!("pieces on the board when the game was lost (by fives):");
    for (k, n) in histogram.iter().enumerate().filter(|(_, n)| **n > 0) {
        println!("  {:>2}-{:>2}: {n}", k * 5, k * 5 + 4);
    }
}

/// Searches the position before a costly move again: our hard level at 100 ms and at 1 s, and the judge at 300 ms,
/// each move then scored by the judge (A's score after it).
fn second_look(engine: &mut HubEngine, fen: &str, played: &str) {
    let Ok(pos) = Position::from_fen(DraughtsVariant::International, fen) else {
        return;
    };
    let kind = parlor_game::GameKind::Draughts(DraughtsVariant::International);
    let mut line = Vec::new();
    let mut candidates = vec![("played".to_owned(), played.to_owned())];
    for ms in [100u64, 1000] {
        let mut req = Request::new(kind, Level::HARD, Limit::MoveTime(Duration::from_millis(ms)));
        req.start = fen.to_owned();
        if let Ok(choice) = parlor_ai::choose(&req) {
            candidates.push((format!("hard {ms} ms"), choice.wire));
        }
    }
    if let Ok((m, _)) = engine.analyse(&pos, Duration::from_millis(300)) {
        candidates.push(("judge 300 ms".to_owned(), m));
    }
    for (who, m) in candidates {
        let mut game = Game::from_position(pos, Options::default());
        let after = match game.play(&m) {
            Ok(_) if game.position().legal_moves().len() > 1 => engine
                .analyse(game.position(), Duration::from_millis(100))
                .ok()
                .and_then(|(_, s)| s)
                .map_or("?".to_owned(), |s| (-s).to_string()),
            Ok(_) => "forced".to_owned(),
            Err(_) => "illegal".to_owned(),
        };
        line.push(format!("{who} {m} -> {after}"));
    }
    println!("      {}", line.join("; "));
}
