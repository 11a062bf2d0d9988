//! Game-level ways to move: flight, flip, drop, castling, passing and the pie rule;
//! the legality rules (`forbid`).

use super::boards::{off_board, region_cells};
use super::pieces::{flips_to_span, resolve_condition, resolve_effect};
use super::{Checker, Scope};
use crate::diagnostic::{Problem, ProblemCode};
use crate::ids::{Cell, Side};
use crate::model::{
    Castling, Cond, CounterId, Effect as RulesEffect, Flight, FlipRule, Piece, PieceKind,
    Placement, ZoneId,
};
use crate::syntax::ast::{
    CastleDecl, Condition, Decl, Effect, Event, File, FlipDecl, Forbid, Name, PieceProp, Span,
    Spanned,
};

/// The most flight rules a game may declare (each becomes two zones).
const MAX_FLIGHTS: usize = 256;

/// `pie-rule`, once.
pub(crate) fn pie_rule(ck: &mut Checker, span: Span, pie_rule: &mut bool) {
    if *pie_rule {
        ck.report(
            Problem::new(
                ProblemCode::DuplicatePieRule,
                span,
                "the pie rule is declared twice",
            )
            .help("keep one `pie-rule` line"),
        );
    }
    *pie_rule = true;
}

/// Flights, flip rules, the drop zone and the conditions of each `pass`.
pub(crate) struct Movement {
    pub flights: Vec<Flight>,
    pub flip_rules: [Option<FlipRule>; 2],
    pub drop_zone: Option<ZoneId>,
    /// `gating in ZONE`, with its span.
    pub gating: Option<(ZoneId, Span)>,
    /// `must-drop`.
    pub must_drop: bool,
    /// `castling-by-drop KING with PARTNER`.
    pub castling_by_drop: Option<(PieceKind, PieceKind)>,
    pub passes: Vec<Vec<Cond>>,
    /// `pass when-stuck`.
    pub pass_when_stuck: bool,
    /// `forbid dead-squares`.
    pub forbid_dead_squares: bool,
    /// `forbid mate-by-drop PIECE`, for each piece named.
    pub no_mate_by_drop: Vec<PieceKind>,
    /// `forbid check`.
    pub forbid_check: bool,
    /// `must-capture`.
    pub must_capture: bool,
    /// `duple-check`.
    pub duple_check: bool,
    /// `captures-explode`, with the kinds it spares.
    pub explosions: Option<Vec<PieceKind>>,
    /// `on check then counter NAME N`, each counter change.
    pub on_check: Vec<(CounterId, i64)>,
    /// The second part every move has (`on move`).
    pub on_move: Option<Placement>,
}

pub(crate) fn movement(ck: &mut Checker, file: &File, scope: &Scope, pieces: &[Piece]) -> Movement {
    let mut out = Movement {
        flights: Vec::new(),
        flip_rules: [None, None],
        drop_zone: None,
        gating: None,
        must_drop: false,
        castling_by_drop: None,
        passes: Vec::new(),
        pass_when_stuck: false,
        forbid_dead_squares: false,
        no_mate_by_drop: Vec::new(),
        forbid_check: false,
        must_capture: false,
        duple_check: false,
        explosions: None,
        on_check: Vec::new(),
        on_move: None,
    };
    let params = scope.param_values();
    for d in &file.decls {
        match d {
            Decl::Flight(f) if out.flights.len() == MAX_FLIGHTS => ck.report(
                Problem::new(
                    ProblemCode::TooManyFlights,
                    f.span,
                    format!("a game has at most {MAX_FLIGHTS} flight rules"),
                )
                .help("a flight rule may name several regions: join some"),
            ),
            Decl::Flight(f) => out.flights.push(Flight {
                from: region_cells(ck, &f.from, (&scope.geometry, &params), &scope.zones, None),
                to: region_cells(ck, &f.to, (&scope.geometry, &params), &scope.zones, None),
                same_colour: f.same_colour,
            }),
            Decl::Flip(f) => flip(ck, scope, f, &mut out.flip_rules),
            Decl::Drop(dd) => {
                if out.drop_zone.is_some() {
                    ck.report(
                        Problem::new(ProblemCode::DuplicateDrop, dd.span, "a second drop rule")
                            .help("keep one `drop in ZONE` line; make the zone per player"),
                    );
                }
                out.drop_zone = scope.resolve_zone(ck, &dd.zone);
            }
            Decl::Pass {
                when_stuck: true, ..
            } => out.pass_when_stuck = true,
            Decl::Gating(gd) => {
                if out.gating.is_some() {
                    ck.report(
                        Problem::new(
                            ProblemCode::DuplicateGating,
                            gd.span,
                            "a second gating rule",
                        )
                        .help("keep one `gating in ZONE` line; make the zone per player"),
                    );
                }
                out.gating = scope.resolve_zone(ck, &gd.zone).map(|z| (z, gd.span));
            }
            Decl::Pass { conditions, .. } => out.passes.push(pass(ck, scope, conditions)),
            Decl::Forbid(f) => match &f.node {
                Forbid::DeadSquares => out.forbid_dead_squares = true,
                Forbid::MateByDrop(p) => out.no_mate_by_drop.extend(scope.resolve_piece(ck, p)),
                Forbid::Check => out.forbid_check = true,
            },
            Decl::MustDrop(span) => {
                must_drop(ck, file, *span, pieces);
                out.must_drop = true;
            }
            Decl::CastlingByDrop {
                king,
                partner,
                span,
            } => {
                if let Some(pair) = castling_by_drop(ck, scope, file, (king, partner), *span) {
                    out.castling_by_drop = Some(pair);
                }
            }
            Decl::MustCapture(span) => {
                must_capture(ck, *span, pieces);
                out.must_capture = true;
            }
            Decl::DupleCheck(span) => {
                needs_royal(ck, *span, pieces, "duple-check");
                out.duple_check = true;
            }
            Decl::CapturesExplode { spared, span } => {
                out.explosions = Some(explosions(ck, scope, file, spared, *span, pieces));
            }
            Decl::On {
                event,
                effects,
                span,
            } if event.node == Event::Move => {
                if let Some(p) = on_move(ck, scope, effects, pieces) {
                    if out.on_move.is_some() {
                        ck.report(
                            Problem::new(
                                ProblemCode::PlaceTwice,
                                *span,
                                "a move has one second part: `on move` is given twice",
                            )
                            .help("keep one `on move then ...` declaration"),
                        );
                    }
                    out.on_move = Some(p);
                }
            }
            Decl::On { effects, span, .. } => {
                out.on_check
                    .extend(on_check(ck, scope, effects, *span, pieces));
            }
            _ => {}
        }
    }
    never_dropped(ck, file, scope, &out, pieces);
    face_never_held(ck, scope, pieces);
    no_flip_rule(ck, scope, &out, pieces);
    out
}

/// `must-drop` where no piece is ever placed from the hand: the rule could never apply.
fn must_drop(ck: &mut Checker, file: &File, span: Span, pieces: &[Piece]) {
    if !ever_dropped(file, pieces) {
        ck.report(
            Problem::new(
                ProblemCode::MustDropNeverDropped,
                span,
                "no piece is ever placed from the hand",
            )
            .label("this rule")
            .help("pieces are placed from the hand by `drop in ZONE`, or a piece's `drops` rule"),
        );
    }
}

/// `castling-by-drop KING with PARTNER`: the two kinds, resolved; a game without
/// castlings is told that no right could be given.
fn castling_by_drop(
    ck: &mut Checker,
    scope: &Scope,
    file: &File,
    (king, partner): (&Name, &Name),
    span: Span,
) -> Option<(PieceKind, PieceKind)> {
    if !file.decls.iter().any(|d| matches!(d, Decl::Castle(_))) {
        ck.report(
            Problem::new(
                ProblemCode::CastlingByDropWithoutCastling,
                span,
                "the game declares no castling whose right a placement could give",
            )
            .label("this rule")
            .help("declare the castlings: `castle white K e1-g1 with h1-f1`"),
        );
    }
    let (k, p) = (
        scope.resolve_piece(ck, king),
        scope.resolve_piece(ck, partner),
    );
    Some((k?, p?))
}

/// Pieces with two faces in a game where no player may flip them.
fn no_flip_rule(ck: &mut Checker, scope: &Scope, out: &Movement, pieces: &[Piece]) {
    if pieces.iter().any(|p| p.flips_to.is_some()) && out.flip_rules.iter().all(Option::is_none) {
        let span = scope
            .pieces
            .decls
            .iter()
            .zip(pieces)
            .find(|(_, p)| p.flips_to.is_some())
            .and_then(|(d, _)| flips_to_span(d))
            .unwrap_or(ck.end_of_file);
        ck.report(
            Problem::new(
                ProblemCode::NoFlipRule,
                span,
                "pieces have two faces, but no player may flip them",
            )
            .help("add `flip PLAYER in ZONE` (optionally `if own PIECE in ZONE`)"),
        );
    }
}

/// `must-capture` where no piece has a move that captures: the rule could never
/// choose among moves.
fn must_capture(ck: &mut Checker, span: Span, pieces: &[Piece]) {
    let captures = pieces
        .iter()
        .any(|p| p.components.iter().any(|c| c.betza.can_capture));
    if !captures && !pieces.is_empty() {
        ck.report(
            Problem::new(
                ProblemCode::NothingCaptures,
                span,
                "captures are forced, but no piece can capture",
            )
            .label("never applies")
            .help("every move is move-only (`m`): let a piece capture, or remove `must-capture`"),
        );
    }
}

/// `on move then EFFECT`: the second part every move has. Only a `place` or `move`
/// effect, one, and no piece's line may have its own.
fn on_move(
    ck: &mut Checker,
    scope: &Scope,
    effects: &[Spanned<Effect>],
    pieces: &[Piece],
) -> Option<Placement> {
    let mut out = None;
    for e in effects {
        if !matches!(e.node, Effect::Place { .. }) {
            ck.report(
                Problem::new(ProblemCode::EventEffect, e.span, "`on move` gives every move a second part, and only that")
                    .label("not a `place` or `move` effect")
                    .help("write `on move then move TERRAIN` or `on move then place TERRAIN`; other effects go on a piece's `moves`"),
            );
            continue;
        }
        if let Some(RulesEffect::Place(p)) = resolve_effect(ck, scope, e, None) {
            out = Some(p);
        }
    }
    super::pieces::one_second_part(ck, effects);
    let own = pieces.iter().find(|p| {
        p.components
            .iter()
            .any(|c| c.effects.iter().any(|e| matches!(e, RulesEffect::Place(_))))
    });
    if let (Some(piece), Some(e)) = (own, effects.first()) {
        ck.report(
            Problem::new(
                ProblemCode::PlaceTwice,
                e.span,
                format!(
                    "a move has one second part: `{}` has its own on a move line",
                    piece.name
                ),
            )
            .label("every move's second part")
            .help("give the second part either to every move (`on move`) or to the move lines"),
        );
    }
    out
}

/// `on check then EFFECTS`: the counter changes a check makes. Only counters can
/// change: the other effects are a moving piece's, and a check has none.
fn on_check(
    ck: &mut Checker,
    scope: &Scope,
    effects: &[Spanned<Effect>],
    span: Span,
    pieces: &[Piece],
) -> Vec<(CounterId, i64)> {
    needs_royal(ck, span, pieces, "on check");
    let mut out = Vec::new();
    for e in effects {
        if !matches!(e.node, Effect::Counter(..)) {
            ck.report(
                Problem::new(ProblemCode::EventEffect, e.span, "a check can only change counters")
                    .label("not a counter change")
                    .help("write `on check then counter NAME +1`; a piece's own effects go on its `moves`"),
            );
            continue;
        }
        if let Some(RulesEffect::Counter(c, d)) = resolve_effect(ck, scope, e, None) {
            out.push((c, d));
        }
    }
    out
}

/// A rule about check (`on check`, `duple-check`) in a game without a royal piece:
/// no piece is ever in check.
fn needs_royal(ck: &mut Checker, span: Span, pieces: &[Piece], rule: &str) {
    if !pieces.iter().any(|p| p.royal) && !pieces.is_empty() {
        ck.report(
            Problem::new(
                ProblemCode::CheckWithoutRoyal,
                span,
                format!("`{rule}` is about check, which needs a royal piece, and none is declared"),
            )
            .label("no piece is ever in check")
            .help("mark the king-like piece `royal`"),
        );
    }
}

/// `captures-explode [except PIECE ...]`: the kinds spared, resolved. Pieces that go
/// to a hand when captured cannot also be blown away (`varsand::explosion-to-hand`).
fn explosions(
    ck: &mut Checker,
    scope: &Scope,
    file: &File,
    spared: &[Name],
    span: Span,
    pieces: &[Piece],
) -> Vec<PieceKind> {
    let to_hand = file
        .decls
        .iter()
        .any(|d| matches!(d, Decl::CapturesToHand(_)))
        || pieces.iter().any(|p| p.to_hand.is_some());
    if to_hand {
        ck.report(
            Problem::new(
                ProblemCode::ExplosionToHand,
                span,
                "captures explode, but captured pieces go to a hand",
            )
            .label("an exploded piece would have nowhere to go")
            .help("remove `captures-explode`, or `captures-to-hand` and the pieces' `captured-to-hand` and `in-hand-as`"),
        );
    }
    let mut out = Vec::new();
    for name in spared {
        if let Some(k) = scope.resolve_piece(ck, name)
            && !out.contains(&k)
        {
            out.push(k);
        }
    }
    out
}

/// Is any piece ever placed from the hand (`drop in ZONE`, or a piece's `drops`)?
fn ever_dropped(file: &File, pieces: &[Piece]) -> bool {
    file.decls.iter().any(|d| matches!(d, Decl::Drop(_)))
        || pieces.iter().any(|p| p.drops.is_some())
}

/// `forbid mate-by-drop PIECE` names a piece that is never placed from the hand.
fn never_dropped(ck: &mut Checker, file: &File, scope: &Scope, out: &Movement, pieces: &[Piece]) {
    for d in &file.decls {
        let Decl::Forbid(f) = d else { continue };
        let Forbid::MateByDrop(p) = &f.node else {
            continue;
        };
        let Some(&k) = scope.pieces.index.get(p.node.as_str()) else {
            continue; // reported as unknown
        };
        let dropped = out.drop_zone.is_some() || pieces.get(k).is_some_and(|p| p.drops.is_some());
        if !dropped {
            ck.report(
                Problem::new(
                    ProblemCode::NeverDropped,
                    p.span,
                    format!("`{}` is never placed from the hand", p.node),
                )
                .help(
                    "pieces are placed from the hand by `drop in ZONE`, or a piece's `drops` rule",
                ),
            );
        }
    }
}

/// A face placed from the hand of the piece it is kept as (`in-hand-as` with
/// `drops`), where that piece is itself kept in hand as another: it never is in a hand,
/// so the face is never placed.
fn face_never_held(ck: &mut Checker, scope: &Scope, pieces: &[Piece]) {
    for (k, p) in pieces.iter().enumerate() {
        let (Some(held), Some(_)) = (p.kept_as(k), &p.drops) else {
            continue;
        };
        let Some(other) = pieces[held.index()].kept_as(held.index()) else {
            continue;
        };
        let Some(decl) = scope.pieces.decls.get(k) else {
            continue;
        };
        let span = decl
            .props
            .iter()
            .find(|prop| matches!(prop.node, PieceProp::Drops { .. }))
            .map_or(decl.name.span, |prop| prop.span);
        let held = &pieces[held.index()].name;
        ck.report(
            Problem::new(
                ProblemCode::FaceNeverHeld,
                span,
                format!(
                    "`{}` is placed from the hand's `{held}`s, but a captured `{held}` goes to the hand as `{}`",
                    p.name,
                    pieces[other.index()].name
                ),
            )
            .label("never placed: no hand holds this piece")
            .help(format!(
                "give `{}` `in-hand-as` the piece the hand holds, or take `in-hand-as` off `{held}`",
                p.name
            )),
        );
    }
}

/// `flip PLAYER in ZONE [if own PIECE in ZONE]`.
fn flip(ck: &mut Checker, scope: &Scope, f: &FlipDecl, rules: &mut [Option<FlipRule>; 2]) {
    let Some(side) = scope.resolve_player(ck, &f.player) else {
        return;
    };
    let zone = scope.resolve_zone(ck, &f.zone);
    let needs = match &f.needs {
        None => None,
        Some((p, z)) => match (scope.resolve_piece(ck, p), scope.resolve_zone(ck, z)) {
            (Some(p), Some(z)) => Some((p, z)),
            _ => return,
        },
    };
    if rules[side].is_some() {
        ck.report(
            Problem::new(
                ProblemCode::DuplicateFlip,
                f.span,
                format!("{} has two flip rules", f.player.node),
            )
            .help("keep one `flip` line per player"),
        );
    }
    if let Some(zone) = zone {
        rules[side] = Some(FlipRule { zone, needs });
    }
}

/// `pass [if CONDITIONS]`: only conditions on the player (counters) apply, as a
/// pass moves no piece from or to any square.
fn pass(ck: &mut Checker, scope: &Scope, conditions: &[Spanned<Condition>]) -> Vec<Cond> {
    let mut out = Vec::new();
    for c in conditions {
        let what = match &c.node {
            Condition::Counter(..) | Condition::InCheck { .. } | Condition::CountOnBoard { .. } => {
                out.extend(resolve_condition(ck, scope, c, None));
                continue;
            }
            Condition::From(_) => "`from`",
            Condition::To(_) => "`to`",
            Condition::Height(..) => "`height`",
            Condition::CloserTo { .. } => "`closer-to`",
            Condition::NoneOnFile { .. } => "`on-file`",
            Condition::Captures { .. } => "`captures`",
            Condition::Over { .. } => "`over`",
            Condition::Converts => "`converts`",
            Condition::Checking { .. } => "`checking`",
            Condition::Attacking { .. } => "`attacking`",
        };
        ck.report(
            Problem::new(
                ProblemCode::PassCondition,
                c.span,
                format!("a pass moves no piece: {what} does not apply to it"),
            )
            .label("not a condition of a pass")
            .help("a pass may depend on a counter: `pass if counter NAME > 0`"),
        );
    }
    out
}

/// The gates of `gating in ZONE`: the zone's squares on the main board, each player's
/// own, in the order of their rights' bits (after the castlings'). A position string
/// names a gate by its file, so a player has at most one per file; rights are the bits
/// of a `u32`, so castlings and gates are at most 32 together.
pub(crate) fn gates(
    ck: &mut Checker,
    scope: &Scope,
    gating: Option<(ZoneId, Span)>,
    castlings: usize,
) -> Vec<(Side, Cell)> {
    let Some((zone, span)) = gating.filter(|_| !scope.geometry.boards.is_empty()) else {
        return Vec::new();
    };
    let geo = &scope.geometry;
    let mut gates: Vec<(Side, Cell)> = Vec::new();
    for side in Side::BOTH {
        for cell in geo.board_cells(0).map(Cell::new) {
            if !scope.zones[zone].cells[side][cell] {
                continue;
            }
            let file = geo.cells[cell].file;
            if let Some(&(_, other)) = gates
                .iter()
                .find(|&&(s, c)| s == side && geo.cells[c].file == file)
            {
                ck.report(
                    Problem::new(
                        ProblemCode::GatesOnOneFile,
                        span,
                        format!(
                            "{} and {} are both gates of one player on file {}",
                            geo.name(other),
                            geo.name(cell),
                            crate::model::file_letter(file)
                        ),
                    )
                    .label("this zone")
                    .help("a position string names a gate by its file: give each player at most one square per file, such as `{ white: rank 1  black: rank 8 }`"),
                );
                return Vec::new();
            }
            gates.push((side, cell));
        }
    }
    if castlings + gates.len() > 32 {
        ck.report(
            Problem::new(
                ProblemCode::TooManyGates,
                span,
                format!(
                    "{} gates and {castlings} castlings: a position keeps at most 32 such rights",
                    gates.len()
                ),
            )
            .label("this zone")
            .help("gate fewer squares, or declare fewer castlings"),
        );
        return Vec::new();
    }
    gates
}

/// Every castling the file declares (none without a board: that is reported once).
pub(crate) fn castlings(ck: &mut Checker, file: &File, scope: &Scope) -> Vec<Castling> {
    let mut castlings: Vec<Castling> = Vec::new();
    for d in &file.decls {
        let Decl::Castle(c) = d else { continue };
        if scope.geometry.boards.is_empty() {
            continue; // the missing board is reported once, not per square
        }
        if let Some(castling) = castling(ck, scope, c, &castlings) {
            castlings.push(castling);
        }
    }
    if castlings.len() > 32 {
        ck.report(Problem::new(
            ProblemCode::TooManyCastlings,
            ck.end_of_file,
            "at most 32 castling declarations",
        ));
    }
    castlings
}

fn castling(
    ck: &mut Checker,
    scope: &Scope,
    c: &CastleDecl,
    declared: &[Castling],
) -> Option<Castling> {
    let geometry = &scope.geometry;
    let side = scope.resolve_player(ck, &c.player);
    if declared.iter().any(|x| x.letter == c.right.node) {
        ck.report(
            Problem::new(
                ProblemCode::DuplicateCastle,
                c.right.span,
                format!("castling right `{}` is declared twice", c.right.node),
            )
            .help("each castling needs its own letter, as in KQkq"),
        );
    }
    let mut sq = |n: &Name| match geometry.parse_square(&n.node) {
        Some(cell) => Some(cell),
        None => {
            ck.report(off_board(n, geometry));
            None
        }
    };
    let (kf, kt, rf, rt) = (
        sq(&c.king_from),
        sq(&c.king_to),
        sq(&c.rook_from),
        sq(&c.rook_to),
    );
    let (side, kf, kt, rf, rt) = (side?, kf?, kt?, rf?, rt?);
    if kf == rf || kt == rt {
        let (what, span) = if kf == rf {
            ("start", c.rook_from.span)
        } else {
            ("end", c.rook_to.span)
        };
        ck.report(
            Problem::new(ProblemCode::CastleSquares, span, format!("the two castling pieces {what} on the same square"))
                .label("the king-like piece's square too")
                .help("the rook-like piece starts and ends on squares of its own: `castle white K e1-g1 with h1-f1`"),
        );
        return None;
    }
    let (kc, rc) = (&geometry.cells[kf], &geometry.cells[rf]);
    let (tc, uc) = (&geometry.cells[kt], &geometry.cells[rt]);
    if kc.rank != rc.rank
        || tc.rank != kc.rank
        || uc.rank != kc.rank
        || kc.board != 0
        || rc.board != 0
    {
        ck.report(
            Problem::new(ProblemCode::CastleLine, c.span, "castling moves both pieces along one rank")
                .help("write `castle PLAYER LETTER KING_FROM-KING_TO with ROOK_FROM-ROOK_TO`, all on one rank"),
        );
        return None;
    }
    let at = |f: usize| {
        geometry
            .cell_at(kc.board, f as i32, kc.rank as i32)
            .unwrap()
    };
    let files = |a: usize, b: usize| a.min(b)..=a.max(b);
    let mut must_be_empty = Vec::new();
    for cell in files(kc.file, tc.file)
        .chain(files(rc.file, uc.file))
        .map(at)
    {
        if cell != kf && cell != rf && !must_be_empty.contains(&cell) {
            must_be_empty.push(cell);
        }
    }
    Some(Castling {
        side: Side::new(side),
        letter: c.right.node,
        king_from: kf,
        king_to: kt,
        rook_from: rf,
        rook_to: rt,
        must_be_empty,
        king_path: files(kc.file, tc.file).map(at).collect(),
    })
}
