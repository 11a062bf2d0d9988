//! One reader of move texts: `parse_move` and the explanation of an illegal move
//! (`why_illegal`, `suggestions`) both read a text with `read_move_text`, so they can
//! never read it differently. Here: the reading of tricky texts, and for every legal
//! move met in play of every shipped game, its text read back into its parts.

mod common;

use std::sync::Arc;

use common::rules;

use varsand::engine::{MoveText, read_move_text};
use varsand::{Position, Rules, load_rules};

/// A 12 x 12 board, for squares with two-digit ranks.
const WIDE: &str = r#"
game "Wide"
board 12 x 12
players white black
piece King K { moves "K" royal }
piece Rook R { moves "R" }
end { checkmate loss stalemate draw }
setup "k11/12/12/12/12/12/12/12/12/12/12/1R9K w - - 0 1"
"#;

fn squares(rules: &Rules, from: &str, to: &str, promo: Option<char>, rifle: bool) -> MoveText {
    let geo = &rules.geometry();
    MoveText::Squares {
        from: geo.parse_square(from).unwrap(),
        to: geo.parse_square(to).unwrap(),
        promo,
        rifle,
        tag: String::new(),
    }
}

#[test]
fn tricky_texts_read_into_their_parts() {
    let chess = rules("variants/chess.var");
    let wide = load_rules(WIDE).unwrap();
    let monkey = rules("variants/monkey_king.var");
    let sq = |r: &Rules, s: &str| r.geometry().parse_square(s);
    let cases: Vec<(&Arc<Rules>, &str, Option<MoveText>)> = vec![
        (
            &chess,
            "e7e8q",
            Some(squares(&chess, "e7", "e8", Some('q'), false)),
        ),
        (
            &chess,
            "E7E8Q",
            Some(squares(&chess, "e7", "e8", Some('q'), false)),
        ),
        (
            &chess,
            "g1-g2",
            Some(squares(&chess, "g1", "g2", None, false)),
        ),
        (
            &chess,
            " g1 g2 ",
            Some(squares(&chess, "g1", "g2", None, false)),
        ),
        (
            &chess,
            "d4e5!",
            Some(squares(&chess, "d4", "e5", None, true)),
        ),
        (
            &wide,
            "f12xg12",
            Some(squares(&wide, "f12", "g12", None, false)),
        ),
        (
            &wide,
            "a1a12",
            Some(squares(&wide, "a1", "a12", None, false)),
        ),
        (
            &wide,
            "a12a1",
            Some(squares(&wide, "a12", "a1", None, false)),
        ),
        (
            &wide,
            "a10-b1",
            Some(squares(&wide, "a10", "b1", None, false)),
        ),
        (&chess, "swap", Some(MoveText::Swap)),
        (&chess, "pass", Some(MoveText::Pass)),
        (
            &chess,
            "P@c2",
            Some(MoveText::Drop {
                letter: "P".into(),
                square: "c2".into(),
                cell: sq(&chess, "c2"),
            }),
        ),
        (
            &chess,
            "c8off",
            Some(MoveText::Exit {
                square: "c8".into(),
                cell: sq(&chess, "c8"),
            }),
        ),
        (
            &chess,
            "z9off",
            Some(MoveText::Exit {
                square: "z9".into(),
                cell: None,
            }),
        ),
        // Side-board squares are read whole: `c100d` is a square, not `c100` and a
        // promotion to `d`.
        (
            &monkey,
            "b4c100d",
            Some(squares(&monkey, "b4", "c100d", None, false)),
        ),
        (
            &monkey,
            "c100dc101l",
            Some(squares(&monkey, "c100d", "c101l", None, false)),
        ),
        // A `-` or `x` is a separator only after a digit (as `parse_move` always read
        // it): after a square that ends in a letter it is part of the text.
        (&monkey, "c100l-e3", None),
        (&chess, "e2", None),
        (&chess, "e2e4qq", None),
        (&chess, "hello", None),
    ];
    for (rules, text, want) in cases {
        assert_eq!(read_move_text(rules, text), want, "{text}");
    }
}

#[test]
fn parse_move_and_the_explanation_read_the_same_squares() {
    // From b4 to the Cloud square c100d, with a piece on b4: the explanation speaks of
    // c100d (the old reader saw a move to `c100` promoting to `d`), and `parse_move`
    // refuses the same text.
    let rules = rules("variants/monkey_king.var");
    let mut pos = Position::from_fen(rules, "5/5/5/5/1P3/5/5/5|2|2 r - - 0 1 fists=0/0")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(pos.parse_move("b4c100d").is_err());
    let why = pos.why_illegal("b4c100d");
    assert!(why.contains("c100d"), "{why}");
    // The same reading in upper case, and a legal move from b4 is suggested.
    assert_eq!(pos.why_illegal("B4C100D"), why);
    assert!(
        pos.suggestions("b4c100d")
            .iter()
            .all(|m| m.starts_with("b4"))
    );
}

#[test]
fn every_legal_move_text_reads_back_into_its_parts() {
    let mut files: Vec<String> = ["variants", "examples", "tests/move_texts"]
        .iter()
        .flat_map(|d| std::fs::read_dir(format!("{}/{d}", env!("CARGO_MANIFEST_DIR"))).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "var"))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let rules = load_rules(&text).unwrap_or_else(|_| panic!("{file} does not load"));
        let mut pos = Position::start(rules.clone());
        for ply in 0..60usize {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            for &m in &moves {
                let text = pos.move_text(m);
                let parts = pos.move_parts(m);
                assert_eq!(read_move_text(&rules, &text), Some(parts), "{file}: {text}");
                let found = pos.parse_move(&text).expect("a legal move's text");
                assert_eq!(pos.move_text(found), text, "{file}");
                if !text.contains('@') {
                    let upper = pos.parse_move(&text.to_uppercase()).expect("upper case");
                    assert_eq!(pos.move_text(upper), text, "{file}");
                }
            }
            let m = moves[(ply * 7 + 3) % moves.len()];
            pos.make(m);
        }
    }
}

/// A mistyped square (`e2e44`, `g1g13` on 12 ranks) read as a square and a promotion
/// letter used to be explained as a promotion; the answer names the square.
#[test]
fn a_square_past_the_board_is_named_as_such() {
    let mut chess = Position::start(rules("variants/chess.var"));
    assert_eq!(
        chess.why_illegal("e2e44"),
        "`e44` is not a square of this board (files a-h, ranks 1-8)"
    );
    let mut queen = Position::start(rules("variants/monkey_queen.var"));
    assert_eq!(
        queen.why_illegal("g1g13"),
        "`g13` is not a square of this board (files a-l, ranks 1-12)"
    );
    // A real promotion letter is still read as one.
    assert!(!chess.why_illegal("e2e4q").contains("not a square"));
}

/// Moves with the same squares that differ only by their effects (what they leave
/// behind, a height or a counter change) each have a text of their own, with a suffix
/// naming the effects; the text without a suffix is the plain move, or the only move
/// with those squares; a suffix that names no move there is explained.
#[test]
fn moves_told_apart_by_their_effects_have_texts_of_their_own() {
    let leaves = rules("tests/move_texts/leaves.var");
    let mut pos = Position::start(leaves);
    let texts = common::legal_texts_starting(&mut pos, "a1");
    assert_eq!(texts, ["a1b3", "a1b3/B", "a1b3/R"]);
    for text in &texts {
        let m = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&pos.move_text(m), text);
        let lower = pos.parse_move(&text.to_lowercase()).unwrap();
        assert_eq!(lower, m, "{text} in lower case");
    }
    let why = pos.why_illegal("a1b3/Q");
    assert!(why.contains("a1b3/B") && why.contains("/Q"), "{why}");

    let overlaps = rules("tests/move_texts/overlaps.var");
    let mut pos = Position::start(overlaps);
    assert_eq!(
        common::legal_texts_starting(&mut pos, "e1"),
        ["e1d1", "e1e2", "e1e2/grows+1"]
    );
    pos.play("e1e2/grows+1").unwrap();
    assert!(pos.fen().contains("grows=1/0"), "{}", pos.fen());

    // A capture that only the line leaving a piece behind makes: its text has the
    // suffix, and the text without it finds it, being the only move from b1 to b2.
    let tags = load_rules(TAGS).unwrap();
    let mut pos = Position::start(tags);
    assert_eq!(
        common::legal_texts_starting(&mut pos, "b1"),
        ["b1b2/B", "b1c1", "b1c1/B"]
    );
    let m = pos.parse_move("b1b2").unwrap();
    assert_eq!(pos.move_text(m), "b1b2/B");
    // Where two moves have the squares, the text without a suffix is the plain one.
    let m = pos.parse_move("b1c1").unwrap();
    assert_eq!(pos.move_text(m), "b1c1");
}

/// A rook whose quiet steps are plain or leave a baby, and whose captures always do.
const TAGS: &str = r#"
game "Tags"
board 3 x 3
players white black
piece King K { moves "K" royal }
piece Baby B { moves "fW" }
piece Rook R { moves "mW" moves "W" then leave Baby }
end { checkmate loss }
setup "k2/1r1/KR1 w - - 0 1"
"#;
