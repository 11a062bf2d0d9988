//! Warnings: what a file declares and never uses (a zone, piece, terrain or counter),
//! a piece property given twice, a move line repeated, two move lines that make the
//! same move. They are shown, but the file still loads (`check --deny-warnings` makes
//! them fail).

use std::collections::HashMap;

use super::Checker;
use crate::diagnostic::{Problem, ProblemCode};
use crate::rules::same_steps;
use crate::syntax::ast::{Decl, File, Name, PieceDecl, PieceProp, Span, Symbol};
use crate::syntax::betza;

/// Every warning about use: unused declarations, repeated properties and moves.
pub(crate) fn warnings(ck: &mut Checker, file: &File, source: &str) {
    let words = word_counts(source);
    let setup = setup_text(file);
    // A name an error already offers as the fix of a misspelling (`did you mean
    // `Tails`?`) is meant to be used: warning that it is not would only repeat the error.
    let offered = ck.offered_names();
    let used = |name: &str| {
        words.get(name).copied().unwrap_or(0) >= 2 || offered.iter().any(|o| o == name)
    };
    let promoted: Vec<Symbol> = file
        .decls
        .iter()
        .filter_map(|d| match d {
            Decl::Piece(p) => Some(p),
            _ => None,
        })
        .flat_map(|p| p.props.iter())
        .filter_map(|prop| match &prop.node {
            PieceProp::Promotes { to, .. } => Some(to.iter().map(|s| s.node)),
            _ => None,
        })
        .flatten()
        .collect();
    for d in &file.decls {
        match d {
            Decl::Zone(z) if !used(&z.name.node) => {
                ck.report(unused(ProblemCode::UnusedZone, &z.name, "zone"));
            }
            Decl::Terrain(t) if !used(&t.name.node) && !setup.contains(t.letter.node) => {
                ck.report(unused(ProblemCode::UnusedTerrain, &t.name, "terrain"));
            }
            Decl::Counter(c, _) if !used(&c.node) && !setup.contains(&format!("{}=", c.node)) => {
                ck.report(unused(ProblemCode::UnusedCounter, c, "counter"));
            }
            Decl::Piece(p) => {
                let letter = p.letter.node.letter.to_ascii_uppercase();
                let in_setup = setup.to_ascii_uppercase().contains(letter);
                let promoted_to = promoted.iter().any(|s| {
                    s.letter.to_ascii_uppercase() == letter && s.mark == p.letter.node.mark
                });
                if !used(&p.name.node) && !in_setup && !promoted_to {
                    ck.report(unused(ProblemCode::UnusedPiece, &p.name, "piece"));
                }
                repeated_properties(ck, p, source);
                overlapping_moves(ck, p, source);
            }
            _ => {}
        }
    }
}

fn unused(code: ProblemCode, name: &Name, what: &str) -> Problem {
    Problem::new(
        code,
        name.span,
        format!("the {what} `{}` is never used", name.node),
    )
    .warning()
    .label("declared here, used nowhere")
    .help(format!(
        "remove it, or use it; a {what} that no rule names changes nothing"
    ))
}

/// A property given twice, and a move line written twice, in one piece.
fn repeated_properties(ck: &mut Checker, p: &PieceDecl, source: &str) {
    let mut seen: Vec<(&'static str, Span)> = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    for prop in &p.props {
        let name = match &prop.node {
            PieceProp::Royal => "royal",
            PieceProp::EnPassant => "en-passant",
            PieceProp::ResetsClock => "resets-clock",
            PieceProp::Value(_) => "value",
            PieceProp::Flies => "flies",
            PieceProp::FlipsTo(_) => "flips-to",
            PieceProp::ExitsFrom(_) => "exits",
            PieceProp::InHandAs(_) => "in-hand-as",
            PieceProp::CapturedToHand => "captured-to-hand",
            PieceProp::Glyph(_) => "glyph",
            PieceProp::Image(_) => "image",
            PieceProp::Moves { .. } => {
                let written = source
                    .get(prop.span.start..prop.span.end)
                    .unwrap_or_default();
                // The property's span runs on over the blanks after it.
                let span = Span::new(prop.span.start, prop.span.start + written.trim_end().len());
                let text = written.split_whitespace().collect::<Vec<_>>().join(" ");
                if moves.contains(&text) {
                    ck.report(
                        Problem::new(
                            ProblemCode::RepeatedMove,
                            span,
                            format!("`{text}` is given twice for `{}`", p.name.node),
                        )
                        .warning()
                        .label("the same moves again")
                        .help("remove one: a move line given twice adds nothing"),
                    );
                } else {
                    moves.push(text);
                }
                continue;
            }
            _ => continue,
        };
        if let Some(&(_, first)) = seen.iter().find(|(n, _)| *n == name) {
            let later = if name == "value"
                || name.ends_with("-to")
                || name == "exits"
                || name == "in-hand-as"
                || name == "glyph"
                || name == "image"
            {
                " (the later one counts)"
            } else {
                ""
            };
            ck.report(
                Problem::new(
                    ProblemCode::DuplicateProperty,
                    prop.span,
                    format!("`{name}` is given twice for `{}`{later}", p.name.node),
                )
                .warning()
                .label("given again")
                .also(first, "first given here")
                .help("keep one"),
            );
        } else {
            seen.push((name, prop.span));
        }
    }
}

/// One move line of a piece, as [`overlapping_moves`] compares it.
struct MoveLine<'a> {
    /// The line, without the blanks after it.
    span: Span,
    /// The line as written, its blanks collapsed.
    text: String,
    moves: Vec<betza::BetzaMove>,
    conditional: bool,
    /// Its effects as written, sorted.
    effects: Vec<&'a str>,
}

/// Two move lines of one piece that make some move alike (a step in common, made the
/// same way): with different effects, both moves stay and their texts are told apart
/// by a suffix naming the effects (`a1a2/h+1`); with the same, the second adds nothing
/// there. Lines that both have conditions are left alone (the conditions may never
/// hold together), and so are a line written twice (`varsand::repeated-move`) and a
/// capture without moving beside a capture (two moves, `a1a2!` and `a1a2`).
fn overlapping_moves(ck: &mut Checker, p: &PieceDecl, source: &str) {
    let mut lines: Vec<MoveLine> = Vec::new();
    for prop in &p.props {
        let PieceProp::Moves {
            betza: b,
            in_place: false,
            conditions,
            effects,
        } = &prop.node
        else {
            continue;
        };
        let Ok(moves) = betza::parse(&b.node) else {
            continue;
        };
        let written = source
            .get(prop.span.start..prop.span.end)
            .unwrap_or_default();
        let mut effects: Vec<&str> = effects
            .iter()
            .map(|e| {
                source
                    .get(e.span.start..e.span.end)
                    .unwrap_or_default()
                    .trim()
            })
            .collect();
        effects.sort_unstable();
        let line = MoveLine {
            span: Span::new(prop.span.start, prop.span.start + written.trim_end().len()),
            text: written.split_whitespace().collect::<Vec<_>>().join(" "),
            moves,
            conditional: !conditions.is_empty(),
            effects,
        };
        let earlier = lines.iter().find(|e| {
            e.text != line.text
                && !(e.conditional && line.conditional)
                && e.effects.contains(&"stay") == line.effects.contains(&"stay")
                && e.moves
                    .iter()
                    .any(|a| line.moves.iter().any(|b| same_steps(a, b)))
        });
        if let Some(e) = earlier {
            let help = if e.effects == line.effects {
                "where the two lines overlap, this one adds nothing: take the common step out of one of them".to_string()
            } else {
                "both moves stay, and their texts are told apart by a suffix naming the effects (such as `a1a2/h+1`); if one move was meant, merge the lines, or give both a condition that tells them apart".to_string()
            };
            ck.report(
                Problem::new(
                    ProblemCode::OverlappingMoves,
                    line.span,
                    format!(
                        "`{}` and `{}` make some of the same moves for `{}`",
                        e.text, line.text, p.name.node
                    ),
                )
                .warning()
                .label("makes a move the other line makes")
                .also(e.span, "this line makes it too")
                .help(help),
            );
        }
        lines.push(line);
    }
}

/// How often each word occurs in the file, outside comments and strings.
fn word_counts(source: &str) -> HashMap<&str, usize> {
    let mut counts = HashMap::new();
    for (_, word) in crate::syntax::words(source) {
        *counts.entry(word).or_insert(0) += 1;
    }
    counts
}

/// The setup's position string (all of them, if several are declared).
fn setup_text(file: &File) -> String {
    file.decls
        .iter()
        .filter_map(|d| match d {
            Decl::Setup(s) => Some(s.node.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" ")
}
