//! Terrain: letters that stand on squares, blocking passing or landing, cleared or
//! crossed by some pieces.

use super::pieces::Letters;
use super::{Checker, Scope};
use crate::diagnostic::{Problem, ProblemCode};
use crate::model::Mark;
use crate::model::Terrain;
use crate::syntax::ast::{BlockKind, Decl, File, Name, TerrainDecl};

/// Every terrain the file declares.
pub(crate) fn terrains(
    ck: &mut Checker,
    file: &File,
    scope: &Scope,
    letters: &Letters,
) -> Vec<Terrain> {
    let mut terrains: Vec<Terrain> = Vec::new();
    for d in &file.decls {
        let Decl::Terrain(t) = d else { continue };
        let t = terrain(ck, t, scope, letters, &terrains);
        terrains.push(t);
    }
    terrains
}

fn terrain(
    ck: &mut Checker,
    t: &TerrainDecl,
    scope: &Scope,
    letters: &Letters,
    declared: &[Terrain],
) -> Terrain {
    let l = t.letter.node;
    // `~` also marks a piece that remembers its promotion (`Q~`).
    let taken = |(letter, mark): &(char, Mark)| {
        (*mark == Mark::Plain && *letter == l.to_ascii_uppercase())
            || (*mark == Mark::Tilde && l == '~')
    };
    let owner = letters
        .iter()
        .find_map(|m| m.iter().find(|(k, _)| taken(k)).map(|(_, v)| *v));
    if let Some(owner) = owner {
        ck.report(
            Problem::new(
                ProblemCode::TerrainLetter,
                t.letter.span,
                format!("`{l}` is already the letter of piece `{}`", owner.node),
            )
            .label("taken by a piece")
            .help("terrain letters must differ from every piece letter in either case"),
        );
    }
    if declared
        .iter()
        .any(|x| x.letter == l || x.name == t.name.node)
    {
        ck.report(
            Problem::new(
                ProblemCode::DuplicateTerrain,
                t.span,
                format!("terrain `{}` ({l}) is declared twice", t.name.node),
            )
            .help("give each terrain its own name and letter"),
        );
    }
    let (mut passing, mut landing) = (true, true);
    if let Some(blocks) = &t.blocks {
        passing = blocks.iter().any(|b| b.node == BlockKind::Passing);
        landing = blocks.iter().any(|b| b.node == BlockKind::Landing);
    }
    let mask = |ck: &mut Checker, list: &[Name]| {
        list.iter()
            .filter_map(|n| scope.resolve_piece(ck, n))
            .fold(0u64, |m, k| m | 1 << k.index())
    };
    Terrain {
        name: t.name.node.clone(),
        letter: l,
        blocks_passing: passing,
        blocks_landing: landing,
        cleared_by: mask(ck, &t.cleared_by),
        crossed_by: mask(ck, &t.crossed_by),
    }
}
