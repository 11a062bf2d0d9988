//! The diagnostics catalogue: every file in `tests/diagnostics/` is a small rule file
//! (standard chess, trimmed) with deliberate mistakes, named for them. Each test loads
//! its file, checks that it fails with the expected number of problems, and snapshots
//! the exact text `varsand check` prints (`tests/snapshots/diagnostics__NAME.snap`).
//!
//! Add a case: write `tests/diagnostics/NAME.var`, add `NAME: COUNT` to the list below,
//! run `INSTA_UPDATE=always cargo test --test diagnostics` (or `cargo insta review`),
//! then read the new snapshot and judge whether the message, underline, label and help
//! are right.

use std::path::Path;

mod common;

use varsand::check::Overrides;
use varsand::diagnostic::render_plain;
use varsand::loader;

/// Loads a catalogue file, which must fail; returns its problem count and the
/// rendered problems.
fn render_failure(name: &str, source: &str) -> (usize, String) {
    let path = format!("tests/diagnostics/{name}.var");
    let problems = match loader::load(source, &Overrides::new()) {
        Ok(_) => panic!("{path} loaded without problems, but it is meant to be broken"),
        Err(problems) => problems,
    };
    assert!(
        !problems.is_empty(),
        "{path}: load failed with an empty problem list"
    );
    for p in &problems {
        assert!(
            p.span.start <= p.span.end && p.span.end <= source.len(),
            "{path}: span {:?} of `{}` lies outside the file ({} bytes)",
            p.span,
            p.message,
            source.len()
        );
    }
    (problems.len(), render_plain(&problems, &path, source))
}

macro_rules! catalogue {
    ($($(#[$attr:meta])* $name:ident: $count:expr),* $(,)?) => {
        /// Every file the catalogue tests, to find `.var` files without a test.
        const CATALOGUE: &[&str] = &[$(stringify!($name)),*];
        $(
            #[test]
            $(#[$attr])*
            fn $name() {
                let source = include_str!(concat!("diagnostics/", stringify!($name), ".var"));
                let (count, rendered) = render_failure(stringify!($name), source);
                insta::assert_snapshot!(rendered);
                assert_eq!(
                    count, $count,
                    "tests/diagnostics/{}.var: expected {} problem(s), got {count}:\n{rendered}",
                    stringify!($name), $count
                );
            }
        )*
    };
}

catalogue! {
    number_too_large: 1,
    too_many_squares: 1,
    square_name_reads_as_promotion: 2,
    zone_named_like_square: 1,
    // ---- syntax: the parser stops at the first error --------------------------------
    syntax_error: 1,
    syntax_board_by: 1, // see `expect_syntax_board_by`
    syntax_unterminated_string: 1,

    // ---- board and players ----------------------------------------------------------
    no_board: 1,
    no_board_with_castle: 1, // see `expect_no_board_with_castle_reported_once`
    board_too_wide: 1, // see `expect_board_too_wide`
    board_too_many_ranks: 1,
    duplicate_players: 1,
    players_same_letter: 1,
    param_default_outside_range: 1,
    param_range_inverted: 1, // see `expect_param_range_inverted`

    // ---- pieces and Betza -----------------------------------------------------------
    duplicate_piece_letter: 1,
    duplicate_piece_name: 1,
    piece_letter_not_a_letter: 1,
    bad_betza_modifier: 1,
    bad_betza_atom: 1,
    betza_modifiers_without_atom: 1,
    betza_doubled_rider: 1,
    betza_range_too_long: 1,
    betza_lame_without_path: 1,
    betza_directions_select_nothing: 1,
    empty_betza: 1,
    hopper_on_leaper: 1,

    // ---- zones and promotion --------------------------------------------------------
    unknown_zone_in_promotion: 1,
    promotion_to_undefined_piece: 1,
    hand_unknown_pieces: 3,
    drops_twice_and_from: 2,
    face_never_held: 1,
    fewer_than_zero: 1,
    mate_by_drop_never_dropped: 1,
    duplicate_gating: 1,
    gates_on_one_file: 1,
    too_many_gates: 1,
    must_drop_never_dropped: 1,
    castling_by_drop_without_castling: 1,
    promotion_to_unknown_marked_piece: 1,
    duplicate_marked_letter: 1,
    terrain_tilde_with_marked_piece: 1,
    syntax_promotes_when: 1,
    syntax_forbid_unknown: 1,
    setup_unknown_marked_piece: 1,
    setup_presence_unknown_param: 1,
    count_unknown_param: 1,
    param_unknown_places: 6,
    param_values_out_of_range: 4,
    pass_on_file: 1,
    reached_unknown_piece_and_zone: 2,
    syntax_three_mistakes: 3,
    syntax_missing_brace: 1,
    bare_king_without_royal: 1,
    unknown_player_in_zone: 1,
    unknown_zone_in_zone: 1,
    rank_off_board_in_zone: 1,
    file_off_board_in_zone: 1,
    zone_used_before_declared: 1, // see `expect_zone_used_before_declared`

    // ---- how pieces are drawn -------------------------------------------------------
    glyph_empty: 2,
    glyph_too_long: 2,
    glyph_per_player_mistakes: 3,
    glyph_for_a_player_without_the_piece: 1,
    unknown_image: 2,

    // ---- terrain --------------------------------------------------------------------
    terrain_letter_clashes_with_piece: 1,
    terrain_cleared_by_unknown_piece: 1,
    unknown_terrain_letter_in_setup: 1,

    // ---- side boards, two faces, counters, exits ------------------------------------
    unknown_counter: 1,
    two_faces_without_flip_rule: 1,
    exited_piece_never_exits: 1,
    illegal_result_not_for_stalemate: 1,

    // ---- captures and checks --------------------------------------------------------
    must_capture_nothing_captures: 1,
    duple_check_without_royal: 1,
    explosion_to_hand: 1,
    reached_unattacked_with_reply: 1,
    capturing_without_capture: 1,
    converts_without_convert: 1,
    in_place_without_becomes: 1,
    convert_one_sided: 1,
    on_check_effect: 1,

    // ---- two-part moves ---------------------------------------------------------------
    place_unknown_terrain: 1,
    place_along_capturing: 1,
    place_twice: 1,
    on_move_effect: 1,
    moved_terrain_count: 1,
    pieces_left_negative: 1,
    in_check_on_capture: 1,
    side_board_square_names: 1,

    // ---- castling -------------------------------------------------------------------
    square_off_board_in_castle: 1,
    castle_not_on_one_rank: 1,
    castle_king_and_rook_same_square: 1, // see `expect_castle_king_and_rook_same_square`
    duplicate_castling_right: 1,
    unknown_player_in_castle: 1,

    // ---- passing --------------------------------------------------------------------
    pass_from_zone: 1,
    pass_if_captures: 1,

    // ---- conditions on the piece captured or jumped ----------------------------------
    unknown_piece_in_captures: 1,
    unknown_piece_in_over: 1,
    over_without_hop: 1,
    captures_on_moves_that_never_capture: 1,

    // ---- end rules ------------------------------------------------------------------
    checkmate_without_royal: 1,
    unknown_piece_in_end: 1,
    repetition_count_too_small: 1,
    facing_unknown_piece_and_zero_passes: 2,

    // ---- setup ----------------------------------------------------------------------
    no_setup: 1,
    duplicate_setup: 1,
    unknown_piece_in_setup: 1,
    setup_row_wrong_width: 1,
    setup_row_too_wide: 1,
    setup_wrong_rank_count: 1,
    setup_missing_side_board: 1,
    setup_zero_empty_count: 1,
    bad_side_to_move: 1,
    unknown_castling_right_in_setup: 1,
    bad_en_passant_square: 1,
    bad_move_clock: 1,
    setup_too_many_fields: 1,
    setup_side_not_to_move_in_check: 1,
    setup_without_royal_piece: 1,
    piece_value_out_of_range: 1,

    // ---- a letter's case, and a misspelling's consequences ---------------------------
    betza_atom_lower_case: 1,
    piece_letter_lower_case: 1,
    misspelt_name_offered: 1, // the unknown name only: no warning that `Tails` is unused
    // ---- several mistakes: the checker reports them all at once ---------------------
    three_mistakes: 3,
    unknown_zone_and_bad_setup: 2, // setup problems come with the others
}

// ---- what diagnostics must (not) say --------------------------------------------------
//
// The snapshots above record what the checker prints. These tests pin down, whatever the
// wording, the point of diagnostics that were once wrong or misleading; those still
// wrong are ignored until the checker is fixed
// (`cargo test --test diagnostics -- --ignored` runs them).

/// The problems of a catalogue file.
fn problems_of(name: &str) -> (String, Vec<varsand::diagnostic::Problem>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/diagnostics/{name}.var"));
    let source = std::fs::read_to_string(&path).expect("catalogue file");
    let problems = loader::load(&source, &Overrides::new()).expect_err("a broken file");
    (source, problems)
}

#[test]
fn expect_syntax_board_by() {
    let (source, problems) = problems_of("syntax_board_by");
    let by = source.find("board 8 by 8").unwrap() + "board 8 ".len();
    assert_eq!(
        problems[0].span.start, by,
        "should point at `by`: {}",
        problems[0].message
    );
    assert!(
        !problems[0].message.contains("expected a name"),
        "{}",
        problems[0].message
    );
}

#[test]
fn expect_board_too_wide() {
    let (_, problems) = problems_of("board_too_wide");
    let help = problems[0].help.clone().unwrap_or_default();
    assert!(!help.contains("26 ranks"), "{help}");
}

#[test]
fn expect_zone_used_before_declared() {
    let (_, problems) = problems_of("zone_used_before_declared");
    let help = problems[0].help.clone().unwrap_or_default();
    assert!(
        !help.contains("no zone is declared yet"),
        "`last_rank` is declared below; say so: {} / {help}",
        problems[0].message
    );
}

#[test]
fn expect_castle_king_and_rook_same_square() {
    let (_, problems) = problems_of("castle_king_and_rook_same_square");
    assert!(
        !problems[0].message.contains("along one rank"),
        "all four squares are on rank 1; the mistake is the shared square e1: {}",
        problems[0].message
    );
}

#[test]
fn expect_param_range_inverted() {
    let (_, problems) = problems_of("param_range_inverted");
    assert!(
        !problems[0].message.contains("lies outside"),
        "5 lies between 1 and 10; the mistake is the range written high to low: {}",
        problems[0].message
    );
}

#[test]
fn expect_no_board_with_castle_reported_once() {
    let (_, problems) = problems_of("no_board_with_castle");
    let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(
        messages,
        ["the file declares no board"],
        "one mistake, one problem"
    );
}

#[test]
fn every_catalogue_file_has_a_test() {
    let untested: Vec<String> = common::var_files("tests/diagnostics")
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|name| !CATALOGUE.contains(&name.as_str()))
        .collect();
    assert!(
        untested.is_empty(),
        "add these to the catalogue in tests/diagnostics.rs: {untested:?}"
    );
}

#[test]
fn every_variant_loads() {
    let files = common::var_files("variants");
    assert!(!files.is_empty(), "no variants/*.var files found");
    let mut failures = String::new();
    for path in &files {
        let source = std::fs::read_to_string(path).expect("readable variant file");
        if let Err(problems) = loader::load(&source, &Overrides::new()) {
            let name = format!("variants/{}", path.file_name().unwrap().to_string_lossy());
            failures += &render_plain(&problems, &name, &source);
        }
    }
    assert!(failures.is_empty(), "variants with problems:\n{failures}");
}

/// Files that load, with warnings: each warning rendered and snapshot
/// (`tests/warnings/NAME.var`).
fn render_warnings(name: &str) -> (usize, String) {
    let path = format!("tests/warnings/{name}.var");
    let source = std::fs::read_to_string(&path).unwrap();
    let checked = loader::check_source(&source, &Overrides::new());
    assert!(
        checked.rules.is_some(),
        "{path} must load: {:?}",
        checked.problems
    );
    let warnings: Vec<_> = checked.warnings().cloned().collect();
    assert_eq!(
        warnings.len(),
        checked.problems.len(),
        "{path}: only warnings"
    );
    (warnings.len(), render_plain(&warnings, &path, &source))
}

#[test]
fn warnings_unused_declarations() {
    let (count, rendered) = render_warnings("unused_declarations");
    insta::assert_snapshot!(rendered);
    assert_eq!(count, 4, "{rendered}");
}

#[test]
fn warnings_repeated_properties() {
    let (count, rendered) = render_warnings("repeated_properties");
    insta::assert_snapshot!(rendered);
    assert_eq!(count, 4, "{rendered}");
}

#[test]
fn warnings_overlapping_moves() {
    let (count, rendered) = render_warnings("overlapping_moves");
    insta::assert_snapshot!(rendered);
    assert_eq!(count, 2, "{rendered}");
}

#[test]
fn warnings_param_ranges() {
    let (count, rendered) = render_warnings("param_ranges");
    insta::assert_snapshot!(rendered);
    assert_eq!(count, 3, "{rendered}");
}

/// The shipped games and examples have no warnings.
#[test]
fn shipped_files_have_no_warnings() {
    for path in common::game_files() {
        let source = std::fs::read_to_string(&path).unwrap();
        let checked = loader::check_source(&source, &Overrides::new());
        let shown = render_plain(&checked.problems, &path.display().to_string(), &source);
        assert!(checked.problems.is_empty(), "{}:\n{shown}", path.display());
    }
}
