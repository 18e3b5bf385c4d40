//! Answers read from solved tiers (a tablebase): the position's record and each move's,
//! with no search. The tiers come from [`crate::tier::solve`], in memory or on disk.

use super::retrograde::{report, Labelled};
use super::{Context, Limits, Method, Report};
use crate::games::{Kind, Spec, SumGame};
use crate::tier::{record, TierStore};
use crate::Error;

/// The report of `spec` from `store`, when `spec` is one board of a tiered family and the
/// store holds its tier and its children's; `Ok(None)` otherwise (not tiered, a score
/// game, or tiers missing).
///
/// # Errors
/// [`Error::Unsupported`] for a position the start of the game never reaches (the
/// tablebase holds positions of play only); [`Error::Store`] from the store.
pub fn lookup(
    spec: &Spec,
    limits: &Limits<'_>,
    store: &mut dyn TierStore,
) -> Result<Option<Report>, Error> {
    let Some(part) = spec.single() else {
        return Ok(None);
    };
    if part.family.kind() == Kind::Score {
        return Ok(None);
    }
    let Some(tiers) = part.family.tiers() else {
        return Ok(None);
    };
    let unreached = || {
        Error::Unsupported(format!(
            "`{spec}` does not arise in play from the start of {}, so its tablebase does not hold it",
            part.family.name()
        ))
    };
    let (tier, rank) = tiers.locate(&part.position).ok_or_else(unreached)?;
    let Some(own) = store.record(tier, rank)? else {
        return Ok(None);
    };
    let root = record::value(own).ok_or_else(unreached)?;
    let mut children = Vec::new();
    if part.family.terminal(&part.position).is_none() {
        part.family.moves(&part.position, &mut children);
    }
    let mut values = Vec::with_capacity(children.len());
    for child in &children {
        let (t, r) = tiers.locate(child).ok_or_else(unreached)?;
        let Some(rec) = store.record(t, r)? else {
            return Ok(None);
        };
        values.push(record::value(rec).ok_or_else(|| {
            Error::Store(format!(
                "the tablebase of {} holds a position but not one of its moves: it is incomplete or damaged",
                part.family.name()
            ))
        })?);
    }
    let game = tiers.game();
    let mut positions = 0u64;
    for t in 0..game.tier_count() {
        positions += store.summary(t)?.map_or(0, |s| s.positions);
    }
    let (sum, start) = SumGame::new(spec)?;
    let mut ctx = Context {
        spec,
        limits,
        game: sum,
        root: start,
        oracles: None,
    };
    report(
        &mut ctx,
        Labelled {
            root,
            children: values,
            positions,
        },
        Method::Tablebase,
    )
    .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::Control;
    use crate::tier::{solve, MemoryStore, Options};

    /// A lookup says what the search says: value, remoteness, every move's value.
    #[test]
    fn lookups_equal_the_search() {
        let start: Spec = "connect4[4x3]".parse().unwrap();
        let family = &start.single().unwrap().family;
        let tiers = family.tiers().unwrap();
        let mut store = MemoryStore::default();
        solve(
            tiers.game(),
            &mut store,
            &Options::default(),
            &|_| {},
            &Control::default(),
        )
        .unwrap();
        let limits = Limits::default();
        for text in [
            "connect4[4x3]",
            "connect4[4x3](2)",
            "connect4[4x3](2323)",
            "connect4[4x3](11223)",
        ] {
            let spec: Spec = text.parse().unwrap();
            let read = lookup(&spec, &limits, &mut store).unwrap().expect("held");
            let searched = super::super::solve(&spec, &limits).unwrap();
            assert_eq!(read.method, Method::Tablebase);
            assert_eq!(
                (
                    read.outcome,
                    read.remoteness,
                    &read.winning_moves,
                    &read
                        .moves
                        .iter()
                        .map(|m| (m.outcome, m.remoteness))
                        .collect::<Vec<_>>()
                ),
                (
                    searched.outcome,
                    searched.remoteness,
                    &searched.winning_moves,
                    &searched
                        .moves
                        .iter()
                        .map(|m| (m.outcome, m.remoteness))
                        .collect::<Vec<_>>()
                ),
                "{text}"
            );
        }
        // Through the limits, `solve` answers from the store first.
        let shared: super::super::SharedStore = std::sync::Mutex::new(Box::new(store.clone()));
        let with = Limits {
            tablebase: Some(&shared),
            ..Limits::default()
        };
        let spec: Spec = "connect4[4x3](2)".parse().unwrap();
        assert_eq!(
            super::super::solve(&spec, &with).unwrap().method,
            Method::Tablebase
        );
        assert_eq!(
            super::super::solve(&spec, &limits).unwrap().method,
            Method::Retrograde
        );
        // Not held: another board declines; a position play never reaches is refused.
        let other: Spec = "connect4[3x3]".parse().unwrap();
        assert!(lookup(&other, &limits, &mut MemoryStore::default())
            .unwrap()
            .is_none());
        let past_a_win: Spec = "connect4[4x3](o.../ooo./xxxx)".parse().unwrap();
        let e = lookup(&past_a_win, &limits, &mut store);
        assert!(matches!(e, Err(Error::Unsupported(_))), "{e:?}");
    }
}
