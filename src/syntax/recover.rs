//! Recovery after a syntax error: the parser stops at the first mistake, so the text
//! it could not read is blanked out (replaced by spaces, so every offset keeps its
//! place) and the file is parsed again, until every mistake has been found. A
//! mistake inside a block (a piece's properties, the end rules) costs the lines up to
//! the next property; one outside costs its declaration.

use super::expected::first_words;

/// What the text holds at each line: where it starts, its first word, and how many
/// braces are open at its start.
struct Line<'a> {
    start: usize,
    first: &'a str,
    depth: usize,
}

fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let depths = depths(text);
    let mut start = 0;
    for piece in text.split_inclusive(['\n', '\r']) {
        let trimmed = piece.trim_start();
        let first_at = start + (piece.len() - trimmed.len());
        let first = word_at(text, first_at);
        out.push(Line {
            start: first_at,
            first,
            depth: depths[start],
        });
        start += piece.len();
    }
    out
}

/// The brace depth before each byte, ignoring braces in comments and strings.
fn depths(text: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len() + 1);
    let (mut depth, mut i) = (0usize, 0);
    let (mut comment, mut string) = (false, false);
    while i < b.len() {
        out.push(depth);
        let c = b[i];
        if comment {
            comment = c != b'\n' && c != b'\r';
        } else if string {
            string = c != b'"' && c != b'\n';
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            comment = true;
        } else if c == b'"' {
            string = true;
        } else if c == b'{' {
            depth += 1;
        } else if c == b'}' {
            depth = depth.saturating_sub(1);
        }
        i += 1;
    }
    out.push(depth);
    out
}

/// The word (letters, digits, `_`, `-`) starting at `at`, or "".
pub(super) fn word_at(text: &str, at: usize) -> &str {
    let rest = &text[at.min(text.len())..];
    let len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    &rest[..len]
}

fn is_in(word: &str, words: &[String]) -> bool {
    !word.is_empty() && words.iter().any(|w| w == word)
}

/// The `{` still open at `at`, if the parser stopped there because a block was not
/// closed: at the next declaration, or at the end of the file.
pub(super) fn unclosed_brace(text: &str, at: usize) -> Option<usize> {
    let decls = first_words("decl");
    let at_decl = is_in(word_at(text, at), &decls) || text[at.min(text.len())..].trim().is_empty();
    let depth = depths(text);
    if !at_decl || depth[at.min(text.len())] == 0 {
        return None;
    }
    // The last `{` before `at` that is still open there.
    let want = depth[at.min(text.len())];
    (0..at.min(text.len()))
        .rev()
        .find(|&i| text.as_bytes()[i] == b'{' && depth[i] == want - 1 && depth[i + 1] == want)
}

/// The stretch to blank after a mistake at `at`, and whether braces in it are kept
/// (inside a block, so that the block still closes). `None` if nothing can be
/// blanked (the mistake is at the end of the file).
pub(super) fn blank_range(text: &str, at: usize) -> Option<(usize, usize, bool)> {
    let decls = first_words("decl");
    let mut props = first_words("piece_prop");
    props.extend(first_words("terrain_prop"));
    props.extend(first_words("end_rule"));
    let lines = lines(text);
    let here = lines.iter().rposition(|l| l.start <= at)?;
    let line = &lines[here];
    let next = |from: usize, stop: &dyn Fn(&Line) -> bool| {
        lines[from + 1..]
            .iter()
            .find(|l| stop(l))
            .map_or(text.len(), |l| l.start)
    };
    if line.start == at && is_in(line.first, &decls) && line.depth > 0 {
        // The declaration before this one was left unfinished: drop it.
        let open = lines[..here]
            .iter()
            .rposition(|l| l.depth == 0 && is_in(l.first, &decls))?;
        return Some((lines[open].start, at, false));
    }
    if line.depth > 0 {
        // Inside a block: this line, up to the next property or closing brace.
        let end = next(here, &|l| {
            is_in(l.first, &props) || is_in(l.first, &decls) || l.first.is_empty()
        });
        return Some((line.start.min(at), end.max(at + 1).min(text.len()), true));
    }
    // A declaration: up to the next one.
    let end = next(here, &|l| l.depth == 0 && is_in(l.first, &decls));
    (end > at).then_some((line.start.min(at), end, false))
}

/// Replaces the characters of `text[from..to]` by spaces (line ends and, if
/// `keep_braces`, braces stay), so that every offset keeps its place.
pub(super) fn blank(text: &mut String, from: usize, to: usize, keep_braces: bool) {
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let keep = i < from
            || i >= to
            || c == '\n'
            || c == '\r'
            || (keep_braces && (c == '{' || c == '}'));
        if keep {
            out.push(c);
        } else {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        }
    }
    *text = out;
}
