//! The large-input branch of the `add`/`sub`/`mul`/`div` fast path (`binary.rs`): from
//! `POOL_MIN` elements (256k), with more than one intra-op thread, the same loops as the
//! small path split over the pool (`elementwise::on_pool`), with the GIL released.
//!
//! Note [Large binary on the pool]: numpy's loop is one thread; torch splits the work
//! over its threads from 32k elements (its grain). Below `POOL_MIN` (eight grains) or
//! with one thread (`set_num_threads(1)`) the Python kernel (numpy) runs, as before.
//! The operand rules are the small path's (Note [Fast binary promotion]): the same
//! dtypes, the same result dtype, each element the same IEEE operation numpy applies
//! (`+ - * /` round once; `alpha` scales `other` in the result dtype first, as the
//! Python kernel's two ufunc calls), so the values are bit for bit numpy's.

use super::scalars::{alpha_fits, FromF64, Num, ToFloat};
use super::tensor_io::{default_float_is_f64, wrap_result};
use crate::kernels::elementwise::{
    arith, divide_as, float_binary, float_binary_from, on_pool, scaled, BinOp, Operand,
};
use crate::kernels::parallel::{num_threads, GRAIN};
use crate::kernels::{Arith, Float};
use crate::python::ffi::numpy::{alloc, ArrayRef, Dt, Elem};
use pyo3::prelude::*;

/// From this many elements a binary op runs on the pool (below it numpy's loop). An
/// element of `+` costs ~0.1 ns, so eight grains (~25 µs on one thread) are needed
/// before a second thread pays for its wake-up even when it finds a free core at
/// once; measured here, two threads lost to numpy's one at 64k and 128k elements
/// (best of 300: 12 µs against 6 µs, 21 against 14) and won from 1M.
pub const POOL_MIN: usize = 8 * GRAIN;

/// Whether a call of `len` elements takes this branch.
fn takes(len: usize) -> bool {
    len >= POOL_MIN && num_threads() > 1
}

/// A tensor operand (`T` is its element type): its slice, or its one element.
fn operand<'a, T: Elem>(a: &ArrayRef<'a, '_>, single: bool) -> Operand<'a, T> {
    let s = a.slice::<T>();
    if single {
        Operand::Scalar(s[0])
    } else {
        Operand::Slice(s)
    }
}

/// A new array of shape `dims` whose elements `kernel(lhs, rhs, chunk)` writes, on
/// the pool with the GIL released, wrapped as a tensor.
fn produce<A, B, U, K>(
    py: Python<'_>,
    dims: &[isize],
    lhs: Operand<'_, A>,
    rhs: Operand<'_, B>,
    kernel: K,
) -> PyResult<Option<PyObject>>
where
    A: Copy + Sync,
    B: Copy + Sync,
    U: Elem + Send,
    K: Fn(Operand<'_, A>, Operand<'_, B>, &mut [U]) + Send + Sync,
{
    let arr = alloc::<U>(py, dims, |out| {
        py.allow_threads(|| on_pool(lhs, rhs, out, kernel))
    })?;
    wrap_result(py, arr).map(Some)
}

/// Tensor op tensor of `len` elements (same dtype; `xs`/`ys`: that side is one
/// element), or `None` for the Python kernel.
#[allow(clippy::too_many_arguments)]
pub(super) fn tensors(
    py: Python<'_>,
    op: BinOp,
    x: &ArrayRef<'_, '_>,
    y: &ArrayRef<'_, '_>,
    xs: bool,
    ys: bool,
    dims: &[isize],
    alpha: Option<Num>,
) -> PyResult<Option<PyObject>> {
    if !takes(if xs { y.len } else { x.len }) {
        return Ok(None);
    }
    match x.dt {
        Dt::F32 => float_op::<f32>(py, op, dims, operand(x, xs), operand(y, ys), alpha),
        Dt::F64 => float_op::<f64>(py, op, dims, operand(x, xs), operand(y, ys), alpha),
        Dt::I32 => int_op::<i32>(py, op, dims, operand(x, xs), operand(y, ys), alpha),
        Dt::I64 => int_op::<i64>(py, op, dims, operand(x, xs), operand(y, ys), alpha),
    }
}

/// Tensor op Python number (no `alpha`: the small path's rule), or `None`.
pub(super) fn with_number(
    py: Python<'_>,
    op: BinOp,
    x: &ArrayRef<'_, '_>,
    n: Num,
) -> PyResult<Option<PyObject>> {
    if !takes(x.len) {
        return Ok(None);
    }
    let Some(f) = n.float() else {
        return Ok(None);
    };
    let dims = x.dims();
    match (x.dt, n) {
        (Dt::F32, _) => float_op::<f32>(
            py,
            op,
            dims,
            operand(x, false),
            Operand::Scalar(f as f32),
            None,
        ),
        (Dt::F64, _) => float_op::<f64>(py, op, dims, operand(x, false), Operand::Scalar(f), None),
        (Dt::I32, Num::Int(i)) => match i32::try_from(i) {
            Ok(v) => int_op::<i32>(py, op, dims, operand(x, false), Operand::Scalar(v), None),
            Err(_) => Ok(None),
        },
        (Dt::I64, Num::Int(i)) => {
            int_op::<i64>(py, op, dims, operand(x, false), Operand::Scalar(i), None)
        }
        (Dt::I32, Num::Float(_)) => int_with_float::<i32>(py, op, dims, operand(x, false), f),
        (Dt::I64, Num::Float(_)) => int_with_float::<i64>(py, op, dims, operand(x, false), f),
    }
}

/// A float result of the operands' own dtype.
fn float_op<T: Float + FromF64 + Elem + Send + Sync>(
    py: Python<'_>,
    op: BinOp,
    dims: &[isize],
    lhs: Operand<'_, T>,
    rhs: Operand<'_, T>,
    alpha: Option<Num>,
) -> PyResult<Option<PyObject>> {
    match alpha {
        None => produce(py, dims, lhs, rhs, |l, r, o: &mut [T]| {
            float_binary(op, l, r, o)
        }),
        Some(a) => match a.float() {
            Some(f) => {
                let a = T::from_f64(f);
                let sub = op == BinOp::Sub;
                produce(py, dims, lhs, rhs, move |l, r, o: &mut [T]| {
                    scaled(sub, l, r, a, o)
                })
            }
            None => Ok(None),
        },
    }
}

/// An integer result (add/sub/mul) or, for `div`, the default float dtype.
fn int_op<I: Arith + ToFloat + TryFrom<i64> + Elem + Send + Sync>(
    py: Python<'_>,
    op: BinOp,
    dims: &[isize],
    lhs: Operand<'_, I>,
    rhs: Operand<'_, I>,
    alpha: Option<Num>,
) -> PyResult<Option<PyObject>> {
    if op == BinOp::Div {
        return match default_float_is_f64(py) {
            Some(true) => produce(py, dims, lhs, rhs, |l, r, o: &mut [f64]| {
                divide_as(l, r, o, I::to_f64)
            }),
            Some(false) => produce(py, dims, lhs, rhs, |l, r, o: &mut [f32]| {
                divide_as(l, r, o, I::to_f32)
            }),
            None => Ok(None),
        };
    }
    match alpha {
        None => produce(py, dims, lhs, rhs, |l, r, o: &mut [I]| arith(op, l, r, o)),
        // `sub` is `add` with `-alpha`: torch checks that both fit (`alpha_fits`).
        Some(Num::Int(a)) if alpha_fits::<I>(op, a) => match I::try_from(a) {
            Ok(a) => {
                let sub = op == BinOp::Sub;
                produce(py, dims, lhs, rhs, move |l, r, o: &mut [I]| {
                    scaled(sub, l, r, a, o)
                })
            }
            Err(_) => Ok(None),
        },
        // Out of range, or a float alpha with integer tensors (an error the Python
        // kernel raises).
        Some(_) => Ok(None),
    }
}

/// An integer tensor op a Python float: both in the default float dtype.
fn int_with_float<I: Elem + ToFloat + Send + Sync>(
    py: Python<'_>,
    op: BinOp,
    dims: &[isize],
    lhs: Operand<'_, I>,
    f: f64,
) -> PyResult<Option<PyObject>> {
    match default_float_is_f64(py) {
        Some(true) => produce(py, dims, lhs, Operand::Scalar(f), |l, r, o: &mut [f64]| {
            float_binary_from(op, l, r, o, I::to_f64)
        }),
        Some(false) => produce(
            py,
            dims,
            lhs,
            Operand::Scalar(f as f32),
            |l, r, o: &mut [f32]| float_binary_from(op, l, r, o, I::to_f32),
        ),
        None => Ok(None),
    }
}
