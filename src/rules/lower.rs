//! Lowering: the game-level declarations of a checked [`Game`] (flight, flip, drop,
//! exits, castling, the pie rule, passing) become generators of the pieces they apply to, beside
//! the pieces' Betza moves, so that every later stage sees one shape.

use super::{GenId, Generator, PieceType, Rules, Source, Tables};
use crate::model::{Cond, Game, Piece, Zone, ZoneId};

/// The rules of `game` with every way to move lowered onto generators (tables empty).
pub(super) fn lower(game: Game) -> Rules {
    let mut zones = game.zones.clone();
    let flight_zones = flight_zones(&game, &mut zones);
    let mut generators = Vec::new();
    let mut pieces = Vec::new();
    for (kind, piece) in game.pieces.iter().enumerate() {
        let mut moves = Vec::new();
        let mut add = |g: Generator| {
            moves.push(generators.len() as GenId);
            generators.push(g);
        };
        for g in piece_generators(&game, kind, piece, &flight_zones) {
            add(g);
        }
        pieces.push(PieceType {
            name: piece.name.clone(),
            letter: piece.letter,
            mark: piece.mark,
            royal: piece.royal,
            en_passant: piece.en_passant,
            resets_clock: piece.resets_clock,
            value: piece.value,
            betza: piece.betza.clone(),
            promotions: piece.promotions.clone(),
            to_hand: piece.to_hand,
            owner: piece.owner,
            moves,
        });
    }
    let mut game_moves = Vec::new();
    let game_level = game_generators(&game);
    for g in game_level {
        game_moves.push(generators.len() as GenId);
        generators.push(g);
    }
    Rules {
        name: game.name,
        geometry: game.geometry,
        players: game.players,
        pieces,
        terrains: game.terrains,
        zones,
        castlings: game.castlings,
        end_rules: game.end_rules,
        params: game.params,
        counters: game.counters,
        counter_starts: game.counter_starts,
        stalemate_illegal: game.stalemate_illegal,
        forbid_dead_squares: game.forbid_dead_squares,
        no_mate_by_drop: game.no_mate_by_drop,
        forbid_check: game.forbid_check,
        setup: game.setup,
        generators,
        game_moves,
        tables: Tables::default(),
    }
}

/// Each flight's squares as two zones (where it starts, where it lands), added to
/// `zones`: a flight is a generator with a `from` condition and a target zone.
fn flight_zones(game: &Game, zones: &mut Vec<Zone>) -> Vec<(ZoneId, ZoneId)> {
    let mut out = Vec::new();
    for (i, f) in game.flights.iter().enumerate() {
        let from = ZoneId::new(zones.len());
        zones.push(Zone {
            name: squares_named(game, &f.from, &format!("flight {} starts from", i + 1)),
            cells: [f.from.clone(), f.from.clone()],
        });
        let to = ZoneId::new(zones.len());
        zones.push(Zone {
            name: squares_named(game, &f.to, &format!("flight {} lands on", i + 1)),
            cells: [f.to.clone(), f.to.clone()],
        });
        out.push((from, to));
    }
    out
}

/// A name for a set of squares, for messages: the squares themselves when they are
/// few, else what they are for.
fn squares_named(game: &Game, cells: &[bool], role: &str) -> String {
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

/// A piece's generators in the order its moves are produced: its Betza moves, its
/// flights, its exit, its flips, and its placement from the hand.
fn piece_generators(
    game: &Game,
    kind: usize,
    piece: &Piece,
    flight_zones: &[(ZoneId, ZoneId)],
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
        .map(|c| Generator {
            piece: Some(kind),
            source: Source::Betza(c.betza.clone()),
            conditions: c.conditions.clone(),
            effects: c.effects.clone(),
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
    if let Some(zone) = piece.exits_from {
        out.push(gen_of(Source::Exit, vec![Cond::From(zone)]));
    }
    if let Some(face) = piece.flips_to {
        for (side, rule) in game.flip_rules.iter().enumerate() {
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
    // A piece's own drop rule replaces the game's.
    match (&piece.drops, game.drop_zone) {
        (Some(rule), _) => {
            let mut conditions: Vec<Cond> = rule.zone.map(Cond::To).into_iter().collect();
            conditions.extend(rule.conditions.iter().copied());
            out.push(gen_of(Source::Drop, conditions));
        }
        (None, Some(zone)) => out.push(gen_of(Source::Drop, vec![Cond::To(zone)])),
        (None, None) => {}
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
        out.push(plain(Source::Castle { castling }));
    }
    for conditions in &game.passes {
        out.push(Generator {
            conditions: conditions.clone(),
            ..plain(Source::Pass)
        });
    }
    out
}
