//! Stage 2: semantic checks. Resolves every name in the syntax tree, reports every
//! problem at once with its span and a help line, and builds the resolved
//! [`Game`](crate::model::Game), which [`Rules::compile`] compiles.
//!
//! The check runs as passes, one file per concern, in this order (each pass takes the
//! syntax tree and what earlier passes resolved, and reports into the [`Checker`]):
//!
//! 1. [`names::declarations`]: game name, boards ([`boards`]), players, parameters,
//!    counters, setups, pie rule — in declaration order;
//! 2. [`names::players`], [`setup::apply_overrides`], [`names::piece_names`];
//! 3. [`zones::zones`], then the [`Scope`] every later pass resolves names in;
//! 4. [`pieces::pieces`], [`terrain::terrains`], [`pieces::two_faces`],
//!    [`pieces::captures_to_hand`];
//! 5. [`moves::movement`] (flight, flip, drop, pass, `forbid`), [`moves::castlings`];
//! 6. [`ends::end_rules`], [`names::counter_starts`], [`setup::setup_decl`],
//!    [`usage::warnings`] (unused declarations, repeated properties and moves);
//! 7. [`setup::compile`]: the game is compiled and its setup read whenever the
//!    passes that define what a setup names (boards, players, parameters, piece
//!    letters, terrain, castling rights) found no problem, so that setup problems
//!    are reported together with all the others.

mod boards;
mod ends;
mod moves;
mod names;
mod pieces;
mod setup;
mod suggest;
mod terrain;
mod usage;
mod zones;

use indexmap::IndexMap;

use crate::diagnostic::Problem;
use crate::model::Game;
use crate::rules::Rules;
use crate::syntax::{
    self,
    ast::{Decl, File, Span},
};

pub(crate) use names::{Params, Scope, Valid};

/// The largest piece `value`, in pawns (either sign): a hundred queens. Beyond it
/// a sum of values would crowd the scores the search keeps for won and lost games.
pub const MAX_PIECE_VALUE: i64 = 1000;

/// Parameter overrides given by the user (`--set height=30`, `--set white.height=24`).
pub type Overrides = IndexMap<String, i64>;

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
    /// The rules, or the errors.
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

/// What every pass reports into.
pub(crate) struct Checker {
    problems: Vec<Problem>,
    /// Every zone the file declares, to tell "declared later" from "not declared".
    zone_names: Vec<String>,
    /// Where problems about the file as a whole (or the command line) point.
    end_of_file: Span,
    /// A pass that defines what a setup names found a problem: do not read the setup.
    setup_unreadable: bool,
    /// The boards' limits were passed and reported: later boards are left out quietly.
    boards_over_limit: bool,
}

impl Checker {
    fn new(file: &File, source: &str) -> Self {
        let zone_names = file
            .decls
            .iter()
            .filter_map(|d| match d {
                Decl::Zone(z) => Some(z.name.node.clone()),
                _ => None,
            })
            .collect();
        Checker {
            problems: Vec::new(),
            zone_names,
            end_of_file: Span::new(source.len(), source.len()),
            setup_unreadable: false,
            boards_over_limit: false,
        }
    }

    fn report(&mut self, p: Problem) {
        self.problems.push(p);
    }

    /// The names that the errors reported so far offer in place of a misspelt one
    /// (their help reads "did you mean `NAME`?").
    fn offered_names(&self) -> Vec<String> {
        self.problems
            .iter()
            .filter(|p| p.is_error())
            .filter_map(|p| p.help.as_deref()?.strip_prefix("did you mean `"))
            .filter_map(|rest| Some(rest.strip_suffix("`?")?.to_string()))
            .collect()
    }

    fn errors(&self) -> usize {
        self.problems.iter().filter(|p| p.is_error()).count()
    }

    /// Runs a pass (or part of one) that defines what a setup string may name; if it
    /// reports an error, the setup is not read (its problems would be echoes).
    fn defining_setup<T>(&mut self, pass: impl FnOnce(&mut Self) -> T) -> T {
        let before = self.errors();
        let out = pass(self);
        if self.errors() > before {
            self.setup_unreadable = true;
        }
        out
    }

    /// The result: the rules only if no error was found.
    fn finish(self, rules: Option<Rules>) -> Checked {
        let ok = self.errors() == 0;
        Checked {
            rules: rules.filter(|_| ok),
            problems: self.problems,
        }
    }
}

/// Checks a parsed file and compiles it.
pub fn check(file: &File, source: &str, overrides: &Overrides) -> Checked {
    let mut ck = Checker::new(file, source);
    let decls = ck.defining_setup(|ck| names::declarations(ck, file));
    let players = ck.defining_setup(|ck| names::players(ck, decls.players));
    let mut params = decls.params;
    ck.defining_setup(|ck| setup::apply_overrides(ck, overrides, &players, &mut params));
    let piece_decls = ck.defining_setup(|ck| names::piece_names(ck, file));
    let zones = zones::zones(
        &mut ck,
        file,
        &decls.geometry,
        &Params {
            values: &params,
            players: &players,
        },
    );
    let scope = Scope {
        geometry: decls.geometry,
        players,
        pieces: piece_decls,
        zones,
        counters: decls.counters,
        params: params.clone(),
    };
    let (mut pieces, letters) = pieces::pieces(&mut ck, &scope);
    let terrains = ck.defining_setup(|ck| terrain::terrains(ck, file, &scope, &letters));
    ck.defining_setup(|ck| pieces::two_faces(ck, &scope, &mut pieces));
    pieces::captures_to_hand(file, &mut pieces);
    let movement = moves::movement(&mut ck, file, &scope, &pieces);
    let castlings = ck.defining_setup(|ck| moves::castlings(ck, file, &scope));
    let ends = ends::end_rules(&mut ck, file, &scope, &pieces);
    let counter_starts = names::counter_starts(&mut ck, file, &scope);
    let setup = setup::setup_decl(&mut ck, &decls.setups);
    usage::warnings(&mut ck, file, source);
    let Scope {
        geometry,
        players,
        zones,
        counters,
        ..
    } = scope;
    let game = Game {
        name: decls.name.unwrap_or_else(|| "untitled".into()),
        geometry,
        players,
        pieces,
        terrains,
        zones,
        castlings,
        end_rules: ends.rules,
        params,
        pie_rule: decls.pie_rule,
        flights: movement.flights,
        flip_rules: movement.flip_rules,
        drop_zone: movement.drop_zone,
        counters,
        counter_starts,
        stalemate_illegal: ends.stalemate_illegal,
        forbid_dead_squares: movement.forbid_dead_squares,
        no_mate_by_drop: movement.no_mate_by_drop,
        forbid_check: movement.forbid_check,
        passes: movement.passes,
        setup: setup.map(|s| s.node.clone()).unwrap_or_default(),
    };
    setup::compile(ck, game, setup)
}
