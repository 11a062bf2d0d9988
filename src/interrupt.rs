//! Ctrl-C during a long computation (perft, search) stops it and returns to the prompt.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler once; later calls do nothing. Without the `cli` feature
/// there is no handler: only [`request`] stops the work.
#[cfg(feature = "cli")]
pub fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::Relaxed));
    });
}

#[cfg(not(feature = "cli"))]
pub fn install() {}

/// Has Ctrl-C been pressed since the last [`clear`]?
#[inline]
pub fn requested() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

pub fn clear() {
    INTERRUPTED.store(false, Ordering::Relaxed);
}

/// Asks running work to stop, as Ctrl-C does (for tests).
pub fn request() {
    INTERRUPTED.store(true, Ordering::Relaxed);
}
