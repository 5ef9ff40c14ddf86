//! The fast path of the one-tensor kernels: `neg`, `sum` (full, no dtype),
//! `clone` (also of one value expanded), `ones_like` and `zeros_like`
//! (default arguments). Each returns `None` when its input is not a plain
//! contiguous CPU tensor of a fast-path dtype (or the call passes arguments),
//! and the Python kernel runs.

use super::binary::MAX_FAST_LEN;
use super::tensor_io::{tensor_array, wrap_result};
use crate::kernels::elementwise::negate;
use crate::kernels::reduce::{sum_float, sum_int};
use crate::kernels::Arith;
use crate::python::ffi::numpy::{alloc, ArrayRef, Dt, Elem, MAX_DIMS};
use crate::python::ffi::numpy_strided::StridedRef;
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
    let arr = match (which, x.dt) {
        (Unary::Sum, Dt::F32) => scalar(py, sum_float(x.slice::<f32>()))?,
        (Unary::Sum, Dt::F64) => scalar(py, sum_float(x.slice::<f64>()))?,
        (Unary::Sum, Dt::I32) => scalar::<i64>(py, sum_int(x.slice::<i32>()))?,
        (Unary::Sum, Dt::I64) => scalar::<i64>(py, sum_int(x.slice::<i64>()))?,
        (_, Dt::F32) => same_shape::<f32>(py, which, &x)?,
        (_, Dt::F64) => same_shape::<f64>(py, which, &x)?,
        (_, Dt::I32) => same_shape::<i32>(py, which, &x)?,
        (_, Dt::I64) => same_shape::<i64>(py, which, &x)?,
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
    let mut dims: [isize; MAX_DIMS] = [0; MAX_DIMS];
    for (d, &n) in dims.iter_mut().zip(x.dims()) {
        *d = n as isize;
    }
    let dims = &dims[..x.dims().len()];
    let arr = match x.dt {
        Dt::F32 => filled::<f32>(py, &x, dims)?,
        Dt::F64 => filled::<f64>(py, &x, dims)?,
        Dt::I32 => filled::<i32>(py, &x, dims)?,
        Dt::I64 => filled::<i64>(py, &x, dims)?,
    };
    wrap_result(py, arr).map(Some)
}

/// A new C-contiguous array of shape `dims` filled with `x`'s one value
/// (`T` is `x`'s element type).
fn filled<'py, T: Elem>(
    py: Python<'py>,
    x: &StridedRef<'_, '_>,
    dims: &[isize],
) -> PyResult<Bound<'py, PyAny>> {
    let src = x.operand::<T>();
    let v = src.data[src.offset];
    alloc::<T>(py, dims, |out| out.fill(v))
}

/// A 0-d array holding `v`.
fn scalar<T: Elem>(py: Python<'_>, v: T) -> PyResult<Bound<'_, PyAny>> {
    alloc::<T>(py, &[], |out| out[0] = v)
}

/// A new array of `x`'s shape and dtype (`T`): `-x`, a copy, ones or zeros.
fn same_shape<'py, T: Arith + Elem>(
    py: Python<'py>,
    which: Unary,
    x: &ArrayRef<'_, 'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let src = x.slice::<T>();
    alloc::<T>(py, x.dims(), |out| match which {
        Unary::Neg => negate(src, out),
        Unary::Clone => out.copy_from_slice(src),
        Unary::OnesLike => out.fill(T::ONE),
        Unary::ZerosLike => out.fill(T::ZERO),
        // `sum` returns a 0-d array (its arms in `unary` never call this one).
        Unary::Sum => unreachable!("sum has no result of its input's shape"),
    })
}
