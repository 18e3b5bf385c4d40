//! The one graph representation: compressed sparse rows with `u32` vertex ids, used by
//! exploration, the retrograde engine and the graph-game arenas alike. Offsets are `u64` by
//! default ([`Csr`]); the arenas of graph games, whose edges are counted in `u32`, keep them
//! in `u32` ([`Csr<u32>`]): 4 bytes a vertex less in each direction, which a search that
//! jumps from vertex to vertex reads at random.

use rayon::prelude::*;

/// Why a [`Csr`] could not be built from the parts it was handed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CsrError {
    /// Offsets that are empty, do not start at 0, decrease, or do not end at the number of
    /// targets.
    #[error("malformed CSR offsets: {reason}")]
    BadOffsets {
        /// What is wrong with them.
        reason: &'static str,
    },
    /// An edge to a vertex that does not exist.
    #[error("vertex {vertex} has successor {target}, but there are only {}", crate::number::count(*len as u128, "vertex", "vertices"))]
    TargetOutOfRange {
        /// The edge's source.
        vertex: u32,
        /// The target found.
        target: u32,
        /// The number of vertices.
        len: usize,
    },
    /// More vertices than `u32` ids can name.
    #[error("too many vertices for u32 ids: {count}")]
    TooManyVertices {
        /// The number of vertices asked for.
        count: u64,
    },
    /// More edges than the offsets' type can count ([`Csr<u32>`]: `u32::MAX`).
    #[error("too many edges for {bits}-bit offsets: {count}")]
    TooManyEdges {
        /// The number of edges asked for.
        count: u64,
        /// The width of the offsets.
        bits: u32,
    },
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// The type of a [`Csr`]'s offsets: `u64` (any graph) or `u32` (at most `u32::MAX` edges).
pub trait Offset:
    sealed::Sealed
    + Copy
    + Ord
    + Default
    + std::fmt::Debug
    + std::hash::Hash
    + Send
    + Sync
    + 'static
    + std::ops::AddAssign
    + std::ops::SubAssign
{
    /// The largest offset the type holds.
    const MAX: u64;
    /// One, to count with.
    const ONE: Self;
    /// The offset as an index.
    fn index(self) -> usize;
    /// The offset as a `u64`.
    fn wide(self) -> u64;
    /// `x` as an offset; the caller has checked `x <= Self::MAX`.
    fn of(x: u64) -> Self;
    /// Offsets all at most `u32::MAX` (checked by the caller) as `u32`: the vector itself
    /// when they are `u32` already.
    fn narrow_all(offsets: Vec<Self>) -> Vec<u32>;
}

impl Offset for u64 {
    const MAX: u64 = u64::MAX;
    const ONE: Self = 1;
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
    #[inline(always)]
    fn wide(self) -> u64 {
        self
    }
    #[inline(always)]
    fn of(x: u64) -> Self {
        x
    }
    fn narrow_all(offsets: Vec<Self>) -> Vec<u32> {
        offsets.into_iter().map(|o| o as u32).collect()
    }
}

impl Offset for u32 {
    const MAX: u64 = u32::MAX as u64;
    const ONE: Self = 1;
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
    #[inline(always)]
    fn wide(self) -> u64 {
        u64::from(self)
    }
    #[inline(always)]
    fn of(x: u64) -> Self {
        debug_assert!(x <= <Self as Offset>::MAX);
        x as u32
    }
    fn narrow_all(offsets: Vec<Self>) -> Vec<u32> {
        offsets
    }
}

/// A frozen directed graph in compressed sparse row form: the successors of `v` are
/// `targets[offsets[v]..offsets[v + 1]]`.
///
/// Memory: 8 bytes per vertex (offsets; 4 for [`Csr<u32>`]) and 4 bytes per edge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Csr<O: Offset = u64> {
    // Crate-visible so that exploration can build a graph it knows is valid without
    // re-checking it.
    pub(crate) offsets: Vec<O>,
    pub(crate) targets: Vec<u32>,
}

impl Csr {
    /// A graph from its raw arrays, checked.
    ///
    /// # Complexity
    /// O(V + E).
    ///
    /// # Errors
    /// [`CsrError`] if `offsets` is empty, does not start at 0, decreases, does not end at
    /// `targets.len()`, or a target is not a vertex.
    pub fn from_parts(offsets: Vec<u64>, targets: Vec<u32>) -> Result<Csr, CsrError> {
        Csr::checked(offsets, targets)
    }
}

impl Csr<u32> {
    /// [`Csr::from_parts`] with `u32` offsets.
    ///
    /// # Errors
    /// As [`Csr::from_parts`].
    pub fn from_narrow_parts(offsets: Vec<u32>, targets: Vec<u32>) -> Result<Csr<u32>, CsrError> {
        Csr::checked(offsets, targets)
    }
}

impl<O: Offset> Csr<O> {
    /// A graph from its raw arrays, checked.
    fn checked(offsets: Vec<O>, targets: Vec<u32>) -> Result<Csr<O>, CsrError> {
        let Some(&last) = offsets.last() else {
            return Err(CsrError::BadOffsets {
                reason: "there must be n + 1 offsets",
            });
        };
        if offsets[0] != O::default() {
            return Err(CsrError::BadOffsets {
                reason: "the first offset must be 0",
            });
        }
        if last.wide() != targets.len() as u64 {
            return Err(CsrError::BadOffsets {
                reason: "the last offset must equal the number of targets",
            });
        }
        if offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err(CsrError::BadOffsets {
                reason: "offsets must not decrease",
            });
        }
        let n = offsets.len() - 1;
        if n > u32::MAX as usize {
            return Err(CsrError::TooManyVertices { count: n as u64 });
        }
        // Every target below n (on every thread for large graphs); the vertex of the first
        // that is not, found after.
        let outside = |part: &[u32]| part.iter().position(|&t| t as usize >= n);
        let bad = if targets.len() < 1 << 16 {
            outside(&targets)
        } else {
            targets
                .par_chunks(1 << 16)
                .enumerate()
                .filter_map(|(i, part)| outside(part).map(|j| (i << 16) + j))
                .min()
        };
        if let Some(e) = bad {
            // The vertex whose edges hold edge e: the last with offsets[v] <= e.
            let v = offsets.partition_point(|&o| o.wide() <= e as u64) - 1;
            return Err(CsrError::TargetOutOfRange {
                vertex: v as u32,
                target: targets[e],
                len: n,
            });
        }
        Ok(Csr { offsets, targets })
    }
}

impl Csr {
    /// A graph with `n` vertices from a list of edges `(from, to)`; each vertex's
    /// successors in the order given.
    ///
    /// # Errors
    /// [`CsrError`] if an endpoint is not below `n` or `n` exceeds `u32` ids.
    pub fn try_from_edges(n: usize, edges: &[(u32, u32)]) -> Result<Csr, CsrError> {
        if n > u32::MAX as usize {
            return Err(CsrError::TooManyVertices { count: n as u64 });
        }
        if let Some(&(u, v)) = edges
            .iter()
            .find(|&&(u, v)| u as usize >= n || v as usize >= n)
        {
            return Err(CsrError::TargetOutOfRange {
                vertex: u,
                target: v,
                len: n,
            });
        }
        Ok(Csr::from_edges(n, edges))
    }

    /// A graph with `n` vertices from a list of edges `(from, to)`.
    ///
    /// # Panics
    /// If an endpoint is not below `n`.
    #[must_use]
    pub fn from_edges(n: usize, edges: &[(u32, u32)]) -> Csr {
        let mut offsets = vec![0u64; n + 1];
        for &(u, v) in edges {
            assert!(
                (u as usize) < n && (v as usize) < n,
                "edge endpoint out of range"
            );
            offsets[u as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill: Vec<u64> = offsets[..n].to_vec();
        let mut targets = vec![0u32; edges.len()];
        for &(u, v) in edges {
            targets[fill[u as usize] as usize] = v;
            fill[u as usize] += 1;
        }
        Csr { offsets, targets }
    }

    /// The same graph with `u32` offsets.
    ///
    /// # Errors
    /// [`CsrError::TooManyEdges`] if it has more than `u32::MAX` edges.
    pub fn narrow(self) -> Result<Csr<u32>, CsrError> {
        narrow(self)
    }
}

/// `csr` with `u32` offsets, or [`CsrError::TooManyEdges`].
fn narrow<O: Offset>(csr: Csr<O>) -> Result<Csr<u32>, CsrError> {
    let count = csr.targets.len() as u64;
    if count > <u32 as Offset>::MAX {
        return Err(CsrError::TooManyEdges { count, bits: 32 });
    }
    let Csr { offsets, targets } = csr;
    Ok(Csr {
        offsets: O::narrow_all(offsets),
        targets,
    })
}

impl<O: Offset> Csr<O> {
    /// The same graph with `u32` offsets (no copy if it has them already).
    ///
    /// # Errors
    /// [`CsrError::TooManyEdges`] if it has more than `u32::MAX` edges.
    pub fn into_narrow(self) -> Result<Csr<u32>, CsrError> {
        narrow(self)
    }

    /// The number of vertices.
    #[must_use]
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Whether the graph has no vertex.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of edges.
    #[must_use]
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }

    /// The successors of `v`, in insertion order.
    #[inline]
    #[must_use]
    pub fn successors(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.targets[self.offsets[v].index()..self.offsets[v + 1].index()]
    }

    /// The number of successors of `v`.
    #[inline]
    #[must_use]
    pub fn degree(&self, v: u32) -> u64 {
        self.offsets[v as usize + 1].wide() - self.offsets[v as usize].wide()
    }

    /// The graph with every edge reversed; the predecessors of each vertex come in
    /// increasing order.
    ///
    /// # Complexity
    /// O(V + E) time (a counting sort), 8·V + 4·E bytes.
    ///
    /// # Panics
    /// If the memory cannot be had; [`Csr::try_reverse`] refuses instead.
    #[must_use]
    pub fn reverse(&self) -> Csr<O> {
        self.try_reverse()
            .unwrap_or_else(|e| panic!("cannot reverse a graph: {e}"))
    }

    /// [`Csr::reverse`], refused when the memory cannot be had (a graph explored from a
    /// user's game may fill the memory; its reverse is as large again).
    ///
    /// # Errors
    /// [`crate::Error::TooLarge`] with the bytes asked for.
    pub fn try_reverse(&self) -> Result<Csr<O>, crate::Error> {
        // Each vertex's range is filled from its end, so no array of fill positions is needed
        // and predecessors come out in ascending order. The reverse has as many edges as the
        // graph: its offsets fit the same type.
        let k = self.len();
        let mut offsets = crate::memory::filled(k + 1, O::default(), "the reverse graph")?;
        for &t in &self.targets {
            offsets[t as usize] += O::ONE;
        }
        let mut total = O::default();
        for o in &mut offsets[..k] {
            total += *o;
            *o = total;
        }
        offsets[k] = total;
        let mut targets = crate::memory::filled(self.targets.len(), 0u32, "the reverse graph")?;
        for u in (0..k).rev() {
            let out = &self.targets[self.offsets[u].index()..self.offsets[u + 1].index()];
            for &t in out.iter().rev() {
                let slot = &mut offsets[t as usize];
                *slot -= O::ONE;
                targets[slot.index()] = u as u32;
            }
        }
        Ok(Csr { offsets, targets })
    }

    /// The raw offsets array (`len() + 1` entries).
    #[must_use]
    pub fn offsets(&self) -> &[O] {
        &self.offsets
    }

    /// The raw targets array.
    #[must_use]
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }

    /// The raw arrays `(offsets, targets)`.
    #[must_use]
    pub fn into_parts(self) -> (Vec<O>, Vec<u32>) {
        (self.offsets, self.targets)
    }
}

impl Default for Csr {
    /// The graph without vertices.
    fn default() -> Self {
        Csr {
            offsets: vec![0],
            targets: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;

    /// A bad target is found and named by its vertex, in small graphs and in large ones
    /// (checked in parts), first among several, past empty vertices.
    #[test]
    fn from_parts_names_the_first_bad_target() {
        for n in [6usize, 200_001] {
            // Vertex v has v % 3 edges, to v.
            let mut offsets = vec![0u64];
            let mut targets = Vec::new();
            for v in 0..n as u32 {
                targets.extend(std::iter::repeat_n(v, v as usize % 3));
                offsets.push(targets.len() as u64);
            }
            assert!(Csr::from_parts(offsets.clone(), targets.clone()).is_ok());
            let v = n as u32 - 1;
            let at = offsets[v as usize] as usize;
            targets[at] = n as u32;
            targets[at + 1] = n as u32 + 1;
            let w = n as u32 - 4;
            let later = Csr::from_parts(offsets.clone(), targets.clone()).unwrap_err();
            assert_eq!(
                later,
                CsrError::TargetOutOfRange {
                    vertex: v,
                    target: n as u32,
                    len: n
                }
            );
            targets[offsets[w as usize] as usize + 1] = u32::MAX;
            let first = Csr::from_parts(offsets, targets).unwrap_err();
            assert_eq!(
                first,
                CsrError::TargetOutOfRange {
                    vertex: w,
                    target: u32::MAX,
                    len: n
                }
            );
        }
    }

    #[test]
    fn reverse_lists_predecessors() {
        let g = Csr::from_edges(4, &[(0, 1), (0, 2), (1, 2), (3, 2), (2, 0)]);
        let r = g.reverse();
        assert_eq!(r.successors(2), &[0, 1, 3]);
        assert_eq!(r.successors(0), &[2]);
        assert_eq!(r.successors(3), &[] as &[u32]);
        assert_eq!(r.reverse(), g);
        assert_eq!(g.degree(0), 2);
    }

    #[test]
    fn bad_parts_are_refused() {
        assert!(Csr::from_parts(vec![0, 1], vec![1]).is_err());
        assert!(Csr::from_parts(vec![], vec![]).is_err());
        assert!(Csr::from_parts(vec![0, 2, 1], vec![0, 0]).is_err());
        assert!(Csr::from_parts(vec![1, 1], vec![0]).is_err());
        assert!(Csr::try_from_edges(2, &[(0, 2)]).is_err());
        assert_eq!(
            Csr::from_parts(vec![0, 1], vec![0]).unwrap().edge_count(),
            1
        );
        assert_eq!(Csr::default().len(), 0);
    }

    /// Narrow offsets (`Csr<u32>`) hold the same graph as wide ones: the same successors and
    /// degrees, the same reverse, and the same checks on raw parts.
    #[test]
    fn narrow_offsets_give_the_same_graph() {
        let graphs = (1usize..12).prop_flat_map(|n| {
            (
                proptest::strategy::Just(n),
                proptest::collection::vec((0..n as u32, 0..n as u32), 0..4 * n),
            )
        });
        proptest::test_runner::TestRunner::default()
            .run(&graphs, |(n, edges)| {
                let wide = Csr::from_edges(n, &edges);
                let narrow = wide.clone().narrow().unwrap();
                proptest::prop_assert_eq!(narrow.len(), n);
                proptest::prop_assert_eq!(narrow.edge_count(), edges.len());
                for v in 0..n as u32 {
                    proptest::prop_assert_eq!(narrow.successors(v), wide.successors(v));
                    proptest::prop_assert_eq!(narrow.degree(v), wide.degree(v));
                }
                let reverse = narrow.reverse();
                proptest::prop_assert_eq!(&reverse, &wide.reverse().narrow().unwrap());
                proptest::prop_assert_eq!(reverse.clone().into_narrow().unwrap(), reverse);
                let (offsets, targets) = narrow.clone().into_parts();
                proptest::prop_assert_eq!(
                    Csr::from_narrow_parts(offsets.clone(), targets.clone()),
                    Ok(narrow)
                );
                if let Some(t) = targets.first() {
                    let mut bad = targets.clone();
                    bad[0] = n as u32 + t;
                    proptest::prop_assert!(Csr::from_narrow_parts(offsets, bad).is_err());
                }
                Ok(())
            })
            .unwrap();
        assert!(Csr::from_narrow_parts(vec![0, 2, 1], vec![0, 0]).is_err());
        assert!(Csr::from_narrow_parts(vec![], vec![]).is_err());
    }
}
