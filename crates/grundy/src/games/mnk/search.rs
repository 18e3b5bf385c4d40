//! m,n,k-games for the exact search ([`crate::search::exact`]): the two bitboards of a
//! position, and what the search is told.
//!
//! - The score: a race ([`Race`]) over the m·n cells — a win whose last mark leaves m
//!   marks on the board scores `(cells + 2 − m) / 2`, so the quickest win scores most; a
//!   draw 0.
//! - Lines by shifts: in each of the four directions, the cells a line of k starts from
//!   and the step from one of its cells to the next (cells `r·n + c`, so no padding: a
//!   line is read only from a cell where it fits). A win at once is an empty cell that
//!   completes a line of the mover's; two such cells of the opponent's lose, one must be
//!   taken, so a board with one is searched through that cell alone.
//! - Bounds: the mover cannot win with their next mark (the search never lists such a
//!   board), nor lose before the opponent's next mark but one; a player with no line of k
//!   left free of the other's marks cannot win at all.
//! - Keys: exact — the two masks side by side up to 32 cells, the board in base 3 up to
//!   40 (3^40 < 2^64); near the empty board the smallest key of the board's symmetries
//!   (8 on a square, 4 otherwise).
//! - Order: the cells on the most open lines first, a line counted by the marks it holds
//!   (the mover's: lines to make; the opponent's: lines to spoil), the centre breaking
//!   ties.

use super::Mnk;
use crate::game::Value;
use crate::games::family::{Boards, Exact, Pos};
use crate::search::exact::{Node, Race, Searchable};

/// The most cells searched: a board of 40 cells in base 3 is a key of 64 bits, one of 41
/// is not.
pub const MAX_SEARCHED_CELLS: u32 = 40;

/// The most cells whose two masks fit side by side in a key.
const PACKED_CELLS: u32 = 32;

/// Boards with fewer marks than this have the smallest key of their symmetric images.
/// Measured on mnk[5,5,4] and mnk[4,6,4] (release, one run each on a loaded machine):
/// without symmetric keys 4× the nodes of below 8 marks; below 16, 25% fewer nodes than
/// below 8 and no slower; on every board, 5% fewer again and no faster.
const SYMMETRIC_BELOW: u32 = 16;

/// The last empty cells of a board, where children are not looked up in the table before
/// they are searched. Measured as above: looking more saves nodes (mnk[5,5,4]: 4.7 M at
/// 10, 5.1 M at 18) but no time; 18 and 22 were the fastest, by less than the noise.
const LOOK_AHEAD_LAST: u32 = 18;

/// The marks of one position: the player to move's, and every mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// The marks of the player to move.
    pub mine: u64,
    /// Every mark.
    pub all: u64,
}

/// The lines of k cells in one direction: the step from a cell to the next along it, and
/// the cells such a line starts from.
#[derive(Debug, Clone, Copy)]
struct Direction {
    step: u32,
    starts: u64,
}

/// An m,n,k-game as the exact search sees it.
#[derive(Debug)]
pub struct Search<'a> {
    game: &'a Mnk,
    race: Race,
    cells: u32,
    k: u32,
    full: u64,
    directions: Vec<Direction>,
    /// The lines through each cell, `through[at[c]..at[c + 1]]` those through cell c.
    through: Vec<u64>,
    at: Vec<usize>,
    /// Each cell's place in the order from the centre out.
    place: Vec<u8>,
    /// Keys: up to [`PACKED_CELLS`] the mover's marks, then the opponent's, `cells` bits
    /// each; past it base 3, cell c the digit of 3^c (0 empty, 1 the mover's, 2 the
    /// opponent's). A key is the sum over the cells of a weight for the mover's mark
    /// there (2^c, or 3^c) and `factor` times it for the opponent's (2^cells, or 2).
    factor: u64,
    /// Bytes of cells (a mask read a byte at a time).
    bytes: usize,
    /// For each of the board's symmetries (the identity first) and each byte of cells,
    /// the summed weights of each mask of that byte's marks once the symmetry maps them:
    /// `weights[s · bytes + i][mask]`.
    weights: Vec<[u64; 256]>,
    key_bits: u32,
    /// Boards with fewer marks than this look their children up in the table first.
    look_ahead_below: u32,
}

/// The exact search of `game`, up to [`MAX_SEARCHED_CELLS`].
pub(super) fn exact(game: &Mnk) -> Option<Box<dyn Exact + '_>> {
    (game.cells() <= MAX_SEARCHED_CELLS).then(|| Box::new(Search::new(game)) as Box<dyn Exact>)
}

impl<'a> Search<'a> {
    fn new(game: &'a Mnk) -> Search<'a> {
        let (m, n, k) = (game.m, game.n, game.k);
        let cells = game.cells();
        assert!(cells <= MAX_SEARCHED_CELLS, "{cells} cells");
        let mut directions = Vec::new();
        for (dr, dc) in [(0i64, 1i64), (1, 0), (1, 1), (1, -1)] {
            let mut starts = 0u64;
            for r in 0..i64::from(m) {
                for c in 0..i64::from(n) {
                    let (end_r, end_c) = (r + dr * (i64::from(k) - 1), c + dc * (i64::from(k) - 1));
                    if (0..i64::from(m)).contains(&end_r) && (0..i64::from(n)).contains(&end_c) {
                        starts |= 1 << (r * i64::from(n) + c);
                    }
                }
            }
            // A line of one cell is the same in every direction: one is enough.
            if starts != 0 && (k > 1 || directions.is_empty()) {
                directions.push(Direction {
                    step: (dr * i64::from(n) + dc) as u32,
                    starts,
                });
            }
        }
        let mut through = Vec::new();
        let mut at = vec![0];
        for c in 0..cells {
            through.extend(game.lines.iter().filter(|&&l| l >> c & 1 != 0));
            at.push(through.len());
        }
        let mut order: Vec<u32> = (0..cells).collect();
        order.sort_by_key(|&c| {
            let a = 2 * i64::from(c / n) - (i64::from(m) - 1);
            let b = 2 * i64::from(c % n) - (i64::from(n) - 1);
            (a * a + b * b, c)
        });
        let mut place = vec![0u8; cells as usize];
        for (i, &c) in order.iter().enumerate() {
            place[c as usize] = i as u8;
        }
        let packed = cells <= PACKED_CELLS;
        let bytes = cells.div_ceil(8) as usize;
        let weight = |c: u32| if packed { 1u64 << c } else { 3u64.pow(c) };
        let mut weights = Vec::new();
        for map in &game.symmetries {
            for i in 0..bytes {
                let mut t = [0u64; 256];
                for (mask, entry) in t.iter_mut().enumerate() {
                    *entry = (0..8)
                        .map(|b| 8 * i + b)
                        .filter(|&c| mask >> (c % 8) & 1 != 0 && c < cells as usize)
                        .map(|c| weight(u32::from(map[c])))
                        .sum();
                }
                weights.push(t);
            }
        }
        let (factor, key_bits) = if packed {
            (1u64 << cells, 2 * cells)
        } else {
            (2, 64 - (3u64.pow(cells) - 1).leading_zeros())
        };
        Search {
            game,
            race: Race {
                cells: cells as i32,
            },
            cells,
            k,
            full: game.full(),
            directions,
            through,
            at,
            place,
            factor,
            bytes,
            weights,
            key_bits,
            look_ahead_below: cells.saturating_sub(LOOK_AHEAD_LAST),
        }
    }

    /// Whether `marks` hold a line of k.
    #[inline]
    fn line(&self, marks: u64) -> bool {
        self.directions.iter().any(|d| {
            let mut s = d.starts;
            for i in 0..self.k {
                s &= marks >> (i * d.step);
            }
            s != 0
        })
    }

    /// The cells (empty or not) where a mark would complete a line of k of `marks`.
    #[inline]
    fn winning(&self, marks: u64) -> u64 {
        // Shifts stay below 64: a line that fits starts at a cell c with
        // c + (k − 1)·step < cells.
        let mut before = [0u64; MAX_SEARCHED_CELLS as usize];
        let mut found = 0u64;
        for d in &self.directions {
            // before[j]: the starts whose cells 0 … j − 1 are all marks.
            let mut s = d.starts;
            for (j, b) in before.iter_mut().enumerate().take(self.k as usize) {
                *b = s;
                s &= marks >> (j as u32 * d.step);
            }
            // after: the starts whose cells j + 1 … k − 1 are all marks.
            let mut after = u64::MAX;
            for j in (0..self.k).rev() {
                found |= (before[j as usize] & after) << (j * d.step);
                after &= marks >> (j * d.step);
            }
        }
        found
    }

    /// The key of the board with the mover's marks `mine` and the opponent's `theirs`, seen
    /// through symmetry `s` (0: the board as it lies).
    #[inline]
    fn code(&self, s: usize, mine: u64, theirs: u64) -> u64 {
        let weights = &self.weights[s * self.bytes..(s + 1) * self.bytes];
        let (mut a, mut b) = (0u64, 0u64);
        for (i, t) in weights.iter().enumerate() {
            a += t[(mine >> (8 * i) & 0xff) as usize];
            b += t[(theirs >> (8 * i) & 0xff) as usize];
        }
        a + self.factor * b
    }

    /// How promising a mark on `cell` is for the mover: over the lines through it, each
    /// free of the opponent's marks counted by the mover's marks in it, and each free of
    /// the mover's counted by the opponent's (4^marks, so fuller lines weigh more).
    #[inline]
    fn promise(&self, mine: u64, theirs: u64, cell: usize) -> u32 {
        let weight = |marks: u32| 1u32 << (2 * marks.min(10));
        self.through[self.at[cell]..self.at[cell + 1]]
            .iter()
            .map(|&l| {
                let (a, b) = ((l & mine).count_ones(), (l & theirs).count_ones());
                let attack = if b == 0 { weight(a) } else { 0 };
                let defence = if a == 0 { weight(b) } else { 0 };
                attack + defence
            })
            .sum()
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
        let theirs = b.all ^ b.mine;
        let plain = if self.cells <= PACKED_CELLS {
            b.mine | theirs << self.cells
        } else {
            self.code(0, b.mine, theirs)
        };
        if b.all.count_ones() >= SYMMETRIC_BELOW {
            return plain;
        }
        (1..self.game.symmetries.len())
            .map(|s| self.code(s, b.mine, theirs))
            .fold(plain, u64::min)
    }

    fn score_range(&self) -> (i32, i32) {
        self.race.range()
    }

    fn settled(&self, b: &Board) -> Option<i32> {
        let n = b.all.count_ones() as i32;
        // Over: a line on the board is a loss for the player to move, as the family's
        // `terminal` has it (the opponent's, made by their last mark; the mover's own
        // arises in no game).
        if self.line(b.all ^ b.mine) || self.line(b.mine) {
            return Some(-self.race.win(n));
        }
        if b.all == self.full {
            return Some(0);
        }
        (self.winning(b.mine) & !b.all != 0).then(|| self.race.win(n + 1))
    }

    fn expand(&self, b: &Board) -> Node {
        let n = b.all.count_ones() as i32;
        let cells = self.race.cells;
        let theirs = b.all ^ b.mine;
        let empty = self.full & !b.all;
        let threats = self.winning(theirs) & empty;
        if threats & threats.wrapping_sub(1) != 0 {
            return Node::Exact(-self.race.win(n + 2));
        }
        if n + 1 >= cells {
            // The mover's mark fills the board without a line.
            return Node::Exact(0);
        }
        // The mover cannot win with their next mark, nor the opponent with theirs once a
        // threat of theirs is taken (a mark takes threats away, never makes the other's).
        let hi = if n + 3 <= cells {
            self.race.win(n + 3)
        } else {
            0
        };
        let lo = if n + 4 <= cells {
            -self.race.win(n + 4)
        } else {
            0
        };
        // No line left to make among one's marks and the empty cells: no win.
        Node::bounded(
            lo,
            hi,
            || self.line(self.full & !theirs),
            || self.line(self.full & !b.mine),
            if threats != 0 { threats } else { empty },
        )
    }

    fn children(&self, b: &Board, hint: u64, out: &mut Vec<Board>) {
        let play = |cell: u32| Board {
            mine: b.all ^ b.mine,
            all: b.all | 1 << cell,
        };
        if hint & hint.wrapping_sub(1) == 0 {
            out.extend((hint != 0).then(|| play(hint.trailing_zeros())));
            return;
        }
        // Each cell as (promise) << 16 | 255 − (its place from the centre) << 8 | cell, kept
        // sorted largest first: the most promising first, ties centre first.
        let theirs = b.all ^ b.mine;
        let mut sorted = [0u64; MAX_SEARCHED_CELLS as usize];
        let mut len = 0;
        let mut rest = hint;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let entry = u64::from(self.promise(b.mine, theirs, cell)) << 16
                | u64::from(255 - self.place[cell]) << 8
                | cell as u64;
            let mut at = len;
            while at > 0 && sorted[at - 1] < entry {
                sorted[at] = sorted[at - 1];
                at -= 1;
            }
            sorted[at] = entry;
            len += 1;
        }
        out.extend(sorted[..len].iter().map(|&e| play((e & 0xff) as u32)));
    }

    fn look_ahead(&self, b: &Board) -> bool {
        b.all.count_ones() < self.look_ahead_below
    }

    fn value(&self, b: &Board, score: i32) -> Value {
        self.race.value(b.all.count_ones() as i32, score)
    }
}

impl Boards for Search<'_> {
    fn board(&self, pos: &Pos) -> Board {
        let all = pos[0] | pos[1];
        let x_moves = pos[0].count_ones() <= pos[1].count_ones();
        Board {
            mine: if x_moves { pos[0] } else { pos[1] },
            all,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::Control;
    use crate::games::family::{GameRules, Searching};
    use crate::report::{self, Limits};

    /// A generator of boards: xorshift from a seed.
    struct Random(u64);

    impl Random {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        /// A board of `game` with about `density` of 8 cells marked, the marks split
        /// between the two players at random.
        fn board(&mut self, game: &Mnk, density: u32) -> Board {
            let (mut a, mut b) = (0u64, 0u64);
            for c in 0..game.cells() {
                if (self.next() % 8) < u64::from(density) {
                    if self.next().is_multiple_of(2) {
                        a |= 1 << c;
                    } else {
                        b |= 1 << c;
                    }
                }
            }
            Board {
                mine: a,
                all: a | b,
            }
        }
    }

    /// Lines and wins at once by shifts equal those read off the family's line masks, on
    /// boards of every shape the shifts treat apart: k = 1, one row, one column, no room
    /// for a diagonal, square and not, packed and base-3 keys.
    #[test]
    fn lines_and_wins_at_once_equal_the_line_masks() {
        let mut boards = Random(0x2545_f491_4f6c_dd1d);
        for (m, n, k) in [
            (3, 3, 3),
            (1, 1, 1),
            (3, 4, 1),
            (1, 7, 3),
            (6, 1, 4),
            (2, 5, 2),
            (2, 5, 4),
            (4, 4, 4),
            (5, 5, 4),
            (4, 8, 5),
            (6, 6, 4),
            (5, 8, 5),
            (8, 5, 3),
            (4, 10, 10),
        ] {
            let game = Mnk::new(m, n, k);
            let search = Search::new(&game);
            for density in 1..8 {
                for _ in 0..200 {
                    let marks = boards.board(&game, density).all;
                    assert_eq!(search.line(marks), game.won(marks), "{m},{n},{k} {marks:x}");
                    let want = game
                        .lines
                        .iter()
                        .filter(|&&l| (l & !marks).count_ones() == 1)
                        .fold(0, |w, &l| w | (l & !marks));
                    assert_eq!(
                        search.winning(marks) & !marks,
                        want,
                        "{m},{n},{k} {marks:x}"
                    );
                }
            }
        }
    }

    /// Keys are exact (one key: boards equal up to a symmetry, the same player to move),
    /// within their bits, and boards of few marks share the key of their symmetric images;
    /// base-3 keys are the base-3 numbers of the board or of an image.
    #[test]
    fn keys_are_exact_and_merge_symmetric_images() {
        let mut boards = Random(0x9e37_79b9_7f4a_7c15);
        for (m, n, k) in [
            (3, 3, 3),
            (3, 4, 3),
            (4, 4, 3),
            (6, 6, 4),
            (5, 8, 4),
            (4, 10, 4),
        ] {
            let game = Mnk::new(m, n, k);
            let search = Search::new(&game);
            let mut seen = std::collections::HashMap::new();
            for density in 1..8 {
                for _ in 0..500 {
                    let b = boards.board(&game, density);
                    let key = search.key(&b);
                    assert!(search.key_bits() == 64 || key >> search.key_bits() == 0);
                    let theirs = b.all ^ b.mine;
                    let images: Vec<(u64, u64)> = game
                        .symmetries
                        .iter()
                        .map(|s| (game.apply(s, b.mine), game.apply(s, theirs)))
                        .collect();
                    let image_key = |&(mine, theirs): &(u64, u64)| {
                        search.key(&Board {
                            mine,
                            all: mine | theirs,
                        })
                    };
                    if b.all.count_ones() < SYMMETRIC_BELOW {
                        assert!(images.iter().all(|i| image_key(i) == key));
                    }
                    if game.cells() > PACKED_CELLS {
                        let base3 = |(mine, theirs): (u64, u64)| {
                            (0..game.cells()).rev().fold(0u64, |acc, c| {
                                acc * 3 + (mine >> c & 1) + 2 * (theirs >> c & 1)
                            })
                        };
                        assert!(images.iter().any(|&i| base3(i) == key));
                    }
                    let canonical = images.iter().min().copied();
                    if let Some(other) = seen.insert(key, canonical) {
                        assert_eq!(other, canonical, "{m},{n},{k}: {key}");
                    }
                }
            }
        }
    }

    /// Only boards of at most 40 cells have the exact search (a key of 64 bits).
    #[test]
    fn boards_past_40_cells_have_no_exact_search() {
        assert!(Mnk::new(5, 8, 4).exact().is_some());
        assert!(Mnk::new(8, 5, 5).exact().is_some());
        assert!(Mnk::new(6, 7, 4).exact().is_none());
        assert!(Mnk::new(8, 8, 5).exact().is_none());
        assert_eq!(Search::new(&Mnk::new(5, 8, 4)).key_bits(), 64);
        assert_eq!(Search::new(&Mnk::new(6, 6, 4)).key_bits(), 58);
        assert_eq!(Search::new(&Mnk::new(4, 8, 4)).key_bits(), 64);
    }

    /// On boards of 32 to 40 cells with a dozen cells left (random games stopped before a
    /// line), the exact search's value of the board and of each move equals the one the
    /// analyzer finds by exploring every position.
    #[test]
    fn the_exact_search_equals_exploring_on_wide_boards() {
        let mut rng = Random(0x0123_4567_89ab_cdef);
        for (m, n, k) in [(4, 8, 4), (6, 6, 4), (5, 8, 5), (8, 5, 4)] {
            let game = Mnk::new(m, n, k);
            let search = Search::new(&game);
            let table = Exact::table(&search, 1 << 16).unwrap();
            let mut checked = 0;
            while checked < 3 {
                // A random game to 12 empty cells, or until a line is made.
                let mut pos = Pos::from_slice(&[0, 0]);
                let mut children = Vec::new();
                while game.cells() - (pos[0] | pos[1]).count_ones() > 12
                    && game.terminal(&pos).is_none()
                {
                    children.clear();
                    game.moves(&pos, &mut children);
                    pos = children[(rng.next() % children.len() as u64) as usize].clone();
                }
                if game.terminal(&pos).is_some() {
                    continue;
                }
                let spec = crate::games::Spec {
                    parts: vec![crate::games::Part {
                        family: std::sync::Arc::new(game.clone()),
                        position: pos.clone(),
                    }],
                };
                let explored = report::solve(&spec, &Limits::default()).unwrap();
                assert_ne!(explored.method, report::Method::Search);
                children.clear();
                game.moves(&pos, &mut children);
                let got = search
                    .analyse(
                        &pos,
                        &children,
                        &table,
                        &crate::search::exact::Options::default(),
                        &Control::default(),
                    )
                    .unwrap();
                assert_eq!(explored.moves.len(), children.len());
                assert_eq!(
                    (got.root.outcome(), got.root.remoteness()),
                    (explored.outcome, explored.remoteness),
                    "{spec}"
                );
                for (found, m) in got.moves.iter().zip(&explored.moves) {
                    assert_eq!(
                        (found.outcome(), found.remoteness()),
                        (m.outcome, m.remoteness),
                        "{spec} {}",
                        m.name
                    );
                }
                checked += 1;
            }
        }
    }
}
