//! The `varsand` command line: one file per subcommand, each with its arguments
//! (`Args`, read by clap) and its `run`. `src/main.rs` only parses and dispatches.
//!
//! A new subcommand: a file here with `Args` and `run`, a variant of [`Command`], and
//! its line in [`run`].

mod analyze;
mod check;
mod engine;
mod explain;
mod lsp;
pub mod matches;
mod output;
mod perft;
mod play;
mod render;
mod serve;
mod tune;

use std::process::ExitCode;

use clap::Subcommand;

pub use output::{emit, emit_err};

/// The subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Check rule files and report every problem (errors and warnings).
    Check(check::Args),
    /// Explain a diagnostic code (`varsand explain unknown-piece`): what it means, a
    /// wrong example and the fix. Without a code, list the codes.
    Explain(explain::Args),
    /// A language server for editors, on standard input and output.
    Lsp,
    /// Play a variant: an interactive session (type `help` inside).
    Play(play::Args),
    /// The game on a web page at http://127.0.0.1:PORT/ (printed first): click to move;
    /// the page follows the rule file as it is edited.
    Serve(serve::Args),
    /// Self-play analysis: many games by the computer (or random movers), summarised.
    Analyze(analyze::Args),
    /// Learn the evaluation's piece values, square bonuses and mobility weight from
    /// self-play (or PGN) games; write them beside the rules as GAME.values.
    Tune(tune::Args),
    /// Draw a position as an SVG picture (standard output without -o).
    Render(render::Args),
    /// Play two UCI engines against each other on a rule file (varsand keeps the
    /// rules); print the score and the Elo difference.
    Match(matches::Args),
    /// Be an engine for graphical interfaces over the UCI protocol (standard input and
    /// output).
    Uci(engine::Args),
    /// Be an engine for WinBoard and XBoard over the XBoard protocol (version 2).
    Xboard(engine::Args),
    /// Count the leaf nodes of the move tree, per first move (Stockfish's format).
    Perft(perft::Args),
}

/// Runs a subcommand; its exit status.
pub fn run(command: Command) -> ExitCode {
    match command {
        Command::Check(args) => check::run(&args),
        Command::Explain(args) => explain::run(&args),
        Command::Lsp => lsp::run(),
        Command::Play(args) => play::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Render(args) => render::run(&args),
        Command::Match(args) => matches::run(args),
        Command::Uci(args) => engine::run(crate::protocol::Protocol::Uci, &args),
        Command::Xboard(args) => engine::run(crate::protocol::Protocol::Xboard, &args),
        Command::Perft(args) => perft::run(&args),
    }
}

/// The evaluation for rules read from `file`: with the learned weights of `values`
/// (`none`: without), by default those beside the file when fresh. Warnings (a stale
/// or unreadable values file, which is then ignored) go to standard error.
fn evaluation(
    rules: &crate::Rules,
    file: &std::path::Path,
    values: Option<&std::path::Path>,
) -> std::sync::Arc<crate::search::Eval> {
    use crate::search::{Eval, learned};
    let eval = match values {
        Some(v) if v.as_os_str() == "none" => Eval::new(rules),
        Some(v) => {
            let (learned, warning) = learned::load_file(rules, file, v, true);
            if let Some(w) = warning {
                emit_err(&format!("{w}\n"));
            }
            learned.map_or_else(|| Eval::new(rules), |l| Eval::with_learned(rules, &l))
        }
        None => learned::eval_beside(rules, file),
    };
    std::sync::Arc::new(eval)
}

/// The exit status of a subcommand that failed with a message (printed first) or
/// succeeded.
fn finish(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            emit_err(&e);
            ExitCode::FAILURE
        }
    }
}
