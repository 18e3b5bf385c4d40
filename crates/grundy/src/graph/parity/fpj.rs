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

use super::{Local, NONE};
use crate::explore::Control;
use crate::graph::arena::Arena;
use crate::Error;

/// Solves `arena` (no dead ends) by fixpoint iteration with justifications.
pub(super) fn solve(arena: &Arena, control: &Control) -> Result<Local, Error> {
    let n = arena.len();
    if n == 0 {
        return Ok(Local::new(0));
    }
    let (order, ends) = by_priority(arena, arena.vertices(), n);
    let (value, strategy) = run(arena, order, &ends, None, control)?;
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
    let (order, ends) = by_priority(arena, members.iter().copied(), members.len());
    let (value, strategy) = run(arena, order, &ends, Some(members), control)?;
    Ok(answer(arena, value, strategy))
}

/// The `len` vertices `vs` by priority, lowest first (by decreasing id within a priority),
/// and where their blocks of one parity end: the rank after the last of each block, in
/// increasing order (the last is `len`). A counting sort when priorities are small next to
/// the count, as they are after compression, and then the blocks come from its buckets.
fn by_priority(
    arena: &Arena,
    vs: impl Iterator<Item = u32> + Clone,
    len: usize,
) -> (Vec<u32>, Vec<u32>) {
    let max = vs.clone().map(|v| arena.priority(v)).max().unwrap_or(0) as usize;
    if max > 2 * len + 64 {
        let mut order: Vec<u32> = vs.collect();
        order.sort_unstable_by_key(|&v| (arena.priority(v), std::cmp::Reverse(v)));
        let mut ends: Vec<u32> = (1..len)
            .filter(|&r| (arena.priority(order[r - 1]) ^ arena.priority(order[r])) & 1 != 0)
            .map(|r| r as u32)
            .collect();
        ends.push(len as u32);
        return (order, ends);
    }
    // end[p]: the rank after the last vertex of priority p.
    let mut end = vec![0u32; max + 1];
    for v in vs.clone() {
        end[arena.priority(v) as usize] += 1;
    }
    let mut ends = Vec::new();
    let (mut total, mut last) = (0u32, None);
    for (p, slot) in end.iter_mut().enumerate() {
        if *slot > 0 {
            if last.is_some_and(|q| q != p & 1) {
                ends.push(total);
            }
            last = Some(p & 1);
        }
        total += *slot;
        *slot = total;
    }
    ends.push(len as u32);
    // Each priority's place filled from its end, so ids decrease within it.
    let mut order = vec![0u32; len];
    for v in vs {
        let slot = &mut end[arena.priority(v) as usize];
        *slot -= 1;
        order[*slot as usize] = v;
    }
    (order, ends)
}

/// The value of a vertex outside the part: neither player's, so no move ever counts it as
/// good for its owner.
const OUTSIDE: u8 = 2;

/// Fixpoint iteration over `order` (vertices by priority, lowest first; its blocks of one
/// parity end at `ends`): all of the arena, or the part `members`. Returns each vertex's
/// value (its winner) and the owner's move.
///
/// Which ranks (places in `order`) are not justified is also kept in a bitset (and where
/// blocks start in another), so that a pass that meets a justified vertex (as one that
/// resumes low after a reset does) jumps over the justified ones that follow a word at a
/// time instead of stepping through them one by one (on Gazda–Willemse games, most of the
/// steps).
fn run(
    arena: &Arena,
    order: Vec<u32>,
    ends: &[u32],
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
    // Bit r: a block starts at rank r (after the first). A bit a rank, not a table of
    // ends: the end of a block is looked up once each time the pass enters it.
    let mut starts = vec![0u64; len.div_ceil(64)];
    for &e in ends.iter().filter(|&&e| (e as usize) < len) {
        starts[e as usize / 64] |= 1 << (e % 64);
    }
    let block_end = |i: usize| next_set(&starts, i + 1, len);
    let mut justified = vec![false; n];
    // Bit r: the vertex of rank r is not justified (bits past `len` stay set).
    let mut todo = vec![u64::MAX; len.div_ceil(64)];
    // The owner's move, or NONE when the value rests on all successors.
    let mut strategy = vec![NONE; n];
    let mut flipped: Vec<u32> = Vec::new();
    let mut changed = false;
    let mut i = 0usize;
    let mut block_start = 0usize;
    let mut end = block_end(0);
    let mut block_parity = parity[order[0] as usize];
    let mut steps = 0u32;
    loop {
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(65_536) {
            control.check()?;
        }
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
                for &v in &order[block_start..i] {
                    justified[v as usize] = true;
                }
                clear_range(&mut todo, block_start, i);
            }
            if i == len {
                break;
            }
            block_parity = parity[order[i] as usize];
            block_start = i;
            end = block_end(i);
            continue;
        }
        let v = order[i];
        if justified[v as usize] {
            // Straight to the next vertex to evaluate in the block (or its end).
            i = next_set(&todo, i, end);
            continue;
        }
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

/// Clears the bits `from..to` of `bits`, a word at a time.
fn clear_range(bits: &mut [u64], from: usize, to: usize) {
    if from >= to {
        return;
    }
    let (first, last) = (from / 64, (to - 1) / 64);
    let low = u64::MAX << (from % 64);
    let high = u64::MAX >> (63 - (to - 1) % 64);
    if first == last {
        bits[first] &= !(low & high);
        return;
    }
    bits[first] &= !low;
    bits[first + 1..last].fill(0);
    bits[last] &= !high;
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
                let set = if dense {
                    rng.below(3) != 0
                } else {
                    rng.below(40) == 0
                };
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
            let mut cleared = bits.clone();
            clear_range(&mut cleared, from, end);
            for r in 0..bits.len() * 64 {
                let bit = |b: &[u64]| b[r / 64] >> (r % 64) & 1;
                let want = if (from..end).contains(&r) {
                    0
                } else {
                    bit(&bits)
                };
                assert_eq!(bit(&cleared), want, "round {round} bit {r}");
            }
        }
    }

    /// `by_priority` sorts as a comparison sort does (ids decreasing within a priority) and
    /// ends the blocks exactly where the parity changes, for small and for large priorities.
    #[test]
    fn by_priority_sorts_and_finds_the_blocks() {
        let mut rng = crate::graph::parity::generate::Rng::new(0x6270_7269_6f00_0002u64);
        for round in 0..300 {
            let n = 1 + rng.below(40) as u32;
            let large = rng.below(2) == 0;
            let mut b = crate::graph::ArenaBuilder::new();
            for _ in 0..n {
                let p = rng.below(8) as u32;
                let p = if large { p * 1_000_003 } else { p };
                b.push(rng.below(2) as u8, p, [0]);
            }
            let arena = b.build().unwrap();
            let members: Vec<u32> = arena.vertices().filter(|_| rng.below(3) != 0).collect();
            let (order, ends) = by_priority(&arena, members.iter().copied(), members.len());
            let mut want = members.clone();
            want.sort_by_key(|&v| (arena.priority(v), std::cmp::Reverse(v)));
            assert_eq!(order, want, "round {round}");
            let parity = |r: usize| arena.priority(order[r]) & 1;
            let mut want_ends: Vec<u32> = (1..order.len())
                .filter(|&r| parity(r) != parity(r - 1))
                .map(|r| r as u32)
                .collect();
            want_ends.push(order.len() as u32);
            assert_eq!(ends, want_ends, "round {round}");
        }
    }
}
