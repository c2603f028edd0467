//! Fuzz target: chess FEN, UCI (wire) moves and PGN, read through `parlor-chess` as the server and the PGN
//! import read them. The first byte picks the mode; each mode checks that what is written reads back the same.

use parlor_chess::{Game, Position, pgn};
use parlor_fuzz::{play_wires, text};
use parlor_game::{AnyGame, ExportInfo, Rules};

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Some((mode, text)) = text(data) else {
            return;
        };
        match mode % 3 {
            0 => fen(text),
            1 => moves(text),
            _ => pgn_text(text),
        }
    });
}

/// FEN -> position -> FEN -> position gives the same FEN.
fn fen(text: &str) {
    let Ok(position) = Position::from_fen(text) else {
        return;
    };
    let written = position.to_fen();
    let read =
        Position::from_fen(&written).unwrap_or_else(|e| panic!("written FEN `{written}` refused: {e}"));
    assert_eq!(read.to_fen(), written);
}

/// A FEN line (the start position when empty or bad), then UCI moves; the game's PGN reads back to it.
fn moves(text: &str) {
    let (first, wires) = text.split_once('\n').unwrap_or((text, ""));
    let mut game: AnyGame = Box::new(Game::from_fen(first).unwrap_or_default());
    play_wires(&mut game, wires, |fen| {
        Game::from_fen(fen).ok().map(|g| Box::new(g) as AnyGame)
    });
    let exported = game.export(&ExportInfo::default());
    let read = pgn::read(&exported).unwrap_or_else(|e| panic!("our own PGN refused: {e}\n{exported}"));
    assert_eq!(read.game.position_text(), game.position_text(), "{exported}");
    assert_eq!(read.game.history(), game.history(), "{exported}");
}

/// PGN -> game -> PGN -> game gives the same moves and position.
fn pgn_text(text: &str) {
    let Ok(first) = pgn::read(text) else {
        return;
    };
    let written = pgn::write(&first.game, &ExportInfo::default());
    let second = pgn::read(&written).unwrap_or_else(|e| panic!("written PGN refused: {e}\n{written}"));
    assert_eq!(second.game.history(), first.game.history(), "{written}");
    assert_eq!(
        second.game.position_text(),
        first.game.position_text(),
        "{written}"
    );
}
