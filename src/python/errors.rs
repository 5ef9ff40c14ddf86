//! Core errors to Python exceptions, in one place.
//!
//! Each core error maps to a specific class: `SchemaError(ValueError, RuntimeError)` for
//! schema text, `ValueError` for a bad library kind, `RuntimeError` for
//! registration rules and unknown keys, `NotImplementedError` for a missing
//! kernel. Errors raised by Python kernels pass through untouched.
//!
//! Every message that quotes user input quotes it through `clip` or `quote`,
//! so a 10 MB argument yields a message of a few hundred characters.

use crate::dispatch::DispatchKey;
use crate::error::Error;
use crate::python::dispatch::library::registered_keys;
use crate::python::dispatch::operator::PyOperator;
use crate::python::ffi::object::new_exception_type;
use crate::schema::SchemaError as CoreSchemaError;
use pyo3::exceptions::{
    PyNotImplementedError, PyOverflowError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBytes, PyList, PySlice, PyString, PyTuple, PyType};
use std::borrow::Cow;

static SCHEMA_ERROR: GILOnceCell<Py<PyType>> = GILOnceCell::new();

/// `opyard.SchemaError` (its `__module__` is `opyard`, where users import it
/// from; exported from `opyard._core` by `schema::register`): a `ValueError`,
/// and a `RuntimeError` as torch raises for a schema it refuses, so `except
/// RuntimeError` written against `torch.library` catches it too.
pub fn schema_error_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    let ty = SCHEMA_ERROR.get_or_try_init(py, || -> PyResult<Py<PyType>> {
        let bases = PyTuple::new_bound(
            py,
            [
                py.get_type_bound::<PyValueError>(),
                py.get_type_bound::<PyRuntimeError>(),
            ],
        );
        Ok(new_exception_type(
            py,
            c"opyard.SchemaError",
            c"A function schema that does not parse (a ValueError and a RuntimeError, as torch raises).\n\n\
              `str(e)` is the message, the offending line and a caret under the offending token;\n\
              `e.offset` (bytes), `e.line` and `e.column` (1-based) locate it.",
            &bases,
        )?
        .unbind())
    })?;
    Ok(ty.bind(py))
}

/// `opyard.SchemaError` for a core schema error, with `offset`, `line`,
/// `column` and `message` set on the instance and `str(e)` equal to the Rust
/// `Display` (message, source line, caret).
pub fn schema_err(e: &CoreSchemaError) -> PyErr {
    Python::with_gil(|py| {
        let err = match schema_error_type(py) {
            Ok(ty) => PyErr::from_type_bound(ty.clone(), schema_text(e)),
            // Creating a class only fails without memory; a ValueError is still right.
            Err(_) => return PyValueError::new_err(schema_text(e)),
        };
        let value = err.value_bound(py);
        // Setting attributes on a fresh exception instance cannot fail short
        // of memory exhaustion; the exception is still the right one then.
        let _ = value.setattr("offset", e.offset);
        let _ = value.setattr("line", e.line);
        let _ = value.setattr("column", e.column);
        let _ = value.setattr("message", clip(&e.message).as_ref());
        err
    })
}

/// The core error's `Display` (message, source line, caret), with a long
/// source line cut to a window of `QUOTE_LIMIT` characters around the caret.
fn schema_text(e: &CoreSchemaError) -> String {
    let line: Vec<char> = e.source_line().chars().collect();
    if line.len() <= QUOTE_LIMIT && e.message.chars().count() <= QUOTE_LIMIT {
        return e.to_string();
    }
    let caret = e.column.saturating_sub(1).min(line.len());
    let start = caret.saturating_sub(QUOTE_LIMIT / 2);
    let end = (start + QUOTE_LIMIT).min(line.len());
    let (lead, tail) = (
        if start > 0 { "…" } else { "" },
        if end < line.len() { "…" } else { "" },
    );
    let shown: String = line[start..end].iter().collect();
    let pad: String = line[start..caret]
        .iter()
        .map(|c| if *c == '\t' { '\t' } else { ' ' })
        .chain(lead.chars().map(|_| ' '))
        .collect();
    format!(
        "{} (line {}, column {}):\n  {lead}{shown}{tail}\n  {pad}^",
        clip(&e.message),
        e.line,
        e.column
    )
}

/// Map a core error to its Python exception.
pub fn core_err(e: Error) -> PyErr {
    match e {
        Error::Schema(s) => schema_err(&s),
        Error::UnknownKey(name) => {
            PyRuntimeError::new_err(format!("could not parse dispatch key: {}", clip(&name)))
        }
        Error::BadKind(_) => PyValueError::new_err(e.to_string()),
        Error::Registration(_) | Error::UnknownOp(_) => PyRuntimeError::new_err(e.to_string()),
    }
}

/// An operator that is not (or no longer) defined.
pub fn unknown_op(msg: String) -> PyErr {
    PyRuntimeError::new_err(msg)
}

/// torch's "Could not run ..." for a missing kernel.
pub fn no_kernel(op: &PyOperator, key: DispatchKey) -> PyErr {
    let name = op.name.strip_suffix(".default").unwrap_or(&op.name);
    let keys: Vec<&str> = registered_keys(&op.name).iter().map(|k| k.name()).collect();
    let fix = if key == DispatchKey::Undefined {
        "register a CompositeExplicitAutograd kernel for calls without tensor arguments".to_string()
    } else {
        format!("register one with Library.impl('{name}', fn, '{key}') or opyard.library.register_kernel")
    };
    PyNotImplementedError::new_err(format!(
        "Could not run '{name}' with arguments from the '{key}' backend. This could be because \
         the operator doesn't exist for this backend: {fix}. '{name}' is only available for \
         these backends: [{}].",
        keys.join(", ")
    ))
}

/// CompositeImplicitAutograd vs a backend kernel for AutogradOther.
pub fn ambiguous_autograd_other(op: &PyOperator) -> PyErr {
    PyRuntimeError::new_err(format!(
        "{}: ambiguous AutogradOther kernel: the operator has a CompositeImplicitAutograd kernel \
         and a kernel for a backend that maps to AutogradOther; register an AutogradOther kernel \
         to resolve it",
        op.name
    ))
}

/// The most characters of user input a message quotes.
pub const QUOTE_LIMIT: usize = 200;

/// Text taken from user input, cut to `QUOTE_LIMIT` characters with "…" marking the cut.
pub fn clip(s: &str) -> Cow<'_, str> {
    match s.char_indices().nth(QUOTE_LIMIT) {
        None => Cow::Borrowed(s),
        Some((end, _)) => Cow::Owned(format!("{}…", &s[..end])),
    }
}

/// `repr(v)` for a message, clipped. A long str, bytes, list or tuple is sliced
/// before `repr`, so quoting a huge argument costs no huge copy: its first
/// `QUOTE_LIMIT + 1` items already print to more than `QUOTE_LIMIT` characters.
pub fn quote(v: &Bound<'_, PyAny>) -> String {
    let head = if v.is_instance_of::<PyString>()
        || v.is_instance_of::<PyBytes>()
        || v.is_instance_of::<PyList>()
        || v.is_instance_of::<PyTuple>()
    {
        let cut = PySlice::new_bound(v.py(), 0, QUOTE_LIMIT as isize + 1, 1);
        v.get_item(cut).unwrap_or_else(|_| v.clone())
    } else {
        v.clone()
    };
    match head.repr() {
        Ok(r) => clip(&r.to_string_lossy()).into_owned(),
        Err(_) => format!("<unprintable {} object>", type_name(v)),
    }
}

/// The name of `v`'s type, for messages.
pub fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".to_string())
}

static ARGUMENT_ERROR: GILOnceCell<Py<PyType>> = GILOnceCell::new();

/// Note [Argument errors]: torch reports arguments that do not fit an
/// operator's schema as `RuntimeError` (its operator binder) but as
/// `TypeError` from its Python argument parser, and code catches either. The
/// binder raises one class deriving from both, so `except TypeError` and
/// `except RuntimeError` written against torch both catch it.
pub fn argument_error(py: Python<'_>, msg: String) -> PyErr {
    match argument_error_type(py) {
        Ok(ty) => PyErr::from_type_bound(ty.bind(py).clone(), msg),
        // Creating a class only fails without memory; a TypeError is still right.
        Err(_) => PyTypeError::new_err(msg),
    }
}

fn argument_error_type(py: Python<'_>) -> PyResult<&Py<PyType>> {
    ARGUMENT_ERROR.get_or_try_init(py, || {
        let bases = PyTuple::new_bound(
            py,
            [
                py.get_type_bound::<PyTypeError>(),
                py.get_type_bound::<PyRuntimeError>(),
            ],
        );
        let ty = new_exception_type(
            py,
            c"opyard._core.ArgumentError",
            c"Arguments that do not fit an operator's schema (a TypeError and a RuntimeError, as torch raises either).",
            &bases,
        )?;
        // Reachable as `opyard._core.ArgumentError`, so that the exception
        // pickles (to and from worker processes, say) like any other.
        PyModule::import_bound(py, "opyard._core")?.setattr("ArgumentError", &ty)?;
        Ok(ty.unbind())
    })
}

static ARGUMENT_OVERFLOW_ERROR: GILOnceCell<Py<PyType>> = GILOnceCell::new();

/// An `ArgumentError` for a Python int no Scalar (or float) can hold: torch's
/// argument parser accepts the int as a number and its conversion raises
/// `OverflowError` ("int too big to convert"), so the class is also an
/// `OverflowError` (See Note [Argument errors]).
pub fn argument_overflow_error(py: Python<'_>, msg: String) -> PyErr {
    let ty = ARGUMENT_OVERFLOW_ERROR.get_or_try_init(py, || -> PyResult<Py<PyType>> {
        let bases = PyTuple::new_bound(
            py,
            [
                argument_error_type(py)?.bind(py).clone(),
                py.get_type_bound::<PyOverflowError>(),
            ],
        );
        let ty = new_exception_type(
            py,
            c"opyard._core.ArgumentOverflowError",
            c"An int argument no Scalar or float holds (an ArgumentError and an OverflowError, as torch raises the latter).",
            &bases,
        )?;
        PyModule::import_bound(py, "opyard._core")?.setattr("ArgumentOverflowError", &ty)?;
        Ok(ty.unbind())
    });
    match ty {
        Ok(ty) => PyErr::from_type_bound(ty.bind(py).clone(), msg),
        Err(_) => PyOverflowError::new_err(msg),
    }
}
