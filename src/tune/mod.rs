//! `varsand tune`: an evaluation learned for any game. Games (self-play, or read from
//! PGN files) label their quiet positions with the result; the evaluation's values,
//! square bonuses and mobility weight are then fitted by logistic regression (Texel's
//! method): the result is taken to be sigmoid(K × eval), K is fitted first with the
//! rules' own evaluation, then the weights by Newton's method on the log loss.
//!
//! The fitted part of the evaluation is linear in its weights, so each position is
//! kept as a short list of (weight index, count) pairs, from the first player's point
//! of view: a piece of the first player adds 1 to its kind's value and to its square's
//! bonus, one of the second player subtracts 1 (at the square turned half a turn, as
//! [`crate::search::learned`] reads them).

pub mod fit;
mod layout;
pub mod net;
#[cfg(feature = "cli")]
pub mod teacher;

use std::sync::Arc;

use rayon::prelude::*;

use crate::analyze::{GameConfig, Player, game_seed, play_game};
use crate::engine::{Move, Position};
use crate::rules::Rules;
use crate::search::{Eval, Limits, learned::Learned};

pub use layout::{Layout, RoyalTerms};

/// One game to learn from.
#[derive(Debug, Clone)]
pub struct Game {
    pub start: Position,
    /// The moves, as text.
    pub moves: Vec<String>,
    /// The winning side, `None` for a draw.
    pub winner: Option<usize>,
}

/// The prior's spread for a weight held at its mean (centipawns): a tenth of one.
const PINNED_SPREAD: f64 = 0.1;

/// One labelled position.
#[derive(Debug, Clone)]
pub struct Sample {
    /// (weight index, count), the first player's count minus the second's.
    pub features: Vec<(u32, f32)>,
    /// The first player's score in the game: 1, ½ or 0.
    pub result: f64,
    /// The game it comes from (positions of one game are not independent).
    pub game: u32,
    /// The moves of the game played before it.
    pub ply: u32,
}

/// How the self-play games are played.
#[derive(Debug, Clone)]
pub struct SelfPlay {
    pub games: usize,
    pub limits: Limits,
    pub seed: u64,
    pub threads: usize,
    pub config: GameConfig,
}

/// Plays the self-play games in parallel; `tick` is called as each ends.
pub fn self_play(
    rules: &Arc<Rules>,
    eval: &Arc<Eval>,
    opts: &SelfPlay,
    tick: &(dyn Fn() + Sync),
) -> Vec<Game> {
    let players = [
        Player::Search(opts.limits.clone()),
        Player::Search(opts.limits.clone()),
    ];
    let config = GameConfig {
        record_moves: true,
        ..opts.config.clone()
    };
    let play = |i: usize| {
        let record = play_game(rules, eval, &players, game_seed(opts.seed, i), &config);
        tick();
        Game {
            start: Position::start(rules.clone()),
            moves: record.moves,
            winner: record.winner,
        }
    };
    let threads = opts.threads.max(1);
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| (0..opts.games).into_par_iter().map(play).collect()),
        Err(_) => (0..opts.games).map(play).collect(),
    }
}

/// The quiet positions of a game, labelled with its result: positions neither just
/// after a capture nor just before one, the side to move not in check (where a
/// capture is pending, the material count misleads).
pub fn samples_of(layout: &Layout, game: &Game, index: u32) -> Vec<Sample> {
    let result = match game.winner {
        Some(0) => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    let mut pos = game.start.clone();
    let mut legal: Vec<Move> = Vec::new();
    let mut branching: Vec<i32> = Vec::new();
    let mut after_capture = false;
    let mut out = Vec::new();
    for (ply, text) in game.moves.iter().enumerate() {
        pos.legal_moves_into(&mut legal);
        branching.push(legal.len() as i32);
        let Ok(m) = pos.parse_move(text) else {
            break;
        };
        let capture = pos.victim(m).is_some();
        let side = pos.side_to_move();
        if !after_capture && !capture && !pos.in_check(side) {
            let plies = branching.len();
            // The search's mobility term: the side to move's count two plies
            // earlier against the opponent's a ply earlier.
            let mobility = if plies > 2 {
                branching[plies - 3] - branching[plies - 2]
            } else {
                0
            };
            out.push(Sample {
                features: layout.features(&pos, mobility),
                result,
                game: index,
                ply: ply as u32,
            });
        }
        pos.make(m);
        after_capture = capture;
    }
    out
}

/// Every game's samples.
pub fn samples(layout: &Layout, games: &[Game]) -> Vec<Sample> {
    games
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, g)| samples_of(layout, g, i as u32))
        .collect()
}

/// A fitted evaluation and what is known of it.
#[derive(Debug, Clone)]
pub struct Tuned {
    pub learned: Learned,
    /// The scale of the sigmoid, per centipawn.
    pub k: f64,
    /// The mean log loss per position with the rules' evaluation and with the fitted one.
    pub loss_before: f64,
    pub loss_after: f64,
    /// Per piece kind, the standard error of its value on the board and in hand (in
    /// centipawns; `None` where it is not fitted).
    pub value_se: Vec<Option<f64>>,
    pub hand_se: Vec<Option<f64>>,
    pub mobility_se: f64,
    /// Where the fit put the mobility weight when that was below zero (it is then
    /// held at zero and the other weights fitted again).
    pub mobility_unbounded: Option<f64>,
    /// The first player's edge in centipawns (what the pieces do not explain of its
    /// results), and its standard error.
    pub edge: f64,
    pub edge_se: f64,
    /// The standard error of the tempo (the side to move's edge, which the search
    /// uses; its value is in `learned`).
    pub tempo_se: f64,
    pub positions: usize,
    pub games: usize,
}

/// Fits the weights to the samples, starting from (and drawn toward) the rules' own
/// evaluation (`taught`: the samples carry a teacher's scores, not results). `step`
/// hears each Newton step's mean loss.
pub fn tune(
    rules: &Rules,
    layout: &Layout,
    samples: &[Sample],
    (games, taught): (usize, bool),
    step: &mut dyn FnMut(usize, f64),
) -> Tuned {
    let eval = Eval::new(rules);
    let mut prior = layout.prior(&eval, taught);
    let k = fit::fit_k(samples, &prior.mean);
    let loss_before = fit::mean_loss(samples, &prior.mean, k);
    let mut weights = fit::newton(samples, &prior, k, step);
    // A negative mobility weight (having fewer moves is better) is the fit standing in
    // for something else the games share (slow, blocked positions at a low depth), and
    // plays badly: it is held at zero and the rest fitted again.
    let m = layout.mobility();
    let mobility_unbounded = (weights[m] < 0.0).then_some(weights[m]);
    if mobility_unbounded.is_some() {
        prior.mean[m] = 0.0;
        prior.spread[m] = PINNED_SPREAD;
        weights = fit::newton(samples, &prior, k, step);
    }
    let loss_after = fit::mean_loss(samples, &weights, k);
    // Weights no position moves (a royal piece's value: each side always has one)
    // keep the prior's mean, and no error is claimed for them.
    let mut seen = vec![false; layout.len()];
    for s in samples {
        for &(i, _) in &s.features {
            seen[i as usize] = true;
        }
    }
    let fitted: Vec<usize> = (0..layout.kinds())
        .flat_map(|kind| [Some(layout.value(kind)), layout.hand(kind)])
        .flatten()
        .chain([layout.mobility(), layout.tempo(), layout.edge()])
        .filter(|&i| seen[i])
        .collect();
    let errors = fit::standard_errors(samples, &weights, &prior, k, &fitted);
    let se_of = |index: usize| fitted.iter().position(|&f| f == index).map(|i| errors[i]);
    Tuned {
        learned: layout.learned(&weights),
        k,
        loss_before,
        loss_after,
        value_se: (0..layout.kinds())
            .map(|kind| se_of(layout.value(kind)))
            .collect(),
        hand_se: (0..layout.kinds())
            .map(|kind| layout.hand(kind).and_then(se_of))
            .collect(),
        mobility_se: if mobility_unbounded.is_some() {
            0.0
        } else {
            se_of(layout.mobility()).unwrap_or(0.0)
        },
        mobility_unbounded,
        edge: weights[layout.edge()],
        edge_se: se_of(layout.edge()).unwrap_or(0.0),
        tempo_se: se_of(layout.tempo()).unwrap_or(0.0),
        positions: samples.len(),
        games,
    }
}
