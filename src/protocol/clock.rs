//! How long to think about a move, from a game clock.

use std::time::Duration;

/// The time lost outside the search on each move (process switches, pipes, the
/// interface's own work) when the interface does not say, in milliseconds.
pub const DEFAULT_OVERHEAD_MS: u64 = 50;
/// The most overhead an interface may set (UCI's `Move Overhead`), in milliseconds.
pub const MAX_OVERHEAD_MS: u64 = 10_000;
/// The moves a game is assumed still to last when the clock does not say.
const ASSUMED_MOVES_LEFT: u32 = 30;
/// More moves to go than this are counted as this many: the share is small already.
const MOST_MOVES_TO_GO: u32 = 100;

/// One side's clock as an interface reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// Time left for the moves to go (or for the game).
    pub remaining: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the game has one.
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// The thinking time for the next move: the remaining time less `overhead`,
    /// shared among the moves to go, plus three quarters of the increment. It is never
    /// more than half of what remains (four fifths on the last move before the time
    /// control, which refills the clock), so a slow move cannot lose on time, and never
    /// less than a millisecond, so the search always returns a move.
    pub fn budget(&self, overhead: Duration) -> Duration {
        let usable = self.remaining.saturating_sub(overhead);
        let moves = self
            .moves_to_go
            .unwrap_or(ASSUMED_MOVES_LEFT)
            .clamp(1, MOST_MOVES_TO_GO);
        let share = usable / moves + self.increment * 3 / 4;
        let cap = if moves == 1 {
            usable * 4 / 5
        } else {
            usable / 2
        };
        share.min(cap).max(Duration::from_millis(1))
    }
}

/// The thinking time for a move given a fixed time (UCI's `movetime`, XBoard's `st`):
/// the time less the overhead, but at least half of it.
pub fn fixed_budget(time: Duration, overhead: Duration) -> Duration {
    time.saturating_sub(overhead)
        .max(time / 2)
        .max(Duration::from_millis(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(remaining: u64, increment: u64, moves_to_go: Option<u32>) -> Clock {
        Clock {
            remaining: ms(remaining),
            increment: ms(increment),
            moves_to_go,
        }
    }

    #[test]
    fn a_move_gets_its_share_of_the_clock_and_most_of_the_increment() {
        let overhead = ms(DEFAULT_OVERHEAD_MS);
        // (60.05 s - 50 ms) / 30 + 3/4 of 1 s.
        assert_eq!(clock(60_050, 1000, None).budget(overhead), ms(2000 + 750));
        // 40 moves to go share the clock.
        assert_eq!(clock(40_050, 0, Some(40)).budget(overhead), ms(1000));
    }

    #[test]
    fn a_fixed_time_keeps_a_margin() {
        let overhead = ms(DEFAULT_OVERHEAD_MS);
        assert_eq!(fixed_budget(ms(1000), overhead), ms(950));
        assert_eq!(fixed_budget(ms(20), overhead), ms(10));
        assert_eq!(fixed_budget(ms(0), overhead), ms(1));
    }

    #[test]
    fn a_move_never_takes_most_of_what_is_left() {
        let overhead = ms(DEFAULT_OVERHEAD_MS);
        // A large increment on a nearly empty clock: half of what is usable.
        assert_eq!(clock(1050, 5000, None).budget(overhead), ms(500));
        // The last move before the time control: four fifths.
        assert_eq!(clock(1050, 0, Some(1)).budget(overhead), ms(800));
        // Less time left than the overhead: still a move, at once.
        assert_eq!(clock(10, 0, None).budget(overhead), ms(1));
        assert_eq!(clock(0, 0, Some(0)).budget(overhead), ms(1));
    }
}
