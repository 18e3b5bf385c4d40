//! Hex on an n × n rhombus (`hex[n]`, 1 ≤ n ≤ 8): X and O take turns to put a stone on
//! an empty cell, X first; X connects the top row to the bottom row, O the left column to
//! the right column. A full board always holds exactly one such chain, so there are no
//! draws, and the first player wins every n (strategy stealing; the solver finds it up to
//! n = 4 in the default tests). Partizan, with declared terminal outcomes: the player who
//! completes a chain wins at once. No swap rule.
//!
//! A position is two bitboards `[x, o]`, cell `r·n + c` (row 0 at the top); cell `(r, c)`
//! touches `(r, c ± 1)`, `(r ± 1, c)`, `(r − 1, c + 1)` and `(r + 1, c − 1)`. The one
//! symmetry that keeps both goals is the 180° rotation (cell `i` ↔ `n² − 1 − i`);
//! positions are merged under it.
//!
//! Tiers ([`Indexing::tiers`], n ≤ 6): tier k holds the positions with k stones, ⌈k/2⌉ of
//! them X's. Within a tier a position is ranked by the combinatorial number system twice:
//! `colex(occupied cells) · C(k, ⌈k/2⌉) + colex(which of the occupied cells are X's)`,
//! so consecutive ranks are consecutive combinations (walked by Gosper's step, no
//! unranking). Ranks whose rotation ranks lower are not canonical, and are skipped.

mod search;
mod vc;

use std::ops::Range;

use super::board::{self, Grid};
use super::combin::{deposit, each_combination, extract, next_combination, Binomials};
use super::family::{
    Bound, Drawing, Exact, GameRules, Grundy, Indexing, Kind, Look, Patterns, Picture, Pos, Ranked,
    Scores, Searching, Tiers,
};
use super::spec::{Args, Built, Entry, Offered, Options, Setting, SpecError};
use crate::game::{Outcome, Player};
use crate::tier::{Child, Each, Node, TierGame, Want};

/// The largest side (two 64-bit bitboards).
pub const MAX_SIDE: u32 = 8;

/// The largest side whose tiers are offered (every tier's ranks fit in 64 bits).
pub const MAX_TIERED_SIDE: u32 = 6;

/// The largest side whose positions are ranked for the existing solver (`ranking`).
const MAX_RANKED_SIDE: u32 = 4;

/// `hex[n]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hex {
    /// The side of the rhombus.
    pub n: u32,
    cells: u32,
    full: u64,
    top: u64,
    bottom: u64,
    left: u64,
    right: u64,
    /// `binomial[p][i]` = C(p, i) for p, i ≤ n² (saturating), a flat table.
    binomial: Binomials,
}

impl Hex {
    /// The game on an n × n board (1 ≤ n ≤ `MAX_SIDE`).
    #[must_use]
    pub fn new(n: u32) -> Hex {
        assert!((1..=MAX_SIDE).contains(&n), "hex side {n} out of range");
        let cells = n * n;
        let full = if cells == 64 {
            u64::MAX
        } else {
            (1u64 << cells) - 1
        };
        let row = (1u64 << n) - 1;
        let top = row;
        let bottom = row << (n * (n - 1));
        let left = (0..n).fold(0u64, |acc, r| acc | 1 << (r * n));
        let right = left << (n - 1);
        let binomial = Binomials::new();
        Hex {
            n,
            cells,
            full,
            top,
            bottom,
            left,
            right,
            binomial,
        }
    }

    /// The cells next to any cell of `m`.
    fn neighbours(&self, m: u64) -> u64 {
        let n = self.n;
        let (not_left, not_right) = (!self.left, !self.right);
        let sideways = ((m << 1) & not_left) | ((m >> 1) & not_right);
        let vertical = (m << n) | (m >> n);
        // (r − 1, c + 1) is n − 1 cells back; (r + 1, c − 1) is n − 1 cells on.
        let diagonal = ((m >> (n - 1)) & not_left) | ((m << (n - 1)) & not_right);
        (sideways | vertical | if n > 1 { diagonal } else { 0 }) & self.full
    }

    /// Whether `stones` join the edges `from` and `to`.
    fn joins(&self, stones: u64, from: u64, to: u64) -> bool {
        let mut reached = stones & from;
        loop {
            if reached & to != 0 {
                return true;
            }
            let next = reached | (self.neighbours(reached) & stones);
            if next == reached {
                return false;
            }
            reached = next;
        }
    }

    /// The stones of `stones` in a group that touches both `from` and `to`: those reached
    /// from the one edge and from the other.
    fn joining(&self, stones: u64, from: u64, to: u64) -> u64 {
        let spread = |edge: u64| {
            let mut reached = stones & edge;
            loop {
                let next = reached | (self.neighbours(reached) & stones);
                if next == reached {
                    return reached;
                }
                reached = next;
            }
        };
        spread(from) & spread(to)
    }

    /// Whether X joins the top and the bottom.
    fn x_wins(&self, x: u64) -> bool {
        self.joins(x, self.top, self.bottom)
    }

    /// Whether O joins the left and the right.
    fn o_wins(&self, o: u64) -> bool {
        self.joins(o, self.left, self.right)
    }

    /// The board turned by 180°.
    fn rotate(&self, board: u64) -> u64 {
        board.reverse_bits() >> (64 - self.cells)
    }

    /// The cell's name: column letter, row number from the top (`a1` is the top left).
    fn cell_name(&self, cell: u32) -> String {
        self.grid().cell_name(cell)
    }

    /// The board's cells, numbered along each row.
    fn grid(&self) -> Grid {
        Grid::by_rows(self.n, self.n)
    }

    /// X's stones in a tier of k stones.
    fn xs(k: u32) -> u32 {
        k.div_ceil(2)
    }

    /// Rank of a position (not reduced by symmetry) within its tier.
    fn tier_rank(&self, x: u64, o: u64) -> u64 {
        let occupied = x | o;
        let k = occupied.count_ones() as usize;
        let per = self.binomial[k][Self::xs(k as u32) as usize];
        self.binomial.colex(occupied) * per + self.binomial.colex(extract(x, occupied))
    }

    /// The canonical rank (the lower of a position's and its rotation's) within its tier.
    fn canonical_rank(&self, x: u64, o: u64) -> u64 {
        self.tier_rank(x, o)
            .min(self.tier_rank(self.rotate(x), self.rotate(o)))
    }

    /// The position of a rank of tier `k`.
    fn unrank_in(&self, k: u32, rank: u64) -> (u64, u64) {
        let a = Self::xs(k);
        let per = self.binomial[k as usize][a as usize];
        let occupied = self.binomial.uncolex(rank / per, k);
        let x = deposit(self.binomial.uncolex(rank % per, a), occupied);
        (x, occupied & !x)
    }

    fn tier_len(&self, k: u32) -> u64 {
        self.binomial[self.cells as usize][k as usize]
            .saturating_mul(self.binomial[k as usize][Self::xs(k) as usize])
    }

    /// Whether the position is a legal count of stones for its tier.
    fn counts_fit(x: u64, o: u64) -> bool {
        let (nx, no) = (x.count_ones(), o.count_ones());
        x & o == 0 && (nx == no || nx == no + 1)
    }
}

/// The tier ranks of the children of one position, each in O(1): the sums of the
/// combinatorial numbers below and above every place a stone may go, laid out once.
/// Putting a stone at occupied index j leaves the terms below j as they are and shifts
/// the ones above by one place (and one term, when the stone is X's among the X's).
struct Inserter<const CAP: usize> {
    occupied: u64,
    /// X's stones as a subset of the occupied indices.
    xs: u64,
    /// Whether the new stone is X's.
    new_x: bool,
    /// `C(k + 1, ⌈(k + 1)/2⌉)`: the X-subsets of the child's tier.
    per_child: u64,
    /// Over the occupied cells `p_t`: `below[j] = Σ_{t<j} C(p_t, t+1)`,
    /// `above[j] = Σ_{t≥j} C(p_t, t+2)`.
    below: [u64; CAP],
    above: [u64; CAP],
    /// Over the X indices `q_t`: `x_below[u] = Σ_{t<u} C(q_t, t+1)`,
    /// `x_shifted[u] = Σ_{t≥u} C(q_t+1, t+1)`, `x_lifted[u] = Σ_{t≥u} C(q_t+1, t+2)`.
    x_below: [u64; CAP],
    x_shifted: [u64; CAP],
    x_lifted: [u64; CAP],
}

impl<const CAP: usize> Inserter<CAP> {
    fn new(hex: &Hex, x: u64, o: u64, new_x: bool) -> Inserter<CAP> {
        let c = &hex.binomial;
        let occupied = x | o;
        let k = occupied.count_ones() as usize;
        let xs = extract(x, occupied);
        let a = xs.count_ones() as usize;
        let mut me = Inserter {
            occupied,
            xs,
            new_x,
            per_child: c[k + 1][Hex::xs(k as u32 + 1) as usize],
            below: [0; CAP],
            above: [0; CAP],
            x_below: [0; CAP],
            x_shifted: [0; CAP],
            x_lifted: [0; CAP],
        };
        let mut cells = [0usize; CAP];
        let mut rest = occupied;
        for cell in cells.iter_mut().take(k) {
            *cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
        }
        for t in 0..k {
            me.below[t + 1] = me.below[t] + c[cells[t]][t + 1];
        }
        for t in (0..k).rev() {
            me.above[t] = me.above[t + 1] + c[cells[t]][t + 2];
        }
        let mut indices = [0usize; CAP];
        let mut rest = xs;
        for index in indices.iter_mut().take(a) {
            *index = rest.trailing_zeros() as usize;
            rest &= rest - 1;
        }
        for t in 0..a {
            me.x_below[t + 1] = me.x_below[t] + c[indices[t]][t + 1];
        }
        for t in (0..a).rev() {
            me.x_shifted[t] = me.x_shifted[t + 1] + c[indices[t] + 1][t + 1];
            me.x_lifted[t] = me.x_lifted[t + 1] + c[indices[t] + 1][t + 2];
        }
        me
    }

    /// The child's rank (in tier k + 1, not reduced by symmetry) with a stone on `cell`.
    fn rank(&self, hex: &Hex, cell: u32) -> u64 {
        let c = &hex.binomial;
        let j = (self.occupied & ((1u64 << cell) - 1)).count_ones() as usize;
        let occupied = self.below[j] + c[cell as usize][j + 1] + self.above[j];
        let u = (self.xs & ((1u64 << j) - 1)).count_ones() as usize;
        let xs = if self.new_x {
            self.x_below[u] + c[j][u + 1] + self.x_lifted[u]
        } else {
            self.x_below[u] + self.x_shifted[u]
        };
        occupied * self.per_child + xs
    }
}

/// The canonical ranks of the children of `(x, o)`, the new stone being X's if `new_x`,
/// for every empty cell in increasing order.
fn child_ranks(hex: &Hex, x: u64, o: u64, new_x: bool, each: impl FnMut(u64)) {
    // Tables as small as the board allows: they are laid out twice per position.
    if hex.cells <= 16 {
        child_ranks_in::<17>(hex, x, o, new_x, each);
    } else {
        child_ranks_in::<{ (MAX_TIERED_SIDE * MAX_TIERED_SIDE) as usize + 1 }>(
            hex, x, o, new_x, each,
        );
    }
}

fn child_ranks_in<const CAP: usize>(
    hex: &Hex,
    x: u64,
    o: u64,
    new_x: bool,
    mut each: impl FnMut(u64),
) {
    let here = Inserter::<CAP>::new(hex, x, o, new_x);
    let turned = Inserter::<CAP>::new(hex, hex.rotate(x), hex.rotate(o), new_x);
    let mut empty = !(x | o) & hex.full;
    while empty != 0 {
        let cell = empty.trailing_zeros();
        empty &= empty - 1;
        each(
            here.rank(hex, cell)
                .min(turned.rank(hex, hex.cells - 1 - cell)),
        );
    }
}

impl GameRules for Hex {
    fn name(&self) -> String {
        format!("hex[{}]", self.n)
    }

    fn kind(&self) -> Kind {
        Kind::Partizan
    }

    fn write_position(&self, pos: &Pos, out: &mut String) {
        self.grid().write(pos, out);
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let side = usize::from(self.to_move(pos) == Player::Second);
        let mut empty = !(pos[0] | pos[1]) & self.full;
        while empty != 0 {
            let bit = empty & empty.wrapping_neg();
            empty &= empty - 1;
            let mut next = pos.clone();
            next[side] |= bit;
            out.push(next);
        }
    }

    fn canonical(&self, pos: &Pos) -> Pos {
        let turned = [self.rotate(pos[0]), self.rotate(pos[1])];
        if self.tier_rank(turned[0], turned[1]) < self.tier_rank(pos[0], pos[1]) {
            Pos::from_slice(&turned)
        } else {
            pos.clone()
        }
    }

    fn to_move(&self, pos: &Pos) -> Player {
        board::to_move(pos)
    }

    fn terminal(&self, pos: &Pos) -> Option<Outcome> {
        // The player who just moved may have completed a chain.
        let done = match self.to_move(pos) {
            Player::First => self.o_wins(pos[1]),
            Player::Second => self.x_wins(pos[0]),
        };
        done.then_some(Outcome::Loss)
    }

    fn bound(&self, pos: &Pos) -> Bound {
        let empty = u128::from((!(pos[0] | pos[1]) & self.full).count_ones());
        Bound {
            positions: (0..empty).fold(1u128, |acc, _| acc.saturating_mul(3)),
            moves: empty,
        }
    }
}

impl Drawing for Hex {
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        board::placed(from, to).map_or_else(|| "no single stone".into(), |c| self.cell_name(c))
    }

    fn names_move(&self, from: &Pos, to: &Pos, text: &str) -> bool {
        // "c3", or the column and row as numbers: "3,3".
        let said = super::family::squash(text);
        let Some(cell) = board::placed(from, to) else {
            return false;
        };
        let (r, c) = (cell / self.n, cell % self.n);
        said == self.cell_name(cell) || said == format!("{},{}", c + 1, r + 1)
    }

    fn picture(&self, pos: &Pos) -> Option<Picture> {
        Some(self.grid().picture(pos, Look::Hexes))
    }

    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        self.grid().move_cell(from, to)
    }

    /// The winner's chain: every stone of a group that joins the winner's two sides.
    fn winning_cells(&self, pos: &Pos) -> Vec<(u32, u32)> {
        let chain = if self.x_wins(pos[0]) {
            self.joining(pos[0], self.top, self.bottom)
        } else if self.o_wins(pos[1]) {
            self.joining(pos[1], self.left, self.right)
        } else {
            0
        };
        (0..self.cells)
            .filter(|&cell| chain >> cell & 1 == 1)
            .map(|cell| (cell / self.n, cell % self.n))
            .collect()
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        // Each row shifted half a cell right of the one above: the rhombus.
        let note = "   (X joins top and bottom, O left and right)";
        Some(board::trim_lines(&self.grid().lettered(pos, note, true)))
    }
}

impl Scores for Hex {}

impl Indexing for Hex {
    fn ranking(&self, _root: &Pos) -> Option<Box<dyn Ranked + '_>> {
        (self.n <= MAX_RANKED_SIDE).then(|| Box::new(ByTier::new(self)) as Box<dyn Ranked>)
    }

    fn tiers(&self) -> Option<Box<dyn Tiers + '_>> {
        (self.n <= MAX_TIERED_SIDE).then(|| Box::new(HexTiers(self)) as Box<dyn Tiers>)
    }
}

impl Searching for Hex {
    fn move_priority(&self, from: &Pos, to: &Pos) -> i32 {
        // The centre first: minus the hex distance from the centre, in half cells (axial
        // coordinates, doubled so that an even side's centre falls on whole numbers).
        board::placed(from, to).map_or(0, |cell| {
            let centre = self.n as i32 - 1;
            let a = 2 * (cell / self.n) as i32 - centre;
            let b = 2 * (cell % self.n) as i32 - centre;
            -(a.abs() + b.abs() + (a + b).abs())
        })
    }

    fn exact(&self) -> Option<Box<dyn Exact + '_>> {
        search::exact(self)
    }
}

impl Patterns for Hex {}

impl Grundy for Hex {}

/// Every position ranked once for the existing solver: the tiers laid end to end,
/// counted down from the empty board so that every move lowers the rank.
struct ByTier<'a> {
    hex: &'a Hex,
    /// `offsets[k]`: the ranks of the tiers before k.
    offsets: Vec<u64>,
    size: u64,
}

impl<'a> ByTier<'a> {
    fn new(hex: &'a Hex) -> ByTier<'a> {
        let mut offsets = Vec::new();
        let mut size = 0u64;
        for k in 0..=hex.cells {
            offsets.push(size);
            size += hex.tier_len(k);
        }
        ByTier { hex, offsets, size }
    }
}

impl Ranked for ByTier<'_> {
    fn size(&self) -> u64 {
        self.size
    }

    fn rank(&self, pos: &Pos) -> u64 {
        let k = (pos[0] | pos[1]).count_ones() as usize;
        self.size - 1 - (self.offsets[k] + self.hex.canonical_rank(pos[0], pos[1]))
    }

    fn unrank(&self, rank: u64) -> Pos {
        let index = self.size - 1 - rank;
        let k = self.offsets.partition_point(|&o| o <= index) - 1;
        let (x, o) = self.hex.unrank_in(k as u32, index - self.offsets[k]);
        Pos::from_slice(&[x, o])
    }

    /// Moves from a terminal rank are not asked for (as `GameRules::moves`).
    fn moves(&self, rank: u64, out: &mut Vec<u64>) {
        let pos = self.unrank(rank);
        let k = (pos[0] | pos[1]).count_ones() as usize;
        let base = self.size - 1 - self.offsets[k + 1];
        let new_x = self.hex.to_move(&pos) == Player::First;
        child_ranks(self.hex, pos[0], pos[1], new_x, |r| out.push(base - r));
    }

    fn terminal(&self, rank: u64) -> Option<Outcome> {
        self.hex.terminal(&self.unrank(rank))
    }

    fn descending(&self) -> bool {
        true
    }
}

/// The tiers of `hex[n]` from the empty board.
struct HexTiers<'a>(&'a Hex);

impl TierGame for HexTiers<'_> {
    fn id(&self) -> String {
        self.0.name()
    }

    fn tier_count(&self) -> u32 {
        self.0.cells + 1
    }

    fn tier_size(&self, tier: u32) -> u64 {
        self.0.tier_len(tier)
    }

    fn child_tiers(&self, tier: u32) -> Vec<u32> {
        board::next_tier(tier, self.0.cells)
    }

    fn root(&self) -> (u32, u64) {
        (0, 0)
    }

    fn visit(&self, tier: u32, ranks: Range<u64>, want: Want<'_>, each: Each<'_>) {
        let hex = self.0;
        let k = tier;
        let Some(ranks) = self.within(tier, ranks) else {
            return;
        };
        let a = Hex::xs(k);
        let per = hex.binomial[k as usize][a as usize];
        // A rank is the pair (the occupied cells, X's among them), the X part running
        // fastest; the pair of the first rank, then each next by Gosper's step.
        let first = (
            hex.binomial.uncolex(ranks.start / per, k),
            hex.binomial.uncolex(ranks.start % per, a),
        );
        let first_sub = (1u64 << a) - 1;
        let last_sub = first_sub << (k - a);
        let next = |(occupied, sub): (u64, u64)| {
            if sub == last_sub {
                (next_combination(occupied), first_sub)
            } else {
                (occupied, next_combination(sub))
            }
        };
        let x_to_move = k.is_multiple_of(2);
        let mut children = Vec::with_capacity(hex.cells as usize);
        each_combination(ranks, first, next, want, |r, (occupied, sub)| {
            let x = deposit(sub, occupied);
            let o = occupied & !x;
            if hex.tier_rank(hex.rotate(x), hex.rotate(o)) < r {
                return;
            }
            let (mover_won, last_won) = if x_to_move {
                (hex.x_wins(x), hex.o_wins(o))
            } else {
                (hex.o_wins(o), hex.x_wins(x))
            };
            if mover_won {
                // Play stops at the first chain: not a position of the game.
                return;
            }
            if last_won {
                each(r, Node::Over(Outcome::Loss));
                return;
            }
            children.clear();
            child_ranks(hex, x, o, x_to_move, |rank| {
                children.push(Child::to(k + 1, rank))
            });
            each(r, Node::Moves(&children));
        });
    }
}

impl Tiers for HexTiers<'_> {
    fn locate(&self, pos: &Pos) -> Option<(u32, u64)> {
        let (x, o) = (*pos.first()?, *pos.get(1)?);
        if pos.len() != 2 || (x | o) & !self.0.full != 0 || !Hex::counts_fit(x, o) {
            return None;
        }
        Some(((x | o).count_ones(), self.0.canonical_rank(x, o)))
    }

    fn position(&self, tier: u32, rank: u64) -> Pos {
        let (x, o) = self.0.unrank_in(tier, rank);
        Pos::from_slice(&[x, o])
    }
}

fn board(args: &Args<'_>, game: &Hex) -> Result<Pos, SpecError> {
    let example = "hex[3](x../.o./...)";
    let Some((text, at)) = board::one_board(args, example)? else {
        return Ok(Pos::from_slice(&[0, 0]));
    };
    let (x, o) = game
        .grid()
        .read(args, text, at, "a cell is `x`, `o` or `.`")?;
    if !Hex::counts_fit(x, o) {
        return Err(args.error_at(
            at,
            format!(
                "X moves first, so X has as many stones as O or one more (here {} and {})",
                x.count_ones(),
                o.count_ones()
            ),
        ));
    }
    Ok(Pos::from_slice(&[x, o]))
}

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    let param = args.one_param("hex[4]")?;
    let n = args.positive(param, "the side")?;
    if n > u64::from(MAX_SIDE) {
        return Err(args.error_at(
            param.at(),
            format!("a side of 1 to {MAX_SIDE} cells, as in `hex[4]`"),
        ));
    }
    let game = Hex::new(n as u32);
    let position = board(args, &game)?;
    Ok(Built::new(game, Some(position)))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "hex",
    examples: &["hex[3]"],
    small: &["hex[2]", "hex[3]"],
    shape: "hex[n](board): Hex on an n × n rhombus (n ≤ 8), X first joins top and bottom, O left and right; no swap (rows top to bottom, `/` between them; no position: the empty board)",
    build,
    options: Options {
        template: "hex[{size}]",
        settings: &[
            Setting {
                name: "size",
                label: "cells a side",
                values: Offered::Range(2, 4),
                default: "3",
            },
        ],
    },
}];

/// The names of the moves that win, in move order (tests).
#[cfg(test)]
fn winning_openings(r: &crate::report::Report) -> Vec<&str> {
    r.moves
        .iter()
        .filter(|m| m.outcome == Outcome::Win)
        .map(|m| m.name.as_str())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Spec;
    use crate::report::{self, Limits};
    use std::collections::HashMap;

    fn pos(x: u64, o: u64) -> Pos {
        Pos::from_slice(&[x, o])
    }

    /// Every board of the right counts, by brute force: tier → boards.
    fn all_boards(hex: &Hex) -> Vec<Vec<(u64, u64)>> {
        let mut tiers = vec![Vec::new(); hex.cells as usize + 1];
        for code in 0..3u64.pow(hex.cells) {
            let (mut x, mut o, mut c) = (0u64, 0u64, code);
            for cell in 0..hex.cells {
                match c % 3 {
                    1 => x |= 1 << cell,
                    2 => o |= 1 << cell,
                    _ => {}
                }
                c /= 3;
            }
            if Hex::counts_fit(x, o) {
                tiers[(x | o).count_ones() as usize].push((x, o));
            }
        }
        tiers
    }

    #[test]
    fn the_winning_chain_is_marked_and_nothing_before() {
        let won = |spec: &str| {
            let spec: Spec = spec.parse().unwrap();
            let part = spec.single().unwrap();
            part.family.winning_cells(&part.position)
        };
        // X down the middle column, with a branch off it (its group); O's stones left out.
        assert_eq!(won("hex[3](oxx/ox./ox.)"), [(0, 1), (0, 2), (1, 1), (2, 1)]);
        // O across the top row; X's stones touch no two sides.
        assert_eq!(won("hex[3](ooo/xx./x..)"), [(0, 0), (0, 1), (0, 2)]);
        // A chain on the diagonal that hex joins.
        assert_eq!(won("hex[3](..x/ox./xo.)"), [(0, 2), (1, 1), (2, 0)]);
        assert!(won("hex[3](x../ox./o..)").is_empty());
        assert!(won("hex[3]").is_empty());
    }

    #[test]
    fn chains_are_found_on_the_rhombus() {
        let hex = Hex::new(3);
        // X down the middle column: a1..? cells 1, 4, 7.
        assert!(hex.x_wins(0b010_010_010));
        // A staircase on the diagonal that hex joins: (0,2), (1,1), (2,0).
        assert!(hex.x_wins(1 << 2 | 1 << 4 | 1 << 6));
        // The other diagonal does not touch: (0,0), (1,1), (2,2).
        assert!(!hex.x_wins(1 | 1 << 4 | 1 << 8));
        assert!(!hex.o_wins(1 | 1 << 4 | 1 << 8));
        // O along the top row joins left and right; X does not join top and bottom.
        assert!(hex.o_wins(0b111));
        assert!(!hex.x_wins(0b111));
        // No wrap-around from the end of one row to the start of the next.
        assert!(!hex.o_wins(1 << 2 | 1 << 3 | 1 << 5));
        assert!(Hex::new(1).x_wins(1));
    }

    #[test]
    fn ranks_round_trip_over_every_tier() {
        for n in 1..=3 {
            let hex = Hex::new(n);
            let tiers = HexTiers(&hex);
            let boards = all_boards(&hex);
            for k in 0..=hex.cells {
                // Tier sizes as computed equal the boards counted.
                assert_eq!(
                    tiers.tier_size(k),
                    boards[k as usize].len() as u64,
                    "n {n} k {k}"
                );
                let mut seen = vec![false; tiers.tier_size(k) as usize];
                for &(x, o) in &boards[k as usize] {
                    let r = hex.tier_rank(x, o);
                    assert!(!seen[r as usize], "rank {r} twice");
                    seen[r as usize] = true;
                    assert_eq!(hex.unrank_in(k, r), (x, o));
                    let (t, c) = tiers.locate(&pos(x, o)).unwrap();
                    assert_eq!(t, k);
                    assert!(c <= r);
                    assert_eq!(tiers.locate(&tiers.position(t, c)), Some((t, c)));
                    assert_eq!(hex.canonical(&pos(x, o)), tiers.position(t, c));
                }
            }
        }
        let hex = Hex::new(2);
        assert_eq!(HexTiers(&hex).locate(&pos(3, 0)), None);
        assert_eq!(HexTiers(&hex).locate(&pos(1, 1)), None);
    }

    /// What `visit` says of every rank of every tier, by rank.
    fn visited(
        tiers: &HexTiers<'_>,
        k: u32,
        ranks: Range<u64>,
    ) -> HashMap<u64, Option<Vec<Child>>> {
        let mut out = HashMap::new();
        tiers.visit(k, ranks, &|_| true, &mut |r, node| {
            let v = match node {
                Node::Over(Outcome::Loss) => None,
                Node::Moves(children) => {
                    let mut c = children.to_vec();
                    c.sort();
                    Some(c)
                }
                other => panic!("unexpected {other:?}"),
            };
            assert!(out.insert(r, v).is_none());
        });
        out
    }

    #[test]
    fn visit_matches_the_family_moves() {
        for n in 1..=3 {
            let hex = Hex::new(n);
            let tiers = HexTiers(&hex);
            for k in 0..=hex.cells {
                let size = tiers.tier_size(k);
                let all = visited(&tiers, k, 0..size);
                for r in 0..size {
                    let p = tiers.position(k, r);
                    let canonical = tiers.locate(&p) == Some((k, r));
                    let mover_won = match hex.to_move(&p) {
                        Player::First => hex.x_wins(p[0]),
                        Player::Second => hex.o_wins(p[1]),
                    };
                    if !canonical || mover_won {
                        assert!(!all.contains_key(&r), "n {n} tier {k} rank {r} visited");
                        continue;
                    }
                    let node = all.get(&r).unwrap_or_else(|| panic!("rank {r} skipped"));
                    match hex.terminal(&p) {
                        Some(Outcome::Loss) => assert_eq!(node, &None),
                        _ => {
                            let mut moves = Vec::new();
                            hex.moves(&p, &mut moves);
                            let mut want: Vec<Child> = moves
                                .iter()
                                .map(|m| {
                                    let (t, c) = tiers.locate(m).unwrap();
                                    Child::to(t, c)
                                })
                                .collect();
                            want.sort();
                            assert_eq!(node.as_ref(), Some(&want), "n {n} tier {k} rank {r}");
                        }
                    }
                }
                // A walk started inside the tier says the same as the whole walk.
                let from = size / 3;
                let part = visited(&tiers, k, from..size);
                for (r, v) in &part {
                    assert_eq!(all.get(r), Some(v));
                }
                assert_eq!(part.len(), all.keys().filter(|&&r| r >= from).count());
            }
        }
    }

    #[test]
    fn the_tiers_reach_what_the_analyzer_explores() {
        for n in 1..=3 {
            let text = format!("hex[{n}]");
            let spec: Spec = text.parse().unwrap();
            let r = report::solve(&spec, &Limits::default()).unwrap();
            let hex = Hex::new(n);
            assert_eq!(
                Some(crate::games::testing::reachable(&HexTiers(&hex))),
                r.positions,
                "{text}"
            );
        }
    }

    fn tier_solve(hex: &Hex) -> (crate::tier::Solved, crate::tier::MemoryStore) {
        crate::games::testing::tier_solve(&HexTiers(hex))
    }

    /// The tier solver on these tiers: the first player wins, over the positions the
    /// analyzer explores, and every record equals the analyzer's value of its board.
    #[test]
    fn the_tier_solver_agrees_with_the_analyzer() {
        use crate::tier::record;
        for n in 1..=3 {
            let hex = Hex::new(n);
            let (solved, store) = tier_solve(&hex);
            let spec: Spec = format!("hex[{n}]").parse().unwrap();
            let r = report::solve(&spec, &Limits::default()).unwrap();
            assert_eq!(Some(solved.positions()), r.positions);
            let root = record::value(solved.root).unwrap();
            assert_eq!(
                (root.outcome(), root.remoteness()),
                (r.outcome, r.remoteness)
            );
            crate::games::testing::records_equal_the_search(hex.clone(), &store, 5, false);
            // The proof search says the same at every third record: the board's value
            // and each move's.
            let checked = crate::games::testing::searches_equal_the_records(hex.clone(), &store, 3);
            assert!(
                checked * 3 + 3 >= solved.positions() as usize / 2,
                "{checked}"
            );
            // The exact search at every record, with remoteness, and each move's.
            let checked = crate::games::testing::exact_equals_the_records(hex, &store, 1, 1);
            assert!(checked * 2 + 2 >= solved.positions() as usize, "{checked}");
        }
    }

    /// hex[4] by the tier solver: a first-player win in 9 moves over 4 693 575 positions
    /// (the analyzer's count, in the ignored test below).
    #[test]
    fn hex4_by_the_tier_solver() {
        let (solved, store) = tier_solve(&Hex::new(4));
        assert_eq!(solved.positions(), 4_693_575);
        assert_eq!(
            crate::tier::record::value(solved.root),
            Some(crate::game::Value::Win(9))
        );
        // The proof search from the first position of every tier (the empty board
        // included) and each of its moves, against the records.
        let checked =
            crate::games::testing::searches_equal_the_records(Hex::new(4), &store, 1 << 40);
        assert!(checked >= 10, "{checked}");
        // The exact search at every 997th record (strong and weak), each move's at some.
        let checked = crate::games::testing::exact_equals_the_records(Hex::new(4), &store, 997, 7);
        assert!(checked > 2000, "{checked}");
    }

    /// Where exploring refuses (a budget of 1000 positions), `solve` answers hex[4] by the
    /// exact search, with remoteness (a win in 9, as the tier solver has it); without it,
    /// by the proof search: the value and every move's, marked as a weak solution without
    /// remoteness.
    #[test]
    fn the_searches_answer_past_the_exploring_budget() {
        let spec: Spec = "hex[4]".parse().unwrap();
        let mut limits = Limits::default();
        limits.control.max_positions = 1000;
        let r = report::solve(&spec, &limits).unwrap();
        assert_eq!(r.method, report::Method::Search);
        assert_eq!(
            (r.outcome, r.remoteness, r.weak),
            (Outcome::Win, Some(9), false)
        );
        assert_eq!(winning_openings(&r), ["d1", "c2", "b3", "a4"]);
        assert!(r.moves.iter().all(|m| m.remoteness.is_some()));
        limits.max_exact_nodes = 0;
        let r = report::solve(&spec, &limits).unwrap();
        assert_eq!(r.method, report::Method::Search);
        assert_eq!(
            (r.outcome, r.remoteness, r.positions),
            (Outcome::Win, None, None)
        );
        assert!(r.nodes.is_some_and(|n| n > 0));
        // The short diagonal, as the exhaustive solve finds (`larger::hex4_…` below).
        assert_eq!(winning_openings(&r), ["d1", "c2", "b3", "a4"]);
        assert_eq!(r.winning_moves.len(), 4);
        assert!(r.moves.iter().all(|m| m.remoteness.is_none()));
        // With no proof search allowed, the refusal is the exhaustive method's, as before.
        limits.max_search_nodes = 0;
        let e = report::solve(&spec, &limits).unwrap_err().to_string();
        assert!(e.contains("positions to explore (limit 1000)"), "{e}");
        // A budget of nodes too small: refused, saying both what exploring would need and
        // how far the search went.
        limits.max_search_nodes = 500;
        let e = report::solve(&spec, &limits).unwrap_err().to_string();
        assert!(e.contains("(limit 1000)"), "{e}");
        assert!(e.contains("without an answer (limit 500)"), "{e}");
    }

    #[test]
    fn the_wanted_ranks_only_are_visited() {
        let hex = Hex::new(3);
        let tiers = HexTiers(&hex);
        let mut got = Vec::new();
        tiers.visit(4, 0..tiers.tier_size(4), &|r| r % 7 == 3, &mut |r, _| {
            got.push(r)
        });
        assert!(!got.is_empty());
        assert!(got.iter().all(|r| r % 7 == 3));
        assert!(got.windows(2).all(|w| w[0] < w[1]));
    }

    fn solve(text: &str) -> report::Report {
        let spec: Spec = text.parse().unwrap();
        report::solve(&spec, &Limits::default()).unwrap()
    }

    #[test]
    fn the_first_player_wins_small_boards() {
        // Strategy stealing: the first player wins every Hex board (Nash; Gardner 1957).
        for n in 1..=3 {
            let r = solve(&format!("hex[{n}]"));
            assert_eq!(r.outcome, Outcome::Win, "hex[{n}]");
        }
        // On 2 × 2 the winning first stones are the obtuse corners b1 and a2 (the short
        // diagonal), each touching both of its goal's edges' other cells.
        let r = solve("hex[2]");
        let mut winning: Vec<&str> = r
            .moves
            .iter()
            .filter(|m| m.outcome == Outcome::Win)
            .map(|m| m.name.as_str())
            .collect();
        winning.sort_unstable();
        assert_eq!(winning, ["a2", "b1"]);
        // On 3 × 3 the centre wins for X.
        let r = solve("hex[3]");
        let centre = r.moves.iter().find(|m| m.name == "b2").unwrap();
        assert_eq!(centre.outcome, Outcome::Win);
        // A finished game: O joined left and right; X to move has lost.
        let r = solve("hex[3](xx./ooo/x..)");
        assert_eq!((r.outcome, r.remoteness), (Outcome::Loss, Some(0)));
    }

    #[test]
    fn the_picture_marks_the_cell_of_each_move() {
        let hex = Hex::new(3);
        let from = pos(1 << 4, 0);
        let mut moves = Vec::new();
        hex.moves(&from, &mut moves);
        let before = hex.picture(&from).unwrap();
        assert_eq!(
            (before.rows, before.columns, before.look),
            (3, 3, Look::Hexes)
        );
        assert_eq!(before.cells[4], "X");
        for to in &moves {
            let (r, c) = hex.move_cell(&from, to).unwrap();
            let i = (r * 3 + c) as usize;
            assert_eq!(before.cells[i], "");
            assert_eq!(hex.picture(to).unwrap().cells[i], "O");
            assert_eq!(hex.cell_name(r * 3 + c), hex.move_name(&from, to));
        }
    }

    #[test]
    fn positions_print_and_parse_back() {
        let spec: Spec = "hex[3](x../.o./...)".parse().unwrap();
        assert_eq!(spec.to_string(), "hex[3](x../.o./...)");
        let spec: Spec = "hex[2]".parse().unwrap();
        assert_eq!(spec.to_string(), "hex[2](../..)");
        assert!("hex[3](xx./.../...)".parse::<Spec>().is_err());
        assert!("hex[9]".parse::<Spec>().is_err());
        let hex = Hex::new(3);
        let from = pos(0, 0);
        let to = pos(1 << 5, 0);
        assert_eq!(hex.move_name(&from, &to), "c2");
        assert!(hex.names_move(&from, &to, "C2"));
        assert!(hex.names_move(&from, &to, "3,2"));
        assert!(!hex.names_move(&from, &to, "b3"));
        assert_eq!(
            Hex::new(2).draw(&pos(1, 1 << 3)).unwrap(),
            "   a b    (X joins top and bottom, O left and right)\n 1 X .\n 2  . O\n"
        );
    }
}

#[cfg(test)]
mod larger {
    use super::winning_openings;
    use crate::game::Outcome;
    use crate::games::Spec;
    use crate::report::{self, Limits};

    /// About 8 s in the test profile, so not by default:
    /// `cargo test -p grundy --lib games::hex::larger -- --ignored`
    #[test]
    #[ignore]
    fn hex4_is_a_first_player_win() {
        let spec: Spec = "hex[4]".parse().unwrap();
        let mut limits = Limits::default();
        limits.control.max_positions = 10_000_000;
        let r = report::solve(&spec, &limits).unwrap();
        assert_eq!(r.outcome, Outcome::Win);
        // Measured: 4 693 575 positions up to the rotation, won in 9 moves; the winning
        // first stones are the short diagonal.
        assert_eq!(r.positions, Some(4_693_575));
        assert_eq!(r.remoteness, Some(9));
        let winning = winning_openings(&r);
        assert_eq!(winning, ["d1", "c2", "b3", "a4"]);
    }

    /// hex[5] by the exact search, with remoteness: the first player wins in 13 (their
    /// seventh stone), by c3, d2 or b4; the same 13 winning openings as the proof search
    /// below finds, each with its remoteness, symmetric under the 180° turn. Measured in
    /// release (README): with H-search 7.5 M nodes, 23.7 s of CPU on two threads, 80 MB
    /// (before it: 47 M nodes, 9.0 s wall on an idle machine).
    /// `cargo test --release -p grundy --lib games::hex::larger -- --ignored`
    #[test]
    #[ignore]
    fn hex5_is_a_first_player_win_in_13_by_the_exact_search() {
        let spec: Spec = "hex[5]".parse().unwrap();
        let r = report::solve(&spec, &Limits::default()).unwrap();
        assert_eq!(r.method, report::Method::Search);
        assert_eq!((r.outcome, r.remoteness), (Outcome::Win, Some(13)));
        let winning: Vec<(&str, Option<u32>)> = r
            .moves
            .iter()
            .filter(|m| m.outcome == Outcome::Win)
            .map(|m| (m.name.as_str(), m.remoteness))
            .collect();
        let moves = [
            ("e1", 15),
            ("b2", 15),
            ("c2", 17),
            ("d2", 13),
            ("e2", 19),
            ("b3", 17),
            ("c3", 13),
            ("d3", 17),
            ("a4", 19),
            ("b4", 13),
            ("c4", 17),
            ("d4", 15),
            ("a5", 15),
        ];
        assert_eq!(winning, moves.map(|(m, r)| (m, Some(r))).to_vec(),);
    }

    /// hex[5] by the proof search, past the exhaustive method (3^25 boards): a
    /// first-player win (strategy stealing: Nash; Gardner 1957) with the centre c3 among
    /// the winning openings (the winning cells of the 5 × 5 board are those shaded red in
    /// HexWiki's "Small boards" and Queenbee's opening table, www.cs.ualberta.ca/~queenbee/
    /// openings.html; their text gives no list to compare cell by cell). Measured in
    /// release (README): 111 219 139 nodes, 12 min of CPU, 6.3 GiB peak with 8 GiB for the
    /// table (1 GiB is too little: no answer in 20 min), 13 winning openings.
    /// `cargo test --release -p grundy --lib games::hex::larger -- --ignored`
    #[test]
    #[ignore]
    fn hex5_is_a_first_player_win_by_the_proof_search() {
        let spec: Spec = "hex[5]".parse().unwrap();
        let limits = Limits {
            max_search_nodes: 10_000_000_000,
            search_memory: 8 << 30,
            max_exact_nodes: 0,
            ..Limits::default()
        };
        let r = report::solve(&spec, &limits).unwrap();
        assert_eq!(r.method, report::Method::Search);
        assert_eq!(r.outcome, Outcome::Win);
        let winning = winning_openings(&r);
        assert!(winning.contains(&"c3"), "{winning:?}");
        // As measured: a band along the short diagonal, both obtuse corners included.
        assert_eq!(
            winning,
            ["e1", "b2", "c2", "d2", "e2", "b3", "c3", "d3", "a4", "b4", "c4", "d4", "a5"]
        );
        // The 180° rotation maps winning openings to winning openings.
        for m in &winning {
            let (c, r) = (m.as_bytes()[0] - b'a', m.as_bytes()[1] - b'1');
            let turned = format!("{}{}", (b'a' + 4 - c) as char, 5 - r);
            assert!(winning.contains(&turned.as_str()), "{m} but not {turned}");
        }
        eprintln!("hex[5] winning openings: {winning:?}, {:?} nodes", r.nodes);
    }

    /// hex[6] by the weak exact search: every one of the 36 openings has the winner that
    /// Benzene's regression test of its 6 × 6 solver gives (`regression/dfpn-solve-6x6.tst`
    /// of the University of Alberta's Benzene: black moves first, and white, to move,
    /// wins after a1, a2, b1, b6, c1, c6, d1, d6, e1, e6, f5 and f6 — Queenbee's result).
    /// The table is written here as Benzene's file names its cells. Those 12 cells are not
    /// a set the board's transposition keeps, so a match under the same names also checks
    /// that the two programs name cells and edges alike. The command line's
    /// `grundy solve 'hex[6]' --weak --threads 1` gives these 36 outcomes in 5.96·10^7
    /// nodes, 10 to 12 minutes of CPU (README). This test took more than 40 minutes of
    /// CPU until 2026-12-05: the search's first node budget was 4 in every test build (a
    /// constant chosen for the small boards' tests), not the 1024 the program uses; it is
    /// now an option ([`crate::search::exact::Options::first_budget`]) that the small
    /// tests set themselves. Since: 708 s of CPU, 11 min 54 s wall, 85 MiB (2026-12-05).
    /// `cargo test --release -p grundy --lib games::hex::larger::hex6 -- --ignored`
    #[test]
    #[ignore]
    fn hex6_openings_are_those_benzene_published() {
        const SECOND_PLAYER_WINS: [&str; 12] = [
            "a1", "a2", "b1", "b6", "c1", "c6", "d1", "d6", "e1", "e6", "f5", "f6",
        ];
        let spec: Spec = "hex[6]".parse().unwrap();
        let limits = Limits {
            weak: true,
            search_threads: 1,
            ..Limits::default()
        };
        let r = report::solve(&spec, &limits).unwrap();
        assert_eq!(r.outcome, Outcome::Win);
        assert_eq!(r.moves.len(), 36);
        for m in &r.moves {
            let expected = if SECOND_PLAYER_WINS.contains(&m.name.as_str()) {
                Outcome::Loss
            } else {
                Outcome::Win
            };
            assert_eq!(m.outcome, expected, "the opening {}", m.name);
        }
        assert_eq!(winning_openings(&r).len(), 24);
    }
}
