//! Move ordering and pruning helpers, generic over the rules: a static exchange
//! estimate for captures, history tables for quiet moves (from-to history per side and
//! a continuation history keyed by the previous moves), and the late-move reduction
//! table.

use crate::engine::{Move, MoveKind, Position};
use crate::rules::{EMPTY, NO_CELL};

use super::Eval;

/// History scores stay within ±this (the "gravity" update keeps them there).
pub const HISTORY_MAX: i32 = 16_384;

/// A royal piece's worth in an exchange: more than any other piece, so that no
/// exchange is won by giving one up (which would be illegal).
const ROYAL_WORTH: i32 = 1_000_000;

/// What a capture gains: the static exchange evaluation ([`Position::exchange`])
/// where the attack tables tell it. Else, for a plain capture, the gain if the
/// opponent recaptures once with anything: the victim's value, less the capturer's
/// when the target is defended. Where a capture is unusual (a capture without moving,
/// a hopper whose screen may change, castling or drops) there is no exchange to
/// estimate and the victim's value (most valuable victim first, as before) stands.
pub fn exchange_estimate(pos: &Position, eval: &Eval, m: Move) -> i32 {
    let royal_kinds = pos.rules().tables.kinds.royal;
    let worth = |c: u8| {
        if c == EMPTY {
            0
        } else if royal_kinds >> crate::rules::kind_of(c) & 1 != 0 {
            ROYAL_WORTH
        } else {
            eval.value_of(c).clamp(0, 100_000)
        }
    };
    if let Some(gain) = pos.exchange(m, worth) {
        return gain;
    }
    let victim = match pos.victim(m) {
        Some(v) => eval.value_of(v).clamp(0, 100_000),
        None => 0,
    };
    let promo = if m.promo != EMPTY {
        eval.value_of(m.promo).clamp(0, 100_000)
    } else {
        0
    };
    if !matches!(
        m.kind,
        MoveKind::Normal | MoveKind::DoubleStep | MoveKind::EnPassant
    ) || m.from == NO_CELL
        || m.to == NO_CELL
        || m.from.index() >= pos.board().len()
        || m.to.index() >= pos.board().len()
    {
        return victim + promo;
    }
    let info = &pos.rules().tables.gens[m.generator];
    if info.stays || info.hop != crate::syntax::betza::Hop::None {
        return victim + promo;
    }
    let mover = pos.piece_at(m.from);
    let royal =
        mover != EMPTY && pos.rules().tables.kinds.royal >> crate::rules::kind_of(mover) & 1 != 0;
    // A royal piece never moves onto an attacked square legally.
    let at_risk = if royal {
        0
    } else if promo > 0 {
        promo
    } else {
        eval.value_of(mover).clamp(0, 100_000)
    };
    if at_risk <= victim {
        return victim + promo - at_risk;
    }
    if pos.attacked(m.to, pos.side_to_move().opponent()) {
        victim + promo - at_risk
    } else {
        victim + promo
    }
}

/// The late-move reduction table: reductions grow with the log of the depth and of the
/// move's number.
pub struct Reductions(Vec<[u8; 64]>);

impl Reductions {
    pub fn new() -> Self {
        let mut t = vec![[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                let x = 0.6 + (d as f64).ln() * (n as f64).ln() / 2.2;
                *r = x.max(0.0) as u8;
            }
        }
        Self(t)
    }

    #[inline]
    pub fn get(&self, depth: i32, n: usize) -> i32 {
        i32::from(self.0[(depth.clamp(0, 63)) as usize][n.min(63)])
    }
}

impl Default for Reductions {
    fn default() -> Self {
        Self::new()
    }
}

/// Moves a history bonus (or malus) into an entry, shrinking it towards the bound.
#[inline]
pub fn update_history(entry: &mut i32, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry += b - *entry * b.abs() / HISTORY_MAX;
}

/// The bonus for a quiet move that refuted at `depth`.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (depth * depth * 16 + 32 * depth).min(1_600)
}

/// A small key for a move, for the continuation history: its squares, and for a move
/// from no square (a drop) its generator, which names the piece placed.
#[inline]
pub fn move_key(m: Move) -> u64 {
    let from = if m.from == NO_CELL {
        0x1_0000 + u64::from(m.generator.raw())
    } else {
        u64::from(m.from.raw())
    };
    from.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ u64::from(m.to.raw()).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
}

/// The continuation history: how well a quiet move did after a given earlier move,
/// hashed into a fixed table (the pairs of moves of a game with many squares and drops
/// would not fit in a full one).
pub struct ContinuationHistory(Vec<i32>);

const CONT_BITS: u32 = 18;

impl ContinuationHistory {
    pub fn new() -> Self {
        Self(vec![0; 1 << CONT_BITS])
    }

    #[inline]
    fn index(earlier: u64, m: u64, side: usize, distance: usize) -> usize {
        let h = (earlier ^ m.rotate_left(17) ^ ((side * 2 + distance) as u64) << 40)
            .wrapping_mul(0x2545_F491_4F6C_DD1D);
        (h >> (64 - CONT_BITS)) as usize
    }

    #[inline]
    pub fn get(&self, earlier: u64, m: u64, side: usize, distance: usize) -> i32 {
        self.0[Self::index(earlier, m, side, distance)]
    }

    #[inline]
    pub fn update(&mut self, earlier: u64, m: u64, side: usize, distance: usize, bonus: i32) {
        update_history(&mut self.0[Self::index(earlier, m, side, distance)], bonus);
    }

    pub fn clear(&mut self) {
        self.0.fill(0);
    }
}

impl Default for ContinuationHistory {
    fn default() -> Self {
        Self::new()
    }
}
