use std::collections::HashMap;

use proptest::prelude::*;

use super::*;

/// Misère outcome by brute force: whether the player to move loses the sum of `heaps`
/// (sorted, no zeros), memoised.
fn brute_loses(code: &Code, heaps: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    if let Some(&v) = memo.get(heaps) {
        return v;
    }
    let mut any_move = false;
    let mut loses = true;
    let mut opts = Vec::new();
    for i in 0..heaps.len() {
        if i > 0 && heaps[i] == heaps[i - 1] {
            continue;
        }
        opts.clear();
        code.options(heaps[i], &mut opts);
        for o in &opts {
            any_move = true;
            let mut next: Vec<u64> = heaps[..i].iter().chain(&heaps[i + 1..]).copied().collect();
            next.extend(o);
            next.sort_unstable();
            if brute_loses(code, &next, memo) {
                loses = false;
                break;
            }
        }
        if !loses {
            break;
        }
    }
    // No move: the player to move has won (misère).
    let v = any_move && loses;
    memo.insert(heaps.to_vec(), v);
    v
}

fn code(text: &str) -> Code {
    text.parse().unwrap()
}

#[test]
fn misere_nim_orders() {
    // Nim restricted to taking at most 7: Nim on heaps up to 7.
    let nim = code("0.3333333");
    let orders: Vec<usize> = (1..=3)
        .map(|n| quotient(&nim, n, &Limits::default()).unwrap().order())
        .collect();
    // Heaps ≤ 1: {1, a}, a^2 = 1; heaps ≤ 2 or 3: the tame quotient T2.
    assert_eq!(orders, vec![2, 6, 6]);
    let q = quotient(&nim, 3, &Limits::default()).unwrap();
    assert_eq!(q.presentation(), "⟨a, b | a^2 = 1, b^3 = b⟩");
    assert_eq!(q.name(q.element(3).unwrap()), "a b");
    assert_eq!(q.p_portion().len(), 2);
    let p: Vec<String> = q.p_portion().iter().map(|&x| q.name(x)).collect();
    assert_eq!(p, vec!["a", "b^2"]);
}

#[test]
fn misere_nim_agrees_with_bouton() {
    let nim = code("0.3333333");
    let q = quotient(&nim, 7, &Limits::default()).unwrap();
    for a in 0..=7u64 {
        for b in 0..=7 {
            for c in 0..=7 {
                let heaps = [a, b, c];
                assert_eq!(
                    q.loses(&heaps).unwrap(),
                    crate::misere::nim_loses(&heaps),
                    "{heaps:?}"
                );
            }
        }
    }
}

#[test]
fn bad_input_is_refused() {
    let kayles = code("0.77");
    assert!(quotient(&kayles, 0, &Limits::default()).is_err());
    assert!(quotient(&kayles, MAX_HEAP + 1, &Limits::default()).is_err());
    let q = quotient(&kayles, 4, &Limits::default()).unwrap();
    assert!(q.loses(&[5]).is_err());
    let tight = Limits {
        max_states: 3,
        ..Limits::default()
    };
    assert!(quotient(&code("0.07"), 12, &tight)
        .unwrap_err()
        .is_too_large());
}

/// Every sum of up to `parts` heaps of sizes ≤ n (and all their subsums) agrees with brute
/// force.
fn agrees_exhaustively(text: &str, n: u64, parts: usize) {
    let c = code(text);
    let q = quotient(&c, n, &Limits::default()).unwrap();
    let mut memo = HashMap::new();
    let mut heaps = vec![1u64; parts];
    loop {
        let mut sorted = heaps.clone();
        sorted.sort_unstable();
        assert_eq!(
            q.loses(&sorted).unwrap(),
            brute_loses(&c, &sorted, &mut memo),
            "{text}: {sorted:?}"
        );
        // Next non-decreasing tuple.
        let mut i = parts;
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            if heaps[i] < n {
                heaps[i] += 1;
                let v = heaps[i];
                for h in &mut heaps[i + 1..] {
                    *h = v;
                }
                break;
            }
        }
    }
}

#[test]
fn small_quotients_agree_with_brute_force() {
    for (text, n) in [
        ("0.07", 10),
        ("0.77", 8),
        ("0.137", 10),
        ("4.7", 7),
        ("0.31", 10),
        ("0.75", 8),
    ] {
        agrees_exhaustively(text, n, 3);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn random_sums_agree_with_brute_force(
        which in 0usize..6,
        n in 1u64..13,
        heaps in proptest::collection::vec(1u64..13, 0..6),
    ) {
        let text = ["0.07", "0.77", "0.137", "4.7", "0.31", "0.6"][which];
        let c = code(text);
        let q = quotient(&c, n, &Limits::default()).unwrap();
        let mut heaps: Vec<u64> = heaps.into_iter().map(|h| 1 + (h - 1) % n).collect();
        heaps.sort_unstable();
        let mut memo = HashMap::new();
        prop_assert_eq!(q.loses(&heaps).unwrap(), brute_loses(&c, &heaps, &mut memo), "{} {:?}", text, heaps);
    }
}

/// Siegel (miseregames.wordpress.com, 28 August 2007): "Q_30(0.07) has size 360".
#[test]
#[ignore = "a minute in release: cargo test --release -p grundy --lib q30 -- --ignored"]
fn dawson_kayles_q30_has_order_360() {
    let c = code("0.07");
    let q = quotient(&c, 30, &Limits::default()).unwrap();
    assert_eq!(q.order(), 360);
    // Sums of two heaps up to 30 with at most 40 tokens, by brute force.
    let mut memo = HashMap::new();
    for a in 1..=30u64 {
        for b in a..=30 {
            if a + b <= 40 {
                let heaps = [a, b];
                assert_eq!(
                    q.loses(&heaps).unwrap(),
                    brute_loses(&c, &heaps, &mut memo),
                    "{heaps:?}"
                );
            }
        }
    }
}

#[test]
fn subtraction_sets_are_codes() {
    let rules = Rules::subtraction(&[1, 2, 5]).unwrap();
    assert_eq!(code_of(&rules).unwrap().to_string(), "0.33003");
    let far = Rules::subtraction(&[1, 1000]).unwrap();
    assert!(code_of(&far).is_err());
}

/// What a step's caller holds counts with the step's own memory: each step that passes
/// with nothing held beside it is refused when the caller holds all but a little of the
/// limit (before, each table was bounded alone, and the trial, its base, the product and
/// the verification could each reach the limit at once).
#[test]
fn memory_held_by_the_caller_counts_with_each_step() {
    let c = code("0.07");
    let n = 14usize;
    let q = quotient(&c, n as u64, &Limits::default()).unwrap();
    let m = q.monoid.clone();
    assert!(m.size > 8, "order {}", m.size);
    let options: Vec<Vec<Vec<u64>>> = (0..=n)
        .map(|h| {
            let mut out = Vec::new();
            c.options(h as u64, &mut out);
            out
        })
        .collect();
    let limits = Limits {
        max_memory: 64 << 20,
        ..Limits::default()
    };
    let nearly = u128::from(limits.max_memory) - 64;
    let refused = |r: Result<(), Error>| match r {
        Err(e) => assert!(e.is_too_large(), "{e}"),
        Ok(()) => panic!("not refused"),
    };
    assert!(matches!(
        verify(&m, &options, &limits, 0),
        Ok(Verdict::Right(_))
    ));
    refused(verify(&m, &options, &limits, nearly).map(|_| ()));
    let base = regenerate(&m, &[n], &limits, 0).unwrap();
    assert!(base.size <= m.size);
    refused(regenerate(&m, &[n], &limits, nearly).map(|_| ()));
    let cyclic = [(n, 2, 2)];
    assert!(candidate(&base, &cyclic, &options, &limits, 0).is_ok());
    refused(candidate(&base, &cyclic, &options, &limits, nearly).map(|_| ()));
    // The product alone passes under what the whole candidate is refused at.
    let product_bytes = product(&base, &cyclic, &limits, 0).unwrap().bytes();
    refused(product(&base, &cyclic, &limits, nearly).map(|_| ()));
    let mut p = product(&base, &cyclic, &limits, 0).unwrap();
    mark_p(&mut p, &options);
    refused(reduce(&p, &limits, u128::from(limits.max_memory) - product_bytes).map(|_| ()));
}
