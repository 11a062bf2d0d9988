//! A UCI engine as a child process: started from its command line, spoken to on its
//! standard input, heard on its standard output by a reader thread (so that every
//! wait has a timeout), and stopped at the end. Everything that can go wrong with it
//! (it does not start, does not answer in time, exits, says something the protocol
//! does not allow) is a [`Failure`] in words, which the match turns into a lost game.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest line read from an engine: the list of an engine's variants is a few
/// kilobytes; a line without end is an engine gone wrong.
const MAX_LINE: u64 = 1 << 20;
/// How many lines of an engine's standard error are kept, to say why it failed.
const STDERR_LINES: usize = 5;
/// How long an engine is given to quit before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// What went wrong with an engine, in words that complete "the engine ...".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub what: String,
    /// The failure is the engine's slowness (PGN's "time forfeit"), not a crash.
    pub timeout: bool,
}

impl Failure {
    fn new(what: impl Into<String>) -> Self {
        Failure {
            what: what.into(),
            timeout: false,
        }
    }
}

/// Why an engine could not be started.
#[derive(Debug)]
pub enum StartError {
    /// The program cannot be run at all (the match cannot be played).
    Spawn(String),
    /// It runs, but failed the handshake.
    Handshake(Failure),
}

/// A line from the engine, or the end of its output.
enum Heard {
    Line(String),
    TooLong,
    End,
}

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    heard: Receiver<Heard>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Its name (`id name`), or its program's.
    pub name: String,
    /// The values of its `UCI_Variant` option, if it has one.
    pub variants: Option<Vec<String>>,
}

/// What an engine answered to `go`.
pub struct Reply {
    /// The move as it wrote it; `None` for `(none)`, `0000` or nothing.
    pub best: Option<String>,
    /// Its last `info` line's depth and score, if it gave them: `+0.35/7`.
    pub eval: Option<String>,
    /// That score, for the side to move.
    pub score: Option<UciScore>,
}

/// A score as an `info` line gives it, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UciScore {
    /// In centipawns.
    Cp(i64),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i64),
}

impl Engine {
    /// Starts an engine and says `uci` to it.
    pub fn start(argv: &[String], timeout: Duration) -> Result<Engine, StartError> {
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| StartError::Spawn(format!("cannot start `{}`: {e}", argv[0])))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(StartError::Spawn(format!(
                "cannot connect to `{}`",
                argv[0]
            )));
        };
        let (tx, heard) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                let read = (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf);
                let msg = match read {
                    Ok(0) | Err(_) => Heard::End,
                    Ok(_) if buf.last() != Some(&b'\n') && buf.len() as u64 >= MAX_LINE => {
                        Heard::TooLong
                    }
                    Ok(_) => Heard::Line(String::from_utf8_lossy(&buf).trim_end().to_string()),
                };
                let last = !matches!(msg, Heard::Line(_));
                if tx.send(msg).is_err() || last {
                    break;
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = stderr_tail.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Ok(mut t) = tail.lock() {
                    if t.len() == STDERR_LINES {
                        t.pop_front();
                    }
                    t.push_back(line);
                }
            }
        });
        let program = std::path::Path::new(&argv[0])
            .file_name()
            .map_or_else(|| argv[0].clone(), |n| n.to_string_lossy().into_owned());
        let mut engine = Engine {
            child,
            stdin,
            heard,
            stderr_tail,
            name: program,
            variants: None,
        };
        engine.handshake(timeout).map_err(StartError::Handshake)?;
        Ok(engine)
    }

    /// `uci`, then the engine's name and options until `uciok`.
    fn handshake(&mut self, timeout: Duration) -> Result<(), Failure> {
        self.send("uci")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.next_line((deadline, timeout), "uci", "uciok")?;
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("uciok"), _) => return Ok(()),
                (Some("id"), Some("name")) => {
                    let name = words.collect::<Vec<_>>().join(" ");
                    if !name.is_empty() {
                        self.name = name;
                    }
                }
                (Some("option"), Some("name")) => self.read_option(&line),
                _ => {}
            }
        }
    }

    /// An `option name NAME type T ... var V ...` line: the values of `UCI_Variant`.
    fn read_option(&mut self, line: &str) {
        let rest = line.split_once(" name ").map_or("", |(_, r)| r);
        let name = rest.split(" type ").next().unwrap_or("").trim();
        if name == "UCI_Variant" {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let values = words
                .windows(2)
                .filter(|w| w[0] == "var")
                .map(|w| w[1].to_string())
                .collect();
            self.variants = Some(values);
        }
    }

    /// Gets the engine ready for a new game: its variant (when it has the option),
    /// `ucinewgame`, and `isready` answered by `readyok`.
    pub fn new_game(&mut self, variant: Option<&str>, timeout: Duration) -> Result<(), Failure> {
        if let Some(v) = variant {
            self.send(&format!("setoption name UCI_Variant value {v}"))?;
        }
        self.send("ucinewgame")?;
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        while self
            .next_line((deadline, timeout), "isready", "readyok")?
            .trim()
            != "readyok"
        {}
        Ok(())
    }

    /// Sends the position and `go`, and waits for `bestmove` until `wait` has passed.
    pub fn best_move(
        &mut self,
        position: &str,
        go: &str,
        wait: Duration,
    ) -> Result<Reply, Failure> {
        self.send(position)?;
        self.send(go)?;
        let deadline = Instant::now() + wait;
        let mut last = None;
        loop {
            let line = self.next_line((deadline, wait), "go", "bestmove")?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    let best = words
                        .next()
                        .filter(|m| !matches!(*m, "(none)" | "0000" | "none"))
                        .map(str::to_string);
                    return Ok(Reply {
                        best,
                        eval: last.map(|(depth, score)| eval_text(depth, score)),
                        score: last.map(|(_, score)| score),
                    });
                }
                Some("info") => last = info_score(&line).or(last),
                _ => {}
            }
        }
    }

    /// Says `quit`, and kills the engine if it has not gone after a moment.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let end = Instant::now() + QUIT_GRACE;
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Drop kills it.
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        let sent = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        sent.map_err(|_| self.gone(&format!("could not be sent `{line}`")))
    }

    /// The next line, unless the engine is silent until the deadline (`wait` after
    /// it was asked) or has gone.
    fn next_line(
        &mut self,
        (deadline, wait): (Instant, Duration),
        asked: &str,
        awaited: &str,
    ) -> Result<String, Failure> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.heard.recv_timeout(left) {
            Ok(Heard::Line(l)) => Ok(l),
            Ok(Heard::TooLong) => Err(Failure::new(format!(
                "sent a line longer than {} MiB",
                MAX_LINE >> 20
            ))),
            Ok(Heard::End) | Err(RecvTimeoutError::Disconnected) => {
                Err(self.gone(&format!("did not answer `{asked}` with `{awaited}`")))
            }
            Err(RecvTimeoutError::Timeout) => Err(Failure {
                what: format!(
                    "did not answer `{asked}` with `{awaited}` within {}",
                    seconds(wait)
                ),
                timeout: true,
            }),
        }
    }

    /// The failure of an engine whose output ended: how it exited, and its last words
    /// on standard error.
    fn gone(&mut self, what: &str) -> Failure {
        // The exit status may take a moment to be known.
        let mut status = None;
        for _ in 0..50 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let how = match status {
            Some(s) => format!("exited ({s})"),
            None => "closed its output".to_string(),
        };
        // The reader of standard error may still be taking its last lines.
        std::thread::sleep(Duration::from_millis(20));
        let tail: Vec<String> = self
            .stderr_tail
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default();
        let last = if tail.is_empty() {
            String::new()
        } else {
            format!("; its last words on standard error: {}", tail.join(" / "))
        };
        Failure::new(format!("{what}: it {how}{last}"))
    }

    /// Has the process ended?
    pub fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

fn seconds(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} ms", d.as_millis())
    }
}

/// The depth and score of an `info` line: `+0.35/7`, `+M3/5` (mate in 3), `-M2/4`.
fn eval_text(depth: u32, score: UciScore) -> String {
    let score = match score {
        UciScore::Cp(value) => format!("{:+.2}", value as f64 / 100.0),
        UciScore::Mate(value) if value >= 0 => format!("+M{value}"),
        UciScore::Mate(value) => format!("-M{}", -value),
    };
    format!("{score}/{depth}")
}

/// The depth and score of an `info` line that gives both.
fn info_score(line: &str) -> Option<(u32, UciScore)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| words.windows(2).find(|w| w[0] == key).map(|w| w[1]);
    let depth = after("depth")?.parse().ok()?;
    let i = words.iter().position(|w| *w == "score")?;
    let (kind, value) = (words.get(i + 1)?, words.get(i + 2)?.parse::<i64>().ok()?);
    let score = match *kind {
        "cp" => UciScore::Cp(value),
        "mate" => UciScore::Mate(value),
        _ => return None,
    };
    Some((depth, score))
}

#[cfg(test)]
mod tests {
    use super::{eval_text, info_score};

    fn info_eval(line: &str) -> Option<String> {
        info_score(line).map(|(depth, score)| eval_text(depth, score))
    }

    #[test]
    fn info_lines_give_depth_and_score() {
        assert_eq!(
            info_eval("info depth 7 seldepth 9 score cp 35 nodes 100 pv e2e4").as_deref(),
            Some("+0.35/7")
        );
        assert_eq!(
            info_eval("info depth 5 score mate -2 pv a1a2").as_deref(),
            Some("-M2/5")
        );
        assert_eq!(info_eval("info string hello"), None);
    }
}
