//! Reachability, safety, Büchi and co-Büchi games on an arena, with positional winning
//! strategies for both players; all built from the attractors of [`super::attractor`].
//!
//! The set `F` ("accepting", "green") is given as a mask. Objectives are player 0's:
//!
//! | objective | player 0 wins a play that … |
//! | --- | --- |
//! | reachability | visits `F` |
//! | safety | never leaves `F` |
//! | Büchi | visits `F` infinitely often (the POI green game) |
//! | co-Büchi | visits the complement of `F` finitely often |
//!
//! A player who must move at a dead end loses, whatever the objective.

use super::arena::Arena;
use super::attractor::{opponent, Attracted, Attractors};
use crate::explore::Control;
use crate::Error;

/// Who wins from each vertex, and how: a positional strategy on each winning region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The winner (0 or 1) of each vertex.
    pub winner: Vec<u8>,
    /// At a vertex whose owner wins: the successor to move to. `None` elsewhere (and at
    /// a reachability target, where the game is already won).
    pub strategy: Vec<Option<u32>>,
}

impl Solution {
    fn new(n: usize) -> Solution {
        Solution {
            winner: vec![0; n],
            strategy: vec![None; n],
        }
    }

    /// The vertices player `p` wins, in increasing order.
    #[must_use]
    pub fn won_by(&self, p: u8) -> Vec<u32> {
        (0..self.winner.len() as u32)
            .filter(|&v| self.winner[v as usize] == p)
            .collect()
    }

    fn record(&mut self, attracted: &Attracted) {
        for &(v, w) in &attracted.strategy {
            self.strategy[v as usize] = Some(w);
        }
    }

    /// Gives the vertices of a trap for `player`'s opponent, won by `player`, and
    /// `player`'s moves that stay inside.
    fn keep_inside(&mut self, arena: &Arena, region: &[u32], inside: &[bool], player: u8) {
        for &v in region {
            self.winner[v as usize] = player;
            if arena.owner(v) == player && self.strategy[v as usize].is_none() {
                self.strategy[v as usize] = arena
                    .successors(v)
                    .iter()
                    .copied()
                    .find(|&w| inside[w as usize]);
            }
        }
    }
}

/// Which objective player 0 has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Objective {
    /// Visit `F`.
    Reachability,
    /// Never leave `F`.
    Safety,
    /// Visit `F` infinitely often.
    Buchi,
    /// Eventually stay in `F`.
    CoBuchi,
}

/// Solves the game where player 0 has `objective` on the set `accepting`.
///
/// # Errors
/// [`Error::Cancelled`] if stopped.
pub fn solve(
    arena: &Arena,
    objective: Objective,
    accepting: &[bool],
    control: &Control<'_>,
) -> Result<Solution, Error> {
    match objective {
        Objective::Reachability => Ok(reachability(arena, accepting, 0)),
        Objective::Safety => {
            let bad: Vec<bool> = accepting.iter().map(|&a| !a).collect();
            Ok(reachability(arena, &bad, 1))
        }
        Objective::Buchi => buchi(arena, accepting, 0, control),
        Objective::CoBuchi => {
            let bad: Vec<bool> = accepting.iter().map(|&a| !a).collect();
            buchi(arena, &bad, 1, control)
        }
    }
}

/// `player` wins by reaching `target`; the opponent by avoiding it (or `player` stuck).
///
/// # Complexity
/// O(n + m): one attractor.
#[must_use]
pub fn reachability(arena: &Arena, target: &[bool], player: u8) -> Solution {
    let n = arena.len();
    let members: Vec<u32> = arena.vertices().collect();
    let everything = vec![true; n];
    let mut scratch = Attractors::new(arena);
    let attracted = scratch.attract(
        arena,
        &members,
        &everything,
        player,
        (0..n as u32).filter(|&v| target[v as usize]),
    );
    let mut solution = Solution::new(n);
    let mut inside = vec![false; n];
    for &v in &attracted.vertices {
        inside[v as usize] = true;
        solution.winner[v as usize] = player;
    }
    solution.record(&attracted);
    let outside: Vec<u32> = members
        .into_iter()
        .filter(|&v| !inside[v as usize])
        .collect();
    let avoid: Vec<bool> = inside.iter().map(|&i| !i).collect();
    solution.keep_inside(arena, &outside, &avoid, opponent(player));
    solution
}

/// `player` wins by visiting `accepting` infinitely often: the classic algorithm
/// (McNaughton; Thomas) with attractors from the one engine. Each round removes the
/// region where the opponent can keep the play away from `accepting` forever, and all
/// that is forced into it.
///
/// # Complexity
/// O(n · m) in the worst case (one round per removed region), O(m) per round over what
/// is left of the arena.
///
/// # Errors
/// [`Error::Cancelled`] if stopped.
pub fn buchi(
    arena: &Arena,
    accepting: &[bool],
    player: u8,
    control: &Control<'_>,
) -> Result<Solution, Error> {
    let n = arena.len();
    let other = opponent(player);
    let mut scratch = Attractors::new(arena);
    let mut solution = Solution::new(n);
    let mut members: Vec<u32> = arena.vertices().collect();
    let mut in_game = vec![true; n];
    loop {
        control.check()?;
        let reach = scratch.attract(
            arena,
            &members,
            &in_game,
            player,
            members.iter().copied().filter(|&v| accepting[v as usize]),
        );
        if reach.vertices.len() == members.len() {
            // `player` can always come back to `accepting`: won, by the attractor's
            // moves, and at accepting vertices any move that stays.
            solution.record(&reach);
            solution.keep_inside(arena, &members, &in_game, player);
            return Ok(solution);
        }
        // The rest is a trap for `player` where the opponent avoids `accepting`.
        let mut reached = vec![false; n];
        for &v in &reach.vertices {
            reached[v as usize] = true;
        }
        let trap: Vec<u32> = members
            .iter()
            .copied()
            .filter(|&v| !reached[v as usize])
            .collect();
        let mut in_trap = vec![false; n];
        for &v in &trap {
            in_trap[v as usize] = true;
        }
        solution.keep_inside(arena, &trap, &in_trap, other);
        let lost = scratch.attract(arena, &members, &in_game, other, trap.iter().copied());
        solution.record(&lost);
        for &v in &lost.vertices {
            solution.winner[v as usize] = other;
            in_game[v as usize] = false;
        }
        members.retain(|&v| in_game[v as usize]);
    }
}

/// The seed's method, literally (POI 2000/2001 "green game", for the player who wants
/// `accepting` infinitely often): find the largest set free of `accepting` that the
/// opponent can keep the token in (a "B-set"), add everything forced into it, delete,
/// repeat; what is never deleted is won. Naive fixpoints, no strategies — a reference
/// for the production [`buchi`].
///
/// # Complexity
/// O(n² · m).
#[must_use]
pub fn buchi_reference(arena: &Arena, accepting: &[bool], player: u8) -> Vec<u8> {
    let n = arena.len();
    let other = opponent(player);
    let mut alive = vec![true; n];
    let mut winner = vec![player; n];
    loop {
        // Largest B-set: non-accepting alive vertices where the opponent can stay.
        let mut b: Vec<bool> = (0..n).map(|v| alive[v] && !accepting[v]).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for v in 0..n {
                if !b[v] {
                    continue;
                }
                let succ = arena.successors(v as u32);
                let alive_succ = succ.iter().filter(|&&w| alive[w as usize]);
                let keep = if arena.owner(v as u32) == other {
                    alive_succ.clone().any(|&w| b[w as usize])
                } else {
                    alive_succ.clone().all(|&w| b[w as usize])
                };
                if !keep {
                    b[v] = false;
                    changed = true;
                }
            }
        }
        // Everything the opponent can force into it, or where `player` is stuck.
        let mut lost = b.clone();
        let mut changed = true;
        while changed {
            changed = false;
            for v in 0..n {
                if !alive[v] || lost[v] {
                    continue;
                }
                let mut succ = arena
                    .successors(v as u32)
                    .iter()
                    .filter(|&&w| alive[w as usize]);
                let forced = if arena.owner(v as u32) == other {
                    succ.any(|&w| lost[w as usize])
                } else {
                    succ.all(|&w| lost[w as usize])
                };
                if forced {
                    lost[v] = true;
                    changed = true;
                }
            }
        }
        if !lost.iter().any(|&l| l) {
            return winner;
        }
        for v in 0..n {
            if lost[v] {
                alive[v] = false;
                winner[v] = other;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::format::{parse_poi, write_poi_answer, GREEN};
    use crate::graph::verify::verify_parity;

    #[test]
    fn green_game_example() {
        // Ann: 1, 2; Billy: 3. 1 (white) → 2 or 3; 2 (green) → 1; 3 (white) → 3 or 1.
        let arena = parse_poi("2 1\n0 2 2 3\n1 1 1\n0 2 3 1\n").unwrap();
        let green: Vec<bool> = arena.priorities().iter().map(|&p| p == GREEN).collect();
        let s = buchi(&arena, &green, 0, &Control::default()).unwrap();
        // Billy loops on 3 forever: Ann wins from 1 and 2 only.
        assert_eq!(write_poi_answer(&s.winner), "2\n1\n2\n");
        assert_eq!(buchi_reference(&arena, &green, 0), s.winner);
        assert_eq!(verify_parity(&arena, &s.winner, &s.strategy), Ok(()));
    }
}
