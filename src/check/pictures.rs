//! How pieces are drawn: a `glyph` (a short text, one for both players or one per
//! player) and an `image` (one of the drawings varsand ships, [`crate::pictures`]).
//! Nothing here changes how a game is played: a problem is an error so that a
//! designer sees it, but the setup is still read.

use super::{Checker, Scope};
use crate::diagnostic::{Problem, ProblemCode, list_candidates};
use crate::model::Piece;
use crate::syntax::ast::{Glyph, Name, PieceDecl, PieceProp, Span, Spanned};

/// The most characters a glyph may have: a symbol, two kanji, a short abbreviation.
/// Marks that join or modify a character (accents, emoji selectors) are not counted.
pub(crate) const MAX_GLYPH_CHARS: usize = 3;

/// Reads every piece's `glyph` and `image` into its model.
pub(crate) fn pictures(ck: &mut Checker, scope: &Scope, pieces: &mut [Piece]) {
    for (decl, piece) in scope.pieces.decls.iter().zip(pieces.iter_mut()) {
        for prop in &decl.props {
            match &prop.node {
                PieceProp::Glyph(Glyph::Shared(text)) if glyph_text(ck, text) => {
                    piece.glyph = [Some(text.node.clone()), Some(text.node.clone())];
                }
                PieceProp::Glyph(Glyph::ByPlayer(texts)) => {
                    piece.glyph = per_player(ck, scope, decl, texts, prop.span);
                }
                PieceProp::Image(name) => piece.image = image(ck, name),
                _ => {}
            }
        }
    }
}

/// The characters of a text that take a place of their own.
fn visible_chars(text: &str) -> usize {
    let joining = |c: char| matches!(c, '\u{300}'..='\u{36F}' | '\u{200D}' | '\u{FE00}'..='\u{FE0F}' | '\u{20E3}');
    text.chars().filter(|&c| !joining(c)).count()
}

/// Is a glyph's text one that can be drawn on a piece? Reports it when not.
fn glyph_text(ck: &mut Checker, text: &Spanned<String>) -> bool {
    let t = text.node.as_str();
    if t.trim().is_empty() {
        ck.report(
            Problem::new(ProblemCode::EmptyGlyph, text.span, "this glyph shows nothing")
                .label("empty")
                .help("write the symbol or the short text drawn on the piece: `glyph \"♜\"`, `glyph \"飛\"`; without a glyph the piece shows its letter"),
        );
        return false;
    }
    let n = visible_chars(t);
    if n > MAX_GLYPH_CHARS || t.chars().any(char::is_control) || t.trim() != t {
        let why = if n > MAX_GLYPH_CHARS {
            format!("`{t}` is {n} characters long: a glyph has at most {MAX_GLYPH_CHARS}")
        } else {
            "a glyph has no spaces around it and no control characters".to_string()
        };
        ck.report(
            Problem::new(ProblemCode::GlyphLength, text.span, why)
                .label("does not fit on a piece")
                .help("a glyph is a symbol or a short text such as `炮` or `+R`; the piece's name is shown beside it (give it as `piece NAME \"Shown name\" ...`)"),
        );
        return false;
    }
    true
}

/// A glyph per player: each player at most once, every player who has the piece once.
fn per_player(
    ck: &mut Checker,
    scope: &Scope,
    decl: &PieceDecl,
    texts: &[(Name, Spanned<String>)],
    span: Span,
) -> [Option<String>; 2] {
    let owner = decl.owner.as_ref().and_then(|o| {
        let side = scope.players.iter().position(|p| p.name == o.node)?;
        Some((side, o.node.as_str()))
    });
    let mut glyph: [Option<String>; 2] = [None, None];
    let mut seen = [false; 2];
    for (player, text) in texts {
        let Some(side) = scope.resolve_player(ck, player) else {
            continue;
        };
        if let Some((_, owner_name)) = owner.filter(|&(o, _)| o != side) {
            ck.report(glyph_player(
                (player.span, "not a player of this piece"),
                format!(
                    "`{}` is {owner_name}'s piece alone: {} has none to draw",
                    decl.name.node, player.node
                ),
                format!(
                    "give only {owner_name}'s glyph, or one for both: `glyph \"{}\"`",
                    text.node
                ),
            ));
        } else if seen[side] {
            ck.report(glyph_player(
                (player.span, "given again"),
                format!("a second glyph for {}", player.node),
                "give each player's glyph once".to_string(),
            ));
        } else if glyph_text(ck, text) {
            glyph[side] = Some(text.node.clone());
        }
        seen[side] = true;
    }
    let sides: Vec<usize> = owner.map_or(vec![0, 1], |(o, _)| vec![o]);
    for side in sides.into_iter().filter(|&s| !seen[s]) {
        let name = &scope.players[side].name;
        ck.report(glyph_player(
            (span, "a player left out"),
            format!("no glyph for {name}"),
            format!("give one per player (`{name}: \"…\"`), or one text for both: `glyph \"…\"`"),
        ));
    }
    glyph
}

fn glyph_player((span, label): (Span, &str), message: String, help: String) -> Problem {
    Problem::new(ProblemCode::GlyphPlayer, span, message)
        .label(label)
        .help(help)
}

/// The drawing an `image` names, if varsand has one of that name.
fn image(ck: &mut Checker, name: &Name) -> Option<String> {
    let names = crate::pictures::names();
    if names.contains(&name.node.as_str()) {
        return Some(name.node.clone());
    }
    let help = match crate::diagnostic::closest(&name.node, names.iter().copied()) {
        Some(c) => format!("did you mean `{c}`?"),
        None => format!(
            "the drawings are {} (grammar/README.md lists them all)",
            list_candidates(names)
        ),
    };
    ck.report(
        Problem::new(
            ProblemCode::UnknownImage,
            name.span,
            format!("varsand has no drawing named `{}`", name.node),
        )
        .label("unknown image")
        .help(help),
    );
    None
}
