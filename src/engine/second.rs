//! Two-part moves: after the piece moves, the mover puts terrain on a square of their
//! choice — a new one (an amazon's arrow, shot from where it landed) or the one on the
//! board, moved (the duck). The second part belongs to the move: one move, one text
//! (`d1d4,d4g7`), one undo. The move generator makes the first parts; the legal moves
//! are each of them with every square its second part may use, found on the board as
//! the first part leaves it.

use super::notation::MoveText;
use super::{Move, Position};
use crate::ids::Side;
use crate::model::{Along, Placement};
use crate::rules::{Cell, EMPTY, NO_CELL};

impl Position {
    /// The second part of `m`'s generator, if its moves have one.
    #[inline]
    pub(crate) fn placement_of(&self, m: Move) -> Option<Placement> {
        let t = &self.rules.tables;
        match t.gens[m.generator].place {
            0 => None,
            i => Some(t.gens.placements[i as usize - 1]),
        }
    }

    /// Replaces the moves `out[first..]` whose generators have a second part by one
    /// move per square it may use (a first part with none is no move).
    pub(super) fn add_second_parts(&mut self, out: &mut Vec<Move>, first: usize) {
        let mut firsts = self.scratch.lend();
        firsts.extend(out.drain(first..));
        for &m in &firsts {
            let Some(p) = self.placement_of(m) else {
                out.push(m);
                continue;
            };
            let mover = self.side;
            self.make(m);
            self.second_squares(m, &p, mover, |cell| out.push(Move { second: cell, ..m }));
            self.unmake();
        }
        self.scratch.give_back(firsts);
    }

    /// Is `cell` free for terrain: no piece, no terrain?
    #[inline]
    fn free(&self, cell: Cell) -> bool {
        self.board[cell] == EMPTY && self.terrain[cell] == 0
    }

    /// Calls `found` with each square the second part `p` of `m` (made, by `mover`)
    /// may use: along its lines from where the piece landed, or any free square of the
    /// main board.
    fn second_squares(&self, m: Move, p: &Placement, mover: Side, mut found: impl FnMut(Cell)) {
        let geo = &self.rules.geometry;
        let Some(along) = p.along else {
            for cell in geo.board_cells(0) {
                let cell = Cell::new(cell);
                if self.free(cell) {
                    found(cell);
                }
            }
            return;
        };
        let Some(start) = m.target().or(m.origin()) else {
            return;
        };
        // Forward is the mover's.
        let sign = if mover == Side::First { 1 } else { -1 };
        for (dx, dy) in Along::steps(along.leaps) {
            if let Some(cell) = geo.offset(start, i32::from(dx), sign * i32::from(dy))
                && self.free(cell)
            {
                found(cell);
            }
        }
        for (dx, dy) in Along::steps(along.rides) {
            let mut at = start;
            let mut steps = 0;
            while let Some(cell) = geo.offset(at, i32::from(dx), sign * i32::from(dy)) {
                if !self.free(cell) {
                    break;
                }
                found(cell);
                steps += 1;
                if steps == along.range {
                    break;
                }
                at = cell;
            }
        }
    }

    /// Makes the second part of `m`: lifts the terrain it moves (if any stands), puts
    /// it on `m.second`. Returns the hash change and the square it was lifted from.
    pub(super) fn make_second(&mut self, m: Move) -> (u64, Cell) {
        let Some(p) = self.placement_of(m) else {
            return (0, NO_CELL);
        };
        let z = &self.rules.tables.zobrist;
        let n = self.board.len();
        let t = p.terrain + 1;
        let key = |cell: Cell| z.terrain[usize::from(p.terrain) * n + cell.index()];
        let mut h = key(m.second);
        let mut lifted = NO_CELL;
        if p.lift
            && let Some(at) = self.terrain.iter().position(|&x| x == t)
        {
            lifted = Cell::new(at);
            self.terrain[at] = 0;
            h ^= key(lifted);
        }
        self.terrain[m.second] = t;
        (h, lifted)
    }

    /// Takes back the second part of `m` (the hash is restored by the caller).
    pub(super) fn unmake_second(&mut self, m: Move, lifted: Cell) {
        let t = self.terrain[m.second];
        self.terrain[m.second] = 0;
        if lifted != NO_CELL {
            self.terrain[lifted] = t;
        }
    }

    /// Why a typed move is not legal, where the answer is about second parts: a move
    /// typed without the second part its first part needs, or with a second part on a
    /// square it may not use. `None` where the answer lies elsewhere.
    pub(super) fn why_second_part(&mut self, typed: &MoveText) -> Option<String> {
        if !self.rules.tables.kinds.two_part {
            return None;
        }
        let rules = self.rules.clone();
        let geo = &rules.geometry;
        let first = match typed {
            MoveText::Then { first, .. } => first,
            other => other,
        };
        let moves = self.legal_moves();
        let same: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| m.second != NO_CELL && first.names(&self.first_part(m)))
            .collect();
        let example = same.first().map(|&m| self.move_text(m))?;
        let MoveText::Then { from, to, .. } = typed else {
            return Some(format!(
                "this move has a second part, written after a comma: such as {example}"
            ));
        };
        let landing = same[0].target().or(same[0].origin())?;
        if *from != landing {
            return Some(format!(
                "the second part is written from where the piece lands, {}: such as {example}",
                geo.name(landing)
            ));
        }
        let squares: Vec<&str> = same.iter().map(|m| geo.name(m.second)).collect();
        let shown = squares.len().min(12);
        let more = if squares.len() > shown { ", …" } else { "" };
        Some(format!(
            "after this move, terrain may not be put on {}: it may go on {}{more}",
            geo.name(*to),
            squares[..shown].join(", ")
        ))
    }
}
