//! The learned network (`varsand tune --network`): it round-trips in the values file,
//! sees both sides alike, refuses malformed lines, learns a planted evaluation better
//! than the values alone can, and the command adds it to a values file (and asks for
//! the values first where there are none).
//!
//! `cargo test --profile checked --test network`.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use common::random_positions;
use varsand::check::Overrides;
use varsand::loader;
use varsand::search::learned::{self, Header, Learned};
use varsand::search::network::{Network, Perspective};
use varsand::search::{Eval, Rng};
use varsand::tune::net::{NetOptions, NetSample, train};
use varsand::{Position, Rules};

fn variant(name: &str) -> String {
    let path = format!("{}/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn load(text: &str) -> Arc<Rules> {
    Arc::new(loader::load(text, &Overrides::new()).unwrap_or_else(|e| panic!("{e:?}")))
}

const TINY: &str = "tests/tune/tiny.var";

/// Weights with nothing but the values of the rules' own evaluation.
fn plain_weights(rules: &Rules) -> Learned {
    let values = Eval::new(rules).values.clone();
    let text = format!(
        "varsand-values 1\nhash x\nmobility 0\n{}",
        (0..rules.pieces().len())
            .map(|k| format!("value {} {}\n", values[k], learned::symbol(rules, k)))
            .collect::<String>()
    );
    Learned::parse(&text, rules)
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

/// A network whose weights are multiples of 1/16 (exact in the file's four decimals),
/// different everywhere.
fn some_network(rules: &Rules, hidden: usize) -> Network {
    let mut net = Network::zeros(rules, Perspective::of(rules), hidden, 300.0);
    let mut rng = Rng::new(5);
    let mut sixteenths = || (rng.below(33) as f32 - 16.0) / 16.0;
    net.w1.iter_mut().for_each(|x| *x = sixteenths());
    net.b1.iter_mut().for_each(|x| *x = sixteenths());
    net.w2.iter_mut().for_each(|x| *x = sixteenths());
    net.b2 = 0.25;
    net
}

#[test]
fn a_network_round_trips_in_the_values_file_and_moves_the_evaluation() {
    let rules = load(&variant(TINY));
    let mut weights = plain_weights(&rules);
    let plain = Eval::with_learned(&rules, &weights);
    weights.network = Some(some_network(&rules, 6));
    let header = Header {
        rules: "tiny.var".into(),
        hash: "fnv1a64:0".into(),
    };
    let text = weights.to_text(&rules, &header, &[]);
    let (read, _) = Learned::parse(&text, &rules).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read, weights);
    let with_net = Eval::with_learned(&rules, &read);
    let net = read
        .network
        .as_ref()
        .unwrap_or_else(|| panic!("no network"));
    let mut moved = 0;
    for pos in random_positions(&rules, 3, 4) {
        let added = net.evaluate(&pos);
        assert_eq!(with_net.evaluate(&pos), plain.evaluate(&pos) + added);
        moved += usize::from(added != 0);
    }
    assert!(moved > 10, "the network moved {moved} evaluations");
}

#[test]
fn the_perspective_follows_the_setup() {
    let of = |file: &str| Perspective::of(&load(&variant(file)));
    // Chess's setup mirrors rank for rank (the kings share a file); shogi's turns.
    assert_eq!(of("variants/chess.var"), Perspective::Flip);
    assert_eq!(of("variants/shogi.var"), Perspective::Turn);
    assert_eq!(of(TINY), Perspective::Flip);
}

/// The side to move's view: a position and its mirror image with the colours and
/// the move swapped get the same output.
#[test]
fn the_network_sees_both_sides_alike() {
    let rules = load(&variant("variants/chess.var"));
    let net = some_network(&rules, 8);
    let pairs = [
        (
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
        ),
        (
            "8/5k2/8/3Pp3/8/2K5/8/8 w - - 0 1",
            "8/8/2k5/8/3pP3/8/5K2/8 b - - 0 1",
        ),
    ];
    for (a, b) in pairs {
        let pa = Position::from_fen(rules.clone(), a).unwrap_or_else(|e| panic!("{e}"));
        let pb = Position::from_fen(rules.clone(), b).unwrap_or_else(|e| panic!("{e}"));
        let out = net.evaluate(&pa);
        assert_ne!(out, 0, "{a}");
        assert_eq!(out, net.evaluate(&pb), "{a} against {b}");
    }
}

#[test]
fn malformed_network_lines_are_errors() {
    let rules = load(&variant(TINY));
    let head = "varsand-values 1\nhash x\n";
    let cases = [
        ("network 0 flip 100\n", "1 to 128 hidden units"),
        ("network 129 flip 100\n", "1 to 128 hidden units"),
        ("network 2 sideways 100\n", "`flip` or `turn`"),
        (
            "network 2 flip\n",
            "takes hidden units, `flip` or `turn`, and a bound",
        ),
        ("network 2 flip 0.5\n", "the bound is 1 to 1000 centipawns"),
        ("network 2 flip 5000\n", "the bound is 1 to 1000 centipawns"),
        ("net-bias 0 0\n", "before the `network` line"),
        (
            "network 2 flip 100\nnet-bias 0 nan\n",
            "`nan` is not a weight",
        ),
        (
            "network 2 flip 100\nnet-bias 0 1e9\n",
            "`1e9` is not a weight",
        ),
        ("network 2 flip 100\nnet-out 0 1\n", "2 numbers, not 3"),
        ("network 2 flip 100\nnet-input own Z\n", "no piece `Z`"),
        ("network 2 flip 100\nnet-input mine K\n", "`own` or `other`"),
        (
            "network 2 flip 100\nnet-input own K\n 0 0\n",
            "the rows end early",
        ),
    ];
    for (lines, expected) in cases {
        let text = format!("{head}{lines}");
        let e = Learned::parse(&text, &rules).expect_err(lines);
        assert!(e.contains(expected), "{lines:?}: {e}");
    }
}

/// Positions labelled by an evaluation with a planted network: the network learned on
/// top of the plain evaluation predicts the held-out labels much better than the plain
/// evaluation does.
#[test]
fn the_network_learns_a_planted_evaluation() {
    let rules = load(&variant(TINY));
    let plain = plain_weights(&rules);
    let mut teacher = plain.clone();
    teacher.network = Some(some_network(&rules, 4));
    let teacher = Eval::with_learned(&rules, &teacher);
    let base = Eval::with_learned(&rules, &plain);
    let shape = Network::zeros(&rules, Perspective::of(&rules), 8, 300.0);
    let samples: Vec<NetSample> = (0..40)
        .flat_map(|seed| random_positions(&rules, seed, 6))
        .enumerate()
        .map(|(i, pos)| {
            let own = f64::from(teacher.evaluate(&pos));
            let first = if pos.side_to_move().is_first() {
                own
            } else {
                -own
            };
            let label = 1.0 / (1.0 + (-first * std::f64::consts::LN_10 / 400.0).exp());
            NetSample::new(&shape, base.evaluate(&pos), &pos, (label, i % 10 == 0))
        })
        .collect();
    let opts = NetOptions {
        hidden: 8,
        bound: 300.0,
        max_epochs: 60,
        seed: 1,
    };
    let (_, report) = train(&rules, &samples, &opts, &mut |_, _, _| {});
    assert!(
        report.held_out_after < report.held_out_before - 0.01,
        "held out: {} before, {} after",
        report.held_out_before,
        report.held_out_after
    );
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("network-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let file = dir.join("tiny.var");
    std::fs::write(&file, variant(TINY)).unwrap_or_else(|e| panic!("{e}"));
    file
}

fn tune_network(file: &PathBuf) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_varsand"))
        .arg("tune")
        .arg(file)
        .args([
            "--games",
            "12",
            "--depth",
            "1",
            "--network",
            "4",
            "--epochs",
            "3",
        ])
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_command_adds_a_network_to_the_values_file() {
    let file = scratch("command");
    // Without values there is nothing to correct: the command says what to run first.
    let out = tune_network(&file);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("fit the values first with `varsand tune"),
        "{err}"
    );
    // With values, it keeps them and adds the network.
    let rules = load(&variant(TINY));
    let mut weights = plain_weights(&rules);
    weights.mobility = 7;
    let header = Header {
        rules: "tiny.var".into(),
        hash: varsand::pgn::text_hash(&variant(TINY)),
    };
    let values = learned::values_path(&file);
    std::fs::write(&values, weights.to_text(&rules, &header, &[]))
        .unwrap_or_else(|e| panic!("{e}"));
    let out = tune_network(&file);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(report.contains("network: 4 hidden units"), "{report}");
    let (read, warning) = learned::load_beside(&rules, &file);
    assert_eq!(warning, None);
    let read = read.unwrap_or_else(|| panic!("no values"));
    assert_eq!(read.network.as_ref().map(|n| n.hidden), Some(4));
    assert_eq!(
        Learned {
            network: None,
            ..read.clone()
        },
        weights
    );
    // Learning it again replaces the network rather than adding a second.
    let out = tune_network(&file);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&values).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(text.matches("\nnetwork ").count(), 1, "{text}");
}
