//! The board as the page shows it: the renderer's SVG (`render::svg`), which marks
//! every square, piece and piece in hand with the attributes the page's clicks read
//! (`data-square`, `data-piece`, `data-side`, `data-hand`).

use crate::engine::Position;
use crate::render::{BoardOptions, svg};

/// The position drawn as one SVG element, its last move marked; from the second
/// player's side if `flipped`.
pub fn svg(pos: &Position, flipped: bool) -> String {
    let options = BoardOptions {
        flipped,
        ..BoardOptions::of(pos)
    };
    svg::position(pos, &options)
}
