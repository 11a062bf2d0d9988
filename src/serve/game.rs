//! The one game a server holds: the rules, the position, the moves played and those
//! taken back, and what became of the rule file. Every change bumps `version`, which
//! the page polls to know when to redraw.

use std::path::PathBuf;
use std::sync::Arc;

use crate::check::Overrides;
use crate::engine::{GameEnd, Position};
use crate::loader;
use crate::rules::Rules;
use crate::search::{self, Limits, Rng, Searcher};
use crate::session::replay::Stop;
use crate::session::{Adopted, GameLine, Illegal, render_problems};

use super::state::PieceCard;
use super::watch::{Change, Watch};

/// A game in progress, following its rule file.
pub struct Game {
    path: PathBuf,
    watch: Watch,
    /// The rules, the position and the moves, as the REPL holds them: a reload
    /// replays the game as the REPL's `reload` does.
    line: GameLine,
    /// The rule file's diagnostics while it does not check (the game goes on under the
    /// last rules that did).
    problems: Option<String>,
    /// What the last reload did, in a sentence, and how the page should show it.
    notice: Option<(String, Tone)>,
    version: u64,
    limits: Limits,
    /// Kept between moves for its transposition table, while the rules stay the same.
    searcher: Option<Searcher>,
    rng: Rng,
    /// The rules panel's cards and the rules they were drawn for: drawn again only
    /// when the rules change (each diagram asks the move generator about every square).
    cards: Option<(Arc<Rules>, Vec<PieceCard>)>,
}

/// A request the game refused, with the reason in words.
pub type Refusal = String;

/// How a notice reads: all went as asked, something was set aside (a replay that
/// stopped before a move), or the rule file did not load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tone {
    Done,
    Warning,
    Trouble,
}

impl Game {
    /// Reads and checks the rule file; the rendered diagnostics if it does not check.
    pub fn open(path: PathBuf, movetime_ms: u64) -> Result<Game, String> {
        let (watch, text) = Watch::start(path.clone()).map_err(|e| e + "\n")?;
        let rules = loader::load(&text, &Overrides::new())
            .map(Arc::new)
            .map_err(|p| render_problems(&p, &path, &text, false))?;
        Ok(Game {
            path,
            watch,
            line: GameLine::start(rules),
            problems: None,
            notice: None,
            version: first_version(),
            limits: Limits::movetime(movetime_ms),
            searcher: None,
            rng: Rng::new(1),
            cards: None,
        })
    }

    /// The cards of the rules' pieces.
    pub fn cards(&mut self) -> Vec<PieceCard> {
        let rules = self.line.rules().clone();
        if let Some((drawn_for, cards)) = &self.cards
            && Arc::ptr_eq(drawn_for, &rules)
        {
            return cards.clone();
        }
        let cards = super::state::cards(&rules);
        self.cards = Some((rules, cards.clone()));
        cards
    }

    pub fn version(&self) -> u64 {
        self.version
    }
    pub fn rules(&self) -> &Arc<Rules> {
        self.line.rules()
    }
    /// The position, for what reads it through `&mut` (move generation).
    pub fn position(&mut self) -> &mut Position {
        self.line.position_mut()
    }
    pub fn record(&self) -> &[String] {
        self.line.record()
    }
    /// The moves `redo` would play, the next one first.
    pub fn redo_line(&self) -> impl Iterator<Item = &String> {
        self.line.redo_line()
    }
    pub fn problems(&self) -> Option<&str> {
        self.problems.as_deref()
    }
    pub fn notice(&self) -> Option<(&str, Tone)> {
        self.notice
            .as_ref()
            .map(|(text, tone)| (text.as_str(), *tone))
    }
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    fn changed(&mut self) {
        self.version = self.version.saturating_add(1);
    }

    fn refuse_if_over(&mut self) -> Result<(), Refusal> {
        match self.line.outcome() {
            Some(end) => Err(format!(
                "the game is over ({}): undo or start a new game to go on",
                end.describe(self.line.rules())
            )),
            None => Ok(()),
        }
    }

    /// Plays a move given as text (`e2e4`, `P@e5`); refused with the reason the REPL
    /// gives and the legal moves nearby.
    pub fn play(&mut self, text: &str) -> Result<(), Refusal> {
        self.refuse_if_over()?;
        match self.line.play(text) {
            Ok(_) => {
                self.changed();
                Ok(())
            }
            Err(Illegal { why, near }) => {
                let mut why = format!("illegal: {why}");
                if !near.is_empty() {
                    why += &format!(" (legal moves nearby: {})", near.join(" "));
                }
                Err(why)
            }
        }
    }

    pub fn undo(&mut self) -> Result<(), Refusal> {
        self.line.undo().ok_or("nothing to undo")?;
        self.changed();
        Ok(())
    }

    pub fn redo(&mut self) -> Result<(), Refusal> {
        self.line.redo()?.ok_or("nothing to redo")?;
        self.changed();
        Ok(())
    }

    /// A new game from the setup, under the current rules.
    pub fn restart(&mut self) -> Result<(), Refusal> {
        let start = Position::start(self.line.rules().clone());
        self.line.restart(None, start);
        self.notice = None;
        self.changed();
        Ok(())
    }

    /// The computer's move for the side to move, found within the time limit.
    pub fn computer(&mut self) -> Result<(), Refusal> {
        self.refuse_if_over()?;
        let rules = self.line.rules().clone();
        let searcher = crate::session::searcher_for(&mut self.searcher, &rules, &self.path);
        let pos = self.line.position_mut();
        let found = searcher.search(pos, &self.limits).best;
        let m = found
            .or_else(|| search::random_move(pos, &mut self.rng))
            .ok_or("the computer finds no move")?;
        self.line.play_move(m);
        self.changed();
        Ok(())
    }

    /// Looks at the rule file: if its text changed, reloads the rules as the REPL's
    /// `reload` does, or shows the diagnostics if it no longer checks.
    pub fn follow_file(&mut self) {
        match self.watch.poll() {
            Change::Same => {}
            Change::Unreadable(e) => self.keep_old_rules(e),
            Change::Text(text) => match loader::load(&text, &Overrides::new()) {
                Ok(rules) => self.reload(Arc::new(rules)),
                Err(p) => {
                    let shown = render_problems(&p, &self.path, &text, false);
                    self.keep_old_rules(shown);
                }
            },
        }
    }

    fn keep_old_rules(&mut self, problems: String) {
        self.problems = Some(problems);
        self.notice = Some((
            "the rule file does not check: the old rules and the game are kept".into(),
            Tone::Trouble,
        ));
        self.changed();
    }

    /// Replays the game (with the moves a former reload set aside) under new rules.
    fn reload(&mut self, rules: Arc<Rules>) {
        self.problems = None;
        self.notice = Some(match self.line.adopt(rules) {
            Ok(adopted) => {
                let tone = if adopted.stop.is_some() {
                    Tone::Warning
                } else {
                    Tone::Done
                };
                (reload_notice(self.line.rules(), adopted), tone)
            }
            Err(e) => (
                format!("reload failed: {e}; the old rules and game are kept"),
                Tone::Trouble,
            ),
        });
        self.changed();
    }
}

/// What a reload did, in a sentence.
fn reload_notice(rules: &Rules, adopted: Adopted) -> String {
    let Adopted {
        played,
        total,
        kept: rest,
        stop,
    } = adopted;
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
