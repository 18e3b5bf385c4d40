//! Quixo (Thierry Chapeau, Gigamic 1995) on an n × n board of cubes, n = 3, 4 or 5
//! (`quixo[5]` is the published game), two players, X first. Partizan, with cycles.
//!
//! The rules, as published and as GamesmanOne and Tanaka et al. ("Quixo Is Solved",
//! 2020) play them: every cube starts blank. A move takes a cube from the border that is
//! blank or shows the mover's symbol (never the opponent's), turns it to the mover's
//! symbol, and pushes it back in at an end of its row or of its column other than the
//! place it was taken from, the cubes between sliding one place. A corner cube has two
//! such ends, any other border cube three. A line of n of one's symbol (a row, a column
//! or a main diagonal) wins; a move that makes a line of the opponent's symbol loses,
//! even if it makes one of the mover's too. The game has no declared draw: positions
//! repeat, and a game that can go on for ever under best play is a draw. A position
//! without a move cannot arise unfinished: a whole border of the opponent's symbol holds
//! a line of it.
//!
//! A position is `[x, o, turn]`: two bitboards, cell `r·n + c` (row 0 at the top), and
//! whose turn it is (`0`: X, `1`: O). The turn must be kept: unlike tic-tac-toe, the
//! counts of X and O do not tell it, since taking one's own cube changes no count. Written
//! as `quixo[3](x.o/.x./...,o)`, the rows from the top and then who moves; a move is
//! named by the cube taken and the place it is pushed in at, `a1 to c1` (column letter,
//! row number from the top, as in tic-tac-toe), and may also be typed `a1-c1`, `a1c1`,
//! `a1 from the right` or `take a1, push from the right`. Positions are merged under the
//! eight symmetries of the square: the canonical form is the image with the least
//! `(x, o)` pair.
//!
//! # Tiers
//!
//! [`Indexing::tiers`] splits the game by the counts `(x, o)` of each symbol: a move that
//! takes a blank cube adds one to the mover's count, one that takes the mover's own cube
//! stays in the tier (the cycles are all inside tiers), so tiers are ordered by the
//! number of cubes shown, `x + o`, then by `x`; tiers `(0, o)` with `o > 0` cannot arise
//! (X moves first) and are left out. Within the tier `(x, o)`, a rank is
//!
//! ```text
//! rank = (colex(X cells) · C(n² − x, o) + colex(O cells among the n² − x others)) · 2 + turn
//! ```
//!
//! with the combinatorial number system (colex rank of a set of cells
//! `c₁ < c₂ < …`: `Σ C(cᵢ, i)`), so the tier has `2 · C(n², x) · C(n² − x, o)` ranks.
//! The turn is the low bit, so both players' positions on one board are neighbours.
//! Ranks follow the order of `(x, o)` pairs, so the image with the least pair is also the
//! one with the least rank: the ranking is canonical in the sense of
//! [`Ranked`](super::Ranked), and the ranks of the other images are left unused, never
//! visited. Numbering the orbits densely would need a table of them (a hash map or a
//! sorted list), which this ranking avoids. A rank is also skipped where the player who
//! has just moved shows no cube on the border (the cube pushed in is always there),
//! except at the start: such positions cannot arise. There are 46, 137 and 326 tiers for
//! n = 3, 4, 5 (GamesmanOne splits the same way, and keeps the empty `(0, o)` tiers).
//! Only the eight symmetries of the square are used: exchanging X and O together with
//! the turn is one more, but it would merge the tiers `(x, o)` and `(o, x)`.

use std::ops::Range;

use super::board::Grid;
use super::combin::deposit;
use super::family::{
    squash, Bound, Drawing, GameRules, Grundy, Indexing, Kind, Look, Patterns, Picture, Pos,
    Scores, Searching, Tiers,
};
use super::spec::{Args, Built, Entry, Options, Param, SpecError};
use crate::game::{Outcome, Player};
use crate::tier::{Child, Each, Node, TierGame, Want};

/// The smallest side.
pub const MIN_SIDE: u32 = 3;
/// The largest side (the published game).
pub const MAX_SIDE: u32 = 5;

/// The most cells (a 5 × 5 board).
const MAX_CELLS: usize = (MAX_SIDE * MAX_SIDE) as usize;

/// Bytes of the largest bitboard.
const BYTES: usize = MAX_CELLS.div_ceil(8);

/// `quixo[n]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quixo {
    /// The side of the board.
    n: u32,
    /// Every cell.
    full: u64,
    /// The border cells.
    border: u64,
    /// Every line of n cells (rows, columns, the two diagonals), as masks.
    lines: Vec<u64>,
    /// Every way to take a border cube and push it back in, in the order a person reads
    /// them: by the cube taken (row by row), then left end, right end, top, bottom.
    pushes: Vec<Push>,
    /// The seven symmetries other than the identity, each as the image of every byte of
    /// a bitboard: `images[s][k][bits k·8 .. k·8 + 8]` (a 4 × 4 board is two lookups).
    images: Vec<[[u32; 256]; BYTES]>,
    /// `binomial[a][b]` = C(a, b) for a, b ≤ n².
    binomial: Vec<[u64; MAX_CELLS + 1]>,
}

/// One move's geometry: the cube at `from` is taken and pushed in at `to`, an end of its
/// row or column; the cubes between slide one place towards `from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Push {
    from: u32,
    to: u32,
    /// The cells from `to` to `from`, both included.
    span: u64,
    /// 1 along a row, n along a column.
    stride: u32,
}

impl Push {
    /// One colour's bitboard after the cubes slide (the cell `to` left empty).
    fn slide(self, board: u64) -> u64 {
        let moving = board & self.span & !(1 << self.from);
        let slid = if self.to < self.from {
            moving << self.stride
        } else {
            moving >> self.stride
        };
        (board & !self.span) | slid
    }
}

/// A symmetry of the square on (row, column), given the last index `n − 1`.
type CellMap = fn(u32, u32, u32) -> (u32, u32);

/// Who moves, as the third word of a position.
const X_MOVES: u64 = 0;
const O_MOVES: u64 = 1;

impl Quixo {
    /// Quixo on an n × n board, `MIN_SIDE ≤ n ≤ MAX_SIDE`.
    ///
    /// # Panics
    /// If `n` is out of that range (the spec parser refuses it first).
    #[must_use]
    pub fn new(n: u32) -> Quixo {
        assert!((MIN_SIDE..=MAX_SIDE).contains(&n), "quixo[{n}]: 3 ≤ n ≤ 5");
        let cells = n * n;
        let cell = |r: u32, c: u32| r * n + c;
        let full = (1u64 << cells) - 1;
        let mut border = 0u64;
        let mut lines = Vec::new();
        for i in 0..n {
            lines.push((0..n).fold(0, |m, c| m | 1 << cell(i, c)));
            lines.push((0..n).fold(0, |m, r| m | 1 << cell(r, i)));
        }
        lines.push((0..n).fold(0, |m, i| m | 1 << cell(i, i)));
        lines.push((0..n).fold(0, |m, i| m | 1 << cell(i, n - 1 - i)));
        let mut pushes = Vec::new();
        for r in 0..n {
            for c in 0..n {
                if r != 0 && r != n - 1 && c != 0 && c != n - 1 {
                    continue;
                }
                border |= 1 << cell(r, c);
                let from = cell(r, c);
                let ends = [
                    (c != 0, cell(r, 0), 1),
                    (c != n - 1, cell(r, n - 1), 1),
                    (r != 0, cell(0, c), n),
                    (r != n - 1, cell(n - 1, c), n),
                ];
                for (allowed, to, stride) in ends {
                    if !allowed {
                        continue;
                    }
                    let (low, high) = (from.min(to), from.max(to));
                    let span = (low..=high)
                        .step_by(stride as usize)
                        .fold(0u64, |m, i| m | 1 << i);
                    pushes.push(Push {
                        from,
                        to,
                        span,
                        stride,
                    });
                }
            }
        }
        // The symmetries of the square, on (row, column), the identity left out.
        let last = n - 1;
        let maps: [CellMap; 7] = [
            |l, r, c| (l - r, c),
            |l, r, c| (r, l - c),
            |l, r, c| (l - r, l - c),
            |_, r, c| (c, r),
            |l, r, c| (l - c, r),
            |l, r, c| (c, l - r),
            |l, r, c| (l - c, l - r),
        ];
        let images = maps
            .iter()
            .map(|map| {
                let mut table = [[0u32; 256]; BYTES];
                for (k, byte) in table.iter_mut().enumerate() {
                    for (bits, image) in byte.iter_mut().enumerate() {
                        for j in 0..8 {
                            let at = k as u32 * 8 + j;
                            if bits >> j & 1 != 0 && at < cells {
                                let (r2, c2) = map(last, at / n, at % n);
                                *image |= 1 << cell(r2, c2);
                            }
                        }
                    }
                }
                table
            })
            .collect();
        let mut binomial = vec![[0u64; MAX_CELLS + 1]; cells as usize + 1];
        for a in 0..=cells as usize {
            binomial[a][0] = 1;
            for b in 1..=a {
                binomial[a][b] =
                    binomial[a - 1][b - 1] + if b < a { binomial[a - 1][b] } else { 0 };
            }
        }
        Quixo {
            n,
            full,
            border,
            lines,
            pushes,
            images,
            binomial,
        }
    }

    fn cells(&self) -> u32 {
        self.n * self.n
    }

    fn choose(&self, a: u32, b: u32) -> u64 {
        if b > a {
            0
        } else {
            self.binomial[a as usize][b as usize]
        }
    }

    fn won(&self, marks: u64) -> bool {
        self.lines.iter().any(|&l| l & !marks == 0)
    }

    /// The image of a bitboard under symmetry `s` (not the identity).
    fn image(&self, s: usize, board: u64) -> u64 {
        let table = &self.images[s];
        let mut image = u64::from(table[0][(board & 0xff) as usize])
            | u64::from(table[1][(board >> 8 & 0xff) as usize]);
        if self.n > 4 {
            image |= u64::from(table[2][(board >> 16 & 0xff) as usize])
                | u64::from(table[3][(board >> 24 & 0xff) as usize]);
        }
        image
    }

    /// The least `(x, o)` image of a board under the eight symmetries.
    fn least_image(&self, x: u64, o: u64) -> (u64, u64) {
        (0..self.images.len()).fold((x, o), |best, s| {
            best.min((self.image(s, x), self.image(s, o)))
        })
    }

    /// Whether `(x, o)` is its own least image.
    fn is_least(&self, x: u64, o: u64) -> bool {
        (0..self.images.len()).all(|s| (self.image(s, x), self.image(s, o)) >= (x, o))
    }

    /// The outcome for the player to move when the game is over: a line of the mover's
    /// symbol is a win (the opponent made it), else a line of the opponent's a loss.
    fn over(&self, x: u64, o: u64, turn: u64) -> Option<Outcome> {
        let (mine, theirs) = if turn == X_MOVES { (x, o) } else { (o, x) };
        if self.won(mine) {
            Some(Outcome::Win)
        } else if self.won(theirs) {
            Some(Outcome::Loss)
        } else {
            None
        }
    }

    /// Whether the position can arise from the start at all: the player who has just
    /// moved shows a cube on the border (the one pushed in), unless nobody has moved.
    fn may_arise(&self, x: u64, o: u64, turn: u64) -> bool {
        let last_mover = if turn == X_MOVES { o } else { x };
        ((x | o) == 0 && turn == X_MOVES) || last_mover & self.border != 0
    }

    /// Calls `each(push, x, o)` for every move from `(x, o)` with `turn` to move, in move
    /// order, each resulting board once (two moves may leave the same board: the first
    /// one names it).
    fn for_each_move(&self, x: u64, o: u64, turn: u64, mut each: impl FnMut(Push, u64, u64)) {
        let (mine, theirs) = if turn == X_MOVES { (x, o) } else { (o, x) };
        let mut seen: [(u64, u64); 4 * (3 * MAX_SIDE as usize - 4)] = [(0, 0); 44];
        let mut count = 0;
        for &p in &self.pushes {
            if theirs >> p.from & 1 != 0 {
                continue;
            }
            let board = (p.slide(mine) | 1 << p.to, p.slide(theirs));
            if seen[..count].contains(&board) {
                continue;
            }
            seen[count] = board;
            count += 1;
            let (m, t) = board;
            if turn == X_MOVES {
                each(p, m, t);
            } else {
                each(p, t, m);
            }
        }
    }

    /// The colex rank of a set of cells.
    fn colex(&self, set: u64) -> u64 {
        let mut rank = 0;
        let mut rest = set;
        let mut i = 1;
        while rest != 0 {
            // C(a, b) is 0 in the table for b > a: no branch.
            rank += self.binomial[rest.trailing_zeros() as usize][i];
            rest &= rest - 1;
            i += 1;
        }
        rank
    }

    /// The colex rank of `set` among the cells of `domain` (renumbered 0, 1, … in order),
    /// for `set` within `domain`: each cell of `set` counts the cells of `domain` below it.
    fn colex_within(&self, set: u64, domain: u64) -> u64 {
        debug_assert_eq!(set & !domain, 0);
        let mut rank = 0;
        let mut rest = set;
        let mut i = 1;
        while rest != 0 {
            let below = domain & (rest & rest.wrapping_neg()).wrapping_sub(1);
            rank += self.binomial[below.count_ones() as usize][i];
            rest &= rest - 1;
            i += 1;
        }
        rank
    }

    /// The set of `k` of the cells `0..width` of colex rank `rank` (`rank < C(width, k)`).
    fn uncolex(&self, mut rank: u64, k: u32, width: u32) -> u64 {
        let mut set = 0;
        let mut c = width;
        for i in (1..=k).rev() {
            c -= 1;
            while self.choose(c, i) > rank {
                c -= 1;
            }
            set |= 1 << c;
            rank -= self.choose(c, i);
        }
        set
    }

    /// The rank of a board with its turn within its tier `(popcount x, popcount o)`.
    fn rank_in_tier(&self, x: u64, o: u64, turn: u64) -> u64 {
        let free = self.cells() - x.count_ones();
        let per_x = self.choose(free, o.count_ones());
        (self.colex(x) * per_x + self.colex_within(o, !x & self.full)) * 2 + turn
    }

    /// Whether a position's words are a board of this size.
    fn is_board(&self, pos: &Pos) -> bool {
        pos.len() == 3 && (pos[0] | pos[1]) & !self.full == 0 && pos[0] & pos[1] == 0 && pos[2] < 2
    }

    /// The board's cells, numbered along each row.
    fn grid(&self) -> Grid {
        Grid::by_rows(self.n, self.n)
    }

    /// The cell's name: column letter, row number from the top.
    fn cell_name(&self, cell: u32) -> String {
        self.grid().cell_name(cell)
    }

    /// The side a cube is pushed in from.
    fn side(&self, p: Push) -> &'static str {
        match (p.stride == 1, p.to < p.from) {
            (true, true) => "left",
            (true, false) => "right",
            (false, true) => "top",
            (false, false) => "bottom",
        }
    }

    /// The moves from `from` that lead to `to` (exactly, or else to a symmetric image).
    fn pushes_between(&self, from: &Pos, to: &Pos) -> Vec<Push> {
        if !self.is_board(from) || !self.is_board(to) {
            return Vec::new();
        }
        let mut exact = Vec::new();
        let mut similar = Vec::new();
        let target = self.canonical(to);
        for &p in &self.pushes {
            let (mine, theirs) = if from[2] == X_MOVES {
                (from[0], from[1])
            } else {
                (from[1], from[0])
            };
            if theirs >> p.from & 1 != 0 {
                continue;
            }
            let (m, t) = (p.slide(mine) | 1 << p.to, p.slide(theirs));
            let (x, o) = if from[2] == X_MOVES { (m, t) } else { (t, m) };
            let child = Pos::from_slice(&[x, o, 1 - from[2]]);
            if child == *to {
                exact.push(p);
            } else if self.canonical(&child) == target {
                similar.push(p);
            }
        }
        if exact.is_empty() {
            similar
        } else {
            exact
        }
    }
}

impl GameRules for Quixo {
    fn name(&self) -> String {
        format!("quixo[{}]", self.n)
    }

    fn kind(&self) -> Kind {
        Kind::Partizan
    }

    fn write_position(&self, pos: &Pos, out: &mut String) {
        self.grid().write(pos, out);
        out.push_str(if pos[2] == X_MOVES { ",x" } else { ",o" });
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let turn = pos[2];
        self.for_each_move(pos[0], pos[1], turn, |_, x, o| {
            out.push(Pos::from_slice(&[x, o, 1 - turn]));
        });
    }

    fn canonical(&self, pos: &Pos) -> Pos {
        let (x, o) = self.least_image(pos[0], pos[1]);
        Pos::from_slice(&[x, o, pos[2]])
    }

    fn to_move(&self, pos: &Pos) -> Player {
        // X_MOVES is 0.
        Player::from_index(pos[2])
    }

    fn terminal(&self, pos: &Pos) -> Option<Outcome> {
        self.over(pos[0], pos[1], pos[2])
    }

    fn bound(&self, pos: &Pos) -> Bound {
        // Counts never fall: every board with at least as many of each symbol, both turns.
        let (x0, o0) = (pos[0].count_ones(), pos[1].count_ones());
        let cells = self.cells();
        let mut positions = 0u128;
        for x in x0..=cells {
            for o in o0..=cells - x {
                positions += 2 * u128::from(self.choose(cells, x) * self.choose(cells - x, o));
            }
        }
        Bound {
            positions,
            moves: self.pushes.len() as u128,
        }
    }
}

impl Drawing for Quixo {
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        match self.pushes_between(from, to).first() {
            Some(&p) => format!("{} to {}", self.cell_name(p.from), self.cell_name(p.to)),
            None => "no single move".into(),
        }
    }

    fn names_move(&self, from: &Pos, to: &Pos, text: &str) -> bool {
        let said = squash(text);
        self.pushes_between(from, to).iter().any(|&p| {
            let (a, b, side) = (self.cell_name(p.from), self.cell_name(p.to), self.side(p));
            [
                format!("{a} to {b}"),
                format!("{a}-{b}"),
                format!("{a}{b}"),
                format!("{a} from the {side}"),
                format!("take {a}, push from the {side}"),
            ]
            .iter()
            .any(|name| squash(name) == said)
        })
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        let mut s = self.grid().lettered(pos, "", false);
        s.push_str(if pos[2] == X_MOVES {
            "X to move\n"
        } else {
            "O to move\n"
        });
        Some(s)
    }

    /// The cubes, `"X"`, `"O"` or blank `""`.
    fn picture(&self, pos: &Pos) -> Option<Picture> {
        self.is_board(pos)
            .then(|| self.grid().picture(pos, Look::Cubes))
    }

    /// The end the cube is pushed back in at.
    fn move_end(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        let p = *self.pushes_between(from, to).first()?;
        Some((p.to / self.n, p.to % self.n))
    }

    /// The lines of n (a push may complete one of each player's: both are marked).
    fn winning_cells(&self, pos: &Pos) -> Vec<(u32, u32)> {
        if self.is_board(pos) {
            self.grid().won_cells(pos, &self.lines)
        } else {
            Vec::new()
        }
    }

    /// The cube taken (a border cube has two or three moves: the page lists them).
    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        let p = *self.pushes_between(from, to).first()?;
        Some((p.from / self.n, p.from % self.n))
    }
}

impl Scores for Quixo {}

impl Indexing for Quixo {
    fn tiers(&self) -> Option<Box<dyn Tiers + '_>> {
        Some(Box::new(QuixoTiers::new(self)))
    }
}

impl Searching for Quixo {}

impl Patterns for Quixo {}

impl Grundy for Quixo {}

/// The game from the empty board in tiers `(x, o)`, ranked as the module says.
struct QuixoTiers<'a> {
    game: &'a Quixo,
    /// The counts of each tier, in tier order.
    counts: Vec<(u32, u32)>,
    /// The tier of counts `(x, o)`, at `x · (n² + 1) + o`; `u32::MAX` where none.
    index: Vec<u32>,
}

impl<'a> QuixoTiers<'a> {
    fn new(game: &'a Quixo) -> QuixoTiers<'a> {
        let cells = game.cells();
        let mut counts = Vec::new();
        let mut index = vec![u32::MAX; ((cells + 1) * (cells + 1)) as usize];
        for shown in 0..=cells {
            for x in 0..=shown {
                let o = shown - x;
                if x == 0 && o > 0 {
                    continue;
                }
                index[(x * (cells + 1) + o) as usize] = counts.len() as u32;
                counts.push((x, o));
            }
        }
        QuixoTiers {
            game,
            counts,
            index,
        }
    }

    fn tier_of(&self, x: u32, o: u32) -> Option<u32> {
        let cells = self.game.cells();
        if x + o > cells {
            return None;
        }
        let t = self.index[(x * (cells + 1) + o) as usize];
        (t != u32::MAX).then_some(t)
    }

    /// Where a board lands: its tier and the rank of its least image.
    fn child(&self, x: u64, o: u64, turn: u64) -> Child {
        let (x, o) = self.game.least_image(x, o);
        let tier = self
            .tier_of(x.count_ones(), o.count_ones())
            .expect("a move from a tier leads to a tier");
        Child::to(tier, self.game.rank_in_tier(x, o, turn))
    }
}

impl TierGame for QuixoTiers<'_> {
    fn id(&self) -> String {
        self.game.name()
    }

    fn tier_count(&self) -> u32 {
        self.counts.len() as u32
    }

    fn tier_size(&self, tier: u32) -> u64 {
        let (x, o) = self.counts[tier as usize];
        let cells = self.game.cells();
        2 * self.game.choose(cells, x) * self.game.choose(cells - x, o)
    }

    fn child_tiers(&self, tier: u32) -> Vec<u32> {
        let (x, o) = self.counts[tier as usize];
        [self.tier_of(x + 1, o), self.tier_of(x, o + 1)]
            .into_iter()
            .flatten()
            .collect()
    }

    fn root(&self) -> (u32, u64) {
        (0, 0)
    }

    /// Walks the boards of the range in rank order, the next X set and O set found from
    /// the last by the next combination of as many bits (Gosper's step), not by
    /// unranking each rank.
    fn visit(&self, tier: u32, ranks: Range<u64>, want: Want<'_>, each: Each<'_>) {
        let game = self.game;
        let Some(ranks) = self.within(tier, ranks) else {
            return;
        };
        let end = ranks.end;
        let (nx, no) = self.counts[tier as usize];
        let free = game.cells() - nx;
        let per_x = game.choose(free, no);
        let mut board = ranks.start / 2;
        let mut x = game.uncolex(board / per_x, nx, game.cells());
        // The O cells as picks among the cells X leaves free.
        let mut picks = game.uncolex(board % per_x, no, free);
        let mut children: Vec<Child> = Vec::with_capacity(game.pushes.len());
        while board * 2 < end {
            let o = deposit(picks, !x & game.full);
            let mut least = None;
            for turn in [X_MOVES, O_MOVES] {
                let rank = board * 2 + turn;
                if rank < ranks.start || rank >= end || !want(rank) {
                    continue;
                }
                if !*least.get_or_insert_with(|| game.is_least(x, o)) || !game.may_arise(x, o, turn)
                {
                    continue;
                }
                if let Some(outcome) = game.over(x, o, turn) {
                    each(rank, Node::Over(outcome));
                    continue;
                }
                children.clear();
                game.for_each_move(x, o, turn, |_, cx, co| {
                    children.push(self.child(cx, co, 1 - turn));
                });
                each(rank, Node::Moves(&children));
            }
            board += 1;
            if board * 2 >= end {
                break;
            }
            match next_combination(picks, free) {
                Some(next) => picks = next,
                None => {
                    picks = (1u64 << no) - 1;
                    x = next_combination(x, game.cells())
                        .expect("a rank below the tier size has a board");
                }
            }
        }
    }
}

/// The next set of as many bits in colex order (numerically next), below `1 << width`;
/// `None` after the last (and for the empty set, which is alone).
fn next_combination(set: u64, width: u32) -> Option<u64> {
    let next = super::combin::next_combination(set);
    (next != 0 && next < 1u64 << width).then_some(next)
}

impl Tiers for QuixoTiers<'_> {
    fn locate(&self, pos: &Pos) -> Option<(u32, u64)> {
        let game = self.game;
        if !game.is_board(pos) || !game.may_arise(pos[0], pos[1], pos[2]) {
            return None;
        }
        let (x, o) = game.least_image(pos[0], pos[1]);
        let tier = self.tier_of(x.count_ones(), o.count_ones())?;
        Some((tier, game.rank_in_tier(x, o, pos[2])))
    }

    fn position(&self, tier: u32, rank: u64) -> Pos {
        let game = self.game;
        let (nx, no) = self.counts[tier as usize];
        let per_x = game.choose(game.cells() - nx, no);
        let board = rank / 2;
        let x = game.uncolex(board / per_x, nx, game.cells());
        let picks = game.uncolex(board % per_x, no, game.cells() - nx);
        let o = deposit(picks, !x & game.full);
        Pos::from_slice(&[x, o, rank & 1])
    }
}

fn board(args: &Args<'_>, game: &Quixo) -> Result<Option<Pos>, SpecError> {
    let Some(items) = args.position() else {
        return Ok(Some(Pos::from_slice(&[0, 0, X_MOVES])));
    };
    let example = match game.n {
        3 => "quixo[3](x.o/.x./...,o)",
        4 => "quixo[4](x.o./.x../..../....,o)",
        _ => "quixo[5](x.o../.x.../...../...../.....,o)",
    };
    let (board_item, turn_item) = match items {
        [b] => (b, None),
        [b, t] => (b, Some(t)),
        _ => {
            return Err(args.error_at(
                items.get(2).map_or(args.open_at(), Param::at),
                format!(
                    "expected a board, rows separated by `/`, then who moves, as in `{example}`"
                ),
            ))
        }
    };
    let Param::Word { text, at } = board_item else {
        return Err(args.error_at(
            board_item.at(),
            format!("expected a board such as `{example}`"),
        ));
    };
    let (x, o) = game
        .grid()
        .read(args, text, *at, "a cube shows `x`, `o` or `.` (blank)")?;
    let turn = match turn_item {
        Some(Param::Word { text, .. }) if text.eq_ignore_ascii_case("x") => X_MOVES,
        Some(Param::Word { text, .. }) if text.eq_ignore_ascii_case("o") => O_MOVES,
        Some(other) => {
            return Err(args.error_at(
                other.at(),
                "who moves: `x` or `o`, after the board",
            ))
        }
        None if (x | o) == 0 => X_MOVES,
        None => {
            return Err(args.error_at(
                *at + text.chars().count(),
                format!(
                    "say who moves after the board (`,x` or `,o`), as in `{example}`: in Quixo the counts do not tell"
                ),
            ))
        }
    };
    Ok(Some(Pos::from_slice(&[x, o, turn])))
}

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    let n = match args.params() {
        None => MAX_SIDE,
        Some(_) => {
            let p = args.one_param("quixo[4]")?;
            let n = args.natural(p, "the side")?;
            if !(u64::from(MIN_SIDE)..=u64::from(MAX_SIDE)).contains(&n) {
                return Err(
                    args.error_at(p.at(), format!("the side is {MIN_SIDE}, 4 or {MAX_SIDE}"))
                );
            }
            n as u32
        }
    };
    let game = Quixo::new(n);
    let position = board(args, &game)?;
    Ok(Built::new(game, position))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "quixo",
    examples: &["quixo[3]"],
    small: &["quixo[3](xo./x.o/...,x)"],
    shape: "quixo[n](board,x|o): Quixo on n × n (n = 3, 4, 5; `quixo` alone is 5 × 5): take a blank or own cube from the border, push it back in at an end of its row or column; n in a row wins; then who moves (no position: the empty board, X first)",
    build,
    options: Options::NONE,
}];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Spec;
    use crate::report::{self, Limits};

    #[test]
    fn a_push_is_clicked_at_its_cube_and_ends_where_the_cube_goes_back_in() {
        let spec: Spec = "quixo[3]".parse().unwrap();
        let part = spec.single().unwrap();
        let mut children = Vec::new();
        part.family.moves(&part.position, &mut children);
        let mut corner: Vec<(String, (u32, u32))> = children
            .iter()
            .filter(|c| part.family.move_cell(&part.position, c) == Some((0, 0)))
            .map(|c| {
                let end = part.family.move_end(&part.position, c).unwrap();
                (part.family.move_name(&part.position, c), end)
            })
            .collect();
        corner.sort();
        assert_eq!(
            corner,
            [("a1 to a3".into(), (2, 0)), ("a1 to c1".into(), (0, 2))]
        );
    }

    fn spec(text: &str) -> (Quixo, Pos) {
        let spec: Spec = text.parse().unwrap();
        let part = spec.single().unwrap();
        assert_eq!(part.family_name(), text.split('(').next().unwrap());
        let n = part.family_name()[6..7].parse().unwrap();
        (Quixo::new(n), part.position.clone())
    }

    fn written(game: &Quixo, pos: &Pos) -> String {
        let mut s = String::new();
        game.write_position(pos, &mut s);
        format!("{}({s})", game.name())
    }

    #[test]
    fn the_picture_is_the_cubes_and_each_move_the_cube_taken() {
        let (game, pos) = spec("quixo[3](x.o/.../...,x)");
        let picture = game.picture(&pos).unwrap();
        assert_eq!(
            (picture.rows, picture.columns, picture.look),
            (3, 3, Look::Cubes)
        );
        assert_eq!(picture.cells, ["X", "", "O", "", "", "", "", "", ""]);
        let mut moves = Vec::new();
        game.moves(&pos, &mut moves);
        let mut taken = std::collections::BTreeMap::new();
        for to in &moves {
            let (r, c) = game.move_cell(&pos, to).unwrap();
            // Taken from the border, never O's cube.
            assert!(r == 0 || c == 0 || r == 2 || c == 2, "{r},{c}");
            assert_ne!((r, c), (0, 2));
            assert!(game
                .move_name(&pos, to)
                .starts_with(&game.cell_name(r * 3 + c)));
            *taken.entry((r, c)).or_insert(0) += 1;
        }
        // Pushes that leave the same board are one move, named (and clicked) at the first
        // cube taken in reading order: a1 (two ends), b1 and a2 (three), c2 (two).
        assert_eq!(moves.len(), 10);
        let counts: Vec<_> = taken.into_iter().collect();
        assert_eq!(counts, [((0, 0), 2), ((0, 1), 3), ((1, 0), 3), ((1, 2), 2)]);
    }

    /// Every visited rank of a tier with its node, owned.
    fn visited(
        tiers: &QuixoTiers<'_>,
        tier: u32,
        ranks: Range<u64>,
    ) -> Vec<(u64, Result<Outcome, Vec<Child>>)> {
        let mut out = Vec::new();
        tiers.visit(tier, ranks, &|_| true, &mut |rank, node| {
            out.push((
                rank,
                match node {
                    Node::Over(o) => Ok(o),
                    Node::Moves(children) => Err(children.to_vec()),
                    Node::Final(_) => unreachable!("quixo is not scored"),
                },
            ));
        });
        out
    }

    #[test]
    fn moves_follow_the_rules() {
        let game = Quixo::new(3);
        assert_eq!(game.pushes.len(), 20);
        assert_eq!(Quixo::new(4).pushes.len(), 32);
        assert_eq!(Quixo::new(5).pushes.len(), 44);
        assert_eq!(Quixo::new(5).lines.len(), 12);
        // From the empty board: twenty moves, but only eight different boards (one X
        // where it was pushed in, on the border): each board is listed once.
        let start = Pos::from_slice(&[0, 0, X_MOVES]);
        let mut children = Vec::new();
        game.moves(&start, &mut children);
        assert_eq!(children.len(), 8);
        assert!(children.iter().all(|c| c[0].count_ones() == 1
            && c[0] & game.border != 0
            && c[1] == 0
            && c[2] == O_MOVES));
        // Taking b1 (top middle) and pushing it in from the bottom: the column slides up.
        let (_, pos) = spec("quixo[3](.x./.o./..o,x)");
        let mut children = Vec::new();
        game.moves(&pos, &mut children);
        let to = spec("quixo[3](.o./.../.xo,o)").1;
        assert!(children.contains(&to));
        assert_eq!(game.move_name(&pos, &to), "b1 to b3");
        assert!(game.names_move(&pos, &to, "b1 from the bottom"));
        assert!(game.names_move(&pos, &to, "Take B1, push from the bottom"));
        assert!(game.names_move(&pos, &to, "b1-b3"));
        assert!(!game.names_move(&pos, &to, "b1 to a1"));
        // O's cubes are never taken: c3 is O's, b2 is not on the border.
        assert!(children.iter().all(|c| c[1].count_ones() == 2));
        for child in &children {
            let name = game.move_name(&pos, child);
            assert!(!name.starts_with("c3") && !name.starts_with("b2"), "{name}");
        }
    }

    #[test]
    fn a_line_for_the_opponent_loses_even_with_ones_own() {
        let game = Quixo::new(3);
        // X takes the blank c1 and pushes it in at c3: column c slides up, O's cube from
        // c2 completes O's top row, and the new X completes X's bottom row. X has lost.
        let (_, pos) = spec("quixo[3](oo./..o/xxo,x)");
        assert_eq!(game.terminal(&pos), None);
        let to = spec("quixo[3](ooo/..o/xxx,o)").1;
        let mut children = Vec::new();
        game.moves(&pos, &mut children);
        assert!(children.contains(&to));
        assert_eq!(game.move_name(&pos, &to), "c1 to c3");
        assert_eq!(game.terminal(&to), Some(Outcome::Win));
        let r = report::solve(
            &"quixo[3](ooo/..o/xxx,o)".parse().unwrap(),
            &Limits::default(),
        )
        .unwrap();
        assert_eq!((r.outcome, r.remoteness), (Outcome::Win, Some(0)));
        // Only the mover's own line: the player to move has lost.
        let mine = spec("quixo[3](x../.x./..x,o)").1;
        assert_eq!(game.terminal(&mine), Some(Outcome::Loss));
        let theirs = spec("quixo[3](x../.x./..x,x)").1;
        assert_eq!(game.terminal(&theirs), Some(Outcome::Win));
    }

    #[test]
    fn specs_round_trip_and_bad_ones_are_refused() {
        for text in [
            "quixo[3](x.o/.x./...,o)",
            "quixo[4](x.o./.x../..../...o,x)",
            "quixo[5](x.o../.x.../...../...../....o,x)",
        ] {
            let (game, pos) = spec(text);
            assert_eq!(written(&game, &pos), text);
        }
        let (game, pos) = spec("quixo[4]");
        assert_eq!(written(&game, &pos), "quixo[4](..../..../..../....,x)");
        let spec: Spec = "quixo".parse().unwrap();
        assert_eq!(
            spec.to_string(),
            "quixo[5](...../...../...../...../.....,x)"
        );
        let err = |text: &str| text.parse::<Spec>().unwrap_err().to_string();
        assert!(err("quixo[6]").contains("the side is 3, 4 or 5"));
        assert!(err("quixo[3](x../.../...)").contains("say who moves"));
        assert!(err("quixo[3](x../.../...,y)").contains("who moves"));
        assert!(err("quixo[3](x../...,o)").contains("3 rows"));
        assert!(err("quixo[3](x../..q/...,o)").contains("found `q`"));
        assert_eq!(
            "quixo[3](.../.../...)".parse::<Spec>().unwrap().to_string(),
            "quixo[3](.../.../...,x)"
        );
    }

    #[test]
    fn symmetric_boards_are_one_position() {
        let game = Quixo::new(4);
        let corners: Vec<Pos> = [0u32, 3, 12, 15]
            .iter()
            .map(|&c| game.canonical(&Pos::from_slice(&[1 << c, 1 << 5, O_MOVES])))
            .collect();
        // An X in a corner and an O next to the centre on the same diagonal: the four
        // corners differ (O's cell is fixed), but reflections in the main diagonal keep
        // the first one.
        assert_eq!(corners[0], Pos::from_slice(&[1, 1 << 5, O_MOVES]));
        let pos = Pos::from_slice(&[0b1011, 1 << 9 | 1 << 14, X_MOVES]);
        let c = game.canonical(&pos);
        for s in 0..7 {
            let image = Pos::from_slice(&[game.image(s, pos[0]), game.image(s, pos[1]), pos[2]]);
            assert_ne!(image, pos);
            assert_eq!(game.canonical(&image), c);
        }
        // Each symmetry is a permutation of the cells, lines to lines.
        for s in 0..7 {
            assert_eq!(game.image(s, game.full), game.full);
            assert_eq!(game.image(s, game.border), game.border);
            for &l in &game.lines {
                assert!(game.lines.contains(&game.image(s, l)));
            }
        }
    }

    /// The tier solver, with its cycles inside tiers, gives what the analyzer's one
    /// labelling of the whole game gives: 4 433 positions, a first-player win in 7, and
    /// every position's value.
    #[test]
    fn tiers_of_quixo3_equal_the_analyzer() {
        use crate::tier::record;
        let game = Quixo::new(3);
        let tiers = QuixoTiers::new(&game);
        let (solved, store) = crate::games::testing::tier_solve(&tiers);
        assert_eq!(solved.positions(), 4433);
        assert_eq!(record::value(solved.root), Some(crate::game::Value::Win(7)));
        let checked =
            crate::games::testing::records_equal_the_search(game.clone(), &store, 5, false);
        assert!(checked > 500, "{checked}");
        // The proof search on a game with cycles and draws: every seventh record's board
        // and each of its moves.
        let checked = crate::games::testing::searches_equal_the_records(game, &store, 7);
        assert!(checked > 300, "{checked}");
    }

    #[test]
    fn every_rank_of_quixo3_locates_back() {
        let game = Quixo::new(3);
        let tiers = QuixoTiers::new(&game);
        // 55 pairs (x, o) with x + o ≤ 9, less the nine with x = 0 < o.
        assert_eq!(tiers.tier_count(), 46);
        let mut total = 0;
        let mut located = 0;
        for tier in 0..tiers.tier_count() {
            let size = tiers.tier_size(tier);
            total += size;
            for rank in 0..size {
                let pos = tiers.position(tier, rank);
                assert!(game.is_board(&pos));
                let (x, o) = tiers.counts[tier as usize];
                assert_eq!((pos[0].count_ones(), pos[1].count_ones()), (x, o));
                match tiers.locate(&pos) {
                    Some(at) if game.canonical(&pos) == pos => {
                        assert_eq!(at, (tier, rank));
                        located += 1;
                    }
                    // Another image: the least image's rank, which is lower.
                    Some((t, r)) => assert!(t == tier && r < rank),
                    None => assert!(!game.may_arise(pos[0], pos[1], pos[2])),
                }
            }
        }
        // Every (x, o) pair but the nine left out, both turns: 2 · 3⁹ less 2 · 2⁹ + 2.
        assert_eq!(total, 2 * 19_683 - 2 * 511);
        assert!(located > 0 && located < total);
        assert_eq!(tiers.root(), (0, 0));
        assert_eq!(tiers.position(0, 0), Pos::from_slice(&[0, 0, X_MOVES]));
    }

    #[test]
    fn larger_boards_locate_back() {
        for n in [4, 5] {
            let game = Quixo::new(n);
            let tiers = QuixoTiers::new(&game);
            assert_eq!(tiers.tier_count(), if n == 4 { 137 } else { 326 });
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..2000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let (mut x, mut o) = (0u64, 0u64);
                for cell in 0..game.cells() {
                    match (seed >> (2 * cell)) & 3 {
                        0 => x |= 1 << cell,
                        1 => o |= 1 << cell,
                        _ => {}
                    }
                }
                if x == 0 {
                    x = 1;
                    o &= !1;
                }
                let pos = Pos::from_slice(&[x, o, seed >> 63]);
                let Some((tier, rank)) = tiers.locate(&pos) else {
                    assert!(!game.may_arise(x, o, pos[2]));
                    continue;
                };
                assert!(rank < tiers.tier_size(tier));
                assert_eq!(tiers.position(tier, rank), game.canonical(&pos));
            }
            // The largest rank of the largest tier.
            let last = tiers.tier_count() - 1;
            let pos = tiers.position(last, tiers.tier_size(last) - 1);
            assert_eq!(pos[0] | pos[1], game.full);
        }
    }

    #[test]
    fn visit_gives_the_moves_of_the_family() {
        let game = Quixo::new(3);
        let tiers = QuixoTiers::new(&game);
        let mut visits = 0;
        for tier in 0..tiers.tier_count() {
            let size = tiers.tier_size(tier);
            let all = visited(&tiers, tier, 0..size);
            // Exactly the least images that may arise are visited, in order.
            let expected: Vec<u64> = (0..size)
                .filter(|&r| {
                    let p = tiers.position(tier, r);
                    game.canonical(&p) == p && game.may_arise(p[0], p[1], p[2])
                })
                .collect();
            assert_eq!(all.iter().map(|v| v.0).collect::<Vec<_>>(), expected);
            let mut allowed = tiers.child_tiers(tier);
            allowed.push(tier);
            for (rank, node) in &all {
                let pos = tiers.position(tier, *rank);
                match node {
                    Ok(outcome) => assert_eq!(game.terminal(&pos), Some(*outcome)),
                    Err(children) => {
                        assert_eq!(game.terminal(&pos), None);
                        let mut moves = Vec::new();
                        game.moves(&pos, &mut moves);
                        let located: Vec<Child> = moves
                            .iter()
                            .map(|m| {
                                let (t, r) = tiers.locate(m).expect("a child may arise");
                                Child::to(t, r)
                            })
                            .collect();
                        assert_eq!(children, &located);
                        assert!(!children.is_empty());
                        assert!(children.iter().all(|c| allowed.contains(&c.tier)));
                    }
                }
            }
            visits += all.len();
            // A walk from the middle of the tier, and one with ranks unwanted, agree.
            for (a, b) in [(1, size), (size / 3, size / 2 + 1), (size - 1, size + 5)] {
                let part = visited(&tiers, tier, a..b);
                let whole: Vec<_> = all
                    .iter()
                    .filter(|v| (a..b).contains(&v.0))
                    .cloned()
                    .collect();
                assert_eq!(part, whole);
            }
            let mut odd = Vec::new();
            tiers.visit(tier, 0..size, &|r| r % 2 == 1, &mut |r, _| odd.push(r));
            assert!(odd.iter().all(|r| r % 2 == 1));
            assert_eq!(odd.len(), all.iter().filter(|v| v.0 % 2 == 1).count());
        }
        assert!(visits > 4000);
    }

    #[test]
    fn quixo4_visits_a_sample_of_tiers() {
        let game = Quixo::new(4);
        let tiers = QuixoTiers::new(&game);
        for (x, o) in [(1, 0), (3, 2), (7, 7), (9, 7)] {
            let tier = tiers.tier_of(x, o).unwrap();
            let size = tiers.tier_size(tier);
            for (rank, node) in visited(&tiers, tier, size / 2..(size / 2 + 3000).min(size)) {
                let pos = tiers.position(tier, rank);
                if let Err(children) = node {
                    let mut moves = Vec::new();
                    game.moves(&pos, &mut moves);
                    let located: Vec<Child> = moves
                        .iter()
                        .map(|m| {
                            let (t, r) = tiers.locate(m).unwrap();
                            Child::to(t, r)
                        })
                        .collect();
                    assert_eq!(children, located);
                }
            }
        }
    }

    #[test]
    fn quixo3_is_a_first_player_win_in_7() {
        // GamesmanOne (commit 1969986, variant "3x3 3-in-a-row") solves the empty 3 × 3
        // board as a win in 7 for X, with 4433 canonical positions reachable and no draw
        // at all; see the report on this branch for the command.
        let spec: Spec = "quixo[3]".parse().unwrap();
        let r = report::solve(&spec, &Limits::default()).unwrap();
        assert_eq!((r.outcome, r.remoteness), (Outcome::Win, Some(7)));
        assert_eq!(r.positions, Some(4433));
        assert_eq!(r.moves.len(), 8);
    }

    /// The positions reachable from the root, found through `visit` alone, one rank at a
    /// time from a stack per tier (tiers in order, since moves never go back).
    fn reachable(tiers: &QuixoTiers<'_>) -> u64 {
        let mut seen: Vec<Vec<u64>> = (0..tiers.tier_count())
            .map(|t| vec![0u64; tiers.tier_size(t).div_ceil(64) as usize])
            .collect();
        let mut stacks: Vec<Vec<u64>> = vec![Vec::new(); tiers.tier_count() as usize];
        let (root_tier, root) = tiers.root();
        seen[root_tier as usize][(root / 64) as usize] |= 1 << (root % 64);
        stacks[root_tier as usize].push(root);
        let mut count = 0;
        for tier in 0..tiers.tier_count() {
            while let Some(rank) = stacks[tier as usize].pop() {
                count += 1;
                let mut found = Vec::new();
                tiers.visit(tier, rank..rank + 1, &|_| true, &mut |_, node| {
                    if let Node::Moves(children) = node {
                        found.extend_from_slice(children);
                    }
                });
                for c in found {
                    let word = &mut seen[c.tier as usize][(c.rank / 64) as usize];
                    if *word >> (c.rank % 64) & 1 == 0 {
                        *word |= 1 << (c.rank % 64);
                        stacks[c.tier as usize].push(c.rank);
                    }
                }
            }
        }
        count
    }

    #[test]
    fn the_tiers_reach_what_exploring_reaches() {
        // The same 4433 positions as the hash-map exploration and GamesmanOne.
        let game = Quixo::new(3);
        assert_eq!(reachable(&QuixoTiers::new(&game)), 4433);
    }

    /// About 45 s in release: `cargo test --release -p grundy --lib quixo4_tiers -- --ignored`.
    #[test]
    #[ignore = "about 45 s in release"]
    fn quixo4_tiers_reach_10339244_positions() {
        // GamesmanOne (commit 1969986, `analyze quixo 1`) counts 10 339 244 canonical
        // positions reachable in 4 × 4 Quixo; so does the hash-map exploration below.
        let game = Quixo::new(4);
        assert_eq!(reachable(&QuixoTiers::new(&game)), 10_339_244);
    }

    /// About 3 minutes and 3.2 GB in release (a hash map of 10 M positions):
    /// `cargo test --release -p grundy --lib quixo4_is -- --ignored`.
    #[test]
    #[ignore = "about 3 minutes and 3.2 GB in release"]
    fn quixo4_is_a_first_player_win_in_21() {
        // GamesmanOne (commit 1969986, `solve quixo 1`, variant "4x4 4-in-a-row") solves
        // the empty 4 × 4 board as a win in 21 for X, over 10 339 244 canonical positions
        // of which 402 690 are drawn.
        let spec: Spec = "quixo[4]".parse().unwrap();
        let limits = Limits {
            control: crate::explore::Control {
                max_positions: 20_000_000,
                ..crate::explore::Control::default()
            },
            ..Limits::default()
        };
        let r = report::solve(&spec, &limits).unwrap();
        assert_eq!((r.outcome, r.remoteness), (Outcome::Win, Some(21)));
        assert_eq!(r.positions, Some(10_339_244));
    }

    #[test]
    fn quixo5_is_refused_up_front() {
        // 5 × 5 Quixo is a draw (Tanaka, Bonnet, Tixeuil and Tamura, "Quixo Is Solved",
        // 2020, arXiv:2007.15895): far beyond exploring with a hash map, so refused with
        // the bound (2 · 3²⁵ boards with their turn) before any work.
        let spec: Spec = "quixo".parse().unwrap();
        // No proof search (it would take its budget of nodes first, and then refuse).
        let limits = Limits {
            max_search_nodes: 0,
            ..Limits::default()
        };
        match report::solve(&spec, &limits) {
            Err(e) if e.is_too_large() => {
                let what = e.too_large_what().unwrap_or_default();
                assert!(what.contains("1.7e12"), "{what}");
            }
            other => panic!("expected a refusal for size, got {other:?}"),
        }
    }
}
