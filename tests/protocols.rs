//! The engine protocols, driven as interfaces drive them: python-chess's engine module
//! (a real UCI and XBoard client) plays chess against `varsand uci` and `varsand
//! xboard`, and raw sessions on games python-chess does not know (Monkey Queen,
//! Jungles and Mountains Chess, Xiangqi's 10 ranks, boards at WinBoard's limits)
//! check every move the engine gives with varsand's own rules.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
mod common;

use common::rules;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use varsand::Position;
use varsand::protocol::winboard::WinBoard;

const BIN: &str = env!("CARGO_BIN_EXE_varsand");
/// The longest a test waits for one answer: far more than any search here takes.
const PATIENCE: Duration = Duration::from_secs(20);

/// An engine process and the lines it writes.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// What it writes on standard error, read to the end.
    stderr: Option<std::thread::JoinHandle<String>>,
}

impl Engine {
    fn start(protocol: &str, file: &str) -> Engine {
        let mut child = Command::new(BIN)
            .args([protocol, file])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the varsand binary runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut err = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut err, &mut text);
            text
        });
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            stderr: Some(stderr),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads its input");
        self.stdin.flush().unwrap();
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no `{prefix}` line; got {seen:#?}"),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine ended before a `{prefix}` line; got {seen:#?}")
                }
            }
        }
    }

    /// The last line of [`Engine::until`].
    fn last(&self, prefix: &str) -> String {
        self.until(prefix).pop().unwrap()
    }

    /// Lines written within `wait` (none expected, in the tests that use it).
    fn quiet_for(&self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut seen = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            seen.push(line);
        }
        seen
    }

    /// Sends `quit` and waits for the process to end with success, having written
    /// nothing on standard error (a panic in the search thread would show there).
    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        let stderr = self.stderr.take().unwrap().join().unwrap();
        assert!(status.success() && stderr.is_empty(), "{status}: {stderr}");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove M [ponder N]` line.
fn best_move(line: &str) -> &str {
    line.split_whitespace()
        .nth(1)
        .unwrap_or_else(|| panic!("`{line}` names no move"))
}

/// Runs tests/protocols/play_chess.py: python-chess plays chess against the engine.
fn python_chess_plays(protocol: &str) {
    if !common::tools::available(common::tools::Tool::PythonChess) {
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/protocols/play_chess.py");
    let out = Command::new("python3")
        .arg(&script)
        .args([BIN, "variants/chess.var", protocol])
        .output()
        .expect("python3 runs (install Python 3)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.code() != Some(3),
        "python-chess is missing: python3 -m pip install chess\n{stderr}"
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("mate in one found"), "{stdout}");
    assert!(
        stdout.lines().filter(|l| l.contains(" game ")).count() >= 3,
        "{stdout}"
    );
}

#[test]
fn python_chess_plays_uci_games_and_finds_a_mate_in_one() {
    python_chess_plays("uci");
}

#[test]
fn python_chess_plays_xboard_games_and_finds_a_mate_in_one() {
    python_chess_plays("xboard");
}

/// Plays `plies` plies by UCI on `file`, the engine choosing every move of a game
/// sent again from the start each time, as interfaces do; every move is checked
/// with varsand's rules.
fn uci_self_play(file: &str, variant: &str, go: &str, plies: usize) {
    let mut pos = Position::start(rules(file));
    let mut e = Engine::start("uci", file);
    e.send("uci");
    let hello = e.until("uciok");
    let option = format!("option name UCI_Variant type combo default {variant} var {variant}");
    assert!(hello.contains(&option), "{hello:#?}");
    e.send(&format!("setoption name UCI_Variant value {variant}"));
    e.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send(go);
        let answer = e.until("bestmove");
        assert!(answer.iter().all(|l| !l.contains("error")), "{answer:#?}");
        let m = best_move(answer.last().unwrap()).to_string();
        if m == "(none)" {
            assert!(pos.outcome().is_some(), "no move in {}", pos.fen());
            break;
        }
        assert!(pos.play(&m).is_ok(), "`{m}` is illegal in {}", pos.fen());
        moves.push(m);
    }
    assert!(!moves.is_empty());
    e.quit();
}

#[test]
fn uci_plays_monkey_queen_legally() {
    uci_self_play("variants/monkey_queen.var", "monkey_queen", "go depth 2", 8);
}

#[test]
fn uci_plays_jungles_and_mountains_legally() {
    uci_self_play(
        "variants/jungles_mountains.var",
        "jungles_and_mountains_chess",
        "go nodes 3000",
        10,
    );
}

/// Plays by XBoard on `file`: the engine plays the first player (`go` once, then it
/// answers each `usermove`), a varsand-side mover the second; every engine move is
/// checked with varsand's rules. WinBoard's square names are varsand's on these
/// boards (not 10 ranks high).
fn xboard_game(file: &str, variant: &str, sized: &str, setup: &str, plies: usize) {
    let mut pos = Position::start(rules(file));
    let mut e = Engine::start("xboard", file);
    e.send("xboard");
    e.send("protover 2");
    let features = e.until("feature done=1");
    let listed = format!("variants=\"{variant},fairy{sized}\"");
    assert!(
        features.iter().any(|l| l.contains(&listed)),
        "{features:#?}"
    );
    e.send("new");
    e.send(&format!("variant {variant}"));
    e.send("ping 1");
    let answer = e.until("pong 1");
    assert!(answer[0].starts_with(setup), "{answer:#?}");
    e.send("sd 2");
    e.send("force");
    e.send("go");
    let mut rng = 11u64;
    for _ in 0..plies {
        let m = e.last("move ");
        let m = m.strip_prefix("move ").unwrap();
        assert!(pos.play(m).is_ok(), "`{m}` is illegal in {}", pos.fen());
        if pos.outcome().is_some() {
            e.until("1-0");
            break;
        }
        let replies: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .map(|m| pos.move_text(m))
            .filter(|t| t != "swap")
            .collect();
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let reply = &replies[(rng >> 33) as usize % replies.len()];
        pos.play(reply).unwrap();
        e.send(&format!("usermove {reply}"));
        if pos.outcome().is_some() {
            break;
        }
    }
    e.send("ping 2");
    let rest = e.until("pong 2");
    assert!(
        rest.iter()
            .all(|l| !l.starts_with("Illegal") && !l.starts_with("Error")),
        "{rest:#?}"
    );
    e.quit();
}

#[test]
fn xboard_plays_monkey_queen_legally_on_a_12x12_board() {
    xboard_game(
        "variants/monkey_queen.var",
        "monkey_queen",
        ",12x12+0_fairy",
        "setup (..B.Q...................b.q.................) 12x12+0_fairy 5q6/12/12/12/12/12/12/12/12/12/12/6Q5 w - - 0 1",
        6,
    );
}

#[test]
fn xboard_plays_jungles_and_mountains_legally() {
    // Terrain letters are pieces to WinBoard: the jungle a black G, mountains white Ms.
    xboard_game(
        "variants/jungles_mountains.var",
        "jungles_and_mountains_chess",
        "",
        "setup (.NBRQ.E...M....GD....K.nbrq.e...m....gd....k) 8x8+0_fairy rnbqkbnr/gdeggdeg/gggggggg/MMMMMMMM/MMMMMMMM/gggggggg/gDEggEDg/RNBQKBNR w KQkq - 0 1",
        8,
    );
}

#[test]
fn uci_answers_bad_input_with_errors_and_keeps_going() {
    let mut e = Engine::start("uci", "variants/chess.var");
    let bad = [
        ("frobnicate", "unknown command `frobnicate`"),
        (
            "setoption name Hash value 0",
            "Hash: `0` is not a whole number from 1 to",
        ),
        ("setoption name Hash value 99999999999999999999", "Hash:"),
        (
            "setoption name Nonsense value 1",
            "no option is called `Nonsense`",
        ),
        (
            "setoption name UCI_Variant value shogi",
            "this engine plays chess",
        ),
        ("position fen 8/8/8 w", "position kept as it was"),
        (
            "position fen 4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
            "cannot arise",
        ),
        ("position", "position wants"),
        (
            "position startpos moves e2e4 e2e5 d7d5",
            "move 2 `e2e5` is not legal",
        ),
    ];
    for (command, error) in bad {
        e.send(command);
        let line = e.last("info string error");
        assert!(line.contains(error), "`{command}` gave `{line}`");
    }
    // The position kept the legal first move: black is to move.
    e.send("go depth 1 nodes x frob");
    let answer = e.until("bestmove");
    assert_eq!(
        answer
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .count(),
        2,
        "{answer:#?}"
    );
    let m = best_move(answer.last().unwrap());
    let mut pos = Position::start(rules("variants/chess.var"));
    pos.play("e2e4").unwrap();
    assert!(pos.play(m).is_ok(), "{m}");
    e.send("isready");
    e.until("readyok");
    e.quit();
}

#[test]
fn uci_infinite_waits_for_stop_and_answers_isready_while_thinking() {
    let mut e = Engine::start("uci", "variants/chess.var");
    e.send("position startpos");
    e.send("go infinite");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:#?}"
    );
    let more = e.quiet_for(Duration::from_millis(300));
    assert!(more.iter().all(|l| !l.starts_with("bestmove")), "{more:#?}");
    let asked = Instant::now();
    e.send("stop");
    e.until("bestmove");
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    // A decided search is held too: `go infinite` in a mate in one still waits.
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    e.send("go infinite");
    let held = e.quiet_for(Duration::from_millis(200));
    assert!(held.iter().all(|l| !l.starts_with("bestmove")), "{held:#?}");
    e.send("stop");
    assert_eq!(e.last("bestmove"), "bestmove a1a8");
    e.quit();
}

#[test]
fn uci_ponder_waits_for_ponderhit_then_keeps_to_the_clock() {
    let mut e = Engine::start("uci", "variants/chess.var");
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 2000 btime 2000");
    let held = e.quiet_for(Duration::from_millis(300));
    assert!(held.iter().all(|l| !l.starts_with("bestmove")), "{held:#?}");
    let hit = Instant::now();
    e.send("ponderhit");
    e.until("bestmove");
    // (2 s - 50 ms) / 30 moves: about 65 ms.
    assert!(
        hit.elapsed() < Duration::from_secs(1),
        "{:?}",
        hit.elapsed()
    );
    e.quit();
}

#[test]
fn uci_keeps_to_a_short_clock() {
    let mut e = Engine::start("uci", "variants/capablanca.var");
    e.send("position startpos");
    let asked = Instant::now();
    e.send("go wtime 600 btime 600 winc 0 binc 0");
    let m = best_move(&e.last("bestmove")).to_string();
    // Its share: (600 - 50) ms / 30, far below what the clock holds.
    assert!(
        asked.elapsed() < Duration::from_millis(400),
        "{:?}",
        asked.elapsed()
    );
    assert!(
        Position::start(rules("variants/capablanca.var"))
            .play(&m)
            .is_ok()
    );
    e.quit();
}

#[test]
fn uci_answers_none_when_the_game_is_over() {
    let mut e = Engine::start("uci", "variants/chess.var");
    // Fool's mate: white is checkmated.
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.contains("white is checkmated")),
        "{lines:#?}"
    );
    assert!(
        lines.contains(&"info depth 0 score mate 0".to_string()),
        "{lines:#?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    // Three times the same position: the file's repetition draw.
    e.send("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.contains("occurred 3 times")),
        "{lines:#?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    e.quit();
}

#[test]
fn xboard_announces_the_end_and_refuses_illegal_moves() {
    let mut e = Engine::start("xboard", "variants/chess.var");
    e.send("protover 2");
    e.until("feature done=1");
    e.send("new");
    e.send("force");
    e.send("usermove e2e5");
    assert_eq!(
        e.last("Illegal"),
        "Illegal move (a Pawn does not move from e2 to e5 [its moves: fmW fcF ifmnD]): e2e5"
    );
    e.send("bogus");
    assert_eq!(e.last("Error"), "Error (unknown command): bogus");
    e.send("sd 100");
    assert!(e.last("Error").contains("sd 100"));
    e.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    e.send("sd 3");
    e.send("post");
    e.send("go");
    let lines = e.until("1-0");
    assert!(
        lines.iter().any(|l| l.starts_with("1 100001 ")),
        "{lines:#?}"
    );
    assert_eq!(lines[lines.len() - 2], "move a1a8");
    assert_eq!(lines.last().unwrap(), "1-0 {black is checkmated}");
    e.send("undo");
    e.send("usermove a1a7");
    e.send("ping 3");
    let after = e.until("pong 3");
    assert!(
        after.iter().all(|l| !l.starts_with("Illegal")),
        "{after:#?}"
    );
    e.quit();
}

#[test]
fn xboard_numbers_ten_ranks_from_zero() {
    let mut e = Engine::start("xboard", "variants/xiangqi.var");
    e.send("protover 2");
    e.until("feature done=1");
    e.send("variant xiangqi");
    assert!(e.last("setup").contains(") 9x10+0_fairy rnbakabnr/"));
    e.send("force");
    // WinBoard's h2 is varsand's h3: the cannon's central move.
    e.send("usermove h2e2");
    e.send("sd 2");
    e.send("go");
    let m = e.last("move ");
    let m = m.strip_prefix("move ").unwrap();
    let ranks: Vec<u32> = m
        .split(|c: char| c.is_ascii_alphabetic())
        .filter(|d| !d.is_empty())
        .map(|d| d.parse().unwrap())
        .collect();
    assert!(ranks.iter().all(|&r| r <= 9), "{m}");
    // Back to varsand's names: one more for each rank.
    let varsand_text: String = m
        .chars()
        .map(|c| {
            c.to_digit(10)
                .map_or(c.to_string(), |d| (d + 1).to_string())
        })
        .collect();
    let mut pos = Position::start(rules("variants/xiangqi.var"));
    pos.play("h3e3").unwrap();
    assert!(pos.play(&varsand_text).is_ok(), "{m} ({varsand_text})");
    e.quit();
}

// ---- WinBoard's names for squares, moves and positions ---------------------------

/// The start position of a shipped game.
fn start(file: &str) -> Position {
    Position::start(rules(&format!("variants/{file}.var")))
}

#[test]
fn ten_ranks_are_numbered_from_zero_both_ways() {
    let pos = start("xiangqi");
    let board = WinBoard::new(&pos);
    let rules = pos.rules();
    let h3 = rules.geometry().parse_square("h3").unwrap();
    assert_eq!(board.square(rules, h3), "h2");
    assert_eq!(board.cell(rules, "h2"), Some(h3));
    assert_eq!(board.read_move(rules, "h2e2"), "h3e3");
    assert_eq!(board.read_move(rules, "a0a9"), "a1a10");
    assert_eq!(board.read_fen(rules, "9/9 w - e2 0 1"), "9/9 w - e3 0 1");
    // Not a square: the text comes back as it was, for the engine to refuse.
    assert_eq!(board.read_move(rules, "z9z8"), "z9z8");
    assert_eq!(board.read_move(rules, "a1000a1"), "a1000a1");
}

#[test]
fn other_boards_keep_their_rank_numbers() {
    let pos = start("monkey_queen");
    let board = WinBoard::new(&pos);
    let rules = pos.rules();
    assert_eq!(board.read_move(rules, "f12f3"), "f12f3");
    let m = pos.clone().parse_move("g1g12").unwrap();
    assert_eq!(board.move_text(&pos, m), "g1g12");
    assert_eq!(board.sized_fairy().as_deref(), Some("12x12+0_fairy"));
}

#[test]
fn drops_passes_and_declined_promotions_read_as_varsand_writes_them() {
    let pos = start("minishogi");
    let board = WinBoard::new(&pos);
    let rules = pos.rules();
    assert_eq!(board.read_move(rules, "P@c3"), "P@c3");
    assert_eq!(board.read_move(rules, "@@@@"), "pass");
    assert_eq!(board.read_move(rules, "a2a3="), "a2a3");
    assert_eq!(board.read_move(rules, "b4b5+"), "b4b5+");
}

/// Fairy-Stockfish's XBoard mode (checked against its binary built with all=yes,
/// `variant duck` and `variant amazons`): a move with a second part is written with
/// the first part's letter last (`b7b8,b8b3q`; UCI writes `b7b8q,b8b3`), on ten ranks
/// numbered from 0, and sent in two lines (`move b7b8,` then `move b8b3q`). Gating
/// moves are written as UCI writes them (`b1c3h`).
#[test]
fn two_part_moves_are_written_and_read_as_fairy_stockfishs_xboard_mode_does() {
    let pos = Position::from_fen(
        rules("variants/duck.var"),
        "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
    )
    .unwrap();
    let board = WinBoard::new(&pos);
    let rules = pos.rules();
    let m = pos.clone().parse_move("b7b8q,b8b3").unwrap();
    assert_eq!(board.move_text(&pos, m), "b7b8,b8b3q");
    assert_eq!(board.read_move(rules, "b7b8,b8b3q"), "b7b8q,b8b3");
    assert_eq!(board.read_move(rules, "b7b8q,b8b3"), "b7b8q,b8b3");
    assert_eq!(board.read_move(rules, "e1e2,e2e3"), "e1e2,e2e3");
    assert_eq!(
        varsand::protocol::winboard::move_lines("b7b8,b8b3q"),
        ["move b7b8,", "move b8b3q"]
    );
    assert_eq!(
        varsand::protocol::winboard::move_lines("e2e4"),
        ["move e2e4"]
    );
    // Amazons: ten ranks, numbered from 0 in both parts.
    let pos = start("amazons");
    let board = WinBoard::new(&pos);
    let m = pos.clone().parse_move("d1d5,d5d9").unwrap();
    assert_eq!(board.move_text(&pos, m), "d0d4,d4d8");
    assert_eq!(board.read_move(pos.rules(), "d0d4,d4d8"), "d1d5,d5d9");
    // S-Chess: a piece brought onto a gate.
    let pos = start("seirawan");
    let m = pos.clone().parse_move("b1c3h").unwrap();
    assert_eq!(WinBoard::new(&pos).move_text(&pos, m), "b1c3h");
}

#[test]
fn xboard_sends_a_two_part_move_in_two_lines_and_reads_it_whole() {
    let mut e = Engine::start("xboard", "variants/duck.var");
    e.send("protover 2");
    e.until("feature done=1");
    e.send("new");
    e.send("force");
    e.send("setboard 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    e.send("usermove b7b8,b8b3q");
    e.send("usermove e8d7,d7d6");
    e.send("sd 1");
    e.send("go");
    let lines = e.until("move ");
    let first = lines.last().unwrap().clone();
    assert!(
        first.starts_with("move ") && first.ends_with(','),
        "{lines:#?}"
    );
    let second = e.until("move ");
    let second = second.last().unwrap();
    assert!(!second.contains(','), "{second}");
    e.send("ping 2");
    let after = e.until("pong 2");
    assert!(
        after.iter().all(|l| !l.starts_with("Illegal")),
        "{after:#?}"
    );
    e.quit();
}

#[test]
fn hand_pieces_come_first_and_promoted_forms_sit_on_their_partners() {
    let pos = start("shogi");
    let setup = WinBoard::new(&pos).setup(&pos).unwrap();
    // Holdings hold P N B R G S L (types 0-6); +P +N +B +R on 11-14, +S +L on 16-17.
    assert!(
        setup.starts_with("setup (PNBRGSL....++++.++...Kpnbrgsl....++++.++...k) 9x9+7_fairy "),
        "{setup}"
    );
    let pos = start("crazyhouse");
    let setup = WinBoard::new(&pos).setup(&pos).unwrap();
    assert!(
        setup.starts_with("setup (PNBRQ.......~~~~.....Kpnbrq.......~~~~.....k) 8x8+5_fairy "),
        "{setup}"
    );
    assert!(setup.ends_with("/RNBQKBNR[] w KQkq - 0 1"), "{setup}");
}

#[test]
fn the_position_string_has_no_stack_heights_and_w_or_b() {
    let pos = start("monkey_queen");
    let board = WinBoard::new(&pos);
    assert!(pos.fen().contains("q(20)"));
    assert_eq!(
        board.fen(&pos),
        "5q6/12/12/12/12/12/12/12/12/12/12/6Q5 w - - 0 1"
    );
    assert_eq!(board.unfit(), None);
    let pos = start("monkey_king");
    let board = WinBoard::new(&pos);
    assert!(board.unfit().unwrap().contains("3 boards"));
    assert_eq!(board.setup(&pos), None);
}

/// A rule file for a board of `files` x `ranks`, with hands or not.
fn board_file(dir: &Path, files: usize, ranks: usize, hands: bool) -> String {
    let path = dir.join(format!("board_{files}x{ranks}_{hands}.var"));
    let back = format!("k{}", files - 1);
    let front = format!("{}K", files - 1);
    let middle = vec![files.to_string(); ranks - 2].join("/");
    let hand = if hands { "[]" } else { "" };
    let text = format!(
        "game \"Board {files}x{ranks}\"\nboard {files} x {ranks}\nplayers white black\n\
         zone anywhere = all\n{}\
         piece King K {{ moves \"K\"  royal }}\npiece Rook R {{ moves \"R\" }}\n\
         end {{ checkmate loss  stalemate draw }}\n\
         setup \"{back}/{middle}/{front}{hand} w - - 0 1\"\n",
        if hands {
            "captures-to-hand\ndrop in anywhere\n"
        } else {
            ""
        }
    );
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn xboard_shows_boards_up_to_winboards_limits_and_says_why_not_past_them() {
    let dir = std::env::temp_dir().join(format!("varsand-protocols-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            16,
            16,
            false,
            Some("setup (...R.................K...r.................k) 16x16+0_fairy"),
        ),
        (
            12,
            12,
            true,
            Some("setup (R....................Kr....................k) 12x12+1_fairy"),
        ),
        (17, 8, false, None),
        (13, 8, true, None),
        (8, 17, false, None),
    ];
    for (files, ranks, hands, setup) in cases {
        let file = board_file(&dir, files, ranks, hands);
        let variant = format!("board_{files}x{ranks}");
        let mut e = Engine::start("xboard", &file);
        e.send("protover 2");
        e.until("feature done=1");
        e.send(&format!("variant {variant}"));
        e.send("ping 1");
        let answer = e.until("pong 1");
        match setup {
            Some(setup) => assert!(answer[0].starts_with(setup), "{answer:#?}"),
            None => assert!(
                answer[0].starts_with("tellusererror varsand cannot show")
                    && answer[0].contains("WinBoard draws at most 16 files"),
                "{answer:#?}"
            ),
        }
        // Past the limits the engine still plays, in its own square names.
        e.send("sd 1");
        e.send("go");
        e.until("move ");
        e.quit();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_game_can_be_announced_under_another_name() {
    let out = Command::new(BIN)
        .args(["uci", "variants/capablanca.var", "--variant", "capablanca"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(b"uci\nquit\n")?;
            child.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("option name UCI_Variant type combo default capablanca var capablanca"),
        "{text}"
    );
    let out = Command::new(BIN)
        .args([
            "xboard",
            "variants/capablanca.var",
            "--variant",
            "two words",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("--variant `two words`"), "{text}");
}

/// XBoard itself (under Xvfb) plays a whole game between two varsand engines, each
/// game's board and pieces set by `setup`. Needs Debian's `xboard` and `xvfb`
/// packages; about a minute.
#[test]
#[ignore]
fn xboard_the_interface_plays_engine_games() {
    let xboard = ["/usr/games/xboard", "/usr/bin/xboard"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("XBoard is missing: apt-get install xboard xvfb");
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = std::env::temp_dir().join(format!("varsand-xboard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (file, variant) in [("minishogi", "minishogi"), ("xiangqi", "xiangqi")] {
        let engine = format!("{BIN} xboard {root}/variants/{file}.var");
        let pgn = dir.join(format!("{file}.pgn"));
        let debug = dir.join(format!("{file}.debug"));
        let status = Command::new("xvfb-run")
            .arg("-a")
            .arg(xboard)
            .args(["-fcp", &engine, "-scp", &engine, "-mg", "1", "-tc", "0:10"])
            .args(["-inc", "0.1", "-variant", variant, "-testLegality", "false"])
            .args(["-popupExitMessage", "false", "-debug", "-nameOfDebugFile"])
            .arg(&debug)
            .arg("-sgf")
            .arg(&pgn)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("xvfb-run is missing: apt-get install xvfb");
        assert!(status.success(), "{file}: {status}");
        let games = std::fs::read_to_string(&pgn).unwrap_or_default();
        let log = std::fs::read_to_string(&debug).unwrap_or_default();
        assert!(
            !games.contains("[Result \"*\"]") && games.contains("[Result \""),
            "{file}: {games}"
        );
        // No move refused, no game lost on time.
        let clean = !games.contains("Forfeit") && !games.contains("on time");
        assert!(clean && !log.contains("Illegal move"), "{file}: {games}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Random command lines built from each protocol's words, numbers in and out of range
/// and junk: the engine answers every one and never ends before `quit`.
#[test]
fn both_protocols_survive_random_input() {
    let numbers = [
        "-5",
        "0",
        "1",
        "3",
        "40",
        "0:30",
        "0.5",
        "99999999999999999999",
        "x",
    ];
    let uci = [
        "uci",
        "isready",
        "ucinewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "stop",
        "ponderhit",
        "setoption",
        "name",
        "value",
        "Hash",
        "Move Overhead",
        "UCI_Variant",
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "movestogo",
        "mate",
        "infinite",
        "ponder",
        "searchmoves",
        "e2e4",
        "e7e5",
        "g1f3",
        "8/8/8/8/8/8/8/8",
        "w",
        "-",
        "\u{7f}é",
    ];
    let xboard = [
        "xboard",
        "protover",
        "new",
        "variant",
        "fairy",
        "chess",
        "force",
        "go",
        "playother",
        "usermove",
        "?",
        "setboard",
        "undo",
        "remove",
        "sd",
        "st",
        "level",
        "time",
        "otim",
        "nps",
        "memory",
        "result",
        "post",
        "nopost",
        "analyze",
        "exit",
        ".",
        "e2e4",
        "e7e5",
        "@@@@",
        "P@e4",
        "8/8/8/8/8/8/8/8",
        "w",
        "-",
        "\u{7f}é",
    ];
    for (protocol, words, last, answer) in [
        ("uci", &uci[..], "isready", "readyok"),
        ("xboard", &xboard[..], "ping 9", "pong 9"),
    ] {
        let mut e = Engine::start(protocol, "variants/chess.var");
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..1500 {
            let len = 1 + next(6);
            let line: Vec<&str> = (0..len)
                .map(|_| {
                    if next(3) == 0 {
                        numbers[next(numbers.len())]
                    } else {
                        words[next(words.len())]
                    }
                })
                .collect();
            e.send(&line.join(" "));
        }
        // A search still thinking is stopped; the last answer comes after it.
        e.send(if protocol == "uci" { "stop" } else { "force" });
        e.send(last);
        e.until(answer);
        e.quit();
    }
}

#[test]
fn uci_plays_kyoto_shogi_legally() {
    uci_self_play("variants/kyotoshogi.var", "kyoto_shogi", "go depth 2", 16);
}

#[test]
fn uci_plays_s_chess_legally() {
    uci_self_play("variants/seirawan.var", "s_chess", "go depth 2", 16);
}

#[test]
fn uci_plays_placement_chess_legally() {
    uci_self_play(
        "variants/placement.var",
        "placement_chess",
        "go depth 2",
        40,
    );
}

#[test]
fn uci_plays_tori_shogi_legally() {
    uci_self_play("variants/torishogi.var", "tori_shogi", "go depth 2", 16);
}

#[test]
fn uci_plays_flipello_legally() {
    uci_self_play("variants/flipello.var", "flipello", "go depth 2", 70);
}

#[test]
fn uci_plays_ataxx_legally() {
    uci_self_play("variants/ataxx.var", "ataxx", "go depth 2", 40);
}

#[test]
fn uci_plays_amazons_legally() {
    uci_self_play("variants/amazons.var", "amazons", "go depth 1", 8);
}

#[test]
fn uci_plays_duck_chess_legally() {
    uci_self_play("variants/duck.var", "duck_chess", "go depth 2", 12);
}
