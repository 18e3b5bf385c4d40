//! Strongly connected components of a restricted graph, by Pearce's space-efficient variant
//! of Tarjan's algorithm (D. J. Pearce, "A space-efficient algorithm for finding strongly
//! connected components", IPL 2016), run with an explicit stack: arenas have millions of
//! vertices, and recursion would overflow.
//!
//! The graph is given by two closures: `edges(v)` lists candidate successors of `v` and
//! `keep(w)` says whether a successor belongs to the graph. Components are reported in the
//! order Tarjan finds them — reverse topological: a component is reported only after every
//! component it reaches.
//!
//! One `u32` per vertex (`rindex`) serves as visit order, low link and, once its component is
//! reported, component number; whether a vertex is still a candidate root is one bit. Against
//! the textbook three words per vertex this writes a third of the memory, which on large
//! arenas is most of the cost (the kernel zeroes every fresh page a search touches).

/// What [`Scc::scan`] found on a vertex's edges.
struct Scan {
    /// The position after the last edge read.
    next: usize,
    low: u32,
    lowered_by: Option<u32>,
    descend: Option<u32>,
}

/// "No move yet" in [`Scc::moves_to_root`]'s frames.
const NO_MOVE: u32 = u32::MAX;

/// Scratch for Pearce's algorithm on graphs of up to `n` vertices.
///
/// A *run* starts with [`clear`](Self::clear) (or at creation) and may search from many
/// roots; within a run a vertex is visited at most once. The table is zero outside the
/// vertices visited in the current run, so a run costs O(the vertices and edges it reaches),
/// not O(n) — provided the next `clear` names every vertex the run visited.
#[derive(Debug, Clone)]
pub(crate) struct Scc {
    /// 0: not visited in this run; up to the number of open vertices: the visit index or
    /// low link of a vertex still open; above that: the number of its reported component.
    rindex: Vec<u32>,
    /// Bit v: `v` is still a candidate root (no edge found to an earlier open vertex).
    root: Vec<u64>,
    /// 1 + the number of open vertices (visited, component not yet reported).
    index: u32,
    /// The number the next reported component gets; counts down from n.
    next: u32,
    /// Open vertices that are not candidate roots, in visit order.
    stack: Vec<u32>,
    /// The depth-first path: a vertex and the position of its next edge.
    call: Vec<(u32, u32)>,
    /// The path of [`moves_to_root`](Self::moves_to_root): vertex, next edge, low link and
    /// the successor that gave it.
    frames: Vec<[u32; 4]>,
    /// Vertices visited since the last clear (checked in debug builds).
    #[cfg(debug_assertions)]
    visits: usize,
}

impl Scc {
    /// Tables for graphs with vertices `0..n`; nothing is visited. The tables are
    /// allocated zeroed and the stacks reserved, not written: untouched pages cost nothing.
    pub(crate) fn new(n: usize) -> Scc {
        let n32 = u32::try_from(n).expect("vertex ids are u32");
        Scc {
            rindex: vec![0; n],
            root: vec![0; n.div_ceil(64)],
            index: 1,
            next: n32,
            stack: Vec::with_capacity(n),
            call: Vec::with_capacity(n),
            frames: Vec::new(),
            #[cfg(debug_assertions)]
            visits: 0,
        }
    }

    /// Forgets the visits of `vertices` and starts a new run. Every vertex visited since the
    /// last clear must be among them (debug builds check the count).
    ///
    /// # Complexity
    /// O(|vertices|).
    pub(crate) fn clear(&mut self, vertices: impl IntoIterator<Item = u32>) {
        for v in vertices {
            let r = &mut self.rindex[v as usize];
            #[cfg(debug_assertions)]
            {
                self.visits -= usize::from(*r != 0);
            }
            *r = 0;
        }
        #[cfg(debug_assertions)]
        assert_eq!(self.visits, 0, "a cleared run left visited vertices");
        self.start_run();
    }

    /// Forgets the visit of `v` once the run's searches are over (so that [`visited`] and
    /// [`component`] can serve as marks while the components are used).
    ///
    /// [`visited`]: Self::visited
    /// [`component`]: Self::component
    #[inline]
    pub(crate) fn clear_one(&mut self, v: u32) {
        let r = &mut self.rindex[v as usize];
        #[cfg(debug_assertions)]
        {
            self.visits -= usize::from(*r != 0);
        }
        *r = 0;
    }

    /// Forgets every visit and starts a new run.
    ///
    /// # Complexity
    /// O(n), a fill of one word per vertex.
    pub(crate) fn clear_all(&mut self) {
        self.rindex.fill(0);
        #[cfg(debug_assertions)]
        {
            self.visits = 0;
        }
        self.start_run();
    }

    /// Marks `v` as belonging to a component reported earlier, so that this run's searches
    /// neither enter it nor take its edges into account: the same as a `keep` closure that
    /// refuses `v`, for one write per excluded vertex instead of one read per edge. Counts as
    /// a visit for [`clear`](Self::clear).
    #[inline]
    pub(crate) fn exclude(&mut self, v: u32) {
        let r = &mut self.rindex[v as usize];
        #[cfg(debug_assertions)]
        {
            self.visits += usize::from(*r == 0);
        }
        // Above every number a component of this run gets (at most n).
        *r = u32::MAX;
    }

    fn start_run(&mut self) {
        self.index = 1;
        self.next = self.rindex.len() as u32;
    }

    /// Whether `v` was visited in this run.
    #[inline]
    pub(crate) fn visited(&self, v: u32) -> bool {
        self.rindex[v as usize] != 0
    }

    /// The number of the component of `v`, reported in this run: equal for two vertices
    /// exactly when they are in one component.
    #[inline]
    pub(crate) fn component(&self, v: u32) -> u32 {
        self.rindex[v as usize]
    }

    /// Visits everything reachable from `root` (if not yet visited in this run) and calls
    /// `component` with each new component's vertices.
    ///
    /// # Complexity
    /// O(vertices reached + the candidate edges of those vertices).
    pub(crate) fn search<'g, E, K, C>(&mut self, root: u32, edges: E, keep: K, mut component: C)
    where
        E: Fn(u32) -> &'g [u32],
        K: Fn(u32) -> bool,
        C: FnMut(&[u32]),
    {
        if self.visited(root) {
            return;
        }
        self.enter(root);
        while let Some(&(v, at)) = self.call.last() {
            let out = edges(v);
            // Reported components are numbered above every open index: they never lower.
            let scan = self.scan(out, at as usize, &keep, self.rindex[v as usize]);
            let (i, low, descend) = (scan.next, scan.low, scan.descend);
            if scan.lowered_by.is_some() {
                self.unroot(v);
            }
            self.rindex[v as usize] = low;
            if let Some(w) = descend {
                self.call.last_mut().expect("non-empty").1 = i as u32;
                self.enter(w);
                continue;
            }
            self.call.pop();
            if self.is_root(v) {
                // v's component: v and the open vertices visited after it.
                let mut at = self.stack.len();
                while at > 0 && low <= self.rindex[self.stack[at - 1] as usize] {
                    at -= 1;
                }
                self.stack.push(v);
                let size = (self.stack.len() - at) as u32;
                self.index -= size;
                for &x in &self.stack[at..] {
                    self.rindex[x as usize] = self.next;
                }
                self.next -= 1;
                component(&self.stack[at..]);
                self.stack.truncate(at);
            } else {
                self.stack.push(v);
                let p = self.call.last().expect("a non-root has a parent").0;
                if low < self.rindex[p as usize] {
                    self.rindex[p as usize] = low;
                    self.unroot(p);
                }
            }
        }
    }

    /// Moves that lead every vertex of one strongly connected component back to `root`: a
    /// depth-first search from `root` through the vertices `keep` accepts (they must form
    /// one component), calling `play(v, w)` once for each, with `w` a successor `keep`
    /// accepts, so that every cycle of these moves passes through `root`. A vertex other than
    /// the root moves along the edge that gave its low link (Tarjan's, with visit indices):
    /// low links never grow along the moves, and a cycle on which they stay equal must pass
    /// a vertex whose low link is its own index, which in one component is only the root.
    /// The root moves to its first successor in the component.
    ///
    /// Runs as a search of its own: the vertices it visits (all that `keep` accepts) must be
    /// cleared before the next run, and must not have been visited in this one.
    ///
    /// # Complexity
    /// O(the component's vertices and their candidate edges).
    pub(crate) fn moves_to_root<'g, E, K, P>(&mut self, root: u32, edges: E, keep: K, mut play: P)
    where
        E: Fn(u32) -> &'g [u32],
        K: Fn(u32) -> bool,
        P: FnMut(u32, u32),
    {
        debug_assert!(!self.visited(root) && keep(root));
        let mut index = 1u32;
        self.rindex[root as usize] = index;
        #[cfg(debug_assertions)]
        {
            self.visits += 1;
        }
        self.frames.clear();
        self.frames.push([root, 0, index, NO_MOVE]);
        while let Some(&[v, at, low, via]) = self.frames.last() {
            let out = edges(v);
            let scan = self.scan(out, at as usize, &keep, low);
            let (i, low, descend) = (scan.next, scan.low, scan.descend);
            let via = scan.lowered_by.unwrap_or(via);
            if let Some(w) = descend {
                *self.frames.last_mut().expect("non-empty") = [v, i as u32, low, via];
                index += 1;
                self.rindex[w as usize] = index;
                #[cfg(debug_assertions)]
                {
                    self.visits += 1;
                }
                self.frames.push([w, 0, index, NO_MOVE]);
                continue;
            }
            self.frames.pop();
            match self.frames.last_mut() {
                Some(parent) => {
                    debug_assert!(via != NO_MOVE, "a non-root has an edge back up");
                    play(v, via);
                    if low < parent[2] {
                        parent[2] = low;
                        parent[3] = v;
                    }
                }
                None => {
                    let first = out
                        .iter()
                        .copied()
                        .find(|&w| keep(w))
                        .expect("the root of a component with a cycle has a successor in it");
                    play(v, first);
                }
            }
        }
    }

    /// Scans the candidate edges `out[i..]` until one leads to a kept, unvisited vertex
    /// (`descend`) or they run out, lowering `low` to the smallest `rindex` of the kept,
    /// visited successors met on the way (`lowered_by`: the last one that lowered it).
    #[inline]
    fn scan(&self, out: &[u32], mut i: usize, keep: &impl Fn(u32) -> bool, mut low: u32) -> Scan {
        let mut lowered_by = None;
        while i < out.len() {
            let w = out[i];
            i += 1;
            if !keep(w) {
                continue;
            }
            let rw = self.rindex[w as usize];
            if rw == 0 {
                return Scan {
                    next: i,
                    low,
                    lowered_by,
                    descend: Some(w),
                };
            }
            if rw < low {
                low = rw;
                lowered_by = Some(w);
            }
        }
        Scan {
            next: i,
            low,
            lowered_by,
            descend: None,
        }
    }

    #[inline]
    fn enter(&mut self, v: u32) {
        self.rindex[v as usize] = self.index;
        self.index += 1;
        self.root[v as usize / 64] |= 1 << (v % 64);
        self.call.push((v, 0));
        #[cfg(debug_assertions)]
        {
            self.visits += 1;
        }
    }

    #[inline]
    fn is_root(&self, v: u32) -> bool {
        self.root[v as usize / 64] >> (v % 64) & 1 != 0
    }

    #[inline]
    fn unroot(&mut self, v: u32) {
        self.root[v as usize / 64] &= !(1 << (v % 64));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csr::Csr;

    /// Components of the graph restricted to `keep`, reported by one run from every root.
    fn components(scc: &mut Scc, g: &Csr, keep: &dyn Fn(u32) -> bool) -> Vec<Vec<u32>> {
        let mut found: Vec<Vec<u32>> = Vec::new();
        for r in 0..g.len() as u32 {
            if keep(r) {
                scc.search(
                    r,
                    |v| g.successors(v),
                    keep,
                    |c| {
                        let mut c = c.to_vec();
                        c.sort_unstable();
                        found.push(c);
                    },
                );
            }
        }
        found
    }

    /// A random graph of 1 to `max` vertices and up to three edges a vertex on average.
    fn random_graph(rng: &mut crate::graph::parity::generate::Rng, max: u64) -> (usize, Csr) {
        let n = 1 + rng.below(max) as usize;
        let m = rng.below(3 * n as u64 + 1) as usize;
        let edges: Vec<(u32, u32)> = (0..m)
            .map(|_| (rng.below(n as u64) as u32, rng.below(n as u64) as u32))
            .collect();
        (n, Csr::from_edges(n, &edges))
    }

    #[test]
    fn components_in_reverse_topological_order() {
        // 0 → 1 → 2 → 0, 2 → 3, 3 → 4 → 3, 5 alone
        let g = Csr::from_edges(6, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 3)]);
        let mut t = Scc::new(6);
        let found = components(&mut t, &g, &|_| true);
        assert_eq!(found, vec![vec![3, 4], vec![0, 1, 2], vec![5]]);
        assert_eq!(t.component(0), t.component(2));
        assert_ne!(t.component(0), t.component(3));
        // Restricted: without vertex 2 the triangle falls apart.
        t.clear(0..6);
        let mut found = Vec::new();
        t.search(
            0,
            |v| g.successors(v),
            |w| w != 2,
            |c| found.push(c.to_vec()),
        );
        assert_eq!(found, vec![vec![1], vec![0]]);
        assert!(t.visited(1) && !t.visited(2) && !t.visited(3));
    }

    #[test]
    fn a_long_path_does_not_overflow() {
        let n = 200_000u32;
        let edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).chain([(n - 1, 0)]).collect();
        let g = Csr::from_edges(n as usize, &edges);
        let mut t = Scc::new(n as usize);
        let mut sizes = Vec::new();
        t.search(0, |v| g.successors(v), |_| true, |c| sizes.push(c.len()));
        assert_eq!(sizes, vec![n as usize]);
    }

    /// Against mutual reachability on random restricted graphs, with runs separated by
    /// partial clears and whole clears of one reused table.
    #[test]
    fn matches_mutual_reachability() {
        let mut rng = crate::graph::parity::generate::Rng::new(0x5cc5_7a12_0b1d_9e3fu64);
        let mut t = Scc::new(40);
        for round in 0..300 {
            let (n, g) = random_graph(&mut rng, 40);
            let kept: Vec<bool> = (0..n).map(|_| rng.below(5) != 0).collect();
            let keep = |w: u32| kept[w as usize];
            // reach[u][v]: v reachable from u inside the kept graph (u itself included).
            let mut reach = vec![vec![false; n]; n];
            for u in 0..n {
                if !kept[u] {
                    continue;
                }
                let mut todo = vec![u as u32];
                reach[u][u] = true;
                while let Some(x) = todo.pop() {
                    for &y in g.successors(x) {
                        if kept[y as usize] && !reach[u][y as usize] {
                            reach[u][y as usize] = true;
                            todo.push(y);
                        }
                    }
                }
            }
            let found = components(&mut t, &g, &keep);
            let mut seen = vec![false; n];
            for (i, c) in found.iter().enumerate() {
                for &x in c {
                    assert!(!seen[x as usize], "round {round}: {x} reported twice");
                    seen[x as usize] = true;
                    for &y in c {
                        assert!(reach[x as usize][y as usize], "round {round}");
                        assert_eq!(t.component(x), t.component(y), "round {round}");
                    }
                    // Reverse topological: nothing reachable lies in a later component.
                    for later in &found[i + 1..] {
                        for &y in later {
                            assert!(!reach[x as usize][y as usize], "round {round}");
                        }
                    }
                }
                let outside = (0..n as u32).filter(|&y| kept[y as usize] && !c.contains(&y));
                for y in outside {
                    let x = c[0] as usize;
                    assert!(
                        !(reach[x][y as usize] && reach[y as usize][x]),
                        "round {round}"
                    );
                }
            }
            assert_eq!(seen, kept, "round {round}: every kept vertex, once");
            if round % 2 == 0 {
                t.clear((0..n as u32).filter(|&v| kept[v as usize]));
            } else {
                t.clear_all();
            }
        }
    }

    /// Excluding vertices up front reports the same components, in the same order, as a
    /// `keep` that refuses them; and a clear that names the excluded vertices clears them.
    #[test]
    fn excluding_is_refusing() {
        let mut rng = crate::graph::parity::generate::Rng::new(0x0e8c_1ade_5cc0_0004u64);
        let (mut a, mut b) = (Scc::new(40), Scc::new(40));
        for round in 0..300 {
            let (n, g) = random_graph(&mut rng, 40);
            let kept: Vec<bool> = (0..n).map(|_| rng.below(4) != 0).collect();
            let want = components(&mut a, &g, &|w| kept[w as usize]);
            for v in (0..n as u32).filter(|&v| !kept[v as usize]) {
                b.exclude(v);
            }
            // Every root is tried: excluded ones read as visited.
            let got = components(&mut b, &g, &|_| true);
            assert_eq!(got, want, "round {round}");
            a.clear_all();
            b.clear(0..n as u32);
        }
    }

    /// `moves_to_root` on every component with a cycle of random graphs, from a random
    /// member: each member moves once, inside its component, and following the moves from
    /// anywhere reaches the root (so every cycle of the moves passes through it).
    #[test]
    fn moves_lead_back_to_the_root() {
        let mut rng = crate::graph::parity::generate::Rng::new(0x6d0e_5b00_7a11_0003u64);
        let mut t = Scc::new(30);
        for round in 0..300 {
            let (n, g) = random_graph(&mut rng, 30);
            let comps = components(&mut t, &g, &|_| true);
            t.clear_all();
            for comp in comps {
                if comp.len() == 1 && !g.successors(comp[0]).contains(&comp[0]) {
                    continue;
                }
                let root = comp[rng.below(comp.len() as u64) as usize];
                let inside = |w: u32| comp.contains(&w);
                let mut moves = vec![u32::MAX; n];
                t.moves_to_root(
                    root,
                    |v| g.successors(v),
                    inside,
                    |v, w| {
                        assert_eq!(moves[v as usize], u32::MAX, "round {round}: {v} twice");
                        moves[v as usize] = w;
                    },
                );
                for &v in &comp {
                    let w = moves[v as usize];
                    assert!(g.successors(v).contains(&w) && inside(w), "round {round}");
                    // Within |comp| moves from v the root comes up.
                    let mut x = v;
                    let mut hit = false;
                    for _ in 0..comp.len() {
                        x = moves[x as usize];
                        hit |= x == root;
                    }
                    assert!(hit, "round {round}: a cycle of moves avoids the root");
                }
                t.clear(comp.iter().copied());
            }
        }
    }
}
