//! Property tests over random playouts from the start: every listed move plays, every unlisted UCI string is
//! refused with the game unchanged, and FEN written then read gives the same position.
#![allow(clippy::unwrap_used)]

use parlor_chess::{Game, Position};
use parlor_game::{Position as _, Rules};
use proptest::prelude::*;

const FILES: &[u8] = b"abcdefgh";

fn uci_from(seed: u32) -> String {
    let sq = |n: u32| format!("{}{}", FILES[(n % 8) as usize] as char, (n / 8) % 8 + 1);
    let promo = ["", "", "", "q", "r", "b", "n", "k"][(seed >> 12) as usize % 8];
    format!("{}{}{promo}", sq(seed), sq(seed >> 6))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_keep_the_rules_consistent(choices in proptest::collection::vec(any::<u32>(), 1..160)) {
        let mut game = Game::new();
        for choice in choices {
            if !game.outcome().is_running() {
                prop_assert!(game.legal_moves().is_empty());
                prop_assert!(game.turn().is_none());
                break;
            }
            let listed = game.legal_moves();
            prop_assert!(!listed.is_empty());
            for m in &listed {
                let mut copy = game.clone();
                prop_assert!(copy.play(&m.wire).is_ok(), "{} refused in {}", m.wire, game.position_text());
            }
            for k in 0..8u32 {
                let wire = uci_from(choice.rotate_left(k * 4));
                if listed.iter().all(|m| m.wire != wire) {
                    let before = game.position_text();
                    prop_assert!(game.play(&wire).is_err(), "{} accepted in {}", wire, before);
                    prop_assert_eq!(game.position_text(), before);
                }
            }
            let fen = game.position_text();
            let back = Position::from_fen(&fen).unwrap();
            prop_assert_eq!(back.to_fen(), fen.clone());
            prop_assert_eq!(back.repetition_key(), game.position().repetition_key());
            let m = &listed[choice as usize % listed.len()];
            game.play(&m.wire).unwrap();
        }
    }
}
