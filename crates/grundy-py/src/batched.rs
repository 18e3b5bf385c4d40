//! Games defined in Python whose positions are integers, explored in batches.
//!
//! A position is a *code*, an integer from 0 to `size - 1` (at most 2⁶³ - 1: NumPy's
//! `int64`; the Python half maps tuples of small ints to codes by a stated shape). The
//! game's `moves_many(codes)` is called once per batch of up to `batch_size` positions
//! (fewer where they have many moves: about [`CHILDREN_PER_BATCH`] children a call) and
//! returns `(offsets, children)` in CSR form: the children of the `j`-th position are
//! `children[offsets[j]..offsets[j + 1]]`. Both are read as buffers of integers (NumPy
//! arrays, `array.array`, anything with the buffer protocol), and every code is interned
//! here (a dense table by code, or a hash map of `u64`: [`Index`]), so exploration makes
//! no Python object per move, and
//! calls Python once per batch instead of once per position. `terminal_many` and
//! `to_move_many`, where given, are batched the same way. The graph then goes to the same
//! solve as the plain path ([`Solved`]).
//!
//! Every number Python hands over is checked before use (its type, its range, the
//! offsets' shape), and the errors are `grundy.GameError`s naming the position.

use std::collections::hash_map::Entry;

use grundy::explore::Csr;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyMemoryView, PyTuple};
use rustc_hash::FxHashMap;

use crate::games::{show, wrap, Ends, GameError, GameTooLarge, IntoGameError, Solved, PLAY_ON};

/// The largest number of codes a game may have: codes must fit NumPy's `int64`.
pub(crate) const MAX_SIZE: u64 = 1 << 63;

/// A one-dimensional buffer of integers from Python, as bytes (a `memoryview`'s
/// `tobytes()`: one copy, in C order), read element by element.
pub(crate) struct Ints<'a> {
    bytes: &'a [u8],
    /// Bytes per element: 1, 2, 4 or 8.
    width: usize,
    signed: bool,
    /// Whether the elements are little-endian (else big-endian).
    little: bool,
}

impl Ints<'_> {
    pub(crate) fn len(&self) -> usize {
        self.bytes.len() / self.width
    }

    /// `f` on elements `from..to` in order, stopping at its first error: one loop per
    /// element type, so the hot loop over children has no per-element dispatch.
    #[inline]
    pub(crate) fn each<E>(
        &self,
        from: usize,
        to: usize,
        mut f: impl FnMut(i128) -> Result<(), E>,
    ) -> Result<(), E> {
        let bytes = &self.bytes[from * self.width..to * self.width];
        macro_rules! run {
            ($t:ty, $read:ident) => {{
                for raw in bytes.chunks_exact(std::mem::size_of::<$t>()) {
                    f(i128::from(<$t>::$read(
                        raw.try_into().expect("whole elements"),
                    )))?;
                }
                Ok(())
            }};
        }
        match (self.width, self.signed, self.little) {
            (8, true, true) => run!(i64, from_le_bytes),
            (8, true, false) => run!(i64, from_be_bytes),
            (8, false, true) => run!(u64, from_le_bytes),
            (8, false, false) => run!(u64, from_be_bytes),
            (4, true, true) => run!(i32, from_le_bytes),
            (4, true, false) => run!(i32, from_be_bytes),
            (4, false, true) => run!(u32, from_le_bytes),
            (4, false, false) => run!(u32, from_be_bytes),
            (2, true, true) => run!(i16, from_le_bytes),
            (2, true, false) => run!(i16, from_be_bytes),
            (2, false, true) => run!(u16, from_le_bytes),
            (2, false, false) => run!(u16, from_be_bytes),
            (1, true, _) => run!(i8, from_le_bytes),
            _ => run!(u8, from_le_bytes),
        }
    }

    /// The `i`-th element (`i < len()`).
    #[inline]
    pub(crate) fn get(&self, i: usize) -> i128 {
        let at = i * self.width;
        let b = &self.bytes[at..at + self.width];
        macro_rules! read {
            ($t:ty) => {{
                let raw = b.try_into().expect("width bytes");
                i128::from(if self.little {
                    <$t>::from_le_bytes(raw)
                } else {
                    <$t>::from_be_bytes(raw)
                })
            }};
        }
        match (self.width, self.signed) {
            (8, true) => read!(i64),
            (8, false) => read!(u64),
            (4, true) => read!(i32),
            (4, false) => read!(u32),
            (2, true) => read!(i16),
            (2, false) => read!(u16),
            (1, true) => read!(i8),
            _ => read!(u8),
        }
    }
}

/// What a buffer holds, for messages: its NumPy dtype where it has one, else its format.
fn kind_of(obj: &Bound<'_, PyAny>, format: &str) -> String {
    match obj
        .getattr("dtype")
        .and_then(|d| d.str().map(|s| s.to_string()))
    {
        Ok(dtype) => format!("dtype {dtype}"),
        Err(_) => format!("format '{format}'"),
    }
}

/// `obj` as bytes of integers: checks that it has the buffer protocol, one dimension and
/// an integer element type, and copies it once. `what` names it in messages.
fn int_buffer<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<(Bound<'py, PyBytes>, Layout)> {
    let view = PyMemoryView::from(obj).map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} is {}, not a buffer of integers: give a NumPy integer array or an array.array",
            show(obj)
        ))
    })?;
    let ndim: usize = view.getattr("ndim")?.extract()?;
    if ndim != 1 {
        return Err(PyValueError::new_err(format!(
            "{what} has {ndim} dimensions: it must be one-dimensional"
        )));
    }
    let format: String = view.getattr("format")?.extract()?;
    let width: usize = view.getattr("itemsize")?.extract()?;
    // struct-module codes: an optional byte-order mark, then one letter.
    let (order, letter) = match format.as_bytes() {
        [c] => (b'@', *c),
        [o @ (b'@' | b'=' | b'<' | b'>' | b'!'), c] => (*o, *c),
        _ => (b'?', b'?'),
    };
    let signed = match letter {
        b'b' | b'h' | b'i' | b'l' | b'q' | b'n' => true,
        b'B' | b'H' | b'I' | b'L' | b'Q' | b'N' => false,
        _ => {
            return Err(PyTypeError::new_err(format!(
                "{what} holds {}: it must hold integers (a NumPy int64 array, say)",
                kind_of(obj, &format)
            )))
        }
    };
    if order == b'?' || ![1, 2, 4, 8].contains(&width) {
        return Err(PyTypeError::new_err(format!(
            "{what} holds {}: integers of 1, 2, 4 or 8 bytes are read",
            kind_of(obj, &format)
        )));
    }
    let little = match order {
        b'<' => true,
        b'>' | b'!' => false,
        _ => cfg!(target_endian = "little"),
    };
    let bytes = view.call_method0("tobytes")?.cast_into::<PyBytes>()?;
    Ok((
        bytes,
        Layout {
            width,
            signed,
            little,
        },
    ))
}

/// How to read the elements of a buffer's bytes.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    width: usize,
    signed: bool,
    little: bool,
}

pub(crate) fn ints<'a>(bytes: &'a Bound<'_, PyBytes>, layout: Layout) -> Ints<'a> {
    Ints {
        bytes: bytes.as_bytes(),
        width: layout.width,
        signed: layout.signed,
        little: layout.little,
    }
}

/// Games with at most this many codes index them in a table (4 bytes a code, its pages
/// touched only where codes are met) instead of a hash map.
const DENSE_MAX: u64 = 1 << 24;

/// Code → id: `id + 1` by code (0 for none) when the codes are few, else a hash map.
enum Index {
    Dense(Vec<u32>),
    Hashed(FxHashMap<u64, u32>),
}

impl Index {
    fn new(size: u64) -> Index {
        if size <= DENSE_MAX {
            // Zeroed memory: the system hands over pages as they are first written.
            Index::Dense(vec![0; size as usize])
        } else {
            Index::Hashed(FxHashMap::default())
        }
    }

    fn get(&self, code: u64) -> Option<u32> {
        match self {
            Index::Dense(slots) => match slots.get(usize::try_from(code).ok()?) {
                Some(&slot) if slot > 0 => Some(slot - 1),
                _ => None,
            },
            Index::Hashed(ids) => ids.get(&code).copied(),
        }
    }

    /// The id of `code` (below the size), given the next one (`codes.len()`, pushed)
    /// if it is new; `None` if it is new and there are `max_positions` already.
    #[inline]
    fn intern(&mut self, code: u64, codes: &mut Vec<u64>, max_positions: u64) -> Option<u32> {
        let fresh = |codes: &mut Vec<u64>| {
            if codes.len() as u64 >= max_positions {
                return None;
            }
            codes.push(code);
            Some(codes.len() as u32 - 1)
        };
        match self {
            Index::Dense(slots) => {
                let slot = &mut slots[code as usize];
                if *slot == 0 {
                    *slot = fresh(codes)? + 1;
                }
                Some(*slot - 1)
            }
            Index::Hashed(ids) => match ids.entry(code) {
                Entry::Occupied(e) => Some(*e.get()),
                Entry::Vacant(e) => Some(*e.insert(fresh(codes)?)),
            },
        }
    }
}

/// About how many children one `moves_many` call should give: a game's arrays of that
/// many `int64` (and NumPy's temporaries making them) stay in the processor's cache and
/// are reused by the allocator, where a batch of a few MiB is fresh memory each call (its
/// pages faulted in, then handed back): Fibonacci nim to 1000, about 190 moves a
/// position, spent 0.26 s in `moves_many` by 1024 positions a call against 0.08 s by
/// this many children a call.
const CHILDREN_PER_BATCH: usize = 1 << 16;

/// Positions in the next batch, at most `batch_size`, after a batch of `positions` that
/// gave `children`: as many as make about [`CHILDREN_PER_BATCH`] children at the last
/// batch's moves per position, and at least one.
fn batch_take(batch_size: usize, positions: usize, children: usize) -> usize {
    if children == 0 {
        return batch_size;
    }
    let fit = CHILDREN_PER_BATCH.saturating_mul(positions) / children;
    fit.clamp(1, batch_size)
}

/// What `terminal_many` and `to_move_many` must give, for their messages.
pub(crate) const TERMINAL_RULE: &str =
    "it must give 0 (play on), 1 (a win), 2 (a loss) or 3 (a draw) for the player to move";
pub(crate) const TO_MOVE_RULE: &str =
    "it must give 0 (the first player) or 1 (the second) for each position";

/// The positions of a batched game by id, and the map from code to id.
#[pyclass(module = "grundy._grundy", frozen)]
pub struct Coded {
    codes: Vec<u64>,
    ids: Index,
}

#[pymethods]
impl Coded {
    fn __len__(&self) -> usize {
        self.codes.len()
    }

    /// The code of position `#i`.
    fn code(&self, i: usize) -> PyResult<u64> {
        self.codes.get(i).copied().ok_or_else(|| {
            PyIndexError::new_err(format!("no position #{i}: there are {}", self.codes.len()))
        })
    }

    /// The id of the position with this code, `None` if it was not reached.
    fn id(&self, code: &Bound<'_, PyAny>) -> Option<u32> {
        code.extract::<u64>().ok().and_then(|c| self.ids.get(c))
    }
}

fn code_bytes(codes: &[u64]) -> Vec<u8> {
    codes.iter().flat_map(|c| c.to_ne_bytes()).collect()
}

/// The user's functions and how to talk to them.
pub(crate) struct Calls<'py> {
    pub(crate) py: Python<'py>,
    /// Bytes of `int64` codes → the array handed to the game (NumPy's, else `array`).
    pub(crate) as_codes: Bound<'py, PyAny>,
    /// A code → the position's repr, for messages.
    pub(crate) show_code: Bound<'py, PyAny>,
}

impl<'py> Calls<'py> {
    /// How a message names the position with this code.
    pub(crate) fn name(&self, code: u64) -> String {
        self.show_code
            .call1((code,))
            .and_then(|s| s.extract::<String>())
            .unwrap_or_else(|_| format!("the position of code {code}"))
    }

    /// `f(codes)` for a batch: the user's exceptions become `GameError`s naming it.
    fn call(
        &self,
        f: &Bound<'py, PyAny>,
        name: &str,
        batch: &[u64],
    ) -> PyResult<Bound<'py, PyAny>> {
        let arg = self
            .as_codes
            .call1((PyBytes::new(self.py, &code_bytes(batch)),))?;
        f.call1((arg,)).map_err(|e| {
            let context = self.batch(name, batch);
            wrap(self.py, e, context)
        })
    }

    /// "name(...) on a batch of n positions, P first", for messages.
    fn batch(&self, name: &str, batch: &[u64]) -> String {
        match batch {
            [one] => format!("{name}([{}])", self.name(*one)),
            _ => format!(
                "{name} on a batch of {} positions, {} first,",
                batch.len(),
                batch.first().map_or_else(String::new, |&c| self.name(c))
            ),
        }
    }

    /// One small value per position of `batch` from `f` (`terminal_many`, `to_move_many`),
    /// each checked against `allowed`; `rule` says what they mean.
    pub(crate) fn per_position(
        &self,
        f: &Bound<'py, PyAny>,
        name: &str,
        batch: &[u64],
        allowed: std::ops::RangeInclusive<i128>,
        rule: &str,
    ) -> PyResult<Vec<u8>> {
        let got = self.call(f, name, batch)?;
        let (bytes, layout) = int_buffer(&got, &format!("what {name} returned"))
            .map_err(|e| e.into_game_error(self.py))?;
        let values = ints(&bytes, layout);
        if values.len() != batch.len() {
            return Err(GameError::new_err(format!(
                "{name} gave {} values for a batch of {} positions: it must give one per position",
                values.len(),
                batch.len()
            )));
        }
        (0..batch.len())
            .map(|i| {
                let v = values.get(i);
                if allowed.contains(&v) {
                    Ok(v as u8)
                } else {
                    Err(GameError::new_err(format!(
                        "{name} gave {v} for {}: {rule}",
                        self.name(batch[i])
                    )))
                }
            })
            .collect()
    }
}

/// Explores a batched game from the code `start` and solves it. Returns `(coded, table)`:
/// the positions' codes by id (the start is 0) with the map back, and the solved table.
///
/// `size` is the number of codes (every code is below it; at most 2⁶³). `as_codes` makes
/// the array handed to the game from bytes of `int64`; `show_code` names a position in
/// messages.
#[pyfunction]
#[pyo3(signature = (start, size, moves_many, to_move_many, terminal_many, as_codes, show_code, max_positions, max_moves, batch_size))]
#[allow(clippy::too_many_arguments)]
fn explore_batched<'py>(
    py: Python<'py>,
    start: u64,
    size: u64,
    moves_many: Bound<'py, PyAny>,
    to_move_many: Option<Bound<'py, PyAny>>,
    terminal_many: Option<Bound<'py, PyAny>>,
    as_codes: Bound<'py, PyAny>,
    show_code: Bound<'py, PyAny>,
    max_positions: u64,
    max_moves: u64,
    batch_size: u64,
) -> PyResult<(Coded, Solved)> {
    if max_positions == 0 || max_positions >= u64::from(u32::MAX) {
        return Err(PyValueError::new_err(format!(
            "max_positions must be between 1 and {}, not {max_positions}",
            u32::MAX - 1
        )));
    }
    if size == 0 || size > MAX_SIZE {
        return Err(PyValueError::new_err(format!(
            "a batched game has from 1 to 2**63 codes, not {size}"
        )));
    }
    if start >= size {
        return Err(PyValueError::new_err(format!(
            "the start's code {start} is not below the number of codes, {size}"
        )));
    }
    if batch_size == 0 {
        return Err(PyValueError::new_err("batch_size must be at least 1"));
    }
    let calls = Calls {
        py,
        as_codes,
        show_code,
    };
    let mut codes: Vec<u64> = Vec::new();
    let mut ids = Index::new(size);
    ids.intern(start, &mut codes, max_positions);
    let mut offsets: Vec<u64> = vec![0];
    let mut targets: Vec<u32> = Vec::new();
    let mut ends = Ends {
        code: Vec::new(),
        stop: Vec::new(),
    };
    let mut mover: Vec<u8> = Vec::new();
    let mut batch: Vec<u64> = Vec::new();
    let mut play: Vec<u64> = Vec::new();
    let mut next = 0usize;
    let batch_size = usize::try_from(batch_size).unwrap_or(usize::MAX);
    // Positions in the next batch: `batch_size`, fewer when the last batch's positions
    // had many moves (see `CHILDREN_PER_BATCH`).
    let mut take = batch_size;
    while next < codes.len() {
        py.check_signals()?;
        let end = codes.len().min(next.saturating_add(take));
        let edges_before = targets.len();
        batch.clear();
        batch.extend_from_slice(&codes[next..end]);
        let code_of = match &terminal_many {
            Some(f) => calls.per_position(f, "terminal_many", &batch, 0..=3, TERMINAL_RULE)?,
            None => vec![PLAY_ON; batch.len()],
        };
        if let Some(f) = &to_move_many {
            mover.extend(calls.per_position(f, "to_move_many", &batch, 0..=1, TO_MOVE_RULE)?);
        }
        play.clear();
        play.extend(
            batch
                .iter()
                .zip(&code_of)
                .filter(|&(_, &c)| c == PLAY_ON)
                .map(|(&p, _)| p),
        );
        // The moves of the positions played on, checked whole before any is interned.
        let held = if play.is_empty() {
            None
        } else {
            Some(moves_of(&calls, &moves_many, &play, max_moves)?)
        };
        let lists = held
            .as_ref()
            .map(|(o, c, lo, lc)| (ints(o, *lo), ints(c, *lc)));
        let mut j = 0;
        for (&parent, &code) in batch.iter().zip(&code_of) {
            ends.code.push(code);
            ends.stop.push(0);
            if let (PLAY_ON, Some((offs, kids))) = (code, &lists) {
                // Checked by moves_of: 0 ≤ offs[j] ≤ offs[j + 1] ≤ kids.len().
                let (from, to) = (offs.get(j) as usize, offs.get(j + 1) as usize);
                j += 1;
                targets.reserve(to - from);
                let bad = kids.each(from, to, |child| {
                    if child < 0 || child >= i128::from(size) {
                        return Err(Bad::Range(child));
                    }
                    let child = child as u64;
                    let id = ids
                        .intern(child, &mut codes, max_positions)
                        .ok_or(Bad::Full(child))?;
                    targets.push(id);
                    Ok(())
                });
                match bad {
                    Ok(()) => {}
                    Err(Bad::Range(child)) => return Err(out_of_range(&calls, child, parent, size)),
                    Err(Bad::Full(child)) => {
                        return Err(GameTooLarge::new_err(format!(
                            "the game has more than {max_positions} positions (max_positions); the last one reached is {}",
                            calls.name(child)
                        )))
                    }
                }
            }
            offsets.push(targets.len() as u64);
        }
        take = batch_take(batch_size, batch.len(), targets.len() - edges_before);
        next = end;
    }
    let graph =
        Csr::from_parts(offsets, targets).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let impartial = to_move_many.is_none() && terminal_many.is_none();
    let mover = to_move_many.is_some().then_some(mover);
    let solved = py.detach(|| Solved::new(graph, ends, mover, None, impartial));
    let solved = solved.map_err(|e| match e {
        grundy::Error::Cycle { vertex } if (vertex as usize) < codes.len() => {
            GameError::new_err(format!(
                "the game has a cycle through {}",
                calls.name(codes[vertex as usize])
            ))
        }
        e => GameError::new_err(e.to_string()),
    })?;
    Ok((Coded { codes, ids }, solved))
}

/// A child's code past the game's codes, as a `GameError` naming its parent.
pub(crate) fn out_of_range(calls: &Calls<'_>, child: i128, parent: u64, size: u64) -> PyErr {
    GameError::new_err(format!(
        "moves_many gave {child} as a move of {}: codes run from 0 to {}",
        calls.name(parent),
        size - 1
    ))
}

/// Why a child was refused: a code out of range, or one past `max_positions`.
enum Bad {
    Range(i128),
    Full(u64),
}

/// `moves_many(play)` read and checked: `(offsets, children)` as bytes with their
/// layouts, the offsets one more than the positions, from 0, never decreasing, ending
/// at the number of children, no position with more than `max_moves` moves.
pub(crate) fn moves_of<'py>(
    calls: &Calls<'py>,
    moves_many: &Bound<'py, PyAny>,
    play: &[u64],
    max_moves: u64,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, Layout, Layout)> {
    let py = calls.py;
    let got = calls.call(moves_many, "moves_many", play)?;
    let pair = got
        .cast::<PyTuple>()
        .ok()
        .filter(|t| t.len() == 2)
        .ok_or_else(|| {
            GameError::new_err(format!(
                "{} returned {}: it must return (offsets, children), two arrays",
                calls.batch("moves_many", play),
                show(&got)
            ))
        })?;
    let (offs, lo) = int_buffer(&pair.get_item(0)?, "the offsets moves_many returned")
        .map_err(|e| e.into_game_error(py))?;
    let (kids, lc) = int_buffer(&pair.get_item(1)?, "the children moves_many returned")
        .map_err(|e| e.into_game_error(py))?;
    let o = ints(&offs, lo);
    let total = ints(&kids, lc).len() as i128;
    if o.len() != play.len() + 1 {
        return Err(GameError::new_err(format!(
            "moves_many gave {} offsets for a batch of {} positions: it must give one more than the positions (0 first, the number of children last)",
            o.len(),
            play.len()
        )));
    }
    if o.get(0) != 0 {
        return Err(GameError::new_err(format!(
            "moves_many's offsets start at {}, not 0",
            o.get(0)
        )));
    }
    for (j, &parent) in play.iter().enumerate() {
        let (from, to) = (o.get(j), o.get(j + 1));
        if to < from || to > total {
            return Err(GameError::new_err(format!(
                "moves_many's offsets are ragged at {} (position {j} of the batch): offsets[{j}] = {from}, offsets[{}] = {to}, with {total} children; they must not decrease nor pass the number of children",
                calls.name(parent),
                j + 1
            )));
        }
        if to - from > i128::from(max_moves) {
            return Err(GameError::new_err(format!(
                "moves_many gave {} moves for {}, more than {max_moves} (max_moves)",
                to - from,
                calls.name(parent)
            )));
        }
    }
    let last = o.get(play.len());
    if last != total {
        return Err(GameError::new_err(format!(
            "moves_many's offsets end at {last}, but it gave {total} children: the last offset must be the number of children"
        )));
    }
    Ok((offs, kids, lo, lc))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Coded>()?;
    m.add_function(wrap_pyfunction!(explore_batched, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (no dependency needed for these checks).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 11
        }
    }

    #[test]
    fn each_reads_every_layout_as_get_does() {
        let mut rng = Lcg(7);
        for width in [1, 2, 4, 8] {
            for signed in [false, true] {
                for little in [false, true] {
                    let bytes: Vec<u8> = (0..width * 37).map(|_| rng.next() as u8).collect();
                    let ints = Ints {
                        bytes: &bytes,
                        width,
                        signed,
                        little,
                    };
                    // The reference: the bytes as a number, by hand.
                    let want: Vec<i128> = bytes
                        .chunks(width)
                        .map(|c| {
                            let mut be = c.to_vec();
                            if little {
                                be.reverse();
                            }
                            let raw = be.iter().fold(0u128, |acc, &b| acc << 8 | u128::from(b));
                            let bits = 8 * width as u32;
                            if signed && raw >> (bits - 1) == 1 {
                                raw as i128 - (1i128 << bits)
                            } else {
                                raw as i128
                            }
                        })
                        .collect();
                    let got: Vec<i128> = (0..ints.len()).map(|i| ints.get(i)).collect();
                    assert_eq!(
                        got, want,
                        "get, width {width} signed {signed} little {little}"
                    );
                    let mut each = Vec::new();
                    ints.each(3, 30, |v| {
                        each.push(v);
                        Ok::<(), ()>(())
                    })
                    .unwrap();
                    assert_eq!(each, want[3..30], "each, width {width} signed {signed}");
                }
            }
        }
    }

    #[test]
    fn batches_hold_about_the_children_asked_for() {
        // Few moves a position: the batch the caller asked for.
        assert_eq!(batch_take(1024, 1024, 4096), 1024);
        assert_eq!(batch_take(1024, 10, 0), 1024);
        // Many: fewer positions, about CHILDREN_PER_BATCH children.
        assert_eq!(batch_take(1024, 1024, 1024 * 256), CHILDREN_PER_BATCH / 256);
        // Never none, never more than asked.
        assert_eq!(batch_take(1024, 1, CHILDREN_PER_BATCH * 4), 1);
        assert_eq!(batch_take(3, 1, 1), 3);
        assert_eq!(batch_take(usize::MAX, usize::MAX, 1), usize::MAX);
    }

    #[test]
    fn dense_and_hashed_indexes_intern_alike() {
        let mut rng = Lcg(13);
        for case in 0..200 {
            let size = 1 + rng.next() % 300;
            let limit = 1 + rng.next() % 100;
            let sequence: Vec<u64> = (0..rng.next() % 500).map(|_| rng.next() % size).collect();
            let mut dense = (Index::Dense(vec![0; size as usize]), Vec::new());
            let mut hashed = (Index::Hashed(FxHashMap::default()), Vec::new());
            // The reference: ids by first appearance, refused past the limit.
            let mut seen: Vec<u64> = Vec::new();
            for &code in &sequence {
                let want = match seen.iter().position(|&c| c == code) {
                    Some(i) => Some(i as u32),
                    None if (seen.len() as u64) < limit => {
                        seen.push(code);
                        Some(seen.len() as u32 - 1)
                    }
                    None => None,
                };
                assert_eq!(
                    dense.0.intern(code, &mut dense.1, limit),
                    want,
                    "case {case}"
                );
                assert_eq!(
                    hashed.0.intern(code, &mut hashed.1, limit),
                    want,
                    "case {case}"
                );
            }
            assert_eq!(dense.1, seen);
            assert_eq!(hashed.1, seen);
            for code in 0..size + 2 {
                let want = seen.iter().position(|&c| c == code).map(|i| i as u32);
                assert_eq!(dense.0.get(code), want);
                assert_eq!(hashed.0.get(code), want);
            }
        }
    }
}
