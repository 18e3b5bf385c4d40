//! Rules over position features: a family names numeric features of a position
//! ([`Patterns::features`](crate::games::Patterns::features): Nim's heaps, a circle's
//! size, a polygon's triangles and the black triangle's sides on the boundary), the
//! general method labels small positions, and a small grammar of rules is searched,
//! simplest first, for one that is true on exactly the losing positions. The rule found
//! is then checked on other positions.
//!
//! The grammar: atoms over features `f`, `g` and small constants — `f mod k = r`,
//! `f ≥ c`, `f ≤ c`, `f = g`, `f mod k = g mod k`, `(f + g) mod k = r`, the XOR of every
//! feature `= 0` — and the and/or of two atoms (or their negations). Each atom is
//! evaluated once on every sample as a bit set, so a pair costs a few word operations.
//!
//! # Complexity
//! A atoms over S samples: O(A·S) to evaluate them, O(A²·S/64) for the pairs.

use std::sync::Arc;

use crate::explore::{explore, Control};
use crate::game::Outcome;
use crate::games::{Family, Part, Pos, Spec, SumGame};
use crate::solve::label_explored;
use crate::Error;

/// One solved position: its features by name, and whether the player to move loses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// The features (a missing one counts as 0).
    pub features: Vec<(String, u64)>,
    /// Whether the player to move loses.
    pub lost: bool,
}

/// A rule found by [`search`]: in words, and its test.
#[derive(Debug, Clone)]
pub struct FeatureRule {
    /// "lost iff …", as a person reads it.
    pub text: String,
    /// The feature names, in the order [`FeatureRule::holds`] reads them.
    pub names: Vec<String>,
    atoms: Vec<(Atom, bool)>,
    or: bool,
}

#[derive(Debug, Clone, Copy)]
enum Atom {
    Residue(usize, u64, u64),
    AtLeast(usize, u64),
    AtMost(usize, u64),
    Equal(usize, usize),
    SameResidue(usize, usize, u64),
    SumResidue(usize, usize, u64, u64),
    XorZero,
}

impl Atom {
    fn holds(self, f: &[u64]) -> bool {
        match self {
            Atom::Residue(i, k, r) => f[i] % k == r,
            Atom::AtLeast(i, c) => f[i] >= c,
            Atom::AtMost(i, c) => f[i] <= c,
            Atom::Equal(i, j) => f[i] == f[j],
            Atom::SameResidue(i, j, k) => f[i] % k == f[j] % k,
            Atom::SumResidue(i, j, k, r) => (f[i].wrapping_add(f[j])) % k == r,
            Atom::XorZero => f.iter().fold(0, |a, &x| a ^ x) == 0,
        }
    }

    fn text(self, names: &[String], negated: bool) -> String {
        let (eq, ge, le) = if negated {
            ("≠", "<", ">")
        } else {
            ("=", "≥", "≤")
        };
        match self {
            Atom::Residue(i, k, r) => format!("{} mod {k} {eq} {r}", names[i]),
            Atom::AtLeast(i, c) => format!("{} {ge} {c}", names[i]),
            Atom::AtMost(i, c) => format!("{} {le} {c}", names[i]),
            Atom::Equal(i, j) => format!("{} {eq} {}", names[i], names[j]),
            Atom::SameResidue(i, j, k) => {
                format!("{} mod {k} {eq} {} mod {k}", names[i], names[j])
            }
            Atom::SumResidue(i, j, k, r) => {
                format!("({} + {}) mod {k} {eq} {r}", names[i], names[j])
            }
            Atom::XorZero => format!("{} {eq} 0", names.join(" xor ")),
        }
    }
}

impl FeatureRule {
    /// Whether the rule calls a position with these features lost.
    #[must_use]
    pub fn holds(&self, features: &[(String, u64)]) -> bool {
        let f = aligned(&self.names, features);
        let mut it = self.atoms.iter().map(|&(a, neg)| a.holds(&f) != neg);
        if self.or {
            it.any(|x| x)
        } else {
            it.all(|x| x)
        }
    }
}

/// The features in the order of `names`, 0 where missing.
fn aligned(names: &[String], features: &[(String, u64)]) -> Vec<u64> {
    names
        .iter()
        .map(|n| features.iter().find(|(m, _)| m == n).map_or(0, |&(_, v)| v))
        .collect()
}

fn atoms(count: usize) -> Vec<Atom> {
    let mut out = Vec::new();
    if count > 1 {
        out.push(Atom::XorZero);
    }
    for i in 0..count {
        for k in 2..=6 {
            for r in 0..k {
                out.push(Atom::Residue(i, k, r));
            }
        }
        for c in 1..=8 {
            out.push(Atom::AtLeast(i, c));
            out.push(Atom::AtMost(i, c - 1));
        }
        for j in i + 1..count {
            out.push(Atom::Equal(i, j));
            for k in 2..=6 {
                out.push(Atom::SameResidue(i, j, k));
                for r in 0..k {
                    out.push(Atom::SumResidue(i, j, k, r));
                }
            }
        }
    }
    out
}

/// The simplest rule of the grammar true on exactly the lost samples; `None` if there
/// is none (or no sample has a feature).
#[must_use]
pub fn search(samples: &[Sample]) -> Option<FeatureRule> {
    // The family's order of names (heap 1, heap 2, …), as first met.
    let mut names: Vec<String> = Vec::new();
    for s in samples {
        for (n, _) in &s.features {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    if names.is_empty() || samples.is_empty() {
        return None;
    }
    let rows: Vec<Vec<u64>> = samples
        .iter()
        .map(|s| aligned(&names, &s.features))
        .collect();
    let words = samples.len().div_ceil(64);
    let bits = |test: &dyn Fn(usize) -> bool| -> Vec<u64> {
        let mut b = vec![0u64; words];
        for i in 0..rows.len() {
            if test(i) {
                b[i / 64] |= 1 << (i % 64);
            }
        }
        b
    };
    let target = bits(&|i| samples[i].lost);
    let mask: Vec<u64> = (0..words)
        .map(|w| {
            let left = samples.len() - w * 64;
            if left >= 64 {
                u64::MAX
            } else {
                (1u64 << left) - 1
            }
        })
        .collect();
    let all = atoms(names.len());
    let sets: Vec<Vec<u64>> = all.iter().map(|&a| bits(&|i| a.holds(&rows[i]))).collect();
    let rule = |atoms: Vec<(Atom, bool)>, or: bool| {
        let words: Vec<String> = atoms.iter().map(|&(a, neg)| a.text(&names, neg)).collect();
        FeatureRule {
            text: format!("lost iff {}", words.join(if or { " or " } else { " and " })),
            names: names.clone(),
            atoms,
            or,
        }
    };
    let equal = |s: &[u64], neg: bool| {
        s.iter()
            .zip(&target)
            .zip(&mask)
            .all(|((&x, &t), &m)| (if neg { !x } else { x }) & m == t)
    };
    for (a, s) in all.iter().zip(&sets) {
        for neg in [false, true] {
            if equal(s, neg) {
                return Some(rule(vec![(*a, neg)], false));
            }
        }
    }
    for i in 0..all.len() {
        for j in i + 1..all.len() {
            for (ni, nj) in [(false, false), (true, false), (false, true), (true, true)] {
                for or in [false, true] {
                    let combined: Vec<u64> = sets[i]
                        .iter()
                        .zip(&sets[j])
                        .map(|(&x, &y)| {
                            let x = if ni { !x } else { x };
                            let y = if nj { !y } else { y };
                            if or {
                                x | y
                            } else {
                                x & y
                            }
                        })
                        .collect();
                    if equal(&combined, false) {
                        return Some(rule(vec![(all[i], ni), (all[j], nj)], or));
                    }
                }
            }
        }
    }
    None
}

/// Every position reachable from `root` in `family` that has features, labelled by the
/// general method.
///
/// # Errors
/// What exploring refuses (too large, cancelled).
pub fn samples(
    family: &Arc<dyn Family>,
    root: &Pos,
    control: &Control<'_>,
) -> Result<Vec<Sample>, Error> {
    let spec = Spec {
        parts: vec![Part {
            family: Arc::clone(family),
            position: root.clone(),
        }],
    };
    let (game, start) = SumGame::new(&spec)?;
    let explored = explore(&game, &start, control)?;
    let positions = explored.positions.clone();
    let solution = label_explored(&game, explored, control)?;
    Ok(positions
        .iter()
        .enumerate()
        .filter_map(|(v, p)| {
            let features = family.features(&p[0]);
            (!features.is_empty()).then(|| Sample {
                features,
                lost: solution.labels.value(v as u32).outcome() == Outcome::Loss,
            })
        })
        .collect())
}

/// What [`discover`] found: the rule, the positions it was found on and those it was
/// checked on after.
#[derive(Debug, Clone)]
pub struct FeatureDiscovery {
    /// The rule.
    pub rule: FeatureRule,
    /// Positions the rule was searched on.
    pub found_on: usize,
    /// Other positions it was then checked on (all agreed).
    pub checked_on: usize,
}

/// Searches a rule on the positions reachable from `roots`, then checks it on those
/// reachable from `checks`.
///
/// # Errors
/// [`Error::Unsupported`] when no rule of the grammar fits, or the check fails (with the
/// position's features); what exploring refuses.
pub fn discover(
    family: &Arc<dyn Family>,
    roots: &[Pos],
    checks: &[Pos],
    control: &Control<'_>,
) -> Result<FeatureDiscovery, Error> {
    let mut found = Vec::new();
    for root in roots {
        found.extend(samples(family, root, control)?);
    }
    let rule = search(&found).ok_or_else(|| {
        Error::Unsupported(format!(
            "no rule of the grammar separates the losing positions of `{}` ({} positions)",
            family.name(),
            found.len()
        ))
    })?;
    let mut checked = 0;
    for root in checks {
        for s in samples(family, root, control)? {
            if rule.holds(&s.features) != s.lost {
                return Err(Error::Unsupported(format!(
                    "the rule `{}` fails at {:?}",
                    rule.text, s.features
                )));
            }
            checked += 1;
        }
    }
    Ok(FeatureDiscovery {
        rule,
        found_on: found.len(),
        checked_on: checked,
    })
}

/// `grundy pattern --features`: `text` is a family with a one-parameter member
/// (`circular[0.77]`, `bounded-nim[3]`: the rule is searched on members 1..=up_to/2 and
/// checked on the rest up to `up_to`) or a position (`nim(4,4,4)`: searched on every
/// position reachable from it, checked on those reachable from each of `checks`).
///
/// # Errors
/// A bad spec, as [`Error::Unsupported`]; as [`discover`].
pub fn discover_text(
    text: &str,
    up_to: u64,
    checks: &[String],
    control: &Control<'_>,
) -> Result<FeatureDiscovery, Error> {
    let bad = |e: crate::games::SpecError| Error::Unsupported(format!("`{text}`: {e}"));
    if let Ok(family) = crate::games::parse_family(text) {
        let members = |range: std::ops::RangeInclusive<u64>| -> Vec<Pos> {
            range.filter_map(|n| family.member(n)).collect()
        };
        let half = (up_to / 2).max(1);
        let (roots, later) = (members(1..=half), members(half + 1..=up_to));
        if !roots.is_empty() {
            return discover(&family, &roots, &later, control);
        }
        // No members: a family whose spec implies its start (a polygon) is a position.
    }
    let spec: Spec = text.parse().map_err(bad)?;
    let [part] = spec.parts.as_slice() else {
        return Err(Error::Unsupported(format!(
            "`{text}`: rules over features are searched on one game, not a sum"
        )));
    };
    let mut later = Vec::new();
    for c in checks {
        let s: Spec = c
            .parse()
            .map_err(|e| Error::Unsupported(format!("`{c}`: {e}")))?;
        match s.parts.as_slice() {
            [p] if p.family.name() == part.family.name() => later.push(p.position.clone()),
            _ => {
                return Err(Error::Unsupported(format!(
                    "`{c}` is not a position of `{}`",
                    part.family.name()
                )))
            }
        }
    }
    discover(
        &part.family,
        std::slice::from_ref(&part.position),
        &later,
        control,
    )
}
