//! The parity solvers, timed on what they must be good at:
//!
//! - `set/*`: the whole shared benchmark folder (`shared/benchmarks/parity`: 224 Oink tests and
//!   285 SYNTCOMP games), parsed once, solved file after file — total time per algorithm, and
//!   per preprocessing option switched off (tangle learning);
//! - `random/*`: random games of 10^5 vertices (out-degree 2–5, priorities `0..n`, no
//!   self-loops), with and without preprocessing; 10^6 with `GRUNDY_BENCH_LARGE=1`; and a
//!   sparse one (out-degree 1–2) where tangle learning pays;
//! - `family/*`: a long ladder and deep nested cycles (10^5), and the exponential families for
//!   Zielonka's algorithm of Friedmann and of Gazda–Willemse at a size Zielonka still solves.
//!
//! Every answer is checked before it is timed: each algorithm's first solution passes the
//! certificate checker and all algorithms agree; the timed loops assert the number of
//! vertices player 0 wins. Peak memory is measured per process with the
//! `parity_bench` example (see its docs). Run with `cargo bench -p grundy --bench parity`.

/// The allocator of the `grundy` binary, so that figures match what users get.
#[global_allocator]
static ALLOCATOR: grundy_alloc::Allocator = grundy_alloc::Allocator;

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use grundy::explore::Control;
use grundy::graph::parity::generate;
use grundy::graph::{
    parse_detect, solve_parity_with, verify_parity, Arena, ParityAlgorithm, ParityOptions,
};

/// No preprocessing beyond dead ends.
const BARE: ParityOptions = ParityOptions {
    self_loops: false,
    cycles: false,
    scc: false,
    compress: false,
};

#[path = "support/files.rs"]
mod files;
use files::{files_under, BENCH};

/// How many vertices player 0 wins.
fn wins0(arena: &Arena, algorithm: ParityAlgorithm, options: &ParityOptions) -> usize {
    let s = solve_parity_with(arena, algorithm, options, &Control::default())
        .expect("no limits are set");
    s.winner.iter().filter(|&&w| w == 0).count()
}

/// Solves `arena` once with every algorithm, checks each answer and their agreement, and
/// returns how many vertices player 0 wins.
fn checked(arena: &Arena, options: &ParityOptions) -> usize {
    let mut first: Option<Vec<u8>> = None;
    for algorithm in ParityAlgorithm::ALL {
        let s = solve_parity_with(arena, algorithm, options, &Control::default())
            .expect("no limits are set");
        verify_parity(arena, &s.winner, &s.strategy)
            .unwrap_or_else(|e| panic!("{algorithm}: rejected: {e}"));
        match &first {
            None => first = Some(s.winner),
            Some(w) => assert_eq!(w, &s.winner, "{algorithm} disagrees"),
        }
    }
    first
        .expect("at least one algorithm")
        .iter()
        .filter(|&&w| w == 0)
        .count()
}

fn set(c: &mut Criterion) {
    let mut files = Vec::new();
    files_under(Path::new(BENCH), &mut files);
    if files.is_empty() {
        eprintln!("note: {BENCH} not found; skipping the benchmark-set group");
        return;
    }
    let arenas: Vec<Arena> = files
        .iter()
        .map(|p| {
            let text = grundy_io::read_text(p).unwrap_or_else(|e| panic!("{e}"));
            let (_, a) = parse_detect(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let _ = a.reverse();
            a
        })
        .collect();
    let want: usize = arenas
        .iter()
        .map(|a| checked(a, &ParityOptions::default()))
        .sum();
    let vertices: usize = arenas.iter().map(Arena::len).sum();
    eprintln!(
        "benchmark set: {} games, {vertices} vertices, player 0 wins {want}",
        arenas.len()
    );
    let total = |algorithm, options: &ParityOptions| -> usize {
        arenas.iter().map(|a| wins0(a, algorithm, options)).sum()
    };
    let mut g = c.benchmark_group("set");
    g.sample_size(20).measurement_time(Duration::from_secs(10));
    for algorithm in ParityAlgorithm::ALL {
        g.bench_function(algorithm.name(), |b| {
            b.iter(|| assert_eq!(black_box(total(algorithm, &ParityOptions::default())), want));
        });
    }
    let off = [
        (
            "no-self-loops",
            ParityOptions {
                self_loops: false,
                ..ParityOptions::default()
            },
        ),
        (
            "no-cycles",
            ParityOptions {
                cycles: false,
                ..ParityOptions::default()
            },
        ),
        (
            "no-scc",
            ParityOptions {
                scc: false,
                ..ParityOptions::default()
            },
        ),
        (
            "no-compress",
            ParityOptions {
                compress: false,
                ..ParityOptions::default()
            },
        ),
        ("bare", BARE),
    ];
    for algorithm in ParityAlgorithm::ALL {
        for (name, options) in &off {
            g.bench_function(BenchmarkId::new(format!("{algorithm}"), name), |b| {
                b.iter(|| assert_eq!(black_box(total(algorithm, options)), want));
            });
        }
    }
    g.finish();
}

fn random(c: &mut Criterion) {
    let mut sizes = vec![(100_000usize, 50_308usize)];
    if std::env::var_os("GRUNDY_BENCH_LARGE").is_some() {
        sizes.push((1_000_000, 501_391));
    }
    let mut g = c.benchmark_group("random");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for (n, want) in sizes {
        let arena = generate::RandomGame::new(n).build();
        let _ = arena.reverse();
        assert_eq!(checked(&arena, &ParityOptions::default()), want);
        for algorithm in ParityAlgorithm::ALL {
            for (name, options) in [("default", ParityOptions::default()), ("bare", BARE)] {
                if algorithm == ParityAlgorithm::Fpj && name == "bare" {
                    // Fixpoint iteration needs minutes on a bare random game of 10^5 vertices
                    // (as Oink's fpj does): the winner-controlled cycles are what solve it.
                    continue;
                }
                g.bench_function(BenchmarkId::new(format!("{algorithm}/{name}"), n), |b| {
                    b.iter(|| assert_eq!(black_box(wins0(&arena, algorithm, &options)), want));
                });
            }
        }
    }
    // Sparse random games (out-degree 1–2): here tangles matter, and tangle learning is
    // several times faster than Zielonka; fixpoint iteration takes minutes and is left out.
    let arena = generate::RandomGame {
        min_degree: 1,
        max_degree: 2,
        ..generate::RandomGame::new(100_000)
    }
    .build();
    let _ = arena.reverse();
    let mut want = None;
    for algorithm in [ParityAlgorithm::Zielonka, ParityAlgorithm::Tangle] {
        let s = solve_parity_with(
            &arena,
            algorithm,
            &ParityOptions::default(),
            &Control::default(),
        )
        .expect("no limits are set");
        verify_parity(&arena, &s.winner, &s.strategy)
            .unwrap_or_else(|e| panic!("{algorithm}: rejected: {e}"));
        let w = s.winner.iter().filter(|&&x| x == 0).count();
        assert_eq!(*want.get_or_insert(w), w, "{algorithm} disagrees");
    }
    let want = want.expect("two algorithms ran");
    for algorithm in [ParityAlgorithm::Zielonka, ParityAlgorithm::Tangle] {
        g.bench_function(
            BenchmarkId::new(format!("{algorithm}/sparse"), 100_000),
            |b| {
                b.iter(|| {
                    assert_eq!(
                        black_box(wins0(&arena, algorithm, &ParityOptions::default())),
                        want
                    );
                });
            },
        );
    }
    g.finish();
}

fn family(c: &mut Criterion) {
    let games = [
        ("ladder", generate::ladder(100_000)),
        ("nested", generate::nested_cycles(100_000)),
        ("friedmann", generate::friedmann(14)),
        ("gazda-willemse", generate::gazda_willemse(14)),
    ];
    let mut g = c.benchmark_group("family");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (name, arena) in &games {
        let _ = arena.reverse();
        let want = checked(arena, &ParityOptions::default());
        for algorithm in ParityAlgorithm::ALL {
            g.bench_function(BenchmarkId::new(format!("{algorithm}"), name), |b| {
                b.iter(|| {
                    assert_eq!(
                        black_box(wins0(arena, algorithm, &ParityOptions::default())),
                        want
                    );
                });
            });
        }
    }
    g.finish();
}

criterion_group!(benches, set, random, family);
criterion_main!(benches);
