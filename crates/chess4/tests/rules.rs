//! One test per rule of docs/rules/chess4.md, each from a FEN4 position where the rule bites.
#![allow(clippy::unwrap_used)]

mod common;

use common::{fen4, play, points, with_kings};
use parlor_chess4::{Game, Options, Position, Role, Square};
use parlor_game::{EndReason, EventError, ExportInfo, GameEvent, MoveErrorKind, Outcome, Rules, Seat};

const LIVE: [u8; 4] = [0, 0, 0, 0];

fn game(
    turn: char,
    dead: [u8; 4],
    points: [i32; 4],
    halfmove: u32,
    pieces: &[(&'static str, &'static str)],
) -> Game {
    let text = fen4(turn, dead, points, halfmove, pieces);
    Game::from_fen4(&text, None).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn places(g: &Game) -> [u8; 4] {
    match g.outcome() {
        Outcome::Decided(d) => [
            d.places[Seat::First],
            d.places[Seat::Second],
            d.places[Seat::Third],
            d.places[Seat::Fourth],
        ],
        other => panic!("not decided: {other:?}"),
    }
}

fn role_at(g: &Game, sq: &str) -> Option<Role> {
    g.position().piece_at(Square::parse(sq).unwrap()).map(|p| p.role)
}

#[test]
fn capture_points_pawn_1_knight_3_bishop_5_rook_5_queen_9_promoted_queen_1_king_20() {
    for (piece, value) in [("bP", 1), ("bN", 3), ("bB", 5), ("bR", 5), ("bQ", 9), ("bD", 1)] {
        let mut g = game('R', LIVE, [0; 4], 0, &with_kings(&[("e5", "rQ"), ("e9", piece)]));
        play(&mut g, &["Qe5xe9"]);
        assert_eq!(points(&g), [value, 0, 0, 0], "{piece}");
    }
}

#[test]
fn capturing_a_king_left_attacked_scores_20_and_eliminates_its_owner() {
    // Green's king on n8 is attacked by Blue's rook on e8 (Red's last move opened the line); Blue moves first.
    let mut g = game('B', LIVE, [0; 4], 0, &with_kings(&[("e8", "bR")]));
    assert!(g.legal_moves().iter().any(|m| m.wire == "Re8xn8"));
    play(&mut g, &["Re8xn8"]);
    assert_eq!(points(&g), [0, 20, 0, 0]);
    assert!(g.eliminated()[Seat::Fourth]);
    assert_eq!(role_at(&g, "n8"), Some(Role::Rook));
    play(&mut g, &["Kg14-g13"]);
    assert_eq!(g.turn(), Some(Seat::First), "Green is skipped");
}

#[test]
fn capturing_a_grey_piece_scores_nothing() {
    let mut g = game(
        'R',
        [0, 1, 0, 0],
        [0; 4],
        0,
        &[
            ("h1", "rK"),
            ("g14", "yK"),
            ("n8", "gK"),
            ("a7", "dK"),
            ("e5", "rQ"),
            ("e9", "dQ"),
        ],
    );
    play(&mut g, &["Qe5xe9"]);
    assert_eq!(points(&g), [0, 0, 0, 0]);
}

#[test]
fn a_grey_king_captured_scores_0_and_grey_pieces_block_lines() {
    let pieces = [
        ("h1", "rK"),
        ("g14", "yK"),
        ("n8", "gK"),
        ("a7", "dK"),
        ("e7", "rQ"),
        ("c7", "dP"),
    ];
    let g = game('R', [0, 1, 0, 0], [0; 4], 0, &pieces);
    let legal = g.legal_moves();
    let wires: Vec<&str> = legal.iter().map(|m| m.wire.as_str()).collect();
    assert!(wires.contains(&"Qe7xc7"), "{wires:?}");
    assert!(
        !wires.contains(&"Qe7-b7"),
        "the grey pawn blocks the rank: {wires:?}"
    );
    assert!(
        !wires.contains(&"Qe7xa7"),
        "the grey pawn blocks the rank: {wires:?}"
    );
    let mut g = game('R', [0, 1, 0, 0], [0; 4], 0, &pieces[..5]);
    play(&mut g, &["Qe7xa7"]);
    assert_eq!(points(&g), [0, 0, 0, 0], "a grey king is worth nothing");
    assert_eq!(role_at(&g, "a7"), Some(Role::Queen));
}

#[test]
fn grey_pieces_never_move_and_give_no_check() {
    // Blue is out; its grey queen on h5 looks at the Red king on h1 through empty squares.
    let mut g = game(
        'R',
        [0, 1, 0, 0],
        [0; 4],
        0,
        &[
            ("h1", "rK"),
            ("g14", "yK"),
            ("n8", "gK"),
            ("a7", "dK"),
            ("h5", "dQ"),
        ],
    );
    assert!(!g.position().is_check(Seat::First));
    assert!(g.checked_kings().is_empty());
    // The Red king may step next to and along the grey queen's lines.
    assert!(g.legal_moves().iter().any(|m| m.wire == "Kh1-g2"));
    play(&mut g, &["Kh1-h2"]);
    assert_eq!(g.turn(), Some(Seat::Third), "the grey army never gets a turn");
    assert!(g.position().moves_of(Seat::Second).is_empty());
}

#[test]
fn checking_one_king_scores_nothing() {
    let mut g = game('R', LIVE, [0; 4], 0, &with_kings(&[("g5", "rR")]));
    play(&mut g, &["Rg5-g13"]);
    assert!(g.position().is_check(Seat::Third));
    assert_eq!(points(&g), [0, 0, 0, 0]);
}

/// Blue king d9, Green king k9, Yellow king g13 (or j13, off the file): a piece reaching g9 sees d9 and k9 along
/// rank 9 and g13 up the file. The rook comes from g5 (it already sees up the file, so only the rank is new); the
/// queen comes from h8, from where it sees none of them.
fn multi_check(mover: &'static str, yellow_on_file: bool) -> Game {
    let yellow = if yellow_on_file { "g13" } else { "j13" };
    let from = if mover == "rQ" { "h8" } else { "g5" };
    game(
        'R',
        LIVE,
        [0; 4],
        0,
        &[
            ("h1", "rK"),
            ("d9", "bK"),
            (yellow, "yK"),
            ("k9", "gK"),
            (from, mover),
        ],
    )
}

#[test]
fn double_check_scores_5() {
    let mut g = multi_check("rR", false);
    play(&mut g, &["Rg5-g9"]);
    assert_eq!(points(&g), [5, 0, 0, 0]);
}

/// Ng8-f10 checks Blue's king on d9 and opens the queen's g-file to Yellow's king on g13.
#[test]
fn double_check_by_a_queen_and_a_knight_scores_the_full_5() {
    let mut g = game(
        'R',
        LIVE,
        [0; 4],
        0,
        &[
            ("h1", "rK"),
            ("d9", "bK"),
            ("g13", "yK"),
            ("n6", "gK"),
            ("g5", "rQ"),
            ("g8", "rN"),
        ],
    );
    play(&mut g, &["Ng8-f10"]);
    assert!(g.position().is_check(Seat::Second));
    assert!(g.position().is_check(Seat::Third));
    assert_eq!(points(&g), [5, 0, 0, 0]);
}

#[test]
fn double_check_by_a_queen_scores_1() {
    let mut g = multi_check("rQ", false);
    play(&mut g, &["Qh8-g9"]);
    assert_eq!(points(&g), [1, 0, 0, 0]);
}

/// A rook leaving g5 for g9 checks d9 and k9 along rank 9 and opens the bishop's diagonal e3-j8 to a third king.
#[test]
fn triple_check_scores_20() {
    let mut g = game(
        'R',
        LIVE,
        [0; 4],
        0,
        &[
            ("h1", "rK"),
            ("d9", "bK"),
            ("k9", "yK"),
            ("j8", "gK"),
            ("g5", "rR"),
            ("e3", "rB"),
        ],
    );
    play(&mut g, &["Rg5-g9"]);
    assert_eq!(points(&g), [20, 0, 0, 0]);
    assert_eq!(g.history()[0].display, "Rg5-g9+++");
}

#[test]
fn triple_check_by_a_queen_scores_5() {
    let mut g = multi_check("rQ", true);
    play(&mut g, &["Qh8-g9"]);
    assert_eq!(points(&g), [5, 0, 0, 0]);
}

/// A king the mover already attacks is not put in check by the move: the rook on g5 sees g13 before and after
/// Rg5-g9, so only d9 and k9 are new, a double check.
#[test]
fn a_king_already_in_check_from_the_mover_does_not_count_again() {
    let mut g = multi_check("rR", true);
    play(&mut g, &["Rg5-g9"]);
    assert_eq!(points(&g), [5, 0, 0, 0]);
}

#[test]
fn checkmate_is_decided_immediately_after_the_move_and_scores_20() {
    // Yellow (not the next to move) is mated on its back rank by Red's rook.
    let mut g = game(
        'R',
        LIVE,
        [0; 4],
        0,
        &[
            ("h1", "rK"),
            ("a7", "bK"),
            ("h14", "yK"),
            ("n8", "gK"),
            ("g13", "yP"),
            ("h13", "yP"),
            ("i13", "yP"),
            ("d5", "rR"),
        ],
    );
    play(&mut g, &["Rd5-d14"]);
    assert!(g.eliminated()[Seat::Third], "Yellow is out before Blue moves");
    assert_eq!(points(&g), [20, 0, 0, 0]);
    assert_eq!(role_at(&g, "h14"), Some(Role::King));
    assert_eq!(
        g.position()
            .piece_at(Square::parse("h14").unwrap())
            .unwrap()
            .owner,
        None,
        "grey"
    );
    assert_eq!(g.history()[0].display, "Rd5-d14#");
    assert_eq!(g.turn(), Some(Seat::Second));
    play(&mut g, &["Ka7-a6"]);
    assert_eq!(g.turn(), Some(Seat::Fourth), "Yellow is skipped");
}

#[test]
fn a_mover_who_only_covers_the_last_escape_of_a_king_checked_by_a_third_army_scores_the_mate() {
    // Yellow's rook on a11 checks Blue's king on a7; Red's Rd9-b9 takes b6, b7 and b8 and gives no check itself.
    let mut g = game(
        'R',
        LIVE,
        [0; 4],
        0,
        &[
            ("h1", "rK"),
            ("a7", "bK"),
            ("g14", "yK"),
            ("n8", "gK"),
            ("a11", "yR"),
            ("d9", "rR"),
        ],
    );
    play(&mut g, &["Rd9-b9"]);
    assert!(g.eliminated()[Seat::Second]);
    assert_eq!(
        points(&g),
        [20, 0, 0, 0],
        "the mate points go to the mover, not to Yellow"
    );
    assert_eq!(g.turn(), Some(Seat::Third));
}

#[test]
fn a_check_with_an_escape_is_not_mate() {
    let mut g = game(
        'R',
        LIVE,
        [0; 4],
        0,
        &[
            ("h1", "rK"),
            ("a7", "bK"),
            ("h14", "yK"),
            ("n8", "gK"),
            ("g13", "yP"),
            ("i13", "yP"),
            ("d5", "rR"),
        ],
    );
    play(&mut g, &["Rd5-d14"]);
    assert!(!g.eliminated()[Seat::Third]);
    assert!(g.position().is_check(Seat::Third));
}

#[test]
fn stalemate_eliminates_the_player_and_scores_20_for_it() {
    // Blue's lone king on a4 has b4, b5 and a5; Red's rook on b10 covers the b-file, and Rm6-m5 covers rank 5.
    let mut g = game(
        'R',
        LIVE,
        [0; 4],
        0,
        &[
            ("h1", "rK"),
            ("a4", "bK"),
            ("g14", "yK"),
            ("n8", "gK"),
            ("b10", "rR"),
            ("m6", "rR"),
        ],
    );
    play(&mut g, &["Rm6-m5"]);
    assert!(g.eliminated()[Seat::Second]);
    assert_eq!(points(&g), [0, 20, 0, 0]);
    assert_eq!(g.turn(), Some(Seat::Third));
}

#[test]
fn stalemate_with_two_players_left_eliminates_the_stalemated_one_and_ends_the_game() {
    // Yellow and Green are out; Blue's lone king on a4 is stalemated by Rm6-m5 as in the four-player case.
    let mut g = game(
        'R',
        [0, 0, 1, 1],
        [0; 4],
        0,
        &[
            ("h1", "rK"),
            ("a4", "bK"),
            ("g14", "dK"),
            ("n8", "dK"),
            ("b10", "rR"),
            ("m6", "rR"),
        ],
    );
    play(&mut g, &["Rm6-m5"]);
    assert!(g.eliminated()[Seat::Second]);
    assert_eq!(points(&g), [0, 20, 0, 0], "the stalemated player scores 20");
    assert_eq!(g.turn(), None);
    match g.outcome() {
        Outcome::Decided(d) => assert_eq!(d.reason, EndReason::LastPlayerStanding),
        other => panic!("not decided: {other:?}"),
    }
    // Places go by points: Blue's 20 beat Red's 0 although Red is the last one standing. Yellow and Green were
    // out before the FEN4 position, which keeps no order of eliminations, so they share third place.
    assert_eq!(places(&g), [2, 1, 3, 3]);
}

#[test]
fn a_move_may_not_leave_the_king_attacked_by_any_live_opponent() {
    // Red's bishop on h4 stands between its king and Yellow's rook: pinned in free-for-all, free in Teams mode
    // (where Yellow is Red's partner).
    let text = fen4('R', LIVE, [0; 4], 0, &with_kings(&[("h4", "rB"), ("h10", "yR")]));
    let ffa = Position::from_fen4(&text).unwrap();
    let from_h4 = |p: &Position| {
        p.legal_moves()
            .iter()
            .filter(|m| m.from == Square::parse("h4").unwrap())
            .count()
    };
    assert_eq!(from_h4(&ffa), 0);
    let mut teams = ffa.clone();
    teams.set_teams_legality(true);
    assert!(from_h4(&teams) > 0);
}

#[test]
fn promotion_on_the_8th_rank_makes_a_queen_worth_1_point() {
    let mut g = game(
        'R',
        LIVE,
        [0; 4],
        0,
        &with_kings(&[("h7", "rP"), ("b8", "bR"), ("h3", "rP")]),
    );
    let views = g.legal_moves();
    let promo = views.iter().find(|m| m.wire == "h7-h8=Q").unwrap();
    assert_eq!(promo.promotion, Some('q'));
    play(&mut g, &["h7-h8=Q"]);
    assert_eq!(role_at(&g, "h8"), Some(Role::PromotedQueen));
    assert!(g.position_text().contains("rD"));
    play(&mut g, &["Rb8xh8"]);
    assert_eq!(points(&g), [0, 1, 0, 0]);
}

#[test]
fn each_army_promotes_on_its_own_8th_rank() {
    // Blue on the h-file, Yellow on rank 7, Green on the g-file; a bare "g5-h5" also promotes.
    let mut g = game(
        'B',
        LIVE,
        [0; 4],
        0,
        &with_kings(&[("g5", "bP"), ("e8", "yP"), ("h10", "gP")]),
    );
    play(&mut g, &["g5-h5", "e8-e7", "h10-g10"]);
    for sq in ["h5", "e7", "g10"] {
        assert_eq!(role_at(&g, sq), Some(Role::PromotedQueen), "{sq}");
    }
}

fn en_passant_game() -> Game {
    game('R', LIVE, [0; 4], 0, &with_kings(&[("k2", "rP"), ("l4", "gP")]))
}

#[test]
fn en_passant_on_the_opponents_first_turn_after_the_double_step() {
    let mut g = en_passant_game();
    play(&mut g, &["k2-k4"]);
    assert!(g.position_text().contains("'enPassant':('k3:k4','','','')"));
    play(&mut g, &["Ka7-a6", "Kg14-g13"]);
    let ep = g.legal_moves().into_iter().find(|m| m.wire == "l4xk3").unwrap();
    assert_eq!(ep.captures, vec![Square::parse("k4").unwrap().to_coord()]);
    play(&mut g, &["l4xk3"]);
    assert_eq!(role_at(&g, "k4"), None);
    assert_eq!(role_at(&g, "k3"), Some(Role::Pawn));
    assert_eq!(points(&g), [0, 0, 0, 1]);
}

#[test]
fn en_passant_window_closes_after_that_turn() {
    let mut g = en_passant_game();
    play(
        &mut g,
        &[
            "k2-k4", "Ka7-a6", "Kg14-g13", "Kn8-n9", "Kh1-h2", "Ka6-a7", "Kg13-g14",
        ],
    );
    let err = g.play("l4xk3").unwrap_err();
    assert_eq!(err.kind, MoveErrorKind::Illegal);
}

#[test]
fn castling_both_ways_along_the_home_row_and_not_through_an_attacked_square() {
    let text = "R-0,0,0,0-1,0,0,0-1,0,0,0-0,0,0,0-0-6,yK,7/14/14/14/14/14/14/bK,12,gK/14/14/14/14/14/3,rR,3,rK,2,rR,3";
    let mut g = Game::from_fen4(text, None).unwrap();
    let wires: Vec<String> = g.legal_moves().into_iter().map(|m| m.wire).collect();
    assert!(
        wires.contains(&"O-O".to_owned()) && wires.contains(&"O-O-O".to_owned()),
        "{wires:?}"
    );
    play(&mut g, &["O-O"]);
    assert_eq!(role_at(&g, "j1"), Some(Role::King));
    assert_eq!(role_at(&g, "i1"), Some(Role::Rook));
    assert!(!g.position().can_castle(Seat::First, false));

    let mut q = Game::from_fen4(text, None).unwrap();
    play(&mut q, &["O-O-O"]);
    assert_eq!(role_at(&q, "f1"), Some(Role::King));
    assert_eq!(role_at(&q, "g1"), Some(Role::Rook));

    // A Blue bishop on l4 watches i1 (l4-k3-j2-i1), the square the king passes: king side is refused.
    let attacked = text.replace("bK,12,gK/14/14/14/14/14/", "bK,12,gK/14/14/11,bB,2/14/14/");
    assert_ne!(attacked, text);
    let a = Game::from_fen4(&attacked, None).unwrap();
    let wires: Vec<String> = a.legal_moves().into_iter().map(|m| m.wire).collect();
    assert!(
        !wires.contains(&"O-O".to_owned()) && wires.contains(&"O-O-O".to_owned()),
        "{wires:?}"
    );
}

#[test]
fn two_players_21_points_apart_end_the_game() {
    let mut g = game(
        'R',
        [0, 1, 1, 0],
        [30, 0, 0, 10],
        0,
        &[
            ("h1", "rK"),
            ("a7", "dK"),
            ("g14", "dK"),
            ("n8", "gK"),
            ("j5", "rQ"),
            ("j9", "gP"),
        ],
    );
    assert!(g.outcome().is_running(), "20 apart");
    play(&mut g, &["Qj5xj9"]);
    match g.outcome() {
        Outcome::Decided(d) => assert_eq!(d.reason, EndReason::PointsGap),
        other => panic!("{other:?}"),
    }
    assert_eq!(places(&g), [1, 3, 3, 2]);
    assert_eq!(g.turn(), None);
    assert_eq!(g.play("Kn8-n9").unwrap_err().kind, MoveErrorKind::GameOver);
}

#[test]
fn three_eliminated_end_the_game_and_equal_points_go_to_the_later_eliminated() {
    // Red 30, Green 50: Red mates Green (+20): 50 each, and Red, still playing, places first.
    let mut g = game(
        'R',
        [0, 1, 1, 0],
        [30, 5, 5, 50],
        0,
        &[
            ("h1", "rK"),
            ("a7", "dK"),
            ("g14", "dK"),
            ("n8", "gK"),
            ("m7", "gP"),
            ("m8", "gP"),
            ("m9", "gP"),
            ("e5", "rR"),
        ],
    );
    assert!(g.outcome().is_running());
    play(&mut g, &["Re5-n5"]);
    assert_eq!(points(&g), [50, 5, 5, 50]);
    match g.outcome() {
        Outcome::Decided(d) => {
            assert_eq!(d.reason, EndReason::LastPlayerStanding);
            assert_eq!(d.winner(), Some(Seat::First));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(places(&g), [1, 3, 3, 2]);
}

#[test]
fn threefold_repetition_ends_the_game_with_10_points_to_each_live_player() {
    let mut g = game('R', [0, 0, 0, 0], [3, 0, 0, 0], 0, &with_kings(&[]));
    let round_out = ["Kh1-h2", "Ka7-a6", "Kg14-g13", "Kn8-n9"];
    let round_back = ["Kh2-h1", "Ka6-a7", "Kg13-g14", "Kn9-n8"];
    for _ in 0..2 {
        play(&mut g, &round_out);
        play(&mut g, &round_back);
    }
    match g.outcome() {
        Outcome::Decided(d) => assert_eq!(d.reason, EndReason::Threefold),
        other => panic!("{other:?}"),
    }
    assert_eq!(points(&g), [13, 10, 10, 10]);
    assert_eq!(places(&g), [1, 2, 2, 2]);
}

#[test]
fn fifty_moves_by_every_live_player_end_the_game_with_10_points_each() {
    // Three live players: 150 plies without capture or pawn move.
    let mut g = game(
        'R',
        [0, 1, 0, 0],
        [0, 4, 0, 0],
        149,
        &[("h1", "rK"), ("a7", "dK"), ("g14", "yK"), ("n8", "gK")],
    );
    assert!(g.outcome().is_running());
    play(&mut g, &["Kh1-h2"]);
    match g.outcome() {
        Outcome::Decided(d) => assert_eq!(d.reason, EndReason::FiftyMove),
        other => panic!("{other:?}"),
    }
    assert_eq!(points(&g), [10, 4, 10, 10]);
}

#[test]
fn the_move_limit_ends_the_game_with_places_by_points() {
    let mut g = Game::new(Options {
        move_limit: Some(4),
        first: Seat::First,
    });
    play(&mut g, &["h2-h3", "b7-c7", "g13-g12"]);
    assert!(g.outcome().is_running());
    play(&mut g, &["m8-l8"]);
    match g.outcome() {
        Outcome::Decided(d) => assert_eq!(d.reason, EndReason::MoveLimit),
        other => panic!("{other:?}"),
    }
    assert_eq!(places(&g), [1, 1, 1, 1]);
}

#[test]
fn any_seat_may_move_first() {
    let g = Game::new(Options {
        move_limit: None,
        first: Seat::Third,
    });
    assert_eq!(g.turn(), Some(Seat::Third));
    assert_eq!(g.legal_moves().len(), 20);
    assert!(g.start_text().starts_with("Y-"));
}

#[test]
fn resignation_and_timeout_eliminate_and_the_game_goes_on() {
    let mut g = Game::new(Options::default());
    g.apply(GameEvent::Resign(Seat::First)).unwrap();
    assert!(g.eliminated()[Seat::First]);
    assert_eq!(g.turn(), Some(Seat::Second));
    assert_eq!(
        g.apply(GameEvent::Resign(Seat::First)),
        Err(EventError::NotPlaying(Seat::First))
    );
    play(&mut g, &["b7-c7"]);
    g.apply(GameEvent::Timeout(Seat::Third)).unwrap();
    assert_eq!(g.turn(), Some(Seat::Fourth));
    assert!(g.outcome().is_running());
    g.apply(GameEvent::Resign(Seat::Fourth)).unwrap();
    match g.outcome() {
        Outcome::Decided(d) => {
            assert_eq!(d.reason, EndReason::Resignation);
            assert_eq!(d.winner(), Some(Seat::Second));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        g.apply(GameEvent::Resign(Seat::Second)),
        Err(EventError::GameOver)
    );
}

#[test]
fn draw_offers_and_abandonment_are_refused() {
    let mut g = Game::new(Options::default());
    assert!(matches!(
        g.apply(GameEvent::DrawAgreed),
        Err(EventError::NotAllowed(_))
    ));
    assert!(matches!(
        g.apply(GameEvent::Abandon(Seat::Second)),
        Err(EventError::NotAllowed(_))
    ));
    assert!(g.outcome().is_running());
}

#[test]
fn refused_moves_leave_the_game_unchanged() {
    let mut g = Game::new(Options::default());
    let before = g.position_text();
    for (wire, kind) in [
        ("e2e4", MoveErrorKind::Malformed),
        ("", MoveErrorKind::Malformed),
        ("h2-h5", MoveErrorKind::Illegal),
        ("Nh2-h3", MoveErrorKind::Illegal),
        ("b7-c7", MoveErrorKind::Illegal),
        ("O-O", MoveErrorKind::Illegal),
    ] {
        assert_eq!(g.play(wire).unwrap_err().kind, kind, "{wire}");
    }
    assert_eq!(g.position_text(), before);
    assert!(g.history().is_empty());
}

#[test]
fn pgn4_export_has_the_tags_moves_and_resignation_tokens() {
    let mut g = Game::new(Options::default());
    play(&mut g, &["h2-h3", "b7-c7", "g13-g12"]);
    g.apply(GameEvent::Resign(Seat::Fourth)).unwrap();
    play(&mut g, &["Nj1-i3"]);
    g.apply(GameEvent::Timeout(Seat::Second)).unwrap();
    let info = ExportInfo {
        players: ["Ann", "Bo", "Cy", "Di"].map(String::from).to_vec(),
        ..ExportInfo::default()
    };
    let pgn = g.export(&info);
    for needle in [
        "[Variant \"FFA\"]",
        &format!("[StartFen4 \"{}\"]", Position::start().to_fen4()),
        "[Red \"Ann\"]",
        "[Green \"Di\"]",
        "[Result \"*\"]",
        "1. h2-h3 .. b7-c7 .. g13-g12 .. R\n2. Nj1-i3 .. T\n",
    ] {
        assert!(pgn.contains(needle), "missing {needle} in\n{pgn}");
    }
}

#[test]
fn the_team_mode_start_fen4_reads_exactly() {
    let text = include_str!("data/perft-4pc.txt")
        .lines()
        .find_map(|l| l.strip_prefix("fen4 "))
        .unwrap();
    let g = Game::from_fen4(text, None).unwrap();
    assert_eq!(g.position_text(), text);
    assert_eq!(g.legal_moves().len(), 20);
}
