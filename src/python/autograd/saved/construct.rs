//! Making a `SavedTensor` (graph.py) from Rust without its `__init__` frame.
//!
//! Note [SavedTensor by slots]: `SavedTensor` is a `__slots__` class whose
//! `__init__` stores `tensor`, `version` (the tensor's version now),
//! `is_output`, `node_name` and `output_nr`. `_function_apply` saves a
//! tensor per `save_for_backward` entry on every call, and the Python
//! `__init__` (a frame, plus a `_version` lookup) was most of that cost. The
//! slots' offsets are read once from the class's member descriptors; an
//! instance is then allocated and filled directly. If the class does not
//! have exactly those object slots (say it grew a field), the caller falls
//! back to calling the class.

use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyString, PyType};

use crate::python::autograd::saved::slots::{layout_of, SlotLayout, NAMES};
use crate::python::tensor::base::PyTensorBase;

static LAYOUT: GILOnceCell<Option<SlotLayout>> = GILOnceCell::new();

/// The slots of `ty`, if `ty` is the class first seen and has exactly them.
fn layout(py: Python<'_>, ty: &Bound<'_, PyAny>) -> Option<&'static SlotLayout> {
    let layout = LAYOUT.get_or_init(py, || {
        let ty = ty.downcast::<PyType>().ok()?;
        // Exactly these slots, in this order: a class that grew a field is called instead.
        let slots: Vec<String> = ty.getattr("__slots__").ok()?.extract().ok()?;
        if slots != NAMES {
            return None;
        }
        layout_of(ty).ok()?
    });
    layout.as_ref().filter(|l| l.class(py).is(ty))
}

/// `SavedTensor(t, is_output, node_name, output_nr)` for tensor `t`, or
/// None when the class cannot be filled directly (then call it).
pub fn new_saved(
    saved_type: &Bound<'_, PyAny>,
    t: &Bound<'_, PyTensorBase>,
    is_output: bool,
    node_name: &Bound<'_, PyString>,
    output_nr: i64,
) -> PyResult<Option<PyObject>> {
    let py = saved_type.py();
    if super::super::saved_hooks::active() {
        return Ok(None); // See Note [Saved tensor hooks]: `__init__` packs.
    }
    let Some(l) = layout(py, saved_type) else {
        return Ok(None);
    };
    let version = t.get().version(py).into_py(py).into_bound(py);
    let is_output = is_output.into_py(py).into_bound(py);
    let output_nr = output_nr.into_py(py).into_bound(py);
    Ok(Some(
        l.new_instance(
            py,
            [
                t.as_any(),
                &version,
                &is_output,
                node_name.as_any(),
                &output_nr,
            ],
        )?
        .unbind(),
    ))
}
