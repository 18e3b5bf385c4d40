//! The independent certificate checker: given an arena, a claimed winner per vertex and a
//! positional strategy, decide — trusting no solver — whether the claim is a correct solution of
//! the parity game (max-even convention, as PGSolver's).
//!
//! A claim is accepted iff, for each player `i`, the strategy wins every play that starts in
//! the region claimed for `i`. That makes both regions true winning regions, and since they
//! partition the vertices, exactly *the* winning regions. The checks:
//!
//! 1. every vertex has a claimed winner, 0 or 1;
//! 2. where the owner is the claimed winner, the strategy is given, is a real successor, and
//!    stays in that winner's region (a dead end there is rejected: the owner cannot move);
//! 3. where the owner is not the claimed winner, every successor stays in the winner's region
//!    (the opponent cannot escape; a dead end there is fine: the opponent is stuck and loses);
//! 4. in the graph of each region with the winner's strategy fixed and all of the opponent's
//!    edges kept, every cycle's highest priority has the winner's parity.
//!
//! Strategies given where the owner is not the winner are ignored. Dead ends follow normal play:
//! the player who cannot move loses.
//!
//! Check 4 works by SCC refinement: take the SCCs of the strategy graph (both regions at once:
//! after checks 2 and 3 no edge leaves a region); in a non-trivial SCC with top priority `p`, if
//! `p` has the loser's parity there is a bad cycle through a vertex of priority `p` (reported
//! as a witness, a shortest cycle through it); otherwise let `q` be the SCC's largest priority
//! of the loser's parity: every cycle through a vertex above `q` is good, so remove those
//! vertices and refine the rest (an SCC without any loser's priority is settled at once).
//! Tarjan's algorithm runs iteratively, with an explicit stack: arenas can have millions of
//! vertices.
//!
//! # Complexity
//! O(a · (n + m)) time in the worst case, where a ≤ d is the number of alternations between
//! even and odd in the sorted list of distinct priorities (d): a vertex takes part in at most
//! one SCC computation per alternation above its own priority. On typical games SCCs shrink
//! fast and the cost is close to O(n + m). O(n + m) space.

use thiserror::Error;

use super::arena::{Arena, Csr, FileId};
use super::format::{PgSolution, GREEN, WHITE};

/// Why a claimed solution is rejected. Vertices are named by their file ids.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// A table with the wrong number of entries.
    #[error("{what} has {found} entries for {expected} vertices")]
    LengthMismatch {
        /// Which table.
        what: &'static str,
        /// The number of vertices.
        expected: usize,
        /// Its length.
        found: usize,
    },
    /// A vertex with no claimed winner.
    #[error("vertex {vertex}: no winner claimed")]
    Unclaimed {
        /// The vertex.
        vertex: FileId,
    },
    /// A claimed winner that is not a player.
    #[error("vertex {vertex}: claimed winner {found} is not a player (0 or 1)")]
    BadWinner {
        /// The vertex.
        vertex: FileId,
        /// The value claimed.
        found: u8,
    },
    /// The owner is claimed to win at a vertex where it has no move.
    #[error("vertex {vertex}: player {player} is claimed to win, but has no move there")]
    OwnerStuck {
        /// The vertex.
        vertex: FileId,
        /// The owner and claimed winner.
        player: u8,
    },
    /// The owner is claimed to win but no strategy move is given.
    #[error(
        "vertex {vertex}: player {player} owns it and is claimed to win, but no move is given"
    )]
    MissingStrategy {
        /// The vertex.
        vertex: FileId,
        /// The owner and claimed winner.
        player: u8,
    },
    /// The strategy names a vertex that is not a successor.
    #[error("vertex {vertex}: the strategy moves to {target}, which is not a successor")]
    NotASuccessor {
        /// The vertex.
        vertex: FileId,
        /// The target.
        target: FileId,
    },
    /// The strategy names a dense index past the last vertex (a solution built in
    /// memory; a file's ids are checked as it is read).
    #[error("vertex {vertex}: the strategy moves to index {index}, past the last vertex")]
    NotAVertex {
        /// The vertex.
        vertex: FileId,
        /// The dense index the strategy names.
        index: u32,
    },
    /// The strategy leaves the winner's region.
    #[error("vertex {vertex}: player {player}'s strategy moves to {target}, outside its region")]
    StrategyLeavesRegion {
        /// The vertex.
        vertex: FileId,
        /// The strategy's target.
        target: FileId,
        /// The claimed winner.
        player: u8,
    },
    /// The opponent can leave the winner's region.
    #[error("vertex {vertex}: the opponent of player {player} can move to {target}, outside player {player}'s region")]
    OpponentEscapes {
        /// The vertex.
        vertex: FileId,
        /// The successor outside the region.
        target: FileId,
        /// The claimed winner.
        player: u8,
    },
    /// A cycle, consistent with the winner's strategy, that the winner loses.
    #[error("player {player}'s strategy allows the cycle {cycle:?} whose highest priority {priority} is won by player {}", 1 - player)]
    BadCycle {
        /// The claimed winner of the region.
        player: u8,
        /// The cycle's highest priority (of the opponent's parity).
        priority: u32,
        /// The cycle as file ids, starting at a vertex of that priority; each moves to the next,
        /// the last back to the first.
        cycle: Vec<FileId>,
    },
    /// A Büchi check on an arena with a priority other than WHITE and GREEN.
    #[error("vertex {vertex} has priority {priority}, not WHITE (1) or GREEN (2)")]
    NotBuchi {
        /// The vertex.
        vertex: FileId,
        /// Its priority.
        priority: u32,
    },
}

/// Checks a claimed solution of the parity game on `arena` (max-even: player 0 wins a play whose
/// highest priority seen infinitely often is even). `winner[v]` is the claimed winner of dense
/// vertex `v`; `strategy[v]` the dense successor chosen at `v`, needed where the owner is the
/// claimed winner, ignored elsewhere.
///
/// Returns `Ok(())` iff both strategies win from every vertex of their claimed regions, that
/// is, the claim is exactly the solution. See the [module docs](self) for the checks.
///
/// ```
/// use grundy::graph::{ArenaBuilder, verify_parity, VerifyError};
/// let mut b = ArenaBuilder::new();
/// b.push(0, 1, [0, 1]); // player 0 may loop on an odd priority or leave
/// b.push(1, 2, [1]);    // an even self-loop
/// let arena = b.build().unwrap();
/// assert_eq!(verify_parity(&arena, &[0, 0], &[Some(1), None]), Ok(()));
/// assert!(matches!(
///     verify_parity(&arena, &[0, 0], &[Some(0), None]),
///     Err(VerifyError::BadCycle { priority: 1, .. })
/// ));
/// ```
///
/// # Complexity
/// O(a · (n + m)) worst case, a ≤ d the number of parity alternations among the d distinct
/// priorities; O(n + m) space.
pub fn verify_parity(
    arena: &Arena,
    winner: &[u8],
    strategy: &[Option<u32>],
) -> Result<(), VerifyError> {
    let n = arena.len();
    if winner.len() != n {
        return Err(VerifyError::LengthMismatch {
            what: "winner",
            expected: n,
            found: winner.len(),
        });
    }
    if strategy.len() != n {
        return Err(VerifyError::LengthMismatch {
            what: "strategy",
            expected: n,
            found: strategy.len(),
        });
    }
    check_local(arena, winner, strategy)?;
    let graph = strategy_graph(arena, winner, strategy);
    check_cycles(arena, winner, &graph)
}

/// [`verify_parity`] for a solution read from a PGSolver solution file: fails with
/// [`VerifyError::Unclaimed`] on the first vertex the file does not mention.
pub fn verify_pg_solution(arena: &Arena, solution: &PgSolution) -> Result<(), VerifyError> {
    let winner = solution
        .complete_winners()
        .map_err(|v| VerifyError::Unclaimed {
            vertex: arena.file_id(v),
        })?;
    verify_parity(arena, &winner, &solution.strategy)
}

/// Checks a claimed solution of a Büchi game (the POI green game): player 0 wins iff the play
/// visits priority [`GREEN`] infinitely often. The arena must use only the priorities [`WHITE`]
/// and [`GREEN`]; the game is then the parity game with those priorities (green even, white
/// odd), and the claim is checked by [`verify_parity`].
pub fn verify_buchi(
    arena: &Arena,
    winner: &[u8],
    strategy: &[Option<u32>],
) -> Result<(), VerifyError> {
    if let Some(v) = arena
        .vertices()
        .find(|&v| !matches!(arena.priority(v), WHITE | GREEN))
    {
        return Err(VerifyError::NotBuchi {
            vertex: arena.file_id(v),
            priority: arena.priority(v),
        });
    }
    verify_parity(arena, winner, strategy)
}

/// Checks 1–3: winners are players, strategies are moves that stay, opponents cannot escape.
fn check_local(arena: &Arena, winner: &[u8], strategy: &[Option<u32>]) -> Result<(), VerifyError> {
    let n = arena.len();
    if let Some(v) = winner.iter().position(|&w| w > 1) {
        return Err(VerifyError::BadWinner {
            vertex: arena.file_id(v as u32),
            found: winner[v],
        });
    }
    for v in arena.vertices() {
        let w = winner[v as usize];
        let vertex = arena.file_id(v);
        let succ = arena.successors(v);
        if arena.owner(v) == w {
            if succ.is_empty() {
                return Err(VerifyError::OwnerStuck { vertex, player: w });
            }
            let Some(t) = strategy[v as usize] else {
                return Err(VerifyError::MissingStrategy { vertex, player: w });
            };
            if t as usize >= n {
                return Err(VerifyError::NotAVertex { vertex, index: t });
            }
            if !succ.contains(&t) {
                return Err(VerifyError::NotASuccessor {
                    vertex,
                    target: arena.file_id(t),
                });
            }
            if winner[t as usize] != w {
                return Err(VerifyError::StrategyLeavesRegion {
                    vertex,
                    target: arena.file_id(t),
                    player: w,
                });
            }
        } else if let Some(&t) = succ.iter().find(|&&t| winner[t as usize] != w) {
            return Err(VerifyError::OpponentEscapes {
                vertex,
                target: arena.file_id(t),
                player: w,
            });
        }
    }
    Ok(())
}

/// The graph of plays consistent with the claim: the strategy's edge where the owner is the
/// winner, every edge elsewhere. After [`check_local`] no edge leaves a region.
fn strategy_graph(arena: &Arena, winner: &[u8], strategy: &[Option<u32>]) -> Csr {
    let mut offsets = Vec::with_capacity(arena.len() + 1);
    let mut targets = Vec::with_capacity(arena.edge_count());
    offsets.push(0u64);
    for v in arena.vertices() {
        match strategy[v as usize] {
            Some(t) if arena.owner(v) == winner[v as usize] => targets.push(t),
            _ => targets.extend_from_slice(arena.successors(v)),
        }
        offsets.push(targets.len() as u64);
    }
    // The parts come from a valid arena and checked strategies, so this cannot fail; an error
    // here would be a bug in this module, reported as an empty graph rather than a panic.
    Csr::from_parts(offsets, targets).unwrap_or_default()
}

const UNVISITED: u32 = u32::MAX;
const DONE: u32 = u32::MAX;

/// Check 4 by SCC refinement (see the module docs).
fn check_cycles(arena: &Arena, winner: &[u8], g: &Csr) -> Result<(), VerifyError> {
    let n = g.len();
    if n == 0 {
        return Ok(());
    }
    let mut s = Scc {
        tag: vec![0; n],
        index: vec![UNVISITED; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        call: Vec::new(),
    };
    let mut next_tag = 1u32;
    let mut work: Vec<(u32, Vec<u32>)> = vec![(0, arena.vertices().collect())];
    let mut comp: Vec<u32> = Vec::new();
    while let Some((tag, set)) = work.pop() {
        for &v in &set {
            s.index[v as usize] = UNVISITED;
        }
        let mut counter = 0u32;
        for &root in &set {
            if s.index[root as usize] != UNVISITED || s.tag[root as usize] != tag {
                continue;
            }
            s.visit(root, &mut counter);
            while let Some(&mut (v, ref mut pos)) = s.call.last_mut() {
                let edges = g.successors(v);
                if let Some(&w) = edges.get(*pos as usize) {
                    *pos += 1;
                    if s.tag[w as usize] != tag {
                        continue;
                    }
                    if s.index[w as usize] == UNVISITED {
                        s.visit(w, &mut counter);
                    } else if s.on_stack[w as usize] {
                        let lw = s.index[w as usize];
                        let lv = &mut s.low[v as usize];
                        *lv = (*lv).min(lw);
                    }
                    continue;
                }
                s.call.pop();
                if let Some(&(parent, _)) = s.call.last() {
                    let lv = s.low[v as usize];
                    let lp = &mut s.low[parent as usize];
                    *lp = (*lp).min(lv);
                }
                if s.low[v as usize] != s.index[v as usize] {
                    continue;
                }
                comp.clear();
                while let Some(x) = s.stack.pop() {
                    s.on_stack[x as usize] = false;
                    comp.push(x);
                    if x == v {
                        break;
                    }
                }
                // A finished SCC is never entered again by this Tarjan run (its vertices are
                // off the stack), so retagging it now is safe.
                let nontrivial = comp.len() > 1 || g.successors(v).contains(&v);
                if !nontrivial {
                    s.tag[v as usize] = DONE;
                    continue;
                }
                let top = comp.iter().map(|&x| arena.priority(x)).max().unwrap_or(0);
                let player = winner[v as usize];
                if top % 2 != u32::from(player) {
                    let scc_tag = next_tag;
                    for &x in &comp {
                        s.tag[x as usize] = scc_tag;
                    }
                    let x = comp
                        .iter()
                        .copied()
                        .find(|&x| arena.priority(x) == top)
                        .unwrap_or(v);
                    let cycle = cycle_through(g, &s.tag, scc_tag, x)
                        .into_iter()
                        .map(|c| arena.file_id(c))
                        .collect();
                    return Err(VerifyError::BadCycle {
                        player,
                        priority: top,
                        cycle,
                    });
                }
                // Every priority above the SCC's largest bad one is good, so any cycle through
                // such a vertex is good: drop them all at once (no bad priority: the whole SCC
                // is settled), and refine what is left.
                let bad = u32::from(1 - player);
                let rest: Vec<u32> = match comp
                    .iter()
                    .map(|&x| arena.priority(x))
                    .filter(|p| p % 2 == bad)
                    .max()
                {
                    None => Vec::new(),
                    Some(q) => comp
                        .iter()
                        .copied()
                        .filter(|&x| arena.priority(x) <= q)
                        .collect(),
                };
                for &x in &comp {
                    s.tag[x as usize] = DONE;
                }
                if !rest.is_empty() {
                    // Each new set follows the removal of at least one vertex for good, so
                    // fewer than n tags are ever handed out and none collides with DONE.
                    let t = next_tag;
                    next_tag += 1;
                    for &x in &rest {
                        s.tag[x as usize] = t;
                    }
                    work.push((t, rest));
                }
            }
        }
    }
    Ok(())
}

/// Iterative Tarjan state, reused across refinement rounds.
struct Scc {
    /// The sub-problem a vertex belongs to; [`DONE`] once settled.
    tag: Vec<u32>,
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    /// The explicit call stack: a vertex and the position of its next edge.
    call: Vec<(u32, u32)>,
}

impl Scc {
    fn visit(&mut self, v: u32, counter: &mut u32) {
        self.index[v as usize] = *counter;
        self.low[v as usize] = *counter;
        *counter += 1;
        self.stack.push(v);
        self.on_stack[v as usize] = true;
        self.call.push((v, 0));
    }
}

/// A shortest cycle through `x` inside the strongly connected set tagged `tag` (breadth-first
/// search from `x` back to `x`), as dense ids starting at `x`.
fn cycle_through(g: &Csr, tag: &[u32], t: u32, x: u32) -> Vec<u32> {
    const NONE: u32 = u32::MAX;
    let mut parent: Vec<u32> = vec![NONE; g.len()];
    let mut queue = std::collections::VecDeque::from([x]);
    while let Some(u) = queue.pop_front() {
        for &w in g.successors(u) {
            if tag[w as usize] != t {
                continue;
            }
            if w == x {
                let mut cycle = vec![u];
                let mut c = u;
                while c != x {
                    c = parent[c as usize];
                    cycle.push(c);
                }
                cycle.reverse();
                return cycle;
            }
            if parent[w as usize] == NONE {
                parent[w as usize] = u;
                queue.push_back(w);
            }
        }
    }
    // Unreachable for a non-trivial SCC; `x` alone still names the culprit.
    vec![x]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::arena::ArenaBuilder;

    #[test]
    fn accepts_and_rejects_locally() {
        // 0 (p0, prio 2) -> 0 | 1 ; 1 (p1, prio 1) -> 1 | 0
        let a = Arena::of(&[(0, 2, &[0, 1]), (1, 1, &[1, 0])]);
        // Player 0 loops on 0 (even); player 1 loops on 1 (odd).
        assert_eq!(verify_parity(&a, &[0, 1], &[Some(0), Some(1)]), Ok(()));
        assert!(matches!(
            verify_parity(&a, &[0, 1], &[None, Some(1)]),
            Err(VerifyError::MissingStrategy {
                vertex: FileId(0),
                player: 0
            })
        ));
        assert!(matches!(
            verify_parity(&a, &[0, 1], &[Some(1), Some(1)]),
            Err(VerifyError::StrategyLeavesRegion {
                vertex: FileId(0),
                target: FileId(1),
                player: 0
            })
        ));
        assert!(matches!(
            verify_parity(&a, &[0, 1], &[Some(5), Some(1)]),
            Err(VerifyError::NotAVertex {
                vertex: FileId(0),
                index: 5
            })
        ));
        assert!(matches!(
            verify_parity(&a, &[1, 0], &[None, None]),
            Err(VerifyError::OpponentEscapes {
                vertex: FileId(0),
                target: FileId(1),
                player: 1
            })
        ));
        assert!(matches!(
            verify_parity(&a, &[0, 2], &[Some(0), None]),
            Err(VerifyError::BadWinner {
                vertex: FileId(1),
                found: 2
            })
        ));
        assert!(matches!(
            verify_parity(&a, &[0], &[Some(0), None]),
            Err(VerifyError::LengthMismatch { .. })
        ));
    }

    #[test]
    fn nested_cycles() {
        // Player 1 owns everything. 0 (prio 4) <-> 1 (prio 3) <-> 2 (prio 5 ... no), build:
        // 0:4 -> 1 ; 1:3 -> 0, 2 ; 2:2 -> 1.
        // Cycles: 0-1 (max 4, even), 1-2 (max 3, odd). Player 1 wins everywhere by 1 -> 2.
        let a = Arena::of(&[(1, 4, &[1]), (1, 3, &[0, 2]), (1, 2, &[1])]);
        assert_eq!(
            verify_parity(&a, &[1, 1, 1], &[Some(1), Some(2), Some(1)]),
            Ok(())
        );
        // Claiming player 1 wins with 1 -> 0 fails: the cycle 0-1 has max 4.
        let e = verify_parity(&a, &[1, 1, 1], &[Some(1), Some(0), Some(1)]).unwrap_err();
        assert_eq!(
            e,
            VerifyError::BadCycle {
                player: 1,
                priority: 4,
                cycle: vec![FileId(0), FileId(1)]
            }
        );
        // Make vertex 1 player 0's: player 0 sees both cycles available to it... it picks 1 -> 0.
        let b = Arena::of(&[(1, 4, &[1]), (0, 3, &[0, 2]), (1, 2, &[1])]);
        assert_eq!(
            verify_parity(&b, &[0, 0, 0], &[None, Some(0), None]),
            Ok(())
        );
        let e = verify_parity(&b, &[0, 0, 0], &[None, Some(2), None]).unwrap_err();
        assert_eq!(
            e,
            VerifyError::BadCycle {
                player: 0,
                priority: 3,
                cycle: vec![FileId(1), FileId(2)]
            }
        );
    }

    #[test]
    fn refinement_finds_inner_bad_cycle() {
        // All player 1's, claimed won by player 0: a big even cycle 0-1-2-3 with prio 6 at 0
        // contains an inner odd cycle 2-3 (prio 5 at 3) that avoids 0.
        let a = Arena::of(&[(1, 6, &[1]), (1, 0, &[2]), (1, 2, &[3]), (1, 5, &[2, 0])]);
        let e = verify_parity(&a, &[0; 4], &[None; 4]).unwrap_err();
        assert_eq!(
            e,
            VerifyError::BadCycle {
                player: 0,
                priority: 5,
                cycle: vec![FileId(3), FileId(2)]
            }
        );
    }

    #[test]
    fn dead_ends_are_normal_play() {
        // 0 (p0) -> 1 ; 1 (p1) has no move: player 1 is stuck and loses, so player 0 wins both.
        let a = Arena::of(&[(0, 1, &[1]), (1, 1, &[])]);
        assert_eq!(verify_parity(&a, &[0, 0], &[Some(1), None]), Ok(()));
        assert!(matches!(
            verify_parity(&a, &[1, 1], &[None, None]),
            Err(VerifyError::OwnerStuck {
                vertex: FileId(1),
                player: 1
            })
        ));
    }

    #[test]
    fn self_loop_witness_and_buchi() {
        let a = Arena::of(&[(0, 1, &[0])]);
        assert_eq!(
            verify_buchi(&a, &[0], &[Some(0)]),
            Err(VerifyError::BadCycle {
                player: 0,
                priority: 1,
                cycle: vec![FileId(0)]
            })
        );
        assert_eq!(verify_buchi(&a, &[1], &[None]), Ok(()));
        let b = Arena::of(&[(0, 3, &[0])]);
        assert!(matches!(
            verify_buchi(&b, &[1], &[None]),
            Err(VerifyError::NotBuchi {
                vertex: FileId(0),
                priority: 3
            })
        ));
    }

    #[test]
    fn empty_arena() {
        let a = ArenaBuilder::new().build().unwrap();
        assert_eq!(verify_parity(&a, &[], &[]), Ok(()));
    }
}
