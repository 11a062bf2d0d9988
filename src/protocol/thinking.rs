//! A search running on its own thread, so that the protocol keeps reading commands
//! while the engine thinks.
//!
//! Each search gets fresh signals: a stop flag (given to the searcher, which checks it
//! every 1024 nodes) and a hold that keeps the answer back after the search ends
//! (UCI's `go infinite` and `go ponder` answer only when told to stop). A timer set on
//! one search's stop flag never touches the next search.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::search::Searcher;

/// How often a held answer looks whether it may go.
const HOLD_POLL: Duration = Duration::from_millis(2);

/// The signals one search obeys.
#[derive(Clone)]
pub struct Signals {
    stop: Arc<AtomicBool>,
    hold: Arc<AtomicBool>,
}

impl Signals {
    fn new(hold: bool) -> Self {
        Self {
            stop: Arc::new(AtomicBool::new(false)),
            hold: Arc::new(AtomicBool::new(hold)),
        }
    }

    /// Has the search been told to stop?
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Waits while the answer is held (until `stop`, or a release such as UCI's
    /// `ponderhit`).
    pub fn wait_while_held(&self) {
        while self.hold.load(Ordering::Relaxed) && !self.stopped() {
            std::thread::sleep(HOLD_POLL);
        }
    }
}

/// A search on its own thread. The searcher (and what its tables learnt) comes back
/// from [`Thinking::finish`].
pub struct Thinking {
    signals: Signals,
    handle: JoinHandle<Searcher>,
}

impl Thinking {
    /// Runs `work` on a new thread with `searcher`, whose stop flag is this search's.
    /// With `hold`, the work should call [`Signals::wait_while_held`] before answering.
    pub fn start<W>(mut searcher: Searcher, hold: bool, work: W) -> Thinking
    where
        W: FnOnce(&mut Searcher, &Signals) + Send + 'static,
    {
        let signals = Signals::new(hold);
        searcher.set_stop_flag(Some(signals.stop.clone()));
        let theirs = signals.clone();
        let handle = std::thread::spawn(move || {
            work(&mut searcher, &theirs);
            searcher.set_stop_flag(None);
            searcher
        });
        Thinking { signals, handle }
    }

    /// Stops the search now and lets its answer go.
    pub fn stop(&self) {
        self.signals.stop.store(true, Ordering::Relaxed);
        self.signals.hold.store(false, Ordering::Relaxed);
    }

    /// Lets the answer go when the search ends, and stops it after `limit` if given
    /// (UCI's `ponderhit`: the pondering search now runs on the engine's own clock).
    pub fn release(&self, limit: Option<Duration>) {
        self.signals.hold.store(false, Ordering::Relaxed);
        if let Some(limit) = limit {
            let stop = self.signals.stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(limit);
                stop.store(true, Ordering::Relaxed);
            });
        }
    }

    /// Has the thread ended (the answer given)?
    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Waits for the thread to end; its searcher, or `None` if the thread panicked
    /// (the caller then makes a new one).
    pub fn finish(self) -> Option<Searcher> {
        self.handle.join().ok()
    }
}
