//! Parameters wherever a number stands: a zone's rank, a counter's start, the numbers
//! of height and counter conditions and effects. Each test sets a parameter as
//! `--set` does (the common value, or one player's own) and shows that the rules
//! change; and that a per-player value where both players share the number, or a value
//! that does not fit, is refused.

mod common;

use std::sync::Arc;

use varsand::check::Overrides;
use varsand::loader;
use varsand::{Position, Rules};

/// A small game: kings on a1 and e5, a white stack of three queens on c1 and a black
/// knight on c5; every number a parameter may stand for is one.
const GAME: &str = r#"
game "Params"
board 5 x 5
players white black

param depth = 2 in 1..5
param reach = 2 in 1..5
param tall = 2 in 1..10
param step = 1 in 0..2
param start = 0 in 0..5
param need = 1 in 0..5
param gain = 1 in 0..3

zone camp = ranks 1..depth
zone home { white: ranks 1..reach  black: ranks 5..5 }
counter tempo = start

piece King K { moves "K" if to camp  royal }
piece Queen Q { moves "W" if height > tall and to home then height -step }
piece Knight N { moves "N" if counter tempo >= need then counter tempo -gain }
pass if counter tempo > 0

end { checkmate loss }

setup "2n1k/5/5/5/K1Q(3)2 w - - 0 1"
"#;

fn set(values: &[(&str, i64)]) -> Overrides {
    values.iter().map(|&(k, v)| (k.to_string(), v)).collect()
}

fn load(source: &str, values: &[(&str, i64)]) -> Arc<Rules> {
    Arc::new(loader::load(source, &set(values)).unwrap_or_else(|p| panic!("does not load: {p:?}")))
}

/// The problems' messages when the game does not load.
fn refused(source: &str, values: &[(&str, i64)]) -> Vec<String> {
    match loader::load(source, &set(values)) {
        Ok(_) => panic!("loaded with {values:?}"),
        Err(problems) => problems
            .iter()
            .map(|p| format!("{}: {}", p.code, p.message))
            .collect(),
    }
}

/// The start position's legal moves of the piece on `square`.
fn moves_from(rules: &Arc<Rules>, square: &str) -> Vec<String> {
    let mut pos = Position::start(Arc::clone(rules));
    common::legal_texts_starting(&mut pos, square)
}

#[test]
fn a_parameter_stands_for_a_zones_rank() {
    // The king moves only into the camp, ranks 1..depth.
    assert_eq!(moves_from(&load(GAME, &[]), "a1"), ["a1a2", "a1b1", "a1b2"]);
    assert_eq!(moves_from(&load(GAME, &[("depth", 1)]), "a1"), ["a1b1"]);
    // The camp is the same for both players: one player's own value cannot apply.
    let problems = refused(GAME, &[("white.depth", 1)]);
    assert!(
        problems.iter().any(|p| p.starts_with("varsand::param-per-player: `depth` is set for white alone, but here it stands for a rank")),
        "{problems:?}"
    );
}

#[test]
fn a_per_player_zone_reads_its_players_value() {
    // The queen moves only into `home`, whose white ranks are 1..reach (the
    // player's own value first).
    let rules = load(GAME, &[("reach", 1), ("white.reach", 2)]);
    assert_eq!(moves_from(&rules, "c1"), ["c1b1", "c1c2", "c1d1"]);
    let rules = load(GAME, &[("reach", 2), ("white.reach", 1)]);
    assert_eq!(moves_from(&rules, "c1"), ["c1b1", "c1d1"]);
}

#[test]
fn a_parameter_stands_for_a_rank_that_must_be_on_the_board() {
    let unranged = GAME.replace("param depth = 2 in 1..5", "param depth = 2");
    let problems = refused(&unranged, &[("depth", 7)]);
    assert!(
        problems
            .iter()
            .any(|p| p == "varsand::off-board: rank 7 is not on the board"),
        "{problems:?}"
    );
    // Outside the declared range, the value is refused as any other.
    let problems = refused(GAME, &[("depth", 6)]);
    assert!(
        problems
            .iter()
            .any(|p| p == "varsand::param-range: --set depth=6 is outside 1..5"),
        "{problems:?}"
    );
    // A declared range that reaches off the board is a warning; the file loads.
    let wide = GAME.replace("param depth = 2 in 1..5", "param depth = 2 in 1..6");
    let checked = loader::check_source(&wide, &Overrides::new());
    assert!(checked.rules.is_some());
    let warnings: Vec<String> = checked.warnings().map(|p| p.message.clone()).collect();
    assert_eq!(
        warnings,
        ["`depth` may be set to 1..6, but a rank lies within 1..5"]
    );
}

#[test]
fn a_parameter_stands_for_a_counters_start() {
    let fen = |values: &[(&str, i64)]| Position::start(load(GAME, values)).fen();
    assert!(fen(&[]).ends_with(" tempo=0/0"), "{}", fen(&[]));
    assert!(fen(&[("start", 2)]).ends_with(" tempo=2/2"));
    // A counter is per player: each player's own value.
    assert!(fen(&[("white.start", 1)]).ends_with(" tempo=1/0"));
    assert!(fen(&[("start", 3), ("black.start", 0)]).ends_with(" tempo=3/0"));
    // The setup's own values come first.
    let given = GAME.replace("- - 0 1\"", "- - 0 1 tempo=4/4\"");
    let pos = Position::start(load(&given, &[("start", 2)]));
    assert!(pos.fen().ends_with(" tempo=4/4"), "{}", pos.fen());
    // The start opens the pass (`pass if counter tempo > 0`).
    let mut pos = Position::start(load(GAME, &[("white.start", 1)]));
    assert!(common::legal_texts(&mut pos).contains(&"a1a1".to_string()));
    let mut pos = Position::start(load(GAME, &[]));
    assert!(!common::legal_texts(&mut pos).contains(&"a1a1".to_string()));
}

#[test]
fn a_parameter_stands_for_the_numbers_of_conditions_and_effects() {
    // `height > tall`: the stack of three moves while `tall` is below 3.
    assert_eq!(
        moves_from(&load(GAME, &[("tall", 3)]), "c1"),
        Vec::<String>::new()
    );
    // `then height -step`: the stack shrinks by `step`.
    let mut pos = Position::start(load(GAME, &[("step", 2)]));
    pos.play("c1c2").unwrap();
    assert!(pos.fen().contains("/2Q2/"), "{}", pos.fen());
    let mut pos = Position::start(load(GAME, &[("step", 1)]));
    pos.play("c1c2").unwrap();
    assert!(pos.fen().contains("/2Q(2)2/"), "{}", pos.fen());
    // `counter tempo >= need` and `then counter tempo -gain`, for black's knight.
    let mut pos = Position::start(load(GAME, &[("start", 1), ("gain", 1)]));
    pos.play("c1c2").unwrap();
    assert!(common::legal_texts_starting(&mut pos, "c5").contains(&"c5b3".to_string()));
    pos.play("c5b3").unwrap();
    assert!(pos.fen().ends_with(" tempo=1/0"), "{}", pos.fen());
    let mut pos = Position::start(load(GAME, &[("start", 1), ("need", 2)]));
    pos.play("c1c2").unwrap();
    assert!(common::legal_texts_starting(&mut pos, "c5").is_empty());
}

#[test]
fn a_piece_of_one_player_reads_that_players_values() {
    // The queen is both players': a per-player `tall` cannot apply to it.
    let problems = refused(GAME, &[("white.tall", 5)]);
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("varsand::param-per-player: `tall` is set for white alone")),
        "{problems:?}"
    );
    // White's own queen reads white's value.
    let own = GAME.replace("piece Queen Q {", "piece Queen Q for white {");
    assert_eq!(
        moves_from(&load(&own, &[("white.tall", 5)]), "c1"),
        Vec::<String>::new()
    );
    assert_eq!(
        moves_from(&load(&own, &[("black.tall", 5)]), "c1"),
        ["c1b1", "c1c2", "c1d1"]
    );
}

/// `varsand perft --set`, as a user types it.
#[test]
fn perft_on_the_command_line_follows_a_rank_parameter() {
    let dir = common::process::TempDir::new("params-perft");
    let file = dir.path("params.var");
    std::fs::write(&file, GAME).unwrap();
    let file = file.display().to_string();
    let nodes = |depth: &str| {
        let out = common::process::varsand(
            &["perft", &file, "1", "--set", &format!("depth={depth}")],
            None,
        );
        assert!(
            out.status.success(),
            "{}",
            common::process::text(&out.stderr)
        );
        common::process::text(&out.stdout)
    };
    assert_ne!(nodes("1"), nodes("2"));
}

/// `varsand analyze --sweep` over a parameter that stands for a zone's rank.
#[test]
fn a_sweep_ranges_over_a_rank_parameter() {
    let dir = common::process::TempDir::new("params-sweep");
    let file = dir.path("params.var");
    std::fs::write(&file, GAME).unwrap();
    let file = file.display().to_string();
    let out = common::process::varsand(
        &[
            "analyze",
            &file,
            "--random",
            "--games",
            "2",
            "--sweep",
            "depth=1..3",
            "--json",
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        common::process::text(&out.stderr)
    );
    let json = common::process::text(&out.stdout);
    assert!(json.contains("depth"), "{json}");
}
