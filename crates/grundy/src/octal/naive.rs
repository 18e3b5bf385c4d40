//! Direct mex engines: subtraction games (O(n·|S|)), heap games given as code (any
//! options leaving up to two heaps), and hexadecimal codes with three-heap splits.

use crate::explore::Control;
use crate::games::code::Code;
use crate::Error;

/// How often (in heaps) the engines check for cancellation and report progress.
pub(crate) const CHECK_EVERY: usize = 1 << 16;

/// Largest value the engines store (two bytes per heap).
pub(crate) const MAX_VALUE: usize = u16::MAX as usize;

/// A heap game given by its options: from a heap of `n` tokens, each move leaves at most
/// two heaps, written `(a, b)` with `0` for "no heap" (so `(0, 0)` removes the heap).
/// Every heap left must be smaller than `n`.
///
/// Closures `Fn(u64, &mut Vec<(u64, u64)>)` are heap games:
///
/// ```
/// use grundy::octal::{grundy_of_game, grundy_sequence};
/// // Kayles: knock down one pin or two adjacent ones, anywhere in the row.
/// let kayles = |n: u64, out: &mut Vec<(u64, u64)>| {
///     for k in 1..=n.min(2) {
///         let m = n - k;
///         out.push((m, 0));
///         out.extend((1..=m / 2).map(|a| (a, m - a)));
///     }
/// };
/// let g = grundy_of_game(&kayles, 100, &Default::default()).unwrap();
/// assert_eq!(&g.to_vec()[..8], &[0, 1, 2, 3, 1, 4, 3, 2]);
/// assert_eq!(g, grundy_sequence(&"0.77".parse().unwrap(), 100, &Default::default()).unwrap());
/// ```
pub trait HeapGame {
    /// Appends the options of a heap of `n` tokens.
    fn options(&self, n: u64, out: &mut Vec<(u64, u64)>);
}

impl<F: Fn(u64, &mut Vec<(u64, u64)>)> HeapGame for F {
    fn options(&self, n: u64, out: &mut Vec<(u64, u64)>) {
        self(n, out);
    }
}

/// Least value not marked with `e` in `stamp`.
fn mex_of(stamp: &[u32], e: u32) -> usize {
    stamp.iter().position(|&s| s != e).unwrap_or(stamp.len())
}

/// A reusable "seen" array cleared in O(1) by an epoch counter.
pub(crate) struct Marks {
    stamp: Vec<u32>,
    epoch: u32,
}

impl Marks {
    pub(crate) fn new() -> Marks {
        Marks {
            stamp: vec![0; 64],
            epoch: 0,
        }
    }

    pub(crate) fn next(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
    }

    #[inline]
    pub(crate) fn mark(&mut self, v: usize) {
        if v >= self.stamp.len() {
            self.stamp.resize((v + 1).next_power_of_two(), 0);
        }
        self.stamp[v] = self.epoch;
    }

    pub(crate) fn mex(&self) -> usize {
        mex_of(&self.stamp, self.epoch)
    }
}

fn too_big(n: usize) -> Error {
    Error::Unsupported(format!(
        "the Grundy value of heap {n} exceeds {MAX_VALUE}; values are stored in two bytes"
    ))
}

/// Extends `g` to `len` values of a subtraction game (take an amount in `set`).
pub(crate) fn subtraction(
    set: &[u64],
    g: &mut Vec<u16>,
    len: usize,
    control: &Control<'_>,
) -> Result<(), Error> {
    let set: Vec<usize> = set
        .iter()
        .filter_map(|&s| usize::try_from(s).ok())
        .filter(|&s| s >= 1)
        .collect();
    let mut marks = Marks::new();
    g.reserve(len.saturating_sub(g.len()));
    while g.len() < len {
        let n = g.len();
        if n.is_multiple_of(CHECK_EVERY) {
            control.check()?;
            control.report("grundy sequence", n as u64);
        }
        marks.next();
        for &s in &set {
            if s <= n {
                marks.mark(usize::from(g[n - s]));
            }
        }
        let v = marks.mex();
        g.push(u16::try_from(v).map_err(|_| too_big(n))?);
    }
    Ok(())
}

/// Extends `g` to `len` values of a heap game given by its options.
pub(crate) fn game<G: HeapGame + ?Sized>(
    game: &G,
    g: &mut Vec<u16>,
    len: usize,
    control: &Control<'_>,
) -> Result<(), Error> {
    let mut marks = Marks::new();
    let mut out = Vec::new();
    while g.len() < len {
        let n = g.len();
        if n.is_multiple_of(CHECK_EVERY) {
            control.check()?;
            control.report("grundy sequence", n as u64);
        }
        out.clear();
        game.options(n as u64, &mut out);
        marks.next();
        for &(a, b) in &out {
            let value_of = |h: u64| -> Result<u16, Error> {
                if h >= n as u64 {
                    return Err(Error::Unsupported(format!(
                        "a move from heap {n} leaves heap {h}: heaps must get smaller"
                    )));
                }
                Ok(g[h as usize])
            };
            let v = value_of(a)? ^ value_of(b)?;
            marks.mark(usize::from(v));
        }
        let v = marks.mex();
        g.push(u16::try_from(v).map_err(|_| too_big(n))?);
    }
    Ok(())
}

/// The direct engine for any code, three-heap splits included: `pairs[j]` holds the set
/// of values `G(b) ⊕ G(c)`, `b + c = j`, `b, c ≥ 1`, so a three-heap split of `m` is
/// `G(a) ⊕ pairs[m − a]`.
///
/// # Complexity
/// O(n²) per heap for three-heap codes (O(n) otherwise); `pairs` holds a bitset per heap.
#[derive(Debug, Clone, Default)]
pub(crate) struct Direct {
    pub(crate) g: Vec<u16>,
    pairs: Vec<Vec<u64>>,
}

impl Direct {
    pub(crate) fn extend(
        &mut self,
        code: &Code,
        len: usize,
        control: &Control<'_>,
    ) -> Result<(), Error> {
        let t = code.max_removal() as usize;
        let digits = code.digits();
        let need_pairs = code.max_parts() == 3;
        let mut marks = Marks::new();
        let mut set = Vec::new();
        while self.g.len() < len {
            let n = self.g.len();
            if n.is_multiple_of(4096) {
                control.check()?;
                control.report("grundy sequence", n as u64);
            }
            let g = &self.g;
            if need_pairs {
                // pairs[n]: values of two-heap splits of n.
                set.clear();
                for b in 1..=n / 2 {
                    let v = usize::from(g[b] ^ g[n - b]);
                    if v / 64 >= set.len() {
                        set.resize(v / 64 + 1, 0u64);
                    }
                    set[v / 64] |= 1 << (v % 64);
                }
                self.pairs.push(set.clone());
            }
            marks.next();
            for (k, &d) in digits.iter().enumerate().take(t.min(n) + 1) {
                let m = n - k;
                if d & 1 != 0 && m == 0 {
                    marks.mark(0);
                }
                if d & 2 != 0 && m >= 1 && k >= 1 {
                    marks.mark(usize::from(g[m]));
                }
                if d & 4 != 0 {
                    for a in 1..=m / 2 {
                        marks.mark(usize::from(g[a] ^ g[m - a]));
                    }
                }
                if d & 8 != 0 && m >= 3 {
                    for (a, &ga) in g[..m - 1].iter().enumerate().skip(1) {
                        let x = usize::from(ga);
                        for (w, &word) in self.pairs[m - a].iter().enumerate() {
                            let mut bits = word;
                            while bits != 0 {
                                let v = w * 64 + bits.trailing_zeros() as usize;
                                bits &= bits - 1;
                                marks.mark(v ^ x);
                            }
                        }
                    }
                }
            }
            let v = marks.mex();
            self.g.push(u16::try_from(v).map_err(|_| too_big(n))?);
        }
        Ok(())
    }
}
