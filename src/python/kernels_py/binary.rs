//! The fast path of `add`, `sub`, `mul` and `div` (Tensor and Scalar
//! overloads): two plain CPU tensors of one fast-path dtype with equal shapes
//! (or one side a single element), or a tensor and a Python int/float.
//! Anything else returns `None` and the caller runs the Python kernel.
//!
//! Note [Fast binary promotion]: the result dtype is torch's (and the
//! Python kernel's): the tensor's dtype, except that an integer tensor with a
//! Python float, and integer true division, give the default float dtype
//! (float32 or float64; with another default the call falls back). A Python
//! number becomes the result dtype first (numpy's weak scalars); ints beyond
//! 2**53 meeting a float, ints outside an int32 tensor's range, and bools take
//! the Python kernel, whose rules for them stay the only ones.
//!
//! Note [Large binary on the pool]: numpy's loop is one thread; torch splits the work
//! over its threads from 32k elements (its grain). From `POOL_MIN` elements (eight
//! grains, 256k) with more than one intra-op thread, the same loops run split over the
//! intra-op team (`elementwise::on_pool`) with the GIL released (`Run::Pooled`); between
//! `MAX_FAST_LEN` and `POOL_MIN`, or with one thread (`set_num_threads(1)`), the Python
//! kernel (numpy) runs. The operand rules and values are the small path's: each element
//! is the same IEEE operation numpy applies (`+ - * /` round once; `alpha` scales
//! `other` in the result dtype first, as the Python kernel's two ufunc calls), so the
//! values are bit for bit numpy's on either path.

use super::scalars::{alpha_arg, alpha_fits, FromF64, Num, ToFloat};
use super::tensor_io::{default_float_is_f64, tensor_array, wrap_result};
use crate::kernels::elementwise::{
    arith, divide_as, float_binary, float_binary_from, on_pool, scaled, BinOp, Operand,
};
use crate::kernels::parallel::{num_threads, GRAIN};
use crate::kernels::{Arith, Float};
use crate::python::ffi::numpy::{alloc, ArrayRef, Dt, Elem};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// Above this many elements numpy's own (SIMD) loops win and the Python kernel
/// runs: measured crossovers (bench/bench_tensor.py, BENCHMARKS.md "Rust kernels")
/// are ~32k elements for add/sub/mul/neg/clone and ~16k for division.
pub const MAX_FAST_LEN: usize = 1 << 15;
const MAX_FAST_DIV_LEN: usize = 1 << 14;

fn max_len(op: BinOp) -> usize {
    if op == BinOp::Div {
        MAX_FAST_DIV_LEN
    } else {
        MAX_FAST_LEN
    }
}

/// The second operand: a tensor or a Python number.
enum Rhs<'a, 'py> {
    Tensor(ArrayRef<'a, 'py>),
    Number(Num),
}

/// One tensor operand as a loop operand: its slice, or its one element
/// (`T` is `a`'s element type).
fn operand<'a, T: Elem>(a: &ArrayRef<'a, '_>, single: bool) -> Operand<'a, T> {
    let s = a.slice::<T>();
    if single {
        Operand::Scalar(s[0])
    } else {
        Operand::Slice(s)
    }
}

/// From this many elements a binary op runs on the intra-op team (Note [Large binary on
/// the pool]). An element of `+` costs ~0.1 ns, so eight grains (~25 µs on one thread)
/// are needed before a second thread pays for itself; measured here, two threads lost to
/// numpy's one at 64k and 128k elements (best of 300: 12 µs against 6 µs, 21 against 14)
/// and won from 1M.
pub const POOL_MIN: usize = 8 * GRAIN;

/// Where a result's loops run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Run {
    /// On the calling thread, the GIL held.
    Inline,
    /// Split over the intra-op team, the GIL released (Note [Large binary on the pool]).
    Pooled,
}

impl Run {
    /// How a result of `len` elements runs, or `None` for the Python kernel.
    fn of(op: BinOp, len: usize) -> Option<Run> {
        if len <= max_len(op) {
            Some(Run::Inline)
        } else if len >= POOL_MIN && num_threads() > 1 {
            Some(Run::Pooled)
        } else {
            None
        }
    }
}

/// A new array of shape `dims` whose elements `kernel(lhs, rhs, out)` writes (`run`
/// says where), wrapped as a tensor.
fn produce<A, B, U, K>(
    py: Python<'_>,
    run: Run,
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
    let arr = match run {
        Run::Inline => alloc::<U>(py, dims, |out| kernel(lhs, rhs, out))?,
        Run::Pooled => alloc::<U>(py, dims, |out| {
            py.allow_threads(|| on_pool(lhs, rhs, out, kernel))
        })?,
    };
    wrap_result(py, arr).map(Some)
}

/// The fast path of one binary call, or `None` to run the Python kernel.
/// `alpha_positional`: the `.Scalar` overloads of add/sub take `alpha` third.
pub fn binary(
    py: Python<'_>,
    op: BinOp,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
    alpha_positional: bool,
) -> PyResult<Option<PyObject>> {
    let scaled_op = matches!(op, BinOp::Add | BinOp::Sub);
    let alpha = match (args.len(), kwargs.map_or(0, |k| k.len())) {
        (2, 0) => None,
        (3, 0) if alpha_positional && scaled_op => Some(args.get_item(2)?),
        (2, 1) if !alpha_positional && scaled_op => match kwargs.unwrap().get_item("alpha")? {
            Some(a) => Some(a),
            None => return Ok(None),
        },
        _ => return Ok(None),
    };
    let Ok(alpha) = alpha_arg(alpha) else {
        return Ok(None);
    };
    let self_obj = args.get_item(0)?;
    let Some(xa) = tensor_array(&self_obj) else {
        return Ok(None);
    };
    let Some(x) = ArrayRef::read(&xa) else {
        return bf16_tensors(py, op, &xa, &args.get_item(1)?, alpha);
    };
    let other = args.get_item(1)?;
    let ya = tensor_array(&other);
    let rhs = match &ya {
        Some(ya) => match ArrayRef::read(ya) {
            Some(y) => Rhs::Tensor(y),
            None => return Ok(None),
        },
        None => match Num::read(&other) {
            Some(n) => Rhs::Number(n),
            None => return Ok(None),
        },
    };
    match rhs {
        Rhs::Tensor(y) => tensors(py, op, &x, &y, alpha),
        Rhs::Number(n) => with_number(py, op, &x, n, alpha),
    }
}

/// Two large bfloat16 tensors of one shape (no `alpha`): computed in float32 and rounded
/// once in Rust (`fused::bf16_binary`); `None` for anything else.
fn bf16_tensors(
    py: Python<'_>,
    op: BinOp,
    xa: &Bound<'_, PyAny>,
    other: &Bound<'_, PyAny>,
    alpha: Option<Num>,
) -> PyResult<Option<PyObject>> {
    // The cheapest test first: these calls are the other dtypes' way to the Python kernel.
    if alpha.is_some() || !super::fused::maybe_bf16(xa) {
        return Ok(None);
    }
    let Some(ya) = tensor_array(other) else {
        return Ok(None);
    };
    let code = match op {
        BinOp::Add => 0,
        BinOp::Sub => 1,
        BinOp::Mul => 2,
        BinOp::Div => 3,
    };
    match super::fused::bf16_binary(py, xa, &ya, code)? {
        Some(r) => wrap_result(py, r).map(Some),
        None => Ok(None),
    }
}

/// Tensor op tensor (same dtype; equal shapes or one single element).
fn tensors(
    py: Python<'_>,
    op: BinOp,
    x: &ArrayRef<'_, '_>,
    y: &ArrayRef<'_, '_>,
    alpha: Option<Num>,
) -> PyResult<Option<PyObject>> {
    if x.dt != y.dt {
        return Ok(None);
    }
    let (xs, ys, dims, len) = if x.dims() == y.dims() {
        (false, false, x.dims(), x.len)
    } else if y.len == 1 && y.dims().len() <= x.dims().len() {
        (false, true, x.dims(), x.len)
    } else if x.len == 1 && x.dims().len() <= y.dims().len() {
        (true, false, y.dims(), y.len)
    } else {
        return Ok(None);
    };
    let Some(run) = Run::of(op, len) else {
        return Ok(None);
    };
    match x.dt {
        Dt::F32 => float_op::<f32>(py, run, op, dims, operand(x, xs), operand(y, ys), alpha),
        Dt::F64 => float_op::<f64>(py, run, op, dims, operand(x, xs), operand(y, ys), alpha),
        Dt::I32 => int_op::<i32>(py, run, op, dims, operand(x, xs), operand(y, ys), alpha),
        Dt::I64 => int_op::<i64>(py, run, op, dims, operand(x, xs), operand(y, ys), alpha),
    }
}

/// Tensor op Python number.
fn with_number(
    py: Python<'_>,
    op: BinOp,
    x: &ArrayRef<'_, '_>,
    n: Num,
    alpha: Option<Num>,
) -> PyResult<Option<PyObject>> {
    // With `alpha`, the Python kernel multiplies the two Python numbers first
    // (`np.multiply(other, alpha)`, a float64 numpy scalar, which then promotes
    // the sum to float64 before the cast back): not the tensor-dtype product
    // the Rust loop would form, so such calls keep the Python kernel.
    if alpha.is_some() {
        return Ok(None);
    }
    let Some(run) = Run::of(op, x.len) else {
        return Ok(None);
    };
    let Some(f) = n.float() else {
        return Ok(None);
    };
    let dims = x.dims();
    match (x.dt, n) {
        (Dt::F32, _) => float_op::<f32>(
            py,
            run,
            op,
            dims,
            operand(x, false),
            Operand::Scalar(f as f32),
            None,
        ),
        (Dt::F64, _) => float_op::<f64>(
            py,
            run,
            op,
            dims,
            operand(x, false),
            Operand::Scalar(f),
            None,
        ),
        (Dt::I32, Num::Int(i)) => match i32::try_from(i) {
            Ok(v) => int_op::<i32>(
                py,
                run,
                op,
                dims,
                operand(x, false),
                Operand::Scalar(v),
                None,
            ),
            Err(_) => Ok(None),
        },
        (Dt::I64, Num::Int(i)) => int_op::<i64>(
            py,
            run,
            op,
            dims,
            operand(x, false),
            Operand::Scalar(i),
            None,
        ),
        // An integer tensor with a Python float: the default float dtype.
        (Dt::I32, Num::Float(_)) => int_with_float::<i32>(py, run, op, dims, operand(x, false), f),
        (Dt::I64, Num::Float(_)) => int_with_float::<i64>(py, run, op, dims, operand(x, false), f),
    }
}

/// A float result of the operands' own dtype.
#[allow(clippy::too_many_arguments)]
fn float_op<T: Float + FromF64 + Elem + Send + Sync>(
    py: Python<'_>,
    run: Run,
    op: BinOp,
    dims: &[isize],
    lhs: Operand<'_, T>,
    rhs: Operand<'_, T>,
    alpha: Option<Num>,
) -> PyResult<Option<PyObject>> {
    match alpha {
        None => produce(py, run, dims, lhs, rhs, |l, r, o: &mut [T]| {
            float_binary(op, l, r, o)
        }),
        Some(a) => match a.float() {
            Some(f) => {
                let (a, sub) = (T::from_f64(f), op == BinOp::Sub);
                produce(py, run, dims, lhs, rhs, move |l, r, o: &mut [T]| {
                    scaled(sub, l, r, a, o)
                })
            }
            None => Ok(None),
        },
    }
}

/// An integer result (add/sub/mul) or, for `div`, the default float dtype.
#[allow(clippy::too_many_arguments)]
fn int_op<I: Arith + ToFloat + TryFrom<i64> + Elem + Send + Sync>(
    py: Python<'_>,
    run: Run,
    op: BinOp,
    dims: &[isize],
    lhs: Operand<'_, I>,
    rhs: Operand<'_, I>,
    alpha: Option<Num>,
) -> PyResult<Option<PyObject>> {
    if op == BinOp::Div {
        return match default_float_is_f64(py) {
            Some(true) => produce(py, run, dims, lhs, rhs, |l, r, o: &mut [f64]| {
                divide_as(l, r, o, I::to_f64)
            }),
            Some(false) => produce(py, run, dims, lhs, rhs, |l, r, o: &mut [f32]| {
                divide_as(l, r, o, I::to_f32)
            }),
            None => Ok(None),
        };
    }
    match alpha {
        None => produce(py, run, dims, lhs, rhs, |l, r, o: &mut [I]| {
            arith(op, l, r, o)
        }),
        // `sub` is `add` with `-alpha`: torch checks that both fit (`alpha_fits`).
        Some(Num::Int(a)) if alpha_fits::<I>(op, a) => match I::try_from(a) {
            Ok(a) => {
                let sub = op == BinOp::Sub;
                produce(py, run, dims, lhs, rhs, move |l, r, o: &mut [I]| {
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
    run: Run,
    op: BinOp,
    dims: &[isize],
    lhs: Operand<'_, I>,
    f: f64,
) -> PyResult<Option<PyObject>> {
    match default_float_is_f64(py) {
        Some(true) => produce(
            py,
            run,
            dims,
            lhs,
            Operand::Scalar(f),
            |l, r, o: &mut [f64]| float_binary_from(op, l, r, o, I::to_f64),
        ),
        Some(false) => produce(
            py,
            run,
            dims,
            lhs,
            Operand::Scalar(f as f32),
            |l, r, o: &mut [f32]| float_binary_from(op, l, r, o, I::to_f32),
        ),
        None => Ok(None),
    }
}
