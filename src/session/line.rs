//! A game being played, as every interactive front end holds it (the REPL, the web
//! board): the rules, the position, the moves played and those taken back, and the
//! adoption of new rules by replaying the game under them.

use std::sync::Arc;

use crate::engine::{GameEnd, Move, Position};
use crate::rules::Rules;
use crate::search::Searcher;

use super::replay::{Replay, Stop, replay};

/// A game in progress under its rules.
pub struct GameLine {
    rules: Arc<Rules>,
    /// A start position other than the setup, if any.
    start_fen: Option<String>,
    pos: Position,
    /// The moves played from the start, as the engine writes them.
    record: Vec<String>,
    /// The moves taken back, the next one to redo last.
    redo: Vec<String>,
    /// How many moves on top of `redo` new rules set aside because they refused them:
    /// the next adoption tries them again.
    held: usize,
}

/// A move refused, in words: why, and the legal moves that look like it.
pub struct Illegal {
    pub why: String,
    pub near: Vec<String>,
}

/// What adopting new rules did to the game.
pub struct Adopted {
    /// How many moves the new rules replayed, of `total`.
    pub played: usize,
    pub total: usize,
    /// The moves they did not (now the next ones to redo), the first one first.
    pub kept: Vec<String>,
    pub stop: Option<Stop>,
}

impl GameLine {
    /// A game from the setup.
    pub fn start(rules: Arc<Rules>) -> Self {
        let pos = Position::start(rules.clone());
        Self::from_position(rules, None, pos)
    }

    /// A game from a given position (`pos` read from `start_fen`, if any).
    pub fn from_position(rules: Arc<Rules>, start_fen: Option<String>, pos: Position) -> Self {
        GameLine {
            rules,
            start_fen,
            pos,
            record: Vec::new(),
            redo: Vec::new(),
            held: 0,
        }
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
    pub fn position(&self) -> &Position {
        &self.pos
    }
    /// The position, for what reads it through `&mut` (move generation, search).
    pub fn position_mut(&mut self) -> &mut Position {
        &mut self.pos
    }
    pub fn start_fen(&self) -> Option<&str> {
        self.start_fen.as_deref()
    }
    pub fn record(&self) -> &[String] {
        &self.record
    }
    /// The moves `redo` would play, the next one first.
    pub fn redo_line(&self) -> impl Iterator<Item = &String> {
        self.redo.iter().rev()
    }
    pub fn outcome(&mut self) -> Option<GameEnd> {
        self.pos.outcome()
    }

    /// Plays a move given as text (`e2e4`, `P@e5`); the text the engine writes for it.
    pub fn play(&mut self, text: &str) -> Result<String, Illegal> {
        match self.pos.parse_move(text) {
            Ok(m) => Ok(self.play_move(m)),
            Err(_) => Err(Illegal {
                why: self.pos.why_illegal(text),
                near: self.pos.suggestions(text),
            }),
        }
    }

    /// Plays a legal move; its text. The moves taken back are forgotten.
    pub fn play_move(&mut self, m: Move) -> String {
        let text = self.pos.move_text(m);
        self.pos.make(m);
        self.record.push(text.clone());
        self.redo.clear();
        self.held = 0;
        text
    }

    /// Takes back the last move; its text, or `None` at the start.
    pub fn undo(&mut self) -> Option<String> {
        let m = self.record.pop()?;
        self.pos.unmake();
        self.redo.push(m.clone());
        self.held = 0;
        Some(m)
    }

    /// Plays the next move taken back: `Ok(None)` when there is none, an error with
    /// the reason when the rules now refuse it (it stays the next one to redo).
    pub fn redo(&mut self) -> Result<Option<String>, String> {
        let Some(m) = self.redo.pop() else {
            return Ok(None);
        };
        if self.pos.play(&m).is_err() {
            let why = self.pos.why_illegal(&m);
            self.redo.push(m.clone());
            return Err(format!("cannot redo {m}: {why}"));
        }
        self.held = self.held.saturating_sub(1);
        self.record.push(m.clone());
        Ok(Some(m))
    }

    /// A new game from `pos` (the setup when `start_fen` is `None`).
    pub fn restart(&mut self, start_fen: Option<String>, pos: Position) {
        self.start_fen = start_fen;
        self.pos = pos;
        self.record.clear();
        self.redo.clear();
        self.held = 0;
    }

    /// Replays the game (with the moves a former adoption set aside) under new rules
    /// and takes them: the moves they refuse become the next ones to redo. The error
    /// (the start position no longer reads) leaves everything as it was.
    pub fn adopt(&mut self, rules: Arc<Rules>) -> Result<Adopted, String> {
        let line = self.whole_line();
        let replayed = replay(&rules, self.start_fen.as_deref(), &line)?;
        Ok(self.take(rules, line, replayed))
    }

    /// Takes a game replayed elsewhere (a loaded game): its rules, start and moves.
    pub fn take_loaded(
        &mut self,
        rules: Arc<Rules>,
        start_fen: Option<String>,
        line: Vec<String>,
        replayed: Replay,
    ) -> Adopted {
        self.start_fen = start_fen;
        self.redo.clear();
        self.held = 0;
        self.take(rules, line, replayed)
    }

    /// The moves of the game, and those an adoption set aside, in order.
    fn whole_line(&self) -> Vec<String> {
        let mut line = self.record.clone();
        line.extend(self.redo.iter().rev().take(self.held).cloned());
        line
    }

    /// The new rules and the replayed game: the moves that could not be played go on
    /// top of the redo moves (replacing those set aside before).
    fn take(&mut self, rules: Arc<Rules>, mut line: Vec<String>, replayed: Replay) -> Adopted {
        let Replay { pos, played, stop } = replayed;
        let total = line.len();
        let kept = line.split_off(played);
        let base = self.redo.len() - self.held.min(self.redo.len());
        self.redo.truncate(base);
        self.redo.extend(kept.iter().rev().cloned());
        self.held = kept.len();
        self.rules = rules;
        self.pos = pos;
        self.record = line;
        Adopted {
            played,
            total,
            kept,
            stop,
        }
    }
}

/// The searcher kept in `slot`, made anew (with the learned values beside the rule
/// file at `path`, if fresh) when the rules are not the ones it was made for: it keeps
/// its tables between moves while the rules stay the same.
pub fn searcher_for<'a>(
    slot: &'a mut Option<Searcher>,
    rules: &Arc<Rules>,
    path: &std::path::Path,
) -> &'a mut Searcher {
    if !slot.as_ref().is_some_and(|s| Arc::ptr_eq(s.rules(), rules)) {
        let eval = crate::search::learned::eval_beside(rules, path);
        *slot = Some(Searcher::with_eval(rules.clone(), Arc::new(eval), 16));
    }
    slot.as_mut().expect("a searcher was just made")
}
