//! The Game of the Amazons (Walter Zamkauskas, 1988) on an m × n board: a move is a queen
//! move of one of the mover's amazons (any distance, in one of the eight directions, over
//! empty squares), then an arrow shot from the square it lands on, again a queen move over
//! empty squares (the square the amazon left is empty by then), which burns the square the
//! arrow stops on for the rest of the game; who cannot move loses. **Left plays `x`**
//! (CGSuite's and cgt-tools' Left), **Right plays `o`**. Partizan.
//!
//! A position is Left's amazons, Right's, the burnt squares and who is to move, a bitboard
//! each (cell `r·n + c`, row 0 at the top; at most 64 cells), written as the board, rows
//! from the top separated by `/`, `x`, `o`, `#` (burnt) or `.` (empty) a square, then
//! `right` when Right is to move: `amazons[3x4](x..#/..../.#.o)`,
//! `amazons[1x4](x..o,right)`. No position means the empty board with one amazon each,
//! Left's in the top left corner and Right's in the bottom right one (Left's alone on a
//! board of one square), Left to move.
//!
//! Its combinatorial game value ([`crate::cgt`]) is the sum of the values of its regions:
//! the groups of unburnt squares connected through the eight neighbours of a square (a
//! queen move steps from a square to one of its eight neighbours at a time, so neither an
//! amazon nor an arrow ever leaves its region, and a burnt square never comes back). A
//! region without an amazon has no move for either player and is left out (its value is
//! `{ | }` = 0); the others are moved to the top left of their bounding box, turned to the
//! least of their eight images under the square's symmetries (which keep every queen
//! move), and memoised, whichever amazons they hold.

use super::board::{self, Grid};
use super::family::{Bound, Drawing, GameRules, Picture, Pos};
use super::partizan::{self, no_extras, Symmetry, RIGHT};
use super::spec::{Args, Built, Entry, Options, Setting, SpecError};
use crate::cgt::{Context, GameId};
use crate::Error;

/// `amazons[rows x columns]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Amazons {
    /// Rows of the board.
    pub rows: u32,
    /// Columns of the board.
    pub columns: u32,
}

/// The most cells a board may have (one 64-bit bitboard a plane).
pub const MAX_CELLS: u64 = 64;

/// The memo's tag for Amazons regions (the first word of each key).
const TAG: u64 = u64::from_le_bytes(*b"amazons.");

/// The squares marked in a spec, in the order of the position's first three words.
const MARKS: [char; 3] = ['x', 'o', '#'];

/// `set << k`, nothing past the word.
#[inline]
fn up(set: u64, k: u32) -> u64 {
    set.checked_shl(k).unwrap_or(0)
}

/// `set >> k`, nothing past the word.
#[inline]
fn down(set: u64, k: u32) -> u64 {
    set.checked_shr(k).unwrap_or(0)
}

/// The masks of a board numbered by rows that queen moves and regions need: the eight
/// directions as shifts.
#[derive(Debug, Clone, Copy)]
struct Lines {
    /// The board.
    grid: Grid,
    /// Columns.
    columns: u32,
    /// Every cell.
    all: u64,
    /// The cells with a neighbour to their right (not in the last column).
    not_last: u64,
    /// The cells with a neighbour to their left (not in the first column).
    not_first: u64,
    /// `(rows, columns)` as one word, for memo keys.
    shape: u64,
}

impl Lines {
    fn new(grid: &Grid) -> Lines {
        let all = grid.all();
        let columns = grid.columns;
        let first = (0..grid.rows).fold(0u64, |acc, r| acc | 1 << (r * columns));
        let last = up(first, columns - 1);
        Lines {
            grid: *grid,
            columns,
            all,
            not_last: all & !last,
            not_first: all & !first,
            shape: grid.shape_word(),
        }
    }

    /// `set` moved one step in direction `d` (0 to 7: east, west, south, north, then
    /// south-east, south-west, north-east, north-west), what leaves the board dropped.
    #[inline]
    fn step(&self, set: u64, d: usize) -> u64 {
        let n = self.columns;
        match d {
            0 => up(set & self.not_last, 1),
            1 => down(set & self.not_first, 1),
            2 => up(set, n) & self.all,
            3 => down(set, n),
            4 => up(set & self.not_last, n + 1) & self.all,
            5 => up(set & self.not_first, n - 1) & self.all,
            6 => down(set & self.not_last, n - 1),
            _ => down(set & self.not_first, n + 1),
        }
    }

    /// The squares a queen on `from` (one cell) reaches over the cells of `open`.
    #[inline]
    fn queen(&self, from: u64, open: u64) -> u64 {
        let mut reach = 0;
        for d in 0..8 {
            let mut ray = self.step(from, d) & open;
            while ray != 0 {
                reach |= ray;
                ray = self.step(ray, d) & open;
            }
        }
        reach
    }

    /// The cells of `set` and their eight neighbours.
    #[inline]
    fn king(&self, set: u64) -> u64 {
        let row = set | up(set & self.not_last, 1) | down(set & self.not_first, 1);
        row | (up(row, self.columns) & self.all) | down(row, self.columns)
    }

    /// The part of `set` connected through the eight neighbours to its lowest cell.
    fn component(&self, set: u64) -> u64 {
        let mut part = set & set.wrapping_neg();
        loop {
            let next = self.king(part) & set;
            if next == part {
                return part;
            }
            part = next;
        }
    }
}

/// Each move of `own` amazons among `open` empty cells as `(from, to, arrow)`, one cell
/// each as a mask, passed to `each`.
fn each_move(own: u64, open: u64, lines: &Lines, mut each: impl FnMut(u64, u64, u64)) {
    let mut amazons = own;
    while amazons != 0 {
        let from = amazons & amazons.wrapping_neg();
        amazons &= amazons - 1;
        // The square left is open to the arrow.
        let vacated = open | from;
        let mut tos = lines.queen(from, open);
        while tos != 0 {
            let to = tos & tos.wrapping_neg();
            tos &= tos - 1;
            let after = vacated & !to;
            let mut arrows = lines.queen(to, after);
            while arrows != 0 {
                let arrow = arrows & arrows.wrapping_neg();
                arrows &= arrows - 1;
                each(from, to, arrow);
            }
        }
    }
}

/// The value of amazons `x` and `o` among empty cells `open` on `lines`' board (every
/// other cell burnt): its regions' values summed, a region without an amazon left out.
fn board_value(
    x: u64,
    o: u64,
    open: u64,
    lines: &Lines,
    context: &mut Context,
) -> Result<GameId, Error> {
    partizan::sum_of_regions(
        x | o | open,
        |set| lines.component(set),
        context,
        |region, context| {
            if region & (x | o) == 0 {
                return Ok(None);
            }
            // The square's symmetries keep every queen move.
            let ([rx, ro, ropen], h, w) = lines
                .grid
                .least_image([x & region, o & region, open & region], Symmetry::Square);
            let lines = Lines::new(&Grid::by_rows(h, w));
            region_value(rx, ro, ropen, &lines, context).map(Some)
        },
    )
}

/// The value of one region (normalised, filling `lines`' bounding box): `{ Left's moves |
/// Right's moves }`, each option the value of what is left, memoised.
fn region_value(
    x: u64,
    o: u64,
    open: u64,
    lines: &Lines,
    context: &mut Context,
) -> Result<GameId, Error> {
    let key = [TAG, x, o, open, lines.shape];
    partizan::memoised(&key, context, |right, context, side| {
        let own = if right { o } else { x };
        let mut result = Ok(());
        each_move(own, open, lines, |from, to, arrow| {
            if result.is_err() {
                return;
            }
            let moved = own ^ from ^ to;
            let rest = (open | from) & !(to | arrow);
            let (cx, co) = if right { (x, moved) } else { (moved, o) };
            match board_value(cx, co, rest, lines, context) {
                Ok(v) => side.push(v),
                Err(e) => result = Err(e),
            }
        });
        result?;
        side.sort_unstable();
        side.dedup();
        Ok(())
    })
}

impl Amazons {
    fn grid(&self) -> Grid {
        Grid::by_rows(self.rows, self.columns)
    }

    /// One amazon each, Left's in the top left corner and Right's in the bottom right
    /// (none of Right's on a board of one square), Left to move.
    #[must_use]
    pub fn start(&self) -> Pos {
        let last = self.rows * self.columns - 1;
        let o = if last > 0 { 1u64 << last } else { 0 };
        Pos::from_slice(&[1, o, 0, 0])
    }

    /// The empty squares of a position.
    fn open(&self, pos: &Pos) -> u64 {
        self.grid().all() & !(pos[0] | pos[1] | pos[2])
    }

    /// The value of a position (any mover), as the sum of its regions' values.
    ///
    /// # Errors
    /// [`Error::OverLimit`] past the memory `context` allows.
    ///
    /// # Complexity
    /// Exponential in the empty squares of the largest region in the worst case; each
    /// region (up to the board's symmetries) is valued once per context.
    pub fn value(&self, pos: &Pos, context: &mut Context) -> Result<GameId, Error> {
        let lines = Lines::new(&self.grid());
        board_value(pos[0], pos[1], self.open(pos), &lines, context)
    }

    /// The move `from` → `to`: the square the amazon left, the one it reached, and the
    /// one its arrow burnt.
    fn the_move(&self, from: &Pos, to: &Pos) -> Option<(u32, u32, u32)> {
        let side = usize::from(from[3] == RIGHT);
        let left = from[side] & !to[side];
        let reached = to[side] & !from[side];
        let burnt = to[2] & !from[2];
        (left.count_ones() == 1 && reached.count_ones() == 1 && burnt.count_ones() == 1).then(
            || {
                (
                    left.trailing_zeros(),
                    reached.trailing_zeros(),
                    burnt.trailing_zeros(),
                )
            },
        )
    }
}

impl GameRules for Amazons {
    fn name(&self) -> String {
        format!("amazons[{}x{}]", self.rows, self.columns)
    }

    partizan::mover_at!(3);

    fn write_position(&self, pos: &Pos, out: &mut String) {
        self.grid().write_marks(&pos[..3], &MARKS, out);
        partizan::write_mover(pos[3], out);
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let right = pos[3] == RIGHT;
        let side = usize::from(right);
        let lines = Lines::new(&self.grid());
        each_move(pos[side], self.open(pos), &lines, |from, to, arrow| {
            let mut child = pos.clone();
            child[side] ^= from | to;
            child[2] |= arrow;
            child[3] = 1 - pos[3];
            out.push(child);
        });
    }

    fn bound(&self, pos: &Pos) -> Bound {
        let amazons = (pos[0] | pos[1]).count_ones();
        let open = self.open(pos).count_ones();
        let squares = amazons + open;
        Bound {
            // Each unburnt square an amazon of either, empty or burnt, either mover.
            positions: 2u128.saturating_mul(4u128.saturating_pow(squares)),
            // An empty square to land on, then one of at most as many to shoot at (the
            // square left is open, the one reached is not), for each amazon.
            moves: u128::from(amazons) * u128::from(open) * u128::from(open),
        }
    }

    fn cgt_value(&self, pos: &Pos, context: &mut Context) -> Option<Result<GameId, Error>> {
        Some(self.value(pos, context))
    }
}

impl Drawing for Amazons {
    /// `a1-c3/c1`: the square the amazon leaves, the one it reaches, and the one its
    /// arrow burns (the usual notation of Amazons games).
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        match self.the_move(from, to) {
            Some((a, b, c)) => {
                let grid = self.grid();
                format!(
                    "{}-{}/{}",
                    grid.cell_name(a),
                    grid.cell_name(b),
                    grid.cell_name(c)
                )
            }
            None => "no move".into(),
        }
    }

    /// The board as squares, `X` Left's amazons, `O` Right's, `#` a burnt square.
    fn picture(&self, pos: &Pos) -> Option<Picture> {
        Some(partizan::marks_picture(
            self.rows,
            self.columns,
            pos,
            &MARKS,
        ))
    }

    /// A move is clicked at the amazon moved, and ends where it lands.
    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        self.the_move(from, to)
            .map(|(a, _, _)| self.grid().place(a))
    }

    fn move_end(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        self.the_move(from, to)
            .map(|(_, b, _)| self.grid().place(b))
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        let note = if pos[3] == RIGHT {
            "Right (o) to move"
        } else {
            "Left (x) to move"
        };
        let marks = MARKS.map(|m| m.to_ascii_uppercase());
        Some(board::trim_lines(&self.grid().lettered_marks(
            &pos[..3],
            &marks,
            note,
            false,
        )))
    }
}

no_extras!(Amazons);

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    let grid = partizan::grid_size(args, "amazons", MAX_CELLS)?;
    let family = Amazons {
        rows: grid.rows,
        columns: grid.columns,
    };
    let Some(items) = args.position() else {
        return Ok(Built::new(family, Some(family.start())));
    };
    let example = "amazons[3x4](x..#/..../.#.o,right)";
    let (text, at, mover) = partizan::grid_and_mover(args, items, example)?;
    let cell_is = "a square is `x` (Left's amazon), `o` (Right's), `#` (burnt) or `.` (empty)";
    let [x, o, burnt] = grid.read_marks(args, text, at, MARKS, cell_is)?;
    Ok(Built::new(
        family,
        Some(Pos::from_slice(&[x, o, burnt, mover])),
    ))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "amazons",
    examples: &["amazons[3x3]", "amazons[3x4](x..#/..../.#.o)"],
    small: &[
        "amazons[2x3]",
        "amazons[1x5](x.#.o,right)",
        "amazons[3x3](x.#/.../#.o)",
    ],
    shape: "amazons[m x n](board,right): move an amazon like a chess queen over empty squares, then shoot an arrow from where it lands, again like a queen, burning the square it stops on; Left `x`, Right `o` (rows from the top, `.` empty, `#` burnt; `right`: Right to move; no position: the empty board with Left's amazon in the top left corner and Right's in the bottom right, Left to move)",
    build,
    options: Options {
        template: "amazons[{rows}x{columns}]",
        settings: &[
            Setting::range("rows", 1, 4, "3"),
            Setting::range("columns", 1, 4, "3"),
        ],
    },
}];

#[cfg(test)]
mod tests {
    use crate::games::testing::{
        all_refused, cgt_context as context, cgt_value_of as value, checked_value, grid_board,
        named_moves, prints_as, refuses_a_small_memory_bound,
    };
    use crate::games::Spec;

    /// Values worked by hand from the rules: a lone amazon beside one empty square moves
    /// there and burns the square it left, 1; on a row of three, from its end, it has
    /// moves to 0 and to 1, so 2; `x.o` is `{0|0}` = `*` (either amazon steps into the
    /// middle and burns the square it left, and both are stuck); the colours swapped are
    /// the negative; amazons with no empty square, or behind burnt squares, are 0.
    #[test]
    fn small_boards() {
        let mut c = context();
        for (spec, text) in [
            ("amazons[1x2](x.)", "1"),
            ("amazons[1x2](.o)", "-1"),
            ("amazons[1x3](x..)", "2"),
            ("amazons[3x1](./o/.)", "-2"),
            ("amazons[1x3](x.o)", "*"),
            ("amazons[1x3](x.o,right)", "*"),
            ("amazons[2x2](xo/ox)", "0"),
            ("amazons[1x4](x#.o)", "-1"),
            ("amazons[2x2](x#/#.)", "1"),
            ("amazons[1x1]", "0"),
            ("amazons[2x2](../..)", "0"),
        ] {
            assert_eq!(value(spec, &mut c).1, text, "{spec}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

        /// On random boards of up to 3 × 3 or 2 × 4 (about half the squares empty, the rest
        /// amazons of either and burnt squares): the value by regions equals the plain
        /// recursion's over the family's own moves on the whole board, and its class is who
        /// wins by plain minimax, Left first and Right first.
        #[test]
        fn values_are_right_on_random_boards(
            wide in proptest::bool::ANY, rows in 1usize..4, columns in 1usize..4,
            cells in proptest::collection::vec(0u8..6, 9),
        ) {
            let (rows, columns) = if wide { (rows.min(2), columns + 1) } else { (rows, columns) };
            let spec = format!("amazons[{rows}x{columns}]({})", grid_board(&cells, rows, columns, &['.', '.', '.', 'x', 'o', '#']));
            checked_value(&spec);
        }
    }

    /// Regions apart add, a diagonal step joins two squares into one region, and the
    /// eight turns of a region share one memo entry.
    #[test]
    fn regions_add_and_turns_agree() {
        let mut c = context();
        let (one, _) = value("amazons[1x3](x..)", &mut c);
        let (two, _) = value("amazons[1x7](x..#..x)", &mut c);
        assert_eq!(c.table.sum(one, one).unwrap(), two);
        // Through the diagonal, Left's amazon reaches b2 and beyond: not 0.
        let (g, text) = value("amazons[2x3](x#./#..)", &mut c);
        assert_ne!(g, c.table.zero(), "{text}");
        let (a, _) = value("amazons[2x3](x../#.o)", &mut c);
        let memo = c.memo_len();
        let (b, _) = value("amazons[3x2](#x/../o.)", &mut c);
        assert_eq!(a, b);
        assert_eq!(c.memo_len(), memo, "the turned board is the board's entry");
        for spec in ["amazons[2x3]", "amazons[3x3]", "amazons[2x4](x.../..#o)"] {
            checked_value(spec);
        }
    }

    #[test]
    fn specs_read_and_print_back() {
        prints_as("amazons[2x3]", "amazons[2x3](x../..o)");
        prints_as("amazons[1x1]", "amazons[1x1](x)");
        prints_as("amazons[1x4](X#O., right)", "amazons[1x4](x#o.,right)");
        all_refused(&[
            "amazons",
            "amazons[9x9]",
            "amazons[0x2]",
            "amazons[3]",
            "amazons[1x3](x.)",
            "amazons[1x3](x.q)",
            "amazons[1x3](x..,up)",
            "amazons[1x3](x..,right,left)",
            "amazons[2x2](../../..)",
        ]);
        // A wrong square is named, at its column.
        let err = "amazons[2x3](x../.*o)".parse::<Spec>().unwrap_err();
        assert!(err.message.contains("found `*`"), "{}", err.message);
        assert_eq!(err.column, 19, "{}", err.message);
    }

    #[test]
    fn moves_are_named_clicked_and_drawn() {
        // Left's amazon steps to b2 and shoots back at a1 or on to c1; Right's has two
        // squares to reach.
        let (family, pos, children, names) = named_moves("amazons[2x3](x#./#.o)");
        assert_eq!(names, ["a1-b2/a1", "a1-b2/c1"]);
        assert_eq!(family.move_cell(&pos, &children[1]), Some((0, 0)));
        assert_eq!(family.move_end(&pos, &children[1]), Some((1, 1)));
        assert_eq!(
            family.draw(&pos).unwrap(),
            "   a b c Left (x) to move\n 1 X # .\n 2 # . O\n"
        );
        let picture = family.picture(&pos).unwrap();
        assert_eq!(picture.cells, ["X", "#", "", "#", "", "O"]);
        let (_, _, _, names) = named_moves("amazons[2x3](x#./#.o,right)");
        assert_eq!(names, ["c2-c1/b2", "c2-c1/c2", "c2-b2/c1", "c2-b2/c2"]);
    }

    /// A memory bound too small is a refusal, not an unbounded allocation.
    #[test]
    fn a_small_memory_bound_is_refused() {
        refuses_a_small_memory_bound("amazons[3x3]");
    }
}
