//! The special method for games whose positions are not one heap: compute the losing
//! positions by the general method, search a small space of rule shapes for one that fits
//! them, and turn the rule into a player that picks winning moves in O(log n).
//!
//! Shapes searched, simplest first, on an increasing sequence `a(0) < a(1) < …`:
//!
//! | shape | example |
//! | --- | --- |
//! | linear recurrence with constant coefficients (Berlekamp–Massey) | Fibonacci: a(i) = a(i−1) + a(i−2) |
//! | additive self-reference: a(i+1) = a(i) + a(j), j least with c·a(j) ≥ a(i) | the k-fold take-away game (Schwenk) |
//! | Beatty pair ⌊nα⌋, ⌊nβ⌋ with 1/α + 1/β = 1 | Wythoff: α = φ |

use crate::explore::Control;
use crate::games::Multiple;
use crate::Error;

/// A rule shape that fits an increasing integer sequence.
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

/// What rule discovery found for a family.
#[derive(Debug, Clone, PartialEq)]
pub struct Discovery {
    /// The family, as written.
    pub family: String,
    /// `"recurrence"` or `"beatty"` (or `"none"`).
    pub kind: &'static str,
    /// The first losing positions (for `wythoff`, the smaller members a_n).
    pub p_positions: Vec<u64>,
    /// One line a person can read.
    pub rule: String,
    /// Whether a theorem proves the rule for every size.
    pub proved: bool,
    /// The theorem, when `proved`.
    pub theorem: Option<&'static str>,
    /// Every position up to this size was checked against the general method.
    pub checked_up_to: u64,
}

/// Discovers the rule of the k-fold take-away game from the general method's table to
/// `n` stones, and checks the rule's player on every position `(m, l)`, `m ≤ n`: it
/// calls exactly the positions lost that the table does, and its winning takes are
/// exactly the table's.
///
/// # Errors
/// [`Error::Cancelled`]; [`Error::Unsupported`] if the rule found disagrees with the
/// table somewhere (reported with the position).
pub fn discover_multiple(
    k: u64,
    n: u64,
    control: &Control<'_>,
) -> Result<(Discovery, Option<MultipleRule>), Error> {
    let game = Multiple { k, max_stones: n };
    let thresholds = game.thresholds(control)?;
    // The starting positions (m, m − 1) that are lost: T(m) > m − 1, i.e. T(m) = m.
    let p: Vec<u64> = (1..=n).filter(|&m| thresholds[m as usize] >= m).collect();
    let shape = linear_recurrence(&p).or_else(|| additive_recurrence(&p));
    let family = format!("multiple[{k}]");
    let Some(shape) = shape else {
        return Ok((
            Discovery {
                family,
                kind: "none",
                p_positions: p,
                rule: "no rule of the searched shapes fits".into(),
                proved: false,
                theorem: None,
                checked_up_to: n,
            },
            None,
        ));
    };
    let terms = shape.terms_up_to(n).unwrap_or_default();
    let rule = MultipleRule { k, terms, shape };
    // Check the player against the table on every position.
    for m in 1..=n {
        if m % 1024 == 0 {
            control.check()?;
        }
        let t = thresholds[m as usize];
        if rule.is_loss(m, m) || rule.representation(m).last() != Some(&t) {
            return Err(Error::Unsupported(format!(
                "the rule `{}` fails at {m} stones: the least winning take is {t}",
                rule.shape.describe()
            )));
        }
        let table: Vec<u64> = (1..=m)
            .filter(|&take| {
                let (rest, limit) = game.after((m, m), take);
                limit < thresholds[rest as usize]
            })
            .collect();
        if rule.winning_takes(m, m) != table {
            return Err(Error::Unsupported(format!(
                "the rule's winning takes at {m} stones, {:?}, differ from the table's, {table:?}",
                rule.winning_takes(m, m)
            )));
        }
    }
    let theorem = if k == 2 {
        "Whinihan (1963): lost iff the smallest Zeckendorf term exceeds the limit"
    } else {
        "Schwenk (1970), Take-away games: lost iff the smallest term of the greedy representation exceeds the limit"
    };
    // The theorem speaks of Schwenk's sequence; the proof applies when the discovered
    // sequence is that one.
    // Both sequences compared as far as the representations of every n ≤ 2^64 − 1 need.
    let proved = match (
        rule.shape.terms_up_to(u64::MAX),
        MultipleRule::schwenk(k, u64::MAX),
    ) {
        (Some(found), Some(schwenk)) => found == schwenk.terms,
        _ => false,
    };
    let rule_text = format!(
        "losing starts: {}; play: take the smallest term of the greedy representation",
        rule.shape.describe()
    );
    Ok((
        Discovery {
            family,
            kind: "recurrence",
            p_positions: p,
            rule: rule_text,
            proved,
            theorem: proved.then_some(theorem),
            checked_up_to: n,
        },
        Some(rule),
    ))
}

/// Discovers Wythoff's losing positions as a Beatty pair from the general method's
/// labels of every `(a, b)` with `a, b ≤ n`, and checks the Beatty rule on all of them.
///
/// # Errors
/// [`Error::Cancelled`], [`Error::TooLarge`].
pub fn discover_wythoff(n: u64, control: &Control<'_>) -> Result<Discovery, Error> {
    // The general method on the whole square: a position is lost iff none of its
    // options is. Its options lie on its row, column and diagonal below it, so one flag
    // per line says whether a lost option exists: O(n²) instead of O(n³).
    let side = n.checked_add(1).ok_or(Error::Overflow)?;
    let cells = side.checked_mul(side).ok_or(Error::Overflow)?;
    let cells = usize::try_from(cells).map_err(|_| Error::Overflow)?;
    let mut lost = vec![false; cells];
    let width = side as usize;
    let mut in_row = vec![false; width];
    let mut in_column = vec![false; width];
    let mut in_diagonal = vec![false; 2 * width];
    for a in 0..width {
        control.check()?;
        for b in 0..width {
            let d = b + width - a;
            if !(in_row[a] || in_column[b] || in_diagonal[d]) {
                lost[a * width + b] = true;
                in_row[a] = true;
                in_column[b] = true;
                in_diagonal[d] = true;
            }
        }
    }
    let mut pairs: Vec<(u64, u64)> = Vec::new();
    for a in 0..side {
        for b in a..side {
            if lost[(a * side + b) as usize] {
                pairs.push((a, b));
            }
        }
    }
    // Beatty: a_m = ⌊m·α⌋ for every pair (a_m, b_m) with b_m = a_m + m; the α that fit
    // form an interval [lo, hi).
    let mut lo = 0f64;
    let mut hi = f64::INFINITY;
    let mut is_beatty = true;
    for (m, &(a, b)) in pairs.iter().enumerate().skip(1) {
        let m64 = m as u64;
        if b != a + m64 {
            is_beatty = false;
            break;
        }
        lo = lo.max(a as f64 / m as f64);
        hi = hi.min((a + 1) as f64 / m as f64);
    }
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let golden = is_beatty && lo <= phi && phi < hi;
    // Check the exact rule on every position of the square.
    if golden {
        for a in 0..side {
            for b in 0..side {
                if WythoffRule::is_loss(a, b) != lost[(a * side + b) as usize] {
                    return Err(Error::Unsupported(format!(
                        "the golden-ratio rule fails at ({a}, {b})"
                    )));
                }
            }
        }
    }
    let outcome_checked = pairs.len();
    Ok(Discovery {
        family: "wythoff".into(),
        kind: if golden { "beatty" } else { "none" },
        p_positions: pairs.iter().map(|&(a, _)| a).collect(),
        rule: if golden {
            format!(
                "lost iff (a, b) = (⌊nφ⌋, ⌊nφ²⌋), φ = (1+√5)/2: a Beatty pair, α ∈ [{lo:.6}, {hi:.6}) fits all {outcome_checked} pairs"
            )
        } else {
            "no Beatty pair fits".into()
        },
        proved: golden,
        theorem: golden.then_some("Wythoff (1907)"),
        checked_up_to: n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::Wythoff;

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

    #[test]
    fn zeckendorf_play() {
        let rule = MultipleRule::schwenk(2, u64::MAX).unwrap();
        assert_eq!(&rule.terms[..8], &[1, 2, 3, 5, 8, 13, 21, 34]);
        assert_eq!(rule.representation(20), vec![13, 5, 2]);
        assert!(rule.is_loss(13, 12));
        assert!(!rule.is_loss(20, 19));
        // 20 = 13 + 5 + 2: take 2 (2·2 < 5), or 7 (2·7 ≥ 13: no), or all.
        assert_eq!(rule.winning_takes(20, 19), vec![2]);
        assert_eq!(rule.winning_takes(20, 1), Vec::<u64>::new());
        assert!(rule.is_loss(10u64.pow(18), 0));
    }

    #[test]
    fn wythoff_pairs() {
        let pairs: Vec<(u128, u128)> = (0..6).map(WythoffRule::pair).collect();
        assert_eq!(
            pairs,
            vec![(0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13)]
        );
        assert!(WythoffRule::is_loss(5, 3));
        assert!(!WythoffRule::is_loss(5, 4));
        // Against the general method: every move to a losing pair, and only those.
        let mut children = Vec::new();
        for a in 0..40u64 {
            for b in 0..40u64 {
                children.clear();
                Wythoff.moves(&(a, b), &mut children);
                let mut want: Vec<(u64, u64)> = children
                    .iter()
                    .copied()
                    .filter(|&(x, y)| WythoffRule::is_loss(x, y))
                    .collect();
                want.sort_unstable();
                want.dedup();
                assert_eq!(WythoffRule::winning_moves(a, b), want, "({a}, {b})");
            }
        }
        let discovery = discover_wythoff(60, &Control::default()).unwrap();
        assert_eq!(discovery.kind, "beatty");
        assert!(discovery.proved);
        assert_eq!(&discovery.p_positions[..6], &[0, 1, 3, 4, 6, 8]);
    }

    #[test]
    fn k_fold_rules_are_discovered_and_checked() {
        let (d, rule) = discover_multiple(2, 600, &Control::default()).unwrap();
        let rule = rule.unwrap();
        assert_eq!(d.kind, "recurrence");
        assert!(
            d.rule.contains("a(i) = a(i-1) + a(i-2) from 1, 2"),
            "{}",
            d.rule
        );
        assert!(d.proved);
        assert_eq!(&rule.terms[..5], &[1, 2, 3, 5, 8]);
        for k in 3..=5 {
            let (d, rule) = discover_multiple(k, 600, &Control::default()).unwrap();
            let rule = rule.unwrap();
            assert_eq!(d.kind, "recurrence", "k = {k}");
            assert!(d.proved, "k = {k}: {}", d.rule);
            assert_eq!(rule.terms[..d.p_positions.len()], d.p_positions[..]);
        }
    }
}
