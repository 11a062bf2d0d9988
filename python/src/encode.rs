//! What an agent sees and does: a fixed numbering of every move a game can have (the
//! action space), and a position as planes of numbers (the observation).
//!
//! An action is (source, target, form): the source a square, a piece kind dropped from
//! the hand, or none (a pass or a swap); the target a square or none (an exit, a
//! pass); the form what else tells two moves between the same places apart: plain, the
//! piece kind a promotion or flip turns into, a capture without moving, a castling, a
//! swap. In games whose moves have a second part (an arrow, the duck), each of those
//! also has its second square (or none): the numbering is that many times larger.
//! Decision: the numbering is read from the rules alone (squares, piece kinds,
//! castlings), not from moves met in play, so that it is the same on every machine and
//! at every position, as a learning agent's output layer needs.

use varsand::engine::{Move, MoveShape, Position};
use varsand::ids::Side;
use varsand::rules::{Rules, kind_of, side_of};

/// The action numbering and the observation layout of one game.
pub struct Encoding {
    cells: usize,
    kinds: usize,
    castlings: usize,
    /// Second squares: the squares and none, where moves have a second part; else one.
    seconds: usize,
    /// Whether the observation has hand planes (the game has drops).
    hands: bool,
    counters: usize,
    rows: usize,
    columns: usize,
    /// Each cell's (row, column): the boards side by side, rank 1 at row 0.
    places: Vec<(usize, usize)>,
}

impl Encoding {
    pub fn new(rules: &Rules) -> Self {
        let geo = &rules.geometry;
        let mut offsets = Vec::new();
        let mut columns = 0;
        for b in &geo.boards {
            offsets.push(columns);
            columns += b.files;
        }
        let rows = geo.boards.iter().map(|b| b.ranks).max().unwrap_or(0);
        Encoding {
            cells: geo.cells.len(),
            kinds: rules.pieces.len(),
            castlings: rules.castlings().len(),
            seconds: if rules.has_two_part_moves() {
                geo.cells.len() + 1
            } else {
                1
            },
            hands: rules.has_drops(),
            counters: rules.counters().len(),
            rows,
            columns,
            places: geo
                .cells
                .iter()
                .map(|c| (c.rank, offsets[c.board] + c.file))
                .collect(),
        }
    }

    /// Sources: the squares, the piece kinds dropped, and none.
    fn sources(&self) -> usize {
        self.cells + self.kinds + 1
    }

    /// Targets: the squares and none.
    fn targets(&self) -> usize {
        self.cells + 1
    }

    /// Forms: plain, each kind turned into, a capture without moving, each castling,
    /// a swap.
    fn forms(&self) -> usize {
        1 + self.kinds + 1 + self.castlings + 1
    }

    /// The number of actions.
    pub fn size(&self) -> usize {
        self.sources() * self.targets() * self.forms() * self.seconds
    }

    /// The action number of a legal move of `pos`.
    pub fn action(&self, pos: &Position, m: Move) -> usize {
        let none_source = self.cells + self.kinds;
        let none_target = self.cells;
        let rifle = 1 + self.kinds;
        let (source, target, form) = match pos.shape(m) {
            MoveShape::Step { from, to, becomes } => (
                from.index(),
                to.index(),
                becomes.map_or(0, |c| 1 + kind_of(c)),
            ),
            MoveShape::Castle { from, to, castling } => {
                (from.index(), to.index(), rifle + 1 + castling)
            }
            // Numbered as a step (or a castling written from the partner's square)
            // turning into the piece brought in: no such move turns into it.
            MoveShape::Gate {
                from,
                to,
                castling,
                piece,
                at,
            } => {
                let (from, to) = match castling {
                    Some(_) if at != from => (at, from),
                    _ => (from, to),
                };
                (from.index(), to.index(), 1 + kind_of(piece))
            }
            MoveShape::Drop { piece, to } => (self.cells + piece, to.index(), 0),
            MoveShape::Exit { from } => (from.index(), none_target, 0),
            MoveShape::Rifle { from, to } => (from.index(), to.index(), rifle),
            MoveShape::Pass => (none_source, none_target, 0),
            MoveShape::Swap => (none_source, none_target, self.forms() - 1),
        };
        let second = if self.seconds > 1 {
            m.second_part()
                .map_or(self.cells, varsand::rules::Cell::index)
        } else {
            0
        };
        ((source * self.targets() + target) * self.forms() + form) * self.seconds + second
    }

    /// The observation's shape: (planes, rows, columns).
    pub fn shape(&self) -> (usize, usize, usize) {
        (self.planes(), self.rows, self.columns)
    }

    /// Planes: one per piece kind and side, then (with drops) one per piece kind and
    /// side for the hands, one per counter and side, and the side to move.
    fn planes(&self) -> usize {
        let hands = if self.hands { 2 * self.kinds } else { 0 };
        2 * self.kinds + hands + 2 * self.counters + 1
    }

    /// What each plane holds.
    pub fn plane_names(&self, rules: &Rules) -> Vec<String> {
        let side = |s: usize| rules.players[s].name.clone();
        let per_side = |what: &str, name: &str| {
            (0..2)
                .map(|s| format!("{what} {name} of {}", side(s)))
                .collect::<Vec<_>>()
        };
        let mut names: Vec<String> = rules
            .pieces
            .iter()
            .flat_map(|p| per_side("board", &p.name))
            .collect();
        if self.hands {
            names.extend(rules.pieces.iter().flat_map(|p| per_side("hand", &p.name)));
        }
        for c in rules.counters() {
            names.extend(per_side("counter", c));
        }
        names.push(format!("side to move ({} = 1)", side(1)));
        names
    }

    /// The observation of `pos`, plane after plane, row after row: 1 where a piece
    /// stands on its kind and side's plane; hands and counters as planes filled with
    /// their number; the last plane 1 when the second side is to move.
    pub fn observe(&self, pos: &Position) -> Vec<f32> {
        let area = self.rows * self.columns;
        let mut out = vec![0.0f32; self.planes() * area];
        let at = |plane: usize, (row, column): (usize, usize)| {
            plane * area + row * self.columns + column
        };
        for (cell, &code) in pos.board().iter().enumerate() {
            if code != 0 {
                let plane = 2 * kind_of(code) + side_of(code).index();
                out[at(plane, self.places[cell])] = 1.0;
            }
        }
        let mut fill = |plane: usize, value: f32| {
            out[plane * area..(plane + 1) * area].fill(value);
        };
        let mut plane = 2 * self.kinds;
        if self.hands {
            for kind in 0..self.kinds {
                for side in [Side::First, Side::Second] {
                    fill(plane, f32::from(pos.in_hand(side, kind)));
                    plane += 1;
                }
            }
        }
        for counter in 0..self.counters {
            for side in [Side::First, Side::Second] {
                fill(plane, pos.counter(side, counter) as f32);
                plane += 1;
            }
        }
        fill(plane, f32::from(u8::from(!pos.side_to_move().is_first())));
        out
    }
}
