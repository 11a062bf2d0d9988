//! The REPL (`varsand play`), driven through standard input the way a script would
//! drive it: the release binary is started with a pipe for stdin and stdout (so its
//! output is plain text, without colours), commands are written line by line, and the
//! test reads what it prints.
//!
//! Every child process runs under a deadline (`DEADLINE`): a REPL that hangs is killed
//! and the test fails instead of blocking the suite. Tests that edit or write files
//! work in their own folder under the system temporary directory.
//!
//! The interactive side (colours, Tab completion, Ctrl-C during `perft`) cannot be
//! checked through a pipe; tests/repl/TERMINAL_CHECK.md records a manual check of it
//! in a real terminal (tmux), with the commands to repeat it.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use common::process::{TempDir, repo as repo_file};

/// The longest any one REPL process may run before it is killed and the test fails.
const DEADLINE: Duration = Duration::from_secs(60);

const CHESS: &str = "variants/chess.var";
const MONKEY: &str = "variants/monkey_queen.var";

/// The start position of chess, as `fen` prints it.
const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The lines a child writes to one of its outputs, read by a thread of their own (so
/// that neither pipe fills up while the test waits on the other).
struct Lines {
    lines: Receiver<String>,
    /// Everything read so far.
    out: String,
    /// How much of `out` earlier `expect` calls have consumed.
    seen: usize,
}

impl Lines {
    fn read(from: impl std::io::Read + Send + 'static) -> Lines {
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(from).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Lines {
            lines,
            out: String::new(),
            seen: 0,
        }
    }

    /// Everything until the writer closes its end, waiting at most `wait`; false on
    /// timeout.
    fn drain(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        loop {
            match self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(line) => {
                    self.out += &line;
                    self.out.push('\n');
                }
                Err(RecvTimeoutError::Disconnected) => return true,
                Err(RecvTimeoutError::Timeout) => return false,
            }
        }
    }

    /// The text not yet returned by `expect`.
    fn rest(&mut self) -> String {
        let part = self.out[self.seen..].to_string();
        self.seen = self.out.len();
        part
    }
}

/// A running `varsand play` session.
struct Repl {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Lines,
    stderr: Lines,
    started: Instant,
}

/// Which output `expect` reads.
#[derive(Clone, Copy, PartialEq)]
enum Out {
    Stdout,
    Stderr,
}

impl Repl {
    /// Starts `varsand play ARGS...` in the crate's folder, with stdin and stdout piped.
    fn start(args: &[&str]) -> Repl {
        Repl::start_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
    }

    /// Starts `varsand play ARGS...` in the folder `dir`.
    fn start_in(dir: &Path, args: &[&str]) -> Repl {
        let mut child = Command::new(env!("CARGO_BIN_EXE_varsand"))
            .arg("play")
            .args(args)
            .current_dir(dir)
            .env_remove("NO_COLOR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start varsand play");
        let stdin = child.stdin.take();
        let stdout = Lines::read(child.stdout.take().expect("stdout"));
        let stderr = Lines::read(child.stderr.take().expect("stderr"));
        Repl {
            child,
            stdin,
            stdout,
            stderr,
            started: Instant::now(),
        }
    }

    /// Writes one or more lines of commands.
    fn send(&mut self, script: &str) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin
            .write_all(script.as_bytes())
            .expect("write to the REPL");
        if !script.ends_with('\n') {
            stdin.write_all(b"\n").expect("write to the REPL");
        }
        stdin.flush().expect("flush");
    }

    fn remaining(&self) -> Duration {
        DEADLINE.saturating_sub(self.started.elapsed())
    }

    /// Reads standard output until a line contains `needle`; returns the output read
    /// since the previous `expect` up to and including that line. Fails after the
    /// deadline.
    fn expect(&mut self, needle: &str) -> String {
        self.expect_on(Out::Stdout, needle)
    }

    /// [`Repl::expect`] on standard error, where a script's errors go.
    fn expect_err(&mut self, needle: &str) -> String {
        self.expect_on(Out::Stderr, needle)
    }

    fn expect_on(&mut self, which: Out, needle: &str) -> String {
        let remaining = self.remaining();
        let lines = match which {
            Out::Stdout => &mut self.stdout,
            Out::Stderr => &mut self.stderr,
        };
        loop {
            if let Some(i) = lines.out[lines.seen..].find(needle) {
                let end = lines.seen
                    + i
                    + lines.out[lines.seen + i..]
                        .find('\n')
                        .map_or(lines.out.len() - lines.seen - i, |n| n + 1);
                let part = lines.out[lines.seen..end].to_string();
                lines.seen = end;
                return part;
            }
            match lines.lines.recv_timeout(remaining) {
                Ok(line) => {
                    lines.out += &line;
                    lines.out.push('\n');
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    panic!(
                        "no `{needle}` within {DEADLINE:?}; output so far:\n{}\nstderr:\n{}",
                        self.stdout.out, self.stderr.out
                    );
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.stderr.drain(Duration::from_secs(5));
                    panic!(
                        "the REPL ended without printing `{needle}`; output:\n{}\nstderr:\n{}",
                        self.stdout.out, self.stderr.out
                    )
                }
            }
        }
    }

    /// Closes stdin and waits for the REPL to end (killing it at the deadline); its
    /// exit status, the standard output and error not yet returned by `expect`, and
    /// whether it wrote to stderr at all.
    fn end(mut self) -> (std::process::ExitStatus, String, String, bool) {
        drop(self.stdin.take());
        let remaining = self.remaining();
        if !self.stdout.drain(remaining) || !self.stderr.drain(self.remaining()) {
            let _ = self.child.kill();
            let _ = self.child.wait();
            panic!(
                "the REPL did not finish within {DEADLINE:?}; output so far:\n{}",
                self.stdout.out
            );
        }
        let status = loop {
            if let Some(s) = self.child.try_wait().expect("wait") {
                break s;
            }
            if self.started.elapsed() > DEADLINE {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("the REPL did not exit within {DEADLINE:?}");
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let wrote_err = !self.stderr.out.is_empty();
        let (out, err) = (self.stdout.rest(), self.stderr.rest());
        (status, out, err, wrote_err)
    }

    /// [`Repl::end`] for a script in which every command succeeds: the output not yet
    /// returned by `expect`. Fails if it exits unsuccessfully or writes to stderr.
    fn finish(self) -> String {
        let (status, out, err, _) = self.end();
        assert!(
            status.success(),
            "varsand play failed ({status}); stderr:\n{err}"
        );
        assert!(err.is_empty(), "unexpected stderr:\n{err}");
        out
    }

    /// [`Repl::end`] for a script in which a command fails: it must exit with status 1
    /// and write its errors to stderr. The standard output and error.
    fn finish_failed(self) -> (String, String) {
        let (status, out, err, wrote_err) = self.end();
        assert_eq!(
            status.code(),
            Some(1),
            "a script with a failed command ends with status 1; stdout:\n{out}\nstderr:\n{err}"
        );
        assert!(wrote_err, "the errors go to stderr; stdout:\n{out}");
        (out, err)
    }
}

impl Drop for Repl {
    fn drop(&mut self) {
        // A test that failed half-way must not leave a process behind.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Runs a whole script through `varsand play ARGS...`; everything it printed.
fn run(args: &[&str], script: &str) -> String {
    let mut repl = Repl::start(args);
    repl.send(script);
    repl.finish()
}

/// Runs a script in which some command fails: the standard output and error (where
/// the errors go, and the exit status is 1).
fn run_failing(args: &[&str], script: &str) -> (String, String) {
    let mut repl = Repl::start(args);
    repl.send(script);
    repl.finish_failed()
}

/// Each line with trailing spaces removed (the board's edge lines end in a space).
fn norm(text: &str) -> String {
    text.lines()
        .map(|l| l.trim_end().to_string() + "\n")
        .collect()
}

/// Asserts that `haystack` contains `needle`, printing both when it does not.
#[track_caller]
fn assert_has(haystack: &str, needle: &str) {
    assert!(
        haystack.contains(needle),
        "expected to find:\n{needle}\n--- in the output:\n{haystack}"
    );
}

/// The lines that answer a `fen` command: position strings, recognised by their
/// side-to-move field after the rank list.
fn fens(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| {
            let mut f = l.split(' ');
            f.next()
                .is_some_and(|board| board.matches('/').count() >= 7)
                && matches!(f.next(), Some("w" | "b"))
        })
        .map(str::to_string)
        .collect()
}

/// The lines of commands, one per move.
fn script(moves: &[&str]) -> String {
    moves.iter().map(|m| format!("{m}\n")).collect()
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

/// The Opera game (Morphy vs the Duke of Brunswick and Count Isouard, Paris 1858),
/// in from-square to-square coordinates; 12. O-O-O is the king's move e1c1.
const OPERA_GAME: &[&str] = &[
    "e2e4", "e7e5", "g1f3", "d7d6", "d2d4", "c8g4", "d4e5", "g4f3", "d1f3", "d6e5", "f1c4", "g8f6",
    "f3b3", "d8e7", "b1c3", "c7c6", "c1g5", "b7b5", "c3b5", "c6b5", "c4b5", "b8d7", "e1c1", "a8d8",
    "d1d7", "d8d7", "h1d1", "e7e6", "b5d7", "f6d7", "b3b8", "d7b8", "d1d8",
];

#[test]
fn opera_game_ends_in_checkmate_refuses_further_moves_and_undo_reopens_play() {
    let mut s = script(OPERA_GAME);
    s += "a7a6\nfen\nundo\nfen\nh2h3\nfen\n";
    let (out, err) = run_failing(&[CHESS], &s);
    let out = norm(&out);
    // The move after the mate is refused, on stderr (a script's errors go there).
    assert_eq!(
        err,
        "the game is over (black is checkmated): `undo` or `new` to go on\n"
    );

    // 17. Rd8#: the board (the mating rook in brackets), the status line, the result.
    let mate = "\
   a  b  c  d  e  f  g  h
8  .  n  . [R] k  b  .  r  8
7  p  .  .  .  .  p  p  p  7
6  .  .  .  .  q  .  .  .  6
5  .  .  .  .  p  .  B  .  5
4  .  .  .  .  P  .  .  .  4
3  .  .  .  .  .  .  .  .  3
2  P  P  P  .  .  P  P  P  2
1  .  .  K  .  .  .  .  .  1
   a  b  c  d  e  f  g  h
black to move, in check; last move d1d8
Game over: white wins (black is checkmated). `undo` or `new` to go on.
";
    assert_has(&out, mate);
    // The game-over line comes once, for the mating move only.
    assert_eq!(out.matches("Game over").count(), 1, "{out}");
    // Queen-side castling moved the rook too (12. O-O-O).
    assert_has(
        &out,
        "1  .  . [K] R  .  .  .  R  1\n   a  b  c  d  e  f  g  h\nblack to move; last move e1c1\n",
    );

    let f = fens(&out);
    assert_eq!(
        f,
        [
            "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17",
            // `undo` takes back Rd8#: white to move again.
            "1n2kb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2KR4 w k - 0 17",
            // ...and play goes on.
            "1n2kb1r/p4ppp/4q3/4p1B1/4P3/7P/PPP2PP1/2KR4 b k - 0 17",
        ],
        "{out}"
    );
    assert_has(&out, "white to move; last move d7b8\n");
    assert_has(&out, "black to move; last move h2h3\n");
}

#[test]
fn scholars_mate_is_announced() {
    let out = norm(&run(
        &[CHESS],
        &script(&[
            "e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7", "fen",
        ]),
    ));
    assert_has(
        &out,
        "\
8  r  .  b  q  k  b  .  r  8
7  p  p  p  p  . [Q] p  p  7
6  .  .  n  .  .  n  .  .  6
5  .  .  .  .  p  .  .  .  5
4  .  .  B  .  P  .  .  .  4
3  .  .  .  .  .  .  .  .  3
2  P  P  P  P  .  P  P  P  2
1  R  N  B  .  K  .  N  R  1
   a  b  c  d  e  f  g  h
black to move, in check; last move h5f7
Game over: white wins (black is checkmated). `undo` or `new` to go on.
",
    );
    assert_eq!(
        fens(&out),
        ["r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"]
    );
}

#[test]
fn monkey_queen_height_8_swap_and_moves_grouped_by_piece() {
    let out = norm(&run(
        &[MONKEY],
        "set height 8\nfen\ng1g4\nmoves\nswap\nfen\nmoves\nf12f9\nfen\nmoves\n",
    ));
    assert_has(&out, "height = 8; the game is replayed under it\n");
    // The stacks show their height on the board and in the position string.
    assert_has(&out, "12  .  .  .  .  . q8  .  .  .  .  .  .  12\n");
    assert_has(&out, " 1  .  .  .  .  .  . Q8  .  .  .  .  .  1\n");
    let f = fens(&out);
    assert_eq!(
        f,
        [
            "5q(8)6/12/12/12/12/12/12/12/12/12/12/6Q(8)5 w - - 0 1",
            // g1g4 left a baby on g1 and the queen is one lower; then black swapped.
            "5q(8)6/12/12/12/12/12/12/12/6Q(7)5/12/12/6B5 b - - 1 1 swapped",
            "5b6/12/12/5q(7)6/12/12/12/12/6Q(7)5/12/12/6B5 w - - 2 2 swapped",
        ],
        "{out}"
    );
    assert_has(&out, " 4  .  .  .  .  .  . [Q7] .  .  .  .  .  4\n");
    // On black's first turn `swap` is offered, in a group of its own.
    assert_has(
        &out,
        "black to move; last move g1g4\n  pie rule       swap\n  Queen f12      f12a7 f12a12 ",
    );
    assert_has(&out, "f12l6 f12l12\n34 legal moves\n");
    assert_has(
        &out,
        "black to move (sides swapped by the pie rule); last move swap\n",
    );
    // After the swap there is no second swap.
    assert_has(&out, "f12l6 f12l12\n33 legal moves\n");
    // Then each group is one piece, its moves sorted: the baby must approach the
    // enemy queen on f9; the queen moves along its eight lines.
    assert_has(
        &out,
        "white to move (sides swapped by the pie rule); last move f12f9\n",
    );
    assert_has(
        &out,
        "  Baby g1        g1a7 g1b6 g1c5 g1d4 g1e3 g1f1 g1f2 g1g2 g1g3 g1h2 g1i3 g1j4 g1k5 g1l6\n  Queen g4       g4a4 g4a10 ",
    );
    assert_has(&out, " g4l4 g4l9\n52 legal moves\n");
}

#[test]
fn reload_after_knights_become_kings_stops_before_the_now_illegal_move() {
    let tmp = TempDir::new("reload-rules");
    let var = tmp.path("chess.var");
    std::fs::copy(repo_file(CHESS), &var).expect("copy chess.var");
    let mut repl = Repl::start(&[path_str(&var)]);
    repl.send("e2e4\ne7e5\ng1f3\nfen\n");
    repl.expect("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");

    let text = std::fs::read_to_string(&var).unwrap();
    assert!(text.contains("moves \"N\""));
    std::fs::write(&var, text.replace("moves \"N\"", "moves \"K\"")).unwrap();
    repl.send("reload\nfen\n");
    let after = norm(&repl.expect(" w KQkq e6 0 2"));
    assert_has(&after, &format!("reloaded {}\n", var.display()));
    assert_has(
        &after,
        "move 3 (g1f3) is illegal under the new rules: a Knight does not move from g1 to f3 \
         (its moves: K); the game stops before it (2 of 3 moves replayed, 1 move kept for \
         `redo` (a `reload` tries it again))\n",
    );
    // The board is the position after 1. e4 e5, white to move.
    assert_has(
        &after,
        "1  R  N  B  Q  K  B  N  R  1\n   a  b  c  d  e  f  g  h\nwhite to move; last move e7e5\n",
    );
    assert_eq!(
        fens(&after),
        ["rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"]
    );
    // The new rules are in force: the knight now steps like a king.
    repl.send("g1f3\nb1c3\nmoves\n");
    let (out, err) = repl.finish_failed();
    assert_has(
        &err,
        "illegal: a Knight does not move from g1 to f3 (its moves: K)\n",
    );
    assert_has(
        &err,
        "illegal: a Knight does not move from b1 to c3 (its moves: K)\n",
    );
    assert!(
        !norm(&out).contains("  Knight"),
        "knights have no move:\n{out}"
    );
}

#[test]
fn reload_with_a_syntax_error_keeps_the_old_rules_and_the_game() {
    let tmp = TempDir::new("reload-broken");
    let var = tmp.path("chess.var");
    std::fs::copy(repo_file(CHESS), &var).expect("copy chess.var");
    let mut repl = Repl::start(&[path_str(&var)]);
    let before = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2";
    repl.send("e2e4\ne7e5\nfen\n");
    repl.expect(before);

    let text = std::fs::read_to_string(&var).unwrap();
    assert!(text.contains("board 8 x 8"));
    std::fs::write(&var, text.replace("board 8 x 8", "board 8 by 8")).unwrap();
    repl.send("reload\nfen\n");
    let after = repl.expect(" w KQkq e6 0 2");
    // The diagnostic, on stderr: its kind, the message, the file and line, the text,
    // the help.
    let failed = repl.expect_err("reload failed");
    assert_has(&failed, "varsand::syntax");
    assert_has(&failed, "syntax error");
    assert_has(&failed, &format!("{}:5:9", var.display()));
    assert_has(&failed, "5 │ board 8 by 8");
    assert_has(&failed, "help: see grammar/README.md");
    assert_has(&failed, &format!("{}: 1 problem\n", var.display()));
    assert_has(
        &failed,
        "reload failed: the old rules and the game are kept\n",
    );
    assert!(!after.contains("reloaded"), "{after}");
    assert_eq!(fens(&after), [before], "the position is unchanged");

    // The game goes on under the old rules (knights still leap).
    repl.send("g1f3\nfen\n");
    let (out, _) = repl.finish_failed();
    assert_has(&out, "black to move; last move g1f3\n");
    assert_eq!(
        fens(&out),
        ["rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"]
    );
}

#[test]
fn reload_of_an_unchanged_file_replays_every_move() {
    let out = run(&[CHESS], "e2e4\ne7e5\ng1f3\nreload\nfen\n");
    assert_has(&out, "reloaded variants/chess.var\nall 3 moves replayed\n");
    assert_eq!(
        fens(&out),
        ["rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"]
    );
}

#[test]
fn unknown_commands_and_unreadable_move_text_are_explained() {
    let (_, err) = run_failing(&[CHESS], "frobnicate\ne2e9\nzz\ne7e8=Q\n");
    for word in ["frobnicate", "e2e9", "zz", "e7e8=Q"] {
        assert_has(
            &err,
            &format!(
                "illegal: `{word}` is neither a command nor a move on this board: write a move \
                 as from-square to-square, such as b1a3 (type `help` for commands)\n"
            ),
        );
    }
}

#[test]
fn position_with_a_bad_string_shows_a_caret_under_the_problem() {
    let bad = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1";
    let (out, err) = run_failing(
        &[CHESS],
        &format!("position {bad}\nposition 4k3/8/8/8/8/8/8/4K3 x - - 0 1\nposition\nfen\n"),
    );
    let lines: Vec<&str> = err.lines().collect();
    let at = lines
        .iter()
        .position(|l| {
            *l == "bad position string: `X` is neither a piece nor a terrain of this game"
        })
        .unwrap_or_else(|| panic!("no message for the bad letter:\n{err}"));
    assert_eq!(lines[at + 1], format!("  {bad}"));
    assert_eq!(
        lines[at + 2].find('^'),
        lines[at + 1].find('X'),
        "the caret is under the X:\n{}\n{}",
        lines[at + 1],
        lines[at + 2]
    );
    assert!(lines[at + 2].ends_with("^ pieces: K Q R B N P (lower case for black)"));

    let at = lines
        .iter()
        .position(|l| *l == "bad position string: `x` names no player")
        .unwrap_or_else(|| panic!("no message for the bad side:\n{err}"));
    assert_eq!(
        lines[at + 2].find('^'),
        lines[at + 1].find(" x ").map(|i| i + 1)
    );
    assert!(lines[at + 2].ends_with("^ the side to move is `w` or `b`"));

    assert_has(
        &err,
        "position what? give a position string, such as the one `fen` prints\n",
    );
    // Nothing changed.
    assert_eq!(fens(&out), [CHESS_START]);
}

#[test]
fn set_reports_unknown_parameters_non_numbers_and_missing_values() {
    let (out, err) = run_failing(
        &[MONKEY],
        "set nosuch 3\nset height x\nset height\nset\nset height 2\nfen\n",
    );
    assert_has(&err, "no parameter `nosuch`; this variant has: height\n");
    assert_has(&err, "`x` is not a whole number\n");
    assert_eq!(
        err.matches("set NAME VALUE; parameters: height\n").count(),
        2,
        "`set height` and `set` both show the usage:\n{err}"
    );
    // Out of the declared range 3..255: refused, and no change.
    assert_has(&err, "height must be in 3..255\n");
    assert_eq!(
        fens(&out),
        ["5q(20)6/12/12/12/12/12/12/12/12/12/12/6Q(20)5 w - - 0 1"]
    );

    // Chess declares no parameters.
    let (_, err) = run_failing(&[CHESS], "set height 3\nset\n");
    assert_has(
        &err,
        "this variant declares no parameters, so there is no `height`\n",
    );
    assert_has(&err, "this variant declares no parameters\n");
}

#[test]
fn perft_play_and_save_without_arguments_show_their_usage() {
    let (out, err) = run_failing(&[CHESS], "perft\nperft x\nplay purple\nplay\nsave\nfen\n");
    assert_eq!(
        err.matches("perft DEPTH, such as perft 4\n").count(),
        2,
        "{err}"
    );
    assert_eq!(
        err.matches("play what? write `play white`, `play black`, `play both` or `play none`\n")
            .count(),
        2,
        "{err}"
    );
    assert_has(&err, "save FILE, such as save game.txt\n");
    assert!(!out.contains("the computer plays"), "{out}");
    assert_eq!(fens(&out), [CHESS_START]);
}

#[test]
fn load_of_a_missing_file_or_a_file_without_variant_header_keeps_the_game() {
    let tmp = TempDir::new("load-errors");
    let missing = tmp.path("missing.txt");
    let headerless = tmp.path("headerless.txt");
    std::fs::write(&headerless, "1. e2e4 e7e5 *\n").unwrap();
    let (out, err) = run_failing(
        &[CHESS],
        &format!(
            "e2e4\nload {}\nload {}\nfen\n",
            missing.display(),
            headerless.display()
        ),
    );
    assert_has(
        &err,
        &format!(
            "cannot read {}: No such file or directory",
            missing.display()
        ),
    );
    assert_has(
        &err,
        &format!(
            "{}: no [VariantFile \"FILE\"] tag: which rule file does the game use?\n",
            headerless.display()
        ),
    );
    assert!(!out.contains("loaded"), "{out}");
    assert_eq!(
        fens(&out),
        ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"]
    );
}

#[test]
fn load_without_a_file_shows_its_usage() {
    let (_, err) = run_failing(&[CHESS], "load\n");
    assert!(!err.contains("cannot read :"), "{err}");
    assert_has(&err, "load FILE");
}

#[test]
fn undo_and_redo_with_nothing_to_take_back_or_replay() {
    let out = run(&[CHESS], "undo\nredo\ne2e4\nundo\nredo\nredo\nfen\n");
    assert_eq!(out.matches("nothing to undo\n").count(), 1, "{out}");
    assert_eq!(out.matches("nothing to redo\n").count(), 2, "{out}");
    assert_eq!(
        fens(&out),
        ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"]
    );
}

#[test]
fn help_explains_one_command_or_says_there_is_none() {
    let (out, err) = run_failing(&[CHESS], "help undo\nhelp nosuch\n? fen\nhelp\n");
    assert_has(&out, "undo (also u, back): take back the last move\n");
    assert_has(&out, "fen: print the position string\n");
    // An unknown topic is an error, not the whole list.
    assert_eq!(
        err,
        "no command `nosuch`: type `help` for the list of commands\n"
    );
    assert_eq!(out.matches("Type a move (e2e4").count(), 1, "{out}");
    // `help` alone lists every command with its usage.
    for usage in [
        "help [COMMAND]",
        "position STRING",
        "set NAME VALUE",
        "perft DEPTH",
        "play white|black|both|none",
        "save FILE",
        "load FILE",
        "quit",
    ] {
        assert_has(&out, &format!("\n  {usage}"));
    }
}

#[test]
fn illegal_moves_get_their_reason_and_nearby_legal_moves() {
    let (out, err) = run_failing(
        &[CHESS],
        "\
e3e4
e7e5
e1e2
a1a3
e2e5
position 4k3/4q3/8/8/8/8/4N3/4K3 w - - 0 1
e2c3
position k7/4P3/8/8/8/8/8/4K3 w - - 0 1
e7e8
e7e8k
position 4k3/8/8/8/2b5/8/8/R3K2R w KQ - 0 1
e1g1
position k7/8/8/8/8/8/4R3/4K2q w - - 0 1
e2d2
fen
",
    );
    // No piece there.
    assert_has(
        &err,
        "illegal: there is no piece on e3\nlegal moves nearby: e2e4\n",
    );
    // An enemy piece.
    assert_has(
        &err,
        "illegal: the Pawn on e7 is black's, and white is to move\n",
    );
    // Onto a piece of one's own.
    assert_has(&err, "illegal: your Pawn on e2 stands there\n");
    // A blocked path.
    assert_has(
        &err,
        "illegal: the way is blocked by your Pawn on a2\nlegal moves nearby: a2a3 b1a3\n",
    );
    // Not one of the piece's moves.
    assert_has(
        &err,
        "illegal: a Pawn does not move from e2 to e5 (its moves: fmW fcF ifmnD)\nlegal moves nearby: e2e3 e2e4\n",
    );
    // A pinned knight: the move would leave the king in check.
    assert_has(
        &err,
        "illegal: it would leave white's King on e1 attacked\n",
    );
    // A pawn on the last rank must promote.
    assert_has(
        &err,
        "illegal: the Pawn must promote there: add one of q, r, b, n (such as e7e8q)\n\
         legal moves nearby: e7e8b e7e8n e7e8q e7e8r\n",
    );
    assert_has(
        &err,
        "illegal: `k` is not a promotion choice here: choose one of q, r, b, n\n",
    );
    // Castling through an attacked square.
    assert_has(
        &err,
        "illegal: castling would take the king across or onto the attacked square f1\n\
         legal moves nearby: e1c1 e1d1 e1d2 e1f2\n",
    );
    // In check, a move that does not answer it.
    assert_has(&out, "white to move, in check\n");
    assert_has(
        &err,
        "illegal: white is in check, and this move does not answer it: the King on e1 would \
         stay attacked\nlegal moves nearby: e1d2\n",
    );
    assert!(!out.contains("last move"), "no move was played:\n{out}");
    assert_eq!(fens(&out), ["k7/8/8/8/8/8/4R3/4K2q w - - 0 1"]);
}

#[test]
fn swap_in_chess_is_refused_there_is_no_pie_rule() {
    let (out, err) = run_failing(&[CHESS], "swap\ne2e4\nswap\nfen\n");
    assert_eq!(
        err.matches("illegal: this game has no pie rule, so there is no `swap`\n")
            .count(),
        2,
        "{err}"
    );
    assert_eq!(
        fens(&out),
        ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"]
    );
}

#[test]
fn swap_in_monkey_queen_only_on_blacks_first_turn() {
    let (_, err) = run_failing(&[MONKEY], "swap\ng1g4\nf12f9\nswap\n");
    assert_eq!(
        err.matches(
            "illegal: `swap` (the pie rule) is allowed only instead of the second player's first move\n"
        )
        .count(),
        2,
        "{err}"
    );
}

#[test]
fn save_then_load_round_trip() {
    let tmp = TempDir::new("save-load");
    let file = tmp.path("game.txt");
    let out = run(
        &[MONKEY],
        &format!(
            "set height 9\ng1g4\nswap\nf12f9\nfen\nsave {f}\nnew\nfen\nload {f}\nfen\nmoves\n",
            f = file.display()
        ),
    );
    let after = "5b6/12/12/5q(8)6/12/12/12/12/6Q(8)5/12/12/6B5 w - - 2 2 swapped";
    assert_eq!(
        fens(&out),
        [
            after,
            "5q(9)6/12/12/12/12/12/12/12/12/12/12/6Q(9)5 w - - 0 1",
            after
        ],
        "{out}"
    );
    assert_has(&out, &format!("saved 3 moves to {}\n", file.display()));
    assert_has(&out, &format!("loaded 3 moves from {}\n", file.display()));
    assert_has(&out, "52 legal moves\n");
    let saved = std::fs::read_to_string(&file).expect("the saved game");
    // The rule file is recorded by a path that leads to it from the save's folder
    // (relative when the two share a folder other than the root, else absolute), so the
    // game loads from anywhere; the hash of its text follows.
    let variant = std::fs::canonicalize("variants/monkey_queen.var").unwrap();
    let (saved, hash) = without_rules_hash(&saved);
    assert!(
        hash.starts_with("fnv1a64:") && hash.len() == 8 + 16,
        "{hash}"
    );
    let recorded = saved
        .lines()
        .find_map(|l| l.strip_prefix("[VariantFile \""))
        .and_then(|l| l.strip_suffix("\"]"))
        .expect("a VariantFile tag")
        .to_string();
    assert_eq!(
        std::fs::canonicalize(tmp.0.join(&recorded)).unwrap(),
        variant,
        "{recorded}"
    );
    // PGN: the seven-tag roster (with today's date), then the game and its rule file.
    let date = saved
        .lines()
        .find_map(|l| l.strip_prefix("[Date \""))
        .and_then(|l| l.strip_suffix("\"]"))
        .expect("a Date tag")
        .to_string();
    assert!(
        date.len() == 10 && date.chars().filter(|&c| c == '.').count() == 2,
        "{date}"
    );
    assert_eq!(
        saved,
        format!(
            "[Event \"varsand play\"]\n[Site \"?\"]\n[Date \"{date}\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[Variant \"Monkey Queen\"]\n[VariantFile \"{recorded}\"]\n[Parameters \"height=9\"]\n[Termination \"unterminated\"]\n[PlyCount \"3\"]\n\n1. g1g4 swap 2. f12f9 *\n",
        )
    );

    // A chess game that has ended records its result; loading it keeps it over.
    let file = tmp.path("mate.txt");
    let (out, err) = run_failing(
        &[CHESS],
        &format!(
            "f2f3\ne7e5\ng2g4\nd8h4\nsave {f}\nnew\nload {f}\nfen\ne2e4\n",
            f = file.display()
        ),
    );
    let saved = std::fs::read_to_string(&file).expect("the saved game");
    assert_has(&saved, "/variants/chess.var\"]\n");
    assert!(!saved.contains("[Parameters"), "{saved}");
    assert_has(&saved, "[Result \"0-1\"]\n");
    assert_has(&saved, "[Termination \"normal\"]\n");
    assert_has(
        &saved,
        "\n\n1. f2f3 e7e5 2. g2g4 d8h4 {white is checkmated} 0-1\n",
    );
    assert_eq!(
        out.matches("Game over: black wins (white is checkmated)")
            .count(),
        2
    );
    assert_eq!(
        fens(&out),
        ["rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"]
    );
    assert_has(
        &err,
        "the game is over (white is checkmated): `undo` or `new` to go on\n",
    );
}

#[test]
fn save_and_load_keep_a_start_position_given_by_position() {
    let tmp = TempDir::new("save-fen");
    let file = tmp.path("endgame.txt");
    let out = run(
        &[CHESS],
        &format!(
            "position 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\ne2e4\ne8d7\nsave {f}\nnew\nload {f}\nfen\n",
            f = file.display()
        ),
    );
    assert_has(&out, &format!("loaded 2 moves from {}\n", file.display()));
    assert_eq!(fens(&out), ["8/3k4/8/8/4P3/8/8/4K3 w - - 1 2"]);
    let saved = std::fs::read_to_string(&file).expect("the saved game");
    assert_has(&saved, "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n");
    assert_has(&saved, "\n1. e2e4 e8d7 *\n");
}

#[test]
fn a_saved_game_loads_from_another_working_directory() {
    let tmp = TempDir::new("save-cwd");
    let file = tmp.path("game.txt");
    let out = run(&[CHESS], &format!("e2e4\nsave {}\n", file.display()));
    assert_has(&out, "saved 1 move");
    // The same game, opened from the temporary folder with the rule file's full path.
    let chess = repo_file(CHESS);
    let mut repl = Repl::start_in(&tmp.0, &[path_str(&chess)]);
    repl.send(&format!("load {}\nfen\n", file.display()));
    let out = repl.finish();
    assert!(!out.contains("load failed"), "{out}");
    assert_eq!(
        fens(&out),
        ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"]
    );
}

#[test]
fn fen_and_set_options_choose_the_start() {
    let out = run(
        &[CHESS, "--fen", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"],
        "fen\ne2e4\nnew\nfen\n",
    );
    assert_has(&out, "8  .  .  .  .  k  .  .  .  8\n");
    assert_eq!(
        fens(&out),
        // `new` goes back to the file's setup.
        ["4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", CHESS_START]
    );
    let out = run(&[MONKEY, "--set", "height=4"], "fen\n");
    assert_eq!(
        fens(&out),
        ["5q(4)6/12/12/12/12/12/12/12/12/12/12/6Q(4)5 w - - 0 1"]
    );
    let out = run(&[MONKEY, "--set", "white.height=24"], "fen\n");
    assert_eq!(
        fens(&out),
        ["5q(20)6/12/12/12/12/12/12/12/12/12/12/6Q(24)5 w - - 0 1"]
    );
}

#[test]
fn a_bad_fen_option_is_an_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_varsand"))
        .args(["play", CHESS, "--fen", "bogus"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("run varsand play");
    assert!(
        !out.status.success(),
        "exit status {}; stdout:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn computer_answers_as_black_deterministically_for_a_seed() {
    let s = "play black\ne2e4\nfen\nd2d4\nfen\nundo\nfen\n";
    let out = run(&[CHESS, "--seed", "7"], s);
    assert_eq!(out, run(&[CHESS, "--seed", "7"], s), "same seed, same game");
    assert_has(&out, "the computer plays black\n");
    let lines: Vec<&str> = out.lines().collect();
    let replies: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("black plays "))
        .collect();
    assert_eq!(replies.len(), 2, "one reply per white move:\n{out}");
    for r in &replies {
        assert_has(&out, &format!("white to move; last move {r}\n"));
    }
    assert!(!out.contains("white plays"), "{out}");
    let f = fens(&out);
    assert_eq!(f.len(), 3);
    assert!(
        f.iter().all(|f| f.contains(" w ")),
        "white to move each time: {f:?}"
    );
    // `undo` takes back the computer's reply and the move before it.
    assert_eq!(f[2], f[0]);
}

#[test]
fn computer_plays_both_sides_of_monkey_queen_to_the_end() {
    // A short thinking time: the game takes some fifty moves, and at the default second
    // a move a loaded machine ran past the run's deadline.
    let out = run(
        &[MONKEY, "--seed", "5", "--movetime", "200"],
        "play both\ngo\nfen\n",
    );
    assert_has(&out, "the computer plays both sides\n");
    let game_over = out
        .lines()
        .filter(|l| l.starts_with("Game over: "))
        .collect::<Vec<_>>();
    assert_eq!(game_over.len(), 1, "{out}");
    assert!(
        game_over[0].contains(" wins ("),
        "Monkey Queen has no draws: {game_over:?}"
    );
    assert!(
        out.contains("white plays ") && out.contains("black plays "),
        "{out}"
    );
    assert_has(&out, "no move to make: the game is over\n");
}

#[test]
fn computer_plays_white_at_once() {
    let out = run(&[CHESS, "--seed", "3"], "play white\nfen\nplay none\n");
    assert_has(&out, "the computer plays white\nwhite plays ");
    assert_has(&out, "the computer plays neither side\n");
    assert_eq!(out.matches("white plays ").count(), 1, "{out}");
    assert!(fens(&out)[0].contains(" b "), "{out}");
}

#[test]
fn perft_3_counts_8902_nodes_from_the_start() {
    let out = run(&[CHESS], "perft 3\nperft 0\ne2e4\nperft 1\n");
    let lines: Vec<&str> = out.lines().collect();
    let first = lines
        .iter()
        .position(|l| *l == "a2a3: 380")
        .expect("a2a3: 380");
    assert_eq!(
        lines[first..first + 20]
            .iter()
            .filter(|l| l.contains(": "))
            .count(),
        20
    );
    assert_has(&out, "e2e4: 600\n");
    assert_has(&out, "g1f3: 440\n");
    assert_has(&out, "h2h4: 420\n\nNodes searched: 8902\n");
    assert_has(&out, "\nNodes searched: 1\n");
    assert_has(&out, "\nNodes searched: 20\n");
    // Plain output: no timing line.
    assert!(!out.contains("nodes/s"), "{out}");
}

#[test]
fn rules_summary_names_every_piece_and_how_the_game_ends() {
    let out = run(&[CHESS], "rules\n");
    assert_has(
        &out,
        "Chess — an 8x8 board; white plays the upper-case pieces, black the lower-case.\n\nPieces:\n",
    );
    for piece in [
        "  K King (royal: may not be left attacked) — \"K\"\n",
        "  Q Queen — \"Q\"\n",
        "  R Rook — \"R\"\n",
        "  B Bishop — \"B\"\n",
        "  N Knight — \"N\"\n",
        "  P Pawn — \"fmW fcF ifmnD\"\n",
    ] {
        assert_has(&out, piece);
    }
    assert_has(&out, "      takes and may be taken en passant\n");
    assert_has(
        &out,
        "      promotes on reaching last_rank to Queen, Rook, Bishop, Knight\n",
    );
    assert_has(&out, "Moves of the game:\n  castling (K): e1g1 with h1f1\n");
    assert_has(
        &out,
        "\
How the game ends:
  a checkmated player loses
  a stalemated player draws
  the same position 3 times is a draw
  50 moves each without capture or progress is a draw
",
    );

    let out = run(&[MONKEY, "--set", "height=12"], "rules\n");
    assert_has(&out, "  Q Queen (value 10) — \"cQ mQ\"\n");
    assert_has(&out, "  B Baby (value 1) — \"cQ mQ\"\n");
    assert_has(&out, "leaves a Baby behind; its height changes by -1");
    assert_has(&out, "needs to end strictly closer to the enemy Queen");
    assert_has(
        &out,
        "\
How the game ends:
  a player whose Queen is captured loses
  a player with no legal move loses
  pie rule: on the second player's first turn they may `swap` sides instead of moving
",
    );
    assert_has(
        &out,
        "Parameters (change with `set NAME VALUE`):\n  height = 12\n",
    );
}

#[test]
fn rules_summary_gives_king_and_queen_their_diagonal_moves() {
    let out = run(&[CHESS], "rules\n");
    let after = |head: &str| {
        let i = out
            .find(head)
            .unwrap_or_else(|| panic!("no `{head}`:\n{out}"));
        out[i..].lines().nth(1).unwrap_or_default().to_string()
    };
    let king = after("  K King");
    let queen = after("  Q Queen");
    assert!(king.contains("diagonally"), "King: {king}");
    assert!(queen.contains("diagonally"), "Queen: {queen}");
}

#[test]

fn rules_summary_describes_the_knight_in_a_sentence() {
    let out = run(&[CHESS], "rules\n");
    assert!(!out.contains("by a leap of as a knight"), "{out}");
}

/// A saved game without its `RulesHash` header line, and that hash.
fn without_rules_hash(saved: &str) -> (String, String) {
    let mut hash = String::new();
    let rest = saved
        .lines()
        .filter(|l| match l.strip_prefix("[RulesHash \"") {
            Some(h) => {
                hash = h.trim_end_matches("\"]").to_string();
                false
            }
            None => true,
        })
        .map(|l| format!("{l}\n"))
        .collect();
    (rest, hash)
}

/// The lines of the error output that report an illegal move.
fn illegal_lines(err: &str) -> Vec<&str> {
    err.lines().filter(|l| l.starts_with("illegal: ")).collect()
}

#[test]
fn in_check_a_move_that_does_not_answer_it_is_refused_for_that_in_chess() {
    // White is in check from the rook on a1; the pawn's promotion does not answer it,
    // with or without a letter.
    let (_, err) = run_failing(
        &[CHESS, "--fen", "4k2r/2P5/8/8/8/8/8/r3K3 w - - 0 1"],
        "c7c8\nc7c8q\nc7c8x\ne1f1\n",
    );
    let answer = "illegal: white is in check, and this move does not answer it: the King on e1 \
                  would stay attacked";
    assert_eq!(
        illegal_lines(&err),
        [
            answer,
            answer,
            answer,
            "illegal: white is in check, and the King would be attacked on f1 too"
        ],
        "{err}"
    );
    // Out of check, a wrong letter is still told as such.
    let (_, err) = run_failing(
        &[CHESS, "--fen", "4k3/2P5/8/8/8/8/8/4K3 w - - 0 1"],
        "c7c8\nc7c8x\n",
    );
    assert_eq!(
        illegal_lines(&err),
        [
            "illegal: the Pawn must promote there: add one of q, r, b, n (such as c7c8q)",
            "illegal: `x` is not a promotion choice here: choose one of q, r, b, n"
        ],
        "{err}"
    );
}

#[test]
fn in_check_refusals_name_the_rule_in_monkey_king_chess() {
    let fen = "5/2k2/5/5/1L3/2l2/2I2/2P2|2|2[PPNLCpppnvc] r - - 1 5 fists=2/0";
    let (_, err) = run_failing(&["variants/monkey_king.var", "--fen", fen], "b4b5o\nN@e1\n");
    assert_eq!(
        illegal_lines(&err),
        [
            "illegal: red is in check, and this move does not answer it: the Pilgrim on c2 \
             would stay attacked",
            "illegal: red is in check, and this move does not answer it: the Pilgrim on c2 \
             would stay attacked",
        ],
        "{err}"
    );
}

#[test]
fn monkey_king_flips_and_placements_are_refused_with_their_rule() {
    // Blue to move, its Lancer on the magic square b5, its Goblin King in hand.
    let fen = "5/5/5/1l3/5/5/2I2/5|2|2[kp] b - - 0 1 fists=2/0";
    let (_, err) = run_failing(
        &["variants/monkey_king.var", "--fen", fen],
        "b5b4h\nP@a6\nP@a2\n",
    );
    assert_eq!(
        illegal_lines(&err),
        [
            "illegal: a Lancer flips only with your Goblin King to stand in earth",
            "illegal: `P` is red's piece, and blue is to move",
            "illegal: `P` is red's piece, and blue is to move",
        ],
        "{err}"
    );
}

#[test]
fn reload_keeps_the_moves_it_cannot_replay_for_redo_and_a_later_reload() {
    let tmp = TempDir::new("reload-redo");
    let var = tmp.path("chess.var");
    std::fs::copy(repo_file(CHESS), &var).expect("copy chess.var");
    let original = std::fs::read_to_string(&var).unwrap();
    let mut repl = Repl::start(&[path_str(&var)]);
    repl.send("e2e4\ne7e5\ng1f3\nb8c6\nf1c4\nfen\n");
    let five = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
    repl.expect(five);
    std::fs::write(&var, original.replace("moves \"N\"", "moves \"K\"")).unwrap();
    repl.send("reload\nfen\n");
    let out = norm(&repl.expect(" w KQkq e6 0 2"));
    assert_has(
        &out,
        "(2 of 5 moves replayed, 3 moves kept for `redo` (a `reload` tries them again))\n",
    );
    // The file fixed, a reload brings the whole game back.
    std::fs::write(&var, &original).unwrap();
    repl.send("reload\nfen\n");
    let out = norm(&repl.expect(five));
    assert_has(&out, "all 5 moves replayed\n");
    // Once more broken: `redo` plays what the rules allow and says why it stops.
    std::fs::write(&var, original.replace("moves \"N\"", "moves \"K\"")).unwrap();
    repl.send("reload\nredo\nfen\n");
    repl.expect(" w KQkq e6 0 2");
    let (_, err) = repl.finish_failed();
    assert_has(
        &err,
        "cannot redo g1f3: a Knight does not move from g1 to f3 (its moves: K)\n",
    );
}

#[test]
fn set_replays_the_game_under_the_new_value() {
    let out = run(&[MONKEY], "g1g4\nf12f9\nset height 9\nfen\n");
    assert_has(
        &out,
        "height = 9; the game is replayed under it\nall 2 moves replayed\n",
    );
    assert_eq!(
        fens(&out),
        ["5b6/12/12/5q(8)6/12/12/12/12/6Q(8)5/12/12/6B5 w - - 2 2"],
        "{out}"
    );
}

#[test]
fn a_promotion_with_a_single_choice_needs_no_letter() {
    let out = run(
        &["variants/makruk.var"],
        "c3c4\nh6h5\nc4c5\nh5h4\nc5d6\nundo\nc5d6m\nfen\n",
    );
    let f = fens(&out);
    assert_eq!(f.len(), 1, "{out}");
    assert!(f[0].starts_with("rnsmksnr/8/ppp"), "{out}");
    assert_has(&out, "last move c5d6m\n");
}

#[test]
fn moves_are_listed_in_natural_order() {
    let out = run(&[MONKEY], "g1g4\nf12f9\nmoves\n");
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with("Queen g4"))
        .unwrap_or_else(|| panic!("no queen line:\n{out}"));
    assert_has(line, "g4a4 g4a10 ");
    assert_has(
        line,
        " g4g2 g4g3 g4g5 g4g6 g4g7 g4g8 g4g9 g4g10 g4g11 g4g12 g4h3 ",
    );
    assert!(!line.contains("g4g10 g4g2"), "{line}");
}

#[test]
fn impossible_positions_are_refused_unless_asked_for() {
    // Black's king is attacked by the rook with white to move.
    let check = "4k3/8/8/8/8/8/8/4RK2 w - - 0 1";
    // Nothing is written to it: it refuses the position before reading its input and
    // may have exited already (a write would then fail with a broken pipe).
    let (out, err) = Repl::start(&[CHESS, "--fen", check]).finish_failed();
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err,
        "error: --fen: impossible position: white is to move, but black's King on e8 is \
         already attacked: black left it in check, which no legal move does \
         (`varsand play --any-position` accepts it)\n"
    );
    // No black king: `position` refuses it, and the game goes on.
    let (out, err) = run_failing(&[CHESS], "position 8/8/8/8/8/8/8/4K3 w - - 0 1\nfen\n");
    assert_has(
        &err,
        "impossible position: black has no King on the board, and the rules give each side one",
    );
    assert_eq!(fens(&out), [CHESS_START]);
    // Allowed on request.
    let out = run(
        &[CHESS, "--any-position", "--fen", check],
        "fen\nposition 8/8/8/8/8/8/8/4K3 w - - 0 1\nfen\n",
    );
    assert_eq!(fens(&out), [check, "8/8/8/8/8/8/8/4K3 w - - 0 1"]);
}

#[test]
fn every_shipped_setup_is_a_possible_position() {
    for entry in std::fs::read_dir(repo_file("variants")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "var") {
            continue;
        }
        // The setup as `fen` prints it, given back through `--fen`, is accepted.
        let out = run(&[path_str(&path)], "fen\n");
        let setup = out.lines().last().unwrap_or_default().to_string();
        let again = run(&[path_str(&path), "--fen", &setup], "fen\n");
        assert_eq!(
            again.lines().last(),
            Some(setup.as_str()),
            "{}",
            path.display()
        );
    }
}

#[test]
fn load_replays_what_still_fits_when_the_rule_file_changed() {
    let tmp = TempDir::new("load-changed");
    let var = tmp.path("chess.var");
    std::fs::copy(repo_file(CHESS), &var).expect("copy chess.var");
    let original = std::fs::read_to_string(&var).unwrap();
    let game = tmp.path("game.txt");
    let out = run(
        &[path_str(&var)],
        &format!("e2e4\ne7e5\ng1f3\nsave {}\n", game.display()),
    );
    assert_has(&out, "saved 3 moves");
    let saved = std::fs::read_to_string(&game).unwrap();
    // Beside the game, the rule file is recorded by its relative path.
    assert_has(&saved, "[VariantFile \"chess.var\"]\n[RulesHash \"fnv1a64:");
    std::fs::write(&var, original.replace("moves \"N\"", "moves \"K\"")).unwrap();
    // Loaded from elsewhere, the game finds its rule file beside it.
    let chess = repo_file(CHESS);
    let mut repl = Repl::start(&[path_str(&chess)]);
    repl.send(&format!("load {}\nfen\n", game.display()));
    let out = norm(&repl.expect(" w KQkq e6 0 2"));
    assert_has(
        &out,
        "the rule file changed since this game was saved: the moves it still allows are replayed\n",
    );
    assert_has(
        &out,
        "move 3 (g1f3) is illegal under the changed rules: a Knight does not move from g1 to f3 \
         (its moves: K); the game stops before it (2 of 3 moves replayed, 1 move kept for \
         `redo` (a `reload` tries it again))\n",
    );
    std::fs::write(&var, &original).unwrap();
    repl.send("reload\nfen\n");
    let out = repl.finish();
    assert_has(&out, "all 3 moves replayed\n");
    assert_eq!(
        fens(&out),
        ["rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"]
    );
}

#[test]
fn perft_moves_gives_the_reason_a_move_is_illegal() {
    let out = Command::new(env!("CARGO_BIN_EXE_varsand"))
        .args(["perft", CHESS, "1", "--moves", "e2e5"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run varsand perft");
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --moves: `e2e5` is not legal: a Pawn does not move from e2 to e5 (its moves: \
         fmW fcF ifmnD) (position rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1)\n"
    );
}

#[test]
fn after_the_pie_rule_swap_the_computer_names_the_player_who_swapped() {
    let out = run(&[MONKEY], "g1g4\ngo\n");
    assert_has(&out, "black plays swap\n");
    assert!(!out.contains("white plays"), "{out}");
}
