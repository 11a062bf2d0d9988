//! The computer player: a generic game-tree search over the engine.
//!
//! Iterative deepening principal-variation search (alpha-beta with null windows) with a
//! Zobrist transposition table ([`tt`]), move ordering (the hash move, captures by most
//! valuable victim / least valuable attacker, promotions, two killer moves per ply, a
//! history table), check extensions and late-move reductions, then a quiescence search
//! of captures and promotions (and of every evasion while in check, for a few plies).
//! The evaluation ([`eval`]) is derived from the rules.
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
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::engine::search_support::legality_is_royal_safety;
use crate::engine::{GameEnd, Move, Position};
use crate::rules::{Code, EMPTY, EndRule, Outcome, Rules, kind_of};
pub use eval::Eval;
use tt::{Bound, Tt};

/// The score of a won game at the root; a win in `p` plies scores `MATE − p`.
pub const MATE: i32 = 1_000_000;
/// Scores at least this far from zero are forced wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = MATE + 1;
/// The deepest the search goes, quiescence and extensions included.
pub const MAX_PLY: usize = 128;
/// The deepest iteration without a depth limit.
pub const MAX_DEPTH: u32 = 64;
/// Quiescence follows every evasion while in check for at most this many plies.
const QUIET_EVASIONS: usize = 4;

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
        if let Some((_, o)) = pos.pass_end() {
            return Some(o);
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
                    return Some(o);
                }
            } else if pos.halfmove_clock() >= 2 * k {
                return Some(o);
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
    tt: Tt,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    cells: usize,
    lists: Vec<Vec<Move>>,
    order: Vec<Vec<i32>>,
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
        Self {
            ends: Ends::new(&rules),
            has_royals: rules.pieces.iter().any(|p| p.royal),
            lazy_legality: legality_is_royal_safety(&rules),
            rules,
            eval,
            tt: Tt::new(mb),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; (cells + 1) * (cells + 1)],
            cells,
            lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            order: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            mobility: vec![0; MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            start: Instant::now(),
            deadline: None,
            node_limit: u64::MAX,
            stopped: false,
            stop_flag: None,
            root_depth: 0,
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
        self.killers.fill([None; 2]);
    }

    /// The static evaluation of a position, from the side to move's view.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.eval.evaluate(pos)
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
        mut info: impl FnMut(&SearchResult),
    ) -> SearchResult {
        self.start = Instant::now();
        self.deadline = limits.movetime.map(|t| self.start + t);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.tt.new_search();
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
        for depth in 1..=max_depth {
            self.root_depth = depth as i32;
            let (score, best) = self.root(pos, &mut root, depth as i32);
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
            result.nodes = self.nodes;
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
        result.nodes = self.nodes;
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
            pos.make(m);
            let checked = self.has_royals && pos.in_check(pos.side_to_move());
            let s = -self.negamax(pos, depth.max(1) as i32 - 1, -INF, INF, 1, checked);
            pos.unmake();
            out.push((m, s));
        }
        out
    }

    /// One iteration at the root: the score and the best move (if one completed).
    fn root(&mut self, pos: &mut Position, moves: &mut [Move], depth: i32) -> (i32, Option<Move>) {
        let mut alpha = -INF;
        let beta = INF;
        let mut best: Option<usize> = None;
        for (i, &m) in moves.iter().enumerate() {
            pos.make(m);
            let gives_check = self.has_royals && pos.in_check(pos.side_to_move());
            let d = depth - 1 + i32::from(gives_check);
            let score = if i == 0 {
                -self.negamax(pos, d, -beta, -alpha, 1, gives_check)
            } else {
                let s = -self.negamax(pos, d, -alpha - 1, -alpha, 1, gives_check);
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
            }
        }
        let Some(b) = best else {
            return (alpha, None);
        };
        // The best move first, the others in their order.
        moves[..=b].rotate_right(1);
        let m = moves[0];
        if !self.stopped {
            self.tt
                .store(pos.hash(), Some(m), alpha, depth as i16, Bound::Exact);
        }
        (alpha, Some(m))
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
        if crate::interrupt::requested()
            || self
                .stop_flag
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
            || self.nodes >= self.node_limit
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
        Self::outcome_score(self.ends.without_moves(check), ply)
    }

    fn outcome_score(o: Outcome, ply: usize) -> i32 {
        match o {
            Outcome::Win => MATE - ply as i32,
            Outcome::Loss => -(MATE - ply as i32),
            Outcome::Draw => 0,
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
        let mut s = self.eval.evaluate(pos);
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
    fn history_index(&self, m: Move) -> usize {
        let n = self.cells;
        let f = (m.from as usize).min(n);
        let t = (m.to as usize).min(n);
        f * (n + 1) + t
    }

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
        for &m in moves {
            let s = if Some(m) == hash_move {
                1 << 30
            } else if let Some(v) = Self::victim(pos, m) {
                let attacker = if (m.from as usize) < pos.board().len() {
                    self.eval.value_of(pos.piece_at(m.from))
                } else {
                    0
                };
                (1 << 26) + 64 * self.eval.value_of(v).clamp(0, 100_000)
                    - attacker.clamp(0, 100_000) / 16
                    + if m.promo != EMPTY {
                        self.eval.value_of(m.promo).clamp(0, 100_000)
                    } else {
                        0
                    }
            } else if m.promo != EMPTY {
                (1 << 25) + self.eval.value_of(m.promo).clamp(0, 100_000)
            } else if killers[0] == Some(m) {
                (1 << 24) + 1
            } else if killers[1] == Some(m) {
                1 << 24
            } else {
                self.history[self.history_index(m)]
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

    /// `in_check`: whether the side to move is in check (the caller asked, to decide
    /// the check extension).
    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: i32,
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
        let mut moves = std::mem::take(&mut self.lists[ply]);
        self.node_moves(pos, &mut moves);
        if let Some(s) = self.node_end(pos, &moves, ply, true) {
            self.lists[ply] = moves;
            return s;
        }
        if ply >= MAX_PLY - 1 {
            self.lists[ply] = moves;
            return self.static_eval(pos, ply);
        }
        self.mobility[ply] = moves.len() as i32;
        // Mate-distance pruning: no line here beats a win at this ply.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            self.lists[ply] = moves;
            return alpha;
        }
        let key = pos.hash();
        let mut hash_move = None;
        if let Some(e) = self.tt.probe(key) {
            hash_move = e.mv;
            if i32::from(e.depth) >= depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    self.lists[ply] = moves;
                    return s;
                }
            }
        }
        let mut scores = std::mem::take(&mut self.order[ply]);
        self.score_moves(pos, &moves, &mut scores, hash_move, ply);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        // Legal moves searched so far (pseudo-legal ones that fail the test are not).
        let mut searched = 0;
        for i in 0..moves.len() {
            Self::pick(&mut moves, &mut scores, i);
            let m = moves[i];
            let quiet = !pos.is_tactical(m);
            if !self.plays_legally(pos, m, in_check) {
                continue;
            }
            let gives_check = self.has_royals && pos.in_check(pos.side_to_move());
            let ext = i32::from(gives_check && ply < 2 * self.root_depth as usize);
            let d = depth - 1 + ext;
            let mut score;
            if searched == 0 {
                score = -self.negamax(pos, d, -beta, -alpha, ply + 1, gives_check);
            } else {
                let r = if depth >= 3 && searched >= 3 && quiet && !in_check && !gives_check {
                    if searched >= 8 && depth >= 5 { 2 } else { 1 }
                } else {
                    0
                };
                score = -self.negamax(pos, d - r, -alpha - 1, -alpha, ply + 1, gives_check);
                if score > alpha && r > 0 && !self.stopped {
                    score = -self.negamax(pos, d, -alpha - 1, -alpha, ply + 1, gives_check);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(pos, d, -beta, -alpha, ply + 1, gives_check);
                }
            }
            pos.unmake();
            searched += 1;
            if self.stopped {
                self.lists[ply] = moves;
                self.order[ply] = scores;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            let h = self.history_index(m);
                            self.history[h] = (self.history[h] + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        self.lists[ply] = moves;
        self.order[ply] = scores;
        if searched == 0 {
            // Every pseudo-legal move was illegal.
            return self.terminal(pos, ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best, ply), depth as i16, bound);
        best
    }

    /// Quiescence: captures and promotions until the position is quiet (every legal
    /// move while in check, for a few plies), standing pat on the evaluation. Outside
    /// check it stands pat before generating anything and then reads the pseudo-legal
    /// moves, testing only the tactical ones: a position without legal moves is only
    /// seen as such by the main search (or here, in check). `checked`: whether the
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
        let us = pos.side_to_move();
        let mut moves = std::mem::take(&mut self.lists[ply]);
        // With end rules this module does not know, only the legal moves (none once
        // the game is decided) tell whether the game goes on.
        let legal = self.ends.other;
        if legal {
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                self.lists[ply] = moves;
                return self.terminal(pos, ply);
            }
        }
        let in_check = checked.unwrap_or_else(|| self.has_royals && pos.in_check(us));
        let evasions = in_check && qply < QUIET_EVASIONS;
        let mut best = -INF;
        // Moves not yet known legal: tested as they are played.
        let pseudo = !legal && (!evasions || self.lazy_legality);
        if evasions {
            if !legal {
                self.node_moves(pos, &mut moves);
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
        if evasions {
            self.mobility[ply] = moves.len() as i32;
        } else if legal {
            self.mobility[ply] = moves.len() as i32;
            moves.retain(|&m| pos.is_tactical(m));
        } else {
            // Only the tactical moves are generated: the side's count of two plies
            // up stands in for its mobility here.
            self.mobility[ply] = if ply >= 2 { self.mobility[ply - 2] } else { 0 };
            moves.clear();
            pos.tactical_moves(&mut moves);
        }
        let mut scores = std::mem::take(&mut self.order[ply]);
        self.score_moves(pos, &moves, &mut scores, None, ply);
        let mut searched = 0;
        for i in 0..moves.len() {
            Self::pick(&mut moves, &mut scores, i);
            let m = moves[i];
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
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = moves;
        self.order[ply] = scores;
        if evasions && searched == 0 && !self.stopped {
            // In check with no legal move.
            return self.terminal(pos, ply);
        }
        best
    }
}

/// The score of a finished game for `us`, `ply` plies from the root.
fn end_score(end: &GameEnd, us: usize, ply: usize) -> i32 {
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
