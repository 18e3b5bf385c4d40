//! The book: what the exact search proves of a board's first tiers, kept as solved tiers
//! (the tablebase format, partial) so that later requests read it instead of searching.
//! Tier `depth`'s positions are searched, one shared table for all of them on every
//! thread; the earlier tiers follow from their children's records by the tier solver's
//! step ([`crate::tier::book`]). The records are the tier solver's own, so a book's tier
//! files are those of the whole tablebase, byte for byte, and [`super::lookup`] reads a
//! book as it reads a tablebase: a position whose tier and moves' tiers the book holds is
//! answered at once; the others are searched.
//!
//! A book of play's lines ([`build_lines`]) holds instead the positions a game against
//! the engine reaches, either side: each position the engine is to move at whose moves
//! cost the search more than a number of nodes, with every move's value, and the value
//! of each reply to the move the engine makes there. Its tiers are partial
//! ([`TierSummary::partial`](crate::tier::TierSummary::partial)): a position it lacks is
//! searched, as past a book.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use super::search::{exact_options, table_entries, table_for};
use super::Limits;
use crate::explore::Control;
use crate::game::{Best, Value};
use crate::games::{Exact, Family, Kind, Part, Pos, Spec, Tiers};
use crate::search::exact;
use crate::tier::{self, record, Event, Listener, Solved, TierStore};
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
    let (part, tiers, exact) = board(spec)?;
    let family = &part.family;
    let game = tiers.game();
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

/// A book's board, its tiers and its exact search.
type Board<'s> = (&'s Part, Box<dyn Tiers + 's>, Box<dyn Exact + 's>);

/// The board a book is of: `spec`'s one board, at its start, of a family split into
/// tiers that offers the exact search.
fn board(spec: &Spec) -> Result<Board<'_>, Error> {
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
    if tiers.locate(&part.position) != Some(tiers.game().root()) {
        return Err(Error::Unsupported(format!(
            "a book starts from the start of {}, not from `{spec}`",
            family.name()
        )));
    }
    Ok((part, tiers, exact))
}

/// What [`build_lines`] did: the tiers of the book, `0..=depth`, each partial, with the
/// start's record; and the searches made now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lines {
    /// The book's tiers and the start's record.
    pub solved: Solved,
    /// The searches made now.
    pub walked: Walked,
}

/// Which games against the engine a book of lines is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sides {
    /// The engine moving first.
    First,
    /// The engine moving second.
    Second,
    /// Either.
    Both,
}

/// How far [`build_lines`] is: positions valued with their moves, hard ones among them,
/// and nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Walked {
    /// Positions whose every move was valued now.
    pub analysed: u64,
    /// Of those, the ones held with their moves (more than the hard nodes).
    pub hard: u64,
    /// Of the hard ones, those the build's shared table valued within the hard nodes
    /// and a fresh table did not, and those a resumed build judged by a fresh table
    /// first (their values held before without their moves').
    pub cold: u64,
    /// Nodes visited.
    pub nodes: u64,
}

/// Builds (or deepens, or resumes) the book of the lines of play of `spec`'s board
/// against the engine, to tier `depth`, in `store`: from the start (the engine moving
/// first) and from each of its moves (second), as `sides` asks, every position `p` the
/// engine is to move
/// at has its value and every move's found by the family's exact search; when that took
/// more than `hard_nodes` nodes, the book holds `p` and its moves' values, and the move
/// the engine makes there (the best, the first of equals, as [`super::Report::best_move`]
/// chooses) is followed: each reply to it is such a position in turn, its value held so
/// that the position the engine moved to is answered with every move's value too. A
/// position whose moves cost fewer nodes is left to the search in play, and so is what
/// follows it. Every tier `0..=depth` is saved partial; tiers already in the store must
/// be partial (a book of lines before, whose positions are kept and not searched again,
/// with those kept found of a stopped build). One table shared by `options.threads`
/// threads, a position a thread.
///
/// # Complexity
/// An exact search of every move of each position the engine is to move at on the lines
/// followed. Memory follows the positions held (72 bytes each at most), not the
/// tiers' sizes, where the store reads and saves partial tiers a block at a time
/// ([`TierStore::for_each_held`], [`TierStore::save_held`]: a tablebase does; the
/// default builds a tier's dense records, 2 bytes a rank).
///
/// # Errors
/// As [`build`]; a score game ([`Error::Unsupported`]: its margins are not read back from
/// the moves yet); a store holding a whole tier (a tablebase, or a book of every
/// position) is refused rather than mixed with one; [`Error::OverLimit`] when the
/// positions the store holds would take more than `options.max_bytes`.
#[allow(clippy::too_many_arguments)]
pub fn build_lines(
    spec: &Spec,
    depth: u32,
    hard_nodes: u64,
    sides: Sides,
    store: &mut dyn TierStore,
    options: &tier::Options,
    limits: &Limits<'_>,
    progress: &(dyn Fn(&Walked) + Sync),
    listen: &Listener<'_>,
) -> Result<Lines, Error> {
    let (part, tiers, exact) = board(spec)?;
    let family = &*part.family;
    if family.kind() == Kind::Score {
        return Err(Error::Unsupported(format!(
            "a book of play's lines holds won, lost and drawn positions; `{}` is scored by margins (`grundy book` without --lines)",
            family.name()
        )));
    }
    let game = tiers.game();
    tier::book_fits(game, depth)?;
    let (root_tier, root_rank) = game.root();
    // What the store holds: partial tiers of a book of lines, and what a stopped build
    // found; their summaries count the positions, checked against the bound before any
    // is read.
    let mut stored = Vec::with_capacity(depth as usize + 1);
    let mut positions = 0u128;
    for t in 0..=depth {
        let summary = store.summary(t)?;
        if let Some(s) = summary {
            if !s.partial {
                return Err(Error::Store(format!(
                    "tier {t} of {} is held whole (a tablebase, or a book of every position): a book of play's lines is built in another directory",
                    game.id()
                )));
            }
            positions += u128::from(s.positions);
        }
        let found = store.found(t)?;
        positions += found.len() as u128;
        stored.push((summary, found));
    }
    let bytes = positions * u128::from(HELD_BYTES);
    if bytes > u128::from(options.max_bytes) {
        return Err(Error::over(
            crate::Limit::TierMemory,
            format!(
                "a book of {}'s lines to depth {depth} holding {positions} positions within {} of memory",
                game.id(),
                crate::human_bytes(options.max_bytes)
            ),
            Some(bytes),
            Some(bytes),
        ));
    }
    // Read a block at a time where the store can (a tablebase): the memory follows the
    // positions held, not the tiers' sizes.
    let mut held: Vec<HashMap<u64, u16>> = Vec::with_capacity(depth as usize + 1);
    for (t, (summary, found)) in (0..=depth).zip(stored) {
        let mut map = HashMap::new();
        if let Some(s) = summary {
            let mut count = 0u64;
            store.for_each_held(t, &mut |rank, r| {
                count += 1;
                if count > s.positions {
                    return Err(Error::Store(format!(
                        "tier {t} of {} holds more positions than its summary's {} (damaged?)",
                        game.id(),
                        s.positions
                    )));
                }
                map.insert(rank, r);
                Ok(())
            })?;
        }
        for (rank, r) in found {
            map.insert(rank, r);
        }
        held.push(map);
    }
    let table = table_for(limits, &family.name(), &*exact)?;
    let walk = Walk {
        family,
        tiers: &*tiers,
        exact: &*exact,
        table: &table,
        one: exact::Options {
            threads: 1,
            weak: false,
            ..exact_options(limits)
        },
        control: &limits.control,
        depth,
        hard: hard_nodes,
        entries: table_entries(limits),
        held: held.into_iter().map(Mutex::new).collect(),
        positions: AtomicU64::new(u64::try_from(positions).unwrap_or(u64::MAX)),
        max_bytes: options.max_bytes,
        visited: Mutex::new(HashSet::new()),
        fresh: Mutex::new((Vec::new(), Instant::now())),
        store: Mutex::new(store),
        analysed: AtomicU64::new(0),
        kept: AtomicU64::new(0),
        cold: AtomicU64::new(0),
        nodes: AtomicU64::new(0),
        progress,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| Error::Unsupported(format!("cannot start worker threads: {e}")))?;
    let walked = pool.install(|| -> Result<(), Error> {
        // The engine first: the start; second: each move from it, and the start's value
        // from theirs (the person's first position is answered from the book too).
        let start = &part.position;
        if sides != Sides::Second {
            walk.walk(start)?;
        }
        if sides != Sides::First {
            let firsts = walk.moves(start);
            firsts.par_iter().try_for_each(|p| walk.walk(p))?;
            walk.derive(start, &firsts)?;
        }
        Ok(())
    });
    if let Err(e) = walked {
        // Stopped or failed: what was found is kept for the next run.
        let mut fresh = walk.fresh.lock().map_err(|_| poisoned())?;
        walk.keep(&mut fresh)?;
        return Err(e);
    }
    let Walk {
        held,
        store,
        analysed,
        kept,
        cold,
        nodes,
        ..
    } = walk;
    let store = store.into_inner().map_err(|_| poisoned())?;
    let root = held[root_tier as usize]
        .lock()
        .map_err(|_| poisoned())?
        .get(&root_rank)
        .copied()
        .unwrap_or(record::UNREACHED);
    let mut summaries = Vec::with_capacity(depth as usize + 1);
    for (t, map) in (0..=depth).zip(held) {
        let map = map.into_inner().map_err(|_| poisoned())?;
        // The positions held by rank, as the store takes them (a block at a time where it
        // can: a tablebase), never the tier's ranks.
        let mut records: Vec<(u64, u16)> = Vec::new();
        crate::memory::reserve(&mut records, map.len(), "the positions of a book's tier")?;
        records.extend(map);
        records.sort_unstable_by_key(|&(rank, _)| rank);
        let ranks = game.tier_size(t);
        let summary = tier::summarise_held(false, t, ranks, records.iter().map(|&(_, r)| r));
        store.save_held(t, ranks, &records, &summary)?;
        listen(&Event::Done {
            summary,
            loaded: false,
        });
        summaries.push(summary);
    }
    Ok(Lines {
        solved: Solved {
            tiers: summaries,
            root,
        },
        walked: Walked {
            analysed: analysed.into_inner(),
            hard: kept.into_inner(),
            cold: cold.into_inner(),
            nodes: nodes.into_inner(),
        },
    })
}

/// Bytes of memory a position held by [`build_lines`] may take: its entry in a map of
/// rank to record (16 bytes and a control byte, the map at most 7/8 and at least 7/16
/// full: up to 39), its place in the list of its tier's positions sorted when the tier is
/// saved (16), and the engine's positions walked (16 bytes each, fewer than those held).
const HELD_BYTES: u64 = 72;

fn poisoned() -> Error {
    Error::Store("a thread building the book panicked".into())
}

/// The engine's move among moves of these values: the best, the first of equals, as a
/// report's best move (`None` without a move).
fn engine_move(moves: &[Value]) -> Option<usize> {
    let mut best = Best::new();
    for (i, v) in moves.iter().enumerate() {
        best.offer(v.preference(), i);
    }
    best.get().map(|(_, i)| i)
}

/// Records found (tier, rank, record) and not yet kept by the store, and when it last
/// kept some.
type Fresh = (Vec<(u32, u64, u16)>, Instant);

/// The walk of [`build_lines`] over the lines of play, shared by its threads.
struct Walk<'a, 's> {
    family: &'a dyn Family,
    tiers: &'a dyn Tiers,
    exact: &'a dyn Exact,
    table: &'a exact::Table,
    one: exact::Options,
    control: &'a Control<'a>,
    depth: u32,
    hard: u64,
    /// The most entries of a fresh table ([`Walk::cold`]).
    entries: u64,
    /// The records held, by tier: rank to record.
    held: Vec<Mutex<HashMap<u64, u16>>>,
    /// How many positions are held (at most: a position held twice, read from a tier
    /// and found again, counts twice), against `max_bytes` at [`HELD_BYTES`] each.
    positions: AtomicU64,
    max_bytes: u64,
    /// Positions the engine is to move at, already walked (by tier and rank).
    visited: Mutex<HashSet<(u32, u64)>>,
    /// Records found and not yet kept by the store, and when it last kept some.
    fresh: Mutex<Fresh>,
    store: Mutex<&'s mut dyn TierStore>,
    analysed: AtomicU64,
    kept: AtomicU64,
    cold: AtomicU64,
    nodes: AtomicU64,
    progress: &'a (dyn Fn(&Walked) + Sync),
}

impl Walk<'_, '_> {
    /// The moves from `pos`, none where the game is over.
    fn moves(&self, pos: &Pos) -> Vec<Pos> {
        let mut out = Vec::new();
        if self.family.terminal(pos).is_none() {
            self.family.moves(pos, &mut out);
        }
        out
    }

    /// Whether the move from `pos` to `child` keeps the turn.
    fn again(&self, pos: &Pos, child: &Pos) -> bool {
        self.family.keeps_turn() && self.family.to_move(pos) == self.family.to_move(child)
    }

    /// Where `pos` lies.
    fn locate(&self, pos: &Pos) -> Result<(u32, u64), Error> {
        self.tiers.locate(pos).ok_or_else(|| {
            Error::Store(format!(
                "a position of {} that its tiers do not hold",
                self.family.name()
            ))
        })
    }

    fn record_of(&self, value: Value) -> Result<u16, Error> {
        record::of_value(value).ok_or_else(|| Error::TooLarge {
            what: format!("a value past what a record holds ({value})"),
            need: None,
        })
    }

    fn get(&self, (t, r): (u32, u64)) -> Result<Option<u16>, Error> {
        let held = self.held[t as usize].lock().map_err(|_| poisoned())?;
        Ok(held.get(&r).copied())
    }

    /// Holds `found` (tier, rank, record), and has the store keep what was found when
    /// it last did so long enough ago.
    fn hold(&self, found: &[(u32, u64, u16)]) -> Result<(), Error> {
        let mut new = Vec::with_capacity(found.len());
        for &(t, r, rec) in found {
            let mut held = self.held[t as usize].lock().map_err(|_| poisoned())?;
            // A position met again through another line is kept once.
            if held.insert(r, rec).is_none() {
                new.push((t, r, rec));
            }
        }
        let mut fresh = self.fresh.lock().map_err(|_| poisoned())?;
        fresh.0.extend_from_slice(&new);
        let positions = self
            .positions
            .fetch_add(new.len() as u64, Ordering::Relaxed)
            + new.len() as u64;
        let bytes = u128::from(positions) * u128::from(HELD_BYTES);
        if bytes > u128::from(self.max_bytes) {
            // What was found is kept by the caller, for a run with more memory.
            return Err(Error::over(
                crate::Limit::TierMemory,
                format!(
                    "a book of {}'s lines to depth {} holding more than {} within {} of memory",
                    self.family.name(),
                    self.depth,
                    crate::number::count(positions.into(), "position", "positions"),
                    crate::human_bytes(self.max_bytes)
                ),
                Some(bytes),
                None,
            ));
        }
        if fresh.1.elapsed() >= tier::KEEP_EVERY {
            self.keep(&mut fresh)?;
            (self.progress)(&Walked {
                analysed: self.analysed.load(Ordering::Relaxed),
                hard: self.kept.load(Ordering::Relaxed),
                cold: self.cold.load(Ordering::Relaxed),
                nodes: self.nodes.load(Ordering::Relaxed),
            });
        }
        Ok(())
    }

    /// Has the store keep the records found since it last did.
    fn keep(&self, fresh: &mut Fresh) -> Result<(), Error> {
        let mut by_tier: Vec<Vec<(u64, u16)>> = vec![Vec::new(); self.held.len()];
        for (t, r, rec) in fresh.0.drain(..) {
            by_tier[t as usize].push((r, rec));
        }
        let mut store = self.store.lock().map_err(|_| poisoned())?;
        for (t, found) in by_tier.iter().enumerate() {
            if !found.is_empty() {
                store.keep_found(t as u32, found)?;
            }
        }
        fresh.1 = Instant::now();
        Ok(())
    }

    /// Holds `pos`'s value from its moves', `children`, when it is not held and they all
    /// are.
    fn derive(&self, pos: &Pos, children: &[Pos]) -> Result<(), Error> {
        let at = self.locate(pos)?;
        if at.0 > self.depth || self.get(at)?.is_some() {
            return Ok(());
        }
        let mut best = Best::new();
        for c in children {
            let Some(v) = self.get(self.locate(c)?)?.and_then(record::value) else {
                return Ok(());
            };
            let v = v.through(self.again(pos, c));
            best.offer(v.preference(), v);
        }
        match best.get() {
            Some((_, v)) => self.hold(&[(at.0, at.1, self.record_of(v)?)]),
            None => Ok(()),
        }
    }

    /// Whether answering at `pos` as `play` does takes a search with a fresh table more
    /// than the hard nodes: valuing `pos`'s moves, `children`, then, in the same table,
    /// every move of the position the engine's move leads to (`play` shows the person
    /// its moves' values). The build's table is warm from the whole tree around `pos`,
    /// `play`'s from one game: a position the build's table values in a few nodes may
    /// cost play seconds (connect four 7 × 6, the engine second, at 5 discs: fewer than
    /// 2·10^5 nodes in the build, 1.5 to 3.2 s in play). A fresh table's count does not
    /// depend on what the build searched before, and bounds what play pays.
    fn cold(&self, pos: &Pos, children: &[Pos]) -> Result<bool, Error> {
        if self.hard == u64::MAX {
            return Ok(false);
        }
        let table = self.exact.table(self.entries)?;
        let mut nodes = 0u64;
        // The position, then the one the engine's move leads to, within what is left of
        // the hard nodes. The limit is checked a batch of nodes at a time: a search may
        // end a little past it.
        let mut within = |at: &Pos, moves: &[Pos]| -> Result<Option<exact::Analysis>, Error> {
            let left = self.hard.saturating_sub(nodes);
            if left == 0 {
                return Ok(None);
            }
            let options = exact::Options {
                max_nodes: left,
                ..self.one
            };
            match self
                .exact
                .analyse(at, moves, &table, &options, self.control)
            {
                Ok(analysis) => {
                    nodes += analysis.nodes;
                    Ok((nodes <= self.hard).then_some(analysis))
                }
                Err(Error::TooLarge { .. }) => {
                    nodes = self.hard;
                    Ok(None)
                }
                Err(e) => Err(e),
            }
        };
        let hard = match within(pos, children)? {
            None => true,
            Some(analysis) => {
                let values: Vec<Value> = analysis.moves.iter().map(|f| f.value).collect();
                match engine_move(&values) {
                    None => false,
                    Some(i) => {
                        let replies = self.moves(&children[i]);
                        !replies.is_empty() && within(&children[i], &replies)?.is_none()
                    }
                }
            }
        };
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
        if hard {
            self.cold.fetch_add(1, Ordering::Relaxed);
        }
        Ok(hard)
    }

    /// Walks the lines from `pos`, a position the engine is to move at: holds its
    /// value; if it is hard (or held with its moves before), its moves' values too, and
    /// walks each reply to the engine's move.
    fn walk(&self, pos: &Pos) -> Result<(), Error> {
        let at = self.locate(pos)?;
        if at.0 > self.depth {
            return Ok(());
        }
        if !self.visited.lock().map_err(|_| poisoned())?.insert(at) {
            return Ok(());
        }
        let children = self.moves(pos);
        let places = children
            .iter()
            .map(|c| self.locate(c))
            .collect::<Result<Vec<_>, _>>()?;
        if children.is_empty() || places.iter().any(|&(t, _)| t > self.depth) {
            // Its moves lie past the book: its value alone, for the move before it.
            if self.get(at)?.is_none() {
                let (found, nodes) = self.exact.solve(pos, self.table, &self.one, self.control)?;
                self.nodes.fetch_add(nodes, Ordering::Relaxed);
                self.hold(&[(at.0, at.1, self.record_of(found.value)?)])?;
            }
            return Ok(());
        }
        let mut known = Vec::with_capacity(children.len());
        let valued = self.get(at)?.is_some();
        if valued {
            for (c, &place) in children.iter().zip(&places) {
                match self.get(place)?.and_then(record::value) {
                    Some(v) => known.push(v.through(self.again(pos, c))),
                    None => break,
                }
            }
        }
        let moves: Vec<Value> = if known.len() == children.len() {
            // Held with its moves: a hard position of a build before (or the engine's
            // move of another line), followed again.
            known
        } else {
            // Its value held without its moves': found easy by a build before (stopped,
            // or with a higher hard limit), or the value of a move of the other side's
            // lines. The fresh table's count alone judges it again, as it did then (one
            // thread and a fresh table: the same count), with no search of the shared
            // table unless it is hard.
            if valued && !self.cold(pos, &children)? {
                return Ok(());
            }
            let analysis =
                self.exact
                    .analyse(pos, &children, self.table, &self.one, self.control)?;
            self.nodes.fetch_add(analysis.nodes, Ordering::Relaxed);
            self.analysed.fetch_add(1, Ordering::Relaxed);
            let mut found = vec![(at.0, at.1, self.record_of(analysis.root.value)?)];
            let hard = valued || analysis.nodes > self.hard || self.cold(pos, &children)?;
            let moves: Vec<Value> = analysis.moves.iter().map(|f| f.value).collect();
            if hard {
                self.kept.fetch_add(1, Ordering::Relaxed);
                for ((c, &(t, r)), &v) in children.iter().zip(&places).zip(&moves) {
                    let child = v.after(self.again(pos, c)).ok_or_else(|| {
                        Error::Store(format!(
                            "the search valued a move of {} as a win or loss in no moves",
                            self.family.name()
                        ))
                    })?;
                    found.push((t, r, self.record_of(child)?));
                }
            }
            self.hold(&found)?;
            if !hard {
                return Ok(());
            }
            moves
        };
        let Some(i) = engine_move(&moves) else {
            return Ok(());
        };
        self.moves(&children[i])
            .par_iter()
            .try_for_each(|reply| self.walk(reply))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{evaluate, solve, Method, Tablebase};
    use crate::tier::{MemoryStore, TierSummary};

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

    /// The book of `game`'s lines to `depth`, in memory, positions of more than `hard`
    /// nodes held with their moves.
    fn lined(game: &str, depth: u32, hard: u64, store: &mut MemoryStore) -> Lines {
        lines_of(game, depth, hard, Sides::Both, store).unwrap()
    }

    /// [`build_lines`] of `game` for `sides` with the default options and limits.
    fn lines_of(
        game: &str,
        depth: u32,
        hard: u64,
        sides: Sides,
        store: &mut MemoryStore,
    ) -> Result<Lines, Error> {
        let spec: Spec = game.parse().unwrap();
        build_lines(
            &spec,
            depth,
            hard,
            sides,
            store,
            &tier::Options::default(),
            &Limits::default(),
            &|_| {},
            &|_| {},
        )
    }

    /// `spec`'s report read from `book`, and from the whole tablebase `full`.
    fn both(
        spec: &Spec,
        book: &[Tablebase],
        full: &[Tablebase],
    ) -> (crate::report::Report, crate::report::Report) {
        let read = |tablebases| {
            solve(
                spec,
                &Limits {
                    tablebases,
                    ..Limits::default()
                },
            )
            .unwrap()
        };
        (read(book), read(full))
    }

    fn values(r: &crate::report::Report) -> Vec<(crate::game::Outcome, Option<u32>)> {
        r.moves.iter().map(|m| (m.outcome, m.remoteness)).collect()
    }

    /// `at`'s moves, when it has some and they all lie within the book's `depth`.
    fn moves_within(at: &Spec, depth: u32) -> Option<Vec<Pos>> {
        let part = at.single().unwrap();
        let tiers = part.family.tiers().unwrap();
        let mut kids = Vec::new();
        if part.family.terminal(&part.position).is_none() {
            part.family.moves(&part.position, &mut kids);
        }
        let within = kids.iter().all(|k| tiers.locate(k).unwrap().0 <= depth);
        (!kids.is_empty() && within).then_some(kids)
    }

    /// Plays every game against the engine from `at`, the engine to move (`engine`) or
    /// the person (every move tried), while the moves stay in the book's tiers: each
    /// position the engine is to move at is read from the book with every move's value,
    /// and so is each position the engine's move leads to; the values and the engine's
    /// move are those of the whole tablebase.
    fn play_all(
        at: &Spec,
        engine: bool,
        depth: u32,
        (book, full): (&[Tablebase], &[Tablebase]),
        seen: &mut usize,
    ) {
        if moves_within(at, depth).is_none() {
            return;
        }
        let (read, whole) = both(at, book, full);
        assert_eq!(read.method, Method::Tablebase, "{at}");
        assert_eq!(
            (read.outcome, read.remoteness, values(&read)),
            (whole.outcome, whole.remoteness, values(&whole)),
            "{at}"
        );
        *seen += 1;
        if engine {
            let best = read.best_move().unwrap();
            assert_eq!(best.spec, whole.best_move().unwrap().spec, "{at}");
            play_all(&best.to, false, depth, (book, full), seen);
        } else {
            for m in &read.moves {
                play_all(&m.to, true, depth, (book, full), seen);
            }
        }
    }

    /// A book of lines with every position hard holds the tablebase's records only, in
    /// partial tiers; in every game against the engine, whoever starts, each position the
    /// engine moves at and each it moves to is read from it to the book's depth, with the
    /// tablebase's values and the engine's move.
    #[test]
    fn a_book_of_lines_answers_every_game_against_the_engine() {
        for (game, depth) in [("connect4[4x4]", 9), ("tictactoe", 6), ("connect4[5x4]", 6)] {
            let spec: Spec = game.parse().unwrap();
            let tiers = spec.single().unwrap().family.tiers().unwrap();
            let (_, full) = crate::games::testing::tier_solve(tiers.game());
            let mut store = MemoryStore::default();
            let lines = lined(game, depth, 0, &mut store);
            assert_eq!(lines.solved.tiers.len(), depth as usize + 1);
            assert_eq!(lines.solved.root, full.tiers[&0].0[0], "{game}");
            assert!(lines.walked.analysed > 0 && lines.walked.hard == lines.walked.analysed);
            let mut held = 0;
            for t in 0..=depth {
                let (records, summary) = &store.tiers[&t];
                assert!(summary.partial, "{game} {t}");
                for (rank, &r) in records.iter().enumerate() {
                    if r != record::UNREACHED {
                        assert_eq!(r, full.tiers[&t].0[rank], "{game} tier {t} rank {rank}");
                        held += 1;
                    }
                }
            }
            // Fewer positions than the tablebase's tiers: the engine's moves only.
            let all: u64 = (0..=depth).map(|t| full.tiers[&t].1.positions).sum();
            assert!((held as u64) < all, "{game}: {held} of {all}");
            let book = [Tablebase::new(tiers.game(), store)];
            let full = [Tablebase::new(tiers.game(), full)];
            let mut seen = 0;
            play_all(&spec, true, depth, (&book, &full), &mut seen);
            play_all(&spec, false, depth, (&book, &full), &mut seen);
            assert!(seen > 20, "{game}: {seen}");
        }
    }

    /// A book of lines for one side answers that side's games from the start: the
    /// person's first position too when the engine moves second.
    #[test]
    fn a_book_of_lines_for_one_side_answers_its_games() {
        let spec: Spec = "connect4[4x4]".parse().unwrap();
        let tiers = spec.single().unwrap().family.tiers().unwrap();
        let full = [Tablebase::new(
            tiers.game(),
            crate::games::testing::tier_solve(tiers.game()).1,
        )];
        for (sides, engine) in [(Sides::First, true), (Sides::Second, false)] {
            let mut store = MemoryStore::default();
            lines_of("connect4[4x4]", 9, 0, sides, &mut store).unwrap();
            let book = [Tablebase::new(tiers.game(), store)];
            let mut seen = 0;
            play_all(&spec, engine, 9, (&book, &full), &mut seen);
            assert!(seen > 20, "{sides:?}: {seen}");
        }
    }

    /// Positions whose moves cost the search no more than the hard nodes are left to it:
    /// with no position hard, the book holds the start's moves and the start's values
    /// alone, and the first move's position is searched.
    #[test]
    fn a_book_of_lines_leaves_easy_positions_to_the_search() {
        let mut store = MemoryStore::default();
        let lines = lined("connect4[4x4]", 6, u64::MAX, &mut store);
        assert_eq!(lines.walked.hard, 0);
        assert_eq!(lines.walked.analysed, 5); // the start and its four moves
        let positions: Vec<u64> = (0..=6).map(|t| store.tiers[&t].1.positions).collect();
        assert_eq!(positions, [1, 4, 0, 0, 0, 0, 0]);
        let spec: Spec = "connect4[4x4]".parse().unwrap();
        let tiers = spec.single().unwrap().family.tiers().unwrap();
        let book = [Tablebase::new(tiers.game(), store)];
        let full = [Tablebase::new(
            tiers.game(),
            crate::games::testing::tier_solve(tiers.game()).1,
        )];
        let (read, whole) = both(&spec, &book, &full);
        assert_eq!(read.method, Method::Tablebase);
        assert_eq!(values(&read), values(&whole));
        let first: Spec = "connect4[4x4](2)".parse().unwrap();
        let (read, whole) = both(&first, &book, &full);
        assert_ne!(read.method, Method::Tablebase);
        assert_eq!(values(&read), values(&whole));
    }

    /// Plays every game against the engine from `at` to the book's `depth`, the engine to
    /// move (`engine`) or the person (every move tried): each position the engine is to
    /// move at is either read from `book` with every move's value, and the engine's move
    /// followed, or left to the search, and then valued by a search with a fresh table
    /// in at most `hard` nodes. Counts the two kinds in `seen`.
    ///
    /// (A position of the person's is read from the book after a hard position's move:
    /// [`play_all`] checks that.)
    fn cold_all(
        at: &Spec,
        engine: bool,
        (depth, hard): (u32, u64),
        book: &[Tablebase],
        seen: &mut (usize, usize),
    ) {
        let Some(kids) = moves_within(at, depth) else {
            return;
        };
        let read = solve(
            at,
            &Limits {
                tablebases: book,
                ..Limits::default()
            },
        )
        .unwrap();
        if !engine {
            // The person's position after an easy one's move, read from the book only
            // because its moves were held by other lines, is left to the search.
            if read.method != Method::Tablebase {
                return;
            }
            for m in &read.moves {
                cold_all(&m.to, true, (depth, hard), book, seen);
            }
        } else if read.method == Method::Tablebase {
            seen.0 += 1;
            let best = read.best_move().unwrap();
            cold_all(&best.to, false, (depth, hard), book, seen);
        } else {
            seen.1 += 1;
            let part = at.single().unwrap();
            let exact = part.family.exact().unwrap();
            let limits = Limits::default();
            let table = exact.table(table_entries(&limits)).unwrap();
            let options = exact::Options {
                threads: 1,
                weak: false,
                ..exact_options(&limits)
            };
            let analysis = exact
                .analyse(&part.position, &kids, &table, &options, &limits.control)
                .unwrap();
            // As play answers: then every move of the position the engine's move leads
            // to, in the same table.
            let values: Vec<Value> = analysis.moves.iter().map(|f| f.value).collect();
            let mut nodes = analysis.nodes;
            if let Some(i) = engine_move(&values) {
                let mut replies = Vec::new();
                if part.family.terminal(&kids[i]).is_none() {
                    part.family.moves(&kids[i], &mut replies);
                }
                if !replies.is_empty() {
                    let then = exact
                        .analyse(&kids[i], &replies, &table, &options, &limits.control)
                        .unwrap();
                    nodes += then.nodes;
                }
            }
            assert!(nodes <= hard, "{at}: {nodes} nodes");
        }
    }

    /// What the book leaves to the search is easy for a search with a fresh table, not
    /// only for the build's, warm from the tree around it: in every game against the
    /// engine, whoever starts, each position the engine is to move at within the book is
    /// read from it or answered as play does (its moves valued, then those of the
    /// position the engine's move leads to) by a fresh search within the hard nodes.
    #[test]
    fn a_book_of_lines_leaves_only_what_a_fresh_search_finds_easy() {
        let (game, depth, hard) = ("connect4[5x4]", 10, 5000);
        let spec: Spec = game.parse().unwrap();
        let tiers = spec.single().unwrap().family.tiers().unwrap();
        let mut store = MemoryStore::default();
        let lines = lined(game, depth, hard, &mut store);
        // The build's table found easy some that a fresh one did not.
        assert!(lines.walked.cold > 0, "{:?}", lines.walked);
        let book = [Tablebase::new(tiers.game(), store)];
        let mut seen = (0, 0);
        cold_all(&spec, true, (depth, hard), &book, &mut seen);
        cold_all(&spec, false, (depth, hard), &book, &mut seen);
        assert!(seen.0 > 20 && seen.1 > 20, "{seen:?}");
    }

    /// A store holding as found (a build stopped before it saved) every position the
    /// tiers of `built` hold.
    fn stopped_before_saving(built: &MemoryStore) -> MemoryStore {
        let mut stopped = MemoryStore::default();
        for (&t, (records, _)) in &built.tiers {
            let found: Vec<(u64, u16)> = (0u64..)
                .zip(records.iter().copied())
                .filter(|&(_, r)| r != record::UNREACHED)
                .collect();
            stopped.found.insert(t, found);
        }
        stopped
    }

    /// A build stopped after it found easy positions (their values held, not their
    /// moves') resumes without searching them with the shared table: the fresh table's
    /// count judges them easy again, and the tiers are the same.
    #[test]
    fn a_resumed_book_of_lines_judges_easy_positions_by_the_fresh_count_alone() {
        let mut at_once = MemoryStore::default();
        let first = lines_of("connect4[4x4]", 9, 300, Sides::Second, &mut at_once).unwrap();
        assert!(first.walked.analysed > first.walked.hard + 10, "{first:?}");
        let mut stopped = stopped_before_saving(&at_once);
        let resumed = lines_of("connect4[4x4]", 9, 300, Sides::Second, &mut stopped).unwrap();
        assert_eq!(resumed.walked.analysed, 0, "{resumed:?}");
        assert!(resumed.walked.nodes > 0);
        assert_eq!(stopped.tiers, at_once.tiers);
    }

    /// A build of lines that passes its memory stops, what it found kept, and a run
    /// with more memory resumes from it to the same tiers.
    #[test]
    fn a_book_of_lines_past_its_memory_stops_and_keeps_what_it_found() {
        let mut at_once = MemoryStore::default();
        let whole = lines_of("connect4[4x4]", 9, 0, Sides::Both, &mut at_once).unwrap();
        let held: u64 = whole.solved.tiers.iter().map(|t| t.positions).sum();
        let spec: Spec = "connect4[4x4]".parse().unwrap();
        let mut store = MemoryStore::default();
        let options = tier::Options {
            max_bytes: held / 2 * HELD_BYTES,
            ..tier::Options::default()
        };
        let e = build_lines(
            &spec,
            9,
            0,
            Sides::Both,
            &mut store,
            &options,
            &Limits::default(),
            &|_| {},
            &|_| {},
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
        let found: usize = store.found.values().map(Vec::len).sum();
        assert!(
            found as u64 >= held / 2 && found as u64 <= held,
            "{found} of {held}"
        );
        assert!(store.tiers.is_empty());
        let resumed = lines_of("connect4[4x4]", 9, 0, Sides::Both, &mut store).unwrap();
        assert!(resumed.walked.analysed < whole.walked.analysed);
        assert_eq!(store.tiers, at_once.tiers);
    }

    /// A book of lines deepened equals one built to the deeper depth at once; a store
    /// holding whole tiers is refused, and the tier solver refuses partial ones.
    #[test]
    fn a_book_of_lines_deepens_and_is_never_mixed_with_whole_tiers() {
        let mut deepened = MemoryStore::default();
        lined("connect4[4x4]", 5, 0, &mut deepened);
        let second = lined("connect4[4x4]", 9, 0, &mut deepened);
        let mut at_once = MemoryStore::default();
        let first = lined("connect4[4x4]", 9, 0, &mut at_once);
        assert_eq!(deepened.tiers, at_once.tiers);
        assert!(second.walked.analysed < first.walked.analysed);
        // A build stopped before it saved resumes from what it found: nothing searched
        // again, the same tiers.
        let mut stopped = stopped_before_saving(&at_once);
        let resumed = lined("connect4[4x4]", 9, 0, &mut stopped);
        assert_eq!(resumed.walked.analysed, 0);
        assert_eq!(stopped.tiers, at_once.tiers);
        assert!(stopped.found.is_empty());

        let spec: Spec = "connect4[4x4]".parse().unwrap();
        let mut whole = booked("connect4[4x4]", 3);
        let e = lines_of("connect4[4x4]", 5, 0, Sides::Both, &mut whole).unwrap_err();
        assert!(e.to_string().contains("held whole"), "{e}");
        let e = build(
            &spec,
            6,
            &mut at_once,
            &tier::Options::default(),
            &Limits::default(),
            &|_| {},
        )
        .unwrap_err();
        assert!(e.to_string().contains("some of its positions only"), "{e}");
        let e = lines_of("dots[2x2]", 3, 0, Sides::Both, &mut MemoryStore::default()).unwrap_err();
        assert!(e.to_string().contains("margins"), "{e}");
    }

    /// A store that keeps partial tiers as their held records alone and refuses every
    /// dense load or save: what a book of lines asks of it must be sparse.
    #[derive(Default)]
    struct Sparse {
        tiers: std::collections::BTreeMap<u32, Held>,
    }

    /// A tier of [`Sparse`]: its ranks, its records held by rank, its summary.
    type Held = (u64, Vec<(u64, u16)>, TierSummary);

    impl TierStore for Sparse {
        fn summary(&mut self, tier: u32) -> Result<Option<TierSummary>, Error> {
            Ok(self.tiers.get(&tier).map(|t| t.2))
        }
        fn load(&mut self, tier: u32) -> Result<Option<Vec<u16>>, Error> {
            Err(Error::Store(format!("tier {tier} loaded whole")))
        }
        fn save(&mut self, tier: u32, _: &[u16], _: &TierSummary) -> Result<(), Error> {
            Err(Error::Store(format!("tier {tier} saved whole")))
        }
        fn save_held(
            &mut self,
            tier: u32,
            ranks: u64,
            held: &[(u64, u16)],
            summary: &TierSummary,
        ) -> Result<(), Error> {
            tier::check_held(tier, ranks, held)?;
            self.tiers.insert(tier, (ranks, held.to_vec(), *summary));
            Ok(())
        }
        fn for_each_held(
            &mut self,
            tier: u32,
            each: &mut dyn FnMut(u64, u16) -> Result<(), Error>,
        ) -> Result<bool, Error> {
            let Some((_, held, _)) = self.tiers.get(&tier) else {
                return Ok(false);
            };
            for &(rank, r) in held {
                each(rank, r)?;
            }
            Ok(true)
        }
    }

    /// `store`'s tiers as the dense records and summaries a [`MemoryStore`] keeps.
    fn densely(store: &Sparse) -> std::collections::BTreeMap<u32, (Vec<u16>, TierSummary)> {
        store
            .tiers
            .iter()
            .map(|(&t, (ranks, held, summary))| {
                let mut records = vec![record::UNREACHED; *ranks as usize];
                for &(rank, r) in held {
                    records[rank as usize] = r;
                }
                (t, (records, *summary))
            })
            .collect()
    }

    /// A book of lines saves and reads its tiers through the store's sparse methods
    /// alone, to the same records and summaries as a store that keeps them dense, built at
    /// once or deepened; its memory check counts the positions held, not the tiers' ranks:
    /// a bound below the widest tier's 2 bytes a rank is enough, one byte under what the
    /// positions held take is refused, and a tier that hands more positions than its
    /// summary says is refused.
    #[test]
    fn a_book_of_lines_is_saved_and_read_by_its_positions() {
        let game = "connect4[5x4]";
        let run = |depth, store: &mut dyn TierStore, max_bytes| {
            let spec: Spec = game.parse().unwrap();
            build_lines(
                &spec,
                depth,
                0,
                Sides::Both,
                store,
                &tier::Options {
                    max_bytes,
                    ..tier::Options::default()
                },
                &Limits::default(),
                &|_| {},
                &|_| {},
            )
        };
        let mut dense = MemoryStore::default();
        let at_once = run(8, &mut dense, u64::MAX).unwrap();
        let mut sparse = Sparse::default();
        run(5, &mut sparse, u64::MAX).unwrap();
        let held: u64 = sparse.tiers.values().map(|t| t.2.positions).sum();
        assert!(held > 0);
        let bound = held * HELD_BYTES;
        let spec: Spec = game.parse().unwrap();
        let tiers = spec.single().unwrap().family.tiers().unwrap();
        let widest = (0..=8).map(|t| tiers.game().tier_size(t)).max().unwrap();
        assert!(widest * 2 > bound, "{widest} ranks, {bound} bytes");
        let e = run(8, &mut sparse, bound - 1).unwrap_err();
        assert!(
            matches!(e, Error::OverLimit { .. })
                && e.to_string().contains(&format!("holding {held} positions")),
            "{e}"
        );
        // Up front the bound is checked against the positions held; as the build goes,
        // against those it holds then.
        let all: u64 = at_once.solved.tiers.iter().map(|t| t.positions).sum();
        let e = run(8, &mut sparse, all * HELD_BYTES - 1).unwrap_err();
        assert!(
            matches!(e, Error::OverLimit { .. }) && e.to_string().contains("more than"),
            "{e}"
        );
        let deepened = run(8, &mut sparse, all * HELD_BYTES).unwrap();
        assert_eq!(densely(&sparse), dense.tiers);
        assert_eq!(deepened.solved, at_once.solved);
        assert!(deepened.walked.analysed < at_once.walked.analysed);
        // Read again, nothing is searched: every position is held.
        let again = run(8, &mut sparse, u64::MAX).unwrap();
        assert_eq!(again.walked.analysed, 0);
        assert_eq!(densely(&sparse), dense.tiers);
        // A tier that holds more than its summary counts is damaged.
        let t = (0..=8).find(|t| sparse.tiers[t].2.positions > 1).unwrap();
        sparse.tiers.get_mut(&t).unwrap().2.positions = 1;
        let e = run(8, &mut sparse, u64::MAX).unwrap_err();
        assert!(
            e.to_string()
                .contains("more positions than its summary's 1"),
            "{e}"
        );
    }

    /// The default sparse methods of a store are its dense ones: a tier saved from its
    /// held records is the dense tier, read back by rank without its unreached ranks;
    /// held records out of order are refused.
    #[test]
    fn the_default_sparse_methods_are_the_dense_ones() {
        let mut store = MemoryStore::default();
        let held = [(0, 5), (3, 7), (9, 1)];
        let summary = tier::summarise_held(false, 2, 10, held.iter().map(|&(_, r)| r));
        store.save_held(2, 10, &held, &summary).unwrap();
        assert_eq!(
            store.tiers[&2],
            (vec![5, 0, 0, 7, 0, 0, 0, 0, 0, 1], summary)
        );
        assert_eq!(
            summary,
            TierSummary {
                partial: true,
                ..tier::summarise(false, 2, &store.tiers[&2].0)
            }
        );
        let mut got = Vec::new();
        let had = store
            .for_each_held(2, &mut |rank, r| {
                got.push((rank, r));
                Ok(())
            })
            .unwrap();
        assert!(had);
        assert_eq!(got, held);
        assert!(!store.for_each_held(1, &mut |_, _| Ok(())).unwrap());
        for bad in [&[(3, 1), (3, 2)][..], &[(4, 1), (2, 2)], &[(10, 1)]] {
            assert!(store.save_held(1, 10, bad, &summary).is_err(), "{bad:?}");
        }
        assert!(!store.tiers.contains_key(&1));
        // A tier past what memory holds is refused, not allocated.
        let e = store.save_held(1, u64::MAX, &held, &summary).unwrap_err();
        assert!(matches!(e, Error::TooLarge { .. }), "{e}");
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
