//! 2-D windows in Rust as `_core` functions the Python kernels call first: max
//! pooling (`crate::kernels::pool`: `max_pool2d_with_indices` and its backward)
//! and a convolution's columns (`crate::kernels::im2col`).
//!
//! Each takes C-contiguous float32/float64 planes (the last two dims of a 3-D
//! or 4-D array; the caller has checked the arguments and computed the output
//! size with torch's rules) and returns its result, or `None` when it does not
//! take the inputs (see `common`); the loops run with the GIL released.

use super::common::{by_dtype, contiguous};
use super::fused::filled;
use crate::kernels::im2col::{im2col, Columns};
use crate::kernels::pool::{self, Pool2d};
use crate::kernels::reduce_dim::DimElem;
use crate::python::ffi::numpy::Elem;
use numpy::{Element, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

type Pair = (usize, usize);

fn max_pool_as<'py, T: DimElem + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    mut g: Pool2d,
) -> PyResult<Option<PyObject>> {
    let Some(xr) = contiguous::<T>(x) else {
        return Ok(None);
    };
    let shape = xr.shape();
    if !(3..=4).contains(&shape.len()) {
        return Ok(None);
    }
    g.input = (shape[shape.len() - 2], shape[shape.len() - 1]);
    let mut out_shape = shape.to_vec();
    let k = out_shape.len();
    (out_shape[k - 2], out_shape[k - 1]) = g.output;
    let values = PyArrayDyn::<T>::zeros_bound(py, out_shape.as_slice(), false);
    let indices = PyArrayDyn::<i64>::zeros_bound(py, out_shape.as_slice(), false);
    {
        let xs = xr.as_slice()?;
        let mut vw = values.readwrite();
        let mut iw = indices.readwrite();
        let (vs, is) = (vw.as_slice_mut()?, iw.as_slice_mut()?);
        py.allow_threads(|| pool::max_pool2d(xs, &g, vs, is));
    }
    Ok(Some((values.into_any(), indices.into_any()).into_py(py)))
}

/// The windows of a call (the planes' size is read from the input later), or `None`
/// when a kernel, stride or dilation is 0 (the Python kernel's checks answer those).
fn geometry(
    output: Pair,
    kernel: Pair,
    stride: Pair,
    padding: Pair,
    dilation: Pair,
) -> Option<Pool2d> {
    let positive = |p: Pair| p.0 > 0 && p.1 > 0;
    (positive(kernel) && positive(stride) && positive(dilation)).then_some(Pool2d {
        input: (0, 0),
        output,
        kernel,
        stride,
        padding,
        dilation,
    })
}

/// `(values, indices)` of a 2-D max pool of the planes of `x` (C-contiguous,
/// 3-D or 4-D, float32/float64) to `output` (torch's output size, computed by
/// the caller) with `kernel`, `stride`, `padding` and `dilation` as (height,
/// width); or `None`.
#[pyfunction]
fn _max_pool2d(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    output: Pair,
    kernel: Pair,
    stride: Pair,
    padding: Pair,
    dilation: Pair,
) -> PyResult<Option<PyObject>> {
    let Some(g) = geometry(output, kernel, stride, padding, dilation) else {
        return Ok(None);
    };
    by_dtype!(x, [f32, f64], T => max_pool_as::<T>(py, x, g))
}

fn backward_as<'py, T: DimElem + Element>(
    py: Python<'py>,
    grad: &Bound<'py, PyAny>,
    indices: &Bound<'py, PyAny>,
    input: Pair,
) -> PyResult<Option<PyObject>> {
    let (Some(gr), Some(ir)) = (contiguous::<T>(grad), contiguous::<i64>(indices)) else {
        return Ok(None);
    };
    let shape = gr.shape();
    if !(3..=4).contains(&shape.len()) || ir.shape() != shape {
        return Ok(None);
    }
    let k = shape.len();
    let plane_out = shape[k - 2] * shape[k - 1];
    let mut in_shape = shape.to_vec();
    (in_shape[k - 2], in_shape[k - 1]) = input;
    let out = PyArrayDyn::<T>::zeros_bound(py, in_shape.as_slice(), false);
    let done = {
        let (gs, is) = (gr.as_slice()?, ir.as_slice()?);
        let mut w = out.readwrite();
        let os = w.as_slice_mut()?;
        py.allow_threads(|| pool::max_pool2d_backward(gs, is, plane_out, input.0 * input.1, os))
    };
    Ok(done.ok().map(|()| out.into_any().unbind()))
}

/// The gradient of a 2-D max pool's input of planes `input` (height, width):
/// `grad` (C-contiguous, 3-D or 4-D, float32/float64) added at `indices`
/// (int64, of `grad`'s shape) within each plane, in the element type; `None`
/// when it does not take the inputs or an index is outside its plane.
#[pyfunction]
fn _max_pool2d_backward(
    py: Python<'_>,
    grad: &Bound<'_, PyAny>,
    indices: &Bound<'_, PyAny>,
    input: Pair,
) -> PyResult<Option<PyObject>> {
    by_dtype!(grad, [f32, f64], T => backward_as::<T>(py, grad, indices, input))
}

fn im2col_as<'py, T: Element + Elem + Copy + Default + Send + Sync>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    mut g: Pool2d,
    order: Columns,
) -> PyResult<Option<PyObject>> {
    let Some(xr) = contiguous::<T>(x) else {
        return Ok(None);
    };
    let &[n, c, h, w] = xr.shape() else {
        return Ok(None);
    };
    g.input = (h, w);
    let ((kh, kw), (oh, ow)) = (g.kernel, g.output);
    let shape = match order {
        Columns::KernelMajor => [c, kh, kw, n, oh, ow],
        Columns::ImageMajor => [n, c, kh, kw, oh, ow],
    };
    // Uninitialised (`filled`): `im2col` writes every element.
    let xs = xr.as_slice()?;
    let out = filled(py, &shape, |os| im2col(xs, n, c, &g, order, os))?;
    Ok(Some(out.unbind()))
}

/// The columns of a 2-D convolution of `x` (C-contiguous `(N, C, H, W)`,
/// float32/float64) with windows of `kernel`, `stride`, `padding` and `dilation`
/// (height, width) giving `output` (torch's size, computed by the caller), the
/// padding read as zeros: `(C, kh, kw, N, oh, ow)` when `kernel_major`, else
/// `(N, C, kh, kw, oh, ow)` (Note [Columns in Rust]); or `None`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn _im2col(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    output: Pair,
    kernel: Pair,
    stride: Pair,
    padding: Pair,
    dilation: Pair,
    kernel_major: bool,
) -> PyResult<Option<PyObject>> {
    let Some(g) = geometry(output, kernel, stride, padding, dilation) else {
        return Ok(None);
    };
    let order = if kernel_major {
        Columns::KernelMajor
    } else {
        Columns::ImageMajor
    };
    by_dtype!(x, [f32, f64], T => im2col_as::<T>(py, x, g, order))
}

/// Add this file's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_im2col, m)?)?;
    m.add_function(wrap_pyfunction!(_max_pool2d, m)?)?;
    m.add_function(wrap_pyfunction!(_max_pool2d_backward, m)?)
}
