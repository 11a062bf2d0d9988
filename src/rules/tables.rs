//! The tables the engine reads on its hot path, precomputed from the rules: the
//! generators as the move generator reads them, the leaps and rays of every Betza
//! generator from every square, the reverse tables for attack detection, the legality
//! fast path's lines, what landings ask, the targets of flights and drops, the files,
//! the Zobrist keys. Each part is built by a function whose arguments are what it
//! reads; [`build`] lists them in dependency order.

use super::{GenId, Rules, Source};
use crate::ids::Side;
use crate::model::{
    Castling, Cell, Code, Cond, Convert, EMPTY, Effect, EndRule, Geometry, NO_CELL, Piece,
    PieceKind, Placement, ZoneId, code, kind_of,
};
use crate::syntax::betza::{self, BetzaMove, Hop};

/// A generator as the move generator reads it.
#[derive(Debug, Clone, Copy)]
pub struct GenInfo {
    /// Its way to move, which the move generator dispatches on.
    pub source: Source,
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
    /// It changes a counter (its moves keep counters within range).
    pub counts: bool,
    /// No hop, no condition, no effect (the short path reads `Step::plain`, which
    /// also takes conditions that hold for all of a step's moves).
    pub plain: bool,
    /// Its conditions, (start, len) in `Gens::conds`.
    pub conds: (u16, u16),
    /// Its effects: 0 for none, else 1 + an index into `Gens::effects`.
    pub effects: u16,
    /// Its moves' second part: 0 for none, else 1 + an index into
    /// `Gens::placements`.
    pub place: u8,
    /// The piece type whose move it is (a drop places one of these).
    pub piece: u8,
    /// For a drop, the piece type in hand it takes: `piece`, or for a face placed
    /// from the hand of the piece it is kept as (`in-hand-as`), that piece.
    pub hand: u8,
    /// `then becomes PIECE`: 1 + the piece type its moves turn the piece into; 0 for
    /// none.
    pub becomes: u8,
    /// It has conditions read on the position its moves make (`checking`,
    /// `attacking`): the legal-move filter asks them.
    pub after: bool,
    /// It must convert (`if converts`): its moves need an enemy piece next to their
    /// target.
    pub converting: bool,
}

impl GenInfo {
    /// For castling, its index in `Rules::castlings` (0 for other generators).
    #[inline]
    pub fn castling(&self) -> usize {
        match self.source {
            Source::Castle { castling } => usize::from(castling),
            _ => 0,
        }
    }
}

/// One precomputed leap or ray from a square.
#[derive(Debug, Clone, Copy)]
pub struct Step {
    pub generator: GenId,
    pub rider: bool,
    /// Several leaps of one plain generator (only in `Steps::plain`): each
    /// target is a square of its own, none blocks another.
    pub leaps: bool,
    /// The short path's step: no hop, no effect, and no condition, or only
    /// conditions on the squares and the player that hold for every target of this
    /// step (the general's `moves "W" if to palace` from inside its palace, towards
    /// it): the move generator need not ask them.
    pub plain: bool,
    /// Target cells (one for a leap, the whole line for a ray) in `Steps::cells`.
    pub first: u32,
    pub len: u16,
    /// For a lame leap, the cells that must be empty.
    pub path_first: u32,
    pub path_len: u16,
}

/// A line toward a target being collected: direction, range, hop, what the capture
/// asks of the board, and the piece kind when `at` is one kind's own (a rider whose
/// captures depend on where it starts: merged with another kind's, each would get
/// the other's starting squares).
#[derive(Clone, Copy, PartialEq)]
struct RayEntry {
    dx: i32,
    dy: i32,
    max: u16,
    hop: Hop,
    cond: AttackCond,
    solo: Option<usize>,
    kinds: u64,
}

/// What a capture in the reverse tables asks of the board besides an attacker of the
/// right kind where it stands: conditions on the piece jumped (`over`), on the piece
/// taken (`captures`) and, for a rider whose captures depend on the square it starts
/// from, where along the line it may stand. Index 0 of `Attacks::conds` asks nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttackCond {
    /// The kinds of screen a hopper may jump (any side).
    pub screens: u64,
    /// The kinds of piece it may take (any side).
    pub victims: u64,
    /// Whether it attacks an empty square (with no piece asked about there).
    pub empty: bool,
    /// Bit k: the attacker may stand on the line's square k (counted from 0 next to
    /// the target). Bit 63 is set only where every square is allowed.
    pub at: u64,
}

impl AttackCond {
    /// The condition that asks nothing.
    pub const NONE: AttackCond = AttackCond {
        screens: u64::MAX,
        victims: u64::MAX,
        empty: true,
        at: u64::MAX,
    };

    /// Does a capture from line square `k`, over `screen` (0 for none), of `victim`
    /// (0 for an empty square) satisfy it?
    #[inline]
    pub fn holds(&self, k: usize, screen: Code, victim: Code) -> bool {
        self.at >> k.min(63) & 1 != 0
            && (screen == EMPTY || self.screens >> kind_of(screen) & 1 != 0)
            && if victim == EMPTY {
                self.empty
            } else {
                self.victims >> kind_of(victim) & 1 != 0
            }
    }
}

/// A leap that would capture on the target square from `from`.
#[derive(Debug, Clone, Copy)]
pub struct LeapAttack {
    pub from: Cell,
    /// Its condition in `Attacks::conds` (0: none).
    pub cond: u8,
    pub path_len: u8,
    /// Its lame path in `Attacks::cells`.
    pub path_first: u32,
    pub kinds: u64,
}

/// A line from the target square along which pieces of `kinds` capture.
#[derive(Debug, Clone, Copy)]
pub struct RayAttack {
    pub kinds: u64,
    /// Its line in `Attacks::cells`.
    pub first: u32,
    pub len: u16,
    pub max: u16,
    /// Its condition in `Attacks::conds` (0: none).
    pub cond: u32,
    pub hop: Hop,
}

/// A ray of the reverse tables read as bits (boards of up to 128 squares, where its
/// line runs through square indices in one order), so that the first piece out along
/// it is the lowest or highest bit of the occupied squares on the line: the
/// explosion legality test asks the board after a blast without putting it there.
#[derive(Debug, Clone, Copy, Default)]
pub struct RayBits {
    /// The squares of its line (`Attacks::ray_cells`).
    pub line: u128,
    /// Those within its reach (`RayAttack::max` squares out).
    pub reach: u128,
    pub kinds: u64,
    /// The line runs up the square indices, outward from the target (else down).
    pub rising: bool,
}

/// The compiled rules' tables, one part per concern, each built by a function that
/// takes exactly what it reads (see [`build`] for the order).
#[derive(Debug, Clone, Default)]
pub struct Tables {
    pub gens: Gens,
    pub kinds: Kinds,
    pub steps: Steps,
    pub attacks: Attacks,
    pub legality: Legality,
    pub landing: Landing,
    pub targets: Targets,
    pub files: Files,
    pub zobrist: Zobrist,
    pub hands: Hands,
    pub ends: Ends,
    pub home: Home,
    pub blast: Blast,
    pub lines: Lines,
}

impl Tables {
    /// Whether the reverse attack tables tell every capture (no captures under
    /// conditions, no two-faced pieces): then the cheapest attacker of a square and
    /// the exchange on it can be read from them.
    pub fn attacks_tabled(&self) -> bool {
        self.attacks.dynamic_kinds == 0
            && self.attacks.conds.len() <= 1
            && self.targets.flip_cells[0].is_empty()
            && self.targets.flip_cells[1].is_empty()
    }
}

/// The squares around each square, which explosions remove, clones land on and
/// adjacent conversions turn (built by [`blast`]); what explosions spare.
#[derive(Debug, Clone, Default)]
pub struct Blast {
    /// Per cell, the (up to 8) cells around it on its board, the king's steps;
    /// `NO_CELL` pads. Only in games that explode, clone or convert adjacent pieces.
    pub around: Vec<[Cell; 8]>,
    /// On boards of up to 128 squares (else empty), the same cells as the bits of a
    /// `u128`: the squares next to a side's pieces are found a piece at a time.
    pub around_bits: Vec<u128>,
    /// Piece types that survive an explosion on a square around the target.
    pub spared: u64,
}

impl Blast {
    /// The cells around `cell`.
    #[inline]
    pub fn around(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        self.around[cell]
            .iter()
            .copied()
            .take_while(|&c| c != NO_CELL)
    }
}

/// The eight directions of a queen's lines, in the order enclosing conversions walk
/// them.
pub const QUEEN_LINES: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The queen's lines out of each cell, for enclosing conversions (built by
/// [`lines`]; empty in games without them): the walk reads a slice of cells
/// instead of asking the geometry for each step.
#[derive(Debug, Clone, Default)]
pub struct Lines {
    /// Per cell and direction of [`QUEEN_LINES`]: (start, len) into `cells`.
    pub index: Vec<[(u32, u32); 8]>,
    pub cells: Vec<Cell>,
}

impl Lines {
    /// The cells from `cell` outward (not `cell` itself) in direction `d`.
    #[inline]
    pub fn line(&self, cell: Cell, d: usize) -> &[Cell] {
        let (start, len) = self.index[cell][d];
        &self.cells[start as usize..(start + len) as usize]
    }
}

/// The generators as the move generator reads them (built by [`gens`]).
#[derive(Debug, Clone, Default)]
pub struct Gens {
    /// One per generator, indexed by [`GenId`] (`gens[id]` reads it).
    pub info: Vec<GenInfo>,
    /// The generators' conditions asked while generating (see `GenInfo::conds`).
    pub conds: Vec<Cond>,
    /// The generators' effects (see `GenInfo::effects`).
    pub effects: Vec<Vec<Effect>>,
    /// Per generator, what a move text adds to tell its moves from another
    /// generator's with the same squares (see [`move_tags`]); empty for most.
    pub tags: Vec<String>,
    /// The second parts of moves (see `GenInfo::place`).
    pub placements: Vec<Placement>,
}

impl std::ops::Index<GenId> for Gens {
    type Output = GenInfo;
    #[inline]
    fn index(&self, id: GenId) -> &GenInfo {
        &self.info[id]
    }
}

impl Gens {
    /// The conditions of a generator asked while generating.
    #[inline]
    pub fn conds(&self, info: &GenInfo) -> &[Cond] {
        let (start, len) = info.conds;
        &self.conds[start as usize..(start + len) as usize]
    }

    /// The effects of a generator that has some (`info.effects != 0`).
    #[inline]
    pub fn effects(&self, info: &GenInfo) -> &[Effect] {
        &self.effects[info.effects as usize - 1]
    }

    /// The effects of a generator, none if it has none.
    #[inline]
    pub fn effects_of(&self, info: &GenInfo) -> &[Effect] {
        if info.effects == 0 {
            &[]
        } else {
            self.effects(info)
        }
    }
}

/// The leaps and rays of every Betza generator of every piece from every square
/// (built by [`steps`]).
#[derive(Debug, Clone, Default)]
pub struct Steps {
    /// How many squares all boards have together.
    pub squares: usize,
    pub list: Vec<Step>,
    /// (start, len) into `list` per `code * cells + cell`.
    pub index: Vec<(u32, u32)>,
    /// The same steps for the generator's short path (a piece moving as itself): the
    /// plain leaps of one generator from one square merged into one step.
    pub plain: Vec<Step>,
    /// (start, len) into `plain` per `code * cells + cell`.
    pub plain_index: Vec<(u32, u32)>,
    /// The steps' target lines and lame paths.
    pub cells: Vec<Cell>,
    /// Per step of `plain`, on boards of at most 128 squares (else empty): the step
    /// as the generator's bit path reads it.
    pub bits: Vec<BitStep>,
    /// Per `code * cells + cell`, with `bits`: what the move generator reads of the
    /// piece there before its steps.
    pub at: Vec<BitSquare>,
}

impl Steps {
    /// The steps of the piece `code` from `cell`.
    #[inline]
    pub fn of(&self, code: Code, cell: Cell) -> &[Step] {
        let (start, len) = self.index[code as usize * self.squares + cell.index()];
        &self.list[start as usize..(start + len) as usize]
    }

    /// The target squares of a step: one for a leap, the whole line for a ray.
    #[inline]
    pub fn line(&self, step: &Step) -> &[Cell] {
        &self.cells[step.first as usize..step.first as usize + step.len as usize]
    }

    /// The squares a lame leap must find empty.
    #[inline]
    pub fn path(&self, step: &Step) -> &[Cell] {
        &self.cells[step.path_first as usize..step.path_first as usize + step.path_len as usize]
    }
}

/// A piece on a square, as the move generator's bit path reads it before its steps
/// (boards of at most 128 squares): one entry, so that a piece costs one look-up.
#[derive(Debug, Clone, Copy, Default)]
pub struct BitSquare {
    /// The first square of each of its steps (each target of merged leaps), where all
    /// of them are plain (else all squares): with every one of them holding a piece
    /// of its own side, the piece has no move by them.
    pub near: u128,
    /// The landings that take the full rules (where it may promote or may not stay);
    /// all squares where leaving this one may promote.
    pub watch: u128,
    /// Its steps, `start..start + len` of `Steps::plain` and `Steps::bits`.
    pub start: u32,
    pub len: u32,
    /// Every step of it from there is plain and has a [`BitStep`] form (the move
    /// generator reads them as bits).
    pub by_bits: bool,
}

/// A plain step with its squares as bits (boards of at most 128 squares), and what
/// its generator allows, so that the bit path reads no other table per step.
#[derive(Debug, Clone, Copy, Default)]
pub struct BitStep {
    /// Its target squares: merged leaps', or a line's.
    pub cells: u128,
    /// The squares a lame leap must find empty.
    pub path: u128,
    pub generator: GenId,
    /// [`BitStep::RIDER`] and the others.
    pub flags: u8,
}

impl BitStep {
    /// It moves onto empty squares.
    pub const MOVES: u8 = 1;
    /// It captures.
    pub const CAPTURES: u8 = 2;
    /// It may capture onto an en-passant square.
    pub const TAKES_EP: u8 = 4;
    /// The three above: the squares it may land on, by the board.
    pub const LANDS: u8 = 7;
    /// A line: its targets end at the first piece on it.
    pub const RIDER: u8 = 8;
    /// A line whose squares run down the square indices (else up).
    pub const DOWN: u8 = 16;
    /// Its moves are double steps, open to en passant.
    pub const DOUBLE: u8 = 32;
    /// Only from the piece's first square, unmoved.
    pub const INITIAL: u8 = 64;
    /// A lame leap, whose path must be empty.
    pub const PATH: u8 = 128;
}

/// The reverse tables for attack detection (built by [`attacks`]).
#[derive(Debug, Clone, Default)]
pub struct Attacks {
    /// Per attacker side and target cell: (start, len) into `leaps` / `rays`.
    pub leap_index: [Vec<(u32, u32)>; 2],
    pub ray_index: [Vec<(u32, u32)>; 2],
    pub leaps: Vec<LeapAttack>,
    pub rays: Vec<RayAttack>,
    /// The rays' lines and the lame leaps' paths.
    pub cells: Vec<Cell>,
    /// Piece types with captures under conditions on the position's state: attack
    /// detection walks their moves instead of reading the reverse tables.
    pub dynamic_kinds: u64,
    /// The conditions the entries ask (`LeapAttack::cond`, `RayAttack::cond`); the
    /// first asks nothing. More than one: [`Tables::attacks_tabled`] is false, as
    /// the exchange's least attacker does not read them.
    pub conds: Vec<AttackCond>,
    /// On boards of up to 128 squares (else empty): per ray, the squares of its line,
    /// and per leap, those of its lame path, as the bits of a `u128`. Legality asks
    /// only the lines and paths through a move's squares.
    pub ray_cells: Vec<u128>,
    pub leap_cells: Vec<u128>,
    /// On the same boards, per ray (else empty: some line runs through square
    /// indices in no single order): its line as bits, with the first piece found as
    /// a bit (see [`RayBits`]).
    pub ray_bits: Vec<RayBits>,
    /// Whether some leap is lame (has a path that pieces block).
    pub lame_leaps: bool,
    /// On the same boards, per attacker side and target cell: every square of the
    /// target's entries (lines, lame paths and the leapers' squares). A move whose
    /// squares are all outside it changes no attack on the target.
    pub reach: [Vec<u128>; 2],
    /// On the same boards, per attacker side and target cell: the squares whose
    /// emptying may open an entry (the lines and the lame paths), and those where a
    /// piece arriving may be a hopper's screen (the hoppers' lines).
    pub uncover: [Vec<u128>; 2],
    pub screens: [Vec<u128>; 2],
    /// On the same boards, per attacker side, target cell and kind (at `target *
    /// kinds + kind`): the squares from which a piece of that kind captures on the
    /// target by an entry, were nothing in its way.
    pub direct: [Vec<u128>; 2],
}

impl Attacks {
    /// The leaps of pieces of `by` that would capture on `cell`.
    #[inline]
    pub fn leaps_to(&self, by: Side, cell: Cell) -> &[LeapAttack] {
        let (start, len) = self.leap_index[by][cell];
        &self.leaps[start as usize..(start + len) as usize]
    }

    /// The lines from `cell` along which pieces of `by` capture there.
    #[inline]
    pub fn rays_to(&self, by: Side, cell: Cell) -> &[RayAttack] {
        let (start, len) = self.ray_index[by][cell];
        &self.rays[start as usize..(start + len) as usize]
    }

    /// The squares a lame leap must find empty.
    #[inline]
    pub fn path(&self, a: &LeapAttack) -> &[Cell] {
        &self.cells[a.path_first as usize..a.path_first as usize + a.path_len as usize]
    }

    /// The squares of a ray, outward from its target.
    #[inline]
    pub fn line(&self, r: &RayAttack) -> &[Cell] {
        &self.cells[r.first as usize..r.first as usize + r.len as usize]
    }
}

/// What the legality fast path needs (built by [`legality`]).
#[derive(Debug, Clone, Default)]
pub struct Legality {
    /// Bit `target * cells + between` is set when a piece on `between` may stand
    /// between `target` and a piece that could capture there (on a rider's line or
    /// a lame leaper's path). Moving a piece off every such square cannot expose a
    /// royal piece, unless hoppers or flips exist (see `fast`).
    pub between: Vec<u64>,
    /// Whether legality may skip make/unmake for moves off the lines to the royal.
    pub fast: bool,
    /// Whether attacks and facing are read from the board alone (no captures under
    /// conditions on the position's state, no two-faced pieces, no explosions, no
    /// second parts): then an ordinary move without effects is tested by putting it
    /// on the board only, without make and unmake.
    pub on_board: bool,
    /// Whether, where captures explode, attacks are read from the board alone (as
    /// `on_board` says, explosions aside) and no `duple-check` reads check: then an
    /// ordinary move without effects is tested by putting it, and the explosion it
    /// causes, on the board only (`Position::blast_on_board`).
    pub blast_on_board: bool,
    /// Where `blast_on_board` holds, on boards of up to 128 squares without terrain
    /// whose rays are all read as bits (`Attacks::ray_bits`), with no hoppers and no
    /// captures under conditions: the explosion is not put on the board at all, but
    /// read as a mask of squares (`Position::blast_legal_bits`).
    pub blast_bits: bool,
    /// Where `on_board` holds and `forbid check` is read, for up to 64 kinds on boards
    /// of up to 128 squares without terrain whose rays are all read as bits, with no
    /// hoppers, no lame leaps and no captures under conditions: a move's check is read
    /// from the position's check squares (`Position::check_board`).
    pub check_bits: bool,
}

/// Where pieces may land and what a landing asks (built by [`landing`]).
#[derive(Debug, Clone, Default)]
pub struct Landing {
    /// How many squares all boards have together.
    pub squares: usize,
    /// Per `code * cells + cell`, under `forbid dead-squares` (else empty): none of
    /// the piece's moves leads anywhere from there, so it may not be left there.
    pub dead: Vec<bool>,
    /// Per `code * cells + cell`: a move of the piece from there may promote.
    pub promotes_from: Vec<bool>,
    /// Per `code * cells + cell`: a landing there takes the full rules (the piece may
    /// promote there, or may not stay there).
    pub watch: Vec<bool>,
    /// Per `code * cells + cell`, on boards of at most 128 cells (else empty): the
    /// squares where an enemy piece gives the piece there a capture, as bits; its
    /// only tactical moves are such captures and en-passant ones. [`ANY_REACH`]: it
    /// may also promote or change face, so it is never passed over.
    pub capture_reach: Vec<u128>,
    /// Per code, on boards of at most 128 cells (else empty): the cells of `watch`
    /// as bits.
    pub watch_bits: Vec<u128>,
}

impl Landing {
    /// Is `cell` a dead square for the piece `code` (never, without the rule)?
    #[inline]
    pub fn is_dead(&self, code: Code, cell: Cell) -> bool {
        !self.dead.is_empty() && self.dead[code as usize * self.squares + cell.index()]
    }
}

/// The targets of flights and drops, and the squares flips start from: the cells
/// their conditions on zones allow (built by [`targets`]).
#[derive(Debug, Clone, Default)]
pub struct Targets {
    /// How many squares all boards have together.
    pub squares: usize,
    /// Per generator: its first slot in `index`, and whether it is a flight (targets
    /// per side and origin at `first + side * cells + cell`; a drop's per side at
    /// `first + side`).
    pub first: Vec<(u32, bool)>,
    /// (start, len) into `cells`.
    pub index: Vec<(u32, u32)>,
    pub cells: Vec<Cell>,
    /// Per side, the squares a flip generator may start from (its `from` zone).
    pub flip_cells: [Vec<Cell>; 2],
}

impl Targets {
    /// The target squares of a flight (for a piece of `side` on `from`) or a drop
    /// (for `side`) generator.
    #[inline]
    pub fn of(&self, id: GenId, side: Side, from: Cell) -> &[Cell] {
        let (first, flight) = self.first[id];
        let slot = if flight {
            first as usize + side.index() * self.squares + from.index()
        } else {
            first as usize + side.index()
        };
        let (start, len) = self.index[slot];
        &self.cells[start as usize..(start + len) as usize]
    }
}

/// The squares of each cell's file, on its board (built by [`files`]).
#[derive(Debug, Clone, Default)]
pub struct Files {
    /// Per cell: (start, len) in `cells`.
    pub index: Vec<(u32, u16)>,
    pub cells: Vec<Cell>,
}

impl Files {
    /// The squares on the file of `cell`, on its board.
    #[inline]
    pub fn of(&self, cell: Cell) -> &[Cell] {
        let (start, len) = self.index[cell];
        &self.cells[start as usize..start as usize + len as usize]
    }
}

/// Each piece type's generators by what the move generator does with them, and the
/// sets of piece types the engine tests (built by [`kinds`]).
#[derive(Debug, Clone, Default)]
pub struct Kinds {
    /// Per piece type: its generators other than Betza moves and drops, in order.
    pub extras: Vec<Vec<GenId>>,
    /// Piece types that have generators in `extras`.
    pub with_extras: u64,
    /// Per piece type in hand: the drop generators that take it (its own, and those
    /// of the faces placed from it).
    pub drops: Vec<Vec<GenId>>,
    /// Does any piece drop?
    pub has_drops: bool,
    /// The clone generators (`clones`), which need no hand.
    pub clones: Vec<GenId>,
    /// Are pieces placed, from a hand or by cloning?
    pub places: bool,
    /// The game's own generators made before the pieces' moves (the pie rule's swap,
    /// passing), and castling, made last.
    pub opening_moves: Vec<GenId>,
    pub castle_moves: Vec<GenId>,
    /// Piece types that are royal.
    pub royal: u64,
    /// Check is read otherwise than "a royal piece attacked" (`duple-check`, or
    /// `captures-explode` with its kings side by side).
    pub special_check: bool,
    /// Captures explode (`captures-explode`: see `Blast`).
    pub explodes: bool,
    /// Piece types placed on both colours (`both-colours`).
    pub both_colours: u64,
    /// Some moves have a second part (`place`, `move`): the legal moves are expanded
    /// into one per square it may use.
    pub two_part: bool,
    /// Piece types that promote somewhere.
    pub promoting: u64,
    /// Piece types whose generators may produce the same move twice.
    pub overlapping: u64,
    /// Piece types that a `closer-to` condition looks for.
    pub located: u64,
    /// Piece types that some move of theirs turns into another (`then becomes`).
    pub becomes: u64,
    /// Some moves have conditions read on the position they make (`checking`,
    /// `attacking`): the legal-move filter asks them.
    pub after: bool,
}

/// What captures into the hand and drops need (built by [`hands`]).
#[derive(Debug, Clone, Default)]
pub struct Hands {
    /// Per piece type: the type it becomes in the capturer's hand, or [`NO_HAND`].
    pub kind: Vec<u8>,
    /// Piece types whose drops may not checkmate.
    pub no_mate_by_drop: u64,
}

/// What the end rules need while playing (built by [`ends`]).
#[derive(Debug, Clone, Default)]
pub struct Ends {
    /// The end rules that may end the game whatever moves remain (captured, exited,
    /// reached, bare king, passes, facing, pieces left, counters), by their index in `Rules::end_rules`, in
    /// order.
    pub at_once: Vec<usize>,
    /// Per end rule, per side: the squares of a `reached` rule's zone (else empty).
    pub reach_cells: Vec<[Vec<Cell>; 2]>,
    /// The piece type of the game's `facing` rule, if it has one.
    pub facing: Option<PieceKind>,
}

/// The setup position as the rules remember it, to tell which pieces are unmoved
/// and which castling rights a move loses (the castling mask is built by
/// [`castle_mask`]; the rest by `Rules::set_home` once the setup is read).
#[derive(Debug, Clone, Default)]
pub struct Home {
    /// Piece codes of the setup position.
    pub board: Vec<Code>,
    /// How many of each piece code the setup has.
    pub counts: Vec<u16>,
    /// Castling rights and gates lost when a move starts or ends on a cell.
    pub castle_mask: Vec<u32>,
    /// Per side, the bits of its gates among the rights (`gating in ZONE`).
    pub gates: [u32; 2],
    /// Gates go when their player's hand is empty: no piece can come back to a hand.
    pub gates_lapse: bool,
}

/// A piece whose tactical moves are not only captures (see `Landing::capture_reach`).
pub const ANY_REACH: u128 = u128::MAX;

/// Marks a piece type that leaves the game when captured (see `Hands::kind`).
pub const NO_HAND: u8 = u8::MAX;

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
    /// Per `side * kinds + kind`: a base key mixed with the count in hand (see
    /// [`Zobrist::hand_key`]).
    pub hand: Vec<u64>,
    /// Per `side * counters + counter`: a base key mixed with the value (see
    /// [`Zobrist::counter_key`]), so every value hashes apart.
    pub counter: Vec<u64>,
    /// Per `side * kinds + kind` that has left the board.
    pub exited: Vec<u64>,
}

impl Zobrist {
    /// The key of counter slot `slot` holding `value`: exact for every value.
    #[inline]
    pub fn counter_key(&self, slot: usize, value: i64) -> u64 {
        mix(self.counter[slot] ^ value as u64)
    }

    /// The key of hand slot `slot` holding `count` pieces: exact for every count.
    #[inline]
    pub fn hand_key(&self, slot: usize, count: u16) -> u64 {
        mix(self.hand[slot] ^ u64::from(count))
    }
}

/// SplitMix64's finaliser: a bijection that scatters nearby inputs.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }
}

/// Every table of the rules: its parts in the order they read each other.
pub(super) fn build(rules: &Rules) -> Tables {
    let gens = gens(rules);
    let kinds = kinds(rules);
    let mut steps = steps(rules, &gens);
    let attacks = attacks(rules);
    // A second part changes the board besides the move (terrain may shield or unshield
    // a royal piece): moves are always played out.
    let two_part = gens.info.iter().any(|g| g.place != 0);
    let mut legality = legality(&gens, &steps, rules.explosions.is_some() || two_part);
    let landing = landing(rules, &gens, &kinds, &steps);
    // The bit path's landings under the full rules, per piece and square.
    let n = steps.squares;
    for (i, at) in steps.at.iter_mut().enumerate() {
        if !landing.promotes_from[i] {
            at.watch = landing.watch_bits[i / n];
        }
    }
    let targets = targets(rules, &landing);
    let board_attacks =
        attacks.dynamic_kinds == 0 && targets.flip_cells.iter().all(Vec::is_empty) && !two_part;
    legality.on_board = board_attacks && rules.explosions.is_none();
    legality.blast_on_board = board_attacks && rules.explosions.is_some() && !rules.duple_check;
    let blast = blast(rules);
    legality.blast_bits = legality.blast_on_board
        && !blast.around_bits.is_empty()
        && rules.terrains.is_empty()
        && attacks.ray_bits.len() == attacks.rays.len()
        && attacks.conds.len() == 1
        && attacks.rays.iter().all(|r| r.hop == Hop::None);
    legality.check_bits = legality.on_board
        && rules.forbid_check
        // The check squares are kept per kind, for up to 64 kinds.
        && rules.pieces.len() <= 64
        && rules.terrains.is_empty()
        && rules.cell_count() <= 128
        && attacks.ray_bits.len() == attacks.rays.len()
        && !attacks.lame_leaps
        && attacks.conds.len() == 1
        && attacks.rays.iter().all(|r| r.hop == Hop::None);
    let files = files(&rules.geometry);
    Tables {
        gens,
        kinds,
        steps,
        attacks,
        legality,
        landing,
        targets,
        files,
        zobrist: zobrist(rules),
        hands: hands(&rules.pieces, &rules.no_mate_by_drop),
        ends: ends(rules),
        home: Home {
            castle_mask: castle_mask(&rules.castlings, &rules.gates, rules.cell_count()),
            gates: gate_bits(rules),
            gates_lapse: rules.pieces.iter().all(|p| p.to_hand.is_none()),
            ..Home::default()
        },
        blast,
        lines: lines(rules),
    }
}

/// The queen's lines out of each cell, where a conversion encloses.
fn lines(rules: &Rules) -> Lines {
    let encloses = |g: &super::Generator| g.effects.contains(&Effect::Convert(Convert::Enclosed));
    if !rules.generators.iter().any(encloses) {
        return Lines::default();
    }
    let geo = &rules.geometry;
    let mut out = Lines::default();
    for c in 0..geo.len() {
        let mut index = [(0, 0); 8];
        for (slot, &(dx, dy)) in index.iter_mut().zip(&QUEEN_LINES) {
            let start = out.cells.len() as u32;
            let mut cur = Cell::new(c);
            while let Some(next) = geo.offset(cur, dx, dy) {
                out.cells.push(next);
                cur = next;
            }
            *slot = (start, out.cells.len() as u32 - start);
        }
        out.index.push(index);
    }
    out
}

/// The cells around each cell, and the kinds an explosion spares.
fn blast(rules: &Rules) -> Blast {
    let near = |g: &super::Generator| {
        g.source == Source::Clone
            || g.effects.contains(&Effect::Convert(Convert::Adjacent))
            || g.conditions.iter().any(|c| matches!(c, Cond::Converts))
    };
    if rules.explosions.is_none() && !rules.generators.iter().any(near) {
        return Blast::default();
    }
    let geo = &rules.geometry;
    let around: Vec<[Cell; 8]> = (0..geo.len())
        .map(|c| {
            let mut out = [NO_CELL; 8];
            let near = (-1..=1)
                .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
                .filter(|&d| d != (0, 0))
                .filter_map(|(dx, dy)| geo.offset(Cell::new(c), dx, dy));
            for (slot, cell) in out.iter_mut().zip(near) {
                *slot = cell;
            }
            out
        })
        .collect();
    let spared = rules.explosions.iter().flatten();
    let around_bits = if geo.len() <= 128 {
        (around.iter())
            .map(|near: &[Cell; 8]| {
                (near.iter().take_while(|&&c| c != NO_CELL)).fold(0, |m, c| m | 1 << c.index())
            })
            .collect()
    } else {
        Vec::new()
    };
    Blast {
        around,
        around_bits,
        spared: spared.fold(0, |m, k| m | 1 << k.index()),
    }
}

/// Per cell: the castling rights and gates a move starting or ending there loses.
fn castle_mask(castlings: &[Castling], gates: &[(Side, Cell)], cells: usize) -> Vec<u32> {
    let mut mask = vec![0; cells];
    for (i, c) in castlings.iter().enumerate() {
        mask[c.king_from] |= 1 << i;
        mask[c.rook_from] |= 1 << i;
    }
    for (j, &(_, cell)) in gates.iter().enumerate() {
        mask[cell] |= 1 << (castlings.len() + j);
    }
    mask
}

/// Per side, the bits of its gates: they follow the castlings' bits.
fn gate_bits(rules: &Rules) -> [u32; 2] {
    let mut bits = [0; 2];
    for (j, &(side, _)) in rules.gates.iter().enumerate() {
        bits[side] |= 1 << (rules.castlings.len() + j);
    }
    bits
}

/// One [`GenInfo`] per generator, with the conditions and effects they point to.
fn gens(rules: &Rules) -> Gens {
    let mut t = Gens::default();
    for g in &rules.generators {
        // A flight's or drop's conditions on zones are built into its targets: only
        // the others are asked while generating.
        let baked = matches!(
            g.source,
            Source::Flight { .. } | Source::Drop | Source::Clone
        );
        let start = t.conds.len();
        t.conds.extend(
            g.conditions
                .iter()
                .filter(|c| !(baked && is_static(c)))
                .copied(),
        );
        let conds = (start as u16, (t.conds.len() - start) as u16);
        let effects = if g.effects.is_empty() {
            0
        } else {
            t.effects.push(g.effects.clone());
            t.effects.len() as u16
        };
        let piece = g.piece.map(|k| &rules.pieces[k]);
        let place = second_part(rules, g).map_or(0, |p| {
            let i = t
                .placements
                .iter()
                .position(|&q| q == p)
                .unwrap_or_else(|| {
                    t.placements.push(p);
                    t.placements.len() - 1
                });
            (i + 1) as u8
        });
        let mut info = GenInfo {
            source: g.source,
            can_move: false,
            can_capture: false,
            hop: Hop::None,
            initial: false,
            sets_ep: false,
            takes_ep: false,
            stays: false,
            counts: g.effects.iter().any(|e| matches!(e, Effect::Counter(..))),
            plain: false,
            conds,
            effects,
            place,
            piece: g.piece.unwrap_or(0) as u8,
            hand: g.piece.map_or(0, |k| rules.hand_of(k)) as u8,
            becomes: g
                .effects
                .iter()
                .find_map(|e| match *e {
                    Effect::Becomes(k) => Some(k.index() as u8 + 1),
                    _ => None,
                })
                .unwrap_or(0),
            after: g.conditions.iter().any(Cond::is_after),
            converting: g.conditions.iter().any(|c| matches!(c, Cond::Converts)),
        };
        if let Source::Betza(b) = g.source {
            let b = rules.betza(b);
            let en_passant = piece.is_some_and(|p| p.en_passant);
            let passes = b
                .vectors
                .iter()
                .any(|&(x, y)| !betza::lame_path(x, y).is_empty());
            info.can_move = b.can_move;
            info.can_capture = b.can_capture;
            info.hop = b.hop;
            info.initial = b.initial;
            info.sets_ep = en_passant && b.can_move && !b.can_capture && b.lame && passes;
            info.takes_ep = en_passant && b.can_capture && b.hop == Hop::None;
            info.stays = g.effects.contains(&Effect::Stay);
            info.plain = b.hop == Hop::None && g.conditions.is_empty() && g.effects.is_empty();
        }
        t.info.push(info);
    }
    t.tags = move_tags(rules);
    t
}

/// The second part of a generator's moves: its own (`then place ...`), or the one
/// every move has (`on move`), but for passes and the pie rule's swap.
fn second_part(rules: &Rules, g: &crate::rules::Generator) -> Option<Placement> {
    let own = g.effects.iter().find_map(|e| match *e {
        Effect::Place(p) => Some(p),
        _ => None,
    });
    own.or(rules.on_move)
        .filter(|_| !matches!(g.source, Source::Pass | Source::Swap))
}

/// Do two Betza components make some move alike: a step in common, made the same way
/// (moving or capturing, with the same kind of hop)?
pub(crate) fn same_steps(a: &BetzaMove, b: &BetzaMove) -> bool {
    a.hop == b.hop
        && ((a.can_move && b.can_move) || (a.can_capture && b.can_capture))
        && a.vectors.iter().any(|v| b.vectors.contains(v))
}

/// Do two lists of effects do the same, in any order?
pub(crate) fn same_effects(a: &[Effect], b: &[Effect]) -> bool {
    a.len() == b.len() && a.iter().all(|e| b.contains(e))
}

/// Per generator, the suffix its move texts carry: where two Betza generators of one
/// piece make a move with the same squares but different effects (`moves "W"` beside
/// `moves "cW" then height +1`, or knight moves that leave different pieces behind),
/// each names its effects (`h+1`, the letter of the piece left, `NAME+1` for a
/// counter), so that every move has a text of its own. Empty for the others, and for
/// a generator without effects (its moves keep the plain text).
fn move_tags(rules: &Rules) -> Vec<String> {
    let mut tags = vec![String::new(); rules.generators.len()];
    for kind in 0..rules.pieces.len() {
        let betza: Vec<(GenId, &BetzaMove, &[Effect])> = rules
            .moves_of(PieceKind::new(kind))
            .filter_map(|(id, g)| match g.source {
                Source::Betza(b) => Some((id, rules.betza(b), &g.effects[..])),
                _ => None,
            })
            .collect();
        for (i, &(id, a, fa)) in betza.iter().enumerate() {
            let collides = betza
                .iter()
                .enumerate()
                .any(|(j, &(_, b, fb))| i != j && same_steps(a, b) && !same_effects(fa, fb));
            if collides {
                tags[id.index()] = effects_tag(rules, fa);
            }
        }
    }
    tags
}

/// The suffix that names a move's effects: `B` (a piece of that letter left behind),
/// `h+1` (the height changes), `NAME-1` (a counter changes), joined by `,`.
fn effects_tag(rules: &Rules, effects: &[Effect]) -> String {
    let mut parts: Vec<String> = effects
        .iter()
        .filter_map(|e| match *e {
            Effect::Leave(k) => Some(rules.code_symbol(code(k.index(), Side::First))),
            Effect::Height(n) => Some(format!("h{n:+}")),
            Effect::Counter(c, n) => Some(format!("{}{n:+}", rules.counters[c.index()])),
            Effect::Convert(Convert::Enclosed) => Some("ce".into()),
            Effect::Convert(Convert::Adjacent) => Some("ca".into()),
            // A second part's square is written after the move (`d1d4,d4g7`).
            Effect::Stay | Effect::Place(_) => None,
            // Written as a promotion, with the new piece's letter.
            Effect::Becomes(_) => None,
        })
        .collect();
    parts.sort();
    parts.join(",")
}

/// Per piece type: its extra and drop generators, and the masks the engine tests.
fn kinds(rules: &Rules) -> Kinds {
    let mut t = Kinds {
        drops: vec![Vec::new(); rules.pieces.len()],
        ..Kinds::default()
    };
    for (kind, p) in rules.pieces.iter().enumerate() {
        let bit = 1u64 << kind;
        let mut seen = Vec::new();
        let mut extras = Vec::new();
        let (mut flights, mut in_place) = (0, 0);
        for (id, g) in rules.moves_of(PieceKind::new(kind)) {
            match &g.source {
                Source::Betza(b) => {
                    for v in &rules.betza(*b).vectors {
                        if seen.contains(v) {
                            t.overlapping |= bit;
                        }
                        seen.push(*v);
                    }
                }
                Source::Drop => {
                    t.drops[rules.hand_of(kind)].push(id);
                    t.has_drops = true;
                    t.places = true;
                }
                Source::Clone => {
                    t.clones.push(id);
                    t.places = true;
                }
                Source::Flight { .. } => {
                    flights += 1;
                    if flights > 1 {
                        t.overlapping |= bit;
                    }
                    extras.push(id);
                }
                // Two in-place lines whose conditions both hold make one move.
                Source::InPlace => {
                    in_place += 1;
                    if in_place > 1 {
                        t.overlapping |= bit;
                    }
                    extras.push(id);
                }
                _ => extras.push(id),
            }
            for cond in &g.conditions {
                if let Cond::CloserTo { kind: k, .. } = cond {
                    t.located |= 1 << k.index();
                }
                t.after |= cond.is_after();
            }
            if g.effects.iter().any(|e| matches!(e, Effect::Becomes(_))) {
                t.becomes |= bit;
            }
        }
        if !extras.is_empty() {
            t.with_extras |= bit;
        }
        t.extras.push(extras);
        if p.royal {
            t.royal |= bit;
        }
        if !p.promotions.is_empty() {
            t.promoting |= bit;
        }
    }
    for &id in &rules.game_moves {
        match rules.generators[id].source {
            Source::Castle { .. } => t.castle_moves.push(id),
            _ => t.opening_moves.push(id),
        }
    }
    t.special_check = rules.duple_check || rules.explosions.is_some();
    t.explodes = rules.explosions.is_some();
    t.both_colours = (rules.pieces.iter().enumerate())
        .filter(|(_, p)| p.both_colours)
        .fold(0, |m, (k, _)| m | 1 << k);
    t.two_part = rules.on_move.is_some()
        || rules
            .generators
            .iter()
            .any(|g| g.effects.iter().any(|e| matches!(e, Effect::Place(_))));
    t
}

/// Does a condition depend only on the board's geometry (a zone), not on the state?
fn is_static(cond: &Cond) -> bool {
    matches!(cond, Cond::From(_) | Cond::To(_) | Cond::Player(_))
}

/// Is `cond` one the reverse attack tables can tell from the board: the squares, the
/// player, the piece jumped and the piece taken?
fn is_board_only(cond: &Cond) -> bool {
    is_static(cond) || matches!(cond, Cond::Over { .. } | Cond::Captures { .. })
}

/// What a capture of `b` under `conditions` (all [`is_board_only`]) asks of the piece
/// jumped and the piece taken; `None` if it can never capture (it must jump a piece
/// without hopping: a move that hops nothing jumps nothing).
fn board_condition(b: &BetzaMove, conditions: &[Cond]) -> Option<AttackCond> {
    let mut cond = AttackCond::NONE;
    for c in conditions {
        match *c {
            Cond::Over { yes: true, .. } if b.hop == Hop::None => return None,
            Cond::Over { .. } if b.hop == Hop::None => {}
            Cond::Over { kind, yes } => {
                let bit = 1u64 << kind.index();
                cond.screens &= if yes { bit } else { !bit };
            }
            Cond::Captures { kind, yes } => {
                let bit = 1u64 << kind.index();
                cond.victims &= if yes { bit } else { !bit };
                cond.empty &= !yes;
            }
            _ => {}
        }
    }
    Some(cond)
}

/// The index of `cond` in `conds`, added if new (index 0 is [`AttackCond::NONE`]).
fn intern(conds: &mut Vec<AttackCond>, cond: AttackCond) -> usize {
    if conds.is_empty() {
        conds.push(AttackCond::NONE);
    }
    conds.iter().position(|&c| c == cond).unwrap_or_else(|| {
        conds.push(cond);
        conds.len() - 1
    })
}

/// The leaps and rays of every Betza generator of every piece, side and square, each
/// marked plain where the short path may take it (and plain leaps merged).
fn steps(rules: &Rules, gens: &Gens) -> Steps {
    let n = rules.cell_count();
    let ncodes = 1 + 2 * rules.pieces.len();
    let mut t = Steps {
        squares: n,
        index: vec![(0, 0); ncodes * n],
        plain_index: vec![(0, 0); ncodes * n],
        ..Steps::default()
    };
    // The steps of one piece on one square as the generator walks them: less those
    // that can never move, each line cut after its last square its conditions allow.
    let mut trimmed = Vec::new();
    for kind in 0..rules.pieces.len() {
        // A piece without conditions has nothing to trim: its steps are read where
        // they are, not copied (a copy cost chess's start 0.2 M instructions).
        let conditional =
            (rules.moves_of(PieceKind::new(kind))).any(|(_, g)| !g.conditions.is_empty());
        for side in Side::BOTH {
            let code = code(kind, side) as usize;
            for from in rules.geometry.board_cells(0).map(Cell::new) {
                let start = t.list.len() as u32;
                trimmed.clear();
                for (id, g) in rules.moves_of(PieceKind::new(kind)) {
                    if let Source::Betza(b) = &g.source {
                        let first = t.list.len();
                        betza_steps(rules, &mut t, side, from, id, rules.betza(*b));
                        let bare = b_is_bare(rules.betza(*b), g);
                        for i in first..t.list.len() {
                            let step = t.list[i];
                            // Most generators have no conditions: no call then.
                            t.list[i].plain = bare
                                && (g.conditions.is_empty()
                                    || conditions_always_hold(rules, &t, &step, side, from, g));
                        }
                        if conditional {
                            let o = Origin { kind, side, from };
                            trim_steps(rules, &t, first, o, g, bare, &mut trimmed);
                        }
                    }
                }
                t.index[code * n + from.index()] = (start, t.list.len() as u32 - start);
                let plain_start = t.plain.len() as u32;
                if conditional {
                    merge_plain_leaps(&mut t, &trimmed);
                } else {
                    let list = std::mem::take(&mut t.list);
                    merge_plain_leaps(&mut t, &list[start as usize..]);
                    t.list = list;
                }
                t.plain_index[code * n + from.index()] =
                    (plain_start, t.plain.len() as u32 - plain_start);
            }
        }
    }
    // The bit path reads the board as bits, which terrain rules out.
    if n <= 128 && rules.terrains.is_empty() {
        t.bits = (t.plain.iter()).map(|s| bit_step(&t, gens, s)).collect();
        t.at = (t.plain_index.iter())
            .map(|&(start, len)| {
                let range = start as usize..(start + len) as usize;
                let steps = &t.plain[range.clone()];
                let by_bits = steps.iter().zip(&t.bits[range]).all(|(s, b)| {
                    s.plain
                        && if s.rider {
                            b.flags & BitStep::RIDER != 0
                        } else {
                            s.leaps || s.len == 1
                        }
                });
                // Every target of merged leaps; the first square of a line.
                let first = |s: &Step| if s.leaps { s.len as usize } else { 1 };
                let near = if steps.iter().all(|s| s.plain) {
                    (steps.iter())
                        .flat_map(|s| &t.line(s)[..first(s)])
                        .fold(0, |near, c| near | 1 << c.index())
                } else {
                    u128::MAX
                };
                BitSquare {
                    near,
                    watch: u128::MAX,
                    start,
                    len,
                    by_bits,
                }
            })
            .collect();
    }
    t
}

/// A plain step's [`BitStep`]. A line whose squares do not run in one order of their
/// indices gets no `RIDER` flag (the piece then keeps the walk).
fn bit_step(t: &Steps, gens: &Gens, s: &Step) -> BitStep {
    let bits = |cells: &[Cell]| cells.iter().fold(0, |bits, c| bits | 1 << c.index());
    let line = t.line(s);
    let info = &gens[s.generator];
    let flag = |yes: bool, f: u8| if yes { f } else { 0 };
    let up = line.windows(2).all(|w| w[0] < w[1]);
    let down = line.windows(2).all(|w| w[0] > w[1]);
    let direction = if !s.rider {
        0
    } else if up {
        BitStep::RIDER
    } else if down {
        BitStep::RIDER | BitStep::DOWN
    } else {
        0
    };
    BitStep {
        cells: bits(line),
        path: if s.rider { 0 } else { bits(t.path(s)) },
        generator: s.generator,
        flags: direction
            | flag(s.path_len > 0 && !s.rider, BitStep::PATH)
            | flag(info.can_move, BitStep::MOVES)
            | flag(info.can_capture, BitStep::CAPTURES)
            | flag(info.takes_ep, BitStep::TAKES_EP)
            | flag(info.sets_ep && s.path_len > 0, BitStep::DOUBLE)
            | flag(info.initial, BitStep::INITIAL),
    }
}

/// Has a Betza generator no hop and no effect but conversions (its conditions
/// aside)? Conversions are made by make alone (the move generator reads them only
/// for the `converts` condition, which no plain step has), so they leave a step plain.
fn b_is_bare(b: &BetzaMove, g: &super::Generator) -> bool {
    b.hop == Hop::None && (g.effects.iter()).all(|e| matches!(e, Effect::Convert(_)))
}

/// A condition on the squares or the player, read for a move of `side` from `from`
/// to `to`; `None` for the conditions the position decides.
fn on_squares(rules: &Rules, c: &Cond, side: Side, from: Cell, to: Cell) -> Option<bool> {
    match *c {
        Cond::From(z) => Some(rules.zone_contains(z, side, from)),
        Cond::Player(s) => Some(s == side),
        Cond::To(z) => Some(rules.zone_contains(z, side, to)),
        _ => None,
    }
}

/// Do the conditions of `g` hold for every move of `step` (whose line is never
/// empty), from `from` for `side`: all of them on the squares and the player
/// ([`is_static`]), true on every target of the step?
fn conditions_always_hold(
    rules: &Rules,
    t: &Steps,
    step: &Step,
    side: Side,
    from: Cell,
    g: &super::Generator,
) -> bool {
    let line = t.line(step);
    g.conditions
        .iter()
        .all(|c| (line.iter()).all(|&to| on_squares(rules, c, side, from, to) == Some(true)))
}

/// The steps of `g` from `first` on (of `o`'s piece, side and square), trimmed
/// ([`trim`]) onto `out`. Apart from the loop that builds every piece's steps, whose
/// registers it would crowd (0.25 M instructions more at shogi's start).
#[inline(never)]
fn trim_steps(
    rules: &Rules,
    t: &Steps,
    first: usize,
    o: Origin,
    g: &super::Generator,
    bare: bool,
    out: &mut Vec<Step>,
) {
    let (side, from) = (o.side, o.from);
    for step in &t.list[first..] {
        if g.conditions.is_empty() {
            out.push(*step);
        } else if let Some(mut cut) = trim(rules, t, step, side, from, g) {
            cut.plain = bare && conditions_always_hold(rules, t, &cut, side, from, g);
            out.push(cut);
        }
    }
}

/// `step` as the move generator walks it from `from` for `side`: `None` where a
/// condition on the squares or the player fails for every move of it (another
/// square's `from` zone, the other player, no target in a `to` zone), else the line
/// cut after its last target inside every `to` zone (a palace's diagonal, leaving
/// it), as no move may end past that. The conditions are all required, so one that
/// never holds rules out the step; the squares past the cut are never landed on, and
/// what blocks or screens before them stays.
fn trim(
    rules: &Rules,
    t: &Steps,
    step: &Step,
    side: Side,
    from: Cell,
    g: &super::Generator,
) -> Option<Step> {
    // A move to `to` is possible unless a condition on the squares rules it out.
    let allowed = |to: Cell| {
        (g.conditions.iter()).all(|c| on_squares(rules, c, side, from, to) != Some(false))
    };
    let last = t.line(step).iter().rposition(|&to| allowed(to))?;
    Some(Step {
        len: (last + 1) as u16,
        ..*step
    })
}

/// Copies `steps` (of one piece on one square) to `Steps::plain`, merging each run
/// of plain leaps (no path to cross) of one generator into one step: the short path
/// then walks one step per generator, with the moves in the same order.
fn merge_plain_leaps(t: &mut Steps, steps: &[Step]) {
    let end = steps.len();
    let mut i = 0;
    while i < end {
        let id = steps[i].generator;
        let run_end = (i..end).find(|&j| steps[j].generator != id).unwrap_or(end);
        let run = &steps[i..run_end];
        let leaps_only = run.iter().all(|s| !s.rider && s.path_len == 0 && s.plain);
        if leaps_only && run.len() > 1 {
            let first = t.cells.len() as u32;
            for s in run {
                let target = t.cells[s.first as usize];
                t.cells.push(target);
            }
            t.plain.push(Step {
                generator: id,
                rider: false,
                leaps: true,
                plain: true,
                first,
                len: (run_end - i) as u16,
                path_first: first,
                path_len: 0,
            });
        } else {
            t.plain.extend_from_slice(run);
        }
        i = run_end;
    }
}

/// A vector of a Betza move as a piece of `side` makes it (the second player's
/// pieces move mirrored), and how far along it the move goes.
fn oriented(b: &BetzaMove, side: Side, (vx, vy): (i8, i8)) -> ((i32, i32), usize) {
    let flip = if side.is_first() { 1 } else { -1 };
    let max = if b.rider && b.max_steps == 0 {
        usize::MAX
    } else {
        b.max_steps as usize
    };
    ((i32::from(vx) * flip, i32::from(vy) * flip), max)
}

/// The squares a lame leap along `(vx, vy)` crosses, for a piece of `side` on `from`.
fn lame_cells(rules: &Rules, side: Side, from: Cell, (vx, vy): (i8, i8)) -> Vec<Cell> {
    let flip = if side.is_first() { 1 } else { -1 };
    betza::lame_path(vx, vy)
        .into_iter()
        .map(|(px, py)| {
            rules
                .geometry
                .offset(from, i32::from(px) * flip, i32::from(py) * flip)
                .expect("a lame path lies inside the leap, on the board")
        })
        .collect()
}

/// The steps of one Betza generator from one square.
fn betza_steps(rules: &Rules, t: &mut Steps, side: Side, from: Cell, id: GenId, b: &BetzaMove) {
    let geo = &rules.geometry;
    for &v in &b.vectors {
        let ((dx, dy), max) = oriented(b, side, v);
        let first = t.cells.len() as u32;
        let mut cur = from;
        let mut len = 0;
        while len < max {
            let Some(next) = geo.offset(cur, dx, dy) else {
                break;
            };
            t.cells.push(next);
            cur = next;
            len += 1;
        }
        if len == 0 {
            continue;
        }
        let path_first = t.cells.len() as u32;
        let mut path_len = 0;
        if b.lame {
            for cell in lame_cells(rules, side, from, v) {
                t.cells.push(cell);
                path_len += 1;
            }
        }
        t.list.push(Step {
            generator: id,
            rider: b.rider,
            leaps: false,
            plain: false,
            first,
            len: len as u16,
            path_first,
            path_len,
        });
    }
}

/// A piece on a square, as the tables are built for it.
#[derive(Clone, Copy)]
struct Origin {
    kind: usize,
    side: Side,
    from: Cell,
}

/// The reverse attack tables, from the captures of every Betza generator of every
/// piece, side and square.
fn attacks(rules: &Rules) -> Attacks {
    let n = rules.cell_count();
    let mut t = Attacks {
        conds: vec![AttackCond::NONE],
        ..Attacks::default()
    };
    let mut rev = Reverse {
        leaps: [vec![Vec::new(); n], vec![Vec::new(); n]],
        rays: [vec![Vec::new(); n], vec![Vec::new(); n]],
    };
    for kind in 0..rules.pieces.len() {
        for side in Side::BOTH {
            for from in rules.geometry.board_cells(0).map(Cell::new) {
                for (_, g) in rules.moves_of(PieceKind::new(kind)) {
                    if let Source::Betza(b) = &g.source {
                        let origin = Origin { kind, side, from };
                        let b = rules.betza(*b);
                        rev.add_captures(rules, &mut t, origin, b, &g.conditions);
                    }
                }
            }
        }
    }
    rev.store(rules, &mut t);
    t
}

/// Reverse attack entries being collected per attacker side and target cell.
struct Reverse {
    leaps: [Vec<Vec<LeapAttack>>; 2],
    rays: [Vec<Vec<RayEntry>>; 2],
}

impl Reverse {
    /// The captures of one Betza generator from one square.
    fn add_captures(
        &mut self,
        rules: &Rules,
        t: &mut Attacks,
        o: Origin,
        b: &BetzaMove,
        conditions: &[Cond],
    ) {
        if !b.can_capture {
            return;
        }
        // Captures that hang on the position's state (a height, a counter, a first
        // move) are asked of the piece.
        if b.initial || conditions.iter().any(|c| !is_board_only(c)) {
            t.dynamic_kinds |= 1 << o.kind;
            return;
        }
        let Some(cond) = board_condition(b, conditions) else {
            return; // it never captures (`over` a piece, without a hop)
        };
        let rider_from = b.rider && conditions.iter().any(|c| matches!(c, Cond::From(_)));
        for &v in &b.vectors {
            let ((dx, dy), max) = oriented(b, o.side, v);
            // A vector that leaves the board at once makes no step.
            if rules.geometry.offset(o.from, dx, dy).is_none() || max == 0 {
                continue;
            }
            let allowed = |cell: Cell| {
                conditions.iter().all(|c| match *c {
                    Cond::From(z) => rules.zone_contains(z, o.side, o.from),
                    Cond::To(z) => rules.zone_contains(z, o.side, cell),
                    Cond::Player(s) => s == o.side,
                    _ => true,
                })
            };
            if b.rider {
                if !self.add_ray(rules, o, (dx, dy), b, (cond, rider_from), allowed) {
                    t.dynamic_kinds |= 1 << o.kind;
                }
            } else if let Some(to) = rules.geometry.offset(o.from, dx, dy)
                && allowed(to)
            {
                let path = if b.lame {
                    lame_cells(rules, o.side, o.from, v)
                } else {
                    Vec::new()
                };
                if !self.add_leap(t, o, to, &path, cond) {
                    t.dynamic_kinds |= 1 << o.kind;
                }
            }
        }
    }

    /// Indexes a rider's line by each square it may capture on; where its captures
    /// depend on the square it starts from (`rider_from`), by the attacker's place on
    /// the line. False when that place is too far to be told (then the piece is
    /// asked directly).
    fn add_ray(
        &mut self,
        rules: &Rules,
        o: Origin,
        (dx, dy): (i32, i32),
        b: &BetzaMove,
        (cond, rider_from): (AttackCond, bool),
        allowed: impl Fn(Cell) -> bool,
    ) -> bool {
        let max = if b.max_steps == 0 {
            u16::MAX
        } else {
            u16::from(b.max_steps)
        };
        let mut cur = o.from;
        let mut k = 0u16;
        let mut told = true;
        while let Some(next) = rules.geometry.offset(cur, dx, dy) {
            k += 1;
            if b.hop == Hop::None && k > max {
                break;
            }
            cur = next;
            if !allowed(next) {
                continue;
            }
            let mut entry = RayEntry {
                dx: -dx,
                dy: -dy,
                max,
                hop: b.hop,
                cond,
                solo: None,
                kinds: 1 << o.kind,
            };
            if rider_from {
                // The attacker stands k squares out, at line square k - 1.
                if k > 63 {
                    told = false;
                    continue;
                }
                entry.cond.at = 1 << (k - 1);
                entry.solo = Some(o.kind);
            }
            let list = &mut self.rays[o.side][next];
            let same = |e: &&mut RayEntry| {
                (e.dx, e.dy, e.max, e.hop, e.solo) == (entry.dx, entry.dy, max, b.hop, entry.solo)
                    && AttackCond { at: 0, ..e.cond }
                        == AttackCond {
                            at: 0,
                            ..entry.cond
                        }
            };
            match list.iter_mut().find(same) {
                Some(e) => {
                    e.kinds |= entry.kinds;
                    e.cond.at |= entry.cond.at;
                }
                None => list.push(entry),
            }
        }
        told
    }

    /// Indexes a leap by the square it captures on (its lame path, if any, into
    /// `Attacks::cells`). False if its path or condition does not fit in a byte (then
    /// the piece is asked directly).
    fn add_leap(
        &mut self,
        t: &mut Attacks,
        o: Origin,
        to: Cell,
        path: &[Cell],
        cond: AttackCond,
    ) -> bool {
        let list = &mut self.leaps[o.side][to];
        let (Ok(cond_id), Ok(path_len)) = (
            u8::try_from(intern(&mut t.conds, cond)),
            u8::try_from(path.len()),
        ) else {
            return false;
        };
        let existing = list
            .iter_mut()
            .find(|e| e.from == o.from && e.path_len == 0 && path.is_empty() && e.cond == cond_id);
        match existing {
            Some(e) => e.kinds |= 1 << o.kind,
            None => {
                let path_first = t.cells.len() as u32;
                t.cells.extend_from_slice(path);
                list.push(LeapAttack {
                    from: o.from,
                    cond: cond_id,
                    path_len,
                    path_first,
                    kinds: 1 << o.kind,
                });
            }
        }
        true
    }

    /// Flattens the collected entries into the tables.
    fn store(self, rules: &Rules, t: &mut Attacks) {
        let n = rules.cell_count();
        for side in Side::BOTH {
            t.leap_index[side] = Vec::with_capacity(n);
            t.ray_index[side] = Vec::with_capacity(n);
            for target in 0..n {
                let s = t.leaps.len() as u32;
                t.leaps.extend(self.leaps[side][target].iter().copied());
                t.leap_index[side].push((s, t.leaps.len() as u32 - s));
                let s = t.rays.len() as u32;
                for e in &self.rays[side][target] {
                    let first = t.cells.len() as u32;
                    let mut cur = Cell::new(target);
                    while let Some(next) = rules.geometry.offset(cur, e.dx, e.dy) {
                        t.cells.push(next);
                        cur = next;
                    }
                    let len = (t.cells.len() as u32 - first) as u16;
                    t.rays.push(RayAttack {
                        kinds: e.kinds,
                        first,
                        len,
                        max: e.max,
                        cond: intern(&mut t.conds, e.cond) as u32,
                        hop: e.hop,
                    });
                }
                t.ray_index[side].push((s, t.rays.len() as u32 - s));
            }
        }
        if n <= 128 {
            let bits = |cells: &[Cell]| cells.iter().fold(0u128, |m, c| m | 1 << c.index());
            t.ray_cells = t.rays.iter().map(|r| bits(t.line(r))).collect();
            t.leap_cells = t.leaps.iter().map(|a| bits(t.path(a))).collect();
            t.lame_leaps = t.leaps.iter().any(|a| a.path_len != 0);
            // Only the explosion test and `forbid check`'s read them
            // (`Legality::blast_bits`, `Legality::check_bits`).
            if rules.explosions.is_some() || rules.forbid_check {
                t.ray_bits = ray_bits(t);
            }
            for side in 0..2 {
                t.reach[side] = (0..n)
                    .map(|target| {
                        let (s, len) = t.leap_index[side][target];
                        let leaps = (s as usize..(s + len) as usize)
                            .fold(0, |m, i| m | t.leap_cells[i] | 1 << t.leaps[i].from.index());
                        let (s, len) = t.ray_index[side][target];
                        (s as usize..(s + len) as usize).fold(leaps, |m, i| m | t.ray_cells[i])
                    })
                    .collect();
            }
            attack_squares(t, n, rules.pieces.len());
        }
    }
}

/// `Attacks::ray_bits`: every ray read as bits, or none when some line does not run
/// through square indices in one order (its first piece is then no end bit).
fn ray_bits(t: &Attacks) -> Vec<RayBits> {
    let bits = |cells: &[Cell]| cells.iter().fold(0u128, |m, c| m | 1 << c.index());
    let mut out = Vec::with_capacity(t.rays.len());
    for r in &t.rays {
        let line = t.line(r);
        let rising = line.windows(2).all(|w| w[0] < w[1]);
        if !rising && !line.windows(2).all(|w| w[0] > w[1]) {
            return Vec::new();
        }
        out.push(RayBits {
            line: bits(line),
            reach: bits(&line[..line.len().min(usize::from(r.max))]),
            kinds: r.kinds,
            rising,
        });
    }
    out
}

/// Calls `f` with each kind of the mask `kinds`.
fn for_each_kind(mut kinds: u64, mut f: impl FnMut(usize)) {
    while kinds != 0 {
        f(kinds.trailing_zeros() as usize);
        kinds &= kinds - 1;
    }
}

/// `Attacks::uncover`, `screens` and `direct`, from the entries' squares as bits.
fn attack_squares(t: &mut Attacks, n: usize, kinds: usize) {
    for side in 0..2 {
        t.uncover[side] = vec![0; n];
        t.screens[side] = vec![0; n];
        t.direct[side] = vec![0; n * kinds];
        for target in 0..n {
            let (s, len) = t.leap_index[side][target];
            for i in s as usize..(s + len) as usize {
                t.uncover[side][target] |= t.leap_cells[i];
                let a = &t.leaps[i];
                for_each_kind(a.kinds, |kind| {
                    t.direct[side][target * kinds + kind] |= 1 << a.from.index();
                });
            }
            let (s, len) = t.ray_index[side][target];
            for i in s as usize..(s + len) as usize {
                let (r, cells) = (&t.rays[i], t.ray_cells[i]);
                t.uncover[side][target] |= cells;
                if r.hop != Hop::None {
                    t.screens[side][target] |= cells;
                }
                for_each_kind(r.kinds, |kind| {
                    t.direct[side][target * kinds + kind] |= cells;
                });
            }
        }
    }
}

/// Squares between a target and its attackers, for the legality fast path.
fn legality(gens: &Gens, steps: &Steps, explosions: bool) -> Legality {
    let n = steps.squares;
    let mut between = vec![0u64; (n * n).div_ceil(64)];
    let mut hoppers = false;
    for step in &steps.list {
        let info = &gens[step.generator];
        if !info.can_capture {
            continue;
        }
        hoppers |= info.hop != Hop::None;
        let line = steps.line(step);
        let path = steps.path(step);
        for (j, &target) in line.iter().enumerate() {
            for &b in line[..j].iter().chain(path) {
                let bit = target.index() * n + b.index();
                between[bit / 64] |= 1 << (bit % 64);
            }
        }
    }
    let flips = gens
        .info
        .iter()
        .any(|g| matches!(g.source, Source::Flip { .. }));
    Legality {
        between,
        fast: !hoppers && !flips && !explosions,
        on_board: false,
        blast_on_board: false,
        blast_bits: false,
        check_bits: false,
    }
}

/// What captured pieces become in the capturer's hand, and which drops may not mate.
fn hands(pieces: &[Piece], no_mate_by_drop: &[PieceKind]) -> Hands {
    Hands {
        kind: pieces
            .iter()
            .map(|p| p.to_hand.map_or(NO_HAND, PieceKind::raw))
            .collect(),
        no_mate_by_drop: no_mate_by_drop.iter().fold(0, |m, k| m | 1 << k.index()),
    }
}

/// What the end rules that end a game at once need.
fn ends(rules: &Rules) -> Ends {
    let at_once = (rules.end_rules.iter().enumerate())
        .filter(|(_, r)| {
            matches!(
                r,
                EndRule::Captured(..)
                    | EndRule::Exited(..)
                    | EndRule::Reached { .. }
                    | EndRule::BareKing(_)
                    | EndRule::Passes(..)
                    | EndRule::Facing(..)
                    | EndRule::PiecesLeft { .. }
                    | EndRule::Counter(..)
                    | EndRule::BoardFull(_)
            )
        })
        .map(|(i, _)| i)
        .collect();
    let facing = rules.end_rules.iter().find_map(|r| match *r {
        EndRule::Facing(kind, _) => Some(kind),
        _ => None,
    });
    let reach_cells = rules
        .end_rules
        .iter()
        .map(|r| match *r {
            EndRule::Reached { zone, .. } => [0, 1].map(|side| {
                (0..rules.cell_count())
                    .filter(|&c| rules.zone(zone).cells[side][c])
                    .map(Cell::new)
                    .collect()
            }),
            _ => [Vec::new(), Vec::new()],
        })
        .collect();
    Ends {
        at_once,
        reach_cells,
        facing,
    }
}

/// Dead squares (under `forbid dead-squares`), the squares where a piece's moves may
/// promote, and where enemy pieces give it captures.
fn landing(rules: &Rules, gens: &Gens, kinds: &Kinds, steps: &Steps) -> Landing {
    let n = rules.cell_count();
    let ncodes = 1 + 2 * rules.pieces.len();
    let mut t = Landing {
        squares: n,
        ..Landing::default()
    };
    if rules.forbid_dead_squares {
        t.dead = vec![false; ncodes * n];
        for kind in 0..rules.pieces.len() {
            for side in Side::BOTH {
                let c = code(kind, side) as usize;
                let alive: Vec<bool> = (0..n)
                    .map(|cell| moves_from(rules, steps, kind, side, cell))
                    .collect();
                // A piece that never moves is not stranded anywhere.
                if alive.iter().any(|&a| a) {
                    for (dead, alive) in t.dead[c * n..(c + 1) * n].iter_mut().zip(alive) {
                        *dead = !alive;
                    }
                }
            }
        }
    }
    t.promotes_from = vec![false; ncodes * n];
    t.watch = vec![false; ncodes * n];
    for (kind, p) in rules.pieces.iter().enumerate() {
        for side in Side::BOTH {
            let c = code(kind, side) as usize;
            for cell in 0..n {
                let in_zone = |pr: &crate::model::Promotion| rules.zone(pr.zone).cells[side][cell];
                t.promotes_from[c * n + cell] =
                    p.promotions.iter().any(|pr| pr.applies(in_zone(pr), false));
                t.watch[c * n + cell] = t.is_dead(c as Code, Cell::new(cell))
                    || p.promotions.iter().any(|pr| pr.applies(false, in_zone(pr)));
            }
        }
    }
    t.capture_reach = capture_reach(rules, gens, kinds, steps, &t);
    if n <= 128 {
        t.watch_bits = (0..ncodes)
            .map(|c| {
                (0..n)
                    .filter(|&cell| t.watch[c * n + cell])
                    .fold(0, |b, cell| b | 1 << cell)
            })
            .collect();
    }
    t
}

/// Where an enemy piece gives a piece a capture, per piece and square (see
/// `Landing::capture_reach`): the landing squares of its capturing steps, which are
/// where its captures take (a move's victim stands where it lands).
fn capture_reach(
    rules: &Rules,
    gens: &Gens,
    kinds: &Kinds,
    steps: &Steps,
    landing: &Landing,
) -> Vec<u128> {
    let n = rules.cell_count();
    if n > 128 {
        return Vec::new();
    }
    let ncodes = 1 + 2 * rules.pieces.len();
    let mut reach = vec![ANY_REACH; ncodes * n];
    for kind in 0..rules.pieces.len() {
        if (kinds.with_extras | kinds.becomes) >> kind & 1 != 0 {
            continue;
        }
        for side in Side::BOTH {
            let c = code(kind, side);
            let ci = c as usize;
            for from in 0..n {
                let from_steps = steps.of(c, Cell::new(from));
                if landing.promotes_from[ci * n + from]
                    || from_steps
                        .iter()
                        .flat_map(|s| steps.line(s))
                        .any(|&to| landing.watch[ci * n + to.index()])
                {
                    continue;
                }
                reach[ci * n + from] = from_steps
                    .iter()
                    .filter(|s| gens[s.generator].can_capture)
                    .flat_map(|s| steps.line(s))
                    .fold(0, |reach, &to| reach | 1 << to.index());
            }
        }
    }
    reach
}

/// May a piece of `kind` and `side` ever move from `cell`, by the board's geometry
/// (a leap or line that stays on the board, a flight, exit or flip from there)?
fn moves_from(rules: &Rules, steps: &Steps, kind: usize, side: Side, cell: usize) -> bool {
    let zones_allow = |conditions: &[Cond]| {
        conditions.iter().all(|c| match *c {
            Cond::From(z) => rules.zone(z).cells[side][cell],
            Cond::Player(s) => s == side,
            _ => true,
        })
    };
    if steps
        .of(code(kind, side), Cell::new(cell))
        .iter()
        .any(|s| s.len > 0 && zones_allow(&rules.generators[s.generator].conditions))
    {
        return true;
    }
    rules.moves_of(PieceKind::new(kind)).any(|(_, g)| {
        matches!(
            g.source,
            Source::Flight { .. } | Source::Exit | Source::Flip { .. }
        ) && zones_allow(&g.conditions)
    })
}

/// The squares of each cell's file, for conditions on files.
fn files(geo: &Geometry) -> Files {
    let mut t = Files::default();
    for cell in 0..geo.len() {
        let info = &geo.cells[cell];
        let start = t.cells.len() as u32;
        for rank in 0..geo.boards[info.board].ranks {
            t.cells.push(
                geo.cell_at(info.board, info.file as i32, rank as i32)
                    .unwrap(),
            );
        }
        t.index.push((start, (t.cells.len() as u32 - start) as u16));
    }
    t
}

/// The targets of flights (per side and origin) and drops (per side), and the squares
/// flips start from: the cells their conditions on zones allow.
fn targets(rules: &Rules, landing: &Landing) -> Targets {
    let n = rules.cell_count();
    let mut t = Targets {
        squares: n,
        first: vec![(0, false); rules.generators.len()],
        ..Targets::default()
    };
    let geo = &rules.geometry;
    type FlightKey<'a> = (ZoneId, bool, &'a Vec<Cond>);
    let mut flights: Vec<(FlightKey, u32)> = Vec::new();
    for (id, g) in rules.generators.iter().enumerate() {
        let zones_allow = |side: Side, from: Option<usize>, to: Option<usize>| {
            g.conditions.iter().all(|c| match *c {
                Cond::From(z) => from.is_some_and(|f| rules.zone(z).cells[side][f]),
                Cond::To(z) => to.is_some_and(|c| rules.zone(z).cells[side][c]),
                Cond::Player(s) => s == side,
                _ => true,
            })
        };
        match g.source {
            Source::Flight { to, same_colour } => {
                // Fliers of several kinds share one table per flight.
                let key = (to, same_colour, &g.conditions);
                if let Some(&(_, offset)) = flights.iter().find(|(k, _)| *k == key) {
                    t.first[id] = (offset, true);
                    continue;
                }
                let offset = t.index.len() as u32;
                flights.push((key, offset));
                t.first[id] = (offset, true);
                for side in Side::BOTH {
                    for from in 0..n {
                        let start = t.cells.len() as u32;
                        for target in 0..n {
                            let colour_ok =
                                !same_colour || geo.cells[target].dark == geo.cells[from].dark;
                            if rules.zone(to).cells[side][target]
                                && target != from
                                && colour_ok
                                && zones_allow(side, Some(from), Some(target))
                            {
                                t.cells.push(Cell::new(target));
                            }
                        }
                        t.index.push((start, t.cells.len() as u32 - start));
                    }
                }
            }
            Source::Drop | Source::Clone => {
                t.first[id] = (t.index.len() as u32, false);
                let anywhere = !g.conditions.iter().any(|c| matches!(c, Cond::To(_)));
                let kind = g.piece.expect("a drop places a piece");
                for side in Side::BOTH {
                    let start = t.cells.len() as u32;
                    for cell in 0..n {
                        let on_main = geo.cells[cell].board == 0;
                        let dead = landing.is_dead(code(kind, side), Cell::new(cell));
                        if (on_main || !anywhere) && !dead && zones_allow(side, None, Some(cell)) {
                            t.cells.push(Cell::new(cell));
                        }
                    }
                    t.index.push((start, t.cells.len() as u32 - start));
                }
            }
            Source::Flip { .. } => {
                for side in Side::BOTH {
                    for cell in 0..n {
                        let c = Cell::new(cell);
                        if zones_allow(side, Some(cell), None) && !t.flip_cells[side].contains(&c) {
                            t.flip_cells[side].push(c);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    t
}

fn zobrist(rules: &Rules) -> Zobrist {
    let n = rules.cell_count();
    let kinds = rules.pieces.len();
    let ncodes = 1 + 2 * kinds;
    let mut rng = SplitMix(0x0005_EED0_F7A7_5A4D);
    let mut keys = |count: usize| -> Vec<u64> { (0..count).map(|_| rng.next()).collect() };
    let mut piece = keys(ncodes * n);
    piece[..n].fill(0);
    Zobrist {
        piece,
        terrain: keys(rules.terrains.len() * n),
        side: keys(1)[0],
        castling: keys(rules.castlings.len() + rules.gates.len()),
        ep: keys(n),
        height: keys(n * 256),
        swapped: keys(1)[0],
        hand: keys(2 * kinds),
        counter: keys(2 * rules.counters.len()),
        exited: keys(2 * kinds),
    }
}

#[cfg(test)]
mod tests {
    /// Captures under conditions on the board alone (the piece jumped, the piece
    /// taken, the zone a rider starts from) are read from the reverse attack tables,
    /// not asked of each piece in turn: no piece type is walked for an attack test,
    /// the tables carry the conditions, and the exchange estimate (which reads no
    /// conditions) is off.
    #[test]
    fn board_conditions_are_read_from_the_attack_tables() {
        let rules = crate::load_rules(
            r#"
board 5 x 5
zone centre { white: c3  black: c3 }
piece King K { moves "K" royal }
piece Jumper J { moves "pR" unless over Jumper or captures Jumper }
piece Slider S { moves "B" if from centre }
setup "1k3/5/2S2/5/J3K w - - 0 1"
"#,
        )
        .unwrap();
        let attacks = &rules.tables.attacks;
        assert_eq!(attacks.dynamic_kinds, 0);
        assert!(attacks.conds.len() > 1, "no conditions in the tables");
        assert!(!rules.tables.attacks_tabled());
    }

    /// A counter is the position's state: captures under a condition on it are asked
    /// of the piece, not read from the reverse attack tables, and legality does not
    /// test moves on the board alone.
    #[test]
    fn captures_under_a_counter_are_asked_of_the_piece() {
        let rules = crate::load_rules(
            r#"
board 5 x 5
counter shots = 0
piece King K { moves "K" royal }
piece Archer A { moves "R" if counter shots < 2 }
setup "4k/5/5/5/A3K w - - 0 1"
"#,
        )
        .unwrap();
        assert_ne!(rules.tables.attacks.dynamic_kinds, 0);
        assert!(!rules.tables.legality.on_board);
    }
}
