//! Lowering: the game-level declarations of a checked [`Game`] (flight, flip, drop,
//! exits, castling, the pie rule, passing) become generators of the pieces they apply to, beside
//! the pieces' Betza moves, so that every later stage sees one shape.

use super::{GenId, Generator, Rules, Source, Tables};
use crate::ids::{BetzaId, Side};
use crate::model::{Cond, Game, Piece, Zone, ZoneId};
use crate::syntax::betza::BetzaMove;

/// The rules of `game` with every way to move lowered onto generators (tables empty).
/// The game is kept as the checker resolved it; lowering adds the generators, the
/// Betza components they name, and a flight's squares as zones of their own.
pub(super) fn lower(mut game: Game) -> Rules {
    let mut zones = std::mem::take(&mut game.zones);
    let flight_zones = flight_zones(&game, &mut zones);
    game.zones = zones;
    let mut generators = Vec::new();
    let mut betza_moves = Vec::new();
    let mut piece_moves = Vec::new();
    for (kind, piece) in game.pieces.iter().enumerate() {
        let mut moves = Vec::new();
        for g in piece_generators(&game, kind, piece, &flight_zones, &mut betza_moves) {
            moves.push(GenId::new(generators.len()));
            generators.push(g);
        }
        piece_moves.push(moves);
    }
    let mut game_moves = Vec::new();
    for g in game_generators(&game) {
        game_moves.push(GenId::new(generators.len()));
        generators.push(g);
    }
    // `pass when-stuck`: made only by legality, when no other move is legal, so it
    // is none of the game's moves generated every turn.
    let stuck_pass = game.pass_when_stuck.then(|| {
        generators.push(Generator {
            piece: None,
            source: Source::Pass,
            conditions: Vec::new(),
            effects: Vec::new(),
        });
        GenId::new(generators.len() - 1)
    });
    Rules {
        game,
        piece_moves,
        generators,
        betza_moves,
        game_moves,
        stuck_pass,
        tables: Tables::default(),
    }
}

/// Each flight's squares as two zones (where it starts, where it lands), added to
/// `zones`: a flight is a generator with a `from` condition and a target zone.
fn flight_zones(game: &Game, zones: &mut Vec<Zone>) -> Vec<(ZoneId, ZoneId)> {
    let mut out = Vec::new();
    for (i, f) in game.flights.iter().enumerate() {
        let from = ZoneId::new(zones.len());
        let name = squares_named(
            game,
            zones,
            &f.from,
            &format!("flight {} starts from", i + 1),
        );
        zones.push(Zone {
            name,
            cells: [f.from.clone(), f.from.clone()],
            declared: false,
        });
        let to = ZoneId::new(zones.len());
        let name = squares_named(game, zones, &f.to, &format!("flight {} lands on", i + 1));
        zones.push(Zone {
            name,
            cells: [f.to.clone(), f.to.clone()],
            declared: false,
        });
        out.push((from, to));
    }
    out
}

/// A name for a set of squares, for messages, as the file would say it: the zone of
/// the file they are (for both players), else the whole boards they are, else the
/// squares themselves when they are few, else what they are for.
fn squares_named(game: &Game, zones: &[Zone], cells: &[bool], role: &str) -> String {
    if let Some(zone) = zones
        .iter()
        .find(|z| z.declared && z.cells[0] == cells && z.cells[1] == cells)
    {
        return format!("zone {}", zone.name);
    }
    if let Some(boards) = whole_boards(game, cells) {
        return boards;
    }
    let names: Vec<&str> = (0..cells.len())
        .filter(|&c| cells[c])
        .map(|c| game.geometry.cells[c].name.as_str())
        .collect();
    if names.len() <= 6 {
        names.join(" ")
    } else {
        format!("the {} squares {role}", names.len())
    }
}

/// "board NAME" or "boards A, B and C" when `cells` are exactly the squares of some
/// boards, else `None`.
fn whole_boards(game: &Game, cells: &[bool]) -> Option<String> {
    let geo = &game.geometry;
    let mut full = Vec::new();
    for board in &geo.boards {
        let squares = board.first_cell..board.first_cell + board.files * board.ranks;
        let held = squares
            .clone()
            .filter(|&c| cells.get(c) == Some(&true))
            .count();
        if held == squares.len() {
            full.push(board.name.as_str());
        } else if held > 0 {
            return None;
        }
    }
    match full.as_slice() {
        [] => None,
        [one] => Some(format!("board {one}")),
        [rest @ .., last] => Some(format!("boards {} and {last}", rest.join(", "))),
    }
}

/// A piece's generators in the order its moves are produced: its Betza moves, its
/// flights, its exit, its flips, and its placement from the hand.
fn piece_generators(
    game: &Game,
    kind: usize,
    piece: &Piece,
    flight_zones: &[(ZoneId, ZoneId)],
    betza_moves: &mut Vec<BetzaMove>,
) -> Vec<Generator> {
    let gen_of = |source, conditions: Vec<Cond>| Generator {
        piece: Some(kind),
        source,
        conditions,
        effects: Vec::new(),
    };
    let mut out: Vec<Generator> = piece
        .components
        .iter()
        .map(|c| {
            betza_moves.push(c.betza.clone());
            Generator {
                piece: Some(kind),
                source: Source::Betza(BetzaId::new(betza_moves.len() - 1)),
                conditions: c.conditions.clone(),
                effects: c.effects.clone(),
            }
        })
        .collect();
    if piece.flies {
        for (f, &(from, to)) in game.flights.iter().zip(flight_zones) {
            let source = Source::Flight {
                to,
                same_colour: f.same_colour,
            };
            out.push(gen_of(source, vec![Cond::From(from)]));
        }
    }
    for rule in &piece.in_place {
        out.push(Generator {
            effects: rule.effects.clone(),
            ..gen_of(Source::InPlace, rule.conditions.clone())
        });
    }
    if let Some(zone) = piece.exits_from {
        out.push(gen_of(Source::Exit, vec![Cond::From(zone)]));
    }
    if let Some(face) = piece.flips_to {
        for (side, rule) in Side::BOTH.into_iter().zip(&game.flip_rules) {
            let Some(rule) = rule else { continue };
            if piece.owner.is_some_and(|o| o != side) {
                continue;
            }
            let mut conditions = vec![Cond::Player(side), Cond::From(rule.zone)];
            if let Some((kind, zone)) = rule.needs {
                conditions.push(Cond::OwnPieceIn { kind, zone });
            }
            out.push(gen_of(Source::Flip { face }, conditions));
        }
    }
    // A piece's own drop rule replaces the game's; a face kept in hand as another
    // piece is placed only by a rule of its own.
    let drop_zone = game.drop_zone.filter(|_| piece.kept_as(kind).is_none());
    match (&piece.drops, drop_zone) {
        (Some(rule), _) => {
            let mut conditions: Vec<Cond> = rule.zone.map(Cond::To).into_iter().collect();
            conditions.extend(rule.conditions.iter().copied());
            out.push(Generator {
                effects: rule.effects.clone(),
                ..gen_of(Source::Drop, conditions)
            });
        }
        (None, Some(zone)) => out.push(gen_of(Source::Drop, vec![Cond::To(zone)])),
        (None, None) => {}
    }
    if let Some(rule) = &piece.clones {
        out.push(Generator {
            effects: rule.effects.clone(),
            ..gen_of(Source::Clone, rule.conditions.clone())
        });
    }
    out
}

/// The moves of the game itself: the pie rule's swap, then castling.
fn game_generators(game: &Game) -> Vec<Generator> {
    let plain = |source| Generator {
        piece: None,
        source,
        conditions: Vec::new(),
        effects: Vec::new(),
    };
    let mut out = Vec::new();
    if game.pie_rule {
        out.push(plain(Source::Swap));
    }
    for castling in 0..game.castlings.len() {
        // At most 32 castlings (their rights are the bits of a u32).
        out.push(plain(Source::Castle {
            castling: castling as u8,
        }));
    }
    for conditions in &game.passes {
        out.push(Generator {
            conditions: conditions.clone(),
            ..plain(Source::Pass)
        });
    }
    out
}
