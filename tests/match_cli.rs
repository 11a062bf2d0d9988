//! `varsand match`: two UCI engines (varsand's own `varsand uci`, and a misbehaving
//! one in tests/match/bad_engine.py) play short games; the summary, the PGN (read by
//! varsand and by python-chess, every move replayed) and the losses of an engine
//! that plays an illegal move, no move, no move in time, or crashes.

mod common;

use common::process::{BIN, TempDir, repo, text, varsand};
use common::python_chess::python_chess_read;
use common::tools::Tool;
use varsand::Position;
use varsand::pgn::{GameResult, read_games};

const CHESS: &str = "variants/chess.var";

/// The command line of varsand as a UCI engine of a rule file.
fn varsand_uci(file: &str) -> String {
    format!("'{BIN}' uci '{}'", repo(file).display())
}

fn bad_engine(mode: &str) -> String {
    format!(
        "python3 '{}' {mode}",
        repo("tests/match/bad_engine.py").display()
    )
}

/// Runs a match: (status, stdout, stderr).
fn run_match(file: &str, engines: [&str; 2], extra: &[&str]) -> (bool, String, String) {
    let path = repo(file);
    let mut args = vec!["match", path.to_str().unwrap()];
    for e in &engines {
        args.extend(["--engine", e]);
    }
    args.extend(extra);
    let out = varsand(&args, None);
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

/// Replays every game of a PGN file under the rule file with varsand: each move
/// legal, and the result the position's end gives (or a loss by the rules' breach the
/// Termination tag states). Returns the games.
fn replay_with_varsand(pgn: &std::path::Path, file: &str) -> Vec<varsand::pgn::PgnGame> {
    let games = read_games(&std::fs::read_to_string(pgn).expect("the PGN")).expect("PGN reads");
    let source = std::fs::read_to_string(repo(file)).unwrap();
    let rules = varsand::load_rules(&source).expect("rules");
    for g in &games {
        let mut pos = Position::start(rules.clone());
        for m in &g.moves {
            pos.play(m)
                .unwrap_or_else(|_| panic!("{m} is illegal in {}", pos.fen()));
        }
        if g.tag("Termination") == Some("normal") {
            let end = pos.outcome().expect("a finished game");
            assert_eq!(GameResult::of(Some(&end)), g.result, "{:?}", g.tags());
        }
    }
    games
}

#[test]
fn varsand_plays_itself_at_chess_and_the_games_replay_in_varsand_and_python_chess() {
    if !common::tools::available(Tool::PythonChess) {
        return;
    }
    let tmp = TempDir::new("chess");
    let pgn = tmp.path("games.pgn");
    let engine = varsand_uci(CHESS);
    let (ok, out, err) = run_match(
        CHESS,
        [&engine, &engine],
        &[
            "--games",
            "2",
            "--depth",
            "1",
            "--openings-plies",
            "2",
            "--max-plies",
            "200",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(ok, "{err}");
    // The two engines have the same name and limits: they are told apart by number.
    assert!(out.contains("Score of varsand"), "{out}");
    let score_line = out.lines().find(|l| l.starts_with("Score of")).unwrap();
    assert!(
        score_line.contains("(1) vs") && score_line.ends_with("] 2"),
        "{out}"
    );
    assert!(out.contains("\nscore "), "{out}");
    assert!(out.contains("/2 for varsand"), "{out}");
    assert!(out.contains("Elo difference: "), "{out}");
    assert_eq!(
        err.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{err}"
    );

    let games = replay_with_varsand(&pgn, CHESS);
    assert_eq!(games.len(), 2);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.tag("Event"), Some("varsand match"));
        assert_eq!(g.tag("Round"), Some((i + 1).to_string().as_str()));
        assert_eq!(g.tag("Variant"), Some("Chess"));
        assert_eq!(
            g.tag("VariantFile").map(|f| f.ends_with("chess.var")),
            Some(true)
        );
        assert_eq!(g.tag("WhiteLimits"), Some("depth 1"));
        assert!(g.ending.is_some(), "a closing comment says how it ended");
    }
    // Each opening is played twice, with colours swapped.
    assert_eq!(games[0].moves[..2], games[1].moves[..2]);
    assert_eq!(games[0].tag("White"), games[1].tag("Black"));

    let py = python_chess_read(&pgn);
    assert_eq!(py.len(), 2);
    for (p, g) in py.iter().zip(&games) {
        assert!(p.errors.is_empty(), "python-chess: {:?}", p.errors);
        assert_eq!(p.moves, g.moves, "python-chess replays every move");
        assert_eq!(p.result, g.result.text());
        if g.tag("Termination") == Some("normal") {
            assert_eq!(p.outcome, p.result, "python-chess agrees on the end");
        }
    }
}

#[test]
fn an_illegal_move_loses_and_the_reason_is_recorded() {
    if !common::tools::available(Tool::Python) {
        return;
    }
    let tmp = TempDir::new("illegal");
    let pgn = tmp.path("games.pgn");
    let engine = varsand_uci(CHESS);
    let bad = bad_engine("illegal");
    let (ok, out, err) = run_match(
        CHESS,
        [&engine, &bad],
        &[
            "--games",
            "2",
            "--go",
            "depth 1",
            "--go",
            "movetime 50 nodes 100",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(ok, "{err}");
    assert!(out.contains(": 2 - 0 - 0 [1.000] 2\n"), "{out}");
    assert!(
        out.contains("(depth 1) vs bad illegal (movetime 50 nodes 100), 2 games\n"),
        "{out}"
    );
    assert!(out.contains("score 2/2 for varsand"), "{out}");
    assert!(out.contains("Elo difference: infinite"), "{out}");
    assert!(out.contains("games ended: illegal move 2\n"), "{out}");
    assert!(
        err.contains("bad illegal played the illegal move a1h8: "),
        "{err}"
    );
    let games = replay_with_varsand(&pgn, CHESS);
    for g in &games {
        assert_eq!(g.tag("Termination"), Some("rules infraction"));
        assert!(g.ending.as_ref().unwrap().contains("illegal move a1h8"));
        let bad_won =
            (g.tag("White") == Some("bad illegal")) == (g.result == GameResult::FirstWins);
        assert!(!bad_won, "{:?}", g.tags());
    }
}

#[test]
fn no_move_no_answer_in_time_and_a_crash_lose() {
    if !common::tools::available(Tool::Python) {
        return;
    }
    let engine = varsand_uci(CHESS);
    for (mode, timeout, why, termination) in [
        (
            "none",
            "20000",
            "gave no move (`bestmove (none)`) with ",
            "rules infraction",
        ),
        (
            "silent",
            "2000",
            "did not answer `go` with `bestmove` within 2 s",
            "time forfeit",
        ),
        (
            "crash",
            "20000",
            "it exited (exit status: 3); its last words on standard error: boom",
            "abandoned",
        ),
    ] {
        let tmp = TempDir::new(mode);
        let pgn = tmp.path("games.pgn");
        let bad = bad_engine(mode);
        let (ok, out, err) = run_match(
            CHESS,
            [&engine, &bad],
            &[
                "--games",
                "1",
                "--depth",
                "1",
                "--timeout",
                timeout,
                "--pgn",
                pgn.to_str().unwrap(),
            ],
        );
        assert!(ok, "{mode}: {err}");
        assert!(out.contains(": 1 - 0 - 0 [1.000] 1\n"), "{mode}: {out}");
        assert!(err.contains(why), "{mode}: {err}");
        let games = replay_with_varsand(&pgn, CHESS);
        assert_eq!(games[0].tag("Termination"), Some(termination), "{mode}");
        assert_eq!(games[0].result, GameResult::FirstWins, "{mode}");
    }
}

#[test]
fn an_engine_that_does_not_start_or_speak_uci_stops_the_match_before_any_game() {
    if !common::tools::available(Tool::Python) {
        return;
    }
    let engine = varsand_uci(CHESS);
    let mute = bad_engine("mute");
    let (ok, out, err) = run_match(CHESS, [&engine, &mute], &["--timeout", "1500"]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(
        err.contains("error: engine 2 (`python3 ")
            && err.contains("did not answer `uci` with `uciok` within 1500 ms"),
        "{err}"
    );
    let (ok, _, err) = run_match(CHESS, ["no-such-engine-here --flag", &engine], &[]);
    assert!(!ok);
    assert!(
        err.contains("error: engine 1: cannot start `no-such-engine-here`"),
        "{err}"
    );
    let (ok, _, err) = run_match(CHESS, ["engine 'unclosed", &engine], &[]);
    assert!(!ok);
    assert!(err.contains("opens a ' quote it never closes"), "{err}");
    // A PGN file that cannot be written stops the match before any game.
    let tmp = TempDir::new("unwritable");
    let (ok, _, err) = run_match(
        CHESS,
        [&engine, &engine],
        &["--pgn", tmp.0.to_str().unwrap()],
    );
    assert!(!ok);
    assert!(
        err.contains("cannot write") && !err.contains("game 1/"),
        "{err}"
    );
}

#[test]
fn numbers_and_engine_counts_are_checked() {
    let engine = varsand_uci(CHESS);
    for (args, says) in [
        (vec!["--games", "0"], "--games"),
        (vec!["--depth", "0"], "--depth"),
        (vec!["--depth", "65"], "--depth"),
        (vec!["--movetime", "0"], "--movetime"),
        (vec!["--timeout", "0"], "--timeout"),
        (vec!["--games", "99999999999999999999"], "--games"),
        (
            vec!["--depth", "1", "--depth", "2", "--depth", "3"],
            "--depth is given 3 times",
        ),
        (vec!["--set", "height"], "NAME=VALUE"),
        (
            vec!["--go", "depth 0"],
            "depth must be a whole number from 1 to 64",
        ),
        (vec!["--go", "speed 3"], "`speed` is not a limit"),
        (vec!["--go", "depth"], "write limits and their values"),
        (vec!["--go", "depth 2 depth 3"], "`depth` is given twice"),
        (
            vec!["--go", "depth 2", "--depth", "3"],
            "cannot be used with",
        ),
    ] {
        let (ok, out, err) = run_match(CHESS, [&engine, &engine], &args);
        assert!(!ok && out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let path = repo(CHESS);
    let out = varsand(
        &["match", path.to_str().unwrap(), "--engine", &engine],
        None,
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("give two engines"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn monkey_queen_games_between_varsand_engines() {
    let tmp = TempDir::new("monkey");
    let pgn = tmp.path("games.pgn");
    let file = "variants/monkey_queen.var";
    let engine = varsand_uci(file);
    let (ok, out, err) = run_match(
        file,
        [&engine, &engine],
        &[
            "--games",
            "2",
            "--depth",
            "1",
            "--depth",
            "2",
            "--max-plies",
            "120",
            "--json",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    assert!(ok, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(report["games"], 2);
    assert_eq!(report["game"], "Monkey Queen");
    assert_eq!(report["limits"], serde_json::json!(["depth 1", "depth 2"]));
    let s = &report["score"];
    let total =
        s["wins"].as_u64().unwrap() + s["draws"].as_u64().unwrap() + s["losses"].as_u64().unwrap();
    assert_eq!(total, 2);
    let games = replay_with_varsand(&pgn, file);
    assert_eq!(games.len(), 2);
    assert!(
        games
            .iter()
            .all(|g| g.tag("Variant") == Some("Monkey Queen"))
    );
    // The names differ by their limits.
    assert!(
        games[0].tag("White").unwrap().ends_with("depth 1"),
        "{:?}",
        games[0].tags()
    );
}

#[test]
fn uci_variant_names_are_read_from_the_game_name() {
    let candidates = |file: &str| {
        let source = std::fs::read_to_string(repo(file)).unwrap();
        varsand::matches::variant_candidates(&varsand::load_rules(&source).unwrap())
    };
    assert_eq!(candidates(CHESS), ["chess"]);
    // `varsand uci`'s name, then Fairy-Stockfish's.
    assert_eq!(
        candidates("variants/capablanca.var"),
        ["capablanca_chess", "capablancachess", "capablanca"]
    );
    assert_eq!(
        candidates("variants/racingkings.var"),
        ["racing_kings", "racingkings", "racing"]
    );
}

#[test]
fn the_engine_is_told_its_variant_the_moves_and_its_limits() {
    if !common::tools::available(Tool::Python) {
        return;
    }
    let tmp = TempDir::new("conversation");
    let log = tmp.path("log.txt");
    let file = "variants/capablanca.var";
    let engine = varsand_uci(file);
    let logger = format!("{} '{}'", bad_engine("log"), log.display());
    let (ok, _, err) = run_match(
        file,
        [&engine, &logger],
        &[
            "--games",
            "1",
            "--openings-plies",
            "0",
            "--go",
            "depth 1",
            "--go",
            "nodes 700",
        ],
    );
    assert!(ok, "{err}");
    let said = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(
        lines[..4],
        [
            "uci",
            "setoption name UCI_Variant value capablanca",
            "ucinewgame",
            "isready",
        ],
        "{said}"
    );
    let position = lines[4];
    let moves: Vec<&str> = position.split(' ').collect();
    assert_eq!(moves[..3], ["position", "startpos", "moves"], "{said}");
    assert_eq!(moves.len(), 4, "varsand's first move: {said}");
    assert_eq!(lines[5], "go nodes 700", "{said}");
}
