//! Monkey Queen, rule by rule (docs/rules/monkey_queen.md; seeds 001 and 003).
//!
//! Each test sets up a small position by hand on the 12x12 board (files a-l, ranks
//! 1-12, rank 12 written first) and checks one rule, with exact sorted move lists
//! where that is practical. Squared straight-line distances are worked out in the
//! tests themselves where the baby rule depends on them.

use std::sync::Arc;

use varsand::check::Overrides;
use varsand::ids::Side;
use varsand::loader;
use varsand::perft::Perft;
use varsand::rules::{Cell, Code, EMPTY, EndRule, Outcome, code};
use varsand::{Position, Rules};

const WHITE: Side = Side::First;
const BLACK: Side = Side::Second;

fn source() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/variants/monkey_queen.var"
    ))
    .expect("variants/monkey_queen.var")
}

fn rules_with(set: &[(&str, i64)]) -> Arc<Rules> {
    let mut overrides = Overrides::new();
    for &(k, v) in set {
        overrides.insert(k.to_string(), v);
    }
    Arc::new(loader::load(&source(), &overrides).unwrap_or_else(|e| panic!("load: {e:?}")))
}

fn rules() -> Arc<Rules> {
    rules_with(&[])
}

fn queen(r: &Rules, side: Side) -> Code {
    code(r.kind_by_letter('Q').expect("a Queen"), side)
}

fn baby(r: &Rules, side: Side) -> Code {
    code(r.kind_by_letter('B').expect("a Baby"), side)
}

fn sq(r: &Rules, name: &str) -> Cell {
    r.geometry()
        .parse_square(name)
        .unwrap_or_else(|| panic!("`{name}` is not a square"))
}

/// A position string with `pieces` (square, letter with an optional `(height)`) on an
/// otherwise empty 12x12 board, `side` ("w" or "b") to move, move 1. Checked to read
/// back to itself, so the string below is exactly what the engine sees.
fn fen_with(pieces: &[(&str, &str)], side: &str) -> String {
    let mut grid = vec![vec![String::new(); 12]; 12];
    for &(square, piece) in pieces {
        let file = (square.as_bytes()[0] - b'a') as usize;
        let rank: usize = square[1..].parse().unwrap();
        assert!(grid[rank - 1][file].is_empty(), "{square} given twice");
        grid[rank - 1][file] = piece.to_string();
    }
    let mut ranks = Vec::new();
    for row in grid.iter().rev() {
        let mut s = String::new();
        let mut empty = 0;
        for p in row {
            if p.is_empty() {
                empty += 1;
            } else {
                if empty > 0 {
                    s += &empty.to_string();
                    empty = 0;
                }
                s += p;
            }
        }
        if empty > 0 {
            s += &empty.to_string();
        }
        ranks.push(s);
    }
    format!("{} {side} - - 0 1", ranks.join("/"))
}

fn position(r: &Arc<Rules>, pieces: &[(&str, &str)], side: &str) -> Position {
    let fen = fen_with(pieces, side);
    let pos = Position::from_fen(r.clone(), &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(pos.fen(), fen, "the position string reads back to itself");
    assert_eq!(pos.hash(), pos.compute_hash());
    pos
}

/// Every legal move, as text, sorted.
fn moves(pos: &mut Position) -> Vec<String> {
    let list = pos.legal_moves();
    let mut out: Vec<String> = list.iter().map(|&m| pos.move_text(m)).collect();
    out.sort();
    out
}

/// The legal moves of the piece on `from`, as text, sorted.
fn moves_from(pos: &mut Position, from: &str) -> Vec<String> {
    let cell = sq(pos.rules(), from);
    let list = pos.legal_moves();
    let mut out: Vec<String> = list
        .iter()
        .filter(|m| m.from == cell)
        .map(|&m| pos.move_text(m))
        .collect();
    out.sort();
    out
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(std::string::ToString::to_string).collect();
    v.sort();
    v
}

/// Squared straight-line distance between two square centres.
fn d2(a: &str, b: &str) -> i64 {
    let xy = |s: &str| {
        (
            i64::from(s.as_bytes()[0] - b'a'),
            s[1..].parse::<i64>().unwrap() - 1,
        )
    };
    let ((ax, ay), (bx, by)) = (xy(a), xy(b));
    (ax - bx).pow(2) + (ay - by).pow(2)
}

fn piece(pos: &Position, square: &str) -> (Code, u8) {
    let c = sq(pos.rules(), square);
    (pos.piece_at(c), pos.height_at(c))
}

/// Plays `text`, checking the incremental hash against a full recomputation.
fn play(pos: &mut Position, text: &str) {
    pos.play(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", pos.fen()));
    assert_eq!(pos.hash(), pos.compute_hash(), "hash after {text}");
}

fn has_swap(pos: &mut Position) -> bool {
    moves(pos).iter().any(|m| m == "swap")
}

// ---- the start -----------------------------------------------------------------

#[test]
fn start_position_has_queens_of_twenty_on_g1_and_f12_and_white_has_33_moves() {
    let r = rules();
    let mut pos = Position::start(r.clone());
    assert_eq!(
        pos.fen(),
        "5q(20)6/12/12/12/12/12/12/12/12/12/12/6Q(20)5 w - - 0 1"
    );
    assert_eq!(piece(&pos, "g1"), (queen(&r, WHITE), 20));
    assert_eq!(piece(&pos, "f12"), (queen(&r, BLACK), 20));
    assert_eq!(pos.side_to_move(), WHITE, "Ivory (white) moves first");
    assert!(!pos.swapped());
    assert_eq!(pos.outcome(), None);
    // g1 = (file 6, rank 0): 6 squares left, 5 right, 11 up, 6 up-left, 5 up-right.
    let expected = sorted(&[
        "g1a1", "g1b1", "g1c1", "g1d1", "g1e1", "g1f1", // left
        "g1h1", "g1i1", "g1j1", "g1k1", "g1l1", // right
        "g1g2", "g1g3", "g1g4", "g1g5", "g1g6", "g1g7", "g1g8", "g1g9", "g1g10", "g1g11",
        "g1g12", // up
        "g1f2", "g1e3", "g1d4", "g1c5", "g1b6", "g1a7", // up-left
        "g1h2", "g1i3", "g1j4", "g1k5", "g1l6", // up-right
    ]);
    assert_eq!(expected.len(), 33);
    assert_eq!(moves(&mut pos), expected);
    assert_eq!(Perft::new().count(&mut pos, 1), 33);
}

// ---- queens --------------------------------------------------------------------

#[test]
fn queen_non_capture_leaves_a_baby_and_shrinks() {
    let r = rules();
    let mut pos = Position::start(r.clone());
    let (fen, hash) = (pos.fen(), pos.hash());
    play(&mut pos, "g1g5");
    assert_eq!(
        piece(&pos, "g1"),
        (baby(&r, WHITE), 1),
        "a baby is born on g1"
    );
    assert_eq!(
        piece(&pos, "g5"),
        (queen(&r, WHITE), 19),
        "the queen is one lower"
    );
    assert_eq!(
        pos.fen(),
        "5q(20)6/12/12/12/12/12/12/6Q(19)5/12/12/12/6B5 b - - 1 1"
    );
    assert_eq!(pos.side_to_move(), BLACK);
    assert_eq!(pos.hash(), pos.compute_hash());
    pos.unmake();
    assert_eq!((pos.fen(), pos.hash()), (fen, hash), "unmake restores");
    assert_eq!(pos.hash(), pos.compute_hash());
    assert_eq!(piece(&pos, "g1"), (queen(&r, WHITE), 20));
    assert_eq!(piece(&pos, "g5"), (EMPTY, 0));
}

#[test]
fn queen_of_height_three_gives_birth_and_becomes_two() {
    let r = rules();
    let mut pos = position(&r, &[("a1", "Q(3)"), ("l7", "q(20)")], "w");
    play(&mut pos, "a1a2");
    assert_eq!(piece(&pos, "a1"), (baby(&r, WHITE), 1));
    assert_eq!(piece(&pos, "a2"), (queen(&r, WHITE), 2));
}

#[test]
fn queen_capture_keeps_height_and_leaves_nothing() {
    let r = rules();
    // White queen of 5 on d4; a black baby on d8; the black queen out of its lines.
    let mut pos = position(&r, &[("d4", "Q(5)"), ("d8", "b"), ("k12", "q(20)")], "w");
    let (fen, hash) = (pos.fen(), pos.hash());
    play(&mut pos, "d4d8");
    assert_eq!(
        piece(&pos, "d4"),
        (EMPTY, 0),
        "a capture leaves no baby behind"
    );
    assert_eq!(
        piece(&pos, "d8"),
        (queen(&r, WHITE), 5),
        "and keeps the height"
    );
    assert_eq!(pos.outcome(), None, "a baby is not the queen");
    pos.unmake();
    assert_eq!((pos.fen(), pos.hash()), (fen, hash));
    assert_eq!(piece(&pos, "d8"), (baby(&r, BLACK), 1));
}

#[test]
fn queen_of_height_two_may_only_capture() {
    let r = rules();
    // Q(2) on a1 sees black babies on a5 (file), d4 (diagonal) and h1 (rank); the
    // black queen on l7 is on none of its lines.
    let mut pos = position(
        &r,
        &[
            ("a1", "Q(2)"),
            ("a5", "b"),
            ("d4", "b"),
            ("h1", "b"),
            ("l7", "q(20)"),
        ],
        "w",
    );
    assert_eq!(moves(&mut pos), sorted(&["a1a5", "a1d4", "a1h1"]));
    play(&mut pos, "a1d4");
    assert_eq!(piece(&pos, "a1"), (EMPTY, 0));
    assert_eq!(piece(&pos, "d4"), (queen(&r, WHITE), 2));
}

#[test]
fn queen_of_height_two_with_no_capture_has_no_move() {
    let r = rules();
    // Q(2) on a1: its only enemy in line, the black baby on a6, is screened by its
    // own baby on a3, so the queen has nothing to do; the baby has moves.
    let mut pos = position(
        &r,
        &[("a1", "Q(2)"), ("a3", "B"), ("a6", "b"), ("l7", "q(20)")],
        "w",
    );
    assert_eq!(moves_from(&mut pos, "a1"), Vec::<String>::new());
    let all = moves(&mut pos);
    assert!(!all.is_empty());
    assert!(all.iter().all(|m| m.starts_with("a3")), "{all:?}");
    assert!(all.contains(&"a3a6".to_string()), "the baby may capture");
    assert_eq!(pos.outcome(), None, "white still has a move");
}

#[test]
fn queen_may_move_into_attack_there_is_no_check_rule() {
    let r = rules();
    // The black baby on c8 attacks the c file, rank 8 and its diagonals (a6, j1); the
    // black queen on l12 attacks k11. The white queen may still go to any of them.
    let mut pos = position(&r, &[("a1", "Q(20)"), ("c8", "b"), ("l12", "q(20)")], "w");
    let all = moves(&mut pos);
    for m in ["a1c1", "a1c3", "a1a6", "a1a8", "a1j1", "a1k11"] {
        assert!(all.contains(&m.to_string()), "{m} missing from {all:?}");
        play(&mut pos, m);
        assert!(
            pos.attacked(sq(&r, &m[2..]), BLACK),
            "{m}: the queen stands attacked"
        );
        assert_eq!(pos.outcome(), None);
        pos.unmake();
    }
    assert!(
        all.contains(&"a1l12".to_string()),
        "the queen may take the queen"
    );
}

#[test]
fn capture_is_never_compulsory() {
    let r = rules();
    let mut pos = position(&r, &[("a1", "Q(5)"), ("a5", "b"), ("l7", "q(20)")], "w");
    let all = moves(&mut pos);
    assert!(all.contains(&"a1a5".to_string()));
    assert!(all.contains(&"a1a2".to_string()), "non-captures stay legal");
    assert!(all.contains(&"a1b1".to_string()));
}

// ---- babies --------------------------------------------------------------------

#[test]
fn baby_must_approach_enemy_queen() {
    let r = rules();
    // White baby on e5, black queen on e10: before, d^2 = 0 + 25 = 25.
    let mut pos = position(&r, &[("e5", "B"), ("e10", "q(20)"), ("l1", "Q(20)")], "w");
    assert_eq!(d2("e5", "e10"), 25);
    // Up the file: 16, 9, 4, 1, and the capture of the queen on e10.
    // Up-left: d6 17, c7 13, b8 13, a9 17. Up-right: f6 17, g7 13, h8 13, i9 17,
    // j10 25 (equal: refused). Every other direction moves away.
    let expected = sorted(&[
        "e5e6", "e5e7", "e5e8", "e5e9", "e5e10", "e5d6", "e5c7", "e5b8", "e5a9", "e5f6", "e5g7",
        "e5h8", "e5i9",
    ]);
    for m in &expected {
        let to = &m[2..];
        assert!(d2(to, "e10") < 25, "{m}");
    }
    assert_eq!(d2("j10", "e10"), 25);
    assert_eq!(d2("d5", "e10"), 26);
    assert_eq!(moves_from(&mut pos, "e5"), expected);
}

#[test]
fn black_baby_must_approach_white_queen() {
    let r = rules();
    // Black baby on h8, white queen on h3: d^2 = 25. Black's queen on a12 is out of
    // the way. (Move 1 with black to move also offers `swap`; only h8 is looked at.)
    let mut pos = position(&r, &[("h8", "b"), ("h3", "Q(20)"), ("a12", "q(20)")], "b");
    assert_eq!(d2("h8", "h3"), 25);
    // Down: 16, 9, 4, 1, capture. Down-left g7 17, f6 13, e5 13, d4 17, c3 25 (equal).
    // Down-right i7 17, j6 13, k5 13, l4 17.
    let expected = sorted(&[
        "h8h7", "h8h6", "h8h5", "h8h4", "h8h3", "h8g7", "h8f6", "h8e5", "h8d4", "h8i7", "h8j6",
        "h8k5", "h8l4",
    ]);
    assert_eq!(d2("c3", "h3"), 25);
    assert_eq!(moves_from(&mut pos, "h8"), expected);
}

#[test]
fn baby_equal_distance_move_refused() {
    let r = rules();
    // Black queen on f6, white baby on d6, two files away: d^2 = 4. The baby's
    // diagonal moves to f4 and f8 land on the same circle round the queen.
    let mut pos = position(&r, &[("d6", "B"), ("f6", "q(20)"), ("l1", "Q(20)")], "w");
    let before = d2("d6", "f6");
    assert_eq!(before, 4); // dx = 2, dy = 0
    assert_eq!(d2("f4", "f6"), 4); // dx = 0, dy = 2
    assert_eq!(d2("f8", "f6"), 4); // dx = 0, dy = 2
    assert_eq!(d2("f4", "f6"), before, "equal, so not shorter");
    // Strictly closer: e5 (1+1=2), e6 (1), e7 (1+1=2); f6 is the capture.
    assert_eq!(d2("e5", "f6"), 2);
    assert_eq!(d2("e6", "f6"), 1);
    assert_eq!(d2("e7", "f6"), 2);
    assert_eq!(
        moves_from(&mut pos, "d6"),
        sorted(&["d6e5", "d6e6", "d6e7", "d6f6"])
    );
    assert!(pos.play("d6f4").is_err());
    assert!(pos.play("d6f8").is_err());
}

#[test]
fn baby_capture_away_from_queen_allowed() {
    let r = rules();
    // White baby on e5, black queen on e10 (d^2 25). Black babies on e2 (behind, d^2
    // 64), a5 (sideways, 16+25 = 41) and j10 (equal, 25): all three may be captured,
    // though no non-capture in those directions is allowed.
    let mut pos = position(
        &r,
        &[
            ("e5", "B"),
            ("e10", "q(20)"),
            ("e2", "b"),
            ("a5", "b"),
            ("j10", "b"),
            ("l1", "Q(20)"),
        ],
        "w",
    );
    assert_eq!(d2("e2", "e10"), 64);
    assert_eq!(d2("a5", "e10"), 41);
    assert_eq!(d2("j10", "e10"), 25);
    let expected = sorted(&[
        "e5e6", "e5e7", "e5e8", "e5e9", "e5e10", "e5d6", "e5c7", "e5b8", "e5a9", "e5f6", "e5g7",
        "e5h8", "e5i9", // approaching
        "e5e2", "e5a5", "e5j10", // captures away from, or level with, the queen
    ]);
    assert_eq!(moves_from(&mut pos, "e5"), expected);
    play(&mut pos, "e5e2");
    assert_eq!(piece(&pos, "e2"), (baby(&r, WHITE), 1));
    assert_eq!(
        piece(&pos, "e5"),
        (EMPTY, 0),
        "a baby leaves nothing behind"
    );
}

// ---- sliding -------------------------------------------------------------------

#[test]
fn sliding_stops_at_pieces_and_never_jumps() {
    let r = rules();
    // White queen of 10 on d4. Up: its own baby on d6 blocks (d5 only). Right: black
    // babies on f4 and h4, only f4 may be taken. Up-right: black babies on f6 and g7,
    // only f6. The black queen on l11 is on none of d4's lines.
    let mut pos = position(
        &r,
        &[
            ("d4", "Q(10)"),
            ("d6", "B"),
            ("f4", "b"),
            ("h4", "b"),
            ("f6", "b"),
            ("g7", "b"),
            ("l11", "q(20)"),
        ],
        "w",
    );
    let expected = sorted(&[
        "d4d5", // up, stopped by its own baby
        "d4d3", "d4d2", "d4d1", // down
        "d4c4", "d4b4", "d4a4", // left
        "d4e4", "d4f4", // right: the first enemy only
        "d4e5", "d4f6", // up-right: the first enemy only
        "d4c5", "d4b6", "d4a7", // up-left
        "d4c3", "d4b2", "d4a1", // down-left
        "d4e3", "d4f2", "d4g1", // down-right
    ]);
    assert_eq!(moves_from(&mut pos, "d4"), expected);
    for m in ["d4d6", "d4d7", "d4g4", "d4h4", "d4g7", "d4h8"] {
        assert!(pos.play(m).is_err(), "{m}: no jumping");
    }
}

#[test]
fn baby_slides_and_captures_only_the_first_enemy() {
    let r = rules();
    // White baby on a1, black queen far up on l12 (the same diagonal). Black babies
    // on d4 and f6 sit on the diagonal: the baby may go b2, c3, take d4, nothing more.
    let mut pos = position(
        &r,
        &[
            ("a1", "B"),
            ("d4", "b"),
            ("f6", "b"),
            ("l12", "q(20)"),
            ("l1", "Q(20)"),
        ],
        "w",
    );
    let mine = moves_from(&mut pos, "a1");
    // Up the file: every a-square approaches l12 (d^2 from a1 = 121 + 121 = 242).
    // Along the rank: b1..k1 approach (l1 is White's own queen).
    let mut expected: Vec<String> = (2..=12).map(|r| format!("a1a{r}")).collect();
    expected.extend("bcdefghijk".chars().map(|f| format!("a1{f}1")));
    expected.extend(["a1b2".to_string(), "a1c3".to_string(), "a1d4".to_string()]);
    for m in &expected {
        assert!(
            m.ends_with("d4") || d2(&m[2..], "l12") < d2("a1", "l12"),
            "{m}"
        );
    }
    expected.sort();
    assert_eq!(mine, expected);
}

#[test]
fn captured_stack_removed_whole() {
    let r = rules();
    // A white baby takes the black queen, a stack of 20: the whole stack goes and the
    // baby stays a single checker.
    let mut pos = position(&r, &[("e9", "B"), ("e10", "q(20)"), ("a1", "Q(20)")], "w");
    let (fen, hash) = (pos.fen(), pos.hash());
    play(&mut pos, "e9e10");
    assert_eq!(piece(&pos, "e10"), (baby(&r, WHITE), 1));
    assert_eq!(piece(&pos, "e9"), (EMPTY, 0));
    let black_left = pos
        .rules()
        .geometry()
        .cells
        .iter()
        .enumerate()
        .filter(|&(c, _)| {
            let p = pos.piece_at(Cell::new(c));
            p == queen(&r, BLACK) || p == baby(&r, BLACK)
        })
        .count();
    assert_eq!(black_left, 0);
    assert_eq!(
        pos.fen(),
        "12/12/4B7/12/12/12/12/12/12/12/12/Q(20)11 b - - 0 1"
    );
    pos.unmake();
    assert_eq!((pos.fen(), pos.hash()), (fen, hash));
    assert_eq!(piece(&pos, "e10"), (queen(&r, BLACK), 20), "restored whole");

    // A queen of 6 taking a queen of 20 is still 6 high.
    let mut pos = position(&r, &[("a1", "Q(6)"), ("a12", "q(20)")], "w");
    play(&mut pos, "a1a12");
    assert_eq!(piece(&pos, "a12"), (queen(&r, WHITE), 6));
}

// ---- the end -------------------------------------------------------------------

#[test]
fn capturing_the_queen_wins() {
    let r = rules();
    let mut pos = position(&r, &[("a1", "Q(5)"), ("a8", "q(7)"), ("c2", "b")], "w");
    play(&mut pos, "a1a8");
    assert_eq!(
        ending(&mut pos),
        Some((Some(WHITE), "black's Queen was captured".to_string()))
    );
    assert_eq!(moves(&mut pos), Vec::<String>::new(), "the game is over");
    assert_eq!(Perft::new().count(&mut pos, 1), 0);
    pos.unmake();
    assert_eq!(pos.outcome(), None);

    // And the other way round: a black baby takes the white queen.
    let mut pos = position(&r, &[("g1", "Q(20)"), ("g9", "b"), ("f12", "q(20)")], "b");
    play(&mut pos, "g9g1");
    assert_eq!(
        ending(&mut pos),
        Some((Some(BLACK), "white's Queen was captured".to_string()))
    );
    assert_eq!(moves(&mut pos), Vec::<String>::new());
}

#[test]
fn no_legal_move_loses() {
    let r = rules();
    // White: a queen of 2 on a1, no babies, nothing in its lines (black's queen on k12
    // and baby on c2 are off them).
    let mut pos = position(&r, &[("a1", "Q(2)"), ("c2", "b"), ("k12", "q(20)")], "w");
    assert_eq!(moves(&mut pos), Vec::<String>::new());
    assert_eq!(
        ending(&mut pos),
        Some((Some(BLACK), "white has no legal move".to_string()))
    );

    // Reached in play: black's baby on c5 takes white's last baby, on c2.
    let mut pos = position(
        &r,
        &[("a1", "Q(2)"), ("c2", "B"), ("c5", "b"), ("k12", "q(20)")],
        "b",
    );
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "c5c2");
    assert_eq!(moves(&mut pos), Vec::<String>::new());
    assert_eq!(
        ending(&mut pos),
        Some((Some(BLACK), "white has no legal move".to_string()))
    );
}

#[test]
fn no_draw_rules() {
    let r = rules();
    assert_eq!(
        r.end_rules(),
        vec![
            EndRule::Captured(
                varsand::rules::PieceKind::new(r.kind_by_letter('Q').unwrap()),
                Outcome::Loss
            ),
            EndRule::NoMoves(Outcome::Loss),
        ],
        "no repetition or move-count rule"
    );
    // A position can never repeat anyway (queens only shrink, babies only approach a
    // queen that would have to stand still), so the move-count rule is what could
    // end a game: a huge halfmove clock ends nothing.
    let mut pos = Position::from_fen(
        r.clone(),
        "5q(20)6/12/12/12/12/12/12/12/12/12/12/6Q(20)5 w - - 900 451",
    )
    .unwrap();
    assert_eq!(pos.outcome(), None);
    // 300 plies without a capture, on stacks of 255.
    let r = rules_with(&[("height", 255)]);
    let mut pos = Position::start(r.clone());
    for ply in 0..300 {
        let list = pos.legal_moves();
        let m = *list
            .iter()
            .find(|m| m.kind == varsand::engine::MoveKind::Normal && pos.piece_at(m.to) == EMPTY)
            .unwrap_or_else(|| panic!("a quiet move at ply {ply}: {}", pos.fen()));
        pos.make(m);
        assert_eq!(pos.outcome(), None, "ply {ply}: {}", pos.fen());
    }
    assert!(pos.halfmove_clock() >= 300, "{}", pos.fen());
    assert_eq!(pos.hash(), pos.compute_hash());
}

// ---- the pie rule --------------------------------------------------------------

#[test]
fn swap_available_exactly_once() {
    let r = rules();
    let mut pos = Position::start(r.clone());
    assert!(!has_swap(&mut pos), "not for white at the start");
    play(&mut pos, "g1g2");
    // Black's first turn: its queen's 33 moves and the swap.
    let black = moves(&mut pos);
    assert_eq!(black.len(), 34);
    assert!(black.contains(&"swap".to_string()));

    // Declined: black moves; the swap is gone for good.
    play(&mut pos, "f12f11");
    assert!(!has_swap(&mut pos), "white never swaps");
    play(&mut pos, "g2g3");
    assert!(!has_swap(&mut pos), "only on black's first turn");
    pos.unmake();
    pos.unmake();

    // Taken.
    let board_before = pos.fen().split(' ').next().unwrap().to_string();
    let hash_before = pos.hash();
    play(&mut pos, "swap");
    assert!(pos.swapped());
    assert_eq!(pos.side_to_move(), BLACK, "the same colour moves again");
    assert_eq!(
        pos.fen().split(' ').next().unwrap(),
        board_before,
        "board unchanged"
    );
    assert!(pos.fen().ends_with(" swapped"), "{}", pos.fen());
    assert_eq!(pos.fen(), format!("{board_before} b - - 1 1 swapped"));
    assert_ne!(pos.hash(), hash_before);
    let after = moves(&mut pos);
    assert!(!after.contains(&"swap".to_string()), "not twice");
    assert_eq!(after.len(), 33);

    // The string reads back to the same position.
    let mut again = Position::from_fen(r.clone(), &pos.fen()).unwrap();
    assert!(again.swapped());
    assert_eq!(again.hash(), pos.hash());
    assert_eq!(again.fen(), pos.fen());
    assert!(!has_swap(&mut again));

    // After the swap black moves on, and no swap comes back.
    play(&mut pos, "f12f11");
    assert!(pos.swapped());
    assert!(!has_swap(&mut pos));
    play(&mut pos, "g2g3");
    assert!(!has_swap(&mut pos));

    // Unmaking the swap makes it available again.
    pos.unmake();
    pos.unmake();
    pos.unmake();
    assert!(!pos.swapped());
    assert_eq!(pos.hash(), hash_before);
    assert_eq!(pos.hash(), pos.compute_hash());
    assert!(has_swap(&mut pos));
}

#[test]
fn swap_counts_in_perft() {
    let r = rules();
    let mut pos = Position::start(r.clone());
    assert_eq!(Perft::new().count(&mut pos, 2), 1111);
    let (mut quiet, mut swaps) = (0, 0);
    for m in pos.legal_moves() {
        pos.make(m);
        for reply in pos.legal_moves() {
            if pos.move_text(reply) == "swap" {
                swaps += 1;
            } else {
                quiet += 1;
            }
        }
        pos.unmake();
    }
    assert_eq!(swaps, 33, "one swap after each of white's 33 first moves");
    assert_eq!(quiet, 1078);
    assert_eq!(quiet + swaps, 1111);
}

// ---- parameters ----------------------------------------------------------------

#[test]
fn height_parameter() {
    let r = rules_with(&[("height", 8)]);
    let mut pos = Position::start(r.clone());
    assert_eq!(
        pos.fen(),
        "5q(8)6/12/12/12/12/12/12/12/12/12/12/6Q(8)5 w - - 0 1"
    );
    assert_eq!(piece(&pos, "g1"), (queen(&r, WHITE), 8));
    assert_eq!(piece(&pos, "f12"), (queen(&r, BLACK), 8));
    // Height only matters once a queen is down to 2: from 8 that takes six births,
    // so the first plies count as with 20.
    assert_eq!(Perft::new().count(&mut pos, 3), 55753);
    assert_ne!(pos.hash(), Position::start(rules()).hash());

    // From 3, white's queen is 2 by ply 3 and may then only capture (the count of
    // tests/perft "handicap", whose black height 4 cannot matter before ply 4).
    let r = rules_with(&[("height", 3)]);
    let mut pos = Position::start(r.clone());
    assert_eq!(piece(&pos, "f12"), (queen(&r, BLACK), 3));
    let mut p = Perft::new();
    p.verify = true;
    assert_eq!(p.count(&mut pos, 1), 33);
    assert_eq!(p.count(&mut pos, 2), 1111);
    assert_eq!(p.count(&mut pos, 3), 21502);
    play(&mut pos, "g1g2");
    play(&mut pos, "f12f11");
    // White: a queen of 2 on g2 with no capture in sight, so only the baby on g1
    // moves, and only towards f11 (d^2 from g1 = 1 + 100 = 101).
    assert_eq!(piece(&pos, "g2"), (queen(&r, WHITE), 2));
    assert!(moves_from(&mut pos, "g2").is_empty());
    for m in moves(&mut pos) {
        assert!(m.starts_with("g1"), "{m}");
        assert!(d2(&m[2..], "f11") < d2("g1", "f11"), "{m}");
    }

    // Out of range: the file says 3..255.
    let mut set = Overrides::new();
    set.insert("height".into(), 2);
    assert!(loader::load(&source(), &set).is_err());
    set.insert("height".into(), 256);
    assert!(loader::load(&source(), &set).is_err());
}

#[test]
fn handicap_per_side_height() {
    let r = rules_with(&[("white.height", 24), ("black.height", 20)]);
    let pos = Position::start(r.clone());
    assert_eq!(piece(&pos, "g1"), (queen(&r, WHITE), 24));
    assert_eq!(piece(&pos, "f12"), (queen(&r, BLACK), 20));
    assert_eq!(
        pos.fen(),
        "5q(20)6/12/12/12/12/12/12/12/12/12/12/6Q(24)5 w - - 0 1"
    );

    // One side alone: the other keeps the file's default.
    let r = rules_with(&[("white.height", 24)]);
    let pos = Position::start(r.clone());
    assert_eq!(piece(&pos, "g1"), (queen(&r, WHITE), 24));
    assert_eq!(piece(&pos, "f12"), (queen(&r, BLACK), 20));

    let r = rules_with(&[("black.height", 30)]);
    let pos = Position::start(r.clone());
    assert_eq!(piece(&pos, "g1"), (queen(&r, WHITE), 20));
    assert_eq!(piece(&pos, "f12"), (queen(&r, BLACK), 30));

    // The handicap is per side and survives a plain `height` too.
    let r = rules_with(&[("height", 10), ("white.height", 12)]);
    let pos = Position::start(r.clone());
    assert_eq!(piece(&pos, "g1"), (queen(&r, WHITE), 12));
    assert_eq!(piece(&pos, "f12"), (queen(&r, BLACK), 10));
}

// ---- notation ------------------------------------------------------------------

#[test]
fn notation_variants() {
    let r = rules();
    let mut pos = Position::start(r.clone());
    // The game site's `g1-g2`.
    play(&mut pos, "g1-g2");
    assert_eq!(piece(&pos, "g2"), (queen(&r, WHITE), 19));
    play(&mut pos, "f12-f11");
    play(&mut pos, "g2g3");
    // Coordinates written both ways; and a move that is not legal is refused.
    let before = (pos.fen(), pos.hash());
    let err = pos.play("f11h12").unwrap_err();
    assert!(err.message.contains("not a legal move"), "{err}");
    assert!(pos.play("f11-h12").is_err());
    assert!(pos.play("g3g4").is_err(), "not black's piece");
    assert!(
        pos.play("f12f10").is_err(),
        "the queen on f11 is in the way"
    );
    // Baby f12 to e12 moves away from the white queen on g3 (82 -> 85).
    assert_eq!((d2("f12", "g3"), d2("e12", "g3")), (82, 85));
    assert!(pos.play("f12-e12").is_err(), "a baby may not move away");
    assert!(moves(&mut pos).contains(&"f12g12".to_string()), "81 < 82");
    assert!(pos.play("nonsense").is_err());
    assert_eq!(
        (pos.fen(), pos.hash()),
        before,
        "a refused move changes nothing"
    );

    // `f12xg12`: the capture notation, on a black queen taking a white baby.
    let mut pos = position(&r, &[("f12", "q(20)"), ("g12", "B"), ("a1", "Q(20)")], "b");
    play(&mut pos, "f12xg12");
    assert_eq!(piece(&pos, "g12"), (queen(&r, BLACK), 20));
    assert_eq!(piece(&pos, "f12"), (EMPTY, 0));
    pos.unmake();
    // Plain coordinates for the same capture; move_text writes them so.
    play(&mut pos, "f12g12");
    assert_eq!(pos.move_text(pos.last_move().unwrap()), "f12g12");
    pos.unmake();
    // The pie move by name.
    play(&mut pos, "swap");
    assert!(pos.swapped());
}

/// How the game ended, if it did: the winner and the ending in words.
fn ending(pos: &mut Position) -> Option<(Option<Side>, String)> {
    pos.outcome()
        .map(|end| (end.winner, end.describe(pos.rules())))
}
