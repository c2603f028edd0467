//! A move or event taken back through a snapshot leaves the game exactly as it was (the server does this when the
//! store refuses a move), also when the event eliminates a seat.

use parlor_chess4::{Game, Options};
use parlor_game::rules::check_snapshots;

#[test]
fn snapshots_take_moves_and_resignations_back_exactly() {
    for seed in 1..=12 {
        check_snapshots(&mut Game::new(Options::default()), 400, seed)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}
