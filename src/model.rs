//! The resolved model: what a rule file says, with every name resolved to an index.
//! The checker ([`crate::check`]) builds a [`Game`]; the compiler ([`crate::rules`])
//! lowers its declarations onto the move model's generators and precomputes the
//! tables the engine reads.

use indexmap::IndexMap;

pub use crate::syntax::ast::{Compare, Convert, Mark, PromoteWhen, Symbol};
use crate::syntax::betza;

pub use crate::ids::{BetzaId, Cell, CounterId, GenId, PieceKind, Side, ZoneId};
/// Marks "no square".
pub const NO_CELL: Cell = Cell::NONE;
/// A piece on a square: 0 is empty, else `1 + 2 * type + side`.
pub type Code = u8;
pub const EMPTY: Code = 0;
/// Counters stay within `-MAX_COUNTER..=MAX_COUNTER`: a position string may not give
/// more, an effect may not change one by more, and a move that would take one outside
/// is not made.
pub const MAX_COUNTER: i64 = 1_000_000;
/// The most pieces of one kind a hand holds: a position string may give no more, and
/// a piece captured into a full hand leaves the game.
pub const MAX_IN_HAND: u16 = 4096;
/// The most piece types a game may declare (type sets are 64-bit masks).
pub const MAX_PIECE_TYPES: usize = 64;

pub fn code(kind: usize, side: Side) -> Code {
    (1 + 2 * kind + side.index()) as Code
}
pub fn kind_of(code: Code) -> usize {
    (code as usize - 1) >> 1
}
/// The side of a piece code (not [`EMPTY`]): odd codes are the first player's.
#[inline]
pub fn side_of(code: Code) -> Side {
    if code & 1 == 1 {
        Side::First
    } else {
        Side::Second
    }
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
                self.names.insert(name.clone(), Cell::new(self.cells.len()));
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
        Some(Cell::new(
            b.first_cell + rank as usize * b.files + file as usize,
        ))
    }
    /// The cell reached from `cell` by the step (dx, dy), on the same board.
    pub fn offset(&self, cell: Cell, dx: i32, dy: i32) -> Option<Cell> {
        let c = &self.cells[cell];
        self.cell_at(c.board, c.file as i32 + dx, c.rank as i32 + dy)
    }
    /// The first cell on the way from `from` toward `to` (one step along each axis
    /// that differs): the square a double step passes.
    pub fn first_step(&self, from: Cell, to: Cell) -> Cell {
        let (a, b) = (&self.cells[from], &self.cells[to]);
        let dx = (b.file as i32 - a.file as i32).signum();
        let dy = (b.rank as i32 - a.rank as i32).signum();
        self.offset(from, dx, dy).unwrap_or(to)
    }
    /// The cell a user names, such as `e4` or `f12`.
    pub fn parse_square(&self, name: &str) -> Option<Cell> {
        self.names.get(name).copied()
    }
    pub fn name(&self, cell: Cell) -> &str {
        &self.cells[cell].name
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
        kind: PieceKind,
    },
    From(ZoneId),
    To(ZoneId),
    /// The mover's counter number `.0` compared with a number.
    Counter(CounterId, Compare, i64),
    /// Only for this player (lowered from per-player declarations such as `flip`).
    Player(Side),
    /// One's own piece of `kind` stands in `zone` (lowered from `flip ... if own`).
    OwnPieceIn {
        kind: PieceKind,
        zone: ZoneId,
    },
    /// Fewer than `limit` pieces of `kind`, the enemy's or one's own, stand on the
    /// file the move ends on (on its board): none, for a limit of 1.
    NoneOnFile {
        enemy: bool,
        kind: PieceKind,
        limit: u8,
    },
    /// The move takes a piece of `kind` (`yes`), or takes none of that kind.
    Captures {
        kind: PieceKind,
        yes: bool,
    },
    /// The hop's screen is a piece of `kind` (`yes`), or is not (a move that jumps
    /// nothing has no screen).
    Over {
        kind: PieceKind,
        yes: bool,
    },
    /// The mover is in check before the move (`yes`), or is not. Only on moves that
    /// never capture, so that attack detection never asks it.
    InCheck {
        yes: bool,
    },
    /// The move turns at least one enemy piece by a [`Effect::Convert`] of its own
    /// generator.
    Converts,
    /// Fewer than `limit` pieces of `kind`, the enemy's or one's own, stand on the
    /// board (none, for a limit of 1).
    CountOnBoard {
        enemy: bool,
        kind: PieceKind,
        limit: u8,
    },
    /// Read once the move is made (by the legal-move filter): it leaves a royal piece
    /// of the opponent attacked (`yes`), or does not.
    Checking {
        yes: bool,
    },
    /// Read once the move is made: the piece, where it landed, attacks a piece of the
    /// opponent (`yes`), or attacks none.
    Attacking {
        yes: bool,
    },
}

impl Cond {
    /// Is it read on the position the move makes, rather than while generating?
    pub fn is_after(&self) -> bool {
        matches!(self, Cond::Checking { .. } | Cond::Attacking { .. })
    }
}

/// An effect of a move, resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// A piece of this kind, the mover's, is left on the square the mover left.
    Leave(PieceKind),
    /// The mover's height changes by this much.
    Height(i64),
    /// Captures without moving.
    Stay,
    /// The mover's counter number `.0` changes by `.1`.
    Counter(CounterId, i64),
    /// Enemy pieces turn to the mover's side.
    Convert(Convert),
    /// The move's second part: the mover puts terrain on an empty square.
    Place(Placement),
    /// The piece turns into this kind where it lands (a promotion by the line's moves).
    Becomes(PieceKind),
}

/// A move's second part: a terrain put on a square that is empty once the piece has
/// moved (no piece, no terrain).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// The terrain's index.
    pub terrain: u8,
    /// The terrain on the board (one at most) is lifted and put elsewhere (the duck):
    /// not back on its own square. Without it, a new one is placed (an arrow).
    pub lift: bool,
    /// Only on the squares these steps reach from where the piece landed; any square
    /// of the main board without.
    pub along: Option<Along>,
}

/// The leaps and rides of a plain Betza move, as sets of steps: bit `(dy + 3) * 7 +
/// (dx + 3)` for the step (dx, dy), forward being the first player's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Along {
    pub leaps: u64,
    pub rides: u64,
    /// The most steps a ride takes (0: no limit).
    pub range: u8,
}

impl Along {
    /// The bit of the step (dx, dy) (each within ±3).
    pub fn bit(dx: i8, dy: i8) -> u64 {
        1 << ((i32::from(dy) + 3) * 7 + i32::from(dx) + 3)
    }
    /// The steps of a set, as (dx, dy) for the first player.
    pub fn steps(set: u64) -> impl Iterator<Item = (i8, i8)> {
        (0..49)
            .filter(move |b| set >> b & 1 != 0)
            .map(|b| ((b % 7) as i8 - 3, (b / 7) as i8 - 3))
    }
}

/// One promotion rule of a piece: the moves it applies to (by their squares and a
/// zone), what the piece may become, and whether it may also stay as it is.
#[derive(Debug, Clone)]
pub struct Promotion {
    pub when: PromoteWhen,
    pub zone: ZoneId,
    pub to: Vec<PieceKind>,
    pub optional: bool,
    /// Only to kinds the player has fewer of on the board than the setup gave.
    pub only_lost: bool,
    /// Only on a move that captures.
    pub capturing: bool,
}

impl Promotion {
    /// Does the rule apply to a move of `side` from `from` to `to`? (`from` and `to`
    /// tell whether each square is in the zone.)
    pub fn applies(&self, from_in: bool, to_in: bool) -> bool {
        match self.when {
            PromoteWhen::Arrives => to_in,
            PromoteWhen::Leaves => from_in,
            PromoteWhen::Touches => from_in || to_in,
        }
    }
}

/// Where and when a piece may be placed from the hand.
#[derive(Debug, Clone)]
pub struct DropRule {
    /// The zone it is placed in; the whole main board without one.
    pub zone: Option<ZoneId>,
    pub conditions: Vec<Cond>,
    /// What a placement does besides (`convert`).
    pub effects: Vec<Effect>,
}

#[derive(Debug, Clone)]
/// A piece as declared: its moves and properties, before lowering.
pub struct Piece {
    pub name: String,
    /// The upper-case letter; the second player's pieces use the lower case.
    pub letter: char,
    /// Its mark in position strings (`+P`, `Q~`).
    pub mark: Mark,
    pub royal: bool,
    pub en_passant: bool,
    pub resets_clock: bool,
    pub value: Option<i64>,
    pub betza: String,
    pub components: Vec<Component>,
    /// `moves in-place`: moves that leave the piece on its square (turned into
    /// another by their `becomes` effect), each with its conditions and effects.
    pub in_place: Vec<DropRule>,
    pub promotions: Vec<Promotion>,
    /// Captured, it goes to the capturer's hand as this piece.
    pub to_hand: Option<PieceKind>,
    /// Its own rule for placement from the hand, replacing the game's `drop in`.
    pub drops: Option<DropRule>,
    /// `clones`: a copy of it, from an endless supply, may be placed on an empty
    /// square next to one of its player's pieces of its kind (the rule's zone is
    /// unused).
    pub clones: Option<DropRule>,
    /// `both-colours`: a player's pieces of this kind are placed on both colours.
    pub both_colours: bool,
    /// The only player who has this piece, if one (its letter's case then tells).
    pub owner: Option<Side>,
    /// May fly (see [`Flight`]).
    pub flies: bool,
    /// The other face of a two-faced piece.
    pub flips_to: Option<PieceKind>,
    /// It may leave the board from this zone.
    pub exits_from: Option<ZoneId>,
    /// Its `glyph` per side, the text pictures show on it (none: its letter).
    pub glyph: [Option<String>; 2],
    /// The drawing pictures show it as (`image`, a name of [`crate::pictures`]).
    pub image: Option<String>,
}

impl Piece {
    /// The piece it is kept as in hand, where that is another than itself (piece type
    /// `me`): `in-hand-as`, as a promoted form returns unpromoted. Such a face reaches
    /// no hand as itself: only a `drops` rule of its own places it, from the hand of the
    /// piece it is kept as (a promoted face placed directly, `+S@b3`).
    pub fn kept_as(&self, me: usize) -> Option<PieceKind> {
        self.to_hand.filter(|h| h.index() != me)
    }
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
    pub zone: ZoneId,
    /// Needs one's own piece of this kind in this zone.
    pub needs: Option<(PieceKind, ZoneId)>,
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
    /// Declared in the file (not squares that lowering named, such as a flight's).
    pub declared: bool,
}

#[derive(Debug, Clone)]
pub struct Castling {
    pub side: Side,
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
    /// Decided by counting: the player with more pieces on the board wins, as many
    /// draw (`by-count`).
    ByCount,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndRule {
    Checkmate(Outcome),
    Stalemate(Outcome),
    NoMoves(Outcome),
    Repetition(u32, Outcome),
    MoveLimit(u32, Outcome),
    Captured(PieceKind, Outcome),
    Exited(PieceKind, Outcome),
    /// A piece of the kind stands in the zone: the result for its player. With a
    /// reply and a royal kind, the first player's arrival ends the game only after
    /// the second player's answer, which draws if it arrives too; with a reply and
    /// any other kind, either player's arrival waits for the other's answer and wins
    /// if a piece of the kind still stands in the zone after it.
    Reached {
        kind: PieceKind,
        zone: ZoneId,
        reply: bool,
        /// Only on a square no enemy piece attacks; read for both players after
        /// every move, the player to move first (both there: a draw).
        unattacked: bool,
        outcome: Outcome,
    },
    /// A player has nothing but royal pieces: the result for that player.
    BareKing(Outcome),
    /// The players' pieces of this kind face each other (one file or rank, nothing
    /// between): the player to move must end it or pass, and a facing that stands
    /// after a pass ends the game (the result is for the player to move).
    Facing(PieceKind, Outcome),
    /// The last N moves were passes (the result is for the player to move).
    Passes(u32, Outcome),
    /// A player's pieces of `kind` (of every kind with `None`), on the board and in
    /// hand, compare so with `count`: the result for that player. Read at once, the
    /// player who just moved first.
    PiecesLeft {
        kind: Option<PieceKind>,
        op: Compare,
        count: i64,
        outcome: Outcome,
    },
    /// A player's counter compares so: the result for that player. Read at once,
    /// the player who just moved first.
    Counter(CounterId, Compare, i64, Outcome),
    /// Every square of the main board holds a piece (or terrain): the result for the
    /// player to move. Read at once.
    BoardFull(Outcome),
}

#[derive(Debug, Clone)]
pub struct Param {
    pub value: i64,
    pub min: i64,
    pub max: i64,
}

/// A rule file, checked: every declaration with its names resolved. Game-level
/// declarations (flight, flip, drop, castling, the pie rule) are kept as written here;
/// the compiler lowers them onto the pieces' generators.
#[derive(Debug, Clone)]
pub struct Game {
    pub name: String,
    pub geometry: Geometry,
    pub players: [Player; 2],
    pub pieces: Vec<Piece>,
    pub terrains: Vec<Terrain>,
    /// The file's zones (the compiled rules add a flight's squares after them).
    pub zones: Vec<Zone>,
    pub castlings: Vec<Castling>,
    pub end_rules: Vec<EndRule>,
    pub params: IndexMap<String, Param>,
    /// The second player may swap sides instead of making their first move.
    pub pie_rule: bool,
    pub flights: Vec<Flight>,
    pub flip_rules: [Option<FlipRule>; 2],
    /// Pieces in hand are placed on the empty squares of this zone.
    pub drop_zone: Option<ZoneId>,
    /// `gating in ZONE`: its squares, each a player's gate, in the order of their
    /// rights' bits, which follow the castlings' (empty without the rule).
    pub gates: Vec<(Side, Cell)>,
    /// The zone of `gating in ZONE`, if the game has one.
    pub gating_zone: Option<ZoneId>,
    /// `must-drop`: while a player holds pieces, placing one is their only move.
    pub must_drop: bool,
    /// `castling-by-drop KING with PARTNER`: the kinds whose placement completes a
    /// castling's pair and gives its right.
    pub castling_by_drop: Option<(PieceKind, PieceKind)>,
    /// Names of the per-player counters.
    pub counters: Vec<String>,
    /// Each counter's value per player at the start (`counter NAME = START`), unless the
    /// setup gives it.
    pub counter_starts: Vec<[i64; 2]>,
    /// A move that leaves the opponent stalemated is illegal (`stalemate illegal`).
    pub stalemate_illegal: bool,
    /// No move may leave a piece where none of its moves leads anywhere.
    pub forbid_dead_squares: bool,
    /// Drops of these piece types may not checkmate.
    pub no_mate_by_drop: Vec<PieceKind>,
    /// No move may give check.
    pub forbid_check: bool,
    /// When the side to move has a legal capture, only its captures are legal
    /// (`must-capture`).
    pub must_capture: bool,
    /// A player is in check only when all its royal pieces are attacked at once
    /// (`duple-check`): one of several may be left attacked.
    pub duple_check: bool,
    /// Captures explode (`captures-explode`): the capturing piece, the piece taken
    /// and the pieces around the target leave the board, except these kinds on the
    /// squares around it.
    pub explosions: Option<Vec<PieceKind>>,
    /// The counter changes a move makes for its player when it gives check (`on check
    /// then counter NAME N`).
    pub on_check: Vec<(CounterId, i64)>,
    /// The second part every move has (`on move then place ...`), if one.
    pub on_move: Option<Placement>,
    /// Each `pass` declaration's conditions: the side to move may pass instead of
    /// moving when all the conditions of one of them hold.
    pub passes: Vec<Vec<Cond>>,
    /// `pass when-stuck`: a player with no legal move and a piece on the board passes.
    pub pass_when_stuck: bool,
    /// The start position string.
    pub setup: String,
}
