//! Raw `tp_call` slots for the classes whose call body takes the argument tuple
//! and keyword dict exactly as CPython built them (packets, Rust kernels): see
//! Note [Packet call slots].

use crate::python::dispatch::operator::PyOpOverloadPacket;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};
use pyo3::PyTypeInfo;

/// Point `ty`'s `tp_call` at `call`; with `method_descriptor`, CPython calls an
/// instance found on a class as `f(obj, *args)` without binding it first.
///
/// # Safety
/// The GIL is held, `ty` is fully built and final (not subclassable; without
/// `method_descriptor` a subclassable `ty` is allowed too: its subclasses
/// inherit `call` for instances that are `ty`'s), and
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

/// `ty`'s `tp_call` slot.
pub fn call_slot_of(ty: &Bound<'_, PyType>) -> Option<ffi::ternaryfunc> {
    // SAFETY: a live, ready type object; a plain field read.
    unsafe { (*ty.as_type_ptr()).tp_call }
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

/// Defines `$install(py)`, which points `$ty`'s `tp_call` at a raw body:
/// PyO3's trampoline (GIL bookkeeping, panics become `PanicException`) around
/// `$body`, which gets the instance, the argument tuple and the keyword dict
/// exactly as CPython built them (no PyO3 argument extraction) and returns
/// `PyResult<PyObject>`. With `method_descriptor = true` an instance found on
/// a class is called as `f(obj, *args)` without being bound first.
///
/// The caller promises what [`install`] requires: `$ty` is final (not
/// subclassable, unless `method_descriptor = false`) and `$body` accepts every
/// instance, subclass instances included (a method descriptor also
/// means, called with the instance first, what its `__get__`-bound form means).
macro_rules! raw_call_slot {
    ($(#[$doc:meta])* $install:ident, $ty:ty, method_descriptor = $md:expr,
     |$py:ident, $slf:ident, $args:ident, $kwargs:ident| $body:expr) => {
        $(#[$doc])*
        pub fn $install(py: pyo3::Python<'_>) {
            /// # Safety
            /// CPython calls it as `$ty`'s `tp_call`: GIL held, arguments alive.
            unsafe extern "C" fn tp_call(
                slf: *mut pyo3::ffi::PyObject,
                args: *mut pyo3::ffi::PyObject,
                kwargs: *mut pyo3::ffi::PyObject,
            ) -> *mut pyo3::ffi::PyObject {
                pyo3::impl_::trampoline::ternaryfunc(slf, args, kwargs, call_impl)
            }
            /// # Safety
            /// As `tp_call`: `slf` is a `$ty`, `args` a tuple, `kwargs` NULL or a dict, all alive.
            unsafe fn call_impl(
                $py: pyo3::Python<'_>,
                slf: *mut pyo3::ffi::PyObject,
                args: *mut pyo3::ffi::PyObject,
                kwargs: *mut pyo3::ffi::PyObject,
            ) -> pyo3::PyResult<*mut pyo3::ffi::PyObject> {
                $crate::python::ffi::call_slot::with_args(
                    $py,
                    slf,
                    args,
                    kwargs,
                    |$slf: &pyo3::Bound<'_, $ty>, $args, $kwargs| {
                        pyo3::PyResult::<pyo3::PyObject>::map($body, |o| o.into_ptr())
                    },
                )
            }
            let ty = py.get_type_bound::<$ty>();
            // SAFETY: GIL held, type fully built and final; `tp_call` has
            // `tp_call`'s signature and, by this macro's contract, accepts
            // every instance.
            unsafe { $crate::python::ffi::call_slot::install(&ty, tp_call, $md) };
        }
    };
    // A subclassable `$ty`: `$install_on(cls)` also points the `tp_call` of `cls`, a
    // subclass that does not define `__call__` itself, at the raw body (CPython gives a
    // heap subclass the base's original slot function, not the one installed later).
    ($(#[$doc:meta])* $install:ident, $install_on:ident, $ty:ty,
     |$py:ident, $slf:ident, $args:ident, $kwargs:ident| $body:expr) => {
        $crate::python::ffi::call_slot::raw_call_slot!(
            $(#[$doc])* $install, $ty, method_descriptor = false,
            |$py, $slf, $args, $kwargs| $body);

        /// Install the raw `tp_call` on `cls`, a subclass of this type whose `__call__`
        /// is the base's (checked: anything else is left alone).
        pub fn $install_on(cls: &pyo3::Bound<'_, pyo3::types::PyType>) -> pyo3::PyResult<()> {
            use pyo3::prelude::*;
            let py = cls.py();
            let base = py.get_type_bound::<$ty>();
            let name = pyo3::intern!(py, "__call__");
            let own = base.getattr(name)?;
            let theirs = cls.getattr(name)?;
            if !$crate::python::ffi::object::is_subtype(cls, &base) || !theirs.is(&own) {
                return Ok(());
            }
            // The base's slot is the raw body by now: `$install` ran at module init.
            let slot = $crate::python::ffi::call_slot::call_slot_of(&base);
            if let Some(slot) = slot {
                // SAFETY: GIL held, `cls` is a built subclass of `$ty` (checked) whose
                // instances are all `$ty`s, and `slot` is `$ty`'s raw `tp_call`, which
                // accepts every one of them; no method descriptor flag.
                unsafe { $crate::python::ffi::call_slot::install(cls, slot, false) };
            }
            Ok(())
        }
    };
}
pub(crate) use raw_call_slot;

/// A Rust callable that serves the calls it can (`fast`) and hands every other
/// one, with the same arguments, to the Python callable it stands for
/// (`general`): a Rust kernel and its Python fallback, a `vmap`'d function and
/// the Python function `vmap` built, a `register_vmap` rule's kernel and the
/// Python kernel. [`fast_or_general_slot!`] makes [`FastOrGeneral::call`] the
/// type's raw `tp_call`; its `__call__` method calls the same.
pub trait FastOrGeneral {
    /// The Python callable for the calls `fast` does not serve.
    fn general(&self) -> &PyObject;

    /// The call's result, or None (nothing done) for `general`.
    fn fast(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Option<PyObject>>;

    /// `fast`, else `general(*args, **kwargs)`.
    fn call(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        match self.fast(py, args, kwargs)? {
            Some(out) => Ok(out),
            None => self.general().call_bound(py, args.clone(), kwargs),
        }
    }
}

/// `$install(py)` points `$ty`'s `tp_call` at [`FastOrGeneral::call`] (See
/// [`raw_call_slot!`]; `$ty` is final or its subclasses accept the same body).
macro_rules! fast_or_general_slot {
    ($(#[$doc:meta])* $install:ident, $ty:ty) => {
        $crate::python::ffi::call_slot::raw_call_slot!(
            $(#[$doc])* $install, $ty, method_descriptor = false,
            |py, slf, args, kwargs| $crate::python::ffi::call_slot::FastOrGeneral::call(
                slf.get(), py, args, kwargs));
    };
}
pub(crate) use fast_or_general_slot;

// Note [Packet call slots]: `Tensor.__add__`, `Tensor.add`, ... are packets,
// so every `a + b` and `t.add(b)` goes through the packet type's `tp_call`.
// Two things make that call cheap, set on the type at module init:
// - `Py_TPFLAGS_METHOD_DESCRIPTOR`: a packet found on a class is called as
//   `packet(obj, *args)` instead of first being bound by `__get__` into a
//   new method object (`slot_nb_add`, `LOAD_METHOD` and the specialized
//   attribute loads all honour the flag). `__get__` binds the same way, so
//   the two calls mean the same.
// - `tp_call` points at a raw body ([`raw_call_slot`]), which hands the argument tuple
//   and keyword dict CPython built to the body of `__call__` without PyO3's
//   argument extraction (the tuple and dict are already what the binder
//   takes). `packet.__call__(...)` still reaches the same body.
raw_call_slot!(
    install_packet_call_slots,
    PyOpOverloadPacket,
    method_descriptor = true,
    |_py, slf, args, kwargs| PyOpOverloadPacket::call(slf, args, kwargs)
);
