//! Legality where captures explode, with the board read as bits (`Legality::blast_bits`):
//! an explosion is a mask of squares, the board after a move the occupied squares
//! with that mask taken away, and a line's first piece the lowest or highest bit of
//! the occupied squares on it. Nothing is put on the board, so nothing is put back.

use super::squares::{for_each_bit, occupied_squares};
use super::{Move, Position};
use crate::ids::Side;
use crate::rules::{Cell, EMPTY, RayBits, kind_of, side_of};

/// The board as bits, read once per position: every legal move of it is tested
/// against the same masks.
pub(super) struct BlastBoard {
    occupied: u128,
    /// The royal pieces of the side to move, and of its opponent.
    ours: u128,
    theirs: u128,
    /// The opponent's royal pieces beside which a royal piece of the mover's is
    /// never attacked: those of kinds an explosion takes (a capture next to one
    /// would blow up the capturer's own).
    beside: u128,
    /// The squares whose emptying may open a line or lame path to a royal piece of
    /// the side to move (`Attacks::uncover`).
    uncover: u128,
    /// The squares of the mover's pieces that alone stand between one of its royal
    /// pieces and an enemy piece that would capture it along a line, and those of
    /// the lame leaps' paths to it: lifting any other piece exposes none.
    pinned: u128,
    /// No royal piece of the side to move is attacked (not even one beside an enemy
    /// royal piece): a move can then attack one only along a line or lame path
    /// through a square it empties, and only those are asked.
    unattacked: bool,
}

impl BlastBoard {
    /// Is no royal piece of the side to move attacked (see the field)?
    pub(super) fn unattacked(&self) -> bool {
        self.unattacked
    }
}

impl Position {
    /// The side to move's board as bits, where `Legality::blast_bits` holds.
    pub(super) fn blast_board(&self) -> BlastBoard {
        let t = &self.rules.tables;
        let (us, them) = (self.side, self.side.opponent());
        let occupied = occupied_squares(&self.board);
        let bits = |side: Side, kinds: u64| {
            (self.royals.of(side).iter())
                .filter(|&&k| kinds >> kind_of(self.board[k]) & 1 != 0)
                .fold(0u128, |m, k| m | 1 << k.index())
        };
        let mut b = BlastBoard {
            occupied,
            ours: bits(us, !0),
            theirs: bits(them, !0),
            beside: bits(them, !t.blast.spared),
            uncover: 0,
            pinned: 0,
            unattacked: true,
        };
        for_each_bit(b.ours, |k| {
            let (attacked, pinned) = self.pins_bits(Cell::new(k), them, occupied);
            b.uncover |= t.attacks.uncover[them][k];
            b.pinned |= pinned;
            b.unattacked &= !attacked;
        });
        b
    }

    /// Is the royal piece on `cell` attacked by `by` (beside an enemy royal piece or
    /// not), and which squares' pieces alone shield it from a piece of `by` along a
    /// line (the first piece out, when the second is such a piece)? Every square of
    /// the lame leaps' paths to it counts as shielding.
    fn pins_bits(&self, cell: Cell, by: Side, occupied: u128) -> (bool, u128) {
        let at = &self.rules.tables.attacks;
        let (start, len) = at.leap_index[by][cell];
        let (start, end) = (start as usize, (start + len) as usize);
        let mut pinned = 0;
        for (a, &path) in at.leaps[start..end].iter().zip(&at.leap_cells[start..end]) {
            pinned |= path;
            if path & occupied == 0 && self.is_attacker(a.from.index(), a.kinds, by) {
                return (true, 0);
            }
        }
        let (start, len) = at.ray_index[by][cell];
        for r in &at.ray_bits[start as usize..(start + len) as usize] {
            let pieces = r.line & occupied;
            let Some(first) = nearest(r, pieces) else {
                continue;
            };
            if self.captures_along(r, first, by) {
                return (true, 0);
            }
            if let Some(second) = nearest(r, pieces & !(1 << first))
                && self.captures_along(r, second, by)
            {
                pinned |= 1 << first;
            }
        }
        (false, pinned)
    }

    /// Is the side to move's one royal piece, on `royal`, in check (attacked, and
    /// not beside an enemy royal piece that an explosion would take)?
    pub(super) fn lone_royal_checked(&self, b: &BlastBoard, royal: Cell) -> bool {
        !b.unattacked && self.rules.tables.blast.around_bits[royal] & b.beside == 0
    }

    /// Is the ordinary move `m` (`Position::is_board_step`, no royal piece made by
    /// promotion) legal where captures explode: it blows up no royal piece of the
    /// mover's, and blows up one of the opponent's or leaves none of the mover's
    /// attacked? As `blast_on_board` answers, from the masks of `b` and the board
    /// as it stands.
    #[inline]
    pub(super) fn blast_legal_bits(&self, b: &BlastBoard, m: Move) -> bool {
        let t = &self.rules.tables;
        let royal = |c| c != EMPTY && t.kinds.royal >> kind_of(c) & 1 != 0;
        let (from, to) = (m.from.index(), m.to.index());
        let (piece, taken) = (self.board[from], self.board[to]);
        if taken == EMPTY {
            if royal(piece) {
                // Where it lands, every line is asked.
                let moved = |bits: u128| bits & !(1u128 << from) | 1u128 << to;
                return self.royals_safe::<true>(b, moved(b.ours), moved(b.occupied), !0);
            }
            // Lifting a piece that shields no royal piece exposes none, and landing
            // one only shields (no hoppers here).
            if b.unattacked && b.pinned >> from & 1 == 0 {
                return true;
            }
            let occupied = b.occupied & !(1u128 << from) | 1u128 << to;
            return self.royals_safe_asking(b, occupied, 1u128 << from);
        }
        // A capture: the capturer goes with the piece taken (a royal capturer blows
        // itself up), and with them every piece around of a kind not spared.
        if royal(piece) {
            return false;
        }
        let mut blast = 1u128 << from | 1u128 << to;
        for_each_bit(t.blast.around_bits[to] & b.occupied, |c| {
            if t.blast.spared >> kind_of(self.board[c]) & 1 == 0 {
                blast |= 1 << c;
            }
        });
        if blast & b.ours != 0 {
            return false;
        }
        if blast & b.theirs != 0 {
            return true; // it wins, whatever it leaves attacked
        }
        if b.unattacked && blast & b.uncover == 0 {
            return true;
        }
        self.royals_safe_asking(b, b.occupied & !blast, blast)
    }

    /// [`Self::royals_safe`] asking, when no royal piece of the mover was attacked
    /// before the move, only the lines and lame paths through the squares it changed
    /// (`through`), else all of them.
    #[inline(always)]
    fn royals_safe_asking(&self, b: &BlastBoard, occupied: u128, through: u128) -> bool {
        if b.unattacked {
            self.royals_safe::<false>(b, b.ours, occupied, through)
        } else {
            self.royals_safe::<true>(b, b.ours, occupied, !0)
        }
    }

    /// Are the royal pieces on `ours` safe, with the pieces on `occupied`: each beside
    /// an enemy royal piece that an explosion would take (no capture there can be
    /// made), or not attacked by the lines and paths through `through` (`FULL`: by
    /// every entry, the leaps' too)?
    #[inline(always)]
    fn royals_safe<const FULL: bool>(
        &self,
        b: &BlastBoard,
        ours: u128,
        occupied: u128,
        through: u128,
    ) -> bool {
        let t = &self.rules.tables;
        let them = self.side.opponent();
        let mut rest = ours;
        while rest != 0 {
            let k = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if t.blast.around_bits[k] & b.beside == 0
                && self.attacked_bits::<FULL>(Cell::new(k), them, occupied, through)
            {
                return false;
            }
        }
        true
    }

    /// Is `cell` attacked by `by` with the pieces on `occupied` (the board's pieces
    /// read where those bits are set: the squares a move emptied are not, and a
    /// square it filled holds a piece of the mover's, which the board there, empty,
    /// does not make an attacker)? Only the rays through `through` are asked and,
    /// unless `FULL`, only the lame leaps whose path crosses it: a non-royal piece
    /// that moved or blew up cannot bring a leaper's attack otherwise.
    #[inline(always)]
    fn attacked_bits<const FULL: bool>(
        &self,
        cell: Cell,
        by: Side,
        occupied: u128,
        through: u128,
    ) -> bool {
        let at = &self.rules.tables.attacks;
        if FULL || at.lame_leaps {
            let (start, len) = at.leap_index[by][cell];
            let (start, end) = (start as usize, (start + len) as usize);
            for (a, &path) in at.leaps[start..end].iter().zip(&at.leap_cells[start..end]) {
                let from = a.from.index();
                if (FULL || path & through != 0)
                    && occupied >> from & 1 != 0
                    && path & occupied == 0
                    && self.is_attacker(from, a.kinds, by)
                {
                    return true;
                }
            }
        }
        let (start, len) = at.ray_index[by][cell];
        for r in &at.ray_bits[start as usize..(start + len) as usize] {
            if r.line & through == 0 {
                continue;
            }
            if let Some(first) = nearest(r, r.line & occupied)
                && self.captures_along(r, first, by)
            {
                return true;
            }
        }
        false
    }

    /// Does the piece on `sq`, a square of the ray `r`, capture along it (a piece of
    /// `by`, of one of its kinds, within its reach)?
    #[inline(always)]
    fn captures_along(&self, r: &RayBits, sq: usize, by: Side) -> bool {
        r.reach >> sq & 1 != 0 && self.is_attacker(sq, r.kinds, by)
    }

    /// Is the piece on `sq` one of `by`'s, of a kind of the mask `kinds`?
    #[inline(always)]
    fn is_attacker(&self, sq: usize, kinds: u64, by: Side) -> bool {
        let c = self.board[sq];
        c != EMPTY && side_of(c) == by && kinds >> kind_of(c) & 1 != 0
    }
}

/// The square of `pieces` (squares of the ray `r`'s line) nearest its target: its
/// lowest or highest bit, as the line runs up or down the square indices.
#[inline(always)]
pub(super) fn nearest(r: &RayBits, pieces: u128) -> Option<usize> {
    if pieces == 0 {
        None
    } else if r.rising {
        Some(pieces.trailing_zeros() as usize)
    } else {
        Some(127 - pieces.leading_zeros() as usize)
    }
}
