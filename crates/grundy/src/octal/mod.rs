//! Grundy sequences of heap games at scale — octal and hexadecimal codes, subtraction sets,
//! games given as code — and their periods, proved where a theorem allows.
//!
//! ```
//! use grundy::octal::{grundy_sequence, prove_period, Rules};
//!
//! let kayles: Rules = "0.77".parse().unwrap();
//! // Ten million heaps: the period is proved early on, the rest is copied.
//! let g = grundy_sequence(&kayles, 10_000_000, &Default::default()).unwrap();
//! assert_eq!(g.bytes_per_heap(), 1);
//! assert_eq!(g.get(9_999_999), g.get(9_999_999 - 12));
//!
//! let period = prove_period(&kayles, &Default::default()).unwrap();
//! assert_eq!((period.preperiod, period.period, period.proved), (71, 12, true));
//! ```
//!
//! # What is computed how
//!
//! | rules | engine | time to n heaps |
//! | --- | --- | --- |
//! | octal code | rare-value (sparse-space) method (below) | ≈ n · (rare heaps) when the game has a sparse space; O(n²) worst case |
//! | hexadecimal code (three-heap splits) | direct mex with pair-value bitsets | O(n² · values) |
//! | subtraction set S | direct mex | O(n · \|S\|) |
//! | [`HeapGame`] (a closure) | direct mex | O(total options) |
//!
//! The rare-value method: split moves are grouped by the parity of the tokens they
//! remove; for each group a linear functional of (value, heap parity) — chosen by a
//! Walsh–Hadamard transform of the value histogram to make "rare" heaps as few as
//! possible — guarantees that a split of two *common* heaps never has a *safe* value. So
//! the value of a heap is found from its take moves and its splits with a rare part
//! (|rare| per split digit), plus a short search for witnesses of the few unsafe values
//! below the candidate; only heaps whose value is not safe (the rare heaps themselves)
//! cost a full scan of their splits. Sources: Winning Ways ch. 4 ("Sparse space spells
//! speed"); Gangolli & Plambeck, "A note on periodicity in some octal games", IJGT 18
//! (1989); Flammenkamp's notes on sparse positions.
//!
//! Values are stored in one byte per heap while they are below 256, two bytes after.
//! Whenever a period is *proved* along the way (checked at doubling heap counts, so the
//! checks cost O(n) in all), the rest of the sequence is copied from it: Kayles or Dawson's
//! Kayles to 10⁹ heaps take as long as writing the bytes.
//!
//! # Proofs
//!
//! - Octal and hexadecimal codes, the Guy–Smith periodicity theorem (Guy & Smith 1956;
//!   *Winning Ways* ch. 4): if a move removes at most `t` tokens and leaves at most `j`
//!   heaps, and `G(n + p) = G(n)` for every `n` from the pre-period `s` up to
//!   `j·max(s, 1) + (j − 1)·p + t`, then `G(n + p) = G(n)` for every `n ≥ s`
//!   ([`required_len`] gives the heaps this needs; `j = 2` is the familiar
//!   `2s + p + t`).
//! - Subtraction sets with largest element `t`: `G(n)` depends only on the `t` values
//!   before it, so a repeated window `G(s..s + t) = G(s + p..s + p + t)` repeats forever.

mod naive;
mod sparse;
mod stream;

pub use crate::games::code::{Code, CodeError, Rules};
pub use naive::HeapGame;
pub use sparse::SparseStats;
pub use stream::{
    inspect_sequence, read_sequence, reseal, write_sequence, FileError, SeqInfo, Written,
};

use crate::explore::Control;
use crate::sequence::period::{least_period_by, Period};
use crate::Error;
use naive::{Direct, CHECK_EVERY};
use sparse::{NeedsWider, Sparse};

/// A Grundy sequence, one value per heap from heap 0, in one or two bytes per heap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Values {
    /// Every value below 256.
    U8(Vec<u8>),
    /// Some value 256 or more.
    U16(Vec<u16>),
}

impl Values {
    /// The number of heaps.
    #[must_use]
    pub fn len(&self) -> usize {
        match self {
            Values::U8(v) => v.len(),
            Values::U16(v) => v.len(),
        }
    }

    /// Whether there is no value.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of heap `n`.
    ///
    /// # Panics
    /// If `n ≥ len`.
    #[must_use]
    pub fn get(&self, n: usize) -> u16 {
        match self {
            Values::U8(v) => u16::from(v[n]),
            Values::U16(v) => v[n],
        }
    }

    /// The largest value (0 if empty).
    #[must_use]
    pub fn max(&self) -> u16 {
        match self {
            Values::U8(v) => v.iter().copied().max().map_or(0, u16::from),
            Values::U16(v) => v.iter().copied().max().unwrap_or(0),
        }
    }

    /// 1 or 2.
    #[must_use]
    pub fn bytes_per_heap(&self) -> usize {
        match self {
            Values::U8(_) => 1,
            Values::U16(_) => 2,
        }
    }

    /// The values as `u64`s (8 bytes per heap: for small sequences and tests).
    #[must_use]
    pub fn to_vec(&self) -> Vec<u64> {
        match self {
            Values::U8(v) => v.iter().map(|&x| u64::from(x)).collect(),
            Values::U16(v) => v.iter().map(|&x| u64::from(x)).collect(),
        }
    }

    /// The values as `u16`s.
    #[must_use]
    pub fn to_u16(&self) -> Vec<u16> {
        match self {
            Values::U8(v) => v.iter().map(|&x| u16::from(x)).collect(),
            Values::U16(v) => v.clone(),
        }
    }

    /// Narrowest storage for values given as `u16`s.
    #[must_use]
    pub fn from_u16(values: Vec<u16>) -> Values {
        if values.iter().all(|&v| v < 256) {
            Values::U8(values.into_iter().map(|v| v as u8).collect())
        } else {
            Values::U16(values)
        }
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        match self {
            Values::U8(v) => v.truncate(len),
            Values::U16(v) => v.truncate(len),
        }
    }
}

/// The Guy–Smith / repeated-state bound: how many heaps (0..len) must be computed for a
/// period `p` seen from heap `s` on to be proved.
///
/// Codes: `j·max(s,1) + j·p + t + 1` with `t` the most tokens removed and `j` the most
/// heaps left (at least 1) — the check covers `n` from `s` to `j·max(s,1) + (j−1)·p + t`.
/// Subtraction sets: `s + t + p` (the window `s..s + t` repeats).
#[must_use]
pub fn required_len(rules: &Rules, preperiod: u64, period: u64) -> u64 {
    match rules {
        Rules::Code(code) => {
            let j = u64::from(code.max_parts().max(1));
            let s = preperiod.max(1);
            j.saturating_mul(s)
                .saturating_add(j.saturating_mul(period))
                .saturating_add(code.max_removal() + 1)
        }
        Rules::Subtraction(set) => preperiod
            .saturating_add(set.last().copied().unwrap_or(0))
            .saturating_add(period),
    }
}

/// Work counters of a [`Solver`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Counters of the rare-value method (octal codes).
    pub sparse: SparseStats,
    /// For each parity class of split moves: (parity, mask, σ, rare heaps).
    pub classes: Vec<(usize, usize, bool, usize)>,
    /// Heaps filled from a proved period instead of being computed.
    pub copied: u64,
    /// Heaps computed.
    pub computed: u64,
}

#[derive(Debug, Clone)]
enum Engine {
    Narrow(Sparse<u8>),
    Wide(Sparse<u16>),
    Direct(Direct),
    Plain(Vec<u16>),
}

/// Heap games whose proof search grundy ran far without finding a period, each with the
/// heaps it computed. A proof within fewer heaps would have been found there, so a budget
/// of at most that many heaps is refused at once ([`unproved_within`]) instead of
/// computing for seconds to fail again. Each entry is recomputed by
/// `cargo test -p grundy --release --test octal -- --ignored no_period_within`.
pub const UNPROVED: &[(&str, u64)] = &[
    ("0.36", 1 << 22),
    ("0.37", 1 << 22),
    ("0.6", 1 << 22),
    ("0.64", 1 << 22),
    ("0.74", 1 << 22),
];

/// The heaps within which grundy's proof search is known to find no period of `rules`
/// ([`UNPROVED`]), if it is listed.
#[must_use]
pub fn unproved_within(rules: &Rules) -> Option<u64> {
    UNPROVED
        .iter()
        .find(|(code, _)| code.parse::<Rules>().is_ok_and(|r| r == *rules))
        .map(|&(_, heaps)| heaps)
}

/// Computes a Grundy sequence incrementally, proving its period along the way (when
/// allowed) and copying the rest once it is proved.
///
/// ```
/// use grundy::octal::Solver;
/// let mut dawson = Solver::new(&"0.07".parse().unwrap());
/// let period = dawson.prove(1 << 20, &Default::default()).unwrap();
/// // Period 34 (Winning Ways). Dawson's chess .137 has the same values one heap
/// // earlier and its last exception at heap 51, so here it is heap 52.
/// assert_eq!((period.preperiod, period.period), (53, 34));
/// assert!(dawson.len() < 300);
/// ```
#[derive(Debug, Clone)]
pub struct Solver {
    rules: Rules,
    engine: Engine,
    period: Option<Period>,
    shortcut: bool,
    next_check: u64,
    copied: u64,
    max_work: u64,
}

/// First heap count at which a period is looked for.
const FIRST_CHECK: u64 = 256;

impl Solver {
    /// A solver for the rules, with the period shortcut on.
    #[must_use]
    pub fn new(rules: &Rules) -> Solver {
        let engine = match rules {
            Rules::Code(code) if code.is_octal() => Engine::Narrow(Sparse::new(code)),
            Rules::Code(_) => Engine::Direct(Direct::default()),
            Rules::Subtraction(_) => Engine::Plain(Vec::new()),
        };
        Solver {
            rules: rules.clone(),
            engine,
            period: None,
            shortcut: true,
            next_check: FIRST_CHECK,
            copied: 0,
            max_work: u64::MAX,
        }
    }

    /// Stops the rare-value method once it has taken more than `steps` steps in all (a
    /// take, a split with a rare part, a split of a witness search compared with a pending
    /// value: see [`Solver::work`]), with [`Error::TooLarge`]. The heaps a computation needs are known
    /// up front, but not their cost: a code without a sparse space costs O(n) a heap, not
    /// O(1), and only shows it while it runs. Default: no limit.
    #[must_use]
    pub fn with_max_work(mut self, steps: u64) -> Solver {
        self.max_work = steps;
        self
    }

    /// The steps the rare-value method has taken so far (0 for the other engines, whose
    /// cost is known up front).
    #[must_use]
    pub fn work(&self) -> u64 {
        match &self.engine {
            Engine::Narrow(e) => e.work(),
            Engine::Wide(e) => e.work(),
            Engine::Direct(_) | Engine::Plain(_) => 0,
        }
    }

    /// Turns the period shortcut off (every value computed by the engine) or on.
    #[must_use]
    pub fn with_shortcut(mut self, on: bool) -> Solver {
        self.shortcut = on;
        self
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Heaps computed so far.
    #[must_use]
    pub fn len(&self) -> u64 {
        (match &self.engine {
            Engine::Narrow(e) => e.g.len(),
            Engine::Wide(e) => e.g.len(),
            Engine::Direct(e) => e.g.len(),
            Engine::Plain(g) => g.len(),
        }) as u64
    }

    /// Whether no heap was computed yet.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of heap `n < len()`.
    #[must_use]
    pub fn get(&self, n: usize) -> u16 {
        match &self.engine {
            Engine::Narrow(e) => u16::from(e.g[n]),
            Engine::Wide(e) => e.g[n],
            Engine::Direct(e) => e.g[n],
            Engine::Plain(g) => g[n],
        }
    }

    /// The proved period, once found.
    #[must_use]
    pub fn period(&self) -> Option<Period> {
        self.period
    }

    /// Work counters.
    #[must_use]
    pub fn stats(&self) -> Stats {
        let (sparse, classes) = match &self.engine {
            Engine::Narrow(e) => (e.stats, e.rare_summary()),
            Engine::Wide(e) => (e.stats, e.rare_summary()),
            _ => (SparseStats::default(), Vec::new()),
        };
        Stats {
            sparse,
            classes,
            copied: self.copied,
            computed: self.len() - self.copied,
        }
    }

    /// The values computed so far.
    #[must_use]
    pub fn values(&self) -> Values {
        match &self.engine {
            Engine::Narrow(e) => Values::U8(e.g.clone()),
            Engine::Wide(e) => Values::U16(e.g.clone()),
            Engine::Direct(e) => Values::from_u16(e.g.clone()),
            Engine::Plain(g) => Values::from_u16(g.clone()),
        }
    }

    /// The values, consuming the solver (no copy).
    #[must_use]
    pub fn into_values(self) -> Values {
        match self.engine {
            Engine::Narrow(e) => Values::U8(e.g),
            Engine::Wide(e) => Values::U16(e.g),
            Engine::Direct(e) => Values::from_u16(e.g),
            Engine::Plain(g) => Values::from_u16(g),
        }
    }

    /// Computes heaps up to `len` (exclusive) — by period once one is proved.
    ///
    /// # Errors
    /// [`Error::Cancelled`]; [`Error::Unsupported`] if a value exceeds 65535.
    pub fn extend_to(&mut self, len: u64, control: &Control<'_>) -> Result<(), Error> {
        self.reserve(len);
        while self.len() < len {
            match self.period {
                Some(period) => self.copy_period(period, len),
                None => self.advance(len, control)?,
            }
        }
        Ok(())
    }

    /// Computes heaps up to `limit` (exclusive) or up to the next heap count at which a
    /// period is looked for, whichever comes first, and looks there. Never copies from
    /// a period: once [`Solver::period`] is known this does nothing.
    ///
    /// # Errors
    /// As [`Solver::extend_to`].
    pub fn advance(&mut self, limit: u64, control: &Control<'_>) -> Result<(), Error> {
        if self.period.is_some() {
            return Ok(());
        }
        let target = if self.shortcut {
            limit.min(self.next_check)
        } else {
            limit
        };
        self.compute_to(target, control)?;
        if self.shortcut && self.len() >= self.next_check {
            self.check_period();
        }
        Ok(())
    }

    /// Extends the computation until the period is proved, as far as the theorem needs
    /// (jumping straight to the length a candidate period needs, doubling otherwise),
    /// but not past `max_len` heaps.
    ///
    /// # Errors
    /// [`Error::TooLarge`] if no period is proved within `max_len` heaps (the message
    /// names the best candidate); [`Error::Cancelled`].
    pub fn prove(&mut self, max_len: u64, control: &Control<'_>) -> Result<Period, Error> {
        loop {
            if let Some(period) = self.period {
                return Ok(period);
            }
            if self.len() >= self.next_check {
                self.check_period();
                continue;
            }
            if self.len() >= max_len {
                let candidate = self.candidate();
                return Err(Error::TooLarge {
                    what: format!(
                        "no period of {} proved within {}{}",
                        self.rules,
                        crate::number::count(self.len() as u128, "heap", "heaps"),
                        candidate.map_or(String::new(), |c| format!(
                            "; candidate {c}, proof needs {} heaps",
                            required_len(&self.rules, c.preperiod, c.period)
                        ))
                    ),
                    need: None,
                });
            }
            let target = self.next_check.min(max_len);
            self.compute_to(target, control)?;
            if self.len() < self.next_check {
                // Stopped at max_len: one last look.
                self.check_period();
                if self.period.is_none() {
                    self.next_check = u64::MAX;
                }
            }
        }
    }

    /// Room for `len` values in all, so that a long computation does not double its
    /// memory while the table grows.
    fn reserve(&mut self, len: u64) {
        let Ok(len) = usize::try_from(len) else {
            return;
        };
        fn room<T>(g: &mut Vec<T>, len: usize) {
            // Only a saving: when the memory is not there at once, the table grows as it goes.
            let _ = g.try_reserve_exact(len.saturating_sub(g.len()));
        }
        match &mut self.engine {
            Engine::Narrow(e) => room(&mut e.g, len),
            Engine::Wide(e) => room(&mut e.g, len),
            Engine::Direct(e) => room(&mut e.g, len),
            Engine::Plain(g) => room(g, len),
        }
    }

    fn compute_to(&mut self, len: u64, control: &Control<'_>) -> Result<(), Error> {
        let len = usize::try_from(len).map_err(|_| Error::Overflow)?;
        let max_work = self.max_work;
        let rules = self.rules.to_string();
        let over = move |heap: usize| {
            Error::over(
                crate::Limit::Work,
                format!(
                    "the values of {rules} past heap {heap} take more than {:.1e} steps (no sparse space there)",
                    max_work as f64
                ),
                None,
                None,
            )
        };
        match &mut self.engine {
            Engine::Narrow(e) => match run(e, len, control, max_work, &over)? {
                Ok(()) => Ok(()),
                Err(NeedsWider) => {
                    let engine = std::mem::replace(&mut self.engine, Engine::Plain(Vec::new()));
                    let Engine::Narrow(narrow) = engine else {
                        unreachable!()
                    };
                    self.engine = Engine::Wide(narrow.widen());
                    self.compute_to(len as u64, control)
                }
            },
            Engine::Wide(e) => match run(e, len, control, max_work, &over)? {
                Ok(()) => Ok(()),
                Err(NeedsWider) => Err(too_big(e.g.len() as u64)),
            },
            Engine::Direct(e) => {
                let Rules::Code(code) = &self.rules else {
                    unreachable!()
                };
                e.extend(code, len, control)
            }
            Engine::Plain(g) => {
                let Rules::Subtraction(set) = &self.rules else {
                    unreachable!()
                };
                naive::subtraction(set, g, len, control)
            }
        }
    }

    fn copy_period(&mut self, period: Period, len: u64) {
        let (s, p) = (period.preperiod as usize, period.period as usize);
        let from = self.len();
        // Copies whole numbers of periods at a time: O(log) calls.
        fn fill<T: Copy>(g: &mut Vec<T>, s: usize, p: usize, len: usize) {
            g.reserve(len.saturating_sub(g.len()));
            while g.len() < len {
                let cur = g.len();
                let span = ((cur - s) / p).max(1) * p;
                let take = span.min(len - cur);
                g.extend_from_within(cur - span..cur - span + take);
            }
        }
        let len_usize = len as usize;
        match &mut self.engine {
            Engine::Narrow(e) => fill(&mut e.g, s, p, len_usize),
            Engine::Wide(e) => fill(&mut e.g, s, p, len_usize),
            Engine::Direct(e) => fill(&mut e.g, s, p, len_usize),
            Engine::Plain(g) => fill(g, s, p, len_usize),
        }
        self.copied += len - from;
    }

    /// Looks for a provable period in what is computed; plans the next look.
    fn check_period(&mut self) {
        let len = self.len();
        let rules = &self.rules;
        let found = self.least_period(|s, p| required_len(rules, s, p) <= len);
        if let Some((s, p)) = found {
            self.period = Some(Period {
                preperiod: s,
                period: p,
                saltus: 0,
                proved: true,
                checked_up_to: len - 1,
            });
            return;
        }
        // Jump straight to the length a plausible candidate needs when that is nearer
        // than doubling; a wrong guess costs no more than the doubling would.
        let doubled = len.saturating_mul(2).max(FIRST_CHECK);
        let plausible = self.least_period(|s, p| {
            let stretch = len - s;
            stretch >= 2 * p && 16 * stretch >= len && required_len(rules, s, p) < doubled
        });
        self.next_check = match plausible {
            Some((s, p)) => required_len(rules, s, p).max(len + 1),
            None => doubled,
        };
    }

    /// The least period the values so far show (not proved).
    fn candidate(&self) -> Option<Period> {
        let len = self.len();
        let (s, p) = self.least_period(|s, p| {
            let stretch = len - s;
            stretch >= 2 * p && 2 * stretch >= len
        })?;
        Some(Period {
            preperiod: s,
            period: p,
            saltus: 0,
            proved: false,
            checked_up_to: len - 1,
        })
    }

    fn least_period(&self, accept: impl FnMut(u64, u64) -> bool) -> Option<(u64, u64)> {
        let len = self.len() as usize;
        match &self.engine {
            Engine::Narrow(e) => least_period_by(len, |i| u64::from(e.g[i]), accept),
            Engine::Wide(e) => least_period_by(len, |i| u64::from(e.g[i]), accept),
            Engine::Direct(e) => least_period_by(len, |i| u64::from(e.g[i]), accept),
            Engine::Plain(g) => least_period_by(len, |i| u64::from(g[i]), accept),
        }
    }
}

fn too_big(n: u64) -> Error {
    Error::Unsupported(format!(
        "the Grundy value of heap {n} exceeds 65535; values are stored in two bytes"
    ))
}

/// Steps the engine to `len` heaps; the inner result says whether values got too wide.
/// Heaps between two looks at the cancel flag: a heap of a code without a sparse space
/// costs O(n), so a look every [`CHECK_EVERY`] heaps could come minutes late.
const WORK_CHECK: usize = 1 << 10;

fn run<V: sparse::Nimber>(
    e: &mut Sparse<V>,
    len: usize,
    control: &Control<'_>,
    max_work: u64,
    over: &dyn Fn(usize) -> Error,
) -> Result<Result<(), NeedsWider>, Error> {
    while e.g.len() < len {
        let n = e.g.len();
        control.check()?;
        if n.is_multiple_of(CHECK_EVERY) {
            control.report("grundy sequence", n as u64);
        }
        let stop = len.min((n / WORK_CHECK + 1) * WORK_CHECK);
        while e.g.len() < stop {
            if let Err(w) = e.step() {
                return Ok(Err(w));
            }
            // A heap without a sparse space can cost millions of steps: looked at after each.
            if e.work() > max_work {
                return Err(over(e.g.len()));
            }
        }
    }
    Ok(Ok(()))
}

/// The Grundy values of heaps `0..len` (one byte per heap while values stay below 256,
/// two after), copying from the period as soon as it is proved.
///
/// # Errors
/// [`Error::Cancelled`]; [`Error::Unsupported`] if a value exceeds 65535.
pub fn grundy_sequence(rules: &Rules, len: u64, control: &Control<'_>) -> Result<Values, Error> {
    let mut solver = Solver::new(rules);
    solver.extend_to(len, control)?;
    let mut values = solver.into_values();
    values.truncate(len as usize);
    Ok(values)
}

/// The Grundy values of heaps `0..len` of a game given by its options.
///
/// # Complexity
/// O(total number of options); two bytes per heap while computing.
///
/// # Errors
/// [`Error::Unsupported`] if an option leaves a heap that is not smaller, or a value
/// exceeds 65535; [`Error::Cancelled`].
pub fn grundy_of_game<G: HeapGame + ?Sized>(
    game: &G,
    len: u64,
    control: &Control<'_>,
) -> Result<Values, Error> {
    let len = usize::try_from(len).map_err(|_| Error::Overflow)?;
    let mut g = Vec::with_capacity(len);
    naive::game(game, &mut g, len, control)?;
    Ok(Values::from_u16(g))
}

/// The least period of the game and its pre-period, proved (Guy–Smith for codes, a
/// repeated state for subtraction sets), computing as many heaps as the proof needs but
/// at most `control.max_positions`.
///
/// # Errors
/// [`Error::TooLarge`] if no period is proved within the limit; [`Error::Cancelled`].
pub fn prove_period(rules: &Rules, control: &Control<'_>) -> Result<Period, Error> {
    Solver::new(rules).prove(control.max_positions, control)
}

/// [`prove_period`] for an octal or hexadecimal code.
///
/// # Errors
/// As [`prove_period`].
pub fn prove_octal_period(code: &Code, control: &Control<'_>) -> Result<Period, Error> {
    prove_period(&Rules::Code(code.clone()), control)
}

/// [`prove_period`] for a subtraction set. Always succeeds given room: values are at most
/// `|S|`, so some window of `max S` values repeats.
///
/// # Errors
/// As [`prove_period`], and [`Error::Unsupported`] for an empty set.
pub fn prove_subtraction_period(set: &[u64], control: &Control<'_>) -> Result<Period, Error> {
    prove_period(&Rules::subtraction(set)?, control)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_without_a_sparse_space_is_stopped_by_its_budget_of_steps() {
        // Ten digits 7: every heap's splits are searched in full, O(n) a heap; with no
        // budget this runs for minutes before its proof budget of heaps is reached.
        let rules: Rules = "0.7777777777".parse().unwrap();
        let start = std::time::Instant::now();
        let mut solver = Solver::new(&rules).with_max_work(1 << 24);
        match solver.prove(1 << 20, &Control::default()) {
            Err(Error::OverLimit {
                limit: crate::Limit::Work,
                what,
                ..
            }) => {
                assert!(what.contains("no sparse space"), "{what}");
            }
            other => panic!("{other:?}"),
        }
        assert!(solver.work() > 1 << 24);
        assert!(solver.len() < 1 << 20);
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        // Kayles proves its period well within the same budget.
        let mut kayles = Solver::new(&"0.77".parse().unwrap()).with_max_work(1 << 24);
        assert_eq!(
            kayles.prove(1 << 20, &Control::default()).unwrap().period,
            12
        );
    }
}
