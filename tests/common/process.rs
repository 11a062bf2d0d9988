//! Running the `varsand` binary from a test: bytes in, output back, a deadline, and
//! temporary folders that clean up after themselves.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_varsand");

/// A path inside the repository.
pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A fresh folder under the system temporary directory, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "varsand-test-{}-{name}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a temporary folder");
        TempDir(dir)
    }

    pub fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `varsand ARGS...` in the repository's folder with `input` on standard
/// input, killing it (and failing the test) after `deadline`. Also returns how long
/// it ran.
pub fn run_with_deadline(args: &[&str], input: &[u8], deadline: Duration) -> (Output, Duration) {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start varsand");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = pipe.read_to_end(&mut v);
            v
        })
    };
    let out = reader(Box::new(child.stdout.take().expect("stdout")));
    let err = reader(Box::new(child.stderr.take().expect("stderr")));
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("varsand {args:?} did not finish within {deadline:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = start.elapsed();
    let _ = writer.join();
    let output = Output {
        status,
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    };
    (output, took)
}

/// Runs `varsand ARGS...` with `stdin` (or nothing) on standard input.
pub fn varsand(args: &[&str], stdin: Option<&str>) -> Output {
    run(args, stdin.unwrap_or("").as_bytes())
}

/// [`run_with_deadline`] with a minute's deadline.
pub fn run(args: &[&str], input: &[u8]) -> Output {
    run_with_deadline(args, input, Duration::from_secs(60)).0
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Exit status 101 is a Rust panic: never acceptable.
#[track_caller]
pub fn assert_no_panic(out: &Output) {
    let err = text(&out.stderr);
    assert_ne!(out.status.code(), Some(101), "panicked:\n{err}");
    assert!(!err.contains("panicked"), "panicked:\n{err}");
}

#[track_caller]
pub fn assert_has(haystack: &str, needle: &str) {
    assert!(
        haystack.contains(needle),
        "expected to find:\n{needle}\n--- in:\n{}",
        &haystack[..haystack.len().min(4000)]
    );
}
