//! One test per rule of docs/rules/draughts.md, each from a position where the rule decides the legal moves or the
//! outcome.
//! Squares are PDN numbers; comments give the diagram square (White at the bottom).
#![allow(clippy::unwrap_used)]

use parlor_draughts::{DraughtsVariant, Game, Move, Options, Position};
use parlor_game::{EndReason, EventError, GameEvent, MoveErrorKind, Outcome, Rules, Seat};
use std::collections::HashSet;

use DraughtsVariant::{English, International, Pool, Russian};

/// The legal moves as (PDN, from, to, captured squares, crowns).
fn moves(variant: DraughtsVariant, fen: &str) -> Vec<(String, u32, u32, Vec<u32>, bool)> {
    let pos = Position::from_fen(variant, fen).unwrap();
    pos.legal_moves()
        .iter()
        .map(|&m| {
            (
                pos.move_notation(m),
                pos.from_square(m),
                pos.to_square(m),
                pos.captured_squares(m),
                m.is_promotion(),
            )
        })
        .collect()
}

fn wires(variant: DraughtsVariant, fen: &str) -> Vec<String> {
    let mut out: Vec<String> = moves(variant, fen).into_iter().map(|m| m.0).collect();
    out.sort();
    out
}

#[test]
fn english_start_has_seven_moves_and_black_moves_first() {
    let game = Game::new(English, Options::default());
    assert_eq!(game.position().side_to_move(), parlor_draughts::Color::Black);
    assert_eq!(Rules::turn(&game), Some(Seat::First));
    assert_eq!(Rules::legal_moves(&game).len(), 7);
    let intl = Game::new(International, Options::default());
    assert_eq!(intl.position().side_to_move(), parlor_draughts::Color::White);
}

#[test]
fn english_men_capture_forward_only() {
    // Black man on 18 (d4) with White men on 14 (c5, behind it) and 23 (e3, in front).
    assert_eq!(wires(English, "B:W14,23:B18"), ["18x27"]);
    // The same in Russian: men capture backward too.
    assert_eq!(wires(Russian, "B:W14,23:B18"), ["18x27", "18x9"]);
}

#[test]
fn crowning_ends_the_english_move() {
    // Black man 22 (c3) takes 26 (d2) and lands on 31 (e1), the crowning row. As a king it could take 27 (f2)
    // next, but in English draughts the move ends on crowning.
    let m = moves(English, "B:W26,27:B22");
    assert_eq!(m, [("22x31".to_owned(), 22, 31, vec![26], true)]);
    let mut game = Game::from_fen(English, Options::default(), "B:W26,27:B22").unwrap();
    game.play("22x31").unwrap();
    assert_eq!(game.position().to_fen(), "W:W27:BK31");
}

#[test]
fn russian_man_crowned_mid_capture_goes_on_as_a_flying_king() {
    // The same position in Russian draughts: crowned on 31, the new king at once takes 27 (f2) and may land on
    // 24 (g3) or 20 (h4) beyond it.
    let m = moves(Russian, "B:W26,27:B22");
    assert_eq!(m.len(), 2);
    for (_, from, to, captured, crowned) in &m {
        assert_eq!(
            (*from, captured.as_slice(), *crowned),
            (22, [26, 27].as_slice(), true)
        );
        assert!([24, 20].contains(to));
    }
    let mut game = Game::from_fen(Russian, Options::default(), "B:W26,27:B22").unwrap();
    game.play("22x20").unwrap();
    assert_eq!(game.position().to_fen(), "W:W:BK20");
}

#[test]
fn pool_man_passing_the_far_row_is_not_crowned() {
    // In pool checkers the man lands on 31 without being crowned, takes 27 backward as a man, and ends on 24 a man.
    assert_eq!(
        moves(Pool, "B:W26,27:B22"),
        [("22x24".to_owned(), 22, 24, vec![26, 27], false)]
    );
    // A pool man whose capture ends on the far row is crowned.
    assert_eq!(
        moves(Pool, "B:W26:B22"),
        [("22x31".to_owned(), 22, 31, vec![26], true)]
    );
}

#[test]
fn international_man_crowned_only_when_the_move_ends_on_the_far_row() {
    // White man 13 takes 8 and lands on 2, the far row, but can take 7 backward from there: it must go on, ends
    // on 11 and stays a man. Without 7 the same capture ends on 2 and crowns.
    let m = moves(International, "W:W13:B7,8");
    assert_eq!(m, [("13x11".to_owned(), 13, 11, vec![7, 8], false)]);
    assert_eq!(
        moves(International, "W:W13:B8"),
        [("13x2".to_owned(), 13, 2, vec![8], true)]
    );
}

#[test]
fn majority_capture_is_compulsory_in_international() {
    // White man 45 could take one piece (40), man 32 can take two (28 and 19): only the larger capture is legal.
    assert_eq!(
        moves(International, "W:W32,45:B19,28,40"),
        [("32x14".to_owned(), 32, 14, vec![19, 28], false)]
    );
}

#[test]
fn russian_has_free_choice_among_captures() {
    // White man 21 can take two pieces (17 and 10, 21x14x7) and man 28 one (24, 28x19): both are legal, unlike
    // International draughts.
    let all = moves(Russian, "W:W21,28:B10,17,24");
    let counts: HashSet<usize> = all.iter().map(|m| m.3.len()).collect();
    assert_eq!(counts, HashSet::from([1, 2]), "{all:?}");
    assert_eq!(moves(International, "W:W32,45:B19,28,40").len(), 1);
}

#[test]
fn flying_king_may_land_on_any_square_beyond_the_taken_piece() {
    // White king on 46 (a1) takes 32 (d4) on the long diagonal and may stop on any of 28, 23, 19, 14, 10, 5.
    let mut to: Vec<u32> = moves(International, "W:WK46:B32")
        .into_iter()
        .map(|m| m.2)
        .collect();
    to.sort();
    assert_eq!(to, [5, 10, 14, 19, 23, 28]);
}

#[test]
fn flying_king_must_land_where_the_capture_goes_on() {
    // As above, plus a Black man on 18 (e7): from landing square 23 (f6) the king can take 18 too, so it must
    // land on 23 and go on; it then chooses among 12, 7 and 1 beyond 18.
    let m = moves(International, "W:WK46:B18,32");
    let mut to: Vec<u32> = m.iter().map(|m| m.2).collect();
    to.sort();
    assert_eq!(to, [1, 7, 12]);
    assert!(m.iter().all(|m| m.3 == [18, 32]));
    let pos = Position::from_fen(International, "W:WK46:B18,32").unwrap();
    let first = pos.legal_moves()[0];
    assert_eq!(pos.move_path(first)[1], 23);
}

#[test]
fn turkish_strike_taken_pieces_stay_and_block_until_the_move_ends() {
    // White king 47 takes 38, 19, 17 and 27 around a loop: 47x24x8x21 then 21x?? over 27 along the diagonal that
    // crosses 38. 38 was taken but still stands, so the king must stop on 32 right after 27; it may not pass 38
    // (to 43 or 49) nor take 38 a second time.
    let m = moves(International, "W:WK47:B17,19,27,38");
    assert_eq!(m.len(), 1, "{m:?}");
    let (_, from, to, captured, _) = &m[0];
    assert_eq!(
        (*from, *to, captured.as_slice()),
        (47, 32, [17, 19, 27, 38].as_slice())
    );
    let pos = Position::from_fen(International, "W:WK47:B17,19,27,38").unwrap();
    assert_eq!(pos.move_path(pos.legal_moves()[0]), [47, 24, 8, 21, 32]);
}

#[test]
fn a_capture_reaching_the_same_result_by_two_paths_is_one_move() {
    // English king 17 (b4) goes round four men (14, 15, 22, 23) either way and comes back to 17.
    let m = moves(English, "B:W14,15,22,23:BK17");
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!((m[0].1, m[0].2, m[0].3.clone()), (17, 17, vec![14, 15, 22, 23]));
    assert_eq!(m[0].0, "17x17");
}

#[test]
fn from_to_naming_two_captures_is_ambiguous_and_full_paths_tell_them_apart() {
    // Black man 2 can reach 18 over 7 and 15 (via 11) or over 6 and 14 (via 9).
    let fen = "B:W6,7,14,15:B2";
    assert_eq!(wires(English, fen), ["2x11x18", "2x9x18"]);
    let mut game = Game::from_fen(English, Options::default(), fen).unwrap();
    let err = game.play("2x18").unwrap_err();
    assert_eq!(err.kind, MoveErrorKind::Ambiguous);
    assert_eq!(game.history().len(), 0);
    assert_eq!(game.position().to_fen(), "B:W6,7,14,15:B2");
    let played = game.play("2x9x18").unwrap();
    assert_eq!(played.wire, "2x9x18");
    assert_eq!(game.position().to_fen(), "W:W7,15:B18");
}

#[test]
fn a_single_jump_is_its_own_full_path_even_when_a_longer_chain_shares_its_ends() {
    // English king 18 (d4) can take 14 alone (18x9), or go round 15, 16, 24, 23 back to 18 and then take 14: both
    // end on 9. `18x9` is the whole path of the single jump, so it names that move; the ring needs its full path.
    let fen = "B:W14,15,16,23,24:BK18";
    assert_eq!(wires(English, fen), ["18x27x20x11x18x9", "18x9"]);
    let pos = Position::from_fen(English, fen).unwrap();
    assert_eq!(pos.parse_move("18x9").unwrap().capture_count(), 1);
    assert_eq!(pos.parse_move("18x27x20x11x18x9").unwrap().capture_count(), 5);
    assert_eq!(pos.parse_move("18x11x20x27x18x9").unwrap().capture_count(), 5);
}

#[test]
fn refused_moves_leave_the_game_unchanged() {
    let mut game = Game::new(English, Options::default());
    let before = game.position().to_fen();
    for (wire, kind) in [
        ("", MoveErrorKind::Malformed),
        ("11-", MoveErrorKind::Malformed),
        ("e3e4", MoveErrorKind::Malformed),
        ("11x15-19", MoveErrorKind::Malformed),
        ("11-99", MoveErrorKind::Malformed),
        ("11-17", MoveErrorKind::Illegal),
        ("22-18", MoveErrorKind::Illegal),
        ("11x18x25", MoveErrorKind::Illegal),
    ] {
        assert_eq!(game.play(wire).unwrap_err().kind, kind, "{wire}");
        assert_eq!(game.position().to_fen(), before);
    }
    assert!(game.history().is_empty());
    game.play("11-15").unwrap();
    assert_eq!(game.history()[0].seat, Seat::First);
}

#[test]
fn no_pieces_loses() {
    // Black man 14 takes White's last piece.
    let mut game = Game::from_fen(English, Options::default(), "B:W18:B14").unwrap();
    game.play("14x23").unwrap();
    assert_eq!(game.outcome().reason(), Some(EndReason::NoPieces));
    assert_eq!(game.outcome().winner(), Some(Seat::First));
    assert_eq!(game.play("23-26").unwrap_err().kind, MoveErrorKind::GameOver);
    assert!(Rules::legal_moves(&game).is_empty());
    assert_eq!(Rules::turn(&game), None);
}

#[test]
fn no_legal_move_loses() {
    // White man 29 (a1) is blocked by Black men on 25 and 22.
    let game = Game::from_fen(English, Options::default(), "W:W29:B22,25").unwrap();
    assert_eq!(game.outcome().reason(), Some(EndReason::Blocked));
    assert_eq!(game.outcome().winner(), Some(Seat::First));
}

#[test]
fn threefold_repetition_draws() {
    let mut game = Game::from_fen(English, Options::default(), "B:WK32:BK1").unwrap();
    let cycle = ["1-5", "32-28", "5-1", "28-32"];
    for (i, wire) in cycle.iter().cycle().take(8).enumerate() {
        assert!(game.outcome().is_running(), "ended after {i} plies");
        game.play(wire).unwrap();
    }
    assert_eq!(game.outcome(), &Outcome::Drawn(EndReason::Threefold));
}

/// The quiet king moves of `pos` that reach a position not in `seen` and offer the opponent no capture.
fn safe_moves(pos: &Position, seen: &HashSet<u64>) -> Vec<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|&m| {
            let mut child = *pos;
            child.play_unchecked(m);
            !m.is_capture() && !pos.is_man_move(m) && !child.has_capture() && !seen.contains(&child.hash())
        })
        .collect()
}

/// A line of `plies` safe king moves from `pos` (depth-first with backtracking), if there is one.
fn safe_line(pos: &Position, plies: usize, seen: &mut HashSet<u64>) -> Option<Vec<Move>> {
    if plies == 0 {
        return Some(Vec::new());
    }
    for m in safe_moves(pos, seen) {
        let mut child = *pos;
        child.play_unchecked(m);
        seen.insert(child.hash());
        if let Some(mut line) = safe_line(&child, plies - 1, seen) {
            line.insert(0, m);
            return Some(line);
        }
        seen.remove(&child.hash());
    }
    None
}

/// Plays quiet king moves that never repeat a position and never offer a capture, `plies` times or until the game
/// ends; returns the plies played.
fn shuffle_kings(game: &mut Game, plies: usize, seen: &mut HashSet<u64>) -> usize {
    seen.insert(game.position().hash());
    let line = safe_line(game.position(), plies, seen).expect("a line of fresh quiet king moves");
    for (i, m) in line.into_iter().enumerate() {
        if !game.outcome().is_running() {
            return i;
        }
        game.play_move(m).unwrap();
    }
    plies
}

fn no_progress_after(variant: DraughtsVariant, fen: &str, limit: usize) {
    let mut game = Game::from_fen(variant, Options::default(), fen).unwrap();
    let mut seen = HashSet::new();
    assert_eq!(shuffle_kings(&mut game, limit - 1, &mut seen), limit - 1);
    assert!(
        game.outcome().is_running(),
        "{variant}: ended before {limit} plies"
    );
    shuffle_kings(&mut game, 1, &mut seen);
    assert_eq!(
        game.outcome(),
        &Outcome::Drawn(EndReason::NoProgress),
        "{variant}"
    );
}

#[test]
fn english_draws_after_40_plies_without_capture_or_man_move() {
    no_progress_after(English, "B:WK29,K30,5:BK3,K4,28", 40);
}

#[test]
fn english_man_move_restarts_the_40_ply_count() {
    // Men on 12 (Black) and 21 (White) are free to move later; each man move resets the count.
    let mut game = Game::from_fen(English, Options::default(), "B:WK29,K30,21:BK3,K4,12").unwrap();
    let mut seen = HashSet::new();
    assert_eq!(shuffle_kings(&mut game, 38, &mut seen), 38);
    game.play("12-16").unwrap();
    assert!(game.outcome().is_running());
    assert_eq!(shuffle_kings(&mut game, 39, &mut seen), 39);
    assert!(game.outcome().is_running());
}

#[test]
fn russian_draws_after_15_king_moves_each() {
    no_progress_after(Russian, "W:WK29,K30,K31,21:BK1,K2,K4,12", 30);
}

#[test]
fn international_draws_after_25_king_moves_each() {
    no_progress_after(International, "W:WK46,K47,K48,K49,36:BK1,K2,K3,K4,15", 50);
}

#[test]
fn pool_has_no_move_count_draw() {
    let mut game = Game::from_fen(Pool, Options::default(), "B:WK29,K30,K31,21:BK1,K2,K4,12").unwrap();
    let mut seen = HashSet::new();
    assert_eq!(shuffle_kings(&mut game, 120, &mut seen), 120);
    assert!(game.outcome().is_running());
}

#[test]
fn international_endgame_limit_three_kings_against_one_is_16_moves_each() {
    let mut game = Game::from_fen(International, Options::default(), "W:WK1,K2,K3:BK46").unwrap();
    let mut seen = HashSet::new();
    assert_eq!(shuffle_kings(&mut game, 31, &mut seen), 31);
    assert!(game.outcome().is_running());
    shuffle_kings(&mut game, 1, &mut seen);
    assert_eq!(game.outcome(), &Outcome::Drawn(EndReason::EndgameLimit));
}

#[test]
fn international_endgame_limit_two_kings_against_one_is_5_moves_each() {
    let mut game = Game::from_fen(International, Options::default(), "W:WK1,K2:BK46").unwrap();
    let mut seen = HashSet::new();
    assert_eq!(shuffle_kings(&mut game, 9, &mut seen), 9);
    assert!(game.outcome().is_running());
    shuffle_kings(&mut game, 1, &mut seen);
    assert_eq!(game.outcome(), &Outcome::Drawn(EndReason::EndgameLimit));
    // King and two men against a king is the 16-move class.
    let mut game = Game::from_fen(International, Options::default(), "W:WK1,33,34:BK46").unwrap();
    assert_eq!(shuffle_kings(&mut game, 12, &mut HashSet::new()), 12);
    assert!(game.outcome().is_running());
}

#[test]
fn mandatory_capture_off_allows_a_quiet_move_instead() {
    // Black man 14 must take 18 and 27 (14x23x32, crowning on 32); Black also has a man on 1 with quiet moves.
    let fen = "B:W18,27:B1,14";
    let on = wires(English, fen);
    assert_eq!(on, ["14x32"]);
    let mut game = Game::from_fen(
        English,
        Options {
            mandatory_capture: false,
        },
        fen,
    )
    .unwrap();
    let off: Vec<String> = Rules::legal_moves(&game).into_iter().map(|v| v.wire).collect();
    assert!(
        off.contains(&"14x32".to_owned())
            && off.contains(&"1-6".to_owned())
            && off.contains(&"14-17".to_owned())
    );
    // A capture once started is completed: the half-way stop 14x23 is not a move.
    assert!(!off.contains(&"14x23".to_owned()));
    assert_eq!(game.play("14x23").unwrap_err().kind, MoveErrorKind::Illegal);
    // A quiet move is accepted, and nothing is huffed: the man that could capture is still there.
    game.play("1-6").unwrap();
    assert_eq!(game.position().to_fen(), "W:W18,27:B6,14");
    // With mandatory capture the quiet move is refused.
    let mut strict = Game::from_fen(English, Options::default(), fen).unwrap();
    assert_eq!(strict.play("1-6").unwrap_err().kind, MoveErrorKind::Illegal);
}

#[test]
fn events_end_the_game_once() {
    for (event, expected) in [
        (
            GameEvent::Resign(Seat::First),
            Some((Seat::Second, EndReason::Resignation)),
        ),
        (
            GameEvent::Timeout(Seat::Second),
            Some((Seat::First, EndReason::Timeout)),
        ),
        (
            GameEvent::Abandon(Seat::First),
            Some((Seat::Second, EndReason::Abandoned)),
        ),
        (GameEvent::DrawAgreed, None),
    ] {
        let mut game = Game::new(Russian, Options::default());
        game.apply(event).unwrap();
        match expected {
            Some((winner, reason)) => {
                assert_eq!(game.outcome().winner(), Some(winner));
                assert_eq!(game.outcome().reason(), Some(reason));
            }
            None => assert_eq!(game.outcome(), &Outcome::Drawn(EndReason::Agreement)),
        }
        assert_eq!(game.apply(GameEvent::DrawAgreed), Err(EventError::GameOver));
        assert_eq!(game.play("22-18").unwrap_err().kind, MoveErrorKind::GameOver);
    }
    let mut game = Game::new(English, Options::default());
    assert_eq!(
        game.apply(GameEvent::Resign(Seat::Third)),
        Err(EventError::NotPlaying(Seat::Third))
    );
    assert!(game.outcome().is_running());
}

#[test]
fn pdn_export_has_the_tags_and_moves() {
    let mut game = Game::new(English, Options::default());
    for wire in ["11-15", "23-19", "8-11", "22-17"] {
        game.play(wire).unwrap();
    }
    game.apply(GameEvent::Resign(Seat::Second)).unwrap();
    let info = parlor_game::ExportInfo {
        event: "Club night".into(),
        date: "2026.11.30".into(),
        players: vec!["Ann".into(), "Bob".into()],
        ..Default::default()
    };
    let pdn = game.export(&info);
    for line in [
        "[GameType \"21,B,8,8,N1,0\"]",
        "[Event \"Club night\"]",
        "[Date \"2026.11.30\"]",
        "[Black \"Ann\"]",
        "[White \"Bob\"]",
        "[Result \"1-0\"]",
        "1. 11-15 23-19 2. 8-11 22-17 1-0",
    ] {
        assert!(pdn.lines().any(|l| l == line), "missing {line} in\n{pdn}");
    }
    assert!(!pdn.contains("[FEN"));
    // International scores 2-0 / 1-1 / 0-2 and a set-up position gets a FEN tag.
    let mut intl = Game::from_fen(International, Options::default(), "B:W40:B1").unwrap();
    intl.apply(GameEvent::DrawAgreed).unwrap();
    let pdn = intl.export(&Default::default());
    assert!(
        pdn.contains("[Result \"1-1\"]") && pdn.contains("[FEN \"B:W40:B1\"]"),
        "{pdn}"
    );
    assert!(pdn.contains("[GameType \"20,W,10,10,N2,0\"]"));
}

#[test]
fn move_views_show_paths_and_captures_on_the_grid() {
    let game = Game::from_fen(English, Options::default(), "B:W6,7,14,15:B2").unwrap();
    let views = Rules::legal_moves(&game);
    let view = views.iter().find(|v| v.wire == "2x11x18").unwrap();
    // 2 = d8, 11 = f6, 18 = d4; captured 7 = e7, 15 = e5.
    use parlor_game::Coord;
    assert_eq!(view.from, Coord::new(3, 7));
    assert_eq!(view.path, [Coord::new(5, 5), Coord::new(3, 3)]);
    assert_eq!(view.to, Coord::new(3, 3));
    assert_eq!(view.captures, [Coord::new(4, 6), Coord::new(4, 4)]);
    // Square 29 is a1 on 8x8 and 46 is a1 on 10x10.
    assert_eq!(parlor_draughts::square_coord(English, 29), Coord::new(0, 0));
    assert_eq!(parlor_draughts::square_coord(International, 46), Coord::new(0, 0));
    assert_eq!(parlor_draughts::square_coord(International, 5), Coord::new(9, 9));
}

#[test]
fn a_game_is_usable_as_any_game() {
    let mut game: parlor_game::AnyGame = Box::new(Game::new(Pool, Options::default()));
    assert_eq!(game.kind(), parlor_game::GameKind::Draughts(Pool));
    assert_eq!(game.seat_count(), 2);
    game.play("11-15").unwrap();
    let copy = game.clone();
    assert_eq!(copy.position_text(), game.position_text());
    assert_eq!(copy.start_text(), Position::start(Pool).to_fen());
    assert_ne!(copy.position_text(), copy.start_text());
    assert_eq!(copy.history().len(), 1);
    assert_eq!(copy.repetition_key(), game.repetition_key());
    assert!(copy.checked_kings().is_empty());
    assert_eq!(copy.points().as_slice(), &[0, 0]);
    assert_eq!(copy.eliminated().as_slice(), &[false, false]);
}

#[test]
fn a_threat_to_take_is_the_opponents_capture_were_it_to_move() {
    let v = DraughtsVariant::International;
    let pos = |fen: &str| Position::from_fen(v, fen).expect("fen");
    // Black's man on 23 could take White's on 28 (landing on 32) were it Black's turn.
    assert!(pos("W:W28,47:B23").opponent_has_capture());
    assert!(pos("B:W28,47:B23").has_capture());
    // With 32 occupied it cannot; nor from the start.
    assert!(!pos("W:W28,32,37:B23").opponent_has_capture());
    assert!(!Position::start(v).opponent_has_capture());
    // Black to move: White's man on 28 threatens nothing of Black's on 12.
    assert!(!pos("B:W28:B12").opponent_has_capture());
}
