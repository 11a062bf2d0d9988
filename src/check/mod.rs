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
//!    [`pieces::captures_to_hand`], [`pictures::pictures`] (`glyph`, `image`);
//! 5. [`moves::movement`] (flight, flip, drop, pass, `forbid`), [`moves::castlings`];
//! 6. [`ends::end_rules`], [`names::counter_starts`], [`setup::setup_decl`],
//!    [`usage::warnings`] (unused declarations, repeated properties and moves, overlapping move lines);
//!
//! The checker ends with the resolved [`Game`](crate::model::Game) and its setup line
//! ([`Resolved`]); it knows no position. [`crate::loader`], above the engine, compiles
//! the game and reads the setup whenever the passes that define what a setup names
//! (boards, players, parameters, piece letters, terrain, castling rights) found no
//! problem, so that setup problems are reported together with all the others.

mod boards;
mod ends;
mod moves;
mod names;
mod pictures;
mod pieces;
mod setup;
mod suggest;
mod terrain;
mod usage;
mod zones;

use indexmap::IndexMap;

use crate::diagnostic::Problem;
use crate::model::Game;
use crate::syntax::ast::{Decl, File, Span, Spanned};

pub(crate) use names::{Params, Scope, Valid};

/// The largest piece `value`, in pawns (either sign): a hundred queens. Beyond it
/// a sum of values would crowd the scores the search keeps for won and lost games.
pub const MAX_PIECE_VALUE: i64 = 1000;

/// Parameter overrides given by the user (`--set height=30`, `--set white.height=24`).
pub type Overrides = IndexMap<String, i64>;

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
}

/// A rule file checked, before its setup is read: every problem found so far, and
/// the game with its setup line when the passes that define what a setup names
/// (boards, players, parameters, piece letters, terrain, castling rights) found no
/// problem — also when other passes did, so that a bad setup is reported with them
/// ([`crate::loader`] compiles the game and reads the setup).
pub struct Resolved {
    pub problems: Vec<Problem>,
    pub game: Option<(Game, Spanned<String>)>,
}

/// Checks a parsed file: every problem, and the game if its setup may be read.
pub fn check(file: &File, source: &str, overrides: &Overrides) -> Resolved {
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
        terrains: file
            .decls
            .iter()
            .filter_map(|d| match d {
                Decl::Terrain(t) => Some(t.name.node.clone()),
                _ => None,
            })
            .collect(),
    };
    let (mut pieces, letters) = pieces::pieces(&mut ck, &scope);
    let terrains = ck.defining_setup(|ck| terrain::terrains(ck, file, &scope, &letters));
    ck.defining_setup(|ck| pieces::two_faces(ck, &scope, &mut pieces));
    pieces::captures_to_hand(file, &mut pieces);
    pictures::pictures(&mut ck, &scope, &mut pieces);
    let movement = moves::movement(&mut ck, file, &scope, &pieces);
    let castlings = ck.defining_setup(|ck| moves::castlings(ck, file, &scope));
    let gates = moves::gates(&mut ck, &scope, movement.gating, castlings.len());
    let ends = ends::end_rules(&mut ck, file, &scope, &pieces);
    let counter_starts = names::counter_starts(&mut ck, file, &scope);
    let setup = setup::setup_decl(&mut ck, &decls.setups);
    if let Some(s) = setup {
        setup::moved_terrain_once(&mut ck, s, &terrains, &pieces, movement.on_move);
    }
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
        gates,
        gating_zone: movement.gating.map(|(zone, _)| zone),
        must_drop: movement.must_drop,
        castling_by_drop: movement.castling_by_drop,
        counters,
        counter_starts,
        stalemate_illegal: ends.stalemate_illegal,
        forbid_dead_squares: movement.forbid_dead_squares,
        no_mate_by_drop: movement.no_mate_by_drop,
        forbid_check: movement.forbid_check,
        must_capture: movement.must_capture,
        duple_check: movement.duple_check,
        explosions: movement.explosions,
        on_check: movement.on_check,
        on_move: movement.on_move,
        passes: movement.passes,
        pass_when_stuck: movement.pass_when_stuck,
        setup: setup.map(|s| s.node.clone()).unwrap_or_default(),
    };
    let readable = !ck.setup_unreadable && !game.geometry.boards.is_empty();
    Resolved {
        problems: ck.problems,
        game: setup.filter(|_| readable).map(|s| (game, s.clone())),
    }
}
