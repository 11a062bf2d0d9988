//! The web board (`varsand serve`) against clients that stall, flood it or send
//! nonsense: it keeps answering the others, and never stops. Every client here talks
//! to the server over TCP on 127.0.0.1, and every wait is bounded.

mod common;

use std::collections::BTreeMap;
use std::io::{ErrorKind, Write};
use std::net::{Shutdown, TcpStream};
use std::thread::sleep;
use std::time::{Duration, Instant};

use common::Rng;
use common::server::{Server, read_answer, texts};
use serde_json::Value;

/// How soon a plain `GET /state` must be answered while another client misbehaves.
const PROMPTLY: Duration = Duration::from_secs(1);

/// Time for the server to take in what a misbehaving client sent before a test asks
/// something else, so that the misbehaving client is served (or stuck) first.
const HEAD_START: Duration = Duration::from_millis(300);

/// How long a stalled client waits for the server to give up on it.
const STALLED_PATIENCE: Duration = Duration::from_secs(6);

/// Opens a connection and sends `text`, then nothing more.
fn stall(server: &Server, text: &str) -> TcpStream {
    let mut stream = server.connect(STALLED_PATIENCE).unwrap();
    stream.write_all(text.as_bytes()).unwrap();
    sleep(HEAD_START);
    stream
}

/// Asks `GET /state` and asserts that it is answered with the state promptly.
fn assert_state_answered_promptly(server: &Server, behind: &str) {
    let started = Instant::now();
    let answer = server.try_request("GET", "/state", &[], "", Duration::from_secs(4));
    let waited = started.elapsed();
    println!("GET /state behind {behind}: {waited:?}");
    let (status, body) = answer.unwrap_or_else(|e| {
        panic!("GET /state got no answer after {waited:?} behind {behind}: {e}")
    });
    assert_eq!(status, 200, "{body}");
    assert!(
        waited < PROMPTLY,
        "GET /state waited {waited:?} behind {behind}"
    );
}

/// The status the stalled client is given, and how long after it stalled.
fn answer_to_stalled(mut stream: TcpStream) -> (u16, String, Duration) {
    let started = Instant::now();
    let (status, body) = read_answer(&mut stream)
        .unwrap_or_else(|e| panic!("the stalled client got no answer: {e}"));
    (status, body, started.elapsed() + HEAD_START)
}

#[test]
fn a_client_announcing_a_body_over_the_cap_and_stalling_does_not_hold_the_board() {
    let server = Server::start("variants/chess.var", "stall-long");
    let head = format!(
        "POST /move HTTP/1.1\r\nHost: {}\r\nContent-Length: 5000\r\n\r\n",
        server.address
    );
    let stalled = stall(&server, &head);
    assert_state_answered_promptly(&server, "a client announcing 5000 bytes");
    // Refused from its header, before any of the body is read.
    let (status, body, after) = answer_to_stalled(stalled);
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("at most 4096 bytes"), "{body}");
    assert!(after < PROMPTLY, "the refusal took {after:?}");
}

#[test]
fn a_chunked_request_that_stalls_does_not_hold_the_board() {
    let server = Server::start("variants/chess.var", "stall-chunked");
    let head = format!(
        "POST /move HTTP/1.1\r\nHost: {}\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n{{\"move\"",
        server.address
    );
    let stalled = stall(&server, &head);
    assert_state_answered_promptly(&server, "a chunked body that stalls");
    let (status, body, after) = answer_to_stalled(stalled);
    assert_eq!(status, 411, "{body}");
    assert!(body.contains("Content-Length"), "{body}");
    assert!(after < PROMPTLY, "the refusal took {after:?}");
}

#[test]
fn a_request_that_stalls_within_the_cap_is_cut_off_without_holding_the_board() {
    let server = Server::start("variants/chess.var", "stall-short");
    let head = format!(
        "POST /move HTTP/1.1\r\nHost: {}\r\nContent-Length: 100\r\n\r\n{{\"move\": ",
        server.address
    );
    let stalled = stall(&server, &head);
    // A head that never ends, too.
    let endless = stall(&server, "GET /state HTTP/1.1\r\nHost: 127");
    assert_state_answered_promptly(&server, "two requests stalled halfway");
    for (stalled, what) in [(stalled, "a body"), (endless, "a head")] {
        let (status, body, after) = answer_to_stalled(stalled);
        assert_eq!(status, 408, "{what}: {body}");
        assert!(
            after < Duration::from_secs(4),
            "{what} was cut off after {after:?}"
        );
    }
}

#[test]
fn a_client_trickling_a_byte_at_a_time_is_cut_off_at_the_deadline() {
    let server = Server::start("variants/chess.var", "trickle");
    let text = server.request_text("POST", "/move", &[], r#"{"move": "e2e4"}"#);
    let mut stream = server.connect(STALLED_PATIENCE).unwrap();
    let started = Instant::now();
    let mut cut_off = false;
    for byte in text.as_bytes() {
        if stream.write_all(&[*byte]).is_err() {
            cut_off = true;
            break;
        }
        sleep(Duration::from_millis(100));
        if started.elapsed() > Duration::from_secs(5) {
            break;
        }
    }
    let answer = read_answer(&mut stream);
    assert!(
        cut_off || matches!(answer, Ok((408, _))),
        "a request taking {:?} was not cut off: {answer:?}",
        started.elapsed()
    );
    assert_eq!(texts(&server.state()["history"]), Vec::<&str>::new());
}

#[test]
fn the_board_outlives_running_out_of_file_descriptors() {
    const FILE_LIMIT: u32 = 64;
    let mut server = Server::start_with_file_limit("variants/chess.var", "files", FILE_LIMIT);
    let patience = Duration::from_millis(500);
    let held: Vec<TcpStream> = (0..3 * FILE_LIMIT)
        .filter_map(|_| server.connect(patience).ok())
        .collect();
    println!("{} connections held", held.len());
    // While they are held the server still answers: the state, or that it is busy.
    let during = server.try_request("GET", "/state", &[], "", Duration::from_secs(3));
    assert!(
        matches!(during, Ok((200 | 503, _))),
        "while {} connections are held: {during:?}",
        held.len()
    );
    server.assert_alive();
    drop(held);
    assert_eq!(
        state_within(&server, Duration::from_secs(5))["title"],
        "Chess"
    );
    // Once more, to be sure the listener is not left half-broken.
    let held: Vec<TcpStream> = (0..3 * FILE_LIMIT)
        .filter_map(|_| server.connect(patience).ok())
        .collect();
    drop(held);
    assert_eq!(
        state_within(&server, Duration::from_secs(5))["title"],
        "Chess"
    );
    server.assert_alive();
}

/// The state, asked again while the server says it is busy, within `deadline`.
fn state_within(server: &Server, deadline: Duration) -> Value {
    let started = Instant::now();
    loop {
        let answer = server.try_request("GET", "/state", &[], "", Duration::from_secs(2));
        match answer {
            Ok((200, body)) => return serde_json::from_str(&body).unwrap(),
            other if started.elapsed() > deadline => {
                panic!("no state after {deadline:?}: {other:?}")
            }
            _ => sleep(Duration::from_millis(100)),
        }
    }
}

// ---- the fuzz test ------------------------------------------------------------------

/// Random requests sent to one server, by [`CLIENTS`] clients at once.
const FUZZ_REQUESTS: usize = 3000;
const CLIENTS: usize = 4;
/// The fuzz test stops sending (and passes, if all went well) after this long.
const FUZZ_BUDGET: Duration = Duration::from_secs(12);
/// Every this many random requests, a client asks for the state and checks it.
const CHECK_EVERY: usize = 10;

/// The statuses a random request may be given. Never a 500, never no answer.
const EXPECTED_STATUSES: [u16; 13] = [
    200, 204, 400, 403, 404, 405, 408, 411, 413, 422, 431, 503, 505,
];

/// A random request, and what the server may answer to it.
struct Fuzzed {
    bytes: Vec<u8>,
    /// Does it name this server in `Host` (once) and, if it has one, in `Origin` (or
    /// was it garbled, so that nobody knows)? When it does not, the game must not act
    /// on it.
    addressed_here: bool,
    delivery: Delivery,
}

enum Delivery {
    /// All of it, then the end of the stream; the answer is read and checked.
    Whole,
    /// All of it in small pieces, then the end; the answer is read and checked.
    Pieces,
    /// The first this many bytes, then the connection is closed.
    CutAfter(usize),
}

#[test]
fn random_requests_never_stop_the_board_answering_valid_ones() {
    let mut server = Server::start("variants/chess.var", "fuzz");
    let files_before = open_files(&server);
    let started = Instant::now();
    let statuses: Vec<Option<u16>> = std::thread::scope(|scope| {
        let clients: Vec<_> = (0..CLIENTS)
            .map(|i| {
                let server = &server;
                scope.spawn(move || fuzz_client(server, Rng::new(i as u64), started))
            })
            .collect();
        clients
            .into_iter()
            .flat_map(|c| c.join().unwrap())
            .collect()
    });
    let sent = statuses.len();
    println!("{sent} random requests in {:?}", started.elapsed());
    let mut tally = BTreeMap::new();
    for status in statuses {
        *tally.entry(status).or_insert(0) += 1;
    }
    println!("answers (None: the client hung up first): {tally:?}");
    assert!(sent >= FUZZ_REQUESTS / 10, "only {sent} requests were sent");
    server.assert_alive();
    // The game still plays as it should.
    assert_eq!(
        texts(&server.state_after("POST", "/new", "")["history"]),
        Vec::<&str>::new()
    );
    let after = server.play("e2e4");
    assert_eq!(texts(&after["history"]), ["e2e4"]);
    let version = after["version"].as_u64().unwrap();
    assert_eq!(server.get(&format!("/state?since={version}")).0, 204);
    // Every connection is closed in the end (the server may linger a moment).
    if let (Some(before), Some(_)) = (files_before, open_files(&server)) {
        let settled = (0..50).any(|_| {
            sleep(Duration::from_millis(100));
            open_files(&server).is_some_and(|now| now <= before + 2)
        });
        assert!(
            settled,
            "{before} files open before, {:?} after",
            open_files(&server)
        );
    }
}

/// How many files the server has open, where `/proc` tells.
fn open_files(server: &Server) -> Option<usize> {
    let dir = format!("/proc/{}/fd", server.child.id());
    std::fs::read_dir(dir).ok().map(std::iter::Iterator::count)
}

/// Sends its share of random requests, checking the state every [`CHECK_EVERY`];
/// the status of each answer.
fn fuzz_client(server: &Server, mut rng: Rng, started: Instant) -> Vec<Option<u16>> {
    let mut legal = vec!["e2e4".to_string()];
    let mut statuses = Vec::new();
    for n in 0..FUZZ_REQUESTS / CLIENTS {
        if started.elapsed() > FUZZ_BUDGET {
            break;
        }
        if n % CHECK_EVERY == 0 {
            legal = checked_state(server);
        }
        let fuzzed = random_request(&mut rng, server, &legal);
        statuses.push(send_and_check(server, &fuzzed));
    }
    statuses
}

/// Asks for the state and checks it; the texts of its legal moves.
fn checked_state(server: &Server) -> Vec<String> {
    let (status, body) = server
        .try_request("GET", "/state", &[], "", Duration::from_secs(10))
        .unwrap_or_else(|e| panic!("GET /state got no answer: {e}"));
    assert_eq!(status, 200, "GET /state: {body}");
    let state: Value = serde_json::from_str(&body)
        .unwrap_or_else(|e| panic!("GET /state is not JSON ({e}): {body}"));
    assert_eq!(state["title"], "Chess");
    assert!(state["version"].is_u64() && state["history"].is_array());
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| Some(m["text"].as_str()?.to_string()))
        .collect()
}

/// Sends a random request and checks the answer: its status, unless the client hung
/// up before the end.
fn send_and_check(server: &Server, fuzzed: &Fuzzed) -> Option<u16> {
    let described = String::from_utf8_lossy(&fuzzed.bytes[..fuzzed.bytes.len().min(300)]);
    let mut stream = server
        .connect(Duration::from_secs(10))
        .unwrap_or_else(|e| panic!("cannot connect: {e}"));
    let sent = match fuzzed.delivery {
        Delivery::Whole => stream.write_all(&fuzzed.bytes),
        Delivery::Pieces => fuzzed
            .bytes
            .chunks(7)
            .try_for_each(|piece| stream.write_all(piece)),
        Delivery::CutAfter(n) => {
            let _ = stream.write_all(&fuzzed.bytes[..n.min(fuzzed.bytes.len())]);
            return None;
        }
    };
    // The server may refuse a request before reading it all, and close.
    if let Err(e) = sent {
        assert!(
            matches!(e.kind(), ErrorKind::BrokenPipe | ErrorKind::ConnectionReset),
            "cannot send {described:?}: {e}"
        );
    }
    let _ = stream.shutdown(Shutdown::Write);
    let (status, body) =
        read_answer(&mut stream).unwrap_or_else(|e| panic!("no answer to {described:?}: {e}"));
    assert!(
        EXPECTED_STATUSES.contains(&status),
        "{status} to {described:?}: {body}"
    );
    assert!(
        fuzzed.addressed_here || ![200, 204, 422].contains(&status),
        "{status} to a request for another server: {described:?}: {body}"
    );
    Some(status)
}

/// A random request: half of them tame (a method, a version, a host and a length the
/// server takes, so that the game sees them), the others wild in every part; a few
/// garbled after.
fn random_request(rng: &mut Rng, server: &Server, legal: &[String]) -> Fuzzed {
    let tame = rng.chance(50);
    let method = match tame {
        true => rng.pick(&["GET", "POST"]).to_string(),
        false => random_method(rng),
    };
    let version = if tame {
        "HTTP/1.1"
    } else {
        random_version(rng)
    };
    let (host, host_ours) = match tame {
        true => (format!("Host: {}\r\n", server.address), true),
        false => random_host(rng, server),
    };
    let (origin, origin_ok) = random_origin(rng, server);
    let body = random_body(rng, legal);
    let length = match tame {
        true => format!("Content-Length: {}\r\n", body.len()),
        false => random_length(rng, body.len()),
    };
    let target = match tame {
        true => tame_target(rng, &method),
        false => random_target(rng),
    };
    let mut head = format!("{method} {target} {version}\r\n");
    head += &host;
    head += &origin;
    head += &length;
    if !tame {
        head += &random_headers(rng);
    }
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(b"\r\n");
    bytes.extend_from_slice(&body);
    // A garbled request may name this server or not, by chance.
    let garbled = rng.chance(5);
    if garbled {
        garble(rng, &mut bytes);
    }
    let delivery = match rng.below(20) {
        0..=1 => Delivery::CutAfter(rng.below(bytes.len() + 1)),
        2 => Delivery::Pieces,
        _ => Delivery::Whole,
    };
    Fuzzed {
        bytes,
        addressed_here: garbled || (host_ours && origin_ok),
        delivery,
    }
}

fn random_method(rng: &mut Rng) -> String {
    let common = [
        "GET", "POST", "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS",
    ];
    match rng.below(10) {
        0 => rng
            .pick(&["get", "", "G T", "POST\t", "CONNECT", "\u{1}"])
            .to_string(),
        1 => random_text(rng, 12),
        _ => rng.pick(&common).to_string(),
    }
}

/// A route of the game for `method`, mostly moves.
fn tame_target(rng: &mut Rng, method: &str) -> String {
    let path = match method {
        "GET" => rng.pick(&["/state", "/state?since=1", "/state?flipped=1", "/"]),
        _ => rng.pick(&[
            "/move",
            "/move",
            "/move",
            "/move?flipped=1",
            "/undo",
            "/redo",
        ]),
    };
    path.to_string()
}

fn random_target(rng: &mut Rng) -> String {
    let paths = [
        "/",
        "/state",
        "/state",
        "/state",
        "/move",
        "/move",
        "/undo",
        "/redo",
        "/new",
        "/page.js",
        "/page.css",
        "/nothing",
        "//state",
        "/state/",
        "/../state",
        "*",
        "http://127.0.0.1/state",
        "/%73tate",
        "/computer",
    ];
    let queries = [
        "",
        "",
        "",
        "?since=1",
        "?since=",
        "?since=-1",
        "?since=99999999999999999999999",
        "?flipped=1",
        "?flipped=1&since=2",
        "?flipped=2",
        "?&&&==",
        "?since=%00",
        "?",
    ];
    let mut target = rng.pick(&paths).to_string();
    // The computer thinks for a while: rarely.
    if target == "/computer" && !rng.chance(10) {
        target = "/state".into();
    }
    target += rng.pick(&queries);
    match rng.below(30) {
        0 => target + &"x".repeat(rng.below(10_000)),
        1 => target + &random_text(rng, 40),
        _ => target,
    }
}

fn random_version(rng: &mut Rng) -> &'static str {
    match rng.below(20) {
        0 => rng.pick(&["HTTP/2.0", "HTTP/1.1x", "", "FOO", "HTTP/1", "http/1.1"]),
        1..=5 => "HTTP/1.0",
        _ => "HTTP/1.1",
    }
}

/// A `Host` header line (or none), and whether it names this server.
fn random_host(rng: &mut Rng, server: &Server) -> (String, bool) {
    let port = server.address.rsplit(':').next().unwrap();
    let ours = format!("Host: {}\r\n", server.address);
    match rng.below(20) {
        0 => (String::new(), false),
        1 => (format!("Host: localhost:{port}\r\n"), true),
        2 => ("Host: example.test:80\r\n".into(), false),
        3 => (
            format!("Host: 127.0.0.1:{port}\r\nHost: evil.test\r\n"),
            false,
        ),
        4 => (format!("Host: 127.0.0.1:{port}0\r\n"), false),
        5 => ("host: 127.0.0.1\r\n".into(), false),
        _ => (ours, true),
    }
}

/// An `Origin` header line (or none), and whether it lets the request act.
fn random_origin(rng: &mut Rng, server: &Server) -> (String, bool) {
    match rng.below(10) {
        0 => (format!("Origin: http://{}\r\n", server.address), true),
        1 => ("Origin: http://example.test\r\n".into(), false),
        2 => ("Origin: null\r\n".into(), false),
        3 => (format!("Origin: https://{}\r\n", server.address), false),
        _ => (String::new(), true),
    }
}

/// A `Content-Length` line for a body of `len` bytes: mostly right.
fn random_length(rng: &mut Rng, len: usize) -> String {
    let value = match rng.below(20) {
        0 => return String::new(),
        1 => (len + 1 + rng.below(50)).to_string(),
        2 => len.saturating_sub(1 + rng.below(5)).to_string(),
        3 => rng
            .pick(&[
                "-1",
                "99999999999999999999",
                "+5",
                "5, 5",
                "0x10",
                "",
                " 3 ",
            ])
            .to_string(),
        4 => format!("{len}\r\nContent-Length: {}", len + 1),
        5 => format!("{len}\r\nTransfer-Encoding: chunked"),
        _ => len.to_string(),
    };
    format!("Content-Length: {value}\r\n")
}

/// A few more header lines, mostly harmless.
fn random_headers(rng: &mut Rng) -> String {
    let mut lines = String::new();
    for _ in 0..rng.below(4) {
        lines += match rng.below(12) {
            0 => "Content-Type: application/json\r\n".to_string(),
            1 => "Connection: keep-alive\r\n".into(),
            2 => format!("X-Long: {}\r\n", "v".repeat(rng.below(9000))),
            3 => "no colon here\r\n".into(),
            4 => " folded: line\r\n".into(),
            5 => "X-Control: a\u{7}b\r\n".into(),
            6 => "Transfer-Encoding: gzip\r\n".into(),
            7 => "Expect: 100-continue\r\n".into(),
            8 => format!("{}: {}\r\n", random_text(rng, 10), random_text(rng, 20)),
            9 => "X-Many: 1\r\n".repeat(rng.below(300)),
            _ => "Accept: */*\r\n".into(),
        }
        .as_str();
    }
    lines
}

/// A body: a move as JSON most often, with a legal, random or odd text.
fn random_body(rng: &mut Rng, legal: &[String]) -> Vec<u8> {
    let text = match rng.below(4) {
        0 => legal
            .get(rng.below(legal.len().max(1)))
            .cloned()
            .unwrap_or_default(),
        1 => random_move_text(rng),
        2 => random_text(rng, 20),
        _ => String::new(),
    };
    let json = serde_json::json!({ "move": text }).to_string();
    match rng.below(16) {
        0..=7 => json.into_bytes(),
        8 => Vec::new(),
        9 => json.as_bytes()[..rng.below(json.len())].to_vec(),
        10 => rng
            .pick(&[
                r#"{"move": 5}"#,
                r#"{"move": null}"#,
                "[]",
                r#""x""#,
                "{}",
                "{{{{",
            ])
            .as_bytes()
            .to_vec(),
        11 => format!(r#"{{"move": "{}"}}"#, "a".repeat(3900 + rng.below(300))).into_bytes(),
        12 => vec![b'x'; 4097 + rng.below(2000)],
        13 => (0..rng.below(200)).map(|_| rng.next() as u8).collect(),
        14 => format!(r#"{{"move": "{text}", "extra": [1, 2, {{}}]}}"#).into_bytes(),
        _ => format!(r#"{{"move": {json}}}"#).into_bytes(),
    }
}

/// Something shaped like a move: squares, drops, promotions, odd characters.
fn random_move_text(rng: &mut Rng) -> String {
    let square = |rng: &mut Rng| {
        let file = rng.pick_char(&['a', 'e', 'h', 'i', 'z']);
        let rank = rng.pick(&["1", "2", "4", "8", "9", "0", "99", "-1"]);
        format!("{file}{rank}")
    };
    let from = square(rng);
    let to = square(rng);
    let tail = rng.pick(&["", "q", "+", "=Q", "x", "#", "\u{0}", "é"]);
    match rng.below(4) {
        0 => format!("P@{to}"),
        1 => format!("{from}{to}{tail}"),
        2 => rng
            .pick(&["swap", "pass", "O-O", "@", "", " ", "e2e4 e7e5"])
            .to_string(),
        _ => format!("{from}{to}"),
    }
}

/// Up to `max` random characters, printable or not.
fn random_text(rng: &mut Rng, max: usize) -> String {
    let soup = [
        'a', 'Z', '0', '9', ' ', '/', '?', '&', '=', ':', '%', '"', '\\', '{', '\t', '\r', '\n',
        '\u{0}', '\u{7f}', 'é', '♞', '\u{feff}',
    ];
    (0..rng.below(max + 1))
        .map(|_| rng.pick_char(&soup))
        .collect()
}

/// Flips, drops or inserts a few random bytes.
fn garble(rng: &mut Rng, bytes: &mut Vec<u8>) {
    for _ in 0..=rng.below(4) {
        if bytes.is_empty() {
            return;
        }
        let at = rng.below(bytes.len());
        match rng.below(3) {
            0 => bytes[at] = rng.next() as u8,
            1 => {
                bytes.remove(at);
            }
            _ => bytes.insert(at, rng.next() as u8),
        }
    }
}
