//! Combinations for ranking boards: binomials, the colex rank of a bit mask among those
//! with as many bits, its inverse, the next such mask, inserting a bit, and a mask's bits
//! packed low and spread back (`extract`, `deposit`). Boards rank
//! which cells are taken and which of the taken are whose by these (connect four,
//! m,n,k-games).

/// Binomials `C(n, k)` for `n, k ≤ 64`, saturating at `u64::MAX` (never reached there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binomials(Vec<[u64; 65]>);

impl Default for Binomials {
    fn default() -> Self {
        Self::new()
    }
}

impl Binomials {
    /// Pascal's triangle to row 64.
    #[must_use]
    pub fn new() -> Binomials {
        let mut binom = vec![[0u64; 65]; 65];
        for n in 0..=64usize {
            binom[n][0] = 1;
            for k in 1..=n {
                binom[n][k] =
                    binom[n - 1][k - 1].saturating_add(if k < n { binom[n - 1][k] } else { 0 });
            }
        }
        Binomials(binom)
    }

    /// `C(n, k)` (0 when k > n).
    #[inline]
    #[must_use]
    pub fn get(&self, n: u32, k: u32) -> u64 {
        self.0[n as usize][k as usize]
    }

    /// The colex rank of `mask` among the masks with as many bits: the sum of
    /// `C(p_j, j)` over its set bits `p_1 < p_2 < …`.
    #[inline]
    #[must_use]
    pub fn colex(&self, mut mask: u64) -> u64 {
        let mut rank = 0;
        let mut j = 1;
        while mask != 0 {
            let p = mask.trailing_zeros() as usize;
            rank += self.0[p][j];
            j += 1;
            mask &= mask - 1;
        }
        rank
    }

    /// The mask of `k` bits whose colex rank is `rank` (below `C(64, k)`).
    #[must_use]
    pub fn uncolex(&self, mut rank: u64, k: u32) -> u64 {
        let mut mask = 0u64;
        for j in (1..=k as usize).rev() {
            let mut p = j - 1;
            while p < 64 && self.0[p + 1][j] <= rank {
                p += 1;
            }
            rank -= self.0[p][j];
            mask |= 1 << p;
        }
        mask
    }
}

/// `binomials[n][k]` = `C(n, k)`, for tables read in hot loops.
impl std::ops::Index<usize> for Binomials {
    type Output = [u64; 65];

    #[inline]
    fn index(&self, n: usize) -> &[u64; 65] {
        &self.0[n]
    }
}

/// Each rank of `ranks` that `want` asks for, with its combination in colex order:
/// `first` is the combination of `ranks.start`, and each next one is `next` (Gosper's
/// step, [`next_combination`] on `u64` masks) of the one before, taken for every rank,
/// asked for or not. How the tiers of a board ranked by colex visit a run of ranks
/// without unranking each.
pub fn each_combination<M: Copy>(
    ranks: std::ops::Range<u64>,
    first: M,
    next: impl Fn(M) -> M,
    want: &dyn Fn(u64) -> bool,
    mut f: impl FnMut(u64, M),
) {
    let mut mask = first;
    for r in ranks.clone() {
        if r > ranks.start {
            mask = next(mask);
        }
        if want(r) {
            f(r, mask);
        }
    }
}

/// The next mask with as many bits, in colex order (Gosper's hack); 0 after the last.
#[inline]
#[must_use]
pub fn next_combination(mask: u64) -> u64 {
    if mask == 0 {
        return 0;
    }
    let c = mask & mask.wrapping_neg();
    let r = mask.wrapping_add(c);
    if r == 0 {
        return 0;
    }
    (((r ^ mask) >> 2) / c) | r
}

/// `mask` with a bit `bit` inserted at position `p`, the bits from `p` up moved up one.
#[inline]
#[must_use]
pub fn insert(mask: u64, p: u32, bit: bool) -> u64 {
    let low = if p == 0 {
        0
    } else {
        mask & (u64::MAX >> (64 - p))
    };
    let high = if p >= 63 { 0 } else { (mask >> p) << (p + 1) };
    low | high | u64::from(bit) << p
}

/// The bits of `value` at the places of `mask`'s bits, packed low (a software `pext`):
/// which of a board's occupied cells are X's, as a combination to rank.
#[must_use]
pub fn extract(value: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    let mut i = 0;
    while mask != 0 {
        let bit = mask & mask.wrapping_neg();
        if value & bit != 0 {
            out |= 1 << i;
        }
        mask &= mask - 1;
        i += 1;
    }
    out
}

/// The low bits of `packed` spread onto the places of `mask`'s bits (a software `pdep`),
/// the inverse of [`extract`]: the cells a ranked combination picks among `mask`'s.
#[must_use]
pub fn deposit(packed: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    let mut i = 0;
    while mask != 0 {
        let bit = mask & mask.wrapping_neg();
        if packed >> i & 1 != 0 {
            out |= bit;
        }
        mask &= mask - 1;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colex_ranks_are_the_order_of_gosper() {
        let b = Binomials::new();
        for (n, k) in [(6u32, 3u32), (10, 1), (8, 0), (12, 5)] {
            let mut mask = if k == 0 { 0 } else { (1u64 << k) - 1 };
            for r in 0..b.get(n, k) {
                assert_eq!(b.colex(mask), r);
                assert_eq!(b.uncolex(r, k), mask);
                if k == 0 {
                    break;
                }
                mask = next_combination(mask);
            }
        }
        assert_eq!(b.get(64, 32), 1_832_624_140_942_590_534);
        assert_eq!(insert(0b1011, 2, true), 0b10111);
        assert_eq!(insert(0b1011, 0, false), 0b10110);
        assert_eq!(extract(0b1010_0110, 0b1100_1100), 0b1001);
        assert_eq!(deposit(0b1001, 0b1100_1100), 0b1000_0100);
    }
}
