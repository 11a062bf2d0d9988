//! The language server under random input: one `varsand lsp` process receives a few
//! thousand frames — junk bytes, broken headers, random JSON, mutated messages, and
//! valid requests at random positions in mutated game files (emoji, CJK, CRLF, random
//! insertions and deletions) — interleaved with a request whose answer is known. After
//! each batch the server must still answer it rightly; it must never exit, write to
//! standard error (a panic) or send a message that is not JSON-RPC, and every response
//! must carry the id of a request sent. Deterministic (a fixed seed), bounded in count
//! and in time.

mod common;
mod lsp_client;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use common::{Rng, game_files};
use lsp_client::{Client, assert_valid_jsonrpc};
use serde_json::{Value, json};

/// How many frames at most, and for how long at most, the fuzzer sends.
const MAX_FRAMES: usize = 4000;
const MAX_TIME: Duration = Duration::from_secs(8);
/// Frames per batch, between two checks that the server still answers rightly.
const BATCH: usize = 40;
/// The most a fuzzed `Content-Length` exceeds its body: the padding sent before each
/// check completes such a body, so that the check's request is not swallowed.
const MAX_EXTRA_LENGTH: usize = 16;

/// The document the checks ask about; the fuzzer never names it.
const SANE_URI: &str = "file:///sane/chess.var";

/// The fuzzer's state: its random numbers, the texts it mutates, and every id a
/// response may carry.
struct Fuzzer {
    rng: Rng,
    texts: Vec<String>,
    /// The ids of the bodies sent (the first JSON value of each, as the server reads).
    ids_sent: HashSet<String>,
    /// Requests that are well-formed: their answers must not be errors.
    well_formed: HashSet<String>,
    next_id: i64,
    /// The fuzzed documents' URIs and their line counts.
    open: Vec<(String, usize)>,
}

#[test]
fn the_language_server_survives_random_frames() {
    let mut c = Client::initialized();
    let chess = std::fs::read_to_string(sane_file()).unwrap();
    c.open(SANE_URI, &chess);
    let mut f = Fuzzer::new();
    let start = Instant::now();
    let (mut sent, mut checks) = (0, 0);
    while sent < MAX_FRAMES && start.elapsed() < MAX_TIME {
        for _ in 0..BATCH {
            let frame = f.frame();
            c.send_raw(&frame);
            sent += 1;
        }
        checks += 1;
        check_still_serves(&mut c, &mut f, checks);
    }
    eprintln!("{sent} frames, {checks} checks in {:?}", start.elapsed());
    assert!(sent >= BATCH * 5, "too few frames in the time: {sent}");
    c.shut_down();
}

/// chess.var, where line 10 declares `King`.
fn sane_file() -> std::path::PathBuf {
    game_files()
        .into_iter()
        .find(|p| p.ends_with("variants/chess.var"))
        .expect("variants/chess.var")
}

/// Pads out a body left waiting for bytes, asks the known question, and reads every
/// message up to its answer: each must be valid JSON-RPC with an id that was sent.
fn check_still_serves(c: &mut Client, f: &mut Fuzzer, n: usize) {
    c.send_raw(&[b'\n'; MAX_EXTRA_LENGTH + 2]);
    let id = format!("sane-{n}");
    let hover =
        json!({"textDocument": {"uri": SANE_URI}, "position": {"line": 10, "character": 7}});
    c.send(json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": hover}));
    loop {
        let msg = c.receive();
        assert_valid_jsonrpc(&msg);
        if msg.get("method").is_some() {
            continue;
        }
        let got = &msg["id"];
        if got == &json!(id) {
            let text = msg["result"]["contents"]["value"]
                .as_str()
                .unwrap_or_default();
            assert!(text.contains("piece King"), "check {n}: {msg}");
            break;
        }
        f.assert_expected(&msg);
    }
    assert!(c.is_running(), "the server exited");
}

impl Fuzzer {
    fn new() -> Self {
        let texts = game_files()
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect();
        Fuzzer {
            rng: Rng::new(20260501),
            texts,
            ids_sent: HashSet::new(),
            well_formed: HashSet::new(),
            next_id: 1000,
            open: Vec::new(),
        }
    }

    /// A response must answer a body sent (or be an error with a null id), and a
    /// well-formed request must not be answered with an error.
    fn assert_expected(&self, msg: &Value) {
        let id = &msg["id"];
        if id.is_null() {
            assert!(msg.get("error").is_some(), "a result with a null id: {msg}");
            return;
        }
        let key = id.to_string();
        assert!(self.ids_sent.contains(&key), "an id never sent: {msg}");
        if self.well_formed.contains(&key) {
            assert!(
                msg.get("error").is_none(),
                "an error for a good request: {msg}"
            );
        }
    }

    /// One frame of some kind.
    fn frame(&mut self) -> Vec<u8> {
        match self.rng.below(100) {
            0..10 => self.junk(),
            10..20 => {
                let body = self.random_json().to_string();
                self.broken_header(body.into_bytes())
            }
            20..35 => {
                let body = self.random_json().to_string().into_bytes();
                self.framed(body)
            }
            35..50 => {
                let body = self.valid_message().to_string().into_bytes();
                let body = self.mutate_bytes(body);
                self.framed(body)
            }
            50..60 => {
                let body = self.document_change().to_string().into_bytes();
                self.framed(body)
            }
            _ => {
                let body = self.valid_request().to_string().into_bytes();
                self.framed(body)
            }
        }
    }

    /// A body with its right length; its id, if it has one, is recorded.
    fn framed(&mut self, body: Vec<u8>) -> Vec<u8> {
        self.record_id(&body);
        let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        frame.extend(body);
        frame
    }

    fn record_id(&mut self, body: &[u8]) {
        let mut values = serde_json::Deserializer::from_slice(body).into_iter::<Value>();
        if let Some(Ok(Value::Object(obj))) = values.next()
            && let Some(id) = obj.get("id")
        {
            self.ids_sent.insert(id.to_string());
        }
    }

    /// Random bytes, sometimes with line ends and pieces of headers.
    fn junk(&mut self) -> Vec<u8> {
        let pieces: [&[u8]; 6] = [
            b"\r\n",
            b"\n",
            b"\r\n\r\n",
            b"Content-",
            b"Length: ",
            b"{\"",
        ];
        let mut out = Vec::new();
        for _ in 0..self.rng.below(12) {
            if self.rng.chance(30) {
                out.extend_from_slice(pieces[self.rng.below(pieces.len())]);
            } else {
                out.extend((0..self.rng.below(30)).map(|_| self.rng.next() as u8));
            }
        }
        out
    }

    /// A frame whose header is wrong: no length, a length that is no number, or a
    /// length a little too short or too long.
    fn broken_header(&mut self, body: Vec<u8>) -> Vec<u8> {
        self.record_id(&body);
        let len = body.len();
        let header = match self.rng.below(6) {
            0 => "Content-Type: application/vscode-jsonrpc\r\n\r\n".to_string(),
            1 => format!("Content-Length: -{len}\r\n\r\n"),
            2 => format!("Content-Length: {len}x\r\n\r\n"),
            3 => "Content-Length: 184467440737095516160\r\n\r\n".to_string(),
            4 => format!(
                "Content-Length: {}\r\n\r\n",
                len.saturating_sub(1 + self.rng.below(len.max(1)))
            ),
            _ => format!(
                "content-length: {}\r\n\r\n",
                len + 1 + self.rng.below(MAX_EXTRA_LENGTH)
            ),
        };
        let mut frame = header.into_bytes();
        frame.extend(body);
        frame
    }

    /// Any JSON: messages' member names with random values, arrays, scalars.
    fn random_json(&mut self) -> Value {
        self.random_value(0)
    }

    fn random_value(&mut self, depth: usize) -> Value {
        let leaf = depth >= 3;
        match self.rng.below(if leaf { 5 } else { 7 }) {
            0 => Value::Null,
            1 => json!(self.rng.chance(50)),
            2 => json!(self.rng.next() as i64 >> self.rng.below(64)),
            3 => json!(self.rng.below(1000) as f64 / 7.0),
            4 => json!(self.random_method()),
            5 => Value::Array(
                (0..self.rng.below(4))
                    .map(|_| self.random_value(depth + 1))
                    .collect(),
            ),
            _ => {
                let names = [
                    "jsonrpc",
                    "id",
                    "method",
                    "params",
                    "result",
                    "error",
                    "textDocument",
                    "position",
                    "line",
                    "character",
                    "uri",
                ];
                let mut obj = serde_json::Map::new();
                for _ in 0..self.rng.below(6) {
                    let name = names[self.rng.below(names.len())];
                    let value = match name {
                        "jsonrpc" if self.rng.chance(70) => json!("2.0"),
                        "method" if self.rng.chance(70) => json!(self.random_method()),
                        "id" if self.rng.chance(70) => json!(self.fresh_id()),
                        _ => self.random_value(depth + 1),
                    };
                    obj.insert(name.into(), value);
                }
                Value::Object(obj)
            }
        }
    }

    /// A method name, never `shutdown` or `exit` (they would end the session).
    fn random_method(&mut self) -> &'static str {
        let methods = [
            "textDocument/hover",
            "textDocument/completion",
            "textDocument/definition",
            "textDocument/references",
            "textDocument/documentSymbol",
            "textDocument/didOpen",
            "textDocument/didChange",
            "initialize",
            "initialized",
            "$/cancelRequest",
            "workspace/symbol",
            "",
            "💥",
        ];
        methods[self.rng.below(methods.len())]
    }

    fn fresh_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    /// Opens or changes a fuzzed document with a mutated game file.
    fn document_change(&mut self) -> Value {
        let text = self.texts[self.rng.below(self.texts.len())].clone();
        let text = self.mutate_text(text);
        let lines = text.lines().count();
        if self.open.is_empty() || self.rng.chance(30) {
            let uri = format!("file:///fuzz/{}.var", self.open.len());
            self.open.push((uri.clone(), lines));
            json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "var", "version": 1, "text": text}}})
        } else {
            let k = self.rng.below(self.open.len());
            self.open[k].1 = lines;
            let uri = self.open[k].0.clone();
            json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text}]}})
        }
    }

    /// A well-formed request at a random position of a fuzzed document (or of one that
    /// is not open); its answer must not be an error.
    fn valid_request(&mut self) -> Value {
        let (uri, lines) = match self.open.len() {
            0 => ("file:///fuzz/none.var".to_string(), 1),
            n => self.open[self.rng.below(n)].clone(),
        };
        let line = match self.rng.below(20) {
            0 => u32::MAX,
            _ => self.rng.below(lines + 3) as u32,
        };
        let character = match self.rng.below(20) {
            0 => u32::MAX,
            _ => self.rng.below(60) as u32,
        };
        let at = json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
        let (method, params) = match self.rng.below(5) {
            0 => ("textDocument/hover", at),
            1 => ("textDocument/completion", at),
            2 => ("textDocument/definition", at),
            3 => {
                let mut p = at;
                p["context"] = json!({"includeDeclaration": true});
                ("textDocument/references", p)
            }
            _ => (
                "textDocument/documentSymbol",
                json!({"textDocument": {"uri": uri}}),
            ),
        };
        let id = self.fresh_id();
        self.well_formed.insert(id.to_string());
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    }

    /// A valid request or a document change, to be mutated.
    fn valid_message(&mut self) -> Value {
        let msg = if self.rng.chance(50) {
            self.valid_request()
        } else {
            self.document_change()
        };
        // Its id is now whatever the mutation leaves: not a well-formed request.
        if let Some(id) = msg.get("id") {
            self.well_formed.remove(&id.to_string());
        }
        msg
    }

    /// Flips, inserts or deletes a few bytes.
    fn mutate_bytes(&mut self, mut body: Vec<u8>) -> Vec<u8> {
        for _ in 0..=self.rng.below(4) {
            let at = self.rng.below(body.len() + 1);
            match self.rng.below(3) {
                0 if at < body.len() => body[at] = self.rng.next() as u8,
                1 if at < body.len() => {
                    body.remove(at);
                }
                _ => body.insert(at, b"{}[]\":,0\\"[self.rng.below(9)]),
            }
        }
        body
    }

    /// Inserts emoji, CJK, line ends and random characters, or deletes a stretch.
    fn mutate_text(&mut self, mut text: String) -> String {
        let inserts = [
            "😀", "漢字", "\r\n", "\r", "\n", "é", "{", "}", "\"", "//", "\u{0}", "piece", " x ",
        ];
        for _ in 0..=self.rng.below(8) {
            let mut at = self.rng.below(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            if self.rng.chance(30) {
                let mut end = (at + self.rng.below(40)).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                text.replace_range(at..end, "");
            } else if self.rng.chance(50) {
                text.insert_str(at, inserts[self.rng.below(inserts.len())]);
            } else {
                text.insert(at, char::from(b' ' + self.rng.below(95) as u8));
            }
        }
        text
    }
}
