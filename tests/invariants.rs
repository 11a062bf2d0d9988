//! Invariants of the engine over random games, for every shipped game: each
//! `variants/*.var` and `examples/*.var` file (found by listing the folders, so a new
//! game joins by itself), and the rule files of `tests/move_texts/`, written to stress
//! move texts (moves with the same squares that differ only by what they leave behind,
//! overlapping move lines with different effects: each move needs a text of its own).
//!
//! At every ply of a random game, for every legal move (a random sample of
//! [`MAX_PLAYED_THROUGH`] with the move played, where a position has more: games whose
//! moves have a second part have thousands): after `make` the mover is not
//! in check (unless the move won at once), the incremental hash equals the hash computed from scratch,
//! and the position string reads back (`Position::from_fen`) to a position with the
//! same position string and hash; after `unmake` the position is exactly the one
//! before (the hash, kept and recomputed, the board, the clock and the ply after every
//! move; the position string after the last one, which names the move if it differs:
//! see [`check_ply`]). The texts of the legal moves are distinct, ignoring case, and
//! each reads back to its move against the move list in hand (what `parse_move` does);
//! `parse_move` itself reads back the move played and a random move of each kind (kind
//! and new face) present. The tactical moves (`Position::tactical_moves`) are the
//! pseudo-legal moves that capture or promote. `Position::has_legal_moves` agrees with
//! the list at every ply, the last included. A game stops at its outcome or after [`PLY_CAP`] plies.
//!
//! Why not `parse_move` for every move: it generates the legal moves and the text of
//! each again, so it cost as much as all the other checks together. Callgrind, 3
//! Capablanca games (587 plies, 23,870 moves): 2,994 M instructions with `parse_move`
//! and the position string after every unmake, `parse_move` 38% of them; 1,666 M now,
//! three quarters of them writing and reading position strings. Why the cap stays at
//! 200 plies: the plies past 120 hold most of the rare moves (40 games per file:
//! Capablanca 840 of 1,104 promotions, chess 428 of 848, lava 316 of 648, monkey_king
//! 49 of 52 exits).
//!
//! Environment: `VARSAND_INVARIANT_GAMES` sets the games per game file (the default
//! test plays [`DEFAULT_GAMES`], the ignored one 100,000), `VARSAND_INVARIANT_SEED`
//! (default 0) varies them, `VARSAND_INVARIANT_ONLY` (a comma-separated list of file
//! name parts such as `chess,lava`) limits the run to some files.
//!
//! Measured on the 2-core development machine (`checked` profile, seed 0, 2 threads;
//! the machine was shared, load average about 4, so wall times are well above half
//! the CPU time; "time" is the wall time of each file's games summed over both
//! threads, so it too counts the waits for the other work).
//!
//! Default run (`cargo test --profile checked --test invariants`): 100 games per file
//! since the games of issue 31 came (35 files: 200 games took 150 s of thread time,
//! 75 s wall on 2 threads; files whose positions have more than
//! [`MAX_PLAYED_THROUGH`] moves play a tenth, [`HEAVY_SHARE`]). Before, 200 games per file:
//! 74 s wall and 51 s CPU in one run, 76 s wall and 75 s CPU in another (the CPU
//! time too varies with the other work; so about 26 to 38 s wall on an idle machine);
//! 241,243 plies, 7,020,467 moves checked. (The checks before, with `parse_move` for every move,
//! took 23.4 s CPU for 40 games per file.)
//!
//! | file                           | games | plies  | moves checked | ended | time   |
//! |--------------------------------|-------|--------|---------------|-------|--------|
//! | variants/capablanca.var        |   200 | 38,013 |     1,547,017 |    25 | 30.4 s |
//! | variants/chess.var             |   200 | 38,363 |     1,068,662 |    21 | 17.9 s |
//! | variants/jungles_mountains.var |   200 | 39,631 |       719,975 |    14 | 13.6 s |
//! | variants/monkey_king.var       |   200 | 36,421 |       744,761 |    63 | 21.6 s |
//! | variants/monkey_queen.var      |   200 | 11,459 |       903,071 |   200 | 22.6 s |
//! | examples/lava.var              |   200 | 38,598 |     1,024,241 |    17 | 20.6 s |
//! | examples/walls.var             |   200 | 38,758 |     1,012,740 |    15 | 21.3 s |
//!
//! Long run, once, with 2,000 games per file (`VARSAND_INVARIANT_GAMES=2000 cargo test
//! --profile checked --test invariants -- --ignored`): all invariants held; 826 s wall
//! (load average 4 to 7), 576 s CPU; 2,397,228 plies, 69,862,074 moves checked.
//!
//! | file                           | games | plies   | moves checked | ended | time    |
//! |--------------------------------|-------|---------|---------------|-------|---------|
//! | variants/capablanca.var        |  2000 | 376,945 |    15,220,103 |   312 | 596.6 s |
//! | variants/chess.var             |  2000 | 384,330 |    10,648,094 |   209 | 212.1 s |
//! | variants/jungles_mountains.var |  2000 | 394,463 |     7,203,497 |    95 | 157.2 s |
//! | variants/monkey_king.var       |  2000 | 359,105 |     7,522,770 |   681 | 212.8 s |
//! | variants/monkey_queen.var      |  2000 | 112,629 |     8,946,633 |  1996 | 162.4 s |
//! | examples/lava.var              |  2000 | 381,624 |    10,102,634 |   257 | 156.3 s |
//! | examples/walls.var             |  2000 | 388,132 |    10,218,343 |   147 | 154.7 s |
//!
//! (The per-file times of the long run are distorted by other work beside it.) At
//! about 40 ms of CPU per game, the full ignored run of 100,000 games per file takes
//! some 8 hours of CPU for the seven files: run it for a few files
//! (`VARSAND_INVARIANT_ONLY`) or with fewer games.

mod common;
use common::{Rng, game_files};

use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use varsand::engine::MoveKind;
use varsand::{Move, Position, Rules, load_rules};

/// A game stops after this many plies if it has not ended.
const PLY_CAP: usize = 200;
/// Games per game file in the default run.
const DEFAULT_GAMES: usize = 100;
/// Games per game file in the ignored long run.
const LONG_GAMES: usize = 100_000;

// ---- random numbers -------------------------------------------------------------------

/// FNV-1a: a stable seed per file name.
fn name_hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

// ---- the game files -------------------------------------------------------------------

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

/// What `parse_move` does to a text before it looks for the move: white space and the
/// `-` or `x` between two squares (`g1-g2`, `f12xg12`) dropped, then lower case. A
/// copy of `normalise` in `src/engine/notation.rs`, so that every text of a position can
/// be read back against the move list in hand; `parse_move` itself is checked on some
/// moves of every position, so the copy cannot drift unseen.
fn normalised(text: &str) -> String {
    let t: String = text.split_whitespace().collect();
    let t = if t.contains('@') { t } else { t.to_lowercase() };
    let chars: Vec<char> = t.chars().collect();
    let mut out = String::with_capacity(chars.len());
    for (i, &c) in chars.iter().enumerate() {
        let between_squares = i > 0
            && chars[i - 1].is_ascii_digit()
            && chars.get(i + 1).is_some_and(char::is_ascii_alphabetic);
        if (c == '-' || c == 'x') && between_squares {
            continue;
        }
        out.push(c);
    }
    out.to_lowercase()
}

/// Checks every legal move of the position; `Err` names the first broken invariant.
/// `played` is the index of the move the game goes on with; `rng` picks which moves
/// `parse_move` reads back.
fn check_ply(
    pos: &mut Position,
    moves: &[Move],
    played: usize,
    rng: &mut Rng,
) -> Result<(), (Option<String>, String)> {
    let rules = Arc::clone(pos.rules());
    let before_fen = pos.fen();
    let before_hash = pos.hash();
    let mover = pos.side_to_move();

    // The tactical moves (quiescence search's) are the pseudo-legal moves that
    // capture or promote, in the same order.
    let mut pseudo = Vec::new();
    pos.pseudo_moves(&mut pseudo);
    pseudo.retain(|&m| pos.is_tactical(m));
    let mut tactical = Vec::new();
    pos.tactical_moves(&mut tactical);
    if tactical != pseudo {
        return Err((
            None,
            format!(
                "the tactical moves {tactical:?} are not the capturing and promoting ones {pseudo:?}"
            ),
        ));
    }

    // Move texts: distinct (ignoring case, as `parse_move` does), and each reads back
    // to its move. `parse_move` regenerates the legal moves and the text of each, so
    // reading every text with it would cost as much as all the other checks (see the
    // header): every text is read back against the list in hand (what `parse_move` does, with
    // the copy of its normalisation above), and `parse_move` itself reads back the
    // move played and a random one of each kind of move (kind and new face) present.
    let texts: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
    let mut by_text: HashMap<String, usize> = HashMap::with_capacity(moves.len());
    for (i, text) in texts.iter().enumerate() {
        if let Some(&j) = by_text.get(&text.to_lowercase()) {
            return Err((
                Some(text.clone()),
                format!(
                    "two legal moves share the text `{text}` (`{}`): {:?} and {:?}",
                    texts[j], moves[j], moves[i]
                ),
            ));
        }
        by_text.insert(text.to_lowercase(), i);
    }
    for (i, text) in texts.iter().enumerate() {
        match by_text.get(&normalised(text)) {
            Some(&j) if j == i => {}
            Some(&j) => {
                return Err((
                    Some(text.clone()),
                    format!(
                        "`{text}` reads back as {:?}, not as its move {:?}",
                        moves[j], moves[i]
                    ),
                ));
            }
            None => {
                return Err((
                    Some(text.clone()),
                    format!("`{text}` does not read back as a legal move"),
                ));
            }
        }
    }
    // One random move of each kind (reservoir sampling), and the move played.
    let mut kinds: HashMap<(MoveKind, u8), (usize, usize)> = HashMap::new();
    for (i, m) in moves.iter().enumerate() {
        let (seen, pick) = kinds.entry((m.kind, m.promo)).or_insert((0, i));
        *seen += 1;
        if rng.below(*seen) == 0 {
            *pick = i;
        }
    }
    let mut sampled: Vec<usize> = kinds.values().map(|&(_, i)| i).collect();
    sampled.push(played);
    for i in sampled {
        let (m, text) = (moves[i], &texts[i]);
        match pos.parse_move(text) {
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

    // After each unmake the position must be exactly the one before. The hash (kept
    // and recomputed from scratch), the board, the clock and the ply are compared
    // after every move; the position string, which costs as much as a third of all
    // these checks, is compared after the last move. A difference an unmake leaves is
    // carried along by the make and unmake of the later moves (each records and puts
    // back what it found), so that comparison sees it; the moves are then replayed on
    // a copy, comparing the string after each, to name the move.
    let before_board = pos.board().to_vec();
    let before_clock = pos.halfmove_clock();
    let before_ply = pos.ply();
    let pristine = pos.clone();
    // Under a `facing` rule, a pass is legal in check while the pieces face.
    let facing = pos.facing_now().is_some();
    for i in played_through(moves.len(), played, rng) {
        let (m, text) = (moves[i], &texts[i]);
        let fail = |what: String| Err((Some(text.clone()), what));
        pos.make(m);
        // A move that wins at once (blowing up the enemy king) may leave one's own
        // attacked.
        if pos.in_check(mover)
            && !(facing && m.kind == MoveKind::Pass)
            && pos.outcome().is_none_or(|e| e.winner != Some(mover))
        {
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
        if pos.hash() != before_hash || pos.compute_hash() != before_hash {
            return fail(format!(
                "after unmake the hash is {:#x}, computed from scratch {:#x}, before the move {before_hash:#x}; the position string is {:?}",
                pos.hash(),
                pos.compute_hash(),
                pos.fen()
            ));
        }
        if pos.board() != before_board
            || pos.halfmove_clock() != before_clock
            || pos.ply() != before_ply
        {
            return fail(format!(
                "after unmake the position string is {:?} (ply {}, before {before_ply})",
                pos.fen(),
                pos.ply()
            ));
        }
    }
    if pos.fen() != before_fen {
        let mut copy = pristine;
        for (&m, text) in moves.iter().zip(&texts) {
            copy.make(m);
            copy.unmake();
            if copy.fen() != before_fen {
                return Err((
                    Some(text.clone()),
                    format!("after unmake the position string is {:?}", copy.fen()),
                ));
            }
        }
        return Err((
            None,
            format!(
                "after making and unmaking every legal move in turn the position string is {:?} (no single move changes it)",
                pos.fen()
            ),
        ));
    }
    Ok(())
}

/// The most moves of one position played through in full (make, the checks, unmake):
/// where moves have a second part (an arrow, the duck) a position has thousands, each
/// first part with every square of its second, and playing all of them out would take
/// the run's whole time for those games alone.
const MAX_PLAYED_THROUGH: usize = 256;

/// Files whose start position has more legal moves than [`MAX_PLAYED_THROUGH`] (every
/// move with a second part: arrows, the duck) play this share of the games: each of
/// their plies checks hundreds of move texts, and their games are long.
const HEAVY_SHARE: usize = 10;

/// The games one file plays of a run's `games`.
fn games_of(rules: &Arc<Rules>, games: usize) -> usize {
    let heavy = Position::start(Arc::clone(rules)).legal_moves().len() > MAX_PLAYED_THROUGH;
    if heavy {
        (games / HEAVY_SHARE).max(1)
    } else {
        games
    }
}

/// The indices of the moves played through: all of them, or beyond
/// [`MAX_PLAYED_THROUGH`] a random sample of that many with the move played.
fn played_through(len: usize, played: usize, rng: &mut Rng) -> Vec<usize> {
    if len <= MAX_PLAYED_THROUGH {
        return (0..len).collect();
    }
    let mut picked: Vec<usize> = (0..MAX_PLAYED_THROUGH - 1)
        .map(|_| rng.below(len))
        .chain(std::iter::once(played))
        .collect();
    picked.sort_unstable();
    picked.dedup();
    picked
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
    // Picks the moves `parse_move` reads back; apart from `rng` so that the games
    // stay those of the same seed whatever is sampled.
    let mut samples = Rng::new(rng.0.rotate_left(17) ^ 0x5851_F42D_4C95_7F2D);
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
        let moves = pos.legal_moves();
        // The test without the list (first part by first part where moves have a
        // second part) agrees with the list, ended games included.
        if pos.has_legal_moves() == moves.is_empty() {
            return Err(failure(
                ply,
                pos.fen(),
                None,
                format!(
                    "has_legal_moves says {} with {} legal moves",
                    moves.is_empty(),
                    moves.len()
                ),
            ));
        }
        if pos.outcome().is_some() {
            return Ok((ply, checked, true));
        }
        let played = rng.below(moves.len());
        let fen = pos.fen();
        // Run the checks under `catch_unwind` so that a panic is reported with where
        // it happened.
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            check_ply(&mut pos, &moves, played, &mut samples)
        }));
        match result {
            Ok(Ok(())) => {}
            Ok(Err((mv, what))) => return Err(failure(ply, fen, mv, what)),
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<&str>()
                    .map(std::string::ToString::to_string)
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "<non-string panic>".into());
                return Err(failure(ply, fen, None, format!("panic: {msg}")));
            }
        }
        checked += moves.len();
        pos.make(moves[played]);
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
        .chain(common::var_files("tests/move_texts"))
        .filter(|p| only.is_empty() || only.iter().any(|o| short_name(p).contains(o.as_str())))
        .collect();
    assert!(!files.is_empty(), "no game file selected");
    let loaded: Vec<(String, Arc<Rules>)> =
        files.iter().map(|p| (short_name(p), load(p))).collect();

    // Work in chunks of games, taken in turn by the threads.
    const CHUNK: usize = 10;
    let counts: Vec<usize> = loaded.iter().map(|(_, r)| games_of(r, games)).collect();
    let work: Vec<(usize, std::ops::Range<usize>)> = (0..loaded.len())
        .flat_map(|i| {
            let n = counts[i];
            (0..n)
                .step_by(CHUNK)
                .map(move |a| (i, a..(a + CHUNK).min(n)))
        })
        .collect();
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
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
    for (((name, _), s), &n) in loaded.iter().zip(&stats).zip(&counts) {
        assert_eq!(s.games, n, "{name}: played {} of {n} games", s.games);
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
