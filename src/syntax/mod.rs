//! Stage 1: text to syntax tree. The pest grammar in `grammar/var.pest` recognises the
//! file; one function per grammar rule turns its pairs into [`ast`] nodes with spans.

pub mod ast;
pub mod betza;
mod expected;
pub(crate) use expected::first_words;
mod recover;

use pest::Parser;
use pest::iterators::{Pair, Pairs};
use pest_derive::Parser;

use crate::diagnostic::{Problem, ProblemCode};
use ast::{
    BlockKind, BoardDecl, CastleDecl, Compare, Condition, Convert, Count, Decl, DropDecl, Effect,
    EndCondition, EndDecl, EndRuleDecl, Event, File, FlightDecl, FlipDecl, Forbid, GameResult,
    Glyph, Name, ParamDecl, PieceDecl, PieceProp, PlayersDecl, PromoteWhen, Region, RegionTerm,
    Span, Spanned, Symbol, TerrainDecl, ZoneBody, ZoneDecl,
};

#[derive(Parser)]
#[grammar = "../grammar/var.pest"]
struct VarParser;

/// The words of a rule file (names and keywords: letters, digits, `_` and `-`)
/// outside comments and strings, each with its span. Tools that read names without
/// parsing (warnings about use, the language server) share this one reading.
pub fn words(text: &str) -> Vec<(Span, &str)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                i += 1;
            }
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += 1;
            }
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-') {
                i += 1;
            }
            out.push((Span::new(start, i), &text[start..i]));
        } else {
            i += 1;
        }
    }
    out
}

/// The most syntax errors reported for one file.
const MAX_SYNTAX_ERRORS: usize = 20;

/// Parses a rule file into its syntax tree, or every syntax error found: after one,
/// the text the parser could not read is blanked and the file parsed again.
pub fn parse(source: &str) -> Result<File, Vec<Problem>> {
    let mut text = source.to_string();
    let mut problems: Vec<Problem> = Vec::new();
    loop {
        match VarParser::parse(Rule::file, &text) {
            Ok(pairs) if problems.is_empty() => return build(pairs),
            Ok(_) => return Err(problems),
            Err(e) => {
                let p = syntax_problem(e, &text);
                let at = p.span.start;
                problems.push(p);
                let Some((from, to, keep)) = recover::blank_range(&text, at) else {
                    return Err(problems);
                };
                let before = text.clone();
                recover::blank(&mut text, from, to, keep);
                if text == before || problems.len() >= MAX_SYNTAX_ERRORS {
                    return Err(problems);
                }
            }
        }
    }
}

/// The syntax tree of a file that parsed.
fn build(mut pairs: Pairs<Rule>) -> Result<File, Vec<Problem>> {
    let file = pairs.next().expect("the file rule always yields one pair");
    let too_large: Vec<Problem> = file
        .clone()
        .into_inner()
        .flatten()
        .filter(|p| p.as_rule() == Rule::number && p.as_str().parse::<i64>().is_err())
        .map(|p| {
            let span = Span::new(p.as_span().start(), p.as_span().end());
            Problem::new(
                ProblemCode::NumberRange,
                span,
                format!("the number {} is too large", p.as_str()),
            )
            .label("too many digits")
            .help(format!(
                "numbers in a rule file lie between {} and {}",
                i64::MIN,
                i64::MAX
            ))
        })
        .collect();
    if !too_large.is_empty() {
        return Err(too_large);
    }
    let mut decls = Vec::new();
    for pair in file.into_inner() {
        if pair.as_rule() == Rule::EOI {
            continue;
        }
        decls.push(decl(pair));
    }
    Ok(File { decls })
}

fn syntax_problem(err: pest::error::Error<Rule>, source: &str) -> Problem {
    use pest::error::{ErrorVariant, InputLocation};
    let (start, end) = match err.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((s, e)) => (s, e),
    };
    let expected = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<String> = positives.iter().filter_map(|r| rule_name(*r)).collect();
            names.sort_unstable();
            names.dedup();
            // At the top level, the parser's last hope is the end of the file; what
            // the writer needs to hear is which declarations may start there.
            if names == ["end of file"] && start < source.trim_end().len() {
                names = vec![rule_name(Rule::game_decl).unwrap_or_default()];
            }
            names
        }
        ErrorVariant::CustomError { .. } => Vec::new(),
    };
    let message = if expected.is_empty() {
        "syntax error".to_string()
    } else {
        format!("syntax error: expected {}", join_or(&expected))
    };
    let span = Span::new(start, end.max(start));
    if let Some(open) = recover::unclosed_brace(source, start) {
        return Problem::new(
            ProblemCode::UnclosedBrace,
            Span::new(open, open + 1),
            "this `{` is never closed",
        )
        .label("opened here")
        .also(span, "the block was still open here")
        .help("add `}` at the end of the block");
    }
    let typed = recover::word_at(source, start);
    let keywords: Vec<String> = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => positives
            .iter()
            .flat_map(|r| expected::first_words(&format!("{r:?}")))
            .collect(),
        ErrorVariant::CustomError { .. } => Vec::new(),
    };
    // At the top level the parser's last hope is the end of the file; a word there
    // is most likely a declaration.
    let keywords = if keywords.is_empty() {
        expected::first_words("decl")
    } else {
        keywords
    };
    let suggestion = (!typed.is_empty() && !keywords.iter().any(|k| k == typed))
        .then(|| crate::diagnostic::closest(typed, keywords.iter().map(String::as_str)))
        .flatten();
    let problem = Problem::new(ProblemCode::Syntax, span, message).label("unexpected text here");
    match suggestion {
        Some(k) => problem
            .label(format!("`{typed}` is not a keyword here"))
            .help(format!("did you mean `{k}`?")),
        None => problem.help("see grammar/README.md for the form of each declaration"),
    }
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {}", rest.join(", "), last),
    }
}

/// Words a designer understands for the grammar's rules, in error messages. Where a
/// rule starts with keywords, they are read from the grammar.
fn rule_name(rule: Rule) -> Option<String> {
    let words = |what: &str, grammar_rule: &str| {
        format!(
            "{what} ({})",
            expected::first_words(grammar_rule).join(", ")
        )
    };
    Some(match rule {
        Rule::EOI => "end of file".into(),
        Rule::game_decl
        | Rule::board_decl
        | Rule::players_decl
        | Rule::param_decl
        | Rule::zone_decl
        | Rule::terrain_decl
        | Rule::piece_decl
        | Rule::castle_decl
        | Rule::end_decl
        | Rule::setup_decl
        | Rule::pie_decl
        | Rule::flight_decl
        | Rule::flip_decl
        | Rule::drop_decl
        | Rule::gating_decl
        | Rule::counter_decl
        | Rule::pass_decl
        | Rule::forbid_decl
        | Rule::captures_decl
        | Rule::must_capture_decl
        | Rule::must_drop_decl
        | Rule::castling_drop_decl
        | Rule::duple_check_decl
        | Rule::explode_decl
        | Rule::on_decl => words("a declaration", "decl"),
        Rule::event => words("an event", "event"),
        Rule::forbid_item | Rule::dead_squares | Rule::mate_by_drop | Rule::giving_check => {
            words("a rule to forbid", "forbid_item")
        }
        Rule::promo_when => words("one of", "promo_when"),
        Rule::optional | Rule::only_lost | Rule::capturing => {
            "`optional`, `only-lost` or `capturing`".into()
        }
        Rule::with_reply => "`with-reply`".into(),
        Rule::unattacked => "`unattacked`".into(),
        Rule::ident | Rule::zone_ref | Rule::piece_ref | Rule::param_ref => "a name".into(),
        Rule::letter | Rule::promo_letter | Rule::piece_letter => "a piece letter".into(),
        Rule::number => "a number".into(),
        Rule::count | Rule::delta => "a number or a parameter".into(),
        Rule::negated_ref => "`-` and a parameter".into(),
        Rule::string => "a quoted string".into(),
        Rule::square => "a square such as e4".into(),
        Rule::region
        | Rule::rank_term
        | Rule::ranks_term
        | Rule::file_term
        | Rule::files_term
        | Rule::all_term
        | Rule::board_term => words("squares", "region_term") + ", a square or a zone",
        Rule::player_region => "`player: squares`".into(),
        Rule::zone_by_player => "`{ player: squares ... }`".into(),
        Rule::moves_prop
        | Rule::royal_prop
        | Rule::en_passant_prop
        | Rule::promotes_prop
        | Rule::resets_prop
        | Rule::value_prop
        | Rule::flies_prop
        | Rule::flips_prop
        | Rule::exits_prop
        | Rule::to_hand_prop
        | Rule::both_colours_prop
        | Rule::hand_as_prop
        | Rule::drops_prop
        | Rule::clones_prop
        | Rule::glyph_prop
        | Rule::image_prop => words("a piece property", "piece_prop"),
        Rule::glyph_by_player | Rule::player_glyph => "`{ player: \"text\" ... }`".into(),
        Rule::blocks_prop | Rule::cleared_prop | Rule::crossed_prop => {
            words("a terrain property", "terrain_prop")
        }
        Rule::block_kind => words("one of", "block_kind"),
        Rule::end_rule
        | Rule::end_condition
        | Rule::exited
        | Rule::captured
        | Rule::reached
        | Rule::bare_king
        | Rule::facing
        | Rule::pieces_left
        | Rule::counter_end
        | Rule::passes
        | Rule::board_full => words("an end rule", "end_condition"),
        Rule::result => words("a result", "result"),
        Rule::range => "`in LOW..HIGH`".into(),
        Rule::times => "`x`, as in `board 8 x 8`".into(),
        Rule::conditions
        | Rule::condition
        | Rule::height_cond
        | Rule::closer_cond
        | Rule::from_cond
        | Rule::to_cond
        | Rule::counter_cond
        | Rule::no_file_cond
        | Rule::captures_cond
        | Rule::over_cond
        | Rule::not_cond
        | Rule::in_check_cond
        | Rule::converts_cond
        | Rule::count_cond
        | Rule::checking_cond
        | Rule::attacking_cond
        | Rule::unless_clause => words("a condition", "condition"),
        Rule::effects
        | Rule::effect
        | Rule::leave_effect
        | Rule::height_effect
        | Rule::stay_effect
        | Rule::counter_effect
        | Rule::convert_effect
        | Rule::place_effect
        | Rule::place_verb
        | Rule::becomes_effect
        | Rule::along => words("an effect", "effect"),
        Rule::convert_what => words("one of", "convert_what"),
        Rule::when_stuck => "`when-stuck`".into(),
        Rule::compare => words("a comparison", "compare"),
        Rule::owner => words("one of", "owner"),
        _ => return None,
    })
}

fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn name(pair: Pair<Rule>) -> Name {
    Spanned::new(pair.as_str().to_string(), span_of(&pair))
}

fn num(pair: Pair<Rule>) -> Spanned<i64> {
    let span = span_of(&pair);
    // The grammar admits only digits; a number too large for i64 saturates and is
    // then refused by the checker's range checks.
    // Numbers that do not fit were reported by `parse` before the tree is built.
    let value = pair.as_str().parse::<i64>().unwrap_or_default();
    Spanned::new(value, span)
}

/// A number, or the parameter that stands for it (`count`; `delta`, where `-NAME`
/// negates it).
fn count(pair: Pair<Rule>) -> Count {
    let inner = pair
        .into_inner()
        .next()
        .expect("a count holds a number or a name");
    match inner.as_rule() {
        Rule::param_ref => Count::Param(name(inner.into_inner().next().expect("a name"))),
        Rule::negated_ref => {
            let param_ref = inner.into_inner().next().expect("a parameter");
            Count::Negated(name(param_ref.into_inner().next().expect("a name")))
        }
        _ => Count::Number(num(inner).node),
    }
}

fn string(pair: Pair<Rule>) -> Spanned<String> {
    let body = pair.into_inner().next().expect("string has a body");
    Spanned::new(body.as_str().to_string(), span_of(&body))
}

fn symbol(pair: Pair<Rule>) -> Spanned<Symbol> {
    let symbol = Symbol::read(pair.as_str()).expect("the grammar reads a piece letter");
    Spanned::new(symbol, span_of(&pair))
}

fn letter(pair: Pair<Rule>) -> Spanned<char> {
    let c = pair.as_str().chars().next().expect("letter is one char");
    Spanned::new(c, span_of(&pair))
}

/// The declaration's children, in order.
type Children<'a> = Pairs<'a, Rule>;

fn decl(pair: Pair<Rule>) -> Decl {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
    match rule {
        Rule::game_decl => Decl::Game(string(inner.next().unwrap())),
        Rule::setup_decl => Decl::Setup(string(inner.next().unwrap())),
        Rule::pie_decl => Decl::PieRule(span),
        Rule::pass_decl => pass_decl(inner, span),
        Rule::forbid_decl => Decl::Forbid(forbid(inner.next().unwrap())),
        Rule::captures_decl => Decl::CapturesToHand(span),
        Rule::must_capture_decl => Decl::MustCapture(span),
        Rule::must_drop_decl => Decl::MustDrop(span),
        Rule::castling_drop_decl => Decl::CastlingByDrop {
            king: name(inner.next().unwrap()),
            partner: name(inner.next().unwrap()),
            span,
        },
        Rule::duple_check_decl => Decl::DupleCheck(span),
        Rule::explode_decl => Decl::CapturesExplode {
            spared: inner
                .next()
                .map(|list| list.into_inner().map(name).collect())
                .unwrap_or_default(),
            span,
        },
        Rule::on_decl => on_decl(inner, span),
        Rule::counter_decl => Decl::Counter(name(inner.next().unwrap()), inner.next().map(count)),
        Rule::drop_decl => Decl::Drop(DropDecl {
            zone: name(inner.next().unwrap()),
            span,
        }),
        Rule::gating_decl => Decl::Gating(DropDecl {
            zone: name(inner.next().unwrap()),
            span,
        }),
        Rule::flight_decl => flight_decl(inner, span),
        Rule::flip_decl => flip_decl(inner, span),
        Rule::board_decl => board_decl(inner, span),
        Rule::players_decl => players_decl(inner, span),
        Rule::param_decl => param_decl(inner, span),
        Rule::zone_decl => zone_decl(inner, span),
        Rule::terrain_decl => terrain_decl(inner, span),
        Rule::piece_decl => piece_decl(inner, span),
        Rule::castle_decl => castle_decl(inner, span),
        Rule::end_decl => Decl::End(EndDecl {
            rules: inner.map(end_rule).collect(),
            span,
        }),
        _ => unreachable!("declaration rule {rule:?}"),
    }
}

fn forbid(item: Pair<Rule>) -> Spanned<Forbid> {
    let span = span_of(&item);
    let what = item
        .into_inner()
        .next()
        .expect("a forbid item has one form");
    let forbid = match what.as_rule() {
        Rule::dead_squares => Forbid::DeadSquares,
        Rule::mate_by_drop => Forbid::MateByDrop(name(what.into_inner().next().unwrap())),
        Rule::giving_check => Forbid::Check,
        rule => unreachable!("forbid item {rule:?}"),
    };
    Spanned::new(forbid, span)
}

fn on_decl(mut inner: Children, span: Span) -> Decl {
    let event = inner.next().unwrap();
    let kind = if event.as_str() == "move" {
        Event::Move
    } else {
        Event::Check
    };
    Decl::On {
        event: Spanned::new(kind, span_of(&event)),
        effects: inner.next().unwrap().into_inner().map(effect).collect(),
        span,
    }
}

fn pass_decl(mut inner: Children, span: Span) -> Decl {
    match inner.next() {
        Some(p) if p.as_rule() == Rule::when_stuck => Decl::Pass {
            conditions: Vec::new(),
            when_stuck: true,
            span,
        },
        other => Decl::Pass {
            conditions: other.map(conditions).unwrap_or_default(),
            when_stuck: false,
            span,
        },
    }
}

fn flight_decl(mut inner: Children, span: Span) -> Decl {
    let from = region(inner.next().unwrap());
    let to = region(inner.next().unwrap());
    let same_colour = inner.next().is_some();
    Decl::Flight(FlightDecl {
        from,
        to,
        same_colour,
        span,
    })
}

fn flip_decl(mut inner: Children, span: Span) -> Decl {
    let player = name(inner.next().unwrap());
    let zone = name(inner.next().unwrap());
    let needs = inner.next().map(|n| {
        let mut n = n.into_inner();
        (name(n.next().unwrap()), name(n.next().unwrap()))
    });
    Decl::Flip(FlipDecl {
        player,
        zone,
        needs,
        span,
    })
}

fn board_decl(inner: Children, span: Span) -> Decl {
    let mut inner = inner.filter(|p| p.as_rule() != Rule::times);
    let first = inner.next().unwrap();
    let (name, files) = if first.as_rule() == Rule::ident {
        (Some(self::name(first)), num(inner.next().unwrap()))
    } else {
        (None, num(first))
    };
    let ranks = num(inner.next().unwrap());
    let squares = inner
        .next()
        .map(|sq| sq.into_inner().map(self::name).collect())
        .unwrap_or_default();
    Decl::Board(BoardDecl {
        name,
        squares,
        files,
        ranks,
        span,
    })
}

fn players_decl(mut inner: Children, span: Span) -> Decl {
    let first = name(inner.next().unwrap());
    let second = name(inner.next().unwrap());
    Decl::Players(PlayersDecl {
        first,
        second,
        span,
    })
}

fn param_decl(mut inner: Children, span: Span) -> Decl {
    let name = name(inner.next().unwrap());
    let value = num(inner.next().unwrap());
    let range = inner.next().map(|r| {
        let mut r = r.into_inner();
        (num(r.next().unwrap()), num(r.next().unwrap()))
    });
    Decl::Param(ParamDecl {
        name,
        value,
        range,
        span,
    })
}

fn zone_decl(mut inner: Children, span: Span) -> Decl {
    let name = name(inner.next().unwrap());
    let body = inner.next().unwrap();
    let body = match body.as_rule() {
        Rule::zone_by_player => ZoneBody::ByPlayer(
            body.into_inner()
                .map(|pr| {
                    let mut pr = pr.into_inner();
                    let player = self::name(pr.next().unwrap());
                    (player, region(pr.next().unwrap()))
                })
                .collect(),
        ),
        _ => ZoneBody::Shared(region(body)),
    };
    Decl::Zone(ZoneDecl { name, body, span })
}

fn terrain_decl(mut inner: Children, span: Span) -> Decl {
    let name = name(inner.next().unwrap());
    let letter = letter(inner.next().unwrap());
    let mut t = TerrainDecl {
        name,
        letter,
        blocks: None,
        cleared_by: vec![],
        crossed_by: vec![],
        span,
    };
    for prop in inner {
        match prop.as_rule() {
            Rule::blocks_prop => t.blocks = Some(blocks_prop(prop)),
            Rule::cleared_prop => t.cleared_by.extend(piece_list(prop)),
            Rule::crossed_prop => t.crossed_by.extend(piece_list(prop)),
            _ => unreachable!("terrain property"),
        }
    }
    Decl::Terrain(t)
}

fn blocks_prop(pair: Pair<Rule>) -> Vec<Spanned<BlockKind>> {
    pair.into_inner()
        .map(|k| {
            let kind = match k.as_str() {
                "passing" => BlockKind::Passing,
                "landing" => BlockKind::Landing,
                _ => BlockKind::Nothing,
            };
            Spanned::new(kind, span_of(&k))
        })
        .collect()
}

fn piece_decl(mut inner: Children, span: Span) -> Decl {
    let name = name(inner.next().unwrap());
    let mut next = inner.next().unwrap();
    let mut title = None;
    if next.as_rule() == Rule::string {
        title = Some(string(next));
        next = inner.next().unwrap();
    }
    let letter = symbol(next);
    let mut owner = None;
    let mut props = Vec::new();
    for p in inner {
        if p.as_rule() == Rule::owner_clause {
            owner = Some(self::name(p.into_inner().next().unwrap()));
        } else {
            props.push(piece_prop(p));
        }
    }
    Decl::Piece(PieceDecl {
        name,
        letter,
        owner,
        title,
        props,
        span,
    })
}

fn castle_decl(mut inner: Children, span: Span) -> Decl {
    let player = name(inner.next().unwrap());
    let right = letter(inner.next().unwrap());
    let mut sq = || name(inner.next().unwrap());
    let (king_from, king_to, rook_from, rook_to) = (sq(), sq(), sq(), sq());
    Decl::Castle(CastleDecl {
        player,
        right,
        king_from,
        king_to,
        rook_from,
        rook_to,
        span,
    })
}

fn end_rule(pair: Pair<Rule>) -> EndRuleDecl {
    let mut r = pair.into_inner();
    let cond = r.next().unwrap();
    let cond_span = span_of(&cond);
    let condition = end_condition(cond.into_inner().next().unwrap());
    let res = r.next().unwrap();
    let result = match res.as_str() {
        "win" => GameResult::Win,
        "loss" => GameResult::Loss,
        "illegal" => GameResult::Illegal,
        "by-count" => GameResult::ByCount,
        _ => GameResult::Draw,
    };
    EndRuleDecl {
        condition: Spanned::new(condition, cond_span),
        result: Spanned::new(result, span_of(&res)),
    }
}

fn end_condition(c: Pair<Rule>) -> EndCondition {
    match c.as_rule() {
        Rule::checkmate => EndCondition::Checkmate,
        Rule::stalemate => EndCondition::Stalemate,
        Rule::no_moves => EndCondition::NoMoves,
        Rule::repetition => EndCondition::Repetition(count(c.into_inner().next().unwrap())),
        Rule::move_limit => EndCondition::MoveLimit(count(c.into_inner().next().unwrap())),
        Rule::captured => EndCondition::Captured(name(c.into_inner().next().unwrap())),
        Rule::exited => EndCondition::Exited(name(c.into_inner().next().unwrap())),
        Rule::reached => {
            let mut inner = c.into_inner().peekable();
            EndCondition::Reached {
                piece: name(inner.next().unwrap()),
                zone: name(inner.next().unwrap()),
                unattacked: inner
                    .next_if(|p| p.as_rule() == Rule::unattacked)
                    .map(|p| span_of(&p)),
                with_reply: inner.next().is_some(),
            }
        }
        Rule::bare_king => EndCondition::BareKing,
        Rule::board_full => EndCondition::BoardFull,
        Rule::facing => EndCondition::Facing(name(c.into_inner().next().unwrap())),
        Rule::passes => EndCondition::Passes(count(c.into_inner().next().unwrap())),
        Rule::pieces_left => {
            let mut inner = c.into_inner().peekable();
            let piece = inner.next_if(|p| p.as_rule() == Rule::ident).map(name);
            let op = compare(inner.next().unwrap().as_str());
            EndCondition::PiecesLeft {
                piece,
                op,
                count: count(inner.next().unwrap()),
            }
        }
        Rule::counter_end => {
            let mut inner = c.into_inner();
            let counter = name(inner.next().unwrap());
            let op = compare(inner.next().unwrap().as_str());
            EndCondition::Counter(counter, op, count(inner.next().unwrap()))
        }
        _ => unreachable!("end condition"),
    }
}

/// A `glyph`'s text, or its texts per player.
fn glyph(pair: Pair<Rule>) -> Glyph {
    if pair.as_rule() == Rule::string {
        return Glyph::Shared(string(pair));
    }
    let per_player = pair.into_inner().map(|p| {
        let mut p = p.into_inner();
        (name(p.next().unwrap()), string(p.next().unwrap()))
    });
    Glyph::ByPlayer(per_player.collect())
}

fn piece_list(pair: Pair<Rule>) -> Vec<Name> {
    pair.into_inner()
        .next()
        .unwrap()
        .into_inner()
        .map(name)
        .collect()
}

fn piece_prop(pair: Pair<Rule>) -> Spanned<PieceProp> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
    let prop = match rule {
        Rule::moves_prop => {
            let first = inner.next().unwrap();
            let in_place = first.as_rule() == Rule::in_place;
            let betza = if in_place {
                Spanned::new(first.as_str().to_string(), span_of(&first))
            } else {
                string(first)
            };
            let (mut conditions, mut effects) = (Vec::new(), Vec::new());
            for part in inner {
                match part.as_rule() {
                    Rule::conditions => conditions.extend(self::conditions(part)),
                    _ => effects.extend(part.into_inner().map(effect)),
                }
            }
            PieceProp::Moves {
                betza,
                in_place,
                conditions,
                effects,
            }
        }
        Rule::royal_prop => PieceProp::Royal,
        Rule::en_passant_prop => PieceProp::EnPassant,
        Rule::resets_prop => PieceProp::ResetsClock,
        Rule::flies_prop => PieceProp::Flies,
        Rule::flips_prop => PieceProp::FlipsTo(name(inner.next().unwrap())),
        Rule::exits_prop => PieceProp::ExitsFrom(name(inner.next().unwrap())),
        Rule::value_prop => PieceProp::Value(num(inner.next().unwrap())),
        Rule::image_prop => PieceProp::Image(name(inner.next().unwrap())),
        Rule::glyph_prop => PieceProp::Glyph(glyph(inner.next().unwrap())),
        Rule::promotes_prop => {
            let when = match inner.next().unwrap().as_str() {
                "on" => PromoteWhen::Arrives,
                "from" => PromoteWhen::Leaves,
                _ => PromoteWhen::Touches,
            };
            let zone = name(inner.next().unwrap());
            let (mut to, mut optional, mut only_lost) = (Vec::new(), false, false);
            let mut capturing = None;
            for part in inner {
                match part.as_rule() {
                    Rule::optional => optional = true,
                    Rule::only_lost => only_lost = true,
                    Rule::capturing => capturing = Some(span_of(&part)),
                    _ => to.push(symbol(part)),
                }
            }
            PieceProp::Promotes {
                when,
                zone,
                to,
                optional,
                only_lost,
                capturing,
            }
        }
        Rule::to_hand_prop => PieceProp::CapturedToHand,
        Rule::both_colours_prop => PieceProp::BothColours,
        Rule::hand_as_prop => PieceProp::InHandAs(name(inner.next().unwrap())),
        Rule::drops_prop => {
            let (mut zone, mut conditions, mut effects) = (None, Vec::new(), Vec::new());
            for part in inner {
                match part.as_rule() {
                    Rule::conditions => conditions.extend(self::conditions(part)),
                    Rule::effects => effects.extend(part.into_inner().map(effect)),
                    _ => zone = Some(name(part)),
                }
            }
            PieceProp::Drops {
                zone,
                conditions,
                effects,
            }
        }
        Rule::clones_prop => {
            let (mut conditions, mut effects) = (Vec::new(), Vec::new());
            for part in inner {
                match part.as_rule() {
                    Rule::conditions => conditions.extend(self::conditions(part)),
                    _ => effects.extend(part.into_inner().map(effect)),
                }
            }
            PieceProp::Clones {
                conditions,
                effects,
            }
        }
        _ => unreachable!("piece property {rule:?}"),
    };
    Spanned::new(prop, span)
}

/// The conditions of `if A and B [unless C or D]`: an `unless` clause's conditions
/// are negated.
fn conditions(pair: Pair<Rule>) -> Vec<Spanned<Condition>> {
    let mut out = Vec::new();
    for part in pair.into_inner() {
        match part.as_rule() {
            Rule::unless_clause => out.extend(part.into_inner().map(|c| piece_condition(c, true))),
            _ => out.push(condition(part)),
        }
    }
    out
}

/// `captures PIECE`, `over PIECE` or `in-check`, negated or not.
fn piece_condition(c: Pair<Rule>, negated: bool) -> Spanned<Condition> {
    let span = span_of(&c);
    let rule = c.as_rule();
    match rule {
        Rule::in_check_cond => return Spanned::new(Condition::InCheck { negated }, span),
        Rule::checking_cond => return Spanned::new(Condition::Checking { negated }, span),
        Rule::attacking_cond => return Spanned::new(Condition::Attacking { negated }, span),
        _ => {}
    }
    let piece = name(c.into_inner().next().unwrap());
    let cond = match rule {
        Rule::captures_cond => Condition::Captures { piece, negated },
        _ => Condition::Over { piece, negated },
    };
    Spanned::new(cond, span)
}

fn condition(pair: Pair<Rule>) -> Spanned<Condition> {
    let span = span_of(&pair);
    let c = pair.into_inner().next().expect("a condition has one form");
    let rule = c.as_rule();
    match rule {
        Rule::captures_cond
        | Rule::over_cond
        | Rule::in_check_cond
        | Rule::checking_cond
        | Rule::attacking_cond => {
            return Spanned::new(piece_condition(c, false).node, span);
        }
        Rule::not_cond => {
            let inner = c.into_inner().next().expect("`not` has a condition");
            return Spanned::new(piece_condition(inner, true).node, span);
        }
        _ => {}
    }
    let mut inner = c.into_inner();
    let cond = match rule {
        Rule::height_cond => {
            let op = compare(inner.next().unwrap().as_str());
            Condition::Height(op, count(inner.next().unwrap()))
        }
        Rule::closer_cond => {
            let enemy = inner.next().unwrap().as_str() == "enemy";
            Condition::CloserTo {
                enemy,
                piece: name(inner.next().unwrap()),
            }
        }
        Rule::converts_cond => Condition::Converts,
        Rule::from_cond => Condition::From(name(inner.next().unwrap())),
        Rule::to_cond => Condition::To(name(inner.next().unwrap())),
        Rule::counter_cond => {
            let counter = name(inner.next().unwrap());
            let op = compare(inner.next().unwrap().as_str());
            Condition::Counter(counter, op, count(inner.next().unwrap()))
        }
        Rule::no_file_cond | Rule::count_cond => {
            let mut next = inner.next().unwrap();
            let fewer = if next.as_rule() == Rule::fewer_than {
                let n = count(next.into_inner().next().unwrap());
                next = inner.next().unwrap();
                Some(n)
            } else {
                None
            };
            let (enemy, piece) = (next.as_str() == "enemy", name(inner.next().unwrap()));
            if rule == Rule::count_cond {
                Condition::CountOnBoard {
                    fewer,
                    enemy,
                    piece,
                }
            } else {
                Condition::NoneOnFile {
                    fewer,
                    enemy,
                    piece,
                }
            }
        }
        _ => unreachable!("condition {rule:?}"),
    };
    Spanned::new(cond, span)
}

fn compare(op: &str) -> Compare {
    match op {
        "<" => Compare::Less,
        "<=" => Compare::LessEq,
        ">" => Compare::Greater,
        ">=" => Compare::GreaterEq,
        "==" => Compare::Equal,
        _ => Compare::NotEqual,
    }
}

fn effect(pair: Pair<Rule>) -> Spanned<Effect> {
    let span = span_of(&pair);
    let e = pair.into_inner().next().expect("an effect has one form");
    let rule = e.as_rule();
    let mut inner = e.into_inner();
    let eff = match rule {
        Rule::leave_effect => Effect::Leave(name(inner.next().unwrap())),
        Rule::height_effect => Effect::Height(count(inner.next().unwrap())),
        Rule::stay_effect => Effect::Stay,
        Rule::convert_effect => Effect::Convert(match inner.next().unwrap().as_str() {
            "enclosed" => Convert::Enclosed,
            _ => Convert::Adjacent,
        }),
        Rule::counter_effect => {
            let counter = name(inner.next().unwrap());
            Effect::Counter(counter, count(inner.next().unwrap()))
        }
        Rule::becomes_effect => Effect::Becomes(name(inner.next().unwrap())),
        Rule::place_effect => {
            let lift = inner.next().unwrap().as_str() == "move";
            let terrain = name(inner.next().unwrap());
            let along = inner.next().map(|a| string(a.into_inner().next().unwrap()));
            Effect::Place {
                terrain,
                lift,
                along,
            }
        }
        _ => unreachable!("effect {rule:?}"),
    };
    Spanned::new(eff, span)
}

fn region(pair: Pair<Rule>) -> Region {
    pair.into_inner()
        .map(|t| {
            let span = span_of(&t);
            let rule = t.as_rule();
            let text = t.as_str().to_string();
            let mut inner = t.into_inner();
            let term = match rule {
                Rule::rank_term => RegionTerm::Rank(count(inner.next().unwrap())),
                Rule::ranks_term => {
                    RegionTerm::Ranks(count(inner.next().unwrap()), count(inner.next().unwrap()))
                }
                Rule::file_term => RegionTerm::File(first_char(inner.next().unwrap())),
                Rule::files_term => RegionTerm::Files(
                    first_char(inner.next().unwrap()),
                    first_char(inner.next().unwrap()),
                ),
                Rule::all_term => RegionTerm::All,
                Rule::square => RegionTerm::Square(text),
                Rule::zone_ref => RegionTerm::Zone(text),
                Rule::board_term => RegionTerm::Board(name(inner.next().unwrap()).node),
                _ => unreachable!("region term {rule:?}"),
            };
            Spanned::new(term, span)
        })
        .collect()
}

fn first_char(pair: Pair<Rule>) -> char {
    pair.as_str().chars().next().unwrap_or('a')
}
