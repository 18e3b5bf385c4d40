//! Domineering on an m × n board: the players take turns placing a domino on two empty
//! cells; **Left places vertical dominoes, Right horizontal ones** (the convention of
//! *Winning Ways* and CGSuite), and who cannot place one loses. Partizan.
//!
//! A position is the empty cells (a bitboard, cell `r·n + c`, row 0 at the top; at most
//! 64 cells) and who is to move. It is written as the board, rows from the top separated
//! by `/`, `.` an empty cell and `x` a covered or blocked one, then `right` when Right is
//! to move: `domineering[2x3](.../x..)`, `domineering[2x3](.../x..,right)`. No position
//! means the empty board with Left to move.
//!
//! Its combinatorial game value ([`crate::cgt`]) is the sum of the values of its regions
//! (the connected components of empty cells, which no domino joins), each region valued
//! once: normalised to its bounding box and to the least of its four images under the
//! flips that keep vertical vertical, then memoised.

use super::board::Grid;
use super::family::{Bound, Drawing, GameRules, Look, Picture, Pos};
use super::partizan::{self, no_extras, Symmetry, RIGHT};
use super::spec::{Args, Built, Entry, Options, Setting, SpecError};
use crate::cgt::{Context, GameId};
use crate::Error;

/// `domineering[rows x columns]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Domineering {
    /// Rows of the board.
    pub rows: u32,
    /// Columns of the board.
    pub columns: u32,
}

/// The most cells a board may have (one 64-bit bitboard).
pub const MAX_CELLS: u64 = 64;

/// The memo's tag for Domineering regions (the first word of each key).
const TAG: u64 = u64::from_le_bytes(*b"domineer");

impl Domineering {
    fn grid(&self) -> Grid {
        Grid::by_rows(self.rows, self.columns)
    }

    /// Every cell of the board.
    fn full(&self) -> u64 {
        self.grid().all()
    }

    /// The empty board, Left to move.
    #[must_use]
    pub fn start(&self) -> Pos {
        Pos::from_slice(&[self.full(), 0])
    }

    /// The value of a board of empty cells `empty` (any mover), as the sum of its
    /// regions' values.
    ///
    /// # Errors
    /// [`Error::OverLimit`] past the memory `context` allows; [`Error::Overflow`] never
    /// on boards of 64 cells (values stay within ±32 and birthdays within 32).
    ///
    /// # Complexity
    /// Exponential in the empty cells of the largest region in the worst case; each
    /// region (up to flips) is valued once per context.
    pub fn value(&self, empty: u64, context: &mut Context) -> Result<GameId, Error> {
        board_value(empty & self.full(), &self.grid(), context)
    }
}

/// Where the mover may place a domino on empty cells `empty` of `grid`: the cells of each
/// placement's top (Left) or left (Right) half, and the step to the other half.
fn placements(empty: u64, grid: &Grid, right: bool) -> (u64, u32) {
    if right {
        (grid.horizontal_pairs(empty), 1)
    } else {
        (empty & (empty >> grid.columns), grid.columns)
    }
}

/// The value of empty cells `empty` on `grid`: its regions summed, a region of one cell
/// (no domino fits) left out.
fn board_value(empty: u64, grid: &Grid, context: &mut Context) -> Result<GameId, Error> {
    partizan::sum_of_regions(
        empty,
        |set| grid.component(set),
        context,
        |region, context| {
            if region.count_ones() < 2 {
                return Ok(None);
            }
            // The flips keep each player's dominoes as they are, so the value too.
            let ([bits], h, w) = grid.least_image([region], Symmetry::Flips);
            region_value(bits, &Grid::by_rows(h, w), context).map(Some)
        },
    )
}

/// The value of one region (normalised, filling `grid`'s bounding box): `{ vertical
/// placements | horizontal placements }`, each option the value of what is left, memoised.
fn region_value(bits: u64, grid: &Grid, context: &mut Context) -> Result<GameId, Error> {
    let key = [TAG, bits, grid.shape_word()];
    partizan::memoised(&key, context, |right, context, side| {
        let (mut rest, step) = placements(bits, grid, right);
        while rest != 0 {
            let cell = rest.trailing_zeros();
            rest &= rest - 1;
            let child = bits & !(1u64 << cell) & !(1u64 << (cell + step));
            side.push(board_value(child, grid, context)?);
        }
        Ok(())
    })
}

impl GameRules for Domineering {
    fn name(&self) -> String {
        format!("domineering[{}x{}]", self.rows, self.columns)
    }

    partizan::mover_at!(1);

    fn write_position(&self, pos: &Pos, out: &mut String) {
        // The covered cells as X's marks.
        let covered = Pos::from_slice(&[self.full() & !pos[0], 0]);
        self.grid().write(&covered, out);
        partizan::write_mover(pos[1], out);
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let (empty, mover) = (pos[0], pos[1]);
        let (mut rest, step) = placements(empty, &self.grid(), mover == RIGHT);
        while rest != 0 {
            let cell = rest.trailing_zeros();
            rest &= rest - 1;
            let child = empty & !(1u64 << cell) & !(1u64 << (cell + step));
            out.push(Pos::from_slice(&[child, 1 - mover]));
        }
    }

    fn bound(&self, pos: &Pos) -> Bound {
        let empty = u64::from(pos[0].count_ones());
        Bound {
            // Each move covers two cells: every subset of the empty cells, either mover.
            positions: 2u128.saturating_pow(empty as u32 + 1),
            moves: u128::from(empty),
        }
    }

    fn cgt_value(&self, pos: &Pos, context: &mut Context) -> Option<Result<GameId, Error>> {
        Some(self.value(pos[0], context))
    }
}

impl Drawing for Domineering {
    /// `vertical a1-a2` (Left) or `horizontal a1-b1` (Right): the two cells covered.
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        let covered = from[0] & !to[0];
        if covered.count_ones() != 2 {
            return "no move".into();
        }
        let first = covered.trailing_zeros();
        let second = 63 - covered.leading_zeros();
        let grid = self.grid();
        let way = if from[1] == RIGHT {
            "horizontal"
        } else {
            "vertical"
        };
        format!("{way} {}-{}", grid.cell_name(first), grid.cell_name(second))
    }

    fn names_move(&self, from: &Pos, to: &Pos, text: &str) -> bool {
        partizan::names_with_or_without_kind(&self.move_name(from, to), text)
    }

    /// The board as squares, `#` on each covered one (which domino covers it the position
    /// does not say).
    fn picture(&self, pos: &Pos) -> Option<Picture> {
        let grid = self.grid();
        let cells = (0..self.rows)
            .flat_map(|r| (0..self.columns).map(move |c| (r, c)))
            .map(|(r, c)| {
                let empty = pos[0] >> grid.cell(r, c) & 1 == 1;
                if empty { "" } else { "#" }.to_string()
            })
            .collect();
        Some(Picture::new(self.rows, self.columns, cells, Look::Marks))
    }

    /// A domino is placed by its top (Left's) or left (Right's) square.
    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        let covered = from[0] & !to[0];
        (covered.count_ones() == 2).then(|| self.grid().place(covered.trailing_zeros()))
    }

    fn draw(&self, pos: &Pos) -> Option<String> {
        let mut s = String::new();
        for r in 0..self.rows {
            for c in 0..self.columns {
                let cell = self.grid().cell(r, c);
                s.push(if pos[0] >> cell & 1 == 1 { '.' } else { '#' });
            }
            s.push('\n');
        }
        s.push_str(if pos[1] == RIGHT {
            "Right (horizontal) to move\n"
        } else {
            "Left (vertical) to move\n"
        });
        Some(s)
    }
}

no_extras!(Domineering);

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    let grid = partizan::grid_size(args, "domineering", MAX_CELLS)?;
    let family = Domineering {
        rows: grid.rows,
        columns: grid.columns,
    };
    let Some(items) = args.position() else {
        return Ok(Built::new(family, Some(family.start())));
    };
    let example = "domineering[2x3](.../x..,right)";
    let (text, at, mover) = partizan::grid_and_mover(args, items, example)?;
    let empty = read_board(args, &family, text, at)?;
    Ok(Built::new(family, Some(Pos::from_slice(&[empty, mover]))))
}

/// The empty cells of a board written rows from the top, `/` between them, read by
/// [`Grid::read`] with an `o` refused where it stands.
fn read_board(
    args: &Args<'_>,
    family: &Domineering,
    text: &str,
    at: usize,
) -> Result<u64, SpecError> {
    let cell_is = "a cell is `.` (empty) or `x` (covered)";
    let grid = family.grid();
    let (covered, o) = grid.read(args, text, at, cell_is)?;
    if o != 0 {
        // Every row has its `columns` cells and a `/` after it.
        let (r, c) = grid.place(o.trailing_zeros());
        let index = (r * (family.columns + 1) + c) as usize;
        let found = text.chars().nth(index).unwrap_or('o');
        return Err(args.error_at(at + index, format!("{cell_is}, found `{found}`")));
    }
    Ok(family.full() & !covered)
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "domineering",
    examples: &["domineering[3x4]", "domineering[2x3](.../x..,right)"],
    small: &["domineering[3x3]", "domineering[2x4](..../x...,right)"],
    shape: "domineering[m x n](board,right): place a domino; Left vertical, Right horizontal (rows from the top, `.` empty, `x` covered; `right`: Right to move; no position: the empty board, Left to move)",
    build,
    options: Options {
        template: "domineering[{rows}x{columns}]",
        settings: &[
            Setting::range("rows", 1, 5, "3"),
            Setting::range("columns", 1, 6, "4"),
        ],
    },
}];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgt::{write, Class, Dyadic, Spelling};
    use crate::games::Spec;

    use crate::games::testing::{all_refused, cgt_context as context, cgt_value_of as value};

    fn number(context: &mut Context, num: i128, exp: u32) -> GameId {
        context.table.number(Dyadic::new(num, exp).unwrap())
    }

    /// Strips and small rectangles. Left vertical, Right horizontal (Winning Ways,
    /// ch. 1–2; Wikipedia, "Domineering", Basic examples): a horizontal strip of 2 or 3
    /// cells is Right's single move, `{|0} = -1`; of 4, `{|0,-1} = -2`; the vertical
    /// strips are their negatives; the 2 × 2 square is `{1|-1} = ±1`.
    #[test]
    fn strips_and_the_square() {
        let mut c = context();
        let cases = [
            ("domineering[1x2]", "-1"),
            ("domineering[2x1]", "1"),
            ("domineering[1x3]", "-1"),
            ("domineering[3x1]", "1"),
            ("domineering[1x4]", "-2"),
            ("domineering[4x1]", "2"),
            ("domineering[1x1]", "0"),
            ("domineering[2x2]", "±1"),
        ];
        for (spec, text) in cases {
            assert_eq!(value(spec, &mut c).1, text, "{spec}");
        }
        // Checked by comparison, not text alone.
        let (g, _) = value("domineering[1x2]", &mut c);
        let minus_one = number(&mut c, -1, 0);
        assert_eq!(g, minus_one);
        let (square, _) = value("domineering[2x2]", &mut c);
        let one = number(&mut c, 1, 0);
        let pm = c.table.game(&[one], &[minus_one]);
        assert_eq!(square, pm);
        assert_eq!(c.table.class(square), Class::N);
    }

    /// The L of four cells (a row of three with one cell above its end): Left's only
    /// move leaves a horizontal pair, -1; Right leaves a vertical pair (1) or two single
    /// cells (0), and takes 0: `{-1|0} = -1/2` (worked by hand here, by the rules of
    /// Winning Ways, ch. 1; no published table was at hand). The 2 × 3 rectangle: Left in a side
    /// column leaves the 2 × 2 square (±1), in the middle two vertical pairs (2); Right
    /// leaves that L (-1/2) whichever row: `{2, ±1 | -1/2} = {2|-1/2}`.
    #[test]
    fn the_l_and_the_two_by_three() {
        let mut c = context();
        let (l, text) = value("domineering[2x3](xx./...)", &mut c);
        assert_eq!(text, "-1/2");
        let minus_half = number(&mut c, -1, 1);
        assert_eq!(l, minus_half);
        let (g, text) = value("domineering[2x3]", &mut c);
        assert_eq!(text, "{2|-1/2}");
        let two = number(&mut c, 2, 0);
        let want = c.table.game(&[two], &[minus_half]);
        assert_eq!(g, want);
        // The 3 × 2 is its negative (the board turned a quarter swaps the players).
        let (h, _) = value("domineering[3x2]", &mut c);
        assert_eq!(c.table.neg(g), h);
        assert_eq!(c.table.sum(g, h).unwrap(), c.table.zero());
    }

    /// A board is the sum of its regions: a blocked column splitting the board gives the
    /// sum of the two sides, and the value of any board equals the one found without
    /// splitting (all positions of the 3 × 3 walked by the plain recursion).
    #[test]
    fn regions_add_up() {
        let mut c = context();
        let (split, _) = value("domineering[2x5](..x../..x..)", &mut c);
        let (square, _) = value("domineering[2x2]", &mut c);
        assert_eq!(c.table.sum(square, square).unwrap(), split);
        assert_eq!(split, c.table.zero()); // ±1 + ±1 = 0

        // The plain recursion: options straight from the moves, no regions, no memo.
        fn plain(d: &Domineering, empty: u64, c: &mut Context) -> GameId {
            let mut sides = [Vec::new(), Vec::new()];
            for (mover, side) in sides.iter_mut().enumerate() {
                let mut moves = Vec::new();
                d.moves(&Pos::from_slice(&[empty, mover as u64]), &mut moves);
                for m in moves {
                    side.push(plain(d, m[0], c));
                }
            }
            c.table.game(&sides[0], &sides[1])
        }
        let d = Domineering {
            rows: 3,
            columns: 3,
        };
        let mut plain_context = context();
        let whole = plain(&d, d.full(), &mut plain_context);
        let by_regions = d.value(d.full(), &mut c).unwrap();
        let a = write(&mut plain_context.table, whole, Spelling::Unicode);
        let b = write(&mut c.table, by_regions, Spelling::Unicode);
        assert_eq!(a, b);
        for empty in (0..1u64 << 9).step_by(7) {
            let p = plain(&d, empty, &mut plain_context);
            let r = d.value(empty, &mut c).unwrap();
            assert_eq!(
                write(&mut plain_context.table, p, Spelling::Unicode),
                write(&mut c.table, r, Spelling::Unicode),
                "{empty:#b}"
            );
        }
    }

    /// The outcome class from the value is who wins by minimax on the family's own moves
    /// (the general method, independent of the canonical forms), Left first and Right
    /// first, on every board of the 3 × 3 and on the 2 × 4 with one cell covered.
    #[test]
    fn the_class_is_who_wins() {
        use crate::report::{solve, Limits};
        let mut c = context();
        for spec in [
            "domineering[3x3]",
            "domineering[2x4](..../x...)",
            "domineering[3x3](.../.x./...)",
            "domineering[2x5]",
        ] {
            let (g, _) = value(spec, &mut c);
            let mut wins = [false; 2];
            for (i, suffix) in ["", ",right"].iter().enumerate() {
                let text = if spec.contains('(') {
                    spec.replace(')', &format!("{suffix})"))
                } else {
                    let d: Spec = spec.parse().unwrap();
                    let mut s = String::new();
                    d.parts[0]
                        .family
                        .write_position(&d.parts[0].position, &mut s);
                    format!("{spec}({s}{suffix})")
                };
                let report = solve(&text.parse().unwrap(), &Limits::default()).unwrap();
                wins[i] = report.outcome == crate::game::Outcome::Win;
            }
            assert_eq!(
                c.table.class(g),
                Class::from_winners(wins[0], wins[1]),
                "{spec}"
            );
        }
    }

    /// A square board turned a quarter is the same board with the players swapped, so
    /// its value is its own negative: `G + G = 0` (2 × 2: ±1; 3 × 3: ±1, a first-player
    /// win; 4 × 4).
    #[test]
    fn square_boards_are_their_own_negatives() {
        let mut c = context();
        for (n, text) in [(2, Some("±1")), (3, Some("±1")), (4, None)] {
            let d = Domineering {
                rows: n,
                columns: n,
            };
            let g = d.value(d.full(), &mut c).unwrap();
            assert_eq!(c.table.neg(g), g, "{n}x{n}");
            assert_eq!(c.table.sum(g, g).unwrap(), c.table.zero());
            assert_eq!(c.table.class(g), Class::N, "{n}x{n}");
            if let Some(text) = text {
                assert_eq!(write(&mut c.table, g, Spelling::Unicode), text);
            }
        }
    }

    #[test]
    fn bad_boards_are_refused() {
        all_refused(&[
            "domineering[9x8]",
            "domineering[0x3]",
            "domineering[2x2](../..,up)",
            "domineering[2x2](../...)",
            "domineering[2x2](./..)",
            "domineering[2x2](.o/..)",
        ]);
    }

    /// A memory bound too small is a refusal, not an unbounded allocation.
    #[test]
    fn a_small_memory_bound_is_refused() {
        let d = Domineering {
            rows: 4,
            columns: 4,
        };
        let mut c = Context::new(10_000);
        let err = d.value(d.full(), &mut c).unwrap_err();
        assert!(err.is_too_large(), "{err}");
    }

    #[test]
    fn the_board_is_pictured_and_a_domino_clicked_at_its_first_square() {
        let spec: crate::games::Spec = "domineering[2x3](.../x..,right)".parse().unwrap();
        let part = spec.single().unwrap();
        let picture = part.family.picture(&part.position).unwrap();
        assert_eq!((picture.rows, picture.columns), (2, 3));
        assert_eq!(picture.cells, ["", "", "", "#", "", ""]);
        // Right to move: horizontal dominoes, each at its left square.
        let mut children = Vec::new();
        part.family.moves(&part.position, &mut children);
        let mut cells: Vec<(u32, u32)> = children
            .iter()
            .map(|to| part.family.move_cell(&part.position, to).unwrap())
            .collect();
        cells.sort_unstable();
        assert_eq!(cells, [(0, 0), (0, 1), (1, 1)]);
    }
}
