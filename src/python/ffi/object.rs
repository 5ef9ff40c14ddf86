//! Objects and types through CPython's C API: instances made with PyO3's own
//! `tp_new` body, type checks and lookups by pointer, vectorcalls, new
//! exception classes, the GIL of a call that holds it.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::pyclass_init::PyClassInitializer;
use pyo3::types::{PyString, PyTuple, PyType};
use pyo3::PyClass;
use std::ffi::CStr;

extern "C" {
    // Exported by CPython, not wrapped by pyo3-ffi 0.22: the lookup along a
    // type's MRO (its method cache), a borrowed reference or NULL with no
    // error set; and the bound-method constructor.
    fn _PyType_Lookup(ty: *mut ffi::PyTypeObject, name: *mut ffi::PyObject) -> *mut ffi::PyObject;
    fn PyMethod_New(func: *mut ffi::PyObject, obj: *mut ffi::PyObject) -> *mut ffi::PyObject;
}

/// Whether `ty` is `base` or a subclass of it, read off `ty`'s MRO (no
/// `__subclasscheck__`: a class's own metaclass hook is not consulted).
#[inline]
pub fn is_subtype(ty: &Bound<'_, PyType>, base: &Bound<'_, PyType>) -> bool {
    // SAFETY: both are live type objects (borrowed by the `Bound`s) and the
    // GIL is held; `PyType_IsSubtype` only reads their MROs.
    unsafe { ffi::PyType_IsSubtype(ty.as_type_ptr(), base.as_type_ptr()) != 0 }
}

/// Whether `obj`'s type is `ty` or a subclass of it (as [`is_subtype`]).
#[inline]
pub fn is_instance_of_type(obj: &Bound<'_, PyAny>, ty: &Bound<'_, PyType>) -> bool {
    // SAFETY: `obj` is live, so is its type; as in `is_subtype`.
    unsafe { ffi::PyType_IsSubtype(ffi::Py_TYPE(obj.as_ptr()), ty.as_type_ptr()) != 0 }
}

/// A new instance of `ty` (`T`'s class or a Python subclass of it) holding
/// `init`, made by PyO3's own `tp_new` body: no lookup of `__new__`, no
/// argument tuple, no `__init__`. A `ty` that is no subclass of `T` is a
/// `TypeError`.
pub fn new_instance<'py, T: PyClass>(
    py: Python<'py>,
    init: impl Into<PyClassInitializer<T>>,
    ty: &Bound<'py, PyType>,
) -> PyResult<Bound<'py, T>> {
    let base = T::type_object_bound(py);
    if !ty.is(&base) && !is_subtype(ty, &base) {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "cannot make a {} instance of {}",
            T::NAME,
            ty.name()?
        )));
    }
    // SAFETY: `ty` is `T`'s type or a subclass of it (checked above).
    unsafe { new_instance_unchecked(py, init, ty) }
}

/// [`new_instance`] without the check.
///
/// # Safety
/// `ty` is `T`'s type or a subclass of it.
pub(super) unsafe fn new_instance_unchecked<'py, T: PyClass>(
    py: Python<'py>,
    init: impl Into<PyClassInitializer<T>>,
    ty: &Bound<'py, PyType>,
) -> PyResult<Bound<'py, T>> {
    // SAFETY: the caller's contract is what `tp_new_impl` requires of its
    // target type; it returns a new reference to an instance of `ty` (so a
    // `T`) or an error.
    unsafe {
        let obj = pyo3::impl_::pymethods::tp_new_impl(py, init.into(), ty.as_type_ptr())?;
        Ok(Bound::from_owned_ptr(py, obj).downcast_into_unchecked())
    }
}

/// A new, empty instance of `ty` made by `base`'s `tp_new` with no
/// arguments (`base.__new__(ty)` without the lookup). A `ty` that is no
/// subclass of `base` is a `TypeError`.
pub fn new_by_base<'py>(
    ty: &Bound<'py, PyType>,
    base: &Bound<'py, PyType>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = ty.py();
    if !is_subtype(ty, base) {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "new_by_base: not a subclass",
        ));
    }
    let empty = PyTuple::empty_bound(py);
    // SAFETY: `base` is a live type; its `tp_new` takes (a subtype, an argument
    // tuple, NULL keywords) and returns a new reference or NULL with an
    // exception set.
    unsafe {
        let new = (*base.as_type_ptr())
            .tp_new
            .ok_or_else(|| pyo3::exceptions::PyTypeError::new_err("the base type has no tp_new"))?;
        let obj = new(ty.as_type_ptr(), empty.as_ptr(), std::ptr::null_mut());
        Bound::from_owned_ptr_or_err(py, obj)
    }
}

/// Whether `ty` creates its instances as `base` does: the same `tp_new` and
/// `object`'s `tp_init` (no `__new__` or `__init__` of its own along the way).
pub fn has_plain_new_and_init(ty: &Bound<'_, PyType>, base: &Bound<'_, PyType>) -> bool {
    // SAFETY: both are live type objects; this reads three slots (compared as
    // the addresses CPython stored: inherited slots hold the base's pointer).
    unsafe {
        let object_init = (*std::ptr::addr_of_mut!(ffi::PyBaseObject_Type)).tp_init;
        let t = ty.as_type_ptr();
        (*t).tp_new.map(|f| f as usize) == (*base.as_type_ptr()).tp_new.map(|f| f as usize)
            && (*t).tp_init.map(|f| f as usize) == object_init.map(|f| f as usize)
    }
}

/// `ty`'s instance size in bytes (`tp_basicsize`).
pub fn basic_size(ty: &Bound<'_, PyType>) -> isize {
    // SAFETY: a live, ready type object; a plain field read.
    unsafe { (*ty.as_type_ptr()).tp_basicsize }
}

/// `ty`'s version tag, or `None` while it has no valid one (CPython gives a
/// type a fresh tag whenever it or a base changes; tags are never reused).
pub fn version_tag(ty: &Bound<'_, PyType>) -> Option<u32> {
    // SAFETY: `ty` is a live type object; plain field reads under the GIL.
    let (flags, tag) = unsafe {
        let raw = ty.as_type_ptr();
        ((*raw).tp_flags, (*raw).tp_version_tag)
    };
    let flagged = *TAG_FLAG.get_or_init(|| ty.py().version_info() < (3, 13));
    (tag != 0 && (!flagged || flags & ffi::Py_TPFLAGS_VALID_VERSION_TAG != 0)).then_some(tag)
}

/// Whether the interpreter marks valid version tags with
/// `Py_TPFLAGS_VALID_VERSION_TAG` (up to 3.12; 3.13 no longer sets the flag and
/// a tag is valid when it is not 0, which a modification resets it to).
static TAG_FLAG: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

/// `name` as found on the type of `obj` along its MRO (`_PyType_Lookup`: no
/// descriptor call, no instance dict), or `None`.
#[inline]
pub fn lookup_on_type<'py>(
    obj: &Bound<'py, PyAny>,
    name: &Bound<'py, PyString>,
) -> Option<Bound<'py, PyAny>> {
    // SAFETY: both are live objects and the GIL is held; `_PyType_Lookup`
    // returns a borrowed reference (or NULL, setting no exception) that the
    // type keeps alive, made an owned one here before any Python code runs.
    unsafe {
        let found = _PyType_Lookup(obj.get_type_ptr(), name.as_ptr());
        Bound::from_borrowed_ptr_or_opt(obj.py(), found)
    }
}

/// Whether `f` is a plain Python function (`types.FunctionType`).
#[inline]
pub fn is_python_function(f: &Bound<'_, PyAny>) -> bool {
    // SAFETY: only reads the live object's type.
    unsafe { ffi::PyFunction_Check(f.as_ptr()) != 0 }
}

/// `object.__getattribute__(obj, name)`.
pub fn generic_getattr<'py>(
    obj: &Bound<'py, PyAny>,
    name: &Bound<'py, PyString>,
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: both pointers are live; the result is a new reference or NULL
    // with an exception set.
    unsafe {
        let ptr = ffi::PyObject_GenericGetAttr(obj.as_ptr(), name.as_ptr());
        Bound::from_owned_ptr_or_err(obj.py(), ptr)
    }
}

/// `func` bound to `obj` as a method object (`types.MethodType(func, obj)`).
pub fn bound_method<'py>(
    func: &Bound<'py, PyAny>,
    obj: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: both are live objects; `PyMethod_New` takes its own references
    // and returns a new reference or NULL with an exception set.
    unsafe {
        let ptr = PyMethod_New(func.as_ptr(), obj.as_ptr());
        Bound::from_owned_ptr_or_err(func.py(), ptr)
    }
}

/// `callable(*args)` through the vectorcall protocol: no argument tuple is
/// built for a callable that supports it (Python functions, methods, types).
#[inline]
pub fn vectorcall<'a, 'py: 'a>(
    callable: &Bound<'py, PyAny>,
    args: impl IntoIterator<Item = Borrowed<'a, 'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let argv: smallvec::SmallVec<[*mut ffi::PyObject; 8]> =
        args.into_iter().map(|a| a.as_ptr()).collect();
    // SAFETY: `argv` holds borrowed references to live objects (each
    // `Borrowed` is tied to an owner that outlives this call) and no keyword
    // names; vectorcall borrows its arguments and returns a new reference or
    // NULL with an exception set.
    unsafe {
        let out = ffi::PyObject_Vectorcall(
            callable.as_ptr(),
            argv.as_ptr(),
            argv.len(),
            std::ptr::null_mut(),
        );
        Bound::from_owned_ptr_or_err(callable.py(), out)
    }
}

/// A new exception class `name` (`module.Class`) with docstring `doc` and bases `bases`.
pub fn new_exception_type<'py>(
    py: Python<'py>,
    name: &CStr,
    doc: &CStr,
    bases: &Bound<'py, PyTuple>,
) -> PyResult<Bound<'py, PyType>> {
    // SAFETY: both strings are NUL-terminated, `bases` is a live tuple (of
    // exception classes: CPython checks), and a NULL dict is allowed; the
    // result is a new reference or NULL with the error set.
    let ty = unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyErr_NewExceptionWithDoc(
                name.as_ptr(),
                doc.as_ptr(),
                bases.as_ptr(),
                std::ptr::null_mut(),
            ),
        )?
    };
    Ok(ty.downcast_into::<PyType>()?)
}

/// An exact `int` (not a subclass, not a bool) that fits in 64 bits, as its bits.
pub fn exact_int_bits(a: &Bound<'_, PyAny>) -> Option<u64> {
    if !a.is_exact_instance_of::<pyo3::types::PyLong>() {
        return None;
    }
    let mut overflow = 0;
    // SAFETY: `a` is a live exact int, which `PyLong_AsLongLongAndOverflow`
    // reads without raising (overflow is reported through the flag).
    let v = unsafe { ffi::PyLong_AsLongLongAndOverflow(a.as_ptr(), &mut overflow) };
    (overflow == 0).then_some(v as u64)
}

/// Whether `addr` is the address of `True`.
#[inline]
pub fn is_true_address(addr: usize) -> bool {
    // SAFETY: `Py_True` returns the address of a static object; nothing is read.
    addr == unsafe { ffi::Py_True() } as usize
}
