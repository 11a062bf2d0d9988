//! The language server, as an editor speaks to it: a JSON-RPC client in the test
//! starts `varsand lsp`, opens a file with a mistake, receives the diagnostic at the
//! right range, fixes it and sees it cleared, asks for hover, completion, definition
//! and references, and shuts the server down.

mod lsp_client;

use std::time::{Duration, Instant};

use lsp_client::{Client, error_of};
use serde_json::{Value, json};

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
    let mut c = Client::initialized();

    // A mistake: the zone `farr` does not exist.
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "var", "version": 1, "text": game("farr")}}),
    );
    // The error only: the zone `far`, which the error offers in its place, is not
    // also warned about as used nowhere (that would only repeat the error).
    let d = c.diagnostics();
    assert_eq!(d.len(), 1, "{d:?}");
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

    c.shut_down();
}

// ---- robustness: framing, lifecycle, parameters, size ---------------------------------

/// A client with the small game open.
fn session() -> Client {
    let mut c = Client::initialized();
    c.open(URI, &game("far"));
    c
}

/// The server still answers a hover on `Pawn` rightly.
fn assert_serves(c: &mut Client) {
    let h = c.request("textDocument/hover", at(5, 7));
    let text = h["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("piece Pawn"), "{h}");
}

/// The next response has this id and is an error with this code; its message.
fn expect_error(c: &mut Client, id: Value, code: i64) -> String {
    let msg = c.response_to(&id);
    let (got, message) = error_of(&msg);
    assert_eq!(got, code, "{msg}");
    assert!(!message.is_empty(), "{msg}");
    message
}

/// A hover request on `Pawn` with this id, as a body.
fn hover_body(id: i64) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": at(5, 7)})
        .to_string()
}

#[test]
fn a_body_that_is_not_json_is_a_parse_error_and_the_server_goes_on() {
    let mut c = session();
    for body in [
        &b"this is not json {"[..],
        b"",
        b"{\"jsonrpc\": \"2.0\", \"id\": 3,",
        b"\xff\xfe",
    ] {
        c.send_body(body);
        expect_error(&mut c, Value::Null, -32700);
        assert_serves(&mut c);
    }
    c.shut_down();
}

#[test]
fn a_json_array_body_is_an_invalid_request() {
    let mut c = session();
    c.send(json!([{"jsonrpc": "2.0", "id": 50, "method": "shutdown"}]));
    expect_error(&mut c, Value::Null, -32600);
    assert_serves(&mut c);
    c.shut_down();
}

#[test]
fn valid_json_that_is_no_message_is_an_invalid_request_answered_with_its_id() {
    let mut c = session();
    let cases = [
        (json!(42), Value::Null),
        (json!("shutdown"), Value::Null),
        (json!({"jsonrpc": "2.0"}), Value::Null),
        (json!({"jsonrpc": "2.0", "id": 7}), json!(7)),
        (
            json!({"jsonrpc": "2.0", "id": "x", "method": 3}),
            json!("x"),
        ),
        (
            json!({"jsonrpc": "1.0", "id": 8, "method": "shutdown"}),
            json!(8),
        ),
        (json!({"id": 9, "method": "shutdown"}), json!(9)),
        (
            json!({"jsonrpc": "2.0", "id": {"a": 1}, "method": "shutdown"}),
            Value::Null,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1.5, "method": "shutdown"}),
            Value::Null,
        ),
    ];
    for (body, id) in cases {
        c.send(body);
        expect_error(&mut c, id, -32600);
    }
    assert_serves(&mut c);
    c.shut_down();
}

#[test]
fn a_header_block_without_content_length_is_skipped() {
    let mut c = session();
    c.send_raw(b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n");
    assert_serves(&mut c);
    c.send_raw(b"garbage\r\nmore garbage\n\r\n\r\n\r\n");
    assert_serves(&mut c);
    // A long line without an end, then a frame right after it.
    c.send_raw(&vec![b'x'; 100_000]);
    assert_serves(&mut c);
    c.shut_down();
}

#[test]
fn a_content_length_that_is_no_number_is_skipped() {
    let mut c = session();
    for bad in ["abc", "-5", "", "1e3", "0x10", "18446744073709551616"] {
        // The body of the skipped frame is never read as a message.
        c.send_raw(format!("Content-Length: {bad}\r\n\r\n{}", hover_body(900)).as_bytes());
        assert_serves(&mut c);
    }
    // The header's name in any case, its value with spaces, other headers beside it.
    let body = hover_body(901);
    c.send_raw(
        format!(
            "content-type: x\r\nCONTENT-LENGTH:  {} \r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    );
    let h = c.response_to(&json!(901));
    assert!(h["result"]["contents"]["value"].is_string(), "{h}");
    c.shut_down();
}

#[test]
fn a_content_length_too_short_is_a_parse_error_and_the_server_resyncs() {
    let mut c = session();
    let body = hover_body(77);
    c.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len() - 10).as_bytes());
    expect_error(&mut c, Value::Null, -32700);
    assert_serves(&mut c);
    c.shut_down();
}

#[test]
fn a_content_length_too_long_still_reads_the_message_and_the_next_one() {
    let mut c = session();
    let body = hover_body(78);
    c.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len() + 10).as_bytes());
    c.send_raw(format!("Content-Length: {}\r\n\r\n{}", body.len(), hover_body(79)).as_bytes());
    for id in [78, 79] {
        let h = c.response_to(&json!(id));
        assert!(h["result"]["contents"]["value"].is_string(), "{h}");
    }
    c.shut_down();
}

#[test]
fn a_second_shutdown_is_refused_and_the_server_waits_for_exit() {
    let mut c = session();
    assert_eq!(c.request("shutdown", Value::Null), Value::Null);
    let (code, _) = c.request_error("shutdown", Value::Null);
    assert_eq!(code, -32600);
    let (code, _) = c.request_error("textDocument/hover", at(5, 7));
    assert_eq!(code, -32600);
    assert!(c.is_running());
    c.notify("exit", Value::Null);
    let (status, stderr) = c.wait_exit();
    assert!(status.success(), "{status}");
    assert_eq!(stderr, "");
}

#[test]
fn exit_without_shutdown_ends_with_status_1() {
    let mut c = session();
    c.notify("exit", Value::Null);
    let (status, _) = c.wait_exit();
    assert_eq!(status.code(), Some(1));
}

#[test]
fn a_request_before_initialize_is_refused() {
    let mut c = Client::start();
    let (code, _) = c.request_error("textDocument/hover", at(5, 7));
    assert_eq!(code, -32002);
    c.request("initialize", json!({"capabilities": {}}));
    let (code, _) = c.request_error("initialize", json!({"capabilities": {}}));
    assert_eq!(code, -32600);
    c.shut_down();
}

#[test]
fn a_huge_content_length_does_not_abort_the_server() {
    let mut c = session();
    c.send_raw(b"Content-Length: 99999999999999\r\n\r\n{\"jsonrpc\": \"2.0\", \"id\": 5}");
    std::thread::sleep(Duration::from_millis(300));
    assert!(c.is_running(), "the server ended on a huge Content-Length");
    // The body ends early: the end of the input ends the server, cleanly.
    let (status, stderr) = c.wait_exit();
    assert!(status.success(), "{status}; {stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn a_body_over_the_limit_is_skipped_and_refused_with_its_id() {
    let mut c = session();
    let head =
        r#"{"jsonrpc": "2.0", "id": 31, "method": "textDocument/hover", "params": {"pad": ""#;
    let tail = r#""}}"#;
    let mut body = head.as_bytes().to_vec();
    body.resize(varsand::lsp::MAX_LSP_MESSAGE_BYTES + 1 - tail.len(), b'x');
    body.extend_from_slice(tail.as_bytes());
    c.send_body(&body);
    let message = expect_error(&mut c, json!(31), -32600);
    assert!(message.contains("limit"), "{message}");
    assert_serves(&mut c);
    c.shut_down();
}

/// The small game without its last line end, and a last line that ends with a name.
fn game_ending_with_a_name() -> (String, u32, u32) {
    let last = "piece Pawn2 Q { moves \"W\" promotes on far";
    let text = format!("{}\n{last}", game("far").trim_end());
    let line = text.lines().count() as u32 - 1;
    (text, line, last.find("far").unwrap() as u32)
}

#[test]
fn a_line_past_the_end_is_nothing() {
    let (text, last_line, far) = game_ending_with_a_name();
    let mut c = Client::initialized();
    c.open(URI, &text);
    // On the last line, `far` is found.
    let def = c.request("textDocument/definition", at(last_line, far));
    assert_eq!(def["range"]["start"], json!({"line": 3, "character": 5}));
    for line in [last_line + 1, 999, u32::MAX] {
        for character in [0, far, 999] {
            let pos = at(line, character);
            assert_eq!(c.request("textDocument/hover", pos.clone()), Value::Null);
            assert_eq!(
                c.request("textDocument/definition", pos.clone()),
                Value::Null
            );
            let mut refs = pos.clone();
            refs["context"] = json!({"includeDeclaration": true});
            assert_eq!(c.request("textDocument/references", refs), json!([]));
            let items = c.request("textDocument/completion", pos);
            assert!(items.is_null() || items == json!([]), "{items}");
        }
    }
    c.shut_down();
}

#[test]
fn a_column_past_the_end_of_a_line_is_nothing() {
    let (text, last_line, far) = game_ending_with_a_name();
    let mut c = Client::initialized();
    c.open(URI, &text);
    let end = far + 3;
    assert_ne!(
        c.request("textDocument/hover", at(last_line, end)),
        Value::Null
    );
    for character in [end + 1, 999, u32::MAX] {
        let pos = at(last_line, character);
        assert_eq!(c.request("textDocument/hover", pos.clone()), Value::Null);
        assert_eq!(c.request("textDocument/definition", pos), Value::Null);
    }
    c.shut_down();
}

#[test]
fn bad_parameters_are_invalid_params() {
    let mut c = session();
    let doc = json!({"uri": URI});
    let bad = [
        ("textDocument/hover", json!({"textDocument": doc})),
        (
            "textDocument/hover",
            json!({"textDocument": doc, "position": "here"}),
        ),
        (
            "textDocument/hover",
            json!({"textDocument": doc, "position": {"line": -1, "character": 0}}),
        ),
        ("textDocument/hover", Value::Null),
        ("textDocument/hover", json!([1, 2])),
        (
            "textDocument/definition",
            json!({"position": {"line": 1, "character": 0}}),
        ),
        (
            "textDocument/references",
            json!({"textDocument": doc, "position": {"line": 1, "character": 0}}),
        ),
        ("textDocument/completion", json!({"textDocument": 5})),
        ("textDocument/documentSymbol", json!({})),
    ];
    for (method, params) in bad {
        let (code, message) = c.request_error(method, params.clone());
        assert_eq!(code, -32602, "{method} {params}: {message}");
        assert!(!message.is_empty());
    }
    assert_serves(&mut c);
    c.shut_down();
}

#[test]
fn an_unknown_method_is_method_not_found() {
    let mut c = session();
    for method in ["textDocument/rename", "$/unknown", ""] {
        let (code, message) = c.request_error(method, json!({}));
        assert_eq!(code, -32601, "{method}: {message}");
    }
    assert_serves(&mut c);
    c.shut_down();
}

#[test]
fn a_document_that_is_not_open_answers_null() {
    let mut c = session();
    let elsewhere = json!({"textDocument": {"uri": "file:///nowhere.var"}, "position": {"line": 0, "character": 0}});
    assert_eq!(
        c.request("textDocument/hover", elsewhere.clone()),
        Value::Null
    );
    assert_eq!(c.request("textDocument/definition", elsewhere), Value::Null);
    let outline = json!({"textDocument": {"uri": "file:///nowhere.var"}});
    assert_eq!(
        c.request("textDocument/documentSymbol", outline),
        Value::Null
    );
    c.shut_down();
}

#[test]
fn ten_thousand_pieces_answer_outline_hover_definition_and_references_quickly() {
    let mut text = String::from("game \"Many\"\nboard 8 x 8\nplayers white black\n");
    for i in 0..10_000 {
        text += &format!("piece P{i} A {{ moves \"W\" }}\n");
    }
    text += "zone z = a1\n";
    let mut c = Client::initialized();
    c.open(URI, &text);
    let p5000 = at(3 + 5000, 7);
    let mut refs = p5000.clone();
    refs["context"] = json!({"includeDeclaration": true});
    let requests = [
        (
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": URI}}),
        ),
        ("textDocument/hover", p5000.clone()),
        ("textDocument/definition", p5000.clone()),
        ("textDocument/references", refs),
    ];
    for (method, params) in requests {
        let start = Instant::now();
        let result = c.request(method, params);
        let took = start.elapsed();
        eprintln!("{method}: {took:?}");
        assert!(!result.is_null(), "{method}");
        assert!(took < Duration::from_secs(2), "{method} took {took:?}");
    }
    c.shut_down();
}

/// While the file is broken, hover on a piece still gives its moves, read from the
/// last text that checked (and says so); a piece declared only in the broken text
/// gives what it is.
#[test]
fn hover_keeps_the_last_good_reading_while_the_file_is_broken() {
    let mut c = Client::initialized();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "var", "version": 1, "text": game("far")}}),
    );
    assert_eq!(c.diagnostics(), Vec::<Value>::new());
    // Broken: a line above the pawn (so it moved down a line), and a zone misspelt.
    let broken = game("farr").replace(
        "piece King K",
        "piece Ghost G { moves \"W\" }\npiece King K",
    );
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": broken}]}),
    );
    assert!(!c.diagnostics().is_empty());
    let h = c.request("textDocument/hover", at(6, 7));
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains("piece Pawn") && text.contains("fmW fcF"),
        "{text}"
    );
    assert!(text.contains("one step"), "its moves in words: {text}");
    assert!(text.contains("as the file last checked"), "{text}");
    // The piece the broken text added has no good reading yet: only its name.
    let h = c.request("textDocument/hover", at(4, 7));
    let text = h["contents"]["value"].as_str().unwrap();
    assert_eq!(text, "**piece Ghost**");
}

/// Completion offers what the grammar accepts at the cursor: conditions after `if`,
/// effects after `then`, zones after `promotes on`, pieces after `captures`, with the
/// declared names of the right kind only.
#[test]
fn completion_follows_the_clause_at_the_cursor() {
    let mut c = Client::initialized();
    // Line 6 is the pawn's move line, line 7 its promotion (see `game`).
    let text = game("far")
        .replace(r#"moves "fmW fcF""#, r#"moves "fmW fcF" if   then  "#)
        .replace("promotes on far to K", "promotes on  to K");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "var", "version": 1, "text": text}}),
    );
    let _ = c.diagnostics();
    let labels_at = |c: &mut Client, line: u32, character: u32| -> Vec<String> {
        c.request("textDocument/completion", at(line, character))
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    // After `if `: conditions, not piece properties.
    let after_if = labels_at(&mut c, 6, 21);
    for wanted in ["height", "from", "to", "counter", "captures"] {
        assert!(
            after_if.iter().any(|l| l == wanted),
            "{wanted}: {after_if:?}"
        );
    }
    for unwanted in ["royal", "moves", "promotes", "Pawn", "far"] {
        assert!(
            !after_if.iter().any(|l| l == unwanted),
            "{unwanted}: {after_if:?}"
        );
    }
    // After `then `: effects.
    let after_then = labels_at(&mut c, 6, 28);
    for wanted in ["leave", "height", "stay", "counter"] {
        assert!(
            after_then.iter().any(|l| l == wanted),
            "{wanted}: {after_then:?}"
        );
    }
    // After `promotes on `: the zones, and nothing else.
    let after_on = labels_at(&mut c, 7, 14);
    assert_eq!(after_on, ["far"], "{after_on:?}");
}

/// Hover inside a Betza string explains it component by component.
#[test]
fn hover_on_a_betza_string_explains_each_component() {
    let mut c = Client::initialized();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "var", "version": 1, "text": game("far")}}),
    );
    let _ = c.diagnostics();
    // Line 6: `  moves "fmW fcF"`; the cursor on the `c` of `fcF`.
    let h = c.request("textDocument/hover", at(6, 14));
    let text = h["contents"]["value"].as_str().unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("- ")).collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("- `fmW`: ") && lines[0].contains("forward"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("- `fcF`: ") && lines[1].contains("captur"),
        "{text}"
    );
    assert_eq!(h["range"]["start"], json!({"line": 6, "character": 9}));
}

/// Hover on `glyph` and `image` says what they draw.
#[test]
fn hover_on_glyph_and_image_says_how_a_piece_is_drawn() {
    let text = game("far").replace("royal }", "royal  image king  glyph \"♚\" }");
    let mut c = Client::initialized();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "var", "version": 1, "text": text}}),
    );
    let d = c.diagnostics();
    assert!(d.is_empty(), "{d:?}");
    let line = text.lines().nth(4).expect("the king's line");
    for (word, meaning) in [("image", "varsand's drawings"), ("glyph", "short text")] {
        let column = line.find(word).expect("the word") as u32 + 1;
        let h = c.request("textDocument/hover", at(4, column));
        let value = h["contents"]["value"].as_str().unwrap_or_default();
        assert!(value.contains(meaning), "{word}: {value}");
    }
}
