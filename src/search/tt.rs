//! The transposition table: one entry per slot, indexed by the low bits of the
//! position's Zobrist hash and checked against the whole hash. A stored move is only a
//! hint: the search plays it only if it is in the position's legal move list.

use crate::engine::Move;

/// What a stored score says about the true one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// At least this (the search failed high).
    Lower,
    /// At most this (no move reached alpha).
    Upper,
}

#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub key: u64,
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    /// The search (move of the game) that stored it.
    pub generation: u8,
}

const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    mv: None,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
    generation: 0,
};

pub struct Tt {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl Tt {
    /// A table of about `mb` megabytes (a power of two entries, at least 1024).
    pub fn new(mb: usize) -> Self {
        let bytes = mb.max(1) * 1024 * 1024;
        let want = (bytes / std::mem::size_of::<Entry>()).max(1024);
        let size = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        Self {
            entries: vec![EMPTY_ENTRY; size],
            mask: size - 1,
            generation: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY_ENTRY);
        self.generation = 0;
    }

    /// Marks the start of a new search: older entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key && e.depth >= 0).then_some(e)
    }

    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i16, bound: Bound) {
        let generation = self.generation;
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key == key && slot.generation == generation {
            // Keep a deeper result of this search, but learn its move if it had none.
            if depth < slot.depth && bound != Bound::Exact {
                if slot.mv.is_none() {
                    slot.mv = mv;
                }
                return;
            }
        } else if slot.generation == generation && slot.depth > depth + 2 && slot.depth >= 0 {
            // A much deeper entry of this search stays.
            return;
        }
        *slot = Entry {
            key,
            mv: mv.or(if slot.key == key { slot.mv } else { None }),
            score,
            depth,
            bound,
            generation,
        };
    }
}
