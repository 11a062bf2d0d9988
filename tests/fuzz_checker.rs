//! Robustness: whatever text it is given, the checker reports problems and never
//! panics, and every problem it reports can be rendered.
//!
//! A seeded, hand-rolled mutator (faster than proptest's strategies, and every case is
//! reproducible from its seed) takes each `variants/*.var` and `tests/diagnostics/*.var`
//! file and applies one to four random mutations: delete, insert or replace characters
//! and whole tokens, duplicate, swap or delete lines, put random Betza strings into
//! `moves`, random position strings into `setup`, and edge-case numbers anywhere. Each
//! mutant goes through `loader::load`; every problem's span must lie inside the text and
//! `render_plain` must render it.
//!
//! Environment: `VARSAND_FUZZ_CASES` (default 100000) sets the number of cases,
//! `VARSAND_FUZZ_SEED` (default 0) varies them, `VARSAND_FUZZ_STRICT=1` makes the
//! known bugs listed in [`KNOWN_BUGS`] fail the test too.

mod common;
use common::{CAPTURE, Rng, install_hook};

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use varsand::check::Overrides;
use varsand::diagnostic::render_plain;
use varsand::loader;

// ---- random numbers -------------------------------------------------------------------

fn hash(s: &str) -> u64 {
    // FNV-1a: a stable seed per file name.
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

// ---- what mutations insert ------------------------------------------------------------

#[rustfmt::skip]
const KEYWORDS: &[&str] = &[
    "game", "board", "players", "param", "zone", "terrain", "piece", "castle", "end", "setup",
    "with", "rank", "ranks", "file", "files", "all", "x", "in", "..", "{", "}", ":", "=", ",", "-",
    "\"", "moves", "royal", "en-passant", "promotes", "on", "to", "resets-clock", "value",
    "blocks", "passing", "landing", "nothing", "cleared-by", "crossed-by", "checkmate",
    "stalemate", "no-moves", "repetition", "move-limit", "captured", "win", "loss", "draw", "//",
    "\n", "if", "and", "captures", "over", "not", "unless", "or", "facing", "passes", "pass",
    "glyph", "image", "\"♜\"", "\"飛車\"",
];
#[rustfmt::skip]
const NAMES: &[&str] = &["white", "black", "King", "Pawn", "Rook", "last_rank", "main", "wall", "w", "b"];
#[rustfmt::skip]
const NUMBERS: &[&str] = &[
    "0", "1", "-1", "2", "8", "9", "12", "26", "27", "64", "65", "99", "100", "255", "256", "65535",
    "65536", "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "99999999999999999999999",
];
#[rustfmt::skip]
const SQUARES: &[&str] = &["a1", "h8", "e4", "l12", "z99", "a0", "i9", "a100", "z1", "a01", "b99999999999"];
#[rustfmt::skip]
const LETTERS: &[&str] = &["K", "k", "Q", "P", "X", "#", "*", "~", "%", "&", "$", "!", "?", "é"];
#[rustfmt::skip]
const CHARS: &[char] = &[
    'a', 'e', 'x', 'K', 'k', 'Q', 'N', 'W', 'f', 'm', 'c', 'p', 'n', 'i', 'h', '0', '1', '8', '9',
    ' ', '\n', '\t', '\r', '{', '}', '"', ':', '=', ',', '-', '.', '/', '#', '*', '_', '(', ')',
    '<', '>', 'é', 'ß', '€', '𝄞', '\u{0}', '\u{301}',
];

/// Every quoted literal of the grammar (`grammar/var.pest`), so that the mutator
/// follows the rule language as it grows.
fn grammar_words() -> &'static [String] {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let grammar =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("grammar/var.pest"))
                .unwrap_or_default();
        let mut words: Vec<String> = Vec::new();
        for line in grammar.lines() {
            let line = line.split("//").next().unwrap_or("");
            for (i, part) in line.split('"').enumerate() {
                if i % 2 == 1
                    && !part.is_empty()
                    && !part.contains('\\')
                    && !words.iter().any(|w| w == part)
                {
                    words.push(part.to_string());
                }
            }
        }
        words
    })
}

/// A random Betza string: mostly well formed, sometimes not.
fn random_betza(rng: &mut Rng) -> String {
    let mut s = String::new();
    for k in 0..=rng.below(3) {
        if k > 0 && rng.chance(60) {
            s.push(' ');
        }
        for _ in 0..rng.below(5) {
            let mods = if rng.chance(95) {
                "mcfblrvshpgni"
            } else {
                "xyzMo0é "
            };
            s.push(mods.chars().nth(rng.below(mods.chars().count())).unwrap());
        }
        if rng.chance(97) {
            let atoms = if rng.chance(95) {
                "WFDNAHCZGKRBQ"
            } else {
                "LYJwé"
            };
            let atom = atoms.chars().nth(rng.below(atoms.chars().count())).unwrap();
            s.push(atom);
            if rng.chance(20) {
                s.push(atom);
            }
        }
        if rng.chance(20) {
            const RANGES: &[&str] = &[
                "0",
                "1",
                "2",
                "3",
                "7",
                "64",
                "65",
                "255",
                "256",
                "9999999999",
            ];
            s += rng.pick(RANGES);
        }
    }
    s
}

/// What a position string for `text` looks like: its board's files and ranks (8 x 8
/// if none is found) and the letters of its pieces and terrain.
fn shape(text: &str) -> (usize, usize, Vec<char>) {
    let toks: Vec<&str> = tokens(text).into_iter().map(|(a, b)| &text[a..b]).collect();
    let mut size = (8, 8);
    let mut letters = Vec::new();
    for (i, &t) in toks.iter().enumerate() {
        let next = |k: usize| toks.get(i + k).copied().unwrap_or("");
        match t {
            "board" => {
                let nums: Vec<usize> = (1..5).filter_map(|k| next(k).parse().ok()).collect();
                if let [f, r, ..] = nums[..] {
                    size = (f.clamp(1, 26), r.clamp(1, 30));
                }
            }
            "piece" | "terrain" => {
                if let Some(c) = next(2).chars().next() {
                    letters.push(c);
                    letters.push(c.to_ascii_lowercase());
                }
            }
            _ => {}
        }
    }
    (size.0, size.1, letters)
}

/// A random position string for the board of `text`: ranks of its pieces and terrain
/// (now and then stacked, as `Q(3)`) and counts of empty squares, then some of the
/// side, castling, en-passant and clock fields.
fn random_position(rng: &mut Rng, text: &str) -> String {
    let (files, ranks, mut letters) = shape(text);
    letters.extend("KQPkqpX#*~é".chars());
    let ranks = if rng.chance(80) {
        ranks
    } else {
        rng.below(ranks + 3)
    };
    let mut rows = Vec::new();
    for _ in 0..ranks {
        let mut row = String::new();
        let mut width = 0;
        while width < files && row.len() < 40 {
            if rng.chance(30) {
                let n = 1 + rng.below(files);
                row += &n.to_string();
                width += n;
            } else if rng.chance(3) {
                row += rng.pick(&["0", "10", "26", "99999999999999999999999", "00"]);
            } else {
                row.push(letters[rng.below(letters.len())]);
                width += 1;
                if rng.chance(10) {
                    let height = rng.pick(&["1", "0", "3", "255", "256", "-1", "height", "", "x"]);
                    row += &format!("({height}");
                    if rng.chance(90) {
                        row.push(')');
                    }
                }
            }
            if rng.chance(5) {
                break;
            }
        }
        rows.push(row);
    }
    let mut fields = vec![rows.join("/")];
    let extra = rng.below(7);
    let choices: [&[&str]; 6] = [
        &["w", "b", "x", "white", "W", "-", "é", "g"],
        &["KQkq", "-", "K", "kq", "KQkqA", "Hh", "é", "KKKK", ""],
        &[
            "-", "e3", "e6", "a1", "h8", "l12", "z99", "e0", "e", "é", "a100",
        ],
        &["0", "1", "-1", "50", "4294967296", "x", "é"],
        &["1", "0", "-1", "99999999999", "x"],
        &["extra", "1", "é"],
    ];
    for field in choices.iter().take(extra) {
        fields.push(rng.pick(field).to_string());
    }
    let sep = if rng.chance(90) {
        " "
    } else {
        rng.pick(&["  ", "\t", " / "])
    };
    fields.join(sep)
}

// ---- mutations ------------------------------------------------------------------------

/// Byte ranges of the tokens of `text`: names and numbers (`[A-Za-z0-9_.-]+`), and
/// every other non-space character on its own.
fn tokens(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let word = c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
        match (word, start) {
            (true, None) => start = Some(i),
            (true, Some(_)) => {}
            (false, s) => {
                if let Some(s) = s {
                    out.push((s, i));
                    start = None;
                }
                if !c.is_whitespace() {
                    out.push((i, i + c.len_utf8()));
                }
            }
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

/// The byte offset of a random character boundary of `text` (its end included).
fn boundary(rng: &mut Rng, text: &str) -> usize {
    let mut at = rng.below(text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The byte ranges of the bodies of the quoted strings after `keyword`.
fn string_bodies(text: &str, keyword: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let pattern = format!("{keyword} \"");
    let mut from = 0;
    while let Some(i) = text[from..].find(&pattern) {
        let start = from + i + pattern.len();
        match text[start..].find(['"', '\n']) {
            Some(len) => out.push((start, start + len)),
            None => break,
        }
        from = start;
    }
    out
}

fn random_token(rng: &mut Rng, text: &str) -> String {
    match rng.below(8) {
        0 | 7 => rng.pick(KEYWORDS).to_string(),
        1 => {
            let words = grammar_words();
            match words.get(rng.below(words.len().max(1))) {
                Some(w) => w.clone(),
                None => rng.pick(KEYWORDS).to_string(),
            }
        }
        2 => rng.pick(NAMES).to_string(),
        3 => rng.pick(NUMBERS).to_string(),
        4 => rng.pick(SQUARES).to_string(),
        5 => rng.pick(LETTERS).to_string(),
        _ => {
            // A token of the text itself, to reuse its own names in the wrong places.
            let toks = tokens(text);
            match toks.get(rng.below(toks.len().max(1))) {
                Some(&(a, b)) => text[a..b].to_string(),
                None => "x".to_string(),
            }
        }
    }
}

fn mutate(rng: &mut Rng, text: &mut String) {
    match rng.below(16) {
        // Delete a few characters.
        0 => {
            let a = boundary(rng, text);
            let mut b = (a + 1 + rng.below(8)).min(text.len());
            while !text.is_char_boundary(b) {
                b += 1;
            }
            text.replace_range(a..b, "");
        }
        // Insert a character.
        1 => {
            let at = boundary(rng, text);
            text.insert(at, CHARS[rng.below(CHARS.len())]);
        }
        // Replace a character.
        2 => {
            let a = boundary(rng, text);
            if let Some(c) = text[a..].chars().next() {
                text.replace_range(
                    a..a + c.len_utf8(),
                    &CHARS[rng.below(CHARS.len())].to_string(),
                );
            }
        }
        // Delete a token.
        3 | 4 => {
            let toks = tokens(text);
            if !toks.is_empty() {
                let (a, b) = toks[rng.below(toks.len())];
                text.replace_range(a..b, "");
            }
        }
        // Insert a token before another, with a space between them.
        5 | 6 => {
            let tok = random_token(rng, text);
            let toks = tokens(text);
            let at = if toks.is_empty() {
                0
            } else {
                toks[rng.below(toks.len())].0
            };
            text.insert_str(at, &format!("{tok} "));
        }
        // Replace a token.
        7 | 8 => {
            let tok = random_token(rng, text);
            let toks = tokens(text);
            if !toks.is_empty() {
                let (a, b) = toks[rng.below(toks.len())];
                text.replace_range(a..b, &tok);
            }
        }
        // Replace a number with an edge case.
        9 => {
            let nums: Vec<_> = tokens(text)
                .into_iter()
                .filter(|&(a, _)| text[a..].starts_with(|c: char| c.is_ascii_digit()))
                .collect();
            if !nums.is_empty() {
                let (a, b) = nums[rng.below(nums.len())];
                text.replace_range(a..b, rng.pick(NUMBERS));
            }
        }
        // Line edits: duplicate, swap, delete.
        10..=12 => {
            let mut lines: Vec<&str> = text.split('\n').collect();
            let i = rng.below(lines.len());
            let j = rng.below(lines.len());
            match rng.below(3) {
                0 => lines.insert(j, lines[i]),
                1 => lines.swap(i, j),
                _ => {
                    lines.remove(i);
                }
            }
            *text = lines.join("\n");
        }
        // Random Betza in a `moves` string, replacing or extending it.
        13 | 14 => {
            let bodies = string_bodies(text, "moves");
            let betza = random_betza(rng);
            match bodies.get(rng.below(bodies.len().max(1))) {
                Some(&(a, b)) if rng.chance(70) => text.replace_range(a..b, &betza),
                Some(&(_, b)) => text.insert_str(b, &format!(" {betza}")),
                None => {
                    let at = text.find('}').unwrap_or(text.len());
                    text.insert_str(at, &format!("moves \"{betza}\" "));
                }
            }
        }
        // A random position string in the setup, or a setup field changed.
        _ => {
            let bodies = string_bodies(text, "setup");
            let position = random_position(rng, text);
            match bodies.first() {
                Some(&(a, b)) if rng.chance(60) => text.replace_range(a..b, &position),
                Some(&(a, b)) => {
                    // Replace one field of the existing position string.
                    let mut fields: Vec<String> = text[a..b].split(' ').map(String::from).collect();
                    let random_fields: Vec<String> =
                        position.split(' ').map(String::from).collect();
                    let i = rng.below(fields.len());
                    fields[i] = random_fields[rng.below(random_fields.len())].clone();
                    text.replace_range(a..b, &fields.join(" "));
                }
                None => text.push_str(&format!("\nsetup \"{position}\"\n")),
            }
        }
    }
}

// ---- running a case -------------------------------------------------------------------

/// What a case found.
#[derive(Debug, Default)]
struct Outcome {
    /// The panic, as `file:line: message`.
    panic: Option<String>,
    /// A problem whose span does not start and end on a character boundary (miette
    /// renders it, but the underline splits a character), described.
    split_char: Option<String>,
    loaded: bool,
}

/// Checks one text and renders its problems, catching any panic.
fn run(text: &str) -> Outcome {
    CAPTURE.with(|c| *c.borrow_mut() = Some(None));
    let mut split_char = None;
    let mut loaded = false;
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        match loader::load(text, &Overrides::new()) {
            Ok(_) => loaded = true,
            Err(problems) => {
                assert!(!problems.is_empty(), "load failed with no problem");
                for p in &problems {
                    assert!(
                        p.span.start <= p.span.end && p.span.end <= text.len(),
                        "span {:?} of `{}` lies outside the text ({} bytes)",
                        p.span,
                        p.message,
                        text.len()
                    );
                    if !text.is_char_boundary(p.span.start) || !text.is_char_boundary(p.span.end) {
                        split_char
                            .get_or_insert(format!("{}: `{}` at {:?}", p.code, p.message, p.span));
                    }
                }
                let rendered = render_plain(&problems, "fuzz.var", text);
                assert!(!rendered.is_empty(), "rendering gave no text");
            }
        }
    }));
    let captured = CAPTURE.with(|c| c.borrow_mut().take()).flatten();
    Outcome {
        panic: result
            .err()
            .map(|_| captured.unwrap_or_else(|| "<panic>".into())),
        split_char,
        loaded,
    }
}

/// Known bugs that the fuzz run tolerates (unless `VARSAND_FUZZ_STRICT=1`) so that the
/// suite stays green while they are open: a name, and whether a panic on a text is that
/// bug (tell it by the message and by the panic going away when its cause does). Each
/// needs an `#[ignore]`d reproducer test at the end of the file. None is open.
const KNOWN_BUGS: &[(&str, IsBug)] = &[];

/// Whether a panic (`file:line: message`) on a text is a given bug.
type IsBug = fn(text: &str, panic: &str) -> bool;

/// The known bug that `panic` on `text` is, if any.
fn known_bug(text: &str, panic: &str) -> Option<&'static str> {
    KNOWN_BUGS
        .iter()
        .find(|(_, is)| is(text, panic))
        .map(|(name, _)| *name)
}

/// Shrinks a text that panics to a smaller one that panics at the same place: removes
/// runs of lines, then of tokens, then of characters (halving the run length down to
/// one) for as long as the panic stays the same.
fn minimize(text: &str, panic: &str) -> String {
    let same = |t: &str| run(t).panic.as_deref() == Some(panic);
    let units = |t: &str, kind: usize| -> Vec<(usize, usize)> {
        match kind {
            0 => {
                let mut at = 0;
                t.split_inclusive('\n')
                    .map(|l| {
                        at += l.len();
                        (at - l.len(), at)
                    })
                    .collect()
            }
            1 => tokens(t),
            _ => t
                .char_indices()
                .map(|(a, c)| (a, a + c.len_utf8()))
                .collect(),
        }
    };
    let mut best = text.to_string();
    let mut budget = 20_000;
    loop {
        let before = best.len();
        for kind in 0..3 {
            let mut size = units(&best, kind).len().div_ceil(2).max(1);
            loop {
                let mut i = 0;
                loop {
                    let u = units(&best, kind);
                    if i >= u.len() || budget == 0 {
                        break;
                    }
                    let (a, b) = (u[i].0, u[(i + size).min(u.len()) - 1].1);
                    let candidate = format!("{}{}", &best[..a], &best[b..]);
                    budget -= 1;
                    if same(&candidate) {
                        best = candidate;
                    } else {
                        i += size;
                    }
                }
                if size == 1 {
                    break;
                }
                size = size.div_ceil(2);
            }
        }
        if best.len() == before || budget == 0 {
            return best;
        }
    }
}

// ---- the fuzz run ---------------------------------------------------------------------

/// The seed files and how many cases each gets: 30% of them for the variants (valid
/// files, so that mutants reach the deeper checks, but dearer to check: a mutant that
/// passes the checks has its tables compiled), 70% for the catalogue.
fn seeds(total: usize) -> Vec<(String, String, usize)> {
    let read = |p: &PathBuf| {
        let name = p
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(p)
            .display()
            .to_string();
        (
            name,
            std::fs::read_to_string(p).expect("readable seed file"),
        )
    };
    let variants: Vec<_> = common::var_files("variants").iter().map(read).collect();
    let catalogue: Vec<_> = common::var_files("tests/diagnostics")
        .iter()
        .map(read)
        .collect();
    assert!(!variants.is_empty(), "no variants/*.var files");
    let mut out = Vec::new();
    for (group, share) in [
        (variants, total * 3 / 10),
        (catalogue, total - total * 3 / 10),
    ] {
        let n = group.len().max(1);
        for (i, (name, text)) in group.into_iter().enumerate() {
            out.push((name, text, share / n + usize::from(i < share % n)));
        }
    }
    out
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[derive(Debug, Default)]
struct Tally {
    cases: usize,
    loaded: usize,
    known: Vec<(&'static str, usize, String)>,
    split_char: usize,
    split_char_example: Option<(String, String)>,
    /// Distinct panics: (panic, seed file, case, text).
    failures: Vec<(String, String, usize, String)>,
}

/// The text without its comments and blank lines. Most cases mutate this copy: pest
/// reads a comment a character at a time, which is slow in a debug build, and
/// comments hide no checks.
fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut in_string = false;
        let mut end = line.len();
        for (i, c) in line.char_indices() {
            match c {
                '"' => in_string = !in_string,
                '/' if !in_string && line[i..].starts_with("//") => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        let code = line[..end].trim_end();
        if !code.is_empty() {
            out += code;
            out.push('\n');
        }
    }
    out
}

/// One seed file: its name, its text, and its text without comments.
struct Seed {
    name: String,
    text: String,
    stripped: String,
}

/// Runs the cases `cases` of one seed file.
fn fuzz_seed(
    seed: &Seed,
    cases: std::ops::Range<usize>,
    base_seed: u64,
    strict: bool,
    tally: &mut Tally,
) {
    for case in cases {
        let mut rng = Rng::new(
            hash(&seed.name)
                ^ base_seed.wrapping_mul(0xA24B_AED4_963E_E407)
                ^ (case as u64).wrapping_mul(0x9FB2_1C65_1E98_DF25),
        );
        let mut mutant = if rng.chance(90) {
            seed.stripped.clone()
        } else {
            seed.text.clone()
        };
        for _ in 0..=rng.below(4) {
            mutate(&mut rng, &mut mutant);
        }
        let outcome = run(&mutant);
        tally.cases += 1;
        tally.loaded += usize::from(outcome.loaded);
        if let Some(problem) = outcome.split_char {
            tally.split_char += 1;
            tally
                .split_char_example
                .get_or_insert((problem, mutant.clone()));
        }
        if let Some(panic) = outcome.panic {
            match known_bug(&mutant, &panic).filter(|_| !strict) {
                Some(bug) => match tally.known.iter_mut().find(|k| k.0 == bug) {
                    Some(k) => k.1 += 1,
                    None => tally.known.push((bug, 1, mutant)),
                },
                None => {
                    if !tally.failures.iter().any(|f| f.0 == panic) {
                        tally
                            .failures
                            .push((panic, seed.name.clone(), case, mutant));
                    }
                }
            }
        }
    }
}

#[test]
fn mutated_rule_files_never_panic() {
    install_hook();
    let total = env_usize("VARSAND_FUZZ_CASES", 100_000);
    let base_seed = env_usize("VARSAND_FUZZ_SEED", 0) as u64;
    let strict = std::env::var("VARSAND_FUZZ_STRICT").is_ok_and(|v| v == "1");
    let seeds: Vec<(Seed, usize)> = seeds(total)
        .into_iter()
        .map(|(name, text, cases)| {
            let stripped = strip_comments(&text);
            (
                Seed {
                    name,
                    text,
                    stripped,
                },
                cases,
            )
        })
        .collect();
    // Work in chunks of cases, taken in turn by the threads, so that they finish together
    // however the cost differs between seed files.
    const CHUNK: usize = 200;
    let work: Vec<(usize, std::ops::Range<usize>)> = seeds
        .iter()
        .enumerate()
        .flat_map(|(i, (_, n))| {
            (0..*n)
                .step_by(CHUNK)
                .map(move |a| (i, a..(a + CHUNK).min(*n)))
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
                        fuzz_seed(&seeds[*i].0, cases.clone(), base_seed, strict, &mut tally);
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
        all.split_char += t.split_char;
        if all.split_char_example.is_none() {
            all.split_char_example = t.split_char_example;
        }
        for k in t.known {
            match all.known.iter_mut().find(|x| x.0 == k.0) {
                Some(x) => x.1 += k.1,
                None => all.known.push(k),
            }
        }
        for f in t.failures {
            if !all.failures.iter().any(|x| x.0 == f.0) {
                all.failures.push(f);
            }
        }
    }
    eprintln!(
        "fuzz: {} mutated files from {} seed files in {:.1?} on {threads} threads; {} loaded without problems",
        all.cases,
        seeds.len(),
        started.elapsed(),
        all.loaded
    );
    for (bug, count, example) in &all.known {
        eprintln!("fuzz: known bug hit {count} times: {bug}\n  example: {example:?}");
    }
    if let Some((problem, text)) = &all.split_char_example {
        eprintln!(
            "fuzz: {} cases reported a span that splits a character (rendered fine); first: {problem}\n  in: {text:?}",
            all.split_char,
        );
    }
    assert!(
        all.cases >= total,
        "ran {} cases, wanted {total}",
        all.cases
    );

    if !all.failures.is_empty() {
        let mut report = format!("{} distinct panic(s):\n", all.failures.len());
        for (panic, seed, case, text) in &all.failures {
            let small = minimize(text, panic);
            report += &format!(
                "\n== {panic}\n   from {seed}, case {case} (VARSAND_FUZZ_SEED={base_seed})\n   minimal reproducer: {small:?}\n   mutant: {text:?}\n"
            );
        }
        panic!("{report}");
    }
}

// ---- reproducers of bugs found ----------------------------------------------------------

/// Once a bug: with no usable board, checking a castling square indexed the missing
/// board and panicked.
#[test]
fn no_board_with_castle_does_not_panic() {
    install_hook();
    for text in [
        "castle white K e1-g1 with h1-f1",
        "board 0 x 8 castle white K e1-g1 with h1-f1",
        "board 8 x 100 castle white K e1-g1 with h1-f1",
    ] {
        let outcome = run(text);
        assert_eq!(outcome.panic, None, "{text:?}");
    }
}

/// Once a bug, in debug builds: a board size too large for i64 overflowed `files * ranks`.
#[test]
fn huge_board_size_does_not_panic() {
    install_hook();
    for text in [
        "board 8 x 99999999999999999999",
        "board 9223372036854775807 x 2",
    ] {
        let outcome = run(text);
        assert_eq!(outcome.panic, None, "{text:?}");
    }
}

/// Open bug (src/engine/fen.rs): "rank N is wider than M files" underlines one byte,
/// which splits a character of more than one byte: the span ends inside `é`.
#[test]
fn setup_error_spans_whole_characters() {
    let chess =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/chess.var"))
            .unwrap();
    let text = chess.replace("RNBQKBNR w", "RNBQKBNRé w");
    let outcome = run(&text);
    assert_eq!(outcome.panic, None);
    assert_eq!(outcome.split_char, None);
}

/// The mutator itself: a mutant is valid UTF-8 by construction, and mutants differ.
#[test]
fn mutator_makes_varied_texts() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/chess.var"))
            .unwrap();
    let mut distinct = std::collections::HashSet::new();
    for case in 0..200 {
        let mut rng = Rng::new(case);
        let mut m = text.clone();
        mutate(&mut rng, &mut m);
        distinct.insert(m);
    }
    assert!(
        distinct.len() > 150,
        "only {} distinct mutants of 200",
        distinct.len()
    );
}
