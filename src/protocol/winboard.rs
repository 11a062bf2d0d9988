//! How WinBoard and XBoard, the interfaces of the XBoard protocol, see a game: their
//! square names, move texts and position strings, and the `setup` command that shows
//! them a board and pieces they do not know.
//!
//! - Squares: a file letter and a rank number, as varsand names the main board's
//!   squares, except on a board of exactly 10 ranks, where WinBoard numbers the ranks
//!   from 0 (`a0`..`a9`). A pass is `@@@@`.
//! - Pieces: WinBoard draws a piece by its *type*, one of a fixed list (five orthodox
//!   types, then fairy types; the royal type last). The `setup` command's piece table
//!   says which letter each type stands for. Each letter of the game gets a type: the
//!   one WinBoard gives that letter by default when it is free, so that familiar
//!   pieces look familiar, else the first free one; the royal piece gets the royal
//!   type. A promoted form written `+P` (or `Q~`) gets the type WinBoard pairs with
//!   its base's type (11 further on), marked `+` (`~`) in the table. Pieces that go to
//!   a hand get the first types, as WinBoard's holdings hold only those.
//! - Terrain written with a letter is shown as a piece of that letter (its case says
//!   whose); other terrain as a hole in the board (`*`). Stack heights are not shown.
//! - Limits: WinBoard 4.8 and later draw boards of up to 16 files (12 with hands, as
//!   the holdings take two files on each side) and 16 ranks, one board per game, and
//!   43 piece types per side. Past these no `setup` is sent: the engine still plays,
//!   but the interface cannot show the game.

use crate::engine::{Move, MoveText, Position};
use crate::ids::Side;
use crate::model::file_letter;
use crate::rules::{Cell, EMPTY, Mark, Rules, Source, code};

/// The most files WinBoard draws, holdings included (its `BOARD_FILES`).
pub const MAX_FILES: usize = 16;
/// The most ranks WinBoard draws (its `BOARD_RANKS`, less the hidden rank of rights).
pub const MAX_RANKS: usize = 16;
/// The files the holdings take: two on each side of the board (pieces and counts).
const HOLDINGS_FILES: usize = 4;
/// WinBoard's letters for its first piece types (the royal type, the last, is `K`).
const DEFAULT_LETTERS: &str = "PNBRQFEACWMOHIJGDVLSU";
/// A table of this many types per side (the royal type last) suits every WinBoard since
/// 4.4; more types need WinBoard 4.8.
const SHORT_TABLE: usize = 22;
const LONG_TABLE: usize = 44;
/// WinBoard pairs type `t` with its promoted form `t + 11`.
const PROMOTION_STEP: usize = 11;

/// How WinBoard sees one game.
#[derive(Debug, Clone)]
pub struct WinBoard {
    files: usize,
    ranks: usize,
    /// Piece types the holdings show (0 without hands).
    holdings: usize,
    /// The piece table: per side, the letter of each type, `.` for a type not used.
    table: String,
    /// The terrain symbol `*` stands for, if the game has one terrain not written
    /// with a letter.
    hole: Option<char>,
    /// Why WinBoard cannot show this game, if it cannot.
    unfit: Option<String>,
}

impl WinBoard {
    /// How WinBoard sees the game of `start`, its start position.
    pub fn new(start: &Position) -> Self {
        let rules = start.rules();
        let geo = rules.geometry();
        let main = &geo.boards[0];
        let hand = hand_kinds(start);
        let table = piece_table(rules, &hand);
        let holes: Vec<char> = rules
            .terrains()
            .iter()
            .map(|t| t.letter)
            .filter(|c| !c.is_ascii_alphabetic())
            .collect();
        let width = main.files + if hand.is_empty() { 0 } else { HOLDINGS_FILES };
        let unfit = if geo.boards.len() > 1 {
            Some(format!(
                "the game has {} boards, and WinBoard shows one",
                geo.boards.len()
            ))
        } else if width > MAX_FILES || main.ranks > MAX_RANKS {
            Some(format!(
                "the board is {}x{}{}, and WinBoard draws at most {MAX_FILES} files (holdings \
                 included: {} files with hands) and {MAX_RANKS} ranks",
                main.files,
                main.ranks,
                if hand.is_empty() { "" } else { " with hands" },
                MAX_FILES - HOLDINGS_FILES
            ))
        } else {
            table.as_ref().err().cloned()
        };
        Self {
            files: main.files,
            ranks: main.ranks,
            holdings: hand.len(),
            table: table.unwrap_or_default(),
            hole: (holes.len() == 1).then(|| holes[0]),
            unfit,
        }
    }

    /// Why WinBoard cannot show the game, if it cannot.
    pub fn unfit(&self) -> Option<&str> {
        self.unfit.as_deref()
    }

    /// The `setup` command for a position (the start position, in reply to
    /// `variant`): the piece table, the board's size and holdings under the parent
    /// variant `fairy`, and the position string. `None` if WinBoard cannot show it.
    pub fn setup(&self, pos: &Position) -> Option<String> {
        if self.unfit.is_some() {
            return None;
        }
        Some(format!(
            "setup ({}) {}x{}+{}_fairy {}",
            self.table,
            self.files,
            self.ranks,
            self.holdings,
            self.fen(pos)
        ))
    }

    /// The name WinBoard gives `fairy` on this board when its size is not 8x8 without
    /// holdings (`12x12+0_fairy`): an engine must list it for WinBoard to play
    /// `fairy` on such a board (once a `setup` has turned a variant WinBoard knows
    /// into `fairy`, the second engine of a match is asked for it). `None` for 8x8,
    /// and for a game WinBoard cannot show.
    pub fn sized_fairy(&self) -> Option<String> {
        let plain = (self.files, self.ranks, self.holdings) == (8, 8, 0);
        (self.unfit.is_none() && !plain)
            .then(|| format!("{}x{}+{}_fairy", self.files, self.ranks, self.holdings))
    }

    /// A square's name for WinBoard.
    pub fn square(&self, rules: &Rules, cell: Cell) -> String {
        let c = &rules.geometry().cells[cell];
        if c.board != 0 {
            return c.name.clone();
        }
        let rank = if self.ranks == 10 { c.rank } else { c.rank + 1 };
        format!("{}{rank}", file_letter(c.file))
    }

    /// The cell a WinBoard square name names on the main board.
    pub fn cell(&self, rules: &Rules, text: &str) -> Option<Cell> {
        let (square, rest) = split_square(text)?;
        if !rest.is_empty() {
            return None;
        }
        self.square_cell(rules, square)
    }

    fn square_cell(&self, rules: &Rules, square: &str) -> Option<Cell> {
        let file = square.as_bytes()[0] - b'a';
        let number: usize = square[1..].parse().ok()?;
        let rank = if self.ranks == 10 {
            number
        } else {
            number.checked_sub(1)?
        };
        rules
            .geometry()
            .cell_at(0, i32::from(file), i32::try_from(rank).ok()?)
    }

    /// A move as WinBoard writes it. A move with a second part is written as
    /// Fairy-Stockfish's XBoard mode writes it: the first part's squares, a comma, the
    /// second part's squares, then the first part's letter (`b7b8,b8a1q`, where UCI
    /// and varsand write `b7b8q,b8a1`); [`move_lines`] sends it in two lines.
    pub fn move_text(&self, pos: &Position, m: Move) -> String {
        self.parts_text(pos.rules(), &pos.move_parts(m))
    }

    fn parts_text(&self, rules: &Rules, parts: &MoveText) -> String {
        match parts {
            MoveText::Then { first, from, to } => {
                let second = format!(",{}{}", self.square(rules, *from), self.square(rules, *to));
                let whole = self.parts_text(rules, first);
                match first.as_ref() {
                    MoveText::Squares { from, to, .. } => {
                        let head = self.square(rules, *from) + &self.square(rules, *to);
                        let letter = whole.get(head.len()..).unwrap_or_default();
                        format!("{head}{second}{letter}")
                    }
                    _ => whole + &second,
                }
            }
            _ => self.simple_text(rules, parts.clone()),
        }
    }

    /// A move without a second part as WinBoard writes it.
    fn simple_text(&self, rules: &Rules, parts: MoveText) -> String {
        match parts {
            MoveText::Squares {
                from,
                to,
                promo,
                rifle,
                ..
            } => {
                let mut s = self.square(rules, from) + &self.square(rules, to);
                s.extend(promo);
                if rifle {
                    s.push('!');
                }
                s
            }
            MoveText::Drop {
                letter,
                cell: Some(cell),
                ..
            } => format!("{letter}@{}", self.square(rules, cell)),
            MoveText::Exit {
                cell: Some(cell), ..
            } => self.square(rules, cell) + "off",
            MoveText::Pass | MoveText::PassAt(_) => "@@@@".into(),
            other => other.text(rules),
        }
    }

    /// A move WinBoard wrote, as varsand writes it (for [`Position::parse_move`]); a
    /// text that is not in WinBoard's forms comes back as it is. A move with a second
    /// part is read in Fairy-Stockfish's XBoard form (`b7b8,b8a1q`) and in varsand's
    /// (`b7b8q,b8a1`).
    pub fn read_move(&self, rules: &Rules, text: &str) -> String {
        let Some((first, second)) = text.split_once(',') else {
            return self.read_simple_move(rules, text);
        };
        let name = |cell: Cell| rules.geometry().name(cell).to_string();
        let squares = split_square(second).and_then(|(from, rest)| {
            let (to, letter) = split_square(rest)?;
            let (from, to) = (self.square_cell(rules, from)?, self.square_cell(rules, to)?);
            Some((name(from) + &name(to), letter))
        });
        match squares {
            Some((squares, letter)) => {
                let first = self.read_simple_move(rules, &format!("{first}{letter}"));
                format!("{first},{squares}")
            }
            None => text.to_string(),
        }
    }

    fn read_simple_move(&self, rules: &Rules, text: &str) -> String {
        // `=`: a promotion declined (the move without one).
        let t = text.strip_suffix('=').unwrap_or(text);
        if t == "@@@@" {
            return "pass".into();
        }
        let name = |cell: Cell| rules.geometry().name(cell).to_string();
        if let Some((piece, square)) = t.split_once('@') {
            return match self.cell(rules, square) {
                Some(cell) => format!("{piece}@{}", name(cell)),
                None => t.to_string(),
            };
        }
        if let Some(cell) = t.strip_suffix("off").and_then(|s| self.cell(rules, s)) {
            return name(cell) + "off";
        }
        let squares = split_square(t).and_then(|(from, rest)| {
            let (to, rest) = split_square(rest)?;
            let from = self.square_cell(rules, from)?;
            let to = self.square_cell(rules, to)?;
            Some(name(from) + &name(to) + rest)
        });
        squares.unwrap_or_else(|| t.to_string())
    }

    /// The position string WinBoard reads: the main board (pieces with their marks,
    /// lettered terrain as pieces, other terrain as `*`, no stack heights), the hands
    /// in brackets, `w` or `b` for the side to move, the castling rights written
    /// `KQkq`, the en-passant square and the clocks.
    pub fn fen(&self, pos: &Position) -> String {
        let rules = pos.rules();
        let mut s = self.board_text(pos);
        if self.holdings > 0 {
            s += &format!("[{}]", self.hand_letters(pos));
        }
        let fen = pos.fen();
        let fields: Vec<&str> = fen.split(' ').collect();
        let castling: String = fields[2].chars().filter(|c| "KQkq".contains(*c)).collect();
        let ep = match rules.geometry().parse_square(fields[3]) {
            Some(cell) => self.square(rules, cell),
            None => "-".into(),
        };
        format!(
            "{s} {} {} {ep} {} {}",
            if pos.side_to_move().is_first() {
                'w'
            } else {
                'b'
            },
            if castling.is_empty() { "-" } else { &castling },
            fields[4],
            fields[5]
        )
    }

    fn board_text(&self, pos: &Position) -> String {
        let rules = pos.rules();
        let mut rows = Vec::with_capacity(self.ranks);
        for rank in (0..self.ranks).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..self.files {
                let Some(cell) = rules.geometry().cell_at(0, file as i32, rank as i32) else {
                    continue;
                };
                let symbol = match (pos.piece_at(cell), pos.terrain_at(cell)) {
                    (EMPTY, None) => None,
                    (EMPTY, Some(t)) => {
                        let letter = rules.terrains()[t].letter;
                        Some(if letter.is_ascii_alphabetic() {
                            letter.to_string()
                        } else {
                            "*".into()
                        })
                    }
                    (piece, _) => Some(rules.code_symbol(piece)),
                };
                match symbol {
                    None => empty += 1,
                    Some(symbol) => {
                        if empty > 0 {
                            row += &empty.to_string();
                            empty = 0;
                        }
                        row += &symbol;
                    }
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        rows.join("/")
    }

    fn hand_letters(&self, pos: &Position) -> String {
        let rules = pos.rules();
        let mut s = String::new();
        for side in Side::BOTH {
            for kind in 0..rules.pieces().len() {
                for _ in 0..pos.in_hand(side, kind) {
                    s += &rules.code_symbol(code(kind, side));
                }
            }
        }
        s
    }

    /// A position string WinBoard wrote (`setboard`), as varsand writes it: `w` and
    /// `b` become the players' letters, squares are renamed, `*` becomes the terrain
    /// it stands for. A text that is not in that form comes back as it is.
    pub fn read_fen(&self, rules: &Rules, text: &str) -> String {
        let mut fields: Vec<String> = text.split_whitespace().map(String::from).collect();
        if let (Some(hole), Some(board)) = (self.hole, fields.first_mut()) {
            *board = board.replace('*', &hole.to_string());
        }
        if let Some(side) = fields.get_mut(1) {
            match side.as_str() {
                "w" => *side = rules.players()[0].letter.to_string(),
                "b" => *side = rules.players()[1].letter.to_string(),
                _ => {}
            }
        }
        if let Some(ep) = fields.get_mut(3)
            && let Some(cell) = self.cell(rules, ep)
        {
            *ep = rules.geometry().name(cell).to_string();
        }
        fields.join(" ")
    }
}

/// `a10rest` → (`a10`, `rest`): a file letter and the digits after it.
/// The lines that send a move to the interface: one `move TEXT`, or, for a move with
/// a second part, two (`move b7b8,` then `move b8a1q`), as Fairy-Stockfish's XBoard mode
/// sends a move of two legs.
pub fn move_lines(text: &str) -> Vec<String> {
    match text.split_once(',') {
        Some((first, second)) => vec![format!("move {first},"), format!("move {second}")],
        None => vec![format!("move {text}")],
    }
}

fn split_square(text: &str) -> Option<(&str, &str)> {
    let bytes = text.as_bytes();
    if !bytes.first()?.is_ascii_lowercase() {
        return None;
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    // A board has at most a few hundred ranks: more digits are not a square.
    if digits == 0 || digits > 3 {
        return None;
    }
    Some(text.split_at(1 + digits))
}

/// The piece types that can be in a hand: those captured pieces turn into, those
/// dropped, and those in a hand at the start.
fn hand_kinds(start: &Position) -> Vec<usize> {
    let rules = start.rules();
    let mut kinds: Vec<usize> = rules
        .pieces()
        .iter()
        .filter_map(|p| p.to_hand.map(super::super::model::PieceKind::index))
        .chain(
            rules
                .generators()
                .iter()
                .filter(|g| g.source == Source::Drop)
                .filter_map(|g| g.piece),
        )
        .collect();
    for kind in 0..rules.pieces().len() {
        if start.in_hand(Side::First, kind) + start.in_hand(Side::Second, kind) > 0 {
            kinds.push(kind);
        }
    }
    // A royal piece is not kept in a hand: its capture ends the game.
    kinds.retain(|&k| !rules.pieces()[k].royal);
    kinds.sort_unstable();
    kinds.dedup();
    // One type per letter: pieces of one letter for either player share it.
    let mut letters = Vec::new();
    kinds.retain(|&k| {
        let key = rules.pieces()[k].letter.to_ascii_uppercase();
        let new = !letters.contains(&key);
        letters.push(key);
        new
    });
    kinds
}

/// The piece table of the `setup` command (see the module's notes), or why there is
/// none.
fn piece_table(rules: &Rules, hand: &[usize]) -> Result<String, String> {
    let mut types = Types::default();
    let upper = |c: char| c.to_ascii_uppercase();
    let pieces = rules.pieces();
    // Hand pieces take the first types: those with their own type there first.
    let (own, others): (Vec<usize>, Vec<usize>) = hand.iter().partition(|&&k| {
        DEFAULT_LETTERS
            .find(upper(pieces[k].letter))
            .is_some_and(|s| s < hand.len())
    });
    for k in own.into_iter().chain(others) {
        types.place(upper(pieces[k].letter), 0..hand.len())?;
    }
    if let Some(royal) = pieces.iter().find(|p| p.royal && p.mark == Mark::Plain) {
        types.royal.get_or_insert(upper(royal.letter));
    }
    // Bases of promoted forms first, where their partner type is free.
    let marked: Vec<(char, char)> = pieces
        .iter()
        .filter_map(|p| match p.mark {
            Mark::Plain => None,
            Mark::Plus => Some((upper(p.letter), '+')),
            Mark::Tilde => Some((upper(p.letter), '~')),
        })
        .collect();
    for &(base, _) in &marked {
        types.place_paired(base)?;
    }
    let letters = pieces
        .iter()
        .map(|p| p.letter)
        .chain(rules.terrains().iter().map(|t| t.letter))
        .filter(char::is_ascii_alphabetic);
    for letter in letters {
        types.place(upper(letter), 0..LONG_TABLE - 1)?;
    }
    for (base, mark) in marked {
        types.mark_partner(base, mark)?;
    }
    Ok(types.text())
}

/// WinBoard's piece types being given letters.
#[derive(Default)]
struct Types {
    /// Per type but the royal one: a letter (upper case), or `+`/`~` for the promoted
    /// form of its partner.
    slots: Vec<Option<char>>,
    /// The letter of the royal type.
    royal: Option<char>,
}

impl Types {
    fn slot_of(&self, letter: char) -> Option<usize> {
        self.slots.iter().position(|&s| s == Some(letter))
    }

    fn is_free(&self, slot: usize) -> bool {
        self.slots.get(slot).is_none_or(Option::is_none)
    }

    fn set(&mut self, slot: usize, c: char) {
        if self.slots.len() <= slot {
            self.slots.resize(slot + 1, None);
        }
        self.slots[slot] = Some(c);
    }

    /// Gives `letter` a type in `range` (unless it has one, or is the royal type's):
    /// WinBoard's own type for it if free there, else the first free one.
    fn place(&mut self, letter: char, range: std::ops::Range<usize>) -> Result<(), String> {
        if self.slot_of(letter).is_some() || self.royal == Some(letter) {
            return Ok(());
        }
        let preferred = DEFAULT_LETTERS
            .find(letter)
            .filter(|s| range.contains(s) && self.is_free(*s));
        let slot = preferred
            .or_else(|| range.clone().find(|&s| self.is_free(s)))
            .ok_or_else(|| {
                format!(
                    "the game has more piece letters than WinBoard has piece types ({})",
                    LONG_TABLE - 1
                )
            })?;
        self.set(slot, letter);
        Ok(())
    }

    /// Gives `letter` a type whose promoted partner is free, unless it has one.
    fn place_paired(&mut self, letter: char) -> Result<(), String> {
        if self.slot_of(letter).is_some() {
            return Ok(());
        }
        let fits = |s: usize| self.is_free(s) && partner(s).is_some_and(|p| self.is_free(p));
        let preferred = DEFAULT_LETTERS.find(letter).filter(|&s| fits(s));
        let slot = preferred
            .or_else(|| (0..SHORT_TABLE - 1).find(|&s| fits(s)))
            .ok_or_else(|| format!("WinBoard has no piece type left for a promoted {letter}"))?;
        self.set(slot, letter);
        Ok(())
    }

    /// Marks the partner of `base`'s type as its promoted form (`+` or `~`).
    fn mark_partner(&mut self, base: char, mark: char) -> Result<(), String> {
        let partner = self
            .slot_of(base)
            .and_then(partner)
            .filter(|&p| self.is_free(p) || self.slots[p] == Some(mark))
            .ok_or_else(|| {
                format!("WinBoard cannot show the promoted form of {base}: its type is taken")
            })?;
        self.set(partner, mark);
        Ok(())
    }

    /// The table: per side the types in order, `.` for unused ones, the royal type last;
    /// white in upper case, black in lower case.
    fn text(&self) -> String {
        let size = if self.slots.len() < SHORT_TABLE {
            SHORT_TABLE
        } else {
            LONG_TABLE
        };
        let half = |case: fn(char) -> char| -> String {
            let mut s: String = (0..size - 1)
                .map(|i| self.slots.get(i).copied().flatten().map_or('.', case))
                .collect();
            s.push(self.royal.map_or('.', case));
            s
        };
        half(|c| c.to_ascii_uppercase()) + &half(|c| c.to_ascii_lowercase())
    }
}

/// The type WinBoard pairs with `slot` as its promoted form (or base), within the
/// types a short table gives letters to.
fn partner(slot: usize) -> Option<usize> {
    let p = if slot < PROMOTION_STEP {
        slot + PROMOTION_STEP
    } else {
        slot.checked_sub(PROMOTION_STEP)?
    };
    (p < SHORT_TABLE - 1 && slot < SHORT_TABLE - 1).then_some(p)
}
