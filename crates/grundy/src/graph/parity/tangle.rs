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
//!   are solved, and the pass starts over;
//! - otherwise the bottom SCCs of the region's strategy graph are new tangles — a known one
//!   found again would have all its escapes in higher regions of α, and would have joined the
//!   last of them — or dominions if they have no escapes.
//!
//! The lowest region is always closed, so every pass finds a dominion or a new tangle, and
//! the algorithm terminates. All attractors of a pass share one [`Layers`] state (counters of
//! the opponent's vertices keep counting across regions), so a pass costs O(n + m + the
//! tangles it touches).
//!
//! # Complexity
//! Exponential in the worst case; one pass is O(n + m + total tangle size). O(n + m + total
//! tangle size) space.

use super::scc::Scc;
use super::{by_priority_descending, Local, NONE};
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
    /// Escapes not yet attracted in this pass (valid while `stamp[t] == pass`).
    counter: Vec<u32>,
    stamp: Vec<u32>,
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
}

struct Solver<'a> {
    arena: &'a Arena,
    /// Vertices by priority, highest first.
    order: Vec<u32>,
    in_g: Vec<bool>,
    g_list: Vec<u32>,
    layers: Layers,
    /// Position in the pass's queue of each vertex decided in the pass.
    qpos: Vec<u32>,
    /// α's move in the region (or dominion) of each vertex, where computed.
    moves: Vec<u32>,
    /// `pass` where the vertex joined the pass's region with a tangle (its move is the
    /// tangle's): a stamp, so a new pass starts without clearing it.
    by_tangle: Vec<u32>,
    tangles: Tangles,
    /// Tangles with an escape to `v`: a linked list from `tin_head[v]` through `tin_next`.
    tin_head: Vec<u32>,
    tin_next: Vec<u32>,
    tin_tangle: Vec<u32>,
    scc: Scc,
    mark: Vec<bool>,
    escape_mark: Vec<bool>,
    heads: Vec<u32>,
    found: Vec<u32>,
    escapes: Vec<u32>,
    comp_buf: Vec<u32>,
    comp_starts: Vec<usize>,
    pass: u32,
    out: Local,
    stats: Stats,
}

impl Solver<'_> {
    /// Whether `w` was decided in the current region, whose queue segment starts at `rs`.
    #[inline]
    fn in_region(&self, w: u32, rs: usize, re: usize) -> bool {
        self.in_g[w as usize] && !self.layers.is_open(w) && {
            let q = self.qpos[w as usize] as usize;
            rs <= q && q < re
        }
    }

    /// Attracts for `alpha` from the queue entries at `scan..`, with tangles: whenever every
    /// escape of an α-tangle is attracted and the tangle lies in the current subgame (no
    /// vertex decided before `rs`, the start of the current region), the whole tangle joins.
    fn grow(&mut self, alpha: u8, rs: usize, mut scan: usize) {
        loop {
            self.layers.attract(self.arena, alpha, &self.in_g);
            let end = self.layers.queue().len();
            if scan == end {
                return;
            }
            for i in scan..end {
                let v = self.layers.queue()[i];
                self.qpos[v as usize] = i as u32;
            }
            for i in scan..end {
                let v = self.layers.queue()[i];
                let mut e = self.tin_head[v as usize];
                while e != NONE {
                    let t = self.tin_tangle[e as usize] as usize;
                    e = self.tin_next[e as usize];
                    if self.tangles.player[t] != alpha || !self.tangles.alive[t] {
                        continue;
                    }
                    if self.tangles.stamp[t] != self.pass {
                        self.tangles.stamp[t] = self.pass;
                        let in_g = &self.in_g;
                        self.tangles.counter[t] = self
                            .tangles
                            .escapes(t)
                            .iter()
                            .filter(|&&w| in_g[w as usize])
                            .count() as u32;
                    }
                    self.tangles.counter[t] -= 1;
                    if self.tangles.counter[t] == 0 {
                        self.attract_tangle(t, rs);
                    }
                }
            }
            scan = end;
        }
    }

    /// Adds tangle `t` (all of whose escapes are attracted) to the current region if it lies
    /// in the current subgame.
    fn attract_tangle(&mut self, t: usize, rs: usize) {
        for i in self.tangles.vertices(t) {
            let x = self.tangles.verts[i];
            if !self.in_g[x as usize] {
                // Part of it is solved: it can never be attracted again.
                self.tangles.alive[t] = false;
                return;
            }
            if !self.layers.is_open(x) && (self.qpos[x as usize] as usize) < rs {
                return;
            }
        }
        for i in self.tangles.vertices(t) {
            let x = self.tangles.verts[i];
            if self.layers.seed(x, true) {
                self.qpos[x as usize] = (self.layers.queue().len() - 1) as u32;
                self.by_tangle[x as usize] = self.pass;
                self.moves[x as usize] = self.tangles.vmove[i];
            }
        }
    }

    /// α's moves in the region `queue[rs..re]`: tangle moves for vertices attracted with a
    /// tangle, any move into the region for heads, and a move to an earlier vertex of the
    /// region for the rest. With these, every cycle in the region passes through a head or
    /// stays inside one tangle.
    fn region_moves(&mut self, alpha: u8, rs: usize, re: usize) {
        for i in rs..re {
            let x = self.layers.queue()[i];
            if self.arena.owner(x) != alpha {
                self.moves[x as usize] = NONE;
                continue;
            }
            if self.by_tangle[x as usize] == self.pass {
                continue;
            }
            let head = matches!(self.layers.read(x), Some((_, 0)));
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

    /// Whether the region `queue[rs..re]` is closed: α's heads have a move into it and the
    /// opponent's heads have no move to an undecided vertex.
    fn closed(&self, alpha: u8, rs: usize, re: usize) -> bool {
        self.heads.iter().all(|&h| {
            let succ = self.arena.successors(h);
            if self.arena.owner(h) == alpha {
                succ.iter().any(|&w| self.in_region(w, rs, re))
            } else {
                !succ
                    .iter()
                    .any(|&w| self.in_g[w as usize] && self.layers.is_open(w))
            }
        })
    }

    /// Finds the bottom SCCs of the strategy graph of the closed region `queue[rs..re]`
    /// reachable from its heads; records those with escapes as tangles and collects the
    /// others (dominions) into `found`. Returns whether any tangle was learned.
    fn extract(&mut self, alpha: u8, rs: usize, re: usize) -> bool {
        self.found.clear();
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
        scc.clear(self.layers.queue()[rs..re].iter().copied());
        self.scc = scc;
        let mut learned = false;
        for k in 0..starts.len() - 1 {
            let comp = &buf[starts[k]..starts[k + 1]];
            match self.bottom(alpha, comp, rs, re) {
                None => {}
                Some(true) => self.found.extend_from_slice(comp),
                Some(false) => {
                    self.learn(alpha, comp);
                    learned = true;
                }
            }
        }
        self.comp_buf = buf;
        self.comp_starts = starts;
        learned
    }

    /// For a non-trivial component of a region's strategy graph: `None` if some edge of the
    /// strategy graph leaves it (not bottom), else whether it has no escapes (a dominion).
    fn bottom(&mut self, alpha: u8, comp: &[u32], rs: usize, re: usize) -> Option<bool> {
        for &x in comp {
            self.mark[x as usize] = true;
        }
        let mut bottom = true;
        let mut escapes = false;
        'scan: for &x in comp {
            if self.arena.owner(x) == alpha {
                if !self.mark[self.moves[x as usize] as usize] {
                    bottom = false;
                    break;
                }
            } else {
                for &w in self.arena.successors(x) {
                    if self.mark[w as usize] {
                        continue;
                    }
                    if self.in_region(w, rs, re) {
                        bottom = false;
                        break 'scan;
                    }
                    escapes |= self.in_g[w as usize];
                }
            }
        }
        for &x in comp {
            self.mark[x as usize] = false;
        }
        bottom.then_some(!escapes)
    }

    /// Records `comp` as a new tangle of `alpha`.
    fn learn(&mut self, alpha: u8, comp: &[u32]) {
        let t = self.tangles.len() as u32;
        for &x in comp {
            self.mark[x as usize] = true;
        }
        self.escapes.clear();
        for &x in comp {
            self.tangles.verts.push(x);
            if self.arena.owner(x) == alpha {
                self.tangles.vmove.push(self.moves[x as usize]);
            } else {
                self.tangles.vmove.push(NONE);
                for &w in self.arena.successors(x) {
                    if self.in_g[w as usize]
                        && !self.mark[w as usize]
                        && !self.escape_mark[w as usize]
                    {
                        self.escape_mark[w as usize] = true;
                        self.escapes.push(w);
                    }
                }
            }
        }
        for &x in comp {
            self.mark[x as usize] = false;
        }
        for &w in &self.escapes {
            self.escape_mark[w as usize] = false;
            self.tin_tangle.push(t);
            self.tin_next.push(self.tin_head[w as usize]);
            self.tin_head[w as usize] = (self.tin_tangle.len() - 1) as u32;
        }
        self.tangles.escapes.extend_from_slice(&self.escapes);
        self.tangles.estart.push(self.tangles.escapes.len());
        self.tangles.vstart.push(self.tangles.verts.len());
        self.tangles.player.push(alpha);
        self.tangles.alive.push(true);
        self.tangles.counter.push(0);
        self.tangles.stamp.push(0);
        self.stats.tangles += 1;
    }

    /// Solves the α-dominion `seeds` (whose α-vertices have their moves in `moves`) and its
    /// tangle attractor in the unsolved game, and removes them.
    fn solve_dominion(&mut self, alpha: u8, seeds: &[u32]) {
        self.stats.dominions += 1;
        self.next_pass();
        self.layers.open(&self.g_list);
        let mut count = 0;
        for &v in seeds {
            if self.layers.seed(v, true) {
                self.qpos[v as usize] = count;
                count += 1;
            }
        }
        self.grow(alpha, 0, 0);
        let len = self.layers.queue().len();
        for i in 0..len {
            let x = self.layers.queue()[i];
            self.out.winner[x as usize] = alpha;
            self.out.strategy[x as usize] = if self.arena.owner(x) != alpha {
                NONE
            } else if i < count as usize || self.by_tangle[x as usize] == self.pass {
                self.moves[x as usize]
            } else {
                self.arena
                    .successors(x)
                    .iter()
                    .copied()
                    .find(|&w| self.in_region(w, 0, i))
                    .unwrap_or(NONE)
            };
            debug_assert!(self.arena.owner(x) != alpha || self.out.strategy[x as usize] != NONE);
        }
        for i in 0..len {
            let x = self.layers.queue()[i];
            self.in_g[x as usize] = false;
        }
        let in_g = &self.in_g;
        self.g_list.retain(|&v| in_g[v as usize]);
    }

    /// Starts a new pass (or a dominion's attraction): a new stamp. After 2^32 of them the
    /// stamps start again from 1, with every old stamp erased.
    fn next_pass(&mut self) {
        self.pass = self.pass.wrapping_add(1);
        if self.pass == 0 {
            self.by_tangle.fill(0);
            self.tangles.stamp.fill(0);
            self.pass = 1;
        }
    }

    /// One pass: the top-down decomposition, until a dominion is solved (true) or the last
    /// region is done (true if a tangle was learned).
    fn run_pass(&mut self, control: &Control) -> Result<bool, Error> {
        self.stats.passes += 1;
        self.next_pass();
        self.layers.open(&self.g_list);
        let len = self.order.len();
        let mut ptr = 0;
        let mut highest = [true, true];
        let mut learned = false;
        let mut regions = 0u32;
        loop {
            while ptr < len && !self.open_in_g(self.order[ptr]) {
                ptr += 1;
            }
            if ptr == len {
                break;
            }
            regions = regions.wrapping_add(1);
            if regions % 1024 == 0 {
                control.check()?;
            }
            let alpha = (self.arena.priority(self.order[ptr]) & 1) as u8;
            let rs = self.layers.queue().len();
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
                let scan = self.layers.queue().len();
                self.layers.seed(v, true);
                self.grow(alpha, rs, scan);
                ptr += 1;
            }
            let re = self.layers.queue().len();
            while ptr < len && !self.open_in_g(self.order[ptr]) {
                ptr += 1;
            }
            let lowest = ptr == len;
            if lowest || self.closed(alpha, rs, re) {
                self.region_moves(alpha, rs, re);
                if highest[alpha as usize] {
                    let region = self.layers.queue()[rs..re].to_vec();
                    self.solve_dominion(alpha, &region);
                    return Ok(true);
                }
                learned |= self.extract(alpha, rs, re);
                if !self.found.is_empty() {
                    let found = std::mem::take(&mut self.found);
                    self.solve_dominion(alpha, &found);
                    self.found = found;
                    return Ok(true);
                }
            }
            highest[alpha as usize] = false;
        }
        Ok(learned)
    }

    #[inline]
    fn open_in_g(&self, v: u32) -> bool {
        self.in_g[v as usize] && self.layers.is_open(v)
    }
}

/// Solves `arena` (no dead ends) by tangle learning.
pub(super) fn solve(arena: &Arena, control: &Control) -> Result<(Local, Stats), Error> {
    let n = arena.len();
    run(
        arena,
        by_priority_descending(arena, None),
        vec![true; n],
        (0..n as u32).collect(),
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
    run(arena, order, in_g, members.to_vec(), control)
}

/// Tangle learning on the vertices `g_list` (membership `in_g`; `order` is them by priority,
/// highest first); the answer is indexed by vertex.
fn run(
    arena: &Arena,
    order: Vec<u32>,
    in_g: Vec<bool>,
    g_list: Vec<u32>,
    control: &Control,
) -> Result<(Local, Stats), Error> {
    let n = arena.len();
    let mut s = Solver {
        arena,
        order,
        in_g,
        g_list,
        layers: Layers::new(n),
        qpos: vec![0; n],
        moves: vec![NONE; n],
        by_tangle: vec![0; n],
        tangles: Tangles::new(),
        tin_head: vec![NONE; n],
        tin_next: Vec::new(),
        tin_tangle: Vec::new(),
        scc: Scc::new(n),
        mark: vec![false; n],
        escape_mark: vec![false; n],
        heads: Vec::new(),
        found: Vec::new(),
        escapes: Vec::new(),
        comp_buf: Vec::new(),
        comp_starts: Vec::new(),
        pass: 0,
        out: Local::new(n),
        stats: Stats::default(),
    };
    while !s.g_list.is_empty() {
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
