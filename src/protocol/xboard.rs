//! The XBoard protocol, version 2 (`varsand xboard FILE`): the engine side of the
//! protocol (CECP) that WinBoard and XBoard speak.
//!
//! Commands: `xboard`, `protover` (answered with the features), `new`, `variant`
//! (answered with `setup` for boards WinBoard does not know), `force`, `go`,
//! `playother`, `usermove` (and bare moves), `?`, `setboard`, `undo`, `remove`, `sd`,
//! `st`, `level`, `time`, `otim`, `nps`, `ping`, `result`, `post`, `nopost`, `hard`,
//! `easy`, `memory`, `cores` (threads per search), `analyze`, `exit`, `.`, `quit`;
//! others that need no answer (`accepted`, `rejected`, `random`, `computer`, `name`,
//! `rating`, `ics`, `draw`, `hint`, `bk`, `egtpath`, `option`) are accepted and ignored.
//!
//! The engine's moves come as `move M`, its thinking (after `post`, and in analysis)
//! as `DEPTH SCORE TIME NODES PV`, the end of a game by the file's rules as
//! `1-0 {reason}`, `0-1 {reason}` or `1/2-1/2 {reason}`. An illegal move is answered
//! `Illegal move (reason): M`, a command that cannot be carried out `Error (reason):
//! COMMAND`; the engine goes on.
//!
//! Choices: `setup` is sent only in reply to `variant` (as the protocol says), naming
//! the parent variant `fairy`; no `piece` commands are sent, so a game WinBoard does
//! not know is played with its legality testing off (WinBoard then trusts the engine,
//! which refuses illegal moves itself). `sigterm=0` is not claimed: python-chess
//! refuses it, and a SIGTERM at the end of a session does no harm. `draw=0`: draw
//! offers are neither made nor answered. The engine does not ponder (`hard` is
//! accepted and ignored).
//!
//! The engine's search runs on its own thread and makes its move on the shared game
//! itself, under a lock. Each change of the game that is not the engine's move
//! (`new`, `force`, `undo`, `setboard`...) first stops the search and counts a new
//! epoch, and a search that ends in an older epoch drops its move, so a stopped search
//! never moves in a game that changed under it.

use std::io::BufRead;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use super::clock::{Clock, DEFAULT_OVERHEAD_MS, fixed_budget};
use super::thinking::Thinking;
use super::winboard::WinBoard;
use super::{
    DEFAULT_HASH_MB, MAX_HASH_MB, Output, Session, engine_name, read_command, without_double_quotes,
};
use crate::engine::{GameEnd, Move, Position};
use crate::ids::Side;
use crate::rules::Rules;
use crate::search::{Eval, Limits, MAX_DEPTH, MAX_THREADS, SearchResult, Searcher};

/// The thinking time per move before any `level` or `st`.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);
/// The longest time control `level` and `st` may give, in seconds (a year).
const MAX_SECONDS: f64 = 366.0 * 24.0 * 60.0 * 60.0;
/// The most moves per session `level` may give.
const MAX_MOVES_PER_SESSION: u64 = 10_000;
/// The most nodes per second `nps` may give.
const MAX_NPS: u64 = 1_000_000_000_000;
/// The depth to which the moves other than `swap` are scored when the search would
/// swap (see `Task::best_move`).
const SWAP_FALLBACK_DEPTH: u32 = 4;
/// XBoard's score for a win in N moves is `MATE_SCORE + N` (a loss, its negative).
const MATE_SCORE: i64 = 100_000;

/// Speaks XBoard for `rules` until `quit` or the end of `input`.
pub fn run(session: Session, mut input: impl BufRead, out: Output) {
    let mut engine = Xboard::new(session, out);
    while let Some(line) = read_command(&mut input) {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                engine.out.line(&format!("# {e}"));
                continue;
            }
        };
        if engine.command(&line) == Flow::Quit || engine.out.is_closed() {
            return engine.stop_thinking();
        }
    }
    // At the end of the input the move being thought about still comes (so that
    // `printf 'new\ngo\n' | varsand xboard FILE` answers); an analysis stops.
    if engine.analyzing {
        engine.stop_thinking();
    }
    engine.wait_for_move();
}

#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The game as both threads see it.
struct Game {
    pos: Position,
    /// Plies played since `new` or `setboard` (what `undo` can take back).
    plies: usize,
    /// Counts the changes made while a search may run; a search that ends in an older
    /// epoch drops its move.
    epoch: u64,
}

/// `level MPS BASE INC`: a conventional or incremental time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Level {
    /// Moves per session; 0: the whole game.
    moves: u32,
    base: Duration,
    increment: Duration,
}

/// How the engine is told to think.
#[derive(Debug, Clone, Default)]
struct Controls {
    level: Option<Level>,
    /// `st`: a fixed time per move.
    move_time: Option<Duration>,
    /// `sd`: a depth limit.
    depth: Option<u32>,
    /// `time`: the engine's clock.
    own_time: Option<Duration>,
    /// `nps`: think this many nodes per second of the time control instead of time.
    nps: Option<u64>,
}

/// An engine speaking XBoard.
struct Xboard {
    rules: Arc<Rules>,
    eval: Arc<Eval>,
    file: String,
    /// The name the game is announced under (`variants`).
    variant: String,
    out: Output,
    board: Arc<WinBoard>,
    start: Position,
    game: Arc<Mutex<Game>>,
    /// `None` while a search has it.
    searcher: Option<Searcher>,
    thinking: Option<Thinking>,
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<Side>,
    analyzing: bool,
    post: bool,
    controls: Controls,
    hash_mb: usize,
    /// Threads per search (`cores`).
    threads: usize,
}

impl Xboard {
    fn new(session: Session, out: Output) -> Self {
        let Session {
            rules,
            file,
            variant,
            eval,
        } = session;
        let start = Position::start(rules.clone());
        Self {
            eval: eval.unwrap_or_else(|| Arc::new(Eval::new(&rules))),
            board: Arc::new(WinBoard::new(&start)),
            game: Arc::new(Mutex::new(Game {
                pos: start.clone(),
                plies: 0,
                epoch: 0,
            })),
            start,
            rules,
            file,
            variant,
            out,
            searcher: None,
            thinking: None,
            engine_side: Some(Side::Second),
            analyzing: false,
            post: false,
            controls: Controls::default(),
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
        }
    }

    fn error(&self, reason: &str, command: &str) {
        self.out.line(&format!("Error ({reason}): {command}"));
    }

    /// The game, locked (a search thread that panicked leaves it usable).
    fn game(&self) -> MutexGuard<'_, Game> {
        lock(&self.game)
    }

    fn side_to_move(&self) -> Side {
        self.game().pos.side_to_move()
    }

    fn command(&mut self, line: &str) -> Flow {
        let (name, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match name {
            // Nothing to do: acknowledgements, and what this engine does not use.
            "" | "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "draw" | "hint" | "bk" | "egtpath" | "hard" | "easy" | "." => {}
            // The engine declares no `feature option`, so any option is unknown to it.
            "option" => self.error(
                "this engine has no options: the hash size is set by `memory MB`",
                line,
            ),
            "quit" => return Flow::Quit,
            "protover" => self.features(),
            "sd" | "st" | "level" | "time" | "otim" | "nps" | "memory" | "cores" => {
                if let Err(e) = self.setting(name, rest) {
                    self.error(&e, line);
                }
            }
            "ping" => {
                // A move being thought about comes before the answer.
                if !self.analyzing {
                    self.wait_for_move();
                }
                self.out.line(&format!("pong {rest}"));
            }
            _ => self.game_command(name, rest, line),
        }
        Flow::Continue
    }

    /// The commands that set how the engine thinks: limits, clocks, memory.
    fn setting(&mut self, name: &str, value: &str) -> Result<(), String> {
        let c = &mut self.controls;
        match name {
            "sd" => c.depth = Some(read_whole(value, 1, u64::from(MAX_DEPTH))? as u32),
            "st" => c.move_time = Some(read_seconds(value)?),
            "level" => {
                c.level = Some(read_level(value)?);
                c.move_time = None;
            }
            "time" => {
                c.own_time = Some(read_centiseconds(value)?);
                if value.starts_with('-') {
                    // Legal (the flag fell and nobody claimed it), but worth a word.
                    self.out.line(&format!(
                        "# time {value}: the clock has run out, moving at once"
                    ));
                }
            }
            // The opponent's clock does not change the engine's share of its own.
            "otim" => _ = read_centiseconds(value)?,
            "nps" => c.nps = Some(read_whole(value, 0, MAX_NPS)?).filter(|&n| n > 0),
            "cores" => self.threads = read_whole(value, 1, MAX_THREADS as u64)? as usize,
            _ => self.set_hash(read_whole(value, 1, MAX_HASH_MB as u64)? as usize),
        }
        Ok(())
    }

    /// The commands about the game and who plays it.
    fn game_command(&mut self, name: &str, rest: &str, line: &str) {
        match name {
            "new" => self.new_game(),
            "variant" => self.variant(rest),
            "force" | "result" => {
                self.stop_thinking();
                self.engine_side = None;
            }
            "go" => {
                self.stop_thinking();
                self.engine_side = Some(self.side_to_move());
                self.think();
            }
            "playother" => {
                self.stop_thinking();
                self.engine_side = Some(self.side_to_move().opponent());
            }
            "usermove" => self.user_move(rest),
            "?" => self.move_now(),
            "setboard" => self.set_board(rest),
            "undo" => self.take_back(1, line),
            "remove" => self.take_back(2, line),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "analyze" => {
                self.stop_thinking();
                self.engine_side = None;
                self.analyzing = true;
                self.think();
            }
            "exit" => {
                self.stop_thinking();
                self.analyzing = false;
            }
            _ => self.bare_move(line),
        }
    }

    /// The answer to `protover`: what this engine does.
    fn features(&self) {
        let name = without_double_quotes(&engine_name(&self.rules));
        // The game's name, and `fairy` (on this board's size) for `setup`.
        let mut variants = vec![self.variant.clone(), "fairy".into()];
        variants.extend(self.board.sized_fairy());
        variants.dedup();
        let variants = variants.join(",");
        let out = &self.out;
        out.line("feature done=0");
        out.line(
            "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=0 sigint=0 \
             reuse=1 analyze=1 colors=0 memory=1 smp=1 nps=1 name=0 debug=0 exclude=0 \
             setscore=0 highlight=0",
        );
        out.line(&format!(
            "feature myname=\"{name}\" variants=\"{variants}\""
        ));
        out.line("feature done=1");
    }

    fn new_game(&mut self) {
        self.stop_thinking();
        self.set_game(self.start.clone());
        if let Some(searcher) = &mut self.searcher {
            searcher.clear();
        }
        self.engine_side = Some(Side::Second);
        self.analyzing = false;
        self.controls.depth = None;
        self.controls.own_time = None;
    }

    /// Starts over from `pos` (after `new`, `variant` or `setboard`).
    fn set_game(&mut self, pos: Position) {
        let mut game = self.game();
        game.pos = pos;
        game.plies = 0;
        game.epoch += 1;
    }

    /// `variant NAME` (WinBoard may put the board's size first: `12x12+0_NAME`):
    /// the game's own name or `fairy`, answered with the `setup` that shows the board.
    fn variant(&mut self, name: &str) {
        let bare = strip_board_size(name);
        let ours = &self.variant;
        if bare != ours && bare != "fairy" {
            let why = format!("this engine plays {ours} (from {})", self.file);
            return self.error(&why, &format!("variant {name}"));
        }
        self.stop_thinking();
        self.set_game(self.start.clone());
        match (self.board.setup(&self.start), self.board.unfit()) {
            (Some(setup), _) => self.out.line(&setup),
            (None, Some(why)) => self.out.line(&format!(
                "tellusererror varsand cannot show {} in WinBoard: {why}",
                self.rules.name()
            )),
            (None, None) => {}
        }
    }

    /// `usermove M`: the opponent's move.
    fn user_move(&mut self, text: &str) {
        let ended = {
            let mut game = self.game();
            let typed = self.board.read_move(&self.rules, text);
            match game.pos.parse_move(&typed) {
                Ok(m) => {
                    game.pos.make(m);
                    game.plies += 1;
                    game.epoch += 1;
                }
                Err(_) => {
                    let why = one_line(&game.pos.why_illegal(&typed));
                    drop(game);
                    return self.out.line(&format!("Illegal move ({why}): {text}"));
                }
            }
            game.pos.outcome()
        };
        self.stop_thinking();
        match ended {
            Some(end) => self.out.line(&result_line(&self.rules, &end)),
            None => self.think_if_engine_moves(),
        }
    }

    /// A line that is no command: a move without `usermove`, or an error.
    fn bare_move(&mut self, line: &str) {
        let typed = self.board.read_move(&self.rules, line);
        if crate::engine::read_move_text(&self.rules, &typed).is_some() {
            self.user_move(line);
        } else {
            self.error("unknown command", line);
        }
    }

    /// `?`: move now, with the best move found so far.
    fn move_now(&mut self) {
        if !self.analyzing
            && let Some(thinking) = &self.thinking
        {
            thinking.stop();
            self.wait_for_move();
        }
    }

    /// `setboard FEN`. WinBoard's position strings lack what it does not show (stack
    /// heights, terrain under pieces): a position that reads as the current one or
    /// the start position keeps all of it.
    fn set_board(&mut self, text: &str) {
        self.stop_thinking();
        let current = self.game().pos.clone();
        let pos = if same_position(&self.board.fen(&current), text) {
            current
        } else if same_position(&self.board.fen(&self.start), text) {
            self.start.clone()
        } else {
            let fen = self.board.read_fen(&self.rules, text);
            match Position::from_fen(self.rules.clone(), &fen) {
                Ok(pos) if pos.impossibilities().is_empty() => pos,
                Ok(pos) => {
                    let why = pos.impossibilities().join("; ");
                    return self
                        .out
                        .line(&format!("tellusererror Illegal position: {why}"));
                }
                Err(e) => {
                    return self.out.line(&format!(
                        "tellusererror Illegal position: {}",
                        one_line(&e.to_string())
                    ));
                }
            }
        };
        self.set_game(pos);
        self.think_if_engine_moves();
    }

    /// `undo` (one ply) and `remove` (two).
    fn take_back(&mut self, plies: usize, line: &str) {
        self.stop_thinking();
        {
            let mut game = self.game();
            if game.plies < plies {
                drop(game);
                return self.error("no move to take back", line);
            }
            for _ in 0..plies {
                game.pos.unmake();
            }
            game.plies -= plies;
            game.epoch += 1;
        }
        if self.analyzing {
            self.think();
        }
    }

    fn set_hash(&mut self, mb: usize) {
        if mb != self.hash_mb {
            self.stop_thinking();
            self.hash_mb = mb;
            self.searcher = None;
        }
    }

    /// Thinks if the engine is to move (or analyses, in analysis mode).
    fn think_if_engine_moves(&mut self) {
        let to_move = self.side_to_move();
        if self.analyzing || self.engine_side == Some(to_move) {
            self.think();
        }
    }

    /// Stops the search (its move, if it has not come yet, is dropped) and takes the
    /// searcher back.
    fn stop_thinking(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            self.game().epoch += 1;
            thinking.stop();
            self.searcher = thinking.finish();
        }
    }

    /// Waits until the search has made its move.
    fn wait_for_move(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            self.searcher = thinking.finish();
        }
    }

    /// Starts a search: the engine's move, or in analysis mode an analysis that goes on
    /// until stopped. A game already over gets its result line instead.
    fn think(&mut self) {
        self.stop_thinking();
        let (pos, epoch, plies) = {
            let game = self.game();
            (game.pos.clone(), game.epoch, game.plies)
        };
        if let Some(end) = pos.clone().outcome() {
            if !self.analyzing {
                self.out.line(&result_line(&self.rules, &end));
            }
            return;
        }
        let mut searcher = self.searcher.take().unwrap_or_else(|| {
            Searcher::with_eval(self.rules.clone(), self.eval.clone(), self.hash_mb)
        });
        searcher.set_threads(self.threads);
        let task = Task {
            game: self.game.clone(),
            board: self.board.clone(),
            out: self.out.clone(),
            post: self.post || self.analyzing,
            epoch,
        };
        if self.analyzing {
            self.thinking = Some(Thinking::start(searcher, true, move |searcher, signals| {
                task.analyse(searcher, pos);
                signals.wait_while_held();
            }));
        } else {
            let limits = self.limits(plies);
            self.thinking = Some(Thinking::start(searcher, false, move |searcher, _| {
                task.play(searcher, pos, &limits);
            }));
        }
    }

    /// The limits of the engine's next search, from `sd`, `st`, `level`, `time` and
    /// `nps`.
    fn limits(&self, plies: usize) -> Limits {
        let c = &self.controls;
        let overhead = Duration::from_millis(DEFAULT_OVERHEAD_MS);
        let time = match (c.move_time, c.level) {
            (Some(st), _) => fixed_budget(st, overhead),
            (None, Some(level)) => Clock {
                remaining: c.own_time.unwrap_or(level.base),
                increment: level.increment,
                moves_to_go: (level.moves > 0)
                    .then(|| level.moves - (plies / 2 % level.moves as usize) as u32),
            }
            .budget(overhead),
            (None, None) => DEFAULT_MOVE_TIME,
        };
        match c.nps {
            // Nodes stand for time: the same share of the clock, counted in nodes.
            Some(nps) => Limits {
                depth: c.depth,
                nodes: Some((time.as_secs_f64() * nps as f64).max(1.0) as u64),
                movetime: None,
            },
            None => Limits {
                depth: c.depth,
                nodes: None,
                movetime: Some(time),
            },
        }
    }
}

/// What a search thread needs of the engine.
struct Task {
    game: Arc<Mutex<Game>>,
    board: Arc<WinBoard>,
    out: Output,
    post: bool,
    epoch: u64,
}

impl Task {
    /// Searches and plays the move, unless the game changed meanwhile; then the
    /// result line if the game is over, and the next move if the engine is still to
    /// move (the same player moving again, by the file's rules).
    fn play(&self, searcher: &mut Searcher, mut pos: Position, limits: &Limits) {
        let side = pos.side_to_move();
        loop {
            let best = self.best_move(searcher, &mut pos, limits);
            let mut game = lock(&self.game);
            if game.epoch != self.epoch {
                return;
            }
            let Some(m) = best.filter(|&m| game.pos.legal_moves().contains(&m)) else {
                return;
            };
            let text = self.board.move_text(&game.pos, m);
            game.pos.make(m);
            game.plies += 1;
            for line in super::winboard::move_lines(&text) {
                self.out.line(&line);
            }
            if let Some(end) = game.pos.outcome() {
                return self.out.line(&result_line(game.pos.rules(), &end));
            }
            if game.pos.side_to_move() != side {
                return;
            }
            pos = game.pos.clone();
        }
    }

    /// The move to play. WinBoard has no move for the pie rule's `swap` (which would
    /// hand each player the other's pieces), so the engine plays the best other move
    /// instead, scored to a shallower depth.
    fn best_move(
        &self,
        searcher: &mut Searcher,
        pos: &mut Position,
        limits: &Limits,
    ) -> Option<Move> {
        let result = self.search(searcher, pos, limits);
        let best = result.best?;
        if !best.is_swap() {
            return Some(best);
        }
        let depth = result.depth.clamp(1, SWAP_FALLBACK_DEPTH);
        searcher
            .score_all(pos, depth)
            .into_iter()
            .filter(|(m, _)| !m.is_swap())
            .max_by_key(|&(_, score)| score)
            .map(|(m, _)| m)
    }

    /// Analyses until stopped.
    /// A search that ends by itself has proved its result (a forced win or loss): the
    /// result holds at any depth, so it is given once more at the deepest depth, for
    /// clients that wait for a depth.
    fn analyse(&self, searcher: &mut Searcher, mut pos: Position) {
        let mut root = pos.clone();
        let mut result = self.search(searcher, &mut pos, &Limits::default());
        if !result.stopped && result.depth < MAX_DEPTH && result.mate_in().is_some() {
            result.depth = MAX_DEPTH;
            self.out.line(&self.thinking_line(&mut root, &result));
        }
    }

    /// One search, with thinking output after each depth if asked for.
    fn search(&self, searcher: &mut Searcher, pos: &mut Position, limits: &Limits) -> SearchResult {
        let mut root = pos.clone();
        searcher.search_with(pos, limits, |r| {
            if self.post {
                self.out.line(&self.thinking_line(&mut root, r));
            }
        })
    }

    /// `DEPTH SCORE TIME NODES PV`: time in centiseconds, the score in centipawns from
    /// the engine's view (a win in N moves `100000 + N`, a loss `-100000 - N`).
    fn thinking_line(&self, root: &mut Position, r: &SearchResult) -> String {
        let score = match r.mate_in() {
            Some(n) if n > 0 => MATE_SCORE + i64::from(n),
            Some(n) => -MATE_SCORE + i64::from(n),
            None => i64::from(r.score),
        };
        let mut pv = Vec::with_capacity(r.pv.len());
        for &m in &r.pv {
            pv.push(self.board.move_text(root, m));
            root.make(m);
        }
        for _ in &r.pv {
            root.unmake();
        }
        format!(
            "{} {score} {} {} {}",
            r.depth,
            r.elapsed.as_millis() / 10,
            r.nodes,
            pv.join(" ")
        )
    }
}

fn lock(game: &Mutex<Game>) -> MutexGuard<'_, Game> {
    game.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `1-0 {black is checkmated}`: the result for the first player, and why.
fn result_line(rules: &Rules, end: &GameEnd) -> String {
    let result = match end.winner {
        Some(Side::First) => "1-0",
        Some(_) => "0-1",
        None => "1/2-1/2",
    };
    format!("{result} {{{}}}", one_line(&end.describe(rules)))
}

/// A text on one line, without the braces and parentheses that end protocol fields.
fn one_line(text: &str) -> String {
    text.lines()
        .collect::<Vec<_>>()
        .join("; ")
        .replace(['{', '}'], "")
        .replace('(', "[")
        .replace(')', "]")
}

/// `12x12+0_NAME` → `NAME`: WinBoard puts a board size before a variant's name when
/// the board is not the variant's usual one.
fn strip_board_size(name: &str) -> &str {
    match name.split_once('_') {
        Some((size, rest))
            if size.contains('x')
                && size
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b == b'x' || b == b'+') =>
        {
            rest
        }
        _ => name,
    }
}

/// Do two position strings agree on the board, the hands and the side to move
/// (the fields WinBoard knows for sure)?
fn same_position(ours: &str, theirs: &str) -> bool {
    let key = |s: &str| s.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
    key(ours) == key(theirs)
}

/// A whole number in `min..=max`.
fn read_whole(text: &str, min: u64, max: u64) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{text}` is not a whole number from {min} to {max}"
        )),
    }
}

/// A number of seconds (`5`, `0.5`), at most a year.
fn read_seconds(text: &str) -> Result<Duration, String> {
    let valid = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && text.bytes().filter(|&b| b == b'.').count() <= 1;
    match text.parse::<f64>() {
        Ok(s) if valid && s <= MAX_SECONDS => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!("`{text}` is not a number of seconds up to a year")),
    }
}

/// `time`/`otim`: centiseconds; a negative clock (run out) reads as 0.
fn read_centiseconds(text: &str) -> Result<Duration, String> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("`{text}` is not a whole number of centiseconds"));
    }
    let cs = if text.starts_with('-') {
        0
    } else {
        digits.parse::<u64>().unwrap_or(u64::MAX)
    };
    let most = (MAX_SECONDS as u64) * 100;
    Ok(Duration::from_millis(cs.min(most) * 10))
}

/// `level MPS BASE INC`: moves per session (0 for all), the base time in minutes
/// (`5`) or minutes and seconds (`0:30`), the increment in seconds.
fn read_level(text: &str) -> Result<Level, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let [moves, base, increment] = words[..] else {
        return Err("level wants MOVES BASE INCREMENT".into());
    };
    let moves = read_whole(moves, 0, MAX_MOVES_PER_SESSION)? as u32;
    let base = match base.split_once(':') {
        Some((m, s)) => {
            let minutes = read_whole(m, 0, (MAX_SECONDS / 60.0) as u64)?;
            let seconds = read_whole(s, 0, 59)?;
            Duration::from_secs(minutes * 60 + seconds)
        }
        None => Duration::from_secs(60 * read_whole(base, 0, (MAX_SECONDS / 60.0) as u64)?),
    };
    Ok(Level {
        moves,
        base,
        increment: read_seconds(increment)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_are_read_and_range_checked() {
        assert_eq!(
            read_level("40 5 0"),
            Ok(Level {
                moves: 40,
                base: Duration::from_secs(300),
                increment: Duration::ZERO
            })
        );
        assert_eq!(
            read_level("0 2:30 1.5").map(|l| (l.base, l.increment)),
            Ok((Duration::from_secs(150), Duration::from_millis(1500)))
        );
        assert!(read_level("0 2:75 1").is_err());
        assert!(read_level("40 5").is_err());
        assert_eq!(read_seconds("0.02"), Ok(Duration::from_millis(20)));
        for bad in ["-1", "inf", "NaN", "1e9", "", "1.2.3", "99999999999"] {
            assert!(read_seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(read_centiseconds("-50"), Ok(Duration::ZERO));
        assert_eq!(read_centiseconds("150"), Ok(Duration::from_millis(1500)));
        assert!(read_centiseconds("12x").is_err());
    }

    #[test]
    fn variant_names_lose_winboards_board_size() {
        assert_eq!(strip_board_size("12x12+0_fairy"), "fairy");
        assert_eq!(strip_board_size("10x8_my_game"), "my_game");
        assert_eq!(strip_board_size("my_game"), "my_game");
    }
}
