//! Moves as users write them: UCI coordinates (`e2e4`, `e7e8q`, `f12g12`), with the
//! game-site forms `g1-g2` and `f12xg12` accepted too.
//!
//! One writer ([`MoveText::text`]) and one reader ([`read_move_text`]) of move texts:
//! finding the move a user typed and explaining why it is illegal read it alike.

use super::outcome::NoMove;
use super::{Move, MoveKind, Position};
use crate::ids::Side;
use crate::rules::{Cell, EMPTY, Rules, code, kind_of, side_of};

impl Position {
    /// The text of a move: `e2e4`, `e7e8q` (promotion, or a flip to the lettered
    /// face), `P@c2` (a piece from the hand), `c8off` (leaving the board), `d4e5!` (a
    /// capture without moving), `swap` (the pie rule), `e2e2` or `pass` (a pass).
    pub fn move_text(&self, m: Move) -> String {
        self.move_parts(m).text(&self.rules)
    }

    /// The parts of a move, as [`read_move_text`] reads its text.
    pub fn move_parts(&self, m: Move) -> MoveText {
        let first = self.first_part(m);
        match m.second_part() {
            // Written from where the piece landed, as Fairy-Stockfish writes it.
            Some(to) => MoveText::Then {
                first: Box::new(first),
                from: m.target().or(m.origin()).unwrap_or(to),
                to,
            },
            None => first,
        }
    }

    /// The parts of a move but for its second part.
    pub(super) fn first_part(&self, m: Move) -> MoveText {
        let rules = &*self.rules;
        let geo = &rules.geometry;
        match m.kind {
            MoveKind::Swap => MoveText::Swap,
            MoveKind::Pass => self.pass_text(self.side),
            MoveKind::Drop => {
                let kind = rules.tables.gens[m.generator].piece as usize;
                MoveText::Drop {
                    letter: drop_symbol(rules, kind, self.side),
                    square: geo.name(m.to).to_string(),
                    cell: Some(m.to),
                }
            }
            MoveKind::Exit => MoveText::Exit {
                square: geo.name(m.from).to_string(),
                cell: Some(m.from),
            },
            // The piece brought in, as a promotion's letter; onto a castling partner's
            // square, from that square to the king-like piece's (as Fairy-Stockfish
            // writes it: `h1e1h`).
            MoveKind::Gate | MoveKind::CastleGate | MoveKind::CastleGatePartner => {
                let (from, to) = if m.kind == MoveKind::CastleGatePartner {
                    (self.gate_of(m), m.from)
                } else {
                    (m.from, m.to)
                };
                MoveText::Squares {
                    from,
                    to,
                    promo: Some(promo_char(rules, EMPTY, m.promo)),
                    rifle: false,
                    tag: rules.tables.gens.tags[m.generator].clone(),
                }
            }
            _ => MoveText::Squares {
                from: m.from,
                to: m.to,
                promo: (m.promo != EMPTY).then(|| promo_char(rules, self.board[m.from], m.promo)),
                rifle: m.kind == MoveKind::Rifle,
                tag: rules.tables.gens.tags[m.generator].clone(),
            },
        }
    }

    /// A pass by `side`, written as the null move of its royal piece when it has
    /// exactly one (`e2e2`, as Fairy-Stockfish writes it); in a game without royal
    /// pieces, as the null move of its piece on the lowest square of the main board
    /// (`a1a1`, Fairy-Stockfish's too); else `pass`.
    fn pass_text(&self, side: Side) -> MoveText {
        match self.royals.of(side) {
            &[cell] => MoveText::PassAt(cell),
            _ if self.rules.tables.kinds.royal == 0 => self
                .rules
                .geometry
                .board_cells(0)
                .map(Cell::new)
                .find(|&c| self.board[c] != EMPTY && side_of(self.board[c]) == side)
                .map_or(MoveText::Pass, MoveText::PassAt),
            _ => MoveText::Pass,
        }
    }

    /// The text of the last move made, if any.
    pub fn last_move_text(&self) -> Option<String> {
        let m = self.last_move()?;
        if m.kind == MoveKind::Pass {
            // Made by the side not to move now.
            return Some(self.pass_text(self.side.opponent()).text(&self.rules));
        }
        if m.kind == MoveKind::Drop {
            let rules = &*self.rules;
            let placed = self.board[m.to];
            return Some(format!(
                "{}@{}",
                drop_symbol(rules, kind_of(placed), side_of(placed)),
                rules.geometry.name(m.to)
            ));
        }
        Some(self.move_text(m))
    }

    /// Finds the legal move a user typed.
    pub fn parse_move(&mut self, text: &str) -> Result<Move, NoMove> {
        if let Some(message) = too_long(text) {
            return Err(NoMove { message });
        }
        let moves = self.legal_moves();
        if let Some(typed) = read_move_text(&self.rules, text) {
            if let MoveText::Drop { letter, .. } = &typed
                && others_letter(&self.rules, self.side, letter)
            {
                return Err(NoMove {
                    message: format!("`{text}` is not a legal move here"),
                });
            }
            let parts: Vec<MoveText> = moves.iter().map(|&m| self.move_parts(m)).collect();
            if let Some(i) = parts.iter().position(|p| typed.names(p)) {
                return Ok(moves[i]);
            }
            // A move whose text has a suffix naming its effects needs none where no
            // other legal move has its squares.
            if let MoveText::Squares { tag, .. } = &typed
                && tag.is_empty()
            {
                let same: Vec<usize> = (0..moves.len())
                    .filter(|&i| typed.names_untagged(&parts[i]))
                    .collect();
                if let [i] = same[..] {
                    return Ok(moves[i]);
                }
            }
            // A move that must promote, to a single choice, needs no letter.
            if let MoveText::Squares {
                from,
                to,
                promo: None,
                rifle,
                ..
            } = typed
            {
                let same: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| {
                        m.from == from && m.to == to && (m.kind == MoveKind::Rifle) == rifle
                    })
                    .collect();
                // (A flip, which is never forced, still needs its letter.)
                if let [m] = same[..]
                    && m.promo != EMPTY
                    && !self.rules.pieces[kind_of(self.board[m.from])]
                        .promotions
                        .is_empty()
                {
                    return Ok(m);
                }
            }
        }
        Err(NoMove {
            message: format!("`{text}` is not a legal move here"),
        })
    }

    /// Plays a move a user typed, if it is legal.
    pub fn play(&mut self, text: &str) -> Result<Move, NoMove> {
        let m = self.parse_move(text)?;
        self.make(m);
        Ok(m)
    }
}

/// Does a placement's letter name a piece of the other player than `side`, where each
/// player's pieces are their own (so that the letter's case names the player)?
pub(crate) fn others_letter(rules: &Rules, side: Side, letter: &str) -> bool {
    let mut chars = letter.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return false;
    };
    rules.kind_for(side.opponent(), c).is_some_and(|k| {
        rules.pieces[k].owner.is_some() && rules.code_symbol(code(k, side.opponent())) == letter
    }) && rules
        .kind_for(side, c)
        .is_none_or(|o| rules.code_symbol(code(o, side)) != letter)
}

/// The piece of a drop as written: upper case for either player, as UCI writes drops,
/// unless the piece is one player's own (its case then names it).
fn drop_symbol(rules: &Rules, kind: usize, side: Side) -> String {
    let side = if rules.pieces[kind].owner.is_some() {
        side
    } else {
        Side::First
    };
    rules.code_symbol(code(kind, side))
}

/// The suffix that names a move's new face: `+` for a promoted form written `+P`
/// (as Fairy-Stockfish writes such promotions), `-` for a promoted form `+P` turning
/// back into `P` (as it writes demotions), else the face's letter in lower case.
/// `mover` is the piece that moves (`EMPTY` if not known).
pub(crate) fn promo_char(
    rules: &Rules,
    mover: crate::rules::Code,
    promo: crate::rules::Code,
) -> char {
    let p = &rules.pieces[kind_of(promo)];
    if mover != EMPTY {
        let was = &rules.pieces[kind_of(mover)];
        if was.mark == crate::rules::Mark::Plus
            && p.mark == crate::rules::Mark::Plain
            && was.letter.eq_ignore_ascii_case(&p.letter)
        {
            return '-';
        }
    }
    match p.mark {
        crate::rules::Mark::Plus => '+',
        _ => p.letter.to_ascii_lowercase(),
    }
}

/// A move text read into its parts. [`read_move_text`] is the one reader of what a
/// user types: [`Position::parse_move`] compares its reading with each legal move's
/// parts, and the explanation of an illegal move ([`Position::why_illegal`]) reads the
/// same parts, so the two never read a text differently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveText {
    /// `swap`: the pie rule.
    Swap,
    /// `pass`.
    Pass,
    /// `P@c2`: a piece from the hand. The letter and the square as typed; `cell` is
    /// the square, if the text names one.
    Drop {
        letter: String,
        square: String,
        cell: Option<Cell>,
    },
    /// `c8off`: the piece leaves the board; the square as typed, and its cell.
    Exit { square: String, cell: Option<Cell> },
    /// `e2e4`, `e7e8q` (the letter of the new face), `d4e5!` (a capture without
    /// moving), `b1a3/B` (a `tag` naming the move's effects, where another move of the
    /// piece has the same squares: see `move_tags` in the rules' tables); typed also as
    /// `g1-g2` or `f12xg12`.
    Squares {
        from: Cell,
        to: Cell,
        promo: Option<char>,
        rifle: bool,
        tag: String,
    },
    /// A pass written as the null move of the side's royal piece on this square
    /// (`e2e2`), in a game that passes; typed also as `pass`.
    PassAt(Cell),
    /// A move with a second part, `d1d4,d4g7`: the first part, then the square it is
    /// written from (where the piece landed) and the square terrain is put on.
    Then {
        first: Box<MoveText>,
        from: Cell,
        to: Cell,
    },
}

impl MoveText {
    /// The text of the move: `e2e4`, `e7e8q`, `P@c2`, `c8off`, `d4e5!`, `swap`,
    /// `pass` (a drop's square and an exit's as held).
    pub fn text(&self, rules: &Rules) -> String {
        match self {
            MoveText::Swap => "swap".into(),
            MoveText::Pass => "pass".into(),
            MoveText::PassAt(cell) => {
                let name = rules.geometry.name(*cell);
                format!("{name}{name}")
            }
            MoveText::Drop { letter, square, .. } => format!("{letter}@{square}"),
            MoveText::Exit { square, .. } => format!("{square}off"),
            MoveText::Then { first, from, to } => {
                let geo = &rules.geometry;
                format!("{},{}{}", first.text(rules), geo.name(*from), geo.name(*to))
            }
            MoveText::Squares {
                from,
                to,
                promo,
                rifle,
                tag,
            } => {
                let geo = &rules.geometry;
                let mut s = format!("{}{}", geo.name(*from), geo.name(*to));
                s.extend(promo);
                if *rifle {
                    s.push('!');
                }
                if !tag.is_empty() {
                    s.push('/');
                    s.push_str(tag);
                }
                s
            }
        }
    }

    /// Does the text a user typed (this reading) name the move with the parts `m`,
    /// but for the suffix naming its effects? Only for moves between squares.
    fn names_untagged(&self, m: &MoveText) -> bool {
        match (self, m) {
            (
                MoveText::Squares {
                    from,
                    to,
                    promo,
                    rifle,
                    ..
                },
                MoveText::Squares {
                    from: f,
                    to: t,
                    promo: p,
                    rifle: r,
                    ..
                },
            ) => {
                (from, to, rifle) == (f, t, r)
                    && promo.map(|c| c.to_ascii_lowercase()) == p.map(|c| c.to_ascii_lowercase())
            }
            (MoveText::Then { .. }, MoveText::Then { .. }) => {
                self.then_names(m, MoveText::names_untagged)
            }
            _ => false,
        }
    }

    /// Two moves with second parts: the same second part, and first parts that
    /// `first_names` matches.
    fn then_names(&self, m: &MoveText, first_names: fn(&MoveText, &MoveText) -> bool) -> bool {
        match (self, m) {
            (
                MoveText::Then { first, from, to },
                MoveText::Then {
                    first: f,
                    from: x,
                    to: y,
                },
            ) => (from, to) == (x, y) && first_names(first, f),
            _ => false,
        }
    }

    /// Does the text a user typed (this reading) name the move with the parts `m`?
    /// Letters match in either case, as users type them.
    pub(super) fn names(&self, m: &MoveText) -> bool {
        match (self, m) {
            (
                MoveText::Drop {
                    letter: a,
                    cell: Some(x),
                    ..
                },
                MoveText::Drop {
                    letter: b,
                    cell: Some(y),
                    ..
                },
            ) => a.eq_ignore_ascii_case(b) && x == y,
            (MoveText::Squares { tag, .. }, MoveText::Squares { tag: t, .. }) => {
                self.names_untagged(m) && tag.eq_ignore_ascii_case(t)
            }
            (MoveText::Exit { cell: Some(x), .. }, MoveText::Exit { cell: Some(y), .. }) => x == y,
            (MoveText::Swap, MoveText::Swap)
            | (MoveText::Pass, MoveText::Pass | MoveText::PassAt(_)) => true,
            (MoveText::PassAt(x), MoveText::PassAt(y)) => x == y,
            (MoveText::Then { .. }, MoveText::Then { .. }) => self.then_names(m, MoveText::names),
            _ => false,
        }
    }
}

/// Reads a move text into its parts, `None` if it is none of the forms of a move.
/// Whitespace is ignored, squares are read in any case, and a `-` or `x` between the
/// digit ending one square and the letter starting the next is a separator.
pub fn read_move_text(rules: &Rules, text: &str) -> Option<MoveText> {
    if too_long(text).is_some() {
        return None;
    }
    let t = normalise(text);
    let geo = &rules.geometry;
    if let Some((first, second)) = t.split_once(',') {
        let MoveText::Squares {
            from,
            to,
            promo: None,
            rifle: false,
            ..
        } = read_squares(rules, second)?
        else {
            return None;
        };
        return Some(MoveText::Then {
            first: Box::new(read_move_text(rules, first)?),
            from,
            to,
        });
    }
    match t.as_str() {
        "swap" => return Some(MoveText::Swap),
        "pass" => return Some(MoveText::Pass),
        _ => {}
    }
    if let Some((letter, square)) = t.split_once('@') {
        return Some(MoveText::Drop {
            letter: letter.to_string(),
            square: square.to_string(),
            cell: geo.parse_square(&square.to_lowercase()),
        });
    }
    let exit = t.strip_suffix("off").map(|square| MoveText::Exit {
        square: square.to_string(),
        cell: geo.parse_square(square),
    });
    if let Some(exit @ MoveText::Exit { cell: Some(_), .. }) = exit {
        return Some(exit);
    }
    read_squares(rules, &t).or(exit)
}

/// The longest move text read, in bytes. The longest move any game writes is a few
/// dozen characters (`P@c12`, `f12xg12!`, `c12off`, with spaces): a longer text is a
/// mistake, and refusing it up front keeps the reading, which tries every split of
/// the text into squares, from growing with the square of the text's length.
pub const MAX_MOVE_TEXT_BYTES: usize = 64;

/// Why `text` is too long to be a move, if it is.
pub fn too_long(text: &str) -> Option<String> {
    (text.len() > MAX_MOVE_TEXT_BYTES).then(|| {
        let start: String = text.chars().take(16).collect();
        format!(
            "`{start}…` ({} bytes) is not a move: a move text is at most {MAX_MOVE_TEXT_BYTES} bytes",
            text.len()
        )
    })
}

/// Reads `FROM TO [letter] [!] [/TAG]`: the longest square names that leave a valid
/// rest (square names are read apart, so at most one reading is valid).
fn read_squares(rules: &Rules, t: &str) -> Option<MoveText> {
    let geo = &rules.geometry;
    let (t, tag) = t.split_once('/').unwrap_or((t, ""));
    // The squares a text starts with, longest first.
    let squares = |s: &str| {
        (1..=s.len())
            .rev()
            .filter(|&k| s.is_char_boundary(k))
            .filter_map(|k| Some((geo.parse_square(&s[..k])?, k)))
            .collect::<Vec<_>>()
    };
    for (from, k) in squares(t) {
        let rest = &t[k..];
        for (to, k) in squares(rest) {
            let tail = &rest[k..];
            let (tail, rifle) = match tail.strip_suffix('!') {
                Some(tail) => (tail, true),
                None => (tail, false),
            };
            let mut chars = tail.chars();
            let promo = match (chars.next(), chars.next()) {
                (None, _) => None,
                (Some(c), None) if c != '!' => Some(c),
                _ => continue,
            };
            // A square written twice is a pass, in a game that passes.
            if from == to && promo.is_none() && !rifle && tag.is_empty() && rules.has_pass() {
                return Some(MoveText::PassAt(from));
            }
            return Some(MoveText::Squares {
                from,
                to,
                promo,
                rifle,
                tag: tag.to_string(),
            });
        }
    }
    None
}

/// Drops whitespace, lower-cases the text (but for a placement, whose letter's case
/// names the player, and the suffix after a `/`, kept as typed) and drops the
/// separators of `g1-g2` and `f12xg12`.
fn normalise(text: &str) -> String {
    let t: String = text.split_whitespace().collect();
    let t = match t.split_once('/') {
        _ if t.contains('@') => t,
        Some((head, tag)) => format!("{}/{tag}", head.to_lowercase()),
        None => t.to_lowercase(),
    };
    let bytes: Vec<char> = t.chars().collect();
    let mut out = String::new();
    for (i, &c) in bytes.iter().enumerate() {
        let between_squares = i > 0
            && bytes[i - 1].is_ascii_digit()
            && bytes.get(i + 1).is_some_and(char::is_ascii_alphabetic);
        if (c == '-' || c == 'x') && between_squares {
            continue;
        }
        out.push(c);
    }
    out
}
