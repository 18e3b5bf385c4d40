//! Misère quotients of take-and-break games (Plambeck and Siegel, "Misère quotients for
//! impartial games", 2008): the special method of misère play. `quotient` computes
//! `Q_n`, the bipartite monoid of the sums of heaps up to `n`, heap by heap, as Siegel's
//! MisereSolver does — a conservative extension when one fits, else a candidate (the old
//! quotient times a cyclic monoid for the new heap) verified, recalibrated at its least
//! failure, and verified again — and `Quotient::loses` classifies a sum in O(heaps).
//!
//! # The verification
//!
//! A candidate is a finite commutative monoid `Q`, a set `P ⊆ Q` and the image `g_h` of
//! each heap. It is right (every sum `G` of heaps ≤ n is a misère P-position iff
//! `Φ(G) ∈ P`) iff every `G` obeys the local rule: `Φ(G) ∈ P` iff `G ≠ 0` and no option of
//! `G` maps into `P` (by induction on `G`: options are smaller). An option of `G` replaces
//! one heap `h` of it by an option `o` of that heap, so it maps to `Φ(G − h)·Φ(o)`. The
//! rule at `G` is therefore decided by the state `(Φ(G), S(G), G ≠ 0)`, where `S(G)` is the
//! set of `z ∈ Q` such that no heap `h` of `G` has an option `o` with
//! `Φ(G − h)·z·Φ(o) ∈ P` (the moves inside `G` that would win once `G` is summed with
//! something of image `z`): the rule at `G` reads `Φ(G) ∈ P ⟺ G ≠ 0 ∧ 1 ∈ S(G)`. Adding a
//! heap `j` to `G` maps the state by `S(G + j) = {z : g_j·z ∈ S(G)} ∩ {z : no option o of
//! j has Φ(G)·z·Φ(o) ∈ P}`, so the states of all the infinitely many sums are the finite
//! closure of `(1, Q, false)` under the `n` heaps, and the candidate is proved right by
//! visiting that closure, or refuted at a state that breaks the rule. Visited in the
//! lexicographic order of its first sums (the largest heap the most significant, a
//! monomial order, so each state is first met at its least sum), the first state that
//! breaks the rule gives the least sum the candidate gets wrong; every option of that sum
//! is smaller and so rightly classified, and its true outcome is the rule's.
//!
//! A verified candidate, reduced (elements told apart by some `z`: `xz ∈ P` but not
//! `yz`, by partition refinement as a minimal automaton), is the quotient.
//!
//! # Complexity
//! Each verification is O(states · n · |Q|) time and O(states · |Q| / 8) bytes; the
//! number of candidates is not bounded in advance. Both are held to `Limits`.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};

use rustc_hash::FxHashMap;

use crate::games::code::{Code, Rules};
use crate::{Error, Limit};

/// What a quotient's computation may take.
#[derive(Debug, Clone, Copy)]
pub struct Limits<'a> {
    /// The most states a verification may visit (counted against `Limit::Positions`;
    /// default 2 000 000).
    pub max_states: u64,
    /// The most bytes of a candidate's table or a verification's states (default 1 GiB).
    pub max_memory: u64,
    /// Set to `true` to stop at the next check.
    pub cancel: Option<&'a AtomicBool>,
}

impl Default for Limits<'_> {
    fn default() -> Self {
        Limits {
            max_states: 2_000_000,
            max_memory: 1 << 30,
            cancel: None,
        }
    }
}

/// The most heaps a quotient is computed up to (words of exponents are one byte a heap).
pub const MAX_HEAP: u64 = 255;

/// A finite commutative monoid with a P-portion, each heap's image, element 0 the
/// identity.
#[derive(Debug, Clone)]
struct Monoid {
    size: usize,
    /// `mul[x * size + y]`.
    mul: Vec<u32>,
    p: Vec<bool>,
    /// The image of heap `h`, `h = 0..=n` (heap 0: the identity).
    heaps: Vec<u32>,
}

impl Monoid {
    fn mul(&self, x: u32, y: u32) -> u32 {
        self.mul[x as usize * self.size + y as usize]
    }

    fn eval(&self, word: &[u8]) -> u32 {
        let mut x = 0;
        for (h, &e) in word.iter().enumerate() {
            for _ in 0..e {
                x = self.mul(x, self.heaps[h]);
            }
        }
        x
    }

    /// The distinct images of the options of heap `h`.
    fn option_images(&self, options: &[Vec<Vec<u64>>], h: usize) -> Vec<u32> {
        let mut out: Vec<u32> = options[h]
            .iter()
            .map(|o| {
                o.iter()
                    .fold(0, |x, &k| self.mul(x, self.heaps[k as usize]))
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// A word's key in the order of the search: the largest heap the most significant.
fn key(word: &[u8]) -> Vec<u8> {
    word.iter().rev().copied().collect()
}

/// The misère quotient of a take-and-break game over heaps up to `n`.
#[derive(Debug, Clone)]
pub struct Quotient {
    code: Code,
    monoid: Monoid,
    /// Each element's normal form: its least word (exponents by heap).
    words: Vec<Vec<u8>>,
    /// The heaps whose images generate it, in order (named a, b, c, …).
    generators: Vec<usize>,
    /// The heaps at which the presentation changed (a new generator, or a recalibration).
    expansions: Vec<usize>,
    /// Candidates tried, in all.
    candidates: u64,
    /// States visited by the final verification.
    states: u64,
}

/// A candidate's verdict.
enum Verdict {
    /// Every sum obeys the local rule; the states visited.
    Right(u64),
    /// The least sum that breaks it (exponents by heap).
    Wrong(Vec<u8>),
}

fn check_cancel(limits: &Limits) -> Result<(), Error> {
    if limits.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
        return Err(Error::Cancelled);
    }
    Ok(())
}

/// Whether `count` states of `per_state` bytes each, in the verification of a candidate
/// quotient of order `size`, are within `limits`.
fn within(limits: &Limits, count: u64, per_state: u64, size: usize) -> Result<(), Error> {
    if count > limits.max_states {
        return Err(Error::over(
            Limit::Positions,
            format!(
                "more than {} states in the verification of a candidate quotient of order {size}",
                limits.max_states
            ),
            None,
            None,
        ));
    }
    let bytes = u128::from(count) * u128::from(per_state);
    if bytes > u128::from(limits.max_memory) {
        return Err(Error::over(
            Limit::Memory,
            format!("the verification of a candidate quotient of order {size}"),
            Some(bytes),
            Some(bytes.saturating_mul(2)),
        ));
    }
    Ok(())
}

/// The verification: the closure of the states (see the module's header), first in any
/// order (cheap), and if a state breaks the rule again in the order of least sums, to
/// find the least sum that breaks it.
fn verify(m: &Monoid, options: &[Vec<Vec<u64>>], limits: &Limits) -> Result<Verdict, Error> {
    let n = m.heaps.len() - 1;
    let size = m.size;
    let words = size.div_ceil(64);
    // bad[j][y]: some option o of heap j has y·Φ(o) ∈ P.
    let mut bad = vec![vec![false; size]; n + 1];
    for (j, row) in bad.iter_mut().enumerate().skip(1) {
        let tr = m.option_images(options, j);
        for (y, b) in row.iter_mut().enumerate() {
            *b = tr.iter().any(|&t| m.p[m.mul(y as u32, t) as usize]);
        }
    }
    // A heap without options is the game 0: a sum of such heaps has no move (an
    // N-position in misère play), whatever its size.
    let movable: Vec<bool> = options.iter().map(|o| !o.is_empty()).collect();
    let per_state = (words * 8 + 64) as u64;
    // fine[j][x]: the z such that no option o of heap j has x·z·Φ(o) ∈ P, as bits
    // (worked out when first asked).
    let fine_bytes = ((n + 1) * size * words * 8) as u128;
    if fine_bytes > u128::from(limits.max_memory) {
        return Err(Error::over(
            Limit::Memory,
            format!("the moves' table of a candidate quotient of order {size}"),
            Some(fine_bytes),
            Some(fine_bytes),
        ));
    }
    let mut fine = vec![0u64; (n + 1) * size * words];
    let mut known = vec![false; (n + 1) * size];
    // The state of G + j from that of G: Φ(G)·g_j, and the bits of S(G + j).
    let mut step = |x: u32, s: &[u64], j: usize| -> (u32, Vec<u64>) {
        let at = j * size + x as usize;
        let f = &mut fine[at * words..(at + 1) * words];
        if !known[at] {
            known[at] = true;
            let row = &m.mul[x as usize * size..(x as usize + 1) * size];
            for (z, &xz) in row.iter().enumerate() {
                if !bad[j][xz as usize] {
                    f[z / 64] |= 1 << (z % 64);
                }
            }
        }
        let g = m.heaps[j] as usize;
        let row = &m.mul[g * size..(g + 1) * size];
        let mut t = f.to_vec();
        for (w, tw) in t.iter_mut().enumerate() {
            let mut keep = 0u64;
            let mut bits = *tw;
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let gz = row[w * 64 + b] as usize;
                keep |= (s[gz / 64] >> (gz % 64) & 1) << b;
            }
            *tw = keep;
        }
        (m.mul(x, m.heaps[j]), t)
    };
    let breaks = |x: u32, s: &[u64], nonzero: bool| m.p[x as usize] != (nonzero && s[0] & 1 == 1);
    let full: Vec<u64> = (0..words)
        .map(|w| u64::MAX >> (64 - (size - w * 64).min(64)))
        .collect();
    let over = |count: u64| within(limits, count, per_state, size);
    // First pass: any order.
    let mut seen: FxHashMap<(u32, bool, Vec<u64>), ()> = FxHashMap::default();
    let mut queue = VecDeque::new();
    let start = (0u32, false, full.clone());
    seen.insert(start.clone(), ());
    queue.push_back(start);
    let mut wrong = false;
    while let Some((x, nz, s)) = queue.pop_front() {
        if breaks(x, &s, nz) {
            wrong = true;
            break;
        }
        if seen.len().is_multiple_of(4096) {
            check_cancel(limits)?;
        }
        for (j, &mv) in movable.iter().enumerate().skip(1) {
            let (y, t) = step(x, &s, j);
            let k = (y, nz || mv, t);
            if !seen.contains_key(&k) {
                over(seen.len() as u64 + 1)?;
                seen.insert(k.clone(), ());
                queue.push_back(k);
            }
        }
    }
    if !wrong {
        return Ok(Verdict::Right(seen.len() as u64));
    }
    drop(seen);
    drop(queue);
    // Second pass: in the order of least sums, to the first state that breaks the rule.
    let mut seen: FxHashMap<(u32, bool, Vec<u64>), ()> = FxHashMap::default();
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((key(&vec![0u8; n + 1]), 0u32, false, full)));
    while let Some(Reverse((k, x, nz, s))) = heap.pop() {
        if seen.contains_key(&(x, nz, s.clone())) {
            continue;
        }
        let word: Vec<u8> = k.iter().rev().copied().collect();
        if breaks(x, &s, nz) {
            return Ok(Verdict::Wrong(word));
        }
        over(seen.len() as u64 + heap.len() as u64 / 8 + 1)?;
        if seen.len().is_multiple_of(4096) {
            check_cancel(limits)?;
        }
        for j in 1..=n {
            let mut w = word.clone();
            if w[j] == u8::MAX {
                continue;
            }
            w[j] += 1;
            let (y, t) = step(x, &s, j);
            let nz = nz || movable[j];
            if !seen.contains_key(&(y, nz, t.clone())) {
                heap.push(Reverse((key(&w), y, nz, t)));
            }
        }
        seen.insert((x, nz, s), ());
    }
    // The first pass found a state that breaks the rule; the second must meet it.
    Err(Error::Unsupported(
        "internal: the ordered verification missed a failure".into(),
    ))
}

/// Each element's least word (the largest heap the most significant), in that order:
/// (word, element), element 0's first.
fn least_words(m: &Monoid) -> Vec<(Vec<u8>, u32)> {
    let n = m.heaps.len() - 1;
    let mut done = vec![false; m.size];
    let mut out = Vec::new();
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((key(&vec![0u8; n + 1]), 0u32)));
    while let Some(Reverse((k, x))) = heap.pop() {
        if done[x as usize] {
            continue;
        }
        done[x as usize] = true;
        let word: Vec<u8> = k.iter().rev().copied().collect();
        for j in 1..=n {
            let y = m.mul(x, m.heaps[j]);
            if !done[y as usize] && word[j] < u8::MAX {
                let mut w = word.clone();
                w[j] += 1;
                heap.push(Reverse((key(&w), y)));
            }
        }
        out.push((word, x));
    }
    out
}

/// Marks the P-portion of a candidate by each element's least word: P iff the word is not
/// empty and none of its options maps into P (options are smaller words, marked first).
fn mark_p(m: &mut Monoid, options: &[Vec<Vec<u64>>]) {
    let n = m.heaps.len() - 1;
    let tr: Vec<Vec<u32>> = (0..=n).map(|h| m.option_images(options, h)).collect();
    let mut p = vec![false; m.size];
    for (word, x) in least_words(m) {
        if (1..=n).all(|h| word[h] == 0 || options[h].is_empty()) {
            continue;
        }
        let mut is_p = true;
        'heaps: for h in 1..=n {
            if word[h] == 0 {
                continue;
            }
            let mut rest = word.clone();
            rest[h] -= 1;
            let r = m.eval(&rest);
            for &t in &tr[h] {
                if p[m.mul(r, t) as usize] {
                    is_p = false;
                    break 'heaps;
                }
            }
        }
        p[x as usize] = is_p;
    }
    m.p = p;
}

/// The submonoid generated by the heaps' images, reduced: elements no `z` tells apart
/// merged (Moore's partition refinement over the heaps as letters), numbered in the order
/// of their least words.
fn reduce(m: &Monoid) -> Monoid {
    let n = m.heaps.len() - 1;
    let order = least_words(m);
    let reach: Vec<u32> = order.iter().map(|&(_, x)| x).collect();
    let mut letters: Vec<u32> = m.heaps[1..].to_vec();
    letters.sort_unstable();
    letters.dedup();
    let mut class = vec![u32::MAX; m.size];
    for &x in &reach {
        class[x as usize] = u32::from(m.p[x as usize]);
    }
    let mut count = 0;
    loop {
        let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
        let mut next = vec![u32::MAX; m.size];
        for &x in &reach {
            let mut sig = vec![class[x as usize]];
            sig.extend(letters.iter().map(|&g| class[m.mul(x, g) as usize]));
            let len = ids.len() as u32;
            next[x as usize] = *ids.entry(sig).or_insert(len);
        }
        let now = ids.len();
        class = next;
        if now == count {
            break;
        }
        count = now;
    }
    // Classes numbered by their least words' order (the identity's first).
    let mut number = vec![u32::MAX; count];
    let mut rep = Vec::new();
    for &x in &reach {
        let c = class[x as usize] as usize;
        if number[c] == u32::MAX {
            number[c] = rep.len() as u32;
            rep.push(x);
        }
    }
    let size = rep.len();
    let mut mul = vec![0u32; size * size];
    for (a, &ra) in rep.iter().enumerate() {
        for (b, &rb) in rep.iter().enumerate() {
            mul[a * size + b] = number[class[m.mul(ra, rb) as usize] as usize];
        }
    }
    Monoid {
        size,
        mul,
        p: rep.iter().map(|&x| m.p[x as usize]).collect(),
        heaps: (0..=n)
            .map(|h| number[class[m.heaps[h] as usize] as usize])
            .collect(),
    }
}

/// The submonoid generated by the images of the heaps other than `without` (those heaps
/// mapped to the identity), as a table of its own.
fn regenerate(m: &Monoid, without: &[usize]) -> Monoid {
    let mut heaps = m.heaps.clone();
    for &h in without {
        heaps[h] = 0;
    }
    let mut id = vec![u32::MAX; m.size];
    let mut elems = vec![0u32];
    id[0] = 0;
    let mut i = 0;
    while i < elems.len() {
        let x = elems[i];
        for &g in &heaps[1..] {
            let y = m.mul(x, g);
            if id[y as usize] == u32::MAX {
                id[y as usize] = elems.len() as u32;
                elems.push(y);
            }
        }
        i += 1;
    }
    let size = elems.len();
    let mut mul = vec![0u32; size * size];
    for (a, &x) in elems.iter().enumerate() {
        for (b, &y) in elems.iter().enumerate() {
            mul[a * size + b] = id[m.mul(x, y) as usize];
        }
    }
    Monoid {
        size,
        mul,
        p: elems.iter().map(|&x| m.p[x as usize]).collect(),
        heaps: heaps.iter().map(|&g| id[g as usize]).collect(),
    }
}

/// The index of `x`: the least `i` with `x^i = x^(i+p)` for some `p ≥ 1`.
fn index_of(m: &Monoid, x: u32) -> usize {
    let mut powers = vec![0u32];
    loop {
        let next = m.mul(*powers.last().unwrap_or(&0), x);
        if let Some(i) = powers.iter().position(|&y| y == next) {
            return i;
        }
        powers.push(next);
    }
}

/// `base` times cyclic monoids `⟨t | t^(i+p) = t^i⟩`, one for each `(heap, i, p)`: the
/// heap then maps to that component's `t`, the other heaps to their images in `base`.
/// The product's elements that the heaps generate, as a table; refused past the limits.
fn product(
    base: &Monoid,
    cyclic: &[(usize, usize, usize)],
    limits: &Limits,
) -> Result<Monoid, Error> {
    let radix: Vec<usize> = std::iter::once(base.size)
        .chain(cyclic.iter().map(|&(_, i, p)| i + p))
        .collect();
    let total: u128 = radix.iter().map(|&r| r as u128).product();
    let table_bytes = |size: u128| size * size * 4;
    let too_large =
        |what: String, bytes: u128| Error::over(Limit::Memory, what, Some(bytes), Some(bytes));
    if total * 4 > u128::from(limits.max_memory) {
        return Err(too_large(
            format!("a candidate quotient's product of {total} elements"),
            total * 4,
        ));
    }
    let n = base.heaps.len() - 1;
    type Tuple = Vec<u32>;
    let reduce_exp = |e: usize, i: usize, p: usize| -> u32 {
        (if e < i + p { e } else { i + (e - i) % p }) as u32
    };
    let times = |a: &Tuple, b: &Tuple| -> Tuple {
        let mut c = vec![base.mul(a[0], b[0])];
        for (k, &(_, i, p)) in cyclic.iter().enumerate() {
            c.push(reduce_exp((a[k + 1] + b[k + 1]) as usize, i, p));
        }
        c
    };
    let gens: Vec<Tuple> = (0..=n)
        .map(|h| {
            let mut t = vec![0u32; cyclic.len() + 1];
            match cyclic.iter().position(|&(hh, _, _)| hh == h) {
                Some(k) => t[k + 1] = 1,
                None => t[0] = base.heaps[h],
            }
            t
        })
        .collect();
    // Tuples by their mixed-radix number: a dense index (its size was checked above).
    let encode = |t: &Tuple| -> usize {
        t.iter()
            .zip(&radix)
            .fold(0usize, |acc, (&c, &r)| acc * r + c as usize)
    };
    let mut ids = vec![u32::MAX; total as usize];
    let mut elems: Vec<Tuple> = vec![vec![0; cyclic.len() + 1]];
    ids[encode(&elems[0])] = 0;
    let mut i = 0;
    while i < elems.len() {
        for g in &gens[1..] {
            let y = times(&elems[i], g);
            let e = encode(&y);
            if ids[e] == u32::MAX {
                ids[e] = elems.len() as u32;
                elems.push(y);
            }
        }
        i += 1;
    }
    let size = elems.len();
    if table_bytes(size as u128) > u128::from(limits.max_memory) {
        return Err(too_large(
            format!("the table of a candidate quotient of {size} elements"),
            table_bytes(size as u128),
        ));
    }
    let mut mul = vec![0u32; size * size];
    for a in 0..size {
        check_cancel(limits)?;
        for b in a..size {
            let c = ids[encode(&times(&elems[a], &elems[b]))];
            mul[a * size + b] = c;
            mul[b * size + a] = c;
        }
    }
    Ok(Monoid {
        size,
        mul,
        p: vec![false; size],
        heaps: gens.iter().map(|t| ids[encode(t)]).collect(),
    })
}

/// A candidate quotient from `base` with fresh cyclic components for `heaps`, its
/// P-portion marked by least words, reduced.
fn candidate(
    base: &Monoid,
    cyclic: &[(usize, usize, usize)],
    options: &[Vec<Vec<u64>>],
    limits: &Limits,
) -> Result<Monoid, Error> {
    let mut m = product(base, cyclic, limits)?;
    mark_p(&mut m, options);
    Ok(reduce(&m))
}

/// The period a recalibrated heap's cyclic component is given for an index `i`:
/// 2 while the index is small, else about the index (an even number).
fn period_for(i: usize) -> usize {
    (2 * (i.saturating_sub(4) / 2)).max(2)
}

/// A new candidate that classifies `failure` the other way: some of the heaps in it given
/// fresh cyclic components (fewest first), long enough to count its copies.
fn recalibrate(
    trial: &Monoid,
    failure: &[u8],
    options: &[Vec<Vec<u64>>],
    limits: &Limits,
) -> Result<Monoid, Error> {
    let should_be_p = !trial.p[trial.eval(failure) as usize];
    let involved: Vec<usize> = (1..failure.len()).filter(|&h| failure[h] > 0).collect();
    for k in 1..=involved.len() {
        for chosen in combinations(&involved, k) {
            check_cancel(limits)?;
            let base = regenerate(trial, &chosen);
            let cyclic: Vec<(usize, usize, usize)> = chosen
                .iter()
                .map(|&h| {
                    let i = index_of(trial, trial.heaps[h])
                        .max(usize::from(failure[h]).saturating_sub(1));
                    let i = i.max(1);
                    (h, i, period_for(i))
                })
                .collect();
            let m = candidate(&base, &cyclic, options, limits)?;
            if m.p[m.eval(failure) as usize] == should_be_p {
                return Ok(m);
            }
        }
    }
    Err(Error::Unsupported(format!(
        "no recalibration of a candidate of order {} classifies the sum {} rightly",
        trial.size,
        write_sum(failure)
    )))
}

/// The `k`-subsets of `items`, in order.
fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for (i, &x) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], k - 1) {
            rest.insert(0, x);
            out.push(rest);
        }
    }
    out
}

/// A sum of heaps as `3 + 3 + 5`, from its exponents.
fn write_sum(word: &[u8]) -> String {
    let mut parts = Vec::new();
    for (h, &e) in word.iter().enumerate() {
        for _ in 0..e {
            parts.push(h.to_string());
        }
    }
    if parts.is_empty() {
        "0".into()
    } else {
        parts.join(" + ")
    }
}

/// The take-and-break code of a heap game's rules: a code as it is, a subtraction set `S`
/// as the code whose digit `s` is 3 for each `s` in `S` (take `s`, leaving one heap or
/// none).
///
/// # Errors
/// [`Error::Unsupported`] for a subtraction set whose largest amount is past
/// [`MAX_HEAP`] (the quotient's heaps stop there anyway).
pub fn code_of(rules: &Rules) -> Result<Code, Error> {
    match rules {
        Rules::Code(code) => Ok(code.clone()),
        Rules::Subtraction(set) => {
            let top = set.last().copied().unwrap_or(0);
            if top > MAX_HEAP {
                return Err(Error::Unsupported(format!(
                    "a subtraction amount of {top} is past the largest heap of a quotient ({MAX_HEAP})"
                )));
            }
            let mut digits = vec![0u8; top as usize + 1];
            for &s in set {
                digits[s as usize] = 3;
            }
            Code::from_digits(&digits).map_err(|e| Error::Unsupported(e.message))
        }
    }
}

/// The misère quotient of the take-and-break game `code` over the sums of heaps up to
/// `n` (1 ≤ n ≤ [`MAX_HEAP`]).
///
/// ```
/// use grundy::pattern::misere::{quotient, Limits};
/// // Misère Nim with heaps up to 3: the tame quotient T2, of order 6.
/// let nim = "0.333333".parse().unwrap(); // take 1 to 6 from a heap: Nim up to 6
/// let q = quotient(&nim, 3, &Limits::default()).unwrap();
/// assert_eq!(q.order(), 6);
/// assert!(q.loses(&[1, 1, 1]).unwrap());
/// assert!(!q.loses(&[2, 3]).unwrap());
/// ```
///
/// # Errors
/// [`Error::Unsupported`] for `n` out of range, or if no recalibration of a failed
/// candidate classifies its least failure rightly; [`Error::OverLimit`] past `limits`;
/// [`Error::Cancelled`].
pub fn quotient(code: &Code, n: u64, limits: &Limits) -> Result<Quotient, Error> {
    if n == 0 || n > MAX_HEAP {
        return Err(Error::Unsupported(format!(
            "a misère quotient is computed for heaps up to n, 1 ≤ n ≤ {MAX_HEAP}; asked {n}"
        )));
    }
    let n = n as usize;
    let mut options: Vec<Vec<Vec<u64>>> = Vec::with_capacity(n + 1);
    for h in 0..=n {
        let mut out = Vec::new();
        code.options(h as u64, &mut out);
        options.push(out);
    }
    // Q_0: the trivial monoid, the empty sum an N-position.
    let mut q = Monoid {
        size: 1,
        mul: vec![0],
        p: vec![false],
        heaps: vec![0],
    };
    let mut expansions = Vec::new();
    let mut candidates = 0u64;
    let mut states = 0u64;
    for h in 1..=n {
        check_cancel(limits)?;
        let opts = &options[..=h];
        // A conservative extension: heap h maps to an element already there.
        let mut found = None;
        if options[h].is_empty() {
            let mut t = q.clone();
            t.heaps.push(0);
            candidates += 1;
            if let Verdict::Right(s) = verify(&t, opts, limits)? {
                found = Some((t, s));
            }
        } else {
            let mut base = q.clone();
            base.heaps.push(0);
            let tr = base.option_images(opts, h);
            // Quick necessary test: heap h + Y is P only if no move in the heap wins.
            let blocked: Vec<bool> = (0..q.size as u32)
                .map(|y| tr.iter().any(|&t| q.p[q.mul(t, y) as usize]))
                .collect();
            for x in 0..q.size as u32 {
                if (0..q.size as u32).any(|y| blocked[y as usize] && q.p[q.mul(x, y) as usize]) {
                    continue;
                }
                let mut t = base.clone();
                t.heaps[h] = x;
                candidates += 1;
                if let Verdict::Right(s) = verify(&t, opts, limits)? {
                    found = Some((t, s));
                    break;
                }
            }
        }
        if let Some((t, s)) = found {
            q = t;
            states = s;
            continue;
        }
        // The presentation changes: the old quotient times ⟨t | t^4 = t^2⟩ for heap h.
        expansions.push(h);
        let mut base = q.clone();
        base.heaps.push(0);
        let mut trial = candidate(&base, &[(h, 2, 2)], opts, limits)?;
        loop {
            candidates += 1;
            match verify(&trial, opts, limits)? {
                Verdict::Right(s) => {
                    states = s;
                    break;
                }
                Verdict::Wrong(failure) => {
                    trial = recalibrate(&trial, &failure, opts, limits)?;
                }
            }
        }
        q = trial;
    }
    Ok(Quotient::new(
        code.clone(),
        q,
        expansions,
        candidates,
        states,
    ))
}

impl Quotient {
    fn new(
        code: Code,
        monoid: Monoid,
        expansions: Vec<usize>,
        candidates: u64,
        states: u64,
    ) -> Quotient {
        let mut words = vec![Vec::new(); monoid.size];
        for (w, x) in least_words(&monoid) {
            words[x as usize] = w;
        }
        let n = monoid.heaps.len() - 1;
        let generators = (1..=n)
            .filter(|&h| {
                let w = &words[monoid.heaps[h] as usize];
                w[h] == 1 && w.iter().map(|&e| u32::from(e)).sum::<u32>() == 1
            })
            .collect();
        Quotient {
            code,
            monoid,
            words,
            generators,
            expansions,
            candidates,
            states,
        }
    }

    /// The game's code.
    #[must_use]
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// `n`: the largest heap it speaks of.
    #[must_use]
    pub fn up_to(&self) -> u64 {
        self.monoid.heaps.len() as u64 - 1
    }

    /// `|Q|`.
    #[must_use]
    pub fn order(&self) -> usize {
        self.monoid.size
    }

    /// The elements in the P-portion (misère P-positions), by number.
    #[must_use]
    pub fn p_portion(&self) -> Vec<u32> {
        (0..self.monoid.size as u32)
            .filter(|&x| self.monoid.p[x as usize])
            .collect()
    }

    /// Whether element `x` is in the P-portion.
    #[must_use]
    pub fn is_p(&self, x: u32) -> bool {
        self.monoid.p[x as usize]
    }

    /// The element of heap `h` (0: the identity).
    ///
    /// # Errors
    /// [`Error::Unsupported`] past `n`.
    pub fn element(&self, h: u64) -> Result<u32, Error> {
        usize::try_from(h)
            .ok()
            .and_then(|h| self.monoid.heaps.get(h).copied())
            .ok_or_else(|| {
                Error::Unsupported(format!(
                    "heap {h} is past the quotient's heaps (up to {})",
                    self.up_to()
                ))
            })
    }

    /// The product of two elements.
    #[must_use]
    pub fn product(&self, x: u32, y: u32) -> u32 {
        self.monoid.mul(x, y)
    }

    /// The multiplication table, row by row (`table[x * order + y]`).
    #[must_use]
    pub fn table(&self) -> &[u32] {
        &self.monoid.mul
    }

    /// Whether the player to move loses the sum of `heaps` in misère play: O(heaps).
    ///
    /// # Errors
    /// [`Error::Unsupported`] for a heap past `n`.
    pub fn loses(&self, heaps: &[u64]) -> Result<bool, Error> {
        let mut x = 0;
        for &h in heaps {
            x = self.product(x, self.element(h)?);
        }
        Ok(self.is_p(x))
    }

    /// The heaps whose images generate the quotient, in order (named a, b, c, …).
    #[must_use]
    pub fn generator_heaps(&self) -> &[usize] {
        &self.generators
    }

    /// The heaps at which the presentation changed.
    #[must_use]
    pub fn expansion_heaps(&self) -> &[usize] {
        &self.expansions
    }

    /// The candidates verified in all, and the states of the last verification.
    #[must_use]
    pub fn work(&self) -> (u64, u64) {
        (self.candidates, self.states)
    }

    /// The name of the generator of heap `h` (a, b, …, z, then a1, b1, …).
    fn letter(&self, h: usize) -> String {
        let i = self.generators.iter().position(|&g| g == h).unwrap_or(0);
        let c = char::from(b'a' + (i % 26) as u8);
        if i < 26 {
            c.to_string()
        } else {
            format!("{c}{}", i / 26)
        }
    }

    fn write_word(&self, word: &[u8]) -> String {
        let mut parts = Vec::new();
        for (h, &e) in word.iter().enumerate() {
            if e == 0 {
                continue;
            }
            let l = self.letter(h);
            parts.push(if e == 1 { l } else { format!("{l}^{e}") });
        }
        if parts.is_empty() {
            "1".into()
        } else {
            parts.join(" ")
        }
    }

    /// Element `x` as its normal form (its least word in the generators): `a b^2`, `1`.
    #[must_use]
    pub fn name(&self, x: u32) -> String {
        self.write_word(&self.words[x as usize])
    }

    /// A presentation: for every least word that is not a normal form while all of its
    /// divisors are, the relation `word = normal form` (a complete rewriting system, so
    /// the relations present the monoid; some may follow from others).
    #[must_use]
    pub fn relations(&self) -> Vec<(String, String)> {
        let mut normal: HashMap<&[u8], ()> = HashMap::new();
        for w in &self.words {
            normal.insert(w, ());
        }
        let mut rel: Vec<(Vec<u8>, u32)> = Vec::new();
        for (x, w) in self.words.iter().enumerate() {
            for &g in &self.generators {
                let mut v = w.clone();
                v[g] += 1;
                if normal.contains_key(v.as_slice()) {
                    continue;
                }
                let minimal = (1..v.len()).filter(|&t| v[t] > 0 && t != g).all(|t| {
                    let mut u = v.clone();
                    u[t] -= 1;
                    normal.contains_key(u.as_slice())
                });
                if minimal {
                    rel.push((v, self.product(x as u32, self.monoid.heaps[g])));
                }
            }
        }
        rel.sort_by_key(|a| key(&a.0));
        rel.dedup_by(|a, b| a.0 == b.0);
        rel.into_iter()
            .map(|(v, x)| (self.write_word(&v), self.name(x)))
            .collect()
    }

    /// The presentation as one line: `⟨a, b | a^2 = 1, b^3 = b⟩`.
    #[must_use]
    pub fn presentation(&self) -> String {
        let gens: Vec<String> = self.generators.iter().map(|&h| self.letter(h)).collect();
        let rels: Vec<String> = self
            .relations()
            .into_iter()
            .map(|(l, r)| format!("{l} = {r}"))
            .collect();
        format!("⟨{} | {}⟩", gens.join(", "), rels.join(", "))
    }
}

#[cfg(test)]
mod tests;
