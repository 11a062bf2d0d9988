//! `varsand render`: a position of a rule file as SVG.

use std::path::Path;

use crate::check::Overrides;

use super::BoardOptions;

/// Draws the position; writes it to `output`, or returns it for standard output
/// (no `output`, or `-`).
pub fn render(
    file: &Path,
    overrides: &Overrides,
    fen: Option<&str>,
    moves: Option<&str>,
    flipped: bool,
    output: Option<&Path>,
) -> Result<Option<String>, String> {
    let pos = crate::session::position_from_args(file, overrides, fen, moves)?;
    let opts = BoardOptions {
        flipped,
        ..BoardOptions::of(&pos)
    };
    let svg = super::svg::position(&pos, &opts);
    match output {
        // `-o -` is standard output, as for most tools that write files.
        Some(path) if path == Path::new("-") => Ok(Some(svg)),
        Some(path) => {
            std::fs::write(path, svg)
                .map_err(|e| format!("error: cannot write {}: {e}\n", path.display()))?;
            Ok(None)
        }
        None => Ok(Some(svg)),
    }
}

/// `analyze --svg OUT.svg`: the report's charts, written to a file.
pub fn write_chart(path: &Path, report: &crate::analyze::Report) -> Result<(), String> {
    std::fs::write(path, super::chart::report(report))
        .map_err(|e| format!("error: cannot write {}: {e}\n", path.display()))
}
