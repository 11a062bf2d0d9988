//! A JSON-RPC client of `varsand lsp` for the tests: it starts the real binary, writes
//! frames (well-formed or not) to its standard input and reads its answers on a thread,
//! so that a server that hangs fails the test after a timeout instead of blocking it.
#![allow(dead_code)] // each test file uses its own part

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long an answer may take before the test fails (generous: the machine may be
/// loaded, and a hung server must still end the test).
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

pub struct Client {
    pub child: Child,
    stdin: Option<ChildStdin>,
    /// The messages the server writes, read by a thread; `Err` when a frame is broken.
    messages: Receiver<Result<Value, String>>,
    /// Everything the server writes to standard error, once it has exited.
    stderr: Option<JoinHandle<String>>,
    pub next_id: i64,
}

impl Client {
    /// Starts `varsand lsp` without initializing it.
    pub fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_varsand"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("varsand lsp starts");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut stderr = child.stderr.take().unwrap();
        let (tx, messages) = channel();
        std::thread::spawn(move || {
            let mut stdout = stdout;
            while let Some(msg) = read_frame(&mut stdout) {
                let failed = msg.is_err();
                if tx.send(msg).is_err() || failed {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        Client {
            child,
            stdin,
            messages,
            stderr: Some(stderr),
            next_id: 1,
        }
    }

    /// Starts the server and goes through `initialize` and `initialized`.
    pub fn initialized() -> Client {
        let mut c = Client::start();
        let init = c.request("initialize", json!({"capabilities": {}}));
        assert!(init["capabilities"]["hoverProvider"].as_bool().unwrap());
        c.notify("initialized", json!({}));
        c
    }

    /// Writes bytes as they are, framed or not.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("standard input is open");
        stdin.write_all(bytes).expect("the server reads its input");
        stdin.flush().unwrap();
    }

    /// Writes a body with its right `Content-Length`.
    pub fn send_body(&mut self, body: &[u8]) {
        let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        frame.extend_from_slice(body);
        self.send_raw(&frame);
    }

    pub fn send(&mut self, msg: Value) {
        self.send_body(msg.to_string().as_bytes());
    }

    /// Closes the server's standard input.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next message the server writes.
    pub fn receive(&mut self) -> Value {
        match self.messages.recv_timeout(ANSWER_TIMEOUT) {
            Ok(Ok(msg)) => msg,
            Ok(Err(e)) => panic!("the server wrote a broken frame: {e}"),
            Err(RecvTimeoutError::Timeout) => panic!("no message within {ANSWER_TIMEOUT:?}"),
            Err(RecvTimeoutError::Disconnected) => {
                panic!("the server closed; {}", self.exit_report())
            }
        }
    }

    /// Sends a request and returns the whole response (result or error); the
    /// notifications before it are dropped.
    pub fn request_full(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response_to(&json!(id))
    }

    /// The response with this id; the notifications before it are dropped, and a
    /// response to another id fails the test.
    pub fn response_to(&mut self, id: &Value) -> Value {
        loop {
            let msg = self.receive();
            assert_valid_jsonrpc(&msg);
            if msg.get("method").is_some() {
                continue; // a notification
            }
            assert_eq!(&msg["id"], id, "an answer to another request: {msg}");
            return msg;
        }
    }

    /// The result of a request, which must succeed.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let msg = self.request_full(method, params);
        assert!(msg.get("error").is_none(), "{method}: {msg}");
        msg["result"].clone()
    }

    /// The error of a request, which must fail: its code and message.
    pub fn request_error(&mut self, method: &str, params: Value) -> (i64, String) {
        let msg = self.request_full(method, params);
        error_of(&msg)
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next diagnostics the server publishes.
    pub fn diagnostics(&mut self) -> Vec<Value> {
        loop {
            let msg = self.receive();
            if msg["method"] == "textDocument/publishDiagnostics" {
                return msg["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }

    /// Opens a document and waits for its diagnostics.
    pub fn open(&mut self, uri: &str, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "var", "version": 1, "text": text}}),
        );
        self.diagnostics()
    }

    /// True while the server has not exited.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Waits for the server to exit (at most the timeout): its status and standard error.
    pub fn wait_exit(&mut self) -> (ExitStatus, String) {
        self.close_input();
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > ANSWER_TIMEOUT {
                let _ = self.child.kill();
                panic!("the server did not exit within {ANSWER_TIMEOUT:?}");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let stderr = self
            .stderr
            .take()
            .map(|h| h.join().unwrap())
            .unwrap_or_default();
        (status, stderr)
    }

    /// Shuts the server down as an editor does; it must exit with success and have
    /// written nothing to standard error.
    pub fn shut_down(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        let (status, stderr) = self.wait_exit();
        assert!(status.success(), "{status}; standard error: {stderr}");
        assert_eq!(stderr, "", "the server wrote to standard error");
    }

    fn exit_report(&mut self) -> String {
        match self.child.try_wait() {
            Ok(Some(status)) => {
                let stderr = self
                    .stderr
                    .take()
                    .map(|h| h.join().unwrap())
                    .unwrap_or_default();
                format!("exit status {status}; standard error: {stderr}")
            }
            _ => "still running".into(),
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads one frame: `None` at the end of the stream, `Err` when it is broken.
fn read_frame(r: &mut impl BufRead) -> Option<Result<Value, String>> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        if !line.ends_with("\r\n") {
            return Some(Err(format!("a header line not ended by CRLF: {line:?}")));
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        match line.strip_prefix("Content-Length: ") {
            Some(n) => len = n.parse::<usize>().ok(),
            None => return Some(Err(format!("an unknown header: {line:?}"))),
        }
    }
    let Some(len) = len else {
        return Some(Err("a frame without Content-Length".into()));
    };
    let mut body = vec![0; len];
    r.read_exact(&mut body).ok()?;
    Some(serde_json::from_slice(&body).map_err(|e| format!("{e}: {body:?}")))
}

/// Fails unless the message is a JSON-RPC 2.0 response or notification as a server
/// may send: a response has an id and exactly one of `result` and `error` (a code and
/// a message); a notification has a method and no id.
pub fn assert_valid_jsonrpc(msg: &Value) {
    assert_eq!(msg["jsonrpc"], "2.0", "{msg}");
    let obj = msg.as_object().expect("an object");
    if obj.contains_key("method") {
        assert!(msg["method"].is_string(), "{msg}");
        assert!(
            !obj.contains_key("id"),
            "the server sends no requests: {msg}"
        );
        return;
    }
    let id = &msg["id"];
    assert!(
        obj.contains_key("id") && (id.is_null() || id.is_i64() || id.is_string()),
        "{msg}"
    );
    assert!(
        obj.contains_key("result") != obj.contains_key("error"),
        "{msg}"
    );
    if let Some(e) = obj.get("error") {
        assert!(e["code"].is_i64() && e["message"].is_string(), "{msg}");
    }
}

/// The code and message of an error response.
pub fn error_of(msg: &Value) -> (i64, String) {
    let e = msg
        .get("error")
        .unwrap_or_else(|| panic!("an error was expected: {msg}"));
    (
        e["code"].as_i64().unwrap(),
        e["message"].as_str().unwrap().to_string(),
    )
}
