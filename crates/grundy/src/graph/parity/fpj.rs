//! Fixpoint iteration with justifications (Lapauw, Bruynooghe and Denecker, "Improving
//! parity game solvers with justifications", VMCAI 2020).
//!
//! Plain fixpoint iteration evaluates the nested fixpoint formula of the game bottom-up: at
//! first every vertex is taken to be won by its own priority's parity; vertices are then
//! re-evaluated in increasing priority, one step at a time (the owner wins if some successor
//! is currently won by the owner, else the opponent wins). A vertex whose one-step winner
//! differs from its priority's parity is a *distraction*: its value flips. When a block of
//! equal-parity priorities ends with new distractions, every lower-priority vertex whose value
//! relied on a flipped vertex must be evaluated again.
//!
//! Justifications make "relied on" precise: each evaluated vertex remembers why it has its
//! value — the one successor the owner moves to, or all successors when the owner has no good
//! move. Only vertices whose justification mentions a flipped vertex are reset (transitively),
//! and evaluation resumes at the lowest reset vertex; everything else keeps its value. When a
//! pass ends with no new distraction, the values are the winners and the remembered moves are
//! winning strategies.
//!
//! # Complexity
//! Exponential in the worst case; each evaluation costs the vertex's out-degree and each reset
//! its in-degree. O(n + m) space.

use super::{by_priority_descending, Local, NONE};
use crate::explore::Control;
use crate::graph::arena::Arena;
use crate::Error;

/// Solves `arena` (no dead ends) by fixpoint iteration with justifications.
pub(super) fn solve(arena: &Arena, control: &Control) -> Result<Local, Error> {
    let n = arena.len();
    if n == 0 {
        return Ok(Local::new(0));
    }
    let mut order = by_priority_descending(arena, None);
    order.reverse();
    let (value, strategy) = run(arena, order, None, control)?;
    Ok(answer(arena, value, strategy))
}

/// The answer of [`run`]: the values as winners, each move kept where its owner wins.
fn answer(arena: &Arena, winner: Vec<u8>, mut strategy: Vec<u32>) -> Local {
    for (v, s) in strategy.iter_mut().enumerate() {
        if arena.owner(v as u32) != winner[v] {
            *s = NONE;
        }
    }
    Local { winner, strategy }
}

/// Solves the part `members` of `arena` in place, without copying it: every member has a
/// move to a member, and edges leaving the part are ignored. The answer is indexed by vertex
/// of `arena` (entries outside the part mean nothing). Costs O(n) for the tables besides the
/// solve, so it pays for parts that are a good fraction of the arena.
pub(super) fn solve_part(
    arena: &Arena,
    members: &[u32],
    control: &Control,
) -> Result<Local, Error> {
    if members.is_empty() {
        return Ok(Local::new(arena.len()));
    }
    let mut order = by_priority_descending(arena, Some(members));
    order.reverse();
    let (value, strategy) = run(arena, order, Some(members), control)?;
    Ok(answer(arena, value, strategy))
}

/// The value of a vertex outside the part: neither player's, so no move ever counts it as
/// good for its owner.
const OUTSIDE: u8 = 2;

/// Fixpoint iteration over `order` (vertices by priority, lowest first): all of the arena, or
/// the part `members`. Returns each vertex's value (its winner) and the owner's move.
///
/// The pass runs over ranks (places in `order`). Which ranks are still to be evaluated is
/// kept in a bitset, and where each block of one parity ends in a table, so that a pass
/// that resumes low after a reset jumps over the justified vertices a word at a time instead
/// of stepping through them one by one (on Gazda–Willemse games, most of the steps).
fn run(
    arena: &Arena,
    order: Vec<u32>,
    members: Option<&[u32]>,
    control: &Control,
) -> Result<(Vec<u8>, Vec<u32>), Error> {
    let n = arena.len();
    let len = order.len();
    let mut rank = vec![0u32; n];
    for (i, &v) in order.iter().enumerate() {
        rank[v as usize] = i as u32;
    }
    let parity: Vec<u8> = arena.priorities().iter().map(|&p| (p & 1) as u8).collect();
    // The current value of each vertex: its parity, flipped if it is a distraction. A vertex
    // outside the part is never justified, so no reset reaches it either.
    let mut value: Vec<u8> = match members {
        None => parity.clone(),
        Some(members) => {
            let mut value = vec![OUTSIDE; n];
            for &v in members {
                value[v as usize] = parity[v as usize];
            }
            value
        }
    };
    // Per rank: the rank after the last of its block (the maximal run of one parity).
    let mut block_end = vec![0u32; len];
    let mut end = len;
    for r in (0..len).rev() {
        if r + 1 < len && parity[order[r] as usize] != parity[order[r + 1] as usize] {
            end = r + 1;
        }
        block_end[r] = end as u32;
    }
    let mut justified = vec![false; n];
    // Bit r: the vertex of rank r is not justified.
    let mut todo = vec![u64::MAX; len.div_ceil(64)];
    // The owner's move, or NONE when the value rests on all successors.
    let mut strategy = vec![NONE; n];
    let mut flipped: Vec<u32> = Vec::new();
    let mut changed = false;
    let mut i = 0usize;
    let mut block_start = 0usize;
    let mut end = block_end[0] as usize;
    let mut block_parity = parity[order[0] as usize];
    let mut steps = 0u32;
    loop {
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(65_536) {
            control.check()?;
        }
        i = next_set(&todo, i, end);
        if i == end {
            if changed {
                // Reset every justified vertex whose justification mentions a flipped vertex,
                // transitively, and resume at the lowest one.
                while let Some(v) = flipped.pop() {
                    for &from in arena.predecessors(v) {
                        let f = from as usize;
                        if justified[f] && (strategy[f] == NONE || strategy[f] == v) {
                            justified[f] = false;
                            value[f] = parity[f];
                            flipped.push(from);
                            let r = rank[f] as usize;
                            todo[r / 64] |= 1 << (r % 64);
                            i = i.min(r);
                        }
                    }
                }
                changed = false;
                i = i.min(block_start);
            } else {
                // The block is stable: its values are justified.
                for r in block_start..i {
                    justified[order[r] as usize] = true;
                    todo[r / 64] &= !(1 << (r % 64));
                }
            }
            if i == len {
                break;
            }
            block_parity = parity[order[i] as usize];
            block_start = i;
            end = block_end[i] as usize;
            continue;
        }
        let v = order[i];
        i += 1;
        let owner = arena.owner(v);
        let good = arena
            .successors(v)
            .iter()
            .copied()
            .find(|&w| value[w as usize] == owner);
        let (winner, mv) = match good {
            Some(w) => (owner, w),
            None => (1 - owner, NONE),
        };
        strategy[v as usize] = mv;
        if winner != block_parity {
            // A distraction: its value flips, justified by what it just saw.
            value[v as usize] = winner;
            justified[v as usize] = true;
            let r = i - 1;
            todo[r / 64] &= !(1 << (r % 64));
            flipped.push(v);
            changed = true;
        }
    }
    Ok((value, strategy))
}

/// The first set bit of `bits` at or after `from`, or `end` if there is none before `end`
/// (`end` at most the bits' length).
#[inline]
fn next_set(bits: &[u64], from: usize, end: usize) -> usize {
    if from >= end {
        return end;
    }
    let mut w = from / 64;
    let mut word = bits[w] & (u64::MAX << (from % 64));
    loop {
        if word != 0 {
            return (w * 64 + word.trailing_zeros() as usize).min(end);
        }
        w += 1;
        if w * 64 >= end {
            return end;
        }
        word = bits[w];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `next_set` against a bit-by-bit search, on random sparse and dense bitsets.
    #[test]
    fn next_set_matches_a_linear_search() {
        let mut rng = crate::graph::parity::generate::Rng::new(0x6e78_7473_6574_0001u64);
        for round in 0..500 {
            let len = 1 + rng.below(300) as usize;
            let dense = rng.below(2) == 0;
            let mut bits = vec![0u64; len.div_ceil(64)];
            for r in 0..len {
                let set = if dense { rng.below(3) != 0 } else { rng.below(40) == 0 };
                if set {
                    bits[r / 64] |= 1 << (r % 64);
                }
            }
            let from = rng.below(len as u64 + 1) as usize;
            let end = from + rng.below((len - from) as u64 + 1) as usize;
            let want = (from..end)
                .find(|&r| bits[r / 64] >> (r % 64) & 1 == 1)
                .unwrap_or(end);
            assert_eq!(next_set(&bits, from, end), want, "round {round}");
        }
    }
}
