//! Reading rule files and saved games, and checking rule files: what every front end
//! does first, the same way (the same limits, the same diagnostics).

use std::path::Path;
use std::sync::Arc;

use crate::check::Overrides;
use crate::diagnostic::Problem;
use crate::loader;
use crate::rules::Rules;

/// Renders diagnostics (with [`crate::diagnostic::render`]) and a closing line
/// counting them.
pub fn render_problems(problems: &[Problem], path: &Path, source: &str, color: bool) -> String {
    let mut out = crate::diagnostic::render(problems, &path.display().to_string(), source, color);
    let n = problems.len();
    out += &format!(
        "{}: {n} problem{}\n",
        path.display(),
        if n == 1 { "" } else { "s" }
    );
    out
}

/// The largest file read: rule files and saved games are small texts, and a
/// limit keeps `/dev/zero` or a huge file from filling the memory.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a text file of at most [`MAX_FILE_BYTES`]. Only regular files are read: a
/// named pipe would block, a device may never end. The error is a sentence naming the
/// file, without a final newline.
///
/// What is tested is the opened file, not the path: a file swapped for a named pipe
/// between a test of the path and the opening would otherwise block for good. The
/// opening itself does not block (`O_NONBLOCK`, which a regular file ignores).
pub fn read_text(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let cannot = |why: &dyn std::fmt::Display| format!("cannot read {}: {why}", path.display());
    let file = open_without_blocking(path).map_err(|e| cannot(&e))?;
    let meta = file.metadata().map_err(|e| cannot(&e))?;
    if !meta.is_file() {
        return Err(cannot(&"not a regular file"));
    }
    let too_big = || cannot(&format_args!("larger than {} MiB", MAX_FILE_BYTES >> 20));
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot(&e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big());
    }
    String::from_utf8(bytes).map_err(|e| {
        cannot(&format_args!(
            "not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Opens a file for reading without waiting for a writer, where the system allows.
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Reads and checks a rule file; the rendered diagnostics on failure.
pub fn load_file(path: &Path, overrides: &Overrides, color: bool) -> Result<Arc<Rules>, String> {
    load_hashed(path, overrides, color).map(|(rules, _)| rules)
}

/// [`load_file`], with the hash of the rule text ([`crate::pgn::text_hash`]).
pub fn load_hashed(
    path: &Path,
    overrides: &Overrides,
    color: bool,
) -> Result<(Arc<Rules>, String), String> {
    let source = read_text(path).map_err(|e| e + "\n")?;
    loader::load(&source, overrides)
        .map(|r| (Arc::new(r), crate::pgn::text_hash(&source)))
        .map_err(|p| render_problems(&p, path, &source, color))
}

/// Whether diagnostics written to standard error may use colour: a terminal, and no
/// `NO_COLOR`.
pub fn stderr_color() -> bool {
    std::env::var_os("NO_COLOR").is_none() && std::io::IsTerminal::is_terminal(&std::io::stderr())
}
