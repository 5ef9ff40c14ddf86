//! The fused single-pass kernels (`crate::kernels::fused`) and the blocked `sum`
//! as `_core` functions the Python kernels call, and the intra-op thread count
//! (`opyard.set_num_threads` / `get_num_threads`).
//!
//! Note [Fused kernels from Python]: each `_fused_*` function takes numpy arrays
//! and returns its result array(s), or `None` when it does not take the inputs —
//! not C-contiguous, not aligned, not all float32 or all float64 (the Python
//! kernel casts float16/bfloat16 to float32 first, as torch computes them), a
//! borrowed array, or the fast paths off (`OPYARD_FASTPATH=0`) — and the Python
//! kernel then computes with numpy as before. Arguments are checked by the Python
//! kernel (dims wrapped, shapes matched) before the call; what this layer checks
//! again is only what memory safety needs (lengths). The kernel runs with the GIL
//! released (`py.allow_threads`): it reads and writes only the slices it was
//! given and never calls into Python. Arrays go through the numpy crate's safe
//! API (typed downcast, borrow-checked slices, `zeros_bound` for results).

use super::common::{by_dtype, contiguous};
use crate::kernels::fused;
use crate::kernels::parallel;
use crate::kernels::reduce::{
    half_row_sums, round_to_bf16, sum_float_blocked, sum_half_blocked, Half,
};
use crate::kernels::vmath::Real;
use crate::python::ffi::numpy::{alloc, Elem};
use crate::python::hooks::fast_paths;
use numpy::prelude::PyArrayDescrMethods;
use numpy::{
    Element, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

/// The element types of the fused kernels.
trait FusedElem: Real + Element + Elem + crate::kernels::Float + Send + Sync {}
impl FusedElem for f32 {}
impl FusedElem for f64 {}

/// `x` (optional) as `T`'s array of exactly `len` elements; `Err(())` when given but unreadable.
fn optional<'py, T: Element>(
    x: Option<&Bound<'py, PyAny>>,
    len: usize,
) -> Result<Option<PyReadonlyArrayDyn<'py, T>>, ()> {
    match x {
        None => Ok(None),
        Some(x) if x.is_none() => Ok(None),
        Some(x) => match contiguous::<T>(x) {
            Some(a) if a.len() == len => Ok(Some(a)),
            _ => Err(()),
        },
    }
}

/// A new zeroed C-contiguous array of `T` with `shape`.
fn zeros<'py, T: Element>(py: Python<'py>, shape: &[usize]) -> Bound<'py, PyArrayDyn<T>> {
    PyArrayDyn::<T>::zeros_bound(py, shape, false)
}

/// A new C-contiguous array of `T` with `shape`, each element written by `fill` (run
/// with the GIL released) before the array is returned: numpy's uninitialised
/// allocation (`ffi::numpy::alloc`), as `np.empty`, for a result every element of which
/// the kernel assigns (a zeroed result would cost a pass of page clearing or `memset`
/// that the kernel then overwrites).
pub(super) fn filled<'py, T: Elem + Send>(
    py: Python<'py>,
    shape: &[usize],
    fill: impl FnOnce(&mut [T]) + Send,
) -> PyResult<Bound<'py, PyAny>> {
    let dims: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
    alloc(py, &dims, |os| py.allow_threads(|| fill(os)))
}

/// `(n, inner)` of `shape` reduced along `dim` (Note [Fused layout]).
fn along(shape: &[usize], dim: usize) -> PyResult<(usize, usize)> {
    if dim >= shape.len() {
        return Err(PyRuntimeError::new_err(format!(
            "_fused_softmax: dim {dim} out of range for {} dimensions",
            shape.len()
        )));
    }
    Ok((shape[dim], shape[dim + 1..].iter().product()))
}

fn softmax_as<'py, T: FusedElem>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    dim: usize,
    log: bool,
) -> PyResult<Option<PyObject>> {
    let Some(xr) = contiguous::<T>(x) else {
        return Ok(None);
    };
    let (n, inner) = along(xr.shape(), dim)?;
    let xs = xr.as_slice()?;
    let out = filled(py, xr.shape(), |os| fused::softmax(xs, n, inner, os, log))?;
    Ok(Some(out.unbind()))
}

/// `softmax` (`log=False`) or `log_softmax` of `x` along `dim` (already wrapped),
/// or `None` (Note [Fused kernels from Python]).
#[pyfunction]
fn _fused_softmax(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    dim: usize,
    log: bool,
) -> PyResult<Option<PyObject>> {
    by_dtype!(x, [f32, f64], T => softmax_as::<T>(py, x, dim, log))
}

fn softmax_backward_as<'py, T: FusedElem>(
    py: Python<'py>,
    g: &Bound<'py, PyAny>,
    y: &Bound<'py, PyAny>,
    dim: usize,
    log: bool,
) -> PyResult<Option<PyObject>> {
    let (Some(gr), Some(yr)) = (contiguous::<T>(g), contiguous::<T>(y)) else {
        return Ok(None);
    };
    if gr.shape() != yr.shape() {
        return Ok(None);
    }
    let (n, inner) = along(gr.shape(), dim)?;
    let (gs, ys) = (gr.as_slice()?, yr.as_slice()?);
    let out = filled(py, gr.shape(), |os| {
        fused::softmax_backward(gs, ys, n, inner, os, log)
    })?;
    Ok(Some(out.unbind()))
}

/// The gradient of `softmax`/`log_softmax` along `dim` from the gradient `g` of
/// its result `y` (same shape and dtype), or `None`.
#[pyfunction]
fn _fused_softmax_backward(
    py: Python<'_>,
    g: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    dim: usize,
    log: bool,
) -> PyResult<Option<PyObject>> {
    by_dtype!(g, [f32, f64], T => softmax_backward_as::<T>(py, g, y, dim, log))
}

#[allow(clippy::too_many_arguments)]
fn norm_as<'py, T: FusedElem>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    cols: usize,
    weight: Option<&Bound<'py, PyAny>>,
    bias: Option<&Bound<'py, PyAny>>,
    eps: f64,
    center: bool,
) -> PyResult<Option<PyObject>> {
    let Some(xr) = contiguous::<T>(x) else {
        return Ok(None);
    };
    let (Ok(wr), Ok(br)) = (optional::<T>(weight, cols), optional::<T>(bias, cols)) else {
        return Ok(None);
    };
    if cols == 0 || xr.len() % cols != 0 {
        return Ok(None);
    }
    let rows = xr.len() / cols;
    let stats = zeros::<T>(py, &[rows, 2]);
    let out = {
        let xs = xr.as_slice()?;
        let ws = wr.as_ref().map(|a| a.as_slice()).transpose()?;
        let bs = br.as_ref().map(|a| a.as_slice()).transpose()?;
        let mut sw = stats.readwrite();
        let ss = sw.as_slice_mut()?;
        filled(py, xr.shape(), |os| {
            fused::norm(xs, cols, ws, bs, eps, center, os, ss)
        })?
    };
    Ok(Some((out, stats.into_any()).into_py(py)))
}

/// `layer_norm` (`center=True`) or `rms_norm` over the trailing `cols` elements of
/// each row of `x`, with optional `weight`/`bias` of `cols` elements: `(y, stats)`,
/// `stats` of shape `(rows, 2)` holding each row's `(mean, rstd)`; or `None`.
#[pyfunction]
#[pyo3(signature = (x, cols, weight, bias, eps, center))]
fn _fused_norm(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    cols: usize,
    weight: Option<&Bound<'_, PyAny>>,
    bias: Option<&Bound<'_, PyAny>>,
    eps: f64,
    center: bool,
) -> PyResult<Option<PyObject>> {
    by_dtype!(x, [f32, f64], T => norm_as::<T>(py, x, cols, weight, bias, eps, center))
}

fn norm_stats_as<'py, T: FusedElem>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    cols: usize,
    eps: f64,
    center: bool,
) -> PyResult<Option<PyObject>> {
    let Some(xr) = contiguous::<T>(x) else {
        return Ok(None);
    };
    if cols == 0 || xr.len() % cols != 0 || xr.len() == 0 {
        return Ok(None);
    }
    let stats = zeros::<T>(py, &[xr.len() / cols, 2]);
    {
        let xs = xr.as_slice()?;
        let mut sw = stats.readwrite();
        let ss = sw.as_slice_mut()?;
        py.allow_threads(|| fused::norm_stats(xs, cols, eps, center, ss));
    }
    Ok(Some(stats.into_any().unbind()))
}

/// The `stats` of `_fused_norm` alone (same values): `(rows, 2)` holding each row's
/// `(mean, rstd)`; or `None`.
#[pyfunction]
fn _fused_norm_stats(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    cols: usize,
    eps: f64,
    center: bool,
) -> PyResult<Option<PyObject>> {
    by_dtype!(x, [f32, f64], T => norm_stats_as::<T>(py, x, cols, eps, center))
}

#[allow(clippy::too_many_arguments)]
fn norm_backward_as<'py, T: FusedElem>(
    py: Python<'py>,
    g: &Bound<'py, PyAny>,
    x: &Bound<'py, PyAny>,
    stats: &Bound<'py, PyAny>,
    weight: Option<&Bound<'py, PyAny>>,
    cols: usize,
    center: bool,
    mask: [bool; 3],
) -> PyResult<Option<PyObject>> {
    let (Some(gr), Some(xr), Some(sr)) = (
        contiguous::<T>(g),
        contiguous::<T>(x),
        contiguous::<T>(stats),
    ) else {
        return Ok(None);
    };
    let Ok(wr) = optional::<T>(weight, cols) else {
        return Ok(None);
    };
    if cols == 0 || gr.shape() != xr.shape() || xr.len() % cols != 0 {
        return Ok(None);
    }
    if sr.len() != 2 * (xr.len() / cols) {
        return Ok(None);
    }
    let dw = mask[1].then(|| zeros::<T>(py, &[cols]));
    let db = mask[2].then(|| zeros::<T>(py, &[cols]));
    let dx = {
        let (gs, xs, ss) = (gr.as_slice()?, xr.as_slice()?, sr.as_slice()?);
        let ws = wr.as_ref().map(|a| a.as_slice()).transpose()?;
        let mut dww = dw.as_ref().map(|a| a.readwrite());
        let mut dbw = db.as_ref().map(|a| a.readwrite());
        let dws = dww.as_mut().map(|a| a.as_slice_mut()).transpose()?;
        let dbs = dbw.as_mut().map(|a| a.as_slice_mut()).transpose()?;
        if mask[0] {
            Some(filled(py, xr.shape(), |dxs| {
                fused::norm_backward(gs, xs, ss, ws, cols, center, Some(dxs), dws, dbs)
            })?)
        } else {
            py.allow_threads(|| fused::norm_backward(gs, xs, ss, ws, cols, center, None, dws, dbs));
            None
        }
    };
    let none = || py.None();
    let pick = |a: Option<PyObject>| a.unwrap_or_else(none);
    Ok(Some(
        (
            pick(dx.map(|a| a.unbind())),
            pick(dw.map(|a| a.into_any().unbind())),
            pick(db.map(|a| a.into_any().unbind())),
        )
            .into_py(py),
    ))
}

/// The gradients `(dx, dweight, dbias)` of `_fused_norm` (each `None` where
/// `mask` is false) from the result's gradient `g`, the input `x` and the saved
/// `stats`; or `None`.
#[pyfunction]
#[pyo3(signature = (g, x, stats, weight, cols, center, mask))]
#[allow(clippy::too_many_arguments)]
fn _fused_norm_backward(
    py: Python<'_>,
    g: &Bound<'_, PyAny>,
    x: &Bound<'_, PyAny>,
    stats: &Bound<'_, PyAny>,
    weight: Option<&Bound<'_, PyAny>>,
    cols: usize,
    center: bool,
    mask: [bool; 3],
) -> PyResult<Option<PyObject>> {
    by_dtype!(x, [f32, f64], T => norm_backward_as::<T>(py, g, x, stats, weight, cols, center, mask))
}

/// Which pointwise activation.
#[derive(Clone, Copy)]
enum Act {
    Gelu { tanh: bool },
    Silu,
    Sigmoid,
}

fn act_as<'py, T: FusedElem>(
    py: Python<'py>,
    act: Act,
    x: &Bound<'py, PyAny>,
    g: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<PyObject>> {
    let Some(xr) = contiguous::<T>(x) else {
        return Ok(None);
    };
    let gr = match g {
        None => None,
        Some(g) => match contiguous::<T>(g) {
            Some(gr) if gr.shape() == xr.shape() => Some(gr),
            _ => return Ok(None),
        },
    };
    let xs = xr.as_slice()?;
    let gs = gr.as_ref().map(|a| a.as_slice()).transpose()?;
    let out = filled(py, xr.shape(), |os| match (act, gs) {
        (Act::Gelu { tanh }, None) => fused::gelu(xs, os, tanh),
        (Act::Gelu { tanh }, Some(gs)) => fused::gelu_backward(gs, xs, os, tanh),
        (Act::Silu, None) => fused::silu(xs, os),
        (Act::Silu, Some(gs)) => fused::silu_backward(gs, xs, os),
        (Act::Sigmoid, _) => fused::sigmoid_forward(xs, os),
    })?;
    Ok(Some(out.unbind()))
}

/// `gelu(x)` (`tanh`: torch's `approximate="tanh"`), or `None`.
#[pyfunction]
fn _fused_gelu(py: Python<'_>, x: &Bound<'_, PyAny>, tanh: bool) -> PyResult<Option<PyObject>> {
    by_dtype!(x, [f32, f64], T => act_as::<T>(py, Act::Gelu { tanh }, x, None))
}

/// `g * gelu'(x)`, or `None`.
#[pyfunction]
fn _fused_gelu_backward(
    py: Python<'_>,
    g: &Bound<'_, PyAny>,
    x: &Bound<'_, PyAny>,
    tanh: bool,
) -> PyResult<Option<PyObject>> {
    by_dtype!(x, [f32, f64], T => act_as::<T>(py, Act::Gelu { tanh }, x, Some(g)))
}

/// `sigmoid(x)`, or `None`.
#[pyfunction]
fn _fused_sigmoid(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<Option<PyObject>> {
    by_dtype!(x, [f32, f64], T => act_as::<T>(py, Act::Sigmoid, x, None))
}

/// `silu(x)`, or `None`.
#[pyfunction]
fn _fused_silu(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<Option<PyObject>> {
    by_dtype!(x, [f32, f64], T => act_as::<T>(py, Act::Silu, x, None))
}

/// `g * silu'(x)`, or `None`.
#[pyfunction]
fn _fused_silu_backward(
    py: Python<'_>,
    g: &Bound<'_, PyAny>,
    x: &Bound<'_, PyAny>,
) -> PyResult<Option<PyObject>> {
    by_dtype!(x, [f32, f64], T => act_as::<T>(py, Act::Silu, x, Some(g)))
}

fn sum_as<'py, T: FusedElem>(py: Python<'py>, x: &Bound<'py, PyAny>) -> PyResult<Option<PyObject>> {
    let Some(xr) = contiguous::<T>(x) else {
        return Ok(None);
    };
    let out = zeros::<T>(py, &[]);
    {
        let xs = xr.as_slice()?;
        let s = py.allow_threads(|| sum_float_blocked(xs));
        out.readwrite().as_slice_mut()?[0] = s;
    }
    Ok(Some(out.into_any().unbind()))
}

/// The sum of every element of a large float array as a 0-d array of its dtype,
/// blocked and on the pool (Note [Blocked sum]); or `None`.
#[pyfunction]
fn _blocked_sum(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<Option<PyObject>> {
    by_dtype!(x, [f32, f64], T => sum_as::<T>(py, x))
}

/// The float32 sum of a large bfloat16 (`bf16` true) or float16 array given as
/// its raw bits (`x.view(np.uint16)`, C-contiguous), blocked on the pool, as a
/// 0-d float32 array; or `None`.
#[pyfunction]
fn _blocked_sum_16(
    py: Python<'_>,
    bits: &Bound<'_, PyAny>,
    bf16: bool,
) -> PyResult<Option<PyObject>> {
    if !fast_paths() {
        return Ok(None);
    }
    let Some(br) = contiguous::<u16>(bits) else {
        return Ok(None);
    };
    let format = if bf16 { Half::BF16 } else { Half::F16 };
    let out = zeros::<f32>(py, &[]);
    {
        let bs = br.as_slice()?;
        let s = py.allow_threads(|| sum_half_blocked(bs, format));
        out.readwrite().as_slice_mut()?[0] = s;
    }
    Ok(Some(out.into_any().unbind()))
}

/// The float32 sums of the rows of a C-contiguous 2-D array of bfloat16
/// (`bf16` true) or float16 raw bits (`x.view(np.uint16)`), one per row, each
/// as `_blocked_sum_16` sums, the rows on the pool; or `None`.
#[pyfunction]
fn _row_sums_16(py: Python<'_>, bits: &Bound<'_, PyAny>, bf16: bool) -> PyResult<Option<PyObject>> {
    if !fast_paths() {
        return Ok(None);
    }
    let Some(br) = contiguous::<u16>(bits) else {
        return Ok(None);
    };
    let shape = br.shape().to_vec();
    let [rows, row_len] = shape[..] else {
        return Ok(None);
    };
    let format = if bf16 { Half::BF16 } else { Half::F16 };
    let out = zeros::<f32>(py, &[rows]);
    {
        let bs = br.as_slice()?;
        let mut ow = out.readwrite();
        let os = ow.as_slice_mut()?;
        py.allow_threads(|| half_row_sums(bs, row_len, format, os));
    }
    Ok(Some(out.into_any().unbind()))
}

/// A C-contiguous float32 array rounded to bfloat16, as the raw bits of an
/// array of its shape (`.view(bfloat16)` gives the values), on the pool when
/// large; or `None`.
#[pyfunction]
fn _round_to_bf16(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<Option<PyObject>> {
    if !fast_paths() {
        return Ok(None);
    }
    let Some(xr) = contiguous::<f32>(x) else {
        return Ok(None);
    };
    let out = zeros::<u16>(py, xr.shape());
    {
        let xs = xr.as_slice()?;
        let mut ow = out.readwrite();
        let os = ow.as_slice_mut()?;
        py.allow_threads(|| round_to_bf16(xs, os));
    }
    Ok(Some(out.into_any().unbind()))
}

fn scan_as<T: FusedElem + Elem + crate::kernels::scan::ScanElem>(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    dim: usize,
    product: bool,
) -> PyResult<Option<PyObject>> {
    let Some(xr) = contiguous::<T>(x) else {
        return Ok(None);
    };
    let shape = xr.shape().to_vec();
    if dim >= shape.len() {
        return Ok(None);
    }
    let (n, inner) = (shape[dim], shape[dim + 1..].iter().product::<usize>());
    let xs = xr.as_slice()?;
    // Every element is written: the scan assigns each output once.
    let out = filled(py, &shape, |os| {
        crate::kernels::scan::scan(xs, n, inner, product, os)
    })?;
    Ok(Some(out.unbind()))
}

/// The cumulative sum (`product` false) or product of a C-contiguous float32
/// or float64 array along `dim` (non-negative), accumulated in float64 as
/// torch's CPU kernel (Note [Scan accumulation]); or `None`.
#[pyfunction]
fn _scan(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    dim: usize,
    product: bool,
) -> PyResult<Option<PyObject>> {
    by_dtype!(x, [f32, f64], T => scan_as::<T>(py, x, dim, product))
}

/// From this many elements a bfloat16 `add`/`sub`/`mul`/`div` of two tensors runs
/// [`fused::bf16_binary`] (below it ml_dtypes' element loop, the same values).
const BF16_BINARY_MIN: usize = 1 << 16;

/// Whether `x` is a numpy array of a 2-byte `V`-kind dtype (ml_dtypes' bfloat16; the full
/// check is in [`bf16_binary`]): two field reads, no Python call.
pub(super) fn maybe_bf16(x: &Bound<'_, PyAny>) -> bool {
    x.downcast::<PyUntypedArray>().is_ok_and(|a| {
        let dt = a.dtype();
        dt.kind() == b'V' && dt.itemsize() == 2
    })
}

/// `x op y` for two C-contiguous bfloat16 arrays of one shape with at least
/// `BF16_BINARY_MIN` elements (`op`: 0..=3 for `+ - * /`), as a bfloat16 array; `None`
/// for anything else (the caller's general path runs). Called by the binary fast
/// path when its own dtypes decline, so only other dtypes pay the few checks.
pub(super) fn bf16_binary<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    y: &Bound<'py, PyAny>,
    op: u8,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let (Ok(xu), Ok(yu)) = (
        x.downcast::<PyUntypedArray>(),
        y.downcast::<PyUntypedArray>(),
    ) else {
        return Ok(None);
    };
    let dt = xu.dtype();
    let bf16 = dt.kind() == b'V' && dt.itemsize() == 2 && dt.is_equiv_to(&yu.dtype());
    if !bf16 || xu.len() < BF16_BINARY_MIN || xu.shape() != yu.shape() {
        return Ok(None);
    }
    if !(xu.is_c_contiguous() && yu.is_c_contiguous()) || dt.getattr("name")?.ne("bfloat16")? {
        return Ok(None);
    }
    let view = |a: &Bound<'py, PyAny>| a.call_method1("view", ("uint16",));
    let (xb, yb) = (view(x)?, view(y)?);
    let (Some(xr), Some(yr)) = (contiguous::<u16>(&xb), contiguous::<u16>(&yb)) else {
        return Ok(None);
    };
    let out = zeros::<u16>(py, xr.shape());
    {
        let (xs, ys) = (xr.as_slice()?, yr.as_slice()?);
        let mut ow = out.readwrite();
        let os = ow.as_slice_mut()?;
        py.allow_threads(|| fused::bf16_binary(xs, ys, op, os));
    }
    out.call_method1("view", (dt,)).map(Some)
}

/// torch's `set_num_threads(int)`: the number of intra-op threads the large
/// kernels use (Note [Intra-op threads]). Takes what has `__index__` but `bool`,
/// in C `int` range, positive; torch's exception types and messages otherwise.
#[pyfunction]
fn set_num_threads(n: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = n.py();
    let index = if n.is_instance_of::<PyBool>() {
        None
    } else {
        py.import_bound("operator")?
            .getattr("index")?
            .call1((n,))
            .ok()
    };
    let Some(index) = index else {
        return Err(PyRuntimeError::new_err(format!(
            "set_num_threads expects an int, but got {}",
            n.get_type().qualname()?
        )));
    };
    let Ok(v) = index.extract::<i64>() else {
        return Err(PyValueError::new_err("Overflow when unpacking long long"));
    };
    let Ok(v) = i32::try_from(v) else {
        return Err(PyValueError::new_err("Overflow when unpacking long"));
    };
    if v <= 0 {
        return Err(PyRuntimeError::new_err(
            "set_num_threads expects a positive integer",
        ));
    }
    parallel::set_num_threads(v as usize);
    Ok(())
}

/// torch's `get_num_threads()`: the number of intra-op threads.
#[pyfunction]
fn get_num_threads() -> usize {
    parallel::num_threads()
}

/// Add this area's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_fused_softmax, m)?)?;
    m.add_function(wrap_pyfunction!(_fused_softmax_backward, m)?)?;
    m.add_function(wrap_pyfunction!(_fused_norm, m)?)?;
    m.add_function(wrap_pyfunction!(_fused_norm_backward, m)?)?;
    m.add_function(wrap_pyfunction!(_fused_norm_stats, m)?)?;
    m.add_function(wrap_pyfunction!(_fused_gelu, m)?)?;
    m.add_function(wrap_pyfunction!(_fused_gelu_backward, m)?)?;
    m.add_function(wrap_pyfunction!(_fused_sigmoid, m)?)?;
    m.add_function(wrap_pyfunction!(_fused_silu, m)?)?;
    m.add_function(wrap_pyfunction!(_fused_silu_backward, m)?)?;
    m.add_function(wrap_pyfunction!(_blocked_sum, m)?)?;
    m.add_function(wrap_pyfunction!(_blocked_sum_16, m)?)?;
    m.add_function(wrap_pyfunction!(_row_sums_16, m)?)?;
    m.add_function(wrap_pyfunction!(_round_to_bf16, m)?)?;
    m.add_function(wrap_pyfunction!(_scan, m)?)?;
    m.add_function(wrap_pyfunction!(set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(get_num_threads, m)?)
}
