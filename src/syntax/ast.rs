//! The abstract syntax tree of a `.var` file. Every node that a later stage can find
//! fault with carries the [`Span`] of its text, so diagnostics point at it exactly.

/// A byte range in the source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Self { start, end }
    }
    pub fn len(&self) -> usize {
        self.end - self.start
    }
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
    /// A sub-range of this span, `offset` bytes in and `len` long.
    pub fn sub(&self, offset: usize, len: usize) -> Self {
        let start = (self.start + offset).min(self.end);
        Self::new(start, (start + len).min(self.end.max(start + len)))
    }
}

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
}

#[derive(Debug, Clone)]
pub struct BoardDecl {
    pub name: Option<Name>,
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
    Rank(i64),
    Ranks(i64, i64),
    File(char),
    Files(char, char),
    All,
    Square(String),
    Zone(String),
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
    pub letter: Spanned<char>,
    pub props: Vec<Spanned<PieceProp>>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum PieceProp {
    /// A Betza string; the span covers the text inside the quotes.
    Moves(Spanned<String>),
    Royal,
    EnPassant,
    Promotes { zone: Name, to: Vec<Spanned<char>> },
    ResetsClock,
    Value(Spanned<i64>),
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

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndCondition {
    Checkmate,
    Stalemate,
    NoMoves,
    Repetition(i64),
    MoveLimit(i64),
    Captured(Name),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Loss,
    Draw,
}
