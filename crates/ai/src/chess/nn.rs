//! A small neural network that corrects the hand-written evaluation ([`super::eval::evaluate`]) in the search of
//! a level whose [`crate::params::LevelParams::network`] is set: hard (the figures are in docs/ai.md).
//!
//! It is the simplest network of the NNUE family (Yu Nasu, 2018; the "768" input layout of most engines since):
//! one input per piece kind and square (768 in all) seen from the side to move, one hidden layer of
//! [`HIDDEN`] clipped-ReLU units, one output in centipawns. It learns the residual: what a teacher's judgement of
//! a position (Stockfish's search, see [`super::tune::label`]) says beyond our evaluation. Being residual, an
//! untrained or zero network leaves the evaluation as it was.
//!
//! The weights are trained by [`crate::nn::train`] (`cargo run --release -p parlor-ai --example nn`), quantised to integers
//! and embedded in the binary from `nn.bin`. On a few hundred thousand positions it learnt the games it saw rather
//! than chess; on millions (`examples/datagen.rs`) the error on positions of other games still falls after ten
//! epochs. The search reaches positions unlike any a good player would, so the built-in network is also trained
//! on side lines of the teacher's games, one or two random moves off them (`datagen`'s `side`), and the search
//! keeps the correction within [`crate::params::NETWORK_MAX`]. Positions labelled in one session do not outlive
//! its machine, so the built-in network is trained on from where it is ([`Trainer::from_net`]) with each
//! session's fresh positions: what it learnt before stays in its weights. Stockfish's depth-5 scores favour the
//! side to move (the last ply of an odd depth is its move), and the network learnt that too: about 85 cp for the
//! side to move whatever the position, which the search takes off ([`crate::params::NETWORK_TEMPO`]).
//! The search keeps the first layer's sums of each position of its line
//! ([`Accumulator`]) and updates them move by move ([`Net::update`]: two to four rows per point of view instead
//! of about thirty), which took the network's cost in speed from about 18% of the nodes per second to about 8%.

use super::changes::for_each_change;
pub use crate::nn::{Example, LEARNING_RATE, NetError, TrainOptions, train};
use shakmaty::{Chess, Color, Move, Position as _, Role, Square};
use std::sync::LazyLock;

/// Inputs: (ours or theirs) x role x square, the board flipped when Black is to move.
pub const INPUTS: usize = 768;
/// Hidden units.
pub const HIDDEN: usize = 128;
/// The clip of the first layer's weights: 32 pieces and a bias stay within 16 bits.
pub const CLIP: f32 = 3.9;

/// The chess network.
pub type Net = crate::nn::Net<INPUTS, HIDDEN>;
/// The chess network as it trains.
pub type Trainer = crate::nn::Trainer<INPUTS, HIDDEN>;

impl Net {
    /// The correction, in centipawns for the side to move.
    pub fn correction(&self, pos: &Chess) -> i32 {
        let mut inputs = [0u16; 32];
        let n = inputs_of(pos, &mut inputs);
        self.correction_of_inputs(&inputs[..n])
    }

    /// The first layer's sums of `pos` from both points of view, from scratch.
    pub fn accumulate(&self, pos: &Chess) -> Accumulator {
        let mut acc = Accumulator {
            views: [self.biases; 2],
        };
        for (sq, piece) in pos.board().iter() {
            for view in [Color::White, Color::Black] {
                self.add(
                    &mut acc.views[view as usize],
                    input(view, piece.color, piece.role, sq),
                );
            }
        }
        acc
    }

    /// The sums after `m` is played in `pos`, from the sums of `pos`: the rows of the pieces that move, are
    /// taken or promote, out and in (two to four per point of view instead of about thirty).
    pub fn update(&self, acc: &Accumulator, pos: &Chess, m: Move) -> Accumulator {
        let mut next = *acc;
        self.update_into(acc, &mut next, pos, m);
        next
    }

    /// [`Net::update`] written into `next` (a search's sums of the next ply): one pass over the sums per view,
    /// adding the rows of the pieces put and subtracting those of the pieces taken off (the sums wrap, so the
    /// order does not matter).
    #[inline]
    pub fn update_into(&self, acc: &Accumulator, next: &mut Accumulator, pos: &Chess, m: Move) {
        // At most two pieces put (castling) and two taken off (castling, captures).
        let (mut put, mut taken) = (
            [(Color::White, Role::Pawn, Square::A1); 2],
            [(Color::White, Role::Pawn, Square::A1); 2],
        );
        let (mut puts, mut takes) = (0, 0);
        let incremental = for_each_change(pos, m, |piece, square, on| {
            let change = (piece.color, piece.role, square);
            if on {
                put[puts] = change;
                puts += 1;
            } else {
                taken[takes] = change;
                takes += 1;
            }
        });
        if !incremental {
            let mut after = pos.clone();
            after.play_unchecked(m);
            *next = self.accumulate(&after);
            return;
        }
        for view in [Color::White, Color::Black] {
            let row =
                |&(color, role, square): &(Color, Role, Square)| self.row(input(view, color, role, square));
            let (from, to) = (&acc.views[view as usize], &mut next.views[view as usize]);
            match (&put[..puts], &taken[..takes]) {
                ([a], [s]) => {
                    for (((t, f), a), s) in to.iter_mut().zip(from).zip(row(a)).zip(row(s)) {
                        *t = f.wrapping_add(*a).wrapping_sub(*s);
                    }
                }
                ([a], [s, u]) => {
                    for ((((t, f), a), s), u) in to.iter_mut().zip(from).zip(row(a)).zip(row(s)).zip(row(u)) {
                        *t = f.wrapping_add(*a).wrapping_sub(*s).wrapping_sub(*u);
                    }
                }
                (adds, subs) => {
                    *to = *from;
                    for &(color, role, square) in adds {
                        self.add(to, input(view, color, role, square));
                    }
                    for &(color, role, square) in subs {
                        self.sub(to, input(view, color, role, square));
                    }
                }
            }
        }
    }

    /// The correction, in centipawns for the side to move, from the sums of the position.
    #[inline]
    pub fn correction_of(&self, acc: &Accumulator, turn: Color) -> i32 {
        self.output(&acc.views[turn as usize])
    }
}

/// The first layer's sums of a position seen from each side (`views[Color as usize]`: that side to move), so that
/// a move updates them instead of summing every piece again (the "efficiently updatable" of NNUE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    views: [[i16; HIDDEN]; 2],
}

/// The input of a piece on a square seen by the side `view` to move.
#[inline]
fn input(view: Color, color: Color, role: Role, sq: Square) -> usize {
    let side = usize::from(color != view);
    let square = if view == Color::White {
        sq as usize
    } else {
        sq as usize ^ 56
    };
    side * 384 + (role as usize - 1) * 64 + square
}

/// The network built into this binary.
static NET: LazyLock<Option<Net>> = LazyLock::new(|| Net::from_bytes(include_bytes!("nn.bin")).ok());

/// The built-in network's correction of the evaluation of `pos`, in centipawns for the side to move (0 if the
/// built-in file were unreadable, which a test rules out).
pub fn correction(pos: &Chess) -> i32 {
    NET.as_ref().map_or(0, |net| net.correction(pos))
}

/// The built-in network's sums of `pos` (see [`Net::accumulate`]; zero if the file were unreadable).
pub fn accumulate(pos: &Chess) -> Accumulator {
    NET.as_ref().map_or(
        Accumulator {
            views: [[0; HIDDEN]; 2],
        },
        |net| net.accumulate(pos),
    )
}

/// The built-in network's sums after `m` in `pos` (see [`Net::update`]).
pub fn update(acc: &Accumulator, pos: &Chess, m: Move) -> Accumulator {
    NET.as_ref().map_or(*acc, |net| net.update(acc, pos, m))
}

/// [`update`] written into `next`.
#[inline]
pub fn update_into(acc: &Accumulator, next: &mut Accumulator, pos: &Chess, m: Move) {
    match NET.as_ref() {
        Some(net) => net.update_into(acc, next, pos, m),
        None => *next = *acc,
    }
}

/// The built-in network's correction from the sums of a position with `turn` to move.
pub fn correction_of(acc: &Accumulator, turn: Color) -> i32 {
    NET.as_ref().map_or(0, |net| net.correction_of(acc, turn))
}

/// Writes the inputs that are on in `pos` (at most 32) and returns how many.
pub fn inputs_of(pos: &Chess, out: &mut [u16; 32]) -> usize {
    let board = pos.board();
    let us = pos.turn();
    let mut n = 0;
    for (sq, piece) in board.iter() {
        if n == out.len() {
            break;
        }
        out[n] = input(us, piece.color, piece.role, sq) as u16;
        n += 1;
    }
    n
}

/// An example from a `fen;expected score for White` line (the format of [`super::tune::to_text`]).
pub fn example(line: &str) -> Option<Example> {
    let (fen, result) = line.split_once(';')?;
    let white: f32 = result.trim().parse().ok()?;
    let pos = parlor_chess::Position::from_fen(fen).ok()?.0;
    let mut inputs = [0; 32];
    let len = inputs_of(&pos, &mut inputs);
    let target = if pos.turn() == Color::White {
        white
    } else {
        1.0 - white
    };
    Some(Example::new(
        &inputs[..len],
        super::eval::evaluate(&pos) as f32,
        target,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::eval::tests::mirror;
    use crate::rng::Rng;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    #[test]
    fn sums_updated_move_by_move_equal_sums_from_scratch() {
        let mut rng = crate::rng::Rng::new(3);
        let (mut castles, mut en_passant, mut promotions) = (0, 0, 0);
        for _ in 0..120 {
            let mut pos = Chess::default();
            let mut acc = accumulate(&pos);
            for _ in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Castling, en passant and promotion when there are any, so that every kind of move is seen.
                let special = moves
                    .iter()
                    .find(|m| m.is_castle() || m.is_en_passant() || m.is_promotion());
                let m = match special {
                    Some(&m) if rng.below(2) == 0 => m,
                    _ => moves[rng.below(moves.len() as u64) as usize],
                };
                castles += usize::from(m.is_castle());
                en_passant += usize::from(m.is_en_passant());
                promotions += usize::from(m.is_promotion());
                acc = update(&acc, &pos, m);
                pos.play_unchecked(m);
                assert_eq!(acc, accumulate(&pos), "{m:?}");
                assert_eq!(correction_of(&acc, pos.turn()), correction(&pos));
            }
        }
        assert!(
            castles > 50 && en_passant > 20 && promotions > 50,
            "{castles} {en_passant} {promotions}"
        );
    }

    #[test]
    fn the_built_in_network_reads_and_writes_back_unchanged() {
        let bytes = include_bytes!("nn.bin");
        let net = Net::from_bytes(bytes).expect("the built-in network");
        assert_eq!(net.to_bytes(), bytes.to_vec());
        assert_eq!(
            Net::from_bytes(&bytes[1..]).expect_err("no magic"),
            NetError::Magic
        );
        assert!(matches!(
            Net::from_bytes(&bytes[..bytes.len() - 2]),
            Err(NetError::Length(..))
        ));
        assert!(matches!(
            Net::from_bytes(&bytes[..6]),
            Err(NetError::Length(6, _))
        ));
    }

    #[test]
    fn a_position_and_its_colour_mirror_get_the_same_correction() {
        let fen = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5";
        let a = pos(fen);
        let b = pos(&mirror(fen));
        assert_eq!(pos(&mirror(&mirror(fen))).board(), a.board());
        assert_eq!(correction(&a), correction(&b));
        assert_ne!(correction(&a), correction(&pos(&fen.replace(" w ", " b "))));
        let mut inputs = [0; 32];
        assert_eq!(inputs_of(&a, &mut inputs), 32);
    }

    #[test]
    fn the_quantised_network_computes_what_the_trainer_computes() {
        let mut net = Trainer::new(0.005, 3);
        let mut rng = Rng::new(5);
        for o in &mut net.out {
            *o = rng.below(2001) as f32 / 1000.0 - 1.0;
        }
        let q = net.quantise(CLIP);
        for fen in [
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5",
            "8/5pk1/6p1/8/3R4/6P1/5PK1/1r6 b - - 0 40",
        ] {
            let e = example(&format!("{fen};0.5")).expect("example");
            let mut hidden = [0.0; HIDDEN];
            let float = net.forward(&e, &mut hidden) - e.base();
            let int = q.correction(&pos(fen));
            assert!(
                (float - int as f32).abs() <= 2.0 + float.abs() / 50.0,
                "{float} {int}"
            );
        }
    }

    #[test]
    fn a_trainer_started_from_the_built_in_network_computes_what_the_engine_computes() {
        let net = NET.as_ref().expect("built-in network");
        let trainer = Trainer::from_net(net, 0.005);
        assert_eq!(trainer.quantise(CLIP).to_bytes(), net.to_bytes());
        for fen in [
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5",
            "2r2rk1/pp1bqppp/2n1pn2/3p4/2PP4/1PN1PN2/P2BQPPP/2R2RK1 w - - 0 13",
            "8/5pk1/6p1/8/3R4/6P1/5PK1/1r6 b - - 0 40",
        ] {
            let e = example(&format!("{fen};0.5")).expect("example");
            let mut hidden = [0.0; HIDDEN];
            let float = trainer.forward(&e, &mut hidden) - e.base();
            let int = net.correction(&pos(fen));
            assert!((float - int as f32).abs() <= 1.0, "{fen}: {float} {int}");
        }
    }

    /// What the built-in network adds for the side to move whatever the position (half of the correction of a
    /// position plus that of the same board with the other side to move, on average), less what
    /// [`crate::params::NETWORK_TEMPO`] takes off, leaves the side to move a bonus of 0 to 30 cp: a network
    /// trained on other labels must come with its own value.
    #[test]
    fn the_network_tempo_is_what_the_engine_takes_off() {
        let mut rng = crate::rng::Rng::new(8);
        let (mut sum, mut n) = (0i64, 0i64);
        for _ in 0..400 {
            let mut p = Chess::default();
            let plies = 8 + rng.below(40);
            for _ in 0..plies {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
            }
            if p.is_check() {
                continue;
            }
            let Ok(other) = p.clone().swap_turn() else {
                continue;
            };
            let (a, b) = (correction(&p), correction(&other));
            let max = crate::params::NETWORK_MAX;
            sum += i64::from(a.clamp(-max, max) + b.clamp(-max, max));
            n += 2;
        }
        let tempo = (sum / n.max(1)) as i32;
        assert!(n > 500, "{n}");
        assert!(
            (0..=30).contains(&(tempo - crate::params::NETWORK_TEMPO)),
            "the network gives the side to move {tempo} cp, NETWORK_TEMPO takes off {}",
            crate::params::NETWORK_TEMPO
        );
    }
}
