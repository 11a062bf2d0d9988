//! `varsand uci FILE` and `varsand xboard FILE`: the computer player as an engine
//! for graphical interfaces.

use std::path::PathBuf;
use std::process::ExitCode;

use super::emit_err;
use crate::protocol::Protocol;
use crate::session::{load_file, parse_overrides, stderr_color};

#[derive(clap::Args)]
pub struct Args {
    file: PathBuf,
    /// The learned weights to evaluate with: a values file, or `none` for the
    /// rules' own evaluation (default: GAME.values beside the rule file, if fresh).
    #[arg(long, value_name = "FILE|none")]
    values: Option<PathBuf>,
    /// Override a parameter the file declares: NAME=VALUE (or PLAYER.NAME=VALUE).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// The name to announce the game under (UCI_Variant, XBoard's variants); by
    /// default the game's name in lower case, words joined by `_`.
    #[arg(long, value_name = "NAME")]
    variant: Option<String>,
}

/// `uci`, `xboard`: the engine protocols on standard input and output.
pub fn run(protocol: Protocol, args: &Args) -> ExitCode {
    let file = &args.file;
    let session = parse_overrides(&args.set)
        .and_then(|o| load_file(file, &o, stderr_color()))
        .and_then(|rules| {
            let name = file.display().to_string();
            let eval = super::evaluation(&rules, file, args.values.as_deref());
            crate::protocol::Session::new(rules, &name, args.variant.as_deref())
                .map(|s| s.with_eval(eval))
        });
    match session {
        Ok(session) => {
            crate::protocol::run(protocol, session);
            ExitCode::SUCCESS
        }
        Err(e) => {
            emit_err(&e);
            ExitCode::FAILURE
        }
    }
}
