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
//! A request reaches these routes read whole, its body within the cap (`http` refuses
//! the others with `400`, `408`, `411`, `413`, `431` or `505`, and `listen` a connection
//! over the cap with `503`).
//!
//! Every request first looks at the rule file, so the answer is about its current
//! text. Only requests addressed to this server by its local name are answered (a
//! `Host` of `127.0.0.1:PORT` or `localhost:PORT`, and the same `Origin` if one is
//! given): a web site open in the same browser cannot reach the game through a name
//! of its own that points here, nor post moves to it.

use serde::Deserialize;

use super::game::{Game, Refusal};
use super::http::{Reply, Request};
use super::state::State;

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/page.js");
const STYLE: &str = include_str!("page/page.css");

/// The answer to one request.
pub fn answer(game: &mut Game, request: &Request, port: u16) -> Reply {
    if let Err(why) = addressed_here(request, port) {
        return Reply::error(403, why);
    }
    game.follow_file();
    let (path, query) = request
        .target
        .split_once('?')
        .unwrap_or((&request.target, ""));
    let flipped = parameter(query, "flipped") == Some("1");
    match (request.method.as_str(), path) {
        ("GET", "/") => Reply::new(200, "text/html; charset=utf-8", PAGE),
        ("GET", "/page.js") => Reply::new(200, "text/javascript; charset=utf-8", SCRIPT),
        ("GET", "/page.css") => Reply::new(200, "text/css; charset=utf-8", STYLE),
        ("GET", "/state") => state(game, query, flipped),
        ("POST", "/move") => match read_move(&request.body) {
            Ok(text) => act(game, |g| g.play(&text), flipped),
            Err(why) => Reply::error(400, why),
        },
        ("POST", "/undo") => act(game, Game::undo, flipped),
        ("POST", "/redo") => act(game, Game::redo, flipped),
        ("POST", "/computer") => act(game, Game::computer, flipped),
        ("POST", "/new") => act(game, Game::restart, flipped),
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
    let host = request.header("Host").unwrap_or_default();
    if !ours.iter().any(|o| o == host) {
        return Err(format!(
            "this server answers requests for 127.0.0.1:{port} only, not for `{host}`"
        ));
    }
    match request.header("Origin") {
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

/// The move text of a `POST /move`'s body (read whole and capped in `http`).
fn read_move(body: &[u8]) -> Result<String, String> {
    serde_json::from_slice::<MoveRequest>(body)
        .map(|m| m.text)
        .map_err(|e| format!(r#"send {{"move": "TEXT"}} as JSON ({e})"#))
}
