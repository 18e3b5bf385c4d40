//! Dyadic rationals `n / 2^k`, the numbers of short games: exact arithmetic within a
//! fixed range, the simplest number strictly between two bounds, and how CGSuite writes
//! them (`0`, `-2`, `1/2`, `-3/4`).

use std::cmp::Ordering;
use std::fmt;

/// The largest power of two a denominator may have, and the bound on a numerator's size
/// (`|n| ≤ 2^MAX_EXP`): every operation below then fits in `i128` exactly.
pub const MAX_EXP: u32 = 62;

/// A dyadic rational `num / 2^exp`, always in lowest terms (`num` odd or `exp = 0`), so
/// equal numbers are equal structs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dyadic {
    num: i64,
    exp: u32,
}

impl Dyadic {
    /// Zero.
    pub const ZERO: Dyadic = Dyadic { num: 0, exp: 0 };

    /// `num / 2^exp` in lowest terms; `None` past the range (`exp` or `|num|` over
    /// `2^MAX_EXP` once reduced).
    #[must_use]
    pub fn new(num: i128, exp: u32) -> Option<Dyadic> {
        let (mut num, mut exp) = (num, exp);
        while exp > 0 && num % 2 == 0 {
            num /= 2;
            exp -= 1;
        }
        if num == 0 {
            exp = 0;
        }
        (exp <= MAX_EXP && num.unsigned_abs() <= 1u128 << MAX_EXP).then_some(Dyadic {
            num: num as i64,
            exp,
        })
    }

    /// The integer `n` (within the range).
    #[must_use]
    pub fn integer(n: i64) -> Option<Dyadic> {
        Dyadic::new(i128::from(n), 0)
    }

    /// The numerator, in lowest terms.
    #[must_use]
    pub fn numerator(self) -> i64 {
        self.num
    }

    /// The power of two of the denominator, in lowest terms.
    #[must_use]
    pub fn exponent(self) -> u32 {
        self.exp
    }

    /// Whether this is a whole number.
    #[must_use]
    pub fn is_integer(self) -> bool {
        self.exp == 0
    }

    /// The numerator over `2^exp` for `exp ≥ self.exp` (exact in `i128`).
    fn scaled(self, exp: u32) -> i128 {
        i128::from(self.num) << (exp - self.exp)
    }

    /// `self + other`; `None` past the range.
    #[must_use]
    pub fn checked_add(self, other: Dyadic) -> Option<Dyadic> {
        let e = self.exp.max(other.exp);
        Dyadic::new(self.scaled(e) + other.scaled(e), e)
    }

    /// `-self` (always in range).
    #[must_use]
    pub fn negate(self) -> Dyadic {
        Dyadic {
            num: -self.num,
            exp: self.exp,
        }
    }

    /// `self − other`; `None` past the range.
    #[must_use]
    pub fn checked_sub(self, other: Dyadic) -> Option<Dyadic> {
        self.checked_add(other.negate())
    }

    /// Half of `self`; `None` past the range.
    #[must_use]
    pub fn half(self) -> Option<Dyadic> {
        Dyadic::new(i128::from(self.num), self.exp + 1)
    }

    /// The greatest integer `≤ self`.
    #[must_use]
    pub fn floor(self) -> i64 {
        self.num >> self.exp
    }

    /// The least integer `≥ self`.
    #[must_use]
    pub fn ceil(self) -> i64 {
        -((-self.num) >> self.exp)
    }

    /// The simplest number strictly between `low` and `high` (either may be missing: no
    /// bound on that side), as a number-valued `{low | high}` equals by the simplicity
    /// rule: 0 if it lies between; else the integer nearest 0 between; else the one of
    /// least denominator (unique). `None` if `low ≥ high` or past the range.
    ///
    /// # Complexity
    /// O(`MAX_EXP`) arithmetic steps.
    #[must_use]
    pub fn simplest_between(low: Option<Dyadic>, high: Option<Dyadic>) -> Option<Dyadic> {
        let zero = Dyadic::ZERO;
        match (low, high) {
            (Some(l), Some(h)) if l >= h => None,
            (l, h) if l.is_none_or(|l| l < zero) && h.is_none_or(|h| h > zero) => Some(zero),
            // Everything between is positive: the least integer above `l`, if below `h`.
            (Some(l), h) if l >= zero => {
                let n = Dyadic::integer(l.floor().checked_add(1)?)?;
                if h.is_none_or(|h| n < h) {
                    return Some(n);
                }
                Dyadic::least_denominator(l, h?)
            }
            // Everything between is negative.
            (l, Some(h)) => {
                let n = Dyadic::integer(h.ceil().checked_sub(1)?)?;
                if l.is_none_or(|l| n > l) {
                    return Some(n);
                }
                Dyadic::least_denominator(l?, h)
            }
            _ => None,
        }
    }

    /// The number of least denominator strictly between `l < h` (no integer between).
    fn least_denominator(l: Dyadic, h: Dyadic) -> Option<Dyadic> {
        for k in 1..=MAX_EXP {
            // The least m with m / 2^k > l: floor(l · 2^k) + 1.
            let floor = if k >= l.exp {
                i128::from(l.num) << (k - l.exp)
            } else {
                i128::from(l.num) >> (l.exp - k)
            };
            let m = floor + 1;
            let e = k.max(h.exp);
            if (m << (e - k)) < h.scaled(e) {
                return Dyadic::new(m, k);
            }
        }
        None
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Dyadic) -> Ordering {
        let e = self.exp.max(other.exp);
        self.scaled(e).cmp(&other.scaled(e))
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Dyadic) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// As CGSuite writes numbers: `0`, `-2`, `1/2`, `-3/4`.
impl fmt::Display for Dyadic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exp == 0 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, 1u64 << self.exp)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(num: i128, exp: u32) -> Dyadic {
        Dyadic::new(num, exp).unwrap()
    }

    fn simplest(l: Option<Dyadic>, h: Option<Dyadic>) -> String {
        Dyadic::simplest_between(l, h).unwrap().to_string()
    }

    #[test]
    fn lowest_terms_arithmetic_and_text() {
        assert_eq!(d(2, 2), d(1, 1));
        assert_eq!(d(0, 5), Dyadic::ZERO);
        assert_eq!(d(1, 1).checked_add(d(1, 1)), Some(d(1, 0)));
        assert_eq!(d(3, 2).to_string(), "3/4");
        assert_eq!(d(-3, 2).to_string(), "-3/4");
        assert_eq!(d(-5, 1).floor(), -3);
        assert_eq!(d(-5, 1).ceil(), -2);
        assert_eq!(d(5, 1).floor(), 2);
        assert_eq!(d(5, 1).ceil(), 3);
        assert!(d(-1, 0) < d(-1, 1));
        assert_eq!(Dyadic::new(1, MAX_EXP + 1), None);
        assert_eq!(Dyadic::integer(i64::MAX), None);
    }

    /// The simplicity rule, integer and dyadic cases (Siegel, *Combinatorial Game
    /// Theory*, II.3: `{0|} = 1`, `{|0} = -1`, `{0|1} = 1/2`, `{1/2|1} = 3/4`,
    /// `{-1|3} = 0`, `{1|4} = 2`, `{-4|-1} = -2`).
    #[test]
    fn the_simplest_number_between() {
        let i = |n: i128| Some(d(n, 0));
        assert_eq!(simplest(None, None), "0");
        assert_eq!(simplest(i(0), None), "1");
        assert_eq!(simplest(i(3), None), "4");
        assert_eq!(simplest(Some(d(5, 1)), None), "3");
        assert_eq!(simplest(i(-3), None), "0");
        assert_eq!(simplest(None, i(0)), "-1");
        assert_eq!(simplest(None, Some(d(-5, 1))), "-3");
        assert_eq!(simplest(i(0), i(1)), "1/2");
        assert_eq!(simplest(Some(d(1, 1)), i(1)), "3/4");
        assert_eq!(simplest(i(-1), i(3)), "0");
        assert_eq!(simplest(i(1), i(4)), "2");
        assert_eq!(simplest(i(-4), i(-1)), "-2");
        assert_eq!(simplest(i(-1), i(0)), "-1/2");
        assert_eq!(simplest(Some(d(1, 2)), Some(d(3, 2))), "1/2");
        assert_eq!(simplest(Some(d(5, 3)), Some(d(3, 2))), "11/16");
        assert_eq!(simplest(Some(d(1, 1)), Some(d(5, 3))), "9/16");
        assert_eq!(simplest(Some(d(7, 2)), Some(d(5, 1))), "2");
        assert_eq!(Dyadic::simplest_between(i(1), i(1)), None);
    }
}
