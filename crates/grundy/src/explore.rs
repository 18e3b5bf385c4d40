//! Exploration: the positions reachable from a root → dense `u32` ids → a forward CSR
//! graph (and its reverse), with a budget on size and a way to stop. Every table whose
//! size comes from the game is asked of the allocator fallibly: running out of memory is
//! an [`Error::TooLarge`], never an abort.

use std::sync::atomic::{AtomicBool, Ordering};

use rustc_hash::FxHashMap;

pub use crate::csr::{Csr, Offset};
use crate::game::{Game, IndexedGame};
use crate::{memory, Error, Limit};

/// Limits and controls for a long computation: how large it may grow, how to stop it, and
/// whom to tell how far it got.
#[derive(Clone, Copy)]
pub struct Control<'a> {
    /// The most positions an exploration may create before it is refused
    /// (default 50 000 000; at most `u32::MAX - 1`).
    pub max_positions: u64,
    /// Set to `true` (e.g. by a Ctrl-C handler) to stop at the next check.
    pub cancel: Option<&'a AtomicBool>,
    /// Called now and then with the stage name and a count of work done.
    pub progress: Option<&'a Progress<'a>>,
}

/// A progress callback: the stage's name and how much of it is done.
pub type Progress<'a> = dyn Fn(&str, u64) + Sync + 'a;

impl Default for Control<'_> {
    fn default() -> Self {
        Control {
            max_positions: 50_000_000,
            cancel: None,
            progress: None,
        }
    }
}

impl<'a> Control<'a> {
    /// The default limits, stopped when `cancel` is set.
    #[must_use]
    pub fn cancelled_by(cancel: &'a AtomicBool) -> Control<'a> {
        Control {
            cancel: Some(cancel),
            ..Control::default()
        }
    }
}

impl std::fmt::Debug for Control<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Control")
            .field("max_positions", &self.max_positions)
            .finish_non_exhaustive()
    }
}

impl Control<'_> {
    /// `Err(Error::Cancelled)` if someone asked to stop.
    pub fn check(&self) -> Result<(), Error> {
        match self.cancel {
            Some(flag) if flag.load(Ordering::Relaxed) => Err(Error::Cancelled),
            _ => Ok(()),
        }
    }

    /// Reports progress, if anyone listens.
    pub fn report(&self, stage: &str, done: u64) {
        if let Some(progress) = self.progress {
            progress(stage, done);
        }
    }
}

/// How often (in positions) exploration checks for cancellation and reports progress.
const CHECK_EVERY: usize = 1 << 16;

/// The reachable part of a game: positions by dense id (the root is id 0, in canonical
/// form), and the move graph between them. The root's edges are in the order of
/// [`Game::moves`] of the root *as given*, one per move, so the `i`-th edge is the `i`-th
/// move a user sees.
#[derive(Debug, Clone)]
pub struct Explored<P> {
    /// Position of each id, canonical forms.
    pub positions: Vec<P>,
    /// Edge `u → v` for each move from `u` to (the canonical form of) `v`; parallel edges
    /// are kept, one per move.
    pub graph: Csr,
}

impl<P> Explored<P> {
    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether nothing was explored (never the case for a successful exploration).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }
}

/// Moves an exploration may meet per position of its budget: past
/// `max_positions · EDGES_PER_POSITION` moves it is refused (4 bytes a move).
pub const EDGES_PER_POSITION: u64 = 16;

fn too_many_moves(limit: u64) -> Error {
    Error::over(
        Limit::Positions,
        format!(
            "more than {} moves ({EDGES_PER_POSITION} per position of the budget of {limit})",
            limit.saturating_mul(EDGES_PER_POSITION)
        ),
        Some(u128::from(limit) * u128::from(EDGES_PER_POSITION) * 8),
        None,
    )
}

fn too_many(limit: u64) -> Error {
    Error::over(
        Limit::Positions,
        format!(
            "more than {}",
            crate::number::count(limit.into(), "position", "positions")
        ),
        None,
        None,
    )
}

/// Explores every position reachable from `root`, breadth first, merging positions with
/// the same [`Game::canonical`] form through a hash map.
///
/// # Complexity
/// O(V + E) hash-map operations; memory: the positions, 8 bytes per position for the map
/// and offsets, 4 bytes per edge.
///
/// # Errors
/// [`Error::TooLarge`] past `control.max_positions` or when memory runs out,
/// [`Error::Cancelled`] if stopped.
pub fn explore<G: Game>(
    game: &G,
    root: &G::Position,
    control: &Control<'_>,
) -> Result<Explored<G::Position>, Error> {
    let mut ids: FxHashMap<G::Position, u32> = FxHashMap::default();
    breadth_first(game, root, control, |position, fresh| {
        if let Some(&id) = ids.get(position) {
            return Ok(id);
        }
        let id = fresh()?;
        memory::reserve_map(&mut ids, 1, "the positions explored")?;
        ids.insert(position.clone(), id);
        Ok(id)
    })
}

/// The breadth-first walk both explorers share; `id_of(position, fresh)` returns the
/// position's id, calling `fresh()` (which refuses past the budget) for a new one.
fn breadth_first<G: Game>(
    game: &G,
    root: &G::Position,
    control: &Control<'_>,
    mut id_of: impl FnMut(&G::Position, &mut dyn FnMut() -> Result<u32, Error>) -> Result<u32, Error>,
) -> Result<Explored<G::Position>, Error> {
    let limit = control.max_positions.min(u64::from(u32::MAX) - 1);
    let raw_root = root;
    let mut positions = vec![game.canonical(root)];
    let fresh_id = |count: usize| -> Result<u32, Error> {
        if count as u64 >= limit {
            return Err(too_many(limit));
        }
        Ok(count as u32)
    };
    id_of(&positions[0], &mut || Ok(0))?;
    let mut offsets = vec![0u64];
    let mut targets = Vec::new();
    let mut children = Vec::new();
    let mut next = 0usize;
    while next < positions.len() {
        if next.is_multiple_of(CHECK_EVERY) {
            control.check()?;
            control.report("explore", next as u64);
        }
        // The root is expanded as given, so that its edges follow the order of
        // `game.moves(root)` and can be shown as the moves the user sees.
        let pos = if next == 0 {
            raw_root
        } else {
            &positions[next]
        };
        children.clear();
        if game.terminal(pos).is_none() {
            game.moves(pos, &mut children);
        }
        if (targets.len() + children.len()) as u64 > limit.saturating_mul(EDGES_PER_POSITION) {
            return Err(too_many_moves(limit));
        }
        memory::reserve(&mut targets, children.len(), "the moves explored")?;
        memory::reserve(&mut positions, children.len(), "the positions explored")?;
        memory::reserve(&mut offsets, 1, "the positions explored")?;
        for child in children.drain(..) {
            let child = game.canonical(&child);
            let count = positions.len();
            let id = id_of(&child, &mut || fresh_id(count))?;
            if id as usize == count {
                positions.push(child);
            }
            targets.push(id);
        }
        offsets.push(targets.len() as u64);
        next += 1;
    }
    Ok(Explored {
        positions,
        graph: Csr { offsets, targets },
    })
}

/// Like [`explore`], but numbers positions through [`IndexedGame::index`]: a table of
/// `index_bound` `u32`s replaces the hash map.
///
/// # Complexity
/// O(V + E) time; 4 bytes per index below the bound, plus what [`explore`] keeps.
///
/// # Errors
/// As [`explore`]; also [`Error::TooLarge`] if the index table itself would exceed the
/// position budget by more than 16×.
pub fn explore_indexed<G: IndexedGame>(
    game: &G,
    root: &G::Position,
    control: &Control<'_>,
) -> Result<Explored<G::Position>, Error> {
    const NONE: u32 = u32::MAX;
    let limit = control.max_positions.min(u64::from(u32::MAX) - 1);
    let bound = game.index_bound();
    if bound > limit.saturating_mul(16) {
        return Err(Error::over(
            Limit::Positions,
            format!("an index table of {bound} entries"),
            Some(u128::from(bound) * 4),
            Some(u128::from(bound).div_ceil(16)),
        ));
    }
    let mut ids = memory::filled(
        usize::try_from(bound).map_err(|_| Error::Overflow)?,
        NONE,
        "an index table",
    )?;
    breadth_first(game, root, control, |position, fresh| {
        let slot = &mut ids[game.index(position) as usize];
        if *slot == NONE {
            *slot = fresh()?;
        }
        Ok(*slot)
    })
}

/// The reachable part of a ranked game, explored by rank: no position is stored, only
/// its rank, and no forward graph is kept — the reverse graph is built by generating the
/// moves a second time, which for ranked games is cheaper than storing them.
#[derive(Debug, Clone)]
pub struct RankedExplored {
    /// The rank of each dense id (the root is id 0).
    pub ranks: Vec<u64>,
    /// The number of moves of each id.
    pub degrees: Vec<u32>,
    /// Edge `v → u` for each move `u → v`.
    pub reverse: Csr,
    /// The dense id of each rank, `u32::MAX` where unreached.
    pub ids: Vec<u32>,
}

impl RankedExplored {
    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.ranks.len()
    }

    /// Whether nothing was explored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ranks.is_empty()
    }

    /// The dense id of a rank, if it was reached.
    #[must_use]
    pub fn id(&self, rank: u64) -> Option<u32> {
        self.ids
            .get(usize::try_from(rank).ok()?)
            .copied()
            .filter(|&id| id != u32::MAX)
    }
}

/// Explores every position reachable from `root` by rank: `moves(rank, out)` appends the
/// ranks of the children, `terminal(rank)` says whether a position is not expanded.
///
/// # Complexity
/// Two passes over the moves. Memory: 4 bytes per rank below `size` (the id table), 20
/// bytes per position reached (rank, degree, offset), 4 per edge (the reverse graph).
///
/// # Errors
/// [`Error::TooLarge`] past `control.max_positions`, if the id table would be more
/// than 16 times the position budget, or when memory runs out; [`Error::Cancelled`].
pub fn explore_ranked(
    size: u64,
    root: u64,
    moves: impl Fn(u64, &mut Vec<u64>),
    terminal: impl Fn(u64) -> bool,
    control: &Control<'_>,
) -> Result<RankedExplored, Error> {
    const NONE: u32 = u32::MAX;
    let limit = control.max_positions.min(u64::from(u32::MAX) - 1);
    if size > limit.saturating_mul(16) || usize::try_from(size).is_err() {
        return Err(Error::over(
            Limit::Positions,
            format!("a rank table of {size} entries"),
            Some(u128::from(size) * 4),
            Some(u128::from(size).div_ceil(16)),
        ));
    }
    let mut ids = memory::filled(size as usize, NONE, "a rank table")?;
    let mut ranks = vec![root];
    ids[root as usize] = 0;
    let mut degrees = Vec::new();
    let mut in_degree: Vec<u32> = vec![0];
    let mut children = Vec::new();
    let mut edges = 0u64;
    let mut next = 0usize;
    while next < ranks.len() {
        if next.is_multiple_of(CHECK_EVERY) {
            control.check()?;
            control.report("explore", next as u64);
        }
        let rank = ranks[next];
        children.clear();
        if !terminal(rank) {
            moves(rank, &mut children);
        }
        let degree = u32::try_from(children.len()).map_err(|_| Error::TooLarge {
            what: format!("a position with {} moves", children.len()),
            need: None,
        })?;
        degrees.push(degree);
        edges += u64::from(degree);
        if edges > limit.saturating_mul(EDGES_PER_POSITION) {
            return Err(too_many_moves(limit));
        }
        memory::reserve(&mut degrees, 1, "the positions explored")?;
        for &child in &children {
            let slot = &mut ids[child as usize];
            if *slot == NONE {
                if ranks.len() as u64 >= limit {
                    return Err(too_many(limit));
                }
                memory::reserve(&mut ranks, 1, "the positions explored")?;
                memory::reserve(&mut in_degree, 1, "the positions explored")?;
                *slot = ranks.len() as u32;
                ranks.push(child);
                in_degree.push(0);
            }
            in_degree[*slot as usize] += 1;
        }
        next += 1;
    }
    // The reverse graph: offsets from the in-degrees, then the moves again.
    let n = ranks.len();
    let mut offsets = Vec::new();
    memory::reserve(&mut offsets, n + 1, "the reverse graph")?;
    let mut total = 0u64;
    offsets.push(0);
    for &d in &in_degree {
        total += u64::from(d);
        offsets.push(total);
    }
    debug_assert_eq!(total, edges);
    drop(in_degree);
    let mut cursor: Vec<u64> = memory::copied(&offsets[..n], "the reverse graph")?;
    let mut targets = memory::filled(
        usize::try_from(edges).map_err(|_| Error::Overflow)?,
        0u32,
        "the reverse graph",
    )?;
    for (id, &rank) in ranks.iter().enumerate() {
        if id % CHECK_EVERY == 0 {
            control.check()?;
        }
        if degrees[id] == 0 {
            continue;
        }
        children.clear();
        moves(rank, &mut children);
        for &child in &children {
            let c = ids[child as usize] as usize;
            targets[cursor[c] as usize] = id as u32;
            cursor[c] += 1;
        }
    }
    drop(cursor);
    Ok(RankedExplored {
        ranks,
        degrees,
        reverse: Csr { offsets, targets },
        ids,
    })
}
