//! The one game a server holds: the rules, the position, the moves played and those
//! taken back, and what became of the rule file. Every change bumps `version`, which
//! the page polls to know when to redraw.

use std::path::PathBuf;
use std::sync::Arc;

use crate::check::{self, Overrides};
use crate::engine::{GameEnd, Position};
use crate::repl::game::{Replay, Stop, replay};
use crate::rules::Rules;
use crate::search::{self, Limits, Rng, Searcher};

use super::watch::{Change, Watch};

/// A game in progress, following its rule file.
pub struct Game {
    path: PathBuf,
    watch: Watch,
    rules: Arc<Rules>,
    pos: Position,
    /// The moves played from the start, as the engine writes them.
    record: Vec<String>,
    /// The moves taken back, the next one to redo last.
    redo: Vec<String>,
    /// How many moves on top of `redo` a reload set aside because the new rules refused
    /// them: the next reload tries them again (as the REPL's `reload` does).
    held: usize,
    /// The rule file's diagnostics while it does not check (the game goes on under the
    /// last rules that did).
    problems: Option<String>,
    /// What the last reload did, in a sentence.
    notice: Option<String>,
    version: u64,
    limits: Limits,
    /// Kept between moves for its transposition table, while the rules stay the same.
    searcher: Option<Searcher>,
    rng: Rng,
}

/// A request the game refused, with the reason in words.
pub type Refusal = String;

impl Game {
    /// Reads and checks the rule file; the rendered diagnostics if it does not check.
    pub fn open(path: PathBuf, movetime_ms: u64) -> Result<Game, String> {
        let (watch, text) = Watch::start(path.clone()).map_err(|e| e + "\n")?;
        let rules = check::load(&text, &Overrides::new())
            .map(Arc::new)
            .map_err(|p| crate::repl::render_problems(&p, &path, &text, false))?;
        Ok(Game {
            pos: Position::start(rules.clone()),
            path,
            watch,
            rules,
            record: Vec::new(),
            redo: Vec::new(),
            held: 0,
            problems: None,
            notice: None,
            version: first_version(),
            limits: Limits::movetime(movetime_ms),
            searcher: None,
            rng: Rng::new(1),
        })
    }

    pub fn version(&self) -> u64 {
        self.version
    }
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
    pub fn position(&mut self) -> &mut Position {
        &mut self.pos
    }
    pub fn record(&self) -> &[String] {
        &self.record
    }
    /// The moves `redo` would play, the next one first.
    pub fn redo_line(&self) -> impl Iterator<Item = &String> {
        self.redo.iter().rev()
    }
    pub fn problems(&self) -> Option<&str> {
        self.problems.as_deref()
    }
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    fn changed(&mut self) {
        self.version = self.version.saturating_add(1);
    }

    fn refuse_if_over(&mut self) -> Result<(), Refusal> {
        match self.pos.outcome() {
            Some(end) => Err(format!(
                "the game is over ({}): undo or start a new game to go on",
                end.describe(&self.rules)
            )),
            None => Ok(()),
        }
    }

    /// Plays a move given as text (`e2e4`, `P@e5`); refused with the reason the REPL
    /// gives and the legal moves nearby.
    pub fn play(&mut self, text: &str) -> Result<(), Refusal> {
        self.refuse_if_over()?;
        match self.pos.parse_move(text) {
            Ok(m) => {
                let text = self.pos.move_text(m);
                self.pos.make(m);
                self.record.push(text);
                self.redo.clear();
                self.held = 0;
                self.changed();
                Ok(())
            }
            Err(_) => {
                let mut why = format!("illegal: {}", self.pos.why_illegal(text));
                let near = self.pos.suggestions(text);
                if !near.is_empty() {
                    why += &format!(" (legal moves nearby: {})", near.join(" "));
                }
                Err(why)
            }
        }
    }

    pub fn undo(&mut self) -> Result<(), Refusal> {
        let m = self.record.pop().ok_or("nothing to undo")?;
        self.pos.unmake();
        self.redo.push(m);
        self.held = 0;
        self.changed();
        Ok(())
    }

    pub fn redo(&mut self) -> Result<(), Refusal> {
        let m = self.redo.pop().ok_or("nothing to redo")?;
        if self.pos.play(&m).is_err() {
            let why = self.pos.why_illegal(&m);
            self.redo.push(m.clone());
            return Err(format!("cannot redo {m}: {why}"));
        }
        self.held = self.held.saturating_sub(1);
        self.record.push(m);
        self.changed();
        Ok(())
    }

    /// A new game from the setup, under the current rules.
    pub fn restart(&mut self) -> Result<(), Refusal> {
        self.pos = Position::start(self.rules.clone());
        self.record.clear();
        self.redo.clear();
        self.held = 0;
        self.notice = None;
        self.changed();
        Ok(())
    }

    /// The computer's move for the side to move, found within the time limit.
    pub fn computer(&mut self) -> Result<(), Refusal> {
        self.refuse_if_over()?;
        let searcher = match &mut self.searcher {
            Some(s) if Arc::ptr_eq(s.rules(), &self.rules) => s,
            slot => {
                let eval = search::learned::eval_beside(&self.rules, &self.path);
                slot.insert(Searcher::with_eval(self.rules.clone(), Arc::new(eval), 16))
            }
        };
        let found = searcher.search(&mut self.pos, &self.limits).best;
        let m = found
            .or_else(|| search::random_move(&mut self.pos, &mut self.rng))
            .ok_or("the computer finds no move")?;
        let text = self.pos.move_text(m);
        self.play(&text)
    }

    /// Looks at the rule file: if its text changed, reloads the rules as the REPL's
    /// `reload` does, or shows the diagnostics if it no longer checks.
    pub fn follow_file(&mut self) {
        match self.watch.poll() {
            Change::Same => {}
            Change::Unreadable(e) => self.keep_old_rules(e),
            Change::Text(text) => match check::load(&text, &Overrides::new()) {
                Ok(rules) => self.reload(Arc::new(rules)),
                Err(p) => {
                    let shown = crate::repl::render_problems(&p, &self.path, &text, false);
                    self.keep_old_rules(shown);
                }
            },
        }
    }

    fn keep_old_rules(&mut self, problems: String) {
        self.problems = Some(problems);
        self.notice =
            Some("the rule file does not check: the old rules and the game are kept".into());
        self.changed();
    }

    /// Replays the game (with the moves a former reload set aside) under new rules.
    fn reload(&mut self, rules: Arc<Rules>) {
        self.problems = None;
        let line = self.whole_line();
        match replay(&rules, None, &line) {
            Ok(replayed) => self.adopt(rules, line, replayed),
            Err(e) => {
                self.notice = Some(format!(
                    "reload failed: {e}; the old rules and game are kept"
                ))
            }
        }
        self.changed();
    }

    /// The moves of the game, and those a reload set aside, in order.
    fn whole_line(&self) -> Vec<String> {
        let mut line = self.record.clone();
        line.extend(self.redo.iter().rev().take(self.held).cloned());
        line
    }

    /// Takes the new rules and the replayed game: the moves that could not be played
    /// go on top of the redo moves (replacing those set aside before).
    fn adopt(&mut self, rules: Arc<Rules>, mut line: Vec<String>, replayed: Replay) {
        let Replay { pos, played, stop } = replayed;
        let total = line.len();
        let rest = line.split_off(played);
        let base = self.redo.len() - self.held.min(self.redo.len());
        self.redo.truncate(base);
        self.redo.extend(rest.iter().rev().cloned());
        self.held = rest.len();
        self.rules = rules;
        self.pos = pos;
        self.record = line;
        self.notice = Some(reload_notice(&self.rules, &rest, played, total, stop));
    }
}

/// What a reload did, in a sentence.
fn reload_notice(
    rules: &Rules,
    rest: &[String],
    played: usize,
    total: usize,
    stop: Option<Stop>,
) -> String {
    let kept = match rest.len() {
        1 => "1 move kept for redo".to_string(),
        n => format!("{n} moves kept for redo"),
    };
    match stop {
        Some(Stop::Refused(why)) => format!(
            "rules reloaded; move {} ({}) is illegal under them: {why}; the game stops before it ({kept})",
            played + 1,
            rest[0]
        ),
        Some(Stop::Ended(end)) => format!(
            "rules reloaded; the game ended after move {played} ({}): {kept}",
            end.describe(rules)
        ),
        None if total == 1 => "rules reloaded; the 1 move replayed".into(),
        None => format!("rules reloaded; all {total} moves replayed"),
    }
}

/// The version a server starts at: the time in milliseconds, so that a page left open
/// while the server is restarted sees a newer version and redraws.
fn first_version() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX / 2))
}

/// The end of the game, if it is over, in words: "white wins: black is checkmated".
pub fn result_text(rules: &Rules, end: &GameEnd) -> String {
    let result = match end.winner {
        Some(w) => format!("{} wins", rules.players[w].name),
        None => "draw".into(),
    };
    format!("{result}: {}", end.describe(rules))
}
