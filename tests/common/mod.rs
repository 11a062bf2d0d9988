//! Helpers shared by the test files: a random generator for those that play or mutate
//! at random, panics caught quietly, the game files, and a web board to talk to.
#![allow(dead_code)] // each test file uses its own part

pub mod server;

use std::cell::RefCell;
use std::panic;
use std::path::{Path, PathBuf};
use std::sync::Once;

pub mod process;
pub mod python_chess;
pub mod tools;

use std::sync::Arc;

use varsand::{Overrides, Rules};

// ---- rule files ---------------------------------------------------------------------

/// The rules of a rule file of the repository (`variants/chess.var`), checked; the
/// test fails with the problems if it does not load.
pub fn rules(path: &str) -> Arc<Rules> {
    rules_with(path, &Overrides::new())
}

/// [`rules`] with parameters set.
pub fn rules_with(path: &str, overrides: &Overrides) -> Arc<Rules> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let source =
        std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let rules = varsand::loader::load(&source, overrides)
        .unwrap_or_else(|problems| panic!("{path} does not load: {problems:?}"));
    Arc::new(rules)
}

/// A shipped game's rules by its file's name: `variant("chess")` is variants/chess.var.
pub fn variant(name: &str) -> Arc<Rules> {
    rules(&format!("variants/{name}.var"))
}

/// SplitMix64: tiny, fast and good enough to pick moves and mutations.
pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len())]
    }
    pub fn pick_char(&mut self, items: &[char]) -> char {
        items[self.below(items.len())]
    }
}

// ---- catching panics quietly ----------------------------------------------------------

thread_local! {
    /// Set while a case runs: the panic hook then records the panic here, quietly.
    pub static CAPTURE: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

/// Installs, once, a panic hook that records panics of running cases instead of
/// printing them; panics elsewhere (a failing assertion) print as usual.
pub fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let captured = CAPTURE.with(|c| {
                let mut c = c.borrow_mut();
                match c.as_mut() {
                    Some(slot) => {
                        let msg = info
                            .payload()
                            .downcast_ref::<&str>()
                            .map(std::string::ToString::to_string)
                            .or_else(|| info.payload().downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "<non-string panic>".into());
                        let loc = info
                            .location()
                            .map(|l| format!("{}:{}", l.file(), l.line()))
                            .unwrap_or_default();
                        *slot = Some(format!("{loc}: {msg}"));
                        true
                    }
                    None => false,
                }
            });
            if !captured {
                default(info);
            }
        }));
    });
}

/// Every `.var` file in a folder of the repository, sorted by name.
pub fn var_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "var"))
        .collect();
    files.sort();
    files
}

/// Every game file shipped: `variants/*.var`, then `examples/*.var`, by name.
pub fn game_files() -> Vec<PathBuf> {
    ["variants", "examples"]
        .into_iter()
        .flat_map(var_files)
        .collect()
}

// ---- legal moves as text ------------------------------------------------------------

/// Every legal move of a position, as text, sorted.
pub fn legal_texts(pos: &mut varsand::Position) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| pos.move_text(m))
        .collect();
    v.sort();
    v
}

/// The legal moves whose text starts with `prefix` (a square, `P@`), sorted.
pub fn legal_texts_starting(pos: &mut varsand::Position, prefix: &str) -> Vec<String> {
    legal_texts(pos)
        .into_iter()
        .filter(|m| m.starts_with(prefix))
        .collect()
}

/// The game's end, if it has ended: the winner's name (or "draw") and the ending in
/// words.
pub fn ending(pos: &mut varsand::Position) -> Option<(String, String)> {
    let e = pos.outcome()?;
    let rules = pos.rules().clone();
    let winner = e
        .winner
        .map_or("draw".to_string(), |w| rules.players()[w].name.clone());
    Some((winner, e.describe(&rules)))
}

// ---- random games -------------------------------------------------------------------

/// Every position of `games` random games of at most 30 plies (after each move), the
/// moves drawn by [`varsand::search::Rng`] from `seed`.
pub fn random_positions(rules: &Arc<Rules>, seed: u64, games: usize) -> Vec<varsand::Position> {
    let mut rng = varsand::search::Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = varsand::Position::start(rules.clone());
        for _ in 0..30 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            pos.make(moves[rng.below(moves.len())]);
            out.push(pos.clone());
        }
    }
    out
}
