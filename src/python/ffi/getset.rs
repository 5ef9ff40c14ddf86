//! `TensorBase`'s computed attributes (`dtype`, `shape`, `grad`, ...) as plain
//! CPython getsets.
//!
//! Note [Raw getsets]: PyO3's `#[getter]` extracts and type-checks its
//! receiver and wraps the result, which costs more than the attribute itself:
//! a getter returning one field took ~65 ns where a `__slots__` read takes
//! ~4 ns. These attributes are read on every operation, so they are installed
//! by hand as `PyGetSetDef`s: CPython holds the GIL and has checked the
//! instance's type before calling them. Their C functions keep PyO3's
//! trampoline alone (panics become `PanicException`, and the thread's GIL
//! count is raised): without the count, a `Py` dropped in a getter or setter
//! has its reference count lowered later, from PyO3's pool of deferred
//! references, and once that pool exists every PyO3 entry point drains it
//! under a mutex (about 40 instructions and two atomic operations per call).
//! Plain fields need no code at all: they are struct members (Note [Tensor
//! slots]).

use crate::python::tensor::base::PyTensorBase;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyType;
use std::ffi::CStr;
use std::os::raw::{c_int, c_void};

/// Reads an attribute of a tensor.
pub type Getter = for<'py> fn(&Bound<'py, PyTensorBase>) -> PyResult<Bound<'py, PyAny>>;
/// Writes (`Some`) or deletes (`None`) an attribute of a tensor.
pub type Setter =
    for<'py> fn(&Bound<'py, PyTensorBase>, Option<&Bound<'py, PyAny>>) -> PyResult<()>;

/// What a getset's closure pointer points to.
struct Accessor {
    get: Getter,
    set: Option<Setter>,
}

/// # Safety
/// CPython calls it as a getter: GIL held, `slf` an instance of the type the
/// getset was installed on, `closure` its leaked `Accessor`.
unsafe extern "C" fn get_slot(slf: *mut ffi::PyObject, closure: *mut c_void) -> *mut ffi::PyObject {
    /// # Safety
    /// As `get_slot`, `closure` passed through the trampoline's second argument.
    unsafe fn body(
        py: Python<'_>,
        slf: *mut ffi::PyObject,
        closure: *mut ffi::PyObject,
    ) -> PyResult<*mut ffi::PyObject> {
        // SAFETY: `closure` is the leaked `Accessor` this getset was made with.
        let acc = unsafe { &*(closure as *const Accessor) };
        // SAFETY: the getset descriptor of a TensorBase type (`install` checks)
        // checked that `slf` is an instance of it.
        let t =
            unsafe { Bound::from_borrowed_ptr(py, slf).downcast_into_unchecked::<PyTensorBase>() };
        (acc.get)(&t).map(Bound::into_ptr)
    }
    // SAFETY: CPython's own arguments; the closure pointer only travels through.
    unsafe { pyo3::impl_::trampoline::binaryfunc(slf, closure.cast(), body) }
}

/// # Safety
/// CPython calls it as a setter: as `get_slot`, and `value` NULL or alive.
unsafe extern "C" fn set_slot(
    slf: *mut ffi::PyObject,
    value: *mut ffi::PyObject,
    closure: *mut c_void,
) -> c_int {
    /// # Safety
    /// As `set_slot`, `closure` passed through the trampoline's last argument.
    unsafe fn body(
        py: Python<'_>,
        slf: *mut ffi::PyObject,
        value: *mut ffi::PyObject,
        closure: *mut ffi::PyObject,
    ) -> PyResult<c_int> {
        // SAFETY: as in `get_slot`; a getset with a setter has `set` filled in.
        let acc = unsafe { &*(closure as *const Accessor) };
        // SAFETY: as in `get_slot`; `value` is NULL for `del t.<name>`.
        let t =
            unsafe { Bound::from_borrowed_ptr(py, slf).downcast_into_unchecked::<PyTensorBase>() };
        let v = unsafe { Bound::from_borrowed_ptr_or_opt(py, value) };
        let set = acc.set.expect("set_slot is installed only with a setter");
        set(&t, v.as_ref()).map(|()| 0)
    }
    // SAFETY: CPython's own arguments; the closure pointer only travels through.
    unsafe { pyo3::impl_::trampoline::setattrofunc(slf, value, closure.cast(), body) }
}

/// Install getset `name` on `ty` (the TensorBase type). Without `set`, CPython
/// refuses writes itself ("attribute 'name' of 'opyard._core.TensorBase' objects is not writable").
pub fn install(
    ty: &Bound<'_, PyType>,
    name: &'static CStr,
    doc: &'static CStr,
    get: Getter,
    set: Option<Setter>,
) -> PyResult<()> {
    if !super::object::is_subtype(ty, &ty.py().get_type_bound::<PyTensorBase>()) {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "getset: not a TensorBase type",
        ));
    }
    // One leaked definition per attribute, made once at module init.
    let acc: &'static Accessor = Box::leak(Box::new(Accessor { get, set }));
    let def: &'static mut ffi::PyGetSetDef = Box::leak(Box::new(ffi::PyGetSetDef {
        name: name.as_ptr(),
        get: Some(get_slot),
        set: if set.is_some() { Some(set_slot) } else { None },
        doc: doc.as_ptr(),
        closure: acc as *const Accessor as *mut c_void,
    }));
    // SAFETY: `ty` is a live TensorBase type (checked above) and `def` lives forever.
    let descr = unsafe {
        Bound::from_owned_ptr_or_err(ty.py(), ffi::PyDescr_NewGetSet(ty.as_type_ptr(), def))?
    };
    ty.setattr(name.to_str().expect("ascii attribute name"), descr)
}
