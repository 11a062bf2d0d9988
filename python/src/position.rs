//! `Position`: a game in progress, with its moves as texts, objects and action
//! numbers, push/pop, the outcome, perft, the computer's move and its picture.

use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use varsand::engine::{GameEnd, Move as EngineMove, MoveShape, Position as EnginePosition};
use varsand::perft::Perft;
use varsand::rules::{Rules, kind_of};
use varsand::search::{Ends, Eval, Limits, Searcher};

use crate::encode::Encoding;
use crate::game::Game;

/// A legal move, as the engine writes it and as an agent numbers it.
#[pyclass(module = "varsand._native", frozen, get_all, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Move {
    /// The move's text, as the command line reads and writes it (`e2e4`, `P@e5`).
    pub text: String,
    /// "step", "castle", "drop", "exit", "capture-in-place", "pass" or "swap".
    pub kind: String,
    /// The square the piece leaves, if one does.
    pub origin: Option<String>,
    /// The square it lands or captures on, if any.
    pub target: Option<String>,
    /// The piece kind it turns into (a promotion or a flip), if any.
    pub becomes: Option<String>,
    /// The piece kind dropped from the hand, for a drop.
    pub piece: Option<String>,
    /// Its number in the game's fixed action space (`Game.action_count`).
    pub action: usize,
}

#[pymethods]
impl Move {
    fn __str__(&self) -> String {
        self.text.clone()
    }
    fn __repr__(&self) -> String {
        format!("<varsand.Move {}>", self.text)
    }
}

/// How a game ended.
#[pyclass(module = "varsand._native", frozen, get_all)]
pub struct Outcome {
    /// The winning side (0 moved first, as `Game.players`), or None for a draw.
    pub winner: Option<usize>,
    /// The winner's name, or None for a draw.
    pub winner_name: Option<String>,
    /// The kind of ending, as analysis counts it: "checkmate", "repetition (3 times)".
    pub reason: String,
    /// The ending in a sentence: "black is checkmated".
    pub description: String,
    /// The side the rule is about (the checkmated player, say).
    pub side: usize,
}

#[pymethods]
impl Outcome {
    fn __repr__(&self) -> String {
        format!("<varsand.Outcome {}>", self.description)
    }
}

/// What the computer's search found.
#[pyclass(module = "varsand._native", frozen, get_all)]
pub struct SearchResult {
    /// The move to play (its text), None when the game is over.
    #[pyo3(name = "move")]
    pub best: Option<String>,
    /// Centipawns from the side to move's view (mate scores are beyond 30000).
    pub score: i32,
    /// The score as a person reads it: "+0.35", "win in 3".
    pub score_text: String,
    pub depth: u32,
    pub nodes: u64,
    pub seconds: f64,
    /// The expected line, as move texts.
    pub pv: Vec<String>,
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self) -> String {
        format!(
            "<varsand.SearchResult {} {} depth {}>",
            self.best.as_deref().unwrap_or("-"),
            self.score_text,
            self.depth
        )
    }
}

/// A position of a game, with the moves that led to it from where it was made.
///
/// Moves are played with `push` (a text, a `Move`) or `push_action` (an action
/// number) and taken back with `pop`. The legal moves are listed once per position
/// and kept until the next push or pop, so that `legal_count`, `push_index` and
/// `outcome` cost little in a game loop.
#[pyclass(module = "varsand._native")]
pub struct Position {
    rules: Arc<Rules>,
    eval: Arc<Eval>,
    encoding: Arc<Encoding>,
    ends: Ends,
    pos: EnginePosition,
    played: Vec<EngineMove>,
    legal: Option<Vec<EngineMove>>,
    searcher: Option<Searcher>,
}

impl Position {
    pub(crate) fn new(game: &Game, pos: EnginePosition) -> Self {
        Position {
            rules: game.rules.clone(),
            eval: game.eval.clone(),
            encoding: game.encoding.clone(),
            ends: Ends::new(&game.rules),
            pos,
            played: Vec::new(),
            legal: None,
            searcher: None,
        }
    }

    /// The legal moves, listed once per position.
    fn legal(&mut self) -> &[EngineMove] {
        let pos = &mut self.pos;
        self.legal.get_or_insert_with(|| pos.legal_moves())
    }

    fn make(&mut self, m: EngineMove) -> String {
        let text = self.pos.move_text(m);
        self.pos.make(m);
        self.played.push(m);
        self.legal = None;
        text
    }

    fn move_object(&self, m: EngineMove) -> Move {
        let name = |c: varsand::rules::Cell| Some(self.rules.geometry.name(c).to_string());
        let piece = |k: usize| Some(self.rules.pieces[k].name.clone());
        let (kind, becomes, dropped) = match self.pos.shape(m) {
            MoveShape::Step { becomes, .. } => {
                ("step", becomes.and_then(|c| piece(kind_of(c))), None)
            }
            MoveShape::Castle { .. } => ("castle", None, None),
            MoveShape::Gate {
                castling, piece: p, ..
            } => (
                if castling.is_some() {
                    "castle-gate"
                } else {
                    "gate"
                },
                None,
                piece(kind_of(p)),
            ),
            MoveShape::Drop { piece: k, .. } => ("drop", None, piece(k)),
            MoveShape::Exit { .. } => ("exit", None, None),
            MoveShape::Rifle { .. } => ("capture-in-place", None, None),
            MoveShape::Pass => ("pass", None, None),
            MoveShape::Swap => ("swap", None, None),
        };
        Move {
            text: self.pos.move_text(m),
            kind: kind.to_string(),
            origin: m.origin().and_then(name),
            target: m.target().and_then(name),
            becomes,
            piece: dropped,
            action: self.encoding.action(&self.pos, m),
        }
    }

    fn end(&mut self) -> Option<GameEnd> {
        self.legal();
        let moves = self.legal.take().unwrap_or_default();
        let end = self.ends.game_end(&mut self.pos, &moves);
        self.legal = Some(moves);
        end
    }

    /// The limits of a search: any of depth, nodes and seconds; one second if none.
    fn limits(depth: Option<u32>, nodes: Option<u64>, time: Option<f64>) -> PyResult<Limits> {
        let movetime = match time {
            Some(t) if !(t > 0.0 && t <= 86_400.0) => {
                return Err(PyValueError::new_err(
                    "time is in seconds, above 0 and at most a day",
                ));
            }
            Some(t) => Some(Duration::from_secs_f64(t)),
            None if depth.is_none() && nodes.is_none() => Some(Duration::from_secs(1)),
            None => None,
        };
        Ok(Limits {
            depth,
            movetime,
            nodes,
        })
    }
}

#[pymethods]
impl Position {
    /// The legal moves' texts, in the engine's order.
    fn legal_moves(&mut self) -> Vec<String> {
        let moves = self.legal().to_vec();
        moves.into_iter().map(|m| self.pos.move_text(m)).collect()
    }

    /// The legal moves as `Move` objects.
    fn moves(&mut self) -> Vec<Move> {
        let moves = self.legal().to_vec();
        moves.into_iter().map(|m| self.move_object(m)).collect()
    }

    /// The legal moves' action numbers, in the order of `legal_moves`.
    fn legal_actions(&mut self) -> Vec<usize> {
        let moves = self.legal().to_vec();
        moves
            .into_iter()
            .map(|m| self.encoding.action(&self.pos, m))
            .collect()
    }

    /// How many legal moves there are.
    fn legal_count(&mut self) -> usize {
        self.legal().len()
    }

    /// Plays a move given as its text or as a `Move`; returns its text. `ValueError`
    /// (saying why) when it is not legal here.
    fn push(&mut self, m: &Bound<'_, PyAny>) -> PyResult<String> {
        let text = match m.cast::<Move>() {
            Ok(mv) => mv.get().text.clone(),
            Err(_) => m.extract::<String>()?,
        };
        match self.pos.parse_move(&text) {
            Ok(found) => Ok(self.make(found)),
            Err(_) => Err(PyValueError::new_err(format!(
                "{text}: {}",
                self.pos.why_illegal(&text)
            ))),
        }
    }

    /// Plays the legal move with this action number; returns its text.
    fn push_action(&mut self, action: usize) -> PyResult<String> {
        let moves = self.legal().to_vec();
        let found = moves
            .into_iter()
            .find(|&m| self.encoding.action(&self.pos, m) == action);
        match found {
            Some(m) => Ok(self.make(m)),
            None => Err(PyValueError::new_err(format!(
                "action {action} is not a legal move here"
            ))),
        }
    }

    /// Plays the legal move number `index` (of `legal_count`, in the order of
    /// `legal_moves`); returns nothing, for speed in random playouts.
    fn push_index(&mut self, index: usize) -> PyResult<()> {
        let m = self.legal().get(index).copied();
        let m = m.ok_or_else(|| PyIndexError::new_err("no legal move has this index"))?;
        self.pos.make(m);
        self.played.push(m);
        self.legal = None;
        Ok(())
    }

    /// Takes back the last move pushed; returns its text. `IndexError` if none.
    fn pop(&mut self) -> PyResult<String> {
        let m = self
            .played
            .pop()
            .ok_or_else(|| PyIndexError::new_err("no move to take back"))?;
        self.pos.unmake();
        self.legal = None;
        Ok(self.pos.move_text(m))
    }

    /// The position string (a FEN extended to the game).
    fn fen(&self) -> String {
        self.pos.fen()
    }

    /// The side to move: 0 for the first player, 1 for the second.
    #[getter]
    fn turn(&self) -> usize {
        self.pos.side_to_move().index()
    }

    /// Plies played in the game (from its start, position strings included).
    #[getter]
    fn ply(&self) -> usize {
        self.pos.ply()
    }

    /// The texts of the moves pushed on this object, the first first.
    #[getter]
    fn history(&self) -> PyResult<Vec<String>> {
        let mut pos = self.pos.clone();
        let mut texts = Vec::with_capacity(self.played.len());
        for &m in self.played.iter().rev() {
            pos.unmake();
            texts.push(pos.move_text(m));
        }
        texts.reverse();
        Ok(texts)
    }

    /// How the game ended, or None while it goes on (every end rule of the file:
    /// checkmate, captures, repetition, move limits...).
    fn outcome(&mut self) -> Option<Outcome> {
        let end = self.end()?;
        let rules = &self.rules;
        Some(Outcome {
            winner: end.winner.map(varsand::ids::Side::index),
            winner_name: end.winner.map(|s| rules.players[s].name.clone()),
            reason: end.reason.words(rules),
            description: end.describe(rules),
            side: end.side.index(),
        })
    }

    /// Has the game ended?
    fn is_over(&mut self) -> bool {
        self.end().is_some()
    }

    /// The leaf nodes `depth` plies below (perft), counted without the GIL.
    fn perft(&mut self, py: Python<'_>, depth: usize) -> PyResult<u64> {
        if depth > varsand::session::MAX_PERFT_DEPTH {
            return Err(PyValueError::new_err("perft depth at most 64"));
        }
        let pos = &mut self.pos;
        Ok(py.detach(|| Perft::new().count(pos, depth)))
    }

    /// The count below each legal move (perft divide), as (move text, count) pairs.
    fn divide(&mut self, py: Python<'_>, depth: usize) -> PyResult<Vec<(String, u64)>> {
        if !(1..=varsand::session::MAX_PERFT_DEPTH).contains(&depth) {
            return Err(PyValueError::new_err("divide depth from 1 to 64"));
        }
        let pos = &mut self.pos;
        Ok(py.detach(|| Perft::new().divide(pos, depth)))
    }

    /// The computer's move: a search to `depth` plies, of `nodes` nodes or of `time`
    /// seconds (whichever comes first; one second when none is given), on `threads`
    /// threads. The search's tables are kept between calls on this position.
    #[pyo3(signature = (depth = None, nodes = None, time = None, threads = 1))]
    fn best_move(
        &mut self,
        py: Python<'_>,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
        threads: usize,
    ) -> PyResult<SearchResult> {
        let limits = Position::limits(depth, nodes, time)?;
        let (rules, eval) = (self.rules.clone(), self.eval.clone());
        let searcher = self
            .searcher
            .get_or_insert_with(|| Searcher::with_eval(rules, eval, 16));
        searcher.set_threads(threads);
        let pos = &mut self.pos;
        let r = py.detach(|| searcher.search(pos, &limits));
        let mut line = self.pos.clone();
        let mut pv = Vec::new();
        for &m in &r.pv {
            pv.push(line.move_text(m));
            line.make(m);
        }
        Ok(SearchResult {
            best: r.best.map(|m| self.pos.move_text(m)),
            score: r.score,
            score_text: r.score_text(),
            depth: r.depth,
            nodes: r.nodes,
            seconds: r.elapsed.as_secs_f64(),
            pv,
        })
    }

    /// The position as an SVG picture (the last move marked); `flipped` draws it from
    /// the second player's side.
    #[pyo3(signature = (flipped = false))]
    fn svg(&self, flipped: bool) -> String {
        let mut opts = varsand::render::BoardOptions::of(&self.pos);
        opts.flipped = flipped;
        varsand::render::svg::position(&self.pos, &opts)
    }

    /// The observation planes as float32 bytes, in the shape
    /// `Game.observation_shape` (see `Game.observation_planes`).
    fn observation<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let planes = self.encoding.observe(&self.pos);
        let bytes: Vec<u8> = planes.iter().flat_map(|v| v.to_ne_bytes()).collect();
        PyBytes::new(py, &bytes)
    }

    /// A copy, with its own history (the search's tables are not copied).
    fn copy(&self) -> Position {
        Position {
            rules: self.rules.clone(),
            eval: self.eval.clone(),
            encoding: self.encoding.clone(),
            ends: self.ends.clone(),
            pos: self.pos.clone(),
            played: self.played.clone(),
            legal: self.legal.clone(),
            searcher: None,
        }
    }

    /// The piece on a square, as (piece kind name, side), or None if it is empty.
    fn piece_at(&self, square: &str) -> PyResult<Option<(String, usize)>> {
        let cell = self
            .rules
            .geometry
            .parse_square(square)
            .ok_or_else(|| PyValueError::new_err(format!("no square {square}")))?;
        let code = self.pos.piece_at(cell);
        Ok((code != 0).then(|| {
            let side = varsand::rules::side_of(code).index();
            (self.rules.pieces[kind_of(code)].name.clone(), side)
        }))
    }

    /// The pieces in a side's hand, by kind name (those it holds).
    fn hand(&self, side: usize) -> PyResult<Vec<(String, u16)>> {
        let side = match side {
            0 => varsand::ids::Side::First,
            1 => varsand::ids::Side::Second,
            _ => return Err(PyValueError::new_err("side is 0 or 1")),
        };
        Ok((0..self.rules.pieces.len())
            .map(|k| (self.rules.pieces[k].name.clone(), self.pos.in_hand(side, k)))
            .filter(|(_, n)| *n > 0)
            .collect())
    }

    fn __str__(&self) -> String {
        self.pos.fen()
    }

    fn __repr__(&self) -> String {
        format!("<varsand.Position {}>", self.pos.fen())
    }
}
