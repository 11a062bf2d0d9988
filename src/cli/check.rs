//! `varsand check FILE...`: every problem of each rule file.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{emit, emit_err};
use crate::check::Overrides;

#[derive(clap::Args)]
pub struct Args {
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Fail on warnings too.
    #[arg(long)]
    deny_warnings: bool,
    /// How to print the problems: `human` (underlined snippets) or `json`.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

/// How `check` prints problems.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Human,
    Json,
}

/// `check`: every file's problems; fails on an error (or a warning, if denied).
pub fn run(args: &Args) -> ExitCode {
    let Args {
        files,
        deny_warnings,
        format,
    } = args;
    let (deny_warnings, format) = (*deny_warnings, *format);
    let color = crate::session::stderr_color();
    let mut ok = true;
    let mut json = Vec::new();
    for f in files {
        let source = match crate::session::read_text(f) {
            Ok(s) => s,
            Err(e) => {
                emit_err(&format!("{e}\n"));
                ok = false;
                continue;
            }
        };
        let checked = crate::loader::check_source(&source, &Overrides::new());
        let failed =
            checked.rules.is_none() || (deny_warnings && checked.warnings().next().is_some());
        ok &= !failed;
        let name = f.display().to_string();
        match format {
            Format::Json => {
                if let serde_json::Value::Array(list) =
                    crate::diagnostic::to_json(&checked.problems, &name, &source)
                {
                    json.extend(list);
                }
            }
            Format::Human => {
                if !checked.problems.is_empty() {
                    emit_err(&crate::session::render_problems(
                        &checked.problems,
                        f,
                        &source,
                        color,
                    ));
                }
                if !failed {
                    emit(&format!("ok: {name}\n"));
                }
            }
        }
    }
    if format == Format::Json {
        emit(&format!("{}\n", serde_json::Value::Array(json)));
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
