//! `TensorBase`'s computed attributes (`dtype`, `shape`, `grad`, ...) as plain
//! CPython getsets.
//!
//! Note [Raw getsets]: PyO3's `#[getter]` extracts and type-checks its
//! receiver and wraps the result, which costs more than the attribute itself:
//! a getter returning one field took ~65 ns where a `__slots__` read takes
//! ~4 ns. These attributes are read on every operation, so they are installed
//! by hand as `PyGetSetDef`s: CPython holds the GIL and has checked the
//! instance's type before calling them. A getter's C function only catches
//! panics and hands errors back; PyO3's trampoline (which also raises the
//! thread's count of the GIL) cost 100-170 instructions more per read. Without
//! that count a `Py` dropped in the getter would have its reference count
//! lowered later, from PyO3's pool of deferred references, and once that pool
//! exists every PyO3 entry point drains it under a mutex (about 40
//! instructions and two atomic operations per call). So a getter drops no
//! `Py` (a `Bound` releases its reference at once), and one that runs general
//! code runs it inside [`counted`]. Setters, rarer and calling into the
//! autograd package, keep PyO3's trampoline. Plain fields need no code at all:
//! they are struct members (Note [Tensor slots]).

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
    // SAFETY: CPython calls a getter with the GIL held.
    let py = unsafe { Python::assume_gil_acquired() };
    let body = std::panic::AssertUnwindSafe(|| {
        // SAFETY: `closure` is the leaked `Accessor` this getset was made with.
        let acc = unsafe { &*(closure as *const Accessor) };
        // SAFETY: the getset descriptor of a TensorBase type (`install` checks)
        // checked that `slf` is an instance of it.
        let t =
            unsafe { Bound::from_borrowed_ptr(py, slf).downcast_into_unchecked::<PyTensorBase>() };
        (acc.get)(&t).map(Bound::into_ptr)
    });
    match std::panic::catch_unwind(body) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            e.restore(py);
            std::ptr::null_mut()
        }
        Err(_) => {
            pyo3::panic::PanicException::new_err("a TensorBase attribute getter panicked")
                .restore(py);
            std::ptr::null_mut()
        }
    }
}

/// Runs `f` with PyO3's count of the GIL raised: what a getter that runs general
/// code (Python calls, `Py` values dropped) goes through (Note [Raw getsets]).
pub fn counted<R>(f: impl for<'py> FnOnce(Python<'py>) -> R) -> R {
    Python::with_gil(f)
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
