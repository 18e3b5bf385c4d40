//! Attractors on subgames of an arena — the retrograde engine
//! ([`engine::propagate`](crate::engine::propagate) with the
//! [`Attractor`](crate::engine::Attractor) rule), with caller-owned scratch so that solvers
//! that compute thousands of attractors (Zielonka, Büchi) allocate nothing per call.
//!
//! A subgame is a set of vertices given by a membership mask; vertices outside it are
//! [`EXCLUDED`](crate::engine::EXCLUDED) for the engine and never looked at, so an attractor
//! costs O(size of the subgame + its edges), not O(arena).

use super::arena::Arena;
use crate::engine::{self, Attractor};

/// The player other than `p` (players are 0 and 1).
#[inline]
#[must_use]
pub fn opponent(p: u8) -> u8 {
    1 - p
}

/// Scratch for attractor computations on one arena: one state word per vertex (kept at
/// [`engine::EXCLUDED`] between calls) and a queue.
#[derive(Debug, Clone)]
pub struct Attractors {
    state: Vec<u32>,
    queue: Vec<u32>,
}

/// An attractor: its vertices in the order they joined (targets first), and for the
/// attracting player's vertices that joined by a move, the move.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Attracted {
    /// The attractor's vertices, targets first, then by rank.
    pub vertices: Vec<u32>,
    /// `(v, w)`: the attracting player's vertex `v` (not a target) moves to `w`, which
    /// joined earlier: following these moves reaches a target.
    pub strategy: Vec<(u32, u32)>,
}

impl Attractors {
    /// Scratch for `arena`.
    #[must_use]
    pub fn new(arena: &Arena) -> Attractors {
        Attractors {
            state: vec![engine::EXCLUDED; arena.len()],
            queue: Vec::new(),
        }
    }

    /// The attractor of `target` for `player` within the subgame `members` (a list of its
    /// vertices) whose membership mask is `in_game`: every vertex from which `player`
    /// can force the play into `target` while staying in the subgame. Targets outside
    /// the subgame are ignored. A vertex of the opponent without successors in the
    /// subgame joins (its owner cannot move there).
    ///
    /// # Complexity
    /// O(|members| + edges out of and into members).
    pub fn attract(
        &mut self,
        arena: &Arena,
        members: &[u32],
        in_game: &[bool],
        player: u8,
        target: impl IntoIterator<Item = u32>,
    ) -> Attracted {
        let state = &mut self.state;
        for &v in members {
            let inside = arena
                .successors(v)
                .iter()
                .filter(|&&w| in_game[w as usize])
                .count() as u64;
            // A subgame's degree never exceeds the arena's, which fits (parsers check).
            state[v as usize] = engine::undecided(inside).unwrap_or(engine::MAX_DISTANCE);
        }
        self.queue.clear();
        for t in target {
            if in_game[t as usize] && engine::read(state[t as usize]).is_none() {
                state[t as usize] = engine::decided(true, 0);
                self.queue.push(t);
            }
        }
        // Opponent vertices stuck inside the subgame are lost for their owner.
        for &v in members {
            if state[v as usize] == 0 && arena.owner(v) != player {
                state[v as usize] = engine::decided(true, 0);
                self.queue.push(v);
            }
        }
        let rule = Attractor {
            owner: arena.owners(),
            player,
        };
        // Distances stay far below the limit: at most one per vertex.
        let _ = engine::propagate(arena.reverse(), state, &mut self.queue, 0, &rule);
        let mut strategy = Vec::new();
        for &v in &self.queue {
            let (_, d) = engine::read(state[v as usize]).expect("queued vertices are decided");
            if d > 0 && arena.owner(v) == player {
                let w = arena
                    .successors(v)
                    .iter()
                    .copied()
                    .find(|&w| {
                        in_game[w as usize]
                            && engine::read(state[w as usize]).is_some_and(|(_, dw)| dw < d)
                    })
                    .expect("a vertex attracted by a move has an earlier successor");
                strategy.push((v, w));
            }
        }
        for &v in members {
            state[v as usize] = engine::EXCLUDED;
        }
        Attracted {
            vertices: std::mem::take(&mut self.queue),
            strategy,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::brute;
    use crate::graph::ArenaBuilder;

    #[test]
    fn matches_the_naive_fixpoint_on_small_arenas() {
        // Deterministic pseudo-random arenas, compared with the brute-force attractor.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..500 {
            let n = 1 + next(9) as u32;
            let mut b = ArenaBuilder::new();
            for _ in 0..n {
                let k = next(4);
                let succ: Vec<u32> = (0..k).map(|_| next(u64::from(n)) as u32).collect();
                b.push(next(2) as u8, 0, succ);
            }
            let arena = b.build().unwrap();
            let target: Vec<bool> = (0..n).map(|_| next(3) == 0).collect();
            let player = next(2) as u8;
            let members: Vec<u32> = arena.vertices().collect();
            let in_game = vec![true; n as usize];
            let mut scratch = Attractors::new(&arena);
            let got = scratch.attract(
                &arena,
                &members,
                &in_game,
                player,
                (0..n).filter(|&v| target[v as usize]),
            );
            let want = brute::attractor(&arena, player, &target);
            let mut mask = vec![false; n as usize];
            for &v in &got.vertices {
                mask[v as usize] = true;
            }
            assert_eq!(
                mask, want,
                "arena {arena:?} player {player} target {target:?}"
            );
            // The strategy moves to an attracted vertex.
            for (v, w) in got.strategy {
                assert!(mask[w as usize] && arena.successors(v).contains(&w));
            }
        }
    }
}
