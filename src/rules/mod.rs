//! Stage 3: the compiled rules. [`Rules::compile`] takes the checker's resolved
//! [`Game`](crate::model::Game), lowers every way to move onto one model — each piece's
//! list of [generators](Generator), all taking the same conditions and effects — and
//! precomputes the tables the engine reads on its hot path: for every generator, side
//! and square the leaps, rays and targets it may take, the reverse tables that answer
//! "is this square attacked", and the Zobrist keys.

mod lower;
mod tables;

pub use crate::model::{
    Board, Castling, Cell, CellInfo, Code, Cond, CounterId, EMPTY, Effect, EndRule, Geometry,
    MAX_PIECE_TYPES, Mark, NO_CELL, Outcome, Param, PieceKind, Player, Promotion, Symbol, Terrain,
    Zone, ZoneId, code, file_letter, kind_of, side_of,
};
pub use tables::{
    ANY_REACH, GenInfo, GenKind, LeapAttack, NO_HAND, RayAttack, Step, Tables, Zobrist,
};

use indexmap::IndexMap;

use crate::model::Game;
use crate::syntax::betza::BetzaMove;

/// The index of a generator in [`Rules::generators`].
pub type GenId = u16;

/// Where the moves of one generator come from. Every source takes the same
/// [`Cond`]itions and [`Effect`]s; what is special to a source (castling's
/// passing-through test, a flight's colour) lives inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Leaps, rides and hops of one Betza component.
    Betza(BetzaMove),
    /// To an empty square of zone `to` on any board, never capturing; with
    /// `same_colour`, only to a square of the colour the piece stands on.
    Flight { to: ZoneId, same_colour: bool },
    /// From the mover's hand onto an empty square.
    Drop,
    /// Off the board.
    Exit,
    /// Turns into its other face `face` and makes one move as that face.
    Flip { face: PieceKind },
    /// Castling number `castling` of [`Rules::castlings`]: the king-like piece and its
    /// partner move together.
    Castle { castling: usize },
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

/// A piece type as the engine plays it.
#[derive(Debug, Clone)]
pub struct PieceType {
    pub name: String,
    /// The upper-case letter; the second player's pieces use the lower case.
    pub letter: char,
    /// Its mark in position strings (`+P`, `Q~`).
    pub mark: Mark,
    pub royal: bool,
    pub en_passant: bool,
    pub resets_clock: bool,
    pub value: Option<i64>,
    /// Its Betza strings as written, for messages.
    pub betza: String,
    /// Its promotion rules; a move to which several apply offers all their choices.
    pub promotions: Vec<Promotion>,
    /// Captured, it goes to the capturer's hand as this piece type.
    pub to_hand: Option<PieceKind>,
    /// The only player who has this piece, if one (its letter's case then tells).
    pub owner: Option<usize>,
    /// Its generators, in the order they produce moves.
    pub moves: Vec<GenId>,
}

/// A game's rules, checked and compiled. Read-only outside the crate: the tables
/// are compiled from the definitions, so neither may change alone.
#[derive(Debug, Clone)]
pub struct Rules {
    pub(crate) name: String,
    pub(crate) geometry: Geometry,
    pub(crate) players: [Player; 2],
    pub(crate) pieces: Vec<PieceType>,
    pub(crate) terrains: Vec<Terrain>,
    /// The file's zones, then the zones lowering made (a flight's squares).
    pub(crate) zones: Vec<Zone>,
    /// Castling rights, in the order a position string lists them.
    pub(crate) castlings: Vec<Castling>,
    pub(crate) end_rules: Vec<EndRule>,
    pub(crate) params: IndexMap<String, Param>,
    /// Names of the per-player counters.
    pub(crate) counters: Vec<String>,
    /// Each counter's value per player in the setup, unless the setup string gives it.
    pub(crate) counter_starts: Vec<[i64; 2]>,
    /// A move that leaves the opponent stalemated is illegal (`stalemate illegal`).
    pub(crate) stalemate_illegal: bool,
    /// No move may leave a piece where none of its moves leads anywhere.
    pub(crate) forbid_dead_squares: bool,
    /// Drops of these piece types may not checkmate.
    pub(crate) no_mate_by_drop: Vec<PieceKind>,
    /// No move may give check.
    pub(crate) forbid_check: bool,
    pub(crate) setup: String,
    /// Every generator of every piece, and of the game.
    pub(crate) generators: Vec<Generator>,
    /// The generators that belong to no piece (castling, passing, the pie rule).
    pub(crate) game_moves: Vec<GenId>,
    pub(crate) tables: Tables,
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
    pub fn pieces(&self) -> &[PieceType] {
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
        self.tables.home = board.to_vec();
        let mut counts = vec![0u16; 1 + 2 * self.pieces.len()];
        for &c in board {
            counts[c as usize] += 1;
        }
        self.tables.home_counts = counts;
    }

    pub fn cell_count(&self) -> usize {
        self.geometry.len()
    }

    /// The piece type and side a position string's letter stands for: upper case for
    /// the first player, lower case for the second.
    pub fn piece_by_letter(&self, c: char) -> Option<(usize, usize)> {
        self.piece_by_symbol(Symbol {
            letter: c,
            mark: Mark::Plain,
        })
    }

    /// The piece type and side a position string's symbol stands for (`P`, `+p`,
    /// `Q~`): upper case for the first player.
    pub fn piece_by_symbol(&self, s: Symbol) -> Option<(usize, usize)> {
        if !s.letter.is_ascii_alphabetic() {
            return None;
        }
        let side = usize::from(s.letter.is_ascii_lowercase());
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
        .text(side_of(code) == 0)
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
    pub fn kind_for(&self, side: usize, c: char) -> Option<usize> {
        let up = c.to_ascii_uppercase();
        self.pieces.iter().position(|p| {
            p.letter == up && p.mark == Mark::Plain && p.owner.is_none_or(|o| o == side)
        })
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

    pub fn zone_contains(&self, zone: ZoneId, side: usize, cell: Cell) -> bool {
        self.zones[zone.index()].cells[side][cell as usize]
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
        &self.zones[zone.index()]
    }

    /// A piece type's definition.
    pub fn piece(&self, kind: PieceKind) -> &PieceType {
        &self.pieces[kind.index()]
    }

    /// The generators of a piece type, with their ids.
    pub fn moves_of(&self, kind: usize) -> impl Iterator<Item = (GenId, &Generator)> {
        self.pieces[kind]
            .moves
            .iter()
            .map(|&g| (g, &self.generators[g as usize]))
    }

    /// The piece type's generators of one source kind (`Source::Exit`, ...).
    pub fn moves_where(
        &self,
        kind: usize,
        wanted: impl Fn(&Source) -> bool,
    ) -> impl Iterator<Item = (GenId, &Generator)> {
        self.moves_of(kind).filter(move |(_, g)| wanted(&g.source))
    }

    /// Are pieces placed from a hand in this game?
    pub fn has_drops(&self) -> bool {
        self.generators.iter().any(|g| g.source == Source::Drop)
    }

    /// The zone a piece type may leave the board from, if one.
    pub fn exit_zone(&self, kind: usize) -> Option<ZoneId> {
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
            .any(|&g| self.generators[g as usize].source == Source::Swap)
    }
}
