//! The catalog: Nim, bounded Nim, subtraction and octal games, the k-fold take-away game
//! (`multiple`, Fibonacci Nim for k = 2), Wythoff's game, the IOI 1996 end-taking score
//! game — and the spec language that names a position of any of them, or a sum.
//!
//! A spec is `family[params](position)`, parts joined by `+`: `nim(3,3,1)`,
//! `octal[0.77](12) + multiple[2](10)`. [`Spec`] parses (`str::parse`) and prints
//! (`Display`) that language; the printed form parses back to the same spec.

mod ends;
mod heap;
mod multiple;
mod spec;
mod sum;
mod wythoff;

use std::fmt;

pub use ends::Ends;
pub use heap::{HeapFamily, Octal};
pub use multiple::{Multiple, NO_WINNING_TAKE};
pub use spec::{SpecError, FAMILIES};
pub use sum::{oracle_size, Cost, Oracle, Position, Rules, SumGame};
pub use wythoff::Wythoff;

/// One part of a spec: a position in one game family.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Part {
    /// Heaps of a heap game (Nim, bounded Nim, subtraction, octal); each heap is a
    /// component of the sum.
    Heaps {
        /// The rules.
        family: HeapFamily,
        /// The heap sizes.
        heaps: Vec<u64>,
    },
    /// The take-away game where each move takes 1..k·(last take): `n` stones left, at
    /// most `limit` may be taken now.
    Multiple {
        /// The multiplier k (k = 2: Fibonacci Nim).
        k: u64,
        /// Stones left.
        n: u64,
        /// Most stones the player to move may take.
        limit: u64,
    },
    /// Wythoff's game: two piles; take any from one, or the same from both.
    Wythoff {
        /// First pile.
        a: u64,
        /// Second pile.
        b: u64,
    },
    /// Take a number from either end of a row; each player's score is the sum taken.
    Ends {
        /// The row.
        row: Vec<i64>,
    },
}

impl Part {
    /// Whether the Sprague–Grundy theory applies (every family but `ends`).
    #[must_use]
    pub fn is_impartial(&self) -> bool {
        !matches!(self, Part::Ends { .. })
    }

    /// The family as written in a spec, with its parameters: `octal[0.77]`.
    #[must_use]
    pub fn family_name(&self) -> String {
        match self {
            Part::Heaps { family, .. } => family.to_string(),
            Part::Multiple { k, .. } => format!("multiple[{k}]"),
            Part::Wythoff { .. } => "wythoff".into(),
            Part::Ends { .. } => "ends".into(),
        }
    }

    /// The components of this part for a sum: each heap of a heap game alone, or the part
    /// itself.
    #[must_use]
    pub fn components(&self) -> Vec<Part> {
        match self {
            Part::Heaps { family, heaps } => heaps
                .iter()
                .map(|&h| Part::Heaps {
                    family: family.clone(),
                    heaps: vec![h],
                })
                .collect(),
            other => vec![other.clone()],
        }
    }
}

fn join<T: fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Heaps { family, heaps } => write!(f, "{family}({})", join(heaps)),
            Part::Multiple { k, n, limit } => {
                // The starting position is written without its limit.
                if *limit == n.saturating_sub(1) {
                    write!(f, "multiple[{k}]({n})")
                } else {
                    write!(f, "multiple[{k}]({n},{limit})")
                }
            }
            Part::Wythoff { a, b } => write!(f, "wythoff({a},{b})"),
            Part::Ends { row } => write!(f, "ends({})", join(row)),
        }
    }
}

/// A position: one part, or the disjunctive sum of several.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Spec {
    /// The parts, in the order written.
    pub parts: Vec<Part>,
}

impl Spec {
    /// Whether every part is impartial.
    #[must_use]
    pub fn is_impartial(&self) -> bool {
        self.parts.iter().all(Part::is_impartial)
    }

    /// Every component of the sum, in order (heaps split out).
    #[must_use]
    pub fn components(&self) -> Vec<Part> {
        self.parts.iter().flat_map(Part::components).collect()
    }
}

/// Whether one move turns `from` into `to`.
#[must_use]
pub fn is_move(from: &Spec, to: &Spec) -> bool {
    match (from.parts.as_slice(), to.parts.as_slice()) {
        ([Part::Ends { row }], [Part::Ends { row: next }]) => {
            !row.is_empty() && (next[..] == row[1..] || next[..] == row[..row.len() - 1])
        }
        _ => match (SumGame::new(from), SumGame::new(to)) {
            (Ok((game, a)), Ok((other, b))) => game == other && game.is_move(&a, &b),
            _ => false,
        },
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, part) in self.parts.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            write!(f, "{part}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Spec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Spec, SpecError> {
        spec::parse(text)
    }
}
