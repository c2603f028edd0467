//! Cross-check of the move generator and the turn rules against the simple reference in `common`.
#![allow(clippy::unwrap_used)]

mod common;

use parlor_chess4::Position;

#[test]
fn generator_agrees_with_the_simple_reference_on_200_playout_positions() {
    // Depth 1 on all 200 and depth 2 on every eighth keep the debug run short; depth 3 on all is ignored below.
    for (i, pos) in common::playout_positions(200).iter().enumerate() {
        common::cross_check(pos, if i % 8 == 0 { 2 } else { 1 });
    }
}

#[test]
fn the_playout_positions_reach_the_rules_that_matter() {
    let positions = common::playout_positions(200);
    let with = |f: &dyn Fn(&Position) -> bool| positions.iter().filter(|p| f(p)).count();
    let seats = parlor_game::Seat::ALL;
    assert!(with(&|p| p.live_count() < 4) >= 10, "eliminations");
    assert!(
        with(&|p| seats.iter().any(|&s| p.en_passant(s).is_some())) >= 10,
        "en-passant windows"
    );
    assert!(with(&|p| seats.iter().any(|&s| p.is_check(s))) >= 5, "checks");
    let promoted = |p: &Position| {
        parlor_chess4::Square::all().any(|sq| {
            p.piece_at(sq)
                .is_some_and(|x| x.role == parlor_chess4::Role::PromotedQueen)
        })
    };
    assert!(with(&promoted) >= 5, "promoted queens");
}

#[test]
fn generator_agrees_with_the_simple_reference_from_the_start_to_depth_2() {
    assert_eq!(common::cross_check(&Position::start(), 2), 395);
}

/// The full depth-3 cross-check (run in release: `cargo test --release -p parlor-chess4 -- --ignored`).
#[test]
#[ignore]
fn generator_agrees_with_the_simple_reference_on_200_playout_positions_to_depth_3() {
    for pos in common::playout_positions(200) {
        common::cross_check(&pos, 3);
    }
}
