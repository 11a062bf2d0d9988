//! Robustness, round three: what a break test found in the REPL, the protocols, the
//! file reader, the checker and the evaluation, one named test each. Each reproduced
//! the fault before its fix. (The language server's and the web board's cases live
//! beside their other tests: tests/lsp*.rs, tests/web*.rs.)

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::process::{TempDir, assert_has, assert_no_panic, repo, run, run_with_deadline, text};
use varsand::check::{MAX_PIECE_VALUE, Overrides};
use varsand::engine::MAX_MOVE_TEXT_BYTES;
use varsand::loader;
use varsand::search::{Limits, MATE_BOUND, Searcher};
use varsand::{Position, session::read_text};

const CHESS: &str = "variants/chess.var";

fn chess_source() -> String {
    std::fs::read_to_string(repo(CHESS)).expect("chess.var")
}

// ---- over-long move texts: refused up front, not read in quadratic time --------------

/// A token of 400,000 characters took 45 s in the REPL (every split of the text into
/// two squares was tried). Now it is refused at once, and the answer does not echo it.
#[test]
fn an_over_long_move_text_is_refused_at_once_in_the_repl() {
    let token = "e2".repeat(200_000);
    let script = format!("{token}\ne2e4\nfen\n");
    let (out, took) =
        run_with_deadline(&["play", CHESS], script.as_bytes(), Duration::from_secs(20));
    assert_no_panic(&out);
    let err = text(&out.stderr);
    assert_has(
        &err,
        &format!("a move text is at most {MAX_MOVE_TEXT_BYTES} bytes"),
    );
    assert!(
        err.len() < 4_000,
        "the answer echoes the text: {} bytes",
        err.len()
    );
    // The session went on: the next move was played.
    assert_has(&text(&out.stdout), "4P3/8/PPPP1PPP");
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[test]
fn an_over_long_move_text_is_refused_at_once_by_uci_and_xboard() {
    let token = "a1".repeat(200_000);
    let uci = format!("uci\nposition startpos moves e2e4 {token}\nisready\nquit\n");
    let (out, took) = run_with_deadline(&["uci", CHESS], uci.as_bytes(), Duration::from_secs(20));
    assert_no_panic(&out);
    assert_has(&text(&out.stdout), "readyok");
    assert!(took < Duration::from_secs(5), "uci took {took:?}");
    let xboard = format!("xboard\nprotover 2\nforce\nusermove {token}\nping 7\nquit\n");
    let (out, took) = run_with_deadline(
        &["xboard", CHESS],
        xboard.as_bytes(),
        Duration::from_secs(20),
    );
    assert_no_panic(&out);
    let stdout = text(&out.stdout);
    assert_has(&stdout, "Illegal move");
    assert_has(&stdout, "pong 7");
    assert!(took < Duration::from_secs(5), "xboard took {took:?}");
}

#[test]
fn a_move_text_at_the_cap_is_still_read() {
    let rules = Arc::new(loader::load(&chess_source(), &Overrides::new()).unwrap());
    let mut pos = Position::start(rules);
    // Spaces are allowed inside a move text; padded to the cap it is still a move.
    let padded = format!("e2e4{}", " ".repeat(MAX_MOVE_TEXT_BYTES - 4));
    assert!(pos.parse_move(&padded).is_ok());
    let over = format!("e2e4{}", " ".repeat(MAX_MOVE_TEXT_BYTES - 3));
    let refused = pos.parse_move(&over).unwrap_err();
    assert!(refused.message.contains("at most"), "{}", refused.message);
}

// ---- a rule file swapped for a named pipe --------------------------------------------

/// `read_text` tested "regular file" on the path, then opened it: a named pipe
/// renamed into place between the two blocked the open for good (the web board
/// stopped answering). The test swaps a file and a pipe under one name as fast as it
/// can while reading it; every read must come back.
#[cfg(unix)]
#[test]
fn a_rule_file_swapped_for_a_named_pipe_never_blocks_the_reader() {
    let tmp = TempDir::new("fifo");
    let path = tmp.path("game.var");
    let file = tmp.path("file.var");
    let fifo = tmp.path("pipe.var");
    std::fs::write(&path, chess_source()).unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (done, path, file, fifo) = (done.clone(), path.clone(), file.clone(), fifo.clone());
        std::thread::spawn(move || {
            let mut swaps = 0u32;
            while !done.load(Ordering::Relaxed) {
                std::fs::write(&file, "game \"x\"\n").unwrap();
                make_fifo(&fifo);
                let from = if swaps.is_multiple_of(2) {
                    &fifo
                } else {
                    &file
                };
                std::fs::rename(from, &path).unwrap();
                let _ = std::fs::remove_file(&fifo);
                let _ = std::fs::remove_file(&file);
                swaps += 1;
            }
            swaps
        })
    };
    let reader = {
        let (done, path) = (done.clone(), path.clone());
        std::thread::spawn(move || {
            let mut reads = 0u32;
            let mut refused = 0u32;
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(2) {
                if read_text(&path).is_err() {
                    refused += 1;
                }
                reads += 1;
            }
            done.store(true, Ordering::Relaxed);
            (reads, refused)
        })
    };
    let deadline = Instant::now() + Duration::from_secs(15);
    while !reader.is_finished() {
        assert!(
            Instant::now() < deadline,
            "read_text blocked on a named pipe swapped in for the file"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let (reads, refused) = reader.join().unwrap();
    done.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    assert!(
        swaps > 100 && refused > 0,
        "{reads} reads, {refused} refused, {swaps} swaps"
    );
}

#[cfg(unix)]
fn make_fifo(path: &std::path::Path) {
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid, NUL-terminated path; mkfifo reads it and keeps nothing.
    let made = unsafe { libc::mkfifo(name.as_ptr(), 0o600) };
    assert_eq!(made, 0, "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn a_named_pipe_given_as_the_rule_file_is_refused_at_once() {
    let tmp = TempDir::new("fifo-arg");
    let fifo = tmp.path("pipe.var");
    make_fifo(&fifo);
    let (out, took) = run_with_deadline(
        &["check", fifo.to_str().unwrap()],
        b"",
        Duration::from_secs(20),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_has(&text(&out.stderr), "not a regular file");
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

// ---- setups that no game reaches: `check` uses the test `--fen` uses ------------------

fn chess_with_setup(setup: &str) -> String {
    let source = chess_source();
    let start = source.find("setup \"").expect("a setup line");
    let end = start + source[start..].find('\n').unwrap_or(source.len() - start);
    format!("{}setup \"{setup}\"{}", &source[..start], &source[end..])
}

#[test]
fn check_refuses_a_setup_whose_side_not_to_move_is_in_check() {
    let tmp = TempDir::new("setup-check");
    let file = tmp.path("x.var");
    std::fs::write(&file, chess_with_setup("4k3/8/8/8/8/8/8/4RK2 w - - 0 1")).unwrap();
    let out = run(&["check", file.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_has(&err, "varsand::impossible-setup");
    assert_has(&err, "already attacked");
    // `play` does not start on it either (it used to let white take the king).
    let out = run(&["play", file.to_str().unwrap()], b"e1e8\n");
    assert_eq!(out.status.code(), Some(1));
    assert_has(&text(&out.stderr), "impossible setup");
}

#[test]
fn check_refuses_a_setup_where_a_side_lacks_its_royal_piece() {
    let source = chess_with_setup("8/8/8/8/8/8/8/4K2R w - - 0 1");
    let problems = loader::load(&source, &Overrides::new()).unwrap_err();
    let found: Vec<String> = problems.iter().map(|p| p.message.clone()).collect();
    assert!(
        problems
            .iter()
            .any(|p| p.code == "varsand::impossible-setup"
                && p.message.contains("black has no King")),
        "{found:?}"
    );
    // The same position by `--fen` is refused for the same reason.
    let out = run(
        &["play", CHESS, "--fen", "8/8/8/8/8/8/8/4K2R w - - 0 1"],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_has(&text(&out.stderr), "black has no King");
}

// ---- a line that is not UTF-8 ---------------------------------------------------------

/// A line that is not UTF-8 ended the REPL at once with exit status 0, so a `save`
/// after it never ran and the game was lost.
#[test]
fn a_line_that_is_not_utf8_is_reported_and_the_session_goes_on() {
    let tmp = TempDir::new("utf8");
    let save = tmp.path("game.pgn");
    let mut script = b"e2e4\n\xff\xfe e7e5\ne7e5\nsave ".to_vec();
    script.extend_from_slice(save.to_str().unwrap().as_bytes());
    script.extend_from_slice(b"\n");
    let out = run(&["play", CHESS], &script);
    assert_no_panic(&out);
    assert_has(&text(&out.stderr), "line 2 ignored: not UTF-8 text");
    // The failed line makes the script's exit status 1, and everything after it ran.
    assert_eq!(out.status.code(), Some(1));
    let saved = std::fs::read_to_string(&save).expect("the game was saved");
    assert_has(&saved, "1. e2e4 e7e5");
}

#[test]
fn a_script_line_longer_than_the_cap_is_refused_and_the_session_goes_on() {
    let mut script = vec![b'x'; varsand::repl::MAX_LINE_BYTES + 10];
    script.extend_from_slice(b"\ne2e4\nfen\n");
    let out = run(&["play", CHESS], &script);
    assert_no_panic(&out);
    assert_has(&text(&out.stderr), "line 1 ignored: longer than 1 MiB");
    assert_has(&text(&out.stdout), "4P3/8/PPPP1PPP");
}

// ---- piece values ---------------------------------------------------------------------

#[test]
fn a_piece_value_out_of_range_is_a_diagnostic() {
    let source = chess_source().replacen("resets-clock", "resets-clock\n  value 2000", 1);
    let problems = loader::load(&source, &Overrides::new()).unwrap_err();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].code, "varsand::value-range");
    let at_bound = chess_source().replacen(
        "resets-clock",
        &format!("resets-clock\n  value {MAX_PIECE_VALUE}"),
        1,
    );
    assert!(loader::load(&at_bound, &Overrides::new()).is_ok());
}

/// `value 2000` on a pawn put eight pawns of material in the mate range: the search
/// reported a mate and stopped at depth 1. Values at the bound, a side eight pawns up:
/// the score stays an evaluation, and the search goes as deep as asked.
#[test]
fn material_never_reads_as_a_mate_whatever_the_values() {
    let source = chess_source().replacen(
        "resets-clock",
        &format!("resets-clock\n  value {MAX_PIECE_VALUE}"),
        1,
    );
    let rules = Arc::new(loader::load(&source, &Overrides::new()).unwrap());
    let mut pos =
        Position::from_fen(rules.clone(), "4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1").unwrap();
    let mut searcher = Searcher::new(rules);
    let result = searcher.search(&mut pos, &Limits::depth(4));
    assert!(result.best.is_some());
    assert!(
        result.score.abs() < MATE_BOUND,
        "an evaluation read as a mate: {}",
        result.score
    );
    assert!(
        result.score > 0,
        "white is eight pawns up: {}",
        result.score
    );
}

// ---- smaller ones ---------------------------------------------------------------------

#[test]
fn xboard_answers_unknown_options_and_says_a_clock_ran_out() {
    let script =
        "xboard\nprotover 2\noption Hash=-1\noption Foo=3\ntime -100\nmemory -5\nping 1\nquit\n";
    let out = run(&["xboard", CHESS], script.as_bytes());
    let stdout = text(&out.stdout);
    assert_has(&stdout, "Error (this engine has no options");
    assert_has(&stdout, "option Hash=-1");
    assert_has(&stdout, "option Foo=3");
    assert_has(&stdout, "# time -100: the clock has run out");
    assert_has(&stdout, "memory -5");
    assert_has(&stdout, "pong 1");
}

#[test]
fn load_reads_a_huge_game_number_as_a_number() {
    let out = run(&["play", CHESS], b"load games.pgn 99999999999999999999\n");
    let err = text(&out.stderr);
    assert_has(&err, "`99999999999999999999` is not a game number");
    assert!(
        !err.contains("games.pgn 9999"),
        "read as a file name: {err}"
    );
}

/// A saved game's `[VariantFile "../x"]` opened any file and printed its first lines
/// in the error. Now a rule file outside the game's folder is opened only when it is
/// the session's own.
#[test]
fn a_saved_game_cannot_open_a_file_outside_its_folder() {
    let tmp = TempDir::new("variantfile");
    let secret = tmp.path("secret.txt");
    std::fs::write(&secret, "password = hunter2\n").unwrap();
    std::fs::create_dir_all(tmp.path("games")).unwrap();
    let game = tmp.path("games/g.pgn");
    std::fs::write(
        &game,
        "[Variant \"x\"]\n[VariantFile \"../secret.txt\"]\n\n1. e2e4 *\n",
    )
    .unwrap();
    let out = run(
        &["play", CHESS],
        format!("load {}\n", game.display()).as_bytes(),
    );
    let err = text(&out.stderr);
    assert_has(&err, "outside the folder of");
    assert!(!err.contains("hunter2"), "the file's text was shown: {err}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_saved_game_may_name_the_sessions_own_rule_file_anywhere() {
    let tmp = TempDir::new("variantfile-own");
    let game = tmp.path("g.pgn");
    let rules = repo(CHESS);
    std::fs::write(
        &game,
        format!(
            "[Variant \"Chess\"]\n[VariantFile \"{}\"]\n\n1. e2e4 e7e5 *\n",
            rules.display()
        ),
    )
    .unwrap();
    let out = run(
        &["play", CHESS],
        format!("load {}\nfen\n", game.display()).as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_has(&text(&out.stdout), "4p3/4P3");
}

#[test]
fn render_to_dash_writes_standard_output() {
    let tmp = TempDir::new("render-dash");
    let out = std::process::Command::new(common::process::BIN)
        .args(["render", repo(CHESS).to_str().unwrap(), "-o", "-"])
        .current_dir(&tmp.0)
        .output()
        .expect("run render");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("<svg"),
        "{}",
        text(&out.stdout)
    );
    assert!(!tmp.path("-").exists(), "a file named `-` was written");
}

/// The same on a terminal (a pseudo-terminal, where the REPL's line editor reads
/// byte by byte): the line is dropped with a word, and the session goes on.
#[cfg(target_os = "linux")]
#[test]
fn a_line_that_is_not_utf8_on_a_terminal_does_not_end_the_session() {
    use std::io::{Read, Write};
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::process::{Command, Stdio};

    let tmp = TempDir::new("utf8-tty");
    let save = tmp.path("game.pgn");
    let (mut master, slave) = {
        let (mut m, mut s) = (0, 0);
        // SAFETY: openpty fills two descriptors, which become owned here.
        let made = unsafe {
            libc::openpty(
                &mut m,
                &mut s,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        assert_eq!(made, 0, "openpty");
        // SAFETY: fresh descriptors from openpty, each owned once.
        unsafe { (std::fs::File::from_raw_fd(m), OwnedFd::from_raw_fd(s)) }
    };
    let mut child = Command::new(common::process::BIN)
        .args(["play", repo(CHESS).to_str().unwrap()])
        .env("NO_COLOR", "1")
        .env("HOME", &tmp.0)
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave))
        .spawn()
        .expect("start varsand on a pseudo-terminal");
    let screen = Arc::new(std::sync::Mutex::new(String::new()));
    let reader = {
        let mut master = master.try_clone().unwrap();
        let screen = screen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = master.read(&mut buf) {
                if n == 0 {
                    break;
                }
                screen
                    .lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        })
    };
    let wait_for = |needle: &str| {
        let start = Instant::now();
        while !screen.lock().unwrap().contains(needle) {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "waited for {needle:?}; the screen:\n{}",
                screen.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    wait_for("white> ");
    master.write_all(b"e2e4\r").unwrap();
    wait_for("black> ");
    master.write_all(b"e7\xff\xfee5\r").unwrap();
    wait_for("not UTF-8 text");
    master
        .write_all(format!("e7e5\rsave {}\rquit\r", save.display()).as_bytes())
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the REPL did not quit"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(master);
    let _ = reader.join();
    let saved = std::fs::read_to_string(&save).expect("the game was saved");
    assert_has(&saved, "1. e2e4 e7e5");
}
