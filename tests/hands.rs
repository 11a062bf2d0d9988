//! Hands, drops and promotions as shogi and crazyhouse need them: one test per rule,
//! each on a small position string, asserting the legal moves and what a move does.
//! `variants/shogi.var` and `variants/crazyhouse.var` are the games under test.

use std::sync::Arc;

mod common;

use common::rules as rules_from;

use varsand::{Position, Rules};

fn shogi(fen: &str) -> Position {
    at(rules_from("variants/shogi.var"), fen)
}

fn crazyhouse(fen: &str) -> Position {
    at(rules_from("variants/crazyhouse.var"), fen)
}

fn at(rules: Arc<Rules>, fen: &str) -> Position {
    Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Every legal move, as text.
fn moves(pos: &mut Position) -> Vec<String> {
    common::legal_texts(pos)
}

fn moves_starting(pos: &mut Position, prefix: &str) -> Vec<String> {
    common::legal_texts_starting(pos, prefix)
}

fn legal(pos: &mut Position, text: &str) -> bool {
    moves(pos).iter().any(|m| m == text)
}

/// The hand field of the position string (`[...]`).
fn hand(pos: &Position) -> String {
    let fen = pos.fen();
    let open = fen.find('[').expect("a hand");
    fen[open..=fen.find(']').unwrap()].to_string()
}

// ---- captures go to the hand, demoted ------------------------------------------------

#[test]
fn a_captured_piece_goes_to_the_capturers_hand_turned_to_its_side() {
    let mut pos = shogi("4k4/9/9/9/4g4/4R4/9/9/4K4[] w - - 0 1");
    pos.play("e4e5").unwrap();
    assert_eq!(hand(&pos), "[G]", "the gold is sente's now");
    pos.unmake();
    assert_eq!(hand(&pos), "[]", "unmake takes it back");
}

#[test]
fn demotion_on_capture_a_promoted_piece_returns_unpromoted() {
    let mut pos = shogi("4k4/9/9/9/4+r4/4+P4/9/9/4K4[] b - - 0 1");
    pos.play("e5e4").unwrap();
    assert_eq!(hand(&pos), "[p]", "the tokin is a pawn in gote's hand");
    let mut pos = shogi("4k4/9/9/9/4+r4/4R4/9/9/4K4[] w - - 0 1");
    pos.play("e4e5").unwrap();
    assert_eq!(hand(&pos), "[R]", "the dragon is a rook in sente's hand");
}

#[test]
fn a_promoted_pawn_remembers_it_was_a_pawn() {
    let mut pos = crazyhouse("4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1");
    pos.play("b7b8q").unwrap();
    assert!(pos.fen().starts_with("1Q~2k3/"), "{}", pos.fen());
    pos.play("e8d7").unwrap();
    // It moves as a queen...
    assert!(legal(&mut pos, "b8h2"));
    // ...and, captured, goes to the hand as a pawn.
    let mut pos = crazyhouse("3rk3/8/8/8/8/8/8/3Q~K3[] b - - 0 1");
    pos.play("d8d1").unwrap();
    assert_eq!(hand(&pos), "[p]");
    let mut pos = crazyhouse("3rk3/8/8/8/8/8/8/3QK3[] b - - 0 1");
    pos.play("d8d1").unwrap();
    assert_eq!(hand(&pos), "[q]", "a queen from the setup stays a queen");
}

// ---- drop rules --------------------------------------------------------------------

#[test]
fn nifu_no_pawn_drop_on_a_file_with_ones_own_unpromoted_pawn() {
    let mut pos = shogi("4k4/9/9/3+P5/9/9/4P4/9/4K4[P] w - - 0 1");
    let on_e = moves_starting(&mut pos, "P@e");
    assert!(on_e.is_empty(), "{on_e:?}");
    assert!(
        legal(&mut pos, "P@d5"),
        "a tokin on the d file does not count"
    );
    assert!(legal(&mut pos, "P@a5"));
    let why = pos.why_illegal("P@e5");
    assert!(why.contains("no own Pawn on the file"), "{why}");
    // The enemy's pawns do not count either.
    let mut pos = shogi("4k4/9/4p4/9/9/9/9/9/4K4[P] w - - 0 1");
    assert!(legal(&mut pos, "P@e5"));
}

#[test]
fn dead_squares_no_drop_where_the_piece_could_never_move() {
    let mut pos = shogi("4k4/9/9/9/9/9/9/9/4K4[PLN] w - - 0 1");
    for dead in ["P@a9", "L@a9", "N@a9", "N@a8"] {
        assert!(!legal(&mut pos, dead), "{dead}");
    }
    for alive in ["P@a8", "L@a8", "N@a7"] {
        assert!(legal(&mut pos, alive), "{alive}");
    }
    let why = pos.why_illegal("N@a8");
    assert_eq!(why, "a Knight on a8 could never move again");
}

#[test]
fn forced_promotion_where_the_piece_could_never_move_again() {
    let mut pos = shogi("4k4/2P6/9/9/9/9/9/9/4K4[] w - - 0 1");
    assert_eq!(moves_starting(&mut pos, "c8"), ["c8c9+"]);
    let why = pos.why_illegal("c8c9");
    assert!(why.contains("must promote"), "{why}");
    let mut pos = shogi("4k4/9/9/2N6/9/9/9/9/4K4[] w - - 0 1");
    assert_eq!(moves_starting(&mut pos, "c6"), ["c6b8+", "c6d8+"]);
    let mut pos = shogi("4k4/9/9/9/2N6/9/9/9/4K4[] w - - 0 1");
    assert_eq!(
        moves_starting(&mut pos, "c5"),
        ["c5b7", "c5b7+", "c5d7", "c5d7+"],
        "on rank 7 a knight may still move: promotion is optional"
    );
}

#[test]
fn optional_promotion_on_entering_leaving_or_moving_within_the_zone() {
    // Entering: a silver from rank 6 to rank 7.
    let mut pos = shogi("4k4/9/9/2S6/9/9/9/9/4K4[] w - - 0 1");
    assert_eq!(
        moves_starting(&mut pos, "c6"),
        [
            "c6b5", "c6b7", "c6b7+", "c6c7", "c6c7+", "c6d5", "c6d7", "c6d7+"
        ]
    );
    // Leaving and within: from rank 7 every move may promote.
    let mut pos = shogi("4k4/9/2S6/9/9/9/9/9/4K4[] w - - 0 1");
    assert_eq!(
        moves_starting(&mut pos, "c7"),
        [
            "c7b6", "c7b6+", "c7b8", "c7b8+", "c7c8", "c7c8+", "c7d6", "c7d6+", "c7d8", "c7d8+"
        ]
    );
    // Outside the zone, none.
    let mut pos = shogi("4k4/9/9/9/2S6/9/9/9/4K4[] w - - 0 1");
    assert!(!moves(&mut pos).iter().any(|m| m.ends_with('+')));
    // A promotion is written with `+`; without it the piece stays as it is.
    pos = shogi("4k4/9/9/2S6/9/9/9/9/4K4[] w - - 0 1");
    pos.play("c6c7+").unwrap();
    assert!(pos.fen().starts_with("4k4/9/2+S6/"), "{}", pos.fen());
    pos.unmake();
    pos.play("c6c7").unwrap();
    assert!(pos.fen().starts_with("4k4/9/2S6/"), "{}", pos.fen());
}

#[test]
fn drop_zones_per_piece_pawns_not_on_the_first_or_last_rank() {
    let mut pos = crazyhouse("4k3/8/8/8/8/8/8/4K3[PN] w - - 0 1");
    assert!(!legal(&mut pos, "P@a1"));
    assert!(!legal(&mut pos, "P@a8"));
    assert!(legal(&mut pos, "P@a2"));
    assert!(legal(&mut pos, "P@a7"));
    assert!(legal(&mut pos, "N@a1"));
    assert!(legal(&mut pos, "N@a8"));
    // A pawn dropped on its second rank may step twice, as Fairy-Stockfish plays it.
    pos.play("P@a2").unwrap();
    pos.play("e8d8").unwrap();
    assert!(legal(&mut pos, "a2a4"));
}

#[test]
fn a_pawn_drop_may_not_checkmate_but_another_drop_may() {
    // Gote's king on a9 is boxed in by its own knight and pawn; a pawn on a8 would be
    // protected by the gold on b7.
    let mut pos = shogi("kn7/1p7/1G7/9/9/9/9/9/4K4[PG] w - - 0 1");
    assert!(!legal(&mut pos, "P@a8"), "uchifuzume");
    let why = pos.why_illegal("P@a8");
    assert_eq!(why, "a Pawn may not be placed to give checkmate");
    assert!(legal(&mut pos, "G@a8"), "a gold drop may mate");
    pos.play("G@a8").unwrap();
    assert!(pos.legal_moves().is_empty());
    // A pawn drop that checks without mating is allowed.
    let mut pos = shogi("k8/9/1G7/9/9/9/9/9/4K4[P] w - - 0 1");
    assert!(legal(&mut pos, "P@a8"));
}

// ---- position strings and moves in Fairy-Stockfish's notation ------------------------

#[test]
fn position_strings_read_and_write_marks_and_hands() {
    let mut pos = shogi("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1");
    assert_eq!(
        pos.fen(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1"
    );
    for m in ["c3c4", "g7g6", "b2h8+"] {
        pos.play(m).unwrap();
    }
    let fen = pos.fen();
    assert!(
        fen.starts_with("lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[B] b"),
        "{fen}"
    );
    let again = shogi(&fen);
    assert_eq!(again.fen(), fen);
    assert_eq!(again.hash(), pos.hash());
    let pos = crazyhouse("1Q~2k3/8/8/8/8/8/8/4K3[PPn] w - - 0 1");
    assert_eq!(pos.fen(), "1Q~2k3/8/8/8/8/8/8/4K3[PPn] w - - 0 1");
}

#[test]
fn drops_are_written_in_upper_case_for_either_player() {
    let mut pos = crazyhouse("4k3/8/8/8/8/8/8/4K3[p] b - - 0 1");
    assert!(legal(&mut pos, "P@e5"));
    pos.play("p@e5").unwrap();
    assert_eq!(pos.last_move_text().unwrap(), "P@e5");
}

/// Kyoto shogi: every move of a piece but the king turns it over (`+` one way, `-`
/// back, as Fairy-Stockfish writes them); a captured piece returns to the hand as its
/// first face, and is placed from there either face up (`S@b3`, `+S@b3`), which takes
/// the same piece from the hand and gives it back on unmake.
#[test]
fn kyoto_shogi_places_either_face_and_turns_every_piece() {
    let kyoto = rules_from("variants/kyotoshogi.var");
    let mut pos = Position::start(kyoto.clone());
    assert_eq!(moves_starting(&mut pos, "e1"), ["e1e2+"]);
    assert_eq!(moves_starting(&mut pos, "a1"), ["a1a2-", "a1b2-"]);
    assert_eq!(moves_starting(&mut pos, "c1"), ["c1b2", "c1c2", "c1d2"]);
    pos.play("a1a2-").unwrap();
    assert!(
        pos.fen().starts_with("p+nks+l/5/5/L4/1SK+NP"),
        "{}",
        pos.fen()
    );

    // A silver in hand: placed as a silver or as a bishop, from the same hand.
    let mut pos = at(kyoto.clone(), "2k2/5/5/5/2K2[S] w - - 0 1");
    let silver = moves_starting(&mut pos, "S@");
    let bishop = moves_starting(&mut pos, "+S@");
    assert_eq!((silver.len(), bishop.len()), (23, 23));
    let before = pos.fen();
    pos.play("+S@b3").unwrap();
    assert_eq!(pos.fen(), "2k2/5/1+S3/5/2K2[] b - - 0 1");
    pos.unmake();
    assert_eq!(pos.fen(), before);
    // Typed in lower case too, and a bishop with no silver in hand is explained.
    pos.play("+s@b3").unwrap();
    let mut pos = at(kyoto.clone(), "2k2/5/5/5/2K2[s] w - - 0 1");
    assert!(pos.parse_move("+S@b3").is_err());
    let why = pos.why_illegal("+S@b3");
    assert!(why.contains("no Silver in hand"), "{why}");

    // A bishop captured returns to the hand as a silver; the capture turns the
    // capturing bishop back into a silver.
    let mut pos = at(kyoto, "2k2/5/5/1+s3/+S1K2[] w - - 0 1");
    assert!(pos.parse_move("a1b2+").is_err());
    pos.play("a1b2-").unwrap();
    assert_eq!(pos.fen(), "2k2/5/5/1S3/2K2[S] b - - 0 1");
}

/// Tori shogi: a swallow is not dropped on a file that holds two of one's own swallows
/// (`drops if fewer-than 2 own Swallow on-file`); a goose (a promoted swallow) and the
/// enemy's swallows do not count; the refusal is explained.
#[test]
fn tori_shogi_no_third_swallow_on_a_file() {
    let tori = rules_from("variants/torishogi.var");
    let mut pos = at(tori.clone(), "3k3/7/7/7/S6/S6/3K3[S] w - - 0 1");
    assert!(moves_starting(&mut pos, "S@a").is_empty());
    assert!(legal(&mut pos, "S@b2"));
    let why = pos.why_illegal("S@a4");
    assert!(why.contains("fewer than 2 own Swallow"), "{why}");
    let mut pos = at(tori.clone(), "3k3/7/7/7/S6/+S6/3K3[S] w - - 0 1");
    assert_eq!(
        moves_starting(&mut pos, "S@a"),
        ["S@a1", "S@a4", "S@a5", "S@a6"]
    );
    let mut pos = at(tori, "3k3/s6/s6/7/S6/7/3K3[S] w - - 0 1");
    assert!(legal(&mut pos, "S@a2"));
}
