//! The board as the REPL draws it: coordinates on the edges, pieces as tokens in
//! their side's colours, terrain and zones shaded, stack heights, the last move
//! marked, side boards beside the main board, pieces in hand, counters, and a legend.
//! Plain text when colours are off (not a terminal, or `NO_COLOR`).
//!
//! The colours are the SVG pictures' ([`crate::render::palette`]): a piece is its
//! letter on a token of its side's colour (white with a black letter for the first
//! player, black with a white letter for the second), so it reads on every square
//! tint. Terrain fills its empty squares with a mark that is never a letter (`^^^`),
//! and a piece standing on terrain has the mark on either side (`=S=`), so in plain
//! text too terrain is told apart from pieces; the legend under the board names the
//! marks.

use std::fmt::Write;

use crate::engine::Position;
use crate::ids::Side;
use crate::render::palette::{self, Colour, Tint};
use crate::render::{BoardOptions, TerrainLook, checked_royals, shown_zones, terrain_looks};
use crate::rules::{Cell, EMPTY, ZoneId, code, side_of};

const RESET: &str = "\x1b[0m";

fn bg(c: Colour) -> String {
    format!("\x1b[48;5;{}m", c.0)
}

fn fg(c: Colour, bold: bool) -> String {
    format!("\x1b[{}38;5;{}m", if bold { "1;" } else { "" }, c.0)
}

struct Painter<'a> {
    pos: &'a Position,
    color: bool,
    width: usize,
    zones: Vec<ZoneId>,
    terrain: Vec<TerrainLook>,
    last: Vec<Cell>,
    check: Vec<Cell>,
}

impl Painter<'_> {
    /// A square's tint: check, last move, terrain, zone, in that order (as in the
    /// SVG pictures).
    fn tint(&self, cell: Cell) -> Tint {
        if self.check.contains(&cell) {
            Tint::Check
        } else if self.last.contains(&cell) {
            Tint::LastMove
        } else if let Some(t) = self.pos.terrain_at(cell) {
            Tint::Terrain(self.terrain[t].colour)
        } else if let Some(z) = crate::render::zone_tint(self.pos.rules(), &self.zones, cell) {
            Tint::Zone(z)
        } else {
            Tint::Plain
        }
    }

    /// What a piece shows: its symbol, and its stack's height unless 1.
    fn piece_text(&self, cell: Cell) -> String {
        let pos = self.pos;
        let mut text = pos.rules().code_symbol(pos.piece_at(cell));
        let h = pos.height_at(cell);
        if h != 1 {
            text += &h.to_string();
        }
        text
    }

    /// One square, `width` characters wide.
    fn cell(&self, cell: Cell) -> String {
        let width = self.width;
        let piece = self.pos.piece_at(cell);
        let mark = self.pos.terrain_at(cell).map(|t| self.terrain[t].mark);
        if !self.color {
            return self.plain_cell(cell, mark);
        }
        let dark = self.pos.rules().geometry.cells[cell].dark;
        let back = bg(palette::square(dark, self.tint(cell)));
        if piece == EMPTY {
            let ink = fg(palette::INK, false);
            let fill = mark.map_or_else(|| " ".repeat(width), |m| m.to_string().repeat(width));
            return format!("{back}{ink}{fill}{RESET}");
        }
        // The token: the piece's text on its side's colour, the square around it.
        let text = self.piece_text(cell);
        let side = palette::side(side_of(piece));
        let room = width.saturating_sub(text.chars().count());
        let (left, right) = (room / 2, room - room / 2);
        format!(
            "{back}{}{}{}{text}{RESET}{back}{}{RESET}",
            " ".repeat(left),
            bg(side.token),
            fg(side.letter, true),
            " ".repeat(right)
        )
    }

    /// One square in plain text: `.` empty, the terrain's mark across an empty square
    /// of terrain, a piece with the mark on either side when it stands on terrain,
    /// and the last move's piece in brackets.
    fn plain_cell(&self, cell: Cell, mark: Option<char>) -> String {
        let width = self.width;
        if self.pos.piece_at(cell) == EMPTY {
            return match mark {
                Some(m) => m.to_string().repeat(width),
                None => format!("{:^width$}", "."),
            };
        }
        let text = self.piece_text(cell);
        if self.last.contains(&cell) {
            return format!("{:^width$}", format!("[{text}]"));
        }
        match mark {
            Some(m) => {
                let room = width.saturating_sub(text.chars().count());
                let (left, right) = (room / 2, room - room / 2);
                let m = m.to_string();
                format!("{}{text}{}", m.repeat(left), m.repeat(right))
            }
            None => format!("{text:^width$}"),
        }
    }

    /// The legend: each kind of terrain's mark, and in colour each tinted zone.
    fn legend(&self) -> String {
        let rules = self.pos.rules();
        let mut out = String::new();
        for (look, t) in self.terrain.iter().zip(rules.terrains()) {
            let marks = look.mark.to_string().repeat(3);
            let swatch = if self.color {
                let colour = palette::TERRAIN[look.colour].light;
                format!("{}{}{marks}{RESET}", bg(colour), fg(palette::INK, false))
            } else {
                marks
            };
            let _ = writeln!(out, "{swatch} {}: {}", t.name, look.words);
        }
        if self.color && !self.zones.is_empty() {
            let items: Vec<String> = self
                .zones
                .iter()
                .enumerate()
                .map(|(i, &z)| {
                    let swatch = bg(palette::ZONES[i].light);
                    format!("{swatch}   {RESET} {}", rules.zone(z).name)
                })
                .collect();
            let _ = writeln!(out, "zones: {}", items.join("  "));
        }
        out
    }
}

/// The board, with side boards, hands, counters and the legend: in colour with ANSI
/// escapes (256 colours), or plain text.
pub fn render(pos: &Position, color: bool) -> String {
    let rules = pos.rules();
    let geo = &rules.geometry;
    let b = &geo.boards[0];
    let max_h = (0..geo.len())
        .map(|c| pos.height_at(Cell::new(c)))
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
        zones: shown_zones(rules),
        terrain: terrain_looks(rules),
        last: BoardOptions::of(pos).last_move_cells(),
        check: checked_royals(pos),
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
        for s in Side::BOTH {
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
            pos.counter(Side::First, i),
            rules.players[1].name,
            pos.counter(Side::Second, i)
        );
    }
    out += &painter.legend();
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
