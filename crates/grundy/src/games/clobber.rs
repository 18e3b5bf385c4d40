//! Clobber (Albert, Grossman and Nowakowski, 2001) on an m × n board of stones: a player
//! moves one of their stones onto an orthogonally adjacent stone of the other's,
//! capturing it (the captured stone leaves the board, the moved one's square is left
//! empty); who cannot move loses. **Left plays `x`** (blue; CGSuite's and *Lessons in
//! Play*'s Left), **Right plays `o`**. Partizan.
//!
//! A position is the stones (a bitboard each, cell `r·n + c`, row 0 at the top; at most
//! 64 cells) and who is to move, written as the board, rows from the top separated by
//! `/`, `x` and `o` the stones, `.` an empty square, then `right` when Right is to move:
//! `clobber[2x3](xo./ox.)`, `clobber[1x3](xxo,right)`. No position means the full board
//! in a checkerboard, `x` in the top left corner, Left to move.
//!
//! Its combinatorial game value ([`crate::cgt`]) is the sum of the values of its regions:
//! the orthogonally connected groups of stones (a move keeps a stone in its group's
//! squares and only ever empties one, so groups never meet again). A group of one colour
//! has no moves and is left out; the others are moved to the top left of their bounding
//! box, turned to the least of their eight images under the square's symmetries (which
//! keep every move), and memoised.

use super::board::Grid;
use super::family::{Bound, Drawing, GameRules, Look, Picture, Pos};
use super::partizan::{self, no_extras, Symmetry, RIGHT};
use super::spec::{Args, Built, Entry, Options, Setting, SpecError};
use crate::cgt::{Context, GameId};
use crate::Error;

/// `clobber[rows x columns]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clobber {
    /// Rows of the board.
    pub rows: u32,
    /// Columns of the board.
    pub columns: u32,
}

/// The most cells a board may have (one 64-bit bitboard a colour).
pub const MAX_CELLS: u64 = 64;

/// The memo's tag for Clobber groups (the first word of each key).
const TAG: u64 = u64::from_le_bytes(*b"clobber.");

/// Every move of the mover (`right`: `o`'s) as `(from, to)` cells, in order of `from`
/// then `to`.
fn each_move(x: u64, o: u64, grid: &Grid, right: bool) -> Vec<(u32, u32)> {
    let (own, other) = if right { (o, x) } else { (x, o) };
    let mut out = Vec::new();
    let mut from_set = own & grid.neighbours(other);
    while from_set != 0 {
        let from = from_set.trailing_zeros();
        from_set &= from_set - 1;
        let mut to_set = grid.neighbours(1u64 << from) & other;
        while to_set != 0 {
            let to = to_set.trailing_zeros();
            to_set &= to_set - 1;
            out.push((from, to));
        }
    }
    out
}

/// The stones after the move `from` → `to`.
fn moved(x: u64, o: u64, right: bool, (from, to): (u32, u32)) -> (u64, u64) {
    let (f, t) = (1u64 << from, 1u64 << to);
    if right {
        (x & !t, o & !f | t)
    } else {
        (x & !f | t, o & !t)
    }
}

impl Clobber {
    fn grid(&self) -> Grid {
        Grid::by_rows(self.rows, self.columns)
    }

    fn full(&self) -> u64 {
        self.grid().all()
    }

    /// The full board in a checkerboard, `x` at the top left, Left to move.
    #[must_use]
    pub fn start(&self) -> Pos {
        let mut x = 0;
        for r in 0..self.rows {
            for c in 0..self.columns {
                if (r + c) % 2 == 0 {
                    x |= 1u64 << (r * self.columns + c);
                }
            }
        }
        Pos::from_slice(&[x, self.full() & !x, 0])
    }

    /// The value of stones `x` and `o` (any mover), as the sum of its groups' values.
    ///
    /// # Errors
    /// [`Error::OverLimit`] past the memory `context` allows.
    ///
    /// # Complexity
    /// Exponential in the stones of the largest group in the worst case; each group (up
    /// to the board's symmetries) is valued once per context.
    pub fn value(&self, x: u64, o: u64, context: &mut Context) -> Result<GameId, Error> {
        board_value(x & self.full(), o & self.full(), &self.grid(), context)
    }
}

/// The value of stones on `grid`: its groups' values summed, a group of one colour (no
/// capture) left out.
fn board_value(x: u64, o: u64, grid: &Grid, context: &mut Context) -> Result<GameId, Error> {
    partizan::sum_of_regions(
        x | o,
        |set| grid.component(set),
        context,
        |group, context| {
            if group & x == 0 || group & o == 0 {
                return Ok(None);
            }
            // The square's symmetries keep every capture.
            let ([gx, go], h, w) = grid.least_image([x & group, o & group], Symmetry::Square);
            group_value(gx, go, &Grid::by_rows(h, w), context).map(Some)
        },
    )
}

/// The value of one group (normalised, filling `grid`'s bounding box): `{ x's captures |
/// o's captures }`, each option the value of what is left, memoised.
fn group_value(x: u64, o: u64, grid: &Grid, context: &mut Context) -> Result<GameId, Error> {
    let key = [TAG, x, o, grid.shape_word()];
    partizan::memoised(&key, context, |right, context, side| {
        for m in each_move(x, o, grid, right) {
            let (cx, co) = moved(x, o, right, m);
            side.push(board_value(cx, co, grid, context)?);
        }
        Ok(())
    })
}

impl GameRules for Clobber {
    fn name(&self) -> String {
        format!("clobber[{}x{}]", self.rows, self.columns)
    }

    partizan::mover_at!(2);

    fn write_position(&self, pos: &Pos, out: &mut String) {
        self.grid().write(pos, out);
        partizan::write_mover(pos[2], out);
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let (x, o, mover) = (pos[0], pos[1], pos[2]);
        let right = mover == RIGHT;
        for m in each_move(x, o, &self.grid(), right) {
            let (cx, co) = moved(x, o, right, m);
            out.push(Pos::from_slice(&[cx, co, 1 - mover]));
        }
    }

    fn bound(&self, pos: &Pos) -> Bound {
        let stones = (pos[0] | pos[1]).count_ones();
        Bound {
            // Each move takes a stone off: every colouring of every subset of the
            // stones, either mover.
            positions: 2u128.saturating_mul(3u128.saturating_pow(stones)),
            // Four captures a stone at most.
            moves: 4 * u128::from(stones),
        }
    }

    fn cgt_value(&self, pos: &Pos, context: &mut Context) -> Option<Result<GameId, Error>> {
        Some(self.value(pos[0], pos[1], context))
    }
}

impl Clobber {
    /// The capture `from` → `to`: the moved stone's square and the captured one's.
    fn the_move(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        let before = from[0] | from[1];
        let after = to[0] | to[1];
        let emptied = before & !after;
        let (own_after, own_before) = if from[2] == RIGHT {
            (to[1], from[1])
        } else {
            (to[0], from[0])
        };
        let taken = own_after & !own_before;
        (emptied.count_ones() == 1 && taken.count_ones() == 1)
            .then(|| (emptied.trailing_zeros(), taken.trailing_zeros()))
    }
}

impl Drawing for Clobber {
    /// `a1-b1`: the square the stone leaves and the one it captures on.
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        match self.the_move(from, to) {
            Some((a, b)) => {
                let grid = self.grid();
                format!("{}-{}", grid.cell_name(a), grid.cell_name(b))
            }
            None => "no move".into(),
        }
    }

    /// The board as squares, `X` Left's stones, `O` Right's.
    fn picture(&self, pos: &Pos) -> Option<Picture> {
        Some(self.grid().picture(pos, Look::Marks))
    }

    /// A capture is clicked at the stone moved, and ends on the stone taken.
    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        self.the_move(from, to).map(|(a, _)| self.grid().place(a))
    }

    fn move_end(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        self.the_move(from, to).map(|(_, b)| self.grid().place(b))
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        let note = if pos[2] == RIGHT {
            "Right (o) to move"
        } else {
            "Left (x) to move"
        };
        Some(super::board::trim_lines(
            &self.grid().lettered(pos, note, false),
        ))
    }
}

no_extras!(Clobber);

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    let grid = partizan::grid_size(args, "clobber", MAX_CELLS)?;
    let family = Clobber {
        rows: grid.rows,
        columns: grid.columns,
    };
    let Some(items) = args.position() else {
        return Ok(Built::new(family, Some(family.start())));
    };
    let example = "clobber[2x3](xo./ox.,right)";
    let (text, at, mover) = partizan::grid_and_mover(args, items, example)?;
    let cell_is = "a square is `x` (Left's stone), `o` (Right's) or `.` (empty)";
    let (x, o) = grid.read(args, text, at, cell_is)?;
    Ok(Built::new(family, Some(Pos::from_slice(&[x, o, mover]))))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "clobber",
    examples: &["clobber[3x3]", "clobber[2x4](xoxo/o.x.,right)"],
    small: &["clobber[2x3]", "clobber[1x6](xxo.ox,right)", "clobber[3x3](xox/o.o/xox)"],
    shape: "clobber[m x n](board,right): move a stone onto an orthogonally adjacent stone of the other's, capturing it; Left `x`, Right `o` (rows from the top, `.` empty; `right`: Right to move; no position: the full checkerboard, Left to move)",
    build,
    options: Options {
        template: "clobber[{rows}x{columns}]",
        settings: &[
            Setting::range("rows", 1, 4, "2"),
            Setting::range("columns", 1, 5, "3"),
        ],
    },
}];

#[cfg(test)]
mod tests {
    use crate::cgt::Dyadic;
    use crate::games::testing::{
        all_refused, cgt_context as context, cgt_value_of as value, checked_value, grid_board,
        named_moves, prints_as, refuses_a_small_memory_bound,
    };

    /// Small rows, worked by hand by the rules (Albert, Grossman and Nowakowski's, as
    /// Wolfe's Clobber research page states them): `xo` is `{0|0}` = `*` (either capture
    /// leaves a lone stone); `xxo` is `{0|*}` = `^` (Left's capture leaves `x.x`, 0;
    /// Right's leaves `xo`); `xox` is `*` again; `oox` is `v`, the negative of `xxo`
    /// (swapping the colours swaps the players). A lone colour is 0.
    #[test]
    fn small_rows() {
        let mut c = context();
        for (spec, text) in [
            ("clobber[1x2](xo)", "*"),
            ("clobber[1x3](xxo)", "^"),
            ("clobber[1x3](oxx)", "^"),
            ("clobber[3x1](x/x/o)", "^"),
            ("clobber[1x3](xox)", "*"),
            ("clobber[1x3](oox)", "v"),
            ("clobber[2x2](xx/xx)", "0"),
            ("clobber[1x4](xx.o)", "0"),
        ] {
            assert_eq!(value(spec, &mut c).1, text, "{spec}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// On random boards of up to 3 × 3: the value by groups equals the plain
        /// recursion's, its class is who wins by plain minimax (Left first and Right
        /// first), and both its stops are 0 — every Clobber position is all-small (Wolfe's
        /// Clobber research page: Left has a move exactly where Right has, so no non-zero
        /// number appears).
        #[test]
        fn values_are_right_on_random_boards(
            rows in 1usize..4, columns in 1usize..4,
            cells in proptest::collection::vec(0u8..3, 9),
        ) {
            let spec = format!("clobber[{rows}x{columns}]({})", grid_board(&cells, rows, columns, &['.', 'x', 'o']));
            let (c, g) = checked_value(&spec);
            let zero = Dyadic::integer(0).unwrap();
            proptest::prop_assert_eq!(c.table.left_stop(g), zero, "{}", spec);
            proptest::prop_assert_eq!(c.table.right_stop(g), zero, "{}", spec);
        }
    }

    /// Groups apart add, and the eight turns of a group share one memo entry: an L of
    /// stones and its mirror image are the same value.
    #[test]
    fn groups_add_and_turns_agree() {
        let mut c = context();
        let (two, _) = value("clobber[1x7](xxo.oxx)", &mut c);
        let (one, _) = value("clobber[1x3](xxo)", &mut c);
        assert_eq!(c.table.sum(one, one).unwrap(), two);
        // An L of three stones, `o` at its corner, as drawn and turned a quarter.
        let (a, _) = value("clobber[2x3](xo./.x.)", &mut c);
        let memo = c.memo_len();
        let (d, _) = value("clobber[3x2](.x/xo/..)", &mut c);
        assert_eq!(a, d);
        assert_eq!(c.memo_len(), memo, "the turned L is the L's entry");
        for spec in ["clobber[2x3]", "clobber[3x3]", "clobber[2x4](xoxo/o.x.)"] {
            checked_value(spec);
        }
    }

    #[test]
    fn specs_read_and_print_back() {
        prints_as("clobber[2x3]", "clobber[2x3](xox/oxo)");
        prints_as("clobber[1x3](XO., right)", "clobber[1x3](xo.,right)");
        all_refused(&[
            "clobber",
            "clobber[9x9]",
            "clobber[0x2]",
            "clobber[3]",
            "clobber[1x3](xo)",
            "clobber[1x3](xoq)",
            "clobber[1x3](xo.,up)",
            "clobber[1x3](xo.,right,left)",
            "clobber[2x2](xo/ox/xo)",
        ]);
    }

    #[test]
    fn moves_are_named_clicked_and_drawn() {
        let (family, pos, children, names) = named_moves("clobber[2x2](xo/.x)");
        assert_eq!(names, ["a1-b1", "b2-b1"]);
        assert_eq!(family.move_cell(&pos, &children[1]), Some((1, 1)));
        assert_eq!(family.move_end(&pos, &children[1]), Some((0, 1)));
        assert_eq!(
            family.draw(&pos).unwrap(),
            "   a b Left (x) to move\n 1 X O\n 2 . X\n"
        );
        let picture = family.picture(&pos).unwrap();
        assert_eq!(picture.cells, ["X", "O", "", "X"]);
    }

    /// A memory bound too small is a refusal, not an unbounded allocation.
    #[test]
    fn a_small_memory_bound_is_refused() {
        refuses_a_small_memory_bound("clobber[4x4]");
    }
}
