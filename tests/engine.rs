//! General engine behaviour not tied to one shipped game.

mod common;

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
setup "k3/4/4/A2K b - - 0 1"
"#;

#[test]
fn captures_under_state_conditions_give_check() {
    let rules = load_rules(ARCHERS).unwrap();
    // The unmoved archer on a1 attacks the king on a4.
    let pos = Position::from_fen(Arc::clone(&rules), "k3/4/4/A2K b - - 0 1").unwrap();
    assert!(pos.in_check(varsand::ids::Side::Second));
    // An archer away from its home square has moved: it no longer shoots.
    let pos = Position::from_fen(Arc::clone(&rules), "1k2/4/4/1A1K b - - 0 1").unwrap();
    assert!(!pos.in_check(varsand::ids::Side::Second));
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

/// The legal moves of a position, as sorted texts.
fn sorted_moves(source: &str, fen: &str) -> Vec<String> {
    let rules = load_rules(source).unwrap();
    let mut pos = Position::from_fen(rules, fen).unwrap();
    let mut moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| pos.move_text(*m))
        .collect();
    moves.sort();
    moves
}

fn launcher(betza: &str) -> String {
    format!(
        r#"
board 5 x 5
zone launch = a1
piece King K {{ moves "K" royal }}
piece Slider X {{ moves "{betza}" if from launch }}
setup "4k/5/5/1X3/K4 w - - 0 1"
"#
    )
}

#[test]
fn a_rider_allowed_only_from_a_zone_attacks_only_from_it() {
    // The slider on b2 is outside `launch`, so it attacks nothing: d4 is free.
    for betza in ["B", "pB"] {
        assert_eq!(
            sorted_moves(&launcher(betza), "4k/5/5/1X3/K4 b - - 0 1"),
            ["e5d4", "e5d5", "e5e4"],
            "{betza}"
        );
    }
    // From a1 it does attack along the diagonal.
    assert_eq!(
        sorted_moves(&launcher("B"), "4k/5/5/5/X3K b - - 0 1"),
        ["e5d5", "e5e4"]
    );
}

#[test]
fn every_royal_piece_counts_however_many() {
    // Nine kings on rank 3; the rook on i1 checks the one on i3, which must step
    // aside to h2 (the only square no rook or king guards... and no other king blocks).
    let source = r#"
board 9 x 3
piece King K { moves "K" royal }
piece Rook R { moves "R" }
setup "KKKKKKKKK/9/k7r w - - 0 1"
"#;
    let moves = sorted_moves(source, "KKKKKKKKK/9/8r w - - 0 1");
    assert_eq!(moves, ["i3h2"], "{moves:?}");
}

#[test]
fn rules_summary_says_what_repetition_and_move_limits_do() {
    let source = r#"
board 3 x 3
piece King K { moves "K" royal }
end { checkmate loss  repetition 3 loss  move-limit 50 win }
setup "k2/3/2K w - - 0 1"
"#;
    let text = varsand::describe::describe(&load_rules(source).unwrap());
    assert!(
        text.contains("the same position 3 times loses for the player to move"),
        "{text}"
    );
    assert!(
        text.contains("50 moves each without capture or progress wins for the player to move"),
        "{text}"
    );
}

#[test]
fn rules_summary_says_a_capture_without_moving_removes_a_piece_and_spends_a_counter() {
    // The Sling never captures by moving; its `stay` capture removes an adjacent enemy
    // piece while it stays, spending a shot. The summary must not read it as a capture.
    let source = r#"
board 4 x 4
counter shots
piece King K { moves "K" royal }
piece Sling S {
  moves "mK"
  moves "cK" if counter shots > 0 then stay, counter shots -1
}
end { checkmate loss }
setup "k3/4/4/S2K w - - 0 1 shots=2/0"
"#;
    let text = varsand::describe::describe(&load_rules(source).unwrap());
    let sling: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("Sling"))
        .skip(1)
        .take(2)
        .collect();
    assert_eq!(
        sling[0].trim(),
        "moves without capturing one step orthogonally, or one step diagonally",
        "{text}"
    );
    assert!(
        sling[1]
            .trim()
            .starts_with("without moving, removes an enemy piece one step orthogonally, or one step diagonally away"),
        "{text}"
    );
    assert!(
        sling[1].contains("spends 1 from the player's shots counter"),
        "{text}"
    );
    assert!(!sling[1].contains("captures"), "{text}");
    assert!(!text.contains("changes by"), "{text}");
}

#[test]
fn repetition_compares_counters_exactly() {
    // Each rook move adds 64 to the mover's counter: the board repeats, the counters
    // (0, 64, 128) do not, so no position occurs twice.
    let source = r#"
board 4 x 4
counter c
piece King K { moves "K" royal }
piece Rook R { moves "R" then counter c 64 }
end { checkmate loss  repetition 3 draw }
setup "3k/4/4/R2K w - - 0 1 c=0/0"
"#;
    let rules = load_rules(source).unwrap();
    let mut pos = Position::start(rules);
    for mv in ["a1a2", "d4c4", "a2a1", "c4d4"].iter().cycle().take(12) {
        pos.play(mv).unwrap();
        assert_eq!(pos.repetitions(), 1, "{}", pos.fen());
    }
    assert!(pos.fen().ends_with("c=384/0"), "{}", pos.fen());
    assert!(pos.outcome().is_none());
}

const PASSING: &str = r#"
game "Passing"
board 3 x 3
players white black
counter skips
piece King K { moves "K" royal }
piece Rook R { moves "R" }
pass
end { checkmate loss stalemate draw }
setup "k2/3/2K w - - 0 1"
"#;

#[test]
fn a_pass_flips_the_side_and_keeps_the_board() {
    let rules = load_rules(PASSING).unwrap();
    let fen = "k2/3/2K w - - 3 1";
    let mut pos = Position::from_fen(rules, fen).unwrap();
    let pass = pos
        .legal_moves()
        .into_iter()
        .find(|m| pos.move_text(*m) == "c1c1")
        .expect("a pass, written as the king's null move, is a legal move");
    let (board, hash) = (pos.board().to_vec(), pos.hash());
    pos.make(pass);
    assert_eq!(pos.side_to_move(), varsand::ids::Side::Second);
    assert_eq!(pos.halfmove_clock(), 4);
    assert_eq!(pos.board(), board.as_slice());
    assert_ne!(pos.hash(), hash);
    assert_eq!(pos.hash(), pos.compute_hash());
    assert!(
        pos.legal_moves()
            .iter()
            .any(|m| pos.move_text(*m) == "a3a3")
    );
    pos.unmake();
    assert_eq!(
        pos.fen(),
        Position::from_fen(pos.rules().clone(), fen).unwrap().fen()
    );
    assert_eq!(pos.hash(), hash);
    // A side in check may not pass.
    assert!(!sorted_moves(PASSING, "k2/3/R1K b - - 0 1").contains(&"a3a3".to_string()));
    // `pass` is read too.
    assert_eq!(pos.parse_move("pass"), Ok(pass));
}

#[test]
fn a_pass_under_a_counter_condition() {
    let source = PASSING.replace("\npass\n", "\npass if counter skips > 0\n");
    assert_eq!(
        sorted_moves(&source, "k2/3/2K w - - 0 1 skips=1/0"),
        ["c1b1", "c1c1", "c1c2"]
    );
    assert_eq!(
        sorted_moves(&source, "k2/3/2K w - - 0 1 skips=0/1"),
        ["c1b1", "c1c2"]
    );
    // Two passes whose conditions both hold still give one `pass`.
    let twice = PASSING.replace("\npass\n", "\npass\npass if counter skips > 0\n");
    assert_eq!(
        sorted_moves(&twice, "k2/3/2K w - - 0 1 skips=1/0"),
        ["c1b1", "c1c1", "c1c2"]
    );
}

#[test]
fn counters_stay_within_their_range() {
    // Each rook move adds 2: from 999,999 it would pass 1,000,000, so the rook may not
    // move, and the position string of every reachable position reads back.
    let source = r#"
board 4 x 4
counter c
piece King K { moves "K" royal }
piece Rook R { moves "R" then counter c 2 }
end { checkmate loss  stalemate draw }
setup "3k/4/4/R2K w - - 0 1 c=0/0"
"#;
    let moves = sorted_moves(source, "3k/4/4/R2K w - - 0 1 c=999999/0");
    assert!(moves.iter().all(|m| m.starts_with('d')), "{moves:?}");
    assert!(sorted_moves(source, "3k/4/4/R2K w - - 0 1 c=999998/0").contains(&"a1a2".to_string()));
    let too_big = source.replace("counter c 2", "counter c 1000001");
    let problems = load_rules(&too_big).unwrap_err();
    assert_eq!(problems[0].code, "varsand::counter-change");
}

#[test]
fn the_evaluation_sees_every_target_however_many() {
    // Nine black royal pieces: the ninth in board order (on l3 or i3) is the nearest
    // one to the white rook on l2, and the evaluation must see it.
    let source = r#"
board 12 x 3
piece King K { moves "K" royal }
piece Rook R { moves "R" }
end { checkmate loss  stalemate draw }
setup "kkkkkkkk3k/11R/K11 b - - 0 1"
"#;
    let rules = load_rules(source).unwrap();
    let eval = varsand::search::Eval::new(&rules);
    let at = |fen: &str| eval.evaluate(&Position::from_fen(Arc::clone(&rules), fen).unwrap());
    let near = at("kkkkkkkk3k/11R/K11 w - - 0 1");
    let farther = at("kkkkkkkkk3/11R/K11 w - - 0 1");
    assert!(near > farther, "{near} should be above {farther}");
}

/// Leapers, riders and hoppers under conditions on the piece taken or jumped attack
/// only where they could really capture: such a piece gives check only if its
/// conditions allow taking the king, and a royal piece crossing squares (castling) is
/// attacked there only by captures that could take it.
#[test]
fn attacks_follow_conditions_on_the_piece_taken_and_jumped() {
    let source = r#"
board 8 x 8
piece King K { moves "K" royal }
piece Rook R { moves "R" }
piece Hunter H { moves "N" if captures Queen }
piece Regicide G { moves "N" if captures King }
piece Queen Q { moves "mQ" }
piece Lancer L { moves "mRcpR" if not over Rook }
piece Blocker B { moves "mW" }
castle white K e1-g1 with h1-f1
end { checkmate loss stalemate draw }
setup "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
"#;
    let rules = load_rules(source).unwrap();
    let at = |fen: &str| Position::from_fen(rules.clone(), fen).unwrap();
    // The knight that takes only queens gives no check; the one that takes only kings
    // does.
    assert!(!at("4k3/8/8/8/8/3h4/8/4K3 w - - 0 1").in_check(varsand::ids::Side::First));
    assert!(at("4k3/8/8/8/8/3g4/8/4K3 w - - 0 1").in_check(varsand::ids::Side::First));
    // The cannon-like piece checks over a blocker, not over a rook.
    assert!(at("4k3/4l3/8/8/4B3/8/8/4K3 w - - 0 1").in_check(varsand::ids::Side::First));
    assert!(!at("4k3/4l3/8/8/4R3/8/8/4K3 w - - 0 1").in_check(varsand::ids::Side::First));
    // Castling: f1 is reached by the king-taking knight on e3, not by the queen-taker.
    let castles = |fen: &str| {
        let mut pos = at(fen);
        let moves = pos.legal_moves();
        moves.iter().any(|&m| pos.move_text(m) == "e1g1")
    };
    assert!(castles("4k3/8/8/8/8/4h3/8/4K2R w K - 0 1"));
    assert!(!castles("4k3/8/8/8/8/4g3/8/4K2R w K - 0 1"));
}

/// The summary speaks the file's language: a flight names the zone or the boards the
/// file named (not "the 42 squares flight 3 lands on"), the squares lowering named are
/// not listed as zones, and a zone given to one player only lists that player alone.
#[test]
fn rules_summary_names_flights_by_the_files_zones_and_boards() {
    let text = varsand::describe::describe(&common::variant("monkey_king"));
    assert!(
        text.contains("flies to an empty square of board cloud101, never capturing; needs to start in zone red_magic"),
        "{text}"
    );
    assert!(
        text.contains(
            "flies to an empty square of boards earth and cloud101, of the colour it stands on"
        ),
        "{text}"
    );
    assert!(!text.contains("lands on"), "{text}");
    let zones: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "Zones:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert!(
        zones.contains(&"  far_rank: red a8 b8 c8 d8 e8"),
        "{zones:?}"
    );
    assert!(
        zones
            .iter()
            .all(|z| !z.starts_with("  b4 d4") && !z.starts_with("  c10")),
        "no zone lowering made: {zones:?}"
    );
}

// ---- two-part moves (amazons, duck chess) ---------------------------------------------

#[test]
fn an_amazon_shoots_an_arrow_from_where_it_landed() {
    let rules = common::variant("amazons");
    // One amazon in a corner, walled in by arrows but for its file.
    let mut pos = Position::from_fen(rules, "9q/10/10/10/10/10/10/1*8/Q*8/**8 w - - 0 1").unwrap();
    let moves = common::legal_texts(&mut pos);
    assert!(
        moves
            .iter()
            .all(|m| m.starts_with("a2a") && m.contains(','))
    );
    // The square just left counts as empty: the arrow may go back to a2.
    assert!(moves.contains(&"a2a10,a10a2".to_string()), "{moves:?}");
    // Arrows block: none goes beyond the amazon's own line where an arrow stands.
    assert!(!moves.iter().any(|m| m.ends_with("a1")));
    pos.play("a2a10,a10a2").unwrap();
    assert_eq!(
        pos.terrain_at(pos.rules().geometry.parse_square("a2").unwrap()),
        Some(0)
    );
    // A move typed without its arrow is explained.
    pos.play("j10j9,j9j10").unwrap();
    let why = pos.why_illegal("a10a9");
    assert!(why.contains("second part"), "{why}");
    let why = pos.why_illegal("a10a9,a9a10");
    assert!(why.contains("may not be put on a10"), "{why}");
}

#[test]
fn the_duck_moves_to_another_empty_square() {
    let rules = common::variant("duck");
    let mut pos = Position::start(rules);
    // No duck yet: placed on any of the 32 empty squares but the pawn's landing, the
    // square it left included.
    assert_eq!(common::legal_texts_starting(&mut pos, "e2e4,").len(), 32);
    pos.play("e2e4,e4e5").unwrap();
    let duck =
        |pos: &Position, sq: &str| pos.terrain_at(pos.rules().geometry.parse_square(sq).unwrap());
    assert_eq!(duck(&pos, "e5"), Some(0));
    // The duck blocks the pawn, and must move: never back onto e5.
    let replies = common::legal_texts(&mut pos);
    assert!(
        !replies
            .iter()
            .any(|m| m.starts_with("e7e5") || m.ends_with("e5"))
    );
    pos.play("d7d5,d5e6").unwrap();
    assert_eq!(duck(&pos, "e5"), None);
    assert_eq!(duck(&pos, "e6"), Some(0));
    // No check: the king may step where it is attacked, and taking it wins.
    let mut pos =
        Position::from_fen(common::variant("duck"), "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1").unwrap();
    assert!(
        common::legal_texts(&mut pos)
            .iter()
            .any(|m| m.starts_with("e1f2"))
    );
    pos.play("e1d1,d1h8").unwrap();
    pos.play("d2d1,d1a8").unwrap();
    assert!(pos.outcome().is_some());
}

/// `has_legal_moves` completes each first part alone and stops at the first legal
/// move: it agrees with the list in a walled-in position (no move), in one with a
/// single move (the amazon steps and its arrow goes back where it stood), and in the
/// start positions.
#[test]
fn whether_a_two_part_move_exists_agrees_with_the_list() {
    let amazons = common::variant("amazons");
    for (fen, count) in [
        // a1 walled in by arrows: no move.
        ("9q/10/10/10/10/10/10/10/**8/Q*8 w - - 0 1", 0),
        // Only b1 is free: a1b1, and the arrow back to a1.
        ("9q/10/10/10/10/10/10/10/***7/Q1*7 w - - 0 1", 1),
    ] {
        let mut pos = Position::from_fen(amazons.clone(), fen).unwrap();
        assert_eq!(pos.legal_moves().len(), count, "{fen}");
        assert_eq!(pos.has_legal_moves(), count > 0, "{fen}");
    }
    for game in ["amazons", "duck"] {
        let mut pos = Position::start(common::variant(game));
        assert!(
            pos.has_legal_moves() && !pos.legal_moves().is_empty(),
            "{game}"
        );
    }
}

#[test]
fn a_two_part_move_is_undone_whole() {
    for (game, moves) in [
        ("amazons", ["d1d4,d4g7", "a7a5,a5a6"]),
        ("duck", ["e2e4,e4e5", "d7d5,d5h3"]),
    ] {
        let mut pos = Position::start(common::variant(game));
        let start = (pos.fen(), pos.hash());
        for m in moves {
            pos.play(m).unwrap();
            assert_eq!(pos.hash(), pos.compute_hash());
            assert_eq!(pos.last_move_text().as_deref(), Some(m));
        }
        pos.unmake();
        pos.unmake();
        assert_eq!((pos.fen(), pos.hash()), start, "{game}");
    }
}

/// A toy game for `becomes`, `moves in-place`, counts on the board, `checking` and
/// `attacking`: a squire turns into a knight by capturing, or into a rook where it
/// stands while its player has fewer than two rooks, unless the rook would attack.
const SQUIRES: &str = r#"
game "Squires"
board 5 x 5
players white black
piece King K { moves "K" royal }
piece Rook R { moves "R" }
piece Knight N { moves "N" }
piece Squire Q {
  moves "mW"
  moves "cF" then becomes Knight
  moves in-place if fewer-than 2 own Rook unless attacking then becomes Rook
  moves "mK" if no enemy Knight unless checking then becomes Knight
}
end { checkmate loss stalemate draw }
setup "k4/5/5/5/Q3K w - - 0 1"
"#;

#[test]
fn becomes_turns_the_piece_into_another_where_it_lands() {
    // The capture turns the squire into a knight: written with the knight's letter.
    let moves = sorted_moves(SQUIRES, "k4/5/1r3/Q4/4K w - - 0 1");
    assert!(moves.contains(&"a2b3n".to_string()), "{moves:?}");
    assert!(!moves.contains(&"a2b3".to_string()), "{moves:?}");
}

#[test]
fn a_move_in_place_turns_the_piece_and_is_undone() {
    let rules = load_rules(SQUIRES).unwrap();
    let fen = "1k3/5/5/5/Q3K w - - 0 1";
    let mut pos = Position::from_fen(rules, fen).unwrap();
    let before = pos.fen();
    pos.play("a1a1r").unwrap();
    assert_eq!(pos.fen(), "1k3/5/5/5/R3K b - - 1 1");
    pos.unmake();
    assert_eq!(pos.fen(), before);
}

#[test]
fn counts_on_the_board_allow_a_move_below_the_limit() {
    // One rook: fewer than two, the squire may still become one.
    // (The black king stands off the a-file, where the new rook would attack it.)
    let one = sorted_moves(SQUIRES, "1k3/5/5/3R1/Q3K w - - 0 1");
    assert!(one.contains(&"a1a1r".to_string()), "{one:?}");
    let two = sorted_moves(SQUIRES, "1k3/5/4R/3R1/Q3K w - - 0 1");
    assert!(!two.contains(&"a1a1r".to_string()), "{two:?}");
    // An enemy knight on the board forbids the knight's promotion step.
    let knight = sorted_moves(SQUIRES, "k3n/5/5/5/Q3K w - - 0 1");
    assert!(knight.iter().all(|m| !m.ends_with('n')), "{knight:?}");
}

#[test]
fn unless_attacking_refuses_a_piece_that_would_attack_where_it_stands() {
    // A rook on a1 would attack the enemy rook on a4.
    let moves = sorted_moves(SQUIRES, "k4/r4/5/5/Q3K w - - 0 1");
    assert!(!moves.contains(&"a1a1r".to_string()), "{moves:?}");
    assert!(moves.contains(&"a1a2".to_string()), "{moves:?}");
}

#[test]
fn unless_checking_refuses_a_check_by_discovery() {
    // The squire on b3 shields the king on e3 from the rook on a3: as a knight it may
    // step only along rank 3 (to c3), though its plain steps off the rank stay legal.
    let moves = sorted_moves(SQUIRES, "5/5/RQ2k/5/4K w - - 0 1");
    let promotions: Vec<&String> = moves.iter().filter(|m| m.ends_with('n')).collect();
    assert!(
        promotions.iter().all(|m| m.ends_with("3n")),
        "off rank 3 the rook checks: {moves:?}"
    );
    assert!(!promotions.is_empty(), "{moves:?}");
    assert!(moves.contains(&"b3b4".to_string()), "{moves:?}");
}

#[test]
fn rules_summary_says_what_in_place_moves_and_becomes_do() {
    let rules = load_rules(SQUIRES).unwrap();
    let text = varsand::describe::describe(&rules);
    assert!(text.contains("stays on its square"), "{text}");
    assert!(text.contains("turns into a Rook"), "{text}");
    assert!(
        text.contains("fewer than 2 own Rook on the board"),
        "{text}"
    );
    assert!(text.contains("not to give check"), "{text}");
    assert!(
        text.contains("to attack no enemy piece from where it lands"),
        "{text}"
    );
}
