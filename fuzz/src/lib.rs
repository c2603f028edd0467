//! Checks shared by the fuzz targets: playing wire moves on any game and reading back what it writes.
//!
//! # Layout
//! - [`text`]: the input bytes as UTF-8, split into a selector byte and text.
//! - [`play_wires`]: plays whitespace-separated wire moves and checks each played move and position round-trip.
//! - The targets are in `src/bin/`, one per parser: `client_msg`, `chess`, `draughts`, `chess4`, `image_query`.

use parlor_game::{AnyGame, ExportInfo};

/// Moves played at most per input, so one input stays fast (a fuzzer wants thousands of runs a second).
pub const MAX_PLIES: usize = 64;

/// The first byte (a selector for the target's modes) and the rest as UTF-8 text, or `None` for inputs that
/// are empty or not UTF-8 (every parser here takes `&str`, as the server hands it).
pub fn text(data: &[u8]) -> Option<(u8, &str)> {
    let (&selector, rest) = data.split_first()?;
    Some((selector, std::str::from_utf8(rest).ok()?))
}

/// Plays whitespace-separated wire moves on `game` (at most [`MAX_PLIES`]). For each move the game accepts:
/// the canonical wire it records is itself accepted by the game before the move and gives the same position, and
/// was listed as legal; `remake` (the game's own parser) reads the position text back to the same text; a
/// refused move leaves the game unchanged. At the end, every listed legal move plays under its own wire.
///
/// # Panics
/// When one of those properties fails: that is what the fuzzer looks for.
pub fn play_wires(game: &mut AnyGame, wires: &str, remake: impl Fn(&str) -> Option<AnyGame>) {
    for wire in wires.split_whitespace().take(MAX_PLIES) {
        let before = game.clone();
        let before_text = game.position_text();
        match game.play(wire) {
            Ok(played) => {
                let mut again = before.clone();
                let replayed = again
                    .play(&played.wire)
                    .unwrap_or_else(|e| panic!("canonical wire `{}` of `{wire}` refused: {e}", played.wire));
                assert_eq!(replayed, played, "canonical wire of `{wire}` plays differently");
                assert_eq!(again.position_text(), game.position_text());
                assert!(
                    before.legal_moves().iter().any(|m| m.wire == played.wire),
                    "`{}` played but not listed as legal",
                    played.wire
                );
            }
            Err(e) => {
                assert_eq!(
                    game.position_text(),
                    before_text,
                    "refused `{wire}` ({e}) changed the game"
                );
                assert_eq!(game.history().len(), before.history().len());
            }
        }
        let text = game.position_text();
        let read = remake(&text).unwrap_or_else(|| panic!("position text `{text}` does not read back"));
        assert_eq!(read.position_text(), text, "position text does not round-trip");
    }
    for listed in game.legal_moves() {
        let mut probe = game.clone();
        let played = probe
            .play(&listed.wire)
            .unwrap_or_else(|e| panic!("listed move `{}` refused: {e}", listed.wire));
        assert_eq!(played.wire, listed.wire, "a listed wire is not canonical");
    }
    let _ = game.export(&ExportInfo::default());
    let _ = game.checked_kings();
    let _ = game.repetition_key();
}
