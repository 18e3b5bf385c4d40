//! Combinatorial game values from Python (`grundy.cgt`): [`Form`], a canonical form of the
//! library's [`grundy::cgt`] table, with `+`, `-`, comparisons (the partial order of
//! games: `<`, `<=`, `==` and `confused_with`), its outcome class, mean, temperature and
//! options; and `value_form(spec)`, a spec's value as `grundy value` finds it. All forms
//! live in one table per process, so equal values are the same form and a value met
//! again is not recomputed.

use std::sync::{LazyLock, Mutex, MutexGuard, PoisonError};

use grundy::cgt::{self, Context, Dyadic, GameId, Spelling};
use grundy::report::{self, Limits};
use pyo3::basic::CompareOp;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::core::{refusal, run, spec_error};

/// The process's table of forms and memo of valued positions, bounded as the CLI's
/// default `--max-memory` (4 GiB).
static TABLE: LazyLock<Mutex<Context<'static>>> =
    LazyLock::new(|| Mutex::new(Context::new(4 << 30)));

fn table() -> MutexGuard<'static, Context<'static>> {
    TABLE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A short game's canonical form (the class `grundy.cgt.Form`).
#[pyclass(frozen, module = "grundy._grundy", name = "Form")]
#[derive(Clone, Copy)]
struct Form {
    id: GameId,
}

/// An operand: a form, or an integer (the number it is).
fn operand(other: &Bound<'_, PyAny>) -> PyResult<Option<GameId>> {
    if let Ok(form) = other.cast::<Form>() {
        return Ok(Some(form.get().id));
    }
    if let Ok(n) = other.extract::<i64>() {
        return integer_id(n).map(Some);
    }
    Ok(None)
}

fn integer_id(n: i64) -> PyResult<GameId> {
    table()
        .table
        .integer(n)
        .map_err(|e| PyValueError::new_err(format!("no integer form for {n}: {e}")))
}

fn overflow(e: &grundy::Error) -> PyErr {
    PyValueError::new_err(format!("cannot compute the form: {e}"))
}

/// A dyadic rational as a `fractions.Fraction`.
fn fraction(py: Python<'_>, x: Dyadic) -> PyResult<Bound<'_, PyAny>> {
    let fraction = py.import("fractions")?.getattr("Fraction")?;
    fraction.call1((x.numerator(), 1u64 << x.exponent()))
}

#[pymethods]
impl Form {
    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<Option<Form>> {
        let Some(h) = operand(other)? else {
            return Ok(None);
        };
        let id = table().table.sum(self.id, h).map_err(|e| overflow(&e))?;
        Ok(Some(Form { id }))
    }

    fn __radd__(&self, other: &Bound<'_, PyAny>) -> PyResult<Option<Form>> {
        self.__add__(other)
    }

    fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<Option<Form>> {
        let Some(h) = operand(other)? else {
            return Ok(None);
        };
        let id = table().table.sub(self.id, h).map_err(|e| overflow(&e))?;
        Ok(Some(Form { id }))
    }

    fn __rsub__(&self, other: &Bound<'_, PyAny>) -> PyResult<Option<Form>> {
        let Some(h) = operand(other)? else {
            return Ok(None);
        };
        let id = table().table.sub(h, self.id).map_err(|e| overflow(&e))?;
        Ok(Some(Form { id }))
    }

    fn __neg__(&self) -> Form {
        Form {
            id: table().table.neg(self.id),
        }
    }

    /// The partial order of games: `g <= h` iff Left, playing second in `h - g`, wins
    /// (or it is 0); `==` is equality of values (one canonical form); two games neither
    /// `<=` the other are confused (`confused_with`).
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Option<bool>> {
        let Some(h) = operand(other)? else {
            return Ok(None);
        };
        let g = self.id;
        let mut t = table();
        let t = &mut t.table;
        Ok(Some(match op {
            CompareOp::Eq => g == h,
            CompareOp::Ne => g != h,
            CompareOp::Le => t.leq(g, h),
            CompareOp::Ge => t.geq(g, h),
            CompareOp::Lt => t.less(g, h),
            CompareOp::Gt => t.less(h, g),
        }))
    }

    fn __hash__(&self) -> u64 {
        u64::from(self.id.as_u32())
    }

    /// Whether neither is `<=` the other (`g || h`: their difference is a first-player win).
    fn confused_with(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Some(h) = operand(other)? else {
            return Err(PyValueError::new_err("compare with a Form or an integer"));
        };
        Ok(table().table.confused(self.id, h))
    }

    fn __str__(&self) -> String {
        cgt::write(&mut table().table, self.id, Spelling::Unicode)
    }

    fn __repr__(&self) -> String {
        self.__str__()
    }

    /// The form in ASCII (`+-1`, `^*`, `{2|-1/2}`), as `grundy value --ascii` writes it.
    #[getter]
    fn ascii(&self) -> String {
        cgt::write(&mut table().table, self.id, Spelling::Ascii)
    }

    /// The outcome class: `"L"` (Left wins), `"R"`, `"P"` (the second player wins) or
    /// `"N"` (the first player wins).
    #[getter]
    fn outcome(&self) -> &'static str {
        table().table.class(self.id).letter()
    }

    /// Left's options of the canonical form.
    #[getter]
    fn left_options(&self) -> Vec<Form> {
        let t = table();
        t.table
            .left(self.id)
            .iter()
            .map(|&id| Form { id })
            .collect()
    }

    /// Right's options of the canonical form.
    #[getter]
    fn right_options(&self) -> Vec<Form> {
        let t = table();
        t.table
            .right(self.id)
            .iter()
            .map(|&id| Form { id })
            .collect()
    }

    /// The birthday: the height of the canonical form's game tree.
    #[getter]
    fn birthday(&self) -> u32 {
        table().table.birthday(self.id)
    }

    /// The number the form is, as a `fractions.Fraction`, or `None`.
    #[getter]
    fn number<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let x = table().table.number_of(self.id);
        x.map(|x| fraction(py, x)).transpose()
    }

    /// The nimber `*n` the form is, as `n`, or `None`.
    #[getter]
    fn nimber(&self) -> Option<u32> {
        table().table.nimber_of(self.id)
    }

    /// `(left stop, right stop)`, as `fractions.Fraction`s.
    #[getter]
    fn stops<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let (left, right) = {
            let t = table();
            (t.table.left_stop(self.id), t.table.right_stop(self.id))
        };
        Ok((fraction(py, left)?, fraction(py, right)?))
    }

    /// The mean value, a `fractions.Fraction`.
    #[getter]
    fn mean<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, self.thermograph()?.mean)
    }

    /// The temperature, a `fractions.Fraction` (negative for numbers, as CGSuite gives
    /// it: -1 for integers, -1/2^k for a number of denominator 2^k).
    #[getter]
    fn temperature<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, self.thermograph()?.temperature)
    }

    /// The form cooled by `t` (a form that is a number, or an int, above -1):
    /// `{G^L_t - t | G^R_t + t}` until it freezes at its mean (CGSuite's `Cool`).
    fn cool(&self, t: &Bound<'_, PyAny>) -> PyResult<Form> {
        let by = operand(t)?.ok_or_else(|| PyValueError::new_err("cool by a form or an int"))?;
        let mut c = table();
        let x = c
            .table
            .number_of(by)
            .ok_or_else(|| PyValueError::new_err("the cooling temperature must be a number"))?;
        let id = cgt::cool(&mut c.table, self.id, x)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Form { id })
    }

    /// The form heated by `t` (a form or an int): `{G^L + t | G^R - t}`, numbers left
    /// alone (CGSuite's `Heat`).
    fn heat(&self, t: &Bound<'_, PyAny>) -> PyResult<Form> {
        let by = operand(t)?.ok_or_else(|| PyValueError::new_err("heat by a form or an int"))?;
        let id = cgt::heat(&mut table().table, self.id, by).map_err(|e| overflow(&e))?;
        Ok(Form { id })
    }

    /// The form overheated from `s` to `t` (CGSuite's `Overheat`): an integer `n`
    /// becomes `n` copies of `s`, other options move by `t`.
    fn overheat(&self, s: &Bound<'_, PyAny>, t: &Bound<'_, PyAny>) -> PyResult<Form> {
        let s =
            operand(s)?.ok_or_else(|| PyValueError::new_err("overheat from a form or an int"))?;
        let t = operand(t)?.ok_or_else(|| PyValueError::new_err("overheat to a form or an int"))?;
        let id = cgt::overheat(&mut table().table, self.id, s, t).map_err(|e| overflow(&e))?;
        Ok(Form { id })
    }

    /// The form cooled by its own temperature (CGSuite's `Freeze`); a number itself.
    fn freeze(&self) -> PyResult<Form> {
        let id = cgt::freeze(&mut table().table, self.id).map_err(|e| overflow(&e))?;
        Ok(Form { id })
    }

    /// Whether every number among the form's positions is 0.
    #[getter]
    fn is_all_small(&self) -> bool {
        cgt::is_all_small(&table().table, self.id)
    }

    /// Whether both stops are 0 (`-x < G < x` for every positive number `x`).
    #[getter]
    fn is_infinitesimal(&self) -> bool {
        cgt::is_infinitesimal(&table().table, self.id)
    }

    /// The atomic weight as CGSuite defines it: of every all-small form and of the other
    /// infinitesimals that are atomic (`ValueError`, with the reason, for any other).
    fn atomic_weight(&self) -> PyResult<Form> {
        let id = cgt::atomic_weight(&mut table().table, self.id)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Form { id })
    }

    /// The reduced canonical form (CGSuite's `ReducedCanonicalForm`): the simplest form
    /// infinitesimally close to this one (`^`, `*` and every infinitesimal reduce to 0).
    fn reduced_canonical_form(&self) -> PyResult<Form> {
        let id =
            cgt::reduced_canonical_form(&mut table().table, self.id).map_err(|e| overflow(&e))?;
        Ok(Form { id })
    }

    /// The thermograph drawn as SVG text (as `grundy value --thermograph FILE.svg`).
    fn thermograph_svg(&self) -> PyResult<String> {
        let drawn = self.thermograph()?;
        grundy_plot::thermograph_svg(&drawn, &self.__str__())
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// A table for Jupyter: the form, its outcome class, mean and temperature, and the
    /// thermograph beside them where a font lets it be drawn.
    fn _repr_html_(&self) -> PyResult<String> {
        let text = self.__str__();
        let thermograph = self.thermograph()?;
        let escape = |s: &str| {
            s.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        };
        Ok(format!(
            "<table><tr><th>value</th><td><code>{}</code></td></tr>\
             <tr><th>outcome class</th><td>{} ({})</td></tr>\
             <tr><th>mean</th><td>{}</td></tr><tr><th>temperature</th><td>{}</td></tr></table>{}",
            escape(&text),
            self.outcome(),
            report::value::winner(table().table.class(self.id)),
            thermograph.mean,
            thermograph.temperature,
            grundy_plot::thermograph_svg(&thermograph, &text).unwrap_or_default()
        ))
    }
}

impl Form {
    fn thermograph(&self) -> PyResult<cgt::Thermograph> {
        let t = table();
        cgt::thermograph(&t.table, self.id, &mut Default::default()).map_err(|e| overflow(&e))
    }
}

/// The form `{left | right}`, simplified to its canonical form.
#[pyfunction]
fn form(left: Vec<PyRef<'_, Form>>, right: Vec<PyRef<'_, Form>>) -> Form {
    let left: Vec<GameId> = left.iter().map(|f| f.id).collect();
    let right: Vec<GameId> = right.iter().map(|f| f.id).collect();
    Form {
        id: table().table.game(&left, &right),
    }
}

/// A form written in CGSuite's notation: `{2||1|0}`, `^*`, `+-1`, `3/4`, `*2`, sums.
#[pyfunction]
fn read_form(text: &str) -> PyResult<Form> {
    let id = cgt::read(&mut table().table, text)
        .map_err(|e| PyValueError::new_err(format!("cannot read `{text}`: {e}")))?;
    Ok(Form { id })
}

/// The number `numerator / 2^exponent`.
#[pyfunction]
fn dyadic(numerator: i64, exponent: u32) -> PyResult<Form> {
    let x = Dyadic::new(i128::from(numerator), exponent).ok_or_else(|| {
        PyValueError::new_err(format!(
            "{numerator}/2^{exponent} is past the numbers grundy's forms hold"
        ))
    })?;
    Ok(Form {
        id: table().table.number(x),
    })
}

/// The nimber `*n`.
#[pyfunction]
fn nimber(n: u32) -> PyResult<Form> {
    if n > report::value::MAX_NIMBER {
        return Err(PyValueError::new_err(format!(
            "nimbers past *{} are not built as forms",
            report::value::MAX_NIMBER
        )));
    }
    Ok(Form {
        id: table().table.nimber(n),
    })
}

/// The value of a spec (a position, or a sum `A + B`): its form, and each part's form
/// with the part as written.
#[pyfunction]
#[pyo3(signature = (spec, *, max_positions, progress=None))]
fn value_form(
    py: Python<'_>,
    spec: &str,
    max_positions: u64,
    progress: Option<Py<PyAny>>,
) -> PyResult<(Form, Vec<(String, Form)>)> {
    let parsed: grundy::games::Spec = spec.parse().map_err(|e| spec_error(py, spec, &e))?;
    let found = run(py, progress, |control| {
        let limits = Limits {
            control: grundy::explore::Control {
                max_positions,
                ..*control
            },
            ..Limits::default()
        };
        report::value::valuation(&parsed, &limits, &mut table())
    })?
    .map_err(|e| refusal(py, &format!("cannot value `{spec}`"), &e))?;
    let parts = found
        .parts
        .into_iter()
        .map(|(text, id)| (text, Form { id }))
        .collect();
    Ok((Form { id: found.total }, parts))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Form>()?;
    m.add_function(wrap_pyfunction!(form, m)?)?;
    m.add_function(wrap_pyfunction!(read_form, m)?)?;
    m.add_function(wrap_pyfunction!(dyadic, m)?)?;
    m.add_function(wrap_pyfunction!(nimber, m)?)?;
    m.add_function(wrap_pyfunction!(value_form, m)?)?;
    Ok(())
}
