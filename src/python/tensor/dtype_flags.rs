//! Boolean facts about dtype objects (`is_floating_point`, "differentiable"),
//! remembered by the dtype object's identity: dtypes are a few shared objects,
//! so the recording paths read a fact with a pointer comparison instead of a
//! Python attribute lookup per call.

use pyo3::prelude::*;
use pyo3::sync::GILProtected;
use std::cell::RefCell;

/// One fact per dtype object seen (the dtype kept alive here).
pub struct DtypeFlags(GILProtected<RefCell<Vec<(PyObject, bool)>>>);

/// A few builtin dtypes in practice; past the cap the fact is computed each time.
const CAP: usize = 32;

impl DtypeFlags {
    pub const fn new() -> Self {
        DtypeFlags(GILProtected::new(RefCell::new(Vec::new())))
    }

    /// The fact for `dtype`, computed by `compute` the first time it is seen.
    /// `compute` runs with no borrow held (it calls Python).
    pub fn get(
        &self,
        dtype: &Bound<'_, PyAny>,
        compute: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<bool>,
    ) -> PyResult<bool> {
        let py = dtype.py();
        let hit = self
            .0
            .get(py)
            .borrow()
            .iter()
            .find(|(d, _)| d.as_ptr() == dtype.as_ptr())
            .map(|&(_, f)| f);
        if let Some(f) = hit {
            return Ok(f);
        }
        let f = compute(dtype)?;
        let mut seen = self.0.get(py).borrow_mut();
        if seen.len() < CAP {
            seen.push((dtype.clone().unbind(), f));
        }
        Ok(f)
    }
}
