//! Jungles and Mountains Chess, one test per rule of `docs/rules/jungles_mountains.md`,
//! each on a small hand-built position string (`g` jungle, `M` mountain, `E`/`e` Engineer,
//! `D`/`d` Dozer), asserting the exact sorted list of legal moves and the move's effects.
//! The last tests load `examples/lava.var` and `examples/walls.var`, two other terrains
//! written in the same language.

mod common;

use std::sync::Arc;

use common::rules as rules_from;

use varsand::ids::Side;
use varsand::perft::Perft;
use varsand::rules::Cell;
use varsand::{Position, Rules};

// ---- helpers ----------------------------------------------------------------------

fn jm() -> Arc<Rules> {
    rules_from("variants/jungles_mountains.var")
}

/// A Jungles and Mountains position from a position string.
fn jm_at(fen: &str) -> Position {
    at(jm(), fen)
}

fn at(rules: Arc<Rules>, fen: &str) -> Position {
    Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn cell(pos: &Position, square: &str) -> Cell {
    pos.rules()
        .geometry()
        .parse_square(square)
        .unwrap_or_else(|| panic!("no square {square}"))
}

/// Every legal move, as text, sorted.
fn all_moves(pos: &mut Position) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| pos.move_text(m))
        .collect();
    v.sort();
    v
}

/// The legal moves of the piece on `square`, as text, sorted.
fn moves_from(pos: &mut Position, square: &str) -> Vec<String> {
    let from = cell(pos, square);
    let mut v: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.from == from)
        .map(|m| pos.move_text(m))
        .collect();
    v.sort();
    v
}

fn list(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(std::string::ToString::to_string).collect();
    v.sort();
    v
}

/// The name of the terrain on `square`, if any.
fn terrain(pos: &Position, square: &str) -> Option<String> {
    pos.terrain_at(cell(pos, square))
        .map(|t| pos.rules().terrains()[t].name.clone())
}

fn play(pos: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        pos.play(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", pos.fen()));
    }
}

fn assert_hash_consistent(pos: &Position) {
    assert_eq!(
        pos.hash(),
        pos.compute_hash(),
        "incremental hash in {}",
        pos.fen()
    );
}

const WHITE: Side = Side::First;
const BLACK: Side = Side::Second;

// ---- the setup --------------------------------------------------------------------

#[test]
fn start_position_has_exactly_four_dozer_moves() {
    let rules = jm();
    let mut pos = Position::start(rules);
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/gdeggdeg/gggggggg/MMMMMMMM/MMMMMMMM/gggggggg/gDEggEDg/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(all_moves(&mut pos), list(&["b2a2", "b2b3", "g2g3", "g2h2"]));
}

#[test]
fn start_position_is_played_as_printed_not_mirrored() {
    let pos = Position::start(jm());
    // White: Dozers b2 g2, Engineers c2 f2. Black: Dozers b7 f7, Engineers c7 g7.
    let letter = |sq: &str| pos.rules().code_letter(pos.piece_at(cell(&pos, sq)));
    assert_eq!(["b2", "c2", "f2", "g2"].map(letter), ['D', 'E', 'E', 'D']);
    assert_eq!(["b7", "c7", "f7", "g7"].map(letter), ['d', 'e', 'd', 'e']);
}

// ---- Dozers and Engineers ---------------------------------------------------------

#[test]
fn dozer_clears_jungle() {
    // Dozer c3 boxed in by jungle on b3 c4 d3 c2: it may bulldoze any of them.
    let fen = "7k/8/8/8/2g5/1gDg4/2g5/7K w - - 0 1";
    let mut pos = jm_at(fen);
    assert_eq!(
        moves_from(&mut pos, "c3"),
        list(&["c3b3", "c3c2", "c3c4", "c3d3"])
    );
    let before = pos.hash();
    assert_hash_consistent(&pos);
    assert_eq!(terrain(&pos, "c4").as_deref(), Some("jungle"));

    let m = pos.parse_move("c3c4").unwrap();
    pos.make(m);
    assert_eq!(terrain(&pos, "c4"), None, "the jungle is gone");
    assert_eq!(pos.fen(), "7k/8/8/8/2D5/1g1g4/2g5/7K b - - 0 1");
    assert_ne!(pos.hash(), before);
    assert_hash_consistent(&pos);

    pos.unmake();
    assert_eq!(
        terrain(&pos, "c4").as_deref(),
        Some("jungle"),
        "unmake puts the jungle back"
    );
    assert_eq!(pos.fen(), fen);
    assert_eq!(pos.hash(), before);
    assert_hash_consistent(&pos);
}

#[test]
fn dozer_may_not_enter_mountain() {
    let mut pos = jm_at("7k/8/8/8/2M5/1MDM4/8/7K w - - 0 1");
    assert_eq!(moves_from(&mut pos, "c3"), list(&["c3c2"]));
}

#[test]
fn dozer_moves_only_orthogonally() {
    let mut pos = jm_at("7k/8/8/8/8/2D5/8/7K w - - 0 1");
    assert_eq!(
        moves_from(&mut pos, "c3"),
        list(&["c3b3", "c3c2", "c3c4", "c3d3"])
    );
}

#[test]
fn engineer_clears_mountain() {
    // Engineer c4 with mountains on all four diagonal neighbours.
    let fen = "7k/8/8/1M1M4/2E5/1M1M4/8/7K w - - 0 1";
    let mut pos = jm_at(fen);
    assert_eq!(
        moves_from(&mut pos, "c4"),
        list(&["c4b3", "c4b5", "c4d3", "c4d5"])
    );
    let before = pos.hash();

    play(&mut pos, "c4d5");
    assert_eq!(terrain(&pos, "d5"), None, "the mountain is gone");
    assert_eq!(pos.fen(), "7k/8/8/1M1E4/8/1M1M4/8/7K b - - 0 1");
    assert_hash_consistent(&pos);

    pos.unmake();
    assert_eq!(terrain(&pos, "d5").as_deref(), Some("mountain"));
    assert_eq!((pos.fen(), pos.hash()), (fen.to_string(), before));
    assert_hash_consistent(&pos);
}

#[test]
fn engineer_may_not_enter_jungle() {
    let mut pos = jm_at("7k/8/8/1g1g4/2E5/1g6/8/7K w - - 0 1");
    assert_eq!(moves_from(&mut pos, "c4"), list(&["c4d3"]));
}

#[test]
fn engineer_moves_only_diagonally() {
    let mut pos = jm_at("7k/8/8/8/2E5/8/8/7K w - - 0 1");
    assert_eq!(
        moves_from(&mut pos, "c4"),
        list(&["c4b3", "c4b5", "c4d3", "c4d5"])
    );
}

#[test]
fn engineer_and_dozer_capture() {
    // Engineer c4: enemy knight b5 and rook d5, own knight b3. Dozer c2: enemy bishop c1.
    let fen = "7k/8/8/1n1r4/2E5/1N6/2D5/2b4K w - - 7 20";
    let mut pos = jm_at(fen);
    assert_eq!(moves_from(&mut pos, "c4"), list(&["c4b5", "c4d3", "c4d5"]));
    assert_eq!(
        moves_from(&mut pos, "c2"),
        list(&["c2b2", "c2c1", "c2c3", "c2d2"])
    );

    play(&mut pos, "c4d5");
    assert_eq!(
        pos.fen(),
        "7k/8/8/1n1E4/8/1N6/2D5/2b4K b - - 0 20",
        "the rook is taken, the clock restarts"
    );
    assert_hash_consistent(&pos);
    pos.unmake();
    assert_eq!(pos.fen(), fen);

    play(&mut pos, "c2c1");
    assert_eq!(pos.fen(), "7k/8/8/1n1r4/2E5/1N6/8/2D4K b - - 0 20");
    assert_hash_consistent(&pos);
}

#[test]
fn engineer_and_dozer_are_captured() {
    // The black rook on a4 may take the Dozer on a2 and the Engineer on c4.
    let mut pos = jm_at("7k/8/8/8/r1E5/8/D7/7K b - - 0 1");
    assert_eq!(
        moves_from(&mut pos, "a4"),
        list(&[
            "a4a2", "a4a3", "a4a5", "a4a6", "a4a7", "a4a8", "a4b4", "a4c4"
        ])
    );
}

#[test]
fn engineer_and_dozer_give_check() {
    // The Engineer checks diagonally, the Dozer orthogonally, and neither the other way.
    assert!(jm_at("4k3/3E4/8/8/8/8/8/7K b - - 0 1").in_check(BLACK));
    assert!(jm_at("4k3/4D3/8/8/8/8/8/7K b - - 0 1").in_check(BLACK));
    assert!(!jm_at("4k3/4E3/8/8/8/8/8/7K b - - 0 1").in_check(BLACK));
    assert!(!jm_at("4k3/3D4/8/8/8/8/8/7K b - - 0 1").in_check(BLACK));
}

// ---- terrain and the other pieces -------------------------------------------------

#[test]
fn sliders_stop_at_terrain_rook() {
    // Rook d4: mountain d6 (a black rook hides behind it), jungle b4, black knight d2.
    let mut pos = jm_at("7k/3r4/3M4/8/1g1R4/8/3n4/7K w - - 0 1");
    assert_eq!(
        moves_from(&mut pos, "d4"),
        list(&[
            "d4c4", "d4d2", "d4d3", "d4d5", "d4e4", "d4f4", "d4g4", "d4h4"
        ])
    );
}

#[test]
fn sliders_stop_at_terrain_bishop() {
    // Bishop d4: mountain f6 (a black knight hides behind it on g7), jungle b2.
    let mut pos = jm_at("7k/6n1/5M2/8/3B4/8/1g6/7K w - - 0 1");
    assert_eq!(
        moves_from(&mut pos, "d4"),
        list(&[
            "d4a7", "d4b6", "d4c3", "d4c5", "d4e3", "d4e5", "d4f2", "d4g1"
        ])
    );
}

#[test]
fn sliders_stop_at_terrain_queen() {
    // Queen d4. N: d5 then jungle d6. S: mountain d3. E: e4 f4 then jungle g4. W: jungle c4.
    // NE: e5 f6 then mountain g7. NW: mountain c5. SE: jungle e3. SW: c3 b2, takes a1.
    let mut pos = jm_at("7k/6M1/3g4/2M5/2gQ2g1/3Mg3/7K/r7 w - - 0 1");
    assert_eq!(
        moves_from(&mut pos, "d4"),
        list(&[
            "d4a1", "d4b2", "d4c3", "d4d5", "d4e4", "d4e5", "d4f4", "d4f6"
        ])
    );
}

#[test]
fn knight_leaps_over_terrain_but_may_not_land_on_it() {
    // Knight d4 with terrain on all eight neighbours; of its targets b3 f5 (jungle) and
    // b5 e6 (mountain) are barred, c2 e2 f3 are free and c6 holds a black knight.
    let mut pos = jm_at("7k/8/2n1M3/1MgMgg2/2MNM3/1gMgM3/8/7K w - - 0 1");
    assert_eq!(
        moves_from(&mut pos, "d4"),
        list(&["d4c2", "d4c6", "d4e2", "d4f3"])
    );
}

#[test]
fn knight_checks_over_terrain() {
    // The black king is walled in by mountains; the knight's check goes over them.
    let pos = jm_at("7k/5NMM/6M1/8/8/8/8/7K b - - 0 1");
    assert!(pos.in_check(BLACK));
}

#[test]
fn king_may_not_enter_terrain() {
    // King d4: jungle c3 c5 e4, mountain c4 d5 e3; d3 and e5 are free.
    let mut pos = jm_at("7k/8/8/2gM4/2MKg3/2g1M3/8/8 w - - 0 1");
    assert_eq!(all_moves(&mut pos), list(&["d4d3", "d4e5"]));
}

#[test]
fn terrain_blocks_check_along_a_line() {
    // Rook e1, mountain e4, black king e8: no check, and e7 is a safe square.
    let mut pos = jm_at("1n2k3/8/8/8/4M3/3E4/8/4R1K1 b - - 0 1");
    assert!(!pos.in_check(BLACK));
    assert_eq!(
        moves_from(&mut pos, "e8"),
        list(&["e8d7", "e8d8", "e8e7", "e8f7", "e8f8"])
    );

    // The Engineer clears the mountain (and then stands in the line itself) ...
    let mut pos = jm_at("1n2k3/8/8/8/4M3/3E4/8/4R1K1 w - - 0 1");
    play(&mut pos, "d3e4");
    assert_eq!(terrain(&pos, "e4"), None);
    assert!(!pos.in_check(BLACK));
    // ... and steps out of it: now the rook gives check.
    play(&mut pos, "b8a6 e4f5");
    assert!(pos.in_check(BLACK));
    assert_eq!(all_moves(&mut pos), list(&["e8d7", "e8d8", "e8f7", "e8f8"]));
}

#[test]
fn terrain_blocks_check_along_a_diagonal() {
    // Bishop a1, black king h8: jungle on d4 shields the king; without it, check.
    assert!(!jm_at("7k/8/8/8/3g4/8/8/B6K b - - 0 1").in_check(BLACK));
    assert!(jm_at("7k/8/8/8/8/8/8/B6K b - - 0 1").in_check(BLACK));
}

// ---- castling -----------------------------------------------------------------------

#[test]
fn castling_both_wings() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut pos = jm_at(fen);
    let hash = pos.hash();
    assert_eq!(
        moves_from(&mut pos, "e1"),
        list(&["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"])
    );
    play(&mut pos, "e1g1");
    assert_eq!(pos.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    assert_hash_consistent(&pos);
    assert!(moves_from(&mut pos, "e8").contains(&"e8c8".to_string()));
    play(&mut pos, "e8c8");
    assert_eq!(pos.fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    assert_hash_consistent(&pos);
    pos.unmake();
    pos.unmake();
    assert_eq!((pos.fen(), pos.hash()), (fen.to_string(), hash));
}

#[test]
fn castling_refused_through_check() {
    // The black rook on f8 attacks f1, which the king would cross.
    let mut pos = jm_at("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(
        moves_from(&mut pos, "e1"),
        list(&["e1c1", "e1d1", "e1d2", "e1e2"])
    );
}

#[test]
fn castling_allowed_when_only_the_rook_crosses_an_attacked_square() {
    // b1 is attacked, but only the rook passes it.
    let mut pos = jm_at("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(moves_from(&mut pos, "e1").contains(&"e1c1".to_string()));
}

#[test]
fn castling_refused_into_check() {
    // The black rook on g8 attacks g1, where the king would land.
    let mut pos = jm_at("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(
        moves_from(&mut pos, "e1"),
        list(&["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"])
    );
}

#[test]
fn castling_refused_when_in_check() {
    // The black rook on e8 checks the king: no castling, only king steps off the file.
    let mut pos = jm_at("1k2r3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(pos.in_check(WHITE));
    assert_eq!(all_moves(&mut pos), list(&["e1d1", "e1d2", "e1f1", "e1f2"]));
}

#[test]
fn castling_refused_through_terrain() {
    // Jungle on b1: only the rook would cross it, yet it stops long castling.
    let mut pos = jm_at("r3k2r/8/8/8/8/8/8/Rg2K2R w KQkq - 0 1");
    assert_eq!(
        moves_from(&mut pos, "e1"),
        list(&["e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"])
    );
    // Mountain on f1: no short castling (and the king cannot step there either).
    let mut pos = jm_at("r3k2r/8/8/8/8/8/8/R3KM1R w KQkq - 0 1");
    assert_eq!(
        moves_from(&mut pos, "e1"),
        list(&["e1c1", "e1d1", "e1d2", "e1e2", "e1f2"])
    );
    // Mountain on g1, the king's landing square.
    let mut pos = jm_at("r3k2r/8/8/8/8/8/8/R3K1MR w KQkq - 0 1");
    assert_eq!(
        moves_from(&mut pos, "e1"),
        list(&["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"])
    );
}

#[test]
fn castling_right_dropped_when_rook_not_home() {
    // No rook on a1: Q is dropped when the string is read.
    let pos = jm_at("4k3/8/8/8/8/8/8/4K2R w KQ - 0 1");
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    // White king off e1, black rook off h8: only q survives.
    let pos = jm_at("r3k3/8/8/8/8/8/8/R2K3R w KQkq - 0 1");
    assert_eq!(pos.fen(), "r3k3/8/8/8/8/8/8/R2K3R w q - 0 1");
}

#[test]

fn castling_right_dropped_when_another_piece_stands_on_the_rook_square() {
    // A knight, not a rook, on h1: the rook is not home, so K must be dropped.
    let mut pos = jm_at("4k3/8/8/8/8/8/8/4K2N w K - 0 1");
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K2N w - - 0 1");
    assert!(
        !moves_from(&mut pos, "e1").contains(&"e1g1".to_string()),
        "a knight must not castle"
    );
}

#[test]
fn castling_rights_lost_when_king_or_rook_moves_or_rook_is_taken() {
    let mut pos = jm_at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut pos, "h1h2");
    assert_eq!(pos.fen(), "r3k2r/8/8/8/8/8/7R/R3K3 b Qkq - 1 1");
    play(&mut pos, "e8d8");
    assert_eq!(pos.fen(), "r2k3r/8/8/8/8/8/7R/R3K3 w Q - 2 2");
    play(&mut pos, "a1a8");
    assert_eq!(pos.fen(), "R2k3r/8/8/8/8/8/7R/4K3 b - - 0 2");
    assert_hash_consistent(&pos);
}

// ---- the end of the game -----------------------------------------------------------

#[test]
fn checkmate_detected() {
    // A back-rank mate where jungle, not pawns, hems the king in.
    let mut pos = jm_at("6k1/5ggg/8/8/8/8/8/R5K1 w - - 0 1");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "a1a8");
    assert!(pos.in_check(BLACK));
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        ending(&mut pos),
        Some((Some(WHITE), "black is checkmated".to_string()))
    );
}

#[test]
fn stalemate_is_a_draw() {
    // The black king is boxed in by mountains alone: no move, no check.
    let mut pos = jm_at("kM6/MM6/8/8/8/8/8/7K b - - 0 1");
    assert!(!pos.in_check(BLACK));
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        ending(&mut pos),
        Some((None, "black is stalemated".to_string()))
    );
    // The classic one: king a8, queen b6.
    let mut pos = jm_at("k7/8/1Q6/8/8/8/8/7K b - - 0 1");
    assert_eq!(
        ending(&mut pos),
        Some((None, "black is stalemated".to_string()))
    );
}

#[test]
fn fifty_move_count_reset_by_clearing_terrain() {
    let mut pos = jm_at("4k3/8/8/8/8/2g5/2D5/4K3 w - - 30 40");
    play(&mut pos, "e1f1");
    assert_eq!(pos.halfmove_clock(), 31, "a plain move counts up");
    play(&mut pos, "e8d8");
    assert_eq!(pos.halfmove_clock(), 32);
    play(&mut pos, "c2c3");
    assert_eq!(
        pos.halfmove_clock(),
        0,
        "clearing jungle restarts the count"
    );
    play(&mut pos, "d8e8");
    assert_eq!(pos.halfmove_clock(), 1);
    pos.unmake();
    pos.unmake();
    assert_eq!(pos.halfmove_clock(), 32, "unmake restores the count");
}

#[test]
fn fifty_move_rule_is_a_draw_unless_terrain_is_cleared() {
    let fen = "4k3/8/8/8/8/2g5/2D5/4K3 w - - 99 80";
    let mut pos = jm_at(fen);
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "e1f1");
    assert_eq!(pos.halfmove_clock(), 100);
    assert_eq!(
        ending(&mut pos),
        Some((
            None,
            "50 moves by each side without a capture or other progress".to_string()
        ))
    );
    let mut pos = jm_at(fen);
    play(&mut pos, "c2c3");
    assert_eq!(pos.halfmove_clock(), 0);
    assert_eq!(pos.outcome(), None);
}

#[test]
fn repetition_counts_terrain() {
    let with_jungle = jm_at("4k3/8/8/8/8/2g5/2D5/4K3 w - - 0 1");
    let without = jm_at("4k3/8/8/8/8/8/2D5/4K3 w - - 0 1");
    assert_ne!(
        with_jungle.hash(),
        without.hash(),
        "same pieces, different terrain, different position"
    );

    // The Dozer clears c3 and comes back: the pieces stand as at the start, the position
    // is not the same.
    let mut pos = jm_at("4k3/8/8/8/8/2g5/2D5/4K3 w - - 0 1");
    play(&mut pos, "c2c3 e8d8 c3c2 d8e8");
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/2D5/4K3 w - - 3 3");
    assert_ne!(pos.hash(), with_jungle.hash());
    assert_eq!(pos.hash(), without.hash());
    assert_eq!(pos.repetitions(), 1);
    play(&mut pos, "c2c3 e8d8 c3c2 d8e8");
    assert_eq!(pos.repetitions(), 2);
    assert_eq!(pos.outcome(), None);
    // The position after c2c3 (no jungle) now occurs a third time.
    play(&mut pos, "c2c3");
    assert_eq!(pos.repetitions(), 3);
    assert_eq!(
        ending(&mut pos),
        Some((None, "the position occurred 3 times".to_string()))
    );
}

#[test]
fn perft_start_depth_4() {
    let mut pos = Position::start(jm());
    let mut perft = Perft::new();
    perft.verify = true; // checks the hash and the position after every make/unmake
    let counts: Vec<u64> = (1..=4).map(|d| perft.count(&mut pos, d)).collect();
    assert_eq!(counts, [4, 16, 88, 506]);
}

// ---- other terrains: examples/lava.var and examples/walls.var ----------------------

fn lava() -> Arc<Rules> {
    rules_from("examples/lava.var")
}

fn walls() -> Arc<Rules> {
    rules_from("examples/walls.var")
}

#[test]
fn example_lava_loads_and_its_setup_plays() {
    let mut pos = Position::start(lava());
    let mut perft = Perft::new();
    perft.verify = true;
    assert_eq!(perft.count(&mut pos, 3), 4448);
}

#[test]
fn example_lava_salamander_crosses_and_stands_on_lava_others_cannot() {
    // Lava fills rank 2. Salamander a1 (up to two steps any way), king e1, knight g1, rook h1.
    let mut pos = at(lava(), "4k3/8/8/8/8/8/~~~~~~~~/S3K1NR w - - 0 1");
    assert_eq!(
        moves_from(&mut pos, "a1"),
        list(&["a1a2", "a1a3", "a1b1", "a1b2", "a1c1", "a1c3"])
    );
    assert_eq!(
        moves_from(&mut pos, "e1"),
        list(&["e1d1", "e1f1"]),
        "the king may not enter lava"
    );
    assert_eq!(
        moves_from(&mut pos, "g1"),
        list(&["g1f3", "g1h3"]),
        "the knight leaps over lava, never into it"
    );
    assert_eq!(
        moves_from(&mut pos, "h1"),
        Vec::<String>::new(),
        "the rook may not cross lava"
    );

    // Standing on lava leaves it there; so does crossing it.
    play(&mut pos, "a1a2");
    assert_eq!(terrain(&pos, "a2").as_deref(), Some("lava"));
    assert_hash_consistent(&pos);
    play(&mut pos, "e8d8 a2a4");
    assert_eq!(terrain(&pos, "a2").as_deref(), Some("lava"));
    assert_eq!(pos.halfmove_clock(), 3, "crossing lava clears nothing");
    assert_hash_consistent(&pos);
    pos.unmake();
    pos.unmake();
    pos.unmake();
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/~~~~~~~~/S3K1NR w - - 0 1");
}

#[test]
fn example_lava_blocks_attacks_except_the_salamanders() {
    // A rook behind lava gives no check ...
    assert!(!at(lava(), "4k3/8/4~3/8/8/8/8/4R1K1 b - - 0 1").in_check(BLACK));
    // ... a Salamander's line runs across it.
    assert!(at(lava(), "4k3/4~3/4S3/8/8/8/8/6K1 b - - 0 1").in_check(BLACK));
}

#[test]

fn example_lava_position_string_keeps_lava_under_a_salamander() {
    let mut pos = at(lava(), "4k3/8/8/8/8/8/~~~~~~~~/S3K1NR w - - 0 1");
    play(&mut pos, "a1a2");
    let reread = at(lava(), &pos.fen());
    assert_eq!(
        reread.hash(),
        pos.hash(),
        "fen {} loses the lava on a2",
        pos.fen()
    );
}

#[test]
fn example_walls_loads_and_its_setup_plays() {
    let mut pos = Position::start(walls());
    let mut perft = Perft::new();
    perft.verify = true;
    assert_eq!(perft.count(&mut pos, 3), 47106);
}

#[test]
fn example_walls_knight_jumps_a_wall_a_rook_cannot_pass() {
    // Walls fill rank 2. Rook a1, Horse (lame knight) d1, king e1, knight g1.
    let mut pos = at(walls(), "4k3/8/8/8/8/8/########/R2HK1N1 w - - 0 1");
    assert_eq!(
        moves_from(&mut pos, "a1"),
        list(&["a1b1", "a1c1"]),
        "the rook may not pass the wall"
    );
    assert_eq!(
        moves_from(&mut pos, "g1"),
        list(&["g1f3", "g1h3"]),
        "the knight jumps it"
    );
    assert_eq!(
        moves_from(&mut pos, "d1"),
        Vec::<String>::new(),
        "the lame Horse is stopped by d2"
    );
    assert_eq!(
        moves_from(&mut pos, "e1"),
        list(&["e1f1"]),
        "nobody lands on a wall"
    );
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/########/R2HK1N1 w - - 0 1");
}

#[test]
fn example_walls_block_lines_of_attack() {
    assert!(!at(walls(), "4k3/8/4#3/8/8/8/8/4R1K1 b - - 0 1").in_check(BLACK));
    assert!(at(walls(), "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1").in_check(BLACK));
    // A knight's check goes over walls.
    assert!(at(walls(), "4k3/3###2/5N2/8/8/8/8/6K1 b - - 0 1").in_check(BLACK));
}

/// How the game ended, if it did: the winner and the ending in words.
fn ending(pos: &mut Position) -> Option<(Option<Side>, String)> {
    pos.outcome()
        .map(|end| (end.winner, end.describe(pos.rules())))
}
