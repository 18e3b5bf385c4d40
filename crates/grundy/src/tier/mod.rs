//! Tiered solving: a game split into tiers that form a DAG (moves go from a tier to the
//! same tier or a later one), each tier a dense array of 16-bit [`records`](record) indexed
//! by a rank within the tier, solved from the last tier to the first on all cores and kept
//! in a [`TierStore`] (memory, or a tablebase on disk written by `grundy-tablebase`).
//!
//! A game offers itself through [`TierGame`]: the tiers, their sizes, the root, and a
//! batched visit of a range of ranks that hands each position's children as
//! `(tier, rank)` pairs. One dynamic call serves a whole range, so a family can walk its
//! ranks incrementally (combinations in order, bitboards shifted) instead of unranking
//! each one.

pub mod record;
pub mod solve;

pub use solve::{
    book, book_fits, solve, summarise, summarise_held, Event, Listener, Options, Solved, KEEP_EVERY,
};

use std::ops::Range;

use crate::game::Outcome;

/// Where one move leads: a position of a tier, by rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Child {
    /// The child's tier: the parent's or a later one.
    pub tier: u32,
    /// The child's rank within its tier.
    pub rank: u64,
    /// Score games: the points the mover collects by this move.
    pub gain: i32,
    /// Whether the same player moves again at the child (Kalah's store, a completed box).
    pub again: bool,
}

impl Child {
    /// A plain move to `(tier, rank)`: no points, the turn passes.
    #[must_use]
    pub const fn to(tier: u32, rank: u64) -> Child {
        Child {
            tier,
            rank,
            gain: 0,
            again: false,
        }
    }
}

/// What a visited position is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node<'a> {
    /// The game is over by its own rule, with this outcome for the player to move
    /// (win/loss/draw games).
    Over(Outcome),
    /// The game is over, and the player to move collects these points (score games).
    Final(i32),
    /// The moves, in the order a person sees them. Empty: no move (a loss under normal
    /// play; zero points in a score game).
    Moves(&'a [Child]),
}

/// A game split into tiers, positions ranked densely within each tier.
pub trait TierGame: Send + Sync {
    /// The game with its parameters, as a spec names it (`connect4[6x5]`): what a
    /// tablebase is for.
    fn id(&self) -> String;

    /// Optional. The version of the ranking scheme: a tablebase written under another
    /// version is refused. The default, 1, is a family's first scheme; bump it whenever
    /// ranks change meaning.
    fn ranking_version(&self) -> u32 {
        1
    }

    /// Whether records are final margins (score games) rather than win/loss/draw with
    /// remoteness.
    fn scored(&self) -> bool {
        false
    }

    /// The number of tiers; tiers are `0..tier_count()`.
    fn tier_count(&self) -> u32;

    /// The number of ranks of `tier` (every rank is below it; not every rank need be a
    /// reachable position).
    fn tier_size(&self, tier: u32) -> u64;

    /// The tiers that moves from `tier` may reach besides itself (all later); the solver
    /// keeps only these in memory while solving `tier`. The default: every later tier.
    fn child_tiers(&self, tier: u32) -> Vec<u32> {
        (tier + 1..self.tier_count()).collect()
    }

    /// The starting position.
    fn root(&self) -> (u32, u64);

    /// Optional. Appends every `(tier, rank)` with a move to `(tier, rank)` — its
    /// parents, reached from the root or not — and returns `true`, where the game can undo
    /// a move. The default appends nothing and returns `false`: no unmoves. A solver that
    /// pushes "child decided" to parents (Romein & Bal) needs them; the tier solver and
    /// `grundy-dist` pull children instead and do not ask.
    fn parents(&self, _tier: u32, _rank: u64, _out: &mut Vec<(u32, u64)>) -> bool {
        false
    }

    /// Calls `each(rank, node)` for every rank of `ranges` in `tier`, in increasing order,
    /// for which `want(rank)` holds; a rank that is not a position of the game (an
    /// index the ranking leaves unused) may be skipped silently.
    fn visit(&self, tier: u32, ranks: Range<u64>, want: Want<'_>, each: Each<'_>);

    /// The ranks of `ranks` that `tier` has: `None` when there are none (an empty range,
    /// or a tier past the last), so that [`visit`](Self::visit) may return at once.
    fn within(&self, tier: u32, ranks: Range<u64>) -> Option<Range<u64>> {
        if tier >= self.tier_count() {
            return None;
        }
        let end = ranks.end.min(self.tier_size(tier));
        (ranks.start < end).then_some(ranks.start..end)
    }
}

/// Which ranks [`TierGame::visit`] is asked for: `want(rank)`, called from any thread.
pub type Want<'a> = &'a (dyn Fn(u64) -> bool + Sync);

/// What [`TierGame::visit`] hands each rank visited to: `each(rank, node)`.
pub type Each<'a> = &'a mut dyn for<'n> FnMut(u64, Node<'n>);

/// What one tier holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TierSummary {
    /// The tier.
    pub tier: u32,
    /// Its ranks.
    pub ranks: u64,
    /// The positions the start reaches in it.
    pub positions: u64,
    /// Of those, won, lost and drawn for the player to move (score games: ahead, behind,
    /// level).
    pub outcomes: [u64; 3],
    /// Whether the tier holds some of its positions only (a book of the lines of play
    /// against the engine, [`crate::report::book::build_lines`]): a rank without a record
    /// may still be a position of play, which a reader searches instead. The tier solver
    /// never takes such a tier for solved.
    pub partial: bool,
}

/// Where solved tiers are kept: in memory ([`MemoryStore`]) or on disk (a tablebase).
pub trait TierStore: Send {
    /// What a tier this store holds whole contains, without reading its records;
    /// `Ok(None)` if it does not hold it.
    ///
    /// # Errors
    /// A tier that exists but cannot be read as valid (another game, a bad checksum) is an
    /// error, never `None`: it must not be silently solved over.
    fn summary(&mut self, tier: u32) -> Result<Option<TierSummary>, crate::Error>;

    /// The records of a tier this store holds whole; `Ok(None)` if it does not.
    ///
    /// # Errors
    /// As [`TierStore::summary`].
    fn load(&mut self, tier: u32) -> Result<Option<Vec<u16>>, crate::Error>;

    /// One record of a tier this store holds; `Ok(None)` if it does not hold the tier.
    /// The default loads the tier.
    ///
    /// # Errors
    /// As [`TierStore::summary`].
    fn record(&mut self, tier: u32, rank: u64) -> Result<Option<u16>, crate::Error> {
        Ok(self
            .load(tier)?
            .and_then(|records| records.get(rank as usize).copied()))
    }

    /// Keeps a solved tier with its summary. A store that persists makes it durable
    /// before returning (a temporary name, synced, then renamed), so a crash leaves either
    /// the whole tier or none of it.
    ///
    /// # Errors
    /// The store could not keep it (disk full, permissions).
    fn save(
        &mut self,
        tier: u32,
        records: &[u16],
        summary: &TierSummary,
    ) -> Result<(), crate::Error>;

    /// Keeps solved tiers with their summaries, as [`TierStore::save`] each in the order
    /// given. A store that persists may make them durable together (their files synced at
    /// once) before returning; a crash may then keep any of them. The default saves one
    /// at a time.
    ///
    /// # Errors
    /// As [`TierStore::save`]; the tiers before the one that failed may be kept.
    fn save_many(&mut self, tiers: &[(u32, &[u16], TierSummary)]) -> Result<(), crate::Error> {
        for (tier, records, summary) in tiers {
            self.save(*tier, records, summary)?;
        }
        Ok(())
    }

    /// Keeps a tier of which only some ranks hold a record (a partial tier: a book of the
    /// lines of play) from those records alone: `held` is `(rank, record)` pairs by
    /// strictly increasing rank, each below `ranks` (the tier's size); every other rank
    /// is unreached, and so is one held with [`record::UNREACHED`]. It keeps what
    /// [`TierStore::save`] of the dense tier keeps, which the default builds (2 bytes a
    /// rank, asked of the allocator first) and saves; a store on disk writes it a block
    /// at a time, so that its memory follows the records held, not the tier's size.
    ///
    /// # Errors
    /// Ranks out of order, repeated or past the tier ([`check_held`]); as
    /// [`TierStore::save`]; the default also [`crate::Error::TooLarge`] for a tier whose
    /// dense records cannot be had in memory.
    fn save_held(
        &mut self,
        tier: u32,
        ranks: u64,
        held: &[(u64, u16)],
        summary: &TierSummary,
    ) -> Result<(), crate::Error> {
        check_held(tier, ranks, held)?;
        let too_large = || crate::Error::TooLarge {
            what: format!("the {ranks} records of tier {tier} in memory"),
            need: Some(ranks.saturating_mul(2)),
        };
        let len = usize::try_from(ranks).map_err(|_| too_large())?;
        let mut records = crate::memory::filled(len, record::UNREACHED, "a tier's records")?;
        for &(rank, r) in held {
            records[rank as usize] = r;
        }
        self.save(tier, &records, summary)
    }

    /// Hands `each` every record of `tier` that is not [`record::UNREACHED`], by
    /// increasing rank, and returns `true`; `false`, handing nothing, if the store does
    /// not hold the tier. For a partial tier, whose records are few: the default loads the
    /// tier whole ([`TierStore::load`]); a store on disk reads it a block at a time, so
    /// that its memory follows the block, not the tier. An error `each` returns stops the
    /// reading and is returned.
    ///
    /// # Errors
    /// As [`TierStore::summary`], and `each`'s.
    fn for_each_held(
        &mut self,
        tier: u32,
        each: &mut dyn FnMut(u64, u16) -> Result<(), crate::Error>,
    ) -> Result<bool, crate::Error> {
        let Some(records) = self.load(tier)? else {
            return Ok(false);
        };
        for (rank, &r) in (0u64..).zip(&records) {
            if r != record::UNREACHED {
                each(rank, r)?;
            }
        }
        Ok(true)
    }

    /// Keeps records of `tier` found one position at a time before the tier is whole (a
    /// book's deepest tier, each position searched), after those kept before, so that a
    /// run stopped part way resumes without searching them again. A store that persists
    /// makes them durable before returning, and forgets them once the tier is saved whole.
    /// The default keeps nothing.
    ///
    /// # Errors
    /// The store could not keep them.
    fn keep_found(&mut self, _tier: u32, _found: &[(u64, u16)]) -> Result<(), crate::Error> {
        Ok(())
    }

    /// The records of `tier` that [`TierStore::keep_found`] kept and no whole tier saved
    /// since; the default: none.
    ///
    /// # Errors
    /// What was kept cannot be read as this game's (another game's, damaged).
    fn found(&mut self, _tier: u32) -> Result<Vec<(u64, u16)>, crate::Error> {
        Ok(Vec::new())
    }
}

/// Refuses `held` records of a tier of `ranks` ranks ([`TierStore::save_held`]) unless
/// their ranks are strictly increasing and below `ranks`.
///
/// # Errors
/// [`crate::Error::Store`] naming the first rank out of place.
pub fn check_held(tier: u32, ranks: u64, held: &[(u64, u16)]) -> Result<(), crate::Error> {
    let mut before: Option<u64> = None;
    for &(rank, _) in held {
        if rank >= ranks {
            return Err(crate::Error::Store(format!(
                "rank {rank} held of tier {tier}, which has {ranks} ranks"
            )));
        }
        if before.is_some_and(|b| b >= rank) {
            return Err(crate::Error::Store(format!(
                "rank {rank} of tier {tier} held after rank {} (the ranks held go up)",
                before.unwrap_or(0)
            )));
        }
        before = Some(rank);
    }
    Ok(())
}

/// Keeps every solved tier in memory.
#[derive(Debug, Default, Clone)]
pub struct MemoryStore {
    /// The records and summary of each tier saved, by tier.
    pub tiers: std::collections::BTreeMap<u32, (Vec<u16>, TierSummary)>,
    /// Records found before their tier was saved whole ([`TierStore::keep_found`]).
    pub found: std::collections::BTreeMap<u32, Vec<(u64, u16)>>,
}

impl TierStore for MemoryStore {
    fn summary(&mut self, tier: u32) -> Result<Option<TierSummary>, crate::Error> {
        Ok(self.tiers.get(&tier).map(|(_, s)| *s))
    }

    fn load(&mut self, tier: u32) -> Result<Option<Vec<u16>>, crate::Error> {
        Ok(self.tiers.get(&tier).map(|(r, _)| r.clone()))
    }

    fn record(&mut self, tier: u32, rank: u64) -> Result<Option<u16>, crate::Error> {
        Ok(self
            .tiers
            .get(&tier)
            .and_then(|(r, _)| r.get(rank as usize).copied()))
    }

    fn save(
        &mut self,
        tier: u32,
        records: &[u16],
        summary: &TierSummary,
    ) -> Result<(), crate::Error> {
        self.tiers.insert(tier, (records.to_vec(), *summary));
        self.found.remove(&tier);
        Ok(())
    }

    fn keep_found(&mut self, tier: u32, found: &[(u64, u16)]) -> Result<(), crate::Error> {
        self.found.entry(tier).or_default().extend_from_slice(found);
        Ok(())
    }

    fn found(&mut self, tier: u32) -> Result<Vec<(u64, u16)>, crate::Error> {
        Ok(self.found.get(&tier).cloned().unwrap_or_default())
    }
}
