//! `forbid check` with the board read as bits (`Legality::check_bits`): what
//! Fairy-Stockfish keeps as a position's check squares. Once per position, per kind,
//! the squares from which a piece of the mover's of that kind would capture the
//! opponent's one royal piece (the leapers' squares, and each line up to and
//! including its first piece), and the squares of the first pieces on those lines.
//! An ordinary move then gives check iff its piece lands on a check square of its
//! kind or, lifted from a first piece, it opens that line (to a piece of the mover's
//! behind it, or to itself further along it): only those moves read the lines again.

use super::blast::nearest;
use super::squares::{occupied_squares, up_to_first};
use super::{Move, Position};
use crate::rules::{Cell, EMPTY, kind_of, side_of};

/// The most kinds the check squares are kept for (a `u64` mask of kinds holds 64).
const KINDS: usize = 64;

/// The board as bits for the check test, read once per position.
pub(super) struct CheckBoard {
    occupied: u128,
    /// The opponent's one royal piece.
    royal: Cell,
    /// Per kind: the squares from which a piece of the mover's of that kind captures
    /// on `royal`, the board as it stands.
    checks: [u128; KINDS],
    /// The squares of the first pieces on the lines to `royal`: lifting one may
    /// open its line.
    firsts: u128,
    /// Whether `royal` is attacked now (then the masks are not asked).
    pub(super) checked: bool,
}

impl Position {
    /// The check squares for the opponent's royal piece on `royal` (see the module).
    /// Asked where `Legality::check_bits` holds: no lame leaps, no hoppers, no
    /// conditions on the entries, every ray read as bits.
    pub(super) fn check_board(&self, royal: Cell) -> CheckBoard {
        let at = &self.rules.tables.attacks;
        let us = self.side;
        let mut b = CheckBoard {
            occupied: occupied_squares(&self.board),
            royal,
            checks: [0; KINDS],
            firsts: 0,
            checked: false,
        };
        // Read here rather than by `Position::in_check`: the same entries, as bits.
        let attacker = |sq: usize, kinds: u64| {
            let c = self.board[sq];
            c != EMPTY && side_of(c) == us && kinds >> kind_of(c) & 1 != 0
        };
        for a in at.leaps_to(us, royal) {
            b.checked |= attacker(a.from.index(), a.kinds);
            let mut kinds = a.kinds;
            while kinds != 0 {
                b.checks[kinds.trailing_zeros() as usize] |= 1 << a.from.index();
                kinds &= kinds - 1;
            }
        }
        let (start, len) = at.ray_index[us][royal];
        for r in &at.ray_bits[start as usize..(start + len) as usize] {
            let pieces = r.line & b.occupied;
            // The squares up to the first piece, it included: the line's bits on the
            // near side of it, read from the end the line starts at.
            if let Some(first) = nearest(r, pieces) {
                b.firsts |= 1 << first;
                b.checked |= r.reach >> first & 1 != 0 && attacker(first, r.kinds);
            }
            let open = r.line & up_to_first(pieces, !r.rising) & r.reach;
            let mut kinds = r.kinds;
            while kinds != 0 {
                b.checks[kinds.trailing_zeros() as usize] |= open;
                kinds &= kinds - 1;
            }
        }
        b
    }

    /// With the opponent not in check: does the ordinary move `m` (a board step, no
    /// royal piece taken) give check? From the masks of `b` alone, unless it lifts a
    /// first piece of a line; then only the lines through its square are read.
    #[inline]
    pub(super) fn gives_check_bits(&self, b: &CheckBoard, m: Move) -> bool {
        let (from, to) = (m.from.index(), m.to.index());
        let placed = if m.promo != EMPTY {
            m.promo
        } else {
            self.board[from]
        };
        let kind = kind_of(placed);
        if b.checks[kind] >> to & 1 != 0 {
            return true;
        }
        if b.firsts >> from & 1 == 0 {
            // No line's first piece lifted: every line to the royal piece keeps its
            // first piece or gets a nearer one, and no leap is lame.
            return false;
        }
        let at = &self.rules.tables.attacks;
        let us = self.side;
        let occupied = b.occupied & !(1u128 << from) | 1u128 << to;
        let (start, len) = at.ray_index[us][b.royal];
        for r in &at.ray_bits[start as usize..(start + len) as usize] {
            if r.line >> from & 1 == 0 {
                continue;
            }
            let Some(first) = nearest(r, r.line & occupied) else {
                continue;
            };
            if r.reach >> first & 1 == 0 {
                continue;
            }
            // The piece now first out along the line: the one moved, or one that
            // stood behind the square it left.
            let c = if first == to {
                placed
            } else {
                self.board[first]
            };
            if c != EMPTY && side_of(c) == us && r.kinds >> kind_of(c) & 1 != 0 {
                return true;
            }
        }
        false
    }
}
