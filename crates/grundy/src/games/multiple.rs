//! The k-fold take-away game of seed 000: `n` stones; a move takes 1..=limit, and the next
//! player may take up to k times that (never more than is left). The starting limit is
//! n − 1 (anything but all). k = 2 is Fibonacci Nim.

use crate::explore::Control;
use crate::game::{Game, ImpartialGame, IndexedGame};
use crate::Error;

/// The k-fold take-away game, positions `(stones, limit)` with `limit ≤ stones`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Multiple {
    /// The multiplier.
    pub k: u64,
    /// The most stones any explored position has (bounds [`IndexedGame::index`]).
    pub max_stones: u64,
}

impl Multiple {
    /// The position after taking `t` from `(n, limit)`.
    #[inline]
    #[must_use]
    pub fn after(&self, (n, _): (u64, u64), t: u64) -> (u64, u64) {
        let rest = n - t;
        (rest, rest.min(self.k.saturating_mul(t)))
    }

    /// Grundy values of every position `(n, limit)` with `n ≤ max_stones`, as a
    /// triangular table indexed by [`IndexedGame::index`].
    ///
    /// The options of `(n, l)` are those of `(n, l − 1)` plus one, so each row is one
    /// growing set and its mex only rises: O(N²) time in all, 2·N² bytes.
    ///
    /// # Errors
    /// [`Error::Cancelled`] if stopped; [`Error::Overflow`] if the table does not fit
    /// the address space.
    pub fn table(&self, control: &Control<'_>) -> Result<Vec<u32>, Error> {
        let size = usize::try_from(self.index_bound()).map_err(|_| Error::Overflow)?;
        let mut g = vec![0u32; size];
        let mut seen: Vec<bool> = Vec::new();
        for n in 1..=self.max_stones {
            if n % 256 == 0 {
                control.check()?;
                control.report("grundy table", n);
            }
            seen.clear();
            seen.resize(n as usize + 2, false);
            let mut m = 0u32;
            for l in 1..=n {
                let child = g[self.index(&self.after((n, l), l)) as usize] as usize;
                if child < seen.len() {
                    seen[child] = true;
                }
                while seen[m as usize] {
                    m += 1;
                }
                g[self.index(&(n, l)) as usize] = m;
            }
        }
        Ok(g)
    }
}

/// `thresholds[m]` for a position with `m` stones: the least limit from which it is won
/// (the least winning take), or [`NO_WINNING_TAKE`] when no limit wins (only `m = 0`).
pub const NO_WINNING_TAKE: u64 = u64::MAX;

impl Multiple {
    /// The outcome of every position with at most `max_stones` stones, as thresholds:
    /// `(m, l)` is won iff `l ≥ thresholds[m]`.
    ///
    /// This is the general method's table for this family, stored compactly: a position
    /// with more allowed stones has every move of one with fewer, so for each `m` the
    /// won limits are an interval `[T(m), m]`, and `T(m)` is the least `t` whose move
    /// leaves a lost position, `min(m − t, k·t) < T(m − t)`.
    ///
    /// # Complexity
    /// O(N²) time in the worst case (each row stops at its first winning take), 8 bytes
    /// per stone count.
    ///
    /// # Errors
    /// [`Error::Cancelled`] if stopped; [`Error::Overflow`] if it cannot be indexed.
    pub fn thresholds(&self, control: &Control<'_>) -> Result<Vec<u64>, Error> {
        let n = usize::try_from(self.max_stones).map_err(|_| Error::Overflow)?;
        let mut t = Vec::with_capacity(n + 1);
        t.push(NO_WINNING_TAKE);
        for m in 1..=n as u64 {
            if m % 1024 == 0 {
                control.check()?;
                control.report("thresholds", m);
            }
            let first = (1..=m)
                .find(|&take| {
                    let (rest, limit) = self.after((m, m), take);
                    limit < t[rest as usize]
                })
                .expect("taking every stone leaves (0, 0), which is lost");
            t.push(first);
        }
        Ok(t)
    }
}

impl Game for Multiple {
    type Position = (u64, u64);

    fn moves(&self, &(n, limit): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        out.extend((1..=limit.min(n)).map(|t| self.after((n, limit), t)));
    }
}

impl ImpartialGame for Multiple {}

impl IndexedGame for Multiple {
    fn index_bound(&self) -> u64 {
        let n = self.max_stones;
        (n + 1).saturating_mul(n + 2) / 2
    }

    #[inline]
    fn index(&self, &(n, limit): &(u64, u64)) -> u64 {
        n * (n + 1) / 2 + limit.min(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::solve;

    #[test]
    fn thresholds_agree_with_the_general_method() {
        for k in 1..=4 {
            let game = Multiple { k, max_stones: 40 };
            let t = game.thresholds(&Control::default()).unwrap();
            for m in 0..=40u64 {
                for l in 0..=m {
                    let s = solve(&game, &(m, l), &Control::default()).unwrap();
                    let won = s.root_value().outcome() == crate::game::Outcome::Win;
                    assert_eq!(won, l >= t[m as usize], "k {k} position ({m}, {l})");
                }
            }
        }
    }

    #[test]
    fn seed_state_tree_for_4_3() {
        let game = Multiple {
            k: 2,
            max_stones: 4,
        };
        let mut out = Vec::new();
        game.moves(&(4, 3), &mut out);
        assert_eq!(out, vec![(3, 2), (2, 2), (1, 1)]);
        out.clear();
        game.moves(&(3, 2), &mut out);
        assert_eq!(out, vec![(2, 2), (1, 1)]);
        out.clear();
        game.moves(&(2, 2), &mut out);
        assert_eq!(out, vec![(1, 1), (0, 0)]);
    }
}
