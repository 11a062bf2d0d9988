//! Declaration names and symbol tables: the first pass over the declarations, the
//! players, the piece names, and the [`Scope`] later passes resolve names in.

use std::collections::HashMap;
use std::ops::RangeInclusive;

use indexmap::IndexMap;

use super::suggest::{did_you_mean, player_names};
use super::{Checker, boards, moves, setup};
use crate::diagnostic::{Problem, ProblemCode, closest};
use crate::ids::Side;
use crate::model::{
    CounterId, Geometry, MAX_COUNTER, MAX_PIECE_TYPES, Param, PieceKind, Player, Zone, ZoneId,
};
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
            Decl::Counter(c, _) => counter(ck, c, &mut out.counters),
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

/// Each counter's start per player (`counter NAME = START`, 0 without one): a
/// parameter's name reads each player's own value first. A start outside the
/// counters' range is reported (and read as 0).
pub(crate) fn counter_starts(ck: &mut Checker, file: &File, scope: &Scope) -> Vec<[i64; 2]> {
    const START: Valid = Valid::new(-MAX_COUNTER..=MAX_COUNTER, "a counter's start");
    let mut starts = vec![[0; 2]; scope.counters.len()];
    let mut seen = vec![false; scope.counters.len()];
    for d in &file.decls {
        let Decl::Counter(name, start) = d else {
            continue;
        };
        let Some(i) = scope.counters.iter().position(|c| *c == name.node) else {
            continue;
        };
        // A second declaration of the name was reported by the first pass.
        let (Some(start), false) = (start, std::mem::replace(&mut seen[i], true)) else {
            continue;
        };
        for (side, value) in Side::BOTH.into_iter().zip(starts[i].iter_mut()) {
            let Some(v) = scope.resolve_count(ck, start, Some(side), &START) else {
                break;
            };
            if START.range.contains(&v) {
                *value = v;
            } else {
                ck.report(
                    Problem::new(
                        ProblemCode::CounterChange,
                        name.span,
                        format!("counter `{}` would start at {v}", name.node),
                    )
                    .label("out of range")
                    .help(format!("counters run from -{MAX_COUNTER} to {MAX_COUNTER}")),
                );
                break;
            }
        }
    }
    starts
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
    /// The terrains' names, in the order of their declarations (their indices).
    pub terrains: Vec<String>,
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

    /// A number of the file, or the value of the parameter that stands for it: see
    /// [`Params::count`].
    pub fn resolve_count(
        &self,
        ck: &mut Checker,
        c: &Count,
        side: Option<Side>,
        valid: &Valid,
    ) -> Option<i64> {
        self.param_values().count(ck, c, side, valid)
    }

    /// The parameters, as [`Params`].
    pub fn param_values(&self) -> Params<'_> {
        Params {
            values: &self.params,
            players: &self.players,
        }
    }

    pub fn resolve_zone(&self, ck: &mut Checker, z: &Name) -> Option<ZoneId> {
        let names = self.zones.iter().map(|x| x.name.as_str());
        resolve_named(ck, z, names, ProblemCode::UnknownZone, "zone").map(ZoneId::new)
    }

    /// A terrain by name: its index.
    pub fn resolve_terrain(&self, ck: &mut Checker, t: &Name) -> Option<usize> {
        let names = self.terrains.iter().map(String::as_str);
        resolve_named(ck, t, names, ProblemCode::UnknownTerrain, "terrain")
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

/// What a number a parameter may stand for must be: the values it may take and, for
/// the message, what it is ("a rank").
pub(crate) struct Valid {
    pub range: RangeInclusive<i64>,
    pub what: &'static str,
}

impl Valid {
    pub const fn new(range: RangeInclusive<i64>, what: &'static str) -> Self {
        Valid { range, what }
    }
}

/// The parameters with the command line's values (a per-player one under
/// `PLAYER.NAME`), and the players: what a number of the file may name.
#[derive(Clone, Copy)]
pub(crate) struct Params<'a> {
    pub values: &'a IndexMap<String, Param>,
    pub players: &'a [Player; 2],
}

impl Params<'_> {
    /// A number of the file, or the value of the parameter that stands for it. A number
    /// that belongs to one player (`side`) reads that player's own value first
    /// (`--set white.NAME=V`); one both players share reads the common value, and a
    /// per-player value of its parameter is an error (it could not apply). A declared
    /// range that reaches outside `valid` is a warning (some values a user may set
    /// would be refused); the value itself is the caller's to check, as it checks a
    /// number written out.
    pub fn count(
        &self,
        ck: &mut Checker,
        c: &Count,
        side: Option<Side>,
        valid: &Valid,
    ) -> Option<i64> {
        let (name, negated) = match c {
            Count::Number(n) => return Some(*n),
            Count::Param(name) => (name, false),
            Count::Negated(name) => (name, true),
        };
        let Some(common) = self.values.get(&name.node) else {
            ck.report(
                Problem::new(
                    ProblemCode::UnknownParam,
                    name.span,
                    format!("no parameter is named `{}`", name.node),
                )
                .label("a number or a parameter")
                .help(did_you_mean(
                    &name.node,
                    self.values
                        .keys()
                        .filter(|k| !k.contains('.'))
                        .map(String::as_str),
                    "parameter",
                )),
            );
            return None;
        };
        let own = |s: Side| {
            self.values
                .get(&format!("{}.{}", self.players[s].name, name.node))
        };
        let param = match side {
            Some(s) => own(s).unwrap_or(common),
            None => {
                if let Some(s) = Side::BOTH.into_iter().find(|&s| own(s).is_some()) {
                    ck.report(
                        Problem::new(
                            ProblemCode::ParamPerPlayer,
                            name.span,
                            format!(
                                "`{}` is set for {} alone, but here it stands for {}, which both players share",
                                name.node, self.players[s].name, valid.what
                            ),
                        )
                        .label("the same for both players")
                        .help(format!(
                            "set it for both (`--set {}=VALUE`), or give each player a parameter of its own",
                            name.node
                        )),
                    );
                    return None;
                }
                common
            }
        };
        let sign = if negated { -1 } else { 1 };
        let declared = (param.min, param.max) != (i64::MIN, i64::MAX);
        let (lo, hi) = if negated {
            (param.max.saturating_neg(), param.min.saturating_neg())
        } else {
            (param.min, param.max)
        };
        if declared && !(valid.range.contains(&lo) && valid.range.contains(&hi)) {
            ck.report(
                Problem::new(
                    ProblemCode::ParamRange,
                    name.span,
                    format!(
                        "`{}` may be set to {}..{}, but {} lies within {}..{}",
                        name.node,
                        param.min,
                        param.max,
                        valid.what,
                        valid.range.start(),
                        valid.range.end()
                    ),
                )
                .label("some values of the range do not fit here")
                .help(format!(
                    "narrow the range in the parameter's `param {} = ... in LOW..HIGH`",
                    name.node
                ))
                .warning(),
            );
        }
        Some(param.value.saturating_mul(sign))
    }
}

/// The index of the player named `n`, or a reported problem.
/// The index of `n` among `names` (zones, terrains), or a `code` problem with the
/// closest name.
fn resolve_named<'a>(
    ck: &mut Checker,
    n: &Name,
    names: impl Iterator<Item = &'a str> + Clone,
    code: ProblemCode,
    what: &str,
) -> Option<usize> {
    let found = names.clone().position(|x| x == n.node);
    if found.is_none() {
        ck.report(
            Problem::new(code, n.span, format!("no {what} is named `{}`", n.node))
                .label(format!("unknown {what}"))
                .help(did_you_mean(&n.node, names, what)),
        );
    }
    found
}

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
