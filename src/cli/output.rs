//! Writing a subcommand's output.

use std::io::Write;

/// Writes to standard output. When the reader has gone (a closed pipe, as in
/// `varsand perft FILE 6 | head -1`), the program ends quietly with status 0: nobody
/// reads the rest. Any other write error ends it with status 1.
pub fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        emit_err(&format!("error: cannot write the output: {e}\n"));
        std::process::exit(1);
    }
}

/// Writes to standard error, ignoring failure (there is nowhere left to report it).
pub fn emit_err(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
