//! Taking connections off the game's thread. One thread accepts them; each connection
//! gets a thread of its own that reads its request (before a deadline, see `http`),
//! hands it to the game's thread over a channel, waits for the answer and sends it.
//! So a client that stalls, trickles or floods holds its own thread only, and the game
//! answers the others in turn.
//!
//! The connections open at once are capped below the process's limit on open files:
//! one more is told at once that the server is busy (`503`), and a failure to accept
//! (the limit reached all the same, by other files) is waited out, never the end.

use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::{Duration, Instant};

use super::http::{self, Reply, Request, Unread};

/// The most connections open at once, whatever the limit on open files.
const MAX_CONNECTIONS: usize = 256;
/// Open files the server keeps for other things than connections: the standard
/// streams, the listener, the rule file while it is read, and room to spare.
const FILES_KEPT: usize = 16;
/// The pause after a connection could not be accepted, before trying again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);
/// A connection's thread only reads, parses and writes a little.
const CONNECTION_STACK: usize = 256 * 1024;

/// A request for the game's thread, and where its answer goes.
pub struct Job {
    pub request: Request,
    pub answer: Sender<Reply>,
}

/// Accepts connections on a thread of its own, for as long as the process lives,
/// sending their requests to `jobs`.
pub fn start(listener: TcpListener, jobs: Sender<Job>) -> std::io::Result<()> {
    let cap = connection_cap();
    std::thread::Builder::new()
        .name("accept".into())
        .spawn(move || accept_forever(&listener, &jobs, cap))?;
    Ok(())
}

/// The connections open at once: [`MAX_CONNECTIONS`], fewer under a lower limit on
/// open files, so that the game can still read its rule file with all of them open.
fn connection_cap() -> usize {
    let files = open_file_limit().unwrap_or(usize::MAX);
    files.saturating_sub(FILES_KEPT).clamp(1, MAX_CONNECTIONS)
}

/// The process's limit on open files (`ulimit -n`), where the system tells it
/// (Linux's `/proc`); elsewhere the server relies on surviving failed accepts.
fn open_file_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    let soft = line
        .trim_start_matches("Max open files")
        .split_whitespace()
        .next()?;
    soft.parse().ok()
}

fn accept_forever(listener: &TcpListener, jobs: &Sender<Job>, cap: usize) {
    let open = Arc::new(AtomicUsize::new(0));
    let mut failing = false;
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                failing = false;
                take(stream, &open, cap, jobs);
            }
            Err(e) => {
                // Said once a run of failures, not at every retry.
                if !failing {
                    eprintln!("cannot accept a connection ({e}); trying again");
                }
                failing = true;
                std::thread::sleep(ACCEPT_BACKOFF);
            }
        }
    }
}

/// Gives a new connection a thread, or tells it at once that the server is busy.
fn take(stream: TcpStream, open: &Arc<AtomicUsize>, cap: usize, jobs: &Sender<Job>) {
    let taken = Instant::now();
    if open.load(Ordering::Acquire) >= cap {
        return busy(stream, format!("{cap} connections are open; try again"));
    }
    let slot = Slot::take(open);
    let jobs = jobs.clone();
    let spawned = std::thread::Builder::new()
        .name("connection".into())
        .stack_size(CONNECTION_STACK)
        .spawn(move || serve_connection(stream, taken, &jobs, slot));
    // The connection went down with the closure that held it, and its slot with it.
    if let Err(e) = spawned {
        eprintln!("cannot start a thread for a connection ({e})");
    }
}

/// Refuses a connection from the accepting thread, without waiting on the client.
fn busy(stream: TcpStream, why: String) {
    http::answer_at_once(stream, &Reply::error(503, why));
}

/// Reads a request, has the game answer it, and sends the answer.
fn serve_connection(mut stream: TcpStream, taken: Instant, jobs: &Sender<Job>, _slot: Slot) {
    let reply = match http::read_request(&mut stream, taken + http::REQUEST_DEADLINE) {
        Ok(request) => ask_game(jobs, request),
        Err(Unread::Gone) => return,
        Err(Unread::Refused(reply)) => reply,
    };
    http::answer(&mut stream, &reply);
}

/// The game's answer to a request (it may think for a while: `/computer`).
fn ask_game(jobs: &Sender<Job>, request: Request) -> Reply {
    let (answer, answered) = channel();
    let stopped = || Reply::error(503, "the game has stopped");
    if jobs.send(Job { request, answer }).is_err() {
        return stopped();
    }
    answered.recv().unwrap_or_else(|_| stopped())
}

/// One of the open connections counted: given back when dropped, however the
/// connection's thread ends.
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(open: &Arc<AtomicUsize>) -> Slot {
        open.fetch_add(1, Ordering::AcqRel);
        Slot(open.clone())
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}
