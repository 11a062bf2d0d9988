//! Replaying a game's moves under (new) rules: shared by the REPL's `reload`, `set` and
//! `load`, and by the web board (`varsand serve`), which follows its rule file the same
//! way.

use std::sync::Arc;

use crate::engine::{GameEnd, Position};
use crate::rules::Rules;

/// Replays `line` from the start position under `rules`, as far as it goes.
pub fn replay(
    rules: &Arc<Rules>,
    start_fen: Option<&str>,
    line: &[String],
) -> Result<Replay, String> {
    let mut pos = match start_fen {
        Some(f) => Position::from_fen(rules.clone(), f)
            .map_err(|e| format!("the start position no longer reads ({})", e.message))?,
        None => Position::start(rules.clone()),
    };
    let mut stop = None;
    let mut played = 0;
    for m in line {
        if let Some(end) = pos.outcome() {
            stop = Some(Stop::Ended(end));
            break;
        }
        if pos.play(m).is_err() {
            stop = Some(Stop::Refused(pos.why_illegal(m)));
            break;
        }
        played += 1;
    }
    Ok(Replay { pos, played, stop })
}

/// A game replayed under rules: the position reached, how many moves were played, and
/// why the replay stopped short, if it did.
pub struct Replay {
    pub pos: Position,
    pub played: usize,
    pub stop: Option<Stop>,
}

/// Why a replay stopped before the end of the moves.
pub enum Stop {
    /// The rules refuse the next move, for this reason.
    Refused(String),
    /// The game was over.
    Ended(GameEnd),
}
