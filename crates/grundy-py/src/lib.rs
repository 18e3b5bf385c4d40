//! grundy as a Python package (`import grundy`): the library's engines behind Python
//! calls. This crate is a front end like the CLI and the web: it turns Python values into
//! the library's inputs and the library's answers into Python values, and holds no game
//! logic. The Python half of the package is in `python/grundy/`.

use pyo3::prelude::*;

mod batched;
mod cgt;
mod core;
mod games;
mod search;

/// The compiled half of the `grundy` package; `grundy/__init__.py` wraps it.
#[pymodule]
fn _grundy(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    core::register(m)?;
    games::register(m)?;
    batched::register(m)?;
    cgt::register(m)?;
    search::register(m)?;
    Ok(())
}
