//! A match's score from the first engine's view, and the Elo difference it suggests,
//! computed as cutechess-cli and fastchess compute it: the logistic formula on the
//! mean score, with a 95% interval from the trinomial variance of the results
//! (wins, draws, losses), and the likelihood of superiority.

use serde::Serialize;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of the first engine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Score {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// The Elo difference a score suggests; `None` where it is infinite (a score of 0%
/// or 100%, or an interval reaching one).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Elo {
    pub diff: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// Half the interval's width, as cutechess-cli prints it (`+35.2 +/- 60.1`).
    pub margin: Option<f64>,
    /// Likelihood of superiority: the chance that the first engine is the stronger.
    pub los: Option<f64>,
}

impl Score {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The mean score per game (0 to 1), `None` before any game.
    pub fn mean(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    pub fn elo(&self) -> Elo {
        let n = self.games() as f64;
        let Some(s) = self.mean() else {
            return Elo {
                diff: None,
                low: None,
                high: None,
                margin: None,
                los: None,
            };
        };
        let deviation = |x: f64, count: u64| count as f64 * (x - s).powi(2);
        let variance =
            (deviation(1.0, self.wins) + deviation(0.5, self.draws) + deviation(0.0, self.losses))
                / n;
        let error = (variance / n).sqrt();
        let (low, high) = (elo_of(s - Z95 * error), elo_of(s + Z95 * error));
        let decisive = (self.wins + self.losses) as f64;
        Elo {
            diff: elo_of(s),
            low,
            high,
            margin: low.zip(high).map(|(l, h)| (h - l) / 2.0),
            los: (decisive > 0.0).then(|| {
                0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
            }),
        }
    }

    /// The first engine's result of one game: 1, 1/2 or 0 (`Some(true)` a win).
    pub fn add(&mut self, won: Option<bool>) {
        match won {
            Some(true) => self.wins += 1,
            Some(false) => self.losses += 1,
            None => self.draws += 1,
        }
    }
}

/// The Elo difference of a mean score: `-400 log10(1/s - 1)`; `None` outside (0, 1).
fn elo_of(s: f64) -> Option<f64> {
    (s > 0.0 && s < 1.0).then(|| -400.0 * (1.0 / s - 1.0).log10())
}

/// The error function (Abramowitz and Stegun 7.1.26; error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 { -y } else { y }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 0.05)
    }

    #[test]
    fn an_even_score_is_zero_elo() {
        let s = Score {
            wins: 10,
            draws: 10,
            losses: 10,
        };
        let e = s.elo();
        assert!(close(e.diff, 0.0));
        assert!(close(e.los, 50.0 / 100.0));
        assert!(e.low.unwrap() < 0.0 && e.high.unwrap() > 0.0);
    }

    #[test]
    fn figures_match_cutechess() {
        // 60 - 30 - 10 (W - L - D), computed by hand with cutechess-cli's formula
        // (its EloCalculator): 107.5 +/- 68.5, interval 43.2 to 180.1, LOS 99.92 %.
        let s = Score {
            wins: 60,
            draws: 10,
            losses: 30,
        };
        let e = s.elo();
        assert!(close(e.diff, 107.54), "{e:?}");
        assert!(close(e.low, 43.16) && close(e.high, 180.08), "{e:?}");
        assert!(close(e.margin, 68.46), "{e:?}");
        assert!(e.los.is_some_and(|l| (l - 0.999_217).abs() < 1e-5), "{e:?}");
    }

    #[test]
    fn a_clean_sweep_has_no_finite_estimate() {
        let s = Score {
            wins: 4,
            draws: 0,
            losses: 0,
        };
        let e = s.elo();
        assert_eq!(e.diff, None);
        assert_eq!(e.high, None);
        assert!(close(e.los, 0.9999));
        assert_eq!(Score::default().elo().diff, None);
    }

    #[test]
    fn erf_is_accurate() {
        assert!((erf(0.5) - 0.520_499_878).abs() < 1e-6);
        assert!((erf(-1.0) + 0.842_700_793).abs() < 1e-6);
    }
}
