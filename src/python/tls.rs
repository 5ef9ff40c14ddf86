//! Thread-local include/exclude guards as Python context managers.
//!
//! `opyard.dispatcher.include/exclude/below_autograd` and `no_grad` build on
//! these; `__exit__` restores the saved sets even when the body raised.

use super::keys::{extract_keyset, PyDispatchKeySet};
use crate::dispatch::tls::{self, LocalKeySets};
use crate::dispatch::DispatchKeySet;
use pyo3::prelude::*;

/// Adds keys to the thread's included and/or excluded sets while active.
#[pyclass(name = "_KeyGuard", module = "opyard._core")]
pub struct PyKeyGuard {
    include: DispatchKeySet,
    exclude: DispatchKeySet,
    saved: Vec<LocalKeySets>,
}

#[pymethods]
impl PyKeyGuard {
    #[new]
    #[pyo3(signature = (include=None, exclude=None))]
    fn new(
        include: Option<&Bound<'_, PyAny>>,
        exclude: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let get =
            |o: Option<&Bound<'_, PyAny>>| o.map_or(Ok(DispatchKeySet::EMPTY), extract_keyset);
        Ok(PyKeyGuard {
            include: get(include)?,
            exclude: get(exclude)?,
            saved: Vec::new(),
        })
    }

    fn __enter__(mut slf: PyRefMut<'_, Self>) -> PyRefMut<'_, Self> {
        let cur = tls::get();
        slf.saved.push(cur);
        tls::replace(LocalKeySets {
            included: (cur.included | slf.include) - slf.exclude,
            excluded: (cur.excluded | slf.exclude) - slf.include,
        });
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&mut self, _exc: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        if let Some(prev) = self.saved.pop() {
            tls::replace(prev);
        }
        false
    }
}

/// Sets the thread's sets to exactly the given ones while active.
#[pyclass(name = "_SetKeysGuard", module = "opyard._core")]
pub struct PySetKeysGuard {
    target: LocalKeySets,
    saved: Vec<LocalKeySets>,
}

#[pymethods]
impl PySetKeysGuard {
    #[new]
    fn new(included: &Bound<'_, PyAny>, excluded: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PySetKeysGuard {
            target: LocalKeySets {
                included: extract_keyset(included)?,
                excluded: extract_keyset(excluded)?,
            },
            saved: Vec::new(),
        })
    }

    fn __enter__(mut slf: PyRefMut<'_, Self>) -> PyRefMut<'_, Self> {
        let t = slf.target;
        slf.saved.push(tls::replace(t));
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&mut self, _exc: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        if let Some(prev) = self.saved.pop() {
            tls::replace(prev);
        }
        false
    }
}

/// The thread's (included, excluded) sets.
#[pyfunction]
pub fn _local_keysets() -> (PyDispatchKeySet, PyDispatchKeySet) {
    let l = tls::get();
    (PyDispatchKeySet(l.included), PyDispatchKeySet(l.excluded))
}

/// True while any of `keys` is excluded on this thread (e.g. autograd under no_grad).
#[pyfunction]
pub fn _is_excluded(keys: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(tls::get().excluded.has_any(extract_keyset(keys)?))
}

/// True while any of `keys` is included on this thread.
#[pyfunction]
pub fn _is_included(keys: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(tls::get().included.has_any(extract_keyset(keys)?))
}
