//! Position strings: FEN for chess and a FEN-like line for every variant.
//!
//! `<boards>[<hand>] <side> <castling> <en passant> <halfmove> <fullmove> [extras]`
//!
//! - Each board's ranks from the top, separated by `/`; the main board first, side
//!   boards after it, each behind a `|`. A digit run counts empty squares (`12` on a
//!   wide board); a piece letter is upper case for the first player; a terrain letter
//!   stands for itself; brackets after a piece give its height and the terrain under it
//!   (`Q(20)`, `S(~)`).
//! - A promoted form is written `+P`, a piece that remembers its promotion `Q~`.
//! - `[...]` after the boards lists the pieces in hand (`[PPNppn]`, or with counts
//!   `[3P2p]`; `[-]` or `[]` for none).
//! - As Fairy-Stockfish writes some games, `<side> <halfmove> <fullmove>` may stand for
//!   the last five fields in a game without castling or en passant.
//! - The last four fields may be left out (4- and 6-field FEN both work); after them
//!   come `swapped` (the pie rule was used) and counters as `NAME=FIRST/SECOND`.

use std::sync::Arc;

use super::Position;
use super::position::{MAX_CLOCK, Royals};
use crate::ids::Side;
use crate::rules::{Cell, Code, EMPTY, Mark, NO_CELL, Rules, Symbol, code, kind_of, side_of};

/// A mistake in a position string, at a byte offset inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenError {
    pub offset: usize,
    pub len: usize,
    pub message: String,
    pub help: String,
}

fn fen_err(
    offset: usize,
    len: usize,
    message: impl Into<String>,
    help: impl Into<String>,
) -> FenError {
    FenError {
        offset,
        len,
        message: message.into(),
        help: help.into(),
    }
}

/// Counter values a position string may give: `-MAX_COUNTER..=MAX_COUNTER`.
const MAX_COUNTER: u32 = crate::model::MAX_COUNTER as u32;
/// The most pieces of one kind a hand holds.
const MAX_IN_HAND: usize = crate::model::MAX_IN_HAND as usize;

/// The value of a run of ASCII digits, `None` if it is above `max` (never wrapped).
fn digits_value(digits: &str, max: u64) -> Option<u64> {
    digits.bytes().try_fold(0u64, |v, d| {
        v.checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(d - b'0')))
            .filter(|&v| v <= max)
    })
}

/// A whole number written with an optional sign: `Some(Ok(v))` if it lies in
/// `-max..=max`, `Some(Err(()))` if it is a number outside that range, `None` if it is
/// not a number.
fn signed_value(text: &str, max: u32) -> Option<Result<i64, ()>> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(match digits_value(digits, u64::from(max)) {
        Some(v) if negative => Ok(-(v as i64)),
        Some(v) => Ok(v as i64),
        None => Err(()),
    })
}

/// The span to underline for a part of a position string that may be empty: the part
/// itself, or else the separator before it (an empty part at the end of the text has
/// no character of its own).
fn part_span(at: usize, len: usize, first: bool) -> (usize, usize) {
    if len > 0 || first || at == 0 {
        (at, len.max(1))
    } else {
        (at - 1, 1)
    }
}

impl std::fmt::Display for FenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (at character {}); {}",
            self.message,
            self.offset + 1,
            self.help
        )
    }
}

impl std::error::Error for FenError {}

/// What the board field holds.
struct Placement {
    board: Vec<Code>,
    height: Vec<u8>,
    terrain: Vec<u8>,
}

fn letters_help(rules: &Rules) -> String {
    let pieces: Vec<String> = rules
        .pieces
        .iter()
        .map(|p| {
            Symbol {
                letter: p.letter,
                mark: p.mark,
            }
            .text(p.owner != Some(Side::Second))
        })
        .collect();
    let mut help = format!("pieces: {}", pieces.join(" "));
    if rules.pieces.iter().any(|p| p.owner.is_none()) {
        help += &format!(" (lower case for {})", rules.players[1].name);
    }
    if !rules.terrains.is_empty() {
        let terrain: Vec<String> = rules
            .terrains
            .iter()
            .map(|t| t.letter.to_string())
            .collect();
        help += &format!("; terrain: {}", terrain.join(" "));
    }
    help
}

/// How messages name a board: `of` follows a rank (` of NAME`, empty when the game has
/// one board), `the_board` stands alone.
struct BoardNames {
    of: String,
    the_board: String,
}

impl BoardNames {
    fn new(rules: &Rules, board: usize) -> BoardNames {
        let geo = &rules.geometry;
        let name = &geo.boards[board].name;
        // Name the board only when there are several.
        if geo.boards.len() == 1 {
            BoardNames {
                of: String::new(),
                the_board: "the board".to_string(),
            }
        } else {
            BoardNames {
                of: format!(" of {name}"),
                the_board: format!("board {name}"),
            }
        }
    }
}

/// One rank of a board field: its characters with their offsets in the rank, the rank
/// itself and its offset in the position string.
struct Row<'a> {
    chars: Vec<(usize, char)>,
    text: &'a str,
    at: usize,
}

/// Reads one board's ranks into the placement.
fn read_board(
    rules: &Rules,
    board: usize,
    text: &str,
    at: usize,
    p: &mut Placement,
) -> Result<(), FenError> {
    let b = &rules.geometry.boards[board];
    let names = BoardNames::new(rules, board);
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != b.ranks {
        let (offset, len) = part_span(at, text.len(), board == 0);
        return Err(fen_err(
            offset,
            len,
            format!(
                "{} ranks given, {} has {}",
                rows.len(),
                names.the_board,
                b.ranks
            ),
            "separate the ranks with `/`, the top rank first",
        ));
    }
    let mut at = at;
    for (i, text) in rows.iter().enumerate() {
        let rank = b.ranks - 1 - i;
        let row = Row {
            chars: text.char_indices().collect(),
            text,
            at,
        };
        let file = read_rank(rules, board, rank, &row, &names.of, p)?;
        if file != b.files {
            let (offset, len) = part_span(at, text.len(), board == 0 && i == 0);
            return Err(fen_err(
                offset,
                len,
                format!(
                    "rank {}{} has {} squares, {} has {} files",
                    rank + 1,
                    names.of,
                    file,
                    names.the_board,
                    b.files
                ),
                "count the squares of each rank",
            ));
        }
        at += text.len() + 1;
    }
    Ok(())
}

/// Reads one rank into the placement; returns the number of squares it gives (it
/// stops at an error as soon as the rank is wider than the board).
fn read_rank(
    rules: &Rules,
    board: usize,
    rank: usize,
    row: &Row,
    of: &str,
    p: &mut Placement,
) -> Result<usize, FenError> {
    let geo = &rules.geometry;
    let files = geo.boards[board].files;
    let too_wide = |offset: usize, len: usize| {
        fen_err(
            offset,
            len,
            format!("rank {}{of} is wider than {files} files", rank + 1),
            "count the squares of each rank",
        )
    };
    let chars = &row.chars;
    let mut file = 0usize;
    let mut k = 0;
    while k < chars.len() {
        let (off, ch) = chars[k];
        let here = row.at + off;
        if ch.is_ascii_digit() {
            let (num, len) = digit_run(&chars[k..]);
            if num == 0 {
                return Err(fen_err(
                    here,
                    len,
                    "an empty-square count of 0",
                    "count empty squares from 1",
                ));
            }
            file = file.saturating_add(num);
            if file > files {
                return Err(too_wide(here, len));
            }
            k += len;
            continue;
        }
        if file >= files {
            return Err(too_wide(here, ch.len_utf8()));
        }
        let cell = geo
            .cell_at(board, file as i32, rank as i32)
            .unwrap()
            .index();
        k = read_square(rules, row, k, cell, p)? + 1;
        file += 1;
    }
    Ok(file)
}

/// The value of the run of digits the characters start with (saturating), and its
/// length.
fn digit_run(chars: &[(usize, char)]) -> (usize, usize) {
    let len = chars.iter().take_while(|c| c.1.is_ascii_digit()).count();
    let num = chars[..len].iter().fold(0usize, |num, c| {
        num.saturating_mul(10)
            .saturating_add(c.1 as usize - '0' as usize)
    });
    (num, len)
}

/// Reads what stands on one square, from the row's character `k`: a terrain letter, or
/// a piece letter with its optional brackets. Returns the index of the last character
/// read.
fn read_square(
    rules: &Rules,
    row: &Row,
    k: usize,
    cell: usize,
    p: &mut Placement,
) -> Result<usize, FenError> {
    let (off, ch) = row.chars[k];
    if let Some(t) = rules.terrains.iter().position(|t| t.letter == ch) {
        p.terrain[cell] = t as u8 + 1;
        return Ok(k);
    }
    let next = row.chars.get(k + 1).map(|c| c.1);
    let (symbol, last) = match (ch, next) {
        ('+', Some(l)) => (
            Symbol {
                letter: l,
                mark: Mark::Plus,
            },
            k + 1,
        ),
        (l, Some('~'))
            if rules
                .piece_by_symbol(Symbol {
                    letter: l,
                    mark: Mark::Tilde,
                })
                .is_some() =>
        {
            (
                Symbol {
                    letter: l,
                    mark: Mark::Tilde,
                },
                k + 1,
            )
        }
        (l, _) => (
            Symbol {
                letter: l,
                mark: Mark::Plain,
            },
            k,
        ),
    };
    let Some((kind, side)) = rules.piece_by_symbol(symbol) else {
        let written: String = row.chars[k..=last].iter().map(|c| c.1).collect();
        return Err(fen_err(
            row.at + off,
            written.len(),
            format!("`{written}` is neither a piece nor a terrain of this game"),
            letters_help(rules),
        ));
    };
    p.board[cell] = code(kind, side);
    p.height[cell] = 1;
    if row.chars.get(last + 1).is_some_and(|c| c.1 == '(') {
        return read_brackets(rules, row, last + 1, side, cell, p);
    }
    Ok(last)
}

/// Reads the brackets after a piece, opened at the row's character `open`: the
/// stack's height (or a parameter) and the terrain under it. Returns the index of `)`.
fn read_brackets(
    rules: &Rules,
    row: &Row,
    open: usize,
    side: Side,
    cell: usize,
    p: &mut Placement,
) -> Result<usize, FenError> {
    let chars = &row.chars;
    let Some(close) = chars[open..]
        .iter()
        .position(|c| c.1 == ')')
        .map(|i| open + i)
    else {
        return Err(fen_err(
            row.at + chars[open].0,
            row.text.len() - chars[open].0,
            "`(` without `)`",
            "write a stack's height as Q(20)",
        ));
    };
    let inner: String = chars[open + 1..close].iter().map(|c| c.1).collect();
    let mut part_at = row.at + chars[open].0 + 1;
    let mut present = true;
    for part in inner.split(',') {
        let mut pc = part.chars();
        let single = pc.next().filter(|_| pc.next().is_none());
        if let Some(t) = single.and_then(|c| rules.terrains.iter().position(|t| t.letter == c)) {
            p.terrain[cell] = t as u8 + 1;
        } else if let Some(holds) = read_presence(rules, side, part, part_at)? {
            present &= holds;
        } else {
            p.height[cell] = read_height(rules, side, part, part_at)?;
        }
        part_at += part.len() + 1;
    }
    if !present {
        // A handicap: the parameter leaves this piece out.
        p.board[cell] = 0;
        p.height[cell] = 0;
    }
    Ok(close)
}

/// A piece that a parameter adds or removes, written `Q(extra>0)`: whether the
/// comparison holds (the piece's owner's value first, then the common one), or `None`
/// when the text is no comparison.
fn read_presence(
    rules: &Rules,
    side: Side,
    text: &str,
    at: usize,
) -> Result<Option<bool>, FenError> {
    const OPS: [&str; 6] = [">=", "<=", "==", "!=", ">", "<"];
    let Some((i, op)) = OPS.iter().find_map(|op| text.find(op).map(|i| (i, *op))) else {
        return Ok(None);
    };
    let (name, number) = (text[..i].trim(), text[i + op.len()..].trim());
    let key = format!("{}.{name}", rules.players[side].name);
    let Some(param) = rules.params.get(&key).or_else(|| rules.params.get(name)) else {
        let mut names: Vec<&str> = rules
            .params
            .keys()
            .map(String::as_str)
            .filter(|k| !k.contains('.'))
            .collect();
        names.sort_unstable();
        let declared = if names.is_empty() {
            "the file declares none".to_string()
        } else {
            format!("the file declares {}", names.join(", "))
        };
        return Err(fen_err(
            at,
            text.len(),
            format!("`{name}` is not a parameter of this file"),
            format!(
                "a piece a parameter adds or removes is written Q(NAME>0), NAME a `param` ({declared})"
            ),
        ));
    };
    let Some(Ok(n)) = signed_value(number, u32::MAX) else {
        return Err(fen_err(
            at,
            text.len(),
            format!("`{number}` is not a whole number"),
            "compare the parameter with a number: Q(extra>0)",
        ));
    };
    let v = param.value;
    Ok(Some(match op {
        ">=" => v >= n,
        "<=" => v <= n,
        "==" => v == n,
        "!=" => v != n,
        ">" => v > n,
        _ => v < n,
    }))
}

/// A stack height written in a position string: a number, or a parameter's name.
fn read_height(rules: &Rules, side: Side, text: &str, at: usize) -> Result<u8, FenError> {
    let out_of_range = |shown: &str| {
        fen_err(
            at,
            text.len().max(1),
            format!("height {shown} is not in 1..255"),
            "a stack is 1 to 255 high",
        )
    };
    let value = match signed_value(text, 255) {
        Some(Ok(v)) => v,
        // A number beyond 255 either way: out of range, shown as written.
        Some(Err(())) => return Err(out_of_range(text)),
        None => {
            let key = format!("{}.{text}", rules.players[side].name);
            match rules.params.get(&key).or_else(|| rules.params.get(text)) {
                Some(p) => p.value,
                None => {
                    return Err(fen_err(
                        at,
                        text.len().max(1),
                        format!("`{text}` is neither a height, a terrain nor a parameter"),
                        "write a height (Q(20)), a parameter the file declares (Q(height)) or the terrain the piece stands on (S(~))",
                    ));
                }
            }
        }
    };
    if !(1..=255).contains(&value) {
        return Err(out_of_range(&value.to_string()));
    }
    Ok(value as u8)
}

/// Reads the pieces in hand: letters, each optionally after a count (`[3P2p]`);
/// `-` alone is an empty hand.
fn read_hand(rules: &Rules, text: &str, at: usize, hand: &mut [u16]) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    let kinds = rules.pieces.len();
    let too_many = |offset: usize, len: usize| {
        fen_err(
            offset,
            len,
            format!("more than {MAX_IN_HAND} of one piece in hand"),
            format!("a hand holds at most {MAX_IN_HAND} of each piece"),
        )
    };
    // The count before the next letter: its offset in `text` and its digits.
    let mut count: Option<(usize, &str)> = None;
    let mut plus = false;
    for (i, ch) in text.char_indices() {
        if ch.is_ascii_digit() && !plus {
            let start = count.map_or(i, |(s, _)| s);
            count = Some((start, &text[start..=i]));
            continue;
        }
        if ch == '+' && !plus {
            plus = true;
            continue;
        }
        if ch == '~' {
            continue; // a promoted piece returns to the hand as it was
        }
        let mark = if std::mem::take(&mut plus) {
            Mark::Plus
        } else {
            Mark::Plain
        };
        let symbol = Symbol { letter: ch, mark };
        let Some((kind, side)) = rules.piece_by_symbol(symbol) else {
            return Err(fen_err(
                at + i,
                ch.len_utf8(),
                format!("`{symbol}` is not a piece of this game"),
                letters_help(rules),
            ));
        };
        let n = match count.take() {
            None => 1,
            Some((start, digits)) => match digits_value(digits, MAX_IN_HAND as u64) {
                Some(0) => {
                    return Err(fen_err(
                        at + start,
                        digits.len(),
                        format!("a count of 0 before `{ch}`"),
                        "leave out a piece that is not in hand; counts start from 1",
                    ));
                }
                Some(n) => n as usize,
                None => return Err(too_many(at + start, digits.len() + 1)),
            },
        };
        let n = hand[side.index() * kinds + kind] as usize + n;
        if n > MAX_IN_HAND {
            return Err(too_many(at + i, 1));
        }
        hand[side.index() * kinds + kind] = n as u16;
    }
    if let Some((start, digits)) = count {
        return Err(fen_err(
            at + start,
            digits.len(),
            format!("the count {digits} is not followed by a piece"),
            "write the count before the piece's letter: [3P2p]",
        ));
    }
    Ok(())
}

/// Everything a position string gives, read and checked.
struct Fields {
    placement: Placement,
    hand: Vec<u16>,
    side: Side,
    castling: u32,
    /// The en-passant square and the square of the piece that passed.
    ep: (Cell, Cell),
    /// The halfmove clock and the move number.
    clocks: [u32; 2],
    extras: Extras,
}

/// What may follow the six fields of FEN.
struct Extras {
    swapped: bool,
    exited: [u64; 2],
    counters: Vec<i64>,
}

/// A field of a position string: its offset and its text.
type Field<'a> = (usize, &'a str);

/// The fields of a position string, split at spaces (runs of spaces count as one).
fn split_fields(fen: &str) -> Vec<Field<'_>> {
    let mut fields = Vec::new();
    let mut pos = 0;
    for part in fen.split(' ') {
        if !part.is_empty() {
            fields.push((pos, part));
        }
        pos += part.len() + 1;
    }
    fields
}

/// Fairy-Stockfish writes some games' position strings `<board> <side> <halfmove>
/// <fullmove>`: in a game without castling or en passant, two numbers right after the
/// side are the clocks, and the castling and en-passant fields are read as `-`.
fn short_clock_form<'a>(rules: &Rules, mut fields: Vec<Field<'a>>) -> Vec<Field<'a>> {
    let numeric = |f: Option<&Field>| f.is_some_and(|f| f.1.bytes().all(|b| b.is_ascii_digit()));
    let no_rights = rules.castlings.is_empty() && !rules.pieces.iter().any(|p| p.en_passant);
    if no_rights && fields.len() == 4 && numeric(fields.get(2)) && numeric(fields.get(3)) {
        let at = fields[2].0;
        fields.splice(2..2, [(at, "-"), (at, "-")]);
    }
    fields
}

/// Splits the pieces in hand (`[...]`) off the board field at `at`: the boards' text
/// and the counts in hand, per side and kind.
fn read_hand_field<'a>(
    rules: &Rules,
    placement: &'a str,
    at: usize,
) -> Result<(&'a str, Vec<u16>), FenError> {
    let mut hand = vec![0u16; 2 * rules.pieces.len()];
    let Some(open) = placement.find('[') else {
        return Ok((placement, hand));
    };
    let Some(inner) = placement[open + 1..].strip_suffix(']') else {
        return Err(fen_err(
            at + open,
            placement.len() - open,
            "`[` without a closing `]`",
            "the pieces in hand are written in brackets after the boards: [PPn]",
        ));
    };
    read_hand(rules, inner, at + open + 1, &mut hand)?;
    Ok((&placement[..open], hand))
}

/// Reads the boards, separated by `|`, from the text at `at`.
fn read_boards(rules: &Rules, placement: &str, at: usize) -> Result<Placement, FenError> {
    let geo = &rules.geometry;
    let n = geo.len();
    let parts: Vec<&str> = placement.split('|').collect();
    if parts.len() != geo.boards.len() {
        return Err(fen_err(
            at,
            placement.len(),
            format!(
                "{} board{} given, the game has {}",
                parts.len(),
                if parts.len() == 1 { "" } else { "s" },
                geo.boards.len()
            ),
            "write the main board, then each side board after a `|`",
        ));
    }
    let mut p = Placement {
        board: vec![EMPTY; n],
        height: vec![0; n],
        terrain: vec![0; n],
    };
    let mut at = at;
    for (i, part) in parts.iter().enumerate() {
        read_board(rules, i, part, at, &mut p)?;
        at += part.len() + 1;
    }
    Ok(p)
}

/// The side to move: the first player's if the field is left out.
fn read_side(rules: &Rules, field: Option<&Field>) -> Result<Side, FenError> {
    let Some(&(off, s)) = field else {
        return Ok(Side::First);
    };
    rules
        .players
        .iter()
        .position(|pl| s.len() == 1 && s.starts_with(pl.letter))
        .map(Side::new)
        .ok_or_else(|| {
            fen_err(
                off,
                s.len(),
                format!("`{s}` names no player"),
                format!(
                    "the side to move is `{}` or `{}`",
                    rules.players[0].letter, rules.players[1].letter
                ),
            )
        })
}

/// The castling rights, one bit per castling; a right whose pieces are not at home is
/// dropped. With `gating in ZONE`, the gates follow (their bits after the castlings'):
/// a castling's letter opens the gates under its two pieces, and a file's letter (upper
/// case for the first player) the player's gate on that file, as Fairy-Stockfish writes
/// them (`KQBCDFGkqbcdfg`); only gates with the player's piece on them, and none while
/// the player's hand is empty for good.
fn read_castling(
    rules: &Rules,
    board: &[Code],
    hand: &[u16],
    field: Option<&Field>,
) -> Result<u32, FenError> {
    let Some(&(off, s)) = field.filter(|f| f.1 != "-") else {
        return Ok(0);
    };
    let home = |cell: Cell, code: Code| {
        rules
            .tables
            .home
            .board
            .get(cell.index())
            .is_none_or(|&h| h == code)
    };
    let mut castling = 0u32;
    for (i, ch) in s.char_indices() {
        let Some(ci) = rules.castlings.iter().position(|c| c.letter == ch) else {
            if let Some(gates) = gates_of_letter(rules, board, hand, ch) {
                castling |= gates;
                continue;
            }
            return Err(not_a_right(rules, off + i, ch));
        };
        let c = &rules.castlings[ci];
        let (k, r) = (board[c.king_from], board[c.rook_from]);
        // Where placements give the rights, the pair need not stand where the setup
        // put it: the kinds tell.
        let placed = || {
            rules.castling_by_drop.is_some_and(|(king, partner)| {
                kind_of(k) == king.index() && kind_of(r) == partner.index()
            })
        };
        if k != EMPTY
            && r != EMPTY
            && side_of(k) == c.side
            && side_of(r) == c.side
            && (placed() || (home(c.king_from, k) && home(c.rook_from, r)))
        {
            castling |= 1 << ci;
        }
        castling |= open_gates(rules, board, hand, c.side, |cell| {
            cell == c.king_from || cell == c.rook_from
        });
    }
    Ok(castling)
}

/// A letter of the castling field that names no right.
fn not_a_right(rules: &Rules, at: usize, ch: char) -> FenError {
    let known: String = rules.castlings.iter().map(|c| c.letter).collect();
    fen_err(
        at,
        ch.len_utf8(),
        format!("`{ch}` is not a castling right of this game"),
        if !rules.gates.is_empty() {
            format!(
                "rights are {known}, the files of gates (upper case for the first player), or -"
            )
        } else if known.is_empty() {
            "this game has no castling: write -".to_string()
        } else {
            format!("rights are {known}, or -")
        },
    )
}

/// The bits of a position string's gate letter (a file's, its case naming the
/// player); `None` if it names no file with a gate of the player.
fn gates_of_letter(rules: &Rules, board: &[Code], hand: &[u16], ch: char) -> Option<u32> {
    if !ch.is_ascii_alphabetic() {
        return None;
    }
    let side = if ch.is_ascii_uppercase() {
        Side::First
    } else {
        Side::Second
    };
    let geo = &rules.geometry;
    let file = ch.to_ascii_lowercase() as usize - 'a' as usize;
    let named = |cell: Cell| geo.cells[cell].file == file;
    rules
        .gates
        .iter()
        .any(|&(s, c)| s == side && named(c))
        .then(|| open_gates(rules, board, hand, side, named))
}

/// The bits of `side`'s gates on the cells `which` picks that hold a piece of its,
/// unless its hand is empty for good.
fn open_gates(
    rules: &Rules,
    board: &[Code],
    hand: &[u16],
    side: Side,
    which: impl Fn(Cell) -> bool,
) -> u32 {
    let kinds = rules.pieces.len();
    if rules.tables.home.gates_lapse
        && hand[side.index() * kinds..(side.index() + 1) * kinds]
            .iter()
            .all(|&n| n == 0)
    {
        return 0;
    }
    let first = rules.castlings.len();
    let mut bits = 0;
    for (j, &(s, cell)) in rules.gates.iter().enumerate() {
        let piece = board[cell];
        if s == side && which(cell) && piece != EMPTY && side_of(piece) == side {
            bits |= 1 << (first + j);
        }
    }
    bits
}

/// The castling field: each player's castling letters, then the files of its gates
/// that no right of its names already (as Fairy-Stockfish writes them).
fn castling_text(rules: &Rules, castling: u32) -> String {
    let mut s = String::new();
    let first = rules.castlings.len();
    for side in Side::BOTH {
        let mut implied = Vec::new();
        for (i, c) in rules.castlings.iter().enumerate() {
            if c.side == side && castling >> i & 1 != 0 {
                s.push(c.letter);
                implied.extend([c.king_from, c.rook_from]);
            }
        }
        for (j, &(gs, cell)) in rules.gates.iter().enumerate() {
            if gs == side && castling >> (first + j) & 1 != 0 && !implied.contains(&cell) {
                let letter = crate::model::file_letter(rules.geometry.cells[cell].file);
                s.push(if side == Side::First {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// The en-passant square and the square of the piece that passed, `NO_CELL` for both
/// when there is none (or no piece of the other side stands beyond the square).
fn read_en_passant(
    rules: &Rules,
    board: &[Code],
    side: Side,
    field: Option<&Field>,
) -> Result<(Cell, Cell), FenError> {
    let geo = &rules.geometry;
    let Some(&(off, s)) = field.filter(|f| f.1 != "-") else {
        return Ok((NO_CELL, NO_CELL));
    };
    let Some(cell) = geo.parse_square(s) else {
        return Err(fen_err(
            off,
            s.len(),
            format!("`{s}` is not a square of the board"),
            "write the en-passant square, such as e3, or -",
        ));
    };
    // The piece that passed stands one step beyond, in its own forward direction.
    let dy = if side.is_first() { -1 } else { 1 };
    match geo.offset(cell, 0, dy) {
        Some(v) if board[v] != EMPTY && side_of(board[v]) != side => Ok((cell, v)),
        _ => Ok((NO_CELL, NO_CELL)),
    }
}

/// The halfmove clock and the move number, from the fields that give them (0 and 1 if
/// left out).
fn read_clocks(fields: &[Field]) -> Result<[u32; 2], FenError> {
    let mut clocks = [0u32, 1u32];
    for (i, (clock, &(off, s))) in clocks.iter_mut().zip(fields).enumerate() {
        let what = ["halfmove clock", "move number"][i];
        // A count is never negative: `-1` is no move count at all.
        let value = if s.starts_with('-') {
            None
        } else {
            signed_value(s, MAX_CLOCK)
        };
        *clock = match value {
            Some(Ok(v)) => v as u32,
            Some(_) => {
                return Err(fen_err(
                    off,
                    s.len(),
                    format!("the {what} {s} is out of range"),
                    format!(
                        "the halfmove clock and the move number are whole numbers from 0 to {MAX_CLOCK}"
                    ),
                ));
            }
            None => {
                return Err(fen_err(
                    off,
                    s.len(),
                    format!("`{s}` is not a move count"),
                    "the last two fields are the halfmove clock and the move number",
                ));
            }
        };
    }
    Ok(clocks)
}

/// The fields after the six of FEN: `swapped`, `off=...` and counters `NAME=A/B`.
/// A counter not given is 0, or in a setup its declared start.
fn read_extras(rules: &Rules, fields: &[Field], is_setup: bool) -> Result<Extras, FenError> {
    let n = rules.counters.len();
    let mut extras = Extras {
        swapped: false,
        exited: [0; 2],
        counters: vec![0; 2 * n],
    };
    if is_setup {
        for (i, start) in rules.counter_starts.iter().enumerate() {
            extras.counters[i] = start[0];
            extras.counters[n + i] = start[1];
        }
    }
    for &(off, s) in fields {
        if s == "swapped" && rules.pie_rule() {
            extras.swapped = true;
        } else if let Some(list) = s.strip_prefix("off=") {
            read_exited(rules, list, off + 4, &mut extras.exited)?;
        } else if let Some((i, name, v)) = s.split_once('=').and_then(|(name, v)| {
            let i = rules.counters.iter().position(|c| c == name)?;
            Some((i, name, v))
        }) {
            let values = read_counter(name, v, (off, s))?;
            for (side, value) in values.into_iter().enumerate() {
                extras.counters[side * rules.counters.len() + i] = value;
            }
        } else {
            return Err(unexpected_extra(rules, off, s));
        }
    }
    Ok(extras)
}

/// Pieces that have left the board: the letters of `off=...`, at `at`.
fn read_exited(
    rules: &Rules,
    list: &str,
    at: usize,
    exited: &mut [u64; 2],
) -> Result<(), FenError> {
    for (i, ch) in list.char_indices() {
        let Some((kind, side)) = rules.piece_by_letter(ch) else {
            return Err(fen_err(
                at + i,
                ch.len_utf8(),
                format!("`{ch}` is not a piece of this game"),
                letters_help(rules),
            ));
        };
        exited[side] |= 1 << kind;
    }
    Ok(())
}

/// The two values of counter `name`, from the text `v` after its `=`; `field` is the
/// whole field.
fn read_counter(name: &str, v: &str, field: Field) -> Result<[i64; 2], FenError> {
    let (off, s) = field;
    let value_at = off + name.len() + 1;
    let values = v.split_once('/').and_then(|(a, b)| {
        Some([
            (signed_value(a, MAX_COUNTER)?, a, value_at),
            (signed_value(b, MAX_COUNTER)?, b, value_at + a.len() + 1),
        ])
    });
    let Some(values) = values else {
        return Err(fen_err(
            off,
            s.len(),
            format!("`{s}` does not give the counter's two values"),
            format!("write {name}=FIRST/SECOND, two whole numbers such as {name}=2/0"),
        ));
    };
    let mut out = [0i64; 2];
    for (slot, (value, text, at)) in out.iter_mut().zip(values) {
        *slot = value.map_err(|()| {
            fen_err(
                at,
                text.len(),
                format!("counter {name} = {text} is out of range"),
                format!("a counter's value is a whole number from -{MAX_COUNTER} to {MAX_COUNTER}"),
            )
        })?;
    }
    Ok(out)
}

/// The error for a field after the six of FEN that is none of the extras the game
/// allows.
fn unexpected_extra(rules: &Rules, off: usize, s: &str) -> FenError {
    let names: Vec<String> = rules.counters.iter().map(|c| format!("{c}=N/N")).collect();
    let mut allowed = names.join(", ");
    if rules.pie_rule() {
        allowed = if allowed.is_empty() {
            "swapped".into()
        } else {
            format!("swapped, {allowed}")
        };
    }
    fen_err(
        off,
        s.len(),
        format!("unexpected `{s}`"),
        if allowed.is_empty() {
            "a position string has at most six fields".to_string()
        } else {
            format!("after the six fields of FEN may follow: {allowed}")
        },
    )
}
impl Position {
    /// The start position of the rules.
    pub fn start(rules: Arc<Rules>) -> Position {
        let setup = rules.setup.clone();
        Position::from_fen_with(rules, &setup, true).expect("the checker has accepted the setup")
    }

    /// Reads a position string.
    pub fn from_fen(rules: Arc<Rules>, fen: &str) -> Result<Position, FenError> {
        Self::from_fen_with(rules, fen, false)
    }

    /// What makes this position one that cannot arise in a game, in words (empty if
    /// nothing): a royal piece of the side not to move attacked (the side to move
    /// could take it), or a side without a royal piece when its rules give it one (so
    /// that `captured` end rules would end the game at once and check means nothing).
    /// Composed problems may want such positions: the REPL refuses them unless told.
    pub fn impossibilities(&self) -> Vec<String> {
        let rules = &*self.rules;
        let geo = &rules.geometry;
        let mut out = Vec::new();
        for side in Side::BOTH {
            let name = &rules.players[side].name;
            // A royal piece in hand (to be placed) or gone off the board by an exit
            // rule is accounted for.
            let royal_kinds: Vec<usize> = (0..rules.pieces.len())
                .filter(|&k| rules.pieces[k].royal && rules.pieces[k].mark == Mark::Plain)
                .filter(|&k| rules.pieces[k].owner.is_none_or(|o| o == side))
                .collect();
            let royal_types: Vec<&str> = royal_kinds
                .iter()
                .map(|&k| rules.pieces[k].name.as_str())
                .collect();
            let elsewhere = royal_kinds
                .iter()
                .any(|&k| self.in_hand(side, k) > 0 || self.exited[side] >> k & 1 != 0);
            if !royal_types.is_empty() && self.royals.count(side) == 0 && !elsewhere {
                out.push(format!(
                    "{name} has no {} on the board, and the rules give each side one",
                    royal_types.join(" or ")
                ));
            }
        }
        let them = self.side.opponent();
        if self.in_check(them)
            && let Some(&c) = self
                .royals
                .of(them)
                .iter()
                .find(|&&c| self.royal_attacked(c, them))
        {
            out.push(format!(
                "{} is to move, but {}'s {} on {} is already attacked: {} left it in check, which no legal move does",
                rules.players[self.side].name,
                rules.players[them].name,
                rules.pieces[kind_of(self.board[c])].name,
                geo.name(c),
                rules.players[them].name,
            ));
        }
        out
    }

    /// Reads a position string; `is_setup` marks every piece as unmoved.
    pub(crate) fn from_fen_with(
        rules: Arc<Rules>,
        fen: &str,
        is_setup: bool,
    ) -> Result<Position, FenError> {
        let fields = split_fields(fen);
        let Some(&(board_at, placement)) = fields.first() else {
            return Err(fen_err(
                0,
                fen.len(),
                "empty position string",
                "write the ranks from the top, such as 8/8/... w",
            ));
        };
        let (placement, hand) = read_hand_field(&rules, placement, board_at)?;
        let placement = read_boards(&rules, placement, board_at)?;
        let fields = short_clock_form(&rules, fields);
        let side = read_side(&rules, fields.get(1))?;
        let castling = read_castling(&rules, &placement.board, &hand, fields.get(2))?;
        let ep = read_en_passant(&rules, &placement.board, side, fields.get(3))?;
        let clocks = read_clocks(fields.get(4..).unwrap_or_default())?;
        let extras = read_extras(&rules, fields.get(6..).unwrap_or_default(), is_setup)?;
        let fields = Fields {
            placement,
            hand,
            side,
            castling,
            ep,
            clocks,
            extras,
        };
        Ok(Position::assemble(rules, fields, is_setup))
    }

    /// The position the fields of a position string describe.
    fn assemble(rules: Arc<Rules>, f: Fields, is_setup: bool) -> Position {
        let n = rules.geometry.len();
        let mut counts = vec![0u16; 1 + 2 * rules.pieces.len()];
        let mut royals = Royals::with_capacity(n);
        let mut unmoved = vec![false; n];
        for (cell, &c) in f.placement.board.iter().enumerate() {
            if c == EMPTY {
                continue;
            }
            counts[c as usize] += 1;
            if rules.pieces[kind_of(c)].royal {
                royals.add(side_of(c), Cell::new(cell));
            }
            unmoved[cell] = is_setup || rules.tables.home.board.get(cell) == Some(&c);
        }
        let mut p = Position {
            rules,
            board: f.placement.board,
            height: f.placement.height,
            swapped: f.extras.swapped,
            terrain: f.placement.terrain,
            unmoved,
            side: f.side,
            castling: f.castling,
            ep: f.ep.0,
            ep_victim: f.ep.1,
            halfmove: f.clocks[0],
            fullmove: f.clocks[1].max(1),
            hash: 0,
            royals,
            counts,
            hand: f.hand,
            counters: f.extras.counters,
            exited: f.extras.exited,
            history: Vec::new(),
            blasted: Vec::new(),
            converted: Vec::new(),
            scratch: Default::default(),
        };
        p.hash = p.compute_hash();
        p
    }

    fn board_text(&self, board: usize) -> String {
        let rules = &*self.rules;
        let geo = &rules.geometry;
        let b = &geo.boards[board];
        let mut s = String::new();
        for rank in (0..b.ranks).rev() {
            let mut empty = 0;
            for file in 0..b.files {
                let cell = geo
                    .cell_at(board, file as i32, rank as i32)
                    .unwrap()
                    .index();
                let c = self.board[cell];
                let sym = if c != EMPTY {
                    Some(rules.code_symbol(c))
                } else if self.terrain[cell] != 0 {
                    Some(
                        rules.terrains[self.terrain[cell] as usize - 1]
                            .letter
                            .to_string(),
                    )
                } else {
                    None
                };
                let Some(ch) = sym else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    s += &empty.to_string();
                    empty = 0;
                }
                s += &ch;
                if c != EMPTY {
                    let mut notes = Vec::new();
                    if self.terrain[cell] != 0 {
                        notes.push(
                            rules.terrains[self.terrain[cell] as usize - 1]
                                .letter
                                .to_string(),
                        );
                    }
                    if self.height[cell] != 1 {
                        notes.push(self.height[cell].to_string());
                    }
                    if !notes.is_empty() {
                        s += &format!("({})", notes.join(","));
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }

    /// The position string.
    pub fn fen(&self) -> String {
        let rules = &*self.rules;
        let geo = &rules.geometry;
        let boards: Vec<String> = (0..geo.boards.len()).map(|b| self.board_text(b)).collect();
        let mut s = boards.join("|");
        if rules.has_drops() || self.hand.iter().any(|&h| h > 0) {
            s.push('[');
            let kinds = rules.pieces.len();
            for side in Side::BOTH {
                for kind in 0..kinds {
                    let n = self.hand[side.index() * kinds + kind];
                    for _ in 0..n {
                        s += &rules.code_symbol(code(kind, side));
                    }
                }
            }
            s.push(']');
        }
        s.push(' ');
        s.push(rules.players[self.side].letter);
        s.push(' ');
        s += &castling_text(rules, self.castling);
        s.push(' ');
        if self.ep == NO_CELL {
            s.push('-');
        } else {
            s += geo.name(self.ep);
        }
        s += &format!(" {} {}", self.halfmove, self.fullmove);
        if self.swapped {
            s += " swapped";
        }
        let off: String = Side::BOTH
            .into_iter()
            .flat_map(|side| {
                (0..rules.pieces.len())
                    .filter(move |&k| self.exited[side] >> k & 1 != 0)
                    .map(move |k| (k, side))
            })
            .map(|(k, side)| rules.code_letter(code(k, side)))
            .collect();
        if !off.is_empty() {
            s += &format!(" off={off}");
        }
        let nc = rules.counters.len();
        for (i, name) in rules.counters.iter().enumerate() {
            s += &format!(" {name}={}/{}", self.counters[i], self.counters[nc + i]);
        }
        s
    }
}
