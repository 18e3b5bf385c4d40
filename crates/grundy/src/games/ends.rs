//! IOI 1996 "A Game": a row of numbers; players alternately take the number at either
//! end; each player's score is the sum of what they took.

use crate::game::{Game, ScoreGame};

/// The end-taking game on a fixed row; a position is the half-open range `(left, right)`
/// still on the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ends {
    /// The numbers, left to right.
    pub row: Vec<i64>,
}

impl Ends {
    /// The starting position: the whole row.
    #[must_use]
    pub fn start(&self) -> (usize, usize) {
        (0, self.row.len())
    }
}

impl Game for Ends {
    type Position = (usize, usize);

    fn moves(&self, &(l, r): &(usize, usize), out: &mut Vec<(usize, usize)>) {
        if l < r {
            out.push((l + 1, r));
            if r - l > 1 {
                out.push((l, r - 1));
            }
        }
    }
}

impl ScoreGame for Ends {
    fn gain(&self, &(l, r): &(usize, usize), to: &(usize, usize)) -> i64 {
        if to.0 == l + 1 {
            self.row[l]
        } else {
            self.row[r - 1]
        }
    }
}
