//! The checker on hostile input: large files stay fast, names that look alike stay
//! apart.

use std::time::Instant;

use varsand::load_rules;

const CHESS: &str = include_str!("../variants/chess.var");

#[test]
fn a_hundred_thousand_duplicate_lines_check_in_linear_time() {
    let source = format!("{CHESS}\n{}", "game \"again\"\n".repeat(100_000));
    let started = Instant::now();
    let problems = load_rules(&source).unwrap_err();
    assert_eq!(problems.len(), 100_000);
    assert!(
        started.elapsed().as_secs_f64() < 10.0,
        "took {:?}",
        started.elapsed()
    );
    let shown = varsand::diagnostic::render_plain(&problems, "big.var", &source);
    assert!(shown.len() < 100_000, "{} bytes shown", shown.len());
}

#[test]
fn a_zone_named_like_a_square_off_the_board_can_be_used_in_regions() {
    let source = CHESS.replace(
        "zone last_rank { white: rank 8  black: rank 1 }",
        "zone z1 = rank 8\nzone last_rank { white: z1  black: rank 1 }",
    );
    let rules = load_rules(&source).unwrap();
    let last = rules.zone_by_name("last_rank").unwrap();
    let e8 = rules.geometry().parse_square("e8").unwrap();
    assert!(rules.zone_contains(last, varsand::ids::Side::First, e8));
}

#[test]
fn a_small_file_checks_in_little_time_whatever_its_boards() {
    // 26 side boards of 26 x 99 squares: refused at once, not compiled.
    let boards: String = (0..26)
        .map(|i| format!("board side{i} 26 x 99\n"))
        .collect();
    let source = CHESS.replace("board 8 x 8\n", &format!("board 8 x 8\n{boards}"));
    let started = Instant::now();
    let problems = load_rules(&source).unwrap_err();
    assert!(
        problems
            .iter()
            .any(|p| p.code == "varsand::too-many-squares")
    );
    assert!(
        started.elapsed().as_secs_f64() < 2.0,
        "took {:?}",
        started.elapsed()
    );
}
