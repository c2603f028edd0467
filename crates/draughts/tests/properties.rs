//! Property tests of the rules: random playouts end, every listed move plays, FEN and move notation round-trip,
//! and the fast perft agrees with the generic one.
#![allow(clippy::unwrap_used)]

use parlor_draughts::{DraughtsVariant, Game, Options, Position, perft};
use parlor_game::Rules;
use proptest::prelude::*;

/// A small deterministic generator (xorshift64*), so a failing case replays from its seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

fn variant() -> impl Strategy<Value = DraughtsVariant> {
    prop::sample::select(DraughtsVariant::ALL.to_vec())
}

/// A random position: each square occupied with probability `density` percent, one piece in five a king; men
/// that would stand on their crowning row are made kings.
fn position() -> impl Strategy<Value = Position> {
    let cells = prop::collection::vec(0u8..100, 50);
    (variant(), cells, 10u8..80, any::<bool>()).prop_map(|(variant, cells, density, white)| {
        let squares: u32 = if variant == DraughtsVariant::International {
            50
        } else {
            32
        };
        let row = squares / if squares == 50 { 10 } else { 8 };
        let mut lists = [Vec::new(), Vec::new()];
        for sq in 1..=squares {
            let cell = cells[sq as usize - 1];
            if cell >= density {
                continue;
            }
            let black = cell % 2 == 1;
            let crown_row = if black { sq > squares - row } else { sq <= row };
            let king = cell % 5 == 0 || crown_row;
            lists[usize::from(black)].push(if king { format!("K{sq}") } else { sq.to_string() });
        }
        let turn = if white { 'W' } else { 'B' };
        let fen = format!("{turn}:W{}:B{}", lists[0].join(","), lists[1].join(","));
        Position::from_fen(variant, &fen).unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_end_with_an_outcome_and_every_listed_move_plays(v in variant(), seed in any::<u64>()) {
        let mut rng = Rng(seed | 1);
        let mandatory_capture = rng.below(4) != 0;
        let mut game = Game::new(v, Options { mandatory_capture });
        let mut plies = 0;
        while game.outcome().is_running() {
            prop_assert!(plies < 5000, "{v}: no outcome after {plies} plies");
            let views = Rules::legal_moves(&game);
            prop_assert!(!views.is_empty());
            if plies % 7 == 0 {
                for view in &views {
                    let mut copy = game.clone();
                    let played = copy.play(&view.wire);
                    prop_assert!(played.is_ok(), "{} refused in {}", view.wire, game.position_text());
                    prop_assert_eq!(&played.unwrap().wire, &view.wire);
                }
            }
            let pick = &views[rng.below(views.len())];
            game.play(&pick.wire).unwrap();
            plies += 1;
        }
        prop_assert!(Rules::legal_moves(&game).is_empty());
        prop_assert!(game.export(&Default::default()).trim_end().ends_with(game.outcome().result_str())
            || v == DraughtsVariant::International);
    }

    #[test]
    fn fen_round_trips(pos in position()) {
        let again = Position::from_fen(pos.variant(), &pos.to_fen()).unwrap();
        prop_assert_eq!(again, pos);
        prop_assert_eq!(again.to_fen(), pos.to_fen());
    }

    #[test]
    fn notation_of_every_legal_move_parses_back_to_it(pos in position()) {
        let legal = pos.legal_moves();
        let mut buffer = Vec::new();
        pos.legal_moves_into(&mut buffer);
        prop_assert_eq!(&buffer[..], &legal[..]);
        for &m in legal.iter() {
            let text = pos.move_notation(m);
            prop_assert_eq!(pos.parse_move(&text), Ok(m), "{}", text);
            let path = pos.move_path(m);
            let sep = if m.is_capture() { "x" } else { "-" };
            let full: Vec<String> = path.iter().map(u32::to_string).collect();
            prop_assert_eq!(pos.parse_move(&full.join(sep)), Ok(m));
            let mut child = pos;
            prop_assert!(child.play(m).is_ok());
        }
    }

    #[test]
    fn fast_perft_agrees_with_the_generic_perft(pos in position()) {
        for depth in 1..=3 {
            prop_assert_eq!(perft(&pos, depth), parlor_game::perft(&pos, depth));
        }
    }

    #[test]
    fn fen_parsing_never_panics(text in "[WBK:,0-9 -]{0,40}", v in variant()) {
        let _ = Position::from_fen(v, &text);
    }

    #[test]
    fn move_parsing_never_panics(text in "[0-9x:-]{0,12}", pos in position()) {
        let _ = pos.parse_move(&text);
    }
}
