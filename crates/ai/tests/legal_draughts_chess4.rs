//! Every move the draughts and four-player engines return is legal: thousands of positions from varied games,
//! checked by the rules crates (`Rules::play` accepts the wire notation).
#![allow(clippy::unwrap_used)]

use parlor_ai::rng::Rng;
use parlor_ai::{Engine, Level, Limit, Request};
use parlor_game::{DraughtsVariant, GameKind, Rules};

/// Plays `games` games of `kind`, asking the engine at a random level and shallow depth in every position and
/// checking its answer; the game follows the engine two times in three and a random move otherwise.
fn check(
    kind: GameKind,
    games: usize,
    max_plies: usize,
    seed: u64,
    new_game: impl Fn() -> Box<dyn Rules>,
) -> usize {
    let mut rng = Rng::new(seed);
    let mut engine = Engine::new();
    let mut checked = 0;
    for game_no in 0..games {
        let mut game = new_game();
        let mut moves: Vec<String> = Vec::new();
        while game.outcome().is_running() && moves.len() < max_plies {
            let level = Level::NAMED[(game_no + moves.len()) % 3];
            let depth = 1 + (rng.below(3) as u32);
            let mut req = Request::new(kind, level, Limit::Depth(depth));
            // Sometimes the current position as the start and no moves (how a four-player game with a
            // resignation is sent).
            if rng.below(4) == 0 {
                req.start = game.position_text();
            } else {
                req.moves = moves.clone();
            }
            req.seed = Some(rng.next_u64());
            let choice = engine.choose(&req).unwrap();
            let mut probe = game.clone_box();
            probe
                .play(&choice.wire)
                .unwrap_or_else(|e| panic!("{kind}: {} after {moves:?}: {e}", choice.wire));
            checked += 1;
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
    checked
}

#[test]
fn draughts_engines_return_legal_moves_in_thousands_of_positions() {
    let mut checked = 0;
    for (i, v) in DraughtsVariant::ALL.into_iter().enumerate() {
        checked += check(GameKind::Draughts(v), 8, 160, 2026 + i as u64, || {
            Box::new(parlor_draughts::Game::new(v, parlor_draughts::Options::default()))
        });
    }
    assert!(checked >= 2000, "{checked}");
}

#[test]
fn chess4_engines_return_legal_moves_in_a_thousand_positions() {
    let checked = check(GameKind::Chess4, 5, 240, 2027, || {
        Box::new(parlor_chess4::Game::new(parlor_chess4::Options::default()))
    });
    assert!(checked >= 1000, "{checked}");
}
