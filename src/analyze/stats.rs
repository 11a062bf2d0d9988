//! The intervals of a self-play analysis: a score with draws, a mean, a difference
//! of two of them, and the regression of the result on material. Everything here is
//! a 95% interval, computed from counts (so that counts added up over runs give the
//! same figures as one long run).

use serde::{Deserialize, Serialize};

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A figure with its 95% interval.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
pub struct Interval {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Interval {
    /// A figure known exactly (or with nothing to measure it by).
    pub fn exact(value: f64) -> Self {
        Interval {
            value,
            low: value,
            high: value,
        }
    }

    /// `value ± half`.
    pub fn around(value: f64, half: f64) -> Self {
        Interval {
            value,
            low: value - half,
            high: value + half,
        }
    }

    /// Half the interval's width.
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// The interval leaves out zero.
    pub fn excludes_zero(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }

    /// `v [low–high]` with `decimals` decimals.
    pub fn text(&self, decimals: usize) -> String {
        format!(
            "{:.d$} [{:.d$}–{:.d$}]",
            self.value,
            self.low,
            self.high,
            d = decimals
        )
    }
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
    score_bounds(k, 0, n)
}

/// The 95% interval of a score (a win 1, a draw ½, a loss 0) from `wins` and
/// `draws` in `n` games: Wilson's interval with the variance of a game with draws,
/// p(1 − p) − D/4 (D the draw rate), where D is taken at its own interval's low end
/// so that a few drawn games do not make the interval narrow. Without draws it is
/// Wilson's interval exactly; it is never narrower than the truth allows at the
/// draw rate's low end.
pub fn score_bounds(wins: usize, draws: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z2 = Z95 * Z95;
    let nf = n as f64;
    let p = (wins as f64 + draws as f64 / 2.0) / nf;
    let d = if draws == 0 {
        0.0
    } else {
        score_bounds(draws, 0, n).0
    };
    // The p with (p̂ − p)² n = z² (p(1 − p) − d/4): a quadratic in p.
    let a = nf + z2;
    let b = 2.0 * nf * p + z2;
    let c = nf * p * p + z2 * d / 4.0;
    let disc = (b * b - 4.0 * a * c).max(0.0);
    let low = (b - disc.sqrt()) / (2.0 * a);
    let high = (b + disc.sqrt()) / (2.0 * a);
    (low.max(0.0), high.min(1.0))
}

/// One player's results: counts, the score (draws a half) and its interval.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Score {
    pub player: String,
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// (wins + draws / 2) / games, with its 95% interval.
    pub score: Interval,
    /// The variance of one game's score (wins 1, draws ½, losses 0).
    pub variance: f64,
}

impl Score {
    pub fn new(player: &str, wins: usize, draws: usize, losses: usize) -> Self {
        let n = wins + draws + losses;
        let (low, high) = score_bounds(wins, draws, n);
        let nf = n.max(1) as f64;
        let value = if n == 0 {
            0.5
        } else {
            (wins as f64 + draws as f64 / 2.0) / nf
        };
        let variance = if n == 0 {
            0.25
        } else {
            ((wins as f64 + draws as f64 / 4.0) / nf - value * value).max(0.0)
        };
        Score {
            player: player.to_string(),
            games: n,
            wins,
            draws,
            losses,
            score: Interval { value, low, high },
            variance,
        }
    }
}

/// The mean of `n` values with this sum and sum of squares, with its normal 95%
/// interval (exact when there is one value or none).
pub fn mean_interval(n: u64, sum: f64, sum_sq: f64) -> Interval {
    if n == 0 {
        return Interval::exact(0.0);
    }
    let nf = n as f64;
    let mean = sum / nf;
    if n == 1 {
        return Interval::exact(mean);
    }
    let var = ((sum_sq - nf * mean * mean) / (nf - 1.0)).max(0.0);
    Interval::around(mean, Z95 * (var / nf).sqrt())
}

/// A - B for two independent estimates, each with its standard error: the
/// difference with its normal 95% interval.
pub fn difference(a: f64, se_a: f64, b: f64, se_b: f64) -> Interval {
    Interval::around(a - b, Z95 * (se_a * se_a + se_b * se_b).sqrt())
}

/// The standard error of a mean interval (its half-width over z).
pub fn standard_error(i: &Interval) -> f64 {
    i.half_width() / Z95
}

/// Least squares on counts: the solution of (XᵀX) β = Xᵀy for a symmetric
/// positive semi-definite `xtx` (row-major, `p` × `p`, column 0 the constant),
/// leaving out the columns that never vary; with the residual
/// variance `s2`, the standard errors sqrt(s2 · (XᵀX)⁻¹ᵢᵢ). `None` for a
/// coefficient that could not be measured.
pub fn least_squares(
    xtx: &[f64],
    xty: &[f64],
    p: usize,
    s2_of: impl Fn(&[f64]) -> f64,
) -> Vec<Option<(f64, f64)>> {
    // Column 0 is the constant; a column that does not vary about its mean (its
    // centred sum of squares nothing beside its plain one) cannot be measured.
    let n = xtx[0];
    let keep: Vec<usize> = (0..p)
        .filter(|&i| {
            let plain = xtx[i * p + i];
            if i == 0 {
                return plain > 0.0;
            }
            let centred = plain - xtx[i] * xtx[i] / n.max(1e-300);
            n > 0.0 && centred > 1e-9 * plain.max(1.0)
        })
        .collect();
    let m = keep.len();
    if m == 0 {
        return vec![None; p];
    }
    let a: Vec<f64> = keep
        .iter()
        .flat_map(|&i| keep.iter().map(move |&j| xtx[i * p + j]))
        .collect();
    let Some(inverse) = invert(&a, m) else {
        return vec![None; p];
    };
    let mut beta = vec![0.0; p];
    for (r, &i) in keep.iter().enumerate() {
        beta[i] = keep
            .iter()
            .enumerate()
            .map(|(c, &j)| inverse[r * m + c] * xty[j])
            .sum();
    }
    let s2 = s2_of(&beta);
    let mut out = vec![None; p];
    for (r, &i) in keep.iter().enumerate() {
        out[i] = Some((beta[i], (s2 * inverse[r * m + r]).max(0.0).sqrt()));
    }
    out
}

/// The inverse of an `n` × `n` matrix (Gauss–Jordan with partial pivoting), if it
/// is not singular.
fn invert(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut m = a.to_vec();
    let mut inv = vec![0.0; n * n];
    for i in 0..n {
        inv[i * n + i] = 1.0;
    }
    let scale = (0..n).map(|i| a[i * n + i].abs()).fold(0.0, f64::max);
    for col in 0..n {
        let pivot =
            (col..n).max_by(|&x, &y| m[x * n + col].abs().total_cmp(&m[y * n + col].abs()))?;
        if m[pivot * n + col].abs() <= scale * 1e-12 {
            return None;
        }
        if pivot != col {
            for k in 0..n {
                m.swap(pivot * n + k, col * n + k);
                inv.swap(pivot * n + k, col * n + k);
            }
        }
        let d = m[col * n + col];
        for k in 0..n {
            m[col * n + k] /= d;
            inv[col * n + k] /= d;
        }
        for r in 0..n {
            if r != col {
                let f = m[r * n + col];
                if f != 0.0 {
                    for k in 0..n {
                        m[r * n + k] -= f * m[col * n + k];
                        inv[r * n + k] -= f * inv[col * n + k];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::{score_bounds, wilson};

    #[test]
    fn without_draws_the_score_interval_is_wilsons() {
        let (a, b) = score_bounds(7, 0, 20);
        let (c, d) = wilson(7, 20);
        assert!((a - c).abs() < 1e-12 && (b - d).abs() < 1e-12);
        // Wilson, 7 of 20: 0.181 to 0.567.
        assert!(
            (c - 0.1812).abs() < 1e-3 && (d - 0.5671).abs() < 1e-3,
            "{c} {d}"
        );
    }

    #[test]
    fn draws_narrow_the_interval_but_never_to_nothing() {
        let (a, b) = score_bounds(0, 10, 10);
        assert!(a < 0.5 && b > 0.5, "{a} {b}");
        let (c, d) = score_bounds(25, 50, 100);
        let (e, f) = score_bounds(50, 0, 100);
        assert!(d - c < f - e);
    }
}
