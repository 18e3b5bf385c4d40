//! The rare-value (sparse-space) method for octal codes: Grundy values of heaps one after
//! another, in time proportional to the number of *rare* heaps rather than to the heap.
//!
//! # The method
//!
//! Split the moves that leave two heaps by the parity π of the number `k` they remove.
//! For each parity class pick a linear functional of the value and the heap's parity,
//! φ(a) = parity(G(a) & mask) ⊕ σ·((a + π) mod 2), and call heap `a` *common* if φ(a) = 1
//! and *rare* otherwise. If both parts `a`, `b` of a split of `n − k` are common, the
//! option's value `v = G(a) ⊕ G(b)` has parity(v & mask) = σ·((n + π) mod 2): a fixed
//! class. So a value of the other class — a *safe* value — can only come from an option
//! with a rare part, from taking tokens, or from removing a whole heap. Hence:
//!
//! 1. mark the values of the take moves and of every split with a rare part
//!    (|rare| per split digit);
//! 2. the *candidate* is the least unmarked value that is safe for every class;
//! 3. the unmarked unsafe values below it are looked for among all splits of the classes
//!    where they are unsafe, stopping as soon as all are found (usually after a few
//!    splits); the least one not found, if any, is the value, else the candidate.
//!
//! Any functional gives the right values (Beling's observation); a good one makes rare
//! heaps rare. The functional is chosen to minimise the number of rare heaps from the
//! histogram of (value, heap parity) by a Walsh–Hadamard transform (as in T. Czajka's
//! `analyze`), re-chosen when a new rare heap or a new value bit appears, and the list of
//! rare heaps is rebuilt only when the new choice is clearly better.
//!
//! Sources: Berlekamp, Conway, Guy, *Winning Ways*, ch. 4 "Sparse space spells speed";
//! A. Gangolli, T. Plambeck, "A note on periodicity in some octal games", IJGT 18 (1989);
//! A. Flammenkamp, "Sparse- and common-positions of Sprague–Grundy values of octal games"
//! (the heap-parity variant); P. Beling's `ogs` (one rare/common split per parity class).
//!
//! # Complexity
//! Per heap O(t + Σ_classes |rare| · |split digits of the class| + witness search); a heap
//! whose value is not safe costs a full O(n) scan. Memory: one value (u8 or u16) per heap
//! plus the rare lists.

use std::ops::BitXor;

use crate::games::code::Code;

/// A Grundy value stored in one or two bytes.
pub(crate) trait Nimber:
    Copy + Default + Eq + Ord + Into<u64> + BitXor<Output = Self> + Send + Sync + 'static
{
    /// Bits of the type.
    const BITS: u32;
    fn idx(self) -> usize;
    /// `v` must fit.
    fn from_idx(v: usize) -> Self;
}

/// The two widths, one rule: the value as an index, and back.
macro_rules! nimber {
    ($($t:ty),*) => {$(
        impl Nimber for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn idx(self) -> usize {
                self as usize
            }
            #[inline]
            fn from_idx(v: usize) -> $t {
                debug_assert!(v <= <$t>::MAX as usize);
                v as $t
            }
        }
    )*};
}

nimber!(u8, u16);

/// Work counters of the rare-value method, for benchmarks and tuning.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SparseStats {
    /// Heaps computed by the method.
    pub heaps: u64,
    /// Options with a rare part looked at.
    pub rare_options: u64,
    /// Heaps that needed a witness search for unsafe values below the candidate.
    pub searches: u64,
    /// Splits looked at in witness searches.
    pub search_options: u64,
    /// Comparisons of those splits with the values still pending (each split against
    /// each pending value): what a witness search costs.
    pub search_comparisons: u64,
    /// Witness searches that ran to the end (the value was not safe: a rare heap).
    pub full_searches: u64,
    /// Times the functional was re-chosen, and times the rare list was rebuilt.
    pub selections: u64,
    /// Times a rare list was rebuilt for a new functional.
    pub rebuilds: u64,
}

/// One parity class of split moves and its rare/common functional.
#[derive(Debug, Clone)]
struct Class<V> {
    parity: usize,
    /// Split removals `k ≡ parity (mod 2)`, ascending.
    ks: Vec<usize>,
    mask: usize,
    sigma: bool,
    /// Rare heaps (≥ 1), ascending, and their values.
    rare_pos: Vec<usize>,
    rare_val: Vec<V>,
}

impl<V: Nimber> Class<V> {
    #[inline]
    fn is_rare(&self, value: usize, heap: usize) -> bool {
        let lhs = (value & self.mask).count_ones() & 1 == 1;
        let rhs = self.sigma && (heap + self.parity) & 1 == 1;
        lhs == rhs
    }
}

/// Marks with `e` the value of every split `(r, n − k − r)` with `r` rare and `k` in
/// `ks` (ascending). Returns the number of splits marked.
#[inline(never)]
fn mark_rare<V: Nimber>(
    g: &[V],
    n: usize,
    pos: &[usize],
    val: &[V],
    ks: &[usize],
    marks: &mut [u32],
    e: u32,
) -> u64 {
    let top = marks.len() - 1;
    let Some(full) = full_rare(n, pos, ks) else {
        return 0;
    };
    let (pos_full, val_full) = (&pos[..full], &val[..full]);
    match *ks {
        _ if full == 0 => {}
        [k] => {
            let m = n - k;
            let head = &g[..m];
            for (&r, &x) in pos_full.iter().zip(val_full) {
                marks[(x ^ head[m - r]).idx() & top] = e;
            }
        }
        [k1, k2] => {
            let (m1, m2) = (n - k1, n - k2);
            let head = &g[..m1];
            for (&r, &x) in pos_full.iter().zip(val_full) {
                marks[(x ^ head[m1 - r]).idx() & top] = e;
                marks[(x ^ head[m2 - r]).idx() & top] = e;
            }
        }
        _ => {
            for (&r, &x) in pos_full.iter().zip(val_full) {
                for &k in ks {
                    marks[(x ^ g[n - k - r]).idx() & top] = e;
                }
            }
        }
    }
    let tail = split_tail(g, n, &pos[full..], &val[full..], ks, |v| {
        marks[v.idx() & top] = e;
    });
    (full * ks.len()) as u64 + tail
}

/// How many of the rare heaps `pos` (ascending) leave a non-empty second part for every
/// `k` of `ks` (ascending): those below `n − kmax`; `None` when no split of `n` leaves two
/// parts.
#[inline(always)]
fn full_rare(n: usize, pos: &[usize], ks: &[usize]) -> Option<usize> {
    let (&kmin, &kmax) = (ks.first()?, ks.last()?);
    if n < kmin + 2 {
        return None;
    }
    let bound = n.saturating_sub(kmax);
    Some(match pos.last() {
        Some(&last) if last < bound => pos.len(),
        _ => pos.partition_point(|&r| r < bound),
    })
}

/// The splits of the rare heaps past [`full_rare`]'s, which only some `k` leave in two
/// parts: `mark` is called with each split's value; returns how many there were.
#[inline(always)]
fn split_tail<V: Nimber>(
    g: &[V],
    n: usize,
    pos: &[usize],
    val: &[V],
    ks: &[usize],
    mut mark: impl FnMut(V),
) -> u64 {
    let mut count = 0;
    for (&r, &x) in pos.iter().zip(val) {
        if r + ks[0] >= n {
            break;
        }
        for &k in ks {
            if r + k < n {
                mark(x ^ g[n - k - r]);
                count += 1;
            }
        }
    }
    count
}

/// [`mark_rare`] for values below 64: the marks stay in a register bitmap (no store per
/// split); returns the bitmap and the number of splits.
#[inline(never)]
fn mark_rare_bits<V: Nimber>(
    g: &[V],
    n: usize,
    pos: &[usize],
    val: &[V],
    ks: &[usize],
) -> (u64, u64) {
    let Some(full) = full_rare(n, pos, ks) else {
        return (0, 0);
    };
    let bit = |v: V| 1u64 << (v.idx() & 63);
    let (mut acc0, mut acc1) = (0u64, 0u64);
    for &k in ks {
        if full == 0 {
            break;
        }
        let m = n - k;
        let head = &g[..m];
        let mut pairs = pos[..full].chunks_exact(2).zip(val[..full].chunks_exact(2));
        for (r, x) in &mut pairs {
            acc0 |= bit(x[0] ^ head[m - r[0]]);
            acc1 |= bit(x[1] ^ head[m - r[1]]);
        }
        if full % 2 == 1 {
            acc0 |= bit(val[full - 1] ^ head[m - pos[full - 1]]);
        }
    }
    let tail = split_tail(g, n, &pos[full..], &val[full..], ks, |v| acc0 |= bit(v));
    (acc0 | acc1, (full * ks.len()) as u64 + tail)
}

/// Pairs looked at per block of a witness search.
const BLOCK: usize = 64;

/// Looks through the splits `(a, m − a)`, `a = 1, 2, …`, of every `m` in `ms` a block at
/// a time for the values in `pend`, removing each one found; stops when `pend` is empty
/// or the splits run out. Returns the number of splits looked at, and of comparisons
/// with pending values.
///
/// Per block the 64 split values go to a buffer and each value still pending is compared
/// with all 64 of them by a reduction the compiler vectorises: a few vector instructions
/// per pending value and block, no store per split and no branch per split.
#[inline(never)]
fn witness_search<V: Nimber>(g: &[V], ms: &[usize], pend: &mut Vec<V>) -> (u64, u64) {
    let half = ms.iter().copied().max().unwrap_or(0) / 2;
    let mut steps = 0u64;
    let mut comparisons = 0u64;
    let mut a = 1;
    let mut xs = [V::default(); BLOCK];
    while a <= half && !pend.is_empty() {
        for &m in ms {
            if 2 * a > m {
                continue;
            }
            let count = BLOCK.min(m / 2 + 1 - a);
            comparisons += (count * pend.len()) as u64;
            let low = &g[a..a + count];
            let high = &g[m + 1 - a - count..m + 1 - a];
            if count == BLOCK {
                let (low, high): (&[V; BLOCK], &[V; BLOCK]) = (
                    low.try_into().unwrap_or_else(|_| unreachable!()),
                    high.try_into().unwrap_or_else(|_| unreachable!()),
                );
                for i in 0..BLOCK {
                    xs[i] = low[i] ^ high[BLOCK - 1 - i];
                }
                pend.retain(|&v| !xs.iter().fold(false, |hit, &x| hit | (x == v)));
            } else {
                for (x, (&l, &h)) in xs.iter_mut().zip(low.iter().zip(high.iter().rev())) {
                    *x = l ^ h;
                }
                let xs = &xs[..count];
                pend.retain(|&v| !xs.iter().fold(false, |hit, &x| hit | (x == v)));
            }
            steps += count as u64;
            if pend.is_empty() {
                break;
            }
        }
        a += BLOCK;
    }
    (steps, comparisons)
}

/// What stopped [`Sparse::step`]: a value that does not fit the storage type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NeedsWider;

/// The rare-value engine on values of type `V`.
#[derive(Debug, Clone)]
pub(crate) struct Sparse<V> {
    pub(crate) g: Vec<V>,
    t: usize,
    /// `whole[k]`: a heap of exactly `k` may be removed.
    whole: Vec<bool>,
    takes: Vec<usize>,
    classes: Vec<Class<V>>,
    /// Both classes have the same functional with σ = 0, hence the same rare heaps.
    merged: bool,
    /// Every split removal, ascending.
    all_ks: Vec<usize>,
    /// Heaps ≥ 1 by `(value << 1) | parity`.
    counts: Vec<u64>,
    /// Every value so far is below `1 << bits`.
    bits: u32,
    /// `unsafe_for[n & 1][v]`: bit i set if value v is unsafe for class i at a heap of
    /// that parity; entry `1 << bits` is always safe (no option reaches it).
    unsafe_for: [Vec<u8>; 2],
    stamp: Vec<u32>,
    epoch: u32,
    pend: Vec<V>,
    ms: Vec<usize>,
    rare_since_select: u64,
    next_select: usize,
    pub(crate) stats: SparseStats,
}

impl<V: Nimber> Sparse<V> {
    /// The steps taken so far: each heap's takes, the splits with a rare part, the
    /// witness searches' comparisons.
    pub(crate) fn work(&self) -> u64 {
        let s = &self.stats;
        s.heaps
            .saturating_mul(self.takes.len() as u64 + 1)
            .saturating_add(s.rare_options)
            .saturating_add(s.search_options)
            .saturating_add(s.search_comparisons)
    }

    /// A new engine for an octal code (no three-heap splits).
    pub(crate) fn new(code: &Code) -> Sparse<V> {
        debug_assert!(code.is_octal());
        let t = code.max_removal() as usize;
        let whole = (0..=t).map(|k| code.digits()[k] & 1 != 0).collect();
        let takes = code.removals(2).filter(|&k| k >= 1).collect();
        let classes = (0..2)
            .map(|parity| Class {
                parity,
                ks: code.removals(4).filter(|k| k & 1 == parity).collect(),
                mask: 0,
                sigma: false,
                rare_pos: Vec::new(),
                rare_val: Vec::new(),
            })
            .filter(|c| !c.ks.is_empty())
            .collect();
        let domain = (1usize << V::BITS) + 1;
        let mut engine = Sparse {
            g: Vec::new(),
            t,
            whole,
            takes,
            classes,
            merged: false,
            all_ks: code.removals(4).collect(),
            counts: vec![0; 4],
            bits: 1,
            unsafe_for: [Vec::new(), Vec::new()],
            stamp: vec![0; domain],
            epoch: 0,
            pend: Vec::new(),
            ms: Vec::new(),
            rare_since_select: 0,
            next_select: 16,
            stats: SparseStats::default(),
        };
        engine.refresh_tables();
        engine
    }

    /// The same engine on wider values.
    pub(crate) fn widen<W: Nimber>(self) -> Sparse<W> {
        let conv = |v: V| W::from_idx(v.idx());
        let domain = (1usize << W::BITS) + 1;
        let mut g = Vec::with_capacity(self.g.capacity());
        g.extend(self.g.into_iter().map(conv));
        Sparse {
            g,
            t: self.t,
            whole: self.whole,
            takes: self.takes,
            classes: self
                .classes
                .into_iter()
                .map(|c| Class {
                    parity: c.parity,
                    ks: c.ks,
                    mask: c.mask,
                    sigma: c.sigma,
                    rare_pos: c.rare_pos,
                    rare_val: c.rare_val.into_iter().map(conv).collect(),
                })
                .collect(),
            merged: self.merged,
            all_ks: self.all_ks,
            counts: self.counts,
            bits: self.bits,
            unsafe_for: self.unsafe_for,
            stamp: vec![0; domain],
            epoch: 0,
            pend: Vec::new(),
            ms: self.ms,
            rare_since_select: self.rare_since_select,
            next_select: self.next_select,
            stats: self.stats,
        }
    }

    fn refresh_tables(&mut self) {
        self.merged =
            matches!(&self.classes[..], [a, b] if a.mask == b.mask && !a.sigma && !b.sigma);
        let size = (1usize << self.bits) + 1;
        for parity in 0..2 {
            let table = &mut self.unsafe_for[parity];
            table.clear();
            table.extend((0..size).map(|v| {
                if v == size - 1 {
                    return 0;
                }
                self.classes
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.is_rare(v, parity))
                    .fold(0u8, |acc, (i, _)| acc | (1 << i))
            }));
        }
    }

    /// Computes the value of the next heap.
    ///
    /// # Errors
    /// [`NeedsWider`] if the value does not fit `V` (nothing is changed).
    pub(crate) fn step(&mut self) -> Result<(), NeedsWider> {
        let n = self.g.len();
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
        let e = self.epoch;
        // Plain slices in locals: the compiler then keeps pointers and lengths in
        // registers, and `v & top` below a constant-length slice needs no bounds check.
        let top = (1usize << V::BITS) - 1;
        let g: &[V] = &self.g;
        let stamp: &mut [u32] = &mut self.stamp[..=top + 1];
        if n <= self.t && self.whole[n] {
            stamp[0] = e;
        }
        for &k in &self.takes {
            if k >= n {
                break;
            }
            stamp[g[n - k].idx()] = e;
        }
        let mut rare_options = 0u64;
        {
            let marks: &mut [u32] = &mut stamp[..=top];
            // Same functional for both parities: one pass over the rare heaps.
            let groups: &[Class<V>] = if self.merged {
                &self.classes[..1]
            } else {
                &self.classes
            };
            for c in groups {
                let ks = if self.merged { &self.all_ks } else { &c.ks };
                if self.bits <= 6 {
                    let (mut hit, count) = mark_rare_bits(g, n, &c.rare_pos, &c.rare_val, ks);
                    rare_options += count;
                    while hit != 0 {
                        marks[hit.trailing_zeros() as usize] = e;
                        hit &= hit - 1;
                    }
                } else {
                    rare_options += mark_rare(g, n, &c.rare_pos, &c.rare_val, ks, marks, e);
                }
            }
        }
        self.stats.rare_options += rare_options;
        // The candidate: the least unmarked value safe for every class.
        let table: &[u8] = &self.unsafe_for[n & 1];
        let pend = &mut self.pend;
        pend.clear();
        let mut need = 0u8;
        let mut candidate = 0;
        loop {
            if stamp[candidate] != e {
                let u = table[candidate];
                if u == 0 {
                    break;
                }
                pend.push(V::from_idx(candidate));
                need |= u;
            }
            candidate += 1;
        }
        let mut value = candidate;
        if !pend.is_empty() {
            self.stats.searches += 1;
            let ms = &mut self.ms;
            ms.clear();
            for (i, class) in self.classes.iter().enumerate() {
                if need & (1 << i) != 0 {
                    ms.extend(class.ks.iter().filter(|&&k| n >= k + 2).map(|&k| n - k));
                }
            }
            let (steps, comparisons) = witness_search(g, ms, pend);
            self.stats.search_options += steps;
            self.stats.search_comparisons += comparisons;
            if let Some(&least) = pend.first() {
                self.stats.full_searches += 1;
                value = least.idx();
            }
        }
        if value >= 1 << V::BITS {
            return Err(NeedsWider);
        }
        self.record(n, value);
        Ok(())
    }

    fn record(&mut self, n: usize, value: usize) {
        self.g.push(V::from_idx(value));
        self.stats.heaps += 1;
        let mut reselect = false;
        if value >= 1 << self.bits {
            while value >= 1 << self.bits {
                self.bits += 1;
            }
            self.counts.resize(2 << self.bits, 0);
            reselect = true;
        }
        if n == 0 {
            return;
        }
        self.counts[(value << 1) | (n & 1)] += 1;
        let x = V::from_idx(value);
        for class in &mut self.classes {
            if class.is_rare(value, n) {
                class.rare_pos.push(n);
                class.rare_val.push(x);
                self.rare_since_select += 1;
            }
        }
        let size = 2usize << self.bits;
        if self.rare_since_select > 0 && self.rare_since_select * 256 >= size as u64 {
            reselect = true;
        }
        if n >= self.next_select {
            self.next_select = n.saturating_mul(2);
            reselect = true;
        }
        if reselect {
            self.select();
        }
    }

    /// Re-chooses each class's functional from the histogram (Walsh–Hadamard transform:
    /// `h[y] = Σ_x counts[x]·(−1)^parity(x & y)`, so the number of heaps with
    /// parity(x & y) = c is `(N ± h[y]) / 2`).
    fn select(&mut self) {
        self.rare_since_select = 0;
        self.stats.selections += 1;
        if self.classes.is_empty() {
            self.refresh_tables();
            return;
        }
        let size = 2usize << self.bits;
        let mut h: Vec<i64> = self.counts[..size].iter().map(|&c| c as i64).collect();
        let mut len = 1;
        while len < size {
            for block in h.chunks_exact_mut(2 * len) {
                let (lo, hi) = block.split_at_mut(len);
                for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                    let (x, y) = (*a, *b);
                    *a = x + y;
                    *b = x - y;
                }
            }
            len *= 2;
        }
        let total = h[0];
        let n = self.g.len();
        let mut changed = false;
        for class in &mut self.classes {
            // y = (mask << 1) | sigma; rare ⇔ parity(x & y) = sigma·parity.
            let rare_count = |y: usize| -> i64 {
                if y & 1 == 1 && class.parity == 1 {
                    (total - h[y]) / 2
                } else {
                    (total + h[y]) / 2
                }
            };
            let current_y = (class.mask << 1) | usize::from(class.sigma);
            let current = class.rare_pos.len() as i64;
            debug_assert!(current_y >= size || rare_count(current_y) == current);
            let (mut best, mut best_y) = (current, current_y);
            for y in 1..size {
                let c = rare_count(y);
                if c < best {
                    best = c;
                    best_y = y;
                }
            }
            // Rebuilding costs a pass over every heap: only for a clear gain.
            if best_y != current_y && (n < 4096 || best + best / 8 < current) {
                class.mask = best_y >> 1;
                class.sigma = best_y & 1 == 1;
                class.rare_pos.clear();
                class.rare_val.clear();
                for (a, &v) in self.g.iter().enumerate().skip(1) {
                    if class.is_rare(v.idx(), a) {
                        class.rare_pos.push(a);
                        class.rare_val.push(v);
                    }
                }
                self.stats.rebuilds += 1;
                changed = true;
            }
        }
        if changed || self.unsafe_for[0].len() != (1 << self.bits) + 1 {
            self.refresh_tables();
        }
    }

    /// The rare heaps of each class with its mask and σ, for statistics.
    pub(crate) fn rare_summary(&self) -> Vec<(usize, usize, bool, usize)> {
        self.classes
            .iter()
            .map(|c| (c.parity, c.mask, c.sigma, c.rare_pos.len()))
            .collect()
    }
}
