//! Logistic regression on sparse features: the probability that the first player
//! wins is sigmoid(K × x·w), draws counting a half. The weights are the maximum of
//! the likelihood times a normal prior around the rules' own weights (which keeps
//! rarely seen squares near their start, and makes the problem well posed where
//! features move together, as a kind's value and the sum of its square bonuses do).
//! Newton's method finds it in a few steps; the inverse Hessian there, with the
//! games' scores summed per game (positions of one game are not independent), gives
//! the standard errors (the cluster-robust "sandwich").

use super::Sample;

/// The prior: per weight, its mean and standard deviation.
#[derive(Debug, Clone)]
pub struct Prior {
    pub mean: Vec<f64>,
    pub spread: Vec<f64>,
}

/// The most Newton steps.
const MAX_STEPS: usize = 25;
/// Newton stops when a step gains less than this much mean loss.
const TOLERANCE: f64 = 1e-9;

/// x·w.
fn dot(features: &[(u32, f32)], w: &[f64]) -> f64 {
    features
        .iter()
        .map(|&(i, x)| f64::from(x) * w[i as usize])
        .sum()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The log loss of predicting sigmoid(z) for the result y: softplus(z) − y·z, the
/// stable way.
fn log_loss(z: f64, y: f64) -> f64 {
    z.max(0.0) + (-z.abs()).exp().ln_1p() - y * z
}

/// The mean log loss of the weights at scale `k`.
pub fn mean_loss(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| log_loss(k * dot(&s.features, w), s.result))
        .sum();
    total / samples.len().max(1) as f64
}

/// The scale K that fits the weights `w` best (a golden-section search on log K).
pub fn fit_k(samples: &[Sample], w: &[f64]) -> f64 {
    let evals: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| (dot(&s.features, w), s.result))
        .collect();
    let loss = |log_k: f64| -> f64 {
        let k = log_k.exp();
        evals.iter().map(|&(e, y)| log_loss(k * e, y)).sum()
    };
    let (mut lo, mut hi) = (1e-5f64.ln(), 1e-1f64.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..80 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// The penalised loss (sum over samples plus the prior's), its gradient and Hessian.
struct Quadratic {
    loss: f64,
    gradient: Vec<f64>,
    hessian: Vec<f64>,
}

/// The penalised loss alone.
fn penalised_loss(samples: &[Sample], w: &[f64], prior: &Prior, k: f64) -> f64 {
    let data: f64 = samples
        .iter()
        .map(|s| log_loss(k * dot(&s.features, w), s.result))
        .sum();
    data + penalty(w, prior)
}

fn penalty(w: &[f64], prior: &Prior) -> f64 {
    w.iter()
        .zip(&prior.mean)
        .zip(&prior.spread)
        .map(|((w, m), s)| (w - m).powi(2) / (2.0 * s * s))
        .sum()
}

/// The loss, gradient and Hessian at `w`.
fn expand(samples: &[Sample], w: &[f64], prior: &Prior, k: f64) -> Quadratic {
    let n = w.len();
    let mut gradient: Vec<f64> = (0..n)
        .map(|j| (w[j] - prior.mean[j]) / prior.spread[j].powi(2))
        .collect();
    let mut hessian = vec![0.0; n * n];
    for j in 0..n {
        hessian[j * n + j] = 1.0 / prior.spread[j].powi(2);
    }
    let mut loss = penalty(w, prior);
    for s in samples {
        let z = k * dot(&s.features, w);
        let p = sigmoid(z);
        loss += log_loss(z, s.result);
        let r = (p - s.result) * k;
        let c = p * (1.0 - p) * k * k;
        for &(i, x) in &s.features {
            let (i, x) = (i as usize, f64::from(x));
            gradient[i] += r * x;
            for &(j, y) in &s.features {
                hessian[i * n + j as usize] += c * x * f64::from(y);
            }
        }
    }
    Quadratic {
        loss,
        gradient,
        hessian,
    }
}

/// The weights that minimise the penalised loss, from the prior's mean, at scale
/// `k`. `step` hears each step's number and mean loss.
pub fn newton(
    samples: &[Sample],
    prior: &Prior,
    k: f64,
    step: &mut dyn FnMut(usize, f64),
) -> Vec<f64> {
    let mut w = prior.mean.clone();
    let count = samples.len().max(1) as f64;
    for i in 0..MAX_STEPS {
        let q = expand(samples, &w, prior, k);
        step(i, q.loss / count);
        let Some(direction) = solve(&q.hessian, &q.gradient) else {
            break;
        };
        // Halve the step until it gains (the loss is convex: a full step nearly
        // always does).
        let mut t = 1.0;
        let mut gained = None;
        for _ in 0..20 {
            let trial: Vec<f64> = w.iter().zip(&direction).map(|(w, d)| w - t * d).collect();
            let loss = penalised_loss(samples, &trial, prior, k);
            if loss <= q.loss {
                gained = Some((trial, q.loss - loss));
                break;
            }
            t /= 2.0;
        }
        let Some((trial, gain)) = gained else {
            break;
        };
        w = trial;
        if gain / count < TOLERANCE {
            break;
        }
    }
    w
}

/// The standard errors of the weights `which` at the optimum `w`: the square roots
/// of the diagonal of H⁻¹ B H⁻¹, where B adds up, over games, the outer product of
/// each game's summed score.
pub fn standard_errors(
    samples: &[Sample],
    w: &[f64],
    prior: &Prior,
    k: f64,
    which: &[usize],
) -> Vec<f64> {
    let n = w.len();
    let q = expand(samples, w, prior, k);
    let Some(factor) = cholesky(&q.hessian, n) else {
        return vec![f64::NAN; which.len()];
    };
    // Column j of H⁻¹, for each weight asked about.
    let columns: Vec<Vec<f64>> = which
        .iter()
        .map(|&j| {
            let mut e = vec![0.0; n];
            e[j] = 1.0;
            cholesky_solve(&factor, n, &e)
        })
        .collect();
    let games = samples
        .iter()
        .map(|s| s.game as usize + 1)
        .max()
        .unwrap_or(0);
    let mut per_game = vec![vec![0.0; which.len()]; games];
    for s in samples {
        let r = (sigmoid(k * dot(&s.features, w)) - s.result) * k;
        for (slot, column) in per_game[s.game as usize].iter_mut().zip(&columns) {
            *slot += r * dot(&s.features, column);
        }
    }
    (0..which.len())
        .map(|i| per_game.iter().map(|g| g[i] * g[i]).sum::<f64>().sqrt())
        .collect()
}

/// Solves H d = g for a symmetric positive definite H (None if it is not).
fn solve(h: &[f64], g: &[f64]) -> Option<Vec<f64>> {
    let n = g.len();
    cholesky(h, n).map(|l| cholesky_solve(&l, n, g))
}

/// The lower triangular L with L Lᵀ = A (row-major, n × n), if A is positive definite.
fn cholesky(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|m| l[i * n + m] * l[j * n + m]).sum();
            if i == j {
                let d = a[i * n + i] - s;
                if d <= 0.0 || !d.is_finite() {
                    return None;
                }
                l[i * n + i] = d.sqrt();
            } else {
                l[i * n + j] = (a[i * n + j] - s) / l[j * n + j];
            }
        }
    }
    Some(l)
}

/// Solves L Lᵀ x = b.
fn cholesky_solve(l: &[f64], n: usize, b: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; n];
    for i in 0..n {
        let s: f64 = (0..i).map(|m| l[i * n + m] * y[m]).sum();
        y[i] = (b[i] - s) / l[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|m| l[m * n + i] * x[m]).sum();
        x[i] = (y[i] - s) / l[i * n + i];
    }
    x
}
