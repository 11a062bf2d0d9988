//! The Python package (python/): built with maturin from this tree, in this run's
//! profile and target folder (so the library is not compiled again), unpacked into a
//! temporary folder, then its pytest tests (python/tests) run against the binary this
//! run built: the package against the command line on every shipped game,
//! PettingZoo's API test, and a Ray run on a local cluster.
//!
//! Skipped (said once) when maturin, pytest, numpy, pettingzoo or ray is missing;
//! under CI, a failure.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::process::text;
use common::tools::{Tool, available};

/// The profile this test binary was built in, read from its path
/// (target/PROFILE/deps/python-HASH): the extension is built in the same one.
fn profile() -> String {
    let exe = std::env::current_exe().expect("the test binary's path");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned());
    match dir.as_deref() {
        Some("debug") | None => "dev".to_string(),
        Some(p) => p.to_string(),
    }
}

/// Runs a command in the repository; its output and errors when it succeeds, else
/// the test fails with them.
fn run(what: &str, cmd: &mut Command) -> (String, String) {
    let out = cmd
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{what} failed:\n{stdout}\n{stderr}");
    (stdout, stderr)
}

/// Builds the wheel and unpacks it: the folder to put on `PYTHONPATH`.
fn build_package() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("python-package");
    let wheels = tmp.join("wheels");
    let site = tmp.join("site");
    let _ = std::fs::remove_dir_all(&tmp);
    let (_, log) = run(
        "maturin build",
        Command::new("python3")
            .args([
                "-m",
                "maturin",
                "build",
                "--manifest-path",
                "python/Cargo.toml",
                "--profile",
                &profile(),
                "--out",
            ])
            .arg(&wheels),
    );
    // The library was compiled by this test build, with the same features (see
    // pyo3-macros in Cargo.toml): only the extension compiles.
    assert!(
        !log.contains("Compiling varsand v"),
        "maturin compiled the library again: its dependencies' features differ from the test build's\n{log}"
    );
    let wheel = std::fs::read_dir(&wheels)
        .expect("maturin wrote its wheel")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .expect("a wheel");
    // A wheel is a zip of the installed files: unpacked, it is installed.
    run(
        "unpacking the wheel",
        Command::new("python3")
            .args([
                "-c",
                "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])",
            ])
            .arg(&wheel)
            .arg(&site),
    );
    site
}

#[test]
fn the_python_package_passes_its_tests() {
    if !available(Tool::PythonPackage) {
        return;
    }
    let site = build_package();
    let (out, _) = run(
        "pytest python/tests",
        Command::new("python3")
            .args([
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "python/tests",
            ])
            .env("PYTHONPATH", &site)
            .env("VARSAND_BIN", env!("CARGO_BIN_EXE_varsand"))
            // Ray's workers start with the driver's environment; no usage report.
            .env("RAY_USAGE_STATS_ENABLED", "0"),
    );
    assert!(out.contains(" passed"), "{out}");
    assert!(
        !out.contains(" skipped"),
        "every Python test runs here:\n{out}"
    );
}
