//! One worker of a run: its share of every tier (the slices `k` with `(k + s) mod W` its
//! number, `s` the slices of the tiers before: [`Owners`]), forward reachability, the tiers from the last, in-tier rounds, and the blocks
//! it hands to each tier's writer.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use grundy::game::{Best, Value};
use grundy::tier::solve::{evaluate, margin_record, step, summarise, value_record, Outside};
use grundy::tier::{self, record, Child, Event, Node, TierGame, TierStore, TierSummary};
use grundy_tablebase::format::Encoder;
use grundy_tablebase::{Tablebase, TierWriter};
use timely::worker::Worker;

use crate::asked::Asked;
use crate::codec::{self, Malformed, Reader};
use crate::exchange::{Outcome, Rounds, Traffic, SUMS};
use crate::told::{self, Announce, Part};
use crate::waiting::{Batch, Folds, Refused, Waiting};
use crate::{Config, Error, Solved, TierCost};

/// What the workers of one process share, so that a worker reads a rank owned by another
/// worker of its own process in place, where it would otherwise send a message: each
/// worker's records of the tiers it holds (published once the tier is complete, read
/// only after a round every worker takes), and its reachability bits (atomic, set in
/// place by any worker of the process). Only ranks owned in other processes travel.
#[derive(Default)]
pub struct Shared {
    /// By tier and worker.
    held: Mutex<HashMap<(u32, u32), Records>>,
    /// By worker: its bits of every tier reached.
    reach: Mutex<HashMap<u32, Reach>>,
    /// By tier and owner abroad: the part told whole that one worker of the process took
    /// for all of them ([`takes`]), published for a round in which the others clone it.
    told: Mutex<HashMap<(u32, u32), Arc<Part>>>,
}

/// One worker's records of one tier, held as a part told is held where that is smaller
/// ([`Part::of`]).
type Records = Arc<Part>;
/// One worker's reachability bits, by tier.
type Reach = Arc<Vec<Option<Bits>>>;

/// A lock of a table of `Shared`; a worker that panicked while holding it left nothing
/// half-written (every entry is one insert or remove), so its poison is ignored.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Whether worker `r` takes the parts told whole of owner `o` for its home, homes being
/// `size` workers each ([`Me::home`]): each owner abroad sends them to one worker of each
/// home (by the owner's number), which shares them with the others in place; a worker
/// alone in its home takes every owner's.
fn takes(size: u32, r: u32, o: u32) -> bool {
    let from = r / size * size;
    !(from..from + size).contains(&o) && r - from == o % size
}

/// Runs one worker to the end; every worker of every process returns the same.
pub fn run(
    w: &mut Worker,
    game: &dyn TierGame,
    dir: &Path,
    config: &Config,
    shared: &Shared,
    listen: &(dyn Fn(&Event) + Send + Sync),
) -> Result<Solved, Error> {
    let rounds = Rounds::new(w, config.workers, config.round_timeout);
    let mut me = Me::new(game, config, rounds, shared, listen);
    let result = me.solve(w, dir);
    me.rounds.close(w, result.is_err());
    result
}

/// One bit per rank of a worker's slices.
pub struct Bits(Vec<AtomicU64>);

impl Bits {
    fn new(len: usize) -> Bits {
        Bits((0..len.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
    }
    #[inline]
    fn get(&self, i: usize) -> bool {
        self.0[i / 64].load(Ordering::Relaxed) >> (i % 64) & 1 != 0
    }
    /// Sets bit `i`; whether it was clear.
    #[inline]
    fn set(&self, i: usize) -> bool {
        let bit = 1u64 << (i % 64);
        self.0[i / 64].fetch_or(bit, Ordering::Relaxed) & bit == 0
    }
    /// [`Bits::set`] for bits no other thread writes meanwhile (the positions a worker
    /// has expanded while reaching a tier; the marks of a worker alone in its home, whose
    /// bits the others reach by messages): a load and a store, not a locked
    /// read-modify-write (the game's visit wants its filter `Sync`, hence atomic words).
    #[inline]
    fn set_alone(&self, i: usize) -> bool {
        let w = &self.0[i / 64];
        let (old, bit) = (w.load(Ordering::Relaxed), 1u64 << (i % 64));
        w.store(old | bit, Ordering::Relaxed);
        old & bit == 0
    }
    /// [`Bits::set_alone`] if `alone`, else [`Bits::set`].
    #[inline]
    fn set_if(&self, alone: bool, i: usize) -> bool {
        if alone {
            self.set_alone(i)
        } else {
            self.set(i)
        }
    }
}

/// Which worker owns a rank of one tier, and where it keeps it: slice `k` of the tier
/// belongs to worker `(k + offset) mod W`, the owner keeping it as its slice `k div W`
/// (its slices of the tier are one dense run of its arrays). [`Owners`] gives each tier
/// its offset.
///
/// Both are computed for every move followed, so they shift and mask where they can: a
/// slice is a power of two of ranks, and so is the number of workers in most runs (a
/// division costs tens of cycles; it made one worker 1.3× the library's time at 1.08×
/// its instructions).
#[derive(Clone, Copy)]
struct Layout {
    workers: u64,
    me: u64,
    slice: u64,
    /// The owner of the tier's slice 0 (less than `workers`).
    offset: u64,
    /// `slice = 1 << slice_bits`.
    slice_bits: u32,
    /// `workers = 1 << worker_bits`, if it is a power of two.
    worker_bits: Option<u32>,
}

impl Layout {
    fn new(workers: u64, me: u64, slice: u64) -> Layout {
        debug_assert!(slice.is_power_of_two());
        Layout {
            workers,
            me,
            slice,
            offset: 0,
            slice_bits: slice.trailing_zeros(),
            worker_bits: workers.is_power_of_two().then(|| workers.trailing_zeros()),
        }
    }
    /// The slice of a rank's owner, and its owner's number for it (the slice among the
    /// owner's).
    #[inline]
    fn split(&self, rank: u64) -> (u64, u64) {
        let k = rank >> self.slice_bits;
        match self.worker_bits {
            Some(b) => ((k + self.offset) & (self.workers - 1), k >> b),
            None => ((k + self.offset) % self.workers, k / self.workers),
        }
    }
    #[inline]
    fn owner(&self, rank: u64) -> u32 {
        self.split(rank).0 as u32
    }
    /// The place of a rank in its owner's arrays.
    #[inline]
    fn local(&self, rank: u64) -> usize {
        self.place(self.split(rank).1, rank)
    }
    /// The place of `rank`, the owner's slice `i` by [`Layout::split`].
    #[inline]
    fn place(&self, i: u64, rank: u64) -> usize {
        ((i << self.slice_bits) | (rank & (self.slice - 1))) as usize
    }
    /// The first slice of worker `o` (its slices are every W-th from it).
    #[inline]
    fn first_slice(&self, o: u64) -> u64 {
        (o + self.workers - self.offset) % self.workers
    }
    /// The rank at `place` of worker `o`'s arrays (the inverse of [`Layout::split`] and
    /// [`Layout::place`]).
    #[cfg(test)]
    fn rank_of(&self, o: u64, place: usize) -> u64 {
        let i = place as u64 >> self.slice_bits;
        ((i * self.workers + self.first_slice(o)) << self.slice_bits)
            | (place as u64 & (self.slice - 1))
    }
    fn slices_of(&self, worker: u64, size: u64) -> impl Iterator<Item = u64> {
        (self.first_slice(worker)..size.div_ceil(self.slice)).step_by(self.workers as usize)
    }
    fn mine(&self, size: u64) -> Vec<u64> {
        self.slices_of(self.me, size).collect()
    }
    fn local_len_of(&self, worker: u64, size: u64) -> usize {
        self.slices_of(worker, size).count() * self.slice as usize
    }
    /// The places of `worker`'s arrays that hold a rank (its first ones: all of them but
    /// the end of the tier's last slice, if that is its and cut short).
    fn held_len_of(&self, worker: u64, size: u64) -> usize {
        let Some(last) = size.checked_sub(1) else {
            return 0;
        };
        match self.split(last) {
            (o, i) if o == worker => self.place(i, last) + 1,
            _ => self.local_len_of(worker, size),
        }
    }
    fn range(&self, k: u64, size: u64) -> Range<u64> {
        k * self.slice..((k + 1) * self.slice).min(size)
    }
    /// Rounds every worker takes over a tier of `size` ranks, `batch` slices a round (the
    /// most slices any worker has, a batch a round).
    fn rounds(&self, size: u64, batch: usize) -> usize {
        (size.div_ceil(self.slice).div_ceil(self.workers) as usize).div_ceil(batch)
    }
}

/// The layout of every tier: the tiers' slices dealt to the workers in turn, as if the
/// tiers were one run of slices from tier 0 on, so that tier `t`'s slice 0 is worker
/// `(slices of the tiers before t) mod W`'s. Every worker then holds its share of the
/// ranks of all tiers within a slice, and a tier smaller than a slice is not always the
/// same worker's (with slice `k` of every tier worker `k mod W`'s, every such tier was
/// worker 0's: on quixo[4] over two processes, process 0 held 50.4 M ranks to 35.5 M).
#[derive(Clone)]
struct Owners {
    /// Every tier's, but for its offset.
    base: Layout,
    /// By tier, its offset (the owner of its slice 0).
    offsets: Vec<u64>,
}

impl Owners {
    fn new(base: Layout, sizes: &[u64]) -> Owners {
        let mut before = 0u64;
        let offsets = sizes
            .iter()
            .map(|&size| {
                let offset = before;
                before = (before + size.div_ceil(base.slice)) % base.workers;
                offset
            })
            .collect();
        Owners { base, offsets }
    }
    /// The offset of tier `t`. A tier past the game's (a move its caller refuses, or a
    /// malformed message) gets 0 rather than a panic.
    #[inline]
    fn offset(&self, t: u32) -> u64 {
        self.offsets.get(t as usize).copied().unwrap_or(0)
    }
    /// The layout of tier `t`.
    #[inline]
    fn of(&self, t: u32) -> Layout {
        Layout {
            offset: self.offset(t),
            ..self.base
        }
    }
    /// [`Layout::split`] of `rank` of tier `t`, for every move followed (one load of an
    /// offset, no layout copied).
    #[inline]
    fn split(&self, t: u32, rank: u64) -> (u64, u64) {
        let lay = &self.base;
        let k = rank >> lay.slice_bits;
        let offset = self.offset(t);
        match lay.worker_bits {
            Some(b) => ((k + offset) & (lay.workers - 1), k >> b),
            None => ((k + offset) % lay.workers, k / lay.workers),
        }
    }
    /// The place of `rank` at its owner's slice `i` (the same in every tier).
    #[inline]
    fn place(&self, i: u64, rank: u64) -> usize {
        self.base.place(i, rank)
    }
    fn workers(&self) -> u64 {
        self.base.workers
    }
    fn slice(&self) -> u64 {
        self.base.slice
    }
}

/// The workers whose arrays a worker reads in place: those of its process, or (not
/// sharing) itself alone.
#[derive(Clone, Copy)]
struct Home {
    /// The first of them.
    from: u32,
    /// Past the last.
    to: u32,
}

impl Home {
    #[inline]
    fn has(self, o: u32) -> bool {
        self.from <= o && o < self.to
    }
}

/// The ranks a worker sends the others in a round, by worker and tier, each set made
/// when first needed and kept (emptied) for the next rounds of the tier; the messages
/// are the tiers' numbers in increasing order, each followed by the ranks' places in the
/// receiver's arrays, sorted and distinct, as gaps ([`codec::put_ranks`]: the receiver
/// reads its arrays at them with no rank to place again); answers come back in the same
/// order.
struct Asks {
    owners: Owners,
    sizes: Vec<u64>,
    workers: usize,
    /// By tier and worker (`tier · W + worker`): the set, and where its answers start in
    /// the worker's.
    by: Vec<Option<(Asked, usize)>>,
    ranks: Vec<u64>,
}

impl Asks {
    fn new(owners: &Owners, sizes: &[u64]) -> Asks {
        let workers = owners.workers() as usize;
        Asks {
            owners: owners.clone(),
            sizes: sizes.to_vec(),
            workers,
            by: (0..sizes.len() * workers).map(|_| None).collect(),
            ranks: Vec::new(),
        }
    }

    /// Adds `rank` of `tier` (less than its size), which [`Layout::split`] puts at the
    /// owner's slice `i` of worker `o`.
    #[inline]
    fn mark(&mut self, tier: u32, (o, i): (u64, u64), rank: u64) {
        let (set, _) =
            self.by[tier as usize * self.workers + o as usize].get_or_insert_with(|| {
                let len = self
                    .owners
                    .of(tier)
                    .local_len_of(o, self.sizes[tier as usize]);
                (Asked::new(len), 0)
            });
        set.mark(self.owners.place(i, rank));
    }

    /// The messages, by worker, and how many ranks each is sent; each tier's answers'
    /// start noted.
    fn seal(&mut self) -> (Vec<Vec<u8>>, Vec<usize>) {
        let mut out = Vec::with_capacity(self.workers);
        let mut counts = Vec::with_capacity(self.workers);
        for o in 0..self.workers {
            let mut b = Vec::new();
            let mut at = 0;
            for tier in 0..self.sizes.len() {
                let Some((set, start)) = &mut self.by[tier * self.workers + o] else {
                    continue;
                };
                if set.is_empty() {
                    continue;
                }
                self.ranks.clear();
                let ranks = &mut self.ranks;
                set.seal(|p| ranks.push(p as u64));
                codec::put(&mut b, tier as u64);
                codec::put_ranks(&mut b, ranks);
                *start = at;
                at += ranks.len();
            }
            out.push(b);
            counts.push(at);
        }
        (out, counts)
    }

    /// Where the answer about `rank` of `tier` (at slice `i` of worker `o`) is among
    /// worker `o`'s answers, if it was asked (after [`Asks::seal`]).
    #[inline]
    fn index(&self, tier: u32, (o, i): (u64, u64), rank: u64) -> Option<usize> {
        let at = (tier as usize).checked_mul(self.workers)? + o as usize;
        let (set, start) = self.by.get(at)?.as_ref()?;
        set.index(self.owners.place(i, rank)).map(|x| start + x)
    }

    /// Empties every set, for the next round.
    fn clear(&mut self) {
        for (set, _) in self.by.iter_mut().flatten() {
            set.clear();
        }
    }
}

struct Me<'a> {
    game: &'a dyn TierGame,
    scored: bool,
    sizes: Vec<u64>,
    owners: Owners,
    rounds: Rounds,
    threads: u32,
    processes: u32,
    process: u32,
    batch: usize,
    kept_moves: usize,
    told_bytes: u64,
    share: bool,
    max_bytes: u64,
    listen: &'a (dyn Fn(&Event) + Send + Sync),
    shared: &'a Shared,
    store: Option<Tablebase>,
    held: BTreeMap<u32, Records>,
    costs: Vec<TierCost>,
    edges: u64,
    /// The room for a round's kept moves, kept from tier to tier (so that the heap does
    /// not place it anew each tier: connect4[5x5]'s processes held 102 MiB each without,
    /// 91 to 94 with), but for a tier with moves inside it.
    kids: Vec<Kid>,
    /// This worker's compressor, made for its first tier and kept: a zstd context at the
    /// files' level is a few MiB to allocate and zero (made a tier, it was 30 million
    /// instructions a process on connect4[5x4], the library's threads keeping theirs).
    encoder: Option<Encoder>,
}

/// A move's gain and whether it keeps the turn, as a message of a score game carries
/// them after a position; `(0, false)` for a win/loss game, whose messages leave them out.
fn gain_again(rd: &mut Reader<'_>, scored: bool) -> Result<(i32, bool), Malformed> {
    if !scored {
        return Ok((0, false));
    }
    let gain = i32::try_from(rd.get_signed()?).map_err(|_| Malformed)?;
    Ok((gain, rd.get()? != 0))
}

/// The error of a message from `from` that does not decode (naming the line of the
/// reader, for a bug report).
#[track_caller]
fn malformed(from: u32) -> impl Fn(Malformed) -> Error {
    let at = std::panic::Location::caller().line();
    move |_| {
        Error::Lost(format!(
            "worker {from} sent a message that does not decode (read at line {at})"
        ))
    }
}

impl<'a> Me<'a> {
    fn new(
        game: &'a dyn TierGame,
        config: &Config,
        rounds: Rounds,
        shared: &'a Shared,
        listen: &'a (dyn Fn(&Event) + Send + Sync),
    ) -> Me<'a> {
        let threads = config.workers as u32;
        let sizes: Vec<u64> = (0..game.tier_count()).map(|t| game.tier_size(t)).collect();
        let base = Layout::new(u64::from(rounds.peers), u64::from(rounds.me), config.slice);
        Me {
            game,
            scored: game.scored(),
            owners: Owners::new(base, &sizes),
            sizes,
            process: rounds.me / threads,
            processes: rounds.peers / threads,
            threads,
            rounds,
            batch: config.batch_slices.max(1),
            kept_moves: config.kept_moves,
            told_bytes: config.told_bytes,
            share: config.share,
            max_bytes: config.max_bytes,
            listen,
            shared,
            store: None,
            held: BTreeMap::new(),
            costs: Vec::new(),
            edges: 0,
            kids: Vec::new(),
            encoder: None,
        }
    }

    fn me(&self) -> u32 {
        self.rounds.me
    }

    /// Slices a worker visits between two rounds while reaching and solving a tier of
    /// `size` ranks: the configured batch, or, in a run of one process sharing its arrays,
    /// all of them: no rank then travels, and a round would only wait for the slowest.
    fn visit_batch(&self, size: u64) -> usize {
        if self.processes == 1 && self.share {
            usize::try_from(size.div_ceil(self.owners.slice()))
                .unwrap_or(usize::MAX)
                .max(1)
        } else {
            self.batch
        }
    }

    /// The workers whose arrays this one reads in place.
    fn home(&self) -> Home {
        if self.share {
            Home {
                from: self.process * self.threads,
                to: (self.process + 1) * self.threads,
            }
        } else {
            Home {
                from: self.me(),
                to: self.me() + 1,
            }
        }
    }

    /// Holds `records` as this worker's part of tier `t`, for the workers of this process
    /// too (they read it after their next round).
    fn hold(&mut self, t: u32, records: Vec<u16>) {
        let records = Arc::new(Part::of(records));
        lock(&self.shared.held).insert((t, self.me()), Arc::clone(&records));
        self.held.insert(t, records);
    }

    /// Keeps only the tiers in `keep` (and the start's).
    fn release(&mut self, keep: &[u32], root_tier: u32) {
        let me = self.me();
        let mut shared = lock(&self.shared.held);
        self.held.retain(|t, _| {
            let kept = keep.contains(t) || *t == root_tier;
            if !kept {
                shared.remove(&(*t, me));
            }
            kept
        });
    }

    /// By worker, what `get` gives of each worker at home; `None` for the others.
    fn by_worker<T>(&self, get: impl Fn(u32) -> Option<T>) -> Vec<Option<T>> {
        let home = self.home();
        (0..self.rounds.peers)
            .map(|o| if home.has(o) { get(o) } else { None })
            .collect()
    }

    /// Every held tier's parts in this process, by tier and worker (`None` for the
    /// workers of other processes), as published before the last round.
    fn home_records(&self) -> Vec<Vec<Option<Records>>> {
        let shared = lock(&self.shared.held);
        (0..self.sizes.len() as u32)
            .map(|t| {
                if self.held.contains_key(&t) {
                    self.by_worker(|o| shared.get(&(t, o)).cloned())
                } else {
                    Vec::new()
                }
            })
            .collect()
    }

    /// The worker that writes `tier`'s file: the first of process `tier mod N`.
    fn writer(&self, tier: u32) -> u32 {
        (tier % self.processes) * self.threads
    }

    fn peers(&self) -> usize {
        self.rounds.peers as usize
    }

    fn empty(&self) -> Vec<Vec<u8>> {
        vec![Vec::new(); self.peers()]
    }

    /// A round that also carries this worker's error, if it has one: every worker leaves
    /// with the first error of any.
    fn sync(
        &mut self,
        w: &mut Worker,
        out: Vec<Vec<u8>>,
        sums: [u64; SUMS],
        max: u64,
        local: Result<(), Error>,
    ) -> Result<Outcome, Error> {
        match local {
            Ok(()) => self.rounds.round(w, out, sums, max, None),
            Err(e) => {
                let _ = self.rounds.round(w, Vec::new(), sums, max, Some(&e));
                Err(e)
            }
        }
    }

    fn tell(&self, e: &Event) {
        if self.me() == 0 {
            (self.listen)(e);
        }
    }

    fn solve(&mut self, w: &mut Worker, dir: &Path) -> Result<Solved, Error> {
        let game = self.game;
        let n = game.tier_count();
        // The store: one per process, held by its first worker. The processes may be
        // given one directory: they share it, each locking the tier files it writes.
        let alone = self.processes == 1;
        let opened = if self.me().is_multiple_of(self.threads) {
            Tablebase::open(dir, game)
                .and_then(|tb| tb.with_block_records(self.owners.slice() as u32))
                .and_then(|mut tb| {
                    if alone {
                        tb.lock_for_writing()
                    } else {
                        tb.share_writing()
                    }
                    .map(|()| tb)
                })
                .map(|tb| self.store = Some(tb))
        } else {
            Ok(())
        };
        self.sync(w, Vec::new(), [0; SUMS], 0, opened.map_err(Error::from))?;
        let (root_tier, root_rank) = game.root();
        if root_tier >= n || root_rank >= self.sizes[root_tier as usize] {
            return Err(grundy::Error::Unsupported(format!(
                "{}: the start ({root_tier}, {root_rank}) is outside the tiers",
                game.id()
            ))
            .into());
        }
        let need = tier::solve::memory_needed(game) / u128::from(self.rounds.peers);
        if need > u128::from(self.max_bytes) {
            return Err(grundy::Error::over(
                grundy::Limit::TierMemory,
                format!(
                    "solving {} on {} workers within {} of memory a worker",
                    game.id(),
                    self.rounds.peers,
                    grundy::human_bytes(self.max_bytes)
                ),
                Some(need),
                Some(need),
            )
            .into());
        }
        let mut summaries = self.complete_tiers(w)?;
        for s in summaries.iter().flatten() {
            self.tell(&Event::Done {
                summary: *s,
                loaded: true,
            });
        }
        let missing_top = (0..n).rev().find(|&t| summaries[t as usize].is_none());
        let start = self.rounds.traffic;
        let reach = match missing_top {
            Some(top) => self.reach(w, top, root_tier, root_rank)?,
            None => Arc::new(Vec::new()),
        };
        let mine = self.rounds.traffic.since(&start);
        let got = self.sync(
            w,
            Vec::new(),
            [mine.messages, mine.bytes, mine.remote_bytes, 0, 0, 0, 0, 0],
            0,
            Ok(()),
        )?;
        // Past that round no other worker holds these bits.
        let mut reach = Arc::try_unwrap(reach).map_err(|_| {
            Error::Lost("a worker of this process still holds reachability bits".into())
        })?;
        let reach_traffic = Traffic {
            rounds: mine.rounds,
            messages: got.sums[0],
            bytes: got.sums[1],
            remote_bytes: got.sums[2],
        };
        for t in (0..n).rev() {
            if summaries[t as usize].is_some() {
                continue;
            }
            let start = self.rounds.traffic;
            let mut local = Ok(());
            for c in game.child_tiers(t) {
                if c <= t || c >= n {
                    local = Err(grundy::Error::Unsupported(format!(
                        "{}: tier {t} lists tier {c} among the tiers it moves into; they must be later",
                        game.id()
                    ))
                    .into());
                }
            }
            self.sync(w, Vec::new(), [0; SUMS], 0, local)?;
            for c in game.child_tiers(t) {
                if !self.held.contains_key(&c) {
                    self.scatter(w, c)?;
                }
            }
            let bits = reach[t as usize]
                .take()
                .expect("reachability is marked for every missing tier");
            let (records, edges) = self.solve_tier(w, t, &bits)?;
            drop(bits);
            let summary = self.finish(w, t, &records, edges, start)?;
            summaries[t as usize] = Some(summary);
            self.hold(t, records);
            let keep = tier::solve::needed(game, t, &summaries);
            self.release(&keep, root_tier);
        }
        // The start's record: from its owner if its tier is held, else from the writer's
        // file.
        let mut root = 0u64;
        let mut local = Ok(());
        if let Some(records) = self.held.get(&root_tier) {
            let lay = self.owners.of(root_tier);
            if lay.owner(root_rank) == self.me() {
                root = u64::from(
                    records
                        .get(lay.local(root_rank))
                        .expect("the start's place is in its owner's part"),
                );
            }
        } else if self.me() == self.writer(root_tier) {
            match self.store.as_mut().map(|s| s.record(root_tier, root_rank)) {
                Some(Ok(Some(r))) => root = u64::from(r),
                Some(Err(e)) => local = Err(e.into()),
                _ => {
                    local = Err(grundy::Error::Store(format!(
                        "tier {root_tier} of {} went missing",
                        game.id()
                    ))
                    .into())
                }
            }
        }
        let got = self.sync(w, Vec::new(), [0; SUMS], root, local)?;
        Ok(Solved {
            solved: tier::Solved {
                tiers: summaries.into_iter().flatten().collect(),
                root: got.max as u16,
            },
            tiers: std::mem::take(&mut self.costs),
            reach: reach_traffic,
            edges: self.edges,
            workers: self.peers(),
        })
    }

    /// The tiers whose writer holds their file, whole and undamaged (every block's
    /// checksum checked), with their summaries, as every worker learns them.
    fn complete_tiers(&mut self, w: &mut Worker) -> Result<Vec<Option<TierSummary>>, Error> {
        let mut list = Vec::new();
        let mut local = Ok(());
        if let Some(store) = self.store.as_mut() {
            let found = (|| -> Result<(), Error> {
                for t in store.complete_tiers()? {
                    if t % self.processes != self.process {
                        continue;
                    }
                    if let Some(file) = store.reader(t)? {
                        file.verify()?;
                    }
                    if let Some(s) = TierStore::summary(store, t)? {
                        if s.partial {
                            return Err(grundy::Error::Store(format!(
                                "tier {t} holds some of its positions only (a book of the lines of play against the engine): solve in another directory"
                            ))
                            .into());
                        }
                        codec::put(&mut list, u64::from(t));
                        codec::put(&mut list, s.positions);
                        for o in s.outcomes {
                            codec::put(&mut list, o);
                        }
                    }
                }
                Ok(())
            })();
            local = found;
        }
        let out = if list.is_empty() {
            Vec::new()
        } else {
            vec![list; self.peers()]
        };
        let got = self.sync(w, out, [0; SUMS], 0, local)?;
        let mut summaries = vec![None; self.sizes.len()];
        for (from, bytes) in got.inbox {
            let mut r = Reader::new(&bytes);
            while !r.done() {
                let bad = malformed(from);
                let t = r.get().map_err(&bad)? as usize;
                let positions = r.get().map_err(&bad)?;
                let mut outcomes = [0u64; 3];
                for o in &mut outcomes {
                    *o = r.get().map_err(&bad)?;
                }
                if t < summaries.len() {
                    summaries[t] = Some(TierSummary {
                        tier: t as u32,
                        ranks: self.sizes[t],
                        positions,
                        outcomes,
                        partial: false,
                    });
                }
            }
        }
        Ok(summaries)
    }

    /// Marks the positions the start reaches in tiers `0..=top`, tier by tier, each child
    /// marked in place if its owner is in this process, else sent to it; moves inside a
    /// tier are followed in passes until nothing new is marked anywhere. The bits are
    /// every worker's of this process until the caller's next round (then its own).
    fn reach(
        &mut self,
        w: &mut Worker,
        top: u32,
        root_tier: u32,
        root_rank: u64,
    ) -> Result<Reach, Error> {
        let game = self.game;
        let n = game.tier_count();
        let owners = self.owners.clone();
        let me = self.me();
        let reach: Vec<Option<Bits>> = (0..n)
            .map(|t| {
                let lay = owners.of(t);
                (t <= top).then(|| Bits::new(lay.local_len_of(lay.me, self.sizes[t as usize])))
            })
            .collect();
        if root_tier > top {
            return Ok(Arc::new(reach));
        }
        let reach = Arc::new(reach);
        lock(&self.shared.reach).insert(me, Arc::clone(&reach));
        self.sync(w, Vec::new(), [0; SUMS], 0, Ok(()))?;
        let home: Vec<Option<Reach>> = {
            let shared = lock(&self.shared.reach);
            self.by_worker(|o| shared.get(&o).cloned())
        };
        // By tier and worker (`tier · W + worker`): the bits marked in place, if at home.
        let peers = self.peers();
        let targets: Vec<Option<&Bits>> = (0..n as usize)
            .flat_map(|t| (0..peers).map(move |o| (t, o)))
            .map(|(t, o)| home[o].as_ref().and_then(|parts| parts[t].as_ref()))
            .collect();
        // A worker alone in its home (the only worker of its process, or not sharing)
        // is the only one to write its bits (the others mark them by messages it reads
        // itself): no locked read-modify-write a move.
        let alone = {
            let home = self.home();
            home.to - home.from == 1
        };
        let lay = owners.of(root_tier);
        if lay.owner(root_rank) == me {
            reach[root_tier as usize]
                .as_ref()
                .expect("allocated")
                .set(lay.local(root_rank));
        }
        for t in root_tier..=top {
            let lay = owners.of(t);
            let size = self.sizes[t as usize];
            let mine = lay.mine(size);
            let expanded = Bits::new(lay.local_len_of(lay.me, size));
            let batch = self.visit_batch(size);
            let rounds = lay.rounds(size, batch);
            let mut asks = Asks::new(&owners, &self.sizes);
            loop {
                let mut fresh = 0u64;
                for r in 0..rounds {
                    let own = reach[t as usize].as_ref().expect("allocated");
                    let mut error: Option<Error> = None;
                    let from = (r * batch).min(mine.len());
                    let to = ((r + 1) * batch).min(mine.len());
                    for (j, &k) in mine[from..to].iter().enumerate() {
                        // A slice is one run of this worker's arrays.
                        let range = lay.range(k, size);
                        let (start, base) = (range.start, lay.local(range.start));
                        let want = |x: u64| {
                            let i = base + (x - start) as usize;
                            own.get(i) && !expanded.get(i)
                        };
                        game.visit(t, range, &want, &mut |x, node| {
                            expanded.set_alone(base + (x - start) as usize);
                            let Node::Moves(children) = node else {
                                return;
                            };
                            for c in children {
                                if c.tier < t || c.tier >= n {
                                    error.get_or_insert_with(|| {
                                        grundy::Error::Unsupported(format!(
                                            "{}: a move from tier {t} to tier {}: tiers must not go back",
                                            game.id(),
                                            c.tier
                                        ))
                                        .into()
                                    });
                                    return;
                                }
                                if c.tier > top {
                                    continue;
                                }
                                if c.rank >= self.sizes[c.tier as usize] {
                                    error.get_or_insert_with(|| {
                                        grundy::Error::Unsupported(format!(
                                            "{}: a move to rank {} of tier {}, which has {} ranks",
                                            game.id(),
                                            c.rank,
                                            c.tier,
                                            self.sizes[c.tier as usize]
                                        ))
                                        .into()
                                    });
                                    return;
                                }
                                let (o, i) = owners.split(c.tier, c.rank);
                                let there = targets[c.tier as usize * peers + o as usize];
                                if let Some(bits) = there {
                                    if bits.set_if(alone, lay.place(i, c.rank)) && c.tier == t
                                    {
                                        fresh += 1;
                                    }
                                } else {
                                    asks.mark(c.tier, (o, i), c.rank);
                                }
                            }
                        });
                        self.tell(&Event::Reach {
                            tier: t,
                            done: ((from + j + 1) as u64 * lay.slice * lay.workers).min(size),
                            total: size,
                        });
                    }
                    let (out, _) = asks.seal();
                    asks.clear();
                    let local = error.map_or(Ok(()), Err);
                    let got = self.sync(w, out, [0; SUMS], 0, local)?;
                    let mut ranks = Vec::new();
                    for (from, bytes) in got.inbox {
                        let mut rd = Reader::new(&bytes);
                        while !rd.done() {
                            let bad = malformed(from);
                            let c = rd.get().map_err(&bad)? as u32;
                            codec::get_ranks(&mut rd, &mut ranks).map_err(&bad)?;
                            let Some(bits) = reach.get(c as usize).and_then(Option::as_ref) else {
                                return Err(malformed(from)(Malformed));
                            };
                            // Places in this worker's arrays, each of a rank.
                            let held = owners
                                .of(c)
                                .held_len_of(u64::from(me), self.sizes[c as usize]);
                            for &p in &ranks {
                                if p >= held as u64 {
                                    return Err(malformed(from)(Malformed));
                                }
                                if bits.set_if(alone, p as usize) && c == t {
                                    fresh += 1;
                                }
                            }
                        }
                    }
                }
                let got = self.sync(w, Vec::new(), [fresh, 0, 0, 0, 0, 0, 0, 0], 0, Ok(()))?;
                if got.sums[0] == 0 {
                    break;
                }
            }
        }
        drop(targets);
        drop(home);
        lock(&self.shared.reach).remove(&me);
        Ok(reach)
    }

    /// The writer of a tier held in its file hands every worker its slices, a round's
    /// blocks at a time (slices r·b·W .. (r+1)·b·W in round r, so that no worker reads or
    /// holds more of the tier than its own part and one round's blocks).
    fn scatter(&mut self, w: &mut Worker, c: u32) -> Result<(), Error> {
        let size = self.sizes[c as usize];
        let lay = self.owners.of(c);
        let writer = self.writer(c);
        let slices = size.div_ceil(lay.slice);
        let mut reader = None;
        let mut local = Ok(());
        if self.me() == writer {
            let id = self.game.id();
            match self.store.as_ref().map(|s| s.reader(c)) {
                Some(Ok(Some(file))) => reader = Some(file),
                Some(Err(e)) => local = Err(e.into()),
                _ => {
                    local =
                        Err(grundy::Error::Store(format!("tier {c} of {id} went missing")).into())
                }
            }
        }
        self.sync(w, Vec::new(), [0; SUMS], 0, local)?;
        let mut records = vec![record::UNREACHED; lay.local_len_of(lay.me, size)];
        let per_round = self.batch as u64 * lay.workers;
        for r in 0..lay.rounds(size, self.batch) as u64 {
            let mut out = self.empty();
            let mut local = Ok(());
            if let Some(file) = &reader {
                let blocks = r * per_round..((r + 1) * per_round).min(slices);
                match file.read_blocks(blocks.clone()) {
                    Ok(recs) => {
                        for k in blocks {
                            let range = lay.range(k, size);
                            let from = (range.start - r * per_round * lay.slice) as usize;
                            let part = &recs[from..from + (range.end - range.start) as usize];
                            let b = &mut out[lay.owner(range.start) as usize];
                            codec::put(b, k);
                            for &rec in part {
                                b.extend_from_slice(&rec.to_le_bytes());
                            }
                        }
                    }
                    Err(e) => local = Err(e.into()),
                }
            }
            let got = self.sync(w, out, [0; SUMS], 0, local)?;
            for (from, bytes) in got.inbox {
                let bad = malformed(from);
                let mut rd = Reader::new(&bytes);
                while !rd.done() {
                    let k = rd.get().map_err(&bad)?;
                    if from != writer || k >= slices || lay.owner(k * lay.slice) != self.me() {
                        return Err(bad(Malformed));
                    }
                    let range = lay.range(k, size);
                    let at = lay.local(range.start);
                    for slot in &mut records[at..at + (range.end - range.start) as usize] {
                        *slot = rd.get_u16().map_err(&bad)?;
                    }
                }
            }
        }
        self.hold(c, records);
        Ok(())
    }

    /// The records of this worker's slices of `tier`: every reached rank labelled.
    ///
    /// A position whose children are all owned in this process is labelled as it is
    /// visited, from the arrays the process shares; only one with a child owned in
    /// another process is kept, its moves at home folded ([`Fold`]) and its moves abroad
    /// listed, until those children's records are asked for and told (one round a batch).
    fn solve_tier(
        &mut self,
        w: &mut Worker,
        t: u32,
        reach: &Bits,
    ) -> Result<(Vec<u16>, u64), Error> {
        // Every worker of this process has published the tiers it holds.
        self.sync(w, Vec::new(), [0; SUMS], 0, Ok(()))?;
        // The child tiers' records abroad, taken whole if they fit (else asked for).
        let told = self.take_told(w, t)?;
        let pushed = told.is_some();
        let told = told.unwrap_or_default();
        let home = self.home_records();
        let game = self.game;
        let owners = self.owners.clone();
        let lay = owners.of(t);
        let size = self.sizes[t as usize];
        let scored = self.scored;
        let mine = lay.mine(size);
        let mut records = vec![record::UNREACHED; lay.local_len_of(lay.me, size)];
        let mut waiting = Waiting::new(scored, records.len(), size);
        let mut edges = 0u64;
        // Copies, so that the closures below do not hold `self` across its rounds.
        let sizes = self.sizes.clone();
        let here = self.home();
        let not_listed = |c: &Child| {
            grundy::Error::Unsupported(format!(
                "{}: a move from tier {t} to tier {}, which it does not list among its child tiers",
                game.id(),
                c.tier
            ))
        };
        // A child's record if its owner is in this process (`Ok(None)` if not; a move
        // inside the tier is the caller's to tell apart).
        let at_home = |c: &Child| -> Result<Option<u16>, grundy::Error> {
            if c.rank >= sizes.get(c.tier as usize).copied().unwrap_or(0) {
                return Err(not_listed(c));
            }
            let (o, i) = owners.split(c.tier, c.rank);
            if !here.has(o as u32) {
                return Ok(None);
            }
            let at = lay.place(i, c.rank);
            match home
                .get(c.tier as usize)
                .and_then(|parts| parts.get(o as usize)?.as_deref())
                .and_then(|records| records.get(at))
            {
                Some(rec) => Ok(Some(rec)),
                None => Err(not_listed(c)),
            }
        };
        // Told whole: where each child's record is, by tier and worker.
        let known = pushed.then(|| Known {
            t,
            owners: &owners,
            peers: self.rounds.peers as usize,
            sources: (0..sizes.len())
                .flat_map(|c| (0..self.rounds.peers).map(move |o| (c, o)))
                .map(|(c, o)| {
                    if here.has(o) {
                        home.get(c)
                            .and_then(|parts| parts.get(o as usize)?.as_deref())
                    } else {
                        told.part(c as u32, o)
                    }
                })
                .collect(),
        });
        let abroad = |c: &Child| {
            c.tier != t
                && c.rank < sizes.get(c.tier as usize).copied().unwrap_or(0)
                && !here.has(owners.split(c.tier, c.rank).0 as u32)
        };
        // An error met labelling a batch, told in the next round every worker takes.
        let mut carried: Option<Error> = None;
        // Nothing is asked for when the records abroad were told: one round.
        let batch = if pushed {
            mine.len().max(1)
        } else {
            self.visit_batch(size)
        };
        let mut asks = Asks::new(&owners, &sizes);
        // Kept from batch to batch, so that its vectors are not grown again each time.
        let mut seen = Visited::new(scored, size);
        // Room for a round's kept moves, asked once (untouched pages cost nothing): the
        // rounds stop short of it, so the vector is not doubled past it. If it cannot be
        // had, the vector grows as it would.
        seen.kids = std::mem::take(&mut self.kids);
        if !pushed && seen.kids.capacity() < self.kept_moves {
            let _ = seen.kids.try_reserve_exact(self.kept_moves);
        }
        // The most kept moves one part of a slice has added in this tier.
        let mut widest = 0usize;
        // The batch's kept positions left with moves inside the tier.
        let mut late = Batch::new(scored, size);
        // Where the next round's visit starts: a slice of `mine`, and a rank of it.
        let (mut j, mut from) = (
            0usize,
            mine.first().map_or(0, |&k| lay.range(k, size).start),
        );
        // A round visits up to `batch` slices, a part of `part` ranks at a time, and stops
        // after the part that takes its kept moves to `Config::kept_moves` (whole slices
        // when no rank travels: nothing is kept then).
        let part = if pushed || (self.processes == 1 && self.share) {
            lay.slice
        } else {
            (lay.slice / PARTS).max(1)
        };
        loop {
            seen.positions.clear();
            seen.kids.clear();
            seen.gains.clear();
            seen.early.clear();
            late.clear();
            let mut whole = 0;
            while j < mine.len() && whole < batch {
                let slice = lay.range(mine[j], size);
                let to = (from + part).min(slice.end);
                let before = seen.kids.len();
                if let Some(known) = &known {
                    self.visit_known(
                        t,
                        (j, mine[j], from..to),
                        reach,
                        (&mut records, &mut edges),
                        (known, &not_listed),
                        &mut seen,
                    );
                    // Its positions with moves inside the tier, to the worker's list at
                    // once (a tier is one round here: held until then, they would be
                    // there twice while merged).
                    waiting.append_merged(&seen.early, &late);
                    seen.early.clear();
                } else {
                    self.visit_part(
                        t,
                        (j, mine[j], from..to),
                        reach,
                        (&mut records, &mut edges),
                        (&at_home, &abroad),
                        (&mut asks, &mut seen),
                    );
                }
                from = to;
                if to == slice.end {
                    j += 1;
                    whole += 1;
                    from = mine.get(j).map_or(0, |&k| lay.range(k, size).start);
                }
                // Stop before a part like the widest so far would pass the room kept.
                widest = widest.max(seen.kids.len() - before);
                if seen.kids.len() + widest > self.kept_moves {
                    break;
                }
            }
            let more = u64::from(j < mine.len());
            let error = seen.error.take();
            // Ask the owners abroad of the children in later tiers for their records.
            let status = carried.take().or(error).map_or(Ok(()), Err);
            let (told, more) = self.ask_abroad(w, t, &mut asks, status, more)?;
            // Label each kept position from its children's records, at home or told.
            // The record told of a child asked of its owner abroad.
            let told_of = |c: &Child| -> Option<u16> {
                let (o, i) = owners.split(c.tier, c.rank);
                let x = asks.index(c.tier, (o, i), c.rank)?;
                told[o as usize].get(x).copied()
            };
            let record_of = |c: &Child| -> Result<Option<u16>, grundy::Error> {
                if c.tier == t {
                    return Ok(None);
                }
                if let Some(rec) = at_home(c)? {
                    return Ok(Some(rec));
                }
                told_of(c).map(Some).ok_or_else(|| not_listed(c))
            };
            let error = label_kept(
                (game, scored, t, lay),
                &seen,
                (&told_of, &record_of),
                &mut records,
                &mut late,
            );
            waiting.append_merged(&seen.early, &late);
            asks.clear();
            carried = error;
            if more == 0 {
                break;
            }
        }
        drop(known);
        drop((home, told));
        let got = self.sync(
            w,
            Vec::new(),
            [waiting.len() as u64, 0, 0, 0, 0, 0, 0, 0],
            0,
            carried.map_or(Ok(()), Err),
        )?;
        // The batches' vectors are not needed by the in-tier rounds.
        self.kids = std::mem::take(&mut seen.kids);
        self.kids.clear();
        drop((seen, asks, late));
        if got.sums[0] > 0 {
            // The in-tier rounds use the room themselves (quixo[4]'s larger process held
            // about 5 MiB more with it kept).
            self.kids = Vec::new();
            self.inside(w, t, waiting, &mut records)?;
        }
        Ok((records, edges))
    }

    /// The records of `t`'s child tiers that the workers abroad hold (every worker not
    /// read in place), taken whole ([`told`]): each owner announces its parts, and if
    /// what any worker would take of them passes `Config::told_bytes`, none is sent
    /// (`None`: the batches ask for the records of their children abroad instead); else
    /// they come a piece a round, each owner's to one worker of each process, which shares
    /// them with the others in place ([`takes`]). `None` too when no worker is abroad.
    fn take_told(&mut self, w: &mut Worker, t: u32) -> Result<Option<Told>, Error> {
        let here = self.home();
        let peers = self.rounds.peers;
        if (0..peers).all(|o| here.has(o)) {
            return Ok(None);
        }
        let n = self.sizes.len() as u32;
        let children: Vec<u32> = self
            .game
            .child_tiers(t)
            .into_iter()
            .filter(|&c| c > t && c < n)
            .collect();
        let me = self.me();
        let size = here.to - here.from;
        // To the worker of each home abroad that takes this worker's parts.
        let to_takers = |msg: &[u8]| -> Vec<Vec<u8>> {
            (0..peers)
                .map(|o| {
                    if takes(size, o, me) {
                        msg.to_vec()
                    } else {
                        Vec::new()
                    }
                })
                .collect()
        };
        // This worker's parts, their announcements, and how each is sent.
        let mut parts = Vec::with_capacity(children.len());
        let mut local = Ok(());
        for &c in &children {
            let Some(records) = self.held.get(&c) else {
                local = Err(Error::Lost(format!(
                    "worker {} does not hold tier {c}, which tier {t} moves into",
                    self.me()
                )));
                break;
            };
            parts.push(Arc::clone(records));
        }
        let mut head = Vec::new();
        let mut senders = Vec::with_capacity(parts.len());
        for (&c, records) in children.iter().zip(&parts) {
            let (a, sender) = records.sender();
            codec::put(&mut head, u64::from(c));
            a.put(&mut head);
            senders.push((records.len(), sender));
        }
        let out = to_takers(&head);
        let got = self.sync(w, out, [0; SUMS], 0, local)?;
        let mut announced = Vec::new();
        let mut bytes = 0u64;
        for (from, msg) in got.inbox {
            let bad = malformed(from);
            if !takes(size, me, from) {
                return Err(bad(Malformed));
            }
            let mut rd = Reader::new(&msg);
            for &c in &children {
                if rd.get().map_err(&bad)? != u64::from(c) {
                    return Err(bad(Malformed));
                }
                let a = Announce::get(&mut rd).map_err(&bad)?;
                let len = self
                    .owners
                    .of(c)
                    .local_len_of(u64::from(from), self.sizes[c as usize]);
                bytes = bytes.saturating_add(a.bytes(len));
                announced.push((c, from, len, a));
            }
            if !rd.done() {
                return Err(bad(Malformed));
            }
        }
        // Every worker decides alike, from the most any of them would take.
        let got = self.sync(w, Vec::new(), [0; SUMS], bytes, Ok(()))?;
        if got.max > self.told_bytes {
            return Ok(None);
        }
        // The parts this worker takes, by tier and owner, filled a piece a round.
        let mut taking: Vec<Vec<Option<Part>>> = (0..n).map(|_| Vec::new()).collect();
        for (c, from, len, a) in announced {
            let part = Part::new(len, a).ok_or_else(|| malformed(from)(Malformed))?;
            let by = &mut taking[c as usize];
            if by.len() < peers as usize {
                by.resize_with(peers as usize, || None);
            }
            by[from as usize] = Some(part);
        }
        // As many rounds as the largest part of any worker has pieces.
        let pieces = children
            .iter()
            .map(|&c| {
                let lay = self.owners.of(c);
                (0..u64::from(peers))
                    .map(|o| {
                        lay.local_len_of(o, self.sizes[c as usize])
                            .div_ceil(told::PIECE)
                    })
                    .max()
                    .unwrap_or(0)
            })
            .max()
            .unwrap_or(0);
        for k in 0..pieces {
            let mut msg = Vec::new();
            for (&c, (len, sender)) in children.iter().zip(&senders) {
                if k * told::PIECE < *len {
                    codec::put(&mut msg, u64::from(c));
                    sender.put_piece(k, &mut msg);
                }
            }
            let out = to_takers(&msg);
            let got = self.sync(w, out, [0; SUMS], 0, Ok(()))?;
            for (from, msg) in got.inbox {
                let bad = malformed(from);
                let mut rd = Reader::new(&msg);
                while !rd.done() {
                    let c = rd.get().map_err(&bad)?;
                    let part = taking
                        .get_mut(c as usize)
                        .and_then(|by| by.get_mut(from as usize))
                        .and_then(Option::as_mut)
                        .ok_or_else(|| bad(Malformed))?;
                    part.get_piece(&mut rd, k).map_err(&bad)?;
                }
            }
        }
        if let Some((from, _)) = taking
            .iter()
            .flat_map(|by| by.iter().enumerate())
            .find_map(|(o, p)| p.as_ref().filter(|p| !p.complete()).map(|p| (o, p)))
        {
            return Err(Error::Lost(format!(
                "worker {from} sent fewer records of a tier than it announced"
            )));
        }
        let mut told = Told {
            parts: taking
                .into_iter()
                .map(|by| by.into_iter().map(|p| p.map(Arc::new)).collect())
                .collect(),
        };
        if size == 1 {
            return Ok(Some(told));
        }
        // Shared within the home: each worker publishes what it took, takes the others'
        // after a round, and withdraws its own after another (every worker then holds
        // what it reads).
        {
            let mut shared = lock(&self.shared.told);
            for (c, by) in told.parts.iter().enumerate() {
                for (o, part) in by.iter().enumerate() {
                    if let Some(part) = part {
                        shared.insert((c as u32, o as u32), Arc::clone(part));
                    }
                }
            }
        }
        self.sync(w, Vec::new(), [0; SUMS], 0, Ok(()))?;
        let mut local = Ok(());
        {
            let shared = lock(&self.shared.told);
            for &c in &children {
                let by = &mut told.parts[c as usize];
                by.resize_with(peers as usize, || None);
                for o in (0..peers).filter(|&o| !here.has(o) && !takes(size, me, o)) {
                    match shared.get(&(c, o)) {
                        Some(part) => by[o as usize] = Some(Arc::clone(part)),
                        None => {
                            let taker = (here.from..here.to).find(|&r| takes(size, r, o));
                            local = Err(Error::Lost(format!(
                                "worker {} did not share the records of worker {o} of tier {c}",
                                taker.unwrap_or(o)
                            )));
                        }
                    }
                }
            }
        }
        self.sync(w, Vec::new(), [0; SUMS], 0, local)?;
        let mut shared = lock(&self.shared.told);
        for &c in &children {
            for o in (0..peers).filter(|&o| takes(size, me, o)) {
                shared.remove(&(c, o));
            }
        }
        Ok(Some(told))
    }

    /// Visits part `part` of this worker's slice `k` (the `j`-th) of tier `t` with every
    /// child's record at hand (`known`: at home or told whole), labelling each position
    /// as the library does, or keeping it for the in-tier rounds.
    fn visit_known<E>(
        &self,
        t: u32,
        (j, k, part): (usize, u64, Range<u64>),
        reach: &Bits,
        (records, edges): (&mut [u16], &mut u64),
        (known, not_listed): (&Known<'_>, &E),
        out: &mut Visited,
    ) where
        E: Fn(&Child) -> grundy::Error,
    {
        // As the library's `evaluate` asks: `Ok(None)` inside the tier.
        let record_of = |c: &Child| -> Result<Option<u16>, grundy::Error> {
            if c.tier == t {
                return Ok(None);
            }
            known.get(c).map(Some).ok_or_else(|| not_listed(c))
        };
        let (game, scored) = (self.game, self.scored);
        self.visit_slice(t, (j, k, part), reach, &mut |_, at, node| {
            // The node read by reference, field by field, with no copy of the whole of
            // it made at every position for the rare call below.
            let Node::Moves(children) = *node else {
                label(
                    evaluate(game, scored, t, *node, record_of),
                    records,
                    at,
                    out,
                );
                return;
            };
            *edges += children.len() as u64;
            if children.iter().any(|c| c.tier == t) {
                // Kept for the in-tier rounds (`evaluate` would stop at the first move
                // inside), each child out of the tier looked up once.
                if let Err(e) = pend(&mut out.early, game, scored, t, at, children, |_, c| {
                    record_of(c)
                }) {
                    out.error.get_or_insert(e);
                }
                return;
            }
            // Every child reached and out of the tier (the common case): folded here,
            // one lookup each.
            let mut fold = Fold::NONE;
            let plain = children.iter().all(|c| match known.get(c) {
                Some(rec) if rec != record::UNREACHED => {
                    fold.add(scored, rec, c.again, c.gain);
                    true
                }
                _ => false,
            });
            if plain {
                label(fold.record(scored).map(Some), records, at, out);
                return;
            }
            // An error the library's `evaluate` tells (a child unreached, or in a tier
            // not listed).
            label(
                evaluate(game, scored, t, Node::Moves(children), record_of),
                records,
                at,
                out,
            );
        });
    }

    /// Visits part `part` of this worker's slice `k` (the `j`-th) of tier `t`, the ranks
    /// `reach` marks, calling `each` with a position's rank and its place in this worker's
    /// arrays, and tells the progress once the slice is done.
    fn visit_slice<F>(
        &self,
        t: u32,
        (j, k, part): (usize, u64, Range<u64>),
        reach: &Bits,
        each: &mut F,
    ) where
        F: FnMut(u64, usize, &Node<'_>),
    {
        let lay = self.owners.of(t);
        let size = self.sizes[t as usize];
        // A slice is one run of this worker's arrays.
        let slice = lay.range(k, size);
        let (start, base) = (slice.start, lay.local(slice.start));
        let whole = part.end == slice.end;
        self.game.visit(
            t,
            part,
            &|x| reach.get(base + (x - start) as usize),
            &mut |x, node| each(x, base + (x - start) as usize, &node),
        );
        if whole {
            self.tell(&Event::Solve {
                tier: t,
                done: ((j + 1) as u64 * lay.slice * lay.workers).min(size),
                total: size,
            });
        }
    }

    /// Visits this worker's slices `mine[range]` of tier `t` (the ranks `reach` marks),
    /// labelling each position whose children are decided at home (`at_home`) into
    /// `records` and counting its moves into `edges`; the others are left for the batch's
    /// exchange (a child `abroad`) or kept for the in-tier rounds (moves inside only).
    ///
    /// Generic over its lookups, so that they are inlined in the loop over the moves.
    fn visit_part<H, A>(
        &self,
        t: u32,
        (j, k, part): (usize, u64, Range<u64>),
        reach: &Bits,
        (records, edges): (&mut [u16], &mut u64),
        (at_home, abroad): (&H, &A),
        (asks, out): (&mut Asks, &mut Visited),
    ) where
        H: Fn(&Child) -> Result<Option<u16>, grundy::Error>,
        A: Fn(&Child) -> bool,
    {
        let (game, scored, owners) = (self.game, self.scored, &self.owners);
        self.visit_slice(t, (j, k, part), reach, &mut |x, at, node| {
            let inside_or_home = |c: &Child| if c.tier == t { Ok(None) } else { at_home(c) };
            let Node::Moves(children) = *node else {
                label(
                    evaluate(game, scored, t, *node, inside_or_home),
                    records,
                    at,
                    out,
                );
                return;
            };
            *edges += children.len() as u64;
            // One pass over the moves: each child at home looked up once (its
            // record kept for the labelling if the position waits for one
            // abroad, and counted into the fold), each abroad marked to be asked.
            let first = out.recs.len();
            let (mut far, mut inside, mut won, mut odd) = (false, false, false, false);
            let mut fold = Fold::NONE;
            for c in children {
                let rec = if c.tier == t {
                    inside = true;
                    ASK
                } else if abroad(c) {
                    far = true;
                    ABROAD
                } else {
                    match at_home(c) {
                        Ok(Some(rec)) if rec != record::UNREACHED => {
                            fold.add(scored, rec, c.again, c.gain);
                            u32::from(rec)
                        }
                        // Told as the library's `evaluate` tells it, below or at
                        // the labelling.
                        _ => {
                            odd = true;
                            ASK
                        }
                    }
                };
                won |= !scored && rec == u32::from(WON_NEXT[usize::from(c.again)]);
                out.recs.push(rec);
            }
            if far && won && !inside {
                // A win in 1 through a child at home: no move does better, so the
                // children abroad need not be asked.
                records[at] = WIN_IN_1;
                out.recs.truncate(first);
                return;
            }
            if far {
                let full = inside || odd;
                out.positions.push(Kept {
                    rank: x,
                    start: out.kids.len(),
                    fold,
                    full,
                });
                for (c, &rec) in children.iter().zip(&out.recs[first..]) {
                    let far = rec == ABROAD;
                    if far {
                        asks.mark(c.tier, owners.split(c.tier, c.rank), c.rank);
                    }
                    if full || far {
                        out.kids.push(Kid::new(c, rec));
                        if scored {
                            out.gains.push(c.gain);
                        }
                    }
                }
                out.recs.truncate(first);
                return;
            }
            if !inside && !odd {
                // Every move counted at home.
                label(fold.record(scored).map(Some), records, at, out);
                out.recs.truncate(first);
                return;
            }
            // The records looked up above, in step with the moves.
            let recs = &out.recs[first..];
            let looked_up = |k: usize, c: &Child| match recs[k] {
                ASK => inside_or_home(c),
                rec => Ok(Some(rec as u16)),
            };
            if inside {
                // Kept for the in-tier rounds: `evaluate` would stop at the first
                // move inside.
                if let Err(e) = pend(&mut out.early, game, scored, t, at, children, looked_up) {
                    out.error.get_or_insert(e);
                }
            } else {
                let mut k = 0;
                let child = |c: &Child| {
                    k += 1;
                    looked_up(k - 1, c)
                };
                match evaluate(game, scored, t, *node, child) {
                    Ok(Some(rec)) => records[at] = rec,
                    Ok(None) => {
                        if let Err(e) =
                            pend(&mut out.early, game, scored, t, at, children, looked_up)
                        {
                            out.error.get_or_insert(e);
                        }
                    }
                    Err(e) => {
                        out.error.get_or_insert(e.into());
                    }
                }
            }
            out.recs.truncate(first);
        });
    }

    /// One exchange of a batch of tier `t`: each owner abroad of a child in `asks` is
    /// asked for its records, and this worker answers what it is asked from the tiers it
    /// holds, in two rounds every worker takes (the first also telling each the `status`
    /// of the batch's labelling, and summing `more`: 1 if this worker has more to visit).
    /// Returns, by worker, the records told, in the order asked ([`Asks::index`] finds a
    /// child's), and the workers with more to visit.
    fn ask_abroad(
        &mut self,
        w: &mut Worker,
        t: u32,
        asks: &mut Asks,
        status: Result<(), Error>,
        more: u64,
    ) -> Result<(Vec<Vec<u16>>, u64), Error> {
        let me = self.me();
        let game = self.game;
        let (out, counts) = asks.seal();
        let got = self.sync(w, out, [more, 0, 0, 0, 0, 0, 0, 0], 0, status)?;
        let more = got.sums[0];
        // Answer: the records asked for, in the order asked.
        let mut answers = self.empty();
        let mut local = Ok(());
        let mut ranks = Vec::new();
        'requests: for (from, bytes) in got.inbox {
            let mut rd = Reader::new(&bytes);
            let answer = &mut answers[from as usize];
            while !rd.done() {
                let bad = malformed(from);
                let c = rd.get().map_err(&bad)? as u32;
                codec::get_ranks(&mut rd, &mut ranks).map_err(&bad)?;
                let Some(held) = self.held.get(&c) else {
                    local = Err(grundy::Error::Unsupported(format!(
                        "{}: a move from tier {t} to tier {c}, which it does not list among its child tiers",
                        game.id()
                    ))
                    .into());
                    break 'requests;
                };
                // Places in this worker's arrays, each of a rank.
                let places = self
                    .owners
                    .of(c)
                    .held_len_of(u64::from(me), self.sizes[c as usize]);
                for &p in &ranks {
                    let Some(rec) = held.get(p as usize).filter(|_| p < places as u64) else {
                        return Err(bad(Malformed));
                    };
                    answer.extend_from_slice(&rec.to_le_bytes());
                }
            }
        }
        let got = self.sync(w, answers, [0; SUMS], 0, local)?;
        let mut told: Vec<Vec<u16>> = vec![Vec::new(); self.peers()];
        for (from, bytes) in got.inbox {
            let Some(&n) = counts.get(from as usize) else {
                return Err(malformed(from)(Malformed));
            };
            if bytes.len() != 2 * n {
                return Err(malformed(from)(Malformed));
            }
            told[from as usize] = bytes
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .collect();
        }
        for (from, &n) in counts.iter().enumerate() {
            if told[from].len() != n {
                return Err(Error::Lost(format!(
                    "worker {from} answered {} records of the {n} asked",
                    told[from].len()
                )));
            }
        }
        Ok((told, more))
    }

    /// The positions of `t` with moves inside it, in rounds: first each move inside is
    /// told to the child's owner with the parent's number among its owner's pending
    /// positions (the child's owner keeps it reversed if the child is pending, or answers
    /// the parent's owner with the child's final record); then one round a remoteness
    /// (score games: a round per level of the acyclic subgraph), each position decided in
    /// a round telling its parents' owners their numbers. A pending rank's number is a
    /// count of bits ([`Asked::index`]), not a search, and a round looks only at the
    /// positions it can decide ([`LevelQueue`]).
    fn inside(
        &mut self,
        w: &mut Worker,
        t: u32,
        mut p: Waiting,
        records: &mut [u16],
    ) -> Result<(), Error> {
        let game = self.game;
        let lay = self.owners.of(t);
        let me = self.me();
        let scored = self.scored;
        let size = self.sizes[t as usize];
        let np = p.len();
        let mut local = Ok(());
        if u32::try_from(np).is_err() {
            local = Err(grundy::Error::Unsupported(format!(
                "{}: {np} positions of tier {t} with moves inside it on one worker, past 32-bit numbers",
                game.id()
            ))
            .into());
        }
        if !scored && p.rows.folds.folded().iter().any(|o| o.again()) {
            local = Err(grundy::Error::Unsupported(format!(
                "{}: moves that keep the turn inside tier {t} of a win/loss game",
                game.id()
            ))
            .into());
        }
        // The pending positions' numbers, by place.
        let pending = p.seal();
        let crate::waiting::Rows {
            folds: mut outside,
            moves: inside,
        } = p.rows;
        let mut count: Vec<u32> = inside.counts().to_vec();
        // First pass, over every move into a child this worker owns: each move into a
        // pending child listed (the child's number and the parent's, by the parent's
        // owner in runs, so that the second pass neither decodes nor looks a child up
        // again); a final child's record folded into its parent here, or told to the
        // parent's owner. Its own positions' moves are taken in the pass that tells the
        // others theirs, before the round.
        let mut into = MovesInto::new(scored);
        let mut finals = self.empty();
        let mut taken: Result<(), Error> = Ok(());
        let mut fold = |pi: usize, rec: u16, gain: i32, again: bool| -> Result<(), Malformed> {
            let left = count.get_mut(pi).ok_or(Malformed)?;
            *left = left.checked_sub(1).ok_or(Malformed)?;
            outside.add(pi, rec, again, gain).ok_or(Malformed)
        };
        let mut first = |c: u64, parent: Parent, gain: i32, again: bool| -> Result<(), Error> {
            let at = lay.local(c);
            if let Some(ci) = pending.index(at) {
                into.push(ci as u32, parent, gain, again);
                return Ok(());
            }
            let rec = records[at];
            if rec == record::UNREACHED {
                taken = Err(grundy::Error::Unsupported(format!(
                    "{}: a move inside tier {t} to rank {c}, which the start never reached",
                    game.id()
                ))
                .into());
            } else if parent.owner() == me {
                fold(parent.number(), rec, gain, again).map_err(malformed(me))?;
            } else {
                let b = &mut finals[parent.owner() as usize];
                codec::put(b, parent.number() as u64);
                codec::put(b, u64::from(rec));
                if scored {
                    codec::put_signed(b, i64::from(gain));
                    codec::put(b, u64::from(again));
                }
            }
            Ok(())
        };
        // Each move to a child owned elsewhere is told to its owner: the child, the
        // parent's number, and for score games the move's gain and whether it keeps the
        // turn.
        let mut out = self.empty();
        if local.is_ok() {
            local = inside.each(|i, c, gain, again| {
                let o = lay.owner(c);
                if o == me {
                    return first(c, Parent::new(me, i as u32), gain, again);
                }
                let b = &mut out[o as usize];
                codec::put(b, c);
                codec::put(b, i as u64);
                if scored {
                    codec::put_signed(b, i64::from(gain));
                    codec::put(b, u64::from(again));
                }
                Ok(())
            });
        }
        drop(inside);
        // The round also gives the most pending positions any worker has, which says
        // whether a parent fits in 4 bytes.
        let got = self.sync(w, out, [0; SUMS], np as u64, local)?;
        let most = got.max;
        let packing = Packing::new(self.rounds.peers, most);
        // The moves told into a child this worker owns.
        for (o, bytes) in got.inbox {
            let bad = malformed(o);
            let mut rd = Reader::new(&bytes);
            while !rd.done() {
                let c = rd.get().map_err(&bad)?;
                let pi = u32::try_from(rd.get().map_err(&bad)?).map_err(|_| bad(Malformed))?;
                let (gain, again) = gain_again(&mut rd, scored).map_err(&bad)?;
                if lay.owner(c) != me || c >= size || u64::from(pi) >= most {
                    return Err(bad(Malformed));
                }
                first(c, Parent::new(o, pi), gain, again)?;
            }
        }
        // Second pass: the moves into each pending child, reversed: its parents are
        // rev[off[i]..off[i + 1]] (and, for score games, their moves' gain and again).
        let (off, rev, moves) = into.reversed(np, packing);
        let got_finals = self.sync(w, finals, [0; SUMS], 0, taken)?;
        for (o, bytes) in got_finals.inbox {
            let bad = malformed(o);
            let mut rd = Reader::new(&bytes);
            while !rd.done() {
                let pi = usize::try_from(rd.get().map_err(&bad)?).map_err(|_| bad(Malformed))?;
                let rec = u16::try_from(rd.get().map_err(&bad)?).map_err(|_| bad(Malformed))?;
                let (gain, again) = gain_again(&mut rd, scored).map_err(&bad)?;
                fold(pi, rec, gain, again).map_err(&bad)?;
            }
        }
        let graph = Reversed {
            off: &off,
            rev: &rev,
            moves: &moves,
        };
        let mut decided = vec![record::UNREACHED; np];
        if scored {
            self.score_rounds(w, t, outside.best(), &mut count, graph, &mut decided)?;
        } else {
            self.level_rounds(w, &mut outside, &mut count, graph, &mut decided)?;
        }
        let mut i = 0;
        pending.places(|at| {
            records[at] = decided[i];
            i += 1;
        });
        Ok(())
    }

    /// Win/loss/draw inside a tier: in round `L` a pending position is won in `L` if a
    /// child is lost in `L − 1`, lost in `L` if every child is won and the slowest in
    /// `L − 1`; whatever is undecided when no round can decide more is drawn. This is
    /// the order of the library's engine on its chains of virtual vertices, by rounds.
    /// A child inside decided is folded into its parents' `outside` as a child out of
    /// the tier would be (the quickest loss, the slowest win).
    ///
    /// A parent of this worker's own is told at once, as its child is decided: what it is
    /// told in round `L` cannot change what round `L` decides of it. It is won in `L`
    /// whether told or not (a loss in `L` is no quicker than one in `L − 1`), and lost in
    /// `L` neither way: the child it is told of was undecided, so its count of children
    /// inside not won was not 0, and once told of a win, its slowest is `L`, not `L − 1`.
    /// A parent is queued for the next round only when what it was told decides it there
    /// ([`tell_level`]).
    fn level_rounds(
        &mut self,
        w: &mut Worker,
        outside: &mut Folds,
        count: &mut [u32],
        graph: Reversed<'_>,
        decided: &mut [u16],
    ) -> Result<(), Error> {
        let me = self.me();
        let mut queue = LevelQueue::new(outside.folded().iter().map(|o| (o.loss(), o.win())));
        let longest = queue.longest();
        let got = self.sync(w, Vec::new(), [0; SUMS], longest, Ok(()))?;
        let longest = got.max;
        let mut level: u32 = 1;
        loop {
            let mut out = self.empty();
            let mut newly = 0u64;
            let mut local = Ok(());
            for i in queue.take(level) {
                let i = i as usize;
                if decided[i] != record::UNREACHED {
                    continue;
                }
                let o = outside.folded()[i];
                let loss = o.loss();
                let value = if loss == Some(level - 1) {
                    Value::Win(level)
                } else if count[i] == 0 && loss.is_none() && !o.draw() && o.win() == Some(level - 1)
                {
                    Value::Loss(level)
                } else {
                    continue;
                };
                match value_record(value) {
                    Ok(r) => decided[i] = r,
                    Err(e) => {
                        local = Err(e.into());
                        break;
                    }
                }
                newly += 1;
                let won = matches!(value, Value::Win(_));
                for parent in graph.parents(i) {
                    if parent.owner() == me {
                        let told = (&mut *outside, &mut *count, &mut *decided, &mut queue);
                        if let Err(e) = tell_level(told, parent.number(), won, level) {
                            // Told with the round, which every worker takes.
                            local = Err(malformed(me)(e));
                            break;
                        }
                    } else {
                        let v = parent.number() as u64 * 2 + u64::from(won);
                        codec::put(&mut out[parent.owner() as usize], v);
                    }
                }
                if local.is_err() {
                    break;
                }
            }
            let got = self.sync(w, out, [newly, 0, 0, 0, 0, 0, 0, 0], 0, local)?;
            for (from, bytes) in got.inbox {
                let mut rd = Reader::new(&bytes);
                while !rd.done() {
                    let v = rd.get().map_err(malformed(from))?;
                    let pi = usize::try_from(v / 2).map_err(|_| malformed(from)(Malformed))?;
                    let told = (&mut *outside, &mut *count, &mut *decided, &mut queue);
                    tell_level(told, pi, v % 2 == 1, level).map_err(malformed(from))?;
                }
            }
            if got.sums[0] == 0 && u64::from(level) > longest {
                break;
            }
            level += 1;
        }
        for d in decided.iter_mut() {
            if *d == record::UNREACHED {
                *d = record::DRAW;
            }
        }
        Ok(())
    }

    /// Score games inside a tier (acyclic there): a position is decided once all its
    /// children inside are, its margin the best over every move.
    fn score_rounds(
        &mut self,
        w: &mut Worker,
        t: u32,
        outside: &[Best<i64>],
        count: &mut [u32],
        graph: Reversed<'_>,
        decided: &mut [u16],
    ) -> Result<(), Error> {
        let me = self.me();
        let np = outside.len();
        let mut best: Vec<Best<i64>> = outside.to_vec();
        let mut left = np;
        // The positions whose children inside are all decided.
        let mut ready: Vec<usize> = (0..np).filter(|&i| count[i] == 0).collect();
        loop {
            let mut out = self.empty();
            let mut home: Vec<(usize, i64)> = Vec::new();
            let mut newly = 0u64;
            let mut local = Ok(());
            for i in std::mem::take(&mut ready) {
                if decided[i] != record::UNREACHED {
                    continue;
                }
                let m = best[i].key().unwrap_or(0);
                match margin_record(m) {
                    Ok(r) => decided[i] = r,
                    Err(e) => {
                        local = Err(e.into());
                        break;
                    }
                }
                newly += 1;
                left -= 1;
                for (parent, &(gain, again)) in graph.parents(i).zip(graph.moves_into(i)) {
                    let here = step(again, gain).value(m);
                    if parent.owner() == me {
                        home.push((parent.number(), here));
                    } else {
                        let b = &mut out[parent.owner() as usize];
                        codec::put(b, parent.number() as u64);
                        codec::put_signed(b, here);
                    }
                }
            }
            let got = self.sync(w, out, [newly, left as u64, 0, 0, 0, 0, 0, 0], 0, local)?;
            let mut tell = |pi: usize, here: i64| -> Result<(), Malformed> {
                let left = count.get_mut(pi).ok_or(Malformed)?;
                *left = left.checked_sub(1).ok_or(Malformed)?;
                best[pi].offer(here, ());
                if *left == 0 {
                    ready.push(pi);
                }
                Ok(())
            };
            for (pi, here) in home {
                tell(pi, here).map_err(malformed(me))?;
            }
            for (from, bytes) in got.inbox {
                let mut rd = Reader::new(&bytes);
                while !rd.done() {
                    let pi = usize::try_from(rd.get().map_err(malformed(from))?)
                        .map_err(|_| malformed(from)(Malformed))?;
                    let here = rd.get_signed().map_err(malformed(from))?;
                    tell(pi, here).map_err(malformed(from))?;
                }
            }
            if got.sums[0] == 0 {
                if got.sums[1] > 0 {
                    return Err(grundy::Error::Unsupported(format!(
                        "{}: positions repeat inside tier {t}; margins of score games with cycles are not defined here",
                        self.game.id()
                    ))
                    .into());
                }
                return Ok(());
            }
        }
    }

    /// Counts what the tier holds over all workers, and hands its writer the blocks of
    /// this worker's slices, compressed; the writer writes the file.
    fn finish(
        &mut self,
        w: &mut Worker,
        t: u32,
        records: &[u16],
        edges: u64,
        start: Traffic,
    ) -> Result<TierSummary, Error> {
        let lay = self.owners.of(t);
        let size = self.sizes[t as usize];
        let mine = lay.mine(size);
        let mut counted = Counted::default();
        // The writer opens the file first; each round then brings it the next blocks in
        // order (round r: every worker's slices r·b .. (r+1)·b, which are the slices
        // r·b·W .. (r+1)·b·W of the tier), so it holds one round's blocks at a time.
        let (mut file, mut encoder) = self.open_tier_file(w, t)?;
        // Handed back below, for the next tier (an error ends the solve anyway).
        let mut next = 0u64;
        let mut carried: Result<(), Error> = Ok(());
        for r in 0..lay.rounds(size, self.batch) {
            let from = (r * self.batch).min(mine.len());
            let to = ((r + 1) * self.batch).min(mine.len());
            let mut out = self.empty();
            let mut local = std::mem::replace(&mut carried, Ok(()));
            if let Ok(enc) = encoder.as_mut() {
                let b = &mut out[self.writer(t) as usize];
                if let Err(e) =
                    self.encode_slices(enc, t, &mine[from..to], records, &mut counted, b)
                {
                    local = Err(e);
                }
            }
            let got = self.sync(w, out, [0; SUMS], 0, local)?;
            if let Some(file) = file.as_mut() {
                carried = write_blocks(file, t, lay, size, &got.inbox, &mut next)?;
            }
        }
        self.encoder = encoder.ok();
        let summary = self.count_tier(w, t, &counted, edges, start, carried)?;
        let mut local = Ok(());
        if let Some(file) = file {
            local = if next != size.div_ceil(lay.slice) {
                Err(Error::Lost(format!(
                    "the blocks of tier {t} did not all arrive"
                )))
            } else {
                match self.store.as_mut() {
                    Some(store) => store
                        .finish_encoded(file, &summary)
                        .map(|_| ())
                        .map_err(Error::from),
                    None => Err(Error::Lost(format!(
                        "the writer of tier {t} has no tablebase"
                    ))),
                }
            };
        }
        self.sync(w, Vec::new(), [0; SUMS], 0, local)?;
        self.tell(&Event::Done {
            summary,
            loaded: false,
        });
        Ok(summary)
    }

    /// The tier's file, opened under its temporary name by its writer (`None` on the other
    /// workers), and this worker's compressor (the one kept from the tier before, if
    /// any); a round every worker takes tells each whether both could be had.
    fn open_tier_file(
        &mut self,
        w: &mut Worker,
        t: u32,
    ) -> Result<(Option<TierWriter>, Result<Encoder, String>), Error> {
        let mut file = None;
        let mut local: Result<(), Error> = Ok(());
        if self.me() == self.writer(t) {
            local = match self.store.as_mut() {
                Some(store) => store
                    .begin_encoded(t)
                    .map(|f| file = Some(f))
                    .map_err(Error::from),
                None => Err(Error::Lost(format!(
                    "the writer of tier {t} has no tablebase"
                ))),
            };
        }
        let encoder = match self.encoder.take() {
            Some(kept) => Ok(kept),
            None => Encoder::new().map_err(|e| format!("cannot compress: {e}")),
        };
        if let (Err(e), Ok(())) = (&encoder, &local) {
            local = Err(grundy::Error::Store(e.clone()).into());
        }
        self.sync(w, Vec::new(), [0; SUMS], 0, local)?;
        Ok((file, encoder))
    }

    /// Counts and compresses this worker's `slices` of tier `t` (their records in
    /// `records`), each block put into `out` after its slice number and length, for the
    /// tier's writer.
    fn encode_slices(
        &self,
        enc: &mut Encoder,
        t: u32,
        slices: &[u64],
        records: &[u16],
        counted: &mut Counted,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let lay = self.owners.of(t);
        let size = self.sizes[t as usize];
        for &k in slices {
            let range = lay.range(k, size);
            let at = lay.local(range.start);
            let slice = &records[at..at + (range.end - range.start) as usize];
            let s = summarise(self.scored, t, slice);
            counted.positions += s.positions;
            for (o, c) in counted.outcomes.iter_mut().zip(s.outcomes) {
                *o += c;
            }
            let bytes = enc
                .encode(slice)
                .map_err(|e| grundy::Error::Store(format!("cannot compress: {e}")))?;
            codec::put(out, k);
            codec::put(out, bytes.len() as u64);
            out.extend_from_slice(&bytes);
        }
        Ok(())
    }

    /// The tier's summary and cost, summed over every worker in one round (which also
    /// tells each the `carried` result of the last round of blocks).
    fn count_tier(
        &mut self,
        w: &mut Worker,
        t: u32,
        counted: &Counted,
        edges: u64,
        start: Traffic,
        carried: Result<(), Error>,
    ) -> Result<TierSummary, Error> {
        // The blocks' rounds count with the tier (these counters cannot: they travel in
        // the round that sums them).
        let mine = self.rounds.traffic.since(&start);
        let got = self.sync(
            w,
            Vec::new(),
            [
                counted.positions,
                counted.outcomes[0],
                counted.outcomes[1],
                counted.outcomes[2],
                edges,
                mine.messages,
                mine.bytes,
                mine.remote_bytes,
            ],
            0,
            carried,
        )?;
        let s = got.sums;
        let summary = TierSummary {
            tier: t,
            ranks: self.sizes[t as usize],
            positions: s[0],
            outcomes: [s[1], s[2], s[3]],
            partial: false,
        };
        self.edges += s[4];
        self.costs.push(TierCost {
            tier: t,
            traffic: Traffic {
                rounds: mine.rounds,
                messages: s[5],
                bytes: s[6],
                remote_bytes: s[7],
            },
            edges: s[4],
            positions: s[0],
        });
        Ok(summary)
    }
}

/// What a worker's slices of a tier hold: positions reached, and their outcomes.
#[derive(Default)]
struct Counted {
    positions: u64,
    outcomes: [u64; 3],
}

/// The writer's part of a round of blocks: the blocks every worker sent (`inbox`),
/// checked to be the sender's own slices of tier `t` (`size` ranks), appended to `file`
/// in order from block `next` on. `Ok(Err(_))`: a block missing or a write failed, told
/// to every worker in the next round; `Err`: a malformed message.
fn write_blocks(
    file: &mut TierWriter,
    t: u32,
    lay: Layout,
    size: u64,
    inbox: &[(u32, Vec<u8>)],
    next: &mut u64,
) -> Result<Result<(), Error>, Error> {
    let slices = size.div_ceil(lay.slice);
    let mut blocks: BTreeMap<u64, &[u8]> = BTreeMap::new();
    for (from, bytes) in inbox {
        let mut rd = Reader::new(bytes);
        while !rd.done() {
            let bad = malformed(*from);
            let k = rd.get().map_err(&bad)?;
            let len = rd.get().map_err(&bad)? as usize;
            let b = rd.bytes(len).map_err(&bad)?;
            if k >= slices || lay.owner(k * lay.slice) != *from {
                return Err(bad(Malformed));
            }
            blocks.insert(k, b);
        }
    }
    for (k, b) in blocks {
        if k != *next {
            return Ok(Err(Error::Lost(format!(
                "block {next} of tier {t} did not arrive in its round"
            ))));
        }
        if let Err(e) = file.push(b) {
            return Ok(Err(e.into()));
        }
        *next += 1;
    }
    Ok(Ok(()))
}

/// The records of the children through which the mover wins in 1 (the best any move
/// can give in a win/loss game), by whether the move keeps the turn: a loss in 0 for the
/// opponent, or a win in 0 for the mover.
const WON_NEXT: [u16; 2] = [2, 3];
/// The record of a win in 1.
const WIN_IN_1: u16 = 5;

/// The parts of a slice a round of solving visits one at a time, checking
/// `Config::kept_moves` after each.
const PARTS: u64 = 32;

/// A kid's record not looked up at the visit (owned abroad, inside the tier, or an
/// error to report when labelling).
const ASK: u32 = u32::MAX;

/// A kid's record at the visit when its owner is abroad (asked, like [`ASK`], at the
/// labelling).
const ABROAD: u32 = u32::MAX - 1;

/// What visiting a batch of slices leaves: the positions with a child abroad and their
/// moves; the positions kept with moves inside the tier only; the first error met.
struct Visited {
    positions: Vec<Kept>,
    /// The kept positions' moves: a folded one's moves abroad, a full one's every move
    /// with its child's record if looked up at home.
    kids: Vec<Kid>,
    /// Score games: each kid's gain (empty for win/loss games, whose moves gain nothing).
    gains: Vec<i32>,
    /// The position being visited: by move, its child's record if its owner is at home,
    /// else [`ASK`].
    recs: Vec<u32>,
    early: Batch,
    error: Option<Error>,
}

impl Visited {
    fn new(scored: bool, size: u64) -> Visited {
        Visited {
            positions: Vec::new(),
            kids: Vec::new(),
            gains: Vec::new(),
            recs: Vec::new(),
            early: Batch::new(scored, size),
            error: None,
        }
    }
}

/// A position kept for its children abroad: its rank, where its moves start in
/// [`Visited::kids`], and, unless `full`, its moves at home folded (its kids are then its
/// moves abroad only; a `full` one, with moves inside the tier or a child at home whose
/// lookup failed, keeps every move, labelled as the library's `evaluate` would).
#[derive(Clone, Copy)]
struct Kept {
    rank: u64,
    start: usize,
    fold: Fold,
    full: bool,
}

/// The best of a position's moves counted so far, as [`evaluate`] finds it: for a
/// win/loss game the value through the move as its preference ([`Value::preference`],
/// one key a value), for a score game the margin through it; [`Fold::NONE`] before any.
/// The best is the greatest key whatever the order the moves are counted in, so a
/// position's moves at home are counted as it is visited and those abroad once told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fold(i64);

impl Fold {
    /// No move counted (below every preference and every margin a record holds).
    const NONE: Fold = Fold(i64::MIN);

    /// Counts a move with `gain` (keeping the turn if `again`) into a child of record
    /// `rec`, which must be reached.
    #[inline]
    fn add(&mut self, scored: bool, rec: u16, again: bool, gain: i32) {
        debug_assert_ne!(rec, record::UNREACHED);
        let key = if scored {
            step(again, gain).value(record::margin(rec).unwrap_or(0))
        } else {
            record::value(rec)
                .map_or(Value::Draw, |v| v.through(again))
                .preference()
        };
        self.0 = self.0.max(key);
    }

    /// The record of the position whose moves were all counted (`evaluate`'s: a loss in
    /// 0, or a margin of 0, if there were none).
    fn record(self, scored: bool) -> Result<u16, grundy::Error> {
        if scored {
            return margin_record(if self == Fold::NONE { 0 } else { self.0 });
        }
        let value = match self.0 {
            i64::MIN => Value::Loss(0),
            k if k > 0 => Value::Win(u32::try_from(i64::MAX - k).unwrap_or(u32::MAX)),
            0 => Value::Draw,
            k => Value::Loss(u32::try_from(k - (i64::MIN + 1)).unwrap_or(u32::MAX)),
        };
        value_record(value)
    }
}

/// Writes a record `evaluate` (or a fold) gave at `at`, or keeps the first error. `Ok(None)`
/// (a move inside the tier) cannot come here: such positions are kept before, and a
/// position without moves is final.
#[inline]
fn label<E: Into<Error>>(
    got: Result<Option<u16>, E>,
    records: &mut [u16],
    at: usize,
    out: &mut Visited,
) {
    match got {
        Ok(Some(rec)) => records[at] = rec,
        Ok(None) => unreachable!("a position with a move inside its tier is kept before"),
        Err(e) => {
            out.error.get_or_insert(e.into());
        }
    }
}

/// The records of a tier's child tiers that workers abroad own, taken whole
/// ([`Me::take_told`]): by tier, by worker.
#[derive(Default)]
struct Told {
    parts: Vec<Vec<Option<Arc<Part>>>>,
}

/// The record of any child of a tier told whole, at home or told.
struct Known<'a> {
    /// The tier solved.
    t: u32,
    owners: &'a Owners,
    peers: usize,
    /// By tier and worker (`tier · peers + worker`): the part, read in place at home or
    /// told; `None` if not held (a tier the game does not list among the child tiers).
    sources: Vec<Option<&'a Part>>,
}

impl Known<'_> {
    /// The record of `c`; `None` for a move inside the tier or a rank whose record is
    /// not held (a tier not listed among the child tiers).
    #[inline(always)]
    fn get(&self, c: &Child) -> Option<u16> {
        if c.tier == self.t {
            return None;
        }
        let (o, i) = self.owners.split(c.tier, c.rank);
        let at = self.owners.place(i, c.rank);
        self.sources
            .get((c.tier as usize).checked_mul(self.peers)? + o as usize)?
            .and_then(|part| part.get(at))
    }
}

impl Told {
    fn part(&self, tier: u32, o: u32) -> Option<&Part> {
        self.parts.get(tier as usize)?.get(o as usize)?.as_deref()
    }
}

/// A kept position's move, in 16 bytes where a [`Child`] and its record took 28 (the
/// moves of a batch's kept positions were the largest thing a quixo worker held): the
/// child, whether the move keeps the turn, and the child's record if it was looked up at
/// the visit; the gain, for score games, kept apart.
#[derive(Clone, Copy)]
struct Kid {
    rank: u64,
    tier: u32,
    rec: u16,
    /// Bit 0: the record was looked up; bit 1: the move keeps the turn.
    flags: u8,
}

impl Kid {
    fn new(c: &Child, rec: u32) -> Kid {
        let looked = u16::try_from(rec).ok();
        Kid {
            rank: c.rank,
            tier: c.tier,
            rec: looked.unwrap_or(0),
            flags: u8::from(looked.is_some()) | u8::from(c.again) << 1,
        }
    }
    /// The record looked up at the visit, or [`ASK`].
    fn rec(self) -> u32 {
        if self.flags & 1 != 0 {
            u32::from(self.rec)
        } else {
            ASK
        }
    }
    fn child(self, gain: i32) -> Child {
        Child {
            tier: self.tier,
            rank: self.rank,
            gain,
            again: self.flags & 2 != 0,
        }
    }
}

/// Labels each position of tier `t` kept for its children abroad (`positions`) from its
/// children's records: a folded one's moves abroad told (`told_of`) counted into its
/// fold, a full one's moves through `record_of`; one with moves inside the tier left
/// undecided is kept in `late` for the in-tier rounds. Returns the first error met, which
/// the next round tells every worker.
fn label_kept<T, R>(
    (game, scored, t, lay): (&dyn TierGame, bool, u32, Layout),
    seen: &Visited,
    (told_of, record_of): (&T, &R),
    records: &mut [u16],
    late: &mut Batch,
) -> Option<Error>
where
    T: Fn(&Child) -> Option<u16>,
    R: Fn(&Child) -> Result<Option<u16>, grundy::Error>,
{
    let (positions, kids) = (&seen.positions, &seen.kids);
    let mut error: Option<Error> = None;
    let mut children: Vec<Child> = Vec::new();
    for (i, kept) in positions.iter().enumerate() {
        let (x, start) = (kept.rank, kept.start);
        let end = positions.get(i + 1).map_or(kids.len(), |p| p.start);
        let here = &kids[start..end];
        if !kept.full {
            let mut fold = kept.fold;
            let mut unknown = None;
            for (k, kid) in here.iter().enumerate() {
                let gain = if scored { seen.gains[start + k] } else { 0 };
                match told_of(&kid.child(gain)) {
                    Some(rec) if rec != record::UNREACHED => {
                        fold.add(scored, rec, kid.flags & 2 != 0, gain);
                    }
                    _ => unknown = Some(kid.child(gain)),
                }
            }
            let rec = match unknown {
                // Not told, or told unreached: as `evaluate` says it.
                Some(c) => evaluate(game, scored, t, Node::Moves(&[c]), |c| {
                    told_of(c).map_or_else(|| record_of(c), |r| Ok(Some(r)))
                }),
                None => fold.record(scored).map(Some),
            };
            match rec {
                Ok(Some(rec)) => records[lay.local(x)] = rec,
                Ok(None) => unreachable!("a folded position has no move inside its tier"),
                Err(e) => {
                    error.get_or_insert(e.into());
                }
            }
            continue;
        }
        children.clear();
        if scored {
            let gains = &seen.gains[start..end];
            children.extend(here.iter().zip(gains).map(|(k, &g)| k.child(g)));
        } else {
            children.extend(here.iter().map(|k| k.child(0)));
        }
        let children = &children[..];
        // The records looked up at the visit, in step with the moves; the others told,
        // or asked of `record_of`.
        let looked_up = |k: usize, c: &Child| match here[k].rec() {
            ASK => told_of(c).map_or_else(|| record_of(c), |r| Ok(Some(r))),
            rec => Ok(Some(rec as u16)),
        };
        if children.iter().any(|c| c.tier == t) {
            // Kept for the in-tier rounds: `evaluate` would stop at the first move inside.
            if let Err(e) = pend(late, game, scored, t, lay.local(x), children, looked_up) {
                error.get_or_insert(e);
            }
            continue;
        }
        let mut k = 0;
        let child = |c: &Child| {
            k += 1;
            looked_up(k - 1, c)
        };
        match evaluate(game, scored, t, Node::Moves(children), child) {
            Ok(Some(rec)) => records[lay.local(x)] = rec,
            Ok(None) => {
                if let Err(e) = pend(late, game, scored, t, lay.local(x), children, looked_up) {
                    error.get_or_insert(e);
                }
            }
            Err(e) => {
                error.get_or_insert(e.into());
            }
        }
    }
    error
}

/// Keeps the position at `place` of tier `t`, some of whose moves stay in the tier, for
/// the in-tier rounds: its moves out of the tier folded (their records from `record_of`,
/// given each move's number among the position's and the move), its moves inside listed.
fn pend(
    pending: &mut Batch,
    game: &dyn TierGame,
    scored: bool,
    t: u32,
    place: usize,
    children: &[Child],
    record_of: impl Fn(usize, &Child) -> Result<Option<u16>, grundy::Error>,
) -> Result<(), Error> {
    let mut out = Outside::default();
    let mut error = None;
    for (k, c) in children.iter().enumerate() {
        if c.tier == t {
            continue;
        }
        match record_of(k, c) {
            Ok(Some(rec)) if rec != record::UNREACHED => out.add(rec, c.again, c.gain, scored),
            Ok(_) => {
                error.get_or_insert_with(|| grundy::Error::Unsupported(format!(
                    "{}: a move from tier {t} leads to rank {} of tier {}, which the start never reached or the tier does not list",
                    game.id(),
                    c.rank,
                    c.tier
                )));
            }
            Err(e) => {
                error.get_or_insert(e);
            }
        }
    }
    let inside = children
        .iter()
        .filter(|c| c.tier == t)
        .map(|c| (c.rank, c.gain, c.again));
    if let Err(refused) = pending.push(place, &out, inside) {
        let id = game.id();
        error.get_or_insert(grundy::Error::Unsupported(match refused {
            Refused::Rank(c) => {
                format!("{id}: a move inside tier {t} to rank {c}, past the tier's ranks")
            }
            Refused::Again => {
                format!("{id}: moves that keep the turn inside tier {t} of a win/loss game")
            }
            Refused::Moves(n) => format!("{id}: a position of tier {t} with {n} moves inside it"),
        }));
    }
    error.map_or(Ok(()), |e| Err(e.into()))
}

/// A parent of a pending position inside a tier: its owner and its number among the
/// owner's pending positions, in one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parent(u64);

impl Parent {
    fn new(owner: u32, number: u32) -> Parent {
        Parent(u64::from(owner) << 32 | u64::from(number))
    }
    fn owner(self) -> u32 {
        (self.0 >> 32) as u32
    }
    fn number(self) -> usize {
        (self.0 & u64::from(u32::MAX)) as usize
    }
}

/// How a [`Parent`] is kept in the reversed moves: `number << bits | owner`, `bits`
/// enough for every worker's number, in 4 bytes when every worker's pending positions
/// leave room for it (on quixo[4]'s workers they do: half the 8 bytes a move the
/// reversed moves took), else in 8.
#[derive(Clone, Copy, Debug)]
struct Packing {
    bits: u32,
    narrow: bool,
}

impl Packing {
    /// For `workers` workers, none with more than `most` pending positions.
    fn new(workers: u32, most: u64) -> Packing {
        let bits = u64::from(workers).next_power_of_two().trailing_zeros();
        Packing {
            bits,
            narrow: most.checked_shl(bits).is_some_and(|m| m <= 1 << 32),
        }
    }
    fn pack(self, p: Parent) -> u64 {
        (p.number() as u64) << self.bits | u64::from(p.owner())
    }
    fn unpack(self, v: u64) -> Parent {
        Parent::new((v & ((1 << self.bits) - 1)) as u32, (v >> self.bits) as u32)
    }
}

/// The parents of a worker's pending positions, by child, as [`Packing`] keeps them.
enum Parents {
    Narrow(Vec<u32>, Packing),
    Wide(Vec<u64>, Packing),
}

impl Parents {
    fn new(len: usize, packing: Packing) -> Parents {
        if packing.narrow {
            Parents::Narrow(vec![0; len], packing)
        } else {
            Parents::Wide(vec![0; len], packing)
        }
    }
    /// Sets entry `k` to `p` (whose number is below the `most` of the packing).
    #[inline]
    fn set(&mut self, k: usize, p: Parent) {
        match self {
            Parents::Narrow(v, packing) => v[k] = packing.pack(p) as u32,
            Parents::Wide(v, packing) => v[k] = packing.pack(p),
        }
    }
    /// Entries `range`.
    fn get(&self, range: Range<usize>) -> impl Iterator<Item = Parent> + '_ {
        let (narrow, wide, packing) = match self {
            Parents::Narrow(v, p) => (&v[range], &[][..], *p),
            Parents::Wide(v, p) => (&[][..], &v[range], *p),
        };
        narrow
            .iter()
            .map(|&x| u64::from(x))
            .chain(wide.iter().copied())
            .map(move |x| packing.unpack(x))
    }
}

/// The moves into a worker's pending positions as its first pass over them lists them:
/// the child's number and the parent's, by the parent's owner in runs (this worker's
/// own first), and for score games each move's gain and whether it keeps the turn.
///
/// Kept in chunks of [`MovesInto::CHUNK`] moves, each freed once reversed (the whole list
/// is held while the reversed moves are made: the in-tier rounds' peak): the list takes
/// 8 bytes a move (16 with a score game's gains) with no vector doubled past it (on quixo[4] a vector grown by
/// doubling put the process's peak up by 20 MiB), and a chunk comes from the heap.
struct MovesInto {
    scored: bool,
    chunks: Vec<Vec<(u32, u32)>>,
    gains: Vec<Vec<(i32, bool)>>,
    /// Each run's owner and its first move.
    runs: Vec<(u32, usize)>,
    len: usize,
    /// Moves a chunk: [`MovesInto::CHUNK`], fewer in tests.
    chunk: usize,
}

impl MovesInto {
    /// Moves a chunk: 512 KiB, under the size the allocator maps on its own
    /// ([`grundy_alloc`]'s `TABLES_FROM` in the command line).
    const CHUNK: usize = 1 << 16;

    fn new(scored: bool) -> MovesInto {
        MovesInto::chunked(scored, Self::CHUNK)
    }

    fn chunked(scored: bool, chunk: usize) -> MovesInto {
        MovesInto {
            scored,
            chunks: Vec::new(),
            gains: Vec::new(),
            runs: Vec::new(),
            len: 0,
            chunk,
        }
    }

    /// A move of `parent` into pending child number `child`.
    #[inline]
    fn push(&mut self, child: u32, parent: Parent, gain: i32, again: bool) {
        if self.runs.last().is_none_or(|&(o, _)| o != parent.owner()) {
            self.runs.push((parent.owner(), self.len));
        }
        if self.len.is_multiple_of(self.chunk) {
            self.chunks.push(Vec::with_capacity(self.chunk));
            if self.scored {
                self.gains.push(Vec::with_capacity(self.chunk));
            }
        }
        let last = self.chunks.len() - 1;
        self.chunks[last].push((child, parent.number() as u32));
        if self.scored {
            self.gains[last].push((gain, again));
        }
        self.len += 1;
    }

    /// The moves reversed, for `np` pending children: the parents of child `i` are
    /// `rev[off[i]..off[i + 1]]` (placed in the order pushed, each at the end of the
    /// room left, so they read in reverse), and (score games) their moves' gain and
    /// again are `moves[off[i]..off[i + 1]]`.
    fn reversed(self, np: usize, packing: Packing) -> (Vec<usize>, Parents, Vec<(i32, bool)>) {
        let mut off = vec![0usize; np + 1];
        for &(ci, _) in self.chunks.iter().flatten() {
            off[ci as usize] += 1;
        }
        for i in 0..np {
            off[i + 1] += off[i];
        }
        let edges = self.len;
        let mut rev = Parents::new(edges, packing);
        let mut moves = if self.scored {
            vec![(0i32, false); edges]
        } else {
            Vec::new()
        };
        let mut gains = self.gains.into_iter();
        let mut k = 0usize;
        let mut run = 0usize;
        for chunk in self.chunks {
            let chunk_gains = gains.next();
            for (j, (ci, number)) in chunk.into_iter().enumerate() {
                while run + 1 < self.runs.len() && self.runs[run + 1].1 <= k {
                    run += 1;
                }
                let slot = &mut off[ci as usize];
                *slot -= 1;
                rev.set(*slot, Parent::new(self.runs[run].0, number));
                if let Some(g) = &chunk_gains {
                    moves[*slot] = g[j];
                }
                k += 1;
            }
        }
        (off, rev, moves)
    }
}

/// A child decided in round `level` of [`Me::level_rounds`] told to its parent `pi`:
/// folded into the parent's moves out of the tier, and the parent queued for the next
/// round if that decides it there. Nothing if the parent is decided already.
fn tell_level(
    (outside, count, decided, queue): (&mut Folds, &mut [u32], &mut [u16], &mut LevelQueue),
    pi: usize,
    won: bool,
    level: u32,
) -> Result<(), Malformed> {
    if *decided.get(pi).ok_or(Malformed)? != record::UNREACHED {
        return Ok(());
    }
    if won {
        count[pi] = count[pi].checked_sub(1).ok_or(Malformed)?;
    }
    let o = outside.told(pi, won, level).ok_or(Malformed)?;
    let next = if won {
        count[pi] == 0 && o.loss().is_none() && !o.draw() && o.win() == Some(level)
    } else {
        o.loss() == Some(level)
    };
    if next {
        queue.told(pi as u32);
    }
    Ok(())
}

/// The moves into a worker's pending positions, by child: the parents of position `i`
/// are `rev`'s entries `off[i]..off[i + 1]`, and (score games) their moves' gain and
/// whether each keeps the turn are `moves[off[i]..off[i + 1]]`.
#[derive(Clone, Copy)]
struct Reversed<'a> {
    off: &'a [usize],
    rev: &'a Parents,
    moves: &'a [(i32, bool)],
}

impl Reversed<'_> {
    fn parents(&self, i: usize) -> impl Iterator<Item = Parent> + '_ {
        self.rev.get(self.off[i]..self.off[i + 1])
    }
    fn moves_into(&self, i: usize) -> &[(i32, bool)] {
        &self.moves[self.off[i]..self.off[i + 1]]
    }
}

/// The pending positions a round of the win/loss in-tier rounds looks at: at level `L`,
/// those whose moves out of the tier may decide them at `L` (a child lost or won in
/// `L − 1`), and those told in the round before of a child inside that decides them at
/// `L` ([`tell_level`]). No other position can be decided at `L`, so the rounds need not
/// look at every one of them.
struct LevelQueue {
    /// By level: the positions whose quickest loss or slowest win outside is a level less.
    by_level: Vec<Vec<u32>>,
    /// Told in the last round of a child inside that decides them.
    told: Vec<u32>,
}

impl LevelQueue {
    /// The queue of the positions with moves out of the tier `outside` (each a
    /// remoteness a record holds, so the levels are few).
    fn new(outside: impl Iterator<Item = (Option<u32>, Option<u32>)>) -> LevelQueue {
        let mut by_level: Vec<Vec<u32>> = Vec::new();
        for (i, (loss, win)) in outside.enumerate() {
            for x in [loss, win].into_iter().flatten() {
                let l = x as usize + 1;
                if by_level.len() <= l {
                    by_level.resize_with(l + 1, Vec::new);
                }
                by_level[l].push(i as u32);
            }
        }
        LevelQueue {
            by_level,
            told: Vec::new(),
        }
    }

    /// The longest remoteness of a move out of the tier (0 if none).
    fn longest(&self) -> u64 {
        self.by_level.len().saturating_sub(2) as u64
    }

    /// The positions to look at in round `level` (some perhaps twice, or decided).
    fn take(&mut self, level: u32) -> Vec<u32> {
        let mut now = self
            .by_level
            .get_mut(level as usize)
            .map(std::mem::take)
            .unwrap_or_default();
        now.append(&mut self.told);
        now
    }

    /// Position `i` was told of a child decided in this round that decides it in the next.
    fn told(&mut self, i: u32) {
        self.told.push(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::str::FromStr;

    #[test]
    fn a_win_in_1_is_what_evaluate_gives_and_the_best_there_is() {
        let best = Value::Win(1);
        assert_eq!(record::of_value(best), Some(WIN_IN_1));
        for again in [false, true] {
            let child = record::value(WON_NEXT[usize::from(again)]).expect("a value");
            assert_eq!(child.through(again), best);
        }
        // No child's record, through any move, does better.
        for rec in 1..=u16::MAX {
            let Some(v) = record::value(rec) else {
                continue;
            };
            for again in [false, true] {
                assert!(v.through(again).preference() <= best.preference());
            }
        }
    }

    /// Each owner's parts told whole are taken by exactly one worker of every home it is
    /// not in, and by none of its own; the workers of a home take about as many owners
    /// each.
    #[test]
    fn each_owner_abroad_is_taken_once_a_home() {
        for size in 1..=5u32 {
            for homes in 1..=4u32 {
                let peers = size * homes;
                for o in 0..peers {
                    for h in 0..homes {
                        let home = h * size..(h + 1) * size;
                        let takers = home.clone().filter(|&r| takes(size, r, o)).count();
                        assert_eq!(takers, usize::from(!home.contains(&o)), "{size} {o} {h}");
                    }
                }
                for r in 0..peers {
                    let n = (0..peers).filter(|&o| takes(size, r, o)).count() as u32;
                    assert_eq!(n, homes - 1, "worker {r} of homes of {size}");
                }
            }
        }
    }

    proptest! {
        /// A position's moves counted into a [`Fold`] in two parts, the second in the
        /// reverse order (as the moves at home, then those abroad once told), give the
        /// record `evaluate` gives of all of them in order, or fail where it fails.
        #[test]
        fn a_fold_in_any_order_is_what_evaluate_gives(
            scored in any::<bool>(),
            moves in proptest::collection::vec((any::<prop::sample::Index>(), any::<bool>(), -300i32..300), 1..8),
            cut in any::<prop::sample::Index>(),
        ) {
            let family = grundy::games::Spec::from_str("connect4[4x4]")
                .ok()
                .and_then(|s| s.single().map(|p| Arc::clone(&p.family)))
                .expect("connect four 4x4");
            let tiers = family.tiers().expect("connect four has tiers");
            let game = tiers.game();
            // Every reached record of the kind; the quick ones (wins and losses in 0 and
            // 1) half the time, so that equal and extreme records meet.
            let reached: Vec<u16> = (1..=u16::MAX)
                .filter(|&r| if scored { record::margin(r).is_some() } else { record::value(r).is_some() })
                .collect();
            let children: Vec<(Child, u16)> = moves
                .iter()
                .enumerate()
                .map(|(k, &(pick, again, gain))| {
                    let i = pick.index(2 * reached.len());
                    let rec = reached[if i < reached.len() { i } else { i % 6 }];
                    let c = Child { tier: 1, rank: k as u64, gain: if scored { gain } else { 0 }, again };
                    (c, rec)
                })
                .collect();
            let list: Vec<Child> = children.iter().map(|(c, _)| *c).collect();
            let want = evaluate(game, scored, 0, Node::Moves(&list), |c| {
                Ok(Some(children[c.rank as usize].1))
            });
            let split = cut.index(children.len() + 1);
            let mut fold = Fold::NONE;
            for (c, rec) in children[..split].iter().chain(children[split..].iter().rev()) {
                fold.add(scored, *rec, c.again, c.gain);
            }
            let got = fold.record(scored);
            match (want, got) {
                (Ok(Some(w)), Ok(g)) => prop_assert_eq!(w, g),
                (Err(_), Err(_)) => {}
                (w, g) => prop_assert!(false, "evaluate {:?}, the fold {:?}", w.map_err(|e| e.to_string()), g.map_err(|e| e.to_string())),
            }
        }
    }

    proptest! {
        /// The queue against the simple way, a scan of every position each level: a
        /// position decidable at level `L` by its moves out of the tier (a child lost or
        /// won in `L − 1`) is in the queue's `L`, and so is one told in the round before;
        /// nothing else is.
        #[test]
        fn level_queue_holds_what_a_scan_of_every_position_finds(
            outs in proptest::collection::vec((proptest::option::of(0u32..12), proptest::option::of(0u32..12)), 0..60),
            told in proptest::collection::vec(proptest::collection::vec(any::<prop::sample::Index>(), 0..5), 14),
        ) {
            let mut q = LevelQueue::new(outs.iter().copied());
            let longest = outs.iter().map(|&(l, w)| l.unwrap_or(0).max(w.unwrap_or(0))).max().unwrap_or(0);
            prop_assert_eq!(q.longest(), u64::from(longest));
            let mut before: Vec<u32> = Vec::new();
            for (level, now) in (1u32..).zip(&told) {
                let mut want: Vec<u32> = (0..outs.len() as u32)
                    .filter(|&i| {
                        let (l, w) = outs[i as usize];
                        l == Some(level - 1) || w == Some(level - 1)
                    })
                    .chain(before.iter().copied())
                    .collect();
                want.sort_unstable();
                want.dedup();
                let mut got = q.take(level);
                got.sort_unstable();
                got.dedup();
                prop_assert_eq!(got, want);
                before.clear();
                if !outs.is_empty() {
                    for ix in now {
                        let i = ix.index(outs.len()) as u32;
                        q.told(i);
                        before.push(i);
                    }
                }
            }
        }

        /// The moves listed and reversed, against each child's moves gathered in the
        /// order pushed: its parents (and gains) are those, last pushed first, in
        /// chunks of any size and runs of any owners.
        #[test]
        fn moves_listed_reverse_as_gathered_by_child(
            np in 1usize..40,
            chunk in 1usize..7,
            scored in any::<bool>(),
            pushed in proptest::collection::vec((any::<prop::sample::Index>(), 0u32..4, 0u32..1000, any::<i32>(), any::<bool>()), 0..200),
        ) {
            let packing = Packing::new(4, 1000);
            let mut into = MovesInto::chunked(scored, chunk);
            let mut by_child: Vec<Vec<(Parent, (i32, bool))>> = vec![Vec::new(); np];
            for &(ix, owner, number, gain, again) in &pushed {
                let ci = ix.index(np);
                into.push(ci as u32, Parent::new(owner, number), gain, again);
                by_child[ci].push((Parent::new(owner, number), (gain, again)));
            }
            let (off, rev, moves) = into.reversed(np, packing);
            prop_assert_eq!(off.len(), np + 1);
            prop_assert_eq!(off[np], pushed.len());
            for (i, want) in by_child.iter().enumerate() {
                let got: Vec<Parent> = rev.get(off[i]..off[i + 1]).collect();
                let parents: Vec<Parent> = want.iter().rev().map(|&(p, _)| p).collect();
                prop_assert_eq!(got, parents);
                if scored {
                    let gains: Vec<(i32, bool)> = want.iter().rev().map(|&(_, g)| g).collect();
                    prop_assert_eq!(&moves[off[i]..off[i + 1]], &gains[..]);
                }
            }
            prop_assert_eq!(moves.len(), if scored { pushed.len() } else { 0 });
        }

        #[test]
        fn a_parent_keeps_its_owner_and_number(owner in 0u32..1 << 20, number in any::<u32>()) {
            let p = Parent::new(owner, number);
            prop_assert_eq!(p.owner(), owner);
            prop_assert_eq!(p.number(), number as usize);
        }

        /// Parents kept packed, in 4 bytes or 8, read back as they were set, against
        /// the plain list of them.
        #[test]
        fn packed_parents_read_back_as_set(
            workers in 1u32..70,
            small in any::<bool>(),
            raw in proptest::collection::vec((any::<u32>(), any::<u32>()), 0..50),
        ) {
            let most: u64 = if small { 1000 } else { u64::from(u32::MAX) + 1 };
            let packing = Packing::new(workers, most);
            prop_assert_eq!(packing.narrow, (most << packing.bits) <= 1 << 32);
            let want: Vec<Parent> = raw
                .iter()
                .map(|&(o, n)| Parent::new(o % workers, (u64::from(n) % most) as u32))
                .collect();
            let mut rev = Parents::new(want.len(), packing);
            for (k, &p) in want.iter().enumerate() {
                rev.set(k, p);
            }
            let got: Vec<Parent> = rev.get(0..want.len()).collect();
            prop_assert_eq!(&got, &want);
            if want.len() >= 2 {
                let got: Vec<Parent> = rev.get(1..want.len() - 1).collect();
                prop_assert_eq!(&got[..], &want[1..want.len() - 1]);
            }
        }

        #[test]
        fn rank_of_undoes_split_and_place(
            workers in 1u64..9,
            slice_bits in 0u32..10,
            rank in 0u64..1 << 30,
        ) {
            let lay = Layout::new(workers, 0, 1 << slice_bits);
            let (o, i) = lay.split(rank);
            prop_assert_eq!(lay.rank_of(o, lay.place(i, rank)), rank);
        }

        /// The owners against the simple rule they shortcut: the slices of every tier,
        /// tier 0's first, numbered in one run, slice `g` of that run worker `g mod W`'s.
        /// Every rank has one owner, which lists its slice among its own (`mine`), keeps
        /// it at a place inside its arrays no other rank of the tier takes, and finds it
        /// again there (`rank_of`); the workers' slices over all tiers differ by one at
        /// most.
        #[test]
        fn every_rank_has_the_one_owner_of_the_slices_dealt_in_turn(
            workers in 1u64..8,
            slice_bits in 0u32..4,
            sizes in proptest::collection::vec(0u64..70, 1..12),
        ) {
            let slice = 1u64 << slice_bits;
            let owners = Owners::new(Layout::new(workers, 0, slice), &sizes);
            let mut dealt = 0u64;
            let mut slices = vec![0u64; workers as usize];
            for (t, &size) in sizes.iter().enumerate() {
                let lay = owners.of(t as u32);
                let mine: Vec<Vec<u64>> = (0..workers)
                    .map(|o| Layout { me: o, ..lay }.mine(size))
                    .collect();
                let mut taken: Vec<Vec<bool>> = (0..workers)
                    .map(|o| vec![false; lay.local_len_of(o, size)])
                    .collect();
                for k in 0..size.div_ceil(slice) {
                    let owner = (dealt + k) % workers;
                    slices[owner as usize] += 1;
                    for (o, m) in mine.iter().enumerate() {
                        prop_assert_eq!(m.contains(&k), o as u64 == owner);
                    }
                    for rank in lay.range(k, size) {
                        let (o, i) = lay.split(rank);
                        prop_assert_eq!(owners.split(t as u32, rank), (o, i));
                        prop_assert_eq!(o, owner);
                        prop_assert_eq!(lay.owner(rank), owner as u32);
                        let at = lay.local(rank);
                        prop_assert_eq!(at, lay.place(i, rank));
                        let place = taken[o as usize].get_mut(at);
                        prop_assert_eq!(place.as_deref(), Some(&false));
                        if let Some(p) = place {
                            *p = true;
                        }
                        prop_assert_eq!(lay.rank_of(o, at), rank);
                    }
                }
                // The places that hold a rank are each worker's first ones.
                for (o, taken) in taken.iter().enumerate() {
                    let held = lay.held_len_of(o as u64, size);
                    prop_assert!(taken[..held].iter().all(|&b| b));
                    prop_assert!(!taken[held..].iter().any(|&b| b));
                }
                dealt += size.div_ceil(slice);
            }
            let (least, most) = (slices.iter().min(), slices.iter().max());
            prop_assert!(most.zip(least).is_some_and(|(m, l)| m - l <= 1));
        }
    }
}
