//! `varsand serve FILE`: the web board.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::serve::{DEFAULT_MOVETIME_MS, DEFAULT_PORT, Options};
use crate::session::MAX_MOVETIME_MS;

#[derive(clap::Args)]
pub struct Args {
    file: PathBuf,
    /// The port to listen on, on 127.0.0.1 only; 0 for any free port.
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// The computer's thinking time per move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_MOVETIME_MS, value_parser = clap::value_parser!(u64).range(1..=MAX_MOVETIME_MS))]
    movetime: u64,
}

/// Serves the game until the process is stopped.
pub fn run(args: Args) -> ExitCode {
    super::finish(crate::serve::run(Options {
        file: args.file,
        port: args.port,
        movetime_ms: args.movetime,
    }))
}
