//! Loading a rule file: the checker's passes ([`crate::check`]), then the compiled
//! rules ([`crate::rules`]) and the setup read as a position ([`crate::engine`]), so
//! that setup problems are reported with all the others. It stands above the engine;
//! the checker below it ends with the resolved game and knows no position.

use std::sync::Arc;

use crate::check::{self, Overrides};
use crate::diagnostic::{Problem, ProblemCode};
use crate::engine::Position;
use crate::model::Game;
use crate::rules::Rules;
use crate::syntax::{self, ast::File, ast::Spanned};

/// Parses and checks a rule file: the compiled rules, or every error found (warnings
/// are left out: [`check_source`] gives them).
pub fn load(source: &str, overrides: &Overrides) -> Result<Rules, Vec<Problem>> {
    check_source(source, overrides).into_result()
}

/// A checked rule file: its rules if it has no error, and every problem found,
/// errors and warnings, in the order they were found.
#[derive(Debug)]
pub struct Checked {
    pub rules: Option<Rules>,
    pub problems: Vec<Problem>,
}

impl Checked {
    /// The rules, or the errors (warnings are dropped).
    pub fn into_result(self) -> Result<Rules, Vec<Problem>> {
        match self.rules {
            Some(rules) => Ok(rules),
            None => Err(self
                .problems
                .into_iter()
                .filter(Problem::is_error)
                .collect()),
        }
    }

    /// The warnings found.
    pub fn warnings(&self) -> impl Iterator<Item = &Problem> {
        self.problems.iter().filter(|p| !p.is_error())
    }
}

/// Parses and checks a rule file: its rules if it has no error, and every problem.
pub fn check_source(source: &str, overrides: &Overrides) -> Checked {
    match syntax::parse(source) {
        Ok(file) => check(&file, source, overrides),
        Err(problems) => Checked {
            rules: None,
            problems,
        },
    }
}

/// Checks a parsed file, compiles it and reads its setup.
pub fn check(file: &File, source: &str, overrides: &Overrides) -> Checked {
    let resolved = check::check(file, source, overrides);
    let mut problems = resolved.problems;
    let rules = resolved
        .game
        .and_then(|(game, setup)| read_setup(game, &setup, &mut problems));
    let ok = !problems.iter().any(Problem::is_error);
    Checked {
        rules: rules.filter(|_| ok),
        problems,
    }
}

/// Compiles the game and reads its setup. Every problem the checker found left out a
/// resolved part of the game (a move, a condition, a zone), never a name the setup
/// reads.
fn read_setup(game: Game, setup: &Spanned<String>, problems: &mut Vec<Problem>) -> Option<Rules> {
    let mut rules = Rules::compile(game);
    match Position::from_fen_with(Arc::new(rules.clone()), &setup.node, true) {
        Ok(pos) => {
            // The same test `play --fen` applies to a typed position: a start that
            // no game could reach would let the first move take a royal piece.
            let wrong = pos.impossibilities();
            if !wrong.is_empty() {
                problems.push(
                    Problem::new(
                        ProblemCode::ImpossibleSetup,
                        setup.span,
                        format!("impossible setup: {}", wrong.join("; ")),
                    )
                    .label("no game reaches this position")
                    .help("give each side the royal pieces its rules name, and leave the side not to move out of check"),
                );
                return None;
            }
            rules.set_home(pos.board());
            Some(rules)
        }
        Err(e) => {
            problems.push(Problem::inside(
                ProblemCode::Setup,
                setup.span,
                e.offset,
                e.len,
                format!("bad setup: {}", e.message),
                e.help,
            ));
            None
        }
    }
}
