//! Games defined in Python searched from their start instead of explored: the library's
//! proof search (`grundy::search`: df-pn or alpha-beta on win / draw / loss, right on
//! cycles, a transposition table within a memory bound, a budget of nodes) values the
//! start and each of its moves — a weak solution, without remoteness — and visits only the
//! positions its proof needs. For games too large to explore whole.
//!
//! The search reaches the game through [`Keyed`]. A plain game's position gets a `u64` id
//! the first time it is met ([`Interner`]: by the Python object's hash and equality, as a
//! dict keys it), and that id is its key in the table; `terminal`, `to_move` are asked then,
//! once, and a position's moves are kept as ids, so the game's `moves` is asked again only
//! when one of them was forgotten. Past `max_positions` positions the interner forgets those
//! the search no longer holds (it holds its path and the moves it is going through); ids are
//! never reused, so a table entry of a forgotten id is never found again, and never wrong.
//! A batched game's code is its own key.
//!
//! Score games (`gain`) are searched for the sign of the final margin: a position's key
//! carries the points the player to move is ahead by, and an end is won, drawn or lost by
//! the sign of that margin plus its points. The margin's size is not searched: the library's
//! engine for scores, the exact search, takes small copyable boards of at most 127 scores.
//! A score game must not repeat positions (as exploring requires): the search refuses a
//! repetition it meets.
//!
//! The search runs on the calling thread with the GIL held, since every node calls Python;
//! Ctrl-C is looked for every [`SIGNAL_EVERY`] expansions, progress is passed on as the
//! library reports it. The library's `Game` methods cannot fail, so a Python error is kept
//! ([`Broken`]), the search's cancel flag is set, and every position reads as over until
//! the search unwinds; the error is then raised.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use grundy::explore::{Control, Progress};
use grundy::game::{Game, Outcome, Player};
use grundy::search::{self, Key, Keyed, Method, Options, Searched};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use crate::batched::{ints, moves_of, out_of_range, Calls, MAX_SIZE, TERMINAL_RULE, TO_MOVE_RULE};
use crate::games::{
    call_int, call_priority, call_terminal, call_to_move, each_move, show, unhashable, wrap,
    GameError, GameTooLarge, IntoGameError, DRAW, LOSS, PLAY_ON, SIGNAL_EVERY, WIN,
};

/// A position's moves as kept: each child's id, and the points the move gains (0
/// outside score games).
type Moves = Box<[(u64, i64)]>;

/// One position the search has met: its id (its key), the Python object, and what the
/// game said of it.
struct Inner {
    id: u64,
    obj: Py<PyAny>,
    /// `PLAY_ON`, `WIN`, `LOSS`, `DRAW`, or `STOP` (a score game's end worth `stop` points
    /// to the player to move).
    end: u8,
    stop: i64,
    /// Who moves, when the game says (`to_move`).
    mover: Option<u8>,
    /// Its moves when last asked.
    children: RefCell<Option<Moves>>,
}

/// A position as the search holds it: the interned position, and what the line to it
/// decides — the player to move (for games without `to_move`, where turns alternate) and,
/// in a score game, the points the player to move is ahead by.
#[derive(Clone)]
struct Node {
    inner: Rc<Inner>,
    mover: u8,
    margin: i64,
}

impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        (self.inner.id, self.mover, self.margin) == (other.inner.id, other.mover, other.margin)
    }
}

impl Eq for Node {}

impl Hash for Node {
    fn hash<H: Hasher>(&self, h: &mut H) {
        (self.inner.id, self.mover, self.margin).hash(h);
    }
}

impl fmt::Debug for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "#{} (player {} to move, ahead by {})",
            self.inner.id, self.mover, self.margin
        )
    }
}

/// Python positions to ids, by hash and equality as a dict keys them.
struct Interner {
    by_id: FxHashMap<u64, Rc<Inner>>,
    by_hash: FxHashMap<isize, SmallVec<[u64; 1]>>,
    /// The next id; 0 is the end a score game's position without moves is given.
    next: u64,
    /// Positions kept before those the search no longer holds are forgotten.
    cap: usize,
    /// When to forget next: `cap`, or twice the positions still held the last time.
    threshold: usize,
}

impl Interner {
    fn new(cap: usize) -> Interner {
        Interner {
            by_id: FxHashMap::default(),
            by_hash: FxHashMap::default(),
            next: 1,
            cap,
            threshold: cap,
        }
    }

    /// The position met before that equals `obj` (of hash `hash`), if any.
    fn find(&self, obj: &Bound<'_, PyAny>, hash: isize) -> PyResult<Option<Rc<Inner>>> {
        let Some(ids) = self.by_hash.get(&hash) else {
            return Ok(None);
        };
        for id in ids {
            let inner = &self.by_id[id];
            let known = inner.obj.bind(obj.py());
            if known.is(obj) || known.eq(obj)? {
                return Ok(Some(Rc::clone(inner)));
            }
        }
        Ok(None)
    }

    /// Interns a new position (one `find` did not know).
    fn insert(
        &mut self,
        obj: Bound<'_, PyAny>,
        hash: isize,
        (end, stop): (u8, i64),
        mover: Option<u8>,
    ) -> Rc<Inner> {
        if self.by_id.len() >= self.threshold {
            self.forget();
        }
        let id = self.next;
        self.next += 1;
        let inner = Rc::new(Inner {
            id,
            obj: obj.unbind(),
            end,
            stop,
            mover,
            children: RefCell::new(None),
        });
        self.by_id.insert(id, Rc::clone(&inner));
        self.by_hash.entry(hash).or_default().push(id);
        inner
    }

    /// Forgets the positions only the interner holds: the search holds its path and the
    /// moves it is going through, which stay (and keep their ids).
    fn forget(&mut self) {
        self.by_id.retain(|_, inner| Rc::strong_count(inner) > 1);
        let by_id = &self.by_id;
        self.by_hash.retain(|_, ids| {
            ids.retain(|id| by_id.contains_key(id));
            !ids.is_empty()
        });
        self.threshold = self.cap.max(2 * self.by_id.len());
    }
}

/// A Python error met inside the search, which the library's `Game` methods cannot
/// return: kept here, with the search's cancel flag set so that it stops.
struct Broken<'a> {
    error: RefCell<Option<PyErr>>,
    cancel: &'a AtomicBool,
    /// Expansions so far (Ctrl-C is looked for every `SIGNAL_EVERY`).
    expansions: Cell<usize>,
}

impl<'a> Broken<'a> {
    fn new(cancel: &'a AtomicBool) -> Broken<'a> {
        Broken {
            error: RefCell::new(None),
            cancel,
            expansions: Cell::new(0),
        }
    }

    fn is(&self) -> bool {
        self.error.borrow().is_some()
    }

    /// Keeps the first error, and stops the search.
    fn set(&self, e: PyErr) {
        let mut slot = self.error.borrow_mut();
        if slot.is_none() {
            *slot = Some(e);
        }
        self.cancel.store(true, Ordering::SeqCst);
    }

    /// What [`Game::terminal`] says of every position once an error is kept: over (a
    /// draw), so that the search unwinds at once.
    fn unwinding(&self) -> Option<Outcome> {
        self.is().then_some(Outcome::Draw)
    }

    /// Appends the moves `expand` appends to `out`, unless an error is kept already (then
    /// none: the search is unwinding); an error of `expand` is kept, and what it appended
    /// taken back.
    fn moves<P>(&self, out: &mut Vec<P>, expand: impl FnOnce(&mut Vec<P>) -> PyResult<()>) {
        if self.is() {
            return;
        }
        let before = out.len();
        if let Err(e) = expand(out) {
            out.truncate(before);
            self.set(e);
        }
    }

    /// Counts an expansion; now and then, lets Python handle signals (Ctrl-C).
    fn tick(&self, py: Python<'_>) -> PyResult<()> {
        let n = self.expansions.get() + 1;
        self.expansions.set(n);
        if n.is_multiple_of(SIGNAL_EVERY) {
            py.check_signals()?;
        }
        Ok(())
    }
}

fn player(mover: u8) -> Player {
    if mover == 0 {
        Player::First
    } else {
        Player::Second
    }
}

/// A declared end's outcome for the player to move (`None`: play on).
fn declared(end: u8) -> Option<Outcome> {
    match end {
        WIN => Some(Outcome::Win),
        LOSS => Some(Outcome::Loss),
        DRAW => Some(Outcome::Draw),
        _ => None,
    }
}

/// A game defined in Python by its functions, as the search sees it.
struct PyGame<'a, 'py> {
    py: Python<'py>,
    moves: Bound<'py, PyAny>,
    to_move: Option<Bound<'py, PyAny>>,
    terminal: Option<Bound<'py, PyAny>>,
    gain: Option<Bound<'py, PyAny>>,
    /// The game's `priority(position, child)`: its moves' order for the search.
    priority: Option<Bound<'py, PyAny>>,
    max_moves: u64,
    interner: RefCell<Interner>,
    /// In a score game, the one child of a position without moves: the game's end there,
    /// with the points collected so far.
    end: Rc<Inner>,
    broken: Broken<'a>,
}

impl<'py> PyGame<'_, 'py> {
    fn score(&self) -> bool {
        self.gain.is_some()
    }

    /// The id of `obj` (a move of `parent`, or the start), interning it — and asking the
    /// game how it ends and who moves there — the first time.
    fn intern(
        &self,
        parent: Option<&Bound<'py, PyAny>>,
        obj: Bound<'py, PyAny>,
    ) -> PyResult<Rc<Inner>> {
        let py = self.py;
        let hash = obj.hash().map_err(|e| match parent {
            Some(p) => unhashable(e, p, &obj),
            None => wrap(py, e, format!("hashing the start position {}", show(&obj)))
                .into_game_error(py),
        })?;
        let found = self.interner.borrow().find(&obj, hash).map_err(|e| {
            wrap(
                py,
                e,
                format!("comparing {} with a position of the same hash", show(&obj)),
            )
            .into_game_error(py)
        })?;
        if let Some(inner) = found {
            return Ok(inner);
        }
        let end = match &self.terminal {
            Some(f) => call_terminal(f, &obj, self.score())?,
            None => (PLAY_ON, 0),
        };
        let mover = match &self.to_move {
            Some(f) => Some(call_to_move(f, &obj)?),
            None => None,
        };
        Ok(self.interner.borrow_mut().insert(obj, hash, end, mover))
    }

    /// The moves of `pos` kept from an earlier call, if none of them was forgotten.
    fn known_children(&self, pos: &Node) -> Option<Vec<(Rc<Inner>, i64)>> {
        let kept = pos.inner.children.borrow();
        let interner = self.interner.borrow();
        kept.as_ref()?
            .iter()
            .map(|&(id, gain)| interner.by_id.get(&id).map(|c| (Rc::clone(c), gain)))
            .collect()
    }

    /// The moves of `pos` from the game's `moves` (and `gain`), each child interned.
    fn ask_moves(&self, pos: &Node) -> PyResult<Vec<(Rc<Inner>, i64)>> {
        let obj = pos.inner.obj.bind(self.py);
        let mut found = Vec::new();
        each_move(&self.moves, obj, self.max_moves, |child| {
            let gain = match &self.gain {
                Some(f) => call_int("gain", f, obj, &child)?,
                None => 0,
            };
            found.push((self.intern(Some(obj), child)?, gain));
            Ok(())
        })?;
        *pos.inner.children.borrow_mut() = Some(found.iter().map(|(c, g)| (c.id, *g)).collect());
        Ok(found)
    }

    /// The position after a move from `pos` to `inner` that gains `gain` points.
    fn child(&self, pos: &Node, inner: Rc<Inner>, gain: i64) -> PyResult<Node> {
        let mover = inner.mover.unwrap_or(1 - pos.mover);
        let margin = if self.score() {
            let ahead = pos.margin.checked_add(gain);
            let margin = if mover == pos.mover {
                ahead
            } else {
                ahead.and_then(i64::checked_neg)
            };
            margin.ok_or_else(|| {
                GameError::new_err(format!(
                    "the points collected pass 64 bits on the move from {} to {}",
                    show(pos.inner.obj.bind(self.py)),
                    show(inner.obj.bind(self.py))
                ))
            })?
        } else {
            0
        };
        Ok(Node {
            inner,
            mover,
            margin,
        })
    }

    fn expand(&self, pos: &Node, out: &mut Vec<Node>) -> PyResult<()> {
        self.broken.tick(self.py)?;
        let children = match self.known_children(pos) {
            Some(children) => children,
            None => self.ask_moves(pos)?,
        };
        if children.is_empty() && self.score() {
            // A score game ends where no move is left, with the points so far.
            out.push(Node {
                inner: Rc::clone(&self.end),
                ..pos.clone()
            });
        }
        for (inner, gain) in children {
            out.push(self.child(pos, inner, gain)?);
        }
        Ok(())
    }
}

impl Game for PyGame<'_, '_> {
    type Position = Node;

    fn moves(&self, pos: &Node, out: &mut Vec<Node>) {
        self.broken.moves(out, |out| self.expand(pos, out));
    }

    fn terminal(&self, pos: &Node) -> Option<Outcome> {
        self.broken.unwinding().or(match pos.inner.end {
            PLAY_ON => None,
            WIN | LOSS | DRAW => declared(pos.inner.end),
            // A score game's end: the sign of the final margin.
            _ => Some(Outcome::of_margin(
                i128::from(pos.margin) + i128::from(pos.inner.stop),
            )),
        })
    }

    fn to_move(&self, pos: &Node) -> Player {
        player(pos.mover)
    }

    fn alternates(&self) -> bool {
        // Movers are carried in the positions: a game's own `to_move`, or alternation.
        false
    }
}

impl Keyed for PyGame<'_, '_> {
    fn key(&self, pos: &Node) -> Key {
        if self.score() {
            Key::from_slice(&[pos.inner.id, pos.margin as u64])
        } else {
            Key::from_slice(&[pos.inner.id])
        }
    }

    fn acyclic(&self) -> bool {
        self.score()
    }

    fn priority(&self, from: &Node, to: &Node) -> i32 {
        let Some(f) = &self.priority else {
            return 0;
        };
        // A score game's end has no Python position to ask about.
        if self.broken.is() || to.inner.id == 0 {
            return 0;
        }
        let py = self.py;
        call_priority(f, from.inner.obj.bind(py), to.inner.obj.bind(py)).unwrap_or_else(|e| {
            self.broken.set(e);
            0
        })
    }
}

/// A batched game's position: its code, and what the game said of it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct CodeNode {
    code: u64,
    end: u8,
    mover: u8,
}

/// A batched game (`moves_many`, `terminal_many`, `to_move_many` on arrays of codes) as
/// the search sees it: each expansion asks the moves of one position, then the ends and
/// movers of its children in one call each.
struct BatchedGame<'a, 'py> {
    calls: Calls<'py>,
    size: u64,
    moves_many: Bound<'py, PyAny>,
    to_move_many: Option<Bound<'py, PyAny>>,
    terminal_many: Option<Bound<'py, PyAny>>,
    max_moves: u64,
    /// The moves of positions expanded, by code: forgotten all at once past `cap`.
    known: RefCell<FxHashMap<u64, Box<[CodeNode]>>>,
    cap: usize,
    broken: Broken<'a>,
}

impl BatchedGame<'_, '_> {
    /// The ends and movers of `codes` (a mover of `parent_mover` flipped where the game
    /// has no `to_move_many`).
    fn describe(&self, codes: &[u64], parent_mover: u8) -> PyResult<Vec<CodeNode>> {
        let ends = match &self.terminal_many {
            Some(f) if !codes.is_empty() => {
                self.calls
                    .per_position(f, "terminal_many", codes, 0..=3, TERMINAL_RULE)?
            }
            _ => vec![PLAY_ON; codes.len()],
        };
        let movers = match &self.to_move_many {
            Some(f) if !codes.is_empty() => {
                self.calls
                    .per_position(f, "to_move_many", codes, 0..=1, TO_MOVE_RULE)?
            }
            _ => vec![1 - parent_mover; codes.len()],
        };
        Ok(codes
            .iter()
            .zip(ends.iter().zip(&movers))
            .map(|(&code, (&end, &mover))| CodeNode { code, end, mover })
            .collect())
    }

    fn expand(&self, pos: &CodeNode, out: &mut Vec<CodeNode>) -> PyResult<()> {
        self.broken.tick(self.calls.py)?;
        if let Some(children) = self.known.borrow().get(&pos.code) {
            out.extend_from_slice(children);
            return Ok(());
        }
        let (offsets, kids, lo, lc) =
            moves_of(&self.calls, &self.moves_many, &[pos.code], self.max_moves)?;
        let (offsets, kids) = (ints(&offsets, lo), ints(&kids, lc));
        let mut codes = Vec::new();
        // Checked by moves_of: 0 = offsets[0] ≤ offsets[1] = kids.len().
        kids.each(0, offsets.get(1) as usize, |child| {
            if child < 0 || child >= i128::from(self.size) {
                return Err(out_of_range(&self.calls, child, pos.code, self.size));
            }
            codes.push(child as u64);
            Ok(())
        })?;
        let children = self.describe(&codes, pos.mover)?;
        let mut known = self.known.borrow_mut();
        if known.len() >= self.cap {
            known.clear();
        }
        out.extend_from_slice(&children);
        known.insert(pos.code, children.into_boxed_slice());
        Ok(())
    }
}

impl Game for BatchedGame<'_, '_> {
    type Position = CodeNode;

    fn moves(&self, pos: &CodeNode, out: &mut Vec<CodeNode>) {
        self.broken.moves(out, |out| self.expand(pos, out));
    }

    fn terminal(&self, pos: &CodeNode) -> Option<Outcome> {
        self.broken.unwinding().or(declared(pos.end))
    }

    fn to_move(&self, pos: &CodeNode) -> Player {
        player(pos.mover)
    }

    fn alternates(&self) -> bool {
        false
    }
}

impl Keyed for BatchedGame<'_, '_> {
    fn key(&self, pos: &CodeNode) -> Key {
        Key::from_slice(&[pos.code])
    }
}

/// The search's options from Python's keywords.
fn options(max_nodes: u64, memory: u64, algorithm: &str) -> PyResult<Options> {
    let method = match algorithm {
        "pn" | "df-pn" => Method::ProofNumber,
        "alpha-beta" => Method::AlphaBeta,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown algorithm {other:?}: expected \"pn\" (depth-first proof numbers) or \"alpha-beta\""
            )))
        }
    };
    Ok(Options {
        max_nodes,
        memory,
        method,
    })
}

/// Runs the search of `game` from `root`, passing progress to `progress` (a Python
/// callable of `(stage, done)`), and turns what stopped it into a Python exception: the
/// game's own error first, then the progress callable's, then the library's refusal.
fn run<G: Keyed>(
    game: &G,
    root: &G::Position,
    broken: &Broken<'_>,
    options: &Options,
    progress: Option<&Py<PyAny>>,
    score: bool,
) -> PyResult<Searched> {
    let failed: Mutex<Option<PyErr>> = Mutex::new(None);
    let cancel = broken.cancel;
    let report = |stage: &str, done: u64| {
        if let Some(f) = progress {
            Python::attach(|py| {
                if let Err(e) = f.call1(py, (stage, done)) {
                    let mut slot = failed
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    slot.get_or_insert(e);
                    cancel.store(true, Ordering::SeqCst);
                }
            });
        }
    };
    let control = Control {
        max_positions: u64::MAX,
        cancel: Some(broken.cancel),
        progress: progress.map(|_| &report as &Progress<'_>),
    };
    let result = search::search(game, root, options, &control);
    if let Some(e) = broken.error.borrow_mut().take() {
        return Err(e);
    }
    let failed = failed
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(e) = failed {
        return Err(e);
    }
    result.map_err(|e| match e {
        e if e.is_too_large() => GameTooLarge::new_err(format!("searching: {e}")),
        grundy::Error::Cancelled => PyKeyboardInterrupt::new_err("cancelled"),
        e if score => GameError::new_err(format!("searching a score game: {e}")),
        e => GameError::new_err(format!("searching: {e}")),
    })
}

/// What a search answers Python: the start's outcome, each move's position (or code) and
/// outcome for the player making it, the nodes visited, the values kept in the table and
/// its bytes.
type Answer<T> = (&'static str, Vec<(T, &'static str)>, u64, u64, u64);

fn answer<T>(searched: &Searched, children: Vec<T>) -> PyResult<Answer<T>> {
    if children.len() != searched.moves.len() {
        return Err(GameError::new_err(format!(
            "the start's moves changed during the search: {} before, {} in it",
            children.len(),
            searched.moves.len()
        )));
    }
    Ok((
        searched.outcome.as_str(),
        children
            .into_iter()
            .zip(&searched.moves)
            .map(|(c, o)| (c, o.as_str()))
            .collect(),
        searched.nodes,
        searched.stored,
        searched.table_bytes,
    ))
}

/// Searches a Python game from `start` (see the module's doc). Returns `(outcome, moves,
/// nodes, stored, table_bytes)`: the start's outcome for the player to move, each move as
/// `(child, outcome for the player making it)` in the game's order, the nodes visited, the
/// values the table kept and its size in bytes. `max_positions` caps the positions kept
/// interned (those the search still holds excepted); `memory` is the table's bytes.
#[pyfunction]
#[pyo3(signature = (start, moves, to_move, terminal, gain, *, max_positions, max_moves, max_nodes, memory, algorithm, progress=None, priority=None))]
#[allow(clippy::too_many_arguments)]
fn search_game<'py>(
    py: Python<'py>,
    start: Bound<'py, PyAny>,
    moves: Bound<'py, PyAny>,
    to_move: Option<Bound<'py, PyAny>>,
    terminal: Option<Bound<'py, PyAny>>,
    gain: Option<Bound<'py, PyAny>>,
    max_positions: u64,
    max_moves: u64,
    max_nodes: u64,
    memory: u64,
    algorithm: &str,
    progress: Option<Py<PyAny>>,
    priority: Option<Bound<'py, PyAny>>,
) -> PyResult<Answer<Py<PyAny>>> {
    let options = options(max_nodes, memory, algorithm)?;
    let cancel = AtomicBool::new(false);
    let game = PyGame {
        py,
        moves,
        to_move,
        terminal,
        gain,
        priority,
        max_moves,
        interner: RefCell::new(Interner::new(
            usize::try_from(max_positions).unwrap_or(usize::MAX),
        )),
        end: Rc::new(Inner {
            id: 0,
            obj: py.None(),
            end: crate::games::STOP,
            stop: 0,
            mover: None,
            children: RefCell::new(None),
        }),
        broken: Broken::new(&cancel),
    };
    let inner = game.intern(None, start)?;
    let root = Node {
        mover: inner.mover.unwrap_or(0),
        margin: 0,
        inner,
    };
    // The start's moves, held through the search (so kept interned, in this order).
    let mut children = Vec::new();
    if root.inner.end == PLAY_ON {
        game.expand(&root, &mut children)?;
    }
    if game.score() && children.len() == 1 && children[0].inner.id == 0 {
        // No move: the game ends at once, with no points.
        return Ok(("draw", Vec::new(), 1, 0, 0));
    }
    let searched = run(
        &game,
        &root,
        &game.broken,
        &options,
        progress.as_ref(),
        game.score(),
    )?;
    let objects = children.iter().map(|c| c.inner.obj.clone_ref(py)).collect();
    answer(&searched, objects)
}

/// Searches a batched game from the code `start` (see the module's doc); the answer as
/// [`search_game`]'s, with codes for positions. `max_positions` caps the positions whose
/// moves are kept.
#[pyfunction]
#[pyo3(signature = (start, size, moves_many, to_move_many, terminal_many, as_codes, show_code, *, max_positions, max_moves, max_nodes, memory, algorithm, progress=None))]
#[allow(clippy::too_many_arguments)]
fn search_batched<'py>(
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
    max_nodes: u64,
    memory: u64,
    algorithm: &str,
    progress: Option<Py<PyAny>>,
) -> PyResult<Answer<u64>> {
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
    let options = options(max_nodes, memory, algorithm)?;
    let cancel = AtomicBool::new(false);
    let game = BatchedGame {
        calls: Calls {
            py,
            as_codes,
            show_code,
        },
        size,
        moves_many,
        to_move_many,
        terminal_many,
        max_moves,
        known: RefCell::new(FxHashMap::default()),
        cap: usize::try_from(max_positions).unwrap_or(usize::MAX),
        broken: Broken::new(&cancel),
    };
    // The start's mover is its own where the game says, else the first player's.
    let root = game.describe(&[start], 1)?[0];
    let mut children = Vec::new();
    if root.end == PLAY_ON {
        game.expand(&root, &mut children)?;
    }
    let searched = run(
        &game,
        &root,
        &game.broken,
        &options,
        progress.as_ref(),
        false,
    )?;
    answer(&searched, children.iter().map(|c| c.code).collect())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(search_game, m)?)?;
    m.add_function(wrap_pyfunction!(search_batched, m)?)?;
    Ok(())
}
