//! Fuzz target: four-player chess FEN4 and wire moves (`h2-h4`, `Nj1-i3`, `O-O`), with the game's PGN4 export
//! and the PGN4 reader. FEN4 written by a position must read back to the same position, the export to the game.

use parlor_chess4::{Game, Position, pgn4};
use parlor_fuzz::{play_wires, text};
use parlor_game::{AnyGame, ExportInfo, Rules};

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Some((selector, text)) = text(data) else {
            return;
        };
        let (first, wires) = text.split_once('\n').unwrap_or((text, ""));
        if let Ok(position) = Position::from_fen4(first) {
            let written = position.to_fen4();
            let read = Position::from_fen4(&written)
                .unwrap_or_else(|e| panic!("written FEN4 `{written}` refused: {e}"));
            assert_eq!(read.to_fen4(), written);
            assert_eq!(
                read.repetition_key(),
                position.repetition_key(),
                "`{first}` and `{written}`"
            );
        }
        let move_limit = (selector & 1 == 1).then_some(u32::from(selector >> 1));
        let start = Game::from_fen4(first, move_limit).unwrap_or_else(|_| {
            Game::new(parlor_chess4::Options {
                move_limit,
                ..parlor_chess4::Options::default()
            })
        });
        let mut game: AnyGame = Box::new(start);
        play_wires(&mut game, wires, |fen4| {
            Game::from_fen4(fen4, move_limit)
                .ok()
                .map(|g| Box::new(g) as AnyGame)
        });
        // The PGN4 reader never panics on the raw input, and reads the game's own export back to the same game.
        let _ = pgn4::read(text);
        let written = game.export(&ExportInfo::default());
        let read = pgn4::read(&written).unwrap_or_else(|e| panic!("own PGN4 refused: {e}\n{written}"));
        assert_eq!(read.game.history(), game.history(), "{written}");
        assert_eq!(read.game.position_text(), game.position_text(), "{written}");
        assert_eq!(read.game.outcome(), game.outcome(), "{written}");
    });
}
