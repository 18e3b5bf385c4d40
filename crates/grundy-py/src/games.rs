//! Games defined in Python, explored here and solved by the library's engines.
//!
//! Exploration calls the user's functions once per position (`moves`, and `to_move`,
//! `terminal`, `gain` where given) and interns every position in a Python `dict` (the
//! position itself is the key, so hashing and equality are Python's own, at C speed) to
//! a dense id. What reaches the library is integers only: a CSR graph, per-vertex movers
//! and declared ends, per-edge gains. Then `solve::label_by_degree` labels win / loss /
//! draw with remoteness (cycles are draws), `solve::minimax_graph` gives score games'
//! margins, and `impartial::grundy_values` the Grundy values. [`solve_graph`] takes the
//! same arrays from Python directly (the OpenSpiel adapter builds them itself). Games
//! whose positions are integer codes can take the batched path instead (`batched.rs`),
//! which makes no Python object per move.
//!
//! A bug in a game is a `grundy.GameError` naming the position, with the user's
//! exception as its cause; Ctrl-C (`KeyboardInterrupt`) passes through untouched.

use grundy::explore::{Control, Csr};
use grundy::game::{Outcome, Value};
use grundy::solve::{Labels, Margins};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyList, PyString};

create_exception!(
    _grundy,
    GameError,
    PyException,
    "A game defined in Python misbehaved (or grew past its bound); the message names the position."
);
create_exception!(
    _grundy,
    GameTooLarge,
    GameError,
    "A game defined in Python grew past a limit: more positions than max_positions to explore, \
     or more than max_nodes to search."
);

/// How a position ends by the game's own rule, as the arrays carry it.
pub(crate) const PLAY_ON: u8 = 0;
pub(crate) const WIN: u8 = 1;
pub(crate) const LOSS: u8 = 2;
pub(crate) const DRAW: u8 = 3;
/// A score game's end: the points are in the stops array.
pub(crate) const STOP: u8 = 4;

/// How often (in positions) exploration looks for Ctrl-C between calls to the game.
pub(crate) const SIGNAL_EVERY: usize = 1024;

/// `repr(obj)`, cut to a readable length, for messages.
pub(crate) fn show(obj: &Bound<'_, PyAny>) -> String {
    let text = obj
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<a position whose repr fails>".into());
    if text.chars().count() > 200 {
        let cut: String = text.chars().take(197).collect();
        format!("{cut}...")
    } else {
        text
    }
}

/// The user's exception `cause`, wrapped in a `GameError` saying where it happened.
/// `KeyboardInterrupt`, `SystemExit` and the like (not `Exception`s) pass through.
pub(crate) fn wrap(py: Python<'_>, cause: PyErr, context: String) -> PyErr {
    if !cause.is_instance_of::<PyException>(py) || cause.is_instance_of::<PyKeyboardInterrupt>(py) {
        return cause;
    }
    let text = match cause.value(py).str() {
        Ok(s) => format!(
            "{}: {s}",
            cause
                .get_type(py)
                .name()
                .map_or_else(|_| "error".into(), |n| n.to_string())
        ),
        Err(_) => "an exception".into(),
    };
    let err = GameError::new_err(format!("{context} raised {text}"));
    err.set_cause(py, Some(cause));
    err
}

/// What a Python game gave for one position, as the arrays carry it.
pub(crate) struct Ends {
    /// PLAY_ON, WIN, LOSS, DRAW or STOP per vertex.
    pub(crate) code: Vec<u8>,
    /// The points a score game's end gives the player to move (0 elsewhere).
    pub(crate) stop: Vec<i64>,
}

/// The value of a declared end: an outcome word for win/loss/draw games, points for
/// score games; `None` means play on.
fn read_terminal(
    value: &Bound<'_, PyAny>,
    score: bool,
    pos: &Bound<'_, PyAny>,
) -> PyResult<(u8, i64)> {
    if value.is_none() {
        return Ok((PLAY_ON, 0));
    }
    if score {
        if !value.is_instance_of::<PyBool>() {
            if let Ok(points) = value.extract::<i64>() {
                return Ok((STOP, points));
            }
        }
        return Err(PyTypeError::new_err(format!(
            "terminal({}) returned {}: a score game's terminal must return None (play on) or an int (the points the player to move collects)",
            show(pos),
            show(value)
        )));
    }
    if let Ok(word) = value.cast::<PyString>() {
        match &*word.to_cow()? {
            "win" => return Ok((WIN, 0)),
            "loss" => return Ok((LOSS, 0)),
            "draw" => return Ok((DRAW, 0)),
            _ => {}
        }
    }
    Err(PyTypeError::new_err(format!(
        "terminal({}) returned {}: it must return None (play on) or \"win\", \"loss\" or \"draw\" (for the player to move)",
        show(pos),
        show(value)
    )))
}

/// The player to move as `to_move` gives it: 0 or 1.
fn read_mover(value: &Bound<'_, PyAny>, pos: &Bound<'_, PyAny>) -> PyResult<u8> {
    if !value.is_instance_of::<PyBool>() {
        if let Ok(p @ 0..=1) = value.extract::<u8>() {
            return Ok(p);
        }
    }
    Err(PyTypeError::new_err(format!(
        "to_move({}) returned {}: it must return 0 (the first player) or 1 (the second)",
        show(pos),
        show(value)
    )))
}

/// `terminal(pos)` read: `(PLAY_ON, 0)` to play on, a declared end, or a score game's
/// points (`STOP`, points); a bad value or an exception is a `GameError` naming `pos`.
pub(crate) fn call_terminal(
    f: &Bound<'_, PyAny>,
    pos: &Bound<'_, PyAny>,
    score: bool,
) -> PyResult<(u8, i64)> {
    let py = pos.py();
    let got = f
        .call1((pos,))
        .map_err(|e| wrap(py, e, format!("terminal({})", show(pos))))?;
    read_terminal(&got, score, pos).map_err(|e| e.into_game_error(py))
}

/// `to_move(pos)` read: 0 or 1, else a `GameError` naming `pos`.
pub(crate) fn call_to_move(f: &Bound<'_, PyAny>, pos: &Bound<'_, PyAny>) -> PyResult<u8> {
    let py = pos.py();
    let got = f
        .call1((pos,))
        .map_err(|e| wrap(py, e, format!("to_move({})", show(pos))))?;
    read_mover(&got, pos).map_err(|e| e.into_game_error(py))
}

/// `priority(pos, child)` read: an int (higher is tried first by the search; clamped to
/// 32 bits), else a `GameError` naming the move.
pub(crate) fn call_priority(
    f: &Bound<'_, PyAny>,
    pos: &Bound<'_, PyAny>,
    child: &Bound<'_, PyAny>,
) -> PyResult<i32> {
    call_int("priority", f, pos, child)
        .map(|v| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
}

/// `name(pos, child)` through `f` (`gain`, `priority`), read as an int (not a bool), else a
/// `GameError` naming the move.
pub(crate) fn call_int(
    name: &str,
    f: &Bound<'_, PyAny>,
    pos: &Bound<'_, PyAny>,
    child: &Bound<'_, PyAny>,
) -> PyResult<i64> {
    let py = pos.py();
    let got = f
        .call1((pos, child))
        .map_err(|e| wrap(py, e, format!("{name}({}, {})", show(pos), show(child))))?;
    let value = if got.is_instance_of::<PyBool>() {
        None
    } else {
        got.extract::<i64>().ok()
    };
    value.ok_or_else(|| {
        GameError::new_err(format!(
            "{name}({}, {}) returned {}: it must return an int",
            show(pos),
            show(child),
            show(&got)
        ))
    })
}

/// Calls `moves(pos)` and hands each position it gives to `visit`, in order: a list
/// read directly, any other iterable iterated; more than `max_moves` of them (an endless
/// iterator) or a value that is not iterable is a `GameError` naming `pos`.
pub(crate) fn each_move<'py>(
    moves: &Bound<'py, PyAny>,
    pos: &Bound<'py, PyAny>,
    max_moves: u64,
    mut visit: impl FnMut(Bound<'py, PyAny>) -> PyResult<()>,
) -> PyResult<()> {
    let py = pos.py();
    let listed = moves
        .call1((pos,))
        .map_err(|e| wrap(py, e, format!("moves({})", show(pos))))?;
    let mut count = 0u64;
    let mut one = |child: Bound<'py, PyAny>| -> PyResult<()> {
        count += 1;
        if count > max_moves {
            return Err(GameError::new_err(format!(
                "moves({}) gave more than {max_moves} moves (max_moves): an endless iterator, or a position listing itself without end?",
                show(pos)
            )));
        }
        visit(child)
    };
    if let Ok(list) = listed.cast::<PyList>() {
        // The common case, without an iterator object.
        let mut i = 0;
        while i < list.len() {
            one(list.get_item(i)?)?;
            i += 1;
        }
        return Ok(());
    }
    let iter = listed.try_iter().map_err(|_| {
        GameError::new_err(format!(
            "moves({}) returned {}, which is not iterable: it must give the positions after each move",
            show(pos),
            show(&listed)
        ))
    })?;
    for child in iter {
        one(child.map_err(|e| wrap(py, e, format!("moves({})", show(pos))))?)?;
    }
    Ok(())
}

/// The refusal of a game grown past `max_positions`, naming the last position reached.
pub(crate) fn too_many_positions(max_positions: u64, last: &Bound<'_, PyAny>) -> PyErr {
    GameTooLarge::new_err(format!(
        "the game has more than {max_positions} positions (max_positions); the last one reached is {}",
        show(last)
    ))
}

/// The process's resident memory in bytes, where the system tells it (Linux:
/// `/proc/self/status`); `None` elsewhere.
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// The memory an exploration may take: the process's resident memory grown by more than
/// `max_bytes` since the budget was made is refused ([`GameTooLarge`]), so that a game
/// whose positions are large objects (OpenSpiel's states) is stopped by what it takes,
/// not only by how many positions it has. Where the system does not tell the resident
/// memory, nothing is refused.
#[pyclass(module = "grundy._grundy", frozen)]
pub(crate) struct MemoryBudget {
    start: Option<u64>,
    max_bytes: u64,
}

#[pymethods]
impl MemoryBudget {
    #[new]
    pub(crate) fn new(max_bytes: u64) -> MemoryBudget {
        MemoryBudget {
            start: resident_bytes(),
            max_bytes,
        }
    }

    /// Raises `GameTooLarge` if the memory has grown past the budget, naming the
    /// `positions` reached.
    pub(crate) fn check(&self, positions: u64) -> PyResult<()> {
        let (Some(start), Some(now)) = (self.start, resident_bytes()) else {
            return Ok(());
        };
        if now.saturating_sub(start) > self.max_bytes {
            return Err(GameTooLarge::new_err(format!(
                "exploring took more than {} MiB (max_memory) at {positions} positions",
                self.max_bytes >> 20
            )));
        }
        Ok(())
    }
}

/// A child that cannot be hashed (so cannot be a position), as a `GameError`.
pub(crate) fn unhashable(cause: PyErr, pos: &Bound<'_, PyAny>, child: &Bound<'_, PyAny>) -> PyErr {
    let py = pos.py();
    wrap(
        py,
        cause,
        format!(
            "a move of {} leads to {}, which cannot be a dict key: hashing it",
            show(pos),
            show(child)
        ),
    )
    .into_game_error(py)
}

/// Explores a Python game from `start` and solves it. Returns `(positions, ids, table)`:
/// the list of positions by id (the start is 0), the dict from position to id, and the
/// solved table.
///
/// `score` says a score game (`gain` given): `terminal` then returns points. `max_moves`
/// caps the moves of one position (an endless `moves` iterator is refused there);
/// `max_memory` (bytes) the memory the exploration may take ([`MemoryBudget`]).
#[pyfunction]
#[pyo3(signature = (start, moves, to_move, terminal, gain, score, max_positions, max_moves, max_memory=u64::MAX))]
#[allow(clippy::too_many_arguments)]
fn explore_game<'py>(
    py: Python<'py>,
    start: Bound<'py, PyAny>,
    moves: Bound<'py, PyAny>,
    to_move: Option<Bound<'py, PyAny>>,
    terminal: Option<Bound<'py, PyAny>>,
    gain: Option<Bound<'py, PyAny>>,
    score: bool,
    max_positions: u64,
    max_moves: u64,
    max_memory: u64,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyDict>, Solved)> {
    let budget = MemoryBudget::new(max_memory);
    if max_positions == 0 || max_positions >= u64::from(u32::MAX) {
        return Err(PyValueError::new_err(format!(
            "max_positions must be between 1 and {}, not {max_positions}",
            u32::MAX - 1
        )));
    }
    let ids = PyDict::new(py);
    let positions = PyList::empty(py);
    if let Err(e) = ids.set_item(&start, 0u32) {
        return Err(wrap(
            py,
            e,
            format!("hashing the start position {}", show(&start)),
        )
        .into_game_error(py));
    }
    positions.append(&start)?;
    let mut offsets: Vec<u64> = vec![0];
    let mut targets: Vec<u32> = Vec::new();
    let mut gains: Vec<i64> = Vec::new();
    let mut ends = Ends {
        code: Vec::new(),
        stop: Vec::new(),
    };
    let mut mover: Vec<u8> = Vec::new();
    let mut v = 0usize;
    while v < positions.len() {
        if v.is_multiple_of(SIGNAL_EVERY) {
            py.check_signals()?;
            budget.check(positions.len() as u64)?;
        }
        let pos = positions.get_item(v)?;
        let (code, points) = match &terminal {
            Some(f) => call_terminal(f, &pos, score)?,
            None => (PLAY_ON, 0),
        };
        ends.code.push(code);
        ends.stop.push(points);
        if let Some(f) = &to_move {
            mover.push(call_to_move(f, &pos)?);
        }
        if code == PLAY_ON {
            each_move(&moves, &pos, max_moves, |child| {
                let id = match ids.get_item(&child) {
                    Ok(Some(id)) => id.extract::<u32>()?,
                    Ok(None) => {
                        let id = positions.len();
                        if id as u64 >= max_positions {
                            return Err(too_many_positions(max_positions, &child));
                        }
                        ids.set_item(&child, id as u32)?;
                        positions.append(&child)?;
                        id as u32
                    }
                    Err(e) => return Err(unhashable(e, &pos, &child)),
                };
                targets.push(id);
                if let Some(f) = &gain {
                    gains.push(call_int("gain", f, &pos, &child)?);
                }
                Ok(())
            })?;
        }
        offsets.push(targets.len() as u64);
        v += 1;
    }
    let graph =
        Csr::from_parts(offsets, targets).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mover = to_move.is_some().then_some(mover);
    let impartial = to_move.is_none() && terminal.is_none() && !score;
    let gains = score.then_some(gains);
    let solved = py.detach(|| Solved::new(graph, ends, mover, gains, impartial));
    let solved = solved.map_err(|e| {
        let vertex = match &e {
            grundy::Error::Cycle { vertex } => Some(*vertex),
            _ => None,
        };
        match vertex.and_then(|v| positions.get_item(v as usize).ok()) {
            Some(pos) => GameError::new_err(format!(
                "the game has a cycle through {}: score games must not repeat positions",
                show(&pos)
            )),
            None => GameError::new_err(e.to_string()),
        }
    })?;
    Ok((positions, ids, solved))
}

/// A `TypeError` or other error of a bad value from the game, turned into a `GameError`
/// (with the original kept as its cause).
pub(crate) trait IntoGameError {
    fn into_game_error(self, py: Python<'_>) -> PyErr;
}

impl IntoGameError for PyErr {
    fn into_game_error(self, py: Python<'_>) -> PyErr {
        if self.is_instance_of::<GameError>(py) || !self.is_instance_of::<PyException>(py) {
            return self;
        }
        let err = GameError::new_err(self.value(py).to_string());
        err.set_cause(py, Some(self));
        err
    }
}

/// A solved game over dense ids: the move graph and what each engine found.
#[pyclass(module = "grundy._grundy", frozen)]
pub struct Solved {
    graph: Csr,
    mover: Option<Vec<u8>>,
    /// Win / loss / draw games.
    labels: Option<Labels>,
    /// Score games: margins, depths and the gain of each edge.
    margins: Option<(Margins, Vec<i64>)>,
    /// Grundy values, or why there are none.
    grundy: Result<Vec<u32>, String>,
}

impl Solved {
    pub(crate) fn new(
        graph: Csr,
        ends: Ends,
        mover: Option<Vec<u8>>,
        gains: Option<Vec<i64>>,
        impartial: bool,
    ) -> Result<Solved, grundy::Error> {
        let control = Control {
            max_positions: u64::from(u32::MAX) - 1,
            ..Control::default()
        };
        let terminal = |v: u32| match ends.code[v as usize] {
            WIN => Some(Outcome::Win),
            LOSS => Some(Outcome::Loss),
            DRAW => Some(Outcome::Draw),
            _ => None,
        };
        // An acyclic graph is labelled, and its Grundy values found, in one depth-first
        // pass over the forward graph, each vertex after its children; a graph with
        // cycles needs its reverse, built once: the labelling and the Grundy values both
        // walk it.
        debug_assert!(
            !impartial || (mover.is_none() && ends.code.iter().all(|&c| c == PLAY_ON)),
            "an impartial game has no declared ends and no mover"
        );
        let acyclic = match gains {
            Some(_) => None,
            // Lost exactly at Grundy value 0: the labels and the values from one read of
            // each child.
            None if impartial => grundy::impartial::solve_acyclic(&graph)?,
            None => {
                let mut labels = grundy::solve::AcyclicLabels::new(graph.len())?;
                let done = grundy::solve::postorder_with(&graph, |v| {
                    labels.label(&graph, v, terminal, mover.as_deref())
                })?;
                done.then(|| (labels.done(), Vec::new()))
            }
        };
        let mut reverse = None;
        let (labels, margins, acyclic_grundy) = match (gains, acyclic) {
            (None, Some((labels, values))) => (Some(labels), None, Some(values)),
            (None, None) => {
                let reverse = reverse.insert(graph.reverse());
                let labels = grundy::solve::label_by_degree(
                    |v| graph.degree(v),
                    reverse,
                    terminal,
                    mover.as_deref(),
                    &control,
                )?;
                (Some(labels), None, None)
            }
            (Some(gains), _) => {
                let m = grundy::solve::minimax_graph(
                    &graph,
                    &gains,
                    |v| (ends.code[v as usize] == STOP).then(|| ends.stop[v as usize]),
                    mover.as_deref(),
                )?;
                (None, Some((m, gains)), None)
            }
        };
        let grundy = if let (true, Some(values)) = (impartial, acyclic_grundy) {
            Ok(values)
        } else if impartial {
            let reverse = reverse.unwrap_or_else(|| graph.reverse());
            grundy::impartial::grundy_values_with_reverse(&graph, &reverse).map_err(|e| match e {
                grundy::Error::Cycle { .. } => {
                    "the game has a cycle: Grundy values need an acyclic game".to_string()
                }
                e => e.to_string(),
            })
        } else {
            Err("Grundy values are for impartial games: no to_move, terminal or gain".into())
        };
        Ok(Solved {
            graph,
            mover,
            labels,
            margins,
            grundy,
        })
    }

    fn check(&self, v: u32) -> PyResult<()> {
        if (v as usize) < self.graph.len() {
            Ok(())
        } else {
            Err(PyValueError::new_err(format!(
                "no position #{v}: there are {}",
                self.graph.len()
            )))
        }
    }

    /// Whether the move from `v` to `c` keeps the turn.
    fn stays(&self, v: u32, c: u32) -> bool {
        self.mover
            .as_ref()
            .is_some_and(|m| m[v as usize] == m[c as usize])
    }

    /// The value, for the mover at `v`, of the `i`-th move from `v`.
    fn move_value(&self, v: u32, i: usize) -> Value {
        let labels = self.labels.as_ref().expect("a win/loss/draw game");
        let c = self.graph.successors(v)[i];
        labels.value(c).through(self.stays(v, c))
    }

    /// The margin, for the mover at `v`, of the `i`-th move from `v`.
    fn move_margin(&self, v: u32, i: usize) -> i64 {
        let (m, gains) = self.margins.as_ref().expect("a score game");
        let e = self.graph.offsets()[v as usize] as usize + i;
        let c = self.graph.successors(v)[i];
        // The margins were computed without overflow along every edge.
        if self.stays(v, c) {
            gains[e] + m.margin[c as usize]
        } else {
            gains[e] - m.margin[c as usize]
        }
    }
}

fn value_tuple(value: Value) -> (&'static str, Option<u32>) {
    (value.outcome().as_str(), value.remoteness())
}

#[pymethods]
impl Solved {
    fn __len__(&self) -> usize {
        self.graph.len()
    }

    /// The number of moves (edges).
    fn edge_count(&self) -> usize {
        self.graph.edge_count()
    }

    /// Whether this is a score game's table.
    fn is_score(&self) -> bool {
        self.margins.is_some()
    }

    /// The ids the moves from `v` lead to, in move order.
    fn successors(&self, v: u32) -> PyResult<Vec<u32>> {
        self.check(v)?;
        Ok(self.graph.successors(v).to_vec())
    }

    /// Who moves at `v` (0 or 1) when the game said (`to_move`); else `None`.
    fn mover(&self, v: u32) -> PyResult<Option<u8>> {
        self.check(v)?;
        Ok(self.mover.as_ref().map(|m| m[v as usize]))
    }

    /// `(outcome, remoteness, margin)` of `v` for the player to move: a score game's
    /// outcome is the margin's sign and its remoteness the depth of the best line.
    fn value(&self, v: u32) -> PyResult<(&'static str, Option<u32>, Option<i64>)> {
        self.check(v)?;
        Ok(match (&self.labels, &self.margins) {
            (Some(l), _) => {
                let (o, r) = value_tuple(l.value(v));
                (o, r, None)
            }
            (None, Some((m, _))) => {
                let margin = m.margin[v as usize];
                (
                    Outcome::of_margin(i128::from(margin)).as_str(),
                    Some(m.depth[v as usize]),
                    Some(margin),
                )
            }
            (None, None) => unreachable!("a table has labels or margins"),
        })
    }

    /// For each move from `v` in order: `(child id, outcome, remoteness, margin)` of the
    /// move for the player to move at `v`.
    #[allow(clippy::type_complexity)]
    fn move_values(&self, v: u32) -> PyResult<Vec<(u32, &'static str, Option<u32>, Option<i64>)>> {
        self.check(v)?;
        let successors = self.graph.successors(v);
        Ok((0..successors.len())
            .map(|i| {
                let c = successors[i];
                if self.labels.is_some() {
                    let (o, r) = value_tuple(self.move_value(v, i));
                    (c, o, r, None)
                } else {
                    let m = self.move_margin(v, i);
                    let depth = self.margins.as_ref().map(|(m, _)| m.depth[c as usize] + 1);
                    (
                        c,
                        Outcome::of_margin(i128::from(m)).as_str(),
                        depth,
                        Some(m),
                    )
                }
            })
            .collect())
    }

    /// The indices (in move order) of the best moves from `v`: a win as fast as
    /// possible, else a draw, else a loss as slow as possible; in a score game every
    /// move reaching the margin.
    fn best_moves(&self, v: u32) -> PyResult<Vec<usize>> {
        self.check(v)?;
        let k = self.graph.successors(v).len();
        if self.labels.is_some() {
            let prefs: Vec<i64> = (0..k).map(|i| self.move_value(v, i).preference()).collect();
            let best = prefs.iter().copied().max();
            Ok((0..k).filter(|&i| Some(prefs[i]) == best).collect())
        } else {
            let margins: Vec<i64> = (0..k).map(|i| self.move_margin(v, i)).collect();
            let best = margins.iter().copied().max();
            Ok((0..k).filter(|&i| Some(margins[i]) == best).collect())
        }
    }

    /// The Grundy value of `v`; `ValueError` with the reason when there are none.
    fn grundy(&self, v: u32) -> PyResult<u32> {
        self.check(v)?;
        match &self.grundy {
            Ok(g) => Ok(g[v as usize]),
            Err(why) => Err(PyValueError::new_err(why.clone())),
        }
    }

    /// Whether Grundy values exist.
    fn has_grundy(&self) -> bool {
        self.grundy.is_ok()
    }

    /// How many positions are won, lost and drawn for the player to move.
    fn counts(&self) -> (u64, u64, u64) {
        match (&self.labels, &self.margins) {
            (Some(l), _) => {
                let [w, l, d] = l.counts();
                (w, l, d)
            }
            (None, Some((m, _))) => {
                let mut c = (0, 0, 0);
                for &x in &m.margin {
                    match x.signum() {
                        1 => c.0 += 1,
                        -1 => c.1 += 1,
                        _ => c.2 += 1,
                    }
                }
                c
            }
            (None, None) => unreachable!("a table has labels or margins"),
        }
    }

    /// Every vertex's outcome code (1 win, 2 loss, 3 draw) as bytes, and remoteness
    /// (`u32` little-endian, `0xFFFFFFFF` for a draw) as bytes.
    fn outcome_arrays<'py>(&self, py: Python<'py>) -> (Bound<'py, PyBytes>, Bound<'py, PyBytes>) {
        let n = self.graph.len() as u32;
        let mut codes = Vec::with_capacity(n as usize);
        let mut rem = Vec::with_capacity(4 * n as usize);
        for v in 0..n {
            let (o, r, _) = self.value(v).expect("a vertex of the table");
            codes.push(match o {
                "win" => WIN,
                "loss" => LOSS,
                _ => DRAW,
            });
            rem.extend_from_slice(&r.unwrap_or(u32::MAX).to_le_bytes());
        }
        (PyBytes::new(py, &codes), PyBytes::new(py, &rem))
    }
}

/// Little-endian numbers from bytes (an `array.array(...).tobytes()`).
fn words<const N: usize, T>(bytes: &[u8], what: &str, from: fn([u8; N]) -> T) -> PyResult<Vec<T>> {
    if !bytes.len().is_multiple_of(N) {
        return Err(PyValueError::new_err(format!(
            "{what}: {} bytes is not a whole number of {N}-byte values",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(N)
        .map(|c| from(c.try_into().expect("chunks of N bytes")))
        .collect())
}

/// Solves a graph handed over as arrays (little-endian bytes): `offsets` (`u64`, n + 1),
/// `targets` (`u32`), `ends` (`u8` per vertex: 0 play on, 1 win, 2 loss, 3 draw for the
/// player to move, 4 a score game's end), `mover` (`u8` per vertex, optional), and for
/// score games `stops` (`i64` per vertex: the points at an end) and `gains` (`i64` per
/// edge). Releases the GIL while it works.
#[pyfunction]
#[pyo3(signature = (offsets, targets, ends, mover=None, stops=None, gains=None, impartial=false))]
#[allow(clippy::too_many_arguments)]
fn solve_graph(
    py: Python<'_>,
    offsets: &[u8],
    targets: &[u8],
    ends: &[u8],
    mover: Option<&[u8]>,
    stops: Option<&[u8]>,
    gains: Option<&[u8]>,
    impartial: bool,
) -> PyResult<Solved> {
    let offsets = words(offsets, "offsets", u64::from_le_bytes)?;
    let targets = words(targets, "targets", u32::from_le_bytes)?;
    let graph =
        Csr::from_parts(offsets, targets).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let n = graph.len();
    let check = |len: usize, what: &str| {
        if len == n {
            Ok(())
        } else {
            Err(PyValueError::new_err(format!(
                "{what} has {len} entries, the graph {n} vertices"
            )))
        }
    };
    check(ends.len(), "ends")?;
    if let Some(&bad) = ends.iter().find(|&&c| c > STOP) {
        return Err(PyValueError::new_err(format!("ends: unknown code {bad}")));
    }
    if let Some(m) = mover {
        check(m.len(), "mover")?;
        if m.iter().any(|&p| p > 1) {
            return Err(PyValueError::new_err("mover: each entry must be 0 or 1"));
        }
    }
    let stop = match stops {
        Some(s) => words(s, "stops", i64::from_le_bytes)?,
        None => vec![0; n],
    };
    check(stop.len(), "stops")?;
    let gains = gains
        .map(|g| words(g, "gains", i64::from_le_bytes))
        .transpose()?;
    let ends = Ends {
        code: ends.to_vec(),
        stop,
    };
    let mover = mover.map(<[u8]>::to_vec);
    py.detach(|| Solved::new(graph, ends, mover, gains, impartial))
        .map_err(|e| GameError::new_err(e.to_string()))
}

/// The least period of a sequence, ordinary first, then arithmetic:
/// `(preperiod, period, saltus)`, or `None` (the library's `find_period`).
#[pyfunction]
fn find_period(values: Vec<u64>) -> Option<(u64, u64, u64)> {
    grundy::sequence::period::find_period(&values).map(|p| (p.preperiod, p.period, p.saltus))
}

/// A rule for an increasing sequence (the losing positions of a take-away family): a
/// linear recurrence, or Schwenk's additive shape, described in words; `None` if
/// neither fits.
#[pyfunction]
fn recurrence(values: Vec<u64>) -> Option<String> {
    grundy::sequence::recurrence::linear_recurrence(&values)
        .or_else(|| grundy::sequence::recurrence::additive_recurrence(&values))
        .map(|shape| shape.describe())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("GameError", m.py().get_type::<GameError>())?;
    m.add("GameTooLarge", m.py().get_type::<GameTooLarge>())?;
    m.add_class::<Solved>()?;
    m.add_class::<MemoryBudget>()?;
    m.add_function(wrap_pyfunction!(explore_game, m)?)?;
    m.add_function(wrap_pyfunction!(solve_graph, m)?)?;
    m.add_function(wrap_pyfunction!(find_period, m)?)?;
    m.add_function(wrap_pyfunction!(recurrence, m)?)?;
    Ok(())
}
