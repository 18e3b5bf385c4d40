//! Rule shapes that fit an increasing integer sequence, searched simplest first:
//!
//! | shape | example |
//! | --- | --- |
//! | linear recurrence with constant coefficients (Berlekamp–Massey) | Fibonacci: a(i) = a(i−1) + a(i−2) |
//! | additive self-reference: a(i+1) = a(i) + a(j), j least with c·a(j) ≥ a(i) | the k-fold take-away game (Schwenk) |
//!
//! Pure arithmetic: the players of the proved rules built on these shapes live in their
//! families' files (`games::multiple`, `games::wythoff`).

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// a(i) = Σ c_j · a(i − j), j = 1..=order, from the given first terms.
    Linear {
        /// Coefficients c_1, c_2, … (integers).
        coefficients: Vec<i64>,
        /// The first `order` terms.
        initial: Vec<u64>,
    },
    /// a(i+1) = a(i) + a(j) with j the least index such that `multiplier`·a(j) ≥ a(i).
    Additive {
        /// The multiplier c.
        multiplier: u64,
        /// The first term (a(0)).
        first: u64,
    },
}

impl Shape {
    /// One line a person can read.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Shape::Linear {
                coefficients,
                initial,
            } => {
                let terms: Vec<String> = coefficients
                    .iter()
                    .enumerate()
                    .filter(|(_, &c)| c != 0)
                    .map(|(j, &c)| match c {
                        1 => format!("a(i-{})", j + 1),
                        c => format!("{c}·a(i-{})", j + 1),
                    })
                    .collect();
                let init: Vec<String> = initial.iter().map(ToString::to_string).collect();
                format!(
                    "a(i) = {} from {}",
                    terms.join(" + ").replace("+ -", "- "),
                    init.join(", ")
                )
            }
            Shape::Additive { multiplier, first } => format!(
                "a(0) = {first}, a(i+1) = a(i) + a(j) with j least such that {multiplier}·a(j) ≥ a(i)"
            ),
        }
    }

    /// The terms of the sequence up to `limit` (inclusive), or `None` if the shape does
    /// not produce an increasing sequence or needs more than [`MAX_TERMS`] terms to get
    /// there (a k-fold game with huge k grows by one stone at a time).
    #[must_use]
    pub fn terms_up_to(&self, limit: u64) -> Option<Vec<u64>> {
        let mut a: Vec<u64> = Vec::new();
        let too_many = |a: &Vec<u64>| a.len() >= MAX_TERMS;
        match self {
            Shape::Linear {
                coefficients,
                initial,
            } => {
                a.extend(initial.iter().copied().take_while(|&x| x <= limit));
                if a.len() < initial.len() {
                    return Some(a);
                }
                loop {
                    let i = a.len();
                    let mut next: i128 = 0;
                    for (j, &c) in coefficients.iter().enumerate() {
                        next += i128::from(c) * i128::from(a[i - 1 - j]);
                    }
                    if next <= i128::from(*a.last()?) {
                        return None;
                    }
                    if next > i128::from(limit) {
                        return Some(a);
                    }
                    if too_many(&a) {
                        return None;
                    }
                    a.push(next as u64);
                }
            }
            Shape::Additive { multiplier, first } => {
                if *first > limit {
                    return Some(a);
                }
                a.push(*first);
                let mut j = 0;
                loop {
                    let last = *a.last()?;
                    while u128::from(*multiplier) * u128::from(a[j]) < u128::from(last) {
                        j += 1;
                    }
                    match last.checked_add(a[j]) {
                        Some(_) if too_many(&a) => return None,
                        Some(next) if next <= limit => a.push(next),
                        _ => return Some(a),
                    }
                }
            }
        }
    }
}

/// The most terms a rule's sequence may have (8 MiB of `u64`s).
pub const MAX_TERMS: usize = 1 << 20;

/// Fits an integer linear recurrence with constant coefficients to `a` by
/// Berlekamp–Massey over the rationals; `None` unless the recurrence has integer
/// coefficients, order at most `a.len() / 3`, and reproduces every term.
#[must_use]
pub fn linear_recurrence(a: &[u64]) -> Option<Shape> {
    if a.len() < 6 {
        return None;
    }
    let s: Vec<Frac> = a.iter().map(|&x| Frac::int(i128::from(x))).collect();
    // Berlekamp–Massey: connection polynomial c (c[0] = 1).
    let mut c = vec![Frac::int(1)];
    let mut b = vec![Frac::int(1)];
    let mut l = 0usize;
    let mut m = 1usize;
    let mut last_d = Frac::int(1);
    for n in 0..s.len() {
        let mut d = s[n];
        for i in 1..=l {
            d = d.add(c.get(i).copied().unwrap_or(Frac::int(0)).mul(s[n - i])?)?;
        }
        if d.is_zero() {
            m += 1;
            continue;
        }
        let coef = d.div(last_d)?;
        let old = c.clone();
        if c.len() < b.len() + m {
            c.resize(b.len() + m, Frac::int(0));
        }
        for (i, &bi) in b.iter().enumerate() {
            c[i + m] = c[i + m].sub(coef.mul(bi)?)?;
        }
        if 2 * l <= n {
            l = n + 1 - l;
            b = old;
            last_d = d;
            m = 1;
        } else {
            m += 1;
        }
    }
    if l == 0 || 3 * l > a.len() {
        return None;
    }
    // a(i) = −Σ c_j a(i−j)
    let mut coefficients = Vec::with_capacity(l);
    for j in 1..=l {
        let f = c.get(j).copied().unwrap_or(Frac::int(0));
        if f.den != 1 {
            return None;
        }
        coefficients.push(i64::try_from(-f.num).ok()?);
    }
    let shape = Shape::Linear {
        coefficients,
        initial: a[..l].to_vec(),
    };
    (shape.terms_up_to(*a.last()?)? == a).then_some(shape)
}

/// Fits a(i+1) = a(i) + a(j), j least with c·a(j) ≥ a(i), for c = 1..=16.
#[must_use]
pub fn additive_recurrence(a: &[u64]) -> Option<Shape> {
    if a.len() < 4 {
        return None;
    }
    (1..=16).find_map(|multiplier| {
        let shape = Shape::Additive {
            multiplier,
            first: a[0],
        };
        (shape.terms_up_to(*a.last()?)? == a).then_some(shape)
    })
}

/// An exact fraction with small numbers (enough for short integer sequences);
/// operations fail (`None`) rather than overflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Frac {
    num: i128,
    den: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

impl Frac {
    fn int(x: i128) -> Frac {
        Frac { num: x, den: 1 }
    }
    fn norm(num: i128, den: i128) -> Option<Frac> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        let sign = if den < 0 { -1 } else { 1 };
        Some(Frac {
            num: sign * num / g,
            den: sign * den / g,
        })
    }
    fn is_zero(self) -> bool {
        self.num == 0
    }
    fn add(self, o: Frac) -> Option<Frac> {
        Frac::norm(
            self.num
                .checked_mul(o.den)?
                .checked_add(o.num.checked_mul(self.den)?)?,
            self.den.checked_mul(o.den)?,
        )
    }
    fn sub(self, o: Frac) -> Option<Frac> {
        self.add(Frac {
            num: -o.num,
            den: o.den,
        })
    }
    fn mul(self, o: Frac) -> Option<Frac> {
        Frac::norm(self.num.checked_mul(o.num)?, self.den.checked_mul(o.den)?)
    }
    fn div(self, o: Frac) -> Option<Frac> {
        Frac::norm(self.num.checked_mul(o.den)?, self.den.checked_mul(o.num)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn berlekamp_massey_finds_fibonacci_and_refuses_noise() {
        let fib = [1u64, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144];
        let shape = linear_recurrence(&fib).unwrap();
        assert_eq!(
            shape,
            Shape::Linear {
                coefficients: vec![1, 1],
                initial: vec![1, 2]
            }
        );
        assert_eq!(shape.describe(), "a(i) = a(i-1) + a(i-2) from 1, 2");
        assert_eq!(
            linear_recurrence(&[1, 2, 4, 7, 11, 16, 22, 30, 31, 50]),
            None
        );
        let powers = [1u64, 2, 4, 8, 16, 32, 64];
        assert!(linear_recurrence(&powers).is_some());
    }
}
