//! A document as the language server reads it for one request: its lines, its words
//! (outside comments and strings, each with the braces open before it) and its
//! declarations by name, each found once, so that a request costs about the text's
//! length whatever it asks (navigating a file of thousands of declarations included).

use std::collections::HashMap;

use lsp_types::{Position, Range};

use crate::syntax::ast::Span;

/// A word of the text (outside comments and strings) and where it is.
#[derive(Clone, Copy, Debug)]
pub struct Word<'a> {
    pub text: &'a str,
    pub span: Span,
    /// How many braces are open before it.
    pub depth: usize,
}

/// What kind of thing a declaration names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Piece,
    Zone,
    Terrain,
    Counter,
    Param,
    Board,
}

impl Kind {
    /// The kind as the language writes it.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Piece => "piece",
            Kind::Zone => "zone",
            Kind::Terrain => "terrain",
            Kind::Counter => "counter",
            Kind::Param => "param",
            Kind::Board => "board",
        }
    }
}

/// A declared name.
pub struct Declared<'a> {
    pub kind: Kind,
    pub name: Word<'a>,
    /// The declaration's keyword.
    pub keyword: Span,
    /// Its place among the declarations of its kind (the rules number pieces so).
    pub nth_of_kind: usize,
}

/// The text of an open document, read for a request.
pub struct Document<'a> {
    pub text: &'a str,
    lines: Lines,
    pub words: Vec<Word<'a>>,
    /// Where braces open (`true`) and close, outside comments and strings.
    braces: Vec<(usize, bool)>,
    pub declared: Vec<Declared<'a>>,
    /// The first declaration of each name, in `declared`.
    by_name: HashMap<&'a str, usize>,
}

impl<'a> Document<'a> {
    pub fn new(text: &'a str) -> Self {
        let (words, braces) = scan(text);
        let declared = declarations(&words);
        let mut by_name = HashMap::new();
        for (i, d) in declared.iter().enumerate() {
            by_name.entry(d.name.text).or_insert(i);
        }
        Document {
            text,
            lines: Lines::new(text),
            words,
            braces,
            declared,
            by_name,
        }
    }

    /// The first declaration of a name.
    pub fn declaration(&self, name: &str) -> Option<&Declared<'a>> {
        self.by_name.get(name).map(|&i| &self.declared[i])
    }

    /// The word at an editor position (the cursor inside it or just after it).
    pub fn word_at(&self, pos: Position) -> Option<Word<'a>> {
        let at = self.offset(pos)?;
        let i = self.words.partition_point(|w| w.span.end < at);
        self.words.get(i).copied().filter(|w| w.span.start <= at)
    }

    /// How many braces are open before a byte offset.
    pub fn depth_at(&self, at: usize) -> usize {
        self.braces
            .iter()
            .take_while(|(place, _)| *place < at)
            .fold(0, |depth, &(_, opens)| {
                if opens {
                    depth + 1
                } else {
                    depth.saturating_sub(1)
                }
            })
    }

    /// The byte offset of an editor position; `None` past the end of its line or
    /// past the last line (nothing is there).
    pub fn offset(&self, pos: Position) -> Option<usize> {
        self.lines.offset(self.text, pos)
    }

    /// The editor's range of a span.
    pub fn range(&self, span: Span) -> Range {
        Range::new(
            self.lines.position(self.text, span.start),
            self.lines.position(self.text, span.end),
        )
    }
}

/// The words and the braces of the text, outside comments and strings, in one pass. A
/// comment ends at its line's end; a string at its closing quote or its line's end (as
/// `crate::syntax::words` reads them).
fn scan(text: &str) -> (Vec<Word<'_>>, Vec<(usize, bool)>) {
    let b = text.as_bytes();
    let (mut words, mut braces) = (Vec::new(), Vec::new());
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += 1;
                }
                i += 1;
            }
            c if c.is_ascii_alphanumeric() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-')
                {
                    i += 1;
                }
                let span = Span::new(start, i);
                words.push(Word {
                    text: &text[start..i],
                    span,
                    depth,
                });
            }
            c => {
                if c == b'{' {
                    depth += 1;
                    braces.push((i, true));
                } else if c == b'}' {
                    depth = depth.saturating_sub(1);
                    braces.push((i, false));
                }
                i += 1;
            }
        }
    }
    (words, braces)
}

/// The names the text declares: the word after `piece`, `zone`, `terrain`, `counter`,
/// `param` and a named `board`, at the top level.
fn declarations<'a>(words: &[Word<'a>]) -> Vec<Declared<'a>> {
    let mut out = Vec::new();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for pair in words.windows(2) {
        let kind = match pair[0].text {
            "piece" => Kind::Piece,
            "zone" => Kind::Zone,
            "terrain" => Kind::Terrain,
            "counter" => Kind::Counter,
            "param" => Kind::Param,
            "board" if !pair[1].text.starts_with(|c: char| c.is_ascii_digit()) => Kind::Board,
            _ => continue,
        };
        if pair[0].depth != 0 {
            continue;
        }
        let count = counts.entry(kind.word()).or_default();
        out.push(Declared {
            kind,
            name: pair[1],
            keyword: pair[0].span,
            nth_of_kind: *count,
        });
        *count += 1;
    }
    out
}

/// Where the lines start. A line ends at `\n`, `\r\n` or a lone `\r`, as the protocol
/// counts them; columns are in UTF-16 code units.
struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    fn new(text: &str) -> Self {
        let b = text.as_bytes();
        let mut starts = vec![0];
        for (i, &c) in b.iter().enumerate() {
            if c == b'\n' || (c == b'\r' && b.get(i + 1) != Some(&b'\n')) {
                starts.push(i + 1);
            }
        }
        Lines { starts }
    }

    /// The byte range of a line's text, without its line end.
    fn line(&self, text: &str, line: usize) -> Option<(usize, usize)> {
        let start = *self.starts.get(line)?;
        let Some(&next) = self.starts.get(line + 1) else {
            return Some((start, text.len()));
        };
        let b = text.as_bytes();
        let mut end = next - 1;
        if b[end] == b'\n' && end > start && b[end - 1] == b'\r' {
            end -= 1;
        }
        Some((start, end))
    }

    fn offset(&self, text: &str, pos: Position) -> Option<usize> {
        let (start, end) = self.line(text, pos.line as usize)?;
        let mut units = 0u32;
        for (k, c) in text[start..end].char_indices() {
            if units >= pos.character {
                return Some(start + k);
            }
            units += c.len_utf16() as u32;
        }
        (units >= pos.character).then_some(end)
    }

    /// The position of a byte offset (moved into the text, onto a character's start).
    fn position(&self, text: &str, offset: usize) -> Position {
        let mut at = offset.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= at) - 1;
        let column = text[self.starts[line]..at].encode_utf16().count();
        Position::new(line as u32, column as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::line_col_utf16;

    #[test]
    fn positions_agree_with_the_diagnostics() {
        let text = "a\r\nbé😀 c\rd\n\n// x { y\n{ \"}\" z }";
        let doc = Document::new(text);
        for at in 0..=text.len() + 2 {
            if text.get(at.saturating_sub(1)..=at) == Some("\r\n") {
                continue; // inside a line end: the diagnostics count a line more
            }
            let (line, col) = line_col_utf16(text, at);
            let pos = doc.lines.position(text, at);
            assert_eq!(
                (pos.line as usize, pos.character as usize),
                (line, col),
                "{at}"
            );
        }
    }

    #[test]
    fn offsets_past_a_line_or_the_text_are_nothing() {
        let text = "ab\r\ncd\re";
        let doc = Document::new(text);
        assert_eq!(doc.offset(Position::new(0, 2)), Some(2));
        assert_eq!(doc.offset(Position::new(0, 3)), None);
        assert_eq!(doc.offset(Position::new(1, 1)), Some(5));
        assert_eq!(doc.offset(Position::new(2, 1)), Some(8));
        assert_eq!(doc.offset(Position::new(3, 0)), None);
    }

    #[test]
    fn depths_skip_comments_and_strings() {
        let text = "piece A { x \"{\" // {\n y } zone";
        let doc = Document::new(text);
        let depths: Vec<(&str, usize)> = doc.words.iter().map(|w| (w.text, w.depth)).collect();
        assert_eq!(
            depths,
            [("piece", 0), ("A", 0), ("x", 1), ("y", 1), ("zone", 0)]
        );
        assert_eq!(doc.depth_at(text.len()), 0);
        assert_eq!(doc.depth_at(11), 1);
    }
}
