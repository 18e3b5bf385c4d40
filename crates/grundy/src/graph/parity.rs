//! Parity games: the winner of every vertex and positional winning strategies for both
//! players, by Zielonka's recursive algorithm, tangle learning or fixpoint iteration with
//! justifications, after preprocessing that removes the easy parts.
//!
//! Conventions as everywhere in [`graph`](crate::graph): max-even (player 0 wins a play whose
//! highest priority seen infinitely often is even) and normal play at dead ends (the player who
//! must move and cannot loses).
//!
//! The pipeline of [`solve_parity_with`]:
//!
//! 1. **Dead ends**: a dead end is lost by its owner; everything either player can force into
//!    the other's dead ends is solved by one run of the retrograde engine
//!    ([`Layers`] with a two-player "solved" rule). What is left has no dead ends.
//! 2. **Self-loops** ([`ParityOptions::self_loops`]): a vertex whose owner likes its own
//!    priority and has a self-loop is won by looping; a vertex whose only move is a self-loop
//!    is won by its priority's parity. Other self-loops are dropped from the subgames (the
//!    owner never wins by looping on the wrong parity).
//! 3. **Winner-controlled winning cycles** ([`ParityOptions::cycles`]): cycles through one
//!    player's vertices only, topped by that player's parity, are won by that player; found by
//!    a one-player SCC refinement and attracted by the engine; player 1's search runs on what
//!    player 0's attractor left, with the same tables. (Both searches on two threads, tried
//!    before, held two sets of tables at once: 1.2× the peak memory of a random 10^6-vertex
//!    game, and no faster on a loaded two-core machine.)
//! 4. **SCC decomposition** ([`ParityOptions::scc`]): strongly connected components of what is
//!    left, solved bottom-up; after each component its winners are attracted into the rest by
//!    the same engine run, so the unsolved part of the next component is a subgame that no
//!    player can leave to its advantage.
//! 5. Each part is copied to a small arena with **compressed priorities**
//!    ([`ParityOptions::compress`]: consecutive distinct priorities of one parity merged and
//!    renumbered 0, 1, 2, …), one-parity parts are won outright, and the rest goes to the
//!    chosen [`ParityAlgorithm`]. A part of at least a quarter of the arena is solved where it
//!    lies instead (the solvers need neither the compression nor the copy, and the copy is
//!    what such a part costs most).
//!
//! Winning strategies are assembled from the parts (each part's solver) and the engine runs
//! (the move by which the engine decided a vertex, recorded as it decides), so every answer can
//! be checked by [`verify_parity`](crate::graph::verify_parity).
//!
//! ```
//! use grundy::explore::Control;
//! use grundy::graph::parity::{solve_parity, ParityAlgorithm};
//! use grundy::graph::{verify_parity, ArenaBuilder};
//!
//! // Player 0 at 0 chooses between a loop on priority 1 and going to 1;
//! // player 1 at 1 chooses between priority 2 at 2 and going back to 0.
//! let mut b = ArenaBuilder::new();
//! b.push(0, 1, [0, 1]);
//! b.push(1, 0, [0, 2]);
//! b.push(0, 2, [2]);
//! let arena = b.build().unwrap();
//! for algorithm in ParityAlgorithm::ALL {
//!     let s = solve_parity(&arena, algorithm, &Control::default()).unwrap();
//!     // Player 1 keeps the play on 0 ⇄ 1 (top priority 1): player 1 wins 0 and 1.
//!     assert_eq!(s.winner, [1, 1, 0]);
//!     assert_eq!(verify_parity(&arena, &s.winner, &s.strategy), Ok(()));
//! }
//! ```

mod cycles;
mod fpj;
pub mod generate;
mod scc;
mod tangle;
mod zielonka;

use std::fmt;
use std::str::FromStr;

use self::cycles::{Census, CycleSearch};
use super::arena::{Arena, Csr};
use super::attractor::Layers;
use crate::engine::{Moves, Rule};
use crate::explore::Control;
use crate::Error;

/// "No vertex" in the solvers' `u32` tables.
pub(crate) const NONE: u32 = u32::MAX;

/// A solver's answer on a part: winner per vertex, the owner's move where it wins (else
/// [`NONE`]), in the part's ids.
#[derive(Debug, Clone)]
pub(crate) struct Local {
    pub winner: Vec<u8>,
    pub strategy: Vec<u32>,
}

impl Local {
    pub(crate) fn new(n: usize) -> Local {
        Local {
            winner: vec![0; n],
            strategy: vec![NONE; n],
        }
    }
}

/// The vertices of `arena` (or only `members`) by priority, highest first: a counting sort
/// when priorities are small next to the count (as they are after compression), else a
/// comparison sort.
pub(super) fn by_priority_descending(arena: &Arena, members: Option<&[u32]>) -> Vec<u32> {
    match members {
        Some(m) => sort_descending(arena, m.iter().copied(), m.len()),
        None => sort_descending(arena, arena.vertices(), arena.len()),
    }
}

fn sort_descending(arena: &Arena, vs: impl Iterator<Item = u32> + Clone, len: usize) -> Vec<u32> {
    let max = vs.clone().map(|v| arena.priority(v)).max().unwrap_or(0) as usize;
    if max > 2 * len + 64 {
        let mut order: Vec<u32> = vs.collect();
        order.sort_unstable_by_key(|&v| std::cmp::Reverse(arena.priority(v)));
        return order;
    }
    let mut start = vec![0u32; max + 2];
    for v in vs.clone() {
        start[max - arena.priority(v) as usize + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut order = vec![0u32; len];
    for v in vs {
        let slot = &mut start[max - arena.priority(v) as usize];
        order[*slot as usize] = v;
        *slot += 1;
    }
    order
}

/// `local` as a table of `n` entries, all [`NONE`] when first allocated: an empty vector is
/// allocated on first use, so that a solve that never needs it never writes it.
pub(super) fn ids_scratch(local: &mut Vec<u32>, n: usize) -> &mut [u32] {
    if local.is_empty() {
        *local = vec![NONE; n];
    }
    local
}

/// The solution of a parity game: the same winner-and-strategy shape as every graph
/// objective's.
pub type ParitySolution = super::objectives::Solution;

/// Which algorithm solves the parts that preprocessing leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParityAlgorithm {
    /// Zielonka's recursive algorithm (`zielonka`, `zlk`).
    Zielonka,
    /// Tangle learning, van Dijk 2018 (`tangle`, `tl`).
    Tangle,
    /// Fixpoint iteration with justifications, Lapauw–Bruynooghe–Denecker 2020 (`fpj`).
    Fpj,
}

impl ParityAlgorithm {
    /// Every algorithm, in a fixed order.
    pub const ALL: [ParityAlgorithm; 3] = [
        ParityAlgorithm::Zielonka,
        ParityAlgorithm::Tangle,
        ParityAlgorithm::Fpj,
    ];

    /// The algorithm's name as [`FromStr`] reads it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ParityAlgorithm::Zielonka => "zielonka",
            ParityAlgorithm::Tangle => "tangle",
            ParityAlgorithm::Fpj => "fpj",
        }
    }
}

/// Tangle learning: what every front end solves parity games with unless told otherwise.
impl Default for ParityAlgorithm {
    fn default() -> Self {
        ParityAlgorithm::Tangle
    }
}

impl fmt::Display for ParityAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An algorithm name that [`ParityAlgorithm`] does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown parity algorithm {0:?} (known: zielonka/zlk, tangle/tl, fpj)")]
pub struct UnknownAlgorithm(pub String);

impl FromStr for ParityAlgorithm {
    type Err = UnknownAlgorithm;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "zielonka" | "zlk" => Ok(ParityAlgorithm::Zielonka),
            "tangle" | "tl" | "tangle-learning" => Ok(ParityAlgorithm::Tangle),
            "fpj" | "justifications" => Ok(ParityAlgorithm::Fpj),
            _ => Err(UnknownAlgorithm(s.to_string())),
        }
    }
}

/// Preprocessing switches. Each is on by default, because each was measured to pay (or to
/// cost next to nothing) on the shared benchmark set; turn them off to measure again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParityOptions {
    /// Solve self-loops the owner likes, and drop those it does not (default `true`).
    pub self_loops: bool,
    /// Solve winner-controlled winning cycles first: cycles of one player's vertices topped
    /// by that player's parity (default `true`).
    pub cycles: bool,
    /// Solve strongly connected components bottom-up (default `true`).
    pub scc: bool,
    /// Compress the priorities of each part (default `true`).
    pub compress: bool,
}

impl Default for ParityOptions {
    fn default() -> Self {
        ParityOptions {
            self_loops: true,
            cycles: true,
            scc: true,
            compress: true,
        }
    }
}

/// Solves the parity game on `arena` with `algorithm` and the default [`ParityOptions`].
///
/// # Errors
/// [`Error::Cancelled`] if `control`'s cancel flag is set during the solve.
pub fn solve_parity(
    arena: &Arena,
    algorithm: ParityAlgorithm,
    control: &Control,
) -> Result<ParitySolution, Error> {
    solve_parity_with(arena, algorithm, &ParityOptions::default(), control)
}

/// The engine rule that spreads solved vertices: value = the winner is player 1. A vertex
/// with a successor won by its owner is won by its owner (and moves there); one whose
/// successors are all won by the opponent is lost. The moves go to the propagation's sink
/// ([`Moves`] into the strategy).
struct Solved<'a> {
    owner: &'a [u8],
}

impl Rule for Solved<'_> {
    #[inline(always)]
    fn on_successor(&self, vertex: u32, value: bool) -> Option<bool> {
        (self.owner[vertex as usize] == u8::from(value)).then_some(value)
    }

    #[inline(always)]
    fn on_all(&self, vertex: u32) -> bool {
        self.owner[vertex as usize] == 0
    }
}

/// The whole-game bookkeeping of the pipeline.
struct Pipeline<'a> {
    arena: &'a Arena,
    options: ParityOptions,
    layers: Layers,
    /// The winner's move where the winner owns the vertex, else [`NONE`] (becomes the
    /// answer's strategy). Four bytes a vertex, not an `Option`'s eight: the engine writes it
    /// at random as it decides.
    strategy: Vec<u32>,
    /// Part-local id of each vertex of the part being built, else NONE. Empty until a cycle
    /// search or a part needs it: an arena that propagation solves never writes it.
    local: Vec<u32>,
}

impl Pipeline<'_> {
    /// `local`, allocated on first use.
    fn local(&mut self) -> &mut [u32] {
        ids_scratch(&mut self.local, self.arena.len())
    }

    /// Seeds `v` as won by `winner` (with `winner`'s move `mv` if it owns `v`).
    fn settle(&mut self, v: u32, winner: u8, mv: u32) {
        if self.layers.seed(v, winner == 1) {
            self.strategy[v as usize] = mv;
        }
    }

    /// Seeds what a cycle search found for `player`, with its moves.
    fn settle_found(&mut self, search: &CycleSearch, player: u8) {
        for (v, w) in search.found() {
            self.settle(v, player, w);
        }
    }

    /// Spreads the seeds through the engine; every vertex it decides by a move of the winner
    /// gets that move (the engine records it).
    fn spread(&mut self) {
        if self.layers.queue().len() == self.arena.len() {
            // Everything is decided (the last part usually ends so): nothing to spread to.
            return;
        }
        let rule = Solved {
            owner: self.arena.owners(),
        };
        self.layers
            .propagate(self.arena, &rule, &mut Moves(&mut self.strategy));
    }

    /// Decides what the part just solved decides among `rest` (every vertex still open lies
    /// there) by reading the moves of `rest`'s open vertices ([`Layers::pull`]) instead of
    /// spreading from the part along every edge into it: the cheaper way when `rest` has
    /// fewer moves than the part has predecessors (as when a large component is solved and a
    /// few sources above it remain).
    fn settle_rest(&mut self, rest: &[u32]) {
        let rule = Solved {
            owner: self.arena.owners(),
        };
        self.layers
            .pull(self.arena, rest, &rule, &mut Moves(&mut self.strategy));
    }

    /// Solves the part `members` (unsolved, closed under the moves that matter: every member
    /// has a move to a member) with `algorithm`, and seeds the answer.
    fn solve_part(
        &mut self,
        members: &[u32],
        algorithm: ParityAlgorithm,
        control: &Control,
    ) -> Result<(), Error> {
        let arena = self.arena;
        if let [v] = *members {
            // A one-vertex part loops on itself.
            let winner = (arena.priority(v) & 1) as u8;
            let mv = if arena.owner(v) == winner { v } else { NONE };
            self.settle(v, winner, mv);
            return Ok(());
        }
        let local = self.local();
        for (i, &v) in members.iter().enumerate() {
            local[v as usize] = i as u32;
        }
        let parity = arena.priority(members[0]) & 1;
        if members.iter().all(|&v| arena.priority(v) & 1 == parity) {
            let winner = parity as u8;
            for &v in members {
                let mv = if arena.owner(v) == winner {
                    arena
                        .successors(v)
                        .iter()
                        .copied()
                        .find(|&w| self.local[w as usize] != NONE)
                        .unwrap_or(NONE)
                } else {
                    NONE
                };
                self.settle(v, winner, mv);
            }
        } else {
            // When the part is the whole arena and a copy would change nothing, solve the
            // arena itself (ids are then global) and save the copy and its reverse graph.
            let whole = members.len() == arena.len() && self.copy_is_identity();
            // A large part is solved where it lies, without a copy: the solvers need neither
            // compressed priorities nor the dropped self-loops, and ignore edges leaving the
            // part. Their tables are then as large as the arena, so small parts are still
            // copied.
            let in_place = !whole && members.len() * 4 >= arena.len();
            let part;
            let game = if whole || in_place {
                arena
            } else {
                part = self.part_arena(members);
                &part
            };
            let local = match algorithm {
                ParityAlgorithm::Zielonka if in_place => {
                    zielonka::solve_part(arena, members, control)
                }
                ParityAlgorithm::Zielonka => zielonka::solve(game, control),
                ParityAlgorithm::Tangle if in_place => {
                    tangle::solve_part(arena, members, control).map(|(l, _)| l)
                }
                ParityAlgorithm::Tangle => tangle::solve(game, control).map(|(l, _)| l),
                ParityAlgorithm::Fpj if in_place => fpj::solve_part(arena, members, control),
                ParityAlgorithm::Fpj => fpj::solve(game, control),
            };
            let local = match local {
                Ok(l) => l,
                Err(e) => {
                    for &v in members {
                        self.local[v as usize] = NONE;
                    }
                    return Err(e);
                }
            };
            // Answers and moves are in the arena's ids, except for a copied part: there both
            // are in positions in `members`.
            let copied = !(whole || in_place);
            for (i, &v) in members.iter().enumerate() {
                let at = if copied { i } else { v as usize };
                let s = local.strategy[at];
                let mv = if s != NONE && copied {
                    members[s as usize]
                } else {
                    s
                };
                self.settle(v, local.winner[at], mv);
            }
        }
        for &v in members {
            self.local[v as usize] = NONE;
        }
        Ok(())
    }

    /// Whether copying the whole arena as a part would change nothing: no self-loop to drop
    /// and priorities already compressed (or compression off).
    fn copy_is_identity(&self) -> bool {
        let arena = self.arena;
        if self.options.self_loops
            && arena.vertices().any(|v| {
                arena.priority(v) & 1 != u32::from(arena.owner(v))
                    && arena.successors(v).contains(&v)
            })
        {
            return false;
        }
        if self.options.compress {
            let mut p = arena.priorities().to_vec();
            compress_priorities(&mut p);
            return p == arena.priorities();
        }
        true
    }

    /// The part `members` (with `local` set) as an arena of its own: edges inside the part,
    /// self-loops the owner dislikes dropped where another move remains, priorities compressed.
    fn part_arena(&self, members: &[u32]) -> Arena {
        let arena = self.arena;
        let mut offsets = Vec::with_capacity(members.len() + 1);
        let mut targets = Vec::new();
        // `u32` offsets, as the arena keeps them: a part has at most the arena's edges.
        offsets.push(0u32);
        for &v in members {
            let start = targets.len();
            let mut looped = false;
            for &w in arena.successors(v) {
                let lw = self.local[w as usize];
                if lw == NONE {
                    continue;
                }
                if w == v
                    && self.options.self_loops
                    && arena.priority(v) & 1 != u32::from(arena.owner(v))
                {
                    looped = true;
                    continue;
                }
                targets.push(lw);
            }
            if looped && targets.len() == start {
                targets.push(self.local[v as usize]);
            }
            offsets.push(targets.len() as u32);
        }
        let owner: Vec<u8> = members.iter().map(|&v| arena.owner(v)).collect();
        let mut priority: Vec<u32> = members.iter().map(|&v| arena.priority(v)).collect();
        if self.options.compress {
            compress_priorities(&mut priority);
        }
        let csr = Csr::from_narrow_parts(offsets, targets).expect("a part's edges are in range");
        Arena::new(owner, priority, csr).expect("a part's tables agree")
    }
}

/// Appends `vertices` (distinct) to `out` by increasing id, with `bits` as scratch: one bit a
/// vertex of the arena, all zero, and left so (allocated on first use).
///
/// # Complexity
/// O(|vertices| + n / 64).
fn increasing(vertices: &[u32], bits: &mut Vec<u64>, out: &mut Vec<u32>) {
    let Some(&max) = vertices.iter().max() else {
        return;
    };
    let words = max as usize / 64 + 1;
    if bits.len() < words {
        bits.resize(words, 0);
    }
    for &v in vertices {
        bits[v as usize / 64] |= 1 << (v % 64);
    }
    for (i, word) in bits[..words].iter_mut().enumerate() {
        let mut w = std::mem::take(word);
        while w != 0 {
            out.push(i as u32 * 64 + w.trailing_zeros());
            w &= w - 1;
        }
    }
}

/// Renumbers priorities so that the order and the parity of every priority are kept, but
/// consecutive distinct priorities of one parity merge: the result is 0 or 1, 2, 3, … with no
/// gaps and alternating parity.
pub(crate) fn compress_priorities(priority: &mut [u32]) {
    let Some(&max) = priority.iter().max() else {
        return;
    };
    if (max as usize) <= 2 * priority.len() + 64 {
        // Small priorities: a table indexed by priority.
        let mut image = vec![NONE; max as usize + 1];
        for &p in priority.iter() {
            image[p as usize] = 0;
        }
        let mut q = 0u32;
        let mut last: Option<u32> = None;
        for (p, slot) in image.iter_mut().enumerate() {
            if *slot == NONE {
                continue;
            }
            let p = p as u32;
            match last {
                None => q = p & 1,
                Some(l) if l & 1 != p & 1 => q += 1,
                Some(_) => {}
            }
            last = Some(p);
            *slot = q;
        }
        for p in priority.iter_mut() {
            *p = image[*p as usize];
        }
        return;
    }
    let mut distinct: Vec<u32> = priority.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let mut image = Vec::with_capacity(distinct.len());
    let mut q = 0u32;
    for (i, &p) in distinct.iter().enumerate() {
        if i == 0 {
            q = p & 1;
        } else if p & 1 != distinct[i - 1] & 1 {
            q += 1;
        }
        image.push(q);
    }
    for p in priority.iter_mut() {
        let i = distinct.binary_search(p).expect("every priority is listed");
        *p = image[i];
    }
}

/// Solves the parity game on `arena` with `algorithm` after the preprocessing `options`
/// select (see the [module docs](self)).
///
/// # Complexity
/// Preprocessing is O(n + m); the parts cost what `algorithm` costs on them.
///
/// # Errors
/// [`Error::Cancelled`] if `control`'s cancel flag is set during the solve.
pub fn solve_parity_with(
    arena: &Arena,
    algorithm: ParityAlgorithm,
    options: &ParityOptions,
    control: &Control,
) -> Result<ParitySolution, Error> {
    let mut pipe = Pipeline {
        arena,
        options: *options,
        layers: Layers::all_open(arena),
        strategy: vec![NONE; arena.len()],
        local: Vec::new(),
    };
    let census = pipe.settle_dead_ends_and_loops();
    control.check()?;
    // One set of search tables for both players' cycle searches and the SCC pass.
    let mut search = CycleSearch::new(arena);
    if let Some(census) = census {
        pipe.settle_cycles(census, &mut search, control)?;
    }
    let (buf, starts) = pipe.parts(&mut search);
    // The searches' tables are not needed again: freed, the solver's reuse their room.
    drop(search);
    pipe.solve_parts(&buf, &starts, algorithm, control)?;
    Ok(pipe.answer())
}

impl Pipeline<'_> {
    /// Dead ends (lost by their owner) and self-loops (won by the owner when the loop's
    /// parity is theirs; lost when it is the only move and is not), then their attractors.
    /// With [`ParityOptions::cycles`], the same pass over the edges takes the cycle
    /// searches' [`Census`], returned without what the attractors decided.
    fn settle_dead_ends_and_loops(&mut self) -> Option<Census> {
        let arena = self.arena;
        let mut census = None;
        if self.options.cycles {
            // Every vertex is open until the pass seeds it: what it seeds, and what its
            // seeds attract, is closed after.
            census = Some(Census::with_pass(
                arena,
                |_| true,
                |v, moves| self.settle_trivial(v, moves),
            ));
        } else {
            for v in arena.vertices() {
                self.settle_trivial(v, arena.successors(v));
            }
        }
        self.spread();
        if let Some(census) = &mut census {
            for &v in self.layers.queue() {
                census.close(v);
            }
        }
        census
    }

    /// Seeds `v` (with its `moves`) if it is a dead end or has a self-loop that decides it.
    /// Inlined into the pass that calls it on every vertex: a call per vertex, left to the
    /// compiler, cost a separate function on the hot path.
    #[inline(always)]
    fn settle_trivial(&mut self, v: u32, moves: &[u32]) {
        let owner = self.arena.owner(v);
        if moves.is_empty() {
            self.settle(v, 1 - owner, NONE);
        } else if self.options.self_loops && moves.contains(&v) {
            let parity = (self.arena.priority(v) & 1) as u8;
            if parity == owner {
                self.settle(v, owner, v);
            } else if moves.len() == 1 {
                self.settle(v, parity, NONE);
            }
        }
    }

    /// The cycles each player wins outright, and their attractors: one player after the
    /// other, the second searching what the first's attractor left. `census` names no
    /// vertex decided so far.
    fn settle_cycles(
        &mut self,
        mut census: Census,
        search: &mut CycleSearch,
        control: &Control,
    ) -> Result<(), Error> {
        let arena = self.arena;
        // Every vertex decided is in the queue: the rest is open.
        if self.layers.queue().len() >= arena.len() {
            return Ok(());
        }
        for player in [0u8, 1] {
            if census.work(player) == 0 {
                continue;
            }
            search.winner_cycles(arena, player, &census, &mut self.local);
            let decided = self.layers.queue().len();
            self.settle_found(search, player);
            self.spread();
            if player == 0 {
                // What player 0's attractor decided is out of player 1's search.
                for &v in &self.layers.queue()[decided..] {
                    census.close(v);
                }
            }
            control.check()?;
        }
        Ok(())
    }

    /// The open vertices as parts, in the order they are solved: their SCCs bottom-up,
    /// or all of them at once. The parts' vertices one after another, and where each
    /// part starts (with the end last).
    fn parts(&self, search: &mut CycleSearch) -> (Vec<u32>, Vec<usize>) {
        let arena = self.arena;
        let mut buf: Vec<u32> = Vec::new();
        let mut starts: Vec<usize> = vec![0];
        if self.layers.queue().len() >= arena.len() {
            // Everything is decided (random games end so after the cycles' attractors):
            // no part, and no pass over the vertices to find none.
            return (buf, starts);
        }
        if self.options.scc {
            let scc = &mut search.scc;
            // Decided vertices are excluded up front: one write each, instead of a look at
            // the engine's state for every edge.
            for v in arena.vertices() {
                if !self.layers.is_open(v) {
                    scc.exclude(v);
                }
            }
            // A component solved where it lies (see `solve_part`) is listed by increasing
            // id, so that the passes over its members read and write the arena's tables in
            // order: put in order through a bit a vertex, in one pass. (full_arbiter_7, one
            // component of 47 714 of its 47 717 vertices: FPJ's part 1.8 ms instead of 2.3.)
            let mut members: Vec<u64> = Vec::new();
            for root in arena.vertices() {
                if scc.visited(root) {
                    continue;
                }
                scc.search(
                    root,
                    |v| arena.successors(v),
                    |_| true,
                    |comp| {
                        if comp.len() * 4 >= arena.len() {
                            increasing(comp, &mut members, &mut buf);
                        } else {
                            buf.extend_from_slice(comp);
                        }
                        starts.push(buf.len());
                    },
                );
            }
        } else {
            buf.extend(arena.vertices().filter(|&v| self.layers.is_open(v)));
            starts.push(buf.len());
        }
        (buf, starts)
    }

    /// The rest, part by part ([`Pipeline::parts`]), each by `algorithm`, its result
    /// spread (or, when that costs less, the parts after it settled at once).
    fn solve_parts(
        &mut self,
        buf: &[u32],
        starts: &[usize],
        algorithm: ParityAlgorithm,
        control: &Control,
    ) -> Result<(), Error> {
        let arena = self.arena;
        // The moves of the components from k on (see `settle_rest`).
        let mut moves_from = vec![0usize; starts.len()];
        for k in (0..starts.len() - 1).rev() {
            moves_from[k] = moves_from[k + 1]
                + buf[starts[k]..starts[k + 1]]
                    .iter()
                    .map(|&v| arena.out_degree(v))
                    .sum::<usize>();
        }
        let reverse = arena.reverse();
        let mut members: Vec<u32> = Vec::new();
        for k in 0..starts.len() - 1 {
            if k % 4096 == 0 {
                control.check()?;
            }
            members.clear();
            members.extend(
                buf[starts[k]..starts[k + 1]]
                    .iter()
                    .copied()
                    .filter(|&v| self.layers.is_open(v)),
            );
            if members.is_empty() {
                continue;
            }
            self.solve_part(&members, algorithm, control)?;
            let predecessors: u64 = members.iter().map(|&v| reverse.degree(v)).sum();
            if (moves_from[k + 1] as u64) < predecessors {
                self.settle_rest(&buf[starts[k + 1]..]);
            } else {
                self.spread();
            }
        }
        Ok(())
    }

    /// The answer: every vertex's winner, and the pipeline's strategy kept where the owner
    /// wins.
    fn answer(&self) -> ParitySolution {
        let arena = self.arena;
        let mut winner = Vec::with_capacity(arena.len());
        let mut strategy = Vec::with_capacity(arena.len());
        for v in arena.vertices() {
            let (value, _) = self
                .layers
                .read(v)
                .expect("every vertex is solved at the end");
            let w = u8::from(value);
            winner.push(w);
            let mv = self.strategy[v as usize];
            strategy.push((arena.owner(v) == w && mv != NONE).then_some(mv));
        }
        ParitySolution { winner, strategy }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{brute, verify_parity, ArenaBuilder};

    #[test]
    fn names_round_trip() {
        for a in ParityAlgorithm::ALL {
            assert_eq!(a.to_string().parse::<ParityAlgorithm>(), Ok(a));
        }
        assert_eq!("TL".parse::<ParityAlgorithm>(), Ok(ParityAlgorithm::Tangle));
        assert_eq!(
            "zlk".parse::<ParityAlgorithm>(),
            Ok(ParityAlgorithm::Zielonka)
        );
        assert!("nope".parse::<ParityAlgorithm>().is_err());
    }

    #[test]
    fn empty_and_dead_end_arenas() {
        let empty = ArenaBuilder::new().build().unwrap();
        let mut dead = ArenaBuilder::new();
        dead.push(0, 3, []);
        dead.push(1, 0, [0]);
        dead.push(1, 0, []);
        dead.push(0, 1, [2, 1]);
        let dead = dead.build().unwrap();
        for algorithm in ParityAlgorithm::ALL {
            let s = solve_parity(&empty, algorithm, &Control::default()).unwrap();
            assert!(s.winner.is_empty() && s.strategy.is_empty());
            let s = solve_parity(&dead, algorithm, &Control::default()).unwrap();
            // 0 is stuck (1 wins), 1 must move there (1 wins), 2 is stuck (0 wins), 3 moves
            // to 2 (0 wins).
            assert_eq!(s.winner, [1, 1, 0, 0]);
            assert_eq!(s.strategy, [None, Some(0), None, Some(2)]);
        }
    }

    #[test]
    fn increasing_sorts_and_leaves_the_bits_clear() {
        let mut rng = crate::graph::parity::generate::Rng::new(0x1ac2_ea51_0000_0005u64);
        let mut bits = Vec::new();
        for round in 0..300 {
            let n = 1 + rng.below(300) as u32;
            let mut vs: Vec<u32> = (0..n).filter(|_| rng.below(3) == 0).collect();
            // Shuffled.
            for i in (1..vs.len()).rev() {
                vs.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let mut out = vec![7u32];
            increasing(&vs, &mut bits, &mut out);
            let mut want = vs.clone();
            want.sort_unstable();
            assert_eq!(out[0], 7, "round {round}: appended");
            assert_eq!(out[1..], want[..], "round {round}");
            assert!(bits.iter().all(|&w| w == 0), "round {round}");
        }
    }

    #[test]
    fn compression_keeps_order_and_parity() {
        let mut p = vec![7, 2, 4, 9, 3, 8, 2];
        compress_priorities(&mut p);
        // distinct 2 3 4 7 8 9 → 0 1 2 3 4 5; 2 and 4 are not adjacent (3 between).
        assert_eq!(p, vec![3, 0, 2, 5, 1, 4, 0]);
        let mut q = vec![4, 6, 8, 1];
        compress_priorities(&mut q);
        assert_eq!(q, vec![2, 2, 2, 1]);
        // Large priorities take the sorting path; the answer is the same.
        let mut r = vec![7_000_001, 2, 4_000_000, 9_000_001, 3, 8_000_000, 2];
        compress_priorities(&mut r);
        assert_eq!(r, vec![3, 0, 2, 5, 1, 4, 0]);
    }

    /// Small deterministic random arenas against the brute-force solver, every option set.
    #[test]
    fn every_pipeline_matches_brute_force() {
        let mut rng = crate::graph::parity::generate::Rng::new(0x2545_f491_4f6c_dd1du64);
        let mut next = move |m: u64| rng.below(m);
        let mut checked = 0;
        for round in 0..400 {
            let n = 1 + next(8) as u32;
            let mut b = ArenaBuilder::new();
            for _ in 0..n {
                let k = if next(6) == 0 { 0 } else { 1 + next(3) };
                let succ: Vec<u32> = (0..k).map(|_| next(u64::from(n)) as u32).collect();
                b.push(next(2) as u8, next(6) as u32, succ);
            }
            let arena = b.build().unwrap();
            let Ok(want) = brute::solve_parity(&arena) else {
                continue;
            };
            checked += 1;
            for mask in 0..16u8 {
                let options = ParityOptions {
                    self_loops: mask & 1 != 0,
                    scc: mask & 2 != 0,
                    compress: mask & 4 != 0,
                    cycles: mask & 8 != 0,
                };
                for algorithm in ParityAlgorithm::ALL {
                    let got = solve_parity_with(&arena, algorithm, &options, &Control::default())
                        .unwrap();
                    assert_eq!(
                        got.winner, want.winner,
                        "round {round} {algorithm} {options:?} {arena:?}"
                    );
                    assert_eq!(
                        verify_parity(&arena, &got.winner, &got.strategy),
                        Ok(()),
                        "round {round} {algorithm} {options:?} {arena:?}"
                    );
                }
            }
        }
        assert!(checked > 350, "only {checked} arenas checked");
    }

    /// The solvers themselves, without preprocessing, on arenas without dead ends.
    #[test]
    fn solvers_match_brute_force_without_preprocessing() {
        let mut rng = crate::graph::parity::generate::Rng::new(0x9e37_79b9_7f4a_7c15u64);
        let mut next = move |m: u64| rng.below(m);
        for round in 0..600 {
            let n = 1 + next(9) as u32;
            let mut b = ArenaBuilder::new();
            for _ in 0..n {
                let k = 1 + next(3);
                let succ: Vec<u32> = (0..k).map(|_| next(u64::from(n)) as u32).collect();
                b.push(next(2) as u8, next(7) as u32, succ);
            }
            let arena = b.build().unwrap();
            let Ok(want) = brute::solve_parity(&arena) else {
                continue;
            };
            let control = Control::default();
            let answers = [
                ("zielonka", zielonka::solve(&arena, &control).unwrap()),
                ("tangle", tangle::solve(&arena, &control).unwrap().0),
                ("fpj", fpj::solve(&arena, &control).unwrap()),
            ];
            for (name, local) in answers {
                let strategy: Vec<Option<u32>> = local
                    .strategy
                    .iter()
                    .enumerate()
                    .map(|(v, &s)| {
                        (s != NONE && arena.owner(v as u32) == local.winner[v]).then_some(s)
                    })
                    .collect();
                assert_eq!(local.winner, want.winner, "round {round} {name} {arena:?}");
                assert_eq!(
                    verify_parity(&arena, &local.winner, &strategy),
                    Ok(()),
                    "round {round} {name} {arena:?}"
                );
            }
        }
    }
}
