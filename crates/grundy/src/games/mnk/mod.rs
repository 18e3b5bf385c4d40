//! m,n,k-games: X and O take turns to mark an empty cell of an m × n board (m rows, n
//! columns), X first; whoever first has k of their marks in a row, a column or a
//! diagonal wins; a full board without one is a draw. Tic-tac-toe is `mnk[3,3,3]`
//! (`tictactoe`). Partizan, with declared terminal outcomes (a win, or a draw).
//!
//! A position is two bitboards `[x, o]`, cell `r·n + c` (row 0 at the top); positions
//! are merged under the board's symmetries (8 on a square board, 4 otherwise) and ranked
//! in base 3 when 3^(m·n) is small enough to index. Boards of at most 40 cells have the
//! exact search (`search.rs`: the mover's marks and every mark, keys of 64 bits at most).

mod search;

use super::board::{self, Grid};
use super::combin::{deposit, extract, next_combination, Binomials};
use super::family::{
    Bound, Drawing, Exact, GameRules, Grundy, Indexing, Kind, Look, Patterns, Picture, Pos, Ranked,
    Scores, Searching, Tiers,
};
use super::spec::{Args, Built, Entry, Offered, Options, Param, Setting, SpecError};
use crate::game::{Outcome, Player};
use crate::tier::{Each, Node, TierGame, Want};

/// A map of the board onto itself, on (row, column).
type CellMap = Box<dyn Fn(i64, i64) -> (i64, i64)>;

/// `mnk[m,n,k]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mnk {
    /// Rows.
    pub m: u32,
    /// Columns.
    pub n: u32,
    /// Marks in a row that win.
    pub k: u32,
    /// Every line of k cells, as a mask.
    lines: Vec<u64>,
    /// The board's symmetries, as cell permutations.
    symmetries: Vec<Vec<u8>>,
}

/// The most cells a board may have (two 64-bit bitboards).
pub const MAX_CELLS: u32 = 64;

impl Mnk {
    /// The m,n,k-game (m·n ≤ 64, 1 ≤ k ≤ max(m, n)).
    #[must_use]
    pub fn new(m: u32, n: u32, k: u32) -> Mnk {
        let cell = |r: i64, c: i64| (r * i64::from(n) + c) as u32;
        let mut lines = Vec::new();
        for r in 0..i64::from(m) {
            for c in 0..i64::from(n) {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let end_r = r + dr * (i64::from(k) - 1);
                    let end_c = c + dc * (i64::from(k) - 1);
                    if end_r < 0 || end_r >= i64::from(m) || end_c < 0 || end_c >= i64::from(n) {
                        continue;
                    }
                    let mask = (0..i64::from(k))
                        .fold(0u64, |acc, i| acc | 1 << cell(r + dr * i, c + dc * i));
                    lines.push(mask);
                }
            }
        }
        lines.sort_unstable();
        lines.dedup();
        let mut maps: Vec<CellMap> = vec![
            Box::new(|r, c| (r, c)),
            Box::new(move |r, c| (i64::from(m) - 1 - r, c)),
            Box::new(move |r, c| (r, i64::from(n) - 1 - c)),
            Box::new(move |r, c| (i64::from(m) - 1 - r, i64::from(n) - 1 - c)),
        ];
        if m == n {
            maps.push(Box::new(|r, c| (c, r)));
            maps.push(Box::new(move |r, c| (i64::from(n) - 1 - c, r)));
            maps.push(Box::new(move |r, c| (c, i64::from(m) - 1 - r)));
            maps.push(Box::new(move |r, c| {
                (i64::from(n) - 1 - c, i64::from(m) - 1 - r)
            }));
        }
        let symmetries = maps
            .iter()
            .map(|f| {
                (0..i64::from(m * n))
                    .map(|x| {
                        let (r, c) = f(x / i64::from(n), x % i64::from(n));
                        cell(r, c) as u8
                    })
                    .collect()
            })
            .collect();
        Mnk {
            m,
            n,
            k,
            lines,
            symmetries,
        }
    }

    fn cells(&self) -> u32 {
        self.m * self.n
    }

    fn full(&self) -> u64 {
        if self.cells() == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells()) - 1
        }
    }

    fn won(&self, marks: u64) -> bool {
        self.lines.iter().any(|&l| l & !marks == 0)
    }

    fn apply(&self, sym: &[u8], board: u64) -> u64 {
        let mut out = 0u64;
        let mut b = board;
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            out |= 1 << sym[i];
            b &= b - 1;
        }
        out
    }

    /// The board's cells, numbered along each row.
    fn grid(&self) -> Grid {
        Grid::by_rows(self.m, self.n)
    }

    /// The cell's name: column letter, row number from the top (`b2` is the centre of
    /// tic-tac-toe).
    fn cell_name(&self, cell: u32) -> String {
        self.grid().cell_name(cell)
    }
}

impl GameRules for Mnk {
    fn name(&self) -> String {
        if (self.m, self.n, self.k) == (3, 3, 3) {
            "tictactoe".into()
        } else {
            format!("mnk[{},{},{}]", self.m, self.n, self.k)
        }
    }

    fn kind(&self) -> Kind {
        Kind::Partizan
    }

    fn write_position(&self, pos: &Pos, out: &mut String) {
        self.grid().write(pos, out);
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let x_moves = self.to_move(pos) == Player::First;
        let mut empty = !(pos[0] | pos[1]) & self.full();
        while empty != 0 {
            let bit = empty & empty.wrapping_neg();
            empty &= empty - 1;
            let mut next = pos.clone();
            next[usize::from(!x_moves)] |= bit;
            out.push(next);
        }
    }

    fn canonical(&self, pos: &Pos) -> Pos {
        self.symmetries
            .iter()
            .map(|s| [self.apply(s, pos[0]), self.apply(s, pos[1])])
            .min()
            .map_or_else(|| pos.clone(), |b| Pos::from_slice(&b))
    }

    fn to_move(&self, pos: &Pos) -> Player {
        board::to_move(pos)
    }

    fn terminal(&self, pos: &Pos) -> Option<Outcome> {
        if self.won(pos[0]) || self.won(pos[1]) {
            // The player who just moved made the line.
            Some(Outcome::Loss)
        } else if (pos[0] | pos[1]) == self.full() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn bound(&self, pos: &Pos) -> Bound {
        let empty = u128::from((!(pos[0] | pos[1]) & self.full()).count_ones());
        // Positions: at most 3^empty arrangements of the empty cells.
        let positions = (0..empty).fold(1u128, |acc, _| acc.saturating_mul(3));
        Bound {
            positions,
            moves: empty,
        }
    }
}

impl Drawing for Mnk {
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        board::placed(from, to).map_or_else(|| "no single mark".into(), |c| self.cell_name(c))
    }

    fn picture(&self, pos: &Pos) -> Option<Picture> {
        Some(self.grid().picture(pos, Look::Marks))
    }

    fn winning_cells(&self, pos: &Pos) -> Vec<(u32, u32)> {
        self.grid().won_cells(pos, &self.lines)
    }

    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        self.grid().move_cell(from, to)
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        Some(self.grid().lettered(pos, "", false))
    }
}

impl Scores for Mnk {}

impl Indexing for Mnk {
    fn ranking(&self, _root: &Pos) -> Option<Box<dyn Ranked + '_>> {
        (self.cells() <= 16).then(|| Box::new(Base3(self)) as Box<dyn Ranked>)
    }

    fn tiers(&self) -> Option<Box<dyn Tiers + '_>> {
        Some(Box::new(Placed {
            game: self,
            binom: Binomials::new(),
        }))
    }
}

impl Searching for Mnk {
    fn exact(&self) -> Option<Box<dyn Exact + '_>> {
        search::exact(self)
    }
}

impl Patterns for Mnk {}

impl Grundy for Mnk {}

/// Boards of at most 16 cells in base 3 (0 empty, 1 X, 2 O), canonical under symmetry.
struct Base3<'a>(&'a Mnk);

impl Ranked for Base3<'_> {
    fn size(&self) -> u64 {
        3u64.pow(self.0.cells())
    }

    fn symmetric(&self) -> bool {
        self.0.symmetries.len() > 1
    }

    fn rank(&self, pos: &Pos) -> u64 {
        let c = self.0.canonical(pos);
        (0..self.0.cells()).rev().fold(0u64, |acc, cell| {
            acc * 3 + (c[0] >> cell & 1) + 2 * (c[1] >> cell & 1)
        })
    }

    fn unrank(&self, mut rank: u64) -> Pos {
        let (mut x, mut o) = (0u64, 0u64);
        for cell in 0..self.0.cells() {
            match rank % 3 {
                1 => x |= 1 << cell,
                2 => o |= 1 << cell,
                _ => {}
            }
            rank /= 3;
        }
        Pos::from_slice(&[x, o])
    }

    fn moves(&self, rank: u64, out: &mut Vec<u64>) {
        let pos = self.unrank(rank);
        if self.0.terminal(&pos).is_some() {
            return;
        }
        let mut children = Vec::new();
        self.0.moves(&pos, &mut children);
        out.extend(children.iter().map(|c| self.rank(c)));
    }

    fn terminal(&self, rank: u64) -> Option<Outcome> {
        self.0.terminal(&self.unrank(rank))
    }
}

/// The tiers of an m,n,k-game: tier t holds the boards with t marks (X has ⌈t/2⌉), ranked
/// by the colex rank of the marked cells times `C(t, ⌈t/2⌉)` plus the colex rank of which
/// marks, in cell order, are X's. Symmetric boards are not merged here (counts are of
/// boards as they are). Ranking version 1.
struct Placed<'a> {
    game: &'a Mnk,
    binom: Binomials,
}

impl Placed<'_> {
    fn block(&self, t: u32) -> u64 {
        self.binom.get(t, t.div_ceil(2))
    }
}

impl TierGame for Placed<'_> {
    fn id(&self) -> String {
        self.game.name()
    }

    fn tier_count(&self) -> u32 {
        self.game.cells() + 1
    }

    fn tier_size(&self, tier: u32) -> u64 {
        self.binom
            .get(self.game.cells(), tier)
            .saturating_mul(self.block(tier))
    }

    fn child_tiers(&self, tier: u32) -> Vec<u32> {
        board::next_tier(tier, self.game.cells())
    }

    fn root(&self) -> (u32, u64) {
        (0, 0)
    }

    /// The last mark undone: a board of `tier` marks came from each board without one mark
    /// of the player who moved last (X made the odd-numbered marks), unless that board was
    /// already over.
    fn parents(&self, tier: u32, rank: u64, out: &mut Vec<(u32, u64)>) -> bool {
        if tier == 0 {
            return true;
        }
        let board = self.position(tier, rank);
        let last = usize::from(tier.is_multiple_of(2));
        let mut marks = board[last];
        while marks != 0 {
            let cell = marks & marks.wrapping_neg();
            marks &= !cell;
            let mut parent = board.clone();
            parent[last] &= !cell;
            if self.game.terminal(&parent).is_none() {
                out.extend(self.locate(&parent));
            }
        }
        true
    }

    fn visit(&self, t: u32, ranks: std::ops::Range<u64>, want: Want<'_>, each: Each<'_>) {
        let block = self.block(t);
        let x_moves = t.is_multiple_of(2);
        let child_block = self.block(t + 1);
        let full = self.game.full();
        let mut children = Vec::with_capacity(self.game.cells() as usize);
        let mut rank = ranks.start;
        while rank < ranks.end {
            let b = rank / block;
            let occupied = self.binom.uncolex(b, t);
            // Per empty cell: where its mark goes among the marks, and the child's block.
            let mut drops = Vec::new();
            let mut empty = !occupied & full;
            while empty != 0 {
                let bit = empty & empty.wrapping_neg();
                empty &= empty - 1;
                drops.push((
                    (occupied & (bit - 1)).count_ones(),
                    self.binom.colex(occupied | bit) * child_block,
                ));
            }
            let end = ranks.end.min((b + 1) * block);
            let mut mask = self.binom.uncolex(rank % block, t.div_ceil(2));
            while rank < end {
                if want(rank) {
                    let x = deposit(mask, occupied);
                    let pos = Pos::from_slice(&[x, occupied & !x]);
                    match self.game.terminal(&pos) {
                        Some(outcome) => each(rank, Node::Over(outcome)),
                        None => {
                            let drops = drops.iter().copied();
                            board::drop_children(
                                &mut children,
                                t,
                                drops,
                                mask,
                                x_moves,
                                &self.binom,
                            );
                            each(rank, Node::Moves(&children));
                        }
                    }
                }
                rank += 1;
                mask = next_combination(mask);
            }
        }
    }
}

impl Tiers for Placed<'_> {
    fn locate(&self, pos: &Pos) -> Option<(u32, u64)> {
        let occupied = pos[0] | pos[1];
        let t = occupied.count_ones();
        let (nx, no) = (pos[0].count_ones(), pos[1].count_ones());
        if pos[0] & pos[1] != 0 || occupied & !self.game.full() != 0 || !(nx == no || nx == no + 1)
        {
            return None;
        }
        Some((
            t,
            self.binom.colex(occupied) * self.block(t)
                + self.binom.colex(extract(pos[0], occupied)),
        ))
    }

    fn position(&self, tier: u32, rank: u64) -> Pos {
        let block = self.block(tier);
        let occupied = self.binom.uncolex(rank / block, tier);
        let x = deposit(self.binom.uncolex(rank % block, tier.div_ceil(2)), occupied);
        Pos::from_slice(&[x, occupied & !x])
    }
}

fn board(args: &Args<'_>, game: &Mnk) -> Result<Option<Pos>, SpecError> {
    let example = "tictactoe(x.o/.x./...)";
    let Some((text, at)) = board::one_board(args, example)? else {
        return Ok(Some(Pos::from_slice(&[0, 0])));
    };
    let (x, o) = game
        .grid()
        .read(args, text, at, "a cell is `x`, `o` or `.`")?;
    let (nx, no) = (x.count_ones(), o.count_ones());
    if nx != no && nx != no + 1 {
        return Err(args.error_at(
            at,
            format!("X moves first, so X has as many marks as O or one more (here {nx} and {no})"),
        ));
    }
    let (mover, last, names) = if nx == no {
        (x, o, ["X", "O"])
    } else {
        (o, x, ["O", "X"])
    };
    if let Some(why) = super::board::impossible_line_board(&game.lines, mover, last, last, names) {
        return Err(args.error_at(at, format!("this board cannot arise: {why}")));
    }
    Ok(Some(Pos::from_slice(&[x, o])))
}

fn build_mnk(args: &Args<'_>) -> Result<Built, SpecError> {
    let items = args.some_params("mnk[4,4,3]")?;
    let [m, n, k] = items else {
        return Err(args.error_at(
            items.get(3).map_or(args.open_at(), Param::at),
            "`mnk` takes three parameters: rows, columns and marks in a row, as in `mnk[4,4,3]`",
        ));
    };
    let (m_at, k_at) = (m.at(), k.at());
    let (m, n, k) = (
        args.positive(m, "m")?,
        args.positive(n, "n")?,
        args.positive(k, "k")?,
    );
    if m.saturating_mul(n) > u64::from(MAX_CELLS) {
        return Err(args.error_at(m_at, format!("a board of at most {MAX_CELLS} cells")));
    }
    if k > m.max(n) {
        return Err(args.error_at(k_at, "k is at most the longer side"));
    }
    let game = Mnk::new(m as u32, n as u32, k as u32);
    let position = board(args, &game)?;
    Ok(Built::new(game, position))
}

fn build_tictactoe(args: &Args<'_>) -> Result<Built, SpecError> {
    args.no_params()?;
    let game = Mnk::new(3, 3, 3);
    let position = board(args, &game)?;
    Ok(Built::new(game, position))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[
    Entry {
        name: "tictactoe",
        examples: &["tictactoe"],
        small: &["tictactoe", "tictactoe(x.o/.x./...)"],
        shape: "tictactoe(x.o/.x./...): noughts and crosses, X first (no position: the empty board)",
        build: build_tictactoe,
        options: Options::NONE,
    },
    Entry {
        name: "mnk",
        examples: &["mnk[4,4,3]"],
        small: &["mnk[2,4,3]", "mnk[3,3,2]"],
        shape: "mnk[m,n,k](board): k in a row on m rows × n columns, X first (no position: the empty board)",
        build: build_mnk,
        options: Options {
            template: "mnk[{m},{n},{k}]",
            settings: &[
                Setting {
                    name: "m",
                    label: "rows",
                    values: Offered::Range(2, 5),
                    default: "4",
                },
                Setting {
                    name: "n",
                    label: "columns",
                    values: Offered::Range(2, 5),
                    default: "4",
                },
                Setting {
                    name: "k",
                    label: "in a row to win",
                    values: Offered::Range(2, 4),
                    default: "3",
                },
            ],
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The winning cells of a one-part spec's position.
    pub(crate) fn won(spec: &str) -> Vec<(u32, u32)> {
        let spec: crate::games::Spec = spec.parse().unwrap();
        let part = spec.single().unwrap();
        part.family.winning_cells(&part.position)
    }

    #[test]
    fn the_line_that_won_is_marked_and_none_before() {
        assert_eq!(won("tictactoe(xxx/oo./...)"), [(0, 0), (0, 1), (0, 2)]);
        assert_eq!(won("tictactoe(xo./xo./x..)"), [(0, 0), (1, 0), (2, 0)]);
        assert_eq!(won("tictactoe(x.o/.xo/..x)"), [(0, 0), (1, 1), (2, 2)]);
        assert!(won("tictactoe(xx./oo./...)").is_empty());
        // Connect four, its rows counted from the top: four up column 1.
        assert_eq!(
            won("connect4[4x4](1212121)"),
            [(0, 0), (1, 0), (2, 0), (3, 0)]
        );
        assert!(won("connect4[4x4](121212)").is_empty());
        // Quixo: a row of three X.
        assert_eq!(won("quixo[3](xxx/o.o/...,o)"), [(0, 0), (0, 1), (0, 2)]);
    }

    #[test]
    fn boards_that_cannot_arise_are_refused_with_the_reason() {
        for (board, ok) in [
            ("xxx/oo./...", true),
            // Two lines through the last mark: one move made both.
            ("xxx/xoo/xoo", true),
            ("xxx/ooo/...", false),
            ("xxx/oo./o..", false),
            ("ooo/xx./x..", true),
            ("ooo/xx./x.x", false),
            ("ooo/xxx/...", false),
        ] {
            let spec = format!("tictactoe({board})");
            let got = spec.parse::<crate::games::Spec>();
            assert_eq!(got.is_ok(), ok, "{spec}: {:?}", got.err());
            if let Err(e) = got {
                assert!(e.message.contains("cannot arise"), "{}", e.message);
            }
        }
        for (board, ok) in [
            ("...../...../o..../oo.../xxxx.", true),
            ("...../xxxx./oooo./xxoo./oxox.", false),
            // O's four is under X's disc on top: O had won before X dropped it.
            ("x..../o..../o..../ox.../oxx..", false),
            ("...../o..../o..../ox.../oxxx.", true),
        ] {
            let spec = format!("connect4[5x5]({board})");
            let got = spec.parse::<crate::games::Spec>();
            assert_eq!(got.is_ok(), ok, "{spec}: {:?}", got.err());
        }
    }

    #[test]
    fn tictactoe_lines_and_symmetries() {
        let t = Mnk::new(3, 3, 3);
        assert_eq!(t.lines.len(), 8);
        assert_eq!(t.symmetries.len(), 8);
        // A corner opening: all four corners are one canonical position.
        let corners: Vec<Pos> = [0u32, 2, 6, 8]
            .iter()
            .map(|&c| t.canonical(&Pos::from_slice(&[1 << c, 0])))
            .collect();
        assert!(corners.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(corners[0], t.canonical(&Pos::from_slice(&[1 << 4, 0])));
        assert_eq!(Mnk::new(4, 4, 3).lines.len(), 4 * 2 * 2 + 2 * 2 * 2);
    }

    /// The game's tiers, solved in memory.
    fn tier_solve(game: &Mnk) -> (crate::tier::Solved, crate::tier::MemoryStore) {
        crate::games::testing::tier_solve(game.tiers().unwrap().game())
    }

    /// The exact search's value of every reached position of small m,n,k-games (with
    /// remoteness, strong and weak), and of each move, equals the tier solver's:
    /// tic-tac-toe (a draw), the 3 × 4 and 4 × 3 boards with k = 3 (first-player wins),
    /// k = 2, k = 1 (the first mark wins), and boards with no room for a diagonal or for
    /// any line across.
    #[test]
    fn the_exact_search_equals_the_tiers() {
        for (m, n, k, moves_step) in [
            (3, 3, 3, 1),
            (3, 4, 3, 5),
            (4, 3, 3, 5),
            (3, 3, 2, 1),
            (2, 2, 2, 1),
            (1, 1, 1, 1),
            (2, 3, 1, 1),
            (1, 5, 3, 1),
            (5, 1, 2, 1),
            (2, 4, 3, 1),
        ] {
            let game = Mnk::new(m, n, k);
            let (solved, store) = tier_solve(&game);
            let checked =
                crate::games::testing::exact_equals_the_records(game, &store, 1, moves_step);
            assert_eq!(checked as u64, solved.positions(), "mnk[{m},{n},{k}]");
        }
    }

    /// The same on 4 × 4 with k = 3 (a first-player win) and k = 4 (a draw), at every
    /// 997th record. Every record, each move's value at each, passed once (15 minutes in
    /// a test build) with an earlier build of the keys: symmetries mapped mark by mark,
    /// below 8 marks.
    #[test]
    fn the_exact_search_equals_the_tiers_on_four_by_four() {
        for k in [3, 4] {
            let game = Mnk::new(4, 4, k);
            let (solved, store) = tier_solve(&game);
            let checked = crate::games::testing::exact_equals_the_records(game, &store, 997, 7);
            // Of 6 036 001 and 9 722 011 reached boards.
            assert!(
                checked > 5000,
                "k = {k}: {checked} of {}",
                solved.positions()
            );
        }
    }

    /// Where exploring refuses (a budget of 1000 positions), `solve` answers by the exact
    /// search, with remoteness: mnk[4,4,4] is a draw (every move draws; published:
    /// 4 × 4 with k = 4 is a draw), and mnk[4,4,3] a first-player win, the board's value
    /// and every move's as the tier solver has them.
    #[test]
    fn the_exact_search_answers_past_the_exploring_budget() {
        use crate::game::Value;
        use crate::report::{self, Limits, Method};
        use crate::tier::record;
        let mut limits = Limits::default();
        limits.control.max_positions = 1000;
        let spec: crate::games::Spec = "mnk[4,4,4]".parse().unwrap();
        let r = report::solve(&spec, &limits).unwrap();
        assert_eq!(r.method, Method::Search);
        assert_eq!(
            (r.outcome, r.remoteness, r.weak),
            (Outcome::Draw, None, false)
        );
        assert_eq!(r.moves.len(), 16);
        assert!(r.moves.iter().all(|m| m.outcome == Outcome::Draw));

        let game = Mnk::new(4, 4, 3);
        let (solved, store) = tier_solve(&game);
        let tiers = game.tiers().unwrap();
        let record_of = |pos: &Pos| {
            let (t, rank) = tiers.locate(pos).unwrap();
            record::value(store.tiers[&t].0[rank as usize]).unwrap()
        };
        let root = record::value(solved.root).unwrap();
        assert_eq!(root.outcome(), Outcome::Win);
        let spec: crate::games::Spec = "mnk[4,4,3]".parse().unwrap();
        let r = report::solve(&spec, &limits).unwrap();
        assert_eq!(r.method, Method::Search);
        assert_eq!(
            (r.outcome, r.remoteness),
            (root.outcome(), root.remoteness())
        );
        let mut children = Vec::new();
        game.moves(&Pos::from_slice(&[0, 0]), &mut children);
        assert_eq!(r.moves.len(), children.len());
        for (m, child) in r.moves.iter().zip(&children) {
            let want: Value = record_of(child).parent();
            assert_eq!(
                (m.outcome, m.remoteness),
                (want.outcome(), want.remoteness())
            );
        }
        assert!(!r.winning_moves.is_empty());
        // Without the exact search, the proof search answers: outcomes only.
        limits.max_exact_nodes = 0;
        let r = report::solve(&spec, &limits).unwrap();
        assert_eq!(
            (r.outcome, r.remoteness, r.weak),
            (Outcome::Win, None, true)
        );
    }

    /// The published values of m,n,k-games too large for the other tests (5 × 5 with
    /// k = 4 is a draw; k = 3 on 3 × 5 and larger is a first-player win), by the exact
    /// search through `solve`: about 2 s in release.
    /// `cargo test --release -p grundy --lib games::mnk -- --ignored`
    #[test]
    #[ignore = "seconds in release, minutes in a test build"]
    fn larger_boards_have_their_published_values() {
        use crate::report::{self, Limits, Method};
        let mut limits = Limits::default();
        limits.control.max_positions = 1000;
        for (spec, outcome) in [
            ("mnk[5,5,4]", Outcome::Draw),
            ("mnk[3,5,3]", Outcome::Win),
            ("mnk[5,5,3]", Outcome::Win),
        ] {
            let spec: crate::games::Spec = spec.parse().unwrap();
            let r = report::solve(&spec, &limits).unwrap();
            assert_eq!((r.method, r.outcome), (Method::Search, outcome), "{spec}");
        }
    }

    /// Tic-tac-toe has 5 478 positions of play, the empty board included (Schaefer's
    /// count, before merging symmetries), and is a draw; the tier solver says so, and
    /// every tier record equals the search's value of that board.
    #[test]
    fn tictactoe_tiers_hold_5478_positions_and_a_draw() {
        use crate::explore::Control;
        use crate::tier::{record, solve, MemoryStore, Options};
        let game = Mnk::new(3, 3, 3);
        let tiers = game.tiers().unwrap();
        let mut store = MemoryStore::default();
        let solved = solve(
            tiers.game(),
            &mut store,
            &Options::default(),
            &|_| {},
            &Control::default(),
        )
        .unwrap();
        assert_eq!(solved.positions(), 5478);
        assert_eq!(record::value(solved.root), Some(crate::game::Value::Draw));
        crate::games::testing::records_equal_the_search(game.clone(), &store, 7, true);
        crate::games::testing::searches_equal_the_records(game.clone(), &store, 3);
    }
}
