//! The generic move generator: for each piece of the side to move, walk its
//! precomputed leaps and rays, applying terrain, occupancy, hops, initial-move and
//! en-passant rules; add castling; then keep the moves that leave no royal attacked.

use super::{Move, MoveKind, Position};
use crate::rules::{Cell, Code, CompInfo, Cond, EMPTY, NO_CELL, Rules, code, kind_of, side_of};
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

fn new_move(from: Cell, to: Cell, becomes: Code) -> Move {
    Move {
        promo: becomes,
        ..Move::new(from, to)
    }
}

/// What one call of the generator looks up once: the rules, and where the pieces that
/// `closer-to` conditions measure from stand.
pub(crate) struct Gen<'r> {
    rules: &'r Rules,
    located: [(Code, Cell); MAX_LOCATED],
    located_len: usize,
}

impl<'r> Gen<'r> {
    pub(crate) fn new(pos: &Position, rules: &'r Rules) -> Self {
        let t = &rules.tables;
        let mut g = Gen {
            rules,
            located: [(EMPTY, NO_CELL); MAX_LOCATED],
            located_len: 0,
        };
        if t.located_kinds != 0 {
            for (cell, &c) in pos.board.iter().enumerate() {
                if c != EMPTY
                    && t.located_kinds >> kind_of(c) & 1 != 0
                    && g.located_len < MAX_LOCATED
                {
                    g.located[g.located_len] = (c, cell as Cell);
                    g.located_len += 1;
                }
            }
        }
        g
    }
}

const MAX_LOCATED: usize = 16;

impl Position {
    /// Can a piece of `kind` pass over `cell` (no piece, no terrain in its way)?
    #[inline]
    pub(crate) fn passable(&self, cell: Cell, kind: usize) -> bool {
        if self.board[cell as usize] != EMPTY {
            return false;
        }
        match self.terrain[cell as usize] {
            0 => true,
            t => {
                let tr = &self.rules.terrains[t as usize - 1];
                !tr.blocks_passing || tr.crossed_by >> kind & 1 != 0
            }
        }
    }

    #[inline]
    fn landing(&self, cell: Cell, kind: usize) -> Landing {
        match self.terrain[cell as usize] {
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
        let rules = &*self.rules;
        let t = &rules.tables;
        let n = self.board.len();
        let us = self.side;
        let g = Gen::new(self, rules);
        if rules.pie_rule
            && us == 1
            && self.fullmove == 1
            && !self.swapped
            && self
                .history
                .last()
                .is_none_or(|u| u.mv.kind != MoveKind::Swap)
        {
            out.push(Move {
                kind: MoveKind::Swap,
                ..Move::new(NO_CELL, NO_CELL)
            });
        }
        let may_flip = rules.flip_rules[us].is_some() && self.flip_allowed(us);
        for from in 0..n {
            let c = self.board[from];
            if c == EMPTY || side_of(c) != us {
                continue;
            }
            let kind = kind_of(c);
            let first_move = out.len();
            self.piece_moves(&g, from as Cell, c, EMPTY, out);
            if may_flip
                && let Some(other) = rules.pieces[kind].flips_to
                && t.flip_cells[us].contains(&(from as Cell))
            {
                let face = code(other, us);
                self.piece_moves(&g, from as Cell, face, face, out);
            }
            if t.overlapping_kinds >> kind & 1 != 0 {
                Self::dedup_tail(out, first_move);
            }
        }
        if rules.drop_zone.is_some() {
            let kinds = rules.pieces.len();
            for kind in 0..kinds {
                if self.hand[us * kinds + kind] == 0 {
                    continue;
                }
                for &to in &t.drop_cells[us] {
                    if self.board[to as usize] == EMPTY
                        && matches!(self.landing(to, kind), Landing::Open | Landing::Last)
                    {
                        out.push(Move {
                            kind: MoveKind::Drop,
                            aux: kind as Cell,
                            ..Move::new(NO_CELL, to)
                        });
                    }
                }
            }
        }
        self.castlings(rules, out);
    }

    /// May `side` flip its two-faced pieces now (its flip rule's condition holds)?
    pub(crate) fn flip_allowed(&self, side: usize) -> bool {
        let Some(rule) = &self.rules.flip_rules[side] else {
            return false;
        };
        match rule.needs {
            None => true,
            Some((kind, zone)) => {
                let c = code(kind, side);
                self.counts[c as usize] > 0
                    && self
                        .board
                        .iter()
                        .enumerate()
                        .any(|(cell, &b)| b == c && self.rules.zones[zone].cells[side][cell])
            }
        }
    }

    /// The moves of the piece on `from` as if it were `face`; a move that turns it
    /// into `face` (a flip) carries `becomes`, else `becomes` is [`EMPTY`].
    fn piece_moves(&self, g: &Gen, from: Cell, face: Code, becomes: Code, out: &mut Vec<Move>) {
        let rules = g.rules;
        let t = &rules.tables;
        let n = self.board.len();
        let f = from as usize;
        let kind = kind_of(face);
        let (start, len) = t.step_index[face as usize * n + f];
        let us = self.side;
        // Most moves need none of the rules' extras: walk them on a short path.
        let simple_piece = becomes == EMPTY;
        // Where this piece promotes, if it does: such landings take the full path.
        let promotion_zone = rules.pieces[kind]
            .promotion
            .as_ref()
            .map(|p| &rules.zones[p.zone].cells[us]);
        for step in &t.steps[start as usize..(start + len) as usize] {
            let comp = &t.comps[step.comp as usize];
            if comp.initial && !self.unmoved[f] {
                continue;
            }
            let line = &t.cells[step.first as usize..step.first as usize + step.len as usize];
            if simple_piece && comp.plain {
                let path = &t.cells
                    [step.path_first as usize..step.path_first as usize + step.path_len as usize];
                if step.rider || path.iter().all(|&p| self.passable(p, kind)) {
                    for &to in line {
                        let occupant = self.board[to as usize];
                        if self.terrain[to as usize] != 0 {
                            // Terrain: this square takes the full rules.
                            match self.landing(to, kind) {
                                Landing::Open => {}
                                Landing::Last => {
                                    self.land(g, comp, Move::new(from, to), kind, path, out);
                                    break;
                                }
                                Landing::Clear => {
                                    if comp.can_move && occupant == EMPTY {
                                        self.push(g, comp, Move::new(from, to), kind, out);
                                    }
                                    break;
                                }
                                Landing::Pass if occupant == EMPTY => continue,
                                Landing::Pass | Landing::Blocked => break,
                            }
                        }
                        let wanted = if occupant == EMPTY {
                            comp.can_move || (comp.takes_ep && to == self.ep)
                        } else {
                            comp.can_capture && side_of(occupant) != us
                        };
                        if wanted {
                            let special = comp.sets_ep
                                || comp.takes_ep
                                || promotion_zone.is_some_and(|z| z[to as usize]);
                            if special {
                                self.land(g, comp, Move::new(from, to), kind, path, out);
                            } else {
                                out.push(Move::new(from, to));
                            }
                        }
                        if occupant != EMPTY {
                            break;
                        }
                    }
                }
                continue;
            }
            let new = |to: Cell| Move {
                promo: becomes,
                ..Move::new(from, to)
            };
            if !step.rider {
                let path = &t.cells
                    [step.path_first as usize..step.path_first as usize + step.path_len as usize];
                if !path.iter().all(|&p| self.passable(p, kind)) {
                    continue;
                }
                let to = line[0];
                match self.landing(to, kind) {
                    Landing::Open | Landing::Last => self.land(g, comp, new(to), kind, path, out),
                    Landing::Clear => {
                        if comp.can_move && self.board[to as usize] == EMPTY {
                            self.push(g, comp, new(to), kind, out);
                        }
                    }
                    Landing::Pass | Landing::Blocked => {}
                }
                continue;
            }
            let mut screened = comp.hop == Hop::None;
            for &to in line {
                let occupant = self.board[to as usize];
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
        let piece = &rules.pieces[kind];
        if piece.flies {
            let (start, len) = t.flight_index[f];
            for &to in &t.cells[start as usize..(start + len) as usize] {
                if self.board[to as usize] == EMPTY
                    && matches!(self.landing(to, kind), Landing::Open | Landing::Last)
                {
                    out.push(Move {
                        kind: MoveKind::Flight,
                        ..new_move(from, to, becomes)
                    });
                }
            }
        }
        if let Some(zone) = piece.exits_from
            && becomes == EMPTY
            && rules.zone_contains(zone, self.side, from)
        {
            out.push(Move {
                kind: MoveKind::Exit,
                ..Move::new(from, NO_CELL)
            });
        }
    }

    /// Drops repeats among the moves of one piece whose components overlap (`KW`).
    fn dedup_tail(out: &mut Vec<Move>, start: usize) {
        let mut i = start;
        while i < out.len() {
            if out[start..i].contains(&out[i]) {
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
        comp: &CompInfo,
        m: Move,
        kind: usize,
        path: &[Cell],
        out: &mut Vec<Move>,
    ) {
        let occupant = self.board[m.to as usize];
        if occupant == EMPTY {
            if comp.can_move {
                let mut m = m;
                if comp.sets_ep {
                    m.kind = MoveKind::DoubleStep;
                    m.aux = path[0];
                }
                self.push(g, comp, m, kind, out);
            }
            if comp.takes_ep && m.to == self.ep && self.ep_victim != NO_CELL {
                let victim = self.board[self.ep_victim as usize];
                if victim != EMPTY && side_of(victim) != self.side {
                    self.push(
                        g,
                        comp,
                        Move {
                            kind: MoveKind::EnPassant,
                            aux: self.ep_victim,
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

    /// Adds a move if its component's conditions hold, once per promotion choice where
    /// the piece must promote.
    #[inline]
    fn push(&self, g: &Gen, comp: &CompInfo, mut m: Move, kind: usize, out: &mut Vec<Move>) {
        let rules = g.rules;
        if comp.conds.1 != 0 && !self.conditions_hold(g, comp, m) {
            return;
        }
        m.effects = comp.effects;
        if m.promo == EMPTY
            && let Some(p) = &rules.pieces[kind].promotion
            && rules.zone_contains(p.zone, self.side, m.to)
        {
            for &k in &p.to {
                out.push(Move {
                    promo: code(k, self.side),
                    ..m
                });
            }
            return;
        }
        out.push(m);
    }

    fn conditions_hold(&self, g: &Gen, comp: &CompInfo, m: Move) -> bool {
        let (start, len) = comp.conds;
        g.rules.tables.conds[start as usize..(start + len) as usize]
            .iter()
            .all(|cond| self.condition_holds(g, cond, m))
    }

    /// Does one condition hold for the move `m`?
    pub(crate) fn condition_holds(&self, g: &Gen, cond: &Cond, m: Move) -> bool {
        let geo = &g.rules.geometry;
        // The moving piece's side: not always the side to move (attacks are asked of
        // the other side's pieces).
        let mover = self.board.get(m.from as usize).copied().unwrap_or(EMPTY);
        let side = if mover != EMPTY {
            side_of(mover)
        } else {
            self.side
        };
        match *cond {
            Cond::Height(op, n) => op.holds(self.height[m.from as usize] as i64, n),
            Cond::From(z) => g.rules.zone_contains(z, side, m.from),
            Cond::To(z) => g.rules.zone_contains(z, side, m.to),
            Cond::Counter(i, op, n) => op.holds(self.counter(side, i) as i64, n),
            Cond::CloserTo { enemy, kind } => {
                let target = code(kind, if enemy { side ^ 1 } else { side });
                let d2 = |a: Cell, b: Cell| {
                    let (ca, cb) = (&geo.cells[a as usize], &geo.cells[b as usize]);
                    let (dx, dy) = (
                        ca.file as i64 - cb.file as i64,
                        ca.rank as i64 - cb.rank as i64,
                    );
                    dx * dx + dy * dy
                };
                let nearest = |from: Cell| {
                    g.located[..g.located_len]
                        .iter()
                        .filter(|(c, _)| *c == target)
                        .map(|&(_, cell)| d2(from, cell))
                        .min()
                };
                match (nearest(m.to), nearest(m.from)) {
                    (Some(after), Some(before)) => after < before,
                    _ => false,
                }
            }
        }
    }

    fn castlings(&self, rules: &Rules, out: &mut Vec<Move>) {
        if self.castling == 0 {
            return;
        }
        let us = self.side;
        for (i, c) in rules.castlings.iter().enumerate() {
            if c.side != us || self.castling >> i & 1 == 0 {
                continue;
            }
            let king = self.board[c.king_from as usize];
            let rook = self.board[c.rook_from as usize];
            if king == EMPTY || rook == EMPTY || side_of(king) != us || side_of(rook) != us {
                continue;
            }
            if !c
                .must_be_empty
                .iter()
                .all(|&s| self.board[s as usize] == EMPTY && self.terrain[s as usize] == 0)
            {
                continue;
            }
            if rules.tables.royal_kinds >> kind_of(king) & 1 != 0
                && c.king_path.iter().any(|&s| self.attacked(s, us ^ 1))
            {
                continue;
            }
            out.push(Move {
                kind: MoveKind::Castle,
                aux: i as Cell,
                ..Move::new(c.king_from, c.king_to)
            });
        }
    }

    /// When the side to move is not in check: is `m` sure to leave its royal pieces
    /// unattacked, without playing it? True for a move by a non-royal piece (that
    /// stays non-royal) from a square on no line to a royal piece, and for a placement.
    /// Moves that empty a second square are always played out.
    #[inline]
    fn cannot_expose(&self, m: Move) -> bool {
        let t = &self.rules.tables;
        let royal = |c: Code| c != EMPTY && t.royal_kinds >> kind_of(c) & 1 != 0;
        match m.kind {
            // These take a piece off a second square (a capture without moving
            // leaves the target empty), or move the royal piece.
            MoveKind::EnPassant | MoveKind::Castle | MoveKind::Swap | MoveKind::Rifle => {
                return false;
            }
            MoveKind::Drop => return t.royal_kinds >> m.aux & 1 == 0,
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

    /// Does `m` move a royal piece, or make one?
    #[inline]
    fn is_royal_move(&self, m: Move) -> bool {
        let t = &self.rules.tables;
        let royal = |c: Code| c != EMPTY && t.royal_kinds >> kind_of(c) & 1 != 0;
        royal(self.board[m.from as usize]) || royal(m.promo)
    }

    /// With the side to move not in check: would taking the piece off `from` leave a
    /// royal piece of its side attacked? If not, any ordinary move of it is legal.
    fn lifting_exposes(&mut self, from: Cell) -> bool {
        let piece = std::mem::replace(&mut self.board[from as usize], EMPTY);
        let us = self.side;
        let exposed = self.in_check(us);
        self.board[from as usize] = piece;
        exposed
    }

    /// Is the position after `m` legal for the side that played it?
    #[inline]
    pub fn is_legal(&mut self, m: Move) -> bool {
        let us = self.side;
        if self.rules.tables.royal_kinds == 0 {
            return true;
        }
        self.make(m);
        let ok = self.royals.count[us] == 0 || !self.in_check(us);
        self.unmake();
        ok
    }

    /// Every legal move, appended to `out` (which is cleared first).
    pub fn legal_moves_into(&mut self, out: &mut Vec<Move>) {
        out.clear();
        if self.decided().is_some() {
            return;
        }
        self.pseudo_moves(out);
        if self.rules.tables.royal_kinds != 0 {
            let us = self.side;
            if self.rules.tables.fast_legality && self.royals.count[us] != 0 && !self.in_check(us) {
                // Moves come grouped by their square: remember whether lifting the last
                // piece looked at uncovers an attack on a royal piece.
                let mut lifted: (Cell, bool) = (NO_CELL, false);
                out.retain(|&m| {
                    if self.cannot_expose(m) {
                        return true;
                    }
                    if matches!(
                        m.kind,
                        MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Flight
                    ) && !self.is_royal_move(m)
                    {
                        if lifted.0 != m.from {
                            lifted = (m.from, self.lifting_exposes(m.from));
                        }
                        if !lifted.1 {
                            return true;
                        }
                    }
                    self.is_legal(m)
                });
            } else {
                out.retain(|&m| self.is_legal(m));
            }
        }
        if self.rules.stalemate_illegal && !out.is_empty() {
            self.forbid_stalemating(out);
        }
    }

    /// Does the side to move have a legal move (by every rule but Sittuyin's)? Tries
    /// one placement from the hand first, which usually settles it at once.
    fn has_legal_move(&mut self, scratch: &mut Vec<Move>) -> bool {
        let rules = self.rules.clone();
        let kinds = rules.pieces.len();
        let us = self.side;
        if rules.drop_zone.is_some()
            && let Some(kind) = (0..kinds).find(|&k| self.hand[us * kinds + k] != 0)
        {
            let free = rules.tables.drop_cells[us]
                .iter()
                .copied()
                .find(|&c| self.board[c as usize] == EMPTY && self.terrain[c as usize] == 0);
            if let Some(to) = free
                && self.is_legal(Move {
                    kind: MoveKind::Drop,
                    aux: kind as Cell,
                    ..Move::new(NO_CELL, to)
                })
            {
                return true;
            }
        }
        scratch.clear();
        self.pseudo_moves(scratch);
        let moves = std::mem::take(scratch);
        let any = moves.iter().any(|&r| self.is_legal(r));
        *scratch = moves;
        any
    }

    /// Sittuyin's rule: a move that leaves the opponent without a legal move while not
    /// in check is illegal, unless every move would; a move that ends the game stands.
    fn forbid_stalemating(&mut self, moves: &mut Vec<Move>) {
        let mut reply = Vec::new();
        let keep: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| {
                self.make(m);
                let ok = self.decided().is_some()
                    || self.in_check(self.side)
                    || self.has_legal_move(&mut reply);
                self.unmake();
                ok
            })
            .collect();
        if !keep.is_empty() {
            *moves = keep;
        }
    }

    /// Every legal move.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        let mut out = Vec::with_capacity(64);
        self.legal_moves_into(&mut out);
        out
    }
}
