//! `varsand play FILE`: the REPL.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::session::{MAX_MOVETIME_MS, parse_overrides};

#[derive(clap::Args)]
pub struct Args {
    file: PathBuf,
    /// Override a parameter the file declares: NAME=VALUE (or PLAYER.NAME=VALUE).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// Start from this position string instead of the setup.
    #[arg(long)]
    fen: Option<String>,
    /// Seed of the computer player's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The computer's thinking time per move, in milliseconds (`time MS` inside).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=MAX_MOVETIME_MS))]
    movetime: Option<u64>,
    /// Accept positions that cannot arise in a game (for composed problems): the
    /// side not to move in check, a side without its royal piece.
    #[arg(long)]
    any_position: bool,
}

/// Runs the session; fails when it could not start or a script's command failed.
pub fn run(args: Args) -> ExitCode {
    let Args {
        file,
        set,
        fen,
        seed,
        movetime,
        any_position,
    } = args;
    let started = parse_overrides(&set)
        .and_then(|overrides| crate::repl::run(file, overrides, seed, fen, movetime, any_position));
    match started {
        Ok(true) => ExitCode::SUCCESS,
        // A script in which a command failed (its errors are on standard error).
        Ok(false) => ExitCode::FAILURE,
        Err(e) => super::finish(Err(e)),
    }
}
