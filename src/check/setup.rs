//! Parameters, their overrides from the command line, and the one setup line (read
//! as a position by [`crate::loader`], above the engine).

use indexmap::IndexMap;

use super::suggest::{did_you_mean, player_names};
use super::{Checker, Overrides};
use crate::diagnostic::{Problem, ProblemCode};
use crate::model::{Param, Player};
use crate::syntax::ast::{ParamDecl, Span, Spanned};

/// One `param NAME = VALUE [in LOW..HIGH]` declaration.
pub(crate) fn param(ck: &mut Checker, p: &ParamDecl, params: &mut IndexMap<String, Param>) {
    if params.contains_key(&p.name.node) {
        ck.report(
            Problem::new(
                ProblemCode::DuplicateParam,
                p.name.span,
                format!("parameter `{}` is declared twice", p.name.node),
            )
            .help("give each parameter one `param` line"),
        );
        return;
    }
    let (min, max) = p
        .range
        .as_ref()
        .map_or((i64::MIN, i64::MAX), |(a, b)| (a.node, b.node));
    if min > max {
        let span = p
            .range
            .as_ref()
            .map_or(p.span, |(a, b)| Span::new(a.span.start, b.span.end));
        ck.report(
            Problem::new(
                ProblemCode::ParamRange,
                span,
                format!("the range {min}..{max} is empty"),
            )
            .label("high before low")
            .help(format!("write the low end first: in {max}..{min}")),
        );
    } else if p.value.node < min || p.value.node > max {
        ck.report(
            Problem::new(
                ProblemCode::ParamRange,
                p.value.span,
                format!("the default {} lies outside {min}..{max}", p.value.node),
            )
            .help("choose a default inside the range"),
        );
    }
    let value = p.value.node;
    params.insert(p.name.node.clone(), Param { value, min, max });
}

/// Applies the overrides: `name=v` sets a parameter, `player.name=v` adds a
/// per-player parameter (read by setups).
pub(crate) fn apply_overrides(
    ck: &mut Checker,
    overrides: &Overrides,
    players: &[Player; 2],
    params: &mut IndexMap<String, Param>,
) {
    let mut per_player = Vec::new();
    for (key, value) in overrides {
        let base = key.rsplit('.').next().unwrap_or(key);
        if let Some((player, _)) = key.split_once('.') {
            if !players.iter().any(|p| p.name == player) {
                ck.report(
                    Problem::new(
                        ProblemCode::UnknownPlayer,
                        ck.end_of_file,
                        format!("--set {key}: no player is named `{player}`"),
                    )
                    .help(did_you_mean(
                        player,
                        player_names(players),
                        "player",
                    )),
                );
                continue;
            }
            per_player.push((key.clone(), *value));
        }
        let problem = match params.get_mut(base) {
            Some(p) if *value < p.min || *value > p.max => Problem::new(
                ProblemCode::ParamRange,
                ck.end_of_file,
                format!("--set {key}={value} is outside {}..{}", p.min, p.max),
            )
            .help("choose a value inside the parameter's range"),
            Some(p) => {
                if base == key {
                    p.value = *value;
                }
                continue;
            }
            None => Problem::new(
                ProblemCode::UnknownParam,
                ck.end_of_file,
                format!("--set names `{key}`, which this file does not declare"),
            )
            .help(did_you_mean(
                base,
                params.keys().map(std::string::String::as_str),
                "parameter",
            )),
        };
        ck.report(problem);
    }
    for (key, value) in per_player {
        if let Some(p) = params.get(key.rsplit('.').next().unwrap_or(&key)).cloned() {
            params.insert(key, Param { value, ..p });
        }
    }
}

/// The one `setup` line (a missing or second one is reported).
pub(crate) fn setup_decl<'a>(
    ck: &mut Checker,
    setups: &[&'a Spanned<String>],
) -> Option<&'a Spanned<String>> {
    match setups {
        [] => {
            ck.report(
                Problem::new(ProblemCode::NoSetup, ck.end_of_file, "the file has no setup")
                    .label("expected a setup")
                    .help("add the start position: setup \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\""),
            );
            None
        }
        [one, rest @ ..] => {
            for s in rest {
                ck.report(
                    Problem::new(ProblemCode::DuplicateSetup, s.span, "a second setup")
                        .help("keep one `setup` line"),
                );
            }
            Some(*one)
        }
    }
}

/// A terrain that a second part moves (`move duck`) stands on one square at most:
/// the setup may not give it more (the move lifts the one there).
pub(crate) fn moved_terrain_once(
    ck: &mut Checker,
    setup: &Spanned<String>,
    terrains: &[crate::model::Terrain],
    pieces: &[crate::model::Piece],
    on_move: Option<crate::model::Placement>,
) {
    let own = pieces
        .iter()
        .flat_map(|p| &p.components)
        .flat_map(|c| &c.effects)
        .filter_map(|e| match e {
            crate::model::Effect::Place(p) => Some(*p),
            _ => None,
        });
    let board = setup.node.split_whitespace().next().unwrap_or("");
    let mut reported = Vec::new();
    for p in own.chain(on_move).filter(|p| p.lift) {
        let Some(t) = terrains.get(usize::from(p.terrain)) else {
            continue;
        };
        let count = board.chars().filter(|&c| c == t.letter).count();
        if count > 1 && !reported.contains(&p.terrain) {
            reported.push(p.terrain);
            ck.report(
                Problem::new(
                    ProblemCode::MovedTerrainCount,
                    setup.span,
                    format!(
                        "the setup has {count} `{}` ({}), which a move's second part moves: there may be one at most",
                        t.letter, t.name
                    ),
                )
                .label("more than one")
                .help("a `move` effect lifts the one on the board and puts it elsewhere: give the setup one, or none (then the first move places it)"),
            );
        }
    }
}
