//! Where each weight sits in the weight vector, and the features of a position.
//!
//! Weights: a value per piece kind, a value in hand per kind that can be in hand, a
//! bonus per kind and square class, the mobility weight, the tempo (with `--tempo`: a
//! constant for the side to move, which the search uses), and the first player's edge:
//! a constant that only the fit uses (a constant added to every score changes no
//! choice of the search), so that in a game whose sides differ, or where moving
//! first counts, the pieces' values do not stand in for it. Square classes tie the
//! squares the board's symmetry makes alike: a square and its mirror image when the
//! pieces' moves, the zones and the setup's squares are all symmetric left to right
//! (the two sides are always tied, by the half turn the second player's moves make).
//! With royal distances (`--royal-distances`), after those: per kind, a weight per
//! distance to the enemy's royal piece, then per kind a weight per distance to its own.
//! With the grids around the royal pieces (`--around-royals`), after those: per kind,
//! a weight per square class of the grid around its own royal piece, then the same
//! around the enemy's (classes: the grid's squares, tied left to right where the
//! squares are), then the crowd bonuses: per count of a side's pieces in the grid
//! around its own royal piece, then around the enemy's. With the threats (`--threats`),
//! after those: the three threat weights (see [`Learned::threats`]), in sixteenths.

use crate::engine::{Position, for_each_occupied_square};
use crate::ids::{PieceKind, Side};
use std::sync::Arc;

use crate::rules::{Cell, Rules, Source, kind_of, side_of};
use crate::search::Eval;
use crate::search::eval::MOBILITY;
use crate::search::learned::{
    AROUND_CELLS, AROUND_RADIUS, AROUND_WIDTH, CROWD_MOST, Learned, MAX_THREAT_WEIGHT, mirrored,
    turned,
};
use crate::search::threats::{THREAT_WEIGHTS, Threats};

use super::fit::Prior;

/// The prior's spread (one standard deviation, centipawns) of each kind of weight:
/// wide for values, which the data decide, narrower for square bonuses, which rarely
/// seen squares must not blow up.
const VALUE_SPREAD: f64 = 300.0;
const SQUARE_SPREAD: f64 = 8.0;
/// The square bonuses' spread when a teacher scores every position: each position
/// then says far more than a game's result does, and the squares may move further.
const TAUGHT_SQUARE_SPREAD: f64 = 30.0;
const MOBILITY_SPREAD: f64 = 5.0;
/// A royal-distance weight.
const ROYAL_DISTANCE_SPREAD: f64 = 30.0;
/// A weight of the grids around the royal pieces.
const AROUND_SPREAD: f64 = 30.0;
const EDGE_SPREAD: f64 = 1000.0;
/// A threat weight, in sixteenths of the threat.
const THREAT_SPREAD: f64 = 8.0;
/// Having the move: a prior of 0, a wide spread (the data decide).
const TEMPO_SPREAD: f64 = 100.0;

/// The weight vector's layout for one set of rules.
#[derive(Debug, Clone)]
pub struct Layout {
    kinds: usize,
    /// Per kind, the index of its value in hand, if it can be in hand.
    hand: Vec<Option<usize>>,
    /// Per kind, the index of its first square class.
    squares: Vec<usize>,
    /// Per cell (the first player's view), its square class.
    class: Vec<usize>,
    /// Per class, its cells.
    cells_of: Vec<Vec<usize>>,
    /// The squares are tied left to right.
    pub mirrored: bool,
    /// Per kind, the index of its first end-game square class, when the bonuses are
    /// tapered (else empty).
    end_squares: Vec<usize>,
    /// The rules' own evaluation, which tells a position's phase (where tapered) and
    /// where the royal pieces stand and how far apart cells are (for the royal terms).
    eval: Arc<Eval>,
    /// The royal-distance weights (see [`Learned::toward`]), when fitted: the index of
    /// the first, and the width of a kind's row (the longest distance + 1).
    royal_distance: Option<(usize, usize)>,
    /// The index of the first grid weight (see [`Learned::around_own`]), when fitted.
    around: Option<usize>,
    /// The tempo is fitted (`varsand tune --tempo`); else its weight stays 0.
    tempo_fitted: bool,
    /// The threat weights (see [`Learned::threats`]), when fitted: the index of the
    /// first, and the term that finds the threats.
    threats: Option<(usize, Arc<Threats>)>,
    /// Where the weights before the royal terms end: the mobility, the tempo and the
    /// edge are the last three of them.
    fixed_len: usize,
    len: usize,
}

/// Which weights about the royal pieces a layout adds (`varsand tune`'s options).
#[derive(Debug, Clone, Copy, Default)]
pub struct RoyalTerms {
    /// A weight per kind and distance to each side's royal piece.
    pub distances: bool,
    /// A weight per kind and square class of the grid around each side's royal piece.
    pub around: bool,
}

impl Layout {
    /// The layout; `tapered`: a square bonus per kind and square class for the middle
    /// game and another for the end game, each position's features shared between
    /// them by its phase (as [`Eval`] blends them).
    pub fn new(rules: &Arc<Rules>, tapered: bool) -> Self {
        Self::with_royal_terms(rules, tapered, RoyalTerms::default())
    }

    /// The layout, with the weights about the royal pieces that `royal` asks for (see
    /// [`Learned::toward`] and [`Learned::around_own`]).
    pub fn with_royal_terms(rules: &Arc<Rules>, tapered: bool, royal: RoyalTerms) -> Self {
        let mut layout = Self::build(rules, tapered);
        if royal.distances {
            let width = layout.eval.max_steps().max(0) as usize + 1;
            layout.royal_distance = Some((layout.len, width));
            layout.len += 2 * layout.kinds * width;
        }
        if royal.around {
            layout.around = Some(layout.len);
            layout.len += 2 * layout.kinds * layout.around_classes() + 2 * (CROWD_MOST + 1);
        }
        layout
    }

    /// The layout with the tempo fitted too, if `fitted` (see [`Learned::tempo`]).
    pub fn with_tempo(mut self, fitted: bool) -> Self {
        self.tempo_fitted = fitted;
        self
    }

    /// The layout with the threat weights fitted too, if `fitted` (see
    /// [`Learned::threats`]).
    pub fn with_threats(mut self, rules: &Rules, fitted: bool) -> Self {
        if fitted && self.threats.is_none() {
            let term = Arc::new(Threats::new(rules, &self.eval));
            self.threats = Some((self.len, term));
            self.len += THREAT_WEIGHTS.len();
        }
        self
    }

    /// The square classes of a grid around a royal piece: its squares, or with the
    /// squares tied left to right, the files from the middle out.
    fn around_classes(&self) -> usize {
        if self.mirrored {
            AROUND_WIDTH * (AROUND_RADIUS as usize + 1)
        } else {
            AROUND_CELLS
        }
    }

    /// The class of a grid square (see [`crate::search::learned::around_index`]).
    fn around_class(&self, square: usize) -> usize {
        if self.mirrored {
            let (row, column) = (square / AROUND_WIDTH, square % AROUND_WIDTH);
            let dx = (column as i32 - AROUND_RADIUS).unsigned_abs() as usize;
            row * (AROUND_RADIUS as usize + 1) + dx
        } else {
            square
        }
    }

    fn build(rules: &Arc<Rules>, tapered: bool) -> Self {
        let kinds = rules.pieces.len();
        let start = Position::start(rules.clone());
        let mirror = mirror_symmetric(rules, &start);
        let n = rules.cell_count();
        let mut class = vec![usize::MAX; n];
        let mut cells_of: Vec<Vec<usize>> = Vec::new();
        for cell in 0..n {
            let twin = if mirror {
                mirrored(&rules.geometry, Cell::new(cell)).map_or(cell, Cell::index)
            } else {
                cell
            };
            if twin < cell {
                class[cell] = class[twin];
                cells_of[class[cell]].push(cell);
            } else {
                class[cell] = cells_of.len();
                cells_of.push(vec![cell]);
            }
        }
        let in_hand = hand_kinds(rules, &start);
        let mut next = kinds;
        let hand = (0..kinds)
            .map(|k| {
                in_hand[k].then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect();
        let mut square_blocks = |count: usize| -> Vec<usize> {
            (0..count)
                .map(|_| {
                    next += cells_of.len();
                    next - cells_of.len()
                })
                .collect()
        };
        let squares = square_blocks(kinds);
        let end_squares = square_blocks(if tapered { kinds } else { 0 });
        // The mobility, the tempo and the edge close the fixed part; the royal terms
        // grow `len` past it.
        let fixed_len = next + 3;
        Layout {
            royal_distance: None,
            around: None,
            tempo_fitted: false,
            threats: None,
            fixed_len,
            kinds,
            hand,
            squares,
            class,
            cells_of,
            mirrored: mirror,
            end_squares,
            eval: Arc::new(Eval::new(rules)),
            len: fixed_len,
        }
    }

    pub fn kinds(&self) -> usize {
        self.kinds
    }

    /// The number of weights.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn value(&self, kind: usize) -> usize {
        kind
    }

    pub fn hand(&self, kind: usize) -> Option<usize> {
        self.hand[kind]
    }

    pub fn mobility(&self) -> usize {
        self.fixed_len - 3
    }

    /// Having the move: a constant for the side to move (see [`Learned::tempo`]).
    pub fn tempo(&self) -> usize {
        self.fixed_len - 2
    }

    /// The first player's edge (see the module's comment).
    pub fn edge(&self) -> usize {
        self.fixed_len - 1
    }

    /// The index of the bonus of `kind` on `cell` (the first player's view).
    fn square(&self, kind: usize, cell: usize) -> usize {
        self.squares[kind] + self.class[cell]
    }

    /// A position's features, the first player's count minus the second's, merged by
    /// index. `mobility`: the search's mobility difference, the side to move's view.
    pub fn features(&self, pos: &Position, mobility: i32) -> Vec<(u32, f32)> {
        let rules = pos.rules();
        let board = pos.board();
        let n = self.class.len();
        let mut raw: Vec<(u32, f32)> = Vec::with_capacity(96);
        // The share of the middle game's bonus (1 untapered).
        let middle = if self.end_squares.is_empty() {
            1.0
        } else {
            self.eval.middle_game_share(pos)
        };
        for_each_occupied_square(board, |cell| {
            let c = board[cell];
            let (kind, side) = (kind_of(c), side_of(c));
            if kind >= self.kinds {
                return;
            }
            let sign = if side.is_first() { 1.0 } else { -1.0 };
            raw.push((self.value(kind) as u32, sign));
            let view = if side.is_first() {
                Some(cell)
            } else {
                turned(&rules.geometry, Cell::new(cell)).map(Cell::index)
            };
            if let Some(v) = view.filter(|&v| cell < n && v < n) {
                raw.push((self.square(kind, v) as u32, sign * middle));
                if let Some(&first) = self.end_squares.get(kind) {
                    raw.push(((first + self.class[v]) as u32, sign * (1.0 - middle)));
                }
            }
        });
        for side in Side::BOTH {
            let sign = if side.is_first() { 1.0 } else { -1.0 };
            for kind in 0..self.kinds {
                let count = pos.in_hand(side, kind);
                if count > 0 {
                    let index = self.hand[kind].unwrap_or(self.value(kind));
                    raw.push((index as u32, sign * f32::from(count)));
                }
            }
        }
        let to_move = if pos.side_to_move().is_first() {
            1.0
        } else {
            -1.0
        };
        raw.push((self.mobility() as u32, to_move * mobility as f32));
        if self.tempo_fitted {
            raw.push((self.tempo() as u32, to_move));
        }
        raw.push((self.edge() as u32, 1.0));
        self.royal_distance_features(pos, &mut raw);
        self.around_features(pos, &mut raw);
        if let Some((first, term)) = &self.threats {
            // In sixteenths, so that the weights are the file's: the first for the
            // side to move, the other two against it.
            let [them, us, second] = term.threats(pos).map(|t| t as f32 / 16.0);
            for (i, x) in [them, -us, -second].into_iter().enumerate() {
                raw.push(((first + i) as u32, to_move * x));
            }
        }
        merge(raw)
    }

    /// The features of the grids around the royal pieces: each piece within one of
    /// them, by its square class there, where each side has one (as [`Eval`] adds
    /// them).
    fn around_features(&self, pos: &Position, raw: &mut Vec<(u32, f32)>) {
        let (Some(first), eval) = (self.around, &self.eval) else {
            return;
        };
        let Some(royals) = eval.lone_royal_targets(pos) else {
            return;
        };
        let classes = self.around_classes();
        let rules = pos.rules();
        let mut crowds = [[0usize; 2]; 2];
        self.for_each_piece(pos, royals, |kind, side, cell, [own, enemy]| {
            for (which, royal) in [own, enemy].into_iter().enumerate() {
                if let Some(square) = eval.around_square(side, royal, cell) {
                    let block = first + (which * self.kinds + kind) * classes;
                    raw.push(((block + self.around_class(square)) as u32, sign(side)));
                    crowds[side.index()][which] += usize::from(!rules.pieces[kind].royal);
                }
            }
        });
        let crowd_first = first + 2 * self.kinds * classes;
        for side in Side::BOTH {
            for (which, &count) in crowds[side.index()].iter().enumerate() {
                let index = crowd_first + which * (CROWD_MOST + 1) + count.min(CROWD_MOST);
                raw.push((index as u32, sign(side)));
            }
        }
    }

    /// The royal-distance features: each piece's steps to the enemy royal piece and to
    /// its own, where each side has one (as [`Eval`] adds them).
    fn royal_distance_features(&self, pos: &Position, raw: &mut Vec<(u32, f32)>) {
        let (Some((first, width)), eval) = (self.royal_distance, &self.eval) else {
            return;
        };
        let Some(royals) = eval.lone_royal_targets(pos) else {
            return;
        };
        let guard = first + self.kinds * width;
        self.for_each_piece(pos, royals, |kind, side, cell, [own, enemy]| {
            let steps = |royal: usize| (eval.dist(royal, cell).max(0) as usize).min(width - 1);
            raw.push(((first + kind * width + steps(enemy)) as u32, sign(side)));
            raw.push(((guard + kind * width + steps(own)) as u32, sign(side)));
        });
    }

    /// Calls `f` with each piece on the board's kind, side and cell, and the cells of
    /// its own royal piece and the enemy's (`royals`: the first player's, the second's).
    fn for_each_piece(
        &self,
        pos: &Position,
        royals: [usize; 2],
        mut f: impl FnMut(usize, Side, usize, [usize; 2]),
    ) {
        let board = pos.board();
        let n = self.class.len().min(board.len());
        for_each_occupied_square(board, |cell| {
            let c = board[cell];
            let (kind, side) = (kind_of(c), side_of(c));
            if kind < self.kinds && cell < n {
                let own_and_enemy = [royals[side.index()], royals[side.opponent().index()]];
                f(kind, side, cell, own_and_enemy);
            }
        });
    }

    /// The prior: the rules' own evaluation's weights (the square bonuses averaged
    /// over each class), and how far the fit may stray from them (`taught`: farther
    /// for the square bonuses, as a teacher labelled the positions).
    pub fn prior(&self, eval: &Eval, taught: bool) -> Prior {
        let mut mean = vec![0.0; self.len];
        let square_spread = if taught {
            TAUGHT_SQUARE_SPREAD
        } else {
            SQUARE_SPREAD
        };
        let mut spread = vec![square_spread; self.len];
        for kind in 0..self.kinds {
            let value = f64::from(eval.values[kind]);
            mean[self.value(kind)] = value;
            spread[self.value(kind)] = VALUE_SPREAD;
            if let Some(h) = self.hand[kind] {
                mean[h] = value;
                spread[h] = VALUE_SPREAD;
            }
            for (class, cells) in self.cells_of.iter().enumerate() {
                let sum: f64 = cells
                    .iter()
                    .map(|&c| f64::from(eval.square_bonus(kind, c)))
                    .sum();
                mean[self.squares[kind] + class] = sum / cells.len() as f64;
                if let Some(&first) = self.end_squares.get(kind) {
                    mean[first + class] = sum / cells.len() as f64;
                }
            }
        }
        mean[self.mobility()] = f64::from(MOBILITY);
        spread[self.mobility()] = MOBILITY_SPREAD;
        if let Some((first, width)) = self.royal_distance {
            for i in 0..2 * self.kinds * width {
                spread[first + i] = ROYAL_DISTANCE_SPREAD;
            }
        }
        if let Some(first) = self.around {
            for i in 0..2 * self.kinds * self.around_classes() + 2 * (CROWD_MOST + 1) {
                spread[first + i] = AROUND_SPREAD;
            }
        }
        if let Some((first, _)) = self.threats {
            for (i, w) in THREAT_WEIGHTS.into_iter().enumerate() {
                mean[first + i] = f64::from(w);
                spread[first + i] = THREAT_SPREAD;
            }
        }
        spread[self.edge()] = EDGE_SPREAD;
        spread[self.tempo()] = TEMPO_SPREAD;
        Prior { mean, spread }
    }

    /// The weights as a values file holds them (rounded to centipawns).
    pub fn learned(&self, weights: &[f64]) -> Learned {
        let round = |x: f64| x.round() as i32;
        Learned {
            values: (0..self.kinds)
                .map(|k| round(weights[self.value(k)]))
                .collect(),
            hand: (0..self.kinds)
                .map(|k| round(weights[self.hand[k].unwrap_or(self.value(k))]))
                .collect(),
            squares: (0..self.kinds)
                .map(|k| {
                    (0..self.class.len())
                        .map(|c| round(weights[self.square(k, c)]))
                        .collect()
                })
                .collect(),
            end_squares: self
                .end_squares
                .iter()
                .map(|&first| {
                    (0..self.class.len())
                        .map(|c| round(weights[first + self.class[c]]))
                        .collect()
                })
                .collect(),
            mobility: round(weights[self.mobility()]),
            tempo: round(weights[self.tempo()]),
            threats: self.threats.as_ref().map(|(first, _)| {
                [0, 1, 2].map(|i| round(weights[first + i]).clamp(0, MAX_THREAT_WEIGHT))
            }),
            toward: self.distance_rows(weights, 0),
            guard: self.distance_rows(weights, 1),
            around_own: self.around_grids(weights, 0),
            around_enemy: self.around_grids(weights, 1),
            crowd_own: self.crowd_row(weights, 0),
            crowd_enemy: self.crowd_row(weights, 1),
            network: None,
        }
    }

    /// The fitted crowd bonuses: `which` 0 around the own royal piece, 1 the enemy's.
    fn crowd_row(&self, weights: &[f64], which: usize) -> Vec<i32> {
        let Some(first) = self.around else {
            return Vec::new();
        };
        let start = first + 2 * self.kinds * self.around_classes() + which * (CROWD_MOST + 1);
        (0..=CROWD_MOST)
            .map(|count| weights[start + count].round() as i32)
            .collect()
    }

    /// The fitted grids around the royal pieces: `which` 0 around the own, 1 the
    /// enemy's.
    fn around_grids(&self, weights: &[f64], which: usize) -> Vec<Vec<i32>> {
        let Some(first) = self.around else {
            return Vec::new();
        };
        let classes = self.around_classes();
        (0..self.kinds)
            .map(|k| {
                let block = first + (which * self.kinds + k) * classes;
                (0..AROUND_CELLS)
                    .map(|i| weights[block + self.around_class(i)].round() as i32)
                    .collect()
            })
            .collect()
    }

    /// The fitted royal-distance rows: `which` 0 toward the enemy, 1 to the own.
    fn distance_rows(&self, weights: &[f64], which: usize) -> Vec<Vec<i32>> {
        let Some((first, width)) = self.royal_distance else {
            return Vec::new();
        };
        let start = first + which * self.kinds * width;
        (0..self.kinds)
            .map(|k| {
                (0..width)
                    .map(|d| weights[start + k * width + d].round() as i32)
                    .collect()
            })
            .collect()
    }
}

/// A feature's sign: +1 for the first player's pieces, −1 for the second's.
fn sign(side: Side) -> f32 {
    if side.is_first() { 1.0 } else { -1.0 }
}

/// Sorts by index and adds up the entries of each index (dropping zeros).
fn merge(mut raw: Vec<(u32, f32)>) -> Vec<(u32, f32)> {
    raw.sort_unstable_by_key(|&(i, _)| i);
    let mut out: Vec<(u32, f32)> = Vec::with_capacity(raw.len());
    for (i, x) in raw {
        match out.last_mut() {
            Some(last) if last.0 == i => last.1 += x,
            _ => out.push((i, x)),
        }
    }
    out.retain(|&(_, x)| x != 0.0);
    out
}

/// The piece kinds that can be in hand: captured pieces go to hand as them, or the
/// setup puts them there.
fn hand_kinds(rules: &Rules, start: &Position) -> Vec<bool> {
    let kinds = rules.pieces.len();
    let mut in_hand: Vec<bool> = (0..kinds)
        .map(|k| start.in_hand(Side::First, k) > 0 || start.in_hand(Side::Second, k) > 0)
        .collect();
    for p in &rules.pieces {
        if let Some(k) = p.to_hand {
            in_hand[k] = true;
        }
    }
    in_hand
}

/// Whether the game looks the same in a mirror: every move's vectors come with their
/// mirror images, and the zones and the setup's occupied squares are symmetric.
fn mirror_symmetric(rules: &Rules, start: &Position) -> bool {
    let geo = &rules.geometry;
    let n = rules.cell_count();
    let twin = |c: usize| mirrored(geo, Cell::new(c)).map(Cell::index);
    let moves = (0..rules.pieces.len()).all(|k| {
        rules
            .moves_of(PieceKind::new(k))
            .all(|(_, g)| match g.source {
                Source::Betza(b) => {
                    let v = &rules.betza(b).vectors;
                    v.iter().all(|&(x, y)| v.contains(&(-x, y)))
                }
                _ => true,
            })
    });
    let zones = rules.zones.iter().all(|z| {
        (0..2).all(|s| (0..n).all(|c| twin(c).is_some_and(|t| z.cells[s][c] == z.cells[s][t])))
    });
    let board = start.board();
    let setup = (0..n).all(|c| twin(c).is_some_and(|t| (board[c] == 0) == (board[t] == 0)));
    moves && zones && setup
}
