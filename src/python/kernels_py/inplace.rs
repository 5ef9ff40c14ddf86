//! The fast path of `add_`, `sub_` and `mul_` with a tensor operand (the
//! gradient accumulation `grad.add_(g)`, an optimizer's `p.add_(g, alpha=-lr)`)
//! or a Python number (`p.mul_(0.9)`, without `alpha`):
//! a plain, writeable, contiguous CPU tensor updated in place by a same-dtype
//! tensor of its shape (or a single element), its version counter bumped, as
//! the Python kernels do. The operand may be a strided view (an expanded
//! gradient with zero strides, a transpose, negative strides), read through
//! its strides. Aliasing operands, broadcasting `self`, another
//! dtype or a float `alpha` on integers run the Python kernel.
//!
//! From `binary::POOL_MIN` elements with more than one intra-op thread, a
//! contiguous operand is applied on the intra-op team with the GIL released
//! (Note [Large binary on the pool], `binary.rs`), with the same loops; a strided
//! one, and sizes between `MAX_FAST_LEN` and `POOL_MIN`, keep the Python kernel.

use super::binary::{MAX_FAST_LEN, POOL_MIN};
use super::scalars::{alpha_arg, alpha_fits, FromNum, Num};
use super::tensor_io::{plain_cpu_tensor, tensor_array};
use crate::kernels::elementwise::{inplace_on_pool, update_in_place, BinOp, Operand};
use crate::kernels::parallel::num_threads;
use crate::kernels::strided::arith_inplace_strided;
use crate::kernels::Arith;
use crate::python::ffi::numpy::{ArrayRef, Dt, Elem};
use crate::python::ffi::numpy_strided::StridedRef;
use crate::python::tensor::base::PyTensorBase;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// `self op= other` (with `alpha` for add/sub), or `None` to run the Python kernel.
pub fn inplace(
    py: Python<'_>,
    op: BinOp,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Option<PyObject>> {
    let alpha = match (args.len(), kwargs.map_or(0, |k| k.len())) {
        (2, 0) => None,
        (2, 1) if op != BinOp::Mul => match kwargs.unwrap().get_item("alpha")? {
            Some(a) => Some(a),
            None => return Ok(None),
        },
        _ => return Ok(None),
    };
    let Ok(alpha) = alpha_arg(alpha) else {
        return Ok(None);
    };
    update_pair(py, op, &args.get_item(0)?, &args.get_item(1)?, alpha)
}

/// `self_obj op= other` (times `alpha` for add/sub) for two plain CPU
/// tensors, or `None` (nothing written) for the Python kernel's cases.
pub fn update_pair(
    py: Python<'_>,
    op: BinOp,
    self_obj: &Bound<'_, PyAny>,
    other: &Bound<'_, PyAny>,
    alpha: Option<Num>,
) -> PyResult<Option<PyObject>> {
    let Some(state) = plain_cpu_tensor(self_obj) else {
        return Ok(None);
    };
    let Some(xa) = state.data(py) else {
        return Ok(None);
    };
    let Some(ya) = tensor_array(other) else {
        return match Num::read(other) {
            Some(n) if alpha.is_none() => by_number(py, op, self_obj, state, &xa, n),
            _ => Ok(None),
        };
    };
    let Some(x) = ArrayRef::read(&xa) else {
        return Ok(None);
    };
    if !x.writeable() {
        return Ok(None);
    }
    let pooled = if x.len <= MAX_FAST_LEN {
        false
    } else if x.len >= POOL_MIN && num_threads() > 1 {
        true
    } else {
        return Ok(None);
    };
    let Some(y) = ArrayRef::read(&ya) else {
        if pooled {
            return Ok(None);
        }
        return strided(py, op, self_obj, state, &x, &ya, alpha);
    };
    let single = y.dims() != x.dims();
    let fits = x.dt == y.dt && (!single || (y.len == 1 && y.dims().len() <= x.dims().len()));
    if !fits || x.overlaps(&y) {
        return Ok(None);
    }
    // Each arm's type is `x.dt == y.dt`; `update` checks writeability and overlap.
    let done = match x.dt {
        Dt::F32 => update::<f32>(py, op, &x, &y, single, alpha, pooled),
        Dt::F64 => update::<f64>(py, op, &x, &y, single, alpha, pooled),
        Dt::I32 => update::<i32>(py, op, &x, &y, single, alpha, pooled),
        Dt::I64 => update::<i64>(py, op, &x, &y, single, alpha, pooled),
    };
    if !done {
        return Ok(None);
    }
    state.bump_version(py)?;
    Ok(Some(self_obj.clone().unbind()))
}

/// `self op= n` for a Python number `n` that the tensor's dtype takes as it is
/// (`u.add_(1)`, `p.mul_(0.9)`: numpy's weak scalar, converted once), on a small
/// array; `None` to run the Python kernel (a float on an integer tensor, which it
/// refuses, an int beyond the dtype, a large or read-only array).
fn by_number(
    py: Python<'_>,
    op: BinOp,
    self_obj: &Bound<'_, PyAny>,
    state: &PyTensorBase,
    xa: &Bound<'_, PyAny>,
    n: Num,
) -> PyResult<Option<PyObject>> {
    let Some(x) = ArrayRef::read(xa) else {
        return Ok(None);
    };
    if x.len > MAX_FAST_LEN {
        return Ok(None);
    }
    // Each arm's type is `x.dt`; `update_by` checks writeability.
    let done = match x.dt {
        Dt::F32 => update_by::<f32>(op, &x, n),
        Dt::F64 => update_by::<f64>(op, &x, n),
        Dt::I32 => update_by::<i32>(op, &x, n),
        Dt::I64 => update_by::<i64>(op, &x, n),
    };
    if !done {
        return Ok(None);
    }
    state.bump_version(py)?;
    Ok(Some(self_obj.clone().unbind()))
}

/// Update `x` in place by the number `n` in `T`; `false` (nothing written) when `n`
/// is not a `T` as it is or `x` is read-only.
fn update_by<T: Arith + FromNum + Elem>(op: BinOp, x: &ArrayRef<'_, '_>, n: Num) -> bool {
    let Some(c) = T::from_num(n) else {
        return false;
    };
    x.update_alone::<T, _>(|out| update_in_place(op, out, Operand::Scalar(c), None))
        .is_some()
}

/// `self op= other` with `other` a view of `self`'s shape and dtype and any
/// strides (the gradient `SumBackward0` expands, a transpose), read through
/// its strides; `None` to run the Python kernel (another shape or dtype, an
/// operand touching `self`'s memory, `alpha` not fitting the dtype).
fn strided(
    py: Python<'_>,
    op: BinOp,
    self_obj: &Bound<'_, PyAny>,
    state: &PyTensorBase,
    x: &ArrayRef<'_, '_>,
    ya: &Bound<'_, PyAny>,
    alpha: Option<Num>,
) -> PyResult<Option<PyObject>> {
    let Some(y) = StridedRef::read(ya) else {
        return Ok(None);
    };
    let same_shape = y.dims().len() == x.dims().len()
        && y.dims()
            .iter()
            .zip(x.dims())
            .all(|(&a, &b)| a as isize == b);
    if y.dt != x.dt || !same_shape || y.touches(x.byte_range()) {
        return Ok(None);
    }
    // Each arm's type is `x.dt == y.dt`; `update_strided` checks writeability and overlap.
    let done = match x.dt {
        Dt::F32 => update_strided::<f32>(op, x, &y, alpha),
        Dt::F64 => update_strided::<f64>(op, x, &y, alpha),
        Dt::I32 => update_strided::<i32>(op, x, &y, alpha),
        Dt::I64 => update_strided::<i64>(op, x, &y, alpha),
    };
    if !done {
        return Ok(None);
    }
    state.bump_version(py)?;
    Ok(Some(self_obj.clone().unbind()))
}

/// Update `x` in place from strided `y`; `false` (nothing written) when
/// `alpha` does not fit `T`, `x` is read-only or `y` reaches `x`'s memory.
fn update_strided<T: Arith + FromNum + Elem>(
    op: BinOp,
    x: &ArrayRef<'_, '_>,
    y: &StridedRef<'_, '_>,
    alpha: Option<Num>,
) -> bool {
    let Some(alpha) = alpha_as::<T>(op, alpha) else {
        return false;
    };
    x.update_strided::<T, _>(y, |out, ys| arith_inplace_strided(op, out, ys, alpha))
        .is_some()
}

/// Update `x` in place (`pooled`: on the intra-op team, the GIL released); `false`
/// (nothing written) when `alpha` does not fit `T`, `x` is read-only or shares memory
/// with `y`. `x ± alpha * y` rounds (or wraps) the product in `T` first, as the Python
/// kernel's `np.multiply` then `np.add` (see `elementwise::scaled`).
fn update<T: Arith + FromNum + Elem + Send + Sync>(
    py: Python<'_>,
    op: BinOp,
    x: &ArrayRef<'_, '_>,
    y: &ArrayRef<'_, '_>,
    single: bool,
    alpha: Option<Num>,
    pooled: bool,
) -> bool {
    let Some(alpha) = alpha_as::<T>(op, alpha) else {
        return false;
    };
    x.update::<T, _>(y, |out, ys| {
        let rhs = if single {
            Operand::Scalar(ys[0])
        } else {
            Operand::Slice(ys)
        };
        if pooled {
            py.allow_threads(|| inplace_on_pool(op, out, rhs, alpha))
        } else {
            update_in_place(op, out, rhs, alpha)
        }
    })
    .is_some()
}

/// `alpha` in `T` for `self op= alpha * other`: `Some(None)` without one, `None` when it
/// does not fit `T` (the Python kernel then raises or converts).
fn alpha_as<T: FromNum>(op: BinOp, alpha: Option<Num>) -> Option<Option<T>> {
    match alpha {
        None => Some(None),
        // `sub_` is `add_` with `-alpha`: torch checks that both fit (`alpha_fits`).
        Some(Num::Int(i))
            if !alpha_fits::<i64>(op, i)
                || (op == BinOp::Sub && T::from_num(Num::Int(-i)).is_none()) =>
        {
            None
        }
        Some(a) => T::from_num(a).map(Some),
    }
}
