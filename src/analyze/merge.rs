//! Runs split into shards: shard K of N plays a fixed part of the run's games, each
//! with the seed the whole run gives it (`analyze --shard K/N`), and the shards' JSON
//! reports merge into the report the whole run gives (`analyze merge`), since a report
//! is a function of its whole-number counts and of its frame ([`Frame`]).
//!
//! So a Slurm job array, Kubernetes jobs or Ray tasks can each run a shard and the
//! results still agree, figure for figure, with one machine's run of the same seeds.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::balance::{SweepPoint, SweepReport};
use super::{Counts, Frame, Report, Timing};
use crate::search::eval::Source;

/// Shard `index` (from 0) of `count`: the games `games * index / count` up to
/// `games * (index + 1) / count`, so that the shards' sizes differ by one at most.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

/// The most shards a run may be split into.
pub const MAX_SHARDS: usize = 1_000_000;

impl Shard {
    /// Shard `index` (from 0) of `count`, if `index < count <= MAX_SHARDS`.
    pub fn new(index: usize, count: usize) -> Option<Self> {
        (index < count && count <= MAX_SHARDS).then_some(Shard { index, count })
    }

    /// Reads `K/N`, K counted from 1 (as a Slurm job array's `--array=1-N` numbers
    /// its tasks).
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = || {
            format!("`{text}` is not a shard: write K/N, K from 1 to N (N at most {MAX_SHARDS})")
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k: usize = k.trim().parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        k.checked_sub(1)
            .and_then(|index| Shard::new(index, n))
            .ok_or_else(bad)
    }

    /// The numbers of this shard's games among the run's `games`.
    pub fn range(self, games: usize) -> std::ops::Range<usize> {
        let at = |i: usize| (games as u128 * i as u128 / self.count as u128) as usize;
        at(self.index)..at(self.index + 1)
    }

    /// What a shard's report says of it.
    pub fn info(self, games: usize) -> ShardInfo {
        ShardInfo {
            shard: self.index + 1,
            of: self.count,
            run_games: games,
        }
    }
}

/// A shard's place in its run, as its report gives it: shard `shard` (from 1) of `of`,
/// of a run of `run_games` games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardInfo {
    pub shard: usize,
    pub of: usize,
    pub run_games: usize,
}

/// A merged report: of one analysis or of a sweep.
#[derive(Debug, Clone, PartialEq)]
pub enum Merged {
    Report(Box<Report>),
    Sweep(SweepReport),
}

/// What merging reads of a shard's report: its frame, its counts and its place.
#[derive(Deserialize)]
struct ReportView {
    game: String,
    mode: String,
    seed: u64,
    opening_plies: usize,
    max_plies: usize,
    sides: Vec<SideView>,
    swaps: Option<usize>,
    search_vs_random: Option<serde::de::IgnoredAny>,
    pieces: Vec<PieceView>,
    counts: Counts,
    shard: Option<ShardInfo>,
    timing: Option<TimingView>,
}

#[derive(Deserialize)]
struct SideView {
    side: String,
}

#[derive(Deserialize)]
struct PieceView {
    name: String,
    value: i32,
    value_source: Source,
}

#[derive(Deserialize)]
struct TimingView {
    seconds: f64,
    threads: usize,
}

/// What merging reads of a shard's sweep.
#[derive(Deserialize)]
struct SweepView {
    game: String,
    parameter: String,
    mode: String,
    seed: u64,
    points: Vec<PointView>,
    shard: Option<ShardInfo>,
}

#[derive(Deserialize)]
struct PointView {
    value: i64,
    counts: Counts,
}

impl ReportView {
    fn frame(&self) -> Result<Frame, String> {
        let [first, second] = &self.sides[..] else {
            return Err("its report does not list two sides".to_string());
        };
        Ok(Frame {
            game: self.game.clone(),
            players: [first.side.clone(), second.side.clone()],
            pie_rule: self.swaps.is_some(),
            versus_random: self.search_vs_random.is_some(),
            mode: self.mode.clone(),
            seed: self.seed,
            opening_plies: self.opening_plies,
            max_plies: self.max_plies,
            pieces: self
                .pieces
                .iter()
                .map(|p| (p.name.clone(), p.value, p.value_source))
                .collect(),
        })
    }
}

/// Merges the JSON reports of the shards of one run, each given with its name (for
/// the errors): every shard of the run once, all of the same run (game, settings,
/// seed). The report is the one the whole run gives, but for its timing: the longest
/// shard's seconds, the threads of all.
pub fn merge(reports: &[(String, String)]) -> Result<Merged, String> {
    let values = reports
        .iter()
        .map(|(name, text)| {
            serde_json::from_str::<serde_json::Value>(text)
                .map_err(|e| format!("{name}: not a JSON report: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if values.is_empty() {
        return Err("no reports to merge".to_string());
    }
    let parse = |i: usize| {
        move |e: serde_json::Error| format!("{}: not an analysis report: {e}", reports[i].0)
    };
    if values[0].get("points").is_some() {
        let views = values
            .into_iter()
            .enumerate()
            .map(|(i, v)| serde_json::from_value::<SweepView>(v).map_err(parse(i)))
            .collect::<Result<Vec<_>, _>>()?;
        merge_sweeps(reports, views).map(Merged::Sweep)
    } else {
        let views = values
            .into_iter()
            .enumerate()
            .map(|(i, v)| serde_json::from_value::<ReportView>(v).map_err(parse(i)))
            .collect::<Result<Vec<_>, _>>()?;
        merge_reports(reports, views).map(|r| Merged::Report(Box::new(r)))
    }
}

/// Checks that the shards are those of one run, each once and none missing.
fn check_shards(reports: &[(String, String)], shards: &[Option<&ShardInfo>]) -> Result<(), String> {
    let mut seen: BTreeMap<usize, &str> = BTreeMap::new();
    let first = shards[0];
    for (i, s) in shards.iter().enumerate() {
        let name = &reports[i].0;
        let Some(s) = s else {
            return Err(format!(
                "{name}: not a shard's report (made without --shard)"
            ));
        };
        if first.is_some_and(|f| (f.of, f.run_games) != (s.of, s.run_games)) {
            return Err(format!(
                "{name}: shard {}/{} of {} games, not of the same run as {}",
                s.shard, s.of, s.run_games, reports[0].0
            ));
        }
        if let Some(other) = seen.insert(s.shard, name) {
            return Err(format!(
                "{name}: shard {}/{} again (also {other})",
                s.shard, s.of
            ));
        }
    }
    let of = first.map_or(0, |f| f.of);
    let missing: Vec<String> = (1..=of)
        .filter(|k| !seen.contains_key(k))
        .map(|k| format!("{k}/{of}"))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("shards missing: {}", missing.join(", ")))
    }
}

fn merge_reports(reports: &[(String, String)], views: Vec<ReportView>) -> Result<Report, String> {
    let shards: Vec<Option<&ShardInfo>> = views.iter().map(|v| v.shard.as_ref()).collect();
    check_shards(reports, &shards)?;
    let frame = views[0]
        .frame()
        .map_err(|e| format!("{}: {e}", reports[0].0))?;
    for (i, v) in views.iter().enumerate() {
        if v.frame().ok().as_ref() != Some(&frame) {
            return Err(format!(
                "{}: another game or other settings than {} (game, mode, seed, plies, pieces)",
                reports[i].0, reports[0].0
            ));
        }
    }
    let seconds = views
        .iter()
        .filter_map(|v| v.timing.as_ref().map(|t| t.seconds))
        .fold(0.0, f64::max);
    let threads = views
        .iter()
        .filter_map(|v| v.timing.as_ref().map(|t| t.threads))
        .sum();
    let kinds = frame.pieces.len();
    let counts = views
        .into_iter()
        .fold(Counts::new(kinds), |all, v| all.merge(v.counts));
    let mut report = counts.report(&frame);
    let secs = seconds.max(1e-9);
    report.timing = Some(Timing {
        seconds,
        threads,
        games_per_second: counts.games as f64 / secs,
        plies_per_second: counts.plies as f64 / secs,
        search_nodes: counts.nodes,
        search_nodes_per_second: counts.nodes as f64 / secs,
    });
    Ok(report)
}

fn merge_sweeps(
    reports: &[(String, String)],
    views: Vec<SweepView>,
) -> Result<SweepReport, String> {
    let shards: Vec<Option<&ShardInfo>> = views.iter().map(|v| v.shard.as_ref()).collect();
    check_shards(reports, &shards)?;
    let head = |v: &SweepView| {
        let values: Vec<i64> = v.points.iter().map(|p| p.value).collect();
        (
            v.game.clone(),
            v.parameter.clone(),
            v.mode.clone(),
            v.seed,
            values,
        )
    };
    let first = head(&views[0]);
    if let Some(i) = views.iter().position(|v| head(v) != first) {
        return Err(format!(
            "{}: another sweep than {} (game, parameter, values, mode, seed)",
            reports[i].0, reports[0].0
        ));
    }
    let mut points: Vec<(i64, Counts)> = first.4.iter().map(|&v| (v, Counts::default())).collect();
    for view in views {
        for (slot, p) in points.iter_mut().zip(view.points) {
            slot.1 = std::mem::take(&mut slot.1).merge(p.counts);
        }
    }
    Ok(SweepReport {
        game: first.0,
        parameter: first.1,
        mode: first.2,
        seed: first.3,
        points: points
            .into_iter()
            .map(|(value, counts)| SweepPoint::of_counts(value, counts, None))
            .collect(),
        shard: None,
    })
}
