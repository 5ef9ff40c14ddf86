//! `DispatchKeySet` for Python, and conversion of Python key values.
//!
//! Python's `opyard.dispatcher.DispatchKey` is an `IntEnum` built from
//! `_key_names()`; the core accepts its members, plain ints and key names.

use crate::dispatch::{DispatchKey, DispatchKeySet};
use crate::python::errors::{core_err, quote, type_name};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyLong, PyString, PyTuple};

/// Convert a `DispatchKey` member, an int or a key name.
pub fn extract_key(obj: &Bound<'_, PyAny>) -> PyResult<DispatchKey> {
    if let Ok(s) = obj.downcast::<PyString>() {
        return DispatchKey::parse(s.to_str()?).map_err(core_err);
    }
    if obj.is_instance_of::<PyLong>() {
        // An IntEnum member is an int; any other int must be a key's index.
        return obj
            .extract::<usize>()
            .ok()
            .and_then(DispatchKey::from_index)
            .ok_or_else(|| {
                PyRuntimeError::new_err(format!("could not parse dispatch key: {}", quote(obj)))
            });
    }
    Err(PyTypeError::new_err(format!(
        "expected a DispatchKey (or its name), got {}",
        type_name(obj)
    )))
}

/// An optional key: `None` and `""` mean "not given".
pub fn extract_opt_key(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<DispatchKey>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o)
            if o.downcast::<PyString>()
                .is_ok_and(|s| s.to_str().is_ok_and(str::is_empty)) =>
        {
            Ok(None)
        }
        Some(o) => extract_key(o).map(Some),
    }
}

/// The Python `DispatchKey` member for a key (its index before the hooks are installed).
pub fn key_to_py(py: Python<'_>, k: DispatchKey) -> PyResult<PyObject> {
    match crate::python::hooks::installed(py) {
        Some(h) => h.dispatch_key.call1(py, (k as usize,)),
        None => Ok((k as usize).into_py(py)),
    }
}

/// torch's key names in declaration order (index == enum value).
#[pyfunction]
pub fn _key_names() -> Vec<&'static str> {
    crate::dispatch::key::ALL_KEYS
        .iter()
        .map(|k| k.name())
        .collect()
}

// Note [One device table]: which device type reaches which backend key, and
// which Autograd and Autocast keys serve each backend, is decided in the
// core's one backend list (See Note [One backend list] in src/dispatch/key.rs:
// `DispatchKey::device_type`, `autograd_of`, `autocast_of`).
// Python reads the table once (`opyard._keys`, at import) and keeps no copy of
// its own, so a backend added to the core reaches every Python user of it.

/// One row of `_backend_table`: `(device type or None, backend key, Autograd
/// key, Autocast key or None)`, keys by index.
type BackendRow = (Option<&'static str>, usize, Option<usize>, Option<usize>);

/// Every backend key, in priority order, with its device type, Autograd key and
/// Autocast key.
#[pyfunction]
pub fn _backend_table() -> Vec<BackendRow> {
    crate::dispatch::key::BACKEND_KEYS
        .iter()
        .map(|&k| {
            (
                k.device_type(),
                k as usize,
                k.autograd_of().map(|a| a as usize),
                k.autocast_of().map(|a| a as usize),
            )
        })
        .collect()
}

/// A set of runtime dispatch keys (one u64).
#[pyclass(name = "DispatchKeySet", module = "opyard._core", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyDispatchKeySet(pub DispatchKeySet);

fn coerce(obj: &Bound<'_, PyAny>) -> PyResult<DispatchKeySet> {
    if let Ok(s) = obj.downcast::<PyDispatchKeySet>() {
        return Ok(s.get().0);
    }
    if obj.downcast::<PyList>().is_ok() || obj.downcast::<PyTuple>().is_ok() {
        let mut ks = DispatchKeySet::EMPTY;
        for item in obj.iter()? {
            ks = ks | coerce(&item?)?;
        }
        return Ok(ks);
    }
    Ok(DispatchKeySet::from_key(extract_key(obj)?))
}

/// Anything `DispatchKeySet(...)` accepts: a set, a key, or a list of either.
pub fn extract_keyset(obj: &Bound<'_, PyAny>) -> PyResult<DispatchKeySet> {
    coerce(obj)
}

#[pymethods]
impl PyDispatchKeySet {
    /// `DispatchKeySet()`, `DispatchKeySet(key)`, `DispatchKeySet([k1, k2])`; an alias
    /// key expands to the runtime keys it covers.
    #[new]
    #[pyo3(signature = (keys=None))]
    fn new(keys: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(Self(match keys {
            None => DispatchKeySet::EMPTY,
            Some(k) => coerce(k)?,
        }))
    }

    /// From raw bits.
    #[staticmethod]
    fn from_raw(raw: u64) -> Self {
        Self(DispatchKeySet::from_raw(raw))
    }

    fn raw(&self) -> u64 {
        self.0.raw()
    }

    /// The set in torch's bit layout (torch's `raw_repr`); `raw()` is opyard's own.
    fn raw_repr(&self) -> u64 {
        self.0.raw_repr()
    }

    /// The set whose torch bit layout is `raw` (torch's `from_raw_repr`).
    #[staticmethod]
    fn from_raw_repr(raw: u64) -> PyResult<Self> {
        DispatchKeySet::from_raw_repr(raw)
            .map(Self)
            .map_err(|unknown| {
                PyRuntimeError::new_err(format!(
                    "DispatchKeySet.from_raw_repr({raw}): bits {unknown:#x} name no dispatch key \
                 opyard has (a backend or functionality of torch's it does not model); \
                 pass the raw_repr() of an opyard DispatchKeySet"
                ))
            })
    }

    fn has(&self, key: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.0.has(extract_key(key)?))
    }

    fn add(&self, key: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(Self(self.0.add(extract_key(key)?)))
    }

    fn remove(&self, key: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(Self(self.0.remove(extract_key(key)?)))
    }

    fn empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The highest-priority key (`Undefined` when empty).
    #[allow(non_snake_case)]
    fn highestPriorityTypeId(&self, py: Python<'_>) -> PyResult<PyObject> {
        key_to_py(py, self.0.highest())
    }

    fn __or__(&self, o: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(Self(self.0 | coerce(o)?))
    }

    fn __and__(&self, o: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(Self(self.0 & coerce(o)?))
    }

    fn __sub__(&self, o: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(Self(self.0 - coerce(o)?))
    }

    fn __contains__(&self, key: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.has(key)
    }

    fn __bool__(&self) -> bool {
        !self.0.is_empty()
    }

    fn __len__(&self) -> usize {
        self.0.iter().count()
    }

    fn __int__(&self) -> u64 {
        self.0.raw()
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<PyObject> {
        let items = self
            .0
            .iter()
            .map(|k| key_to_py(py, k))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyList::new_bound(py, items)
            .as_any()
            .iter()?
            .into_any()
            .unbind())
    }

    fn __repr__(&self) -> String {
        self.0.to_string()
    }
}
