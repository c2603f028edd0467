//! The networks that correct the draughts evaluation ([`super::eval::evaluate`]) in the search of a level whose
//! [`crate::params::LevelParams::network`] is set (hard): the network of [`crate::nn`] over the inputs "a man or a
//! king, ours or theirs, on this square" (200 on the 50 squares of International, 128 on the 32 of the 8x8
//! variants), the board turned when Black is to move, so the side to move always plays up the board. Each learns
//! the residual between our evaluation and a teacher's judgement of quiet positions:
//!
//! - International: Scan 2.0's scores from its own games at 10 ms a move, as `examples/draughts_datagen.rs`
//!   writes them (what an engine says a position is worth is a fact; nothing of its program is in ours);
//! - English, Russian and Pool: our own engine's scores at a fixed depth in games of hard against itself
//!   (`examples/draughts_selfplay.rs`): the evaluation learns what a deeper search finds.
//!
//! Trained by `examples/nn.rs` (its header says how to pick the game); embedded from `nn.bin`, `nn-english.bin`,
//! `nn-russian.bin` and `nn-pool.bin`.

pub use crate::nn::Example;
use parlor_draughts::{Color, DraughtsVariant, Position};
use std::sync::LazyLock;

/// International inputs: (ours or theirs) x (man or king) x 50 squares.
pub const INPUTS: usize = 200;
/// 8x8 inputs: (ours or theirs) x (man or king) x 32 squares.
pub const INPUTS_8X8: usize = 128;
/// Hidden units.
pub const HIDDEN: usize = 64;
/// The clip of the first layer's weights: 40 pieces and a bias stay within 16 bits.
pub const CLIP: f32 = 3.0;
/// The logistic scale of a teacher's score, hundredths of a man: one man ahead expects 66% of the points.
pub const TEACHER_SCALE: f32 = 150.0;

/// The International draughts network.
pub type Net = crate::nn::Net<INPUTS, HIDDEN>;
/// The International network as it trains.
pub type Trainer = crate::nn::Trainer<INPUTS, HIDDEN>;
/// An 8x8 variant's network.
pub type Net8 = crate::nn::Net<INPUTS_8X8, HIDDEN>;

/// The 0-based square of each bit of [`Position::bitboards`] on a board whose pairs of rows take `stride` bits
/// (11 on the 10x10 board, 9 on the 8x8): square `s` is bit `s + s / (stride - 1)`, one bit left empty after
/// every second row.
const fn squares_of_bits(stride: usize) -> [u8; 64] {
    let mut table = [0u8; 64];
    let mut bit = 0;
    while bit < 64 {
        table[bit] = (bit - bit / stride) as u8;
        bit += 1;
    }
    table
}

/// [`squares_of_bits`] of the 10x10 board.
const SQUARE_OF_BIT_10: [u8; 64] = squares_of_bits(11);
/// [`squares_of_bits`] of the 8x8 board.
const SQUARE_OF_BIT_8: [u8; 64] = squares_of_bits(9);

/// The input of a piece of `color` (a king or a man) on board bit `bit`, seen by the side `view` to move, for a
/// network of `I` inputs (a quarter of them squares: 50 or 32).
#[inline]
fn input<const I: usize>(view: Color, color: Color, king: bool, bit: u32) -> usize {
    let squares = I / 4;
    let table = if squares == 50 {
        &SQUARE_OF_BIT_10
    } else {
        &SQUARE_OF_BIT_8
    };
    let s = usize::from(table[bit as usize & 63]);
    let square = if view == Color::White { s } else { squares - 1 - s };
    (2 * usize::from(color != view) + usize::from(king)) * squares + square
}

/// Calls `f` with the colour, kind and bit of each piece of the bitboards `[white, black, kings]` within `mask`.
#[inline]
fn each_piece(boards: [u64; 3], mask: u64, mut f: impl FnMut(Color, bool, u32)) {
    for color in [Color::White, Color::Black] {
        let mut bb = boards[color as usize] & mask;
        while bb != 0 {
            let bit = bb.trailing_zeros();
            f(color, boards[2] & (1 << bit) != 0, bit);
            bb &= bb - 1;
        }
    }
}

/// Writes the inputs of a network of `I` inputs that are on in `pos` (a position of that network's board; at most
/// 40) and returns how many.
pub fn inputs_of<const I: usize>(pos: &Position, out: &mut [u16; crate::nn::MAX_ON]) -> usize {
    let us = pos.side_to_move();
    let mut n = 0;
    each_piece(pos.bitboards(), u64::MAX, |color, king, bit| {
        if n < out.len() {
            out[n] = input::<I>(us, color, king, bit) as u16;
            n += 1;
        }
    });
    n
}

/// The first layer's sums of a position seen from each side (`views[Color as usize]`: that side to move), so that
/// a move updates them instead of summing every piece again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    views: [[i16; HIDDEN]; 2],
}

impl<const I: usize> crate::nn::Net<I, HIDDEN> {
    /// The correction, in hundredths of a man for the side to move.
    pub fn correction(&self, pos: &Position) -> i32 {
        let mut inputs = [0u16; crate::nn::MAX_ON];
        let n = inputs_of::<I>(pos, &mut inputs);
        self.correction_of_inputs(&inputs[..n])
    }

    /// The first layer's sums of `pos` from both points of view, from scratch.
    pub fn accumulate(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            views: [self.biases; 2],
        };
        each_piece(pos.bitboards(), u64::MAX, |color, king, bit| {
            for view in [Color::White, Color::Black] {
                self.add(&mut acc.views[view as usize], input::<I>(view, color, king, bit));
            }
        });
        acc
    }

    /// The sums of `after` (the position after one move from `before`) from the sums `acc` of `before`: the rows
    /// of the pieces that left a square or changed kind out, those that arrived or changed kind in.
    pub fn update_into(
        &self,
        acc: &Accumulator,
        next: &mut Accumulator,
        before: &Position,
        after: &Position,
    ) {
        let (old, new) = (before.bitboards(), after.bitboards());
        let occupied = |b: [u64; 3]| b[0] | b[1];
        // A piece changed where the colour or the kind of its square changed.
        let changed =
            (old[0] ^ new[0]) | (old[1] ^ new[1]) | ((old[2] ^ new[2]) & occupied(old) & occupied(new));
        *next = *acc;
        for view in [Color::White, Color::Black] {
            let sums = &mut next.views[view as usize];
            each_piece(old, changed, |color, king, bit| {
                self.sub(sums, input::<I>(view, color, king, bit))
            });
            each_piece(new, changed, |color, king, bit| {
                self.add(sums, input::<I>(view, color, king, bit))
            });
        }
    }

    /// The correction, in hundredths of a man for the side to move, from the sums of the position.
    #[inline]
    pub fn correction_of(&self, acc: &Accumulator, turn: Color) -> i32 {
        self.output(&acc.views[turn as usize])
    }
}

/// The International network built into this binary.
static NET: LazyLock<Option<Net>> = LazyLock::new(|| Net::from_bytes(include_bytes!("nn.bin")).ok());
/// The English network built into this binary.
static ENGLISH: LazyLock<Option<Net8>> =
    LazyLock::new(|| Net8::from_bytes(include_bytes!("nn-english.bin")).ok());
/// The Russian network built into this binary.
static RUSSIAN: LazyLock<Option<Net8>> =
    LazyLock::new(|| Net8::from_bytes(include_bytes!("nn-russian.bin")).ok());
/// The Pool network built into this binary.
static POOL: LazyLock<Option<Net8>> = LazyLock::new(|| Net8::from_bytes(include_bytes!("nn-pool.bin")).ok());

/// A variant's built-in network, as a search uses it.
#[derive(Clone, Copy, Debug)]
pub enum Network {
    /// International's.
    Ten(&'static Net),
    /// An 8x8 variant's.
    Eight(&'static Net8),
}

impl Network {
    /// The network built into this binary for `variant`, if it has one (and its file is readable, which a test
    /// checks).
    pub fn built_in(variant: DraughtsVariant) -> Option<Network> {
        match variant {
            DraughtsVariant::International => NET.as_ref().map(Network::Ten),
            DraughtsVariant::English => ENGLISH.as_ref().map(Network::Eight),
            DraughtsVariant::Russian => RUSSIAN.as_ref().map(Network::Eight),
            DraughtsVariant::Pool => POOL.as_ref().map(Network::Eight),
        }
    }

    /// The correction of the evaluation of `pos`, in hundredths of a man for the side to move.
    pub fn correction(self, pos: &Position) -> i32 {
        match self {
            Network::Ten(net) => net.correction(pos),
            Network::Eight(net) => net.correction(pos),
        }
    }

    /// The sums of `pos` (see [`crate::nn::Net::accumulate`]).
    pub fn accumulate(self, pos: &Position) -> Accumulator {
        match self {
            Network::Ten(net) => net.accumulate(pos),
            Network::Eight(net) => net.accumulate(pos),
        }
    }

    /// The sums after a move (see [`crate::nn::Net::update_into`]).
    #[inline]
    pub fn update_into(self, acc: &Accumulator, next: &mut Accumulator, before: &Position, after: &Position) {
        match self {
            Network::Ten(net) => net.update_into(acc, next, before, after),
            Network::Eight(net) => net.update_into(acc, next, before, after),
        }
    }

    /// The correction from the sums of a position with `turn` to move.
    #[inline]
    pub fn correction_of(self, acc: &Accumulator, turn: Color) -> i32 {
        match self {
            Network::Ten(net) => net.correction_of(acc, turn),
            Network::Eight(net) => net.correction_of(acc, turn),
        }
    }
}

/// An example from a `fen;score` line: a position of `variant` and the teacher's score of it, in hundredths of a
/// man for the side to move.
pub fn example(variant: DraughtsVariant, line: &str) -> Option<Example> {
    let (fen, score) = line.split_once(';')?;
    let score: f32 = score.trim().parse().ok()?;
    let pos = Position::from_fen(variant, fen).ok()?;
    let mut inputs = [0u16; crate::nn::MAX_ON];
    let n = if variant == DraughtsVariant::International {
        inputs_of::<INPUTS>(&pos, &mut inputs)
    } else {
        inputs_of::<INPUTS_8X8>(&pos, &mut inputs)
    };
    let geo = GEOMETRIES.iter().find(|g| g.variant == variant)?;
    let base = super::eval::evaluate(&pos, geo) as f32;
    let target = 1.0 / (1.0 + (-score / TEACHER_SCALE).exp());
    Some(Example::new(&inputs[..n], base, target))
}

/// Each variant's geometry.
static GEOMETRIES: LazyLock<[super::eval::Geometry; 4]> =
    LazyLock::new(|| DraughtsVariant::ALL.map(super::eval::Geometry::new));

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The built-in network's correction of the evaluation of `pos`.
    fn correction(pos: &Position) -> i32 {
        Network::built_in(pos.variant())
            .expect("a built-in network")
            .correction(pos)
    }

    #[test]
    fn the_built_in_networks_read_and_write_back_unchanged() {
        let bytes = include_bytes!("nn.bin");
        let net = Net::from_bytes(bytes).expect("the International network");
        assert_eq!(net.to_bytes(), bytes.to_vec());
        let eight: [&[u8]; 3] = [
            include_bytes!("nn-english.bin"),
            include_bytes!("nn-russian.bin"),
            include_bytes!("nn-pool.bin"),
        ];
        for bytes in eight {
            let net = Net8::from_bytes(bytes).expect("an 8x8 network");
            assert_eq!(net.to_bytes(), bytes.to_vec());
        }
        for variant in DraughtsVariant::ALL {
            assert!(Network::built_in(variant).is_some(), "{variant:?}");
        }
    }

    /// An International position, White to move, and the same position turned round with the colours swapped,
    /// Black to move: every evaluation from the side to move's point of view must give both the same.
    pub(crate) fn colour_mirrors() -> (Position, Position) {
        let white = Position::from_fen(
            DraughtsVariant::International,
            "W:W27,31,32,33,K45:B7,12,13,18,19",
        )
        .expect("fen");
        let black = Position::from_fen(
            DraughtsVariant::International,
            "B:W32,33,38,39,44:B18,19,20,24,K6",
        )
        .expect("fen");
        (white, black)
    }

    #[test]
    fn a_position_and_its_colour_mirror_get_the_same_correction() {
        let (white, black) = colour_mirrors();
        assert_eq!(correction(&white), correction(&black));
        let mut inputs = [0; crate::nn::MAX_ON];
        assert_eq!(inputs_of::<INPUTS>(&white, &mut inputs), 10);
        let start = Position::start(DraughtsVariant::International);
        assert_eq!(inputs_of::<INPUTS>(&start, &mut inputs), 40);
        // The 8x8 boards: square n turned round is 33 - n.
        for variant in [
            DraughtsVariant::English,
            DraughtsVariant::Russian,
            DraughtsVariant::Pool,
        ] {
            let white = Position::from_fen(variant, "W:W18,21,22,K30:B5,9,10").expect("fen");
            let black = Position::from_fen(variant, "B:W24,23,28:B15,12,11,K3").expect("fen");
            assert_ne!(correction(&white), 0, "{variant:?}");
            assert_eq!(correction(&white), correction(&black), "{variant:?}");
            assert_eq!(inputs_of::<INPUTS_8X8>(&white, &mut inputs), 7);
        }
    }

    /// Every input of a network of `I` inputs, on a board of `h` dark squares a row, is one piece on one square
    /// from each point of view, and turning the board with the colours swapped gives the same input.
    fn inputs_are_one_to_one<const I: usize>(h: usize) {
        let squares = I / 4;
        let bit = |s: usize| (s + s / (2 * h)) as u32;
        for view in [Color::White, Color::Black] {
            let mut seen = vec![false; I];
            for color in [Color::White, Color::Black] {
                for king in [false, true] {
                    for s in 0..squares {
                        let i = input::<I>(view, color, king, bit(s));
                        assert!(i < I && !seen[i], "{I}: {view:?} {color:?} {king} {s}");
                        seen[i] = true;
                        let turned = input::<I>(view.other(), color.other(), king, bit(squares - 1 - s));
                        assert_eq!(i, turned);
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn every_input_is_one_piece_on_one_square() {
        inputs_are_one_to_one::<INPUTS>(5);
        inputs_are_one_to_one::<INPUTS_8X8>(4);
    }

    #[test]
    fn sums_updated_move_by_move_equal_sums_from_scratch() {
        let mut rng = crate::rng::Rng::new(4);
        for variant in DraughtsVariant::ALL {
            let net = Network::built_in(variant).expect("a built-in network");
            let (mut captures, mut promotions, mut kings) = (0, 0, 0);
            for _ in 0..200 {
                let mut pos = Position::start(variant);
                let mut acc = net.accumulate(&pos);
                for _ in 0..300 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.below(moves.len() as u64) as usize];
                    captures += usize::from(m.is_capture());
                    promotions += usize::from(m.is_promotion());
                    kings += usize::from(!pos.is_man_move(m));
                    let mut after = pos;
                    after.play_unchecked(m);
                    let mut next = acc;
                    net.update_into(&acc, &mut next, &pos, &after);
                    assert_eq!(
                        next,
                        net.accumulate(&after),
                        "{} {}",
                        pos.to_fen(),
                        pos.move_notation(m)
                    );
                    assert_eq!(net.correction_of(&next, after.side_to_move()), correction(&after));
                    (pos, acc) = (after, next);
                }
            }
            assert!(
                captures > 1000 && promotions > 50 && kings > 500,
                "{variant:?}: {captures} {promotions} {kings}"
            );
        }
    }
}
