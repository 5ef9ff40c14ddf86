//! Core errors to Python exceptions, in one place.
//!
//! Each core error maps to a specific class: `SchemaError(ValueError)` for
//! schema text, `ValueError` for a bad library kind, `RuntimeError` for
//! registration rules and unknown keys, `NotImplementedError` for a missing
//! kernel. Errors raised by Python kernels pass through untouched.

use super::library::registered_keys;
use super::ops::PyOperator;
use crate::dispatch::DispatchKey;
use crate::error::Error;
use crate::schema::SchemaError as CoreSchemaError;
use pyo3::exceptions::{PyNotImplementedError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

// `opyard.SchemaError` (its `__module__` is `opyard`, where users import it
// from), exported from `opyard._core` by `schema::register`.
pyo3::create_exception!(
    opyard,
    SchemaError,
    PyValueError,
    "A function schema that does not parse.\n\n`str(e)` is the message, the offending line and a caret under the\n\
     offending token; `e.offset` (bytes), `e.line` and `e.column` (1-based) locate it."
);

/// `opyard.SchemaError` for a core schema error, with `offset`, `line`,
/// `column` and `message` set on the instance and `str(e)` equal to the Rust
/// `Display` (message, source line, caret).
pub fn schema_err(e: &CoreSchemaError) -> PyErr {
    Python::with_gil(|py| {
        let err = SchemaError::new_err(e.to_string());
        let value = err.value_bound(py);
        // Setting attributes on a fresh exception instance cannot fail short
        // of memory exhaustion; the exception is still the right one then.
        let _ = value.setattr("offset", e.offset);
        let _ = value.setattr("line", e.line);
        let _ = value.setattr("column", e.column);
        let _ = value.setattr("message", e.message.as_str());
        err
    })
}

/// Map a core error to its Python exception.
pub fn core_err(e: Error) -> PyErr {
    match e {
        Error::Schema(s) => schema_err(&s),
        Error::BadKind(_) => PyValueError::new_err(e.to_string()),
        Error::UnknownKey(_) | Error::Registration(_) | Error::UnknownOp(_) => {
            PyRuntimeError::new_err(e.to_string())
        }
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
