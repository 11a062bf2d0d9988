//! Saved games: a PGN-like text with headers naming the rule file, its parameters and
//! any start position, then the moves.
//!
//! ```text
//! [Variant "variants/chess.var"]
//! [RulesHash "fnv1a64:9c2f0a14b3e8d761"]
//! [Set "height=8"]
//! [FEN "..."]
//! [Result "1-0"]
//!
//! 1. e2e4 e7e5 2. g1f3 1-0
//! ```
//!
//! The end of a complete record is its result (`*`, `1-0`, `0-1` or `1/2-1/2`), the
//! last word of the moves, as in PGN: the writer always ends with it, and a file cut
//! short (a full disk, a crash during a copy) lacks it, so [`read`] reports it as
//! truncated instead of loading a shorter game. Every record written so far ends with
//! its result, so older saves need no other marker and still load.
//!
//! The rule file is recorded relative to the saved game when the two share a folder
//! above the root (`../variants/chess.var`), else by its absolute path; `RulesHash` is
//! the hash of the rule text the game was played under, so that loading can tell that
//! the file changed since (older saves have none, and load as before).

use std::path::{Component, Path, PathBuf};

use crate::check::Overrides;
use crate::engine::GameEnd;
use crate::rules::Rules;

pub struct SavedGame {
    pub variant: String,
    /// The hash of the rule text when the game was saved ([`text_hash`]).
    pub rules_hash: Option<String>,
    pub overrides: Overrides,
    pub fen: Option<String>,
    pub moves: Vec<String>,
}

/// The hash recorded for a rule text: 64-bit FNV-1a, stable across versions and
/// machines (the standard library's hasher promises neither).
pub fn text_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x}")
}

/// The rule file `rules` as a saved game `save` records it: relative to the save's
/// folder when they share a folder other than the root, else absolute.
pub fn variant_path(rules: &Path, save: &Path) -> PathBuf {
    let Ok(rules) = std::fs::canonicalize(rules) else {
        return rules.to_path_buf();
    };
    let dir = match save.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Ok(dir) = std::fs::canonicalize(dir) else {
        return rules;
    };
    let (a, b): (Vec<Component>, Vec<Component>) =
        (rules.components().collect(), dir.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    // Only the root (and a drive prefix) in common: the absolute path says more.
    let roots = a
        .iter()
        .take_while(|c| matches!(c, Component::RootDir | Component::Prefix(_)))
        .count();
    if common <= roots {
        return rules;
    }
    let mut rel = PathBuf::new();
    for _ in common..b.len() {
        rel.push("..");
    }
    rel.extend(&a[common..]);
    rel
}

pub fn write(
    variant: &Path,
    rules_hash: &str,
    overrides: &Overrides,
    fen: Option<&str>,
    moves: &[String],
    rules: &Rules,
    end: Option<&GameEnd>,
) -> String {
    let mut s = format!(
        "[Game \"{}\"]\n[Variant \"{}\"]\n[RulesHash \"{rules_hash}\"]\n",
        rules.name,
        variant.display()
    );
    for (k, v) in overrides {
        s += &format!("[Set \"{k}={v}\"]\n");
    }
    if let Some(f) = fen {
        s += &format!("[FEN \"{f}\"]\n");
    }
    let result = match end {
        None => "*",
        Some(GameEnd {
            winner: Some(0), ..
        }) => "1-0",
        Some(GameEnd {
            winner: Some(_), ..
        }) => "0-1",
        Some(GameEnd { winner: None, .. }) => "1/2-1/2",
    };
    s += &format!("[Result \"{result}\"]\n\n");
    let mut line = String::new();
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            line += &format!("{}. ", i / 2 + 1);
        }
        line += m;
        line.push(' ');
    }
    line += result;
    s += &line;
    s.push('\n');
    s
}

/// The words that end the moves: the result.
const RESULTS: [&str; 4] = ["*", "1-0", "0-1", "1/2-1/2"];

pub fn read(text: &str) -> Result<SavedGame, String> {
    let mut game = SavedGame {
        variant: String::new(),
        rules_hash: None,
        overrides: Overrides::new(),
        fen: None,
        moves: Vec::new(),
    };
    let mut result: Option<&str> = None;
    for line in text.lines().map(str::trim) {
        if let Some(h) = line.strip_prefix('[') {
            let h = h.trim_end_matches(']');
            let (key, value) = h
                .split_once(' ')
                .ok_or_else(|| format!("bad header `{line}`"))?;
            let value = value.trim().trim_matches('"').to_string();
            match key {
                "Variant" => game.variant = value,
                "RulesHash" => game.rules_hash = Some(value),
                "FEN" => game.fen = Some(value),
                "Set" => {
                    let (k, v) = value
                        .split_once('=')
                        .ok_or_else(|| format!("bad Set header `{line}`: write NAME=VALUE"))?;
                    let v = v.parse::<i64>().map_err(|_| {
                        format!("bad Set header `{line}`: the value is not a number")
                    })?;
                    game.overrides.insert(k.to_string(), v);
                }
                _ => {}
            }
            continue;
        }
        for word in line.split_whitespace() {
            let is_number = word
                .trim_end_matches('.')
                .chars()
                .all(|c| c.is_ascii_digit())
                && word.ends_with('.');
            if let Some(r) = result {
                return Err(format!(
                    "`{word}` after the result `{r}`: the result ends the moves"
                ));
            }
            if RESULTS.contains(&word) {
                result = Some(word);
                continue;
            }
            if is_number {
                continue;
            }
            game.moves.push(word.to_string());
        }
    }
    if game.variant.is_empty() {
        return Err("no [Variant \"FILE\"] header: which rule file does the game use?".into());
    }
    if result.is_none() {
        return Err(format!(
            "the record is truncated: its moves do not end with a result ({}), so the file was cut short",
            RESULTS.map(|r| format!("`{r}`")).join(", ")
        ));
    }
    Ok(game)
}
