//! A `varsand serve` process for the web board's tests, and a few lines of HTTP to
//! talk to it over a socket on 127.0.0.1.
//!
//! Every server plays on its own copy of a rule file (the tests rewrite it) on a port
//! of its own (`--port 0`), and is killed when its test ends.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

use serde_json::Value;

/// The longest a test waits for an answer it expects.
pub const ANSWER_DEADLINE: Duration = Duration::from_secs(30);

/// A `varsand serve` process and its address.
pub struct Server {
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
    pub url: String,
    /// The rule file it follows (a copy the test may rewrite).
    pub file: PathBuf,
    folder: PathBuf,
}

impl Server {
    /// Serves a copy of `variant` (in a folder of its own, named after `test`).
    pub fn start(variant: &str, test: &str) -> Server {
        let (file, folder) = copy_of(variant, test);
        Server::serve(file, folder)
    }

    /// Serves `file`; `folder`, unless empty, is removed when the server is dropped.
    pub fn serve(file: PathBuf, folder: PathBuf) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_varsand"));
        command.args(["serve", "--port", "0", "--movetime", "100"]);
        command.arg(&file);
        Server::spawn(command, file, folder)
    }

    /// Serves a copy of `variant` in a process that may open at most `files` files
    /// (sockets included), set by the shell's `ulimit -n` before it becomes the server.
    pub fn start_with_file_limit(variant: &str, test: &str, files: u32) -> Server {
        let (file, folder) = copy_of(variant, test);
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!(
                r#"ulimit -n {files} && exec "$0" serve --port 0 --movetime 100 "$1""#
            ))
            .arg(env!("CARGO_BIN_EXE_varsand"))
            .arg(&file);
        Server::spawn(command, file, folder)
    }

    fn spawn(mut command: Command, file: PathBuf, folder: PathBuf) -> Server {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cannot start varsand serve");
        let url = first_line(&mut child);
        let address = url
            .strip_prefix("http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("the first line is not the address: {url:?}"))
            .to_string();
        Server {
            child,
            address,
            url,
            file,
            folder,
        }
    }

    pub fn socket_address(&self) -> SocketAddr {
        self.address.parse().unwrap()
    }

    /// A new connection whose reads give up after `patience`.
    pub fn connect(&self, patience: Duration) -> io::Result<TcpStream> {
        let stream = TcpStream::connect_timeout(&self.socket_address(), patience)?;
        stream.set_read_timeout(Some(patience))?;
        stream.set_write_timeout(Some(patience))?;
        Ok(stream)
    }

    /// The text of a request with a `Content-Length` and, unless `headers` has one,
    /// this server's `Host`.
    pub fn request_text(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> String {
        let mut head = format!(
            "{method} {path} HTTP/1.0\r\nContent-Length: {}\r\nContent-Type: application/json\r\n",
            body.len()
        );
        if !headers.iter().any(|(name, _)| *name == "Host") {
            head += &format!("Host: {}\r\n", self.address);
        }
        for (name, value) in headers {
            head += &format!("{name}: {value}\r\n");
        }
        format!("{head}\r\n{body}")
    }

    /// A request answered within `patience`: the status and the body.
    pub fn try_request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
        patience: Duration,
    ) -> io::Result<(u16, String)> {
        let mut stream = self.connect(patience)?;
        stream.write_all(self.request_text(method, path, headers, body).as_bytes())?;
        read_answer(&mut stream)
    }

    /// A request; the status and the body.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> (u16, String) {
        self.try_request(method, path, headers, body, ANSWER_DEADLINE)
            .unwrap_or_else(|e| panic!("{method} {path}: no answer: {e}"))
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, &[], "")
    }

    /// A request that must succeed with a state; the state.
    pub fn state_after(&self, method: &str, path: &str, body: &str) -> Value {
        let (status, body) = self.request(method, path, &[], body);
        assert_eq!(status, 200, "{method} {path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    pub fn state(&self) -> Value {
        self.state_after("GET", "/state", "")
    }

    pub fn play(&self, text: &str) -> Value {
        self.state_after("POST", "/move", &format!(r#"{{"move": "{text}"}}"#))
    }

    pub fn rewrite(&self, text: &str) {
        std::fs::write(&self.file, text).unwrap();
    }

    /// Panics if the server has stopped, with how it stopped.
    pub fn assert_alive(&mut self) {
        if let Some(status) = self.child.try_wait().unwrap() {
            panic!("the server stopped: {status}");
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if self.folder != PathBuf::new() {
            let _ = std::fs::remove_dir_all(&self.folder);
        }
    }
}

/// A copy of `variant` in a new folder named after `test`: the file and the folder.
fn copy_of(variant: &str, test: &str) -> (PathBuf, PathBuf) {
    let folder = std::env::temp_dir().join(format!("varsand-web-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join(Path::new(variant).file_name().unwrap());
    std::fs::copy(variant, &file).unwrap();
    (file, folder)
}

/// Reads an answer to its end: the status (0 if the first line has none) and the body.
pub fn read_answer(stream: &mut TcpStream) -> io::Result<(u16, String)> {
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer)?;
    let answer = String::from_utf8_lossy(&answer);
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Ok((status, body.to_string()))
}

/// The first line a child prints, within ten seconds.
fn first_line(child: &mut Child) -> String {
    let out = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(out).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(Duration::from_secs(10));
    line.expect("varsand serve printed no address")
        .trim()
        .to_string()
}

/// The strings of a JSON array.
pub fn texts(value: &serde_json::Value) -> Vec<&str> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect()
}
