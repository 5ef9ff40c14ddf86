//! The engine's `AccumulateGrad` for a leaf without hooks, and the checks of
//! the gradient that reaches it, read from plain tensors' array headers.
//!
//! Note [Plain tensors at the sink]: the gradient arriving at a leaf is
//! checked against the leaf's shape and, to accumulate without a cast,
//! its dtype. `tensor_fields` reads both as attributes, since a subclass may
//! override them; for two exact `opyard.Tensor`s holding numpy arrays the
//! answer is in the array headers (Note [ndarray header]) and costs no
//! attribute lookup, no `Size` and no `__eq__` call. Anything else takes the
//! attribute path, so the result is the same either way.
//!
//! Note [Accumulation without the call machinery]: adding into an existing
//! `.grad` is one `add_.Tensor` call, and for two plain CPU tensors binding
//! its arguments, the dispatch and the kernel's own argument parsing cost
//! several times the addition (the first write, which steals or clones the
//! gradient, costs none of it). So the sink asks what the dispatcher would
//! run (`kernels_py::add_into_existing`: no `__torch_function__` mode, the
//! kernel at the highest key is the built-in Rust one) and runs the kernel's
//! in-place update itself; every other call goes through the dispatcher as
//! before, so modes, subclasses and user kernels still see `add_`.

use pyo3::intern;
use pyo3::prelude::*;

use pyo3::types::PyTuple;

use crate::dispatch::{tls, DispatchKeySet};
use crate::python::dispatch::operator::PyOpOverload;
use crate::python::ffi::ndarray::ArrayView;
use crate::python::hooks::{fast_paths, installed};
use crate::python::kernels_py::add_into_existing;

use crate::python::tensor::fields as tensor_fields;

/// Runs `f` on `t`'s array header when `t` is an exact `opyard.Tensor`
/// holding a numpy array.
pub fn with_plain_array<R>(t: &Bound<'_, PyAny>, f: impl FnOnce(ArrayView<'_>) -> R) -> Option<R> {
    let py = t.py();
    let data = installed(py)?.tensor.downcast_exact(t)?.get().data(py)?;
    ArrayView::of(&data).map(f)
}

/// Whether `a` and `b` have the same sizes, when both are plain tensors
/// (`None`: ask their `shape` attributes).
pub fn same_plain_shape(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> Option<bool> {
    with_plain_array(a, |va| with_plain_array(b, |vb| va.dims() == vb.dims()))?
}

/// Whether `a` and `b` have the same dtype object, when both are plain
/// tensors whose arrays share one numpy dtype object (`None`: compare
/// their `dtype` attributes; equal numpy dtypes may be distinct objects).
pub fn same_plain_dtype(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> Option<bool> {
    let same = with_plain_array(a, |va| with_plain_array(b, |vb| va.same_descr(&vb)))??;
    same.then_some(true)
}

/// Calls operator `op` (an `OpOverload`, through the dispatcher as from
/// Python) with positional `args`, without the `tp_call` round trip; any
/// other callable is called as usual.
pub fn call_op<'py>(
    op: &Bound<'py, PyAny>,
    args: impl IntoPy<Py<PyTuple>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = op.py();
    match op.downcast::<PyOpOverload>() {
        Ok(o) => {
            let args = args.into_py(py).into_bound(py);
            PyOpOverload::call_reporting(o, &args, None, None, &mut None).map(|r| r.into_bound(py))
        }
        Err(_) => op.call1(args),
    }
}

/// `AccumulateGrad` without hooks: torch's accumulation rules for the plain
/// case (same dtype, no create_graph), with `add_inplace`
/// (`aten::add_.Tensor`) into an existing `.grad`; everything else goes to
/// Python's `accumulate` (`_tensor_meta.accumulate_grad`).
pub fn accumulate(
    var: &Bound<'_, PyAny>,
    g: PyObject,
    add_inplace: &PyObject,
    general: &PyObject,
) -> PyResult<()> {
    let py = var.py();
    let plain = tls::get().excluded.has_any(DispatchKeySet::AUTOGRAD_KEYS)
        && match same_plain_dtype(g.bind(py), var) {
            Some(same) => same,
            None => tensor_fields::dtype(g.bind(py))?.is(&tensor_fields::dtype(var)?),
        };
    if !plain {
        general.call1(py, (var, g))?;
        return Ok(());
    }
    match tensor_fields::grad(var)? {
        Some(cur) => {
            // The Rust kernel of `add_.Tensor` directly when the dispatcher
            // would run it (Note [Accumulation without the call machinery]).
            let op = add_inplace.bind(py);
            let done = match op.downcast::<PyOpOverload>() {
                Ok(o) if fast_paths() => add_into_existing(o, &cur, g.bind(py))?,
                _ => false,
            };
            if !done {
                call_op(op, (cur, g))?;
            }
        }
        None => {
            // Steal the gradient when nothing else can see it (torch: use_count
            // check): this function holds the only reference. Views (e.g. an
            // expanded ones) are copied so that .grad owns its memory.
            let fresh = g.get_refcnt(py) == 1 && !tensor_fields::is_view(g.bind(py))?;
            let g = if fresh {
                g
            } else {
                g.call_method0(py, intern!(py, "clone"))?
            };
            tensor_fields::set_grad(var, g)?;
        }
    }
    Ok(())
}
