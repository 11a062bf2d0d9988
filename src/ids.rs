//! Typed indices, below every stage: a square ([`Cell`]), a player ([`Side`]), a piece
//! type ([`PieceKind`]), a zone ([`ZoneId`]), a counter ([`CounterId`]), a generator
//! ([`GenId`]) and a Betza move component ([`BetzaId`]). Each wraps a small integer that only its constructor and `index()` see,
//! so that one kind of index cannot be passed for another, and each indexes its own
//! tables (`board[cell]`, `royals[side]`) without a cast. They compile to the bare
//! integers (`repr(transparent)`, every method inlined).

use std::ops::{Index, IndexMut};

macro_rules! id_type {
    ($($(#[$doc:meta])* $t:ident($inner:ty);)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        #[repr(transparent)]
        pub struct $t($inner);

        impl $t {
            /// The index, for the table it indexes.
            #[inline(always)]
            pub const fn index(self) -> usize {
                self.0 as usize
            }
            /// The id of table entry `i` (the checker keeps tables within range).
            #[inline(always)]
            pub const fn new(i: usize) -> Self {
                Self(i as $inner)
            }
            /// The bare number, for packing into a wider word (a hash entry).
            #[inline(always)]
            pub const fn raw(self) -> $inner {
                self.0
            }
            /// The id a packed word held (see `raw`).
            #[inline(always)]
            pub const fn from_raw(raw: $inner) -> Self {
                Self(raw)
            }
            /// The ids of the first `n` table entries, in order.
            pub fn all(n: usize) -> impl DoubleEndedIterator<Item = Self> + Clone {
                (0..n).map(Self::new)
            }
        }

        impl<T> Index<$t> for [T] {
            type Output = T;
            #[inline(always)]
            fn index(&self, i: $t) -> &T {
                &self[i.index()]
            }
        }
        impl<T> IndexMut<$t> for [T] {
            #[inline(always)]
            fn index_mut(&mut self, i: $t) -> &mut T {
                &mut self[i.index()]
            }
        }
        impl<T> Index<$t> for Vec<T> {
            type Output = T;
            #[inline(always)]
            fn index(&self, i: $t) -> &T {
                &self[i.index()]
            }
        }
        impl<T> IndexMut<$t> for Vec<T> {
            #[inline(always)]
            fn index_mut(&mut self, i: $t) -> &mut T {
                &mut self[i.index()]
            }
        }
    )*};
}

id_type! {
    /// A square: an index over every square of every board, the main board's first
    /// (see `model::Geometry`).
    Cell(u16);
    /// The index of a piece type (in `Rules::pieces`, in declaration order).
    PieceKind(u8);
    /// The index of a zone (in `Rules::zones`).
    ZoneId(u16);
    /// The index of a per-player counter (in `Rules::counters`).
    CounterId(u8);
    /// The index of a generator (in `Rules::generators`).
    GenId(u16);
    /// The index of a Betza move component (in `Rules::betza_moves`).
    BetzaId(u16);
}

impl Cell {
    /// Marks "no square" (a drop's origin, a pass's squares, no en-passant square).
    pub const NONE: Cell = Cell(u16::MAX);
}

/// One of the two players: the first moves first and writes its pieces in upper case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Side {
    #[default]
    First = 0,
    Second = 1,
}

impl Side {
    /// Both players, the first first.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// 0 for the first player, 1 for the second.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player of index `i & 1`.
    #[inline(always)]
    pub const fn new(i: usize) -> Self {
        if i & 1 == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    /// The other player.
    #[inline(always)]
    #[must_use]
    pub const fn opponent(self) -> Self {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// Is it the first player?
    #[inline(always)]
    pub const fn is_first(self) -> bool {
        matches!(self, Side::First)
    }
}

impl<T> Index<Side> for [T; 2] {
    type Output = T;
    #[inline(always)]
    fn index(&self, s: Side) -> &T {
        &self[s.index()]
    }
}
impl<T> IndexMut<Side> for [T; 2] {
    #[inline(always)]
    fn index_mut(&mut self, s: Side) -> &mut T {
        &mut self[s.index()]
    }
}
