//! A move or event taken back through a snapshot leaves the game exactly as it was (the server does this when the
//! store refuses a move).

use parlor_draughts::{DraughtsVariant, Game, Options};
use parlor_game::rules::check_snapshots;

#[test]
fn snapshots_take_moves_and_resignations_back_exactly() {
    for variant in [
        DraughtsVariant::English,
        DraughtsVariant::International,
        DraughtsVariant::Russian,
        DraughtsVariant::Pool,
    ] {
        for seed in 1..=8 {
            check_snapshots(&mut Game::new(variant, Options::default()), 300, seed)
                .unwrap_or_else(|e| panic!("{variant:?}, seed {seed}: {e}"));
        }
    }
}
