//! The requests the server answers:
//!
//! | request | answer |
//! | --- | --- |
//! | `GET /`, `/page.js`, `/page.css` | the page |
//! | `GET /state?since=V` | the state as JSON ([`State`]); `204` if its version is still `V` |
//! | any of those with `flipped=1` | the board drawn from the second player's side |
//! | `POST /move` `{"move": "e2e4"}` | plays the move: the new state, or `422` `{"error": why}` |
//! | `POST /undo`, `/redo`, `/computer`, `/new` | the same, for those actions |
//!
//! Every request first looks at the rule file, so the answer is about its current
//! text. Only requests addressed to this server by its local name are answered (a
//! `Host` of `127.0.0.1:PORT` or `localhost:PORT`, and the same `Origin` if one is
//! given): a web site open in the same browser cannot reach the game through a name
//! of its own that points here, nor post moves to it.

use std::io::Read;

use serde::Deserialize;
use tiny_http::{Header, Method, Request, Response};

use super::game::{Game, Refusal};
use super::state::State;

/// The longest request body read: a move text is a few bytes.
const MAX_BODY_BYTES: u64 = 4096;

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/page.js");
const STYLE: &str = include_str!("page/page.css");

/// Only this page's own files may run, and nothing is fetched from elsewhere. The
/// board's SVG may carry `style` attributes.
const POLICY: &str = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

/// An answer: status, content type and body.
struct Reply {
    status: u16,
    kind: &'static str,
    body: Vec<u8>,
}

impl Reply {
    fn new(status: u16, kind: &'static str, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status,
            kind,
            body: body.into(),
        }
    }
    fn json(status: u16, value: &impl serde::Serialize) -> Reply {
        let body = serde_json::to_vec(value).unwrap_or_else(|e| {
            format!(r#"{{"error":"cannot write the state: {e}"}}"#).into_bytes()
        });
        Reply::new(status, "application/json", body)
    }
    fn error(status: u16, why: impl Into<String>) -> Reply {
        Reply::json(status, &serde_json::json!({ "error": why.into() }))
    }
}

/// Answers one request.
pub fn answer(game: &mut Game, mut request: Request, port: u16) {
    let reply = reply_to(game, &mut request, port);
    let headers = [
        ("Content-Type", reply.kind),
        ("Cache-Control", "no-store"),
        ("Content-Security-Policy", POLICY),
        ("X-Content-Type-Options", "nosniff"),
    ];
    let mut response = Response::from_data(reply.body).with_status_code(reply.status);
    for (name, value) in headers {
        if let Ok(h) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(h);
        }
    }
    // The browser may have gone; nobody is left to tell.
    let _ = request.respond(response);
}

fn reply_to(game: &mut Game, request: &mut Request, port: u16) -> Reply {
    if let Err(why) = addressed_here(request, port) {
        return Reply::error(403, why);
    }
    game.follow_file();
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let flipped = parameter(query, "flipped") == Some("1");
    match (request.method(), path) {
        (Method::Get, "/") => Reply::new(200, "text/html; charset=utf-8", PAGE),
        (Method::Get, "/page.js") => Reply::new(200, "text/javascript; charset=utf-8", SCRIPT),
        (Method::Get, "/page.css") => Reply::new(200, "text/css; charset=utf-8", STYLE),
        (Method::Get, "/state") => state(game, query, flipped),
        (Method::Post, "/move") => match read_move(request) {
            Ok(text) => act(game, |g| g.play(&text), flipped),
            Err(why) => Reply::error(400, why),
        },
        (Method::Post, "/undo") => act(game, Game::undo, flipped),
        (Method::Post, "/redo") => act(game, Game::redo, flipped),
        (Method::Post, "/computer") => act(game, Game::computer, flipped),
        (Method::Post, "/new") => act(game, Game::restart, flipped),
        (_, "/" | "/page.js" | "/page.css" | "/state") => Reply::error(405, "use GET here"),
        (_, "/move" | "/undo" | "/redo" | "/computer" | "/new") => {
            Reply::error(405, "use POST here")
        }
        _ => Reply::error(404, format!("nothing at {path}")),
    }
}

/// Refuses a request whose `Host` (or `Origin`) names another server than this one.
fn addressed_here(request: &Request, port: u16) -> Result<(), String> {
    let ours = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    let header = |name: &'static str| {
        request
            .headers()
            .iter()
            .find(|h| h.field.equiv(name))
            .map(|h| h.value.as_str().to_string())
    };
    let host = header("Host").unwrap_or_default();
    if !ours.contains(&host) {
        return Err(format!(
            "this server answers requests for 127.0.0.1:{port} only, not for `{host}`"
        ));
    }
    match header("Origin") {
        Some(origin) if !ours.iter().any(|o| origin == format!("http://{o}")) => Err(format!(
            "requests from pages of `{origin}` are refused: only the game's own page may act"
        )),
        _ => Ok(()),
    }
}

/// The value of a parameter of the query (`since=12&flipped=1`).
fn parameter<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}

/// `GET /state?since=V`: the state, or `204` when the page has it already.
fn state(game: &mut Game, query: &str, flipped: bool) -> Reply {
    let since = parameter(query, "since").and_then(|v| v.parse::<u64>().ok());
    if since == Some(game.version()) {
        return Reply::new(204, "text/plain", Vec::new());
    }
    Reply::json(200, &State::of(game, flipped))
}

/// Does an action: the new state, or the reason it was refused.
fn act(
    game: &mut Game,
    action: impl FnOnce(&mut Game) -> Result<(), Refusal>,
    flipped: bool,
) -> Reply {
    match action(game) {
        Ok(()) => Reply::json(200, &State::of(game, flipped)),
        Err(why) => Reply::error(422, why),
    }
}

/// The body of `POST /move`.
#[derive(Deserialize)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
}

/// Reads the move text of a `POST /move`.
fn read_move(request: &mut Request) -> Result<String, String> {
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY_BYTES + 1)
        .read_to_end(&mut body)
        .map_err(|e| format!("cannot read the request: {e}"))?;
    if body.len() as u64 > MAX_BODY_BYTES {
        return Err(format!("a move request is at most {MAX_BODY_BYTES} bytes"));
    }
    serde_json::from_slice::<MoveRequest>(&body)
        .map(|m| m.text)
        .map_err(|e| format!(r#"send {{"move": "TEXT"}} as JSON ({e})"#))
}
