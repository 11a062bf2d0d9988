//! A piece's movement diagram: where it moves and captures from a central square of an
//! otherwise empty main board (of the squares from which it reaches the most, the
//! nearest to the middle: the centre of its zone for a piece bound to a few squares),
//! as SVG (`varsand render FILE --piece NAME`, the cards of the web board's rules
//! panel, the diagrams of `docs/rules/`).
//!
//! The squares come from the real move generator, never from a second reading of the
//! Betza string: the piece alone on the board gives its moves; the piece with one enemy
//! piece on a square (of each kind the enemy may have, in turn) tells whether it may
//! take there; with one more piece beside it on the line, whether it takes (or moves)
//! only by jumping a piece. The piece counts as unmoved, so first-move steps are shown.
//! Every mark carries `data-reach` (`move`, `capture`, `both`, `hop` or
//! `move-and-hop-capture`) and `data-square`, for tools and tests.

use std::fmt::Write;
use std::sync::Arc;

use super::palette::{self, Colour, Tint};
use super::svg::{Token, esc, face, num};
use crate::engine::Position;
use crate::model::{Symbol, code};
use crate::rules::{Cell, Code, Rules, Side};

/// The side of a square, in pixels.
const SQUARE: f64 = 28.0;
const PAD: f64 = 8.0;
/// The narrowest drawing, in pixels: room for the longest legend line beside a
/// board of five files.
const MIN_WIDTH: f64 = 270.0;
/// The title line above the board, and one legend line below it.
const LINE: f64 = 16.0;

/// What a piece may do on one square of the main board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Move there when it is empty, not capture there.
    Move,
    /// Capture there, not move there.
    Capture,
    Both,
    /// Only with a piece to jump on the way (a hopper's move or capture).
    Hop,
    /// Move there; capture there only by jumping a piece on the way.
    MoveAndHopCapture,
}

impl Reach {
    pub fn name(self) -> &'static str {
        match self {
            Reach::Move => "move",
            Reach::Capture => "capture",
            Reach::Both => "both",
            Reach::Hop => "hop",
            Reach::MoveAndHopCapture => "move-and-hop-capture",
        }
    }
}

/// A piece's diagram as read from the move generator: its square, its side, and what
/// it may do on each cell of the main board.
pub struct Diagram {
    pub kind: usize,
    pub side: Side,
    pub from: Cell,
    pub reach: Vec<Option<Reach>>,
}

/// The piece a name stands for: its letter as position strings write it (`N`, `+P`,
/// `k`), or its shown name in any case when no other piece shares it.
pub fn find_piece(rules: &Rules, name: &str) -> Result<usize, String> {
    let symbols: Vec<String> = (0..rules.pieces.len())
        .map(|k| symbol_of(rules, k))
        .collect();
    if let Some(k) = symbols.iter().position(|s| s == name) {
        return Ok(k);
    }
    let named: Vec<usize> = (0..rules.pieces.len())
        .filter(|&k| rules.pieces[k].name.eq_ignore_ascii_case(name))
        .collect();
    match named[..] {
        [k] => Ok(k),
        [] => Err(format!(
            "no piece is named `{name}`: the pieces are {}",
            (0..rules.pieces.len())
                .map(|k| format!("{} ({})", rules.pieces[k].name, symbols[k]))
                .collect::<Vec<_>>()
                .join(", ")
        )),
        _ => Err(format!(
            "`{name}` is the name of several pieces: give one's letter ({})",
            named
                .iter()
                .map(|&k| symbols[k].as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// A piece's letter as its owner writes it in position strings.
pub fn symbol_of(rules: &Rules, kind: usize) -> String {
    let p = &rules.pieces[kind];
    let symbol = Symbol {
        letter: p.letter,
        mark: p.mark,
    };
    symbol.text(p.owner != Some(Side::Second))
}

/// The side a diagram shows a piece for: its owner, else the first player.
fn side_of_kind(rules: &Rules, kind: usize) -> Side {
    rules.pieces[kind].owner.unwrap_or(Side::First)
}

/// The square a diagram puts the piece on: the middle file, and the middle rank or,
/// on an even number of ranks, the one of the two nearer the piece's own side.
fn centre(rules: &Rules, side: Side) -> Cell {
    let b = &rules.geometry.boards[0];
    let rank = if side.is_first() {
        (b.ranks - 1) / 2
    } else {
        b.ranks / 2
    };
    rules
        .geometry
        .cell_at(0, (b.files / 2) as i32, rank as i32)
        .expect("the middle of the main board is a square")
}

/// The square a diagram shows the piece on: of the squares from which it reaches the
/// most squares of an empty board, the nearest to the middle (the middle itself for
/// most pieces; the centre of its zone for one bound to a few squares; a square of the
/// far half for one that moves more there).
fn start_square(rules: &Arc<Rules>, side: Side, me: Code) -> Cell {
    let at = |c: Cell| {
        let info = &rules.geometry.cells[c];
        (info.file as i64, info.rank as i64)
    };
    let (mx, my) = at(centre(rules, side));
    let reached = |cell: Cell| {
        let mut to = position_with(rules, side, &[(cell, me)])
            .map(|p| targets(&p, cell))
            .unwrap_or_default();
        to.sort_unstable();
        to.dedup();
        to.len()
    };
    rules
        .geometry
        .board_cells(0)
        .map(Cell::new)
        .min_by_key(|&c| {
            let (x, y) = at(c);
            (
                std::cmp::Reverse(reached(c)),
                (x - mx).pow(2) + (y - my).pow(2),
                c.index(),
            )
        })
        .expect("a main board has squares")
}

/// A position with only these pieces on the main board, `side` to move, every piece
/// unmoved; `None` if the rules cannot read it.
fn position_with(rules: &Arc<Rules>, side: Side, pieces: &[(Cell, Code)]) -> Option<Position> {
    let geo = &rules.geometry;
    let start = Position::start(rules.clone());
    let mut boards = Vec::new();
    for board in 0..geo.boards.len() {
        let b = &geo.boards[board];
        let mut ranks = Vec::new();
        for rank in (0..b.ranks).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..b.files {
                let cell = geo.cell_at(board, file as i32, rank as i32)?;
                match pieces.iter().find(|&&(c, _)| c == cell) {
                    Some(&(_, piece)) => {
                        if empty > 0 {
                            row += &empty.to_string();
                            empty = 0;
                        }
                        row += &rules.code_symbol(piece);
                        if let Some(h) = setup_height(&start, piece) {
                            row += &format!("({h})");
                        }
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            ranks.push(row);
        }
        boards.push(ranks.join("/"));
    }
    let hands = if rules.has_drops() { "[]" } else { "" };
    let fen = format!(
        "{}{hands} {} - - 0 1",
        boards.join("|"),
        rules.players[side].letter
    );
    Position::from_fen_with(rules.clone(), &fen, true).ok()
}

/// The height of the stacks `piece` starts the game as, where the setup stacks it: a
/// piece whose moves read its height is drawn as it first stands.
fn setup_height(start: &Position, piece: Code) -> Option<u8> {
    (0..start.rules().cell_count())
        .map(Cell::new)
        .filter(|&c| start.piece_at(c) == piece)
        .map(|c| start.height_at(c))
        .max()
        .filter(|&h| h > 1)
}

/// The cells of the main board the piece on `from` may move to.
fn targets(pos: &Position, from: Cell) -> Vec<Cell> {
    let mut moves = Vec::new();
    pos.pseudo_moves(&mut moves);
    moves
        .iter()
        .filter(|m| m.origin() == Some(from))
        .filter_map(|m| m.target())
        .filter(|&t| pos.rules().geometry.cells[t].board == 0)
        .collect()
}

/// The pieces the enemy may have, those that are not royal first: a capture is
/// tried on each (a capture may be allowed on one kind of piece only), the first is
/// the one a hop jumps.
fn enemy_pieces(rules: &Rules, side: Side) -> Vec<Code> {
    let them = side.opponent();
    let mut kinds: Vec<usize> = (0..rules.pieces.len())
        .filter(|&k| rules.pieces[k].owner.is_none_or(|o| o == them))
        .collect();
    kinds.sort_by_key(|&k| rules.pieces[k].royal);
    kinds.into_iter().map(|k| code(k, them)).collect()
}

/// The cell one step from `from` toward `to`, when they share a file, rank or
/// diagonal at least two steps apart: where a piece to jump would stand.
fn screen_between(rules: &Rules, from: Cell, to: Cell) -> Option<Cell> {
    let (a, b) = (&rules.geometry.cells[from], &rules.geometry.cells[to]);
    let (dx, dy) = (b.file as i32 - a.file as i32, b.rank as i32 - a.rank as i32);
    let straight = dx == 0 || dy == 0 || dx.abs() == dy.abs();
    if !straight || dx.abs().max(dy.abs()) < 2 {
        return None;
    }
    let step = |d: i32| d.signum();
    rules
        .geometry
        .cell_at(0, a.file as i32 + step(dx), a.rank as i32 + step(dy))
}

/// A piece's diagram, read from the move generator.
pub fn diagram(rules: &Arc<Rules>, kind: usize) -> Diagram {
    let side = side_of_kind(rules, kind);
    let me = code(kind, side);
    let from = start_square(rules, side, me);
    let enemies = enemy_pieces(rules, side);
    let moves = position_with(rules, side, &[(from, me)])
        .map(|p| targets(&p, from))
        .unwrap_or_default();
    let mut reach = vec![None; rules.geometry.cells.len()];
    for cell in rules.geometry.board_cells(0).map(Cell::new) {
        if cell != from {
            reach[cell] = reach_on(
                rules,
                side,
                (from, me),
                (cell, moves.contains(&cell)),
                &enemies,
            );
        }
    }
    Diagram {
        kind,
        side,
        from,
        reach,
    }
}

/// What the piece on `from` may do on `cell`, which it moves to when empty if `moved`.
fn reach_on(
    rules: &Arc<Rules>,
    side: Side,
    (from, me): (Cell, Code),
    (cell, moved): (Cell, bool),
    enemies: &[Code],
) -> Option<Reach> {
    let takes = enemies.iter().any(|&victim| {
        position_with(rules, side, &[(from, me), (cell, victim)])
            .is_some_and(|p| targets(&p, from).contains(&cell))
    });
    // Over a piece of the first kind: (moves there, captures there).
    let over = || {
        enemies.first().map_or((false, false), |&enemy| {
            over_a_piece(rules, side, (from, me), (cell, enemy))
        })
    };
    match (moved, takes) {
        (true, true) => Some(Reach::Both),
        (true, false) if over().1 => Some(Reach::MoveAndHopCapture),
        (true, false) => Some(Reach::Move),
        (false, true) => Some(Reach::Capture),
        (false, false) => {
            let (moves, captures) = over();
            (moves || captures).then_some(Reach::Hop)
        }
    }
}

/// Does the piece move to `cell`, and does it capture there, over a piece standing
/// next to it on the line? (A rider is stopped by that piece: only a hopper passes.)
fn over_a_piece(
    rules: &Arc<Rules>,
    side: Side,
    (from, me): (Cell, Code),
    (cell, enemy): (Cell, Code),
) -> (bool, bool) {
    let Some(screen) = screen_between(rules, from, cell) else {
        return (false, false);
    };
    let reaches = |pieces: &[(Cell, Code)]| {
        position_with(rules, side, pieces).is_some_and(|p| targets(&p, from).contains(&cell))
    };
    (
        reaches(&[(from, me), (screen, enemy)]),
        reaches(&[(from, me), (screen, enemy), (cell, enemy)]),
    )
}

/// Colours of the marks: strong enough on light and dark squares alike.
const MOVE_GREEN: &str = "#1e7b34";
const CAPTURE_RED: &str = "#c0262d";
const HOP_BLUE: &str = "#1f5fbf";

/// The diagram as SVG: the piece's name, the board seen from the piece's side with
/// the piece on its square and a mark on every square it reaches, lines along its
/// rides, and a legend of the marks it uses.
pub fn svg(rules: &Rules, d: &Diagram) -> String {
    let b = &rules.geometry.boards[0];
    let (w, h) = (b.files as f64 * SQUARE, b.ranks as f64 * SQUARE);
    let width = w.max(MIN_WIDTH) + 2.0 * PAD;
    let used = legend_entries(d);
    let height = PAD + LINE + 4.0 + h + 6.0 + LINE * used.len() as f64 + PAD;
    let name = &rules.pieces[d.kind].name;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" font-family=\"DejaVu Sans, Verdana, Helvetica, Arial, sans-serif\" data-diagram=\"{}\">\n",
        num(width),
        num(height),
        num(width),
        num(height),
        esc(name)
    );
    let _ = writeln!(
        s,
        "<rect width=\"100%\" height=\"100%\" fill=\"{}\"/>\n<text x=\"{PAD}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" fill=\"{}\">{} ({})</text>",
        palette::PAPER.hex(),
        num(PAD + 12.0),
        palette::TEXT.hex(),
        esc(name),
        esc(&symbol_of(rules, d.kind))
    );
    let origin = (PAD, PAD + LINE + 4.0);
    s += &squares(rules, d, origin);
    s += &rides(rules, d, origin);
    s += &marks(rules, d, origin);
    let centre = square_centre(rules, d, d.from, origin);
    s += &Token {
        centre,
        r: 0.42 * SQUARE,
        side: d.side,
        face: face(rules, code(d.kind, d.side)),
        badge: None,
        stacked: false,
        attrs: "data-piece-at=\"centre\"",
        title: "",
    }
    .draw();
    s += &legend(&used, origin.1 + h + 6.0);
    s += "</svg>\n";
    s
}

/// The centre of a cell's square, the board seen from the piece's side.
fn square_centre(rules: &Rules, d: &Diagram, cell: Cell, (x, y): (f64, f64)) -> (f64, f64) {
    let info = &rules.geometry.cells[cell];
    let b = &rules.geometry.boards[0];
    let (col, row) = if d.side.is_first() {
        (info.file, b.ranks - 1 - info.rank)
    } else {
        (b.files - 1 - info.file, info.rank)
    };
    (
        x + (col as f64 + 0.5) * SQUARE,
        y + (row as f64 + 0.5) * SQUARE,
    )
}

fn squares(rules: &Rules, d: &Diagram, origin: (f64, f64)) -> String {
    let mut s = String::new();
    for cell in rules.geometry.board_cells(0).map(Cell::new) {
        let (cx, cy) = square_centre(rules, d, cell, origin);
        let fill: Colour = palette::square(rules.geometry.cells[cell].dark, Tint::Plain);
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{}\"/>",
            num(cx - SQUARE / 2.0),
            num(cy - SQUARE / 2.0),
            fill.hex()
        );
    }
    s
}

/// Lines from the piece along each line it rides: through two squares or more in a
/// row that it reaches, from its own square on.
fn rides(rules: &Rules, d: &Diagram, origin: (f64, f64)) -> String {
    let mut s = String::new();
    let start = &rules.geometry.cells[d.from];
    for (dx, dy) in [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ] {
        let mut last = None;
        let mut steps = 0;
        while let Some(cell) = rules.geometry.cell_at(
            0,
            start.file as i32 + dx * (steps + 1),
            start.rank as i32 + dy * (steps + 1),
        ) {
            let moves_there = matches!(
                d.reach[cell],
                Some(Reach::Move | Reach::Both | Reach::MoveAndHopCapture)
            );
            if !moves_there {
                break;
            }
            last = Some(cell);
            steps += 1;
        }
        if let Some(end) = last.filter(|_| steps >= 2) {
            let (ax, ay) = square_centre(rules, d, d.from, origin);
            let (bx, by) = square_centre(rules, d, end, origin);
            let _ = writeln!(
                s,
                "<path d=\"M{},{} L{},{}\" stroke=\"{MOVE_GREEN}\" stroke-width=\"3\" stroke-opacity=\"0.45\" stroke-linecap=\"round\" data-ride=\"{}\"/>",
                num(ax),
                num(ay),
                num(bx),
                num(by),
                esc(rules.geometry.name(end))
            );
        }
    }
    s
}

fn marks(rules: &Rules, d: &Diagram, origin: (f64, f64)) -> String {
    let mut s = String::new();
    for cell in rules.geometry.board_cells(0).map(Cell::new) {
        if let Some(r) = d.reach[cell] {
            let centre = square_centre(rules, d, cell, origin);
            let attrs = format!(
                "data-reach=\"{}\" data-square=\"{}\"",
                r.name(),
                esc(rules.geometry.name(cell))
            );
            s += &mark(r, centre, SQUARE, &attrs);
        }
    }
    s
}

/// One mark in a square of side `size`: a filled disc (moves and captures), a ring
/// (moves only), a cross (captures only), a diamond (only over a piece), a ring with a
/// diamond in it (moves, and captures only over a piece). Each has a white casing so
/// that it shows on any square.
fn mark(r: Reach, (cx, cy): (f64, f64), size: f64, attrs: &str) -> String {
    let q = size * 0.22;
    match r {
        Reach::Both => format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{MOVE_GREEN}\" stroke=\"#ffffff\" stroke-width=\"1.5\" {attrs}/>\n",
            num(cx),
            num(cy),
            num(q)
        ),
        Reach::Move => format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#ffffff\" stroke=\"{MOVE_GREEN}\" stroke-width=\"3\" {attrs}/>\n",
            num(cx),
            num(cy),
            num(q * 0.85)
        ),
        Reach::Capture => {
            let path = format!(
                "M{},{} L{},{} M{},{} L{},{}",
                num(cx - q),
                num(cy - q),
                num(cx + q),
                num(cy + q),
                num(cx - q),
                num(cy + q),
                num(cx + q),
                num(cy - q)
            );
            format!(
                "<g {attrs}><path d=\"{path}\" stroke=\"#ffffff\" stroke-width=\"6\" stroke-linecap=\"round\"/><path d=\"{path}\" stroke=\"{CAPTURE_RED}\" stroke-width=\"3.5\" stroke-linecap=\"round\"/></g>\n"
            )
        }
        Reach::Hop => diamond((cx, cy), q, attrs),
        Reach::MoveAndHopCapture => format!(
            "<g {attrs}>{}{}</g>\n",
            mark(Reach::Move, (cx, cy), size * 1.25, "").trim_end(),
            diamond((cx, cy), q * 0.55, "").trim_end()
        ),
    }
}

/// A diamond: where the piece needs a piece to jump.
fn diamond((cx, cy): (f64, f64), q: f64, attrs: &str) -> String {
    format!(
        "<path d=\"M{},{} l{q},{q} l-{q},{q} l-{q},-{q} z\" fill=\"{HOP_BLUE}\" stroke=\"#ffffff\" stroke-width=\"1.5\" {attrs}/>\n",
        num(cx),
        num(cy - q),
        q = num(q)
    )
}

/// The kinds of mark a diagram uses, in the legend's order, with their words.
fn legend_entries(d: &Diagram) -> Vec<(Reach, &'static str)> {
    [
        (Reach::Both, "moves or captures"),
        (Reach::Move, "moves, never captures"),
        (Reach::Capture, "captures only"),
        (
            Reach::MoveAndHopCapture,
            "moves; captures only by jumping a piece",
        ),
        (Reach::Hop, "only by jumping a piece on the way"),
    ]
    .into_iter()
    .filter(|(r, _)| d.reach.contains(&Some(*r)))
    .collect()
}

fn legend(used: &[(Reach, &'static str)], mut y: f64) -> String {
    let mut s = String::new();
    for &(r, words) in used {
        s += &mark(r, (PAD + 8.0, y + 8.0), 28.0, "");
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{}\">{}</text>",
            num(PAD + 22.0),
            num(y + 12.0),
            palette::TEXT.hex(),
            words
        );
        y += LINE;
    }
    s
}
