//! Heap games: Nim, bounded Nim, subtraction games and octal games. A position is a list
//! of heaps; a move changes one heap into zero, one or two heaps. Each heap is a component
//! of a sum; Grundy values come from a formula (Nim, bounded Nim) or from the sequence
//! engine, which the family points at through its finite [`Rules`](super::code::Rules).

use std::fmt;

use super::code::{Code, Rules};
use super::family::{
    Bound, Discovery, Drawing, GameRules, Grundy, GrundySource, Indexing, Kind, Look,
    PatternSource, Patterns, Picture, Pos, ProvedRule, Scores, Searching, Values,
};
use super::spec::{Args, Built, Entry, Offered, Options, Param, Setting, SpecError};
use crate::explore::Control;
use crate::impartial::mex;
use crate::Error;

/// Misère Nim's rule: [`crate::misere::nim_loses`] and its winning moves.
struct MisereNim;

impl ProvedRule for MisereNim {
    fn theorem(&self) -> String {
        "misère Nim (Bouton 1902): with every heap 0 or 1, the player to move loses iff the heaps of 1 are odd in number; otherwise iff the XOR of the heaps is 0"
            .into()
    }

    fn is_loss(&self, pos: &Pos) -> bool {
        crate::misere::nim_loses(pos)
    }

    fn winning_moves(&self, pos: &Pos) -> Vec<Pos> {
        crate::misere::nim_winning_moves(pos)
            .into_iter()
            .map(|(i, to)| {
                let mut next = pos.clone();
                next[i] = to;
                next
            })
            .collect()
    }
}

/// The rules of a heap game.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HeapFamily {
    /// Take any positive number from one heap. Grundy value: the heap.
    Nim,
    /// Take 1..=m from one heap. Grundy value: heap mod (m + 1).
    BoundedNim(u64),
    /// Take an amount in the set (sorted, distinct, positive) from one heap.
    Subtraction(Vec<u64>),
    /// An octal game.
    Octal(Code),
}

impl fmt::Display for HeapFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapFamily::Nim => f.write_str("nim"),
            HeapFamily::BoundedNim(m) => write!(f, "bounded-nim[{m}]"),
            HeapFamily::Subtraction(set) => write!(
                f,
                "subtraction[{}]",
                set.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            HeapFamily::Octal(code) => write!(f, "octal[{code}]"),
        }
    }
}

/// What a move leaves of one heap: up to two heaps (`0` = none).
pub type Leaves = (u64, u64);

impl HeapFamily {
    /// The Grundy value of a heap when a formula gives it (Nim, bounded Nim).
    #[must_use]
    pub fn closed_form(&self, heap: u64) -> Option<u64> {
        match self {
            HeapFamily::Nim => Some(heap),
            HeapFamily::BoundedNim(m) => {
                Some(m.checked_add(1).map_or(heap, |modulus| heap % modulus))
            }
            _ => None,
        }
    }

    /// Appends what each move from a heap of `heap` tokens leaves. Each distinct result
    /// once; splits as `(a, b)` with `a ≤ b`.
    ///
    /// # Panics
    /// If the moves do not fit in memory (a Nim heap of 10^9 has 10^9 moves; the memory
    /// is asked for first, so this is a panic, not an abort). Callers listing the moves of
    /// a heap of any size take [`HeapFamily::try_moves_up_to`], or check the count first.
    pub fn moves(&self, heap: u64, out: &mut Vec<Leaves>) {
        self.moves_up_to(heap, u64::MAX, out);
    }

    /// [`HeapFamily::moves`], but only the splits whose smaller heap is at most `small`.
    ///
    /// # Panics
    /// As [`HeapFamily::moves`].
    pub fn moves_up_to(&self, heap: u64, small: u64, out: &mut Vec<Leaves>) {
        if let Err(e) = self.try_moves_up_to(heap, small, out) {
            panic!("cannot list the moves of a heap of {heap}: {e}");
        }
    }

    /// [`HeapFamily::moves_up_to`], refused when the moves do not fit in memory.
    ///
    /// # Errors
    /// [`Error::TooLarge`] with the bytes the list would take.
    pub fn try_moves_up_to(
        &self,
        heap: u64,
        small: u64,
        out: &mut Vec<Leaves>,
    ) -> Result<(), Error> {
        let count = match self {
            HeapFamily::Octal(code) if small < heap => {
                (u128::from(code.max_removal()) + 1) * (u128::from(small) + 2)
            }
            _ => self.move_bound(heap),
        };
        let count = usize::try_from(count).map_err(|_| Error::TooLarge {
            what: format!("the moves of a heap of {heap}"),
            need: None,
        })?;
        crate::memory::reserve(out, count, "the moves of a heap")?;
        self.push_moves(heap, small, out);
        Ok(())
    }

    fn push_moves(&self, heap: u64, small: u64, out: &mut Vec<Leaves>) {
        match self {
            HeapFamily::Nim => out.extend((0..heap).rev().map(|h| (h, 0))),
            HeapFamily::BoundedNim(m) => {
                out.extend((1..=heap.min(*m)).map(|t| (heap - t, 0)));
            }
            HeapFamily::Subtraction(set) => {
                out.extend(
                    set.iter()
                        .take_while(|&&s| s <= heap)
                        .map(|&s| (heap - s, 0)),
                );
            }
            HeapFamily::Octal(code) => {
                for k in 0..=code.max_removal().min(heap) {
                    let d = code.digit(k);
                    let rest = heap - k;
                    if d & 1 != 0 && rest == 0 {
                        out.push((0, 0));
                    }
                    if d & 2 != 0 && rest >= 1 && k >= 1 {
                        out.push((rest, 0));
                    }
                    if d & 4 != 0 {
                        out.extend((1..=(rest / 2).min(small)).map(|a| (a, rest - a)));
                    }
                }
            }
        }
    }

    /// One move from a heap of `heap` tokens, without listing them all (huge Nim heaps):
    /// the first move [`HeapFamily::moves`] would list, or `None` if there is none.
    #[must_use]
    pub fn some_move(&self, heap: u64) -> Option<Leaves> {
        match self {
            HeapFamily::Nim | HeapFamily::BoundedNim(_) => heap.checked_sub(1).map(|h| (h, 0)),
            HeapFamily::Subtraction(set) => {
                set.first().filter(|&&s| s <= heap).map(|&s| (heap - s, 0))
            }
            HeapFamily::Octal(code) => (0..=code.max_removal().min(heap)).find_map(|k| {
                let d = code.digit(k);
                let rest = heap - k;
                if d & 1 != 0 && rest == 0 {
                    Some((0, 0))
                } else if d & 2 != 0 && rest >= 1 && k >= 1 {
                    Some((rest, 0))
                } else if d & 4 != 0 && rest >= 2 {
                    Some((1, rest - 1))
                } else {
                    None
                }
            }),
        }
    }

    /// Whether one move can turn a heap of `heap` tokens into heaps `a` and `b` (0 = no
    /// heap; in either order).
    #[must_use]
    pub fn is_leave(&self, heap: u64, a: u64, b: u64) -> bool {
        let (a, b) = if a == 0 { (b, 0) } else { (a, b) };
        let Some(removed) = heap.checked_sub(a).and_then(|r| r.checked_sub(b)) else {
            return false;
        };
        match self {
            HeapFamily::Nim => b == 0 && removed >= 1,
            HeapFamily::BoundedNim(m) => b == 0 && removed >= 1 && removed <= *m,
            HeapFamily::Subtraction(set) => b == 0 && set.binary_search(&removed).is_ok(),
            HeapFamily::Octal(code) => {
                let d = code.digit(removed);
                match (a, b) {
                    (0, _) => d & 1 != 0,
                    (_, 0) => d & 2 != 0 && removed >= 1,
                    _ => d & 4 != 0,
                }
            }
        }
    }

    /// An estimate of the work (elementary steps) to tabulate Grundy values to `heap`.
    #[must_use]
    pub fn table_work(&self, heap: u64) -> u128 {
        let n = u128::from(heap) + 1;
        match self {
            HeapFamily::Nim | HeapFamily::BoundedNim(_) => 0,
            HeapFamily::Subtraction(set) => n.saturating_mul(set.len() as u128),
            HeapFamily::Octal(code) => {
                let splitting = (0..=code.max_removal())
                    .filter(|&k| code.digit(k) & 4 != 0)
                    .count() as u128;
                (n.saturating_mul(n) / 4)
                    .saturating_mul(splitting)
                    .saturating_add(n.saturating_mul(u128::from(code.max_removal()) + 1))
            }
        }
    }

    /// Grundy values of heaps 0..=`up_to` by the mex of each heap's options.
    ///
    /// # Complexity
    /// Subtraction: O(n·|S|). Octal: O(n·t) for codes that never split, O(n²) otherwise.
    /// 4 bytes per heap.
    ///
    /// # Errors
    /// [`Error::Cancelled`] if stopped; [`Error::TooLarge`] if the table does not fit in
    /// memory.
    pub fn table(&self, up_to: u64, control: &Control<'_>) -> Result<Vec<u32>, Error> {
        let n = usize::try_from(up_to).map_err(|_| Error::Overflow)?;
        let mut g: Vec<u32> = Vec::new();
        crate::memory::reserve(&mut g, n.saturating_add(1), "a Grundy table")?;
        let mut seen = Vec::new();
        let mut leaves = Vec::new();
        for h in 0..=n {
            if h % 4096 == 0 {
                control.check()?;
                control.report("grundy table", h as u64);
            }
            leaves.clear();
            self.moves(h as u64, &mut leaves);
            let value = mex(
                leaves.iter().map(|&(a, b)| g[a as usize] ^ g[b as usize]),
                &mut seen,
            );
            g.push(value);
        }
        Ok(g)
    }
}

/// A heap game as a [`Family`](super::Family): the position is the list of heaps, as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Heaps(pub HeapFamily);

/// The most splits of one heap listed in full; past this, with a proved period, only the
/// splits whose smaller part lies within the pre-period and two periods.
pub const MAX_LISTED_SPLITS: u64 = 1 << 20;

impl HeapFamily {
    /// The finite rules of the family, for the sequence engine (bounded Nim with a
    /// small bound counts too); `None` for Nim.
    #[must_use]
    pub fn rules(&self) -> Option<Rules> {
        match self {
            HeapFamily::Octal(code) => Some(Rules::Code(code.clone())),
            HeapFamily::Subtraction(set) => Rules::subtraction(set).ok(),
            HeapFamily::BoundedNim(m) if *m <= 1 << 16 => {
                Rules::subtraction(&(1..=*m).collect::<Vec<_>>()).ok()
            }
            _ => None,
        }
    }

    /// An upper bound on the moves from one heap.
    fn move_bound(&self, h: u64) -> u128 {
        match self {
            HeapFamily::Nim => u128::from(h),
            HeapFamily::BoundedNim(m) => u128::from(h.min(*m)),
            HeapFamily::Subtraction(set) => set.len() as u128,
            HeapFamily::Octal(code) => {
                (u128::from(code.max_removal()) + 1) * (u128::from(h) / 2 + 2)
            }
        }
    }

    fn splits(&self) -> bool {
        matches!(self, HeapFamily::Octal(code) if code.digits().iter().any(|d| d & 4 != 0))
    }
}

/// The number of multisets of positive integers with sum at most `h` (saturating at
/// `u128::MAX` — reached near h = 400).
fn partitions_up_to(h: u64) -> u128 {
    if h > 400 {
        return u128::MAX;
    }
    let h = h as usize;
    let mut p = vec![0u128; h + 1];
    p[0] = 1;
    for part in 1..=h {
        for s in part..=h {
            p[s] = p[s].saturating_add(p[s - part]);
        }
    }
    p.iter().fold(0u128, |a, &b| a.saturating_add(b))
}

/// Multisets of `k` sizes from `0..=m`, C(m + k, k) (saturating).
fn multisets(m: u64, k: usize) -> u128 {
    let mut r: u128 = 1;
    for i in 1..=k as u128 {
        // r · (m + i) / i stays whole: r is C(m + i − 1, i − 1).
        match r.checked_mul(u128::from(m) + i) {
            Some(x) => r = x / i,
            None => return u128::MAX,
        }
    }
    r
}

/// `(a − b, b − a)` as multisets of sorted lists.
fn multiset_difference(a: &[u64], b: &[u64]) -> (Vec<u64>, Vec<u64>) {
    let (mut i, mut j) = (0, 0);
    let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x == y => {
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x < y => {
                only_a.push(*x);
                i += 1;
            }
            (Some(x), None) => {
                only_a.push(*x);
                i += 1;
            }
            (_, Some(y)) => {
                only_b.push(*y);
                j += 1;
            }
            (None, None) => unreachable!(),
        }
    }
    (only_a, only_b)
}

/// Heaps sorted, empty ones dropped.
fn sorted(pos: &Pos) -> Pos {
    let mut heaps: Pos = pos.iter().copied().filter(|&h| h > 0).collect();
    heaps.sort_unstable();
    heaps
}

/// `heaps` with heap `j` replaced by what a move leaves, `(a, b)` (0 = none).
fn replace(heaps: &Pos, j: usize, (a, b): Leaves) -> Pos {
    let mut next = Pos::with_capacity(heaps.len() + 1);
    next.extend_from_slice(&heaps[..j]);
    next.push(a);
    if b > 0 {
        next.push(b);
    }
    next.extend_from_slice(&heaps[j + 1..]);
    next
}

impl GameRules for Heaps {
    fn name(&self) -> String {
        self.0.to_string()
    }

    fn kind(&self) -> Kind {
        Kind::Impartial
    }

    fn write_position(&self, pos: &Pos, out: &mut String) {
        write_list(pos, out);
    }

    fn moves(&self, pos: &Pos, out: &mut Vec<Pos>) {
        let mut leaves = Vec::new();
        for (j, &h) in pos.iter().enumerate() {
            leaves.clear();
            self.0.moves(h, &mut leaves);
            // Asked for first: a panic with the figures if it cannot be had, not an abort.
            if let Err(e) = crate::memory::reserve(out, leaves.len(), "the moves of a heap") {
                panic!("cannot list the moves of heap {h}: {e}");
            }
            out.extend(leaves.iter().map(|&l| replace(pos, j, l)));
        }
    }

    fn canonical(&self, pos: &Pos) -> Pos {
        sorted(pos)
    }

    fn bound(&self, pos: &Pos) -> Bound {
        let positions = if self.0.splits() {
            pos.iter()
                .map(|&h| partitions_up_to(h))
                .fold(1u128, u128::saturating_mul)
        } else {
            // Heaps are kept sorted: a position is a multiset of sizes, at most
            // C(m + k, k) of them for k heaps up to the largest, m.
            let product = pos
                .iter()
                .map(|&h| u128::from(h) + 1)
                .fold(1u128, u128::saturating_mul);
            let largest = pos.iter().copied().max().unwrap_or(0);
            product.min(multisets(largest, pos.len()))
        };
        let moves = pos
            .iter()
            .map(|&h| self.0.move_bound(h))
            .fold(0u128, u128::saturating_add);
        Bound { positions, moves }
    }

    fn some_move(&self, pos: &Pos) -> Option<Pos> {
        pos.iter()
            .enumerate()
            .find_map(|(j, &h)| self.0.some_move(h).map(|l| replace(pos, j, l)))
    }

    fn is_move(&self, from: &Pos, to: &Pos) -> bool {
        // Exactly one heap of `from` is replaced by up to two heaps of `to`.
        let (removed, added) = multiset_difference(&sorted(from), &sorted(to));
        match (removed.as_slice(), added.as_slice()) {
            ([h], []) => self.0.is_leave(*h, 0, 0),
            ([h], [x]) => self.0.is_leave(*h, *x, 0),
            ([h], [x, y]) => self.0.is_leave(*h, *x, *y),
            _ => false,
        }
    }
}

/// The most tokens a heap is drawn with ([`heaps_picture`]): a larger heap is not drawn.
pub const MAX_DRAWN_HEAP: u64 = 24;
/// The most heaps a picture has.
pub const MAX_DRAWN_HEAPS: usize = 12;

/// Heaps as a [`Look::Heaps`] picture: a column a heap, `"o"` a token from the bottom up,
/// the last row each heap's size; `None` past [`MAX_DRAWN_HEAP`] tokens or
/// [`MAX_DRAWN_HEAPS`] heaps (the heap games, Fibonacci nim's heap, Wythoff's piles).
pub(crate) fn heaps_picture(heaps: &[u64]) -> Option<Picture> {
    let tallest = heaps.iter().copied().max().unwrap_or(0);
    if tallest > MAX_DRAWN_HEAP || heaps.len() > MAX_DRAWN_HEAPS {
        return None;
    }
    let rows = tallest as u32 + 1;
    let mut cells = Vec::with_capacity(rows as usize * heaps.len());
    for r in 0..rows - 1 {
        // Row r holds the tokens at height `tallest - r` (1 the lowest).
        let height = u64::from(tallest as u32 - r);
        cells.extend(
            heaps
                .iter()
                .map(|&h| if height <= h { "o" } else { "" }.to_string()),
        );
    }
    cells.extend(heaps.iter().map(ToString::to_string));
    Some(Picture::new(rows, heaps.len() as u32, cells, Look::Heaps))
}

/// The cell of [`heaps_picture`]`(heaps)` a person clicks to take `taken` tokens from
/// heap `j`: the lowest token taken, or the heap's size under it when nothing is taken
/// (a split alone). `None` when the heaps are not drawn.
pub(crate) fn heap_cell(heaps: &[u64], j: usize, taken: u64) -> Option<(u32, u32)> {
    let tallest = heaps.iter().copied().max().unwrap_or(0);
    let h = *heaps.get(j)?;
    if taken > h || tallest > MAX_DRAWN_HEAP || heaps.len() > MAX_DRAWN_HEAPS {
        return None;
    }
    if taken == 0 {
        return Some((tallest as u32, j as u32));
    }
    // The lowest token taken stands at height h - taken + 1, in row tallest - height.
    Some(((tallest - (h - taken + 1)) as u32, j as u32))
}

/// The heap of `from` a move to `to` changes and how many tokens it takes: by place when
/// `to` keeps the layout of `from` (as the moves are listed), else the first heap of the
/// size that went.
fn changed_heap(from: &Pos, to: &Pos) -> Option<(usize, u64, Vec<u64>)> {
    let (removed, added) = multiset_difference(&sorted(from), &sorted(to));
    let &h = removed.first()?;
    let left: u64 = added.iter().sum();
    let by_place = (0..from.len()).find(|&j| to.get(j) != Some(&from[j]));
    let j = match by_place {
        Some(j) if from[j] == h && (to.len() == from.len() || to.len() == from.len() + 1) => j,
        _ => from.iter().position(|&x| x == h).unwrap_or(0),
    };
    Some((j, h.saturating_sub(left), added))
}

impl Drawing for Heaps {
    fn move_name(&self, from: &Pos, to: &Pos) -> String {
        let Some((j, taken, added)) = changed_heap(from, to) else {
            return "no change".into();
        };
        let heap = if from.len() > 1 {
            format!(" from heap {}", j + 1)
        } else {
            String::new()
        };
        match added.as_slice() {
            [a, b] if taken == 0 => {
                format!("split{} into {a} and {b}", heap.replacen(" from", "", 1))
            }
            [a, b] => format!("take {taken}{heap}, leaving {a} and {b}"),
            _ => format!("take {taken}{heap}"),
        }
    }

    fn names_move(&self, from: &Pos, to: &Pos, text: &str) -> bool {
        let said = super::family::squash(text);
        let name = super::family::squash(&self.move_name(from, to));
        // "take 2 from heap 3" also as "take 2 from 3".
        said == name || said == name.replace("fromheap", "from")
    }

    fn picture(&self, pos: &Pos) -> Option<Picture> {
        heaps_picture(pos)
    }

    fn move_cell(&self, from: &Pos, to: &Pos) -> Option<(u32, u32)> {
        let (j, taken, _) = changed_heap(from, to)?;
        heap_cell(from, j, taken)
    }
}

impl Scores for Heaps {}

impl Indexing for Heaps {}

impl Searching for Heaps {}

impl Patterns for Heaps {
    fn member(&self, n: u64) -> Option<Pos> {
        Some(Pos::from_slice(&[n]))
    }

    /// Misère Nim's rule (Bouton), at any size.
    fn misere_rule(&self) -> Option<Box<dyn ProvedRule + '_>> {
        matches!(self.0, HeapFamily::Nim).then(|| Box::new(MisereNim) as Box<dyn ProvedRule>)
    }

    fn pattern(&self) -> PatternSource {
        match &self.0 {
            HeapFamily::Nim => PatternSource::Known(Discovery {
                family: "nim".into(),
                kind: "arithmetic-periodic",
                period: Some((1, 0, 1)),
                p_positions: vec![0],
                p_pairs: Vec::new(),
                rule: "G(n) = n; a sum is lost iff the XOR of its heaps is 0".into(),
                proved: true,
                theorem: Some("Bouton (1901)".into()),
                checked_up_to: u64::MAX,
            }),
            HeapFamily::BoundedNim(m) => {
                let modulus = m.saturating_add(1);
                PatternSource::Known(Discovery {
                    family: self.name(),
                    kind: "periodic",
                    period: Some((modulus, 0, 0)),
                    p_positions: (0..50u64).filter_map(|i| i.checked_mul(modulus)).collect(),
                    p_pairs: Vec::new(),
                    rule: format!("G(n) = n mod {modulus}"),
                    proved: true,
                    theorem: Some("induction on n: the options of n are n−1 … n−m".into()),
                    checked_up_to: u64::MAX,
                })
            }
            other => other
                .rules()
                .map_or(PatternSource::None, PatternSource::Period),
        }
    }

    fn features(&self, pos: &Pos) -> Vec<(String, u64)> {
        sorted(pos)
            .iter()
            .enumerate()
            .map(|(i, &h)| (format!("heap{}", i + 1), h))
            .collect()
    }
}

impl Grundy for Heaps {
    fn components(&self, pos: &Pos) -> Vec<Pos> {
        pos.iter().map(|&h| Pos::from_slice(&[h])).collect()
    }

    fn grundy(&self) -> GrundySource {
        match &self.0 {
            HeapFamily::Nim | HeapFamily::BoundedNim(_) => GrundySource::Formula,
            other => other
                .rules()
                .map_or(GrundySource::None, GrundySource::Heaps),
        }
    }

    fn grundy_formula(&self, component: &Pos) -> u64 {
        component
            .iter()
            .fold(0, |acc, &h| acc ^ self.0.closed_form(h).unwrap_or(0))
    }

    fn moves_to_value(
        &self,
        component: &Pos,
        target: u64,
        values: &dyn Values,
        out: &mut Vec<Pos>,
        truncated: &mut bool,
    ) {
        let h = component[0];
        match &self.0 {
            HeapFamily::Nim => {
                if target < h {
                    out.push(Pos::from_slice(&[target]));
                }
            }
            HeapFamily::BoundedNim(m) => {
                // take s with (h - s) mod (m + 1) = target, 1 ≤ s ≤ min(m, h)
                let modulus = u128::from(*m) + 1;
                let (h, t) = (u128::from(h), u128::from(target));
                if t < modulus {
                    let s = (h % modulus + modulus - t) % modulus;
                    if s >= 1 && s <= h && s <= u128::from(*m) {
                        out.push(Pos::from_slice(&[(h - s) as u64]));
                    }
                }
            }
            family => {
                // All splits of a huge heap cannot be listed; with a proved period,
                // splits whose smaller part is past one period from the pre-period
                // repeat those before, so the smaller part is bounded and the list is
                // marked incomplete.
                let small = match values.period() {
                    Some(period) if h > MAX_LISTED_SPLITS => {
                        *truncated = true;
                        period.preperiod + 2 * period.period
                    }
                    _ => u64::MAX,
                };
                let mut leaves = Vec::new();
                family.moves_up_to(h, small, &mut leaves);
                let value = |x: u64| {
                    if x == 0 {
                        0
                    } else {
                        values.value(&Pos::from_slice(&[x]))
                    }
                };
                for (a, b) in leaves {
                    if value(a) ^ value(b) == target {
                        out.push(replace(component, 0, (a, b)));
                    }
                }
            }
        }
    }
}

/// `3,3,1`.
pub(crate) fn write_list<T: fmt::Display>(items: &[T], out: &mut String) {
    use std::fmt::Write;
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{x}");
    }
}

fn heaps_of(args: &Args<'_>, family: HeapFamily) -> Result<Built, SpecError> {
    let position = args.position_naturals("a heap")?;
    Ok(Built::new(Heaps(family), position))
}

fn build_nim(args: &Args<'_>) -> Result<Built, SpecError> {
    args.no_params()?;
    heaps_of(args, HeapFamily::Nim)
}

fn build_bounded(args: &Args<'_>) -> Result<Built, SpecError> {
    let m = args.positive(args.one_param("bounded-nim[3](10)")?, "m")?;
    heaps_of(args, HeapFamily::BoundedNim(m))
}

fn build_subtraction(args: &Args<'_>) -> Result<Built, SpecError> {
    let items = args
        .some_params("subtraction[1,2,3](10)")
        .map_err(|e| SpecError {
            message: e.message.replace("needs parameters", "needs its set"),
            ..e
        })?;
    let mut set = Vec::new();
    for item in items {
        set.push(args.positive(item, "an amount to subtract")?);
    }
    set.sort_unstable();
    set.dedup();
    heaps_of(args, HeapFamily::Subtraction(set))
}

fn build_octal(args: &Args<'_>) -> Result<Built, SpecError> {
    let param = args.one_param("octal[0.77](10)")?;
    let text = match param {
        Param::Code { text, .. } => text.clone(),
        Param::Number(n) => n.value.to_string(),
        other => return Err(args.error_at(other.at(), "expected an octal code such as 0.77")),
    };
    let code = parse_octal(&text).map_err(|message| args.error_at(param.at(), message))?;
    heaps_of(args, HeapFamily::Octal(code))
}

/// An octal code as a spec writes it: digits 0–7 only (hexadecimal codes are computed by
/// the sequence engine but not played here).
fn parse_octal(text: &str) -> Result<Code, String> {
    if !text.contains('.') {
        return Err(format!(
            "expected an octal code such as 0.77, found `{text}`"
        ));
    }
    if let Some(c) = text
        .split_once('.')
        .map(|(_, frac)| frac)
        .unwrap_or("")
        .chars()
        .find(|c| c.to_digit(8).is_none() && *c != '_')
    {
        return Err(format!("octal digits are 0 to 7, found `{c}` in `{text}`"));
    }
    let code: Code = text.parse().map_err(|e: super::code::CodeError| {
        if e.message.contains("no move") {
            format!("the code `{text}` allows no move")
        } else if e.message.contains("before the point") {
            format!(
                "the digit before the point must be 0 or 4 (4: split without removing), found `{}`",
                text.split('.').next().unwrap_or("")
            )
        } else {
            e.message
        }
    })?;
    if !code.is_octal() || code.digit(0) & 8 != 0 {
        return Err(format!("`{text}` is not an octal code (digits 0 to 7)"));
    }
    Ok(code)
}

fn build_alias(args: &Args<'_>, code: &str) -> Result<Built, SpecError> {
    args.no_params()?;
    heaps_of(args, HeapFamily::Octal(code.parse().expect("a valid code")))
}

/// The registry entries of this file.
pub const ENTRIES: &[Entry] = &[
    Entry {
        name: "nim",
        examples: &["nim(3,4,5)", "nim(10^18,12345,7)"],
        small: &["nim(3,2,2)"],
        shape: "nim(h1,h2,…): take any number from one heap",
        build: build_nim,
        options: Options {
            template: "nim({heaps})",
            settings: &[Setting {
                name: "heaps",
                label: "heaps",
                values: Offered::List(&[
                    ("3,4,5", ""),
                    ("1,2,3", ""),
                    ("2,5,7,9", ""),
                    ("10,20,30", ""),
                    ("7", ""),
                ]),
                default: "3,4,5",
            }],
        },
    },
    Entry {
        name: "bounded-nim",
        examples: &["bounded-nim[3](10)"],
        small: &["bounded-nim[3](7,4)"],
        shape: "bounded-nim[m](h1,…): take 1..m from one heap",
        build: build_bounded,
        options: Options {
            template: "bounded-nim[{most}]({heap})",
            settings: &[
                Setting {
                    name: "most",
                    label: "take at most",
                    values: Offered::Range(1, 9),
                    default: "3",
                },
                Setting::range("heap", 1, 40, "12"),
            ],
        },
    },
    Entry {
        name: "subtraction",
        examples: &["subtraction[1,3,4](20)"],
        small: &["subtraction[1,3,4](12,5)"],
        shape: "subtraction[s1,s2,…](h1,…): take an amount in the set from one heap",
        build: build_subtraction,
        options: Options {
            template: "subtraction[{set}]({heap})",
            settings: &[
                Setting {
                    name: "set",
                    label: "amounts to take",
                    values: Offered::List(&[
                        ("1,2", ""),
                        ("1,3,4", ""),
                        ("2,5,7", ""),
                        ("1,4,9", ""),
                        ("3,5,8", ""),
                    ]),
                    default: "1,3,4",
                },
                Setting::range("heap", 1, 40, "12"),
            ],
        },
    },
    Entry {
        name: "octal",
        examples: &["octal[0.77](20)"],
        small: &["octal[0.77](9)", "octal[4.07](7)"],
        shape: "octal[0.d1d2…](h1,…): octal game by its code (0.77 Kayles, 0.07 Dawson's Kayles)",
        build: build_octal,
        options: Options {
            template: "octal[{code}]({heap})",
            settings: &[
                Setting {
                    name: "code",
                    label: "code",
                    values: Offered::List(&[
                        ("0.77", "Kayles"),
                        ("0.07", "Dawson's Kayles"),
                        ("0.137", "Dawson's chess"),
                        ("4.07", ""),
                        ("0.6", ""),
                    ]),
                    default: "0.77",
                },
                Setting::range("heap", 1, 40, "12"),
            ],
        },
    },
    Entry {
        name: "kayles",
        examples: &[],
        small: &["kayles(7)"],
        shape: "kayles(h1,…): octal[0.77]",
        build: |args| build_alias(args, "0.77"),
        options: Options {
            template: "kayles({heap})",
            settings: &[Setting::range("heap", 1, 40, "12")],
        },
    },
    Entry {
        name: "dawson",
        examples: &["dawson(14)"],
        small: &["dawson(9)"],
        shape: "dawson(h1,…): Dawson's Kayles, octal[0.07]",
        build: |args| build_alias(args, "0.07"),
        options: Options {
            template: "dawson({heap})",
            settings: &[Setting::range("heap", 1, 40, "12")],
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// A move's cell and its name.
    type Clicked = ((u32, u32), String);

    /// Every move of `spec` (one part) with a cell is clicked at a token of its heap, the
    /// lowest one it takes; returns the moves by cell.
    fn clicked(spec: &str) -> (Picture, Vec<Clicked>) {
        let spec: crate::games::Spec = spec.parse().unwrap();
        let part = spec.single().unwrap();
        let picture = part.family.picture(&part.position).expect("drawn");
        let mut children = Vec::new();
        part.family.moves(&part.position, &mut children);
        let mut out = Vec::new();
        for child in &children {
            let name = part.family.move_name(&part.position, child);
            let (r, c) = part
                .family
                .move_cell(&part.position, child)
                .expect("a cell");
            let at = (r * picture.columns + c) as usize;
            if name.starts_with("split") {
                assert_eq!(r, picture.rows - 1, "{name}: at the heap's size");
            } else {
                assert_eq!(picture.cells[at], "o", "{name}: a token");
            }
            out.push(((r, c), name));
        }
        (picture, out)
    }

    #[test]
    fn heaps_are_drawn_as_stacks_and_a_move_is_clicked_at_its_lowest_token() {
        let (picture, moves) = clicked("nim(3,1)");
        assert_eq!(
            (picture.rows, picture.columns, picture.look),
            (4, 2, Look::Heaps)
        );
        assert_eq!(picture.cells, ["o", "", "o", "", "o", "o", "3", "1"]);
        // Take 3 from heap 1: its lowest token; take 1: its top one.
        assert!(moves.contains(&((2, 0), "take 3 from heap 1".into())));
        assert!(moves.contains(&((0, 0), "take 1 from heap 1".into())));
        assert!(moves.contains(&((2, 1), "take 1 from heap 2".into())));
        assert_eq!(moves.len(), 4);
        // Kayles: a take and the same take leaving two rows share their cell.
        let (_, moves) = clicked("kayles(4)");
        let top: Vec<_> = moves.iter().filter(|(at, _)| *at == (0, 0)).collect();
        assert_eq!(top.len(), 2, "{moves:?}");
        // Too tall or too many heaps: not drawn.
        let tall: crate::games::Spec = "nim(25)".parse().unwrap();
        let part = tall.single().unwrap();
        assert_eq!(part.family.picture(&part.position), None);
        assert!(heaps_picture(&[1; MAX_DRAWN_HEAPS + 1]).is_none());
        // A split that takes nothing is clicked at the heap's size.
        let (_, moves) = clicked("octal[4.07](2,3)");
        assert!(
            moves.contains(&((3, 1), "split heap 2 into 1 and 2".into())),
            "{moves:?}"
        );
        // Fibonacci nim's heap and Wythoff's piles too; a take from both at pile 1.
        let (picture, moves) = clicked("multiple[2](5)");
        assert_eq!((picture.rows, picture.columns), (6, 1));
        assert_eq!(moves.len(), 4);
        let (_, moves) = clicked("wythoff(2,3)");
        assert!(moves.contains(&((1, 0), "take 1 from both".into())));
        assert!(moves.contains(&((1, 0), "take 1 from pile 1".into())));
        assert_eq!(moves.len(), 7);
    }

    #[test]
    fn kayles_moves() {
        let kayles = HeapFamily::Octal("0.77".parse().unwrap());
        let mut out = Vec::new();
        kayles.moves(4, &mut out);
        out.sort_unstable();
        // remove 1: 3, (1,2); remove 2: 2, (1,1)
        assert_eq!(out, vec![(1, 1), (1, 2), (2, 0), (3, 0)]);
    }

    /// The bound is an upper bound on the canonical positions reached (counted here by
    /// a plain search), and for heaps of one size in nim it is the count itself.
    #[test]
    fn bounds_hold_the_positions_reached() {
        use std::collections::HashSet;
        for (family, start, exact) in [
            (HeapFamily::Nim, vec![4, 4, 4], true),
            (HeapFamily::Nim, vec![5, 2, 7, 1], false),
            (HeapFamily::BoundedNim(2), vec![6, 6], false),
            (HeapFamily::Subtraction(vec![2, 3]), vec![9, 4, 4], false),
            (
                HeapFamily::Octal("0.77".parse().unwrap()),
                vec![7, 3],
                false,
            ),
        ] {
            let heaps = Heaps(family);
            let root = Pos::from_slice(&start);
            let mut seen = HashSet::from([heaps.canonical(&root)]);
            let mut todo = vec![root.clone()];
            let mut children = Vec::new();
            while let Some(p) = todo.pop() {
                children.clear();
                heaps.moves(&p, &mut children);
                for c in children.drain(..) {
                    if seen.insert(heaps.canonical(&c)) {
                        todo.push(c);
                    }
                }
            }
            let bound = heaps.bound(&root).positions;
            assert!(
                seen.len() as u128 <= bound,
                "{start:?}: {} > {bound}",
                seen.len()
            );
            if exact {
                assert_eq!(seen.len() as u128, bound, "{start:?}");
            }
        }
        assert_eq!(multisets(30, 4), 46_376);
        assert_eq!(multisets(u64::MAX, 3), u128::MAX);
    }
}
