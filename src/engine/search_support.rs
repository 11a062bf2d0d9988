//! What the search asks of the engine beyond the move generator's own interface: a
//! search tries moves one at a time and stops at the first that refutes, so it takes
//! the pseudo-legal moves and tests each only when it plays it, instead of testing
//! every move up front as [`Position::legal_moves_into`] does.

use super::{Move, MoveKind, Position};
use crate::ids::Side;
use crate::rules::{Cell, Code, EMPTY, Rules, kind_of};

/// Is leaving no royal piece attacked the whole of legality under these rules? Not
/// with a `facing` rule, forbidden checks, drops that may not mate, an illegal
/// stalemate, forced captures, a pass made only when stuck, moves with a second
/// part or conditions read after the move: those need
/// [`Position::legal_moves_into`].
pub(crate) fn legality_is_royal_safety(rules: &Rules) -> bool {
    rules.tables.ends.facing.is_none()
        && rules.stuck_pass.is_none()
        && !rules.forbid_check
        && !rules.must_capture
        && rules.tables.hands.no_mate_by_drop == 0
        && !rules.stalemate_illegal
        && !rules.tables.kinds.explodes
        && !rules.must_drop
        && rules.tables.kinds.both_colours == 0
        && !rules.tables.kinds.two_part
        && !rules.tables.kinds.after
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
        if !t.legality.fast {
            return false;
        }
        let royal = |c: Code| c != EMPTY && t.kinds.royal >> kind_of(c) & 1 != 0;
        match m.kind {
            MoveKind::EnPassant | MoveKind::Castle | MoveKind::Swap | MoveKind::Rifle => {
                return false;
            }
            MoveKind::Drop => return t.kinds.royal >> t.gens[m.generator].piece & 1 == 0,
            MoveKind::Pass => return true,
            _ => {}
        }
        if royal(self.board[m.from]) || royal(m.promo) {
            return false;
        }
        let n = self.board.len();
        let from = m.from.index();
        !self.royals.of(self.side).iter().any(|&k| {
            let bit = k.index() * n + from;
            t.legality.between[bit / 64] >> (bit % 64) & 1 != 0
        })
    }

    /// After a move by `side`: does it leave one of its royal pieces attacked (the
    /// test [`Position::is_legal`] makes)?
    #[inline]
    pub(crate) fn royal_left_attacked(&self, side: Side) -> bool {
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

impl Position {
    /// The least valuable piece of `by` (by `value`) that attacks `cell`, with its
    /// square, read from the reverse attack tables: meaningful only where
    /// [`crate::rules::Tables::attacks_tabled`]. A piece of `by` standing on `cell` is not
    /// in the way: asked for its owner, this tells whether it is defended.
    #[inline]
    pub fn cheapest_attacker(
        &self,
        cell: Cell,
        by: Side,
        value: impl Fn(Code) -> i32,
    ) -> Option<(Cell, Code)> {
        super::attack::least_attacker(self, cell, by, &[], value)
    }
}

impl Position {
    /// The static exchange evaluation of a move: what the mover gains if both sides
    /// then take on the target square with their least valuable piece, each free to
    /// stop (for a move that takes nothing: 0, or what it stands to lose), by `value` (a royal piece should be worth more than any other).
    /// `None` where the reverse attack tables do not tell every capture (captures
    /// under conditions, two-faced pieces, a capture that does not land where it
    /// takes, a hopper making it): the caller falls back on the victim's value.
    pub fn exchange(&self, m: Move, value: impl Fn(Code) -> i32) -> Option<i32> {
        let t = &self.rules.tables;
        if !t.attacks_tabled()
            || !matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep)
            || m.from.index() >= self.board.len()
            || m.to.index() >= self.board.len()
        {
            return None;
        }
        let info = &t.gens[m.generator];
        if info.stays || info.hop != crate::syntax::betza::Hop::None {
            return None;
        }
        let mut gain = [0i32; 40];
        let mut gone = [Cell::default(); 40];
        gone[0] = m.from;
        gain[0] = self.victim(m).map_or(0, &value);
        let mut on_square = if m.promo != EMPTY && !m.kind.is_gate() {
            value(m.promo)
        } else {
            value(self.board[m.from])
        };
        let mut side = self.side.opponent();
        let mut d = 0;
        while d + 1 < gain.len() {
            d += 1;
            gain[d] = on_square - gain[d - 1];
            if (-gain[d - 1]).max(gain[d]) < 0 {
                break;
            }
            let Some((cell, piece)) =
                super::attack::least_attacker(self, m.to, side, &gone[..d], &value)
            else {
                break;
            };
            gone[d] = cell;
            on_square = value(piece);
            side = side.opponent();
        }
        while d > 1 {
            d -= 1;
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        }
        Some(gain[0])
    }
}
