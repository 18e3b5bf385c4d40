//! The library's analyses from Python: specs solved, tables, patterns, graphs.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Solves a spec and returns the report as the CLI's `--json` text.
#[pyfunction]
fn solve_json(py: Python<'_>, spec: &str) -> PyResult<String> {
    let spec: grundy::games::Spec = spec
        .parse()
        .map_err(|e| PyValueError::new_err(format!("{e}")))?;
    let limits = grundy::report::Limits::default();
    let report = py
        .detach(|| grundy::report::solve(&spec, &limits))
        .map_err(|e| PyValueError::new_err(format!("cannot solve `{spec}`: {e}")))?;
    serde_json::to_string(&report).map_err(|e| PyValueError::new_err(e.to_string()))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve_json, m)?)?;
    Ok(())
}
