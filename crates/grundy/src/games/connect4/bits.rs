//! Connect four for the exact search ([`crate::search::exact`]): Pons-grade bitboards.
//!
//! A board is two words: `mask`, every disc, and `mine`, the discs of the player to move,
//! over cells `c·(h+1) + r` — each column has one spare bit on top, so that a shift never
//! carries a line of four from one column into the next. A move is `mine ^= mask` (the
//! other player's discs become the mover's) and `mask |= cell`.
//!
//! What the search is told (Pascal Pons, "Solving Connect 4", parts 8–12):
//! - the score: a win with the mover's k-th disc from the end (counting the cells left)
//!   scores `(cells + 2 − m) / 2`, where m is the number of discs on the board after the
//!   winning one; a draw 0; a loss its negation. So the fastest win scores most, and the
//!   remoteness is the score read back;
//! - the moves worth trying: a threat of the opponent's to complete four next move must be
//!   blocked (two of them lose), and a disc under such a threat is never played; a board
//!   with none of these left is lost at once;
//! - bounds: the player to move cannot win with their next disc (the search never lists
//!   such a board), nor lose before the opponent's next disc but one; a move that leaves
//!   the opponent no safe reply wins with the mover's disc after (the board's exact value,
//!   without a look at the table: a fifth of the open boards on Pons' set L1_R3), and
//!   without one the mover wins two discs later at the soonest (Steininger's static
//!   evaluation of the children, `c4`);
//! - a board with one safe move is valued through it ([`Searchable::forced`]);
//! - order: the moves that make the most new threats of the mover's first, the middle
//!   columns breaking ties.
//!
//! Near the empty board mirror images have one key (the smaller of the two), so a position
//! and its mirror share a table entry.

use super::Connect4;
use crate::game::Value;
use crate::games::family::{Boards, Exact, Pos};
use crate::search::exact::{Node, Race, Searchable};

/// The bitboards of one position: every disc, and the discs of the player to move, with
/// their count (kept, not counted: a machine without a population-count instruction pays
/// a dozen instructions a count).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// The discs of the player to move.
    pub mine: u64,
    /// Every disc.
    pub mask: u64,
    /// The discs on the board.
    pub n: u32,
}

/// What bounding a board found for ordering its moves: the moves worth trying, each with
/// its promise, sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moves {
    /// One cell a column: the moves that do not lose at once.
    next: u64,
    /// Each move as (its promise) << 8 | 255 − (its column's place in the order), the
    /// largest first: the most promising first, ties in column order.
    sorted: [u16; 16],
    /// The moves in `sorted`.
    len: usize,
}

/// A board's size as the bit operations read it: known when compiled ([`Fixed`], the
/// 7 × 6 board, whose shifts are then constants) or when run ([`Sized`]).
pub trait Shape: Copy + Send + Sync + std::fmt::Debug + 'static {
    /// Columns.
    fn w(self) -> u32;
    /// Rows.
    fn h(self) -> u32;
}

/// A size known when run.
#[derive(Debug, Clone, Copy)]
pub struct Sized {
    w: u32,
    h: u32,
}

impl Shape for Sized {
    #[inline]
    fn w(self) -> u32 {
        self.w
    }
    #[inline]
    fn h(self) -> u32 {
        self.h
    }
}

/// A size known when compiled.
#[derive(Debug, Clone, Copy)]
pub struct Fixed<const W: u32, const H: u32>;

impl<const W: u32, const H: u32> Shape for Fixed<W, H> {
    #[inline]
    fn w(self) -> u32 {
        W
    }
    #[inline]
    fn h(self) -> u32 {
        H
    }
}

/// Connect four on a board of w columns of h rows with w·(h + 1) ≤ 64 and h ≤ 19 (so
/// that every shift of a line of four stays inside the word), for the exact search.
#[derive(Debug, Clone)]
pub struct Bits<S: Shape> {
    shape: S,
    /// The scores (and the cells on the board).
    race: Race,
    /// The bottom cell of each column.
    bottom: u64,
    /// Every cell of the board (no spare bits).
    board: u64,
    /// The cells of each column to try, first to last: the middle out.
    order: [u64; 16],
    /// Columns.
    w: usize,
    /// The cells of the rows a follow-up gives the second player (the 2nd, 4th, … from
    /// the bottom), on boards of an even height; 0 on others.
    follow_up: u64,
    /// Boards with fewer discs than this have their children looked up in the table
    /// before any is searched.
    look_ahead_below: u32,
    /// Boards with fewer discs than this have the smaller of their key and their mirror
    /// image's (0: none). Measured on Pons' test sets, mirror keys save no node past the
    /// first moves and cost 3% of the instructions; near the empty board they halve the
    /// moves to search (a column and its mirror are one position).
    mirror_below: u32,
}

/// Discs below which keys merge mirror images.
const MIRROR_BELOW: u32 = 12;

/// Discs below which a board's value is guessed to be 0 ([`Searchable::guess`]).
/// Measured: 10 % fewer nodes on the empty 6 × 6, 7 × 5, 6 × 5 and 8 × 4 boards, as
/// many on Pons' sets L1_R1 to L1_R3; below 8 discs instead, L1_R1 took 2.6 times the
/// nodes (its positions' quick wins are far from 0).
const GUESS_BELOW: u32 = 4;

/// The last discs of a board, where children are not looked up before they are searched
/// (each is cheap there, and a look costs more than it saves). Measured on Pons' sets
/// L1_R2, L1_R3 and a board of five discs: 8 to 12 equally fast, 15% fewer nodes than 15.
const LOOK_AHEAD_LAST: u32 = 12;

/// The exact search of `game`, when its boards fit the bit operations: 7 × 6 with its
/// shifts compiled in, other sizes read when run.
pub(super) fn exact(game: &Connect4) -> Option<Box<dyn Exact + '_>> {
    if (game.w, game.h) == (7, 6) {
        return Some(Box::new(Bits::new(Fixed::<7, 6>)));
    }
    (game.w * (game.h + 1) <= 64 && game.h <= 19).then(|| {
        Box::new(Bits::new(Sized {
            w: game.w,
            h: game.h,
        })) as Box<dyn Exact>
    })
}

impl<S: Shape> Bits<S> {
    /// The bitboards of a board of this shape.
    fn new(shape: S) -> Bits<S> {
        let (w, h) = (shape.w(), shape.h());
        assert!(w * (h + 1) <= 64 && h <= 19, "{w} x {h}");
        let column = (1u64 << h) - 1;
        let (mut bottom, mut board) = (0u64, 0u64);
        for c in 0..w {
            bottom |= 1 << (c * (h + 1));
            board |= column << (c * (h + 1));
        }
        let mut columns: Vec<u32> = (0..w).collect();
        columns.sort_by_key(|&c| ((2 * c as i32 - (w as i32 - 1)).abs(), c));
        let mut order = [0u64; 16];
        for (i, &c) in columns.iter().enumerate() {
            order[i] = column << (c * (h + 1));
        }
        let follow_up = if h.is_multiple_of(2) {
            (0..h)
                .filter(|r| r % 2 == 1)
                .fold(0, |m, r| m | bottom << r)
        } else {
            0
        };
        Bits {
            shape,
            race: Race {
                cells: (w * h) as i32,
            },
            bottom,
            board,
            order,
            w: w as usize,
            follow_up,
            look_ahead_below: (w * h).saturating_sub(LOOK_AHEAD_LAST),
            mirror_below: if w > 1 { MIRROR_BELOW } else { 0 },
        }
    }

    /// The board of the family's position `[x, o]` (cells `c·h + r`).
    #[must_use]
    pub fn board(&self, x: u64, o: u64) -> Board {
        let (w, h) = (self.shape.w(), self.shape.h());
        let (mut xs, mut all) = (0u64, 0u64);
        let column = (1u64 << h) - 1;
        for c in 0..w {
            let xc = x >> (c * h) & column;
            let oc = o >> (c * h) & column;
            xs |= xc << (c * (h + 1));
            all |= (xc | oc) << (c * (h + 1));
        }
        let x_moves = (x | o).count_ones().is_multiple_of(2);
        Board {
            mine: if x_moves { xs } else { all ^ xs },
            mask: all,
            n: all.count_ones(),
        }
    }

    /// The board after the player to move drops a disc into `cell` (a bit of
    /// [`Bits::possible`]).
    #[inline(always)]
    fn play(b: &Board, cell: u64) -> Board {
        Board {
            mine: b.mine ^ b.mask,
            mask: b.mask | cell,
            n: b.n + 1,
        }
    }

    /// The cells a disc may drop into now, one a column not full.
    #[inline(always)]
    fn possible(&self, b: &Board) -> u64 {
        (b.mask + self.bottom) & self.board
    }

    /// The empty cells where a disc would complete four of `discs`.
    #[inline(always)]
    fn winning(&self, discs: u64, mask: u64) -> u64 {
        let h = self.shape.h();
        // Vertical: three below.
        let mut r = (discs << 1) & (discs << 2) & (discs << 3);
        // Across, then the two diagonals.
        for step in [h + 1, h, h + 2] {
            let p = (discs << step) & (discs << (2 * step));
            r |= p & (discs << (3 * step));
            r |= p & (discs >> step);
            let p = (discs >> step) & (discs >> (2 * step));
            r |= p & (discs << step);
            r |= p & (discs >> (3 * step));
        }
        r & (self.board ^ mask)
    }

    /// Whether `discs` hold four in a row.
    fn four(&self, discs: u64) -> bool {
        let h = self.shape.h();
        [1, h + 1, h, h + 2].iter().any(|&s| {
            let p = discs & (discs >> s);
            p & (p >> (2 * s)) != 0
        })
    }

    /// The moves that do not hand the opponent a win next move (a threat to block if
    /// there is one, none if two, never a disc right under an opponent's threat), and
    /// the opponent's threats: the cells where their disc would make four.
    #[inline(always)]
    fn non_losing(&self, b: &Board) -> (u64, u64) {
        let theirs = self.winning(b.mine ^ b.mask, b.mask);
        (Self::safe(self.possible(b), theirs), theirs)
    }

    /// The cells of `possible` a player may drop into without handing the opponent, whose
    /// threats are `theirs`, a win next move: the one threat to block if there is one,
    /// none if two, never a cell right under a threat.
    #[inline(always)]
    fn safe(mut possible: u64, theirs: u64) -> u64 {
        let forced = possible & theirs;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            possible = forced;
        }
        possible & !(theirs >> 1)
    }

    /// The most the player to move can get against the follow-up (claimeven, Allis 1988)
    /// on a board of even height with an even number of discs in play: the opponent
    /// answers a disc in a column of even height on top of it, and one in a column of odd
    /// height (there is an even number of them) in another such column. The opponent so
    /// takes every empty cell of a follow-up row but those the mover can play into now;
    /// the mover gets at most the rest. If those hold no four, the mover cannot win (at
    /// most a draw); if the opponent's then hold four, the mover loses, by the time that
    /// four is filled.
    #[inline(always)]
    fn follow_up_bound(&self, b: &Board, n: i32) -> Option<i32> {
        if self.follow_up == 0 || n % 2 != 0 {
            return None;
        }
        let theirs = b.mine ^ b.mask;
        let taken = theirs | (self.follow_up & !b.mask & !self.possible(b));
        if self.four(self.board & !taken) {
            return None;
        }
        if !self.four(taken) {
            return Some(0);
        }
        // The four ends the game at the latest when the last of its cells is filled, and
        // the cells above that one are still empty then: the lowest top row R of a four
        // of theirs leaves h − 1 − R cells empty.
        let h = self.shape.h();
        let top = (0..h)
            .find(|&r| self.four(taken & self.bottom.wrapping_mul((2 << r) - 1)))
            .unwrap_or(h - 1);
        Some(-((h + 1 - top) as i32) / 2)
    }

    /// How promising dropping into `cell` is for the mover: the threats it leaves them
    /// (`threats`: cells where a disc of theirs would make four), those right above a
    /// cell the opponent may play next (`next`) counted more, a threat right above one
    /// of the opponent's not at all (it never comes into play). `theirs`: the
    /// opponent's threats before the move.
    #[inline(always)]
    fn promise(&self, theirs: u64, cell: u64, threats: u64, next: u64) -> u16 {
        let useful = threats & !((theirs & !cell) << 1);
        let soon = useful & (next << 1);
        // Weights measured on Pons' sets L1_R1 to L1_R3 and a board of five discs
        // (37% fewer nodes than threats counted alone; counting the threats two above
        // a playable cell too made it worse). Threats are few: counted a bit at a time.
        let mut promise = 0;
        let mut rest = useful;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            promise += if soon & bit != 0 { 5 } else { 3 };
            rest ^= bit;
        }
        promise
    }

    /// A key seen in a mirror (columns reversed; a key's columns never carry into each
    /// other).
    #[inline(always)]
    fn mirror(&self, x: u64) -> u64 {
        let (w, h) = (self.shape.w(), self.shape.h());
        let column = (1u64 << (h + 1)) - 1;
        let mut m = 0u64;
        for c in 0..w {
            m |= (x >> (c * (h + 1)) & column) << ((w - 1 - c) * (h + 1));
        }
        m
    }
}

impl<S: Shape> Searchable for Bits<S> {
    type Board = Board;
    type Hint = Moves;

    fn key_bits(&self) -> u32 {
        self.shape.w() * (self.shape.h() + 1)
    }

    /// `mine + mask` is unique (each column's discs sit on the bottom, so the sum's top
    /// bit in a column marks its height); near the empty board, the smaller of it and its
    /// mirror's.
    #[inline(always)]
    fn key(&self, b: &Board) -> u64 {
        let key = b.mine + b.mask;
        if b.n >= self.mirror_below {
            return key;
        }
        key.min(self.mirror(key))
    }

    fn score_range(&self) -> (i32, i32) {
        self.race.range()
    }

    #[inline]
    fn settled(&self, b: &Board) -> Option<i32> {
        let n = b.n as i32;
        // Already over: the last disc made four (a board no search lists).
        if self.four(b.mine ^ b.mask) {
            return Some(-self.race.win(n));
        }
        if self.winning(b.mine, b.mask) & self.possible(b) != 0 {
            return Some(self.race.win(n + 1));
        }
        (n >= self.race.cells).then_some(0)
    }

    #[inline(always)]
    fn expand(&self, b: &Board) -> Node<Moves> {
        let (next, theirs) = self.non_losing(b);
        let n = b.n as i32;
        if next == 0 {
            return Node::Exact(-self.race.win(n + 2));
        }
        if n >= self.race.cells - 2 {
            return Node::Exact(0);
        }
        // Each move's threats: a move that leaves the opponent no safe reply wins with
        // the mover's next disc (the quickest win there is, as none wins now); the
        // others are sorted by promise (see `Moves::sorted`).
        let mut moves = Moves {
            next,
            sorted: [0; 16],
            len: 0,
        };
        for (i, &column) in self.order[..self.w].iter().enumerate() {
            let cell = next & column;
            if cell == 0 {
                continue;
            }
            let mask = b.mask | cell;
            let threats = self.winning(b.mine | cell, mask);
            let replies = (mask + self.bottom) & self.board;
            if Self::safe(replies, threats) == 0 {
                return Node::Exact(self.race.win(n + 3));
            }
            let entry = self.promise(theirs, cell, threats, replies) << 8 | (255 - i as u16);
            let mut at = moves.len;
            while at > 0 && moves.sorted[at - 1] < entry {
                moves.sorted[at] = moves.sorted[at - 1];
                at -= 1;
            }
            moves.sorted[at] = entry;
            moves.len += 1;
        }
        // No move wins with the mover's next disc: the soonest is the one after.
        let mut hi = self.race.win(n + 5);
        let lo = -self.race.win(n + 4);
        if let Some(most) = self.follow_up_bound(b, n) {
            hi = hi.min(most);
        }
        // No four left to make among one's discs and the empty cells: no win.
        let empty = self.board & !b.mask;
        Node::bounded(
            lo,
            hi,
            || self.four(b.mine | empty),
            || self.four((b.mine ^ b.mask) | empty),
            moves,
        )
    }

    #[inline(always)]
    fn forced(&self, moves: &Moves) -> bool {
        moves.next & (moves.next - 1) == 0
    }

    #[inline(always)]
    fn look_ahead(&self, b: &Board) -> bool {
        b.n < self.look_ahead_below
    }

    #[inline(always)]
    fn children(&self, b: &Board, moves: Moves, out: &mut Vec<Board>) {
        out.extend(moves.sorted[..moves.len].iter().map(|&e| {
            let column = self.order[usize::from(255 - (e & 0xff)) & 15];
            Self::play(b, moves.next & column)
        }));
    }

    fn value(&self, b: &Board, score: i32) -> Value {
        self.race.value(b.n as i32, score)
    }

    /// Near the empty board, 0: every empty board of 42 cells or fewer scores −1 to 1
    /// (Tromp's and Steininger's tables), and so do the first moves of 7 × 6 but the
    /// outer ones (−2).
    fn guess(&self, b: &Board) -> Option<i32> {
        (b.n < GUESS_BELOW).then_some(0)
    }
}

impl<S: Shape> Boards for Bits<S> {
    fn board(&self, pos: &Pos) -> Board {
        Bits::board(self, pos[0], pos[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::family::GameRules;
    use crate::games::Pos;

    #[test]
    fn boards_and_positions_are_inverse_and_keys_merge_mirrors() {
        let game = Connect4::new(7, 6);
        let bits = Bits::new(Fixed::<7, 6>);
        let mut pos = Pos::from_slice(&[0, 0]);
        for c in [3u32, 3, 4, 2, 6, 0, 0] {
            pos = game.drop_in(&pos, c).unwrap();
            let b = bits.board(pos[0], pos[1]);
            let mut mirrored = Pos::from_slice(&[0, 0]);
            for cell in 0..42 {
                let (c, r) = (cell / 6, cell % 6);
                let to = (6 - c) * 6 + r;
                for i in 0..2 {
                    if pos[i] >> cell & 1 != 0 {
                        mirrored[i] |= 1 << to;
                    }
                }
            }
            let m = bits.board(mirrored[0], mirrored[1]);
            assert_eq!(bits.key(&b), bits.key(&m));
        }
        assert!(exact(&Connect4::new(8, 8)).is_none());
        assert!(exact(&Connect4::new(8, 7)).is_some());
        assert!(exact(&Connect4::new(3, 20)).is_none());
        let _ = game.name();
    }
}
