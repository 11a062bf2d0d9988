//! Threats: pieces that stand to be lost. A piece is *threatened* when an enemy piece
//! attacks it and either is worth less (the threat is the difference) or finds it
//! undefended (the threat is its whole value). The quiescence search plays the side to
//! move's captures, but standing pat it sees nothing of what the opponent threatens:
//! the side to move can save one threatened piece, not two (a fork), so the second
//! largest threat against it counts against it, and the largest a little (saving it
//! costs a move). The largest threat against the opponent counts a little for the side
//! to move, for the cuts made on the static evaluation before any capture is tried.
//! How much of each counts is [`THREAT_WEIGHTS`], or a values file's `threats` line
//! (`varsand tune --threats` fits them to a game).
//!
//! Pieces worth less than half as much again as the cheapest are not counted as
//! threatened: reading the attack tables for each costs more than they stand to lose.
//!
//! Read from the reverse attack tables ([`Position::cheapest_attacker`]): under rules
//! whose captures those tables do not tell (captures under conditions, two-faced
//! pieces), there is no threat term. Royal pieces are never counted as threatened
//! (check is the search's business) but do attack: a royal piece takes only what is
//! undefended.

use crate::engine::{Position, for_each_occupied_square};
use crate::ids::Side;
use crate::rules::{Cell, Code, Rules, kind_of, side_of};

use super::Eval;

/// An attacker's worth when it is royal: more than anything it could take, so that it
/// threatens only undefended pieces.
const ROYAL_WORTH: i32 = 1_000_000;
/// The term's weights unless a values file has its own (`threats` there): sixteenths
/// of the largest threat against the opponent that count for the side to move, of the
/// largest against the side to move that count against it, and of the second largest
/// against it.
pub const THREAT_WEIGHTS: [i32; 3] = [2, 2, 12];

/// The threat term's tables for one set of rules.
#[derive(Debug, Clone)]
pub struct Threats {
    /// The rules' attacks are all tabled: the term is on.
    on: bool,
    /// Cells on the boards (others hold no piece that can be attacked).
    cells: usize,
    /// Per piece code: its worth as a victim (0 for royal pieces, never threatened,
    /// and for pieces worth less than half as much again as the cheapest).
    victim: Vec<i32>,
    /// Per piece code: its worth as an attacker (royal pieces: [`ROYAL_WORTH`]).
    attacker: Vec<i32>,
    /// Sixteenths of each threat that count (see [`THREAT_WEIGHTS`]).
    weights: [i32; 3],
}

impl Threats {
    pub fn new(rules: &Rules, eval: &Eval) -> Self {
        let codes = 1 + 2 * rules.pieces.len();
        let royal = |c: usize| c != 0 && rules.pieces[kind_of(c as Code)].royal;
        let worth = |c: usize| {
            if c == 0 {
                0
            } else {
                eval.value_of(c as Code).clamp(0, 100_000)
            }
        };
        // The cheapest pieces are left out as victims: there are many of them (every
        // attack table read costs), and what they stand to lose is little.
        let cheapest = (1..codes)
            .filter(|&c| !royal(c))
            .map(worth)
            .filter(|&v| v > 0)
            .min()
            .unwrap_or(0);
        let victim = |c: usize| {
            if royal(c) || 2 * worth(c) < 3 * cheapest {
                0
            } else {
                worth(c)
            }
        };
        Threats {
            weights: eval.threat_weights,
            on: rules.tables.attacks_tabled(),
            cells: rules.cell_count(),
            victim: (0..codes).map(victim).collect(),
            attacker: (0..codes)
                .map(|c| if royal(c) { ROYAL_WORTH } else { worth(c) })
                .collect(),
        }
    }

    /// The term, in centipawns, from the side to move's point of view.
    pub fn score(&self, pos: &Position) -> i32 {
        let [them_first, us_first, us_second] = self.threats(pos);
        let [w_them, w_us, w_second] = self.weights;
        (w_them * them_first - w_us * us_first - w_second * us_second) / 16
    }

    /// The threats the term weighs: the largest against the opponent, the largest
    /// against the side to move and the second largest against it (0 where the term
    /// is off).
    pub fn threats(&self, pos: &Position) -> [i32; 3] {
        if !self.on {
            return [0; 3];
        }
        // Per side, the two largest threats against its pieces.
        let mut against = [[0i32; 2]; 2];
        let board = pos.board();
        let n = self.cells.min(board.len());
        let value = |c: Code| self.attacker[c as usize];
        for_each_occupied_square(&board[..n], |cell| {
            let c = board[cell];
            let worth = self.victim[c as usize];
            if worth <= 0 {
                return;
            }
            let side = side_of(c);
            let threat = self.threat(pos, Cell::new(cell), side, worth, &value);
            let two = &mut against[side.index()];
            if threat > two[0] {
                two[1] = two[0];
                two[0] = threat;
            } else if threat > two[1] {
                two[1] = threat;
            }
        });
        let us = pos.side_to_move();
        let [ours, theirs] = [us, us.opponent()].map(|side| against[side.index()]);
        [theirs[0], ours[0], ours[1]]
    }

    /// How much a piece of `side` worth `worth` on `cell` stands to lose.
    #[inline]
    fn threat(
        &self,
        pos: &Position,
        cell: Cell,
        side: Side,
        worth: i32,
        value: &impl Fn(Code) -> i32,
    ) -> i32 {
        let Some((_, attacker)) = pos.cheapest_attacker(cell, side.opponent(), value) else {
            return 0;
        };
        let by = value(attacker);
        if by < worth {
            worth - by
        } else if pos.cheapest_attacker(cell, side, value).is_none() {
            worth
        } else {
            0
        }
    }
}
