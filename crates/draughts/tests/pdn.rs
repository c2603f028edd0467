//! The PDN reader: random games written by the export read back to the same game, each error is named, and
//! malformed text (truncated or with characters changed) never panics.
#![allow(clippy::unwrap_used)]

use parlor_draughts::pdn::{self, PdnError};
use parlor_draughts::{DraughtsVariant, FenError, Game, Options};
use parlor_game::{ExportInfo, GameEvent, MoveErrorKind, Rules, Seat};

use DraughtsVariant::{English, International, Russian};

/// A small deterministic generator (xorshift64*), so a failing game replays from its seed.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

/// Plays up to `plies` random legal moves (fewer if the game ends).
fn play_random(game: &mut Game, plies: usize, rng: &mut Rng) {
    for _ in 0..plies {
        if !game.outcome().is_running() {
            break;
        }
        let legal = game.position().legal_moves();
        let m = legal[rng.below(legal.len())];
        game.play_move(m).unwrap();
    }
}

/// A random game from `seed`: any variant, capturing sometimes optional, sometimes from a set-up position,
/// short to played out, ended by the moves, by an event or not at all.
fn random_game(seed: u64) -> Game {
    let mut rng = Rng::new(seed);
    let variant = DraughtsVariant::ALL[rng.below(4)];
    let options = Options {
        mandatory_capture: rng.below(4) != 0,
    };
    let mut game = Game::new(variant, options);
    if rng.below(4) == 0 {
        play_random(&mut game, 1 + rng.below(30), &mut rng);
        game = Game::from_fen(variant, options, &game.position_text()).unwrap();
    }
    let plies = match rng.below(4) {
        0 => rng.below(6),
        1 => rng.below(40),
        2 => rng.below(150),
        _ => 5000,
    };
    play_random(&mut game, plies, &mut rng);
    let seat = Seat::ALL[rng.below(2)];
    let event = match rng.below(6) {
        0 => Some(GameEvent::Resign(seat)),
        1 => Some(GameEvent::Timeout(seat)),
        2 => Some(GameEvent::Abandon(seat)),
        3 => Some(GameEvent::DrawAgreed),
        _ => None,
    };
    if let Some(event) = event
        && game.outcome().is_running()
    {
        game.apply(event).unwrap();
    }
    game
}

fn info(seed: u64) -> ExportInfo {
    ExportInfo {
        event: format!("Club \"night\" {seed} \\ {{no comment}}"),
        players: vec!["Ann [1]".into(), String::new()],
        time_control: if seed.is_multiple_of(2) {
            "300+5".into()
        } else {
            String::new()
        },
        extra: vec![("Annotator".into(), "Parlor".into())],
        ..ExportInfo::default()
    }
}

#[test]
fn random_games_read_back_to_the_same_game() {
    let mut ended = [0usize; 3];
    for seed in 0..300 {
        let game = random_game(seed);
        let info = info(seed);
        let text = game.export(&info);
        let read = pdn::read(game.variant(), &text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let back = &read.game;
        assert_eq!(back.history(), game.history(), "seed {seed}\n{text}");
        assert_eq!(back.moves(), game.moves(), "seed {seed}");
        assert_eq!(back.start_text(), game.start_text(), "seed {seed}");
        assert_eq!(back.position(), game.position(), "seed {seed}");
        assert_eq!(back.options(), game.options(), "seed {seed}");
        assert_eq!(back.outcome(), game.outcome(), "seed {seed}\n{text}");
        assert_eq!(back.export(&info), text, "seed {seed}");
        assert_eq!(read.tag("Event"), Some(info.event.as_str()));
        assert_eq!(read.tag("Annotator"), Some("Parlor"));
        let running = game.outcome().is_running();
        let by_event = game
            .outcome()
            .reason()
            .is_some_and(|r| matches!(r.name(), "resignation" | "timeout" | "abandoned" | "agreement"));
        ended[usize::from(!running) + usize::from(by_event)] += 1;
    }
    // Running, ended by the moves, ended by an event: each kind is covered.
    assert!(ended.iter().all(|&n| n >= 30), "{ended:?}");
}

#[test]
fn reading_is_lenient_about_layout_and_reads_another_programs_spelling() {
    let text = "\u{feff}[GameType \"21\"]\n[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n\n\
                1.11-15 {opening} 23-19 $2 (2. 9-13) 2. 8-11! 22-17 ; rest of line\n 1-0\n";
    let read = pdn::read(English, text).unwrap();
    assert_eq!(read.game.history().len(), 4);
    let outcome = read.game.outcome();
    assert_eq!(outcome.winner(), Some(Seat::First));
    assert_eq!(outcome.reason().map(|r| r.name()), Some("timeout"));
    // Without a GameType tag the variant is taken as given; a Russian capture may use `:`.
    let read = pdn::read(Russian, "[FEN \"W:W22:B18,1\"]\n\n1. 22:15 *").unwrap();
    assert_eq!(read.game.history()[0].wire, "22x15");
    // An International draw is 1-1; a result token alone is applied when there is no Result tag.
    let read = pdn::read(International, "1. 32-28 1-1").unwrap();
    assert_eq!(read.game.outcome().reason().map(|r| r.name()), Some("agreement"));
    let read = pdn::read(English, "1. 11-15 0-1").unwrap();
    assert_eq!(read.game.outcome().winner(), Some(Seat::Second));
    assert_eq!(
        read.game.outcome().reason().map(|r| r.name()),
        Some("resignation")
    );
    // Nothing after the result token is read.
    let read = pdn::read(English, "1. 11-15 * 2. anything").unwrap();
    assert!(read.game.outcome().is_running());
}

#[test]
fn each_error_names_what_failed() {
    let err = |variant, text: &str| pdn::read(variant, text).unwrap_err();
    assert_eq!(
        err(English, "[Event \"a\"]\n[Event Club]\n\n1. 11-15 *"),
        PdnError::Tag { line: 2 }
    );
    assert_eq!(
        err(International, "[GameType \"21,B,8,8,N1,0\"]\n\n*"),
        PdnError::GameType {
            value: "21,B,8,8,N1,0".into(),
            expected: International
        }
    );
    assert_eq!(
        err(English, "[MandatoryCapture \"maybe\"]\n\n*"),
        PdnError::MandatoryCapture("maybe".into())
    );
    assert_eq!(
        err(English, "[Result \"3-0\"]\n\n*"),
        PdnError::Result("3-0".into())
    );
    assert_eq!(
        err(English, "[FEN \"X:W21:B1\"]\n\n*"),
        PdnError::Fen(FenError::BadTurn("X".into()))
    );
    assert_eq!(
        err(English, "1. 11-15 23-19 2. hello *"),
        PdnError::Token {
            token: "hello".into()
        }
    );
    match err(English, "1. 11-15 23-19 2. 11-15 *") {
        PdnError::Move { ply, token, error } => {
            assert_eq!(
                (ply, token.as_str(), error.kind),
                (3, "11-15", MoveErrorKind::Illegal)
            );
        }
        other => panic!("{other}"),
    }
    match err(English, "1. 11-15 23-19 2. 15x33 *") {
        PdnError::Move { error, .. } => assert_eq!(error.kind, MoveErrorKind::Malformed),
        other => panic!("{other}"),
    }
    // Black (English: the first mover) has no pieces: White has won before any move.
    match err(English, "[FEN \"B:W21:B\"]\n\n1. 21-17 *") {
        PdnError::Move { ply: 1, error, .. } => assert_eq!(error.kind, MoveErrorKind::GameOver),
        other => panic!("{other}"),
    }
    assert_eq!(
        err(English, "[FEN \"B:W21:B\"]\n[Result \"1-0\"]\n\n1-0"),
        PdnError::ResultContradicts {
            written: "1-0".into(),
            played: "0-1"
        }
    );
    assert_eq!(
        err(English, "[Result \"1-0\"]\n\n1. 11-15 0-1"),
        PdnError::ResultConflict {
            tag: "1-0".into(),
            movetext: "0-1".into()
        }
    );
    assert_eq!(err(English, "1. 11-15 {unclosed"), PdnError::Unclosed);
    assert_eq!(err(English, "1. 11-15 (23-19"), PdnError::Unclosed);
}

/// Characters that matter to the reader, put in place of others.
const FLIPS: &[char] = &[
    '0', '1', '5', '9', '-', 'x', ':', '{', '}', '(', ')', '[', ']', '"', '\\', ' ', '\n', ';', '$', '.',
    '*', '/', 'K', 'W', 'B', ',', 'é', '\u{feff}',
];

#[test]
fn truncated_or_altered_exports_never_panic() {
    let mut rng = Rng::new(7);
    let mut refused = 0;
    let mut total = 0;
    for seed in 0..40 {
        let game = random_game(seed);
        let text = game.export(&info(seed));
        let chars: Vec<char> = text.chars().collect();
        for _ in 0..60 {
            let cut: String = chars[..rng.below(chars.len() + 1)].iter().collect();
            let mut flipped = chars.clone();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(flipped.len());
                flipped[at] = FLIPS[rng.below(FLIPS.len())];
            }
            let flipped: String = flipped.into_iter().collect();
            for variant in [game.variant(), DraughtsVariant::ALL[rng.below(4)]] {
                for text in [&cut, &flipped] {
                    total += 1;
                    refused += usize::from(pdn::read(variant, text).is_err());
                }
            }
        }
    }
    // The alterations do reach the error paths.
    assert!(refused > total / 10, "{refused} of {total} refused");
}
