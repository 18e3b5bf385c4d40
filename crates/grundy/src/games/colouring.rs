//! Colouring games on a grid board, Snort (Simon Norton) and Col (Colin Vout), both of
//! *Winning Ways* (CGSuite's `GenCol` on the grid's graph): a move colours one empty cell,
//! **Left blue (`x`), Right red (`o`)**, and who cannot move loses. Which empty cells a
//! player may colour depends only on the colours orthogonally next to them, as the
//! family's [`Rule`] ([`Shuns`]) says: in Snort never next to the other's colour, in Col
//! never next to one's own (two cells side by side are never of the same colour, and every
//! value of Col is a number or a number plus `*`, as the tests check on random boards).
//! Partizan. `snort[3x3]` is the empty 3 × 3 board with Left to move;
//! `col[2x3](x../.#o,right)` a board with a blue cell, a red one and a hole, Right to
//! move.
//!
//! A position is the blue cells, the red cells, the holes (`#`: squares that are not part
//! of the board) and who is to move, a bitboard each (cell `r·n + c`, row 0 at the top; at
//! most 64 cells), written as the board, rows from the top separated by `/`, `x`, `o`, `#`
//! or `.` (empty) a cell, then `right` when Right is to move: `snort[2x3](x../.#o,right)`.
//! No position means the empty board, Left to move.
//!
//! Its combinatorial game value ([`crate::cgt`]) is the sum of the values of its regions.
//! Only the empty cells matter, each with its tints (whether a blue cell, a red cell, or
//! both are next to it; the tinted graphs of CGSuite and cgt-tools): a cell next to both
//! colours is dead, neither player ever colours it, in either game; the other empty cells
//! fall into regions, the orthogonally connected groups of live cells, and a move changes
//! only its own region (it colours a cell and tints the cell's neighbours). Each region,
//! its cells and which of them are tinted blue or red, is turned to the least of its eight
//! images under the square's symmetries (which keep every neighbour) and memoised.

use std::fmt;
use std::marker::PhantomData;
use std::panic::{RefUnwindSafe, UnwindSafe};

use super::board::{self, Grid};
use super::family::{Bound, Drawing, GameRules, Picture, Pos};
use super::partizan::{self, no_extras, Symmetry, RIGHT};
use super::spec::{Args, Built, Entry, Options, Setting, SpecError};
use crate::cgt::{Context, GameId};
use crate::Error;

/// What one colouring game's rules are beyond the shared ones: its name, its memo's tag, and
/// which colour next to a cell forbids the mover to colour it.
pub trait Rule:
    fmt::Debug + Clone + Copy + PartialEq + Eq + Send + Sync + UnwindSafe + RefUnwindSafe + 'static
{
    /// The family's name in specs.
    const NAME: &'static str;
    /// The memo's tag for the family's regions (the first word of each key).
    const TAG: u64;
    /// Whether a player may not colour a cell next to their own colour (Col), rather than
    /// next to the other's (Snort).
    const SHUNS_OWN: bool;
}

/// A colouring game by `rule` on a `rows × columns` board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colouring<R: Rule> {
    /// Rows of the board.
    pub rows: u32,
    /// Columns of the board.
    pub columns: u32,
    rule: PhantomData<R>,
}

/// The most cells a board may have (one 64-bit bitboard a colour).
pub const MAX_CELLS: u64 = 64;

/// The cells marked in a spec, in the order of the position's first three words.
const MARKS: [char; 3] = ['x', 'o', '#'];

/// The cells that the mover (`right`: Right) may not colour, given the empty cells next to
/// a blue cell (`next_x`) and to a red one (`next_o`).
fn forbidden<R: Rule>(next_x: u64, next_o: u64, right: bool) -> u64 {
    if R::SHUNS_OWN != right {
        next_x
    } else {
        next_o
    }
}

/// The value of empty cells `empty`, `next_x` of them next to a blue cell and `next_o` next
/// to a red one, on `grid`: its live regions' values summed.
fn board_value<R: Rule>(
    empty: u64,
    next_x: u64,
    next_o: u64,
    grid: &Grid,
    context: &mut Context,
) -> Result<GameId, Error> {
    let live = empty & !(next_x & next_o);
    partizan::sum_of_regions(
        live,
        |set| grid.component(set),
        context,
        |region, context| {
            let planes = [region, next_x & region, next_o & region];
            let ([cells, tx, to], h, w) = grid.least_image(planes, Symmetry::Square);
            region_value::<R>(cells, tx, to, &Grid::by_rows(h, w), context).map(Some)
        },
    )
}

/// The value of one region (normalised, filling `grid`'s bounding box): `{ Left's colourings
/// | Right's }`, each option the value of the cells left with the coloured cell's
/// neighbours tinted, memoised.
fn region_value<R: Rule>(
    cells: u64,
    next_x: u64,
    next_o: u64,
    grid: &Grid,
    context: &mut Context,
) -> Result<GameId, Error> {
    let key = [R::TAG, cells, next_x, next_o, grid.shape_word()];
    partizan::memoised(&key, context, |right, context, side| {
        let mut free = cells & !forbidden::<R>(next_x, next_o, right);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free &= free - 1;
            let rest = cells & !bit;
            let near = grid.neighbours(bit) & rest;
            let (x, o) = if right {
                (next_x & rest, (next_o | near) & rest)
            } else {
                ((next_x | near) & rest, next_o & rest)
            };
            side.push(board_value::<R>(rest, x, o, grid, context)?);
        }
        Ok(())
    })
}

impl<R: Rule> Colouring<R> {
    /// The game on a `rows × columns` board (at most [`MAX_CELLS`] cells).
    #[must_use]
    pub fn new(rows: u32, columns: u32) -> Self {
        Colouring {
            rows,
            columns,
            rule: PhantomData,
        }
    }

    fn grid(&self) -> Grid {
        Grid::by_rows(self.rows, self.columns)
    }

    /// The empty board, Left to move.
    #[must_use]
    pub fn start(&self) -> Pos {
        Pos::from_slice(&[0, 0, 0, 0])
    }

    /// The empty cells of a position, and those of them next to a blue cell and to a red one.
    fn empty_and_tints(&self, pos: &Pos) -> (u64, u64, u64) {
        let grid = self.grid();
        let empty = grid.all() & !(pos[0] | pos[1] | pos[2]);
        (
            empty,
            grid.neighbours(pos[0]) & empty,
            grid.neighbours(pos[1]) & empty,
        )
    }

    /// The value of a position (any mover), as the sum of its regions' values.
    ///
    /// # Errors
    /// [`Error::OverLimit`] past the memory `context` allows.
    ///
    /// # Complexity
    /// Exponential in the live cells of the largest region in the worst case; each region
    /// (up to the board's symmetries) is valued once per context.
    pub fn value(&self, pos: &Pos, context: &mut Context) -> Result<GameId, Error> {
        let (empty, next_x, next_o) = self.empty_and_tints(pos);
        board_value::<R>(empty, next_x, next_o, &self.grid(), context)
    }
}

impl<R: Rule> GameRules for Colouring<R> {
    fn name(&self) -> String {
        format!("{}[{}x{}]", R::NAME, self.rows, self.columns)
    }

    partizan::mover_at!(3);

    fn write_position(&self, pos: &Pos, out: &mut String) {
        self.grid().write_marks(&pos[..3], &MARKS, out);
        partizan::write_mover(pos[3], out);
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let (empty, next_x, next_o) = self.empty_and_tints(pos);
        let right = pos[3] == RIGHT;
        let mut free = empty & !forbidden::<R>(next_x, next_o, right);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free &= free - 1;
            let mut child = pos.clone();
            child[usize::from(right)] |= bit;
            child[3] = 1 - pos[3];
            out.push(child);
        }
    }

    fn bound(&self, pos: &Pos) -> Bound {
        let empty = self.empty_and_tints(pos).0.count_ones();
        Bound {
            // Each empty cell empty, blue or red, either mover.
            positions: 2u128.saturating_mul(3u128.saturating_pow(empty)),
            moves: u128::from(empty),
        }
    }

    fn cgt_value(&self, pos: &Pos, context: &mut Context) -> Option<Result<GameId, Error>> {
        Some(self.value(pos, context))
    }
}

impl<R: Rule> Drawing for Colouring<R> {
    /// `b2`: the cell coloured.
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        board::placed(from, to).map_or_else(|| "no move".into(), |c| self.grid().cell_name(c))
    }

    /// The board as squares, `X` blue (Left's), `O` red (Right's), `#` a hole.
    fn picture(&self, pos: &Pos) -> Option<Picture> {
        Some(partizan::marks_picture(
            self.rows,
            self.columns,
            pos,
            &MARKS,
        ))
    }

    /// A move is clicked at the cell it colours.
    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        self.grid().move_cell(from, to)
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        let note = if pos[3] == RIGHT {
            "Right (o, red) to move"
        } else {
            "Left (x, blue) to move"
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

no_extras!(<R: Rule> Colouring<R>);

/// A colouring board's settings on the web page: up to 4 × 4, 3 × 3 first.
const SETTINGS: &[Setting] = &[
    Setting::range("rows", 1, 4, "3"),
    Setting::range("columns", 1, 4, "3"),
];

/// The registry entry of the colouring game of rule `R`: read by [`build`], boards of up
/// to 4 × 4 offered (3 × 3 first); `template` is `"NAME[{rows}x{columns}]"`.
pub const fn entry<R: Rule>(
    examples: &'static [&'static str],
    small: &'static [&'static str],
    shape: &'static str,
    template: &'static str,
) -> Entry {
    Entry {
        name: R::NAME,
        examples,
        small,
        shape,
        build: build::<R>,
        options: Options {
            template,
            settings: SETTINGS,
        },
    }
}

/// Reads `rule[rows x columns](board,right)`: the registry's `build` of a colouring game.
///
/// # Errors
/// A size out of range, a board that does not fit it, a cell that is not `x`, `o`, `#` or
/// `.`, a mover that is not `left` or `right`.
pub fn build<R: Rule>(args: &Args<'_>) -> Result<Built, SpecError> {
    let grid = partizan::grid_size(args, R::NAME, MAX_CELLS)?;
    let family = Colouring::<R>::new(grid.rows, grid.columns);
    let Some(items) = args.position() else {
        return Ok(Built::new(family, Some(family.start())));
    };
    let example = format!("{}[2x3](x../.#o,right)", R::NAME);
    let (text, at, mover) = partizan::grid_and_mover(args, items, &example)?;
    let cell_is = "a cell is `x` (Left's, blue), `o` (Right's, red), `#` (a hole) or `.` (empty)";
    let [x, o, holes] = grid.read_marks(args, text, at, MARKS, cell_is)?;
    Ok(Built::new(
        family,
        Some(Pos::from_slice(&[x, o, holes, mover])),
    ))
}

/// The rule of the colouring game where a player may not colour a cell next to their
/// own colour (`OWN`: Col) or next to the other's (Snort).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shuns<const OWN: bool>;

impl<const OWN: bool> Rule for Shuns<OWN> {
    const NAME: &'static str = if OWN { "col" } else { "snort" };
    const TAG: u64 = u64::from_le_bytes(if OWN { *b"col....." } else { *b"snort..." });
    const SHUNS_OWN: bool = OWN;
}

/// `snort[rows x columns]`.
pub type Snort = Colouring<Shuns<false>>;

/// `col[rows x columns]`.
pub type Col = Colouring<Shuns<true>>;

/// The registry entries of this file: Snort's and Col's.
pub const ENTRIES: &[Entry] = &[
    entry::<Shuns<false>>(
        &["snort[3x3]", "snort[2x4](x.../..#o,right)"],
        &["snort[2x3]", "snort[1x5](x..#.,right)", "snort[3x3](.#./.../o.x)"],
        "snort[m x n](board,right): colour an empty cell, never next to the other's colour; Left blue `x`, Right red `o` (rows from the top, `.` empty, `#` a hole; `right`: Right to move; no position: the empty board, Left to move)",
        "snort[{rows}x{columns}]",
    ),
    entry::<Shuns<true>>(
        &["col[3x3]", "col[2x4](x.../..#o,right)"],
        &["col[2x3]", "col[1x5](x..#.,right)", "col[3x3](.#./.../o.x)"],
        "col[m x n](board,right): colour an empty cell, never next to one's own colour; Left blue `x`, Right red `o` (rows from the top, `.` empty, `#` a hole; `right`: Right to move; no position: the empty board, Left to move)",
        "col[{rows}x{columns}]",
    ),
];

#[cfg(test)]
mod tests {
    use crate::games::testing::{
        all_refused, cgt_context as context, cgt_value_of as value, checked_value, grid_board,
        prints_as, refuses_a_small_memory_bound,
    };

    /// Both colouring games read and print their specs alike, and refuse the same.
    #[test]
    fn specs_read_and_print_back() {
        for name in ["snort", "col"] {
            prints_as(&format!("{name}[2x2]"), &format!("{name}[2x2](../..)"));
            prints_as(
                &format!("{name}[1x4](X#O., right)"),
                &format!("{name}[1x4](x#o.,right)"),
            );
            let refused = [
                "",
                "[9x9]",
                "[0x2]",
                "[3]",
                "[1x3](x.)",
                "[1x3](x.q)",
                "[1x3](x..,up)",
                "[1x3](x..,right,left)",
                "[2x2](../../..)",
            ]
            .map(|rest| format!("{name}{rest}"));
            all_refused(&refused.iter().map(String::as_str).collect::<Vec<_>>());
        }
    }

    /// A board of even sides, its holes symmetric through the centre, is 0 in both
    /// games: the second player answers each move by the cell opposite it through the
    /// centre in their own colour, which is always allowed (on even sides no cell is next
    /// to its opposite, and the board stays symmetric with the colours swapped).
    #[test]
    fn even_boards_are_second_player_wins() {
        let mut c = context();
        for name in ["snort", "col"] {
            for board in ["[2x2]", "[2x4]", "[4x4]", "[2x6](....#./.#....)"] {
                let spec = format!("{name}{board}");
                assert_eq!(value(&spec, &mut c).1, "0", "{spec}");
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

        /// On random boards of up to 3 × 3 (about two cells in five empty) of either game:
        /// the value by regions equals the plain recursion's over the family's own moves,
        /// its class is who wins by plain minimax, Left first and Right first, and in Col it
        /// is a number or a number plus `*` (*Winning Ways*: every Col position is).
        #[test]
        fn values_are_right_on_random_boards(
            own in proptest::bool::ANY, rows in 1usize..4, columns in 1usize..4,
            cells in proptest::collection::vec(0u8..5, 9),
        ) {
            let name = if own { "col" } else { "snort" };
            let spec = format!("{name}[{rows}x{columns}]({})", grid_board(&cells, rows, columns, &['.', '.', 'x', 'o', '#']));
            let (mut c, g) = checked_value(&spec);
            proptest::prop_assert!(!own || col::number_or_number_star(&mut c, g), "{}", spec);
        }
    }

    /// A memory bound too small is a refusal, not an unbounded allocation.
    #[test]
    fn a_small_memory_bound_is_refused() {
        refuses_a_small_memory_bound("snort[4x4]");
        refuses_a_small_memory_bound("col[4x4]");
    }

    /// Snort's own values and moves.
    mod snort {
        use crate::cgt::{read, Context};
        use crate::games::testing::{
            cgt_context as context, cgt_value_of as value, checked_value, named_moves,
        };

        /// The form CGSuite writes, read into `context`'s table.
        fn form(context: &mut Context, text: &str) -> crate::cgt::GameId {
            read(&mut context.table, text).unwrap()
        }

        /// Values worked by hand from the rules: one cell is `{0|0}` = `*`; two cells side by
        /// side are `{1|-1}` = `±1` (after either colours one, only they may colour the
        /// other); a cell next to blue is Left's alone, 1, next to red -1, next to both dead,
        /// 0; two apart add to 0.
        #[test]
        fn small_boards() {
            let mut c = context();
            for (spec, text) in [
                ("snort[1x1]", "*"),
                ("snort[1x2]", "±1"),
                ("snort[1x2](x.)", "1"),
                ("snort[2x1](o/.)", "-1"),
                ("snort[1x3](x.o)", "0"),
                ("snort[1x5](..#..)", "0"),
                ("snort[1x2](xo)", "0"),
            ] {
                assert_eq!(value(spec, &mut c).1, text, "{spec}");
            }
        }

        /// CGSuite's own test cases of Snort (its `GameGraphTest`, on graphs), laid on the
        /// grid with holes: `Snort("L-.-.-.-L")`, a path of five vertices whose ends are
        /// tinted Left's (next to a blue vertex), is `{4|0,+-1}`; `Snort(".-.-.(-.;-.)")`, a
        /// path of three with two leaves on its end, is `+-{3|2}`. And cgt-tools' (its
        /// `snort.rs` tests, a cluster of independent vertices): ten cells apart are 0, eleven
        /// `*`.
        #[test]
        fn published_values() {
            let mut c = context();
            let (g, text) = value("snort[1x7](x.....x)", &mut c);
            assert_eq!(g, form(&mut c, "{4|0,{1|-1}}"), "{text}");
            let (g, text) = value("snort[3x3](##./.../##.)", &mut c);
            assert_eq!(g, form(&mut c, "{{3|2}|{-2|-3}}"), "{text}");
            let apart = |n: usize| format!("snort[1x{}]({})", 2 * n - 1, vec!["."; n].join("#"));
            assert_eq!(value(&apart(10), &mut c).1, "0");
            assert_eq!(value(&apart(11), &mut c).1, "*");
        }

        /// Turned and mirrored regions share one memo entry, and regions apart add.
        #[test]
        fn regions_add_and_turns_agree() {
            let mut c = context();
            let (a, _) = value("snort[2x3](x../#..)", &mut c);
            let memo = c.memo_len();
            let (b, _) = value("snort[3x2](x#/../..)", &mut c);
            assert_eq!(a, b);
            assert_eq!(c.memo_len(), memo, "the turned board is the board's entry");
            let (two, _) = value("snort[2x7](x..#..x/#..#..#)", &mut c);
            let (one, _) = value("snort[2x3](x../#..)", &mut c);
            assert_eq!(c.table.sum(one, one).unwrap(), two);
            for spec in ["snort[2x3]", "snort[3x3]", "snort[2x4](x.../..#o)"] {
                checked_value(spec);
            }
        }

        #[test]
        fn moves_are_named_clicked_and_drawn() {
            // Right may not colour b1, next to blue; neither colours the hole.
            let (family, pos, children, names) = named_moves("snort[2x2](x./#.)");
            assert_eq!(names, ["b1", "b2"]);
            assert_eq!(family.move_cell(&pos, &children[0]), Some((0, 1)));
            assert_eq!(
                family.draw(&pos).unwrap(),
                "   a b Left (x, blue) to move\n 1 X .\n 2 # .\n"
            );
            let picture = family.picture(&pos).unwrap();
            assert_eq!(picture.cells, ["X", "", "#", ""]);
            let (_, _, _, names) = named_moves("snort[2x2](x./#.,right)");
            assert_eq!(names, ["b2"]);
        }
    }

    /// Col's own values and moves.
    mod col {
        use crate::cgt::{Context, GameId};
        use crate::games::testing::{
            cgt_context as context, cgt_value_of as value, checked_value, named_moves,
        };

        /// Values worked by hand from the rules: one cell is `{0|0}` = `*`; two cells side by
        /// side are `{-1|1}` = 0 (after Left colours one, only Right may colour the other, and
        /// the other way round); a cell next to blue is Right's alone, -1, next to red Left's,
        /// 1, next to both dead, 0. A row of three: Left in the middle leaves two cells of
        /// Right's (-2); at an end, a cell of Right's beside a free one, `{-1|0,1}` = -1/2; so
        /// the row is `{-1/2|1/2}` = 0.
        #[test]
        fn small_boards() {
            let mut c = context();
            for (spec, text) in [
                ("col[1x1]", "*"),
                ("col[1x2]", "0"),
                ("col[1x2](x.)", "-1"),
                ("col[2x1](o/.)", "1"),
                ("col[1x3](x.o)", "0"),
                ("col[1x3](x.x)", "-1"),
                ("col[1x3]", "0"),
                ("col[1x5](.#.#.)", "*"),
            ] {
                assert_eq!(value(spec, &mut c).1, text, "{spec}");
            }
        }

        /// Whether `g` is a number or a number plus `*`: its stops agree, and it is that
        /// number or that number plus `*`.
        pub(super) fn number_or_number_star(c: &mut Context, g: GameId) -> bool {
            let stop = c.table.left_stop(g);
            if stop != c.table.right_stop(g) {
                return false;
            }
            let x = c.table.number(stop);
            let star = c.table.star();
            let x_star = c.table.sum(x, star).unwrap();
            g == x || g == x_star
        }

        /// Larger boards are numbers or numbers plus `*` too, and turned boards are equal.
        #[test]
        fn boards_are_numbers_or_numbers_star() {
            let mut c = context();
            for spec in [
                "col[3x3]",
                "col[3x4]",
                "col[4x4](..../.#../..o./x...)",
                "col[2x6]",
            ] {
                let (g, text) = value(spec, &mut c);
                assert!(number_or_number_star(&mut c, g), "{spec}: {text}");
            }
            let (a, _) = value("col[2x3](x../#..)", &mut c);
            let (b, _) = value("col[3x2](x#/../..)", &mut c);
            assert_eq!(a, b);
            for spec in ["col[2x3]", "col[3x3]", "col[2x4](x.../..#o)"] {
                checked_value(spec);
            }
        }

        #[test]
        fn moves_are_named_and_drawn() {
            // Left may not colour b1, next to blue; neither colours the hole.
            let (family, pos, _, names) = named_moves("col[2x2](x./#.)");
            assert_eq!(names, ["b2"]);
            assert_eq!(
                family.draw(&pos).unwrap(),
                "   a b Left (x, blue) to move\n 1 X .\n 2 # .\n"
            );
            let (_, _, _, names) = named_moves("col[2x2](x./#.,right)");
            assert_eq!(names, ["b1", "b2"]);
        }
    }
}
