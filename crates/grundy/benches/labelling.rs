//! The labelling engine against its floor: a plain breadth-first search over the same
//! reverse CSR from the same seeds. Labelling must read every reverse edge of each decided
//! vertex once, as the search reads every reverse edge of each vertex it reaches, so the
//! search is the memory-bound floor. Target: labelling within 1.5× of it.
//!
//! Two graphs, each built once outside the timed loop:
//!
//! - `multiple[2](1000)`: Fibonacci Nim from (1000, 999), acyclic, every position decided;
//! - `random(10^7)`: 10^7 vertices, 5% dead ends, the rest with 1..=8 moves to uniformly
//!   random targets (so cycles), a mix of wins, losses and draws.
//!
//! Throughput is in edges; the graph sizes are printed once so positions/s can be read
//! off too. Run with `cargo bench -p grundy --bench labelling`.
//!
//! Memory: beyond the graphs the engine holds 8 bytes per position (the state word and
//! the queue); with the reverse CSR it needs, 16 bytes per position plus 4 per edge (see
//! `solve::label`). On `random(10^7)` labelling raises the resident set by 6.5 bytes per
//! position (the queue only fills as far as vertices are decided).

/// The allocator of the `grundy` binary, so that figures match what users get.
#[global_allocator]
static ALLOCATOR: grundy_alloc::Allocator = grundy_alloc::Allocator;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use grundy::explore::{explore_indexed, Control, Csr};
use grundy::game::{Game, Outcome, Value};
use grundy::games::Multiple;
use grundy::solve::{label, Labels};

/// Random-graph size, dead-end share (per mille) and seed.
const RANDOM_N: usize = 10_000_000;
const DEAD_END_PER_MILLE: u64 = 50;
const SEED: u64 = 0x6772_756e_6479;
/// Win, loss and draw counts of the random graph, checked by the first run.
const RANDOM_COUNTS: [u64; 3] = [4_782_342, 1_584_651, 3_633_007];
/// The label of vertex 0 of the random graph.
const RANDOM_VERTEX_0: Value = Value::Win(7);

/// A plain breadth-first search backwards from the dead ends of `graph`: a visited flag
/// per vertex and a FIFO queue, every vertex reached once. Returns how many were reached.
fn bfs(graph: &Csr, reverse: &Csr) -> usize {
    let n = graph.len();
    let forward = graph.offsets();
    let offsets = reverse.offsets();
    let targets = reverse.targets();
    let mut visited = vec![false; n];
    let mut queue: Vec<u32> = Vec::with_capacity(n);
    for (v, w) in forward.windows(2).enumerate() {
        if w[0] == w[1] {
            visited[v] = true;
            queue.push(v as u32);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head] as usize;
        head += 1;
        for &p in &targets[offsets[u] as usize..offsets[u + 1] as usize] {
            let seen = &mut visited[p as usize];
            if !*seen {
                *seen = true;
                queue.push(p);
            }
        }
    }
    queue.len()
}

/// Re-verifies labels from the forward graph alone (for games without declared
/// outcomes): a dead end is `Loss(0)`; `Win(r)` has a lost successor and `r` is one more
/// than the least remoteness among them; `Loss(r)` has only won successors and `r` is one
/// more than the greatest; a draw has no lost successor and some drawn one. Remoteness
/// falls along every justifying move, so these local checks pin down the labelling.
fn verify(graph: &Csr, labels: &Labels) {
    for v in 0..graph.len() as u32 {
        let successors = graph.successors(v);
        let mut least_loss = None::<u32>;
        let mut most_win = 0u32;
        let mut draws = false;
        for &c in successors {
            match labels.value(c) {
                Value::Loss(r) => least_loss = Some(least_loss.map_or(r, |l| l.min(r))),
                Value::Win(r) => most_win = most_win.max(r),
                Value::Draw => draws = true,
            }
        }
        let expected = match (successors.is_empty(), least_loss, draws) {
            (true, _, _) => Value::Loss(0),
            (false, Some(r), _) => Value::Win(r + 1),
            (false, None, true) => Value::Draw,
            (false, None, false) => Value::Loss(most_win + 1),
        };
        assert_eq!(labels.value(v), expected, "vertex {v}");
    }
}

/// SplitMix64: a tiny deterministic generator, enough for a benchmark graph.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..bound` (multiply-shift; the bias is far below what matters here).
    fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(bound)) >> 64) as u64
    }
}

/// `n` vertices; a share of dead ends, the others with 1..=8 uniformly random successors.
fn random_graph(n: usize, seed: u64) -> Csr {
    let mut rng = SplitMix(seed);
    let mut offsets = Vec::with_capacity(n + 1);
    let mut targets = Vec::with_capacity(n * 9 / 2);
    offsets.push(0u64);
    for _ in 0..n {
        if rng.below(1000) >= DEAD_END_PER_MILLE {
            let degree = 1 + rng.below(8);
            for _ in 0..degree {
                targets.push(rng.below(n as u64) as u32);
            }
        }
        offsets.push(targets.len() as u64);
    }
    Csr::from_parts(offsets, targets).expect("a well-formed graph")
}

fn control() -> Control<'static> {
    Control {
        max_positions: u64::MAX >> 1,
        ..Control::default()
    }
}

/// Fibonacci Nim from `(n, n - 1)`, explored through its index: the game, its positions,
/// its move graph and the reverse.
fn fibonacci_nim(n: u64) -> (Multiple, Vec<(u64, u64)>, Csr, Csr) {
    let game = Multiple {
        k: 2,
        max_stones: n,
    };
    let explored = explore_indexed(&game, &(n, n - 1), &control()).unwrap();
    let reverse = explored.graph.reverse();
    (game, explored.positions, explored.graph, reverse)
}

/// Labels an explored game with its own terminal outcomes, as `solve` does.
fn label_game(game: &Multiple, positions: &[(u64, u64)], graph: &Csr, reverse: &Csr) -> Labels {
    label(
        graph,
        reverse,
        |v| game.terminal(&positions[v as usize]),
        &control(),
    )
    .unwrap()
}

/// One graph to time: the labelling, checked in full once and cheaply on every run, and
/// the search over the same reverse graph.
struct Case<'a> {
    name: &'a str,
    graph: &'a Csr,
    reverse: &'a Csr,
    run: &'a dyn Fn() -> Labels,
    check: &'a dyn Fn(&Labels),
    check_each: &'a dyn Fn(&Labels),
}

fn side_by_side(c: &mut Criterion, case: &Case<'_>) {
    let (graph, reverse) = (case.graph, case.reverse);
    let n = graph.len();
    let edges = graph.edge_count();
    let labels = (case.run)();
    let counts = labels.counts();
    (case.check)(&labels);
    verify(graph, &labels);
    let reached = bfs(graph, reverse);
    assert!(reached as u64 >= counts[0] + counts[1]);
    eprintln!(
        "{}: {n} positions, {edges} edges; win {} loss {} draw {}; bfs reaches {reached}",
        case.name, counts[0], counts[1], counts[2]
    );
    drop(labels);

    let mut group = c.benchmark_group(case.name);
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(edges as u64));
    group.bench_function(BenchmarkId::new("label", n), |b| {
        b.iter(|| {
            let labels = (case.run)();
            (case.check_each)(&labels);
            labels
        });
    });
    group.bench_function(BenchmarkId::new("bfs-floor", n), |b| {
        b.iter(|| {
            let r = bfs(black_box(graph), black_box(reverse));
            assert_eq!(r, reached);
            r
        });
    });
    group.finish();
}

fn multiple(c: &mut Criterion) {
    // 987 is a Fibonacci number: the first player loses; 1000 is not: they win.
    let (game, positions, graph, reverse) = fibonacci_nim(987);
    let labels = label_game(&game, &positions, &graph, &reverse);
    assert_eq!(labels.value(0).outcome(), Outcome::Loss);
    drop((labels, positions, graph, reverse));

    let (game, positions, graph, reverse) = fibonacci_nim(1000);
    let root_is_won = |labels: &Labels| assert_eq!(labels.value(0).outcome(), Outcome::Win);
    side_by_side(
        c,
        &Case {
            name: "labelling/multiple[2](1000)",
            graph: &graph,
            reverse: &reverse,
            run: &|| label_game(&game, &positions, black_box(&graph), black_box(&reverse)),
            check: &root_is_won,
            check_each: &root_is_won,
        },
    );
}

fn random(c: &mut Criterion) {
    let graph = random_graph(RANDOM_N, SEED);
    let reverse = graph.reverse();
    side_by_side(
        c,
        &Case {
            name: "labelling/random(10^7)",
            graph: &graph,
            reverse: &reverse,
            run: &|| {
                label(
                    black_box(&graph),
                    black_box(&reverse),
                    |_| None::<Outcome>,
                    &control(),
                )
                .unwrap()
            },
            check: &|labels| assert_eq!(labels.counts(), RANDOM_COUNTS),
            // A full count would add a pass over the state to the timing; vertex 0 will do.
            check_each: &|labels| assert_eq!(labels.value(0), RANDOM_VERTEX_0),
        },
    );
}

criterion_group!(benches, multiple, random);
criterion_main!(benches);
