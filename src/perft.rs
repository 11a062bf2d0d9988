//! Perft: counting the leaves of the legal-move tree, the standard test of a move
//! generator. Leaves are counted in bulk at the last ply; draws by repetition or move
//! limit do not stop the count (as in every published perft table).

use crate::engine::{Move, Position};

/// The deepest count: one move list and one stack frame per ply are kept, and perft
/// grows about 30-fold a ply in chess (depth 10 is already hours), so a deeper request
/// is a mistake. The command line and the REPL refuse it with a message.
pub const MAX_DEPTH: usize = 64;

/// Reusable move lists, one per ply, so counting allocates nothing.
pub struct Perft {
    lists: Vec<Vec<Move>>,
    /// Assert after every unmake that the position and hash are restored exactly.
    pub verify: bool,
}

impl Default for Perft {
    fn default() -> Self {
        Self::new()
    }
}

impl Perft {
    pub fn new() -> Self {
        Self {
            lists: Vec::new(),
            verify: false,
        }
    }

    /// The number of leaf nodes `depth` plies below `pos`.
    ///
    /// # Panics
    ///
    /// If `depth` is more than [`MAX_DEPTH`] (before allocating anything).
    pub fn count(&mut self, pos: &mut Position, depth: usize) -> u64 {
        assert!(
            depth <= MAX_DEPTH,
            "perft depth {depth} is more than {MAX_DEPTH}"
        );
        if depth == 0 {
            return 1;
        }
        while self.lists.len() < depth {
            self.lists.push(Vec::with_capacity(256));
        }
        let verify = self.verify;
        count(pos, depth, &mut self.lists, verify)
    }

    /// The count below each legal move, in move-text order (perft divide).
    ///
    /// # Panics
    ///
    /// If `depth` is more than [`MAX_DEPTH`].
    pub fn divide(&mut self, pos: &mut Position, depth: usize) -> Vec<(String, u64)> {
        assert!(
            depth <= MAX_DEPTH,
            "perft depth {depth} is more than {MAX_DEPTH}"
        );
        let mut out = Vec::new();
        if depth == 0 {
            return out;
        }
        for m in pos.legal_moves() {
            if crate::interrupt::requested() {
                break;
            }
            pos.make(m);
            let n = self.count(pos, depth - 1);
            pos.unmake();
            out.push((pos.move_text(m), n));
        }
        out.sort();
        out
    }
}

fn count(pos: &mut Position, depth: usize, lists: &mut [Vec<Move>], verify: bool) -> u64 {
    let (list, rest) = lists.split_first_mut().expect("one list per ply");
    pos.legal_moves_into(list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut total = 0;
    if depth >= 3 && crate::interrupt::requested() {
        return 0;
    }
    for &m in list.iter() {
        if verify {
            let (before, hash) = (pos.fen(), pos.hash());
            pos.make(m);
            assert_eq!(
                pos.hash(),
                pos.compute_hash(),
                "incremental hash after {}",
                pos.fen()
            );
            total += count(pos, depth - 1, rest, verify);
            pos.unmake();
            assert_eq!(
                (pos.fen(), pos.hash()),
                (before, hash),
                "unmake restores the position"
            );
        } else {
            pos.make(m);
            total += count(pos, depth - 1, rest, verify);
            pos.unmake();
        }
    }
    total
}
