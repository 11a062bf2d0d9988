//! The position and make/unmake.

use std::sync::Arc;

use crate::ids::Side;
use crate::model::MAX_IN_HAND;
use crate::rules::NO_HAND;
use crate::rules::{
    Cell, Code, EMPTY, Effect, GenId, NO_CELL, Rules, Source, code, kind_of, side_of,
};

/// What make/unmake do for a move; which generator made it is [`Move::generator`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A move or capture by replacement (terrain on the target may be cleared);
    /// steps, rides, hops and flights.
    Normal,
    /// A non-capturing move that leaves the square it passed open to en passant.
    DoubleStep,
    /// Captures the piece that just passed, landing on the square it passed.
    EnPassant,
    /// Castling: the king-like piece moves `from`→`to`, its partner with it.
    Castle,
    /// The pie rule: the second player takes over the first player's side.
    Swap,
    /// The player moves nothing.
    Pass,
    /// A piece from the hand onto `to`.
    Drop,
    /// The piece on `from` leaves the board.
    Exit,
    /// The piece on `from` captures on `to` without moving.
    Rifle,
    /// A `Normal` move from a gate (`gating in ZONE`) that brings the piece `promo`
    /// from the hand onto `from`.
    Gate,
    /// Castling that brings the piece `promo` from the hand onto the king-like
    /// piece's square.
    CastleGate,
    /// Castling that brings the piece `promo` from the hand onto its partner's square.
    CastleGatePartner,
}

impl MoveKind {
    /// Castling, with or without a piece brought in.
    #[inline]
    pub fn is_castle(self) -> bool {
        matches!(
            self,
            MoveKind::Castle | MoveKind::CastleGate | MoveKind::CastleGatePartner
        )
    }

    /// Does it bring a piece from the hand onto a gate?
    #[inline]
    pub fn is_gate(self) -> bool {
        matches!(
            self,
            MoveKind::Gate | MoveKind::CastleGate | MoveKind::CastleGatePartner
        )
    }
}

/// A move: 10 bytes, copied freely.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square it starts from; [`NO_CELL`] for drops, passes and swaps.
    pub from: Cell,
    /// The square it ends on; [`NO_CELL`] for exits, passes and swaps.
    pub to: Cell,
    /// The square of its second part (terrain put there: an arrow, the duck), or
    /// [`NO_CELL`] for a move without one.
    pub second: Cell,
    pub kind: MoveKind,
    /// The piece it turns into (a promotion or a flip), or [`EMPTY`].
    pub promo: Code,
    /// The generator that made it: its conditions, effects, and for a drop the
    /// piece placed, for castling which castling.
    pub generator: GenId,
}

impl Move {
    pub fn new(from: Cell, to: Cell, generator: GenId) -> Self {
        Self {
            from,
            to,
            second: NO_CELL,
            kind: MoveKind::Normal,
            promo: EMPTY,
            generator,
        }
    }

    /// The same move for a player: equal squares, kind and new face, and the same
    /// effects (two generators may produce one move).
    #[inline]
    pub fn same_play(&self, other: &Move, rules: &Rules) -> bool {
        if (self.from, self.to, self.kind, self.promo, self.second)
            != (other.from, other.to, other.kind, other.promo, other.second)
        {
            return false;
        }
        // The same list of effects (the common case: none), else the same effects in
        // another order.
        let gens = &rules.tables.gens;
        let (a, b) = (&gens[self.generator], &gens[other.generator]);
        a.effects == b.effects || crate::rules::same_effects(gens.effects_of(a), gens.effects_of(b))
    }
}

/// The largest halfmove clock or move number a position string may give.
pub(crate) const MAX_CLOCK: u32 = 1_000_000;

/// What a move does, said without sentinels or the generator table: what code outside
/// the engine reads of a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveShape {
    /// A piece goes from one square to another (a step, ride, hop, flight, double
    /// step or en passant), turning into `becomes` if it promotes or flips.
    Step {
        from: Cell,
        to: Cell,
        becomes: Option<Code>,
    },
    /// Castling: the king-like piece from `from` to `to`, its partner with it;
    /// `castling` is its index in the rules' castlings.
    Castle {
        from: Cell,
        to: Cell,
        castling: usize,
    },
    /// A piece of kind `piece` from the hand onto `to`.
    Drop { piece: usize, to: Cell },
    /// The piece on `from` leaves the board.
    Exit { from: Cell },
    /// The piece on `from` captures on `to` without moving.
    Rifle { from: Cell, to: Cell },
    /// A step from a gate (`castling: None`) or a castling (its index) that brings
    /// the piece `piece` from the hand onto the square `at` it empties.
    Gate {
        from: Cell,
        to: Cell,
        castling: Option<usize>,
        piece: Code,
        at: Cell,
    },
    /// Nothing moves.
    Pass,
    /// The pie rule: the second player takes over the first player's side.
    Swap,
}

impl Move {
    /// The move without the piece it brings onto a gate: the move whose legality is
    /// its own (as Fairy-Stockfish reads it, the piece brought in shields nothing).
    #[inline]
    pub(crate) fn ungated(self) -> Move {
        match self.kind {
            MoveKind::Gate => Move {
                kind: MoveKind::Normal,
                promo: EMPTY,
                ..self
            },
            MoveKind::CastleGate | MoveKind::CastleGatePartner => Move {
                kind: MoveKind::Castle,
                promo: EMPTY,
                ..self
            },
            _ => self,
        }
    }

    /// The square the moving piece starts from, if one does (not for drops, passes
    /// and swaps).
    pub fn origin(self) -> Option<Cell> {
        (self.from != NO_CELL).then_some(self.from)
    }

    /// The square the move lands on or captures on, if any (not for exits, passes and
    /// swaps).
    pub fn target(self) -> Option<Cell> {
        (self.to != NO_CELL).then_some(self.to)
    }

    /// Is it the pie rule's swap?
    pub fn is_swap(self) -> bool {
        self.kind == MoveKind::Swap
    }

    /// The square its second part puts terrain on, if it has one.
    pub fn second_part(self) -> Option<Cell> {
        (self.second != NO_CELL).then_some(self.second)
    }

    /// Does it move nothing on the board (a pass or a swap)?
    pub fn moves_nothing(self) -> bool {
        matches!(self.kind, MoveKind::Pass | MoveKind::Swap)
    }
}

impl Position {
    /// What `m` does, in terms of squares and pieces.
    pub fn shape(&self, m: Move) -> MoveShape {
        let info = &self.rules.tables.gens[m.generator];
        match m.kind {
            MoveKind::Swap => MoveShape::Swap,
            MoveKind::Pass => MoveShape::Pass,
            MoveKind::Exit => MoveShape::Exit { from: m.from },
            MoveKind::Drop => MoveShape::Drop {
                piece: info.piece as usize,
                to: m.to,
            },
            MoveKind::Castle => MoveShape::Castle {
                from: m.from,
                to: m.to,
                castling: info.castling(),
            },
            MoveKind::Rifle => MoveShape::Rifle {
                from: m.from,
                to: m.to,
            },
            MoveKind::Gate | MoveKind::CastleGate | MoveKind::CastleGatePartner => {
                let castling = (m.kind != MoveKind::Gate).then(|| info.castling());
                MoveShape::Gate {
                    from: m.from,
                    to: m.to,
                    castling,
                    piece: m.promo,
                    at: self.gate_of(m),
                }
            }
            MoveKind::Normal | MoveKind::DoubleStep | MoveKind::EnPassant => MoveShape::Step {
                from: m.from,
                to: m.to,
                becomes: (m.promo != EMPTY).then_some(m.promo),
            },
        }
    }
}

/// Where each side's royal pieces stand, kept up to date by make and unmake (each
/// undoes exactly what the other did, so no copy is kept). Any number of royal
/// pieces: the lists are reserved once, so make never allocates.
#[derive(Debug, Clone, Default)]
pub(crate) struct Royals {
    cells: [Vec<Cell>; 2],
}

impl Royals {
    /// Room for `cells` royal pieces per side without reallocating.
    pub fn with_capacity(cells: usize) -> Self {
        Self {
            cells: [Vec::with_capacity(cells), Vec::with_capacity(cells)],
        }
    }
    pub fn of(&self, side: Side) -> &[Cell] {
        &self.cells[side]
    }
    pub fn count(&self, side: Side) -> usize {
        self.cells[side].len()
    }
    pub fn add(&mut self, side: Side, cell: Cell) {
        self.cells[side].push(cell);
    }
    pub fn remove(&mut self, side: Side, cell: Cell) {
        if let Some(i) = self.cells[side].iter().position(|&c| c == cell) {
            self.cells[side].swap_remove(i);
        }
    }
    pub fn relocate(&mut self, side: Side, from: Cell, to: Cell) {
        if let Some(r) = self.cells[side].iter_mut().find(|c| **c == from) {
            *r = to;
        }
    }
}

/// What make changed, for unmake.
#[derive(Debug, Clone)]
pub(crate) struct Undo {
    pub mv: Move,
    pub captured: Code,
    pub capture_cell: Cell,
    pub cleared_terrain: u8,
    pub castling: u32,
    pub ep: Cell,
    pub ep_victim: Cell,
    pub halfmove: u32,
    pub fullmove: u32,
    pub hash: u64,
    pub unmoved_from: bool,
    pub unmoved_to: bool,
    pub unmoved_aux: bool,
    pub unmoved_rook: bool,
    pub mover: Code,
    pub mover_height: u8,
    pub captured_height: u8,
    pub exited: u64,
    /// The move changed counters (unmake takes the change back).
    pub counted: bool,
    /// The move gave check, and changed the counters of `on check` (unmake takes
    /// the change back).
    pub checked: bool,
    /// The captured piece went to the mover's hand.
    pub to_hand: bool,
    /// The pieces the capture's explosion removed: the last this many of
    /// `Position::blasted`.
    pub blasted: u8,
    /// The pieces the move converted: the last this many of `Position::converted`
    /// ([`MANY_CONVERTED`]: the count is the last entry there, after the cells). A
    /// byte, to keep the record short.
    pub converted: u8,
    /// Where the terrain the second part moved stood ([`NO_CELL`]: none).
    pub lifted: Cell,
}

/// `Undo::converted` when a move turned 255 pieces or more: the count follows the
/// cells in `Position::converted`.
pub(crate) const MANY_CONVERTED: u8 = u8::MAX;

/// A piece an explosion removed, for unmake.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Blasted {
    pub cell: Cell,
    pub piece: Code,
    pub height: u8,
    pub unmoved: bool,
}

/// A game position under some rules.
#[derive(Debug, Clone)]
pub struct Position {
    pub(crate) rules: Arc<Rules>,
    pub(crate) board: Vec<Code>,
    /// The height of the stack on each cell: 1 for an ordinary piece, 0 for none.
    pub(crate) height: Vec<u8>,
    /// The pie rule has been used: each person plays the other colour.
    pub(crate) swapped: bool,
    /// Terrain index + 1 per cell; 0 for none.
    pub(crate) terrain: Vec<u8>,
    /// Pieces that have not moved since the setup (for `i` moves).
    pub(crate) unmoved: Vec<bool>,
    pub(crate) side: Side,
    pub(crate) castling: u32,
    pub(crate) ep: Cell,
    pub(crate) ep_victim: Cell,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    pub(crate) royals: Royals,
    /// Pieces on the board per code.
    pub(crate) counts: Vec<u16>,
    /// Pieces in hand per `side * kinds + kind`.
    pub(crate) hand: Vec<u16>,
    /// Counter values per `side * counters + counter`.
    pub(crate) counters: Vec<i64>,
    /// Piece kinds that have left the board, per side.
    pub(crate) exited: [u64; 2],
    pub(crate) history: Vec<Undo>,
    /// The pieces explosions removed, in the order of the moves (`Undo::blasted`).
    pub(crate) blasted: Vec<Blasted>,
    /// The squares of the pieces conversions turned, in the order of the moves
    /// (`Undo::converted`).
    pub(crate) converted: Vec<Cell>,
    /// Move lists for the legality rules that look a reply ahead.
    pub(crate) scratch: Scratch,
}

/// Move lists lent to the rules that look one reply ahead (`stalemate illegal`,
/// `forbid mate-by-drop`, "has the side to move a legal move?"), so that they allocate
/// nothing once warm. A clone starts with none.
#[derive(Debug, Default)]
pub(crate) struct Scratch(Vec<Vec<Move>>);

impl Clone for Scratch {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl Scratch {
    /// An empty list: a returned one, or a new one.
    pub fn lend(&mut self) -> Vec<Move> {
        let mut list = self.0.pop().unwrap_or_default();
        list.clear();
        list
    }

    pub fn give_back(&mut self, list: Vec<Move>) {
        self.0.push(list);
    }
}

impl Position {
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
    pub fn board(&self) -> &[Code] {
        &self.board
    }
    pub fn piece_at(&self, cell: Cell) -> Code {
        self.board[cell]
    }
    /// The terrain index on a cell, if any.
    /// The height of the stack on a cell (0 when empty).
    pub fn height_at(&self, cell: Cell) -> u8 {
        self.height[cell]
    }
    /// Has the pie rule swapped the players?
    pub fn swapped(&self) -> bool {
        self.swapped
    }
    pub fn terrain_at(&self, cell: Cell) -> Option<usize> {
        match self.terrain[cell] {
            0 => None,
            t => Some(t as usize - 1),
        }
    }
    pub fn side_to_move(&self) -> Side {
        self.side
    }
    pub fn hash(&self) -> u64 {
        self.hash
    }
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    pub fn ply(&self) -> usize {
        self.history.len()
    }
    /// The move number, as position strings write it (1 at the start of a game).
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// The Zobrist hash recomputed from scratch; equals [`Position::hash`] always.
    pub fn compute_hash(&self) -> u64 {
        let z = &self.rules.tables.zobrist;
        let n = self.board.len();
        let mut h = 0;
        for cell in 0..n {
            let c = self.board[cell] as usize;
            if c != 0 {
                h ^= z.piece[c * n + cell] ^ height_key(z, cell, self.height[cell]);
            }
            let t = self.terrain[cell] as usize;
            if t != 0 {
                h ^= z.terrain[(t - 1) * n + cell];
            }
        }
        if self.side == Side::Second {
            h ^= z.side;
        }
        for (i, k) in z.castling.iter().enumerate() {
            if self.castling >> i & 1 != 0 {
                h ^= k;
            }
        }
        if self.ep != NO_CELL {
            h ^= z.ep[self.ep];
        }
        if self.swapped {
            h ^= z.swapped;
        }
        for (i, &count) in self.hand.iter().enumerate() {
            h ^= z.hand_key(i, count);
        }
        for (i, &v) in self.counters.iter().enumerate() {
            h ^= z.counter_key(i, v);
        }
        let kinds = self.rules.pieces.len();
        for side in Side::BOTH {
            for kind in 0..kinds {
                if self.exited[side] >> kind & 1 != 0 {
                    h ^= z.exited[side.index() * kinds + kind];
                }
            }
        }
        h
    }

    /// Pieces of a kind in a side's hand.
    pub fn in_hand(&self, side: Side, kind: usize) -> u16 {
        self.hand[side.index() * self.rules.pieces.len() + kind]
    }

    /// A side's value of counter number `i`.
    pub fn counter(&self, side: Side, i: usize) -> i64 {
        self.counters[side.index() * self.rules.counters.len() + i]
    }

    /// Plays a move that the move generator produced. Any other move may corrupt the
    /// position; use [`Position::play`] for moves from a user.
    pub fn make(&mut self, m: Move) {
        let mut undo = self.undo_for(m);
        let z = &self.rules.tables.zobrist;
        if m.kind == MoveKind::Swap {
            self.swapped = !self.swapped;
            self.hash ^= z.swapped;
            self.history.push(undo);
            return;
        }
        let mut h = z.side;
        let ep_victim = self.ep_victim;
        if self.ep != NO_CELL {
            h ^= z.ep[self.ep];
            self.ep = NO_CELL;
            self.ep_victim = NO_CELL;
        }
        let mover = undo.mover;
        let mut progress = mover != EMPTY && self.rules.pieces[kind_of(mover)].resets_clock;
        match m.kind {
            MoveKind::Castle => h ^= self.make_castle(m, &mut undo),
            MoveKind::Gate | MoveKind::CastleGate | MoveKind::CastleGatePartner => {
                let plain = m.ungated();
                if plain.kind == MoveKind::Castle {
                    h ^= self.make_castle(plain, &mut undo);
                } else {
                    let (dh, changed) = self.make_step(plain, ep_victim, &mut undo);
                    h ^= dh;
                    progress |= changed;
                }
                h ^= self.bring_in(m);
            }
            MoveKind::Drop => {
                h ^= self.make_drop(m, &mut undo);
                progress = true;
            }
            MoveKind::Exit => {
                h ^= self.make_exit(m);
                progress = true;
            }
            MoveKind::Pass | MoveKind::Swap => {}
            _ => {
                let (dh, changed) = self.make_step(m, ep_victim, &mut undo);
                h ^= dh;
                progress |= changed;
                if undo.captured != EMPTY && self.rules.tables.kinds.explodes {
                    h ^= self.explode(m.to, &mut undo);
                }
            }
        }
        if m.second != NO_CELL {
            let (dh, lifted) = self.make_second(m);
            h ^= dh;
            undo.lifted = lifted;
        }
        if self.rules.tables.gens[m.generator].counts {
            h ^= self.apply_counters(m, 1);
            undo.counted = true;
        }
        h ^= self.lose_castling(m);
        // After the rights the move's squares lose: a placement on a castling's
        // square may give its right.
        if m.kind == MoveKind::Drop && self.rules.castling_by_drop.is_some() {
            h ^= self.castle_by_drop(m.to);
        }
        // The clocks stop at the largest value a position string may hold, so every
        // position reads back; unmake restores them from the record.
        self.halfmove = if progress {
            0
        } else {
            (self.halfmove + 1).min(MAX_CLOCK)
        };
        self.side = self.side.opponent();
        if self.side == Side::First {
            self.fullmove = (self.fullmove + 1).min(MAX_CLOCK);
        }
        // Checks as events: only games with `on check` ask whether the move gave one.
        if !self.rules.on_check.is_empty() && self.in_check(self.side) {
            h ^= self.count_check(self.side.opponent(), 1);
            undo.checked = true;
        }
        self.hash ^= h;
        self.history.push(undo);
    }

    /// The counter changes of `on check` for `side`, which gave check, times `sign`
    /// (-1 to take them back). Returns the hash change.
    fn count_check(&mut self, side: Side, sign: i64) -> u64 {
        let nc = self.rules.counters.len();
        let mut h = 0;
        for k in 0..self.rules.on_check.len() {
            let (i, d) = self.rules.on_check[k];
            let slot = side.index() * nc + i.index();
            let z = &self.rules.tables.zobrist;
            h ^= z.counter_key(slot, self.counters[slot]);
            self.counters[slot] += sign * d;
            h ^= z.counter_key(slot, self.counters[slot]);
        }
        h
    }

    /// The search's null move: the side to move passes without moving, whatever the
    /// rules allow (only the search plays it, and [`Position::unmake`] takes it back).
    /// It clears en passant and the reversible-move count, so that no position
    /// before it is taken for a repetition of one after it.
    pub(crate) fn make_null(&mut self) {
        let m = Move {
            from: NO_CELL,
            to: NO_CELL,
            second: NO_CELL,
            kind: MoveKind::Pass,
            promo: EMPTY,
            generator: GenId::default(),
        };
        let undo = self.undo_for(m);
        let z = &self.rules.tables.zobrist;
        let mut h = z.side;
        if self.ep != NO_CELL {
            h ^= z.ep[self.ep];
            self.ep = NO_CELL;
            self.ep_victim = NO_CELL;
        }
        self.halfmove = 0;
        self.side = self.side.opponent();
        if self.side == Side::First {
            self.fullmove = (self.fullmove + 1).min(MAX_CLOCK);
        }
        self.hash ^= h;
        self.history.push(undo);
    }

    /// What unmake needs to restore, read before `m` is made.
    fn undo_for(&self, m: Move) -> Undo {
        let from = if m.from == NO_CELL { 0 } else { m.from.index() };
        let to = if m.to == NO_CELL { 0 } else { m.to.index() };
        let mover = if m.from == NO_CELL {
            EMPTY
        } else {
            self.board[from]
        };
        Undo {
            mv: m,
            captured: EMPTY,
            capture_cell: NO_CELL,
            cleared_terrain: 0,
            castling: self.castling,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
            unmoved_from: self.unmoved[from],
            unmoved_to: self.unmoved[to],
            unmoved_aux: false,
            unmoved_rook: false,
            mover,
            mover_height: self.height[from],
            captured_height: 0,
            exited: self.exited[self.side],
            counted: false,
            checked: false,
            to_hand: false,
            blasted: 0,
            converted: 0,
            lifted: NO_CELL,
        }
    }

    #[inline]
    fn is_royal(&self, c: Code) -> bool {
        c != EMPTY && self.rules.tables.kinds.royal >> kind_of(c) & 1 != 0
    }

    /// Castling: both pieces move. Returns the hash change.
    fn make_castle(&mut self, m: Move, undo: &mut Undo) -> u64 {
        let rules = &*self.rules;
        let z = &rules.tables.zobrist;
        let n = self.board.len();
        let c = &rules.castlings[rules.tables.gens[m.generator].castling()];
        let (from, to) = (m.from.index(), m.to.index());
        let (rf, rt) = (c.rook_from.index(), c.rook_to.index());
        let (king, rook) = (self.board[from], self.board[rf]);
        undo.unmoved_aux = self.unmoved[rt];
        undo.unmoved_rook = self.unmoved[rf];
        self.board[from] = EMPTY;
        self.board[rf] = EMPTY;
        self.board[to] = king;
        self.board[rt] = rook;
        let mut h = z.piece[king as usize * n + from] ^ z.piece[king as usize * n + to];
        h ^= z.piece[rook as usize * n + rf] ^ z.piece[rook as usize * n + rt];
        let (kh, rh) = (self.height[from], self.height[rf]);
        h ^= height_key(z, from, kh)
            ^ height_key(z, rf, rh)
            ^ height_key(z, to, kh)
            ^ height_key(z, rt, rh);
        self.height[from] = 0;
        self.height[rf] = 0;
        self.height[to] = kh;
        self.height[rt] = rh;
        for cell in [from, rf, to, rt] {
            self.unmoved[cell] = false;
        }
        let us = self.side;
        let royal = |p: Code| rules.tables.kinds.royal >> kind_of(p) & 1 != 0;
        if royal(king) {
            self.royals.relocate(us, m.from, m.to);
        }
        if royal(rook) {
            self.royals.relocate(us, c.rook_from, c.rook_to);
        }
        h
    }

    /// A piece from the hand (or a clone) onto `m.to`, and its conversions. Returns
    /// the hash change.
    fn make_drop(&mut self, m: Move, undo: &mut Undo) -> u64 {
        let t = &self.rules.tables;
        let z = &t.zobrist;
        let n = self.board.len();
        let us = self.side;
        let info = &t.gens[m.generator];
        let kind = info.piece as usize;
        let placed = code(kind, us);
        let to = m.to.index();
        self.board[to] = placed;
        self.height[to] = 1;
        self.counts[placed as usize] += 1;
        self.unmoved[to] = false;
        if t.kinds.royal >> kind & 1 != 0 {
            self.royals.add(us, m.to);
        }
        let mut h = z.piece[placed as usize * n + to];
        // A clone comes from an endless supply, not the hand.
        if info.source != Source::Clone {
            let slot = us.index() * self.rules.pieces.len() + info.hand as usize;
            let count = self.hand[slot];
            self.hand[slot] -= 1;
            h ^= z.hand_key(slot, count) ^ z.hand_key(slot, count - 1);
        }
        if info.effects != 0 {
            h ^= self.convert(m, undo);
        }
        h
    }

    /// `castling-by-drop KING with PARTNER`: the rights of the side to move's
    /// castlings whose pair a placement on `to` completes. Returns the hash change.
    fn castle_by_drop(&mut self, to: Cell) -> u64 {
        let rules = &*self.rules;
        let Some((king, partner)) = rules.castling_by_drop else {
            return 0;
        };
        let us = self.side;
        let mut h = 0;
        for (i, c) in rules.castlings.iter().enumerate() {
            if c.side == us
                && self.castling >> i & 1 == 0
                && (to == c.king_from || to == c.rook_from)
                && self.board[c.king_from] == code(king.index(), us)
                && self.board[c.rook_from] == code(partner.index(), us)
            {
                self.castling |= 1 << i;
                h ^= rules.tables.zobrist.castling[i];
            }
        }
        h
    }

    /// The square a gating move brings its piece onto.
    pub(crate) fn gate_of(&self, m: Move) -> Cell {
        match m.kind {
            MoveKind::CastleGatePartner => {
                let rules = &*self.rules;
                rules.castlings[rules.tables.gens[m.generator].castling()].rook_from
            }
            _ => m.from,
        }
    }

    /// Gating: the piece `m.promo` from the mover's hand onto the gate `m` empties
    /// (the move itself made already). Returns the hash change.
    fn bring_in(&mut self, m: Move) -> u64 {
        let at = self.gate_of(m);
        let t = &self.rules.tables;
        let z = &t.zobrist;
        let n = self.board.len();
        let us = self.side;
        let kind = kind_of(m.promo);
        let slot = us.index() * self.rules.pieces.len() + kind;
        let count = self.hand[slot];
        self.hand[slot] -= 1;
        self.board[at] = m.promo;
        self.height[at] = 1;
        self.counts[m.promo as usize] += 1;
        if t.kinds.royal >> kind & 1 != 0 {
            self.royals.add(us, at);
        }
        z.hand_key(slot, count)
            ^ z.hand_key(slot, count - 1)
            ^ z.piece[m.promo as usize * n + at.index()]
    }

    /// Takes back [`Self::bring_in`] (the side to move is the mover again).
    fn take_out(&mut self, m: Move) {
        let at = self.gate_of(m);
        let kind = kind_of(m.promo);
        self.hand[self.side.index() * self.rules.pieces.len() + kind] += 1;
        self.board[at] = EMPTY;
        self.height[at] = 0;
        self.counts[m.promo as usize] -= 1;
        if self.is_royal(m.promo) {
            self.royals.remove(self.side, at);
        }
    }

    /// The piece on `m.from` leaves the board. Returns the hash change.
    fn make_exit(&mut self, m: Move) -> u64 {
        let t = &self.rules.tables;
        let z = &t.zobrist;
        let n = self.board.len();
        let us = self.side;
        let from = m.from.index();
        let mover = self.board[from];
        let mut h = z.piece[mover as usize * n + from] ^ height_key(z, from, self.height[from]);
        self.board[from] = EMPTY;
        self.height[from] = 0;
        self.counts[mover as usize] -= 1;
        self.unmoved[from] = false;
        if t.kinds.royal >> kind_of(mover) & 1 != 0 {
            self.royals.remove(us, m.from);
        }
        let kinds = self.rules.pieces.len();
        let kind = kind_of(mover);
        if self.exited[us] >> kind & 1 == 0 {
            self.exited[us] |= 1 << kind;
            h ^= z.exited[us.index() * kinds + kind];
        }
        h
    }

    /// A move or capture by a piece on the board (also en passant and a capture
    /// without moving). Returns the hash change and whether it is progress for the
    /// move clock (a capture, terrain cleared).
    fn make_step(&mut self, m: Move, ep_victim: Cell, undo: &mut Undo) -> (u64, bool) {
        let (from, to) = (m.from.index(), m.to.index());
        let cap_cell = if m.kind == MoveKind::EnPassant {
            ep_victim.index()
        } else {
            to
        };
        // A move in place (`from` is `to`) takes nothing: the piece there is the mover.
        let taken = if m.from == m.to {
            0
        } else {
            self.take(cap_cell, undo)
        };
        let (mut h, mut progress) = (taken, undo.captured != EMPTY);
        if m.kind == MoveKind::Rifle {
            return (h, progress);
        }
        let rules = &*self.rules;
        let t = &rules.tables;
        let z = &t.zobrist;
        let n = self.board.len();
        let us = self.side;
        let mover = undo.mover;
        let terr = self.terrain[to];
        if terr != 0 && rules.terrains[terr as usize - 1].cleared_by >> kind_of(mover) & 1 != 0 {
            h ^= z.terrain[(terr as usize - 1) * n + to];
            self.terrain[to] = 0;
            undo.cleared_terrain = terr;
            progress = true;
        }
        let placed = if m.promo != EMPTY { m.promo } else { mover };
        let mut height = undo.mover_height;
        h ^= z.piece[mover as usize * n + from] ^ height_key(z, from, height);
        self.board[from] = EMPTY;
        self.height[from] = 0;
        let effects = t.gens[m.generator].effects;
        let mut converts = false;
        if effects != 0 {
            for e in &t.gens.effects[effects as usize - 1] {
                match *e {
                    Effect::Height(d) => height = (i64::from(height) + d).clamp(1, 255) as u8,
                    Effect::Leave(kind) => {
                        let left = code(kind.index(), us);
                        self.board[from] = left;
                        self.height[from] = 1;
                        self.counts[left as usize] += 1;
                        h ^= z.piece[left as usize * n + from];
                        if t.kinds.royal >> kind.index() & 1 != 0 {
                            self.royals.add(us, m.from);
                        }
                    }
                    Effect::Convert(_) => converts = true,
                    // The second part is made once the move is ([`Position::make`]).
                    // The move carries the new piece (`Move::promo`).
                    Effect::Stay | Effect::Counter(..) | Effect::Place(_) | Effect::Becomes(_) => {}
                }
            }
        }
        h ^= z.piece[placed as usize * n + to] ^ height_key(z, to, height);
        self.board[to] = placed;
        self.height[to] = height;
        self.unmoved[from] = false;
        self.unmoved[to] = false;
        if placed != mover {
            self.counts[mover as usize] -= 1;
            self.counts[placed as usize] += 1;
        }
        let royal = |c: Code| t.kinds.royal >> kind_of(c) & 1 != 0;
        match (royal(mover), royal(placed)) {
            (true, true) => self.royals.relocate(us, m.from, m.to),
            (true, false) => self.royals.remove(us, m.from),
            (false, true) => self.royals.add(us, m.to),
            (false, false) => {}
        }
        if m.kind == MoveKind::DoubleStep {
            let passed = rules.geometry.first_step(m.from, m.to);
            self.ep = passed;
            self.ep_victim = m.to;
            h ^= z.ep[passed];
        }
        if converts {
            h ^= self.convert(m, undo);
        }
        (h, progress)
    }

    /// `captures-explode`: the capture on `centre` removes the piece standing there
    /// (the capturer, unless it captured without moving) and the pieces around it but
    /// the spared kinds; the castling rights of their squares go. Returns the hash
    /// change.
    fn explode(&mut self, centre: Cell, undo: &mut Undo) -> u64 {
        let t = &self.rules.tables;
        let z = &t.zobrist;
        let n = self.board.len();
        let start = self.blasted.len();
        let mut lost = 0;
        let mut h = 0;
        let around = t.blast.around[centre];
        for cell in std::iter::once(centre).chain(around.into_iter().take_while(|&c| c != NO_CELL))
        {
            let piece = self.board[cell];
            if piece == EMPTY || (cell != centre && t.blast.spared >> kind_of(piece) & 1 != 0) {
                continue;
            }
            let height = self.height[cell];
            self.blasted.push(Blasted {
                cell,
                piece,
                height,
                unmoved: self.unmoved[cell],
            });
            h ^= z.piece[piece as usize * n + cell.index()] ^ height_key(z, cell.index(), height);
            self.board[cell] = EMPTY;
            self.height[cell] = 0;
            self.unmoved[cell] = false;
            self.counts[piece as usize] -= 1;
            if t.kinds.royal >> kind_of(piece) & 1 != 0 {
                self.royals.remove(side_of(piece), cell);
            }
            lost |= t.home.castle_mask[cell];
        }
        let mut bits = self.castling & lost;
        self.castling &= !lost;
        while bits != 0 {
            h ^= z.castling[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        undo.blasted = (self.blasted.len() - start) as u8;
        h
    }

    /// Puts back the pieces the last `count` explosion records removed.
    fn unexplode(&mut self, count: u8) {
        for _ in 0..count {
            let Some(b) = self.blasted.pop() else { return };
            self.board[b.cell] = b.piece;
            self.height[b.cell] = b.height;
            self.unmoved[b.cell] = b.unmoved;
            self.counts[b.piece as usize] += 1;
            if self.is_royal(b.piece) {
                self.royals.add(side_of(b.piece), b.cell);
            }
        }
    }

    /// Takes the piece on `cell` off the board as a capture, if one stands there.
    /// Returns the hash change.
    fn take(&mut self, cell: usize, undo: &mut Undo) -> u64 {
        let captured = self.board[cell];
        if captured == EMPTY {
            return 0;
        }
        let z = &self.rules.tables.zobrist;
        let n = self.board.len();
        let h = z.piece[captured as usize * n + cell] ^ height_key(z, cell, self.height[cell]);
        undo.captured_height = self.height[cell];
        self.height[cell] = 0;
        self.board[cell] = EMPTY;
        self.counts[captured as usize] -= 1;
        undo.captured = captured;
        undo.capture_cell = Cell::new(cell);
        undo.unmoved_aux = self.unmoved[cell];
        self.unmoved[cell] = false;
        if self.is_royal(captured) {
            self.royals.remove(side_of(captured), Cell::new(cell));
        }
        match self.hand_slot(captured) {
            Some(slot) => {
                let count = self.hand[slot];
                self.hand[slot] = count + 1;
                undo.to_hand = true;
                h ^ z.hand_key(slot, count) ^ z.hand_key(slot, count + 1)
            }
            None => h,
        }
    }

    /// The slot of the side to move's hand a captured piece goes to (it does, if
    /// its type goes to a hand).
    #[inline]
    fn hand_slot_of(&self, captured: Code) -> usize {
        let kind = self.rules.tables.hands.kind[kind_of(captured)];
        self.side.index() * self.rules.pieces.len() + kind as usize
    }

    /// The slot of the side to move's hand a captured piece goes to, if it goes to a
    /// hand that is not full.
    #[inline]
    fn hand_slot(&self, captured: Code) -> Option<usize> {
        let t = &self.rules.tables;
        match t.hands.kind[kind_of(captured)] {
            NO_HAND => None,
            kind => Some(self.side.index() * self.rules.pieces.len() + kind as usize)
                .filter(|&slot| self.hand[slot] < MAX_IN_HAND),
        }
    }

    /// Applies the counter effects of `m`'s generator, times `sign` (-1 to take them
    /// back). Returns the hash change.
    fn apply_counters(&mut self, m: Move, sign: i64) -> u64 {
        let t = &self.rules.tables;
        let effects = t.gens[m.generator].effects;
        let nc = self.rules.counters.len();
        let mover = self.side;
        let mut h = 0;
        for e in &t.gens.effects[effects as usize - 1] {
            if let Effect::Counter(i, d) = *e {
                let slot = mover.index() * nc + i.index();
                h ^= t.zobrist.counter_key(slot, self.counters[slot]);
                self.counters[slot] += sign * d;
                h ^= t.zobrist.counter_key(slot, self.counters[slot]);
            }
        }
        h
    }

    /// Drops the castling rights whose pieces `m` moves or takes. Returns the hash
    /// change.
    #[inline]
    fn lose_castling(&mut self, m: Move) -> u64 {
        if self.castling == 0 {
            return 0;
        }
        let t = &self.rules.tables;
        let mask = |c: Cell| {
            if c == NO_CELL {
                0
            } else {
                t.home.castle_mask[c]
            }
        };
        let mut lost = mask(m.from) | mask(m.to);
        if m.kind.is_castle() {
            // The partner's square: its gate.
            lost |= mask(self.gate_of(Move {
                kind: MoveKind::CastleGatePartner,
                ..m
            }));
        }
        let home = &t.home;
        if m.kind.is_gate() && home.gates_lapse {
            // Nothing left to bring in, and nothing can come back to the hand.
            let us = self.side;
            let kinds = self.rules.pieces.len();
            let hand = &self.hand[us.index() * kinds..(us.index() + 1) * kinds];
            if hand.iter().all(|&c| c == 0) {
                lost |= home.gates[us];
            }
        }
        let lost = self.castling & lost;
        let mut h = 0;
        let mut bits = lost;
        while bits != 0 {
            h ^= t.zobrist.castling[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        self.castling &= !lost;
        h
    }

    /// Takes back the last move made.
    pub fn unmake(&mut self) {
        let Some(u) = self.history.pop() else { return };
        let m = u.mv;
        if m.kind == MoveKind::Swap {
            self.swapped = !self.swapped;
            self.hash = u.hash;
            return;
        }
        self.side = self.side.opponent();
        self.fullmove = u.fullmove;
        if m.second != NO_CELL {
            self.unmake_second(m, u.lifted);
        }
        match m.kind {
            MoveKind::Castle => self.unmake_castle(&u),
            MoveKind::CastleGate | MoveKind::CastleGatePartner => {
                self.take_out(m);
                self.unmake_castle(&u);
            }
            MoveKind::Gate => {
                self.take_out(m);
                self.unmake_step(&u);
            }
            MoveKind::Drop => {
                if u.converted != 0 {
                    self.unconvert(u.converted, self.side);
                }
                let to = m.to.index();
                let placed = self.board[to];
                self.counts[placed as usize] -= 1;
                self.board[to] = EMPTY;
                self.height[to] = 0;
                self.unmoved[to] = u.unmoved_to;
                let info = &self.rules.tables.gens[m.generator];
                if info.source != Source::Clone {
                    let taken = info.hand as usize;
                    self.hand[self.side.index() * self.rules.pieces.len() + taken] += 1;
                }
                if self.is_royal(placed) {
                    self.royals.remove(self.side, m.to);
                }
            }
            MoveKind::Exit => {
                let from = m.from.index();
                self.board[from] = u.mover;
                self.height[from] = u.mover_height;
                self.counts[u.mover as usize] += 1;
                self.unmoved[from] = u.unmoved_from;
                self.exited[self.side] = u.exited;
                if self.is_royal(u.mover) {
                    self.royals.add(self.side, m.from);
                }
            }
            MoveKind::Pass | MoveKind::Swap => {}
            _ => {
                if u.blasted != 0 {
                    self.unexplode(u.blasted);
                }
                if u.converted != 0 {
                    self.unconvert(u.converted, self.side);
                }
                self.unmake_step(&u);
            }
        }
        if u.counted {
            self.apply_counters(m, -1);
        }
        if u.checked {
            self.count_check(self.side, -1);
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
    }

    fn unmake_castle(&mut self, u: &Undo) {
        let m = u.mv;
        let (from, to) = (m.from.index(), m.to.index());
        let rules = &*self.rules;
        let c = &rules.castlings[rules.tables.gens[m.generator].castling()];
        let (rf, rt) = (c.rook_from.index(), c.rook_to.index());
        let rook = self.board[rt];
        self.board[to] = EMPTY;
        self.board[rt] = EMPTY;
        self.board[from] = u.mover;
        self.board[rf] = rook;
        let (kh, rh) = (self.height[to], self.height[rt]);
        self.height[to] = 0;
        self.height[rt] = 0;
        self.height[from] = kh;
        self.height[rf] = rh;
        self.unmoved[to] = u.unmoved_to;
        self.unmoved[rt] = u.unmoved_aux;
        self.unmoved[from] = u.unmoved_from;
        self.unmoved[rf] = u.unmoved_rook;
        let us = self.side;
        if self.is_royal(u.mover) {
            self.royals.relocate(us, m.to, m.from);
        }
        if self.is_royal(rook) {
            self.royals.relocate(us, c.rook_to, c.rook_from);
        }
    }

    fn unmake_step(&mut self, u: &Undo) {
        let m = u.mv;
        let (from, to) = (m.from.index(), m.to.index());
        let us = self.side;
        if m.kind != MoveKind::Rifle {
            let placed = self.board[to];
            if placed != u.mover {
                self.counts[placed as usize] -= 1;
                self.counts[u.mover as usize] += 1;
            }
            // A move in place left nothing behind: `from` holds the piece itself.
            let left = if from == to { EMPTY } else { self.board[from] };
            if left != EMPTY {
                self.counts[left as usize] -= 1;
                if self.is_royal(left) {
                    self.royals.remove(us, m.from);
                }
            }
            match (self.is_royal(u.mover), self.is_royal(placed)) {
                (true, true) => self.royals.relocate(us, m.to, m.from),
                (true, false) => self.royals.add(us, m.from),
                (false, true) => self.royals.remove(us, m.to),
                (false, false) => {}
            }
            self.board[to] = EMPTY;
            self.height[to] = 0;
            self.board[from] = u.mover;
            self.height[from] = u.mover_height;
            self.unmoved[from] = u.unmoved_from;
            self.unmoved[to] = u.unmoved_to;
            if u.cleared_terrain != 0 {
                self.terrain[to] = u.cleared_terrain;
            }
        }
        if u.captured != EMPTY {
            let cc = u.capture_cell.index();
            if u.to_hand {
                let slot = self.hand_slot_of(u.captured);
                self.hand[slot] -= 1;
            }
            if self.is_royal(u.captured) {
                self.royals.add(side_of(u.captured), u.capture_cell);
            }
            self.board[cc] = u.captured;
            self.height[cc] = u.captured_height;
            self.counts[u.captured as usize] += 1;
            self.unmoved[cc] = u.unmoved_aux;
        }
    }

    /// The piece `m` captures, if any (asked before it is made): any move onto an
    /// enemy piece takes it, and en passant takes the piece that just passed.
    pub fn victim(&self, m: Move) -> Option<Code> {
        let cell = match m.kind {
            MoveKind::EnPassant => self.ep_victim,
            MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Rifle | MoveKind::Gate => m.to,
            _ => return None,
        };
        let c = *self.board.get(cell.index())?;
        (c != EMPTY && side_of(c) != self.side).then_some(c)
    }

    /// Is `side` in check: a royal piece of its attacked (under `duple-check`, all of
    /// them at once)?
    #[inline]
    pub fn in_check(&self, side: Side) -> bool {
        if self.rules.tables.kinds.special_check {
            return self.in_special_check(side);
        }
        self.royals
            .of(side)
            .iter()
            .any(|&c| self.attacked(c, side.opponent()))
    }

    /// [`Self::in_check`] under `duple-check` or `captures-explode`.
    #[inline(never)]
    fn in_special_check(&self, side: Side) -> bool {
        let royals = self.royals.of(side);
        if self.rules.duple_check {
            !royals.is_empty() && royals.iter().all(|&c| self.royal_attacked(c, side))
        } else {
            royals.iter().any(|&c| self.royal_attacked(c, side))
        }
    }

    /// Is the royal piece of `side` on `cell` attacked? Where captures explode, not
    /// while a royal piece of the attacker stands where the explosion would reach
    /// (taking it would blow up the taker's own).
    #[inline]
    pub(crate) fn royal_attacked(&self, cell: Cell, side: Side) -> bool {
        let by = side.opponent();
        if self.rules.tables.kinds.explodes && self.next_to_royal(cell, by) {
            return false;
        }
        self.attacked(cell, by)
    }

    /// Does an explosion on `cell` reach a royal piece of `side` (not of a spared
    /// kind)?
    pub(crate) fn next_to_royal(&self, cell: Cell, side: Side) -> bool {
        let t = &self.rules.tables;
        t.blast.around(cell).any(|c| {
            let p = self.board[c];
            p != EMPTY
                && side_of(p) == side
                && t.kinds.royal >> kind_of(p) & 1 != 0
                && t.blast.spared >> kind_of(p) & 1 == 0
        })
    }
}

/// The hash key of a stack's height; ordinary pieces (height 1) add nothing.
#[inline]
fn height_key(z: &crate::rules::Zobrist, cell: usize, height: u8) -> u64 {
    if height == 1 {
        0
    } else {
        z.height[cell * 256 + height as usize]
    }
}
