//! The tier solver: which positions the start reaches (a forward pass, tier by tier from
//! the first), then every tier from the last to the first, each labelled from the tiers
//! it moves into, on all cores, and kept in a [`TierStore`].
//!
//! A tier whose moves all leave it is one parallel pass: each position's record follows
//! from its children's, already solved. Positions with moves inside their own tier (Quixo's
//! own cubes, Kalah's short sowings) are labelled by the one retrograde engine
//! ([`crate::solve::label_by_degree`]) on the subgraph they form, cycles giving draws;
//! their moves out of the tier enter that graph as edges to two chains of virtual
//! vertices, one decided at every distance each way, so the engine's FIFO order still
//! gives every remoteness exactly. Score games order such positions topologically and
//! take the minimax margin.
//!
//! Memory: one bit per rank of the tiers not yet solved (reachability), two bytes per
//! rank of the tier being solved and of the tiers it moves into, and, while a tier of
//! fewer than 4 Mi ranks is solved, of the tier being written meanwhile (small tiers are
//! held back to be saved together, at most 256 Ki ranks). Nothing else is kept per position, and no lock is taken in the inner loops:
//! each thread writes its own slice of records and sets reachability bits with atomic
//! `or`s.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;

use super::record;
use super::{Child, Node, TierGame, TierStore, TierSummary};
use crate::csr::Csr;
use crate::explore::Control;
use crate::game::{Best, Outcome, Step, Value};
use crate::solve::{label_by_degree, label_by_degree_in_parallel, reverse_topological_order};
use crate::Error;

/// Ranks per unit of parallel work (and between progress reports). Every parallel pass
/// hands out one unit at a time (`with_max_len(1)`): rayon's adaptive split otherwise
/// leaves runs of units that cannot be stolen, and the reached positions of a tier are
/// far from even (Quixo 4 × 4 on two threads: 1.26 cores busy, now 1.63).
/// A tier of fewer than `CHUNK` ranks a thread gets smaller units ([`chunk_len`]), so that
/// its last unit does not keep one thread busy while the others wait at the tier's end.
const CHUNK: u64 = 1 << 15;

/// Ranks of solved tiers held unsaved before they are saved together
/// ([`TierStore::save_many`], their files synced at once): the last tiers solved, tiny,
/// would otherwise each wait on the disk with every core idle (256 Ki ranks, 512 KiB).
const SAVED_TOGETHER: u64 = 1 << 18;

/// Tiers of fewer ranks than this are solved while the tiers before are written (4 Mi
/// ranks, 8 MiB of records); larger ones after, as the writing would add to the peak of
/// memory (connect four 5 × 5 overlapping every tier: 175 MiB, 161 MiB not).
const OVERLAPPED_BELOW: u64 = 1 << 22;

/// The fewest ranks a unit of work has (a visit's set-up is paid once a unit).
const MIN_CHUNK: u64 = 1 << 12;

/// The ranks a unit of work has in a tier of `size` ranks: [`CHUNK`], or for a small tier
/// about an eighth of a thread's share, at least [`MIN_CHUNK`].
fn chunk_len(size: u64) -> u64 {
    let threads = rayon::current_num_threads().max(1) as u64;
    (size / threads / 8).clamp(MIN_CHUNK, CHUNK)
}

/// How to solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Worker threads; `0` for every core.
    pub threads: usize,
    /// The most bytes the solver may hold at once (reachability bits and the tiers in
    /// memory); a game that needs more is refused before anything is allocated.
    pub max_bytes: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 0,
            max_bytes: 16 << 30,
        }
    }
}

/// What the solver is doing, for progress bars.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Marking the positions the start reaches in `tier`: `done` of `total` ranks read.
    Reach {
        /// The tier.
        tier: u32,
        /// Ranks read so far.
        done: u64,
        /// Ranks in the tier.
        total: u64,
    },
    /// Solving `tier`: `done` of `total` ranks read.
    Solve {
        /// The tier.
        tier: u32,
        /// Ranks read so far.
        done: u64,
        /// Ranks in the tier.
        total: u64,
    },
    /// `tier` is done: solved and saved, or (`loaded`) found whole in the store.
    Done {
        /// What it holds.
        summary: TierSummary,
        /// Whether it was in the store already.
        loaded: bool,
    },
}

/// A listener for [`Event`]s, called from worker threads.
pub type Listener<'a> = dyn Fn(&Event) + Sync + 'a;

/// A solved game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// Every tier, first to last.
    pub tiers: Vec<TierSummary>,
    /// The start's record.
    pub root: u16,
}

impl Solved {
    /// Positions reached from the start, over every tier.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.tiers.iter().map(|t| t.positions).sum()
    }
}

/// The tiers that the tiers below `below` still unsolved (no summary yet) move into, in
/// order: what a solver going from the last tier down must keep in memory.
#[must_use]
pub fn needed(game: &dyn TierGame, below: u32, summaries: &[Option<TierSummary>]) -> Vec<u32> {
    let mut need: Vec<u32> = (0..below)
        .filter(|&s| summaries[s as usize].is_none())
        .flat_map(|s| game.child_tiers(s))
        .collect();
    need.sort_unstable();
    need.dedup();
    need
}

/// Memory the solver needs at most for `game`, in bytes: reachability bits for every
/// tier, and the largest tier held with the tiers it moves into.
#[must_use]
pub fn memory_needed(game: &dyn TierGame) -> u128 {
    let n = game.tier_count();
    let bits: u128 = (0..n)
        .map(|t| u128::from(game.tier_size(t)).div_ceil(64) * 8)
        .sum();
    let held = (0..n)
        .map(|t| {
            let children: u128 = game
                .child_tiers(t)
                .iter()
                .map(|&c| u128::from(game.tier_size(c)))
                .sum();
            2 * (u128::from(game.tier_size(t)) + children)
        })
        .max()
        .unwrap_or(0);
    bits + held
}

/// Solves every tier `store` does not hold yet, and returns what each holds.
///
/// Tiers the store holds are trusted as they are (the store checks them); the others are
/// solved from the last to the first and saved one by one, so a run stopped at any moment
/// resumes from the last tier it saved.
///
/// # Errors
/// [`Error::TooLarge`] past `options.max_bytes` (before anything is allocated) or for a
/// remoteness or margin a record cannot hold; [`Error::Cancelled`]; [`Error::Store`] from
/// the store; [`Error::Unsupported`] for a game that breaks the tier contract (a move to
/// an earlier tier, a child never reached, a score game with a cycle inside a tier).
pub fn solve(
    game: &dyn TierGame,
    store: &mut dyn TierStore,
    options: &Options,
    listen: &Listener<'_>,
    control: &Control<'_>,
) -> Result<Solved, Error> {
    let need = memory_needed(game);
    if need > u128::from(options.max_bytes) {
        return Err(Error::over(
            crate::Limit::TierMemory,
            format!(
                "solving {} tier by tier within {} of memory",
                game.id(),
                crate::human_bytes(options.max_bytes)
            ),
            Some(need),
            Some(need),
        ));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| Error::Unsupported(format!("cannot start worker threads: {e}")))?;
    pool.install(|| Solver::new(game, listen, control).run(store, None))
}

/// [`solve`] holding back fewer or more ranks of small tiers than [`SAVED_TOGETHER`]
/// before saving them, for the tests.
#[cfg(test)]
fn solve_saving_together(
    game: &dyn TierGame,
    store: &mut dyn TierStore,
    threads: usize,
    listen: &Listener<'_>,
    saved_together: u64,
) -> Result<Solved, Error> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("threads");
    let control = Control::default();
    let mut solver = Solver::new(game, listen, &control);
    solver.saved_together = saved_together;
    pool.install(|| solver.run(store, None))
}

/// Builds a book of `game` to `depth`: the records of every position the start reaches in
/// tiers `..=depth`, kept in `store` like the tier solver's tiers (the same records, so
/// the same files). Tier `depth`'s positions still to play are valued by `leaf` (the
/// rank of one; a search, say) on every thread, one position at a time; the earlier
/// tiers follow from their children's records by the tier solver's own step, with no
/// search. Tiers the store holds are trusted and skipped, so a run stopped at any moment
/// resumes from the last tier it saved, and a deeper book reuses a shallower one's tiers.
///
/// Events: `Reach` as the solver's; `Solve` for tier `depth` counts positions valued by
/// `leaf` (not ranks), for the others ranks; `Done` per tier.
///
/// # Complexity
/// One bit per rank of the tiers up to `depth` and two bytes per rank of two tiers at a
/// time; a call of `leaf` per position of tier `depth` not over, then one visit of each
/// earlier tier.
///
/// # Errors
/// As [`solve`]; [`Error::Unsupported`] for a depth past the last tier or a game whose
/// moves from a tier before `depth` skip past it; an error of `leaf`.
pub fn book(
    game: &dyn TierGame,
    depth: u32,
    store: &mut dyn TierStore,
    leaf: &(dyn Fn(u64) -> Result<u16, Error> + Sync),
    options: &Options,
    listen: &Listener<'_>,
    control: &Control<'_>,
) -> Result<Solved, Error> {
    book_fits(game, depth)?;
    let bits: u128 = (0..=depth)
        .map(|t| u128::from(game.tier_size(t)).div_ceil(64) * 8)
        .sum();
    let held = (0..=depth)
        .map(|t| {
            2 * (u128::from(game.tier_size(t)) + u128::from(game.tier_size((t + 1).min(depth))))
        })
        .max()
        .unwrap_or(0);
    if bits + held > u128::from(options.max_bytes) {
        return Err(Error::over(
            crate::Limit::TierMemory,
            format!(
                "a book of {} to depth {depth} within {} of memory",
                game.id(),
                crate::human_bytes(options.max_bytes)
            ),
            Some(bits + held),
            Some(bits + held),
        ));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| Error::Unsupported(format!("cannot start worker threads: {e}")))?;
    pool.install(|| Solver::new(game, listen, control).run(store, Some(Book { depth, leaf })))
}

/// Whether a book of `game` to tier `depth` stops before its last tier.
///
/// # Errors
/// [`Error::Unsupported`] for a depth at or past the last tier.
pub fn book_fits(game: &dyn TierGame, depth: u32) -> Result<(), Error> {
    let n = game.tier_count();
    if depth >= n {
        return Err(Error::Unsupported(format!(
            "{} has tiers 0 to {}: a book of depth {depth} would be past the last",
            game.id(),
            n.saturating_sub(1)
        )));
    }
    Ok(())
}

/// How long positions a book's search found may wait before the store keeps them
/// ([`TierStore::keep_found`]): a stopped build loses at most this much of its search.
pub const KEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// A book's run ([`book`]): the tiers up to `depth`, the last valued by `leaf`.
struct Book<'a> {
    depth: u32,
    leaf: &'a (dyn Fn(u64) -> Result<u16, Error> + Sync),
}

/// One bit per rank, set from many threads.
struct Bits(Vec<AtomicU64>);

impl Bits {
    fn new(len: u64) -> Bits {
        Bits((0..len.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
    }

    #[inline]
    fn get(&self, i: u64) -> bool {
        self.0[(i / 64) as usize].load(Ordering::Relaxed) >> (i % 64) & 1 != 0
    }

    /// Sets bit `i`; whether it was clear.
    #[inline]
    fn set(&self, i: u64) -> bool {
        let bit = 1u64 << (i % 64);
        self.0[(i / 64) as usize].fetch_or(bit, Ordering::Relaxed) & bit == 0
    }

    fn count(&self) -> u64 {
        self.0
            .iter()
            .map(|w| u64::from(w.load(Ordering::Relaxed).count_ones()))
            .sum()
    }
}

struct Solver<'a> {
    game: &'a dyn TierGame,
    listen: &'a Listener<'a>,
    control: &'a Control<'a>,
    /// [`SAVED_TOGETHER`], but in tests.
    saved_together: u64,
    scored: bool,
    /// Set by the first worker that fails, so the others stop.
    failed: AtomicBool,
    error: Mutex<Option<Error>>,
}

/// A tier solved and summarised whose records the store has not kept yet ([`Solver::run`]).
struct Unsaved {
    tier: u32,
    records: Arc<Vec<u16>>,
    summary: TierSummary,
}

/// One part's share of the subgraph of a tier's pending positions ([`Solver::solve_inside`]):
/// for each position, where its moves to pending ones end in `targets` (and `moves`), and
/// its moves out of the tier folded.
#[derive(Default)]
struct Piece {
    ends: Vec<usize>,
    targets: Vec<u32>,
    moves: Vec<(bool, i32)>,
    outside: Vec<Outside>,
}

/// The positions of a tier with moves inside it, as the tier solver and `grundy-dist`
/// keep them: for each, its moves out of the tier folded into an [`Outside`], and its
/// moves inside the tier, `inside[ends[i - 1]..ends[i]]` for `ranks[i]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pending {
    /// The positions, by rank, increasing.
    pub ranks: Vec<u64>,
    /// Each one's moves out of the tier, folded.
    pub outside: Vec<Outside>,
    /// Where each one's moves inside the tier end in `inside`.
    pub ends: Vec<usize>,
    /// Rank, gain, and whether the turn is kept (16 bytes a move; the tier is implied).
    pub inside: Vec<(u64, i32, bool)>,
}

impl Pending {
    /// Position `i`'s moves inside the tier.
    #[must_use]
    pub fn moves(&self, i: usize) -> &[(u64, i32, bool)] {
        let from = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.inside[from..self.ends[i]]
    }
}

/// What a position's moves to final records come to: for win/loss games the quickest
/// loss and the slowest win among the children (the engine needs no more: the mover wins
/// through the first, and loses only after the last), and whether one is a draw; for
/// score games the best margin through them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outside {
    /// The quickest loss among the children (a win for the mover through it).
    pub loss: Option<u32>,
    /// The slowest win among the children.
    pub win: Option<u32>,
    /// Whether a child is a draw.
    pub draw: bool,
    /// Whether a move keeps the turn (refused inside a win/loss tier).
    pub again: bool,
    /// Score games: the best margin through the moves counted.
    pub best: Best<i64>,
}

impl Outside {
    /// Counts a move with `gain` (keeping the turn if `again`) into a child of record `rec`.
    pub fn add(&mut self, rec: u16, again: bool, gain: i32, scored: bool) {
        if scored {
            let m = record::margin(rec).unwrap_or(0);
            self.best.offer(step(again, gain).value(m), ());
            return;
        }
        self.again |= again;
        match record::value(rec) {
            Some(Value::Loss(x)) => self.loss = Some(self.loss.map_or(x, |l| l.min(x))),
            Some(Value::Win(x)) => self.win = Some(self.win.map_or(x, |w| w.max(x))),
            _ => self.draw = true,
        }
    }
}

/// A move of a score game's tier, as [`Step`] values it.
#[inline]
#[must_use]
pub fn step(again: bool, gain: i32) -> Step {
    Step {
        keeps: again,
        gain: i64::from(gain),
    }
}

/// The ranks of `range` split into units of `len` ranks.
fn chunks(range: Range<u64>, len: u64) -> Vec<Range<u64>> {
    (range.start..range.end)
        .step_by(len as usize)
        .map(|s| s..(s + len).min(range.end))
        .collect()
}

impl<'a> Solver<'a> {
    fn new(game: &'a dyn TierGame, listen: &'a Listener<'a>, control: &'a Control<'a>) -> Self {
        Solver {
            game,
            listen,
            saved_together: SAVED_TOGETHER,
            control,
            scored: game.scored(),
            failed: AtomicBool::new(false),
            error: Mutex::new(None),
        }
    }

    /// Records the first error of any worker.
    fn fail(&self, e: Error) {
        self.failed.store(true, Ordering::Relaxed);
        let mut slot = self
            .error
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        slot.get_or_insert(e);
    }

    /// Whether workers should stop (an error, or someone asked to).
    fn stopping(&self) -> bool {
        if self.failed.load(Ordering::Relaxed) {
            return true;
        }
        if let Err(e) = self.control.check() {
            self.fail(e);
            return true;
        }
        false
    }

    fn outcome(&self) -> Result<(), Error> {
        match self
            .error
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
        {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The tier solver's run over every tier, or with `book` a book's tiers up to its
    /// depth, the last valued by its `leaf`: the tiers the store holds are trusted, the
    /// others solved from the last, each from the records of the tiers it moves into.
    fn run(&self, store: &mut dyn TierStore, book: Option<Book<'_>>) -> Result<Solved, Error> {
        let game = self.game;
        let n = game.tier_count();
        let sizes: Vec<u64> = (0..n).map(|t| game.tier_size(t)).collect();
        let (root_tier, root_rank) = game.root();
        // The tiers solved: every one, or the start's to the book's depth.
        let (first, last) = match &book {
            None => (0, n.saturating_sub(1)),
            Some(b) => (root_tier, b.depth),
        };
        if root_tier >= n || root_tier > last || root_rank >= sizes[root_tier as usize] {
            let tiers = match &book {
                None => "outside the tiers".to_string(),
                Some(b) => format!("not in tiers 0 to {}", b.depth),
            };
            return Err(Error::Unsupported(format!(
                "{}: the start ({root_tier}, {root_rank}) is {tiers}",
                game.id()
            )));
        }
        // Which tiers the store holds already; reachability is needed up to the last
        // tier missing.
        let mut summaries: Vec<Option<TierSummary>> = Vec::with_capacity(last as usize + 1);
        for t in 0..=last {
            let summary = store.summary(t)?;
            if let Some(s) = summary {
                if s.partial {
                    return Err(Error::Store(format!(
                        "tier {t} of {} holds some of its positions only (a book of the lines of play against the engine), so nothing is solved from it: solve in another directory",
                        game.id()
                    )));
                }
                if s.ranks != sizes[t as usize] {
                    return Err(Error::Store(format!(
                        "tier {t} of {} holds {} records, not {}",
                        game.id(),
                        s.ranks,
                        sizes[t as usize]
                    )));
                }
                (self.listen)(&Event::Done {
                    summary: s,
                    loaded: true,
                });
            }
            summaries.push(summary);
        }
        let missing_top = (first..=last)
            .rev()
            .find(|&t| summaries[t as usize].is_none());
        let mut reach: Vec<Option<Bits>> = match missing_top {
            Some(top) => self.reach(top, root_tier, root_rank, &sizes)?,
            None => Vec::new(),
        };
        // The tiers in memory: the one just solved and those a missing tier moves into.
        let mut held: BTreeMap<u32, Arc<Vec<u16>>> = BTreeMap::new();
        // The tiers solved and not yet saved: written while the next one is solved (their
        // files are not needed to solve it, the records it reads are held), so that
        // neither core waits on their encoding or on the disk; small tiers wait for
        // others, to be synced together ([`SAVED_TOGETHER`]).
        let mut unsaved: Vec<Unsaved> = Vec::new();
        for t in (first..=last).rev() {
            if summaries[t as usize].is_some() {
                continue;
            }
            let bits = reach[t as usize]
                .take()
                .expect("reachability is marked for every missing tier");
            let records = match &book {
                Some(b) if t == b.depth => {
                    self.save_unsaved(store, &mut unsaved)?;
                    self.search_tier(t, &bits, b.leaf, store)?
                }
                _ => {
                    // Tiers past a book are not held: a move into one is refused when met.
                    for c in game.child_tiers(t) {
                        if c <= t || c >= n {
                            self.save_unsaved(store, &mut unsaved)?;
                            return Err(Error::Unsupported(format!(
                                "{}: tier {t} lists tier {c} among the tiers it moves into; they must be later",
                                game.id()
                            )));
                        }
                        if c > last {
                            continue;
                        }
                        if let std::collections::btree_map::Entry::Vacant(slot) = held.entry(c) {
                            // The store is read only once no tier is being written to it.
                            self.save_unsaved(store, &mut unsaved)?;
                            let records = store.load(c)?.ok_or_else(|| {
                                Error::Store(format!("tier {c} of {} went missing", game.id()))
                            })?;
                            slot.insert(Arc::new(records));
                        }
                    }
                    let held_back: u64 = unsaved.iter().map(|u| u.records.len() as u64).sum();
                    if unsaved.is_empty() || held_back.max(sizes[t as usize]) < self.saved_together
                    {
                        // Nothing to save, or small tiers solving a small one: saved later,
                        // together.
                        self.solve_tier(t, &bits, &held)?
                    } else if sizes[t as usize] >= OVERLAPPED_BELOW {
                        // A large tier: the tiers before saved first, so that their
                        // writing does not add to its memory.
                        self.save_unsaved(store, &mut unsaved)?;
                        self.solve_tier(t, &bits, &held)?
                    } else {
                        let (saved, solved) = rayon::join(
                            || self.save_unsaved(store, &mut unsaved),
                            || self.solve_tier(t, &bits, &held),
                        );
                        // The tiers before are kept first: a run stopped here resumes
                        // from them.
                        saved?;
                        solved?
                    }
                }
            };
            drop(bits);
            let summary = self.summarise(t, &records);
            summaries[t as usize] = Some(summary);
            let records = Arc::new(records);
            unsaved.push(Unsaved {
                tier: t,
                records: Arc::clone(&records),
                summary,
            });
            if t > first && sizes[t as usize - 1] >= OVERLAPPED_BELOW {
                // Before a large tier: saved now, before the tiers it moved into are let
                // go, as the solver always did (saved later, connect four 5 × 5 peaked at
                // 183 MiB rather than 161: the allocator lays the tiers out otherwise).
                self.save_unsaved(store, &mut unsaved)?;
            }
            held.insert(t, records);
            let keep = needed(game, t, &summaries);
            held.retain(|t, _| keep.contains(t) || *t == root_tier);
        }
        self.save_unsaved(store, &mut unsaved)?;
        let root = match held.get(&root_tier) {
            Some(records) => records[root_rank as usize],
            None => store
                .record(root_tier, root_rank)?
                .ok_or_else(|| Error::Store(format!("tier {root_tier} went missing")))?,
        };
        Ok(Solved {
            tiers: summaries.into_iter().flatten().collect(),
            root,
        })
    }

    /// Keeps the tiers left unsaved in `store`, in the order solved (the last first), then
    /// tells the listener each is done: before the store is read, or the run ends.
    fn save_unsaved(
        &self,
        store: &mut dyn TierStore,
        unsaved: &mut Vec<Unsaved>,
    ) -> Result<(), Error> {
        if unsaved.is_empty() {
            return Ok(());
        }
        let tiers: Vec<(u32, &[u16], TierSummary)> = unsaved
            .iter()
            .map(|u| (u.tier, u.records.as_slice(), u.summary))
            .collect();
        store.save_many(&tiers)?;
        for u in unsaved.drain(..) {
            (self.listen)(&Event::Done {
                summary: u.summary,
                loaded: false,
            });
        }
        Ok(())
    }

    /// The records of the book's last tier: positions over by the game's rule from the
    /// visit, the others from `leaf`, one position a task on every thread.
    ///
    /// What `leaf` gives is kept by the store as it goes ([`TierStore::keep_found`]: at
    /// most [`KEEP_EVERY`] apart, and at once when the run stops), and what an earlier
    /// run kept is not searched again.
    fn search_tier(
        &self,
        tier: u32,
        reach: &Bits,
        leaf: &(dyn Fn(u64) -> Result<u16, Error> + Sync),
        store: &mut dyn TierStore,
    ) -> Result<Vec<u16>, Error> {
        let game = self.game;
        let size = game.tier_size(tier);
        let mut records = vec![record::UNREACHED; size as usize];
        let kept = store.found(tier)?;
        for &(rank, r) in &kept {
            if rank >= size || r == record::UNREACHED || !reach.get(rank) {
                return Err(Error::Store(format!(
                    "{}: the positions kept of tier {tier} name rank {rank}, which the start does not reach",
                    game.id()
                )));
            }
            records[rank as usize] = r;
        }
        let mut open = Vec::new();
        let mut failed = None;
        game.visit(
            tier,
            0..size,
            &|r| reach.get(r),
            &mut |rank, node| match node {
                Node::Moves(children) if !children.is_empty() => {
                    if records[rank as usize] == record::UNREACHED {
                        open.push(rank);
                    }
                }
                _ => match evaluate(game, self.scored, tier, node, |_| Ok(None)) {
                    Ok(Some(r)) => records[rank as usize] = r,
                    Ok(None) => unreachable!("a position with no move is valued alone"),
                    Err(e) => failed = Some(e),
                },
            },
        );
        if let Some(e) = failed {
            return Err(e);
        }
        let total = open.len() as u64 + kept.len() as u64;
        let done = AtomicU64::new(kept.len() as u64);
        // Found since the store last kept them, and when that was.
        let unkept = Mutex::new((Vec::new(), Instant::now()));
        let store = Mutex::new(store);
        let keep = |found: &[(u64, u16)]| {
            if found.is_empty() {
                return;
            }
            let mut store = store.lock().unwrap_or_else(|p| p.into_inner());
            if let Err(e) = store.keep_found(tier, found) {
                self.fail(e);
            }
        };
        let found: Vec<(u64, u16)> = open
            .into_par_iter()
            .with_max_len(1)
            .filter_map(|rank| {
                if self.stopping() {
                    return None;
                }
                match leaf(rank) {
                    Ok(r) => {
                        let so_far = done.fetch_add(1, Ordering::Relaxed) + 1;
                        (self.listen)(&Event::Solve {
                            tier,
                            done: so_far,
                            total,
                        });
                        let due = {
                            let mut unkept = unkept.lock().unwrap_or_else(|p| p.into_inner());
                            unkept.0.push((rank, r));
                            (unkept.1.elapsed() >= KEEP_EVERY).then(|| {
                                unkept.1 = Instant::now();
                                std::mem::take(&mut unkept.0)
                            })
                        };
                        if let Some(due) = due {
                            keep(&due);
                        }
                        Some((rank, r))
                    }
                    Err(e) => {
                        self.fail(e);
                        None
                    }
                }
            })
            .collect();
        if self.stopping() {
            // Stopped part way (Ctrl-C, a failure): what was found is kept for the next run.
            let (rest, _) = unkept.into_inner().unwrap_or_else(|p| p.into_inner());
            keep(&rest);
        }
        self.outcome()?;
        for (rank, r) in found {
            if r == record::UNREACHED {
                return Err(Error::Unsupported(format!(
                    "{}: the search gave no value to rank {rank} of tier {tier}",
                    game.id()
                )));
            }
            records[rank as usize] = r;
        }
        Ok(records)
    }

    fn summarise(&self, tier: u32, records: &[u16]) -> TierSummary {
        summarise(self.scored, tier, records)
    }

    /// Marks the positions the start reaches in tiers `0..=top`, tier by tier; moves inside
    /// a tier are followed until nothing new is marked.
    fn reach(
        &self,
        top: u32,
        root_tier: u32,
        root_rank: u64,
        sizes: &[u64],
    ) -> Result<Vec<Option<Bits>>, Error> {
        let game = self.game;
        let n = game.tier_count();
        let reach: Vec<Option<Bits>> = (0..n)
            .map(|t| (t <= top).then(|| Bits::new(sizes[t as usize])))
            .collect();
        if root_tier > top {
            return Ok(reach);
        }
        reach[root_tier as usize]
            .as_ref()
            .expect("allocated")
            .set(root_rank);
        for t in root_tier..=top {
            let size = sizes[t as usize];
            let done = AtomicU64::new(0);
            // Passes over the tier until moves inside it mark nothing new: each pass
            // expands the marked ranks not yet expanded, walking the tier in order (a
            // family's visit skips the others cheaply), so a tier with no move inside it
            // takes one pass.
            let expanded = Bits::new(size);
            loop {
                let own = reach[t as usize].as_ref().expect("allocated");
                let later = &reach;
                let fresh = AtomicBool::new(false);
                chunks(0..size, chunk_len(size))
                    .into_par_iter()
                    .with_max_len(1)
                    .for_each(|range| {
                        if self.stopping() {
                            return;
                        }
                        let len = range.end - range.start;
                        let want = |r: u64| own.get(r) && !expanded.get(r);
                        game.visit(t, range, &want, &mut |r, node| {
                            expanded.set(r);
                            let Node::Moves(children) = node else {
                                return;
                            };
                            for c in children {
                                if c.tier < t || c.tier >= n {
                                    self.fail(Error::Unsupported(format!(
                                    "{}: a move from tier {t} to tier {}: tiers must not go back",
                                    game.id(),
                                    c.tier
                                )));
                                    return;
                                }
                                if c.tier > top {
                                    continue;
                                }
                                let bits = later[c.tier as usize].as_ref().expect("allocated");
                                if c.rank >= sizes[c.tier as usize] {
                                    self.fail(Error::Unsupported(format!(
                                        "{}: a move to rank {} of tier {}, which has {} ranks",
                                        game.id(),
                                        c.rank,
                                        c.tier,
                                        sizes[c.tier as usize]
                                    )));
                                    return;
                                }
                                if bits.set(c.rank) && c.tier == t {
                                    fresh.store(true, Ordering::Relaxed);
                                }
                            }
                        });
                        let so_far = done.fetch_add(len, Ordering::Relaxed) + len;
                        (self.listen)(&Event::Reach {
                            tier: t,
                            done: so_far.min(size),
                            total: size,
                        });
                    });
                self.outcome()?;
                if !fresh.load(Ordering::Relaxed) {
                    break;
                }
            }
        }
        Ok(reach)
    }

    /// The records of `tier`: every reached rank labelled, the others [`record::UNREACHED`].
    fn solve_tier(
        &self,
        tier: u32,
        reach: &Bits,
        held: &BTreeMap<u32, Arc<Vec<u16>>>,
    ) -> Result<Vec<u16>, Error> {
        let game = self.game;
        let size = game.tier_size(tier);
        let mut records = vec![record::UNREACHED; size as usize];
        let chunk = chunk_len(size);
        let done = AtomicU64::new(0);
        let later: Vec<Option<&[u16]>> = (0..game.tier_count())
            .map(|t| held.get(&t).map(|r| r.as_slice()))
            .collect();
        // Pass 1: every position whose moves all leave the tier; the others are pending,
        // kept with their moves for pass 2 (so the tier is walked once).
        let parts: Vec<Pending> = records
            .par_chunks_mut(chunk as usize)
            .with_max_len(1)
            .enumerate()
            .map(|(i, out)| {
                let start = i as u64 * chunk;
                let range = start..start + out.len() as u64;
                let mut pending = Pending::default();
                if self.stopping() {
                    return pending;
                }
                let len = range.end - range.start;
                game.visit(tier, range, &|r| reach.get(r), &mut |rank, node| {
                    let slot = &mut out[(rank - start) as usize];
                    match self.evaluate(tier, node, &later, None) {
                        Ok(Some(r)) => *slot = r,
                        Ok(None) => {
                            if let Node::Moves(children) = node {
                                let mut out = Outside::default();
                                for c in children {
                                    if c.tier == tier {
                                        pending.inside.push((c.rank, c.gain, c.again));
                                        continue;
                                    }
                                    // `evaluate` stopped at the first move inside the
                                    // tier: check the others as it would have.
                                    let rec = later[c.tier as usize]
                                        .map_or(record::UNREACHED, |r| r[c.rank as usize]);
                                    if rec == record::UNREACHED {
                                        self.fail(Error::Unsupported(format!(
                                            "{}: a move from tier {tier} leads to rank {} of tier {}, which the start never reached or the tier does not list",
                                            game.id(),
                                            c.rank,
                                            c.tier
                                        )));
                                    }
                                    out.add(rec, c.again, c.gain, self.scored);
                                }
                                pending.ranks.push(rank);
                                pending.outside.push(out);
                                pending.ends.push(pending.inside.len());
                            }
                        }
                        Err(e) => self.fail(e),
                    }
                });
                let so_far = done.fetch_add(len, Ordering::Relaxed) + len;
                (self.listen)(&Event::Solve {
                    tier,
                    done: so_far.min(size),
                    total: size,
                });
                pending
            })
            .collect();
        self.outcome()?;
        if parts.iter().any(|p| !p.ranks.is_empty()) {
            self.solve_inside(tier, parts, &mut records)?;
        }
        debug_assert_eq!(
            records.iter().filter(|&&r| r != record::UNREACHED).count() as u64,
            reach.count()
        );
        Ok(records)
    }

    /// The record of a position from its children's, or `None` if a child is in the same
    /// tier and not final (`same` gives the records of the tier being solved, once the
    /// positions without moves inside it are final).
    fn evaluate(
        &self,
        tier: u32,
        node: Node<'_>,
        later: &[Option<&[u16]>],
        same: Option<&dyn Fn(u64) -> Option<u16>>,
    ) -> Result<Option<u16>, Error> {
        evaluate(self.game, self.scored, tier, node, |c| {
            if c.tier == tier {
                return Ok(same.and_then(|f| f(c.rank)));
            }
            let records = later
                .get(c.tier as usize)
                .copied()
                .flatten()
                .ok_or_else(|| {
                    Error::Unsupported(format!(
                        "{}: a move from tier {tier} to tier {}, which it does not list among its child tiers",
                        self.game.id(),
                        c.tier
                    ))
                })?;
            Ok(Some(records[c.rank as usize]))
        })
    }

    fn margin_record(&self, margin: i64) -> Result<u16, Error> {
        margin_record(margin)
    }

    /// Pass 2: the positions of `tier` with moves inside it, labelled on the subgraph they
    /// form (win/loss/draw by the retrograde engine; score games in topological order).
    fn solve_inside(
        &self,
        tier: u32,
        parts: Vec<Pending>,
        records: &mut [u16],
    ) -> Result<(), Error> {
        let game = self.game;
        let scored = self.scored;
        let ranks: Vec<u64> = parts.iter().flat_map(|p| p.ranks.iter().copied()).collect();
        let ids = Ids::new(records.len(), &ranks)?;
        let id_of = |rank: u64| ids.get(rank);
        // Each part's piece of the subgraph of the pending positions, on every thread:
        // their moves to pending ones (ids, and for score games the gain and whether the
        // turn is kept), the moves to final records folded into their outsides. A part is
        // dropped as soon as its piece is made.
        let known: &[u16] = records;
        let pieces: Vec<Result<Piece, Error>> = parts
            .into_par_iter()
            .with_max_len(1)
            .map(|part| {
                let mut piece = Piece::default();
                let mut from = 0;
                for (i, &end) in part.ends.iter().enumerate() {
                    let mut out = part.outside[i];
                    for &(rank, gain, again) in &part.inside[from..end] {
                        if !scored && again {
                            return Err(turn_kept_inside(game, tier));
                        }
                        if let Some(id) = id_of(rank) {
                            piece.targets.push(id);
                            if scored {
                                piece.moves.push((again, gain));
                            }
                            continue;
                        }
                        let rec = known[rank as usize];
                        if rec == record::UNREACHED {
                            return Err(Error::Unsupported(format!(
                                "{}: a move inside tier {tier} to rank {rank}, which the start never reached",
                                game.id()
                            )));
                        }
                        out.add(rec, again, gain, scored);
                    }
                    from = end;
                    piece.outside.push(out);
                    piece.ends.push(piece.targets.len());
                }
                Ok(piece)
            })
            .collect();
        let pieces = pieces.into_iter().collect::<Result<Vec<Piece>, Error>>()?;
        self.control.check()?;
        if !scored {
            return self.label_inside(tier, &ranks, pieces, records);
        }
        // The pieces end to end: the moves of position i to pending ones are
        // targets[offsets[i]..offsets[i + 1]].
        let edges: usize = pieces.iter().map(|p| p.targets.len()).sum();
        let mut offsets: Vec<u64> = Vec::with_capacity(ranks.len() + 1);
        let mut targets: Vec<u32> = Vec::with_capacity(edges);
        let mut moves: Vec<(bool, i32)> = Vec::with_capacity(edges);
        let mut outside: Vec<Outside> = Vec::with_capacity(ranks.len());
        offsets.push(0);
        for piece in pieces {
            let base = targets.len() as u64;
            offsets.extend(piece.ends.iter().map(|&end| base + end as u64));
            targets.extend_from_slice(&piece.targets);
            moves.extend_from_slice(&piece.moves);
            outside.extend_from_slice(&piece.outside);
        }
        let graph = Csr::from_parts(offsets, targets)
            .map_err(|e| Error::Unsupported(format!("tier {tier}: {e}")))?;
        self.score_inside(&ranks, &graph, &moves, &outside, records)
    }

    /// Labels the pending positions by the retrograde engine on their subgraph, each move
    /// out of it an edge to a vertex decided at the child's distance: vertex `p` is a
    /// declared draw, then two chains, `a_k = p + 1 + 2k` (lost at 0, then decided by
    /// `a_{k-1}` alone: won at odd k, lost at even) and `b_k = p + 2 + 2k` (won at 0, then
    /// lost at odd k, won at even), so the engine's FIFO order keeps every distance exact.
    ///
    /// The engine needs each vertex's degree and its predecessors only, so the reverse
    /// graph is built straight from the pieces (their edges walked twice: counted, then
    /// placed), with no forward graph beside it: the pieces' targets, the reverse and a
    /// degree a vertex are all that is held (4 + 4 bytes a move, 12 a vertex).
    ///
    /// On two threads or more and from [`PARALLEL_LABELLING`] vertices, the pieces are
    /// walked on every thread ([`reverse_in_parallel`]) and the subgraph labelled by the
    /// engine level by level ([`label_by_degree_in_parallel`]): the chains are decided
    /// level by level too, so the labels and remoteness are the FIFO's.
    fn label_inside(
        &self,
        tier: u32,
        pending: &[u64],
        pieces: Vec<Piece>,
        records: &mut [u16],
    ) -> Result<(), Error> {
        let p = pending.len() as u32;
        let outsides = || pieces.iter().flat_map(|piece| piece.outside.iter());
        if outsides().any(|o| o.again) {
            return Err(turn_kept_inside(self.game, tier));
        }
        let longest = outsides()
            .map(|o| o.loss.unwrap_or(0).max(o.win.unwrap_or(0)))
            .max()
            .unwrap_or(0);
        let draw_vertex = p;
        let a = |k: u32| p + 1 + 2 * k;
        let b = |k: u32| p + 2 + 2 * k;
        // The vertex decided at distance x with value `won` for its mover.
        let at = |won: bool, x: u32| if won == (x % 2 == 1) { a(x) } else { b(x) };
        let total = p as usize + 1 + 2 * (longest as usize + 1);
        if total > u32::MAX as usize {
            return Err(Error::Unsupported(format!(
                "tier {tier}: {total} vertices inside it, past 32-bit ids"
            )));
        }
        // A piece's edges (from, to), its first vertex `base`: its positions' moves inside
        // the tier, then their moves out of it to the vertex of their distance.
        let piece_edges = |piece: &Piece, base: u32, f: &mut dyn FnMut(u32, u32)| {
            let mut from = 0;
            for (v, (o, &end)) in (base..).zip(piece.outside.iter().zip(&piece.ends)) {
                for &t in &piece.targets[from..end] {
                    f(v, t);
                }
                if let Some(x) = o.loss {
                    f(v, at(false, x));
                }
                if let Some(x) = o.win {
                    f(v, at(true, x));
                }
                if o.draw {
                    f(v, draw_vertex);
                }
                from = end;
            }
        };
        // The chains' edges: the draw vertex and a_0, b_0 have no move, a_k and b_k one each.
        let chain_edges = |f: &mut dyn FnMut(u32, u32)| {
            for v in p + 1..total as u32 {
                let k = (v - p - 1) / 2;
                if k > 0 {
                    f(v, if v == a(k) { a(k - 1) } else { b(k - 1) });
                }
            }
        };
        let parallel = rayon::current_num_threads() > 1 && total >= PARALLEL_LABELLING;
        let (degree, reverse) = if parallel {
            // A position's moves out of the tier, to the chains' vertices.
            let outs = |o: &Outside| {
                let mut to = [0u32; 3];
                let mut k = 0;
                for t in [
                    o.loss.map(|x| at(false, x)),
                    o.win.map(|x| at(true, x)),
                    o.draw.then_some(draw_vertex),
                ]
                .into_iter()
                .flatten()
                {
                    to[k] = t;
                    k += 1;
                }
                (to, k)
            };
            reverse_in_parallel(&pieces, total, outs, chain_edges)?
        } else {
            // Every edge, vertices in increasing order.
            let each_edge = |f: &mut dyn FnMut(u32, u32)| {
                let mut base = 0u32;
                for piece in &pieces {
                    piece_edges(piece, base, f);
                    base += piece.ends.len() as u32;
                }
                chain_edges(f);
            };
            let mut degree = crate::memory::filled(total, 0u32, "the tier's subgraph")?;
            let mut offsets = crate::memory::filled(total + 1, 0u64, "the tier's subgraph")?;
            let mut edges = 0usize;
            each_edge(&mut |from, to| {
                degree[from as usize] += 1;
                offsets[to as usize] += 1;
                edges += 1;
            });
            prefix_sums(&mut offsets);
            let mut sources = crate::memory::filled(edges, 0u32, "the tier's subgraph")?;
            each_edge(&mut |from, to| {
                let slot = &mut offsets[to as usize];
                *slot -= 1;
                sources[*slot as usize] = from;
            });
            (degree, (offsets, sources))
        };
        drop(pieces);
        let (offsets, sources) = reverse;
        let reverse = Csr::from_parts(offsets, sources)
            .map_err(|e| Error::Unsupported(format!("tier {tier}: {e}")))?;
        let terminal = |v| {
            if v == a(0) {
                Some(Outcome::Loss)
            } else if v == b(0) {
                Some(Outcome::Win)
            } else if v == draw_vertex {
                Some(Outcome::Draw)
            } else {
                None
            }
        };
        let labels = if parallel {
            label_by_degree_in_parallel(
                |v| u64::from(degree[v as usize]),
                &reverse,
                terminal,
                self.control,
            )?
        } else {
            label_by_degree(
                |v| u64::from(degree[v as usize]),
                &reverse,
                terminal,
                None,
                self.control,
            )?
        };
        for (i, &rank) in pending.iter().enumerate() {
            let value = labels.value(i as u32);
            records[rank as usize] = record::of_value(value).ok_or_else(|| too_remote(value))?;
        }
        Ok(())
    }

    /// Margins of the pending positions of a score game, in a topological order of their
    /// subgraph (a cycle is refused).
    fn score_inside(
        &self,
        pending: &[u64],
        graph: &Csr,
        moves: &[(bool, i32)],
        outside: &[Outside],
        records: &mut [u16],
    ) -> Result<(), Error> {
        let order = reverse_topological_order(graph, &graph.reverse()).map_err(|_| {
            Error::Unsupported(format!(
                "{}: positions repeat inside a tier; margins of score games with cycles are not defined here",
                self.game.id()
            ))
        })?;
        let offsets = graph.offsets();
        let mut margin = vec![0i64; pending.len()];
        for &v in &order {
            let mut best = outside[v as usize].best;
            let first = offsets[v as usize] as usize;
            for (j, &c) in graph.successors(v).iter().enumerate() {
                let (again, gain) = moves[first + j];
                best.offer(step(again, gain).value(margin[c as usize]), ());
            }
            margin[v as usize] = best.key().unwrap_or(0);
            records[pending[v as usize] as usize] = self.margin_record(margin[v as usize])?;
        }
        Ok(())
    }
}

/// The id (index among the pending positions) of each pending rank of a tier: a bit a
/// rank, and with each word of 64 the number of pending ranks before it, so a rank's id is
/// that number and the bits set below it in its word; a move's id in one read of 16 bytes
/// rather than a binary search over the pending ranks (which `perf` had put at 11% of a
/// quixo 4×4 solve). 2 bits a rank of the tier.
struct Ids(Vec<(u64, u64)>);

impl Ids {
    /// `ranks` increasing, each below `size`.
    fn new(size: usize, ranks: &[u64]) -> Result<Ids, Error> {
        let mut words = crate::memory::filled(size.div_ceil(64), (0u64, 0u64), "the tier's ids")?;
        for &r in ranks {
            words[(r / 64) as usize].0 |= 1 << (r % 64);
        }
        let mut before = 0u64;
        for (bits, base) in &mut words {
            *base = before;
            before += u64::from(bits.count_ones());
        }
        Ok(Ids(words))
    }

    /// The id of `rank`, `None` if it is not pending.
    #[inline]
    fn get(&self, rank: u64) -> Option<u32> {
        let &(bits, base) = self.0.get(usize::try_from(rank / 64).ok()?)?;
        let bit = 1u64 << (rank % 64);
        (bits & bit != 0).then(|| (base + u64::from((bits & (bit - 1)).count_ones())) as u32)
    }
}

/// The fewest vertices of a tier's subgraph labelled on every thread ([`Solver::solve_inside`]):
/// below, the sequential engine is as quick. Every size in tests, so that the tests on two
/// threads check the parallel path against one labelling and those on one the sequential.
#[cfg(not(test))]
const PARALLEL_LABELLING: usize = 1 << 15;
#[cfg(test)]
const PARALLEL_LABELLING: usize = 1;

/// Counts in place to where each vertex's list ends: `counts[v]` becomes the sum of
/// `counts[..=v]` (the last entry, one past the vertices, the total).
fn prefix_sums(counts: &mut [u64]) {
    let Some((last, firsts)) = counts.split_last_mut() else {
        return;
    };
    let mut sum = 0u64;
    for o in firsts {
        sum += *o;
        *o = sum;
    }
    *last = sum;
}

/// A reverse graph as its offsets and sources, for [`Csr::from_parts`].
type Reverse = (Vec<u64>, Vec<u32>);

/// The degrees and the reverse graph (offsets, sources) of a tier's subgraph, on every
/// thread and with no atomic operation: the `p` pending positions are cut into ranges
/// ([`crate::engine::owned_ranges`]), and each range's task walks every piece's moves inside the tier, counting then
/// placing those into its own range (its own offsets, its own stretch of the sources). A
/// position's degree is counted by its piece. The moves out of the tier (`outs` gives the
/// chain vertices a position's [`Outside`] moves to) and the chains' own few edges all lead
/// to the chains' vertices, past `p`: counted and placed on one thread, one short walk of
/// the outsides. Each piece's first vertex is the sum of the earlier pieces' positions.
/// Predecessors are listed in no set order (the level engine does not depend on it).
fn reverse_in_parallel(
    pieces: &[Piece],
    total: usize,
    outs: impl Fn(&Outside) -> ([u32; 3], usize) + Sync,
    chain_edges: impl Fn(&mut dyn FnMut(u32, u32)),
) -> Result<(Vec<u32>, Reverse), Error> {
    let what = "the tier's subgraph";
    let p: usize = pieces.iter().map(|piece| piece.ends.len()).sum();
    let mut degree = crate::memory::filled(total, 0u32, what)?;
    let mut offsets = crate::memory::filled(total + 1, 0u64, what)?;
    let mut bases = Vec::with_capacity(pieces.len());
    let mut base = 0u32;
    for piece in pieces {
        bases.push(base);
        base += piece.ends.len() as u32;
    }
    // Each piece's degrees, on every thread.
    {
        let mut parts = Vec::with_capacity(pieces.len());
        let mut rest = &mut degree[..p];
        for piece in pieces {
            let (head, tail) = rest.split_at_mut(piece.ends.len());
            parts.push(head);
            rest = tail;
        }
        pieces
            .par_iter()
            .zip(parts)
            .with_max_len(1)
            .for_each(|(piece, degree)| {
                let mut from = 0;
                for ((d, o), &end) in degree.iter_mut().zip(&piece.outside).zip(&piece.ends) {
                    *d = (end - from + outs(o).1) as u32;
                    from = end;
                }
            });
    }
    // The ranges of pending positions, each with its offsets.
    let ranges = crate::engine::owned_ranges(p);
    let bounds: Vec<usize> = (0..=ranges).map(|k| k * p / ranges).collect();
    fn split<'a>(offsets: &'a mut [u64], bounds: &[usize]) -> Vec<(usize, &'a mut [u64])> {
        let mut parts = Vec::with_capacity(bounds.len());
        let mut rest = offsets;
        for w in bounds.windows(2) {
            let (head, tail) = rest.split_at_mut(w[1] - w[0]);
            parts.push((w[0], head));
            rest = tail;
        }
        parts
    }
    // Each move inside the tier into `range`, as (from, index of `to` in the range).
    let each_into = |low: usize, len: usize, f: &mut dyn FnMut(u32, usize)| {
        for (piece, &base) in pieces.iter().zip(&bases) {
            let mut from = 0;
            for (v, &end) in (base..).zip(&piece.ends) {
                for &t in &piece.targets[from..end] {
                    let i = (t as usize).wrapping_sub(low);
                    if i < len {
                        f(v, i);
                    }
                }
                from = end;
            }
        }
    };
    split(&mut offsets, &bounds)
        .into_par_iter()
        .with_max_len(1)
        .for_each(|(low, counts)| {
            let len = counts.len();
            // Counting needs no source: the targets alone.
            for piece in pieces {
                for &t in &piece.targets {
                    let i = (t as usize).wrapping_sub(low);
                    if i < len {
                        counts[i] += 1;
                    }
                }
            }
        });
    // The moves out of the tier and the chains' edges: into the chains' vertices.
    let mut chain_count = 0usize;
    for piece in pieces {
        for o in &piece.outside {
            let (to, k) = outs(o);
            for &t in &to[..k] {
                offsets[t as usize] += 1;
            }
            chain_count += k;
        }
    }
    chain_edges(&mut |from, to| {
        degree[from as usize] += 1;
        offsets[to as usize] += 1;
        chain_count += 1;
    });
    prefix_sums(&mut offsets);
    let inside = offsets[p.saturating_sub(1)] as usize * usize::from(p > 0);
    let edges = offsets[total] as usize;
    debug_assert_eq!(edges, inside + chain_count);
    let mut sources = crate::memory::filled(edges, 0u32, what)?;
    // Each range's stretch of the sources: its lists lie end to end.
    {
        let (inner, _) = sources.split_at_mut(inside);
        let mut stretches = Vec::with_capacity(ranges);
        let mut rest = inner;
        let mut at = 0usize;
        for k in 0..ranges {
            let end = if bounds[k + 1] == 0 {
                0
            } else {
                offsets[bounds[k + 1] - 1] as usize
            };
            let (head, tail) = rest.split_at_mut(end - at);
            stretches.push((at, head));
            rest = tail;
            at = end;
        }
        split(&mut offsets, &bounds)
            .into_par_iter()
            .zip(stretches)
            .with_max_len(1)
            .for_each(|((low, ends), (at, stretch))| {
                each_into(low, ends.len(), &mut |from, i| {
                    ends[i] -= 1;
                    stretch[ends[i] as usize - at] = from;
                });
            });
    }
    let mut place = |from: u32, to: u32| {
        let slot = &mut offsets[to as usize];
        *slot -= 1;
        sources[*slot as usize] = from;
    };
    for (piece, &base) in pieces.iter().zip(&bases) {
        for (v, o) in (base..).zip(&piece.outside) {
            let (to, k) = outs(o);
            for &t in &to[..k] {
                place(v, t);
            }
        }
    }
    chain_edges(&mut place);
    Ok((degree, (offsets, sources)))
}

/// The record of a position of `tier` from its children's records, as the tier solver
/// gives it: `child` says a child's record, or `None` if it is not final yet (a child in
/// the same tier), and then the position's record is `None` too. A distributed solver calls
/// this with the records it was sent.
///
/// # Errors
/// A child whose record is [`record::UNREACHED`] (the game breaks the tier contract), an
/// error of `child`, or a remoteness or margin a record cannot hold.
#[inline]
pub fn evaluate(
    game: &dyn TierGame,
    scored: bool,
    tier: u32,
    node: Node<'_>,
    mut child: impl FnMut(&Child) -> Result<Option<u16>, Error>,
) -> Result<Option<u16>, Error> {
    let children = match node {
        Node::Over(outcome) => {
            return Ok(Some(if scored {
                record::of_margin(0).expect("0 fits")
            } else {
                record::of_value(match outcome {
                    Outcome::Win => Value::Win(0),
                    Outcome::Loss => Value::Loss(0),
                    Outcome::Draw => Value::Draw,
                })
                .expect("remoteness 0 fits")
            }))
        }
        Node::Final(points) => return margin_record(i64::from(points)).map(Some),
        Node::Moves(children) => children,
    };
    let mut best_value = Best::new();
    let mut best_margin = Best::new();
    for c in children {
        let Some(rec) = child(c)? else {
            return Ok(None);
        };
        if rec == record::UNREACHED {
            return Err(Error::Unsupported(format!(
                "{}: a move from tier {tier} leads to rank {} of tier {}, which the start never reached",
                game.id(),
                c.rank,
                c.tier
            )));
        }
        if scored {
            let m = record::margin(rec).expect("reached");
            best_margin.offer(step(c.again, c.gain).value(m), ());
        } else {
            let here = record::value(rec).expect("reached").through(c.again);
            best_value.offer(here.preference(), here);
        }
    }
    if scored {
        margin_record(best_margin.key().unwrap_or(0)).map(Some)
    } else {
        value_record(best_value.get().map_or(Value::Loss(0), |(_, v)| v)).map(Some)
    }
}

/// The record of a value.
///
/// # Errors
/// [`Error::TooLarge`] past [`record::MAX_REMOTENESS`].
pub fn value_record(value: Value) -> Result<u16, Error> {
    record::of_value(value).ok_or_else(|| too_remote(value))
}

/// The record of a score game's margin.
///
/// # Errors
/// [`Error::TooLarge`] past [`record::MAX_MARGIN`].
pub fn margin_record(margin: i64) -> Result<u16, Error> {
    record::of_margin(margin).ok_or_else(|| Error::TooLarge {
        what: format!(
            "a margin of {margin} (records hold at most {})",
            record::MAX_MARGIN
        ),
        need: None,
    })
}

/// What `records` of `tier` hold (ranks, positions reached, won, lost, drawn); the
/// summaries of parts of a tier add up field by field.
#[must_use]
pub fn summarise(scored: bool, tier: u32, records: &[u16]) -> TierSummary {
    // Counted in parts on every thread: a pass over the whole tier.
    let count = |part: &[u16]| {
        let mut counts = [0u64; 4];
        for &r in part {
            count_record(scored, r, &mut counts);
        }
        counts
    };
    let [won, lost, drawn, positions] = records
        .par_chunks(CHUNK as usize)
        .map(count)
        .reduce(|| [0; 4], |a, b| std::array::from_fn(|i| a[i] + b[i]));
    let outcomes = [won, lost, drawn];
    TierSummary {
        tier,
        ranks: records.len() as u64,
        positions,
        outcomes,
        partial: false,
    }
}

/// The summary of a tier of `ranks` ranks that holds `held` records alone (a partial
/// tier, [`TierSummary::partial`], from [`crate::tier::TierStore::save_held`]'s pairs):
/// what [`summarise`] says of the dense tier, marked partial, without building it.
#[must_use]
pub fn summarise_held(
    scored: bool,
    tier: u32,
    ranks: u64,
    held: impl IntoIterator<Item = u16>,
) -> TierSummary {
    let mut counts = [0u64; 4];
    for r in held {
        count_record(scored, r, &mut counts);
    }
    let [won, lost, drawn, positions] = counts;
    TierSummary {
        tier,
        ranks,
        positions,
        outcomes: [won, lost, drawn],
        partial: true,
    }
}

/// Counts record `r` in `counts`: won, lost, drawn (score games: ahead, behind, level),
/// and positions; an unreached rank not at all.
#[inline]
fn count_record(scored: bool, r: u16, counts: &mut [u64; 4]) {
    if r == record::UNREACHED {
        return;
    }
    let outcome = if scored {
        Outcome::of_margin(i128::from(record::margin(r).unwrap_or(0)))
    } else {
        record::value(r).map_or(Outcome::Draw, Value::outcome)
    };
    counts[match outcome {
        Outcome::Win => 0,
        Outcome::Loss => 1,
        Outcome::Draw => 2,
    }] += 1;
    counts[3] += 1;
}

/// A win/loss game's move that keeps the turn inside a tier: the labelling inside a tier
/// does not take it.
fn turn_kept_inside(game: &dyn TierGame, tier: u32) -> Error {
    Error::Unsupported(format!(
        "{}: moves that keep the turn inside tier {tier} of a win/loss game",
        game.id()
    ))
}

fn too_remote(value: Value) -> Error {
    Error::TooLarge {
        what: format!(
            "a position that ends in {} moves (records hold at most {})",
            value.remoteness().unwrap_or(0),
            record::MAX_REMOTENESS
        ),
        need: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tier::{Child, Each, MemoryStore, Want};
    use proptest::prelude::*;

    proptest! {
        /// A rank's id is its index among the pending ranks, found by a binary search.
        #[test]
        fn ids_are_indices_among_the_pending(size in 0usize..400, picks in proptest::collection::vec(any::<bool>(), 400)) {
            let ranks: Vec<u64> = (0..size as u64).filter(|&r| picks[r as usize]).collect();
            let ids = Ids::new(size, &ranks).unwrap();
            for r in (0..size as u64 + 130).chain([u64::MAX]) {
                prop_assert_eq!(ids.get(r), ranks.binary_search(&r).ok().map(|i| i as u32));
            }
        }

        /// The reverse graph built on every thread (ranges of targets owned by tasks) has
        /// each vertex's degree and predecessors of the one built on one thread.
        #[test]
        fn the_reverse_in_parallel_is_the_sequential(
            lengths in proptest::collection::vec(0usize..6, 0..8),
            seed in any::<u64>(),
            chains in 1u32..6,
            threads in 1usize..4,
        ) {
            let mut rng = crate::graph::parity::generate::Rng::new(seed | 1);
            let p: u32 = lengths.iter().sum::<usize>() as u32;
            let total = (p + chains) as usize;
            let pieces: Vec<Piece> = lengths.iter().map(|&len| {
                let mut piece = Piece::default();
                for _ in 0..len {
                    for _ in 0..rng.below(4) {
                        if p > 0 {
                            piece.targets.push(rng.below(u64::from(p)) as u32);
                        }
                    }
                    let mut o = Outside::default();
                    if rng.below(2) == 0 { o.loss = Some(rng.below(u64::from(chains)) as u32); }
                    if rng.below(2) == 0 { o.win = Some(rng.below(u64::from(chains)) as u32); }
                    o.draw = rng.below(3) == 0;
                    piece.outside.push(o);
                    piece.ends.push(piece.targets.len());
                }
                piece
            }).collect();
            let outs = |o: &Outside| {
                let mut to = [0u32; 3];
                let mut k = 0;
                for t in [o.loss.map(|x| p + x), o.win.map(|x| p + x), o.draw.then_some(p)].into_iter().flatten() {
                    to[k] = t;
                    k += 1;
                }
                (to, k)
            };
            let chain_edges = |f: &mut dyn FnMut(u32, u32)| {
                for v in p + 1..total as u32 {
                    f(v, v - 1);
                }
            };
            // One thread, by the book: every edge listed, then grouped.
            let mut want_degree = vec![0u32; total];
            let mut want: Vec<Vec<u32>> = vec![Vec::new(); total];
            let mut base = 0u32;
            for piece in &pieces {
                let mut from = 0;
                for (v, (o, &end)) in (base..).zip(piece.outside.iter().zip(&piece.ends)) {
                    let (to, k) = outs(o);
                    for &t in piece.targets[from..end].iter().chain(&to[..k]) {
                        want_degree[v as usize] += 1;
                        want[t as usize].push(v);
                    }
                    from = end;
                }
                base += piece.ends.len() as u32;
            }
            chain_edges(&mut |from, to| {
                want_degree[from as usize] += 1;
                want[to as usize].push(from);
            });
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let (degree, (offsets, sources)) = pool
                .install(|| reverse_in_parallel(&pieces, total, outs, chain_edges))
                .unwrap();
            prop_assert_eq!(degree, want_degree);
            prop_assert_eq!(offsets.len(), total + 1);
            for (v, mut list) in want.into_iter().enumerate() {
                let mut got = sources[offsets[v] as usize..offsets[v + 1] as usize].to_vec();
                got.sort_unstable();
                list.sort_unstable();
                prop_assert_eq!(got, list, "the predecessors of {}", v);
            }
        }
    }

    /// A random tiered game: each position's moves listed outright.
    #[derive(Debug, Clone)]
    struct Listed {
        scored: bool,
        /// `nodes[t][r]`: `Err(outcome or points)` for an end, else the moves.
        nodes: Vec<Vec<Result<Vec<Child>, i32>>>,
    }

    impl TierGame for Listed {
        fn id(&self) -> String {
            "listed".into()
        }
        fn ranking_version(&self) -> u32 {
            1
        }
        fn scored(&self) -> bool {
            self.scored
        }
        fn tier_count(&self) -> u32 {
            self.nodes.len() as u32
        }
        fn tier_size(&self, tier: u32) -> u64 {
            self.nodes[tier as usize].len() as u64
        }
        fn root(&self) -> (u32, u64) {
            (0, 0)
        }
        fn visit(&self, tier: u32, ranks: Range<u64>, want: Want<'_>, each: Each<'_>) {
            for r in ranks.filter(|&r| want(r)) {
                match &self.nodes[tier as usize][r as usize] {
                    Ok(moves) => each(r, Node::Moves(moves)),
                    Err(x) if self.scored => each(r, Node::Final(*x)),
                    Err(x) => each(
                        r,
                        Node::Over(match x.rem_euclid(3) {
                            0 => Outcome::Loss,
                            1 => Outcome::Win,
                            _ => Outcome::Draw,
                        }),
                    ),
                }
            }
        }
    }

    /// Random games: up to 4 tiers of up to 12 ranks; win/loss games may cycle inside a
    /// tier, score games move inside a tier only to higher ranks (acyclic) and may keep
    /// the turn.
    fn listed(scored: bool) -> impl Strategy<Value = Listed> {
        (1usize..5, proptest::collection::vec(1usize..13, 4)).prop_flat_map(
            move |(tiers, sizes)| {
                let sizes: Vec<usize> = sizes[..tiers].to_vec();
                let cells: Vec<(usize, usize)> = (0..tiers)
                    .flat_map(|t| (0..sizes[t]).map(move |r| (t, r)))
                    .collect();
                let sizes2 = sizes.clone();
                proptest::collection::vec(
                    (
                        0u8..6,
                        -3i32..4,
                        proptest::collection::vec(
                            (0usize..4, 0usize..12, -3i32..4, any::<bool>()),
                            0..4,
                        ),
                    ),
                    cells.len(),
                )
                .prop_map(move |raw| {
                    let mut nodes: Vec<Vec<Result<Vec<Child>, i32>>> =
                        sizes2.iter().map(|&s| Vec::with_capacity(s)).collect();
                    for (&(t, r), (kind, end, moves)) in cells.iter().zip(raw) {
                        let node = if kind == 0 {
                            Err(end)
                        } else {
                            Ok(moves
                                .into_iter()
                                .filter_map(|(dt, cr, gain, again)| {
                                    let ct = (t + dt).min(tiers - 1);
                                    let cr = cr % sizes2[ct];
                                    if scored && ct == t && cr <= r {
                                        return None;
                                    }
                                    Some(Child {
                                        tier: ct as u32,
                                        rank: cr as u64,
                                        gain: if scored { gain } else { 0 },
                                        again: scored && again,
                                    })
                                })
                                .collect())
                        };
                        nodes[t].push(node);
                    }
                    Listed { scored, nodes }
                })
            },
        )
    }

    /// Reachable positions in BFS order, and the id of each.
    type Flat = (
        Vec<(usize, usize)>,
        std::collections::HashMap<(usize, usize), u32>,
    );

    /// The flat graph of a listed game's reachable positions, by a plain BFS.
    fn flat(game: &Listed) -> Flat {
        let mut ids = std::collections::HashMap::new();
        let mut order = vec![(0usize, 0usize)];
        ids.insert((0, 0), 0u32);
        let mut i = 0;
        while i < order.len() {
            let (t, r) = order[i];
            i += 1;
            if let Ok(moves) = &game.nodes[t][r] {
                for c in moves {
                    let key = (c.tier as usize, c.rank as usize);
                    if let std::collections::hash_map::Entry::Vacant(slot) = ids.entry(key) {
                        slot.insert(order.len() as u32);
                        order.push(key);
                    }
                }
            }
        }
        (order, ids)
    }

    fn run(game: &Listed, threads: usize) -> MemoryStore {
        let mut store = MemoryStore::default();
        let options = Options {
            threads,
            ..Options::default()
        };
        solve(game, &mut store, &options, &|_| {}, &Control::default()).unwrap();
        store
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The tier solver labels every reached position as the retrograde engine does on
        /// the whole graph at once, and marks every other rank unreached.
        #[test]
        fn tiers_equal_one_labelling(game in listed(false), threads in 1usize..3) {
            let store = run(&game, threads);
            let (order, ids) = flat(&game);
            let edges: Vec<(u32, u32)> = order.iter().enumerate().flat_map(|(v, &(t, r))| {
                match &game.nodes[t][r] {
                    Ok(moves) => moves.iter().map(|c| (v as u32, ids[&(c.tier as usize, c.rank as usize)])).collect(),
                    Err(_) => Vec::new(),
                }
            }).collect();
            let graph = Csr::from_edges(order.len(), &edges);
            let terminal = |v: u32| {
                let (t, r) = order[v as usize];
                match game.nodes[t][r] {
                    Err(x) => Some(match x.rem_euclid(3) { 0 => Outcome::Loss, 1 => Outcome::Win, _ => Outcome::Draw }),
                    Ok(_) => None,
                }
            };
            let labels = crate::solve::label(&graph, &graph.reverse(), terminal, &Control::default()).unwrap();
            for (t, tier) in game.nodes.iter().enumerate() {
                let records = &store.tiers[&(t as u32)].0;
                for (r, &rec) in records.iter().enumerate() {
                    let expected = ids.get(&(t, r)).map(|&v| labels.value(v));
                    prop_assert_eq!(record::value(rec), expected, "tier {} rank {}", t, r);
                }
                let summary = store.tiers[&(t as u32)].1;
                prop_assert_eq!(summary.positions, (0..tier.len()).filter(|&r| ids.contains_key(&(t, r))).count() as u64);
            }
        }

        /// Score games: every reached position's margin is the plain minimax recursion's.
        #[test]
        fn score_tiers_equal_minimax(game in listed(true), threads in 1usize..3) {
            let store = run(&game, threads);
            let (order, _) = flat(&game);
            fn margin(game: &Listed, t: usize, r: usize, memo: &mut std::collections::HashMap<(usize, usize), i64>) -> i64 {
                if let Some(&m) = memo.get(&(t, r)) {
                    return m;
                }
                let m = match &game.nodes[t][r] {
                    Err(points) => i64::from(*points),
                    Ok(moves) if moves.is_empty() => 0,
                    Ok(moves) => moves.iter().map(|c| {
                        let child = margin(game, c.tier as usize, c.rank as usize, memo);
                        i64::from(c.gain) + if c.again { child } else { -child }
                    }).max().unwrap(),
                };
                memo.insert((t, r), m);
                m
            }
            let mut memo = std::collections::HashMap::new();
            for &(t, r) in &order {
                let expected = margin(&game, t, r, &mut memo);
                prop_assert_eq!(record::margin(store.tiers[&(t as u32)].0[r]), Some(expected));
            }
        }
    }

    #[test]
    fn a_move_back_to_an_earlier_tier_is_refused() {
        let game = Listed {
            scored: false,
            nodes: vec![
                vec![Ok(vec![Child::to(1, 0)])],
                vec![Ok(vec![Child::to(0, 0)])],
            ],
        };
        let e = solve(
            &game,
            &mut MemoryStore::default(),
            &Options::default(),
            &|_| {},
            &Control::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("must not go back"), "{e}");
    }

    #[test]
    fn a_win_loss_move_keeping_the_turn_inside_a_tier_is_refused() {
        // Rank 0 moves to rank 1 of its own tier keeping the turn; rank 1 moves on to the
        // next tier, so rank 0 is pending when its move inside is met (the first case), or
        // rank 1 keeps the turn out of the tier (the second).
        let keep = |tier, rank| Child {
            again: true,
            ..Child::to(tier, rank)
        };
        for (inside, out) in [(keep(0, 1), Child::to(1, 0)), (Child::to(0, 1), keep(1, 0))] {
            let game = Listed {
                scored: false,
                nodes: vec![
                    vec![
                        Ok(vec![inside, Child::to(1, 0)]),
                        Ok(vec![out, Child::to(0, 0)]),
                    ],
                    vec![Err(0)],
                ],
            };
            let e = solve(
                &game,
                &mut MemoryStore::default(),
                &Options::default(),
                &|_| {},
                &Control::default(),
            )
            .unwrap_err();
            assert!(e.to_string().contains("keep the turn inside tier 0"), "{e}");
        }
    }

    #[test]
    fn memory_past_the_limit_is_refused_up_front() {
        let game = Listed {
            scored: false,
            nodes: vec![vec![Err(0); 1000]],
        };
        let options = Options {
            threads: 1,
            max_bytes: 100,
        };
        let e = solve(
            &game,
            &mut MemoryStore::default(),
            &options,
            &|_| {},
            &Control::default(),
        )
        .unwrap_err();
        assert!(
            matches!(
                e,
                Error::OverLimit {
                    limit: crate::Limit::TierMemory,
                    ..
                }
            ),
            "{e}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// A book to the last tier, its leaves valued by the solver's own records, is the
        /// solver's tablebase: the same records in every tier.
        #[test]
        fn a_book_to_the_last_tier_is_the_tablebase(game in listed(false), threads in 1usize..3) {
            let full = run(&game, threads);
            let last = game.tier_count() - 1;
            let leaf = |rank: u64| Ok(full.tiers[&last].0[rank as usize]);
            let mut store = MemoryStore::default();
            let options = Options { threads, ..Options::default() };
            book(&game, last, &mut store, &leaf, &options, &|_| {}, &Control::default()).unwrap();
            for t in 0..=last {
                prop_assert_eq!(&store.tiers[&t].0, &full.tiers[&t].0, "tier {}", t);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// A book whose search stops part way (its `leaf` fails after `ok` answers) keeps
        /// what it found; built again, it searches only the rest, no position twice, and
        /// ends as the solver's tiers.
        #[test]
        fn a_stopped_book_resumes_with_what_it_found(game in listed(false), threads in 1usize..3, ok in 0usize..6) {
            let full = run(&game, threads);
            let last = game.tier_count() - 1;
            let asked = Mutex::new(Vec::new());
            let leaf = |rank: u64| {
                let mut asked = asked.lock().unwrap();
                if asked.len() >= ok {
                    return Err(Error::Unsupported("stopped".into()));
                }
                asked.push(rank);
                Ok(full.tiers[&last].0[rank as usize])
            };
            let mut store = MemoryStore::default();
            let options = Options { threads, ..Options::default() };
            let first = book(&game, last, &mut store, &leaf, &options, &|_| {}, &Control::default());
            let before = std::mem::take(&mut *asked.lock().unwrap());
            let mut kept: Vec<u64> = store.found.get(&last).map(|f| f.iter().map(|&(r, _)| r).collect()).unwrap_or_default();
            kept.sort_unstable();
            let mut sorted = before.clone();
            sorted.sort_unstable();
            if first.is_ok() {
                // Fewer open positions than `ok`: the tier was saved whole, nothing kept.
                prop_assert!(kept.is_empty());
                prop_assert_eq!(&store.tiers[&last].0, &full.tiers[&last].0);
                return Ok(());
            }
            prop_assert_eq!(&kept, &sorted, "every answer found is kept");
            prop_assert!(!store.tiers.contains_key(&last));
            let again = Mutex::new(Vec::new());
            let leaf = |rank: u64| {
                again.lock().unwrap().push(rank);
                Ok(full.tiers[&last].0[rank as usize])
            };
            book(&game, last, &mut store, &leaf, &options, &|_| {}, &Control::default()).unwrap();
            let again = again.into_inner().unwrap();
            prop_assert!(again.iter().all(|r| !kept.contains(r)), "searched again: {:?} of {:?}", again, kept);
            for t in 0..=last {
                prop_assert_eq!(&store.tiers[&t].0, &full.tiers[&t].0, "tier {}", t);
            }
            prop_assert!(store.found.is_empty(), "forgotten once the tier is whole");
        }
    }

    /// A chain of four tiers: a book to depth 1 holds tiers 0 and 1 only, its leaves from
    /// `leaf`; extended to depth 2 it searches tier 2 alone and recomputes tiers 1 and 0
    /// only if missing; it equals the solver's tiers either way.
    #[test]
    fn a_book_grows_by_its_deepest_tier() {
        let game = Listed {
            scored: false,
            nodes: vec![
                vec![Ok(vec![Child::to(1, 0), Child::to(1, 1)])],
                vec![Ok(vec![Child::to(2, 0)]), Ok(vec![Child::to(2, 1)])],
                vec![Ok(vec![Child::to(3, 0)]), Err(0)],
                vec![Ok(vec![])],
            ],
        };
        let full = run(&game, 1);
        let asked = std::sync::Mutex::new(Vec::new());
        let leaf_at = |tier: u32| {
            let (full, asked) = (&full, &asked);
            move |rank: u64| {
                asked.lock().unwrap().push((tier, rank));
                Ok(full.tiers[&tier].0[rank as usize])
            }
        };
        let mut store = MemoryStore::default();
        let one = book(
            &game,
            1,
            &mut store,
            &leaf_at(1),
            &Options::default(),
            &|_| {},
            &Control::default(),
        )
        .unwrap();
        assert_eq!(store.tiers.keys().copied().collect::<Vec<_>>(), [0, 1]);
        assert_eq!(one.root, full.tiers[&0].0[0]);
        assert_eq!(
            std::mem::take(&mut *asked.lock().unwrap()),
            [(1, 0), (1, 1)]
        );
        // Deeper: tier 2's open position is searched (its other is over), tiers 1 and 0
        // are trusted as they are.
        let two = book(
            &game,
            2,
            &mut store,
            &leaf_at(2),
            &Options::default(),
            &|_| {},
            &Control::default(),
        )
        .unwrap();
        assert_eq!(asked.lock().unwrap().as_slice(), [(2, 0)]);
        assert_eq!(two.root, one.root);
        for t in 0..=2 {
            assert_eq!(store.tiers[&t].0, full.tiers[&t].0, "tier {t}");
        }
        // Past the last tier is refused.
        let e = book(
            &game,
            4,
            &mut store,
            &leaf_at(4),
            &Options::default(),
            &|_| {},
            &Control::default(),
        )
        .unwrap_err();
        assert!(matches!(e, Error::Unsupported(_)), "{e}");
    }

    #[test]
    fn a_store_holding_tiers_is_resumed_not_recomputed() {
        // A chain 0 → 1 → 2 (loss at the end): solving once, then again on the store,
        // gives the same root and reads every tier from the store.
        let game = Listed {
            scored: false,
            nodes: vec![
                vec![Ok(vec![Child::to(1, 0)])],
                vec![Ok(vec![Child::to(2, 0)])],
                vec![Ok(vec![])],
            ],
        };
        let mut store = MemoryStore::default();
        let first = solve(
            &game,
            &mut store,
            &Options::default(),
            &|_| {},
            &Control::default(),
        )
        .unwrap();
        assert_eq!(record::value(first.root), Some(Value::Loss(2)));
        // Drop tier 0 only: the rerun solves it alone.
        store.tiers.remove(&0);
        let solved = std::sync::Mutex::new(Vec::new());
        let again = solve(
            &game,
            &mut store,
            &Options::default(),
            &|e| {
                if let Event::Done { summary, loaded } = e {
                    solved.lock().unwrap().push((summary.tier, *loaded));
                }
            },
            &Control::default(),
        )
        .unwrap();
        assert_eq!(again, first);
        let mut seen = solved.into_inner().unwrap();
        seen.sort_unstable();
        assert_eq!(seen, vec![(0, false), (1, true), (2, true)]);
    }

    /// A store that logs what it is asked, sleeps in `save` (so that a tier solved while
    /// another is written would overtake it if it could), and fails to save `fail`.
    struct Logged {
        inner: MemoryStore,
        log: Arc<Mutex<Vec<(char, u32)>>>,
        fail: Option<u32>,
    }

    impl TierStore for Logged {
        fn summary(&mut self, tier: u32) -> Result<Option<TierSummary>, Error> {
            self.inner.summary(tier)
        }
        fn load(&mut self, tier: u32) -> Result<Option<Vec<u16>>, Error> {
            self.log.lock().unwrap().push(('l', tier));
            self.inner.load(tier)
        }
        fn save(&mut self, tier: u32, records: &[u16], summary: &TierSummary) -> Result<(), Error> {
            std::thread::sleep(std::time::Duration::from_millis(1));
            // Every later tier solved is kept before this one.
            let later = self.inner.tiers.keys().filter(|&&t| t > tier).count() as u32;
            let count = self.inner.tiers.len() as u32;
            assert_eq!(later, count, "tier {tier} saved before a later one");
            if self.fail == Some(tier) {
                return Err(Error::Store(format!("tier {tier} cannot be kept")));
            }
            self.log.lock().unwrap().push(('s', tier));
            self.inner.save(tier, records, summary)
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]

        /// A tier is written while the next is solved, yet tiers are saved from the last to
        /// the first, each told done right after it is saved; a save that fails stops the
        /// run with only the tiers after it kept, and a second run completes them as one
        /// run would.
        #[test]
        fn tiers_are_saved_in_order_while_the_next_is_solved(
            game in listed(false),
            threads in 1usize..3,
            fail in proptest::option::of(0u32..4),
            saved_together in prop_oneof![Just(0u64), 1u64..30, Just(SAVED_TOGETHER)],
        ) {
            let n = game.tier_count();
            let log = Arc::new(Mutex::new(Vec::new()));
            let mut store = Logged { inner: MemoryStore::default(), log: Arc::clone(&log), fail };
            let options = Options { threads, ..Options::default() };
            let listen = |e: &Event| {
                if let Event::Done { summary, loaded: false } = e {
                    log.lock().unwrap().push(('d', summary.tier));
                }
            };
            let got = solve_saving_together(&game, &mut store, threads, &listen, saved_together);
            let fail = fail.filter(|&f| f < n);
            let first_kept = fail.map_or(0, |f| f + 1);
            // Saved from the last tier to the first, each told done after it is saved
            // (with a failure, those saved together with the failed one are not told).
            let log_now = log.lock().unwrap().clone();
            let saved: Vec<u32> = log_now.iter().filter(|e| e.0 == 's').map(|e| e.1).collect();
            let told: Vec<u32> = log_now.iter().filter(|e| e.0 == 'd').map(|e| e.1).collect();
            prop_assert_eq!(&saved, &(first_kept..n).rev().collect::<Vec<_>>());
            prop_assert!(told.len() <= saved.len() && told[..] == saved[..told.len()]);
            for (i, &(op, t)) in log_now.iter().enumerate() {
                if op == 'd' {
                    prop_assert!(log_now[..i].contains(&('s', t)), "tier {} told done before saved", t);
                }
            }
            if fail.is_none() {
                prop_assert_eq!(told.len(), saved.len());
            }
            let kept: Vec<u32> = store.inner.tiers.keys().copied().collect();
            prop_assert_eq!(kept, (first_kept..n).collect::<Vec<_>>());
            let whole = run(&game, threads);
            match fail {
                Some(_) => {
                    prop_assert!(matches!(got, Err(Error::Store(_))));
                    store.fail = None;
                    log.lock().unwrap().clear();
                    solve(&game, &mut store, &options, &|_| {}, &Control::default()).unwrap();
                    // Tiers after the failed one are read, not solved again.
                    prop_assert!(log.lock().unwrap().iter().all(|&(op, t)| op != 's' || t < first_kept));
                }
                None => prop_assert!(got.is_ok()),
            }
            prop_assert_eq!(store.inner.tiers, whole.tiers);
        }
    }
}
