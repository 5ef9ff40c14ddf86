//! `topk` in Rust (`crate::kernels::topk`): the CPU kernel of `aten::topk`
//! for every real dtype, its result torch's element for element, equal values
//! included (Note [topk order]).
//!
//! `_topk` is not a fast path: no numpy expression gives that order, so the
//! Python kernel always calls it (with `OPYARD_FASTPATH=0` too), after
//! checking the arguments and converting the data to a C-contiguous array of
//! float32, float64, int64, int32 or uint64 (every other real dtype converts
//! to one of them without loss). The loop runs with the GIL released.

use crate::kernels::topk::{self, TopkElem};
use numpy::{Element, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

fn topk_as<'py, T: TopkElem + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyArrayDyn<T>>,
    k: usize,
    dim: usize,
    largest: bool,
    sorted: bool,
) -> PyResult<Option<PyObject>> {
    let Ok(xr) = x.try_readonly() else {
        return Ok(None);
    };
    let shape = xr.shape().to_vec();
    let aligned = (xr.data() as usize).is_multiple_of(std::mem::align_of::<T>());
    if dim >= shape.len() || k > shape[dim] || !xr.is_c_contiguous() || !aligned {
        return Ok(None);
    }
    let (n, inner) = (shape[dim], shape[dim + 1..].iter().product());
    let mut out_shape = shape;
    out_shape[dim] = k;
    let vals = PyArrayDyn::<T>::zeros_bound(py, out_shape.as_slice(), false);
    let idx = PyArrayDyn::<i64>::zeros_bound(py, out_shape.as_slice(), false);
    {
        let xs = xr.as_slice()?;
        let mut vw = vals.readwrite();
        let mut iw = idx.readwrite();
        let (vs, is) = (vw.as_slice_mut()?, iw.as_slice_mut()?);
        py.allow_threads(|| topk::topk(xs, n, inner, k, largest, sorted, vs, is));
    }
    Ok(Some((vals.into_any(), idx.into_any()).into_py(py)))
}

/// `(values, indices)` of `topk(x, k, dim, largest, sorted)` (`dim` wrapped,
/// `0 <= k <= size`) for a C-contiguous, aligned array of float32, float64,
/// int64, int32 or uint64 with at least one dim; `None` for any other array.
#[pyfunction]
fn _topk(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    k: usize,
    dim: usize,
    largest: bool,
    sorted: bool,
) -> PyResult<Option<PyObject>> {
    if let Ok(a) = x.downcast::<PyArrayDyn<f32>>() {
        topk_as(py, a, k, dim, largest, sorted)
    } else if let Ok(a) = x.downcast::<PyArrayDyn<f64>>() {
        topk_as(py, a, k, dim, largest, sorted)
    } else if let Ok(a) = x.downcast::<PyArrayDyn<i64>>() {
        topk_as(py, a, k, dim, largest, sorted)
    } else if let Ok(a) = x.downcast::<PyArrayDyn<i32>>() {
        topk_as(py, a, k, dim, largest, sorted)
    } else if let Ok(a) = x.downcast::<PyArrayDyn<u64>>() {
        topk_as(py, a, k, dim, largest, sorted)
    } else {
        Ok(None)
    }
}

/// Add this file's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_topk, m)?)
}
