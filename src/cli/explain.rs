//! `varsand explain [CODE]`: what a diagnostic code means, or the list of codes.

use std::process::ExitCode;

use super::{emit, emit_err};

#[derive(clap::Args)]
pub struct Args {
    code: Option<String>,
}

/// `explain CODE`: the error index's section, or the list of codes.
pub fn run(args: &Args) -> ExitCode {
    let code = args.code.as_deref();
    let Some(code) = code else {
        let list: Vec<String> = crate::errors_index::codes()
            .map(|c| format!("varsand::{c}"))
            .collect();
        emit(&format!("{}\n", list.join("\n")));
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
