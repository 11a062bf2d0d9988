//! Perft speed on each shipped variant: the move generator's benchmark.
//! `cargo bench --features bench --bench perft`; nodes per second = nodes / time per iteration.

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use varsand::perft::Perft;
use varsand::{Position, Rules, load_rules};

fn rules(variant: &str) -> Arc<Rules> {
    let src = std::fs::read_to_string(format!("variants/{variant}.var")).unwrap();
    load_rules(&src).unwrap()
}

fn bench(c: &mut Criterion, name: &str, variant: &str, fen: Option<&str>, depth: usize) {
    let rules = rules(variant);
    let mut pos = match fen {
        Some(f) => Position::from_fen(rules, f).unwrap(),
        None => Position::start(rules),
    };
    let mut perft = Perft::new();
    let nodes = perft.count(&mut pos, depth);
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("{name} depth {depth}"), |b| {
        b.iter(|| perft.count(&mut pos, depth))
    });
    group.finish();
}

fn perft(c: &mut Criterion) {
    bench(c, "chess start", "chess", None, 5);
    bench(
        c,
        "chess kiwipete",
        "chess",
        Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"),
        4,
    );
    bench(
        c,
        "jungles and mountains start",
        "jungles_mountains",
        None,
        7,
    );
    bench(c, "monkey queen start", "monkey_queen", None, 4);
    bench(c, "monkey king start", "monkey_king", None, 3);
}

criterion_group!(benches, perft);
criterion_main!(benches);
