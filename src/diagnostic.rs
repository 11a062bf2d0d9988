//! Problems found in a rule file, rendered by miette with the offending text underlined.

use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode};

/// A byte range in the source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Self { start, end }
    }
    pub fn len(&self) -> usize {
        self.end - self.start
    }
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
    /// A sub-range of this span, `offset` bytes in and `len` long.
    pub fn sub(&self, offset: usize, len: usize) -> Self {
        let start = (self.start + offset).min(self.end);
        Self::new(start, (start + len).min(self.end.max(start + len)))
    }
}

/// The kind of a problem: a stable name, shown as `varsand::NAME` (for tools, the
/// snapshot tests and a future `varsand explain`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, thiserror::Error)]
pub enum ProblemCode {
    #[error("varsand::ambiguous-square")]
    AmbiguousSquare,
    #[error("varsand::betza")]
    Betza,
    #[error("varsand::board-name")]
    BoardName,
    #[error("varsand::board-size")]
    BoardSize,
    #[error("varsand::capture-condition")]
    CaptureCondition,
    #[error("varsand::castle-line")]
    CastleLine,
    #[error("varsand::castle-squares")]
    CastleSquares,
    #[error("varsand::check-without-royal")]
    CheckWithoutRoyal,
    #[error("varsand::counter-change")]
    CounterChange,
    #[error("varsand::duplicate-board")]
    DuplicateBoard,
    #[error("varsand::empty-glyph")]
    EmptyGlyph,
    #[error("varsand::glyph-length")]
    GlyphLength,
    #[error("varsand::glyph-player")]
    GlyphPlayer,
    #[error("varsand::unknown-image")]
    UnknownImage,
    #[error("varsand::duplicate-castle")]
    DuplicateCastle,
    #[error("varsand::duplicate-counter")]
    DuplicateCounter,
    #[error("varsand::duplicate-drop")]
    DuplicateDrop,
    #[error("varsand::duplicate-gating")]
    DuplicateGating,
    #[error("varsand::gates-on-one-file")]
    GatesOnOneFile,
    #[error("varsand::too-many-gates")]
    TooManyGates,
    #[error("varsand::must-drop-never-dropped")]
    MustDropNeverDropped,
    #[error("varsand::castling-by-drop-without-castling")]
    CastlingByDropWithoutCastling,
    #[error("varsand::duplicate-property")]
    DuplicateProperty,
    #[error("varsand::empty-range")]
    EmptyRange,
    #[error("varsand::repeated-move")]
    RepeatedMove,
    #[error("varsand::overlapping-moves")]
    OverlappingMoves,
    #[error("varsand::unused-counter")]
    UnusedCounter,
    #[error("varsand::unused-piece")]
    UnusedPiece,
    #[error("varsand::unused-terrain")]
    UnusedTerrain,
    #[error("varsand::unused-zone")]
    UnusedZone,
    #[error("varsand::drop-condition")]
    DropCondition,
    #[error("varsand::duplicate-drops")]
    DuplicateDrops,
    #[error("varsand::face-never-held")]
    FaceNeverHeld,
    #[error("varsand::file-limit")]
    FileLimit,
    #[error("varsand::duplicate-flip")]
    DuplicateFlip,
    #[error("varsand::duplicate-game")]
    DuplicateGame,
    #[error("varsand::duplicate-letter")]
    DuplicateLetter,
    #[error("varsand::duplicate-param")]
    DuplicateParam,
    #[error("varsand::duplicate-pie-rule")]
    DuplicatePieRule,
    #[error("varsand::duplicate-piece")]
    DuplicatePiece,
    #[error("varsand::duplicate-players")]
    DuplicatePlayers,
    #[error("varsand::duplicate-setup")]
    DuplicateSetup,
    #[error("varsand::duplicate-square")]
    DuplicateSquare,
    #[error("varsand::duplicate-terrain")]
    DuplicateTerrain,
    #[error("varsand::duplicate-zone")]
    DuplicateZone,
    #[error("varsand::end-count")]
    EndCount,
    #[error("varsand::flip-owner")]
    FlipOwner,
    #[error("varsand::flip-pair")]
    FlipPair,
    #[error("varsand::height-change")]
    HeightChange,
    #[error("varsand::illegal-result")]
    IllegalResult,
    #[error("varsand::impossible-setup")]
    ImpossibleSetup,
    #[error("varsand::never-dropped")]
    NeverDropped,
    #[error("varsand::nothing-captures")]
    NothingCaptures,
    #[error("varsand::unattacked-with-reply")]
    UnattackedWithReply,
    #[error("varsand::capturing-without-capture")]
    CapturingWithoutCapture,
    #[error("varsand::converts-without-convert")]
    ConvertsWithoutConvert,
    #[error("varsand::in-place-without-becomes")]
    InPlaceWithoutBecomes,
    #[error("varsand::convert-one-sided")]
    ConvertOneSided,
    #[error("varsand::explosion-to-hand")]
    ExplosionToHand,
    #[error("varsand::event-effect")]
    EventEffect,
    #[error("varsand::unknown-terrain")]
    UnknownTerrain,
    #[error("varsand::place-along")]
    PlaceAlong,
    #[error("varsand::place-twice")]
    PlaceTwice,
    #[error("varsand::moved-terrain-count")]
    MovedTerrainCount,
    #[error("varsand::check-condition")]
    CheckCondition,
    #[error("varsand::never-exits")]
    NeverExits,
    #[error("varsand::no-board")]
    NoBoard,
    #[error("varsand::no-flip-rule")]
    NoFlipRule,
    #[error("varsand::no-setup")]
    NoSetup,
    #[error("varsand::number-range")]
    NumberRange,
    #[error("varsand::off-board")]
    OffBoard,
    #[error("varsand::over-without-hop")]
    OverWithoutHop,
    #[error("varsand::owner-letter-case")]
    OwnerLetterCase,
    #[error("varsand::param-per-player")]
    ParamPerPlayer,
    #[error("varsand::param-range")]
    ParamRange,
    #[error("varsand::pass-condition")]
    PassCondition,
    #[error("varsand::piece-letter")]
    PieceLetter,
    #[error("varsand::players-letter")]
    PlayersLetter,
    #[error("varsand::setup")]
    Setup,
    #[error("varsand::square-names")]
    SquareNames,
    #[error("varsand::syntax")]
    Syntax,
    #[error("varsand::terrain-letter")]
    TerrainLetter,
    #[error("varsand::too-many-boards")]
    TooManyBoards,
    #[error("varsand::too-many-castlings")]
    TooManyCastlings,
    #[error("varsand::too-many-counters")]
    TooManyCounters,
    #[error("varsand::too-many-flights")]
    TooManyFlights,
    #[error("varsand::too-many-pieces")]
    TooManyPieces,
    #[error("varsand::too-many-squares")]
    TooManySquares,
    #[error("varsand::too-many-zones")]
    TooManyZones,
    #[error("varsand::unclosed-brace")]
    UnclosedBrace,
    #[error("varsand::unknown-board")]
    UnknownBoard,
    #[error("varsand::unknown-counter")]
    UnknownCounter,
    #[error("varsand::unknown-param")]
    UnknownParam,
    #[error("varsand::unknown-piece")]
    UnknownPiece,
    #[error("varsand::unknown-player")]
    UnknownPlayer,
    #[error("varsand::unknown-promotion")]
    UnknownPromotion,
    #[error("varsand::unknown-zone")]
    UnknownZone,
    #[error("varsand::value-range")]
    ValueRange,
    #[error("varsand::zone-named-like-square")]
    ZoneNamedLikeSquare,
}

impl ProblemCode {
    /// Every code, for the error index.
    pub const ALL: &[ProblemCode] = &[
        ProblemCode::AmbiguousSquare,
        ProblemCode::Betza,
        ProblemCode::BoardName,
        ProblemCode::BoardSize,
        ProblemCode::CaptureCondition,
        ProblemCode::CastleLine,
        ProblemCode::CastleSquares,
        ProblemCode::CheckWithoutRoyal,
        ProblemCode::CounterChange,
        ProblemCode::DuplicateBoard,
        ProblemCode::EmptyGlyph,
        ProblemCode::GlyphLength,
        ProblemCode::GlyphPlayer,
        ProblemCode::UnknownImage,
        ProblemCode::DuplicateCastle,
        ProblemCode::DuplicateCounter,
        ProblemCode::DuplicateDrop,
        ProblemCode::DuplicateGating,
        ProblemCode::GatesOnOneFile,
        ProblemCode::TooManyGates,
        ProblemCode::MustDropNeverDropped,
        ProblemCode::CastlingByDropWithoutCastling,
        ProblemCode::DuplicateProperty,
        ProblemCode::EmptyRange,
        ProblemCode::RepeatedMove,
        ProblemCode::OverlappingMoves,
        ProblemCode::UnusedCounter,
        ProblemCode::UnusedPiece,
        ProblemCode::UnusedTerrain,
        ProblemCode::UnusedZone,
        ProblemCode::DropCondition,
        ProblemCode::DuplicateDrops,
        ProblemCode::FaceNeverHeld,
        ProblemCode::FileLimit,
        ProblemCode::DuplicateFlip,
        ProblemCode::DuplicateGame,
        ProblemCode::DuplicateLetter,
        ProblemCode::DuplicateParam,
        ProblemCode::DuplicatePieRule,
        ProblemCode::DuplicatePiece,
        ProblemCode::DuplicatePlayers,
        ProblemCode::DuplicateSetup,
        ProblemCode::DuplicateSquare,
        ProblemCode::DuplicateTerrain,
        ProblemCode::DuplicateZone,
        ProblemCode::EndCount,
        ProblemCode::FlipOwner,
        ProblemCode::FlipPair,
        ProblemCode::HeightChange,
        ProblemCode::IllegalResult,
        ProblemCode::ImpossibleSetup,
        ProblemCode::NeverDropped,
        ProblemCode::NothingCaptures,
        ProblemCode::ExplosionToHand,
        ProblemCode::UnattackedWithReply,
        ProblemCode::CapturingWithoutCapture,
        ProblemCode::ConvertsWithoutConvert,
        ProblemCode::InPlaceWithoutBecomes,
        ProblemCode::ConvertOneSided,
        ProblemCode::EventEffect,
        ProblemCode::UnknownTerrain,
        ProblemCode::PlaceAlong,
        ProblemCode::PlaceTwice,
        ProblemCode::MovedTerrainCount,
        ProblemCode::CheckCondition,
        ProblemCode::NeverExits,
        ProblemCode::NoBoard,
        ProblemCode::NoFlipRule,
        ProblemCode::NoSetup,
        ProblemCode::NumberRange,
        ProblemCode::OffBoard,
        ProblemCode::OverWithoutHop,
        ProblemCode::OwnerLetterCase,
        ProblemCode::ParamPerPlayer,
        ProblemCode::ParamRange,
        ProblemCode::PassCondition,
        ProblemCode::PieceLetter,
        ProblemCode::PlayersLetter,
        ProblemCode::Setup,
        ProblemCode::SquareNames,
        ProblemCode::Syntax,
        ProblemCode::TerrainLetter,
        ProblemCode::TooManyBoards,
        ProblemCode::TooManyCastlings,
        ProblemCode::TooManyCounters,
        ProblemCode::TooManyFlights,
        ProblemCode::TooManyPieces,
        ProblemCode::TooManySquares,
        ProblemCode::TooManyZones,
        ProblemCode::UnclosedBrace,
        ProblemCode::UnknownBoard,
        ProblemCode::UnknownCounter,
        ProblemCode::UnknownParam,
        ProblemCode::UnknownPiece,
        ProblemCode::UnknownPlayer,
        ProblemCode::UnknownPromotion,
        ProblemCode::UnknownZone,
        ProblemCode::ValueRange,
        ProblemCode::ZoneNamedLikeSquare,
    ];

    /// The code as shown, such as `varsand::unknown-piece`.
    pub fn as_str(self) -> String {
        self.to_string()
    }
}

impl PartialEq<&str> for ProblemCode {
    /// Compares the shown name with a text, without building the name.
    fn eq(&self, other: &&str) -> bool {
        /// Consumes the expected text as the name is written.
        struct Rest<'a>(&'a str);
        impl fmt::Write for Rest<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.0 = self.0.strip_prefix(s).ok_or(fmt::Error)?;
                Ok(())
            }
        }
        let mut rest = Rest(other);
        fmt::write(&mut rest, format_args!("{self}")).is_ok() && rest.0.is_empty()
    }
}

/// How serious a problem is: an error stops the file from loading; a warning is
/// shown but does not (unless `check --deny-warnings`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Severity {
    #[default]
    Error,
    Warning,
}

/// One problem in a rule file: what is wrong, where, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The kind of problem, shown as `varsand::unknown-piece` and the like.
    pub code: ProblemCode,
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    /// The short text under the underline.
    pub label: String,
    pub help: Option<String>,
    /// Further places that explain the problem, each with its label.
    pub related: Vec<(Span, String)>,
}

impl Problem {
    pub fn new(code: ProblemCode, span: Span, message: impl Into<String>) -> Self {
        Self {
            code,
            severity: Severity::Error,
            message: message.into(),
            span,
            label: "here".into(),
            help: None,
            related: Vec::new(),
        }
    }
    /// The same problem as a warning.
    pub fn warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    /// Adds a further place with its label.
    pub fn also(mut self, span: Span, label: impl Into<String>) -> Self {
        self.related.push((span, label.into()));
        self
    }
    /// A problem at `offset..offset + len` inside a quoted string (a Betza string, a
    /// position string) whose text has the span `string`.
    pub fn inside(
        code: ProblemCode,
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
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.problem.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.problem.span;
        let primary = LabeledSpan::new_primary_with_span(
            Some(self.problem.label.clone()),
            (span.start, span.len()),
        );
        let related = self
            .problem
            .related
            .iter()
            .map(|(s, l)| LabeledSpan::new_with_span(Some(l.clone()), (s.start, s.len())));
        Some(Box::new(std::iter::once(primary).chain(related)))
    }
}

/// At most this many problems are shown; a line says how many more there are.
pub const MAX_SHOWN: usize = 50;
/// A snippet (the lines around a problem, as miette shows them) longer than this many
/// bytes is not shown: the problem is reported with its line and column instead. The
/// renderer cannot draw columns past 65,535, and a megabyte-long line printed once per
/// problem buries the messages.
pub const MAX_SNIPPET: usize = 8 * 1024;
/// Messages, labels and help lines are cut at this many characters.
const MAX_TEXT: usize = 1000;
/// A help line lists at most this many candidate names.
pub const MAX_CANDIDATES: usize = 10;

/// Renders problems for `varsand check`, `play`, `reload` and `load`: in colour for a
/// terminal or as plain text (which the tests snapshot). The only renderer: whatever
/// the input, it returns text and never panics. It shows the first [`MAX_SHOWN`]
/// problems, each with its snippet unless that is longer than [`MAX_SNIPPET`].
pub fn render(problems: &[Problem], name: &str, source: &str, color: bool) -> String {
    let theme = if color {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(100);
    // A lone carriage return ends a line, as the grammar reads it; miette counts lines
    // by `\n` only. Both are one byte, so every span keeps its place.
    let text = normalise_line_ends(source);
    let shared: Arc<str> = Arc::from(text.as_str());
    let mut out = String::new();
    for p in problems.iter().take(MAX_SHOWN) {
        let mut p = p.clone();
        p.message = cut(&p.message, MAX_TEXT);
        p.label = cut(&p.label, MAX_TEXT / 4);
        p.help = p.help.map(|h| cut(&h, MAX_TEXT));
        p.span = fit_span(p.span, &text);
        p.related = std::mem::take(&mut p.related)
            .into_iter()
            .map(|(s, l)| (fit_span(s, &text), cut(&l, MAX_TEXT / 4)))
            .filter(|(s, _)| snippet_len(*s, &text) <= MAX_SNIPPET)
            .collect();
        let shown = if snippet_len(p.span, &text) <= MAX_SNIPPET {
            true
        } else {
            // Underline the first character alone: a span over many lines.
            p.span = fit_span(Span::new(p.span.start, p.span.start + 1), &text);
            snippet_len(p.span, &text) <= MAX_SNIPPET
        };
        let written = if shown {
            let diag = p.clone().with_source(name, shared.clone());
            handler.render_report(&mut out, &diag).is_ok()
        } else {
            false
        };
        if !written {
            let (line, col) = line_col(&text, p.span.start);
            let diag = Bare(p);
            let _ = handler.render_report(&mut out, &diag);
            out += &format!("  at {name}:{line}:{col} (the line is too long to show)\n\n");
        }
    }
    if problems.len() > MAX_SHOWN {
        let more = problems.len() - MAX_SHOWN;
        out += &format!(
            "… and {more} more problem{}\n",
            if more == 1 { "" } else { "s" }
        );
    }
    out
}

/// [`render`] without colours.
pub fn render_plain(problems: &[Problem], name: &str, source: &str) -> String {
    render(problems, name, source, false)
}

/// The names a help line offers, such as `a, b, c`: at most [`MAX_CANDIDATES`], then
/// `and N more`.
pub fn list_candidates<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> String {
    let mut shown: Vec<String> = Vec::new();
    let mut more = 0usize;
    for n in names {
        if shown.len() < MAX_CANDIDATES {
            shown.push(cut(n.as_ref(), 60));
        } else {
            more += 1;
        }
    }
    let mut s = shown.join(", ");
    if more > 0 {
        s += &format!(" and {more} more");
    }
    s
}

/// `text` cut to at most `max` characters, with `…` when cut.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// Lone `\r` (not followed by `\n`) replaced by `\n`.
fn normalise_line_ends(source: &str) -> String {
    let b = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    for (i, c) in source.char_indices() {
        if c == '\r' && b.get(i + 1) != Some(&b'\n') {
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    out
}

/// The span moved inside the text and onto character boundaries.
fn fit_span(span: Span, text: &str) -> Span {
    let mut start = span.start.min(text.len());
    let mut end = span.end.clamp(start, text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    while !text.is_char_boundary(end) {
        end += 1;
    }
    Span::new(start, end)
}

/// How many bytes the snippet of `span` holds: its lines and one on either side.
fn snippet_len(span: Span, text: &str) -> usize {
    let b = text.as_bytes();
    let line_start = |at: usize| {
        b[..at]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1)
    };
    let line_end = |at: usize| {
        b[at.min(b.len())..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |i| at + i)
    };
    let first = line_start(span.start);
    let from = if first == 0 { 0 } else { line_start(first - 1) };
    let last = line_end(span.end);
    let to = if last >= b.len() {
        b.len()
    } else {
        line_end(last + 1)
    };
    to - from
}

/// The 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.bytes().filter(|&c| c == b'\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// A problem shown without its snippet.
#[derive(Debug)]
struct Bare(Problem);

impl fmt::Display for Bare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for Bare {}

impl Diagnostic for Bare {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.0.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.0.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.0
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
}

/// Returns the known name closest to `name`, if one is close enough to be a likely typo.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    // A typo is a short slip in a short name: long names are not compared (the
    // distance table grows with the product of the lengths).
    const LONGEST: usize = 64;
    if name.len() > LONGEST {
        return None;
    }
    let lower = name.to_lowercase();
    candidates
        .into_iter()
        .filter(|c| c.len() <= LONGEST)
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

/// The 0-based line and column (in UTF-16 code units, as editors count) of a byte
/// offset, with lone `\r` ending a line as the grammar reads it.
pub fn line_col_utf16(source: &str, at: usize) -> (usize, usize) {
    let at = fit_span(Span::new(at, at), source).start;
    let text = normalise_line_ends(&source[..at]);
    let line = text.bytes().filter(|&c| c == b'\n').count();
    let start = text.rfind('\n').map_or(0, |i| i + 1);
    (line, text[start..].encode_utf16().count())
}

/// Problems as JSON for tools (`check --format json`): one object per problem with
/// its code, severity, message, label, help, byte span, 1-based line and column, and
/// related places.
pub fn to_json(problems: &[Problem], name: &str, source: &str) -> serde_json::Value {
    let place = |span: Span| {
        let (line, col) = line_col_utf16(source, span.start);
        let (end_line, end_col) = line_col_utf16(source, span.end);
        serde_json::json!({
            "start": span.start, "end": span.end,
            "line": line + 1, "column": col + 1,
            "end_line": end_line + 1, "end_column": end_col + 1,
        })
    };
    let list: Vec<serde_json::Value> = problems
        .iter()
        .map(|p| {
            serde_json::json!({
                "file": name,
                "code": p.code.to_string(),
                "severity": if p.is_error() { "error" } else { "warning" },
                "message": p.message,
                "label": p.label,
                "help": p.help,
                "span": place(p.span),
                "related": p.related.iter().map(|(s, l)| serde_json::json!({
                    "label": l, "span": place(*s),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::Value::Array(list)
}
