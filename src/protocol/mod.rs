//! The engine protocols: UCI (`varsand uci FILE`) and XBoard/CECP version 2
//! (`varsand xboard FILE`), so that graphical interfaces (WinBoard, XBoard and the
//! UCI ones) and match runners can play the file's game against people or other
//! engines.
//!
//! Both read commands line by line from standard input while the search runs on its
//! own thread ([`thinking`]), so that `stop`, `isready`, `?` and `quit` are answered
//! at once. Moves and positions are written as varsand writes them (Fairy-Stockfish's
//! notation for the classic games); the XBoard side translates squares and position
//! strings to WinBoard's conventions ([`winboard`]). Bad input on the protocol is
//! answered with an error line and never ends the engine.

pub mod clock;
pub mod thinking;
pub mod uci;
pub mod winboard;
pub mod xboard;

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::rules::Rules;

/// The transposition table's size when none is asked for, in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;
/// The largest transposition table a protocol may ask for, in megabytes: the table is
/// filled when made, so a typing slip must not ask for more memory than a machine has.
pub const MAX_HASH_MB: usize = 4096;

/// Which protocol a session speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Xboard,
}

/// What a session plays: the rules, the file they came from (for messages) and the
/// name the game is announced under.
pub struct Session {
    pub rules: Arc<Rules>,
    pub file: String,
    pub variant: String,
    /// The evaluation, when not the rules' own (learned weights).
    pub eval: Option<Arc<crate::search::Eval>>,
}

impl Session {
    /// A session on `rules` from `file`, announced as `variant` if given (so that an
    /// interface that knows the game under another name finds it), else under the
    /// game's own name ([`crate::session::variant_name`]).
    pub fn new(rules: Arc<Rules>, file: &str, variant: Option<&str>) -> Result<Self, String> {
        let variant = match variant {
            None => crate::session::variant_name(&rules),
            Some(v) if is_variant_name(v) => v.to_string(),
            Some(v) => {
                return Err(format!(
                    "error: --variant `{v}`: a variant name is 1 to 64 letters, digits, `_` or `-`\n"
                ));
            }
        };
        Ok(Self {
            rules,
            file: file.to_string(),
            variant,
            eval: None,
        })
    }

    /// The session, its engine evaluating with `eval`.
    pub fn with_eval(self, eval: Arc<crate::search::Eval>) -> Self {
        Self {
            eval: Some(eval),
            ..self
        }
    }
}

/// Speaks `protocol` on standard input and output until `quit` or the end of the
/// input.
pub fn run(protocol: Protocol, session: Session) {
    let input = std::io::stdin().lock();
    let output = Output::new(Box::new(std::io::stdout()));
    match protocol {
        Protocol::Uci => uci::run(session, input, output),
        Protocol::Xboard => xboard::run(session, input, output),
    }
}

/// Can `name` be announced as a variant (one word, without the quotes, commas and
/// spaces that separate the protocols' fields)?
fn is_variant_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The engine's name in `id name` and `myname`: the program and the game it plays.
fn engine_name(rules: &Rules) -> String {
    format!("varsand {} ({})", env!("CARGO_PKG_VERSION"), rules.name())
}

/// A text to put between double quotes (XBoard's `myname`): its own double quotes
/// become single ones.
fn without_double_quotes(text: &str) -> String {
    text.replace('"', "'")
}

/// Where the protocol's lines go, shared by the command loop and the search thread:
/// each line is written and flushed whole, so lines never interleave. A write that
/// fails (the interface has gone) is remembered and later lines are dropped.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    closed: Arc<AtomicBool>,
}

impl Output {
    pub fn new(sink: Box<dyn Write + Send>) -> Self {
        Self {
            sink: Arc::new(Mutex::new(sink)),
            closed: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Writes one line (the newline is added).
    pub fn line(&self, text: &str) {
        if self.closed.load(Ordering::Relaxed) {
            return;
        }
        // A thread that panicked while writing leaves the sink usable.
        let mut sink = self
            .sink
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let written = sink
            .write_all(text.as_bytes())
            .and_then(|()| sink.write_all(b"\n"))
            .and_then(|()| sink.flush());
        if written.is_err() {
            self.closed.store(true, Ordering::Relaxed);
        }
    }

    /// Has a write failed (nobody reads any more)?
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }
}

/// The longest command line read: a position with a long game's moves is a few
/// kilobytes; a line without end must not fill the memory.
const MAX_LINE_BYTES: usize = 1 << 20;

/// A command line longer than [`MAX_LINE_BYTES`] (it is skipped).
#[derive(Debug, PartialEq, Eq)]
struct LineTooLong;

impl std::fmt::Display for LineTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a command line longer than {MAX_LINE_BYTES} bytes was ignored"
        )
    }
}

/// Reads the next command line; `None` at the end of the input (or when it cannot be
/// read). A line longer than [`MAX_LINE_BYTES`] is skipped whole.
fn read_command(input: &mut impl BufRead) -> Option<Result<String, LineTooLong>> {
    let mut bytes = Vec::new();
    loop {
        let buf = input.fill_buf().ok()?;
        if buf.is_empty() {
            return (!bytes.is_empty()).then(|| finish_line(bytes));
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let n = chunk.len();
        if bytes.len() <= MAX_LINE_BYTES {
            bytes.extend_from_slice(&chunk[..n.min(MAX_LINE_BYTES + 1 - bytes.len())]);
        }
        input.consume(n);
        if done {
            return Some(finish_line(bytes));
        }
    }
}

fn finish_line(bytes: Vec<u8>) -> Result<String, LineTooLong> {
    if bytes.len() > MAX_LINE_BYTES {
        return Err(LineTooLong);
    }
    Ok(String::from_utf8_lossy(&bytes).trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_are_single_words() {
        assert!(is_variant_name("my_game-2"));
        for bad in ["", "two words", "a,b", "quote\"", &"x".repeat(65)] {
            assert!(!is_variant_name(bad), "{bad}");
        }
    }

    #[test]
    fn commands_are_read_line_by_line_and_overlong_lines_refused() {
        let long = "x".repeat(MAX_LINE_BYTES + 10);
        let text = format!("uci\r\n  isready  \n{long}\nquit");
        let mut input = std::io::Cursor::new(text.into_bytes());
        assert_eq!(read_command(&mut input), Some(Ok("uci".into())));
        assert_eq!(read_command(&mut input), Some(Ok("isready".into())));
        assert_eq!(read_command(&mut input), Some(Err(LineTooLong)));
        assert_eq!(read_command(&mut input), Some(Ok("quit".into())));
        assert_eq!(read_command(&mut input), None);
    }
}
