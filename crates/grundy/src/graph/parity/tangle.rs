//! Tangle learning (van Dijk, "Attracting Tangles to Solve Parity Games", CAV 2018).
//!
//! A *tangle* of player α is a strongly connected set of vertices with a strategy for α
//! inside it such that α wins every cycle; the opponent can only leave it through its
//! *escapes* (the opponent's edges out of it). Once all escapes lie in a set that α attracts
//! to, the whole tangle can be attracted too: the opponent either stays and loses, or leaves
//! into the set.
//!
//! Each *pass* decomposes the unsolved game top-down into regions: the highest unsolved
//! priorities of one parity (heads) and their *tangle attractor* for that parity, inside
//! what higher regions left over (the current subgame). A tangle joins only when every escape
//! it has in the unsolved game was attracted in a region of its player and all its vertices
//! are still in the current subgame. A region is *closed* when α's heads can stay in it and
//! the opponent's heads cannot leave it into the rest. In a closed region every cycle of the
//! region's strategy graph passes through a head or stays in one attracted tangle, so α
//! wins it:
//!
//! - the first region of α in the pass, if closed, is an α-dominion (everything above it is
//!   the opponent's attractor, which the opponent cannot leave): it and its tangle attractor
//!   are solved;
//! - otherwise every SCC with a cycle of the region's strategy graph is a tangle of α, or a
//!   dominion if it has no escapes, solved likewise. The bottom ones are new — a known one
//!   found again would have all its escapes in higher regions of α, and would have joined the
//!   last of them — and the others are learned too, as Oink does: on the synthesis games that
//!   saves a quarter of the passes.
//!
//! The lowest region is always closed, so every pass finds a dominion or a new tangle, and
//! the algorithm terminates. All attractors of a pass share one [`Layers`] state (counters of
//! the opponent's vertices keep counting across regions), so a pass costs O(n + m + the
//! tangles it touches).
//!
//! After a dominion, van Dijk's algorithm starts a new pass. Here, while the pass has learned
//! no tangle, it goes on instead: the dominion is attracted in a state of its own, and only
//! the regions it can change are undone — from the first that holds a solved vertex, or where
//! a vertex or tangle with a move into the dominion could now be attracted, or whose heads
//! the dominion cut short ([`Layers::undo_from`], [`Layers::remove`]). The regions above are
//! exactly what a new pass would compute (a test checks that the same dominions, tangles and
//! moves come out). On Friedmann's family, where every pass found one small dominion near the
//! bottom after a thousand regions, this makes the solve 12 times faster.
//!
//! # Complexity
//! Exponential in the worst case; one pass is O(n + m + total tangle size). O(n + m + total
//! tangle size) space.

use super::scc::Scc;
use super::{by_priority_descending, Local, NONE};
use crate::engine::Moves;
use crate::explore::Control;
use crate::graph::arena::Arena;
use crate::graph::attractor::Layers;
use crate::Error;

/// Learned tangles, as flat arrays indexed by tangle id.
#[derive(Debug, Default)]
struct Tangles {
    player: Vec<u8>,
    alive: Vec<bool>,
    /// Vertices of tangle `t`: `verts[vstart[t]..vstart[t + 1]]`, with α's move in `vmove`
    /// (NONE at the opponent's vertices).
    vstart: Vec<usize>,
    verts: Vec<u32>,
    vmove: Vec<u32>,
    /// Escapes of tangle `t`: `escapes[estart[t]..estart[t + 1]]`.
    estart: Vec<usize>,
    escapes: Vec<u32>,
}

impl Tangles {
    fn new() -> Tangles {
        Tangles {
            vstart: vec![0],
            estart: vec![0],
            ..Tangles::default()
        }
    }

    fn len(&self) -> usize {
        self.player.len()
    }

    fn vertices(&self, t: usize) -> std::ops::Range<usize> {
        self.vstart[t]..self.vstart[t + 1]
    }

    fn escapes(&self, t: usize) -> &[u32] {
        &self.escapes[self.estart[t]..self.estart[t + 1]]
    }
}

/// Counters of what a solve did.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Stats {
    pub passes: u64,
    pub tangles: u64,
    pub dominions: u64,
    /// Dominions after which the pass went on below the regions the dominion left intact,
    /// instead of starting over.
    pub resumed: u64,
}

/// The state of one tangle attractor: a pass's regions, or a dominion's attraction. The two
/// are kept apart so that a pass survives the attraction of a dominion it found.
struct Attraction {
    layers: Layers,
    /// Position in the queue of each vertex decided (a pass's only: a dominion's attraction
    /// records its moves as it decides).
    qpos: Vec<u32>,
    /// Per tangle: escapes not yet attracted in a region of its player (valid while
    /// `stamps[t] == stamp`).
    counter: Vec<u32>,
    stamps: Vec<u32>,
    /// This attraction's stamp (see [`Solver::by_tangle`]).
    stamp: u32,
}

impl Attraction {
    fn new(n: usize, positions: bool) -> Attraction {
        Attraction {
            layers: Layers::new(n),
            qpos: if positions { vec![0; n] } else { Vec::new() },
            counter: Vec::new(),
            stamps: Vec::new(),
            stamp: 0,
        }
    }
}

/// Which [`Attraction`] an operation works on.
const PASS: usize = 0;
const DOMINION: usize = 1;

/// A region of the current pass: where its heads start in `order`, where it starts in the
/// pass's queue, and its player.
#[derive(Debug, Clone, Copy)]
struct Region {
    ptr: usize,
    rs: usize,
    alpha: u8,
}

struct Solver<'a> {
    arena: &'a Arena,
    /// Vertices by priority, highest first.
    order: Vec<u32>,
    in_g: Vec<bool>,
    /// The unsolved vertices, and some solved since the last pass started (compacted when a
    /// pass starts afresh).
    g_list: Vec<u32>,
    /// How many vertices are unsolved.
    remaining: usize,
    att: [Attraction; 2],
    /// α's move in the region (or dominion) of each vertex, where computed.
    moves: Vec<u32>,
    /// The stamp of the attraction in which the vertex joined a region with a tangle (its
    /// move is the tangle's): a stamp, so that a new attraction starts without clearing it.
    /// Empty until the first tangle is learned.
    by_tangle: Vec<u32>,
    /// The last stamp handed out.
    stamp: u32,
    tangles: Tangles,
    /// Tangles with an escape to `v`: a linked list from `tin_head[v]` through `tin_next`
    /// (`tin_head` is empty until the first tangle is learned).
    tin_head: Vec<u32>,
    tin_next: Vec<u32>,
    tin_tangle: Vec<u32>,
    /// The tables of [`extract`](Solver::extract) (`scc`, `mark`, `escape_mark`): empty until
    /// the first extraction, as many solves never extract.
    scc: Scc,
    mark: Vec<bool>,
    escape_mark: Vec<bool>,
    heads: Vec<u32>,
    found: Vec<u32>,
    escapes: Vec<u32>,
    comp_buf: Vec<u32>,
    comp_starts: Vec<usize>,
    /// The regions of the current pass, in order.
    regions: Vec<Region>,
    /// The dominion being removed.
    solved: Vec<u32>,
    /// Whether a pass goes on after a dominion where it can (off only to test that doing so
    /// changes nothing).
    resume: bool,
    out: Local,
    stats: Stats,
}

impl Solver<'_> {
    /// The first entry of the list of tangles with an escape to `v`.
    #[inline]
    fn tin_first(&self, v: u32) -> u32 {
        self.tin_head.get(v as usize).copied().unwrap_or(NONE)
    }

    /// Whether `w` was decided in the pass at queue positions `rs..re`.
    #[inline]
    fn in_region(&self, w: u32, rs: usize, re: usize) -> bool {
        let att = &self.att[PASS];
        self.in_g[w as usize] && !att.layers.is_open(w) && {
            let q = att.qpos[w as usize] as usize;
            rs <= q && q < re
        }
    }

    /// A new stamp for attraction `which`. After 2^32 of them the stamps start again from 1,
    /// with every old stamp erased.
    fn restamp(&mut self, which: usize) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.by_tangle.fill(0);
            for att in &mut self.att {
                att.stamps.fill(0);
                att.stamp = 0;
            }
            self.stamp = 1;
        }
        self.att[which].stamp = self.stamp;
    }

    /// Attracts for `alpha` in attraction `which` from the queue entries at `scan..`, with
    /// tangles: whenever every escape of an α-tangle is attracted and the tangle lies in the
    /// current subgame (no vertex decided before `rs`, the start of the current region), the
    /// whole tangle joins.
    fn grow(&mut self, which: usize, alpha: u8, rs: usize, mut scan: usize) {
        loop {
            let att = &mut self.att[which];
            if which == DOMINION {
                // The dominion's strategy: each vertex attracted by a move keeps it.
                let mut moves = Moves(&mut self.moves);
                att.layers
                    .attract_recording(self.arena, alpha, &self.in_g, &mut moves);
            } else {
                att.layers.attract(self.arena, alpha, &self.in_g);
            }
            let end = att.layers.queue().len();
            if scan == end {
                return;
            }
            if which == PASS {
                for i in scan..end {
                    let v = att.layers.queue()[i];
                    att.qpos[v as usize] = i as u32;
                }
            }
            for i in scan..end {
                let v = self.att[which].layers.queue()[i];
                let mut e = self.tin_first(v);
                while e != NONE {
                    let t = self.tin_tangle[e as usize] as usize;
                    e = self.tin_next[e as usize];
                    if self.tangles.player[t] != alpha || !self.tangles.alive[t] {
                        continue;
                    }
                    let att = &mut self.att[which];
                    if att.stamps[t] != att.stamp {
                        att.stamps[t] = att.stamp;
                        let in_g = &self.in_g;
                        att.counter[t] = self
                            .tangles
                            .escapes(t)
                            .iter()
                            .filter(|&&w| in_g[w as usize])
                            .count() as u32;
                    }
                    att.counter[t] -= 1;
                    if att.counter[t] == 0 {
                        self.attract_tangle(which, t, rs);
                    }
                }
            }
            scan = end;
        }
    }

    /// Adds tangle `t` (all of whose escapes are attracted) to the current region of
    /// attraction `which` if it lies in the current subgame.
    fn attract_tangle(&mut self, which: usize, t: usize, rs: usize) {
        for i in self.tangles.vertices(t) {
            let x = self.tangles.verts[i];
            if !self.in_g[x as usize] {
                // Part of it is solved: it can never be attracted again.
                self.tangles.alive[t] = false;
                return;
            }
            let att = &self.att[which];
            if rs > 0 && !att.layers.is_open(x) && (att.qpos[x as usize] as usize) < rs {
                return;
            }
        }
        for i in self.tangles.vertices(t) {
            let x = self.tangles.verts[i];
            let att = &mut self.att[which];
            if att.layers.seed(x, true) {
                if which == PASS {
                    att.qpos[x as usize] = (att.layers.queue().len() - 1) as u32;
                }
                self.by_tangle[x as usize] = att.stamp;
                self.moves[x as usize] = self.tangles.vmove[i];
            }
        }
    }

    /// α's moves in the pass's region `queue[rs..re]`: tangle moves for vertices attracted
    /// with a tangle, any move into the region for heads, and a move to an earlier vertex of
    /// the region for the rest. With these, every cycle in the region passes through a head
    /// or stays inside one tangle.
    fn region_moves(&mut self, alpha: u8, rs: usize, re: usize) {
        for i in rs..re {
            let x = self.att[PASS].layers.queue()[i];
            if self.arena.owner(x) != alpha {
                self.moves[x as usize] = NONE;
                continue;
            }
            if self.by_tangle.get(x as usize) == Some(&self.att[PASS].stamp) {
                continue;
            }
            let head = matches!(self.att[PASS].layers.read(x), Some((_, 0)));
            let limit = if head { re } else { i };
            self.moves[x as usize] = self
                .arena
                .successors(x)
                .iter()
                .copied()
                .find(|&w| self.in_region(w, rs, limit))
                .unwrap_or(NONE);
            debug_assert!(self.moves[x as usize] != NONE);
        }
    }

    /// Whether the pass's region `queue[rs..re]` is closed: α's heads have a move into it and
    /// the opponent's heads have no move to an undecided vertex.
    fn closed(&self, alpha: u8, rs: usize, re: usize) -> bool {
        let layers = &self.att[PASS].layers;
        self.heads.iter().all(|&h| {
            let succ = self.arena.successors(h);
            if self.arena.owner(h) == alpha {
                succ.iter().any(|&w| self.in_region(w, rs, re))
            } else {
                !succ
                    .iter()
                    .any(|&w| self.in_g[w as usize] && layers.is_open(w))
            }
        })
    }

    /// Finds the SCCs with a cycle of the strategy graph of the closed region `queue[rs..re]`
    /// reachable from its heads; records those with escapes as tangles and collects the
    /// others (dominions) into `found`. Returns whether any tangle was learned.
    fn extract(&mut self, alpha: u8, rs: usize, re: usize) -> bool {
        self.found.clear();
        if self.mark.is_empty() {
            let n = self.arena.len();
            self.scc = Scc::new(n);
            self.mark = vec![false; n];
            self.escape_mark = vec![false; n];
        }
        let mut scc = std::mem::replace(&mut self.scc, Scc::new(0));
        let mut buf = std::mem::take(&mut self.comp_buf);
        let mut starts = std::mem::take(&mut self.comp_starts);
        buf.clear();
        starts.clear();
        starts.push(0);
        {
            let view: &Solver = self;
            let arena = view.arena;
            let edges = |v: u32| -> &[u32] {
                if arena.owner(v) == alpha {
                    std::slice::from_ref(&view.moves[v as usize])
                } else {
                    arena.successors(v)
                }
            };
            for &h in &view.heads {
                scc.search(
                    h,
                    edges,
                    |w| view.in_region(w, rs, re),
                    |comp| {
                        let v = comp[0];
                        let cycle = comp.len() > 1 || edges(v).contains(&v);
                        if cycle {
                            buf.extend_from_slice(comp);
                            starts.push(buf.len());
                        }
                    },
                );
            }
        }
        scc.clear(self.att[PASS].layers.queue()[rs..re].iter().copied());
        self.scc = scc;
        let mut learned = false;
        for k in 0..starts.len() - 1 {
            let comp = &buf[starts[k]..starts[k + 1]];
            if self.learn(alpha, comp) {
                learned = true;
            } else {
                self.found.extend_from_slice(comp);
            }
        }
        self.comp_buf = buf;
        self.comp_starts = starts;
        learned
    }

    /// Records `comp`, a strongly connected set of the strategy graph of a closed region of
    /// `alpha` with a cycle, as a new tangle of `alpha`, unless it has no escape (the opponent
    /// cannot leave it: a dominion). Returns whether it was recorded.
    fn learn(&mut self, alpha: u8, comp: &[u32]) -> bool {
        for &x in comp {
            self.mark[x as usize] = true;
        }
        self.escapes.clear();
        for &x in comp {
            if self.arena.owner(x) == alpha {
                continue;
            }
            for &w in self.arena.successors(x) {
                if self.in_g[w as usize] && !self.mark[w as usize] && !self.escape_mark[w as usize]
                {
                    self.escape_mark[w as usize] = true;
                    self.escapes.push(w);
                }
            }
        }
        for &x in comp {
            self.mark[x as usize] = false;
        }
        for &w in &self.escapes {
            self.escape_mark[w as usize] = false;
        }
        if self.escapes.is_empty() {
            return false;
        }
        if self.tin_head.is_empty() {
            self.tin_head = vec![NONE; self.arena.len()];
            self.by_tangle = vec![0; self.arena.len()];
        }
        let t = self.tangles.len() as u32;
        for &x in comp {
            self.tangles.verts.push(x);
            self.tangles.vmove.push(if self.arena.owner(x) == alpha {
                self.moves[x as usize]
            } else {
                NONE
            });
        }
        for &w in &self.escapes {
            self.tin_tangle.push(t);
            self.tin_next.push(self.tin_head[w as usize]);
            self.tin_head[w as usize] = (self.tin_tangle.len() - 1) as u32;
        }
        self.tangles.escapes.extend_from_slice(&self.escapes);
        self.tangles.estart.push(self.tangles.escapes.len());
        self.tangles.vstart.push(self.tangles.verts.len());
        self.tangles.player.push(alpha);
        self.tangles.alive.push(true);
        for att in &mut self.att {
            att.counter.push(0);
            att.stamps.push(0);
        }
        self.stats.tangles += 1;
        true
    }

    /// Solves the α-dominion `seeds` (whose α-vertices have their moves in `moves`) and its
    /// tangle attractor in the unsolved game, in the dominion's own attraction (the pass's is
    /// left as it was). The solved vertices, listed in `solved` (and in the dominion's queue),
    /// stay in the unsolved game for [`remove_dominion`](Self::remove_dominion).
    fn solve_dominion(&mut self, alpha: u8, seeds: &[u32]) {
        self.stats.dominions += 1;
        self.restamp(DOMINION);
        for &v in seeds {
            self.att[DOMINION].layers.seed(v, true);
        }
        self.grow(DOMINION, alpha, 0, 0);
        // Every vertex of α has its move: a seed's from its region, a tangle's from the
        // tangle, the rest from the attraction.
        let mut solved = std::mem::take(&mut self.solved);
        solved.clear();
        solved.extend_from_slice(self.att[DOMINION].layers.queue());
        self.win(alpha, &solved);
        self.solved = solved;
    }

    /// The pass's first region, closed and of its player α, is an α-dominion that is its own
    /// tangle attractor (it was attracted in the whole unsolved game): it is solved as it
    /// stands, with the moves of the region, and no second attraction. Its vertices are
    /// listed in `solved` for [`remove_dominion`](Self::remove_dominion).
    fn take_first_region(&mut self, alpha: u8, re: usize) {
        self.stats.dominions += 1;
        let mut solved = std::mem::take(&mut self.solved);
        solved.clear();
        solved.extend_from_slice(&self.att[PASS].layers.queue()[..re]);
        self.win(alpha, &solved);
        self.solved = solved;
    }

    /// Records `solved` as won by `alpha`, each vertex of `alpha` with its move in `moves`.
    fn win(&mut self, alpha: u8, solved: &[u32]) {
        for &x in solved {
            self.out.winner[x as usize] = alpha;
            self.out.strategy[x as usize] = if self.arena.owner(x) == alpha {
                self.moves[x as usize]
            } else {
                NONE
            };
            debug_assert!(self.arena.owner(x) != alpha || self.out.strategy[x as usize] != NONE);
        }
    }

    /// The region of the current pass in which `v` was decided, if it was.
    fn region_of(&self, v: u32) -> Option<usize> {
        let att = &self.att[PASS];
        if !self.in_g[v as usize] || att.layers.is_open(v) {
            return None;
        }
        let q = att.qpos[v as usize] as usize;
        Some(self.regions.partition_point(|r| r.rs <= q) - 1)
    }

    /// The first region of the current pass that the dominion just solved (the dominion's
    /// queue, still in the unsolved game) can change, so that the regions above it stay as
    /// they are in the game without it:
    ///
    /// - a region holding a solved vertex;
    /// - for a vertex with a move into the dominion (owned by the dominion's opponent, else
    ///   it would be solved too), the region where its last other successor was decided, if
    ///   all were: it may now be attracted there, or, if it is a head of the opponent of its
    ///   region's player, make its region closed;
    /// - likewise for a tangle with an escape into the dominion and its other escapes;
    /// - the region before one whose first head is solved: that head ended the heads of the
    ///   region before, which may now go on.
    fn resume_point(&self) -> usize {
        let solved = self.att[DOMINION].layers.queue();
        let in_dominion = |w: u32| !self.att[DOMINION].layers.is_open(w);
        // The cheap bound first: often the dominion reaches the top.
        let mut r = solved
            .iter()
            .filter_map(|&u| self.region_of(u))
            .min()
            .unwrap_or(self.regions.len() - 1);
        // The region where the last of `others` left in the game was decided, if all were.
        let last = |others: &[u32]| -> Option<usize> {
            let mut top = 0;
            for &w in others {
                if self.in_g[w as usize] && !in_dominion(w) {
                    top = top.max(self.region_of(w)?);
                }
            }
            Some(top)
        };
        for &u in solved {
            if r == 0 {
                break;
            }
            for &y in self.arena.predecessors(u) {
                if !self.in_g[y as usize] || in_dominion(y) {
                    continue;
                }
                if let Some(j) = last(self.arena.successors(y)) {
                    r = r.min(j);
                }
            }
            let mut e = self.tin_first(u);
            while e != NONE {
                let t = self.tin_tangle[e as usize] as usize;
                e = self.tin_next[e as usize];
                if !self.tangles.alive[t] {
                    continue;
                }
                if let Some(j) = last(self.tangles.escapes(t)) {
                    r = r.min(j);
                }
            }
        }
        if r > 0 && in_dominion(self.order[self.regions[r].ptr]) {
            r -= 1;
        }
        r
    }

    /// Takes the dominion just solved out of the unsolved game. With `resume` (the current
    /// pass learned no tangle), the pass's regions from the one [`resume_point`] names on
    /// are undone, so that the pass can go on from there, and the position in `order` where
    /// that region's heads started is returned; otherwise the pass is abandoned.
    ///
    /// [`resume_point`]: Self::resume_point
    fn remove_dominion(&mut self, resume: bool) -> Option<usize> {
        let last = self.remaining == self.solved.len();
        // Without an attraction of its own the dominion is the pass's first region. Resuming
        // at the top is a new pass, which needs no undoing.
        let attracted = !self.att[DOMINION].layers.queue().is_empty();
        let r = (resume && !last && attracted)
            .then(|| self.resume_point())
            .filter(|&r| r > 0);
        let ptr = r.map(|r| self.regions[r].ptr);
        if let Some(r) = r {
            self.stats.resumed += 1;
            let from = self.regions[r].rs;
            // Tangle counters the undone decisions counted down count them again.
            for j in r..self.regions.len() {
                let alpha = self.regions[j].alpha;
                let end = self
                    .regions
                    .get(j + 1)
                    .map_or(self.att[PASS].layers.queue().len(), |x| x.rs);
                for i in self.regions[j].rs..end {
                    let u = self.att[PASS].layers.queue()[i];
                    if let Some(b) = self.by_tangle.get_mut(u as usize) {
                        *b = 0;
                    }
                    let mut e = self.tin_first(u);
                    while e != NONE {
                        let t = self.tin_tangle[e as usize] as usize;
                        e = self.tin_next[e as usize];
                        let att = &mut self.att[PASS];
                        if self.tangles.player[t] == alpha
                            && self.tangles.alive[t]
                            && att.stamps[t] == att.stamp
                        {
                            att.counter[t] += 1;
                        }
                    }
                }
            }
            let in_g = &self.in_g;
            self.att[PASS]
                .layers
                .undo_from(self.arena, from, |w| in_g[w as usize]);
            self.regions.truncate(r);
        }
        let solved = std::mem::take(&mut self.solved);
        for &u in &solved {
            self.in_g[u as usize] = false;
        }
        self.remaining -= solved.len();
        if r.is_some() {
            self.att[PASS].layers.remove(self.arena, &solved);
            for &u in &solved {
                let mut e = self.tin_first(u);
                while e != NONE {
                    let t = self.tin_tangle[e as usize] as usize;
                    e = self.tin_next[e as usize];
                    let att = &mut self.att[PASS];
                    if self.tangles.alive[t] && att.stamps[t] == att.stamp {
                        // Zero only for a tangle left without escapes (then the pass resumes
                        // at the top): no escape can count it down again, as in a new pass.
                        att.counter[t] -= 1;
                        debug_assert!(
                            att.counter[t] > 0
                                || self
                                    .tangles
                                    .escapes(t)
                                    .iter()
                                    .all(|&w| !self.in_g[w as usize]),
                            "the tangle would have joined above"
                        );
                    }
                }
            }
        } else {
            self.att[PASS].layers.close(&solved);
        }
        if last || !attracted {
            // Nothing is left to attract, or nothing was: the solved vertices only leave.
            self.att[DOMINION].layers.close(&solved);
        } else {
            self.att[DOMINION].layers.remove_decided(self.arena);
        }
        self.solved = solved;
        ptr
    }

    /// One pass: the top-down decomposition, solving every dominion it finds and going on
    /// below what each leaves intact while no tangle was learned, until the last region is
    /// done (true if a dominion was solved or a tangle learned) or a dominion is solved after
    /// a tangle was learned (true).
    fn run_pass(&mut self, control: &Control) -> Result<bool, Error> {
        self.stats.passes += 1;
        self.restamp(PASS);
        let in_g = &self.in_g;
        self.g_list.retain(|&v| in_g[v as usize]);
        self.att[PASS].layers.open(&self.g_list);
        self.regions.clear();
        let len = self.order.len();
        let mut ptr = 0;
        let mut highest = [true, true];
        let mut learned = false;
        let mut solved = false;
        let mut count = 0u32;
        loop {
            while ptr < len && !self.open_in_g(self.order[ptr]) {
                ptr += 1;
            }
            if ptr == len {
                break;
            }
            count = count.wrapping_add(1);
            if count.is_multiple_of(1024) {
                control.check()?;
            }
            let alpha = (self.arena.priority(self.order[ptr]) & 1) as u8;
            let rs = self.att[PASS].layers.queue().len();
            self.regions.push(Region { ptr, rs, alpha });
            self.heads.clear();
            while ptr < len {
                let v = self.order[ptr];
                if !self.open_in_g(v) {
                    ptr += 1;
                    continue;
                }
                if (self.arena.priority(v) & 1) as u8 != alpha {
                    break;
                }
                self.heads.push(v);
                let scan = self.att[PASS].layers.queue().len();
                self.att[PASS].layers.seed(v, true);
                self.grow(PASS, alpha, rs, scan);
                ptr += 1;
            }
            let re = self.att[PASS].layers.queue().len();
            while ptr < len && !self.open_in_g(self.order[ptr]) {
                ptr += 1;
            }
            let lowest = ptr == len;
            let mut dominion = false;
            if lowest || self.closed(alpha, rs, re) {
                self.region_moves(alpha, rs, re);
                if highest[alpha as usize] && rs == 0 {
                    self.take_first_region(alpha, re);
                    dominion = true;
                } else if highest[alpha as usize] {
                    let region = self.att[PASS].layers.queue()[rs..re].to_vec();
                    self.solve_dominion(alpha, &region);
                    dominion = true;
                } else {
                    learned |= self.extract(alpha, rs, re);
                    if !self.found.is_empty() {
                        let found = std::mem::take(&mut self.found);
                        self.solve_dominion(alpha, &found);
                        self.found = found;
                        dominion = true;
                    }
                }
            }
            if dominion {
                solved = true;
                let Some(at) = self.remove_dominion(self.resume && !learned) else {
                    return Ok(true);
                };
                // Go on below the regions left, as a new pass would after them.
                ptr = at;
                highest = [true, true];
                for x in &self.regions {
                    highest[x.alpha as usize] = false;
                }
                continue;
            }
            highest[alpha as usize] = false;
        }
        Ok(learned || solved)
    }

    #[inline]
    fn open_in_g(&self, v: u32) -> bool {
        self.in_g[v as usize] && self.att[PASS].layers.is_open(v)
    }
}

/// Solves `arena` (no dead ends) by tangle learning.
pub(super) fn solve(arena: &Arena, control: &Control) -> Result<(Local, Stats), Error> {
    solve_whole(arena, true, control)
}

/// Tangle learning on all of `arena`; passes go on after a dominion if `resume`.
fn solve_whole(arena: &Arena, resume: bool, control: &Control) -> Result<(Local, Stats), Error> {
    let n = arena.len();
    run(
        arena,
        by_priority_descending(arena, None),
        vec![true; n],
        (0..n as u32).collect(),
        resume,
        control,
    )
}

/// Solves the part `members` of `arena` in place, without copying it: every member has a
/// move to a member, and edges leaving the part are ignored. The answer is indexed by vertex
/// of `arena` (entries outside the part mean nothing). Costs O(n) for the tables besides the
/// solve, so it pays for parts that are a good fraction of the arena.
pub(super) fn solve_part(
    arena: &Arena,
    members: &[u32],
    control: &Control,
) -> Result<(Local, Stats), Error> {
    let order = by_priority_descending(arena, Some(members));
    let mut in_g = vec![false; arena.len()];
    for &v in members {
        in_g[v as usize] = true;
    }
    run(arena, order, in_g, members.to_vec(), true, control)
}

/// Tangle learning on the vertices `g_list` (membership `in_g`; `order` is them by priority,
/// highest first); the answer is indexed by vertex.
fn run(
    arena: &Arena,
    order: Vec<u32>,
    in_g: Vec<bool>,
    g_list: Vec<u32>,
    resume: bool,
    control: &Control,
) -> Result<(Local, Stats), Error> {
    let n = arena.len();
    let mut att = [Attraction::new(n, true), Attraction::new(n, false)];
    // The dominions' attraction opens the game once; each dominion takes its own vertices
    // out again (`Layers::remove_decided`).
    att[DOMINION].layers.open(&g_list);
    let mut s = Solver {
        arena,
        order,
        in_g,
        remaining: g_list.len(),
        g_list,
        att,
        moves: vec![NONE; n],
        by_tangle: Vec::new(),
        stamp: 0,
        tangles: Tangles::new(),
        tin_head: Vec::new(),
        tin_next: Vec::new(),
        tin_tangle: Vec::new(),
        scc: Scc::new(0),
        mark: Vec::new(),
        escape_mark: Vec::new(),
        heads: Vec::new(),
        found: Vec::new(),
        escapes: Vec::new(),
        comp_buf: Vec::new(),
        comp_starts: Vec::new(),
        regions: Vec::new(),
        solved: Vec::new(),
        resume,
        out: Local::new(n),
        stats: Stats::default(),
    };
    while s.remaining > 0 {
        control.check()?;
        if !s.run_pass(control)? {
            // Every pass learns a tangle or solves a dominion (the lowest region is closed).
            debug_assert!(false, "tangle learning made no progress");
            return Err(Error::Unsupported(
                "internal error: tangle learning made no progress".into(),
            ));
        }
    }
    Ok((s.out, s.stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::parity::generate::{self, RandomGame, Rng};
    use crate::graph::ArenaBuilder;

    fn solve_with(arena: &Arena, resume: bool) -> (Local, Stats) {
        solve_whole(arena, resume, &Control::default()).expect("no cancel")
    }

    /// Random blocks of 3 to 24 vertices with priorities from one range (so the blocks'
    /// vertices interleave in the pass's order), each vertex with moves in its block and
    /// sometimes one into an earlier block: dominions are found deep in a pass and leave the
    /// regions above them, and their tangles, intact or nearly so.
    fn blocks(rng: &mut Rng) -> crate::graph::Arena {
        let priorities = 4 + rng.below(30) as u32;
        let mut b = ArenaBuilder::new();
        let mut start = 0u32;
        for _ in 0..3 + rng.below(10) {
            let size = 2 + rng.below(12) as u32;
            for _ in 0..size {
                let mut succ: Vec<u32> = (0..1 + rng.below(3))
                    .map(|_| start + rng.below(u64::from(size)) as u32)
                    .collect();
                if start > 0 && rng.below(8) == 0 {
                    succ.push(rng.below(u64::from(start)) as u32);
                }
                b.push(
                    rng.below(2) as u8,
                    rng.below(u64::from(priorities)) as u32,
                    succ,
                );
            }
            start += size;
        }
        b.build().expect("blocks are well formed")
    }

    /// Going on after a dominion is exactly what a new pass would do: the same dominions and
    /// tangles are found, so the answer and every strategy move are the same.
    #[test]
    fn resuming_a_pass_changes_nothing() {
        let mut games = vec![generate::friedmann(12), generate::gazda_willemse(8)];
        let mut rng = Rng::new(0x07a4_61e5_e0e5_u64);
        for _ in 0..1000 {
            games.push(blocks(&mut rng));
        }
        for seed in 0..150u64 {
            let n = 4 + (seed as usize * 7) % 120;
            games.push(
                RandomGame {
                    priorities: 2 + (seed % 9) as u32,
                    min_degree: 1,
                    max_degree: 1 + (seed % 4) as u32,
                    self_loops: seed % 3 == 0,
                    seed,
                    ..RandomGame::new(n)
                }
                .build(),
            );
        }
        let mut resumed = 0;
        for (i, arena) in games.iter().enumerate() {
            let (a, sa) = solve_with(arena, true);
            let (b, sb) = solve_with(arena, false);
            assert_eq!(a.winner, b.winner, "game {i}");
            assert_eq!(a.strategy, b.strategy, "game {i}");
            assert_eq!(
                (sa.dominions, sa.tangles),
                (sb.dominions, sb.tangles),
                "game {i}"
            );
            assert_eq!(sb.resumed, 0);
            resumed += sa.resumed;
        }
        assert!(resumed > 300, "passes went on {resumed} times");
        // Friedmann's family is solved in one pass, dominion after dominion.
        let (_, s) = solve_with(&generate::friedmann(30), true);
        assert_eq!((s.passes, s.resumed + 1), (1, s.dominions));
    }
}
