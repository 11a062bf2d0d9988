//! The piece drawings varsand ships (`pictures/pieces.svg`, drawn for this project):
//! their names, which a rule file's `image NAME` may give, and their SVG shapes. The
//! names live in that data file, not here: the code knows no piece.

/// The sheet of drawings, one `<symbol id="NAME" viewBox="0 0 100 100">` each.
const SHEET: &str = include_str!("../pictures/pieces.svg");

/// Every drawing: its name and its shapes (the SVG inside its `<symbol>`), in the
/// sheet's order.
pub fn drawings() -> impl Iterator<Item = (&'static str, &'static str)> {
    SHEET.split("<symbol id=\"").skip(1).filter_map(|rest| {
        let (name, after) = rest.split_once('"')?;
        let (_, body) = after.split_once('>')?;
        let (shapes, _) = body.split_once("</symbol>")?;
        Some((name, shapes.trim()))
    })
}

/// The names of the drawings, for `image NAME` and its help line.
pub fn names() -> Vec<&'static str> {
    drawings().map(|(name, _)| name).collect()
}

/// The shapes of a drawing, drawn in a 100 x 100 box.
pub fn shapes(name: &str) -> Option<&'static str> {
    drawings().find(|&(n, _)| n == name).map(|(_, s)| s)
}
