//! Grundy sequences of octal games: the rare-value engine against the naive mex, and the
//! period proofs of games with long pre-periods. Each benchmark asserts the published
//! answer it computes.
//!
//! - `naive vs sparse`: Kayles (no sparse space) and .1777 (15 rare heaps) to 20 000 heaps
//!   without the period shortcut: the naive mex is quadratic on both, the rare-value engine
//!   is quadratic on Kayles only;
//! - `prove`: the period of .16 (period 149 459, pre-period 105 351) and .127 (period 4,
//!   pre-period 46 578), computing as far as the Guy–Smith theorem needs;
//! - `kayles to 10^7`: proved at 256 heaps, copied after.
//!
//! The whole-program figures of the issue (CPU time and peak memory for .376, .354, and
//! .1777 to 10⁷, side by side with other programs) come from the example:
//! `cargo run --release -p grundy --example octal -- suite`.
//! Run these with `cargo bench -p grundy --bench octal`.

/// The allocator of the `grundy` binary, so that figures match what users get.
#[global_allocator]
static ALLOCATOR: grundy_alloc::Allocator = grundy_alloc::Allocator;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use grundy::explore::Control;
use grundy::games::HeapFamily;
use grundy::octal::{grundy_sequence, Rules, Solver};

fn naive_vs_sparse(c: &mut Criterion) {
    let mut group = c.benchmark_group("naive vs sparse");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    let len = 20_000u64;
    for code in ["0.77", "0.1777"] {
        let naive = HeapFamily::Octal(code.parse().unwrap());
        let reference = naive.table(len - 1, &Control::default()).unwrap();
        group.bench_with_input(BenchmarkId::new("naive", code), &len, |b, &len| {
            b.iter(|| black_box(naive.table(len - 1, &Control::default()).unwrap()));
        });
        group.bench_with_input(BenchmarkId::new("sparse", code), &len, |b, &len| {
            b.iter(|| {
                let mut solver = Solver::new(&code.parse().unwrap()).with_shortcut(false);
                solver.extend_to(len, &Control::default()).unwrap();
                let g = solver.into_values();
                assert_eq!(
                    u32::from(g.get(len as usize - 1)),
                    reference[len as usize - 1]
                );
                black_box(g)
            });
        });
    }
    group.finish();
}

fn prove(c: &mut Criterion) {
    let mut group = c.benchmark_group("prove");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    for (code, s, p) in [("0.16", 105_351, 149_459), ("0.127", 46_578, 4)] {
        group.bench_function(code, |b| {
            b.iter(|| {
                let mut solver = Solver::new(&code.parse().unwrap());
                let period = solver.prove(1 << 24, &Control::default()).unwrap();
                assert_eq!(
                    (period.preperiod, period.period, period.proved),
                    (s, p, true)
                );
                black_box(period)
            });
        });
    }
    group.finish();
}

fn kayles_to_ten_million(c: &mut Criterion) {
    let mut group = c.benchmark_group("kayles to 10^7");
    group.sample_size(10);
    let kayles: Rules = "0.77".parse().unwrap();
    group.bench_function("0.77", |b| {
        b.iter(|| {
            let g = grundy_sequence(&kayles, 10_000_000, &Control::default()).unwrap();
            assert_eq!(g.get(9_999_999), g.get(71 + (9_999_999 - 71) % 12));
            black_box(g)
        });
    });
    group.finish();
}

criterion_group!(benches, naive_vs_sparse, prove, kayles_to_ten_million);
criterion_main!(benches);
