//! The abstract syntax tree of a `.var` file. Every node that a later stage can find
//! fault with carries the [`Span`] of its text, so diagnostics point at it exactly.

// A byte range of the source text: defined with the diagnostics, which point at it,
// below the syntax tree (the one-way order diagnostic → syntax → model → rules).
pub use crate::diagnostic::Span;

/// A value with the span of the text it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Self { node, span }
    }
}

pub type Name = Spanned<String>;

#[derive(Debug, Clone, Default)]
pub struct File {
    pub decls: Vec<Decl>,
}

#[derive(Debug, Clone)]
pub enum Decl {
    Game(Spanned<String>),
    Board(BoardDecl),
    Players(PlayersDecl),
    Param(ParamDecl),
    Zone(ZoneDecl),
    Terrain(TerrainDecl),
    Piece(PieceDecl),
    Castle(CastleDecl),
    End(EndDecl),
    Setup(Spanned<String>),
    /// The second player may take over the first player's side on their first turn.
    PieRule(Span),
    Flight(FlightDecl),
    Flip(FlipDecl),
    Drop(DropDecl),
    /// `gating in ZONE`: a piece leaving a gate of the zone may bring a piece from the
    /// hand onto the square it left.
    Gating(DropDecl),
    /// `counter NAME [= START]`: a per-player count and its value at the start (0
    /// unless given).
    Counter(Name, Option<Count>),
    /// The side to move may pass instead of moving, if every condition holds; with
    /// `when_stuck`, only when it has no other legal move.
    Pass {
        conditions: Vec<Spanned<Condition>>,
        when_stuck: bool,
        span: Span,
    },
    /// A legality rule: moves that break it are not made.
    Forbid(Spanned<Forbid>),
    /// Captured pieces go to the capturer's hand.
    CapturesToHand(Span),
    /// `must-capture`: when a capture is legal, only captures are.
    MustCapture(Span),
    /// `must-drop`: while a player holds pieces, placing one is their only move.
    MustDrop(Span),
    /// `castling-by-drop KING with PARTNER`: a placement that completes a castling's
    /// pair gives its right.
    CastlingByDrop {
        king: Name,
        partner: Name,
        span: Span,
    },
    /// `duple-check`: a player is in check only when all its royal pieces are
    /// attacked at once.
    DupleCheck(Span),
    /// `captures-explode [except PIECE ...]`: a capture removes the pieces around its
    /// target too, except those of the kinds named.
    CapturesExplode {
        spared: Vec<Name>,
        span: Span,
    },
    /// `on EVENT then EFFECTS`: what an event does beyond the move that caused it.
    On {
        event: Spanned<Event>,
        effects: Vec<Spanned<Effect>>,
        span: Span,
    },
}

/// Something a move may cause, which an `on` declaration gives effects to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The move leaves a royal piece of the opponent attacked.
    Check,
    /// Any move (its effects are a second part every move has).
    Move,
}

/// What a `forbid` declaration forbids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Forbid {
    /// Leaving a piece on a square from which none of its moves leads anywhere.
    DeadSquares,
    /// A drop of this piece that checkmates.
    MateByDrop(Name),
    /// A move that gives check.
    Check,
}

/// How a piece is written in position strings: its letter, and a mark for a
/// promoted form (`+P`) or a piece that remembers its promotion (`Q~`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mark {
    #[default]
    Plain,
    /// Written `+P`.
    Plus,
    /// Written `Q~`.
    Tilde,
}

/// A piece's letter with its mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Symbol {
    pub letter: char,
    pub mark: Mark,
}

impl Symbol {
    /// Reads `P`, `+P` or `Q~`.
    pub fn read(text: &str) -> Option<Symbol> {
        let mut chars = text.chars();
        let (mark, letter) = match (chars.next()?, chars.next(), chars.next()) {
            ('+', Some(l), None) => (Mark::Plus, l),
            (l, Some('~'), None) => (Mark::Tilde, l),
            (l, None, None) => (Mark::Plain, l),
            _ => return None,
        };
        Some(Symbol { letter, mark })
    }

    /// The symbol as written, with the letter in the given case.
    pub fn text(self, upper: bool) -> String {
        let l = if upper {
            self.letter.to_ascii_uppercase()
        } else {
            self.letter.to_ascii_lowercase()
        };
        match self.mark {
            Mark::Plain => l.to_string(),
            Mark::Plus => format!("+{l}"),
            Mark::Tilde => format!("{l}~"),
        }
    }
}

impl std::fmt::Display for Symbol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let upper = self.letter.is_ascii_uppercase();
        f.write_str(&self.text(upper))
    }
}

#[derive(Debug, Clone)]
pub struct BoardDecl {
    pub name: Option<Name>,
    /// Names for the squares, a1, b1, ... in order (for small side boards).
    pub squares: Vec<Name>,
    pub files: Spanned<i64>,
    pub ranks: Spanned<i64>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct PlayersDecl {
    pub first: Name,
    pub second: Name,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct ParamDecl {
    pub name: Name,
    pub value: Spanned<i64>,
    pub range: Option<(Spanned<i64>, Spanned<i64>)>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct ZoneDecl {
    pub name: Name,
    pub body: ZoneBody,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum ZoneBody {
    /// The same squares for both players.
    Shared(Region),
    /// Squares given per player.
    ByPlayer(Vec<(Name, Region)>),
}

pub type Region = Vec<Spanned<RegionTerm>>;

#[derive(Debug, Clone)]
pub enum RegionTerm {
    Rank(Count),
    Ranks(Count, Count),
    File(char),
    Files(char, char),
    All,
    Square(String),
    Zone(String),
    Board(String),
}

#[derive(Debug, Clone)]
pub struct FlightDecl {
    pub from: Region,
    pub to: Region,
    pub same_colour: bool,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct FlipDecl {
    pub player: Name,
    pub zone: Name,
    /// Flipping needs one's own piece of this kind in this zone.
    pub needs: Option<(Name, Name)>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct DropDecl {
    pub zone: Name,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    Passing,
    Landing,
    Nothing,
}

#[derive(Debug, Clone)]
pub struct TerrainDecl {
    pub name: Name,
    pub letter: Spanned<char>,
    pub blocks: Option<Vec<Spanned<BlockKind>>>,
    pub cleared_by: Vec<Name>,
    pub crossed_by: Vec<Name>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct PieceDecl {
    pub name: Name,
    pub letter: Spanned<Symbol>,
    /// The only player who has this piece, if one.
    pub owner: Option<Name>,
    /// The name shown to players, when it differs from the identifier.
    pub title: Option<Spanned<String>>,
    pub props: Vec<Spanned<PieceProp>>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum PieceProp {
    /// A Betza string (its span covers the text inside the quotes), with the
    /// conditions under which its moves may be made and what they do besides.
    Moves {
        /// The Betza string; for `moves in-place`, the keyword's text and span.
        betza: Spanned<String>,
        /// `moves in-place`: the piece stays on its square.
        in_place: bool,
        conditions: Vec<Spanned<Condition>>,
        effects: Vec<Spanned<Effect>>,
    },
    Royal,
    EnPassant,
    Promotes {
        when: PromoteWhen,
        zone: Name,
        to: Vec<Spanned<Symbol>>,
        /// The piece may also stay as it is.
        optional: bool,
        /// Only to kinds the player has fewer of than the setup gave.
        only_lost: bool,
        /// `capturing`: only on a move that captures (its span).
        capturing: Option<Span>,
    },
    /// Captured, it goes to the capturer's hand.
    CapturedToHand,
    /// `both-colours`: a player's pieces of this kind are placed on both colours.
    BothColours,
    /// Captured, it goes to the capturer's hand as this piece.
    InHandAs(Name),
    /// Where and when it may be placed from the hand.
    Drops {
        zone: Option<Name>,
        conditions: Vec<Spanned<Condition>>,
        effects: Vec<Spanned<Effect>>,
    },
    /// A copy of the piece, from an endless supply, onto an empty square next to one
    /// of its player's pieces of its kind.
    Clones {
        conditions: Vec<Spanned<Condition>>,
        effects: Vec<Spanned<Effect>>,
    },
    ResetsClock,
    Value(Spanned<i64>),
    Flies,
    FlipsTo(Name),
    ExitsFrom(Name),
    /// How the piece is drawn: a short text, for both players or one per player.
    Glyph(Glyph),
    /// One of the drawings varsand ships, by its name.
    Image(Name),
}

/// A piece's `glyph`: one text for both players, or one per player (each text's span
/// covers what is inside the quotes).
#[derive(Debug, Clone)]
pub enum Glyph {
    Shared(Spanned<String>),
    ByPlayer(Vec<(Name, Spanned<String>)>),
}

/// Which moves a promotion rule applies to, by their squares and its zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromoteWhen {
    /// `on`: moves that end in the zone.
    Arrives,
    /// `from`: moves that start in the zone.
    Leaves,
    /// `in`: moves that start or end in the zone.
    Touches,
}

#[derive(Debug, Clone)]
pub struct CastleDecl {
    pub player: Name,
    pub right: Spanned<char>,
    pub king_from: Name,
    pub king_to: Name,
    pub rook_from: Name,
    pub rook_to: Name,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct EndDecl {
    pub rules: Vec<EndRuleDecl>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct EndRuleDecl {
    pub condition: Spanned<EndCondition>,
    pub result: Spanned<GameResult>,
}

/// A number of the file that a parameter may stand for: `move-limit 50` or
/// `move-limit limit` (with `param limit = 50 in 10..100`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Count {
    Number(i64),
    Param(Name),
    /// `-NAME` (in an effect's change): the parameter's value, negated.
    Negated(Name),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndCondition {
    Checkmate,
    Stalemate,
    NoMoves,
    Repetition(Count),
    MoveLimit(Count),
    Captured(Name),
    Exited(Name),
    /// A piece of the kind stands in the zone; `with_reply`: the other player may
    /// answer the arrival (see `model::EndRule::Reached`).
    Reached {
        piece: Name,
        zone: Name,
        /// `unattacked`: only on a square no enemy piece attacks (its span).
        unattacked: Option<Span>,
        with_reply: bool,
    },
    /// The player has nothing but royal pieces left.
    BareKing,
    /// The two players' pieces of this kind face each other (one file or rank,
    /// nothing between).
    Facing(Name),
    /// The last N moves were passes.
    Passes(Count),
    /// The player's pieces (of the kind, or all of them), on the board and in hand,
    /// number so many.
    PiecesLeft {
        piece: Option<Name>,
        op: Compare,
        count: Count,
    },
    /// The player's counter compares so.
    Counter(Name, Compare, Count),
    /// Every square of the main board holds a piece.
    BoardFull,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Loss,
    Draw,
    /// `stalemate illegal`: a move that would cause it may not be made.
    Illegal,
    /// `by-count`: the player with more pieces on the board wins; as many draw.
    ByCount,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    Less,
    LessEq,
    Greater,
    GreaterEq,
    Equal,
    NotEqual,
}

impl Compare {
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Compare::Less => a < b,
            Compare::LessEq => a <= b,
            Compare::Greater => a > b,
            Compare::GreaterEq => a >= b,
            Compare::Equal => a == b,
            Compare::NotEqual => a != b,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// The moving piece's height compared with a number.
    Height(Compare, Count),
    /// The move ends strictly closer (straight-line distance) to the nearest piece of
    /// this kind, the enemy's or one's own.
    CloserTo { enemy: bool, piece: Name },
    /// The move starts in a zone.
    From(Name),
    /// The move ends in a zone.
    To(Name),
    /// The mover's counter compared with a number.
    Counter(Name, Compare, Count),
    /// No piece of this kind, the enemy's or one's own, on the file the move ends on
    /// (`no own PIECE on-file`), or fewer than `fewer` (`fewer-than N own PIECE
    /// on-file`).
    NoneOnFile {
        fewer: Option<Count>,
        enemy: bool,
        piece: Name,
    },
    /// The move captures a piece of this kind (`captures PIECE`), or does not
    /// (`not captures PIECE`, `unless captures PIECE`).
    Captures { piece: Name, negated: bool },
    /// The hop's screen is a piece of this kind (`over PIECE`), or is not.
    Over { piece: Name, negated: bool },
    /// The mover is in check before the move (`in-check`), or is not (`unless
    /// in-check`).
    InCheck { negated: bool },
    /// The move turns at least one enemy piece by a `convert` effect of its line.
    Converts,
    /// Fewer than `fewer` (1 for `no`) pieces of this kind, the enemy's or one's own,
    /// stand on the board (`no own PIECE`, `fewer-than N own PIECE`).
    CountOnBoard {
        fewer: Option<Count>,
        enemy: bool,
        piece: Name,
    },
    /// Once made, the move leaves a royal piece of the opponent attacked (`checking`),
    /// or does not (`unless checking`).
    Checking { negated: bool },
    /// Once made, the piece attacks a piece of the opponent from where it landed
    /// (`attacking`), or attacks none (`unless attacking`).
    Attacking { negated: bool },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// A new piece of this kind, the mover's, stands on the square left.
    Leave(Name),
    /// The moving piece's height changes by this much.
    Height(Count),
    /// The piece captures without moving (a rifle capture).
    Stay,
    /// The mover's counter changes by this much.
    Counter(Name, Count),
    /// Enemy pieces turn to the mover's side (see [`Convert`]).
    Convert(Convert),
    /// A second part: the mover puts the terrain on an empty square; `lift`: the one
    /// on the board moves there (`move duck`), else a new one (`place arrow`);
    /// `along`: a Betza move from where the piece landed that reaches the square.
    Place {
        terrain: Name,
        lift: bool,
        along: Option<Spanned<String>>,
    },
    /// The piece turns into this kind where it lands.
    Becomes(Name),
}

/// Which enemy pieces a `convert` effect turns to the mover's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Convert {
    /// Those enclosed on a straight line (orthogonal or diagonal) between the square
    /// the move ends on and another piece of the mover's, with no gap.
    Enclosed,
    /// Those on the squares next to the one the move ends on (a king's step away).
    Adjacent,
}
