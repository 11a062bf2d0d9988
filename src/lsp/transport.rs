//! The language server's base protocol: messages framed by a `Content-Length` header,
//! read from standard input and written to standard output.
//!
//! Nothing a client writes ends the server: a header block without a valid
//! `Content-Length` is skipped (the next header found, even after junk on the same
//! line, starts the next frame), a body that is not JSON is reported, a body over
//! [`MAX_LSP_MESSAGE_BYTES`] is read in chunks and discarded. Only the end of the input
//! ends the reading.

use std::io::{self, BufRead, Read, Write};

use serde_json::Value;

/// The largest message body the server reads: 64 MiB. A body announced larger is read
/// in chunks and discarded, then refused with an error, so that a wrong or hostile
/// `Content-Length` never makes the server allocate the size it announces. A message
/// holds at most a document's whole text, and rule files are at most 16 MiB.
pub const MAX_LSP_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

/// The most bytes of a header line kept: a longer line (junk) keeps its end, where the
/// next frame's header may start.
const MAX_HEADER_LINE_BYTES: usize = 4096;

/// How much of the start of a body over the limit is kept to find its request's id.
const ID_SEARCH_BYTES: usize = 64 * 1024;

/// What a frame of the input holds.
#[derive(Debug, PartialEq)]
pub enum Incoming {
    /// A body that is JSON.
    Json(Value),
    /// A body that is not JSON, and why.
    NotJson(String),
    /// A body over the limit, discarded: its size and the request's id if its start
    /// shows one.
    TooLarge { size: u64, id: Option<Value> },
    /// A header block without a valid `Content-Length`, skipped, and why.
    Unframed(String),
}

/// Reads frames from a byte stream.
pub struct FrameReader<R> {
    input: Replayable<R>,
}

impl<R: BufRead> FrameReader<R> {
    pub fn new(input: R) -> Self {
        FrameReader {
            input: Replayable {
                input,
                replay: Vec::new(),
                at: 0,
            },
        }
    }

    /// The next frame; `None` at the end of the input, even inside a frame.
    pub fn next_frame(&mut self) -> io::Result<Option<Incoming>> {
        let Some(length) = self.headers()? else {
            return Ok(None);
        };
        match length {
            Err(why) => Ok(Some(Incoming::Unframed(why))),
            Ok(size) if size > MAX_LSP_MESSAGE_BYTES as u64 => self.discard(size),
            Ok(size) => self.body(size as usize),
        }
    }

    /// Reads a header block up to its blank line: the `Content-Length` it gives, or why
    /// it gives none; `None` at the end of the input. Blank lines before a block are
    /// skipped, so that stray line ends between frames are no frame.
    fn headers(&mut self) -> io::Result<Option<Result<u64, String>>> {
        let mut length = Err("a header block without Content-Length was skipped".to_string());
        let mut lines = 0;
        loop {
            let Some(line) = self.input.header_line()? else {
                return Ok(None);
            };
            if line.iter().all(u8::is_ascii_whitespace) {
                if lines == 0 {
                    continue;
                }
                return Ok(Some(length));
            }
            lines += 1;
            if let Some(value) = content_length(&line) {
                length = value;
            }
        }
    }

    /// Reads a body of `size` bytes, at most the limit; it grows as the bytes come.
    fn body(&mut self, size: usize) -> io::Result<Option<Incoming>> {
        let mut body = Vec::new();
        (&mut self.input).take(size as u64).read_to_end(&mut body)?;
        if body.len() < size {
            return Ok(None);
        }
        Ok(Some(self.parse(&body)))
    }

    /// The JSON of a body. Bytes after the first JSON value (the `Content-Length` was
    /// too long and the body took the start of the next frame) are read again as
    /// headers, so that the next message is not lost.
    fn parse(&mut self, body: &[u8]) -> Incoming {
        let mut values = serde_json::Deserializer::from_slice(body).into_iter::<Value>();
        match values.next() {
            Some(Ok(value)) => {
                let rest = &body[values.byte_offset()..];
                if !rest.iter().all(u8::is_ascii_whitespace) {
                    self.input.replay(rest);
                }
                Incoming::Json(value)
            }
            Some(Err(e)) => Incoming::NotJson(e.to_string()),
            None => Incoming::NotJson("the body is empty".into()),
        }
    }

    /// Reads and drops a body over the limit, in chunks; keeps its start to find the
    /// request's id.
    fn discard(&mut self, size: u64) -> io::Result<Option<Incoming>> {
        let kept = size.min(ID_SEARCH_BYTES as u64);
        let mut start = Vec::new();
        (&mut self.input).take(kept).read_to_end(&mut start)?;
        let rest = size - start.len() as u64;
        let skipped = io::copy(&mut (&mut self.input).take(rest), &mut io::sink())?;
        if (start.len() as u64) < kept || skipped < rest {
            return Ok(None);
        }
        let id = request_id_in(&start);
        Ok(Some(Incoming::TooLarge { size, id }))
    }
}

/// The value of a `Content-Length` header in a line, if the line has one: found in any
/// case and after any junk (a resync after a broken frame), a decimal number of bytes.
fn content_length(line: &[u8]) -> Option<Result<u64, String>> {
    const NAME: &[u8] = b"content-length:";
    let lower = line.to_ascii_lowercase();
    let at = lower.windows(NAME.len()).rposition(|w| w == NAME)?;
    let value = String::from_utf8_lossy(&line[at + NAME.len()..]);
    let value = value.trim();
    let number = value
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| value.parse::<u64>().ok())
        .flatten();
    Some(number.ok_or_else(|| {
        format!(
            "a header block with the Content-Length {value:?}, not a number of bytes, was skipped"
        )
    }))
}

/// The id of the request whose body starts with these bytes, if the start shows it: the
/// `"id"` member of the top-level object, an integer or a string.
pub fn request_id_in(start: &[u8]) -> Option<Value> {
    let mut depth = 0usize;
    let mut i = 0;
    while i < start.len() {
        match start[i] {
            b'"' => {
                let end = string_end(start, i)?;
                let is_id = depth == 1 && &start[i..end] == b"\"id\"";
                if is_id && let Some(id) = member_value(&start[end..]) {
                    return Some(id);
                }
                i = end;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Where the string starting at `start` (its quote) ends: the index of its closing quote
/// plus one; `None` if the bytes end first.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The value after a member's name (`: VALUE`), if it is an integer or a string.
fn member_value(after_name: &[u8]) -> Option<Value> {
    let rest = after_name.trim_ascii_start().strip_prefix(b":")?;
    let mut values = serde_json::Deserializer::from_slice(rest).into_iter::<Value>();
    match values.next()? {
        Ok(v) if v.is_string() || v.is_i64() || v.is_u64() => Some(v),
        _ => None,
    }
}

/// Writes a message as a frame and flushes it.
pub fn write_message(out: &mut impl Write, msg: &Value) -> io::Result<()> {
    let body = serde_json::to_vec(msg)?;
    write!(out, "Content-Length: {}\r\n\r\n", body.len())?;
    out.write_all(&body)?;
    out.flush()
}

/// A buffered input that may be given bytes back to read again first.
struct Replayable<R> {
    input: R,
    replay: Vec<u8>,
    /// How much of `replay` has been read.
    at: usize,
}

impl<R: BufRead> Replayable<R> {
    /// Puts bytes in front of what is left to read.
    fn replay(&mut self, bytes: &[u8]) {
        let mut replay = bytes.to_vec();
        replay.extend_from_slice(&self.replay[self.at..]);
        self.replay = replay;
        self.at = 0;
    }

    /// A line up to its `\n` (or the end of the input), of which at most the last
    /// [`MAX_HEADER_LINE_BYTES`] are kept; `None` at the end of the input.
    fn header_line(&mut self) -> io::Result<Option<Vec<u8>>> {
        let mut line = Vec::new();
        let mut read_any = false;
        loop {
            let buf = match self.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(read_any.then_some(line));
            }
            read_any = true;
            let newline = buf.iter().position(|&b| b == b'\n');
            let chunk = &buf[..newline.map_or(buf.len(), |i| i + 1)];
            line.extend_from_slice(chunk);
            let used = chunk.len();
            self.consume(used);
            if line.len() > 2 * MAX_HEADER_LINE_BYTES {
                line.drain(..line.len() - MAX_HEADER_LINE_BYTES);
            }
            if newline.is_some() {
                return Ok(Some(line));
            }
        }
    }
}

impl<R: BufRead> Read for Replayable<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let buf = self.fill_buf()?;
        let n = buf.len().min(out.len());
        out[..n].copy_from_slice(&buf[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Replayable<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at < self.replay.len() {
            Ok(&self.replay[self.at..])
        } else {
            self.input.fill_buf()
        }
    }

    fn consume(&mut self, n: usize) {
        if self.at < self.replay.len() {
            self.at += n;
            if self.at >= self.replay.len() {
                self.replay.clear();
                self.at = 0;
            }
        } else {
            self.input.consume(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn frames(input: &[u8]) -> Vec<Incoming> {
        let mut r = FrameReader::new(input);
        std::iter::from_fn(|| r.next_frame().unwrap()).collect()
    }

    #[test]
    fn frames_are_read_and_junk_is_skipped() {
        let input = b"Content-Length: 2\r\n\r\n{}\r\n\r\njunk\r\n\r\nxxContent-Length: 1\r\n\r\n7";
        assert_eq!(
            frames(input),
            [
                Incoming::Json(json!({})),
                Incoming::Unframed("a header block without Content-Length was skipped".into()),
                Incoming::Json(json!(7)),
            ]
        );
    }

    #[test]
    fn a_body_cut_by_the_end_of_the_input_is_no_frame() {
        assert_eq!(frames(b"Content-Length: 10\r\n\r\n{}"), []);
    }

    #[test]
    fn the_id_is_found_at_the_start_of_a_body() {
        assert_eq!(
            request_id_in(br#"{"params": {"id": 3}, "x": "\"id\"", "id" : "a", "#),
            Some(json!("a"))
        );
        assert_eq!(
            request_id_in(br#"{"jsonrpc": "2.0", "id": 12, "meth"#),
            Some(json!(12))
        );
        assert_eq!(request_id_in(br#"{"method": "id", "params": {"te"#), None);
        assert_eq!(request_id_in(br#"{"id": null}"#), None);
        assert_eq!(
            request_id_in(br#"{"a": {"b": "c"}, "id": 1, "#),
            Some(json!(1))
        );
    }
}
