//! Reductions along dims in Rust (`crate::kernels::reduce_dim`) as `_core`
//! functions the Python kernels of `sum`, `mean`, `amax` and `amin` call first.
//!
//! Each takes a numpy array and the run of reduced dims `first..=last` (the
//! Python kernel wraps and checks them: a run of adjacent dims, the dim
//! non-empty for `amax`/`amin`) and returns the result of the shape with those
//! dims removed, or `None` when it does not take the input (see `common`).
//! The loops run with the GIL released.

use super::common::{around, by_dtype, contiguous};
use crate::kernels::reduce::Half;
use crate::kernels::reduce_dim::{self, DimElem, Extreme};
use numpy::{Element, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The shape of `shape` without the dims `first..=last`.
fn reduced_shape(shape: &[usize], first: usize, last: usize) -> Vec<usize> {
    shape[..first]
        .iter()
        .chain(&shape[last + 1..])
        .copied()
        .collect()
}

/// `kernel(elements, outer, n, inner, out)` for a C-contiguous array `x` of `T` read as
/// `(outer, n, inner)` around its dims `first..=last`, into a new zeroed array of `U` of
/// the shape without them, run with the GIL released; `None` when `x` is not taken or,
/// unless `empty_ok`, `n` is 0.
fn reduce_into<'py, T: Element + Sync, U: Element + Send>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    first: usize,
    last: usize,
    empty_ok: bool,
    kernel: impl FnOnce(&[T], usize, usize, usize, &mut [U]) + Send,
) -> PyResult<Option<PyObject>> {
    let Some(xr) = contiguous::<T>(x) else {
        return Ok(None);
    };
    let Some((outer, n, inner)) = around(xr.shape(), first, last) else {
        return Ok(None);
    };
    if n == 0 && !empty_ok {
        return Ok(None);
    }
    let shape = reduced_shape(xr.shape(), first, last);
    let out = PyArrayDyn::<U>::zeros_bound(py, shape.as_slice(), false);
    if outer == 0 || inner == 0 {
        // No result element to compute (a zero-size dim around the reduced ones): the kernels'
        // row loops cannot be split into rows of no elements.
        return Ok(Some(out.into_any().unbind()));
    }
    {
        let xs = xr.as_slice()?;
        let mut w = out.readwrite();
        let os = w.as_slice_mut()?;
        py.allow_threads(|| kernel(xs, outer, n, inner, os));
    }
    Ok(Some(out.into_any().unbind()))
}

fn reduce_as<'py, T: DimElem + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    first: usize,
    last: usize,
    op: &str,
) -> PyResult<Option<PyObject>> {
    let which = match op {
        "sum" => None,
        "amax" => Some(Extreme::Max),
        "amin" => Some(Extreme::Min),
        _ => {
            return Err(PyValueError::new_err(format!(
                "_reduce_dim: op must be 'sum', 'amax' or 'amin', not {:?}",
                crate::python::errors::clip(op)
            )))
        }
    };
    reduce_into::<T, T>(
        py,
        x,
        first,
        last,
        which.is_none(),
        |xs, outer, n, inner, os| match which {
            None => reduce_dim::sum_dim(xs, outer, n, inner, os),
            Some(e) => reduce_dim::extreme_dim(xs, outer, n, inner, e, os),
        },
    )
}

/// `op` ("sum", "amax" or "amin") of a C-contiguous float32/float64 array over
/// its dims `first..=last`, in its dtype (a sum as numpy's, bit for bit: Note
/// [Dim sum order]); or `None`.
#[pyfunction]
fn _reduce_dim(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    first: usize,
    last: usize,
    op: &str,
) -> PyResult<Option<PyObject>> {
    by_dtype!(x, [f32, f64], T => reduce_as::<T>(py, x, first, last, op))
}

/// The float32 sums over the dims `first..=last` of a C-contiguous bfloat16
/// (`bf16` true) or float16 array given as its raw bits (`x.view(np.uint16)`),
/// where dims follow the reduced ones (the sums along the last dims are
/// `_row_sums_16`'s); or `None`.
#[pyfunction]
fn _sum_dim_16(
    py: Python<'_>,
    bits: &Bound<'_, PyAny>,
    first: usize,
    last: usize,
    bf16: bool,
) -> PyResult<Option<PyObject>> {
    if !crate::python::hooks::fast_paths() {
        return Ok(None);
    }
    let format = if bf16 { Half::BF16 } else { Half::F16 };
    reduce_into::<u16, f32>(py, bits, first, last, true, |bs, outer, n, inner, os| {
        reduce_dim::half_sum_slices(bs, outer, n, inner, format, os)
    })
}

/// `amax` (`op` "amax") or `amin` ("amin") over the dims `first..=last` (none
/// empty) of a C-contiguous bfloat16 (`bf16` true) or float16 array given as
/// its raw bits, as float32 values (each one of the elements, or nan); or `None`.
#[pyfunction]
fn _extreme_dim_16(
    py: Python<'_>,
    bits: &Bound<'_, PyAny>,
    first: usize,
    last: usize,
    bf16: bool,
    op: &str,
) -> PyResult<Option<PyObject>> {
    let which = match op {
        "amax" => Extreme::Max,
        "amin" => Extreme::Min,
        _ => {
            return Err(PyValueError::new_err(format!(
                "_extreme_dim_16: op must be 'amax' or 'amin', not {:?}",
                crate::python::errors::clip(op)
            )))
        }
    };
    if !crate::python::hooks::fast_paths() {
        return Ok(None);
    }
    let format = if bf16 { Half::BF16 } else { Half::F16 };
    reduce_into::<u16, f32>(py, bits, first, last, false, |bs, outer, n, inner, os| {
        reduce_dim::half_extreme_dim(bs, outer, n, inner, format, which, os)
    })
}

/// Add this file's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_reduce_dim, m)?)?;
    m.add_function(wrap_pyfunction!(_sum_dim_16, m)?)?;
    m.add_function(wrap_pyfunction!(_extreme_dim_16, m)?)
}
