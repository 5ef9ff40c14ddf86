//! The numpy side of the shape views (`view_shape.rs`): a view as sizes,
//! byte strides and an offset (`Layout`) made into an array the way numpy's
//! basic indexing makes one (`sub_view`), and numpy's own reshape and squeeze
//! called through its C API. See Note [Shape views as numpy makes them].

use super::array::{view_of, Header, MAX_DIMS};
use numpy::npyffi::{self, NPY_ORDER, PY_ARRAY_API};
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
    // SAFETY: `src` is an exact ndarray and the layout addresses only its
    // elements (this function's contract, above).
    unsafe { view_of(src, &l.dims[..l.n], &l.strides[..l.n], l.offset, true) }
}
