//! The tables the engine reads on its hot path, precomputed from the generators: one
//! [`GenInfo`] per generator, the leaps and rays of every Betza generator from every
//! square, the targets of flights and drops, the reverse tables for attack detection
//! and the Zobrist keys.

use super::{GenId, Rules, Source};
use crate::ids::Side;
use crate::model::{Castling, Cell, Code, Cond, Effect, EndRule, Piece, PieceKind, ZoneId, code};
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
    /// No hop, no condition, no effect: the generator's short path.
    pub plain: bool,
    /// Its conditions, (start, len) in `Tables::conds`.
    pub conds: (u16, u16),
    /// Its effects: 0 for none, else 1 + an index into `Tables::effects`.
    pub effects: u16,
    /// The piece type whose move it is (a drop places one of these).
    pub piece: u8,
    /// For a flight: targets per side and origin at `targets + side * cells + cell`
    /// in `Tables::target_index`; for a drop, per side at `targets + side`.
    pub targets: u32,
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
    /// Several leaps of one plain generator (only in `Tables::plain_steps`): each
    /// target is a square of its own, none blocks another.
    pub leaps: bool,
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
    /// How many squares all boards have together (the tables' cell count).
    pub squares: usize,
    /// One per generator, indexed by [`GenId`].
    pub gens: Vec<GenInfo>,
    pub steps: Vec<Step>,
    /// (start, len) into `steps` per `code * cells + cell`.
    pub step_index: Vec<(u32, u32)>,
    /// The same steps for the generator's short path (a piece moving as itself): the
    /// plain leaps of one generator from one square merged into one step.
    pub plain_steps: Vec<Step>,
    /// (start, len) into `plain_steps` per `code * cells + cell`.
    pub plain_step_index: Vec<(u32, u32)>,
    pub cells: Vec<Cell>,
    /// (start, len) into `cells`: the targets of flights and drops (see `GenInfo::targets`).
    pub target_index: Vec<(u32, u32)>,
    /// Per attacker side and target cell: (start, len) into `leap_attacks` / `ray_attacks`.
    pub leap_index: [Vec<(u32, u32)>; 2],
    pub ray_index: [Vec<(u32, u32)>; 2],
    pub leap_attacks: Vec<LeapAttack>,
    pub ray_attacks: Vec<RayAttack>,
    pub zobrist: Zobrist,
    pub kinds: Kinds,
    pub hands: Hands,
    pub ends: Ends,
    pub home: Home,
    pub conds: Vec<Cond>,
    pub effects: Vec<Vec<Effect>>,
    /// Bit `target * cells + between` is set when a piece on `between` may stand
    /// between `target` and a piece that could capture there (on a rider's line or
    /// a lame leaper's path). Moving a piece off every such square cannot expose a
    /// royal piece, unless hoppers or flips exist (see `fast_legality`).
    pub between: Vec<u64>,
    /// Whether legality may skip make/unmake for moves off the lines to the royal.
    pub fast_legality: bool,
    /// Piece types with captures under conditions on the position's state or on
    /// where a rider starts: attack detection walks their moves instead of reading
    /// the reverse tables.
    pub dynamic_attack_kinds: u64,
    /// Per side, the squares a flip generator may start from (its `from` zone).
    pub flip_cells: [Vec<Cell>; 2],
    /// Per `code * cells + cell`, under `forbid dead-squares` (else empty): none of
    /// the piece's moves leads anywhere from there, so it may not be left there.
    pub dead: Vec<bool>,
    /// Per `code * cells + cell`: a move of the piece from there may promote.
    pub promotes_from: Vec<bool>,
    /// Per `code * cells + cell`: a landing there takes the full rules (the piece may
    /// promote there, or may not stay there).
    pub watch_landing: Vec<bool>,
    /// Per `code * cells + cell`, on boards of at most 128 cells (else empty): the
    /// squares where an enemy piece gives the piece there a capture, as bits; its
    /// only tactical moves are such captures and en-passant ones. [`ANY_REACH`]: it
    /// may also promote or change face, so it is never passed over.
    pub capture_reach: Vec<u128>,
    /// Per cell: (start, len) in `cells` of the squares on its file, on its board.
    pub file_cells: Vec<(u32, u16)>,
}

/// Each piece type's generators by what the move generator does with them, and the
/// sets of piece types the engine tests (built by [`kinds`]).
#[derive(Debug, Clone, Default)]
pub struct Kinds {
    /// Per piece type: its generators other than Betza moves and drops, in order.
    pub extras: Vec<Vec<GenId>>,
    /// Piece types that have generators in `extras`.
    pub with_extras: u64,
    /// Per piece type: its drop generators.
    pub drops: Vec<Vec<GenId>>,
    /// Does any piece drop?
    pub has_drops: bool,
    /// The game's own generators made before the pieces' moves (the pie rule's swap,
    /// passing), and castling, made last.
    pub opening_moves: Vec<GenId>,
    pub castle_moves: Vec<GenId>,
    /// Piece types that are royal.
    pub royal: u64,
    /// Piece types that promote somewhere.
    pub promoting: u64,
    /// Piece types whose generators may produce the same move twice.
    pub overlapping: u64,
    /// Piece types that a `closer-to` condition looks for.
    pub located: u64,
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
    /// reached, bare king, passes, facing), by their index in `Rules::end_rules`, in
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
    /// Castling rights lost when a move starts or ends on a cell.
    pub castle_mask: Vec<u32>,
}

/// A piece whose tactical moves are not only captures (see `Tables::capture_reach`).
pub const ANY_REACH: u128 = u128::MAX;

/// Marks a piece type that leaves the game when captured (see `Tables::hand_kind`).
pub const NO_HAND: u8 = u8::MAX;

impl Tables {
    /// Is `cell` a dead square for the piece `code` (never, without the rule)?
    #[inline]
    pub fn is_dead(&self, code: Code, cell: Cell) -> bool {
        !self.dead.is_empty() && self.dead[code as usize * self.squares + cell.index()]
    }

    /// The squares on the file of `cell`, on its board.
    #[inline]
    pub fn file_of(&self, cell: Cell) -> &[Cell] {
        let (start, len) = self.file_cells[cell];
        &self.cells[start as usize..start as usize + len as usize]
    }
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

impl Tables {
    /// The target squares of a flight (for a piece of `side` on `from`) or a drop
    /// (for `side`) generator.
    #[inline]
    pub fn targets(&self, info: &GenInfo, side: Side, from: Cell) -> &[Cell] {
        let slot = match info.source {
            Source::Flight { .. } => {
                info.targets as usize + side.index() * self.squares + from.index()
            }
            _ => info.targets as usize + side.index(),
        };
        let (start, len) = self.target_index[slot];
        &self.cells[start as usize..(start + len) as usize]
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

/// Every table of the rules.
pub(super) fn build(rules: &Rules) -> Tables {
    let mut t = Tables {
        squares: rules.cell_count(),
        ..Tables::default()
    };
    gen_infos(rules, &mut t);
    t.kinds = kinds(rules);
    steps(rules, &mut t);
    between(rules, &mut t);
    landings(rules, &mut t);
    capture_reach(rules, &mut t);
    files(rules, &mut t);
    targets(rules, &mut t);
    t.zobrist = zobrist(rules);
    t.hands = hands(&rules.pieces, &rules.no_mate_by_drop);
    t.ends = ends(rules);
    t.home.castle_mask = castle_mask(&rules.castlings, rules.cell_count());
    t
}

/// Per cell: the castling rights a move starting or ending there loses.
fn castle_mask(castlings: &[Castling], cells: usize) -> Vec<u32> {
    let mut mask = vec![0; cells];
    for (i, c) in castlings.iter().enumerate() {
        mask[c.king_from] |= 1 << i;
        mask[c.rook_from] |= 1 << i;
    }
    mask
}

/// One [`GenInfo`] per generator.
fn gen_infos(rules: &Rules, t: &mut Tables) {
    for g in &rules.generators {
        // A flight's or drop's conditions on zones are built into its targets: only
        // the others are asked while generating.
        let baked = matches!(g.source, Source::Flight { .. } | Source::Drop);
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
            piece: g.piece.unwrap_or(0) as u8,
            targets: 0,
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
        t.gens.push(info);
    }
}

/// Per piece type: its extra and drop generators, and the masks the engine tests.
fn kinds(rules: &Rules) -> Kinds {
    let mut t = Kinds::default();
    for (kind, p) in rules.pieces.iter().enumerate() {
        let bit = 1u64 << kind;
        let mut seen = Vec::new();
        let mut extras = Vec::new();
        let mut drops = Vec::new();
        let mut flights = 0;
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
                Source::Drop => drops.push(id),
                Source::Flight { .. } => {
                    flights += 1;
                    if flights > 1 {
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
            }
        }
        t.has_drops |= !drops.is_empty();
        if !extras.is_empty() {
            t.with_extras |= bit;
        }
        t.extras.push(extras);
        t.drops.push(drops);
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
    t
}

/// Does a condition depend only on the board's geometry (a zone), not on the state?
fn is_static(cond: &Cond) -> bool {
    matches!(cond, Cond::From(_) | Cond::To(_) | Cond::Player(_))
}

/// The leaps and rays of every Betza generator of every piece, side and square, and
/// the reverse attack tables built from them.
fn steps(rules: &Rules, t: &mut Tables) {
    let n = rules.cell_count();
    let ncodes = 1 + 2 * rules.pieces.len();
    t.step_index = vec![(0, 0); ncodes * n];
    t.plain_step_index = vec![(0, 0); ncodes * n];
    let mut rev = Reverse {
        leaps: [vec![Vec::new(); n], vec![Vec::new(); n]],
        rays: [vec![Vec::new(); n], vec![Vec::new(); n]],
    };
    for kind in 0..rules.pieces.len() {
        for side in Side::BOTH {
            let code = code(kind, side) as usize;
            for from in rules.geometry.board_cells(0).map(Cell::new) {
                let start = t.steps.len() as u32;
                for (id, g) in rules.moves_of(PieceKind::new(kind)) {
                    if let Source::Betza(b) = &g.source {
                        let origin = Origin { kind, side, from };
                        let b = rules.betza(*b);
                        betza_steps(rules, t, &mut rev, origin, id, b, &g.conditions);
                    }
                }
                t.step_index[code * n + from.index()] = (start, t.steps.len() as u32 - start);
                let plain_start = t.plain_steps.len() as u32;
                merge_plain_leaps(t, start as usize);
                t.plain_step_index[code * n + from.index()] =
                    (plain_start, t.plain_steps.len() as u32 - plain_start);
            }
        }
    }
    rev.store(rules, t);
}

/// Copies the steps from `start` on to `Tables::plain_steps`, merging each run of
/// plain leaps (no path to cross) of one generator into one step: the short path
/// then walks one step per generator, with the moves in the same order.
fn merge_plain_leaps(t: &mut Tables, start: usize) {
    let end = t.steps.len();
    let mut i = start;
    while i < end {
        let id = t.steps[i].generator;
        let run_end = (i..end)
            .find(|&j| t.steps[j].generator != id)
            .unwrap_or(end);
        let run = &t.steps[i..run_end];
        let leaps_only = run.iter().all(|s| !s.rider && s.path_len == 0);
        if t.gens[id].plain && leaps_only && run.len() > 1 {
            let first = t.cells.len() as u32;
            for j in i..run_end {
                let target = t.cells[t.steps[j].first as usize];
                t.cells.push(target);
            }
            t.plain_steps.push(Step {
                generator: id,
                rider: false,
                leaps: true,
                first,
                len: (run_end - i) as u16,
                path_first: first,
                path_len: 0,
            });
        } else {
            t.plain_steps.extend_from_slice(run);
        }
        i = run_end;
    }
}

/// A piece on a square, as the tables are built for it.
#[derive(Clone, Copy)]
struct Origin {
    kind: usize,
    side: Side,
    from: Cell,
}

/// Reverse attack entries being collected per attacker side and target cell.
struct Reverse {
    leaps: [Vec<Vec<LeapAttack>>; 2],
    rays: [Vec<Vec<RayEntry>>; 2],
}

/// The steps of one Betza generator from one square.
fn betza_steps(
    rules: &Rules,
    t: &mut Tables,
    rev: &mut Reverse,
    o: Origin,
    id: GenId,
    b: &BetzaMove,
    conditions: &[Cond],
) {
    let geo = &rules.geometry;
    let flip = if o.side.is_first() { 1 } else { -1 };
    for &(vx, vy) in &b.vectors {
        let (dx, dy) = (i32::from(vx) * flip, i32::from(vy) * flip);
        let first = t.cells.len() as u32;
        let max = if b.rider && b.max_steps == 0 {
            usize::MAX
        } else {
            b.max_steps as usize
        };
        let mut cur = o.from;
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
            for (px, py) in betza::lame_path(vx, vy) {
                let cell = geo
                    .offset(o.from, i32::from(px) * flip, i32::from(py) * flip)
                    .expect("a lame path lies inside the leap, on the board");
                t.cells.push(cell);
                path_len += 1;
            }
        }
        t.steps.push(Step {
            generator: id,
            rider: b.rider,
            leaps: false,
            first,
            len: len as u16,
            path_first,
            path_len,
        });
        if !b.can_capture {
            continue;
        }
        // Captures that hang on the position's state (a height, a counter, a first
        // move), or a rider's that hang on where it starts, are asked of the piece.
        let state = b.initial || conditions.iter().any(|c| !is_static(c));
        let rider_from = b.rider && conditions.iter().any(|c| matches!(c, Cond::From(_)));
        if state || rider_from {
            t.dynamic_attack_kinds |= 1 << o.kind;
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
            rev.add_ray(rules, o, (dx, dy), b, allowed);
        } else {
            let to = t.cells[first as usize];
            if allowed(to) {
                rev.add_leap(o, to, path_first, path_len);
            }
        }
    }
}

impl Reverse {
    /// Indexes a rider's line by each square it may capture on.
    fn add_ray(
        &mut self,
        rules: &Rules,
        o: Origin,
        (dx, dy): (i32, i32),
        b: &BetzaMove,
        allowed: impl Fn(Cell) -> bool,
    ) {
        let max = if b.max_steps == 0 {
            u16::MAX
        } else {
            u16::from(b.max_steps)
        };
        let mut cur = o.from;
        let mut k = 0u16;
        while let Some(next) = rules.geometry.offset(cur, dx, dy) {
            k += 1;
            if b.hop == Hop::None && k > max {
                break;
            }
            cur = next;
            if !allowed(next) {
                continue;
            }
            let list = &mut self.rays[o.side][next];
            let key = (-dx, -dy, max, b.hop);
            match list.iter_mut().find(|e| (e.0, e.1, e.2, e.3) == key) {
                Some(e) => e.4 |= 1 << o.kind,
                None => list.push((key.0, key.1, key.2, key.3, 1 << o.kind)),
            }
        }
    }

    fn add_leap(&mut self, o: Origin, to: Cell, path_first: u32, path_len: u16) {
        let list = &mut self.leaps[o.side][to];
        let existing = list
            .iter_mut()
            .find(|e| e.from == o.from && e.path_len == 0 && path_len == 0);
        match existing {
            Some(e) => e.kinds |= 1 << o.kind,
            None => list.push(LeapAttack {
                from: o.from,
                kinds: 1 << o.kind,
                path_first,
                path_len,
            }),
        }
    }

    /// Flattens the collected entries into the tables.
    fn store(self, rules: &Rules, t: &mut Tables) {
        let n = rules.cell_count();
        for side in Side::BOTH {
            t.leap_index[side] = Vec::with_capacity(n);
            t.ray_index[side] = Vec::with_capacity(n);
            for target in 0..n {
                let s = t.leap_attacks.len() as u32;
                t.leap_attacks
                    .extend(self.leaps[side][target].iter().copied());
                t.leap_index[side].push((s, t.leap_attacks.len() as u32 - s));
                let s = t.ray_attacks.len() as u32;
                for &(dx, dy, max, hop, kinds) in &self.rays[side][target] {
                    let first = t.cells.len() as u32;
                    let mut cur = Cell::new(target);
                    while let Some(next) = rules.geometry.offset(cur, dx, dy) {
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
    }
}

/// Squares between a target and its attackers, for the legality fast path.
fn between(rules: &Rules, t: &mut Tables) {
    let n = rules.cell_count();
    t.between = vec![0; (n * n).div_ceil(64)];
    let mut hoppers = false;
    for step in &t.steps {
        let info = &t.gens[step.generator];
        if !info.can_capture {
            continue;
        }
        hoppers |= info.hop != Hop::None;
        let line = &t.cells[step.first as usize..step.first as usize + step.len as usize];
        let path =
            &t.cells[step.path_first as usize..step.path_first as usize + step.path_len as usize];
        for (j, &target) in line.iter().enumerate() {
            for &b in line[..j].iter().chain(path) {
                let bit = target.index() * n + b.index();
                t.between[bit / 64] |= 1 << (bit % 64);
            }
        }
    }
    let flips = t
        .gens
        .iter()
        .any(|g| matches!(g.source, Source::Flip { .. }));
    t.fast_legality = !hoppers && !flips;
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

/// Dead squares (under `forbid dead-squares`) and the squares where a piece's moves
/// may promote.
fn landings(rules: &Rules, t: &mut Tables) {
    let n = rules.cell_count();
    let ncodes = 1 + 2 * rules.pieces.len();
    if rules.forbid_dead_squares {
        t.dead = vec![false; ncodes * n];
        for kind in 0..rules.pieces.len() {
            for side in Side::BOTH {
                let c = code(kind, side) as usize;
                let alive: Vec<bool> = (0..n)
                    .map(|cell| moves_from(rules, t, kind, side, cell))
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
    t.watch_landing = vec![false; ncodes * n];
    for (kind, p) in rules.pieces.iter().enumerate() {
        for side in Side::BOTH {
            let c = code(kind, side) as usize;
            for cell in 0..n {
                let in_zone = |pr: &crate::model::Promotion| rules.zone(pr.zone).cells[side][cell];
                t.promotes_from[c * n + cell] =
                    p.promotions.iter().any(|pr| pr.applies(in_zone(pr), false));
                t.watch_landing[c * n + cell] = t.is_dead(c as Code, Cell::new(cell))
                    || p.promotions.iter().any(|pr| pr.applies(false, in_zone(pr)));
            }
        }
    }
}

/// Where an enemy piece gives a piece a capture, per piece and square (see
/// `Tables::capture_reach`): the landing squares of its capturing steps, which are
/// where its captures take (a move's victim stands where it lands).
fn capture_reach(rules: &Rules, t: &mut Tables) {
    let n = rules.cell_count();
    if n > 128 {
        return;
    }
    let ncodes = 1 + 2 * rules.pieces.len();
    t.capture_reach = vec![ANY_REACH; ncodes * n];
    for kind in 0..rules.pieces.len() {
        if t.kinds.with_extras >> kind & 1 != 0 {
            continue;
        }
        for side in Side::BOTH {
            let c = code(kind, side) as usize;
            for from in 0..n {
                let (start, len) = t.step_index[c * n + from];
                let steps = &t.steps[start as usize..(start + len) as usize];
                let line = |s: &Step| &t.cells[s.first as usize..s.first as usize + s.len as usize];
                if t.promotes_from[c * n + from]
                    || steps
                        .iter()
                        .flat_map(line)
                        .any(|&to| t.watch_landing[c * n + to.index()])
                {
                    continue;
                }
                t.capture_reach[c * n + from] = steps
                    .iter()
                    .filter(|s| t.gens[s.generator].can_capture)
                    .flat_map(line)
                    .fold(0, |reach, &to| reach | 1 << to.index());
            }
        }
    }
}

/// May a piece of `kind` and `side` ever move from `cell`, by the board's geometry
/// (a leap or line that stays on the board, a flight, exit or flip from there)?
fn moves_from(rules: &Rules, t: &Tables, kind: usize, side: Side, cell: usize) -> bool {
    let zones_allow = |conditions: &[Cond]| {
        conditions.iter().all(|c| match *c {
            Cond::From(z) => rules.zone(z).cells[side][cell],
            Cond::Player(s) => s == side,
            _ => true,
        })
    };
    let n = rules.cell_count();
    let (start, len) = t.step_index[code(kind, side) as usize * n + cell];
    let steps = &t.steps[start as usize..(start + len) as usize];
    if steps
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
fn files(rules: &Rules, t: &mut Tables) {
    let geo = &rules.geometry;
    for cell in 0..geo.len() {
        let info = &geo.cells[cell];
        let start = t.cells.len() as u32;
        for rank in 0..geo.boards[info.board].ranks {
            t.cells.push(
                geo.cell_at(info.board, info.file as i32, rank as i32)
                    .unwrap(),
            );
        }
        t.file_cells
            .push((start, (t.cells.len() as u32 - start) as u16));
    }
}

/// The targets of flights (per side and origin) and drops (per side), and the squares
/// flips start from: the cells their conditions on zones allow.
fn targets(rules: &Rules, t: &mut Tables) {
    let n = rules.cell_count();
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
                    t.gens[id].targets = offset;
                    continue;
                }
                let offset = t.target_index.len() as u32;
                flights.push((key, offset));
                t.gens[id].targets = offset;
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
                        t.target_index.push((start, t.cells.len() as u32 - start));
                    }
                }
            }
            Source::Drop => {
                t.gens[id].targets = t.target_index.len() as u32;
                let anywhere = !g.conditions.iter().any(|c| matches!(c, Cond::To(_)));
                let kind = g.piece.expect("a drop places a piece");
                for side in Side::BOTH {
                    let start = t.cells.len() as u32;
                    for cell in 0..n {
                        let on_main = geo.cells[cell].board == 0;
                        let dead = t.is_dead(code(kind, side), Cell::new(cell));
                        if (on_main || !anywhere) && !dead && zones_allow(side, None, Some(cell)) {
                            t.cells.push(Cell::new(cell));
                        }
                    }
                    t.target_index.push((start, t.cells.len() as u32 - start));
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
        castling: keys(rules.castlings.len()),
        ep: keys(n),
        height: keys(n * 256),
        swapped: keys(1)[0],
        hand: keys(2 * kinds),
        counter: keys(2 * rules.counters.len()),
        exited: keys(2 * kinds),
    }
}
