//! Boards, square names, and regions (ranks, files, squares, zones) as sets of cells.

use super::Checker;
use super::names::did_you_mean;
use crate::diagnostic::Problem;
use crate::model::{Geometry, Zone};
use crate::syntax::ast::*;

/// Checks one `board` declaration and adds it to `geometry` if it is sound;
/// `side_board` when a board was declared before.
pub(crate) fn board(ck: &mut Checker, b: &BoardDecl, geometry: &mut Geometry, side_board: bool) {
    let mut ok = true;
    for (v, what, max) in [(&b.files, "files", 26), (&b.ranks, "ranks", 99)] {
        if v.node < 1 || v.node > max {
            ck.report(
                Problem::new("varsand::board-size", v.span, format!("a board has 1 to {max} {what}, not {}", v.node))
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
                "varsand::square-names",
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
                    "varsand::duplicate-square",
                    sq.span,
                    format!("square name `{}` is used twice", sq.node),
                )
                .label("named already")
                .help("every square of every board needs its own name"),
            );
            ok = false;
        }
    }
    let bname = b
        .name
        .as_ref()
        .map(|n| n.node.clone())
        .unwrap_or_else(|| format!("board{}", geometry.boards.len() + 1));
    if let Some(n) = &b.name
        && geometry.boards.iter().any(|x| x.name == n.node)
    {
        ck.report(
            Problem::new(
                "varsand::duplicate-board",
                n.span,
                format!("board `{}` is declared twice", n.node),
            )
            .help("give each board its own name"),
        );
        ok = false;
    }
    if side_board && b.name.is_none() {
        ck.report(
            Problem::new("varsand::board-name", b.span, "a side board needs a name").help(
                "write `board NAME FILES x RANKS`, such as `board cloud 2 x 1 squares c1 c2`",
            ),
        );
        ok = false;
    }
    if ok {
        let names: Vec<String> = b.squares.iter().map(|s| s.node.clone()).collect();
        geometry.add_board(&bname, b.files.node as usize, b.ranks.node as usize, &names);
    }
}

/// The problem for a square name that is not on the board.
pub(crate) fn off_board(n: &Name, geo: &Geometry) -> Problem {
    let p = Problem::new(
        "varsand::off-board",
        n.span,
        format!("`{}` is not a square of the board", n.node),
    )
    .label("off the board");
    match geo.boards.first() {
        Some(b) => p.help(format!(
            "the board has files a..{} and ranks 1..{}",
            crate::rules::file_letter(b.files - 1),
            b.ranks
        )),
        None => p.help("declare the board first: `board FILES x RANKS`"),
    }
}

/// The cells of `region` on the main board; a zone in it counts for `side` (or, for
/// no side, the cells it holds for both players). `zones` are those declared so far.
pub(crate) fn region_cells(
    ck: &mut Checker,
    region: &Region,
    geo: &Geometry,
    zones: &[Zone],
    side: Option<usize>,
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
                    set[c as usize] = true;
                }
            }
        }
    };
    for term in region {
        let bad_rank = |r: i64| r < 1 || r > ranks;
        let bad_file = |f: char| (f as i64 - 'a' as i64) >= files;
        match &term.node {
            RegionTerm::Rank(r) | RegionTerm::Ranks(r, _) | RegionTerm::Ranks(_, r)
                if bad_rank(*r) =>
            {
                ck.report(
                    Problem::new(
                        "varsand::off-board",
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
                        "varsand::off-board",
                        term.span,
                        format!("file {f} is not on the board"),
                    )
                    .label("off the board")
                    .help(format!(
                        "files run from a to {}",
                        crate::rules::file_letter(b.files - 1)
                    )),
                );
            }
            RegionTerm::Rank(r) => add_rect(0, files - 1, r - 1, r - 1, &mut set),
            RegionTerm::Ranks(a, z) => add_rect(0, files - 1, a - 1, z - 1, &mut set),
            RegionTerm::File(f) => {
                let f = *f as i64 - 'a' as i64;
                add_rect(f, f, 0, ranks - 1, &mut set)
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
                Some(c) => set[c as usize] = true,
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
                "varsand::unknown-board",
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
    side: Option<usize>,
    set: &mut [bool],
) {
    match zones.iter().find(|x| x.name == z) {
        None if geo.parse_square(z).is_some() => set[geo.parse_square(z).unwrap() as usize] = true,
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
                    "varsand::unknown-zone",
                    span,
                    format!("no zone is named `{z}`"),
                )
                .label("unknown zone")
                .help(help),
            )
        }
    }
}
