//! The evaluation, derived from the rules alone: no game or piece is known here.
//! Scores are in centipawns (100 = the unit of a `value` in a rule file), from the
//! side to move's point of view. For each side it adds up:
//!
//! - **material**: each piece's value. `value N` in the rule file is N×100. A piece
//!   without one gets an estimate from its moves: its average number of target
//!   squares over every square of an empty board, where a rider's squares along a ray
//!   count 1, 0.8, 0.64, … (farther squares are more often blocked), a move-only or
//!   capture-only component counts half, a hopping or conditional one half again, a
//!   lame one 0.8, a first-move-only one a tenth. The result is scaled so that the
//!   (1,2) leaper (Betza `N`, measured on the same board) is worth 300. A promoting
//!   piece adds 2% of the best piece it promotes to.
//! - **stack height**: a stack of height h > 1 adds (h − 1) × a per-level bonus: half
//!   the value of the piece it leaves behind if one of its moves has a `leave` effect
//!   (each level is a piece still to be born), else a tenth of its own value if one of
//!   its moves reads or changes the height, else nothing.
//! - **position**: a tenth of how much more (or less) than its average the piece
//!   reaches from its square on an empty board, in the same units (centralisation);
//!   royal pieces have none.
//! - **promotion progress**: a piece that promotes gains, as it nears its zone,
//!   20% × (the best promotion's value − its own) × (1 − distance / longest distance)³.
//! - **goal**: each piece that is not itself a target gains value/200 per step
//!   (Chebyshev distance) closer to the nearest enemy target: a royal piece when the
//!   game has a `checkmate loss` rule, a piece whose capture loses (`captured PIECE
//!   loss`).
//!
//! - **the hunt**: when one side leads by 150 or more in the material of non-target
//!   pieces, it gains, weighted by the share of the setup's material already off the
//!   board, half of how cornered each enemy target stands (its average empty-board
//!   reach minus its reach from its square, in the same units) and 8 per step its own
//!   targets stand closer to them (a lone royal piece is driven to the edge and met).
//!
//! - **royal safety and runners** ([`super::structure`]): a target piece's home rank,
//!   shelter and the enemy pieces near it in the middle game, its centralisation in the
//!   end game; passed, doubled and isolated runners (the cheapest forward-only promoting
//!   pieces), all weighed by the phase (the share of the setup's material left).
//!
//! - **royal distances**, only from a values file (`varsand tune --royal-distances`):
//!   with one royal piece a side, each piece gains its kind's learned bonus for its
//!   steps to the enemy royal piece and for its steps to its own.
//! - **around the royal pieces**, only from a values file (`--around-royals`): with
//!   one royal piece a side, a piece within two steps of one gains its kind's learned
//!   bonus for that square relative to it (shelter and attack, by square).
//! - **having the move**, only from a values file (`--tempo`): a constant for the
//!   side to move.
//! - **how much the threats count**, only from a values file (`--threats`): the
//!   weights the search's threat term ([`super::threats`]) gives the largest threat
//!   against the opponent and the two largest against the side to move.
//!
//! The search adds **mobility** ([`MOBILITY`] per move: the side to move's count two
//! plies earlier against the opponent's one ply earlier), shrinks every score toward 0
//! as a move-limit rule's count nears its end (to half at the limit: progress is worth
//! making while it counts), and optional seeded noise for self-play.

use crate::engine::Position;
use crate::engine::for_each_occupied_square;
use crate::ids::{PieceKind, Side};
use crate::rules::{
    Cell, Code, Compare, Cond, EMPTY, Effect, EndRule, Outcome, Rules, code, kind_of, side_of,
};
use crate::syntax::betza::{self, Hop};

use super::learned::{AROUND_CELLS, CROWD_MOST, Learned, around_index};
use super::structure::{Gathered, PHASE_FULL, Structure};

/// Centipawns per legal move of mobility (added by the search, which knows the counts).
pub const MOBILITY: i32 = 3;

/// The largest static evaluation, in centipawns: half the mate range, so that no sum
/// of piece values (`check` bounds each by [`crate::check::MAX_PIECE_VALUE`] pawns) nor
/// the search's additions to it reads as a mate.
pub const MAX_EVAL: i32 = super::MATE_BOUND / 2;
/// The worth of the (1,2) leaper, the unit the estimates are scaled to.
const LEAPER_12: f64 = 300.0;
/// How much of a rider's next square along a ray counts, relative to the last.
const RAY_DECAY: f64 = 0.8;
/// Centralisation: the share of the mobility difference that counts.
const CENTRAL: f64 = 0.1;
/// Exit progress: centipawns for a piece that wins by leaving the board, standing in
/// its exit zone (less, quadratically, farther away).
const EXIT: f64 = 250.0;

/// Promotion progress: the share of the promotion's gain at the zone's edge.
const PROMOTION: f64 = 0.2;
/// Cornering a target: the share of its missing reach that counts.
const CONFINE: f64 = 0.5;
/// The material lead from which the stronger side hunts the weaker side's targets.
const HUNT_LEAD: i32 = 150;
/// Hunting: centipawns per step the stronger side's own targets come closer.
const HUNT_APPROACH: i32 = 8;

/// How a piece's value was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// `value N` in the rule file.
    Declared,
    /// Estimated from its mobility.
    Estimated,
    /// Fitted to self-play games (`varsand tune`, a `GAME.values` file).
    Learned,
}

/// The evaluation tables of one set of rules.
#[derive(Debug, Clone)]
pub struct Eval {
    /// Per piece kind, its worth in centipawns.
    pub values: Vec<i32>,
    pub sources: Vec<Source>,
    /// Per piece kind, its worth in hand: its value, unless learned apart.
    hand_values: Vec<i32>,
    /// Centipawns per legal move of mobility ([`MOBILITY`] unless learned).
    pub mobility: i32,
    /// Centipawns for having the move (0 unless learned).
    pub tempo: i32,
    /// Sixteenths of the threats that count ([`super::threats::THREAT_WEIGHTS`] unless
    /// learned).
    pub threat_weights: [i32; 3],
    /// Per `code * (max_dist + 1) + steps`, signed by the owner: the learned bonus of
    /// a piece that many steps from the enemy royal piece (`toward`) and from its own
    /// (`guard`), with one royal piece a side; empty when not learned.
    toward: Vec<i32>,
    guard: Vec<i32>,
    /// Per `(code * 2 + which) * AROUND_CELLS + square`, signed by the owner: the
    /// learned bonus of a piece on a square of the grid around its own royal piece
    /// (`which` 0) or the enemy's (1); empty when not learned.
    around: Vec<i32>,
    /// Per `which * (CROWD_MOST + 1) + count`: the learned bonus of a side with that
    /// many pieces (royal pieces aside) in the grid around its own royal piece
    /// (`which` 0) or the enemy's (1); empty when not learned.
    crowd: Vec<i32>,
    /// The learned network added to the evaluation (`varsand tune --network`).
    network: Option<super::network::Network>,
    /// Per piece kind, centipawns per stack level above 1.
    pub height_bonus: Vec<i32>,
    /// Per `code * cells + cell`: the piece's value plus its positional bonus there,
    /// in centipawns, negated for the second player's pieces (one look-up per piece,
    /// added to one sum: a sum per side, indexed by the side, makes each piece wait
    /// for the last one's store).
    worth: Vec<i32>,
    /// The same in the end game, when learned tapered bonuses say it differs; else
    /// empty. A piece's worth is then blended from the two by the phase.
    worth_end: Vec<i32>,
    /// Some piece kind gains by its stack's height (else heights are not read).
    stacks_count: bool,
    /// Per `code`: the goal weight (value/200 per step) of that piece in 1/16 centipawns,
    /// 0 for targets, negated for the second player's pieces.
    goal_weight: Vec<i32>,
    /// Piece kinds whose loss decides the game against their owner.
    targets: u64,
    /// The targets are exactly the royal pieces, whose cells the position keeps:
    /// with one a side, the goal term is added in the first pass.
    royal_targets: bool,
    /// Per `code * cells + cell`, for target pieces: how cornered it is there (its
    /// average reach on an empty board minus its reach from the cell, half-scaled).
    confine: Vec<i32>,
    /// The material of the non-target pieces of the setup, both sides.
    start_material: i32,
    /// Per cell: (board, file, rank), for distances.
    coords: Vec<(u16, i16, i16)>,
    /// The longest Chebyshev distance on any board.
    max_dist: i32,
    /// Per `a * cells + b`, the distance between two cells, on boards small enough
    /// ([`DISTANCE_TABLE_CELLS`]); else empty, and distances are computed.
    distances: Vec<u8>,
    cells: usize,
    /// Royal safety and runner structure, weighed by the phase.
    structure: Structure,
}

/// The most cells for which the distances between every two are kept (64 KB).
const DISTANCE_TABLE_CELLS: usize = 256;

/// The average-mobility estimate of each component, for one side, from one cell.
fn reach(rules: &Rules, kind: usize, side: Side, cell: Cell) -> f64 {
    let geo = &rules.geometry;
    let flip = if side.is_first() { 1 } else { -1 };
    let mut total = 0.0;
    for (_, c) in rules.moves_of(PieceKind::new(kind)) {
        let crate::rules::Source::Betza(b) = c.source else {
            continue;
        };
        let b = rules.betza(b);
        let mut w = match (b.can_move, b.can_capture) {
            (true, true) => 1.0,
            (false, false) => 0.0,
            _ => 0.5,
        };
        if b.hop != Hop::None {
            w *= 0.5;
        }
        if b.initial {
            w *= 0.1;
        }
        if b.lame {
            w *= 0.8;
        }
        if !c.conditions.is_empty() {
            w *= 0.5;
        }
        for &(vx, vy) in &b.vectors {
            let (dx, dy) = (i32::from(vx) * flip, i32::from(vy) * flip);
            let max = if !b.rider {
                1
            } else if b.max_steps == 0 {
                usize::MAX
            } else {
                b.max_steps as usize
            };
            let (mut cur, mut k, mut weight) = (cell, 0, w);
            while k < max {
                let Some(next) = geo.offset(cur, dx, dy) else {
                    break;
                };
                total += weight;
                weight *= RAY_DECAY;
                cur = next;
                k += 1;
            }
        }
    }
    total
}

/// The (1,2) leaper's average number of targets on this geometry (0 if none).
fn leaper_12_reach(rules: &Rules) -> f64 {
    let geo = &rules.geometry;
    let n = geo.len();
    if n == 0 {
        return 0.0;
    }
    let mut total = 0usize;
    for cell in Cell::all(n) {
        for (dx, dy) in betza::symmetric(1, 2) {
            if geo.offset(cell, i32::from(dx), i32::from(dy)).is_some() {
                total += 1;
            }
        }
    }
    total as f64 / n as f64
}

/// Per piece type, the bonus for its height: half the value of the piece it leaves
/// behind, or a tenth of its own when its moves depend on its height.
fn height_bonus(rules: &Rules, values: &[i32]) -> Vec<i32> {
    (0..rules.pieces.len())
        .map(|k| {
            let gens: Vec<&crate::rules::Generator> =
                rules.moves_of(PieceKind::new(k)).map(|(_, g)| g).collect();
            let leaves = gens
                .iter()
                .flat_map(|g| &g.effects)
                .filter_map(|e| match *e {
                    Effect::Leave(left) => Some(values[left]),
                    _ => None,
                })
                .max();
            let uses_height = gens.iter().any(|g| {
                g.effects.iter().any(|e| matches!(e, Effect::Height(_)))
                    || g.conditions.iter().any(|c| matches!(c, Cond::Height(..)))
            });
            match leaves {
                Some(v) => v / 2,
                None if uses_height => values[k] / 10,
                None => 0,
            }
        })
        .collect()
}

/// 1, or -1 where a player wins by running out of pieces (a `pieces-left` rule of
/// every kind, `== N`, `< N` or `<= N`, that wins): there, pieces on the board count
/// against their player.
fn material_sign(rules: &Rules) -> i32 {
    let loses_to_win = rules.end_rules.iter().any(|r| {
        matches!(
            r,
            EndRule::PiecesLeft {
                kind: None,
                op: Compare::Equal | Compare::Less | Compare::LessEq,
                outcome: Outcome::Win,
                ..
            }
        )
    });
    if loses_to_win { -1 } else { 1 }
}

/// The piece types whose loss loses the game: royal pieces under a checkmate-loss
/// rule, and the pieces of `captured PIECE loss` rules.
fn target_kinds(rules: &Rules) -> u64 {
    let mut targets = 0u64;
    let checkmate = rules
        .end_rules
        .iter()
        .any(|r| matches!(r, EndRule::Checkmate(Outcome::Loss)));
    for (k, p) in rules.pieces.iter().enumerate() {
        if p.royal && checkmate {
            targets |= 1 << k;
        }
    }
    for r in &rules.end_rules {
        if let EndRule::Captured(k, Outcome::Loss) = *r {
            targets |= 1 << k.index();
        }
    }
    targets
}

/// The value of each piece type in centipawns, and where it came from: declared
/// (`value N`), or estimated from its average reach (`mean`) times `scale`, plus a
/// little of its best promotion.
fn piece_values(rules: &Rules, mean: &dyn Fn(usize) -> f64, scale: f64) -> (Vec<i32>, Vec<Source>) {
    let (values, sources): (Vec<i32>, Vec<Source>) = rules
        .pieces
        .iter()
        .enumerate()
        .map(|(k, p)| match p.value {
            Some(v) => (
                v.saturating_mul(100)
                    .clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32,
                Source::Declared,
            ),
            None => ((mean(k) * scale).round() as i32, Source::Estimated),
        })
        .unzip();
    let potential: Vec<i32> = (0..values.len())
        .map(|k| (f64::from(best_promotion(rules, &values, k)) * 0.02).round() as i32)
        .collect();
    let values = values
        .iter()
        .zip(&sources)
        .zip(potential)
        .map(|((&v, s), extra)| {
            if *s == Source::Estimated {
                v + extra
            } else {
                v
            }
        })
        .collect();
    (values, sources)
}

/// The value of a piece type's most valuable promotion (0 if it does not promote).
fn best_promotion(rules: &Rules, values: &[i32], k: usize) -> i32 {
    rules.pieces[k]
        .promotions
        .iter()
        .flat_map(|p| p.to.iter().map(|&t| values[t]))
        .max()
        .unwrap_or(0)
}

/// Each cell's (board, file, rank), and the longest Chebyshev distance on any board
/// (at least 1).
fn coordinates(rules: &Rules) -> (Vec<(u16, i16, i16)>, i32) {
    let coords = rules
        .geometry
        .cells
        .iter()
        .map(|c| (c.board as u16, c.file as i16, c.rank as i16))
        .collect();
    let max_dist = rules
        .geometry
        .boards
        .iter()
        .map(|b| b.files.max(b.ranks) as i32 - 1)
        .max()
        .unwrap_or(0)
        .max(1);
    (coords, max_dist)
}

/// Per cell, its distance to the nearest cell of `zone` for `side` (`max_dist` when
/// the zone holds none).
fn zone_distances(
    rules: &Rules,
    zone: crate::rules::ZoneId,
    side: Side,
    dist: &dyn Fn(usize, usize) -> i32,
    max_dist: i32,
) -> Vec<i32> {
    let n = rules.cell_count();
    let cells: Vec<usize> = (0..n)
        .filter(|&z| rules.zone_contains(zone, side, Cell::new(z)))
        .collect();
    (0..n)
        .map(|cell| {
            cells
                .iter()
                .map(|&z| dist(cell, z))
                .min()
                .unwrap_or(max_dist)
        })
        .collect()
}

/// The longest of some distances, at least 1 (a divisor).
fn longest(distances: &[i32]) -> i32 {
    distances.iter().copied().max().unwrap_or(1).max(1)
}

/// Every distance between two cells, when there are few enough cells (else none).
fn distance_table(n: usize, dist: &dyn Fn(usize, usize) -> i32) -> Vec<u8> {
    if n > DISTANCE_TABLE_CELLS {
        return Vec::new();
    }
    (0..n * n)
        .map(|i| dist(i / n, i % n).clamp(0, 255) as u8)
        .collect()
}

impl Eval {
    /// Builds the tables for a set of rules.
    pub fn new(rules: &Rules) -> Self {
        Self::build(rules, None)
    }

    /// The tables with learned values, square bonuses and mobility weight in place of
    /// the derived ones; the terms that follow the rules (goal, hunt, stacks) are
    /// derived as usual, from the learned values.
    pub fn with_learned(rules: &Rules, learned: &Learned) -> Self {
        Self::build(rules, Some(learned))
    }

    fn build(rules: &Rules, learned: Option<&Learned>) -> Self {
        let n = rules.cell_count();
        let kinds = rules.pieces.len();
        let unit = leaper_12_reach(rules);
        // Centipawns per weighted target square.
        let scale = LEAPER_12 / if unit > 0.0 { unit } else { 5.25 };
        // Per kind and side, the reach from every cell.
        let reaches: Vec<[Vec<f64>; 2]> = (0..kinds)
            .map(|k| Side::BOTH.map(|s| Cell::all(n).map(|c| reach(rules, k, s, c)).collect()))
            .collect();
        let mean = |k: usize| {
            if n == 0 {
                0.0
            } else {
                reaches[k][0].iter().sum::<f64>() / n as f64
            }
        };
        let (values, sources) = match learned {
            Some(l) => (bounded(&l.values), vec![Source::Learned; kinds]),
            None => piece_values(rules, &mean, scale),
        };
        let height_bonus = height_bonus(rules, &values);
        let (coords, max_dist) = coordinates(rules);
        let dist = |a: usize, b: usize| -> i32 {
            let (ba, fa, ra) = coords[a];
            let (bb, fb, rb) = coords[b];
            if ba != bb {
                max_dist
            } else {
                i32::from((fa - fb).abs().max((ra - rb).abs()))
            }
        };
        let ncodes = 1 + 2 * kinds;
        let material = material_sign(rules);
        let mut worth = vec![0; ncodes * n];
        let tapered = learned.is_some_and(Learned::tapered);
        let mut worth_end = vec![0; if tapered { ncodes * n } else { 0 }];
        for (k, p) in rules.pieces.iter().enumerate() {
            let avg = mean(k);
            let gain = best_promotion(rules, &values, k) - values[k];
            for (side, reach) in Side::BOTH.into_iter().zip(&reaches[k]) {
                let c = code(k, side) as usize;
                // Distance from each cell to a zone (the promotion zone, the exit zone).
                let distances = |zone| zone_distances(rules, zone, side, &dist, max_dist);
                let zone_dist: Option<Vec<i32>> = p.promotions.first().map(|pr| distances(pr.zone));
                let exit_dist: Option<Vec<i32>> = rules.exit_zone(PieceKind::new(k)).map(distances);
                let exit_longest = exit_dist.as_deref().map_or(1, longest);
                let longest = zone_dist.as_deref().map_or(1, longest);
                for cell in 0..n {
                    let mut bonus = 0.0;
                    if !p.royal {
                        bonus += (reach[cell] - avg) * scale * CENTRAL;
                    }
                    if let Some(d) = &zone_dist
                        && gain > 0
                    {
                        let near = 1.0 - f64::from(d[cell]) / f64::from(longest);
                        bonus += f64::from(gain) * PROMOTION * near.powi(3);
                    }
                    // A piece whose leaving the board wins is drawn toward the exit.
                    if let Some(d) = &exit_dist {
                        let near = 1.0 - f64::from(d[cell]) / f64::from(exit_longest);
                        bonus += EXIT * near.powi(2);
                    }
                    let at = (k, side, Cell::new(cell));
                    let (bonus, bonus_end) = match learned {
                        Some(l) => (
                            l.square(&rules.geometry, at, false),
                            l.square(&rules.geometry, at, true),
                        ),
                        None => (bonus.round() as i32, bonus.round() as i32),
                    };
                    worth[c * n + cell] = signed(side, material * values[k] + bonus);
                    if tapered {
                        worth_end[c * n + cell] = signed(side, material * values[k] + bonus_end);
                    }
                }
            }
        }
        let (toward, guard) =
            learned.map_or_else(Default::default, |l| distance_bonuses(l, kinds, max_dist));
        let around = learned.map_or_else(Vec::new, |l| around_bonuses(l, kinds));
        let crowd = learned.map_or_else(Vec::new, crowd_bonuses);
        let targets = target_kinds(rules);
        let goal_weight = goal_weights(&values, targets);
        let confine = confine_table(&reaches, n, targets, &mean, scale);
        let zone_distance = |k: usize, side: Side| -> Option<(Vec<i32>, i32)> {
            let zone = rules.pieces[k].promotions.first()?.zone;
            let d = zone_distances(rules, zone, side, &dist, max_dist);
            let most = longest(&d);
            Some((d, most))
        };
        let structure = Structure::new(
            rules,
            &values,
            &|k, side, cell| reaches[k][side][cell],
            scale,
            targets,
            &zone_distance,
        );
        let start_material = start_material(rules, &values, targets);
        Eval {
            hand_values: learned.map_or_else(|| values.clone(), |l| bounded(&l.hand)),
            mobility: learned.map_or(MOBILITY, |l| l.mobility),
            tempo: learned.map_or(0, |l| l.tempo),
            threat_weights: learned
                .and_then(|l| l.threats)
                .unwrap_or(super::threats::THREAT_WEIGHTS),
            toward,
            guard,
            around,
            crowd,
            values,
            sources,
            stacks_count: height_bonus.iter().any(|&b| b != 0),
            height_bonus,
            worth,
            worth_end,
            goal_weight,
            royal_targets: targets != 0 && targets == royal_kinds(rules),
            targets,
            confine,
            start_material,
            distances: distance_table(n, &dist),
            coords,
            max_dist,
            cells: n,
            structure,
            network: learned.and_then(|l| l.network.clone()),
        }
    }

    /// The value of a piece code in centipawns (0 for an empty square).
    #[inline]
    pub fn value_of(&self, c: u8) -> i32 {
        if c == EMPTY {
            0
        } else {
            self.values[kind_of(c)]
        }
    }

    /// The first player's bonus for standing on `cell` with a piece of `kind`: its
    /// worth there less its value (what `varsand tune` starts from).
    pub fn square_bonus(&self, kind: usize, cell: usize) -> i32 {
        self.worth[code(kind, Side::First) as usize * self.cells + cell] - self.values[kind]
    }

    /// The Chebyshev steps between two cells (the longest distance across boards).
    #[inline]
    pub(crate) fn dist(&self, a: usize, b: usize) -> i32 {
        if !self.distances.is_empty() {
            return i32::from(self.distances[a * self.cells + b]);
        }
        let (ba, fa, ra) = self.coords[a];
        let (bb, fb, rb) = self.coords[b];
        if ba != bb {
            self.max_dist
        } else {
            i32::from((fa - fb).abs().max((ra - rb).abs()))
        }
    }

    /// The static evaluation of a position, from the side to move's point of view, in
    /// centipawns (mobility aside), within ±[`MAX_EVAL`]: whatever the pieces are
    /// worth, a position is never scored as a won or lost game.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let net = self.network.as_ref().map_or(0, |n| n.evaluate(pos));
        (self.material_and_more(pos) + self.tempo + net).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// [`Eval::evaluate`], unbounded. One pass over the pieces finds the targets; the
    /// terms that need the targets' cells then read the pieces again. Sums are kept
    /// from the first player's point of view.
    fn material_and_more(&self, pos: &Position) -> i32 {
        if let Some(royals) = self.lone_royal_targets(pos) {
            return self.evaluate_toward(pos, royals);
        }
        let board = pos.board();
        let n = self.cells.min(board.len());
        let mut score = 0i32;
        // The material of the non-target pieces: the first player's lead, and both.
        let mut lead = 0i32;
        let mut material = 0i32;
        // Enemy targets per side: cells of the opponent's target pieces.
        // Kept in an array; with more, they are read from the board (see `targets_of`).
        let mut target_cells: [[usize; TARGETS_KEPT]; 2] = [[0; TARGETS_KEPT]; 2];
        let mut target_len = [0usize; 2];
        let mut gathered = Gathered::default();
        let mut worth = (0i32, 0i32);
        for_each_occupied_square(board, |cell| {
            let c = board[cell];
            let kind = kind_of(c);
            if kind >= self.values.len() {
                return;
            }
            let side = side_of(c);
            let target = self.targets >> kind & 1 != 0;
            let mut v = self.values[kind];
            if cell >= n {
                // Off the boards (a piece in hand, should the engine keep such cells):
                // its value only.
                score += signed(side, v);
            } else {
                if self.stacks_count {
                    let h = i32::from(pos.height_at(Cell::new(cell)));
                    if h > 1 {
                        let bonus = (h - 1) * self.height_bonus[kind];
                        v += bonus;
                        score += signed(side, bonus);
                    }
                }
                self.add_worth(&mut worth, c, cell);
                if self.structure.is_runner(c) {
                    gathered.runner(side, cell);
                }
                if target {
                    if target_len[side] < TARGETS_KEPT {
                        target_cells[side][target_len[side]] = cell;
                    }
                    target_len[side] += 1;
                }
            }
            if !target {
                lead += signed(side, v);
                material += v;
            }
        });
        let phase = self.structure.phase(material, self.start_material);
        score += self.blend_worth(worth, phase);
        score += self.structure.runners(board, &gathered, phase);
        if self.targets != 0 {
            let targets = Targets {
                board,
                cells: &target_cells,
                len: &target_len,
            };
            score += self.goal(&board[..n], &targets) / 16;
            if let Some((strong, hunt)) = self.hunt(lead, material, &targets) {
                score += signed(strong, hunt);
            }
        }
        score += self.in_hand(pos);
        signed(pos.side_to_move(), score)
    }

    /// The cells of the two sides' targets, when they are their one royal piece each
    /// on a board whose distances are tabled (where the royal-distance bonuses count).
    #[inline]
    pub(crate) fn lone_royal_targets(&self, pos: &Position) -> Option<[usize; 2]> {
        let royals = &pos.royals;
        (self.royal_targets
            && !self.distances.is_empty()
            && royals.count(Side::First) == 1
            && royals.count(Side::Second) == 1)
            .then(|| {
                [
                    royals.of(Side::First)[0].index(),
                    royals.of(Side::Second)[0].index(),
                ]
            })
            .filter(|r| r[0] < self.cells && r[1] < self.cells)
    }

    /// [`Self::evaluate`] with one target a side standing on `targets`: one pass over
    /// the pieces adds the goal term as it goes. Its loop repeats `evaluate`'s on
    /// purpose: this is the common case (one royal piece a side), and sharing one loop
    /// cost 3 to 5% of the search's instructions (callgrind, `go depth 8`).
    fn evaluate_toward(&self, pos: &Position, targets: [usize; 2]) -> i32 {
        let board = pos.board();
        let n = self.cells.min(board.len());
        let row = |side: usize| &self.distances[targets[side ^ 1] * self.cells..][..self.cells];
        let rows = [row(0), row(1)];
        let (mut score, mut goal, mut lead, mut material) = (0i32, 0i32, 0i32, 0i32);
        let mut gathered = Gathered::default();
        let mut worth = (0i32, 0i32);
        // Per side, its pieces in the grid around its own royal piece and the enemy's.
        let mut crowds = [[0usize; 2]; 2];
        for_each_occupied_square(board, |cell| {
            let c = board[cell];
            let kind = kind_of(c);
            if kind >= self.values.len() {
                return;
            }
            let side = side_of(c);
            let mut v = self.values[kind];
            if cell >= n {
                score += signed(side, v);
            } else {
                if self.stacks_count {
                    let h = i32::from(pos.height_at(Cell::new(cell)));
                    if h > 1 {
                        let bonus = (h - 1) * self.height_bonus[kind];
                        v += bonus;
                        score += signed(side, bonus);
                    }
                }
                self.add_worth(&mut worth, c, cell);
                let to_enemy = rows[side][cell];
                goal += self.goal_weight[c as usize] * (self.max_dist - i32::from(to_enemy));
                if !self.toward.is_empty() {
                    let to_own = rows[side.opponent()][cell];
                    score += self.royal_distance_bonus(c, to_enemy, to_own);
                }
                if !(self.around.is_empty() && self.crowd.is_empty()) {
                    let royal = self.targets >> kind & 1 != 0;
                    score += self.around_bonus(c, cell, targets, &mut crowds[side.index()], royal);
                }
                self.structure.aim(&mut gathered, c, side, to_enemy);
                if self.structure.is_runner(c) {
                    gathered.runner(side, cell);
                }
            }
            if self.targets >> kind & 1 == 0 {
                lead += signed(side, v);
                material += v;
                // Rows of the own target: the enemy's rows.
                if cell < n && rows[side.opponent()][cell] <= 1 {
                    gathered.shelter[side] += 1;
                }
            }
        });
        score += goal / 16;
        if !self.crowd.is_empty() {
            score += self.crowd_bonus(crowds);
        }
        let phase = self.structure.phase(material, self.start_material);
        score += self.blend_worth(worth, phase);
        score += self.structure.royal(board, targets, &gathered, phase);
        score += self.structure.runners(board, &gathered, phase);
        let cells = [[targets[0]; TARGETS_KEPT], [targets[1]; TARGETS_KEPT]];
        let found = Targets {
            board,
            cells: &cells,
            len: &[1, 1],
        };
        if let Some((strong, hunt)) = self.hunt(lead, material, &found) {
            score += signed(strong, hunt);
        }
        score += self.in_hand(pos);
        signed(pos.side_to_move(), score)
    }

    /// How much of the middle game is left in a position, from 1 (every piece of the
    /// setup on the board) to 0 (none), by the non-target material on the board
    /// ([`Structure::phase`]).
    pub fn middle_game_share(&self, pos: &Position) -> f32 {
        let board = pos.board();
        let mut material = 0;
        for_each_occupied_square(board, |cell| {
            let kind = kind_of(board[cell]);
            if kind < self.values.len() && self.targets >> kind & 1 == 0 {
                material += self.values[kind];
            }
        });
        self.structure.phase(material, self.start_material) as f32 / PHASE_FULL as f32
    }

    /// Adds a piece's worth on its cell to the (middle game, end game) sums.
    #[inline]
    fn add_worth(&self, worth: &mut (i32, i32), c: Code, cell: usize) {
        let i = c as usize * self.cells + cell;
        worth.0 += self.worth[i];
        if !self.worth_end.is_empty() {
            worth.1 += self.worth_end[i];
        }
    }

    /// The pieces' worth: the middle game's sum, or with tapered bonuses the two sums
    /// blended by the phase.
    #[inline]
    fn blend_worth(&self, (middle, end): (i32, i32), phase: i32) -> i32 {
        if self.worth_end.is_empty() {
            middle
        } else {
            Structure::blend((middle, end), phase)
        }
    }

    /// The learned bonus of piece `c` for its steps to the enemy royal piece and to
    /// its own, from the first player's point of view.
    #[inline]
    fn royal_distance_bonus(&self, c: Code, to_enemy: u8, to_own: u8) -> i32 {
        let row = c as usize * (self.max_dist as usize + 1);
        let at = |d: u8| row + usize::from(d).min(self.max_dist as usize);
        self.toward[at(to_enemy)] + self.guard[at(to_own)]
    }

    /// The learned bonus of piece `c` on `cell` for where it stands relative to each
    /// side's royal piece (`targets`), from the first player's point of view (0
    /// without learned grids); counts it in its side's `crowds` (around its own,
    /// around the enemy's) unless `royal`.
    #[inline]
    fn around_bonus(
        &self,
        c: Code,
        cell: usize,
        targets: [usize; 2],
        crowds: &mut [usize; 2],
        royal: bool,
    ) -> i32 {
        let side = side_of(c);
        let mut bonus = 0;
        for (which, at) in [targets[side.index()], targets[side.opponent().index()]]
            .into_iter()
            .enumerate()
        {
            if let Some(i) = self.around_square(side, at, cell) {
                let at = (c as usize * 2 + which) * AROUND_CELLS + i;
                bonus += self.around.get(at).copied().unwrap_or(0);
                crowds[which] += usize::from(!royal);
            }
        }
        bonus
    }

    /// The learned bonuses of each side's `crowds` (its pieces around its own royal
    /// piece and around the enemy's), from the first player's point of view.
    fn crowd_bonus(&self, crowds: [[usize; 2]; 2]) -> i32 {
        let mut bonus = 0;
        for side in Side::BOTH {
            for (which, &count) in crowds[side.index()].iter().enumerate() {
                bonus += signed(
                    side,
                    self.crowd[which * (CROWD_MOST + 1) + count.min(CROWD_MOST)],
                );
            }
        }
        bonus
    }

    /// The grid square (see [`around_index`]) of `cell` around the royal piece on
    /// `royal`, seen from `side`, if within the grid.
    #[inline]
    pub(crate) fn around_square(&self, side: Side, royal: usize, cell: usize) -> Option<usize> {
        let (board, file, rank) = self.coords[cell];
        let (royal_board, royal_file, royal_rank) = self.coords[royal];
        if board != royal_board {
            return None;
        }
        let (dx, dy) = (i32::from(file - royal_file), i32::from(rank - royal_rank));
        if side.is_first() {
            around_index(dx, dy)
        } else {
            around_index(-dx, -dy)
        }
    }

    /// The longest distance counted.
    pub(crate) fn max_steps(&self) -> i32 {
        self.max_dist
    }

    /// The worth of the pieces in hand, from the first player's point of view: placing
    /// one loses nothing.
    #[inline]
    fn in_hand(&self, pos: &Position) -> i32 {
        let kinds = self.values.len();
        let mut score = 0;
        if kinds > 0 {
            for (side, hand) in Side::BOTH.into_iter().zip(pos.hand.chunks_exact(kinds)) {
                for (&count, &value) in hand.iter().zip(&self.hand_values) {
                    score += signed(side, i32::from(count) * value);
                }
            }
        }
        score
    }

    /// The goal term, in 1/16 centipawns, from the first player's point of view: each
    /// non-target piece on `board` gains for standing near the nearest enemy target.
    fn goal(&self, board: &[Code], targets: &Targets) -> i32 {
        let mut goal = 0;
        if let Some(rows) = self.single_target_rows(targets) {
            for_each_occupied_square(board, |cell| {
                let c = board[cell];
                if let Some(&w) = self.goal_weight.get(c as usize) {
                    goal += w * (self.max_dist - i32::from(rows[side_of(c)][cell]));
                }
            });
            return goal;
        }
        for_each_occupied_square(board, |cell| {
            let c = board[cell];
            let w = self.goal_weight.get(c as usize).copied().unwrap_or(0);
            if w == 0 {
                return;
            }
            if let Some(d) = self.nearest(targets, side_of(c).opponent(), cell) {
                goal += w * (self.max_dist - d);
            }
        });
        goal
    }

    /// With one target a side and the distance table: per side, the distances from
    /// the enemy target to every cell.
    #[inline]
    fn single_target_rows<'a>(&'a self, targets: &Targets) -> Option<[&'a [u8]; 2]> {
        if self.distances.is_empty() || targets.len != &[1, 1] {
            return None;
        }
        let n = self.cells;
        let row = |side: usize| &self.distances[targets.cells[side ^ 1][0] * n..][..n];
        Some([row(0), row(1)])
    }

    /// The distance from `cell` to the nearest target piece of `side`, if it has one.
    #[inline]
    fn nearest(&self, targets: &Targets, side: Side, cell: usize) -> Option<i32> {
        let count = targets.len[side];
        if count <= TARGETS_KEPT {
            return targets.cells[side][..count]
                .iter()
                .map(|&t| self.dist(cell, t))
                .min();
        }
        let mut nearest = None;
        self.targets_of(targets, side, |t| {
            let d = self.dist(cell, t);
            nearest = Some(nearest.map_or(d, |x: i32| x.min(d)));
        });
        nearest
    }

    /// The hunt: with a clear lead, and more so as material comes off, the stronger
    /// side corners the weaker side's targets and brings its own near. The stronger
    /// side and its bonus, if one leads enough.
    /// `lead`: the first player's lead in the material of non-target pieces; `left`:
    /// that material, both sides.
    fn hunt(&self, lead: i32, left: i32, targets: &Targets) -> Option<(Side, i32)> {
        if self.start_material <= 0 || lead.abs() < HUNT_LEAD {
            return None;
        }
        let strong = Side::new(usize::from(lead < 0));
        let weak = strong.opponent();
        let weight = (self.start_material - left).max(0) * 256 / self.start_material;
        let mut hunt = 0;
        self.targets_of(targets, weak, |t| {
            hunt += self.confine[targets.board[t] as usize * self.cells + t];
            self.targets_of(targets, strong, |o| {
                hunt += HUNT_APPROACH * (self.max_dist - self.dist(o, t));
            });
        });
        Some((strong, hunt * weight / 256))
    }

    /// Calls `f` with the cell of each target piece of `side`: from the array when
    /// they all fit in it, else from the board.
    fn targets_of(&self, targets: &Targets, side: Side, mut f: impl FnMut(usize)) {
        let count = targets.len[side];
        if count <= TARGETS_KEPT {
            targets.cells[side][..count].iter().for_each(|&t| f(t));
            return;
        }
        for (cell, &c) in targets.board.iter().enumerate().take(self.cells) {
            if c != EMPTY && side_of(c) == side && self.targets >> kind_of(c) & 1 != 0 {
                f(cell);
            }
        }
    }
}

/// The target pieces found on the board, per side: their cells while they fit in
/// the arrays, their count always.
struct Targets<'a> {
    board: &'a [Code],
    cells: &'a [[usize; TARGETS_KEPT]; 2],
    len: &'a [usize; 2],
}

/// `x` from the first player's point of view, for a quantity of `side`'s.
#[inline]
fn signed(side: Side, x: i32) -> i32 {
    if side.is_first() { x } else { -x }
}

/// Per piece code, the goal weight (value/200 per step toward the nearest enemy
/// target) in 1/16 centipawns, signed by the owner; 0 for targets.
fn goal_weights(values: &[i32], targets: u64) -> Vec<i32> {
    let mut weights = vec![0; 1 + 2 * values.len()];
    for (k, &v) in values.iter().enumerate() {
        if targets >> k & 1 == 0 {
            for side in Side::BOTH {
                weights[code(k, side) as usize] = signed(side, v.max(0) * 16 / 200);
            }
        }
    }
    weights
}

/// The learned royal-distance tables (`toward`, `guard`), per
/// `code * (max_dist + 1) + steps` and signed by the owner (a row shorter than the
/// longest distance repeats its last entry); both empty when neither is learned.
fn distance_bonuses(l: &Learned, kinds: usize, max_dist: i32) -> (Vec<i32>, Vec<i32>) {
    let none = |t: &[Vec<i32>]| t.iter().all(|row| row.iter().all(|&w| w == 0));
    if none(&l.toward) && none(&l.guard) {
        return (Vec::new(), Vec::new());
    }
    let width = max_dist.max(0) as usize + 1;
    let signed_table = |table: &[Vec<i32>]| {
        let mut out = vec![0; (1 + 2 * kinds) * width];
        for (k, row) in table.iter().enumerate().take(kinds) {
            for d in 0..width {
                let w = row.get(d).or(row.last()).copied().unwrap_or(0);
                let w = w.clamp(-MAX_EVAL / 64, MAX_EVAL / 64);
                for side in Side::BOTH {
                    out[code(k, side) as usize * width + d] = signed(side, w);
                }
            }
        }
        out
    };
    (signed_table(&l.toward), signed_table(&l.guard))
}

/// The learned grids around the royal pieces, per
/// `(code * 2 + which) * AROUND_CELLS + square` and signed by the owner (`which` 0:
/// around its own, 1: the enemy's); empty when neither is learned.
fn around_bonuses(l: &Learned, kinds: usize) -> Vec<i32> {
    let none = |t: &[Vec<i32>]| t.iter().all(|grid| grid.iter().all(|&w| w == 0));
    if none(&l.around_own) && none(&l.around_enemy) {
        return Vec::new();
    }
    let mut out = vec![0; (1 + 2 * kinds) * 2 * AROUND_CELLS];
    for (which, table) in [&l.around_own, &l.around_enemy].into_iter().enumerate() {
        for (k, grid) in table.iter().enumerate().take(kinds) {
            for (i, &w) in grid.iter().enumerate().take(AROUND_CELLS) {
                let w = w.clamp(-MAX_EVAL / 64, MAX_EVAL / 64);
                for side in Side::BOTH {
                    out[(code(k, side) as usize * 2 + which) * AROUND_CELLS + i] = signed(side, w);
                }
            }
        }
    }
    out
}

/// Per `code * n + cell` (`n` cells), for target pieces: how cornered the piece
/// stands there (its average reach on an empty board, `mean`, minus its reach from
/// the cell, scaled by [`CONFINE`]); 0 for other pieces.
fn confine_table(
    reaches: &[[Vec<f64>; 2]],
    n: usize,
    targets: u64,
    mean: &dyn Fn(usize) -> f64,
    scale: f64,
) -> Vec<i32> {
    let mut confine = vec![0; (1 + 2 * reaches.len()) * n];
    for (k, per_side) in reaches.iter().enumerate() {
        if targets >> k & 1 == 0 {
            continue;
        }
        let avg = mean(k);
        for (side, reach) in Side::BOTH.into_iter().zip(per_side) {
            let c = code(k, side) as usize;
            for cell in 0..n {
                confine[c * n + cell] = ((avg - reach[cell]) * scale * CONFINE).round() as i32;
            }
        }
    }
    confine
}

/// The material of the setup's non-target pieces, both sides, by `values`.
fn start_material(rules: &Rules, values: &[i32], targets: u64) -> i32 {
    let codes = 1 + 2 * rules.pieces.len();
    (1..codes)
        .filter(|&c| targets >> kind_of(c as u8) & 1 == 0)
        .map(|c| {
            let count = i32::from(rules.tables.home.counts.get(c).copied().unwrap_or(0));
            count * values[kind_of(c as u8)].max(0)
        })
        .sum()
}

/// The royal piece kinds, as a bit set.
fn royal_kinds(rules: &Rules) -> u64 {
    (0..rules.pieces.len())
        .filter(|&k| rules.pieces[k].royal)
        .fold(0, |m, k| m | 1 << k)
}

/// The learned crowd bonuses, per `which * (CROWD_MOST + 1) + count` (a row shorter
/// than that repeats its last entry); empty when neither is learned.
fn crowd_bonuses(l: &Learned) -> Vec<i32> {
    if l.crowd_own.iter().chain(&l.crowd_enemy).all(|&w| w == 0) {
        return Vec::new();
    }
    [&l.crowd_own, &l.crowd_enemy]
        .into_iter()
        .flat_map(|row| {
            (0..=CROWD_MOST).map(|count| {
                let w = row.get(count).or(row.last()).copied().unwrap_or(0);
                w.clamp(-MAX_EVAL / 64, MAX_EVAL / 64)
            })
        })
        .collect()
}

/// Learned weights kept within the range of declared values.
fn bounded(weights: &[i32]) -> Vec<i32> {
    let most = (crate::check::MAX_PIECE_VALUE * 100).min(i64::from(MAX_EVAL)) as i32;
    weights.iter().map(|&w| w.clamp(-most, most)).collect()
}

/// Target pieces per side kept in an array while evaluating (more are read from the
/// board).
const TARGETS_KEPT: usize = 8;
