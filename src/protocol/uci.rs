//! The UCI protocol (`varsand uci FILE`): its engine side, for the file's game.
//!
//! Commands: `uci`, `isready`, `ucinewgame`, `setoption name N [value V]` (`Hash`, `Threads`,
//! `Move Overhead`, `Ponder`, `Clear Hash`, `UCI_Variant`), `position startpos|fen F
//! [moves M...]`, `go` with `depth`, `nodes`, `movetime`, `wtime`/`btime`/`winc`/
//! `binc`/`movestogo`, `mate`, `infinite`, `ponder`; `stop`, `ponderhit`, `quit`
//! (`debug` and `register` are accepted and ignored). While it searches, `info` lines
//! give each completed depth (score in `cp` or `mate`, nodes, nps, time, pv); the
//! search ends with `bestmove` (`bestmove (none)` when the game is over: decided by
//! the file's end rules, repetition and move limits included).
//!
//! A command that cannot be carried out is answered with `info string error: ...` and
//! the engine goes on. A `position` that cannot be set up in full keeps what could
//! be: a bad position string keeps the previous position, an illegal move keeps the
//! moves before it.

use std::io::BufRead;
use std::sync::Arc;
use std::time::Duration;

use super::clock::{Clock, DEFAULT_OVERHEAD_MS, MAX_OVERHEAD_MS, fixed_budget};
use super::thinking::{Signals, Thinking};
use super::{DEFAULT_HASH_MB, MAX_HASH_MB, Output, Session, engine_name, read_command};
use crate::engine::{GameEnd, Move, Position};
use crate::ids::Side;
use crate::rules::Rules;
use crate::search::{Eval, Limits, MAX_DEPTH, MAX_THREADS, SearchResult, Searcher};
use crate::session::MAX_MOVETIME_MS;

/// The longest clock a `go` may give, in milliseconds (a year); longer ones are read
/// as this.
const MAX_CLOCK_MS: u64 = 366 * 24 * 60 * 60 * 1000;
/// The most moves to go a `go` may give.
const MAX_MOVES_TO_GO: u64 = 10_000;
/// Plies beyond 2N that `go mate N` searches (the search prunes).
const MATE_MARGIN: u32 = 4;
/// The longest forced win `go mate` may look for, in moves.
const MAX_MATE_MOVES: u64 = MAX_DEPTH as u64 / 2;

/// Speaks UCI for `rules` until `quit` or the end of `input`.
pub fn run(session: Session, mut input: impl BufRead, out: Output) {
    let mut engine = Uci::new(session, out);
    while let Some(line) = read_command(&mut input) {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                engine.error(&e.to_string());
                continue;
            }
        };
        if engine.command(&line) == Flow::Quit || engine.out.is_closed() {
            engine.quit();
            return;
        }
    }
    engine.end_of_input();
}

#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The limits of one `go`, as read.
#[derive(Debug, Default, PartialEq, Eq)]
struct Go {
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<Duration>,
    /// Per side: the remaining time and the increment.
    time: [Option<Duration>; 2],
    increment: [Option<Duration>; 2],
    moves_to_go: Option<u32>,
    mate: Option<u32>,
    infinite: bool,
    ponder: bool,
}

impl Go {
    /// Does the search end by itself (a limit other than depth 64)?
    fn bounded(&self) -> bool {
        self.depth.is_some()
            || self.nodes.is_some()
            || self.movetime.is_some()
            || self.time.iter().any(Option::is_some)
            || self.mate.is_some()
    }

    /// `side`'s clock, if the `go` gave its time.
    fn clock(&self, side: Side) -> Option<Clock> {
        Some(Clock {
            remaining: self.time[side]?,
            increment: self.increment[side].unwrap_or_default(),
            moves_to_go: self.moves_to_go,
        })
    }
}

/// An engine speaking UCI.
struct Uci {
    rules: Arc<Rules>,
    eval: Arc<Eval>,
    file: String,
    /// The name the game is announced under (`UCI_Variant`).
    variant: String,
    out: Output,
    pos: Position,
    /// `None` while a search has it.
    searcher: Option<Searcher>,
    thinking: Option<Thinking>,
    /// The running search ends by itself (it is not `infinite`, `ponder` or a bare
    /// `go`): at the end of the input it is let finish.
    bounded: bool,
    /// How long a pondering search may go on after `ponderhit`.
    ponder_budget: Option<Duration>,
    hash_mb: usize,
    /// Threads per search (`Threads`).
    threads: usize,
    overhead: Duration,
}

impl Uci {
    fn new(session: Session, out: Output) -> Self {
        let Session {
            rules,
            file,
            variant,
            eval,
        } = session;
        let eval = eval.unwrap_or_else(|| Arc::new(Eval::new(&rules)));
        Self {
            pos: Position::start(rules.clone()),
            searcher: None,
            eval,
            rules,
            file,
            variant,
            out,
            thinking: None,
            bounded: false,
            ponder_budget: None,
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            overhead: Duration::from_millis(DEFAULT_OVERHEAD_MS),
        }
    }

    fn error(&self, text: &str) {
        self.out.line(&format!("info string error: {text}"));
    }

    fn command(&mut self, line: &str) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&name, args)) = words.split_first() else {
            return Flow::Continue;
        };
        match name {
            "uci" => self.identify(),
            "isready" => self.out.line("readyok"),
            "ucinewgame" => self.new_game(),
            "setoption" => self.set_option(args),
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => self.stop(),
            "ponderhit" => self.ponder_hit(),
            "quit" => return Flow::Quit,
            "debug" | "register" => {}
            _ => self.error(&format!(
                "unknown command `{name}` (commands: uci, isready, ucinewgame, setoption, \
                 position, go, stop, ponderhit, quit)"
            )),
        }
        Flow::Continue
    }

    /// `uci`: the engine's name and options, then `uciok`.
    fn identify(&self) {
        let out = &self.out;
        out.line(&format!("id name {}", engine_name(&self.rules)));
        out.line("id author the varsand authors");
        out.line(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        out.line("option name Clear Hash type button");
        out.line(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        out.line("option name Ponder type check default false");
        out.line(&format!(
            "option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max {MAX_OVERHEAD_MS}"
        ));
        let variant = &self.variant;
        out.line(&format!(
            "option name UCI_Variant type combo default {variant} var {variant}"
        ));
        out.line("uciok");
    }

    /// Ends the running search (its answer is given) and takes its searcher back.
    fn finish_search(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            thinking.stop();
            self.searcher = thinking.finish();
        }
    }

    /// The searcher, ending a search that still has it.
    fn searcher(&mut self) -> Searcher {
        self.finish_search();
        let mut searcher = self.searcher.take().unwrap_or_else(|| {
            Searcher::with_eval(self.rules.clone(), self.eval.clone(), self.hash_mb)
        });
        searcher.set_threads(self.threads);
        searcher
    }

    fn new_game(&mut self) {
        let mut searcher = self.searcher();
        searcher.clear();
        self.searcher = Some(searcher);
        self.pos = Position::start(self.rules.clone());
    }

    /// `setoption name NAME [value VALUE]` (names are read without regard to case).
    fn set_option(&mut self, args: &[&str]) {
        let Some(("name", rest)) = args.split_first().map(|(a, r)| (*a, r)) else {
            return self.error("setoption wants `name NAME [value VALUE]`");
        };
        let split = rest.iter().position(|w| *w == "value");
        let name = rest[..split.unwrap_or(rest.len())].join(" ");
        let value = split.map(|i| rest[i + 1..].join(" ")).unwrap_or_default();
        match name.to_ascii_lowercase().as_str() {
            "hash" => match read_number(&value, 1, MAX_HASH_MB as u64) {
                Ok(mb) => self.set_hash(mb as usize),
                Err(e) => self.error(&format!("Hash: {e}")),
            },
            "threads" => match read_number(&value, 1, MAX_THREADS as u64) {
                Ok(n) => self.threads = n as usize,
                Err(e) => self.error(&format!("Threads: {e}")),
            },
            "clear hash" => {
                let mut searcher = self.searcher();
                searcher.clear();
                self.searcher = Some(searcher);
            }
            "move overhead" => match read_number(&value, 0, MAX_OVERHEAD_MS) {
                Ok(ms) => self.overhead = Duration::from_millis(ms),
                Err(e) => self.error(&format!("Move Overhead: {e}")),
            },
            "ponder" => {
                if !matches!(value.as_str(), "true" | "false") {
                    self.error(&format!("Ponder: `{value}` is neither true nor false"));
                }
            }
            "uci_variant" => {
                let ours = &self.variant;
                if !value.eq_ignore_ascii_case(ours) {
                    self.error(&format!(
                        "this engine plays {ours} (from {}), not `{value}`",
                        self.file
                    ));
                }
            }
            _ => self.error(&format!(
                "no option is called `{name}` (options: Hash, Threads, Clear Hash, Ponder, Move Overhead, UCI_Variant)"
            )),
        }
    }

    fn set_hash(&mut self, mb: usize) {
        if mb != self.hash_mb {
            self.finish_search();
            self.hash_mb = mb;
            self.searcher = None;
        }
    }

    /// `position startpos|fen FEN [moves M...]`.
    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|w| *w == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let mut pos = match setup.split_first() {
            Some((&"startpos", [])) => Position::start(self.rules.clone()),
            Some((&"fen", fen)) if !fen.is_empty() => match self.read_position(&fen.join(" ")) {
                Ok(pos) => pos,
                Err(e) => return self.error(&format!("position kept as it was: {e}")),
            },
            _ => return self.error("position wants `startpos` or `fen FEN`, then `moves ...`"),
        };
        for (i, text) in moves.iter().enumerate() {
            if pos.play(text).is_err() {
                let why = pos.why_illegal(text);
                self.error(&format!(
                    "move {} `{text}` is not legal: {why} (the position is the one before it)",
                    i + 1
                ));
                break;
            }
        }
        self.pos = pos;
    }

    /// A position string, refused if it cannot arise in a game.
    fn read_position(&self, fen: &str) -> Result<Position, String> {
        let pos = Position::from_fen(self.rules.clone(), fen)
            .map_err(|e| format!("bad position `{fen}`: {e}"))?;
        let impossible = pos.impossibilities();
        if !impossible.is_empty() {
            return Err(format!(
                "the position `{fen}` cannot arise in a game: {}",
                impossible.join("; ")
            ));
        }
        Ok(pos)
    }

    /// `go ...`: a search on its own thread, answered with `bestmove`.
    fn go(&mut self, args: &[&str]) {
        let (go, problems) = read_go(args);
        for p in &problems {
            self.error(p);
        }
        let searcher = self.searcher();
        let side = self.pos.side_to_move();
        let limits = Limits {
            // The search prunes (a null move hides a quiet mating threat near the
            // leaves), so a mate in N is looked for a few plies deeper than 2N; a
            // mate found ends the search at once.
            depth: go
                .depth
                .or(go.mate.map(|m| (2 * m + MATE_MARGIN).min(MAX_DEPTH))),
            nodes: go.nodes,
            movetime: if go.infinite || go.ponder {
                None
            } else {
                self.time_budget(&go, side)
            },
        };
        self.ponder_budget = self.time_budget(&go, side);
        self.bounded = go.bounded() && !go.infinite && !go.ponder;
        let hold = go.infinite || go.ponder;
        let job = Job {
            pos: self.pos.clone(),
            limits,
            out: self.out.clone(),
        };
        self.thinking = Some(Thinking::start(searcher, hold, move |searcher, signals| {
            job.run(searcher, signals);
        }));
    }

    /// The time `go` gives the side to move: `movetime`, else its share of its clock.
    fn time_budget(&self, go: &Go, side: Side) -> Option<Duration> {
        match go.movetime {
            Some(t) => Some(fixed_budget(t, self.overhead)),
            None => go.clock(side).map(|c| c.budget(self.overhead)),
        }
    }

    fn stop(&mut self) {
        self.finish_search();
    }

    /// `ponderhit`: the move pondered on was played; the search goes on, on the
    /// engine's own clock.
    fn ponder_hit(&mut self) {
        match &self.thinking {
            Some(thinking) if !thinking.is_finished() => thinking.release(self.ponder_budget),
            _ => self.error("ponderhit, but no search is pondering"),
        }
    }

    fn quit(&mut self) {
        self.finish_search();
    }

    /// At the end of the input a search that ends by itself is let finish (so that
    /// `echo "go depth 5" | varsand uci FILE` answers); others are stopped.
    fn end_of_input(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            if !self.bounded {
                thinking.stop();
            }
            self.searcher = thinking.finish();
        }
    }
}

/// One `go`, run on the search's thread.
struct Job {
    pos: Position,
    limits: Limits,
    out: Output,
}

impl Job {
    /// Searches (unless the game is over), with an `info` line per completed depth,
    /// then answers `bestmove` once the answer may go.
    fn run(mut self, searcher: &mut Searcher, signals: &Signals) {
        if let Some(end) = self.pos.outcome() {
            signals.wait_while_held();
            return answer_ended(&self.out, &self.pos, &end);
        }
        let mut root = self.pos.clone();
        let mut shown = false;
        let out = &self.out;
        let result = searcher.search_with(&mut self.pos, &self.limits, |r| {
            out.line(&info_line(&mut root, r));
            shown = true;
        });
        // Where a stopped search ended (its move may come from the unfinished depth),
        // or the one line of a search that completed no depth.
        if !shown || result.stopped {
            out.line(&info_line(&mut root, &result));
        }
        signals.wait_while_held();
        out.line(&bestmove_line(&mut root, &result));
    }
}

/// The answer to `go` in a decided game: the score if the side to move lost or drew,
/// and `bestmove (none)`.
fn answer_ended(out: &Output, pos: &Position, end: &GameEnd) {
    out.line(&format!(
        "info string the game is over: {}",
        end.describe(pos.rules())
    ));
    match end.winner {
        None => out.line("info depth 0 score cp 0"),
        Some(w) if w != pos.side_to_move() => out.line("info depth 0 score mate 0"),
        Some(_) => {}
    }
    out.line("bestmove (none)");
}

/// An `info` line for a search result (one completed depth, or the final result).
fn info_line(root: &mut Position, r: &SearchResult) -> String {
    let score = match r.mate_in() {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", r.score),
    };
    let mut line = format!(
        "info depth {} seldepth {} score {score} nodes {} nps {} time {}",
        r.depth.max(1),
        r.seldepth.max(r.depth).max(1),
        r.nodes,
        r.nps() as u64,
        r.elapsed.as_millis()
    );
    let pv = move_texts(root, &r.pv);
    if !pv.is_empty() {
        line += " pv ";
        line += &pv.join(" ");
    }
    line
}

/// `bestmove M [ponder N]` (the reply expected is the second move of the principal
/// variation when it starts with the move played).
fn bestmove_line(root: &mut Position, r: &SearchResult) -> String {
    let Some(best) = r.best else {
        return "bestmove (none)".into();
    };
    let line = match r.pv.as_slice() {
        [first, reply, ..] if *first == best => move_texts(root, &[best, *reply]),
        _ => move_texts(root, &[best]),
    };
    match line.as_slice() {
        [best, reply] => format!("bestmove {best} ponder {reply}"),
        [best] => format!("bestmove {best}"),
        _ => "bestmove (none)".into(),
    }
}

/// The texts of a line of moves from `root` (which is left as it was).
fn move_texts(root: &mut Position, line: &[Move]) -> Vec<String> {
    let mut texts = Vec::with_capacity(line.len());
    for &m in line {
        texts.push(root.move_text(m));
        root.make(m);
    }
    for _ in line {
        root.unmake();
    }
    texts
}

/// Reads the words after `go`; the problems found are reported and the rest is used,
/// so that every `go` gets its `bestmove`.
fn read_go(args: &[&str]) -> (Go, Vec<String>) {
    let mut go = Go::default();
    let mut problems = Vec::new();
    let mut words = args.iter();
    while let Some(&word) = words.next() {
        let mut number = |max: u64| -> Option<u64> {
            let Some(text) = words.next() else {
                problems.push(format!("go: `{word}` wants a number"));
                return None;
            };
            read_clamped(text, max)
                .map_err(|e| problems.push(format!("go {word}: {e}")))
                .ok()
        };
        let ms = |n: u64| Duration::from_millis(n);
        match word {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "depth" => go.depth = number(u64::from(MAX_DEPTH)).map(|d| d.max(1) as u32),
            "nodes" => go.nodes = number(u64::MAX),
            "movetime" => go.movetime = number(MAX_MOVETIME_MS).map(ms),
            "wtime" => go.time[0] = number(MAX_CLOCK_MS).map(ms),
            "btime" => go.time[1] = number(MAX_CLOCK_MS).map(ms),
            "winc" => go.increment[0] = number(MAX_CLOCK_MS).map(ms),
            "binc" => go.increment[1] = number(MAX_CLOCK_MS).map(ms),
            "movestogo" => go.moves_to_go = number(MAX_MOVES_TO_GO).map(|n| n as u32),
            "mate" => go.mate = number(MAX_MATE_MOVES).map(|n| n.max(1) as u32),
            "searchmoves" => {
                problems.push("go searchmoves is not supported: every move is searched".into());
                // The moves follow up to the next keyword; skip them.
                let rest: Vec<&&str> = words.clone().collect();
                let skip = rest.iter().take_while(|w| !is_go_keyword(w)).count();
                for _ in 0..skip {
                    words.next();
                }
            }
            _ => problems.push(format!("go: unknown word `{word}` ignored")),
        }
    }
    (go, problems)
}

fn is_go_keyword(word: &str) -> bool {
    matches!(
        word,
        "infinite"
            | "ponder"
            | "depth"
            | "nodes"
            | "movetime"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "mate"
            | "searchmoves"
    )
}

/// A whole number from a `go`: negative numbers (a clock run out) are read as 0,
/// numbers above `max` as `max`; anything else is an error.
fn read_clamped(text: &str, max: u64) -> Result<u64, String> {
    if let Some(digits) = text.strip_prefix('-') {
        return match digits.parse::<u64>() {
            Ok(_) => Ok(0),
            Err(_) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => Ok(0),
            Err(_) => Err(format!("`{text}` is not a whole number")),
        };
    }
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("`{text}` is not a whole number"));
    }
    // All digits: a value too large for u64 is above any maximum.
    Ok(text.parse::<u64>().map_or(max, |n| n.min(max)))
}

/// A whole number in `min..=max` (an option's value).
fn read_number(text: &str, min: u64, max: u64) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{text}` is not a whole number from {min} to {max}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<&str> {
        text.split_whitespace().collect()
    }

    #[test]
    fn go_reads_limits_and_clocks() {
        let (go, problems) = read_go(&words(
            "wtime 60000 btime -20 winc 1000 binc 0 movestogo 12 depth 7",
        ));
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            go.time,
            [Some(Duration::from_secs(60)), Some(Duration::ZERO)]
        );
        assert_eq!(go.increment[0], Some(Duration::from_secs(1)));
        assert_eq!(go.moves_to_go, Some(12));
        assert_eq!(go.depth, Some(7));
        assert!(go.bounded());
        assert!(!read_go(&words("infinite")).0.bounded());
    }

    #[test]
    fn go_reports_bad_numbers_and_keeps_the_rest() {
        let (go, problems) = read_go(&words(
            "depth 1000 nodes x12 movetime 99999999999999999999999 frob",
        ));
        assert_eq!(go.depth, Some(MAX_DEPTH));
        assert_eq!(go.nodes, None);
        assert_eq!(go.movetime, Some(Duration::from_millis(MAX_MOVETIME_MS)));
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("x12"));
        assert!(problems[1].contains("frob"));
        let (go, problems) = read_go(&words("searchmoves e2e4 d2d4 depth 3 movetime"));
        assert_eq!(go.depth, Some(3));
        assert_eq!(problems.len(), 2, "{problems:?}");
    }

    #[test]
    fn option_numbers_are_range_checked() {
        assert_eq!(read_number("64", 1, 4096), Ok(64));
        assert!(read_number("0", 1, 4096).is_err());
        assert!(read_number("4097", 1, 4096).is_err());
        assert!(read_number("-1", 0, 10).is_err());
        assert!(read_number("18446744073709551616", 0, 10).is_err());
    }
}
