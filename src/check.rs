//! Stage 2: semantic checks. Resolves every name in the syntax tree, reports every
//! problem at once with its span and a help line, and builds the [`Rules`].

use std::collections::HashMap;

use indexmap::IndexMap;

use crate::diagnostic::{Problem, closest};
use crate::engine::Position;
use crate::model::Effect as RulesEffect;
use crate::model::{
    Castling, Component, Cond, EndRule, Flight, FlipRule, Game, Geometry, MAX_PIECE_TYPES, Outcome,
    Param, Piece, Player, Promotion, Terrain, Zone,
};
use crate::rules::Rules;
use crate::syntax::ast::*;
use crate::syntax::{self, betza};

/// Parameter overrides given by the user (`--set height=30`, `--set white.height=24`).
pub type Overrides = IndexMap<String, i64>;

/// Parses and checks a rule file: the compiled rules, or every problem found.
pub fn load(source: &str, overrides: &Overrides) -> Result<Rules, Vec<Problem>> {
    let file = syntax::parse(source)?;
    check(&file, source, overrides)
}

struct Checker<'a> {
    problems: Vec<Problem>,
    /// Every zone the file declares, to tell "declared later" from "not declared".
    zone_names: Vec<String>,
    source: &'a str,
}

impl Checker<'_> {
    fn report(&mut self, p: Problem) {
        self.problems.push(p);
    }
}

fn outcome(r: GameResult) -> Outcome {
    match r {
        GameResult::Win => Outcome::Win,
        GameResult::Loss => Outcome::Loss,
        // `illegal` applies only to stalemate, where it is read separately.
        GameResult::Draw | GameResult::Illegal => Outcome::Draw,
    }
}

fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    what: &str,
) -> String {
    let candidates: Vec<&str> = candidates.into_iter().collect();
    match closest(name, candidates.iter().copied()) {
        Some(c) => format!("did you mean `{c}`?"),
        None if candidates.is_empty() => format!("no {what} is declared yet"),
        None => format!(
            "declared {what}s: {}",
            crate::diagnostic::list_candidates(candidates)
        ),
    }
}

/// Checks a parsed file and compiles it.
pub fn check(file: &File, source: &str, overrides: &Overrides) -> Result<Rules, Vec<Problem>> {
    let zone_names = file
        .decls
        .iter()
        .filter_map(|d| {
            if let Decl::Zone(z) = d {
                Some(z.name.node.clone())
            } else {
                None
            }
        })
        .collect();
    let mut ck = Checker {
        problems: Vec::new(),
        zone_names,
        source,
    };
    let end_of_file = Span::new(source.len(), source.len());

    // ---- game, board, players, params -------------------------------------------
    let mut name = None;
    let mut geometry = Geometry::default();
    let mut board_span = None;
    let mut players_decl: Option<&PlayersDecl> = None;
    let mut params: IndexMap<String, Param> = IndexMap::new();
    let mut setups: Vec<&Spanned<String>> = Vec::new();
    let mut pie_rule = false;
    let mut counters: Vec<String> = Vec::new();
    for d in &file.decls {
        match d {
            Decl::Game(g) => {
                if name.is_some() {
                    ck.report(
                        Problem::new("varsand::duplicate-game", g.span, "the game is named twice")
                            .help("keep one `game` line"),
                    );
                }
                name = Some(g.node.clone());
            }
            Decl::Board(b) => {
                let mut ok = true;
                for (v, what, max) in [(&b.files, "files", 26), (&b.ranks, "ranks", 99)] {
                    if v.node < 1 || v.node > max {
                        ck.report(
                            Problem::new("varsand::board-size", v.span, format!("a board has 1 to {max} {what}, not {}", v.node))
                                .label("out of range")
                                .help("files are named a..z and ranks 1..99: a board has at most 26 files and 99 ranks"),
                        );
                        ok = false;
                    }
                }
                let cells = b.files.node.max(0).saturating_mul(b.ranks.node.max(0)) as usize;
                if ok && !b.squares.is_empty() && b.squares.len() != cells {
                    ck.report(
                        Problem::new(
                            "varsand::square-names",
                            b.span,
                            format!(
                                "{} square names for a board of {cells} squares",
                                b.squares.len()
                            ),
                        )
                        .help("name every square, in the order a1, b1, ..., a2, ..."),
                    );
                }
                for sq in &b.squares {
                    if geometry.parse_square(&sq.node).is_some()
                        || b.squares.iter().filter(|x| x.node == sq.node).count() > 1
                    {
                        ck.report(
                            Problem::new(
                                "varsand::duplicate-square",
                                sq.span,
                                format!("square name `{}` is used twice", sq.node),
                            )
                            .label("named already")
                            .help("every square of every board needs its own name"),
                        );
                        ok = false;
                    }
                }
                let bname = b
                    .name
                    .as_ref()
                    .map(|n| n.node.clone())
                    .unwrap_or_else(|| format!("board{}", geometry.boards.len() + 1));
                if let Some(n) = &b.name
                    && geometry.boards.iter().any(|x| x.name == n.node)
                {
                    ck.report(
                        Problem::new(
                            "varsand::duplicate-board",
                            n.span,
                            format!("board `{}` is declared twice", n.node),
                        )
                        .help("give each board its own name"),
                    );
                    ok = false;
                }
                if board_span.is_some() && b.name.is_none() {
                    ck.report(
                        Problem::new("varsand::board-name", b.span, "a side board needs a name")
                            .help("write `board NAME FILES x RANKS`, such as `board cloud 2 x 1 squares c1 c2`"),
                    );
                    ok = false;
                }
                if board_span.is_none() {
                    board_span = Some(b.span);
                }
                if ok {
                    let names: Vec<String> = b.squares.iter().map(|s| s.node.clone()).collect();
                    geometry.add_board(
                        &bname,
                        b.files.node as usize,
                        b.ranks.node as usize,
                        &names,
                    );
                }
            }
            Decl::Players(p) => {
                if players_decl.is_some() {
                    ck.report(
                        Problem::new(
                            "varsand::duplicate-players",
                            p.span,
                            "the players are declared twice",
                        )
                        .help("keep one `players` line"),
                    );
                    continue;
                }
                players_decl = Some(p);
            }
            Decl::Param(p) => {
                if params.contains_key(&p.name.node) {
                    ck.report(
                        Problem::new(
                            "varsand::duplicate-param",
                            p.name.span,
                            format!("parameter `{}` is declared twice", p.name.node),
                        )
                        .help("give each parameter one `param` line"),
                    );
                    continue;
                }
                let (min, max) = p
                    .range
                    .as_ref()
                    .map(|(a, b)| (a.node, b.node))
                    .unwrap_or((i64::MIN, i64::MAX));
                if min > max {
                    let span = p
                        .range
                        .as_ref()
                        .map(|(a, b)| Span::new(a.span.start, b.span.end))
                        .unwrap_or(p.span);
                    ck.report(
                        Problem::new(
                            "varsand::param-range",
                            span,
                            format!("the range {min}..{max} is empty"),
                        )
                        .label("high before low")
                        .help(format!("write the low end first: in {max}..{min}")),
                    );
                } else if p.value.node < min || p.value.node > max {
                    ck.report(
                        Problem::new(
                            "varsand::param-range",
                            p.value.span,
                            format!("the default {} lies outside {min}..{max}", p.value.node),
                        )
                        .help("choose a default inside the range"),
                    );
                }
                params.insert(
                    p.name.node.clone(),
                    Param {
                        value: p.value.node,
                        min,
                        max,
                    },
                );
            }
            Decl::Setup(s) => setups.push(s),
            Decl::Counter(c) => {
                if counters.contains(&c.node) {
                    ck.report(
                        Problem::new(
                            "varsand::duplicate-counter",
                            c.span,
                            format!("counter `{}` is declared twice", c.node),
                        )
                        .help("keep one `counter` line"),
                    );
                } else {
                    counters.push(c.node.clone());
                }
            }
            Decl::PieRule(span) => {
                if pie_rule {
                    ck.report(
                        Problem::new(
                            "varsand::duplicate-pie-rule",
                            *span,
                            "the pie rule is declared twice",
                        )
                        .help("keep one `pie-rule` line"),
                    );
                }
                pie_rule = true;
            }
            _ => {}
        }
    }
    if board_span.is_none() {
        ck.report(
            Problem::new(
                "varsand::no-board",
                end_of_file,
                "the file declares no board",
            )
            .label("expected a board declaration")
            .help("add `board 8 x 8` (files x ranks)"),
        );
    }
    let players: [Player; 2] = match players_decl {
        Some(p) => {
            let a = p
                .first
                .node
                .chars()
                .next()
                .unwrap_or('w')
                .to_ascii_lowercase();
            let b = p
                .second
                .node
                .chars()
                .next()
                .unwrap_or('b')
                .to_ascii_lowercase();
            if a == b {
                ck.report(
                    Problem::new("varsand::players-letter", p.second.span, "the two players' names start with the same letter")
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
        None => [
            Player {
                name: "white".into(),
                letter: 'w',
            },
            Player {
                name: "black".into(),
                letter: 'b',
            },
        ],
    };
    let player_index = |n: &str| players.iter().position(|p| p.name == n);
    let player_names = || players.iter().map(|p| p.name.as_str()).collect::<Vec<_>>();

    // Apply overrides: `name=v` or `player.name=v` (the latter read by setups).
    let mut per_player = Vec::new();
    for (key, value) in overrides {
        let base = key.rsplit('.').next().unwrap_or(key);
        if let Some((player, _)) = key.split_once('.') {
            if player_index(player).is_none() {
                ck.report(
                    Problem::new(
                        "varsand::unknown-player",
                        end_of_file,
                        format!("--set {key}: no player is named `{player}`"),
                    )
                    .help(did_you_mean(player, player_names(), "player")),
                );
                continue;
            }
            per_player.push((key.clone(), *value));
        }
        match params.get_mut(base) {
            Some(p) if *value < p.min || *value > p.max => ck.report(
                Problem::new(
                    "varsand::param-range",
                    end_of_file,
                    format!("--set {key}={value} is outside {}..{}", p.min, p.max),
                )
                .help("choose a value inside the parameter's range"),
            ),
            Some(p) => {
                if base == key {
                    p.value = *value;
                }
            }
            None => ck.report(
                Problem::new(
                    "varsand::unknown-param",
                    end_of_file,
                    format!("--set names `{key}`, which this file does not declare"),
                )
                .help(did_you_mean(
                    base,
                    params.keys().map(|s| s.as_str()),
                    "parameter",
                )),
            ),
        }
    }

    for (key, value) in per_player {
        if let Some(p) = params.get(key.rsplit('.').next().unwrap_or(&key)).cloned() {
            params.insert(key, Param { value, ..p });
        }
    }

    // ---- names first, so declarations may refer to each other in any order -------
    let mut piece_names: HashMap<&str, usize> = HashMap::new();
    let mut piece_decls: Vec<&PieceDecl> = Vec::new();
    for d in &file.decls {
        if let Decl::Piece(p) = d {
            if piece_names.contains_key(p.name.node.as_str()) {
                ck.report(
                    Problem::new(
                        "varsand::duplicate-piece",
                        p.name.span,
                        format!("piece `{}` is declared twice", p.name.node),
                    )
                    .help("rename one of them"),
                );
                continue;
            }
            piece_names.insert(&p.name.node, piece_decls.len());
            piece_decls.push(p);
        }
    }
    if piece_decls.len() > MAX_PIECE_TYPES {
        ck.report(Problem::new(
            "varsand::too-many-pieces",
            piece_decls[MAX_PIECE_TYPES].span,
            format!("at most {MAX_PIECE_TYPES} piece types"),
        ));
        piece_decls.truncate(MAX_PIECE_TYPES);
    }
    let resolve_piece = |ck: &mut Checker, n: &Name| -> Option<usize> {
        match piece_names.get(n.node.as_str()) {
            Some(&i) if i < MAX_PIECE_TYPES => Some(i),
            _ => {
                ck.report(
                    Problem::new(
                        "varsand::unknown-piece",
                        n.span,
                        format!("no piece is named `{}`", n.node),
                    )
                    .label("unknown piece")
                    .help(did_you_mean(
                        &n.node,
                        piece_decls.iter().map(|p| p.name.node.as_str()),
                        "piece",
                    )),
                );
                None
            }
        }
    };

    // ---- zones --------------------------------------------------------------------
    let n = geometry.len();
    let mut zones: Vec<Zone> = Vec::new();
    for d in &file.decls {
        let Decl::Zone(z) = d else { continue };
        if zones.iter().any(|x| x.name == z.name.node) {
            ck.report(
                Problem::new(
                    "varsand::duplicate-zone",
                    z.name.span,
                    format!("zone `{}` is declared twice", z.name.node),
                )
                .help("rename one of them"),
            );
            continue;
        }
        let mut cells = [vec![false; n], vec![false; n]];
        match &z.body {
            ZoneBody::Shared(region) => {
                let set = region_cells(&mut ck, region, &geometry, &zones, None);
                cells = [set.clone(), set];
            }
            ZoneBody::ByPlayer(list) => {
                for (player, region) in list {
                    match player_index(&player.node) {
                        Some(side) => {
                            cells[side] =
                                region_cells(&mut ck, region, &geometry, &zones, Some(side))
                        }
                        None => ck.report(
                            Problem::new(
                                "varsand::unknown-player",
                                player.span,
                                format!("no player is named `{}`", player.node),
                            )
                            .label("unknown player")
                            .help(did_you_mean(
                                &player.node,
                                player_names(),
                                "player",
                            )),
                        ),
                    }
                }
            }
        }
        zones.push(Zone {
            name: z.name.node.clone(),
            cells,
        });
    }

    // ---- pieces -------------------------------------------------------------------
    let mut pieces: Vec<Piece> = Vec::new();
    // Letters are unique per player, whatever their case (a piece owned by one player
    // shares letters only with the pieces that player has).
    let mut letters: [HashMap<char, &Name>; 2] = [HashMap::new(), HashMap::new()];
    for p in &piece_decls {
        let owner = match &p.owner {
            None => None,
            Some(o) => match player_index(&o.node) {
                Some(i) => Some(i),
                None => {
                    ck.report(
                        Problem::new(
                            "varsand::unknown-player",
                            o.span,
                            format!("no player is named `{}`", o.node),
                        )
                        .label("unknown player")
                        .help(did_you_mean(
                            &o.node,
                            player_names(),
                            "player",
                        )),
                    );
                    None
                }
            },
        };
        let letter = p.letter.node;
        if !letter.is_ascii_alphabetic() {
            ck.report(
                Problem::new(
                    "varsand::piece-letter",
                    p.letter.span,
                    format!("a piece letter must be a letter A-Z, not `{letter}`"),
                )
                .help("upper case shows the first player's pieces, lower case the second's"),
            );
        }
        let up = letter.to_ascii_uppercase();
        let sides: Vec<usize> = match owner {
            Some(o) => vec![o],
            None => vec![0, 1],
        };
        if let Some(other) = sides.iter().find_map(|&s| letters[s].get(&up)) {
            ck.report(
                Problem::new(
                    "varsand::duplicate-letter",
                    p.letter.span,
                    format!("letter `{up}` is already used by `{}`", other.node),
                )
                .label("used twice")
                .help("each piece needs its own letter, whatever its case"),
            );
        } else {
            for &s in &sides {
                letters[s].insert(up, &p.name);
            }
        }
        if let Some(o) = owner {
            let expected = if o == 0 {
                letter.to_ascii_uppercase()
            } else {
                letter.to_ascii_lowercase()
            };
            if letter != expected {
                ck.report(
                    Problem::new(
                        "varsand::owner-letter-case",
                        p.letter.span,
                        format!(
                            "a piece of {} is written `{expected}`, not `{letter}`",
                            players[o].name
                        ),
                    )
                    .help("the first player's pieces are upper case, the second's lower case"),
                );
            }
        }
        let mut piece = Piece {
            name: p
                .title
                .as_ref()
                .map(|t| t.node.clone())
                .unwrap_or_else(|| p.name.node.clone()),
            letter: up,
            royal: false,
            en_passant: false,
            resets_clock: false,
            value: None,
            betza: String::new(),
            components: Vec::new(),
            promotion: None,
            owner,
            flies: false,
            flips_to: None,
            exits_from: None,
        };
        for prop in &p.props {
            match &prop.node {
                PieceProp::Moves {
                    betza: s,
                    conditions,
                    effects,
                } => match betza::parse(&s.node) {
                    Ok(moves) => {
                        if !piece.betza.is_empty() {
                            piece.betza.push(' ');
                        }
                        piece.betza.push_str(&s.node);
                        let conds: Vec<Cond> = conditions
                            .iter()
                            .filter_map(|c| {
                                resolve_condition(&mut ck, c, &zones, &counters, &resolve_piece)
                            })
                            .collect();
                        let effs: Vec<RulesEffect> = effects
                            .iter()
                            .filter_map(|e| resolve_effect(&mut ck, e, &counters, &resolve_piece))
                            .collect();
                        piece
                            .components
                            .extend(moves.into_iter().map(|b| Component {
                                betza: b,
                                conditions: conds.clone(),
                                effects: effs.clone(),
                            }));
                    }
                    Err(e) => ck.report(Problem::inside(
                        "varsand::betza",
                        s.span,
                        e.offset,
                        e.len,
                        format!("bad Betza: {}", e.message),
                        e.help,
                    )),
                },
                PieceProp::Royal => piece.royal = true,
                PieceProp::EnPassant => piece.en_passant = true,
                PieceProp::ResetsClock => piece.resets_clock = true,
                PieceProp::Value(v) => piece.value = Some(v.node),
                PieceProp::Flies => piece.flies = true,
                PieceProp::FlipsTo(other) => piece.flips_to = resolve_piece(&mut ck, other),
                PieceProp::ExitsFrom(z) => piece.exits_from = resolve_zone(&mut ck, z, &zones),
                PieceProp::Promotes { zone, to } => {
                    let zi = resolve_zone(&mut ck, zone, &zones);
                    let mut kinds = Vec::new();
                    for l in to {
                        let up = l.node.to_ascii_uppercase();
                        match piece_decls
                            .iter()
                            .position(|d| d.letter.node.to_ascii_uppercase() == up)
                        {
                            Some(k) => kinds.push(k),
                            None => ck.report(
                                Problem::new(
                                    "varsand::unknown-promotion",
                                    l.span,
                                    format!("no piece has the letter `{}`", l.node),
                                )
                                .label("promotes to nothing")
                                .help(format!(
                                    "promotion lists piece letters; declared: {}",
                                    piece_decls
                                        .iter()
                                        .map(|d| d.letter.node.to_string())
                                        .collect::<Vec<_>>()
                                        .join(" ")
                                )),
                            ),
                        }
                    }
                    if let Some(zone) = zi {
                        piece.promotion = Some(Promotion { zone, to: kinds });
                    }
                }
            }
        }
        pieces.push(piece);
    }

    // ---- terrain ------------------------------------------------------------------
    let mut terrains: Vec<Terrain> = Vec::new();
    for d in &file.decls {
        let Decl::Terrain(t) = d else { continue };
        let l = t.letter.node;
        if let Some(owner) = letters.iter().find_map(|m| m.get(&l.to_ascii_uppercase())) {
            ck.report(
                Problem::new(
                    "varsand::terrain-letter",
                    t.letter.span,
                    format!("`{l}` is already the letter of piece `{}`", owner.node),
                )
                .label("taken by a piece")
                .help("terrain letters must differ from every piece letter in either case"),
            );
        }
        if terrains.iter().any(|x| x.letter == l) || terrains.iter().any(|x| x.name == t.name.node)
        {
            ck.report(
                Problem::new(
                    "varsand::duplicate-terrain",
                    t.span,
                    format!("terrain `{}` ({l}) is declared twice", t.name.node),
                )
                .help("give each terrain its own name and letter"),
            );
        }
        let (mut passing, mut landing) = (true, true);
        if let Some(blocks) = &t.blocks {
            passing = blocks.iter().any(|b| b.node == BlockKind::Passing);
            landing = blocks.iter().any(|b| b.node == BlockKind::Landing);
        }
        let mask = |ck: &mut Checker, list: &[Name]| {
            list.iter()
                .filter_map(|n| resolve_piece(ck, n))
                .fold(0u64, |m, k| m | 1 << k)
        };
        let cleared_by = mask(&mut ck, &t.cleared_by);
        let crossed_by = mask(&mut ck, &t.crossed_by);
        terrains.push(Terrain {
            name: t.name.node.clone(),
            letter: l,
            blocks_passing: passing,
            blocks_landing: landing,
            cleared_by,
            crossed_by,
        });
    }

    // ---- two faces: a flip goes both ways -----------------------------------------------
    for (i, d) in piece_decls.iter().enumerate() {
        let Some(other) = pieces[i].flips_to else {
            continue;
        };
        match pieces[other].flips_to {
            None => pieces[other].flips_to = Some(i),
            Some(back) if back != i => {
                let span = d
                    .props
                    .iter()
                    .find(|p| matches!(p.node, PieceProp::FlipsTo(_)))
                    .map(|p| p.span)
                    .unwrap_or(d.span);
                ck.report(
                    Problem::new(
                        "varsand::flip-pair",
                        span,
                        format!(
                            "`{}` flips to `{}`, which flips to `{}`",
                            pieces[i].name, pieces[other].name, pieces[back].name
                        ),
                    )
                    .help("a two-faced piece has two faces: each flips to the other"),
                );
            }
            _ => {}
        }
        if pieces[i].owner != pieces[other].owner {
            ck.report(
                Problem::new(
                    "varsand::flip-owner",
                    d.span,
                    format!(
                        "`{}` and its other face `{}` belong to different players",
                        pieces[i].name, pieces[other].name
                    ),
                )
                .help("give both faces the same `for PLAYER`"),
            );
        }
    }

    // ---- flight, flips, drops -------------------------------------------------------
    let mut flights = Vec::new();
    let mut flip_rules: [Option<FlipRule>; 2] = [None, None];
    let mut drop_zone = None;
    for d in &file.decls {
        match d {
            Decl::Flight(f) => {
                let from = region_cells(&mut ck, &f.from, &geometry, &zones, None);
                let to = region_cells(&mut ck, &f.to, &geometry, &zones, None);
                flights.push(Flight {
                    from,
                    to,
                    same_colour: f.same_colour,
                });
            }
            Decl::Flip(f) => {
                let Some(side) = player_index(&f.player.node) else {
                    ck.report(
                        Problem::new(
                            "varsand::unknown-player",
                            f.player.span,
                            format!("no player is named `{}`", f.player.node),
                        )
                        .label("unknown player")
                        .help(did_you_mean(
                            &f.player.node,
                            player_names(),
                            "player",
                        )),
                    );
                    continue;
                };
                let zone = resolve_zone(&mut ck, &f.zone, &zones);
                let needs = match &f.needs {
                    None => None,
                    Some((p, z)) => {
                        match (resolve_piece(&mut ck, p), resolve_zone(&mut ck, z, &zones)) {
                            (Some(p), Some(z)) => Some((p, z)),
                            _ => continue,
                        }
                    }
                };
                if flip_rules[side].is_some() {
                    ck.report(
                        Problem::new(
                            "varsand::duplicate-flip",
                            f.span,
                            format!("{} has two flip rules", f.player.node),
                        )
                        .help("keep one `flip` line per player"),
                    );
                }
                if let Some(zone) = zone {
                    flip_rules[side] = Some(FlipRule { zone, needs });
                }
            }
            Decl::Drop(dd) => {
                if drop_zone.is_some() {
                    ck.report(
                        Problem::new("varsand::duplicate-drop", dd.span, "a second drop rule")
                            .help("keep one `drop in ZONE` line; make the zone per player"),
                    );
                }
                drop_zone = resolve_zone(&mut ck, &dd.zone, &zones);
            }
            _ => {}
        }
    }
    if pieces.iter().any(|p| p.flips_to.is_some()) && flip_rules.iter().all(Option::is_none) {
        let d = piece_decls
            .iter()
            .zip(&pieces)
            .find(|(_, p)| p.flips_to.is_some())
            .and_then(|(d, _)| {
                d.props
                    .iter()
                    .find(|p| matches!(p.node, PieceProp::FlipsTo(_)))
                    .map(|p| p.span)
            })
            .unwrap_or(end_of_file);
        ck.report(
            Problem::new(
                "varsand::no-flip-rule",
                d,
                "pieces have two faces, but no player may flip them",
            )
            .help("add `flip PLAYER in ZONE` (optionally `if own PIECE in ZONE`)"),
        );
    }

    // ---- castling -----------------------------------------------------------------
    let mut castlings: Vec<Castling> = Vec::new();
    for d in &file.decls {
        let Decl::Castle(c) = d else { continue };
        if geometry.boards.is_empty() {
            continue; // the missing board is reported once, not per square
        }
        let side = player_index(&c.player.node);
        if side.is_none() {
            ck.report(
                Problem::new(
                    "varsand::unknown-player",
                    c.player.span,
                    format!("no player is named `{}`", c.player.node),
                )
                .label("unknown player")
                .help(did_you_mean(&c.player.node, player_names(), "player")),
            );
        }
        if castlings.iter().any(|x| x.letter == c.right.node) {
            ck.report(
                Problem::new(
                    "varsand::duplicate-castle",
                    c.right.span,
                    format!("castling right `{}` is declared twice", c.right.node),
                )
                .help("each castling needs its own letter, as in KQkq"),
            );
        }
        let mut sq = |n: &Name| match geometry.parse_square(&n.node) {
            Some(cell) => Some(cell),
            None => {
                ck.report(off_board(n, &geometry));
                None
            }
        };
        let (kf, kt, rf, rt) = (
            sq(&c.king_from),
            sq(&c.king_to),
            sq(&c.rook_from),
            sq(&c.rook_to),
        );
        let (Some(side), Some(kf), Some(kt), Some(rf), Some(rt)) = (side, kf, kt, rf, rt) else {
            continue;
        };
        let (kc, rc) = (&geometry.cells[kf as usize], &geometry.cells[rf as usize]);
        let (tc, uc) = (&geometry.cells[kt as usize], &geometry.cells[rt as usize]);
        if kf == rf || kt == rt {
            let (what, span) = if kf == rf {
                ("start", c.rook_from.span)
            } else {
                ("end", c.rook_to.span)
            };
            ck.report(
                Problem::new("varsand::castle-squares", span, format!("the two castling pieces {what} on the same square"))
                    .label("the king-like piece's square too")
                    .help("the rook-like piece starts and ends on squares of its own: `castle white K e1-g1 with h1-f1`"),
            );
            continue;
        }
        if kc.rank != rc.rank
            || tc.rank != kc.rank
            || uc.rank != kc.rank
            || kc.board != 0
            || rc.board != 0
        {
            ck.report(
                Problem::new("varsand::castle-line", c.span, "castling moves both pieces along one rank")
                    .help("write `castle PLAYER LETTER KING_FROM-KING_TO with ROOK_FROM-ROOK_TO`, all on one rank"),
            );
            continue;
        }
        let files = |a: usize, b: usize| a.min(b)..=a.max(b);
        let mut must_be_empty = Vec::new();
        for f in files(kc.file, tc.file).chain(files(rc.file, uc.file)) {
            let cell = geometry
                .cell_at(kc.board, f as i32, kc.rank as i32)
                .unwrap();
            if cell != kf && cell != rf && !must_be_empty.contains(&cell) {
                must_be_empty.push(cell);
            }
        }
        let king_path = files(kc.file, tc.file)
            .map(|f| {
                geometry
                    .cell_at(kc.board, f as i32, kc.rank as i32)
                    .unwrap()
            })
            .collect();
        castlings.push(Castling {
            side,
            letter: c.right.node,
            king_from: kf,
            king_to: kt,
            rook_from: rf,
            rook_to: rt,
            must_be_empty,
            king_path,
        });
    }
    if castlings.len() > 32 {
        ck.report(Problem::new(
            "varsand::too-many-castlings",
            end_of_file,
            "at most 32 castling declarations",
        ));
    }

    // ---- end rules ----------------------------------------------------------------
    let mut end_rules = Vec::new();
    let mut stalemate_illegal = false;
    let any_royal = pieces.iter().any(|p| p.royal);
    for d in &file.decls {
        let Decl::End(e) = d else { continue };
        for r in &e.rules {
            let res = outcome(r.result.node);
            if r.result.node == GameResult::Illegal {
                if r.condition.node == EndCondition::Stalemate {
                    stalemate_illegal = true;
                } else {
                    ck.report(
                        Problem::new("varsand::illegal-result", r.result.span, "only `stalemate` can be `illegal`")
                            .help("`stalemate illegal` forbids a move that leaves the opponent without a move; other rules end in win, loss or draw"),
                    );
                }
                continue;
            }
            let rule = match &r.condition.node {
                EndCondition::Checkmate => {
                    if !any_royal && !pieces.is_empty() {
                        ck.report(
                            Problem::new("varsand::check-without-royal", r.condition.span, "checkmate needs a royal piece, and none is declared")
                                .label("nothing can be checkmated")
                                .help("mark the king-like piece `royal`, or use `no-moves` to end on having no legal move"),
                        );
                    }
                    EndRule::Checkmate(res)
                }
                EndCondition::Stalemate => EndRule::Stalemate(res),
                EndCondition::NoMoves => EndRule::NoMoves(res),
                EndCondition::Repetition(k) => {
                    if !(2..=100).contains(k) {
                        ck.report(
                            Problem::new(
                                "varsand::end-count",
                                r.condition.span,
                                format!("repetition counts 2 to 100 occurrences, not {k}"),
                            )
                            .help("threefold repetition is `repetition 3 draw`"),
                        );
                    }
                    EndRule::Repetition((*k).clamp(2, 100) as u32, res)
                }
                EndCondition::MoveLimit(k) => {
                    if !(1..=10_000).contains(k) {
                        ck.report(
                            Problem::new(
                                "varsand::end-count",
                                r.condition.span,
                                format!("a move limit counts 1 to 10000 moves, not {k}"),
                            )
                            .help("the fifty-move rule is `move-limit 50 draw`"),
                        );
                    }
                    EndRule::MoveLimit((*k).clamp(1, 10_000) as u32, res)
                }
                EndCondition::Captured(p) => match resolve_piece(&mut ck, p) {
                    Some(k) => EndRule::Captured(k, res),
                    None => continue,
                },
                EndCondition::Exited(p) => match resolve_piece(&mut ck, p) {
                    Some(k) => {
                        if pieces[k].exits_from.is_none() {
                            ck.report(
                                Problem::new(
                                    "varsand::never-exits",
                                    p.span,
                                    format!("`{}` never leaves the board", p.node),
                                )
                                .help(format!(
                                    "give it an exit: `exits from ZONE` in piece {}",
                                    p.node
                                )),
                            );
                        }
                        EndRule::Exited(k, res)
                    }
                    None => continue,
                },
            };
            end_rules.push(rule);
        }
    }

    // ---- setup --------------------------------------------------------------------
    let setup = match setups.as_slice() {
        [] => {
            ck.report(
                Problem::new("varsand::no-setup", end_of_file, "the file has no setup")
                    .label("expected a setup")
                    .help("add the start position: setup \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\""),
            );
            None
        }
        [one, rest @ ..] => {
            for s in rest {
                ck.report(
                    Problem::new("varsand::duplicate-setup", s.span, "a second setup")
                        .help("keep one `setup` line"),
                );
            }
            Some(*one)
        }
    };

    if board_span.is_none() || !ck.problems.is_empty() {
        return Err(ck.problems);
    }
    let setup = setup.expect("a missing setup was reported");
    let game = Game {
        name: name.unwrap_or_else(|| "untitled".into()),
        geometry,
        players,
        pieces,
        terrains,
        zones,
        castlings,
        end_rules,
        params,
        pie_rule,
        flights,
        flip_rules,
        drop_zone,
        counters,
        stalemate_illegal,
        setup: setup.node.clone(),
    };
    let mut rules = Rules::compile(game);
    match Position::from_fen_with(std::sync::Arc::new(rules.clone()), &setup.node, true) {
        Ok(pos) => rules.set_home(pos.board()),
        Err(e) => {
            ck.report(Problem::inside(
                "varsand::setup",
                setup.span,
                e.offset,
                e.len,
                format!("bad setup: {}", e.message),
                e.help,
            ));
            return Err(ck.problems);
        }
    }
    let _ = ck.source;
    Ok(rules)
}

fn resolve_zone(ck: &mut Checker, z: &Name, zones: &[Zone]) -> Option<usize> {
    let found = zones.iter().position(|x| x.name == z.node);
    if found.is_none() {
        ck.report(
            Problem::new(
                "varsand::unknown-zone",
                z.span,
                format!("no zone is named `{}`", z.node),
            )
            .label("unknown zone")
            .help(did_you_mean(
                &z.node,
                zones.iter().map(|x| x.name.as_str()),
                "zone",
            )),
        );
    }
    found
}

fn resolve_counter(ck: &mut Checker, c: &Name, counters: &[String]) -> Option<usize> {
    let found = counters.iter().position(|x| *x == c.node);
    if found.is_none() {
        ck.report(
            Problem::new(
                "varsand::unknown-counter",
                c.span,
                format!("no counter is named `{}`", c.node),
            )
            .label("unknown counter")
            .help(
                match closest(&c.node, counters.iter().map(|s| s.as_str())) {
                    Some(x) => format!("did you mean `{x}`?"),
                    None => format!("declare it: `counter {}`", c.node),
                },
            ),
        );
    }
    found
}

fn resolve_condition(
    ck: &mut Checker,
    c: &Spanned<Condition>,
    zones: &[Zone],
    counters: &[String],
    resolve_piece: &dyn Fn(&mut Checker, &Name) -> Option<usize>,
) -> Option<Cond> {
    let zone = |ck: &mut Checker, z: &Name| resolve_zone(ck, z, zones);
    Some(match &c.node {
        Condition::Height(op, n) => Cond::Height(*op, *n),
        Condition::CloserTo { enemy, piece } => Cond::CloserTo {
            enemy: *enemy,
            kind: resolve_piece(ck, piece)?,
        },
        Condition::From(z) => Cond::From(zone(ck, z)?),
        Condition::To(z) => Cond::To(zone(ck, z)?),
        Condition::Counter(name, op, n) => {
            Cond::Counter(resolve_counter(ck, name, counters)?, *op, *n)
        }
    })
}

fn resolve_effect(
    ck: &mut Checker,
    e: &Spanned<Effect>,
    counters: &[String],
    resolve_piece: &dyn Fn(&mut Checker, &Name) -> Option<usize>,
) -> Option<RulesEffect> {
    Some(match &e.node {
        Effect::Stay => RulesEffect::Stay,
        Effect::Counter(name, d) => RulesEffect::Counter(resolve_counter(ck, name, counters)?, *d),
        Effect::Leave(p) => RulesEffect::Leave(resolve_piece(ck, p)?),
        Effect::Height(d) => {
            if d.abs() > 255 {
                ck.report(
                    Problem::new(
                        "varsand::height-change",
                        e.span,
                        format!("a height changes by at most 255, not {d}"),
                    )
                    .help("heights run from 1 to 255"),
                );
                return None;
            }
            RulesEffect::Height(*d)
        }
    })
}

fn off_board(n: &Name, geo: &Geometry) -> Problem {
    let p = Problem::new(
        "varsand::off-board",
        n.span,
        format!("`{}` is not a square of the board", n.node),
    )
    .label("off the board");
    match geo.boards.first() {
        Some(b) => p.help(format!(
            "the board has files a..{} and ranks 1..{}",
            crate::rules::file_letter(b.files - 1),
            b.ranks
        )),
        None => p.help("declare the board first: `board FILES x RANKS`"),
    }
}

fn region_cells(
    ck: &mut Checker,
    region: &Region,
    geo: &Geometry,
    zones: &[Zone],
    side: Option<usize>,
) -> Vec<bool> {
    let n = geo.len();
    let mut set = vec![false; n];
    let Some(b) = geo.boards.first() else {
        return set;
    };
    let (files, ranks) = (b.files as i64, b.ranks as i64);
    let add_rect = |f0: i64, f1: i64, r0: i64, r1: i64, set: &mut Vec<bool>| {
        for r in r0.min(r1)..=r0.max(r1) {
            for f in f0.min(f1)..=f0.max(f1) {
                if let Some(c) = geo.cell_at(0, f as i32, r as i32) {
                    set[c as usize] = true;
                }
            }
        }
    };
    for term in region {
        let bad_rank = |r: i64| r < 1 || r > ranks;
        let bad_file = |f: char| (f as i64 - 'a' as i64) >= files;
        match &term.node {
            RegionTerm::Rank(r) | RegionTerm::Ranks(r, _) | RegionTerm::Ranks(_, r)
                if bad_rank(*r) =>
            {
                ck.report(
                    Problem::new(
                        "varsand::off-board",
                        term.span,
                        format!("rank {r} is not on the board"),
                    )
                    .label("off the board")
                    .help(format!("ranks run from 1 to {ranks}")),
                );
            }
            RegionTerm::File(f) | RegionTerm::Files(f, _) | RegionTerm::Files(_, f)
                if bad_file(*f) =>
            {
                ck.report(
                    Problem::new(
                        "varsand::off-board",
                        term.span,
                        format!("file {f} is not on the board"),
                    )
                    .label("off the board")
                    .help(format!(
                        "files run from a to {}",
                        crate::rules::file_letter(b.files - 1)
                    )),
                );
            }
            RegionTerm::Rank(r) => add_rect(0, files - 1, r - 1, r - 1, &mut set),
            RegionTerm::Ranks(a, z) => add_rect(0, files - 1, a - 1, z - 1, &mut set),
            RegionTerm::File(f) => {
                let f = *f as i64 - 'a' as i64;
                add_rect(f, f, 0, ranks - 1, &mut set)
            }
            RegionTerm::Files(a, z) => add_rect(
                *a as i64 - 'a' as i64,
                *z as i64 - 'a' as i64,
                0,
                ranks - 1,
                &mut set,
            ),
            RegionTerm::All => geo.board_cells(0).for_each(|c| set[c] = true),
            RegionTerm::Board(name) => match geo.boards.iter().position(|b| &b.name == name) {
                Some(b) => geo.board_cells(b).for_each(|c| set[c] = true),
                None => ck.report(
                    Problem::new(
                        "varsand::unknown-board",
                        term.span,
                        format!("no board is named `{name}`"),
                    )
                    .label("unknown board")
                    .help(did_you_mean(
                        name,
                        geo.boards.iter().map(|b| b.name.as_str()),
                        "board",
                    )),
                ),
            },
            RegionTerm::Square(s) => match geo.parse_square(s) {
                Some(c) => set[c as usize] = true,
                None => ck.report(off_board(&Spanned::new(s.clone(), term.span), geo)),
            },
            RegionTerm::Zone(z) => match zones.iter().find(|x| &x.name == z) {
                None if geo.parse_square(z).is_some() => {
                    set[geo.parse_square(z).unwrap() as usize] = true
                }
                Some(zone) => {
                    for (i, v) in set.iter_mut().enumerate() {
                        *v |= match side {
                            Some(s) => zone.cells[s][i],
                            None => zone.cells[0][i] && zone.cells[1][i],
                        };
                    }
                }
                None => ck.report(
                    Problem::new(
                        "varsand::unknown-zone",
                        term.span,
                        format!("no zone is named `{z}`"),
                    )
                    .label("unknown zone")
                    .help(if ck.zone_names.contains(z) {
                        format!("zone `{z}` is declared further down: declare it before the zones that use it")
                    } else {
                        did_you_mean(z, zones.iter().map(|x| x.name.as_str()), "zone")
                    }),
                ),
            },
        }
    }
    set
}
