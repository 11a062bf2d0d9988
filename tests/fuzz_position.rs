//! Robustness: whatever position string or move text it is given, the library reports
//! an error or gives a sound position, and never panics.
//!
//! A seeded, hand-rolled mutator (every case is reproducible from its seed), like
//! `tests/fuzz_checker.rs` does for rule files, takes valid position strings of every
//! shipped game (`variants/*.var` and `examples/*.var`: the start position and positions
//! met in random games) and applies one to three random mutations: characters flipped,
//! deleted or inserted, numbers inflated to huge values (`18446744073709551617`), the
//! text truncated, a part duplicated, fields replaced, added, swapped or dropped,
//! random hands, ranks and counters. Each mutant goes through `Position::from_fen`:
//! an error must point inside the text, on character boundaries; a position must give
//! a position string that reads back to itself with the same hash. Then random move
//! texts (legal moves' texts, altered, and random ones) go through `parse_move` and
//! `play`; a move played must leave a position whose string reads back, and `unmake`
//! must restore it.
//!
//! Environment: `VARSAND_FUZZ_POSITION_CASES` (default 100000) sets the number of cases,
//! `VARSAND_FUZZ_SEED` (default 0) varies them, `VARSAND_FUZZ_STRICT=1` makes the
//! known bugs listed in [`KNOWN_BUGS`] fail the test too.

mod common;
use common::{CAPTURE, Rng, game_files, install_hook};

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Instant;

use varsand::engine::FenError;
use varsand::{Position, Rules, load_rules};

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

// ---- what mutations insert ------------------------------------------------------------

#[rustfmt::skip]
const NUMBERS: &[&str] = &[
    "0", "00", "1", "01", "2", "9", "10", "12", "63", "64", "65", "255", "256", "999999",
    "1000000", "1000001", "-1", "-0", "+1", "-1000000", "-1000001", "65535", "65536",
    "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
    "4294967297", "9223372036854775807", "9223372036854775808", "18446744073709551615",
    "18446744073709551616", "18446744073709551617", "99999999999999999999999999999", "1e3",
    "0x10",
];
#[rustfmt::skip]
const FIELDS: &[&str] = &[
    "-", "w", "b", "r", "W", "KQkq", "K", "q", "KKKK", "e3", "e6", "a1", "h8", "c100d", "z99",
    "a0", "a18446744073709551617", "0", "1", "18446744073709551617", "swapped", "swapped",
    "off=", "off=K", "off=Kk", "off=é", "fists=2/0", "fists=0/0", "fists=-1/1",
    "fists=1000000/-1000000", "fists=1000001/0", "fists=0/-1000001",
    "fists=18446744073709551617/0", "fists=2147483648/1", "fists=1", "fists=/", "fists=a/b",
    "x=1/2", "=", "=/", "/", "|", "[", "]", "[]", "[P]", "[PPP]", "[3P2p]", "[0P]", "[3]",
    "[64P]", "[63P]", "[63P1P]", "[18446744073709551617P]", "[18446744073709551616p]",
    "[é]", "Q(300)", "Q(0)", "Q(-1)", "Q(height)", "Q(~)", "Q(#,2)", "Q(", "Q()", "Q(,)",
    "8/8/8/8/8/8/8/8", "18446744073709551617/8", "é", "\u{0}", "𝄞",
];
#[rustfmt::skip]
const CHARS: &[char] = &[
    '0', '1', '2', '8', '9', '/', '|', '[', ']', '(', ')', ',', '=', '-', '+', ' ', ' ', '~', '#',
    '*', '@', '!', '.', 'w', 'b', 'x', 'é', 'ß', '€', '𝄞', '\u{0}', '\t', '\n', '\u{301}',
];

/// The characters a mutation draws from: the fixed ones, and the game's own letters.
fn alphabet(rules: &Rules) -> Vec<char> {
    let mut chars: Vec<char> = CHARS.to_vec();
    for p in rules.pieces() {
        chars.push(p.letter);
        chars.push(p.letter.to_ascii_lowercase());
    }
    for t in rules.terrains() {
        chars.push(t.letter);
    }
    for c in rules.castlings() {
        chars.push(c.letter);
    }
    for p in rules.players() {
        chars.push(p.letter);
    }
    chars
}

/// A random text for a field of the position string.
fn random_field(rng: &mut Rng, rules: &Rules, alphabet: &[char], others: &[String]) -> String {
    match rng.below(6) {
        0 | 1 => rng.pick(FIELDS).to_string(),
        2 => {
            // A counter of the game, with random values.
            let name = rules
                .counters()
                .get(rng.below(rules.counters().len().max(1)))
                .cloned()
                .unwrap_or_else(|| "fists".into());
            format!("{name}={}/{}", rng.pick(NUMBERS), rng.pick(NUMBERS))
        }
        3 => {
            // A field of another position string of the game.
            let other = &others[rng.below(others.len())];
            let fields: Vec<&str> = other.split(' ').collect();
            fields[rng.below(fields.len())].to_string()
        }
        4 => rng.pick(NUMBERS).to_string(),
        _ => (0..=rng.below(6))
            .map(|_| rng.pick_char(alphabet))
            .collect(),
    }
}

/// A random hand: letters, some after counts.
fn random_hand(rng: &mut Rng, rules: &Rules) -> String {
    let mut s = String::from("[");
    for _ in 0..rng.below(6) {
        if rng.chance(40) {
            s += rng.pick(NUMBERS);
        }
        let p = &rules.pieces()[rng.below(rules.pieces().len())];
        s.push(if rng.chance(50) {
            p.letter
        } else {
            p.letter.to_ascii_lowercase()
        });
    }
    if rng.chance(90) {
        s.push(']');
    }
    s
}

// ---- mutations ------------------------------------------------------------------------

/// Byte offsets of the character boundaries of `text`, its end included.
fn boundaries(text: &str) -> Vec<usize> {
    text.char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(text.len()))
        .collect()
}

/// A random character boundary of `text`.
fn boundary(rng: &mut Rng, text: &str) -> usize {
    let b = boundaries(text);
    b[rng.below(b.len())]
}

/// A random range of `text` on character boundaries, `a <= b`.
fn range(rng: &mut Rng, text: &str) -> (usize, usize) {
    let (x, y) = (boundary(rng, text), boundary(rng, text));
    (x.min(y), x.max(y))
}

/// The (start, end) byte ranges of the runs of ASCII digits in `text`.
fn digit_runs(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut runs = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let a = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            runs.push((a, i));
        } else {
            i += 1;
        }
    }
    runs
}

/// Applies one random mutation to a position string.
fn mutate(rng: &mut Rng, text: &mut String, rules: &Rules, alphabet: &[char], others: &[String]) {
    let fields = |t: &str| -> Vec<String> { t.split(' ').map(String::from).collect() };
    match rng.below(13) {
        // Flip a character.
        0 | 1 => {
            let b = boundaries(text);
            if b.len() > 1 {
                let i = rng.below(b.len() - 1);
                let c = rng.pick_char(alphabet).to_string();
                text.replace_range(b[i]..b[i + 1], &c);
            }
        }
        // Inflate (or shrink) a number.
        2 | 3 => {
            let runs = digit_runs(text);
            let n = rng.pick(NUMBERS);
            if runs.is_empty() || rng.chance(15) {
                let at = boundary(rng, text);
                text.insert_str(at, n);
            } else {
                let (a, b) = runs[rng.below(runs.len())];
                text.replace_range(a..b, n);
            }
        }
        // Truncate.
        4 => {
            let at = boundary(rng, text);
            text.truncate(at);
        }
        // Duplicate a part.
        5 => {
            let (a, b) = range(rng, text);
            let part = text[a..b].to_string();
            let at = if rng.chance(50) {
                b
            } else {
                boundary(rng, text)
            };
            text.insert_str(at, &part);
        }
        // Delete a part.
        6 => {
            let (a, b) = range(rng, text);
            let b = if b - a > 8 && rng.chance(70) {
                a + text[a..]
                    .chars()
                    .take(1 + rng.below(3))
                    .map(char::len_utf8)
                    .sum::<usize>()
            } else {
                b
            };
            text.replace_range(a..b, "");
        }
        // Insert characters.
        7 => {
            let at = boundary(rng, text);
            let s: String = (0..=rng.below(3))
                .map(|_| rng.pick_char(alphabet))
                .collect();
            text.insert_str(at, &s);
        }
        // Replace a field.
        8 => {
            let mut f = fields(text);
            let i = rng.below(f.len());
            f[i] = random_field(rng, rules, alphabet, others);
            *text = f.join(" ");
        }
        // Add a field, usually at the end.
        9 => {
            let mut f = fields(text);
            let i = if rng.chance(70) {
                f.len()
            } else {
                rng.below(f.len() + 1)
            };
            f.insert(i, random_field(rng, rules, alphabet, others));
            *text = f.join(" ");
        }
        // Swap two fields, or drop one.
        10 => {
            let mut f = fields(text);
            let (i, j) = (rng.below(f.len()), rng.below(f.len()));
            if rng.chance(60) {
                f.swap(i, j);
            } else {
                f.remove(i);
            }
            *text = f.join(" ");
        }
        // A random hand after the boards.
        11 => {
            let mut f = fields(text);
            let board = f[0].split('[').next().unwrap_or("").to_string();
            f[0] = board + &random_hand(rng, rules);
            *text = f.join(" ");
        }
        // Replace a rank (or a side board) with a random one.
        _ => {
            let mut f = fields(text);
            let sep = if rng.chance(80) { '/' } else { '|' };
            let mut parts: Vec<String> = f[0].split(sep).map(String::from).collect();
            let i = rng.below(parts.len());
            parts[i] = (0..=rng.below(10))
                .map(|_| {
                    if rng.chance(30) {
                        rng.pick(NUMBERS).to_string()
                    } else {
                        rng.pick_char(alphabet).to_string()
                    }
                })
                .collect();
            f[0] = parts.join(&sep.to_string());
            *text = f.join(" ");
        }
    }
}

/// Random move texts for a position: legal moves' texts, altered, and random texts.
fn random_move_text(rng: &mut Rng, pos: &mut Position, alphabet: &[char]) -> String {
    let moves = pos.legal_moves();
    let geo = &pos.rules().geometry();
    let square = |rng: &mut Rng| -> String {
        if rng.chance(85) && !geo.cells.is_empty() {
            geo.name(varsand::rules::Cell::new(rng.below(geo.cells.len())))
                .to_string()
        } else {
            rng.pick(&[
                "a0",
                "z99",
                "a18446744073709551617",
                "i9",
                "m13",
                "c100",
                "c100x",
                "",
                "é4",
                "a-1",
            ])
            .to_string()
        }
    };
    let letter = |rng: &mut Rng| -> char {
        let p = &pos.rules().pieces();
        let l = p[rng.below(p.len())].letter;
        if rng.chance(50) {
            l
        } else {
            l.to_ascii_lowercase()
        }
    };
    match rng.below(8) {
        0..=2 if !moves.is_empty() => {
            let mut t = pos.move_text(moves[rng.below(moves.len())]);
            match rng.below(8) {
                0 => t = t.to_uppercase(),
                1 => {
                    // A separator between the squares.
                    if let Some(i) = t.char_indices().skip(1).find_map(|(i, c)| {
                        (c.is_ascii_alphabetic() && t[..i].ends_with(|d: char| d.is_ascii_digit()))
                            .then_some(i)
                    }) {
                        t.insert(i, if rng.chance(50) { '-' } else { 'x' });
                    }
                }
                2 => t.push(letter(rng)),
                3 => t = format!("  {t} "),
                4 => t.push('!'),
                5 => {
                    let at = boundary(rng, &t);
                    t.truncate(at);
                }
                6 => {
                    let at = boundary(rng, &t);
                    t.insert(at, rng.pick_char(alphabet));
                }
                _ => {}
            }
            t
        }
        3 => format!("{}{}", square(rng), square(rng)),
        4 => format!("{}@{}", letter(rng), square(rng)),
        5 => rng
            .pick(&[
                "swap", "SWAP", "", " ", "-", "x", "@", "!", "off", "e2off", "0000", "é", "𝄞",
            ])
            .to_string(),
        6 => format!("{}off", square(rng)),
        _ => {
            let n = if rng.chance(5) {
                5000
            } else {
                1 + rng.below(8)
            };
            (0..n).map(|_| rng.pick_char(alphabet)).collect()
        }
    }
}

// ---- running a case -------------------------------------------------------------------

/// Runs `f`, catching a panic: `Err("file:line: message")`.
fn catching<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    CAPTURE.with(|c| *c.borrow_mut() = Some(None));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    let captured = CAPTURE.with(|c| c.borrow_mut().take()).flatten();
    result.map_err(|_| captured.unwrap_or_else(|| "<panic>".into()))
}

/// Checks that an error points inside the text, on character boundaries, and says
/// something.
fn check_error(text: &str, e: &FenError) -> Result<(), String> {
    let end = e.offset.checked_add(e.len);
    if end.is_none_or(|end| end > text.len()) {
        return Err(format!(
            "error `{}` at {}+{} lies outside the text ({} bytes)",
            e.message,
            e.offset,
            e.len,
            text.len()
        ));
    }
    let end = e.offset + e.len;
    if !text.is_char_boundary(e.offset) || !text.is_char_boundary(end) {
        return Err(format!(
            "error `{}` at {}+{} splits a character",
            e.message, e.offset, e.len
        ));
    }
    if e.message.is_empty() || e.help.is_empty() {
        return Err(format!("error without message or help: {e:?}"));
    }
    Ok(())
}

/// Checks that a position's string reads back to itself, with the same hash.
fn check_round_trip(rules: &Arc<Rules>, pos: &Position) -> Result<(), String> {
    if pos.compute_hash() != pos.hash() {
        return Err(format!(
            "hash {:#x}, computed from scratch {:#x}",
            pos.hash(),
            pos.compute_hash()
        ));
    }
    let fen = pos.fen();
    match Position::from_fen(Arc::clone(rules), &fen) {
        Ok(back) if back.fen() == fen && back.hash() == pos.hash() => Ok(()),
        Ok(back) => Err(format!(
            "the position string {fen:?} reads back as {:?} (hash {:#x}, was {:#x})",
            back.fen(),
            back.hash(),
            pos.hash()
        )),
        Err(e) => Err(format!(
            "the position string {fen:?} does not read back: {e}"
        )),
    }
}

/// What went wrong in a case: a panic or a broken check, and the move text if a move
/// was being tried.
#[derive(Debug, Clone, PartialEq)]
struct Trouble {
    what: String,
    mv: Option<String>,
}

/// Reads a mutant; on success checks it and tries `moves` random move texts on it.
/// `Ok(true)` if the mutant loaded.
fn run_case(
    rules: &Arc<Rules>,
    text: &str,
    rng: &mut Rng,
    moves: usize,
    alphabet: &[char],
) -> Result<bool, Trouble> {
    let trouble = |what: String, mv: Option<String>| Trouble { what, mv };
    let loaded = catching(|| Position::from_fen(Arc::clone(rules), text))
        .map_err(|p| trouble(format!("from_fen panics: {p}"), None))?;
    let mut pos = match loaded {
        Ok(pos) => pos,
        Err(e) => {
            check_error(text, &e).map_err(|w| trouble(w, None))?;
            return Ok(false);
        }
    };
    catching(|| check_round_trip(rules, &pos))
        .map_err(|p| trouble(format!("panic: {p}"), None))?
        .map_err(|w| trouble(w, None))?;
    // Numbers are range-checked, never wrapped: no number of a position string that
    // loads is above 1,000,000 (board widths, heights, hands, clocks and counters are
    // all smaller).
    if let Some(n) = digit_runs(text)
        .into_iter()
        .map(|(a, b)| &text[a..b])
        .find(|d| d.trim_start_matches('0').len() > 7 || d.parse::<u64>().unwrap() > 1_000_000)
    {
        return Err(trouble(
            format!("a number above 1000000 was accepted: {n}"),
            None,
        ));
    }
    for _ in 0..moves {
        let mv = catching(|| random_move_text(rng, &mut pos, alphabet))
            .map_err(|p| trouble(format!("panic listing the moves: {p}"), None))?;
        let before = (pos.fen(), pos.hash());
        let play = rng.chance(50);
        let result = catching(|| {
            if play {
                let mover = pos.side_to_move();
                // Under a `facing` rule, a pass is legal in check while the pieces face.
                let facing = pos.facing_now().is_some();
                if pos.play(&mv).is_ok() {
                    let excused = facing
                        && pos
                            .last_move()
                            .is_some_and(|m| m.kind == varsand::engine::MoveKind::Pass);
                    // A move that wins on the spot (where captures explode, one that
                    // blows up the opponent's royal piece) may leave the mover's own
                    // attacked.
                    if pos.in_check(mover)
                        && !excused
                        && pos.outcome().is_none_or(|e| e.winner != Some(mover))
                    {
                        return Err("the move leaves a royal piece of the mover attacked".into());
                    }
                    check_round_trip(rules, &pos)?;
                    pos.unmake();
                    if (pos.fen(), pos.hash()) != before {
                        return Err(format!(
                            "unmake gives {:?} (hash {:#x})",
                            pos.fen(),
                            pos.hash()
                        ));
                    }
                }
            } else if let Ok(m) = pos.parse_move(&mv) {
                let text = pos.move_text(m);
                if pos.parse_move(&text) != Ok(m) {
                    return Err(format!("`{text}` does not parse back to its move"));
                }
            }
            Ok(())
        });
        match result {
            Ok(Ok(())) => {}
            Ok(Err(w)) => return Err(trouble(w, Some(mv))),
            Err(p) => {
                let verb = if play { "play" } else { "parse_move" };
                return Err(trouble(format!("{verb} panics: {p}"), Some(mv)));
            }
        }
    }
    Ok(true)
}

/// Known bugs outside the position reader that the fuzz run tolerates (unless
/// `VARSAND_FUZZ_STRICT=1`): a name, and whether a trouble on a text is that bug.
/// Each has a reproducer test at the end of the file. None is known today.
const KNOWN_BUGS: &[(&str, IsBug)] = &[];

/// Whether a trouble (on a game file and position string) is a given bug.
type IsBug = fn(file: &str, text: &str, trouble: &Trouble) -> bool;

fn known_bug(file: &str, text: &str, trouble: &Trouble) -> Option<&'static str> {
    KNOWN_BUGS
        .iter()
        .find(|(_, is)| is(file, text, trouble))
        .map(|(name, _)| *name)
}

/// Shrinks a position string that goes wrong (without a move) to a shorter one that
/// goes wrong the same way, a character at a time.
fn minimize(rules: &Arc<Rules>, text: &str, trouble: &Trouble, alphabet: &[char]) -> String {
    if trouble.mv.is_some() {
        return text.to_string();
    }
    let same = |t: &str| {
        run_case(rules, t, &mut Rng::new(0), 0, alphabet)
            .err()
            .as_ref()
            == Some(trouble)
    };
    let mut best = text.to_string();
    let mut budget = 5000;
    loop {
        let before = best.len();
        let mut i = 0;
        while budget > 0 {
            let b = boundaries(&best);
            if i + 1 >= b.len() {
                break;
            }
            let candidate = format!("{}{}", &best[..b[i]], &best[b[i + 1]..]);
            budget -= 1;
            if same(&candidate) {
                best = candidate;
            } else {
                i += 1;
            }
        }
        if best.len() == before || budget == 0 {
            return best;
        }
    }
}

// ---- the seeds ------------------------------------------------------------------------

/// One game file: its rules, valid position strings of it, and its mutation alphabet.
struct Game {
    name: String,
    rules: Arc<Rules>,
    fens: Vec<String>,
    alphabet: Vec<char>,
}

/// The start position and positions from a few random games, every few plies.
fn sample_fens(rules: &Arc<Rules>, seed: u64) -> Vec<String> {
    let mut fens = vec![Position::start(Arc::clone(rules)).fen()];
    for game in 0..4u64 {
        let mut rng = Rng::new(seed ^ game.wrapping_mul(0x9FB2_1C65_1E98_DF25));
        let mut pos = Position::start(Arc::clone(rules));
        for ply in 0..120 {
            if pos.outcome().is_some() {
                break;
            }
            let moves = pos.legal_moves();
            pos.make(moves[rng.below(moves.len())]);
            if ply % 7 == 0 {
                fens.push(pos.fen());
            }
        }
        fens.push(pos.fen());
    }
    fens.dedup();
    fens
}

fn games() -> Vec<Game> {
    game_files()
        .iter()
        .map(|path| {
            let name = path
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap_or(path)
                .display()
                .to_string();
            let text = std::fs::read_to_string(path).expect("readable game file");
            let rules = load_rules(&text).unwrap_or_else(|_| panic!("{name} does not load"));
            let fens = sample_fens(&rules, name_hash(&name));
            let alphabet = alphabet(&rules);
            Game {
                name,
                rules,
                fens,
                alphabet,
            }
        })
        .collect()
}

// ---- the fuzz run ---------------------------------------------------------------------

#[derive(Debug, Default)]
struct Tally {
    cases: usize,
    loaded: usize,
    known: Vec<(&'static str, usize, String)>,
    /// Distinct troubles: (trouble, game file, case, text).
    failures: Vec<(Trouble, usize, usize, String)>,
}

/// Runs the cases `cases` of one game file.
fn fuzz_game(
    game: &Game,
    gi: usize,
    cases: std::ops::Range<usize>,
    base_seed: u64,
    strict: bool,
    tally: &mut Tally,
) {
    for case in cases {
        let mut rng = Rng::new(
            name_hash(&game.name)
                ^ base_seed.wrapping_mul(0xA24B_AED4_963E_E407)
                ^ (case as u64).wrapping_mul(0x9FB2_1C65_1E98_DF25),
        );
        let mut text = game.fens[rng.below(game.fens.len())].clone();
        // A few cases keep the text valid, so that move texts meet sound positions.
        if rng.chance(92) {
            for _ in 0..=rng.below(3) {
                mutate(&mut rng, &mut text, &game.rules, &game.alphabet, &game.fens);
            }
        }
        let moves = rng.below(4);
        let outcome = run_case(&game.rules, &text, &mut rng, moves, &game.alphabet);
        tally.cases += 1;
        match outcome {
            Ok(loaded) => tally.loaded += usize::from(loaded),
            Err(trouble) => match known_bug(&game.name, &text, &trouble).filter(|_| !strict) {
                Some(bug) => match tally.known.iter_mut().find(|k| k.0 == bug) {
                    Some(k) => k.1 += 1,
                    None => tally.known.push((bug, 1, text)),
                },
                None => {
                    // One failure per game file and kind of trouble: the text without
                    // its numbers and quoted parts.
                    let key = |t: &Trouble| {
                        t.what
                            .split(['"', '`'])
                            .step_by(2)
                            .collect::<String>()
                            .replace(|c: char| c.is_ascii_digit(), "")
                    };
                    if !tally
                        .failures
                        .iter()
                        .any(|f| f.1 == gi && key(&f.0) == key(&trouble))
                    {
                        tally.failures.push((trouble, gi, case, text));
                    }
                }
            },
        }
    }
}

#[test]
fn mutated_position_strings_and_move_texts_never_panic() {
    install_hook();
    let total = env_usize("VARSAND_FUZZ_POSITION_CASES", 100_000);
    let base_seed = env_usize("VARSAND_FUZZ_SEED", 0) as u64;
    let strict = std::env::var("VARSAND_FUZZ_STRICT").is_ok_and(|v| v == "1");
    let games = games();
    assert!(!games.is_empty(), "no game files");
    let per = total.div_ceil(games.len());
    const CHUNK: usize = 500;
    let work: Vec<(usize, std::ops::Range<usize>)> = (0..games.len())
        .flat_map(|i| {
            (0..per)
                .step_by(CHUNK)
                .map(move |a| (i, a..(a + CHUNK).min(per)))
        })
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    let started = Instant::now();
    let tallies: Vec<Tally> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut tally = Tally::default();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((i, cases)) = work.get(k) else { break };
                        fuzz_game(&games[*i], *i, cases.clone(), base_seed, strict, &mut tally);
                    }
                    tally
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("fuzz thread"))
            .collect()
    });

    let mut all = Tally::default();
    for t in tallies {
        all.cases += t.cases;
        all.loaded += t.loaded;
        for k in t.known {
            match all.known.iter_mut().find(|x| x.0 == k.0) {
                Some(x) => x.1 += k.1,
                None => all.known.push(k),
            }
        }
        all.failures.extend(t.failures);
    }
    eprintln!(
        "fuzz: {} position strings from {} game files ({} seed positions) in {:.1?} on {threads} threads; {} loaded",
        all.cases,
        games.len(),
        games.iter().map(|g| g.fens.len()).sum::<usize>(),
        started.elapsed(),
        all.loaded
    );
    for (bug, count, example) in &all.known {
        eprintln!("fuzz: known bug hit {count} times: {bug}\n  example: {example:?}");
    }
    assert!(
        all.cases >= total,
        "ran {} cases, wanted {total}",
        all.cases
    );
    // Some mutants must load, or the move texts meet no position.
    assert!(
        all.loaded * 20 >= all.cases,
        "only {} of {} mutants loaded",
        all.loaded,
        all.cases
    );

    if !all.failures.is_empty() {
        all.failures.sort_by_key(|f| (f.1, f.2));
        let mut report = format!("{} distinct trouble(s):\n", all.failures.len());
        for (trouble, gi, case, text) in &all.failures {
            let g = &games[*gi];
            let small = minimize(&g.rules, text, trouble, &g.alphabet);
            report += &format!(
                "\n== {}: {}\n   case {case} (VARSAND_FUZZ_SEED={base_seed})\n   position: {text:?}\n",
                g.name, trouble.what
            );
            if let Some(mv) = &trouble.mv {
                report += &format!("   move: {mv:?}\n");
            } else if small != *text {
                report += &format!("   minimal: {small:?}\n");
            }
        }
        panic!("{report}");
    }
}

// ---- reproducers of bugs found ----------------------------------------------------------

fn rules_of(file: &str) -> Arc<Rules> {
    common::rules(file)
}

/// Reads a position string that must be refused; checks the error's span and returns
/// the error with the underlined text.
fn refused(rules: &Arc<Rules>, fen: &str) -> (FenError, String) {
    let e = match Position::from_fen(Arc::clone(rules), fen) {
        Ok(pos) => panic!("{fen:?} loads, as {:?}", pos.fen()),
        Err(e) => e,
    };
    if let Err(w) = check_error(fen, &e) {
        panic!("{fen:?}: {w}");
    }
    let under = fen[e.offset..e.offset + e.len].to_string();
    (e, under)
}

const CHESS_BOARD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

/// Once a bug: the count of pieces in hand overflowed and wrapped, so that
/// `[18446744073709551617P]` (2^64 + 1) loaded as one pawn.
#[test]
fn hand_counts_are_range_checked() {
    let rules = rules_of("variants/chess.var");
    let pawn = rules.pieces().iter().position(|p| p.letter == 'P').unwrap();
    for count in [
        "18446744073709551617",
        "18446744073709551616",
        "4294967297",
        "65537",
        "4097",
    ] {
        let (e, under) = refused(&rules, &format!("{CHESS_BOARD}[{count}P] w - - 0 1"));
        assert!(e.message.contains("more than 4096"), "{count}: {e:?}");
        assert!(e.help.contains("4096"), "{count}: {e:?}");
        assert_eq!(under, format!("{count}P"));
    }
    // 4096 is the most; counts and letters add up.
    for hand in ["[4096P]", "[4095PP]", "[4000P96P]"] {
        let pos = Position::from_fen(
            Arc::clone(&rules),
            &format!("{CHESS_BOARD}{hand} w - - 0 1"),
        )
        .unwrap_or_else(|e| panic!("{hand}: {e}"));
        assert_eq!(pos.in_hand(varsand::ids::Side::First, pawn), 4096, "{hand}");
    }
    for hand in ["[4096PP]", "[P4096P]", "[2048P2049P]"] {
        let (e, _) = refused(&rules, &format!("{CHESS_BOARD}{hand} w - - 0 1"));
        assert!(e.message.contains("more than 4096"), "{hand}: {e:?}");
    }
    // A count of 0 and a count without a piece are mistakes, not one piece or none.
    let (e, under) = refused(&rules, &format!("{CHESS_BOARD}[0P] w - - 0 1"));
    assert!(e.message.contains("count of 0"), "{e:?}");
    assert_eq!(under, "0");
    let (e, under) = refused(&rules, &format!("{CHESS_BOARD}[P12] w - - 0 1"));
    assert!(e.message.contains("not followed by a piece"), "{e:?}");
    assert_eq!(under, "12");
}

/// Counters take whole numbers from -1000000 to 1000000.
#[test]
fn counters_are_range_checked() {
    let rules = rules_of("variants/monkey_king.var");
    let fists = rules.counters().iter().position(|c| c == "fists").unwrap();
    let at =
        |values: &str| format!("5/5/5/5/5/5/5/5|2|2[PPPNLLCIpppnlvck] b - - 0 1 fists={values}");
    for (values, red, blue) in [
        ("1000000/-1000000", 1_000_000, -1_000_000),
        ("+3/-0", 3, 0),
        ("0/7", 0, 7),
    ] {
        let pos = Position::from_fen(Arc::clone(&rules), &at(values))
            .unwrap_or_else(|e| panic!("{values}: {e}"));
        assert_eq!(
            (
                pos.counter(varsand::ids::Side::First, fists),
                pos.counter(varsand::ids::Side::Second, fists)
            ),
            (red, blue)
        );
        assert_eq!(
            Position::from_fen(Arc::clone(&rules), &pos.fen())
                .unwrap()
                .fen(),
            pos.fen()
        );
    }
    for (values, bad) in [
        ("1000001/0", "1000001"),
        ("0/-1000001", "-1000001"),
        ("2147483648/0", "2147483648"),
        ("0/18446744073709551615", "18446744073709551615"),
        ("18446744073709551617/0", "18446744073709551617"),
        ("-99999999999999999999999/0", "-99999999999999999999999"),
    ] {
        let (e, under) = refused(&rules, &at(values));
        assert!(e.message.contains("out of range"), "{values}: {e:?}");
        assert!(e.help.contains("-1000000 to 1000000"), "{values}: {e:?}");
        assert_eq!(under, bad, "{values}");
    }
    for values in ["a/b", "1", "1/", "/1", "1/2/3", "0x1/0", "1e3/0"] {
        let (e, _) = refused(&rules, &at(values));
        assert!(e.help.contains("fists=FIRST/SECOND"), "{values}: {e:?}");
    }
}

/// The halfmove clock and the move number are whole numbers from 0 to 1000000; once
/// the move number overflowed in `make` after `4294967295` had loaded.
#[test]
fn clocks_are_range_checked() {
    let rules = rules_of("variants/chess.var");
    let pos = Position::from_fen(
        Arc::clone(&rules),
        &format!("{CHESS_BOARD} w KQkq - 1000000 1000000"),
    )
    .unwrap();
    assert_eq!(pos.halfmove_clock(), 1_000_000);
    for (clocks, bad) in [
        ("1000001 1", "1000001"),
        ("0 1000001", "1000001"),
        ("0 4294967295", "4294967295"),
        ("4294967296 1", "4294967296"),
        ("0 18446744073709551617", "18446744073709551617"),
    ] {
        let (e, under) = refused(&rules, &format!("{CHESS_BOARD} w KQkq - {clocks}"));
        assert!(e.message.contains("out of range"), "{clocks}: {e:?}");
        assert!(e.help.contains("0 to 1000000"), "{clocks}: {e:?}");
        assert_eq!(under, bad, "{clocks}");
    }
    for clocks in ["0 x", "-1 1", "0 -5", "0 1.5"] {
        let (e, _) = refused(&rules, &format!("{CHESS_BOARD} w KQkq - {clocks}"));
        assert!(e.message.contains("not a move count"), "{clocks}: {e:?}");
    }
}

/// A height beyond 255 is reported as one, however many digits it has.
#[test]
fn heights_are_range_checked() {
    let rules = rules_of("variants/monkey_queen.var");
    let board = |h: &str| format!("5q(20)6/12/12/12/12/12/12/12/12/12/12/6Q({h})5 w - - 0 1");
    assert!(Position::from_fen(Arc::clone(&rules), &board("255")).is_ok());
    for h in [
        "256",
        "0",
        "-1",
        "18446744073709551617",
        "-18446744073709551617",
    ] {
        let (e, under) = refused(&rules, &board(h));
        assert!(e.message.contains("not in 1..255"), "{h}: {e:?}");
        assert_eq!(under, h);
    }
}

/// Once a bug: an empty rank or board at the end of the text was underlined one
/// character past the end, and a letter of several bytes in the hand or in `off=` by
/// its first byte.
#[test]
fn error_spans_stay_inside_the_text() {
    let chess = rules_of("variants/chess.var");
    let monkey = rules_of("variants/monkey_king.var");
    let (_, under) = refused(&chess, "8/8/8/8/8/8/8/");
    assert_eq!(under, "/");
    let (_, under) = refused(&chess, "/8/8/8/8/8/8/8");
    assert_eq!(under, "/");
    let (_, under) = refused(&monkey, "5/5/5/5/5/5/5/5|2|");
    assert_eq!(under, "|");
    let (_, under) = refused(&chess, &format!("{CHESS_BOARD}[é] w - - 0 1"));
    assert_eq!(under, "é");
    let (_, under) = refused(&chess, &format!("{CHESS_BOARD} w - - 0 1 off=𝄞"));
    assert_eq!(under, "𝄞");
}

/// Any number of royal pieces loads, and every one of them is tracked (a ninth used
/// to be dropped silently, so that it could be left in check).
#[test]
fn nine_royals_load_and_count() {
    let rules = rules_of("variants/chess.var");
    let pos = Position::from_fen(Arc::clone(&rules), "KKKKKKKK/K7/8/8/8/8/8/k7 w - - 0 1").unwrap();
    assert!(!pos.in_check(varsand::ids::Side::First));
    let pos =
        Position::from_fen(Arc::clone(&rules), "KKKKKKKK/K7/8/8/8/8/8/r6k w - - 0 1").unwrap();
    assert!(pos.in_check(varsand::ids::Side::First));
}

/// The clocks stop at the limit the reader accepts (1000000), so a move from a
/// position string at the limit gives a position whose string reads back.
#[test]
fn clocks_past_the_limit_after_a_move() {
    let rules = rules_of("variants/chess.var");
    for (fen, mv) in [
        ("4k3/8/8/8/8/8/8/4K3 b - - 0 1000000", "e8d8"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 1000000 1", "e1d1"),
    ] {
        let mut pos = Position::from_fen(Arc::clone(&rules), fen).unwrap();
        pos.play(mv).unwrap();
        let after = pos.fen();
        assert!(
            Position::from_fen(Arc::clone(&rules), &after).is_ok(),
            "{fen:?} then {mv}: {after:?} does not read back"
        );
    }
}
