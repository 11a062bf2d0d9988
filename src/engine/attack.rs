//! "Is this square attacked?", answered from the reverse tables: from the target
//! outward, along the leaps and lines by which a piece could capture on it.

use super::lookup::Gen;
use super::{Move, Position};
use crate::ids::Side;
use crate::rules::{Cell, LeapAttack, RayAttack, kind_of, side_of};
use crate::syntax::betza::Hop;

pub(crate) fn attacked(pos: &Position, cell: Cell, by: Side) -> bool {
    attacked_as(pos, cell, by, 0)
}

/// Is `cell` attacked by `by`, were `victim` standing on it (when it is empty; 0:
/// as it stands)? Captures under conditions on the piece taken ask it.
pub(crate) fn attacked_as(pos: &Position, cell: Cell, by: Side, victim: u8) -> bool {
    let t = &pos.rules.tables;
    // The piece a capture there would take, for the entries that ask it.
    let taken = || match pos.board[cell] {
        0 => victim,
        c => c,
    };
    if t.attacks
        .leaps_to(by, cell)
        .iter()
        .any(|a| leap_attacks(pos, a, by, taken))
        || t.attacks
            .rays_to(by, cell)
            .iter()
            .any(|r| ray_attacks(pos, r, by, taken))
    {
        return true;
    }
    let board = &pos.board;
    // Captures under conditions on the position's state, asked of the pieces (when
    // `by` has any of them on the board).
    if t.attacks.dynamic_kinds != 0 && has_any_of(pos, t.attacks.dynamic_kinds, by) {
        let mut found = false;
        // `by`'s squares, eight read at once (most squares are empty).
        super::squares::for_each_own_square(board, by, |from| {
            let c = board[from];
            found = found
                || (t.attacks.dynamic_kinds >> kind_of(c) & 1 != 0
                    && captures_on(pos, Cell::new(from), c, cell, victim));
        });
        if found {
            return true;
        }
    }
    // A two-faced piece that may flip attacks as its other face too.
    for &from in &t.targets.flip_cells[by] {
        let c = board[from];
        if c == 0 || side_of(c) != by {
            continue;
        }
        if let Some(other) = pos.flip_face(from)
            && captures_on(pos, from, other, cell, victim)
        {
            return true;
        }
    }
    false
}

/// Is the royal piece on `cell` attacked by `by` along a line or lame path of the
/// reverse tables that crosses a square of `through` (bits of a `u128`)? With the
/// side not in check before a move of a non-royal piece, only those can have opened,
/// and the board is read as it stands. Only where the tables have the cells' bits
/// (`Attacks::ray_cells`) and no piece is asked directly (`Legality::on_board`).
/// With `LEAPERS`, also the leaps from a square of `through` (a piece moved there).
/// Always inlined: called apart, it cost the games that test legality this way 1% of
/// their instructions.
#[inline(always)]
pub(crate) fn attacked_through<const LEAPERS: bool>(
    pos: &Position,
    cell: Cell,
    by: Side,
    through: u128,
) -> bool {
    let at = &pos.rules.tables.attacks;
    let taken = || pos.board[cell];
    let (start, len) = at.leap_index[by][cell];
    let (start, end) = (start as usize, (start + len) as usize);
    for (a, &path) in at.leaps[start..end].iter().zip(&at.leap_cells[start..end]) {
        let crosses = path & through != 0 || (LEAPERS && through >> a.from.index() & 1 != 0);
        if crosses && leap_attacks(pos, a, by, taken) {
            return true;
        }
    }
    let (start, len) = at.ray_index[by][cell];
    let (start, end) = (start as usize, (start + len) as usize);
    for (r, &line) in at.rays[start..end].iter().zip(&at.ray_cells[start..end]) {
        if line & through != 0 && ray_attacks(pos, r, by, taken) {
            return true;
        }
    }
    false
}

/// Does a piece of `by` capture by the leap `a` (onto the piece `taken` says)?
#[inline(always)]
fn leap_attacks(pos: &Position, a: &LeapAttack, by: Side, taken: impl Fn() -> u8) -> bool {
    let t = &pos.rules.tables;
    let c = pos.board[a.from];
    c != 0
        && side_of(c) == by
        && a.kinds >> kind_of(c) & 1 != 0
        && t.attacks
            .path(a)
            .iter()
            .all(|&p| pos.passable(p, kind_of(c)))
        && (a.cond == 0 || t.attacks.conds[a.cond as usize].holds(0, 0, taken()))
}

/// Does a piece of `by` capture along the ray `r` (onto the piece `taken` says)?
/// Walks out from the target to the first piece (past the screen, for a hopper).
#[inline(always)]
fn ray_attacks(pos: &Position, r: &RayAttack, by: Side, taken: impl Fn() -> u8) -> bool {
    let t = &pos.rules.tables;
    let board = &pos.board;
    let line = t.attacks.line(r);
    let mut kinds = r.kinds;
    let mut screen = 0;
    for (k, &sq) in line.iter().enumerate() {
        let c = board[sq];
        if c == 0 {
            kinds = pos.kinds_crossing(sq, kinds);
            if kinds == 0 {
                return false;
            }
            if r.hop == Hop::Grasshopper && screen == 0 {
                return false; // a grasshopper's screen stands right next to its landing square
            }
            continue;
        }
        match r.hop {
            Hop::None => {
                return (k as u16) < r.max
                    && side_of(c) == by
                    && kinds >> kind_of(c) & 1 != 0
                    && (r.cond == 0 || t.attacks.conds[r.cond as usize].holds(k, 0, taken()));
            }
            _ if screen == 0 => screen = c,
            _ => {
                return side_of(c) == by
                    && kinds >> kind_of(c) & 1 != 0
                    && (r.cond == 0 || t.attacks.conds[r.cond as usize].holds(k, screen, taken()));
            }
        }
    }
    false
}

/// Has `by` a piece of one of the types in the mask `kinds` on the board?
fn has_any_of(pos: &Position, kinds: u64, by: Side) -> bool {
    let mut bits = kinds;
    while bits != 0 {
        let kind = bits.trailing_zeros() as usize;
        if pos.counts[crate::rules::code(kind, by) as usize] != 0 {
            return true;
        }
        bits &= bits - 1;
    }
    false
}

/// Could the piece on `from`, moving as `face`, capture on `target`? Walks its moves
/// forward; used where the reverse tables do not apply.
pub(crate) fn captures_on(pos: &Position, from: Cell, face: u8, target: Cell, victim: u8) -> bool {
    let rules = &*pos.rules;
    let t = &rules.tables;
    let n = pos.board.len();
    let kind = kind_of(face);
    let mut g = Gen::new(pos, rules);
    g.victim = victim;
    let (start, len) = t.steps.index[face as usize * n + from.index()];
    for step in &t.steps.list[start as usize..(start + len) as usize] {
        let comp = &t.gens[step.generator];
        if !comp.can_capture || (comp.initial && !pos.unmoved[from]) {
            continue;
        }
        if !t
            .gens
            .conds(comp)
            .iter()
            .all(|c| pos.condition_holds(&g, c, Move::new(from, target, step.generator)))
        {
            continue;
        }
        let line = t.steps.line(step);
        if !step.rider {
            let path = t.steps.path(step);
            if line[0] == target && path.iter().all(|&p| pos.passable(p, kind)) {
                return true;
            }
            continue;
        }
        let mut screened = comp.hop == Hop::None;
        for &sq in line {
            if sq == target {
                if screened {
                    return true;
                }
                break;
            }
            if pos.board[sq] != 0 {
                if screened {
                    break;
                }
                screened = true;
            } else if !pos.passable(sq, kind) || (comp.hop == Hop::Grasshopper && screened) {
                break;
            }
        }
    }
    false
}

impl Position {
    /// Is `cell` attacked by a piece of `by`?
    pub fn attacked(&self, cell: Cell, by: Side) -> bool {
        attacked(self, cell, by)
    }
}

/// The least valuable piece of `by` (by `value`) that attacks `cell` by the reverse
/// tables, the cells in `gone` taken as empty (pieces already exchanged on `cell`),
/// with its square. Captures under conditions (the tables' `conds` included) and
/// two-faced pieces are not followed: [`Position::exchange`] is not used under rules
/// that have them.
pub(crate) fn least_attacker(
    pos: &Position,
    cell: Cell,
    by: Side,
    gone: &[Cell],
    value: impl Fn(u8) -> i32,
) -> Option<(Cell, u8)> {
    let t = &pos.rules.tables;
    let board = &pos.board;
    let at = |sq: Cell| {
        if gone.contains(&sq) { 0 } else { board[sq] }
    };
    let mut best: Option<(Cell, u8)> = None;
    let mut consider = |sq: Cell, c: u8| {
        if best.is_none_or(|(_, b)| value(c) < value(b)) {
            best = Some((sq, c));
        }
    };
    for a in t.attacks.leaps_to(by, cell) {
        let c = at(a.from);
        if c != 0 && side_of(c) == by && a.kinds >> kind_of(c) & 1 != 0 {
            let path = t.attacks.path(a);
            if path
                .iter()
                .all(|&p| (at(p) == 0) && pos.terrain_lets_pass(p, kind_of(c)))
            {
                consider(a.from, c);
            }
        }
    }
    for r in t.attacks.rays_to(by, cell) {
        let line = t.attacks.line(r);
        let mut kinds = r.kinds;
        let mut screened = false;
        for (k, &sq) in line.iter().enumerate() {
            let c = at(sq);
            if c == 0 {
                kinds = pos.kinds_crossing(sq, kinds);
                if kinds == 0 {
                    break;
                }
                if r.hop == Hop::Grasshopper && !screened {
                    break;
                }
                continue;
            }
            match r.hop {
                Hop::None => {
                    if (k as u16) < r.max && side_of(c) == by && kinds >> kind_of(c) & 1 != 0 {
                        consider(sq, c);
                    }
                    break;
                }
                _ if !screened => screened = true,
                _ => {
                    if side_of(c) == by && kinds >> kind_of(c) & 1 != 0 {
                        consider(sq, c);
                    }
                    break;
                }
            }
        }
    }
    best
}
