//! What one call of the move generator looks up once, shared by move generation
//! (`movegen`) and attack detection (`attack`), which asks the generator on behalf of
//! pieces whose captures depend on the position.

use super::Position;
use super::squares::sides_of;
use crate::rules::{BitStep, Cell, Code, EMPTY, NO_CELL, kind_of};

/// What one call of the generator looks up once: the rules, and where the pieces that
/// `closer-to` conditions measure from stand.
pub(crate) struct Gen<'r> {
    pub(super) rules: &'r crate::rules::Rules,
    /// Only for rules with `closer-to` conditions.
    pub(super) located: Option<Located>,
    /// The piece a capture onto an empty square would take: attack detection asks
    /// on behalf of a piece not standing there (a royal piece crossing squares).
    /// [`EMPTY`]: what stands on the square.
    pub(crate) victim: Code,
    /// A square of the mover's and whether it is attacked, when the caller knows it
    /// already (its royal piece's square, from the check test): castling asks it.
    pub(super) known_attack: Option<(Cell, bool)>,
    /// The board as bits, where the move generator's short path may read it so
    /// (boards of at most 128 squares, no terrain); set by the generator's own
    /// callers, `None` for other askers.
    pub(super) occupancy: Option<Occupancy>,
}

/// The empty squares and the enemy's, as bits (see `Gen::occupancy`).
#[derive(Clone, Copy)]
pub(super) struct Occupancy {
    pub(super) empty: u128,
    pub(super) own: u128,
    pub(super) enemy: u128,
    /// The en-passant square, if one.
    pub(super) ep: u128,
    /// Per `BitStep::LANDS` flags of a step: the squares the board lets it land on
    /// (the empty ones, the enemy's, the en-passant square).
    pub(super) lands: [u128; 8],
}

impl Occupancy {
    /// The board of `pos` as bits, where its rules allow (see `Gen::occupancy`).
    #[inline]
    pub(super) fn of(pos: &Position, rules: &crate::rules::Rules) -> Option<Occupancy> {
        if rules.tables.steps.bits.is_empty() || !rules.terrains.is_empty() {
            return None;
        }
        let (own, enemy) = sides_of(&pos.board, pos.side);
        let ep = if pos.ep == NO_CELL {
            0
        } else {
            1 << pos.ep.index()
        };
        let empty = !(enemy | own);
        let lands = std::array::from_fn(|i| {
            let flag = |f: u8, bits: u128| if i as u8 & f != 0 { bits } else { 0 };
            flag(BitStep::MOVES, empty)
                | flag(BitStep::CAPTURES, enemy)
                | flag(BitStep::TAKES_EP, ep)
        });
        Some(Occupancy {
            empty,
            own,
            enemy,
            ep,
            lands,
        })
    }
}

/// Where the pieces `closer-to` conditions measure from stand.
pub(super) struct Located {
    pub(super) cells: [(Code, Cell); MAX_LOCATED],
    pub(super) len: usize,
    /// More stand than the array holds: measure on the board instead.
    pub(super) overflow: bool,
}

impl<'r> Gen<'r> {
    pub(crate) fn new(pos: &Position, rules: &'r crate::rules::Rules) -> Self {
        let t = &rules.tables;
        if t.kinds.located == 0 {
            return Gen {
                rules,
                located: None,
                victim: EMPTY,
                known_attack: None,
                occupancy: None,
            };
        }
        let mut l = Located {
            cells: [(EMPTY, NO_CELL); MAX_LOCATED],
            len: 0,
            overflow: false,
        };
        for (cell, &c) in pos.board.iter().enumerate() {
            if c == EMPTY || t.kinds.located >> kind_of(c) & 1 == 0 {
                continue;
            }
            if l.len == MAX_LOCATED {
                l.overflow = true;
                break;
            }
            l.cells[l.len] = (c, Cell::new(cell));
            l.len += 1;
        }
        Gen {
            rules,
            located: Some(l),
            victim: EMPTY,
            known_attack: None,
            occupancy: None,
        }
    }
}

const MAX_LOCATED: usize = 16;
