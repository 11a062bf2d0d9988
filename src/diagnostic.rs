//! Problems found in a rule file, rendered by miette with the offending text underlined.

use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode};

use crate::syntax::ast::Span;

/// One problem in a rule file: what is wrong, where, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// A stable name for the kind of problem, such as `varsand::unknown-piece`.
    pub code: &'static str,
    pub message: String,
    pub span: Span,
    /// The short text under the underline.
    pub label: String,
    pub help: Option<String>,
}

impl Problem {
    pub fn new(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            span,
            label: "here".into(),
            help: None,
        }
    }
    /// A problem at `offset..offset + len` inside a quoted string (a Betza string, a
    /// position string) whose text has the span `string`.
    pub fn inside(
        code: &'static str,
        string: Span,
        offset: usize,
        len: usize,
        message: String,
        help: String,
    ) -> Self {
        Self::new(code, string.sub(offset, len.max(1)), message).help(help)
    }

    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    /// Attaches the source text, so the problem can be shown.
    pub fn with_source(self, name: &str, source: Arc<str>) -> SourceProblem {
        SourceProblem {
            problem: self,
            source: NamedSource::new(name, source),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A [`Problem`] together with the file it is in: a complete miette diagnostic.
#[derive(Debug)]
pub struct SourceProblem {
    pub problem: Problem,
    source: NamedSource<Arc<str>>,
}

impl fmt::Display for SourceProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.problem.message)
    }
}

impl std::error::Error for SourceProblem {}

impl Diagnostic for SourceProblem {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.problem.code))
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.problem
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.problem.span;
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(
                Some(self.problem.label.clone()),
                (span.start, span.len()),
            ),
        )))
    }
}

/// Renders problems as plain text without colours, as `varsand check` prints them to a
/// file or pipe; the tests snapshot this text.
pub fn render_plain(problems: &[Problem], name: &str, source: &str) -> String {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(100);
    let source: Arc<str> = Arc::from(source);
    let mut out = String::new();
    for p in problems {
        let diag = p.clone().with_source(name, source.clone());
        handler
            .render_report(&mut out, &diag)
            .expect("writing to a String cannot fail");
    }
    out
}

/// Returns the known name closest to `name`, if one is close enough to be a likely typo.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (edit_distance(&lower, &c.to_lowercase()), c))
        .filter(|(d, c)| *d <= (c.len().max(name.len()) / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Edit distance counting a swap of two neighbouring letters as one edit
/// (`blakc` is one edit from `black`).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}
