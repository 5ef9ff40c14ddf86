//! The extension module `opyard._core`: the only pyo3 code.

// pyo3 0.22's #[pymethods] expansion converts `PyErr` into itself for every
// fallible method; newer clippy flags each one.
#![allow(clippy::useless_conversion)]

mod autograd;
mod batched;
mod dispatch;
mod errors;
mod fake;
mod ffi;
mod hooks;
mod kernels_py;
mod schema;
mod tensor;

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    hooks::register(m)?;
    schema::register(m)?;
    tensor::register(m)?;
    dispatch::register(m)?;
    kernels_py::register(m)?;
    autograd::register(m)?;
    batched::register(m)?;
    fake::register(m)
}
