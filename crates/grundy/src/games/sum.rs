//! A sum of impartial parts as one [`Game`], so that the general method can explore it
//! whole (remoteness, cross-checks) — and the Grundy value of each component, so that it
//! can also be judged part by part.

use super::heap::HeapFamily;
use super::multiple::Multiple;
use super::wythoff::Wythoff;
use super::{Part, Spec};
use crate::explore::Control;
use crate::game::{Game, ImpartialGame, IndexedGame};
use crate::octal::{self, Values};
use crate::pattern::period::Period;
use crate::Error;

/// The rules of one impartial part.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Rules {
    /// A heap game; the part's position is its heaps.
    Heaps(HeapFamily),
    /// The k-fold take-away game; the part's position is `[stones, limit]`.
    Multiple(u64),
    /// Wythoff's game; the part's position is `[a, b]`.
    Wythoff,
}

/// A position of a [`SumGame`]: one list of numbers per part.
pub type Position = Vec<Vec<u64>>;

/// The disjunctive sum of a spec's impartial parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SumGame {
    rules: Vec<Rules>,
}

impl SumGame {
    /// The game and starting position of an impartial spec.
    ///
    /// # Errors
    /// [`Error::Unsupported`] if a part is not impartial (`ends`).
    pub fn new(spec: &Spec) -> Result<(SumGame, Position), Error> {
        let mut rules = Vec::new();
        let mut position = Vec::new();
        for part in &spec.parts {
            let (r, p) = match part {
                Part::Heaps { family, heaps } => (Rules::Heaps(family.clone()), heaps.clone()),
                Part::Multiple { k, n, limit } => (Rules::Multiple(*k), vec![*n, *limit]),
                Part::Wythoff { a, b } => (Rules::Wythoff, vec![*a, *b]),
                Part::Ends { .. } => {
                    return Err(Error::Unsupported(format!(
                        "`{part}` is a score game, not impartial: it cannot be part of a sum"
                    )))
                }
            };
            rules.push(r);
            position.push(p);
        }
        Ok((SumGame { rules }, position))
    }

    /// The spec of a position.
    #[must_use]
    pub fn spec(&self, position: &Position) -> Spec {
        Spec {
            parts: self
                .rules
                .iter()
                .zip(position)
                .map(|(rules, p)| part(rules, p))
                .collect(),
        }
    }

    /// The parts' rules, in order.
    #[must_use]
    pub fn rules(&self) -> &[Rules] {
        &self.rules
    }

    /// Appends every move of part `i` alone: the part's position after each move.
    pub fn part_moves(&self, i: usize, position: &[u64], out: &mut Vec<Vec<u64>>) {
        match &self.rules[i] {
            Rules::Heaps(family) => {
                let mut leaves = Vec::new();
                for (j, &h) in position.iter().enumerate() {
                    leaves.clear();
                    family.moves(h, &mut leaves);
                    for &(a, b) in &leaves {
                        let mut next = Vec::with_capacity(position.len() + 1);
                        next.extend_from_slice(&position[..j]);
                        if b == 0 {
                            next.push(a);
                        } else {
                            next.push(a);
                            next.push(b);
                        }
                        next.extend_from_slice(&position[j + 1..]);
                        out.push(next);
                    }
                }
            }
            Rules::Multiple(k) => {
                let game = Multiple {
                    k: *k,
                    max_stones: position[0],
                };
                let mut next = Vec::new();
                game.moves(&(position[0], position[1]), &mut next);
                out.extend(next.into_iter().map(|(n, l)| vec![n, l]));
            }
            Rules::Wythoff => {
                let mut next = Vec::new();
                Wythoff.moves(&(position[0], position[1]), &mut next);
                out.extend(next.into_iter().map(|(a, b)| vec![a, b]));
            }
        }
    }
}

impl SumGame {
    /// Whether one move turns `from` into `to` (positions as written: heaps in any
    /// order, empty heaps optional). Checks the rules directly, so it is fast on huge
    /// heaps where listing the moves is not.
    #[must_use]
    pub fn is_move(&self, from: &Position, to: &Position) -> bool {
        if from.len() != to.len() || from.len() != self.rules.len() {
            return false;
        }
        let from = self.canonical(from);
        let to = self.canonical(to);
        let changed: Vec<usize> = (0..from.len()).filter(|&i| from[i] != to[i]).collect();
        let [i] = changed.as_slice() else {
            return false;
        };
        let (a, b) = (&from[*i], &to[*i]);
        match &self.rules[*i] {
            Rules::Heaps(family) => {
                // Exactly one heap of `a` is replaced by up to two heaps of `b`.
                let (removed, added) = multiset_difference(a, b);
                match (removed.as_slice(), added.as_slice()) {
                    ([h], []) => family.is_leave(*h, 0, 0),
                    ([h], [x]) => family.is_leave(*h, *x, 0),
                    ([h], [x, y]) => family.is_leave(*h, *x, *y),
                    _ => false,
                }
            }
            Rules::Multiple(k) => {
                let game = Multiple {
                    k: *k,
                    max_stones: a[0],
                };
                b[0] < a[0]
                    && a[0] - b[0] <= a[1]
                    && game.after((a[0], a[1]), a[0] - b[0]) == (b[0], b[1])
            }
            Rules::Wythoff => {
                // Both sorted: from one pile, or the same from both.
                let (x, y) = (b[0], b[1]);
                (x <= a[0] && y <= a[1] && (x == a[0] || y == a[1] || a[0] - x == a[1] - y))
                    || (y <= a[0] && x <= a[1] && (y == a[0] || x == a[1] || a[0] - y == a[1] - x))
            }
        }
    }
}

/// `(a − b, b − a)` as multisets of sorted lists.
fn multiset_difference(a: &[u64], b: &[u64]) -> (Vec<u64>, Vec<u64>) {
    let (mut i, mut j) = (0, 0);
    let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x == y => {
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x < y => {
                only_a.push(*x);
                i += 1;
            }
            (Some(x), None) => {
                only_a.push(*x);
                i += 1;
            }
            (_, Some(y)) => {
                only_b.push(*y);
                j += 1;
            }
            (None, None) => unreachable!(),
        }
    }
    (only_a, only_b)
}

fn part(rules: &Rules, p: &[u64]) -> Part {
    match rules {
        Rules::Heaps(family) => Part::Heaps {
            family: family.clone(),
            heaps: p.to_vec(),
        },
        Rules::Multiple(k) => Part::Multiple {
            k: *k,
            n: p[0],
            limit: p[1],
        },
        Rules::Wythoff => Part::Wythoff { a: p[0], b: p[1] },
    }
}

impl Game for SumGame {
    type Position = Position;

    fn moves(&self, position: &Position, out: &mut Vec<Position>) {
        let mut part_out = Vec::new();
        for i in 0..self.rules.len() {
            part_out.clear();
            self.part_moves(i, &position[i], &mut part_out);
            for p in part_out.drain(..) {
                let mut next = position.clone();
                next[i] = p;
                out.push(next);
            }
        }
    }

    /// Heaps sorted, empty heaps dropped; Wythoff piles sorted.
    fn canonical(&self, position: &Position) -> Position {
        self.rules
            .iter()
            .zip(position)
            .map(|(rules, p)| match rules {
                Rules::Heaps(_) => {
                    let mut heaps: Vec<u64> = p.iter().copied().filter(|&h| h > 0).collect();
                    heaps.sort_unstable();
                    heaps
                }
                Rules::Wythoff => vec![p[0].min(p[1]), p[0].max(p[1])],
                Rules::Multiple(_) => p.clone(),
            })
            .collect()
    }
}

impl ImpartialGame for SumGame {}

/// Grundy values of one component (a single heap, a `multiple` or a `wythoff` position),
/// by formula, from a table computed once, or from a proved period.
#[derive(Debug, Clone)]
pub enum Oracle {
    /// Nim and bounded Nim: a formula.
    Closed(HeapFamily),
    /// A heap game tabulated to some heap size (the sparse-space engine, 1–2 bytes a
    /// heap).
    Heap(Values),
    /// A heap game whose period is proved: any heap size, from the first values.
    Periodic {
        /// The values of heaps `0..preperiod + period`.
        first: Vec<u64>,
        /// The proved period.
        period: Period,
    },
    /// The k-fold game tabulated to some number of stones.
    Multiple(Multiple, Vec<u32>),
    /// Wythoff tabulated to a square of some side.
    Wythoff(u64, Vec<u32>),
}

/// What building an oracle would cost: bytes of memory and elementary steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    /// Bytes of memory.
    pub bytes: u128,
    /// Elementary steps.
    pub work: u128,
}

impl Oracle {
    /// What an oracle for `rules` covering positions up to `size` (heap, stones, or pile)
    /// would cost. A heap game is tabulated below `max_proof_heaps`; past it, it costs a
    /// period proof within that many heaps.
    #[must_use]
    pub fn cost(rules: &Rules, size: u64, max_proof_heaps: u64) -> Cost {
        let n = u128::from(size) + 1;
        match rules {
            Rules::Heaps(family) if family.closed_form(0).is_some() => Cost { bytes: 0, work: 0 },
            // The sparse-space engine: two bytes a heap at most, near-linear work on the
            // games it was built for (quadratic at worst, and stoppable).
            Rules::Heaps(family) => {
                let heaps = n.min(u128::from(max_proof_heaps));
                Cost {
                    bytes: 2 * heaps,
                    work: heaps.saturating_mul(u128::from(match family {
                        HeapFamily::Octal(code) => code.max_removal() + 1,
                        HeapFamily::Subtraction(set) => set.len() as u64,
                        _ => 1,
                    })),
                }
            }
            Rules::Multiple(_) => Cost {
                bytes: n.saturating_mul(n + 1).saturating_mul(2),
                work: n.saturating_mul(n + 1) / 2,
            },
            Rules::Wythoff => Cost {
                bytes: n.saturating_mul(n).saturating_mul(4),
                work: n.saturating_mul(n).saturating_mul(n),
            },
        }
    }

    /// Builds the oracle for `rules` up to `size`; a heap game at or past
    /// `max_proof_heaps` needs its period proved within that many heaps.
    ///
    /// # Errors
    /// [`Error::Cancelled`] if stopped, [`Error::Overflow`] if it cannot be indexed,
    /// [`Error::TooLarge`] when no period is proved in time.
    pub fn build(
        rules: &Rules,
        size: u64,
        max_proof_heaps: u64,
        control: &Control<'_>,
    ) -> Result<Oracle, Error> {
        Ok(match rules {
            Rules::Heaps(family) if family.closed_form(0).is_some() => {
                Oracle::Closed(family.clone())
            }
            Rules::Heaps(family) => {
                let sequence_rules = octal::Rules::try_from(family)?;
                if size < max_proof_heaps {
                    // Small enough to tabulate outright (the engine copies the rest once
                    // it has proved a period on the way).
                    return Ok(Oracle::Heap(octal::grundy_sequence(
                        &sequence_rules,
                        size + 1,
                        control,
                    )?));
                }
                // A large heap: a period proved within the budget answers any size.
                let mut solver = octal::Solver::new(&sequence_rules);
                match solver.prove(max_proof_heaps, control) {
                    Ok(period) => Oracle::Periodic {
                        first: solver.values().to_vec(),
                        period,
                    },
                    Err(Error::TooLarge { what, .. }) => {
                        return Err(Error::TooLarge {
                            what: format!(
                                "{what}; heap {size} is past them, and only a proved period answers there (raise --max-proof-heaps to search further)"
                            ),
                            need: Some(size.saturating_add(1)),
                        })
                    }
                    Err(e) => return Err(e),
                }
            }
            Rules::Multiple(k) => {
                let game = Multiple {
                    k: *k,
                    max_stones: size,
                };
                let table = game.table(control)?;
                Oracle::Multiple(game, table)
            }
            Rules::Wythoff => Oracle::Wythoff(size, Wythoff::table(size, control)?),
        })
    }

    /// The Grundy value of one heap / one position of the part. Positions must lie within
    /// the size the oracle was built for.
    #[must_use]
    pub fn value(&self, position: &[u64]) -> u64 {
        match self {
            Oracle::Closed(family) => position
                .iter()
                .fold(0, |acc, &h| acc ^ family.closed_form(h).unwrap_or(0)),
            Oracle::Heap(table) => position
                .iter()
                .fold(0, |acc, &h| acc ^ u64::from(table.get(h as usize))),
            Oracle::Periodic { first, period } => position
                .iter()
                .fold(0, |acc, &h| acc ^ period.extend(first, h)),
            Oracle::Multiple(game, table) => {
                u64::from(table[game.index(&(position[0], position[1])) as usize])
            }
            Oracle::Wythoff(side, table) => {
                u64::from(table[(position[0] * (side + 1) + position[1]) as usize])
            }
        }
    }
}

/// The size an oracle for `rules` needs to cover `position`: the largest heap, the
/// stones, or the larger pile.
#[must_use]
pub fn oracle_size(rules: &Rules, position: &[u64]) -> u64 {
    match rules {
        Rules::Heaps(_) => position.iter().copied().max().unwrap_or(0),
        Rules::Multiple(_) => position[0],
        Rules::Wythoff => position[0].max(position[1]),
    }
}
