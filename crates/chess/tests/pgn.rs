//! PGN export: the tags other tools expect, and a read-back through our own reader that replays every move.
#![allow(clippy::unwrap_used)]

use parlor_chess::{Game, pgn};
use parlor_game::{EndReason, ExportInfo, GameEvent, Outcome, Rules, Seat};

fn info() -> ExportInfo {
    ExportInfo {
        event: "Club night".into(),
        site: "http://127.0.0.1:8080/t/ABC123".into(),
        date: "2026.11.30".into(),
        players: vec!["Anika \"the rook\"".into(), "রাজা".into()],
        time_control: "900+0".into(),
        extra: vec![],
        comments: vec![],
    }
}

#[test]
fn export_has_the_seven_tag_roster_time_control_and_termination() {
    let mut g = Game::new();
    for m in ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"] {
        g.play(m).unwrap();
    }
    let text = g.export(&info());
    for tag in [
        "[Event \"Club night\"]",
        "[Site \"http://127.0.0.1:8080/t/ABC123\"]",
        "[Date \"2026.11.30\"]",
        "[Round \"-\"]",
        "[White \"Anika \\\"the rook\\\"\"]",
        "[Black \"রাজা\"]",
        "[Result \"1-0\"]",
        "[TimeControl \"900+0\"]",
        "[Termination \"normal\"]",
    ] {
        assert!(text.contains(tag), "missing {tag} in\n{text}");
    }
    assert!(
        text.contains("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"),
        "{text}"
    );
    assert!(!text.contains("[FEN"));
    let back = pgn::read(&text).unwrap();
    assert_eq!(back.tag("White"), Some("Anika \"the rook\""));
    assert_eq!(back.game.history(), g.history());
    assert_eq!(back.game.outcome(), g.outcome());
}

#[test]
fn export_of_a_set_up_position_carries_its_fen_and_black_first() {
    let fen = "4k3/P7/8/8/8/8/8/4K3 b - - 3 40";
    let mut g = Game::from_fen(fen).unwrap();
    for m in ["e8d7", "a7a8q", "d7d6"] {
        g.play(m).unwrap();
    }
    g.apply(GameEvent::Timeout(Seat::Second)).unwrap();
    let text = g.export(&info());
    assert!(
        text.contains("[SetUp \"1\"]") && text.contains(&format!("[FEN \"{fen}\"]")),
        "{text}"
    );
    assert!(text.contains("40... Kd7 41. a8=Q Kd6 1-0"), "{text}");
    assert!(text.contains("[Termination \"time forfeit\"]"));
    let back = pgn::read(&text).unwrap();
    assert_eq!(back.game.history(), g.history());
    assert_eq!(back.game.outcome(), g.outcome());
}

#[test]
fn a_long_game_wraps_lines_and_reads_back_with_comments_and_variations() {
    let mut g = Game::new();
    // Knight shuffles until threefold repetition.
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"] {
        g.play(m).unwrap();
    }
    assert_eq!(*g.outcome(), Outcome::Drawn(EndReason::Threefold));
    let text = g.export(&ExportInfo::default());
    assert!(text.lines().all(|l| l.chars().count() <= 80));
    assert!(text.contains("[Result \"1/2-1/2\"]"));
    let annotated = text.replace("2. Ng1", "{a comment} 2. Ng1 $1 (2. e4 e5)");
    let back = pgn::read(&annotated).unwrap();
    assert_eq!(back.game.outcome(), g.outcome());
}

#[test]
fn a_running_game_is_unterminated() {
    let mut g = Game::new();
    g.play("e2e4").unwrap();
    let text = g.export(&ExportInfo::default());
    assert!(text.contains("[Result \"*\"]") && text.contains("[Termination \"unterminated\"]"));
    assert!(text.trim_end().ends_with("1. e4 *"));
}

#[test]
fn resignation_and_agreement_read_back() {
    let mut g = Game::new();
    g.play("e2e4").unwrap();
    g.apply(GameEvent::Resign(Seat::Second)).unwrap();
    let back = pgn::read(&g.export(&ExportInfo::default())).unwrap();
    assert_eq!(back.game.outcome().reason(), Some(EndReason::Resignation));
    let mut g = Game::new();
    g.apply(GameEvent::DrawAgreed).unwrap();
    let back = pgn::read(&g.export(&ExportInfo::default())).unwrap();
    assert_eq!(*back.game.outcome(), Outcome::Drawn(EndReason::Agreement));
}

#[test]
fn bad_pgn_gets_typed_errors() {
    assert!(matches!(
        pgn::read("[Event \"x\"\n\n1. e4"),
        Err(pgn::PgnError::Tag { line: 1 })
    ));
    assert!(matches!(
        pgn::read("1. e4 e5 2. Ke3"),
        Err(pgn::PgnError::Move { ply: 3, .. })
    ));
    assert!(matches!(pgn::read("1. e4 {open"), Err(pgn::PgnError::Unclosed)));
    assert!(matches!(
        pgn::read("[FEN \"nonsense\"]\n\n*"),
        Err(pgn::PgnError::Fen(_))
    ));
}
