//! Fuzz target: draughts PDN FEN and move notation (PDN `32-28`, `23x14x5`, the wire the server takes) in every
//! variant. The first byte picks the variant and compulsory capture; what is written must read back the same.

use parlor_draughts::{DraughtsVariant, Game, Options, PdnMove, Position};
use parlor_fuzz::{play_wires, text};
use parlor_game::AnyGame;

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
    });
}
