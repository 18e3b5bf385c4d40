//! The lecture notes' facts (`seeds/`), as tests: Fibonacci Nim and its k-fold kin, the
//! seed's state tree for (4, 3), Nim and bounded Nim, IOI 1996 "A Game", and a few sums.
//!
//! Every expected value is computed here independently (a formula from the notes, or a
//! small brute force written in this file), never by calling the code under test twice.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use grundy::explore::{explore, explore_indexed, Control};
use grundy::game::{Outcome, Value};
use grundy::games::{Multiple, Spec, SumGame};
use grundy::impartial::grundy_values;
use grundy::report::{self, Limits, Method};
use grundy::solve::{label_explored, solve};

fn spec(text: &str) -> Spec {
    text.parse()
        .unwrap_or_else(|e| panic!("`{text}` should parse: {e}"))
}

fn is_fibonacci(n: u64) -> bool {
    // 1, 2, 3, 5, 8, … (the notes' F1 = 2, F2 = 3, plus 1: a heap of 1 has no first move)
    let (mut a, mut b) = (1u64, 2u64);
    while a < n {
        (a, b) = (b, a + b);
    }
    a == n
}

/// The smallest term of the Zeckendorf representation of `n` (greedy by largest Fibonacci).
fn zeckendorf_smallest(mut n: u64) -> u64 {
    let mut fib = vec![1u64, 2];
    while *fib.last().unwrap() <= n {
        let len = fib.len();
        fib.push(fib[len - 1] + fib[len - 2]);
    }
    let mut smallest = n;
    for &f in fib.iter().rev() {
        if f <= n {
            n -= f;
            smallest = f;
        }
    }
    assert_eq!(n, 0);
    smallest
}

#[test]
fn fibonacci_helpers_are_right() {
    let fibs: Vec<u64> = (1..=100).filter(|&n| is_fibonacci(n)).collect();
    assert_eq!(fibs, [1, 2, 3, 5, 8, 13, 21, 34, 55, 89]);
    assert_eq!(zeckendorf_smallest(20), 2); // 20 = 13 + 5 + 2
    assert_eq!(zeckendorf_smallest(12), 1); // 12 = 8 + 3 + 1
    assert_eq!(zeckendorf_smallest(13), 13);
}

/// Seed 000: the first player loses Fibonacci Nim exactly when n is a Fibonacci number.
/// The table path, every n in 1..=2000.
#[test]
fn fibonacci_nim_table_to_2000() {
    let table = report::table("multiple[2]", 2000, &Limits::default()).unwrap();
    assert_eq!(table.family, "multiple[2]");
    assert_eq!(table.outcome.len(), 2001);
    assert_eq!(table.grundy.len(), 2001);
    for n in 1..=2000u64 {
        let want = if is_fibonacci(n) {
            Outcome::Loss
        } else {
            Outcome::Win
        };
        assert_eq!(table.outcome[n as usize], want, "multiple[2]({n})");
        assert_eq!(
            table.grundy[n as usize] == 0,
            want == Outcome::Loss,
            "grundy of multiple[2]({n})"
        );
    }
    let losing: Vec<u64> = table.losing().into_iter().filter(|&n| n >= 1).collect();
    assert_eq!(
        losing,
        [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597]
    );
}

/// The general method (explore + retrograde labelling) on `Multiple { k: 2 }` agrees with
/// the Fibonacci rule, and the notes' decision rule (take the smallest Zeckendorf term)
/// is a winning move.
#[test]
fn fibonacci_nim_general_method_to_150() {
    for n in 1..=150u64 {
        let game = Multiple {
            k: 2,
            max_stones: n,
        };
        let solution = solve(&game, &(n, n - 1), &Control::default()).unwrap();
        let value = solution.root_value();
        if is_fibonacci(n) {
            assert_eq!(value.outcome(), Outcome::Loss, "n = {n}: {value}");
        } else {
            assert_eq!(value.outcome(), Outcome::Win, "n = {n}: {value}");
            // The root's edges follow the moves as listed: taking 1, 2, …, n − 1.
            let z = zeckendorf_smallest(n);
            let (child, child_value) = solution.moves(0).nth(z as usize - 1).unwrap();
            assert_eq!(
                solution.explored.positions[child as usize],
                (n - z, (n - z).min(2 * z))
            );
            assert_eq!(
                child_value.outcome(),
                Outcome::Loss,
                "n = {n}: taking the Zeckendorf term {z} wins"
            );
        }
    }
}

/// Exploring through the dense index (`explore_indexed`) labels the same as exploring
/// through the hash map.
#[test]
fn fibonacci_nim_indexed_exploration_agrees() {
    for n in [1u64, 2, 7, 13, 20, 55, 60] {
        let game = Multiple {
            k: 2,
            max_stones: n,
        };
        let root = (n, n.saturating_sub(1));
        let hashed = label_explored(
            &game,
            explore(&game, &root, &Control::default()).unwrap(),
            &Control::default(),
        )
        .unwrap();
        let indexed = label_explored(
            &game,
            explore_indexed(&game, &root, &Control::default()).unwrap(),
            &Control::default(),
        )
        .unwrap();
        let by_position = |s: &grundy::solve::Solution<(u64, u64)>| -> BTreeMap<(u64, u64), Value> {
            s.explored
                .positions
                .iter()
                .enumerate()
                .map(|(v, &p)| (p, s.labels.value(v as u32)))
                .collect()
        };
        assert_eq!(by_position(&hashed), by_position(&indexed), "n = {n}");
    }
}

/// The notes ask about "take up to k times the last take". The losing starting heaps form
/// H₀ = 1, H_{i+1} = H_i + H_j with j the least index such that k·H_j ≥ H_i (Schwenk's
/// take-away games; k = 1: powers of two, k = 2: Fibonacci).
#[test]
fn k_fold_take_away_losing_heaps() {
    for k in 1..=5u64 {
        let mut h = vec![1u64];
        while *h.last().unwrap() <= 600 {
            let last = *h.last().unwrap();
            let j = h.iter().position(|&x| k * x >= last).unwrap();
            h.push(last + h[j]);
        }
        let want: BTreeSet<u64> = h.into_iter().filter(|&x| x <= 600).collect();
        let table = report::table(&format!("multiple[{k}]"), 600, &Limits::default()).unwrap();
        let got: BTreeSet<u64> = table.losing().into_iter().filter(|&n| n >= 1).collect();
        assert_eq!(got, want, "k = {k}");
        // and the general method on the small ones
        for n in 1..=40u64 {
            let game = Multiple { k, max_stones: n };
            let value = solve(&game, &(n, n - 1), &Control::default())
                .unwrap()
                .root_value();
            assert_eq!(
                value.outcome() == Outcome::Loss,
                want.contains(&n),
                "k = {k}, n = {n}"
            );
        }
    }
}

/// The seed's state tree for (4, 3), built top-down and labelled bottom-up.
#[test]
fn seed_state_tree_for_4_3() {
    let game = Multiple {
        k: 2,
        max_stones: 4,
    };
    let explored = explore(&game, &(4, 3), &Control::default()).unwrap();
    let positions: BTreeSet<(u64, u64)> = explored.positions.iter().copied().collect();
    assert_eq!(
        explored.len(),
        5,
        "no position twice: {:?}",
        explored.positions
    );
    assert_eq!(
        positions,
        BTreeSet::from([(4, 3), (3, 2), (2, 2), (1, 1), (0, 0)])
    );
    assert_eq!(explored.positions[0], (4, 3), "the root is id 0");

    let mut moves: BTreeMap<(u64, u64), Vec<(u64, u64)>> = BTreeMap::new();
    for (v, &p) in explored.positions.iter().enumerate() {
        let children = explored
            .graph
            .successors(v as u32)
            .iter()
            .map(|&c| explored.positions[c as usize])
            .collect();
        moves.insert(p, children);
    }
    let want: BTreeMap<(u64, u64), Vec<(u64, u64)>> = BTreeMap::from([
        ((4, 3), vec![(3, 2), (2, 2), (1, 1)]),
        ((3, 2), vec![(2, 2), (1, 1)]),
        ((2, 2), vec![(1, 1), (0, 0)]),
        ((1, 1), vec![(0, 0)]),
        ((0, 0), vec![]),
    ]);
    assert_eq!(moves, want);

    let solution = solve(&game, &(4, 3), &Control::default()).unwrap();
    let label: BTreeMap<(u64, u64), Outcome> = solution
        .explored
        .positions
        .iter()
        .enumerate()
        .map(|(v, &p)| (p, solution.labels.value(v as u32).outcome()))
        .collect();
    assert_eq!(
        label,
        BTreeMap::from([
            ((4, 3), Outcome::Win),
            ((3, 2), Outcome::Loss),
            ((2, 2), Outcome::Win),
            ((1, 1), Outcome::Win),
            ((0, 0), Outcome::Loss),
        ])
    );
    // Remoteness by hand: (0,0) L0, (1,1) W1, (2,2) W1, (3,2) L2, (4,3) W3.
    let value = |p: (u64, u64)| {
        let v = solution
            .explored
            .positions
            .iter()
            .position(|&q| q == p)
            .unwrap();
        solution.labels.value(v as u32)
    };
    assert_eq!(value((0, 0)), Value::Loss(0));
    assert_eq!(value((1, 1)), Value::Win(1));
    assert_eq!(value((2, 2)), Value::Win(1));
    assert_eq!(value((3, 2)), Value::Loss(2));
    assert_eq!(value((4, 3)), Value::Win(3));
    let best = solution.best_move(0).unwrap();
    assert_eq!(solution.explored.positions[best as usize], (3, 2));
}

/// Seed 003: Nim positions add; equal parts cancel.
#[test]
fn nim_3_3_1_is_won_and_nim_3_3_lost() {
    let won = report::solve(&spec("nim(3,3,1)"), &Limits::default()).unwrap();
    assert_eq!(won.outcome, Outcome::Win);
    assert_eq!(won.grundy, Some(1));
    let lost = report::solve(&spec("nim(3,3)"), &Limits::default()).unwrap();
    assert_eq!(lost.outcome, Outcome::Loss);
    assert_eq!(lost.grundy, Some(0));
    assert!(lost.winning_moves.is_empty());
    // Nim: the outcome is the XOR of the heaps, for every small position.
    for a in 0..=5u64 {
        for b in 0..=5u64 {
            for c in 0..=3u64 {
                let r =
                    report::solve(&spec(&format!("nim({a},{b},{c})")), &Limits::default()).unwrap();
                assert_eq!(r.grundy, Some(a ^ b ^ c));
                assert_eq!(
                    r.outcome == Outcome::Win,
                    a ^ b ^ c != 0,
                    "nim({a},{b},{c})"
                );
            }
        }
    }
}

/// Seed 003: bounded Nim (take at most m) has f(h) = h mod (m + 1), by the table and by the
/// general method on the explicit game.
#[test]
fn bounded_nim_is_h_mod_m_plus_1() {
    for m in 1..=6u64 {
        let family = format!("bounded-nim[{m}]");
        let table = report::table(&family, 60, &Limits::default()).unwrap();
        for h in 0..=60u64 {
            assert_eq!(table.grundy[h as usize], h % (m + 1), "{family}({h}) table");
            let (game, root) = SumGame::new(&spec(&format!("{family}({h})"))).unwrap();
            let explored = explore(&game, &root, &Control::default()).unwrap();
            let values = grundy_values(&explored.graph).unwrap();
            assert_eq!(u64::from(values[0]), h % (m + 1), "{family}({h}) explored");
        }
    }
}

/// IOI 1996 "A Game": brute force of the best total for the player to move.
fn ends_best(row: &[i64]) -> i64 {
    fn go(row: &[i64], l: usize, r: usize, memo: &mut HashMap<(usize, usize), i64>) -> i64 {
        if l == r {
            return 0;
        }
        if let Some(&v) = memo.get(&(l, r)) {
            return v;
        }
        let rest: i64 = row[l..r].iter().sum();
        // take the left or the right; the opponent then gets the best of what remains
        let left = rest - go(row, l + 1, r, memo);
        let right = rest - go(row, l, r - 1, memo);
        let v = left.max(right);
        memo.insert((l, r), v);
        v
    }
    go(row, 0, row.len(), &mut HashMap::new())
}

#[test]
fn ioi_1996_a_game() {
    let r = report::solve(&spec("ends(4,7,2,9,5,2)"), &Limits::default()).unwrap();
    assert_eq!(r.scores, Some([18, 11]));
    assert_eq!(r.outcome, Outcome::Win);
    assert_eq!(r.method, Method::Minimax);
    let row = [4, 7, 2, 9, 5, 2];
    assert_eq!(ends_best(&row), 18);

    for row in [
        vec![1, 2, 3],
        vec![5, 5],
        vec![3, 9, 1, 2],
        vec![-4, 7, 0, -2, 5],
        vec![8],
        vec![1, 100, 1, 1, 100, 1, 7],
    ] {
        let text = format!(
            "ends({})",
            row.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
        );
        let r = report::solve(&spec(&text), &Limits::default()).unwrap();
        let total: i64 = row.iter().sum();
        let best = ends_best(&row);
        assert_eq!(r.scores, Some([best, total - best]), "{text}");
        let want = match (2 * best - total).signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        };
        assert_eq!(r.outcome, want, "{text}");
    }
}

/// Independent Grundy values for the sums below.
fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let set: BTreeSet<u64> = values.into_iter().collect();
    (0..).find(|g| !set.contains(g)).unwrap()
}

fn kayles(n: usize) -> Vec<u64> {
    let mut g = vec![0u64; n + 1];
    for h in 1..=n {
        let mut options = Vec::new();
        for take in 1..=2usize.min(h) {
            // knock down `take` adjacent pins, leaving a on the left and b on the right
            for a in 0..=h - take {
                options.push(g[a] ^ g[h - take - a]);
            }
        }
        g[h] = mex(options);
    }
    g
}

fn multiple_grundy(k: u64, n: u64, limit: u64, memo: &mut HashMap<(u64, u64), u64>) -> u64 {
    if let Some(&g) = memo.get(&(n, limit)) {
        return g;
    }
    let options: Vec<u64> = (1..=limit.min(n))
        .map(|t| multiple_grundy(k, n - t, (n - t).min(k * t), memo))
        .collect();
    let g = mex(options);
    memo.insert((n, limit), g);
    g
}

fn wythoff_grundy(a: u64, b: u64, memo: &mut HashMap<(u64, u64), u64>) -> u64 {
    if let Some(&g) = memo.get(&(a, b)) {
        return g;
    }
    let mut options = Vec::new();
    for t in 1..=a {
        options.push(wythoff_grundy(a - t, b, memo));
    }
    for t in 1..=b {
        options.push(wythoff_grundy(a, b - t, memo));
    }
    for t in 1..=a.min(b) {
        options.push(wythoff_grundy(a - t, b - t, memo));
    }
    let g = mex(options);
    memo.insert((a, b), g);
    g
}

#[test]
fn sums_are_judged_by_their_components() {
    let k = kayles(20);
    assert_eq!(&k[..13], &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);

    // nim(3) + Kayles(12)
    let r = report::solve(&spec("nim(3) + octal[0.77](12)"), &Limits::default()).unwrap();
    let comps: Vec<(String, u64)> = r
        .components
        .iter()
        .map(|c| (c.spec.clone(), c.grundy))
        .collect();
    assert_eq!(
        comps,
        [
            ("nim(3)".to_string(), 3),
            ("octal[0.77](12)".to_string(), k[12])
        ]
    );
    assert_eq!(r.grundy, Some(3 ^ k[12]));
    assert_eq!(r.outcome, Outcome::Win);
    assert_eq!(r.method, Method::Retrograde);
    // the same sum with `kayles(…)`, parts swapped
    let swapped = report::solve(&spec("kayles(12) + nim(3)"), &Limits::default()).unwrap();
    assert_eq!(swapped.grundy, r.grundy);
    assert_eq!(swapped.spec, "octal[0.77](12) + nim(3)");

    // Fibonacci nim of 10 plus a single stone
    let mut memo = HashMap::new();
    let g10 = multiple_grundy(2, 10, 9, &mut memo);
    assert_ne!(g10, 0, "10 is not a Fibonacci number");
    for (text, want) in [
        ("multiple[2](10) + nim(1)", g10 ^ 1),
        ("multiple[2](13) + nim(1)", {
            let g = multiple_grundy(2, 13, 12, &mut HashMap::new());
            assert_eq!(g, 0, "13 is a Fibonacci number");
            1
        }),
        ("fibonacci(10) + fibonacci(10)", 0),
        ("multiple[2](10) + nim(2,3)", g10 ^ 2 ^ 3),
        ("multiple[3](9,4) + nim(1)", {
            multiple_grundy(3, 9, 4, &mut HashMap::new()) ^ 1
        }),
        ("wythoff(3,5) + nim(2)", {
            let g = wythoff_grundy(3, 5, &mut HashMap::new());
            assert_eq!(g, 0, "(3, 5) is a Wythoff P-position");
            2
        }),
        ("wythoff(4,6) + octal[0.07](9) + bounded-nim[3](10)", {
            // Dawson's Kayles: remove two adjacent pins (from the end or the middle)
            let mut d = [0u64; 10];
            for h in 2..=9usize {
                d[h] = mex((0..=h - 2).map(|a| d[a] ^ d[h - 2 - a]));
            }
            wythoff_grundy(4, 6, &mut HashMap::new()) ^ d[9] ^ (10 % 4)
        }),
    ] {
        let r = report::solve(&spec(text), &Limits::default()).unwrap();
        assert_eq!(r.grundy, Some(want), "{text}");
        assert_eq!(r.outcome == Outcome::Win, want != 0, "{text}");
        assert_eq!(r.method, Method::Retrograde, "{text}");
        assert_eq!(
            r.components.iter().fold(0, |acc, c| acc ^ c.grundy),
            want,
            "{text}"
        );
    }

    // The winning moves of multiple[2](10) + nim(1): by brute force, every move to a
    // position of value 0.
    let r = report::solve(&spec("multiple[2](10) + nim(1)"), &Limits::default()).unwrap();
    let mut want = Vec::new();
    for t in 1..=9u64 {
        let (n, l) = (10 - t, (10 - t).min(2 * t));
        if multiple_grundy(2, n, l, &mut memo) ^ 1 == 0 {
            want.push(spec(&format!("multiple[2]({n},{l}) + nim(1)")));
        }
    }
    if g10 == 0 {
        want.push(spec("multiple[2](10) + nim(0)"));
    }
    let mut got: Vec<Spec> = r.winning_moves.iter().map(|s| spec(s)).collect();
    let key = |s: &Spec| s.to_string();
    got.sort_by_key(key);
    want.sort_by_key(key);
    assert_eq!(got, want);
    assert!(!got.is_empty());
}

/// The best total for the player to move, in i128 (no overflow on any i64 row).
fn ends_best_wide(row: &[i64]) -> i128 {
    if row.is_empty() {
        return 0;
    }
    let rest: i128 = row.iter().map(|&x| i128::from(x)).sum();
    let left = rest - ends_best_wide(&row[1..]);
    let right = rest - ends_best_wide(&row[..row.len() - 1]);
    left.max(right)
}

/// Rows with extreme numbers: the answer when it fits in 64 bits, or `Overflow` — never a
/// panic.
#[test]
fn ends_with_extreme_numbers() {
    let r = report::solve(&spec("ends(-1,9223372036854775806,2)"), &Limits::default()).unwrap();
    assert_eq!(r.scores, Some([1, i64::MAX - 1]));
    assert_eq!(r.outcome, Outcome::Loss);

    let values = [
        i64::MIN,
        i64::MIN + 1,
        -2,
        -1,
        0,
        1,
        2,
        i64::MAX - 1,
        i64::MAX,
    ];
    // every row of length 0..=3 over these values
    let mut rows: Vec<Vec<i64>> = vec![vec![]];
    let mut last: Vec<Vec<i64>> = vec![vec![]];
    for _ in 0..3 {
        let mut next = Vec::new();
        for r in &last {
            for &v in &values {
                let mut r = r.clone();
                r.push(v);
                next.push(r);
            }
        }
        rows.extend(next.iter().cloned());
        last = next;
    }
    assert_eq!(rows.len(), 1 + 9 + 81 + 729);
    for row in rows {
        let spec: Spec = format!(
            "ends({})",
            row.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
        )
        .parse()
        .unwrap();
        let result = std::panic::catch_unwind(|| report::solve(&spec, &Limits::default()));
        match result {
            Err(_) => panic!("report::solve panicked on {spec}"),
            Ok(Err(grundy::Error::Overflow)) => {}
            Ok(Err(e)) => panic!("{spec}: unexpected error {e:?}"),
            Ok(Ok(r)) => {
                let total: i128 = row.iter().map(|&x| i128::from(x)).sum();
                let best = ends_best_wide(&row);
                let [mine, other] = r.scores.unwrap();
                assert_eq!(
                    (i128::from(mine), i128::from(other)),
                    (best, total - best),
                    "{spec}"
                );
            }
        }
    }
}
