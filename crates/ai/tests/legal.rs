//! Every move the engines return is legal: thousands of positions from varied games, checked by the rules crate.
#![allow(clippy::unwrap_used)]

use parlor_ai::rng::Rng;
use parlor_ai::{Engine, Level, Limit, Request};
use parlor_chess::Game;
use parlor_game::{GameKind, Rules};

#[test]
fn chess_engines_return_legal_moves_in_thousands_of_positions() {
    let mut rng = Rng::new(2026);
    let mut engine = Engine::new();
    let mut checked = 0;
    for game_no in 0..24 {
        let mut game = Game::new();
        let mut moves: Vec<String> = Vec::new();
        while game.outcome().is_running() && moves.len() < 200 {
            let level = Level::NAMED[(game_no + moves.len()) % 3];
            let depth = 1 + (rng.below(3) as u32);
            let mut req = Request::new(GameKind::Chess, level, Limit::Depth(depth));
            req.moves = moves.clone();
            req.seed = Some(rng.next_u64());
            let choice = engine.choose(&req).unwrap();
            let mut probe = game.clone();
            probe
                .play(&choice.wire)
                .unwrap_or_else(|e| panic!("{} after {moves:?}: {e}", choice.wire));
            checked += 1;
            // Mostly follow the engine, sometimes a random move, so games go everywhere.
            let wire = if rng.below(3) == 0 {
                let legal = game.legal_moves();
                legal[rng.below(legal.len() as u64) as usize].wire.clone()
            } else {
                choice.wire
            };
            game.play(&wire).unwrap();
            moves.push(wire);
        }
    }
    assert!(checked >= 2000, "{checked}");
}
