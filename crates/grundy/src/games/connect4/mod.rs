//! Connect four on a w × h board (w columns, h rows, at most 64 cells): X and O take turns
//! to drop a disc into a column that is not full, X first (the player to move on the empty
//! board); whoever first has four discs in a row — across, up or diagonally — wins, and a
//! full board without one is a draw. Boards narrower and lower than four can only be
//! drawn. Partizan, with declared terminal outcomes.
//!
//! A position is two masks `[x, o]` over the cells `c·h + r` (column c from the left, row
//! r from the bottom), so the discs in cell order are the discs column by column, bottom
//! up.
//!
//! # Tiers and ranks
//!
//! Tier t holds the positions with t discs (X has ⌈t/2⌉ of them). Within a tier, a
//! position is ranked by its column heights (vectors of w heights summing to t, each at
//! most h, in lexicographic order) times `C(t, ⌈t/2⌉)`, plus the colex rank of which of
//! the t discs, in cell order, are X's. Every move goes to the next tier, a drop inserts
//! one bit into the colour mask, and positions with the same heights are consecutive, so
//! the children of consecutive ranks are close together. Some ranks are not positions of
//! play (both players with four, play past a win); the solver marks them unreached.
//! Mirror images are not merged (counts are of positions as they are).

mod bits;

use super::board::{self, Grid};
use super::combin::{next_combination, Binomials};
use super::family::{
    Bound, Drawing, Exact, GameRules, Grundy, Indexing, Kind, Look, Patterns, Picture, Pos, Ranked,
    Scores, Searching, Tiers,
};
use super::spec::{Args, Built, Entry, Offered, Options, Param, Setting, SpecError};
use crate::game::{Outcome, Player};
use crate::tier::{Child, Each, Node, TierGame, Want};

/// The most cells a board may have.
pub const MAX_CELLS: u64 = 64;

/// The ranking scheme's version, kept in tablebases.
const RANKING_VERSION: u32 = 1;

/// `connect4[w x h]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connect4 {
    /// Columns.
    pub w: u32,
    /// Rows.
    pub h: u32,
    binom: Binomials,
    /// `ways[k][s]`: height vectors of k columns summing to s.
    ways: Vec<Vec<u64>>,
    /// Every line of four, as a mask over cells.
    lines: Vec<u64>,
}

impl Connect4 {
    /// The game on `w` columns of `h` rows (1 ≤ w·h ≤ 64).
    #[must_use]
    pub fn new(w: u32, h: u32) -> Connect4 {
        assert!(w >= 1 && h >= 1 && u64::from(w * h) <= MAX_CELLS);
        let binom = Binomials::new();
        let cells = (w * h) as usize;
        let mut ways = vec![vec![0u64; cells + 1]; w as usize + 1];
        ways[0][0] = 1;
        for k in 1..=w as usize {
            for s in 0..=cells {
                ways[k][s] = (0..=(h as usize).min(s)).map(|v| ways[k - 1][s - v]).sum();
            }
        }
        let cell = |c: i64, r: i64| c * i64::from(h) + r;
        let mut lines = Vec::new();
        for c in 0..i64::from(w) {
            for r in 0..i64::from(h) {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let (ec, er) = (c + 3 * dc, r + 3 * dr);
                    if ec < 0 || ec >= i64::from(w) || er < 0 || er >= i64::from(h) {
                        continue;
                    }
                    lines.push((0..4).fold(0u64, |m, i| m | 1 << cell(c + i * dc, r + i * dr)));
                }
            }
        }
        Connect4 {
            w,
            h,
            binom,
            ways,
            lines,
        }
    }

    fn cells(&self) -> u32 {
        self.w * self.h
    }

    /// The board's cells, numbered up each column; row 0 of the grid is the top row.
    fn grid(&self) -> Grid {
        Grid::by_columns(self.h, self.w)
    }

    fn column_mask(&self) -> u64 {
        if self.h == 64 {
            u64::MAX
        } else {
            (1u64 << self.h) - 1
        }
    }

    /// Whether `marks` hold four in a row.
    #[inline]
    fn four(&self, marks: u64) -> bool {
        self.lines.iter().any(|&l| l & !marks == 0)
    }

    /// The column heights of a position.
    fn heights(&self, occupied: u64) -> Vec<u32> {
        (0..self.w)
            .map(|c| (occupied >> (c * self.h) & self.column_mask()).count_ones())
            .collect()
    }

    /// The index of a height vector among those of its sum.
    fn heights_index(&self, heights: &[u32]) -> u64 {
        let mut left: u32 = heights.iter().sum();
        let mut index = 0u64;
        for (i, &hc) in heights.iter().enumerate() {
            let rest = self.w as usize - 1 - i;
            for v in 0..hc {
                index += self.ways[rest][(left - v) as usize];
            }
            left -= hc;
        }
        index
    }

    /// The height vector of an index among those summing to `t`.
    fn heights_of(&self, t: u32, mut index: u64) -> Vec<u32> {
        let mut left = t;
        let mut heights = Vec::with_capacity(self.w as usize);
        for i in 0..self.w as usize {
            let rest = self.w as usize - 1 - i;
            let mut v = 0;
            loop {
                let n = if v <= left {
                    self.ways[rest][(left - v) as usize]
                } else {
                    0
                };
                if index < n {
                    break;
                }
                index -= n;
                v += 1;
            }
            heights.push(v);
            left -= v;
        }
        heights
    }

    /// X's discs in tier t.
    fn x_count(t: u32) -> u32 {
        t.div_ceil(2)
    }

    fn block(&self, t: u32) -> u64 {
        self.binom.get(t, Self::x_count(t))
    }

    /// The occupied cells of a height vector.
    fn occupancy(&self, heights: &[u32]) -> u64 {
        heights.iter().enumerate().fold(0u64, |m, (c, &hc)| {
            m | (if hc == 64 { u64::MAX } else { (1u64 << hc) - 1 }) << (c as u32 * self.h)
        })
    }

    /// The X mask of a colour mask over the discs of a height vector.
    #[inline]
    fn scatter(&self, heights: &[u32], offsets: &[u32], mask: u64) -> u64 {
        let mut x = 0u64;
        for (c, &hc) in heights.iter().enumerate() {
            if hc == 0 {
                continue;
            }
            let bits = (mask >> offsets[c]) & (if hc == 64 { u64::MAX } else { (1u64 << hc) - 1 });
            x |= bits << (c as u32 * self.h);
        }
        x
    }

    /// The tier and rank of a position.
    fn locate_exact(&self, pos: &Pos) -> (u32, u64) {
        let occupied = pos[0] | pos[1];
        let t = occupied.count_ones();
        let heights = self.heights(occupied);
        // The colour mask: bit i set when the i-th disc in cell order is X's.
        let mut mask = 0u64;
        let mut i = 0;
        let mut rest = occupied;
        while rest != 0 {
            let cell = rest.trailing_zeros();
            if pos[0] >> cell & 1 != 0 {
                mask |= 1 << i;
            }
            i += 1;
            rest &= rest - 1;
        }
        (
            t,
            self.heights_index(&heights) * self.block(t) + self.binom.colex(mask),
        )
    }

    fn position_of(&self, t: u32, rank: u64) -> Pos {
        let block = self.block(t);
        let heights = self.heights_of(t, rank / block);
        let offsets = prefix(&heights);
        let mask = self.binom.uncolex(rank % block, Self::x_count(t));
        let x = self.scatter(&heights, &offsets, mask);
        let o = self.occupancy(&heights) & !x;
        Pos::from_slice(&[x, o])
    }

    /// Whether the discs sit on each other (no gaps) and the counts fit whose turn it is.
    fn well_formed(&self, pos: &Pos) -> bool {
        let (x, o) = (pos[0], pos[1]);
        let all = if self.cells() == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells()) - 1
        };
        let occupied = x | o;
        x & o == 0
            && occupied & !all == 0
            && self.occupancy(&self.heights(occupied)) == occupied
            && (x.count_ones() == o.count_ones() || x.count_ones() == o.count_ones() + 1)
    }

    /// The position after the player to move drops a disc in column `c` (from 0); `None`
    /// if the column is full.
    fn drop_in(&self, pos: &Pos, c: u32) -> Option<Pos> {
        let height = ((pos[0] | pos[1]) >> (c * self.h) & self.column_mask()).count_ones();
        (height < self.h).then(|| {
            let mut next = pos.clone();
            next[usize::from(self.to_move(pos) != Player::First)] |= 1 << (c * self.h + height);
            next
        })
    }

    fn column_name(c: u32) -> String {
        format!("column {}", c + 1)
    }
}

/// Where each column's discs start in cell order.
fn prefix(heights: &[u32]) -> Vec<u32> {
    let mut offsets = Vec::with_capacity(heights.len());
    let mut sum = 0;
    for &hc in heights {
        offsets.push(sum);
        sum += hc;
    }
    offsets
}

impl TierGame for Connect4 {
    fn id(&self) -> String {
        self.name()
    }

    fn ranking_version(&self) -> u32 {
        RANKING_VERSION
    }

    fn tier_count(&self) -> u32 {
        self.cells() + 1
    }

    fn tier_size(&self, tier: u32) -> u64 {
        self.ways[self.w as usize][tier as usize].saturating_mul(self.block(tier))
    }

    fn child_tiers(&self, tier: u32) -> Vec<u32> {
        board::next_tier(tier, self.cells())
    }

    fn root(&self) -> (u32, u64) {
        (0, 0)
    }

    fn visit(&self, t: u32, ranks: std::ops::Range<u64>, want: Want<'_>, each: Each<'_>) {
        if ranks.is_empty() {
            return;
        }
        let block = self.block(t);
        let x_moves = t.is_multiple_of(2);
        let child_block = if t < self.cells() {
            self.block(t + 1)
        } else {
            0
        };
        let mut children: Vec<Child> = Vec::with_capacity(self.w as usize);
        let mut rank = ranks.start;
        while rank < ranks.end {
            let b = rank / block;
            let heights = self.heights_of(t, b);
            let offsets = prefix(&heights);
            let occupied = self.occupancy(&heights);
            // Per open column: where the new disc goes in cell order, and the child's
            // block.
            let drops: Vec<(u32, u32, u64)> = (0..self.w)
                .filter(|&c| heights[c as usize] < self.h)
                .map(|c| {
                    let mut up = heights.clone();
                    up[c as usize] += 1;
                    (
                        c,
                        offsets[c as usize] + heights[c as usize],
                        self.heights_index(&up) * child_block,
                    )
                })
                .collect();
            let end = ranks.end.min((b + 1) * block);
            let mut mask = self.binom.uncolex(rank % block, Self::x_count(t));
            while rank < end {
                if want(rank) {
                    let x = self.scatter(&heights, &offsets, mask);
                    let last = if x_moves { occupied & !x } else { x };
                    if t > 0 && self.four(last) {
                        each(rank, Node::Over(Outcome::Loss));
                    } else if t > 0 && self.four(occupied & !last) {
                        // Past the mover's own four: no game reaches it (see `terminal`).
                        each(rank, Node::Over(Outcome::Win));
                    } else if t == self.cells() {
                        each(rank, Node::Over(Outcome::Draw));
                    } else {
                        let drops = drops.iter().map(|&(_, p, base)| (p, base));
                        board::drop_children(&mut children, t, drops, mask, x_moves, &self.binom);
                        each(rank, Node::Moves(&children));
                    }
                }
                rank += 1;
                mask = next_combination(mask);
            }
        }
    }
}

/// The game's ranks as one dense range for the in-memory solvers: tier by tier, later
/// tiers first, so that every move goes to a smaller rank.
struct Flat<'a> {
    game: &'a Connect4,
    /// The first global rank of each tier.
    start: Vec<u64>,
    size: u64,
}

impl<'a> Flat<'a> {
    fn new(game: &'a Connect4) -> Option<Flat<'a>> {
        let n = game.tier_count();
        let mut start = vec![0u64; n as usize];
        let mut next = 0u64;
        for t in (0..n).rev() {
            start[t as usize] = next;
            next = next.checked_add(game.tier_size(t))?;
        }
        Some(Flat {
            game,
            start,
            size: next,
        })
    }

    fn split(&self, rank: u64) -> (u32, u64) {
        let t = (0..self.game.tier_count())
            .find(|&t| rank >= self.start[t as usize])
            .expect("a rank below the size");
        (t, rank - self.start[t as usize])
    }
}

impl Ranked for Flat<'_> {
    fn size(&self) -> u64 {
        self.size
    }

    fn rank(&self, pos: &Pos) -> u64 {
        let (t, r) = self.game.locate_exact(pos);
        self.start[t as usize] + r
    }

    fn unrank(&self, rank: u64) -> Pos {
        let (t, r) = self.split(rank);
        self.game.position_of(t, r)
    }

    fn moves(&self, rank: u64, out: &mut Vec<u64>) {
        let (t, r) = self.split(rank);
        self.game.visit(t, r..r + 1, &|_| true, &mut |_, node| {
            if let Node::Moves(children) = node {
                out.extend(
                    children
                        .iter()
                        .map(|c| self.start[c.tier as usize] + c.rank),
                );
            }
        });
    }

    fn terminal(&self, rank: u64) -> Option<Outcome> {
        self.game.terminal(&self.unrank(rank))
    }

    fn descending(&self) -> bool {
        true
    }
}

impl Tiers for Connect4 {
    fn locate(&self, pos: &Pos) -> Option<(u32, u64)> {
        self.well_formed(pos).then(|| self.locate_exact(pos))
    }

    fn position(&self, tier: u32, rank: u64) -> Pos {
        self.position_of(tier, rank)
    }
}

impl GameRules for Connect4 {
    fn name(&self) -> String {
        format!("connect4[{}x{}]", self.w, self.h)
    }

    fn kind(&self) -> Kind {
        Kind::Partizan
    }

    fn write_position(&self, pos: &Pos, out: &mut String) {
        self.grid().write(pos, out);
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        out.extend((0..self.w).filter_map(|c| self.drop_in(pos, c)));
    }

    fn to_move(&self, pos: &Pos) -> Player {
        board::to_move(pos)
    }

    fn terminal(&self, pos: &Pos) -> Option<Outcome> {
        let last = if self.to_move(pos) == Player::First {
            pos[1]
        } else {
            pos[0]
        };
        let mover = (pos[0] | pos[1]) & !last;
        if self.four(last) {
            Some(Outcome::Loss)
        } else if self.four(mover) {
            // Play went on past the mover's four (a position no game reaches): the game
            // ended there, won by the player now to move.
            Some(Outcome::Win)
        } else if (pos[0] | pos[1]).count_ones() == self.cells() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn bound(&self, pos: &Pos) -> Bound {
        let t = (pos[0] | pos[1]).count_ones();
        let positions = (t..=self.cells())
            .map(|s| u128::from(self.tier_size(s)))
            .fold(0u128, u128::saturating_add);
        Bound {
            positions,
            moves: u128::from(self.w),
        }
    }
}

impl Drawing for Connect4 {
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        board::placed(from, to).map_or_else(
            || "no single disc".into(),
            |cell| Self::column_name(cell / self.h),
        )
    }

    fn names_move(&self, from: &Pos, to: &Pos, text: &str) -> bool {
        let typed = super::family::squash(text);
        let Some(cell) = board::placed(from, to) else {
            return false;
        };
        let column = (cell / self.h + 1).to_string();
        typed == column
            || typed == format!("column{column}")
            || typed == format!("c{column}")
            || typed == format!("col{column}")
    }

    fn picture(&self, pos: &Pos) -> Option<Picture> {
        Some(self.grid().picture(pos, Look::Discs))
    }

    /// The fours in a row.
    fn winning_cells(&self, pos: &Pos) -> Vec<(u32, u32)> {
        self.grid().won_cells(pos, &self.lines)
    }

    /// The cell the disc lands in.
    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        self.grid().move_cell(from, to)
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        let mut s = String::new();
        for r in (0..self.h).rev() {
            s.push('|');
            for c in 0..self.w {
                let cell = c * self.h + r;
                s.push(board::mark(pos, cell, ['X', 'O', '.']));
                s.push(if c + 1 < self.w { ' ' } else { '|' });
            }
            s.push('\n');
        }
        s.push(' ');
        for c in 0..self.w {
            s.push_str(&format!("{:<2}", (c + 1) % 10));
        }
        s.push('\n');
        Some(s)
    }
}

impl Scores for Connect4 {}

impl Indexing for Connect4 {
    fn ranking(&self, _root: &Pos) -> Option<Box<dyn Ranked + '_>> {
        Flat::new(self).map(|f| Box::new(f) as Box<dyn Ranked>)
    }

    fn tiers(&self) -> Option<Box<dyn Tiers + '_>> {
        Some(Box::new(self.clone()))
    }
}

impl Searching for Connect4 {
    fn move_priority(&self, from: &Pos, to: &Pos) -> i32 {
        // The middle columns first: they lie on the most lines of four.
        board::placed(from, to).map_or(0, |cell| {
            -(2 * (cell / self.h) as i32 - (self.w as i32 - 1)).abs()
        })
    }

    fn exact(&self) -> Option<Box<dyn Exact + '_>> {
        bits::exact(self)
    }
}

impl Patterns for Connect4 {}

impl Grundy for Connect4 {}

/// A board as written: rows from the top separated by `/`, or the columns played as
/// digits (`4453`: columns 4, 4, 5, 3, from 1 on the left).
fn position(args: &Args<'_>, game: &Connect4) -> Result<Option<Pos>, SpecError> {
    let Some(items) = args.position() else {
        return Ok(Some(Pos::from_slice(&[0, 0])));
    };
    let example = format!(
        "`{}(4453)` (the columns played) or a board with rows from the top separated by `/`",
        game.name()
    );
    let [item] = items else {
        return Err(args.error_at(
            items.get(1).map_or(args.open_at(), Param::at),
            format!("expected one position, as in {example}"),
        ));
    };
    match item {
        Param::Number(n) => columns_played(args, game, &n.value.to_string(), n.at),
        Param::Digits { text, at } => columns_played(args, game, text, *at),
        Param::Word { text, at } => {
            let (x, o) = game
                .grid()
                .read(args, text, *at, "a cell is `x`, `o` or `.`")?;
            let pos = Pos::from_slice(&[x, o]);
            if game.occupancy(&game.heights(x | o)) != x | o {
                return Err(args.error_at(
                    *at,
                    "a disc floats: discs rest on the bottom or on each other",
                ));
            }
            if !game.well_formed(&pos) {
                return Err(args.error_at(
                    *at,
                    format!(
                        "X moves first, so X has as many discs as O or one more (here {} and {})",
                        x.count_ones(),
                        o.count_ones()
                    ),
                ));
            }
            let (mover, last, names) = if x.count_ones() == o.count_ones() {
                (x, o, ["X", "O"])
            } else {
                (o, x, ["O", "X"])
            };
            // A column's top disc is the one that can have been dropped last.
            let tops = game
                .heights(x | o)
                .iter()
                .enumerate()
                .filter(|&(_, &h)| h > 0)
                .fold(0u64, |m, (c, &h)| m | 1 << (c as u32 * game.h + h - 1));
            if let Some(why) =
                super::board::impossible_line_board(&game.lines, mover, last, tops, names)
            {
                return Err(args.error_at(*at, format!("this board cannot arise: {why}")));
            }
            Ok(Some(pos))
        }
        other => Err(args.error_at(other.at(), format!("expected a position, as in {example}"))),
    }
}

/// The position after the columns played, one digit a move from 1 (Pons' and Tromp's
/// notation), at any length.
fn columns_played(
    args: &Args<'_>,
    game: &Connect4,
    digits: &str,
    at: usize,
) -> Result<Option<Pos>, SpecError> {
    let mut pos = Pos::from_slice(&[0, 0]);
    for (i, ch) in digits.chars().enumerate() {
        let c = ch.to_digit(10).unwrap_or(0);
        if c == 0 || c > game.w {
            return Err(args.error_at(
                at + i,
                format!("columns are 1 to {} (digits, one per move)", game.w),
            ));
        }
        if game.terminal(&pos).is_some() {
            return Err(args.error_at(at + i, "the game is over before this move"));
        }
        pos = game
            .drop_in(&pos, c - 1)
            .ok_or_else(|| args.error_at(at + i, format!("column {c} is full")))?;
    }
    Ok(Some(pos))
}

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    let param = args.one_param("connect4[7x6]")?;
    let Param::Dims { a, b, at } = *param else {
        return Err(args.error_at(
            param.at(),
            "expected the board's columns x rows, as in `connect4[7x6]`",
        ));
    };
    if a == 0 || b == 0 || a.saturating_mul(b) > MAX_CELLS {
        return Err(args.error_at(
            at,
            format!("a board of 1 to {MAX_CELLS} cells, as in `connect4[7x6]`"),
        ));
    }
    let game = Connect4::new(a as u32, b as u32);
    let position = position(args, &game)?;
    Ok(Built::new(game, position))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "connect4",
    examples: &["connect4[4x4]"],
    small: &["connect4[3x3]", "connect4[4x3](22)"],
    shape: "connect4[w x h](board or columns played): four in a row, discs dropped into w columns of h rows, X first (no position: the empty board)",
    build,
    options: Options {
        template: "connect4[{columns}x{rows}]",
        settings: &[
            Setting {
                name: "columns",
                label: "columns",
                values: Offered::Range(3, 7),
                default: "4",
            },
            Setting {
                name: "rows",
                label: "rows",
                values: Offered::Range(3, 5),
                default: "4",
            },
        ],
    },
}];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::Control;
    use crate::tier::{record, MemoryStore};

    #[test]
    fn ranks_and_positions_are_inverse_on_every_rank() {
        let game = Connect4::new(3, 3);
        for t in 0..game.tier_count() {
            let mut seen = 0;
            for r in 0..game.tier_size(t) {
                let pos = game.position_of(t, r);
                assert!(game.well_formed(&pos), "{pos:?}");
                assert_eq!((pos[0] | pos[1]).count_ones(), t);
                assert_eq!(game.locate(&pos), Some((t, r)));
                seen += 1;
            }
            assert_eq!(seen, game.tier_size(t));
        }
    }

    #[test]
    fn visited_children_are_the_moves() {
        for (w, h) in [(3, 3), (4, 3), (2, 5), (5, 2)] {
            let game = Connect4::new(w, h);
            for t in 0..game.tier_count() {
                let size = game.tier_size(t);
                let mut visited = 0u64;
                game.visit(t, 0..size, &|_| true, &mut |rank, node| {
                    visited += 1;
                    let pos = game.position_of(t, rank);
                    match node {
                        Node::Over(o) => assert_eq!(game.terminal(&pos), Some(o)),
                        Node::Final(_) => panic!("not a score game"),
                        Node::Moves(children) => {
                            assert_eq!(game.terminal(&pos), None);
                            let mut moves = Vec::new();
                            GameRules::moves(&game, &pos, &mut moves);
                            let expected: Vec<Child> = moves
                                .iter()
                                .map(|m| {
                                    let (ct, cr) = game.locate(m).unwrap();
                                    Child::to(ct, cr)
                                })
                                .collect();
                            assert_eq!(children, expected.as_slice());
                        }
                    }
                });
                assert_eq!(visited, size);
                // A range starting inside a block gives the same nodes.
                if size > 3 {
                    let mut tail = Vec::new();
                    game.visit(t, size / 2 + 1..size, &|r| r % 2 == 0, &mut |rank, _| {
                        tail.push(rank);
                    });
                    let expected: Vec<u64> = (size / 2 + 1..size).filter(|r| r % 2 == 0).collect();
                    assert_eq!(tail, expected);
                }
            }
        }
    }

    fn tier_solve(w: u32, h: u32) -> (crate::tier::Solved, MemoryStore) {
        crate::games::testing::tier_solve(&Connect4::new(w, h))
    }

    /// John Tromp's count of the positions of play on 4×4 (his table of board sizes at
    /// tromp.github.io/c4/c4.html): 161 029, the empty board included; 4×4 is a draw.
    #[test]
    fn four_by_four_has_161029_positions_and_is_a_draw() {
        let (solved, _) = tier_solve(4, 4);
        assert_eq!(solved.positions(), 161_029);
        assert_eq!(record::value(solved.root), Some(crate::game::Value::Draw));
    }

    /// The tier solver's record of every position equals the in-memory labelling of the
    /// whole game from the start (explored by rank, labelled by the retrograde engine).
    #[test]
    fn tiers_equal_the_in_memory_labelling() {
        for (w, h) in [(3, 3), (4, 3), (3, 4), (5, 2)] {
            let game = Connect4::new(w, h);
            let (solved, store) = tier_solve(w, h);
            let spec: crate::games::Spec = format!("connect4[{w}x{h}]").parse().unwrap();
            let report = crate::report::solve(&spec, &crate::report::Limits::default()).unwrap();
            assert_eq!(
                Some(report.outcome),
                record::value(solved.root).map(crate::game::Value::outcome)
            );
            let ranked = Flat::new(&game).unwrap();
            let explored = crate::explore::explore_ranked(
                ranked.size(),
                ranked.rank(&Pos::from_slice(&[0, 0])),
                |r, out| ranked.moves(r, out),
                |r| ranked.terminal(r).is_some(),
                &Control::default(),
            )
            .unwrap();
            assert_eq!(explored.len() as u64, solved.positions());
            let labels = crate::solve::label_by_degree(
                |v| u64::from(explored.degrees[v as usize]),
                &explored.reverse,
                |v| ranked.terminal(explored.ranks[v as usize]),
                None,
                &Control::default(),
            )
            .unwrap();
            for (v, &g) in explored.ranks.iter().enumerate() {
                let (t, r) = ranked.split(g);
                let rec = store.tiers[&t].0[r as usize];
                assert_eq!(
                    record::value(rec),
                    Some(labels.value(v as u32)),
                    "{w}x{h} tier {t} rank {r}"
                );
            }
            // The proof search's value of every fifth record's board, and of each move.
            let checked = crate::games::testing::searches_equal_the_records(game, &store, 5);
            assert!(checked > 20, "{w}x{h}: {checked}");
        }
    }

    /// The proof search on 4 × 4 (a draw) and 5 × 4 from the first position of every tier
    /// and each of its moves, against the tier solver's records.
    #[test]
    fn the_proof_search_equals_the_tiers() {
        for (w, h) in [(4, 4), (5, 4)] {
            let (_, store) = tier_solve(w, h);
            let checked = crate::games::testing::searches_equal_the_records(
                Connect4::new(w, h),
                &store,
                1 << 40,
            );
            assert!(checked >= 5, "{w}x{h}: {checked}");
        }
    }

    /// The exact search's value of every position of 4×4 and of every 97th of 5×4 (with
    /// remoteness, strong and weak), and of each move of some, equals the tier solver's.
    #[test]
    fn the_exact_search_equals_the_tiers() {
        let (_, store) = tier_solve(4, 4);
        let checked =
            crate::games::testing::exact_equals_the_records(Connect4::new(4, 4), &store, 1, 101);
        assert_eq!(checked, 161_029);
        let (_, store) = tier_solve(5, 4);
        let checked =
            crate::games::testing::exact_equals_the_records(Connect4::new(5, 4), &store, 97, 53);
        assert!(checked > 10_000, "{checked}");
        // A board too tall for the bitboards' shifts has no exact search; one of 8 × 7 (64
        // bits, the widest keys) has.
        assert!(Connect4::new(3, 20).exact().is_none());
        let (_, store) = tier_solve(3, 3);
        let checked =
            crate::games::testing::exact_equals_the_records(Connect4::new(3, 3), &store, 1, 1);
        assert!(checked > 100, "{checked}");
    }

    /// The first lines of each of Pascal Pons' six test sets (7 × 6, the columns played and
    /// the score; `../shared/benchmarks/connect4/`, from his blog): every score right,
    /// strong, and its sign weak. Pons' score is the winner's discs left after the winning
    /// one, plus one: `(cells + 2 − m) / 2` with m the discs on the board at the end.
    #[test]
    fn pons_test_sets_first_lines() {
        let sets: [(&str, &[(&str, i32)]); 5] = [
            (
                "L3_R1",
                &[
                    ("2252576253462244111563365343671351441", -1),
                    ("7422341735647741166133573473242566", 1),
                    ("23163416124767223154467471272416755633", 0),
                ],
            ),
            (
                "L2_R1",
                &[
                    ("5554224333234511764415115", 4),
                    ("52753311433677442422121", 8),
                    ("1233722555341451114725221333", -1),
                ],
            ),
            (
                "L2_R2",
                &[
                    ("274552224131661", 0),
                    ("5455174361263362", -1),
                    ("2531276566711153", 2),
                ],
            ),
            (
                "L1_R1",
                &[("32164625", 11), ("6146", 18), ("243335424257", 12)],
            ),
            // The hardest set's first line takes seconds in release (Pons' own solver's
            // too): it is in the ignored test of the whole sets.
            ("L1_R2", &[("32751571231557", -3), ("335662333565", -2)]),
        ];
        let game = Connect4::new(7, 6);
        let exact = game.exact().expect("7 x 6 has the exact search");
        let table = exact.table(1 << 22).unwrap();
        for (set, lines) in sets {
            for &(moves, score) in lines {
                let spec: crate::games::Spec = format!("connect4[7x6]({moves})").parse().unwrap();
                let position = &spec.parts[0].position;
                let n = moves.len() as i32;
                for weak in [false, true] {
                    let options = crate::search::exact::Options {
                        weak,
                        ..crate::search::exact::Options::default()
                    };
                    let (found, _) = exact
                        .solve(position, &table, &options, &Control::default())
                        .unwrap();
                    assert_eq!(found.score.signum(), score.signum(), "{set} {moves}");
                    if weak {
                        assert_eq!(found.remoteness(), None);
                        continue;
                    }
                    assert_eq!(found.score, score, "{set} {moves}");
                    // The score read back from the remoteness, as Pons defines it.
                    let back = found.remoteness().map_or(0, |r| {
                        let s = (44 - (n + r as i32)) / 2;
                        if found.outcome() == Outcome::Win {
                            s
                        } else {
                            -s
                        }
                    });
                    assert_eq!(back, score, "{set} {moves}: {:?}", found.value);
                }
            }
        }
    }

    /// Pons' six test sets whole, every score strong and its sign weak (minutes):
    /// `GRUNDY_PONS_SETS=DIR cargo test -p grundy --release --lib -- --ignored pons_test_sets_whole`,
    /// DIR holding `Test_L3_R1` … `Test_L1_R3` (the project's shared benchmarks, or
    /// ChristopheSteininger/c4's `tst/data/7x6/`).
    #[test]
    #[ignore = "minutes in release; needs GRUNDY_PONS_SETS"]
    fn pons_test_sets_whole() {
        let dir = std::env::var("GRUNDY_PONS_SETS").expect("GRUNDY_PONS_SETS=DIR");
        let game = Connect4::new(7, 6);
        let exact = game.exact().expect("7 x 6 has the exact search");
        let table = exact.table(1 << 23).unwrap();
        for set in ["L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3"] {
            let text = std::fs::read_to_string(format!("{dir}/Test_{set}")).unwrap();
            for line in text.lines() {
                let mut words = line.split_whitespace();
                let (moves, score) = (words.next().unwrap(), words.next().unwrap());
                let score: i32 = score.parse().unwrap();
                let spec: crate::games::Spec = format!("connect4[7x6]({moves})").parse().unwrap();
                for weak in [false, true] {
                    let options = crate::search::exact::Options {
                        weak,
                        ..crate::search::exact::Options::default()
                    };
                    let (found, _) = exact
                        .solve(
                            &spec.parts[0].position,
                            &table,
                            &options,
                            &Control::default(),
                        )
                        .unwrap();
                    if weak {
                        assert_eq!(found.score.signum(), score.signum(), "{set} {moves}");
                    } else {
                        assert_eq!(found.score, score, "{set} {moves}");
                    }
                }
            }
        }
    }

    /// The empty board of every size of at most 42 cells with four or more columns and
    /// rows against the published results (John Tromp's for width + height ≤ 15,
    /// Christophe Steininger's table for 16: who wins, and on which move the game ends
    /// with perfect play), strongly, one thread, each board timed:
    /// `cargo test -p grundy --release --lib -- --ignored --nocapture every_board_of_42_cells`.
    #[test]
    #[ignore = "about 22 minutes in release"]
    fn every_board_of_42_cells_or_fewer_has_its_published_value() {
        // (width, height, the game's last move, the winner: 1 first, 2 second, 0 none).
        let published: [(u32, u32, u32, u32); 23] = [
            (4, 4, 16, 0),
            (5, 4, 20, 0),
            (6, 4, 24, 2),
            (7, 4, 28, 0),
            (8, 4, 32, 2),
            (9, 4, 36, 2),
            (10, 4, 40, 2),
            (4, 5, 20, 0),
            (5, 5, 25, 0),
            (6, 5, 30, 0),
            (7, 5, 35, 0),
            (8, 5, 39, 1),
            (4, 6, 24, 0),
            (5, 6, 30, 0),
            (6, 6, 36, 2),
            (7, 6, 41, 1),
            (4, 7, 28, 0),
            (5, 7, 35, 0),
            (4, 8, 32, 0),
            (5, 8, 40, 0),
            (4, 9, 36, 0),
            (4, 10, 40, 0),
            // The hardest last.
            (6, 7, 41, 1),
        ];
        for (w, h, last, winner) in published {
            let game = Connect4::new(w, h);
            let exact = game.exact().expect("every board of 42 cells fits a word");
            let table = exact.table(1 << 23).unwrap();
            let start = std::time::Instant::now();
            let (found, nodes) = exact
                .solve(
                    &Pos::from_slice(&[0, 0]),
                    &table,
                    &crate::search::exact::Options::default(),
                    &Control::default(),
                )
                .unwrap();
            let expected = match winner {
                0 => crate::game::Value::Draw,
                1 => crate::game::Value::Win(last),
                _ => crate::game::Value::Loss(last),
            };
            println!(
                "{w}x{h}: {:?} in {:.1} s, {nodes} nodes",
                found.value,
                start.elapsed().as_secs_f64()
            );
            assert_eq!(found.value, expected, "{w} x {h}");
        }
    }

    #[test]
    fn positions_parse_as_boards_or_columns_played() {
        // Columns played at any length (a game past 19 moves is not one number).
        let long: crate::games::Spec = "connect4[7x6](2252576253462244111563365343671351441)"
            .parse()
            .unwrap();
        assert_eq!(
            (long.parts[0].position[0] | long.parts[0].position[1]).count_ones(),
            37
        );
        let err = "connect4[7x6](22525762534622441115633653436713514418)"
            .parse::<crate::games::Spec>()
            .unwrap_err();
        assert!(
            err.message.contains("column 8") || err.message.contains("1 to 7"),
            "{}",
            err.message
        );
        assert!("nim(123456789012345678901234)"
            .parse::<crate::games::Spec>()
            .is_err());
        let a: crate::games::Spec = "connect4[4x4](1213)".parse().unwrap();
        let b: crate::games::Spec = "connect4[4x4](..../..../x.../xoo.)".parse().unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "connect4[4x4](..../..../x.../xoo.)");
        for bad in [
            "connect4[4x4](5)",
            "connect4[4x4](11111)",
            "connect4[4x4](..../x.../..../....)",
            "connect4[4x4](..../..../..../xx..)",
            "connect4[9x8]",
        ] {
            assert!(bad.parse::<crate::games::Spec>().is_err(), "{bad}");
        }
    }
}
