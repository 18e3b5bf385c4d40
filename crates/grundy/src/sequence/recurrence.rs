//! Rule shapes that fit an increasing integer sequence, searched simplest first:
//!
//! | shape | example |
//! | --- | --- |
//! | linear recurrence with constant coefficients (Berlekamp–Massey) | Fibonacci: a(i) = a(i−1) + a(i−2) |
//! | additive self-reference: a(i+1) = a(i) + a(j), j least with c·a(j) ≥ a(i) | the k-fold take-away game (Schwenk) |
//!
//! And the players of the two proved rules built on such shapes: the greedy
//! representation of the k-fold take-away game ([`MultipleRule`]) and Wythoff's Beatty
//! pairs ([`WythoffRule`]). Pure arithmetic: no game is named here.

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

/// The decision rule of the k-fold take-away game: every stone count has a greedy
/// representation as a sum of terms of the game's sequence H, and `(n, limit)` is lost
/// exactly when the smallest term exceeds the limit; the winning moves take a tail of
/// the representation. (Whinihan 1963 for k = 2, where H is the Fibonacci numbers and the
/// representation Zeckendorf's; Schwenk 1970 for every k.)
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MultipleRule {
    /// The multiplier k.
    pub k: u64,
    /// The sequence H: the stone counts whose starting position is lost.
    pub terms: Vec<u64>,
    /// How the sequence was found: its shape.
    pub shape: Shape,
}

impl MultipleRule {
    /// The rule from Schwenk's recurrence (H(0) = 1, H(i+1) = H(i) + H(j), j least with
    /// k·H(j) ≥ H(i)), with the terms up to `up_to`; `None` if that takes more than
    /// [`MAX_TERMS`] terms (k near `up_to`).
    #[must_use]
    pub fn schwenk(k: u64, up_to: u64) -> Option<MultipleRule> {
        let shape = Shape::Additive {
            multiplier: k,
            first: 1,
        };
        let terms = shape.terms_up_to(up_to)?;
        Some(MultipleRule { k, terms, shape })
    }

    /// The greedy representation of `n`, largest term first.
    #[must_use]
    pub fn representation(&self, mut n: u64) -> Vec<u64> {
        let mut parts = Vec::new();
        for &h in self.terms.iter().rev() {
            if h <= n {
                parts.push(h);
                n -= h;
            }
        }
        parts
    }

    /// Whether the player to move at `(n, limit)` loses.
    ///
    /// # Complexity
    /// O(log n).
    #[must_use]
    pub fn is_loss(&self, n: u64, limit: u64) -> bool {
        match self.representation(n).last() {
            None => true,
            Some(&smallest) => smallest > limit,
        }
    }

    /// Every winning take from `(n, limit)`, smallest first: tails of the
    /// representation — the smallest term, the two smallest, … — while k times the tail
    /// stays below the next term (or the tail is everything), and within the limit.
    ///
    /// # Complexity
    /// O(log n).
    #[must_use]
    pub fn winning_takes(&self, n: u64, limit: u64) -> Vec<u64> {
        let parts = self.representation(n);
        let mut takes = Vec::new();
        let mut tail = 0u64;
        for (i, &p) in parts.iter().enumerate().rev() {
            tail += p;
            if tail > limit {
                break;
            }
            let fits = match i.checked_sub(1).map(|j| parts[j]) {
                None => true,
                Some(next) => u128::from(self.k) * u128::from(tail) < u128::from(next),
            };
            if fits {
                takes.push(tail);
            }
        }
        takes
    }
}

/// Wythoff's losing positions: the Beatty pairs (⌊nφ⌋, ⌊nφ²⌋), φ the golden ratio
/// (Wythoff 1907), computed exactly in integers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WythoffRule;

impl WythoffRule {
    /// ⌊n·φ⌋ = ⌊(n + √(5n²)) / 2⌋, exact.
    #[must_use]
    pub fn lower(n: u64) -> u128 {
        let n = u128::from(n);
        (n + (5 * n * n).isqrt()) / 2
    }

    /// The n-th losing pair (a_n, b_n) with b_n = a_n + n.
    #[must_use]
    pub fn pair(n: u64) -> (u128, u128) {
        let a = Self::lower(n);
        (a, a + u128::from(n))
    }

    /// Whether `(a, b)` is lost for the player to move.
    #[must_use]
    pub fn is_loss(a: u64, b: u64) -> bool {
        let (a, b) = (a.min(b), a.max(b));
        Self::pair(b - a).0 == u128::from(a)
    }

    /// Every winning move from `(a, b)`: the positions it may move to, piles in the
    /// order given. O(log n) each.
    #[must_use]
    pub fn winning_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
        let mut found: Vec<(u64, u64)> = Vec::new();
        // Lower `b` to the partner of `a`, or `a` to the partner of `b`.
        for (keep, other, lower_b) in [(a, b, true), (b, a, false)] {
            for (small, large) in Self::pairs_containing(keep) {
                let partner = if small == u128::from(keep) {
                    large
                } else {
                    small
                };
                if partner < u128::from(other) {
                    let p = partner as u64;
                    found.push(if lower_b { (a, p) } else { (p, b) });
                }
            }
        }
        // The same from both: keep the difference d and reach (a_d, a_d + d).
        let (x, y) = (a.min(b), a.max(b));
        let (ad, _) = Self::pair(y - x);
        if ad < u128::from(x) {
            let t = x - ad as u64;
            found.push((a - t, b - t));
        }
        found.sort_unstable();
        found.dedup();
        found
    }

    /// The losing pairs (at most two candidates) that contain `v`.
    fn pairs_containing(v: u64) -> Vec<(u128, u128)> {
        let mut out = Vec::new();
        if v == 0 {
            return vec![(0, 0)];
        }
        // a_n = v ⇒ n ≈ v/φ; b_n = v ⇒ n ≈ v/φ².
        let phi = (1.0 + 5f64.sqrt()) / 2.0;
        for guess in [v as f64 / phi, v as f64 / (phi * phi)] {
            let g = guess as u64;
            for n in g.saturating_sub(2)..=g.saturating_add(2) {
                let (s, l) = Self::pair(n);
                if s == u128::from(v) || l == u128::from(v) {
                    out.push((s, l));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}
