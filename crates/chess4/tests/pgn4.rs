//! The PGN4 reader: random games written by the export read back to the same game (resignations and timeouts of
//! any seat, move limits, set-up starts), each error is named, and malformed text never panics.
#![allow(clippy::unwrap_used)]

mod common;

use common::Rng;
use parlor_chess4::pgn4::{self, Pgn4Error};
use parlor_chess4::{Game, Options};
use parlor_game::{EndReason, EventError, ExportInfo, GameEvent, MoveErrorKind, Rules, Seat};

fn event(rng: &mut Rng) -> GameEvent {
    let seat = Seat::ALL[rng.below(4)];
    if rng.below(2) == 0 {
        GameEvent::Resign(seat)
    } else {
        GameEvent::Timeout(seat)
    }
}

/// A random game from `seed`: any first seat, sometimes a move limit or a set-up start, short to played out,
/// with resignations and timeouts of random seats (in turn or not) along the way and at the end.
fn random_game(seed: u64) -> Game {
    let mut rng = Rng::new(seed);
    let first = Seat::ALL[rng.below(4)];
    let move_limit = (rng.below(4) == 0).then(|| 1 + rng.below(150) as u32);
    let mut game = Game::new(Options { move_limit, first });
    if rng.below(5) == 0 {
        for _ in 0..rng.below(40) {
            if game.outcome().is_running() {
                let moves = game.position().legal_moves();
                game.play_move(moves[rng.below(moves.len())]);
            }
        }
        game = Game::from_fen4(&game.position_text(), move_limit).unwrap();
    }
    let plies = match rng.below(4) {
        0 => rng.below(8),
        1 => rng.below(60),
        2 => rng.below(300),
        _ => 3000,
    };
    let events = rng.below(3) == 0;
    for _ in 0..plies {
        if !game.outcome().is_running() {
            break;
        }
        if events && rng.below(40) == 0 {
            // A seat already out is refused and nothing changes.
            let _ = game.apply(event(&mut rng));
            continue;
        }
        let moves = game.position().legal_moves();
        game.play_move(moves[rng.below(moves.len())]);
    }
    if rng.below(3) == 0 && game.outcome().is_running() {
        let _ = game.apply(event(&mut rng));
    }
    game
}

fn info(seed: u64) -> ExportInfo {
    ExportInfo {
        event: format!("Cup \"{seed}\" \\ {{not a comment}}"),
        players: ["Ann", "", "Cy [x]", "Di"].map(String::from).to_vec(),
        extra: vec![("Annotator".into(), "Parlor".into())],
        ..ExportInfo::default()
    }
}

#[test]
fn random_games_read_back_to_the_same_game() {
    let (mut named, mut limited, mut by_event, mut running) = (0, 0, 0, 0);
    for seed in 0..300 {
        let game = random_game(seed);
        let info = info(seed);
        let text = game.export(&info);
        let read = pgn4::read(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let back = &read.game;
        assert_eq!(back.history(), game.history(), "seed {seed}\n{text}");
        assert_eq!(back.start_text(), game.start_text(), "seed {seed}");
        assert_eq!(back.position_text(), game.position_text(), "seed {seed}\n{text}");
        assert_eq!(back.outcome(), game.outcome(), "seed {seed}\n{text}");
        assert_eq!(back.options(), game.options(), "seed {seed}");
        assert_eq!(back.export(&info), text, "seed {seed}");
        assert_eq!(read.tag("Event"), Some(info.event.as_str()));
        named += usize::from(text.contains("R {") || text.contains("T {"));
        let reason = game.outcome().reason();
        limited += usize::from(reason == Some(EndReason::MoveLimit));
        by_event += usize::from(matches!(
            reason,
            Some(EndReason::Resignation | EndReason::Timeout)
        ));
        running += usize::from(reason.is_none());
    }
    // Every kind of record is covered.
    assert!(
        named >= 10 && limited >= 10 && by_event >= 10 && running >= 30,
        "named {named}, move limit {limited}, by event {by_event}, running {running}"
    );
}

#[test]
fn resignations_out_of_turn_name_the_seat_and_read_back() {
    let mut game = Game::new(Options::default());
    game.play("h2-h3").unwrap();
    for seat in [Seat::Third, Seat::Fourth, Seat::First] {
        game.apply(GameEvent::Resign(seat)).unwrap();
    }
    let text = game.export(&ExportInfo::default());
    assert!(
        text.ends_with("1. h2-h3 .. R {Yellow} .. R {Green}\n2. R {Red}\n"),
        "{text}"
    );
    let back = pgn4::read(&text).unwrap().game;
    assert_eq!(back.outcome(), game.outcome());
    assert_eq!(back.outcome().winner(), Some(Seat::Second));
    // Without names (another program's text), each R is the seat to move.
    let back = pgn4::read("1. R .. R .. R").unwrap().game;
    assert_eq!(back.outcome().winner(), Some(Seat::Fourth));
    // Other comments are skipped, and a name may be written in any case.
    let back = pgn4::read("1. h2-h3 {good} .. R {blue} {Yellow} .. b7-c7 *").unwrap_err();
    assert!(matches!(back, Pgn4Error::Move { ply: 2, .. }), "{back}");
}

#[test]
fn each_error_names_what_failed() {
    let err = |text: &str| pgn4::read(text).unwrap_err();
    assert_eq!(
        err("[Event \"a\"]\n[Site x]\n\n1. h2-h3"),
        Pgn4Error::Tag { line: 2 }
    );
    assert_eq!(err("[Variant \"Teams\"]\n\n"), Pgn4Error::Variant("Teams".into()));
    assert_eq!(err("[MoveLimit \"ten\"]\n\n"), Pgn4Error::MoveLimit("ten".into()));
    assert!(matches!(err("[StartFen4 \"R-0,0,0,0\"]\n\n"), Pgn4Error::Fen4(_)));
    assert_eq!(
        err("1. h2-h3 .. hello"),
        Pgn4Error::Token {
            token: "hello".into()
        }
    );
    for (text, ply, kind) in [
        ("1. h2-h5", 1, MoveErrorKind::Illegal),
        ("1. h2-h3 .. h3-h4", 2, MoveErrorKind::Illegal),
        (
            "[MoveLimit \"1\"]\n\n1. h2-h3 .. b7-c7",
            2,
            MoveErrorKind::GameOver,
        ),
    ] {
        match err(text) {
            Pgn4Error::Move { ply: p, error, .. } => assert_eq!((p, error.kind), (ply, kind), "{text}"),
            other => panic!("{text}: {other}"),
        }
    }
    assert_eq!(
        err("1. h2-h3 .. R {Green} .. b7-c7 .. R {Green}"),
        Pgn4Error::Event {
            token: "R".into(),
            plies: 2,
            error: EventError::NotPlaying(Seat::Fourth)
        }
    );
    assert_eq!(
        err("1. R .. R .. R\n2. T"),
        Pgn4Error::Event {
            token: "T".into(),
            plies: 0,
            error: EventError::GameOver
        }
    );
    assert_eq!(err("1. h2-h3 {open"), Pgn4Error::Unclosed);
}

/// Characters that matter to the reader, put in place of others.
const FLIPS: &[char] = &[
    '1', '3', '4', '-', 'x', '=', 'Q', 'D', 'N', 'K', 'O', '0', '+', '#', 'h', 'b', 'R', 'T', '{', '}', '(',
    ')', '[', ']', '"', '\\', ' ', '\n', ';', '$', '.', '*', ',', 'é',
];

#[test]
fn truncated_or_altered_exports_never_panic() {
    let mut rng = Rng::new(11);
    let (mut refused, mut total) = (0, 0);
    for seed in 0..30 {
        let text = random_game(seed).export(&info(seed));
        let chars: Vec<char> = text.chars().collect();
        for _ in 0..40 {
            let cut: String = chars[..rng.below(chars.len() + 1)].iter().collect();
            let mut flipped = chars.clone();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(flipped.len());
                flipped[at] = FLIPS[rng.below(FLIPS.len())];
            }
            let flipped: String = flipped.into_iter().collect();
            for text in [&cut, &flipped] {
                total += 1;
                refused += usize::from(pgn4::read(text).is_err());
            }
        }
    }
    // The alterations do reach the error paths.
    assert!(refused > total / 10, "{refused} of {total} refused");
}
