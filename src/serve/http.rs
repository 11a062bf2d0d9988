//! The few parts of HTTP/1.1 the web board speaks, over one connection: a request read
//! whole (head, then a body of at most [`MAX_BODY_BYTES`] announced by its
//! `Content-Length`) before a deadline, and one answer, after which the connection is
//! closed. Whatever a client sends — slowly, malformed, huge — costs one connection's
//! thread a few seconds at most ([`REQUEST_DEADLINE`] to read, [`ANSWER_DEADLINE`] to
//! answer, [`LINGER`] to close), and never the game's thread, which only ever sees a
//! request read whole.
//!
//! Hand-written rather than a crate's because the routes need so little (a method, a
//! target, three headers, a small body) and because what matters here is how it fails:
//! every limit is a constant below, and every refusal an answer with its reason.

use std::io::{self, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// The longest request body read: a move text is a few bytes. A longer one announced
/// is refused from its `Content-Length`, before any of it is read.
pub const MAX_BODY_BYTES: usize = 4096;
/// The longest request head (request line and headers).
const MAX_HEAD_BYTES: usize = 8192;
/// The most header lines in a head.
const MAX_HEADERS: usize = 64;
/// The time a client has to send its whole request, head and body, from the moment
/// its connection is taken: on this machine's own address a request takes
/// microseconds, so a slower one is stalled or trickling on purpose.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(2);
/// The time a client has to take its answer.
const ANSWER_DEADLINE: Duration = Duration::from_secs(5);
/// After answering, what the client still sends is read and dropped for this long (or
/// up to [`LINGER_BYTES`]) before the connection is closed: closing a socket with
/// unread bytes resets it, and the client could lose the answer (a `413` sent before
/// the body it refuses).
const LINGER: Duration = Duration::from_millis(500);
const LINGER_BYTES: usize = 64 * 1024;

/// Only this page's own files may run, and nothing is fetched from elsewhere. The
/// board's SVG may carry `style` attributes.
const POLICY: &str = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

/// A request read whole.
pub struct Request {
    pub method: String,
    /// The path and the query, as sent.
    pub target: String,
    headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// The value of a header, by name in any case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// An answer: status, content type and body.
pub struct Reply {
    pub status: u16,
    pub kind: &'static str,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn new(status: u16, kind: &'static str, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status,
            kind,
            body: body.into(),
        }
    }
    pub fn json(status: u16, value: &impl serde::Serialize) -> Reply {
        let body = serde_json::to_vec(value).unwrap_or_else(|e| {
            format!(r#"{{"error":"cannot write the state: {e}"}}"#).into_bytes()
        });
        Reply::new(status, "application/json", body)
    }
    pub fn error(status: u16, why: impl Into<String>) -> Reply {
        Reply::json(status, &serde_json::json!({ "error": why.into() }))
    }
}

/// Why no request was read.
pub enum Unread {
    /// The client closed the connection before sending anything: nobody to answer.
    Gone,
    /// The request is refused with this answer.
    Refused(Reply),
}

impl From<Reply> for Unread {
    fn from(reply: Reply) -> Unread {
        Unread::Refused(reply)
    }
}

/// Reads one request from `stream`, whole, before `deadline`.
pub fn read_request(stream: &mut TcpStream, deadline: Instant) -> Result<Request, Unread> {
    let mut input = Input { stream, deadline };
    let (head, start_of_body) = input.read_head()?;
    let mut request = parse_head(&head)?;
    let length = body_length(&request)?;
    request.body = input.read_body(start_of_body, length)?;
    Ok(request)
}

/// A connection's incoming bytes, with the time left to read them.
struct Input<'a> {
    stream: &'a mut TcpStream,
    deadline: Instant,
}

impl Input<'_> {
    /// Reads more into `buffer`; how many bytes came (0 at the end of the stream).
    fn read_more(&mut self, buffer: &mut Vec<u8>) -> Result<usize, Unread> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(too_slow());
        }
        self.stream
            .set_read_timeout(Some(left))
            .map_err(|e| cannot_read(&e))?;
        let mut chunk = [0u8; 4096];
        match self.stream.read(&mut chunk) {
            Ok(n) => {
                buffer.extend_from_slice(&chunk[..n]);
                Ok(n)
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                Err(too_slow())
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => self.read_more(buffer),
            Err(e) => Err(cannot_read(&e)),
        }
    }

    /// The head, up to its empty line, and the bytes read after it.
    fn read_head(&mut self) -> Result<(String, Vec<u8>), Unread> {
        let mut buffer = Vec::new();
        loop {
            if let Some((end, gap)) = end_of_head(&buffer) {
                let rest = buffer.split_off(end + gap);
                buffer.truncate(end);
                let head = String::from_utf8(buffer)
                    .map_err(|_| Reply::error(400, "the request head is not UTF-8 text"))?;
                return Ok((head, rest));
            }
            if buffer.len() > MAX_HEAD_BYTES {
                return Err(Reply::error(
                    431,
                    format!("a request head is at most {MAX_HEAD_BYTES} bytes"),
                )
                .into());
            }
            if self.read_more(&mut buffer)? == 0 {
                return Err(match buffer.is_empty() {
                    true => Unread::Gone,
                    false => Reply::error(400, "the request ends before its head does").into(),
                });
            }
        }
    }

    /// The body of `length` bytes, `start` of it read already.
    fn read_body(&mut self, mut body: Vec<u8>, length: usize) -> Result<Vec<u8>, Unread> {
        while body.len() < length {
            if self.read_more(&mut body)? == 0 {
                return Err(Reply::error(
                    400,
                    format!("the body ends after {} of its {length} bytes", body.len()),
                )
                .into());
            }
        }
        // Whatever follows (a second request sent at once) is not read: one a connection.
        body.truncate(length);
        Ok(body)
    }
}

fn too_slow() -> Unread {
    Reply::error(
        408,
        format!(
            "the request did not arrive within {} s",
            REQUEST_DEADLINE.as_secs()
        ),
    )
    .into()
}

fn cannot_read(e: &io::Error) -> Unread {
    Reply::error(400, format!("cannot read the request: {e}")).into()
}

/// Where the head ends in `bytes` and the length of the empty line's break (`\r\n\r\n`
/// or, from a lenient client, `\n\n`).
fn end_of_head(bytes: &[u8]) -> Option<(usize, usize)> {
    let crlf = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| (i, 4));
    let lf = bytes.windows(2).position(|w| w == b"\n\n").map(|i| (i, 2));
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(if a.0 < b.0 { a } else { b }),
        (a, b) => a.or(b),
    }
}

/// The request line and the headers.
fn parse_head(head: &str) -> Result<Request, Reply> {
    let mut lines = head.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let (method, target) = parse_request_line(lines.next().unwrap_or_default())?;
    let mut headers = Vec::new();
    for line in lines {
        if headers.len() == MAX_HEADERS {
            let why = format!("a request has at most {MAX_HEADERS} headers");
            return Err(Reply::error(431, why));
        }
        headers.push(parse_header(line)?);
    }
    for once in ["Host", "Origin", "Content-Length", "Transfer-Encoding"] {
        if headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(once))
            .count()
            > 1
        {
            return Err(Reply::error(400, format!("`{once}` is given twice")));
        }
    }
    Ok(Request {
        method,
        target,
        headers,
        body: Vec::new(),
    })
}

/// `METHOD TARGET HTTP/1.x`: the method and the target.
fn parse_request_line(line: &str) -> Result<(String, String), Reply> {
    let bad = || Reply::error(400, "the request line is not `METHOD /PATH HTTP/1.1`");
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    if !is_token(method) || target.is_empty() || target.chars().any(char::is_control) {
        return Err(bad());
    }
    match version {
        "HTTP/1.1" | "HTTP/1.0" => Ok((method.to_string(), target.to_string())),
        v if v.starts_with("HTTP/") => Err(Reply::error(505, "this server speaks HTTP/1.1")),
        _ => Err(bad()),
    }
}

/// `Name: value`, the value without the spaces around it.
fn parse_header(line: &str) -> Result<(String, String), Reply> {
    let bad = || {
        let shown: String = line.chars().take(80).collect();
        Reply::error(400, format!("not a header line: `{shown}`"))
    };
    let (name, value) = line.split_once(':').ok_or_else(bad)?;
    let value = value.trim_matches([' ', '\t']);
    if !is_token(name) || value.chars().any(|c| c.is_control() && c != '\t') {
        return Err(bad());
    }
    Ok((name.to_string(), value.to_string()))
}

/// A method or a header name: letters, digits and a few marks, at least one.
fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// The body's length from `Content-Length` (none: no body), refused over the cap
/// before any of it is read. A body in chunks is refused: a page's `fetch` always
/// sends its length, and a length known first is what lets the cap hold.
fn body_length(request: &Request) -> Result<usize, Reply> {
    if request.header("Transfer-Encoding").is_some() {
        return Err(Reply::error(
            411,
            "send the body with a Content-Length, not in chunks",
        ));
    }
    let Some(length) = request.header("Content-Length") else {
        return Ok(0);
    };
    if length.is_empty() || !length.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Reply::error(
            400,
            format!("`Content-Length: {length}` is not a length"),
        ));
    }
    match length.parse::<usize>() {
        Ok(n) if n <= MAX_BODY_BYTES => Ok(n),
        _ => Err(Reply::error(
            413,
            format!("a request body is at most {MAX_BODY_BYTES} bytes"),
        )),
    }
}

/// Sends `reply` and the headers every answer carries, then closes the connection.
pub fn answer(stream: &mut TcpStream, reply: &Reply) {
    let deadline = Instant::now() + ANSWER_DEADLINE;
    let mut message = head_of(reply).into_bytes();
    if !bodiless(reply.status) {
        message.extend_from_slice(&reply.body);
    }
    // A client gone or too slow to take its answer: nobody is left to tell.
    let _ = write_before(stream, &message, deadline);
    close_gently(stream);
}

fn head_of(reply: &Reply) -> String {
    let mut head = format!("HTTP/1.1 {} {}\r\n", reply.status, reason(reply.status));
    if !bodiless(reply.status) {
        head += &format!("Content-Length: {}\r\n", reply.body.len());
    }
    for (name, value) in [
        ("Content-Type", reply.kind),
        ("Cache-Control", "no-store"),
        ("Content-Security-Policy", POLICY),
        ("X-Content-Type-Options", "nosniff"),
        // One request a connection: nothing waits on an idle one.
        ("Connection", "close"),
    ] {
        head += &format!("{name}: {value}\r\n");
    }
    head + "\r\n"
}

/// Statuses whose answers have no body (nor a `Content-Length`).
fn bodiless(status: u16) -> bool {
    matches!(status, 204 | 304)
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "",
    }
}

/// Writes all of `bytes` unless `deadline` passes first.
fn write_before(stream: &mut TcpStream, bytes: &[u8], deadline: Instant) -> io::Result<()> {
    for piece in bytes.chunks(16 * 1024) {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ErrorKind::TimedOut.into());
        }
        stream.set_write_timeout(Some(left))?;
        stream.write_all(piece)?;
    }
    stream.flush()
}

/// Ends the answer, then reads and drops what the client still sends for a moment
/// ([`LINGER`]), so that closing does not reset the connection under its answer.
fn close_gently(stream: &mut TcpStream) {
    if stream.shutdown(Shutdown::Write).is_err() {
        return;
    }
    let deadline = Instant::now() + LINGER;
    let mut dropped = 0;
    let mut scratch = [0u8; 4096];
    while dropped < LINGER_BYTES {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return;
        }
        match stream.read(&mut scratch) {
            Ok(0) | Err(_) => return,
            Ok(n) => dropped += n,
        }
    }
}

/// Sends a short `reply` without waiting on the client, then closes: for the thread
/// that accepts connections, which must wait on nobody. An answer this short fits in
/// a new connection's send buffer.
pub fn answer_at_once(stream: TcpStream, reply: &Reply) {
    let mut message = head_of(reply).into_bytes();
    message.extend_from_slice(&reply.body);
    if stream.set_nonblocking(true).is_ok() {
        let _ = (&stream).write(&message);
    }
    let _ = stream.shutdown(Shutdown::Write);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status_of(head: &str) -> Result<usize, u16> {
        let request = parse_head(head).map_err(|r| r.status)?;
        body_length(&request).map_err(|r| r.status)
    }

    #[test]
    fn a_head_is_read_by_its_parts_and_refused_with_the_right_status() {
        let request = parse_head("POST /move?x=1 HTTP/1.1\r\nhost:  a:1 \r\nContent-Length: 12")
            .ok()
            .unwrap();
        assert_eq!(
            (request.method.as_str(), request.target.as_str()),
            ("POST", "/move?x=1")
        );
        assert_eq!(request.header("Host"), Some("a:1"));
        assert_eq!(body_length(&request).ok(), Some(12));
        assert_eq!(status_of("GET / HTTP/1.0"), Ok(0));
        assert_eq!(
            status_of("GET / HTTP/1.1\r\nContent-Length: 4096"),
            Ok(4096)
        );
        assert_eq!(
            status_of("GET / HTTP/1.1\r\nContent-Length: 4097"),
            Err(413)
        );
        assert_eq!(
            status_of("GET / HTTP/1.1\r\nContent-Length: 99999999999999999999999"),
            Err(413)
        );
        for length in ["-1", "+5", "5, 5", "", "0x10"] {
            let head = format!("GET / HTTP/1.1\r\nContent-Length: {length}");
            assert_eq!(status_of(&head), Err(400), "{length}");
        }
        assert_eq!(
            status_of("POST / HTTP/1.1\r\nTransfer-Encoding: chunked"),
            Err(411)
        );
        assert_eq!(status_of("GET / HTTP/1.1\r\nHost: a\r\nHOST: b"), Err(400));
        assert_eq!(status_of("GET / HTTP/2.0"), Err(505));
        for bad in [
            "GET /",
            "GET  / HTTP/1.1",
            "G T / HTTP/1.1",
            "GET / HTTP/1.1\r\nno colon",
        ] {
            assert_eq!(status_of(bad), Err(400), "{bad}");
        }
        assert_eq!(status_of("GET / HTTP/1.1\r\nX: a\u{7}b"), Err(400));
        let many = "GET / HTTP/1.1".to_string() + &"\r\nX: 1".repeat(MAX_HEADERS + 1);
        assert_eq!(status_of(&many), Err(431));
    }

    #[test]
    fn the_head_ends_at_the_first_empty_line() {
        assert_eq!(end_of_head(b"GET / HTTP/1.1\r\n\r\nbody"), Some((14, 4)));
        assert_eq!(
            end_of_head(b"GET / HTTP/1.1\n\nbody\r\n\r\n"),
            Some((14, 2))
        );
        assert_eq!(end_of_head(b"GET / HTTP/1.1\r\nHost: a\r\n"), None);
    }
}
