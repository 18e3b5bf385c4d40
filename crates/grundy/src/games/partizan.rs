//! What the partizan families share: who is to move (one word of the position, 0 Left and
//! [`RIGHT`] Right), read as `left` or `right` and written as `,right`; a grid board's size
//! read from `[m x n]`, and a position's board (or strip) and mover; the regions of a
//! bitboard grid, each turned to the least of its images under the square's symmetries and
//! valued once per [`Context`]; and the optional traits none of them offers
//! (`no_extras!`). A new partizan grid family is then its rules: its moves, its region's
//! options and its names.

use super::board::Grid;
use super::family::{Look, Picture, Pos};
use super::spec::{Args, Param, SpecError};
use crate::cgt::{Context, GameId};
use crate::game::Player;
use crate::Error;

/// The mover's word when Right is to move; 0 is Left.
pub const RIGHT: u64 = 1;

/// The board of a position held as one bit plane a mark (`pos[i]`: the cells showing
/// `marks[i]`), `rows` × `columns` squares each showing its mark in capitals (an empty
/// cell nothing): Snort, Col and Amazons.
#[must_use]
pub fn marks_picture(rows: u32, columns: u32, pos: &Pos, marks: &[char]) -> Picture {
    let cells = (0..rows * columns)
        .map(|cell| {
            (0..marks.len())
                .find(|&i| pos[i] >> cell & 1 == 1)
                .map_or_else(String::new, |i| marks[i].to_ascii_uppercase().to_string())
        })
        .collect();
    Picture::new(rows, columns, cells, Look::Marks)
}

/// Writes `,right` after a position when its mover's word is Right's.
pub fn write_mover(word: u64, out: &mut String) {
    if word == RIGHT {
        out.push_str(",right");
    }
}

/// The position with its mover's word, at `index`, set to `mover`
/// ([`super::GameRules::with_mover`]).
#[must_use]
pub fn with_mover(pos: &Pos, index: usize, mover: Player) -> Pos {
    let mut out = pos.clone();
    out[index] = mover.index() as u64;
    out
}

/// The mover's word an optional last item names: none or `left` is Left, `right` Right.
///
/// # Errors
/// Any other item, at it.
pub fn read_mover(args: &Args<'_>, item: Option<&Param>) -> Result<u64, SpecError> {
    match item {
        None => Ok(0),
        Some(Param::Word { text, .. }) if text.eq_ignore_ascii_case("left") => Ok(0),
        Some(Param::Word { text, .. }) if text.eq_ignore_ascii_case("right") => Ok(RIGHT),
        Some(other) => Err(args.error_at(other.at(), "expected `left` or `right`: who is to move")),
    }
}

/// The board of a grid family written `family[rows x columns]`, of 1 to `max_cells` cells,
/// numbered along each row from the top left.
///
/// # Errors
/// No size, or a size out of range, at it.
pub fn grid_size(args: &Args<'_>, family: &str, max_cells: u64) -> Result<Grid, SpecError> {
    let example = format!("{family}[3x4]");
    let param = args.one_param(&example)?;
    let Param::Dims { a, b, at } = *param else {
        return Err(args.error_at(
            param.at(),
            format!("expected the board's size, as in `{example}`"),
        ));
    };
    if a == 0 || b == 0 || a.saturating_mul(b) > max_cells {
        return Err(args.error_at(
            at,
            format!("a board of 1 to {max_cells} cells, as in `{example}`"),
        ));
    }
    Ok(Grid::by_rows(a as u32, b as u32))
}

/// A position's items read as one board (or strip: `noun`, with its article) and then,
/// optionally, who is to move: the board's text, the column it starts at, and the mover's
/// word. `not_a_board` is the error at an item that is not a word.
///
/// # Errors
/// No item or more than two; a first item that is not a word; a mover that is not `left`
/// or `right`.
pub fn board_and_mover<'a>(
    args: &Args<'_>,
    items: &'a [Param],
    noun: &str,
    example: &str,
    not_a_board: &str,
) -> Result<(&'a str, usize, u64), SpecError> {
    if items.is_empty() || items.len() > 2 {
        return Err(args.error_at(
            items.get(2).map_or(args.open_at(), Param::at),
            format!("expected {noun}, then `left` or `right` to move, as in `{example}`"),
        ));
    }
    let Param::Word { text, at } = &items[0] else {
        return Err(args.error_at(items[0].at(), not_a_board));
    };
    let mover = read_mover(args, items.get(1))?;
    Ok((text, *at, mover))
}

/// [`board_and_mover`] for a grid board, rows separated by `/`.
///
/// # Errors
/// As [`board_and_mover`].
pub fn grid_and_mover<'a>(
    args: &Args<'_>,
    items: &'a [Param],
    example: &str,
) -> Result<(&'a str, usize, u64), SpecError> {
    let not_a_board = format!("expected a board such as `{example}`");
    board_and_mover(args, items, "a board", example, &not_a_board)
}

/// Whether `text` names the move `name` either whole or without its first word (`vertical
/// a1-a2` or `a1-a2`; `toad 1-3` or `1-3`), spaces and case aside.
#[must_use]
pub fn names_with_or_without_kind(name: &str, text: &str) -> bool {
    let said = super::family::squash(text);
    said == super::family::squash(name)
        || name
            .split_once(' ')
            .is_some_and(|(_, cells)| said == super::family::squash(cells))
}

/// Which images of a region are the same game: the flips that keep rows rows (Domineering,
/// where a quarter turn swaps the players), or all eight symmetries of the square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symmetry {
    /// The horizontal and vertical flips.
    Flips,
    /// The flips, the quarter turns and the transpositions.
    Square,
}

fn mask(cells: u32) -> u64 {
    if cells >= 64 {
        u64::MAX
    } else {
        (1u64 << cells) - 1
    }
}

/// The cells of a mask, `(row, column)` on a grid of `columns` columns numbered by rows.
fn places(set: u64, columns: u32) -> impl Iterator<Item = (u32, u32)> {
    let mut rest = set;
    std::iter::from_fn(move || {
        let i = (rest != 0).then(|| rest.trailing_zeros())?;
        rest &= rest - 1;
        Some((i / columns, i % columns))
    })
}

/// Bitboards of a grid numbered by rows ([`Grid::by_rows`], at most 64 cells): cell
/// `r · columns + c` is bit `r · columns + c`.
impl Grid {
    /// Every cell.
    #[must_use]
    pub fn all(&self) -> u64 {
        debug_assert!(!self.by_columns && self.rows * self.columns <= 64);
        mask(self.rows * self.columns)
    }

    /// The board's `(rows, columns)` as one word (the last word of a region's memo key).
    #[must_use]
    pub fn shape_word(&self) -> u64 {
        u64::from(self.rows) << 32 | u64::from(self.columns)
    }

    /// The cells that have a right neighbour (not the last column).
    fn not_last_column(&self) -> u64 {
        (0..self.rows).fold(0u64, |acc, r| {
            acc | (mask(self.columns - 1) << (r * self.columns))
        })
    }

    /// The cells of each horizontal pair `(c, c + 1)` of `set` by their left cell.
    #[must_use]
    pub fn horizontal_pairs(&self, set: u64) -> u64 {
        set & (set >> 1) & self.not_last_column()
    }

    /// The cells orthogonally next to a cell of `set`.
    #[must_use]
    pub fn neighbours(&self, set: u64) -> u64 {
        let right_ok = self.not_last_column();
        let columns = self.columns;
        (((set & right_ok) << 1) | ((set >> 1) & right_ok) | (set << columns) | (set >> columns))
            & self.all()
    }

    /// The orthogonally connected part of `set` holding its lowest cell.
    #[must_use]
    pub fn component(&self, set: u64) -> u64 {
        let mut part = set & set.wrapping_neg();
        loop {
            let next = (part | self.neighbours(part)) & set;
            if next == part {
                return part;
            }
            part = next;
        }
    }

    /// A region moved to the top left of its bounding box, then the least of its images
    /// under `symmetry`: each of `planes` (masks of this grid's cells; the region is their
    /// union) as the image has it, and the image's `(rows, columns)` (a turned image has
    /// its box turned). Images are ordered by their rows, then by the planes in turn.
    #[must_use]
    pub fn least_image<const N: usize>(
        &self,
        planes: [u64; N],
        symmetry: Symmetry,
    ) -> ([u64; N], u32, u32) {
        let columns = self.columns;
        let region = planes.iter().fold(0, |acc, p| acc | p);
        debug_assert!(region != 0);
        let (mut r0, mut r1, mut c0, mut c1) = (u32::MAX, 0, u32::MAX, 0);
        for (r, c) in places(region, columns) {
            (r0, r1, c0, c1) = (r0.min(r), r1.max(r), c0.min(c), c1.max(c));
        }
        let (h, w) = (r1 - r0 + 1, c1 - c0 + 1);
        let turns: &[bool] = match symmetry {
            Symmetry::Flips => &[false],
            Symmetry::Square => &[false, true],
        };
        let mut best: Option<([u64; N], u32, u32)> = None;
        for &transpose in turns {
            let (bh, bw) = if transpose { (w, h) } else { (h, w) };
            for (flip_r, flip_c) in [(false, false), (true, false), (false, true), (true, true)] {
                let image = |set: u64| {
                    places(set, columns).fold(0u64, |acc, (r, c)| {
                        let (r, c) = (r - r0, c - c0);
                        let (r, c) = if transpose { (c, r) } else { (r, c) };
                        let r = if flip_r { bh - 1 - r } else { r };
                        let c = if flip_c { bw - 1 - c } else { c };
                        acc | 1 << (r * bw + c)
                    })
                };
                let candidate = (planes.map(image), bh, bw);
                if best
                    .as_ref()
                    .is_none_or(|b| (candidate.1, candidate.0) < (b.1, b.0))
                {
                    best = Some(candidate);
                }
            }
        }
        best.expect("one image at least")
    }
}

/// The sum of the values of the regions of `cells`, each found by `component` (the part
/// of a set connected to its lowest cell: [`Grid::component`] joins cells side by side,
/// Amazons' queens also corner to corner): `value` of each region, `None` for one worth 0
/// that is left out.
///
/// # Errors
/// What `value` returns; [`Error::Overflow`] past the table's numbers.
pub fn sum_of_regions(
    cells: u64,
    component: impl Fn(u64) -> u64,
    context: &mut Context,
    mut value: impl FnMut(u64, &mut Context) -> Result<Option<GameId>, Error>,
) -> Result<GameId, Error> {
    let mut total = context.table.zero();
    let mut rest = cells;
    while rest != 0 {
        let region = component(rest);
        rest &= !region;
        if let Some(v) = value(region, context)? {
            total = context.table.sum(total, v)?;
        }
    }
    Ok(total)
}

/// The value `{ Left's options | Right's options }` of a region whose memo key is `key`:
/// recalled, or built and remembered, `options(right, context, side)` pushing the values
/// of Left's options (`right` false), then of Right's, onto `side`, depth first.
///
/// # Errors
/// What `options` returns; [`Error::OverLimit`] past the memory `context` allows.
pub fn memoised(
    key: &[u64],
    context: &mut Context,
    mut options: impl FnMut(bool, &mut Context, &mut Vec<GameId>) -> Result<(), Error>,
) -> Result<GameId, Error> {
    if let Some(value) = context.recall(key) {
        return Ok(value);
    }
    let mut sides = [Vec::new(), Vec::new()];
    for (right, side) in [false, true].into_iter().zip(&mut sides) {
        options(right, context, side)?;
    }
    let value = context.table.game(&sides[0], &sides[1]);
    context.remember(key, value);
    context.check()?;
    Ok(value)
}

/// The optional traits of [`super::Family`] that a partizan family does not offer, one
/// line: `no_extras!(Clobber);` for `impl Scores for Clobber {}` and the like for
/// `Indexing`, `Searching`, `Patterns` and `Grundy` (its values come from
/// [`super::GameRules::cgt_value`]); `no_extras!(<R: Rule> Colouring<R>);` for a generic
/// family.
/// The [`GameRules`](super::GameRules) methods every partizan family of the catalog writes
/// alike, for a position that keeps its mover's word at `$index` (0 Left, [`RIGHT`]
/// Right): `kind` (partizan), `to_move` and `with_mover`. Used inside the family's
/// `impl GameRules` block.
macro_rules! mover_at {
    ($index:expr) => {
        fn kind(&self) -> $crate::games::family::Kind {
            $crate::games::family::Kind::Partizan
        }

        fn to_move(&self, pos: &$crate::games::family::Pos) -> $crate::game::Player {
            $crate::game::Player::from_index(pos[$index])
        }

        fn with_mover(
            &self,
            pos: &$crate::games::family::Pos,
            mover: $crate::game::Player,
        ) -> Option<$crate::games::family::Pos> {
            Some($crate::games::partizan::with_mover(pos, $index, mover))
        }
    };
}
pub(crate) use mover_at;

macro_rules! no_extras {
    (<$($g:ident: $bound:path),*> $family:ty) => {
        impl<$($g: $bound),*> $crate::games::family::Scores for $family {}
        impl<$($g: $bound),*> $crate::games::family::Indexing for $family {}
        impl<$($g: $bound),*> $crate::games::family::Searching for $family {}
        impl<$($g: $bound),*> $crate::games::family::Patterns for $family {}
        impl<$($g: $bound),*> $crate::games::family::Grundy for $family {}
    };
    ($family:ty) => {
        impl $crate::games::family::Scores for $family {}
        impl $crate::games::family::Indexing for $family {}
        impl $crate::games::family::Searching for $family {}
        impl $crate::games::family::Patterns for $family {}
        impl $crate::games::family::Grundy for $family {}
    };
}
pub(crate) use no_extras;
