//! Parity-game families for tests and benchmarks: seeded random games, and structured
//! families whose shape stresses one part of a solver (long attractor chains, many distinct
//! priorities, and known exponential cases for Zielonka's algorithm).
//!
//! Every generator is deterministic (a seed where random) and returns an arena without
//! dead ends.

use crate::graph::arena::{Arena, ArenaBuilder};

/// A small, fast, seedable generator (xorshift64*), so games are the same on every machine.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value; 0 is remapped).
    #[must_use]
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..m` (`m > 0`), by multiply-shift (bias below 2^-32 for `m < 2^32`).
    pub fn below(&mut self, m: u64) -> u64 {
        ((u128::from(self.next_u64() >> 32) * u128::from(m)) >> 32) as u64
    }
}

/// A random game in the style of PGSolver's `randomgame` and Oink's `rngame`: each vertex
/// gets a random owner, a priority uniform in `0..priorities`, and an out-degree uniform in
/// `min_degree..=max_degree` of distinct, uniformly random targets (itself excluded unless
/// `self_loops`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RandomGame {
    /// The number of vertices (at least 2; default 1000).
    pub n: usize,
    /// Priorities are drawn from `0..priorities` (default: `n`).
    pub priorities: u32,
    /// The least out-degree (at least 1; default 2).
    pub min_degree: u32,
    /// The largest out-degree (capped at the number of possible targets; default 5).
    pub max_degree: u32,
    /// Whether a vertex may be its own successor (default `false`: self-loops make random
    /// games easy, since preprocessing solves most of them).
    pub self_loops: bool,
    /// The seed (default 1).
    pub seed: u64,
}

impl RandomGame {
    /// `n` vertices, priorities `0..n`, out-degree 2 to 5, no self-loops, seed 1.
    #[must_use]
    pub fn new(n: usize) -> RandomGame {
        RandomGame {
            n,
            priorities: u32::try_from(n).unwrap_or(u32::MAX),
            min_degree: 2,
            max_degree: 5,
            self_loops: false,
            seed: 1,
        }
    }

    /// Builds the game.
    ///
    /// # Panics
    /// If `n < 2` or `n` does not fit in `u32`.
    #[must_use]
    pub fn build(&self) -> Arena {
        let n = self.n;
        assert!(n >= 2 && n <= u32::MAX as usize);
        let mut rng = Rng::new(self.seed);
        let choices = if self.self_loops { n } else { n - 1 } as u64;
        let hi = u64::from(self.max_degree.max(1)).min(choices);
        let lo = u64::from(self.min_degree.max(1)).min(hi);
        let mut b = ArenaBuilder::new();
        let mut succ: Vec<u32> = Vec::with_capacity(hi as usize);
        for v in 0..n as u32 {
            let owner = (rng.next_u64() >> 63) as u8;
            let priority = rng.below(u64::from(self.priorities.max(1))) as u32;
            let degree = lo + rng.below(hi - lo + 1);
            succ.clear();
            while (succ.len() as u64) < degree {
                let mut w = rng.below(choices) as u32;
                if !self.self_loops && w >= v {
                    w += 1;
                }
                if !succ.contains(&w) {
                    succ.push(w);
                }
            }
            b.push(owner, priority, succ.iter().copied());
        }
        b.build().expect("a random game is well formed")
    }
}

/// A ladder of `n` rungs: two rails `a_i` (player 0) and `b_i` (player 1); `a_i` moves up
/// its rail to `a_{i+1}` or across to `b_i`, `b_i` up to `b_{i+1}` or across to `a_i`; the
/// top rung returns to the bottom. Rung `i` has priorities `2i` on `a_i` and `2i + 1` on
/// `b_i`, so each player keeps the play on its own rail near the top: one big SCC with `2n`
/// distinct priorities and attractors `n` steps deep.
///
/// # Panics
/// If `n` is 0 or `2n` does not fit in `u32`.
#[must_use]
pub fn ladder(n: usize) -> Arena {
    assert!(n > 0 && 2 * n <= u32::MAX as usize);
    let n32 = n as u32;
    let a = |i: u32| 2 * (i % n32);
    let b = |i: u32| 2 * (i % n32) + 1;
    let mut g = ArenaBuilder::new();
    for i in 0..n32 {
        g.push(0, 2 * i, [a(i + 1), b(i)]);
        g.push(1, 2 * i + 1, [b(i + 1), a(i)]);
    }
    g.build().expect("a ladder is well formed")
}

/// `n` nested cycles: vertex `i` (priority `i`, owner `i mod 2`) moves down to `i - 1` or
/// back up to the top vertex `n - 1`; vertex 0 moves to the top. Every vertex's owner can
/// close a cycle whose top is its own priority, so Zielonka's algorithm recurses once per
/// priority: `n` distinct priorities, recursion `n` deep.
///
/// # Panics
/// If `n` is 0 or does not fit in `u32`.
#[must_use]
pub fn nested_cycles(n: usize) -> Arena {
    assert!(n > 0 && n <= u32::MAX as usize);
    let top = n as u32 - 1;
    let mut g = ArenaBuilder::new();
    for i in 0..n as u32 {
        if i == 0 {
            g.push(0, 0, [top]);
        } else {
            g.push((i % 2) as u8, i, [i - 1, top]);
        }
    }
    g.build().expect("nested cycles are well formed")
}

/// Friedmann's family on which Zielonka's algorithm takes exponential time (O. Friedmann,
/// "Recursive algorithm for parity games requires exponential time", RAIRO-ITA 45(4), 2011):
/// `5n` vertices in five groups `a_1..a_n`, `b_1..b_n`, `c_0..c_{n-1}`, `d_0..d_{n-1}`,
/// `e_0..e_{n-1}` (ids in that order), as the paper defines them; the number of recursive
/// calls grows like the Fibonacci numbers.
///
/// # Panics
/// If `n` is 0 or too large for `u32` ids and priorities.
#[must_use]
pub fn friedmann(n: usize) -> Arena {
    assert!(n > 0 && 5 * n < (u32::MAX / 4) as usize);
    let n32 = n as u32;
    let a = |i: u32| i - 1;
    let b = |i: u32| n32 + i - 1;
    let c = |i: u32| 2 * n32 + i;
    let d = |i: u32| 3 * n32 + i;
    let mut g = ArenaBuilder::new();
    let odd = |i: u32| (i & 1) as u8;
    for i in 1..=n32 {
        g.push(odd(i) ^ 1, (i & 1) ^ 1, [b(i), d(i - 1)]);
    }
    for i in 1..=n32 {
        let mut succ = vec![a(i)];
        if i < n32 {
            succ.push(c(i));
        }
        g.push(odd(i), (i & 1) ^ 1, succ);
    }
    for i in 0..n32 {
        g.push(odd(i) ^ 1, 3 * i + 5, [b(i + 1), d(i)]);
    }
    for i in 0..n32 {
        let mut succ = vec![c(i)];
        if i > 0 {
            succ.push(d(i - 1));
        }
        if i + 1 < n32 {
            succ.push(d(i + 1));
        }
        g.push(odd(i), 3 * i + 4, succ);
    }
    for i in 0..n32 {
        g.push(odd(i) ^ 1, 3 * i + 3, [b(i + 1), d(i)]);
    }
    g.build().expect("Friedmann's game is well formed")
}

/// The family of Gazda and Willemse on which Zielonka's algorithm stays exponential even
/// with SCC decomposition ("Zielonka's recursive algorithm: dull, weak and solitaire games
/// and tighter bounds", GandALF 2013): `3n` vertices `x_i, y_i, z_i` (ids in that order) and
/// `n + 2` priorities. `x_i` (owner `i mod 2`, priority `i + 2`) moves to `y_i` or
/// `x_{i+1}`; `y_i` (owner `i mod 2`, priority `(i + 1) mod 2`) to `z_i` or `x_{i+1}`;
/// `z_i` (owner `(i + 1) mod 2`, priority `(i + 1) mod 2`) to `y_i` or `z_{i-1}`.
///
/// # Panics
/// If `n` is 0 or `3n` does not fit in `u32`.
#[must_use]
pub fn gazda_willemse(n: usize) -> Arena {
    assert!(n > 0 && 3 * n < u32::MAX as usize);
    let n32 = n as u32;
    let mut g = ArenaBuilder::new();
    for i in 0..n32 {
        let mut succ = vec![n32 + i];
        if i + 1 < n32 {
            succ.push(i + 1);
        }
        g.push((i & 1) as u8, i + 2, succ);
    }
    for i in 0..n32 {
        let mut succ = vec![2 * n32 + i];
        if i + 1 < n32 {
            succ.push(i + 1);
        }
        g.push((i & 1) as u8, (i + 1) & 1, succ);
    }
    for i in 0..n32 {
        let mut succ = vec![n32 + i];
        if i > 0 {
            succ.push(2 * n32 + i - 1);
        }
        g.push(((i + 1) & 1) as u8, (i + 1) & 1, succ);
    }
    g.build().expect("the Gazda-Willemse game is well formed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        let r = RandomGame::new(1000).build();
        assert_eq!(r.len(), 1000);
        assert!(r
            .vertices()
            .all(|v| (2..=5).contains(&r.out_degree(v)) && !r.successors(v).contains(&v)));
        assert_eq!(RandomGame::new(1000).build(), r, "deterministic");
        assert_eq!(ladder(10).len(), 20);
        assert_eq!(nested_cycles(10).max_priority(), Some(9));
        let f = friedmann(4);
        assert_eq!(f.len(), 20);
        assert!(f.first_dead_end().is_none());
        let g = gazda_willemse(5);
        assert_eq!(g.len(), 15);
        assert!(g.first_dead_end().is_none());
    }
}
