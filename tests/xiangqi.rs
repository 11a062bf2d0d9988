//! Xiangqi (`variants/xiangqi.var`), one test per rule, each on a small position string
//! in Fairy-Stockfish's notation (files a-i, ranks 1-10), asserting the exact sorted list
//! of legal moves, which Fairy-Stockfish (pyffish) gives alike.

use std::sync::Arc;

use varsand::{Position, Rules, load_rules};

fn xiangqi() -> Arc<Rules> {
    let src = std::fs::read_to_string("variants/xiangqi.var").unwrap();
    load_rules(&src).unwrap_or_else(|problems| panic!("{problems:?}"))
}

fn at(fen: &str) -> Position {
    Position::from_fen(xiangqi(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
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

#[test]
fn flying_general_pins_the_only_piece_between_the_generals() {
    // The chariot on e5 is all that stands between the generals: it may move only along
    // the file; the general may not step to d1 or e2 (the horse on c3 guards them).
    assert_eq!(
        moves("3akab2/9/9/9/9/4R4/9/2n6/9/4K4 w - - 0 1", None),
        list(&[
            "e1f1", "e5e10", "e5e2", "e5e3", "e5e4", "e5e6", "e5e7", "e5e8", "e5e9"
        ])
    );
    // An advisor between the generals may not step aside.
    assert_eq!(
        moves("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", None),
        list(&["e1d1", "e1f1"])
    );
}

#[test]
fn flying_general_a_general_may_not_step_onto_the_open_file_of_the_other() {
    assert_eq!(
        moves("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", None),
        list(&["e1e2", "e1f1"])
    );
}

#[test]
fn flying_general_captures_only_the_general() {
    // The general's capture along the file is one of the General only: it neither
    // takes the chariot on e5 nor defends against it.
    let mut pos = at("3k5/9/9/9/4r4/9/9/9/9/4K4 w - - 0 1");
    assert!(pos.in_check(varsand::ids::Side::First));
    assert_eq!(
        moves("3k5/9/9/9/4r4/9/9/9/9/4K4 w - - 0 1", None),
        list(&["e1f1"])
    );
    let e5 = pos.rules().geometry().parse_square("e5").unwrap();
    assert!(
        !pos.attacked(e5, varsand::ids::Side::First),
        "the general does not attack a chariot"
    );
    assert!(
        pos.legal_moves()
            .iter()
            .all(|&m| pos.move_text(m) != "e1e5")
    );
}

#[test]
fn cannon_captures_by_jumping_exactly_one_piece() {
    // Up the e-file: e3, e4, e5 (empty), then the screen e6, then the capture on e8.
    assert_eq!(
        moves("3k5/9/4p4/9/4p4/9/9/9/4C4/4K4 w - - 0 1", Some("e2")),
        list(&[
            "e2a2", "e2b2", "e2c2", "e2d2", "e2e3", "e2e4", "e2e5", "e2e8", "e2f2", "e2g2", "e2h2",
            "e2i2"
        ])
    );
}

#[test]
fn elephant_blocked_by_its_eye_and_by_the_river() {
    // c7 and g7 are across the river; c3's eye d4 is occupied; only g3 remains.
    assert_eq!(
        moves("3k5/9/9/9/2P1P4/4B4/3p5/9/9/4K4 w - - 0 1", Some("e5")),
        list(&["e5g3"])
    );
    assert_eq!(
        moves("3k5/9/9/9/9/4B4/9/9/9/4K4 w - - 0 1", Some("e5")),
        list(&["e5c3", "e5g3"])
    );
}

#[test]
fn horse_blocked_by_its_leg() {
    // The soldier on e6 blocks the leaps to d7 and f7.
    assert_eq!(
        moves("3k5/9/9/9/4P4/4N4/9/9/9/4K4 w - - 0 1", Some("e5")),
        list(&["e5c4", "e5c6", "e5d3", "e5f3", "e5g4", "e5g6"])
    );
}

#[test]
fn soldier_steps_sideways_only_across_the_river() {
    assert_eq!(
        moves("3k5/9/9/9/9/4P4/9/9/9/4K4 w - - 0 1", Some("e5")),
        list(&["e5e6"])
    );
    assert_eq!(
        moves("3k5/9/9/P8/9/9/9/9/9/4K4 w - - 0 1", Some("a7")),
        list(&["a7a8", "a7b7"])
    );
}
