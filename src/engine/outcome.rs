//! How a game ends: the file's end rules, applied in the order they are written
//! (rules that need no legal move first, then repetition and move limits).

use super::{Move, Position};
use crate::rules::{EndRule, Outcome, code};

/// The end of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEnd {
    /// The winning side, or `None` for a draw.
    pub winner: Option<usize>,
    pub reason: String,
}

/// Why a move typed by a user cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoMove {
    pub message: String,
}

impl std::fmt::Display for NoMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for NoMove {}

fn result_for(side: usize, o: Outcome) -> Option<usize> {
    match o {
        Outcome::Win => Some(side),
        Outcome::Loss => Some(side ^ 1),
        Outcome::Draw => None,
    }
}

impl Position {
    /// A `captured PIECE` or `exited PIECE` rule that has taken effect: the side it is
    /// about, the piece, the result for that side, and whether the piece exited. Ends
    /// the game at once, so no moves follow.
    pub(crate) fn decided(&self) -> Option<(usize, usize, Outcome, bool)> {
        let rules = &*self.rules;
        let kinds = rules.pieces.len();
        for rule in &rules.end_rules {
            match *rule {
                EndRule::Captured(kind, o) => {
                    for side in 0..2 {
                        let c = code(kind, side);
                        let had = rules
                            .tables
                            .home_counts
                            .get(c as usize)
                            .is_some_and(|&n| n > 0);
                        if had
                            && self.counts[c as usize] == 0
                            && self.hand[side * kinds + kind] == 0
                        {
                            return Some((side, kind, o, false));
                        }
                    }
                }
                EndRule::Exited(kind, o) => {
                    for side in 0..2 {
                        if self.exited[side] >> kind & 1 != 0 {
                            return Some((side, kind, o, true));
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Has a `captured` or `exited` rule ended the game? The one place that decides
    /// it: pieces in hand count as not captured.
    #[inline]
    pub fn is_decided(&self) -> bool {
        self.decided().is_some()
    }

    /// Has the game ended, and how? Checks every end rule.
    pub fn outcome(&mut self) -> Option<GameEnd> {
        let rules = self.rules.clone();
        let name = |s: usize| rules.players[s].name.clone();
        if let Some((side, kind, o, exited)) = self.decided() {
            let what = if exited {
                "left the board"
            } else {
                "was captured"
            };
            return Some(GameEnd {
                winner: result_for(side, o),
                reason: format!("{}'s {} {what}", name(side), rules.pieces[kind].name),
            });
        }
        let us = self.side;
        let moves: Vec<Move> = self.legal_moves();
        if moves.is_empty() {
            let check = self.in_check(us);
            for rule in &rules.end_rules {
                let (o, reason) = match *rule {
                    EndRule::Checkmate(o) if check => (o, format!("{} is checkmated", name(us))),
                    EndRule::Stalemate(o) if !check => (o, format!("{} is stalemated", name(us))),
                    EndRule::NoMoves(o) => (o, format!("{} has no legal move", name(us))),
                    _ => continue,
                };
                return Some(GameEnd {
                    winner: result_for(us, o),
                    reason,
                });
            }
            return Some(GameEnd {
                winner: None,
                reason: format!(
                    "{} has no legal move (no end rule applies: a draw)",
                    name(us)
                ),
            });
        }
        for rule in &rules.end_rules {
            match *rule {
                EndRule::Repetition(k, o) if self.repetitions() >= k => {
                    return Some(GameEnd {
                        winner: result_for(us, o),
                        reason: format!("the position occurred {k} times"),
                    });
                }
                EndRule::MoveLimit(k, o) if self.halfmove >= 2 * k => {
                    return Some(GameEnd {
                        winner: result_for(us, o),
                        reason: format!(
                            "{k} moves by each side without a capture or other progress"
                        ),
                    });
                }
                _ => {}
            }
        }
        None
    }

    /// How many times the current position has occurred, this time included. A hash
    /// match is confirmed by comparing the positions themselves.
    pub fn repetitions(&self) -> u32 {
        let mut count = 1;
        let len = self.history.len();
        // Only positions since the last irreversible move can repeat.
        let back = (self.halfmove as usize).min(len);
        let mut earlier: Option<Position> = None;
        for i in (len - back..len).rev() {
            if self.history[i].hash != self.hash {
                continue;
            }
            let p = earlier.get_or_insert_with(|| self.clone());
            while p.history.len() > i {
                p.unmake();
            }
            if p.same_state(self) {
                count += 1;
            }
        }
        count
    }

    /// Do two positions under the same rules hold the same state (everything that
    /// decides what may happen next)?
    fn same_state(&self, other: &Position) -> bool {
        self.side == other.side
            && self.board == other.board
            && self.height == other.height
            && self.terrain == other.terrain
            && self.castling == other.castling
            && self.ep == other.ep
            && self.hand == other.hand
            && self.counters == other.counters
            && self.exited == other.exited
            && self.swapped == other.swapped
    }
}
