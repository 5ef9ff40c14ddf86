//! Thread-local include/exclude guards as Python context managers.
//!
//! `opyard.dispatcher.include/exclude/below_autograd` and `no_grad` build on
//! these; `__exit__` restores the saved sets even when the body raised.

use crate::dispatch::tls::{self, LocalKeySets};
use crate::dispatch::DispatchKeySet;
use crate::python::dispatch::keys::{extract_keyset, PyDispatchKeySet};
use pyo3::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The call path applies the thread's sets through this module too.
pub use crate::dispatch::tls::apply;

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

/// Note [Function protocol state]: one byte per thread tells the call path
/// whether to consult `__opyard_function__` before dispatching: a function
/// mode is active (`TF_MODE`), subclass overrides are off
/// (`DisableTorchFunctionSubclass`: `TF_SUBCLASS_OFF`), or the whole protocol
/// is off (`DisableTorchFunction`: `TF_ALL_OFF`). `opyard.overrides` keeps
/// the mode stack and sets the byte; the call path only reads it.
pub const TF_MODE: u8 = 1;
/// See Note [Function protocol state].
pub const TF_SUBCLASS_OFF: u8 = 2;
/// See Note [Function protocol state].
pub const TF_ALL_OFF: u8 = 4;

thread_local! {
    static FUNCTION_STATE: std::cell::Cell<u8> = const { std::cell::Cell::new(0) };
}

/// How many threads have a non-zero state byte. The call path reads this
/// process-wide counter instead of the thread-local byte while it is zero:
/// a thread-local in a shared library costs a `__tls_get_addr` call, an
/// atomic load does not.
static THREADS_WITH_STATE: AtomicUsize = AtomicUsize::new(0);

/// Whether a call must go through the protocol handler: always under a
/// function mode, for a call with a non-plain tensor argument unless
/// subclass overrides are off, never while the protocol is off.
#[inline]
pub fn wants_function_protocol(foreign: bool) -> bool {
    if !foreign && THREADS_WITH_STATE.load(Ordering::Relaxed) == 0 {
        return false;
    }
    let s = FUNCTION_STATE.with(std::cell::Cell::get);
    if s == 0 {
        return foreign;
    }
    s & TF_ALL_OFF == 0 && (s & TF_MODE != 0 || (foreign && s & TF_SUBCLASS_OFF == 0))
}

/// The thread's protocol state byte. See Note [Function protocol state].
#[pyfunction]
pub fn _function_state() -> u8 {
    FUNCTION_STATE.with(std::cell::Cell::get)
}

/// Replace the thread's protocol state byte, returning the previous one.
#[pyfunction]
pub fn _set_function_state(state: u8) -> u8 {
    let new = state & (TF_MODE | TF_SUBCLASS_OFF | TF_ALL_OFF);
    let prev = FUNCTION_STATE.with(|c| c.replace(new));
    match (prev == 0, new == 0) {
        (true, false) => {
            THREADS_WITH_STATE.fetch_add(1, Ordering::Relaxed);
        }
        (false, true) => {
            THREADS_WITH_STATE.fetch_sub(1, Ordering::Relaxed);
        }
        _ => {}
    }
    prev
}

/// Put the `Python` key in (or take it out of) the thread's included set,
/// returning whether it was there: dispatch modes route every op to the
/// `Python` key's fallback while their stack is non-empty.
#[pyfunction]
pub fn _set_python_key_included(on: bool) -> bool {
    let cur = tls::get();
    let python = crate::dispatch::DispatchKey::Python;
    let was = cur.included.has(python);
    let included = if on {
        cur.included.add(python)
    } else {
        cur.included.remove(python)
    };
    tls::replace(LocalKeySets {
        included,
        excluded: cur.excluded,
    });
    was
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_protocol_decision() {
        let prev = _set_function_state(0);
        assert!(!wants_function_protocol(false));
        assert!(wants_function_protocol(true));
        _set_function_state(TF_SUBCLASS_OFF);
        assert!(!wants_function_protocol(true));
        _set_function_state(TF_SUBCLASS_OFF | TF_MODE);
        assert!(wants_function_protocol(false));
        _set_function_state(TF_ALL_OFF | TF_MODE);
        assert!(!wants_function_protocol(true));
        assert_eq!(_set_function_state(0xff), TF_ALL_OFF | TF_MODE);
        assert_eq!(_function_state(), TF_MODE | TF_SUBCLASS_OFF | TF_ALL_OFF);
        _set_function_state(prev);
    }

    #[test]
    fn python_key_toggle_keeps_other_keys() {
        let prev = tls::replace(LocalKeySets::default());
        assert!(!_set_python_key_included(true));
        assert!(tls::get()
            .included
            .has(crate::dispatch::DispatchKey::Python));
        assert!(_set_python_key_included(false));
        assert_eq!(tls::get(), LocalKeySets::default());
        tls::replace(prev);
    }
}
