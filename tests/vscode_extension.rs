//! The VS Code extension (`editors/vscode`) packages without a question: its
//! `vscode` engine is one its language client supports, it has a licence, and the
//! packaging command of the README (`npx @vscode/vsce package
//! --allow-missing-repository`) asks nothing. Needs Node.js with npm (and the npm
//! registry): skipped with a note where they are missing, required under CI.

mod common;

use std::process::{Command, Stdio};

use common::process::TempDir;
use common::tools::{Tool, available};

/// Copies the extension's files into `to` (not a `node_modules` left behind).
fn copy_extension(from: &std::path::Path, to: &std::path::Path) {
    for entry in std::fs::read_dir(from).expect("editors/vscode") {
        let entry = entry.expect("an entry");
        let name = entry.file_name();
        if name == "node_modules" || name.to_string_lossy().ends_with(".vsix") {
            continue;
        }
        let target = to.join(&name);
        if entry.file_type().expect("a type").is_dir() {
            std::fs::create_dir_all(&target).expect("a folder");
            copy_extension(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("a copy");
        }
    }
}

fn run(dir: &std::path::Path, program: &str, args: &[&str]) -> (bool, String) {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn the_editor_extension_packages_without_a_question() {
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/vscode");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(source.join("package.json")).unwrap())
            .expect("package.json is JSON");
    // vscode-languageclient 9 needs VS Code 1.82 or later.
    assert_eq!(manifest["engines"]["vscode"], "^1.82.0");
    assert!(
        source.join("LICENSE").is_file(),
        "a licence file beside package.json"
    );
    if !available(Tool::Node) {
        return;
    }
    let dir = TempDir::new("vscode-extension");
    copy_extension(&source, dir.0.as_path());
    let (ok, text) = run(
        dir.0.as_path(),
        "npm",
        &["install", "--no-audit", "--no-fund"],
    );
    assert!(ok, "npm install failed:\n{text}");
    let (ok, text) = run(
        dir.0.as_path(),
        "npx",
        &[
            "--yes",
            "@vscode/vsce",
            "package",
            "--allow-missing-repository",
        ],
    );
    assert!(ok, "vsce package failed:\n{text}");
    assert!(
        text.contains("DONE") && text.contains("varsand-0.1.0.vsix"),
        "{text}"
    );
    for question in ["[y/N]", "Do you want to continue"] {
        assert!(!text.contains(question), "it asked: {text}");
    }
}
