//! Invariants of the engine over random games, for every shipped game: each
//! `variants/*.var` and `examples/*.var` file (found by listing the folders, so a new
//! game joins by itself).
//!
//! At every ply of a random game, for every legal move: after `make` no royal piece of
//! the mover is attacked, the incremental hash equals the hash computed from scratch,
//! and the position string reads back (`Position::from_fen`) to a position with the
//! same position string and hash; after `unmake` the position string and the hash are
//! exactly those from before. The text of every legal move is distinct and parses back
//! to that move. A game stops at its outcome or after [`PLY_CAP`] plies.
//!
//! Environment: `VARSAND_INVARIANT_GAMES` sets the games per game file (the default
//! test plays [`DEFAULT_GAMES`], the ignored one 100,000), `VARSAND_INVARIANT_SEED`
//! (default 0) varies them, `VARSAND_INVARIANT_ONLY` (a comma-separated list of file
//! name parts such as `chess,lava`) limits the run to some files.
//!
//! Measured on the 2-core development machine (release build, seed 0, 2 threads; the
//! machine was shared, load average about 5, so wall times are about twice the CPU
//! time; "time" is the wall time of each file's games summed over both threads).
//!
//! Default run (`cargo test --profile checked --test invariants`), 40 games per file: 33 to
//! 41 s wall in three runs, 23.4 to 23.8 s CPU (so about 12 to 14 s wall on an idle
//! machine); 47,899 plies, 1,385,880 moves checked.
//!
//! | file                           | games | plies | moves checked | ended | time   |
//! |--------------------------------|-------|-------|---------------|-------|--------|
//! | variants/capablanca.var        |    40 |  7852 |       320,467 |     3 | 15.8 s |
//! | variants/chess.var             |    40 |  7154 |       201,214 |     9 | 10.0 s |
//! | variants/jungles_mountains.var |    40 |  7872 |       140,732 |     2 |  7.1 s |
//! | variants/monkey_king.var       |    40 |  7600 |       156,574 |    12 | 18.8 s |
//! | variants/monkey_queen.var      |    40 |  2166 |       162,841 |    40 | 13.3 s |
//! | examples/lava.var              |    40 |  7459 |       198,486 |     6 |  7.6 s |
//! | examples/walls.var             |    40 |  7796 |       205,566 |     4 |  7.2 s |
//!
//! Long run, once, with 1,000 games per file (`VARSAND_INVARIANT_GAMES=1000 cargo test
//! --release --test invariants -- --ignored`): all invariants held; 974.7 s wall,
//! 637 s CPU; 1,199,602 plies, 35,011,871 moves checked.
//!
//! | file                           | games | plies   | moves checked | ended | time    |
//! |--------------------------------|-------|---------|---------------|-------|---------|
//! | variants/capablanca.var        |  1000 | 188,357 |     7,613,531 |   157 | 272.1 s |
//! | variants/chess.var             |  1000 | 191,713 |     5,318,568 |   108 |  77.9 s |
//! | variants/jungles_mountains.var |  1000 | 197,480 |     3,601,378 |    50 |  80.8 s |
//! | variants/monkey_king.var       |  1000 | 178,958 |     3,742,199 |   340 | 583.2 s |
//! | variants/monkey_queen.var      |  1000 |  57,946 |     4,598,928 |   999 | 490.0 s |
//! | examples/lava.var              |  1000 | 191,080 |     5,056,287 |   127 | 244.9 s |
//! | examples/walls.var             |  1000 | 194,068 |     5,080,980 |    74 | 199.6 s |
//!
//! (The per-file times of the long run are distorted by builds running beside it.) At
//! about 90 ms of CPU per game, the full ignored run of 100,000 games per file takes
//! some 17 hours of CPU for the seven files: run it for a few files
//! (`VARSAND_INVARIANT_ONLY`) or with fewer games.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use varsand::{Move, Position, Rules, load_rules};

/// A game stops after this many plies if it has not ended.
const PLY_CAP: usize = 200;
/// Games per game file in the default run.
const DEFAULT_GAMES: usize = 40;
/// Games per game file in the ignored long run.
const LONG_GAMES: usize = 100_000;

// ---- random numbers -------------------------------------------------------------------

/// SplitMix64: tiny, fast and good enough to pick moves.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// FNV-1a: a stable seed per file name.
fn name_hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

// ---- the game files -------------------------------------------------------------------

/// Every game file shipped: `variants/*.var`, then `examples/*.var`, by name.
fn game_files() -> Vec<PathBuf> {
    let mut all = Vec::new();
    for dir in ["variants", "examples"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "var"))
            .collect();
        files.sort();
        all.extend(files);
    }
    all
}

/// A game file's name as the reports show it: `variants/chess.var`.
fn short_name(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display()
        .to_string()
}

fn load(path: &Path) -> Arc<Rules> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    load_rules(&text).unwrap_or_else(|problems| {
        panic!(
            "{} does not load: {}",
            short_name(path),
            problems
                .iter()
                .map(|p| p.message.clone())
                .collect::<Vec<_>>()
                .join("; ")
        )
    })
}

// ---- the checks -----------------------------------------------------------------------

/// What the games of one file did.
#[derive(Debug, Default, Clone)]
struct Stats {
    games: usize,
    plies: usize,
    moves_checked: usize,
    /// Games that ended by their rules (not at the ply cap).
    ended: usize,
    time: Duration,
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.games += o.games;
        self.plies += o.plies;
        self.moves_checked += o.moves_checked;
        self.ended += o.ended;
        self.time += o.time;
    }
}

/// A broken invariant: what broke, and where (the position string before the move and
/// the move, so that it can be reproduced by hand).
#[derive(Debug, Clone)]
struct Failure {
    file: String,
    game: usize,
    ply: usize,
    fen: String,
    mv: Option<String>,
    what: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} game {} ply {}: {}\n   position: {:?}",
            self.file, self.game, self.ply, self.what, self.fen
        )?;
        if let Some(mv) = &self.mv {
            write!(f, "\n   move: {mv}")?;
        }
        Ok(())
    }
}

/// Checks every legal move of the position; `Err` names the first broken invariant.
fn check_ply(pos: &mut Position, moves: &[Move]) -> Result<(), (Option<String>, String)> {
    let rules = Arc::clone(pos.rules());
    let before_fen = pos.fen();
    let before_hash = pos.hash();
    let mover = pos.side_to_move();

    // Move texts: distinct, and each parses back to its move.
    let mut texts: std::collections::HashMap<String, Move> = Default::default();
    for &m in moves {
        let text = pos.move_text(m);
        if let Some(&other) = texts.get(&text) {
            return Err((
                Some(text.clone()),
                format!("two legal moves share the text `{text}`: {other:?} and {m:?}"),
            ));
        }
        texts.insert(text.clone(), m);
        match pos.parse_move(&text) {
            Ok(parsed) if parsed == m => {}
            Ok(parsed) => {
                return Err((
                    Some(text.clone()),
                    format!("`{text}` parses to {parsed:?}, not to its move {m:?}"),
                ));
            }
            Err(e) => {
                return Err((Some(text.clone()), format!("`{text}` does not parse: {e}")));
            }
        }
    }

    for &m in moves {
        let text = pos.move_text(m);
        let fail = |what: String| Err((Some(text.clone()), what));
        pos.make(m);
        if pos.in_check(mover) {
            return fail("the move leaves a royal piece of the mover attacked".into());
        }
        if pos.compute_hash() != pos.hash() {
            return fail(format!(
                "after the move the hash is {:#x}, computed from scratch {:#x}",
                pos.hash(),
                pos.compute_hash()
            ));
        }
        let after = pos.fen();
        match Position::from_fen(Arc::clone(&rules), &after) {
            Ok(back) => {
                if back.fen() != after {
                    return fail(format!(
                        "the position string after the move {after:?} reads back as {:?}",
                        back.fen()
                    ));
                }
                if back.hash() != pos.hash() {
                    return fail(format!(
                        "the position string after the move {after:?} reads back with hash {:#x}, the position has {:#x}",
                        back.hash(),
                        pos.hash()
                    ));
                }
            }
            Err(e) => {
                return fail(format!(
                    "the position string after the move {after:?} does not read back: {e}"
                ));
            }
        }
        pos.unmake();
        if pos.fen() != before_fen {
            return fail(format!(
                "after unmake the position string is {:?}",
                pos.fen()
            ));
        }
        if pos.hash() != before_hash {
            return fail(format!(
                "after unmake the hash is {:#x}, before the move {before_hash:#x}",
                pos.hash()
            ));
        }
    }
    Ok(())
}

/// Plays one random game, checking every ply. Returns its plies and checked moves, and
/// whether it ended by the rules.
fn play_game(
    rules: &Arc<Rules>,
    file: &str,
    game: usize,
    seed: u64,
) -> Result<(usize, usize, bool), Failure> {
    let mut rng = Rng::new(
        name_hash(file)
            ^ seed.wrapping_mul(0xA24B_AED4_963E_E407)
            ^ (game as u64).wrapping_mul(0x9FB2_1C65_1E98_DF25),
    );
    let mut pos = Position::start(Arc::clone(rules));
    // The start position's string reads back too.
    let start = pos.fen();
    let failure = |ply: usize, fen: String, mv: Option<String>, what: String| Failure {
        file: file.to_string(),
        game,
        ply,
        fen,
        mv,
        what,
    };
    match Position::from_fen(Arc::clone(rules), &start) {
        Ok(back) if back.fen() == start && back.hash() == pos.hash() => {}
        Ok(back) => {
            return Err(failure(
                0,
                start,
                None,
                format!(
                    "the start position reads back as {:?} (hash {:#x}, start {:#x})",
                    back.fen(),
                    back.hash(),
                    pos.hash()
                ),
            ));
        }
        Err(e) => {
            return Err(failure(
                0,
                start,
                None,
                format!("the start position does not read back: {e}"),
            ));
        }
    }
    let mut checked = 0;
    for ply in 0..PLY_CAP {
        if pos.outcome().is_some() {
            return Ok((ply, checked, true));
        }
        let moves = pos.legal_moves();
        let fen = pos.fen();
        // Run the checks under `catch_unwind` so that a panic is reported with where
        // it happened.
        let result = panic::catch_unwind(AssertUnwindSafe(|| check_ply(&mut pos, &moves)));
        match result {
            Ok(Ok(())) => {}
            Ok(Err((mv, what))) => return Err(failure(ply, fen, mv, what)),
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "<non-string panic>".into());
                return Err(failure(ply, fen, None, format!("panic: {msg}")));
            }
        }
        checked += moves.len();
        let m = moves[rng.below(moves.len())];
        pos.make(m);
    }
    Ok((PLY_CAP, checked, false))
}

/// Plays `games` random games of every selected file on all threads; prints a line of
/// figures per file and fails with every broken invariant found (the first per file).
fn run(games: usize) {
    let seed = env_usize("VARSAND_INVARIANT_SEED", 0) as u64;
    let only: Vec<String> = std::env::var("VARSAND_INVARIANT_ONLY")
        .ok()
        .map(|v| {
            v.split(',')
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    let files: Vec<PathBuf> = game_files()
        .into_iter()
        .filter(|p| only.is_empty() || only.iter().any(|o| short_name(p).contains(o.as_str())))
        .collect();
    assert!(!files.is_empty(), "no game file selected");
    let loaded: Vec<(String, Arc<Rules>)> =
        files.iter().map(|p| (short_name(p), load(p))).collect();

    // Work in chunks of games, taken in turn by the threads.
    const CHUNK: usize = 10;
    let work: Vec<(usize, std::ops::Range<usize>)> = (0..loaded.len())
        .flat_map(|i| {
            (0..games)
                .step_by(CHUNK)
                .map(move |a| (i, a..(a + CHUNK).min(games)))
        })
        .collect();
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let started = Instant::now();
    let results: Vec<(Vec<Stats>, Vec<Option<Failure>>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut stats = vec![Stats::default(); loaded.len()];
                    let mut failures: Vec<Option<Failure>> = vec![None; loaded.len()];
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some((i, range)) = work.get(k) else { break };
                        let (name, rules) = &loaded[*i];
                        if failures[*i].is_some() {
                            continue;
                        }
                        let t = Instant::now();
                        for game in range.clone() {
                            match play_game(rules, name, game, seed) {
                                Ok((plies, checked, ended)) => {
                                    let s = &mut stats[*i];
                                    s.games += 1;
                                    s.plies += plies;
                                    s.moves_checked += checked;
                                    s.ended += usize::from(ended);
                                }
                                Err(f) => {
                                    failures[*i] = Some(f);
                                    break;
                                }
                            }
                        }
                        stats[*i].time += t.elapsed();
                    }
                    (stats, failures)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("invariant thread"))
            .collect()
    });

    let mut stats = vec![Stats::default(); loaded.len()];
    let mut failures: Vec<Option<Failure>> = vec![None; loaded.len()];
    for (s, f) in results {
        for i in 0..loaded.len() {
            stats[i].add(&s[i]);
            if failures[i].is_none() {
                failures[i] = f[i].clone();
            }
        }
    }
    eprintln!(
        "invariants: {} file(s), {games} games each, seed {seed}, {threads} threads, {:.1?} in all",
        loaded.len(),
        started.elapsed()
    );
    eprintln!("| file | games | plies | moves checked | ended by rule | thread time |");
    for ((name, _), s) in loaded.iter().zip(&stats) {
        eprintln!(
            "| {name} | {} | {} | {} | {} | {:.1?} |",
            s.games, s.plies, s.moves_checked, s.ended, s.time
        );
    }
    let failures: Vec<&Failure> = failures.iter().flatten().collect();
    if !failures.is_empty() {
        let mut report = format!(
            "{} file(s) break an invariant (VARSAND_INVARIANT_SEED={seed}):\n",
            failures.len()
        );
        for f in failures {
            report += &format!("\n== {f}\n");
        }
        panic!("{report}");
    }
    for ((name, _), s) in loaded.iter().zip(&stats) {
        assert_eq!(
            s.games, games,
            "{name}: played {} of {games} games",
            s.games
        );
        assert!(s.plies > 0, "{name}: no ply played");
    }
}

#[test]
fn random_games_keep_the_invariants() {
    run(env_usize("VARSAND_INVARIANT_GAMES", DEFAULT_GAMES));
}

#[test]
#[ignore = "long: 100,000 games per game file; VARSAND_INVARIANT_GAMES sets the count"]
fn many_random_games_keep_the_invariants() {
    run(env_usize("VARSAND_INVARIANT_GAMES", LONG_GAMES));
}
