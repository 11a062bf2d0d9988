//! Boards, square names, and regions (ranks, files, squares, zones) as sets of cells.

use super::suggest::did_you_mean;
use super::{Checker, Params, Valid};
use crate::diagnostic::{Problem, ProblemCode};
use crate::ids::Side;
use crate::model::{Geometry, Zone};
use crate::syntax::ast::{BoardDecl, Count, Name, Region, RegionTerm, Span, Spanned};

/// The most squares of all boards together: the engine's tables grow with the
/// square of this number (a 26 x 99 board and side boards fit).
pub(crate) const MAX_SQUARES: usize = 4096;
/// The most boards a game may have.
pub(crate) const MAX_BOARDS: usize = 32;
/// Words a move is written as, which no square may be named.
const MOVE_WORDS: [&str; 2] = ["pass", "swap"];

/// Checks one `board` declaration and adds it to `geometry` if it is sound;
/// `side_board` when a board was declared before.
pub(crate) fn board(ck: &mut Checker, b: &BoardDecl, geometry: &mut Geometry, side_board: bool) {
    let mut ok = within_limits(ck, b, geometry);
    for (v, what, max) in [(&b.files, "files", 26), (&b.ranks, "ranks", 99)] {
        if v.node < 1 || v.node > max {
            ck.report(
                Problem::new(ProblemCode::BoardSize, v.span, format!("a board has 1 to {max} {what}, not {}", v.node))
                    .label("out of range")
                    .help("files are named a..z and ranks 1..99: a board has at most 26 files and 99 ranks"),
            );
            ok = false;
        }
    }
    let cells = b.files.node.max(0).saturating_mul(b.ranks.node.max(0)) as usize;
    if ok && !b.squares.is_empty() && b.squares.len() != cells {
        ck.report(
            Problem::new(
                ProblemCode::SquareNames,
                b.span,
                format!(
                    "{} square names for a board of {cells} squares",
                    b.squares.len()
                ),
            )
            .help("name every square, in the order a1, b1, ..., a2, ..."),
        );
    }
    for sq in &b.squares {
        if geometry.parse_square(&sq.node).is_some()
            || b.squares.iter().filter(|x| x.node == sq.node).count() > 1
        {
            ck.report(
                Problem::new(
                    ProblemCode::DuplicateSquare,
                    sq.span,
                    format!("square name `{}` is used twice", sq.node),
                )
                .label("named already")
                .help("every square of every board needs its own name"),
            );
            ok = false;
        }
    }
    let bname = b.name.as_ref().map_or_else(
        || format!("board{}", geometry.boards.len() + 1),
        |n| n.node.clone(),
    );
    if let Some(n) = &b.name
        && geometry.boards.iter().any(|x| x.name == n.node)
    {
        ck.report(
            Problem::new(
                ProblemCode::DuplicateBoard,
                n.span,
                format!("board `{}` is declared twice", n.node),
            )
            .help("give each board its own name"),
        );
        ok = false;
    }
    if side_board && b.name.is_none() {
        ck.report(
            Problem::new(ProblemCode::BoardName, b.span, "a side board needs a name").help(
                "write `board NAME FILES x RANKS`, such as `board cloud 2 x 1 squares c1 c2`",
            ),
        );
        ok = false;
    }
    ok &= square_names_read_apart(ck, b, geometry);
    if ok {
        let names: Vec<String> = b.squares.iter().map(|s| s.node.clone()).collect();
        geometry.add_board(&bname, b.files.node as usize, b.ranks.node as usize, &names);
    }
}

/// Is there room for the board's squares, and for one more board?
fn within_limits(ck: &mut Checker, b: &BoardDecl, geometry: &Geometry) -> bool {
    if ck.boards_over_limit {
        return false;
    }
    ck.boards_over_limit = true;
    if geometry.boards.len() >= MAX_BOARDS {
        ck.report(
            Problem::new(
                ProblemCode::TooManyBoards,
                b.span,
                format!("a game has at most {MAX_BOARDS} boards"),
            )
            .help("join small side boards into one with named squares"),
        );
        return false;
    }
    let cells = b.files.node.clamp(0, 26) as usize * b.ranks.node.clamp(0, 99) as usize;
    if geometry.len() + cells > MAX_SQUARES {
        ck.report(
            Problem::new(
                ProblemCode::TooManySquares,
                b.span,
                format!(
                    "this board brings the squares of all boards to {}, more than {MAX_SQUARES}",
                    geometry.len() + cells
                ),
            )
            .label("one board too many")
            .help(format!(
                "all boards together have at most {MAX_SQUARES} squares"
            )),
        );
        return false;
    }
    ck.boards_over_limit = false;
    true
}

/// Can every move text be read one way only? A square's name may not be a move word
/// (`pass`), nor another square's name followed by more than digits: beside `e8`, a
/// square `e8q` would make `e7e8q` both a promotion and a move to `e8q`.
fn square_names_read_apart(ck: &mut Checker, b: &BoardDecl, geometry: &Geometry) -> bool {
    let mut ok = true;
    let named =
        |n: &str| geometry.parse_square(n).is_some() || b.squares.iter().any(|x| x.node == n);
    // `short` is a square's name and `long` starts with it, then a non-digit.
    let clash = |short: &str, long: &str| {
        long.len() > short.len()
            && long.starts_with(short)
            && !long.as_bytes()[short.len()].is_ascii_digit()
    };
    for sq in &b.squares {
        let name = sq.node.as_str();
        let other = if MOVE_WORDS.contains(&name) {
            Some(name.to_string())
        } else {
            (1..name.len())
                .map(|k| &name[..k])
                .find(|p| named(p) && clash(p, name))
                .map(str::to_string)
                .or_else(|| {
                    geometry
                        .cells
                        .iter()
                        .map(|c| c.name.as_str())
                        .chain(b.squares.iter().map(|x| x.node.as_str()))
                        .find(|longer| clash(name, longer))
                        .map(str::to_string)
                })
        };
        if let Some(other) = other {
            let message = if other == name {
                format!("`{name}` is how a move is written, so no square may be named so")
            } else {
                format!("square names `{name}` and `{other}` make move texts ambiguous")
            };
            ck.report(
                Problem::new(ProblemCode::AmbiguousSquare, sq.span, message)
                    .label("reads as part of a move")
                    .help("a square's name may not be another square's name followed by letters: rename one of them"),
            );
            ok = false;
        }
    }
    ok
}

/// The problem for a square name that is not on the board.
pub(crate) fn off_board(n: &Name, geo: &Geometry) -> Problem {
    let p = Problem::new(
        ProblemCode::OffBoard,
        n.span,
        format!("`{}` is not a square of the board", n.node),
    )
    .label("off the board");
    match geo.boards.first() {
        Some(b) => p.help(format!(
            "the board has files a..{} and ranks 1..{}",
            crate::model::file_letter(b.files - 1),
            b.ranks
        )),
        None => p.help("declare the board first: `board FILES x RANKS`"),
    }
}

/// The cells of `region` on the main board; a zone in it counts for `side` (or, for
/// no side, the cells it holds for both players), and so does a parameter that stands
/// for a rank. `zones` are those declared so far.
pub(crate) fn region_cells(
    ck: &mut Checker,
    region: &Region,
    (geo, params): (&Geometry, &Params),
    zones: &[Zone],
    side: Option<Side>,
) -> Vec<bool> {
    let mut set = vec![false; geo.len()];
    let Some(b) = geo.boards.first() else {
        return set;
    };
    let (files, ranks) = (b.files as i64, b.ranks as i64);
    let add_rect = |f0: i64, f1: i64, r0: i64, r1: i64, set: &mut Vec<bool>| {
        for r in r0.min(r1)..=r0.max(r1) {
            for f in f0.min(f1)..=f0.max(f1) {
                if let Some(c) = geo.cell_at(0, f as i32, r as i32) {
                    set[c] = true;
                }
            }
        }
    };
    let valid = Valid::new(1..=ranks, "a rank");
    for term in region {
        let bad_rank = |r: i64| r < 1 || r > ranks;
        let bad_file = |f: char| (f as i64 - 'a' as i64) >= files;
        let mut rank = |c: &Count| params.count(ck, c, side, &valid);
        // The term's first and last rank (as written: a range may be empty).
        let term_ranks = match &term.node {
            RegionTerm::Rank(r) => rank(r).map(|r| (r, r)),
            RegionTerm::Ranks(a, z) => {
                let (a, z) = (rank(a), rank(z));
                a.zip(z)
            }
            _ => Some((1, 1)),
        };
        let Some((r0, r1)) = term_ranks else { continue };
        match &term.node {
            RegionTerm::Rank(_) | RegionTerm::Ranks(..) if bad_rank(r0) || bad_rank(r1) => {
                let r = if bad_rank(r0) { r0 } else { r1 };
                ck.report(
                    Problem::new(
                        ProblemCode::OffBoard,
                        term.span,
                        format!("rank {r} is not on the board"),
                    )
                    .label("off the board")
                    .help(format!("ranks run from 1 to {ranks}")),
                );
            }
            RegionTerm::File(f) | RegionTerm::Files(f, _) | RegionTerm::Files(_, f)
                if bad_file(*f) =>
            {
                ck.report(
                    Problem::new(
                        ProblemCode::OffBoard,
                        term.span,
                        format!("file {f} is not on the board"),
                    )
                    .label("off the board")
                    .help(format!(
                        "files run from a to {}",
                        crate::model::file_letter(b.files - 1)
                    )),
                );
            }
            RegionTerm::Ranks(..) if r0 > r1 => {
                ck.report(empty_range(term.span, "ranks", &r0, &r1));
            }
            RegionTerm::Files(a, z) if a > z => ck.report(empty_range(term.span, "files", a, z)),
            RegionTerm::Rank(_) | RegionTerm::Ranks(..) => {
                add_rect(0, files - 1, r0 - 1, r1 - 1, &mut set);
            }
            RegionTerm::File(f) => {
                let f = *f as i64 - 'a' as i64;
                add_rect(f, f, 0, ranks - 1, &mut set);
            }
            RegionTerm::Files(a, z) => add_rect(
                *a as i64 - 'a' as i64,
                *z as i64 - 'a' as i64,
                0,
                ranks - 1,
                &mut set,
            ),
            RegionTerm::All => geo.board_cells(0).for_each(|c| set[c] = true),
            RegionTerm::Board(name) => board_term(ck, term.span, name, geo, &mut set),
            RegionTerm::Square(s) => match geo.parse_square(s) {
                Some(c) => set[c] = true,
                // A zone may have a name shaped like a square (`z1`) that no square has.
                None if zones.iter().any(|z| z.name == *s) => {
                    zone_term(ck, term.span, s, geo, zones, side, &mut set);
                }
                None => ck.report(off_board(&Spanned::new(s.clone(), term.span), geo)),
            },
            RegionTerm::Zone(z) => zone_term(ck, term.span, z, geo, zones, side, &mut set),
        }
    }
    set
}

/// `board NAME` in a region: every cell of that board.
fn board_term(ck: &mut Checker, span: Span, name: &str, geo: &Geometry, set: &mut [bool]) {
    match geo.boards.iter().position(|b| b.name == name) {
        Some(b) => geo.board_cells(b).for_each(|c| set[c] = true),
        None => ck.report(
            Problem::new(
                ProblemCode::UnknownBoard,
                span,
                format!("no board is named `{name}`"),
            )
            .label("unknown board")
            .help(did_you_mean(
                name,
                geo.boards.iter().map(|b| b.name.as_str()),
                "board",
            )),
        ),
    }
}

/// A bare name in a region: a zone declared before, or a square name.
fn zone_term(
    ck: &mut Checker,
    span: Span,
    z: &str,
    geo: &Geometry,
    zones: &[Zone],
    side: Option<Side>,
    set: &mut [bool],
) {
    match zones.iter().find(|x| x.name == z) {
        None if geo.parse_square(z).is_some() => set[geo.parse_square(z).unwrap().index()] = true,
        Some(zone) => {
            for (i, v) in set.iter_mut().enumerate() {
                *v |= match side {
                    Some(s) => zone.cells[s][i],
                    None => zone.cells[0][i] && zone.cells[1][i],
                };
            }
        }
        None => {
            let help = if ck.zone_names.iter().any(|n| n == z) {
                format!(
                    "zone `{z}` is declared further down: declare it before the zones that use it"
                )
            } else {
                did_you_mean(z, zones.iter().map(|x| x.name.as_str()), "zone")
            };
            ck.report(
                Problem::new(
                    ProblemCode::UnknownZone,
                    span,
                    format!("no zone is named `{z}`"),
                )
                .label("unknown zone")
                .help(help),
            );
        }
    }
}

/// `ranks 4..1`: a range written backwards selects nothing, which is worth a warning.
fn empty_range(
    span: Span,
    what: &str,
    a: &impl std::fmt::Display,
    z: &impl std::fmt::Display,
) -> Problem {
    Problem::new(
        ProblemCode::EmptyRange,
        span,
        format!("`{what} {a}..{z}` selects nothing: the range runs backwards"),
    )
    .warning()
    .label("empty range")
    .help(format!("write the lower end first: `{what} {z}..{a}`"))
}
