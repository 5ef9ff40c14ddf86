//! `_SizesMethod`: `Tensor.view`, `reshape`, `expand` and `permute`, which
//! take their sizes as varargs or as one list/tuple (`x.view(2, 3)`,
//! `x.view((2, 3))`), as a method in Rust: the sizes packed into a list and
//! `aten::<name>.default` called, with no Python frame.
//!
//! Note [Sizes methods]: the overload is looked up on the first call (the op
//! is defined on first use, not at import). Any call it does not take as
//! given (keywords, such as `view(dtype=...)` or `expand(implicit=...)`; one
//! argument that is neither an int nor a list/tuple, such as a dtype) runs
//! the Python method it wraps (`fallback`), which keeps every other
//! behaviour and message.

use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyList, PyLong, PyTuple};

/// A Tensor method `(self, *sizes)`; see Note [Sizes methods].
#[pyclass(name = "_SizesMethod", module = "opyard._core", frozen)]
pub struct PySizesMethod {
    packet: PyObject,
    fallback: PyObject,
    op: GILOnceCell<PyObject>,
}

#[pymethods]
impl PySizesMethod {
    /// `_SizesMethod(ops.aten.view, _view)`: calls `packet.default`, else `fallback`.
    #[new]
    fn new(packet: PyObject, fallback: PyObject) -> Self {
        PySizesMethod {
            packet,
            fallback,
            op: GILOnceCell::new(),
        }
    }

    fn __get__(
        slf: &Bound<'_, Self>,
        obj: Option<&Bound<'_, PyAny>>,
        _ty: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyObject> {
        crate::python::dispatch::operator::bind_method(slf.as_any(), obj)
    }

    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let sizes = match kwargs {
            Some(k) if !k.is_empty() => None,
            _ if args.is_empty() => None,
            _ => sizes_of(&args.get_slice(1, args.len()))?,
        };
        let Some(sizes) = sizes else {
            return self.fallback.call_bound(py, args, kwargs);
        };
        let op = self
            .op
            .get_or_try_init(py, || self.packet.getattr(py, "default"))?;
        op.call1(py, (args.get_item(0)?, sizes))
    }

    /// The Python method this one falls back to.
    #[getter]
    fn __wrapped__(&self, py: Python<'_>) -> PyObject {
        self.fallback.clone_ref(py)
    }

    #[getter]
    fn __name__(&self, py: Python<'_>) -> PyResult<PyObject> {
        self.fallback.getattr(py, "__name__")
    }

    #[getter]
    fn __qualname__(&self, py: Python<'_>) -> PyResult<PyObject> {
        self.fallback.getattr(py, "__qualname__")
    }

    #[getter]
    fn __doc__(&self, py: Python<'_>) -> PyResult<PyObject> {
        self.fallback.getattr(py, "__doc__")
    }
}

/// `rest` (the arguments after `self`) as the sizes list `_sizes` makes, or
/// `None` for a call the Python method decides.
fn sizes_of<'py>(rest: &Bound<'py, PyTuple>) -> PyResult<Option<Bound<'py, PyList>>> {
    if rest.len() == 1 {
        let only = rest.get_item(0)?;
        if let Ok(l) = only.downcast::<PyList>() {
            return Ok(Some(PyList::new_bound(rest.py(), l.iter())));
        }
        if let Ok(t) = only.downcast::<PyTuple>() {
            return Ok(Some(t.to_list()));
        }
        if !only.is_instance_of::<PyLong>() {
            return Ok(None);
        }
    }
    Ok(Some(rest.to_list()))
}
