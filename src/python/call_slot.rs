//! Raw `tp_call` slots for the classes whose call body takes the argument tuple
//! and keyword dict exactly as CPython built them (packets, Rust kernels): see
//! Note [Packet call slots] in `packet.rs`.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};
use pyo3::PyTypeInfo;

/// Point `ty`'s `tp_call` at `call`; with `method_descriptor`, CPython calls an
/// instance found on a class as `f(obj, *args)` without binding it first.
///
/// # Safety
/// The GIL is held, `ty` is fully built and final (not subclassable), and
/// `call` accepts every instance of `ty` (a method descriptor must also mean,
/// called with the instance first, what its `__get__`-bound form means).
pub unsafe fn install(ty: &Bound<'_, PyType>, call: ffi::ternaryfunc, method_descriptor: bool) {
    let t = ty.as_type_ptr();
    (*t).tp_call = Some(call);
    if method_descriptor {
        (*t).tp_flags |= ffi::Py_TPFLAGS_METHOD_DESCRIPTOR;
    }
    ffi::PyType_Modified(t);
}

/// Run `body` on `tp_call`'s raw arguments, typed.
///
/// # Safety
/// As `tp_call`: `slf` is a `T`, `args` a tuple, `kwargs` NULL or a dict, all alive.
pub unsafe fn with_args<T: PyTypeInfo, R>(
    py: Python<'_>,
    slf: *mut ffi::PyObject,
    args: *mut ffi::PyObject,
    kwargs: *mut ffi::PyObject,
    body: impl FnOnce(&Bound<'_, T>, &Bound<'_, PyTuple>, Option<&Bound<'_, PyDict>>) -> R,
) -> R {
    let (slf, args) = (Borrowed::from_ptr(py, slf), Borrowed::from_ptr(py, args));
    let kwargs = Borrowed::from_ptr_or_opt(py, kwargs);
    let kwargs = kwargs.as_ref().map(|k| k.downcast_unchecked::<PyDict>());
    body(
        slf.downcast_unchecked::<T>(),
        args.downcast_unchecked::<PyTuple>(),
        kwargs,
    )
}
