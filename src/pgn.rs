//! Games as PGN (Portable Game Notation), the text game tools exchange games in: the
//! REPL's `save` and `load`, `analyze --save-games` and `match --pgn` write and read it.
//!
//! ```text
//! [Event "varsand match"]
//! [Site "?"]
//! [Date "2025.06.01"]
//! [Round "1"]
//! [White "varsand"]
//! [Black "another engine"]
//! [Result "0-1"]
//! [Variant "My Game"]
//! [VariantFile "games/my_game.var"]
//! [RulesHash "fnv1a64:9c2f0a14b3e8d761"]
//! [PlyCount "4"]
//! [Termination "normal"]
//!
//! 1. f2f3 e7e5 2. g2g4 d8h4 {white is checkmated} 0-1
//! ```
//!
//! What varsand writes:
//!
//! - the seven-tag roster first (Event, Site, Date, Round, White, Black, Result), with
//!   `?` for what is unknown, as the standard asks;
//! - `Variant`: the game's name as its rule file writes it (`game "My Game"`); other
//!   tools read the names of the variants they know and refuse the others, which they
//!   could not replay anyway;
//! - `VariantFile`: the rule file, `RulesHash`: the hash of its text ([`text_hash`]),
//!   `Parameters`: the values given to its parameters (`height=9 width=6`), so that the
//!   game replays under the same rules;
//! - `SetUp "1"` and `FEN` when the game does not start from the file's setup;
//! - `Termination` (PGN's words: `normal`, `adjudication`, `rules infraction`,
//!   `time forfeit`, `abandoned`, `unterminated`) and, after the last move, a comment
//!   saying how the game ended in varsand's words (`{black is checkmated}`);
//! - the moves in varsand's coordinate notation (`e2e4`, `e7e8q`, `P@e5`, `b2h8+`),
//!   numbered, in lines of at most 79 characters.
//!
//! `1-0` means the first player of the file's `players` line (White's tag names who
//! played it) won. Under a pie rule the colours change hands at `swap`: the White and
//! Black tags name who held each colour at the end, so that the tags and the result
//! agree for rating tools.
//!
//! The reader ([`read_games`]) takes any number of games, keeps the main line's
//! comments (the last one, after the last move, as the ending), and skips what
//! varsand does not use: `;` comments to the end of the line, variations `(...)`,
//! numeric annotations (`$1`), annotation marks (`?`, `!!`, `!?`, `?!`; a single `!`
//! stays, as varsand's notation writes a capture without moving that way), move
//! numbers (`12.`, `12...`, also glued to a move), and lines starting with `%`. A
//! game's moves must end with its result (`1-0`, `0-1`, `1/2-1/2` or `*`): a file cut
//! short lacks it, and is reported as truncated instead of read as a shorter game.

use std::path::{Component, Path, PathBuf};

use crate::check::Overrides;
use crate::engine::{GameEnd, Position};
use crate::ids::Side;
use crate::rules::Rules;

/// The seven tags every PGN game has, in the standard's order.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The longest line the writer makes (PGN's export format asks for fewer than 80).
const LINE_WIDTH: usize = 79;

/// The result of a game as PGN writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`: the first player of the `players` line won.
    FirstWins,
    /// `0-1`.
    SecondWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: the game goes on (or its result is unknown).
    Unfinished,
}

impl GameResult {
    /// The result of a game that ended so (or goes on, for `None`).
    pub fn of(end: Option<&GameEnd>) -> Self {
        match end.map(|e| e.winner) {
            None => GameResult::Unfinished,
            Some(None) => GameResult::Draw,
            Some(Some(Side::First)) => GameResult::FirstWins,
            Some(Some(_)) => GameResult::SecondWins,
        }
    }

    /// The result of a game won by `side` (0 or 1), or drawn (`None`).
    pub fn won_by(side: Option<usize>) -> Self {
        match side {
            None => GameResult::Draw,
            Some(0) => GameResult::FirstWins,
            Some(_) => GameResult::SecondWins,
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            GameResult::FirstWins => "1-0",
            GameResult::SecondWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// Reads a result token.
    pub fn parse(word: &str) -> Option<Self> {
        [
            GameResult::FirstWins,
            GameResult::SecondWins,
            GameResult::Draw,
            GameResult::Unfinished,
        ]
        .into_iter()
        .find(|r| r.text() == word)
    }

    /// The winning side (0 or 1), if a side won.
    pub fn winner(self) -> Option<usize> {
        match self {
            GameResult::FirstWins => Some(0),
            GameResult::SecondWins => Some(1),
            _ => None,
        }
    }
}

/// One game: its tags, its moves and its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnGame {
    /// The tags in order (a name may come more than once in a file read, as older
    /// saves wrote one `Set` tag per parameter).
    tags: Vec<(String, String)>,
    /// The moves as written (`e2e4`, `P@e5`).
    pub moves: Vec<String>,
    pub result: GameResult,
    /// A comment after the last move: how the game ended, in words.
    pub ending: Option<String>,
    /// Comments after some moves, by the number of moves before them.
    pub notes: Vec<(usize, String)>,
    /// The number of the first move (the start position's move number), and whether
    /// the second player makes it (it is then written `N...`).
    pub first_number: u32,
    pub second_moves_first: bool,
}

impl Default for PgnGame {
    fn default() -> Self {
        Self::new()
    }
}

impl PgnGame {
    /// A game with the seven-tag roster, all unknown (`?`), and no moves.
    pub fn new() -> Self {
        let mut tags: Vec<(String, String)> = ROSTER
            .iter()
            .map(|t| (t.to_string(), "?".to_string()))
            .collect();
        tags[2].1 = "????.??.??".into();
        tags[6].1 = "*".into();
        PgnGame {
            tags,
            moves: Vec::new(),
            result: GameResult::Unfinished,
            ending: None,
            notes: Vec::new(),
            first_number: 1,
            second_moves_first: false,
        }
    }

    /// A game without tags (as the reader starts one).
    fn blank() -> Self {
        PgnGame {
            tags: Vec::new(),
            ..PgnGame::new()
        }
    }

    /// Sets a tag, replacing every tag of that name.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter().position(|(n, _)| n == name) {
            Some(i) => {
                self.tags[i].1 = value;
                let mut seen = 0;
                self.tags.retain(|(n, _)| {
                    seen += usize::from(n == name);
                    n != name || seen == 1
                });
            }
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The first tag of this name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every tag of this name, in order.
    pub fn tags_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.tags
            .iter()
            .filter(move |(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// Numbers the moves from a start position, and records it in the `SetUp` and
    /// `FEN` tags when it is not the file's setup (`fen`: its position string).
    pub fn set_start(&mut self, start: &Position, fen: Option<&str>) {
        self.first_number = start.fullmove();
        self.second_moves_first = !start.side_to_move().is_first();
        if let Some(f) = fen {
            self.set_tag("SetUp", "1");
            self.set_tag("FEN", f);
        }
    }

    /// Sets the result, the `Termination` tag and the closing comment from how the
    /// game ended (`None`: it goes on).
    pub fn set_end(&mut self, end: Option<&GameEnd>, rules: &Rules) {
        self.result = GameResult::of(end);
        match end {
            Some(e) => {
                self.set_tag("Termination", "normal");
                self.ending = Some(e.describe(rules));
            }
            None => {
                self.set_tag("Termination", "unterminated");
                self.ending = None;
            }
        }
    }

    /// The game as PGN text (games follow one another with a blank line between).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let result = self.result.text();
        for name in ROSTER {
            let value = if name == "Result" {
                result
            } else {
                self.tag(name).unwrap_or("?")
            };
            s += &tag_line(name, value);
        }
        for (name, value) in &self.tags {
            if !ROSTER.contains(&name.as_str()) {
                s += &tag_line(name, value);
            }
        }
        s.push('\n');
        s += &wrap(&self.movetext_tokens(), LINE_WIDTH);
        s.push('\n');
        s
    }

    /// The move text as tokens: numbers, moves, comments (one token per word, so
    /// that long comments wrap) and the result.
    fn movetext_tokens(&self) -> Vec<String> {
        let mut tokens = Vec::new();
        let first = usize::from(self.second_moves_first);
        let comment = |tokens: &mut Vec<String>, text: &str| {
            let clean = text.replace(['{', '}'], "");
            let words: Vec<&str> = clean.split_whitespace().collect();
            if let Some((last, rest)) = words.split_last() {
                let mut all: Vec<String> =
                    rest.iter().map(std::string::ToString::to_string).collect();
                all.push(format!("{last}}}"));
                all[0] = format!("{{{}", all[0]);
                tokens.extend(all);
            }
        };
        for (i, m) in self.moves.iter().enumerate() {
            // A move number stays on the line of its move.
            let number = u64::from(self.first_number) + ((first + i) / 2) as u64;
            if (first + i).is_multiple_of(2) {
                tokens.push(format!("{number}. {m}"));
            } else if i == 0 {
                tokens.push(format!("{number}... {m}"));
            } else {
                tokens.push(m.clone());
            }
            for (_, note) in self.notes.iter().filter(|(at, _)| *at == i + 1) {
                comment(&mut tokens, note);
            }
        }
        if let Some(e) = &self.ending {
            comment(&mut tokens, e);
        }
        tokens.push(self.result.text().to_string());
        tokens
    }
}

/// A tag line, its value escaped as PGN asks (`\"`, `\\`; line breaks become spaces).
fn tag_line(name: &str, value: &str) -> String {
    let mut v = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                v.push('\\');
                v.push(c);
            }
            '\n' | '\r' | '\t' => v.push(' '),
            c => v.push(c),
        }
    }
    format!("[{name} \"{v}\"]\n")
}

/// Joins tokens with spaces in lines of at most `width` characters (a longer token
/// stands alone on its line).
fn wrap(tokens: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for t in tokens {
        let len = t.chars().count();
        if line_len > 0 && line_len + 1 + len > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out += t;
        line_len += len;
    }
    out
}

/// The hash recorded for a rule text: 64-bit FNV-1a, stable across versions and
/// machines (the standard library's hasher promises neither).
pub fn text_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x}")
}

/// The rule file a game is played under, as the tags record it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSource {
    /// The rule file, as recorded (see [`recorded_path`]).
    pub file: PathBuf,
    /// The hash of its text ([`text_hash`]), when known.
    pub hash: Option<String>,
    pub overrides: Overrides,
}

impl RuleSource {
    /// Writes the variant's tags: `Variant` (the game's name), `VariantFile`,
    /// `RulesHash` and `Parameters`.
    pub fn tag(&self, game: &mut PgnGame, rules: &Rules) {
        game.set_tag("Variant", rules.name.as_str());
        game.set_tag("VariantFile", self.file.display().to_string());
        if let Some(h) = &self.hash {
            game.set_tag("RulesHash", h.as_str());
        }
        if !self.overrides.is_empty() {
            let params: Vec<String> = self
                .overrides
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            game.set_tag("Parameters", params.join(" "));
        }
    }

    /// Reads the rule file, its hash and parameters from a game's tags: `VariantFile`,
    /// or, in saves from before it, `Variant` holding the path; `Parameters`, or the
    /// older one `Set` tag per parameter. `None` when no tag names a rule file.
    pub fn from_tags(game: &PgnGame) -> Result<Option<Self>, String> {
        let file = match (game.tag("VariantFile"), game.tag("Variant")) {
            (Some(f), _) => f,
            // An older save: the Variant tag held the path (a game name has no `.var`).
            (None, Some(v)) if v.ends_with(".var") || v.contains(['/', '\\']) => v,
            _ => return Ok(None),
        };
        let mut overrides = Overrides::new();
        let pairs = game
            .tags_named("Parameters")
            .flat_map(str::split_whitespace)
            .chain(game.tags_named("Set"));
        for pair in pairs {
            let (k, v) = pair
                .split_once('=')
                .ok_or_else(|| format!("bad parameter `{pair}` in the tags: write NAME=VALUE"))?;
            let v = v.trim().parse::<i64>().map_err(|_| {
                format!("bad parameter `{pair}` in the tags: `{v}` is not a whole number")
            })?;
            overrides.insert(k.trim().to_string(), v);
        }
        Ok(Some(RuleSource {
            file: PathBuf::from(file),
            hash: game.tag("RulesHash").map(str::to_string),
            overrides,
        }))
    }
}

/// The rule file `rules` as a saved game records it: relative to the save's folder
/// when they share a folder other than the root (the pair can move together), else
/// absolute.
pub fn recorded_path(rules: &Path, save: &Path) -> PathBuf {
    let Ok(rules) = std::fs::canonicalize(rules) else {
        return rules.to_path_buf();
    };
    let dir = match save.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Ok(dir) = std::fs::canonicalize(dir) else {
        return rules;
    };
    let (a, b): (Vec<Component>, Vec<Component>) =
        (rules.components().collect(), dir.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    // Only the root (and a drive prefix) in common: the absolute path says more.
    let roots = a
        .iter()
        .take_while(|c| matches!(c, Component::RootDir | Component::Prefix(_)))
        .count();
    if common <= roots {
        return rules;
    }
    let mut rel = PathBuf::new();
    for _ in common..b.len() {
        rel.push("..");
    }
    rel.extend(&a[common..]);
    rel
}

/// Today's date as PGN writes it (`2025.06.01`, in UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_date(secs / 86_400);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The calendar date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`, for days after the epoch).
fn civil_date(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

/// Writes a file so that it is either the old file or the whole new one: the text goes
/// to a temporary file in the same folder, which is flushed to the disk and then
/// renamed over the target. Only a regular file (or none) is replaced.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Ok(meta) = std::fs::metadata(path)
        && !meta.is_file()
    {
        return Err("not a regular file".into());
    }
    let name = path.file_name().ok_or("not a file name")?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = dir.join(tmp_name);
    let written = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        std::io::Write::write_all(&mut f, bytes)?;
        std::io::Write::flush(&mut f)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e.to_string());
    }
    // The rename itself lasts once the folder is on the disk (best effort).
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// What is wrong with a PGN text, and on which line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based.
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for PgnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Reads every game of a PGN text (none for an empty text).
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    Reader::new(text).games()
}

/// The PGN reader: a cursor over the text and the game being read.
struct Reader<'a> {
    text: &'a str,
    at: usize,
    line: usize,
}

/// What a game needs while it is read: whether anything of it has been seen.
struct Open {
    game: PgnGame,
    started_at: usize,
    seen: bool,
}

impl Open {
    /// A comment `{...}` of the main line, its blanks made single spaces.
    fn note(&mut self, text: &str) {
        let words: Vec<&str> = text.split_whitespace().collect();
        let at = self.game.moves.len();
        self.game.notes.push((at, words.join(" ")));
    }

    /// The game, ended by its result; a new one opens.
    fn finish(&mut self, result: GameResult) -> PgnGame {
        let mut game = std::mem::replace(&mut self.game, PgnGame::blank());
        self.seen = false;
        game.result = result;
        // A comment after the last move says how the game ended.
        let moves = game.moves.len();
        if game.notes.last().is_some_and(|(at, _)| *at == moves) {
            game.ending = game.notes.pop().map(|(_, t)| t);
        }
        game
    }
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        // A byte-order mark is not part of the text.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Reader {
            text,
            at: 0,
            line: 1,
        }
    }

    fn err(&self, message: impl Into<String>) -> PgnError {
        PgnError {
            line: self.line,
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// At the start of a line (for `%` escapes)?
    fn at_line_start(&self) -> bool {
        self.at == 0 || self.text.as_bytes()[self.at - 1] == b'\n'
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    fn games(mut self) -> Result<Vec<PgnGame>, PgnError> {
        let mut games = Vec::new();
        let mut open = Open {
            game: PgnGame::blank(),
            started_at: 1,
            seen: false,
        };
        while let Some(c) = self.peek() {
            if !open.seen {
                open.started_at = self.line;
            }
            match c {
                c if c.is_whitespace() => {
                    self.bump();
                }
                '%' if self.at_line_start() => self.skip_line(),
                ';' => self.skip_line(),
                '{' => {
                    let text = self.comment()?;
                    open.note(&text);
                }
                '(' => self.variation()?,
                '[' => {
                    if open.seen && !open.game.moves.is_empty() {
                        return Err(self.truncated(games.len() + 1, open.started_at));
                    }
                    let (name, value) = self.tag()?;
                    open.game.tags.push((name, value));
                    open.seen = true;
                }
                _ => {
                    let word = self.word();
                    open.seen = true;
                    if let Some(r) = GameResult::parse(&word) {
                        games.push(open.finish(r));
                    } else {
                        Self::movetext_word(&word, &mut open.game);
                    }
                }
            }
        }
        if open.seen {
            return Err(self.truncated(games.len() + 1, open.started_at));
        }
        Ok(games)
    }

    fn truncated(&self, number: usize, from_line: usize) -> PgnError {
        PgnError {
            line: self.line,
            message: format!(
                "game {number} (from line {from_line}): the record is truncated: its moves do not end with a result (`1-0`, `0-1`, `1/2-1/2` or `*`), so the file was cut short"
            ),
        }
    }

    /// A tag: `[Name "value"]`.
    fn tag(&mut self) -> Result<(String, String), PgnError> {
        let start_line = self.line;
        let tag = self.tag_inside();
        if tag.is_err() && self.peek().is_none() {
            return Err(PgnError {
                line: start_line,
                message: "the file ends inside a tag: it was cut short".into(),
            });
        }
        tag
    }

    fn tag_inside(&mut self) -> Result<(String, String), PgnError> {
        let start_line = self.line;
        self.bump();
        let mut name = String::new();
        while let Some(c) = self.peek().filter(|c| c.is_alphanumeric() || *c == '_') {
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            return Err(self.err("a tag without a name: write [Name \"value\"]"));
        }
        self.skip_blanks();
        if self.bump() != Some('"') {
            return Err(self.err(format!(
                "the tag `{name}` has no quoted value: write [{name} \"value\"]"
            )));
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('\\') => match self.bump() {
                    Some(c) => value.push(c),
                    None => break,
                },
                Some('"') => {
                    self.skip_blanks();
                    if self.bump() != Some(']') {
                        return Err(self.err(format!("the tag `{name}` does not end with `]`")));
                    }
                    return Ok((name, value));
                }
                Some('\n') | None => break,
                Some(c) => value.push(c),
            }
        }
        Err(PgnError {
            line: start_line,
            message: format!("the value of the tag `{name}` is not closed by `\"` on its line"),
        })
    }

    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
    }

    /// A comment `{...}` (it may span lines; it does not nest).
    fn comment(&mut self) -> Result<String, PgnError> {
        let start = self.line;
        self.bump();
        let mut text = String::new();
        loop {
            match self.bump() {
                Some('}') => return Ok(text),
                Some(c) => text.push(c),
                None => {
                    return Err(PgnError {
                        line: start,
                        message: "a comment `{` is never closed: the file was cut short".into(),
                    });
                }
            }
        }
    }

    /// A variation `(...)`, skipped with what it holds (variations nest).
    fn variation(&mut self) -> Result<(), PgnError> {
        let start = self.line;
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            match c {
                '(' => {
                    depth += 1;
                    self.bump();
                }
                ')' => {
                    depth -= 1;
                    self.bump();
                    if depth == 0 {
                        return Ok(());
                    }
                }
                '{' => {
                    self.comment()?;
                }
                ';' => self.skip_line(),
                _ => {
                    self.bump();
                }
            }
        }
        Err(PgnError {
            line: start,
            message: "a variation `(` is never closed: the file was cut short".into(),
        })
    }

    /// A word of the move text: up to whitespace or a character that starts
    /// something else.
    fn word(&mut self) -> String {
        let mut w = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';') {
                break;
            }
            w.push(c);
            self.bump();
        }
        if w.is_empty() {
            // A stray `)`, `]` or `}`: skipped (nothing of the game is lost).
            self.bump();
        }
        w
    }

    /// A word of the move text that is not a result: a move (with any move number
    /// before it and annotation marks after it removed), a number, or a NAG.
    fn movetext_word(word: &str, game: &mut PgnGame) {
        if word.is_empty() || word.starts_with('$') {
            return;
        }
        let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let after = &word[digits..];
        let numbered = digits > 0 && after.starts_with('.');
        if numbered && game.moves.is_empty() {
            // The first number gives the numbering back (`7...`: the second player
            // makes move 7 first).
            if let Ok(n) = word[..digits].parse::<u32>() {
                game.first_number = n;
                game.second_moves_first = after.starts_with("...");
            }
        }
        let mv = if numbered {
            after.trim_start_matches('.')
        } else {
            word
        };
        let mv = strip_annotation(mv);
        if !mv.is_empty() {
            game.moves.push(mv.to_string());
        }
    }
}

/// A move without the annotation marks PGN allows after it (`?`, `??`, `!!`, `!?`,
/// `?!`). A single `!` stays: varsand writes a capture without moving so.
fn strip_annotation(mv: &str) -> &str {
    for mark in ["!!", "!?", "?!", "??", "?"] {
        if let Some(m) = mv.strip_suffix(mark) {
            return m;
        }
    }
    mv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(19_723), (2024, 1, 1));
        assert_eq!(civil_date(20_000), (2024, 10, 4));
    }

    #[test]
    fn wrapping_keeps_lines_short() {
        let tokens: Vec<String> = (0..100).map(|i| format!("m{i:04}")).collect();
        let text = wrap(&tokens, LINE_WIDTH);
        assert!(text.lines().all(|l| l.len() <= LINE_WIDTH));
        assert_eq!(text.split_whitespace().count(), 100);
    }

    #[test]
    fn annotation_marks_go_but_a_single_bang_stays() {
        assert_eq!(strip_annotation("e2e4?!"), "e2e4");
        assert_eq!(strip_annotation("e2e4??"), "e2e4");
        assert_eq!(strip_annotation("c3d4!"), "c3d4!");
        assert_eq!(strip_annotation("c3d4!!"), "c3d4");
    }
}
