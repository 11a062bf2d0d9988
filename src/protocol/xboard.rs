//! The XBoard protocol (`varsand xboard FILE`).

use std::io::BufRead;
use std::sync::Arc;

use super::Output;
use crate::rules::Rules;

/// Speaks XBoard for `rules` until `quit` or the end of `input`.
pub fn run(_rules: Arc<Rules>, _file: &str, _input: impl BufRead, out: Output) {
    out.line("Error (not ready): the XBoard protocol comes next");
}
