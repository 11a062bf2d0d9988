//! `varsand._native`: the library as a Python module. The package around it
//! (python/varsand/) re-exports these classes and adds the PettingZoo environment and
//! the Ray runs, which are written in Python since they drive Python libraries.
//!
//! Decision: the module is a thin layer over the library's own functions (loading,
//! move texts, perft, the search, analysis, merging shards), so that Python and the
//! command line give the same answers by construction; only the fixed action
//! numbering and the observation planes, which only agents need, are new (`encode`).

use pyo3::prelude::*;

mod analysis;
mod encode;
mod game;
mod position;

pyo3::create_exception!(
    _native,
    VarsandError,
    pyo3::exceptions::PyException,
    "A rule file with errors: `diagnostics` is the report as the command line prints it, `problems` the same as dictionaries (code, severity, message, line, column)."
);

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("VarsandError", m.py().get_type::<VarsandError>())?;
    m.add_class::<game::Game>()?;
    m.add_class::<position::Position>()?;
    m.add_class::<position::Move>()?;
    m.add_class::<position::Outcome>()?;
    m.add_class::<position::SearchResult>()?;
    m.add_function(wrap_pyfunction!(game::load, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::merge, m)?)?;
    Ok(())
}
