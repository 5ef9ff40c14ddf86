//! Fake tensors from Rust: the `Fake` fallback's metadata cache, its call
//! keys and the thread's `FakeTensorMode`.

pub mod cache;
pub mod fields;
pub mod key;

use pyo3::prelude::*;

/// Add this area's classes and functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<cache::PyFakeFallback>()?;
    m.add_function(wrap_pyfunction!(key::_fake_mode, m)?)?;
    m.add_function(wrap_pyfunction!(key::_fake_mode_swap, m)?)?;
    Ok(())
}
