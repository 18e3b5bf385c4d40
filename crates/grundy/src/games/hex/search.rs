//! Hex for the exact search ([`crate::search::exact`]): the two bitboards of a position,
//! and what the search is told.
//!
//! - The score: a race ([`Race`]) — a win whose last stone leaves m stones on the board
//!   scores `(cells + 2 − m) / 2`, so the quickest win scores most; hex has no draws.
//! - A win at once is found by two floods: the cells next to (or on) both of the mover's
//!   edges' reach through their stones. The opponent's such cells must be taken (two of
//!   them lose), so a board with one is searched through that cell alone.
//! - Connections (Anshelevich's virtual connections, kept simple): a player's chains and
//!   edges joined by links of two empty cells next to both (bridges, a chain's two cells
//!   on its edge) or by a ziggurat (edge template IIIa, [`ziggurats`]), the links' cells
//!   all different. The mover's semi-connection (one link a single cell, the key) wins;
//!   the opponent's connection loses; each bounds how soon by its links (a stone of its
//!   player completes one). A move outside the cells of one of the opponent's
//!   semi-connections loses (the must-play region: the cells common to those found), and
//!   a dead cell ([`dead_ring`]) is no better than any other move: those moves are
//!   listed last, and skipped by the search where its window asks only for an outcome
//!   ([`Searchable::decisive`]: a weak search, and the null windows at 0); a strong
//!   search still tries them, so remoteness stays exact.
//! - H-search ([`vc`]: the AND and OR rules over chains and empty cells) where the
//!   simple connections say nothing, on boards of [`H_SEARCH_FROM`] empty cells or more
//!   ([`H_SEARCH_FROM_6`] on 6 × 6):
//!   the mover's SC or VC between their edges wins (its key first), the opponent's VC
//!   loses, each bounding how soon by its carrier (the player's stones all go inside
//!   it); the opponent's SCs narrow the must-play region to the cells common to their
//!   carriers. Each thread keeps these boards' bounds and moves for the next visit.
//! - Proof carriers for a weak search ([`Searchable::carriers`]): the empty cells each
//!   proof rests on — a connection's carrier, the opponent's winning cells, the cells of
//!   the semi-connections that narrowed the must-play region and the dead cells'
//!   neighbours — so that the engine skips the mover's moves outside the carrier of a
//!   refuted one (Benzene's proof-set must-play); each thread keeps the carriers of the
//!   boards searched for the table's cuts. Near the empty board ([`WIDEN_BELOW`]) the
//!   moves are searched in rounds of growing budgets ([`Searchable::widen`]).
//! - Keys merge a position with its 180° turn, the one symmetry of the rhombus: up to
//!   5 × 5 the two bitboards side by side, on 6 × 6 the position's rank among the
//!   positions of its stones (the tiers' ranking).
//! - Order: the cells on both players' shortest paths first (the sum, over both players
//!   and both of each one's edges, of the empty cells a path from the edge to the cell
//!   needs), the centre breaking ties.

use super::vc::{self, Crossing, Stop};
use super::Hex;
use crate::game::Value;
use crate::games::family::{Boards, Exact, Pos};
use crate::search::exact::{Node, Race, Searchable};

/// The largest side searched (keys of the 6 × 6 board's ranks fit in 64 bits).
const MAX_SEARCHED_SIDE: u32 = 6;

/// The last stones of a board, where children are not looked up in the table before
/// they are searched. Measured on hex[5], weak: 16 took 25.9 s; 12, 27.4 s; 8, 34 s; 5,
/// 42.7 s; never looking, 29.7 s (a look costs two floods' worth here).
const LOOK_AHEAD_LAST: u32 = 16;

/// Boards with fewer moves to try than this take them centre first; the others by the
/// shortest paths through each cell (dearer to work out, worth it only higher up).
const ORDERED_FROM: u32 = 6;

/// Boards with at least this many empty cells are H-searched ([`vc`]) when the simple
/// connections say nothing: dearer (a thousand times a node's other work), worth it
/// only where the subtrees are large. Measured on hex[5], one thread (strong / weak):
/// from 12 cells 16.6 s / 0.18 s of CPU, 16: 6.6 s / 0.24 s, 17: 5.5 s / 0.37 s, 19:
/// 5.0 s / 0.82 s.
const H_SEARCH_FROM: u32 = 16;

/// [`H_SEARCH_FROM`] on 6 × 6, where the proof carriers of a weak search make H-search's
/// small carriers worth more. Measured on hex[6] weak, one thread, the c3 opening
/// analysed (every reply of O's valued): from 8 cells 7.3·10^5 nodes, 6.0 s of CPU; 12,
/// 1.2·10^6, 5.9 s; 16, 4.0·10^6, 6.5 s; 20, 1.7·10^7, 11.5 s; its value alone (with
/// rounds of budgets): 12, 1.5 s; 16, 2.4 s.
const H_SEARCH_FROM_6: u32 = 12;

/// Boards with fewer stones than this search their moves in rounds of growing node
/// budgets, in a weak search ([`Searchable::widen`]): the cheapest proof first. Measured
/// on hex[6] weak, one thread: the a1 opening's value (O's win) in 3.8 s of CPU (against
/// more than 130 s without: O's first tries, d3 and d4, lose, and each costs tens of
/// seconds to refute, while c4 wins in a fifth of a second).
const WIDEN_BELOW: u32 = 10;

/// The stones of each player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// X's stones (X joins top and bottom, and moves first).
    pub x: u64,
    /// O's stones (left and right).
    pub o: u64,
}

/// What [`Searchable::expand`] tells [`Searchable::children`]: the cells worth playing,
/// and those of them to try first (the others proved no better in outcome: dead cells,
/// cells outside the opponent's connections).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hint {
    /// The cells to list.
    moves: u64,
    /// Those listed first; `None`: every move counts.
    first: Option<u64>,
    /// The carriers ([`Searchable::carriers`]) of the lower bound (the mover's
    /// connection: its empty cells), of the upper bound (the opponent's connection, or
    /// the semi-connections that leave no move), and of the moves left out or listed
    /// last (the opponent's threat, their semi-connections' cells, the dead cells'
    /// neighbours); every cell where none is known.
    win: u64,
    loss: u64,
    pruned: u64,
}

/// Hex as the exact search sees it.
#[derive(Debug)]
pub struct Search<'a> {
    hex: &'a Hex,
    race: Race,
    /// Every cell, the centre first.
    order: Vec<u64>,
    /// Where the ranks of the positions with k stones start (6 × 6 keys).
    offsets: Vec<u64>,
    key_bits: u32,
    /// Boards with fewer stones than this look their children up first.
    look_ahead_below: u32,
    /// Boards with at least this many empty cells are H-searched.
    h_search_from: u32,
    /// Boards with fewer stones than this search their moves in rounds of growing
    /// budgets ([`Searchable::widen`]).
    widen_below: u32,
    /// Each cell's six neighbours in turn around it (see [`RING`]).
    rings: Vec<[u8; 6]>,
    /// The ziggurats (edge template IIIa) of each edge (top, bottom, left, right): a
    /// stone two rows from the edge and the eight empty cells that join it to the edge
    /// whatever the opponent does.
    ziggurats: [Vec<(u64, u64)>; 4],
    /// Whether a cell is dead, by what surrounds it: [`dead_ring`] of each of the 4^6
    /// rings (two bits a neighbour: empty, X's, O's, neither).
    dead_rings: Vec<bool>,
}

/// A neighbour position of a ring: a cell (0 to 63), or off the board.
const X_EDGE: u8 = 64;
const O_EDGE: u8 = 65;
const CORNER: u8 = 66;

/// The six neighbours of `(r, c)` in turn around it, each next to the one before.
const RING: [(i32, i32); 6] = [(-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)];

/// Whether an empty cell whose neighbours in turn are `ring` (0 empty, 1 X's stone or
/// edge, 2 O's, 3 neither: a corner's outside) is dead: for one of the players, any two
/// neighbours a chain of theirs may pass through (their own or empty) touch each other,
/// or are joined by the player's own stones (or edge) around the ring. On a full board,
/// that player's chain through the cell then has a way round it, so they win whatever
/// its colour; and so does the other player, who would otherwise lose by the cell's
/// being theirs. Its colour never changes who wins (Hayward, Henderson: a cell in no
/// minimal winning set of one player is dead).
fn dead_ring(ring: [u8; 6]) -> bool {
    (1..=2).any(|p| {
        let own = |i: usize| ring[i % 6] == p;
        let usable = |i: usize| ring[i] == p || ring[i] == 0;
        (0..6).all(|i| {
            (i + 1..6).all(|j| {
                !usable(i)
                    || !usable(j)
                    || j == i + 1
                    || (i == 0 && j == 5)
                    || (i + 1..j).all(own)
                    || (j + 1..i + 6).all(own)
            })
        })
    })
}

/// The ziggurats of `hex`'s four edges (top, bottom, left, right), each a stone and its
/// carrier. On the top edge, the stone at `(2, c)` and the cells `(2, c + 1)`, `(1, c)` to
/// `(1, c + 2)` and `(0, c)` to `(0, c + 3)`, or its mirror image `(2, c − 1)`,
/// `(1, c − 1)` to `(1, c + 1)` and `(0, c − 1)` to `(0, c + 2)`: an intrusion anywhere is
/// answered by a bridge or an edge template inside (HexWiki, "Ziggurat"). The other
/// edges by the 180° turn and the reflection in the long diagonal.
fn ziggurats(hex: &Hex) -> [Vec<(u64, u64)>; 4] {
    let n = hex.n as i32;
    let at = |r: i32, c: i32| -> u64 {
        assert!((0..n).contains(&r) && (0..n).contains(&c));
        1u64 << (r * n + c)
    };
    let row = |r: i32, from: i32, to: i32| (from..=to).fold(0u64, |m, c| m | at(r, c));
    let mut top = Vec::new();
    if n >= 3 {
        for c in 0..n {
            if c + 3 < n {
                let carrier = at(2, c + 1) | row(1, c, c + 2) | row(0, c, c + 3);
                top.push((at(2, c), carrier));
            }
            if c >= 1 && c + 2 < n {
                let carrier = at(2, c - 1) | row(1, c - 1, c + 1) | row(0, c - 1, c + 2);
                top.push((at(2, c), carrier));
            }
        }
    }
    let transpose = |m: u64| {
        let mut out = 0;
        for r in 0..n {
            for c in 0..n {
                if m & at(r, c) != 0 {
                    out |= at(c, r);
                }
            }
        }
        out
    };
    let map = |f: &dyn Fn(u64) -> u64| top.iter().map(|&(s, c)| (f(s), f(c))).collect();
    let bottom = map(&|m| hex.rotate(m));
    let left = map(&transpose);
    let right = map(&|m| hex.rotate(transpose(m)));
    [top.clone(), bottom, left, right]
}

/// Most nodes of a player's connection graph: the two edges and the chains (at most
/// half the cells of a 6 × 6 board are one player's, each a chain at most).
const MAX_NODES: usize = 24;

/// A player's chains as nodes (0 and 1 the two edges, with the chains touching them),
/// and the empty cells next to each.
struct Graph {
    len: usize,
    near: [u64; MAX_NODES],
    /// Chains joined to an edge by a ziggurat: the chain's node, the edge's (0 or 1), and
    /// the template's empty cells.
    ziggurats: [(u8, u8, u64); MAX_ZIGGURATS],
    ziggurats_len: usize,
}

impl Graph {
    /// The cells of a ziggurat joining nodes `u` and `v` (a chain and an edge) within
    /// `allowed`, if there is one.
    fn ziggurat(&self, u: usize, v: usize, allowed: u64) -> Option<u64> {
        self.ziggurats[..self.ziggurats_len]
            .iter()
            .find(|&&(node, edge, carrier)| {
                let (node, edge) = (usize::from(node), usize::from(edge));
                ((node, edge) == (u, v) || (node, edge) == (v, u)) && carrier & !allowed == 0
            })
            .map(|&(_, _, carrier)| carrier)
    }
}

/// Most ziggurats kept in a [`Graph`].
const MAX_ZIGGURATS: usize = 16;

/// A connection found between a player's edges: the empty cells it needs, and its key
/// when the player must first play there (a semi-connection); `None`, a connection
/// already (a virtual connection).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Connection {
    carrier: u64,
    key: Option<u64>,
}

impl Connection {
    /// Its links: two cells each, the key one.
    fn links(&self) -> i32 {
        (self.carrier.count_ones() as i32 + 1) / 2
    }
}

/// The exact search of `hex`, up to [`MAX_SEARCHED_SIDE`].
pub(super) fn exact(hex: &Hex) -> Option<Box<dyn Exact + '_>> {
    (hex.n <= MAX_SEARCHED_SIDE).then(|| Box::new(Search::new(hex)) as Box<dyn Exact>)
}

impl<'a> Search<'a> {
    fn new(hex: &'a Hex) -> Search<'a> {
        let n = hex.n;
        let mut cells: Vec<u32> = (0..hex.cells).collect();
        let centre = n as i32 - 1;
        cells.sort_by_key(|&cell| {
            let a = 2 * (cell / n) as i32 - centre;
            let b = 2 * (cell % n) as i32 - centre;
            (a.abs() + b.abs() + (a + b).abs(), cell)
        });
        let mut offsets = Vec::new();
        let mut total = 0u64;
        for k in 0..=hex.cells {
            offsets.push(total);
            total = total.saturating_add(hex.tier_len(k));
        }
        let key_bits = if hex.cells <= 32 {
            2 * hex.cells
        } else {
            64 - total.leading_zeros()
        };
        Search {
            hex,
            race: Race {
                cells: hex.cells as i32,
            },
            order: cells.into_iter().map(|c| 1u64 << c).collect(),
            offsets,
            key_bits: key_bits.max(1),
            look_ahead_below: hex.cells.saturating_sub(LOOK_AHEAD_LAST),
            widen_below: WIDEN_BELOW,
            h_search_from: if n >= 6 {
                H_SEARCH_FROM_6
            } else {
                H_SEARCH_FROM
            },
            rings: (0..hex.cells)
                .map(|cell| {
                    let (r, c) = ((cell / n) as i32, (cell % n) as i32);
                    let side = n as i32;
                    RING.map(|(dr, dc)| {
                        let (r, c) = (r + dr, c + dc);
                        let off_rows = !(0..side).contains(&r);
                        let off_cols = !(0..side).contains(&c);
                        match (off_rows, off_cols) {
                            (false, false) => (r * side + c) as u8,
                            (true, false) => X_EDGE,
                            (false, true) => O_EDGE,
                            (true, true) => CORNER,
                        }
                    })
                })
                .collect(),
            ziggurats: ziggurats(hex),
            dead_rings: (0..1usize << 12)
                .map(|code| dead_ring(std::array::from_fn(|i| (code >> (2 * i) & 3) as u8)))
                .collect(),
        }
    }

    /// `seed` and every stone of `stones` joined to it through `stones`.
    #[inline]
    fn flood(&self, seed: u64, stones: u64) -> u64 {
        let mut reached = seed;
        loop {
            let next = reached | (self.hex.neighbours(reached) & stones);
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }

    /// The stones that reach the edge `from` through `stones`.
    #[inline]
    fn reach(&self, stones: u64, from: u64) -> u64 {
        self.flood(stones & from, stones)
    }

    /// The empty cells where a stone of `stones`' player would join `a` and `b`.
    #[inline]
    fn winning(&self, stones: u64, empty: u64, a: u64, b: u64) -> u64 {
        let near_a = a | self.hex.neighbours(self.reach(stones, a));
        let near_b = b | self.hex.neighbours(self.reach(stones, b));
        empty & near_a & near_b
    }

    /// Adds to each empty cell's `cost` the empty cells `stones`' player needs to join it
    /// to the edge `from` (itself included; 31 where it cannot): layers of a breadth-first
    /// search in which the player's own stones cost nothing.
    fn add_distances(&self, stones: u64, empty: u64, from: u64, cost: &mut [u8; 64]) {
        // Through the player's stones, at no cost.
        let mut reached = self.reach(stones, from);
        let mut layer = empty & (from | self.hex.neighbours(reached));
        let mut seen = 0u64;
        let mut d = 1u8;
        while layer != 0 {
            seen |= layer;
            let mut rest = layer;
            while rest != 0 {
                cost[rest.trailing_zeros() as usize] += d;
                rest &= rest - 1;
            }
            reached = self.flood(reached | layer, stones);
            layer = empty & self.hex.neighbours(reached) & !seen;
            d += 1;
        }
        let mut unreached = empty & !seen;
        while unreached != 0 {
            cost[unreached.trailing_zeros() as usize] += 31;
            unreached &= unreached - 1;
        }
    }

    /// The empty cells of `empty` that are dead ([`dead_ring`]).
    fn dead(&self, b: &Board, empty: u64) -> u64 {
        let mut dead = 0;
        let mut rest = empty;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let mut code = 0;
            for (i, &at) in self.rings[cell].iter().enumerate() {
                let state = match at {
                    X_EDGE => 1,
                    O_EDGE => 2,
                    CORNER => 3,
                    _ => {
                        let c = 1u64 << at;
                        if b.x & c != 0 {
                            1
                        } else if b.o & c != 0 {
                            2
                        } else {
                            0
                        }
                    }
                };
                code |= state << (2 * i);
            }
            if self.dead_rings[code] {
                dead |= 1 << cell;
            }
        }
        dead
    }

    /// `stones`' player's chains as a graph: node 0 the edge `a` with the chains on it,
    /// node 1 the edge `z` with those on it (none touches both), then the other chains;
    /// each with the empty cells next to it (an edge: those on it too).
    /// The ziggurats of the edge `edge`.
    fn ziggurats_of(&self, edge: u64) -> &[(u64, u64)] {
        let h = self.hex;
        let i = [h.top, h.bottom, h.left, h.right]
            .iter()
            .position(|&e| e == edge)
            .expect("an edge");
        &self.ziggurats[i]
    }

    fn graph(&self, stones: u64, empty: u64, a: u64, z: u64) -> Graph {
        let h = self.hex;
        let mut near = [0u64; MAX_NODES];
        let on_a = self.reach(stones, a);
        let on_z = self.reach(stones, z);
        near[0] = empty & (a | h.neighbours(on_a));
        near[1] = empty & (z | h.neighbours(on_z));
        let mut chains = [0u64; MAX_NODES];
        chains[0] = on_a;
        chains[1] = on_z;
        let mut len = 2;
        let mut rest = stones & !on_a & !on_z;
        while rest != 0 && len < MAX_NODES {
            let chain = self.flood(rest & rest.wrapping_neg(), stones);
            rest &= !chain;
            chains[len] = chain;
            near[len] = empty & h.neighbours(chain);
            len += 1;
        }
        let mut g = Graph {
            len,
            near,
            ziggurats: [(0, 0, 0); MAX_ZIGGURATS],
            ziggurats_len: 0,
        };
        for (edge, from) in [(0u8, a), (1u8, z)] {
            for &(stone, carrier) in self.ziggurats_of(from) {
                if stones & stone == 0 || carrier & !empty != 0 {
                    continue;
                }
                let Some(node) = (0..len).find(|&j| chains[j] & stone != 0) else {
                    continue;
                };
                if node != usize::from(edge) && g.ziggurats_len < MAX_ZIGGURATS {
                    g.ziggurats[g.ziggurats_len] = (node as u8, edge, carrier);
                    g.ziggurats_len += 1;
                }
            }
        }
        g
    }

    /// A connection of `g`'s edges (node 0 to node 1) through links of chains with two
    /// empty cells next to both (the player takes one when the other is taken: bridges,
    /// and a chain's two cells on an edge), the links' cells all different and in
    /// `free`; with `semi`, one link may instead be one cell (the key, the player's to
    /// take). Depth first, each node entered once in each state: what it finds is a
    /// connection, but it may miss some.
    fn connection(g: &Graph, free: u64, semi: bool) -> Option<Connection> {
        let mut seen = [1u32, 1u32];
        Self::link(g, 0, free, 0, semi, None, &mut seen)
    }

    fn link(
        g: &Graph,
        at: usize,
        free: u64,
        used: u64,
        semi: bool,
        key: Option<u64>,
        seen: &mut [u32; 2],
    ) -> Option<Connection> {
        for j in 1..g.len {
            let common = g.near[at] & g.near[j] & free & !used;
            let one = common & common.wrapping_neg();
            let rest = common ^ one;
            let (carrier, key) = if rest != 0 {
                (one | (rest & rest.wrapping_neg()), key)
            } else if let Some(carrier) = g.ziggurat(at, j, free & !used) {
                (carrier, key)
            } else if semi && key.is_none() && one != 0 {
                (one, Some(one))
            } else {
                continue;
            };
            let state_j = usize::from(key.is_some());
            if j == 1 {
                return Some(Connection {
                    carrier: used | carrier,
                    key,
                });
            }
            if seen[state_j] & (1 << j) != 0 {
                continue;
            }
            seen[state_j] |= 1 << j;
            let found = Self::link(g, j, free, used | carrier, semi, key, seen);
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// The cells where the mover must play, by the opponent's semi-connections in `g`
    /// (theirs): the cells common to those found, each cell of the first tested by
    /// looking for one without it. All of them when none is found; none when every move
    /// loses, with the opponent's connection when one was found (`Err`).
    /// With the region, the union of the carriers that narrowed it (why the other cells
    /// lose).
    fn must_play(g: &Graph, empty: u64) -> Result<(u64, u64), Connection> {
        let Some(c) = Self::connection(g, empty, true) else {
            return Ok((empty, 0));
        };
        if c.key.is_none() {
            return Err(c);
        }
        let mut must = c.carrier;
        let mut used = c.carrier;
        let mut todo = must;
        while todo != 0 {
            let cell = todo & todo.wrapping_neg();
            todo &= todo - 1;
            match Self::connection(g, empty & !cell, true) {
                None => {}
                Some(c) if c.key.is_none() => return Err(c),
                Some(c) => {
                    must &= c.carrier;
                    used |= c.carrier;
                    todo &= must;
                }
            }
        }
        Ok((must, used))
    }

    /// The mover's stones, the opponent's, and each one's edges.
    #[inline]
    fn sides(&self, b: &Board) -> ((u64, u64, u64), (u64, u64, u64)) {
        let h = self.hex;
        let x = (b.x, h.top, h.bottom);
        let o = (b.o, h.left, h.right);
        if b.x.count_ones() == b.o.count_ones() {
            (x, o)
        } else {
            (o, x)
        }
    }
}

impl Searchable for Search<'_> {
    type Board = Board;
    type Hint = Hint;

    fn key_bits(&self) -> u32 {
        self.key_bits
    }

    #[inline]
    fn key(&self, b: &Board) -> u64 {
        let h = self.hex;
        if h.cells <= 32 {
            let turned = h.rotate(b.x) | h.rotate(b.o) << h.cells;
            (b.x | b.o << h.cells).min(turned)
        } else {
            let k = (b.x | b.o).count_ones() as usize;
            self.offsets[k] + h.canonical_rank(b.x, b.o)
        }
    }

    fn score_range(&self) -> (i32, i32) {
        self.race.range()
    }

    /// Not where keys are ranks (6 × 6): a rank costs more than the wait it would hide.
    fn prefetch(&self) -> bool {
        self.hex.cells <= 32
    }

    fn settled(&self, b: &Board) -> Option<i32> {
        let n = (b.x | b.o).count_ones() as i32;
        let ((mine, a, z), (theirs, ta, tz)) = self.sides(b);
        if self.hex.joins(theirs, ta, tz) {
            return Some(-self.race.win(n));
        }
        if self.hex.joins(mine, a, z) {
            // Play went on past the mover's chain (a board no game reaches): won then.
            return Some(self.race.win(n));
        }
        let empty = self.hex.full & !(b.x | b.o);
        (self.winning(mine, empty, a, z) != 0).then(|| self.race.win(n + 1))
    }

    fn expand(&self, b: &Board) -> Node<Hint> {
        let empty = self.hex.full & !(b.x | b.o);
        if empty.count_ones() < self.h_search_from {
            return self.bound(b);
        }
        // H-searched: kept per thread, for the next visit (a transposition, the next
        // probe).
        let at = (b.x.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ b.o.wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
            >> (64 - EXPANDED_BITS);
        EXPANDED.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.is_empty() {
                cache.resize(1 << EXPANDED_BITS, None);
            }
            // What the answer depends on beside the board: the side, the threshold.
            let tag = self.hex.n | self.h_search_from << 8;
            let slot = &mut cache[at as usize];
            match *slot {
                Some((t, board, node)) if t == tag && board == *b => node,
                _ => {
                    let node = self.bound(b);
                    *slot = Some((tag, *b, node));
                    node
                }
            }
        })
    }

    fn decisive(&self, hint: &Hint) -> Option<usize> {
        hint.first.map(|f| (f & hint.moves).count_ones() as usize)
    }

    fn children(&self, b: &Board, hint: Hint, out: &mut Vec<Board>) {
        self.list(b, hint, out);
    }

    fn look_ahead(&self, b: &Board) -> bool {
        (b.x | b.o).count_ones() < self.look_ahead_below
    }

    fn value(&self, b: &Board, score: i32) -> Value {
        self.race.value((b.x | b.o).count_ones() as i32, score)
    }

    fn carriers(&self) -> bool {
        true
    }

    fn widen(&self, b: &Board) -> bool {
        (b.x | b.o).count_ones() < self.widen_below
    }

    /// Two of the opponent's cells that win at once: those two (their chains are stones).
    fn exact_carrier(&self, b: &Board) -> u64 {
        let (_, (theirs, ta, tz)) = self.sides(b);
        self.winning(theirs, self.hex.full & !(b.x | b.o), ta, tz)
    }

    fn bound_carrier(&self, hint: &Hint, high: bool) -> u64 {
        if high {
            hint.win
        } else {
            hint.loss
        }
    }

    fn pruned_carrier(&self, hint: &Hint) -> u64 {
        hint.pruned
    }

    #[inline]
    fn places(&self, b: &Board, child: &Board) -> u64 {
        (child.x | child.o) & !(b.x | b.o)
    }

    fn keep_carrier(&self, b: &Board, high: bool, carrier: u64) {
        CARRIERS.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.is_empty() {
                cache.resize(1 << CARRIERS_BITS, None);
            }
            let tag = self.hex.n | u32::from(high) << 8;
            cache[carrier_slot(b)] = Some((tag, *b, carrier));
        });
    }

    /// The board's own carrier, else its 180° turn's turned back.
    fn kept_carrier(&self, b: &Board, high: bool) -> u64 {
        let h = self.hex;
        let turned = Board {
            x: h.rotate(b.x),
            o: h.rotate(b.o),
        };
        let tag = h.n | u32::from(high) << 8;
        CARRIERS.with(|cache| {
            let cache = cache.borrow();
            if cache.is_empty() {
                return u64::MAX;
            }
            match cache[carrier_slot(b)] {
                Some((t, board, c)) if t == tag && board == *b => return c,
                _ => {}
            }
            match cache[carrier_slot(&turned)] {
                Some((t, board, c)) if t == tag && board == turned => h.rotate(c),
                _ => u64::MAX,
            }
        })
    }
}

/// Log2 of the carriers each thread keeps.
const CARRIERS_BITS: u32 = 18;

/// A board's carrier kept: the side and whether the mover won, the board, the carrier.
type Kept = Option<(u32, Board, u64)>;

thread_local! {
    /// The carriers of the boards searched, by a hash of the board.
    static CARRIERS: std::cell::RefCell<Vec<Kept>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Where a board's carrier is kept.
#[inline]
fn carrier_slot(b: &Board) -> usize {
    ((b.x.wrapping_mul(0xc2b2_ae3d_27d4_eb4f) ^ b.o.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        >> (64 - CARRIERS_BITS)) as usize
}

/// Log2 of the boards whose [`Searchable::expand`] each thread keeps.
const EXPANDED_BITS: u32 = 16;

/// A board's [`Searchable::expand`] kept, with its search's side and threshold.
type Expanded = Option<(u32, Board, Node<Hint>)>;

thread_local! {
    /// The H-searched boards' [`Searchable::expand`], by a hash of the board.
    static EXPANDED: std::cell::RefCell<Vec<Expanded>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

impl Search<'_> {
    /// [`Searchable::expand`], worked out.
    fn bound(&self, b: &Board) -> Node<Hint> {
        let n = (b.x | b.o).count_ones() as i32;
        let ((mine, a, z), (theirs, ta, tz)) = self.sides(b);
        let empty = self.hex.full & !(b.x | b.o);
        let threats = self.winning(theirs, empty, ta, tz);
        if threats & threats.wrapping_sub(1) != 0 {
            return Node::Exact(-self.race.win(n + 2));
        }
        // Neither wins with their next stone: not before the mover's next but one, nor
        // lost before the opponent's next but one.
        let cells = self.race.cells;
        let mut lo = -self.race.win((n + 4).min(cells));
        let mut hi = self.race.win((n + 3).min(cells));
        if threats != 0 {
            return Node::Open {
                lo: lo.min(hi),
                hi,
                hint: Hint {
                    moves: threats,
                    first: None,
                    win: u64::MAX,
                    loss: u64::MAX,
                    pruned: threats,
                },
            };
        }
        // The mover's semi-connection wins (its key, then the connection kept); with
        // none, the opponent's connection loses, and each of their semi-connections
        // must be broken: the moves outside its cells lose. Only the outcome is proved
        // (how soon is searched): the bounds of a win and of a loss.
        let h_search = empty.count_ones() >= self.h_search_from;
        let semi = if let Some(c) = Self::connection(&self.graph(mine, empty, a, z), empty, true) {
            // Each of the mover's stones completes a link (the key first, or one whose
            // other cell was taken), so the last one leaves at most this many stones.
            Some((n + 2 * c.links() - 1, c.key.unwrap_or(empty), c.carrier))
        } else if h_search {
            // H-search's SC (or VC) on carrier C: the mover plays inside C alone (its key
            // first, then any cell when the opponent plays outside), at most |C| stones.
            vc::edges(
                self.hex,
                Crossing {
                    stones: mine,
                    empty,
                    a,
                    z,
                },
                Stop::Semi,
            )
            .and_then(|e| {
                let bound = |c: u64| n + 2 * c.count_ones() as i32 - 1;
                e.vc.map(|c| (bound(c), if c == 0 { empty } else { c }, c))
                    .or_else(|| {
                        e.semis()
                            .first()
                            .map(|s| (bound(s.carrier), s.key, s.carrier))
                    })
            })
        } else {
            None
        };
        // The carriers: of the win, of the loss, of the moves listed last.
        let (mut win, mut loss, mut pruned) = (u64::MAX, u64::MAX, 0u64);
        let first = if let Some((stones, first, carrier)) = semi {
            lo = lo.max(self.race.win(stones.min(cells)));
            win = carrier;
            pruned = u64::MAX;
            first
        } else {
            let g = self.graph(theirs, empty, ta, tz);
            let mut must = match Self::must_play(&g, empty) {
                Ok((must, used)) => {
                    pruned = used;
                    must
                }
                // The opponent completes a link with each of their stones.
                Err(c) => {
                    hi = hi.min(-self.race.win(n + 2 * c.links()));
                    loss = c.carrier;
                    0
                }
            };
            if must != 0 && h_search {
                // The opponent's VC on carrier C: they answer inside C, at most |C|
                // stones; their SCs: the mover must play in each one's carrier.
                match vc::edges(
                    self.hex,
                    Crossing {
                        stones: theirs,
                        empty,
                        a: ta,
                        z: tz,
                    },
                    Stop::Vc,
                ) {
                    Some(e) if e.vc.is_some() => {
                        let c = e.vc.unwrap_or(0);
                        hi = hi.min(-self.race.win((n + 2 * c.count_ones() as i32).min(cells)));
                        loss = c;
                        must = 0;
                    }
                    Some(e) => {
                        for s in e.semis() {
                            must &= s.carrier;
                            pruned |= s.carrier;
                        }
                    }
                    None => {}
                }
            }
            if must == 0 {
                hi = hi.min(-1);
                // Without a connection: the semi-connections whose carriers share no cell.
                if loss == u64::MAX {
                    loss = pruned;
                }
            }
            // Dead cells are no better than any other (their colour never matters, and
            // an extra stone never hurts): while their neighbours stay as they are.
            let dead = must & self.dead(b, empty);
            let live = must & !dead;
            if live != 0 {
                pruned |= self.hex.neighbours(dead) & empty;
                live
            } else {
                must
            }
        };
        Node::Open {
            lo: lo.min(hi),
            hi,
            hint: Hint {
                moves: empty,
                first: Some(first),
                win,
                loss,
                pruned,
            },
        }
    }

    /// [`Searchable::children`].
    fn list(&self, b: &Board, hint: Hint, out: &mut Vec<Board>) {
        let x_moves = b.x.count_ones() == b.o.count_ones();
        let play = |c: u64| {
            if x_moves {
                Board { x: b.x | c, o: b.o }
            } else {
                Board { x: b.x, o: b.o | c }
            }
        };
        let moves = hint.moves;
        // The first ones (all, when every move counts), then the others.
        let first = hint.first.unwrap_or(moves) & moves;
        if moves.count_ones() < ORDERED_FROM {
            for group in [first, moves & !first] {
                out.extend(
                    self.order
                        .iter()
                        .filter(|&&c| group & c != 0)
                        .map(|&c| play(c)),
                );
            }
            return;
        }
        // The cells on both players' shortest paths first, the centre breaking ties.
        let empty = self.hex.full & !(b.x | b.o);
        let ((mine, a, z), (theirs, ta, tz)) = self.sides(b);
        let mut cost = [0u8; 64];
        for (stones, from) in [(mine, a), (mine, z), (theirs, ta), (theirs, tz)] {
            self.add_distances(stones, empty, from, &mut cost);
        }
        let mut sorted = [0u16; 64];
        let mut len = 0;
        for (i, &c) in self.order.iter().enumerate() {
            if moves & c != 0 {
                let later = u16::from(first & c == 0);
                let entry =
                    later << 14 | u16::from(cost[c.trailing_zeros() as usize]) << 7 | i as u16;
                let mut at = len;
                while at > 0 && sorted[at - 1] > entry {
                    sorted[at] = sorted[at - 1];
                    at -= 1;
                }
                sorted[at] = entry;
                len += 1;
            }
        }
        out.extend(
            sorted[..len]
                .iter()
                .map(|&e| play(self.order[usize::from(e & 0x7f)])),
        );
    }
}

impl Boards for Search<'_> {
    fn board(&self, pos: &Pos) -> Board {
        Board {
            x: pos[0],
            o: pos[1],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::Control;
    use crate::search::exact::{solve, Options, Table, FIRST_BUDGET};
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// A board of `n` × `n` from a shuffle of its cells: the first `stones` taken in turn,
    /// X first, stopping before a move that joins its player's edges (so neither has won).
    fn board(hex: &Hex, order: &[u32], stones: usize) -> Board {
        let mut b = Board { x: 0, o: 0 };
        for &cell in order.iter().filter(|&&c| c < hex.cells).take(stones) {
            let c = 1u64 << cell;
            if b.x.count_ones() == b.o.count_ones() {
                if hex.x_wins(b.x | c) {
                    break;
                }
                b.x |= c;
            } else {
                if hex.o_wins(b.o | c) {
                    break;
                }
                b.o |= c;
            }
        }
        b
    }

    /// The `n` × `n` board drawn from `order` (as [`board`]), with its empty cells.
    fn drawn(n: u32, order: &[u32], stones: usize) -> (Hex, Board, u64) {
        let hex = Hex::new(n);
        let b = board(&hex, order, stones);
        let empty = hex.full & !(b.x | b.o);
        (hex, b, empty)
    }

    /// Whether the player to move (X when `x_moves`, whatever the stones' counts) wins,
    /// by trying every move.
    fn wins(
        hex: &Hex,
        b: Board,
        x_moves: bool,
        memo: &mut HashMap<(u64, u64, bool), bool>,
    ) -> bool {
        if let Some(&w) = memo.get(&(b.x, b.o, x_moves)) {
            return w;
        }
        // A board already won (after a key played, say): its winner's.
        if hex.x_wins(b.x) || hex.o_wins(b.o) {
            return hex.x_wins(b.x) == x_moves;
        }
        let empty = hex.full & !(b.x | b.o);
        let mut rest = empty;
        let mut won = false;
        while rest != 0 && !won {
            let c = rest & rest.wrapping_neg();
            rest &= rest - 1;
            won = if x_moves {
                let x = b.x | c;
                hex.x_wins(x) || !wins(hex, Board { x, o: b.o }, false, memo)
            } else {
                let o = b.o | c;
                hex.o_wins(o) || !wins(hex, Board { x: b.x, o }, true, memo)
            };
        }
        memo.insert((b.x, b.o, x_moves), won);
        won
    }

    /// The score of `b` for X's turn as the stones' counts say ([`Race`]: a sooner win
    /// better), by trying every move.
    fn score(hex: &Hex, b: Board, memo: &mut HashMap<(u64, u64), i32>) -> i32 {
        if let Some(&v) = memo.get(&(b.x, b.o)) {
            return v;
        }
        let race = Race {
            cells: hex.cells as i32,
        };
        let n = (b.x | b.o).count_ones() as i32;
        let x_moves = b.x.count_ones() == b.o.count_ones();
        let mut best = i32::MIN;
        let mut rest = hex.full & !(b.x | b.o);
        while rest != 0 {
            let c = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let v = if x_moves {
                let x = b.x | c;
                if hex.x_wins(x) {
                    race.win(n + 1)
                } else {
                    -score(hex, Board { x, o: b.o }, memo)
                }
            } else {
                let o = b.o | c;
                if hex.o_wins(o) {
                    race.win(n + 1)
                } else {
                    -score(hex, Board { x: b.x, o }, memo)
                }
            };
            best = best.max(v);
        }
        memo.insert((b.x, b.o), best);
        best
    }

    /// Whether X joins top and bottom once the empty cells of `fill` are X's and the
    /// others O's (a full board: one of the two is joined).
    fn x_joins_filled(hex: &Hex, b: Board, fill: u64) -> bool {
        hex.x_wins(b.x | fill)
    }

    /// The empty cells of `empty`, one bit of `k` each: the subset `k` picks.
    fn subset(empty: u64, k: u64) -> u64 {
        let mut out = 0;
        let mut rest = empty;
        let mut bit = 0;
        while rest != 0 {
            let c = rest & rest.wrapping_neg();
            rest &= rest - 1;
            if k >> bit & 1 != 0 {
                out |= c;
            }
            bit += 1;
        }
        out
    }

    /// Checks that each cell `search` calls dead on `b` has no say in who wins: on every
    /// filling of the other empty cells, X joins or not whatever the cell's colour.
    /// Returns how many dead cells were checked.
    fn check_dead_cells(search: &Search<'_>, b: Board) -> u32 {
        let hex = search.hex;
        let empty = hex.full & !(b.x | b.o);
        let dead = search.dead(&b, empty);
        let mut rest = dead;
        while rest != 0 {
            let d = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let others = empty & !d;
            for k in 0..1u64 << others.count_ones() {
                let fill = subset(others, k);
                assert_eq!(
                    x_joins_filled(hex, b, fill | d),
                    x_joins_filled(hex, b, fill),
                    "{b:?} cell {}",
                    d.trailing_zeros()
                );
            }
        }
        dead.count_ones()
    }

    fn shuffle() -> impl Strategy<Value = Vec<u32>> {
        Just((0..25).collect::<Vec<u32>>()).prop_shuffle()
    }

    /// `b` with the cells `c` added to X's stones (`x_side`) or O's.
    fn play(b: Board, x_side: bool, c: u64) -> Board {
        if x_side {
            Board { x: b.x | c, o: b.o }
        } else {
            Board { x: b.x, o: b.o | c }
        }
    }

    /// X's stones and its two edges (`x_side`), or O's.
    fn side(hex: &Hex, b: Board, x_side: bool) -> (u64, u64, u64) {
        if x_side {
            (b.x, hex.top, hex.bottom)
        } else {
            (b.o, hex.left, hex.right)
        }
    }

    /// Whether `x_side`'s player (X or O) wins `b` by trying every move, moving first
    /// (`side_moves`) or second.
    fn side_wins(
        hex: &Hex,
        b: Board,
        x_side: bool,
        side_moves: bool,
        memo: &mut HashMap<(u64, u64, bool), bool>,
    ) -> bool {
        wins(hex, b, side_moves == x_side, memo) == side_moves
    }

    /// Every move of the other player's on the cells `outside` loses for them, against
    /// `x_side`'s player: it does not join their edges, and `x_side`'s player then wins
    /// moving first.
    fn other_moves_lose(
        hex: &Hex,
        b: Board,
        x_side: bool,
        outside: u64,
        memo: &mut HashMap<(u64, u64, bool), bool>,
    ) -> Result<(), TestCaseError> {
        let mut rest = outside;
        while rest != 0 {
            let m = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let after = play(b, !x_side, m);
            let joined = if x_side {
                hex.o_wins(after.o)
            } else {
                hex.x_wins(after.x)
            };
            prop_assert!(
                !joined && side_wins(hex, after, x_side, true, memo),
                "{:?} {} move {}",
                b,
                x_side,
                m.trailing_zeros()
            );
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// A cell called dead has no say in who wins: on every filling of the board's
        /// empty cells, X joins or not whatever the cell's colour.
        #[test]
        fn a_dead_cell_never_changes_the_winner(n in 4u32..=5, order in shuffle(), stones in 4usize..25) {
            let (hex, b, empty) = drawn(n, &order, stones);
            let search = Search::new(&hex);
            prop_assume!(empty.count_ones() <= 14);
            check_dead_cells(&search, b);
        }

        /// Connections, semi-connections and the cells that must be played, found by
        /// either player, against the game itself: a connection wins for its player moving
        /// second, a semi-connection moving first (and after its key moving second), and a
        /// move outside the cells where the other player must play loses (every one when
        /// there are none).
        #[test]
        fn connections_win_and_the_other_moves_lose(n in 2u32..=5, order in shuffle(), stones in 0usize..25) {
            let (hex, b, empty) = drawn(n, &order, stones);
            let search = Search::new(&hex);
            prop_assume!(empty != 0 && empty.count_ones() <= 12);
            let mut memo = HashMap::new();
            for x_side in [true, false] {
                let (stones, a, z) = side(&hex, b, x_side);
                let mut side_wins = |b: Board, side_moves: bool| side_wins(&hex, b, x_side, side_moves, &mut memo);
                let g = search.graph(stones, empty, a, z);
                if let Some(c) = Search::connection(&g, empty, false) {
                    prop_assert!(c.key.is_none());
                    prop_assert!(side_wins(b, false), "{:?} {}", b, x_side);
                }
                if let Some(c) = Search::connection(&g, empty, true) {
                    prop_assert!(side_wins(b, true), "{:?} {}", b, x_side);
                    if let Some(key) = c.key {
                        prop_assert!(c.carrier & key != 0);
                        prop_assert!(side_wins(play(b, x_side, key), false), "{:?} {}", b, x_side);
                    }
                }
                // The other player to move: each move outside `must` loses for them.
                let must = Search::must_play(&g, empty).map_or(0, |(m, _)| m);
                other_moves_lose(&hex, b, x_side, empty & !must, &mut memo)?;
            }
        }

        /// H-search's connections between the edges, for either player, against the
        /// game itself: a VC wins for its player moving second, an SC moving first (its
        /// key first), and the other player's move outside the carriers of all the SCs
        /// found loses (every move, with a VC).
        #[test]
        fn h_search_connections_win_and_the_other_moves_lose(n in 3u32..=5, order in shuffle(), stones in 0usize..25) {
            let (hex, b, empty) = drawn(n, &order, stones);
            prop_assume!(empty != 0 && empty.count_ones() <= 12);
            let mut memo = HashMap::new();
            for x_side in [true, false] {
                let (stones, a, z) = side(&hex, b, x_side);
                let mut side_wins = |b: Board, side_moves: bool| side_wins(&hex, b, x_side, side_moves, &mut memo);
                let e = vc::edges(&hex, Crossing { stones, empty, a, z }, Stop::Vc).unwrap();
                let mut must = empty;
                if let Some(c) = e.vc {
                    prop_assert_eq!(c & !empty, 0);
                    prop_assert!(side_wins(b, false), "{:?} {}", b, x_side);
                    must = 0;
                } else {
                    for s in e.semis() {
                        prop_assert!(side_wins(b, true), "{:?} {}", b, x_side);
                        prop_assert!(side_wins(play(b, x_side, s.key), false), "{:?} {}", b, x_side);
                        must &= s.carrier;
                    }
                }
                let semi = vc::edges(&hex, Crossing { stones, empty, a, z }, Stop::Semi).unwrap();
                if semi.vc.is_some() || semi.scs_len > 0 {
                    prop_assert!(side_wins(b, true), "{:?} {}", b, x_side);
                }
                // The other player to move: each move outside `must` loses for them.
                other_moves_lose(&hex, b, x_side, empty & !must, &mut memo)?;
            }
        }

        /// The exact search's value, strong with remoteness and weak its outcome (where the
        /// pruning cuts), against trying every move, on random boards of 4 × 4 and 5 × 5,
        /// one table kept for both.
        #[test]
        fn the_search_finds_the_outcome(n in 4u32..=5, order in shuffle(), stones in 6usize..25) {
            let (hex, b, empty) = drawn(n, &order, stones);
            prop_assume!(empty != 0 && empty.count_ones() <= 11);
            let want = score(&hex, b, &mut HashMap::new());
            // As it is, and with H-search and rounds of budgets on every board.
            // (rounds of 4 nodes first, so that budgets run out on these small boards).
            for (h_search_from, widen_below, first_budget) in
                [(H_SEARCH_FROM, WIDEN_BELOW, FIRST_BUDGET), (0, 64, 4)]
            {
                let mut search = Search::new(&hex);
                search.h_search_from = h_search_from;
                search.widen_below = widen_below;
                let table = Table::new(1 << 12, search.key_bits(), search.score_range()).unwrap();
                for weak in [true, false] {
                    let options = Options { weak, first_budget, ..Options::default() };
                    let (found, _) = solve(&search, &b, &table, &options, &Control::default()).unwrap();
                    prop_assert_eq!(found.score > 0, want > 0, "{:?} weak {}", b, weak);
                    if !weak {
                        prop_assert_eq!(found.score, want, "{:?}", b);
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Every carrier a weak search kept holds: its winner still wins, by trying every
        /// move, once every empty cell outside it is the loser's (the same player to move).
        #[test]
        fn carriers_hold(n in 3u32..=5, order in shuffle(), stones in 4usize..25) {
            let (hex, b, empty) = drawn(n, &order, stones);
            prop_assume!(empty != 0 && empty.count_ones() <= 13);
            for (h_search_from, widen_below, first_budget) in
                [(H_SEARCH_FROM, WIDEN_BELOW, FIRST_BUDGET), (0, 64, 4)]
            {
                let mut search = Search::new(&hex);
                search.h_search_from = h_search_from;
                search.widen_below = widen_below;
                CARRIERS.with(|c| c.borrow_mut().clear());
                let table = Table::new(1 << 12, search.key_bits(), search.score_range()).unwrap();
                let options = Options { weak: true, threads: 1, first_budget, ..Options::default() };
                solve(&search, &b, &table, &options, &Control::default()).unwrap();
                let kept: Vec<Kept> = CARRIERS.with(|c| c.borrow().clone());
                let mut memo = HashMap::new();
                for (tag, at, carrier) in kept.into_iter().flatten() {
                    let high = tag >> 8 == 1;
                    let x_moves = at.x.count_ones() == at.o.count_ones();
                    let outside = hex.full & !(at.x | at.o) & !carrier;
                    // The loser: the mover when they lose, else the other.
                    let x_loses = x_moves != high;
                    let filled = if x_loses {
                        Board { x: at.x | outside, o: at.o }
                    } else {
                        Board { x: at.x, o: at.o | outside }
                    };
                    // A board the filling has already decided is the loser's win only if
                    // the carrier is wrong.
                    let won = wins(&hex, filled, x_moves, &mut memo);
                    prop_assert_eq!(won, high, "{:?} carrier {:x} of {:?}", at, carrier, b);
                }
            }
        }
    }

    /// Every board of 3 × 3 (stones of either colour anywhere, 3^9 of them): a cell
    /// called dead has no say in who wins, on any filling of the other empty cells.
    #[test]
    fn every_dead_cell_of_3x3_is_dead() {
        let hex = Hex::new(3);
        let search = Search::new(&hex);
        let mut found = 0;
        for code in 0..3u32.pow(9) {
            let mut b = Board { x: 0, o: 0 };
            let mut k = code;
            for cell in 0..9 {
                match k % 3 {
                    1 => b.x |= 1 << cell,
                    2 => b.o |= 1 << cell,
                    _ => {}
                }
                k /= 3;
            }
            found += check_dead_cells(&search, b);
        }
        assert!(found > 1000, "{found}");
    }

    /// Each ziggurat of every board to 6 × 6, on every edge, joins its stone to its edge
    /// with the opponent moving first and both playing only in its cells; none of its
    /// cells can be spared (with one of them the opponent's, the stone is cut off).
    #[test]
    fn ziggurats_join_their_stone_to_the_edge() {
        /// Whether X, holding `x` (the stone among them), joins the stone to `edge`
        /// within `cells` when the opponent holds `o` and `o_moves`.
        fn joined(
            hex: &Hex,
            stone: u64,
            edge: u64,
            cells: u64,
            x: u64,
            o: u64,
            o_moves: bool,
        ) -> bool {
            let mut reached = stone;
            loop {
                let next = reached | (hex.neighbours(reached) & x);
                if next == reached {
                    break;
                }
                reached = next;
            }
            if reached & edge != 0 {
                return true;
            }
            let mut rest = cells & !(x | o);
            while rest != 0 {
                let c = rest & rest.wrapping_neg();
                rest &= rest - 1;
                if o_moves && !joined(hex, stone, edge, cells, x, o | c, false) {
                    return false;
                }
                if !o_moves && joined(hex, stone, edge, cells, x | c, o, true) {
                    return true;
                }
            }
            // Every move tried: O found no cut; X no join (none left: the stone cut off).
            o_moves && cells & !(x | o) != 0
        }
        let mut checked = 0;
        for n in 3..=6 {
            let hex = Hex::new(n);
            let search = Search::new(&hex);
            let edges = [hex.top, hex.bottom, hex.left, hex.right];
            for (edge, templates) in edges.iter().zip(&search.ziggurats) {
                for &(stone, carrier) in templates {
                    assert_eq!(carrier.count_ones(), 8);
                    assert_eq!(stone & carrier, 0);
                    assert!(joined(&hex, stone, *edge, carrier, stone, 0, true));
                    let mut rest = carrier;
                    while rest != 0 {
                        let c = rest & rest.wrapping_neg();
                        rest &= rest - 1;
                        assert!(!joined(&hex, stone, *edge, carrier, stone, c, true));
                    }
                    checked += 1;
                }
            }
        }
        // 4 × 4: 2 an edge; 5 × 5: 4; 6 × 6: 6.
        assert_eq!(checked, 4 * (2 + 4 + 6));
    }

    /// The dead cells of the patterns in the literature: four neighbours of one colour in
    /// a row, three and three; not two and two apart, nor a cell next to both edges of
    /// a player with nothing between.
    #[test]
    fn dead_rings() {
        assert!(dead_ring([1, 1, 1, 1, 0, 0]));
        assert!(dead_ring([0, 2, 2, 2, 2, 0]));
        assert!(dead_ring([1, 1, 1, 2, 2, 2]));
        assert!(!dead_ring([1, 1, 1, 0, 0, 0]));
        assert!(!dead_ring([1, 2, 1, 2, 0, 0]));
        assert!(!dead_ring([1, 0, 0, 1, 0, 0]));
        assert!(!dead_ring([0; 6]));
    }
}
