//! The computer player from the outside: Ctrl-C stops a search (its own test binary,
//! as the flag is process-wide), `varsand analyze` in text and JSON, and the REPL's
//! `go` and `time`.

use std::io::Write;
use std::process::{Command, Stdio};
mod common;

use common::variant as rules;
use std::time::{Duration, Instant};

use varsand::Position;
use varsand::search::{Limits, Searcher};

const BIN: &str = env!("CARGO_BIN_EXE_varsand");

fn variant(name: &str) -> String {
    format!("{}/variants/{name}.var", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn ctrl_c_stops_a_search_with_the_best_move_so_far() {
    let r = rules("monkey_queen");
    let mut pos = Position::start(r.clone());
    let mut s = Searcher::new(r);
    varsand::interrupt::request();
    let start = Instant::now();
    // No limit at all: only the interrupt ends it.
    let res = s.search(&mut pos, &Limits::default());
    varsand::interrupt::clear();
    assert!(start.elapsed() < Duration::from_secs(2));
    assert!(res.stopped);
    let m = res.best.expect("a move");
    assert!(pos.legal_moves().contains(&m));
}

fn run(args: &[&str], stdin: &str) -> String {
    let mut child = Command::new(BIN)
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("varsand runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn analyze_prints_json() {
    let file = variant("monkey_queen");
    let out = run(
        &[
            "analyze",
            &file,
            "--games",
            "4",
            "--depth",
            "2",
            "--threads",
            "1",
            "--seed",
            "3",
            "--json",
            // The rules' own values (the shipped GAME.values would make them `learned`).
            "--values",
            "none",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["games"], 4);
    assert_eq!(v["mode"], "search depth 2");
    assert_eq!(v["sides"].as_array().unwrap().len(), 2);
    let ended: u64 = v["endings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["count"].as_u64().unwrap())
        .sum();
    assert_eq!(ended, 4);
    assert!(v["timing"]["search_nodes"].as_u64().unwrap() > 0);
    assert_eq!(v["pieces"][0]["value_source"], "declared");
}

#[test]
fn analyze_random_playouts_report_speed() {
    let file = variant("chess");
    let out = run(&["analyze", &file, "--random", "--games", "5"], "");
    assert!(out.contains("5 games, random"), "{out}");
    assert!(out.contains("games/s"), "{out}");
    assert!(out.contains("how games ended"), "{out}");
}

#[test]
fn repl_go_uses_the_time_setting() {
    let file = variant("chess");
    let start = Instant::now();
    let out = run(&["play", &file], "time 150\ngo\ngo\ntime\nquit\n");
    assert!(out.contains("the computer thinks 150 ms a move"), "{out}");
    assert_eq!(out.matches(" plays ").count(), 2, "{out}");
    assert!(start.elapsed() < Duration::from_secs(10));
    let out = run(
        &["play", &file, "--movetime", "50"],
        "depth 2\ngo\ndepth\nquit\n",
    );
    assert!(out.contains("white plays"), "{out}");
    assert!(out.contains("at most 2 plies deep"), "{out}");
}

#[test]
fn a_script_replays_exactly() {
    // Without a time, a script's computer searches a fixed number of nodes.
    let file = variant("monkey_queen");
    let script = "time\ngo\ngo\ngo\nfen\n";
    let out = run(&["play", &file], script);
    assert!(out.contains("nodes a move"), "{out}");
    assert_eq!(out.matches(" plays ").count(), 3, "{out}");
    assert_eq!(out, run(&["play", &file], script));
}
