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
use crate::rules::{Rules, kind_of};
use crate::search::{Ends, Eval, Limits, Rng, Searcher, eval::Source};

mod save;
pub use save::SaveGames;

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

/// How to play each game.
#[derive(Debug, Clone)]
pub struct GameConfig {
    /// A game still going after this many plies ends as a draw ("move cap").
    pub max_plies: usize,
    /// The first plies are random among the moves a depth-2 search scores within
    /// [`OPENING_MARGIN`] of the best, so games differ without opening blunders (only
    /// when both players search: a random mover varies the games by itself).
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
    };
    let start_swapped = pos.swapped();
    // The person to move: the first mover plays `first_side` until a swap.
    let person = |pos: &Position| {
        (pos.side_to_move().index() ^ first_side) ^ usize::from(pos.swapped() != start_swapped)
    };
    let both_search = players.iter().all(|p| matches!(p, Player::Search(_)));
    let opening = if both_search { config.opening_plies } else { 0 };
    loop {
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
                    let scored = s.score_all(&mut pos, 2);
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

/// The 95% Wilson score interval of `k` successes in `n` trials.
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

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
        Spread {
            mean,
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
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Ending {
    pub reason: String,
    pub count: usize,
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
    pub length: Spread,
    /// The game lengths as a histogram of at most 25 equal bars.
    pub length_bins: Vec<LengthBin>,
    pub branching: Branching,
    /// The branching factor over the game, in at most 25 equal spans of plies.
    pub branching_by_ply: Vec<PlyBranching>,
    pub endings: Vec<Ending>,
    pub pieces: Vec<PieceStats>,
    /// Wall-clock seconds, threads, and speed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timing: Option<Timing>,
}

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
    fn new(show: bool, games: usize) -> Self {
        let bar = if show {
            let b = indicatif::ProgressBar::new(games as u64);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} games, {elapsed} elapsed, {eta} left",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            b
        } else {
            indicatif::ProgressBar::hidden()
        };
        Progress { bar }
    }
    #[cfg(not(feature = "cli"))]
    fn new(_show: bool, _games: usize) -> Self {
        Progress {}
    }
    fn inc(&self) {
        #[cfg(feature = "cli")]
        self.bar.inc(1);
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
    let players: [Player; 2] = match &opts.limits {
        None => [Player::Random, Player::Random],
        Some(l) => [Player::Search(l.clone()), Player::Search(l.clone())],
    };
    let bar = Progress::new(opts.progress, opts.games);
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
    let add = |mut t: Tally, (i, r): (usize, GameRecord)| {
        t.add(i, &r);
        t
    };
    let threads = opts.threads.clamp(1, MAX_THREADS);
    let serial = || (0..opts.games).map(play).fold(Tally::new(kinds), add);
    let tally = if threads == 1 {
        serial()
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| {
                (0..opts.games)
                    .into_par_iter()
                    .map(play)
                    .fold(|| Tally::new(kinds), add)
                    .reduce(|| Tally::new(kinds), Tally::merge)
            }),
            Err(_) => serial(),
        }
    };
    bar.finish();
    let elapsed = start.elapsed();
    let secs = elapsed.as_secs_f64().max(1e-9);
    let timing = Timing {
        seconds: secs,
        threads,
        games_per_second: tally.games as f64 / secs,
        plies_per_second: tally.plies as f64 / secs,
        search_nodes: tally.nodes,
        search_nodes_per_second: tally.nodes as f64 / secs,
    };
    let mut report = tally.report(rules, &eval, opts);
    report.timing = Some(timing);
    report
}

/// What the report needs of the games played so far, added up as they finish.
#[derive(Debug, Clone, Default)]
struct Tally {
    games: usize,
    /// Wins per colour, and draws.
    wins: [usize; 2],
    draws: usize,
    /// Wins per person (0 moved first), and swaps (with a pie rule).
    person_wins: [usize; 2],
    swaps: usize,
    /// The search's wins and losses against a random mover (game i: the search moves
    /// first when i is even).
    search_wins: usize,
    search_losses: usize,
    /// Game length in plies → number of games.
    lengths: BTreeMap<usize, u64>,
    /// Per third of a game: the sum of the legal-move counts and the number of positions.
    phase: [(u64, u64); 3],
    /// Per ply: the sum of the legal-move counts and the number of positions.
    by_ply: Vec<(u64, u64)>,
    reasons: BTreeMap<String, usize>,
    moved: Vec<u64>,
    captures: Vec<u64>,
    captured: Vec<u64>,
    plies: u64,
    nodes: u64,
}

impl Tally {
    fn new(kinds: usize) -> Self {
        Tally {
            moved: vec![0; kinds],
            captures: vec![0; kinds],
            captured: vec![0; kinds],
            ..Tally::default()
        }
    }

    /// Adds game number `i`.
    fn add(&mut self, i: usize, r: &GameRecord) {
        self.games += 1;
        match r.winner {
            Some(w) => self.wins[w & 1] += 1,
            None => self.draws += 1,
        }
        if let Some(p) = r.winner_player {
            self.person_wins[p & 1] += 1;
            if p == i % 2 {
                self.search_wins += 1;
            } else {
                self.search_losses += 1;
            }
        }
        self.swaps += usize::from(r.swapped);
        *self.lengths.entry(r.plies).or_default() += 1;
        let len = r.branching.len();
        for (i, &b) in r.branching.iter().enumerate() {
            let p = (i * 3 / len.max(1)).min(2);
            self.phase[p].0 += u64::from(b);
            self.phase[p].1 += 1;
        }
        if self.by_ply.len() < len {
            self.by_ply.resize(len, (0, 0));
        }
        for (slot, &b) in self.by_ply.iter_mut().zip(&r.branching) {
            slot.0 += u64::from(b);
            slot.1 += 1;
        }
        match self.reasons.get_mut(&r.reason) {
            Some(c) => *c += 1,
            None => {
                self.reasons.insert(r.reason.clone(), 1);
            }
        }
        for (sum, add) in [
            (&mut self.moved, &r.moved),
            (&mut self.captures, &r.captures),
            (&mut self.captured, &r.captured),
        ] {
            for (s, a) in sum.iter_mut().zip(add) {
                *s += a;
            }
        }
        self.plies += r.plies as u64;
        self.nodes += r.nodes;
    }

    /// The tally of two sets of games.
    fn merge(mut self, other: Tally) -> Tally {
        self.games += other.games;
        for s in 0..2 {
            self.wins[s] += other.wins[s];
            self.person_wins[s] += other.person_wins[s];
        }
        self.draws += other.draws;
        self.swaps += other.swaps;
        self.search_wins += other.search_wins;
        self.search_losses += other.search_losses;
        for (len, c) in other.lengths {
            *self.lengths.entry(len).or_default() += c;
        }
        for p in 0..3 {
            self.phase[p].0 += other.phase[p].0;
            self.phase[p].1 += other.phase[p].1;
        }
        if self.by_ply.len() < other.by_ply.len() {
            self.by_ply.resize(other.by_ply.len(), (0, 0));
        }
        for (slot, add) in self.by_ply.iter_mut().zip(&other.by_ply) {
            slot.0 += add.0;
            slot.1 += add.1;
        }
        for (reason, c) in other.reasons {
            *self.reasons.entry(reason).or_default() += c;
        }
        for (sum, add) in [
            (&mut self.moved, &other.moved),
            (&mut self.captures, &other.captures),
            (&mut self.captured, &other.captured),
        ] {
            if sum.len() < add.len() {
                sum.resize(add.len(), 0);
            }
            for (s, a) in sum.iter_mut().zip(add) {
                *s += a;
            }
        }
        self.plies += other.plies;
        self.nodes += other.nodes;
        self
    }

    /// The report (without timing).
    fn report(&self, rules: &Rules, eval: &Eval, opts: &Options) -> Report {
        let n = self.games;
        let names = [rules.players[0].name.clone(), rules.players[1].name.clone()];
        let draws = self.draws;
        let sides = (0..2)
            .map(|s| side_result(&names[s], self.wins[s], draws, self.wins[s ^ 1]))
            .collect();
        let (swaps, first_player) = if rules.pie_rule() {
            (
                Some(self.swaps),
                Some(side_result(
                    "first player",
                    self.person_wins[0],
                    draws,
                    self.person_wins[1],
                )),
            )
        } else {
            (None, None)
        };
        let search_vs_random = opts
            .versus_random
            .then(|| side_result("search", self.search_wins, draws, self.search_losses));
        let avg = |(s, c): (u64, u64)| if c == 0 { 0.0 } else { s as f64 / c as f64 };
        let all = self
            .phase
            .iter()
            .fold((0, 0), |(s, c), &(ps, pc)| (s + ps, c + pc));
        let branching = Branching {
            opening: avg(self.phase[0]),
            middle: avg(self.phase[1]),
            end: avg(self.phase[2]),
            overall: avg(all),
        };
        let mut endings: Vec<Ending> = self
            .reasons
            .iter()
            .map(|(reason, &count)| Ending {
                reason: reason.clone(),
                count,
            })
            .collect();
        endings.sort_by(|a, b| b.count.cmp(&a.count).then(a.reason.cmp(&b.reason)));
        let total_moves: u64 = self.moved.iter().sum();
        let pieces = rules
            .pieces
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let at = |v: &Vec<u64>| v.get(k).copied().unwrap_or(0);
                let (moved, captures, captured) =
                    (at(&self.moved), at(&self.captures), at(&self.captured));
                PieceStats {
                    name: p.name.clone(),
                    value: eval.values[k],
                    value_source: eval.sources[k],
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
                }
            })
            .collect();
        let mode = match &opts.limits {
            None => "random".to_string(),
            Some(l) => {
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
        };
        Report {
            game: rules.name.clone(),
            games: n,
            mode,
            seed: opts.seed,
            opening_plies: if opts.limits.is_some() && !opts.versus_random {
                opts.config.opening_plies
            } else {
                0
            },
            max_plies: opts.config.max_plies,
            sides,
            swaps,
            first_player,
            search_vs_random,
            length: Spread::of_counts(&self.lengths),
            length_bins: length_bins(&self.lengths),
            branching,
            branching_by_ply: branching_by_ply(&self.by_ply),
            endings,
            pieces,
            timing: None,
        }
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
    let mut t = Tally::new(rules.pieces.len());
    for (i, r) in records.iter().enumerate() {
        t.add(i, r);
    }
    t.report(rules, eval, opts)
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
        let mut s = String::new();
        let mut line = |t: String| {
            s.push_str(&t);
            s.push('\n');
        };
        line(format!(
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
        ));
        line(String::new());
        line("results (95% Wilson interval)        wins                  draws                 losses".into());
        let mut rows: Vec<&SideResult> = self.sides.iter().collect();
        rows.extend(self.first_player.iter());
        rows.extend(self.search_vs_random.iter());
        for r in rows {
            line(format!(
                "  {:<16} {:>5} {}  {}  {}",
                r.side,
                r.wins.count + r.draws.count + r.losses.count,
                pct(&r.wins),
                pct(&r.draws),
                pct(&r.losses)
            ));
        }
        if let Some(sw) = self.swaps {
            line(format!("  pie rule: swap played in {sw} games"));
        }
        line(String::new());
        let l = &self.length;
        line(format!(
            "length (plies): mean {:.1}, median {:.1}, sd {:.1}, min {}, max {}",
            l.mean, l.median, l.stdev, l.min, l.max
        ));
        let b = &self.branching;
        line(format!(
            "branching (legal moves): opening {:.1}, middle {:.1}, end {:.1}, overall {:.1}",
            b.opening, b.middle, b.end, b.overall
        ));
        line(String::new());
        line("how games ended:".into());
        for e in &self.endings {
            line(format!(
                "  {:>5}  {:5.1}%  {}",
                e.count,
                100.0 * e.count as f64 / self.games.max(1) as f64,
                e.reason
            ));
        }
        line(String::new());
        let w = self
            .pieces
            .iter()
            .map(|p| p.name.len())
            .max()
            .unwrap_or(0)
            .max(12);
        line(format!(
            "  {:<w$} {:>5} {:<9} {:>9} {:<8} {:>9} {:>9} (per game)",
            "pieces", "value", "", "moves", "(share)", "captures", "captured"
        ));
        for p in &self.pieces {
            line(format!(
                "  {:<w$} {:>5} {:<9} {:>9} ({:4.1}%) {:>9} {:>9} ({:.2})",
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
                p.captured_per_game
            ));
        }
        if let Some(t) = &self.timing {
            line(String::new());
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
            line(speed);
        }
        s
    }
}
