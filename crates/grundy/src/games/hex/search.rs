//! Hex for the exact search ([`crate::search::exact`]): the two bitboards of a position,
//! and what the search is told.
//!
//! - The score: a race ([`Race`]) — a win whose last stone leaves m stones on the board
//!   scores `(cells + 2 − m) / 2`, so the quickest win scores most; hex has no draws.
//! - A win at once is found by two floods: the cells next to (or on) both of the mover's
//!   edges' reach through their stones. The opponent's such cells must be taken (two of
//!   them lose), so a board with one is searched through that cell alone.
//! - Keys merge a position with its 180° turn, the one symmetry of the rhombus: up to
//!   5 × 5 the two bitboards side by side, on 6 × 6 the position's rank among the
//!   positions of its stones (the tiers' ranking).
//! - Order: the cells on both players' shortest paths first (the sum, over both players
//!   and both of each one's edges, of the empty cells a path from the edge to the cell
//!   needs), the centre breaking ties.

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

/// The stones of each player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// X's stones (X joins top and bottom, and moves first).
    pub x: u64,
    /// O's stones (left and right).
    pub o: u64,
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
    type Hint = u64;

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

    fn expand(&self, b: &Board) -> Node {
        let n = (b.x | b.o).count_ones() as i32;
        let (_, (theirs, ta, tz)) = self.sides(b);
        let empty = self.hex.full & !(b.x | b.o);
        let threats = self.winning(theirs, empty, ta, tz);
        if threats & threats.wrapping_sub(1) != 0 {
            return Node::Exact(-self.race.win(n + 2));
        }
        // Neither wins with their next stone: not before the mover's next but one, nor
        // lost before the opponent's next but one.
        let cells = self.race.cells;
        let lo = -self.race.win((n + 4).min(cells));
        let hi = self.race.win((n + 3).min(cells));
        Node::Open {
            lo: lo.min(hi),
            hi,
            hint: if threats != 0 { threats } else { empty },
        }
    }

    fn children(&self, b: &Board, hint: u64, out: &mut Vec<Board>) {
        let x_moves = b.x.count_ones() == b.o.count_ones();
        let play = |c: u64| {
            if x_moves {
                Board { x: b.x | c, o: b.o }
            } else {
                Board { x: b.x, o: b.o | c }
            }
        };
        if hint.count_ones() < ORDERED_FROM {
            out.extend(
                self.order
                    .iter()
                    .filter(|&&c| hint & c != 0)
                    .map(|&c| play(c)),
            );
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
            if hint & c != 0 {
                let entry = u16::from(cost[c.trailing_zeros() as usize]) << 8 | i as u16;
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
                .map(|&e| play(self.order[usize::from(e & 0xff)])),
        );
    }

    fn look_ahead(&self, b: &Board) -> bool {
        (b.x | b.o).count_ones() < self.look_ahead_below
    }

    fn value(&self, b: &Board, score: i32) -> Value {
        self.race.value((b.x | b.o).count_ones() as i32, score)
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
