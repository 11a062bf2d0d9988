//! Gating (`gating in ZONE`), as S-Chess needs it: one test per rule, each on a small
//! position string, asserting the legal moves, what a move does and the position
//! string written after it (Fairy-Stockfish's, from pyffish). `variants/seirawan.var`
//! is the game under test.

mod common;

use varsand::Position;

fn seirawan(fen: &str) -> Position {
    Position::from_fen(common::rules("variants/seirawan.var"), fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn start() -> Position {
    seirawan("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[EHeh] w KQBCDFGkqbcdfg - 0 1")
}

const CASTLES: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[EHeh] w KQkq - 0 1";

/// The position string after `moves`, each played as typed.
fn after(mut pos: Position, moves: &[&str]) -> String {
    for m in moves {
        pos.play(m).unwrap_or_else(|e| panic!("{m}: {}", e.message));
    }
    pos.fen()
}

#[test]
fn a_piece_leaving_its_gate_may_bring_in_each_piece_of_the_hand() {
    let mut pos = start();
    let knight = common::legal_texts_starting(&mut pos, "b1");
    assert_eq!(knight, ["b1a3", "b1a3e", "b1a3h", "b1c3", "b1c3e", "b1c3h"]);
    assert_eq!(pos.legal_moves().len(), 28, "Fairy-Stockfish's count");
}

#[test]
fn the_piece_brought_in_stands_on_the_square_left_and_leaves_the_hand() {
    let fen = after(start(), &["b1c3h", "g8f6e", "e2e4", "b8c6"]);
    assert_eq!(
        fen,
        "r1bqkber/pppppppp/2n2n2/8/4P3/2N5/PPPP1PPP/RHBQKBNR[Eh] w KQCDFGkqcdf - 1 3"
    );
}

#[test]
fn gates_are_gone_once_the_hand_is_empty() {
    let fen = after(start(), &["b1c3h", "g8f6e", "g1f3e"]);
    assert_eq!(
        fen,
        "rnbqkber/pppppppp/5n2/8/8/2N2N2/PPPPPPPP/RHBQKBER[h] b KQkqbcdf - 3 2"
    );
}

#[test]
fn castling_may_bring_a_piece_onto_the_kings_square() {
    let fen = after(seirawan(CASTLES), &["e1g1e"]);
    assert_eq!(
        fen,
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3ERK1[Heh] b Akq - 1 1"
    );
}

#[test]
fn castling_may_bring_a_piece_onto_the_rooks_square_written_from_it() {
    let fen = after(seirawan(CASTLES), &["h1e1h"]);
    assert_eq!(
        fen,
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RKH[Eeh] b Akq - 1 1"
    );
    let fen = after(seirawan(CASTLES), &["e1c1e", "e8g8h", "a2a3"]);
    assert_eq!(
        fen,
        "r3hrk1/pppppppp/8/8/8/P7/1PPPPPPP/2KRE2R[He] b Ha - 0 2"
    );
}

#[test]
fn a_gate_whose_castling_is_gone_is_written_as_its_file() {
    let fen = after(seirawan(CASTLES), &["e1d1", "a8b8"]);
    assert_eq!(
        fen,
        "1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R[EHeh] w AHk - 2 2"
    );
}

#[test]
fn a_gating_move_is_legal_only_if_the_move_alone_is() {
    // The knight on d1 shields its king from the rook on a1: leaving, it may not bring
    // a piece in behind it (the piece brought in shields nothing as it arrives).
    let mut pos = seirawan("4k3/8/8/8/8/8/8/r2NK3[Hh] w D - 0 1");
    assert!(common::legal_texts_starting(&mut pos, "d1").is_empty());
}

#[test]
fn unmake_restores_hand_gates_and_hash() {
    let mut pos = seirawan(CASTLES);
    let before = (pos.fen(), pos.hash());
    for text in ["h1e1h", "e1g1e", "a1b1h", "e1c1h"] {
        pos.play(text).unwrap();
        assert_eq!(pos.hash(), pos.compute_hash(), "{text}");
        pos.unmake();
        assert_eq!((pos.fen(), pos.hash()), before, "{text}");
    }
}
