//! The rules in words: what the REPL's `rules` command prints, so a designer can see
//! how varsand read the file.

use std::fmt::Write;

use crate::engine::explain::{describe_condition, op_words};
use crate::ids::Side;
use crate::model::{Along, Convert, Placement};
use crate::rules::{Effect, EndRule, GenId, Outcome, Rules, Source};
use crate::syntax::betza::{BetzaMove, Hop};

/// Words for one Betza move component.
pub fn describe_move(b: &BetzaMove) -> String {
    describe_betza(b, false)
}

/// Words for one Betza move component; `stays`: its captures are made without moving
/// (a `stay` effect), so they remove the piece taken and leave the mover where it is.
fn describe_betza(b: &BetzaMove, stays: bool) -> String {
    // Group the directions by the shape of the step (a king has two shapes).
    type Shape = ((i8, i8), Vec<(i8, i8)>);
    let mut shapes: Vec<Shape> = Vec::new();
    for &(x, y) in &b.vectors {
        let key = (x.abs().min(y.abs()), x.abs().max(y.abs()));
        match shapes.iter_mut().find(|s| s.0 == key) {
            Some(s) => s.1.push((x, y)),
            None => shapes.push((key, vec![(x, y)])),
        }
    }
    let parts: Vec<String> = shapes
        .iter()
        .map(|(k, vs)| shape_words(*k, vs, b))
        .collect();
    let parts = parts.join(", or ");
    let mut s = match (b.can_move, b.can_capture, stays) {
        (true, true, false) => format!("moves or captures {parts}"),
        (true, false, _) => format!("moves without capturing {parts}"),
        (false, _, false) => format!("captures {parts}"),
        // A capture without moving: the piece taken is removed, the mover stays.
        (true, true, true) => format!(
            "moves without capturing {parts}, or, without moving, removes an enemy piece so reached"
        ),
        (false, _, true) => format!("without moving, removes an enemy piece {parts} away"),
    };
    match b.hop {
        Hop::Cannon => s += ", jumping exactly one piece on the way",
        Hop::Grasshopper => s += ", landing just beyond the one piece it jumps",
        Hop::None => {}
    }
    if b.lame {
        s += ", if the way is clear";
    }
    if b.initial {
        s += ", only as its first move";
    }
    s
}

fn shape_words((lo, hi): (i8, i8), vectors: &[(i8, i8)], b: &BetzaMove) -> String {
    let line = match (lo, hi) {
        (0, 1) => Some("orthogonally"),
        (1, 1) => Some("diagonally"),
        _ => None,
    };
    let mut s = match (line, b.rider) {
        (Some(l), true) if b.max_steps == 0 => format!("any distance {l}"),
        (Some(l), true) => format!("up to {} squares {l}", b.max_steps),
        (Some(l), false) => format!("one step {l}"),
        (None, rider) => {
            let leap = match (lo, hi) {
                (1, 2) => "a knight's leap".to_string(),
                (0, n) => format!("a leap of {n} squares orthogonally"),
                (n, m) if n == m => format!("a leap of {n} squares diagonally"),
                (a, b) => format!("a ({a},{b}) leap"),
            };
            if rider {
                format!("repeated {leap}s in a line")
            } else {
                leap
            }
        }
    };
    let all = crate::syntax::betza::symmetric(lo, hi).len() == vectors.len();
    if !all {
        let mut dirs = Vec::new();
        if vectors.iter().any(|v| v.1 > 0) {
            dirs.push("forward");
        }
        if vectors.iter().any(|v| v.1 == 0) {
            dirs.push("sideways");
        }
        if vectors.iter().any(|v| v.1 < 0) {
            dirs.push("backward");
        }
        s += &format!(" ({})", dirs.join(" and "));
    }
    s
}

/// Words for one generator: its source, then its conditions and effects.
pub fn describe_generator(rules: &Rules, id: GenId) -> String {
    let g = &rules.generators[id];
    let stays = g.effects.contains(&Effect::Stay);
    let mut line = match &g.source {
        Source::Betza(b) => describe_betza(rules.betza(*b), stays),
        Source::Flight { to, same_colour } => {
            let colour = if *same_colour {
                ", of the colour it stands on"
            } else {
                ""
            };
            format!(
                "flies to an empty square of {}{colour}, never capturing",
                rules.zone(*to).name
            )
        }
        Source::Drop => match g.piece.and_then(|k| rules.pieces[k].kept_as(k)) {
            Some(held) => format!(
                "may be placed, face up, from the hand's {}s onto an empty square",
                rules.piece(held).name
            ),
            None => "may be placed from the hand onto an empty square".to_string(),
        },
        Source::Clone => "may be copied, from an endless supply, onto an empty square next to one of its player's own (written as a placement from the hand)".to_string(),
        Source::Exit => "may leave the board".to_string(),
        Source::InPlace => "stays on its square".to_string(),
        Source::Flip { face } => format!(
            "may turn into its other face, the {}, and move as it",
            rules.piece(*face).name
        ),
        Source::Castle { castling } => {
            let c = &rules.castlings[usize::from(*castling)];
            let geo = &rules.geometry;
            format!(
                "castling ({}): {}{} with {}{}",
                c.letter,
                geo.name(c.king_from),
                geo.name(c.king_to),
                geo.name(c.rook_from),
                geo.name(c.rook_to)
            )
        }
        Source::Pass if rules.stuck_pass == Some(id) => {
            "a player with no legal move and a piece on the board passes".to_string()
        }
        Source::Pass => "the player may pass".to_string(),
        Source::Swap => "the second player may `swap` sides instead of a first move".to_string(),
    };
    for cond in &g.conditions {
        let _ = write!(line, "; needs {}", describe_condition(rules, cond));
    }
    for e in &g.effects {
        match *e {
            Effect::Leave(k) => {
                let _ = write!(line, "; leaves a {} behind", rules.piece(k).name);
            }
            Effect::Becomes(k) => {
                let _ = write!(
                    line,
                    "; turns into {}",
                    crate::engine::explain::with_article(&rules.piece(k).name)
                );
            }
            Effect::Height(d) => {
                let _ = write!(line, "; its height changes by {d:+}");
            }
            // Said with the move itself (a capture without moving), or meaningless.
            Effect::Stay if matches!(g.source, Source::Betza(_)) => {}
            Effect::Stay => line += "; captures without moving",
            Effect::Convert(Convert::Enclosed) => {
                line += "; turns to the mover's side the enemy pieces enclosed in a straight line (orthogonal or diagonal, no gap) between the square it ends on and another of the mover's pieces";
            }
            Effect::Convert(Convert::Adjacent) => {
                line += "; turns to the mover's side the enemy pieces on the squares around the one it ends on";
            }
            Effect::Place(p) => {
                let _ = write!(line, "; {}", placement_words(rules, &p));
            }
            Effect::Counter(i, d) => {
                let name = &rules.counters[i];
                let _ = if d < 0 {
                    write!(line, "; spends {} from the player's {name} counter", -d)
                } else {
                    write!(line, "; adds {d} to the player's {name} counter")
                };
            }
        }
    }
    line
}

/// A move's second part in words: "then the player puts a new arrow on an empty
/// square along orthogonal and diagonal lines from where the piece landed".
pub fn placement_words(rules: &Rules, p: &Placement) -> String {
    let name = &rules.terrains[usize::from(p.terrain)].name;
    let what = if p.lift {
        format!("moves the {name} (from wherever it stands) to another")
    } else {
        format!("puts a new {name} on an")
    };
    let square = match p.along {
        None => "empty square of the board".to_string(),
        Some(a) => format!(
            "empty square {} from where the piece landed",
            along_words(&a)
        ),
    };
    format!("then the player {what} {square}")
}

/// The lines or leaps of an `along`: "along orthogonal and diagonal lines, up to 3
/// squares", "a step or leap away".
fn along_words(a: &Along) -> String {
    let kinds = |set: u64| {
        let (mut orth, mut diag, mut other) = (false, false, false);
        for (dx, dy) in Along::steps(set) {
            match (dx.abs(), dy.abs()) {
                (0, 1) | (1, 0) => orth = true,
                (1, 1) => diag = true,
                _ => other = true,
            }
        }
        (orth, diag, other)
    };
    let mut parts = Vec::new();
    if a.rides != 0 {
        let (orth, diag, other) = kinds(a.rides);
        let lines: Vec<&str> = [(orth, "orthogonal"), (diag, "diagonal"), (other, "leaping")]
            .iter()
            .filter(|x| x.0)
            .map(|x| x.1)
            .collect();
        let range = match a.range {
            0 => String::new(),
            n => format!(", up to {n} squares"),
        };
        parts.push(format!("along {} lines{range}", lines.join(" and ")));
    }
    if a.leaps != 0 {
        parts.push("a step or leap away".to_string());
    }
    parts.join(" or ")
}

/// The result of a rule that ends the game without a move, for the player to move.
fn verdict(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "wins for the player to move",
        Outcome::Loss => "loses for the player to move",
        Outcome::Draw => "is a draw",
        Outcome::ByCount => "is decided by counting: more pieces on the board wins",
    }
}

fn outcome(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "wins",
        Outcome::Loss => "loses",
        Outcome::Draw => "draws",
        Outcome::ByCount => "ends the game, decided by counting: more pieces on the board wins",
    }
}

/// The whole rules summary.
pub fn describe(rules: &Rules) -> String {
    describe_parts(rules, true)
}

/// The rules in words without the pieces: what the web board shows under the pieces'
/// cards.
pub fn describe_game(rules: &Rules) -> String {
    describe_parts(rules, false)
}

fn describe_parts(rules: &Rules, with_pieces: bool) -> String {
    let mut s = String::new();
    let b = &rules.geometry.boards[0];
    let _ = writeln!(
        s,
        "{} — {} {}x{} board; {} plays the upper-case pieces, {} the lower-case.",
        rules.name,
        // "an 8x8", "an 11x11", "an 18x18", "a 9x10".
        if b.files.to_string().starts_with('8') || [11, 18].contains(&b.files) {
            "an"
        } else {
            "a"
        },
        b.files,
        b.ranks,
        rules.players[0].name,
        rules.players[1].name
    );
    if with_pieces {
        pieces_section(&mut s, rules);
    }
    terrain_section(&mut s, rules);
    zones_section(&mut s, rules);
    game_moves_section(&mut s, rules);
    counters_section(&mut s, rules);
    ends_section(&mut s, rules);
    params_section(&mut s, rules);
    s
}

/// What a piece does, a line for each way it moves (or that it never moves), and
/// whether it is royal: the lines of its card in the web board's rules panel.
pub fn piece_lines(rules: &Rules, kind: usize) -> Vec<String> {
    let mut lines: Vec<String> = rules.piece_moves[kind]
        .iter()
        .map(|&id| describe_generator(rules, id))
        .collect();
    if lines.is_empty() {
        lines.push("never moves".into());
    }
    if rules.pieces[kind].royal {
        lines.push("royal: may not be left attacked".into());
    }
    lines
}

/// A piece in words, on one line, for its tooltip: its name, then what it does.
pub fn piece_words(rules: &Rules, kind: usize) -> String {
    let name = &rules.pieces[kind].name;
    format!("{name}: {}", piece_lines(rules, kind).join("; "))
}

/// Each piece: its letter, name, tags and Betza string, then its moves, en passant and
/// promotion.
fn pieces_section(s: &mut String, rules: &Rules) {
    let _ = writeln!(s, "\nPieces:");
    for (p, moves) in rules.pieces.iter().zip(&rules.piece_moves) {
        let mut tags = Vec::new();
        if let Some(o) = p.owner {
            tags.push(format!("{}'s", rules.players[o].name));
        }
        if p.royal {
            tags.push("royal: may not be left attacked".to_string());
        }
        if let Some(v) = p.value {
            tags.push(format!("value {v}"));
        }
        let tag = if tags.is_empty() {
            String::new()
        } else {
            format!(" ({})", tags.join(", "))
        };
        let letter = crate::model::Symbol {
            letter: p.letter,
            mark: p.mark,
        }
        .text(p.owner != Some(Side::Second));
        let _ = writeln!(s, "  {} {}{} — \"{}\"", letter, p.name, tag, p.betza);
        for &id in moves {
            let _ = writeln!(s, "      {}", describe_generator(rules, id));
        }
        if p.en_passant {
            let _ = writeln!(s, "      takes and may be taken en passant");
        }
        for pr in &p.promotions {
            let to: Vec<&str> = pr
                .to
                .iter()
                .map(|&k| rules.piece(k).name.as_str())
                .collect();
            let when = match pr.when {
                crate::model::PromoteWhen::Arrives => "on reaching",
                crate::model::PromoteWhen::Leaves => "on leaving or moving within",
                crate::model::PromoteWhen::Touches => "on a move into, out of or within",
            };
            let _ = writeln!(
                s,
                "      {} {when} {}{} to {}",
                if pr.optional {
                    "may promote"
                } else {
                    "promotes"
                },
                rules.zone(pr.zone).name,
                if pr.capturing {
                    " when it captures (not on a quiet move)"
                } else {
                    ""
                },
                to.join(", ")
            );
        }
        if let Some(k) = p.to_hand {
            let _ = writeln!(
                s,
                "      captured, goes to the capturer's hand as {}",
                rules.piece(k).name
            );
        }
    }
}

/// Each terrain: what it blocks and which pieces clear or ignore it.
fn terrain_section(s: &mut String, rules: &Rules) {
    if rules.terrains.is_empty() {
        return;
    }
    let _ = writeln!(s, "\nTerrain:");
    let names = |mask: u64| -> String {
        let v: Vec<&str> = rules
            .pieces
            .iter()
            .enumerate()
            .filter(|(i, _)| mask >> i & 1 != 0)
            .map(|(_, p)| p.name.as_str())
            .collect();
        v.join(", ")
    };
    for t in &rules.terrains {
        let mut blocks = Vec::new();
        if t.blocks_passing {
            blocks.push("passing");
        }
        if t.blocks_landing {
            blocks.push("landing");
        }
        let mut line = format!(
            "  {} {} blocks {}",
            t.letter,
            t.name,
            if blocks.is_empty() {
                "nothing".into()
            } else {
                blocks.join(" and ")
            }
        );
        if t.cleared_by != 0 {
            let _ = write!(line, "; {} may enter it, clearing it", names(t.cleared_by));
        }
        if t.crossed_by != 0 {
            let one = t.crossed_by.count_ones() == 1;
            let verb = if one { "ignores" } else { "ignore" };
            let _ = write!(line, "; {} {verb} it", names(t.crossed_by));
        }
        let _ = writeln!(s, "{line}");
    }
}

/// Each zone's squares (a count when there are many), per player when they differ.
fn zones_section(s: &mut String, rules: &Rules) {
    if rules.zones.is_empty() {
        return;
    }
    let geo = &rules.geometry;
    let _ = writeln!(s, "\nZones:");
    // Squares lowering named (a flight's) are described with the moves that use them.
    for z in rules.zones.iter().filter(|z| z.declared) {
        let list = |side: usize| -> String {
            let cells: Vec<&str> = (0..geo.len())
                .filter(|&c| z.cells[side][c])
                .map(|c| geo.cells[c].name.as_str())
                .collect();
            if cells.len() > 12 {
                format!("{} squares", cells.len())
            } else {
                cells.join(" ")
            }
        };
        if z.cells[0] == z.cells[1] {
            let _ = writeln!(s, "  {}: {}", z.name, list(0));
        } else {
            // A player for whom the zone holds nothing is left out (the file gave it
            // squares for the other player only).
            let parts: Vec<String> = (0..2)
                .filter(|&side| z.cells[side].contains(&true))
                .map(|side| format!("{} {}", rules.players[side].name, list(side)))
                .collect();
            let _ = writeln!(s, "  {}: {}", z.name, parts.join("; "));
        }
    }
}

/// The game's own moves that belong to no piece: castlings and passes.
fn game_moves_section(s: &mut String, rules: &Rules) {
    let lines: Vec<String> = rules
        .game_moves
        .iter()
        .chain(&rules.stuck_pass)
        .filter(|&&id| {
            matches!(
                rules.generators[id].source,
                Source::Castle { .. } | Source::Pass
            )
        })
        .map(|&id| describe_generator(rules, id))
        .chain(gating_words(rules))
        .collect();
    if !lines.is_empty() {
        let _ = writeln!(s, "\nMoves of the game:");
        for line in lines {
            let _ = writeln!(s, "  {line}");
        }
    }
    if let Some(p) = &rules.on_move {
        let _ = writeln!(
            s,
            "\nEvery move has a second part, written after a comma: {}.",
            placement_words(rules, p)
        );
    }
}

/// `gating in ZONE`, in words, with its squares.
fn gating_words(rules: &Rules) -> Option<String> {
    if rules.gates.is_empty() {
        return None;
    }
    let squares = |side: crate::ids::Side| {
        let names: Vec<&str> = (rules.gates.iter())
            .filter(|&&(s, _)| s == side)
            .map(|&(_, c)| rules.geometry.name(c))
            .collect();
        names.join(" ")
    };
    Some(format!(
        "gating: a piece leaving a square it has stood on since the start ({}: {}; {}: {}) \
         may bring a piece from its player's hand onto that square (castling: onto the \
         king's or the partner's square), if the move alone is legal",
        rules.players[0].name,
        squares(crate::ids::Side::First),
        rules.players[1].name,
        squares(crate::ids::Side::Second),
    ))
}

fn counters_section(s: &mut String, rules: &Rules) {
    if !rules.counters.is_empty() {
        let _ = writeln!(
            s,
            "\nCounters: {} (set in the position string)",
            rules.counters.join(", ")
        );
    }
}

/// The end rules, the stalemate rule and the pie rule.
fn ends_section(s: &mut String, rules: &Rules) {
    let _ = writeln!(s, "\nHow the game ends:");
    for r in &rules.end_rules {
        let _ = writeln!(s, "  {}", end_rule_words(rules, r));
    }
    if rules.duple_check {
        let _ = writeln!(
            s,
            "  duple check: a player is in check only when all its royal pieces are attacked at once (one of several may be left attacked)"
        );
    }
    if let Some(spared) = &rules.explosions {
        let _ = writeln!(s, "  {}", explosion_words(rules, spared));
    }
    if rules.forbid_check {
        let _ = writeln!(s, "  a move that gives check is illegal");
    }
    if rules.must_drop {
        let _ = writeln!(
            s,
            "  placing is forced: while a player holds pieces in hand and may place one, placing is their only move"
        );
    }
    for p in rules.pieces.iter().filter(|p| p.both_colours) {
        let _ = writeln!(
            s,
            "  a player's {}s are placed on squares of both colours (half on each, as nearly as they divide)",
            p.name
        );
    }
    if let Some((king, partner)) = rules.castling_by_drop {
        let _ = writeln!(
            s,
            "  castling rights come from placing: a {} placed on a castling's square with its {} on the partner's square (or the {} with the {} there) gives that castling's right",
            rules.piece(king).name,
            rules.piece(partner).name,
            rules.piece(partner).name,
            rules.piece(king).name
        );
    }
    if rules.must_capture {
        let _ = writeln!(
            s,
            "  captures are forced: when a player can capture, only capturing moves are legal"
        );
    }
    for &(c, d) in &rules.on_check {
        let _ = writeln!(
            s,
            "  a move that gives check changes its player's counter {} by {d:+}",
            rules.counters[c.index()]
        );
    }
    if rules.forbid_dead_squares {
        let _ = writeln!(
            s,
            "  a piece may not be left where it could never move again"
        );
    }
    for k in &rules.no_mate_by_drop {
        let _ = writeln!(
            s,
            "  a {} may not be placed from the hand to give checkmate",
            rules.piece(*k).name
        );
    }
    if rules.stalemate_illegal {
        let _ = writeln!(
            s,
            "  a move that leaves the opponent stalemated is illegal (unless every move would)"
        );
    }
    if rules.pie_rule() {
        let _ = writeln!(
            s,
            "  pie rule: on the second player's first turn they may `swap` sides instead of moving"
        );
    }
}

/// `captures-explode`, in words: what a capture removes and what follows for the
/// royal pieces.
fn explosion_words(rules: &Rules, spared: &[crate::model::PieceKind]) -> String {
    let except = if spared.is_empty() {
        String::new()
    } else {
        let names: Vec<String> = spared
            .iter()
            .map(|&k| format!("{}s", rules.piece(k).name))
            .collect();
        format!(", except {} around it", names.join(" and "))
    };
    format!(
        "captures explode: the capturing piece, the piece taken and every piece on the squares around the target leave the board{except}; a move that blows up its own royal piece is illegal, one that blows up an enemy royal piece is legal even if it leaves its own attacked, and royal pieces side by side do not check each other"
    )
}

fn end_rule_words(rules: &Rules, r: &EndRule) -> String {
    match *r {
        EndRule::Checkmate(o) => format!("a checkmated player {}", outcome(o)),
        EndRule::Stalemate(o) => format!("a stalemated player {}", outcome(o)),
        EndRule::NoMoves(o) => format!("a player with no legal move {}", outcome(o)),
        EndRule::Repetition(k, o) => {
            format!("the same position {k} times {}", verdict(o))
        }
        EndRule::MoveLimit(k, o) => {
            format!("{k} moves each without capture or progress {}", verdict(o))
        }
        EndRule::Captured(k, o) => format!(
            "a player whose {} is captured {}",
            rules.piece(k).name,
            outcome(o)
        ),
        EndRule::Exited(k, o) => format!(
            "a player whose {} leaves the board {}",
            rules.piece(k).name,
            outcome(o)
        ),
        EndRule::Reached {
            kind,
            zone,
            reply,
            unattacked,
            outcome: o,
        } => format!(
            "a player whose {} reaches {} {}{}",
            rules.piece(kind).name,
            rules.zone(zone).name,
            outcome(o),
            if reply && !rules.piece(kind).royal {
                " (the other player answers first: it wins only if such a piece still stands there after the answer)"
            } else if reply {
                " (when the first player gets there, the second may answer: getting there too draws)"
            } else if unattacked {
                " (only standing on a square no enemy piece attacks, read after every move for both players: both at once draws)"
            } else {
                ""
            }
        ),
        EndRule::BareKing(o) => format!(
            "a player left with only royal pieces {} (unless the other has one piece left and it is taken at once)",
            outcome(o)
        ),
        EndRule::Facing(k, o) => format!(
            "the two {0}s facing each other (one file or rank, nothing between): the \
             player to move must end it or pass; a facing that stands after a pass ends \
             the game, which {1}",
            rules.piece(k).name,
            verdict(o)
        ),
        EndRule::Passes(k, o) => format!("{k} passes in a row {}", verdict(o)),
        EndRule::BoardFull(o) => format!("a full board {}", verdict(o)),
        EndRule::PiecesLeft {
            kind,
            op,
            count,
            outcome: o,
        } => format!(
            "a player whose {} (on the board and in hand) number {} {count} {}",
            kind.map_or_else(
                || "pieces".to_string(),
                |k| format!("{}s", rules.piece(k).name)
            ),
            op_words(op),
            outcome(o)
        ),
        EndRule::Counter(c, op, count, o) => format!(
            "a player whose counter {} is {} {count} {}",
            rules.counters[c.index()],
            op_words(op),
            outcome(o)
        ),
    }
}

fn params_section(s: &mut String, rules: &Rules) {
    if !rules.params.is_empty() {
        let _ = writeln!(s, "\nParameters (change with `set NAME VALUE`):");
        for (k, p) in &rules.params {
            let _ = writeln!(s, "  {k} = {}", p.value);
        }
    }
}
