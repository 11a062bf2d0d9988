//! The counts of a run: what the report needs of the games played so far, added up
//! as they finish. Whole numbers only, so that the games added in any order (any
//! number of threads, several runs merged) give the same counts; the JSON report
//! carries them, so that results from several runs can be added up
//! ([`Counts::merge`]) and reported as one.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::GameRecord;

/// What the report needs of the games played so far.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Counts {
    pub games: usize,
    /// Wins per colour, and draws.
    pub wins: [usize; 2],
    pub draws: usize,
    /// Wins per person (0 moved first), and swaps (with a pie rule).
    pub person_wins: [usize; 2],
    pub swaps: usize,
    /// The search's wins and losses against a random mover (game i: the search moves
    /// first when i is even).
    pub search_wins: usize,
    pub search_losses: usize,
    /// Game length in plies → number of games.
    pub lengths: BTreeMap<usize, u64>,
    /// Per third of a game: the sum of the legal-move counts and the number of positions.
    pub phase: [(u64, u64); 3],
    /// Per ply: the sum of the legal-move counts and the number of positions.
    pub by_ply: Vec<(u64, u64)>,
    /// Per game, its mean number of legal moves in thousandths: the sum and the sum
    /// of squares over games (for the interval of the mean).
    pub branching_sum: u64,
    pub branching_sum_sq: u64,
    pub reasons: BTreeMap<String, usize>,
    /// Per piece kind, over all games: moves made, captures made, times captured.
    pub moved: Vec<u64>,
    pub captures: Vec<u64>,
    pub captured: Vec<u64>,
    /// The same per game, squared and summed (for the intervals of the means).
    pub moved_sq: Vec<u64>,
    pub captures_sq: Vec<u64>,
    pub captured_sq: Vec<u64>,
    /// The regression of the result on material, as sums over games: with
    /// x = (1, material of each kind in 1/64 pieces) and y = twice the first colour's
    /// score (0, 1 or 2), XᵀX (row-major), Xᵀy and yᵀy. Empty when not measured.
    pub xtx: Vec<i64>,
    pub xty: Vec<i64>,
    pub yty: i64,
    pub plies: u64,
    pub nodes: u64,
}

fn add_to(sum: &mut Vec<u64>, add: &[u64]) {
    if sum.len() < add.len() {
        sum.resize(add.len(), 0);
    }
    for (s, a) in sum.iter_mut().zip(add) {
        *s = s.saturating_add(*a);
    }
}

fn add_signed(sum: &mut Vec<i64>, add: &[i64]) {
    if sum.len() < add.len() {
        sum.resize(add.len(), 0);
    }
    for (s, a) in sum.iter_mut().zip(add) {
        *s = s.saturating_add(*a);
    }
}

impl Counts {
    pub fn new(kinds: usize) -> Self {
        Counts {
            moved: vec![0; kinds],
            captures: vec![0; kinds],
            captured: vec![0; kinds],
            moved_sq: vec![0; kinds],
            captures_sq: vec![0; kinds],
            captured_sq: vec![0; kinds],
            ..Counts::default()
        }
    }

    /// The first player's (the person who moved first) wins, draws and losses.
    pub fn first_player(&self) -> (usize, usize, usize) {
        (self.person_wins[0], self.draws, self.person_wins[1])
    }

    /// Adds game number `i`.
    pub fn add(&mut self, i: usize, r: &GameRecord) {
        self.games += 1;
        match r.winner {
            Some(w) => self.wins[w & 1] += 1,
            None => self.draws += 1,
        }
        if let Some(p) = r.winner_player {
            self.person_wins[p & 1] += 1;
            if p == i % 2 {
                self.search_wins += 1;
            } else {
                self.search_losses += 1;
            }
        }
        self.swaps += usize::from(r.swapped);
        *self.lengths.entry(r.plies).or_default() += 1;
        let len = r.branching.len();
        for (i, &b) in r.branching.iter().enumerate() {
            let p = (i * 3 / len.max(1)).min(2);
            self.phase[p].0 += u64::from(b);
            self.phase[p].1 += 1;
        }
        if self.by_ply.len() < len {
            self.by_ply.resize(len, (0, 0));
        }
        for (slot, &b) in self.by_ply.iter_mut().zip(&r.branching) {
            slot.0 += u64::from(b);
            slot.1 += 1;
        }
        if len > 0 {
            let total: u64 = r.branching.iter().map(|&b| u64::from(b)).sum();
            let mean = (total * 1000 + len as u64 / 2) / len as u64;
            self.branching_sum = self.branching_sum.saturating_add(mean);
            self.branching_sum_sq = self
                .branching_sum_sq
                .saturating_add(mean.saturating_mul(mean));
        }
        match self.reasons.get_mut(&r.reason) {
            Some(c) => *c += 1,
            None => {
                self.reasons.insert(r.reason.clone(), 1);
            }
        }
        add_to(&mut self.moved, &r.moved);
        add_to(&mut self.captures, &r.captures);
        add_to(&mut self.captured, &r.captured);
        let squares = |v: &[u64]| -> Vec<u64> { v.iter().map(|&x| x.saturating_mul(x)).collect() };
        add_to(&mut self.moved_sq, &squares(&r.moved));
        add_to(&mut self.captures_sq, &squares(&r.captures));
        add_to(&mut self.captured_sq, &squares(&r.captured));
        if !r.material.is_empty() {
            let x: Vec<i64> = std::iter::once(super::MATERIAL_SCALE)
                .chain(r.material.iter().copied())
                .collect();
            let y: i64 = match r.winner {
                Some(0) => 2,
                Some(_) => 0,
                None => 1,
            };
            let p = x.len();
            let xtx: Vec<i64> = x
                .iter()
                .flat_map(|&a| x.iter().map(move |&b| a.saturating_mul(b)))
                .collect();
            let xty: Vec<i64> = x.iter().map(|&a| a * y).collect();
            if self.xtx.len() == p * p || self.xtx.is_empty() {
                add_signed(&mut self.xtx, &xtx);
                add_signed(&mut self.xty, &xty);
                self.yty += y * y;
            }
        }
        self.plies += r.plies as u64;
        self.nodes += r.nodes;
    }

    /// The counts of two sets of games (of the same rules).
    pub fn merge(mut self, other: Counts) -> Counts {
        self.games += other.games;
        for s in 0..2 {
            self.wins[s] += other.wins[s];
            self.person_wins[s] += other.person_wins[s];
        }
        self.draws += other.draws;
        self.swaps += other.swaps;
        self.search_wins += other.search_wins;
        self.search_losses += other.search_losses;
        for (len, c) in other.lengths {
            *self.lengths.entry(len).or_default() += c;
        }
        for p in 0..3 {
            self.phase[p].0 += other.phase[p].0;
            self.phase[p].1 += other.phase[p].1;
        }
        if self.by_ply.len() < other.by_ply.len() {
            self.by_ply.resize(other.by_ply.len(), (0, 0));
        }
        for (slot, add) in self.by_ply.iter_mut().zip(&other.by_ply) {
            slot.0 += add.0;
            slot.1 += add.1;
        }
        self.branching_sum = self.branching_sum.saturating_add(other.branching_sum);
        self.branching_sum_sq = self.branching_sum_sq.saturating_add(other.branching_sum_sq);
        for (reason, c) in other.reasons {
            *self.reasons.entry(reason).or_default() += c;
        }
        add_to(&mut self.moved, &other.moved);
        add_to(&mut self.captures, &other.captures);
        add_to(&mut self.captured, &other.captured);
        add_to(&mut self.moved_sq, &other.moved_sq);
        add_to(&mut self.captures_sq, &other.captures_sq);
        add_to(&mut self.captured_sq, &other.captured_sq);
        if self.xtx.is_empty() || other.xtx.len() == self.xtx.len() {
            add_signed(&mut self.xtx, &other.xtx);
            add_signed(&mut self.xty, &other.xty);
            self.yty += other.yty;
        }
        self.plies += other.plies;
        self.nodes += other.nodes;
        self
    }
}
