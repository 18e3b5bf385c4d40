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
//! # Complexity
//! O(a · (n + m)) for a the number of parity alternations among the priorities; a work budget
//! stops the refinement early (what is found so far stays valid) on games where that would
//! cost more than a few passes over the graph.

use super::scc::Tarjan;
use super::NONE;
use crate::graph::arena::Arena;

/// Finds winner-controlled winning cycles of `player` among the vertices for which `open`
/// holds, and calls `won(v, move)` for each vertex found (every one of them is owned by
/// `player`, and `move` keeps the play in what was found).
pub(crate) fn winner_cycles(
    arena: &Arena,
    player: u8,
    open: impl Fn(u32) -> bool,
    tarjan: &mut Tarjan,
    mut won: impl FnMut(u32, u32),
) {
    let n = arena.len();
    // group[v]: the sub-problem `v` belongs to (0: none).
    let mut group = vec![0u32; n];
    let mut tasks: Vec<(u32, Vec<u32>)> = Vec::new();
    let first: Vec<u32> = arena
        .vertices()
        .filter(|&v| arena.owner(v) == player && open(v))
        .collect();
    for &v in &first {
        group[v as usize] = 1;
    }
    let mut budget = 8 * (n + arena.edge_count()) as u64 + 1024;
    tasks.push((1, first));
    let mut next_label = 2u32;
    let mut buf: Vec<u32> = Vec::new();
    let mut starts: Vec<usize> = Vec::new();
    let mut bfs: Vec<u32> = Vec::new();
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
            for &v in &verts {
                if !keep(v) {
                    continue;
                }
                tarjan.search(
                    v,
                    |x| arena.successors(x),
                    keep,
                    |comp| {
                        let x = comp[0];
                        if comp.len() > 1 || arena.successors(x).contains(&x) {
                            buf.extend_from_slice(comp);
                            starts.push(buf.len());
                        }
                    },
                );
            }
        }
        for k in 0..starts.len() - 1 {
            let comp = &buf[starts[k]..starts[k + 1]];
            let top = comp
                .iter()
                .copied()
                .max_by_key(|&x| arena.priority(x))
                .expect("components are non-empty");
            let l = next_label;
            next_label += 1;
            for &x in comp {
                group[x as usize] = l;
            }
            if arena.priority(top) & 1 == u32::from(player) {
                // Won: moves toward `top` along a breadth-first tree of reverse edges inside
                // the component, and from `top` to any successor inside it.
                let mut moves: Vec<(u32, u32)> = Vec::with_capacity(comp.len());
                group[top as usize] = NONE;
                bfs.clear();
                bfs.push(top);
                let mut head = 0;
                while head < bfs.len() {
                    let y = bfs[head];
                    head += 1;
                    for &p in arena.predecessors(y) {
                        if group[p as usize] == l {
                            group[p as usize] = NONE;
                            moves.push((p, y));
                            bfs.push(p);
                        }
                    }
                }
                let exit = arena
                    .successors(top)
                    .iter()
                    .copied()
                    .find(|&w| group[w as usize] == NONE)
                    .expect("the top of a cycle has a successor on it");
                moves.push((top, exit));
                for &(x, w) in &moves {
                    won(x, w);
                }
                for &x in comp {
                    group[x as usize] = 0;
                }
            } else {
                // Drop the opponent's priorities above the best of `player`'s and split again.
                let best = comp
                    .iter()
                    .map(|&x| arena.priority(x))
                    .filter(|&p| p & 1 == u32::from(player))
                    .max();
                let q = best.unwrap_or(0);
                let mut rest = Vec::new();
                for &x in comp {
                    if best.is_some() && arena.priority(x) <= q {
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
