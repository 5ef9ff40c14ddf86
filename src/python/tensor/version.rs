//! The version counter of a tensor's memory.
//!
//! Every in-place operation bumps the counter of the tensor it mutates; views
//! share their root's counter object, so writing through any of them is seen
//! by all (saved tensors compare the version they saved with the current one).

use pyo3::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// A shared version counter (torch's `VariableVersion`).
#[pyclass(name = "_VersionCounter", module = "opyard._core", frozen)]
pub struct PyVersionCounter {
    value: AtomicU64,
}

/// `_VersionCounter`'s class, found once (Note [Class pointers kept], `ffi/type_slots.rs`).
pub static VERSION_COUNTER: crate::python::ffi::type_slots::ClassPtr<PyVersionCounter> =
    crate::python::ffi::type_slots::ClassPtr::new();

impl PyVersionCounter {
    /// A counter at version 0.
    pub fn new() -> Self {
        PyVersionCounter {
            value: AtomicU64::new(0),
        }
    }

    /// The current version.
    #[inline]
    pub fn get(&self) -> u64 {
        self.value.load(Ordering::Relaxed)
    }

    /// Record one in-place modification.
    #[inline]
    pub fn bump(&self) {
        self.value.fetch_add(1, Ordering::Relaxed);
    }
}

impl Default for PyVersionCounter {
    fn default() -> Self {
        Self::new()
    }
}

#[pymethods]
impl PyVersionCounter {
    #[new]
    fn py_new() -> Self {
        Self::new()
    }

    /// The current version.
    #[getter]
    fn value(&self) -> u64 {
        self.get()
    }

    /// Increment the version by one.
    #[pyo3(name = "bump")]
    fn py_bump(&self) {
        self.bump();
    }

    fn __repr__(&self) -> String {
        format!("_VersionCounter({})", self.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bumps_count_up_from_zero() {
        let c = PyVersionCounter::new();
        assert_eq!(c.get(), 0);
        c.bump();
        c.bump();
        assert_eq!(c.get(), 2);
    }
}
