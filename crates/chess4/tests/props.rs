//! Property tests: random playouts end with an outcome and consistent points, FEN4 round-trips, every listed move
//! plays, and no move leaves the mover's king attacked.
#![allow(clippy::unwrap_used)]

mod common;

use common::Rng;
use parlor_chess4::{Game, Options, Position, Role, Square};
use parlor_game::{Outcome, Rules, Seat};
use proptest::prelude::*;

/// Invariants of any position reached in play.
fn check_position(pos: &Position) {
    let text = pos.to_fen4();
    let back = Position::from_fen4(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(&back, pos, "FEN4 round trip of {text}");
    assert_eq!(back.to_fen4(), text);
    assert!(pos.is_live(pos.turn()) || pos.is_over());
    for seat in Seat::ALL {
        let pieces: Vec<_> = Square::all()
            .filter_map(|sq| pos.piece_at(sq))
            .filter(|p| p.owner == Some(seat))
            .collect();
        if pos.is_live(seat) {
            assert_eq!(
                pieces.iter().filter(|p| p.role == Role::King).count(),
                1,
                "{text}"
            );
        } else {
            assert!(pieces.is_empty(), "an eliminated army is grey: {text}");
        }
        assert!(pos.points()[seat] >= 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_playouts_end_with_an_outcome_and_consistent_points(seed in any::<u64>(), first in 0usize..4) {
        let mut rng = Rng::new(seed);
        let mut game = Game::new(Options { move_limit: None, first: Seat::ALL[first] });
        let mut last_points = game.points();
        let mut plies = 0;
        while game.outcome().is_running() {
            let moves = game.legal_moves();
            prop_assert!(!moves.is_empty(), "a running game has moves: {}", game.position_text());
            let mover = game.turn().unwrap();
            let m = &moves[rng.below(moves.len())];
            let played = game.play(&m.wire).unwrap();
            prop_assert_eq!(played.seat, mover);
            prop_assert_eq!(&played.wire, &m.wire);
            // Points never go down, and only the mover and stalemated seats gain (draw points come at the end).
            let points = game.points();
            for s in Seat::ALL {
                prop_assert!(points[s] >= last_points[s]);
            }
            last_points = points;
            // No move leaves the mover's own king attacked by a live opponent.
            prop_assert!(!game.position().is_check(mover) || !game.position().is_live(mover));
            plies += 1;
            prop_assert!(plies < 20_000, "the draw rules end every game");
        }
        let Outcome::Decided(d) = *game.outcome() else { panic!("four-player games end decided") };
        let points = game.points();
        for a in Seat::ALL {
            for b in Seat::ALL {
                if points[a] > points[b] {
                    prop_assert!(d.places[a] < d.places[b], "places follow points");
                }
            }
        }
        prop_assert!(d.places.iter().any(|(_, p)| *p == 1));
        check_position(game.position());
    }

    #[test]
    fn fen4_round_trips_and_every_listed_move_plays(seed in any::<u64>(), plies in 0usize..160) {
        let mut rng = Rng::new(seed);
        let pos = common::playout(Position::start_with_first(Seat::ALL[(seed % 4) as usize]), plies, &mut rng);
        check_position(&pos);
        let game = Game::from_fen4(&pos.to_fen4(), None).unwrap();
        for view in game.legal_moves() {
            let mut copy = game.clone();
            let played = copy.play(&view.wire).unwrap_or_else(|e| panic!("{}: {e}", view.wire));
            prop_assert_eq!(&played.wire, &view.wire);
            check_position(copy.position());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_fen4_reader_never_panics_on_any_text(text in "\\PC{0,300}") {
        let _ = Position::from_fen4(&text);
    }

    #[test]
    fn the_fen4_reader_never_panics_on_damaged_fen4(cut in 0usize..400, insert in "[-,/0-9a-zA-Z{}':()]{0,6}") {
        let text = Position::start().to_fen4();
        let at = (0..=cut.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        let damaged = format!("{}{}{}", &text[..at], insert, &text[(at + 1).min(text.len())..]);
        if let Ok(pos) = Position::from_fen4(&damaged) {
            prop_assert_eq!(Position::from_fen4(&pos.to_fen4()).ok(), Some(pos));
        }
    }

    #[test]
    fn any_wire_text_is_played_or_refused_without_change(wire in "\\PC{0,12}|[KQRBNDP]?[a-n][0-9]{1,2}[-x][a-n][0-9]{1,2}(=[QD])?") {
        let mut game = Game::new(Options::default());
        let before = game.position_text();
        if game.play(&wire).is_err() {
            prop_assert_eq!(game.position_text(), before);
            prop_assert!(game.history().is_empty());
        }
    }
}
