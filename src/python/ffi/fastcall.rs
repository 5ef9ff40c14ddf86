//! Functions and methods called with CPython's vectorcall convention
//! (`METH_FASTCALL`): the arguments arrive as an array, with no tuple built
//! and no PyO3 argument parsing (See Note [Raw getsets]).

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyTuple, PyType};
use smallvec::SmallVec;
use std::ffi::CStr;

/// One vectorcall: positional values, then one value per keyword name.
pub struct FastCall<'a, 'py> {
    pub py: Python<'py>,
    /// The instance (a method) or the module (a function).
    pub slf: Bound<'py, PyAny>,
    /// Positional values, then keyword values (borrowed from the caller).
    pub values: SmallVec<[Borrowed<'a, 'py, PyAny>; 8]>,
    pub nargs: usize,
    /// The keyword names (`None` without keywords).
    pub kwnames: Option<Bound<'py, PyTuple>>,
}

impl<'a, 'py> FastCall<'a, 'py> {
    /// # Safety
    /// As CPython calls a `METH_FASTCALL` function: `slf` is live, `args`
    /// holds `nargs` values plus one per name of `kwnames` (NULL or a tuple
    /// of str), all alive during the call.
    #[doc(hidden)]
    pub unsafe fn from_raw(
        py: Python<'py>,
        slf: *mut ffi::PyObject,
        args: *const *mut ffi::PyObject,
        nargsf: ffi::Py_ssize_t,
        kwnames: *mut ffi::PyObject,
    ) -> Self {
        // SAFETY: the caller's contract above.
        unsafe {
            let nargs = ffi::PyVectorcall_NARGS(nargsf as usize) as usize;
            let kwnames = Bound::from_borrowed_ptr_or_opt(py, kwnames)
                .map(|k| k.downcast_into_unchecked::<PyTuple>());
            let nkw = kwnames.as_ref().map_or(0, |k| k.len());
            let values = (0..nargs + nkw)
                .map(|i| Borrowed::from_ptr(py, *args.add(i)))
                .collect();
            FastCall {
                py,
                slf: Bound::from_borrowed_ptr(py, slf),
                values,
                nargs,
                kwnames,
            }
        }
    }

    /// `callable(self, *args, **kwargs)` with this call's arguments, by
    /// vectorcall (the caller's keyword names reused).
    pub fn forward_with_self(&self, callable: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let mut argv: SmallVec<[*mut ffi::PyObject; 8]> = SmallVec::new();
        argv.push(self.slf.as_ptr());
        argv.extend(self.values.iter().map(|v| v.as_ptr()));
        let kwnames = self
            .kwnames
            .as_ref()
            .map_or(std::ptr::null_mut(), |k| k.as_ptr());
        // SAFETY: `argv` holds `self` and the caller's values, alive for the
        // call; `kwnames` is the caller's tuple naming the trailing values;
        // the result is a new reference or NULL with an exception set.
        unsafe {
            let out =
                ffi::PyObject_Vectorcall(callable.as_ptr(), argv.as_ptr(), self.nargs + 1, kwnames);
            Bound::from_owned_ptr_or_err(self.py, out)
        }
    }
}

/// Defines `$name`, a `METH_FASTCALL | METH_KEYWORDS` C function whose body
/// gets the call as a [`FastCall`] and returns `PyResult<Bound<PyAny>>`,
/// behind PyO3's trampoline (GIL bookkeeping: references dropped in the body
/// are released at once; panics become `PanicException`).
macro_rules! fastcall_with_keywords {
    ($(#[$doc:meta])* $name:ident, |$call:ident| $body:expr) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// CPython calls it as a `METH_FASTCALL | METH_KEYWORDS` function: GIL
        /// held, `args` holding `nargsf` positional and `kwnames`' values.
        unsafe extern "C" fn $name(
            slf: *mut pyo3::ffi::PyObject,
            args: *const *mut pyo3::ffi::PyObject,
            nargsf: pyo3::ffi::Py_ssize_t,
            kwnames: *mut pyo3::ffi::PyObject,
        ) -> *mut pyo3::ffi::PyObject {
            /// # Safety
            /// As CPython calls a `METH_FASTCALL | METH_KEYWORDS` function.
            unsafe fn body(
                py: pyo3::Python<'_>,
                slf: *mut pyo3::ffi::PyObject,
                args: *const *mut pyo3::ffi::PyObject,
                nargsf: pyo3::ffi::Py_ssize_t,
                kwnames: *mut pyo3::ffi::PyObject,
            ) -> pyo3::PyResult<*mut pyo3::ffi::PyObject> {
                // SAFETY: CPython's arguments, as `FastCall::from_raw` requires.
                let $call = unsafe {
                    $crate::python::ffi::fastcall::FastCall::from_raw(py, slf, args, nargsf, kwnames)
                };
                pyo3::PyResult::map($body, pyo3::Bound::into_ptr)
            }
            // SAFETY: CPython's own arguments, passed on unchanged.
            unsafe { pyo3::impl_::trampoline::fastcall_with_keywords(slf, args, nargsf, kwnames, body) }
        }
    };
}
pub(crate) use fastcall_with_keywords;

/// The C function `fastcall_with_keywords!` defines.
pub type FastFn = unsafe extern "C" fn(
    *mut ffi::PyObject,
    *const *mut ffi::PyObject,
    ffi::Py_ssize_t,
    *mut ffi::PyObject,
) -> *mut ffi::PyObject;

fn leak_def(name: &'static CStr, doc: &'static CStr, f: FastFn) -> &'static mut ffi::PyMethodDef {
    // One leaked definition per function or descriptor, made a bounded number of times.
    Box::leak(Box::new(ffi::PyMethodDef {
        ml_name: name.as_ptr(),
        ml_meth: ffi::PyMethodDefPointer {
            _PyCFunctionFastWithKeywords: f,
        },
        ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
        ml_doc: doc.as_ptr(),
    }))
}

/// A method descriptor of `ty` named `name` calling `f` (made by
/// [`fastcall_with_keywords!`], whose body takes any object as `self`):
/// `obj.name(...)` calls it with no bound-method object.
pub fn method_descriptor<'py>(
    ty: &Bound<'py, PyType>,
    name: &'static CStr,
    doc: &'static CStr,
    f: FastFn,
) -> PyResult<Bound<'py, PyAny>> {
    let def = leak_def(name, doc, f);
    // SAFETY: `ty` is a live type and `def` lives forever; CPython checks each
    // instance against `ty` and `f` accepts any object as `self`.
    unsafe { Bound::from_owned_ptr_or_err(ty.py(), ffi::PyDescr_NewMethod(ty.as_type_ptr(), def)) }
}

/// Add `name`, calling `f` (made by [`fastcall_with_keywords!`]), to module `m`.
pub fn add_function(
    m: &Bound<'_, PyModule>,
    name: &'static CStr,
    doc: &'static CStr,
    f: FastFn,
) -> PyResult<()> {
    let def = leak_def(name, doc, f);
    // SAFETY: `def` lives forever; the module object and its name are live;
    // the result is a new reference or NULL with an exception set.
    let func = unsafe {
        Bound::from_owned_ptr_or_err(
            m.py(),
            ffi::PyCFunction_NewEx(def, m.as_ptr(), m.name()?.as_ptr()),
        )?
    };
    m.add(name.to_str().expect("ascii function name"), func)
}
