//! Janggi (`variants/janggi.var`), one test per rule, each on a small position string
//! in Fairy-Stockfish's notation (files a-i, ranks 1-10, a pass written as the general's
//! null move), asserting the exact sorted list of legal moves, which Fairy-Stockfish
//! (pyffish) gives alike, or how the game ends.

use std::sync::Arc;

use varsand::engine::EndReason;
use varsand::{Position, Rules, load_rules};

fn janggi() -> Arc<Rules> {
    let src = std::fs::read_to_string("variants/janggi.var").unwrap();
    load_rules(&src).unwrap_or_else(|problems| panic!("{problems:?}"))
}

fn at(fen: &str) -> Position {
    Position::from_fen(janggi(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Every legal move, or those starting on `square`, as text, sorted.
fn moves(fen: &str, square: Option<&str>) -> Vec<String> {
    let mut pos = at(fen);
    let mut v: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| pos.move_text(m))
        .filter(|t| {
            square.is_none_or(|s| t.starts_with(s) && !t[s.len()..].starts_with(char::is_numeric))
        })
        .collect();
    v.sort();
    v
}

fn list(moves: &[&str]) -> Vec<String> {
    moves.iter().map(std::string::ToString::to_string).collect()
}

const START: &str = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

#[test]
fn cannon_may_not_jump_over_a_cannon() {
    // The cannon on e6 finds the cannon on e4 as its only screen: it has no move. The
    // cannon on c1 jumps its own general.
    let fen = "3k5/9/5P1c1/9/4C4/9/4c4/3R5/9/2C1K4 w - - 0 1";
    assert_eq!(moves(fen, Some("e6")), list(&[]));
    assert_eq!(
        moves(fen, Some("c1")),
        list(&["c1f1", "c1g1", "c1h1", "c1i1"])
    );
}

#[test]
fn cannon_may_not_capture_a_cannon() {
    assert_eq!(
        moves("3k5/9/9/9/c8/9/P8/9/4K4/C8 w - - 0 1", Some("a1")),
        list(&["a1a5"])
    );
    // A chariot in its place is taken.
    assert_eq!(
        moves("3k5/9/9/9/r8/9/P8/9/4K4/C8 w - - 0 1", Some("a1")),
        list(&["a1a5", "a1a6"])
    );
}

#[test]
fn cannon_gives_no_check_over_a_cannon() {
    // The black cannon on e6 would jump the white cannon on e4: no check, so the
    // general may pass; the white cannon jumps its general to e1.
    let fen = "3k5/9/9/9/4c4/9/4C4/9/4K4/9 w - - 0 1";
    assert!(!at(fen).in_check(varsand::ids::Side::First));
    assert_eq!(
        moves(fen, None),
        list(&[
            "e2d1", "e2d2", "e2d3", "e2e1", "e2e2", "e2e3", "e2f1", "e2f2", "e2f3", "e4e1"
        ])
    );
    // Over a chariot it checks.
    let fen = "3k5/9/9/9/4c4/9/4R4/9/4K4/9 w - - 0 1";
    assert!(at(fen).in_check(varsand::ids::Side::First));
}

#[test]
fn palace_diagonal_lines() {
    // The chariot on d3 rides the diagonal through e2 to f1; the soldier on f8 steps
    // forward along the enemy palace's line to e9; the general steps along its own
    // lines (not here: e1 is no point of them).
    let fen = "3k5/9/5P1c1/9/4C4/9/4c4/3R5/9/2C1K4 w - - 0 1";
    assert!(moves(fen, Some("d3")).contains(&"d3f1".to_string()));
    assert_eq!(
        moves(fen, Some("f8")),
        list(&["f8e8", "f8e9", "f8f9", "f8g8"])
    );
    assert_eq!(
        moves(fen, Some("e1")),
        list(&["e1d1", "e1e1", "e1e2", "e1f1"])
    );
}

#[test]
fn pass_written_as_the_generals_null_move() {
    let mut pos = at(START);
    let texts: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.move_text(m))
        .collect();
    assert_eq!(texts.len(), 32);
    assert!(texts.contains(&"e2e2".to_string()));
    let pass = pos.parse_move("pass").unwrap();
    assert_eq!(pos.parse_move("e2e2").unwrap(), pass);
    pos.make(pass);
    assert_eq!(pos.fen().split(' ').next(), START.split(' ').next());
    assert_eq!(pos.side_to_move(), varsand::ids::Side::Second);
}

#[test]
fn pass_not_allowed_in_check() {
    let fen = "3k5/9/9/9/9/9/9/9/4K4/4r4 w - - 0 1";
    assert!(at(fen).in_check(varsand::ids::Side::First));
    assert_eq!(
        moves(fen, None),
        list(&["e2d2", "e2d3", "e2e1", "e2f2", "e2f3"])
    );
    let mut pos = at(fen);
    assert!(pos.parse_move("e2e2").is_err());
    assert!(pos.why_illegal("pass").contains("check"));
    assert!(pos.why_illegal("e2e2").contains("check"));
}

#[test]
fn bikjang_moves_must_end_the_facing_or_pass() {
    // The generals face each other on the e-file: white must block the file, step
    // the general off it, or pass.
    assert_eq!(
        moves(
            "3a4r/4k4/5anc1/2p5p/9/9/P5P2/1CN2A3/4K4/R2A5 w - - 0 1",
            None
        ),
        list(&[
            "b3e3", "c3e4", "e2d2", "e2d3", "e2e2", "e2f1", "e2f2", "f3e3"
        ])
    );
}

#[test]
fn bikjang_making_the_generals_face_is_legal() {
    // The guard on e3 may step aside and open the file.
    let fen = "3a4r/4k4/5anc1/2p5p/9/9/P5P2/1CN1A4/4K4/R2A5 w - - 0 1";
    let all = moves(fen, None);
    assert!(all.contains(&"e3d3".to_string()) && all.contains(&"e3f3".to_string()));
    let mut pos = at(fen);
    pos.play("e3d3").unwrap();
    assert!(
        pos.outcome().is_none(),
        "facing alone does not end the game"
    );
}

#[test]
fn bikjang_allows_a_pass_in_check() {
    // In check from the horse on d4 while the generals face: the pass is legal.
    assert_eq!(
        moves("3a1a3/4k4/9/9/9/9/3n5/9/1C2K4/3A1A2R w - - 0 1", None),
        list(&["e2d2", "e2d3", "e2e2", "e2f2"])
    );
}

#[test]
fn bikjang_standing_after_a_pass_ends_the_game() {
    let mut pos = at("3a4r/4k4/5anc1/2p5p/9/9/P5P2/1CN2A3/4K4/R2A5 w - - 0 1");
    pos.play("e2e2").unwrap();
    let end = pos.outcome().expect("the facing stood after a pass");
    assert_eq!(end.winner, None);
    assert!(matches!(end.reason, EndReason::Facing(_)));
    // Ended by a move instead, the game goes on.
    let mut pos = at("3a4r/4k4/5anc1/2p5p/9/9/P5P2/1CN2A3/4K4/R2A5 w - - 0 1");
    pos.play("f3e3").unwrap();
    assert!(pos.outcome().is_none());
}

#[test]
fn two_passes_in_a_row_end_the_game() {
    let mut pos = at(START);
    pos.play("e2e2").unwrap();
    assert!(pos.outcome().is_none());
    pos.play("e9e9").unwrap();
    let end = pos.outcome().expect("two passes end the game");
    assert_eq!((end.winner, end.reason), (None, EndReason::Passes(2)));
}

#[test]
fn elephant_blocked_on_either_square_of_its_way() {
    // The soldier on e6 blocks the first step toward c8 and g8; the soldier on f3 the
    // second step toward g2.
    assert_eq!(
        moves("3k5/9/9/9/4P4/4B4/5p3/5P3/4K4/9 w - - 0 1", Some("e5")),
        list(&["e5b3", "e5b7", "e5c2", "e5h3", "e5h7"])
    );
}

#[test]
fn horse_blocked_by_its_leg() {
    // The soldiers on e6 and e4 (of either side) block the leaps over them.
    assert_eq!(
        moves("3k5/9/9/9/4P4/4N4/4p4/9/4K4/9 w - - 0 1", Some("e5")),
        list(&["e5c4", "e5c6", "e5g4", "e5g6"])
    );
}
