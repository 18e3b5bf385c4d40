//! Parity solvers end to end: every algorithm, with and without preprocessing, agrees with the
//! brute-force reference on thousands of small random arenas and passes the certificate
//! checker; every game of the shared benchmark folder is solved by every algorithm, checked,
//! and the algorithms agree; deep and structured families are solved without running out of
//! stack.
//!
//! The whole benchmark folder is swept in the default run, with the default pipeline and with
//! the bare solvers; every option set on it and 10^6-vertex games are `#[ignore]`d (run them
//! with `cargo test -p grundy --release --test parity -- --ignored`).

mod common;
use common::bench_files;

use std::path::Path;
use std::sync::atomic::AtomicBool;

use grundy::explore::Control;
use grundy::graph::brute;
use grundy::graph::parity::generate;
use grundy::graph::{
    parse_detect, solve_parity, solve_parity_with, verify_parity, Arena, ArenaBuilder,
    ParityAlgorithm, ParityOptions,
};
use proptest::prelude::*;

/// No preprocessing beyond dead ends: the algorithms see the whole game.
const BARE: ParityOptions = ParityOptions {
    self_loops: false,
    cycles: false,
    scc: false,
    compress: false,
};

/// Every option set worth telling apart.
fn option_sets() -> Vec<ParityOptions> {
    (0..16u8)
        .map(|m| ParityOptions {
            self_loops: m & 1 != 0,
            cycles: m & 2 != 0,
            scc: m & 4 != 0,
            compress: m & 8 != 0,
        })
        .collect()
}

/// Random arenas of 1..=`max_n` vertices: random owners, priorities `0..priorities`, out-degree
/// 1..=`max_degree` (0 with probability about `dead_ends`/8 when allowed).
fn arenas(
    max_n: u32,
    max_degree: u32,
    priorities: u32,
    dead_ends: u32,
) -> impl Strategy<Value = Arena> {
    (1..=max_n).prop_flat_map(move |n| {
        let vertex = (
            0..2u8,
            0..priorities,
            0..8u32,
            prop::collection::vec(0..n, 1..=max_degree as usize),
        );
        prop::collection::vec(vertex, n as usize).prop_map(move |vs| {
            let mut b = ArenaBuilder::new();
            for (owner, priority, dice, succ) in vs {
                if dice < dead_ends {
                    b.push(owner, priority, []);
                } else {
                    b.push(owner, priority, succ);
                }
            }
            b.build().expect("generated arenas are well formed")
        })
    })
}

/// Solves `arena` with `algorithm` and `options`, checks the certificate, returns the winners.
fn solve_checked(arena: &Arena, algorithm: ParityAlgorithm, options: &ParityOptions) -> Vec<u8> {
    let s = solve_parity_with(arena, algorithm, options, &Control::default())
        .unwrap_or_else(|e| panic!("{algorithm} {options:?}: {e}"));
    if let Err(e) = verify_parity(arena, &s.winner, &s.strategy) {
        panic!("{algorithm} {options:?}: rejected: {e}\n{arena:?}");
    }
    s.winner
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Default pipeline and bare solvers against brute force; some dead ends.
    #[test]
    fn solvers_match_brute_force(a in arenas(9, 3, 6, 1)) {
        let want = brute::solve_parity(&a).unwrap().winner;
        for algorithm in ParityAlgorithm::ALL {
            for options in [ParityOptions::default(), BARE] {
                prop_assert_eq!(&solve_checked(&a, algorithm, &options), &want);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Every option combination, with more priorities and no dead ends (so that the solvers,
    /// not the dead-end attractor, decide most vertices).
    #[test]
    fn every_option_set_matches_brute_force(a in arenas(8, 3, 8, 0)) {
        let want = brute::solve_parity(&a).unwrap().winner;
        for algorithm in ParityAlgorithm::ALL {
            for options in option_sets() {
                prop_assert_eq!(&solve_checked(&a, algorithm, &options), &want);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The shared benchmark folder
// ---------------------------------------------------------------------------------------------

fn load(path: &Path) -> Arena {
    let text = grundy_io::read_text(path).unwrap_or_else(|e| panic!("{e}"));
    parse_detect(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .1
}

/// Every algorithm solves every file under `options`, each answer passes the checker, and
/// all agree. Returns the number of files.
fn sweep(sub: &str, options: &ParityOptions, min_files: usize) -> usize {
    let Some(files) = bench_files(sub) else {
        return 0;
    };
    assert!(
        files.len() >= min_files,
        "{sub}: only {} files",
        files.len()
    );
    for path in &files {
        let arena = load(path);
        let mut first: Option<Vec<u8>> = None;
        for algorithm in ParityAlgorithm::ALL {
            let s = solve_parity_with(&arena, algorithm, options, &Control::default())
                .unwrap_or_else(|e| panic!("{}: {algorithm}: {e}", path.display()));
            if let Err(e) = verify_parity(&arena, &s.winner, &s.strategy) {
                panic!("{}: {algorithm} {options:?}: rejected: {e}", path.display());
            }
            match &first {
                None => first = Some(s.winner),
                Some(w) => assert_eq!(w, &s.winner, "{}: {algorithm}", path.display()),
            }
        }
    }
    files.len()
}

#[test]
fn oink_tests_default_pipeline() {
    sweep("oink-tests", &ParityOptions::default(), 200);
}

#[test]
fn oink_tests_bare_solvers() {
    sweep("oink-tests", &BARE, 200);
}

#[test]
fn syntcomp_default_pipeline() {
    sweep("syntcomp", &ParityOptions::default(), 250);
}

#[test]
fn syntcomp_bare_solvers() {
    sweep("syntcomp", &BARE, 250);
}

/// Every option set on the whole benchmark folder, and large random games with their
/// certificates checked: `cargo test -p grundy --release --test parity -- --ignored`.
#[test]
#[ignore]
fn heavy_every_option_set_and_large_games() {
    for options in option_sets() {
        sweep("oink-tests", &options, 200);
        sweep("syntcomp", &options, 250);
    }
    for n in [100_000, 1_000_000] {
        let arena = generate::RandomGame::new(n).build();
        for options in [ParityOptions::default(), BARE] {
            let a = solve_checked(&arena, ParityAlgorithm::Zielonka, &options);
            let b = solve_checked(&arena, ParityAlgorithm::Tangle, &options);
            assert_eq!(a, b);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Families and limits
// ---------------------------------------------------------------------------------------------

/// Zielonka's recursion as deep as the number of priorities: a chain `i → i - 1` with
/// priority `i`, closed by a self-loop at 0, solved without preprocessing (which would make
/// it trivial). A recursive implementation would overflow a test thread's 2 MiB stack here.
#[test]
fn deep_recursion_does_not_overflow() {
    let n = 20_000u32;
    let mut b = ArenaBuilder::new();
    b.push(0, 0, [0]);
    for i in 1..n {
        b.push((i % 2) as u8, i, [i - 1]);
    }
    let arena = b.build().unwrap();
    for algorithm in ParityAlgorithm::ALL {
        let w = solve_checked(&arena, algorithm, &BARE);
        assert!(
            w.iter().all(|&x| x == 0),
            "{algorithm}: 0 wins the loop at 0"
        );
    }
}

#[test]
fn structured_families_agree() {
    let games = [
        generate::ladder(500),
        generate::nested_cycles(500),
        generate::friedmann(12),
        generate::gazda_willemse(12),
        generate::RandomGame::new(3000).build(),
        generate::RandomGame {
            priorities: 8,
            min_degree: 1,
            max_degree: 3,
            ..generate::RandomGame::new(3000)
        }
        .build(),
    ];
    for arena in &games {
        for options in [ParityOptions::default(), BARE] {
            let a = solve_checked(arena, ParityAlgorithm::Zielonka, &options);
            let b = solve_checked(arena, ParityAlgorithm::Tangle, &options);
            assert_eq!(a, b);
        }
    }
}

/// `arena` reshaped like the synthesis games of the benchmark set: player 1 owns every
/// fifth vertex, and player 0's moves all lead to player 1 (a move to `w` goes to the
/// multiple of five at or below `w`), so player 0 has no cycles of its own.
fn synthesis_like(arena: &Arena) -> Arena {
    let mut b = ArenaBuilder::new();
    for v in arena.vertices() {
        let owner = u8::from(v % 5 == 0);
        // A quarter of player 1's vertices have a first move to player 1, so it has a few cycles
        // to find.
        let mut succ: Vec<u32> = arena
            .successors(v)
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                if owner == 0 || (i == 0 && v % 20 == 0) {
                    w - w % 5
                } else {
                    w
                }
            })
            .collect();
        succ.sort_unstable();
        succ.dedup();
        b.push(owner, arena.priority(v), succ);
    }
    b.build().unwrap()
}

/// Arenas large enough (vertices + edges ≥ 2^18) that the default pipeline searches both
/// players' winner-controlled cycles on two threads (given two cores): every answer passes
/// the checker and agrees with Zielonka's algorithm run without that preprocessing. In the
/// last, as in the synthesis games, one search has far less to do than the other, and the
/// cycles leave most of the game to the parts.
#[test]
fn large_games_search_both_players_at_once() {
    let games = [
        generate::RandomGame::new(80_000).build(),
        generate::RandomGame {
            priorities: 4,
            seed: 7,
            ..generate::RandomGame::new(80_000)
        }
        .build(),
        generate::ladder(70_000),
        synthesis_like(
            &generate::RandomGame {
                priorities: 6,
                seed: 11,
                ..generate::RandomGame::new(80_000)
            }
            .build(),
        ),
    ];
    let no_cycles = ParityOptions {
        cycles: false,
        ..ParityOptions::default()
    };
    for arena in &games {
        assert!(arena.len() + arena.edge_count() >= 1 << 18);
        let want = solve_checked(arena, ParityAlgorithm::Zielonka, &no_cycles);
        for algorithm in ParityAlgorithm::ALL {
            let got = solve_checked(arena, algorithm, &ParityOptions::default());
            assert_eq!(got, want, "{algorithm}");
        }
    }
}

#[test]
fn cancellation_is_reported() {
    let arena = generate::RandomGame::new(20_000).build();
    let stop = AtomicBool::new(true);
    let control = Control::cancelled_by(&stop);
    for algorithm in ParityAlgorithm::ALL {
        assert_eq!(
            solve_parity(&arena, algorithm, &control),
            Err(grundy::Error::Cancelled)
        );
    }
}
