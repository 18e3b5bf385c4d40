//! Sprague–Grundy values: the mex of the children's values on an acyclic move graph, and
//! sums (XOR) of impartial parts with the winning move of a sum.

use crate::explore::Csr;
use crate::solve::reverse_topological_order;
use crate::Error;

/// The minimum excludant: the least non-negative integer not among `values`. `seen` is
/// caller-owned scratch (left all `false` on return) so repeated calls do not allocate.
///
/// # Complexity
/// O(k) for k values.
pub fn mex(values: impl IntoIterator<Item = u32>, seen: &mut Vec<bool>) -> u32 {
    let mut touched = 0usize;
    for v in values {
        let v = v as usize;
        if v >= seen.len() {
            seen.resize(v + 1, false);
        }
        seen[v] = true;
        touched = touched.max(v + 1);
    }
    let m = seen[..touched].iter().position(|&s| !s).unwrap_or(touched);
    seen[..touched].fill(false);
    m as u32
}

/// The Grundy value of every vertex of an acyclic move graph (a vertex without moves has
/// value 0).
///
/// # Complexity
/// O(V + E).
///
/// # Errors
/// [`Error::Cycle`] if the graph has a cycle: loopy games need generalised values.
pub fn grundy_values(graph: &Csr) -> Result<Vec<u32>, Error> {
    grundy_values_with_reverse(graph, &graph.try_reverse()?)
}

/// [`grundy_values`] for a caller that holds the reverse graph already
/// (`reverse == graph.reverse()`), which spares building it again.
///
/// # Complexity
/// O(V + E).
///
/// # Errors
/// [`Error::Cycle`] if the graph has a cycle.
pub fn grundy_values_with_reverse(graph: &Csr, reverse: &Csr) -> Result<Vec<u32>, Error> {
    debug_assert!(reverse.len() == graph.len() && reverse.edge_count() == graph.edge_count());
    let order = reverse_topological_order(graph, reverse)?;
    Ok(grundy_values_in_order(graph, &order))
}

/// [`grundy_values`] from a reverse topological order of `graph` (every vertex after its
/// successors: [`crate::solve::postorder`]), with no reverse graph.
///
/// # Complexity
/// O(V + E).
#[must_use]
pub fn grundy_values_in_order(graph: &Csr, order: &[u32]) -> Vec<u32> {
    debug_assert_eq!(order.len(), graph.len());
    let mut value = vec![0u32; graph.len()];
    let mut seen = Vec::new();
    for &v in order {
        value[v as usize] = mex(
            graph.successors(v).iter().map(|&c| value[c as usize]),
            &mut seen,
        );
    }
    value
}

/// The Grundy value of a sum: the XOR of its parts'.
#[must_use]
pub fn sum_value(parts: &[u64]) -> u64 {
    parts.iter().fold(0, |acc, &g| acc ^ g)
}

/// For a sum with part values `parts`, the value each part must be moved to for a winning
/// move: `(part index, target value)` for every part whose value exceeds its target
/// `g ^ total` is a candidate. Empty when the sum is 0 (no winning move exists). A target
/// above the part's value can also be reached in games with such moves (not Nim), so the
/// caller checks each part's options against the target; this lists every part, with its
/// target, when the total is non-zero.
#[must_use]
pub fn targets(parts: &[u64]) -> Vec<(usize, u64)> {
    let total = sum_value(parts);
    if total == 0 {
        return Vec::new();
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, &g)| (i, g ^ total))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_of_small_sets() {
        let mut seen = Vec::new();
        assert_eq!(mex([], &mut seen), 0);
        assert_eq!(mex([0, 1, 3], &mut seen), 2);
        assert_eq!(mex([1, 2], &mut seen), 0);
        assert_eq!(mex([2, 0, 1, 1], &mut seen), 3);
        assert!(seen.iter().all(|&s| !s));
    }

    #[test]
    fn grundy_of_a_chain_alternates() {
        // 0 → 1 → 2: values 0, 1, 0 read from the end.
        let g = Csr::from_edges(3, &[(0, 1), (1, 2)]);
        assert_eq!(grundy_values(&g).unwrap(), vec![0, 1, 0]);
        let cyclic = Csr::from_edges(2, &[(0, 1), (1, 0)]);
        assert!(matches!(grundy_values(&cyclic), Err(Error::Cycle { .. })));
    }

    #[test]
    fn targets_of_nim() {
        assert_eq!(targets(&[3, 3]), vec![]);
        assert_eq!(targets(&[3, 3, 1]), vec![(0, 2), (1, 2), (2, 0)]);
    }
}
