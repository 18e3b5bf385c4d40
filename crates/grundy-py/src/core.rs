//! The library's analyses from Python: specs solved, tables, patterns, games on graphs,
//! plots. Each call turns Python arguments into the library's inputs, runs the library on a
//! worker thread with the GIL released, and hands back what the CLI's `--json` would print
//! (as JSON text that `grundy/_records.py` turns into typed objects) or, for tables, the
//! values as one buffer of packed integers.
//!
//! While the worker runs, the calling thread wakes every [`TICK`] to let Python handle
//! signals (Ctrl-C raises `KeyboardInterrupt` there) and to pass the latest progress to a
//! Python callable; on an error it sets the library's cancel flag, waits for the worker to
//! stop, and raises.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

use grundy::explore::Control;
use grundy::graph::answer::{self, Answer, AnswerError, Goal, QuestionError, Regions};
use grundy::graph::{self as g, Arena, Format, ParityAlgorithm};
use grundy::report::{self, Limits, Table};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

pyo3::create_exception!(
    grundy,
    GrundyError,
    PyValueError,
    "A request grundy refuses: a bad spec or file (with `.line` and `.column` where there \
     is one), or a computation past its limits. The message is the CLI's; past a limit a \
     keyword sets, it ends naming that keyword (`raise it with max_positions=N`) and the \
     error carries `.limit` (`positions`, `memory`, `work`, `proof-heaps`, `search-nodes`, \
     `exact-nodes`, `tier-memory`, `up-to`) and `.wanted` (the value that would do, or None)."
);

/// How often the calling thread looks at signals and progress while the library works.
const TICK: Duration = Duration::from_millis(50);

/// A `GrundyError` with its message, and the line and column of the input where the
/// error is (`None` for errors not about a place in the input).
fn error(py: Python<'_>, message: String, at: Option<(usize, usize)>) -> PyErr {
    let err = GrundyError::new_err(message);
    let value = err.value(py);
    let (line, column) = at.unzip();
    // Setting attributes on a fresh exception object cannot fail short of memory.
    let _ = value.setattr("line", line);
    let _ = value.setattr("column", column);
    err
}

/// The keyword argument that lifts `limit`, with the value it would need where known
/// (`wanted`, in the limit's unit; memories in MiB, as the keywords take them).
fn limit_hint(limit: grundy::Limit, wanted: Option<u128>) -> String {
    limit.hint(wanted, grundy::Spelling::Keyword)
}

/// A `GrundyError` for the library's refusal `e`, after `context`: a refusal past a limit
/// names the keyword that lifts it, and carries `.limit` ([`grundy::Limit::word`]) and
/// `.wanted` (the value that would let it through, or `None`).
pub(crate) fn refusal(py: Python<'_>, context: &str, e: &grundy::Error) -> PyErr {
    let Some((limit, wanted)) = e.limit() else {
        return error(py, format!("{context}: {e}"), None);
    };
    let err = error(
        py,
        format!("{context}: {e}; {}", limit_hint(limit, wanted)),
        None,
    );
    let value = err.value(py);
    let _ = value.setattr("limit", limit.word());
    let _ = value.setattr("wanted", wanted);
    err
}

pub(crate) fn spec_error(py: Python<'_>, text: &str, e: &grundy::games::SpecError) -> PyErr {
    error(py, e.render(text), Some((e.line, e.column)))
}

/// The CLI's limits, as keyword arguments with the CLI's defaults and units.
#[derive(Clone, Copy)]
struct Budget {
    max_positions: u64,
    max_memory_mib: u64,
    max_work: u128,
    max_proof_heaps: u64,
}

impl Budget {
    fn limits<'a>(self, control: Control<'a>) -> Limits<'a> {
        Limits {
            control: Control {
                max_positions: self.max_positions,
                ..control
            },
            max_memory: self.max_memory_mib.saturating_mul(1 << 20),
            max_work: self.max_work,
            max_proof_heaps: self.max_proof_heaps,
            tablebases: &[],
            ..Limits::default()
        }
    }
}

/// Runs `work` with the GIL released on a scoped thread, handing it a [`Control`] whose
/// cancel flag this thread sets when Python has an error to raise (a `KeyboardInterrupt`,
/// or an exception from the progress callable). `progress`, if given, is called with
/// `(stage, done)` from the calling thread whenever the library has reported something
/// new.
pub(crate) fn run<T: Send>(
    py: Python<'_>,
    progress: Option<Py<PyAny>>,
    work: impl FnOnce(&Control<'_>) -> T + Send,
) -> PyResult<T> {
    let cancel = AtomicBool::new(false);
    let latest: Mutex<Option<(String, u64)>> = Mutex::new(None);
    let report = |stage: &str, done: u64| {
        let mut slot = latest
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match slot.as_mut() {
            Some((s, d)) if s == stage => *d = done,
            _ => *slot = Some((stage.to_string(), done)),
        }
    };
    let control = Control {
        max_positions: u64::MAX,
        cancel: Some(&cancel),
        progress: progress
            .is_some()
            .then_some(&report as &grundy::explore::Progress<'_>),
    };
    py.detach(|| {
        std::thread::scope(|scope| {
            let (done_tx, done_rx) = mpsc::channel();
            let control = &control;
            let worker = scope.spawn(move || {
                let out = work(control);
                let _ = done_tx.send(());
                out
            });
            let mut failure: Option<PyErr> = None;
            let mut shown: Option<(String, u64)> = None;
            loop {
                let finished = !matches!(
                    done_rx.recv_timeout(TICK),
                    Err(mpsc::RecvTimeoutError::Timeout)
                );
                if failure.is_none() {
                    let step = Python::attach(|py| -> PyResult<()> {
                        py.check_signals()?;
                        if let Some(callable) = &progress {
                            let now = latest
                                .lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner)
                                .clone();
                            if now.is_some() && now != shown {
                                if let Some((stage, done)) = &now {
                                    callable.call1(py, (stage.as_str(), *done))?;
                                }
                                shown = now;
                            }
                        }
                        Ok(())
                    });
                    if let Err(e) = step {
                        cancel.store(true, Ordering::SeqCst);
                        failure = Some(e);
                    }
                }
                if finished {
                    break;
                }
            }
            let out = match worker.join() {
                Ok(out) => out,
                Err(panic) => std::panic::resume_unwind(panic),
            };
            match failure {
                Some(e) => Err(e),
                None => Ok(out),
            }
        })
    })
}

/// Solves a spec; returns the report as the JSON of `grundy solve --json`. With a
/// `tablebase` directory, as `grundy solve --tablebase DIR`: the board's missing tiers are
/// solved there first (on `threads` threads, 0 for every core, within `max_tier_memory`
/// MiB), and the answer is read from them.
#[pyfunction]
#[pyo3(signature = (spec, *, max_positions, max_memory, max_work, max_proof_heaps, tablebase=None, threads=0, max_tier_memory=16384, max_nodes=None, max_exact_nodes=None, weak=false, progress=None))]
#[allow(clippy::too_many_arguments)]
fn solve_json(
    py: Python<'_>,
    spec: &str,
    max_positions: u64,
    max_memory: u64,
    max_work: u128,
    max_proof_heaps: u64,
    tablebase: Option<PathBuf>,
    threads: usize,
    max_tier_memory: u64,
    max_nodes: Option<u64>,
    max_exact_nodes: Option<u64>,
    weak: bool,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let parsed: grundy::games::Spec = spec.parse().map_err(|e| spec_error(py, spec, &e))?;
    // The exact search's table, kept for the next call (a game in progress).
    static CACHE: std::sync::OnceLock<report::SearchCache> = std::sync::OnceLock::new();
    let budget = Budget {
        max_positions,
        max_memory_mib: max_memory,
        max_work,
        max_proof_heaps,
    };
    let options = grundy::tier::Options {
        threads,
        max_bytes: max_tier_memory.saturating_mul(1 << 20),
    };
    let answer = run(py, progress, |control| {
        let tablebases = match &tablebase {
            None => Vec::new(),
            Some(dir) => {
                let events = |e: &grundy::tier::Event| {
                    let (stage, tier, done) = match *e {
                        grundy::tier::Event::Reach { tier, done, .. } => ("reach tier", tier, done),
                        grundy::tier::Event::Solve { tier, done, .. } => ("solve tier", tier, done),
                        grundy::tier::Event::Done { .. } => return,
                    };
                    if let Some(progress) = control.progress {
                        progress(&format!("{stage} {tier}"), done);
                    }
                };
                let opened =
                    grundy_tablebase::open_spec(&parsed, dir, Some(&options), &events, control)
                        .map_err(Refusal::Tablebase)?;
                vec![opened.0]
            }
        };
        let mut limits = budget.limits(*control);
        limits.tablebases = &tablebases;
        limits.search_threads = threads;
        limits.weak = weak;
        limits.search_cache = Some(CACHE.get_or_init(report::SearchCache::new));
        if let Some(n) = max_nodes {
            limits.max_search_nodes = n;
        }
        if let Some(n) = max_exact_nodes {
            limits.max_exact_nodes = n;
        }
        report::solve(&parsed, &limits).map_err(Refusal::Solve)
    })?;
    let report = answer.map_err(|e| match e {
        Refusal::Tablebase(grundy_tablebase::OpenError::Sum) => error(
            py,
            "tablebase= is for one board, not a sum of games".into(),
            None,
        ),
        Refusal::Tablebase(grundy_tablebase::OpenError::Solve { game, source }) => {
            refusal(py, &format!("cannot solve the tiers of {game}"), &source)
        }
        Refusal::Tablebase(e) => error(py, grundy_io::error_chain(&e), None),
        Refusal::Solve(e) => refusal(py, &format!("cannot solve `{parsed}`"), &e),
    })?;
    Ok(serde_json::to_string(&report).expect("a report serializes"))
}

/// What stops a solve: its tablebase, or the solve itself.
enum Refusal {
    Tablebase(grundy_tablebase::OpenError),
    Solve(grundy::Error),
}

/// Tabulates a one-heap family: its name as the library writes it, the Grundy values
/// packed as native-endian unsigned integers of the returned width (1, 4 or 8 bytes, the
/// narrowest that holds the largest value), and that width.
#[pyfunction]
#[pyo3(signature = (family, up_to, *, max_positions, max_memory, max_work, max_proof_heaps, progress=None))]
#[allow(clippy::too_many_arguments)]
fn table(
    py: Python<'_>,
    family: &str,
    up_to: u64,
    max_positions: u64,
    max_memory: u64,
    max_work: u128,
    max_proof_heaps: u64,
    progress: Option<Py<PyAny>>,
) -> PyResult<(String, Py<PyBytes>, usize)> {
    let budget = Budget {
        max_positions,
        max_memory_mib: max_memory,
        max_work,
        max_proof_heaps,
    };
    let made = run(py, progress, |control| {
        report::table(family, up_to, &budget.limits(*control)).map(|t| {
            let packed = pack(&t.grundy);
            (t.family, packed)
        })
    })?;
    let (name, (bytes, width)) = made.map_err(|e| match e {
        report::TableError::Spec(e) => spec_error(py, family, &e),
        report::TableError::Solve(e) => refusal(py, &format!("cannot tabulate `{family}`"), &e),
    })?;
    Ok((name, PyBytes::new(py, &bytes).unbind(), width))
}

/// The values as one buffer of the narrowest width that holds them all.
fn pack(values: &[u64]) -> (Vec<u8>, usize) {
    let max = values.iter().copied().max().unwrap_or(0);
    if max <= u64::from(u8::MAX) {
        (values.iter().map(|&v| v as u8).collect(), 1)
    } else if max <= u64::from(u32::MAX) {
        (
            values
                .iter()
                .flat_map(|&v| (v as u32).to_ne_bytes())
                .collect(),
            4,
        )
    } else {
        (values.iter().flat_map(|&v| v.to_ne_bytes()).collect(), 8)
    }
}

fn unpack(bytes: &[u8], width: usize) -> PyResult<Vec<u64>> {
    let values = match width {
        1 => bytes.iter().map(|&b| u64::from(b)).collect(),
        4 => bytes
            .chunks_exact(4)
            .map(|c| u64::from(u32::from_ne_bytes([c[0], c[1], c[2], c[3]])))
            .collect(),
        8 => bytes
            .chunks_exact(8)
            .map(|c| u64::from_ne_bytes(c.try_into().expect("8 bytes")))
            .collect(),
        _ => return Err(PyValueError::new_err("width must be 1, 4 or 8")),
    };
    Ok(values)
}

/// The special method on a family; returns the JSON of `grundy pattern --json`.
#[pyfunction]
#[pyo3(signature = (family, up_to=None, *, max_positions, progress=None))]
fn pattern_json(
    py: Python<'_>,
    family: &str,
    up_to: Option<u64>,
    max_positions: u64,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let up_to = up_to.unwrap_or_else(|| grundy::pattern::default_up_to(family));
    let found = run(py, progress, |control| {
        let control = Control {
            max_positions,
            ..*control
        };
        grundy::pattern::discover(family, up_to, &control)
    })?
    .map_err(|e| refusal(py, &format!("no pattern for `{family}`"), &e))?;
    Ok(serde_json::to_string(&found).expect("a pattern serializes"))
}

/// A rule over a family's position features (`grundy pattern --features`): the rule's
/// text, and how many positions it was found on and checked on.
#[pyfunction]
#[pyo3(signature = (family, up_to=None, check=Vec::new(), *, max_positions, progress=None))]
fn pattern_features(
    py: Python<'_>,
    family: &str,
    up_to: Option<u64>,
    check: Vec<String>,
    max_positions: u64,
    progress: Option<Py<PyAny>>,
) -> PyResult<(String, u64, u64)> {
    let found = run(py, progress, |control| {
        let control = Control {
            max_positions,
            ..*control
        };
        grundy::pattern::features::discover_text(family, up_to.unwrap_or(24), &check, &control)
    })?
    .map_err(|e| {
        error(
            py,
            format!("no rule over features for `{family}`: {e}"),
            None,
        )
    })?;
    Ok((
        found.rule.text,
        found.found_on as u64,
        found.checked_on as u64,
    ))
}

/// A game or solution given to a graph call: its text, or a file to read (gzip allowed).
fn read_input(
    py: Python<'_>,
    text: Option<String>,
    path: Option<PathBuf>,
    max_input: u64,
) -> PyResult<(String, Option<PathBuf>)> {
    match (text, path) {
        (Some(text), None) => Ok((text, None)),
        (None, Some(path)) => {
            let limit = max_input.saturating_mul(1 << 20);
            let text = grundy_io::read_text_limited(&path, limit).map_err(|e| match e {
                grundy_io::ReadError::TooLarge { .. } => error(
                    py,
                    format!(
                        "too large: {} holds more than the limit of {} (once gunzipped); raise it with max_input=MIB",
                        path.display(),
                        grundy::human_bytes(limit)
                    ),
                    None,
                ),
                other => error(py, other.to_string(), None),
            })?;
            Ok((text, Some(path)))
        }
        _ => Err(PyValueError::new_err("give the text or the path, not both")),
    }
}

/// Parses a game on a graph, with errors as the CLI writes them (`FILE:LINE:COLUMN: …`
/// for a file, `line L, column C: …` for text).
fn load(
    py: Python<'_>,
    text: &str,
    path: Option<&PathBuf>,
    format: Option<&str>,
) -> PyResult<(Format, Arena)> {
    let format = match format {
        Some(f) => f
            .parse::<Format>()
            .map_err(|e| error(py, e.to_string(), None))?,
        None => g::detect(text),
    };
    let arena = g::parse(text, format).map_err(|e| {
        let message = match path {
            Some(p) => format!(
                "{}:{}:{}: {} (read as {format})",
                p.display(),
                e.line,
                e.column,
                e.kind
            ),
            None => format!("{e} (read as {format})"),
        };
        error(py, message, Some((e.line, e.column)))
    })?;
    Ok((format, arena))
}

/// Solves a game on a graph; returns the JSON of `grundy graph --json`.
#[pyfunction]
#[pyo3(signature = (text, path, *, format=None, objective=None, accepting=Vec::new(), strategy=false, algorithm=None, sum=Vec::new(), max_input=1024, progress=None))]
#[allow(clippy::too_many_arguments)]
fn graph_solve_json(
    py: Python<'_>,
    text: Option<String>,
    path: Option<PathBuf>,
    format: Option<&str>,
    objective: Option<&str>,
    accepting: Vec<u32>,
    strategy: bool,
    algorithm: Option<&str>,
    sum: Vec<u64>,
    max_input: u64,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let algorithm: ParityAlgorithm = match algorithm {
        None => ParityAlgorithm::default(),
        Some(a) => a
            .parse()
            .map_err(|e: g::UnknownAlgorithm| error(py, e.to_string(), None))?,
    };
    let (text, path) = read_input(py, text, path, max_input)?;
    let (format, arena) = load(py, &text, path.as_ref(), format)?;
    let goal = match objective {
        None => Goal::of_format(format),
        Some(o) => o
            .parse::<Goal>()
            .map_err(|e| error(py, e.to_string(), None))?,
    };
    let options = answer::Options {
        accepting,
        algorithm,
        sum: sum.into_iter().map(g::FileId).collect(),
    };
    let json = run(py, progress, |control| -> Result<String, AnswerError> {
        Ok(
            match answer::solve(&arena, format, goal, &options, control)? {
                Answer::Token(values) => serde_json::to_string(&values),
                Answer::Regions(solution) => {
                    serde_json::to_string(&Regions::new(&arena, &solution, strategy))
                }
            }
            .expect("an answer serializes"),
        )
    })?;
    json.map_err(|e| match e {
        AnswerError::Question(QuestionError::NoOwners) => error(
            py,
            format!(
                "a plain digraph has no owners or colours: only objective='{}' applies",
                Goal::Token
            ),
            None,
        ),
        AnswerError::Question(QuestionError::SumWithoutTokens) => error(
            py,
            format!("sum= is for token games (objective='{}')", Goal::Token),
            None,
        ),
        AnswerError::Solve(grundy::Error::Unsupported(why)) => {
            error(py, format!("sum=: {why}"), None)
        }
        AnswerError::Solve(other) => error(py, other.to_string(), None),
    })
}

/// Checks a claimed solution of a game on a graph (`grundy graph verify`): whether it is
/// correct, and the CLI's line saying so or why not.
#[pyfunction]
#[pyo3(signature = (game_text, game_path, solution_text, solution_path, *, format=None, max_input=1024))]
#[allow(clippy::too_many_arguments)]
fn graph_verify(
    py: Python<'_>,
    game_text: Option<String>,
    game_path: Option<PathBuf>,
    solution_text: Option<String>,
    solution_path: Option<PathBuf>,
    format: Option<&str>,
    max_input: u64,
) -> PyResult<(bool, String)> {
    let (game, game_path) = read_input(py, game_text, game_path, max_input)?;
    let (format, arena) = load(py, &game, game_path.as_ref(), format)?;
    let (solution, solution_path) = read_input(py, solution_text, solution_path, max_input)?;
    let verdict = py
        .detach(|| answer::verify_solution(&arena, format, &solution))
        .map_err(|e| match e {
            answer::SolutionError::Parse(e) => {
                let message = match &solution_path {
                    Some(p) => format!("{}:{}:{}: {}", p.display(), e.line, e.column, e.kind),
                    None => e.to_string(),
                };
                error(py, message, Some((e.line, e.column)))
            }
            other => error(py, other.to_string(), None),
        })?;
    Ok(match verdict {
        Ok(()) => (
            true,
            format!(
                "ok: the claimed regions and strategies are a correct solution ({})",
                grundy::number::count(arena.len() as u128, "vertex", "vertices")
            ),
        ),
        Err(e) => (false, format!("rejected: {e}")),
    })
}

/// The plot of a table (as `grundy plot` draws it) as SVG text, with the period the
/// special method finds marked; `None` without a TrueType font to lay out the text.
#[pyfunction]
fn table_svg(
    py: Python<'_>,
    family: String,
    values: &[u8],
    width: usize,
) -> PyResult<Option<String>> {
    let grundy = unpack(values, width)?;
    let table = Table {
        outcome: grundy
            .iter()
            .map(|&g| {
                if g == 0 {
                    grundy::game::Outcome::Loss
                } else {
                    grundy::game::Outcome::Win
                }
            })
            .collect(),
        grundy,
        family,
    };
    let drawn = py.detach(|| {
        // As `grundy plot` does with its default limits.
        let control = Control {
            max_positions: Limits::default().control.max_positions,
            ..Control::default()
        };
        let marked = grundy_plot::marked(&table.family, &control);
        grundy_plot::svg(&table, marked)
    });
    match drawn {
        Ok(svg) => Ok(Some(svg)),
        Err(grundy_plot::PlotError::NoFont) => Ok(None),
        Err(e) => Err(error(py, e.to_string(), None)),
    }
}

/// The catalog's example specs (the registry entries' examples, and a sum).
#[pyfunction]
fn examples() -> Vec<String> {
    grundy::games::examples()
        .into_iter()
        .map(str::to_string)
        .collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("GrundyError", m.py().get_type::<GrundyError>())?;
    m.add_function(wrap_pyfunction!(solve_json, m)?)?;
    m.add_function(wrap_pyfunction!(table, m)?)?;
    m.add_function(wrap_pyfunction!(pattern_json, m)?)?;
    m.add_function(wrap_pyfunction!(pattern_features, m)?)?;
    m.add_function(wrap_pyfunction!(graph_solve_json, m)?)?;
    m.add_function(wrap_pyfunction!(graph_verify, m)?)?;
    m.add_function(wrap_pyfunction!(table_svg, m)?)?;
    m.add_function(wrap_pyfunction!(examples, m)?)?;
    Ok(())
}
