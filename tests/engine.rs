//! General engine behaviour not tied to one shipped game.

use std::sync::Arc;

use varsand::{Position, load_rules};

const ARCHERS: &str = r#"
game "Archers"
board 4 x 4
players white black
piece King K { moves "K" royal }
// Shoots along its file only as long as it has not moved.
piece Archer A { moves "mW icR" }
end { checkmate loss stalemate draw }
setup "k3/4/4/A2K w - - 0 1"
"#;

#[test]
fn captures_under_state_conditions_give_check() {
    let rules = load_rules(ARCHERS).unwrap();
    // The unmoved archer on a1 attacks the king on a4.
    let pos = Position::from_fen(Arc::clone(&rules), "k3/4/4/A2K b - - 0 1").unwrap();
    assert!(pos.in_check(1));
    // An archer away from its home square has moved: it no longer shoots.
    let pos = Position::from_fen(Arc::clone(&rules), "1k2/4/4/1A1K b - - 0 1").unwrap();
    assert!(!pos.in_check(1));
    let moves = |fen: &str| {
        let mut pos = Position::from_fen(Arc::clone(&rules), fen).unwrap();
        let mut moves: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| pos.move_text(*m))
            .collect();
        moves.sort();
        moves
    };
    // The king may not step onto the unmoved archer's file...
    assert_eq!(moves("1k2/4/4/A2K b - - 0 1"), ["b4b3", "b4c3", "b4c4"]);
    // ...but onto a moved archer's, freely.
    assert_eq!(
        moves("2k1/4/4/1A1K b - - 0 1"),
        ["c4b3", "c4b4", "c4c3", "c4d3", "c4d4"]
    );
}
