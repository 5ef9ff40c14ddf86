//! The fast path of the one-tensor kernels: `neg`, `sum` (full, no dtype),
//! `clone` (also of one value expanded), `ones_like` and `zeros_like`
//! (default arguments). Each returns `None` when its input is not a plain
//! contiguous CPU tensor of a fast-path dtype (or the call passes arguments),
//! and the Python kernel runs.

use super::array::{alloc, out_slice, ArrayRef, Dt, MAX_DIMS};
use super::binary::MAX_FAST_LEN;
use super::strided::StridedRef;
use super::tensor_io::{tensor_array, wrap_result};
use crate::kernels::elementwise::negate;
use crate::kernels::reduce::{sum_float, sum_int};
use crate::kernels::Arith;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// `sum` hands longer buffers to numpy.
const MAX_FAST_SUM_LEN: usize = 1 << 18;

/// Which one-tensor kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unary {
    Neg,
    Sum,
    Clone,
    OnesLike,
    ZerosLike,
}

/// The fast path of one call, or `None` to run the Python kernel.
pub fn unary(
    py: Python<'_>,
    which: Unary,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Option<PyObject>> {
    if args.len() != 1 || kwargs.is_some_and(|k| !k.is_empty()) {
        return Ok(None);
    }
    let Some(xa) = tensor_array(&args.get_item(0)?) else {
        return Ok(None);
    };
    let Some(x) = ArrayRef::read(&xa) else {
        return match which {
            Unary::Clone => clone_expanded_value(py, &xa),
            _ => Ok(None),
        };
    };
    // The pairwise sum keeps up with numpy's to ~1M elements (measured); the
    // others write a result of the input's length, see `MAX_FAST_LEN`.
    let limit = if which == Unary::Sum {
        MAX_FAST_SUM_LEN
    } else {
        MAX_FAST_LEN
    };
    if x.len > limit {
        return Ok(None);
    }
    // SAFETY (every `slice` below): the dtype arm matches `x.dt`.
    let arr = unsafe {
        match (which, x.dt) {
            (Unary::Sum, Dt::F32) => scalar(py, Dt::F32, sum_float(x.slice::<f32>()))?,
            (Unary::Sum, Dt::F64) => scalar(py, Dt::F64, sum_float(x.slice::<f64>()))?,
            (Unary::Sum, Dt::I32) => scalar(py, Dt::I64, sum_int(x.slice::<i32>()))?,
            (Unary::Sum, Dt::I64) => scalar(py, Dt::I64, sum_int(x.slice::<i64>()))?,
            (_, Dt::F32) => same_shape::<f32>(py, which, &x)?,
            (_, Dt::F64) => same_shape::<f64>(py, which, &x)?,
            (_, Dt::I32) => same_shape::<i32>(py, which, &x)?,
            (_, Dt::I64) => same_shape::<i64>(py, which, &x)?,
        }
    };
    wrap_result(py, arr).map(Some)
}

/// `clone` of one value expanded to a shape (all strides 0, as `SumBackward0`'s
/// gradient, which the engine copies into a fresh `.grad`): a C-contiguous
/// array filled with it, which is what numpy's order-K copy gives for all-zero
/// strides. Other strided inputs keep the Python kernel (order K can give
/// another layout, e.g. Fortran order for an expanded row).
fn clone_expanded_value(py: Python<'_>, xa: &Bound<'_, PyAny>) -> PyResult<Option<PyObject>> {
    let Some(x) = StridedRef::read(xa) else {
        return Ok(None);
    };
    if !x.one_value() || x.len() > MAX_FAST_LEN {
        return Ok(None);
    }
    let mut dims: [ffi::Py_ssize_t; MAX_DIMS] = [0; MAX_DIMS];
    for (d, &n) in dims.iter_mut().zip(x.dims()) {
        *d = n as ffi::Py_ssize_t;
    }
    let dims = &dims[..x.dims().len()];
    // SAFETY (every arm): the arm's type is `x.dt`, the array's element type.
    let arr = unsafe {
        match x.dt {
            Dt::F32 => filled::<f32>(py, &x, dims)?,
            Dt::F64 => filled::<f64>(py, &x, dims)?,
            Dt::I32 => filled::<i32>(py, &x, dims)?,
            Dt::I64 => filled::<i64>(py, &x, dims)?,
        }
    };
    wrap_result(py, arr).map(Some)
}

/// A new C-contiguous array of shape `dims` filled with `x`'s one value.
///
/// # Safety
/// `T` must be `x`'s element type.
unsafe fn filled<'py, T: Copy>(
    py: Python<'py>,
    x: &StridedRef<'_, '_>,
    dims: &[ffi::Py_ssize_t],
) -> PyResult<Bound<'py, PyAny>> {
    let src = x.operand::<T>();
    let v = src.data[src.offset];
    let (arr, data) = alloc(py, x.dt, dims)?;
    out_slice::<T>(data, x.len()).fill(v);
    Ok(arr)
}

/// A 0-d array holding `v`.
fn scalar<'py, T>(py: Python<'py>, dt: Dt, v: T) -> PyResult<Bound<'py, PyAny>> {
    let (arr, data) = alloc(py, dt, &[])?;
    // SAFETY: a fresh 0-d array of `dt` (whose element type is `T`) holds one element.
    unsafe { out_slice::<T>(data, 1)[0] = v };
    Ok(arr)
}

/// A new array of `x`'s shape and dtype: `-x`, a copy, ones or zeros.
///
/// # Safety
/// `T` must be `x`'s element type.
unsafe fn same_shape<'py, T: Arith>(
    py: Python<'py>,
    which: Unary,
    x: &ArrayRef<'_, 'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let (arr, data) = alloc(py, x.dt, x.dims())?;
    let out = out_slice::<T>(data, x.len);
    match which {
        Unary::Neg => negate(x.slice::<T>(), out),
        Unary::Clone => out.copy_from_slice(x.slice::<T>()),
        Unary::OnesLike => out.fill(T::ONE),
        Unary::ZerosLike => out.fill(T::ZERO),
        // `sum` returns a 0-d array (its arms in `unary` never call this one).
        Unary::Sum => unreachable!("sum has no result of its input's shape"),
    }
    Ok(arr)
}
