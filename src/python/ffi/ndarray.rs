//! Reading a numpy array's header without a Python call.
//!
//! Note [ndarray header]: numpy's C API reads an array's number of dimensions,
//! sizes and dtype with macros (`PyArray_NDIM`, `PyArray_DIMS`,
//! `PyArray_DESCR`) that compile to loads from `PyArrayObject_fields`; that
//! struct's leading fields are therefore part of numpy's ABI, unchanged from
//! numpy 1.7 through 2.x. `TensorBase` reads them to answer `dtype`, `shape`
//! and `ndim` without attribute lookups or allocation. Only objects whose type
//! is `numpy.ndarray` or a subclass (which share the layout) are read this
//! way; anything else (cupy arrays) goes through Python attributes.

use pyo3::ffi;
use pyo3::prelude::*;
use std::os::raw::{c_char, c_int};

/// The leading fields of numpy's `PyArrayObject_fields`. See Note [ndarray header].
#[repr(C)]
struct ArrayHead {
    ob_base: ffi::PyObject,
    data: *mut c_char,
    nd: c_int,
    dimensions: *mut ffi::Py_ssize_t,
    strides: *mut ffi::Py_ssize_t,
    base: *mut ffi::PyObject,
    descr: *mut ffi::PyObject,
}

/// The leading fields of numpy's `PyArray_Descr` (the same in numpy 1.x and
/// 2.x: the object header, the scalar type, then the `kind` character).
#[repr(C)]
struct DescrHead {
    ob_base: ffi::PyObject,
    typeobj: *mut ffi::PyTypeObject,
    kind: c_char,
}

/// A numpy array seen through its header; borrowed from a live array.
pub struct ArrayView<'a> {
    head: &'a ArrayHead,
}

impl<'a> ArrayView<'a> {
    /// `obj` as a numpy array when its type is `numpy.ndarray` or a subclass
    /// of it (`None` also while the hooks, which name the type, are not installed).
    #[inline]
    pub fn of(obj: &'a Bound<'_, PyAny>) -> Option<Self> {
        let ndarray = crate::python::hooks::installed(obj.py())?
            .ndarray
            .bind(obj.py());
        if obj.get_type_ptr() != ndarray.as_type_ptr()
            && !super::object::is_instance_of_type(obj, ndarray)
        {
            return None;
        }
        // SAFETY: `obj` is an ndarray (or subclass instance), whose object starts
        // with `PyArrayObject_fields` (Note [ndarray header]); it outlives `'a`.
        Some(ArrayView {
            head: unsafe { &*(obj.as_ptr() as *const ArrayHead) },
        })
    }

    /// The sizes of the array's dimensions.
    #[inline]
    pub fn dims(&self) -> &'a [isize] {
        let nd = self.head.nd.max(0) as usize;
        if nd == 0 {
            return &[];
        }
        // SAFETY: numpy keeps `nd` sizes at `dimensions` for the array's lifetime.
        unsafe { std::slice::from_raw_parts(self.head.dimensions, nd) }
    }

    /// The `kind` character of the array's dtype (`b'f'` float16/32/64,
    /// `b'c'` complex, `b'i'`/`b'u'` integers, `b'b'` bool, `b'V'` for
    /// ml_dtypes' types, ...).
    #[inline]
    pub fn dtype_kind(&self) -> u8 {
        // SAFETY: an array's `descr` is a live `PyArray_Descr`, which starts
        // with `DescrHead` (see its comment).
        unsafe { (*(self.head.descr as *const DescrHead)).kind as u8 }
    }

    /// Whether the array's dtype is a floating-point one of numpy's own
    /// (`kind == 'f'`: float16, float32, float64).
    #[inline]
    pub fn is_float_kind(&self) -> bool {
        self.dtype_kind() == b'f'
    }

    /// The array's dtype object.
    #[inline]
    pub fn descr<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        // SAFETY: an array's `descr` is a live object the array owns;
        // `from_borrowed_ptr` takes a new reference to it.
        unsafe { Bound::from_borrowed_ptr(py, self.head.descr) }
    }

    /// Whether the two arrays have the same dtype object.
    #[inline]
    pub fn same_descr(&self, other: &ArrayView<'_>) -> bool {
        self.head.descr == other.head.descr
    }
}
