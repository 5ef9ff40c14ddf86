//! `_ViewReplay`: how autograd rebuilds a differentiable view from its root
//! base (a tensor's `_view_fn`), recorded by the Rust Autograd kernel of a
//! view op (`autograd/kernel/mod.rs`) with no Python frame.
//!
//! Note [View replay]: `autograd/views.py` needs, for an in-place op on a
//! view, a function that makes the same view of another tensor of the
//! base's shape (`CopySlices`, `AsStridedBackward0`). The Python kernel
//! records a closure `lambda b: op(b, *args[1:], **kwargs)`, composed with
//! the base's own `_view_fn` along a chain of views. `_ViewReplay` is that
//! closure as a value: the op, the arguments after `self`, the keywords and
//! the parent replay, called only when an in-place op rewrites history.
//! Like a function, it is immutable, and copies of it are itself.

use crate::python::tensor::base::AsTensorBase;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::python::autograd::view_history;
use crate::python::tensor::slots::Field;

/// `parent` (when set), then `op(b, *rest, **kwargs)`. See Note [View replay].
#[pyclass(name = "_ViewReplay", module = "opyard._core", frozen)]
pub struct PyViewReplay {
    op: PyObject,
    rest: Py<PyTuple>,
    kwargs: Option<Py<PyDict>>,
    parent: Option<PyObject>,
}

#[pymethods]
impl PyViewReplay {
    /// The view of `base` this replay makes.
    fn __call__(&self, py: Python<'_>, base: Bound<'_, PyAny>) -> PyResult<PyObject> {
        let b = match &self.parent {
            Some(p) => p.bind(py).call1((base,))?,
            None => base,
        };
        let rest = self.rest.bind(py);
        let mut items: Vec<Bound<'_, PyAny>> = Vec::with_capacity(rest.len() + 1);
        items.push(b);
        items.extend(rest.iter());
        let kwargs = self.kwargs.as_ref().map(|k| k.bind(py));
        Ok(self
            .op
            .bind(py)
            .call(PyTuple::new_bound(py, items), kwargs)?
            .unbind())
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("<view replay of {}>", self.op.bind(py).repr()?))
    }
}

/// After `op(*args, **kwargs)` made `out` (a view of `args[0]`) under grad:
/// record its replay from the root base and how it was made, as
/// `views.record_view` does (Note [View history]); the outputs of an op
/// returning several views are marked as such; `out` with no `_base` (a
/// kernel that copied) records nothing.
pub fn record(
    py: Python<'_>,
    op: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<()> {
    let Some(view) = out.as_tensor_base() else {
        if let Ok(outs) = out.downcast::<pyo3::types::PyList>() {
            mark_outputs(py, outs.iter());
        } else if let Ok(outs) = out.downcast::<PyTuple>() {
            mark_outputs(py, outs.iter());
        }
        return Ok(());
    };
    if view.get().base(py).is_none() || args.is_empty() {
        return Ok(());
    }
    let first = args.get_item(0)?;
    let (parent, kind) = match first.as_tensor_base() {
        Some(b) => (
            b.get().field(py, Field::ViewFn).filter(|f| !f.is_none()),
            view_history::kind(py, b.get()),
        ),
        None => (None, view_history::DEFAULT),
    };
    view_history::mark(py, view.get(), kind);
    let replay = PyViewReplay {
        op: op.clone().unbind(),
        rest: args.get_slice(1, args.len()).unbind(),
        kwargs: kwargs.map(|k| k.clone().unbind()),
        parent: parent.map(Bound::unbind),
    };
    let replay = Bound::new(py, replay)?;
    view.get().set_field(Field::ViewFn, Some(replay.as_any()));
    Ok(())
}

/// Mark the views among `outs` as outputs of a multi-output view op.
fn mark_outputs<'py>(py: Python<'py>, outs: impl Iterator<Item = Bound<'py, PyAny>>) {
    for t in outs {
        if let Some(t) = t.as_tensor_base() {
            if t.get().base(py).is_some() {
                view_history::mark(py, t.get(), view_history::MULTI_OUTPUT);
            }
        }
    }
}
