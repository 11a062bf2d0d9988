//! The transposition table, shared by the threads of a parallel search without locks.
//!
//! Buckets of two entries, indexed by the low bits of the position's Zobrist hash. An
//! entry is three 64-bit words written one by one: the move, the data (score, depth,
//! bound, generation) and a check word, the hash XOR the other two. A reader that
//! meets a half-written entry (two threads storing at once) finds the check word
//! wrong and sees no entry, so a torn entry is never used. A stored move is only a
//! hint: the search plays it only if it is in the position's move list.
//!
//! Replacement keeps the deepest and newest entries: a store for a position already in
//! the bucket replaces it unless that entry is deeper from this search (its move is
//! still learnt); otherwise the entry of the two that is worth least (shallowest, older
//! searches counting as shallower) gives way.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::engine::{Move, MoveKind};
use crate::ids::{Cell, GenId};

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

/// One slot: the check word (hash ^ move ^ data), the move, the data.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    mv: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 2;
/// Set in the data word of every stored entry (an all-zero slot is empty).
const USED: u64 = 1 << 63;

pub struct Tt {
    slots: Vec<Slot>,
    /// Buckets minus one (a power of two).
    mask: usize,
    generation: AtomicU8,
}

impl Tt {
    /// A table of about `mb` megabytes (a power of two buckets, at least 512).
    pub fn new(mb: usize) -> Self {
        let bytes = mb.max(1) * 1024 * 1024;
        let bucket_bytes = BUCKET * std::mem::size_of::<Slot>();
        let want = (bytes / bucket_bytes).max(512);
        let buckets = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        Self {
            slots: (0..buckets * BUCKET).map(|_| Slot::default()).collect(),
            mask: buckets - 1,
            generation: AtomicU8::new(0),
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.mv.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot] {
        let b = key as usize & self.mask;
        &self.slots[b * BUCKET..(b + 1) * BUCKET]
    }

    /// The entry in `slot` if it is whole and stored for `key`.
    #[inline]
    fn read(slot: &Slot, key: u64) -> Option<Entry> {
        let mv = slot.mv.load(Ordering::Relaxed);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        (data & USED != 0 && check ^ mv ^ data == key).then(|| unpack(key, mv, data))
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|s| Self::read(s, key))
    }

    #[inline]
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: i16, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut target = 0;
        let mut old: Option<Entry> = None;
        // Read once: another thread may overwrite the slot between two reads.
        let found = bucket
            .iter()
            .enumerate()
            .find_map(|(i, s)| Self::read(s, key).map(|e| (i, e)));
        if let Some((i, e)) = found {
            // Keep a deeper result of this search, but learn its move if it had none.
            let much_deeper = depth + 2 < e.depth;
            if e.generation == generation
                && depth < e.depth
                && (bound != Bound::Exact || much_deeper)
            {
                if e.mv.is_none() && mv.is_some() {
                    Self::write(&bucket[i], Entry { mv, ..e });
                }
                return;
            }
            target = i;
            old = Some(e);
        } else {
            // The entry worth least: shallow, or stored by an older search.
            let worth = |s: &Slot| {
                let data = s.data.load(Ordering::Relaxed);
                if data & USED == 0 {
                    return i32::MIN;
                }
                let (d, g) = (data_depth(data), data_generation(data));
                i32::from(d) - 8 * i32::from(generation.wrapping_sub(g))
            };
            for (i, s) in bucket.iter().enumerate() {
                if worth(s) < worth(&bucket[target]) {
                    target = i;
                }
            }
        }
        let mv = mv.or(old.and_then(|e| e.mv));
        Self::write(
            &bucket[target],
            Entry {
                key,
                mv,
                score,
                depth,
                bound,
                generation,
            },
        );
    }

    #[inline]
    fn write(slot: &Slot, e: Entry) {
        let (mv, data) = pack(&e);
        slot.mv.store(mv, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(e.key ^ mv ^ data, Ordering::Relaxed);
    }
}

const KINDS: [MoveKind; 12] = [
    MoveKind::Normal,
    MoveKind::DoubleStep,
    MoveKind::EnPassant,
    MoveKind::Castle,
    MoveKind::Swap,
    MoveKind::Pass,
    MoveKind::Drop,
    MoveKind::Exit,
    MoveKind::Rifle,
    MoveKind::Gate,
    MoveKind::CastleGate,
    MoveKind::CastleGatePartner,
];

/// A square in 12 bits: [`CELL_NONE`] for none. Boards of 4095 squares or more have
/// squares that do not fit: a move naming one is not stored (a stored move is only a
/// hint).
const CELL_BITS: u32 = 12;
const CELL_NONE: u64 = (1 << CELL_BITS) - 1;

fn pack_cell(c: Cell) -> Option<u64> {
    if c == Cell::NONE {
        Some(CELL_NONE)
    } else {
        Some(u64::from(c.raw())).filter(|&r| r < CELL_NONE)
    }
}

fn unpack_cell(w: u64) -> Cell {
    match w & CELL_NONE {
        CELL_NONE => Cell::NONE,
        r => Cell::from_raw(r as u16),
    }
}

/// The move word: from, to and second square (12 bits each), generator (16),
/// promotion (8) and kind (4; 0: no move).
fn pack_move(m: Option<Move>) -> u64 {
    let Some(m) = m else { return 0 };
    let kind = KINDS.iter().position(|&k| k == m.kind).unwrap_or(0) as u64 + 1;
    let (Some(from), Some(to), Some(second)) =
        (pack_cell(m.from), pack_cell(m.to), pack_cell(m.second))
    else {
        return 0;
    };
    from | to << 12
        | second << 24
        | u64::from(m.generator.raw()) << 36
        | u64::from(m.promo) << 52
        | kind << 60
}

fn unpack_move(w: u64) -> Option<Move> {
    let kind = (w >> 60) as usize;
    (kind != 0).then(|| Move {
        from: unpack_cell(w),
        to: unpack_cell(w >> 12),
        second: unpack_cell(w >> 24),
        generator: GenId::from_raw((w >> 36) as u16),
        promo: (w >> 52) as u8,
        kind: KINDS[(kind - 1).min(KINDS.len() - 1)],
    })
}

/// The data word: score (32 bits), depth (16), bound (2), generation (8), used.
fn pack(e: &Entry) -> (u64, u64) {
    let bound = match e.bound {
        Bound::Exact => 0u64,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    let data = u64::from(e.score as u32)
        | u64::from(e.depth as u16) << 32
        | bound << 48
        | u64::from(e.generation) << 50
        | USED;
    (pack_move(e.mv), data)
}

fn data_depth(data: u64) -> i16 {
    (data >> 32) as u16 as i16
}

fn data_generation(data: u64) -> u8 {
    (data >> 50) as u8
}

fn unpack(key: u64, mv: u64, data: u64) -> Entry {
    Entry {
        key,
        mv: unpack_move(mv),
        score: data as u32 as i32,
        depth: data_depth(data),
        bound: match (data >> 48) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
        generation: data_generation(data),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_torn_ones_are_not_read() {
        let tt = Tt::new(1);
        let m = Move {
            from: Cell::new(12),
            to: Cell::new(300),
            second: Cell::new(99),
            kind: MoveKind::Drop,
            promo: 7,
            generator: GenId::new(513),
        };
        tt.store(0xDEAD_BEEF, Some(m), -123_456, 17, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF).expect("stored");
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Some(m), -123_456, 17, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEEF ^ 1 << 40).is_none());
        // A half-written entry: its data changed without its check word.
        let slot = tt
            .bucket(0xDEAD_BEEF)
            .iter()
            .find(|s| Tt::read(s, 0xDEAD_BEEF).is_some());
        slot.unwrap().data.fetch_xor(1 << 5, Ordering::Relaxed);
        assert!(tt.probe(0xDEAD_BEEF).is_none());
    }

    /// Two threads storing, over and over, keys that share one bucket: a slot another
    /// thread overwrites between two reads of it once made `store` panic (and a
    /// parallel search then waited for its helper for ever).
    #[test]
    fn threads_storing_into_one_bucket_never_panic() {
        let tt = Tt::new(1);
        let spread = (tt.mask as u64) + 1;
        std::thread::scope(|s| {
            for t in 0..2u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        // Keys of bucket 5, differing above the bucket bits.
                        let key = 5 + spread * (1 + (i * 7 + t * 3) % 6);
                        let depth = (i % 20) as i16;
                        let bound = if i % 3 == 0 {
                            Bound::Exact
                        } else {
                            Bound::Lower
                        };
                        tt.store(key, None, (i % 1000) as i32, depth, bound);
                        let _ = tt.probe(key);
                    }
                });
            }
        });
    }
}
