//! Moves as users write them: UCI coordinates (`e2e4`, `e7e8q`, `f12g12`), with the
//! game-site forms `g1-g2` and `f12xg12` accepted too.

use super::outcome::NoMove;
use super::{Move, MoveKind, Position};
use crate::rules::{EMPTY, code, kind_of};

impl Position {
    /// The text of a move: `e2e4`, `e7e8q` (promotion, or a flip to the lettered
    /// face), `P@c2` (a piece from the hand), `c8off` (leaving the board), `d4e5!` (a
    /// capture without moving), `swap` (the pie rule), `pass`.
    pub fn move_text(&self, m: Move) -> String {
        let rules = &*self.rules;
        let geo = &rules.geometry;
        let mut s = match m.kind {
            MoveKind::Swap => return "swap".into(),
            MoveKind::Pass => return "pass".into(),
            MoveKind::Drop => {
                return format!(
                    "{}@{}",
                    rules.code_letter(code(
                        rules.tables.gens[m.generator as usize].piece as usize,
                        self.side
                    )),
                    geo.name(m.to)
                );
            }
            MoveKind::Exit => return format!("{}off", geo.name(m.from)),
            _ => format!("{}{}", geo.name(m.from), geo.name(m.to)),
        };
        if m.promo != EMPTY {
            s.push(rules.pieces[kind_of(m.promo)].letter.to_ascii_lowercase());
        }
        if m.kind == MoveKind::Rifle {
            s.push('!');
        }
        s
    }

    /// The text of the last move made, if any.
    pub fn last_move_text(&self) -> Option<String> {
        let m = self.last_move()?;
        if m.kind == MoveKind::Drop {
            let rules = &*self.rules;
            return Some(format!(
                "{}@{}",
                rules.code_letter(self.board[m.to as usize]),
                rules.geometry.name(m.to)
            ));
        }
        Some(self.move_text(m))
    }

    /// Finds the legal move a user typed.
    pub fn parse_move(&mut self, text: &str) -> Result<Move, NoMove> {
        let norm = normalise(text).to_lowercase();
        let moves = self.legal_moves();
        if let Some(m) = moves
            .iter()
            .find(|&&m| self.move_text(m).to_lowercase() == norm)
        {
            return Ok(*m);
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

/// Lower-cases the squares and drops the separators of `g1-g2` and `f12xg12`.
fn normalise(text: &str) -> String {
    let t: String = text.split_whitespace().collect();
    let t = if t.contains('@') { t } else { t.to_lowercase() };
    let bytes: Vec<char> = t.chars().collect();
    let mut out = String::new();
    for (i, &c) in bytes.iter().enumerate() {
        let between_squares = i > 0
            && bytes[i - 1].is_ascii_digit()
            && bytes.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic());
        if (c == '-' || c == 'x') && between_squares {
            continue;
        }
        out.push(c);
    }
    out
}
