//! The rules of docs/rules/chess4.md where they meet: a mate and a check by one move, the check bonus of promoted
//! queens, castling, en passant and promotion by capture for every army, and the fifty-move rule after a player
//! has gone out. Each from a FEN4 position where the rule bites.
#![allow(clippy::unwrap_used)]

mod common;

use common::{fen4, play, points, with_kings};
use parlor_chess4::{Game, Role, Square};
use parlor_game::{EndReason, GameEvent, Outcome, Rules, Seat};

const LIVE: [u8; 4] = [0, 0, 0, 0];

fn game(turn: char, dead: [u8; 4], halfmove: u32, pieces: &[(&'static str, &'static str)]) -> Game {
    let text = fen4(turn, dead, [0; 4], halfmove, pieces);
    Game::from_fen4(&text, None).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Which army's piece stands on a square (`None` for grey or empty), and its role.
fn at(g: &Game, sq: &str) -> Option<(Option<Seat>, Role)> {
    g.position()
        .piece_at(Square::parse(sq).unwrap())
        .map(|p| (p.owner, p.role))
}

/// Re3-e7 closes rank 7 on Blue's king (a7, boxed in by its own pawns) and opens it to Green's king on n7:
/// a mate and a check by one move, 20 + 5.
#[test]
fn a_move_that_mates_one_king_and_checks_another_scores_20_plus_5() {
    let mut g = game(
        'R',
        LIVE,
        0,
        &[
            ("h1", "rK"),
            ("a7", "bK"),
            ("a6", "bP"),
            ("a8", "bP"),
            ("b6", "bP"),
            ("b8", "bP"),
            ("g14", "yK"),
            ("n7", "gK"),
            ("e3", "rR"),
        ],
    );
    play(&mut g, &["Re3-e7"]);
    assert!(g.eliminated()[Seat::Second], "Blue is mated");
    assert!(g.position().is_check(Seat::Fourth), "Green is in check");
    assert!(!g.eliminated()[Seat::Fourth], "Green can step away");
    assert_eq!(points(&g), [25, 0, 0, 0]);
}

/// Blue king d9, Green king k9 on rank 9, Yellow king on g13 (on the g-file) or j13 (off it); a piece reaching g9
/// from h8 sees none of them before the move.
fn kings_around_g9(yellow_on_file: bool, movers: &[(&'static str, &'static str)]) -> Game {
    let yellow = if yellow_on_file { "g13" } else { "j13" };
    let mut pieces = vec![("h1", "rK"), ("d9", "bK"), (yellow, "yK"), ("k9", "gK")];
    pieces.extend_from_slice(movers);
    game('R', LIVE, 0, &pieces)
}

#[test]
fn a_promoted_queen_checks_like_a_queen_1_for_two_kings_5_for_three() {
    let mut two = kings_around_g9(false, &[("h8", "rD")]);
    play(&mut two, &["Dh8-g9"]);
    assert_eq!(points(&two), [1, 0, 0, 0]);

    let mut three = kings_around_g9(true, &[("h8", "rD")]);
    play(&mut three, &["Dh8-g9"]);
    assert_eq!(points(&three), [5, 0, 0, 0]);
}

/// Ng8-f10 checks Blue's king on d9 and opens the promoted queen's g-file to Yellow's king on g13: a piece that is
/// not a queen takes part, so the full bonus applies.
#[test]
fn a_promoted_queen_and_a_knight_together_score_the_full_5() {
    let mut g = game(
        'R',
        LIVE,
        0,
        &[
            ("h1", "rK"),
            ("d9", "bK"),
            ("g13", "yK"),
            ("n6", "gK"),
            ("g5", "rD"),
            ("g8", "rN"),
        ],
    );
    play(&mut g, &["Ng8-f10"]);
    assert!(g.position().is_check(Seat::Second) && g.position().is_check(Seat::Third));
    assert_eq!(points(&g), [5, 0, 0, 0]);
}

/// Every army castles both ways from a position with all castling rights: the king and rook land where the rules'
/// table says.
#[test]
fn every_army_castles_both_ways_as_the_table_says() {
    // Kings and rooks on their home squares, nothing between them, every right.
    let pieces = [
        ("h1", "rK"),
        ("d1", "rR"),
        ("k1", "rR"),
        ("a7", "bK"),
        ("a4", "bR"),
        ("a11", "bR"),
        ("g14", "yK"),
        ("d14", "yR"),
        ("k14", "yR"),
        ("n8", "gK"),
        ("n4", "gR"),
        ("n11", "gR"),
    ];
    let cases = [
        (Seat::First, 'R', [("j1", "i1"), ("f1", "g1")]),
        (Seat::Second, 'B', [("a5", "a6"), ("a9", "a8")]),
        (Seat::Third, 'Y', [("e14", "f14"), ("i14", "h14")]),
        (Seat::Fourth, 'G', [("n10", "n9"), ("n6", "n7")]),
    ];
    for (seat, turn, sides) in cases {
        let mut fields: Vec<String> = fen4(turn, LIVE, [0; 4], 0, &pieces)
            .split('-')
            .map(String::from)
            .collect();
        fields[2] = "1,1,1,1".to_owned();
        fields[3] = "1,1,1,1".to_owned();
        let text = fields.join("-");
        for (wire, (king, rook)) in ["O-O", "O-O-O"].into_iter().zip(sides) {
            let mut g = Game::from_fen4(&text, None).unwrap_or_else(|e| panic!("{e}: {text}"));
            play(&mut g, &[wire]);
            assert_eq!(
                at(&g, king),
                Some((Some(seat), Role::King)),
                "{seat:?} {wire} king"
            );
            assert_eq!(
                at(&g, rook),
                Some((Some(seat), Role::Rook)),
                "{seat:?} {wire} rook"
            );
            assert!(!g.position().can_castle(seat, true) && !g.position().can_castle(seat, false));
            let other = Seat::ALL[(Seat::ALL.iter().position(|s| *s == seat).unwrap() + 2) % 4];
            assert!(
                g.position().can_castle(other, true),
                "the seat opposite keeps its rights"
            );
        }
    }
}

/// Each army's double step can be taken en passant by the next army whose pawn stands beside it, on that army's
/// first turn after the step; the captured pawn scores 1.
#[test]
fn every_army_takes_and_is_taken_en_passant() {
    // (mover, its double step, the next army's pawn beside the landing square, the capture, the passed square,
    //  the captured pawn's square, the seats that pass in between with a king move each)
    type Case = (
        char,
        &'static str,
        (&'static str, &'static str),
        &'static str,
        &'static str,
        &'static str,
        &'static [&'static str],
    );
    let cases: [Case; 4] = [
        // Red's k2-k4 taken by Green's pawn on l4 (Green moves l -> k).
        (
            'R',
            "k2-k4",
            ("l4", "gP"),
            "l4xk3",
            "k3",
            "k4",
            &["Ka7-a6", "Kg14-g13"],
        ),
        // Blue's b5-d5 taken by Red's pawn on d4 (Red moves up: d4xc5).
        (
            'B',
            "b5-d5",
            ("d4", "rP"),
            "d4xc5",
            "c5",
            "d5",
            &["Kg14-g13", "Kn8-n9"],
        ),
        // Yellow's e13-e11 taken by Blue's pawn on d11 (Blue moves right: d11xe12).
        (
            'Y',
            "e13-e11",
            ("d11", "bP"),
            "d11xe12",
            "e12",
            "e11",
            &["Kn8-n9", "Kh1-h2"],
        ),
        // Green's m10-k10 taken by Yellow's pawn on k11 (Yellow moves down: k11xl10).
        (
            'G',
            "m10-k10",
            ("k11", "yP"),
            "k11xl10",
            "l10",
            "k10",
            &["Kh1-h2", "Ka7-a6"],
        ),
    ];
    for (turn, step, beside, capture, passed, victim, between) in cases {
        let pawn: &'static str = match turn {
            'R' => "rP",
            'B' => "bP",
            'Y' => "yP",
            _ => "gP",
        };
        let from = step.split('-').next().unwrap();
        let mut g = game(turn, LIVE, 0, &with_kings(&[(from, pawn), beside]));
        play(&mut g, &[step]);
        play(&mut g, between);
        let legal = g.legal_moves();
        let ep = legal.iter().find(|m| m.wire == capture).unwrap_or_else(|| {
            panic!(
                "{capture} not among {:?}",
                legal.iter().map(|m| &m.wire).collect::<Vec<_>>()
            )
        });
        assert_eq!(
            ep.captures,
            vec![Square::parse(victim).unwrap().to_coord()],
            "{capture}"
        );
        let mover = g.turn().unwrap();
        play(&mut g, &[capture]);
        assert_eq!(at(&g, victim), None, "{capture}: the pawn that stepped is gone");
        assert_eq!(at(&g, passed).map(|p| p.1), Some(Role::Pawn), "{capture}");
        assert_eq!(g.points()[mover], 1, "{capture}");
    }
}

/// A pawn that captures onto its promotion line becomes a promoted queen, for every army, and scores the capture.
#[test]
fn promotion_by_capture_for_every_army() {
    // Red promotes on rank 8, Blue on file h, Yellow on rank 7, Green on file g; each takes a knight (3).
    let cases = [
        ('R', ("e7", "rP"), ("f8", "yN"), "e7xf8=Q", "f8"),
        ('B', ("g6", "bP"), ("h7", "gN"), "g6xh7=Q", "h7"),
        ('Y', ("j8", "yP"), ("i7", "rN"), "j8xi7=Q", "i7"),
        ('G', ("h9", "gP"), ("g10", "bN"), "h9xg10=Q", "g10"),
    ];
    for (turn, pawn, victim, wire, sq) in cases {
        let mut g = game(turn, LIVE, 0, &with_kings(&[pawn, victim]));
        let mover = g.turn().unwrap();
        play(&mut g, &[wire]);
        assert_eq!(at(&g, sq), Some((Some(mover), Role::PromotedQueen)), "{wire}");
        assert_eq!(g.points()[mover], 3, "{wire}");
    }
}

/// The fifty-move rule after Blue goes out still asks fifty quiet moves of each player still in: from a clock of
/// 160 plies (40 quiet moves each), the three left need ten more each, and the game ends with the tenth of the
/// last of them, not before.
#[test]
fn the_fifty_move_rule_after_an_elimination_counts_each_remaining_players_own_moves() {
    let mut g = game(
        'R',
        LIVE,
        160,
        &[("h1", "rK"), ("a7", "bK"), ("g14", "yK"), ("n8", "gK")],
    );
    g.apply(GameEvent::Resign(Seat::Second)).unwrap();
    assert!(g.outcome().is_running(), "going out does not shorten the count");
    // Kings that never come back to a square, so no position repeats.
    let red = ["h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9", "h10", "h11"];
    let yellow = [
        "g14", "f14", "e14", "d14", "d13", "e13", "f13", "g13", "h13", "i13", "j13",
    ];
    let green = [
        "n8", "n9", "n10", "n11", "m11", "m10", "m9", "m8", "m7", "m6", "m5",
    ];
    let step = |path: &[&str; 11], i: usize| format!("K{}-{}", path[i], path[i + 1]);
    for i in 0..9 {
        play(&mut g, &[&step(&red, i), &step(&yellow, i), &step(&green, i)]);
    }
    play(&mut g, &[&step(&red, 9), &step(&yellow, 9)]);
    assert!(g.outcome().is_running(), "Green has made only 49");
    play(&mut g, &[&step(&green, 9)]);
    match g.outcome() {
        Outcome::Decided(d) => assert_eq!(d.reason, EndReason::FiftyMove),
        other => panic!("{other:?}"),
    }
    assert_eq!(points(&g), [10, 0, 10, 10]);
}
