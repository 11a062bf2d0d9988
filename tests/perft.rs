//! Perft against published counts, read from `tests/perft/*.perft`.
//!
//! The default run checks every case up to `QUICK_NODES` leaves, verifying after every
//! unmake that the position and its hash are restored; `cargo test --profile checked -- --ignored`
//! runs the deep cases too.

mod common;

use std::sync::Arc;

use varsand::check::Overrides;
use varsand::perft::Perft;
use varsand::{Position, Rules};

const QUICK_NODES: u64 = 1_500_000;

/// Composed positions that cannot arise in a game: the side not to move is in check
/// (a chariot attacks the enemy general with the chariot's side to move). Perft counts
/// them all the same (`varsand perft --fen` reads any position), and `varsand play`
/// takes them with `--any-position`.
const COMPOSED: &[&str] = &["xiangqi pinned_file", "janggi cannons_lines"];

struct Case {
    id: String,
    fen: Option<String>,
    moves: Option<String>,
    set: Overrides,
    depths: Vec<(usize, u64)>,
}

fn cases(file: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut out: Vec<Case> = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => out.push(Case {
                id: rest.into(),
                fen: None,
                moves: None,
                set: Overrides::new(),
                depths: vec![],
            }),
            "set" => {
                let (k, v) = rest.split_once('=').unwrap();
                out.last_mut()
                    .unwrap()
                    .set
                    .insert(k.into(), v.parse().unwrap());
            }
            "fen" => out.last_mut().unwrap().fen = Some(rest.into()),
            "moves" => out.last_mut().unwrap().moves = Some(rest.into()),
            "perft" => {
                let (d, n) = rest.split_once(' ').unwrap();
                out.last_mut()
                    .unwrap()
                    .depths
                    .push((d.parse().unwrap(), n.replace(',', "").parse().unwrap()));
            }
            _ => panic!("{file}: unknown line {line}"),
        }
    }
    out
}

fn rules(variant: &str, set: &Overrides) -> Arc<Rules> {
    common::rules_with(&format!("variants/{variant}.var"), set)
}

/// Runs the cases of `tests/perft/{name}.perft` on `variants/{variant}.var`.
pub fn run(variant: &str, name: &str, deep: bool) {
    let mut ran = 0;
    for case in cases(&format!("tests/perft/{name}.perft")) {
        let rules = rules(variant, &case.set);
        let mut pos = match &case.fen {
            Some(f) => {
                Position::from_fen(rules.clone(), f).unwrap_or_else(|e| panic!("{}: {e}", case.id))
            }
            None => Position::start(rules.clone()),
        };
        for m in case.moves.iter().flat_map(|m| m.split_whitespace()) {
            pos.play(m).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        }
        // Every position of the suites can arise in a game (`varsand play --fen` and
        // `position` accept it without `--any-position`), but for the composed ones.
        let wrong = pos.impossibilities();
        let composed = COMPOSED.contains(&format!("{name} {}", case.id).as_str());
        assert_eq!(wrong.is_empty(), !composed, "{name} {}: {wrong:?}", case.id);
        for &(depth, expected) in &case.depths {
            let quick = expected <= QUICK_NODES;
            if quick == deep {
                continue;
            }
            let mut perft = Perft::new();
            perft.verify = !deep;
            let got = perft.count(&mut pos, depth);
            assert_eq!(got, expected, "{name} {} perft {depth}", case.id);
            ran += 1;
        }
    }
    assert!(deep || ran > 0, "no quick case in {name}");
}

/// A quick and a deep test per variant, reading `tests/perft/{variant}.perft`.
macro_rules! perft_suites {
    ($($variant:ident: $quick:ident, $deep:ident;)*) => {
        $(
            #[test]
            fn $quick() {
                run(stringify!($variant), stringify!($variant), false);
            }

            #[test]
            #[ignore = "deep: cargo test --profile checked -- --ignored"]
            fn $deep() {
                run(stringify!($variant), stringify!($variant), true);
            }
        )*
    };
}

perft_suites! {
    chess: chess_quick, chess_deep;
    jungles_mountains: jungles_mountains_quick, jungles_mountains_deep;
    monkey_queen: monkey_queen_quick, monkey_queen_deep;
    monkey_king: monkey_king_quick, monkey_king_deep;
    capablanca: capablanca_quick, capablanca_deep;
    shogi: shogi_quick, shogi_deep;
    minishogi: minishogi_quick, minishogi_deep;
    crazyhouse: crazyhouse_quick, crazyhouse_deep;
    breakthrough: breakthrough_quick, breakthrough_deep;
    racingkings: racingkings_quick, racingkings_deep;
    shatranj: shatranj_quick, shatranj_deep;
    makruk: makruk_quick, makruk_deep;
    grand: grand_quick, grand_deep;
    xiangqi: xiangqi_quick, xiangqi_deep;
    janggi: janggi_quick, janggi_deep;
    antichess: antichess_quick, antichess_deep;
    losers: losers_quick, losers_deep;
    checkshogi: checkshogi_quick, checkshogi_deep;
    threekings: threekings_quick, threekings_deep;
    kyotoshogi: kyotoshogi_quick, kyotoshogi_deep;
    torishogi: torishogi_quick, torishogi_deep;
    spartan: spartan_quick, spartan_deep;
    atomic: atomic_quick, atomic_deep;
    dobutsu: dobutsu_quick, dobutsu_deep;
    flipello: flipello_quick, flipello_deep;
    ataxx: ataxx_quick, ataxx_deep;
    seirawan: seirawan_quick, seirawan_deep;
    placement: placement_quick, placement_deep;
    amazons: amazons_quick, amazons_deep;
    duck: duck_quick, duck_deep;
    sittuyin: sittuyin_quick, sittuyin_deep;
}

/// Three-check: its file name is not a Rust name, so its suite is written out.
#[test]
fn three_check_quick() {
    run("3check", "3check", false);
}

#[test]
#[ignore = "deep: cargo test --profile checked -- --ignored"]
fn three_check_deep() {
    run("3check", "3check", true);
}
