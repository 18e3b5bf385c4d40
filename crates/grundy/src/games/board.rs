//! Boards of two masks `[x, o]` (m,n,k-games, hex, connect four, quixo): what a cell shows,
//! the one cell a move marks, and the picture of the board for the web page.

use super::family::{Picture, Pos};

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

/// The one cell `to` marks that `from` leaves empty; `None` unless there is exactly one.
#[must_use]
pub fn placed(from: &Pos, to: &Pos) -> Option<u32> {
    let added = (to[0] | to[1]) & !(from[0] | from[1]);
    (added.count_ones() == 1).then(|| added.trailing_zeros())
}

/// The picture of a board of `rows` × `columns` cells, `cell(row, column)` the cell shown
/// at each place (row 0 at the top): `"X"`, `"O"` or `""`.
#[must_use]
pub fn picture(
    pos: &Pos,
    rows: u32,
    columns: u32,
    skew: bool,
    cell: impl Fn(u32, u32) -> u32,
) -> Picture {
    let cells = (0..rows)
        .flat_map(|r| (0..columns).map(move |c| (r, c)))
        .map(|(r, c)| match mark(pos, cell(r, c), ['X', 'O', '.']) {
            '.' => String::new(),
            m => m.to_string(),
        })
        .collect();
    Picture {
        rows,
        columns,
        cells,
        skew,
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
