//! Converting enemy pieces and the rules that come with it, on flipello and ataxx (and
//! small files of their own): `convert enclosed`, `convert adjacent`, the `converts`
//! condition, `clones`, `pass when-stuck`, `board-full` and `by-count`. One test per
//! rule, on small position strings; undo restores every converted piece and the hash.

use std::sync::Arc;

mod common;

use varsand::perft::Perft;
use varsand::{Position, Rules, load_rules};

fn at(name: &str, fen: &str) -> Position {
    Position::from_fen(common::variant(name), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn rules_of(src: &str) -> Arc<Rules> {
    load_rules(src).unwrap_or_else(|problems| panic!("{problems:?}"))
}

fn moves(pos: &mut Position) -> Vec<String> {
    common::legal_texts(pos)
}

/// The game's end: the winner's name (or "draw") and the ending in words.
fn end(pos: &mut Position) -> Option<(String, String)> {
    common::ending(pos)
}

/// Plays `text`, checks the board it leaves, then takes it back and checks that the
/// position string and the hash are as before.
fn play_and_undo(pos: &mut Position, text: &str, board_after: &str) {
    let (fen, hash) = (pos.fen(), pos.hash());
    pos.play(text).unwrap();
    assert_eq!(pos.fen().split(['[', ' ']).next().unwrap(), board_after);
    assert_eq!(
        pos.hash(),
        pos.compute_hash(),
        "the hash follows the conversions"
    );
    pos.unmake();
    assert_eq!(pos.fen(), fen);
    assert_eq!(pos.hash(), hash);
}

// ---- convert enclosed, converts (flipello) ---------------------------------------------

#[test]
fn a_placement_turns_every_enclosed_run() {
    // White's disc on d4 encloses runs on three lines: d5 (against d6), e4 and f4
    // (against g4), c3 (against b2); the black discs on c4 and b4 have no white disc
    // beyond them, and stay.
    let mut pos = at(
        "flipello",
        "8/8/3P4/3p4/1pp1ppP1/2p5/1P6/8[30P30p] w - - 0 1",
    );
    play_and_undo(&mut pos, "P@d4", "8/8/3P4/3P4/1ppPPPP1/2P5/1P6/8");
}

#[test]
fn a_placement_is_legal_only_where_it_encloses() {
    let mut pos = at("flipello", "8/8/8/3pP3/3Pp3/8/8/8[30P30p] w - - 0 1");
    assert_eq!(moves(&mut pos), ["P@c5", "P@d6", "P@e3", "P@f4"]);
    assert!(pos.why_illegal("P@a1").contains("convert"));
}

#[test]
fn a_run_with_a_gap_or_reaching_the_edge_encloses_nothing() {
    // From a1: b1 is black then c1 empty (a gap); up the file the black discs run to
    // the edge.
    let mut pos = at("flipello", "p7/p7/p7/p7/p7/p7/p7/1p1P4[30P30p] w - - 0 1");
    assert!(!moves(&mut pos).contains(&"P@a1".to_string()));
}

// ---- pass when-stuck ---------------------------------------------------------------

#[test]
fn a_player_with_no_placement_passes_with_its_lowest_disc() {
    // White encloses nothing anywhere (black's a1 disc stands at the edge): its only
    // move is the pass, written as the null move of its disc on the lowest square
    // (a1, b1, ... order), as Fairy-Stockfish writes it.
    let mut pos = at("flipello", "8/8/8/8/8/8/8/pPP5[30P30p] w - - 0 1");
    assert_eq!(moves(&mut pos), ["b1b1"]);
    pos.play("pass").unwrap();
    assert_eq!(pos.last_move_text().as_deref(), Some("b1b1"));
    // Black encloses b1 and c1 from d1: the pass is not offered while a placement is.
    let mut pos = at("flipello", "8/8/8/8/8/8/8/pPP5[30P30p] b - - 0 1");
    assert_eq!(moves(&mut pos), ["P@d1"]);
}

#[test]
fn a_player_without_discs_on_the_board_cannot_pass_and_loses_by_count() {
    let mut pos = at("flipello", "8/8/8/8/8/8/8/PP6[30P30p] b - - 0 1");
    assert!(moves(&mut pos).is_empty());
    assert_eq!(
        end(&mut pos),
        Some(("white".into(), "black has no legal move".into()))
    );
    assert_eq!(Perft::new().count(&mut pos, 1), 0);
}

#[test]
fn two_passes_in_a_row_end_the_game_by_count() {
    // Neither player can enclose (d1 stands empty between the two runs): white
    // passes, black passes, and the count decides (three white discs to two).
    let mut pos = at("flipello", "8/8/8/8/8/8/8/PPP1pp2[30P30p] w - - 0 1");
    pos.play("a1a1").unwrap();
    assert!(end(&mut pos).is_none());
    pos.play("e1e1").unwrap();
    assert_eq!(
        end(&mut pos),
        Some(("white".into(), "2 passes in a row".into()))
    );
    assert!(
        pos.legal_moves().is_empty(),
        "no move once the game is over"
    );
}

// ---- board-full, by-count ----------------------------------------------------------

#[test]
fn a_full_board_ends_the_game_by_count() {
    let full = "PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/pppppppp/pppppppp/pppppppp/PPPPPPPP";
    let mut pos = at("flipello", &format!("{full}[30P30p] b - - 0 1"));
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        end(&mut pos),
        Some(("white".into(), "the board is full".into()))
    );
    // As many of each: a draw.
    let even = "PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/pppppppp/pppppppp/pppppppp/pppppppp";
    let mut pos = at("flipello", &format!("{even}[30P30p] w - - 0 1"));
    assert_eq!(
        end(&mut pos),
        Some(("draw".into(), "the board is full".into()))
    );
}

// ---- clones, convert adjacent (ataxx) ----------------------------------------------

#[test]
fn a_copy_is_one_move_per_square_written_as_a_placement() {
    // Two white blobs share the squares between them: each square is one copy.
    let mut pos = at("ataxx", "7/7/7/7/7/7/P1P3p w - - 0 1");
    let copies: Vec<String> = moves(&mut pos)
        .into_iter()
        .filter(|m| m.contains('@'))
        .collect();
    assert_eq!(copies, ["P@a2", "P@b1", "P@b2", "P@c2", "P@d1", "P@d2"]);
    // Away from its own blobs a copy is refused, with the reason.
    assert!(
        pos.why_illegal("P@d4").contains("next to none"),
        "{}",
        pos.why_illegal("P@d4")
    );
    // The copied blob stays, and no hand is involved.
    let mut pos = at("ataxx", "7/7/7/7/7/7/P1P3p w - - 0 1");
    play_and_undo(&mut pos, "P@b1", "7/7/7/7/7/7/PPP3p");
}

#[test]
fn a_jump_turns_the_enemy_blobs_around_the_landing_square() {
    // g1 jumps to f3 (a knight's leap, two squares away): the black blobs on e2, e3
    // and e4 turn; c2..c4 and d2, d4 are not next to f3 and stay.
    let mut pos = at("ataxx", "7/7/7/2ppp2/2p1p2/2ppp2/P5P w - - 0 1");
    play_and_undo(&mut pos, "g1f3", "7/7/7/2ppP2/2p1PP1/2ppP2/P6");
}

#[test]
fn a_copy_turns_the_enemy_blobs_around_it_too() {
    let mut pos = at("ataxx", "7/7/7/7/7/pp5/P5p w - - 0 1");
    play_and_undo(&mut pos, "P@b1", "7/7/7/7/7/PP5/PP4p");
}

#[test]
fn ataxx_repetition_is_decided_by_count() {
    // Jumps back and forth, far from each other: the third time the position stands,
    // the count decides (two white blobs to one).
    let mut pos = at("ataxx", "7/7/7/7/7/7/P1P3p w - - 0 1");
    for m in [
        "a1a3", "g1g3", "a3a1", "g3g1", "a1a3", "g1g3", "a3a1", "g3g1",
    ] {
        pos.play(m).unwrap();
    }
    assert_eq!(
        end(&mut pos),
        Some(("white".into(), "the position occurred 3 times".into()))
    );
}

// ---- a file of its own: both rules on one line, the mover's own pieces -----------------

#[test]
fn a_move_with_both_conversions_turns_each_piece_once() {
    let rules = rules_of(
        r#"
        board 5 x 1
        players white black
        piece Stone S { moves "mW" then convert enclosed, convert adjacent }
        end { no-moves by-count }
        setup "SsS1s w - - 0 1"
        "#,
    );
    // The white stone on c1 steps to d1: e1 is next to it and turns; b1 is not
    // enclosed (c1, which the stone left, is empty) and stays.
    let mut pos = Position::from_fen(rules.clone(), "SsS1s w - - 0 1").unwrap();
    play_and_undo(&mut pos, "c1d1", "Ss1SS");
    // a1 steps to b1: c1 is enclosed (against d1) and next to it, and turns once.
    let mut pos = Position::from_fen(rules, "S1sS1 w - - 0 1").unwrap();
    play_and_undo(&mut pos, "a1b1", "1SSS1");
}
