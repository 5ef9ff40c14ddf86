//! `gather`, `scatter`, `scatter_add` and `where` in Rust (`crate::kernels::select`) as
//! `_core` functions their Python kernels call first.
//!
//! Each `_select_*` function takes numpy arrays and returns its result, or
//! `None` when it does not take the inputs — not C-contiguous or not aligned,
//! another element type (float32/float64/int64/int32 data, int64 indices), a
//! shape outside Note [Select layout], a borrowed array, or the fast paths off
//! (`OPYARD_FASTPATH=0`) — and the Python kernel then computes with numpy as
//! before (Note [Fused kernels from Python]: the same contract). The Python
//! kernel checks the arguments first (dims wrapped, dtypes and
//! sizes matched); the indices' bounds are checked here while the result (a new
//! array, dropped on error) is written, with torch's message naming the first
//! index out of range. The loops run with the
//! GIL released.

use super::common::{around, by_dtype, contiguous};
use super::fused::filled;
use crate::kernels::select::{self, Combine, Src};
use crate::kernels::Arith;
use crate::python::ffi::numpy::Elem;
use numpy::{Element, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// The index `idx` of `(outer, m, inner)` against data of `(outer, n, inner)`
/// along `dim`: `(outer, n, m, inner)`, or `None` when the shapes are not that.
fn index_layout(data: &[usize], idx: &[usize], dim: usize) -> Option<(usize, usize, usize, usize)> {
    if data.len() != idx.len() {
        return None;
    }
    let (outer, n, inner) = around(data, dim, dim)?;
    let same = data
        .iter()
        .zip(idx)
        .enumerate()
        .all(|(i, (a, b))| i == dim || a == b);
    same.then_some((outer, n, idx[dim], inner))
}

/// torch's error for an index `i` outside `0..n` along `dim`.
fn out_of_bounds(i: i64, dim: usize, n: usize) -> PyErr {
    PyRuntimeError::new_err(format!(
        "index {i} is out of bounds for dimension {dim} with size {n}"
    ))
}

fn gather_as<'py, T: Element + Elem + Send + Sync>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    dim: usize,
    index: &Bound<'py, PyAny>,
) -> PyResult<Option<PyObject>> {
    let (Some(xr), Some(ir)) = (contiguous::<T>(x), contiguous::<i64>(index)) else {
        return Ok(None);
    };
    let Some((_, n, m, inner)) = index_layout(xr.shape(), ir.shape(), dim) else {
        return Ok(None);
    };
    // Uninitialised (`filled`): every element is written, or the array is dropped.
    let (xs, is) = (xr.as_slice()?, ir.as_slice()?);
    let mut done = Ok(());
    let out = filled(py, ir.shape(), |os| {
        done = select::gather(xs, n, is, m, inner, os)
    })?;
    done.map_err(|i| out_of_bounds(i, dim, n))?;
    Ok(Some(out.unbind()))
}

/// `gather(x, dim, index)` for an int64 `index` of `x`'s shape apart from `dim`
/// (wrapped), its bounds checked first; or `None`.
#[pyfunction]
fn _select_gather(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    dim: usize,
    index: &Bound<'_, PyAny>,
) -> PyResult<Option<PyObject>> {
    by_dtype!(x, [f32, f64, i64, i32], T => gather_as::<T>(py, x, dim, index))
}

fn scatter_as<'py, T: Element + Elem + Arith + Send + Sync>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    dim: usize,
    index: &Bound<'py, PyAny>,
    src: &Bound<'py, PyAny>,
    value: bool,
    combine: Combine,
) -> PyResult<Option<PyObject>> {
    let (Some(xr), Some(ir), Some(sr)) = (
        contiguous::<T>(x),
        contiguous::<i64>(index),
        contiguous::<T>(src),
    ) else {
        return Ok(None);
    };
    if (value && sr.len() != 1) || (!value && ir.shape() != sr.shape()) {
        return Ok(None);
    }
    let Some((_, n, m, inner)) = index_layout(xr.shape(), ir.shape(), dim) else {
        return Ok(None);
    };
    let (xs, is, ss) = (xr.as_slice()?, ir.as_slice()?, sr.as_slice()?);
    let src = if value {
        Src::Value(ss[0])
    } else {
        Src::Tensor(ss)
    };
    // Uninitialised (`filled`): the copy of `x` writes every element, block by block
    // on the pool beside the scatter into it (`select::scatter` onto a base).
    let mut done = Ok(());
    let out = filled(py, xr.shape(), |os| {
        done = select::scatter(os, Some(xs), n, is, src, m, inner, combine)
    })?;
    done.map_err(|i| out_of_bounds(i, dim, n))?;
    Ok(Some(out.unbind()))
}

/// `scatter(x, dim, index, src)` into a new array for an int64 `index` of `x`'s
/// shape apart from `dim` (wrapped) and `src` of the index's shape and `x`'s
/// dtype, its bounds checked before the result is returned; `value`: `src` is one
/// element of `x`'s dtype written
/// everywhere (`scatter.value`); `reduce`: "" (assign), "add" or "multiply"
/// (the legacy `reduce=` overloads). `None` when it does not take the inputs.
#[pyfunction]
fn _select_scatter(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    dim: usize,
    index: &Bound<'_, PyAny>,
    src: &Bound<'_, PyAny>,
    value: bool,
    reduce: &str,
) -> PyResult<Option<PyObject>> {
    let combine = match reduce {
        "" => Combine::Assign,
        "add" => Combine::Add,
        "multiply" => Combine::Multiply,
        _ => return Ok(None),
    };
    by_dtype!(x, [f32, f64, i64, i32], T => scatter_as::<T>(py, x, dim, index, src, value, combine))
}

fn where_as<'py, T: Element + select::Bits>(
    py: Python<'py>,
    cond: &Bound<'py, PyAny>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
) -> PyResult<Option<PyObject>> {
    let (Some(cr), Some(ar), Some(br)) = (
        contiguous::<bool>(cond),
        contiguous::<T>(a),
        contiguous::<T>(b),
    ) else {
        return Ok(None);
    };
    if cr.shape() != ar.shape() || ar.shape() != br.shape() {
        return Ok(None);
    }
    let out = PyArrayDyn::<T>::zeros_bound(py, ar.shape(), false);
    {
        let (cs, xs, ys) = (cr.as_slice()?, ar.as_slice()?, br.as_slice()?);
        let mut w = out.readwrite();
        let os = w.as_slice_mut()?;
        py.allow_threads(|| select::where_select(cs, xs, ys, os));
    }
    Ok(Some(out.into_any().unbind()))
}

/// `where(cond, a, b)` of a bool `cond` and `a`, `b` of one shape, all
/// C-contiguous, `a` and `b` given as the bits of their elements (unsigned
/// integers of 1, 2, 4 or 8 bytes, one type); the result in that type, or `None`.
#[pyfunction]
fn _select_where(
    py: Python<'_>,
    cond: &Bound<'_, PyAny>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
) -> PyResult<Option<PyObject>> {
    by_dtype!(a, [u8, u16, u32, u64], T => where_as::<T>(py, cond, a, b))
}

/// Add this file's functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_select_gather, m)?)?;
    m.add_function(wrap_pyfunction!(_select_scatter, m)?)?;
    m.add_function(wrap_pyfunction!(_select_where, m)?)
}
