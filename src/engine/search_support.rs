//! What the search asks of the engine beyond the move generator's own interface: a
//! search tries moves one at a time and stops at the first that refutes, so it takes
//! the pseudo-legal moves and tests each only when it plays it, instead of testing
//! every move up front as [`Position::legal_moves_into`] does.

use super::{Move, MoveKind, Position};
use crate::rules::{Code, EMPTY, Rules, kind_of};

/// Is leaving no royal piece attacked the whole of legality under these rules? Not
/// with a `facing` rule, forbidden checks, drops that may not mate or an illegal
/// stalemate: those need [`Position::legal_moves_into`].
pub(crate) fn legality_is_royal_safety(rules: &Rules) -> bool {
    rules.tables.facing.is_none()
        && !rules.forbid_check
        && rules.tables.no_mate_by_drop == 0
        && !rules.stalemate_illegal
}

impl Position {
    /// With the side to move not in check: is `m` sure to leave its royal pieces
    /// unattacked, without playing it? As the legal-move filter decides it: true for
    /// a placement of a non-royal piece, a pass, and a move by a non-royal piece (that
    /// stays non-royal) from a square on no line to a royal piece. Moves that empty a
    /// second square are always played out.
    #[inline]
    pub(crate) fn surely_safe(&self, m: Move) -> bool {
        let t = &self.rules.tables;
        if !t.fast_legality {
            return false;
        }
        let royal = |c: Code| c != EMPTY && t.royal_kinds >> kind_of(c) & 1 != 0;
        match m.kind {
            MoveKind::EnPassant | MoveKind::Castle | MoveKind::Swap | MoveKind::Rifle => {
                return false;
            }
            MoveKind::Drop => return t.royal_kinds >> t.gens[m.generator as usize].piece & 1 == 0,
            MoveKind::Pass => return true,
            _ => {}
        }
        if royal(self.board[m.from as usize]) || royal(m.promo) {
            return false;
        }
        let n = self.board.len();
        let from = m.from as usize;
        !self.royals.of(self.side).iter().any(|&k| {
            let bit = k as usize * n + from;
            t.between[bit / 64] >> (bit % 64) & 1 != 0
        })
    }

    /// After a move by `side`: does it leave one of its royal pieces attacked (the
    /// test [`Position::is_legal`] makes)?
    #[inline]
    pub(crate) fn royal_left_attacked(&self, side: usize) -> bool {
        self.royals.count(side) != 0 && self.in_check(side)
    }

    /// How many times the current position has occurred, this time included, by its
    /// hash alone: [`Position::repetitions`] without confirming a match on the
    /// positions themselves (which copies the position).
    pub(crate) fn repetitions_by_hash(&self) -> u32 {
        let len = self.history.len();
        // Only positions since the last irreversible move can repeat.
        let back = (self.halfmove as usize).min(len);
        1 + self.history[len - back..]
            .iter()
            .filter(|u| u.hash == self.hash)
            .count() as u32
    }
}
