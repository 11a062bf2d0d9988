//! `varsand perft FILE DEPTH`: the leaf nodes of the move tree, per first move.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use super::{emit, emit_err};
use crate::perft::Perft;
use crate::session::{MAX_PERFT_DEPTH, parse_overrides, position_from_args};

#[derive(clap::Args)]
pub struct Args {
    file: PathBuf,
    /// Plies to count (at most 64).
    #[arg(value_parser = clap::value_parser!(u64).range(0..=MAX_PERFT_DEPTH as u64))]
    depth: u64,
    /// Start from this position string instead of the setup.
    #[arg(long)]
    fen: Option<String>,
    /// Play these moves first, separated by spaces.
    #[arg(long)]
    moves: Option<String>,
    /// Override a parameter the file declares: NAME=VALUE (or PLAYER.NAME=VALUE).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
}

pub fn run(args: &Args) -> ExitCode {
    super::finish(count(args))
}

/// Counts and prints; the error is a message ready to print.
fn count(args: &Args) -> Result<(), String> {
    let overrides = parse_overrides(&args.set)?;
    let mut pos = position_from_args(
        &args.file,
        &overrides,
        args.fen.as_deref(),
        args.moves.as_deref(),
    )?;
    let depth = usize::try_from(args.depth).unwrap_or(MAX_PERFT_DEPTH);
    let start = Instant::now();
    let mut perft = Perft::new();
    let divide = perft.divide(&mut pos, depth);
    let total: u64 = if depth == 0 {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    };
    let elapsed = start.elapsed();
    let mut text = String::new();
    for (m, n) in &divide {
        text += &format!("{m}: {n}\n");
    }
    text += &format!("\nNodes searched: {total}\n");
    emit(&text);
    let secs = elapsed.as_secs_f64();
    emit_err(&format!(
        "time {:.3} s, {:.0} nodes/s\n",
        secs,
        total as f64 / secs.max(1e-9)
    ));
    Ok(())
}
