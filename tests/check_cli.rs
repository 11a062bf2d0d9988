//! `varsand check` (warnings, `--deny-warnings`, `--format json`), `varsand explain`,
//! and how fast a check is.

mod common;

use std::time::{Duration, Instant};

use varsand::check::Overrides;
use varsand::loader::check_source;

/// Runs `varsand ARGS...`: whether it succeeded, its output and its errors.
fn varsand(args: &[&str]) -> (bool, String, String) {
    let out = common::process::run(args, b"");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn warnings_are_shown_but_do_not_fail_unless_denied() {
    let (ok, out, err) = varsand(&["check", "tests/warnings/unused_declarations.var"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("ok: tests/warnings/unused_declarations.var"),
        "{out}"
    );
    assert!(
        err.contains("varsand::unused-zone") && err.contains("⚠"),
        "{err}"
    );
    let (ok, out, _) = varsand(&[
        "check",
        "--deny-warnings",
        "tests/warnings/unused_declarations.var",
    ]);
    assert!(!ok);
    assert!(!out.contains("ok:"), "{out}");
    let (ok, _, _) = varsand(&["check", "--deny-warnings", "variants/chess.var"]);
    assert!(ok);
}

#[test]
fn problems_as_json() {
    let (ok, out, _) = varsand(&[
        "check",
        "--format",
        "json",
        "tests/diagnostics/syntax_three_mistakes.var",
        "tests/warnings/repeated_properties.var",
    ]);
    assert!(!ok);
    let list: serde_json::Value = serde_json::from_str(&out).expect("one JSON array");
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 3 + 4, "{out}");
    let first = &list[0];
    assert_eq!(first["code"], "varsand::syntax");
    assert_eq!(first["severity"], "error");
    assert_eq!(first["help"], "did you mean `piece`?");
    assert_eq!(first["span"]["line"], 5);
    assert_eq!(first["span"]["column"], 1);
    assert_eq!(first["file"], "tests/diagnostics/syntax_three_mistakes.var");
    let warning = &list[3];
    assert_eq!(warning["severity"], "warning");
    assert_eq!(warning["code"], "varsand::empty-range");
    // A duplicate property points also at its first place.
    let dup = &list[4];
    assert_eq!(dup["related"][0]["label"], "first given here");
}

#[test]
fn explain_gives_the_meaning_a_wrong_example_and_the_fix() {
    let (ok, out, _) = varsand(&["explain", "unknown-piece"]);
    assert!(ok);
    assert!(out.starts_with("varsand::unknown-piece\n"), "{out}");
    assert!(out.contains("Wrong:") && out.contains("Fix:"), "{out}");
    let (ok, same, _) = varsand(&["explain", "varsand::unknown-piece"]);
    assert!(ok);
    assert_eq!(same, out);
    let (ok, _, err) = varsand(&["explain", "unknwn-piece"]);
    assert!(!ok);
    assert!(err.contains("did you mean `unknown-piece`?"), "{err}");
    let (ok, list, _) = varsand(&["explain"]);
    assert!(ok);
    // Each code with the first sentence of its explanation.
    let unused = list
        .lines()
        .find(|l| l.starts_with("varsand::unused-zone "))
        .unwrap_or_else(|| panic!("no unused-zone line:\n{list}"));
    assert!(unused.trim_end().ends_with('.'), "{unused}");
    assert!(unused.split_whitespace().count() > 3, "{unused}");
}

/// Checking a shipped game takes a few milliseconds (the issue asks for under 10 ms;
/// the bound here is loose, so that a loaded machine does not fail the test, but an
/// order of magnitude slower does).
#[test]
fn check_is_fast() {
    for entry in std::fs::read_dir("variants").unwrap() {
        let path = entry.unwrap().path();
        // Rule files only (learned values, GAME.values, live beside them).
        if path.extension().is_none_or(|e| e != "var") {
            continue;
        }
        let source = std::fs::read_to_string(&path).unwrap();
        let best = (0..5)
            .map(|_| {
                let t = Instant::now();
                let checked = check_source(&source, &Overrides::new());
                assert!(checked.rules.is_some());
                t.elapsed()
            })
            .min()
            .unwrap();
        eprintln!("{}: {best:?}", path.display());
        assert!(
            best < Duration::from_millis(100),
            "{}: {best:?}",
            path.display()
        );
    }
}
