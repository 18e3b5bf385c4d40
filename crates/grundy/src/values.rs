//! Grundy oracles: the values of a family's components, built once from what the family
//! offers ([`GrundySource`]) — a formula, the sequence engine for heap games (tables, or a
//! proved period past them), the family's own table, or, for impartial families without
//! any of these, the general method on each component.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::explore::{explore, Control};
use crate::games::{Cost, Family, GrundySource, Kind, Pos, SumGame, Values};
use crate::octal;
use crate::sequence::period::Period;
use crate::{Error, Limit};

struct Formula(Arc<dyn Family>);

impl Values for Formula {
    fn value(&self, c: &Pos) -> u64 {
        self.0.grundy_formula(c)
    }
}

struct HeapTable(octal::Values);

impl Values for HeapTable {
    fn value(&self, c: &Pos) -> u64 {
        c.iter()
            .fold(0, |acc, &h| acc ^ u64::from(self.0.get(h as usize)))
    }
}

struct Periodic {
    first: Vec<u64>,
    period: Period,
}

impl Values for Periodic {
    fn value(&self, c: &Pos) -> u64 {
        c.iter()
            .fold(0, |acc, &h| acc ^ self.period.extend(&self.first, h))
    }

    fn period(&self) -> Option<&Period> {
        Some(&self.period)
    }
}

/// Values found by exploring components whole.
struct Explored {
    family: Arc<dyn Family>,
    values: FxHashMap<Pos, u64>,
}

impl Values for Explored {
    fn value(&self, c: &Pos) -> u64 {
        self.values
            .get(&self.family.canonical(c))
            .copied()
            .unwrap_or(0)
    }
}

/// What an oracle covering components up to `size` costs, and whether one can be built
/// at all (`None`: the family has no Grundy values). `components` are the ones to cover
/// (for families explored whole).
#[must_use]
pub fn cost(family: &dyn Family, components: &[Pos], max_proof_heaps: u64) -> Option<Cost> {
    let size = components
        .iter()
        .map(|c| family.grundy_size(c))
        .max()
        .unwrap_or(0);
    let n = u128::from(size) + 1;
    Some(match family.grundy() {
        GrundySource::Formula => Cost::default(),
        // The sparse-space engine: two bytes a heap at most, near-linear work on the
        // games it was built for (quadratic at worst, and stoppable).
        GrundySource::Heaps(rules) => {
            let heaps = n.min(u128::from(max_proof_heaps));
            let per_heap = match &rules {
                octal::Rules::Code(code) => code.max_removal() + 1,
                octal::Rules::Subtraction(set) => set.len() as u64,
            };
            Cost {
                bytes: 2 * heaps,
                work: heaps.saturating_mul(u128::from(per_heap)),
            }
        }
        GrundySource::Table => family.grundy_cost(size),
        GrundySource::None if family.kind() == Kind::Impartial => {
            let positions = components
                .iter()
                .map(|c| family.bound(c).positions)
                .fold(0u128, u128::saturating_add);
            let moves = components
                .iter()
                .map(|c| family.bound(c).moves)
                .max()
                .unwrap_or(0);
            Cost {
                bytes: positions.saturating_mul(64),
                work: positions.saturating_mul(moves.max(1)),
            }
        }
        GrundySource::None => return None,
    })
}

/// The steps of the sequence engine a period proof may take per heap of its budget, on
/// average, and at least [`PROOF_STEPS`] in all: the default budget of 2^20 heaps is "about
/// a second for a hard game", and a code without a sparse space (each heap O(n), not O(1))
/// is stopped near there instead of running for minutes. 2^13: the default budget is
/// 8.6·10^9 steps, 1 to 3 s in a release build (a step is 0.1 to 0.35 ns, measured on
/// 0.777 and 0.7777777777); still capped by `max_work`.
pub const PROOF_STEPS_PER_HEAP: u64 = 1 << 13;

/// The fewest steps a period proof is allowed, whatever its budget of heaps (2^30, a
/// quarter of a second).
pub const PROOF_STEPS: u64 = 1 << 30;

/// The refusal of heap `size`, past the proof budget with no period proved (`why`): only
/// a table of every heap up to it answers, which the budget of heaps lifts. What it is
/// refused for is heaps, so the heaps are the figure; its memory is the engine's two
/// bytes a heap (its steps show only while it runs, within `max_work`).
fn past_proof(why: String, size: u64) -> Error {
    let heaps = u128::from(size) + 1;
    Error::over(
        Limit::ProofHeaps,
        format!(
            "{why}; heap {size} is past them: only a proved period answers there, or a table of every heap up to it ({}, {})",
            crate::number::count(heaps, "heap", "heaps"),
            crate::human_bytes(u64::try_from(heaps * 2).unwrap_or(u64::MAX))
        ),
        None,
        Some(heaps),
    )
}

/// Builds the oracle of `family` for `components`; a heap game whose largest heap is at
/// or past `max_proof_heaps` needs its period proved within that many heaps (and within
/// [`PROOF_STEPS_PER_HEAP`] steps a heap of them, [`PROOF_STEPS`] at least). `max_work` bounds the steps of a heap
/// game's table, which are known up front only for games with a sparse space.
///
/// # Errors
/// [`Error::Cancelled`], [`Error::Overflow`], [`Error::TooLarge`] when no period is
/// proved in time, a table takes more than `max_work` steps, or a component is too large
/// to explore, [`Error::Unsupported`] for a family without Grundy values.
pub fn build(
    family: &Arc<dyn Family>,
    components: &[Pos],
    max_proof_heaps: u64,
    max_work: u128,
    control: &Control<'_>,
) -> Result<Box<dyn Values>, Error> {
    let max_work = u64::try_from(max_work).unwrap_or(u64::MAX);
    let size = components
        .iter()
        .map(|c| family.grundy_size(c))
        .max()
        .unwrap_or(0);
    Ok(match family.grundy() {
        GrundySource::Formula => Box::new(Formula(Arc::clone(family))),
        GrundySource::Heaps(rules) => {
            if size < max_proof_heaps {
                // Small enough to tabulate outright (the engine copies the rest once it
                // has proved a period on the way).
                let mut solver = octal::Solver::new(&rules).with_max_work(max_work);
                solver.extend_to(size + 1, control)?;
                let mut values = solver.into_values();
                values.truncate(size as usize + 1);
                return Ok(Box::new(HeapTable(values)));
            }
            // A large heap: a period proved within the budget answers any size.
            if let Some(heaps) = octal::unproved_within(&rules).filter(|&h| h >= max_proof_heaps) {
                // Known to fail: say so at once rather than compute it again.
                return Err(past_proof(
                    format!(
                        "no period of {rules} can be proved within {}: grundy's search over its first {heaps} heaps finds none",
                        crate::number::count(u128::from(max_proof_heaps), "heap", "heaps")
                    ),
                    size,
                ));
            }
            let mut solver = octal::Solver::new(&rules).with_max_work(
                max_work.min(
                    max_proof_heaps
                        .saturating_mul(PROOF_STEPS_PER_HEAP)
                        .max(PROOF_STEPS),
                ),
            );
            // Progress says how far the proof may go.
            let outer = control.progress;
            let stage =
                format!("proving a period of {rules} within {max_proof_heaps} heaps, heaps done");
            let report = move |_: &str, done: u64| {
                if let Some(p) = outer {
                    p(&stage, done);
                }
            };
            let inner = Control {
                progress: Some(&report),
                ..*control
            };
            match solver.prove(max_proof_heaps, &inner) {
                Ok(period) => Box::new(Periodic {
                    first: solver.values().to_vec(),
                    period,
                }),
                Err(e) if e.is_too_large() => {
                    return Err(past_proof(
                        e.too_large_what().unwrap_or_default().to_owned(),
                        size,
                    ))
                }
                Err(e) => return Err(e),
            }
        }
        GrundySource::Table => family.grundy_table(size, control)?,
        GrundySource::None if family.kind() == Kind::Impartial => {
            let mut values = FxHashMap::default();
            for c in components {
                let spec = crate::games::Spec {
                    parts: vec![crate::games::Part {
                        family: Arc::clone(family),
                        position: c.clone(),
                    }],
                };
                let (game, root) = SumGame::new(&spec)?;
                let explored = explore(&game, &root, control)?;
                let g = crate::impartial::grundy_values(&explored.graph)?;
                for (p, v) in explored.positions.into_iter().zip(g) {
                    values.insert(p.into_iter().next().unwrap_or_default(), u64::from(v));
                }
            }
            Box::new(Explored {
                family: Arc::clone(family),
                values,
            })
        }
        GrundySource::None => {
            return Err(Error::Unsupported(format!(
                "`{}` has no Grundy values",
                family.name()
            )))
        }
    })
}
