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
//! stay in cache far more often.
//!
//! # Complexity
//! O(a · (n + m)) for a the number of parity alternations among the priorities; a work budget
//! stops the refinement early (what is found so far stays valid) on games where that would
//! cost more than a few passes over the graph.

use super::scc::Tarjan;
use super::NONE;
use crate::csr::Csr;
use crate::graph::arena::Arena;

/// Finds winner-controlled winning cycles of `player` among the vertices for which `open`
/// holds, and calls `won(v, move)` for each vertex found (every one of them is owned by
/// `player`, and `move` keeps the play in what was found). `local` is scratch with one entry
/// per vertex of `arena`, all [`NONE`], and is left so.
pub(crate) fn winner_cycles(
    arena: &Arena,
    player: u8,
    open: impl Fn(u32) -> bool,
    local: &mut [u32],
    mut won: impl FnMut(u32, u32),
) {
    // The compact subgraph: player's open vertices and the edges among them.
    let global: Vec<u32> = arena
        .vertices()
        .filter(|&v| arena.owner(v) == player && open(v))
        .collect();
    if global.is_empty() {
        return;
    }
    for (i, &v) in global.iter().enumerate() {
        local[v as usize] = i as u32;
    }
    let k = global.len();
    let mut offsets = Vec::with_capacity(k + 1);
    let mut targets = Vec::new();
    offsets.push(0u64);
    for &v in &global {
        targets.extend(
            arena
                .successors(v)
                .iter()
                .map(|&w| local[w as usize])
                .filter(|&l| l != NONE),
        );
        offsets.push(targets.len() as u64);
    }
    for &v in &global {
        local[v as usize] = NONE;
    }
    let priority: Vec<u32> = global.iter().map(|&v| arena.priority(v)).collect();
    let graph = Csr::from_parts(offsets, targets).expect("compact edges are in range");
    let mut reverse: Option<Csr> = None;

    // group[x]: the sub-problem `x` belongs to (0: none; NONE: marked while solving).
    let mut group = vec![1u32; k];
    let mut tasks: Vec<(u32, Vec<u32>)> = vec![(1, (0..k as u32).collect())];
    let mut next_label = 2u32;
    let mut budget = 8 * (arena.len() + arena.edge_count()) as u64 + 1024;
    let mut tarjan = Tarjan::new(k);
    let mut buf: Vec<u32> = Vec::new();
    let mut starts: Vec<usize> = Vec::new();
    let mut bfs: Vec<u32> = Vec::new();
    let mut moves: Vec<(u32, u32)> = Vec::new();
    while let Some((label, verts)) = tasks.pop() {
        let cost = verts.len() as u64 * 4;
        if cost > budget {
            continue;
        }
        budget -= cost;
        buf.clear();
        starts.clear();
        starts.push(0);
        tarjan.reset();
        {
            let group = &group;
            let keep = |w: u32| group[w as usize] == label;
            for &x in &verts {
                tarjan.search(
                    x,
                    |y| graph.successors(y),
                    keep,
                    |comp| {
                        let y = comp[0];
                        if comp.len() > 1 || graph.successors(y).contains(&y) {
                            buf.extend_from_slice(comp);
                            starts.push(buf.len());
                        }
                    },
                );
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
                // Won: moves toward `top` along a breadth-first tree of reverse edges inside
                // the component, and from `top` to any successor inside it.
                let reverse = reverse.get_or_insert_with(|| graph.reverse());
                moves.clear();
                group[top as usize] = NONE;
                bfs.clear();
                bfs.push(top);
                let mut head = 0;
                while head < bfs.len() {
                    let y = bfs[head];
                    head += 1;
                    for &p in reverse.successors(y) {
                        if group[p as usize] == l {
                            group[p as usize] = NONE;
                            moves.push((p, y));
                            bfs.push(p);
                        }
                    }
                }
                let exit = graph
                    .successors(top)
                    .iter()
                    .copied()
                    .find(|&w| group[w as usize] == NONE)
                    .expect("the top of a cycle has a successor on it");
                moves.push((top, exit));
                for &(x, w) in &moves {
                    won(global[x as usize], global[w as usize]);
                }
                for &x in comp {
                    group[x as usize] = 0;
                }
            } else {
                // Drop the opponent's priorities above the best of `player`'s and split again.
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
                    tasks.push((l, rest));
                }
            }
        }
        budget = budget.saturating_sub(buf.len() as u64);
    }
}
