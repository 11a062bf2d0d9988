//! The computer player: a generic game-tree search over the engine.
//!
//! Iterative deepening principal-variation search (alpha-beta with null windows) with a
//! Zobrist transposition table ([`tt`]), move ordering (the hash move, captures by most
//! valuable victim / least valuable attacker, then a capture history; promotions, two
//! killer moves per ply, a history table), check and singular extensions and late-move
//! reductions, then a quiescence search of captures and promotions (and of every
//! evasion while in check, for a few plies).
//! The evaluation ([`eval`]) is derived from the rules; the search adds the threat
//! term ([`threats`]: pieces that stand to be lost) and mobility to it.
//!
//! Moves are opaque: the search only generates them, makes and unmakes them, so drops,
//! stacks, effects, passes and the pie rule's `swap` need nothing special. Scores are
//! always from the point of view of the player to move: after `swap` the same colour is
//! to move but played by the other person, so negamax's sign flip stays right. A decided
//! game is a terminal node: no legal move (a `captured` rule that took effect leaves
//! none either) is scored from the end rules as [`Position::outcome`] scores it;
//! repetition and move-limit rules are checked here from the position's counters (a
//! repetition inside the search, found by its hash, counts as the rule's draw at once).
//!
//! Where leaving no royal piece attacked is the whole of legality, inner nodes take the
//! pseudo-legal moves and test each only when they play it: most nodes stop after a
//! move or two, so testing every move up front would be wasted. The mobility term then
//! counts the pseudo-legal moves.
//!
//! Nodes: every call of the main search and of the quiescence search counts one node
//! (the node entered), whatever it then finds (a table hit, a stand-pat cut, an end). Wins and losses are `MATE − plies`, so shorter wins are
//! preferred. Any other end of the game is seen as an empty list of legal moves (the
//! engine generates none once a game is decided); with end rules this module does not
//! know, the quiescence search generates legal moves too, to see it.
//!
//! A search stops at its depth limit, its node limit, its time limit, when Ctrl-C is
//! pressed ([`crate::interrupt::requested`]), or when its own stop flag is raised
//! ([`Searcher::set_stop_flag`]: the engine protocols stop a search running on another
//! thread with it); it then returns the best move found so far. With a depth limit and
//! no time limit it is deterministic.

pub mod eval;
pub mod learned;
pub mod network;
mod ordering;
mod structure;
pub mod threats;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::engine::search_support::legality_is_royal_safety;
use crate::engine::{GameEnd, Move, Position};
use crate::ids::Side;
use crate::rules::{Code, EMPTY, EndRule, Outcome, Rules, Source, code, kind_of};
pub use eval::Eval;
use tt::{Bound, Entry, Tt};

/// The score of a won game at the root; a win in `p` plies scores `MATE − p`.
pub const MATE: i32 = 1_000_000;
/// Scores at least this far from zero are forced wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = MATE + 1;
/// The deepest the search goes, quiescence and extensions included.
pub const MAX_PLY: usize = 128;
/// The deepest iteration without a depth limit.
pub const MAX_DEPTH: u32 = 64;
/// The most threads a search uses.
pub const MAX_THREADS: usize = 256;
/// Quiescence follows every evasion while in check for at most this many plies.
const QUIET_EVASIONS: usize = 4;
/// Futility pruning of quiet moves: the margin over the static evaluation is this
/// plus [`FUTILITY_STEP`] per ply of the move's reduced depth.
const FUTILITY_BASE: i32 = 120;
const FUTILITY_STEP: i32 = 90;
/// History pruning: a quiet move near the leaves whose history is below this times
/// the depth is not searched (histories reach ±3 × 16,384 with the continuations).
const HISTORY_PRUNE: i32 = -4_000;
/// The least depth at which a hash move's singularity is tested.
const SINGULAR_DEPTH: i32 = 7;
/// Centipawns a ply of depth below the hash move's stored score that its rivals
/// must stay under for it to be singular.
const SINGULAR_MARGIN: i32 = 2;

/// A small, seedable random number generator (xorshift64*), so games replay exactly.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// A piece's worth: its declared value, else 1.
fn value(pos: &Position, code: u8) -> i64 {
    if code == EMPTY {
        return 0;
    }
    pos.rules().pieces[kind_of(code)].value.unwrap_or(1)
}

/// Picks a move: the capture of the most valuable piece, else a random legal move.
pub fn simple_move(pos: &mut Position, rng: &mut Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let gain = |m: &Move| m.target().map_or(0, |to| value(pos, pos.piece_at(to)));
    let best = moves.iter().map(gain).max().unwrap_or(0);
    let pool: Vec<Move> = if best > 0 {
        moves.iter().copied().filter(|m| gain(m) == best).collect()
    } else {
        moves
    };
    Some(pool[rng.below(pool.len())])
}

/// A uniformly random legal move.
pub fn random_move(pos: &mut Position, rng: &mut Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    (!moves.is_empty()).then(|| moves[rng.below(moves.len())])
}

/// The end rules that apply while moves remain (repetition, move limits), read from
/// the rules once, so a game loop need not call [`Position::outcome`] (which generates
/// the moves again) at every ply.
#[derive(Debug, Clone)]
pub struct Ends {
    /// In the file's order: (repetition?, count, result for the side to move).
    counted: Vec<(bool, u32, Outcome)>,
    /// The rules have an end rule this module does not know: a game loop asks
    /// `outcome()` at every ply, and the quiescence search generates legal moves.
    pub other: bool,
    /// The plies of the first move-limit rule, if any.
    limit_plies: Option<u32>,
    /// The result for a side left without a legal move, in check and not: the first
    /// `checkmate`, `stalemate` or `no-moves` rule that applies, else a draw.
    without_moves: [Outcome; 2],
}

impl Ends {
    pub fn new(rules: &Rules) -> Self {
        let mut counted = Vec::new();
        let mut other = false;
        for r in &rules.end_rules {
            match *r {
                EndRule::Repetition(k, o) => counted.push((true, k, o)),
                EndRule::MoveLimit(k, o) => counted.push((false, k, o)),
                ref r => {
                    other |= !matches!(
                        r,
                        EndRule::Checkmate(_)
                            | EndRule::Stalemate(_)
                            | EndRule::NoMoves(_)
                            | EndRule::Captured(..)
                            | EndRule::Facing(..)
                            | EndRule::Passes(..)
                    );
                }
            }
        }
        let limit_plies = counted.iter().find(|c| !c.0).map(|c| 2 * c.1);
        let without_moves = [false, true].map(|check| {
            rules
                .end_rules
                .iter()
                .find_map(|r| match *r {
                    EndRule::Checkmate(o) if check => Some(o),
                    EndRule::Stalemate(o) if !check => Some(o),
                    EndRule::NoMoves(o) => Some(o),
                    _ => None,
                })
                .unwrap_or(Outcome::Draw)
        });
        Self {
            counted,
            other,
            limit_plies,
            without_moves,
        }
    }

    /// The result for the side to move when it has no legal move and no rule has
    /// ended the game otherwise; `check`: it is in check.
    pub fn without_moves(&self, check: bool) -> Outcome {
        self.without_moves[usize::from(check)]
    }

    /// With legal moves to make, does a repetition, move-limit, `passes` or `facing`
    /// rule end the game?
    /// The result for the side to move. `in_search`: a position repeated once counts
    /// as a repetition draw (the usual shortcut inside a search tree).
    pub fn counted_result(&self, pos: &Position, in_search: bool) -> Option<Outcome> {
        let us = pos.side_to_move();
        if let Some((_, o)) = pos.pass_end() {
            return Some(pos.settle(us, o));
        }
        for &(repetition, k, o) in &self.counted {
            if repetition {
                // A repetition needs at least four reversible plies.
                if pos.halfmove_clock() < 4 {
                    continue;
                }
                // Inside a search a hash match is taken for a repetition (no copy of the
                // position to confirm it, and no reference count touched).
                let r = if in_search {
                    pos.repetitions_by_hash()
                } else {
                    pos.repetitions()
                };
                if r >= k || (in_search && r >= 2 && o == Outcome::Draw) {
                    return Some(pos.settle(us, o));
                }
            } else if pos.halfmove_clock() >= 2 * k {
                return Some(pos.settle(us, o));
            }
        }
        None
    }

    /// Has the game ended, given its legal moves? Calls [`Position::outcome`] only
    /// when it has (for the reason), or when the rules need it at every ply.
    pub fn game_end(&self, pos: &mut Position, moves: &[Move]) -> Option<GameEnd> {
        if moves.is_empty() || self.other || self.counted_result(pos, false).is_some() {
            pos.outcome()
        } else {
            None
        }
    }
}

/// When to stop searching. With none set, the search goes to depth 64.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Plies of the main search (quiescence goes further).
    pub depth: Option<u32>,
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
}

impl Limits {
    pub fn depth(d: u32) -> Self {
        Self {
            depth: Some(d),
            ..Self::default()
        }
    }
    pub fn movetime(ms: u64) -> Self {
        Self {
            movetime: Some(Duration::from_millis(ms)),
            ..Self::default()
        }
    }
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct SearchResult {
    /// The move to play; `None` when the game is over.
    pub best: Option<Move>,
    /// In centipawns from the side to move's view, or a mate score (see [`MATE`]).
    pub score: i32,
    /// The last depth completed.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The principal variation, from the transposition table.
    pub pv: Vec<Move>,
    /// Stopped by time, nodes or Ctrl-C before the depth limit.
    pub stopped: bool,
}

impl SearchResult {
    /// Moves to a forced win (positive) or loss (negative), if the score is one.
    pub fn mate_in(&self) -> Option<i32> {
        if self.score >= MATE_BOUND {
            Some((MATE - self.score + 1) / 2)
        } else if self.score <= -MATE_BOUND {
            Some(-((MATE + self.score) / 2))
        } else {
            None
        }
    }

    /// The score as a person reads it: `+0.35` (hundreds of centipawns), `win in 3`,
    /// `loss in 2`.
    pub fn score_text(&self) -> String {
        match self.mate_in() {
            Some(n) if n > 0 => format!("win in {n}"),
            Some(n) => format!("loss in {}", -n),
            None => format!("{:+.2}", f64::from(self.score) / 100.0),
        }
    }

    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The searcher: its tables live across searches (one game), so later moves reuse
/// what earlier searches learnt.
pub struct Searcher {
    rules: Arc<Rules>,
    eval: Arc<Eval>,
    ends: Ends,
    /// Shared with the helper threads of a parallel search.
    tt: Arc<Tt>,
    /// Threads searching at once (Lazy SMP): this searcher and `threads - 1` helpers.
    threads: usize,
    helpers: Vec<Searcher>,
    /// In a parallel search, the nodes the helpers have counted so far (each adds
    /// its count as it polls), so that a node limit bounds them all.
    helper_nodes: Option<Arc<AtomicU64>>,
    /// This searcher is a helper: it adds to `helper_nodes` rather than reading it.
    is_helper: bool,
    killers: Vec<[Option<Move>; 2]>,
    /// Quiet moves' history, per side and (from, to).
    history: Vec<i32>,
    cont_history: ordering::ContinuationHistory,
    reductions: ordering::Reductions,
    /// The static evaluation at each ply of the current line (in check: none), to
    /// tell whether the side to move is improving.
    evals: Vec<Option<i32>>,
    /// The move played at each ply of the current line (`None`: a null move).
    path: Vec<Option<Move>>,
    /// A null move means something here: no passes or swaps in the rules.
    null_ok: bool,
    /// A null move's verification search is running: no null moves below it.
    verifying: bool,
    /// Per ply, the move a singular-extension search leaves out (the hash move
    /// whose rivals it measures), if one runs there.
    excluded: Vec<Option<Move>>,
    /// Per side: piece codes worth enough that a side with one is unlikely to be in
    /// zugzwang (royal pieces and the weakest pieces are not).
    strong: [Vec<Code>; 2],
    cells: usize,
    lists: Vec<Vec<Move>>,
    order: Vec<Vec<i32>>,
    /// Per ply, the moves tried so far (kept to spare an allocation a node).
    tried: Vec<Tried>,
    /// Captures' history, per (moving piece, target cell, victim).
    capture_history: Vec<i32>,
    /// The number of legal moves at each ply of the current line.
    mobility: Vec<i32>,
    has_royals: bool,
    /// Royal safety is the whole of legality: inner nodes take the pseudo-legal
    /// moves and test each as they play it (most nodes stop after one or two).
    lazy_legality: bool,
    nodes: u64,
    seldepth: usize,
    start: Instant,
    deadline: Option<Instant>,
    node_limit: u64,
    stopped: bool,
    /// Raised by another thread to stop the search (see [`Searcher::set_stop_flag`]).
    stop_flag: Option<Arc<AtomicBool>>,
    root_depth: i32,
    /// The threat term added to the static evaluation.
    threats: Arc<threats::Threats>,
    /// Evaluation noise: amplitude in centipawns, and its seed.
    noise: i32,
    noise_seed: u64,
}

impl Searcher {
    /// A searcher with a 16 MB transposition table.
    pub fn new(rules: Arc<Rules>) -> Self {
        Self::with_tt_mb(rules, 16)
    }

    pub fn with_tt_mb(rules: Arc<Rules>, mb: usize) -> Self {
        let eval = Arc::new(Eval::new(&rules));
        Self::with_eval(rules, eval, mb)
    }

    /// A searcher sharing evaluation tables already built for these rules.
    pub fn with_eval(rules: Arc<Rules>, eval: Arc<Eval>, mb: usize) -> Self {
        let cells = rules.cell_count();
        let null_ok = null_move_means_something(&rules);
        let strong = strong_codes(&rules, &eval);
        let threats = Arc::new(threats::Threats::new(&rules, &eval));
        let codes = 1 + 2 * rules.pieces.len();
        Self {
            ends: Ends::new(&rules),
            has_royals: rules.pieces.iter().any(|p| p.royal),
            lazy_legality: legality_is_royal_safety(&rules),
            rules,
            eval,
            tt: Arc::new(Tt::new(mb)),
            threads: 1,
            helpers: Vec::new(),
            helper_nodes: None,
            is_helper: false,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * (cells + 1) * (cells + 1)],
            cont_history: ordering::ContinuationHistory::new(),
            reductions: ordering::Reductions::new(),
            evals: vec![None; MAX_PLY + 2],
            path: vec![None; MAX_PLY + 2],
            null_ok,
            verifying: false,
            excluded: vec![None; MAX_PLY + 2],
            strong,
            cells,
            lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            order: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            tried: (0..=MAX_PLY).map(|_| Tried::default()).collect(),
            capture_history: vec![0; codes * (cells + 1) * codes],
            mobility: vec![0; MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            start: Instant::now(),
            deadline: None,
            node_limit: u64::MAX,
            stopped: false,
            stop_flag: None,
            root_depth: 0,
            threats,
            noise: 0,
            noise_seed: 0,
        }
    }

    /// Adds up to ±`amplitude` centipawns to every evaluation: a fixed function of the
    /// position and the seed, so that games with different seeds differ while each
    /// replays exactly (self-play analysis uses it). 0 turns it off.
    pub fn set_noise(&mut self, amplitude: i32, seed: u64) {
        self.noise = amplitude.max(0);
        self.noise_seed = seed;
    }

    /// Searches stop, as on Ctrl-C, once `flag` is raised (checked every 1024 nodes);
    /// `None` removes the flag. A search never lowers it.
    pub fn set_stop_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.stop_flag = flag;
    }

    /// Searches with `n` threads sharing the transposition table (Lazy SMP): the
    /// helpers search the same tree, and what they store speeds this searcher up.
    /// With more than one thread a search is no longer deterministic.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, MAX_THREADS);
        self.helpers.truncate(self.threads - 1);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// A helper thread's searcher: the same rules, evaluation and table.
    fn helper(&self) -> Searcher {
        let mut h = Searcher::with_eval(self.rules.clone(), self.eval.clone(), 1);
        h.tt = self.tt.clone();
        h.is_helper = true;
        h
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    pub fn eval(&self) -> &Arc<Eval> {
        &self.eval
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.fill(0);
        self.capture_history.fill(0);
        self.cont_history.clear();
        self.killers.fill([None; 2]);
        for h in &mut self.helpers {
            h.clear();
        }
    }

    /// The search's static evaluation of a position, from the side to move's view:
    /// the rules' evaluation ([`Eval::evaluate`]) and the threat term.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.eval.evaluate(pos) + self.threats.score(pos)
    }

    /// Searches for the best move within the limits.
    pub fn search(&mut self, pos: &mut Position, limits: &Limits) -> SearchResult {
        self.search_with(pos, limits, |_| {})
    }

    /// Searches, calling `info` after each completed iteration.
    pub fn search_with(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        info: impl FnMut(&SearchResult),
    ) -> SearchResult {
        if self.threads <= 1 {
            return self.iterate(pos, limits, 0, info);
        }
        self.parallel_search(pos, limits, info)
    }

    /// Lazy SMP: the helpers search copies of the position until this searcher's
    /// search ends, all sharing the transposition table; this searcher's result is
    /// the answer, and the node count (and a node limit) covers every thread.
    fn parallel_search(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        info: impl FnMut(&SearchResult),
    ) -> SearchResult {
        while self.helpers.len() < self.threads - 1 {
            let h = self.helper();
            self.helpers.push(h);
        }
        let counter = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let mut helpers = std::mem::take(&mut self.helpers);
        self.helper_nodes = Some(counter.clone());
        // Helpers stop with this search, or at its depth limit.
        let helper_limits = Limits {
            depth: limits.depth,
            ..Limits::default()
        };
        let mut result = std::thread::scope(|s| {
            for (i, h) in helpers.iter_mut().enumerate() {
                h.helper_nodes = Some(counter.clone());
                h.stop_flag = Some(stop.clone());
                let mut copy = pos.clone();
                let limits = &helper_limits;
                s.spawn(move || h.iterate(&mut copy, limits, i + 1, |_| {}));
            }
            // The helpers stop when this search ends, even by a panic (else the scope
            // would wait for them for ever).
            let _stop_helpers = StopOnDrop(&stop);
            self.iterate(pos, limits, 0, info)
        });
        result.nodes = self.nodes + helpers.iter().map(|h| h.nodes).sum::<u64>();
        self.helpers = helpers;
        self.helper_nodes = None;
        result
    }

    /// This searcher's nodes and, in a parallel search, the helpers' so far.
    fn total_nodes(&self) -> u64 {
        self.nodes
            + self
                .helper_nodes
                .as_ref()
                .map_or(0, |c| c.load(Ordering::Relaxed))
    }

    /// Iterative deepening. `id`: 0 for the searcher that answers, else a helper's
    /// number (odd helpers search one ply deeper, so that the threads spread out).
    fn iterate(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        id: usize,
        mut info: impl FnMut(&SearchResult),
    ) -> SearchResult {
        self.start = Instant::now();
        self.deadline = limits.movetime.map(|t| self.start + t);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        if id == 0 {
            self.tt.new_search();
        }
        self.killers.fill([None; 2]);
        for h in &mut self.history {
            *h /= 4;
        }
        let mut root = pos.legal_moves();
        let mut result = SearchResult {
            best: root.first().copied(),
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
            stopped: false,
        };
        if root.is_empty() {
            result.score = self.terminal(pos, 0);
            return result;
        }
        if root.len() == 1 {
            result.score = self.eval.evaluate(pos);
            result.pv = root.clone();
            return result;
        }
        self.mobility[0] = root.len() as i32;
        // Start with the captures and the hash move first.
        let hash_move = self.tt.probe(pos.hash()).and_then(|e| e.mv);
        let mut scores = Vec::new();
        self.score_moves(pos, &root, &mut scores, hash_move, 0);
        let mut idx: Vec<usize> = (0..root.len()).collect();
        idx.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        root = idx.iter().map(|&i| root[i]).collect();

        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        // Under a depth limit every iteration's answer comes from its full depth: a
        // fail high searched again shallower could otherwise stand as the answer.
        let shorten = limits.depth.is_none();
        for depth in 1..=max_depth {
            self.root_depth = depth as i32;
            let depth = (depth + (id & 1) as u32).min(MAX_DEPTH);
            let (score, best) =
                self.aspirated_root(pos, &mut root, depth as i32, result.score, shorten);
            if self.stopped {
                // A move that completed this iteration and beat the others is better
                // informed than the last iteration's choice.
                if let Some(m) = best {
                    result.best = Some(m);
                    result.score = score;
                }
                result.stopped = true;
                break;
            }
            result.best = best;
            result.score = score;
            result.depth = depth;
            result.seldepth = self.seldepth as u32;
            result.nodes = self.total_nodes();
            result.elapsed = self.start.elapsed();
            result.pv = self.pv(pos, depth as usize + 8);
            info(&result);
            if score.abs() >= MATE_BOUND && (MATE - score.abs()) <= depth as i32 {
                break;
            }
            if let Some(t) = limits.movetime
                && self.start.elapsed() * 2 >= t
            {
                break;
            }
        }
        result.nodes = self.total_nodes();
        result.elapsed = self.start.elapsed();
        result.seldepth = self.seldepth as u32;
        if result.pv.first() != result.best.as_ref() {
            result.pv = result.best.into_iter().collect();
        }
        result
    }

    /// Every legal move with its score, each searched with a full window to `depth`
    /// plies in all (this move included), without a time limit. Self-play uses it to
    /// pick varied opening moves that are not blunders.
    pub fn score_all(&mut self, pos: &mut Position, depth: u32) -> Vec<(Move, i32)> {
        self.start = Instant::now();
        self.deadline = None;
        self.node_limit = u64::MAX;
        self.stopped = false;
        self.nodes = 0;
        self.tt.new_search();
        self.root_depth = depth.max(1) as i32;
        let moves = pos.legal_moves();
        self.mobility[0] = moves.len() as i32;
        let mut out = Vec::with_capacity(moves.len());
        for m in moves {
            self.path[0] = Some(m);
            pos.make(m);
            let checked = self.has_royals && pos.in_check(pos.side_to_move());
            let s = -self.negamax(pos, depth.max(1) as i32 - 1, -INF, INF, 1, checked);
            pos.unmake();
            out.push((m, s));
        }
        out
    }

    /// One iteration at the root in a window around the last iteration's score,
    /// widened and searched again while the score falls outside it (after a fail
    /// high, a ply less deep for each fail high in a row, as Stockfish does, if
    /// `shorten`).
    fn aspirated_root(
        &mut self,
        pos: &mut Position,
        moves: &mut [Move],
        depth: i32,
        previous: i32,
        shorten: bool,
    ) -> (i32, Option<Move>) {
        if depth < 4 || previous.abs() >= MATE_BOUND {
            return self.root(pos, moves, depth, -INF, INF);
        }
        let mut window = Window::around(previous, shorten);
        loop {
            let (score, best) = self.root(pos, moves, window.depth(depth), window.low, window.high);
            if self.stopped || !window.widen(score) {
                return (score, best);
            }
        }
    }

    /// One iteration at the root within (`alpha`, `beta`): the score and the best
    /// move, if one completed and beat `alpha`.
    fn root(
        &mut self,
        pos: &mut Position,
        moves: &mut [Move],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Option<Move>) {
        let alpha0 = alpha;
        let mut best: Option<usize> = None;
        for (i, &m) in moves.iter().enumerate() {
            self.path[0] = Some(m);
            let quiet = !pos.is_tactical(m);
            let us = pos.side_to_move();
            pos.make(m);
            let gives_check = self.has_royals && pos.in_check(pos.side_to_move());
            let d = depth - 1 + i32::from(gives_check);
            let score = if i == 0 {
                -self.negamax(pos, d, -beta, -alpha, 1, gives_check)
            } else {
                let late = quiet && !gives_check && depth >= 4 && i >= 3;
                let r = if late {
                    self.root_reduction(us, m, depth, i).clamp(0, d - 1)
                } else {
                    0
                };
                let mut s = -self.negamax(pos, d - r, -alpha - 1, -alpha, 1, gives_check);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.negamax(pos, d, -alpha - 1, -alpha, 1, gives_check);
                }
                if s > alpha && !self.stopped {
                    -self.negamax(pos, d, -beta, -alpha, 1, gives_check)
                } else {
                    s
                }
            };
            pos.unmake();
            if self.stopped {
                break;
            }
            if score > alpha {
                alpha = score;
                best = Some(i);
                if alpha >= beta {
                    break;
                }
            }
        }
        let Some(b) = best else {
            return (alpha, None);
        };
        // The best move first, the others in their order.
        moves[..=b].rotate_right(1);
        let m = moves[0];
        if !self.stopped {
            let bound = if alpha >= beta {
                Bound::Lower
            } else if alpha > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt
                .store(pos.hash(), Some(m), alpha, depth as i16, bound);
        }
        (alpha, Some(m))
    }

    /// How much less deep a late quiet root move (`pos` is after it, the `i`th tried)
    /// is searched first: the table's reduction less one, as at a principal-variation
    /// node; searched again at full depth if it beats the best so far.
    fn root_reduction(&self, us: Side, m: Move, depth: i32, i: usize) -> i32 {
        self.reductions.get(depth, i) - 1 - self.quiet_score(us, m, 0) / 6_000
    }

    /// The principal variation: hash moves from the root, while legal.
    fn pv(&mut self, pos: &mut Position, max: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut seen = Vec::new();
        while pv.len() < max {
            let Some(m) = self.tt.probe(pos.hash()).and_then(|e| e.mv) else {
                break;
            };
            if seen.contains(&pos.hash()) || !pos.legal_moves().contains(&m) {
                break;
            }
            seen.push(pos.hash());
            pos.make(m);
            pv.push(m);
        }
        for _ in 0..pv.len() {
            pos.unmake();
        }
        pv
    }

    fn poll(&mut self) {
        let mut nodes = self.nodes;
        if let Some(c) = &self.helper_nodes {
            if self.is_helper {
                // Called every 1024 nodes: the helper's count so far, to the counter.
                c.fetch_add(1024, Ordering::Relaxed);
            } else {
                nodes += c.load(Ordering::Relaxed);
            }
        }
        if crate::interrupt::requested()
            || self
                .stop_flag
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
            || nodes >= self.node_limit
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.stopped = true;
        }
    }

    #[inline]
    fn count_node(&mut self, ply: usize) {
        self.nodes += 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.nodes & 1023 == 0 {
            self.poll();
        }
    }

    /// The score of a position with no legal move, or decided by a capture rule.
    /// Read from the rules as [`Position::outcome`] reads them, without generating the
    /// moves again (the caller found none).
    fn terminal(&self, pos: &mut Position, ply: usize) -> i32 {
        let us = pos.side_to_move();
        if let Some(e) = pos.decided() {
            return end_score(&e, us, ply);
        }
        let check = self.has_royals && pos.in_check(us);
        Self::outcome_score(pos.settle(us, self.ends.without_moves(check)), ply)
    }

    fn outcome_score(o: Outcome, ply: usize) -> i32 {
        match o {
            Outcome::Win => MATE - ply as i32,
            Outcome::Loss => -(MATE - ply as i32),
            Outcome::Draw | Outcome::ByCount => 0,
        }
    }

    /// Does the game end here (given the legal moves)? Its score if so.
    #[inline]
    fn node_end(
        &self,
        pos: &mut Position,
        moves: &[Move],
        ply: usize,
        counted: bool,
    ) -> Option<i32> {
        if moves.is_empty() {
            return Some(self.terminal(pos, ply));
        }
        if counted && let Some(o) = self.ends.counted_result(pos, true) {
            // Pseudo-legal moves may all be illegal: no legal move decides first.
            if self.lazy_legality && !moves.iter().any(|&m| pos.is_legal(m)) {
                return Some(self.terminal(pos, ply));
            }
            return Some(Self::outcome_score(o, ply));
        }
        None
    }

    /// The moves an inner node tries: the legal ones, or under plain royal-safety
    /// legality the pseudo-legal ones (none once a rule has decided the game), each
    /// tested as it is played ([`Self::plays_legally`]).
    #[inline]
    fn node_moves(&self, pos: &mut Position, moves: &mut Vec<Move>) {
        if !self.lazy_legality {
            pos.legal_moves_into(moves);
            return;
        }
        moves.clear();
        if !pos.is_decided() {
            pos.pseudo_moves(moves);
        }
    }

    /// Plays `m` if it is legal (for a node whose moves came from
    /// [`Self::node_moves`]); `in_check`: the side to move is in check.
    #[inline]
    fn plays_legally(&self, pos: &mut Position, m: Move, in_check: bool) -> bool {
        let us = pos.side_to_move();
        let test = self.lazy_legality && (in_check || !pos.surely_safe(m));
        pos.make(m);
        if test && pos.royal_left_attacked(us) {
            pos.unmake();
            return false;
        }
        true
    }

    /// The static evaluation plus mobility: the side to move's number of moves two
    /// plies earlier against the opponent's a ply earlier (so that standing pat needs
    /// no move generation).
    #[inline]
    fn static_eval(&self, pos: &Position, ply: usize) -> i32 {
        let mut s = self.evaluate(pos);
        if ply >= 2 {
            s += self.eval.mobility * (self.mobility[ply - 2] - self.mobility[ply - 1]);
        }
        if let Some(limit) = self.ends.limit_plies {
            // Nearing a move limit, a lead is worth less: progress (a capture, a
            // clock-resetting move) is worth making while it counts.
            let left = i64::from(limit.saturating_sub(pos.halfmove_clock()));
            s = (i64::from(s) * (i64::from(limit) + left) / (2 * i64::from(limit)).max(1)) as i32;
        }
        if self.noise > 0 {
            let h = (pos.hash() ^ self.noise_seed).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            s += ((h >> 33) % (2 * self.noise as u64 + 1)) as i32 - self.noise;
        }
        s
    }

    /// The piece a move captures, if any.
    #[inline]
    fn victim(pos: &Position, m: Move) -> Option<Code> {
        pos.victim(m)
    }

    #[inline]
    fn history_index(&self, side: usize, m: Move) -> usize {
        let n = self.cells;
        let f = m.from.index().min(n);
        let t = m.to.index().min(n);
        (side * (n + 1) + f) * (n + 1) + t
    }

    /// A quiet move's history: its own, and how it did after the last two moves.
    #[inline]
    fn quiet_score(&self, side: Side, m: Move, ply: usize) -> i32 {
        let key = ordering::move_key(m);
        let mut s = self.history[self.history_index(side.index(), m)];
        for distance in 1..=2 {
            if ply >= distance
                && let Some(earlier) = self.path[ply - distance]
            {
                s +=
                    self.cont_history
                        .get(ordering::move_key(earlier), key, side.index(), distance);
            }
        }
        s
    }

    /// The index of a capture in the capture history: the piece moving, where it
    /// lands, and what it takes.
    #[inline]
    fn capture_index(&self, pos: &Position, m: Move, victim: Code) -> usize {
        let codes = 1 + 2 * self.rules.pieces.len();
        let mover = pos.board().get(m.from.index()).map_or(0, |&c| c as usize);
        let to = m.to.index().min(self.cells);
        (mover * (self.cells + 1) + to) * codes + victim as usize
    }

    /// The history of a capture taking `victim`.
    #[inline]
    fn capture_score(&self, pos: &Position, m: Move, victim: Code) -> i32 {
        self.capture_history[self.capture_index(pos, m, victim)]
    }

    /// After a cut by `best` (`quiet`: a quiet move): rewards it and punishes the
    /// moves of its sort tried before it, and punishes the captures tried before it.
    fn reward_cut(
        &mut self,
        pos: &Position,
        best: Move,
        quiet: bool,
        tried: &Tried,
        depth: i32,
        ply: usize,
    ) {
        if quiet {
            self.reward_quiet(pos, best, &tried.quiets, depth, ply);
        }
        self.reward_captures(pos, best, &tried.captures, depth);
    }

    /// After a cut by `best`: rewards it if it captures, and punishes the captures
    /// tried before it.
    fn reward_captures(&mut self, pos: &Position, best: Move, tried: &[Move], depth: i32) {
        let bonus = ordering::history_bonus(depth);
        let mut update = |m: Move, b: i32| {
            if let Some(v) = Self::victim(pos, m) {
                let i = self.capture_index(pos, m, v);
                ordering::update_history(&mut self.capture_history[i], b);
            }
        };
        update(best, bonus);
        for &m in tried {
            if m != best {
                update(m, -bonus);
            }
        }
    }

    /// Rewards the quiet move that refuted and punishes the quiet moves tried before it.
    fn reward_quiet(&mut self, pos: &Position, best: Move, tried: &[Move], depth: i32, ply: usize) {
        let k = &mut self.killers[ply];
        if k[0] != Some(best) {
            k[1] = k[0];
            k[0] = Some(best);
        }
        let side = pos.side_to_move();
        let bonus = ordering::history_bonus(depth);
        self.update_quiet(side, best, bonus, ply);
        for &m in tried {
            if m != best {
                self.update_quiet(side, m, -bonus, ply);
            }
        }
    }

    fn update_quiet(&mut self, side: Side, m: Move, bonus: i32, ply: usize) {
        let h = self.history_index(side.index(), m);
        ordering::update_history(&mut self.history[h], bonus);
        let key = ordering::move_key(m);
        for distance in 1..=2 {
            if ply >= distance
                && let Some(earlier) = self.path[ply - distance]
            {
                self.cont_history.update(
                    ordering::move_key(earlier),
                    key,
                    side.index(),
                    distance,
                    bonus,
                );
            }
        }
    }

    /// Orders moves: the hash move, captures that do not lose material by the
    /// exchange estimate (most valuable victim first), promotions, killers, quiet moves
    /// by history, then captures that lose material.
    fn score_moves(
        &self,
        pos: &Position,
        moves: &[Move],
        scores: &mut Vec<i32>,
        hash_move: Option<Move>,
        ply: usize,
    ) {
        scores.clear();
        let killers = self.killers[ply];
        let side = pos.side_to_move();
        for &m in moves {
            let s = if Some(m) == hash_move {
                1 << 30
            } else if let Some(v) = Self::victim(pos, m) {
                let gain = ordering::exchange_estimate(pos, &self.eval, m);
                let victim = self.eval.value_of(v).clamp(0, 100_000);
                if gain >= 0 {
                    (1 << 28)
                        + 64 * victim
                        + gain.min(1 << 20) / 16
                        + self.capture_score(pos, m, v) / 4
                } else {
                    -(1 << 26) + victim
                }
            } else if m.promo != EMPTY {
                (1 << 27) + self.eval.value_of(m.promo).clamp(0, 100_000)
            } else if killers[0] == Some(m) {
                (1 << 26) + 1
            } else if killers[1] == Some(m) {
                1 << 26
            } else {
                self.quiet_score(side, m, ply)
            };
            scores.push(s);
        }
    }

    /// Moves the best-scored remaining move to `i`.
    #[inline]
    fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) {
        let mut b = i;
        for j in i + 1..moves.len() {
            if scores[j] > scores[b] {
                b = j;
            }
        }
        moves.swap(i, b);
        scores.swap(i, b);
    }

    /// How many pieces worth well more than its weakest the side to move has: with
    /// fewer than two, passing may well be its best (zugzwang), and no null move is
    /// tried.
    fn strong_pieces(&self, pos: &Position) -> u32 {
        self.strong[pos.side_to_move()]
            .iter()
            .map(|&c| u32::from(pos.counts[c as usize]))
            .sum()
    }

    /// Null-move pruning: if passing still leaves the side to move at or above
    /// `beta` after a reduced search, the node fails high. Returns the bound if it does.
    fn null_move_cut(
        &mut self,
        pos: &mut Position,
        depth: i32,
        beta: i32,
        eval: i32,
        ply: usize,
    ) -> Option<i32> {
        let r = 3 + depth / 4 + ((eval - beta) / 200).clamp(0, 3);
        pos.make_null();
        self.path[ply] = None;
        let score = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
        pos.unmake();
        if self.stopped || score < beta {
            return None;
        }
        // Verification, with few pieces left (where zugzwang lives): the node
        // searched without null moves, at least two plies deep (a move, and the
        // quiet reply that punishes it), must fail high too.
        if self.strong_pieces(pos) <= 3 {
            let outer = std::mem::replace(&mut self.verifying, true);
            let d = (depth - r).max(2).min(depth - 1);
            let v = self.negamax(pos, d, beta - 1, beta, ply, false);
            self.verifying = outer;
            if self.stopped || v < beta {
                return None;
            }
        }
        // A mate found after a pass is not proven: report the bound only.
        Some(if score >= MATE_BOUND { beta } else { score })
    }

    /// `in_check`: whether the side to move is in check (the caller asked, to decide
    /// the check extension).
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &mut Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        in_check: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0, Some(in_check));
        }
        self.count_node(ply);
        if self.stopped {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let mut moves = std::mem::take(&mut self.lists[ply]);
        self.node_moves(pos, &mut moves);
        if let Some(s) = self.settled(pos, &moves, ply, &mut alpha, &mut beta) {
            self.lists[ply] = moves;
            return s;
        }
        let key = pos.hash();
        let excluded = self.excluded[ply];
        let tt_entry = self.tt.probe(key);
        let hash_move = tt_entry.and_then(|e| e.mv);
        if excluded.is_none()
            && let Some(s) = tt_entry.and_then(|e| tt_cut(e, depth, alpha, beta, ply, pv_node))
        {
            self.lists[ply] = moves;
            return s;
        }
        let (eval, improving) = self.node_eval(pos, ply, in_check, tt_entry);
        if let Some(ev) = eval
            && !pv_node
            && ply > 0
            && excluded.is_none()
            && beta.abs() < MATE_BOUND
        {
            let node = Node {
                depth,
                alpha,
                beta,
                ply,
                improving,
            };
            if let Some(s) = self.early_cut(pos, &mut moves, ev, &node) {
                return s;
            }
        }
        // Internal iterative reduction: a node without a hash move is searched less deep.
        if hash_move.is_none() && depth >= 6 {
            depth -= 1;
        }
        let singular = self.singular(pos, tt_entry, depth, beta, ply);
        if let Singular::Cut(s) = singular {
            self.lists[ply] = moves;
            return s;
        }
        let mut scores = std::mem::take(&mut self.order[ply]);
        self.score_moves(pos, &moves, &mut scores, hash_move, ply);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        // Legal moves searched so far (pseudo-legal ones that fail the test are not).
        let mut searched = 0;
        let mut tried = std::mem::take(&mut self.tried[ply]);
        tried.clear();
        let killers = self.killers[ply];
        for i in 0..moves.len() {
            Self::pick(&mut moves, &mut scores, i);
            let m = moves[i];
            if excluded == Some(m) {
                continue;
            }
            let quiet = !pos.is_tactical(m);
            let test = QuietTest {
                depth,
                searched,
                improving,
                tried: tried.quiets.len(),
                eval,
                alpha,
                ply,
            };
            let prunable = !pv_node && !in_check && searched > 0 && best > -MATE_BOUND;
            let pruning = prunable.then_some((scores[i], &test));
            let Some(gives_check) = self.play_unless_pruned(pos, m, pruning, in_check) else {
                continue;
            };
            self.path[ply] = Some(m);
            let extended = gives_check || (singular == Singular::Extend && Some(m) == hash_move);
            let d = depth - 1 + i32::from(extended && ply < 2 * self.root_depth as usize);
            let late = (depth >= 3 && searched >= 2 && quiet && !gives_check).then(|| Late {
                depth,
                searched,
                pv_node,
                improving,
                killer: killers.contains(&Some(m)),
            });
            let child = Child {
                depth: d,
                alpha,
                beta,
                ply,
                gives_check,
            };
            let score = self.search_move(pos, m, &child, searched == 0, late.as_ref());
            pos.unmake();
            searched += 1;
            if self.stopped {
                (self.lists[ply], self.order[ply], self.tried[ply]) = (moves, scores, tried);
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        self.reward_cut(pos, m, quiet, &tried, depth, ply);
                        break;
                    }
                }
            }
            tried.note(pos, m, quiet);
        }
        (self.lists[ply], self.order[ply], self.tried[ply]) = (moves, scores, tried);
        if searched == 0 {
            // Every pseudo-legal move was illegal (moves are pruned only once one
            // has been searched), or the one left out by a singular test was the only
            // one (it is singular).
            return if excluded.is_some() {
                alpha
            } else {
                self.terminal(pos, ply)
            };
        }
        // A score without one of the moves (a singular test's) is no score of the
        // position.
        if excluded.is_none() {
            let bound = bound_of(best, alpha0, beta);
            self.tt
                .store(key, best_move, to_tt(best, ply), depth as i16, bound);
        }
        best
    }

    /// Singular extension: when the hash move's stored score is a deep enough lower
    /// bound, the node is searched again, shallower, without it, against a bound a
    /// little below that score. If every other move fails low, the hash move is
    /// singular and is searched a ply deeper; if even without it the search beats
    /// `beta` by that margin, several moves do (multi-cut) and the node fails high.
    fn singular(
        &mut self,
        pos: &mut Position,
        entry: Option<Entry>,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> Singular {
        let Some(e) = entry else {
            return Singular::No;
        };
        let tt_score = from_tt(e.score, ply);
        if ply == 0
            || depth < SINGULAR_DEPTH
            || e.mv.is_none()
            || self.excluded[ply].is_some()
            || e.bound == Bound::Upper
            || i32::from(e.depth) < depth - 3
            || tt_score.abs() >= MATE_BOUND
        {
            return Singular::No;
        }
        let s_beta = tt_score - SINGULAR_MARGIN * depth;
        self.excluded[ply] = e.mv;
        // The nested search runs at this ply: called before the node takes its
        // ordering scores and tried moves, and with its move list in the caller's
        // hands (the nested one fills a buffer of its own).
        let v = self.negamax(pos, (depth - 1) / 2, s_beta - 1, s_beta, ply, false);
        self.excluded[ply] = None;
        if self.stopped {
            Singular::No
        } else if v < s_beta {
            Singular::Extend
        } else if s_beta >= beta {
            Singular::Cut(s_beta)
        } else {
            Singular::No
        }
    }

    /// Plays `m` unless it is illegal or pruned; `pruning`, where the node prunes
    /// (its ordering score and the quiet-move test): a capture that loses material,
    /// a quiet move that hangs a piece or that [`Self::prunes_quiet`] prunes, checks
    /// kept (mating attacks are made of them). `Some(gives_check)`: the move is made.
    fn play_unless_pruned(
        &mut self,
        pos: &mut Position,
        m: Move,
        pruning: Option<(i32, &QuietTest)>,
        in_check: bool,
    ) -> Option<bool> {
        let quiet = !pos.is_tactical(m);
        if let Some((order_score, q)) = pruning
            && !quiet
            && self.losing_capture(pos, m, q.depth, order_score)
        {
            return None;
        }
        let hangs = pruning.is_some_and(|(_, q)| quiet && self.losing_quiet(pos, m, q.depth));
        if !self.plays_legally(pos, m, in_check) {
            return None;
        }
        let gives_check = self.has_royals && pos.in_check(pos.side_to_move());
        if let Some((_, q)) = pruning
            && quiet
            && !gives_check
            && (hangs || self.prunes_quiet(pos, m, q))
        {
            pos.unmake();
            return None;
        }
        Some(gives_check)
    }

    /// The cuts tried before any move, at a node off the principal variation with a
    /// static evaluation `ev`: reverse futility (far enough above beta that a quiet
    /// move cannot lose it), razoring (far below alpha near the leaves, only captures
    /// can help) and the null move. A score decides the node (its move list is then
    /// given back); `None`: search the moves (regenerated if a cut was tried, as the
    /// list is shared with the plies below).
    fn early_cut(
        &mut self,
        pos: &mut Position,
        moves: &mut Vec<Move>,
        ev: i32,
        node: &Node,
    ) -> Option<i32> {
        let Node {
            depth,
            alpha,
            beta,
            ply,
            improving,
        } = *node;
        if depth <= 6 && ev - 80 * (depth - i32::from(improving)) >= beta {
            self.lists[ply] = std::mem::take(moves);
            return Some(ev);
        }
        if depth <= 2 && ev + 250 * depth < alpha {
            self.lists[ply] = std::mem::take(moves);
            let q = self.qsearch(pos, alpha, alpha + 1, ply, 0, Some(false));
            if q <= alpha || self.stopped {
                return Some(q);
            }
            *moves = std::mem::take(&mut self.lists[ply]);
            self.node_moves(pos, moves);
            self.mobility[ply] = moves.len() as i32;
        }
        if depth >= 3
            && ev >= beta
            && self.null_ok
            && !self.verifying
            && self.path[ply - 1].is_some()
            && self.strong_pieces(pos) >= 2
        {
            self.lists[ply] = std::mem::take(moves);
            if let Some(s) = self.null_move_cut(pos, depth, beta, ev, ply) {
                return Some(s);
            }
            if self.stopped {
                return Some(0);
            }
            *moves = std::mem::take(&mut self.lists[ply]);
            self.node_moves(pos, moves);
            self.mobility[ply] = moves.len() as i32;
        }
        None
    }

    /// Searches a move just made, principal-variation style: the first move with the
    /// full window, the others with a null window (reduced when `late` allows),
    /// searched again without the reduction, then with the full window, while they
    /// beat alpha.
    fn search_move(
        &mut self,
        pos: &mut Position,
        m: Move,
        child: &Child,
        first: bool,
        late: Option<&Late>,
    ) -> i32 {
        let Child {
            depth: d,
            alpha,
            beta,
            ply,
            gives_check,
        } = *child;
        if first {
            return -self.negamax(pos, d, -beta, -alpha, ply + 1, gives_check);
        }
        let r = late.map_or(0, |l| self.reduction(pos, m, ply, l).clamp(0, d - 1));
        let mut score = -self.negamax(pos, d - r, -alpha - 1, -alpha, ply + 1, gives_check);
        if score > alpha && r > 0 && !self.stopped {
            score = -self.negamax(pos, d, -alpha - 1, -alpha, ply + 1, gives_check);
        }
        if score > alpha && score < beta && !self.stopped {
            score = -self.negamax(pos, d, -beta, -alpha, ply + 1, gives_check);
        }
        score
    }

    /// Late-move, futility and history pruning of a quiet move just made (`pos` is
    /// after it): enough quiet moves tried at a shallow depth; or, at the depth the
    /// move would be searched to after its late-move reduction, a static evaluation too
    /// far below alpha for a quiet move to close the gap, or a history that says such
    /// moves fail here. Reading the reduced depth prunes late moves more than early ones,
    /// as their reductions would leave them little depth anyway.
    fn prunes_quiet(&self, pos: &Position, m: Move, q: &QuietTest) -> bool {
        let d = q.depth;
        let enough = (3 + d * d) / (2 - i32::from(q.improving));
        if d <= 8 && q.tried as i32 >= enough {
            return true;
        }
        let lmr_depth = d - 1 - self.reductions.get(d, q.searched);
        if lmr_depth <= 6
            && q.eval
                .is_some_and(|ev| ev + FUTILITY_BASE + FUTILITY_STEP * lmr_depth.max(0) <= q.alpha)
        {
            return true;
        }
        let mover = pos.side_to_move().opponent();
        lmr_depth < 3 && self.quiet_score(mover, m, q.ply) < HISTORY_PRUNE * d
    }

    /// A capture that loses material by the exchange estimate, near the leaves (its
    /// ordering score already says it may).
    fn losing_capture(&self, pos: &Position, m: Move, depth: i32, order_score: i32) -> bool {
        depth <= 4
            && order_score < 0
            && ordering::exchange_estimate(pos, &self.eval, m) < -100 * depth
    }

    /// A quiet move that puts material en prise by the exchange estimate, the more
    /// of it the deeper the node (near the leaves, any).
    fn losing_quiet(&self, pos: &Position, m: Move, depth: i32) -> bool {
        depth <= 7 && ordering::exchange_estimate(pos, &self.eval, m) < -20 * depth * depth
    }

    /// A node's score known before its moves are searched: the game decided here, the
    /// deepest ply reached, or no line beating a win at this ply (mate-distance
    /// pruning, which narrows the window). Sets the node's mobility from its moves.
    fn settled(
        &mut self,
        pos: &mut Position,
        moves: &[Move],
        ply: usize,
        alpha: &mut i32,
        beta: &mut i32,
    ) -> Option<i32> {
        if let Some(s) = self.node_end(pos, moves, ply, true) {
            return Some(s);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.static_eval(pos, ply));
        }
        self.mobility[ply] = moves.len() as i32;
        *alpha = (*alpha).max(-(MATE - ply as i32));
        *beta = (*beta).min(MATE - ply as i32 - 1);
        (*alpha >= *beta).then_some(*alpha)
    }

    /// A node's static evaluation (none in check), noted for the plies below, and
    /// whether it is above the one two plies up (the side to move is improving).
    fn node_eval(
        &mut self,
        pos: &Position,
        ply: usize,
        in_check: bool,
        entry: Option<Entry>,
    ) -> (Option<i32>, bool) {
        let eval = (!in_check).then(|| self.sharpened_eval(pos, ply, entry));
        self.evals[ply] = eval;
        let improving = match (eval, ply.checked_sub(2).and_then(|p| self.evals[p])) {
            (Some(now), Some(before)) => now > before,
            _ => false,
        };
        (eval, improving)
    }

    /// The static evaluation, sharpened by a stored bound on the true score.
    fn sharpened_eval(&mut self, pos: &Position, ply: usize, entry: Option<Entry>) -> i32 {
        let e = self.static_eval(pos, ply);
        let Some(t) = entry else {
            return e;
        };
        let s = from_tt(t.score, ply);
        let sharper = match t.bound {
            Bound::Exact => true,
            Bound::Lower => s > e,
            Bound::Upper => s < e,
        };
        if s.abs() < MATE_BOUND && sharper {
            s
        } else {
            e
        }
    }

    /// How much less deep a late quiet move is searched: from the table, more away from
    /// the principal variation and when the position is not improving, less for a
    /// killer and for a move with a good history.
    fn reduction(&self, pos: &Position, m: Move, ply: usize, late: &Late) -> i32 {
        let mut r = self.reductions.get(late.depth, late.searched);
        r += i32::from(!late.pv_node) + i32::from(!late.improving);
        r -= i32::from(late.killer);
        r - self.quiet_score(pos.side_to_move().opponent(), m, ply) / 6_000
    }

    /// The table's answer for a quiescence node: a stored result of any depth bounds
    /// it (`Err`: the score that decides the node), else its hash move, if any.
    fn quiet_probe(
        &self,
        key: u64,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Result<Option<Move>, i32> {
        let Some(e) = self.tt.probe(key) else {
            return Ok(None);
        };
        let s = from_tt(e.score, ply);
        let cut = match e.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        if cut && e.depth >= 0 {
            Err(s)
        } else {
            Ok(e.mv)
        }
    }

    /// The moves the quiescence search plays at `ply`: every evasion in check, else
    /// the tactical moves (one second part each); and the node's mobility, read by
    /// its children's evaluation. `legal`: `moves` holds the legal moves, or (`lazy`,
    /// where moves have a second part) they are made here only where needed.
    fn quiescence_moves(
        &mut self,
        pos: &mut Position,
        moves: &mut Vec<Move>,
        ply: usize,
        evasions: bool,
        (legal, lazy): (bool, bool),
    ) {
        if evasions {
            self.mobility[ply] = moves.len() as i32;
        } else if legal {
            if lazy {
                // The first parts that capture or promote, pseudo-legal: without one,
                // no legal move is tactical.
                pos.tactical_moves(moves);
                if !moves.is_empty() {
                    pos.legal_moves_into(moves);
                }
            }
            self.mobility[ply] = moves.len() as i32;
            moves.retain(|&m| pos.is_tactical(m));
            if pos.rules().tables.kinds.two_part {
                // Where the second part goes is a quiet choice: one per capture.
                moves.dedup_by(|a, b| {
                    Move {
                        second: b.second,
                        ..*a
                    } == *b
                });
            }
        } else {
            // Only the tactical moves are generated: the side's count of two plies
            // up stands in for its mobility here.
            self.mobility[ply] = if ply >= 2 { self.mobility[ply - 2] } else { 0 };
            moves.clear();
            pos.tactical_moves(moves);
        }
    }

    /// Quiescence: captures and promotions until the position is quiet (every legal
    /// move while in check, for a few plies), standing pat on the evaluation. Outside
    /// check it stands pat before generating anything and then reads the pseudo-legal
    /// moves, testing only the tactical ones: a position without legal moves is only
    /// seen as such by the main search (or here, in check), except where moves have a
    /// second part or end rules need it: there whether a legal move exists is asked
    /// first. `checked`: whether the
    /// side to move is in check, when the caller knows.
    fn qsearch(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
        checked: Option<bool>,
    ) -> i32 {
        self.count_node(ply);
        if self.stopped {
            return 0;
        }
        // A rule that ends the game at once (a capture, an exit, a zone reached).
        if let Some(e) = pos.decided() {
            return end_score(&e, pos.side_to_move(), ply);
        }
        if qply == 0
            && ply > 0
            && let Some(o) = self.ends.counted_result(pos, true)
        {
            return Self::outcome_score(o, ply);
        }
        let key = pos.hash();
        let hash_move = match self.quiet_probe(key, alpha, beta, ply) {
            Ok(mv) => mv,
            Err(score) => return score,
        };
        let alpha0 = alpha;
        let us = pos.side_to_move();
        let mut moves = std::mem::take(&mut self.lists[ply]);
        // With end rules this module does not know, only the legal moves (none once
        // the game is decided) tell whether the game goes on.
        let two_part = pos.rules().tables.kinds.two_part;
        let legal = self.ends.other || two_part;
        // Where moves have a second part, the whole list runs to thousands of moves
        // and most nodes here stand pat: whether a move exists is asked first, and the
        // list made only where it is read (in check, or with a tactical first part).
        let lazy = two_part && !self.ends.other;
        moves.clear();
        let exists = if lazy {
            pos.has_legal_moves()
        } else if legal {
            pos.legal_moves_into(&mut moves);
            !moves.is_empty()
        } else {
            true
        };
        if !exists {
            self.lists[ply] = moves;
            return self.terminal(pos, ply);
        }
        let in_check = checked.unwrap_or_else(|| self.has_royals && pos.in_check(us));
        let evasions = in_check && qply < QUIET_EVASIONS;
        let mut best = -INF;
        // Moves not yet known legal: tested as they are played.
        let pseudo = !legal && (!evasions || self.lazy_legality);
        if evasions {
            if !legal {
                self.node_moves(pos, &mut moves);
            } else if lazy {
                pos.legal_moves_into(&mut moves);
            }
            if moves.is_empty() {
                self.lists[ply] = moves;
                return self.terminal(pos, ply);
            }
        } else {
            let stand = self.static_eval(pos, ply);
            if stand >= beta || ply >= MAX_PLY - 1 {
                self.lists[ply] = moves;
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        self.quiescence_moves(pos, &mut moves, ply, evasions, (legal, lazy));
        let mut scores = std::mem::take(&mut self.order[ply]);
        self.score_moves(pos, &moves, &mut scores, hash_move, ply);
        let mut searched = 0;
        let mut best_move = None;
        for i in 0..moves.len() {
            Self::pick(&mut moves, &mut scores, i);
            let m = moves[i];
            // Captures that lose material by the exchange estimate (ordered last, so
            // the rest lose too) are not worth a look outside check.
            if !evasions && scores[i] < 0 {
                break;
            }
            // Pseudo-legal moves are tested here (cheaply, outside check, when the
            // move cannot uncover an attack on a royal piece).
            let test = pseudo && self.has_royals && (in_check || !pos.surely_safe(m));
            pos.make(m);
            if test && pos.royal_left_attacked(us) {
                pos.unmake();
                continue;
            }
            let score = -self.qsearch(pos, -beta, -alpha, ply + 1, qply + 1, None);
            pos.unmake();
            searched += 1;
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = moves;
        self.order[ply] = scores;
        if self.stopped {
            return best;
        }
        if evasions && searched == 0 {
            // In check with no legal move.
            return self.terminal(pos, ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, to_tt(best, ply), 0, bound);
        best
    }
}

/// The root's aspiration window: a bound on each side of the last iteration's score,
/// widened (twice as far each time) while the score falls outside it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Window {
    low: i32,
    high: i32,
    delta: i32,
    /// Fails high in a row: each one searches the next try a ply less deep (a move
    /// that beats the window is usually found again shallower, and where scores swing
    /// from one iteration to the next, as in games with drops, repeated tries at full
    /// depth cost more than the iteration itself).
    fails_high: i32,
    /// Whether fails high shorten the next try (not under a depth limit).
    shorten: bool,
}

impl Window {
    const FIRST_DELTA: i32 = 30;
    /// Past this half-width the window opens fully.
    const WIDEST: i32 = 1_000;

    fn around(score: i32, shorten: bool) -> Self {
        let delta = Self::FIRST_DELTA;
        Self {
            low: score - delta,
            high: score + delta,
            delta,
            fails_high: 0,
            shorten,
        }
    }

    /// The depth of the next try of an iteration `depth` plies deep.
    fn depth(&self, depth: i32) -> i32 {
        (depth - self.fails_high).max(1)
    }

    /// After a try scored `score`: widens the window if the score fell outside it
    /// (`true`: try again). Below it, the top comes down halfway too, as Stockfish
    /// does (the score is lower than thought, and so is the next one likely).
    fn widen(&mut self, score: i32) -> bool {
        if score <= self.low {
            self.high = (self.low + self.high) / 2;
            self.low = score - self.delta;
            self.fails_high = 0;
        } else if score >= self.high {
            self.high = score + self.delta;
            // A mate is searched again at full depth: shallower, a quiet mating
            // threat can hide behind a null move, and the score back inside the
            // window would be taken for the iteration's.
            if self.shorten && score < MATE_BOUND {
                self.fails_high += 1;
            }
        } else {
            return false;
        }
        self.delta *= 2;
        if self.delta > Self::WIDEST {
            (self.low, self.high) = (-INF, INF);
        }
        self.low = self.low.max(-INF);
        self.high = self.high.min(INF);
        true
    }
}

/// Raises a flag when dropped: the helpers of a parallel search stop however the
/// main search ends.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Does a null move (the side to move passing) make sense as a bound? Not where the
/// rules let a player pass or swap (a pass is a real move, and passes may end the
/// game), nor where pieces clone themselves (every move there adds a piece). Drops
/// do not stand in the way: a side that can drop is seldom in zugzwang, which is what
/// makes passing a bound.
fn null_move_means_something(rules: &Rules) -> bool {
    let t = &rules.tables;
    t.kinds.clones.is_empty()
        && !t
            .gens
            .info
            .iter()
            .any(|g| matches!(g.source, Source::Pass | Source::Swap))
}

/// Per side, the codes of the pieces worth at least two and a half times the least
/// valuable non-royal piece: a side with none of them left (royal and weak pieces
/// only) may be in zugzwang, so the search makes no null move for it.
fn strong_codes(rules: &Rules, eval: &Eval) -> [Vec<Code>; 2] {
    let kinds: Vec<usize> = (0..rules.pieces.len())
        .filter(|&k| !rules.pieces[k].royal)
        .collect();
    let value = |k: usize| eval.value_of(code(k, Side::First));
    let least = kinds.iter().map(|&k| value(k)).filter(|&v| v > 0).min();
    Side::BOTH.map(|side| {
        kinds
            .iter()
            .filter(|&&k| least.is_some_and(|l| 2 * value(k) >= 5 * l))
            .map(|&k| code(k, side))
            .collect()
    })
}

/// The score of a finished game for `us`, `ply` plies from the root.
fn end_score(end: &GameEnd, us: Side, ply: usize) -> i32 {
    match end.winner {
        Some(w) if w == us => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
        None => 0,
    }
}

/// Mate scores are stored relative to the node, read back relative to the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The moves a node has tried so far, for the histories' rewards and maluses.
#[derive(Default)]
struct Tried {
    quiets: Vec<Move>,
    captures: Vec<Move>,
}

impl Tried {
    fn clear(&mut self) {
        self.quiets.clear();
        self.captures.clear();
    }

    /// Notes a move searched without a cut.
    fn note(&mut self, pos: &Position, m: Move, quiet: bool) {
        if quiet {
            self.quiets.push(m);
        } else if pos.victim(m).is_some() {
            self.captures.push(m);
        }
    }
}

/// What the singular-extension search says of a node's hash move.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Singular {
    /// Not tried, or nothing to conclude.
    No,
    /// The hash move is singular: searched a ply deeper.
    Extend,
    /// Other moves beat beta too: the node fails high with this score.
    Cut(i32),
}

/// A node's depth, window and trend, for the cuts tried before its moves.
struct Node {
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
    /// Is the static evaluation above the one two plies up?
    improving: bool,
}

/// The search of a child node: its depth, the parent's window, the parent's ply, and
/// whether the move gives check.
struct Child {
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
    gives_check: bool,
}

/// What a late move's reduction depends on, besides the move.
struct Late {
    depth: i32,
    /// Moves searched before it at this node.
    searched: usize,
    pv_node: bool,
    improving: bool,
    killer: bool,
}

/// A stored score that decides the node without searching it: deep enough, and a
/// bound on the right side of the window (only an exact score at a PV node).
fn tt_cut(e: Entry, depth: i32, alpha: i32, beta: i32, ply: usize, pv_node: bool) -> Option<i32> {
    if i32::from(e.depth) < depth || (pv_node && e.bound != Bound::Exact) {
        return None;
    }
    let s = from_tt(e.score, ply);
    let cut = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    cut.then_some(s)
}

/// What [`Searcher::prunes_quiet`] reads of the node and the move.
struct QuietTest {
    depth: i32,
    /// Legal moves searched before this one.
    searched: usize,
    improving: bool,
    /// Quiet moves tried before this one.
    tried: usize,
    /// The node's static evaluation (none in check).
    eval: Option<i32>,
    alpha: i32,
    ply: usize,
}

/// The bound a node's best score is: above the window, inside it, or below.
fn bound_of(best: i32, alpha0: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha0 {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

#[cfg(test)]
mod tests {
    use super::{INF, MATE, Window};

    #[test]
    fn a_score_inside_the_window_ends_the_iteration() {
        let mut w = Window::around(100, true);
        assert_eq!((w.low, w.high), (70, 130));
        assert!(!w.widen(100));
        assert_eq!(w.depth(9), 9);
    }

    #[test]
    fn fails_high_in_a_row_search_a_ply_less_each() {
        let mut w = Window::around(0, true);
        assert!(w.widen(45));
        assert_eq!((w.low, w.high, w.depth(9)), (-30, 75, 8));
        assert!(w.widen(200));
        assert_eq!((w.low, w.high, w.depth(9)), (-30, 260, 7));
        assert_eq!(w.depth(2), 1, "never below one ply");
        assert!(w.widen(MATE - 3));
        assert_eq!(w.depth(9), 7, "a mate does not lower the depth");
    }

    #[test]
    fn a_fail_low_brings_the_top_down_and_the_full_depth_back() {
        let mut w = Window::around(0, true);
        assert!(w.widen(30));
        assert_eq!(w.depth(9), 8);
        assert!(w.widen(-40));
        // The top halfway between the old bounds, the bottom below the score.
        assert_eq!((w.low, w.high, w.depth(9)), (-100, 15, 9));
    }

    #[test]
    fn under_a_depth_limit_every_try_is_full_depth() {
        let mut w = Window::around(0, false);
        assert!(w.widen(45));
        assert!(w.widen(200));
        assert_eq!((w.low, w.high, w.depth(9)), (-30, 260, 9));
    }

    #[test]
    fn the_window_opens_fully_once_wide() {
        let mut w = Window::around(0, true);
        let mut tries = 0;
        while w.widen(w.high + 1) {
            tries += 1;
            if w.high == INF {
                break;
            }
        }
        assert_eq!((w.low, w.high), (-INF, INF));
        assert!(tries <= 7, "{tries}");
    }
}
