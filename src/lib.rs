//! varsand: write a board game's rules in a `.var` file, then check, play and analyse it.
//!
//! The crate is a pipeline, one module per stage:
//! [`syntax`] (pest grammar → syntax tree with spans) → [`check`] (names resolved,
//! every problem reported as a [`diagnostic::Problem`]) → [`rules`] (compiled tables)
//! → [`engine`] (position, moves, make/unmake, outcome) → [`perft`], [`search`] (the
//! computer player) and [`analyze`] (self-play analysis).

pub mod analyze;
pub mod check;
pub mod describe;
pub mod diagnostic;
pub mod engine;
pub mod interrupt;
pub mod perft;
pub mod repl;
pub mod rules;
pub mod search;
pub mod syntax;

use std::sync::Arc;

pub use check::Overrides;
pub use engine::{Move, Position};
pub use rules::Rules;

/// Reads and checks a rule file's text; the compiled rules or every problem.
pub fn load_rules(source: &str) -> Result<Arc<Rules>, Vec<diagnostic::Problem>> {
    check::load(source, &Overrides::new()).map(Arc::new)
}
