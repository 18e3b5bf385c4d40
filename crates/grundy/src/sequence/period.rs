//! Periods of integer sequences: the least period `p`, the pre-period, and arithmetic
//! periodicity `G(n + p) = G(n) + s`, found in linear time and O(1) extra memory.
//!
//! This module only *finds* a period in the values it is given; proving that a period
//! goes on forever needs the rules that made the sequence (see [`crate::octal`] for the
//! Guy–Smith periodicity theorem on octal games and the repeated-state argument on
//! subtraction games).
//!
//! ```
//! use grundy::pattern::period::find_period;
//!
//! // Kayles to heap 200: period 12 from heap 71 (Winning Ways, ch. 4).
//! let kayles = grundy::octal::grundy_sequence(
//!     &"0.77".parse().unwrap(),
//!     201,
//!     &Default::default(),
//! )
//! .unwrap();
//! let found = find_period(&kayles.to_vec()).unwrap();
//! assert_eq!((found.preperiod, found.period, found.saltus), (71, 12, 0));
//! assert!(!found.proved); // a finite sequence proves nothing by itself
//! ```

/// A period of a sequence: `G(n + period) = G(n) + saltus` for every `n ≥ preperiod`.
///
/// `preperiod` is the least such `n` for this period: the last exception is heap
/// `preperiod − 1` (Kayles: period 12, pre-period 71, last exception at heap 70).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Period {
    /// The first heap from which the relation holds.
    pub preperiod: u64,
    /// The period `p ≥ 1`: the least one the evidence allows.
    pub period: u64,
    /// The saltus `s` (0 for an ordinary period, > 0 for arithmetic periodicity).
    pub saltus: u64,
    /// Whether a theorem proves the relation for *every* heap, not only those checked.
    pub proved: bool,
    /// The largest heap whose value was computed and found to follow the relation.
    pub checked_up_to: u64,
}

impl Period {
    /// The value at heap `n` predicted from the first `preperiod + period` values.
    ///
    /// # Panics
    /// If `first` is shorter than `preperiod + period` while `n` needs it.
    #[must_use]
    pub fn extend(&self, first: &[u64], n: u64) -> u64 {
        if n < self.preperiod + self.period {
            return first[n as usize];
        }
        let laps = (n - self.preperiod) / self.period;
        let base = n - laps * self.period;
        first[base as usize] + laps * self.saltus
    }
}

impl std::fmt::Display for Period {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "period {} from heap {}", self.period, self.preperiod)?;
        if self.saltus != 0 {
            write!(f, " with saltus {}", self.saltus)?;
        }
        if self.proved {
            f.write_str(" (proved)")
        } else {
            write!(f, " (checked to heap {})", self.checked_up_to)
        }
    }
}

/// Blocks shorter than this are searched for directly; longer periods are found by
/// Rabin–Karp search for the last block of this length.
const BLOCK: usize = 32;

/// The least period `p` of the sequence `at(0..len)` for which `accept(preperiod, p)`
/// holds, with its pre-period: the least `s` such that `at(i + p) == at(i)` for every
/// `i` in `s..len − p`.
///
/// Only periods whose periodic stretch `len − s` holds at least two periods are offered
/// to `accept`: that is what makes "least" well defined and the search linear.
///
/// # Complexity
/// O(len) time for sequences whose spurious matches die out quickly (all Grundy
/// sequences met so far), O(len · (number of candidate periods)) in the worst case;
/// O(1) extra memory.
pub fn least_period_by(
    len: usize,
    at: impl Fn(usize) -> u64,
    mut accept: impl FnMut(u64, u64) -> bool,
) -> Option<(u64, u64)> {
    // The longest periodic stretch seen so far, (p0, s0): a multiple of p0 is periodic on
    // [s0, len) too, so its backward scan starts at s0. Without this, a tail of period 4
    // would cost a full scan for every multiple of 4.
    let mut longest: Option<(usize, usize)> = None;
    let mut start_of = |p: usize| -> usize {
        let mut s = len - p;
        if let Some((p0, s0)) = longest {
            if p.is_multiple_of(p0) {
                s = s.min(s0);
            }
        }
        while s > 0 && at(s - 1) == at(s - 1 + p) {
            s -= 1;
        }
        if longest.is_none_or(|(_, s0)| s < s0) {
            longest = Some((p, s));
        }
        s
    };
    let block = BLOCK.min(len / 2);
    // Short periods directly.
    for p in 1..=block.min(len / 2) {
        if at(len - 1) != at(len - 1 - p) {
            continue;
        }
        let s = start_of(p);
        if len - s >= 2 * p && accept(s as u64, p as u64) {
            return Some((s as u64, p as u64));
        }
    }
    if block == 0 || len < 2 * (block + 1) {
        return None;
    }
    // Longer periods: every p with a stretch ≥ 2p ≥ block + p has the last block again
    // p places earlier. Rolling hash h(j) = Σ at(j + i)·X^i over the block.
    const X: u64 = 0x9E37_79B9_7F4A_7C15;
    let top = X.wrapping_pow(block as u32 - 1);
    let hash_at = |j: usize| {
        (0..block)
            .rev()
            .fold(0u64, |h, i| h.wrapping_mul(X).wrapping_add(at(j + i)))
    };
    let target_start = len - block;
    let target = hash_at(target_start);
    // Candidate starts j = target_start − p for p = block + 1 ..= len / 2.
    let lowest = target_start.saturating_sub(len / 2);
    let mut j = target_start - (block + 1);
    let mut h = hash_at(j);
    loop {
        let p = target_start - j;
        if h == target && (0..block).all(|i| at(j + i) == at(target_start + i)) {
            let s = start_of(p);
            if len - s >= 2 * p && accept(s as u64, p as u64) {
                return Some((s as u64, p as u64));
            }
        }
        if j == 0 || j <= lowest {
            return None;
        }
        // h(j − 1) = at(j − 1) + X·(h(j) − at(j + block − 1)·X^(block−1)).
        h = at(j - 1)
            .wrapping_add(X.wrapping_mul(h.wrapping_sub(at(j + block - 1).wrapping_mul(top))));
        j -= 1;
    }
}

/// The least `s` such that `g[i + p] == g[i] + saltus` for every `i` in `s..len − p`
/// (`len − p` if even the last pair fails; 0 if `p ≥ len`).
#[must_use]
pub fn preperiod<T: Copy + Into<u64>>(g: &[T], period: u64, saltus: u64) -> u64 {
    let len = g.len();
    let Ok(p) = usize::try_from(period) else {
        return 0;
    };
    if p == 0 || p >= len {
        return 0;
    }
    let mut s = len - p;
    while s > 0 && g[s - 1].into().wrapping_add(saltus) == g[s - 1 + p].into() {
        s -= 1;
    }
    s as u64
}

/// Whether the stretch is long enough to believe without a proof: it holds two periods
/// and covers at least half of the values.
fn believable(len: usize, preperiod: u64, period: u64) -> bool {
    let stretch = len as u64 - preperiod;
    stretch >= 2 * period && 2 * stretch >= len as u64
}

/// The least ordinary period (saltus 0) of `g` whose periodic stretch holds two periods
/// and covers at least half of `g`, or `None`. Not `proved`.
///
/// # Complexity
/// O(len) on Grundy sequences, O(1) extra memory.
#[must_use]
pub fn find_ordinary_period<T: Copy + Into<u64>>(g: &[T]) -> Option<Period> {
    let len = g.len();
    let (s, p) = least_period_by(len, |i| g[i].into(), |s, p| believable(len, s, p))?;
    Some(Period {
        preperiod: s,
        period: p,
        saltus: 0,
        proved: false,
        checked_up_to: len as u64 - 1,
    })
}

/// The least arithmetic period `G(n + p) = G(n) + s`, `s > 0`, of `g` (found as an
/// ordinary period of the differences `G(n + 1) − G(n)`), whose stretch holds two periods
/// and covers at least half of `g`, or `None`. Not `proved`.
///
/// # Complexity
/// O(len) on Grundy sequences, O(1) extra memory.
#[must_use]
pub fn find_arithmetic_period<T: Copy + Into<u64>>(g: &[T]) -> Option<Period> {
    let len = g.len();
    if len < 3 {
        return None;
    }
    let diff = |i: usize| g[i + 1].into().wrapping_sub(g[i].into());
    let mut found = None;
    least_period_by(len - 1, diff, |s_diff, p| {
        let saltus = g[(s_diff + p) as usize]
            .into()
            .wrapping_sub(g[s_diff as usize].into());
        // A negative saltus cannot go on forever; 0 is an ordinary period.
        if saltus == 0 || saltus > u64::MAX / 2 {
            return false;
        }
        let s = preperiod(g, p, saltus);
        if believable(len, s, p) {
            found = Some(Period {
                preperiod: s,
                period: p,
                saltus,
                proved: false,
                checked_up_to: len as u64 - 1,
            });
            true
        } else {
            false
        }
    })?;
    found
}

/// The least period of `g`, ordinary first, then arithmetic: `G(n + p) = G(n) + s` for
/// every `n ≥ preperiod` within `g`, the stretch holding at least two periods and
/// covering at least half of `g`. Not `proved`: a finite sequence shows a period, only a
/// theorem about the rules that made it proves one.
///
/// # Complexity
/// O(len) on Grundy sequences, O(1) extra memory.
#[must_use]
pub fn find_period<T: Copy + Into<u64>>(g: &[T]) -> Option<Period> {
    find_ordinary_period(g).or_else(|| find_arithmetic_period(g))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_least(g: &[u64]) -> Option<(u64, u64)> {
        let len = g.len();
        (1..=len / 2).find_map(|p| {
            let s = preperiod(g, p as u64, 0);
            believable(len, s, p as u64).then_some((s, p as u64))
        })
    }

    #[test]
    fn periods_of_small_sequences() {
        let g: Vec<u64> = vec![5, 0, 1, 2, 0, 1, 2, 0, 1, 2];
        let p = find_period(&g).unwrap();
        assert_eq!((p.preperiod, p.period, p.saltus), (1, 3, 0));
        let nim: Vec<u64> = (0..50).collect();
        let p = find_period(&nim).unwrap();
        assert_eq!((p.preperiod, p.period, p.saltus), (0, 1, 1));
        let ap: Vec<u64> = (0..60u64)
            .map(|n| 9 * (n / 4) + [0, 3, 1, 2][n as usize % 4])
            .collect();
        let p = find_period(&ap).unwrap();
        assert_eq!((p.preperiod, p.period, p.saltus), (0, 4, 9));
        assert_eq!(find_period::<u64>(&[]), None);
        assert_eq!(find_period(&[3u8]), None);
    }

    #[test]
    fn long_periods_by_rolling_hash() {
        // A pseudo-random block of 1000 repeated after a pre-period of 777.
        let mut x = 12345u64;
        let mut rand = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % 5
        };
        let pre: Vec<u64> = (0..777).map(|_| rand()).collect();
        let block: Vec<u64> = (0..1000).map(|_| rand()).collect();
        let mut g = pre.clone();
        for i in 0..2600 {
            g.push(block[i % 1000]);
        }
        let p = find_period(&g).unwrap();
        assert_eq!(p.period, 1000);
        assert_eq!(Some((p.preperiod, p.period)), naive_least(&g));
    }

    #[test]
    fn agrees_with_a_naive_search() {
        let mut x = 99u64;
        for round in 0..400 {
            let mut rand = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            let len = (rand() % 300) as usize;
            let pre = (rand() % 100) as usize;
            let p = 1 + (rand() % 60) as usize;
            let alphabet = 1 + rand() % 4;
            let block: Vec<u64> = (0..p).map(|_| rand() % alphabet).collect();
            let g: Vec<u64> = (0..len)
                .map(|i| {
                    if i < pre {
                        rand() % alphabet
                    } else {
                        block[(i - pre) % p]
                    }
                })
                .collect();
            let fast = least_period_by(g.len(), |i| g[i], |s, p| believable(g.len(), s, p));
            assert_eq!(fast, naive_least(&g), "round {round}: {g:?}");
        }
    }

    #[test]
    fn extend_follows_the_relation() {
        let p = Period {
            preperiod: 1,
            period: 2,
            saltus: 3,
            proved: false,
            checked_up_to: 5,
        };
        let first = [7, 0, 1];
        let got: Vec<u64> = (0..7).map(|n| p.extend(&first, n)).collect();
        assert_eq!(got, [7, 0, 1, 3, 4, 6, 7]);
        assert_eq!(
            p.to_string(),
            "period 2 from heap 1 with saltus 3 (checked to heap 5)"
        );
    }
}
