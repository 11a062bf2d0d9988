//! `Game`: a rule file checked and compiled, with its settings and evaluation.

use std::path::Path;
use std::sync::Arc;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use varsand::check::Overrides;
use varsand::search::{Eval, learned};
use varsand::session::{parse_overrides, read_text, render_problems};
use varsand::{Position as EnginePosition, Rules};

use crate::VarsandError;
use crate::analysis::{self, Settings};
use crate::encode::Encoding;
use crate::position::Position;

/// A game: a rule file checked and compiled, with the parameters it was loaded with.
///
/// Made by `varsand.load(path)` or `Game.from_text(text)`. Positions, the fixed
/// action numbering of the PettingZoo environment, and self-play analysis start here.
#[pyclass(module = "varsand._native", frozen)]
pub struct Game {
    pub(crate) rules: Arc<Rules>,
    pub(crate) eval: Arc<Eval>,
    pub(crate) encoding: Arc<Encoding>,
    /// The rule text, its name (a path), the `set` parameters and the values text:
    /// what a Ray task needs to load the same game elsewhere.
    pub(crate) source: String,
    pub(crate) path: String,
    pub(crate) overrides: Overrides,
    pub(crate) values: Option<String>,
}

/// The `set` parameters as the command line's `--set NAME=VALUE` reads them.
fn overrides_of(set: Option<&Bound<'_, PyDict>>) -> PyResult<Overrides> {
    let mut pairs = Vec::new();
    for (k, v) in set.into_iter().flat_map(PyDictMethods::iter) {
        pairs.push(format!(
            "{}={}",
            k.extract::<String>()?,
            v.extract::<i64>()?
        ));
    }
    parse_overrides(&pairs).map_err(|e| PyValueError::new_err(e.trim_end().to_string()))
}

impl Game {
    /// Checks and compiles `source`; a `VarsandError` with the rendered diagnostics.
    pub(crate) fn compile(
        py: Python<'_>,
        source: String,
        path: String,
        overrides: Overrides,
        values: Option<String>,
    ) -> PyResult<Game> {
        let rules = match varsand::loader::load(&source, &overrides) {
            Ok(r) => Arc::new(r),
            Err(problems) => return Err(diagnostics_error(py, &problems, &path, &source)),
        };
        // A stale values file is ignored, as the command line ignores it (it warns).
        let (eval, _warning) = learned::eval_of_texts(&rules, &source, values.as_deref());
        Ok(Game {
            encoding: Arc::new(Encoding::new(&rules)),
            rules,
            eval: Arc::new(eval),
            source,
            path,
            overrides,
            values,
        })
    }
}

/// The exception for a rule file with errors, carrying its diagnostics.
fn diagnostics_error(
    py: Python<'_>,
    problems: &[varsand::diagnostic::Problem],
    path: &str,
    source: &str,
) -> PyErr {
    let text = render_problems(problems, Path::new(path), source, false);
    let err = VarsandError::new_err(text.clone());
    let value = err.value(py);
    let json = varsand::diagnostic::to_json(problems, path, source).to_string();
    let problems = py
        .import("json")
        .and_then(|j| j.call_method1("loads", (json,)));
    let _ = value.setattr("diagnostics", text);
    if let Ok(p) = problems {
        let _ = value.setattr("problems", p);
    }
    err
}

/// Loads a rule file.
///
/// `set` gives parameters the file declares (`{"NAME": 3}` or `{"PLAYER.NAME": 3}`),
/// as `--set` does. The learned values beside the file (`GAME.values`) are read when
/// they were fitted to its present text, as the command line reads them. Raises
/// `VarsandError` (with `.diagnostics`, the report as text, and `.problems`) when
/// the file has errors, `OSError` when it cannot be read.
#[pyfunction]
#[pyo3(signature = (path, set = None))]
pub fn load(py: Python<'_>, path: &str, set: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
    let source = read_text(Path::new(path)).map_err(PyOSError::new_err)?;
    let values = std::fs::read_to_string(learned::values_path(Path::new(path))).ok();
    Game::compile(py, source, path.to_string(), overrides_of(set)?, values)
}

#[pymethods]
impl Game {
    /// A game from a rule file's text; `name` is how diagnostics name it, `values`
    /// the text of a values file (used when fitted to this very text).
    #[staticmethod]
    #[pyo3(signature = (text, name = "<text>", set = None, values = None))]
    fn from_text(
        py: Python<'_>,
        text: String,
        name: &str,
        set: Option<&Bound<'_, PyDict>>,
        values: Option<String>,
    ) -> PyResult<Game> {
        Game::compile(py, text, name.to_string(), overrides_of(set)?, values)
    }

    /// The game's name, as the file declares it.
    #[getter]
    fn name(&self) -> String {
        self.rules.name.clone()
    }

    /// The path or name the game was loaded from.
    #[getter]
    fn path(&self) -> String {
        self.path.clone()
    }

    /// The rule file's text.
    #[getter]
    fn source(&self) -> String {
        self.source.clone()
    }

    /// The `set` parameters it was loaded with.
    #[getter]
    fn parameters(&self) -> Vec<(String, i64)> {
        self.overrides
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect()
    }

    /// The text of the values file in use, if any.
    #[getter]
    fn values(&self) -> Option<String> {
        self.values.clone()
    }

    /// The two players' names, the first to move first.
    #[getter]
    fn players(&self) -> Vec<String> {
        self.rules.players.iter().map(|p| p.name.clone()).collect()
    }

    /// The piece kinds' names, in the file's order (the observation's plane order).
    #[getter]
    fn pieces(&self) -> Vec<String> {
        self.rules.pieces.iter().map(|p| p.name.clone()).collect()
    }

    /// Every square's name, in cell order (the board's a1, b1, ..., then side boards).
    #[getter]
    fn squares(&self) -> Vec<String> {
        self.rules
            .geometry
            .cells
            .iter()
            .map(|c| c.name.clone())
            .collect()
    }

    /// The counters the file declares.
    #[getter]
    fn counters(&self) -> Vec<String> {
        self.rules.counters().to_vec()
    }

    /// The number of actions: every move of this game has a fixed number below it.
    #[getter]
    fn action_count(&self) -> usize {
        self.encoding.size()
    }

    /// The observation's shape: (planes, rows, columns).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        self.encoding.shape()
    }

    /// What each observation plane holds, in order.
    #[getter]
    fn observation_planes(&self) -> Vec<String> {
        self.encoding.plane_names(&self.rules)
    }

    /// The setup position.
    fn start(&self) -> Position {
        Position::new(self, EnginePosition::start(self.rules.clone()))
    }

    /// The position a position string gives; `ValueError` when it does not read.
    fn position(&self, fen: &str) -> PyResult<Position> {
        EnginePosition::from_fen(self.rules.clone(), fen)
            .map(|p| Position::new(self, p))
            .map_err(|e| PyValueError::new_err(format!("bad position string: {e}")))
    }

    /// Self-play analysis, as `varsand analyze` runs it; the report as a dict (the
    /// command line's `--json`). Options, with the command line's defaults: `depth`
    /// (3 unless `movetime` is given), `movetime` (ms per move), `random` (uniformly
    /// random games), `vs_random`, `seed` (1), `opening_plies` (2), `max_plies`
    /// (1000), `threads` (0: every core), `shard` ((k, n): shard k of n of the games,
    /// k from 1, each game with the seed the whole run gives it; `varsand.merge`
    /// adds shards up).
    #[pyo3(signature = (games = 100, **options))]
    fn analyze<'py>(
        &self,
        py: Python<'py>,
        games: usize,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let settings = Settings::read(games, options)?;
        analysis::to_python(py, &analysis::analyze(py, self, &settings))
    }

    /// A parameter swept (`"NAME=FROM..TO[:STEP]"`): one analysis per value with the
    /// same seeds, as `varsand analyze --sweep`; the options of `analyze`.
    #[pyo3(signature = (parameter, games = 100, **options))]
    fn sweep<'py>(
        &self,
        py: Python<'py>,
        parameter: &str,
        games: usize,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let settings = Settings::read(games, options)?;
        let report = analysis::sweep(py, self, parameter, &settings)?;
        analysis::to_python(py, &report)
    }

    fn __repr__(&self) -> String {
        format!("<varsand.Game {:?} from {:?}>", self.rules.name, self.path)
    }
}
