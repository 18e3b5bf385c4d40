//! Token games on a plain digraph: two players alternately move one token along an edge;
//! who cannot move loses; endless play is a draw. Per vertex: win / loss / draw with
//! remoteness (the labelling engine), and the generalised Sprague–Grundy value γ (Smith
//! 1966; Fraenkel & Yesha 1986), finite or ∞ with the finite values it can move to — so
//! that sums of loopy impartial games can be judged.

use std::fmt;

use crate::csr::{Csr, Offset};
use crate::engine::{self, Labelling, Word};
use crate::explore::Control;
use crate::game::Outcome;
use crate::solve::{label, Labels};
use crate::Error;

/// A generalised Sprague–Grundy value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Loopy {
    /// A finite value: the position behaves as a Nim heap of this size.
    Finite(u32),
    /// ∞(K): an infinite value; `K` (sorted) is the set of finite values of its
    /// followers. The position is a win iff 0 ∈ K, else a draw.
    Infinite(Vec<u32>),
}

impl Loopy {
    /// The outcome of a token alone on a vertex of this value.
    #[must_use]
    pub fn outcome(&self) -> Outcome {
        match self {
            Loopy::Finite(0) => Outcome::Loss,
            Loopy::Finite(_) => Outcome::Win,
            Loopy::Infinite(k) if k.contains(&0) => Outcome::Win,
            Loopy::Infinite(_) => Outcome::Draw,
        }
    }
}

impl fmt::Display for Loopy {
    /// `3`, or `inf{0,2}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loopy::Finite(g) => write!(f, "{g}"),
            Loopy::Infinite(k) => {
                let k: Vec<String> = k.iter().map(ToString::to_string).collect();
                write!(f, "inf{{{}}}", k.join(","))
            }
        }
    }
}

/// The value of a sum of tokens (one per component), by the generalised theory: finite
/// parts add by XOR; one infinite part ∞(K) with finite rest `a` gives ∞(K ⊕ a); two or
/// more infinite parts give ∞(∅), a draw.
#[must_use]
pub fn sum(parts: &[Loopy]) -> Loopy {
    let mut xor = 0u32;
    let mut infinite: Option<&Vec<u32>> = None;
    let mut count = 0;
    for p in parts {
        match p {
            Loopy::Finite(g) => xor ^= g,
            Loopy::Infinite(k) => {
                count += 1;
                infinite = Some(k);
            }
        }
    }
    match (count, infinite) {
        (0, _) => Loopy::Finite(xor),
        (1, Some(k)) => {
            let mut shifted: Vec<u32> = k.iter().map(|&x| x ^ xor).collect();
            shifted.sort_unstable();
            Loopy::Infinite(shifted)
        }
        _ => Loopy::Infinite(Vec::new()),
    }
}

/// Win / loss / draw with remoteness for a token on each vertex.
///
/// # Errors
/// As [`label`].
pub fn outcomes<O: Offset>(
    succ: &Csr<O>,
    reverse: &Csr<O>,
    control: &Control<'_>,
) -> Result<Labels, Error> {
    label(succ, reverse, |_| None, control)
}

/// The generalised Sprague–Grundy value of every vertex.
///
/// Stage `i` is one run of the labelling engine on the vertices not yet given a finite
/// value below `i`: a still-unvalued vertex all of whose remaining followers can move to
/// a vertex of value `i` gets value `i` (a "loss" of the stage); one that can move to
/// value `i` waits for the next stage (a "win"); one that is neither is ∞. Vertices
/// already ∞ take part as followers only (they never become a loss).
///
/// # Complexity
/// O((γ_max + 2) · (V + E)), γ_max the largest finite value (at most the largest
/// out-degree).
///
/// # Errors
/// [`Error::Cancelled`] if stopped; [`Error::TooLarge`] for a vertex of 2^30 moves.
pub fn generalized_grundy<O: Offset>(
    succ: &Csr<O>,
    reverse: &Csr<O>,
    control: &Control<'_>,
) -> Result<Vec<Loopy>, Error> {
    const UNVALUED: u32 = u32::MAX;
    const INFINITE: u32 = u32::MAX - 1;
    let n = succ.len();
    let mut gamma = vec![UNVALUED; n];
    let mut state = vec![Word::EXCLUDED; n];
    let mut queue = Vec::with_capacity(n);
    let mut unvalued: Vec<u32> = (0..n as u32).collect();
    let mut infinite: Vec<u32> = Vec::new();
    let mut stage = 0u32;
    while !unvalued.is_empty() {
        control.check()?;
        let active = |w: u32| matches!(gamma[w as usize], UNVALUED | INFINITE);
        queue.clear();
        for &v in &unvalued {
            let followers = succ.successors(v).iter().filter(|&&w| active(w)).count() as u64;
            if followers == 0 {
                state[v as usize] = Word::decided(false, 0);
                queue.push(v);
            } else {
                state[v as usize] = Word::undecided(followers)?;
            }
        }
        for &v in &infinite {
            // One more than its degree: the counter never runs out, so an ∞ vertex is
            // never a "loss" of the stage.
            state[v as usize] = Word::undecided(succ.degree(v) + 1)?;
        }
        engine::propagate(reverse, &mut state, &mut queue, 0, &Labelling, &mut ())?;
        let mut next = Vec::new();
        for &v in &unvalued {
            match state[v as usize].read() {
                Some((false, _)) => gamma[v as usize] = stage,
                Some((true, _)) => next.push(v),
                None => {
                    gamma[v as usize] = INFINITE;
                    infinite.push(v);
                }
            }
        }
        for &v in unvalued.iter().chain(&infinite) {
            state[v as usize] = Word::EXCLUDED;
        }
        unvalued = next;
        stage += 1;
    }
    Ok((0..n as u32)
        .map(|v| match gamma[v as usize] {
            INFINITE => {
                let mut k: Vec<u32> = succ
                    .successors(v)
                    .iter()
                    .map(|&w| gamma[w as usize])
                    .filter(|&g| g != INFINITE)
                    .collect();
                k.sort_unstable();
                k.dedup();
                Loopy::Infinite(k)
            }
            g => Loopy::Finite(g),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impartial::grundy_values;

    fn gamma(n: usize, edges: &[(u32, u32)]) -> Vec<Loopy> {
        let g = Csr::from_edges(n, edges);
        generalized_grundy(&g, &g.reverse(), &Control::default()).unwrap()
    }

    #[test]
    fn acyclic_graphs_get_ordinary_grundy_values() {
        let edges = [(0, 1), (1, 2), (0, 2), (3, 0), (3, 1), (3, 2)];
        let g = Csr::from_edges(4, &edges);
        let plain: Vec<Loopy> = grundy_values(&g)
            .unwrap()
            .into_iter()
            .map(Loopy::Finite)
            .collect();
        assert_eq!(gamma(4, &edges), plain);
    }

    #[test]
    fn a_two_cycle_is_a_draw_and_an_exit_makes_a_win() {
        // 0 ⇄ 1: both ∞(∅), draws.
        let v = gamma(2, &[(0, 1), (1, 0)]);
        assert_eq!(v, vec![Loopy::Infinite(vec![]), Loopy::Infinite(vec![])]);
        // 0 ⇄ 1, 1 → 2 (terminal): 2 = 0, 1 can move to 0 → 1 has value 1 if 0's
        // followers… 0 → 1 only: 0 = mex-like: 0 has follower 1 (value 1), no follower 0,
        // but 1 has a follower of value 0: 0 gets value 0.
        let v = gamma(3, &[(0, 1), (1, 0), (1, 2)]);
        assert_eq!(
            v,
            vec![Loopy::Finite(0), Loopy::Finite(1), Loopy::Finite(0)]
        );
        assert_eq!(v[1].to_string(), "1");
        // A loop with an exit to a heap of 1 and of 0: ∞{0,1}? 0 ⇄ 1, 0 → 2 (value 0).
        let v = gamma(3, &[(0, 1), (1, 0), (0, 2)]);
        assert_eq!(v[0], Loopy::Finite(1));
        assert_eq!(v[1], Loopy::Finite(0));
    }

    #[test]
    fn sums_follow_the_generalised_rule() {
        use Loopy::{Finite, Infinite};
        assert_eq!(sum(&[Finite(3), Finite(1)]), Finite(2));
        assert_eq!(
            sum(&[Infinite(vec![0, 2]), Finite(2)]),
            Infinite(vec![0, 2])
        );
        assert_eq!(
            sum(&[Infinite(vec![0, 2]), Finite(2)]).outcome(),
            Outcome::Win
        );
        assert_eq!(
            sum(&[Infinite(vec![1]), Finite(0)]).outcome(),
            Outcome::Draw
        );
        assert_eq!(
            sum(&[Infinite(vec![0]), Infinite(vec![0])]).outcome(),
            Outcome::Draw
        );
        assert_eq!(Infinite(vec![0, 2]).to_string(), "inf{0,2}");
    }
}
