//! Tables of one-parameter families: the outcome and Grundy value of every size 0..=N
//! (heap n, n stones), from the family's Grundy oracle.

use super::Limits;
use crate::game::Outcome;
use crate::games::{parse_family, Family, GrundySource, Kind, SpecError};
use crate::Error;

/// Outcome and Grundy value of every heap size 0..=N of a one-heap family. Serialized
/// (feature `serde`) as the stable JSON of `grundy table --json`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Table {
    /// The family as written, e.g. `octal[0.77]`.
    pub family: String,
    /// Outcome for the player to move at each heap size.
    pub outcome: Vec<Outcome>,
    /// Grundy value at each heap size.
    pub grundy: Vec<u64>,
}

impl Table {
    /// The heap sizes that are losses for the player to move (P-positions).
    #[must_use]
    pub fn losing(&self) -> Vec<u64> {
        (0..self.outcome.len() as u64)
            .filter(|&h| self.outcome[h as usize] == Outcome::Loss)
            .collect()
    }
}

/// Whether [`table`] tabulates `family`: it has members of every size
/// ([`Patterns::member`](crate::games::Patterns::member)) and Grundy values.
#[must_use]
pub fn tabulates(family: &dyn Family) -> bool {
    family.member(0).is_some() && has_values(family)
}

fn has_values(family: &dyn Family) -> bool {
    family.kind() == Kind::Impartial && family.grundy() != GrundySource::None
}

/// Tabulates a one-parameter family (`nim`, `bounded-nim[m]`, `subtraction[…]`,
/// `octal[…]`, `multiple[k]` from its starting positions `multiple[k](n)`): whatever
/// family offers [`Patterns::member`](crate::games::Patterns::member) and Grundy values.
///
/// # Errors
/// [`TableError::Spec`] for a bad family; [`Error::Unsupported`] for a family without a
/// size parameter or without Grundy values, [`Error::TooLarge`] past the limits,
/// [`Error::Cancelled`].
pub fn table(family: &str, up_to: u64, limits: &Limits<'_>) -> Result<Table, TableError> {
    let family = parse_family(family).map_err(TableError::Spec)?;
    let name = family.name();
    let unsupported = |why: String| TableError::Solve(Error::Unsupported(why));
    let Some(last) = family.member(up_to) else {
        return Err(unsupported(format!(
            "`{name}` is not a one-parameter family: a table lists the values of one heap (or one count) at every size"
        )));
    };
    if !has_values(&*family) {
        return Err(unsupported(format!(
            "`{name}` has no Grundy values to tabulate"
        )));
    }
    // A table lists every value: tabulated outright, whatever the proof budget.
    let cost =
        crate::values::cost(&*family, std::slice::from_ref(&last), u64::MAX).unwrap_or_default();
    let bytes = cost.bytes.saturating_add((u128::from(up_to) + 1) * 16);
    if bytes > u128::from(limits.max_memory) || cost.work > limits.max_work {
        return Err(TableError::Solve(super::budget_refusal(
            format!(
                "a table of `{name}` to {up_to} takes {}",
                super::over_budget(cost.work, bytes, limits)
            ),
            cost.work,
            bytes,
            limits,
        )));
    }
    let oracle = crate::values::build(
        &family,
        std::slice::from_ref(&last),
        u64::MAX,
        limits.max_work,
        &limits.control,
    )
    .map_err(TableError::Solve)?;
    let mut grundy = Vec::new();
    crate::memory::reserve(
        &mut grundy,
        usize::try_from(up_to).map_or(usize::MAX, |n| n.saturating_add(1)),
        "a table",
    )
    .map_err(TableError::Solve)?;
    for n in 0..=up_to {
        let member = family
            .member(n)
            .expect("a one-parameter family has every member");
        grundy.push(oracle.value(&member));
    }
    let outcome = grundy
        .iter()
        .map(|&g| if g == 0 { Outcome::Loss } else { Outcome::Win })
        .collect();
    Ok(Table {
        family: name,
        outcome,
        grundy,
    })
}

/// Why a table could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The family text is not a valid family.
    #[error("{0}")]
    Spec(SpecError),
    /// The computation was refused or stopped.
    #[error("{0}")]
    Solve(Error),
}
