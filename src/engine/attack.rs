//! "Is this square attacked?", answered from the reverse tables: from the target
//! outward, along the leaps and lines by which a piece could capture on it.

use super::Position;
use crate::rules::{Cell, kind_of, side_of};
use crate::syntax::betza::Hop;

pub(crate) fn attacked(pos: &Position, cell: Cell, by: usize) -> bool {
    let t = &pos.rules.tables;
    let board = &pos.board;
    let (start, len) = t.leap_index[by][cell as usize];
    for a in &t.leap_attacks[start as usize..(start + len) as usize] {
        let c = board[a.from as usize];
        if c != 0 && side_of(c) == by && a.kinds >> kind_of(c) & 1 != 0 {
            let path = &t.cells[a.path_first as usize..a.path_first as usize + a.path_len as usize];
            if path.iter().all(|&p| pos.passable(p, kind_of(c))) {
                return true;
            }
        }
    }
    let (start, len) = t.ray_index[by][cell as usize];
    for r in &t.ray_attacks[start as usize..(start + len) as usize] {
        let line = &t.cells[r.first as usize..r.first as usize + r.len as usize];
        let mut kinds = r.kinds;
        let mut screened = false;
        for (k, &sq) in line.iter().enumerate() {
            let c = board[sq as usize];
            if c == 0 {
                let terr = pos.terrain[sq as usize];
                if terr != 0 {
                    let tr = &pos.rules.terrains[terr as usize - 1];
                    if tr.blocks_passing {
                        kinds &= tr.crossed_by;
                        if kinds == 0 {
                            break;
                        }
                    }
                }
                if r.hop == Hop::Grasshopper && !screened {
                    break; // a grasshopper's screen stands right next to its landing square
                }
                continue;
            }
            match r.hop {
                Hop::None => {
                    if (k as u16) < r.max && side_of(c) == by && kinds >> kind_of(c) & 1 != 0 {
                        return true;
                    }
                    break;
                }
                _ if !screened => screened = true,
                _ => {
                    if side_of(c) == by && kinds >> kind_of(c) & 1 != 0 {
                        return true;
                    }
                    break;
                }
            }
        }
    }
    false
}
