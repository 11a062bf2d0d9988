//! Following the rule file on disk without a file-watcher: each look compares the
//! file's modification time and length with the last look, and reads it only when they
//! differ (or when it changed so recently that a coarse clock could hide a second
//! change). The text read is compared with the last one, so that saving the same text
//! again, or touching the file, changes nothing.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use crate::session::read_text;

/// A change younger than this is read again at each look: a file system whose clock
/// ticks coarsely may give two quick saves the same modification time.
const SETTLING: Duration = Duration::from_secs(2);

/// What a look at the file found.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    /// Nothing new.
    Same,
    /// A new text.
    Text(String),
    /// The file cannot be read (any more), for this reason.
    Unreadable(String),
}

/// The file watched, and what the last look saw.
pub struct Watch {
    path: PathBuf,
    /// Modification time and length at the last look.
    stamp: Option<(SystemTime, u64)>,
    /// The text (or the reason it could not be read) at the last read.
    seen: Option<Result<String, String>>,
}

impl Watch {
    /// Starts watching a file: its text now, or why it cannot be read.
    pub fn start(path: PathBuf) -> Result<(Watch, String), String> {
        let mut watch = Watch {
            path,
            stamp: None,
            seen: None,
        };
        match watch.poll() {
            Change::Text(text) => Ok((watch, text)),
            Change::Unreadable(why) => Err(why),
            Change::Same => Err(format!("cannot read {}", watch.path.display())),
        }
    }

    /// Looks at the file again.
    pub fn poll(&mut self) -> Change {
        let stamp = std::fs::metadata(&self.path)
            .ok()
            .and_then(|m| Some((m.modified().ok()?, m.len())));
        if stamp.is_some() && stamp == self.stamp && !recent(stamp) {
            return Change::Same;
        }
        self.stamp = stamp;
        let now = read_text(&self.path);
        if self.seen.as_ref() == Some(&now) {
            return Change::Same;
        }
        self.seen = Some(now.clone());
        match now {
            Ok(text) => Change::Text(text),
            Err(why) => Change::Unreadable(why),
        }
    }
}

/// Was the file modified less than [`SETTLING`] ago (or in the future)?
fn recent(stamp: Option<(SystemTime, u64)>) -> bool {
    stamp.is_some_and(|(modified, _)| modified.elapsed().map_or(true, |age| age < SETTLING))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_text_is_seen_once_and_a_missing_file_is_reported_once() {
        let dir = std::env::temp_dir().join(format!("varsand-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("rules.var");
        std::fs::write(&file, "one").unwrap();
        let (mut watch, text) = Watch::start(file.clone()).unwrap();
        assert_eq!(text, "one");
        assert_eq!(watch.poll(), Change::Same);
        std::fs::write(&file, "two!").unwrap();
        assert_eq!(watch.poll(), Change::Text("two!".into()));
        assert_eq!(watch.poll(), Change::Same);
        // The same text written again is no change.
        std::fs::write(&file, "two!").unwrap();
        assert_eq!(watch.poll(), Change::Same);
        std::fs::remove_file(&file).unwrap();
        assert!(matches!(watch.poll(), Change::Unreadable(why) if why.contains("rules.var")));
        assert_eq!(watch.poll(), Change::Same);
        std::fs::write(&file, "two!").unwrap();
        assert_eq!(watch.poll(), Change::Text("two!".into()));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
