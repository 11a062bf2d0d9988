//! `varsand lsp`: the language server, on standard input and output.

use std::process::ExitCode;

/// Serves until the client says `exit` or the input ends.
pub fn run() -> ExitCode {
    super::finish(crate::lsp::run().map_err(|e| format!("error: {e}\n")))
}
