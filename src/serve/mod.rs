//! `varsand serve FILE`: the game on a web page, on 127.0.0.1 only. Click a piece to
//! see its moves, click a target to play; undo, redo, the computer's move, the move
//! list and the rules in words. The server follows the rule file: when it changes on
//! disk the rules are reloaded and the game replayed under them, as the REPL's
//! `reload` does, and when it no longer checks the page shows the diagnostics.
//!
//! One game per server, held by one thread that answers the requests in turn. The
//! connections are taken and read on other threads (`listen`, `http`), so that a client
//! that stalls or floods cannot hold the game. The page and its script and style are
//! compiled in (`page/`): nothing is fetched from elsewhere.

mod board;
mod game;
mod http;
mod listen;
mod routes;
mod state;
mod watch;

use std::io::Write;
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::mpsc::channel;

use game::Game;

/// The port `serve` listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 8080;
/// The computer's thinking time per move unless told otherwise, in milliseconds.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// What `varsand serve` was asked for.
pub struct Options {
    pub file: PathBuf,
    /// 0 for any free port.
    pub port: u16,
    pub movetime_ms: u64,
}

/// Serves the game until the process is stopped. The first line on standard output
/// is the page's address, so that a script can read which port was given. It never
/// returns but with an error: the loop over the requests ends only if the thread
/// taking connections is gone.
pub fn run(options: Options) -> Result<(), String> {
    let mut game = Game::open(options.file, options.movetime_ms)?;
    let listener = TcpListener::bind(("127.0.0.1", options.port)).map_err(|e| {
        format!(
            "error: cannot listen on 127.0.0.1:{}: {e} (`--port 0` takes any free port)\n",
            options.port
        )
    })?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("error: the server has no address: {e}\n"))?
        .port();
    let mut out = std::io::stdout().lock();
    writeln!(out, "http://127.0.0.1:{port}/")
        .and_then(|()| out.flush())
        .map_err(|e| format!("error: cannot write the address: {e}\n"))?;
    drop(out);
    eprintln!(
        "serving {} — the page follows the file as you edit it; Ctrl-C stops",
        game.path().display()
    );
    let (jobs, requests) = channel();
    listen::start(listener, jobs)
        .map_err(|e| format!("error: cannot start taking connections: {e}\n"))?;
    for job in requests {
        // The connection may have gone; nobody is left to tell.
        let _ = job
            .answer
            .send(routes::answer(&mut game, &job.request, port));
    }
    Err("error: the server stopped taking connections\n".into())
}
