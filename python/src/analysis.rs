//! Self-play analysis from Python: the command line's `analyze` (with `--shard`),
//! its sweeps, and the merging of shards' reports, all by the library's functions so
//! that the reports are the command line's, figure for figure.

use std::time::Duration;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use varsand::analyze::{self, GameConfig, Merged, Options, Report, Shard, SweepReport};
use varsand::search::Limits;

use crate::game::Game;

/// How to run an analysis: the keyword arguments of `Game.analyze`, with the
/// command line's defaults.
pub struct Settings {
    games: usize,
    depth: Option<u32>,
    movetime_ms: Option<u64>,
    random: bool,
    vs_random: bool,
    seed: u64,
    opening_plies: usize,
    max_plies: usize,
    threads: usize,
    shard: Option<Shard>,
}

/// The shard `(k, n)`, k counted from 1 as `--shard K/N` counts it.
fn shard_of(value: &Bound<'_, PyAny>) -> PyResult<Shard> {
    let (k, n): (usize, usize) = value.extract()?;
    k.checked_sub(1)
        .and_then(|index| Shard::new(index, n))
        .ok_or_else(|| PyValueError::new_err(format!("shard ({k}, {n}): k from 1 to n")))
}

impl Settings {
    /// The settings of `games` games and these keyword arguments; `TypeError` for a
    /// keyword `Game.analyze` does not take.
    pub fn read(games: usize, options: Option<&Bound<'_, PyDict>>) -> PyResult<Settings> {
        if games == 0 {
            return Err(PyValueError::new_err("games: at least 1"));
        }
        let mut s = Settings {
            games,
            depth: None,
            movetime_ms: None,
            random: false,
            vs_random: false,
            seed: 1,
            opening_plies: 2,
            max_plies: 1000,
            threads: 0,
            shard: None,
        };
        for (key, value) in options.into_iter().flat_map(PyDictMethods::iter) {
            let key: String = key.extract()?;
            if value.is_none() {
                continue;
            }
            match key.as_str() {
                "depth" => s.depth = Some(value.extract()?),
                "movetime" => s.movetime_ms = Some(value.extract()?),
                "random" => s.random = value.extract()?,
                "vs_random" => s.vs_random = value.extract()?,
                "seed" => s.seed = value.extract()?,
                "opening_plies" => s.opening_plies = value.extract()?,
                "max_plies" => s.max_plies = value.extract::<usize>()?.max(1),
                "threads" => s.threads = value.extract()?,
                "shard" => s.shard = Some(shard_of(&value)?),
                _ => return Err(PyTypeError::new_err(format!("analyze: no option {key}"))),
            }
        }
        Ok(s)
    }

    /// The library's options: a search to depth 3 unless a depth or a time is
    /// given, as `varsand analyze` plays.
    fn options(&self) -> Options {
        let limits = (!self.random).then(|| Limits {
            depth: self.depth.or(if self.movetime_ms.is_none() {
                Some(3)
            } else {
                None
            }),
            movetime: self.movetime_ms.map(Duration::from_millis),
            nodes: None,
        });
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        Options {
            games: self.games,
            limits,
            threads: if self.threads == 0 {
                cores
            } else {
                self.threads
            },
            seed: self.seed,
            config: GameConfig {
                max_plies: self.max_plies,
                opening_plies: self.opening_plies,
                ..GameConfig::default()
            },
            progress: false,
            versus_random: self.vs_random,
        }
    }
}

/// The analysis of `game` (its shard, with `shard`), played without the GIL.
pub fn analyze(py: Python<'_>, game: &Game, settings: &Settings) -> Report {
    let opts = settings.options();
    let (rules, eval) = (game.rules.clone(), game.eval.clone());
    py.detach(|| match settings.shard {
        Some(shard) => analyze::analyze_shard(&rules, eval, &opts, shard),
        None => analyze::analyze_with(&rules, eval, &opts),
    })
}

/// A sweep of `parameter` (`NAME=FROM..TO[:STEP]`): one analysis per value, each
/// with the same seeds, as `varsand analyze --sweep` runs it.
pub fn sweep(
    py: Python<'_>,
    game: &Game,
    parameter: &str,
    settings: &Settings,
) -> PyResult<SweepReport> {
    let range = analyze::parse_sweep(parameter)
        .map_err(|e| PyValueError::new_err(e.trim_end().to_string()))?;
    let mut reports = Vec::new();
    for value in range.values() {
        let mut overrides = game.overrides.clone();
        overrides.insert(range.name.clone(), value);
        let point = Game::compile(
            py,
            game.source.clone(),
            game.path.clone(),
            overrides,
            game.values.clone(),
        )?;
        reports.push((value, analyze(py, &point, settings)));
    }
    Ok(SweepReport::new(&range.name, &reports))
}

/// A report as Python data (dicts and lists), as the command line's `--json` gives it.
pub fn to_python<'py>(
    py: Python<'py>,
    value: &impl serde::Serialize,
) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value).map_err(|e| PyValueError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// Merges the reports of a run's shards (dicts as `Game.analyze(shard=...)` returns
/// them, or their JSON texts) into the report of the whole run, as `varsand analyze
/// merge` does: the same figures as one run of the same seeds. `ValueError` when a
/// shard is missing, repeated, or of another run.
#[pyfunction]
pub fn merge<'py>(py: Python<'py>, reports: &Bound<'py, PyList>) -> PyResult<Bound<'py, PyAny>> {
    let json = py.import("json")?;
    let mut texts = Vec::new();
    for (i, r) in reports.iter().enumerate() {
        let text = match r.extract::<String>() {
            Ok(t) => t,
            Err(_) => json.call_method1("dumps", (r,))?.extract()?,
        };
        texts.push((format!("report {}", i + 1), text));
    }
    match analyze::merge(&texts).map_err(PyValueError::new_err)? {
        Merged::Report(r) => to_python(py, &r),
        Merged::Sweep(s) => to_python(py, &s),
    }
}
