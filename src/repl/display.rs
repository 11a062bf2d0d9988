//! The board as the REPL draws it: coordinates on the edges, the two sides in
//! colours, terrain and zones shaded, stack heights, the last move marked, side
//! boards (clouds) beside the main board, pieces in hand and counters below. Plain
//! text when colours are off (not a terminal, or `NO_COLOR`).

use std::fmt::Write;

use crate::engine::{MoveKind, Position};
use crate::rules::{Cell, EMPTY, code, kind_of, side_of};

const RESET: &str = "\x1b[0m";

fn bg(code: u8) -> String {
    format!("\x1b[48;5;{code}m")
}

fn fg(code: u8, bold: bool) -> String {
    format!("\x1b[{}38;5;{code}m", if bold { "1;" } else { "" })
}

/// Background colours: light and dark squares, zone tints, terrain, marks.
const LIGHT: u8 = 223;
const DARK: u8 = 180;
const ZONE_LIGHT: u8 = 194;
const ZONE_DARK: u8 = 151;
const LAST_MOVE: u8 = 186;
const CHECK: u8 = 203;
const TERRAIN: [u8; 6] = [65, 245, 173, 110, 139, 101];
const FIRST_PLAYER: u8 = 231;
const SECOND_PLAYER: u8 = 16;

struct Painter<'a> {
    pos: &'a Position,
    color: bool,
    width: usize,
    check: bool,
}

impl Painter<'_> {
    /// One square, `width` characters wide.
    fn cell(&self, cell: Cell) -> String {
        let pos = self.pos;
        let rules = pos.rules();
        let geo = &rules.geometry;
        let width = self.width;
        let piece = pos.piece_at(cell);
        let terrain = pos.terrain_at(cell);
        let mut text = String::new();
        if piece != EMPTY {
            text += &rules.code_symbol(piece);
            let h = pos.height_at(cell);
            if h != 1 {
                text += &h.to_string();
            }
        } else if let Some(t) = terrain {
            text.push(rules.terrains[t].letter);
        } else if !self.color {
            text.push('.');
        }
        let last = pos
            .last_move()
            .filter(|m| !matches!(m.kind, MoveKind::Swap | MoveKind::Pass));
        let marked = last.is_some_and(|m| m.from == cell || m.to == cell);
        if !self.color {
            if marked && piece != EMPTY {
                // Plain text marks the moved piece with brackets.
                return format!("{:^width$}", format!("[{text}]"));
            }
            return format!("{text:^width$}");
        }
        let c = cell as usize;
        let info = &geo.cells[c];
        // Zones are tinted, unless a zone covers the whole board.
        let in_zone = info.board == 0
            && rules.zones.iter().any(|z| {
                (z.cells[0][c] || z.cells[1][c]) && !geo.board_cells(0).all(|x| z.cells[0][x])
            });
        let mut back = match (in_zone, !info.dark) {
            (true, true) => ZONE_LIGHT,
            (true, false) => ZONE_DARK,
            (false, true) => LIGHT,
            (false, false) => DARK,
        };
        if let Some(t) = terrain {
            back = TERRAIN[t % TERRAIN.len()];
        }
        if marked {
            back = LAST_MOVE;
        }
        if self.check
            && piece != EMPTY
            && side_of(piece) == pos.side_to_move()
            && rules.tables.royal_kinds >> kind_of(piece) & 1 != 0
        {
            back = CHECK;
        }
        let front = if piece != EMPTY {
            fg(
                if side_of(piece) == 0 {
                    FIRST_PLAYER
                } else {
                    SECOND_PLAYER
                },
                true,
            )
        } else {
            fg(236, false)
        };
        format!("{}{}{text:^width$}{RESET}", bg(back), front)
    }
}

pub fn render(pos: &Position, color: bool) -> String {
    let rules = pos.rules();
    let geo = &rules.geometry;
    let b = &geo.boards[0];
    let max_h = (0..geo.len())
        .map(|c| pos.height_at(c as u16))
        .max()
        .unwrap_or(1);
    // Marked pieces (`+P`, `Q~`) take two characters, and the plain-text brackets
    // around the last move's piece two more.
    let marks = usize::from(rules.has_marks());
    let width = marks
        + if max_h >= 100 {
            5
        } else if max_h >= 10 {
            4
        } else {
            3
        };
    let painter = Painter {
        pos,
        color,
        width,
        check: pos.in_check(pos.side_to_move()),
    };
    let label_w = b.ranks.to_string().len();
    let files_line = || {
        let mut s = format!("{:label_w$} ", "");
        for f in 0..b.files {
            let _ = write!(s, "{:^width$}", crate::rules::file_letter(f));
        }
        s
    };
    let mut lines = vec![files_line()];
    for rank in (0..b.ranks).rev() {
        let mut s = format!("{:>label_w$} ", rank + 1);
        for file in 0..b.files {
            s += &painter.cell(geo.cell_at(0, file as i32, rank as i32).unwrap());
        }
        let _ = write!(s, " {}", rank + 1);
        lines.push(s);
    }
    lines.push(files_line());
    // Side boards, beside the main board from its second line on.
    let mut side = Vec::new();
    for (i, board) in geo.boards.iter().enumerate().skip(1) {
        side.push(board.name.clone());
        for rank in (0..board.ranks).rev() {
            let mut s = String::new();
            for file in 0..board.files {
                let cell = geo.cell_at(i, file as i32, rank as i32).unwrap();
                let _ = write!(s, "{} {} ", geo.name(cell), painter.cell(cell));
            }
            side.push(s);
        }
    }
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        out += line;
        if i >= 1
            && let Some(extra) = side.get(i - 1)
        {
            out += "    ";
            out += extra;
        }
        out.push('\n');
    }
    for extra in side.iter().skip(lines.len().saturating_sub(1)) {
        let _ = writeln!(
            out,
            "{:w$}    {extra}",
            "",
            w = label_w + 2 + width * b.files + 2
        );
    }
    // Pieces in hand and counters.
    let kinds = rules.pieces.len();
    if rules.has_drops() {
        for s in 0..2 {
            let held: Vec<String> = (0..kinds)
                .filter(|&k| pos.in_hand(s, k) > 0)
                .map(|k| {
                    let n = pos.in_hand(s, k);
                    let l = rules.code_symbol(code(k, s));
                    if n == 1 {
                        l.to_string()
                    } else {
                        format!("{n}{l}")
                    }
                })
                .collect();
            let _ = writeln!(
                out,
                "{} in hand: {}",
                rules.players[s].name,
                if held.is_empty() {
                    "-".to_string()
                } else {
                    held.join(" ")
                }
            );
        }
    }
    for (i, name) in rules.counters.iter().enumerate() {
        let _ = writeln!(
            out,
            "{name}: {} {}, {} {}",
            rules.players[0].name,
            pos.counter(0, i),
            rules.players[1].name,
            pos.counter(1, i)
        );
    }
    out
}

/// The status line under the board.
pub fn status(pos: &Position) -> String {
    let rules = pos.rules();
    let side = pos.side_to_move();
    let mut s = format!("{} to move", rules.players[side].name);
    if pos.swapped() {
        s += " (sides swapped by the pie rule)";
    }
    if pos.in_check(side) {
        s += ", in check";
    }
    if let Some(text) = pos.last_move_text() {
        s += &format!("; last move {text}");
    }
    s
}
