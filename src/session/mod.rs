//! The plumbing every front end stands on, below them all: reading and checking a rule
//! file (with its diagnostics), the command line's parameters and positions, the
//! limits on what users type, and one type for a game being played. The REPL, the web
//! board, the engine protocols, `match`, `render` and the language server use it and
//! import none of each other.

mod args;
mod files;
mod line;
pub mod replay;

pub use args::{
    MAX_MOVETIME_MS, MAX_PERFT_DEPTH, parse_overrides, position_from_args, variant_name,
};
pub use files::{MAX_FILE_BYTES, load_file, load_hashed, read_text, render_problems, stderr_color};
pub use line::{Adopted, GameLine, Illegal, searcher_for};
