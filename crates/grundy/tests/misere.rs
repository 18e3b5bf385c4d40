//! Misère play (the player who cannot move wins) checked against a brute-force recursive
//! reference: outcomes and remoteness of the root and of every move, on random small
//! positions of several impartial families and sums of them; misère Nim's rule against
//! the general method.

use std::collections::HashMap;

use grundy::game::{Game, Outcome, Value};
use grundy::games::{Pos, Spec, SumGame};
use grundy::misere::Play;
use grundy::report::{self, Limits, Method};
use proptest::prelude::*;

/// The misère value of `pos` by plain recursion on the game's moves (memoised on the
/// canonical form): no move is a win in 0; else a win in 1 + the quickest loss among the
/// children, or a loss in 1 + the slowest win.
fn brute(game: &SumGame, pos: &Vec<Pos>, memo: &mut HashMap<Vec<Pos>, Value>) -> Value {
    let key = game.canonical(pos);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut children = Vec::new();
    game.moves(pos, &mut children);
    let value = if children.is_empty() {
        Value::Win(0)
    } else {
        let values: Vec<Value> = children.iter().map(|c| brute(game, c, memo)).collect();
        let quickest_loss = values
            .iter()
            .filter_map(|v| match v {
                Value::Loss(r) => Some(*r),
                _ => None,
            })
            .min();
        match quickest_loss {
            Some(r) => Value::Win(r + 1),
            None => Value::Loss(
                1 + values
                    .iter()
                    .map(|v| v.remoteness().expect("no draws"))
                    .max()
                    .expect("some child"),
            ),
        }
    };
    memo.insert(key, value);
    value
}

fn check(text: &str) {
    let spec: Spec = text.parse().unwrap();
    let (game, root) = SumGame::new(&spec).unwrap();
    let mut memo = HashMap::new();
    let want = brute(&game, &root, &mut memo);
    let report = report::solve_in(&spec, Play::Misere, &Limits::default()).unwrap();
    assert_eq!(report.method, Method::Retrograde, "{text}");
    assert_eq!(report.play, Play::Misere, "{text}");
    assert_eq!(
        report.grundy, None,
        "{text}: Grundy values are normal play's"
    );
    assert_eq!(report.outcome, want.outcome(), "{text}");
    assert_eq!(report.remoteness, want.remoteness(), "{text}");
    let mut children = Vec::new();
    game.moves(&root, &mut children);
    assert_eq!(report.moves.len(), children.len(), "{text}");
    for (m, c) in report.moves.iter().zip(&children) {
        let child = brute(&game, c, &mut memo);
        assert_eq!(m.outcome, child.outcome().negate(), "{text} → {}", m.spec);
        assert_eq!(
            m.remoteness,
            child.remoteness().map(|r| r + 1),
            "{text} → {}",
            m.spec
        );
    }
    let winning: Vec<&str> = report
        .moves
        .iter()
        .filter(|m| m.outcome == Outcome::Win)
        .map(|m| m.spec.as_str())
        .collect();
    assert_eq!(report.winning_moves, winning, "{text}");
}

fn heaps(hs: &[u64]) -> String {
    hs.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}

const FAMILIES: &[&str] = &[
    "nim",
    "bounded-nim[2]",
    "subtraction[1,3,4]",
    "subtraction[2,3]",
    "octal[0.07]",
    "octal[0.77]",
    "octal[0.137]",
    "octal[4.07]",
    "octal[0.6]",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// One family, a few small heaps.
    #[test]
    fn misere_remoteness_matches_brute_force(
        family in 0..FAMILIES.len(),
        hs in prop::collection::vec(0u64..9, 1..4),
    ) {
        check(&format!("{}({})", FAMILIES[family], heaps(&hs)));
    }

    /// A sum of parts of different families, explored whole.
    #[test]
    fn misere_sums_match_brute_force(
        a in 0..FAMILIES.len(),
        b in 0..FAMILIES.len(),
        ha in prop::collection::vec(0u64..7, 1..3),
        hb in prop::collection::vec(0u64..7, 1..3),
    ) {
        check(&format!(
            "{}({}) + {}({})",
            FAMILIES[a],
            heaps(&ha),
            FAMILIES[b],
            heaps(&hb)
        ));
    }
}

/// Small misère figures: a single heap of 1 in Nim is lost (the mover takes the last
/// token); the single Kayles (0.77) heaps lost for the mover up to 29, each also checked
/// against the brute-force reference.
#[test]
fn misere_small_figures() {
    let outcome = |t: &str| {
        report::solve_in(&t.parse().unwrap(), Play::Misere, &Limits::default())
            .unwrap()
            .outcome
    };
    assert_eq!(outcome("nim(1)"), Outcome::Loss);
    assert_eq!(outcome("nim(0)"), Outcome::Win);
    assert_eq!(outcome("nim(1,1)"), Outcome::Win);
    assert_eq!(outcome("nim(2,2)"), Outcome::Loss);
    let kayles: Vec<u64> = (0..30)
        .filter(|&n| outcome(&format!("octal[0.77]({n})")) == Outcome::Loss)
        .collect();
    assert_eq!(kayles, [1, 4, 9, 12, 20]);
    for n in 0..30 {
        check(&format!("octal[0.77]({n})"));
    }
}

/// Misère Nim's rule answers at every size, and agrees with the general method on small
/// positions (the winning moves too).
#[test]
fn misere_nim_rule_agrees_with_the_general_method() {
    for a in 0..5u64 {
        for b in 0..5 {
            for c in 0..4 {
                let text = format!("nim({a},{b},{c})");
                let spec: Spec = text.parse().unwrap();
                let general = report::solve_in(&spec, Play::Misere, &Limits::default()).unwrap();
                let by_rule = grundy::misere::nim_loses(&[a, b, c]);
                assert_eq!(general.outcome == Outcome::Loss, by_rule, "{text}");
            }
        }
    }
    let big: Spec = "nim(1000000000,7,3)".parse().unwrap();
    let report = report::solve_in(&big, Play::Misere, &Limits::default()).unwrap();
    assert_eq!(report.method, Method::Rule);
    assert_eq!(report.outcome, Outcome::Win);
    assert_eq!(report.winning_moves, ["nim(4,7,3)"]);
    let ones: Spec = "nim(10^9,1,1)".parse().unwrap();
    let report = report::solve_in(&ones, Play::Misere, &Limits::default()).unwrap();
    assert_eq!(report.method, Method::Rule);
    assert_eq!(report.winning_moves, ["nim(1,1,1)"]);
}
