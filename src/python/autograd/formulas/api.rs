//! `_NodeApply`'s Python face: its constructor, its raw `tp_call` as a method
//! descriptor, `__get__` and its attributes. See Note [Rust node apply] in
//! `autograd/formulas/mod.rs`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};

use crate::python::autograd::formulas::{PyNodeApply, KINDS};
use crate::python::autograd::saved::slots::layout_of;
use crate::python::dispatch::operator::PyOpOverload;

crate::python::ffi::call_slot::raw_call_slot!(
    /// Points the type's `tp_call` at the raw body, as a method descriptor
    /// (See Note [Packet call slots]).
    install_call_slot, PyNodeApply, method_descriptor = true,
    |py, slf, args, kwargs| slf.get().call(py, args, kwargs));

#[pymethods]
impl PyNodeApply {
    /// `_NodeApply(kind, fallback, ops, saved_tensor)`: `kind` one of `_NodeApply.kinds()`,
    /// `fallback` the Python `apply` it replaces, `ops` the overloads it calls.
    #[new]
    fn new(
        py: Python<'_>,
        kind: &str,
        fallback: PyObject,
        ops: Vec<Py<PyOpOverload>>,
        saved_tensor: Py<PyType>,
    ) -> PyResult<Self> {
        let Some(&(_, kind, n_ops)) = KINDS.iter().find(|(n, _, _)| *n == kind) else {
            return Err(PyValueError::new_err(format!(
                "_NodeApply: no Rust apply for '{}'; the kinds are {}",
                crate::python::errors::clip(kind),
                KINDS.iter().map(|k| k.0).collect::<Vec<_>>().join(", ")
            )));
        };
        if ops.len() != n_ops {
            return Err(PyValueError::new_err(format!(
                "_NodeApply({kind:?}): expected {n_ops} op(s), got {}",
                ops.len()
            )));
        }
        let layout = layout_of(saved_tensor.bind(py))?;
        Ok(PyNodeApply {
            kind,
            fallback,
            ops,
            saved_tensor,
            layout,
        })
    }

    /// The kinds that have a Rust apply.
    #[staticmethod]
    fn kinds() -> Vec<&'static str> {
        KINDS.iter().map(|k| k.0).collect()
    }

    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        self.call(py, args, kwargs)
    }

    /// Bound to a node like a function on its class.
    fn __get__(
        slf: &Bound<'_, Self>,
        obj: Option<&Bound<'_, PyAny>>,
        _ty: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyObject> {
        crate::python::dispatch::operator::bind_method(slf.as_any(), obj)
    }

    /// The Python `apply` this one falls back to.
    #[getter]
    fn __wrapped__(&self, py: Python<'_>) -> PyObject {
        self.fallback.clone_ref(py)
    }

    #[getter]
    fn __name__(&self) -> &'static str {
        "apply"
    }

    fn __repr__(&self) -> String {
        format!("<_NodeApply {:?}>", self.kind)
    }
}
