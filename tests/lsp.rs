//! The language server, as an editor speaks to it: a JSON-RPC client in the test
//! starts `varsand lsp`, opens a file with a mistake, receives the diagnostic at the
//! right range, fixes it and sees it cleared, asks for hover, completion, definition
//! and references, and shuts the server down.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_varsand"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("varsand lsp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Client {
            child,
            stdin,
            stdout,
            next_id: 1,
        }
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn receive(&mut self) -> Value {
        let mut len = 0;
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "the server closed"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                len = n.parse().unwrap();
            }
        }
        let mut body = vec![0; len];
        self.stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let msg = self.receive();
            if msg["id"] == json!(id) {
                assert!(msg.get("error").is_none(), "{method}: {msg}");
                return msg["result"].clone();
            }
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next diagnostics the server publishes.
    fn diagnostics(&mut self) -> Vec<Value> {
        loop {
            let msg = self.receive();
            if msg["method"] == "textDocument/publishDiagnostics" {
                return msg["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }
}

const URI: &str = "file:///tmp/game.var";

/// A small game; `ZONE` is where the pawn promotes.
fn game(zone: &str) -> String {
    format!(
        r#"game "Tiny"
board 4 x 4
players white black
zone far {{ white: rank 4  black: rank 1 }}
piece King K {{ moves "K"  royal }}
piece Pawn P {{
  moves "fmW fcF"
  promotes on {zone} to K
}}
end {{ checkmate loss  stalemate draw }}
setup "k3/p3/P3/K3 w - - 0 1"
"#
    )
}

fn at(line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}})
}

#[test]
fn an_editor_session() {
    let mut c = Client::start();
    let init = c.request("initialize", json!({"capabilities": {}}));
    assert!(init["capabilities"]["hoverProvider"].as_bool().unwrap());
    c.notify("initialized", json!({}));

    // A mistake: the zone `farr` does not exist.
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "var", "version": 1, "text": game("farr")}}),
    );
    // An error, and a warning: the zone `far` is now used nowhere.
    let d = c.diagnostics();
    assert_eq!(d.len(), 2, "{d:?}");
    assert_eq!(d[1]["code"], "varsand::unused-zone");
    assert_eq!(d[1]["severity"], 2);
    assert_eq!(d[0]["code"], "varsand::unknown-zone");
    assert_eq!(d[0]["severity"], 1);
    assert_eq!(
        d[0]["range"],
        json!({"start": {"line": 7, "character": 14}, "end": {"line": 7, "character": 18}})
    );
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .contains("did you mean `far`?")
    );

    // Fixed: the diagnostics are cleared.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": game("far")}]}),
    );
    assert_eq!(c.diagnostics(), Vec::<Value>::new());

    // Hover on `Pawn`: its moves in words.
    let h = c.request("textDocument/hover", at(5, 7));
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains("piece Pawn") && text.contains("fmW fcF"),
        "{text}"
    );
    // Hover on the zone: its squares.
    let h = c.request("textDocument/hover", at(3, 6));
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains("a4 b4 c4 d4") && text.contains("a1 b1 c1 d1"),
        "{text}"
    );

    // Completion inside a piece: its properties and the declared names.
    let items = c.request("textDocument/completion", at(6, 2));
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"royal") && labels.contains(&"promotes") && labels.contains(&"far"),
        "{labels:?}"
    );
    assert!(
        !labels.contains(&"board"),
        "no declaration inside a piece: {labels:?}"
    );
    // Inside a move string: Betza atoms.
    let items = c.request("textDocument/completion", at(6, 10));
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"N") && labels.contains(&"m"), "{labels:?}");

    // Go to definition of `far` in the promotion: the zone's declaration.
    let def = c.request("textDocument/definition", at(7, 15));
    assert_eq!(def["range"]["start"], json!({"line": 3, "character": 5}));
    // References: the declaration and the use.
    let refs = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": URI}, "position": {"line": 3, "character": 6}, "context": {"includeDeclaration": true}}),
    );
    assert_eq!(refs.as_array().unwrap().len(), 2, "{refs}");
    // The outline.
    let symbols = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["far", "King", "Pawn"]);

    c.request("shutdown", Value::Null);
    c.notify("exit", Value::Null);
    let status = c.child.wait().unwrap();
    assert!(status.success());
}
