//! `varsand tune` and the values file: a tune on a tiny game finds the stronger piece
//! worth more, the file round-trips, a stale file is ignored with a warning, and
//! without a file the evaluation is the rules' own.
//!
//! `cargo test --profile checked --test tune`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

mod common;

use common::random_positions;
use varsand::analyze::GameConfig;
use varsand::check::Overrides;
use varsand::loader;
use varsand::search::learned::{self, AROUND_CELLS, Header, Learned};
use varsand::search::threats::Threats;
use varsand::search::{Eval, Limits};
use varsand::tune::{self, Layout, RoyalTerms, SelfPlay};
use varsand::{Position, Rules};

const TINY: &str = "tests/tune/tiny.var";

fn tiny_text() -> String {
    let path = format!("{}/{TINY}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn load(text: &str) -> Arc<Rules> {
    Arc::new(loader::load(text, &Overrides::new()).unwrap_or_else(|e| panic!("{e:?}")))
}

fn kind(rules: &Rules, name: &str) -> usize {
    rules
        .pieces()
        .iter()
        .position(|p| p.name == name)
        .unwrap_or_else(|| panic!("no {name}"))
}

/// A fresh folder under the target directory, holding a copy of the tiny game.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tune-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let file = dir.join("tiny.var");
    std::fs::write(&file, tiny_text()).unwrap_or_else(|e| panic!("{e}"));
    file
}

/// Learned weights that differ from the rules' own everywhere.
fn some_weights(rules: &Rules) -> Learned {
    let kinds = rules.pieces().len();
    let cells = rules.cell_count();
    Learned {
        values: (0..kinds).map(|k| 100 * k as i32 + 50).collect(),
        hand: vec![7; kinds],
        squares: (0..kinds)
            .map(|k| (0..cells).map(|c| (c as i32 % 7) - 3 + k as i32).collect())
            .collect(),
        end_squares: Vec::new(),
        mobility: 5,
        tempo: 15,
        threats: Some([5, 1, 9]),
        toward: (0..kinds).map(|k| vec![0, 9 - k as i32, 4, -2]).collect(),
        guard: (0..kinds).map(|k| vec![0, k as i32, -3]).collect(),
        around_own: (0..kinds)
            .map(|k| {
                (0..AROUND_CELLS)
                    .map(|i| i as i32 - 12 + k as i32)
                    .collect()
            })
            .collect(),
        around_enemy: (0..kinds)
            .map(|k| (0..AROUND_CELLS).map(|i| 3 * k as i32 - i as i32).collect())
            .collect(),
        crowd_own: vec![0, 5, 9, 12],
        crowd_enemy: vec![0, -3, -8],
        network: None,
    }
}

fn write_values(rule_file: &Path, rules: &Rules, weights: &Learned) {
    let text = std::fs::read_to_string(rule_file).unwrap_or_else(|e| panic!("{e}"));
    let header = Header {
        rules: "tiny.var".into(),
        hash: varsand::pgn::text_hash(&text),
    };
    let values = learned::values_path(rule_file);
    std::fs::write(&values, weights.to_text(rules, &header, &[])).unwrap_or_else(|e| panic!("{e}"));
}

/// Learned weights with every kind worth `value` on the board and in hand, and
/// nothing else.
fn flat_weights(rules: &Rules, value: i32) -> Learned {
    let kinds = rules.pieces().len();
    Learned {
        values: vec![value; kinds],
        hand: vec![value; kinds],
        squares: vec![vec![0; rules.cell_count()]; kinds],
        end_squares: Vec::new(),
        mobility: 0,
        tempo: 0,
        threats: None,
        toward: Vec::new(),
        guard: Vec::new(),
        around_own: Vec::new(),
        around_enemy: Vec::new(),
        crowd_own: Vec::new(),
        crowd_enemy: Vec::new(),
        network: None,
    }
}

/// Positions of a few random games.
fn positions(rules: &Arc<Rules>) -> Vec<Position> {
    random_positions(rules, 7, 5)
}

#[test]
fn the_tune_finds_the_queen_worth_more_than_the_wazir() {
    let rules = load(&tiny_text());
    let eval = Arc::new(Eval::new(&rules));
    let (queen, wazir) = (kind(&rules, "Queen"), kind(&rules, "Wazir"));
    assert_eq!(eval.values[queen], eval.values[wazir], "declared equal");
    let opts = SelfPlay {
        games: 40,
        limits: Limits::depth(2),
        seed: 1,
        threads: 2,
        config: GameConfig {
            opening_plies: 4,
            max_plies: 200,
            ..GameConfig::default()
        },
    };
    let games = tune::self_play(&rules, &eval, &opts, &|| {});
    let layout = Layout::new(&rules, false);
    let samples = tune::samples(&layout, &games);
    assert!(samples.len() > 200, "{} positions", samples.len());
    let tuned = tune::tune(
        &rules,
        &layout,
        &samples,
        (games.len(), false),
        &mut |_, _| {},
    );
    let v = &tuned.learned.values;
    assert!(
        v[queen] > v[wazir] + 100,
        "queen {} wazir {}",
        v[queen],
        v[wazir]
    );
    assert!(tuned.loss_after < tuned.loss_before);
    assert!(tuned.value_se[queen].is_some_and(|se| se > 0.0 && se.is_finite()));
    // The royal piece's value is never moved by a position: no error is claimed.
    assert_eq!(tuned.value_se[kind(&rules, "King")], None);
}

/// Where moves have a second part (some 2,000 moves a position in the game of the
/// Amazons, 600 in duck chess), self-play at `tune`'s default depth takes seconds a
/// game. Before, the quiescence search made the whole list at each of its leaves, and
/// the opening scored every move at depth 2: one Amazons game at depth 1 took more
/// than five minutes on the 2-core machine.
#[test]
fn self_play_with_thousands_of_moves_takes_seconds() {
    for (game, max_plies) in [("amazons", 400), ("duck", 40)] {
        let path = format!("{}/variants/{game}.var", env!("CARGO_MANIFEST_DIR"));
        let rules = load(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}")));
        let eval = Arc::new(Eval::new(&rules));
        let opts = SelfPlay {
            games: 1,
            limits: Limits::depth(2),
            seed: 1,
            threads: 1,
            config: GameConfig {
                max_plies,
                ..GameConfig::default()
            },
        };
        let start = std::time::Instant::now();
        let games = tune::self_play(&rules, &eval, &opts, &|| {});
        let took = start.elapsed();
        assert!(games[0].moves.len() > 10, "{game}: {:?}", games[0].moves);
        assert!(took.as_secs() < 60, "{game}: one game took {took:?}");
    }
}

/// The opening's random moves are scored at depth 2, or at depth 1 where a position
/// has more than 300 moves (depth 2 would search their number squared): chess's 20
/// at the start are scored at depth 2, the Amazons' 2,176 at depth 1.
#[test]
fn the_opening_is_scored_at_depth_1_among_thousands_of_moves() {
    for (game, moves, depth) in [("chess", 20, 2), ("amazons", 2176, 1)] {
        let path = format!("{}/variants/{game}.var", env!("CARGO_MANIFEST_DIR"));
        let rules = load(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}")));
        let n = Position::start(rules).legal_moves().len();
        assert_eq!(n, moves, "{game}");
        assert_eq!(varsand::analyze::opening_depth(n), depth, "{game}");
    }
}

/// `--nodes` bounds each self-play search: at depth 64 alone a game would not end.
#[test]
fn tune_takes_a_node_limit_per_move() {
    let file = scratch("nodes");
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_varsand"))
            .args(["tune", "--games", "2", "--threads", "1", "--dry-run"])
            .args(extra)
            .arg(&file)
            .output()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let out = run(&["--depth", "64", "--nodes", "300"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("2 games"));
    let out = run(&["--nodes", "0"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("--nodes"),
        "{stderr}"
    );
}

/// Samples with two features: a queen more or less (`q` = ±1, which sets the scale
/// of the fit) and the mobility difference `x` (±5). With the queen, the first player
/// wins 19 or 15 times in 20, without it 5 or 1: the larger where `more(x)`.
fn mobility_samples(
    rules: &Rules,
    layout: &Layout,
    more: impl Fn(f32) -> bool,
) -> Vec<tune::Sample> {
    let queen = layout.value(kind(rules, "Queen")) as u32;
    (0..2000u32)
        .map(|i| {
            let q: f32 = if (i / 2) % 2 == 0 { 1.0 } else { -1.0 };
            let x: f32 = if i % 2 == 0 { 5.0 } else { -5.0 };
            let wins_in_20 = match (q > 0.0, more(x)) {
                (true, true) => 19,
                (true, false) => 15,
                (false, true) => 5,
                (false, false) => 1,
            };
            let mut features = vec![(queen, q), (layout.mobility() as u32, x)];
            features.sort_unstable_by_key(|&(i, _)| i);
            tune::Sample {
                features,
                result: if (i / 4) % 20 < wins_in_20 { 1.0 } else { 0.0 },
                game: i / 20,
                ply: i % 20,
            }
        })
        .collect()
}

#[test]
fn a_negative_mobility_weight_is_held_at_zero() {
    let rules = load(&tiny_text());
    let layout = Layout::new(&rules, false);
    // More moves, more wins: the weight is fitted freely, above zero.
    let up = mobility_samples(&rules, &layout, |x| x > 0.0);
    let tuned = tune::tune(&rules, &layout, &up, (20, false), &mut |_, _| {});
    assert_eq!(tuned.mobility_unbounded, None);
    assert!(tuned.learned.mobility > 0, "{}", tuned.learned.mobility);
    // Fewer moves, more wins: the fit wants a negative weight; it is held at zero.
    let down = mobility_samples(&rules, &layout, |x| x < 0.0);
    let tuned = tune::tune(&rules, &layout, &down, (20, false), &mut |_, _| {});
    assert!(
        tuned.mobility_unbounded.is_some_and(|w| w < 0.0),
        "{:?}",
        tuned.mobility_unbounded
    );
    assert_eq!(tuned.learned.mobility, 0);
}

#[test]
fn a_values_file_round_trips() {
    let file = scratch("round-trip");
    let rules = load(&tiny_text());
    let weights = some_weights(&rules);
    write_values(&file, &rules, &weights);
    let (read, warning) = learned::load_beside(&rules, &file);
    assert_eq!(warning, None);
    assert_eq!(read.as_ref(), Some(&weights));
    // And the evaluation uses them.
    let eval = learned::eval_beside(&rules, &file);
    assert_eq!(eval.values, weights.values);
    assert_eq!(eval.mobility, 5);
    assert_eq!(eval.tempo, 15);
    assert_eq!(eval.threat_weights, [5, 1, 9]);
}

/// A `threats` line takes three sixteenths, each from 0 to 64: anything else is an
/// error naming the line, and the file is ignored.
#[test]
fn a_threats_line_is_range_checked() {
    let file = scratch("threats-range");
    let rules = load(&tiny_text());
    write_values(&file, &rules, &some_weights(&rules));
    let values = learned::values_path(&file);
    let text = std::fs::read_to_string(&values).unwrap_or_else(|e| panic!("{e}"));
    for (bad, says) in [
        ("threats 5 1", "three numbers"),
        ("threats 5 1 9 2", "three numbers"),
        ("threats 65 1 9", "0 to 64"),
        ("threats 5 -1 9", "0 to 64"),
    ] {
        std::fs::write(&values, text.replace("threats 5 1 9", bad))
            .unwrap_or_else(|e| panic!("{e}"));
        let (read, warning) = learned::load_beside(&rules, &file);
        assert_eq!(read, None, "{bad}");
        let warning = warning.unwrap_or_default();
        assert!(
            warning.contains("line ") && warning.contains(says),
            "{bad}: {warning}"
        );
    }
}

/// Learned weights with the Queen worth 900 and the other kinds 300: only the Queen
/// is worth enough to be counted as threatened (the threat term leaves out the kinds
/// worth less than half as much again as the cheapest).
fn queen_heavy(rules: &Rules, threats: Option<[i32; 3]>) -> Learned {
    let mut weights = flat_weights(rules, 300);
    let queen = kind(rules, "Queen");
    weights.values[queen] = 900;
    weights.hand[queen] = 900;
    Learned { threats, ..weights }
}

/// The threat term weighs the largest threat against the opponent, the largest against
/// the side to move and the second largest by the values file's sixteenths.
#[test]
fn the_threat_term_counts_the_learned_sixteenths() {
    let rules = load(&tiny_text());
    let weighed = |threats: Option<[i32; 3]>, fen: &str| {
        let eval = Eval::with_learned(&rules, &queen_heavy(&rules, threats));
        let pos = Position::from_fen(rules.clone(), fen).unwrap_or_else(|e| panic!("{e}"));
        let term = Threats::new(&rules, &eval);
        (term.threats(&pos), term.score(&pos))
    };
    // The black Wazir on c3 attacks the white Queens on b3 and d3: each stands to lose
    // 900 - 300. White to move: both threats are against it.
    let fen = "k4/5/1QwQ1/5/2K2 w - - 0 1";
    let (threats, default) = weighed(None, fen);
    assert_eq!(threats, [0, 600, 600], "{fen}");
    assert_eq!(default, (-2 * 600 - 12 * 600) / 16);
    let (_, learned) = weighed(Some([16, 0, 8]), fen);
    assert_eq!(learned, -8 * 600 / 16);
    // Black to move: the largest threat is against its opponent.
    let fen = "k4/5/1QwQ1/5/2K2 b - - 0 1";
    let (threats, default) = weighed(None, fen);
    assert_eq!(threats, [600, 0, 0], "{fen}");
    assert_eq!(default, 2 * 600 / 16);
    assert_eq!(weighed(Some([16, 0, 8]), fen).1, 600);
}

/// The threat layout recovers planted weights: positions labelled by an evaluation
/// whose threat term counts the whole of the largest threat against the opponent and
/// of the second against the side to move fit weights near those, far from the
/// defaults.
#[test]
fn the_tune_learns_planted_threat_weights() {
    // The fit finds the threats by the rules' own values: the Queen declared worth 9.
    let text = tiny_text().replace(r#"moves "Q"  value 3"#, r#"moves "Q"  value 9"#);
    assert_ne!(text, tiny_text());
    let rules = load(&text);
    let teacher = Eval::with_learned(&rules, &queen_heavy(&rules, Some([16, 0, 16])));
    let term = Threats::new(&rules, &teacher);
    let layout =
        Layout::with_royal_terms(&rules, true, RoyalTerms::default()).with_threats(&rules, true);
    let samples: Vec<tune::Sample> = (0..20)
        .flat_map(|seed| random_positions(&rules, seed, 8))
        .filter(|pos| !pos.in_check(pos.side_to_move()))
        .enumerate()
        .map(|(i, pos)| {
            let own = f64::from(teacher.evaluate(&pos) + term.score(&pos));
            let first = if pos.side_to_move().is_first() {
                own
            } else {
                -own
            };
            tune::Sample {
                features: layout.features(&pos, 0),
                result: 1.0 / (1.0 + (-first * std::f64::consts::LN_10 / 400.0).exp()),
                game: i as u32 / 30,
                ply: i as u32 % 30,
            }
        })
        .collect();
    let tuned = tune::tune(&rules, &layout, &samples, (5, true), &mut |_, _| {}).learned;
    let [them, us, second] = tuned.threats.unwrap_or_else(|| panic!("not fitted"));
    assert!(them >= 10 && second >= 10 && us <= 6, "{:?}", tuned.threats);
}

#[test]
fn a_stale_values_file_is_ignored_with_a_warning() {
    let file = scratch("stale");
    let rules = load(&tiny_text());
    write_values(&file, &rules, &some_weights(&rules));
    let changed = tiny_text() + "\n// a later edit\n";
    std::fs::write(&file, &changed).unwrap_or_else(|e| panic!("{e}"));
    let (read, warning) = learned::load_beside(&rules, &file);
    assert_eq!(read, None);
    let warning = warning.unwrap_or_default();
    assert!(warning.contains("another text"), "{warning}");
    // The command line says so, and plays with the rules' own evaluation.
    let out = Command::new(env!("CARGO_BIN_EXE_varsand"))
        .args(["analyze", "--games", "1", "--depth", "1"])
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("ignored"), "{stderr}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("learned"));
}

#[test]
fn without_a_values_file_the_evaluation_is_the_rules_own() {
    let file = scratch("none");
    let rules = load(&tiny_text());
    let (read, warning) = learned::load_beside(&rules, &file);
    assert_eq!((read, warning), (None, None));
    let plain = Eval::new(&rules);
    let beside = learned::eval_beside(&rules, &file);
    assert_eq!(plain.values, beside.values);
    assert_eq!(beside.mobility, varsand::search::eval::MOBILITY);
    for pos in positions(&rules) {
        assert_eq!(plain.evaluate(&pos), beside.evaluate(&pos), "{}", pos.fen());
    }
}

#[test]
fn the_command_writes_a_values_file_that_analyze_uses() {
    let file = scratch("command");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_varsand"))
            .args(args)
            .arg(&file)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{args:?}: {stderr}");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let report = run(&["tune", "--games", "8", "--threads", "1"]);
    assert!(report.contains("Queen") && report.contains("±"), "{report}");
    assert!(learned::values_path(&file).exists());
    let analysis = run(&["analyze", "--games", "1", "--depth", "1"]);
    assert!(analysis.contains("learned"), "{analysis}");
    let without = run(&[
        "analyze", "--games", "1", "--depth", "1", "--values", "none",
    ]);
    assert!(!without.contains("learned"), "{without}");
}

/// A teacher's scores replace the games' results: a teacher engine (varsand itself,
/// with a values file that prices the Wazir at a pawn and the Queen at nine) labels
/// the positions, and the fit learns its prices, not the rules' equal ones.
#[test]
fn a_teacher_engine_labels_the_positions() {
    let file = scratch("teacher");
    let rules = load(&tiny_text());
    let queen = kind(&rules, "Queen");
    let mut prices = flat_weights(&rules, 100);
    prices.values[queen] = 900;
    let teacher_values = file.with_file_name("teacher.values");
    write_values(&file, &rules, &prices);
    std::fs::rename(learned::values_path(&file), &teacher_values).unwrap_or_else(|e| panic!("{e}"));
    let teacher = format!(
        "{} uci {} --values {}",
        env!("CARGO_BIN_EXE_varsand"),
        file.display(),
        teacher_values.display()
    );
    let labels = file.with_file_name("tiny.labels");
    let tune_with = |teacher: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_varsand"))
            .args(["tune", "--games", "12", "--threads", "2", "--dry-run"])
            .args(["--teacher", teacher, "--teacher-go", "depth 1", "--labels"])
            .args([&labels, &file])
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{stderr}");
        (String::from_utf8_lossy(&out.stdout).to_string(), stderr)
    };
    let (stdout, stderr) = tune_with(&teacher);
    assert!(stderr.contains("the teacher scores"), "{stderr}");
    // The labels were kept: a second fit reads them, and never starts the teacher.
    let (again, stderr) = tune_with("/nonexistent/engine");
    assert!(!stderr.contains("the teacher scores"), "{stderr}");
    assert_eq!(again, stdout);
    // Labels of other games are refused, not misread.
    let other = Command::new(env!("CARGO_BIN_EXE_varsand"))
        .args(["tune", "--games", "6", "--threads", "2", "--dry-run"])
        .args(["--teacher", "/nonexistent/engine", "--labels"])
        .args([&labels, &file])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let refused = String::from_utf8_lossy(&other.stderr);
    assert!(!other.status.success(), "{refused}");
    assert!(
        refused.contains("labels other games (not `games 6`)"),
        "{refused}"
    );
    let learned_value = |name: &str| -> i32 {
        let line = stdout
            .lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no {name} in {stdout}"));
        line.split_whitespace()
            .nth(3)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{line}"))
    };
    let (q, w) = (learned_value("Queen"), learned_value("Wazir"));
    assert!(q > w + 300, "queen {q}, wazir {w}: {stdout}");
}

/// A teacher that cannot be started, or is given no limits, is a clear error.
#[test]
fn a_broken_teacher_is_a_clear_error() {
    let file = scratch("broken-teacher");
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_varsand"))
            .args(["tune", "--games", "2", "--threads", "1", "--dry-run"])
            .args(extra)
            .arg(&file)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let missing = run(&["--teacher", "/nonexistent/engine"]);
    assert!(
        missing.contains("cannot start `/nonexistent/engine`"),
        "{missing}"
    );
    let no_limits = run(&["--teacher", "true", "--teacher-go", " "]);
    assert!(no_limits.contains("--teacher-go: no limits"), "{no_limits}");
}

/// Learned royal distances (`toward`, `guard`) count where each side has one royal
/// piece: a Queen one step from the enemy King gains `toward`'s entry 1 over the
/// same Queen three steps away, and `guard`'s by its steps to its own King.
#[test]
fn royal_distance_bonuses_follow_the_steps_to_each_royal_piece() {
    let rules = load(&tiny_text());
    let kinds = rules.pieces().len();
    let queen = kind(&rules, "Queen");
    let plain = flat_weights(&rules, 100);
    let mut near = plain.clone();
    near.toward = vec![Vec::new(); kinds];
    near.guard = vec![Vec::new(); kinds];
    near.toward[queen] = vec![0, 50, 20, 5];
    near.guard[queen] = vec![0, 7, 3];
    let gain = |fen: &str| {
        let pos = Position::from_fen(rules.clone(), fen).unwrap_or_else(|e| panic!("{e}"));
        Eval::with_learned(&rules, &near).evaluate(&pos)
            - Eval::with_learned(&rules, &plain).evaluate(&pos)
    };
    // The Queen on b4: one step from the black King on c5, three from its own on c1.
    assert_eq!(gain("2k2/1Q3/5/5/2K2 w - - 0 1"), 50 + 3);
    // On b1: four steps from c5 (the row's last entry repeats), one from c1.
    assert_eq!(gain("2k2/5/5/5/1QK2 w - - 0 1"), 5 + 7);
    // The side to move's point of view.
    assert_eq!(gain("2k2/1Q3/5/5/2K2 b - - 0 1"), -(50 + 3));
}

/// Learned grids around the royal pieces (`around-own`, `around-enemy`) count by
/// where a piece stands relative to each royal piece, seen from its owner's side.
#[test]
fn around_royal_bonuses_follow_the_square_relative_to_each_royal_piece() {
    let rules = load(&tiny_text());
    let kinds = rules.pieces().len();
    let queen = kind(&rules, "Queen");
    let plain = flat_weights(&rules, 100);
    let mut near = plain.clone();
    near.around_own = vec![Vec::new(); kinds];
    near.around_enemy = vec![Vec::new(); kinds];
    near.around_own[queen] = vec![0; AROUND_CELLS];
    near.around_enemy[queen] = vec![0; AROUND_CELLS];
    let square = |dx, dy| learned::around_index(dx, dy).unwrap_or_else(|| panic!("off"));
    // One file left, one rank behind the enemy King (from the Queen's side).
    near.around_enemy[queen][square(-1, -1)] = 40;
    // One file left, one rank ahead of its own King.
    near.around_own[queen][square(-1, 1)] = 9;
    let gain = |fen: &str| {
        let pos = Position::from_fen(rules.clone(), fen).unwrap_or_else(|e| panic!("{e}"));
        Eval::with_learned(&rules, &near).evaluate(&pos)
            - Eval::with_learned(&rules, &plain).evaluate(&pos)
    };
    // The white Queen on b4, beside the black King on c5; its own on c1 is 3 ranks off.
    assert_eq!(gain("2k2/1Q3/5/5/2K2 w - - 0 1"), 40);
    // The black Queen on d2, seen from Black's side: left of and behind the white King.
    assert_eq!(gain("2k2/5/5/3q1/2K2 w - - 0 1"), -40);
    // The white Queen on b2: left of and ahead of its own King on c1.
    assert_eq!(gain("2k2/5/5/1Q3/2K2 w - - 0 1"), 9);
    // Two files off: outside the planted squares.
    assert_eq!(gain("2k2/5/5/Q4/2K2 w - - 0 1"), 0);
    // A crowd bonus by the count of a side's pieces around the enemy King (the
    // Kings themselves not counted): one White piece there, none of Black's.
    let crowded = Learned {
        crowd_enemy: vec![0, 11],
        ..near.clone()
    };
    let pos = Position::from_fen(rules.clone(), "2k2/1Q3/5/5/2K2 w - - 0 1")
        .unwrap_or_else(|e| panic!("{e}"));
    let with_crowd = Eval::with_learned(&rules, &crowded).evaluate(&pos);
    assert_eq!(
        with_crowd - Eval::with_learned(&rules, &near).evaluate(&pos),
        11
    );
}

/// The grid layout recovers a planted grid: positions labelled by an evaluation that
/// prizes a Queen a (1,2) leap in front of the enemy King (two ranks nearer the
/// Queen's side, one file off: no check, which the samples leave out) fit a grid that
/// does too.
#[test]
fn the_tune_learns_a_planted_grid_around_the_royal_pieces() {
    let rules = load(&tiny_text());
    let kinds = rules.pieces().len();
    let queen = kind(&rules, "Queen");
    let mut planted = Learned {
        around_own: vec![Vec::new(); kinds],
        around_enemy: vec![Vec::new(); kinds],
        ..flat_weights(&rules, 300)
    };
    planted.around_enemy[queen] = vec![0; AROUND_CELLS];
    let square = |dx, dy| learned::around_index(dx, dy).unwrap_or_else(|| panic!("off"));
    planted.around_enemy[queen][square(-1, -2)] = 150;
    let around = RoyalTerms {
        distances: false,
        around: true,
    };
    let tuned = fit_to_planted(&rules, around, &planted);
    let grid = &tuned.around_enemy[queen];
    let planted = grid[square(-1, -2)];
    // Its mirror image is tied to it; the other (1,2) leap is not.
    assert_eq!(planted, grid[square(1, -2)]);
    assert!(planted > grid[square(-2, -1)] + 50, "{grid:?}");
}

/// Having the move: an evaluation that gives the side to move 80 centipawns scores
/// every position so much above the one without it, and the fit recovers the term
/// from positions labelled by it.
#[test]
fn the_tune_learns_a_planted_tempo() {
    let rules = load(&tiny_text());
    let planted = Learned {
        tempo: 80,
        ..flat_weights(&rules, 300)
    };
    let with = Eval::with_learned(&rules, &planted);
    let without = Eval::with_learned(&rules, &flat_weights(&rules, 300));
    for pos in positions(&rules) {
        assert_eq!(with.evaluate(&pos) - without.evaluate(&pos), 80);
    }
    let fit = |teacher: &Learned, tempo: bool| {
        let layout =
            Layout::with_royal_terms(&rules, true, RoyalTerms::default()).with_tempo(tempo);
        let samples = taught_samples(&rules, &layout, teacher);
        tune::tune(&rules, &layout, &samples, (5, true), &mut |_, _| {})
            .learned
            .tempo
    };
    let tempo = fit(&planted, true);
    assert!((60..=100).contains(&tempo), "{tempo}");
    let level = fit(&flat_weights(&rules, 300), true);
    assert!(level.abs() <= 10, "{level}");
    // Without `--tempo` it is not fitted.
    assert_eq!(fit(&planted, false), 0);
}

/// The weights a tapered layout with the `royal` terms fits to random games'
/// positions labelled by the evaluation with the `planted` weights.
fn fit_to_planted(rules: &Arc<Rules>, royal: RoyalTerms, planted: &Learned) -> Learned {
    let layout = Layout::with_royal_terms(rules, true, royal);
    let samples = taught_samples(rules, &layout, planted);
    tune::tune(rules, &layout, &samples, (5, true), &mut |_, _| {}).learned
}

/// Samples of random games' positions labelled by the evaluation with `teacher`'s
/// weights (a score read as an expected result, as a teacher's is).
fn taught_samples(rules: &Arc<Rules>, layout: &Layout, teacher: &Learned) -> Vec<tune::Sample> {
    let teacher = Eval::with_learned(rules, teacher);
    (0..20)
        .flat_map(|seed| random_positions(rules, seed, 8))
        .collect::<Vec<_>>()
        .iter()
        .enumerate()
        .filter(|(_, pos)| !pos.in_check(pos.side_to_move()))
        .map(|(i, pos)| {
            let own = f64::from(teacher.evaluate(pos));
            let first = if pos.side_to_move().is_first() {
                own
            } else {
                -own
            };
            tune::Sample {
                features: layout.features(pos, 0),
                result: 1.0 / (1.0 + (-first * std::f64::consts::LN_10 / 400.0).exp()),
                game: i as u32 / 30,
                ply: i as u32 % 30,
            }
        })
        .collect()
}

/// The royal-distance layout recovers planted distances: positions of random games
/// labelled by an evaluation that prizes a Queen two steps from the enemy King fit a
/// `toward` row that does too.
#[test]
fn the_tune_learns_planted_royal_distances() {
    let rules = load(&tiny_text());
    let kinds = rules.pieces().len();
    let queen = kind(&rules, "Queen");
    let mut planted = Learned {
        toward: vec![Vec::new(); kinds],
        guard: vec![Vec::new(); kinds],
        ..flat_weights(&rules, 300)
    };
    planted.toward[queen] = vec![0, 0, 150, 0];
    let distances = RoyalTerms {
        distances: true,
        around: false,
    };
    let tuned = fit_to_planted(&rules, distances, &planted);
    let row = &tuned.toward[queen];
    assert!(row[2] > row[3] + 50 && row[2] > row[4] + 50, "{row:?}");
}

/// Tapered square bonuses (`end-squares`) round-trip, and the evaluation blends them
/// by the material left: with only the royal pieces and one Wazir on the board the end
/// game's bonus counts, with the setup's pieces the middle game's.
#[test]
fn tapered_square_bonuses_round_trip_and_blend_by_the_phase() {
    let file = scratch("tapered");
    let rules = load(&tiny_text());
    let mut weights = some_weights(&rules);
    let cells = rules.cell_count();
    let kinds = rules.pieces().len();
    weights.squares = vec![vec![0; cells]; kinds];
    weights.end_squares = vec![vec![0; cells]; kinds];
    let wazir = kind(&rules, "Wazir");
    weights.end_squares[wazir] = vec![40; cells];
    write_values(&file, &rules, &weights);
    let (read, warning) = learned::load_beside(&rules, &file);
    assert_eq!(warning, None);
    assert_eq!(read.as_ref(), Some(&weights));
    // Against the same weights untapered (no end-game bonus), everything else equal.
    let flat = Learned {
        end_squares: vec![vec![0; cells]; kinds],
        ..weights.clone()
    };
    let (tapered, untapered) = (
        Eval::with_learned(&rules, &weights),
        Eval::with_learned(&rules, &flat),
    );
    let gain = |fen: &str| {
        let pos = Position::from_fen(rules.clone(), fen).unwrap_or_else(|e| panic!("{e}"));
        tapered.evaluate(&pos) - untapered.evaluate(&pos)
    };
    // The end game: the lone Wazir has most of the end-game bonus (all of it but its
    // own share of the setup's material).
    let end = gain("2k2/5/5/5/W1K2 w - - 0 1");
    assert!((30..=40).contains(&end), "{end}");
    // The setup less one black Wazir: nearly all middle game, little of the bonus
    // (the two white Wazirs' against the one black Wazir's).
    let full = gain("wqkq1/5/5/5/WQKQW w - - 0 1");
    assert!((0..10).contains(&full), "{full}");
}

/// Every values file shipped in `variants/` was fitted to its rule file's present
/// text (else it would be ignored with a warning: tune it again).
#[test]
fn shipped_values_files_are_fresh() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("variants");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{e}")) {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        if path.extension().is_none_or(|e| e != "values") {
            continue;
        }
        let rule_file = path.with_extension("var");
        let text = std::fs::read_to_string(&rule_file).unwrap_or_else(|e| panic!("{e}"));
        let rules = load(&text);
        let (read, warning) = learned::load_beside(&rules, &rule_file);
        assert_eq!(warning, None, "{}", path.display());
        assert!(read.is_some(), "{}", path.display());
        seen += 1;
    }
    assert!(seen >= 2, "{seen} values files");
}
