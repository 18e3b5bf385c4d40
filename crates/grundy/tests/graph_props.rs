//! Graph-game objectives and token games against brute force on random small arenas.

use grundy::explore::Control;
use grundy::game::Outcome;
use grundy::graph::brute;
use grundy::graph::objectives::{self, buchi, buchi_reference, Objective};
use grundy::graph::token::{generalized_grundy, outcomes, sum, Loopy};
use grundy::graph::verify::verify_parity;
use grundy::graph::{Arena, ArenaBuilder, Csr};
use grundy::solve::label;
use proptest::prelude::*;

/// A random arena: up to `max_n` vertices, owners, priorities 1 (white) / 2 (green),
/// out-degree 1..=3 (no dead ends: the POI game and PGSolver have none).
fn arena(max_n: usize) -> impl Strategy<Value = Arena> {
    (1..=max_n).prop_flat_map(|n| {
        proptest::collection::vec(
            (
                0u8..2,
                1u32..3,
                proptest::collection::vec(0..n as u32, 1..=3),
            ),
            n,
        )
        .prop_map(|vertices| {
            let mut b = ArenaBuilder::new();
            for (owner, priority, succ) in vertices {
                b.push(owner, priority, succ);
            }
            b.build().unwrap()
        })
    })
}

fn green(arena: &Arena) -> Vec<bool> {
    arena.priorities().iter().map(|&p| p == 2).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Büchi for player 0 on green = parity with white 1, green 2; the production
    /// algorithm, the seed's method and brute force agree, and the strategies verify.
    #[test]
    fn buchi_matches_brute_force_and_the_seed(arena in arena(8)) {
        let f = green(&arena);
        let got = buchi(&arena, &f, 0, &Control::default()).unwrap();
        let want = brute::solve_parity(&arena).unwrap();
        prop_assert_eq!(&got.winner, &want.winner);
        prop_assert_eq!(buchi_reference(&arena, &f, 0), got.winner.clone());
        prop_assert_eq!(verify_parity(&arena, &got.winner, &got.strategy), Ok(()));
    }

    /// Co-Büchi (eventually always green) is parity with green 0, white 1.
    #[test]
    fn cobuchi_matches_brute_force(arena in arena(8)) {
        let f = green(&arena);
        let got = objectives::solve(&arena, Objective::CoBuchi, &f, &Control::default()).unwrap();
        let mut b = ArenaBuilder::new();
        for v in arena.vertices() {
            b.push(arena.owner(v), u32::from(!f[v as usize]), arena.successors(v).iter().copied());
        }
        let recoloured = b.build().unwrap();
        let want = brute::solve_parity(&recoloured).unwrap();
        prop_assert_eq!(&got.winner, &want.winner);
        prop_assert_eq!(verify_parity(&recoloured, &got.winner, &got.strategy), Ok(()));
    }

    /// Reachability agrees with the naive attractor; safety is its dual.
    #[test]
    fn reachability_and_safety(arena in arena(9)) {
        let f = green(&arena);
        let reach = objectives::solve(&arena, Objective::Reachability, &f, &Control::default()).unwrap();
        let attr = brute::attractor(&arena, 0, &f);
        for v in arena.vertices() {
            prop_assert_eq!(reach.winner[v as usize] == 0, attr[v as usize]);
            // Winners' strategies are real moves.
            if let Some(w) = reach.strategy[v as usize] {
                prop_assert!(arena.successors(v).contains(&w));
                prop_assert_eq!(reach.winner[w as usize], reach.winner[v as usize]);
            }
        }
        let safe = objectives::solve(&arena, Objective::Safety, &f, &Control::default()).unwrap();
        let bad: Vec<bool> = f.iter().map(|&g| !g).collect();
        let escape = brute::attractor(&arena, 1, &bad);
        for v in arena.vertices() {
            prop_assert_eq!(safe.winner[v as usize] == 1, escape[v as usize]);
        }
    }

    /// A token alone: γ's outcome is the labelling's. Two tokens: the generalised sum
    /// rule predicts the labelling of the explicit product game.
    #[test]
    fn loopy_sums_match_the_product_game(
        n in 1usize..7,
        edges in proptest::collection::vec((0u32..7, 0u32..7), 0..14),
    ) {
        let edges: Vec<(u32, u32)> = edges
            .into_iter()
            .filter(|&(u, v)| (u as usize) < n && (v as usize) < n)
            .collect();
        let g = Csr::from_edges(n, &edges);
        let r = g.reverse();
        let control = Control::default();
        let gamma = generalized_grundy(&g, &r, &control).unwrap();
        let single = outcomes(&g, &r, &control).unwrap();
        for v in 0..n as u32 {
            prop_assert_eq!(gamma[v as usize].outcome(), single.value(v).outcome(), "vertex {}: {}", v, gamma[v as usize]);
        }
        // The product: (a, b) ↦ a * n + b.
        let mut product = Vec::new();
        for a in 0..n as u32 {
            for b in 0..n as u32 {
                for &a2 in g.successors(a) {
                    product.push((a * n as u32 + b, a2 * n as u32 + b));
                }
                for &b2 in g.successors(b) {
                    product.push((a * n as u32 + b, a * n as u32 + b2));
                }
            }
        }
        let p = Csr::from_edges(n * n, &product);
        let labels = label(&p, &p.reverse(), |_| None, &control).unwrap();
        for a in 0..n {
            for b in 0..n {
                let predicted = sum(&[gamma[a].clone(), gamma[b].clone()]);
                prop_assert_eq!(
                    predicted.outcome(),
                    labels.value((a * n + b) as u32).outcome(),
                    "{} + {}", gamma[a], gamma[b]
                );
            }
        }
    }
}

#[test]
fn infinite_values_print_as_the_json_expects() {
    let g = Csr::from_edges(3, &[(0, 1), (1, 0), (1, 2)]);
    let gamma = generalized_grundy(&g, &g.reverse(), &Control::default()).unwrap();
    assert!(gamma.iter().all(|v| matches!(v, Loopy::Finite(_))));
    // 0 ⇄ 1 with 0 → 2 → 3 (a terminal): 2 has value 1, 3 value 0; 0 and 1 loop.
    let g = Csr::from_edges(4, &[(0, 1), (1, 0), (0, 2), (2, 3), (1, 1)]);
    let gamma = generalized_grundy(&g, &g.reverse(), &Control::default()).unwrap();
    let shown: Vec<String> = gamma.iter().map(ToString::to_string).collect();
    assert_eq!(shown[3], "0");
    assert_eq!(shown[2], "1");
    assert_eq!(gamma[2].outcome(), Outcome::Win);
}
