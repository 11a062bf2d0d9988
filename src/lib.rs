//! varsand: write a board game's rules in a `.var` file, then check, play and analyse it.
//!
//! The crate is a pipeline, one module per stage:
//! [`syntax`] (pest grammar → syntax tree with spans) → [`check`] (names resolved into
//! the [`model`], every problem reported as a [`diagnostic::Problem`]) → [`rules`]
//! (every way to move lowered onto generators, compiled into tables) → [`engine`] (position, moves, make/unmake, outcome) → [`perft`], [`search`] (the
//! computer player) and [`analyze`] (self-play analysis); [`render`] draws positions
//! and analyses as SVG.

pub mod analyze;
pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
pub mod describe;
pub mod diagnostic;
pub mod engine;
pub mod errors_index;
pub mod ids;
pub mod interrupt;
pub mod loader;
#[cfg(feature = "cli")]
pub mod lsp;
#[cfg(feature = "cli")]
pub mod matches;
pub mod model;
pub mod perft;
pub mod pgn;
pub mod pictures;
#[cfg(feature = "cli")]
pub mod protocol;
pub mod render;
#[cfg(feature = "cli")]
pub mod repl;
pub mod rules;
pub mod search;
#[cfg(feature = "cli")]
pub mod serve;
pub mod session;
pub mod syntax;
pub mod tune;

use std::sync::Arc;

pub use check::Overrides;
pub use engine::{Move, Position};
pub use rules::Rules;

/// Reads and checks a rule file's text; the compiled rules or every problem.
///
/// # Examples
///
/// ```
/// use varsand::{Position, load_rules};
/// use varsand::perft::Perft;
///
/// let source = std::fs::read_to_string("variants/chess.var").unwrap();
/// let rules = load_rules(&source).unwrap();
/// let mut pos = Position::start(rules);
/// assert_eq!(Perft::new().count(&mut pos, 3), 8902);
/// pos.play("e2e4").unwrap();
/// assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
/// ```
///
/// # Errors
///
/// Every problem found, each with the span of the text it is about:
///
/// ```
/// let problems = varsand::load_rules("board 8 x 8\nsetup \"8/8/8/8/8/8/8/8 w\"\npiece King K { moves \"Kx\" }").unwrap_err();
/// assert_eq!(problems[0].code, "varsand::betza");
/// ```
pub fn load_rules(source: &str) -> Result<Arc<Rules>, Vec<diagnostic::Problem>> {
    loader::load(source, &Overrides::new()).map(Arc::new)
}
