//! Wythoff's game: two piles; a move takes any positive number from one pile, or the same
//! positive number from both.

use super::family::{
    Bound, Cost, Discovery, Drawing, GameRules, Grundy, GrundySource, Indexing, Kind,
    PatternSource, Patterns, Picture, Pos, ProvedRule, RuleSearch, Scores, Searching, Values,
};
use super::spec::{Args, Built, Entry, Offered, Options, Setting, SpecError};
use crate::explore::Control;
use crate::game::{Game, ImpartialGame};
use crate::impartial::mex;
use crate::Error;

/// Wythoff's game, positions `(a, b)`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wythoff;

impl Wythoff {
    /// Grundy values of every `(a, b)` with `a, b ≤ n`, row-major (`a * (n + 1) + b`).
    ///
    /// # Complexity
    /// O(n³) time, 4·(n + 1)² bytes.
    ///
    /// # Errors
    /// [`Error::Cancelled`] if stopped; [`Error::Overflow`] if it cannot be indexed.
    pub fn table(n: u64, control: &Control<'_>) -> Result<Vec<u32>, Error> {
        let side = usize::try_from(n).map_err(|_| Error::Overflow)? + 1;
        let size = side.checked_mul(side).ok_or(Error::Overflow)?;
        let mut g = vec![0u32; size];
        let mut seen = Vec::new();
        for a in 0..side {
            control.check()?;
            control.report("grundy table", a as u64);
            for b in 0..side {
                let row = (0..a).map(|x| g[x * side + b]);
                let col = (0..b).map(|y| g[a * side + y]);
                let diag = (1..=a.min(b)).map(|t| g[(a - t) * side + (b - t)]);
                g[a * side + b] = mex(row.chain(col).chain(diag), &mut seen);
            }
        }
        Ok(g)
    }
}

impl Game for Wythoff {
    type Position = (u64, u64);

    fn moves(&self, &(a, b): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        out.extend((0..a).rev().map(|x| (x, b)));
        out.extend((0..b).rev().map(|y| (a, y)));
        out.extend((1..=a.min(b)).map(|t| (a - t, b - t)));
    }

    fn canonical(&self, &(a, b): &(u64, u64)) -> (u64, u64) {
        (a.min(b), a.max(b))
    }
}

impl ImpartialGame for Wythoff {}

/// Wythoff's game as a [`Family`]: positions `[a, b]`, as written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WythoffFamily;

struct Table {
    side: u64,
    values: Vec<u32>,
}

impl Values for Table {
    fn value(&self, c: &Pos) -> u64 {
        u64::from(self.values[(c[0] * (self.side + 1) + c[1]) as usize])
    }
}

struct Beatty;

impl ProvedRule for Beatty {
    fn theorem(&self) -> String {
        "Wythoff (1907): lost iff the piles are (⌊nφ⌋, ⌊nφ²⌋), φ the golden ratio".into()
    }

    fn is_loss(&self, pos: &Pos) -> bool {
        WythoffRule::is_loss(pos[0], pos[1])
    }

    fn winning_moves(&self, pos: &Pos) -> Vec<Pos> {
        WythoffRule::winning_moves(pos[0], pos[1])
            .into_iter()
            .map(|(a, b)| Pos::from_slice(&[a, b]))
            .collect()
    }
}

impl GameRules for WythoffFamily {
    fn name(&self) -> String {
        "wythoff".into()
    }

    fn kind(&self) -> Kind {
        Kind::Impartial
    }

    fn write_position(&self, pos: &Pos, out: &mut String) {
        out.push_str(&format!("{},{}", pos[0], pos[1]));
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let mut next = Vec::new();
        Wythoff.moves(&(pos[0], pos[1]), &mut next);
        out.extend(next.into_iter().map(|(a, b)| Pos::from_slice(&[a, b])));
    }

    fn canonical(&self, pos: &Pos) -> Pos {
        Pos::from_slice(&[pos[0].min(pos[1]), pos[0].max(pos[1])])
    }

    fn bound(&self, pos: &Pos) -> Bound {
        let (a, b) = (u128::from(pos[0]), u128::from(pos[1]));
        Bound {
            positions: (a + 1).saturating_mul(b + 1),
            moves: 2 * (a + b),
        }
    }

    fn some_move(&self, pos: &Pos) -> Option<Pos> {
        if pos[0] > 0 {
            Some(Pos::from_slice(&[pos[0] - 1, pos[1]]))
        } else if pos[1] > 0 {
            Some(Pos::from_slice(&[pos[0], pos[1] - 1]))
        } else {
            None
        }
    }

    fn is_move(&self, a: &Pos, b: &Pos) -> bool {
        let (a, b) = (self.canonical(a), self.canonical(b));
        let (x, y) = (b[0], b[1]);
        (x <= a[0] && y <= a[1] && (x == a[0] || y == a[1] || a[0] - x == a[1] - y) && b != a)
            || (y <= a[0]
                && x <= a[1]
                && (y == a[0] || x == a[1] || a[0] - y == a[1] - x)
                && b != a)
    }
}

impl Drawing for WythoffFamily {
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        let (da, db) = (from[0].saturating_sub(to[0]), from[1].saturating_sub(to[1]));
        match (da, db) {
            (t, 0) => format!("take {t} from pile 1"),
            (0, t) => format!("take {t} from pile 2"),
            (t, _) => format!("take {t} from both"),
        }
    }

    /// The two piles as stacks of tokens.
    fn picture(&self, pos: &Pos) -> Option<Picture> {
        super::heap::heaps_picture(pos)
    }

    /// A take from one pile at its lowest token taken; a take from both at pile 1's (the
    /// cell then lists both moves).
    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        let (da, db) = (from[0].checked_sub(to[0])?, from[1].checked_sub(to[1])?);
        match (da, db) {
            (0, t) => super::heap::heap_cell(from, 1, t),
            (t, _) => super::heap::heap_cell(from, 0, t),
        }
    }
}

impl Scores for WythoffFamily {}

impl Indexing for WythoffFamily {}

impl Searching for WythoffFamily {}

impl Patterns for WythoffFamily {
    fn rule(&self) -> Option<Box<dyn ProvedRule + '_>> {
        Some(Box::new(Beatty))
    }

    fn pattern(&self) -> PatternSource {
        PatternSource::Search(Box::new(BeattySearch))
    }
}

impl Grundy for WythoffFamily {
    fn grundy(&self) -> GrundySource {
        GrundySource::Table
    }

    fn grundy_size(&self, c: &Pos) -> u64 {
        c[0].max(c[1])
    }

    fn grundy_cost(&self, size: u64) -> Cost {
        let n = u128::from(size) + 1;
        Cost {
            bytes: n.saturating_mul(n).saturating_mul(4),
            work: n.saturating_mul(n).saturating_mul(n),
        }
    }

    fn grundy_table(&self, size: u64, control: &Control<'_>) -> Result<Box<dyn Values>, Error> {
        Ok(Box::new(Table {
            side: size,
            values: Wythoff::table(size, control)?,
        }))
    }
}

/// The special method's search on Wythoff's game ([`PatternSource::Search`]): the
/// losing pairs from the general method on the square, fitted by a Beatty pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BeattySearch;

impl RuleSearch for BeattySearch {
    fn default_up_to(&self) -> u64 {
        1000
    }

    fn cost(&self, up_to: u64) -> (&'static str, Cost) {
        let n = u128::from(up_to) + 1;
        let cost = Cost {
            work: n.saturating_mul(n),
            bytes: n.saturating_mul(n),
        };
        ("the general method on the square", cost)
    }

    fn discover(&self, up_to: u64, control: &Control<'_>) -> Result<Discovery, Error> {
        discover_wythoff(up_to, control)
    }
}

/// How many losing pairs a discovery lists (the rule gives the rest).
const LISTED: usize = 50;

/// Discovers Wythoff's losing positions as a Beatty pair from the general method's
/// labels of every `(a, b)` with `a, b ≤ n`, and checks the Beatty rule on all of them.
///
/// # Errors
/// [`Error::Cancelled`], [`Error::TooLarge`].
fn discover_wythoff(n: u64, control: &Control<'_>) -> Result<Discovery, Error> {
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
        p_positions: Vec::new(),
        p_pairs: pairs.iter().take(LISTED).map(|&(a, b)| [a, b]).collect(),
        rule: if golden {
            format!(
                "lost iff (a, b) = (⌊nφ⌋, ⌊nφ²⌋), φ = (1+√5)/2: a Beatty pair, α ∈ [{lo:.6}, {hi:.6}) fits all {outcome_checked} pairs"
            )
        } else {
            "no Beatty pair fits".into()
        },
        proved: golden,
        theorem: golden.then(|| "Wythoff (1907)".to_string()),
        period: None,
        checked_up_to: n,
    })
}

fn build(args: &Args<'_>) -> Result<Built, SpecError> {
    args.no_params()?;
    let position = match args.position() {
        None => None,
        Some(items) => {
            args.arity(items, &[2], "wythoff(3,5)")?;
            Some(args.naturals(items, "a pile")?)
        }
    };
    Ok(Built::new(WythoffFamily, position))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[Entry {
    name: "wythoff",
    examples: &["wythoff(3,5)"],
    small: &["wythoff(4,6)"],
    shape: "wythoff(a,b): take from one pile, or the same from both",
    build,
    options: Options {
        template: "wythoff({a},{b})",
        settings: &[
            Setting {
                name: "a",
                label: "first pile",
                values: Offered::Range(0, 20),
                default: "3",
            },
            Setting {
                name: "b",
                label: "second pile",
                values: Offered::Range(0, 20),
                default: "5",
            },
        ],
    },
}];

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

#[cfg(test)]
mod tests {
    use super::*;

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
        let discovery = discover_wythoff(200, &Control::default()).unwrap();
        assert_eq!(discovery.kind, "beatty");
        assert!(discovery.proved);
        assert_eq!(
            &discovery.p_pairs[..6],
            &[[0, 0], [1, 2], [3, 5], [4, 7], [6, 10], [8, 13]]
        );
        assert_eq!(discovery.p_pairs.len(), LISTED);
    }
}
