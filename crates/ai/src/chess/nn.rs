//! A small neural network that corrects the hand-written evaluation ([`super::eval::evaluate`]) in the search of
//! a level whose [`crate::params::LevelParams::network`] is set: hard (the figures are in docs/ai.md).
//!
//! It is the simplest network of the NNUE family (Yu Nasu, 2018; the "768" input layout of most engines since):
//! one input per piece kind and square (768 in all) seen from the side to move, one hidden layer of
//! [`HIDDEN`] clipped-ReLU units, one output in centipawns. It learns the residual: what a teacher's judgement of
//! a position (Stockfish's search, see [`super::tune::label`]) says beyond our evaluation. Being residual, an
//! untrained or zero network leaves the evaluation as it was.
//!
//! The weights are trained by [`train`] (`cargo run --release -p parlor-ai --example nn`), quantised to integers
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
use crate::rng::Rng;
use shakmaty::{Chess, Color, Move, Position as _, Role, Square};
use std::sync::LazyLock;

/// Inputs: (ours or theirs) x role x square, the board flipped when Black is to move.
pub const INPUTS: usize = 768;
/// Hidden units.
pub const HIDDEN: usize = 128;
/// Quantisation of the first layer: an activation of 1.0 is `QA`.
const QA: i32 = 255;
/// Quantisation of the output weights.
const QB: i32 = 128;
/// Centipawns per unit of the network's output.
const SCALE: i32 = 100;
/// The file's first bytes.
const MAGIC: &[u8; 4] = b"PNN1";

/// A quantised network.
#[derive(Clone, Debug)]
pub struct Net {
    /// First layer, input-major: `weights[input * HIDDEN + unit]`, in 1/[`QA`].
    weights: Vec<i16>,
    /// First-layer biases, in 1/[`QA`].
    biases: [i16; HIDDEN],
    /// Output weights, in 1/[`QB`].
    out: [i16; HIDDEN],
    /// Output bias, in 1/(`QA` * `QB`).
    out_bias: i32,
}

/// Why a network file cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    /// It does not start with the magic bytes.
    #[error("not a Parlor network file")]
    Magic,
    /// Its hidden layer is not the size this build evaluates.
    #[error("the network has {0} hidden units, this build evaluates {HIDDEN}")]
    Hidden(u32),
    /// It is shorter or longer than its sizes say.
    #[error("the network file is {0} bytes, its sizes say {1}")]
    Length(usize, usize),
}

impl Net {
    /// The byte length of a network file.
    const BYTES: usize = 8 + 2 * (INPUTS * HIDDEN + 2 * HIDDEN) + 4;

    /// Reads a network file: the magic, the hidden size (u32), then the first layer's weights and biases and
    /// the output weights (i16), then the output bias (i32), all little-endian.
    ///
    /// # Errors
    /// When the bytes are not such a file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetError> {
        if bytes.get(..4) != Some(MAGIC.as_slice()) {
            return Err(NetError::Magic);
        }
        let Some(&[a, b, c, d]) = bytes.get(4..8) else {
            return Err(NetError::Length(bytes.len(), Self::BYTES));
        };
        let hidden = u32::from_le_bytes([a, b, c, d]);
        if hidden as usize != HIDDEN {
            return Err(NetError::Hidden(hidden));
        }
        if bytes.len() != Self::BYTES {
            return Err(NetError::Length(bytes.len(), Self::BYTES));
        }
        let mut words = bytes[8..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let weights: Vec<i16> = words.by_ref().take(INPUTS * HIDDEN).collect();
        let mut biases = [0; HIDDEN];
        let mut out = [0; HIDDEN];
        for (b, w) in biases.iter_mut().zip(words.by_ref()) {
            *b = w;
        }
        for (o, w) in out.iter_mut().zip(words.by_ref()) {
            *o = w;
        }
        let tail = &bytes[Self::BYTES - 4..];
        let out_bias = i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        Ok(Net {
            weights,
            biases,
            out,
            out_bias,
        })
    }

    /// The file [`Net::from_bytes`] reads.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(Self::BYTES);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for w in self.weights.iter().chain(&self.biases).chain(&self.out) {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        bytes.extend_from_slice(&self.out_bias.to_le_bytes());
        bytes
    }

    /// The correction, in centipawns for the side to move.
    pub fn correction(&self, pos: &Chess) -> i32 {
        let mut inputs = [0u16; 32];
        let n = inputs_of(pos, &mut inputs);
        let mut acc = self.biases;
        for &i in &inputs[..n] {
            self.add(&mut acc, i as usize);
        }
        self.output(&acc)
    }

    #[inline]
    fn row(&self, input: usize) -> &[i16] {
        &self.weights[input * HIDDEN..(input + 1) * HIDDEN]
    }

    #[inline]
    fn add(&self, acc: &mut [i16; HIDDEN], input: usize) {
        for (a, w) in acc.iter_mut().zip(self.row(input)) {
            *a = a.wrapping_add(*w);
        }
    }

    #[inline]
    fn sub(&self, acc: &mut [i16; HIDDEN], input: usize) {
        for (a, w) in acc.iter_mut().zip(self.row(input)) {
            *a = a.wrapping_sub(*w);
        }
    }

    #[inline]
    fn output(&self, acc: &[i16; HIDDEN]) -> i32 {
        let mut sum = self.out_bias;
        for (a, o) in acc.iter().zip(&self.out) {
            sum += i32::from((*a).clamp(0, QA as i16)) * i32::from(*o);
        }
        sum * SCALE / (QA * QB)
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

/// A position to train on: its inputs, the hand-written evaluation and the teacher's expected score, both for
/// the side to move.
#[derive(Clone, Debug)]
pub struct Example {
    inputs: [u16; 32],
    len: u8,
    /// [`super::eval::evaluate`], in centipawns.
    base: f32,
    /// The teacher's expected score, 0 to 1.
    target: f32,
}

impl Example {
    /// The hand-written evaluation, in centipawns for the side to move.
    pub fn base(&self) -> f32 {
        self.base
    }

    /// The teacher's expected score for the side to move, 0 to 1.
    pub fn target(&self) -> f32 {
        self.target
    }

    /// An example from a `fen;expected score for White` line (the format of [`super::tune::to_text`]).
    pub fn from_line(line: &str) -> Option<Example> {
        let (fen, result) = line.split_once(';')?;
        let white: f32 = result.trim().parse().ok()?;
        let pos = parlor_chess::Position::from_fen(fen).ok()?.0;
        let mut inputs = [0; 32];
        let len = inputs_of(&pos, &mut inputs) as u8;
        let target = if pos.turn() == Color::White {
            white
        } else {
            1.0 - white
        };
        Some(Example {
            inputs,
            len,
            base: super::eval::evaluate(&pos) as f32,
            target,
        })
    }
}

/// A network in floating point, as it trains.
#[derive(Clone, Debug)]
pub struct Trainer {
    weights: Vec<f32>,
    biases: Vec<f32>,
    out: Vec<f32>,
    out_bias: f32,
    /// The logistic scale of the predicted score: `1 / (1 + exp(-k * cp))`.
    pub k: f32,
}

/// Parameters of a [`Trainer`] in one flat list (weights, biases, output weights, output bias), for gradients
/// and Adam's moments.
const PARAMS: usize = INPUTS * HIDDEN + 2 * HIDDEN + 1;

impl Trainer {
    /// A fresh network (small random first layer, zero output: it corrects nothing yet) for the scale `k`.
    pub fn new(k: f32, seed: u64) -> Trainer {
        let mut rng = Rng::new(seed);
        let weights = (0..INPUTS * HIDDEN)
            .map(|_| (rng.below(2001) as f32 / 1000.0 - 1.0) * 0.1)
            .collect();
        Trainer {
            weights,
            biases: vec![0.3; HIDDEN],
            out: vec![0.0; HIDDEN],
            out_bias: 0.0,
            k,
        }
    }

    /// A network that starts from a trained one, as the engine reads it (the quantised weights, back in floating
    /// point), for the scale `k`: training goes on from where that network is, so that what it learnt from
    /// earlier positions is kept in the weights and fresh positions add to it.
    pub fn from_net(net: &Net, k: f32) -> Trainer {
        let (qa, qb) = (QA as f32, QB as f32);
        Trainer {
            weights: net.weights.iter().map(|&w| f32::from(w) / qa).collect(),
            biases: net.biases.iter().map(|&b| f32::from(b) / qa).collect(),
            out: net.out.iter().map(|&o| f32::from(o) / qb).collect(),
            out_bias: net.out_bias as f32 / (qa * qb),
            k,
        }
    }

    /// The hidden activations and the corrected evaluation (cp) of an example.
    fn forward(&self, e: &Example, hidden: &mut [f32; HIDDEN]) -> f32 {
        hidden.copy_from_slice(&self.biases);
        for &i in &e.inputs[..usize::from(e.len)] {
            let row = &self.weights[i as usize * HIDDEN..(i as usize + 1) * HIDDEN];
            for (h, w) in hidden.iter_mut().zip(row) {
                *h += w;
            }
        }
        let mut out = self.out_bias;
        for (h, o) in hidden.iter().zip(&self.out) {
            out += h.clamp(0.0, 1.0) * o;
        }
        e.base + SCALE as f32 * out
    }

    fn predict(&self, cp: f32) -> f32 {
        1.0 / (1.0 + (-self.k * cp).exp())
    }

    /// Mean squared error of the predicted scores; with `base_only`, of the hand-written evaluation alone.
    pub fn error(&self, examples: &[Example], base_only: bool) -> f64 {
        let mut hidden = [0.0; HIDDEN];
        let sum: f64 = examples
            .iter()
            .map(|e| {
                let cp = if base_only {
                    e.base
                } else {
                    self.forward(e, &mut hidden)
                };
                f64::from((self.predict(cp) - e.target).powi(2))
            })
            .sum();
        sum / examples.len().max(1) as f64
    }

    /// Adds the gradient of the squared error of `batch` to `grad`.
    fn gradient(&self, batch: &[Example], grad: &mut [f32]) {
        let mut hidden = [0.0; HIDDEN];
        let (g_w, rest) = grad.split_at_mut(INPUTS * HIDDEN);
        let (g_b, rest) = rest.split_at_mut(HIDDEN);
        let (g_o, g_ob) = rest.split_at_mut(HIDDEN);
        for e in batch {
            let cp = self.forward(e, &mut hidden);
            let p = self.predict(cp);
            let d_out = 2.0 * (p - e.target) * p * (1.0 - p) * self.k * SCALE as f32;
            g_ob[0] += d_out;
            let mut d_hidden = [0.0; HIDDEN];
            for j in 0..HIDDEN {
                let h = hidden[j];
                g_o[j] += d_out * h.clamp(0.0, 1.0);
                if h > 0.0 && h < 1.0 {
                    d_hidden[j] = d_out * self.out[j];
                }
            }
            for (g, d) in g_b.iter_mut().zip(&d_hidden) {
                *g += d;
            }
            for &i in &e.inputs[..usize::from(e.len)] {
                let row = &mut g_w[i as usize * HIDDEN..(i as usize + 1) * HIDDEN];
                for (g, d) in row.iter_mut().zip(&d_hidden) {
                    *g += d;
                }
            }
        }
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.weights
            .iter_mut()
            .chain(self.biases.iter_mut())
            .chain(self.out.iter_mut())
            .chain(std::iter::once(&mut self.out_bias))
    }

    /// The network quantised for the engine; the first layer is clipped so that the sum of 32 inputs cannot
    /// overflow 16 bits.
    pub fn quantise(&self) -> Net {
        let q = |x: f32, scale: i32, max: f32| (x.clamp(-max, max) * scale as f32).round() as i16;
        let mut biases = [0; HIDDEN];
        let mut out = [0; HIDDEN];
        for j in 0..HIDDEN {
            biases[j] = q(self.biases[j], QA, 3.9);
            out[j] = q(self.out[j], QB, 255.0);
        }
        Net {
            weights: self.weights.iter().map(|&w| q(w, QA, 3.9)).collect(),
            biases,
            out,
            out_bias: (self.out_bias * (QA * QB) as f32).round() as i32,
        }
    }
}

/// The first learning rate of a network trained from scratch.
pub const LEARNING_RATE: f32 = 0.002;

/// How [`train`] trains.
#[derive(Clone, Copy, Debug)]
pub struct TrainOptions {
    /// Passes over the examples.
    pub epochs: usize,
    /// Examples per step.
    pub batch: usize,
    /// Threads computing a step's gradient.
    pub threads: usize,
    /// The first learning rate ([`LEARNING_RATE`] from scratch, less to fine-tune a trained network); it falls
    /// tenfold over the run.
    pub lr: f32,
    /// Each step shrinks every weight by `decay` times the learning rate, which keeps weights that few positions
    /// support small.
    pub decay: f32,
}

/// Trains `net` on `examples` by Adam with decoupled weight decay (AdamW: Kingma and Ba, 2015; Loshchilov and
/// Hutter, 2019), as `options` say. `report` is called after each epoch, with the network and the examples.
pub fn train(
    net: &mut Trainer,
    examples: &mut [Example],
    options: TrainOptions,
    mut report: impl FnMut(usize, &Trainer, &[Example]),
) {
    let TrainOptions {
        epochs,
        batch,
        threads,
        lr,
        decay,
    } = options;
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut m = vec![0.0f32; PARAMS];
    let mut v = vec![0.0f32; PARAMS];
    let mut rng = Rng::new(7);
    let mut step = 0i32;
    let threads = threads.max(1);
    let mut grads = vec![vec![0.0f32; PARAMS]; threads];
    for epoch in 0..epochs {
        // Shuffle (Fisher-Yates).
        for i in (1..examples.len()).rev() {
            examples.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let lr = lr * 0.1f32.powf(epoch as f32 / epochs.max(1) as f32);
        for chunk in examples.chunks(batch) {
            let share = chunk.len().div_ceil(threads);
            std::thread::scope(|scope| {
                for (g, part) in grads.iter_mut().zip(chunk.chunks(share)) {
                    g.iter_mut().for_each(|x| *x = 0.0);
                    let net = &*net;
                    scope.spawn(move || net.gradient(part, g));
                }
            });
            step += 1;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            let scale = 1.0 / chunk.len() as f32;
            for (k, p) in net.params_mut().enumerate() {
                let g: f32 = grads.iter().map(|g| g[k]).sum::<f32>() * scale;
                m[k] = beta1 * m[k] + (1.0 - beta1) * g;
                v[k] = beta2 * v[k] + (1.0 - beta2) * g * g;
                *p -= lr * ((m[k] / c1) / ((v[k] / c2).sqrt() + eps) + decay * *p);
            }
        }
        report(epoch, net, examples);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::eval::tests::mirror;
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
        let q = net.quantise();
        for fen in [
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5",
            "8/5pk1/6p1/8/3R4/6P1/5PK1/1r6 b - - 0 40",
        ] {
            let e = Example::from_line(&format!("{fen};0.5")).expect("example");
            let mut hidden = [0.0; HIDDEN];
            let float = net.forward(&e, &mut hidden) - e.base;
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
        assert_eq!(trainer.quantise().to_bytes(), net.to_bytes());
        for fen in [
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5",
            "2r2rk1/pp1bqppp/2n1pn2/3p4/2PP4/1PN1PN2/P2BQPPP/2R2RK1 w - - 0 13",
            "8/5pk1/6p1/8/3R4/6P1/5PK1/1r6 b - - 0 40",
        ] {
            let e = Example::from_line(&format!("{fen};0.5")).expect("example");
            let mut hidden = [0.0; HIDDEN];
            let float = trainer.forward(&e, &mut hidden) - e.base;
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
