//! The board as SVG, for the page. A stand-in until the renderer lands: plain squares
//! and letters, with the attributes the page reads (`data-square`, `data-piece`,
//! `data-side`, `data-hand`).

use std::fmt::Write;

use crate::engine::Position;
use crate::rules::{EMPTY, code, side_of};

const CELL: usize = 40;

/// The position drawn as one SVG element.
pub fn svg(pos: &Position) -> String {
    let rules = pos.rules().clone();
    let geo = &rules.geometry;
    let width: usize = geo.boards.iter().map(|b| b.files * CELL + CELL / 2).sum();
    let height = geo.boards.iter().map(|b| b.ranks).max().unwrap_or(0) * CELL + 2 * CELL;
    let mut s =
        format!(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}">"#);
    let mut left = 0;
    for (b, board) in geo.boards.iter().enumerate() {
        for (cell, info) in geo.cells.iter().enumerate().filter(|(_, c)| c.board == b) {
            let x = left + info.file * CELL;
            let y = (board.ranks - 1 - info.rank) * CELL;
            let fill = if info.dark { "#b58863" } else { "#f0d9b5" };
            let _ = write!(
                s,
                r#"<rect data-square="{}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#,
                info.name
            );
            let piece = pos.piece_at(cell as u16);
            if piece != EMPTY {
                let _ = write!(
                    s,
                    r#"<text data-square="{}" data-piece="{}" data-side="{}" x="{}" y="{}" font-size="28" text-anchor="middle">{}</text>"#,
                    info.name,
                    rules.code_symbol(piece),
                    rules.players[side_of(piece)].name,
                    x + CELL / 2,
                    y + CELL - 10,
                    rules.code_symbol(piece)
                );
            }
        }
        left += board.files * CELL + CELL / 2;
    }
    let top = height - 2 * CELL;
    for side in 0..2 {
        let mut x = 0;
        for kind in 0..rules.pieces.len() {
            let n = pos.in_hand(side, kind);
            if n == 0 {
                continue;
            }
            let symbol = rules.code_symbol(code(kind, side));
            let _ = write!(
                s,
                r#"<text data-hand="{}" data-piece="{symbol}" data-side="{}" x="{}" y="{}" font-size="24">{symbol}×{n}</text>"#,
                rules.players[side].name,
                rules.players[side].name,
                x + 4,
                top + (side + 1) * CELL - 10
            );
            x += 2 * CELL;
        }
    }
    s + "</svg>"
}
