//! The special method: from solved small cases, find the pattern — the losing positions
//! and the decision rule that restores balance — state it, check it, prove it where a
//! theorem allows, and play by it in O(log n).
//!
//! Where the method starts is the family's to say ([`PatternSource`]): a period of a heap
//! game's values, a known closed form, or the family's own search for its rule
//! ([`crate::games::RuleSearch`]: the general method on its small members, a rule shape
//! from [`crate::sequence::recurrence`] fitted and checked). This module names no family.

pub use crate::sequence::period;
pub mod certificate;
pub mod features;
/// Misère quotients of take-and-break games (Plambeck and Siegel).
pub mod misere;

use crate::explore::Control;
use crate::games::code::Rules;
use crate::games::{parse_family, Discovery, Family, PatternSource};
use crate::{Error, Limit};

/// What the special method found for a family: the JSON of `grundy pattern --json`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Pattern {
    /// The family, as written.
    pub family: String,
    /// `"periodic"`, `"arithmetic-periodic"`, `"recurrence"`, `"beatty"` or `"none"`.
    pub kind: &'static str,
    /// The period of the Grundy sequence, for periodic kinds.
    pub period: Option<u64>,
    /// The first heap size from which the sequence repeats.
    pub preperiod: Option<u64>,
    /// The saltus s of G(n + p) = G(n) + s (0 when purely periodic).
    pub saltus: Option<u64>,
    /// The first losing positions of a one-number family, for outcome rules.
    pub p_positions: Vec<u64>,
    /// One line a person can read.
    pub rule: String,
    /// Whether a theorem proves the rule for every size.
    pub proved: bool,
    /// The theorem or argument that proves it.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub theorem: Option<String>,
    /// The largest size the rule was checked on against the general method.
    pub checked_up_to: u64,
    /// The first losing positions of a two-pile family (Wythoff's `[a, b]`, `a ≤ b`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub p_pairs: Vec<[u64; 2]>,
}

impl From<Discovery> for Pattern {
    fn from(d: Discovery) -> Pattern {
        Pattern {
            family: d.family,
            kind: d.kind,
            period: d.period.map(|p| p.0),
            preperiod: d.period.map(|p| p.1),
            saltus: d.period.map(|p| p.2),
            p_positions: d.p_positions,
            p_pairs: d.p_pairs,
            rule: d.rule,
            proved: d.proved,
            theorem: d.theorem,
            checked_up_to: d.checked_up_to,
        }
    }
}

/// How far [`discover`] looks by default: the family's own rule search says how far its
/// check goes (the general method's tables are quadratic); heap games, the proof budget
/// in heaps.
#[must_use]
pub fn default_up_to(family: &str) -> u64 {
    parse_family(family).map_or(DEFAULT_PROOF_HEAPS, |f| default_reach(&*f))
}

/// The heaps a period proof may compute when not told.
const DEFAULT_PROOF_HEAPS: u64 = 1 << 26;

/// [`default_up_to`] of a family built.
#[must_use]
pub fn default_reach(family: &dyn Family) -> u64 {
    match family.pattern() {
        PatternSource::Search(search) => search.default_up_to(),
        _ => DEFAULT_PROOF_HEAPS,
    }
}

/// Whether [`discover`] studies `family`: it says where the special method starts.
#[must_use]
pub fn studies(family: &dyn Family) -> bool {
    !matches!(family.pattern(), PatternSource::None)
}

/// The period of an octal or subtraction game: proved (Guy–Smith, or a repeated
/// window) within `max_heaps` heaps, else the best candidate the computed values show.
fn heap_pattern(
    name: String,
    rules: &Rules,
    max_heaps: u64,
    control: &Control<'_>,
) -> Result<Pattern, Error> {
    // A code without a sparse space costs O(n) a heap: the budget of steps stops it, and
    // the values computed by then give the best candidate.
    let mut solver =
        crate::octal::Solver::new(rules).with_max_work(u64::try_from(MAX_WORK).unwrap_or(u64::MAX));
    let found = match solver.prove(max_heaps, control) {
        Ok(p) => Some(p),
        Err(e) if e.is_too_large() => period::find_period(&solver.values().to_vec()),
        Err(e) => return Err(e),
    };
    let values = solver.values();
    let losing: Vec<u64> = (0..values.len() as u64)
        .filter(|&n| values.get(n as usize) == 0)
        .take(50)
        .collect();
    let theorem = match rules {
        Rules::Subtraction(set) => format!(
            "a window of {} consecutive values repeats, and each value depends only on the window before it",
            set.last().copied().unwrap_or(0)
        ),
        Rules::Code(_) => "the Guy–Smith periodicity theorem (Winning Ways, ch. 4)".into(),
    };
    Ok(match found {
        Some(p) => Pattern {
            family: name.clone(),
            kind: if p.saltus > 0 {
                "arithmetic-periodic"
            } else {
                "periodic"
            },
            period: Some(p.period),
            preperiod: Some(p.preperiod),
            saltus: Some(p.saltus),
            p_positions: losing,
            p_pairs: Vec::new(),
            rule: if p.saltus > 0 {
                format!(
                    "G(n + {}) = G(n) + {} for n ≥ {}",
                    p.period, p.saltus, p.preperiod
                )
            } else if p.preperiod == 0 {
                format!("G(n + {}) = G(n) for every n", p.period)
            } else {
                format!(
                    "G(n + {}) = G(n) for n ≥ {}; the last exception is heap {}",
                    p.period,
                    p.preperiod,
                    p.preperiod - 1
                )
            },
            proved: p.proved,
            theorem: p.proved.then_some(theorem),
            checked_up_to: p.checked_up_to,
        },
        None => Pattern {
            family: name.clone(),
            kind: "none",
            period: None,
            preperiod: None,
            saltus: None,
            p_positions: losing,
            p_pairs: Vec::new(),
            rule: format!("no period found in the first {} heaps", values.len()),
            proved: false,
            theorem: None,
            checked_up_to: values.len().saturating_sub(1) as u64,
        },
    })
}

/// The most elementary steps and bytes a discovery may take (the analyzer's defaults:
/// about a minute, 4 GiB).
pub const MAX_WORK: u128 = 20_000_000_000;
/// See [`MAX_WORK`].
pub const MAX_BYTES: u128 = 4 << 30;

/// Refuses up front a check to `up_to` that could not finish within [`MAX_WORK`] and
/// [`MAX_BYTES`] (a family's rule search says what its check costs), and returns
/// the size to go to. A period proof stops as soon as it is proved, so its budget (two
/// bytes a heap) is cut to what the limits allow instead of refused.
fn check_budget(source: &PatternSource, up_to: u64) -> Result<u64, Error> {
    let (what, work, bytes) = match source {
        PatternSource::Search(search) => {
            let (what, cost) = search.cost(up_to);
            (what, cost.work, cost.bytes)
        }
        PatternSource::Period(rules) => {
            // At least `per_heap` steps and two bytes a heap: what the budgets allow even
            // then is as far as it goes. Within that, the solver's budget of steps stops a
            // code whose heaps cost more.
            let per_heap = u128::from(rules.max_removal()) + 1;
            let most = (MAX_BYTES / 2).min(MAX_WORK / per_heap);
            let heaps = u128::from(up_to) + 1;
            // A proof stops once proved, so a large budget is no reason to refuse; but a
            // game whose search is known to find none (`octal::UNPROVED`) would compute
            // every heap asked for.
            if heaps > most && crate::octal::unproved_within(rules).is_some() {
                return Err(Error::over(
                    Limit::UpTo,
                    format!(
                        "proving a period of {rules} up to heap {up_to} needs at least {} steps (limit {}) and {} (limit {}): {most} heaps at most",
                        crate::number::sci_float(heaps * per_heap),
                        crate::number::sci_float(MAX_WORK),
                        crate::human_bytes(u64::try_from(heaps * 2).unwrap_or(u64::MAX)),
                        crate::human_bytes(MAX_BYTES as u64)
                    ),
                    Some(heaps * 2),
                    Some(most.saturating_sub(1)),
                ));
            }
            return Ok(up_to.min(u64::try_from(most).unwrap_or(u64::MAX)));
        }
        PatternSource::Known(_) | PatternSource::None => return Ok(up_to),
    };
    if work > MAX_WORK || bytes > MAX_BYTES {
        let sci = crate::number::sci_float;
        return Err(Error::over(
            Limit::UpTo,
            format!(
                "checking a pattern up to {up_to} needs {what}: about {} steps (limit {}) and {} (limit {})",
                sci(work),
                sci(MAX_WORK),
                crate::human_bytes(u64::try_from(bytes).unwrap_or(u64::MAX)),
                crate::human_bytes(MAX_BYTES as u64)
            ),
            Some(bytes),
            None,
        ));
    }
    Ok(up_to)
}

/// The circles on which a mirror strategy is certified (`grundy pattern circular[…]`).
pub const MIRROR_CERTIFIED: u64 = 24;

/// Finds the pattern of a family — wherever its [`PatternSource`] says the special
/// method starts — checking it against the general method up to `up_to`.
///
/// # Errors
/// [`Error::Unsupported`] for a bad family, one this cannot study, or a rule that fails
/// its check; [`Error::Cancelled`].
pub fn discover(family: &str, up_to: u64, control: &Control<'_>) -> Result<Pattern, Error> {
    let family = parse_family(family)
        .map_err(|e| Error::Unsupported(format!("`{family}`: {}", e.message)))?;
    let up_to = check_budget(&family.pattern(), up_to)?;
    match family.pattern() {
        PatternSource::Search(search) => Ok(search.discover(up_to, control)?.into()),
        PatternSource::Known(d) => {
            let mut theorem = d.theorem.clone();
            if d.kind == "mirror" {
                // The symmetry strategy itself, checked on the tree it allows: the
                // second player restores pairs against every first move and reply.
                let strategy = certificate::mirror(&*family);
                let mut positions = 0;
                let last = MIRROR_CERTIFIED;
                for n in 3..=last {
                    let Some(root) = family.member(n) else { break };
                    positions +=
                        certificate::certify_win(&*family, &root, false, &strategy, control)?
                            .positions;
                }
                theorem = Some(format!(
                    "{}; the strategy itself checked by the general method on the tree it allows, for every circle 3..={last} against every move of the first player ({positions} positions)",
                    theorem.unwrap_or_default()
                ));
            }
            Ok(Pattern {
                // What the family checked its known rule on, at most what was asked.
                checked_up_to: up_to.min(d.checked_up_to),
                theorem,
                ..Pattern::from(d)
            })
        }
        PatternSource::Period(rules) => heap_pattern(family.name(), &rules, up_to, control),
        PatternSource::None => Err(Error::Unsupported(format!(
            "patterns of `{}` are not studied yet",
            family.name()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_that_allows_no_heap_is_no_panic() {
        // One heap's moves alone pass the budget of steps: nothing to go to, no
        // arithmetic past zero (was a panic through the web's explore page).
        let rules: Rules = "{1000000000000000000}".parse().unwrap();
        let source = PatternSource::Period(rules);
        assert_eq!(check_budget(&source, 20).unwrap(), 0);
        // A code known to show no period, asked past any budget: refused with the figures.
        let known = PatternSource::Period("0.6".parse().unwrap());
        let e = check_budget(&known, u64::MAX).unwrap_err();
        assert_eq!(e.limit().map(|l| l.0), Some(Limit::UpTo), "{e}");
        assert_eq!(check_budget(&known, 1000).unwrap(), 1000);
    }
}
