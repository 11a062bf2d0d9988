//! Legality: which pseudo-legal moves leave the mover's royal pieces unattacked, and
//! the rules that look one reply ahead (`forbid mate-by-drop`, `stalemate illegal`).
//!
//! Playing a move out (make, "is a royal piece attacked?", unmake) always answers;
//! the fast paths below answer most moves without it, when the tables say attacks
//! are read from the board alone (no hoppers, no flips, no captures under conditions
//! on the position's state):
//! - the pieces that alone shield a royal piece from an enemy line or lame leap (the
//!   pins) are found once per position; any ordinary move of another piece is legal;
//! - a plain step of a lone royal piece is legal when its target is not attacked
//!   with the piece moved there on the board alone (no hash, no history).

use std::sync::Arc;

use super::blast::BlastBoard;
use super::squares::own_squares_in_word;
use super::{Move, MoveKind, Position};
use crate::ids::Side;
use crate::model::Cond;
use crate::rules::{
    Cell, Code, EMPTY, LeapAttack, NO_CELL, PieceKind, RayAttack, code, kind_of, side_of,
};
use crate::syntax::betza::Hop;

/// More pins than this (with several royal pieces on a large board) and legality
/// plays out the moves of every piece on a line to a royal piece instead.
const MAX_PINS: usize = 16;

/// The squares of the side to move's pieces that alone stand between one of its royal
/// pieces and an enemy piece that would capture it were they lifted.
struct Pins {
    cells: [Cell; MAX_PINS],
    len: usize,
}

impl Pins {
    /// Adds a pinned square; `None` when the list is full.
    fn add(&mut self, cell: Cell) -> Option<()> {
        *self.cells.get_mut(self.len)? = cell;
        self.len += 1;
        Some(())
    }

    /// A loop rather than `slice::contains`, which is not inlined for `u16`: this
    /// is asked once per piece per position.
    #[inline]
    fn contains(&self, cell: Cell) -> bool {
        for &pinned in &self.cells[..self.len] {
            if pinned == cell {
                return true;
            }
        }
        false
    }
}

impl Position {
    /// Every legal move, appended to `out` (which is cleared first).
    pub fn legal_moves_into(&mut self, out: &mut Vec<Move>) {
        out.clear();
        if self.decided().is_some() {
            return;
        }
        // With one royal piece, the check test is whether its square is attacked,
        // which castling asks too: it is answered once, before the moves are made.
        let us = self.side;
        let lone_royal = match self.royals.of(us) {
            &[royal] if self.rules.tables.kinds.royal != 0 => Some(royal),
            _ => None,
        };
        if self.blast_bits_apply(us) {
            self.safe_moves_blast_bits(out, lone_royal);
        } else {
            let known = lone_royal.map(|royal| (royal, self.royal_attacked(royal, us)));
            self.pseudo_moves_knowing(known, out);
            if self.rules.tables.kinds.two_part {
                self.add_second_parts(out, 0);
            }
            self.keep_safe_moves(out, known.map(|(_, attacked)| attacked));
        }
        if self.rules.must_drop || self.rules.tables.kinds.both_colours != 0 {
            self.placement_rules(out);
        }
        if self.rules.forbid_check {
            self.keep_non_checking(out);
        }
        if self.rules.tables.kinds.after {
            out.retain(|&m| self.after_conditions_hold(m));
        }
        if self.rules.tables.hands.no_mate_by_drop != 0 {
            self.forbid_mating_drops(out);
        }
        if self.rules.must_capture {
            self.keep_captures(out);
        }
        if self.rules.stalemate_illegal && !out.is_empty() {
            self.forbid_stalemating(out);
        }
        if out.is_empty()
            && let Some(pass) = self.stuck_pass()
        {
            out.push(pass);
        }
    }

    /// `forbid check`: keeps the moves that give no check. Where attacks are read from
    /// the board alone and the opponent is not in check now, an ordinary move can give
    /// check only along an entry of the reverse tables through one of its squares:
    /// moves with both squares outside every entry to the opponent's royal pieces
    /// (`Attacks::reach`) are kept at once, the others ask only the entries through
    /// their squares.
    fn keep_non_checking(&mut self, out: &mut Vec<Move>) {
        let t = &self.rules.tables;
        let (us, them) = (self.side, self.side.opponent());
        let on_board =
            t.legality.on_board && !t.kinds.special_check && !t.attacks.reach[us].is_empty();
        if on_board
            && t.legality.check_bits
            && let &[royal] = self.royals.of(them)
        {
            self.keep_non_checking_bits(out, royal);
            return;
        }
        if !on_board || self.in_check(them) {
            out.retain(|&m| !self.gives_check(m));
            return;
        }
        let at = &t.attacks;
        let royals = self.royals.of(them);
        let reach = (royals.iter()).fold(0u128, |r, &k| r | at.reach[us][k]);
        let uncover = (royals.iter()).fold(0u128, |r, &k| r | at.uncover[us][k]);
        let screens = (royals.iter()).fold(0u128, |r, &k| r | at.screens[us][k]);
        let kinds = self.rules.pieces.len();
        out.retain(|&m| {
            let royal_taken =
                |c: Code| c != EMPTY && self.rules.tables.kinds.royal >> kind_of(c) & 1 != 0;
            if !self.is_board_step(m) || royal_taken(self.board[m.to]) {
                return !self.gives_check(m);
            }
            let (from, to) = (1u128 << m.from.index(), 1u128 << m.to.index());
            let through = from | to;
            if through & reach == 0 {
                return true;
            }
            // A check needs the piece placed to capture on a royal square from where
            // it lands, or a line or path opened by the square it leaves, or a screen.
            let placed = if m.promo != EMPTY {
                m.promo
            } else {
                self.board[m.from]
            };
            let at = &self.rules.tables.attacks;
            let kind = kind_of(placed);
            let direct = (self.royals.of(them).iter())
                .any(|&k| at.direct[us][k.index() * kinds + kind] & to != 0);
            if !direct && from & uncover == 0 && through & screens == 0 {
                return true;
            }
            !self.checks_through(m, through)
        });
    }

    /// [`Self::keep_non_checking`] where `Legality::check_bits` holds and the opponent
    /// has one royal piece, on `royal`: its check squares are found once
    /// (`Position::check_board`) and each ordinary move asks them.
    fn keep_non_checking_bits(&mut self, out: &mut Vec<Move>, royal: Cell) {
        let b = self.check_board(royal);
        if b.checked {
            out.retain(|&m| !self.gives_check(m));
            return;
        }
        out.retain(|&m| {
            let royal_taken =
                |c: Code| c != EMPTY && self.rules.tables.kinds.royal >> kind_of(c) & 1 != 0;
            if !self.is_board_step(m) || royal_taken(self.board[m.to]) {
                return !self.gives_check(m);
            }
            !self.gives_check_bits(&b, m)
        });
    }

    /// With the opponent not in check: does the ordinary move `m` give check? Put on
    /// the board, asking only the entries through `through`, its squares (and the
    /// leaps from where the piece lands).
    fn checks_through(&mut self, m: Move, through: u128) -> bool {
        let (us, them) = (self.side, self.side.opponent());
        self.royal_attacked_after::<true>(m, through, them, us)
    }

    /// Do the conditions of `m`'s generator that are read on the position it makes
    /// (`checking`, `attacking`) hold?
    pub(crate) fn after_conditions_hold(&mut self, m: Move) -> bool {
        if !self.rules.tables.gens[m.generator].after {
            return true;
        }
        let rules = Arc::clone(&self.rules);
        rules.generators[m.generator]
            .conditions
            .iter()
            .all(|c| self.after_condition_holds(m, c))
    }

    /// Does `cond`, if it is read on the position `m` makes, hold for `m`? (Other
    /// conditions are read while generating: true here.)
    pub(crate) fn after_condition_holds(&mut self, m: Move, cond: &Cond) -> bool {
        match *cond {
            Cond::Checking { yes } => self.gives_check(m) == yes,
            Cond::Attacking { yes } => self.attacks_after(m) == yes,
            _ => true,
        }
    }

    /// Once `m` is made, does the piece where it landed attack a piece of the
    /// opponent (as it could capture it)?
    fn attacks_after(&mut self, m: Move) -> bool {
        let Some(to) = m.target() else {
            return false;
        };
        let us = self.side;
        self.make(m);
        let piece = self.board[to];
        let attacks = piece != EMPTY
            && side_of(piece) == us
            && (0..self.board.len()).any(|cell| {
                let c = self.board[cell];
                c != EMPTY
                    && side_of(c) != us
                    && super::attack::captures_on(self, to, piece, Cell::new(cell), 0)
            });
        self.unmake();
        attacks
    }

    /// `pass when-stuck`: the pass of a side to move with no other legal move, if
    /// the game has one and the side has a piece on the board (as Fairy-Stockfish
    /// passes, with a piece's null move).
    fn stuck_pass(&self) -> Option<Move> {
        let id = self.rules.stuck_pass?;
        let us = self.side;
        let on_board =
            (1..self.counts.len()).any(|c| self.counts[c] > 0 && side_of(c as Code) == us);
        on_board.then(|| Move {
            kind: MoveKind::Pass,
            ..Move::new(NO_CELL, NO_CELL, id)
        })
    }

    /// The rules of a placement phase: `both-colours` placements, then `must-drop`
    /// (while the side to move holds pieces and may place one, it must).
    fn placement_rules(&self, out: &mut Vec<Move>) {
        if self.rules.tables.kinds.both_colours != 0 {
            out.retain(|&m| m.kind != MoveKind::Drop || self.colours_allow(m));
        }
        let kinds = self.rules.pieces.len();
        let us = self.side.index();
        if self.rules.must_drop
            && self.hand[us * kinds..(us + 1) * kinds]
                .iter()
                .any(|&n| n > 0)
            && out.iter().any(|m| m.kind == MoveKind::Drop)
        {
            out.retain(|m| m.kind == MoveKind::Drop);
        }
    }

    /// `both-colours`: may the placement `m` be made? A piece of such a kind may not
    /// go on a colour that already has its share (half, rounded up, of the player's
    /// pieces of the kind, on the board and in hand); any other placement must leave
    /// enough empty squares of each colour where those pieces are placed, counting the
    /// squares they stand on (Fairy-Stockfish's dropOppositeColoredBishop).
    fn colours_allow(&self, m: Move) -> bool {
        let rules = &*self.rules;
        let t = &rules.tables;
        let us = self.side;
        let kinds = rules.pieces.len();
        let placed = t.gens[m.generator].piece as usize;
        let dark = |c: Cell| rules.geometry.cells[c].dark;
        (0..kinds)
            .filter(|&b| t.kinds.both_colours >> b & 1 != 0)
            .all(|b| {
                let own = code(b, us);
                let total =
                    usize::from(self.counts[own as usize] + self.hand[us.index() * kinds + b]);
                let on = |want: bool| {
                    (0..self.board.len())
                        .filter(|&c| self.board[c] == own && dark(Cell::new(c)) == want)
                        .count()
                };
                if placed == b {
                    return on(dark(m.to)) < total.div_ceil(2);
                }
                let Some(&id) = t.kinds.drops[b].first() else {
                    return true;
                };
                let free = |want: bool| {
                    (t.targets.of(id, us, NO_CELL).iter())
                        .filter(|&&c| c != m.to && self.board[c] == EMPTY && dark(c) == want)
                        .count()
                };
                [true, false]
                    .into_iter()
                    .all(|d| on(d) + free(d) >= total / 2)
            })
    }

    /// `must-capture`: when some of the legal moves `out` capture, keeps only those.
    /// Whether the side has a legal move does not change, so nothing that asks only
    /// that ([`Self::has_legal_moves`]) needs this.
    fn keep_captures(&self, out: &mut Vec<Move>) {
        if out.iter().any(|&m| self.victim(m).is_some()) {
            out.retain(|&m| self.victim(m).is_some());
        }
    }

    /// Every legal move.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        let mut out = Vec::with_capacity(64);
        self.legal_moves_into(&mut out);
        out
    }

    /// Keeps the pseudo-legal moves that leave no royal piece of the mover attacked
    /// (and, under a `facing` rule, that end a facing).
    fn keep_safe_moves(&mut self, out: &mut Vec<Move>, checked: Option<bool>) {
        let t = &self.rules.tables;
        if t.kinds.royal == 0 {
            if self.facing_now().is_some() {
                out.retain(|&m| self.is_legal(m));
            }
            return;
        }
        let us = self.side;
        if self.blast_bits_apply(us) {
            let b = self.blast_board();
            self.keep_safe_blast_bits(out, &b);
            return;
        }
        let checked = checked.unwrap_or_else(|| self.in_check(us));
        if t.legality.blast_on_board
            && !t.attacks.ray_cells.is_empty()
            && self.royals.count(us) != 0
            && self.facing_now().is_none()
            && !(self.royals.of(us).iter()).any(|&k| self.attacked(k, us.opponent()))
        {
            // No royal piece attacked, not even beside the enemy's: a move can expose
            // one only along a line or path through a square it changes.
            out.retain(|&m| {
                self.off_royal_lines(m)
                    || if self.is_board_step(m) {
                        self.blast_on_board(m, true)
                    } else {
                        self.is_legal(m)
                    }
            });
            return;
        }
        if self.royals.count(us) == 0 || checked || self.facing_now().is_some() {
            out.retain(|&m| self.is_legal(m));
        } else if t.legality.fast {
            self.keep_safe_unchecked(out);
        } else {
            out.retain(|&m| self.is_legal_unchecked(m));
        }
    }

    /// Whether `us`'s moves are tested against the board's masks
    /// (`Legality::blast_bits`): it has a royal piece, and no facing rule applies now.
    #[inline]
    fn blast_bits_apply(&self, us: Side) -> bool {
        self.rules.tables.legality.blast_bits
            && self.royals.count(us) != 0
            && self.facing_now().is_none()
    }

    /// The pseudo-legal moves kept by [`Self::keep_safe_blast_bits`], where the
    /// board is read as bits for the explosion test (`Legality::blast_bits`, which
    /// has no second parts): its masks, read first, answer the check test that the
    /// generator asks for castling too. Apart, so that the other games' path keeps
    /// no masks on its stack.
    #[inline(never)]
    fn safe_moves_blast_bits(&mut self, out: &mut Vec<Move>, lone_royal: Option<Cell>) {
        let b = self.blast_board();
        let known = lone_royal.map(|royal| (royal, self.lone_royal_checked(&b, royal)));
        self.pseudo_moves_knowing(known, out);
        self.keep_safe_blast_bits(out, &b);
    }

    /// [`Self::keep_safe_moves`] where captures explode and the board is read as bits
    /// (`Legality::blast_bits`), no facing rule applying now: the board's masks `b`
    /// are read once per position, and each ordinary move is tested against them,
    /// without putting it or its explosion on the board (the other moves are played
    /// out).
    fn keep_safe_blast_bits(&mut self, out: &mut Vec<Move>, b: &BlastBoard) {
        let royal_kinds = self.rules.tables.kinds.royal;
        out.retain(|&m| {
            let makes_royal = m.promo != EMPTY && royal_kinds >> kind_of(m.promo) & 1 != 0;
            if self.is_board_step(m) && !makes_royal {
                self.blast_legal_bits(b, m)
            } else {
                b.unattacked() && self.off_royal_lines(m) || self.is_legal(m)
            }
        });
    }

    /// With the side to move not in check and not facing: is `m` legal? Without
    /// playing it when it keeps off every line to a royal piece; on the board alone,
    /// asking only the lines through its squares, when attacks are read from it.
    #[inline]
    fn is_legal_unchecked(&mut self, m: Move) -> bool {
        if self.off_royal_lines(m) {
            return true;
        }
        let t = &self.rules.tables;
        if t.legality.on_board
            && !t.kinds.special_check
            && !t.attacks.ray_cells.is_empty()
            && self.is_board_move(m)
        {
            return self.legal_through(m);
        }
        self.is_legal(m)
    }

    /// [`Self::is_legal`] for a move that [`Self::is_board_move`], with the side to
    /// move neither in check nor facing, where attacks are read from the board alone
    /// (`Legality::on_board`): the attackers stay where they are and none attacks a
    /// royal piece now, so an attack after the move runs along a line or lame path
    /// through one of its two squares (lifting a shield, or placing or changing a
    /// hopper's screen); only those are asked, with the move put on the board.
    fn legal_through(&mut self, m: Move) -> bool {
        let (us, them) = (self.side, self.side.opponent());
        let through = 1u128 << m.from.index() | 1u128 << m.to.index();
        !self.royal_attacked_after::<false>(m, through, us, them)
    }

    /// Is a royal piece of `owner` attacked by `by` once the ordinary move `m` is put
    /// on the board (and taken back)? Only the reverse tables' entries whose line or
    /// path crosses `through` are asked (with `LEAPERS`, also the leaps from it):
    /// the caller knows no other entry can have changed.
    #[inline(always)]
    fn royal_attacked_after<const LEAPERS: bool>(
        &mut self,
        m: Move,
        through: u128,
        owner: Side,
        by: Side,
    ) -> bool {
        let (from, to) = (m.from.index(), m.to.index());
        let piece = std::mem::replace(&mut self.board[from], EMPTY);
        let placed = if m.promo != EMPTY { m.promo } else { piece };
        let taken = std::mem::replace(&mut self.board[to], placed);
        let attacked = (self.royals.of(owner).iter())
            .any(|&k| super::attack::attacked_through::<LEAPERS>(self, k, by, through));
        self.board[to] = taken;
        self.board[from] = piece;
        attacked
    }

    /// Is `m` a move or placement of a non-royal piece (staying non-royal) whose
    /// squares lie on no line to a royal piece of the mover (`Legality::between`, built
    /// from every piece type's captures, flipped faces and hoppers included)? With the
    /// mover not in check such a move is legal: lifting the piece opens no line and
    /// landing it screens none for a hopper. Not where `closer-to` conditions measure
    /// distances that a move changes.
    fn off_royal_lines(&self, m: Move) -> bool {
        let t = &self.rules.tables;
        if t.kinds.located != 0 {
            return false;
        }
        match m.kind {
            MoveKind::Drop if t.kinds.royal >> t.gens[m.generator].piece & 1 != 0 => {
                return false;
            }
            MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Exit if self.is_royal_move(m) => {
                return false;
            }
            MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Exit | MoveKind::Drop => {}
            // A pass without effects leaves the board as it is: where attacks are read
            // from the board alone, the mover stays out of check (as `cannot_expose`
            // reads it on the fast path).
            MoveKind::Pass => {
                return t.legality.on_board && t.gens[m.generator].effects == 0;
            }
            _ => return false,
        }
        // An explosion may take away a shield, or a royal piece.
        !(self.on_royal_line(m.from)
            || self.on_royal_line(m.to)
            || (t.kinds.explodes && self.board[m.to] != EMPTY))
    }

    /// Does `cell` (if a square) lie between a royal piece of the side to move and a
    /// square from which some piece could capture it?
    #[inline]
    fn on_royal_line(&self, cell: Cell) -> bool {
        if cell == NO_CELL {
            return false;
        }
        let t = &self.rules.tables;
        let n = self.board.len();
        self.royals.of(self.side).iter().any(|&k| {
            let bit = k.index() * n + cell.index();
            t.legality.between[bit / 64] >> (bit % 64) & 1 != 0
        })
    }

    /// With the side to move not in check (and no hoppers or flips): keeps its safe
    /// moves, playing out only those that might expose a royal piece.
    fn keep_safe_unchecked(&mut self, out: &mut Vec<Move>) {
        let board_attacks = self.rules.tables.attacks.dynamic_kinds == 0;
        let pins = if board_attacks { self.pins() } else { None };
        let lone_royal = board_attacks && self.royals.count(self.side) == 1;
        // Gating moves only where a gate is open: the other games' loop asks nothing
        // about them.
        if self.rules.tables.home.gates[self.side] & self.castling != 0 {
            self.keep_safe_with::<true>(out, pins.as_ref(), lone_royal);
        } else {
            self.keep_safe_with::<false>(out, pins.as_ref(), lone_royal);
        }
    }

    /// [`Self::keep_safe_unchecked`]'s loop; `GATES`: gating moves may be among `out`.
    #[inline(always)]
    fn keep_safe_with<const GATES: bool>(
        &mut self,
        out: &mut Vec<Move>,
        pins: Option<&Pins>,
        lone_royal: bool,
    ) {
        // Without the pins: whether lifting the last piece looked at uncovers an
        // attack (moves come grouped by their square).
        let mut lifted: (Cell, bool) = (NO_CELL, false);
        // Whether the piece on the last square looked at is neither royal nor pinned:
        // its ordinary moves that make no royal piece are legal.
        let mut free: (Cell, bool) = (NO_CELL, false);
        // Kept moves are moved down over the dropped ones, as `retain` does; written
        // out so that the common case (an ordinary move of a free piece) costs a few
        // comparisons and no call.
        let mut kept = 0;
        for i in 0..out.len() {
            // The fields the common case reads, not the whole move: a ten-byte copy
            // per move cost more than the test itself.
            let (from, mut kind, mut promo) = (out[i].from, out[i].kind, out[i].promo);
            // A gating move is legal exactly when the move without the gated piece is.
            if GATES && kind == MoveKind::Gate {
                (kind, promo) = (MoveKind::Normal, EMPTY);
            }
            let ungated = |m: Move| if GATES { m.ungated() } else { m };
            let ordinary = matches!(kind, MoveKind::Normal | MoveKind::DoubleStep);
            let keep = if let Some(pins) = pins
                && ordinary
                && (promo == EMPTY || !self.is_royal_move(out[i]))
            {
                if free.0 != from {
                    free = (from, !pins.contains(from) && !self.is_royal_move(out[i]));
                }
                free.1
                    || self.is_safe_unchecked(ungated(out[i]), Some(pins), lone_royal, &mut lifted)
            } else {
                self.is_safe_unchecked(ungated(out[i]), pins, lone_royal, &mut lifted)
            };
            if keep {
                if kept != i {
                    out[kept] = out[i];
                }
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// With the side to move not in check, its pins known (or `None`): is `m`, which
    /// is not an ordinary move of a free piece, legal?
    #[inline(never)]
    fn is_safe_unchecked(
        &mut self,
        m: Move,
        pins: Option<&Pins>,
        lone_royal: bool,
        lifted: &mut (Cell, bool),
    ) -> bool {
        if !matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep) {
            return self.cannot_expose(m) || self.is_legal(m);
        }
        if self.is_royal_move(m) {
            return if lone_royal && self.is_plain_step(m) {
                self.royal_step_safe(m)
            } else {
                self.is_legal(m)
            };
        }
        let exposes = match pins {
            Some(pins) => pins.contains(m.from),
            None => {
                if lifted.0 != m.from {
                    let exposes = !self.cannot_expose(m) && self.lifting_exposes(m.from);
                    *lifted = (m.from, exposes);
                }
                lifted.1
            }
        };
        !exposes || self.is_legal(m)
    }

    /// The pins of the side to move, if no more than [`MAX_PINS`]. Only where attacks
    /// are read from the board alone (the reverse tables), without hoppers.
    fn pins(&self) -> Option<Pins> {
        let t = &self.rules.tables;
        let by = self.side.opponent();
        let mut pins = Pins {
            cells: [NO_CELL; MAX_PINS],
            len: 0,
        };
        for &royal in self.royals.of(self.side) {
            for r in t.attacks.rays_to(by, royal) {
                if let Some(cell) = self.pinned_on_ray(r, by) {
                    pins.add(cell)?;
                }
            }
            for a in t.attacks.leaps_to(by, royal) {
                if let Some(cell) = self.pinned_on_path(a, by) {
                    pins.add(cell)?;
                }
            }
        }
        Some(pins)
    }

    /// Walking a line out from a royal piece (as [`super::attack::attacked_as`] does):
    /// the square of a piece not of `by` that alone stands between it and a piece of
    /// `by` that captures along the line.
    fn pinned_on_ray(&self, r: &RayAttack, by: Side) -> Option<Cell> {
        debug_assert!(r.hop == Hop::None, "no hoppers where pins are used");
        let t = &self.rules.tables;
        let line = t.attacks.line(r);
        let mut kinds = r.kinds;
        let mut shield = None;
        for (k, &sq) in line.iter().enumerate() {
            let c = self.board[sq];
            if c != EMPTY {
                if shield.is_some() || side_of(c) == by {
                    let attacks = (k as u16) < r.max && side_of(c) == by;
                    return shield.filter(|_| attacks && kinds >> kind_of(c) & 1 != 0);
                }
                shield = Some(sq);
            }
            // An empty square, or the shield's once lifted: terrain may stop the line.
            kinds = self.kinds_crossing(sq, kinds);
            if kinds == 0 {
                return None;
            }
        }
        None
    }

    /// A lame leap of a piece of `by` onto a royal piece: the square of the one piece
    /// not of `by` that blocks its path, if lifting it would open the path.
    fn pinned_on_path(&self, a: &LeapAttack, by: Side) -> Option<Cell> {
        if a.path_len == 0 {
            return None;
        }
        let attacker = self.board[a.from];
        if attacker == EMPTY || side_of(attacker) != by || a.kinds >> kind_of(attacker) & 1 == 0 {
            return None;
        }
        let kind = kind_of(attacker);
        let t = &self.rules.tables;
        let path = t.attacks.path(a);
        let mut shield = None;
        for &p in path {
            if self.passable(p, kind) {
                continue;
            }
            let c = self.board[p];
            let liftable = c != EMPTY && side_of(c) != by && self.terrain_lets_pass(p, kind);
            if !liftable || shield.is_some() {
                return None;
            }
            shield = Some(p);
        }
        shield
    }

    /// Of the piece kinds in `kinds` (a bit per kind), those whose lines pass the
    /// empty square `sq`: all of them unless its terrain blocks passing.
    #[inline(always)]
    pub(super) fn kinds_crossing(&self, sq: Cell, kinds: u64) -> u64 {
        match self.terrain[sq] {
            0 => kinds,
            terr => {
                let tr = &self.rules.terrains[terr as usize - 1];
                if tr.blocks_passing {
                    kinds & tr.crossed_by
                } else {
                    kinds
                }
            }
        }
    }

    /// Is `m` an ordinary move with nothing but its two squares to it (no promotion,
    /// no effect)?
    #[inline]
    fn is_plain_step(&self, m: Move) -> bool {
        m.kind == MoveKind::Normal
            && m.promo == EMPTY
            && self.rules.tables.gens[m.generator].effects == 0
    }

    /// With attacks read from the board alone and one royal piece: is the plain step
    /// `m` of that piece safe? Puts it on its target on the board only.
    fn royal_step_safe(&mut self, m: Move) -> bool {
        let (from, to) = (m.from.index(), m.to.index());
        let royal = std::mem::replace(&mut self.board[from], EMPTY);
        let taken = std::mem::replace(&mut self.board[to], royal);
        let safe = !self.attacked(m.to, self.side.opponent());
        self.board[to] = taken;
        self.board[from] = royal;
        safe
    }

    /// When the side to move is not in check: is `m` sure to leave its royal pieces
    /// unattacked, without playing it? True for a move by a non-royal piece (that
    /// stays non-royal) from a square on no line to a royal piece, and for a placement.
    /// Moves that empty a second square are always played out.
    #[inline]
    fn cannot_expose(&self, m: Move) -> bool {
        let t = &self.rules.tables;
        match m.kind {
            // These take a piece off a second square (a capture without moving
            // leaves the target empty), or move the royal piece.
            MoveKind::EnPassant | MoveKind::Castle | MoveKind::Swap | MoveKind::Rifle => {
                return false;
            }
            MoveKind::Drop => return t.kinds.royal >> t.gens[m.generator].piece & 1 == 0,
            MoveKind::Pass => return true,
            _ => {}
        }
        if self.is_royal_move(m) {
            return false;
        }
        let n = self.board.len();
        let from = m.from.index();
        !self.royals.of(self.side).iter().any(|&k| {
            let bit = k.index() * n + from;
            t.legality.between[bit / 64] >> (bit % 64) & 1 != 0
        })
    }

    /// Does `m` move a royal piece, or make one?
    #[inline]
    fn is_royal_move(&self, m: Move) -> bool {
        let t = &self.rules.tables;
        let royal = |c: Code| c != EMPTY && t.kinds.royal >> kind_of(c) & 1 != 0;
        royal(self.board[m.from]) || royal(m.promo)
    }

    /// With the side to move not in check: would taking the piece off `from` leave a
    /// royal piece of its side attacked? If not, any ordinary move of it is legal.
    fn lifting_exposes(&mut self, from: Cell) -> bool {
        let piece = std::mem::replace(&mut self.board[from], EMPTY);
        let us = self.side;
        let exposed = self.in_check(us);
        self.board[from] = piece;
        exposed
    }

    /// Is the position after `m` legal for the side that played it?
    #[inline]
    pub fn is_legal(&mut self, m: Move) -> bool {
        // A piece brought onto a gate shields nothing: the move is legal when it is
        // without it (as Fairy-Stockfish reads it).
        let m = m.ungated();
        let us = self.side;
        let facing = self.facing_now();
        if facing.is_some() && m.kind == MoveKind::Pass {
            return true;
        }
        if facing.is_none() && self.royals.count(us) == 0 && !self.may_make_royal(m) {
            return true;
        }
        if self.rules.tables.kinds.explodes {
            if facing.is_none()
                && self.rules.tables.legality.blast_on_board
                && self.is_board_step(m)
            {
                return self.blast_on_board(m, false);
            }
            return self.is_legal_exploding(m);
        }
        if self.rules.tables.legality.on_board && self.is_board_step(m) {
            if !self.is_royal_move(m) {
                return self.legal_on_board(m, facing);
            }
            // A royal piece moving as itself, where no facing rule or special check
            // reads the list of royal squares (which the board alone leaves behind):
            // a facing rule is read after the move only while the royal pieces face.
            if m.promo == EMPTY && facing.is_none() && !self.rules.tables.kinds.special_check {
                return self.royal_on_board(m);
            }
        }
        self.make(m);
        let ok = (self.royals.count(us) == 0 || !self.in_check(us))
            && facing.is_none_or(|k| !self.facing(k));
        self.unmake();
        ok
    }

    /// Is `m` an ordinary move of a non-royal piece that changes nothing but the board
    /// (no effects, no second part)? Where `Legality::on_board`, such a move is tested
    /// on the board alone.
    #[inline]
    fn is_board_move(&self, m: Move) -> bool {
        self.is_board_step(m) && !self.is_royal_move(m)
    }

    /// Is `m` an ordinary move that changes nothing but the board (no effects, no
    /// second part), of any piece?
    #[inline]
    pub(super) fn is_board_step(&self, m: Move) -> bool {
        matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep)
            && m.second == NO_CELL
            && self.rules.tables.gens[m.generator].effects == 0
    }

    /// [`Self::is_legal`] for a royal piece's [`Self::is_board_step`] without a
    /// change of face, where attacks are read from the board alone and nothing reads
    /// the list of royal squares: the move put on the board, each royal piece of
    /// the mover asked where it stands after it.
    fn royal_on_board(&mut self, m: Move) -> bool {
        let (from, to) = (m.from.index(), m.to.index());
        let piece = std::mem::replace(&mut self.board[from], EMPTY);
        let taken = std::mem::replace(&mut self.board[to], piece);
        let (us, them) = (self.side, self.side.opponent());
        let ok = (self.royals.of(us).iter())
            .all(|&k| !self.attacked(if k == m.from { m.to } else { k }, them));
        self.board[to] = taken;
        self.board[from] = piece;
        ok
    }

    /// [`Self::is_legal`] for a move that [`Self::is_board_move`], where attacks and
    /// facing are read from the board alone: the piece is lifted and put down (as
    /// its new face), the royal pieces asked, the board put back. No hash, history or
    /// counts to update, as make and unmake would.
    fn legal_on_board(&mut self, m: Move, facing: Option<PieceKind>) -> bool {
        let (from, to) = (m.from.index(), m.to.index());
        let piece = std::mem::replace(&mut self.board[from], EMPTY);
        let placed = if m.promo != EMPTY { m.promo } else { piece };
        let taken = std::mem::replace(&mut self.board[to], placed);
        let us = self.side;
        let ok = (self.royals.count(us) == 0 || !self.in_check(us))
            && facing.is_none_or(|k| !self.facing(k));
        self.board[to] = taken;
        self.board[from] = piece;
        ok
    }

    /// Where captures explode: a move that blows up a royal piece of the mover's is
    /// illegal; one that blows up (or takes) one of the opponent's is legal whatever
    /// it leaves attacked, since it wins; the others leave the mover not in check.
    fn is_legal_exploding(&mut self, m: Move) -> bool {
        let us = self.side;
        let (ours, theirs) = (self.royals.count(us), self.royals.count(us.opponent()));
        self.make(m);
        let ok = self.royals.count(us) >= ours
            && (self.royals.count(us.opponent()) < theirs
                || self.royals.count(us) == 0
                || !self.in_check(us));
        self.unmake();
        ok
    }

    /// [`Self::is_legal_exploding`] for a move that [`Self::is_board_step`], where
    /// attacks are read from the board alone (`Legality::blast_on_board`) and no
    /// facing rule applies now: the move and the explosion it causes are put on the
    /// board only (no hash, counts or royal list to update, as make and unmake would),
    /// the mover's royal pieces asked, the board put back.
    ///
    /// `unattacked`: no royal piece of the mover is attacked now (its neighbours
    /// aside): then only the lines and lame paths through the squares the move
    /// empties or fills are asked (`attack::attacked_through`), unless a royal piece
    /// moves.
    fn blast_on_board(&mut self, m: Move, unattacked: bool) -> bool {
        let (from, to) = (m.from.index(), m.to.index());
        let t = &self.rules.tables;
        let (royal_kinds, spared) = (t.kinds.royal, t.blast.spared);
        let royal = |c: Code| c != EMPTY && royal_kinds >> kind_of(c) & 1 != 0;
        if royal(m.promo) {
            return self.is_legal_exploding(m);
        }
        let us = self.side;
        let piece = self.board[from];
        let taken = self.board[to];
        let mut through = (unattacked && !royal(piece)).then_some(1u128 << from | 1u128 << to);
        if taken == EMPTY {
            let placed = if m.promo != EMPTY { m.promo } else { piece };
            self.board[from] = EMPTY;
            self.board[to] = placed;
            let ok = (self.royals.of(us).iter())
                .all(|&k| self.blast_safe(if k == m.from { m.to } else { k }, through));
            self.board[to] = EMPTY;
            self.board[from] = piece;
            return ok;
        }
        // A capture: the capturer goes with the piece taken, so a royal capturer
        // blows itself up.
        if royal(piece) {
            return false;
        }
        let around = t.blast.around[to];
        let mut removed = [EMPTY; 8];
        let (mut ours_lost, mut theirs_lost) = (false, false);
        let mut lose = |p: Code| {
            if royal(p) {
                if side_of(p) == us {
                    ours_lost = true;
                } else {
                    theirs_lost = true;
                }
            }
        };
        lose(taken);
        self.board[from] = EMPTY;
        self.board[to] = EMPTY;
        for (slot, &c) in removed.iter_mut().zip(&around) {
            if c == NO_CELL {
                break;
            }
            let p = self.board[c];
            if p == EMPTY || spared >> kind_of(p) & 1 != 0 {
                continue;
            }
            lose(p);
            *slot = p;
            self.board[c] = EMPTY;
            through = through.map(|b| b | 1u128 << c.index());
        }
        let ok = !ours_lost
            && (theirs_lost || (self.royals.of(us).iter()).all(|&k| self.blast_safe(k, through)));
        for (&p, &c) in removed.iter().zip(&around) {
            if p != EMPTY {
                self.board[c] = p;
            }
        }
        self.board[to] = taken;
        self.board[from] = piece;
        ok
    }

    /// Is the mover's royal piece on `k` safe where captures explode (on the board as
    /// it stands)? With `through`, the squares a move changed, no royal piece of the
    /// mover having been attacked before it: only the entries through them are asked.
    #[inline]
    fn blast_safe(&self, k: Cell, through: Option<u128>) -> bool {
        let them = self.side.opponent();
        match through {
            Some(bits) => {
                self.next_to_royal(k, them)
                    || !super::attack::attacked_through::<false>(self, k, them, bits)
            }
            None => !self.royal_attacked(k, self.side),
        }
    }

    /// Might `m` put a royal piece on the board (a placement, a promotion or a piece
    /// left behind)?
    #[inline]
    fn may_make_royal(&self, m: Move) -> bool {
        let t = &self.rules.tables;
        let info = &t.gens[m.generator];
        let royal_piece = match m.kind {
            MoveKind::Drop => t.kinds.royal >> info.piece & 1 != 0,
            _ if m.from == NO_CELL => false,
            _ => self.is_royal_move(m),
        };
        t.kinds.royal != 0 && (royal_piece || info.effects != 0)
    }

    /// `forbid mate-by-drop`: the drops of the pieces it names may not checkmate.
    fn forbid_mating_drops(&mut self, moves: &mut Vec<Move>) {
        if !moves.iter().any(|&m| self.is_watched_drop(m)) {
            return;
        }
        let mut reply = self.scratch.lend();
        moves.retain(|&m| !self.is_watched_drop(m) || !self.mates(m, &mut reply));
        self.scratch.give_back(reply);
    }

    /// Is `m` a drop of a piece that `forbid mate-by-drop` names?
    #[inline]
    fn is_watched_drop(&self, m: Move) -> bool {
        let t = &self.rules.tables;
        m.kind == MoveKind::Drop && t.hands.no_mate_by_drop >> t.gens[m.generator].piece & 1 != 0
    }

    /// Does `m` checkmate: the opponent in check after it, with no legal move?
    fn mates(&mut self, m: Move, scratch: &mut Vec<Move>) -> bool {
        self.make(m);
        let mate = self.in_check(self.side) && !self.has_legal_move(scratch, true);
        self.unmake();
        mate
    }

    /// Does the side to move, in check or not as `checked` says, have a legal move
    /// (by every rule but `stalemate illegal`, which never leaves a side without one, `forbid
    /// check` and `forbid mate-by-drop`)? Tries one placement from the hand first,
    /// which usually settles it at once, then the pieces one by one, and stops at the
    /// first legal move.
    fn has_legal_move(&mut self, scratch: &mut Vec<Move>, checked: bool) -> bool {
        if checked || self.facing_now().is_some() {
            self.has_move_that(scratch, Self::is_legal)
        } else {
            self.has_move_that(scratch, Self::is_legal_unchecked)
        }
    }

    /// Does the side to move have a pseudo-legal move that `ok` accepts? Generates
    /// the moves piece by piece into `scratch` and stops at the first accepted.
    pub(super) fn has_move_that(
        &mut self,
        scratch: &mut Vec<Move>,
        mut ok: impl FnMut(&mut Self, Move) -> bool,
    ) -> bool {
        if let Some(m) = self.first_drop()
            && ok(self, m)
        {
            return true;
        }
        let us = self.side;
        for w in 0..self.board.len().div_ceil(8) {
            let mut ours = own_squares_in_word(&self.board, us, w);
            while ours != 0 {
                let from = w * 8 + ours.trailing_zeros() as usize / 8;
                ours &= ours - 1;
                scratch.clear();
                let g = super::lookup::Gen::new(self, &self.rules);
                self.own_piece_moves::<false>(&g, Cell::new(from), self.board[from], scratch);
                if scratch.iter().any(|&m| ok(self, m)) {
                    return true;
                }
            }
        }
        scratch.clear();
        let g = super::lookup::Gen::new(self, &self.rules);
        self.moves_off_the_board(&g, scratch);
        scratch.iter().any(|&m| ok(self, m))
    }

    /// Has the side to move a legal move, by every rule? (`stalemate illegal` never
    /// takes the last one away.) Without building the list of them.
    pub fn has_legal_moves(&mut self) -> bool {
        if self.decided().is_some() {
            return false;
        }
        // A first part may leave its second none, and conditions read after the move
        // may refuse it: the moves are counted whole, or each first part whole.
        if self.rules.tables.kinds.two_part || self.rules.tables.kinds.after {
            if let Some(any) = self.two_part_move_exists() {
                return any;
            }
            let mut list = self.scratch.lend();
            self.legal_moves_into(&mut list);
            let any = !list.is_empty();
            self.scratch.give_back(list);
            return any;
        }
        let mut list = self.scratch.lend();
        let mut reply = self.scratch.lend();
        let any = self.has_move_that(&mut list, |pos, m| {
            pos.is_legal(m)
                && !(pos.rules.forbid_check && pos.gives_check(m))
                && !(pos.is_watched_drop(m) && pos.mates(m, &mut reply))
        });
        self.scratch.give_back(reply);
        self.scratch.give_back(list);
        any || self.stuck_pass().is_some()
    }

    /// Where moves have a second part: has the side to move a legal move? Each first
    /// part is completed and tested alone, and the first legal move ends the search:
    /// the search asks this at its leaves, where the whole list runs to thousands of
    /// moves (a queen's move then a queen's line of squares for the second part: some
    /// 80 first parts of 25 second parts each on a 10x10 board). `None`
    /// where the list must be read whole: one-part moves, conditions read after the
    /// move, and the rules that read the list as a whole (`must-drop`, `both-colours`)
    /// or a reply ahead (`forbid check`, `forbid mate-by-drop`).
    fn two_part_move_exists(&mut self) -> Option<bool> {
        let r = &*self.rules;
        let t = &r.tables;
        if !t.kinds.two_part
            || t.kinds.after
            || r.must_drop
            || t.kinds.both_colours != 0
            || r.forbid_check
            || t.hands.no_mate_by_drop != 0
        {
            return None;
        }
        let us = self.side;
        // Asked once here rather than in each first part's test.
        let checked = (t.kinds.royal != 0).then(|| self.in_check(us));
        let mut scratch = self.scratch.lend();
        // Piece by piece, so that the first pieces' moves usually settle it.
        let any = self.has_move_that(&mut scratch, |pos, m| {
            let mut one = pos.scratch.lend();
            one.push(m);
            pos.add_second_parts(&mut one, 0);
            pos.keep_safe_moves(&mut one, checked);
            // `must-capture` keeps the captures where there are some, never none;
            // `stalemate illegal` never takes the last move away.
            let legal = !one.is_empty();
            pos.scratch.give_back(one);
            legal
        });
        self.scratch.give_back(scratch);
        Some(any || self.stuck_pass().is_some())
    }

    /// `stalemate illegal`: a move that leaves the opponent without a legal move while not
    /// in check is illegal, unless every move would; a move that ends the game stands.
    fn forbid_stalemating(&mut self, moves: &mut Vec<Move>) {
        let mut reply = self.scratch.lend();
        let mut witness = None;
        let sure = self.sure_reply();
        keep_in_place(moves, |m| {
            if sure.is_some_and(|w| self.leaves_placement(m, w)) {
                return true;
            }
            self.make(m);
            let ok = self.decided().is_some()
                || self.in_check(self.side)
                || self.reply_exists(&mut reply, &mut witness);
            self.unmake();
            ok
        });
        self.scratch.give_back(reply);
    }

    /// With the side to move not in check: has it a legal move? Tries `witness` first,
    /// a placement found after an earlier move of the same list (its square is most
    /// often still free), and keeps the placement it finds there.
    fn reply_exists(&mut self, scratch: &mut Vec<Move>, witness: &mut Option<Move>) -> bool {
        if let Some(w) = *witness
            && self.can_still_place(w)
            && self.is_legal_unchecked(w)
        {
            return true;
        }
        *witness = self.first_drop();
        if let Some(w) = *witness
            && self.is_legal_unchecked(w)
        {
            return true;
        }
        self.has_legal_move(scratch, false)
    }

    /// A placement the opponent could make after almost any move of ours, found
    /// without making one: where the opponent has no royal piece on the board (so
    /// none of its moves can be illegal) and no `facing` rule applies, a placement
    /// that asks nothing but a piece in hand and a free square, and makes no royal
    /// piece. See [`Self::leaves_placement`] for the moves it survives.
    fn sure_reply(&self) -> Option<Move> {
        let them = self.side.opponent();
        if self.royals.count(them) != 0 || self.facing_kind().is_some() {
            return None;
        }
        let t = &self.rules.tables;
        let kinds = self.rules.pieces.len();
        (0..kinds)
            .filter(|&k| self.hand[them.index() * kinds + k] != 0 && t.kinds.royal >> k & 1 == 0)
            .flat_map(|k| t.kinds.drops[k].iter())
            .filter(|&&id| {
                let info = &t.gens[id];
                info.conds.1 == 0
                    && !info.counts
                    && info.effects == 0
                    && t.kinds.royal >> info.piece & 1 == 0
            })
            .find_map(|&id| {
                t.targets
                    .of(id, them, NO_CELL)
                    .iter()
                    .find(|&&to| self.board[to] == EMPTY && self.terrain[to] == 0)
                    .map(|&to| Move {
                        kind: MoveKind::Drop,
                        ..Move::new(NO_CELL, to, id)
                    })
            })
    }

    /// Does the opponent's placement `w` (from [`Self::sure_reply`]) stay open after
    /// our move `m`? A move that changes nothing but its own squares (no effects, no
    /// counters, no second piece moved) and does not land on `w`'s square leaves the
    /// opponent's hand, that square and the rest as they were.
    fn leaves_placement(&self, m: Move, w: Move) -> bool {
        let info = &self.rules.tables.gens[m.generator];
        matches!(
            m.kind,
            MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Drop | MoveKind::Exit
        ) && m.to != w.to
            && info.effects == 0
            && !info.counts
    }

    /// Is the placement `w`, found in a position a move ago, still pseudo-legal? Only
    /// for placements with nothing to ask but a piece in hand and a free square.
    fn can_still_place(&self, w: Move) -> bool {
        let t = &self.rules.tables;
        let info = &t.gens[w.generator];
        let slot = self.side.index() * self.rules.pieces.len() + info.hand as usize;
        let to = w.to.index();
        info.conds.1 == 0
            && !info.counts
            && self.hand[slot] != 0
            && self.board[to] == EMPTY
            && self.terrain[to] == 0
    }

    /// A placement onto the first free target of the first piece in hand, if any:
    /// a cheap first try when asking whether any legal move exists.
    fn first_drop(&self) -> Option<Move> {
        let t = &self.rules.tables;
        let kinds = self.rules.pieces.len();
        let us = self.side;
        let kind = (0..kinds)
            .find(|&k| self.hand[us.index() * kinds + k] != 0 && !t.kinds.drops[k].is_empty())?;
        let id = t.kinds.drops[kind][0];
        let info = &t.gens[id];
        let g = super::lookup::Gen::new(self, &self.rules);
        t.targets
            .of(id, us, NO_CELL)
            .iter()
            .map(|&to| Move {
                kind: MoveKind::Drop,
                ..Move::new(NO_CELL, to, id)
            })
            .find(|&m| {
                let to = m.to.index();
                self.board[to] == EMPTY
                    && self.terrain[to] == 0
                    && self.conditions_hold(&g, info, m)
            })
    }
}

/// Keeps the moves `keep` accepts, in order; keeps them all if it accepts none. In
/// place: nothing is written until a move is accepted.
fn keep_in_place(moves: &mut Vec<Move>, mut keep: impl FnMut(Move) -> bool) {
    let mut kept = 0;
    for i in 0..moves.len() {
        let m = moves[i];
        if keep(m) {
            moves[kept] = m;
            kept += 1;
        }
    }
    if kept > 0 {
        moves.truncate(kept);
    }
}
