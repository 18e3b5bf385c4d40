//! What the board families share. Boards of two masks `[x, o]` (m,n,k-games, hex, connect
//! four, quixo): what a cell shows, the one cell a move marks, who moves when X starts, the
//! board's [`Grid`] (read from a spec and written back, the picture for the web page, the
//! text drawing, cells by name); text drawings trimmed; tiers by pieces placed (dots and
//! boxes' lines too); the rule by which line games refuse boards that cannot arise.

use super::combin::{insert, Binomials};
use super::family::{Look, Picture, Pos};
use super::spec::{Args, Param, SpecError};
use crate::game::Player;
use crate::tier::Child;

/// What `cell` shows: `marks[0]` for an X, `marks[1]` for an O, `marks[2]` when empty.
#[inline]
#[must_use]
pub fn mark(pos: &Pos, cell: u32, marks: [char; 3]) -> char {
    if pos[0] >> cell & 1 != 0 {
        marks[0]
    } else if pos[1] >> cell & 1 != 0 {
        marks[1]
    } else {
        marks[2]
    }
}

/// What `cell` shows: the mark of the first of `planes` that holds it, else `empty`.
#[inline]
fn mark_of(planes: &[u64], marks: &[char], empty: char, cell: u32) -> char {
    planes
        .iter()
        .zip(marks)
        .find(|(plane, _)| *plane >> cell & 1 != 0)
        .map_or(empty, |(_, &m)| m)
}

/// Who moves on a board where X starts and the players alternate, one mark a move: X
/// while the counts are equal, then O.
#[inline]
#[must_use]
pub fn to_move(pos: &Pos) -> Player {
    if pos[0].count_ones() > pos[1].count_ones() {
        Player::Second
    } else {
        Player::First
    }
}

/// The one cell `to` marks that `from` leaves empty; `None` unless there is exactly one.
#[must_use]
pub fn placed(from: &Pos, to: &Pos) -> Option<u32> {
    let added = (to[0] | to[1]) & !(from[0] | from[1]);
    (added.count_ones() == 1).then(|| added.trailing_zeros())
}

/// How a board's cells lie on the page, row 0 at the top: along each row (m,n,k-games,
/// hex, quixo: cell `r · columns + c`) or up each column from the bottom (connect four:
/// cell `c · rows + (rows − 1 − r)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grid {
    /// Rows, the top one first.
    pub rows: u32,
    /// Columns, the left one first.
    pub columns: u32,
    /// Whether cells are numbered up each column (connect four), not along each row.
    pub by_columns: bool,
}

impl Grid {
    /// Cells numbered along each row from the top left.
    #[must_use]
    pub const fn by_rows(rows: u32, columns: u32) -> Grid {
        Grid {
            rows,
            columns,
            by_columns: false,
        }
    }

    /// Cells numbered up each column from the bottom left (connect four).
    #[must_use]
    pub const fn by_columns(rows: u32, columns: u32) -> Grid {
        Grid {
            rows,
            columns,
            by_columns: true,
        }
    }

    /// The cell at row `r` (from the top) and column `c`.
    #[inline]
    #[must_use]
    pub fn cell(&self, r: u32, c: u32) -> u32 {
        if self.by_columns {
            c * self.rows + (self.rows - 1 - r)
        } else {
            r * self.columns + c
        }
    }

    /// The `(row, column)` of a cell, row 0 at the top.
    #[inline]
    #[must_use]
    pub fn place(&self, cell: u32) -> (u32, u32) {
        if self.by_columns {
            (self.rows - 1 - cell % self.rows, cell / self.rows)
        } else {
            (cell / self.columns, cell % self.columns)
        }
    }

    /// Writes the board as a spec shows it: rows from the top joined by `/`, each cell
    /// `x`, `o` or `.`.
    pub fn write(&self, pos: &Pos, out: &mut String) {
        self.write_marks(&[pos[0], pos[1]], &['x', 'o'], out);
    }

    /// Writes the board as [`Grid::write`] does, a cell of `planes[i]` as `marks[i]` (the
    /// first plane holding it), any other `.`.
    pub fn write_marks(&self, planes: &[u64], marks: &[char], out: &mut String) {
        for r in 0..self.rows {
            if r > 0 {
                out.push('/');
            }
            for c in 0..self.columns {
                out.push(mark_of(planes, marks, '.', self.cell(r, c)));
            }
        }
    }

    /// Reads a board as [`Grid::write`] writes it (either case), `text` written at column
    /// `at` of the spec: the masks `(x, o)`. `cell_is` says what a cell may show, for the
    /// error at a wrong one (`` a cell is `x`, `o` or `.` ``).
    ///
    /// # Errors
    /// At the board, a row or the cell that does not fit the grid.
    pub fn read(
        &self,
        args: &Args<'_>,
        text: &str,
        at: usize,
        cell_is: &str,
    ) -> Result<(u64, u64), SpecError> {
        let [x, o] = self.read_marks(args, text, at, ['x', 'o'], cell_is)?;
        Ok((x, o))
    }

    /// Reads a board as [`Grid::write_marks`] writes it: a mask of the cells showing each
    /// of `marks` (lowercase; read in either case), `.` an empty cell.
    ///
    /// # Errors
    /// As [`Grid::read`].
    pub fn read_marks<const N: usize>(
        &self,
        args: &Args<'_>,
        text: &str,
        at: usize,
        marks: [char; N],
        cell_is: &str,
    ) -> Result<[u64; N], SpecError> {
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != self.rows as usize {
            return Err(args.error_at(
                at,
                format!("the board has {} rows of {} cells", self.rows, self.columns),
            ));
        }
        let mut planes = [0u64; N];
        let mut offset = at;
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != self.columns as usize {
                return Err(args.error_at(
                    offset,
                    format!("row {} must have {} cells", r + 1, self.columns),
                ));
            }
            for (c, ch) in row.chars().enumerate() {
                let bit = 1u64 << self.cell(r as u32, c as u32);
                let lower = ch.to_ascii_lowercase();
                match marks.iter().position(|&m| m == lower) {
                    Some(i) => planes[i] |= bit,
                    None if ch == '.' => {}
                    None => {
                        return Err(args.error_at(offset + c, format!("{cell_is}, found `{ch}`")))
                    }
                }
            }
            offset += row.chars().count() + 1;
        }
        Ok(planes)
    }

    /// The cells of every line of `lines` (masks of cells) that one player's marks fill,
    /// as `(row, column)` in reading order: the lines that ended a line game, for its
    /// picture ([`super::Drawing::winning_cells`]).
    #[must_use]
    pub fn won_cells(&self, pos: &Pos, lines: &[u64]) -> Vec<(u32, u32)> {
        let mut won = lines
            .iter()
            .filter(|&&l| l & !pos[0] == 0 || l & !pos[1] == 0)
            .fold(0u64, |w, &l| w | l);
        let mut cells = Vec::with_capacity(won.count_ones() as usize);
        while won != 0 {
            cells.push(self.place(won.trailing_zeros()));
            won &= won - 1;
        }
        cells.sort_unstable();
        cells
    }

    /// The picture of the board, each cell `"X"`, `"O"` or `""`, drawn as `look` says
    /// (`Look::Hexes`: each row half a cell right of the one above).
    #[must_use]
    pub fn picture(&self, pos: &Pos, look: Look) -> Picture {
        let cells = (0..self.rows)
            .flat_map(|r| (0..self.columns).map(move |c| (r, c)))
            .map(|(r, c)| match mark(pos, self.cell(r, c), ['X', 'O', '.']) {
                '.' => String::new(),
                m => m.to_string(),
            })
            .collect();
        Picture {
            rows: self.rows,
            columns: self.columns,
            cells,
            look,
        }
    }

    /// The `(row, column)` of the one cell the move `from` → `to` marks.
    #[must_use]
    pub fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        placed(from, to).map(|cell| self.place(cell))
    }

    /// A cell as people name it: its column's letter and its row's number from the top
    /// (`b3`).
    #[must_use]
    pub fn cell_name(&self, cell: u32) -> String {
        let (r, c) = self.place(cell);
        format!("{}{}", (b'a' + (c % 26) as u8) as char, r + 1)
    }

    /// The board as text: the columns' letters, then each row after its number, cells
    /// `X`, `O` or `.` each followed by a space; `note` ends the letters' line, and with
    /// `skew` each row starts one more space right (hex's rhombus).
    #[must_use]
    pub fn lettered(&self, pos: &Pos, note: &str, skew: bool) -> String {
        self.lettered_marks(&[pos[0], pos[1]], &['X', 'O'], note, skew)
    }

    /// The board as [`Grid::lettered`] draws it, a cell of `planes[i]` as `marks[i]` (the
    /// first plane holding it), any other `.`.
    #[must_use]
    pub fn lettered_marks(&self, planes: &[u64], marks: &[char], note: &str, skew: bool) -> String {
        let mut s = String::from("   ");
        for c in 0..self.columns {
            s.push((b'a' + (c % 26) as u8) as char);
            s.push(' ');
        }
        s.push_str(note);
        s.push('\n');
        for r in 0..self.rows {
            s.push_str(&format!("{:>2} ", r + 1));
            if skew {
                s.push_str(&" ".repeat(r as usize));
            }
            for c in 0..self.columns {
                s.push(mark_of(planes, marks, '.', self.cell(r, c)));
                s.push(' ');
            }
            s.push('\n');
        }
        s
    }
}

/// The text without spaces at the ends of its lines (text drawings).
#[must_use]
pub fn trim_lines(text: &str) -> String {
    text.lines()
        .map(|l| l.trim_end().to_string() + "\n")
        .collect()
}

/// The one board a position of `example`'s family is written as, rows separated by `/`:
/// the board's text and the column it starts at; `None` where no position is written.
///
/// # Errors
/// More than one item, or one that is not a board.
pub fn one_board<'a>(
    args: &'a Args<'_>,
    example: &str,
) -> Result<Option<(&'a str, usize)>, SpecError> {
    let Some(items) = args.position() else {
        return Ok(None);
    };
    let [item] = items else {
        return Err(args.error_at(
            items.get(1).map_or(args.open_at(), Param::at),
            format!("expected one board, rows separated by `/`, as in `{example}`"),
        ));
    };
    let Param::Word { text, at } = item else {
        return Err(args.error_at(item.at(), format!("expected a board such as `{example}`")));
    };
    Ok(Some((text, *at)))
}

/// Tiers by pieces placed (m,n,k-games, connect four, hex; the lines of dots and boxes):
/// tier k holds the boards with k pieces, the empty board is rank 0 of tier 0, and a move
/// goes from tier k to tier k + 1 of at most `cells`.
#[must_use]
pub fn next_tier(tier: u32, cells: u32) -> Vec<u32> {
    if tier < cells {
        vec![tier + 1]
    } else {
        Vec::new()
    }
}

/// The children of a board of tier `t` in the ranking by pieces placed (connect four, the
/// m,n,k-games), into `out`: one for each of `drops` — the place `p` the new mark takes
/// among the marks, and the first rank `base` of the child's block in tier `t + 1` — its
/// rank the block's plus the colex rank of `marks` (the marks of the side that moved last,
/// as a subset of all the marks) with the new mark inserted, set when `mover_marks` (the
/// new mark is one of `marks`' side).
pub fn drop_children(
    out: &mut Vec<Child>,
    t: u32,
    drops: impl IntoIterator<Item = (u32, u64)>,
    marks: u64,
    mover_marks: bool,
    binom: &Binomials,
) {
    out.clear();
    for (p, base) in drops {
        out.push(Child::to(
            t + 1,
            base + binom.colex(insert(marks, p, mover_marks)),
        ));
    }
}

/// Why a board of a game won by completing a line cannot arise in play, if it cannot:
/// the player to move (`mover`'s marks) holds a line (the game ended when they made it,
/// yet the other moved after), or the player who moved last (`last`) holds lines that no
/// single last mark of theirs completed (the game was over before). `last_marks` are the
/// marks of `last` that could have been placed last (every mark of a tic-tac-toe board;
/// the top disc of each column in connect four). `names` are the two players as written,
/// the mover first.
#[must_use]
pub fn impossible_line_board(
    lines: &[u64],
    mover: u64,
    last: u64,
    last_marks: u64,
    names: [&str; 2],
) -> Option<String> {
    let holds = |marks: u64| lines.iter().any(|&l| l & !marks == 0);
    if holds(mover) {
        return Some(format!(
            "{} holds a line but is to move: the game ended when it was made, and {} moved after",
            names[0], names[1]
        ));
    }
    if !holds(last) {
        return None;
    }
    let mut candidates = last_marks & last;
    while candidates != 0 {
        let mark = candidates & candidates.wrapping_neg();
        if !holds(last & !mark) {
            return None;
        }
        candidates &= candidates - 1;
    }
    Some(format!(
        "{} holds lines that no one last move of theirs made: the game was over before",
        names[1]
    ))
}
