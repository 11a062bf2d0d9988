//! Sittuyin (`variants/sittuyin.var`): one test per rule. The expected move lists are
//! Fairy-Stockfish's (pyffish 0.0.90, variant `sittuyin`), texts included: a promotion
//! in place is written with its square twice (`d5d5f`).

mod common;

use varsand::Position;

fn rules() -> std::sync::Arc<varsand::Rules> {
    common::rules("variants/sittuyin.var")
}

fn at(fen: &str) -> Position {
    Position::from_fen(rules(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves_at(fen: &str) -> Vec<String> {
    common::legal_texts(&mut at(fen))
}

#[test]
fn the_game_starts_by_placing_pieces_on_ones_own_three_ranks() {
    let mut pos = Position::start(rules());
    let moves = common::legal_texts(&mut pos);
    assert_eq!(moves.len(), 88);
    assert!(moves.iter().all(|m| m.contains('@')), "no pawn moves yet");
    assert!(
        moves
            .iter()
            .all(|m| matches!(&m[m.len() - 1..], "1" | "2" | "3")),
        "White places on ranks 1 to 3: {moves:?}"
    );
    assert!(moves.contains(&"K@e3".to_string()) && !moves.contains(&"K@a3".to_string()));
}

#[test]
fn a_rook_is_placed_only_on_the_first_rank() {
    let mut pos = Position::start(rules());
    assert_eq!(
        common::legal_texts_starting(&mut pos, "R@"),
        [
            "R@a1", "R@b1", "R@c1", "R@d1", "R@e1", "R@f1", "R@g1", "R@h1"
        ]
    );
    pos.play("K@e2").unwrap();
    let black = common::legal_texts_starting(&mut pos, "R@");
    assert!(black.iter().all(|m| m.ends_with('8')), "{black:?}");
}

#[test]
fn once_the_hands_are_empty_the_pieces_move() {
    let mut pos = Position::start(rules());
    for m in "K@d2 S@c7 S@f1 N@b8 S@g3 F@f7 F@h3 S@h8 N@f3 K@h7 R@h1 N@b6 N@b2 R@d8 R@b1 R@c8"
        .split_whitespace()
    {
        pos.play(m).unwrap_or_else(|e| panic!("{m}: {}", e.message));
    }
    let moves = common::legal_texts(&mut pos);
    assert!(moves.iter().all(|m| !m.contains('@')));
    assert!(moves.contains(&"a3a4".to_string()), "pawns move: {moves:?}");
}

#[test]
fn a_pawn_on_a_promotion_square_becomes_a_general_in_place_or_one_step_diagonally() {
    // The lone pawn: every diagonal square, and its own.
    assert_eq!(
        moves_at("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1"),
        [
            "d5c4f", "d5c6f", "d5d5f", "d5d6", "d5e4f", "d5e6f", "e1d1", "e1d2", "e1e2", "e1f1",
            "e1f2"
        ]
    );
    // Black's promotion squares are White's mirrored: e4 is one.
    assert_eq!(
        moves_at("4k3/8/8/8/4p3/1p6/8/4K2R b - - 0 1"),
        [
            "b3b2", "e4d3f", "e4d5f", "e4e3", "e4e4f", "e4f3f", "e4f5f", "e8d7", "e8d8", "e8e7",
            "e8f7", "e8f8"
        ]
    );
}

#[test]
fn the_new_general_may_not_attack_an_enemy_piece() {
    // On d5 the general would attack the rook on c6: no promotion in place (and c6 is
    // taken by the pawn's capture, not by a promotion).
    assert_eq!(
        moves_at("4k3/8/2r5/3P4/8/8/P7/4K3 w - - 0 1"),
        [
            "a2a3", "d5c4f", "d5c6", "d5d6", "d5e4f", "d5e6f", "e1d1", "e1d2", "e1e2", "e1f1",
            "e1f2"
        ]
    );
}

#[test]
fn a_promotion_may_not_give_check_even_by_discovery() {
    // The pawn shields the black king from the rook: only the promotion in place.
    let moves = moves_at("3k4/8/8/3P4/8/8/3R4/4K3 w - - 0 1");
    let promotions: Vec<&String> = moves.iter().filter(|m| m.ends_with('f')).collect();
    assert_eq!(promotions, ["d5d5f"]);
    // On e6 the general would check the king on f7.
    let moves = moves_at("8/5k2/8/4P3/8/8/P7/4K3 w - - 0 1");
    assert!(!moves.contains(&"e5e6f".to_string()), "{moves:?}");
    assert!(moves.contains(&"e5f6f".to_string()), "{moves:?}");
}

#[test]
fn the_last_pawn_promotes_from_any_square() {
    assert_eq!(
        moves_at("4k3/8/8/8/8/2P5/8/4K3 w - - 0 1"),
        [
            "c3b2f", "c3b4f", "c3c3f", "c3c4", "c3d2f", "c3d4f", "e1d1", "e1d2", "e1e2", "e1f1",
            "e1f2"
        ]
    );
}

#[test]
fn no_promotion_while_the_player_has_a_general() {
    assert_eq!(
        moves_at("4k3/8/8/3P4/8/8/P4F2/4K3 w - - 0 1"),
        [
            "a2a3", "d5d6", "e1d1", "e1d2", "e1e2", "e1f1", "f2e3", "f2g1", "f2g3"
        ]
    );
}

#[test]
fn a_pawn_reaching_the_last_rank_stays_a_pawn() {
    assert_eq!(
        moves_at("4k3/2P5/8/8/8/8/P7/4K3 w - - 0 1"),
        ["a2a3", "c7c8", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]
    );
}

#[test]
fn a_promotion_in_place_is_read_and_taken_back() {
    let fen = "3k4/8/8/3P4/8/8/3R4/4K3 w - - 0 1";
    let mut pos = at(fen);
    pos.play("d5d5f").unwrap();
    assert_eq!(pos.fen(), "3k4/8/8/3F4/8/8/3R4/4K3[] b - - 0 1");
    pos.unmake();
    assert_eq!(pos.fen(), at(fen).fen());
    pos.play("d5d6").unwrap();
    assert_eq!(pos.fen(), "3k4/8/3P4/8/8/8/3R4/4K3[] b - - 0 1");
}

#[test]
fn a_refused_promotion_says_which_condition_it_breaks() {
    let mut pos = at("4k3/8/2r5/3P4/8/8/P7/4K3 w - - 0 1");
    let why = pos.why_illegal("d5d5f");
    assert_eq!(
        why,
        "the move needs to attack no enemy piece from where it lands"
    );
    let mut pos = at("3k4/8/8/3P4/8/8/3R4/4K3 w - - 0 1");
    assert_eq!(pos.why_illegal("d5c4f"), "the move needs not to give check");
}
