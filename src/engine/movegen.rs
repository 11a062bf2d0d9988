//! The generic move generator: one walk over the generators of the move model. For
//! each piece of the side to move, its Betza generators' precomputed leaps and rays
//! (terrain, occupancy, hops, initial-move and en-passant rules), then its other
//! generators (flights, exits, flips); placements from the hand; the game's own moves
//! (the pie rule, passing, castling). `legal.rs` then keeps the moves that leave no
//! royal piece attacked.

use super::lookup::{Gen, Occupancy};
use super::squares::{
    for_each_bit, for_each_bit_down, for_each_bit_up, for_each_own_square, squares_of, up_to_first,
};
use super::{Move, MoveKind, Position};
use crate::ids::Side;
use crate::model::MAX_COUNTER;
use crate::rules::{
    ANY_REACH, BitSquare, BitStep, Cell, Code, Cond, EMPTY, Effect, GenId, GenInfo, NO_CELL,
    Source, code, kind_of, side_of,
};
use crate::syntax::betza::Hop;

/// What a piece finds on a square it reaches.
enum Landing {
    /// May land (a move, or a capture if a piece is there), and the line goes on.
    Open,
    /// May land, and the line stops there.
    Last,
    /// May land by clearing the terrain (not capturing); the line stops.
    Clear,
    /// May not land, but the line goes on.
    Pass,
    /// May neither land nor pass.
    Blocked,
}

/// What the short path knows of the step it walks.
struct PlainWalk<'a> {
    comp: &'a GenInfo,
    id: GenId,
    from: Cell,
    kind: usize,
    /// A lame leap's path (for a double step's en-passant square).
    path: &'a [Cell],
    /// The landings that take the full rules; all of them with `None`.
    watch: Option<&'a [bool]>,
    /// Its moves are double steps, open to en passant.
    double_step: bool,
}

impl Position {
    /// Can a piece of `kind` pass over `cell` (no piece, no terrain in its way)?
    #[inline]
    pub(crate) fn passable(&self, cell: Cell, kind: usize) -> bool {
        self.board[cell] == EMPTY && self.terrain_lets_pass(cell, kind)
    }

    /// Does the terrain on `cell`, if any, let a piece of `kind` pass over it?
    #[inline]
    pub(crate) fn terrain_lets_pass(&self, cell: Cell, kind: usize) -> bool {
        match self.terrain[cell] {
            0 => true,
            t => {
                let tr = &self.rules.terrains[t as usize - 1];
                !tr.blocks_passing || tr.crossed_by >> kind & 1 != 0
            }
        }
    }

    #[inline]
    fn landing(&self, cell: Cell, kind: usize) -> Landing {
        match self.terrain[cell] {
            0 => Landing::Open,
            t => {
                let tr = &self.rules.terrains[t as usize - 1];
                if tr.crossed_by >> kind & 1 != 0 {
                    Landing::Open
                } else if tr.cleared_by >> kind & 1 != 0 {
                    Landing::Clear
                } else if !tr.blocks_landing {
                    if tr.blocks_passing {
                        Landing::Last
                    } else {
                        Landing::Open
                    }
                } else if !tr.blocks_passing {
                    Landing::Pass
                } else {
                    Landing::Blocked
                }
            }
        }
    }

    /// Every pseudo-legal move of the side to move (royal safety not yet checked).
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        self.pseudo_moves_knowing(None, out);
    }

    /// [`Self::pseudo_moves`], told whether the square `known.0` of the mover's is
    /// attacked (`known.1`), so that castling need not ask again.
    pub(super) fn pseudo_moves_knowing(&self, known: Option<(Cell, bool)>, out: &mut Vec<Move>) {
        let rules = &*self.rules;
        let t = &rules.tables;
        let us = self.side;
        let mut g = Gen::new(self, rules);
        g.known_attack = known;
        g.occupancy = Occupancy::of(self, rules);
        if !t.kinds.opening_moves.is_empty() {
            self.game_moves(&g, &t.kinds.opening_moves, out);
        }
        match g.occupancy {
            Some(occ) => for_each_bit(occ.own, |from| {
                let c = self.board[from];
                let at = &t.steps.at[c as usize * t.steps.squares + from];
                // A piece whose moves are its steps alone: passed over when every
                // step's first square holds a piece of its own, else read as bits
                // where it can be.
                if t.kinds.with_extras >> kind_of(c) & 1 == 0 {
                    if at.near & !occ.own == 0 {
                        return;
                    }
                    if at.by_bits && t.kinds.overlapping >> kind_of(c) & 1 == 0 {
                        self.bit_steps::<false>(&g, Cell::new(from), at, &occ, out);
                        return;
                    }
                }
                self.own_piece_moves::<false>(&g, Cell::new(from), c, out);
            }),
            None => for_each_own_square(&self.board, us, |from| {
                self.own_piece_moves::<false>(&g, Cell::new(from), self.board[from], out);
            }),
        }
        self.placements_and_castling(&g, out);
        if t.home.gates[us] & self.castling != 0 {
            self.gating_moves(out, 0);
        }
    }

    /// `gating in ZONE`: each move that empties a gate of the side to move (a plain
    /// move from it, or castling from or with a piece on it) again, once per kind
    /// of piece in its hand, bringing that piece onto the gate. Not with moves that
    /// promote or leave a piece behind.
    #[inline(never)]
    fn gating_moves(&self, out: &mut Vec<Move>, first: usize) {
        let rules = &*self.rules;
        let t = &rules.tables;
        let us = self.side;
        let gates = t.home.gates[us] & self.castling;
        let kinds = rules.pieces.len();
        let hand = &self.hand[us.index() * kinds..(us.index() + 1) * kinds];
        let open = |c: Cell| t.home.castle_mask[c] & gates != 0;
        for i in first..out.len() {
            let m = out[i];
            let kind = match m.kind {
                MoveKind::Normal
                    if m.promo == EMPTY
                        && open(m.from)
                        && !t
                            .gens
                            .effects_of(&t.gens[m.generator])
                            .iter()
                            .any(|e| matches!(e, Effect::Leave(_))) =>
                {
                    MoveKind::Gate
                }
                MoveKind::Castle => MoveKind::CastleGate,
                _ => continue,
            };
            for (k, _) in hand.iter().enumerate().filter(|&(_, &n)| n > 0) {
                let promo = code(k, us);
                if kind == MoveKind::Gate || open(m.from) {
                    out.push(Move { kind, promo, ..m });
                }
                if kind == MoveKind::CastleGate {
                    let partner = rules.castlings[t.gens[m.generator].castling()].rook_from;
                    if open(partner) {
                        out.push(Move {
                            kind: MoveKind::CastleGatePartner,
                            promo,
                            ..m
                        });
                    }
                }
            }
        }
    }

    /// The pseudo-legal moves of the side to move that capture or promote (or turn a
    /// piece into another): the moves quiescence search looks at. The pieces' quiet
    /// moves on the short path are never made; the game's own moves and placements
    /// are never tactical.
    pub fn tactical_moves(&self, out: &mut Vec<Move>) {
        let rules = &*self.rules;
        let mut g = Gen::new(self, rules);
        g.occupancy = Occupancy::of(self, rules);
        let first = out.len();
        // Pieces that could only capture, with no enemy piece where they capture, are
        // passed over (with an en-passant square open, none is).
        let reach = &rules.tables.landing.capture_reach;
        let enemies = if reach.is_empty() || self.ep != NO_CELL {
            ANY_REACH
        } else {
            squares_of(&self.board, self.side.opponent())
        };
        let n = self.board.len();
        for_each_own_square(&self.board, self.side, |from| {
            let c = self.board[from];
            if enemies == ANY_REACH || reach[c as usize * n + from] & enemies != 0 {
                self.own_piece_moves::<true>(&g, Cell::new(from), c, out);
            }
        });
        let mut kept = first;
        for i in first..out.len() {
            let m = out[i];
            if self.is_tactical(m) {
                out[kept] = m;
                kept += 1;
            }
        }
        out.truncate(kept);
        // Captures from a gate, with each piece the hand could bring in.
        if rules.tables.home.gates[self.side] & self.castling != 0 {
            self.gating_moves(out, first);
        }
    }

    /// Does `m` capture, promote or turn the piece into another? (A piece brought
    /// onto a gate is no promotion.)
    #[inline]
    pub fn is_tactical(&self, m: Move) -> bool {
        (m.promo != EMPTY && !m.kind.is_gate()) || self.victim(m).is_some()
    }

    /// The moves of the side to move's piece `c` on `from`, each once. `TACTICAL`:
    /// only the captures and promotions are wanted, so the short path skips the quiet
    /// moves it can tell apart (the caller drops any others). A constant, so that the
    /// generator that wants every move tests nothing more.
    pub(super) fn own_piece_moves<const TACTICAL: bool>(
        &self,
        g: &Gen,
        from: Cell,
        c: Code,
        out: &mut Vec<Move>,
    ) {
        let first_move = out.len();
        self.piece_moves::<TACTICAL>(g, from, c, EMPTY, out);
        if g.rules.tables.kinds.overlapping >> kind_of(c) & 1 != 0 {
            self.dedup_tail(out, first_move);
        }
    }

    /// The pseudo-legal moves that no piece on the board makes: the game's opening
    /// moves (the pie rule, passing), placements from the hand, castling.
    pub(super) fn moves_off_the_board(&self, g: &Gen, out: &mut Vec<Move>) {
        let t = &g.rules.tables;
        if !t.kinds.opening_moves.is_empty() {
            self.game_moves(g, &t.kinds.opening_moves, out);
        }
        self.placements_and_castling(g, out);
    }

    /// Placements from the hand, then castling: the moves made after the pieces'.
    fn placements_and_castling(&self, g: &Gen, out: &mut Vec<Move>) {
        let t = &g.rules.tables;
        if t.kinds.places {
            self.drops(g, out);
            if !t.kinds.clones.is_empty() {
                self.clones(g, out);
            }
        }
        if self.castling != 0 {
            self.game_moves(g, &t.kinds.castle_moves, out);
        }
    }

    /// The moves of some of the game's own generators.
    fn game_moves(&self, g: &Gen, ids: &[GenId], out: &mut Vec<Move>) {
        let rules = g.rules;
        // Several `pass` declarations whose conditions hold still give one pass.
        let mut passed = false;
        for &id in ids {
            let info = &rules.tables.gens[id];
            let m = Move::new(NO_CELL, NO_CELL, id);
            match info.source {
                Source::Swap if self.swap_allowed() => out.push(Move {
                    kind: MoveKind::Swap,
                    ..m
                }),
                Source::Pass => {
                    let m = Move {
                        kind: MoveKind::Pass,
                        ..m
                    };
                    if !passed && self.conditions_hold(g, info, m) {
                        passed = true;
                        out.push(m);
                    }
                }
                Source::Castle { .. } => self.castling(g, id, info, out),
                _ => {}
            }
        }
    }

    /// The pie rule's swap: only instead of the second player's first move.
    fn swap_allowed(&self) -> bool {
        self.side == Side::Second
            && self.fullmove == 1
            && !self.swapped
            && self
                .history
                .last()
                .is_none_or(|u| u.mv.kind != MoveKind::Swap)
    }

    /// Placements from the hand: each piece in hand by each of its drop generators.
    fn drops(&self, g: &Gen, out: &mut Vec<Move>) {
        let t = &g.rules.tables;
        let kinds = g.rules.pieces.len();
        let us = self.side;
        for kind in 0..kinds {
            if self.hand[us.index() * kinds + kind] == 0 {
                continue;
            }
            for &id in &t.kinds.drops[kind] {
                self.place(g, id, EMPTY, self.enemy_near(id), out);
            }
        }
    }

    /// For a placement that must convert (`if converts`), on a board with
    /// `Blast::around_bits`: the squares next to an enemy piece, as bits (a
    /// conversion needs one there). `None` where nothing is known.
    fn enemy_near(&self, id: GenId) -> Option<u128> {
        let t = &self.rules.tables;
        let bits = &t.blast.around_bits;
        (t.gens[id].converting && !bits.is_empty()).then(|| {
            let mut near = 0;
            for_each_own_square(&self.board, self.side.opponent(), |c| near |= bits[c]);
            near
        })
    }

    /// Clones: a copy of a piece onto each empty square next to one of the side's
    /// pieces of its kind, once per square (which piece is copied does not matter).
    fn clones(&self, g: &Gen, out: &mut Vec<Move>) {
        let t = &g.rules.tables;
        let bits = &t.blast.around_bits;
        for &id in &t.kinds.clones {
            let copied = code(t.gens[id].piece as usize, self.side);
            if self.counts[copied as usize] == 0 {
                continue;
            }
            // The squares next to a piece of the kind, found once for all targets.
            let near = (!bits.is_empty()).then(|| {
                let mut near = 0;
                for_each_own_square(&self.board, self.side, |c| {
                    if self.board[c] == copied {
                        near |= bits[c];
                    }
                });
                near
            });
            self.place(g, id, copied, near, out);
        }
    }

    /// The placements of generator `id` on the empty squares of its targets where the
    /// piece may land and its conditions hold; with `beside` a piece (not [`EMPTY`]),
    /// only on squares next to one (a clone). `near`, if known: the only squares
    /// that may take the placement, as bits (those next to a clone's kind, or for a
    /// placement that must convert, next to an enemy piece). Inlined, so that a drop
    /// tests nothing for `beside`.
    #[inline(always)]
    fn place(&self, g: &Gen, id: GenId, beside: Code, near: Option<u128>, out: &mut Vec<Move>) {
        let t = &g.rules.tables;
        let info = &t.gens[id];
        let placed = info.piece as usize;
        for &to in t.targets.of(id, self.side, NO_CELL) {
            if let Some(near) = near
                && near >> to.index() & 1 == 0
            {
                continue;
            }
            if self.board[to] != EMPTY
                || (beside != EMPTY
                    && near.is_none()
                    && !t.blast.around(to).any(|c| self.board[c] == beside))
                || !matches!(self.landing(to, placed), Landing::Open | Landing::Last)
            {
                continue;
            }
            let m = Move {
                kind: MoveKind::Drop,
                ..Move::new(NO_CELL, to, id)
            };
            if self.conditions_hold(g, info, m) {
                out.push(m);
            }
        }
    }

    /// The moves of the piece on `from` as if it were `face`; a move that turns it
    /// into `face` (a flip) carries `becomes`, else `becomes` is [`EMPTY`].
    fn piece_moves<const TACTICAL: bool>(
        &self,
        g: &Gen,
        from: Cell,
        face: Code,
        becomes: Code,
        out: &mut Vec<Move>,
    ) {
        let t = &g.rules.tables;
        // With the board as bits, the tables for the bit path are there.
        let at = || &t.steps.at[face as usize * t.steps.squares + from.index()];
        match &g.occupancy {
            Some(occ) if becomes == EMPTY && at().by_bits => {
                self.bit_moves::<TACTICAL>(g, from, at(), occ, out);
            }
            _ => self.betza_moves::<TACTICAL>(g, from, face, becomes, out),
        }
        let kind = kind_of(face);
        if t.kinds.with_extras >> kind & 1 == 0 {
            return;
        }
        for &id in &t.kinds.extras[kind] {
            let info = &t.gens[id];
            match info.source {
                Source::Flight { .. } => self.flights(g, id, info, from, becomes, out),
                Source::Exit if becomes == EMPTY => {
                    let m = Move {
                        kind: MoveKind::Exit,
                        ..Move::new(from, NO_CELL, id)
                    };
                    if self.conditions_hold(g, info, m) {
                        out.push(m);
                    }
                }
                // A move in place turns the piece into another where it stands
                // (`from` and `to` the same square).
                Source::InPlace if becomes == EMPTY && info.becomes != 0 => {
                    let m = Move {
                        promo: code(usize::from(info.becomes - 1), self.side),
                        ..Move::new(from, from, id)
                    };
                    if self.conditions_hold(g, info, m) {
                        out.push(m);
                    }
                }
                Source::Flip { face }
                    if becomes == EMPTY
                        && self.conditions_hold(g, info, Move::new(from, NO_CELL, id)) =>
                {
                    let other = code(face.index(), self.side);
                    self.piece_moves::<TACTICAL>(g, from, other, other, out);
                }
                _ => {}
            }
        }
    }

    /// The face the piece on `from` may turn into this turn by a flip generator of
    /// its own, if one (attack detection asks, for pieces on a flip's squares).
    pub(crate) fn flip_face(&self, from: Cell) -> Option<Code> {
        let rules = &*self.rules;
        let t = &rules.tables;
        let c = self.board[from];
        if c == EMPTY {
            return None;
        }
        let g = Gen::new(self, rules);
        t.kinds.extras[kind_of(c)].iter().find_map(|&id| {
            let info = &t.gens[id];
            let Source::Flip { face } = info.source else {
                return None;
            };
            self.conditions_hold(&g, info, Move::new(from, NO_CELL, id))
                .then(|| code(face.index(), side_of(c)))
        })
    }

    /// Flights to the empty squares of a flight generator's targets.
    fn flights(
        &self,
        g: &Gen,
        id: GenId,
        info: &GenInfo,
        from: Cell,
        becomes: Code,
        out: &mut Vec<Move>,
    ) {
        let kind = kind_of(self.board[from]);
        for &to in g.rules.tables.targets.of(id, self.side, from) {
            if self.board[to] != EMPTY
                || !matches!(self.landing(to, kind), Landing::Open | Landing::Last)
            {
                continue;
            }
            let m = Move {
                promo: becomes,
                ..Move::new(from, to, id)
            };
            if self.conditions_hold(g, info, m) {
                out.push(m);
            }
        }
    }

    /// The moves of the Betza generators of the piece on `from`, moving as `face`.
    fn betza_moves<const TACTICAL: bool>(
        &self,
        g: &Gen,
        from: Cell,
        face: Code,
        becomes: Code,
        out: &mut Vec<Move>,
    ) {
        let rules = g.rules;
        let t = &rules.tables;
        let n = self.board.len();
        let f = from.index();
        let kind = kind_of(face);
        // Most moves need none of the rules' extras: walk them on a short path, with
        // the plain leaps of a generator merged (a piece moving as itself).
        let simple_piece = becomes == EMPTY;
        let (index, steps) = if simple_piece {
            (&t.steps.plain_index, &t.steps.plain)
        } else {
            (&t.steps.index, &t.steps.list)
        };
        let (start, len) = index[face as usize * n + f];
        // Landings where the piece may promote (or may not stay) take the full path;
        // all of them do when it may promote by leaving this square.
        let watch = &t.landing.watch[face as usize * n..(face as usize + 1) * n];
        let watch = (!t.landing.promotes_from[face as usize * n + f]).then_some(watch);
        for step in &steps[start as usize..(start + len) as usize] {
            let comp = &t.gens[step.generator];
            if comp.initial && !self.unmoved[f] {
                continue;
            }
            if simple_piece && step.plain {
                self.plain_step::<TACTICAL>(g, step, from, kind, watch, out);
                continue;
            }
            let new = |to: Cell| Move {
                promo: becomes,
                ..Move::new(from, to, step.generator)
            };
            let line = t.steps.line(step);
            if !step.rider {
                let path = t.steps.path(step);
                if !path.iter().all(|&p| self.passable(p, kind)) {
                    continue;
                }
                let to = line[0];
                match self.landing(to, kind) {
                    Landing::Open | Landing::Last => self.land(g, comp, new(to), kind, path, out),
                    Landing::Clear => {
                        if comp.can_move && self.board[to] == EMPTY {
                            self.push(g, comp, new(to), kind, out);
                        }
                    }
                    Landing::Pass | Landing::Blocked => {}
                }
                continue;
            }
            self.ride(g, comp, line, &new, kind, out);
        }
    }

    /// A rider's or hopper's line, with conditions, effects or a hop.
    fn ride(
        &self,
        g: &Gen,
        comp: &GenInfo,
        line: &[Cell],
        new: &dyn Fn(Cell) -> Move,
        kind: usize,
        out: &mut Vec<Move>,
    ) {
        let mut screened = comp.hop == Hop::None;
        for &to in line {
            let occupant = self.board[to];
            if !screened {
                // Before the screen: empty squares are passed, the first piece is
                // the screen, blocking terrain ends the line.
                if occupant != EMPTY {
                    screened = true;
                } else if !self.passable(to, kind) {
                    break;
                }
                continue;
            }
            match self.landing(to, kind) {
                Landing::Open => {
                    self.land(g, comp, new(to), kind, &[], out);
                    if occupant != EMPTY || comp.hop == Hop::Grasshopper {
                        break;
                    }
                }
                Landing::Last => {
                    self.land(g, comp, new(to), kind, &[], out);
                    break;
                }
                Landing::Clear => {
                    if comp.can_move && occupant == EMPTY {
                        self.push(g, comp, new(to), kind, out);
                    }
                    break;
                }
                Landing::Pass => {
                    if occupant != EMPTY || comp.hop == Hop::Grasshopper {
                        break;
                    }
                }
                Landing::Blocked => break,
            }
        }
    }

    /// The short path: a step with no hop, condition or effect, of a piece that does
    /// not change face. Squares with terrain, en passant or promotion take the full
    /// rules: those `watch` marks, or all with `watch` `None`.
    #[inline]
    fn plain_step<const TACTICAL: bool>(
        &self,
        g: &Gen,
        step: &crate::rules::Step,
        from: Cell,
        kind: usize,
        watch: Option<&[bool]>,
        out: &mut Vec<Move>,
    ) {
        let t = &g.rules.tables;
        let comp = &t.gens[step.generator];
        let line = t.steps.line(step);
        let path = t.steps.path(step);
        if !step.rider && !path.iter().all(|&p| self.passable(p, kind)) {
            return;
        }
        let walk = PlainWalk {
            comp,
            id: step.generator,
            from,
            kind,
            path,
            watch,
            double_step: comp.sets_ep && !path.is_empty(),
        };
        for &to in line {
            // A line stops at its first obstacle; merged leaps go on to the next.
            if !self.plain_target::<TACTICAL>(g, &walk, to, out) && !step.leaps {
                break;
            }
        }
    }

    /// The moves of a piece whose every step from `from` has a bit form
    /// (`BitSquare::by_bits`), moving as itself, with the board as bits: each step's
    /// targets at once, a line's ending at its first piece. Along a line the moves
    /// come in the walk's order, merged leaps' in the order of their squares. Apart
    /// from [`Self::betza_moves`], so that the walk of the others stays as it was.
    #[inline(never)]
    fn bit_moves<const TACTICAL: bool>(
        &self,
        g: &Gen,
        from: Cell,
        at: &BitSquare,
        occ: &Occupancy,
        out: &mut Vec<Move>,
    ) {
        self.bit_steps::<TACTICAL>(g, from, at, occ, out);
    }

    /// [`Self::bit_moves`], inlined into the generator's loop over the pieces: a call
    /// per piece, with its saved registers, cost some 25 instructions a piece (4–7%
    /// of a perft's instructions where most pieces take the bit path). The other
    /// callers keep the call, so that the walk beside it compiles as before.
    #[inline(always)]
    fn bit_steps<const TACTICAL: bool>(
        &self,
        g: &Gen,
        from: Cell,
        at: &BitSquare,
        occ: &Occupancy,
        out: &mut Vec<Move>,
    ) {
        let t = &g.rules.tables;
        let occupied = !occ.empty;
        // A step from the first square alone is passed over once the piece moved.
        let gone = if self.unmoved[from.index()] {
            0
        } else {
            BitStep::INITIAL
        };
        // The landings that take the full rules; an en-passant capture too.
        let watch = at.watch | occ.ep;
        let (start, end) = (at.start as usize, (at.start + at.len) as usize);
        for (i, s) in (start..).zip(&t.steps.bits[start..end]) {
            if s.flags & (BitStep::INITIAL | BitStep::PATH) != 0
                && (s.flags & gone != 0 || s.path & occupied != 0)
            {
                continue;
            }
            let mut cells = s.cells;
            if s.flags & BitStep::RIDER != 0 {
                cells &= up_to_first(cells & occupied, s.flags & BitStep::DOWN != 0);
            }
            let wanted = cells & occ.lands[usize::from(s.flags & BitStep::LANDS)];
            let special = wanted & watch;
            let plain = if TACTICAL { wanted & occ.enemy } else { wanted } & !special;
            if special != 0 {
                self.bit_landings(g, i, from, plain, special, out);
                continue;
            }
            let kind = if s.flags & BitStep::DOUBLE != 0 {
                MoveKind::DoubleStep
            } else {
                MoveKind::Normal
            };
            let m = Move {
                kind,
                ..Move::new(from, NO_CELL, s.generator)
            };
            let push = |to: usize| {
                out.push(Move {
                    to: Cell::new(to),
                    ..m
                });
            };
            if s.flags & BitStep::DOWN != 0 {
                for_each_bit_down(plain, push);
            } else {
                for_each_bit_up(plain, push);
            }
        }
    }

    /// The moves of the bit path's step `i` (of `Steps::plain`) where some landings
    /// (`special`) take the full rules ([`Self::land`]): promotions, en passant. The
    /// others (`plain`) are pushed as they are, all in the walk's order.
    #[inline(never)]
    fn bit_landings(
        &self,
        g: &Gen,
        i: usize,
        from: Cell,
        plain: u128,
        special: u128,
        out: &mut Vec<Move>,
    ) {
        let t = &g.rules.tables;
        let kind = kind_of(self.board[from]);
        let (step, s) = (&t.steps.plain[i], &t.steps.bits[i]);
        let comp = &t.gens[step.generator];
        let path = t.steps.path(step);
        let mut each = |to: usize| {
            let m = Move::new(from, Cell::new(to), step.generator);
            if special >> to & 1 != 0 {
                self.land(g, comp, m, kind, path, out);
            } else if s.flags & BitStep::DOUBLE != 0 {
                out.push(Move {
                    kind: MoveKind::DoubleStep,
                    ..m
                });
            } else {
                out.push(m);
            }
        };
        if s.flags & BitStep::DOWN != 0 {
            for_each_bit_down(plain | special, &mut each);
        } else {
            for_each_bit_up(plain | special, &mut each);
        }
    }

    /// One target square of the short path: adds its move, if any. Returns whether
    /// a line goes on past the square.
    #[inline(always)]
    fn plain_target<const TACTICAL: bool>(
        &self,
        g: &Gen,
        w: &PlainWalk,
        to: Cell,
        out: &mut Vec<Move>,
    ) -> bool {
        let comp = w.comp;
        let occupant = self.board[to];
        // Games without terrain skip the look at each square's.
        if !g.rules.terrains.is_empty() && self.terrain[to] != 0 {
            // Terrain: this square takes the full rules.
            match self.landing(to, w.kind) {
                Landing::Open => {}
                Landing::Last => {
                    self.land(g, comp, Move::new(w.from, to, w.id), w.kind, w.path, out);
                    return false;
                }
                Landing::Clear => {
                    if comp.can_move && occupant == EMPTY {
                        self.push(g, comp, Move::new(w.from, to, w.id), w.kind, out);
                    }
                    return false;
                }
                Landing::Pass => return occupant == EMPTY,
                Landing::Blocked => return false,
            }
        }
        let en_passant = comp.takes_ep && to == self.ep;
        let wanted = if occupant == EMPTY {
            comp.can_move || en_passant
        } else {
            comp.can_capture && side_of(occupant) != self.side
        };
        if wanted {
            // An en-passant capture, or a square where the piece may promote or may
            // not stay: the full rules.
            let special = en_passant || w.watch.is_none_or(|w| w[to]);
            if TACTICAL && occupant == EMPTY && !special {
                return true;
            }
            let m = Move::new(w.from, to, w.id);
            if special {
                self.land(g, comp, m, w.kind, w.path, out);
            } else if w.double_step {
                out.push(Move {
                    kind: MoveKind::DoubleStep,
                    ..m
                });
            } else {
                out.push(m);
            }
        }
        occupant == EMPTY
    }

    /// Do fewer than `limit` pieces `wanted` stand on the file of `to` (on its board)?
    /// The count stops at the limit.
    #[inline(never)]
    fn fewer_on_file(&self, g: &Gen, to: Cell, wanted: Code, limit: u8) -> bool {
        let limit = usize::from(limit);
        if usize::from(self.counts[wanted as usize]) < limit {
            return true;
        }
        let file = g.rules.tables.files.of(to);
        let on = file.iter().filter(|&&c| self.board[c] == wanted);
        on.take(limit).count() < limit
    }

    /// Drops repeats among the moves of one piece whose components overlap (`KW`).
    fn dedup_tail(&self, out: &mut Vec<Move>, start: usize) {
        let mut i = start;
        while i < out.len() {
            if out[start..i]
                .iter()
                .any(|m| m.same_play(&out[i], &self.rules))
            {
                out.remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// A landing on an open square: a move, a capture, or an en-passant capture.
    #[inline]
    fn land(
        &self,
        g: &Gen,
        comp: &GenInfo,
        m: Move,
        kind: usize,
        path: &[Cell],
        out: &mut Vec<Move>,
    ) {
        let occupant = self.board[m.to];
        if occupant == EMPTY {
            if comp.can_move {
                let mut m = m;
                if comp.sets_ep && !path.is_empty() {
                    m.kind = MoveKind::DoubleStep;
                }
                self.push(g, comp, m, kind, out);
            }
            if comp.takes_ep && m.to == self.ep && self.ep_victim != NO_CELL {
                let victim = self.board[self.ep_victim];
                if victim != EMPTY && side_of(victim) != self.side {
                    self.push(
                        g,
                        comp,
                        Move {
                            kind: MoveKind::EnPassant,
                            ..m
                        },
                        kind,
                        out,
                    );
                }
            }
        } else if comp.can_capture && side_of(occupant) != self.side {
            let kind_now = if comp.stays { MoveKind::Rifle } else { m.kind };
            self.push(
                g,
                comp,
                Move {
                    kind: kind_now,
                    ..m
                },
                kind,
                out,
            );
        }
    }

    /// Adds a move if its component's conditions hold: once per promotion choice
    /// where the piece may promote, and as it is unless it must promote or could
    /// never move again.
    #[inline]
    fn push(&self, g: &Gen, comp: &GenInfo, m: Move, kind: usize, out: &mut Vec<Move>) {
        let t = &g.rules.tables;
        if !self.conditions_hold(g, comp, m) {
            return;
        }
        // `then becomes PIECE`: the line's own promotion, in place of the piece's rules.
        let mut m = m;
        if comp.becomes != 0 && m.promo == EMPTY {
            m.promo = code(usize::from(comp.becomes - 1), self.side);
        }
        if m.promo == EMPTY
            && m.kind != MoveKind::Rifle
            && t.kinds.promoting >> kind & 1 != 0
            && self.may_promote(kind, m)
            && self.promotions(g, kind, m, out)
        {
            return;
        }
        let placed = if m.promo == EMPTY {
            code(kind, self.side)
        } else {
            m.promo
        };
        if !t.landing.is_dead(placed, m.to) {
            out.push(m);
        }
    }

    /// May a promotion rule apply to `m`, by the tables of where the piece of `kind`
    /// may promote? (A quick test before the rules themselves are read.)
    #[inline]
    fn may_promote(&self, kind: usize, m: Move) -> bool {
        let t = &self.rules.tables;
        let n = self.board.len();
        let at = code(kind, self.side) as usize * n;
        t.landing.watch[at + m.to.index()] || t.landing.promotes_from[at + m.from.index()]
    }

    /// Adds the promotions of the piece of `kind` making `m`, if a promotion rule
    /// applies to it (then also `m` unpromoted, if every rule that applies is
    /// optional). Several rules offer each piece once; a rule `capturing` applies to
    /// captures only. Returns whether one applied.
    fn promotions(&self, g: &Gen, kind: usize, m: Move, out: &mut Vec<Move>) -> bool {
        let rules = g.rules;
        let side = self.side;
        let in_zone = |zone, cell: Cell| cell != NO_CELL && rules.zone_contains(zone, side, cell);
        let (mut applied, mut forced, mut offered) = (false, false, 0u64);
        let captures = || {
            m.kind == MoveKind::EnPassant
                || (m.kind == MoveKind::Normal && self.board[m.to] != EMPTY)
        };
        for p in &rules.pieces[kind].promotions {
            if !p.applies(in_zone(p.zone, m.from), in_zone(p.zone, m.to))
                || (p.capturing && !captures())
            {
                continue;
            }
            applied = true;
            forced |= !p.optional;
            for &k in &p.to {
                let promo = code(k.index(), side);
                let t = &rules.tables;
                let lost = || self.counts[promo as usize] < t.home.counts[promo as usize];
                if offered >> k.index() & 1 == 0
                    && !t.landing.is_dead(promo, m.to)
                    && (!p.only_lost || lost())
                {
                    out.push(Move { promo, ..m });
                }
                offered |= 1 << k.index();
            }
        }
        if applied && !forced && !rules.tables.landing.is_dead(code(kind, side), m.to) {
            out.push(m);
        }
        applied
    }

    #[inline]
    pub(super) fn conditions_hold(&self, g: &Gen, comp: &GenInfo, m: Move) -> bool {
        let len = comp.conds.1;
        if comp.counts && !self.counters_stay_in_range(g, comp) {
            return false;
        }
        if len == 0 {
            return true;
        }
        g.rules
            .tables
            .gens
            .conds(comp)
            .iter()
            .all(|cond| self.condition_holds(g, cond, m))
    }

    /// Would the counter effects of a generator keep the mover's counters within
    /// `-MAX_COUNTER..=MAX_COUNTER`?
    fn counters_stay_in_range(&self, g: &Gen, comp: &GenInfo) -> bool {
        let t = &g.rules.tables;
        let nc = g.rules.counters.len();
        t.gens.effects(comp).iter().all(|e| match *e {
            Effect::Counter(i, d) => {
                let after = self.counters[self.side.index() * nc + i.index()] + d;
                (-MAX_COUNTER..=MAX_COUNTER).contains(&after)
            }
            _ => true,
        })
    }

    /// Does one condition hold for the move `m`?
    pub(crate) fn condition_holds(&self, g: &Gen, cond: &Cond, m: Move) -> bool {
        let geo = &g.rules.geometry;
        // The moving piece's side: not always the side to move (attacks are asked of
        // the other side's pieces).
        let mover = self.board.get(m.from.index()).copied().unwrap_or(EMPTY);
        let side = if mover != EMPTY {
            side_of(mover)
        } else {
            self.side
        };
        match *cond {
            // A piece from the hand stands as high as a new piece.
            Cond::Height(op, n) => op.holds(
                i64::from(self.height.get(m.from.index()).map_or(1, |&h| h)),
                n,
            ),
            Cond::From(z) => m.from != NO_CELL && g.rules.zone_contains(z, side, m.from),
            Cond::To(z) => m.to != NO_CELL && g.rules.zone_contains(z, side, m.to),
            Cond::Counter(i, op, n) => op.holds(self.counter(side, i.index()), n),
            Cond::Player(s) => side == s,
            Cond::OwnPieceIn { kind, zone } => {
                let c = code(kind.index(), side);
                self.counts[c as usize] > 0
                    && self
                        .board
                        .iter()
                        .enumerate()
                        .any(|(cell, &b)| b == c && g.rules.zone(zone).cells[side][cell])
            }
            Cond::NoneOnFile { enemy, kind, limit } => {
                let wanted = code(kind.index(), if enemy { side.opponent() } else { side });
                let on_file = || {
                    let file = g.rules.tables.files.of(m.to);
                    file.iter().any(|&c| self.board[c] == wanted)
                };
                m.to != NO_CELL
                    && if limit == 1 {
                        self.counts[wanted as usize] == 0 || !on_file()
                    } else {
                        self.fewer_on_file(g, m.to, wanted, limit)
                    }
            }
            Cond::Captures { kind, yes } => {
                let v = self.taken(g, m);
                (v != EMPTY && kind_of(v) == kind.index()) == yes
            }
            Cond::Over { kind, yes } => {
                let s = self.screen(g, m, side);
                (s != EMPTY && kind_of(s) == kind.index()) == yes
            }
            Cond::InCheck { yes } => self.in_check(side) == yes,
            Cond::CountOnBoard { enemy, kind, limit } => {
                let wanted = code(kind.index(), if enemy { side.opponent() } else { side });
                self.counts[wanted as usize] < u16::from(limit)
            }
            // Read on the position the move makes, by the legal-move filter.
            Cond::Checking { .. } | Cond::Attacking { .. } => true,
            Cond::Converts => {
                let info = &g.rules.tables.gens[m.generator];
                g.rules
                    .tables
                    .gens
                    .effects_of(info)
                    .iter()
                    .any(|e| match *e {
                        Effect::Convert(how) => self.converts_any(how, m, side),
                        _ => false,
                    })
            }
            Cond::CloserTo { .. } if m.from == NO_CELL || m.to == NO_CELL => false,
            Cond::CloserTo { enemy, kind } => {
                let target = code(kind.index(), if enemy { side.opponent() } else { side });
                let d2 = |a: Cell, b: Cell| {
                    let (ca, cb) = (&geo.cells[a], &geo.cells[b]);
                    let (dx, dy) = (
                        ca.file as i64 - cb.file as i64,
                        ca.rank as i64 - cb.rank as i64,
                    );
                    dx * dx + dy * dy
                };
                let nearest = |from: Cell| match &g.located {
                    Some(l) if !l.overflow => l.cells[..l.len]
                        .iter()
                        .filter(|(c, _)| *c == target)
                        .map(|&(_, cell)| d2(from, cell))
                        .min(),
                    _ => (0..self.board.len())
                        .filter(|&cell| self.board[cell] == target)
                        .map(|cell| d2(from, Cell::new(cell)))
                        .min(),
                };
                match (nearest(m.to), nearest(m.from)) {
                    (Some(after), Some(before)) => after < before,
                    _ => false,
                }
            }
        }
    }

    /// The piece `m` takes, or would take when attack detection asks for a piece
    /// not standing on the target ([`Gen::victim`]); [`EMPTY`] for none.
    fn taken(&self, g: &Gen, m: Move) -> Code {
        let cell = match m.kind {
            MoveKind::EnPassant => self.ep_victim,
            _ => m.to,
        };
        match self.board.get(cell.index()).copied().unwrap_or(EMPTY) {
            EMPTY => g.victim,
            c => c,
        }
    }

    /// The piece a hopping move of a Betza generator jumps (the first piece on its
    /// line between `from` and `to`); [`EMPTY`] for a move that jumps nothing.
    fn screen(&self, g: &Gen, m: Move, side: Side) -> Code {
        let rules = g.rules;
        if m.from == NO_CELL || m.to == NO_CELL || rules.tables.gens[m.generator].hop == Hop::None {
            return EMPTY;
        }
        let Source::Betza(b) = rules.generators[m.generator].source else {
            return EMPTY;
        };
        let b = rules.betza(b);
        let geo = &rules.geometry;
        let (a, z) = (&geo.cells[m.from], &geo.cells[m.to]);
        let (dx, dy) = (z.file as i32 - a.file as i32, z.rank as i32 - a.rank as i32);
        let flip = if side.is_first() { 1 } else { -1 };
        // The generator's step whose multiple leads from `from` to `to`.
        let step = b.vectors.iter().find_map(|&(vx, vy)| {
            let (sx, sy) = (i32::from(vx) * flip, i32::from(vy) * flip);
            let k = if sx != 0 { dx / sx } else { dy / sy };
            (k > 0 && sx * k == dx && sy * k == dy).then_some((sx, sy, k))
        });
        let Some((sx, sy, k)) = step else {
            return EMPTY;
        };
        let mut cur = m.from;
        for _ in 1..k {
            let Some(next) = geo.offset(cur, sx, sy) else {
                break;
            };
            cur = next;
            if self.board[cur] != EMPTY {
                return self.board[cur];
            }
        }
        EMPTY
    }

    /// Castling by one castling generator, if its right, its squares and (for a
    /// royal piece) the squares it crosses allow.
    fn castling(&self, g: &Gen, id: GenId, info: &GenInfo, out: &mut Vec<Move>) {
        let rules = &*self.rules;
        let i = info.castling();
        let c = &rules.castlings[i];
        let us = self.side;
        if c.side != us || self.castling >> i & 1 == 0 {
            return;
        }
        let king = self.board[c.king_from];
        let rook = self.board[c.rook_from];
        if king == EMPTY || rook == EMPTY || side_of(king) != us || side_of(rook) != us {
            return;
        }
        if !c
            .must_be_empty
            .iter()
            .all(|&s| self.board[s] == EMPTY && self.terrain[s] == 0)
        {
            return;
        }
        if rules.tables.kinds.royal >> kind_of(king) & 1 != 0
            && c.king_path.iter().any(|&s| match g.known_attack {
                Some((known, attacked)) if known == s => attacked,
                _ => {
                    !(rules.tables.kinds.explodes && self.next_to_royal(s, us.opponent()))
                        && super::attack::attacked_as(self, s, us.opponent(), king)
                }
            })
        {
            return;
        }
        out.push(Move {
            kind: MoveKind::Castle,
            ..Move::new(c.king_from, c.king_to, id)
        });
    }
}
