//! The tools a few tests need beyond Rust: Python 3, python-chess (the independent
//! UCI/XBoard client and PGN reader), a browser (Chromium or Chrome, its driver, and
//! selenium) for the web board, Node.js with npm (npx) to package the editor
//! extension, and maturin, pytest, numpy, pettingzoo and ray for the Python package.
//!
//! Where one is missing, a test that needs it returns early, and the first such test
//! of a `cargo test` run says, once, every missing tool with its install command, so
//! that the README's test command passes on a machine with only the Rust toolchain.
//! Under CI (`CI` set, as `.ci/run` runs), a missing tool fails the test instead:
//! CI installs them all and never skips.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// A tool some tests need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Python,
    PythonChess,
    Browser,
    Node,
    /// maturin (builds the package), pytest, numpy, pettingzoo and ray (its tests).
    PythonPackage,
}

/// What was found on this machine, looked for once per test binary.
struct Found {
    python: bool,
    python_chess: bool,
    selenium: bool,
    chromium: Option<PathBuf>,
    chromedriver: Option<PathBuf>,
    npx: bool,
    python_package: bool,
}

fn found() -> &'static Found {
    static FOUND: OnceLock<Found> = OnceLock::new();
    FOUND.get_or_init(|| {
        let python = python_imports("sys");
        Found {
            python,
            python_chess: python && python_imports("chess, chess.engine, chess.pgn"),
            selenium: python && python_imports("selenium"),
            chromium: find_program(
                "VARSAND_CHROMIUM",
                &[
                    "chromium",
                    "chromium-browser",
                    "google-chrome",
                    "google-chrome-stable",
                ],
                &[
                    "/usr/bin/chromium",
                    "/snap/bin/chromium",
                    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
                    "/Applications/Chromium.app/Contents/MacOS/Chromium",
                ],
            ),
            chromedriver: find_program(
                "VARSAND_CHROMEDRIVER",
                &["chromedriver"],
                &["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"],
            ),
            npx: on_path("npm").is_some() && on_path("npx").is_some(),
            python_package: python
                && python_imports("maturin, pytest, numpy, pettingzoo, gymnasium, ray"),
        }
    })
}

/// Does `python3 -c "import MODULES"` succeed?
fn python_imports(modules: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {modules}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A program named by an environment variable, else on the `PATH` under one of
/// `names`, else at one of the usual `places`.
fn find_program(variable: &str, names: &[&str], places: &[&str]) -> Option<PathBuf> {
    let runnable = |p: &Path| p.is_file();
    if let Some(p) = std::env::var_os(variable).map(PathBuf::from) {
        return runnable(&p).then_some(p);
    }
    if let Some(p) = names.iter().find_map(|name| on_path(name)) {
        return Some(p);
    }
    places.iter().map(PathBuf::from).find(|p| runnable(p))
}

/// The program `name` in a folder of the `PATH`, if one has it.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// The missing tools, each with how to install it.
fn missing() -> Vec<&'static str> {
    let f = found();
    let mut out = Vec::new();
    if !f.python {
        out.push("Python 3 (python3): from your system's packages");
    }
    if f.python && !f.python_chess {
        out.push("python-chess: python3 -m pip install chess");
    }
    if f.python && !f.selenium {
        out.push("selenium: python3 -m pip install selenium");
    }
    if f.chromium.is_none() {
        out.push("Chromium or Chrome: apt-get install chromium (or set VARSAND_CHROMIUM)");
    }
    if f.chromedriver.is_none() {
        out.push("chromedriver: apt-get install chromium-driver (or set VARSAND_CHROMEDRIVER)");
    }
    if !f.npx {
        out.push("Node.js with npm and npx: apt-get install nodejs npm");
    }
    if f.python && !f.python_package {
        out.push(
            "maturin, pytest, numpy, pettingzoo, ray: python3 -m pip install maturin pytest numpy pettingzoo ray",
        );
    }
    out
}

fn has(tool: Tool) -> bool {
    let f = found();
    match tool {
        Tool::Python => f.python,
        Tool::PythonChess => f.python_chess,
        Tool::Browser => f.selenium && f.chromium.is_some() && f.chromedriver.is_some(),
        Tool::Node => f.npx,
        Tool::PythonPackage => f.python_package,
    }
}

/// Whether the tests needing `tool` can run here. Missing under CI: the test fails.
/// Missing elsewhere: false (the caller returns), after the run's first such test
/// has said what is missing.
#[track_caller]
pub fn available(tool: Tool) -> bool {
    if has(tool) {
        return true;
    }
    let what = missing().join("\n  ");
    assert!(
        std::env::var_os("CI").is_none(),
        "{tool:?} is missing, and CI runs every test:\n  {what}"
    );
    say_once(&what);
    false
}

/// Says what is missing once per `cargo test` run: test binaries are run one after
/// another by the same cargo process, so the first to create a marker named after it
/// speaks. Written past the test harness's capture, so that it is seen.
fn say_once(what: &str) {
    let marker = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "missing-tools-{}",
        std::os::unix::process::parent_id()
    ));
    let first = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(marker)
        .is_ok();
    if first {
        let _ = writeln!(
            std::io::stderr(),
            "\nnote: some tests are skipped, since these tools are missing (CI installs them all):\n  {what}\n"
        );
    }
}

/// The browser and its driver, for the browser scripts (`VARSAND_CHROMIUM`,
/// `VARSAND_CHROMEDRIVER` in their environment).
pub fn browser_paths() -> Option<(PathBuf, PathBuf)> {
    let f = found();
    Some((f.chromium.clone()?, f.chromedriver.clone()?))
}
