//! Robustness of the command line and the REPL against hostile or unlucky input: very
//! long lines, thousands of problems, files that are not regular files or are too big,
//! truncated saved games, absurd depths and counts, a closed output pipe, byte-order
//! marks and old Mac line ends. Each test drives the release binary (or the library)
//! and names what it guards.

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

mod common;

use common::process::{BIN, TempDir, assert_has, assert_no_panic, repo, run_with_deadline, text};
use varsand::diagnostic::{MAX_SHOWN, Problem, ProblemCode, list_candidates, render};
use varsand::syntax::ast::Span;

const CHESS: &str = "variants/chess.var";
/// The longest a child process may run before the test fails.
const DEADLINE: Duration = Duration::from_secs(60);

fn chess_text() -> String {
    std::fs::read_to_string(repo(CHESS)).expect("chess.var")
}

/// Runs `varsand ARGS...` with `input` on standard input, killing it at the deadline.
fn varsand(args: &[&str], input: &str) -> Output {
    run_with_deadline(args, input.as_bytes(), DEADLINE).0
}

// 1. Rendering diagnostics.

#[test]
fn check_reports_a_problem_past_column_65535_without_crashing() {
    let tmp = TempDir::new("column");
    let file = tmp.path("col.var");
    std::fs::write(&file, format!("{}x\n", " ".repeat(70_000))).unwrap();
    let out = varsand(&["check", file.to_str().unwrap()], "");
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_has(&err, "syntax error");
    assert_has(
        &err,
        &format!(
            "at {}:1:70001 (the line is too long to show)",
            file.display()
        ),
    );
    assert_has(&err, &format!("{}: 1 problem\n", file.display()));
    assert!(
        err.len() < 2000,
        "the long line is not printed: {} bytes",
        err.len()
    );
}

#[test]
fn reload_and_load_of_a_file_with_a_very_long_line_keep_the_session() {
    let tmp = TempDir::new("long-reload");
    let var = tmp.path("chess.var");
    std::fs::write(&var, chess_text()).unwrap();
    let long = format!("{}x\n", " ".repeat(70_000));
    // `load` of a game whose rule file has the long line.
    let bad = tmp.path("bad.var");
    std::fs::write(&bad, &long).unwrap();
    let game = tmp.path("game.txt");
    std::fs::write(
        &game,
        format!("[Variant \"{}\"]\n\n1. e2e4 *\n", bad.display()),
    )
    .unwrap();
    // The file breaks once the session has started (after its greeting).
    let script = format!("e2e4\nreload\nload {}\nfen\n", game.display());
    let mut child = Command::new(BIN)
        .args(["play", var.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut greeting = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut greeting).unwrap();
    assert!(greeting.starts_with("Chess"), "{greeting}");
    std::fs::write(&var, &long).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    drop(stdin);
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    let mut out = child.wait_with_output().unwrap();
    out.stdout = rest;
    assert_no_panic(&out);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_has(&stderr, "(the line is too long to show)");
    assert_has(
        &stderr,
        "reload failed: the old rules and the game are kept\n",
    );
    assert_has(&stderr, "load failed: the current game is kept\n");
    // The session went on: the game after 1. e4 is still there.
    assert_has(
        &stdout,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n",
    );
    assert_eq!(out.status.code(), Some(1), "failed commands: status 1");
}

#[test]
fn render_shows_at_most_50_problems_and_never_the_long_line_again() {
    // 2,000 problems on one 100,000-character line.
    let line = "y".repeat(100_000);
    let problems: Vec<Problem> = (0..2000)
        .map(|i| Problem::new(ProblemCode::Syntax, Span::new(i * 50, i * 50 + 3), "bad"))
        .collect();
    let out = render(&problems, "many.var", &line, false);
    assert!(out.len() < 50_000, "{} bytes", out.len());
    assert_eq!(out.matches("× bad").count(), MAX_SHOWN, "{out}");
    assert_has(&out, "… and 1950 more problems\n");
    // Also in colour, and with spans outside the text or inside a character.
    let odd = [
        Problem::new(ProblemCode::Syntax, Span::new(5, 500), "past the end"),
        Problem::new(ProblemCode::Syntax, Span::new(1, 2), "inside a character"),
    ];
    let out = render(&odd, "odd.var", "éé", true);
    assert_has(&out, "past the end");
    assert_has(&out, "inside a character");
}

#[test]
fn check_of_thousands_of_problems_prints_a_bounded_report() {
    let tmp = TempDir::new("many-problems");
    let file = tmp.path("many.var");
    // 2,000 zones off the board on one line (past column 65,535 too).
    let mut source = chess_text();
    source.push('\n');
    for i in 0..2000 {
        source += &format!("zone z{i} {{ white: rank 99 black: rank 99 }} ");
    }
    source.push('\n');
    std::fs::write(&file, source).unwrap();
    let out = varsand(&["check", file.to_str().unwrap()], "");
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.len() < 200_000, "{} bytes", err.len());
    assert_has(&err, "more problems\n");
}

#[test]
fn help_lines_list_at_most_ten_candidates() {
    assert_eq!(list_candidates(["a", "b"]), "a, b");
    let names: Vec<String> = (0..25).map(|i| format!("z{i}")).collect();
    assert_eq!(
        list_candidates(&names),
        "z0, z1, z2, z3, z4, z5, z6, z7, z8, z9 and 15 more"
    );
    // Through the checker: a promotion zone nobody declared, among 30 zones.
    let mut source = chess_text().replace("promotes on last_rank", "promotes on nowhere_at_all");
    for i in 0..30 {
        source += &format!("\nzone zone{i} {{ white: rank 8 black: rank 1 }}");
    }
    let problems = varsand::load_rules(&source).expect_err("an unknown zone");
    let help = problems
        .iter()
        .find_map(|p| p.help.clone().filter(|h| h.contains("declared zones")))
        .unwrap_or_else(|| panic!("no help listing the zones: {problems:?}"));
    assert!(help.ends_with(" and 21 more"), "{help}");
}

// 2, 3, 7. Saving and loading.

#[test]
fn save_replaces_the_file_whole_and_leaves_no_temporary_file() {
    let tmp = TempDir::new("atomic-save");
    let game = tmp.path("game.txt");
    std::fs::write(&game, "x".repeat(100_000)).unwrap();
    let out = varsand(
        &["play", CHESS],
        &format!("e2e4\nsave {}\n", game.display()),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let saved = std::fs::read_to_string(&game).unwrap();
    assert!(saved.ends_with("1. e2e4 *\n"), "{saved}");
    let names: Vec<_> = std::fs::read_dir(&tmp.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["game.txt"], "no temporary file is left");
}

#[test]
fn a_truncated_save_is_reported_as_truncated_on_load() {
    let tmp = TempDir::new("truncated");
    let game = tmp.path("game.txt");
    let out = varsand(
        &["play", CHESS],
        &format!("e2e4\ne7e5\ng1f3\nsave {}\n", game.display()),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let full = std::fs::read_to_string(&game).unwrap();
    // Cut in the middle of the moves: `1. e2e4 e7e5 2. g1f3 *` loses `g1f3 *`.
    let cut = full.find("g1f3").expect("the third move");
    std::fs::write(&game, &full[..cut]).unwrap();
    let out = varsand(&["play", CHESS], &format!("load {}\nfen\n", game.display()));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_has(&stderr, "the record is truncated");
    assert!(!stdout.contains("loaded"), "{stdout}");
    assert_has(
        &stdout,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
    );
    assert_eq!(out.status.code(), Some(1));
    // The whole file still loads.
    std::fs::write(&game, &full).unwrap();
    let out = varsand(&["play", CHESS], &format!("load {}\n", game.display()));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_has(&text(&out.stdout), "loaded 3 moves");
}

#[test]
fn load_stops_at_the_end_of_a_finished_game() {
    let tmp = TempDir::new("past-the-end");
    let game = tmp.path("game.txt");
    // Fool's mate, then two moves that a finished game cannot have.
    std::fs::write(
        &game,
        format!(
            "[Variant \"{}\"]\n\n1. f2f3 e7e5 2. g2g4 d8h4 3. a2a3 a7a6 *\n",
            repo(CHESS).display()
        ),
    )
    .unwrap();
    let out = varsand(&["play", CHESS], &format!("load {}\nfen\n", game.display()));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_has(&stdout, "loaded 4 moves");
    assert_has(
        &stdout,
        "the game ended after move 4 (white is checkmated): the 2 moves after it are not played\n",
    );
    assert_has(
        &stdout,
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n",
    );
}

#[cfg(unix)]
#[test]
fn save_and_load_refuse_a_named_pipe_and_a_device() {
    let tmp = TempDir::new("fifo");
    let fifo = tmp.path("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("no mkfifo here: skipped");
        return;
    }
    let f = fifo.display();
    let out = varsand(
        &["play", CHESS],
        &format!("save {f}\nload {f}\nload /dev/zero\nfen\n"),
    );
    let stderr = text(&out.stderr);
    assert_has(&stderr, &format!("cannot write {f}: not a regular file\n"));
    assert_has(&stderr, &format!("cannot read {f}: not a regular file\n"));
    assert_has(&stderr, "cannot read /dev/zero: not a regular file\n");
    assert_has(&text(&out.stdout), "RNBQKBNR w KQkq - 0 1\n");
    // Rule files too.
    for cmd in ["check", "perft", "analyze", "play"] {
        let mut args = vec![cmd, "/dev/zero"];
        if cmd == "perft" {
            args.push("1");
        }
        let out = varsand(&args, "");
        assert_eq!(out.status.code(), Some(1), "{cmd}");
        assert_has(
            &text(&out.stderr),
            "cannot read /dev/zero: not a regular file",
        );
    }
    let out = varsand(&["check", fifo.to_str().unwrap()], "");
    assert_has(&text(&out.stderr), "not a regular file");
}

#[test]
fn files_larger_than_16_mib_are_refused() {
    let tmp = TempDir::new("big");
    let big = tmp.path("big.var");
    // A sparse file: no disk space used.
    std::fs::File::create(&big)
        .unwrap()
        .set_len(17 * 1024 * 1024)
        .unwrap();
    let out = varsand(&["check", big.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert_has(&text(&out.stderr), "larger than 16 MiB");
    let out = varsand(&["play", CHESS], &format!("load {}\n", big.display()));
    assert_has(&text(&out.stderr), "larger than 16 MiB");
}

// 4. Perft depth.

#[test]
fn perft_refuses_depths_past_64_on_the_command_line_and_in_the_repl() {
    for depth in ["40000", "65", "18446744073709551615"] {
        let out = varsand(&["perft", CHESS, depth], "");
        assert_no_panic(&out);
        assert_eq!(out.status.code(), Some(2), "a usage error");
        assert_has(&text(&out.stderr), "is not in 0..=64");
    }
    let out = varsand(
        &["play", CHESS],
        "perft 50000\nperft 18446744073709551615\nperft 1\n",
    );
    assert_no_panic(&out);
    let stderr = text(&out.stderr);
    assert_has(&stderr, "perft 50000: the depth is at most 64\n");
    assert_has(
        &stderr,
        "perft 18446744073709551615: the depth is at most 64\n",
    );
    // The session lives on.
    assert_has(&text(&out.stdout), "Nodes searched: 20\n");
}

// 5. A closed pipe.

#[test]
fn perft_into_a_closed_pipe_exits_quietly() {
    let mut child = Command::new(BIN)
        .args(["perft", CHESS, "3"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away before anything is written.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_no_panic(&out);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

// 6. Scripted errors.

#[test]
fn a_script_with_a_failed_command_writes_the_error_to_stderr_and_exits_1() {
    let out = varsand(&["play", CHESS], "e2e5\nfen\n");
    assert_eq!(out.status.code(), Some(1));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_has(&stderr, "illegal: a Pawn does not move from e2 to e5");
    assert!(!stdout.contains("illegal"), "{stdout}");
    assert_has(&stdout, "RNBQKBNR w KQkq - 0 1\n");
    // A script without errors: status 0, nothing on stderr.
    let out = varsand(&["play", CHESS], "e2e4\nfen\n");
    assert!(out.status.success());
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

// 8. Analysis limits.

#[test]
fn analyze_rejects_impossible_numbers_with_a_usage_error() {
    for args in [
        &["--games", "18446744073709551615"][..],
        &["--games", "0"],
        &["--depth", "0"],
        &["--depth", "100"],
        &["--movetime", "18446744073709551615"],
        &["--max-plies", "0"],
    ] {
        let mut all = vec!["analyze", CHESS];
        all.extend(args);
        let out = varsand(&all, "");
        assert_no_panic(&out);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert_has(&text(&out.stderr), "is not in");
    }
    let out = varsand(&["play", CHESS, "--movetime", "18446744073709551615"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn analyze_bounds_the_threads_with_a_note() {
    let out = varsand(
        &[
            "analyze",
            CHESS,
            "--random",
            "--games",
            "2",
            "--threads",
            "100000",
            "--max-plies",
            "10",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert_has(
        &stderr,
        "note: --threads 100000 is more than this machine can use",
    );
    assert_has(&text(&out.stdout), "Chess: 2 games, random");
}

#[test]
fn the_streamed_statistics_match_the_games() {
    use varsand::analyze::{GameConfig, GameRecord, Options, summarise};
    let rules = varsand::load_rules(&chess_text()).unwrap();
    let eval = varsand::search::Eval::new(&rules);
    let kinds = rules.pieces().len();
    let rec = |plies: usize, winner: Option<usize>, reason: &str| GameRecord {
        winner,
        winner_player: winner,
        swapped: false,
        reason: reason.into(),
        plies,
        branching: vec![20; plies],
        moved: vec![1; kinds],
        captures: vec![0; kinds],
        captured: vec![0; kinds],
        moves: Vec::new(),
        nodes: 0,
        material: Vec::new(),
    };
    let records = [
        rec(10, Some(0), "mate"),
        rec(2, None, "cap"),
        rec(3, Some(1), "mate"),
        rec(1, None, "cap"),
    ];
    let opts = Options {
        games: 4,
        limits: None,
        threads: 1,
        seed: 1,
        config: GameConfig::default(),
        progress: false,
        versus_random: false,
    };
    let r = summarise(&rules, &eval, &records, &opts);
    assert_eq!(r.games, 4);
    assert_eq!((r.length.min, r.length.max), (1, 10));
    assert_eq!(r.length.median, 2.5);
    assert_eq!(r.length.mean, 4.0);
    assert_eq!(r.sides[0].wins.count, 1);
    assert_eq!(r.sides[0].draws.count, 2);
    assert_eq!(r.sides[1].wins.count, 1);
    assert_eq!(r.endings.len(), 2);
    assert_eq!(r.pieces[0].moved, 4);
    assert_eq!(r.branching.overall, 20.0);
}

// 9. Byte-order mark and line ends.

#[test]
fn a_byte_order_mark_and_lone_carriage_returns_are_accepted() {
    let chess = chess_text();
    assert!(varsand::load_rules(&format!("\u{feff}{chess}")).is_ok());
    let cr = chess.replace('\n', "\r");
    assert!(
        varsand::load_rules(&cr).is_ok(),
        "comments end at a lone carriage return"
    );
    assert!(varsand::load_rules(&chess.replace('\n', "\r\n")).is_ok());
    // The diagnostics point at the right line in both.
    let broken = chess.replace("board 8 x 8", "board 8 by 8");
    let line = broken
        .lines()
        .position(|l| l.contains("8 by 8"))
        .expect("the board line")
        + 1;
    for (name, text) in [
        ("bom.var", format!("\u{feff}{broken}")),
        ("cr.var", broken.replace('\n', "\r")),
    ] {
        let problems = varsand::load_rules(&text).expect_err("a syntax error");
        let out = render(&problems, name, &text, false);
        assert_has(&out, &format!("[{name}:{line}:9]"));
        assert_has(&out, "board 8 by 8");
    }
}

// 10. The build.

#[test]
fn the_tests_run_with_overflow_checks() {
    let x: u8 = std::hint::black_box(255);
    let sum = std::panic::catch_unwind(|| x + 1);
    assert!(sum.is_err(), "255u8 + 1 must panic in the test build");
}
