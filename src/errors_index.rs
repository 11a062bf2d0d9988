//! The error index: for every diagnostic code, what it means, a wrong example and the
//! fix (`varsand explain CODE`, like rustc's `--explain`). The text is
//! `docs/diagnostics.md`, one `## varsand::CODE` section per code.

const INDEX: &str = include_str!("../docs/diagnostics.md");

/// The section of the index for `code` (`unknown-piece` or `varsand::unknown-piece`),
/// without its heading.
pub fn explain(code: &str) -> Option<&'static str> {
    let code = code.trim();
    let code = code.strip_prefix("varsand::").unwrap_or(code);
    sections().find(|(c, _)| *c == code).map(|(_, text)| text)
}

/// Every code the index explains, in its order.
pub fn codes() -> impl Iterator<Item = &'static str> {
    sections().map(|(c, _)| c)
}

/// The index's sections: each code (without `varsand::`) and its text.
fn sections() -> impl Iterator<Item = (&'static str, &'static str)> {
    INDEX.split("\n## varsand::").skip(1).map(|s| {
        let (code, text) = s.split_once('\n').unwrap_or((s, ""));
        (code.trim(), text.trim())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::ProblemCode;

    #[test]
    fn every_code_is_explained_with_a_wrong_example_and_a_fix() {
        for code in ProblemCode::ALL {
            let name = code.to_string();
            let text =
                explain(&name).unwrap_or_else(|| panic!("{name} is not in docs/diagnostics.md"));
            assert!(
                text.contains("Wrong:") && text.contains("Fix:"),
                "{name}: {text}"
            );
        }
        assert_eq!(
            codes().count(),
            ProblemCode::ALL.len(),
            "a section for a code that does not exist"
        );
    }
}
