//! The `__opyard_function__` protocol on the call path: the Python handler
//! and when it is consulted.
//!
//! The handler (`opyard.overrides`, `Hooks::function_protocol`) is asked after a binding `TypeError`
//! (Tensor-like duck types) and, after binding, when a tensor argument is not
//! of a plain type or a function mode is active (see Note [Subclass check]
//! and Note [Function protocol state]).

use crate::python::hooks::installed;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// `try_override`, then (a `TypeError` still standing) the number-operand
/// retry (`Hooks::number_operands`: `opyard.add(2.5, t)`).
pub fn try_override_or_numbers(
    func: &Bound<'_, PyAny>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
    err: PyErr,
) -> PyResult<PyObject> {
    let py = func.py();
    let err = match try_override(func, args, kwargs, err) {
        Err(e) if e.is_instance_of::<PyTypeError>(py) => e,
        other => return other,
    };
    let Some(retry) = installed(py).map(|h| &h.number_operands) else {
        return Err(err);
    };
    let kwargs = match kwargs {
        Some(k) => k.clone(),
        None => PyDict::new_bound(py),
    };
    let out = retry.bind(py).call1((func, args, kwargs))?;
    if out.is(&py.NotImplemented()) {
        Err(err)
    } else {
        Ok(out.unbind())
    }
}

/// After a binding `TypeError`: let an argument's `__opyard_function__` /
/// `__torch_function__` handle the call; re-raise `err` if none does.
pub fn try_override(
    func: &Bound<'_, PyAny>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
    err: PyErr,
) -> PyResult<PyObject> {
    let py = func.py();
    if !err.is_instance_of::<PyTypeError>(py) {
        return Err(err);
    }
    let Some(hooks) = installed(py) else {
        return Err(err);
    };
    let handler = hooks.function_protocol.get(py)?;
    let kwargs = match kwargs {
        Some(k) => k.clone(),
        None => PyDict::new_bound(py),
    };
    let out = handler.bind(py).call1((func, args, kwargs))?;
    if out.is(&py.NotImplemented()) {
        Err(err)
    } else {
        Ok(out.unbind())
    }
}

/// Run the protocol for a bound call that wants it (see
/// `tls::wants_function_protocol`): `Some(result)` when an override handled
/// the call, `None` to dispatch as usual.
#[cold]
pub fn function_protocol(
    func: &Bound<'_, PyAny>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Option<PyObject>> {
    let py = func.py();
    let Some(hooks) = installed(py) else {
        return Ok(None);
    };
    let handler = hooks.function_protocol.get(py)?;
    let kwargs = match kwargs {
        Some(k) => k.clone(),
        None => PyDict::new_bound(py),
    };
    let out = handler.bind(py).call1((func, args, kwargs))?;
    Ok((!out.is(&py.NotImplemented())).then(|| out.unbind()))
}

/// Run the protocol for `func(*args, **kwargs)`, a Python-level function
/// (indexing, ...), looking for overrides in `relevant` (nested lists and
/// tuples included): the override's result, or `NotImplemented` when nothing
/// takes part (torch's `handle_torch_function` for functions the binder does
/// not see).
#[pyfunction]
#[pyo3(signature = (func, relevant, args, kwargs=None))]
pub fn _handle_function_protocol(
    py: Python<'_>,
    func: &Bound<'_, PyAny>,
    relevant: &Bound<'_, PyAny>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    let Some(hooks) = installed(py) else {
        return Ok(py.NotImplemented());
    };
    let handler = hooks.function_protocol.get(py)?;
    let kwargs = match kwargs {
        Some(k) => k.clone(),
        None => PyDict::new_bound(py),
    };
    Ok(handler
        .bind(py)
        .call1((func, args, kwargs, relevant))?
        .unbind())
}
