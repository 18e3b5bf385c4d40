//! The special method for games whose positions are not one heap: compute the losing
//! positions by the general method, search a small space of rule shapes for one that fits
//! them, and turn the rule into a player that picks winning moves in O(log n).
//!
//! Shapes searched, simplest first, on an increasing sequence `a(0) < a(1) < …`:
//!
//! | shape | example |
//! | --- | --- |
//! | linear recurrence with constant coefficients (Berlekamp–Massey) | Fibonacci: a(i) = a(i−1) + a(i−2) |
//! | additive self-reference: a(i+1) = a(i) + a(j), j least with c·a(j) ≥ a(i) | the k-fold take-away game (Schwenk) |
//! | Beatty pair ⌊nα⌋, ⌊nβ⌋ with 1/α + 1/β = 1 | Wythoff: α = φ |

//!
//! The shapes are pure arithmetic and live in [`crate::sequence::recurrence`] (re-exported
//! here), the rule players in their families' files ([`MultipleRule`], [`WythoffRule`]);
//! this module runs the general method on the families that declare these shapes and
//! checks the rules against it.

pub use crate::sequence::recurrence::*;

use crate::explore::Control;
use crate::games::{Multiple, MultipleRule, WythoffRule};
use crate::Error;

pub use crate::games::Discovery;

/// Discovers the rule of the k-fold take-away game from the general method's table to
/// `n` stones, and checks the rule's player on every position `(m, l)`, `m ≤ n`: it
/// calls exactly the positions lost that the table does, and its winning takes are
/// exactly the table's.
///
/// # Errors
/// [`Error::Cancelled`]; [`Error::Unsupported`] if the rule found disagrees with the
/// table somewhere (reported with the position).
pub fn discover_multiple(
    k: u64,
    n: u64,
    control: &Control<'_>,
) -> Result<(Discovery, Option<MultipleRule>), Error> {
    let game = Multiple { k, max_stones: n };
    let thresholds = game.thresholds(control)?;
    // The starting positions (m, m − 1) that are lost: T(m) > m − 1, i.e. T(m) = m.
    let p: Vec<u64> = (1..=n).filter(|&m| thresholds[m as usize] >= m).collect();
    let shape = linear_recurrence(&p).or_else(|| additive_recurrence(&p));
    let family = format!("multiple[{k}]");
    let Some(shape) = shape else {
        return Ok((
            Discovery {
                family,
                kind: "none",
                p_positions: p,
                rule: "no rule of the searched shapes fits".into(),
                proved: false,
                theorem: None,
                period: None,
                checked_up_to: n,
            },
            None,
        ));
    };
    let terms = shape.terms_up_to(n).unwrap_or_default();
    let rule = MultipleRule { k, terms, shape };
    // Check the player against the table on every position.
    for m in 1..=n {
        if m % 1024 == 0 {
            control.check()?;
        }
        let t = thresholds[m as usize];
        if rule.is_loss(m, m) || rule.representation(m).last() != Some(&t) {
            return Err(Error::Unsupported(format!(
                "the rule `{}` fails at {m} stones: the least winning take is {t}",
                rule.shape.describe()
            )));
        }
        let table: Vec<u64> = (1..=m)
            .filter(|&take| {
                let (rest, limit) = game.after((m, m), take);
                limit < thresholds[rest as usize]
            })
            .collect();
        if rule.winning_takes(m, m) != table {
            return Err(Error::Unsupported(format!(
                "the rule's winning takes at {m} stones, {:?}, differ from the table's, {table:?}",
                rule.winning_takes(m, m)
            )));
        }
    }
    let theorem = if k == 2 {
        "Whinihan (1963): lost iff the smallest Zeckendorf term exceeds the limit"
    } else {
        "Schwenk (1970), Take-away games: lost iff the smallest term of the greedy representation exceeds the limit"
    };
    // The theorem speaks of Schwenk's sequence; the proof applies when the discovered
    // sequence is that one.
    // Both sequences compared as far as the representations of every n ≤ 2^64 − 1 need.
    let proved = match (
        rule.shape.terms_up_to(u64::MAX),
        MultipleRule::schwenk(k, u64::MAX),
    ) {
        (Some(found), Some(schwenk)) => found == schwenk.terms,
        _ => false,
    };
    let rule_text = format!(
        "losing starts: {}; play: take the smallest term of the greedy representation",
        rule.shape.describe()
    );
    Ok((
        Discovery {
            family,
            kind: "recurrence",
            p_positions: p,
            rule: rule_text,
            proved,
            theorem: proved.then(|| theorem.to_string()),
            period: None,
            checked_up_to: n,
        },
        Some(rule),
    ))
}

/// Discovers Wythoff's losing positions as a Beatty pair from the general method's
/// labels of every `(a, b)` with `a, b ≤ n`, and checks the Beatty rule on all of them.
///
/// # Errors
/// [`Error::Cancelled`], [`Error::TooLarge`].
pub fn discover_wythoff(n: u64, control: &Control<'_>) -> Result<Discovery, Error> {
    // The general method on the whole square: a position is lost iff none of its
    // options is. Its options lie on its row, column and diagonal below it, so one flag
    // per line says whether a lost option exists: O(n²) instead of O(n³).
    let side = n.checked_add(1).ok_or(Error::Overflow)?;
    let cells = side.checked_mul(side).ok_or(Error::Overflow)?;
    let cells = usize::try_from(cells).map_err(|_| Error::Overflow)?;
    let mut lost = vec![false; cells];
    let width = side as usize;
    let mut in_row = vec![false; width];
    let mut in_column = vec![false; width];
    let mut in_diagonal = vec![false; 2 * width];
    for a in 0..width {
        control.check()?;
        for b in 0..width {
            let d = b + width - a;
            if !(in_row[a] || in_column[b] || in_diagonal[d]) {
                lost[a * width + b] = true;
                in_row[a] = true;
                in_column[b] = true;
                in_diagonal[d] = true;
            }
        }
    }
    let mut pairs: Vec<(u64, u64)> = Vec::new();
    for a in 0..side {
        for b in a..side {
            if lost[(a * side + b) as usize] {
                pairs.push((a, b));
            }
        }
    }
    // Beatty: a_m = ⌊m·α⌋ for every pair (a_m, b_m) with b_m = a_m + m; the α that fit
    // form an interval [lo, hi).
    let mut lo = 0f64;
    let mut hi = f64::INFINITY;
    let mut is_beatty = true;
    for (m, &(a, b)) in pairs.iter().enumerate().skip(1) {
        let m64 = m as u64;
        if b != a + m64 {
            is_beatty = false;
            break;
        }
        lo = lo.max(a as f64 / m as f64);
        hi = hi.min((a + 1) as f64 / m as f64);
    }
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let golden = is_beatty && lo <= phi && phi < hi;
    // Check the exact rule on every position of the square.
    if golden {
        for a in 0..side {
            for b in 0..side {
                if WythoffRule::is_loss(a, b) != lost[(a * side + b) as usize] {
                    return Err(Error::Unsupported(format!(
                        "the golden-ratio rule fails at ({a}, {b})"
                    )));
                }
            }
        }
    }
    let outcome_checked = pairs.len();
    Ok(Discovery {
        family: "wythoff".into(),
        kind: if golden { "beatty" } else { "none" },
        p_positions: pairs.iter().map(|&(a, _)| a).collect(),
        rule: if golden {
            format!(
                "lost iff (a, b) = (⌊nφ⌋, ⌊nφ²⌋), φ = (1+√5)/2: a Beatty pair, α ∈ [{lo:.6}, {hi:.6}) fits all {outcome_checked} pairs"
            )
        } else {
            "no Beatty pair fits".into()
        },
        proved: golden,
        theorem: golden.then(|| "Wythoff (1907)".to_string()),
        period: None,
        checked_up_to: n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::Wythoff;

    #[test]
    fn berlekamp_massey_finds_fibonacci_and_refuses_noise() {
        let fib = [1u64, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144];
        let shape = linear_recurrence(&fib).unwrap();
        assert_eq!(
            shape,
            Shape::Linear {
                coefficients: vec![1, 1],
                initial: vec![1, 2]
            }
        );
        assert_eq!(shape.describe(), "a(i) = a(i-1) + a(i-2) from 1, 2");
        assert_eq!(
            linear_recurrence(&[1, 2, 4, 7, 11, 16, 22, 30, 31, 50]),
            None
        );
        let powers = [1u64, 2, 4, 8, 16, 32, 64];
        assert!(linear_recurrence(&powers).is_some());
    }

    #[test]
    fn zeckendorf_play() {
        let rule = MultipleRule::schwenk(2, u64::MAX).unwrap();
        assert_eq!(&rule.terms[..8], &[1, 2, 3, 5, 8, 13, 21, 34]);
        assert_eq!(rule.representation(20), vec![13, 5, 2]);
        assert!(rule.is_loss(13, 12));
        assert!(!rule.is_loss(20, 19));
        // 20 = 13 + 5 + 2: take 2 (2·2 < 5), or 7 (2·7 ≥ 13: no), or all.
        assert_eq!(rule.winning_takes(20, 19), vec![2]);
        assert_eq!(rule.winning_takes(20, 1), Vec::<u64>::new());
        assert!(rule.is_loss(10u64.pow(18), 0));
    }

    #[test]
    fn wythoff_pairs() {
        let pairs: Vec<(u128, u128)> = (0..6).map(WythoffRule::pair).collect();
        assert_eq!(
            pairs,
            vec![(0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13)]
        );
        assert!(WythoffRule::is_loss(5, 3));
        assert!(!WythoffRule::is_loss(5, 4));
        // Against the general method: every move to a losing pair, and only those.
        let mut children = Vec::new();
        for a in 0..40u64 {
            for b in 0..40u64 {
                children.clear();
                Wythoff.moves(&(a, b), &mut children);
                let mut want: Vec<(u64, u64)> = children
                    .iter()
                    .copied()
                    .filter(|&(x, y)| WythoffRule::is_loss(x, y))
                    .collect();
                want.sort_unstable();
                want.dedup();
                assert_eq!(WythoffRule::winning_moves(a, b), want, "({a}, {b})");
            }
        }
        let discovery = discover_wythoff(60, &Control::default()).unwrap();
        assert_eq!(discovery.kind, "beatty");
        assert!(discovery.proved);
        assert_eq!(&discovery.p_positions[..6], &[0, 1, 3, 4, 6, 8]);
    }

    #[test]
    fn k_fold_rules_are_discovered_and_checked() {
        let (d, rule) = discover_multiple(2, 600, &Control::default()).unwrap();
        let rule = rule.unwrap();
        assert_eq!(d.kind, "recurrence");
        assert!(
            d.rule.contains("a(i) = a(i-1) + a(i-2) from 1, 2"),
            "{}",
            d.rule
        );
        assert!(d.proved);
        assert_eq!(&rule.terms[..5], &[1, 2, 3, 5, 8]);
        for k in 3..=5 {
            let (d, rule) = discover_multiple(k, 600, &Control::default()).unwrap();
            let rule = rule.unwrap();
            assert_eq!(d.kind, "recurrence", "k = {k}");
            assert!(d.proved, "k = {k}: {}", d.rule);
            assert_eq!(rule.terms[..d.p_positions.len()], d.p_positions[..]);
        }
    }
}
