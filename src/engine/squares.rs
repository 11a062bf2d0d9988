//! Reading the board eight squares at a time: which squares hold a piece, or a piece
//! of one side. Move generation, attack detection, the legality tests and the
//! evaluation scan the board with these (below all of them, so that none imports
//! another for them).

use crate::ids::Side;
use crate::rules::{Code, EMPTY};

/// Calls `f` with each square of `board` that holds a piece of `side`, in square
/// order.
#[inline]
pub(crate) fn for_each_own_square(board: &[Code], side: Side, mut f: impl FnMut(usize)) {
    for w in 0..board.len().div_ceil(8) {
        let mut ours = own_squares_in_word(board, side, w);
        while ours != 0 {
            f(w * 8 + ours.trailing_zeros() as usize / 8);
            ours &= ours - 1;
        }
    }
}

/// Calls `f` with each square of `board` that holds a piece, in square order (eight
/// squares read at once, as [`own_squares_in_word`] does).
#[inline]
pub(crate) fn for_each_occupied_square(board: &[Code], mut f: impl FnMut(usize)) {
    for w in 0..board.len().div_ceil(8) {
        let mut occupied = nonzero_bytes(word_of(board, w));
        while occupied != 0 {
            f(w * 8 + occupied.trailing_zeros() as usize / 8);
            occupied &= occupied - 1;
        }
    }
}

/// The squares of `board` (at most 128) that hold a piece of `side`, as bits.
#[inline]
pub(crate) fn squares_of(board: &[Code], side: Side) -> u128 {
    // Gathers the high bit of each byte into one byte: bit `i` for byte `i`.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut bits = 0u128;
    for w in 0..board.len().div_ceil(8).min(16) {
        let high = own_squares_in_word(board, side, w) >> 7;
        bits |= (u128::from((high.wrapping_mul(GATHER)) >> 56) & 0xff) << (8 * w);
    }
    bits
}

/// The squares of `board` (at most 128) that hold a piece, as bits (eight read at
/// once, as [`own_squares_in_word`] does).
#[inline]
pub(crate) fn occupied_squares(board: &[Code]) -> u128 {
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut bits = 0u128;
    for w in 0..board.len().div_ceil(8).min(16) {
        let high = nonzero_bytes(word_of(board, w)) >> 7;
        bits |= u128::from(high.wrapping_mul(GATHER) >> 56) << (8 * w);
    }
    bits
}

/// The squares of `board` (at most 128) that hold a piece of `side`, and those that
/// hold one of its opponent's, as bits: [`squares_of`] for both sides in one pass.
#[inline]
pub(crate) fn sides_of(board: &[Code], side: Side) -> (u128, u128) {
    // Two halves of 64 squares, so that each word's byte is shifted within a u64.
    let words = board.len().div_ceil(8).min(16);
    let (low, high) = (
        half_sides(board, 0..words.min(8)),
        half_sides(board, 8..words),
    );
    let first = u128::from(low.0) | u128::from(high.0) << 64;
    let second = u128::from(low.1) | u128::from(high.1) << 64;
    if side.is_first() {
        (first, second)
    } else {
        (second, first)
    }
}

/// The squares of the words `words` (at most eight, from a multiple of eight) that
/// hold a piece of the first player and of the second, as the bits of a u64 each.
#[inline]
fn half_sides(board: &[Code], words: std::ops::Range<usize>) -> (u64, u64) {
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let gather = |high: u64| (high >> 7).wrapping_mul(GATHER) >> 56;
    let (mut first, mut second) = (0u64, 0u64);
    for w in words {
        let bytes = word_of(board, w);
        let odd = (bytes << 7) & HIGH_BITS;
        first |= gather(odd) << (8 * (w % 8));
        second |= gather(nonzero_bytes(bytes) & !odd) << (8 * (w % 8));
    }
    (first, second)
}

/// Calls `f` with the index of each bit of `bits`, lowest first.
#[inline]
pub(crate) fn for_each_bit(mut bits: u128, mut f: impl FnMut(usize)) {
    while bits != 0 {
        f(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

/// Calls `f` with the index of each bit of `bits`, lowest first, as
/// [`for_each_bit`] does but a half of 64 bits at a time: a bit then costs one `u64`
/// step where a `u128` takes several (the move generator's bit path, a call per move).
#[inline]
pub(crate) fn for_each_bit_up(bits: u128, mut f: impl FnMut(usize)) {
    let mut low = bits as u64;
    while low != 0 {
        f(low.trailing_zeros() as usize);
        low &= low - 1;
    }
    let mut high = (bits >> 64) as u64;
    while high != 0 {
        f(64 + high.trailing_zeros() as usize);
        high &= high - 1;
    }
}

/// Calls `f` with the index of each bit of `bits`, highest first (a half of 64 bits
/// at a time, as [`for_each_bit_up`]).
#[inline]
pub(crate) fn for_each_bit_down(bits: u128, mut f: impl FnMut(usize)) {
    let mut high = (bits >> 64) as u64;
    while high != 0 {
        let top = 63 - high.leading_zeros() as usize;
        f(64 + top);
        high ^= 1 << top;
    }
    let mut low = bits as u64;
    while low != 0 {
        let top = 63 - low.leading_zeros() as usize;
        f(top);
        low ^= 1 << top;
    }
}

/// The squares of a line up to its first piece, that piece included, as a mask to
/// `and` with the line: `pieces` the occupied squares on it, `down` whether the line
/// runs toward lower indices (its first piece is then the highest bit). All squares
/// where no piece stands on it.
#[inline]
pub(crate) fn up_to_first(pieces: u128, down: bool) -> u128 {
    if pieces == 0 {
        u128::MAX
    } else if down {
        u128::MAX << (127 - pieces.leading_zeros())
    } else {
        pieces ^ (pieces - 1)
    }
}

/// The squares `8 * w .. 8 * w + 8` of `board` as the bytes of a word (byte `i` for
/// square `8 * w + i`; the squares past the board's end read as empty).
#[inline]
fn word_of(board: &[Code], w: usize) -> u64 {
    match board.get(w * 8..w * 8 + 8) {
        Some(eight) => u64::from_le_bytes(eight.try_into().expect("eight squares")),
        None => {
            let mut eight = [EMPTY; 8];
            let rest = &board[w * 8..];
            eight[..rest.len()].copy_from_slice(rest);
            u64::from_le_bytes(eight)
        }
    }
}

/// The squares `8 * w .. 8 * w + 8` of `board` that hold a piece of `side`, as the
/// high bit of each byte of a word (byte `i` for square `8 * w + i`). A piece's code
/// is `1 + 2 * kind + side` (odd for the first player, even and not zero for the
/// second), so eight squares are read at once from their lowest bits and whether
/// they are zero: most squares of most boards are empty or the other side's, and a
/// branch per square mispredicts often.
#[inline]
pub(crate) fn own_squares_in_word(board: &[Code], side: Side, w: usize) -> u64 {
    let bytes = word_of(board, w);
    // A byte's high bit: set when its lowest bit is (an odd code).
    let odd = (bytes << 7) & HIGH_BITS;
    if side.is_first() {
        odd
    } else {
        nonzero_bytes(bytes) & !odd
    }
}

/// The high bit of each byte of a word.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The bytes of `bytes` that are not zero, as the high bit of each.
#[inline]
fn nonzero_bytes(bytes: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    ((bytes & LOW7).wrapping_add(LOW7) | bytes) & HIGH_BITS
}

#[cfg(test)]
mod tests {
    use super::{
        for_each_occupied_square, for_each_own_square, occupied_squares, sides_of, squares_of,
    };
    use crate::rules::{EMPTY, Side, side_of};

    /// The word-at-a-time scans find the squares a square-by-square one does (any
    /// piece, and each side's), for boards of every length and pieces of every code.
    #[test]
    fn the_word_scans_find_each_occupied_and_own_square_in_order() {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        for len in 0..70 {
            for _ in 0..20 {
                let board: Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        // Empty squares half the time; codes up to 255 otherwise.
                        if state & 1 == 0 {
                            EMPTY
                        } else {
                            (state >> 8) as u8
                        }
                    })
                    .collect();
                let mut occupied = Vec::new();
                for_each_occupied_square(&board, |sq| occupied.push(sq));
                let expected: Vec<usize> = (0..len).filter(|&sq| board[sq] != EMPTY).collect();
                assert_eq!(occupied, expected, "board {board:?}");
                if len <= 128 {
                    let bits = expected.iter().fold(0u128, |m, &sq| m | 1 << sq);
                    assert_eq!(occupied_squares(&board), bits, "board {board:?}");
                }
                for side in Side::BOTH {
                    if len <= 128 {
                        assert_eq!(
                            sides_of(&board, side),
                            (
                                squares_of(&board, side),
                                squares_of(&board, side.opponent())
                            ),
                            "board {board:?}, side {side:?}"
                        );
                    }
                    let mut found = Vec::new();
                    for_each_own_square(&board, side, |sq| found.push(sq));
                    let expected: Vec<usize> = (0..len)
                        .filter(|&sq| board[sq] != EMPTY && side_of(board[sq]) == side)
                        .collect();
                    assert_eq!(found, expected, "board {board:?}, side {side:?}");
                }
            }
        }
    }
}
