//! A placement phase (`must-drop`, `both-colours`, `castling-by-drop`), as placement
//! chess needs it: one test per rule, each asserting the legal moves or the position
//! string after some placements (Fairy-Stockfish's, from pyffish).
//! `variants/placement.var` is the game under test.

mod common;

use varsand::Position;

fn start() -> Position {
    Position::start(common::rules("variants/placement.var"))
}

/// The position after `moves`, each played as typed.
fn after(moves: &str) -> Position {
    let mut pos = start();
    for m in moves.split_whitespace() {
        pos.play(m).unwrap_or_else(|e| panic!("{m}: {}", e.message));
    }
    pos
}

#[test]
fn while_the_hand_holds_pieces_placing_is_the_only_move() {
    let mut pos = start();
    let moves = common::legal_texts(&mut pos);
    assert_eq!(moves.len(), 40, "five kinds on eight squares: {moves:?}");
    assert!(moves.iter().all(|m| m.contains('@')), "no pawn moves yet");
    assert!(
        moves.iter().all(|m| m.ends_with('1')),
        "White places on rank 1"
    );
}

#[test]
fn once_the_hands_are_empty_play_goes_on_as_in_chess() {
    let mut pos =
        after("K@e1 K@e8 R@h1 R@a8 R@a1 R@h8 Q@d1 Q@d8 B@c1 B@c8 B@f1 B@f8 N@b1 N@b8 N@g1 N@g8");
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 9"
    );
    assert_eq!(pos.legal_moves().len(), 20);
}

#[test]
fn a_bishop_may_not_go_on_the_colour_of_the_other() {
    let mut pos = after("B@c1 K@e8");
    let bishops = common::legal_texts_starting(&mut pos, "B@");
    assert_eq!(
        bishops,
        ["B@b1", "B@d1", "B@f1", "B@h1"],
        "light squares only"
    );
}

#[test]
fn the_last_square_of_a_colour_is_kept_for_a_bishop_in_hand() {
    // a1, c1 and e1 are taken: g1 is White's last dark square, which a bishop in hand
    // needs, so only a bishop may go there.
    let mut pos = after("K@a1 K@a8 Q@c1 Q@c8 R@e1 R@e8");
    let mut moves = common::legal_texts(&mut pos);
    moves.sort();
    assert_eq!(
        moves,
        [
            "B@b1", "B@d1", "B@f1", "B@g1", "B@h1", "N@b1", "N@d1", "N@f1", "N@h1", "R@b1", "R@d1",
            "R@f1", "R@h1"
        ]
    );
}

#[test]
fn placing_king_and_rook_on_their_squares_gives_the_castling_right() {
    assert_eq!(
        after("K@e1 K@e8 R@h1 R@a8").fen(),
        "r3k3/pppppppp/8/8/8/8/PPPPPPPP/4K2R[QRBBNNqrbbnn] w Kq - 0 3"
    );
    assert_eq!(
        after("R@h1 R@a8 K@e1 K@e8").fen(),
        "r3k3/pppppppp/8/8/8/8/PPPPPPPP/4K2R[QRBBNNqrbbnn] w Kq - 0 3",
        "the rook first, then the king"
    );
}

#[test]
fn a_king_placed_off_its_square_gives_no_right() {
    assert_eq!(
        after("R@h1 R@a8 K@d1 K@e8").fen(),
        "r3k3/pppppppp/8/8/8/8/PPPPPPPP/3K3R[QRBBNNqrbbnn] w q - 0 3"
    );
}

#[test]
fn rights_given_by_placement_read_back_from_the_position_string() {
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[QBBNNqbbnn] w KQkq - 0 4";
    let pos = Position::from_fen(common::rules("variants/placement.var"), fen).unwrap();
    assert_eq!(pos.fen(), fen);
}

#[test]
fn a_move_on_the_board_while_placing_is_forced_is_explained() {
    let mut pos = start();
    let why = pos.why_illegal("e2e4");
    assert!(why.contains("placing one is the only move"), "{why}");
    let mut pos = after("B@c1 B@c8");
    let why = pos.why_illegal("B@e1");
    assert!(why.contains("both colours"), "{why}");
}
