//! `topk`, `sort` (not stable), `kthvalue` and `mode` in Rust
//! (`crate::kernels::topk`, `crate::kernels::order_stats`): the CPU kernels of
//! these ops for every real dtype, their results torch's element for element,
//! equal values included (Note [topk order], Note [Unstable orders]).
//!
//! These are not fast paths: no numpy expression gives those orders, so the
//! Python kernels always call them (with `OPYARD_FASTPATH=0` too), after
//! checking the arguments and converting the data to a C-contiguous array of
//! float32, float64, int64, int32 or uint64 (every other real dtype converts
//! to one of them without loss). Each returns `(values, indices)` with the
//! dim's size replaced by the result's (`k`, `n` or 1), or `None` for an array
//! it does not take. The loops run with the GIL released.

use crate::kernels::order_stats::{for_lines, kth_line, mode_line, radix_order, sort_lines};
use crate::kernels::topk::{self, TopkElem};
use numpy::{Element, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// Runs `$body` with `$a` the array `$x` downcast to its element type `$t`
/// (float32, float64, int64, int32 or uint64); `Ok(None)` for other arrays.
macro_rules! by_elem {
    ($x:expr, $a:ident : $t:ident => $body:expr) => {{
        if let Ok($a) = $x.downcast::<PyArrayDyn<f32>>() {
            type $t = f32;
            $body
        } else if let Ok($a) = $x.downcast::<PyArrayDyn<f64>>() {
            type $t = f64;
            $body
        } else if let Ok($a) = $x.downcast::<PyArrayDyn<i64>>() {
            type $t = i64;
            $body
        } else if let Ok($a) = $x.downcast::<PyArrayDyn<i32>>() {
            type $t = i32;
            $body
        } else if let Ok($a) = $x.downcast::<PyArrayDyn<u64>>() {
            type $t = u64;
            $body
        } else {
            Ok(None)
        }
    }};
}

/// `x` borrowed for reading with `(n, inner)` around `dim`, when it is
/// C-contiguous and aligned and `dim` names one of its dims.
fn lines_of<'py, T: Element>(
    x: &Bound<'py, PyArrayDyn<T>>,
    dim: usize,
) -> Option<(PyReadonlyArrayDyn<'py, T>, usize, usize)> {
    let xr = x.try_readonly().ok()?;
    let aligned = (xr.data() as usize).is_multiple_of(std::mem::align_of::<T>());
    let shape = xr.shape();
    if dim >= shape.len() || !xr.is_c_contiguous() || !aligned {
        return None;
    }
    let (n, inner) = (shape[dim], shape[dim + 1..].iter().product());
    Some((xr, n, inner))
}

/// New `(values, indices)` arrays of `x`'s shape with `dim` of size `m`,
/// filled by `fill(x, n, inner, values, indices)` with the GIL released.
fn compute<'py, T, F>(
    py: Python<'py>,
    x: &Bound<'py, PyArrayDyn<T>>,
    dim: usize,
    m: usize,
    fill: F,
) -> PyResult<Option<PyObject>>
where
    T: TopkElem + Element,
    F: FnOnce(&[T], usize, usize, &mut [T], &mut [i64]) + Send,
{
    let Some((xr, n, inner)) = lines_of(x, dim) else {
        return Ok(None);
    };
    let mut shape = xr.shape().to_vec();
    shape[dim] = m;
    let vals = PyArrayDyn::<T>::zeros_bound(py, shape.as_slice(), false);
    let idx = PyArrayDyn::<i64>::zeros_bound(py, shape.as_slice(), false);
    {
        let xs = xr.as_slice()?;
        let mut vw = vals.readwrite();
        let mut iw = idx.readwrite();
        let (vs, is) = (vw.as_slice_mut()?, iw.as_slice_mut()?);
        py.allow_threads(|| fill(xs, n, inner, vs, is));
    }
    Ok(Some((vals.into_any(), idx.into_any()).into_py(py)))
}

/// Runs `f` on each line into pairs, then splits them into `vals` and `idx`.
fn by_lines<T: TopkElem>(
    x: &[T],
    n: usize,
    inner: usize,
    m: usize,
    vals: &mut [T],
    idx: &mut [i64],
    f: impl Fn(&mut Vec<(T, i64)>, &mut [(T, i64)]) + Sync,
) {
    let Some(&first) = x.first() else {
        return;
    };
    let mut pairs = vec![(first, 0i64); vals.len()];
    for_lines(x, n, inner, m, &mut pairs, f);
    for ((v, i), (pv, pi)) in vals.iter_mut().zip(idx.iter_mut()).zip(pairs) {
        *v = pv;
        *i = pi;
    }
}

/// `topk(x, k, dim, largest, sorted)`, `dim` wrapped, `0 <= k <= size`.
#[pyfunction]
fn _topk(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    k: usize,
    dim: usize,
    largest: bool,
    sorted: bool,
) -> PyResult<Option<PyObject>> {
    by_elem!(x, a: T => {
        if lines_of(a, dim).is_none_or(|(_, n, _)| k > n) {
            return Ok(None);
        }
        compute(py, a, dim, k, |xs: &[T], n, inner, vs, is| {
            topk::topk(xs, n, inner, k, largest, sorted, vs, is)
        })
    })
}

/// `sort(x, dim, descending)` as torch's `stable=False`, `dim` wrapped.
#[pyfunction]
fn _sort_unstable(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    dim: usize,
    descending: bool,
) -> PyResult<Option<PyObject>> {
    by_elem!(x, a: T => {
        let Some((_, n, _)) = lines_of(a, dim) else {
            return Ok(None);
        };
        compute(py, a, dim, n, |xs: &[T], n, inner, vs, is| {
            sort_lines(xs, n, inner, descending, vs, is)
        })
    })
}

/// `kthvalue(x, k, dim, keepdim=True)`, `dim` wrapped, `1 <= k <= size`.
#[pyfunction]
fn _kthvalue(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    k: usize,
    dim: usize,
) -> PyResult<Option<PyObject>> {
    by_elem!(x, a: T => {
        if lines_of(a, dim).is_none_or(|(_, n, _)| k == 0 || k > n) {
            return Ok(None);
        }
        compute(py, a, dim, 1, |xs: &[T], n, inner, vs, is| {
            by_lines(xs, n, inner, 1, vs, is, |line, out| {
                kth_line(line, k - 1);
                out[0] = line[k - 1];
            })
        })
    })
}

/// `mode(x, dim, keepdim=True)`, `dim` wrapped, of a dim of size at least 1.
#[pyfunction]
fn _mode(py: Python<'_>, x: &Bound<'_, PyAny>, dim: usize) -> PyResult<Option<PyObject>> {
    by_elem!(x, a: T => {
        if lines_of(a, dim).is_none_or(|(_, n, _)| n == 0) {
            return Ok(None);
        }
        compute(py, a, dim, 1, |xs: &[T], n, inner, vs, is| {
            by_lines(xs, n, inner, 1, vs, is, |line, out| out[0] = mode_line(line))
        })
    })
}

/// The stable ascending order of the 1-D, C-contiguous int64 or int32 array
/// `x` (torch's radix sort of integer data); `None` for other arrays.
#[pyfunction]
fn _radix_order(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<Option<PyObject>> {
    fn order_of<T: Element + Copy + Into<i64> + Sync>(
        py: Python<'_>,
        a: &Bound<'_, PyArrayDyn<T>>,
    ) -> PyResult<Option<PyObject>> {
        let Ok(xr) = a.try_readonly() else {
            return Ok(None);
        };
        if xr.ndim() != 1 || !xr.is_c_contiguous() {
            return Ok(None);
        }
        let xs = xr.as_slice()?;
        let order = py.allow_threads(|| radix_order(xs));
        Ok(Some(
            numpy::PyArray1::from_vec_bound(py, order)
                .into_any()
                .unbind(),
        ))
    }
    if let Ok(a) = x.downcast::<PyArrayDyn<i64>>() {
        order_of(py, a)
    } else if let Ok(a) = x.downcast::<PyArrayDyn<i32>>() {
        order_of(py, a)
    } else {
        Ok(None)
    }
}

/// Add this file's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_topk, m)?)?;
    m.add_function(wrap_pyfunction!(_sort_unstable, m)?)?;
    m.add_function(wrap_pyfunction!(_kthvalue, m)?)?;
    m.add_function(wrap_pyfunction!(_mode, m)?)?;
    m.add_function(wrap_pyfunction!(_radix_order, m)?)
}
