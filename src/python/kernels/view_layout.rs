//! The numpy side of the shape views (`view_shape.rs`): a view as sizes,
//! byte strides and an offset (`Layout`) made into an array the way numpy's
//! basic indexing makes one (`sub_view`), and numpy's own reshape and squeeze
//! called through its C API. See Note [Shape views as numpy makes them].

use super::array::{Header, MAX_DIMS};
use numpy::npyffi::{self, NpyTypes, NPY_ORDER, PY_ARRAY_API};
use pyo3::ffi;
use pyo3::prelude::*;
use std::os::raw::c_int;

type Dims = [ffi::Py_ssize_t; MAX_DIMS];

/// A view as sizes, byte strides and a byte offset into the input's data.
pub struct Layout {
    pub n: usize,
    pub dims: Dims,
    pub strides: Dims,
    pub offset: ffi::Py_ssize_t,
}

impl Layout {
    /// The whole input: its sizes and strides, offset 0.
    pub fn of(head: &Header<'_>) -> Layout {
        let (d, s) = (head.dims(), head.strides());
        let mut l = Layout {
            n: d.len(),
            dims: [0; MAX_DIMS],
            strides: [0; MAX_DIMS],
            offset: 0,
        };
        l.dims[..l.n].copy_from_slice(d);
        l.strides[..l.n].copy_from_slice(s);
        l
    }

    /// Without axis `d` (sizes and strides of the others unchanged).
    pub fn drop_axis(mut self, d: usize) -> Layout {
        self.dims.copy_within(d + 1..self.n, d);
        self.strides.copy_within(d + 1..self.n, d);
        self.n -= 1;
        self
    }

    /// Axes reordered: axis `i` of the result is axis `order[i]` of `self`.
    pub fn permuted(&self, order: &[usize]) -> Layout {
        let mut l = Layout {
            n: order.len(),
            dims: [0; MAX_DIMS],
            strides: [0; MAX_DIMS],
            offset: self.offset,
        };
        for (i, &a) in order.iter().enumerate() {
            l.dims[i] = self.dims[a];
            l.strides[i] = self.strides[a];
        }
        l
    }
}

/// `np.squeeze(x)`: numpy's own function (it hands back `x` itself when no axis has size 1).
pub fn squeeze_all<'py>(data: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = data.py();
    // SAFETY: GIL held; `data` is an exact ndarray (its `Header` was read).
    // `PyArray_Squeeze` returns a new reference or NULL with an exception set.
    unsafe {
        let r = PY_ARRAY_API.PyArray_Squeeze(py, data.as_ptr() as *mut npyffi::PyArrayObject);
        Bound::from_owned_ptr_or_err(py, r).map(Some)
    }
}

/// `data.reshape(size)` (C order, copying only when no view can have `size`).
pub fn newshape<'py>(
    data: &Bound<'py, PyAny>,
    size: &[ffi::Py_ssize_t],
) -> PyResult<Bound<'py, PyAny>> {
    let py = data.py();
    let mut dims = [0 as npyffi::npy_intp; MAX_DIMS];
    dims[..size.len()].copy_from_slice(size);
    let mut shape = npyffi::PyArray_Dims {
        ptr: dims.as_mut_ptr(),
        len: size.len() as c_int,
    };
    // SAFETY: GIL held; `data` is an exact ndarray; numpy only reads `shape`
    // (`len` ≤ MAX_DIMS sizes, all ≥ 0 and multiplying to the array's size,
    // see `infer_size`) and returns a new reference or NULL with an exception set.
    unsafe {
        let r = PY_ARRAY_API.PyArray_Newshape(
            py,
            data.as_ptr() as *mut npyffi::PyArrayObject,
            &mut shape,
            NPY_ORDER::NPY_CORDER,
        );
        Bound::from_owned_ptr_or_err(py, r)
    }
}

fn data_ptr(arr: &Bound<'_, PyAny>) -> *mut std::ffi::c_char {
    // SAFETY: only called on exact ndarrays (the input, or what numpy's
    // reshape returned, which is an ndarray of the input's exact type).
    unsafe { (*(arr.as_ptr() as *const npyffi::PyArrayObject)).data }
}

/// Whether numpy's reshape made a view (same first byte) rather than a copy.
pub fn same_data(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> bool {
    data_ptr(a) == data_ptr(b)
}

/// A view of `src` (an exact ndarray) with layout `l`, writeable when `src`
/// is, `src` as its base: what numpy's basic indexing returns. Every index
/// of the layout addresses an element of `src` (the callers derive it from
/// `src`'s own sizes and strides by dropping, permuting or clipping axes).
pub fn sub_view<'py>(src: &Bound<'py, PyAny>, l: &Layout) -> PyResult<Bound<'py, PyAny>> {
    let py = src.py();
    let mut shape = [0 as npyffi::npy_intp; MAX_DIMS];
    let mut steps = [0 as npyffi::npy_intp; MAX_DIMS];
    shape[..l.n].copy_from_slice(&l.dims[..l.n]);
    steps[..l.n].copy_from_slice(&l.strides[..l.n]);
    // SAFETY: GIL held; `src` is an exact ndarray, so `descr` and `data` are
    // valid and `data + offset` is inside its buffer (or the start of an empty
    // view, as numpy's own slicing makes). `PyArray_NewFromDescr` steals the
    // descr reference we add, copies `shape`/`steps` and computes the
    // contiguity and alignment flags; `PyArray_SetBaseObject` steals the
    // reference to `src` we add, which keeps the memory alive.
    unsafe {
        let arr = &*(src.as_ptr() as *const npyffi::PyArrayObject);
        let array_type = PY_ARRAY_API.get_type_object(py, NpyTypes::PyArray_Type);
        ffi::Py_INCREF(arr.descr as *mut ffi::PyObject);
        let view = PY_ARRAY_API.PyArray_NewFromDescr(
            py,
            array_type,
            arr.descr,
            l.n as c_int,
            shape.as_mut_ptr(),
            steps.as_mut_ptr(),
            arr.data.offset(l.offset) as *mut std::ffi::c_void,
            arr.flags & npyffi::NPY_ARRAY_WRITEABLE,
            std::ptr::null_mut(),
        );
        let view = Bound::from_owned_ptr_or_err(py, view)?;
        ffi::Py_INCREF(src.as_ptr());
        let rc = PY_ARRAY_API.PyArray_SetBaseObject(
            py,
            view.as_ptr() as *mut npyffi::PyArrayObject,
            src.as_ptr(),
        );
        if rc < 0 {
            return Err(PyErr::fetch(py));
        }
        Ok(view)
    }
}
