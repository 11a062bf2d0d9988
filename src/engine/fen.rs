//! Position strings: FEN for chess and a FEN-like line for every variant.
//!
//! `<ranks> <side> <castling> <en passant> <halfmove> <fullmove>`: ranks from the top,
//! separated by `/`; a digit run counts empty squares (`12` on a wide board); a
//! piece letter is upper case for the first player; a terrain letter stands for
//! itself. The last four fields may be left out (4- and 6-field FEN both work).

use std::sync::Arc;

use super::Position;
use super::position::Royals;
use crate::rules::{Cell, Code, EMPTY, NO_CELL, Rules, code, kind_of, side_of};

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

impl Position {
    /// The start position of the rules.
    pub fn start(rules: Arc<Rules>) -> Position {
        let setup = rules.setup.clone();
        Position::from_fen(rules, &setup).expect("the checker has accepted the setup")
    }

    /// Reads a position string.
    pub fn from_fen(rules: Arc<Rules>, fen: &str) -> Result<Position, FenError> {
        Self::from_fen_with(rules, fen, false)
    }

    /// Reads a position string; `is_setup` marks every piece as unmoved.
    pub(crate) fn from_fen_with(
        rules: Arc<Rules>,
        fen: &str,
        is_setup: bool,
    ) -> Result<Position, FenError> {
        let geo = &rules.geometry;
        let b = &geo.boards[0];
        let n = geo.len();
        let mut board = vec![EMPTY; n];
        let mut height = vec![0u8; n];
        let mut terrain = vec![0u8; n];
        // Fields with their offsets.
        let mut fields: Vec<(usize, &str)> = Vec::new();
        let mut pos = 0;
        for part in fen.split(' ') {
            if !part.is_empty() {
                fields.push((pos, part));
            }
            pos += part.len() + 1;
        }
        let Some(&(board_at, placement)) = fields.first() else {
            return Err(fen_err(
                0,
                fen.len(),
                "empty position string",
                "write the ranks from the top, such as 8/8/... w",
            ));
        };
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != b.ranks {
            return Err(fen_err(
                board_at,
                placement.len(),
                format!("{} ranks given, the board has {}", rows.len(), b.ranks),
                "separate the ranks with `/`, the top rank first",
            ));
        }
        let mut at = board_at;
        for (i, row) in rows.iter().enumerate() {
            let rank = b.ranks - 1 - i;
            let mut file = 0usize;
            let chars: Vec<(usize, char)> = row.char_indices().collect();
            let mut k = 0;
            while k < chars.len() {
                let (off, ch) = chars[k];
                let here = at + off;
                if ch.is_ascii_digit() {
                    let mut num = 0usize;
                    let start = k;
                    while k < chars.len() && chars[k].1.is_ascii_digit() {
                        num = num
                            .saturating_mul(10)
                            .saturating_add(chars[k].1 as usize - '0' as usize);
                        k += 1;
                    }
                    if num == 0 {
                        return Err(fen_err(
                            here,
                            k - start,
                            "an empty-square count of 0",
                            "count empty squares from 1",
                        ));
                    }
                    file = file.saturating_add(num);
                    if file > b.files {
                        return Err(fen_err(
                            here,
                            k - start,
                            format!("rank {} is wider than {} files", rank + 1, b.files),
                            "count the squares of each rank",
                        ));
                    }
                    continue;
                }
                if file >= b.files {
                    return Err(fen_err(
                        here,
                        1,
                        format!("rank {} is wider than {} files", rank + 1, b.files),
                        "count the squares of each rank",
                    ));
                }
                let cell = geo.cell_at(0, file as i32, rank as i32).unwrap() as usize;
                if let Some(t) = rules.terrains.iter().position(|t| t.letter == ch) {
                    terrain[cell] = t as u8 + 1;
                } else if let Some(kind) = rules
                    .kind_by_letter(ch)
                    .filter(|_| ch.is_ascii_alphabetic())
                {
                    let side = usize::from(ch.is_ascii_lowercase());
                    board[cell] = code(kind, side);
                    height[cell] = 1;
                    // A stack: `Q(20)`, or `Q(height)` to read a parameter.
                    if chars.get(k + 1).is_some_and(|c| c.1 == '(') {
                        let open = k + 1;
                        let Some(close) = chars[open..]
                            .iter()
                            .position(|c| c.1 == ')')
                            .map(|i| open + i)
                        else {
                            return Err(fen_err(
                                at + chars[open].0,
                                row.len() - chars[open].0,
                                "`(` without `)`",
                                "write a stack's height as Q(20)",
                            ));
                        };
                        let inner: String = chars[open + 1..close].iter().map(|c| c.1).collect();
                        let mut part_at = at + chars[open].0 + 1;
                        for part in inner.split(',') {
                            let mut pc = part.chars();
                            let single = pc.next().filter(|_| pc.next().is_none());
                            // A terrain letter: the piece stands on that terrain.
                            if let Some(t) = single
                                .and_then(|c| rules.terrains.iter().position(|t| t.letter == c))
                            {
                                terrain[cell] = t as u8 + 1;
                            } else {
                                height[cell] = read_height(&rules, side, part, part_at)?;
                            }
                            part_at += part.len() + 1;
                        }
                        k = close;
                    }
                } else {
                    let letters: String = rules
                        .pieces
                        .iter()
                        .map(|p| p.letter)
                        .chain(rules.terrains.iter().map(|t| t.letter))
                        .collect();
                    return Err(fen_err(
                        here,
                        ch.len_utf8(),
                        format!("`{ch}` is neither a piece nor a terrain of this game"),
                        format!(
                            "letters of this game: {letters} (lower case for {})",
                            rules.players[1].name
                        ),
                    ));
                }
                file += 1;
                k += 1;
            }
            if file != b.files {
                return Err(fen_err(
                    at,
                    row.len().max(1),
                    format!(
                        "rank {} has {} squares, the board has {} files",
                        rank + 1,
                        file,
                        b.files
                    ),
                    "count the squares of each rank",
                ));
            }
            at += row.len() + 1;
        }
        let mut side = 0;
        if let Some(&(off, s)) = fields.get(1) {
            side = match rules
                .players
                .iter()
                .position(|p| s.len() == 1 && s.starts_with(p.letter))
            {
                Some(i) => i,
                None => {
                    return Err(fen_err(
                        off,
                        s.len(),
                        format!("`{s}` names no player"),
                        format!(
                            "the side to move is `{}` or `{}`",
                            rules.players[0].letter, rules.players[1].letter
                        ),
                    ));
                }
            };
        }
        let mut castling = 0u32;
        if let Some(&(off, s)) = fields.get(2) {
            if s != "-" {
                for (i, ch) in s.char_indices() {
                    match rules.castlings.iter().position(|c| c.letter == ch) {
                        Some(ci) => {
                            let c = &rules.castlings[ci];
                            let (k, r) = (board[c.king_from as usize], board[c.rook_from as usize]);
                            // A right whose pieces are not at home is dropped.
                            let home = |cell: Cell, code: Code| {
                                rules
                                    .tables
                                    .home
                                    .get(cell as usize)
                                    .is_none_or(|&h| h == code)
                            };
                            if k != EMPTY
                                && r != EMPTY
                                && side_of(k) == c.side
                                && side_of(r) == c.side
                                && home(c.king_from, k)
                                && home(c.rook_from, r)
                            {
                                castling |= 1 << ci;
                            }
                        }
                        None => {
                            let known: String = rules.castlings.iter().map(|c| c.letter).collect();
                            return Err(fen_err(
                                off + i,
                                ch.len_utf8(),
                                format!("`{ch}` is not a castling right of this game"),
                                if known.is_empty() {
                                    "this game has no castling: write -".to_string()
                                } else {
                                    format!("rights are {known}, or -")
                                },
                            ));
                        }
                    }
                }
            }
        }
        let (mut ep, mut ep_victim) = (NO_CELL, NO_CELL);
        if let Some(&(off, s)) = fields.get(3) {
            if s != "-" {
                match geo.parse_square(s) {
                    Some(cell) => {
                        // The piece that passed stands one step beyond, in its own forward direction.
                        let dy = if side == 0 { -1 } else { 1 };
                        if let Some(v) = geo.offset(cell, 0, dy) {
                            if board[v as usize] != EMPTY && side_of(board[v as usize]) != side {
                                ep = cell;
                                ep_victim = v;
                            }
                        }
                    }
                    None => {
                        return Err(fen_err(
                            off,
                            s.len(),
                            format!("`{s}` is not a square"),
                            "write the en-passant square, such as e3, or -",
                        ));
                    }
                }
            }
        }
        let mut clocks = [0u32, 1u32];
        for (i, clock) in clocks.iter_mut().enumerate() {
            if let Some(&(off, s)) = fields.get(4 + i) {
                *clock = s.parse().map_err(|_| {
                    fen_err(
                        off,
                        s.len(),
                        format!("`{s}` is not a move count"),
                        "the last two fields are the halfmove clock and the move number",
                    )
                })?;
            }
        }
        let mut swapped = false;
        if let Some(&(off, s)) = fields.get(6) {
            if s == "swapped" && rules.pie_rule {
                swapped = true;
            } else {
                return Err(fen_err(
                    off,
                    s.len(),
                    format!("unexpected `{s}`"),
                    "after the six fields of FEN only `swapped` may follow (the pie rule was used)",
                ));
            }
        }
        if let Some(&(off, s)) = fields.get(7) {
            return Err(fen_err(
                off,
                fen.len() - off,
                format!("unexpected `{s}`"),
                "a position string has at most seven fields",
            ));
        }
        let mut counts = vec![0u16; 1 + 2 * rules.pieces.len()];
        let mut royals = Royals::default();
        let mut unmoved = vec![false; n];
        for (cell, &c) in board.iter().enumerate() {
            if c == EMPTY {
                continue;
            }
            counts[c as usize] += 1;
            if rules.pieces[kind_of(c)].royal {
                royals.add(side_of(c), cell as u16);
            }
            unmoved[cell] = is_setup || rules.tables.home.get(cell) == Some(&c);
        }
        let mut p = Position {
            rules: rules.clone(),
            board,
            height,
            swapped,
            terrain,
            unmoved,
            side,
            castling,
            ep,
            ep_victim,
            halfmove: clocks[0],
            fullmove: clocks[1].max(1),
            hash: 0,
            royals,
            counts,
            history: Vec::new(),
        };
        p.hash = p.compute_hash();
        Ok(p)
    }

    /// The position string.
    pub fn fen(&self) -> String {
        let rules = &*self.rules;
        let geo = &rules.geometry;
        let b = &geo.boards[0];
        let mut s = String::new();
        for rank in (0..b.ranks).rev() {
            let mut empty = 0;
            for file in 0..b.files {
                let cell = geo.cell_at(0, file as i32, rank as i32).unwrap() as usize;
                let c = self.board[cell];
                let sym = if c != EMPTY {
                    Some(rules.code_letter(c))
                } else if self.terrain[cell] != 0 {
                    Some(rules.terrains[self.terrain[cell] as usize - 1].letter)
                } else {
                    None
                };
                match sym {
                    Some(ch) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s.push(ch);
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
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(rules.players[self.side].letter);
        s.push(' ');
        if self.castling == 0 {
            s.push('-');
        } else {
            for (i, c) in rules.castlings.iter().enumerate() {
                if self.castling >> i & 1 != 0 {
                    s.push(c.letter);
                }
            }
        }
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
        s
    }
}

/// A stack height written in a position string: a number, or a parameter's name.
fn read_height(rules: &Rules, side: usize, text: &str, at: usize) -> Result<u8, FenError> {
    let value = match text.parse::<i64>() {
        Ok(v) => v,
        Err(_) => {
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
        return Err(fen_err(
            at,
            text.len().max(1),
            format!("height {value} is not in 1..255"),
            "a stack is 1 to 255 high",
        ));
    }
    Ok(value as u8)
}
