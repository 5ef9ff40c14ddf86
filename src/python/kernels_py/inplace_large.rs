//! The large-input branch of the `add_`/`sub_`/`mul_` fast path (`inplace.rs`): from
//! `binary_large::POOL_MIN` elements, with more than one intra-op thread, a contiguous
//! same-dtype operand of `self`'s shape (or one element) is applied on the pool with
//! the GIL released (Note [Large binary on the pool]); the values are the small path's
//! loops', which are numpy's. Strided operands and everything else keep the Python
//! kernel.

use super::binary_large::POOL_MIN;
use super::inplace::alpha_as;
use super::scalars::{FromNum, Num};
use crate::kernels::elementwise::{inplace_on_pool, BinOp, Operand};
use crate::kernels::parallel::num_threads;
use crate::kernels::Arith;
use crate::python::ffi::numpy::{ArrayRef, Dt, Elem};
use crate::python::tensor::base::PyTensorBase;
use pyo3::prelude::*;

/// `self op= other` for a large writeable contiguous `x` (`self`'s array), or `None`
/// (nothing written) for the Python kernel.
pub(super) fn update_pair(
    py: Python<'_>,
    op: BinOp,
    self_obj: &Bound<'_, PyAny>,
    state: &PyTensorBase,
    x: &ArrayRef<'_, '_>,
    ya: &Bound<'_, PyAny>,
    alpha: Option<Num>,
) -> PyResult<Option<PyObject>> {
    if x.len < POOL_MIN || num_threads() <= 1 {
        return Ok(None);
    }
    let Some(y) = ArrayRef::read(ya) else {
        return Ok(None);
    };
    let single = y.dims() != x.dims();
    let fits = x.dt == y.dt && (!single || (y.len == 1 && y.dims().len() <= x.dims().len()));
    if !fits || x.overlaps(&y) {
        return Ok(None);
    }
    let done = match x.dt {
        Dt::F32 => update::<f32>(py, op, x, &y, single, alpha),
        Dt::F64 => update::<f64>(py, op, x, &y, single, alpha),
        Dt::I32 => update::<i32>(py, op, x, &y, single, alpha),
        Dt::I64 => update::<i64>(py, op, x, &y, single, alpha),
    };
    if !done {
        return Ok(None);
    }
    state.bump_version(py)?;
    Ok(Some(self_obj.clone().unbind()))
}

/// Update `x` from `y` on the pool; `false` (nothing written) when `alpha` does not
/// fit `T`, `x` is read-only or shares memory with `y`.
fn update<T: Arith + FromNum + Elem + Send + Sync>(
    py: Python<'_>,
    op: BinOp,
    x: &ArrayRef<'_, '_>,
    y: &ArrayRef<'_, '_>,
    single: bool,
    alpha: Option<Num>,
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
        py.allow_threads(|| inplace_on_pool(op, out, rhs, alpha))
    })
    .is_some()
}
