//! The web board (`varsand serve`): its HTTP API driven by a few lines of HTTP over a
//! socket, and its page driven by a real browser — headless Chromium (Debian's
//! `chromium` and `chromium-driver`) under selenium, by the scripts in `tests/web/`.
//! The browser test fails, with an install hint, when one of them is missing.
//!
//! The servers and the HTTP are in `common/server.rs`.

mod common;

use common::tools::Tool;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::server::{Server, texts};
use serde_json::Value;

/// The longest a browser script may run before it is killed and the test fails.
const SCRIPT_DEADLINE: Duration = Duration::from_secs(90);

#[test]
fn the_api_plays_undoes_and_redoes_and_refuses_an_illegal_move_with_its_reason() {
    let server = Server::start("variants/chess.var", "api");
    let start = server.state();
    assert_eq!(start["title"], "Chess");
    assert_eq!(start["to_move"], "white");
    assert!(
        start["svg"]
            .as_str()
            .unwrap()
            .contains(r#"data-square="e2""#)
    );
    let moves = start["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 20);
    let e2e4 = moves.iter().find(|m| m["text"] == "e2e4").unwrap();
    assert_eq!((&e2e4["from"], &e2e4["to"]), (&"e2".into(), &"e4".into()));

    let after = server.play("e2e4");
    assert_eq!(texts(&after["history"]), ["e2e4"]);
    assert_eq!(after["to_move"], "black");
    assert!(after["version"].as_u64() > start["version"].as_u64());

    let (status, body) = server.request("POST", "/move", &[], r#"{"move": "g8g5"}"#);
    assert_eq!(status, 422);
    let why: Value = serde_json::from_str(&body).unwrap();
    let why = why["error"].as_str().unwrap();
    assert!(
        why.starts_with("illegal: a Knight does not move from g8 to g5"),
        "{why}"
    );
    assert!(why.contains("g8f6"), "the nearby legal moves: {why}");
    assert_eq!(
        texts(&server.state()["history"]),
        ["e2e4"],
        "a refusal changes nothing"
    );

    let undone = server.state_after("POST", "/undo", "");
    assert_eq!(texts(&undone["history"]), Vec::<&str>::new());
    assert_eq!(texts(&undone["redo"]), ["e2e4"]);
    let redone = server.state_after("POST", "/redo", "");
    assert_eq!(texts(&redone["history"]), ["e2e4"]);
    let (status, _) = server.request("POST", "/redo", &[], "");
    assert_eq!(status, 422, "nothing to redo");

    // The page polls with the version it has: nothing is sent while it is current.
    let version = redone["version"].as_u64().unwrap();
    assert_eq!(server.get(&format!("/state?since={version}")).0, 204);
    assert_eq!(server.get(&format!("/state?since={}", version - 1)).0, 200);

    // The board turned round for the page that asks: the same squares, drawn apart.
    let flipped = server.state_after("GET", "/state?flipped=1", "");
    let (upright, turned) = (
        redone["svg"].as_str().unwrap(),
        flipped["svg"].as_str().unwrap(),
    );
    assert_ne!(upright, turned);
    assert!(turned.contains(r#"data-square="e4""#));
    assert_eq!(flipped["version"], redone["version"]);

    let computer = server.state_after("POST", "/computer", "");
    assert_eq!(computer["history"].as_array().unwrap().len(), 2);
    let new = server.state_after("POST", "/new", "");
    assert_eq!(texts(&new["history"]), Vec::<&str>::new());
}

#[test]
fn the_api_refuses_bad_requests_and_other_addresses() {
    let server = Server::start("variants/chess.var", "bad");
    let (status, body) = server.request("POST", "/move", &[], "e2e4");
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains(r#"send {\"move\": \"TEXT\"} as JSON"#),
        "{body}"
    );
    // Refused from its Content-Length, before it is read.
    let (status, body) = server.request("POST", "/move", &[], &"x".repeat(5000));
    assert_eq!(status, 413);
    assert!(body.contains("at most 4096 bytes"), "{body}");
    assert_eq!(server.get("/nothing").0, 404);
    assert_eq!(server.get("/undo").0, 405);
    assert_eq!(server.request("POST", "/state", &[], "").0, 405);
    // A name of another site that points here (DNS rebinding), and a post from a
    // page of another site.
    let (status, body) = server.request("GET", "/state", &[("Host", "example.test:80")], "");
    assert_eq!(status, 403);
    assert!(body.contains("answers requests for 127.0.0.1"), "{body}");
    let foreign = [("Origin", "http://example.test")];
    assert_eq!(server.request("POST", "/new", &foreign, "").0, 403);
    let own = format!("http://{}", server.address);
    assert_eq!(
        server.request("POST", "/new", &[("Origin", &own)], "").0,
        200
    );
    // The page and its files, with nothing fetched from elsewhere.
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.contains(r#"<script src="/page.js""#));
    assert!(!page.contains("http://") && !page.contains("https://"));
    assert_eq!(server.get("/page.js").0, 200);
    assert_eq!(server.get("/page.css").0, 200);
}

#[test]
fn a_changed_rule_file_is_reloaded_and_the_game_replayed_as_far_as_it_goes() {
    let server = Server::start("variants/chess.var", "reload");
    let original = std::fs::read_to_string(&server.file).unwrap();
    server.play("e2e4");
    server.play("e7e5");

    // Without the double step, the first move is illegal: the game stops before it,
    // and both moves are kept for redo.
    server.rewrite(&original.replace(r#"moves "ifmnD""#, ""));
    let state = server.state();
    assert_eq!(texts(&state["history"]), Vec::<&str>::new());
    assert_eq!(texts(&state["redo"]), ["e2e4", "e7e5"]);
    let notice = state["notice"].as_str().unwrap();
    assert!(notice.contains("move 1 (e2e4) is illegal"), "{notice}");
    // Not a success: the page shows it as a warning.
    assert_eq!(state["notice_tone"], "warning");
    assert!(state["problems"].is_null());

    // The file back as it was: the moves set aside are played again.
    server.rewrite(&original);
    let state = server.state();
    assert_eq!(texts(&state["history"]), ["e2e4", "e7e5"]);
    assert_eq!(state["notice"], "rules reloaded; all 2 moves replayed");
    assert_eq!(state["notice_tone"], "done");

    // A file that does not check: the diagnostics, and the old rules and game kept.
    server.rewrite(&original.replace("piece Knight N", "piece Knight"));
    let state = server.state();
    let problems = state["problems"].as_str().unwrap();
    assert!(problems.contains("chess.var"), "{problems}");
    assert!(problems.contains("problem"), "{problems}");
    assert_eq!(state["notice_tone"], "trouble");
    assert_eq!(texts(&state["history"]), ["e2e4", "e7e5"]);
    assert_eq!(state["moves"].as_array().unwrap().len(), 29);
    // ... and the game goes on under them.
    assert_eq!(
        texts(&server.play("g1f3")["history"]),
        ["e2e4", "e7e5", "g1f3"]
    );

    // Fixed, with a new name: the problems are gone and the game is kept.
    server.rewrite(&original.replace(r#"game "Chess""#, r#"game "Chess, edited""#));
    let state = server.state();
    assert!(state["problems"].is_null());
    assert_eq!(state["title"], "Chess, edited");
    assert_eq!(texts(&state["history"]), ["e2e4", "e7e5", "g1f3"]);
}

#[test]
fn serve_refuses_a_missing_file_and_a_port_out_of_range() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_varsand"))
            .arg("serve")
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, err) = run(&["no/such/file.var", "--port", "0"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("cannot read no/such/file.var"), "{err}");
    let (code, err) = run(&["variants/chess.var", "--port", "65536"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("65536"), "{err}");
    let (code, _) = run(&["variants/chess.var", "--movetime", "0"]);
    assert_eq!(code, Some(2));
    // A port already taken: the error says how to get a free one.
    let taken = Server::start("variants/chess.var", "taken");
    let port = taken.address.rsplit(':').next().unwrap();
    let (code, err) = run(&["variants/chess.var", "--port", port]);
    assert_eq!(code, Some(1));
    assert!(err.contains("--port 0"), "{err}");
}

/// Runs a script of `tests/web/` with the arguments; fails with its output, or with
/// the install hint when chromium, chromedriver or selenium is missing.
fn run_script(script: &str, args: &[&str]) -> String {
    let (chromium, chromedriver) = common::tools::browser_paths().expect("a browser");
    let mut child = Command::new("python3")
        .arg(Path::new("tests/web").join(script))
        .args(args)
        .env("VARSAND_CHROMIUM", chromium)
        .env("VARSAND_CHROMEDRIVER", chromedriver)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 is missing: the browser tests need it, with selenium");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > SCRIPT_DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{script} ran more than {SCRIPT_DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut out = String::new();
    let mut err = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(
        status.success(),
        "{script} failed ({status}):\n{out}\n{err}"
    );
    out
}

#[test]
fn a_browser_plays_e2e4_by_clicks_and_follows_the_rule_file() {
    if !common::tools::available(Tool::Browser) {
        return;
    }
    let server = Server::start("variants/chess.var", "browser");
    let out = run_script(
        "play_and_follow.py",
        &[&server.url, server.file.to_str().unwrap()],
    );
    println!("{out}");
    assert!(out.contains("browser test passed"), "{out}");
}

#[test]
fn the_board_fits_one_screen_of_1280_by_720() {
    if !common::tools::available(Tool::Browser) {
        return;
    }
    let server = Server::start("variants/monkey_queen.var", "layout");
    let out = run_script("layout.py", &[&server.url, server.file.to_str().unwrap()]);
    println!("{out}");
    assert!(out.contains("browser test passed"), "{out}");
}

#[test]
fn a_browser_plays_by_drag_and_drop() {
    if !common::tools::available(Tool::Browser) {
        return;
    }
    let server = Server::start("variants/chess.var", "drag");
    let out = run_script("drag.py", &[&server.url]);
    println!("{out}");
    assert!(out.contains("browser test passed"), "{out}");
}

#[test]
fn a_browser_chooses_a_promotion_and_places_a_piece_from_the_hand() {
    if !common::tools::available(Tool::Browser) {
        return;
    }
    let server = Server::start("variants/crazyhouse.var", "choices");
    let out = run_script("choices.py", &[&server.url]);
    println!("{out}");
    assert!(out.contains("browser test passed"), "{out}");
}

#[test]
fn the_api_offers_gating_moves_with_their_words_and_plays_them() {
    let server = Server::start("variants/seirawan.var", "gating");
    let start = server.state();
    let moves = start["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 28, "Fairy-Stockfish's count");
    let gate = moves.iter().find(|m| m["text"] == "b1c3h").unwrap();
    assert_eq!((&gate["from"], &gate["to"]), (&"b1".into(), &"c3".into()));
    assert_eq!(gate["label"], "bring a Hawk from the hand onto b1");
    let after = server.play("b1c3h");
    assert_eq!(texts(&after["history"]), ["b1c3h"]);
    assert!(
        after["svg"].as_str().unwrap().contains("Hawk"),
        "the hawk is drawn"
    );
}

#[test]
fn the_api_offers_only_placements_while_the_hand_holds_pieces() {
    let server = Server::start("variants/placement.var", "placement");
    let start = server.state();
    let moves = start["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 40);
    let king = moves.iter().find(|m| m["text"] == "K@e1").unwrap();
    assert_eq!((&king["drop"], &king["to"]), (&"K".into(), &"e1".into()));
    let after = server.play("K@e1");
    assert_eq!(texts(&after["history"]), ["K@e1"]);
    assert_eq!(after["to_move"], "black");
}

#[test]
fn a_browser_places_pieces_by_clicks() {
    if !common::tools::available(Tool::Browser) {
        return;
    }
    let server = Server::start("variants/placement.var", "placement-browser");
    let out = run_script("placement.py", &[&server.url]);
    println!("{out}");
    assert!(out.contains("browser test passed"), "{out}");
}

#[test]
fn a_browser_brings_a_piece_in_through_a_gate() {
    if !common::tools::available(Tool::Browser) {
        return;
    }
    let server = Server::start("variants/seirawan.var", "gating-browser");
    let out = run_script("gating.py", &[&server.url]);
    println!("{out}");
    assert!(out.contains("browser test passed"), "{out}");
}

#[test]
fn a_browser_plays_a_two_part_move_by_clicks() {
    if !common::tools::available(Tool::Browser) {
        return;
    }
    let server = Server::start("variants/amazons.var", "two-part");
    let out = run_script("two_part.py", &[&server.url]);
    println!("{out}");
    assert!(out.contains("browser test passed"), "{out}");
}

#[test]
fn a_browser_plays_a_move_in_place_by_a_second_click() {
    if !common::tools::available(Tool::Browser) {
        return;
    }
    let server = Server::start("tests/web/in_place.var", "in-place");
    let out = run_script("in_place.py", &[&server.url]);
    println!("{out}");
    assert!(out.contains("browser test passed"), "{out}");
}

#[test]
fn a_browser_shows_pictures_tooltips_cards_and_readable_target_dots() {
    if !common::tools::available(Tool::Browser) {
        return;
    }
    let server = Server::start("variants/chess.var", "pieces");
    let out = run_script("pieces.py", &[&server.url]);
    println!("{out}");
    assert!(out.contains("browser test passed"), "{out}");
}

/// The `#rrggbb` colour a rule of the page's style sheet gives a property.
fn css_colour(css: &str, selector: &str, property: &str) -> [u8; 3] {
    let rule = css
        .lines()
        .find(|l| l.starts_with(&format!("{selector} {{")))
        .unwrap_or_else(|| panic!("page.css has no rule for {selector}"));
    let value = rule
        .split(&format!("{property}:"))
        .nth(1)
        .unwrap_or_else(|| panic!("{selector} has no {property}"))
        .trim_start();
    let hex = value
        .strip_prefix('#')
        .unwrap_or_else(|| panic!("{selector} {property} is not #rrggbb: {value}"));
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex digits");
    [byte(0), byte(2), byte(4)]
}

#[test]
fn target_dots_stand_out_on_every_square_zone_and_terrain_colour() {
    use varsand::render::palette::{self, contrast_rgb as contrast};
    let css = std::fs::read_to_string("src/serve/page/page.css").expect("the style sheet");
    let core = css_colour(&css, ".vs-target", "fill");
    let ring = css_colour(&css, ".vs-target", "stroke");
    let capture = css_colour(&css, ".vs-capture", "stroke");
    let casing = css_colour(&css, ".vs-capture-casing", "stroke");
    let mut pairs = vec![
        palette::SQUARES,
        palette::LAST_MOVE,
        palette::HIGHLIGHT,
        palette::CHECK,
    ];
    pairs.extend(palette::ZONES);
    pairs.extend(palette::TERRAIN);
    for pair in pairs {
        for square in [pair.light, pair.dark] {
            let rgb = square.rgb();
            let best = |a, b| contrast(a, rgb).max(contrast(b, rgb));
            assert!(
                best(core, ring) >= 3.0,
                "a target dot is faint on {}",
                square.hex()
            );
            assert!(
                best(capture, casing) >= 3.0,
                "a capture ring is faint on {}",
                square.hex()
            );
        }
    }
}

/// The pictures of the README, after a few moves, a piece selected to show its targets:
/// `cargo test --profile checked --test web -- --ignored`.
#[test]
#[ignore]
fn screenshots() {
    if !common::tools::available(Tool::Browser) {
        return;
    }
    std::fs::create_dir_all("docs/img").unwrap();
    // Monkey King Chess: the Clouds, both hands, a Lancer flown to Cloud 101.
    let king = "k@c8 L@b4 l@e6 b4c101d p@b6 P@c3 v@d7 --select c101d";
    // Monkey Queen: two queens of height 17 and the babies they left behind.
    let queen = "g1g6 f12f8 g6d6 f8c8 d6d3 c8c5 --select d3";
    // Chess: the pieces' drawings, a knight selected; then the rules panel's cards.
    let chess = "e2e4 e7e5 g1f3 b8c6 --select f3";
    let cards = "--element #cards --width 1280 --height 2400";
    // Xiangqi: the glyphs, a cannon selected.
    let xiangqi = "h3e3 h10g8 --select e3";
    for (variant, picture, moves) in [
        (
            "variants/monkey_king.var",
            "docs/img/web_monkey_king.png",
            king,
        ),
        (
            "variants/monkey_queen.var",
            "docs/img/web_monkey_queen.png",
            queen,
        ),
        ("variants/chess.var", "docs/img/web_chess.png", chess),
        ("variants/chess.var", "docs/img/web_cards_chess.png", cards),
        ("variants/xiangqi.var", "docs/img/web_xiangqi.png", xiangqi),
    ] {
        // The shipped file itself (it is only read), so that the page names it.
        let server = Server::serve(variant.into(), PathBuf::new());
        let mut args = vec![server.url.as_str(), picture];
        args.extend(moves.split(' '));
        println!("{}", run_script("screenshot.py", &args));
    }
}

#[test]
fn a_browser_plays_flipello_and_ataxx_by_clicks_and_sees_the_pieces_turn() {
    if !common::tools::available(Tool::Browser) {
        return;
    }
    for game in ["flipello", "ataxx"] {
        let server = Server::start(&format!("variants/{game}.var"), game);
        let out = run_script("flips.py", &[&server.url, game]);
        println!("{out}");
        assert!(out.contains("browser test passed"), "{out}");
    }
}
