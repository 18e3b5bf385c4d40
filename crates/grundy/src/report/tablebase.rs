//! Answers read from solved tiers (a tablebase): the position's record and each move's,
//! with no search. The tiers come from [`crate::tier::solve()`], in memory or on disk.

use std::fmt;
use std::sync::{Arc, Mutex};

use super::retrograde::{report, Labelled};
use super::{Context, Limits, Method, Report};
use crate::game::Game;
use crate::games::{Kind, Spec, SumGame};
use crate::tier::{record, TierGame, TierStore, TierSummary};
use crate::Error;

/// The solved tiers of one game, shared. Cloning shares the same store.
#[derive(Clone)]
pub struct Tablebase {
    /// The game the tiers are of, as a spec names it (`connect4[6x5]`).
    id: String,
    /// Its ranking scheme: ranks of another scheme mean other positions.
    ranking_version: u32,
    store: Arc<Mutex<Box<dyn TierStore>>>,
}

impl fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebase")
            .field("game", &self.id)
            .field("ranking_version", &self.ranking_version)
            .finish_non_exhaustive()
    }
}

impl Tablebase {
    /// The tiers of `game` (a family's tiered game: its [`crate::games::Tiers`], which is
    /// one) kept in `store`, solved by [`crate::tier::solve()`] or read from disk.
    /// Positions of other games never reach the store: its ranks mean positions of `game`
    /// only.
    pub fn new(game: &dyn TierGame, store: impl TierStore + 'static) -> Tablebase {
        Tablebase {
            id: game.id(),
            ranking_version: game.ranking_version(),
            store: Arc::new(Mutex::new(Box::new(store))),
        }
    }

    /// The game it holds, as a spec names it.
    #[must_use]
    pub fn game(&self) -> &str {
        &self.id
    }

    /// Whether `spec` is one position of this tablebase's game.
    pub(crate) fn holds(&self, spec: &Spec) -> bool {
        spec.single()
            .and_then(|part| part.family.tiers())
            .is_some_and(|tiers| {
                let game = tiers.game();
                game.id() == self.id && game.ranking_version() == self.ranking_version
            })
    }
}

/// The store behind the lock, taken for each read only: a search that follows a miss
/// never holds it.
pub(crate) struct Locked<'a>(&'a Mutex<Box<dyn TierStore>>);

impl Locked<'_> {
    fn with<T>(
        &mut self,
        f: impl FnOnce(&mut dyn TierStore) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let mut store = self
            .0
            .lock()
            .map_err(|_| Error::Store("the tablebase is unusable: a read of it panicked".into()))?;
        f(&mut **store)
    }
}

impl TierStore for Locked<'_> {
    fn summary(&mut self, tier: u32) -> Result<Option<TierSummary>, Error> {
        self.with(|s| s.summary(tier))
    }

    fn load(&mut self, tier: u32) -> Result<Option<Vec<u16>>, Error> {
        self.with(|s| s.load(tier))
    }

    fn record(&mut self, tier: u32, rank: u64) -> Result<Option<u16>, Error> {
        self.with(|s| s.record(tier, rank))
    }

    fn save(&mut self, tier: u32, records: &[u16], summary: &TierSummary) -> Result<(), Error> {
        self.with(|s| s.save(tier, records, summary))
    }

    fn save_held(
        &mut self,
        tier: u32,
        ranks: u64,
        held: &[(u64, u16)],
        summary: &TierSummary,
    ) -> Result<(), Error> {
        self.with(|s| s.save_held(tier, ranks, held, summary))
    }

    fn for_each_held(
        &mut self,
        tier: u32,
        each: &mut dyn FnMut(u64, u16) -> Result<(), Error>,
    ) -> Result<bool, Error> {
        self.with(|s| s.for_each_held(tier, each))
    }
}

/// The report of `spec` from the first of `tablebases` for its game, if it holds the
/// position; `Ok(None)` to search instead (no tablebase for the game, a tier missing, or
/// a position play from the start never reaches).
pub(crate) fn answer(
    tablebases: &[Tablebase],
    spec: &Spec,
    limits: &Limits<'_>,
) -> Result<Option<Report>, Error> {
    let Some(tablebase) = tablebases.iter().find(|t| t.holds(spec)) else {
        return Ok(None);
    };
    match lookup(spec, limits, &mut Locked(&tablebase.store)) {
        Ok(Some(report)) => Ok(Some(report)),
        Ok(None) | Err(Error::Unsupported(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The value of `spec`'s position alone from the first of `tablebases` for its game that
/// holds its tier (a book holds the first tiers only): no move's record is needed, so a
/// book answers its last tier too. `Ok(None)` when none holds it.
pub(crate) fn evaluation(
    tablebases: &[Tablebase],
    spec: &Spec,
) -> Result<Option<super::Evaluation>, Error> {
    let Some(tablebase) = tablebases.iter().find(|t| t.holds(spec)) else {
        return Ok(None);
    };
    let Some(part) = spec.single() else {
        return Ok(None);
    };
    let Some((tier, rank)) = part.family.tiers().and_then(|t| t.locate(&part.position)) else {
        return Ok(None);
    };
    let Some(own) = Locked(&tablebase.store).record(tier, rank)? else {
        return Ok(None);
    };
    let (outcome, remoteness) = if part.family.kind() == Kind::Score {
        match record::margin(own) {
            Some(m) => (crate::game::Outcome::of_margin(i128::from(m)), None),
            None => return Ok(None),
        }
    } else {
        match record::value(own) {
            Some(v) => (v.outcome(), v.remoteness()),
            None => return Ok(None),
        }
    };
    Ok(Some(super::Evaluation {
        outcome,
        remoteness,
        method: Method::Tablebase,
        nodes: None,
    }))
}

/// The report of `spec` from `store`, when `spec` is one board of a tiered family and the
/// store holds its tier and its children's; `Ok(None)` otherwise (not tiered, a score
/// game, tiers missing, or the position or a child not held by a partial tier: a book of
/// play's lines).
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
    let is_score = part.family.kind() == Kind::Score;
    // A score game's records are margins; its totals need the points still to be taken.
    let left = part.family.points_left(&part.position);
    if is_score && left.is_none() {
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
    let damaged = || {
        Error::Store(format!(
            "the tablebase of {} holds a position but not one of its moves: it is incomplete or damaged",
            part.family.name()
        ))
    };
    let (tier, rank) = tiers.locate(&part.position).ok_or_else(unreached)?;
    let Some(own) = store.record(tier, rank)? else {
        return Ok(None);
    };
    // A tier of a book of play's lines holds some positions only: one it lacks is searched.
    let partial = |store: &mut dyn TierStore, t: u32| -> Result<bool, Error> {
        Ok(store.summary(t)?.is_some_and(|s| s.partial))
    };
    if own == record::UNREACHED {
        return if partial(store, tier)? {
            Ok(None)
        } else {
            Err(unreached())
        };
    }
    let mut children = Vec::new();
    if part.family.terminal(&part.position).is_none() {
        part.family.moves(&part.position, &mut children);
    }
    let mut records = Vec::with_capacity(children.len());
    for child in &children {
        let (t, r) = tiers.locate(child).ok_or_else(unreached)?;
        let Some(rec) = store.record(t, r)? else {
            return Ok(None);
        };
        if rec == record::UNREACHED {
            return if partial(store, t)? {
                Ok(None)
            } else {
                Err(damaged())
            };
        }
        records.push(rec);
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
        play: super::Play::Normal,
        oracles: None,
        refused: None,
    };
    if let Some(left) = left.filter(|_| is_score) {
        return score_report(&ctx, part, left, own, &records, positions).map(Some);
    }
    let root = record::value(own).ok_or_else(unreached)?;
    let values = records
        .iter()
        .map(|&r| record::value(r).ok_or_else(damaged))
        .collect::<Result<_, _>>()?;
    report(
        &mut ctx,
        Labelled {
            root,
            children: values,
            positions,
            symmetric: false,
        },
        Method::Tablebase,
    )
    .map(Some)
}

/// A score game's report from margins: the position's and each child's record, with the
/// points left to split them into the two totals (`(left ± margin) / 2`).
fn score_report(
    ctx: &Context<'_, '_>,
    part: &crate::games::Part,
    left: i64,
    own: u16,
    records: &[u16],
    positions: u64,
) -> Result<Report, Error> {
    let bad = || {
        Error::Store(format!(
            "the tablebase of {} holds a margin that does not fit the points left: it is not a tablebase of this game",
            part.family.name()
        ))
    };
    let split = |left: i64, margin: i64| -> Result<[i128; 2], Error> {
        let (left, margin) = (i128::from(left), i128::from(margin));
        if (left + margin) % 2 != 0 || margin.abs() > left {
            return Err(bad());
        }
        Ok([(left + margin) / 2, (left - margin) / 2])
    };
    let root = split(left, record::margin(own).ok_or_else(bad)?)?;
    let mut children = Vec::new();
    ctx.game.moves(&ctx.root, &mut children);
    let mut moves = Vec::with_capacity(children.len());
    for (child, &rec) in children.into_iter().zip(records) {
        let m = &child[0];
        let (gain, gift) = (
            part.family.gain(&part.position, m),
            part.family.gift(&part.position, m),
        );
        // The child's margin for whoever moves after this move.
        let mine = if ctx.game.keeps_turn(&ctx.root, &child) {
            record::margin(rec)
        } else {
            record::margin(rec).map(|r| -r)
        }
        .ok_or_else(bad)?;
        let after = part.family.points_left(m).ok_or_else(bad)?;
        // The totals from the child on, then what this move itself takes.
        let [a, b] = split(after, mine)?;
        moves.push((child, [a + i128::from(gain), b + i128::from(gift)], None));
    }
    super::minimax::scored_report(ctx, root, None, moves, positions, Method::Tablebase)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tier::MemoryStore;

    /// Every tier of `start`'s board, solved in memory.
    fn solved(start: &Spec) -> MemoryStore {
        let tiers = start.single().unwrap().family.tiers().unwrap();
        crate::games::testing::tier_solve(tiers.game()).1
    }

    /// A lookup says what the search says: value, remoteness, every move's value.
    #[test]
    fn lookups_equal_the_search() {
        let start: Spec = "connect4[4x3]".parse().unwrap();
        let family = &start.single().unwrap().family;
        let tiers = family.tiers().unwrap();
        let mut store = solved(&start);
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
        // Through the limits, `solve` answers from the tablebase of the game first, and
        // searches what it does not hold (another board, a position never reached).
        let tablebases = [Tablebase::new(tiers.game(), store.clone())];
        let with = Limits {
            tablebases: &tablebases,
            ..Limits::default()
        };
        let other: Spec = "connect4[3x3](2)".parse().unwrap();
        assert_eq!(
            super::super::solve(&other, &with).unwrap().method,
            Method::Retrograde
        );
        // A board the start never reaches (X's four, and O moved after): the parser
        // refuses it, so it is built from its words.
        let never = "connect4[4x3]"
            .parse::<Spec>()
            .unwrap()
            .with_part(0, crate::games::Pos::from_slice(&[585, 150]));
        assert_eq!(never.to_string(), "connect4[4x3](o.../ooo./xxxx)");
        assert_eq!(
            super::super::solve(&never, &with).unwrap().method,
            Method::Retrograde
        );
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
        let past_a_win = never;
        let e = lookup(&past_a_win, &limits, &mut store);
        assert!(matches!(e, Err(Error::Unsupported(_))), "{e:?}");
    }

    /// Score games: a read gives the totals, each move's totals and how far it falls short,
    /// as minimax does, on every position of several lines of play (Kalah: moves that keep
    /// the turn and captures; dots and boxes: boxes that keep the turn).
    #[test]
    fn score_lookups_equal_minimax() {
        for game in ["kalah[2,2]", "kalah[3,1]", "dots[1x2]", "dots[2x2]"] {
            let start: Spec = game.parse().unwrap();
            let family = &start.single().unwrap().family;
            let mut store = solved(&start);
            let limits = Limits::default();
            let mut checked = 0;
            // The lines of play that take the (seed + step)-th move at each step.
            for seed in 0..6usize {
                let mut pos = start.single().unwrap().position.clone();
                for step in 0.. {
                    let spec = start.with_part(0, pos.clone());
                    let read = lookup(&spec, &limits, &mut store).unwrap().expect("held");
                    let searched = super::super::solve(&spec, &limits).unwrap();
                    assert_eq!(read.method, Method::Tablebase);
                    assert_eq!(
                        (read.outcome, read.scores, &read.winning_moves),
                        (searched.outcome, searched.scores, &searched.winning_moves),
                        "{spec}"
                    );
                    let view = |r: &Report| {
                        r.moves
                            .iter()
                            .map(|m| (m.spec.clone(), m.outcome, m.scores, m.worse_by))
                            .collect::<Vec<_>>()
                    };
                    assert_eq!(view(&read), view(&searched), "{spec}");
                    checked += 1;
                    let mut children = Vec::new();
                    family.moves(&pos, &mut children);
                    if children.is_empty() {
                        break;
                    }
                    pos = children[(seed + step) % children.len()].clone();
                }
            }
            assert!(checked > 12, "{game}: {checked}");
        }
    }
}
