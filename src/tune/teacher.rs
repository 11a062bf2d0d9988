//! Labels from a teacher: a UCI engine (Fairy-Stockfish, say) scores each quiet
//! position with a short search of its own, and the fit learns from its scores
//! instead of the games' results. A result says little about one position (the game
//! was decided many moves later); a score says much more, so a few thousand games
//! place square bonuses that a few hundred games of results cannot. The teacher's
//! centipawns become a probability of winning by Elo's logistic (400 centipawns are
//! odds of ten to one), the label the fit then works with.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::{Game, Sample};
use crate::engine::Position;
use crate::matches::engine::{Engine, StartError, UciScore};
use crate::matches::variant_candidates;
use crate::rules::Rules;

/// Centipawns to the logit of a win: Elo's logistic, 400 centipawns for odds of 10:1.
const TEACHER_SCALE: f64 = std::f64::consts::LN_10 / 400.0;
/// How long the teacher may take to start, or to score one position.
const WAIT: Duration = Duration::from_secs(60);

/// The teacher and how it searches.
#[derive(Debug, Clone)]
pub struct Teacher {
    /// Its command line.
    pub argv: Vec<String>,
    /// The `go` command's limits, e.g. `nodes 2000`.
    pub go: String,
    /// Its `UCI_Variant`, if given; else the game's name, as `match` finds it.
    pub variant: Option<String>,
    /// Teachers run at once (one process each).
    pub threads: usize,
}

/// The probability that the first player wins, read from a teacher's score for the
/// side to move.
pub fn label_of(score: UciScore, first_to_move: bool) -> f64 {
    let p = match score {
        UciScore::Cp(cp) => 1.0 / (1.0 + (-(cp as f64) * TEACHER_SCALE).exp()),
        UciScore::Mate(m) if m > 0 => 1.0,
        UciScore::Mate(_) => 0.0,
    };
    if first_to_move { p } else { 1.0 - p }
}

/// Labels every sample with the teacher's score of its position (samples the teacher
/// gave no score for are dropped). `tick` hears each game labelled.
pub fn label(
    rules: &Arc<Rules>,
    games: &[Game],
    samples: Vec<Sample>,
    teacher: &Teacher,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<Sample>, String> {
    let mut by_game: Vec<Vec<Sample>> = vec![Vec::new(); games.len()];
    for s in samples {
        by_game[s.game as usize].push(s);
    }
    let threads = teacher.threads.clamp(1, games.len().max(1));
    // Games are handed out one at a time; each thread gives back the games it labelled.
    let next = AtomicUsize::new(0);
    let by_game = &by_game;
    let work = || -> Result<Vec<Vec<Sample>>, String> {
        let mut engine = start(rules, teacher)?;
        let mut done = Vec::new();
        loop {
            let g = next.fetch_add(1, Ordering::Relaxed);
            if g >= games.len() {
                break;
            }
            done.push(label_game(
                &mut engine,
                rules,
                &games[g],
                &by_game[g],
                &teacher.go,
            )?);
            tick();
        }
        engine.quit();
        Ok(done)
    };
    let labelled = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a teacher thread panicked".into()))
            })
            .collect::<Result<Vec<_>, String>>()
    })?;
    Ok(labelled.into_iter().flatten().flatten().collect())
}

/// Starts a teacher on the game: its variant chosen as `match` chooses it; a teacher
/// that knows variants but not this game's is refused (it would score another game).
fn start(rules: &Arc<Rules>, teacher: &Teacher) -> Result<Engine, String> {
    let program = &teacher.argv[0];
    let mut engine = Engine::start(&teacher.argv, WAIT).map_err(|e| match e {
        StartError::Spawn(why) => why,
        StartError::Handshake(f) => format!("the teacher `{program}` {}", f.what),
    })?;
    let variant = match (&engine.variants, &teacher.variant) {
        (None, _) => None,
        (Some(known), Some(v)) if known.contains(v) => Some(v.clone()),
        (Some(_), Some(v)) => {
            return Err(format!("the teacher `{program}` has no UCI_Variant `{v}`"));
        }
        (Some(known), None) => {
            let candidates = variant_candidates(rules);
            let found = candidates.iter().find(|c| known.contains(c)).cloned();
            if found.is_none() && known.len() > 1 {
                return Err(format!(
                    "the teacher `{program}` knows no variant called {} (tried {}): name one with --teacher-variant",
                    rules.name,
                    candidates.join(", ")
                ));
            }
            found
        }
    };
    engine
        .new_game(variant.as_deref(), WAIT)
        .map_err(|f| format!("the teacher `{program}` {}", f.what))?;
    Ok(engine)
}

/// One game's samples, each labelled by the teacher's score after the moves before it.
fn label_game(
    engine: &mut Engine,
    rules: &Arc<Rules>,
    game: &Game,
    samples: &[Sample],
    go: &str,
) -> Result<Vec<Sample>, String> {
    let start = game.start.fen();
    let base = if start == Position::start(rules.clone()).fen() {
        "position startpos".to_string()
    } else {
        format!("position fen {start}")
    };
    let mut pos = game.start.clone();
    let mut played = 0;
    let mut out = Vec::with_capacity(samples.len());
    for s in samples {
        while played < s.ply as usize {
            let Ok(m) = pos.parse_move(&game.moves[played]) else {
                return Ok(out);
            };
            pos.make(m);
            played += 1;
        }
        let position = if played == 0 {
            base.clone()
        } else {
            format!("{base} moves {}", game.moves[..played].join(" "))
        };
        let reply = engine
            .best_move(&position, &format!("go {go}"), WAIT)
            .map_err(|f| format!("the teacher {}", f.what))?;
        if let Some(score) = reply.score {
            out.push(Sample {
                result: label_of(score, pos.side_to_move().is_first()),
                ..s.clone()
            });
        }
    }
    Ok(out)
}
