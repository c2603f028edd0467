//! PGN export: the Seven Tag Roster plus TimeControl and Termination, SetUp/FEN for other starts, the moves in
//! SAN. `pgn.rs` reads it back.

use crate::position::Position;
use parlor_game::{ExportInfo, Rules};
use shakmaty::Position as _;
use std::fmt::Write as _;

/// The standard start position, without clocks.
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Escapes a PGN tag value (backslash and quote).
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a game as PGN.
pub fn write(start: &Position, game: &dyn Rules, info: &ExportInfo) -> String {
    let or = |value: &str, default: &str| {
        if value.is_empty() {
            default.to_owned()
        } else {
            value.to_owned()
        }
    };
    let player = |i: usize| info.players.get(i).map_or_else(|| "?".to_owned(), |p| or(p, "?"));
    let result = game.outcome().result_str();
    let termination = match game.outcome().reason() {
        Some(reason) => reason.pgn_termination(),
        None => "unterminated",
    };
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), or(&info.event, "Parlor game")),
        ("Site".into(), or(&info.site, "?")),
        ("Date".into(), or(&info.date, "????.??.??")),
        ("Round".into(), "-".into()),
        ("White".into(), player(0)),
        ("Black".into(), player(1)),
        ("Result".into(), result.into()),
        ("TimeControl".into(), or(&info.time_control, "-")),
        ("Termination".into(), termination.into()),
    ];
    let start_fen = start.to_fen();
    if start_fen != START_FEN {
        tags.push(("SetUp".into(), "1".into()));
        tags.push(("FEN".into(), start_fen));
    }
    tags.extend(info.extra.iter().cloned());

    let mut out = String::new();
    for (name, value) in &tags {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    }
    out.push('\n');

    let start = start.inner();
    let mut number = start.fullmoves().get();
    let mut white_to_move = start.turn().is_white();
    let mut tokens = Vec::new();
    for (i, played) in game.history().iter().enumerate() {
        if white_to_move {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(played.display.clone());
        tokens.extend(info.comment(i));
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    tokens.push(result.to_owned());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push('\n');
    out
}
