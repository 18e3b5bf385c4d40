//! Brute-force reference solvers for tiny arenas, for tests: obviously correct, exponentially
//! slow. Fast solvers and the [`verify`](crate::graph::verify) checker are tested against them.
//!
//! Conventions as everywhere in [`graph`](crate::graph): max-even parity (player 0 wins a play
//! whose highest priority seen infinitely often is even) and normal play at dead ends (the
//! player who has to move and cannot, loses).

use thiserror::Error;

use super::arena::Arena;

/// The most (player-0 strategy × player-1 strategy) pairs [`solve_parity`] will enumerate.
/// Each pair costs O(n²) steps, and the enumeration runs twice (once per player).
pub const MAX_STRATEGY_PAIRS: u64 = 1 << 20;

/// Why the brute-force solver gave up.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum BruteError {
    /// More strategy pairs than [`MAX_STRATEGY_PAIRS`].
    #[error(
        "too many positional strategy pairs to enumerate ({pairs}, limit {MAX_STRATEGY_PAIRS})"
    )]
    TooLarge {
        /// The number of pairs (saturating).
        pairs: u64,
    },
    /// The theorems behind the method failed (the regions do not partition the vertices, or no
    /// single positional strategy wins a whole region): a bug in this module, never expected.
    #[error("internal error: {0}")]
    Internal(&'static str),
}

/// The solution of a parity game: the winner of every vertex and a uniform positional winning
/// strategy for each player on its region (`strategy[v]` is set exactly where the owner of `v`
/// wins `v` and has a move).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BruteSolution {
    /// The winner (0 or 1) of each dense vertex.
    pub winner: Vec<u8>,
    /// The winner's move at each vertex it owns.
    pub strategy: Vec<Option<u32>>,
}

/// The number of positional strategies of `player` (the product of its vertices' out-degrees,
/// dead ends counting 1), saturating at `u64::MAX`.
pub fn strategy_count(arena: &Arena, player: u8) -> u64 {
    arena
        .vertices()
        .filter(|&v| arena.owner(v) == player)
        .fold(1u64, |acc, v| {
            acc.saturating_mul(arena.out_degree(v).max(1) as u64)
        })
}

/// The winner of the play from `from` when every vertex `v` moves to `profile[v]` (`None` only
/// at dead ends): follow the moves until a vertex repeats (the play is a lasso) and take the
/// highest priority on the loop; a dead end is lost by its owner.
///
/// `profile` must have one entry per vertex, each a successor of its vertex (the caller's
/// contract: this is test code, and it panics on an index out of range).
///
/// # Complexity
/// O(n).
pub fn play_winner(arena: &Arena, profile: &[Option<u32>], from: u32) -> u8 {
    let mut seen_at = vec![usize::MAX; arena.len()];
    let mut path: Vec<u32> = Vec::new();
    let mut v = from;
    loop {
        if seen_at[v as usize] != usize::MAX {
            let top = path[seen_at[v as usize]..]
                .iter()
                .map(|&u| arena.priority(u))
                .max()
                .unwrap_or(0);
            return (top % 2) as u8;
        }
        seen_at[v as usize] = path.len();
        path.push(v);
        match profile[v as usize] {
            Some(next) => v = next,
            None => return 1 - arena.owner(v),
        }
    }
}

/// Every positional strategy of `player`, as an odometer over its vertices' successor lists.
struct Strategies<'a> {
    arena: &'a Arena,
    /// The vertices of `player` that have a choice to make (out-degree ≥ 1).
    vertices: Vec<u32>,
    digits: Vec<usize>,
    started: bool,
}

impl<'a> Strategies<'a> {
    fn new(arena: &'a Arena, player: u8) -> Self {
        let vertices: Vec<u32> = arena
            .vertices()
            .filter(|&v| arena.owner(v) == player && arena.out_degree(v) > 0)
            .collect();
        let digits = vec![0; vertices.len()];
        Strategies {
            arena,
            vertices,
            digits,
            started: false,
        }
    }

    /// Writes the next strategy into `profile` (at this player's vertices only); false when all
    /// have been seen.
    fn next_into(&mut self, profile: &mut [Option<u32>]) -> bool {
        if self.started {
            let mut i = 0;
            loop {
                if i == self.vertices.len() {
                    return false;
                }
                self.digits[i] += 1;
                if self.digits[i] < self.arena.out_degree(self.vertices[i]) {
                    break;
                }
                self.digits[i] = 0;
                i += 1;
            }
        }
        self.started = true;
        for (&v, &d) in self.vertices.iter().zip(&self.digits) {
            profile[v as usize] = Some(self.arena.successors(v)[d]);
        }
        true
    }
}

/// For each strategy of `player`, the set of vertices from which it wins against every
/// strategy of the opponent; returns the union of those sets and a strategy whose set is
/// largest (with its set).
fn best_strategy(arena: &Arena, player: u8) -> (Vec<bool>, Vec<Option<u32>>, Vec<bool>) {
    let n = arena.len();
    let mut profile: Vec<Option<u32>> = vec![None; n];
    let mut union = vec![false; n];
    let mut best: (usize, Vec<Option<u32>>, Vec<bool>) = (0, vec![None; n], vec![false; n]);
    let mut first = true;
    let won = |profile: &[Option<u32>], v: u32| play_winner(arena, profile, v) == player;
    each_strategy(arena, player, &mut profile, won, |profile, wins| {
        let count = wins.iter().filter(|&&w| w).count();
        for v in 0..n {
            union[v] |= wins[v];
        }
        if first || count > best.0 {
            first = false;
            let strategy = (0..n)
                .map(|v| {
                    if arena.owner(v as u32) == player {
                        profile[v]
                    } else {
                        None
                    }
                })
                .collect();
            best = (count, strategy, wins);
        }
    });
    (union, best.1, best.2)
}

/// Calls `each(profile, wins)` for each strategy of `player` (its moves in `profile`):
/// `wins[v]`, whether it wins from `v` against every strategy of the opponent, a play
/// from `v` won when `won(profile, v)`.
fn each_strategy(
    arena: &Arena,
    player: u8,
    profile: &mut [Option<u32>],
    won: impl Fn(&[Option<u32>], u32) -> bool,
    mut each: impl FnMut(&[Option<u32>], Vec<bool>),
) {
    let mut mine = Strategies::new(arena, player);
    while mine.next_into(profile) {
        let mut wins = vec![true; arena.len()];
        let mut theirs = Strategies::new(arena, 1 - player);
        while theirs.next_into(profile) {
            for v in arena.vertices() {
                if wins[v as usize] && !won(profile, v) {
                    wins[v as usize] = false;
                }
            }
        }
        each(profile, wins);
    }
}

/// Solves a parity game by enumerating positional strategies: player `i` wins from `v` iff some
/// positional strategy of `i` wins the lasso play from `v` against every positional strategy of
/// the opponent (exact, by positional determinacy of parity games). Both players are solved
/// independently and the results are checked to partition the vertices; the strategy returned
/// for each player is a single positional strategy winning from its whole region (uniform
/// positional strategies exist by the same theorem, and this is checked too).
///
/// # Complexity
/// O(S0 · S1 · n²) time, S0 and S1 the numbers of positional strategies; fails with
/// [`BruteError::TooLarge`] when S0 · S1 exceeds [`MAX_STRATEGY_PAIRS`].
pub fn solve_parity(arena: &Arena) -> Result<BruteSolution, BruteError> {
    let pairs = strategy_count(arena, 0).saturating_mul(strategy_count(arena, 1));
    if pairs > MAX_STRATEGY_PAIRS {
        return Err(BruteError::TooLarge { pairs });
    }
    let n = arena.len();
    let (w0, s0, best0) = best_strategy(arena, 0);
    let (w1, s1, best1) = best_strategy(arena, 1);
    if (0..n).any(|v| w0[v] == w1[v]) {
        return Err(BruteError::Internal(
            "the regions do not partition the vertices",
        ));
    }
    if best0 != w0 || best1 != w1 {
        return Err(BruteError::Internal(
            "no uniform positional winning strategy",
        ));
    }
    let winner: Vec<u8> = (0..n).map(|v| if w0[v] { 0 } else { 1 }).collect();
    let strategy = (0..n)
        .map(|v| {
            let own = arena.owner(v as u32);
            match (own == winner[v], own) {
                (true, 0) => s0[v],
                (true, _) => s1[v],
                (false, _) => None,
            }
        })
        .collect();
    Ok(BruteSolution { winner, strategy })
}

/// The attractor of `target` for `player` by naive fixpoint iteration: the vertices from which
/// `player` can force the play into `target`. A vertex joins when `player` owns it and some
/// successor is in, or the opponent owns it and every successor is in — vacuously so at the
/// opponent's dead ends, matching normal play (the stuck opponent loses). `player`'s own dead
/// ends outside `target` never join.
///
/// # Complexity
/// O(n · (n + m)).
pub fn attractor(arena: &Arena, player: u8, target: &[bool]) -> Vec<bool> {
    let mut inside: Vec<bool> = target.to_vec();
    inside.resize(arena.len(), false);
    loop {
        let mut changed = false;
        for v in arena.vertices() {
            if inside[v as usize] {
                continue;
            }
            let succ = arena.successors(v);
            let joins = if arena.owner(v) == player {
                succ.iter().any(|&s| inside[s as usize])
            } else {
                succ.iter().all(|&s| inside[s as usize])
            };
            if joins {
                inside[v as usize] = true;
                changed = true;
            }
        }
        if !changed {
            return inside;
        }
    }
}

/// The reachability game by brute force over plays: `player` wins from `v` iff some positional
/// strategy of `player` reaches `target` from `v` against every positional strategy of the
/// opponent (dead ends: the stuck player loses, reaching `target` first counts). A second,
/// independent reference for [`attractor`].
///
/// # Complexity
/// O(S0 · S1 · n²), limited like [`solve_parity`].
pub fn reachability(arena: &Arena, player: u8, target: &[bool]) -> Result<Vec<bool>, BruteError> {
    let pairs = strategy_count(arena, 0).saturating_mul(strategy_count(arena, 1));
    if pairs > MAX_STRATEGY_PAIRS {
        return Err(BruteError::TooLarge { pairs });
    }
    let n = arena.len();
    let reaches = |profile: &[Option<u32>], from: u32| -> bool {
        let mut v = from;
        for _ in 0..=n {
            if target.get(v as usize).copied().unwrap_or(false) {
                return true;
            }
            match profile[v as usize] {
                Some(next) => v = next,
                None => return arena.owner(v) != player,
            }
        }
        false
    };
    let mut profile: Vec<Option<u32>> = vec![None; n];
    let mut won = vec![false; n];
    each_strategy(arena, player, &mut profile, reaches, |_, wins| {
        for v in 0..n {
            won[v] |= wins[v];
        }
    });
    Ok(won)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::arena::ArenaBuilder;

    #[test]
    fn small_parity_game() {
        // 0 (p0, 1) -> 0 | 1 ; 1 (p1, 2) -> 1 | 2 ; 2 (p1, 3) -> 2 | 0.
        // Player 1 at 1 loops on priority 2 (bad for it) or goes to 2 and loops on 3 (good).
        let a = Arena::of(&[(0, 1, &[0, 1]), (1, 2, &[1, 2]), (1, 3, &[2, 0])]);
        let s = solve_parity(&a).unwrap();
        assert_eq!(s.winner, vec![1, 1, 1]);
        assert_eq!(s.strategy, vec![None, Some(2), Some(2)]);
    }

    #[test]
    fn dead_ends() {
        // 0 (p0) -> 1 ; 1 (p1) stuck. 2 (p0) stuck.
        let a = Arena::of(&[(0, 1, &[1]), (1, 0, &[]), (0, 0, &[])]);
        let s = solve_parity(&a).unwrap();
        assert_eq!(s.winner, vec![0, 0, 1]);
        assert_eq!(s.strategy, vec![Some(1), None, None]);
        assert_eq!(play_winner(&a, &[Some(1), None, None], 0), 0);
    }

    #[test]
    fn attractors_agree() {
        // 0 (p0) -> 1, 2 ; 1 (p1) -> 0, 3 ; 2 (p1) -> 3 ; 3 target ; 4 (p1) stuck ; 5 (p0) stuck.
        let a = Arena::of(&[
            (0, 0, &[1, 2]),
            (1, 0, &[0, 3]),
            (1, 0, &[3]),
            (0, 0, &[3]),
            (1, 0, &[]),
            (0, 0, &[]),
        ]);
        let target = [false, false, false, true, false, false];
        let attr = attractor(&a, 0, &target);
        assert_eq!(attr, vec![true, true, true, true, true, false]);
        assert_eq!(reachability(&a, 0, &target).unwrap(), attr);
    }

    #[test]
    fn refuses_large() {
        let mut b = ArenaBuilder::new();
        for _ in 0..30 {
            b.push(0, 0, [0, 1, 2]);
        }
        let a = b.build().unwrap();
        assert!(matches!(solve_parity(&a), Err(BruteError::TooLarge { .. })));
        assert_eq!(strategy_count(&a, 1), 1);
    }
}
