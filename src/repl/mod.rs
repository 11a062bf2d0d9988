//! Stage 6: the REPL. `varsand play FILE` loads a variant and reads commands: moves,
//! `undo`, `reload` after editing the file, `go` for a computer move, and more
//! (`help`). On a terminal it uses rustyline (history, tab completion); otherwise it
//! reads standard input line by line, so scripts and tests can drive it.

pub mod display;
mod record;

use std::cell::RefCell;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::check::Overrides;
use crate::engine::{GameEnd, MoveShape, Position};
use crate::perft::Perft;
use crate::search::{self, Limits, MAX_THREADS, Rng, Searcher};
use crate::session::replay::{Stop, replay};
use crate::session::{
    Adopted, GameLine, Illegal, MAX_MOVETIME_MS, MAX_PERFT_DEPTH, load_hashed, read_text,
};

/// How many plies the computer plays in a row before it hands back the prompt.
const MAX_AUTOPLAY: usize = 2000;

/// The commands, with their aliases and help.
const COMMANDS: &[(&str, &[&str], &str, &str)] = &[
    (
        "help",
        &["h", "?"],
        "help [COMMAND]",
        "list the commands, or explain one",
    ),
    ("board", &["b", "show"], "board", "draw the board"),
    (
        "moves",
        &["m"],
        "moves",
        "list the legal moves, grouped by piece",
    ),
    ("undo", &["u", "back"], "undo", "take back the last move"),
    ("redo", &[], "redo", "replay a move taken back"),
    ("new", &["n", "restart"], "new", "start a new game"),
    ("fen", &[], "fen", "print the position string"),
    (
        "position",
        &["pos"],
        "position STRING",
        "set up a position from a position string",
    ),
    (
        "rules",
        &[],
        "rules",
        "the variant's rules in words: pieces, zones, how to win",
    ),
    (
        "set",
        &[],
        "set NAME VALUE",
        "change a parameter the file declares, and replay the game under it",
    ),
    (
        "reload",
        &["r"],
        "reload",
        "re-read the rule file and replay the game under the new rules",
    ),
    (
        "perft",
        &[],
        "perft DEPTH",
        "count the move tree DEPTH plies deep (Ctrl-C stops it)",
    ),
    (
        "go",
        &["g"],
        "go",
        "let the computer make a move (Ctrl-C plays its best so far)",
    ),
    (
        "time",
        &["level"],
        "time [MS]",
        "show or set the computer's time per move, in milliseconds",
    ),
    (
        "depth",
        &[],
        "depth [N]",
        "show or set the computer's search depth limit (0: none)",
    ),
    (
        "threads",
        &[],
        "threads [N]",
        "show or set how many threads the computer searches with",
    ),
    (
        "play",
        &[],
        "play white|black|both|none",
        "choose which side the computer plays",
    ),
    (
        "save",
        &[],
        "save FILE",
        "save the game as PGN: the variant, its rule file and parameters, the moves",
    ),
    (
        "load",
        &[],
        "load FILE [N] [under RULES]",
        "load a saved game (PGN; the Nth game of a file of many; under the rule file RULES)",
    ),
    ("quit", &["q", "exit"], "quit", "leave (Ctrl-D too)"),
];

fn command_name(word: &str) -> Option<&'static str> {
    COMMANDS
        .iter()
        .find(|(name, aliases, _, _)| *name == word || aliases.contains(&word))
        .map(|c| c.0)
}

/// One game being played, with the rules it is played under.
pub struct Session {
    path: PathBuf,
    /// The hash of the rule text the rules were read from, for saved games.
    rules_hash: String,
    overrides: Overrides,
    /// The rules, the position, the moves played and taken back (a start position
    /// given by `position` or `--fen` included).
    game: GameLine,
    /// Are positions that cannot arise in a game accepted (`--any-position`)?
    any_position: bool,
    /// The width `moves` wraps its lists at: on a terminal only (a script gets one
    /// line per piece).
    width: Option<usize>,
    computer: [bool; 2],
    color: bool,
    rng: Rng,
    /// The computer player's limits, and its searcher (kept for the rules it was built for).
    limits: Limits,
    searcher: Option<Searcher>,
    /// Threads per search (`threads`).
    threads: usize,
    out: Box<dyn Write>,
    /// Where errors go: standard error when a script drives the session, else `out`.
    err: Option<Box<dyn Write>>,
    /// Has a command failed (an illegal move, a bad command or argument, a file that
    /// could not be read or written)? A script then ends with exit status 1.
    failed: bool,
}

/// The computer's time per move unless `time` or `--movetime` says otherwise.
const DEFAULT_MOVETIME_MS: u64 = 1000;
/// When commands come from a script (standard input is not a terminal), the computer
/// searches this many nodes a move instead, unless given a time: a script replays
/// exactly, on any machine.
const SCRIPT_NODES: u64 = 50_000;

enum Flow {
    Continue,
    Quit,
}

impl Session {
    pub fn new(
        path: PathBuf,
        overrides: Overrides,
        color: bool,
        seed: u64,
        out: Box<dyn Write>,
    ) -> Result<Self, String> {
        let (rules, rules_hash) = load_hashed(&path, &overrides, color)?;
        Ok(Self {
            rules_hash,
            path,
            overrides,
            game: GameLine::start(rules),
            any_position: false,
            width: color.then(terminal_width),
            computer: [false, false],
            color,
            rng: Rng::new(seed),
            limits: Limits::movetime(DEFAULT_MOVETIME_MS),
            searcher: None,
            threads: 1,
            out,
            err: None,
            failed: false,
        })
    }

    /// Sets the computer's time per move (instead of a node budget).
    pub fn set_movetime(&mut self, ms: u64) {
        self.limits.movetime = Some(std::time::Duration::from_millis(ms.max(1)));
        self.limits.nodes = None;
    }

    /// Limits the computer to a number of nodes a move instead of a time: the same
    /// moves on any machine.
    pub fn set_node_budget(&mut self, nodes: u64) {
        self.limits.movetime = None;
        self.limits.nodes = Some(nodes.max(1));
    }

    /// Sends error messages to `err` instead of the output (for scripts).
    pub fn set_error_output(&mut self, err: Box<dyn Write>) {
        self.err = Some(err);
    }

    /// Has a command failed since the session started?
    pub fn failed(&self) -> bool {
        self.failed
    }

    fn say(&mut self, text: impl AsRef<str>) {
        let _ = writeln!(self.out, "{}", text.as_ref());
    }

    /// Reports a command that failed: its message goes to the error output.
    fn fail(&mut self, text: impl AsRef<str>) {
        self.failed = true;
        let _ = self.out.flush();
        let w = self.err.as_mut().unwrap_or(&mut self.out);
        let _ = write!(w, "{}", text.as_ref());
        if !text.as_ref().ends_with('\n') {
            let _ = writeln!(w);
        }
        let _ = w.flush();
    }

    fn show(&mut self) {
        let board = display::render(self.game.position(), self.color);
        let status = display::status(self.game.position());
        let _ = write!(self.out, "{board}");
        self.say(status);
        if let Some(end) = self.game.position_mut().outcome() {
            self.announce(&end);
        }
    }

    fn announce(&mut self, end: &GameEnd) {
        let result = match end.winner {
            Some(w) => format!("{} wins", self.game.rules().players[w].name),
            None => "draw".to_string(),
        };
        self.say(format!(
            "Game over: {result} ({}). `undo` or `new` to go on.",
            end.describe(self.game.rules())
        ));
    }

    /// The legal moves as text, for completion.
    pub fn move_words(&mut self) -> Vec<String> {
        let moves = self.game.position_mut().legal_moves();
        moves
            .iter()
            .map(|m| self.game.position().move_text(*m))
            .collect()
    }

    fn greet(&mut self) {
        let r = self.game.rules().clone();
        // A move of a piece, rather than a pass or a swap, if there is one.
        let words = self.move_words();
        let example = words
            .iter()
            .find(|w| !matches!(w.as_str(), "pass" | "swap") && !is_null_move(w))
            .or(words.first())
            .cloned()
            .unwrap_or_default();
        let text = format!(
            "{} — {} ({} vs {}). Type a move such as {example}, or `help`.",
            r.name,
            self.path.display(),
            r.players[0].name,
            r.players[1].name
        );
        self.say(text);
        self.show();
    }

    /// Runs one line of input.
    fn execute(&mut self, line: &str) -> Flow {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Flow::Continue;
        }
        let (word, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        let Some(cmd) = command_name(word) else {
            self.user_move(line);
            return Flow::Continue;
        };
        match cmd {
            "help" => self.help(rest),
            "board" => self.show(),
            "moves" => self.list_moves(),
            "undo" => match self.game.undo() {
                Some(_) => {
                    // Against the computer, take back its reply too.
                    if self.computer[self.game.position().side_to_move()] {
                        self.game.undo();
                    }
                    self.show();
                }
                None => self.say("nothing to undo"),
            },
            "redo" => match self.game.redo() {
                Ok(Some(_)) => self.show(),
                Ok(None) => self.say("nothing to redo"),
                Err(e) => self.fail(e),
            },
            "new" => self.restart(None),
            "fen" => {
                let f = self.game.position().fen();
                self.say(f);
            }
            "position" => self.position(rest),
            "rules" => {
                let text = crate::describe::describe(self.game.rules());
                let _ = write!(self.out, "{text}");
            }
            "set" => self.set(rest),
            "reload" => self.reload(),
            "perft" => self.perft(rest),
            "go" => {
                crate::interrupt::clear();
                if !self.computer_move() {
                    self.say("no move to make: the game is over");
                }
            }
            "play" => self.play(rest),
            "time" => self.time(rest),
            "depth" => self.depth(rest),
            "threads" => self.threads(rest),
            "save" => self.save(rest),
            "load" => self.load(rest),
            "quit" => return Flow::Quit,
            _ => unreachable!("every command is handled"),
        }
        Flow::Continue
    }

    fn help(&mut self, topic: &str) {
        if let Some(name) = command_name(topic) {
            let (name, aliases, usage, text) = COMMANDS.iter().find(|c| c.0 == name).unwrap();
            let aka = if aliases.is_empty() {
                String::new()
            } else {
                format!(" (also {})", aliases.join(", "))
            };
            self.say(format!("{usage}{aka}: {text}"));
            let _ = name;
            return;
        }
        if !topic.is_empty() {
            self.fail(format!(
                "no command `{topic}`: type `help` for the list of commands"
            ));
            return;
        }
        self.say("Type a move (e2e4, e7e8q, g1-g2, f12xg12, swap) or a command:");
        for (_, aliases, usage, text) in COMMANDS {
            let aka = if aliases.is_empty() {
                String::new()
            } else {
                format!(" [{}]", aliases.join(" "))
            };
            self.say(format!("  {:<28} {text}{aka}", usage));
        }
    }

    fn list_moves(&mut self) {
        let moves = self.game.position_mut().legal_moves();
        if moves.is_empty() {
            self.say("no legal moves");
            return;
        }
        let rules = self.game.rules().clone();
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for m in moves {
            let label = match (m.origin(), self.game.position().shape(m)) {
                (Some(from), _) => {
                    let p = self.game.position().piece_at(from);
                    format!(
                        "{} {}",
                        rules.pieces[crate::rules::kind_of(p)].name,
                        rules.geometry.name(from)
                    )
                }
                (None, MoveShape::Drop { .. }) => "in hand".to_string(),
                (None, MoveShape::Swap) => "pie rule".to_string(),
                (None, _) => "the game".to_string(),
            };
            let text = self.game.position().move_text(m);
            match groups.iter_mut().find(|g| g.0 == label) {
                Some(g) => g.1.push(text),
                None => groups.push((label, vec![text])),
            }
        }
        let total: usize = groups.iter().map(|g| g.1.len()).sum();
        for (label, mut list) in groups {
            list.sort_by(|a, b| natural_order(a, b));
            let text = match self.width {
                Some(w) => wrap_words(&list, 17, w),
                None => list.join(" "),
            };
            self.say(format!("  {label:<14} {text}"));
        }
        self.say(format!("{total} legal moves"));
    }

    fn ended(&mut self) -> Option<GameEnd> {
        self.game.position_mut().outcome()
    }

    fn user_move(&mut self, text: &str) {
        if let Some(end) = self.ended() {
            self.fail(format!(
                "the game is over ({}): `undo` or `new` to go on",
                end.describe(self.game.rules())
            ));
            return;
        }
        match self.game.play(text) {
            Ok(_) => {
                self.show();
                self.autoplay();
            }
            Err(Illegal { why, near }) => {
                let mut message = format!("illegal: {why}");
                if !near.is_empty() {
                    message += &format!("\nlegal moves nearby: {}", near.join(" "));
                }
                self.fail(message);
            }
        }
    }

    /// The computer plays its sides until a person is to move or the game ends.
    fn autoplay(&mut self) {
        let mut n = 0;
        crate::interrupt::clear();
        while self.computer[self.game.position().side_to_move()]
            && self.ended().is_none()
            && n < MAX_AUTOPLAY
        {
            if crate::interrupt::requested() {
                self.say("interrupted");
                break;
            }
            self.computer_move();
            n += 1;
        }
    }

    /// One computer move, found by the search within the limits; false when there is
    /// none. Ctrl-C stops the search, which then plays the best move found so far.
    fn computer_move(&mut self) -> bool {
        if self.ended().is_some() {
            return false;
        }
        let rules = self.game.rules().clone();
        let searcher = crate::session::searcher_for(&mut self.searcher, &rules, &self.path);
        searcher.set_threads(self.threads);
        let pos = self.game.position_mut();
        let r = searcher.search(pos, &self.limits);
        let Some(m) = r.best.or_else(|| search::random_move(pos, &mut self.rng)) else {
            return false;
        };
        // The player who moves, named before the move (a swap changes who is who).
        let side = rules.players[self.game.position().side_to_move()]
            .name
            .clone();
        let text = self.game.play_move(m);
        if self.color {
            // On a terminal, what the search saw; scripts get the move alone.
            let stopped = if crate::interrupt::requested() {
                ", interrupted"
            } else {
                ""
            };
            self.say(format!(
                "{side} plays {text} (depth {}, {}, {} nodes, {:.2} s{stopped})",
                r.depth,
                r.score_text(),
                r.nodes,
                r.elapsed.as_secs_f64()
            ));
        } else {
            self.say(format!("{side} plays {text}"));
        }
        self.show();
        true
    }

    fn time(&mut self, arg: &str) {
        if !arg.is_empty() {
            match arg.parse::<u64>() {
                Ok(ms) if ms > 0 && ms <= MAX_MOVETIME_MS => self.set_movetime(ms),
                _ => {
                    self.fail(format!(
                        "time MS, such as time 2000 (two seconds a move; at most {MAX_MOVETIME_MS}, a day)"
                    ));
                    return;
                }
            }
        }
        match (self.limits.movetime, self.limits.nodes) {
            (Some(t), _) => self.say(format!("the computer thinks {} ms a move", t.as_millis())),
            (None, Some(n)) => self.say(format!(
                "the computer searches {n} nodes a move (so a script replays exactly); `time MS` sets a time instead"
            )),
            (None, None) => self.say("the computer has no time limit"),
        }
    }

    fn depth(&mut self, arg: &str) {
        if !arg.is_empty() {
            match arg.parse::<u32>() {
                Ok(0) => self.limits.depth = None,
                Ok(d) if d as usize > MAX_PERFT_DEPTH => {
                    self.fail(format!(
                        "depth N, such as depth 4 (0: no limit but the time; at most {MAX_PERFT_DEPTH})"
                    ));
                    return;
                }
                Ok(d) => self.limits.depth = Some(d),
                Err(_) => {
                    self.fail("depth N, such as depth 4 (0: no limit but the time)");
                    return;
                }
            }
        }
        match self.limits.depth {
            Some(d) => self.say(format!("the computer searches at most {d} plies deep")),
            None => self.say("the computer searches as deep as its time allows"),
        }
    }

    fn threads(&mut self, arg: &str) {
        if !arg.is_empty() {
            match arg.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => self.threads = n,
                _ => {
                    self.fail(format!("threads N, such as threads 2 (1 to {MAX_THREADS})"));
                    return;
                }
            }
        }
        let n = self.threads;
        self.say(format!(
            "the computer searches with {n} thread{}",
            if n == 1 { "" } else { "s" }
        ));
    }

    fn play(&mut self, who: &str) {
        self.computer = match who {
            "white" | "first" => [true, false],
            "black" | "second" => [false, true],
            "both" => [true, true],
            "none" => [false, false],
            other => {
                let p = &self.game.rules().players;
                if other == p[0].name {
                    [true, false]
                } else if other == p[1].name {
                    [false, true]
                } else {
                    self.fail(format!(
                        "play what? write `play {}`, `play {}`, `play both` or `play none`",
                        p[0].name, p[1].name
                    ));
                    return;
                }
            }
        };
        let who = match self.computer {
            [true, true] => "both sides".to_string(),
            [false, false] => "neither side".to_string(),
            [w, _] => self.game.rules().players[usize::from(!w)].name.clone(),
        };
        self.say(format!("the computer plays {who}"));
        self.autoplay();
    }

    /// A new game from `start_fen` (the setup when `None`).
    fn restart(&mut self, start_fen: Option<String>) {
        let rules = self.game.rules().clone();
        let pos = start_fen
            .as_deref()
            .and_then(|f| Position::from_fen(rules.clone(), f).ok())
            .unwrap_or_else(|| Position::start(rules));
        self.game.restart(start_fen, pos);
        self.show();
        self.autoplay();
    }

    fn position(&mut self, fen: &str) {
        if fen.is_empty() {
            self.fail("position what? give a position string, such as the one `fen` prints");
            return;
        }
        match Position::from_fen(self.game.rules().clone(), fen) {
            Ok(p) => {
                if let Err(e) = self.possible(&p) {
                    self.fail(format!("{e}\n  {fen}"));
                    return;
                }
                self.restart(Some(fen.to_string()));
            }
            Err(e) => {
                self.fail(format!(
                    "bad position string: {}\n  {fen}\n  {}{} {}",
                    e.message,
                    " ".repeat(e.offset),
                    "^".repeat(e.len.max(1)),
                    e.help
                ));
            }
        }
    }

    /// Refuses a position that cannot arise in a game (unless `--any-position`), with
    /// what is wrong.
    fn possible(&self, pos: &Position) -> Result<(), String> {
        let wrong = pos.impossibilities();
        if wrong.is_empty() || self.any_position {
            return Ok(());
        }
        Err(format!(
            "impossible position: {} (`varsand play --any-position` accepts it)",
            wrong.join("; ")
        ))
    }

    fn set(&mut self, args: &str) {
        let mut parts = args.split_whitespace();
        let (Some(name), Some(value)) = (parts.next(), parts.next()) else {
            let names: Vec<String> = self.game.rules().params.keys().cloned().collect();
            self.fail(if names.is_empty() {
                "this variant declares no parameters".to_string()
            } else {
                format!("set NAME VALUE; parameters: {}", names.join(", "))
            });
            return;
        };
        let name = name.trim_end_matches('=');
        let base = name.rsplit('.').next().unwrap_or(name);
        if !self.game.rules().params.contains_key(base) {
            let names: Vec<String> = self.game.rules().params.keys().cloned().collect();
            self.fail(if names.is_empty() {
                format!("this variant declares no parameters, so there is no `{name}`")
            } else {
                format!(
                    "no parameter `{name}`; this variant has: {}",
                    names.join(", ")
                )
            });
            return;
        }
        let Ok(value) = value.parse::<i64>() else {
            self.fail(format!("`{value}` is not a whole number"));
            return;
        };
        let p = &self.game.rules().params[base];
        if value < p.min || value > p.max {
            self.fail(format!("{name} must be in {}..{}", p.min, p.max));
            return;
        }
        let mut overrides = self.overrides.clone();
        if base == name {
            // A common value replaces the per-player ones.
            overrides.retain(|k, _| k.rsplit('.').next() != Some(base));
        }
        overrides.insert(name.to_string(), value);
        match load_hashed(&self.path, &overrides, self.color) {
            Ok((rules, hash)) => match self.game.adopt(rules) {
                Ok(adopted) => {
                    self.overrides = overrides;
                    self.rules_hash = hash;
                    self.say(format!("{name} = {value}; the game is replayed under it"));
                    self.tell_adopted(adopted, "the new value");
                    self.show();
                    self.autoplay();
                }
                Err(e) => self.fail(format!("{e}; the parameter was not changed")),
            },
            Err(e) => self.fail(format!("{e}the parameter was not changed")),
        }
    }

    /// Re-reads the rule file and replays the game under the new rules.
    fn reload(&mut self) {
        let (rules, hash) = match load_hashed(&self.path, &self.overrides, self.color) {
            Ok(r) => r,
            Err(e) => {
                self.fail(format!(
                    "{e}reload failed: the old rules and the game are kept"
                ));
                return;
            }
        };
        let adopted = match self.game.adopt(rules) {
            Ok(adopted) => adopted,
            Err(e) => {
                self.fail(format!(
                    "reload failed: {e}; the old rules and game are kept"
                ));
                return;
            }
        };
        self.rules_hash = hash;
        self.say(format!("reloaded {}", self.path.display()));
        self.tell_adopted(adopted, "the new rules");
        self.show();
    }

    /// Says what adopting new rules (`what`) did to the game: the moves they refused
    /// are kept for `redo`.
    fn tell_adopted(&mut self, adopted: Adopted, what: &str) {
        let Adopted {
            played,
            total,
            kept: rest,
            stop,
        } = adopted;
        let kept = rest.len();
        let kept_text = format!(
            "{kept} move{} kept for `redo` (a `reload` tries {} again)",
            if kept == 1 { "" } else { "s" },
            if kept == 1 { "it" } else { "them" }
        );
        match stop {
            Some(Stop::Refused(why)) => self.say(format!(
                "move {} ({}) is illegal under {what}: {why}; the game stops before it ({played} of {total} moves replayed, {kept_text})",
                played + 1,
                rest[0],
            )),
            Some(Stop::Ended(end)) => {
                let described = end.describe(self.game.rules());
                self.say(format!(
                    "the game ended after move {played} ({described}): {kept_text}"
                ));
            }
            None if total == 1 => self.say("the 1 move replayed"),
            None if total > 0 => self.say(format!("all {total} moves replayed")),
            None => {}
        }
    }

    fn perft(&mut self, arg: &str) {
        let Ok(depth) = arg.parse::<usize>() else {
            self.fail("perft DEPTH, such as perft 4");
            return;
        };
        if depth > MAX_PERFT_DEPTH {
            self.fail(format!(
                "perft {depth}: the depth is at most {MAX_PERFT_DEPTH}"
            ));
            return;
        }
        crate::interrupt::clear();
        let start = std::time::Instant::now();
        let mut perft = Perft::new();
        let divide = perft.divide(self.game.position_mut(), depth);
        if crate::interrupt::requested() {
            crate::interrupt::clear();
            self.say("perft interrupted");
            return;
        }
        let total: u64 = if depth == 0 {
            1
        } else {
            divide.iter().map(|d| d.1).sum()
        };
        for (m, n) in &divide {
            self.say(format!("{m}: {n}"));
        }
        let secs = start.elapsed().as_secs_f64();
        self.say(format!("\nNodes searched: {total}"));
        if self.color {
            self.say(format!(
                "({secs:.2} s, {:.0} nodes/s)",
                total as f64 / secs.max(1e-9)
            ));
        }
    }

    fn save(&mut self, file: &str) {
        if file.is_empty() {
            self.fail("save FILE, such as save game.txt");
            return;
        }
        let ended = self.ended();
        // The rule file's path relative to the saved game where they share a folder
        // (the pair can move together), else its absolute path.
        let variant = record::variant_path(&self.path, Path::new(file));
        let text = record::write(&record::SaveRequest {
            variant: &variant,
            rules_hash: &self.rules_hash,
            overrides: &self.overrides,
            fen: self.game.start_fen(),
            moves: self.game.record(),
            rules: self.game.rules(),
            end: ended.as_ref(),
        });
        match write_atomically(Path::new(file), text.as_bytes()) {
            Ok(()) => {
                let n = self.game.record().len();
                self.say(format!(
                    "saved {n} move{} to {file}",
                    if n == 1 { "" } else { "s" }
                ));
            }
            Err(e) => self.fail(format!("cannot write {file}: {e}")),
        }
    }

    fn load(&mut self, arg: &str) {
        if arg.is_empty() {
            self.fail("load FILE [N] [under RULES], such as load game.pgn");
            return;
        }
        // `under RULES` names the rule file, whatever the game's tags say.
        let (arg, named_rules) = match arg.rsplit_once(" under ") {
            Some((game, rules)) if !Path::new(arg).exists() => {
                (game.trim_end(), Some(rules.trim()))
            }
            _ => (arg, None),
        };
        let (file, number) = match load_argument(arg) {
            Ok(parts) => parts,
            Err(e) => {
                self.fail(e);
                return;
            }
        };
        let text = match read_text(Path::new(file)) {
            Ok(t) => t,
            Err(e) => {
                self.fail(e);
                return;
            }
        };
        let game = match record::read(&text, number) {
            Ok(g) => g,
            Err(e) => {
                self.fail(format!("{file}: {e}"));
                return;
            }
        };
        let found = match named_rules {
            Some(rules) => Ok(PathBuf::from(rules)),
            None => self.rule_file_of(&game, Path::new(file)),
        };
        let variant = match found {
            Ok(v) => v,
            Err(e) => {
                self.fail(format!("{file}: {e}"));
                return;
            }
        };
        let (rules, hash) = match load_hashed(&variant, &game.overrides, self.color) {
            Ok(r) => r,
            Err(e) => {
                self.fail(format!("{e}load failed: the current game is kept"));
                return;
            }
        };
        let changed = game.rules_hash.as_ref().is_some_and(|h| *h != hash);
        let replay = match replay(&rules, game.fen.as_deref(), &game.moves) {
            Ok(r) => r,
            Err(e) => {
                self.fail(format!("load failed: {e}; the current game is kept"));
                return;
            }
        };
        if let Some(Stop::Refused(why)) = &replay.stop
            && !changed
        {
            let i = replay.played;
            self.fail(format!(
                "load failed at move {} ({}): {why}; the current game is kept",
                i + 1,
                game.moves[i]
            ));
            return;
        }
        self.path = variant;
        self.rules_hash = hash;
        self.overrides = game.overrides;
        let which = if game.games_in_file > 1 {
            format!(" (game {number} of {})", game.games_in_file)
        } else {
            String::new()
        };
        self.say(format!("loaded {} moves from {file}{which}", replay.played));
        let mut moves = game.moves;
        let ended = match &replay.stop {
            Some(Stop::Ended(end)) => Some(end.describe(&rules)),
            _ => None,
        };
        let stopped = replay.stop.is_some();
        if let Some(described) = ended {
            // A finished game takes no more moves: the record stops there.
            let (i, total) = (replay.played, moves.len());
            moves.truncate(i);
            self.say(format!(
                "the game ended after move {i} ({described}): the {} move{} after it are not played",
                total - i,
                if total - i == 1 { "" } else { "s" }
            ));
            self.game.take_loaded(rules, game.fen, moves, replay);
        } else if changed {
            self.say(format!(
                "the rule file changed since this game was saved: {}",
                if stopped {
                    "the moves it still allows are replayed"
                } else {
                    "every move still fits"
                }
            ));
            let adopted = self.game.take_loaded(rules, game.fen, moves, replay);
            self.tell_adopted(adopted, "the changed rules");
        } else {
            self.game.take_loaded(rules, game.fen, moves, replay);
        }
        self.show();
    }
}

/// `load`'s argument: the file, and the number of the game in it (1 unless the last
/// word is a number and the whole argument names no file).
fn load_argument(arg: &str) -> Result<(&str, usize), String> {
    if let Some((file, n)) = arg.rsplit_once(char::is_whitespace)
        && !Path::new(arg).exists()
        && !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
    {
        // A last word of digits is the game's number, however large: never part of
        // the file's name.
        return match n.parse::<usize>() {
            Ok(number) if number >= 1 => Ok((file.trim_end(), number)),
            _ => Err(format!(
                "load FILE N: `{n}` is not a game number (games are numbered from 1)"
            )),
        };
    }
    Ok((arg, 1))
}

impl Session {
    /// The rule file a loaded game is played under: the one its tags record (a
    /// relative path is read from the saved game's folder; older saves, which recorded
    /// an absolute path or one from the working folder, still load), else this
    /// session's, if the game's `Variant` names this game.
    fn rule_file_of(&self, game: &record::SavedGame, file: &Path) -> Result<PathBuf, String> {
        let Some(recorded) = &game.variant else {
            return match &game.name {
                Some(name) if name.eq_ignore_ascii_case(&self.game.rules().name) => {
                    Ok(self.path.clone())
                }
                Some(name) => Err(format!(
                    "the game is of the variant `{name}`, not {}, and no [VariantFile \"FILE\"] tag names its rule file",
                    self.game.rules().name
                )),
                None => {
                    Err("no [VariantFile \"FILE\"] tag: which rule file does the game use?".into())
                }
            };
        };
        let dir = file.parent().unwrap_or(Path::new(""));
        let recorded = PathBuf::from(recorded);
        let Some((found, canonical)) = [dir.join(&recorded), recorded.clone()]
            .into_iter()
            .find_map(|p| Some((p.clone(), std::fs::canonicalize(&p).ok()?)))
        else {
            return Err(format!(
                "the game's rule file {} cannot be found",
                recorded.display()
            ));
        };
        // A saved game is data from anywhere: it may open rule files beside it, but
        // not any file on the machine (whose first lines a failed check would show).
        // A file outside the game's folder is read only when it is the one the user
        // named, the session's own.
        let inside = std::fs::canonicalize(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        })
        .is_ok_and(|d| canonical.starts_with(d));
        let named = std::fs::canonicalize(&self.path).is_ok_and(|own| own == canonical);
        if inside || named {
            Ok(found)
        } else {
            Err(format!(
                "the game names the rule file {}, outside the folder of {}: it is not opened (if you trust it: load {} under {})",
                recorded.display(),
                file.display(),
                file.display(),
                found.display()
            ))
        }
    }
}

pub use crate::pgn::write_atomically;

/// Completion of commands, file names and legal moves.
struct Helper {
    words: Rc<RefCell<Vec<String>>>,
    files: rustyline::completion::FilenameCompleter,
}

impl rustyline::completion::Completer for Helper {
    type Candidate = rustyline::completion::Pair;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Self::Candidate>)> {
        let head = &line[..pos];
        if head.starts_with("load ") || head.starts_with("save ") {
            return self.files.complete(line, pos, ctx);
        }
        let start = head.rfind(' ').map_or(0, |i| i + 1);
        let prefix = &head[start..];
        let mut out: Vec<Self::Candidate> = Vec::new();
        if start == 0 {
            for c in COMMANDS {
                if c.0.starts_with(prefix) {
                    // Commands that take an argument complete with a space after them.
                    let takes_arg = c.2.contains(' ');
                    let word = if takes_arg {
                        format!("{} ", c.0)
                    } else {
                        c.0.to_string()
                    };
                    out.push(rustyline::completion::Pair {
                        display: c.0.to_string(),
                        replacement: word,
                    });
                }
            }
        }
        for w in self.words.borrow().iter().filter(|w| w.starts_with(prefix)) {
            out.push(rustyline::completion::Pair {
                display: w.clone(),
                replacement: w.clone(),
            });
        }
        Ok((start, out))
    }
}

impl rustyline::hint::Hinter for Helper {
    type Hint = String;
}
impl rustyline::highlight::Highlighter for Helper {}
impl rustyline::validate::Validator for Helper {}
impl rustyline::Helper for Helper {}

fn history_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    let dir = base.join("varsand");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("history.txt"))
}

/// Runs the REPL on standard input until `quit` or end of input. When standard input
/// is not a terminal (a script), errors go to standard error and the result is
/// `Ok(false)` if any command failed, so the caller can exit with status 1.
pub fn run(
    path: PathBuf,
    overrides: Overrides,
    seed: u64,
    fen: Option<String>,
    movetime: Option<u64>,
    any_position: bool,
) -> Result<bool, String> {
    let tty = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let color = tty && std::env::var_os("NO_COLOR").is_none();
    let mut session = Session::new(path, overrides, color, seed, Box::new(std::io::stdout()))?;
    if !tty {
        session.set_error_output(Box::new(std::io::stderr()));
    }
    match movetime {
        Some(ms) => session.set_movetime(ms.min(MAX_MOVETIME_MS)),
        None if !tty => session.set_node_budget(SCRIPT_NODES),
        None => {}
    }
    session.any_position = any_position;
    if let Some(f) = fen {
        let pos = Position::from_fen(session.game.rules().clone(), &f)
            .map_err(|e| format!("error: bad --fen: {e}\n"))?;
        session
            .possible(&pos)
            .map_err(|e| format!("error: --fen: {e}\n"))?;
        session.game.restart(Some(f), pos);
    }
    session.greet();
    crate::interrupt::install();
    if !tty {
        let mut stdin = std::io::stdin().lock();
        let mut number = 0;
        while let Some(line) = read_script_line(&mut stdin) {
            number += 1;
            match line {
                Ok(line) => {
                    if let Flow::Quit = session.execute(&line) {
                        break;
                    }
                }
                Err(why) => session.fail(format!("line {number} ignored: {why}")),
            }
        }
        return Ok(!session.failed());
    }
    let words = Rc::new(RefCell::new(session.move_words()));
    let config = rustyline::Config::builder()
        .completion_type(rustyline::CompletionType::List)
        .auto_add_history(true)
        .build();
    let mut editor: rustyline::Editor<Helper, rustyline::history::DefaultHistory> =
        rustyline::Editor::with_config(config).map_err(|e| e.to_string())?;
    editor.set_helper(Some(Helper {
        words: words.clone(),
        files: rustyline::completion::FilenameCompleter::new(),
    }));
    let history = history_path();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    loop {
        *words.borrow_mut() = session.move_words();
        let prompt = format!(
            "{}> ",
            session.game.rules().players[session.game.position().side_to_move()].name
        );
        match editor.readline(&prompt) {
            Ok(line) => {
                if let Flow::Quit = session.execute(&line) {
                    break;
                }
            }
            Err(rustyline::error::ReadlineError::Interrupted) => {
                session.say("(Ctrl-C: type `quit` or press Ctrl-D to leave)");
            }
            // A byte that is not UTF-8 (a paste in another encoding) loses that line
            // only: the game and the session go on.
            Err(rustyline::error::ReadlineError::Io(e))
                if e.kind() == std::io::ErrorKind::InvalidData =>
            {
                session.say("(that line was not UTF-8 text and was ignored: type it again)");
            }
            Err(rustyline::error::ReadlineError::Eof) => break,
            Err(e) => {
                session.say(format!("(cannot read the terminal: {e}; leaving)"));
                break;
            }
        }
    }
    if let Some(h) = &history {
        let _ = editor.save_history(h);
    }
    Ok(true)
}

/// The longest line a script may send: a command is a few words, a position string a
/// few hundred bytes; a longer line is read to its end and refused.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// The next line of a script (without its line end), `None` at the end of the input.
/// A line that is not UTF-8 text or is longer than [`MAX_LINE_BYTES`] is an error
/// that names why, so that the session says so and goes on with the next line
/// instead of ending (and losing the game).
fn read_script_line(input: &mut impl BufRead) -> Option<Result<String, String>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return (!bytes.is_empty() || too_long).then(|| Err(e.to_string())),
        };
        if chunk.is_empty() {
            break;
        }
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if bytes.len() + part.len() > MAX_LINE_BYTES {
            too_long = true;
            bytes.clear();
        } else if !too_long {
            bytes.extend_from_slice(part);
        }
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            return Some(script_line(bytes, too_long));
        }
    }
    (!bytes.is_empty() || too_long).then(|| script_line(bytes, too_long))
}

/// A script line's bytes as text, or why they are not one.
fn script_line(mut bytes: Vec<u8>, too_long: bool) -> Result<String, String> {
    if too_long {
        return Err(format!("longer than {} MiB", MAX_LINE_BYTES >> 20));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (byte {} is not)",
            e.utf8_error().valid_up_to() + 1
        )
    })
}

/// Is a move text a square written twice (`e2e2`, a pass)?
fn is_null_move(text: &str) -> bool {
    let half = text.len() / 2;
    text.len().is_multiple_of(2) && text.is_char_boundary(half) && text[..half] == text[half..]
}

/// The width of a terminal: `$COLUMNS`, else 80.
fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|&w: &usize| w >= 40)
        .unwrap_or(80)
}

/// Move texts in natural order: runs of digits compare as numbers (`f7f2` before
/// `f7f10`).
fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    fn chunks(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let bytes = s.as_bytes();
        for i in 1..=bytes.len() {
            if i == bytes.len() || bytes[i].is_ascii_digit() != bytes[start].is_ascii_digit() {
                out.push((bytes[start].is_ascii_digit(), &s[start..i]));
                start = i;
            }
        }
        out
    }
    let (x, y) = (chunks(a), chunks(b));
    for (p, q) in x.iter().zip(&y) {
        let o = match (p, q) {
            ((true, m), (true, n)) => m
                .trim_start_matches('0')
                .len()
                .cmp(&n.trim_start_matches('0').len())
                .then_with(|| m.trim_start_matches('0').cmp(n.trim_start_matches('0'))),
            _ => p.1.cmp(q.1),
        };
        if o.is_ne() {
            return o;
        }
    }
    x.len().cmp(&y.len()).then_with(|| a.cmp(b))
}

/// Words joined by spaces, wrapped before `width` columns; continuation lines are
/// indented by `indent` (the first line starts at that column already).
fn wrap_words(words: &[String], indent: usize, width: usize) -> String {
    let mut out = String::new();
    let mut col = indent;
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            if col + 1 + w.len() > width {
                out.push('\n');
                out.extend(std::iter::repeat_n(' ', indent));
                col = indent;
            } else {
                out.push(' ');
                col += 1;
            }
        }
        out += w;
        col += w.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{natural_order, wrap_words};

    #[test]
    fn move_texts_sort_with_their_numbers_as_numbers() {
        let mut v = vec!["f7f10", "f7f1", "f7f11", "f7f2", "e7e8q", "a10a9", "a9a10"];
        v.sort_by(|a, b| natural_order(a, b));
        assert_eq!(
            v,
            ["a9a10", "a10a9", "e7e8q", "f7f1", "f7f2", "f7f10", "f7f11"]
        );
    }

    #[test]
    fn wrapping_breaks_between_moves_only() {
        let words: Vec<String> = (1..=12).map(|i| format!("f7f{i}")).collect();
        let text = wrap_words(&words, 4, 24);
        assert_eq!(
            text,
            "f7f1 f7f2 f7f3 f7f4\n    f7f5 f7f6 f7f7 f7f8\n    f7f9 f7f10 f7f11\n    f7f12"
        );
    }
}
