//! Ends and promotions of the classic games built on them: reaching a zone
//! (breakthrough, racing kings), moves that may not give check (racing kings), the
//! bare king (shatranj), promotion only to lost pieces (grand chess) and the makruk
//! pawn's promotion, duple check (spartan) and explosions (atomic), a reply to any
//! piece's arrival (Jeson Mor's reading) and promotion on capture. One test per rule,
//! on small position strings.

use std::sync::Arc;

mod common;

use varsand::perft::Perft;
use varsand::{Position, Rules, load_rules};

fn game(name: &str) -> Arc<Rules> {
    let path = format!("variants/{name}.var");
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    load_rules(&src).unwrap_or_else(|problems| panic!("{path}: {problems:?}"))
}

fn at(name: &str, fen: &str) -> Position {
    Position::from_fen(game(name), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(pos: &mut Position) -> Vec<String> {
    common::legal_texts(pos)
}

fn moves_starting(pos: &mut Position, prefix: &str) -> Vec<String> {
    common::legal_texts_starting(pos, prefix)
}

/// The game's end, as words, with the winner's name (or "draw").
fn end(pos: &mut Position) -> Option<(String, String)> {
    common::ending(pos)
}

// ---- reaching a zone -----------------------------------------------------------------

#[test]
fn reaching_the_zone_ends_the_game_at_once() {
    let mut pos = at("breakthrough", "8/6P1/8/8/8/8/p7/8 w - - 0 1");
    assert_eq!(moves(&mut pos), ["g7f8", "g7g8", "g7h8"]);
    pos.play("g7g8").unwrap();
    assert!(
        pos.legal_moves().is_empty(),
        "no move after the goal is reached"
    );
    assert_eq!(
        end(&mut pos),
        Some(("white".into(), "white's Pawn reached its goal".into()))
    );
    // Perft counts stop there.
    let mut pos = at("breakthrough", "8/6P1/8/8/8/8/p7/8 w - - 0 1");
    assert_eq!(Perft::new().count(&mut pos, 1), 3);
    assert_eq!(Perft::new().count(&mut pos, 2), 0);
}

#[test]
fn racing_kings_black_answers_white_reaching_the_goal() {
    // Black's king can reach the eighth rank at once: the game goes on.
    let mut pos = at("racingkings", "8/k5K1/8/8/8/8/8/8 w - - 0 1");
    pos.play("g7g8").unwrap();
    assert!(end(&mut pos).is_none());
    assert!(
        moves(&mut pos).contains(&"a7b6".to_string()),
        "any move may answer"
    );
    // ...if it gets there too, a draw.
    pos.play("a7a8").unwrap();
    assert_eq!(
        end(&mut pos),
        Some((
            "draw".into(),
            "both players' King reached their goal: a draw".into()
        ))
    );
    // ...if not, white has won.
    let mut pos = at("racingkings", "8/k5K1/8/8/8/8/8/8 w - - 0 1");
    pos.play("g7g8").unwrap();
    pos.play("a7b6").unwrap();
    assert_eq!(end(&mut pos).unwrap().0, "white");
    // Black's king too far: white has won at once.
    let mut pos = at("racingkings", "8/6K1/8/k7/8/8/8/8 w - - 0 1");
    pos.play("g7g8").unwrap();
    assert!(pos.legal_moves().is_empty());
    assert_eq!(end(&mut pos).unwrap().0, "white");
    // Black getting there first wins at once.
    let mut pos = at("racingkings", "8/k7/8/8/8/8/6K1/8 b - - 0 1");
    pos.play("a7a8").unwrap();
    assert!(pos.legal_moves().is_empty());
    assert_eq!(end(&mut pos).unwrap().0, "black");
}

// ---- moves that may not give check ---------------------------------------------------

#[test]
fn a_check_giving_move_is_refused_with_its_reason() {
    let mut pos = at("racingkings", "8/8/8/8/8/8/k7/6KR w - - 0 1");
    let rook = moves_starting(&mut pos, "h1");
    assert!(
        !rook.contains(&"h1h2".to_string()),
        "h1h2 checks along rank 2"
    );
    assert!(rook.contains(&"h1h3".to_string()));
    let why = pos.why_illegal("h1h2");
    assert_eq!(
        why,
        "it would give check, and a move that gives check is illegal in this game"
    );
    assert!(pos.play("h1h2").is_err());
}

// ---- the bare king -------------------------------------------------------------------

#[test]
fn bare_king_loses() {
    // White takes black's last piece and keeps two: black has lost at once.
    let mut pos = at("shatranj", "4k3/8/8/8/8/8/n7/R3K2R w - - 0 1");
    pos.play("a1a2").unwrap();
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        end(&mut pos),
        Some((
            "white".into(),
            "black has nothing left but royal pieces".into()
        ))
    );
}

#[test]
fn bare_king_exception_the_bared_side_may_bare_the_other_at_once() {
    // White bares black but keeps a single rook, which black's king can take.
    let mut pos = at("shatranj", "8/8/8/8/8/1k6/n7/R3K3 w - - 0 1");
    pos.play("a1a2").unwrap();
    assert!(end(&mut pos).is_none(), "black may still answer");
    assert!(moves(&mut pos).contains(&"b3a2".to_string()));
    pos.play("b3a2").unwrap();
    assert!(!pos.is_decided(), "two bare kings: no one has lost");
    // If the bared side cannot take the last piece, it has lost after its move.
    let mut pos = at("shatranj", "7k/8/8/8/8/8/n7/R3K3 w - - 0 1");
    pos.play("a1a2").unwrap();
    assert!(end(&mut pos).is_none());
    pos.play("h8g8").unwrap();
    assert_eq!(end(&mut pos).unwrap().0, "white");
}

// ---- promotions ----------------------------------------------------------------------

#[test]
fn grand_promotion_only_to_lost_pieces() {
    // Every piece still on the board: a pawn may not enter the tenth rank.
    let mut pos = at("grand", "9k/P9/10/10/10/10/10/10/1NBQKCABN1/R8R w - - 0 1");
    assert!(moves_starting(&mut pos, "a9").is_empty());
    // With a rook lost, it must become a rook there.
    let mut pos = at("grand", "9k/P9/10/10/10/10/10/10/1NBQKCABN1/R9 w - - 0 1");
    assert_eq!(moves_starting(&mut pos, "a9"), ["a9a10r"]);
    // On the eighth and ninth ranks it may also stay a pawn.
    let mut pos = at("grand", "9k/10/P9/10/10/10/10/10/1NBQKCABN1/R9 w - - 0 1");
    assert_eq!(moves_starting(&mut pos, "a8"), ["a8a9", "a8a9r"]);
    let mut pos = at("grand", "9k/10/10/P9/10/10/10/10/1NBQK1ABN1/R9 w - - 0 1");
    assert_eq!(moves_starting(&mut pos, "a7"), ["a7a8", "a7a8c", "a7a8r"]);
}

#[test]
fn makruk_pawn_becomes_a_met_on_the_sixth_rank() {
    let mut pos = at("makruk", "4k3/8/8/4P3/8/8/8/4K3 w - - 0 1");
    assert_eq!(moves_starting(&mut pos, "e5"), ["e5e6m"]);
    pos.play("e5e6m").unwrap();
    assert!(pos.fen().starts_with("4k3/8/4M3/"), "{}", pos.fen());
}

// ---- forced capture and running out of pieces (antichess, losers) -------------------

#[test]
fn a_possible_capture_is_the_only_legal_move() {
    // The e5 pawn may take en passant: its step forward is then illegal.
    let mut pos = at("antichess", "4k3/8/8/3pP3/8/8/8/8 w - d6 0 1");
    assert_eq!(moves(&mut pos), ["e5d6"]);
    // Without a capture every move is legal.
    let mut pos = at("antichess", "4k3/8/8/4P3/8/8/8/8 w - - 0 1");
    assert_eq!(moves(&mut pos), ["e5e6"]);
}

#[test]
fn a_non_capture_is_refused_when_a_capture_is_forced() {
    let mut pos = at("antichess", "4k3/8/8/3pP3/8/8/8/8 w - d6 0 1");
    let why = pos.why_illegal("e5e6");
    assert!(
        why.contains("captures are forced") && why.contains("e5d6"),
        "{why}"
    );
}

#[test]
fn forced_capture_counts_only_legal_captures() {
    // Losers: white's king is in check from h1; the rook on a1 cannot take it (the
    // king stands between), and no other capture is legal: every legal move stands.
    let mut pos = at("losers", "4k3/8/8/8/8/8/8/R3K2r w Q - 0 1");
    assert_eq!(moves(&mut pos), ["e1d2", "e1e2", "e1f2"]);
}

#[test]
fn a_player_who_loses_every_piece_wins() {
    let mut pos = at("antichess", "8/8/8/8/8/2p5/1P6/8 w - - 0 1");
    pos.play("b2c3").unwrap();
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        end(&mut pos),
        Some(("black".into(), "black has 0 pieces left".into()))
    );
}

#[test]
fn a_player_without_a_move_wins_in_antichess() {
    // White's pawn is blocked: no legal move, and that wins.
    let mut pos = at("antichess", "8/8/8/8/8/p7/P7/8 w - - 0 1");
    assert!(pos.legal_moves().is_empty());
    assert_eq!(end(&mut pos).map(|e| e.0), Some("white".into()));
}

#[test]
fn losers_bare_king_and_checkmate_win() {
    // White has only the king left: white has won.
    let mut pos = at("losers", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1");
    assert_eq!(
        end(&mut pos),
        Some(("white".into(), "white has 1 pieces left".into()))
    );
    // Checkmated (back rank), white wins.
    let mut pos = at("losers", "4k3/8/8/8/8/8/5PPP/r5K1 w - - 0 1");
    assert!(pos.legal_moves().is_empty());
    assert_eq!(end(&mut pos).map(|e| e.0), Some("white".into()));
}

// ---- checks as events (three-check, check shogi) -------------------------------------

#[test]
fn the_third_check_wins() {
    // White has given two checks; Bb5+ is the third.
    let fen = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 checks=2/0";
    let mut pos = at("3check", fen);
    assert!(end(&mut pos).is_none());
    pos.play("f1b5").unwrap();
    assert!(
        pos.legal_moves().is_empty(),
        "no move after the third check"
    );
    assert_eq!(
        end(&mut pos),
        Some(("white".into(), "white's counter checks reached 3".into()))
    );
}

#[test]
fn a_check_counts_once_and_unmake_takes_it_back() {
    let mut pos = at("3check", "4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
    let before = pos.hash();
    // A quiet move counts nothing; a check counts one for its player.
    pos.play("e1e2").unwrap();
    assert_eq!(pos.counter(varsand::ids::Side::First, 0), 0);
    pos.unmake();
    pos.play("a1a8").unwrap();
    assert_eq!(pos.counter(varsand::ids::Side::First, 0), 1);
    assert_eq!(pos.counter(varsand::ids::Side::Second, 0), 0);
    assert_eq!(pos.hash(), pos.compute_hash());
    pos.unmake();
    assert_eq!(pos.counter(varsand::ids::Side::First, 0), 0);
    assert_eq!(pos.hash(), before);
}

#[test]
fn giving_check_wins_check_shogi() {
    // Any check ends the game, a drop's too.
    let mut pos = at("checkshogi", "4k4/9/9/9/9/9/9/9/4K4[R] w 0 1");
    pos.play("R@e5").unwrap();
    assert_eq!(end(&mut pos).map(|e| e.0), Some("white".into()));
    assert!(pos.legal_moves().is_empty());
}

#[test]
fn in_check_moves_only_when_in_check() {
    // A king that may also leap as a knight, without capturing, when in check.
    let src = r#"
        game "Test"
        board 8 x 8
        players white black
        piece King K { moves "K"  moves "mN" if in-check  royal }
        piece Rook R { moves "R" }
        piece Guard G { moves "mW" unless in-check }
        end { checkmate loss }
        setup "4k3/8/8/8/8/8/8/G3K3 w - - 0 1"
    "#;
    let rules = load_rules(src).unwrap_or_else(|p| panic!("{p:?}"));
    let mut pos = Position::start(rules.clone());
    assert!(!moves(&mut pos).contains(&"e1f3".to_string()));
    assert!(moves(&mut pos).contains(&"a1a2".to_string()));
    let mut pos = Position::from_fen(rules, "4r1k1/8/8/8/8/8/8/G3K3 w - - 0 1").unwrap();
    let legal = moves(&mut pos);
    assert!(legal.contains(&"e1f3".to_string()), "{legal:?}");
    assert!(!legal.iter().any(|m| m.starts_with("a1")), "{legal:?}");
}

#[test]
fn losing_one_of_three_kings_loses() {
    let mut pos = at("threekings", "k3kb1k/8/8/8/8/8/6Q1/K3K2K w - - 0 1");
    pos.play("g2a8").unwrap();
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        end(&mut pos),
        Some(("white".into(), "black has 2 Kings left".into()))
    );
}

// ---- duple check (spartan) -----------------------------------------------------------

#[test]
fn one_of_two_royal_pieces_may_be_left_attacked() {
    // The rook on e1 attacks the king on e8; the king on a8 is safe: black is not in
    // check, and a hoplite may move as if nothing attacked.
    let mut pos = at("spartan", "k3k3/hhh2hhh/8/8/8/8/8/4R1K1 b - - 0 1");
    assert!(!pos.in_check(pos.side_to_move()));
    assert!(moves(&mut pos).contains(&"h7g6".to_string()));
    // A king may step onto an attacked square while the other is safe.
    assert!(moves(&mut pos).contains(&"e8e7".to_string()));
}

#[test]
fn all_royal_pieces_attacked_is_check() {
    let mut pos = at("spartan", "k3k3/1hh2hhh/8/8/8/8/8/R3R1K1 b - - 0 1");
    assert!(pos.in_check(pos.side_to_move()));
    // Every legal move leaves one king safe.
    let legal = moves(&mut pos);
    assert!(!legal.contains(&"h7g6".to_string()));
    assert!(legal.contains(&"a8b8".to_string()));
    assert!(legal.contains(&"e8d8".to_string()));
    assert_eq!(
        pos.why_illegal("h7g6"),
        "it would leave all of black's Kings attacked at once"
    );
}

#[test]
fn all_royal_pieces_attacked_without_a_move_is_checkmate() {
    let mut pos = at("spartan", "k6k/8/8/8/8/8/8/RR2K1RR b - - 0 1");
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        end(&mut pos),
        Some(("white".into(), "black is checkmated".into()))
    );
}

#[test]
fn a_lost_king_may_come_back_by_promotion() {
    let mut pos = at("spartan", "4k3/8/8/8/8/8/1h6/4K3 b - - 0 1");
    assert!(moves_starting(&mut pos, "b2").contains(&"b2a1k".to_string()));
    let mut pos = at("spartan", "k3k3/8/8/8/8/8/1h6/4K3 b - - 0 1");
    assert!(!moves_starting(&mut pos, "b2").contains(&"b2a1k".to_string()));
}

#[test]
fn a_lone_king_is_royal_as_in_chess() {
    // Black has lost a king: the other may not be left attacked.
    let mut pos = at("spartan", "4k3/7h/8/8/8/8/8/4R1K1 b - - 0 1");
    assert!(pos.in_check(pos.side_to_move()));
    assert!(!moves(&mut pos).contains(&"h7g6".to_string()));
}

// ---- explosions (atomic) -------------------------------------------------------------

#[test]
fn a_capture_blows_up_the_pieces_around_but_pawns() {
    let mut pos = at("atomic", "4k3/8/8/2npb3/3q4/8/8/3RK3 w - - 0 1");
    pos.play("d1d4").unwrap();
    // The rook, the queen, the knight and the bishop are gone; the pawn stays.
    assert_eq!(pos.fen(), "4k3/8/8/3p4/8/8/8/4K3 b - - 0 1");
    pos.unmake();
    assert_eq!(pos.fen(), "4k3/8/8/2npb3/3q4/8/8/3RK3 w - - 0 1");
}

#[test]
fn a_royal_piece_may_not_capture() {
    let mut pos = at("atomic", "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1");
    assert!(!moves(&mut pos).contains(&"e1e2".to_string()));
    assert_eq!(
        pos.why_illegal("e1e2"),
        "the explosion would blow up white's own King"
    );
}

#[test]
fn blowing_up_the_enemy_royal_piece_wins_even_in_check() {
    // White is in check from the rook on a1, but taking on d7 blows up the king on e8.
    let mut pos = at("atomic", "4k3/3p4/8/8/8/8/3Q4/r3K3 w - - 0 1");
    assert!(pos.in_check(pos.side_to_move()));
    assert!(moves(&mut pos).contains(&"d2d7".to_string()));
    pos.play("d2d7").unwrap();
    assert_eq!(
        end(&mut pos),
        Some(("white".into(), "black's King was captured".into()))
    );
}

#[test]
fn royal_pieces_side_by_side_do_not_check() {
    // The rook on d1 attacks the black king on d5, but the white king stands next to it.
    let pos = at("atomic", "8/8/8/3kK3/8/8/8/3R4 b - - 0 1");
    assert!(!pos.in_check(pos.side_to_move()));
    // And a king may step next to the enemy king onto an attacked square.
    let mut pos = at("atomic", "8/8/8/8/2k5/8/8/3RK3 b - - 0 1");
    assert!(!moves(&mut pos).contains(&"c4d4".to_string()));
    let mut pos = at("atomic", "8/8/8/8/2k5/4K3/8/3R4 b - - 0 1");
    assert!(moves(&mut pos).contains(&"c4d4".to_string()));
}

#[test]
fn an_exploded_rook_takes_its_castling_right() {
    let mut pos = at("atomic", "r3k2r/8/8/8/8/8/6p1/R3K2R b KQkq - 0 1");
    pos.play("g2h1q").unwrap();
    assert_eq!(pos.fen(), "r3k2r/8/8/8/8/8/8/R3K3 w Qkq - 0 2");
}

// ---- the try (dobutsu shogi) ---------------------------------------------------------

#[test]
fn reaching_the_zone_unattacked_wins() {
    let mut pos = at("dobutsu", "2l/L2/3/3[-] w - - 0 1");
    pos.play("a3a4").unwrap();
    assert_eq!(
        end(&mut pos),
        Some(("white".into(), "white's Lion reached its goal".into()))
    );
}

#[test]
fn reaching_the_zone_attacked_wins_only_once_the_attack_is_gone() {
    // The giraffe on b4 attacks a4: no win yet.
    let mut pos = at("dobutsu", "1gl/L2/3/3[-] w - - 0 1");
    pos.play("a3a4").unwrap();
    assert_eq!(end(&mut pos), None);
    // Black leaves the lion standing: once nothing attacks it, white has won.
    pos.play("b4b3").unwrap();
    assert_eq!(
        end(&mut pos),
        Some(("white".into(), "white's Lion reached its goal".into()))
    );
}

#[test]
fn a_captured_lion_loses() {
    let mut pos = at("dobutsu", "1l1/1L1/3/3[-] w - - 0 1");
    pos.play("b3b4").unwrap();
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        end(&mut pos),
        Some(("white".into(), "black's Lion was captured".into()))
    );
}

// ---- reaching a zone with a reply, any piece -------------------------------------------

/// Knights racing to the centre (Fairy-Stockfish's Jeson Mor reading: its flag move for
/// a piece that is not royal), from rules written here.
fn centre_race(fen: &str) -> Position {
    let src = r#"
game "Centre Race"
board 9 x 9
players white black
zone centre = e5
piece Knight N { image knight  moves "N" }
end {
  reached Knight in centre with-reply win
  no-moves loss
}
setup "nnnnnnnnn/9/9/9/9/9/9/9/NNNNNNNNN w - - 0 1"
"#;
    let rules = load_rules(src).unwrap_or_else(|problems| panic!("{problems:?}"));
    Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn a_piece_in_the_zone_captured_in_the_reply_does_not_win() {
    let mut pos = centre_race("9/9/9/2n6/9/9/3N5/9/N8 w - - 0 1");
    pos.play("d3e5").unwrap();
    assert!(end(&mut pos).is_none(), "the other player answers first");
    assert!(
        moves(&mut pos).contains(&"c6b4".to_string()),
        "any move may answer"
    );
    pos.play("c6e5").unwrap();
    // White's knight is gone: no win. Black's own arrival (by the capture) waits for
    // white's answer in turn.
    assert!(end(&mut pos).is_none());
    assert!(!moves(&mut pos).is_empty());
}

#[test]
fn a_piece_still_in_the_zone_after_the_reply_wins() {
    let mut pos = centre_race("9/9/9/2n6/9/9/3N5/9/9 w - - 0 1");
    pos.play("d3e5").unwrap();
    pos.play("c6b4").unwrap();
    assert_eq!(
        end(&mut pos),
        Some(("white".into(), "white's Knight reached its goal".into()))
    );
    assert!(pos.legal_moves().is_empty());
}

#[test]
fn an_arrival_in_the_reply_wins_if_the_answer_leaves_it_there() {
    // Black takes white's knight in the centre; white cannot take back: black, still
    // there after white's answer, has won (the second player is judged as the first).
    let mut pos = centre_race("9/9/9/2n6/9/9/3N5/9/N8 w - - 0 1");
    pos.play("d3e5").unwrap();
    pos.play("c6e5").unwrap();
    pos.play("a1b3").unwrap();
    assert_eq!(end(&mut pos).unwrap().0, "black");
}

#[test]
fn reaching_the_zone_with_reply_perft_matches_fairy_stockfish() {
    // Counts from Fairy-Stockfish's jesonmor (pyffish 0.0.90).
    for (fen, counts) in [
        ("9/9/9/2n6/9/3N5/9/9/9 w - - 0 1", [8, 56, 384, 1836]),
        (
            "9/9/3n1n3/9/9/3N1N3/9/9/9 w - - 0 1",
            [16, 256, 3712, 43528],
        ),
        ("9/2n6/9/9/9/9/9/5N3/9 b - - 0 1", [6, 36, 192, 1176]),
    ] {
        let mut pos = centre_race(fen);
        let words = varsand::describe::describe(pos.rules());
        assert!(
            words.contains("wins only if such a piece still stands there"),
            "{words}"
        );
        for (depth, n) in (1..).zip(counts) {
            assert_eq!(
                Perft::new().count(&mut pos, depth),
                n,
                "{fen} depth {depth}"
            );
        }
    }
}

// ---- promotion on capture --------------------------------------------------------------

/// Pawns that promote to a queen when (and only when) they capture, from rules written
/// here.
fn capture_promotion(fen: &str) -> Position {
    let src = r#"
game "Capture Promotion"
board 4 x 4
players white black
zone anywhere = all
piece King K { moves "K"  royal }
piece Pawn P { moves "fmW fcF"  promotes on anywhere to Q capturing }
piece Queen Q { moves "Q" }
end { checkmate loss  stalemate draw }
setup "3k/2p1/1P2/K3 w - - 0 1"
"#;
    let rules = load_rules(src).unwrap_or_else(|problems| panic!("{problems:?}"));
    Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn a_capture_promotes_a_quiet_move_does_not() {
    let mut pos = capture_promotion("3k/2p1/1P2/K3 w - - 0 1");
    // The capture must promote (the rule is not optional); the step stays a pawn.
    assert_eq!(moves(&mut pos), ["a1a2", "a1b1", "b2b3", "b2c3q"]);
    pos.play("b2b3").unwrap();
    assert_eq!(pos.fen(), "3k/1Pp1/4/K3 b - - 1 1", "still a pawn");
    // A quiet move onto the last rank stays a pawn too.
    let mut pos = capture_promotion("3k/1P2/4/K3 w - - 0 1");
    assert!(moves(&mut pos).contains(&"b3b4".to_string()));
    assert!(
        !moves(&mut pos)
            .iter()
            .any(|m| m.starts_with("b3b4") && m.len() > 4)
    );
}

#[test]
fn promotion_on_capture_perft_counted_by_hand() {
    // Depth 1: king a2, b1; pawn b3 (quiet, no promotion), bxc3=Q. Depth 2: after
    // Ka2 or Kb1 black has Kc4, Kd3, c2 and cxb2=Q (4 each); after b3 only Kd3 and
    // c2 (c4 is covered by the pawn, nothing to take); after bxc3=Q only Kxc3.
    let mut pos = capture_promotion("3k/2p1/1P2/K3 w - - 0 1");
    let words = varsand::describe::describe(pos.rules());
    assert!(
        words.contains(
            "promotes on reaching anywhere when it captures (not on a quiet move) to Queen"
        ),
        "{words}"
    );
    assert_eq!(Perft::new().count(&mut pos, 1), 4);
    assert_eq!(Perft::new().count(&mut pos, 2), 4 + 4 + 2 + 1);
}
