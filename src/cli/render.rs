//! `varsand render FILE`: a position of a rule file as SVG, or with `--piece NAME` a
//! piece's movement diagram.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::emit;
use crate::render::{BoardOptions, diagram, svg};
use crate::session::{parse_overrides, position_from_args};

#[derive(clap::Args)]
pub struct Args {
    file: PathBuf,
    /// Draw this position string instead of the setup.
    #[arg(long)]
    fen: Option<String>,
    /// Play these moves first, separated by spaces (the last one is marked).
    #[arg(long)]
    moves: Option<String>,
    /// Draw from the second player's side.
    #[arg(long)]
    flip: bool,
    /// Draw this piece's movement diagram instead (its name, or its letter as a
    /// position string writes it: `N`, `+P`, `k`).
    #[arg(long, value_name = "NAME")]
    piece: Option<String>,
    /// Write the picture to this file (`-` for standard output, as without it).
    #[arg(short, long, value_name = "OUT.svg")]
    output: Option<PathBuf>,
    /// Override a parameter the file declares: NAME=VALUE (or PLAYER.NAME=VALUE).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
}

pub fn run(args: &Args) -> ExitCode {
    super::finish(draw(args))
}

/// Draws the position; writes it to the output file, or to standard output (no file,
/// or `-`).
fn draw(args: &Args) -> Result<(), String> {
    let overrides = parse_overrides(&args.set)?;
    let pos = position_from_args(
        &args.file,
        &overrides,
        args.fen.as_deref(),
        args.moves.as_deref(),
    )?;
    let picture = match &args.piece {
        Some(name) => {
            let rules = pos.rules();
            let kind = diagram::find_piece(rules, name).map_err(|e| format!("error: {e}\n"))?;
            diagram::svg(rules, &diagram::diagram(rules, kind))
        }
        None => svg::position(
            &pos,
            &BoardOptions {
                flipped: args.flip,
                ..BoardOptions::of(&pos)
            },
        ),
    };
    match args.output.as_deref() {
        Some(path) if path != Path::new("-") => std::fs::write(path, picture)
            .map_err(|e| format!("error: cannot write {}: {e}\n", path.display())),
        _ => {
            emit(&picture);
            Ok(())
        }
    }
}
