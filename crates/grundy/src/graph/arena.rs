//! The arena: a frozen game graph as a structure of arrays (owner, priority, successors in CSR,
//! optional names, start vertex, and the map from dense ids back to the ids of the file).
//!
//! Vertices are dense `u32` ids `0..n`. Every table is a `Vec` indexed by id. Successor lists are
//! a compressed sparse row ([`Csr<u32>`]: `u32` offsets, so at most `u32::MAX` edges): the
//! successors of `v` are `targets[offsets[v]..offsets[v + 1]]`. The reverse graph (predecessors) is built on first use
//! and cached, because only some algorithms (attractors, retrograde labelling) need it.
//!
//! The CSR is the crate's one graph type ([`crate::explore::Csr`]), so the retrograde engine
//! runs on an arena's reverse graph as it is.

use std::fmt;
use std::ops::Range;
use std::sync::OnceLock;

use thiserror::Error;

/// Why an arena (or a [`Csr`]) could not be built from the parts it was handed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ArenaError {
    /// Two tables that must have one entry per vertex disagree in length.
    #[error("{what} has {found} entries, expected {expected}")]
    LengthMismatch {
        /// Which table is wrong.
        what: &'static str,
        /// The length it should have.
        expected: usize,
        /// The length it has.
        found: usize,
    },
    /// An owner other than player 0 or player 1.
    #[error("vertex {vertex} has owner {owner}; owners are 0 or 1")]
    BadOwner {
        /// The dense id of the vertex.
        vertex: u32,
        /// The owner found.
        owner: u8,
    },
    /// An edge to a vertex that does not exist.
    #[error("vertex {vertex} has successor {target}, but there are only {}", crate::number::count(*len as u128, "vertex", "vertices"))]
    TargetOutOfRange {
        /// The dense id of the edge's source.
        vertex: u32,
        /// The target found.
        target: u32,
        /// The number of vertices.
        len: usize,
    },
    /// CSR offsets that do not start at 0, decrease, or do not end at the number of targets.
    #[error("malformed CSR offsets: {reason}")]
    BadOffsets {
        /// What is wrong with them.
        reason: &'static str,
    },
    /// More than `u32::MAX` vertices.
    #[error("too many vertices for u32 ids: {count}")]
    TooManyVertices {
        /// The number of vertices asked for.
        count: u64,
    },
    /// More than `u32::MAX` edges.
    #[error("too many edges for u32 offsets: {count}")]
    TooManyEdges {
        /// The number of edges asked for.
        count: u64,
    },
    /// A start vertex that does not exist.
    #[error("start vertex {start} out of range: there are {}", crate::number::count(*len as u128, "vertex", "vertices"))]
    StartOutOfRange {
        /// The start asked for.
        start: u32,
        /// The number of vertices.
        len: usize,
    },
    /// A file-id table that is not strictly increasing, or an offset map that overflows `u64`.
    #[error("file ids must be strictly increasing and fit in u64 (problem at dense id {vertex})")]
    BadIds {
        /// The first dense id where the map is broken.
        vertex: u32,
    },
}

pub use crate::csr::{Csr, CsrError, Offset};

impl From<CsrError> for ArenaError {
    fn from(e: CsrError) -> ArenaError {
        match e {
            CsrError::BadOffsets { reason } => ArenaError::BadOffsets { reason },
            CsrError::TargetOutOfRange {
                vertex,
                target,
                len,
            } => ArenaError::TargetOutOfRange {
                vertex,
                target,
                len,
            },
            CsrError::TooManyVertices { count } => ArenaError::TooManyVertices { count },
            CsrError::TooManyEdges { count, .. } => ArenaError::TooManyEdges { count },
        }
    }
}

/// A vertex as its file names it: the id written in a PGSolver, POI or digraph file (any
/// `u64`, with gaps, in any order). The arena's own vertex is its dense index, a `u32`
/// `0..len`, by which every table and successor list is indexed; the two meet only
/// through [`Arena::file_id`] and [`Arena::dense_id`], so one is never taken for the other.
/// Written as its number (serialised as a bare number too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(transparent))]
pub struct FileId(pub u64);

impl fmt::Display for FileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// How dense ids map back to the vertex ids of the file a game came from.
///
/// PGSolver ids may be sparse and in any order; POI fields are numbered from 1; graphs built in
/// memory use their dense ids. Dense ids are always assigned in increasing order of file id, so
/// the map is monotone and the reverse lookup is arithmetic or a binary search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdMap {
    /// File id = `base + dense id` (0 for dense graphs and contiguous PGSolver files, 1 for POI).
    Offset(u64),
    /// File id = `table[dense id]`; strictly increasing.
    Table(Vec<u64>),
}

impl Default for IdMap {
    fn default() -> Self {
        IdMap::Offset(0)
    }
}

/// A game graph: n vertices with dense `u32` ids, an owner (player 0 or 1) and a priority each,
/// and successor lists in CSR form.
///
/// The priority is read as a parity-game colour in the max-even convention (PGSolver's):
/// player 0 wins a play whose highest priority seen infinitely often is even. A Büchi game (the
/// POI green game) uses priority 2 for green and 1 for white, see
/// [`GREEN`](crate::graph::format::GREEN). Vertices without successors ("dead ends") are
/// allowed; the convention used by [`verify`](crate::graph::verify) and
/// [`brute`](crate::graph::brute) is normal play: the owner of a dead end, having to move and
/// unable to, loses.
///
/// Equality compares the game (owners, priorities, edges, names, start, ids), not the cached
/// reverse graph.
#[derive(Debug, Clone)]
pub struct Arena {
    owner: Vec<u8>,
    priority: Vec<u32>,
    succ: Csr<u32>,
    /// Empty when no vertex has a name, else one entry per vertex.
    names: Vec<Option<String>>,
    start: Option<u32>,
    ids: IdMap,
    pred: OnceLock<Csr<u32>>,
}

impl PartialEq for Arena {
    fn eq(&self, other: &Self) -> bool {
        self.owner == other.owner
            && self.priority == other.priority
            && self.succ == other.succ
            && self.start == other.start
            && self.ids == other.ids
            && (0..self.len() as u32).all(|v| self.name(v) == other.name(v))
    }
}

impl Eq for Arena {}

impl Arena {
    /// A small arena for tests: each vertex as (owner, priority, successors).
    #[cfg(test)]
    pub(crate) fn of(spec: &[(u8, u32, &[u32])]) -> Arena {
        let mut b = ArenaBuilder::new();
        for &(o, p, s) in spec {
            b.push(o, p, s.iter().copied());
        }
        b.build().unwrap()
    }

    /// Builds an arena from one owner and one priority per vertex and the successor CSR
    /// (its offsets are kept as `u32`: copied once if they are `u64`).
    ///
    /// # Complexity
    /// O(n).
    ///
    /// # Errors
    /// [`ArenaError`] if the tables disagree in length, an owner is not 0 or 1, or there are
    /// more than `u32::MAX` edges.
    pub fn new<O: Offset>(
        owner: Vec<u8>,
        priority: Vec<u32>,
        successors: Csr<O>,
    ) -> Result<Self, ArenaError> {
        let n = successors.len();
        if owner.len() != n {
            return Err(ArenaError::LengthMismatch {
                what: "owner",
                expected: n,
                found: owner.len(),
            });
        }
        if priority.len() != n {
            return Err(ArenaError::LengthMismatch {
                what: "priority",
                expected: n,
                found: priority.len(),
            });
        }
        if let Some(v) = owner.iter().position(|&o| o > 1) {
            return Err(ArenaError::BadOwner {
                vertex: v as u32,
                owner: owner[v],
            });
        }
        let successors = successors.into_narrow()?;
        Ok(Arena {
            owner,
            priority,
            succ: successors,
            names: Vec::new(),
            start: None,
            ids: IdMap::Offset(0),
            pred: OnceLock::new(),
        })
    }

    /// Sets the vertex names: one entry per vertex, or an empty vector for none.
    pub fn with_names(mut self, names: Vec<Option<String>>) -> Result<Self, ArenaError> {
        if !names.is_empty() && names.len() != self.len() {
            return Err(ArenaError::LengthMismatch {
                what: "names",
                expected: self.len(),
                found: names.len(),
            });
        }
        self.names = if names.iter().all(Option::is_none) {
            Vec::new()
        } else {
            names
        };
        Ok(self)
    }

    /// Sets (or clears) the start vertex.
    pub fn with_start(mut self, start: Option<u32>) -> Result<Self, ArenaError> {
        if let Some(s) = start {
            if s as usize >= self.len() {
                return Err(ArenaError::StartOutOfRange {
                    start: s,
                    len: self.len(),
                });
            }
        }
        self.start = start;
        Ok(self)
    }

    /// Sets the map from dense ids to file ids. A table that is an offset in disguise (contiguous
    /// ids) is stored as [`IdMap::Offset`], so two arenas of the same game compare equal.
    pub fn with_ids(mut self, ids: IdMap) -> Result<Self, ArenaError> {
        let n = self.len();
        match ids {
            IdMap::Offset(base) => {
                if n > 0 && base.checked_add(n as u64 - 1).is_none() {
                    return Err(ArenaError::BadIds { vertex: 0 });
                }
                self.ids = IdMap::Offset(base);
            }
            IdMap::Table(table) => {
                if table.len() != n {
                    return Err(ArenaError::LengthMismatch {
                        what: "id table",
                        expected: n,
                        found: table.len(),
                    });
                }
                if let Some(i) = table.windows(2).position(|w| w[0] >= w[1]) {
                    return Err(ArenaError::BadIds {
                        vertex: i as u32 + 1,
                    });
                }
                let contiguous = n == 0 || table[n - 1] - table[0] == n as u64 - 1;
                self.ids = if contiguous {
                    IdMap::Offset(table.first().copied().unwrap_or(0))
                } else {
                    IdMap::Table(table)
                };
            }
        }
        Ok(self)
    }

    /// The number of vertices.
    #[inline]
    pub fn len(&self) -> usize {
        self.owner.len()
    }

    /// Whether the arena has no vertices.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.owner.is_empty()
    }

    /// The number of edges.
    #[inline]
    pub fn edge_count(&self) -> usize {
        self.succ.edge_count()
    }

    /// All dense ids, `0..n`.
    #[inline]
    pub fn vertices(&self) -> Range<u32> {
        0..self.len() as u32
    }

    /// The player (0 or 1) who moves at `v`.
    #[inline]
    pub fn owner(&self, v: u32) -> u8 {
        self.owner[v as usize]
    }

    /// The owner table.
    #[inline]
    pub fn owners(&self) -> &[u8] {
        &self.owner
    }

    /// The priority of `v`.
    #[inline]
    pub fn priority(&self, v: u32) -> u32 {
        self.priority[v as usize]
    }

    /// The priority table.
    #[inline]
    pub fn priorities(&self) -> &[u32] {
        &self.priority
    }

    /// The largest priority, or `None` for an empty arena.
    pub fn max_priority(&self) -> Option<u32> {
        self.priority.iter().copied().max()
    }

    /// The successors of `v`, in file order.
    #[inline]
    pub fn successors(&self, v: u32) -> &[u32] {
        self.succ.successors(v)
    }

    /// The number of successors of `v`.
    #[inline]
    pub fn out_degree(&self, v: u32) -> usize {
        self.succ.degree(v) as usize
    }

    /// The forward graph.
    #[inline]
    pub fn successor_csr(&self) -> &Csr<u32> {
        &self.succ
    }

    /// The reverse graph (predecessor lists), built on the first call and cached.
    ///
    /// # Complexity
    /// O(n + m) the first time, O(1) after.
    pub fn reverse(&self) -> &Csr<u32> {
        self.pred.get_or_init(|| self.succ.reverse())
    }

    /// The predecessors of `v`, sorted by id (builds the reverse graph on first use).
    #[inline]
    pub fn predecessors(&self, v: u32) -> &[u32] {
        self.reverse().successors(v)
    }

    /// The first vertex without successors, if any.
    pub fn first_dead_end(&self) -> Option<u32> {
        self.vertices().find(|&v| self.out_degree(v) == 0)
    }

    /// The name of `v`, if the file gave one.
    pub fn name(&self, v: u32) -> Option<&str> {
        self.names.get(v as usize).and_then(|n| n.as_deref())
    }

    /// Whether any vertex has a name.
    pub fn has_names(&self) -> bool {
        !self.names.is_empty()
    }

    /// The start vertex, if the file named one.
    pub fn start(&self) -> Option<u32> {
        self.start
    }

    /// The map from dense ids to file ids.
    pub fn ids(&self) -> &IdMap {
        &self.ids
    }

    /// The id the vertex of dense index `v` had in its file.
    #[inline]
    pub fn file_id(&self, v: u32) -> FileId {
        FileId(match &self.ids {
            IdMap::Offset(base) => base + u64::from(v),
            IdMap::Table(t) => t[v as usize],
        })
    }

    /// The dense index of the vertex the file called `id`, if there is one.
    ///
    /// # Complexity
    /// O(1) for offset maps, O(log n) for tables.
    pub fn dense_id(&self, FileId(id): FileId) -> Option<u32> {
        match &self.ids {
            IdMap::Offset(base) => {
                let d = id.checked_sub(*base)?;
                (d < self.len() as u64).then_some(d as u32)
            }
            IdMap::Table(t) => t.binary_search(&id).ok().map(|i| i as u32),
        }
    }
}

/// Builds an [`Arena`] one vertex at a time; vertex `i` is the `i`-th pushed.
///
/// ```
/// use grundy::graph::ArenaBuilder;
/// let mut b = ArenaBuilder::new();
/// b.push(0, 2, [1]);
/// b.push(1, 1, [0, 1]);
/// let arena = b.build().unwrap();
/// assert_eq!(arena.successors(1), &[0, 1]);
/// assert_eq!(arena.predecessors(1), &[0, 1]);
/// ```
#[derive(Debug, Clone)]
pub struct ArenaBuilder {
    owner: Vec<u8>,
    priority: Vec<u32>,
    /// `u32` offsets: an edge count past `u32::MAX` wraps them, and [`build`](Self::build)
    /// then refuses the arena by the count of its targets.
    offsets: Vec<u32>,
    targets: Vec<u32>,
    names: Vec<Option<String>>,
}

impl Default for ArenaBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl ArenaBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        ArenaBuilder {
            owner: Vec::new(),
            priority: Vec::new(),
            offsets: vec![0],
            targets: Vec::new(),
            names: Vec::new(),
        }
    }

    /// The number of vertices pushed so far (the id the next one gets).
    pub fn len(&self) -> usize {
        self.owner.len()
    }

    /// Whether no vertex has been pushed.
    pub fn is_empty(&self) -> bool {
        self.owner.is_empty()
    }

    /// Appends a vertex. Nothing is checked until [`build`](Self::build).
    pub fn push(&mut self, owner: u8, priority: u32, successors: impl IntoIterator<Item = u32>) {
        self.owner.push(owner);
        self.priority.push(priority);
        self.targets.extend(successors);
        self.offsets.push(self.targets.len() as u32);
    }

    /// Names the most recently pushed vertex.
    pub fn name_last(&mut self, name: impl Into<String>) {
        let n = self.owner.len();
        if n == 0 {
            return;
        }
        self.names.resize(n, None);
        self.names[n - 1] = Some(name.into());
    }

    /// Checks owners and edges and freezes the arena.
    ///
    /// # Complexity
    /// O(n + m).
    pub fn build(mut self) -> Result<Arena, ArenaError> {
        let n = self.owner.len();
        if n > u32::MAX as usize {
            return Err(ArenaError::TooManyVertices { count: n as u64 });
        }
        if self.targets.len() as u64 > u64::from(u32::MAX) {
            return Err(ArenaError::TooManyEdges {
                count: self.targets.len() as u64,
            });
        }
        let csr = Csr::from_narrow_parts(self.offsets, self.targets)?;
        if !self.names.is_empty() {
            self.names.resize(n, None);
        }
        Arena::new(self.owner, self.priority, csr)?.with_names(self.names)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Arena {
        let mut b = ArenaBuilder::new();
        b.push(0, 3, [1, 2]);
        b.push(1, 0, [2]);
        b.push(0, 2, [0, 2]);
        b.push(1, 1, []);
        b.build().unwrap()
    }

    #[test]
    fn accessors() {
        let a = sample();
        assert_eq!(a.len(), 4);
        assert_eq!(a.edge_count(), 5);
        assert_eq!(a.successors(0), &[1, 2]);
        assert_eq!(a.out_degree(3), 0);
        assert_eq!(a.predecessors(2), &[0, 1, 2]);
        assert_eq!(a.predecessors(0), &[2]);
        assert_eq!(a.predecessors(3), &[] as &[u32]);
        assert_eq!(a.first_dead_end(), Some(3));
        assert_eq!(a.max_priority(), Some(3));
        assert_eq!(a.file_id(2), FileId(2));
        assert_eq!(a.dense_id(FileId(3)), Some(3));
        assert_eq!(a.dense_id(FileId(4)), None);
        assert!(!a.has_names());
    }

    #[test]
    fn id_maps() {
        let a = sample()
            .with_ids(IdMap::Table(vec![5, 7, 100, 101]))
            .unwrap();
        assert_eq!(a.file_id(2), FileId(100));
        assert_eq!(a.dense_id(FileId(101)), Some(3));
        assert_eq!(a.dense_id(FileId(6)), None);
        let b = sample().with_ids(IdMap::Table(vec![1, 2, 3, 4])).unwrap();
        assert_eq!(b.ids(), &IdMap::Offset(1));
        assert_eq!(b.dense_id(FileId(0)), None);
        assert!(matches!(
            sample().with_ids(IdMap::Table(vec![1, 1, 2, 3])),
            Err(ArenaError::BadIds { vertex: 1 })
        ));
        assert!(sample().with_ids(IdMap::Offset(u64::MAX)).is_err());
    }

    #[test]
    fn bad_parts() {
        assert!(matches!(
            Csr::from_parts(vec![0, 1], vec![1]),
            Err(CsrError::TargetOutOfRange { .. })
        ));
        assert!(Csr::from_parts(vec![], vec![]).is_err());
        assert!(Csr::from_parts(vec![0, 2, 1], vec![0, 0]).is_err());
        assert!(Csr::from_parts(vec![1, 1], vec![0]).is_err());
        assert!(Csr::try_from_edges(2, &[(0, 2)]).is_err());
        let csr = Csr::from_edges(1, &[(0, 0)]);
        assert!(matches!(
            Arena::new(vec![2], vec![0], csr.clone()),
            Err(ArenaError::BadOwner {
                vertex: 0,
                owner: 2
            })
        ));
        assert!(Arena::new(vec![0, 0], vec![0], csr.clone()).is_err());
        let a = Arena::new(vec![0], vec![0], csr).unwrap();
        assert!(a.clone().with_start(Some(1)).is_err());
        assert_eq!(a.with_start(Some(0)).unwrap().start(), Some(0));
    }

    #[test]
    fn from_edges_is_stable() {
        let csr = Csr::from_edges(3, &[(2, 1), (0, 2), (2, 0), (0, 1)]);
        assert_eq!(csr.successors(0), &[2, 1]);
        assert_eq!(csr.successors(1), &[] as &[u32]);
        assert_eq!(csr.successors(2), &[1, 0]);
        let t = csr.reverse();
        assert_eq!(t.successors(1), &[0, 2]);
        // Transposing twice sorts each list.
        assert_eq!(
            t.reverse(),
            Csr::from_edges(3, &[(0, 1), (0, 2), (2, 0), (2, 1)])
        );
    }

    #[test]
    fn names_and_equality() {
        let mut b = ArenaBuilder::new();
        b.push(0, 0, [0]);
        b.name_last("a");
        b.push(0, 0, [0]);
        let a = b.build().unwrap();
        assert_eq!(a.name(0), Some("a"));
        assert_eq!(a.name(1), None);
        let _ = a.reverse();
        let c = a.clone().with_names(vec![Some("a".into()), None]).unwrap();
        assert_eq!(a, c);
        let d = a.clone().with_names(vec![]).unwrap();
        assert_ne!(a, d);
    }
}
