//! The computer player. For now a simple one: it takes the most valuable piece it can,
//! else it plays a random move; a full search comes later.

use crate::engine::{Move, Position};
use crate::rules::{EMPTY, NO_CELL, kind_of};

/// A small, seedable random number generator (xorshift64*), so games replay exactly.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// A piece's worth: its declared value, else 1.
fn value(pos: &Position, code: u8) -> i64 {
    if code == EMPTY {
        return 0;
    }
    pos.rules().pieces[kind_of(code)].value.unwrap_or(1)
}

/// Picks a move: the capture of the most valuable piece, else a random legal move.
pub fn simple_move(pos: &mut Position, rng: &mut Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let gain = |m: &Move| {
        if m.to == NO_CELL {
            0
        } else {
            value(pos, pos.piece_at(m.to))
        }
    };
    let best = moves.iter().map(gain).max().unwrap_or(0);
    let pool: Vec<Move> = if best > 0 {
        moves.iter().copied().filter(|m| gain(m) == best).collect()
    } else {
        moves
    };
    Some(pool[rng.below(pool.len())])
}
