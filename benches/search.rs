//! Search and random-playout speed on chess and Monkey Queen.
//! `cargo bench --features bench --bench search`; the throughput is search nodes (or playouts) per second.

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use varsand::analyze::{self, GameConfig, Player};
use varsand::search::{Eval, Limits, Searcher};
use varsand::{Position, Rules, load_rules};

fn rules(variant: &str) -> Arc<Rules> {
    let src = std::fs::read_to_string(format!("variants/{variant}.var")).unwrap();
    load_rules(&src).unwrap()
}

/// A fixed-depth search from a fresh table: nodes per second.
fn search(c: &mut Criterion, name: &str, variant: &str, fen: Option<&str>, depth: u32) {
    let rules = rules(variant);
    let mut pos = match fen {
        Some(f) => Position::from_fen(rules.clone(), f).unwrap(),
        None => Position::start(rules.clone()),
    };
    let mut searcher = Searcher::with_tt_mb(rules.clone(), 16);
    let limits = Limits::depth(depth);
    searcher.clear();
    let nodes = searcher.search(&mut pos, &limits).nodes;
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("{name} depth {depth}"), |b| {
        b.iter(|| {
            searcher.clear();
            searcher.search(&mut pos, &limits)
        })
    });
    group.finish();
}

/// Uniformly random games to the end (capped at 1000 plies): playouts per second.
fn playouts(c: &mut Criterion, name: &str, variant: &str) {
    const GAMES: u64 = 20;
    let rules = rules(variant);
    let eval = Arc::new(Eval::new(&rules));
    let config = GameConfig::default();
    let players = [Player::Random, Player::Random];
    let mut group = c.benchmark_group("random playouts");
    group.sample_size(10);
    group.throughput(Throughput::Elements(GAMES));
    let mut seed = 0;
    group.bench_function(format!("{name} x{GAMES}"), |b| {
        b.iter(|| {
            let mut plies = 0;
            for _ in 0..GAMES {
                seed += 1;
                plies += analyze::play_game(&rules, &eval, &players, seed, &config).plies;
            }
            plies
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    search(c, "chess start", "chess", None, 7);
    search(
        c,
        "chess kiwipete",
        "chess",
        Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"),
        5,
    );
    search(c, "monkey queen start", "monkey_queen", None, 4);
    playouts(c, "chess", "chess");
    playouts(c, "monkey queen", "monkey_queen");
}

criterion_group!(search_benches, benches);
criterion_main!(search_benches);
