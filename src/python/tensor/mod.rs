//! The tensor's state in Rust: `TensorBase` (the base class of
//! `opyard.Tensor`), its slots, attributes and autograd fields, the version
//! counter, `device`, and the methods written in Rust.

pub mod attrs;
pub mod base;
pub mod device;
pub mod dtype_flags;
pub mod fields;
pub mod grad;
pub mod init;
pub mod slots;
pub mod version;
pub mod view_method;

use pyo3::prelude::*;

/// Add this area's classes and functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<base::PyTensorBase>()?;
    m.add_class::<base::PyDevice>()?;
    m.add_class::<version::PyVersionCounter>()?;
    init::init(m)?;
    m.add_function(wrap_pyfunction!(init::_share_state, m)?)?;
    m.add_function(wrap_pyfunction!(init::_slot_alias, m)?)?;
    m.add_function(wrap_pyfunction!(base::_rename_privateuse1_backend, m)?)?;
    m.add_function(wrap_pyfunction!(base::_next_birth, m)?)?;
    m.add_class::<view_method::PySizesMethod>()?;
    Ok(())
}
