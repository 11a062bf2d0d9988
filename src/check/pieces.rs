//! Pieces: owner and letter, moves (Betza with conditions and effects), promotions,
//! the other properties, and the two faces of a flipping piece.

use std::collections::HashMap;

use super::{Checker, MAX_PIECE_VALUE, Scope, Valid};
use crate::diagnostic::{Problem, ProblemCode};
use crate::ids::Side;
use crate::model::Effect as RulesEffect;
use crate::model::{
    Along, Component, Cond, DropRule, MAX_COUNTER, Mark, Piece, PieceKind, Placement, Promotion,
    Symbol, ZoneId,
};
use crate::syntax::ast::{
    Condition, Count, Decl, Effect, File, Name, PieceDecl, PieceProp, Span, Spanned,
};
use crate::syntax::betza;

/// The piece letters taken, per player, with the piece that took each (a letter with
/// its mark is unique per player, whatever its case).
pub(crate) type Letters<'a> = [HashMap<(char, Mark), &'a Name>; 2];

/// Every piece of the scope, resolved, and the letters they take.
pub(crate) fn pieces<'a>(ck: &mut Checker, scope: &Scope<'a>) -> (Vec<Piece>, Letters<'a>) {
    let mut letters: Letters = [HashMap::new(), HashMap::new()];
    let mut pieces = Vec::new();
    for (i, p) in scope.pieces.decls.iter().enumerate() {
        let mut piece = ck.defining_setup(|ck| identity(ck, scope, p, &mut letters));
        for prop in &p.props {
            property(ck, scope, (PieceKind::new(i), &mut piece), prop);
        }
        capturing_promotions(ck, p, &piece);
        pieces.push(piece);
    }
    (pieces, letters)
}

/// A promotion `capturing` on a piece none of whose moves captures never happens.
fn capturing_promotions(ck: &mut Checker, p: &PieceDecl, piece: &Piece) {
    if piece.components.iter().any(|c| c.betza.can_capture) {
        return;
    }
    for prop in &p.props {
        if let PieceProp::Promotes {
            capturing: Some(span),
            ..
        } = &prop.node
        {
            ck.report(
                Problem::new(
                    ProblemCode::CapturingWithoutCapture,
                    *span,
                    format!("`{}` promotes only when it captures, and it never captures", p.name.node),
                )
                .label("never happens")
                .help("give the piece a move that captures, or leave `capturing` out to promote on any move"),
            );
        }
    }
}

/// A piece without its properties: name, owner and letter, which a setup names.
fn identity<'a>(
    ck: &mut Checker,
    scope: &Scope,
    p: &'a PieceDecl,
    letters: &mut Letters<'a>,
) -> Piece {
    let owner = p.owner.as_ref().and_then(|o| scope.resolve_player(ck, o));
    let Symbol { letter, mark } = p.letter.node;
    if !letter.is_ascii_alphabetic() {
        ck.report(
            Problem::new(
                ProblemCode::PieceLetter,
                p.letter.span,
                format!("a piece letter must be a letter A-Z, not `{letter}`"),
            )
            .help("upper case shows the first player's pieces, lower case the second's"),
        );
    }
    let up = letter.to_ascii_uppercase();
    let sides: Vec<usize> = match owner {
        Some(o) => vec![o],
        None => vec![0, 1],
    };
    let written = Symbol { letter: up, mark };
    if let Some(other) = sides.iter().find_map(|&s| letters[s].get(&(up, mark))) {
        ck.report(
            Problem::new(
                ProblemCode::DuplicateLetter,
                p.letter.span,
                format!("letter `{written}` is already used by `{}`", other.node),
            )
            .label("used twice")
            .help("each piece needs its own letter, whatever its case"),
        );
    } else {
        for &s in &sides {
            letters[s].insert((up, mark), &p.name);
        }
    }
    if p.owner.is_none() && letter.is_ascii_lowercase() {
        ck.report(
            Problem::new(
                ProblemCode::OwnerLetterCase,
                p.letter.span,
                format!("a piece of both players is written `{up}`, not `{letter}`"),
            )
            .label("lower case")
            .help(format!(
                "declare it upper case: position strings write the second player's `{up}` \
                 as `{letter}`; a piece of the second player alone is written `piece NAME \
                 {letter} for PLAYER`"
            )),
        );
    }
    if let Some(o) = owner {
        let expected = if o == 0 {
            up
        } else {
            letter.to_ascii_lowercase()
        };
        if letter != expected {
            ck.report(
                Problem::new(
                    ProblemCode::OwnerLetterCase,
                    p.letter.span,
                    format!(
                        "a piece of {} is written `{expected}`, not `{letter}`",
                        scope.players[o].name
                    ),
                )
                .help("the first player's pieces are upper case, the second's lower case"),
            );
        }
    }
    Piece {
        name: p
            .title
            .as_ref()
            .map_or_else(|| p.name.node.clone(), |t| t.node.clone()),
        letter: up,
        mark,
        royal: false,
        en_passant: false,
        resets_clock: false,
        value: None,
        betza: String::new(),
        components: Vec::new(),
        in_place: Vec::new(),
        promotions: Vec::new(),
        to_hand: None,
        drops: None,
        clones: None,
        both_colours: false,
        owner: owner.map(Side::new),
        flies: false,
        flips_to: None,
        exits_from: None,
        glyph: [None, None],
        image: None,
    }
}

/// One property of a piece, resolved into `piece`.
fn property(
    ck: &mut Checker,
    scope: &Scope,
    (kind, piece): (PieceKind, &mut Piece),
    prop: &Spanned<PieceProp>,
) {
    match &prop.node {
        PieceProp::Moves {
            betza: s,
            in_place: true,
            conditions,
            effects,
        } => in_place(ck, scope, piece, s, conditions, effects),
        PieceProp::Moves {
            betza: s,
            conditions,
            effects,
            ..
        } => moves(ck, scope, piece, s, conditions, effects),
        PieceProp::Royal => piece.royal = true,
        PieceProp::EnPassant => piece.en_passant = true,
        PieceProp::ResetsClock => piece.resets_clock = true,
        PieceProp::Value(v) => piece.value = Some(value(ck, v)),
        PieceProp::Flies => piece.flies = true,
        PieceProp::FlipsTo(other) => piece.flips_to = scope.resolve_piece(ck, other),
        PieceProp::ExitsFrom(z) => piece.exits_from = scope.resolve_zone(ck, z),
        PieceProp::Promotes {
            when,
            zone,
            to,
            optional,
            only_lost,
            capturing,
        } => {
            let zone = scope.resolve_zone(ck, zone);
            let to = promotion_kinds(ck, scope, to);
            if let Some(zone) = zone {
                piece.promotions.push(Promotion {
                    when: *when,
                    zone,
                    to,
                    optional: *optional,
                    only_lost: *only_lost,
                    capturing: capturing.is_some(),
                });
            }
        }
        PieceProp::CapturedToHand => {
            piece.to_hand.get_or_insert(kind);
        }
        PieceProp::BothColours => piece.both_colours = true,
        PieceProp::InHandAs(other) => piece.to_hand = scope.resolve_piece(ck, other),
        // How it is drawn: the pictures pass reads these.
        PieceProp::Glyph(_) | PieceProp::Image(_) => {}
        PieceProp::Clones {
            conditions,
            effects,
        } => {
            if piece.clones.is_some() {
                ck.report(
                    Problem::new(
                        ProblemCode::DuplicateDrops,
                        prop.span,
                        "a second `clones` rule",
                    )
                    .help("a piece has one `clones` rule: give all its conditions there"),
                );
            }
            piece.clones = Some(placement(ck, scope, None, conditions, effects, piece.owner));
        }
        PieceProp::Drops {
            zone,
            conditions,
            effects,
        } => {
            if piece.drops.is_some() {
                ck.report(
                    Problem::new(
                        ProblemCode::DuplicateDrops,
                        prop.span,
                        "a second `drops` rule",
                    )
                    .help(
                        "a piece has one `drops` rule: give its zone and all its conditions there",
                    ),
                );
            }
            let zone = zone.as_ref().and_then(|z| scope.resolve_zone(ck, z));
            piece.drops = Some(placement(ck, scope, zone, conditions, effects, piece.owner));
        }
    }
}

/// A `drops` or `clones` rule: its zone, conditions and effects, resolved.
fn placement(
    ck: &mut Checker,
    scope: &Scope,
    zone: Option<ZoneId>,
    conditions: &[Spanned<Condition>],
    effects: &[Spanned<Effect>],
    side: Option<Side>,
) -> DropRule {
    conversions(ck, scope, conditions, effects);
    let conditions = drop_conditions(ck, scope, conditions, side);
    let effects = effects
        .iter()
        .filter_map(|e| resolve_effect(ck, scope, e, side))
        .collect();
    DropRule {
        zone,
        conditions,
        effects,
    }
}

/// A line's conversions: `converts` needs a `convert` effect on the line to ask of
/// (`varsand::converts-without-convert`), and a converted piece must be one both
/// players may have (`varsand::convert-one-sided`: no piece is `for` one player).
fn conversions(
    ck: &mut Checker,
    scope: &Scope,
    conditions: &[Spanned<Condition>],
    effects: &[Spanned<Effect>],
) {
    let convert = effects
        .iter()
        .find(|e| matches!(e.node, Effect::Convert(_)));
    if convert.is_none() {
        for c in conditions.iter().filter(|c| c.node == Condition::Converts) {
            ck.report(
                Problem::new(
                    ProblemCode::ConvertsWithoutConvert,
                    c.span,
                    "`converts` on a line that converts nothing",
                )
                .label("never holds")
                .help("`converts` asks whether the line's own `convert` effect turns a piece: add `then convert enclosed` or `then convert adjacent`"),
            );
        }
    }
    let one_sided = scope.pieces.decls.iter().find(|d| d.owner.is_some());
    if let (Some(e), Some(d)) = (convert, one_sided) {
        ck.report(
            Problem::new(
                ProblemCode::ConvertOneSided,
                e.span,
                format!("pieces are converted, but `{}` belongs to one player only", d.name.node),
            )
            .label("could turn a piece to a player who cannot have it")
            .help("a game that converts pieces gives every piece to both players: take `for PLAYER` off"),
        );
    }
}

/// The conditions of a `drops` rule: those about where a piece comes from do not
/// apply to a piece from the hand.
fn drop_conditions(
    ck: &mut Checker,
    scope: &Scope,
    conditions: &[Spanned<Condition>],
    side: Option<Side>,
) -> Vec<Cond> {
    let mut out = Vec::new();
    for c in conditions {
        let what = match &c.node {
            Condition::From(_) => "`from`",
            Condition::CloserTo { .. } => "`closer-to`",
            _ => {
                out.extend(resolve_condition(ck, scope, c, side));
                continue;
            }
        };
        ck.report(
            Problem::new(
                ProblemCode::DropCondition,
                c.span,
                format!(
                    "a piece from the hand comes from no square: {what} does not apply to a drop"
                ),
            )
            .help("a drop may ask for `to ZONE`, `no own PIECE on-file` (or `fewer-than N own PIECE on-file`), `height` or a counter"),
        );
    }
    out
}

/// `captures-to-hand`: every piece without its own hand rule goes to the capturer's
/// hand as itself.
pub(crate) fn captures_to_hand(file: &File, pieces: &mut [Piece]) {
    if !file
        .decls
        .iter()
        .any(|d| matches!(d, Decl::CapturesToHand(_)))
    {
        return;
    }
    for (i, p) in pieces.iter_mut().enumerate() {
        p.to_hand.get_or_insert(PieceKind::new(i));
    }
}

/// `moves BETZA [if CONDITIONS] [then EFFECTS]`: its components, added to `piece`.
fn moves(
    ck: &mut Checker,
    scope: &Scope,
    piece: &mut Piece,
    s: &Spanned<String>,
    conditions: &[Spanned<Condition>],
    effects: &[Spanned<Effect>],
) {
    let Some(moves) = parse_betza(ck, s) else {
        return;
    };
    if !piece.betza.is_empty() {
        piece.betza.push(' ');
    }
    piece.betza.push_str(&s.node);
    let captures = moves.iter().any(|m| m.can_capture);
    conversions(ck, scope, conditions, effects);
    // `in-check` on a capture is reported and left out: attack detection would ask it
    // of itself without end.
    let conds: Vec<Cond> = conditions
        .iter()
        .filter_map(|c| resolve_condition(ck, scope, c, piece.owner))
        .filter(|c| !(captures && matches!(c, Cond::InCheck { .. })))
        .collect();
    piece_conditions_apply(ck, &moves, conditions);
    let effs: Vec<RulesEffect> = effects
        .iter()
        .filter_map(|e| resolve_effect(ck, scope, e, piece.owner))
        .collect();
    one_second_part(ck, effects);
    piece
        .components
        .extend(moves.into_iter().map(|b| Component {
            betza: b,
            conditions: conds.clone(),
            effects: effs.clone(),
        }));
}

/// `moves in-place [if CONDITIONS] then becomes PIECE`: the piece stays on its square
/// and turns into PIECE. Without a `becomes` effect the move would change nothing
/// (`varsand::in-place-without-becomes`); it captures nothing and jumps nothing, so
/// `captures` and `over` are reported as on any move that does neither, and it has no
/// second part (`place` and `move` are reported the same way).
fn in_place(
    ck: &mut Checker,
    scope: &Scope,
    piece: &mut Piece,
    s: &Spanned<String>,
    conditions: &[Spanned<Condition>],
    effects: &[Spanned<Effect>],
) {
    let becomes = effects.iter().any(|e| matches!(e.node, Effect::Becomes(_)));
    let not_here = effects.iter().find(|e| {
        matches!(
            e.node,
            Effect::Stay | Effect::Leave(_) | Effect::Place { .. } | Effect::Convert(_)
        )
    });
    if !becomes || not_here.is_some() {
        let (span, message) = match not_here {
            Some(e) if becomes => (e.span, "an in-place move leaves its square to nothing"),
            _ => (s.span, "a move in place that changes nothing"),
        };
        ck.report(
            Problem::new(ProblemCode::InPlaceWithoutBecomes, span, message)
                .label("the piece stays where it is")
                .help("`moves in-place` turns the piece into another where it stands: `moves in-place if CONDITIONS then becomes PIECE` (and no `stay`, `leave`, `convert`, `place` or `move`)"),
        );
        return;
    }
    piece_conditions_apply(ck, &[], conditions);
    let conditions = conditions
        .iter()
        .filter_map(|c| resolve_condition(ck, scope, c, piece.owner))
        .collect();
    let effects = effects
        .iter()
        .filter_map(|e| resolve_effect(ck, scope, e, piece.owner))
        .collect();
    piece.in_place.push(DropRule {
        zone: None,
        conditions,
        effects,
    });
}

/// The piece kinds a promotion names by letter.
fn promotion_kinds(ck: &mut Checker, scope: &Scope, to: &[Spanned<Symbol>]) -> Vec<PieceKind> {
    let decls = &scope.pieces.decls;
    let mut kinds = Vec::new();
    for l in to {
        let up = l.node.letter.to_ascii_uppercase();
        match decls.iter().position(|d| {
            d.letter.node.letter.to_ascii_uppercase() == up && d.letter.node.mark == l.node.mark
        }) {
            Some(k) => kinds.push(PieceKind::new(k)),
            None => ck.report(
                Problem::new(
                    ProblemCode::UnknownPromotion,
                    l.span,
                    format!("no piece has the letter `{}`", l.node),
                )
                .label("promotes to nothing")
                .help(format!(
                    "promotion lists piece letters; declared: {}",
                    decls
                        .iter()
                        .map(|d| d.letter.node.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                )),
            ),
        }
    }
    kinds
}

/// A flip goes both ways: `A flips to B` makes B flip to A, and both belong to the
/// same player.
pub(crate) fn two_faces(ck: &mut Checker, scope: &Scope, pieces: &mut [Piece]) {
    for (i, d) in scope.pieces.decls.iter().enumerate() {
        let Some(other) = pieces[i].flips_to.map(PieceKind::index) else {
            continue;
        };
        match pieces[other].flips_to.map(PieceKind::index) {
            None => pieces[other].flips_to = Some(PieceKind::new(i)),
            Some(back) if back != i => {
                ck.report(
                    Problem::new(
                        ProblemCode::FlipPair,
                        flips_to_span(d).unwrap_or(d.span),
                        format!(
                            "`{}` flips to `{}`, which flips to `{}`",
                            pieces[i].name, pieces[other].name, pieces[back].name
                        ),
                    )
                    .help("a two-faced piece has two faces: each flips to the other"),
                );
            }
            _ => {}
        }
        if pieces[i].owner != pieces[other].owner {
            ck.report(
                Problem::new(
                    ProblemCode::FlipOwner,
                    d.span,
                    format!(
                        "`{}` and its other face `{}` belong to different players",
                        pieces[i].name, pieces[other].name
                    ),
                )
                .help("give both faces the same `for PLAYER`"),
            );
        }
    }
}

/// Where a piece declaration says `flips to`.
pub(crate) fn flips_to_span(d: &PieceDecl) -> Option<Span> {
    d.props
        .iter()
        .find(|p| matches!(p.node, PieceProp::FlipsTo(_)))
        .map(|p| p.span)
}

/// A condition of a move, resolved (or reported and left out). `side`: the one
/// player whose moves these are (a piece `for PLAYER`), whose own values of the
/// parameters its numbers name are read.
pub(crate) fn resolve_condition(
    ck: &mut Checker,
    scope: &Scope,
    c: &Spanned<Condition>,
    side: Option<Side>,
) -> Option<Cond> {
    const HEIGHT: Valid = Valid::new(i64::MIN..=i64::MAX, "a height compared");
    const COUNTER: Valid = Valid::new(i64::MIN..=i64::MAX, "a counter's value compared");
    Some(match &c.node {
        Condition::Height(op, n) => Cond::Height(*op, scope.resolve_count(ck, n, side, &HEIGHT)?),
        Condition::CloserTo { enemy, piece } => Cond::CloserTo {
            enemy: *enemy,
            kind: scope.resolve_piece(ck, piece)?,
        },
        Condition::From(z) => Cond::From(scope.resolve_zone(ck, z)?),
        Condition::To(z) => Cond::To(scope.resolve_zone(ck, z)?),
        Condition::Counter(name, op, n) => {
            let (counter, n) = (
                scope.resolve_counter(ck, name),
                scope.resolve_count(ck, n, side, &COUNTER),
            );
            Cond::Counter(counter?, *op, n?)
        }
        Condition::NoneOnFile {
            fewer,
            enemy,
            piece,
        } => {
            let (kind, limit) = counted_piece(ck, scope, c.span, (fewer, piece), side, true)?;
            Cond::NoneOnFile {
                enemy: *enemy,
                kind,
                limit,
            }
        }
        Condition::Captures { piece, negated } => Cond::Captures {
            kind: scope.resolve_piece(ck, piece)?,
            yes: !negated,
        },
        Condition::Over { piece, negated } => Cond::Over {
            kind: scope.resolve_piece(ck, piece)?,
            yes: !negated,
        },
        Condition::InCheck { negated } => Cond::InCheck { yes: !negated },
        Condition::Converts => Cond::Converts,
        Condition::Checking { negated } => Cond::Checking { yes: !negated },
        Condition::Attacking { negated } => Cond::Attacking { yes: !negated },
        Condition::CountOnBoard {
            fewer,
            enemy,
            piece,
        } => {
            let (kind, limit) = counted_piece(ck, scope, c.span, (fewer, piece), side, false)?;
            Cond::CountOnBoard {
                enemy: *enemy,
                kind,
                limit,
            }
        }
    })
}

/// The piece and the N of `no PIECE` / `fewer-than N PIECE` (1 for `no`), on a file
/// or on the whole board.
fn counted_piece(
    ck: &mut Checker,
    scope: &Scope,
    span: Span,
    (fewer, piece): (&Option<Count>, &Name),
    side: Option<Side>,
    on_file: bool,
) -> Option<(PieceKind, u8)> {
    const ON_FILE: Valid = Valid::new(1..=255, "a number of pieces on a file");
    const ON_BOARD: Valid = Valid::new(1..=255, "a number of pieces on the board");
    let valid = if on_file { &ON_FILE } else { &ON_BOARD };
    let limit = match fewer {
        Some(n) => scope.resolve_count(ck, n, side, valid),
        None => Some(1),
    };
    let kind = scope.resolve_piece(ck, piece)?;
    Some((kind, piece_limit(ck, span, limit?, on_file)?))
}

/// The N of `fewer-than N` (on a file or on the board): from 1 to 255, else reported
/// (`varsand::file-limit`).
fn piece_limit(ck: &mut Checker, span: Span, limit: i64, on_file: bool) -> Option<u8> {
    if let Ok(limit @ 1..=255) = u8::try_from(limit) {
        return Some(limit);
    }
    ck.report(
        Problem::new(
            ProblemCode::FileLimit,
            span,
            format!("`fewer-than` counts from 1 to 255 pieces, not {limit}"),
        )
        .label(match (limit < 1, on_file) {
            (true, _) => "never holds",
            (false, true) => "more than a file can hold",
            (false, false) => "more than the count goes to",
        })
        .help(if on_file {
            "`fewer-than 1` is `no`: no such piece on the file; `fewer-than 2` allows one"
        } else {
            "`fewer-than 1` is `no`: no such piece on the board; `fewer-than 2` allows one"
        }),
    );
    None
}

/// `captures PIECE` needs moves that capture, and `over PIECE` moves that hop: else
/// the condition never holds (or always does), which is a mistake.
fn piece_conditions_apply(
    ck: &mut Checker,
    moves: &[betza::BetzaMove],
    conds: &[Spanned<Condition>],
) {
    for c in conds {
        match &c.node {
            Condition::Captures { piece, negated } if !moves.iter().any(|m| m.can_capture) => {
                let word = if *negated { "not captures" } else { "captures" };
                ck.report(
                    Problem::new(
                        ProblemCode::CaptureCondition,
                        c.span,
                        format!("`{word} {}` on moves that never capture", piece.node),
                    )
                    .label("these moves take nothing")
                    .help("a condition on the piece taken belongs to capturing moves: `moves \"cR\" if captures PIECE`"),
                );
            }
            // Attack detection asks a capture's conditions, and in-check is itself an
            // attack: on a capture the question would ask itself.
            Condition::InCheck { negated } if moves.iter().any(|m| m.can_capture) => {
                let word = if *negated {
                    "unless in-check"
                } else {
                    "if in-check"
                };
                ck.report(
                    Problem::new(
                        ProblemCode::CheckCondition,
                        c.span,
                        format!("`{word}` on moves that capture"),
                    )
                    .label("these moves may capture")
                    .help("`in-check` applies to moves that never capture: make them move-only (`moves \"mK\" if in-check`) and give the captures a line of their own"),
                );
            }
            Condition::Over { piece, negated }
                if !moves.iter().any(|m| m.hop != betza::Hop::None) =>
            {
                let word = if *negated { "not over" } else { "over" };
                ck.report(
                    Problem::new(
                        ProblemCode::OverWithoutHop,
                        c.span,
                        format!("`{word} {}` on moves that jump nothing", piece.node),
                    )
                    .label("no hop here")
                    .help("`over` asks what a hopper jumps: give the move a `p` or `g` (`moves \"pR\" if not over PIECE`)"),
                );
            }
            _ => {}
        }
    }
}

/// An effect of a move, resolved (or reported and left out); `side` as for
/// [`resolve_condition`].
pub(super) fn resolve_effect(
    ck: &mut Checker,
    scope: &Scope,
    e: &Spanned<Effect>,
    side: Option<Side>,
) -> Option<RulesEffect> {
    const COUNTER: Valid = Valid::new(-MAX_COUNTER..=MAX_COUNTER, "a counter's change");
    const HEIGHT: Valid = Valid::new(-255..=255, "a change of height");
    Some(match &e.node {
        Effect::Stay => RulesEffect::Stay,
        Effect::Counter(name, d) => {
            let (counter, d) = (
                scope.resolve_counter(ck, name),
                scope.resolve_count(ck, d, side, &COUNTER),
            );
            let (counter, d) = (counter?, d?);
            if d.abs() > MAX_COUNTER {
                ck.report(
                    Problem::new(
                        ProblemCode::CounterChange,
                        e.span,
                        format!("a counter changes by at most {MAX_COUNTER}, not {d}"),
                    )
                    .help(format!("counters run from -{MAX_COUNTER} to {MAX_COUNTER}")),
                );
                return None;
            }
            RulesEffect::Counter(counter, d)
        }
        Effect::Leave(p) => RulesEffect::Leave(scope.resolve_piece(ck, p)?),
        Effect::Becomes(p) => RulesEffect::Becomes(scope.resolve_piece(ck, p)?),
        Effect::Convert(what) => RulesEffect::Convert(*what),
        Effect::Place {
            terrain,
            lift,
            along,
        } => {
            let terrain = scope.resolve_terrain(ck, terrain);
            let along = match along {
                Some(a) => Some(resolve_along(ck, a)?),
                None => None,
            };
            RulesEffect::Place(Placement {
                terrain: u8::try_from(terrain?).ok()?,
                lift: *lift,
                along,
            })
        }
        Effect::Height(d) => {
            let d = scope.resolve_count(ck, d, side, &HEIGHT)?;
            if d.abs() > 255 {
                ck.report(
                    Problem::new(
                        ProblemCode::HeightChange,
                        e.span,
                        format!("a height changes by at most 255, not {d}"),
                    )
                    .help("heights run from 1 to 255"),
                );
                return None;
            }
            RulesEffect::Height(d)
        }
    })
}

/// A Betza string read, or reported at the offending character.
fn parse_betza(ck: &mut Checker, s: &Spanned<String>) -> Option<Vec<betza::BetzaMove>> {
    betza::parse(&s.node)
        .map_err(|e| {
            ck.report(Problem::inside(
                ProblemCode::Betza,
                s.span,
                e.offset,
                e.len,
                format!("bad Betza: {}", e.message),
                e.help,
            ));
        })
        .ok()
}

/// A move has one second part at most: a second `place` or `move` on the line is
/// reported.
pub(super) fn one_second_part(ck: &mut Checker, effects: &[Spanned<Effect>]) {
    let mut places = effects
        .iter()
        .filter(|e| matches!(e.node, Effect::Place { .. }));
    if let (Some(first), Some(second)) = (places.next(), places.next()) {
        ck.report(
            Problem::new(
                ProblemCode::PlaceTwice,
                second.span,
                "a move has one second part: this line puts terrain twice",
            )
            .label("a second placement")
            .also(first.span, "the first")
            .help("keep one `place` or `move` effect on the line"),
        );
    }
}

/// The Betza move of a second part's `along`: plain leaps and rides (no `m`, `c`,
/// hops, lame or first-move modifiers), riders all with the same limit.
fn resolve_along(ck: &mut Checker, s: &Spanned<String>) -> Option<Along> {
    let moves = parse_betza(ck, s)?;
    let mut along = Along::default();
    let mut limit = None;
    for m in &moves {
        let plain = m.can_move
            && m.can_capture
            && m.hop == betza::Hop::None
            && !m.lame
            && !m.initial
            && m.vectors.iter().all(|&(x, y)| x.abs() <= 3 && y.abs() <= 3);
        let same_limit = !m.rider || limit.is_none_or(|l| l == m.max_steps);
        if !plain || !same_limit {
            let why = if plain {
                "its rides have different limits"
            } else {
                "a second part is put on a square, so it neither captures nor hops"
            };
            ck.report(Problem::inside(
                ProblemCode::PlaceAlong,
                s.span,
                m.at.0,
                m.at.1,
                format!("`along` takes plain leaps and rides: {why}"),
                "write the lines the terrain is put along without modifiers, such as `along \"Q\"` or `along \"K\"`".into(),
            ));
            return None;
        }
        for &(dx, dy) in &m.vectors {
            if m.rider {
                along.rides |= Along::bit(dx, dy);
            } else {
                along.leaps |= Along::bit(dx, dy);
            }
        }
        if m.rider {
            limit = Some(m.max_steps);
            along.range = m.max_steps;
        }
    }
    Some(along)
}

/// A piece's `value`, which must lie within ±[`MAX_PIECE_VALUE`] pawns; out of range
/// it is reported, and read as the nearest bound so that the other checks go on.
fn value(ck: &mut Checker, v: &Spanned<i64>) -> i64 {
    let bounded = v.node.clamp(-MAX_PIECE_VALUE, MAX_PIECE_VALUE);
    if bounded != v.node {
        ck.report(
            Problem::new(
                ProblemCode::ValueRange,
                v.span,
                format!(
                    "a value of {} pawns is out of range: values lie within ±{MAX_PIECE_VALUE}",
                    v.node
                ),
            )
            .label("out of range")
            .help("a value is in pawns (a chess queen is 9); a royal piece needs none, since it is never traded"),
        );
    }
    bounded
}
