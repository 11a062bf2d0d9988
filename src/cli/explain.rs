//! `varsand explain [CODE]`: what a diagnostic code means, or the list of codes.

use std::process::ExitCode;

use super::{emit, emit_err};

#[derive(clap::Args)]
pub struct Args {
    code: Option<String>,
}

/// Every code with the first sentence of its explanation, aligned:
/// `varsand::unknown-piece   A rule names a piece that no `piece` line declares.`
fn code_list() -> String {
    let codes: Vec<&str> = crate::errors_index::codes().collect();
    let width = codes.iter().map(|c| c.len()).max().unwrap_or(0) + "varsand::".len();
    let mut out = String::new();
    for code in codes {
        let text = crate::errors_index::explain(code).unwrap_or_default();
        let first = text.split_inclusive(". ").next().unwrap_or("").trim_end();
        let name = format!("varsand::{code}");
        out += &format!("{name:<width$}  {first}\n");
    }
    out
}

/// `explain CODE`: the error index's section, or the list of codes.
pub fn run(args: &Args) -> ExitCode {
    let code = args.code.as_deref();
    let Some(code) = code else {
        emit(&code_list());
        return ExitCode::SUCCESS;
    };
    match crate::errors_index::explain(code) {
        Some(text) => {
            let code = code.trim().strip_prefix("varsand::").unwrap_or(code.trim());
            emit(&format!("varsand::{code}\n\n{text}\n"));
            ExitCode::SUCCESS
        }
        None => {
            let codes: Vec<&str> = crate::errors_index::codes().collect();
            let hint = crate::diagnostic::closest(code.trim_start_matches("varsand::"), codes)
                .map_or_else(
                    || ": `varsand explain` lists the codes".into(),
                    |c| format!(": did you mean `{c}`?"),
                );
            emit_err(&format!("error: no diagnostic is called `{code}`{hint}\n"));
            ExitCode::FAILURE
        }
    }
}
