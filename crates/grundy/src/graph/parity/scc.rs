//! Strongly connected components of a restricted graph, by Tarjan's algorithm run with an
//! explicit stack (arenas have millions of vertices; recursion would overflow).
//!
//! The graph is given by two closures: `edges(v)` lists candidate successors of `v` and
//! `keep(w)` says whether a successor belongs to the graph. Components are reported in the
//! order Tarjan finds them — reverse topological: a component is reported only after every
//! component it reaches.

/// Per-vertex state of a search, in one record so that a visit touches one cache line:
/// `[stamp, index, low]` — the run that visited the vertex (unvisited in this run if
/// different), its visit order ([`DONE`] once its component is reported), and its low link.
/// An array of `u32` rather than a struct so that a table of them is allocated zeroed
/// (`vec![[0; 3]; n]` asks the allocator for zeroed memory, which the kernel maps lazily):
/// a search pays only for the vertices it visits, not for the table.
type Node = [u32; 3];
const STAMP: usize = 0;
const INDEX: usize = 1;
const LOW: usize = 2;

/// The index of a vertex whose component has been reported (no longer on the stack).
const DONE: u32 = u32::MAX;

/// Scratch for Tarjan's algorithm on graphs of up to `n` vertices. Visits are stamped, so a
/// search costs O(vertices and edges it reaches), not O(n), and runs allocate nothing once
/// the stacks have grown.
#[derive(Debug, Clone)]
pub(crate) struct Tarjan {
    node: Vec<Node>,
    run: u32,
    counter: u32,
    stack: Vec<u32>,
    call: Vec<(u32, u32)>,
}

impl Tarjan {
    pub(crate) fn new(n: usize) -> Tarjan {
        // The stacks' room is reserved, not written: untouched pages cost nothing.
        Tarjan {
            node: vec![[0; 3]; n],
            run: 0,
            counter: 0,
            stack: Vec::with_capacity(n),
            call: Vec::with_capacity(n),
        }
    }

    /// Starts a new run: every vertex counts as unvisited again.
    pub(crate) fn reset(&mut self) {
        self.run = self.run.wrapping_add(1);
        if self.run == 0 {
            self.node.fill([0; 3]);
            self.run = 1;
        }
        self.counter = 0;
    }

    /// Whether `v` was visited in this run.
    #[inline]
    pub(crate) fn visited(&self, v: u32) -> bool {
        self.node[v as usize][STAMP] == self.run
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
        while let Some(&(v, i)) = self.call.last() {
            let out = edges(v);
            let mut i = i as usize;
            // Scan edges until one leads to an unvisited vertex (descend) or they run out.
            let mut low = self.node[v as usize][LOW];
            let mut descend = None;
            while i < out.len() {
                let w = out[i];
                i += 1;
                if !keep(w) {
                    continue;
                }
                let nw = self.node[w as usize];
                if nw[STAMP] != self.run {
                    descend = Some(w);
                    break;
                }
                if nw[INDEX] < low {
                    // On the stack (DONE is larger than any index).
                    low = nw[INDEX];
                }
            }
            self.node[v as usize][LOW] = low;
            if let Some(w) = descend {
                self.call.last_mut().expect("non-empty").1 = i as u32;
                self.enter(w);
                continue;
            }
            self.call.pop();
            if let Some(&(p, _)) = self.call.last() {
                let lp = &mut self.node[p as usize][LOW];
                if low < *lp {
                    *lp = low;
                }
            }
            if low == self.node[v as usize][INDEX] {
                let at = self
                    .stack
                    .iter()
                    .rposition(|&x| x == v)
                    .expect("a root is on the stack");
                for &x in &self.stack[at..] {
                    self.node[x as usize][INDEX] = DONE;
                }
                component(&self.stack[at..]);
                self.stack.truncate(at);
            }
        }
    }

    #[inline]
    fn enter(&mut self, v: u32) {
        self.node[v as usize] = [self.run, self.counter, self.counter];
        self.counter += 1;
        self.stack.push(v);
        self.call.push((v, 0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csr::Csr;

    #[test]
    fn components_in_reverse_topological_order() {
        // 0 → 1 → 2 → 0, 2 → 3, 3 → 4 → 3, 5 alone
        let g = Csr::from_edges(6, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 3)]);
        let mut t = Tarjan::new(6);
        t.reset();
        let mut found: Vec<Vec<u32>> = Vec::new();
        for r in 0..6 {
            t.search(
                r,
                |v| g.successors(v),
                |_| true,
                |c| {
                    let mut c = c.to_vec();
                    c.sort_unstable();
                    found.push(c);
                },
            );
        }
        assert_eq!(found, vec![vec![3, 4], vec![0, 1, 2], vec![5]]);
        // Restricted: without vertex 2 the triangle falls apart.
        t.reset();
        found.clear();
        t.search(
            0,
            |v| g.successors(v),
            |w| w != 2,
            |c| found.push(c.to_vec()),
        );
        assert_eq!(found, vec![vec![1], vec![0]]);
    }

    #[test]
    fn a_long_path_does_not_overflow() {
        let n = 200_000u32;
        let edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).chain([(n - 1, 0)]).collect();
        let g = Csr::from_edges(n as usize, &edges);
        let mut t = Tarjan::new(n as usize);
        t.reset();
        let mut sizes = Vec::new();
        t.search(0, |v| g.successors(v), |_| true, |c| sizes.push(c.len()));
        assert_eq!(sizes, vec![n as usize]);
    }
}
