//! The book: what the exact search proves of a board's first tiers, kept as solved tiers
//! (the tablebase format, partial) so that later requests read it instead of searching.
//! Tier `depth`'s positions are searched, one shared table for all of them on every
//! thread; the earlier tiers follow from their children's records by the tier solver's
//! step ([`crate::tier::book`]). The records are the tier solver's own, so a book's tier
//! files are those of the whole tablebase, byte for byte, and [`super::lookup`] reads a
//! book as it reads a tablebase: a position whose tier and moves' tiers the book holds is
//! answered at once; the others are searched.

use super::search::{exact_options, table_for};
use super::Limits;
use crate::games::{Kind, Spec};
use crate::tier::{self, record, Listener, Solved, TierStore};
use crate::Error;

/// Builds (or deepens) the book of `spec`'s board to `depth` in `store`: every position
/// the start reaches in tiers `..=depth` with its exact value and remoteness (score
/// games: margin). Each position of tier `depth` still to play is searched by the
/// family's exact search within `limits` (its table, nodes a position, control) on one
/// of `options.threads` threads, all sharing the table; tiers the store holds are kept.
///
/// # Complexity
/// An exact search per position of tier `depth`, then one pass over each earlier tier.
///
/// # Errors
/// [`Error::Unsupported`] for a sum, a board not split into tiers, a family without the
/// exact search, or a position that is not the start; the search's errors (past
/// `limits.max_exact_nodes` on one position, cancelled) and the store's.
pub fn build(
    spec: &Spec,
    depth: u32,
    store: &mut dyn TierStore,
    options: &tier::Options,
    limits: &Limits<'_>,
    listen: &Listener<'_>,
) -> Result<Solved, Error> {
    let part = spec
        .single()
        .ok_or_else(|| Error::Unsupported("a book is of one board, not a sum of games".into()))?;
    let family = &part.family;
    let tiers = family.tiers().ok_or_else(|| {
        Error::Unsupported(format!(
            "`{}` is not split into tiers, so it has no book",
            family.name()
        ))
    })?;
    let exact = family.exact().ok_or_else(|| {
        Error::Unsupported(format!(
            "`{}` has no exact search to fill a book with",
            family.name()
        ))
    })?;
    let game = tiers.game();
    let (root_tier, root_rank) = game.root();
    if tiers.locate(&part.position) != Some((root_tier, root_rank)) {
        return Err(Error::Unsupported(format!(
            "a book starts from the start of {}, not from `{spec}`",
            family.name()
        )));
    }
    let scored = family.kind() == Kind::Score;
    let table = table_for(limits, &family.name(), &*exact)?;
    // One thread a position (the positions are spread over the threads), strong: a
    // record holds the remoteness.
    let one = crate::search::exact::Options {
        threads: 1,
        weak: false,
        ..exact_options(limits)
    };
    let leaf = |rank: u64| -> Result<u16, Error> {
        let pos = tiers.position(depth, rank);
        let (found, _nodes) = exact.solve(&pos, &table, &one, &limits.control)?;
        let rec = if scored {
            record::of_margin(i64::from(found.score))
        } else {
            record::of_value(found.value)
        };
        rec.ok_or_else(|| Error::TooLarge {
            what: format!(
                "a value past what a record holds ({} of {})",
                found.score,
                family.name()
            ),
            need: None,
        })
    };
    tier::book(game, depth, store, &leaf, options, listen, &limits.control)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{evaluate, solve, Method, Tablebase};
    use crate::tier::MemoryStore;

    /// The book of `game` to `depth`, in memory.
    fn booked(game: &str, depth: u32) -> MemoryStore {
        let spec: Spec = game.parse().unwrap();
        let mut store = MemoryStore::default();
        build(
            &spec,
            depth,
            &mut store,
            &tier::Options::default(),
            &Limits::default(),
            &|_| {},
        )
        .unwrap();
        store
    }

    /// A book holds, in each of its tiers, what the tier solver's tablebase holds: every
    /// reached rank's record (value and remoteness, or margin) and the same summary; and
    /// no tier past its depth.
    #[test]
    fn a_book_equals_the_tablebase_on_its_tiers() {
        for (game, depth) in [
            ("connect4[4x4]", 6),
            ("connect4[5x4]", 3),
            ("tictactoe", 4),
            ("mnk[3,4,3]", 5),
            ("dots[2x2]", 4),
        ] {
            let spec: Spec = game.parse().unwrap();
            let tiers = spec.single().unwrap().family.tiers().unwrap();
            let (_, full) = crate::games::testing::tier_solve(tiers.game());
            let book = booked(game, depth);
            assert_eq!(
                book.tiers.keys().copied().collect::<Vec<_>>(),
                (0..=depth).collect::<Vec<_>>(),
                "{game}"
            );
            for t in 0..=depth {
                assert_eq!(book.tiers[&t], full.tiers[&t], "{game} tier {t}");
            }
        }
    }

    /// A book built to one depth, then deepened by one, equals the book built to the
    /// deeper depth at once.
    #[test]
    fn a_deepened_book_equals_one_built_at_once() {
        let spec: Spec = "connect4[4x4]".parse().unwrap();
        let mut store = booked("connect4[4x4]", 4);
        build(
            &spec,
            5,
            &mut store,
            &tier::Options::default(),
            &Limits::default(),
            &|_| {},
        )
        .unwrap();
        assert_eq!(store.tiers, booked("connect4[4x4]", 5).tiers);
    }

    /// `solve` answers a position from the book when the book holds its moves' tier,
    /// with no search; `evaluate` answers the book's last tier too; past the book both
    /// search.
    #[test]
    fn readers_answer_from_the_book() {
        let spec: Spec = "connect4[5x4]".parse().unwrap();
        let tiers = spec.single().unwrap().family.tiers().unwrap();
        let book = [Tablebase::new(tiers.game(), booked("connect4[5x4]", 4))];
        let with = Limits {
            tablebases: &book,
            ..Limits::default()
        };
        let without = Limits::default();
        for (moves, method) in [
            ("", Method::Tablebase),
            ("33", Method::Tablebase),
            ("3321", Method::Search),
            ("33215", Method::Search),
        ] {
            let at: Spec = if moves.is_empty() {
                spec.clone()
            } else {
                format!("connect4[5x4]({moves})").parse().unwrap()
            };
            let read = solve(&at, &with).unwrap();
            assert_eq!(read.method, method, "{at}");
            let searched = solve(&at, &without).unwrap();
            assert_eq!(
                (read.outcome, read.remoteness),
                (searched.outcome, searched.remoteness),
                "{at}"
            );
            let view = |r: &crate::report::Report| {
                r.moves
                    .iter()
                    .map(|m| (m.outcome, m.remoteness))
                    .collect::<Vec<_>>()
            };
            assert_eq!(view(&read), view(&searched), "{at}");
            let value = evaluate(&at, &with).unwrap();
            let booked = moves.len() <= 4;
            assert_eq!(
                (value.method == Method::Tablebase, value.nodes.is_none()),
                (booked, booked),
                "{at}"
            );
            assert_eq!(
                (value.outcome, value.remoteness),
                (searched.outcome, searched.remoteness),
                "{at}"
            );
        }
    }

    /// A book is of a board's start, by the exact search.
    #[test]
    fn what_has_no_book_is_refused() {
        for (game, why) in [
            ("connect4[4x4](3)", "start"),
            ("kalah[2,2]", "exact search"),
            ("nim(3)", "tiers"),
        ] {
            let spec: Spec = game.parse().unwrap();
            let e = build(
                &spec,
                1,
                &mut MemoryStore::default(),
                &tier::Options::default(),
                &Limits::default(),
                &|_| {},
            )
            .unwrap_err();
            assert!(e.to_string().contains(why), "{game}: {e}");
        }
    }
}
