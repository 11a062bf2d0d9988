//! PGN: what varsand writes reads back the same (hands, drops, promotions, a start
//! position, parameters, many games), older saves still load, a file cut short is
//! reported as truncated, other tools' PGN features are skipped, and python-chess
//! reads varsand's chess games.

mod common;

use common::process::{TempDir, repo, text, varsand};
use common::python_chess::python_chess_read;
use common::rules_with as rules;
use varsand::pgn::{GameResult, PgnGame, RuleSource, read_games};
use varsand::search::Rng;
use varsand::{Overrides, Position};

/// A game of `plies` moves from `pos`, preferring moves whose text contains one of
/// `liked` (drops, promotions) so that the game has them.
fn biased_game(pos: &mut Position, plies: usize, liked: &[&str], seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        if pos.outcome().is_some() {
            break;
        }
        let legal = pos.legal_moves();
        let texts: Vec<String> = legal.iter().map(|m| pos.move_text(*m)).collect();
        let favoured: Vec<usize> = (0..texts.len())
            .filter(|&i| liked.iter().any(|l| texts[i].contains(l)))
            .collect();
        let i = if !favoured.is_empty() && rng.below(2) == 0 {
            favoured[rng.below(favoured.len())]
        } else {
            rng.below(texts.len())
        };
        pos.make(legal[i]);
        moves.push(texts[i].clone());
    }
    moves
}

/// Writes a game as varsand does, reads it back, and replays it: the same moves,
/// tags, result and final position.
fn round_trip(
    file: &str,
    overrides: &Overrides,
    fen: Option<&str>,
    liked: &[&str],
    seed: u64,
) -> PgnGame {
    let r = rules(file, overrides);
    let start = match fen {
        Some(f) => Position::from_fen(r.clone(), f).unwrap(),
        None => Position::start(r.clone()),
    };
    let mut pos = start.clone();
    let moves = biased_game(&mut pos, 160, liked, seed);
    let mut game = PgnGame::new();
    game.set_tag("Event", "round trip");
    RuleSource {
        file: repo(file),
        hash: Some("fnv1a64:0123456789abcdef".into()),
        overrides: overrides.clone(),
    }
    .tag(&mut game, &r);
    game.set_start(&start, fen);
    let end = pos.outcome();
    game.set_end(end.as_ref(), &r);
    game.moves = moves.clone();
    let written = game.to_text();
    assert!(written.lines().all(|l| l.chars().count() < 80), "{written}");

    let read = read_games(&written).expect("reads back");
    assert_eq!(read.len(), 1);
    let back = &read[0];
    // Written again, it is the same text: nothing is lost on the way.
    assert_eq!(back.to_text(), written);
    assert_eq!(back.moves, moves);
    assert_eq!(back.result, GameResult::of(end.as_ref()));
    assert_eq!(back.ending, end.map(|e| e.describe(&r)));
    assert_eq!(back.tag("Event"), Some("round trip"));
    let source = RuleSource::from_tags(back).unwrap().expect("a rule file");
    assert_eq!(source.file, repo(file));
    assert_eq!(&source.overrides, overrides);
    assert_eq!(back.tag("FEN"), fen);
    let mut replay = start;
    for m in &back.moves {
        replay.play(m).unwrap_or_else(|_| panic!("{m} replays"));
    }
    assert_eq!(replay.fen(), pos.fen());
    back.clone()
}

#[test]
fn hands_drops_and_promotions_round_trip() {
    let none = Overrides::new();
    let shogi = round_trip("variants/shogi.var", &none, None, &["@", "+"], 3);
    assert!(
        shogi.moves.iter().any(|m| m.contains('@')),
        "{:?}",
        shogi.moves
    );
    assert!(
        shogi.moves.iter().any(|m| m.ends_with('+')),
        "{:?}",
        shogi.moves
    );
    assert_eq!(shogi.tag("Variant"), Some("Shogi"));
    let zh = round_trip(
        "variants/crazyhouse.var",
        &none,
        None,
        &["@", "8q", "1q"],
        5,
    );
    assert!(zh.moves.iter().any(|m| m.contains('@')), "{:?}", zh.moves);
}

#[test]
fn a_start_position_and_parameters_round_trip() {
    // The second player moves first: the first move is numbered `7...`.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 3 7";
    let g = round_trip("variants/chess.var", &Overrides::new(), Some(fen), &[], 1);
    assert_eq!(g.tag("SetUp"), Some("1"));
    assert!(
        g.to_text().contains(&format!("\n\n7... {}", g.moves[0])),
        "{}",
        g.to_text()
    );

    let mut heights = Overrides::new();
    heights.insert("height".into(), 9);
    let g = round_trip("variants/monkey_queen.var", &heights, None, &["swap"], 2);
    assert_eq!(g.tag("Parameters"), Some("height=9"));
    assert_eq!(g.tag("Variant"), Some("Monkey Queen"));
}

#[test]
fn python_chess_reads_a_game_from_a_position() {
    if !common::tools::available(common::tools::Tool::PythonChess) {
        return;
    }
    let tmp = TempDir::new("python-fen");
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 12";
    let g = round_trip("variants/chess.var", &Overrides::new(), Some(fen), &[], 9);
    let file = tmp.path("g.pgn");
    std::fs::write(&file, g.to_text()).unwrap();
    let py = python_chess_read(&file);
    assert_eq!(py.len(), 1);
    assert!(py[0].errors.is_empty(), "{:?}", py[0].errors);
    assert_eq!(py[0].moves, g.moves);
    assert_eq!(py[0].headers["FEN"], fen);
    assert_eq!(py[0].headers["Variant"], "Chess");
}

#[test]
fn every_prefix_of_a_game_is_reported_as_truncated() {
    let r = rules("variants/chess.var", &Overrides::new());
    let mut pos = Position::start(r.clone());
    let mut game = PgnGame::new();
    game.moves = biased_game(&mut pos, 12, &[], 4);
    game.ending = Some("a comment {with braces} at the end".into());
    let text = game.to_text();
    let full = read_games(&text).unwrap();
    assert_eq!(
        full[0].ending.as_deref(),
        Some("a comment with braces at the end")
    );
    let body = text.trim_end();
    for cut in (1..body.len()).filter(|&i| body.is_char_boundary(i)) {
        let prefix = &body[..cut];
        if prefix.trim().is_empty() {
            continue;
        }
        let err = read_games(prefix).expect_err(&format!("a cut at {cut} is refused:\n{prefix}"));
        assert!(
            err.message.contains("truncated") || err.message.contains("cut short"),
            "{cut}: {err}"
        );
    }
}

#[test]
fn other_tools_pgn_features_are_skipped() {
    let text = r#"% an escaped line
[Event "Two \"quoted\" games"]
[Site "C:\\games"]
[White "a"]
[Black "b"]
[Result "1-0"]
[Variant "Chess"]

; a comment to the end of the line
1. e2e4 $1 {a comment
over two lines} e7e5?! (1... c7c5 2. g1f3 (2. b1c3) d7d6) 2.g1f3!! b8c6 3. f1b5
a7a6?? 4... b7b5 1-0

[Event "second"]
[Result "*"]

12...e7e5 13. d2d4 *
"#;
    let games = read_games(text).expect("reads");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Event"), Some("Two \"quoted\" games"));
    assert_eq!(games[0].tag("Site"), Some("C:\\games"));
    assert_eq!(
        games[0].moves,
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b7b5"]
    );
    assert_eq!(games[0].result, GameResult::FirstWins);
    assert_eq!(games[1].moves, ["e7e5", "d2d4"]);
    assert_eq!(games[1].result, GameResult::Unfinished);
    // A tag value with quotes and backslashes is written escaped, and reads back.
    let mut g = PgnGame::new();
    g.set_tag("Event", "say \"hi\" \\ there");
    let back = read_games(&g.to_text()).unwrap();
    assert_eq!(back[0].tag("Event"), Some("say \"hi\" \\ there"));
    // Broken tags are reported with their line.
    let err = read_games("[Event \"open\n1. e2e4 *\n").unwrap_err();
    assert_eq!(err.line, 1);
    let err = read_games("[Event]\n*\n").unwrap_err();
    assert!(err.message.contains("no quoted value"), "{err}");
}

/// Runs the REPL with a script: (stdout, stderr).
fn play(file: &str, script: &str) -> (String, String) {
    let path = repo(file);
    let out = varsand(&["play", path.to_str().unwrap()], Some(script));
    (text(&out.stdout), text(&out.stderr))
}

#[test]
fn saves_of_the_older_format_still_load() {
    let tmp = TempDir::new("old-save");
    let old = tmp.path("old.txt");
    let monkey = repo("variants/monkey_queen.var");
    std::fs::write(
        &old,
        format!(
            "[Game \"Monkey Queen\"]\n[Variant \"{}\"]\n[Set \"height=9\"]\n[Result \"*\"]\n\n1. g1g4 swap 2. f12f9 *\n",
            monkey.display()
        ),
    )
    .unwrap();
    // The recorded rule file lies outside the save's folder: named by the user.
    let (out, err) = play(
        "variants/chess.var",
        &format!("load {} under {}\nfen\n", old.display(), monkey.display()),
    );
    assert!(err.is_empty(), "{err}");
    assert!(out.contains("loaded 3 moves"), "{out}");
    assert!(
        out.contains("5b6/12/12/5q(8)6/12/12/12/12/6Q(8)5/12/12/6B5 w - - 2 2 swapped"),
        "{out}"
    );
}

#[test]
fn load_picks_a_game_of_many_and_reads_foreign_games_of_the_same_variant() {
    let tmp = TempDir::new("many");
    let file = tmp.path("many.pgn");
    std::fs::write(
        &file,
        "[Event \"one\"]\n[Variant \"Chess\"]\n[Result \"*\"]\n\n1. e2e4 *\n\n\
         [Event \"two\"]\n[Variant \"chess\"]\n[Result \"*\"]\n\n1. d2d4 d7d5 *\n",
    )
    .unwrap();
    let f = file.display();
    let (out, err) = play(
        "variants/chess.var",
        &format!("load {f} 2\nfen\nload {f} 3\n"),
    );
    assert!(
        out.contains(&format!("loaded 2 moves from {f} (game 2 of 2)")),
        "{out}"
    );
    assert!(
        out.contains("rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 2"),
        "{out}"
    );
    assert!(
        err.contains("there is no game 3: the file holds 2 games"),
        "{err}"
    );
    // Without a VariantFile tag, a game of another variant is refused, and says why.
    let (_, err) = play("variants/monkey_queen.var", &format!("load {f}\n"));
    assert!(
        err.contains("the game is of the variant `Chess`, not Monkey Queen"),
        "{err}"
    );
}

#[test]
fn analyze_saves_every_game_and_the_repl_loads_them() {
    let tmp = TempDir::new("analyze");
    let dir = tmp.path("games");
    let file = repo("variants/chess.var");
    let out = varsand(
        &[
            "analyze",
            file.to_str().unwrap(),
            "--games",
            "3",
            "--depth",
            "1",
            "--max-plies",
            "60",
            "--threads",
            "2",
            "--save-games",
            dir.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["game-1.pgn", "game-2.pgn", "game-3.pgn"]);
    let r = rules("variants/chess.var", &Overrides::new());
    for (i, name) in names.iter().enumerate() {
        let g = &read_games(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()[0];
        assert_eq!(g.tag("Event"), Some("varsand analyze"));
        assert_eq!(g.tag("Round"), Some((i + 1).to_string().as_str()));
        assert_eq!(g.tag("White"), Some("varsand depth 1"));
        assert_eq!(g.tag("Seed"), Some("1"));
        assert!(g.tag("GameSeed").is_some());
        // The rule file, as seen from the game's folder.
        let recorded = dir.join(g.tag("VariantFile").expect("a VariantFile tag"));
        assert_eq!(
            recorded.canonicalize().unwrap(),
            file.canonicalize().unwrap()
        );
        let mut pos = Position::start(r.clone());
        for m in &g.moves {
            pos.play(m).unwrap();
        }
        match pos.outcome() {
            Some(end) => assert_eq!(g.result, GameResult::of(Some(&end))),
            None => {
                assert_eq!(g.moves.len(), 60);
                assert_eq!(g.tag("Termination"), Some("adjudication"));
                assert_eq!(g.result, GameResult::Draw);
            }
        }
    }
    // A game's rule file outside its folder is opened only when the user names it.
    let game = dir.join("game-2.pgn");
    let (_, err) = play(
        "variants/monkey_queen.var",
        &format!("load {}\n", game.display()),
    );
    assert!(err.contains("outside the folder of"), "{err}");
    let (out, err) = play(
        "variants/monkey_queen.var",
        &format!("load {} under {}\nfen\n", game.display(), file.display()),
    );
    assert!(err.is_empty(), "{err}");
    assert!(out.contains("loaded "), "{out}");
    // The game's own rule file is loaded: a position of 8 ranks, not Monkey Queen's 12.
    let fen = out.lines().last().unwrap();
    assert_eq!(
        fen.split(' ').next().unwrap().matches('/').count(),
        7,
        "{out}"
    );
    // A folder that cannot be made is an error before any game.
    let blocker = tmp.path("file");
    std::fs::write(&blocker, "").unwrap();
    let out = varsand(
        &[
            "analyze",
            file.to_str().unwrap(),
            "--games",
            "1",
            "--save-games",
            blocker.join("sub").to_str().unwrap(),
        ],
        None,
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("cannot make the folder"),
        "{}",
        text(&out.stderr)
    );
}
