//! Self-play analysis for designers: many games of a variant played by the computer
//! (or by uniformly random movers), in parallel, summarised as the figures a designer
//! asks about: who wins how often (with a 95% Wilson interval), how long games last,
//! how many moves there are to choose from in each phase, how games end, and how much
//! each piece moves, captures and is captured.
//!
//! Every game has its own seed (the run's seed and the game's number), and the search is
//! deterministic at a fixed depth, so a run at a fixed depth and seed gives the same
//! report whatever the number of threads. Games vary by their first plies, played at
//! random (`opening_plies`), and by a small seeded noise in the evaluation (`noise`).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::engine::{Move, Position};
use crate::ids::Side;
use crate::rules::{Rules, kind_of, side_of};
use crate::search::{Ends, Eval, Limits, Rng, Searcher, eval::Source};

mod balance;
mod counts;
mod merge;
mod save;
pub mod stats;
pub use balance::{
    Comparison, Difference, PieceDifference, SweepPoint, SweepRange, SweepReport, compare,
    parse_sweep,
};
pub use counts::Counts;
pub use merge::{Merged, Shard, ShardInfo, merge};
pub use save::SaveGames;
pub use stats::{Interval, Score};

/// Material is kept per game as a mean over its positions, in 1/64 pieces (whole
/// numbers, so that adding up games in any order gives the same sums).
pub const MATERIAL_SCALE: i64 = 64;

/// Who makes the moves of one person.
#[derive(Debug, Clone)]
pub enum Player {
    /// A uniformly random legal move.
    Random,
    /// The search, within these limits.
    Search(Limits),
}

/// How far below the best an opening move may score (centipawns) and still be drawn.
pub const OPENING_MARGIN: i32 = 100;

/// The most legal moves whose opening moves are scored at depth 2; with more, at
/// depth 1. Scoring every move at depth 2 searches about the square of their number
/// of positions: 1,600 in a position of 40 moves, 4 million in one of 2,000 (moves
/// with a second part), minutes a ply.
pub const OPENING_DEPTH_2_MOVES: usize = 300;

/// The depth at which the opening's moves are scored, among `moves` legal moves.
pub fn opening_depth(moves: usize) -> u32 {
    if moves > OPENING_DEPTH_2_MOVES { 1 } else { 2 }
}

/// How to play each game.
#[derive(Debug, Clone)]
pub struct GameConfig {
    /// A game still going after this many plies ends as a draw ("move cap").
    pub max_plies: usize,
    /// The first plies are random among the moves a depth-2 search (depth 1 above
    /// [`OPENING_DEPTH_2_MOVES`] moves) scores within [`OPENING_MARGIN`] of the best,
    /// so games differ without opening blunders (only when both players search: a
    /// random mover varies the games by itself).
    pub opening_plies: usize,
    /// Transposition table size per searching player, in megabytes.
    pub tt_mb: usize,
    /// Keep the moves' text in the records.
    pub record_moves: bool,
    /// Seeded evaluation noise of the searching players, in centipawns (see
    /// [`Searcher::set_noise`]), so games differ beyond their first plies.
    pub noise: i32,
    /// Write each game as PGN (`analyze --save-games DIR`).
    pub save_games: Option<Arc<SaveGames>>,
}

impl Default for GameConfig {
    fn default() -> Self {
        Self {
            max_plies: 1000,
            opening_plies: 2,
            tt_mb: 4,
            record_moves: false,
            noise: 10,
            save_games: None,
        }
    }
}

/// One finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The winning colour (side index), `None` for a draw.
    pub winner: Option<usize>,
    /// The winning person: 0 moved first. Differs from `winner` after the pie rule.
    pub winner_player: Option<usize>,
    pub swapped: bool,
    pub reason: String,
    pub plies: usize,
    /// The number of legal moves before each ply.
    pub branching: Vec<u32>,
    /// Per piece kind: moves made, captures made, and times it was captured.
    pub moved: Vec<u64>,
    pub captures: Vec<u64>,
    pub captured: Vec<u64>,
    /// The moves, as text (with `GameConfig::record_moves`).
    pub moves: Vec<String>,
    pub nodes: u64,
    /// Per piece kind: the first colour's count minus the second's (on the board and
    /// in hand), averaged over the game's positions, in 1/[`MATERIAL_SCALE`] pieces.
    /// Empty when not measured.
    pub material: Vec<i64>,
}

/// Adds, per piece kind, the first colour's count minus the second's.
fn add_material(pos: &Position, sums: &mut [i64]) {
    for &c in pos.board() {
        if c != 0 {
            let sign = if side_of(c).is_first() { 1 } else { -1 };
            if let Some(s) = sums.get_mut(kind_of(c)) {
                *s += sign;
            }
        }
    }
    for (k, s) in sums.iter_mut().enumerate() {
        *s += i64::from(pos.in_hand(Side::First, k)) - i64::from(pos.in_hand(Side::Second, k));
    }
}

/// The piece a move captures, if any (looked at before the move is made).
fn victim(pos: &Position, m: Move) -> Option<u8> {
    pos.victim(m)
}

/// Plays one game from the setup. `players[0]` moves first.
pub fn play_game(
    rules: &Arc<Rules>,
    eval: &Arc<Eval>,
    players: &[Player; 2],
    seed: u64,
    config: &GameConfig,
) -> GameRecord {
    play_from(Position::start(rules.clone()), eval, players, seed, config)
}

/// Plays one game from a position. `players[0]` is the person to move first.
pub fn play_from(
    mut pos: Position,
    eval: &Arc<Eval>,
    players: &[Player; 2],
    seed: u64,
    config: &GameConfig,
) -> GameRecord {
    let rules = pos.rules().clone();
    let ends = Ends::new(&rules);
    let kinds = rules.pieces.len();
    let mut rng = Rng::new(seed);
    let mut searchers: [Option<Searcher>; 2] = [None, None];
    let mut moves: Vec<Move> = Vec::with_capacity(64);
    let first_side = pos.side_to_move().index();
    let mut rec = GameRecord {
        winner: None,
        winner_player: None,
        swapped: false,
        reason: String::new(),
        plies: 0,
        branching: Vec::new(),
        moved: vec![0; kinds],
        captures: vec![0; kinds],
        captured: vec![0; kinds],
        moves: Vec::new(),
        nodes: 0,
        material: Vec::new(),
    };
    let mut material = vec![0i64; kinds];
    let mut positions = 0i64;
    let start_swapped = pos.swapped();
    // The person to move: the first mover plays `first_side` until a swap.
    let person = |pos: &Position| {
        (pos.side_to_move().index() ^ first_side) ^ usize::from(pos.swapped() != start_swapped)
    };
    let both_search = players.iter().all(|p| matches!(p, Player::Search(_)));
    let opening = if both_search { config.opening_plies } else { 0 };
    loop {
        add_material(&pos, &mut material);
        positions += 1;
        pos.legal_moves_into(&mut moves);
        if let Some(end) = ends.game_end(&mut pos, &moves) {
            rec.winner = end.winner.map(Side::index);
            rec.reason = end.reason.words(&rules);
            break;
        }
        if rec.plies >= config.max_plies {
            rec.reason = format!("move cap ({} plies)", config.max_plies);
            break;
        }
        rec.branching.push(moves.len() as u32);
        let who = person(&pos);
        let m = match &players[who] {
            Player::Search(limits) => {
                let s = searchers[who].get_or_insert_with(|| {
                    let mut s = Searcher::with_eval(rules.clone(), eval.clone(), config.tt_mb);
                    s.set_noise(
                        config.noise,
                        seed ^ (who as u64 + 1).wrapping_mul(0xA24B_AED4_963E_E407),
                    );
                    s
                });
                if rec.plies < opening {
                    // A random move among the sound ones.
                    let scored = s.score_all(&mut pos, opening_depth(moves.len()));
                    let best = scored.iter().map(|&(_, v)| v).max().unwrap_or(0);
                    let sound: Vec<Move> = scored
                        .iter()
                        .filter(|&&(_, v)| v >= best.saturating_sub(OPENING_MARGIN))
                        .map(|&(m, _)| m)
                        .collect();
                    sound[rng.below(sound.len())]
                } else {
                    let r = s.search(&mut pos, limits);
                    rec.nodes += r.nodes;
                    r.best.unwrap_or(moves[0])
                }
            }
            Player::Random => moves[rng.below(moves.len())],
        };
        let n = pos.board().len();
        let mut mover = if m.from.index() < n {
            Some(pos.piece_at(m.from))
        } else {
            None
        };
        let took = victim(&pos, m);
        if let Some(v) = took {
            rec.captured[kind_of(v)] += 1;
        }
        if config.record_moves {
            rec.moves.push(pos.move_text(m));
        }
        pos.make(m);
        if mover.is_none() && m.to.index() < n {
            // A move from off the board (a drop): the piece that lands counts.
            mover = Some(pos.piece_at(m.to));
        }
        if let Some(c) = mover.filter(|&c| c != 0) {
            rec.moved[kind_of(c)] += 1;
            if took.is_some() {
                rec.captures[kind_of(c)] += 1;
            }
        }
        rec.plies += 1;
    }
    rec.material = material
        .iter()
        .map(|&m| (m * MATERIAL_SCALE * 2 + positions).div_euclid(2 * positions))
        .collect();
    rec.swapped = pos.swapped() != start_swapped;
    rec.winner_player = rec
        .winner
        .map(|w| (w ^ first_side) ^ usize::from(rec.swapped));
    rec
}

/// What to run.
#[derive(Debug, Clone)]
pub struct Options {
    pub games: usize,
    /// `None`: uniformly random games (playouts).
    pub limits: Option<Limits>,
    pub threads: usize,
    pub seed: u64,
    pub config: GameConfig,
    /// A progress bar on standard error (with the `cli` feature).
    pub progress: bool,
    /// The search against a random mover instead of itself (alternating colours).
    pub versus_random: bool,
}

/// A proportion with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct Rate {
    pub count: usize,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub fn new(count: usize, n: usize) -> Self {
        let (low, high) = wilson(count, n);
        Rate {
            count,
            rate: if n == 0 { 0.0 } else { count as f64 / n as f64 },
            low,
            high,
        }
    }
}

pub use stats::wilson;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SideResult {
    pub side: String,
    pub wins: Rate,
    pub draws: Rate,
    pub losses: Rate,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Spread {
    pub mean: f64,
    /// The mean's 95% interval.
    pub mean_interval: Interval,
    pub median: f64,
    pub stdev: f64,
    pub min: usize,
    pub max: usize,
}

impl Spread {
    /// The spread of values given as a histogram: value → how many times.
    fn of_counts(counts: &BTreeMap<usize, u64>) -> Self {
        let n: u64 = counts.values().sum();
        if n == 0 {
            return Spread {
                mean: 0.0,
                mean_interval: Interval::exact(0.0),
                median: 0.0,
                stdev: 0.0,
                min: 0,
                max: 0,
            };
        }
        let nf = n as f64;
        let sum: f64 = counts.iter().map(|(&v, &c)| v as f64 * c as f64).sum();
        let mean = sum / nf;
        let var = counts
            .iter()
            .map(|(&v, &c)| c as f64 * (v as f64 - mean).powi(2))
            .sum::<f64>()
            / nf;
        // The k-th smallest value (0-based).
        let nth = |k: u64| {
            let mut seen = 0;
            for (&v, &c) in counts {
                seen += c;
                if seen > k {
                    return v;
                }
            }
            0
        };
        let median = if n % 2 == 1 {
            nth(n / 2) as f64
        } else {
            (nth(n / 2 - 1) + nth(n / 2)) as f64 / 2.0
        };
        let sum_sq: f64 = counts
            .iter()
            .map(|(&v, &c)| c as f64 * (v as f64) * (v as f64))
            .sum();
        Spread {
            mean,
            mean_interval: stats::mean_interval(n, sum, sum_sq),
            median,
            stdev: var.sqrt(),
            min: counts.keys().next().copied().unwrap_or(0),
            max: counts.keys().next_back().copied().unwrap_or(0),
        }
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Branching {
    /// Mean legal moves per position over each third of the games' plies.
    pub opening: f64,
    pub middle: f64,
    pub end: f64,
    pub overall: f64,
    /// The mean over games of each game's mean, with its 95% interval.
    pub per_game: Interval,
}

/// Games whose length, in plies, lies in `from..=to` (a histogram's bar).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LengthBin {
    pub from: usize,
    pub to: usize,
    pub games: u64,
}

/// The mean number of legal moves over the positions at plies `from..=to` of every
/// game that reached them.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PlyBranching {
    pub from: usize,
    pub to: usize,
    pub mean: f64,
    pub positions: u64,
}

/// The most bars of the length histogram and points of the branching curve.
const CHART_STEPS: usize = 25;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PieceStats {
    pub name: String,
    /// Centipawns, as the evaluation sees it.
    pub value: i32,
    pub value_source: Source,
    pub moved: u64,
    /// Captures it made.
    pub captures: u64,
    /// Times it was captured.
    pub captured: u64,
    /// Share of all moves made.
    pub moved_share: f64,
    pub captured_per_game: f64,
    /// Per game, with 95% intervals: moves made, captures made, times captured.
    pub moves_per_game: Interval,
    pub captures_per_game: Interval,
    pub captured_per_game_interval: Interval,
    /// What the games say it is worth (the regression of the result on material).
    pub measured_value: Option<MeasuredValue>,
}

/// A piece's worth as the games measure it: the regression of the game's result on
/// the material (each kind's count, first colour minus second, averaged over the
/// game's positions). `score` is what one more piece adds to the first colour's
/// expected score; `centipawns` the same on the evaluation's scale (the logistic
/// curve 1 / (1 + 10^(−cp/400)) is 0.5 + cp × ln 10 / 1600 near even).
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct MeasuredValue {
    pub score: Interval,
    pub centipawns: Interval,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Ending {
    pub reason: String,
    pub count: usize,
    /// Its share of the games, with the 95% Wilson interval.
    pub share: Rate,
}

/// The analysis of a run.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Report {
    pub game: String,
    pub games: usize,
    /// "random", "search depth 3", "search 100 ms/move", "search depth 3 vs random".
    pub mode: String,
    pub seed: u64,
    pub opening_plies: usize,
    pub max_plies: usize,
    /// Per colour, in the order of the `players` line.
    pub sides: Vec<SideResult>,
    /// With a pie rule: how often `swap` was played, and the results of the person who
    /// moved first (who plays the second colour after a swap).
    pub swaps: Option<usize>,
    pub first_player: Option<SideResult>,
    /// With `--vs-random`: the search's results.
    pub search_vs_random: Option<SideResult>,
    /// The first player's score (a win 1, a draw ½; the person who moved first,
    /// whatever colour a pie rule gave them), with its 95% interval.
    pub score: Score,
    /// The first colour's edge as the material regression sees it: its expected
    /// score with even material (None when not measured).
    pub even_material_score: Option<Interval>,
    pub length: Spread,
    /// The game lengths as a histogram of at most 25 equal bars.
    pub length_bins: Vec<LengthBin>,
    pub branching: Branching,
    /// The branching factor over the game, in at most 25 equal spans of plies.
    pub branching_by_ply: Vec<PlyBranching>,
    pub endings: Vec<Ending>,
    pub pieces: Vec<PieceStats>,
    /// With `--precision`: the half-width asked for, the budget, and whether it was
    /// reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop: Option<Stop>,
    /// With `--shard K/N`: which part of the run these games are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardInfo>,
    /// The counts the figures come from: add them up over runs ([`Counts::merge`]).
    pub counts: Counts,
    /// Wall-clock seconds, threads, and speed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timing: Option<Timing>,
}

/// How a run with `--precision` ended.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Stop {
    pub precision: f64,
    pub budget: usize,
    /// The interval's half-width on the first player's score came below `precision`.
    pub reached: bool,
    pub half_width: f64,
}

/// Play until the first player's score is known to within `precision` (the 95%
/// interval's half-width), or `budget` games are played.
#[derive(Debug, Clone, Copy)]
pub struct Until {
    pub precision: f64,
    pub budget: usize,
}

/// The fewest games a precision stop plays: below it an interval may look narrow by
/// chance (ten draws in a row).
pub const MIN_GAMES: usize = 30;
/// Games are played in batches of this many between two looks at the interval (a
/// fixed number, so that a seed gives the same games whatever the threads).
pub const BATCH: usize = 32;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Timing {
    pub seconds: f64,
    pub threads: usize,
    pub games_per_second: f64,
    pub plies_per_second: f64,
    pub search_nodes: u64,
    pub search_nodes_per_second: f64,
}

fn side_result(name: &str, wins: usize, draws: usize, losses: usize) -> SideResult {
    let n = wins + draws + losses;
    SideResult {
        side: name.to_string(),
        wins: Rate::new(wins, n),
        draws: Rate::new(draws, n),
        losses: Rate::new(losses, n),
    }
}

/// The seed of game `i` of a run.
pub fn game_seed(seed: u64, i: usize) -> u64 {
    seed ^ (i as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)
}

/// A progress bar on standard error (with the `cli` feature), or nothing.
struct Progress {
    #[cfg(feature = "cli")]
    bar: indicatif::ProgressBar,
}

impl Progress {
    #[cfg(feature = "cli")]
    fn new(show: bool, games: usize, until: bool) -> Self {
        let bar = if show {
            let b = indicatif::ProgressBar::new(games as u64);
            let template = if until {
                "{bar:40} {pos}/~{len} games, first player {msg}, {elapsed} elapsed, {eta} left"
            } else {
                "{bar:40} {pos}/{len} games, {elapsed} elapsed, {eta} left"
            };
            b.set_style(
                indicatif::ProgressStyle::with_template(template)
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            b
        } else {
            indicatif::ProgressBar::hidden()
        };
        Progress { bar }
    }
    #[cfg(not(feature = "cli"))]
    fn new(_show: bool, _games: usize, _until: bool) -> Self {
        Progress {}
    }
    fn inc(&self) {
        #[cfg(feature = "cli")]
        self.bar.inc(1);
    }
    /// The games a precision stop now expects to play, and its estimate.
    #[cfg_attr(not(feature = "cli"), allow(unused_variables))]
    fn estimate(&self, games: usize, words: String) {
        #[cfg(feature = "cli")]
        {
            self.bar.set_length(games as u64);
            self.bar.set_message(words);
        }
    }
    fn finish(&self) {
        #[cfg(feature = "cli")]
        self.bar.finish_and_clear();
    }
}

/// The most threads a run uses, whatever it is asked.
pub const MAX_THREADS: usize = 256;

/// Plays the games and summarises them. The games are tallied as they finish: the
/// memory does not grow with their number (only with the distinct game lengths and
/// endings).
pub fn analyze(rules: &Arc<Rules>, opts: &Options) -> Report {
    analyze_with(rules, Arc::new(Eval::new(rules)), opts)
}

/// [`analyze`] with this evaluation (learned weights, say).
pub fn analyze_with(rules: &Arc<Rules>, eval: Arc<Eval>, opts: &Options) -> Report {
    run(rules, eval, opts, None, None)
}

/// [`analyze_with`] for one shard of the run: its games only, each with the seed the
/// whole run gives it, so that the shards' reports merge into the run's ([`merge`]).
pub fn analyze_shard(rules: &Arc<Rules>, eval: Arc<Eval>, opts: &Options, shard: Shard) -> Report {
    run(rules, eval, opts, None, Some(shard))
}

/// [`analyze_with`], playing until the first player's score is known to within
/// `until.precision` or `until.budget` games are played (`opts.games` is not read).
pub fn analyze_until(rules: &Arc<Rules>, eval: Arc<Eval>, opts: &Options, until: Until) -> Report {
    run(rules, eval, opts, Some(until), None)
}

/// The games a precision stop expects to need, from the estimate so far: the
/// interval's half-width shrinks as one over the square root of the games.
fn games_needed(games: usize, half: f64, until: Until) -> usize {
    if half <= until.precision || games == 0 {
        return games.max(MIN_GAMES).min(until.budget);
    }
    let ratio = half / until.precision;
    let need = (games as f64 * ratio * ratio).ceil();
    if need >= until.budget as f64 {
        until.budget
    } else {
        (need as usize).max(MIN_GAMES).min(until.budget)
    }
}

fn run(
    rules: &Arc<Rules>,
    eval: Arc<Eval>,
    opts: &Options,
    until: Option<Until>,
    shard: Option<Shard>,
) -> Report {
    let games = shard.map_or(0..opts.games, |s| s.range(opts.games));
    let players: [Player; 2] = match &opts.limits {
        None => [Player::Random, Player::Random],
        Some(l) => [Player::Search(l.clone()), Player::Search(l.clone())],
    };
    let first_total = until.map_or(games.len(), |u| MIN_GAMES.min(u.budget));
    let bar = Progress::new(opts.progress, first_total, until.is_some());
    let start = Instant::now();
    let kinds = rules.pieces.len();
    let mut config = opts.config.clone();
    config.record_moves |= config.save_games.is_some();
    let play = |i: usize| {
        let seed = game_seed(opts.seed, i);
        // Against a random mover the search takes each colour in turn.
        let ps = if opts.versus_random {
            let s = players[0].clone();
            if i.is_multiple_of(2) {
                [s, Player::Random]
            } else {
                [Player::Random, s]
            }
        } else {
            players.clone()
        };
        let r = play_game(rules, &eval, &ps, seed, &config);
        if let Some(save) = &config.save_games {
            save.write(i, seed, &r, &ps);
        }
        bar.inc();
        (i, r)
    };
    let add = |mut t: Counts, (i, r): (usize, GameRecord)| {
        t.add(i, &r);
        t
    };
    let threads = opts.threads.clamp(1, MAX_THREADS);
    let pool = if threads == 1 {
        None
    } else {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .ok()
    };
    let play_range = |range: std::ops::Range<usize>| -> Counts {
        match &pool {
            None => range.map(play).fold(Counts::new(kinds), add),
            Some(pool) => pool.install(|| {
                range
                    .into_par_iter()
                    .map(play)
                    .fold(|| Counts::new(kinds), add)
                    .reduce(|| Counts::new(kinds), Counts::merge)
            }),
        }
    };
    let (counts, stop) = match until {
        None => (play_range(games), None),
        Some(until) => {
            let mut counts = Counts::new(kinds);
            loop {
                let (w, d, l) = counts.first_player();
                let half = Score::new("", w, d, l).score.half_width();
                let played = counts.games;
                let reached = played >= MIN_GAMES && half < until.precision;
                if reached || played >= until.budget {
                    let stop = Stop {
                        precision: until.precision,
                        budget: until.budget,
                        reached,
                        half_width: half,
                    };
                    break (counts, Some(stop));
                }
                if played > 0 {
                    let s = Score::new("", w, d, l).score;
                    bar.estimate(
                        games_needed(played, half, until),
                        format!("{:.3} ± {:.3}", s.value, half),
                    );
                }
                let next = (played + BATCH).min(until.budget);
                counts = counts.merge(play_range(played..next));
            }
        }
    };
    bar.finish();
    let elapsed = start.elapsed();
    let secs = elapsed.as_secs_f64().max(1e-9);
    let timing = Timing {
        seconds: secs,
        threads,
        games_per_second: counts.games as f64 / secs,
        plies_per_second: counts.plies as f64 / secs,
        search_nodes: counts.nodes,
        search_nodes_per_second: counts.nodes as f64 / secs,
    };
    let mut report = counts.report(&Frame::new(rules, &eval, opts));
    report.stop = stop;
    report.shard = shard.map(|s| s.info(opts.games));
    report.timing = Some(timing);
    report
}

/// What a report says besides its counts: the game, its players and pieces (with the
/// evaluation's values), and how the games were played. A shard's JSON report carries
/// it in its own fields, so that merged counts are reported as the whole run would be
/// ([`merge`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub game: String,
    pub players: [String; 2],
    pub pie_rule: bool,
    pub versus_random: bool,
    pub mode: String,
    pub seed: u64,
    pub opening_plies: usize,
    pub max_plies: usize,
    /// Per piece kind: its name, value and where the value comes from.
    pub pieces: Vec<(String, i32, Source)>,
}

impl Frame {
    /// The frame of a run of `opts` under these rules and evaluation.
    pub fn new(rules: &Rules, eval: &Eval, opts: &Options) -> Self {
        Frame {
            game: rules.name.clone(),
            players: [rules.players[0].name.clone(), rules.players[1].name.clone()],
            pie_rule: rules.pie_rule(),
            versus_random: opts.versus_random,
            mode: mode_words(opts),
            seed: opts.seed,
            opening_plies: if opts.limits.is_some() && !opts.versus_random {
                opts.config.opening_plies
            } else {
                0
            },
            max_plies: opts.config.max_plies,
            pieces: rules
                .pieces
                .iter()
                .enumerate()
                .map(|(k, p)| (p.name.clone(), eval.values[k], eval.sources[k]))
                .collect(),
        }
    }
}

/// "random", "search depth 3", "search 100 ms/move", "search depth 3 vs random".
fn mode_words(opts: &Options) -> String {
    let Some(l) = &opts.limits else {
        return "random".to_string();
    };
    let mut m = match (l.depth, l.movetime) {
        (Some(d), Some(t)) => format!("search depth {d}, {} ms/move", t.as_millis()),
        (Some(d), None) => format!("search depth {d}"),
        (None, Some(t)) => format!("search {} ms/move", t.as_millis()),
        (None, None) => "search".to_string(),
    };
    if opts.versus_random {
        m += " vs random";
    }
    m
}

impl Counts {
    /// The report (without timing).
    pub fn report(&self, frame: &Frame) -> Report {
        let n = self.games;
        let draws = self.draws;
        let sides = (0..2)
            .map(|s| side_result(&frame.players[s], self.wins[s], draws, self.wins[s ^ 1]))
            .collect();
        let (swaps, first_player) = if frame.pie_rule {
            let (w, _, l) = self.first_player();
            (
                Some(self.swaps),
                Some(side_result("first player", w, draws, l)),
            )
        } else {
            (None, None)
        };
        let search_vs_random = frame
            .versus_random
            .then(|| side_result("search", self.search_wins, draws, self.search_losses));
        let (measured, even_material_score) = self.material_values(frame.pieces.len());
        Report {
            game: frame.game.clone(),
            games: n,
            mode: frame.mode.clone(),
            seed: frame.seed,
            opening_plies: frame.opening_plies,
            max_plies: frame.max_plies,
            sides,
            swaps,
            first_player,
            search_vs_random,
            score: self.score(),
            even_material_score,
            length: Spread::of_counts(&self.lengths),
            length_bins: length_bins(&self.lengths),
            branching: self.branching(),
            branching_by_ply: branching_by_ply(&self.by_ply),
            endings: self.endings(),
            pieces: self.pieces(frame, &measured),
            stop: None,
            shard: None,
            counts: self.clone(),
            timing: None,
        }
    }

    /// The first player's score, with its interval.
    pub fn score(&self) -> Score {
        let (w, d, l) = self.first_player();
        Score::new("first player", w, d, l)
    }

    /// How the games ended, the most frequent ending first.
    pub fn endings(&self) -> Vec<Ending> {
        let mut endings: Vec<Ending> = self
            .reasons
            .iter()
            .map(|(reason, &count)| Ending {
                reason: reason.clone(),
                count,
                share: Rate::new(count, self.games),
            })
            .collect();
        endings.sort_by(|a, b| b.count.cmp(&a.count).then(a.reason.cmp(&b.reason)));
        endings
    }

    /// The mean legal moves per position, by phase and per game.
    fn branching(&self) -> Branching {
        let avg = |(s, c): (u64, u64)| if c == 0 { 0.0 } else { s as f64 / c as f64 };
        let all = self
            .phase
            .iter()
            .fold((0, 0), |(s, c), &(ps, pc)| (s + ps, c + pc));
        let games_with_moves = self
            .lengths
            .iter()
            .filter(|&(&l, _)| l > 0)
            .map(|(_, &c)| c)
            .sum();
        let i = stats::mean_interval(
            games_with_moves,
            self.branching_sum as f64,
            self.branching_sum_sq as f64,
        );
        Branching {
            opening: avg(self.phase[0]),
            middle: avg(self.phase[1]),
            end: avg(self.phase[2]),
            overall: avg(all),
            per_game: Interval {
                value: i.value / 1000.0,
                low: i.low / 1000.0,
                high: i.high / 1000.0,
            },
        }
    }

    /// Each piece kind's moves, captures and losses, with its measured value.
    fn pieces(&self, frame: &Frame, measured: &[Option<MeasuredValue>]) -> Vec<PieceStats> {
        let n = self.games;
        let total_moves: u64 = self.moved.iter().sum();
        frame
            .pieces
            .iter()
            .enumerate()
            .map(|(k, (name, value, source))| {
                let at = |v: &Vec<u64>| v.get(k).copied().unwrap_or(0);
                let (moved, captures, captured) =
                    (at(&self.moved), at(&self.captures), at(&self.captured));
                let per_game = |sum: u64, sq: &Vec<u64>| {
                    stats::mean_interval(n as u64, sum as f64, at(sq) as f64)
                };
                PieceStats {
                    name: name.clone(),
                    value: *value,
                    value_source: *source,
                    moved,
                    captures,
                    captured,
                    moved_share: if total_moves == 0 {
                        0.0
                    } else {
                        moved as f64 / total_moves as f64
                    },
                    captured_per_game: if n == 0 {
                        0.0
                    } else {
                        captured as f64 / n as f64
                    },
                    moves_per_game: per_game(moved, &self.moved_sq),
                    captures_per_game: per_game(captures, &self.captures_sq),
                    captured_per_game_interval: per_game(captured, &self.captured_sq),
                    measured_value: measured.get(k).copied().flatten(),
                }
            })
            .collect()
    }

    /// Each kind's worth as the games measure it, and the first colour's expected
    /// score with even material: least squares of the result on the material.
    fn material_values(&self, kinds: usize) -> (Vec<Option<MeasuredValue>>, Option<Interval>) {
        let p = kinds + 1;
        let n = self.games;
        if self.xtx.len() != p * p || self.xty.len() != p || n <= p + 1 {
            return (vec![None; kinds], None);
        }
        let scale = MATERIAL_SCALE as f64;
        let xtx: Vec<f64> = self
            .xtx
            .iter()
            .map(|&v| v as f64 / (scale * scale))
            .collect();
        let xty: Vec<f64> = self.xty.iter().map(|&v| v as f64 / (2.0 * scale)).collect();
        let yty = self.yty as f64 / 4.0;
        let dof = (n - p) as f64;
        let fit = stats::least_squares(&xtx, &xty, p, |beta| {
            let mut rss = yty;
            for i in 0..p {
                rss -= 2.0 * beta[i] * xty[i];
                for j in 0..p {
                    rss += beta[i] * xtx[i * p + j] * beta[j];
                }
            }
            rss.max(0.0) / dof
        });
        let interval = |(b, se): (f64, f64)| Interval::around(b, stats::Z95 * se);
        // Near even, 1 / (1 + 10^(−cp/400)) rises by ln 10 / 1600 a centipawn.
        let per_cp = std::f64::consts::LN_10 / 1600.0;
        let values = fit[1..]
            .iter()
            .map(|f| {
                f.map(|f| {
                    let score = interval(f);
                    MeasuredValue {
                        score,
                        centipawns: Interval {
                            value: score.value / per_cp,
                            low: score.low / per_cp,
                            high: score.high / per_cp,
                        },
                    }
                })
            })
            .collect();
        (values, fit[0].map(interval))
    }
}

/// The game lengths in at most [`CHART_STEPS`] bars of equal width.
fn length_bins(lengths: &BTreeMap<usize, u64>) -> Vec<LengthBin> {
    let (Some(&min), Some(&max)) = (lengths.keys().next(), lengths.keys().next_back()) else {
        return Vec::new();
    };
    let width = (max - min).div_ceil(CHART_STEPS).max(1);
    let mut bins: Vec<LengthBin> = (min..=max)
        .step_by(width)
        .map(|from| LengthBin {
            from,
            to: from + width - 1,
            games: 0,
        })
        .collect();
    for (&len, &games) in lengths {
        bins[(len - min) / width].games += games;
    }
    bins
}

/// The mean legal moves per position in at most [`CHART_STEPS`] spans of plies.
fn branching_by_ply(by_ply: &[(u64, u64)]) -> Vec<PlyBranching> {
    let width = by_ply.len().div_ceil(CHART_STEPS).max(1);
    by_ply
        .chunks(width)
        .enumerate()
        .map(|(i, span)| {
            let (sum, positions) = span
                .iter()
                .fold((0, 0), |(s, n), &(ps, pn)| (s + ps, n + pn));
            PlyBranching {
                from: i * width,
                to: i * width + span.len() - 1,
                mean: if positions == 0 {
                    0.0
                } else {
                    sum as f64 / positions as f64
                },
                positions,
            }
        })
        .collect()
}

/// The report of a set of games (without timing); game `i` of a run is `records[i]`.
pub fn summarise(rules: &Rules, eval: &Eval, records: &[GameRecord], opts: &Options) -> Report {
    let mut t = Counts::new(rules.pieces.len());
    for (i, r) in records.iter().enumerate() {
        t.add(i, r);
    }
    t.report(&Frame::new(rules, eval, opts))
}

fn pct(r: &Rate) -> String {
    format!(
        "{:5.1}% [{:.1}–{:.1}]",
        100.0 * r.rate,
        100.0 * r.low,
        100.0 * r.high
    )
}

impl Report {
    /// The report as text for a person.
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.results_text(&mut out);
        self.lengths_text(&mut out);
        self.endings_text(&mut out);
        self.pieces_text(&mut out);
        self.timing_text(&mut out);
        out
    }

    /// The header and the results per side, with the first player's score.
    fn results_text(&self, out: &mut String) {
        line(
            out,
            format!(
                "{}: {} games, {} (seed {}{})",
                self.game,
                self.games,
                self.mode,
                self.seed,
                if self.opening_plies > 0 {
                    format!(", first {} plies random", self.opening_plies)
                } else {
                    String::new()
                }
            ),
        );
        line(out, String::new());
        line(
            out,
            "results (95% Wilson interval)        wins                  draws                 losses",
        );
        let mut rows: Vec<&SideResult> = self.sides.iter().collect();
        rows.extend(self.first_player.iter());
        rows.extend(self.search_vs_random.iter());
        for r in rows {
            line(
                out,
                format!(
                    "  {:<16} {:>5} {}  {}  {}",
                    r.side,
                    r.wins.count + r.draws.count + r.losses.count,
                    pct(&r.wins),
                    pct(&r.draws),
                    pct(&r.losses)
                ),
            );
        }
        if let Some(sw) = self.swaps {
            line(out, format!("  pie rule: swap played in {sw} games"));
        }
        let sc = &self.score;
        line(
            out,
            format!(
                "  first player's score {} ({} wins, {} draws, {} losses; ±{:.3})",
                sc.score.text(3),
                sc.wins,
                sc.draws,
                sc.losses,
                sc.score.half_width()
            ),
        );
        if let Some(e) = &self.even_material_score {
            line(
                out,
                format!(
                    "  {}'s expected score with even material {}",
                    self.sides[0].side,
                    e.text(3)
                ),
            );
        }
        if let Some(st) = &self.stop {
            line(
                out,
                format!(
                    "  precision {}: {} after {} games (budget {}), half-width {:.4}",
                    st.precision,
                    if st.reached { "reached" } else { "NOT reached" },
                    self.games,
                    st.budget,
                    st.half_width
                ),
            );
        }
    }

    /// Game lengths and branching.
    fn lengths_text(&self, out: &mut String) {
        line(out, String::new());
        let l = &self.length;
        line(
            out,
            format!(
                "length (plies): mean {}, median {:.1}, sd {:.1}, min {}, max {}",
                l.mean_interval.text(1),
                l.median,
                l.stdev,
                l.min,
                l.max
            ),
        );
        let b = &self.branching;
        line(
            out,
            format!(
                "branching (legal moves): opening {:.1}, middle {:.1}, end {:.1}, overall {:.1}; per game {}",
                b.opening,
                b.middle,
                b.end,
                b.overall,
                b.per_game.text(1)
            ),
        );
    }

    /// How the games ended.
    fn endings_text(&self, out: &mut String) {
        line(out, String::new());
        line(out, "how games ended (95% Wilson interval):");
        for e in &self.endings {
            line(
                out,
                format!("  {:>5}  {}  {}", e.count, pct(&e.share), e.reason),
            );
        }
    }

    /// Per piece type: value, moves and captures, per game, and measured worth.
    fn pieces_text(&self, out: &mut String) {
        line(out, String::new());
        let w = self
            .pieces
            .iter()
            .map(|p| p.name.len())
            .max()
            .unwrap_or(0)
            .max(12);
        line(
            out,
            format!(
                "  {:<w$} {:>5} {:<9} {:>9} {:<8} {:>9} {:>9}",
                "pieces", "value", "", "moves", "(share)", "captures", "captured"
            ),
        );
        for p in &self.pieces {
            line(
                out,
                format!(
                    "  {:<w$} {:>5} {:<9} {:>9} ({:4.1}%) {:>9} {:>9}",
                    p.name,
                    p.value,
                    match p.value_source {
                        Source::Declared => "declared",
                        Source::Estimated => "estimated",
                        Source::Learned => "learned",
                    },
                    p.moved,
                    100.0 * p.moved_share,
                    p.captures,
                    p.captured,
                ),
            );
        }
        line(out, String::new());
        line(
            out,
            format!(
                "  {:<w$} {:<22} {:<22} {:<22}",
                "per game (95%)", "moves", "captures", "captured"
            ),
        );
        for p in &self.pieces {
            line(
                out,
                format!(
                    "  {:<w$} {:<22} {:<22} {:<22}",
                    p.name,
                    p.moves_per_game.text(2),
                    p.captures_per_game.text(2),
                    p.captured_per_game_interval.text(2)
                ),
            );
        }
        if self.pieces.iter().any(|p| p.measured_value.is_some()) {
            line(out, String::new());
            line(
                out,
                format!(
                    "  {:<w$} {:<26} {}",
                    "measured worth", "score per piece (95%)", "centipawns (95%)"
                ),
            );
            for p in &self.pieces {
                let Some(m) = &p.measured_value else {
                    line(
                        out,
                        format!("  {:<w$} not measured (no difference in material)", p.name),
                    );
                    continue;
                };
                let score = format!(
                    "{:+.3} [{:+.3}–{:+.3}]",
                    m.score.value, m.score.low, m.score.high
                );
                let cp = format!(
                    "{:+.0} [{:+.0}–{:+.0}]",
                    m.centipawns.value, m.centipawns.low, m.centipawns.high
                );
                line(out, format!("  {:<w$} {score:<26} {cp}", p.name));
            }
        }
    }

    /// How long it took.
    fn timing_text(&self, out: &mut String) {
        if let Some(t) = &self.timing {
            line(out, String::new());
            let mut speed = format!(
                "{:.1} s on {} thread{}: {:.1} games/s, {:.0} plies/s",
                t.seconds,
                t.threads,
                if t.threads == 1 { "" } else { "s" },
                t.games_per_second,
                t.plies_per_second
            );
            if t.search_nodes > 0 {
                speed += &format!(
                    ", {} search nodes ({:.0} nodes/s)",
                    t.search_nodes, t.search_nodes_per_second
                );
            }
            line(out, speed);
        }
    }
}

/// Adds `text` and a line break to `out`.
fn line(out: &mut String, text: impl AsRef<str>) {
    out.push_str(text.as_ref());
    out.push('\n');
}
