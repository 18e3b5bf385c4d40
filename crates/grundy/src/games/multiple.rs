//! The k-fold take-away game of seed 000: `n` stones; a move takes 1..=limit, and the next
//! player may take up to k times that (never more than is left). The starting limit is
//! n − 1 (anything but all). k = 2 is Fibonacci Nim.

use super::family::{
    Bound, Cost, Discovery, Drawing, GameRules, Grundy, GrundySource, Indexing, Kind,
    PatternSource, Patterns, Picture, Pos, ProvedRule, Ranked, RuleSearch, Scores, Searching,
    Values,
};
use super::spec::{Args, Built, Entry, Offered, Options, Setting, SpecError};
use crate::explore::Control;
use crate::game::{Game, ImpartialGame, IndexedGame};
use crate::sequence::recurrence::{additive_recurrence, linear_recurrence, Shape};
use crate::Error;

/// The k-fold take-away game, positions `(stones, limit)` with `limit ≤ stones`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Multiple {
    /// The multiplier.
    pub k: u64,
    /// The most stones any explored position has (bounds [`IndexedGame::index`]).
    pub max_stones: u64,
}

impl Multiple {
    /// The position after taking `t` from `(n, limit)`.
    #[inline]
    #[must_use]
    pub fn after(&self, (n, _): (u64, u64), t: u64) -> (u64, u64) {
        let rest = n - t;
        (rest, rest.min(self.k.saturating_mul(t)))
    }

    /// Grundy values of every position `(n, limit)` with `n ≤ max_stones`, as a
    /// triangular table indexed by [`IndexedGame::index`].
    ///
    /// The options of `(n, l)` are those of `(n, l − 1)` plus one, so each row is one
    /// growing set and its mex only rises: O(N²) time in all, 2·N² bytes.
    ///
    /// # Errors
    /// [`Error::Cancelled`] if stopped; [`Error::Overflow`] if the table does not fit
    /// the address space.
    pub fn table(&self, control: &Control<'_>) -> Result<Vec<u32>, Error> {
        let size = usize::try_from(self.index_bound()).map_err(|_| Error::Overflow)?;
        let mut g = vec![0u32; size];
        let mut seen: Vec<bool> = Vec::new();
        for n in 1..=self.max_stones {
            if n % 256 == 0 {
                control.check()?;
                control.report("grundy table", n);
            }
            seen.clear();
            seen.resize(n as usize + 2, false);
            let mut m = 0u32;
            for l in 1..=n {
                let child = g[self.index(&self.after((n, l), l)) as usize] as usize;
                if child < seen.len() {
                    seen[child] = true;
                }
                while seen[m as usize] {
                    m += 1;
                }
                g[self.index(&(n, l)) as usize] = m;
            }
        }
        Ok(g)
    }
}

/// `thresholds[m]` for a position with `m` stones: the least limit from which it is won
/// (the least winning take), or [`NO_WINNING_TAKE`] when no limit wins (only `m = 0`).
pub const NO_WINNING_TAKE: u64 = u64::MAX;

impl Multiple {
    /// The outcome of every position with at most `max_stones` stones, as thresholds:
    /// `(m, l)` is won iff `l ≥ thresholds[m]`.
    ///
    /// This is the general method's table for this family, stored compactly: a position
    /// with more allowed stones has every move of one with fewer, so for each `m` the
    /// won limits are an interval `[T(m), m]`, and `T(m)` is the least `t` whose move
    /// leaves a lost position, `min(m − t, k·t) < T(m − t)`.
    ///
    /// # Complexity
    /// O(N²) time in the worst case (each row stops at its first winning take), 8 bytes
    /// per stone count.
    ///
    /// # Errors
    /// [`Error::Cancelled`] if stopped; [`Error::Overflow`] if it cannot be indexed.
    pub fn thresholds(&self, control: &Control<'_>) -> Result<Vec<u64>, Error> {
        let n = usize::try_from(self.max_stones).map_err(|_| Error::Overflow)?;
        let mut t = Vec::with_capacity(n + 1);
        t.push(NO_WINNING_TAKE);
        for m in 1..=n as u64 {
            if m % 1024 == 0 {
                control.check()?;
                control.report("thresholds", m);
            }
            let first = (1..=m)
                .find(|&take| {
                    let (rest, limit) = self.after((m, m), take);
                    limit < t[rest as usize]
                })
                .expect("taking every stone leaves (0, 0), which is lost");
            t.push(first);
        }
        Ok(t)
    }
}

impl Game for Multiple {
    type Position = (u64, u64);

    fn moves(&self, &(n, limit): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        out.extend((1..=limit.min(n)).map(|t| self.after((n, limit), t)));
    }
}

impl ImpartialGame for Multiple {}

impl IndexedGame for Multiple {
    fn index_bound(&self) -> u64 {
        let n = self.max_stones;
        (n + 1).saturating_mul(n + 2) / 2
    }

    #[inline]
    fn index(&self, &(n, limit): &(u64, u64)) -> u64 {
        n * (n + 1) / 2 + limit.min(n)
    }
}

/// The k-fold take-away game as a [`Family`]: positions `[stones, limit]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TakeAway {
    /// The multiplier k.
    pub k: u64,
}

impl TakeAway {
    fn game(self, max_stones: u64) -> Multiple {
        Multiple {
            k: self.k,
            max_stones,
        }
    }
}

/// Triangular ranks `n(n+1)/2 + limit` of every position with at most `max_stones`.
struct Triangle(Multiple);

impl Ranked for Triangle {
    fn size(&self) -> u64 {
        self.0.index_bound()
    }

    fn rank(&self, pos: &Pos) -> u64 {
        self.0.index(&(pos[0], pos[1]))
    }

    fn unrank(&self, rank: u64) -> Pos {
        let (n, l) = unrank(rank);
        Pos::from_slice(&[n, l])
    }

    fn descending(&self) -> bool {
        true
    }

    #[inline]
    fn moves(&self, rank: u64, out: &mut Vec<u64>) {
        let (n, limit) = unrank(rank);
        let k = self.0.k;
        out.extend((1..=limit.min(n)).map(|t| {
            let rest = n - t;
            rest * (rest + 1) / 2 + rest.min(k.saturating_mul(t))
        }));
    }
}

/// `(n, limit)` of a triangular rank.
#[inline]
fn unrank(rank: u64) -> (u64, u64) {
    // n = ⌊(√(8r + 1) − 1) / 2⌋, corrected for rounding.
    let mut n = (((8.0 * rank as f64 + 1.0).sqrt() - 1.0) / 2.0) as u64;
    while n * (n + 1) / 2 > rank {
        n -= 1;
    }
    while (n + 1) * (n + 2) / 2 <= rank {
        n += 1;
    }
    (n, rank - n * (n + 1) / 2)
}

struct Table {
    game: Multiple,
    values: Vec<u32>,
}

impl Values for Table {
    fn value(&self, c: &Pos) -> u64 {
        u64::from(self.values[self.game.index(&(c[0], c[1])) as usize])
    }
}

/// Whinihan's and Schwenk's theorem as a player.
struct Greedy(MultipleRule);

impl ProvedRule for Greedy {
    fn theorem(&self) -> String {
        if self.0.k == 2 {
            "Whinihan (1963): lost iff the smallest term of the Zeckendorf representation exceeds the limit; win by taking it".into()
        } else {
            "Schwenk (1970): lost iff the smallest term of the greedy representation in the game's sequence exceeds the limit; win by taking it".into()
        }
    }

    fn is_loss(&self, pos: &Pos) -> bool {
        self.0.is_loss(pos[0], pos[1])
    }

    fn winning_moves(&self, pos: &Pos) -> Vec<Pos> {
        let game = Multiple {
            k: self.0.k,
            max_stones: pos[0],
        };
        self.0
            .winning_takes(pos[0], pos[1])
            .into_iter()
            .map(|t| {
                let (n, l) = game.after((pos[0], pos[1]), t);
                Pos::from_slice(&[n, l])
            })
            .collect()
    }
}

impl GameRules for TakeAway {
    fn name(&self) -> String {
        format!("multiple[{}]", self.k)
    }

    fn kind(&self) -> Kind {
        Kind::Impartial
    }

    fn write_position(&self, pos: &Pos, out: &mut String) {
        // The starting position is written without its limit.
        if pos[1] == pos[0].saturating_sub(1) {
            out.push_str(&pos[0].to_string());
        } else {
            out.push_str(&format!("{},{}", pos[0], pos[1]));
        }
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let game = self.game(pos[0]);
        out.extend((1..=pos[1].min(pos[0])).map(|t| {
            let (n, l) = game.after((pos[0], pos[1]), t);
            Pos::from_slice(&[n, l])
        }));
    }

    fn bound(&self, pos: &Pos) -> Bound {
        let n = u128::from(pos[0]) + 1;
        // After a first take the limit may grow (k times the take), up to the stones left:
        // at most n − 1 after any move.
        let moves = pos[1].min(pos[0]).max(pos[0].saturating_sub(1));
        Bound {
            positions: n.saturating_mul(n + 1) / 2,
            moves: u128::from(moves),
        }
    }

    fn move_count(&self, pos: &Pos) -> u128 {
        u128::from(pos[1].min(pos[0]))
    }

    fn some_move(&self, pos: &Pos) -> Option<Pos> {
        (pos[1] >= 1).then(|| {
            let (n, l) = self.game(pos[0]).after((pos[0], pos[1]), 1);
            Pos::from_slice(&[n, l])
        })
    }

    fn is_move(&self, a: &Pos, b: &Pos) -> bool {
        b[0] < a[0]
            && a[0] - b[0] <= a[1]
            && self.game(a[0]).after((a[0], a[1]), a[0] - b[0]) == (b[0], b[1])
    }
}

impl Drawing for TakeAway {
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        format!("take {}", from[0].saturating_sub(to[0]))
    }

    fn names_move(&self, from: &Pos, to: &Pos, text: &str) -> bool {
        let said = super::family::squash(text);
        let t = from[0].saturating_sub(to[0]).to_string();
        said == format!("take{t}") || said == t
    }

    /// The heap, as one stack of tokens (the limit on the next take is in the spec).
    fn picture(&self, pos: &Pos) -> Option<Picture> {
        super::heap::heaps_picture(&pos[..1])
    }

    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        super::heap::heap_cell(&from[..1], 0, from[0].checked_sub(to[0])?)
    }
}

impl Scores for TakeAway {}

impl Indexing for TakeAway {
    fn ranking(&self, root: &Pos) -> Option<Box<dyn Ranked + '_>> {
        // Ranks are u64 and the table is indexed by them: keep the triangle addressable.
        (root[0] < 1 << 31).then(|| Box::new(Triangle(self.game(root[0]))) as Box<dyn Ranked>)
    }
}

impl Searching for TakeAway {}

impl Patterns for TakeAway {
    fn rule(&self) -> Option<Box<dyn ProvedRule + '_>> {
        MultipleRule::schwenk(self.k, u64::MAX).map(|r| Box::new(Greedy(r)) as Box<dyn ProvedRule>)
    }

    fn member(&self, n: u64) -> Option<Pos> {
        Some(Pos::from_slice(&[n, n.saturating_sub(1)]))
    }

    fn pattern(&self) -> PatternSource {
        PatternSource::Search(Box::new(TakeAwaySearch { k: self.k }))
    }
}

impl Grundy for TakeAway {
    fn grundy(&self) -> GrundySource {
        GrundySource::Table
    }

    fn grundy_size(&self, c: &Pos) -> u64 {
        c[0]
    }

    fn grundy_cost(&self, size: u64) -> Cost {
        let n = u128::from(size) + 1;
        Cost {
            bytes: n.saturating_mul(n + 1).saturating_mul(2),
            work: n.saturating_mul(n + 1) / 2,
        }
    }

    fn grundy_table(&self, size: u64, control: &Control<'_>) -> Result<Box<dyn Values>, Error> {
        let game = self.game(size);
        let values = game.table(control)?;
        Ok(Box::new(Table { game, values }))
    }
}

/// The special method's search on the k-fold take-away game
/// ([`PatternSource::Search`]): the losing starts from the general method's table, fitted
/// by a linear or an additive recurrence, played by the greedy representation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TakeAwaySearch {
    k: u64,
}

impl RuleSearch for TakeAwaySearch {
    fn default_up_to(&self) -> u64 {
        2000
    }

    fn cost(&self, up_to: u64) -> (&'static str, Cost) {
        let n = u128::from(up_to) + 1;
        let cost = Cost {
            work: n.saturating_mul(n) / 2,
            bytes: n.saturating_mul(8),
        };
        ("the general method's table", cost)
    }

    fn discover(&self, up_to: u64, control: &Control<'_>) -> Result<Discovery, Error> {
        Ok(discover_multiple(self.k, up_to, control)?.0)
    }
}

/// Discovers the rule of the k-fold take-away game from the general method's table to
/// `n` stones, and checks the rule's player on every position `(m, l)`, `m ≤ n`: it
/// calls exactly the positions lost that the table does, and its winning takes are
/// exactly the table's.
///
/// # Errors
/// [`Error::Cancelled`]; [`Error::Unsupported`] if the rule found disagrees with the
/// table somewhere (reported with the position).
fn discover_multiple(
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
                p_pairs: Vec::new(),
                rule: "no rule of the searched shapes fits".into(),
                proved: false,
                theorem: None,
                period: None,
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
            p_pairs: Vec::new(),
            rule: rule_text,
            proved,
            theorem: proved.then(|| theorem.to_string()),
            period: None,
            checked_up_to: n,
        },
        Some(rule),
    ))
}

fn build(args: &Args<'_>, k: Option<u64>) -> Result<Built, SpecError> {
    let name = args.name;
    let k = match k {
        Some(k) => {
            args.no_params()?;
            k
        }
        None => args.positive(args.one_param("multiple[2](20)")?, "k")?,
    };
    let position = match args.position() {
        None => None,
        Some(items) => {
            args.arity(items, &[1, 2], &format!("{name}(20) or {name}(20,5)"))?;
            let v = args.naturals(items, "a count")?;
            let n = v[0];
            let limit = match v.get(1) {
                Some(&l) if l > n => {
                    return Err(args.error_at(
                        items[1].at(),
                        format!("the limit {l} exceeds the {n} stones left"),
                    ))
                }
                Some(&l) => l,
                None => n.saturating_sub(1),
            };
            Some(Pos::from_slice(&[n, limit]))
        }
    };
    Ok(Built::new(TakeAway { k }, position))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[
    Entry {
        name: "multiple",
        examples: &["multiple[2](30)"],
        small: &["multiple[2](13)", "multiple[3](12,4)"],
        shape: "multiple[k](n) or multiple[k](n,limit): take 1..k·(last take); first move 1..n-1",
        build: |args| build(args, None),
        options: Options {
            template: "multiple[{k}]({n})",
            settings: &[
                Setting {
                    name: "k",
                    label: "take at most k times the last take",
                    values: Offered::Range(1, 4),
                    default: "2",
                },
                Setting {
                    name: "n",
                    label: "tokens",
                    values: Offered::Range(2, 40),
                    default: "20",
                },
            ],
        },
    },
    Entry {
        name: "fibonacci",
        examples: &[],
        small: &["fibonacci(11)"],
        shape: "fibonacci(n): Fibonacci Nim, multiple[2](n)",
        build: |args| build(args, Some(2)),
        options: Options {
            template: "fibonacci({n})",
            settings: &[Setting {
                name: "n",
                label: "tokens",
                values: Offered::Range(2, 40),
                default: "20",
            }],
        },
    },
];

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
    /// [`MAX_TERMS`](crate::sequence::recurrence::MAX_TERMS) terms (k near `up_to`).
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::solve;

    #[test]
    fn thresholds_agree_with_the_general_method() {
        for k in 1..=4 {
            let game = Multiple { k, max_stones: 40 };
            let t = game.thresholds(&Control::default()).unwrap();
            for m in 0..=40u64 {
                for l in 0..=m {
                    let s = solve(&game, &(m, l), &Control::default()).unwrap();
                    let won = s.root_value().outcome() == crate::game::Outcome::Win;
                    assert_eq!(won, l >= t[m as usize], "k {k} position ({m}, {l})");
                }
            }
        }
    }

    #[test]
    fn triangle_ranks_round_trip_and_match_the_moves() {
        let family = TakeAway { k: 2 };
        let root = Pos::from_slice(&[30, 29]);
        let ranked = family.ranking(&root).unwrap();
        for r in 0..ranked.size() {
            let pos = ranked.unrank(r);
            assert_eq!(ranked.rank(&pos), r);
            let mut by_rank = Vec::new();
            ranked.moves(r, &mut by_rank);
            let mut by_pos = Vec::new();
            family.moves(&pos, &mut by_pos);
            let want: Vec<u64> = by_pos.iter().map(|p| ranked.rank(p)).collect();
            assert_eq!(by_rank, want, "{pos:?}");
        }
    }

    #[test]
    fn seed_state_tree_for_4_3() {
        let game = Multiple {
            k: 2,
            max_stones: 4,
        };
        let mut out = Vec::new();
        game.moves(&(4, 3), &mut out);
        assert_eq!(out, vec![(3, 2), (2, 2), (1, 1)]);
        out.clear();
        game.moves(&(3, 2), &mut out);
        assert_eq!(out, vec![(2, 2), (1, 1)]);
        out.clear();
        game.moves(&(2, 2), &mut out);
        assert_eq!(out, vec![(1, 1), (0, 0)]);
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
