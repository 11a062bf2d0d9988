//! A position as a self-contained SVG picture: every board (side boards beside the
//! main one, labelled), light and dark squares, zones tinted and terrain drawn with a
//! legend, pieces as lettered tokens with their stack heights, pieces in hand in a
//! tray per player, counters, coordinates, the last move and highlighted squares.
//!
//! For tools and the web page, every square element carries `data-square="NAME"`;
//! every piece on a square is a group with `data-piece` (its symbol as a position
//! string writes it: `P`, `+p`, `Q~`), `data-side` (the player's name) and the
//! `data-square` of its square; a piece in a hand carries `data-hand` (the player's
//! name) instead of `data-square`, and `data-count`. Decorations ignore the pointer,
//! so a click lands on a square or a piece. Nothing is fetched: no fonts, no images.

use std::fmt::Write;

use super::palette::{self, Colour, Tint};
use super::{
    BoardOptions, Pattern, TerrainLook, checked_royals, shown_zones, split_edges, split_zones,
    terrain_looks,
};
use crate::engine::Position;
use crate::ids::Side;
use crate::rules::{Cell, Code, EMPTY, Rules, ZoneId, code, kind_of, side_of};

/// The side of a square, in pixels.
const SQUARE: f64 = 48.0;
/// The margin around the picture.
const PAD: f64 = 12.0;
/// The strip for coordinates beside a board.
const COORD: f64 = 18.0;
/// The gap between the main board's column and the side boards'.
const GAP: f64 = 28.0;
/// A token's radius, as a share of a square.
const TOKEN: f64 = 0.4;
/// The height of a tray of pieces in hand: a label line and a row of tokens.
const TRAY: f64 = 18.0 + 0.8 * SQUARE;
/// One line of legend or counters.
const LINE: f64 = 18.0;
/// A generic font stack: nothing to fetch.
const FONT: &str = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif";
/// Roughly how wide a character of 12-pixel text is, to size the picture.
const CHAR_WIDTH: f64 = 7.0;

/// The SVG picture of a position.
pub fn position(pos: &Position, opts: &BoardOptions) -> String {
    Scene::new(pos, opts).draw()
}

/// Text escaped for XML.
pub(crate) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// A number as SVG writes it: at most two decimals, no trailing zeros.
pub(crate) fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// Everything a picture needs, worked out once.
struct Scene<'a> {
    pos: &'a Position,
    rules: &'a Rules,
    opts: &'a BoardOptions,
    zones: Vec<ZoneId>,
    /// The zones that split the board between the players, and the borders they draw.
    splits: Vec<ZoneId>,
    borders: Vec<(Cell, Cell)>,
    terrain: Vec<TerrainLook>,
    last: Vec<Cell>,
    check: Vec<Cell>,
    /// Are there hands to show (a game with drops, or pieces held)?
    hands: bool,
    /// Each kind of piece's tooltip: its name and its moves in words.
    titles: Vec<String>,
    /// The SVG elements drawn so far, and the extent they reach.
    out: String,
    right: f64,
    bottom: f64,
}

impl<'a> Scene<'a> {
    fn new(pos: &'a Position, opts: &'a BoardOptions) -> Scene<'a> {
        let rules: &Rules = pos.rules();
        let kinds = rules.pieces.len();
        let held = Side::BOTH
            .into_iter()
            .any(|s| (0..kinds).any(|k| pos.in_hand(s, k) > 0));
        let splits = split_zones(rules);
        Scene {
            pos,
            rules,
            opts,
            zones: shown_zones(rules),
            borders: split_edges(rules, &splits),
            splits,
            terrain: terrain_looks(rules),
            last: opts.last_move_cells(),
            check: checked_royals(pos),
            hands: held || rules.has_drops(),
            titles: (0..kinds)
                .map(|k| crate::describe::piece_words(rules, k))
                .collect(),
            out: String::new(),
            right: 0.0,
            bottom: 0.0,
        }
    }

    /// Lays out and draws the whole picture.
    fn draw(mut self) -> String {
        let mut y = PAD;
        self.title(y);
        y += 30.0;
        let (top, bottom) = if self.opts.flipped {
            (Side::First, Side::Second)
        } else {
            (Side::Second, Side::First)
        };
        if self.hands {
            self.tray(top, PAD + COORD, y);
            y += TRAY + 8.0;
        }
        let main = &self.rules.geometry.boards[0];
        let (board_x, board_y) = (PAD + COORD, y);
        self.board(0, board_x, board_y);
        self.coordinates(board_x, board_y);
        let side_x = board_x + main.files as f64 * SQUARE + COORD + GAP;
        self.side_boards(side_x, board_y);
        y = board_y + main.ranks as f64 * SQUARE + COORD + 8.0;
        if self.hands {
            self.tray(bottom, PAD + COORD, y);
            y += TRAY + 8.0;
        }
        y = self.counters(PAD + COORD, y);
        self.legend(PAD + COORD, y);
        self.finish()
    }

    /// Wraps the elements in the `<svg>` element, sized to what was drawn.
    fn finish(self) -> String {
        let (w, h) = (num(self.right + PAD), num(self.bottom + PAD));
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"{FONT}\" data-game=\"{}\">\n",
            esc(&self.rules.name)
        );
        let _ = writeln!(
            s,
            "<rect width=\"100%\" height=\"100%\" fill=\"{}\"/>",
            palette::PAPER.hex()
        );
        s += &defs();
        s += &self.out;
        s += "</svg>\n";
        s
    }

    /// Records that something reaches `x`, `y`.
    fn reach(&mut self, x: f64, y: f64) {
        self.right = self.right.max(x);
        self.bottom = self.bottom.max(y);
    }

    /// Writes a line of text at `x`, `y` (its baseline).
    fn text(&mut self, x: f64, y: f64, size: f64, extra: &str, text: &str) {
        let _ = writeln!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\" pointer-events=\"none\"{extra}>{}</text>",
            num(x),
            num(y),
            num(size),
            palette::TEXT.hex(),
            esc(text)
        );
        // Bold letters are about a fifth wider.
        let bold = if extra.contains("bold") { 1.2 } else { 1.0 };
        let width = text.chars().count() as f64 * CHAR_WIDTH * bold * size / 12.0;
        self.reach(x + width, y + 4.0);
    }

    /// The game's name and who is to move.
    fn title(&mut self, y: f64) {
        let pos = self.pos;
        let mut status = format!("{} to move", self.rules.players[pos.side_to_move()].name);
        if pos.swapped() {
            status += " (sides swapped by the pie rule)";
        }
        if !self.check.is_empty() {
            status += ", in check";
        }
        let name = self.rules.name.clone();
        let line = if name.is_empty() {
            status
        } else {
            format!("{name} — {status}")
        };
        self.text(PAD, y + 16.0, 16.0, " font-weight=\"bold\"", &line);
    }

    /// The top-left corner of a cell's square, on a board drawn from `origin`.
    fn square_at(&self, cell: Cell, origin: (f64, f64)) -> (f64, f64) {
        let info = &self.rules.geometry.cells[cell];
        let b = &self.rules.geometry.boards[info.board];
        let (col, row) = if self.opts.flipped {
            (b.files - 1 - info.file, info.rank)
        } else {
            (info.file, b.ranks - 1 - info.rank)
        };
        (
            origin.0 + col as f64 * SQUARE,
            origin.1 + row as f64 * SQUARE,
        )
    }

    /// A square's tint: check, highlight, last move, terrain, zone, in that order.
    fn tint(&self, cell: Cell) -> Tint {
        if self.check.contains(&cell) {
            Tint::Check
        } else if self.opts.highlighted.contains(&cell) {
            Tint::Highlight
        } else if self.last.contains(&cell) {
            Tint::LastMove
        } else if let Some(t) = self.pos.terrain_at(cell) {
            Tint::Terrain(self.terrain[t].colour)
        } else if let Some(z) = super::zone_tint(self.rules, &self.zones, cell) {
            Tint::Zone(z)
        } else {
            Tint::Plain
        }
    }

    /// One board: its squares, terrain, then its pieces, drawn from `x`, `y`.
    fn board(&mut self, board: usize, x: f64, y: f64) {
        let geo = &self.rules.geometry;
        let cells: Vec<Cell> = geo.board_cells(board).map(Cell::new).collect();
        let b = &geo.boards[board];
        let (w, h) = (b.files as f64 * SQUARE, b.ranks as f64 * SQUARE);
        let _ = writeln!(self.out, "<g data-board=\"{}\">", esc(&b.name));
        for &cell in &cells {
            self.square(cell, (x, y));
        }
        for &cell in &cells {
            if let Some(t) = self.pos.terrain_at(cell) {
                let (sx, sy) = self.square_at(cell, (x, y));
                self.out += &terrain_overlay(self.terrain[t].pattern, sx, sy, SQUARE);
            }
        }
        if board == 0 {
            self.borders((x, y));
        }
        let _ = writeln!(
            self.out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" pointer-events=\"none\"/>",
            num(x),
            num(y),
            num(w),
            num(h),
            palette::FRAME.hex()
        );
        for &cell in &cells {
            self.piece(cell, (x, y));
        }
        self.out += "</g>\n";
        self.reach(x + w, y + h);
    }

    /// The lines where split zones divide the main board: a white casing under a
    /// coloured line, so it shows on light and dark squares alike.
    fn borders(&mut self, origin: (f64, f64)) {
        let mut path = String::new();
        for &(a, b) in &self.borders.clone() {
            let (ax, ay) = self.square_at(a, origin);
            let (bx, by) = self.square_at(b, origin);
            // The side the two squares share: through the middle of their centres,
            // across the line joining them.
            let (mx, my) = (
                (ax + bx) / 2.0 + SQUARE / 2.0,
                (ay + by) / 2.0 + SQUARE / 2.0,
            );
            let (dx, dy) = if ax == bx {
                (SQUARE / 2.0, 0.0)
            } else {
                (0.0, SQUARE / 2.0)
            };
            let _ = write!(
                path,
                "M{},{} L{},{} ",
                num(mx - dx),
                num(my - dy),
                num(mx + dx),
                num(my + dy)
            );
        }
        if path.is_empty() {
            return;
        }
        for (colour, width) in [(palette::PAPER, 7.0), (palette::BORDER, 3.0)] {
            let _ = writeln!(
                self.out,
                "<path d=\"{}\" stroke=\"{}\" stroke-width=\"{width}\" stroke-linecap=\"round\" fill=\"none\" pointer-events=\"none\"/>",
                path.trim_end(),
                colour.hex()
            );
        }
    }

    /// A square's element, with its name.
    fn square(&mut self, cell: Cell, origin: (f64, f64)) {
        let geo = &self.rules.geometry;
        let (sx, sy) = self.square_at(cell, origin);
        let dark = geo.cells[cell].dark;
        let fill = palette::square(dark, self.tint(cell));
        // The terrain standing there, by name (an arrow, the duck: placed by moves).
        let terrain = match self.pos.terrain_at(cell) {
            Some(t) => format!(" data-terrain=\"{}\"", esc(&self.rules.terrains[t].name)),
            None => String::new(),
        };
        let _ = writeln!(
            self.out,
            "<rect data-square=\"{}\"{terrain} x=\"{}\" y=\"{}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{}\"/>",
            esc(geo.name(cell)),
            num(sx),
            num(sy),
            fill.hex()
        );
    }

    /// The piece on a cell, if any: a token with its letter and stack height.
    fn piece(&mut self, cell: Cell, origin: (f64, f64)) {
        let piece = self.pos.piece_at(cell);
        if piece == EMPTY {
            return;
        }
        let (sx, sy) = self.square_at(cell, origin);
        let side = side_of(piece);
        let attrs = format!(
            "data-piece=\"{}\" data-side=\"{}\" data-square=\"{}\"",
            esc(&self.rules.code_symbol(piece)),
            esc(&self.rules.players[side].name),
            esc(self.rules.geometry.name(cell))
        );
        let height = self.pos.height_at(cell);
        let badge = (height != 1).then(|| height.to_string());
        self.out += &Token {
            centre: (
                sx + SQUARE / 2.0,
                sy + SQUARE / 2.0 - if height > 1 { 3.0 } else { 0.0 },
            ),
            r: TOKEN * SQUARE,
            side,
            face: face(self.rules, piece),
            badge: badge.as_deref(),
            stacked: height > 1,
            attrs: &attrs,
            title: &self.titles[kind_of(piece)],
        }
        .draw();
    }

    /// File letters under the main board and rank numbers to its left.
    fn coordinates(&mut self, x: f64, y: f64) {
        let b = self.rules.geometry.boards[0].clone();
        for file in 0..b.files {
            let col = if self.opts.flipped {
                b.files - 1 - file
            } else {
                file
            };
            let cx = x + (col as f64 + 0.5) * SQUARE;
            let label = crate::rules::file_letter(file).to_string();
            self.text(
                cx,
                y + b.ranks as f64 * SQUARE + 14.0,
                12.0,
                " text-anchor=\"middle\"",
                &label,
            );
        }
        for rank in 0..b.ranks {
            let row = if self.opts.flipped {
                rank
            } else {
                b.ranks - 1 - rank
            };
            let cy = y + (row as f64 + 0.5) * SQUARE + 4.0;
            self.text(
                x - 4.0,
                cy,
                12.0,
                " text-anchor=\"end\"",
                &(rank + 1).to_string(),
            );
        }
    }

    /// The side boards, one under another from `x`, `y`, each under its name and with
    /// its squares' names (under the squares of a one-rank board, else in them).
    fn side_boards(&mut self, x: f64, mut y: f64) {
        let geo = &self.rules.geometry;
        for i in 1..geo.boards.len() {
            let b = geo.boards[i].clone();
            self.text(x, y + 12.0, 12.0, " font-weight=\"bold\"", &b.name);
            let top = y + 18.0;
            self.board(i, x, top);
            let one_rank = b.ranks == 1;
            for cell in geo.board_cells(i) {
                let cell = Cell::new(cell);
                let (sx, sy) = self.square_at(cell, (x, top));
                let name = geo.name(cell).to_string();
                if one_rank {
                    self.text(
                        sx + SQUARE / 2.0,
                        sy + SQUARE + 13.0,
                        10.0,
                        " text-anchor=\"middle\"",
                        &name,
                    );
                } else {
                    self.ink_text(sx + 2.0, sy + 9.0, 8.0, &name);
                }
            }
            y = top + b.ranks as f64 * SQUARE + if one_rank { 18.0 } else { 4.0 } + 14.0;
        }
    }

    /// Text in ink, on a square.
    fn ink_text(&mut self, x: f64, y: f64, size: f64, text: &str) {
        let _ = writeln!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\" pointer-events=\"none\">{}</text>",
            num(x),
            num(y),
            num(size),
            palette::INK.hex(),
            esc(text)
        );
    }

    /// A player's pieces in hand, as tokens with their counts, from `x`, `y`.
    fn tray(&mut self, player: Side, x: f64, y: f64) {
        let rules = self.rules;
        let name = &rules.players[player].name;
        let held: Vec<(usize, u16)> = (0..rules.pieces.len())
            .map(|k| (k, self.pos.in_hand(player, k)))
            .filter(|&(_, n)| n > 0)
            .collect();
        let label = if held.is_empty() {
            format!("{name} in hand: none")
        } else {
            format!("{name} in hand")
        };
        let slot = 0.9 * SQUARE;
        let main = &rules.geometry.boards[0];
        let width = (main.files as f64 * SQUARE).max(held.len() as f64 * slot + 8.0);
        let _ = writeln!(self.out, "<g data-tray=\"{}\">", esc(name));
        let _ = writeln!(
            self.out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"6\" fill=\"{}\" stroke=\"{}\"/>",
            num(x),
            num(y + 16.0),
            num(width),
            num(TRAY - 14.0),
            palette::TRAY.hex(),
            palette::FRAME.hex()
        );
        self.text(x, y + 12.0, 12.0, "", &label);
        for (i, &(kind, count)) in held.iter().enumerate() {
            let piece = code(kind, player);
            let centre = (x + 4.0 + (i as f64 + 0.5) * slot, y + 18.0 + 0.4 * SQUARE);
            let attrs = format!(
                "data-piece=\"{}\" data-side=\"{}\" data-hand=\"{}\" data-count=\"{count}\"",
                esc(&rules.code_symbol(piece)),
                esc(name),
                esc(name)
            );
            let badge = (count > 1).then(|| count.to_string());
            self.out += &Token {
                centre,
                r: 0.36 * SQUARE,
                side: player,
                face: face(rules, piece),
                badge: badge.as_deref(),
                stacked: false,
                attrs: &attrs,
                title: &self.titles[kind],
            }
            .draw();
            self.reach(centre.0 + slot / 2.0, y + TRAY);
        }
        self.out += "</g>\n";
        self.reach(x, y + TRAY);
    }

    /// The counters, one line each; the `y` after them.
    fn counters(&mut self, x: f64, mut y: f64) -> f64 {
        let rules = self.rules;
        for (i, name) in rules.counters.iter().enumerate() {
            let line = format!(
                "{name}: {} {}, {} {}",
                rules.players[0].name,
                self.pos.counter(Side::First, i),
                rules.players[1].name,
                self.pos.counter(Side::Second, i)
            );
            self.text(x, y + 13.0, 12.0, "", &line);
            y += LINE;
        }
        y
    }

    /// The legend: a swatch and a name for every tinted zone and kind of terrain.
    fn legend(&mut self, x: f64, mut y: f64) {
        let rules = self.rules;
        let roles = super::zone_roles(rules);
        for (i, &z) in self.zones.clone().iter().enumerate() {
            let colour = palette::ZONES[i].light;
            self.swatch(x, y, colour, None);
            let name = &rules.zone(z).name;
            let mut notes: Vec<String> = roles[z]
                .iter()
                .map(|r| r.words().to_string())
                .filter(|w| w != name)
                .collect();
            if let Some(sides) = super::zone_per_player(rules, z) {
                notes.push(sides);
            }
            let mut line = format!("zone {name}");
            if !notes.is_empty() {
                line += &format!(" ({})", notes.join("; "));
            }
            y = self.legend_text(x + 20.0, y, &line);
        }
        if !self.splits.is_empty() {
            let names: Vec<String> = self
                .splits
                .iter()
                .map(|&z| rules.zone(z).name.clone())
                .collect();
            let _ = writeln!(
                self.out,
                "<path d=\"M{},{} h14\" stroke=\"{}\" stroke-width=\"3\"/>",
                num(x),
                num(y + 7.0),
                palette::BORDER.hex()
            );
            let line = format!(
                "zone {}: the line between the players' sides",
                names.join(", ")
            );
            y = self.legend_text(x + 20.0, y, &line);
        }
        for (t, look) in self.terrain.clone().iter().enumerate() {
            let colour = palette::TERRAIN[look.colour].light;
            self.swatch(x, y, colour, Some(look.pattern));
            let terrain = &rules.terrains[t];
            let line = format!("{} ({}): {}", terrain.name, terrain.letter, look.words);
            y = self.legend_text(x + 20.0, y, &line);
        }
    }

    /// A legend entry's text, wrapped to the main board's width (at least 360 pixels);
    /// the `y` after it.
    fn legend_text(&mut self, x: f64, mut y: f64, text: &str) -> f64 {
        let board = self.rules.geometry.boards[0].files as f64 * SQUARE;
        let most = ((board.max(360.0) - 20.0) / CHAR_WIDTH) as usize;
        for line in wrap(text, most) {
            self.text(x, y + 11.0, 12.0, "", &line);
            y += LINE;
        }
        y
    }

    /// A legend's square of colour, with a terrain's pattern.
    fn swatch(&mut self, x: f64, y: f64, colour: Colour, pattern: Option<Pattern>) {
        let _ = writeln!(
            self.out,
            "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\" stroke=\"{}\"/>",
            num(x),
            num(y),
            colour.hex(),
            palette::FRAME.hex()
        );
        if let Some(p) = pattern {
            self.out += &terrain_overlay(p, x, y, 14.0);
        }
        self.reach(x + 14.0, y + 14.0);
    }
}

/// Text cut into lines of at most `most` characters, at spaces (a longer word stays
/// whole on its own line).
fn wrap(text: &str, most: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let line = lines.last_mut().expect("one line at least");
        if line.is_empty() {
            *line = word.to_string();
        } else if line.chars().count() + 1 + word.chars().count() <= most {
            line.push(' ');
            line.push_str(word);
        } else {
            lines.push(word.to_string());
        }
    }
    lines
}

/// What a piece shows: one of varsand's drawings (its `image`), or a text on a disc:
/// its `glyph`, else its letter in upper case with its mark, as `+P` or `Q~` (the
/// token's colour tells the side).
pub(crate) enum Face {
    Drawing(&'static str),
    Text(String),
}

pub(crate) fn face(rules: &Rules, piece: Code) -> Face {
    let p = &rules.pieces[kind_of(piece)];
    if let Some(shapes) = p.image.as_deref().and_then(crate::pictures::shapes) {
        return Face::Drawing(shapes);
    }
    match &p.glyph[side_of(piece)] {
        Some(glyph) => Face::Text(glyph.clone()),
        None => Face::Text(rules.code_symbol(piece).to_uppercase()),
    }
}

/// A piece drawn: a drawing, or a disc with its text, in its side's colours; a badge
/// (a stack's height, a hand's count) when there is one; discs under it for a stack;
/// its name and moves in words as its tooltip.
pub(crate) struct Token<'a> {
    pub centre: (f64, f64),
    pub r: f64,
    pub side: Side,
    pub face: Face,
    pub badge: Option<&'a str>,
    pub stacked: bool,
    /// The group's attributes (`data-piece` and the like).
    pub attrs: &'a str,
    pub title: &'a str,
}

impl Token<'_> {
    pub(crate) fn draw(&self) -> String {
        let (cx, cy) = self.centre;
        let r = self.r;
        let colours = palette::side(self.side);
        let mut s = format!("<g {}>\n", self.attrs);
        if !self.title.is_empty() {
            let _ = writeln!(s, "<title>{}</title>", esc(self.title));
        }
        if self.stacked {
            // Two discs peeking out below: a stack. Their rims are grey, which shows on
            // white and black tokens alike.
            for lift in [6.0, 3.0] {
                s += &disc((cx, cy + lift), r, colours.token, palette::STACK_RIM);
            }
        }
        match &self.face {
            Face::Drawing(shapes) => s += &drawing(shapes, (cx, cy), 2.3 * r, colours),
            Face::Text(label) => {
                s += &disc((cx, cy), r, colours.token, colours.outline);
                let size = match label.chars().count() {
                    0 | 1 => 1.2 * r,
                    2 => 0.95 * r,
                    _ => 0.75 * r,
                };
                let _ = writeln!(
                    s,
                    "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{}\">{}</text>",
                    num(cx),
                    num(cy + 0.36 * size),
                    num(size),
                    colours.letter.hex(),
                    esc(label)
                );
            }
        }
        if let Some(b) = self.badge {
            s += &badge_at(cx + 0.8 * r, cy - 0.8 * r, b);
        }
        s += "</g>\n";
        s
    }
}

/// A disc with a rim.
fn disc((cx, cy): (f64, f64), r: f64, fill: Colour, rim: Colour) -> String {
    format!(
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"2\"/>\n",
        num(cx),
        num(cy),
        num(r),
        fill.hex(),
        rim.hex()
    )
}

/// One of varsand's drawings in a box of side `size` centred on `(cx, cy)`: filled
/// with the side's token colour, its lines in the side's letter colour (so that the
/// details of a dark piece show).
pub(crate) fn drawing(
    shapes: &str,
    (cx, cy): (f64, f64),
    size: f64,
    colours: palette::SideColours,
) -> String {
    format!(
        "<g transform=\"translate({},{}) scale({:.4})\" fill=\"{}\" stroke=\"{}\" stroke-width=\"4\" stroke-linejoin=\"round\" stroke-linecap=\"round\">{shapes}</g>\n",
        num(cx - size / 2.0),
        num(cy - size / 2.0),
        size / 100.0,
        colours.token.hex(),
        colours.letter.hex()
    )
}

/// A small pill with a number: a stack's height or a hand's count.
fn badge_at(cx: f64, cy: f64, text: &str) -> String {
    let w = 8.0 + 6.5 * text.chars().count() as f64;
    format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"15\" rx=\"7.5\" fill=\"{}\" stroke=\"{}\"/>\n\
         <text x=\"{}\" y=\"{}\" font-size=\"11\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{}\">{}</text>\n",
        num(cx - w / 2.0),
        num(cy - 7.5),
        num(w),
        palette::BADGE.hex(),
        palette::PAPER.hex(),
        num(cx),
        num(cy + 4.0),
        palette::BADGE_TEXT.hex(),
        esc(text)
    )
}

/// The patterns terrain is drawn with, in ink over the terrain's colour.
fn defs() -> String {
    let ink = palette::INK.hex();
    format!(
        "<defs>\n\
         <pattern id=\"vs-hatch\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\">\
         <path d=\"M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4\" stroke=\"{ink}\" stroke-width=\"1.3\" stroke-opacity=\"0.55\"/></pattern>\n\
         <pattern id=\"vs-crosshatch\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\">\
         <path d=\"M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4 M-2,6 l4,4 M0,0 l8,8 M6,-2 l4,4\" stroke=\"{ink}\" stroke-width=\"1\" stroke-opacity=\"0.5\"/></pattern>\n\
         <pattern id=\"vs-bricks\" width=\"16\" height=\"12\" patternUnits=\"userSpaceOnUse\">\
         <path d=\"M0,0.5 h16 M0,6.5 h16 M4,0.5 v6 M12,6.5 v6\" stroke=\"{ink}\" stroke-width=\"1.2\" stroke-opacity=\"0.6\" fill=\"none\"/></pattern>\n\
         <pattern id=\"vs-waves\" width=\"16\" height=\"8\" patternUnits=\"userSpaceOnUse\">\
         <path d=\"M0,4 q4,-4 8,0 t8,0\" stroke=\"{ink}\" stroke-width=\"1.3\" stroke-opacity=\"0.55\" fill=\"none\"/></pattern>\n\
         <pattern id=\"vs-dots\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\">\
         <circle cx=\"4\" cy=\"4\" r=\"1.3\" fill=\"{ink}\" fill-opacity=\"0.55\"/></pattern>\n\
         </defs>\n"
    )
}

/// A terrain's drawing over a square of side `size` at `x`, `y`.
fn terrain_overlay(pattern: Pattern, x: f64, y: f64, size: f64) -> String {
    let id = match pattern {
        Pattern::Hatch => "vs-hatch",
        Pattern::CrossHatch => "vs-crosshatch",
        Pattern::Bricks => "vs-bricks",
        Pattern::Waves => "vs-waves",
        Pattern::Dots => "vs-dots",
        Pattern::Peaks => return peaks(x, y, size),
    };
    format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"url(#{id})\" pointer-events=\"none\"/>\n",
        num(x),
        num(y),
        num(size),
        num(size)
    )
}

/// Two peaks, a large and a small one, filling a square.
fn peaks(x: f64, y: f64, s: f64) -> String {
    let p = |fx: f64, fy: f64| format!("{},{}", num(x + fx * s), num(y + fy * s));
    format!(
        "<path d=\"M{} L{} L{} Z M{} L{} L{} Z\" fill=\"{}\" fill-opacity=\"0.35\" stroke=\"{}\" stroke-opacity=\"0.7\" stroke-width=\"{}\" stroke-linejoin=\"round\" pointer-events=\"none\"/>\n",
        p(0.08, 0.88),
        p(0.42, 0.18),
        p(0.76, 0.88),
        p(0.48, 0.88),
        p(0.7, 0.45),
        p(0.94, 0.88),
        palette::INK.hex(),
        palette::INK.hex(),
        num((s / 32.0).max(0.8))
    )
}
