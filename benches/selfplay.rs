//! Self-play scaling: the CPU time (user + system, of the whole process) of the same
//! games on one thread and on two. `cargo bench --features bench --bench selfplay`.
//!
//! Threads that share nothing on the hot path do the same work in the same CPU time,
//! so each game's "2 threads" figure should match its "1 thread" one (the issue's
//! criterion: at most 5% more). A cache line every thread writes (a reference count, a
//! counter, a lock) shows as a larger figure on two threads. Criterion times each
//! batch by the process's CPU time here (`getrusage`), not by the wall clock.
//! `reference/selfplay_scaling.py` measures every shipped game the same way from the
//! command line.

use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use varsand::analyze::{self, GameConfig, Options};
use varsand::search::Limits;
use varsand::{Rules, load_rules};

fn rules(variant: &str) -> Arc<Rules> {
    let src = std::fs::read_to_string(format!("variants/{variant}.var")).unwrap();
    load_rules(&src).unwrap()
}

/// The CPU time this process has used so far, all threads together.
fn cpu_time() -> Duration {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// `games` games of `variant` (random playouts without `depth`), on one thread and
/// on two: CPU time per batch.
fn scaling(c: &mut Criterion, variant: &str, depth: Option<u32>, games: usize) {
    let rules = rules(variant);
    let what = depth.map_or("random".to_string(), |d| format!("search depth {d}"));
    let mut group = c.benchmark_group(format!("self-play CPU time, {what}"));
    group.sample_size(10);
    group.throughput(Throughput::Elements(games as u64));
    for threads in [1, 2] {
        let opts = Options {
            games,
            limits: depth.map(Limits::depth),
            threads,
            seed: 1,
            config: GameConfig::default(),
            progress: false,
            versus_random: false,
        };
        group.bench_function(format!("{variant}, {threads} thread(s)"), |b| {
            b.iter_custom(|iters| {
                let start = cpu_time();
                for _ in 0..iters {
                    analyze::analyze(&rules, &opts);
                }
                cpu_time() - start
            })
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    for variant in [
        "chess",
        "monkey_king",
        "monkey_queen",
        "jungles_mountains",
        "shogi",
    ] {
        scaling(c, variant, None, 200);
    }
    // Two games a batch: a batch of a slower game (Monkey King Chess takes about 15 s a
    // game at depth 4) would make the bench take many minutes.
    for variant in ["chess", "jungles_mountains"] {
        scaling(c, variant, Some(4), 2);
    }
}

criterion_group!(selfplay_benches, benches);
criterion_main!(selfplay_benches);
