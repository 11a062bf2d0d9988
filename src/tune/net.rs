//! `varsand tune --network`: a small network ([`crate::search::network`]) learned as
//! a correction of the evaluation that plays now. Each labelled position keeps the
//! network's inputs and that evaluation's score (the search's static evaluation,
//! threats included, for the side to move); the network is fitted so that
//! sigmoid(K × (score + network)) predicts the label, K fitted first to the score
//! alone (so that the network starts as nothing and only adds what the score lacks).
//!
//! Stochastic gradient descent with Adam on minibatches; a tenth of the games (by
//! their number) are held out, and the weights kept are those of the epoch that
//! predicted the held-out positions best (the network has tens of thousands of
//! weights: without the held-out check it learns the training games by heart).

use std::sync::Arc;

use super::{Game, Sample};
use crate::engine::Position;
use crate::rules::Rules;
use crate::search::Searcher;
use crate::search::network::{MAX_HIDDEN, Network, OUTPUT_SCALE, Perspective};

/// The shape of the flattened weights: hidden units, where the hidden biases start
/// (after the inputs' weights), and the output's bound.
#[derive(Debug, Clone, Copy)]
struct Shape {
    hidden: usize,
    n1: usize,
    bound: f32,
}

impl Shape {
    /// The correction in centipawns of a raw output, and its derivative.
    fn squash(self, raw: f32) -> (f32, f32) {
        let t = (raw * OUTPUT_SCALE / self.bound).tanh();
        (self.bound * t, OUTPUT_SCALE * (1.0 - t * t))
    }
}

/// One position to learn from.
#[derive(Debug, Clone)]
pub struct NetSample {
    /// The network's active inputs and their counts.
    inputs: Vec<(u32, f32)>,
    /// The evaluation's score for the side to move, in centipawns.
    base: f32,
    /// The probability that the side to move wins.
    target: f32,
    /// Whether it is held out.
    held_out: bool,
}

impl NetSample {
    /// The sample of a position the evaluation scores `base` (for the side to move),
    /// labelled `first_wins` (the probability that the first player wins).
    pub fn new(
        net: &Network,
        base: i32,
        pos: &Position,
        (first_wins, held_out): (f64, bool),
    ) -> Self {
        let mut inputs = Vec::with_capacity(40);
        net.for_each_input(pos, |i, c| inputs.push((i as u32, c)));
        let target = if pos.side_to_move().is_first() {
            first_wins
        } else {
            1.0 - first_wins
        };
        NetSample {
            inputs,
            base: base as f32,
            target: target as f32,
            held_out,
        }
    }
}

/// How the network is trained.
#[derive(Debug, Clone)]
pub struct NetOptions {
    pub hidden: usize,
    /// The bound of the network's correction, in centipawns ([`Network::bound`]).
    pub bound: f32,
    pub max_epochs: usize,
    pub seed: u64,
}

/// What training found.
#[derive(Debug, Clone)]
pub struct NetReport {
    pub k: f64,
    /// The held-out positions' mean log loss with the evaluation alone and with the
    /// network added.
    pub held_out_before: f64,
    pub held_out_after: f64,
    pub train_positions: usize,
    pub held_out_positions: usize,
    pub epochs: usize,
}

/// Every game held out whose number is a multiple of this.
const HOLD_OUT_EVERY: u32 = 10;
const BATCH: usize = 256;
const LEARNING_RATE: f32 = 2e-3;
/// Weight decay (L2) on the weights (not the biases).
const DECAY: f32 = 1e-5;
/// Epochs without a better held-out loss before the rate halves, and halvings before
/// training stops.
const PATIENCE: usize = 2;
const HALVINGS: usize = 3;

/// The positions of the samples (replayed from their games), read for the network
/// and scored by `searcher`'s static evaluation.
pub fn net_samples(
    net: &Network,
    searcher: &Searcher,
    games: &[Game],
    samples: &[Sample],
) -> Vec<NetSample> {
    let mut by_game: Vec<Vec<&Sample>> = vec![Vec::new(); games.len()];
    for s in samples {
        by_game[s.game as usize].push(s);
    }
    let mut out = Vec::with_capacity(samples.len());
    for (g, list) in by_game.iter_mut().enumerate() {
        list.sort_by_key(|s| s.ply);
        let game = &games[g];
        let mut pos: Position = game.start.clone();
        let mut played = 0usize;
        for s in list.iter() {
            while played < s.ply as usize {
                let Ok(m) = pos.parse_move(&game.moves[played]) else {
                    break;
                };
                pos.make(m);
                played += 1;
            }
            if played != s.ply as usize {
                break;
            }
            out.push(NetSample::new(
                net,
                searcher.evaluate(&pos),
                &pos,
                (s.result, s.game % HOLD_OUT_EVERY == 0),
            ));
        }
    }
    out
}

/// The scale K that fits the evaluation alone best.
fn fit_k(samples: &[NetSample]) -> f64 {
    let as_linear: Vec<Sample> = samples
        .iter()
        .map(|s| Sample {
            features: vec![(0, s.base)],
            result: f64::from(s.target),
            game: 0,
            ply: 0,
        })
        .collect();
    super::fit::fit_k(&as_linear, &[1.0])
}

/// The gradient of the loss and Adam's moments, one slot per weight, laid out as
/// the network's weights: w1, b1, w2, then b2.
struct Adam {
    grad: Vec<f32>,
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

/// The network's weights as one vector, and back.
fn flatten(net: &Network) -> Vec<f32> {
    let mut w = net.w1.clone();
    w.extend_from_slice(&net.b1);
    w.extend_from_slice(&net.w2);
    w.push(net.b2);
    w
}

fn unflatten(net: &mut Network, w: &[f32]) {
    let (n1, h) = (net.w1.len(), net.hidden);
    net.w1.copy_from_slice(&w[..n1]);
    net.b1.copy_from_slice(&w[n1..n1 + h]);
    net.w2.copy_from_slice(&w[n1 + h..n1 + 2 * h]);
    net.b2 = w[n1 + 2 * h];
}

/// The network's output (in its own units) for a sample; `acc` gets the hidden
/// units' sums.
fn forward(w: &[f32], (inputs, h, n1): (&[(u32, f32)], usize, usize), acc: &mut [f32]) -> f32 {
    acc.copy_from_slice(&w[n1..n1 + h]);
    for &(i, c) in inputs {
        let row = &w[i as usize * h..][..h];
        for (a, x) in acc.iter_mut().zip(row) {
            *a += c * x;
        }
    }
    let w2 = &w[n1 + h..n1 + 2 * h];
    w[n1 + 2 * h]
        + acc
            .iter()
            .zip(w2)
            .map(|(a, x)| a.clamp(0.0, 1.0) * x)
            .sum::<f32>()
}

fn log_loss(z: f64, y: f64) -> f64 {
    z.max(0.0) + (-z.abs()).exp().ln_1p() - y * z
}

/// The mean log loss over the held-out (or the training) samples.
fn mean_loss(w: &[f32], shape: Shape, samples: &[NetSample], k: f64, held: bool) -> f64 {
    let (h, n1) = (shape.hidden, shape.n1);
    let mut acc = [0f32; MAX_HIDDEN];
    let (mut total, mut n) = (0.0, 0usize);
    for s in samples.iter().filter(|s| s.held_out == held) {
        let out = forward(w, (&s.inputs, h, n1), &mut acc[..h]);
        let z = k * f64::from(s.base + shape.squash(out).0);
        total += log_loss(z, f64::from(s.target));
        n += 1;
    }
    total / n.max(1) as f64
}

/// A small generator of pseudo-random numbers (xorshift), for the start and the order.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [-1, 1).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

/// Trains a network for the rules on the samples; `epoch` hears each epoch's
/// training and held-out losses.
pub fn train(
    rules: &Arc<Rules>,
    samples: &[NetSample],
    opts: &NetOptions,
    epoch: &mut dyn FnMut(usize, f64, f64),
) -> (Network, NetReport) {
    let hidden = opts.hidden.clamp(1, MAX_HIDDEN);
    let mut net = Network::zeros(rules, Perspective::of(rules), hidden, opts.bound);
    let k = fit_k(samples);
    let mut rng = Rng(opts.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let spread = 1.0 / (hidden as f32).sqrt();
    net.w1.iter_mut().for_each(|x| *x = spread * rng.unit());
    net.b1.fill(0.5);
    net.w2.iter_mut().for_each(|x| *x = 0.01 * rng.unit());
    let shape = Shape {
        hidden,
        n1: net.w1.len(),
        bound: opts.bound,
    };
    let mut w = flatten(&net);
    let held_out_before = mean_loss(&vec![0.0; w.len()], shape, samples, k, true);
    let mut best = (mean_loss(&w, shape, samples, k, true), w.clone());
    let train: Vec<usize> = (0..samples.len())
        .filter(|&i| !samples[i].held_out)
        .collect();
    let mut order = train.clone();
    let mut adam = Adam {
        grad: vec![0.0; w.len()],
        m: vec![0.0; w.len()],
        v: vec![0.0; w.len()],
        t: 0,
    };
    let (mut rate, mut waited, mut halvings, mut epochs) = (LEARNING_RATE, 0, 0, 0);
    while epochs < opts.max_epochs && halvings <= HALVINGS {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.next() as usize % (i + 1));
        }
        for batch in order.chunks(BATCH) {
            gradient(
                &w,
                shape,
                batch.iter().map(|&i| &samples[i]),
                k,
                &mut adam.grad,
            );
            step(&mut w, &mut adam, rate, shape.n1);
        }
        epochs += 1;
        let held = mean_loss(&w, shape, samples, k, true);
        epoch(epochs, mean_loss(&w, shape, samples, k, false), held);
        if held < best.0 {
            best = (held, w.clone());
            waited = 0;
        } else {
            waited += 1;
            if waited >= PATIENCE {
                rate /= 2.0;
                halvings += 1;
                waited = 0;
                w.clone_from(&best.1);
            }
        }
    }
    unflatten(&mut net, &best.1);
    let report = NetReport {
        k,
        held_out_before,
        held_out_after: best.0,
        train_positions: train.len(),
        held_out_positions: samples.len() - train.len(),
        epochs,
    };
    (net, report)
}

/// The mean gradient of the log loss over a batch, into `grad`.
fn gradient<'a>(
    w: &[f32],
    shape: Shape,
    batch: impl ExactSizeIterator<Item = &'a NetSample>,
    k: f64,
    grad: &mut [f32],
) {
    let (h, n1) = (shape.hidden, shape.n1);
    grad.fill(0.0);
    let scale = 1.0 / batch.len().max(1) as f32;
    let mut acc = [0f32; MAX_HIDDEN];
    let acc = &mut acc[..h];
    for s in batch {
        let out = forward(w, (&s.inputs, h, n1), acc);
        let (correction, slope) = shape.squash(out);
        let z = k * f64::from(s.base + correction);
        let p = 1.0 / (1.0 + (-z).exp());
        // d loss / d out.
        let d = ((p - f64::from(s.target)) * k * f64::from(slope)) as f32 * scale;
        grad[n1 + 2 * h] += d;
        for j in 0..h {
            let a = acc[j];
            grad[n1 + h + j] += d * a.clamp(0.0, 1.0);
            // Through the clipped unit only where it is not clipped.
            acc[j] = if a > 0.0 && a < 1.0 {
                d * w[n1 + h + j]
            } else {
                0.0
            };
            grad[n1 + j] += acc[j];
        }
        for &(i, c) in &s.inputs {
            let row = &mut grad[i as usize * h..][..h];
            for (g, da) in row.iter_mut().zip(acc.iter()) {
                *g += c * da;
            }
        }
    }
}

/// One step of Adam over every weight; `biases_from`..`biases_from + h` (the hidden
/// biases) and the last (the output's) are not decayed.
fn step(w: &mut [f32], adam: &mut Adam, rate: f32, biases_from: usize) {
    const B1: f32 = 0.9;
    const B2: f32 = 0.999;
    adam.t += 1;
    let c1 = 1.0 - B1.powi(adam.t);
    let c2 = 1.0 - B2.powi(adam.t);
    let hidden = (w.len() - 1 - biases_from) / 2;
    for (i, x) in w.iter_mut().enumerate() {
        let bias = (biases_from..biases_from + hidden).contains(&i) || i + 1 == adam.grad.len();
        let g = adam.grad[i] + if bias { 0.0 } else { DECAY * *x };
        adam.m[i] = B1 * adam.m[i] + (1.0 - B1) * g;
        adam.v[i] = B2 * adam.v[i] + (1.0 - B2) * g * g;
        *x -= rate * (adam.m[i] / c1) / ((adam.v[i] / c2).sqrt() + 1e-8);
    }
}
