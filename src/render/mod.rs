//! Pictures of a game: a position as SVG ([`svg`]), charts of an analysis
//! ([`chart`]), and the colours both share with the terminal board ([`palette`]).
//!
//! What a picture shows is decided here, once for every medium: which zones are
//! tinted ([`shown_zones`]) and how each kind of terrain looks ([`terrain_looks`]),
//! read from the rules' properties, never from their names.

pub mod chart;
pub mod diagram;
#[cfg(feature = "cli")]
pub mod palette;
pub mod svg;

use crate::engine::{Move, Position};
use crate::model::Terrain;
use crate::rules::{Cell, Cond, EMPTY, Rules, Source, ZoneId, kind_of, side_of};

/// What a picture of a position marks besides the position itself.
#[derive(Debug, Clone, Default)]
pub struct BoardOptions {
    /// The move whose squares are tinted (its from and to squares).
    pub last_move: Option<Move>,
    /// Squares tinted as highlighted (a selected piece and where it may go).
    pub highlighted: Vec<Cell>,
    /// Drawn from the second player's side (their first rank at the bottom).
    pub flipped: bool,
}

impl BoardOptions {
    /// The options that mark the position's own last move.
    pub fn of(pos: &Position) -> BoardOptions {
        BoardOptions {
            last_move: pos.last_move(),
            ..BoardOptions::default()
        }
    }

    /// The squares the last move marks: none for a pass or a swap.
    pub fn last_move_cells(&self) -> Vec<Cell> {
        let Some(m) = self.last_move else {
            return Vec::new();
        };
        if m.moves_nothing() {
            return Vec::new();
        }
        [m.origin(), m.target()].into_iter().flatten().collect()
    }
}

/// The zones a picture tints, most important first, at most one per zone tint of the
/// palette. A zone is left out when no rule uses it (it only names squares, for
/// other zones or for the reader of the file), when it covers a whole board (nothing
/// to tell apart), when every square of it is already tinted by a zone before it (a
/// union of others, or the squares of a flight), or when there is no tint left. Zones
/// that decide promotions, the end of the game, drops, exits, flights or flips come
/// first, then zones named by moves' conditions, each group in the file's order.
pub fn shown_zones(rules: &Rules) -> Vec<ZoneId> {
    let geo = &rules.geometry;
    let importance = zone_importance(rules);
    let mut order: Vec<usize> = (0..rules.zones.len()).collect();
    order.sort_by_key(|&z| std::cmp::Reverse(importance[z]));
    let mut tinted = vec![false; geo.len()];
    let mut shown = Vec::new();
    for z in order {
        if shown.len() == palette::ZONES.len() || importance[z] == 0 {
            break;
        }
        let cells = zone_cells(rules, ZoneId::new(z));
        let whole_board = (0..geo.boards.len()).any(|b| geo.board_cells(b).all(|c| cells[c]));
        let news = (0..geo.len()).any(|c| cells[c] && !tinted[c]);
        if whole_board || !news {
            continue;
        }
        for (t, &c) in tinted.iter_mut().zip(&cells) {
            *t |= c;
        }
        shown.push(ZoneId::new(z));
    }
    shown
}

/// The zones that split the main board between the players: each player's squares
/// are the other's complement, as two halves. A picture draws the line
/// between the halves rather than tinting them (their union is the whole board).
pub fn split_zones(rules: &Rules) -> Vec<ZoneId> {
    let main = rules.geometry.board_cells(0);
    (0..rules.zones.len())
        .map(ZoneId::new)
        .filter(|&z| {
            let [a, b] = &rules.zone(z).cells;
            let mine = main.clone().filter(|&c| a[c]).count();
            mine > 0 && mine < main.len() && main.clone().all(|c| a[c] != b[c])
        })
        .collect()
}

/// The borders the split zones draw: pairs of neighbouring squares of the main board
/// (the lower cell first) that lie on either side of a split, each pair once.
pub fn split_edges(rules: &Rules, zones: &[ZoneId]) -> Vec<(Cell, Cell)> {
    let geo = &rules.geometry;
    let mut edges = Vec::new();
    for &z in zones {
        let inside = &rules.zone(z).cells[0];
        for c in geo.board_cells(0) {
            for (dx, dy) in [(1, 0), (0, 1)] {
                let Some(o) = geo.offset(Cell::new(c), dx, dy) else {
                    continue;
                };
                let edge = (Cell::new(c), o);
                if inside[c] != inside[o] && !edges.contains(&edge) {
                    edges.push(edge);
                }
            }
        }
    }
    edges
}

/// A zone's squares for either player.
pub fn zone_cells(rules: &Rules, zone: ZoneId) -> Vec<bool> {
    let z = rules.zone(zone);
    z.cells[0]
        .iter()
        .zip(&z.cells[1])
        .map(|(a, b)| *a || *b)
        .collect()
}

/// A zone given per player, in words: "white: ranks 8-10, black: ranks 1-3"; `None`
/// when it is the same for both.
pub fn zone_per_player(rules: &Rules, zone: ZoneId) -> Option<String> {
    let z = rules.zone(zone);
    if z.cells[0] == z.cells[1] {
        return None;
    }
    let sides: Vec<String> = (0..2)
        .map(|s| {
            format!(
                "{}: {}",
                rules.players[s].name,
                squares_in_words(rules, &z.cells[s])
            )
        })
        .collect();
    Some(sides.join(", "))
}

/// A set of squares in words: whole ranks of the main board as "rank 8" or "ranks
/// 1-3", else the squares themselves when few, else their number.
fn squares_in_words(rules: &Rules, cells: &[bool]) -> String {
    let geo = &rules.geometry;
    let main = &geo.boards[0];
    let in_rank = |r: usize| (0..main.files).map(move |f| main.first_cell + r * main.files + f);
    let full: Vec<usize> = (0..main.ranks)
        .filter(|&r| in_rank(r).all(|c| cells[c]))
        .collect();
    let count = cells.iter().filter(|&&c| c).count();
    let contiguous = full.windows(2).all(|w| w[1] == w[0] + 1);
    if !full.is_empty() && contiguous && full.len() * main.files == count {
        let (lo, hi) = (full[0] + 1, full[full.len() - 1] + 1);
        return if lo == hi {
            format!("rank {lo}")
        } else {
            format!("ranks {lo}-{hi}")
        };
    }
    if count == 0 {
        return "none".into();
    }
    if let Some(rect) = rectangle_in_words(rules, cells, count) {
        return rect;
    }
    if count <= 6 {
        let names: Vec<&str> = (0..cells.len())
            .filter(|&c| cells[c])
            .map(|c| geo.name(Cell::new(c)))
            .collect();
        return names.join(" ");
    }
    format!("{count} squares")
}

/// A rectangle of the main board in words, "files d-f of ranks 1-3", if the squares
/// are one.
fn rectangle_in_words(rules: &Rules, cells: &[bool], count: usize) -> Option<String> {
    let geo = &rules.geometry;
    let inside: Vec<&crate::rules::CellInfo> = (0..cells.len())
        .filter(|&c| cells[c])
        .map(|c| &geo.cells[c])
        .collect();
    if inside.iter().any(|c| c.board != 0) {
        return None;
    }
    let files = (
        inside.iter().map(|c| c.file).min()?,
        inside.iter().map(|c| c.file).max()?,
    );
    let ranks = (
        inside.iter().map(|c| c.rank).min()?,
        inside.iter().map(|c| c.rank).max()?,
    );
    if (files.1 - files.0 + 1) * (ranks.1 - ranks.0 + 1) != count || count < 2 {
        return None;
    }
    let letter = crate::rules::file_letter;
    Some(format!(
        "files {}-{} of ranks {}-{}",
        letter(files.0),
        letter(files.1),
        ranks.0 + 1,
        ranks.1 + 1
    ))
}

/// The tint of a square: the first shown zone it lies in, as an index into `shown`.
pub fn zone_tint(rules: &Rules, shown: &[ZoneId], cell: Cell) -> Option<usize> {
    shown.iter().position(|&z| {
        let z = rules.zone(z);
        z.cells[0][cell] || z.cells[1][cell]
    })
}

/// How much each zone matters to a picture: 2 for zones that decide promotions, ends,
/// drops, exits, flights and flips; 1 for zones of move conditions only; 0 for the
/// rest.
fn zone_importance(rules: &Rules) -> Vec<u8> {
    zone_roles(rules)
        .iter()
        .map(|roles| match roles.as_slice() {
            [] => 0,
            [ZoneRole::Moves] => 1,
            _ => 2,
        })
        .collect()
}

/// What a zone is used for, as a legend tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ZoneRole {
    Promotion,
    Goal,
    Drops,
    Gates,
    Exit,
    Flight,
    Flip,
    /// A condition of some moves (`if from ZONE`).
    Moves,
}

impl ZoneRole {
    pub fn words(self) -> &'static str {
        match self {
            ZoneRole::Promotion => "promotion",
            ZoneRole::Goal => "goal",
            ZoneRole::Drops => "drops",
            ZoneRole::Gates => "gates",
            ZoneRole::Exit => "exit",
            ZoneRole::Flight => "flight",
            ZoneRole::Flip => "flip",
            ZoneRole::Moves => "some moves",
        }
    }
}

/// Each zone's uses, in [`ZoneRole`] order, each once.
pub fn zone_roles(rules: &Rules) -> Vec<Vec<ZoneRole>> {
    let mut roles = vec![Vec::new(); rules.zones.len()];
    let mut add = |z: ZoneId, role: ZoneRole| roles[z].push(role);
    for p in &rules.pieces {
        for pr in &p.promotions {
            add(pr.zone, ZoneRole::Promotion);
        }
    }
    for end in &rules.end_rules {
        if let crate::model::EndRule::Reached { zone, .. } = end {
            add(*zone, ZoneRole::Goal);
        }
    }
    if let Some(z) = rules.gating_zone {
        add(z, ZoneRole::Gates);
    }
    for g in &rules.generators {
        let role = match g.source {
            Source::Drop => ZoneRole::Drops,
            Source::Exit => ZoneRole::Exit,
            Source::Flight { to, .. } => {
                add(to, ZoneRole::Flight);
                ZoneRole::Flight
            }
            Source::Flip { .. } => ZoneRole::Flip,
            _ => ZoneRole::Moves,
        };
        for c in &g.conditions {
            if let Cond::From(z) | Cond::To(z) | Cond::OwnPieceIn { zone: z, .. } = *c {
                add(z, role);
            }
        }
    }
    for r in &mut roles {
        r.sort();
        r.dedup();
    }
    roles
}

/// How terrain is drawn: a pattern over its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// Blocks every piece and is never removed: a barrier.
    Bricks,
    /// An obstacle some pieces remove: hatching, peaks, cross-hatching in turn.
    Hatch,
    Peaks,
    CrossHatch,
    /// Some pieces cross it: waves.
    Waves,
    /// It blocks nothing, or only passing or only landing: dots.
    Dots,
}

impl Pattern {
    /// The mark that fills an empty square of this terrain in plain text: never a
    /// letter, a digit or a piece's mark, so it cannot be read as a piece.
    fn mark(self) -> char {
        match self {
            Pattern::Bricks => '#',
            Pattern::Hatch => '/',
            Pattern::Peaks => '^',
            Pattern::CrossHatch => '%',
            Pattern::Waves => '=',
            Pattern::Dots => ':',
        }
    }
}

/// How one kind of terrain is drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TerrainLook {
    pub pattern: Pattern,
    /// An index into [`palette::TERRAIN`].
    pub colour: usize,
    /// Its mark in plain text (see [`Pattern`]).
    pub mark: char,
    /// Its properties in words, for legends: "blocks passing and landing; cleared by"
    /// and the pieces' names.
    pub words: String,
}

/// How each kind of terrain of the rules is drawn, decided by its properties: a barrier
/// (blocks everything, removed by nobody) as bricks; an obstacle some pieces remove
/// as hatching, peaks or cross-hatching; terrain some pieces cross as waves; the rest
/// as dots. Kinds with the same properties take the family's next pattern and colour.
pub fn terrain_looks(rules: &Rules) -> Vec<TerrainLook> {
    const MARKS_LEFT: [char; 6] = ['*', '&', '$', '"', '?', ';'];
    let mut seen = [0usize; 4];
    let mut used_marks = Vec::new();
    rules
        .terrains
        .iter()
        .map(|t| {
            let (family, patterns, colours): (usize, &[Pattern], &[usize]) = if t.crossed_by != 0 {
                (0, &[Pattern::Waves], &[2, 3])
            } else if t.cleared_by != 0 {
                (
                    1,
                    &[Pattern::Hatch, Pattern::Peaks, Pattern::CrossHatch],
                    &[0, 1, 4],
                )
            } else if t.blocks_passing && t.blocks_landing {
                (2, &[Pattern::Bricks], &[1, 5])
            } else {
                (3, &[Pattern::Dots], &[4, 5])
            };
            let k = seen[family];
            seen[family] += 1;
            let pattern = patterns[k % patterns.len()];
            let mut mark = pattern.mark();
            if used_marks.contains(&mark) {
                mark = MARKS_LEFT
                    .into_iter()
                    .find(|m| !used_marks.contains(m))
                    .unwrap_or(mark);
            }
            used_marks.push(mark);
            TerrainLook {
                pattern,
                colour: colours[k % colours.len()],
                mark,
                words: terrain_words(rules, t),
            }
        })
        .collect()
}

/// A terrain's properties in words.
fn terrain_words(rules: &Rules, t: &Terrain) -> String {
    let blocks = match (t.blocks_passing, t.blocks_landing) {
        (true, true) => "blocks passing and landing",
        (true, false) => "blocks passing",
        (false, true) => "blocks landing",
        (false, false) => "blocks nothing",
    };
    let names = |set: u64| {
        let list: Vec<&str> = (0..rules.pieces.len())
            .filter(|&k| set >> k & 1 != 0)
            .map(|k| rules.pieces[k].name.as_str())
            .collect();
        list.join(", ")
    };
    let mut words = blocks.to_string();
    if t.cleared_by != 0 {
        words += &format!("; cleared by {}", names(t.cleared_by));
    }
    if t.crossed_by != 0 {
        words += &format!("; crossed by {}", names(t.crossed_by));
    }
    words
}

/// The squares of the side to move's royal pieces when one of them is attacked (a
/// picture tints them).
pub fn checked_royals(pos: &Position) -> Vec<Cell> {
    let side = pos.side_to_move();
    if !pos.in_check(side) {
        return Vec::new();
    }
    let royal = pos.rules().tables.kinds.royal;
    Cell::all(pos.rules().geometry.len())
        .filter(|&c| {
            let p = pos.piece_at(c);
            p != EMPTY && side_of(p) == side && royal >> kind_of(p) & 1 != 0
        })
        .collect()
}

/// `analyze --svg OUT.svg`: the report's charts, written to a file; the error is a
/// line ready to print.
pub fn write_chart(path: &std::path::Path, report: &crate::analyze::Report) -> Result<(), String> {
    std::fs::write(path, chart::report(report))
        .map_err(|e| format!("error: cannot write {}: {e}\n", path.display()))
}

/// `analyze --sweep … --svg OUT.svg`: the sweep's chart, written to a file; the error
/// is a line ready to print.
pub fn write_sweep_chart(
    path: &std::path::Path,
    report: &crate::analyze::SweepReport,
) -> Result<(), String> {
    std::fs::write(path, chart::sweep(report))
        .map_err(|e| format!("error: cannot write {}: {e}\n", path.display()))
}
