//! Tablebases the server answers from: each the solved tiers of one game (a
//! [`TierStore`], in memory or on disk), shared by every request. A position of that game
//! is read from it ([`report::lookup`]); any other position is solved as usual. Below the
//! handlers, like `input`.

use std::fmt;
use std::sync::{Arc, Mutex};

use grundy::games::Spec;
use grundy::report::{self, Limits, Report};
use grundy::tier::{TierGame, TierStore, TierSummary};

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
    /// The tiers of `game` (a family's tiered game, [`grundy::games::Tiers::game`]) kept
    /// in `store`, solved by [`grundy::tier::solve`] or read from disk. Positions of other
    /// games never reach the store: its ranks mean positions of `game` only.
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
    fn holds(&self, spec: &Spec) -> bool {
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
struct Locked<'a>(&'a Mutex<Box<dyn TierStore>>);

impl Locked<'_> {
    fn with<T>(
        &mut self,
        f: impl FnOnce(&mut dyn TierStore) -> Result<T, grundy::Error>,
    ) -> Result<T, grundy::Error> {
        let mut store = self.0.lock().map_err(|_| {
            grundy::Error::Store("the tablebase is unusable: a read of it panicked".into())
        })?;
        f(&mut **store)
    }
}

impl TierStore for Locked<'_> {
    fn summary(&mut self, tier: u32) -> Result<Option<TierSummary>, grundy::Error> {
        self.with(|s| s.summary(tier))
    }

    fn load(&mut self, tier: u32) -> Result<Option<Vec<u16>>, grundy::Error> {
        self.with(|s| s.load(tier))
    }

    fn record(&mut self, tier: u32, rank: u64) -> Result<Option<u16>, grundy::Error> {
        self.with(|s| s.record(tier, rank))
    }

    fn save(
        &mut self,
        tier: u32,
        records: &[u16],
        summary: &TierSummary,
    ) -> Result<(), grundy::Error> {
        self.with(|s| s.save(tier, records, summary))
    }
}

/// The report of `spec`: from the tablebase of its game when there is one (as
/// [`report::solve_with`]), else by the analyzer. A position the tablebase does not hold —
/// a tier it lacks, or a position that play from the start never reaches (which
/// `solve_with` refuses) — is solved by the analyzer too.
///
/// # Errors
/// What the analyzer refuses; [`grundy::Error::Store`] from a damaged store.
pub fn solve(
    tablebases: &[Tablebase],
    spec: &Spec,
    limits: &Limits<'_>,
) -> Result<Report, grundy::Error> {
    if let Some(tablebase) = tablebases.iter().find(|t| t.holds(spec)) {
        match report::lookup(spec, limits, &mut Locked(&tablebase.store)) {
            Ok(Some(report)) => return Ok(report),
            Ok(None) | Err(grundy::Error::Unsupported(_)) => {}
            Err(e) => return Err(e),
        }
    }
    report::solve(spec, limits)
}
