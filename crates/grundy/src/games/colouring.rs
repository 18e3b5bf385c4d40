//! Colouring games on a grid board, the rules that Snort (`snort.rs`) and Col (`col.rs`)
//! share (CGSuite's `GenCol` on the grid's graph): a move colours one empty cell, **Left
//! blue (`x`), Right red (`o`)**, and who cannot move loses. Which empty cells a player may
//! colour depends only on the colours orthogonally next to them, as the family's [`Rule`]
//! says: in Snort never next to the other's colour, in Col never next to one's own.
//! Partizan.
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
use super::family::{Bound, Drawing, GameRules, Look, Picture, Pos};
use super::partizan::{self, no_extras, Symmetry, RIGHT};
use super::spec::{Args, Built, SpecError};
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
    partizan::sum_of_regions(grid, live, context, |region, context| {
        let planes = [region, next_x & region, next_o & region];
        let ([cells, tx, to], h, w) = grid.least_image(planes, Symmetry::Square);
        region_value::<R>(cells, tx, to, &Grid::by_rows(h, w), context).map(Some)
    })
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
        let grid = self.grid();
        let cells = (0..grid.rows * grid.columns)
            .map(|cell| {
                (0..MARKS.len())
                    .find(|&i| pos[i] >> cell & 1 == 1)
                    .map_or_else(String::new, |i| MARKS[i].to_ascii_uppercase().to_string())
            })
            .collect();
        Some(Picture {
            rows: self.rows,
            columns: self.columns,
            cells,
            look: Look::Marks,
        })
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
