//! The board as the REPL draws it: coordinates on the edges, the two sides in
//! colours, terrain and zones shaded, stack heights, the last move marked. Plain text
//! when colours are off (not a terminal, or `NO_COLOR`).

use std::fmt::Write;

use crate::engine::{MoveKind, Position};
use crate::rules::{EMPTY, NO_CELL, side_of};

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

pub fn render(pos: &Position, color: bool) -> String {
    let rules = pos.rules();
    let geo = &rules.geometry;
    let b = &geo.boards[0];
    let max_h = (0..geo.len())
        .map(|c| pos.height_at(c as u16))
        .max()
        .unwrap_or(1);
    let width = if max_h >= 100 {
        5
    } else if max_h >= 10 {
        4
    } else {
        3
    };
    let label_w = b.ranks.to_string().len();
    let last = pos.last_move().filter(|m| m.kind != MoveKind::Swap);
    let side = pos.side_to_move();
    let check = pos.in_check(side);
    let royal_kinds = rules.tables.royal_kinds;
    let mut s = String::new();
    let files_line = |s: &mut String| {
        let _ = write!(s, "{:label_w$} ", "");
        for f in 0..b.files {
            let _ = write!(s, "{:^width$}", crate::rules::file_letter(f));
        }
        s.push('\n');
    };
    files_line(&mut s);
    for rank in (0..b.ranks).rev() {
        let _ = write!(s, "{:>label_w$} ", rank + 1);
        for file in 0..b.files {
            let cell = geo.cell_at(0, file as i32, rank as i32).unwrap();
            let piece = pos.piece_at(cell);
            let terrain = pos.terrain_at(cell);
            let mut text = String::new();
            if piece != EMPTY {
                text.push(rules.code_letter(piece));
                let h = pos.height_at(cell);
                if h != 1 {
                    text += &h.to_string();
                }
            } else if let Some(t) = terrain {
                text.push(rules.terrains[t].letter);
            } else if !color {
                text.push('.');
            }
            let marked = last.is_some_and(|m| m.from == cell || m.to == cell);
            if !color {
                let mut cellstr = format!("{text:^width$}");
                if marked && piece != EMPTY {
                    // Plain text marks the moved piece with brackets.
                    cellstr = format!("{:^width$}", format!("[{text}]"));
                }
                s += &cellstr;
                continue;
            }
            let light = (file + rank) % 2 == 1;
            // Zones are tinted, unless a zone covers the whole board.
            let c = cell as usize;
            let in_zone = rules
                .zones
                .iter()
                .any(|z| (z.cells[0][c] || z.cells[1][c]) && !z.cells[0].iter().all(|&x| x));
            let mut back = match (in_zone, light) {
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
            if check
                && piece != EMPTY
                && side_of(piece) == side
                && royal_kinds >> crate::rules::kind_of(piece) & 1 != 0
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
            let _ = write!(s, "{}{}{text:^width$}{RESET}", bg(back), front);
        }
        let _ = writeln!(s, " {}", rank + 1);
    }
    files_line(&mut s);
    s
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
    if let Some(m) = pos.last_move() {
        let text = if m.kind == MoveKind::Swap {
            "swap".to_string()
        } else if m.from == NO_CELL {
            String::new()
        } else {
            format!(
                "{}{}",
                rules.geometry.name(m.from),
                rules.geometry.name(m.to)
            )
        };
        s += &format!("; last move {text}");
    }
    s
}
