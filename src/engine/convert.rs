//! Converting enemy pieces (`then convert enclosed`, `then convert adjacent`): which
//! pieces a move turns to the mover's side, turning them as part of the move (one
//! move, one undo: the cells are recorded in `Position::converted`) and turning them
//! back on unmake.

use super::Position;
use super::position::{MANY_CONVERTED, Move, Undo};
use crate::ids::Side;
use crate::model::Convert;
use crate::rules::{Cell, EMPTY, Effect, NO_CELL, code, kind_of, side_of};

impl Position {
    /// Would a conversion `how` by `side` landing on `m.to` turn at least one piece?
    /// Asked before the move is made: the square `m.from` counts as empty (the
    /// mover has left it).
    pub(crate) fn converts_any(&self, how: Convert, m: Move, side: Side) -> bool {
        if m.to == NO_CELL {
            return false;
        }
        let mut any = false;
        self.each_converted(how, m.to, m.from, side, |_| {
            any = true;
            false
        });
        any
    }

    /// Calls `f` on each cell a conversion `how` by `side` landing on `to` turns
    /// (`vacated` read as empty), until `f` returns false.
    fn each_converted(
        &self,
        how: Convert,
        to: Cell,
        vacated: Cell,
        side: Side,
        mut f: impl FnMut(Cell) -> bool,
    ) {
        let enemy =
            |c: Cell| c != vacated && self.board[c] != EMPTY && side_of(self.board[c]) != side;
        match how {
            Convert::Adjacent => {
                for c in self.rules.tables.blast.around(to) {
                    if enemy(c) && !f(c) {
                        return;
                    }
                }
            }
            Convert::Enclosed => {
                let lines = &self.rules.tables.lines;
                for d in 0..8 {
                    // Walk over enemy pieces; an own piece after at least one encloses.
                    let line = lines.line(to, d);
                    let mut run = 0;
                    let closed = loop {
                        match line.get(run) {
                            Some(&next) if enemy(next) => run += 1,
                            Some(&next) => break next != vacated && self.board[next] != EMPTY,
                            None => break false,
                        }
                    };
                    if !closed || run == 0 {
                        continue;
                    }
                    for &c in &line[..run] {
                        if !f(c) {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// The conversions of `m`'s generator, made on the board after the move by the
    /// side that made it (`self.side`, not yet switched). Returns the hash change.
    pub(super) fn convert(&mut self, m: Move, undo: &mut Undo) -> u64 {
        let effects = self.rules.tables.gens[m.generator].effects;
        if effects == 0 {
            return 0;
        }
        let list = effects as usize - 1;
        let mut converted = std::mem::take(&mut self.converted);
        let start = converted.len();
        let mut h = 0;
        for k in 0..self.rules.tables.gens.effects[list].len() {
            let Effect::Convert(how) = self.rules.tables.gens.effects[list][k] else {
                continue;
            };
            // Each rule reads the board the rules before it left: a piece is turned once.
            let first = converted.len();
            self.each_converted(how, m.to, NO_CELL, self.side, |c| {
                converted.push(c);
                true
            });
            for &cell in &converted[first..] {
                h ^= self.turn(cell, self.side);
            }
        }
        let count = converted.len() - start;
        undo.converted = match u8::try_from(count) {
            Ok(n) if n < MANY_CONVERTED => n,
            _ => {
                converted.push(Cell::new(count));
                MANY_CONVERTED
            }
        };
        self.converted = converted;
        h
    }

    /// Turns the piece on `cell` to `side`. Returns the hash change.
    fn turn(&mut self, cell: Cell, side: Side) -> u64 {
        let t = &self.rules.tables;
        let n = self.board.len();
        let was = self.board[cell];
        let now = code(kind_of(was), side);
        self.board[cell] = now;
        self.counts[was as usize] -= 1;
        self.counts[now as usize] += 1;
        if t.kinds.royal >> kind_of(was) & 1 != 0 {
            self.royals.remove(side_of(was), cell);
            self.royals.add(side, cell);
        }
        t.zobrist.piece[was as usize * n + cell.index()]
            ^ t.zobrist.piece[now as usize * n + cell.index()]
    }

    /// Turns back the last `count` converted pieces to the opponent of `mover`.
    pub(super) fn unconvert(&mut self, count: u8, mover: Side) {
        let count = if count == MANY_CONVERTED {
            self.converted.pop().map_or(0, Cell::index)
        } else {
            usize::from(count)
        };
        for _ in 0..count {
            let Some(cell) = self.converted.pop() else {
                return;
            };
            self.turn(cell, mover.opponent());
        }
    }
}
