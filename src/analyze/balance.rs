//! Balance for designers: a parameter swept over a range of values (one analysis per
//! value, the same seeds for each), and two rule files (or two settings) compared
//! game for game, each difference with its 95% interval.

use serde::Serialize;

use super::stats::{self, Interval, Score};
use super::{Counts, Ending, Rate, Report, Stop};

/// The most values one sweep runs.
pub const MAX_SWEEP_VALUES: usize = 1000;

/// `NAME=a..b[:step]`: the values of a parameter to sweep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweepRange {
    /// A parameter, or `PLAYER.NAME` for one side only (a handicap).
    pub name: String,
    pub from: i64,
    pub to: i64,
    pub step: i64,
}

impl SweepRange {
    /// The values, from `from` to `to` by `step` (`to` included when a step lands on it).
    pub fn values(&self) -> Vec<i64> {
        let mut out = Vec::new();
        let mut v = self.from;
        while v <= self.to && out.len() < MAX_SWEEP_VALUES {
            out.push(v);
            match v.checked_add(self.step) {
                Some(next) => v = next,
                None => break,
            }
        }
        out
    }
}

/// Reads `NAME=a..b[:step]`; the error is a line ready to print.
pub fn parse_sweep(text: &str) -> Result<SweepRange, String> {
    let usage = || format!("error: --sweep wants NAME=FROM..TO[:STEP], not `{text}`\n");
    let (name, range) = text.split_once('=').ok_or_else(usage)?;
    let name = name.trim();
    if name.is_empty() {
        return Err(usage());
    }
    let (range, step) = match range.split_once(':') {
        Some((r, s)) => (r, Some(s)),
        None => (range, None),
    };
    let (from, to) = range.split_once("..").ok_or_else(usage)?;
    let number = |t: &str, what: &str| -> Result<i64, String> {
        t.trim().parse::<i64>().map_err(|_| {
            format!(
                "error: --sweep {name}: the {what} `{}` is not a whole number\n",
                t.trim()
            )
        })
    };
    let from = number(from, "start")?;
    let to = number(to, "end")?;
    let step = match step {
        Some(s) => number(s, "step")?,
        None => 1,
    };
    if step < 1 {
        return Err(format!(
            "error: --sweep {name}: the step must be 1 or more, not {step}\n"
        ));
    }
    if from > to {
        return Err(format!(
            "error: --sweep {name}: the range {from}..{to} is empty (write the low end first)\n"
        ));
    }
    let count = (i128::from(to) - i128::from(from)) / i128::from(step) + 1;
    if count > MAX_SWEEP_VALUES as i128 {
        return Err(format!(
            "error: --sweep {name}={from}..{to}:{step} is {count} values; at most {MAX_SWEEP_VALUES}\n"
        ));
    }
    Ok(SweepRange {
        name: name.to_string(),
        from,
        to,
        step,
    })
}

/// One value of a sweep: the analysis's main figures, with their counts.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SweepPoint {
    pub value: i64,
    pub games: usize,
    /// The first player's score, with its interval.
    pub score: Score,
    pub draws: Rate,
    /// The mean game length in plies, with its interval.
    pub length: Interval,
    pub endings: Vec<Ending>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop: Option<Stop>,
    pub counts: Counts,
}

impl SweepPoint {
    /// The point of `value` whose games add up to `counts`.
    pub fn of_counts(value: i64, counts: Counts, stop: Option<Stop>) -> Self {
        SweepPoint {
            value,
            games: counts.games,
            score: counts.score(),
            draws: Rate::new(counts.draws, counts.games),
            length: super::Spread::of_counts(&counts.lengths).mean_interval,
            endings: counts.endings(),
            stop,
            counts,
        }
    }
}

/// A parameter swept: one analysis per value.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SweepReport {
    pub game: String,
    pub parameter: String,
    pub mode: String,
    pub seed: u64,
    pub points: Vec<SweepPoint>,
    /// With `--shard K/N`: which part of each value's games these are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<super::ShardInfo>,
}

impl SweepReport {
    /// The sweep of these reports, one per value.
    pub fn new(parameter: &str, reports: &[(i64, Report)]) -> Self {
        let first = reports.first().map(|(_, r)| r);
        SweepReport {
            game: first.map(|r| r.game.clone()).unwrap_or_default(),
            parameter: parameter.to_string(),
            mode: first.map(|r| r.mode.clone()).unwrap_or_default(),
            seed: first.map_or(0, |r| r.seed),
            points: reports
                .iter()
                .map(|(value, r)| SweepPoint::of_counts(*value, r.counts.clone(), r.stop.clone()))
                .collect(),
            shard: first.and_then(|r| r.shard.clone()),
        }
    }

    /// The sweep as a table for a person.
    pub fn text(&self) -> String {
        let mut s = format!(
            "{}: sweep of {}, {} (seed {})\n\n",
            self.game, self.parameter, self.mode, self.seed
        );
        s += &format!(
            "{:>8} {:>6}  {:<24} {:<24} {:<22} how games ended\n",
            "value", "games", "first player's score", "draws", "length (plies)"
        );
        for p in &self.points {
            let endings: Vec<String> = p
                .endings
                .iter()
                .map(|e| format!("{} {}", e.count, e.reason))
                .collect();
            let draws = format!(
                "{:.1}% [{:.1}–{:.1}]",
                100.0 * p.draws.rate,
                100.0 * p.draws.low,
                100.0 * p.draws.high
            );
            s += &format!(
                "{:>8} {:>6}  {:<24} {draws:<24} {:<22} {}\n",
                p.value,
                p.games,
                p.score.score.text(3),
                p.length.text(1),
                endings.join(", ")
            );
        }
        s += "\n(95% intervals; the first player's score counts a draw as a half)\n";
        s
    }
}

/// A figure of two runs and their difference (A − B), with 95% intervals.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct Difference {
    pub a: Interval,
    pub b: Interval,
    pub difference: Interval,
    /// The difference's interval leaves out zero.
    pub significant: bool,
}

impl Difference {
    fn new(a: Interval, se_a: f64, b: Interval, se_b: f64) -> Self {
        let difference = stats::difference(a.value, se_a, b.value, se_b);
        Difference {
            a,
            b,
            difference,
            significant: difference.excludes_zero(),
        }
    }

    /// Two means with their intervals.
    fn of_means(a: Interval, b: Interval) -> Self {
        Self::new(a, stats::standard_error(&a), b, stats::standard_error(&b))
    }
}

/// A piece type both runs have: how its activity differs.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PieceDifference {
    pub name: String,
    pub moves_per_game: Difference,
    pub captures_per_game: Difference,
    pub captured_per_game: Difference,
}

/// Two runs compared, A − B, on the same openings and seeds.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Comparison {
    pub a: String,
    pub b: String,
    pub games: [usize; 2],
    pub score: Difference,
    pub draw_rate: Difference,
    pub length: Difference,
    pub pieces: Vec<PieceDifference>,
    /// The first player's score differs: its interval leaves out zero.
    pub significant: bool,
    pub counts: [Counts; 2],
}

/// A's report against B's.
pub fn compare(a_name: &str, a: &Report, b_name: &str, b: &Report) -> Comparison {
    let se_score = |r: &Report| (r.score.variance / r.games.max(1) as f64).sqrt();
    let score = Difference::new(a.score.score, se_score(a), b.score.score, se_score(b));
    let draws = |r: &Report| {
        let rate = Rate::new(r.counts.draws, r.games);
        let p = rate.rate;
        (
            Interval {
                value: p,
                low: rate.low,
                high: rate.high,
            },
            (p * (1.0 - p) / r.games.max(1) as f64).sqrt(),
        )
    };
    let ((da, sa), (db, sb)) = (draws(a), draws(b));
    let draw_rate = Difference::new(da, sa, db, sb);
    let length = Difference::of_means(a.length.mean_interval, b.length.mean_interval);
    let pieces = a
        .pieces
        .iter()
        .filter_map(|pa| {
            let pb = b.pieces.iter().find(|pb| pb.name == pa.name)?;
            Some(PieceDifference {
                name: pa.name.clone(),
                moves_per_game: Difference::of_means(pa.moves_per_game, pb.moves_per_game),
                captures_per_game: Difference::of_means(pa.captures_per_game, pb.captures_per_game),
                captured_per_game: Difference::of_means(
                    pa.captured_per_game_interval,
                    pb.captured_per_game_interval,
                ),
            })
        })
        .collect();
    Comparison {
        a: a_name.to_string(),
        b: b_name.to_string(),
        games: [a.games, b.games],
        significant: score.significant,
        score,
        draw_rate,
        length,
        pieces,
        counts: [a.counts.clone(), b.counts.clone()],
    }
}

impl Comparison {
    /// The comparison as text for a person.
    pub fn text(&self) -> String {
        let mut s = format!(
            "A: {} ({} games)\nB: {} ({} games)\n\n",
            self.a, self.games[0], self.b, self.games[1]
        );
        let row = |name: &str, d: &Difference, decimals: usize| {
            format!(
                "  {:<24} {:<24} {:<24} {:<26} {}\n",
                name,
                d.a.text(decimals),
                d.b.text(decimals),
                d.difference.text(decimals),
                if d.significant { "significant" } else { "-" }
            )
        };
        s += &format!(
            "  {:<24} {:<24} {:<24} {:<26} {}\n",
            "(95% intervals)", "A", "B", "A − B", ""
        );
        s += &row("first player's score", &self.score, 3);
        s += &row("draw rate", &self.draw_rate, 3);
        s += &row("length (plies)", &self.length, 1);
        for p in &self.pieces {
            s += &row(&format!("{} moves/game", p.name), &p.moves_per_game, 2);
            s += &row(
                &format!("{} captured/game", p.name),
                &p.captured_per_game,
                2,
            );
        }
        s += "\n";
        let d = &self.score.difference;
        s += &if self.significant {
            format!(
                "The change is significant: the first player's score moves by {:+.3} [{:+.3}–{:+.3}] (95%).\n",
                d.value, d.low, d.high
            )
        } else {
            format!(
                "No significant difference in the first player's score: {:+.3} [{:+.3}–{:+.3}] (95%) includes 0.\n",
                d.value, d.low, d.high
            )
        };
        s
    }
}

#[cfg(test)]
mod tests {
    use super::parse_sweep;

    #[test]
    fn sweeps_are_read_and_bounded() {
        let s = parse_sweep("white.extra=-2..4:2").unwrap();
        assert_eq!(
            (s.name.as_str(), s.from, s.to, s.step),
            ("white.extra", -2, 4, 2)
        );
        assert_eq!(s.values(), vec![-2, 0, 2, 4]);
        assert_eq!(parse_sweep("h=3..3").unwrap().values(), vec![3]);
        for bad in [
            "h",
            "h=1",
            "h=1..x",
            "h=5..1",
            "h=1..9:0",
            "=1..2",
            "h=0..100000",
        ] {
            assert!(parse_sweep(bad).is_err(), "{bad}");
        }
        let big = parse_sweep("h=-9223372036854775808..9223372036854775807:9223372036854775807");
        assert!(big.is_ok_and(|s| s.values().len() == 3));
    }
}
