//! One test per FIDE rule (Laws articles 3, 5, 6.9 and 9), each from a position where the rule bites.
#![allow(clippy::unwrap_used)]

use parlor_chess::Game;
use parlor_game::{EndReason, GameEvent, MoveErrorKind, Outcome, Rules, Seat};

fn game(fen: &str) -> Game {
    Game::from_fen(fen).unwrap()
}

fn play_all(game: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        game.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn listed(game: &Game, wire: &str) -> bool {
    game.legal_moves().iter().any(|m| m.wire == wire)
}

/// Asserts the move is refused as illegal and the game is unchanged.
fn refused(game: &mut Game, wire: &str) -> String {
    let before = game.position_text();
    let err = game.play(wire).unwrap_err();
    assert_eq!(err.kind, MoveErrorKind::Illegal, "{wire}: {err}");
    assert_eq!(game.position_text(), before);
    assert!(!listed(game, wire));
    err.reason
}

const CASTLE_FEN: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

#[test]
fn castling_both_sides_when_allowed() {
    let mut g = game(CASTLE_FEN);
    assert!(listed(&g, "e1g1") && listed(&g, "e1c1"));
    g.play("e1g1").unwrap();
    assert!(
        g.position_text()
            .starts_with("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq")
    );
    g.play("e8c8").unwrap();
    assert!(g.position_text().starts_with("2kr3r/"));
    assert_eq!(g.history()[1].display, "O-O-O");
}

#[test]
fn castling_refused_after_the_king_moved() {
    let mut g = game(CASTLE_FEN);
    play_all(&mut g, "e1f1 e8f8 f1e1 f8e8");
    refused(&mut g, "e1g1");
    refused(&mut g, "e1c1");
}

#[test]
fn castling_refused_after_that_rook_moved() {
    let mut g = game(CASTLE_FEN);
    play_all(&mut g, "h1g1 a8b8 g1h1 b8a8");
    refused(&mut g, "e1g1");
    assert!(listed(&g, "e1c1"));
}

#[test]
fn castling_refused_with_a_piece_between() {
    let mut g = game("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/RN2K1NR w KQkq - 0 1");
    refused(&mut g, "e1g1");
    refused(&mut g, "e1c1");
}

#[test]
fn castling_refused_while_in_check() {
    let mut g = game("r3k2r/pppp1ppp/8/8/8/8/PPP1qPPP/R3K2R w KQkq - 0 1");
    let reason = refused(&mut g, "e1g1");
    assert!(reason.contains("check"), "{reason}");
}

#[test]
fn castling_refused_through_an_attacked_square() {
    // The black rook on f8 attacks f1, which the king would cross.
    let mut g = game("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    refused(&mut g, "e1g1");
    assert!(listed(&g, "e1c1"));
}

#[test]
fn castling_refused_onto_an_attacked_square() {
    // The black rook on g8 attacks g1, where the king would land.
    let mut g = game("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    refused(&mut g, "e1g1");
}

#[test]
fn castling_queenside_allowed_when_only_b1_is_attacked() {
    // b1 is crossed by the rook, not the king: castling stays legal.
    let mut g = game("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    g.play("e1c1").unwrap();
}

#[test]
fn en_passant_right_after_the_double_step() {
    let mut g = game("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    g.play("d7d5").unwrap();
    let view = g.legal_moves().into_iter().find(|m| m.wire == "e5d6").unwrap();
    assert_eq!(view.captures, vec![parlor_game::Coord::new(3, 4)]);
    g.play("e5d6").unwrap();
    assert!(g.position_text().starts_with("4k3/8/3P4/8/8/8/8/4K3 b"));
    assert_eq!(g.history()[1].display, "exd6");
}

#[test]
fn en_passant_refused_one_move_late() {
    let mut g = game("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    play_all(&mut g, "d7d5 e1e2 e8e7");
    refused(&mut g, "e5d6");
}

#[test]
fn promotion_to_each_piece_by_choice() {
    for (letter, fen) in [("q", "Q"), ("r", "R"), ("b", "B"), ("n", "N")] {
        let mut g = game("7k/P7/8/8/8/8/8/K7 w - - 0 1");
        g.play(&format!("a7a8{letter}")).unwrap();
        assert!(g.position_text().starts_with(&format!("{fen}6k/")), "{letter}");
    }
}

#[test]
fn promotion_without_a_choice_is_refused() {
    let mut g = game("7k/P7/8/8/8/8/8/K7 w - - 0 1");
    let reason = refused(&mut g, "a7a8");
    assert!(reason.contains("a7a8q"), "{reason}");
    refused(&mut g, "a7a8k");
    let promotions: Vec<_> = g.legal_moves().into_iter().filter_map(|m| m.promotion).collect();
    assert_eq!(promotions.len(), 4);
}

#[test]
fn check_must_be_answered() {
    let mut g = game("4k3/8/8/8/8/8/3PP3/r3K3 w - - 0 1");
    let reason = refused(&mut g, "d2d3");
    assert!(reason.contains("check"), "{reason}");
    assert_eq!(g.checked_kings(), vec![parlor_game::Coord::new(4, 0)]);
    assert!(g.legal_moves().iter().all(|m| m.wire.starts_with("e1")));
}

#[test]
fn checkmate_wins() {
    let mut g = Game::new();
    play_all(&mut g, "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(g.outcome().winner(), Some(Seat::Second));
    assert_eq!(g.outcome().reason(), Some(EndReason::Checkmate));
    assert_eq!(g.history()[3].display, "Qh4#");
    assert_eq!(g.turn(), None);
    assert_eq!(g.play("a2a3").unwrap_err().kind, MoveErrorKind::GameOver);
}

#[test]
fn stalemate_draws() {
    let mut g = game("7k/8/6Q1/8/8/8/8/K7 w - - 0 1");
    g.play("g6f7").unwrap();
    assert_eq!(*g.outcome(), Outcome::Drawn(EndReason::Stalemate));
}

#[test]
fn threefold_repetition_draws() {
    let mut g = Game::new();
    play_all(&mut g, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    assert!(g.outcome().is_running());
    g.play("f6g8").unwrap();
    assert_eq!(*g.outcome(), Outcome::Drawn(EndReason::Threefold));
}

#[test]
fn threefold_needs_the_same_castling_rights() {
    // The first occurrence still had castling rights; after the rook's round trip they are gone, so the
    // same placement counts afresh.
    let mut g = game("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
    play_all(&mut g, "h1h2 a8a7 h2h1 a7a8 e1f1 e8f8 f1e1 f8e8 e1f1 e8f8 f1e1");
    assert!(g.outcome().is_running());
    g.play("f8e8").unwrap();
    assert_eq!(*g.outcome(), Outcome::Drawn(EndReason::Threefold));
}

#[test]
fn threefold_needs_the_same_en_passant_right() {
    // After d7d5 Black's pawn may be taken en passant; that position cannot recur, so two more returns to the same
    // placement make only two occurrences of it.
    let mut g = game("4k3/3p4/8/4P3/8/8/8/4K2N b - - 0 1");
    play_all(&mut g, "d7d5 h1g3 e8f7 g3h1 f7e8 h1g3 e8f7 g3h1");
    g.play("f7e8").unwrap();
    // The third time this placement stands with White to move, but the first time White could take en passant.
    assert!(g.outcome().is_running());
    // Ke8/Ng3 with Black to move stood after moves 2 and 6 with the same rights: this is its third time.
    g.play("h1g3").unwrap();
    assert_eq!(*g.outcome(), Outcome::Drawn(EndReason::Threefold));
}

#[test]
fn fifty_move_rule_draws() {
    let mut g = game("4k3/8/8/8/8/8/R7/4K3 w - - 99 80");
    g.play("a2b2").unwrap();
    assert_eq!(*g.outcome(), Outcome::Drawn(EndReason::FiftyMove));
}

#[test]
fn fifty_move_rule_yields_to_a_mate_on_the_last_move() {
    let mut g = game("6k1/8/6K1/8/8/8/8/R7 w - - 99 80");
    g.play("a1a8").unwrap();
    assert_eq!(g.outcome().reason(), Some(EndReason::Checkmate));
}

#[test]
fn fifty_move_count_resets_on_a_capture() {
    let mut g = game("4k3/8/8/8/8/8/R1p5/4K3 w - - 99 80");
    g.play("a2c2").unwrap();
    assert!(g.outcome().is_running());
}

#[test]
fn insufficient_material_draws() {
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KB2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
    ] {
        assert_eq!(
            *game(fen).outcome(),
            Outcome::Drawn(EndReason::InsufficientMaterial),
            "{fen}"
        );
    }
    // Bishops on opposite colours can still mate (with help): play goes on.
    assert!(game("4kb2/8/8/8/8/8/8/3BK3 w - - 0 1").outcome().is_running());
}

#[test]
fn insufficient_material_after_a_capture_ends_the_game() {
    let mut g = game("4k3/8/8/8/8/8/3r4/3NK3 w - - 0 1");
    g.play("e1d2").unwrap();
    assert_eq!(*g.outcome(), Outcome::Drawn(EndReason::InsufficientMaterial));
}

#[test]
fn resign_loses() {
    let mut g = Game::new();
    g.apply(GameEvent::Resign(Seat::First)).unwrap();
    assert_eq!(g.outcome().winner(), Some(Seat::Second));
    assert_eq!(g.outcome().reason(), Some(EndReason::Resignation));
    assert!(g.apply(GameEvent::Resign(Seat::Second)).is_err());
}

#[test]
fn draw_by_agreement() {
    let mut g = Game::new();
    g.apply(GameEvent::DrawAgreed).unwrap();
    assert_eq!(*g.outcome(), Outcome::Drawn(EndReason::Agreement));
}

#[test]
fn timeout_loses() {
    let mut g = Game::new();
    g.apply(GameEvent::Timeout(Seat::Second)).unwrap();
    assert_eq!(g.outcome().winner(), Some(Seat::First));
    assert_eq!(g.outcome().reason(), Some(EndReason::Timeout));
}

#[test]
fn timeout_against_a_lone_king_is_a_draw() {
    // White has a queen; Black has only a king and cannot mate, so White's flag fall is a draw (FIDE 6.9).
    let mut g = game("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    g.apply(GameEvent::Timeout(Seat::First)).unwrap();
    assert_eq!(
        *g.outcome(),
        Outcome::Drawn(EndReason::TimeoutVsInsufficientMaterial)
    );
    // The other way round the queen side wins.
    let mut g = game("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    g.apply(GameEvent::Timeout(Seat::Second)).unwrap();
    assert_eq!(g.outcome().winner(), Some(Seat::First));
}

#[test]
fn timeout_against_a_knight_still_loses() {
    // King and knight against king and rook cannot force mate, but a mate exists (the rook blocks its own king),
    // so the flag fall loses (FIDE 6.9).
    let mut g = game("4k3/8/8/8/8/8/8/3RK1n1 w - - 0 1");
    g.apply(GameEvent::Timeout(Seat::First)).unwrap();
    assert_eq!(g.outcome().winner(), Some(Seat::Second));
}

#[test]
fn abandoning_loses() {
    let mut g = Game::new();
    g.apply(GameEvent::Abandon(Seat::First)).unwrap();
    assert_eq!(g.outcome().reason(), Some(EndReason::Abandoned));
    assert_eq!(g.outcome().winner(), Some(Seat::Second));
}

#[test]
fn bad_moves_are_refused_with_a_reason() {
    let mut g = Game::new();
    let before = g.position_text();
    let e = g.play("hello").unwrap_err();
    assert_eq!(e.kind, MoveErrorKind::Malformed);
    assert!(refused(&mut g, "e3e4").contains("no piece on e3"));
    assert!(refused(&mut g, "e7e5").contains("Black's"));
    assert!(refused(&mut g, "e2e5").contains("not a legal move"));
    assert!(refused(&mut g, "e1h1").contains("not a legal move"));
    assert_eq!(g.position_text(), before);
    assert!(g.history().is_empty());
    assert_eq!(
        g.apply(GameEvent::Resign(Seat::Third)),
        Err(parlor_game::EventError::NotPlaying(Seat::Third))
    );
}
