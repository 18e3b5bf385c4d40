//! Winner-controlled winning cycles: cycles all of whose vertices belong to one player and
//! whose top priority has that player's parity. The player wins every vertex of such a cycle
//! by going round it, whatever the rest of the game; on random games this alone solves most
//! of the arena once the engine attracts to what it finds.
//!
//! For player β the search is a one-player parity game on β's own vertices and the edges
//! between them: in each strongly connected component whose top priority has β's parity, β
//! wins everything (reach the top vertex inside the component, then leave it inside the
//! component: every cycle then tops at it); a component topped by the opponent's parity loses
//! its vertices above its best β-priority and is split again.
//!
//! The subgraph is first copied into a compact CSR with ids `0..k` (k = β's unsolved
//! vertices): on large random games the searches then touch half the memory of the arena and
//! stay in cache far more often. The copy, its reverse and the search's tables live in a
//! [`CycleSearch`] that both players' searches (and the pipeline's SCC pass, through its
//! [`Tarjan`]) reuse: on large arenas, fresh memory is the cost — the kernel zeroes every new
//! page — more than the search itself.
//!
//! # Complexity
//! O(a · (n + m)) for a the number of parity alternations among the priorities; a work budget
//! stops the refinement early (what is found so far stays valid) on games where that would
//! cost more than a few passes over the graph.

use super::scc::Tarjan;
use super::NONE;
use crate::graph::arena::Arena;

/// Reusable tables for [`winner_cycles`](CycleSearch::winner_cycles).
#[derive(Debug)]
pub(crate) struct CycleSearch {
    /// Compact id → vertex.
    global: Vec<u32>,
    offsets: Vec<u64>,
    targets: Vec<u32>,
    rev_offsets: Vec<u64>,
    rev_targets: Vec<u32>,
    priority: Vec<u32>,
    /// The sub-problem each compact vertex belongs to (0: none; NONE: marked while solving).
    group: Vec<u32>,
    buf: Vec<u32>,
    starts: Vec<usize>,
    bfs: Vec<u32>,
    /// Strongly connected components, for this search and the pipeline's.
    pub(crate) tarjan: Tarjan,
}

impl CycleSearch {
    /// Tables for `arena`. Room for the largest search is reserved up front: reserved memory
    /// costs nothing until it is written, while a vector that grows by doubling writes
    /// (and so zeroes and copies) twice what it ends up holding.
    pub(crate) fn new(arena: &Arena) -> CycleSearch {
        let (n, m) = (arena.len(), arena.edge_count());
        CycleSearch {
            global: Vec::with_capacity(n),
            offsets: Vec::with_capacity(n + 1),
            targets: Vec::with_capacity(m),
            rev_offsets: Vec::with_capacity(n + 1),
            rev_targets: Vec::with_capacity(m),
            priority: Vec::with_capacity(n),
            group: Vec::with_capacity(n),
            buf: Vec::with_capacity(n),
            starts: Vec::new(),
            bfs: Vec::with_capacity(n),
            tarjan: Tarjan::new(n),
        }
    }

    /// Finds winner-controlled winning cycles of `player` among the vertices for which
    /// `open` holds, and calls `won(v, move)` for each vertex found (every one of them is
    /// owned by `player`, and `move` keeps the play in what was found). `local` is scratch
    /// with one entry per vertex of `arena`, all [`NONE`], and is left so.
    pub(crate) fn winner_cycles(
        &mut self,
        arena: &Arena,
        player: u8,
        open: impl Fn(u32) -> bool,
        local: &mut [u32],
        mut won: impl FnMut(u32, u32),
    ) {
        // The compact subgraph: player's open vertices and the edges among them.
        let global = &mut self.global;
        global.clear();
        global.extend(
            arena
                .vertices()
                .filter(|&v| arena.owner(v) == player && open(v)),
        );
        if global.is_empty() {
            return;
        }
        for (i, &v) in global.iter().enumerate() {
            local[v as usize] = i as u32;
        }
        let k = global.len();
        let (offsets, targets) = (&mut self.offsets, &mut self.targets);
        offsets.clear();
        targets.clear();
        offsets.push(0u64);
        for &v in global.iter() {
            targets.extend(
                arena
                    .successors(v)
                    .iter()
                    .map(|&w| local[w as usize])
                    .filter(|&l| l != NONE),
            );
            offsets.push(targets.len() as u64);
        }
        for &v in global.iter() {
            local[v as usize] = NONE;
        }
        let global = &self.global;
        let (offsets, targets) = (&self.offsets, &self.targets);
        let successors =
            |y: u32| &targets[offsets[y as usize] as usize..offsets[y as usize + 1] as usize];
        let priority = &mut self.priority;
        priority.clear();
        priority.extend(global.iter().map(|&v| arena.priority(v)));
        let priority = &self.priority;
        // The reverse graph, built when the first component is won.
        let mut reversed = false;

        let group = &mut self.group;
        group.clear();
        group.resize(k, 1);
        // A task's vertices; `None` for the first task, all of them (no list is built).
        let mut tasks: Vec<(u32, Option<Vec<u32>>)> = vec![(1, None)];
        let mut next_label = 2u32;
        let mut budget = 8 * (arena.len() + arena.edge_count()) as u64 + 1024;
        let (tarjan, buf, starts, bfs) = (
            &mut self.tarjan,
            &mut self.buf,
            &mut self.starts,
            &mut self.bfs,
        );
        while let Some((label, verts)) = tasks.pop() {
            let cost = verts.as_ref().map_or(k, Vec::len) as u64 * 4;
            if cost > budget {
                continue;
            }
            budget -= cost;
            buf.clear();
            starts.clear();
            starts.push(0);
            tarjan.reset();
            {
                let group = &*group;
                let keep = |w: u32| group[w as usize] == label;
                let mut visit = |x: u32| {
                    tarjan.search(x, successors, keep, |comp| {
                        let y = comp[0];
                        if comp.len() > 1 || successors(y).contains(&y) {
                            buf.extend_from_slice(comp);
                            starts.push(buf.len());
                        }
                    });
                };
                match &verts {
                    Some(verts) => verts.iter().copied().for_each(&mut visit),
                    None => (0..k as u32).for_each(&mut visit),
                }
            }
            for c in 0..starts.len() - 1 {
                let comp = &buf[starts[c]..starts[c + 1]];
                let top = comp
                    .iter()
                    .copied()
                    .max_by_key(|&x| priority[x as usize])
                    .expect("components are non-empty");
                let l = next_label;
                next_label += 1;
                for &x in comp {
                    group[x as usize] = l;
                }
                if priority[top as usize] & 1 == u32::from(player) {
                    // Won: moves toward `top` along a breadth-first tree of reverse edges
                    // inside the component, and from `top` to any successor inside it.
                    if !reversed {
                        crate::csr::reverse_into(
                            offsets,
                            targets,
                            &mut self.rev_offsets,
                            &mut self.rev_targets,
                        );
                        reversed = true;
                    }
                    let (ro, rt) = (&self.rev_offsets, &self.rev_targets);
                    group[top as usize] = NONE;
                    bfs.clear();
                    bfs.push(top);
                    let mut head = 0;
                    while head < bfs.len() {
                        let y = bfs[head] as usize;
                        head += 1;
                        for &p in &rt[ro[y] as usize..ro[y + 1] as usize] {
                            if group[p as usize] == l {
                                group[p as usize] = NONE;
                                won(global[p as usize], global[y]);
                                bfs.push(p);
                            }
                        }
                    }
                    let exit = successors(top)
                        .iter()
                        .copied()
                        .find(|&w| group[w as usize] == NONE)
                        .expect("the top of a cycle has a successor on it");
                    won(global[top as usize], global[exit as usize]);
                    for &x in comp {
                        group[x as usize] = 0;
                    }
                } else {
                    // Drop the opponent's priorities above the best of `player`'s and split
                    // again.
                    let best = comp
                        .iter()
                        .map(|&x| priority[x as usize])
                        .filter(|&p| p & 1 == u32::from(player))
                        .max();
                    let mut rest = Vec::new();
                    for &x in comp {
                        if best.is_some_and(|q| priority[x as usize] <= q) {
                            rest.push(x);
                        } else {
                            group[x as usize] = 0;
                        }
                    }
                    if !rest.is_empty() {
                        tasks.push((l, Some(rest)));
                    }
                }
            }
            budget = budget.saturating_sub(buf.len() as u64);
        }
    }
}
