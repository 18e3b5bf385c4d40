//! Wythoff's game: two piles; a move takes any positive number from one pile, or the same
//! positive number from both.

use crate::explore::Control;
use crate::game::{Game, ImpartialGame};
use crate::impartial::mex;
use crate::Error;

/// Wythoff's game, positions `(a, b)`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wythoff;

impl Wythoff {
    /// Grundy values of every `(a, b)` with `a, b ≤ n`, row-major (`a * (n + 1) + b`).
    ///
    /// # Complexity
    /// O(n³) time, 4·(n + 1)² bytes.
    ///
    /// # Errors
    /// [`Error::Cancelled`] if stopped; [`Error::Overflow`] if it cannot be indexed.
    pub fn table(n: u64, control: &Control<'_>) -> Result<Vec<u32>, Error> {
        let side = usize::try_from(n).map_err(|_| Error::Overflow)? + 1;
        let size = side.checked_mul(side).ok_or(Error::Overflow)?;
        let mut g = vec![0u32; size];
        let mut seen = Vec::new();
        for a in 0..side {
            control.check()?;
            control.report("grundy table", a as u64);
            for b in 0..side {
                let row = (0..a).map(|x| g[x * side + b]);
                let col = (0..b).map(|y| g[a * side + y]);
                let diag = (1..=a.min(b)).map(|t| g[(a - t) * side + (b - t)]);
                g[a * side + b] = mex(row.chain(col).chain(diag), &mut seen);
            }
        }
        Ok(g)
    }
}

impl Game for Wythoff {
    type Position = (u64, u64);

    fn moves(&self, &(a, b): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        out.extend((0..a).rev().map(|x| (x, b)));
        out.extend((0..b).rev().map(|y| (a, y)));
        out.extend((1..=a.min(b)).map(|t| (a - t, b - t)));
    }

    fn canonical(&self, &(a, b): &(u64, u64)) -> (u64, u64) {
        (a.min(b), a.max(b))
    }
}

impl ImpartialGame for Wythoff {}
