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

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyString, PyType};

use super::tensor::PyTensorBase;

/// The slot names, in the order [`new_saved`] fills them.
const NAMES: [&str; 5] = ["tensor", "version", "is_output", "node_name", "output_nr"];

struct Layout {
    ty: Py<PyType>,
    offsets: [ffi::Py_ssize_t; 5],
}

static LAYOUT: GILOnceCell<Option<Layout>> = GILOnceCell::new();

/// The byte offset of object slot `name` of `ty`, if it is a plain writable one.
fn slot_offset(ty: &Bound<'_, PyType>, name: &str) -> Option<ffi::Py_ssize_t> {
    let d = ty.as_any().getattr(name).ok()?;
    // SAFETY: reading the type pointer of a live object.
    let is_member =
        unsafe { ffi::Py_TYPE(d.as_ptr()) == std::ptr::addr_of_mut!(ffi::PyMemberDescr_Type) };
    if !is_member {
        return None;
    }
    // SAFETY: `d` is a member descriptor (checked above), whose C layout is
    // `PyMemberDescrObject`; its `d_member` points to a `PyMemberDef` (pyo3's
    // binding types the field as `PyGetSetDef`, hence the cast) owned by the
    // type, which `d` keeps alive.
    let def = unsafe {
        &*((*(d.as_ptr() as *mut ffi::PyMemberDescrObject)).d_member as *const ffi::PyMemberDef)
    };
    let writable = def.flags & ffi::Py_READONLY == 0;
    (def.type_code == ffi::Py_T_OBJECT_EX && writable).then_some(def.offset)
}

/// The slots of `ty`, if `ty` is the class first seen and has them.
fn layout(py: Python<'_>, ty: &Bound<'_, PyAny>) -> Option<&'static Layout> {
    let layout = LAYOUT.get_or_init(py, || {
        let ty = ty.downcast::<PyType>().ok()?;
        // Exactly these slots, in this order: a class that grew a field is called instead.
        let slots: Vec<String> = ty.getattr("__slots__").ok()?.extract().ok()?;
        if slots != NAMES {
            return None;
        }
        let mut offsets = [0; 5];
        for (o, name) in offsets.iter_mut().zip(NAMES) {
            *o = slot_offset(ty, name)?;
        }
        Some(Layout {
            ty: ty.clone().unbind(),
            offsets,
        })
    });
    layout.as_ref().filter(|l| l.ty.bind(py).is(ty))
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
    if super::saved_hooks::active() {
        return Ok(None); // See Note [Saved tensor hooks]: `__init__` packs.
    }
    let Some(l) = layout(py, saved_type) else {
        return Ok(None);
    };
    let values: [PyObject; 5] = [
        t.clone().into_any().unbind(),
        t.get().version(py).into_py(py),
        is_output.into_py(py),
        node_name.clone().into_any().unbind(),
        output_nr.into_py(py),
    ];
    let ty = l.ty.bind(py).as_type_ptr();
    // SAFETY: `ty` is a live heap type; `tp_alloc` returns a new, zeroed
    // instance or NULL with an exception set. Each offset is that of an
    // object slot of `ty` (checked in `slot_offset`), NULL in a new instance,
    // so storing a new reference there is what the slot's setter would do.
    unsafe {
        let alloc = (*ty).tp_alloc.unwrap_or(ffi::PyType_GenericAlloc);
        let obj = Bound::from_owned_ptr_or_err(py, alloc(ty, 0))?;
        for (v, &off) in values.into_iter().zip(&l.offsets) {
            let slot = (obj.as_ptr() as *mut u8).offset(off) as *mut *mut ffi::PyObject;
            *slot = v.into_ptr();
        }
        Ok(Some(obj.unbind()))
    }
}
