//! Fuzz target: draughts PDN FEN and move notation (PDN `32-28`, `23x14x5`, the wire the server takes) in every
//! variant, and the PDN reader. The first byte picks the variant and compulsory capture; what is written (FEN,
//! moves, the PDN export) must read back the same.

use parlor_draughts::{DraughtsVariant, Game, Options, PdnMove, Position, pdn};
use parlor_fuzz::{play_wires, text};
use parlor_game::{AnyGame, ExportInfo, Rules};

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Some((selector, text)) = text(data) else {
            return;
        };
        let variant = DraughtsVariant::ALL[usize::from(selector) % DraughtsVariant::ALL.len()];
        let options = Options {
            mandatory_capture: selector & 0x80 == 0,
        };
        let (first, wires) = text.split_once('\n').unwrap_or((text, ""));
        if let Ok(position) = Position::from_fen(variant, first) {
            let written = position.to_fen();
            let read = Position::from_fen(variant, &written)
                .unwrap_or_else(|e| panic!("written PDN FEN `{written}` refused: {e}"));
            assert_eq!(read.to_fen(), written);
            assert_eq!(read.hash(), position.hash(), "`{first}` and `{written}`");
        }
        for word in wires.split_whitespace().take(parlor_fuzz::MAX_PLIES) {
            if let Ok(pdn) = word.parse::<PdnMove>() {
                let _ = pdn.to_move(&Position::start(variant));
            }
        }
        let start = Game::from_fen(variant, options, first).unwrap_or_else(|_| Game::new(variant, options));
        let mut game: AnyGame = Box::new(start);
        play_wires(&mut game, wires, |fen| {
            Game::from_fen(variant, options, fen)
                .ok()
                .map(|g| Box::new(g) as AnyGame)
        });
        // The PDN reader never panics on the raw input, and reads the game's own export back to the same game.
        let _ = pdn::read(variant, text);
        let written = game.export(&ExportInfo::default());
        let read = pdn::read(variant, &written).unwrap_or_else(|e| panic!("own PDN refused: {e}\n{written}"));
        assert_eq!(read.game.history(), game.history(), "{written}");
        assert_eq!(read.game.position_text(), game.position_text(), "{written}");
        assert_eq!(read.game.outcome(), game.outcome(), "{written}");
    });
}
