//! The evaluation's terms that depend on where pieces stand relative to each other,
//! derived from the rules alone, and weighed by the game's phase (how much of the
//! setup's material is still on the board: a middle game fades into an end game).
//!
//! - **Royal safety** (for a side with one target piece, on boards whose distances are
//!   tabled): in the middle game a target piece is worth more on its own side of the
//!   board ([`HOME`] per rank it stands away from its first rank), and with its own
//!   pieces around it ([`SHELTER`] each, up to [`SHELTER_MOST`]); enemy pieces close
//!   to it (two steps or fewer, runners and targets aside) cost it the square of their
//!   summed value in pawns ([`DANGER`] per unit, up to [`DANGER_MOST`]). In the end
//!   game it wants the centre: [`ROYAL_CENTRAL`] of how much more than its average it
//!   reaches from its square.
//! - **Runners**: the cheapest pieces that only move forward and promote. A runner
//!   with no enemy runner ahead of it on its file or the files beside it is *passed*: it gains a
//!   share of its promotion's gain that grows with the cube of its progress, more in
//!   the end game ([`PASSED_MIDDLE`], [`PASSED_END`]). Two runners of a side on one file
//!   cost [`DOUBLED`] each after the first; a runner with no runner of its side on the
//!   files beside it costs [`ISOLATED`]. Only on a game with one board.
//!
//! In games with drops nothing leaves play (a capture goes to a hand), so the phase
//! stays the middle game.

use crate::ids::{PieceKind, Side};
use crate::rules::{Code, Rules, Source, code};

/// Middle game: centipawns per rank a target piece stands away from its first rank.
const HOME: i32 = 12;
/// Middle game: centipawns per own piece next to a target piece.
const SHELTER: i32 = 10;
/// The most shelter counted.
const SHELTER_MOST: i32 = 4;
/// Middle game: centipawns per square of the enemy pieces' summed value (in pawns)
/// within two steps of a target piece.
const DANGER: i32 = 1;
/// The most a target piece's danger costs, in centipawns.
const DANGER_MOST: i32 = 400;
/// End game: the share of a target piece's extra reach that counts (centralisation).
const ROYAL_CENTRAL: f64 = 0.6;
/// A passed runner's share of its promotion's gain, at the zone's edge (times the cube
/// of its progress), in the middle game and in the end game.
const PASSED_MIDDLE: f64 = 0.1;
const PASSED_END: f64 = 0.35;
/// Centipawns per runner doubled on a file, and per isolated runner.
const DOUBLED: i32 = 12;
const ISOLATED: i32 = 10;
/// Runners kept per side while evaluating (with more, the runner terms are left out).
const RUNNERS_KEPT: usize = 24;
/// Files a board may have for the runner terms.
const FILES_KEPT: usize = 32;
/// The full phase: every piece of the setup on the board.
pub const PHASE_FULL: i32 = 256;

/// The tables of the structure terms of one set of rules.
#[derive(Debug, Clone, Default)]
pub struct Structure {
    cells: usize,
    /// Per `code * cells + cell`, for target pieces: (middle game, end game) worth
    /// of standing there, from the owner's point of view.
    royal_square: Vec<(i32, i32)>,
    /// Per code: the piece's weight in the danger it brings near an enemy target, in
    /// centipawns of value (0 for runners and targets).
    danger_weight: Vec<i32>,
    /// Per code: 1 when the piece is a runner.
    runner: Vec<bool>,
    /// Per `code * cells + cell`, for runners: the passed runner's (middle, end) bonus.
    passed: Vec<(i32, i32)>,
    /// Per cell: (file, rank) on the one board; empty when the runner terms are off.
    file_rank: Vec<(u8, u8)>,
    files: usize,
    /// The drops keep every piece in play: the phase stays full.
    pub drops: bool,
}

/// What one pass over the pieces gathers for the structure terms.
#[derive(Debug, Default)]
pub struct Gathered {
    /// Per side: the cells of its runners (their count may pass [`RUNNERS_KEPT`]).
    runners: [[u16; RUNNERS_KEPT]; 2],
    runner_count: [usize; 2],
    /// Per side: the summed danger weight of its pieces near the enemy target.
    pub danger: [i32; 2],
    /// Per side: own pieces next to its target.
    pub shelter: [i32; 2],
}

impl Gathered {
    /// Notes a runner of `side` on `cell`.
    #[inline]
    pub fn runner(&mut self, side: Side, cell: usize) {
        let n = self.runner_count[side];
        if n < RUNNERS_KEPT {
            self.runners[side][n] = cell as u16;
        }
        self.runner_count[side] = n + 1;
    }
}

impl Structure {
    /// The tables for `rules`, with `values` the pieces' worth, `reach` per kind and
    /// side the reach from every cell, `scale` centipawns per unit of reach,
    /// `targets` the kinds whose loss loses, and `zone_distance` per kind and side the
    /// distance from every cell to its promotion zone (with the longest), if it has one.
    pub fn new(
        rules: &Rules,
        values: &[i32],
        reach: &dyn Fn(usize, Side, usize) -> f64,
        scale: f64,
        targets: u64,
        zone_distance: &dyn Fn(usize, Side) -> Option<(Vec<i32>, i32)>,
    ) -> Self {
        let n = rules.cell_count();
        let kinds = rules.pieces.len();
        let ncodes = 1 + 2 * kinds;
        let geo = &rules.geometry;
        let runners = runner_kinds(rules, values);
        let mut royal_square = vec![(0, 0); ncodes * n];
        let mut passed = vec![(0, 0); ncodes * n];
        let mut danger_weight = vec![0; ncodes];
        let mut runner = vec![false; ncodes];
        for k in 0..kinds {
            let is_target = targets >> k & 1 != 0;
            let is_runner = runners >> k & 1 != 0;
            let gain = rules.pieces[k]
                .promotions
                .iter()
                .flat_map(|p| p.to.iter().map(|&t| values[t.index()]))
                .max()
                .unwrap_or(0)
                - values[k];
            for side in Side::BOTH {
                let c = code(k, side) as usize;
                runner[c] = is_runner;
                if !is_target && !is_runner {
                    danger_weight[c] = values[k].clamp(0, 1200);
                }
                if is_target {
                    let average =
                        (0..n).map(|cell| reach(k, side, cell)).sum::<f64>() / n.max(1) as f64;
                    for (cell, info) in geo.cells.iter().enumerate().take(n) {
                        let ranks = geo.boards[info.board].ranks;
                        let from_home = if side.is_first() {
                            info.rank
                        } else {
                            ranks - 1 - info.rank
                        };
                        let middle = -HOME * from_home as i32;
                        let end = ((reach(k, side, cell) - average) * scale * ROYAL_CENTRAL).round()
                            as i32;
                        royal_square[c * n + cell] = (middle, end);
                    }
                }
                if is_runner
                    && gain > 0
                    && let Some((distance, longest)) = zone_distance(k, side)
                {
                    for cell in 0..n {
                        let near = 1.0 - f64::from(distance[cell]) / f64::from(longest.max(1));
                        let progress = f64::from(gain) * near.max(0.0).powi(3);
                        passed[c * n + cell] = (
                            (progress * PASSED_MIDDLE).round() as i32,
                            (progress * PASSED_END).round() as i32,
                        );
                    }
                }
            }
        }
        let one_board = geo.boards.len() == 1 && geo.boards[0].files <= FILES_KEPT;
        let file_rank = if one_board && runners != 0 {
            geo.cells
                .iter()
                .map(|c| (c.file as u8, c.rank as u8))
                .collect()
        } else {
            Vec::new()
        };
        Structure {
            cells: n,
            royal_square,
            danger_weight,
            runner,
            passed,
            files: if one_board { geo.boards[0].files } else { 0 },
            file_rank,
            drops: rules.has_drops(),
        }
    }

    /// Notes the danger a piece `c` of `side` brings to the enemy target, `near`
    /// steps away.
    #[inline]
    pub fn aim(&self, gathered: &mut Gathered, c: Code, side: Side, near: u8) {
        if near <= 2 {
            gathered.danger[side] += self.danger_weight[c as usize];
        }
    }

    /// Whether a piece code is a runner's.
    #[inline]
    pub fn is_runner(&self, c: Code) -> bool {
        self.runner[c as usize]
    }

    /// The phase from the non-target material left on the board and the setup's.
    #[inline]
    pub fn phase(&self, material: i32, start: i32) -> i32 {
        if self.drops || start <= 0 {
            PHASE_FULL
        } else {
            (material.max(0) * PHASE_FULL / start).min(PHASE_FULL)
        }
    }

    /// Blends a (middle game, end game) pair by the phase.
    #[inline]
    pub fn blend((middle, end): (i32, i32), phase: i32) -> i32 {
        (middle * phase + end * (PHASE_FULL - phase)) / PHASE_FULL
    }

    /// The royal terms, from the first player's point of view, for one target per
    /// side standing on `targets` (their codes read from `board`).
    pub fn royal(
        &self,
        board: &[Code],
        targets: [usize; 2],
        gathered: &Gathered,
        phase: i32,
    ) -> i32 {
        let mut score = 0;
        for (side, &cell) in targets.iter().enumerate() {
            let c = board[cell] as usize;
            let mut own = Self::blend(self.royal_square[c * self.cells + cell], phase);
            let shelter = gathered.shelter[side].min(SHELTER_MOST) * SHELTER;
            let units = gathered.danger[side ^ 1] / 100;
            let danger = (units * units * DANGER).min(DANGER_MOST);
            own += (shelter - danger) * phase / PHASE_FULL;
            score += if side == 0 { own } else { -own };
        }
        score
    }

    /// The runner terms, from the first player's point of view.
    pub fn runners(&self, board: &[Code], gathered: &Gathered, phase: i32) -> i32 {
        if self.file_rank.is_empty()
            || gathered.runner_count[0] > RUNNERS_KEPT
            || gathered.runner_count[1] > RUNNERS_KEPT
        {
            return 0;
        }
        // Per side and file: the rank of its most advanced runner toward the other side
        // (the highest for the first player, the lowest for the second), and how many.
        let mut front = [[-1i32; FILES_KEPT]; 2];
        let mut back = [[i32::MAX; FILES_KEPT]; 2];
        let mut count = [[0u8; FILES_KEPT]; 2];
        for side in 0..2 {
            for &cell in &gathered.runners[side][..gathered.runner_count[side]] {
                let (f, r) = self.file_rank[cell as usize];
                let (f, r) = (f as usize, i32::from(r));
                front[side][f] = front[side][f].max(r);
                back[side][f] = back[side][f].min(r);
                count[side][f] += 1;
            }
        }
        let mut score = 0;
        for (side, counts) in count.iter().enumerate() {
            let enemy = side ^ 1;
            let mut own = 0;
            for &cell in &gathered.runners[side][..gathered.runner_count[side]] {
                let (f, r) = self.file_rank[cell as usize];
                let (f, r) = (f as usize, i32::from(r));
                let beside = f.saturating_sub(1)..=(f + 1).min(self.files - 1);
                let blocked = beside.clone().any(|g| {
                    if side == 0 {
                        front[enemy][g] > r
                    } else {
                        back[enemy][g] != i32::MAX && back[enemy][g] < r
                    }
                });
                if !blocked {
                    let c = board[cell as usize] as usize;
                    own += Self::blend(self.passed[c * self.cells + cell as usize], phase);
                }
                if !beside.clone().any(|g| g != f && counts[g] > 0) {
                    own -= ISOLATED;
                }
            }
            for &on_file in &counts[..self.files] {
                own -= DOUBLED * i32::from(on_file.saturating_sub(1));
            }
            score += if side == 0 { own } else { -own };
        }
        score
    }
}

/// The runner kinds: not royal, promoting, every move of theirs forward, and worth at
/// most half as much again as the cheapest piece.
fn runner_kinds(rules: &Rules, values: &[i32]) -> u64 {
    let cheapest = values.iter().copied().filter(|&v| v > 0).min().unwrap_or(0);
    let mut mask = 0;
    for (k, p) in rules.pieces.iter().enumerate().take(64) {
        if p.royal || p.promotions.is_empty() || values[k] <= 0 || values[k] * 2 > cheapest * 3 {
            continue;
        }
        let mut any = false;
        let forward = rules
            .moves_of(PieceKind::new(k))
            .all(|(_, g)| match g.source {
                Source::Betza(b) => {
                    any = true;
                    rules.betza(b).vectors.iter().all(|&(_, dy)| dy > 0)
                }
                _ => false,
            });
        if forward && any {
            mask |= 1 << k;
        }
    }
    mask
}
