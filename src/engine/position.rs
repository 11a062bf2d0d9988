//! The position and make/unmake.

use std::sync::Arc;

use crate::rules::{Cell, Code, EMPTY, Effect, NO_CELL, Rules, code, kind_of, side_of};

/// The most royal pieces one side may have.
pub const MAX_ROYALS: usize = 8;

/// What a move does beyond taking a piece from one square to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A move or capture by replacement (terrain on the target may be cleared).
    Normal,
    /// A non-capturing move that leaves `aux` open to en passant.
    DoubleStep,
    /// Captures the piece on `aux`, landing on the empty en-passant square.
    EnPassant,
    /// Castling number `aux`: the king-like piece moves `from`→`to`, the other with it.
    Castle,
    /// The pie rule: the second player takes over the first player's side.
    Swap,
    /// A piece of kind `aux` from the hand onto `to`.
    Drop,
    /// A flight (never a capture).
    Flight,
    /// The piece on `from` leaves the board.
    Exit,
    /// The piece on `from` captures on `to` without moving.
    Rifle,
}

/// A move: 8 bytes, copied freely.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Cell,
    pub to: Cell,
    pub kind: MoveKind,
    /// The piece code it promotes to, or 0.
    pub promo: Code,
    pub aux: Cell,
    /// The effects of the component that made it: 0 for none, else 1 + an index into
    /// the rules' effect lists.
    pub effects: u16,
}

impl Move {
    pub fn new(from: Cell, to: Cell) -> Self {
        Self {
            from,
            to,
            kind: MoveKind::Normal,
            promo: EMPTY,
            aux: NO_CELL,
            effects: 0,
        }
    }
}

/// Where each side's royal pieces stand, kept up to date by make/unmake.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Royals {
    pub cells: [[Cell; MAX_ROYALS]; 2],
    pub count: [u8; 2],
}

impl Royals {
    pub fn of(&self, side: usize) -> &[Cell] {
        &self.cells[side][..self.count[side] as usize]
    }
    pub fn add(&mut self, side: usize, cell: Cell) {
        let n = self.count[side] as usize;
        if n < MAX_ROYALS {
            self.cells[side][n] = cell;
            self.count[side] += 1;
        }
    }
    pub fn remove(&mut self, side: usize, cell: Cell) {
        let n = self.count[side] as usize;
        if let Some(i) = self.cells[side][..n].iter().position(|&c| c == cell) {
            self.cells[side][i] = self.cells[side][n - 1];
            self.count[side] -= 1;
        }
    }
    pub fn relocate(&mut self, side: usize, from: Cell, to: Cell) {
        let n = self.count[side] as usize;
        if let Some(r) = self.cells[side][..n].iter_mut().find(|c| **c == from) {
            *r = to;
        }
    }
}

/// What make changed, for unmake.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Undo {
    pub mv: Move,
    pub captured: Code,
    pub capture_cell: Cell,
    pub cleared_terrain: u8,
    pub castling: u32,
    pub ep: Cell,
    pub ep_victim: Cell,
    pub halfmove: u32,
    pub hash: u64,
    pub unmoved_from: bool,
    pub unmoved_to: bool,
    pub unmoved_aux: bool,
    pub unmoved_rook: bool,
    pub mover: Code,
    pub mover_height: u8,
    pub captured_height: u8,
    pub exited: u64,
    pub royals: Royals,
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
    pub(crate) side: usize,
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
    pub(crate) hand: Vec<u8>,
    /// Counter values per `side * counters + counter`.
    pub(crate) counters: Vec<i32>,
    /// Piece kinds that have left the board, per side.
    pub(crate) exited: [u64; 2],
    pub(crate) history: Vec<Undo>,
}

impl Position {
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
    pub fn board(&self) -> &[Code] {
        &self.board
    }
    pub fn piece_at(&self, cell: Cell) -> Code {
        self.board[cell as usize]
    }
    /// The terrain index on a cell, if any.
    /// The height of the stack on a cell (0 when empty).
    pub fn height_at(&self, cell: Cell) -> u8 {
        self.height[cell as usize]
    }
    /// Has the pie rule swapped the players?
    pub fn swapped(&self) -> bool {
        self.swapped
    }
    pub fn terrain_at(&self, cell: Cell) -> Option<usize> {
        match self.terrain[cell as usize] {
            0 => None,
            t => Some(t as usize - 1),
        }
    }
    pub fn side_to_move(&self) -> usize {
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
        if self.side == 1 {
            h ^= z.side;
        }
        for (i, k) in z.castling.iter().enumerate() {
            if self.castling >> i & 1 != 0 {
                h ^= k;
            }
        }
        if self.ep != NO_CELL {
            h ^= z.ep[self.ep as usize];
        }
        if self.swapped {
            h ^= z.swapped;
        }
        for (i, &count) in self.hand.iter().enumerate() {
            h ^= z.hand[i * 64 + count as usize];
        }
        for (i, &v) in self.counters.iter().enumerate() {
            h ^= z.counter[i * 64 + counter_slot(v)];
        }
        let kinds = self.rules.pieces.len();
        for side in 0..2 {
            for kind in 0..kinds {
                if self.exited[side] >> kind & 1 != 0 {
                    h ^= z.exited[side * kinds + kind];
                }
            }
        }
        h
    }

    /// Pieces of a kind in a side's hand.
    pub fn in_hand(&self, side: usize, kind: usize) -> u8 {
        self.hand[side * self.rules.pieces.len() + kind]
    }

    /// A side's value of counter number `i`.
    pub fn counter(&self, side: usize, i: usize) -> i32 {
        self.counters[side * self.rules.counters.len() + i]
    }

    /// Plays a move that the move generator produced. Any other move may corrupt the
    /// position; use [`Position::play`] for moves from a user.
    pub fn make(&mut self, m: Move) {
        let rules = &*self.rules;
        let t = &rules.tables;
        let z = &t.zobrist;
        let n = self.board.len();
        let kinds = rules.pieces.len();
        let us = self.side;
        let from = if m.from == NO_CELL {
            0
        } else {
            m.from as usize
        };
        let to = if m.to == NO_CELL { 0 } else { m.to as usize };
        let mover = if m.from == NO_CELL {
            EMPTY
        } else {
            self.board[from]
        };
        let mut undo = Undo {
            mv: m,
            captured: EMPTY,
            capture_cell: NO_CELL,
            cleared_terrain: 0,
            castling: self.castling,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            hash: self.hash,
            unmoved_from: self.unmoved[from],
            unmoved_to: self.unmoved[to],
            unmoved_aux: false,
            unmoved_rook: false,
            mover,
            mover_height: self.height[from],
            captured_height: 0,
            exited: self.exited[us],
            royals: self.royals,
        };
        if m.kind == MoveKind::Swap {
            self.swapped = !self.swapped;
            self.hash ^= z.swapped;
            self.history.push(undo);
            return;
        }
        let mut h = self.hash ^ z.side;
        if self.ep != NO_CELL {
            h ^= z.ep[self.ep as usize];
            self.ep = NO_CELL;
            self.ep_victim = NO_CELL;
        }
        let mut progress = mover != EMPTY && rules.pieces[kind_of(mover)].resets_clock;
        let is_royal = |c: Code| t.royal_kinds >> kind_of(c) & 1 != 0;
        match m.kind {
            MoveKind::Castle => {
                let c = &rules.castlings[m.aux as usize];
                let (rf, rt) = (c.rook_from as usize, c.rook_to as usize);
                let rook = self.board[rf];
                undo.unmoved_aux = self.unmoved[rt];
                undo.unmoved_rook = self.unmoved[rf];
                self.board[from] = EMPTY;
                self.board[rf] = EMPTY;
                self.board[to] = mover;
                self.board[rt] = rook;
                h ^= z.piece[mover as usize * n + from] ^ z.piece[mover as usize * n + to];
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
                if is_royal(mover) {
                    self.royals.relocate(us, m.from, m.to);
                }
                if is_royal(rook) {
                    self.royals.relocate(us, c.rook_from, c.rook_to);
                }
            }
            MoveKind::Drop => {
                let kind = m.aux as usize;
                let placed = code(kind, us);
                let slot = us * kinds + kind;
                let count = self.hand[slot] as usize;
                h ^= z.hand[slot * 64 + count] ^ z.hand[slot * 64 + count - 1];
                self.hand[slot] -= 1;
                self.board[to] = placed;
                self.height[to] = 1;
                self.counts[placed as usize] += 1;
                self.unmoved[to] = false;
                h ^= z.piece[placed as usize * n + to];
                if is_royal(placed) {
                    self.royals.add(us, m.to);
                }
                progress = true;
            }
            MoveKind::Exit => {
                h ^= z.piece[mover as usize * n + from] ^ height_key(z, from, self.height[from]);
                self.board[from] = EMPTY;
                self.height[from] = 0;
                self.counts[mover as usize] -= 1;
                self.unmoved[from] = false;
                if is_royal(mover) {
                    self.royals.remove(us, m.from);
                }
                let kind = kind_of(mover);
                if self.exited[us] >> kind & 1 == 0 {
                    self.exited[us] |= 1 << kind;
                    h ^= z.exited[us * kinds + kind];
                }
                progress = true;
            }
            _ => {
                let cap_cell = if m.kind == MoveKind::EnPassant {
                    m.aux as usize
                } else {
                    to
                };
                let captured = self.board[cap_cell];
                if captured != EMPTY {
                    h ^= z.piece[captured as usize * n + cap_cell]
                        ^ height_key(z, cap_cell, self.height[cap_cell]);
                    undo.captured_height = self.height[cap_cell];
                    self.height[cap_cell] = 0;
                    self.board[cap_cell] = EMPTY;
                    self.counts[captured as usize] -= 1;
                    progress = true;
                    undo.captured = captured;
                    undo.capture_cell = cap_cell as Cell;
                    undo.unmoved_aux = self.unmoved[cap_cell];
                    self.unmoved[cap_cell] = false;
                    if is_royal(captured) {
                        self.royals.remove(side_of(captured), cap_cell as Cell);
                    }
                }
                if m.kind != MoveKind::Rifle {
                    let terr = self.terrain[to];
                    if terr != 0
                        && rules.terrains[terr as usize - 1].cleared_by >> kind_of(mover) & 1 != 0
                    {
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
                    if m.effects != 0 {
                        for e in &t.effects[m.effects as usize - 1] {
                            match *e {
                                Effect::Height(d) => {
                                    height = (height as i64 + d).clamp(1, 255) as u8
                                }
                                Effect::Leave(kind) => {
                                    let left = code(kind, us);
                                    self.board[from] = left;
                                    self.height[from] = 1;
                                    self.counts[left as usize] += 1;
                                    h ^= z.piece[left as usize * n + from];
                                    if t.royal_kinds >> kind & 1 != 0 {
                                        self.royals.add(us, m.from);
                                    }
                                }
                                Effect::Stay | Effect::Counter(..) => {}
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
                    match (is_royal(mover), is_royal(placed)) {
                        (true, true) => self.royals.relocate(us, m.from, m.to),
                        (true, false) => self.royals.remove(us, m.from),
                        (false, true) => self.royals.add(us, m.to),
                        (false, false) => {}
                    }
                    if m.kind == MoveKind::DoubleStep {
                        self.ep = m.aux;
                        self.ep_victim = m.to;
                        h ^= z.ep[m.aux as usize];
                    }
                }
            }
        }
        if m.effects != 0 {
            let nc = rules.counters.len();
            for e in &t.effects[m.effects as usize - 1] {
                if let Effect::Counter(i, d) = *e {
                    let slot = us * nc + i;
                    h ^= z.counter[slot * 64 + counter_slot(self.counters[slot])];
                    self.counters[slot] += d as i32;
                    h ^= z.counter[slot * 64 + counter_slot(self.counters[slot])];
                }
            }
        }
        let lost = if m.from == NO_CELL && m.to == NO_CELL {
            0
        } else {
            self.castling & (t.castle_mask[from] | t.castle_mask[to])
        };
        if lost != 0 {
            let mut bits = lost;
            while bits != 0 {
                h ^= z.castling[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            self.castling &= !lost;
        }
        self.halfmove = if progress { 0 } else { self.halfmove + 1 };
        self.side ^= 1;
        if self.side == 0 {
            self.fullmove += 1;
        }
        self.hash = h;
        self.history.push(undo);
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
        let (from, to) = (m.from as usize, m.to as usize);
        self.side ^= 1;
        if self.side == 1 {
            self.fullmove -= 1;
        }
        let us = self.side;
        match m.kind {
            MoveKind::Castle => {
                let c = &self.rules.castlings[m.aux as usize];
                let (rf, rt) = (c.rook_from as usize, c.rook_to as usize);
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
            }
            MoveKind::Drop => {
                let placed = self.board[to];
                self.counts[placed as usize] -= 1;
                self.board[to] = EMPTY;
                self.height[to] = 0;
                self.unmoved[to] = u.unmoved_to;
                self.hand[us * self.rules.pieces.len() + m.aux as usize] += 1;
            }
            MoveKind::Exit => {
                self.board[from] = u.mover;
                self.height[from] = u.mover_height;
                self.counts[u.mover as usize] += 1;
                self.unmoved[from] = u.unmoved_from;
                self.exited[us] = u.exited;
            }
            _ => {
                if m.kind != MoveKind::Rifle {
                    let placed = self.board[to];
                    if placed != u.mover {
                        self.counts[placed as usize] -= 1;
                        self.counts[u.mover as usize] += 1;
                    }
                    let left = self.board[from];
                    if left != EMPTY {
                        self.counts[left as usize] -= 1;
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
                    let cc = u.capture_cell as usize;
                    self.board[cc] = u.captured;
                    self.height[cc] = u.captured_height;
                    self.counts[u.captured as usize] += 1;
                    self.unmoved[cc] = u.unmoved_aux;
                }
            }
        }
        if m.effects != 0 {
            let nc = self.rules.counters.len();
            for e in &self.rules.tables.effects[m.effects as usize - 1] {
                if let Effect::Counter(i, d) = *e {
                    self.counters[us * nc + i] -= d as i32;
                }
            }
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
        self.royals = u.royals;
    }

    /// Is `cell` attacked by a piece of `by`?
    pub fn attacked(&self, cell: Cell, by: usize) -> bool {
        super::attack::attacked(self, cell, by)
    }

    /// Is a royal piece of `side` attacked?
    pub fn in_check(&self, side: usize) -> bool {
        self.royals
            .of(side)
            .iter()
            .any(|&c| self.attacked(c, side ^ 1))
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

/// Counter values fold into 64 hash slots (exact for 0..=63, the usual range).
#[inline]
fn counter_slot(v: i32) -> usize {
    v.rem_euclid(64) as usize
}
