//! Declaration names and symbol tables: the first pass over the declarations, the
//! players, the piece names, and the [`Scope`] later passes resolve names in.

use std::collections::HashMap;

use indexmap::IndexMap;

use super::suggest::{did_you_mean, player_names};
use super::{Checker, boards, moves, setup};
use crate::diagnostic::{Problem, ProblemCode, closest};
use crate::model::{CounterId, Geometry, MAX_PIECE_TYPES, Param, PieceKind, Player, Zone, ZoneId};
use crate::syntax::ast::{Count, Decl, File, Name, PieceDecl, PlayersDecl, Spanned};

/// What the first pass reads, in declaration order.
pub(crate) struct Declarations<'a> {
    pub name: Option<String>,
    pub geometry: Geometry,
    pub players: Option<&'a PlayersDecl>,
    pub params: IndexMap<String, Param>,
    pub setups: Vec<&'a Spanned<String>>,
    pub pie_rule: bool,
    pub counters: Vec<String>,
}

/// The first pass: game name, boards, players, parameters, setups, counters and the
/// pie rule, each problem in declaration order.
pub(crate) fn declarations<'a>(ck: &mut Checker, file: &'a File) -> Declarations<'a> {
    let mut out = Declarations {
        name: None,
        geometry: Geometry::default(),
        players: None,
        params: IndexMap::new(),
        setups: Vec::new(),
        pie_rule: false,
        counters: Vec::new(),
    };
    let mut board_seen = false;
    for d in &file.decls {
        match d {
            Decl::Game(g) => {
                if out.name.is_some() {
                    ck.report(
                        Problem::new(
                            ProblemCode::DuplicateGame,
                            g.span,
                            "the game is named twice",
                        )
                        .help("keep one `game` line"),
                    );
                }
                out.name = Some(g.node.clone());
            }
            Decl::Board(b) => {
                boards::board(ck, b, &mut out.geometry, board_seen);
                board_seen = true;
            }
            Decl::Players(p) if out.players.is_some() => ck.report(
                Problem::new(
                    ProblemCode::DuplicatePlayers,
                    p.span,
                    "the players are declared twice",
                )
                .help("keep one `players` line"),
            ),
            Decl::Players(p) => out.players = Some(p),
            Decl::Param(p) => setup::param(ck, p, &mut out.params),
            Decl::Setup(s) => out.setups.push(s),
            Decl::Counter(c) => counter(ck, c, &mut out.counters),
            Decl::PieRule(span) => moves::pie_rule(ck, *span, &mut out.pie_rule),
            _ => {}
        }
    }
    if !board_seen {
        ck.report(
            Problem::new(
                ProblemCode::NoBoard,
                ck.end_of_file,
                "the file declares no board",
            )
            .label("expected a board declaration")
            .help("add `board 8 x 8` (files x ranks)"),
        );
    }
    out
}

fn counter(ck: &mut Checker, c: &Name, counters: &mut Vec<String>) {
    if counters.contains(&c.node) {
        ck.report(
            Problem::new(
                ProblemCode::DuplicateCounter,
                c.span,
                format!("counter `{}` is declared twice", c.node),
            )
            .help("keep one `counter` line"),
        );
    } else if counters.len() == MAX_COUNTERS {
        ck.report(
            Problem::new(
                ProblemCode::TooManyCounters,
                c.span,
                format!("a game has at most {MAX_COUNTERS} counters"),
            )
            .help("count several things in one counter, or drop one"),
        );
    } else {
        counters.push(c.node.clone());
    }
}

/// The most counters a game may declare.
pub(crate) const MAX_COUNTERS: usize = 64;

/// The two players, as declared or white and black.
pub(crate) fn players(ck: &mut Checker, decl: Option<&PlayersDecl>) -> [Player; 2] {
    let Some(p) = decl else {
        return [
            Player {
                name: "white".into(),
                letter: 'w',
            },
            Player {
                name: "black".into(),
                letter: 'b',
            },
        ];
    };
    let letter = |n: &Name, default| {
        n.node
            .chars()
            .next()
            .unwrap_or(default)
            .to_ascii_lowercase()
    };
    let (a, b) = (letter(&p.first, 'w'), letter(&p.second, 'b'));
    if a == b {
        ck.report(
            Problem::new(ProblemCode::PlayersLetter, p.second.span, "the two players' names start with the same letter")
                .label("starts like the first player")
                .help("a position string names the side to move by its first letter: pick names such as white and black"),
        );
    }
    [
        Player {
            name: p.first.node.clone(),
            letter: a,
        },
        Player {
            name: p.second.node.clone(),
            letter: b,
        },
    ]
}

/// The piece declarations, one per name (at most [`MAX_PIECE_TYPES`]), and their
/// indices by name: pieces may refer to each other in any order.
pub(crate) struct PieceNames<'a> {
    pub index: HashMap<&'a str, usize>,
    pub decls: Vec<&'a PieceDecl>,
}

pub(crate) fn piece_names<'a>(ck: &mut Checker, file: &'a File) -> PieceNames<'a> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut decls: Vec<&PieceDecl> = Vec::new();
    for d in &file.decls {
        let Decl::Piece(p) = d else { continue };
        if index.contains_key(p.name.node.as_str()) {
            ck.report(
                Problem::new(
                    ProblemCode::DuplicatePiece,
                    p.name.span,
                    format!("piece `{}` is declared twice", p.name.node),
                )
                .help("rename one of them"),
            );
            continue;
        }
        index.insert(&p.name.node, decls.len());
        decls.push(p);
    }
    if decls.len() > MAX_PIECE_TYPES {
        ck.report(Problem::new(
            ProblemCode::TooManyPieces,
            decls[MAX_PIECE_TYPES].span,
            format!("at most {MAX_PIECE_TYPES} piece types"),
        ));
        decls.truncate(MAX_PIECE_TYPES);
    }
    PieceNames { index, decls }
}

/// Everything a name in a piece, movement or end rule may refer to.
pub(crate) struct Scope<'a> {
    pub geometry: Geometry,
    pub players: [Player; 2],
    pub pieces: PieceNames<'a>,
    pub zones: Vec<Zone>,
    pub counters: Vec<String>,
    /// The parameters, with the command line's values: what a count may name.
    pub params: IndexMap<String, Param>,
}

impl Scope<'_> {
    pub fn resolve_player(&self, ck: &mut Checker, n: &Name) -> Option<usize> {
        resolve_player(ck, &self.players, n)
    }

    pub fn resolve_piece(&self, ck: &mut Checker, n: &Name) -> Option<PieceKind> {
        match self.pieces.index.get(n.node.as_str()) {
            Some(&i) if i < MAX_PIECE_TYPES => Some(PieceKind::new(i)),
            _ => {
                ck.report(
                    Problem::new(
                        ProblemCode::UnknownPiece,
                        n.span,
                        format!("no piece is named `{}`", n.node),
                    )
                    .label("unknown piece")
                    .help(did_you_mean(
                        &n.node,
                        self.pieces.decls.iter().map(|p| p.name.node.as_str()),
                        "piece",
                    )),
                );
                None
            }
        }
    }

    /// A number of the file, or the value of the parameter that stands for it (the
    /// common value: a per-player one is for setups).
    pub fn resolve_count(&self, ck: &mut Checker, c: &Count) -> Option<i64> {
        match c {
            Count::Number(n) => Some(*n),
            Count::Param(name) => {
                let found = self.params.get(&name.node).map(|p| p.value);
                if found.is_none() {
                    ck.report(
                        Problem::new(
                            ProblemCode::UnknownParam,
                            name.span,
                            format!("no parameter is named `{}`", name.node),
                        )
                        .label("a number or a parameter")
                        .help(did_you_mean(
                            &name.node,
                            self.params
                                .keys()
                                .filter(|k| !k.contains('.'))
                                .map(String::as_str),
                            "parameter",
                        )),
                    );
                }
                found
            }
        }
    }

    pub fn resolve_zone(&self, ck: &mut Checker, z: &Name) -> Option<ZoneId> {
        let found = self.zones.iter().position(|x| x.name == z.node);
        if found.is_none() {
            ck.report(
                Problem::new(
                    ProblemCode::UnknownZone,
                    z.span,
                    format!("no zone is named `{}`", z.node),
                )
                .label("unknown zone")
                .help(did_you_mean(
                    &z.node,
                    self.zones.iter().map(|x| x.name.as_str()),
                    "zone",
                )),
            );
        }
        found.map(ZoneId::new)
    }

    pub fn resolve_counter(&self, ck: &mut Checker, c: &Name) -> Option<CounterId> {
        let found = self.counters.iter().position(|x| *x == c.node);
        if found.is_none() {
            ck.report(
                Problem::new(
                    ProblemCode::UnknownCounter,
                    c.span,
                    format!("no counter is named `{}`", c.node),
                )
                .label("unknown counter")
                .help(
                    match closest(
                        &c.node,
                        self.counters.iter().map(std::string::String::as_str),
                    ) {
                        Some(x) => format!("did you mean `{x}`?"),
                        None => format!("declare it: `counter {}`", c.node),
                    },
                ),
            );
        }
        found.map(CounterId::new)
    }
}

/// The index of the player named `n`, or a reported problem.
pub(crate) fn resolve_player(ck: &mut Checker, players: &[Player; 2], n: &Name) -> Option<usize> {
    let found = players.iter().position(|p| p.name == n.node);
    if found.is_none() {
        ck.report(
            Problem::new(
                ProblemCode::UnknownPlayer,
                n.span,
                format!("no player is named `{}`", n.node),
            )
            .label("unknown player")
            .help(did_you_mean(&n.node, player_names(players), "player")),
        );
    }
    found
}
