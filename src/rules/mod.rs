//! Stage 3: the compiled rules. [`Rules::compile`] takes the checker's resolved
//! [`Game`](crate::model::Game), lowers every way to move onto one model — each piece's
//! list of [generators](Generator), all taking the same conditions and effects — and
//! precomputes the tables the engine reads on its hot path: for every generator, side
//! and square the leaps, rays and targets it may take, the reverse tables that answer
//! "is this square attacked", and the Zobrist keys.

mod lower;
mod tables;

pub use crate::model::{
    BetzaId, Board, Castling, Cell, CellInfo, Code, Compare, Cond, CounterId, EMPTY, Effect,
    EndRule, GenId, Geometry, MAX_PIECE_TYPES, Mark, NO_CELL, Outcome, Param, PieceKind, Player,
    Promotion, Side, Symbol, Terrain, Zone, ZoneId, code, file_letter, kind_of, side_of,
};
pub(crate) use tables::{
    ANY_REACH, BitSquare, BitStep, GenInfo, LeapAttack, NO_HAND, RayAttack, RayBits, Step, Tables,
    Zobrist, same_effects, same_steps,
};

use indexmap::IndexMap;

use crate::model::{Game, Piece};
use crate::syntax::betza::BetzaMove;

/// Where the moves of one generator come from: the one list of the ways to move.
/// Every source takes the same [`Cond`]itions and [`Effect`]s; what is special to a
/// source (castling's passing-through test, a flight's colour) lives inside it. It is
/// small and `Copy`, so that the engine's per-generator table ([`GenInfo`]) holds it
/// and the move generator dispatches on it directly; a new way to move is one variant
/// here (and a [`MoveKind`](crate::engine::MoveKind) only if make/unmake must do
/// something new).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Leaps, rides and hops of one Betza component (in [`Rules::betza_moves`]).
    Betza(BetzaId),
    /// To an empty square of zone `to` on any board, never capturing; with
    /// `same_colour`, only to a square of the colour the piece stands on.
    Flight { to: ZoneId, same_colour: bool },
    /// From the mover's hand onto an empty square.
    Drop,
    /// A copy of the piece, from an endless supply, onto an empty square next to
    /// one of its player's pieces of its kind (made and written as a drop).
    Clone,
    /// Off the board.
    Exit,
    /// The piece stays on its square, turned into another (`moves in-place then
    /// becomes PIECE`).
    InPlace,
    /// Turns into its other face `face` and makes one move as that face.
    Flip { face: PieceKind },
    /// Castling number `castling` of [`Rules::castlings`]: the king-like piece and its
    /// partner move together.
    Castle { castling: u8 },
    /// The player moves nothing.
    Pass,
    /// The pie rule: the second player takes over the first player's side.
    Swap,
}

/// One way to move: a source, the conditions under which it may be used and what it
/// does besides moving.
#[derive(Debug, Clone)]
pub struct Generator {
    /// The piece type whose move it is; `None` for moves of the game itself
    /// (castling, passing, the pie rule).
    pub piece: Option<usize>,
    pub source: Source,
    pub conditions: Vec<Cond>,
    pub effects: Vec<Effect>,
}

/// A game's rules, checked and compiled: the checked [`Game`], which it reads
/// through (`Deref`), and what compiling adds — every way to move lowered onto
/// generators, and the tables the engine reads. Read-only outside the crate: the
/// tables are compiled from the definitions, so neither may change alone.
#[derive(Debug, Clone)]
pub struct Rules {
    /// The game as the checker resolved it; its zones are the file's, then those
    /// lowering made (a flight's squares).
    pub(crate) game: Game,
    /// Per piece type: its generators, in the order they produce moves.
    pub(crate) piece_moves: Vec<Vec<GenId>>,
    /// Every generator of every piece, and of the game.
    pub(crate) generators: Vec<Generator>,
    /// The Betza move components the generators name ([`Source::Betza`]).
    pub(crate) betza_moves: Vec<BetzaMove>,
    /// The generators that belong to no piece (castling, passing, the pie rule).
    pub(crate) game_moves: Vec<GenId>,
    /// `pass when-stuck`: the pass made when no other move is legal (not among
    /// `game_moves`, which are generated every turn).
    pub(crate) stuck_pass: Option<GenId>,
    pub(crate) tables: Tables,
}

/// The declarations are read where the checker put them: `rules.pieces`,
/// `rules.geometry`, ... are the checked game's.
impl std::ops::Deref for Rules {
    type Target = Game;
    fn deref(&self) -> &Game {
        &self.game
    }
}

impl Rules {
    /// The game's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The boards and their squares.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The two players.
    pub fn players(&self) -> &[Player; 2] {
        &self.players
    }

    /// The piece types.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The kinds of terrain.
    pub fn terrains(&self) -> &[Terrain] {
        &self.terrains
    }

    /// The zones: the file's, then those lowering made.
    pub fn zones(&self) -> &[Zone] {
        &self.zones
    }

    /// The castling rights, in position-string order.
    pub fn castlings(&self) -> &[Castling] {
        &self.castlings
    }

    /// The end rules, in the file's order.
    pub fn end_rules(&self) -> &[EndRule] {
        &self.end_rules
    }

    /// The parameters and their values.
    pub fn params(&self) -> &IndexMap<String, Param> {
        &self.params
    }

    /// The names of the per-player counters.
    pub fn counters(&self) -> &[String] {
        &self.counters
    }

    /// Is a move that stalemates the opponent illegal?
    pub fn stalemate_illegal(&self) -> bool {
        self.stalemate_illegal
    }

    /// The start position string.
    pub fn setup(&self) -> &str {
        &self.setup
    }

    /// Every generator of every piece and of the game.
    pub fn generators(&self) -> &[Generator] {
        &self.generators
    }

    /// A Betza generator's move component.
    pub fn betza(&self, id: BetzaId) -> &BetzaMove {
        &self.betza_moves[id]
    }

    /// The generators of the game itself.
    pub fn game_moves(&self) -> &[GenId] {
        &self.game_moves
    }

    /// Lowers a checked game onto the move model and precomputes its tables. The
    /// setup's piece codes (which pieces are unmoved) are added by
    /// [`Rules::set_home`] once the setup has been read.
    pub fn compile(game: Game) -> Rules {
        let mut rules = lower::lower(game);
        rules.tables = tables::build(&rules);
        rules
    }

    /// Records the setup's board, to tell which pieces are unmoved.
    pub(crate) fn set_home(&mut self, board: &[Code]) {
        self.tables.home.board = board.to_vec();
        let mut counts = vec![0u16; 1 + 2 * self.pieces.len()];
        for &c in board {
            counts[c as usize] += 1;
        }
        self.tables.home.counts = counts;
    }

    pub fn cell_count(&self) -> usize {
        self.geometry.len()
    }

    /// The piece type and side a position string's letter stands for: upper case for
    /// the first player, lower case for the second.
    pub fn piece_by_letter(&self, c: char) -> Option<(usize, Side)> {
        self.piece_by_symbol(Symbol {
            letter: c,
            mark: Mark::Plain,
        })
    }

    /// The piece type and side a position string's symbol stands for (`P`, `+p`,
    /// `Q~`): upper case for the first player.
    pub fn piece_by_symbol(&self, s: Symbol) -> Option<(usize, Side)> {
        if !s.letter.is_ascii_alphabetic() {
            return None;
        }
        let side = Side::new(usize::from(s.letter.is_ascii_lowercase()));
        let up = s.letter.to_ascii_uppercase();
        let kind = self.pieces.iter().position(|p| {
            p.letter == up && p.mark == s.mark && p.owner.is_none_or(|o| o == side)
        })?;
        Some((kind, side))
    }

    /// The symbol of a piece code as a position string writes it: `P`, `+p`, `Q~`.
    pub fn code_symbol(&self, code: Code) -> String {
        let p = &self.pieces[kind_of(code)];
        Symbol {
            letter: p.letter,
            mark: p.mark,
        }
        .text(side_of(code).is_first())
    }

    /// Does the game have pieces written with a mark (`+P`, `Q~`)?
    pub fn has_marks(&self) -> bool {
        self.pieces.iter().any(|p| p.mark != Mark::Plain)
    }

    /// The first piece type whose letter is `c`, in either case, whoever owns it.
    pub fn kind_by_letter(&self, c: char) -> Option<usize> {
        let up = c.to_ascii_uppercase();
        self.pieces.iter().position(|p| p.letter == up)
    }

    /// The piece type of `side` whose letter is `c`, in either case.
    pub fn kind_for(&self, side: Side, c: char) -> Option<usize> {
        let up = c.to_ascii_uppercase();
        self.pieces.iter().position(|p| {
            p.letter == up && p.mark == Mark::Plain && p.owner.is_none_or(|o| o == side)
        })
    }

    /// The letter of a piece code: upper case for the first player.
    pub fn code_letter(&self, code: Code) -> char {
        let l = self.pieces[kind_of(code)].letter;
        if side_of(code).is_first() {
            l
        } else {
            l.to_ascii_lowercase()
        }
    }

    pub fn zone_contains(&self, zone: ZoneId, side: Side, cell: Cell) -> bool {
        self.zones[zone].cells[side][cell]
    }

    /// The zone with this name, if one.
    pub fn zone_by_name(&self, name: &str) -> Option<ZoneId> {
        self.zones
            .iter()
            .position(|z| z.name == name)
            .map(ZoneId::new)
    }

    /// A zone's definition.
    pub fn zone(&self, zone: ZoneId) -> &Zone {
        &self.zones[zone]
    }

    /// A piece type's definition.
    pub fn piece(&self, kind: PieceKind) -> &Piece {
        &self.pieces[kind]
    }

    /// The piece type in hand that a drop of `kind` takes: `kind` itself, or for a
    /// face kept in hand as another piece (`in-hand-as`, such as a promoted form),
    /// that piece: the face is placed from its hand (only by a `drops` rule of its own).
    pub fn hand_of(&self, kind: usize) -> usize {
        self.pieces[kind]
            .kept_as(kind)
            .map_or(kind, PieceKind::index)
    }

    /// The generators of a piece type, with their ids.
    pub fn moves_of(&self, kind: PieceKind) -> impl Iterator<Item = (GenId, &Generator)> {
        self.piece_moves[kind]
            .iter()
            .map(|&g| (g, &self.generators[g]))
    }

    /// The piece type's generators of one source kind (`Source::Exit`, ...).
    pub fn moves_where(
        &self,
        kind: PieceKind,
        wanted: impl Fn(&Source) -> bool,
    ) -> impl Iterator<Item = (GenId, &Generator)> {
        self.moves_of(kind).filter(move |(_, g)| wanted(&g.source))
    }

    /// Does the game have a pass (`pass`, or `pass when-stuck`)?
    pub fn has_pass(&self) -> bool {
        self.stuck_pass.is_some()
            || (self.game_moves.iter()).any(|&g| self.generators[g].source == Source::Pass)
    }

    /// Are pieces placed from a hand in this game?
    pub fn has_drops(&self) -> bool {
        self.generators.iter().any(|g| g.source == Source::Drop)
    }

    /// Do moves of this game have a second part (`place`, `move`: an arrow, the duck)?
    pub fn has_two_part_moves(&self) -> bool {
        self.tables.kinds.two_part
    }

    /// The zone a piece type may leave the board from, if one.
    pub fn exit_zone(&self, kind: PieceKind) -> Option<ZoneId> {
        self.moves_where(kind, |s| *s == Source::Exit)
            .find_map(|(_, g)| {
                g.conditions.iter().find_map(|c| match *c {
                    Cond::From(z) => Some(z),
                    _ => None,
                })
            })
    }

    /// Does the game have the pie rule?
    pub fn pie_rule(&self) -> bool {
        self.game_moves
            .iter()
            .any(|&g| self.generators[g].source == Source::Swap)
    }
}
