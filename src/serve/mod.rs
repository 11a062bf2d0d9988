//! `varsand serve FILE`: the game on a web page, on 127.0.0.1 only. Click a piece to
//! see its moves, click a target to play; undo, redo, the computer's move, the move
//! list and the rules in words. The server follows the rule file: when it changes on
//! disk the rules are reloaded and the game replayed under them, as the REPL's
//! `reload` does, and when it no longer checks the page shows the diagnostics.
//!
//! One game per server, held by one thread that answers the requests in turn
//! (`tiny_http`, synchronous). The page and its script and style are compiled in
//! (`page/`): nothing is fetched from elsewhere.

mod board;
mod game;
mod routes;
mod state;
mod watch;

use std::io::Write;
use std::path::PathBuf;

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
/// is the page's address, so that a script can read which port was given.
pub fn run(options: Options) -> Result<(), String> {
    let mut game = Game::open(options.file, options.movetime_ms)?;
    let server = tiny_http::Server::http(("127.0.0.1", options.port)).map_err(|e| {
        format!(
            "error: cannot listen on 127.0.0.1:{}: {e} (`--port 0` takes any free port)\n",
            options.port
        )
    })?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .ok_or("error: the server has no TCP address\n")?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "http://127.0.0.1:{port}/")
        .and_then(|()| out.flush())
        .map_err(|e| format!("error: cannot write the address: {e}\n"))?;
    drop(out);
    eprintln!(
        "serving {} — the page follows the file as you edit it; Ctrl-C stops",
        game.path().display()
    );
    for request in server.incoming_requests() {
        routes::answer(&mut game, request, port);
    }
    Ok(())
}
