//! The network that corrects the International draughts evaluation ([`super::eval::evaluate`]) in the search of a
//! level whose [`crate::params::LevelParams::network`] is set (hard): the network of [`crate::nn`] over 200
//! inputs, a man or a king, ours or theirs, on each of the 50 squares, the board turned when Black is to move, so
//! the side to move always plays up the board. It learns the residual between our evaluation and a teacher's
//! judgement of quiet positions: Scan 2.0's scores from its own games at 10 ms a move, as
//! `examples/draughts_datagen.rs` writes them (what an engine says a position is worth is a fact; nothing of its
//! program is in ours). Trained by `examples/nn.rs` (its header says how to pick this game); embedded from `nn.bin`.

pub use crate::nn::Example;
use parlor_draughts::{Color, DraughtsVariant, Position};
use std::sync::LazyLock;

/// Inputs: (ours or theirs) x (man or king) x square.
pub const INPUTS: usize = 200;
/// Hidden units.
pub const HIDDEN: usize = 64;
/// The clip of the first layer's weights: 40 pieces and a bias stay within 16 bits.
pub const CLIP: f32 = 3.0;
/// The logistic scale of a teacher's score, hundredths of a man: one man ahead expects 66% of the points.
pub const TEACHER_SCALE: f32 = 150.0;

/// The International draughts network.
pub type Net = crate::nn::Net<INPUTS, HIDDEN>;
/// The network as it trains.
pub type Trainer = crate::nn::Trainer<INPUTS, HIDDEN>;

/// The 0-based square (0 to 49) of each bit of [`Position::bitboards`] on the 10x10 board: square `s` is bit
/// `s + s / 10`, so the bits of each pair of rows are eleven, one left empty.
const SQUARE_OF_BIT: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut bit = 0;
    while bit < 64 {
        table[bit] = (bit - bit / 11) as u8;
        bit += 1;
    }
    table
};

/// The input of a piece of `color` (a king or a man) on board bit `bit`, seen by the side `view` to move.
#[inline]
fn input(view: Color, color: Color, king: bool, bit: u32) -> usize {
    let s = usize::from(SQUARE_OF_BIT[bit as usize & 63]);
    let square = if view == Color::White { s } else { 49 - s };
    (2 * usize::from(color != view) + usize::from(king)) * 50 + square
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

/// Writes the inputs that are on in `pos` (an International position; at most 40) and returns how many.
pub fn inputs_of(pos: &Position, out: &mut [u16; crate::nn::MAX_ON]) -> usize {
    let us = pos.side_to_move();
    let mut n = 0;
    each_piece(pos.bitboards(), u64::MAX, |color, king, bit| {
        if n < out.len() {
            out[n] = input(us, color, king, bit) as u16;
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

impl Net {
    /// The correction, in hundredths of a man for the side to move.
    pub fn correction(&self, pos: &Position) -> i32 {
        let mut inputs = [0u16; crate::nn::MAX_ON];
        let n = inputs_of(pos, &mut inputs);
        self.correction_of_inputs(&inputs[..n])
    }

    /// The first layer's sums of `pos` from both points of view, from scratch.
    pub fn accumulate(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            views: [self.biases; 2],
        };
        each_piece(pos.bitboards(), u64::MAX, |color, king, bit| {
            for view in [Color::White, Color::Black] {
                self.add(&mut acc.views[view as usize], input(view, color, king, bit));
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
                self.sub(sums, input(view, color, king, bit))
            });
            each_piece(new, changed, |color, king, bit| {
                self.add(sums, input(view, color, king, bit))
            });
        }
    }

    /// The correction, in hundredths of a man for the side to move, from the sums of the position.
    #[inline]
    pub fn correction_of(&self, acc: &Accumulator, turn: Color) -> i32 {
        self.output(&acc.views[turn as usize])
    }
}

/// The network built into this binary.
static NET: LazyLock<Option<Net>> = LazyLock::new(|| Net::from_bytes(include_bytes!("nn.bin")).ok());

/// The built-in network's correction of the evaluation of `pos`, in hundredths of a man for the side to move; 0
/// for the other variants (and if the built-in file were unreadable, which a test rules out).
pub fn correction(pos: &Position) -> i32 {
    if pos.variant() != DraughtsVariant::International {
        return 0;
    }
    NET.as_ref().map_or(0, |net| net.correction(pos))
}

/// The built-in network's sums of `pos` (see [`Net::accumulate`]; zero if the file were unreadable).
pub fn accumulate(pos: &Position) -> Accumulator {
    NET.as_ref().map_or(
        Accumulator {
            views: [[0; HIDDEN]; 2],
        },
        |net| net.accumulate(pos),
    )
}

/// The built-in network's sums after a move (see [`Net::update_into`]).
#[inline]
pub fn update_into(acc: &Accumulator, next: &mut Accumulator, before: &Position, after: &Position) {
    match NET.as_ref() {
        Some(net) => net.update_into(acc, next, before, after),
        None => *next = *acc,
    }
}

/// The built-in network's correction from the sums of a position with `turn` to move.
#[inline]
pub fn correction_of(acc: &Accumulator, turn: Color) -> i32 {
    NET.as_ref().map_or(0, |net| net.correction_of(acc, turn))
}

/// An example from a `fen;score` line: an International position and the teacher's score of it, in hundredths of
/// a man for the side to move.
pub fn example(line: &str) -> Option<Example> {
    let (fen, score) = line.split_once(';')?;
    let score: f32 = score.trim().parse().ok()?;
    let pos = Position::from_fen(DraughtsVariant::International, fen).ok()?;
    let mut inputs = [0u16; crate::nn::MAX_ON];
    let n = inputs_of(&pos, &mut inputs);
    let base = super::eval::evaluate(&pos, &GEOMETRY) as f32;
    let target = 1.0 / (1.0 + (-score / TEACHER_SCALE).exp());
    Some(Example::new(&inputs[..n], base, target))
}

static GEOMETRY: LazyLock<super::eval::Geometry> =
    LazyLock::new(|| super::eval::Geometry::new(DraughtsVariant::International));

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn the_built_in_network_reads_and_writes_back_unchanged() {
        let bytes = include_bytes!("nn.bin");
        let net = Net::from_bytes(bytes).expect("the built-in network");
        assert_eq!(net.to_bytes(), bytes.to_vec());
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
        assert_eq!(inputs_of(&white, &mut inputs), 10);
        let start = Position::start(DraughtsVariant::International);
        assert_eq!(inputs_of(&start, &mut inputs), 40);
        let english = Position::start(DraughtsVariant::English);
        assert_eq!(correction(&english), 0);
    }

    #[test]
    fn sums_updated_move_by_move_equal_sums_from_scratch() {
        let mut rng = crate::rng::Rng::new(4);
        let (mut captures, mut promotions, mut kings) = (0, 0, 0);
        for _ in 0..200 {
            let mut pos = Position::start(DraughtsVariant::International);
            let mut acc = accumulate(&pos);
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
                update_into(&acc, &mut next, &pos, &after);
                assert_eq!(
                    next,
                    accumulate(&after),
                    "{} {}",
                    pos.to_fen(),
                    pos.move_notation(m)
                );
                assert_eq!(correction_of(&next, after.side_to_move()), correction(&after));
                (pos, acc) = (after, next);
            }
        }
        assert!(
            captures > 1000 && promotions > 50 && kings > 500,
            "{captures} {promotions} {kings}"
        );
    }
}
