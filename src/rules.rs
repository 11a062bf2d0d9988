//! Stage 3: the compiled rules. The checker ([`crate::check`]) resolves every name of
//! the syntax tree into the plain definitions here; [`Rules::compile`] then precomputes
//! the tables the engine reads on its hot path: for every piece, side and square the
//! leaps and rays it may take, the reverse tables that answer "is this square
//! attacked", and the Zobrist keys.

use indexmap::IndexMap;

use crate::syntax::ast::Compare;
use crate::syntax::betza::{self, Hop};

/// An index over every square of every board.
pub type Cell = u16;
/// Marks "no square".
pub const NO_CELL: Cell = Cell::MAX;
/// A piece on a square: 0 is empty, else `1 + 2 * type + side`.
pub type Code = u8;
pub const EMPTY: Code = 0;
/// The most piece types a game may declare (type sets are 64-bit masks).
pub const MAX_PIECE_TYPES: usize = 64;

pub fn code(kind: usize, side: usize) -> Code {
    (1 + 2 * kind + side) as Code
}
pub fn kind_of(code: Code) -> usize {
    (code as usize - 1) >> 1
}
pub fn side_of(code: Code) -> usize {
    (code as usize - 1) & 1
}

/// One rectangular board.
#[derive(Debug, Clone)]
pub struct Board {
    pub name: String,
    pub files: usize,
    pub ranks: usize,
    /// The cell index of its square a1.
    pub first_cell: usize,
}

/// Where a cell is.
#[derive(Debug, Clone)]
pub struct CellInfo {
    pub board: usize,
    pub file: usize,
    pub rank: usize,
    pub name: String,
    /// Boards are checkered with a1 dark.
    pub dark: bool,
}

/// The boards of a game. The first is the main board, where pieces step, leap and
/// slide; the others (side boards such as clouds) are reached only by declared move
/// kinds such as flight.
#[derive(Debug, Clone, Default)]
pub struct Geometry {
    pub boards: Vec<Board>,
    pub cells: Vec<CellInfo>,
    names: std::collections::HashMap<String, Cell>,
}

impl Geometry {
    /// Adds a board; its squares are named `a1`.. unless `names` gives them, in the
    /// order a1, b1, ..., a2, ...
    pub fn add_board(&mut self, name: &str, files: usize, ranks: usize, names: &[String]) {
        let board = self.boards.len();
        let first_cell = self.cells.len();
        for rank in 0..ranks {
            for file in 0..files {
                let i = rank * files + file;
                let plain = format!("{}{}", file_letter(file), rank + 1);
                // Side boards without their own names prefix the board's name.
                let name = names.get(i).cloned().unwrap_or_else(|| {
                    if board == 0 {
                        plain
                    } else {
                        format!("{name}_{plain}")
                    }
                });
                self.names.insert(name.clone(), self.cells.len() as Cell);
                self.cells.push(CellInfo {
                    board,
                    file,
                    rank,
                    name,
                    dark: (file + rank) % 2 == 0,
                });
            }
        }
        self.boards.push(Board {
            name: name.to_string(),
            files,
            ranks,
            first_cell,
        });
    }
    /// The cells of one board.
    pub fn board_cells(&self, board: usize) -> std::ops::Range<usize> {
        let b = &self.boards[board];
        b.first_cell..b.first_cell + b.files * b.ranks
    }
    pub fn len(&self) -> usize {
        self.cells.len()
    }
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
    pub fn cell_at(&self, board: usize, file: i32, rank: i32) -> Option<Cell> {
        let b = self.boards.get(board)?;
        if file < 0 || rank < 0 || file as usize >= b.files || rank as usize >= b.ranks {
            return None;
        }
        Some((b.first_cell + rank as usize * b.files + file as usize) as Cell)
    }
    /// The cell reached from `cell` by the step (dx, dy), on the same board.
    pub fn offset(&self, cell: Cell, dx: i32, dy: i32) -> Option<Cell> {
        let c = &self.cells[cell as usize];
        self.cell_at(c.board, c.file as i32 + dx, c.rank as i32 + dy)
    }
    /// The cell a user names, such as `e4` or `f12`.
    pub fn parse_square(&self, name: &str) -> Option<Cell> {
        self.names.get(name).copied()
    }
    pub fn name(&self, cell: Cell) -> &str {
        &self.cells[cell as usize].name
    }
}

pub fn file_letter(file: usize) -> char {
    (b'a' + file as u8) as char
}

#[derive(Debug, Clone)]
pub struct Player {
    pub name: String,
    /// The letter that names the side to move in a position string.
    pub letter: char,
}

/// One move component of a piece: a Betza move, the conditions under which it may be
/// made, and its effects beyond moving.
#[derive(Debug, Clone)]
pub struct Component {
    pub betza: betza::BetzaMove,
    pub conditions: Vec<Cond>,
    pub effects: Vec<Effect>,
}

/// A condition on a move, resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cond {
    Height(Compare, i64),
    /// Ends strictly closer to the nearest piece of `kind` of the enemy (or own side).
    CloserTo {
        enemy: bool,
        kind: usize,
    },
    From(usize),
    To(usize),
    /// The mover's counter number `.0` compared with a number.
    Counter(usize, Compare, i64),
}

/// An effect of a move, resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// A piece of this kind, the mover's, is left on the square the mover left.
    Leave(usize),
    /// The mover's height changes by this much.
    Height(i64),
    /// Captures without moving.
    Stay,
    /// The mover's counter number `.0` changes by `.1`.
    Counter(usize, i64),
}

#[derive(Debug, Clone)]
pub struct Promotion {
    pub zone: usize,
    pub to: Vec<usize>,
}

#[derive(Debug, Clone)]
pub struct PieceType {
    pub name: String,
    /// The upper-case letter; the second player's pieces use the lower case.
    pub letter: char,
    pub royal: bool,
    pub en_passant: bool,
    pub resets_clock: bool,
    pub value: Option<i64>,
    pub betza: String,
    pub components: Vec<Component>,
    pub promotion: Option<Promotion>,
    /// The only player who has this piece, if one (its letter's case then tells).
    pub owner: Option<usize>,
    /// May fly (see [`Flight`]).
    pub flies: bool,
    /// The other face of a two-faced piece.
    pub flips_to: Option<usize>,
    /// It may leave the board from this zone.
    pub exits_from: Option<usize>,
}

/// Fliers may move from `from` squares to empty `to` squares, never capturing.
#[derive(Debug, Clone)]
pub struct Flight {
    pub from: Vec<bool>,
    pub to: Vec<bool>,
    pub same_colour: bool,
}

/// When a player's two-faced pieces may flip.
#[derive(Debug, Clone)]
pub struct FlipRule {
    pub zone: usize,
    /// Needs one's own piece of this kind in this zone.
    pub needs: Option<(usize, usize)>,
}

#[derive(Debug, Clone)]
pub struct Terrain {
    pub name: String,
    pub letter: char,
    pub blocks_passing: bool,
    pub blocks_landing: bool,
    /// Piece types that may enter it, removing it.
    pub cleared_by: u64,
    /// Piece types for which it is not there.
    pub crossed_by: u64,
}

#[derive(Debug, Clone)]
pub struct Zone {
    pub name: String,
    /// Membership per player and cell.
    pub cells: [Vec<bool>; 2],
}

#[derive(Debug, Clone)]
pub struct Castling {
    pub side: usize,
    pub letter: char,
    pub king_from: Cell,
    pub king_to: Cell,
    pub rook_from: Cell,
    pub rook_to: Cell,
    /// Squares that must hold neither piece nor terrain (the two castling pieces aside).
    pub must_be_empty: Vec<Cell>,
    /// Squares the king stands on or crosses, which may not be attacked.
    pub king_path: Vec<Cell>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndRule {
    Checkmate(Outcome),
    Stalemate(Outcome),
    NoMoves(Outcome),
    Repetition(u32, Outcome),
    MoveLimit(u32, Outcome),
    Captured(usize, Outcome),
    Exited(usize, Outcome),
}

#[derive(Debug, Clone)]
pub struct Param {
    pub value: i64,
    pub min: i64,
    pub max: i64,
}

/// A game's rules, checked and compiled.
#[derive(Debug, Clone)]
pub struct Rules {
    pub name: String,
    pub geometry: Geometry,
    pub players: [Player; 2],
    pub pieces: Vec<PieceType>,
    pub terrains: Vec<Terrain>,
    pub zones: Vec<Zone>,
    pub castlings: Vec<Castling>,
    pub end_rules: Vec<EndRule>,
    pub params: IndexMap<String, Param>,
    /// The second player may swap sides instead of making their first move.
    pub pie_rule: bool,
    pub flights: Vec<Flight>,
    pub flip_rules: [Option<FlipRule>; 2],
    /// Pieces in hand are placed on the empty squares of this zone.
    pub drop_zone: Option<usize>,
    /// Names of the per-player counters.
    pub counters: Vec<String>,
    /// A move that leaves the opponent stalemated is illegal (`stalemate illegal`).
    pub stalemate_illegal: bool,
    pub setup: String,
    pub tables: Tables,
}

/// A component as the move generator reads it.
#[derive(Debug, Clone, Copy)]
pub struct CompInfo {
    pub can_move: bool,
    pub can_capture: bool,
    pub hop: Hop,
    pub initial: bool,
    /// Its non-capturing move leaves the passed squares open to en passant.
    pub sets_ep: bool,
    /// It may capture onto an en-passant square.
    pub takes_ep: bool,
    /// It captures without moving.
    pub stays: bool,
    /// No hop, no condition, no effect: the generator's short path.
    pub plain: bool,
    /// Its conditions, (start, len) in `Tables::conds`.
    pub conds: (u16, u16),
    /// Its effects: 0 for none, else 1 + an index into `Tables::effects`.
    pub effects: u16,
}

/// One precomputed leap or ray from a square.
#[derive(Debug, Clone, Copy)]
pub struct Step {
    pub comp: u16,
    pub rider: bool,
    /// Target cells (one for a leap, the whole line for a ray) in `Tables::cells`.
    pub first: u32,
    pub len: u16,
    /// For a lame leap, the cells that must be empty.
    pub path_first: u32,
    pub path_len: u16,
}

/// A line toward a target being collected: direction, range, hop, piece kinds.
type RayEntry = (i32, i32, u16, Hop, u64);

/// A leap that would capture on the target square from `from`.
#[derive(Debug, Clone, Copy)]
pub struct LeapAttack {
    pub from: Cell,
    pub kinds: u64,
    pub path_first: u32,
    pub path_len: u16,
}

/// A line from the target square along which pieces of `kinds` capture.
#[derive(Debug, Clone, Copy)]
pub struct RayAttack {
    pub kinds: u64,
    pub first: u32,
    pub len: u16,
    pub max: u16,
    pub hop: Hop,
}

#[derive(Debug, Clone, Default)]
pub struct Tables {
    pub comps: Vec<CompInfo>,
    pub steps: Vec<Step>,
    /// (start, len) into `steps` per `code * cells + cell`.
    pub step_index: Vec<(u32, u32)>,
    pub cells: Vec<Cell>,
    /// Per attacker side and target cell: (start, len) into `leap_attacks` / `ray_attacks`.
    pub leap_index: [Vec<(u32, u32)>; 2],
    pub ray_index: [Vec<(u32, u32)>; 2],
    pub leap_attacks: Vec<LeapAttack>,
    pub ray_attacks: Vec<RayAttack>,
    /// Castling rights lost when a move starts or ends on a cell.
    pub castle_mask: Vec<u32>,
    /// Piece codes of the setup position, to tell which pieces are unmoved.
    pub home: Vec<Code>,
    pub zobrist: Zobrist,
    /// Piece types that are royal.
    pub royal_kinds: u64,
    pub conds: Vec<Cond>,
    pub effects: Vec<Vec<Effect>>,
    /// Piece types whose components may produce the same move twice.
    pub overlapping_kinds: u64,
    /// Piece types that a `closer-to` condition looks for.
    pub located_kinds: u64,
    /// How many of each piece code the setup has.
    pub home_counts: Vec<u16>,
    /// Flight targets per cell: (start, len) into `cells`.
    pub flight_index: Vec<(u32, u32)>,
    /// Drop squares per side.
    pub drop_cells: [Vec<Cell>; 2],
    /// Bit `target * cells + between` is set when a piece on `between` may stand
    /// between `target` and a piece that could capture there (on a rider's line or
    /// a lame leaper's path). Moving a piece off every such square cannot expose a
    /// royal piece, unless hoppers or flips exist (see `fast_legality`).
    pub between: Vec<u64>,
    /// Whether legality may skip make/unmake for moves off the lines to the royal.
    pub fast_legality: bool,
    /// Piece types that promote somewhere.
    pub promoting_kinds: u64,
    /// Piece types with captures under conditions on the position's state: attack
    /// detection walks their moves instead of reading the reverse tables.
    pub dynamic_attack_kinds: u64,
    /// Flip-zone squares per side.
    pub flip_cells: [Vec<Cell>; 2],
}

#[derive(Debug, Clone, Default)]
pub struct Zobrist {
    /// Per `code * cells + cell`.
    pub piece: Vec<u64>,
    /// Per `terrain * cells + cell`.
    pub terrain: Vec<u64>,
    pub side: u64,
    pub castling: Vec<u64>,
    pub ep: Vec<u64>,
    /// Per `cell * 256 + height`, for pieces whose height is not 1.
    pub height: Vec<u64>,
    pub swapped: u64,
    /// Per `(side * kinds + kind) * 64 + count in hand`.
    pub hand: Vec<u64>,
    /// Per `(side * counters + counter) * 64 + value` (values folded into 0..64).
    pub counter: Vec<u64>,
    /// Per `side * kinds + kind` that has left the board.
    pub exited: Vec<u64>,
}

struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Rules {
    pub fn cell_count(&self) -> usize {
        self.geometry.len()
    }

    /// The piece type and side a position string's letter stands for: upper case for
    /// the first player, lower case for the second.
    pub fn piece_by_letter(&self, c: char) -> Option<(usize, usize)> {
        if !c.is_ascii_alphabetic() {
            return None;
        }
        let side = usize::from(c.is_ascii_lowercase());
        self.kind_for(side, c).map(|k| (k, side))
    }

    /// The first piece type whose letter is `c`, in either case, whoever owns it.
    pub fn kind_by_letter(&self, c: char) -> Option<usize> {
        let up = c.to_ascii_uppercase();
        self.pieces.iter().position(|p| p.letter == up)
    }

    /// The piece type of `side` whose letter is `c`, in either case.
    pub fn kind_for(&self, side: usize, c: char) -> Option<usize> {
        let up = c.to_ascii_uppercase();
        self.pieces
            .iter()
            .position(|p| p.letter == up && p.owner.is_none_or(|o| o == side))
    }

    /// The letter of a piece code: upper case for the first player.
    pub fn code_letter(&self, code: Code) -> char {
        let l = self.pieces[kind_of(code)].letter;
        if side_of(code) == 0 {
            l
        } else {
            l.to_ascii_lowercase()
        }
    }

    pub fn zone_contains(&self, zone: usize, side: usize, cell: Cell) -> bool {
        self.zones[zone].cells[side][cell as usize]
    }

    /// Precomputes the engine's tables. Call once the definitions are complete.
    pub fn compile(&mut self) {
        let n = self.cell_count();
        let geo = &self.geometry;
        let mut t = Tables::default();
        let mut comp_ids: Vec<Vec<u16>> = Vec::new();
        for p in &self.pieces {
            let mut ids = Vec::new();
            for c in &p.components {
                let b = &c.betza;
                let passes = b
                    .vectors
                    .iter()
                    .any(|&(x, y)| !betza::lame_path(x, y).is_empty());
                ids.push(t.comps.len() as u16);
                let cond_start = t.conds.len() as u16;
                t.conds.extend(c.conditions.iter().copied());
                let effects = if c.effects.is_empty() {
                    0
                } else {
                    t.effects.push(c.effects.clone());
                    t.effects.len() as u16
                };
                let sets_ep = p.en_passant && b.can_move && !b.can_capture && b.lame && passes;
                let takes_ep = p.en_passant && b.can_capture && b.hop == Hop::None;
                t.comps.push(CompInfo {
                    plain: b.hop == Hop::None && c.conditions.is_empty() && c.effects.is_empty(),
                    stays: c.effects.contains(&Effect::Stay),
                    conds: (cond_start, c.conditions.len() as u16),
                    effects,
                    can_move: b.can_move,
                    can_capture: b.can_capture,
                    hop: b.hop,
                    initial: b.initial,
                    sets_ep,
                    takes_ep,
                });
            }
            comp_ids.push(ids);
        }
        for (kind, p) in self.pieces.iter().enumerate() {
            let mut seen = Vec::new();
            for c in &p.components {
                for v in &c.betza.vectors {
                    if seen.contains(v) {
                        t.overlapping_kinds |= 1 << kind;
                    }
                    seen.push(*v);
                }
                for cond in &c.conditions {
                    if let Cond::CloserTo { kind: k, .. } = cond {
                        t.located_kinds |= 1 << k;
                    }
                }
            }
        }
        let ncodes = 1 + 2 * self.pieces.len();
        t.step_index = vec![(0, 0); ncodes * n];
        // Reverse attack entries, collected per attacker side and target cell.
        let mut leaps: [Vec<Vec<LeapAttack>>; 2] = [vec![Vec::new(); n], vec![Vec::new(); n]];
        let mut rays: [Vec<Vec<RayEntry>>; 2] = [vec![Vec::new(); n], vec![Vec::new(); n]];
        for (kind, p) in self.pieces.iter().enumerate() {
            for side in 0..2 {
                let flip = if side == 0 { 1 } else { -1 };
                let code = code(kind, side) as usize;
                for from in geo.board_cells(0).map(|c| c as Cell) {
                    let start = t.steps.len() as u32;
                    for (ci, c) in p.components.iter().enumerate() {
                        let b = &c.betza;
                        for &(vx, vy) in &b.vectors {
                            let (dx, dy) = (vx as i32 * flip, vy as i32 * flip);
                            let first = t.cells.len() as u32;
                            let max = if b.rider && b.max_steps == 0 {
                                usize::MAX
                            } else {
                                b.max_steps as usize
                            };
                            let mut cur = from;
                            let mut len = 0;
                            while len < max {
                                match geo.offset(cur, dx, dy) {
                                    Some(next) => {
                                        t.cells.push(next);
                                        cur = next;
                                        len += 1;
                                    }
                                    None => break,
                                }
                            }
                            if len == 0 {
                                continue;
                            }
                            let path_first = t.cells.len() as u32;
                            let mut path_len = 0;
                            if b.lame {
                                for (px, py) in betza::lame_path(vx, vy) {
                                    let cell = geo
                                        .offset(from, px as i32 * flip, py as i32 * flip)
                                        .expect("a lame path lies inside the leap, on the board");
                                    t.cells.push(cell);
                                    path_len += 1;
                                }
                            }
                            t.steps.push(Step {
                                comp: comp_ids[kind][ci],
                                rider: b.rider,
                                first,
                                len: len as u16,
                                path_first,
                                path_len,
                            });
                            // Captures that hang on the position's state (a height, a counter,
                            // a first move) are asked of the piece itself, not the tables.
                            let dynamic = b.initial
                                || c.conditions.iter().any(|cond| {
                                    matches!(
                                        cond,
                                        Cond::Height(..)
                                            | Cond::CloserTo { .. }
                                            | Cond::Counter(..)
                                    )
                                });
                            if b.can_capture && dynamic {
                                t.dynamic_attack_kinds |= 1 << kind;
                            }
                            // Reverse tables: captures that need no state but the board.
                            let static_conds = c.conditions.iter().all(|cond| match *cond {
                                Cond::From(z) => self.zones[z].cells[side][from as usize],
                                Cond::To(_) => true,
                                _ => false,
                            });
                            let to_zone = c.conditions.iter().find_map(|cond| match *cond {
                                Cond::To(z) => Some(z),
                                _ => None,
                            });
                            if b.can_capture && !b.initial && static_conds {
                                let lands = |cell: Cell| {
                                    to_zone.is_none_or(|z| self.zones[z].cells[side][cell as usize])
                                };
                                if b.rider {
                                    let m = if b.max_steps == 0 {
                                        u16::MAX
                                    } else {
                                        b.max_steps as u16
                                    };
                                    // Index the line by each square it reaches.
                                    let mut cur = from;
                                    let mut k = 0;
                                    while let Some(next) = geo.offset(cur, dx, dy) {
                                        k += 1;
                                        if b.hop == Hop::None && k as u16 > m {
                                            break;
                                        }
                                        let entry = (-dx, -dy, m, b.hop, 1u64 << kind);
                                        if !lands(next) {
                                            cur = next;
                                            continue;
                                        }
                                        let list = &mut rays[side][next as usize];
                                        if let Some(e) = list.iter_mut().find(|e| {
                                            (e.0, e.1, e.2, e.3)
                                                == (entry.0, entry.1, entry.2, entry.3)
                                        }) {
                                            e.4 |= entry.4;
                                        } else {
                                            list.push(entry);
                                        }
                                        cur = next;
                                    }
                                } else {
                                    let to = t.cells[first as usize];
                                    if !lands(to) {
                                        continue;
                                    }
                                    let list = &mut leaps[side][to as usize];
                                    let existing = list.iter_mut().find(|e| {
                                        e.from == from && e.path_len == 0 && path_len == 0
                                    });
                                    match existing {
                                        Some(e) => e.kinds |= 1 << kind,
                                        None => list.push(LeapAttack {
                                            from,
                                            kinds: 1 << kind,
                                            path_first,
                                            path_len,
                                        }),
                                    }
                                }
                            }
                        }
                    }
                    t.step_index[code * n + from as usize] = (start, t.steps.len() as u32 - start);
                }
            }
        }
        for side in 0..2 {
            t.leap_index[side] = Vec::with_capacity(n);
            t.ray_index[side] = Vec::with_capacity(n);
            for target in 0..n {
                let s = t.leap_attacks.len() as u32;
                t.leap_attacks.extend(leaps[side][target].iter().copied());
                t.leap_index[side].push((s, t.leap_attacks.len() as u32 - s));
                let s = t.ray_attacks.len() as u32;
                for &(dx, dy, max, hop, kinds) in &rays[side][target] {
                    let first = t.cells.len() as u32;
                    let mut cur = target as Cell;
                    while let Some(next) = geo.offset(cur, dx, dy) {
                        t.cells.push(next);
                        cur = next;
                    }
                    let len = (t.cells.len() as u32 - first) as u16;
                    t.ray_attacks.push(RayAttack {
                        kinds,
                        first,
                        len,
                        max,
                        hop,
                    });
                }
                t.ray_index[side].push((s, t.ray_attacks.len() as u32 - s));
            }
        }
        t.castle_mask = vec![0; n];
        for (i, c) in self.castlings.iter().enumerate() {
            t.castle_mask[c.king_from as usize] |= 1 << i;
            t.castle_mask[c.rook_from as usize] |= 1 << i;
        }
        // Squares between a target and its attackers, for the legality fast path.
        t.between = vec![0; (n * n).div_ceil(64)];
        let mut hoppers = false;
        for step in &t.steps {
            let comp = &t.comps[step.comp as usize];
            if !comp.can_capture {
                continue;
            }
            hoppers |= comp.hop != Hop::None;
            let line = &t.cells[step.first as usize..step.first as usize + step.len as usize];
            let path = &t.cells
                [step.path_first as usize..step.path_first as usize + step.path_len as usize];
            for (j, &target) in line.iter().enumerate() {
                for &b in line[..j].iter().chain(path) {
                    let bit = target as usize * n + b as usize;
                    t.between[bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        t.promoting_kinds = self
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.promotion.is_some())
            .fold(0, |m, (i, _)| m | 1 << i);
        t.fast_legality = !hoppers && self.flip_rules.iter().all(Option::is_none);
        // Flight targets, per cell.
        t.flight_index = vec![(0, 0); n];
        for from in 0..n {
            let start = t.cells.len() as u32;
            for f in &self.flights {
                if !f.from[from] {
                    continue;
                }
                for to in 0..n {
                    let colour_ok = !f.same_colour || geo.cells[to].dark == geo.cells[from].dark;
                    if f.to[to]
                        && to != from
                        && colour_ok
                        && !t.cells[start as usize..].contains(&(to as Cell))
                    {
                        t.cells.push(to as Cell);
                    }
                }
            }
            t.flight_index[from] = (start, t.cells.len() as u32 - start);
        }
        for side in 0..2 {
            if let Some(z) = self.drop_zone {
                t.drop_cells[side] = (0..n)
                    .filter(|&c| self.zones[z].cells[side][c])
                    .map(|c| c as Cell)
                    .collect();
            }
            if let Some(f) = &self.flip_rules[side] {
                t.flip_cells[side] = (0..n)
                    .filter(|&c| self.zones[f.zone].cells[side][c])
                    .map(|c| c as Cell)
                    .collect();
            }
        }
        t.royal_kinds = self
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.royal)
            .fold(0, |m, (i, _)| m | 1 << i);
        let mut rng = SplitMix(0x0005_EED0_F7A7_5A4D);
        let z = &mut t.zobrist;
        z.piece = (0..ncodes * n)
            .map(|i| if i < n { 0 } else { rng.next() })
            .collect();
        z.terrain = (0..self.terrains.len() * n).map(|_| rng.next()).collect();
        z.side = rng.next();
        z.castling = (0..self.castlings.len()).map(|_| rng.next()).collect();
        z.ep = (0..n).map(|_| rng.next()).collect();
        z.height = (0..n * 256).map(|_| rng.next()).collect();
        z.swapped = rng.next();
        let kinds = self.pieces.len();
        z.hand = (0..2 * kinds * 64).map(|_| rng.next()).collect();
        z.counter = (0..2 * self.counters.len() * 64)
            .map(|_| rng.next())
            .collect();
        z.exited = (0..2 * kinds).map(|_| rng.next()).collect();
        self.tables = t;
    }
}
