//! The evaluation networks' common part: the simplest network of the NNUE family (Yu Nasu, 2018), one layer of
//! `I` sparse inputs (a piece kind on a square, seen from the side to move), one hidden layer of `H` clipped-ReLU
//! units and one output in hundredths (a centipawn, a hundredth of a man). Each network learns a residual: what
//! a teacher's judgement of a position says beyond the hand-written evaluation, so that an untrained or zero
//! network leaves that evaluation as it was. The chess network ([`crate::chess::nn`]) and the International
//! draughts one ([`crate::draughts::nn`]) say which inputs a position has; this module holds the quantised
//! network the engines evaluate with, its file format, and the trainer (`examples/nn.rs`).

use crate::rng::Rng;

/// Quantisation of the first layer: an activation of 1.0 is `QA`.
pub(crate) const QA: i32 = 255;
/// Quantisation of the output weights.
const QB: i32 = 128;
/// Hundredths per unit of the network's output.
const SCALE: i32 = 100;
/// The file's first bytes.
const MAGIC: &[u8; 4] = b"PNN1";
/// The most inputs a position can have on (the 40 men of International draughts; chess has 32 pieces).
pub const MAX_ON: usize = 40;

/// A quantised network.
#[derive(Clone, Debug)]
pub struct Net<const I: usize, const H: usize> {
    /// First layer, input-major: `weights[input * H + unit]`, in 1/[`QA`].
    weights: Vec<i16>,
    /// First-layer biases, in 1/[`QA`].
    pub(crate) biases: [i16; H],
    /// Output weights, in 1/[`QB`].
    out: [i16; H],
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
    #[error("the network has {found} hidden units, this build evaluates {expected}")]
    Hidden {
        /// The file's hidden size.
        found: u32,
        /// This build's.
        expected: usize,
    },
    /// It is shorter or longer than its sizes say.
    #[error("the network file is {0} bytes, its sizes say {1}")]
    Length(usize, usize),
}

impl<const I: usize, const H: usize> Net<I, H> {
    /// The byte length of a network file.
    const BYTES: usize = 8 + 2 * (I * H + 2 * H) + 4;

    /// Reads a network file: the magic, the hidden size (u32), then the first layer's weights and biases and
    /// the output weights (i16), then the output bias (i32), all little-endian.
    ///
    /// # Errors
    /// When the bytes are not such a file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, NetError> {
        if bytes.get(..4) != Some(MAGIC.as_slice()) {
            return Err(NetError::Magic);
        }
        let Some(&[a, b, c, d]) = bytes.get(4..8) else {
            return Err(NetError::Length(bytes.len(), Self::BYTES));
        };
        let hidden = u32::from_le_bytes([a, b, c, d]);
        if hidden as usize != H {
            return Err(NetError::Hidden {
                found: hidden,
                expected: H,
            });
        }
        if bytes.len() != Self::BYTES {
            return Err(NetError::Length(bytes.len(), Self::BYTES));
        }
        let mut words = bytes[8..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let weights: Vec<i16> = words.by_ref().take(I * H).collect();
        let mut biases = [0; H];
        let mut out = [0; H];
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
        bytes.extend_from_slice(&(H as u32).to_le_bytes());
        for w in self.weights.iter().chain(&self.biases).chain(&self.out) {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        bytes.extend_from_slice(&self.out_bias.to_le_bytes());
        bytes
    }

    /// The correction, in hundredths for the side to move, of a position whose inputs that are on are `inputs`.
    pub fn correction_of_inputs(&self, inputs: &[u16]) -> i32 {
        let mut acc = self.biases;
        for &i in inputs {
            self.add(&mut acc, usize::from(i));
        }
        self.output(&acc)
    }

    #[inline]
    pub(crate) fn row(&self, input: usize) -> &[i16] {
        &self.weights[input * H..(input + 1) * H]
    }

    #[inline]
    pub(crate) fn add(&self, acc: &mut [i16; H], input: usize) {
        for (a, w) in acc.iter_mut().zip(self.row(input)) {
            *a = a.wrapping_add(*w);
        }
    }

    #[inline]
    pub(crate) fn sub(&self, acc: &mut [i16; H], input: usize) {
        for (a, w) in acc.iter_mut().zip(self.row(input)) {
            *a = a.wrapping_sub(*w);
        }
    }

    /// The output, in hundredths, of the first layer's sums.
    #[inline]
    pub(crate) fn output(&self, acc: &[i16; H]) -> i32 {
        let mut sum = self.out_bias;
        for (a, o) in acc.iter().zip(&self.out) {
            sum += i32::from((*a).clamp(0, QA as i16)) * i32::from(*o);
        }
        sum * SCALE / (QA * QB)
    }
}

/// A position to train on: its inputs, the hand-written evaluation and the teacher's expected score, both for
/// the side to move.
#[derive(Clone, Debug)]
pub struct Example {
    inputs: [u16; MAX_ON],
    len: u8,
    /// The hand-written evaluation, in hundredths.
    base: f32,
    /// The teacher's expected score, 0 to 1.
    target: f32,
}

impl Example {
    /// An example from the inputs that are on (at most [`MAX_ON`]; more are dropped), the hand-written
    /// evaluation and the teacher's expected score (0 to 1), both for the side to move.
    pub fn new(on: &[u16], base: f32, target: f32) -> Example {
        let mut inputs = [0; MAX_ON];
        let len = on.len().min(MAX_ON);
        inputs[..len].copy_from_slice(&on[..len]);
        Example {
            inputs,
            len: len as u8,
            base,
            target,
        }
    }

    /// The hand-written evaluation, in hundredths for the side to move.
    pub fn base(&self) -> f32 {
        self.base
    }

    /// The teacher's expected score for the side to move, 0 to 1.
    pub fn target(&self) -> f32 {
        self.target
    }

    /// The inputs that are on.
    pub fn inputs(&self) -> &[u16] {
        &self.inputs[..usize::from(self.len)]
    }
}

/// A network in floating point, as it trains.
#[derive(Clone, Debug)]
pub struct Trainer<const I: usize, const H: usize> {
    weights: Vec<f32>,
    biases: Vec<f32>,
    pub(crate) out: Vec<f32>,
    out_bias: f32,
    /// The logistic scale of the predicted score: `1 / (1 + exp(-k * hundredths))`.
    pub k: f32,
}

impl<const I: usize, const H: usize> Trainer<I, H> {
    /// Parameters in one flat list (weights, biases, output weights, output bias), for gradients and Adam's
    /// moments.
    const PARAMS: usize = I * H + 2 * H + 1;

    /// A fresh network (small random first layer, zero output: it corrects nothing yet) for the scale `k`.
    pub fn new(k: f32, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let weights = (0..I * H)
            .map(|_| (rng.below(2001) as f32 / 1000.0 - 1.0) * 0.1)
            .collect();
        Trainer {
            weights,
            biases: vec![0.3; H],
            out: vec![0.0; H],
            out_bias: 0.0,
            k,
        }
    }

    /// A network that starts from a trained one, as the engine reads it (the quantised weights, back in floating
    /// point), for the scale `k`: training goes on from where that network is, so that what it learnt from
    /// earlier positions is kept in the weights and fresh positions add to it.
    pub fn from_net(net: &Net<I, H>, k: f32) -> Self {
        let (qa, qb) = (QA as f32, QB as f32);
        Trainer {
            weights: net.weights.iter().map(|&w| f32::from(w) / qa).collect(),
            biases: net.biases.iter().map(|&b| f32::from(b) / qa).collect(),
            out: net.out.iter().map(|&o| f32::from(o) / qb).collect(),
            out_bias: net.out_bias as f32 / (qa * qb),
            k,
        }
    }

    /// The hidden activations and the corrected evaluation (hundredths) of an example.
    pub(crate) fn forward(&self, e: &Example, hidden: &mut [f32; H]) -> f32 {
        hidden.copy_from_slice(&self.biases);
        for &i in e.inputs() {
            let row = &self.weights[usize::from(i) * H..(usize::from(i) + 1) * H];
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
        let mut hidden = [0.0; H];
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
        let mut hidden = [0.0; H];
        let (g_w, rest) = grad.split_at_mut(I * H);
        let (g_b, rest) = rest.split_at_mut(H);
        let (g_o, g_ob) = rest.split_at_mut(H);
        for e in batch {
            let cp = self.forward(e, &mut hidden);
            let p = self.predict(cp);
            let d_out = 2.0 * (p - e.target) * p * (1.0 - p) * self.k * SCALE as f32;
            g_ob[0] += d_out;
            let mut d_hidden = [0.0; H];
            for j in 0..H {
                let h = hidden[j];
                g_o[j] += d_out * h.clamp(0.0, 1.0);
                if h > 0.0 && h < 1.0 {
                    d_hidden[j] = d_out * self.out[j];
                }
            }
            for (g, d) in g_b.iter_mut().zip(&d_hidden) {
                *g += d;
            }
            for &i in e.inputs() {
                let row = &mut g_w[usize::from(i) * H..(usize::from(i) + 1) * H];
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

    /// The network quantised for the engine, the first layer's weights and biases clipped to `clip` (each
    /// game's network chooses it so that the sum of the most inputs its positions have on stays within 16 bits).
    pub fn quantise(&self, clip: f32) -> Net<I, H> {
        let q = |x: f32, scale: i32, max: f32| (x.clamp(-max, max) * scale as f32).round() as i16;
        let mut biases = [0; H];
        let mut out = [0; H];
        for j in 0..H {
            biases[j] = q(self.biases[j], QA, clip);
            out[j] = q(self.out[j], QB, 255.0);
        }
        Net {
            weights: self.weights.iter().map(|&w| q(w, QA, clip)).collect(),
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
pub fn train<const I: usize, const H: usize>(
    net: &mut Trainer<I, H>,
    examples: &mut [Example],
    options: TrainOptions,
    mut report: impl FnMut(usize, &Trainer<I, H>, &[Example]),
) {
    let TrainOptions {
        epochs,
        batch,
        threads,
        lr,
        decay,
    } = options;
    let params = Trainer::<I, H>::PARAMS;
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut m = vec![0.0f32; params];
    let mut v = vec![0.0f32; params];
    let mut rng = Rng::new(7);
    let mut step = 0i32;
    let threads = threads.max(1);
    let mut grads = vec![vec![0.0f32; params]; threads];
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
