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
//! The first split runs on the arena itself when a search there stays in cache (a small
//! arena, or one whose edges join nearby ids: long cycles, ladders), and a won component's
//! moves come from a breadth-first search over the arena's predecessor lists: nothing is
//! copied. Otherwise, and for the components to split again, the player's subgraph is copied
//! into a compact CSR with ids `0..k`, where the repeated searches touch a fraction of the
//! arena's memory; a won component's moves there come from the low links of one search from
//! its top ([`Scc::moves_to_root`]). The tables live in a [`CycleSearch`] that both players'
//! searches (and the pipeline's SCC pass, through its [`Scc`]) reuse: on large arenas, fresh
//! memory is the cost — the kernel zeroes every new page — more than the search.
//!
//! # Complexity
//! O(a · (n + m)) for a the number of parity alternations among the priorities; a work budget
//! stops the refinement early (what is found so far stays valid) on games where that would
//! cost more than a few passes over the graph.

use super::scc::Scc;
use super::{ids_scratch, NONE};
use crate::graph::arena::Arena;

/// The vertices a winner-controlled cycle can pass (the *candidates*): those with a move to a
/// vertex of the same owner, as a cycle of one player's vertices leaves each of its vertices
/// so, and no higher than the player's best candidate priority of its own parity (a cycle
/// through a higher one is topped by the opponent's parity). One pass over the edges finds
/// them, and a player without candidates is not searched at all. That is the common case in
/// games from reactive synthesis, where one player's vertices only move to the other
/// player's, and where a search would read every edge to find nothing.
///
/// What an attractor decides after the census is taken out of it ([`Census::close`]), so
/// that it stays the searches' one record of what is in play.
///
/// On a large arena a sample comes first: a player none of whose sampled vertices (at least
/// [`SAMPLED`]) is a candidate is taken to have none, and its edges are not read at all (in
/// the synthesis games they are nine in ten). Should it have a few after all, their cycles
/// are left to the solver of the parts, which finds them as well: the search only saves work.
#[derive(Debug)]
pub(crate) struct Census {
    /// Per vertex: its owner, plus 2 if it is a candidate.
    kind: Vec<u8>,
    /// Per player: its candidates plus their moves, which is what a search of them reads.
    work: [u64; 2],
}

impl Census {
    /// The candidates of `arena` among the vertices for which `open` holds (except those of a
    /// player the sample rules out).
    ///
    /// # Complexity
    /// O(n + m): the edges of the players not ruled out.
    #[cfg(test)]
    pub(crate) fn new(arena: &Arena, open: impl Fn(u32) -> bool) -> Census {
        Census::with_pass(arena, open, |_, _| {})
    }

    /// [`Census::new`] in one pass over the edges with `each`, called on every vertex and its
    /// moves before `open` is asked of it: the pipeline's pass over self-loops, which reads
    /// every vertex's moves anyway (two passes over the edges cost more than one: the
    /// offsets and targets are read once, not twice).
    pub(crate) fn with_pass(
        arena: &Arena,
        open: impl Fn(u32) -> bool,
        mut each: impl FnMut(u32, &[u32]),
    ) -> Census {
        let owners = arena.owners();
        let search = Census::sample(arena, &open);
        // Both sums in registers: an array indexed by owner would chain every vertex's
        // update through memory.
        let (mut work0, mut work1) = (0u64, 0u64);
        // Per player: the highest priority among its candidates, and 1 + the highest of its
        // own parity (0: none).
        let (mut top, mut best) = ([0u32; 2], [0u64; 2]);
        let mut kind: Vec<u8> = arena
            .vertices()
            .map(|v| {
                let owner = owners[v as usize];
                let moves = arena.successors(v);
                each(v, moves);
                if !search[usize::from(owner)] || !open(v) {
                    return owner;
                }
                let mut out = false;
                // Without branches: on random games the owner of a successor is a coin toss.
                for &w in moves {
                    out |= owners[w as usize] == owner;
                }
                let reads = u64::from(out) * (1 + moves.len() as u64);
                work0 += reads * u64::from(1 - owner);
                work1 += reads * u64::from(owner);
                if out {
                    let p = arena.priority(v);
                    let o = usize::from(owner);
                    top[o] = top[o].max(p);
                    if p & 1 == u32::from(owner) {
                        best[o] = best[o].max(u64::from(p) + 1);
                    }
                }
                owner | u8::from(out) << 1
            })
            .collect();
        let mut work = [work0, work1];
        for player in 0..2u8 {
            let p = usize::from(player);
            if best[p] == 0 {
                // No priority of its parity among its candidates: no cycle of its is won.
                work[p] = 0;
            } else if u64::from(top[p]) >= best[p] {
                // A candidate above the player's best priority of its own parity is on no
                // won cycle (that cycle's top would be the opponent's): it is dropped, so
                // that the search never enters it. On random games with 4 priorities this
                // spares the first split's components topped by the opponent's priority a
                // second split on a copy.
                let best = best[p] - 1;
                for (v, k) in kind.iter_mut().enumerate() {
                    if *k == player | 2 && arena.priority(v as u32) > best as u32 {
                        *k = player;
                    }
                }
            }
        }
        Census { kind, work }
    }

    /// Takes `v` out of the search: it was decided since the census was made (the vertices
    /// an attractor took). The searches then read one byte per edge to know whether a
    /// successor is in play, not that byte and the pipeline's state too.
    #[inline]
    pub(crate) fn close(&mut self, v: u32) {
        self.kind[v as usize] &= 1;
    }

    /// Per player, whether its candidates are to be found: false if a sample of at least
    /// [`SAMPLED`] of its open vertices, spread over the arena, holds none.
    fn sample(arena: &Arena, open: &impl Fn(u32) -> bool) -> [bool; 2] {
        let n = arena.len();
        let step = n / (4 * SAMPLED) + 1;
        if step < 4 {
            // A sample would read a good part of the edges anyway.
            return [true, true];
        }
        let (mut seen, mut found) = ([0usize; 2], [false; 2]);
        for v in (0..n as u32).step_by(step) {
            if !open(v) {
                continue;
            }
            let owner = arena.owner(v);
            let p = usize::from(owner);
            seen[p] += 1;
            found[p] |= arena.successors(v).iter().any(|&w| arena.owner(w) == owner);
        }
        [0, 1].map(|p| found[p] || seen[p] < SAMPLED)
    }

    /// Whether `v` is a candidate of `player`'s.
    #[inline]
    fn candidate(&self, player: u8, v: u32) -> bool {
        self.kind[v as usize] == player | 2
    }

    /// What searching `player`'s candidates reads: its candidates plus their moves (zero when
    /// `player` has no cycle of its own).
    pub(crate) fn work(&self, player: u8) -> u64 {
        self.work[usize::from(player)]
    }
}

/// The least number of a player's sampled vertices without a candidate for [`Census`] to rule
/// the player out.
const SAMPLED: usize = 256;

/// Reusable tables for [`winner_cycles`](CycleSearch::winner_cycles).
#[derive(Debug)]
pub(crate) struct CycleSearch {
    /// Compact id → vertex, for the components split again.
    global: Vec<u32>,
    /// `u32` offsets: the copy has at most the arena's edges, and an arena's count fits.
    offsets: Vec<u32>,
    targets: Vec<u32>,
    /// The sub-problem each compact vertex belongs to (0: none; NONE: won).
    group: Vec<u32>,
    buf: Vec<u32>,
    starts: Vec<usize>,
    /// The components to split again (arena ids), as `buf`/`starts` do for components.
    split: Vec<u32>,
    split_starts: Vec<usize>,
    /// The tops of the components the first split wins.
    tops: Vec<u32>,
    /// Every vertex won so far in this search, in the order found, and its move.
    won: Vec<u32>,
    moves: Vec<u32>,
    /// Whether the first split runs on the arena (see [`on_arena`]) or on the compact copy.
    on_arena: bool,
    /// The arena's highest priority: a component the first split wins whose top has it is
    /// reported by its top alone (see [`found`](Self::found)). `None`: every won vertex is
    /// reported.
    top_alone: Option<u32>,
    /// Strongly connected components, for this search and the pipeline's. Zero (no visits)
    /// between uses.
    pub(crate) scc: Scc,
}

impl CycleSearch {
    /// Tables for `arena`. Room is reserved, not written: reserved memory costs nothing until
    /// it is used, while a vector that grows by doubling writes (and so zeroes and copies)
    /// twice what it ends up holding.
    pub(crate) fn new(arena: &Arena) -> CycleSearch {
        let n = arena.len();
        CycleSearch {
            global: Vec::new(),
            offsets: Vec::new(),
            targets: Vec::new(),
            group: Vec::new(),
            buf: Vec::new(),
            starts: Vec::new(),
            split: Vec::new(),
            split_starts: Vec::new(),
            tops: Vec::new(),
            won: Vec::with_capacity(n),
            moves: Vec::with_capacity(n),
            on_arena: on_arena(arena),
            top_alone: arena.max_priority(),
            scc: Scc::new(n),
        }
    }

    /// What the last [`winner_cycles`](Self::winner_cycles) found: each vertex with its
    /// move. A won component whose top has the arena's highest priority is given by its top
    /// alone (on the arena or on the compact copy), with a move into the component: the rest of it is what the top attracts for
    /// `player` (each of its vertices is `player`'s and reaches the top inside it), and the
    /// caller's attractor takes it. That is sound for any attractor of such tops: a play
    /// that keeps to the attractor's moves comes back to a top again and again, and no
    /// priority is above the tops'. The search that would give the component's moves is
    /// saved (on random games with few priorities, the second player's component is a
    /// quarter of the arena).
    pub(crate) fn found(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.won.iter().copied().zip(self.moves.iter().copied())
    }

    /// Finds winner-controlled winning cycles of `player` among the candidates of `census`
    /// (which must name no vertex decided since it was made: see [`Census::close`]):
    /// afterwards [`found`](Self::found) lists them (every one is owned by `player`; some
    /// by their tops alone), each with a move that keeps the play on them. `census` is
    /// `arena`'s. `local` is scratch for [`ids_scratch`]: empty, or one entry per vertex of
    /// `arena`, all [`NONE`]; it is left so.
    pub(crate) fn winner_cycles(
        &mut self,
        arena: &Arena,
        player: u8,
        census: &Census,
        local: &mut Vec<u32>,
    ) {
        self.won.clear();
        self.moves.clear();
        if census.work(player) == 0 {
            return;
        }
        let mine = |v: u32| census.candidate(player, v);
        let mut budget = 8 * (arena.len() + arena.edge_count()) as u64 + 1024;

        let (split, split_starts) = (&mut self.split, &mut self.split_starts);
        split.clear();
        split_starts.clear();
        split_starts.push(0);
        if !self.on_arena {
            // Everything is split on the compact copy, starting from one task.
            split.extend(arena.vertices().filter(|&v| mine(v)));
            if split.is_empty() {
                return;
            }
            split_starts.push(split.len());
        } else {
            let k = self.first_split_on_arena(arena, player, mine);
            budget = budget.saturating_sub(4 * k + self.split.len() as u64);
            self.scc.clear_all();
        }
        if self.split.is_empty() {
            return;
        }
        self.split_again(arena, player, budget, local);
    }

    /// The first split, on the arena: a won component is kept by its top (in
    /// [`found`](Self::found), with the moves toward it), one to split again by its
    /// vertices at or below its best priority of `player`'s parity (in `split`). Returns
    /// the candidates it looked at.
    fn first_split_on_arena(
        &mut self,
        arena: &Arena,
        player: u8,
        mine: impl Fn(u32) -> bool + Copy,
    ) -> u64 {
        let (split, split_starts) = (&mut self.split, &mut self.split_starts);
        let tops = &mut self.tops;
        tops.clear();
        let scc = &mut self.scc;
        let mut k = 0u64;
        for v in arena.vertices() {
            if !mine(v) {
                continue;
            }
            k += 1;
            // A candidate whose moves to its own owner's vertices all lead to vertices
            // that are not candidates (or decided) is on no cycle: it costs its edges,
            // not a search's bookkeeping (measured: 3% of tangle learning on
            // full_arbiter_unreal3).
            if scc.visited(v) || !arena.successors(v).iter().any(|&w| mine(w)) {
                continue;
            }
            scc.search(
                v,
                |x| arena.successors(x),
                mine,
                |comp| {
                    if !is_cycle(comp, |y| arena.successors(y)) {
                        return;
                    }
                    match judge(comp, |x| arena.priority(x), player) {
                        Verdict::Won(top) => tops.push(top),
                        Verdict::Split(best) => {
                            split.extend(
                                comp.iter().copied().filter(|&x| arena.priority(x) <= best),
                            );
                            split_starts.push(split.len());
                        }
                        Verdict::Lost => {}
                    }
                },
            );
        }
        // Moves toward each won top along a breadth-first tree of reverse edges inside its
        // component (a vertex leaves the component as it is reached), and from the top to
        // any successor inside it.
        for &top in tops.iter() {
            let id = scc.component(top);
            let exit = arena
                .successors(top)
                .iter()
                .copied()
                .find(|&w| scc.component(w) == id)
                .expect("the top of a cycle has a successor on it");
            scc.clear_one(top);
            let from = self.won.len();
            self.won.push(top);
            self.moves.push(exit);
            if Some(arena.priority(top)) == self.top_alone {
                // The caller's attractor takes the rest (see `found`).
                continue;
            }
            let mut head = from;
            while head < self.won.len() {
                let y = self.won[head];
                head += 1;
                for &p in arena.predecessors(y) {
                    if scc.component(p) == id {
                        scc.clear_one(p);
                        self.won.push(p);
                        self.moves.push(y);
                    }
                }
            }
        }
        k
    }

    /// The components of `split` split again on a compact copy of their subgraph, one task
    /// per component, within `budget` steps: the won ones added to
    /// [`found`](Self::found).
    fn split_again(&mut self, arena: &Arena, player: u8, mut budget: u64, local: &mut Vec<u32>) {
        // The compact subgraph of what is split again, one task per component.
        let local = ids_scratch(local, arena.len());
        // `split` is read no more: its vertices become the compact ids as they are, without
        // a copy (a table as long as the candidates).
        std::mem::swap(&mut self.global, &mut self.split);
        let global = &self.global;
        for (i, &v) in global.iter().enumerate() {
            local[v as usize] = i as u32;
        }
        let (offsets, targets) = (&mut self.offsets, &mut self.targets);
        offsets.clear();
        targets.clear();
        // Room asked once (the edges at most all the vertices' moves): a table grown by
        // doubling leaves what it outgrew with the allocator.
        offsets.reserve_exact(global.len() + 1);
        let moves: u64 = global
            .iter()
            .map(|&v| arena.successor_csr().degree(v))
            .sum();
        targets.reserve_exact(usize::try_from(moves).unwrap_or(usize::MAX));
        offsets.push(0u32);
        for &v in global.iter() {
            targets.extend(
                arena
                    .successors(v)
                    .iter()
                    .map(|&w| local[w as usize])
                    .filter(|&l| l != NONE),
            );
            offsets.push(targets.len() as u32);
        }
        let global = &self.global;
        let (offsets, targets) = (&self.offsets, &self.targets);
        let successors =
            |y: u32| &targets[offsets[y as usize] as usize..offsets[y as usize + 1] as usize];
        let priority = |x: u32| arena.priority(global[x as usize]);
        let group = &mut self.group;
        group.clear();
        group.resize(global.len(), 0);
        let mut tasks: Vec<(u32, Vec<u32>)> = Vec::new();
        for (t, w) in self.split_starts.windows(2).enumerate() {
            let label = t as u32 + 1;
            let verts: Vec<u32> = (w[0] as u32..w[1] as u32).collect();
            for &x in &verts {
                group[x as usize] = label;
            }
            tasks.push((label, verts));
        }
        let mut next_label = tasks.len() as u32 + 1;
        let (buf, starts, scc) = (&mut self.buf, &mut self.starts, &mut self.scc);
        while let Some((label, verts)) = tasks.pop() {
            let cost = verts.len() as u64 * 4;
            if cost > budget {
                for &x in &verts {
                    group[x as usize] = 0;
                }
                continue;
            }
            budget -= cost;
            buf.clear();
            starts.clear();
            starts.push(0);
            {
                let group = &*group;
                let keep = |w: u32| group[w as usize] == label;
                for &x in &verts {
                    scc.search(x, successors, keep, |comp| {
                        if is_cycle(comp, successors) {
                            buf.extend_from_slice(comp);
                            starts.push(buf.len());
                        }
                    });
                }
            }
            scc.clear(verts.iter().copied());
            for &x in &verts {
                group[x as usize] = 0;
            }
            for c in 0..starts.len() - 1 {
                let comp = &buf[starts[c]..starts[c + 1]];
                let verdict = judge(comp, priority, player);
                let l = next_label;
                next_label += 1;
                for &x in comp {
                    group[x as usize] = l;
                }
                match verdict {
                    Verdict::Won(top) => {
                        // Won: moves by the low links of a search from `top` (no reverse graph
                        // needed; every cycle of the moves passes through `top`).
                        let (won, moves) = (&mut self.won, &mut self.moves);
                        if Some(priority(top)) == self.top_alone {
                            // The top alone (see `found`).
                            let exit = successors(top)
                                .iter()
                                .copied()
                                .find(|&w| group[w as usize] == l)
                                .expect("the top of a cycle has a successor on it");
                            won.push(global[top as usize]);
                            moves.push(global[exit as usize]);
                        } else {
                            scc.moves_to_root(
                                top,
                                successors,
                                |w| group[w as usize] == l,
                                |v, w| {
                                    won.push(global[v as usize]);
                                    moves.push(global[w as usize]);
                                },
                            );
                            scc.clear(comp.iter().copied());
                        }
                        for &x in comp {
                            group[x as usize] = 0;
                        }
                    }
                    Verdict::Split(best) => {
                        // Not empty: the vertex of priority `best` stays.
                        let mut rest = Vec::new();
                        for &x in comp {
                            if priority(x) <= best {
                                rest.push(x);
                            } else {
                                group[x as usize] = 0;
                            }
                        }
                        tasks.push((l, rest));
                    }
                    Verdict::Lost => {
                        for &x in comp {
                            group[x as usize] = 0;
                        }
                    }
                }
            }
            budget = budget.saturating_sub(buf.len() as u64);
        }
        for &v in global {
            local[v as usize] = NONE;
        }
    }
}

/// Whether the first split should run on the arena itself rather than on a compact copy of
/// the player's subgraph. The copy pays only when a depth-first search on the arena would
/// keep missing the cache: when the tables the search reads (offsets, targets, owners, the
/// engine's state and the search's own: about 13 bytes a vertex and 4 an edge) exceed
/// [`CACHED`], and the edges jump far (see [`mostly_local`]). Measured on this machine
/// (32 MiB L3): the copy makes random games of 10^6 vertices 1.4x faster, costs 5-10% on
/// the shared benchmark set (games of up to 5·10^4 vertices) and on random games of 10^5.
fn on_arena(arena: &Arena) -> bool {
    13 * arena.len() + 4 * arena.edge_count() <= CACHED || mostly_local(arena)
}

/// The working set assumed to stay in cache: half of a common last-level cache.
const CACHED: usize = 16 << 20;

/// Whether most edges of `arena` join vertices with nearby ids (within 1024, so the tables
/// indexed by vertex are read on the same or the next page), judged on a sample of up to 4096
/// vertices spread over the arena. A depth-first search on such an arena reads memory nearly
/// in order and gains nothing from a compact copy.
fn mostly_local(arena: &Arena) -> bool {
    let n = arena.len();
    let step = (n / 4096).max(1);
    let (mut near, mut all) = (0usize, 0usize);
    for v in (0..n).step_by(step) {
        for &w in arena.successors(v as u32) {
            all += 1;
            near += usize::from((w as usize).abs_diff(v) < 1024);
        }
    }
    2 * near >= all
}

/// Whether a component holds a cycle: more than one vertex, or one with a self-loop.
fn is_cycle<'g>(comp: &[u32], successors: impl Fn(u32) -> &'g [u32]) -> bool {
    comp.len() > 1 || successors(comp[0]).contains(&comp[0])
}

/// What a component with a cycle of `player`'s vertices is worth to `player`.
enum Verdict {
    /// Its top priority has `player`'s parity: all of it is won (the top vertex given).
    Won(u32),
    /// Its top is the opponent's: what lies at or below its best priority of `player`'s
    /// parity (given) is split again.
    Split(u32),
    /// It has no priority of `player`'s parity.
    Lost,
}

fn judge(comp: &[u32], priority: impl Fn(u32) -> u32, player: u8) -> Verdict {
    let wins = |p: u32| p & 1 == u32::from(player);
    let top = comp
        .iter()
        .copied()
        .max_by_key(|&x| priority(x))
        .expect("components are non-empty");
    if wins(priority(top)) {
        return Verdict::Won(top);
    }
    comp.iter()
        .map(|&x| priority(x))
        .filter(|&p| wins(p))
        .max()
        .map_or(Verdict::Lost, Verdict::Split)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::ArenaBuilder;

    /// Whether `v` lies on a cycle of `player`'s open vertices topped by `player`'s parity:
    /// some vertex `u` of priority q of that parity reaches `v` and back through vertices of
    /// priority at most q.
    fn on_winning_cycle(arena: &Arena, player: u8, open: &[bool], v: u32) -> bool {
        let mine = |x: u32| arena.owner(x) == player && open[x as usize];
        let reach = |from: u32, to: u32, q: u32| {
            // Paths of at least one edge.
            let mut seen = vec![false; arena.len()];
            let mut todo = vec![from];
            while let Some(x) = todo.pop() {
                for &y in arena.successors(x) {
                    if mine(y) && arena.priority(y) <= q && !seen[y as usize] {
                        if y == to {
                            return true;
                        }
                        seen[y as usize] = true;
                        todo.push(y);
                    }
                }
            }
            false
        };
        mine(v)
            && arena.vertices().any(|u| {
                let q = arena.priority(u);
                mine(u)
                    && q & 1 == u32::from(player)
                    && arena.priority(v) <= q
                    && reach(u, v, q)
                    && reach(v, u, q)
            })
    }

    /// On a large arena, a player whose sampled vertices have no move to their own owner's is
    /// not searched (its edges are not even read), even if an unsampled one has; one with
    /// candidates among a tenth of its vertices is searched; small arenas are read whole.
    #[test]
    fn the_census_sample_rules_out_players_without_candidates() {
        let mut rng = crate::graph::parity::generate::Rng::new(0x5a3b_1e00_c0de_0007u64);
        // (vertices, which vertices of player 0 also move to player 0, searched?)
        let none: fn(u32) -> bool = |_| false;
        let lone: fn(u32) -> bool = |v| v == 2;
        let tenth: fn(u32) -> bool = |v| (v / 2) % 10 == 0;
        let cases = [
            (6000u32, none, false),
            (6000, lone, false),
            (6000, tenth, true),
            (600, lone, true),
        ];
        for (i, (n, own, searched)) in cases.into_iter().enumerate() {
            // Player 0 at even ids, player 1 at odd ones, each with a priority of its own
            // parity; player 0 moves to player 1 (and, where `own` says so, to player 0 too);
            // player 1 moves to both.
            let mut b = ArenaBuilder::new();
            for v in 0..n {
                let mut succ = vec![2 * (rng.below(u64::from(n / 2)) as u32) + 1];
                if v % 2 == 1 || own(v) {
                    succ.push(2 * (rng.below(u64::from(n / 2)) as u32));
                }
                b.push((v % 2) as u8, v % 2, succ);
            }
            let arena = b.build().unwrap();
            let census = Census::new(&arena, |_| true);
            assert_eq!(census.work(0) > 0, searched, "case {i}");
            assert!(census.work(1) > 0, "case {i}");
        }
    }

    /// Both ways of making the first split (on the arena, on the compact copy) find exactly
    /// the vertices on winner-controlled winning cycles, and their moves stay among them with
    /// every cycle of the moves topped by the player's parity.
    #[test]
    fn finds_exactly_the_winning_cycles_both_ways() {
        let mut rng = crate::graph::parity::generate::Rng::new(0x0c1c_1e5e_a4c4_0001u64);
        for round in 0..400 {
            let n = 1 + rng.below(12) as u32;
            let mut b = ArenaBuilder::new();
            for _ in 0..n {
                let k = 1 + rng.below(3);
                let succ: Vec<u32> = (0..k).map(|_| rng.below(u64::from(n)) as u32).collect();
                b.push(rng.below(2) as u8, rng.below(6) as u32, succ);
            }
            let arena = b.build().unwrap();
            let open: Vec<bool> = (0..n).map(|_| rng.below(6) != 0).collect();
            for player in [0u8, 1] {
                let want: Vec<bool> = arena
                    .vertices()
                    .map(|v| on_winning_cycle(&arena, player, &open, v))
                    .collect();
                // The search with tops alone (see `found`), both ways: what they
                // found, and what `player` attracts to it among the winning cycles' vertices,
                // is all of those.
                for on_arena in [true, false] {
                    let mut search = CycleSearch::new(&arena);
                    search.on_arena = on_arena;
                    let census = Census::new(&arena, |v| open[v as usize]);
                    search.winner_cycles(&arena, player, &census, &mut Vec::new());
                    let mut got = vec![false; n as usize];
                    for (v, w) in search.found() {
                        assert!(want[v as usize] && want[w as usize], "round {round}");
                        assert!(arena.successors(v).contains(&w), "round {round}");
                        got[v as usize] = true;
                    }
                    loop {
                        let more: Vec<u32> = arena
                            .vertices()
                            .filter(|&v| want[v as usize] && !got[v as usize])
                            .filter(|&v| arena.successors(v).iter().any(|&w| got[w as usize]))
                            .collect();
                        if more.is_empty() {
                            break;
                        }
                        for v in more {
                            got[v as usize] = true;
                        }
                    }
                    assert_eq!(
                        got, want,
                        "round {round} player {player} {on_arena}: tops alone"
                    );
                }
                for on_arena in [true, false] {
                    let mut search = CycleSearch::new(&arena);
                    search.on_arena = on_arena;
                    search.top_alone = None;
                    let mut local = Vec::new();
                    let census = Census::new(&arena, |v| open[v as usize]);
                    search.winner_cycles(&arena, player, &census, &mut local);
                    let mut moves = vec![NONE; n as usize];
                    let won: Vec<u32> = search.found().map(|(v, _)| v).collect();
                    for (v, w) in search.found() {
                        moves[v as usize] = w;
                    }
                    let mut got = vec![false; n as usize];
                    for &v in &won {
                        assert!(!got[v as usize], "round {round}: {v} found twice");
                        got[v as usize] = true;
                    }
                    let why = format!("round {round} player {player} on_arena {on_arena}");
                    assert_eq!(got, want, "{why} {arena:?} open {open:?}");
                    assert!(local.iter().all(|&l| l == NONE), "{why}: local left dirty");
                    for &v in &won {
                        let w = moves[v as usize];
                        assert!(arena.successors(v).contains(&w), "{why}: {v} -> {w}");
                        assert!(got[w as usize], "{why}: {v} leaves the set");
                    }
                    // Every cycle of the moves is topped by the player's parity.
                    for &v in &won {
                        let mut x = v;
                        let mut top = arena.priority(v);
                        for _ in 0..n {
                            x = moves[x as usize];
                            top = top.max(arena.priority(x));
                            if x == v {
                                assert_eq!(top & 1, u32::from(player), "{why}: cycle at {v}");
                                break;
                            }
                        }
                    }
                    // The table is left clear for the pipeline's SCC pass.
                    assert!(arena.vertices().all(|v| !search.scc.visited(v)), "{why}");
                }
            }
        }
    }
}
