//! A cache of static evaluations, one per searcher: the quiescence search evaluates
//! the same positions again at every iteration of the deepening, and the evaluation
//! reads the whole board. Indexed by the low bits of the Zobrist hash and checked
//! against the whole hash, as the transposition table is.

/// Slots in the cache (a power of two): 512 KB of 16-byte entries, small enough to
/// stay out of the way of the transposition table in the caches of the processor.
const SLOTS: usize = 1 << 15;

#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    score: i32,
    /// Whether the slot holds a score (a hash of 0 is a real hash).
    full: bool,
}

const EMPTY_SLOT: Slot = Slot {
    key: 0,
    score: 0,
    full: false,
};

pub struct EvalCache {
    slots: Vec<Slot>,
}

impl EvalCache {
    pub fn new() -> Self {
        Self {
            slots: vec![EMPTY_SLOT; SLOTS],
        }
    }

    /// The cached evaluation of the position with this hash, else `compute`'s (kept).
    #[inline]
    pub fn get_or(&mut self, key: u64, compute: impl FnOnce() -> i32) -> i32 {
        let slot = &mut self.slots[key as usize & (SLOTS - 1)];
        if slot.full && slot.key == key {
            return slot.score;
        }
        let score = compute();
        *slot = Slot {
            key,
            score,
            full: true,
        };
        score
    }
}

impl Default for EvalCache {
    fn default() -> Self {
        Self::new()
    }
}
