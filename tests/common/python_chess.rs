//! python-chess as an independent reader of the PGN varsand writes (tests/match_cli.rs,
//! tests/pgn.rs).

use std::path::Path;
use std::process::Command;

use super::process::text;

/// One game as python-chess reads it: its parsing errors, its moves in UCI, the
/// Result tag, and the outcome of the position its moves reach (`1-0`, `0-1`,
/// `1/2-1/2`, or `*` when the board says the game goes on).
#[derive(Debug, serde::Deserialize)]
pub struct PyGame {
    pub errors: Vec<String>,
    pub moves: Vec<String>,
    pub result: String,
    pub outcome: String,
    pub headers: std::collections::BTreeMap<String, String>,
}

/// Reads every game of a PGN file with python-chess's `chess.pgn.read_game`,
/// replaying the moves on its own board (an illegal move is an error of the game).
/// Fails loudly, with how to install it, when python-chess is missing.
pub fn python_chess_read(pgn: &Path) -> Vec<PyGame> {
    const SCRIPT: &str = r#"
import json, sys
import chess, chess.pgn
with open(sys.argv[1]) as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        board = game.end().board()
        outcome = board.outcome(claim_draw=True)
        print(json.dumps({
            "errors": [str(e) for e in game.errors],
            "moves": [m.uci() for m in game.mainline_moves()],
            "result": game.headers.get("Result", "?"),
            "outcome": outcome.result() if outcome else "*",
            "headers": dict(game.headers),
        }))
"#;
    let out = Command::new("python3")
        .args(["-c", SCRIPT])
        .arg(pgn)
        .output()
        .unwrap_or_else(|e| panic!("python3 is needed for this test ({e}): install Python 3 and `python3 -m pip install chess`"));
    let stderr = text(&out.stderr);
    assert!(
        !stderr.contains("No module named 'chess'"),
        "python-chess is needed for this test: `python3 -m pip install chess`\n{stderr}"
    );
    assert!(out.status.success(), "python-chess failed:\n{stderr}");
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("python's JSON"))
        .collect()
}
