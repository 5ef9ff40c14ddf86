//! `_NodeApply`: the backward of the hottest built-in formulas in Rust.
//!
//! Note [Rust node apply]: a node class of the derivative table may get, as
//! its `apply`, a `_NodeApply` instead of a Python function (see Note [Direct
//! node apply] in `derivatives/registry.py`). It computes what the Python
//! formula computes, calling the same ops through the dispatcher, from the
//! node's Rust fields (`saved`, `released`, the edges):
//! - `sum` (all-reduce): `expand(g, self.shape)`; `mean` (all-reduce):
//!   `expand(g / max(numel, 1), self.shape)`;
//! - `neg`: `-g`; `clone`, `alias`, `add.Scalar`, `sub.Scalar`: `g`;
//! - `add.Tensor`/`sub.Tensor`: `g` and `(±g) * alpha` (no multiply for alpha == 1),
//!   the second only when `other` needs a gradient;
//! - `mul.Tensor`: `g * other` and `g * self`, for the inputs that need one
//!   (`mul.Tensor` also for a Python number operand, as torch's wrapped number),
//!   after unpacking both saved tensors (`SavedTensor.unpack`'s checks: a
//!   freed graph, a tensor modified in place);
//! - `mm`: `g @ mat2.t()` and `self.t() @ g`, likewise after unpacking both;
//!   `addmm`: `g * beta`, `(g @ mat2.t()) * alpha`, `(mat1.t() @ g) * alpha`;
//!   `bmm`: `bmm(g, mat2.transpose(1, 2))` and `bmm(self.transpose(1, 2), g)`;
//! - `pow.Tensor_Scalar` (an int or float exponent but 0.5): `g * (self ** (e - 1) * e)`;
//! - the views the batching rules and `matmul` make: `unsqueeze` (`g.squeeze(dim)`),
//!   `squeeze`/`squeeze.dim`/`squeeze.dims` and `view`/`reshape`/`_reshape_alias`/
//!   `_unsafe_view` (`g.reshape(self.shape)`); `mean.dim`:
//!   `g / count` unsqueezed at the reduced dims and expanded to `self.shape`;
//! - `mul.Scalar`/`div.Scalar`: `g * other` / `g / other`; `div.Tensor`
//!   when `other` needs no gradient: `div.Tensor(g, other)`;
//! - from the saved result, unpacked (and checked) first as `mul.Tensor`'s
//!   operands: `exp` `g * r`; `tanh` `g * (1 - r * r)`; `sigmoid`
//!   `g * (r * (1 - r))`; `relu` `where(r <= 0, zeros_like(g), g)`, each
//!   calling the formula's ops in its order.
//!
//! With grad mode on in backward (`create_graph=True`), or anything it does
//! not expect (a saved value that is not a plain `SavedTensor`, more than one
//! output gradient, keywords), it calls the Python `apply` it replaces, its
//! `__wrapped__`. Hooks, anomaly mode and `retain_graph` live in the engine
//! around `apply` and are unchanged. Like a function on a class, it is a
//! method descriptor: `node.apply(grads)` calls it with the node first.

pub mod api;
pub mod saved;

use crate::python::tensor::base::AsTensorBase;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple, PyType};
use smallvec::SmallVec;

use crate::dispatch::{tls, DispatchKeySet};
use crate::python::autograd::accumulate::with_plain_array;
use crate::python::autograd::node::PyNodeBase;
use crate::python::autograd::saved::slots::SlotLayout;
use crate::python::dispatch::operator::PyOpOverload;

/// Which formula a `_NodeApply` computes, and the ops it calls (in order).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    /// `expand`.
    SumAll,
    /// `div.Scalar`, `expand`.
    MeanAll,
    /// `neg`.
    Neg,
    /// The gradient itself.
    Identity,
    /// `mul.Scalar`.
    Add,
    /// `mul.Scalar`, `neg`.
    Sub,
    /// `mul.Tensor` (a Python number operand too).
    Mul,
    /// `div.Tensor`, for `self` only.
    Div,
    /// `mm`, `t`.
    Mm,
    /// `mm`, `t`, `mul.Scalar`.
    Addmm,
    /// `bmm`, `transpose.int` (`MmBackward0`'s formula over a batch of matrices).
    Bmm,
    /// `squeeze.dim` with the saved `dim` (`UnsqueezeBackward0`).
    Unsqueeze,
    /// `reshape` to the saved `self`'s shape (`SqueezeBackward0/1/2`, `ViewBackward0`,
    /// `ReshapeAliasBackward0`, `UnsafeViewBackward0`).
    ReshapeBack,
    /// `div.Scalar`, `unsqueeze`, `expand` (`MeanBackward1`, `mean.dim`).
    MeanDim,
    /// `pow.Tensor_Scalar`, `mul.Scalar`, `mul.Tensor` (`PowBackward0`).
    PowScalar,
    /// `g op other` with the saved `other`: `op.Tensor`, `op.Scalar` (mul or div).
    ByOther,
    /// From the saved result: `exp` (`mul.Tensor`, `mul.Scalar`), `tanh` and
    /// `sigmoid` (`mul.Tensor`, `rsub.Scalar`), `relu` (`where.self`, `le.Scalar`,
    /// `zeros_like`).
    Result(ResultFormula),
}

/// The formulas computed from the saved result of a unary op.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ResultFormula {
    Exp,
    Tanh,
    Sigmoid,
    Relu,
}

/// Each kind's name (as `registry.py` gives it) and how many ops it calls.
pub(crate) const KINDS: &[(&str, Kind, usize)] = &[
    ("sum", Kind::SumAll, 1),
    ("mean", Kind::MeanAll, 2),
    ("neg", Kind::Neg, 1),
    ("clone", Kind::Identity, 0),
    ("identity", Kind::Identity, 0),
    ("add", Kind::Add, 1),
    ("sub", Kind::Sub, 2),
    ("mul", Kind::Mul, 1),
    ("div", Kind::Div, 1),
    ("mm", Kind::Mm, 2),
    ("addmm", Kind::Addmm, 3),
    ("bmm", Kind::Bmm, 2),
    ("unsqueeze", Kind::Unsqueeze, 1),
    ("reshape", Kind::ReshapeBack, 1),
    ("mean_dim", Kind::MeanDim, 3),
    ("pow_scalar", Kind::PowScalar, 3),
    ("mul_scalar", Kind::ByOther, 2),
    ("div_scalar", Kind::ByOther, 2),
    ("mul_result", Kind::Result(ResultFormula::Exp), 2),
    ("tanh", Kind::Result(ResultFormula::Tanh), 2),
    ("sigmoid", Kind::Result(ResultFormula::Sigmoid), 2),
    ("relu", Kind::Result(ResultFormula::Relu), 3),
];

/// A node class's `apply` in Rust. See Note [Rust node apply].
#[pyclass(name = "_NodeApply", module = "opyard._core", frozen)]
pub struct PyNodeApply {
    pub(crate) kind: Kind,
    pub(crate) fallback: PyObject,
    pub(crate) ops: Vec<Py<PyOpOverload>>,
    pub(crate) saved_tensor: Py<PyType>,
    pub(crate) layout: Option<SlotLayout>,
}

/// Calls `op` as `op(*args)` does, without the Python-level argument extraction.
pub(crate) fn call<'py, const N: usize>(
    py: Python<'py>,
    op: &Py<PyOpOverload>,
    args: [&Bound<'py, PyAny>; N],
) -> PyResult<PyObject> {
    let args = PyTuple::new_bound(py, args);
    PyOpOverload::call_reporting(op.bind(py), &args, None, None, &mut None)
}

/// `g * b`: `mul.Tensor` for a tensor `b`, else `mul.Scalar` (the formulas' `mul`).
pub(crate) fn mul<'py>(
    ops: &[Py<PyOpOverload>],
    g: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
) -> PyResult<PyObject> {
    let op = if b.is_tensor_base() { &ops[0] } else { &ops[1] };
    call(g.py(), op, [g, b])
}

/// The sizes of a `TensorMeta` as a new list, when every size is an int (a
/// symbolic size takes the Python formula).
fn int_sizes<'py>(meta: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyList>>> {
    let shape = meta.getattr(pyo3::intern!(meta.py(), "shape"))?;
    let size = PyList::new_bound(meta.py(), shape.iter()?.collect::<PyResult<Vec<_>>>()?);
    Ok(size
        .iter()
        .all(|d| d.is_exact_instance_of::<pyo3::types::PyLong>())
        .then_some(size))
}

/// Whether `g` is a plain tensor of complex dtype, or anything but a plain
/// tensor or None (which the Python formula then handles too).
fn is_complex_grad(g: &Bound<'_, PyAny>) -> bool {
    if g.is_none() {
        return false;
    }
    with_plain_array(g, |a| a.dtype_kind() == b'c').unwrap_or(true)
}

impl PyNodeApply {
    pub(crate) fn call(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let grad_mode_off = tls::get().excluded.has_any(DispatchKeySet::AUTOGRAD_KEYS);
        if grad_mode_off && args.len() == 2 && kwargs.is_none_or(|k| k.is_empty()) {
            let node = args.get_item(0)?;
            let grads = args.get_item(1)?;
            if let (Some(node), Ok(grads)) = (
                crate::python::autograd::node::NODE_BASE.downcast(&node),
                grads.downcast::<PyList>(),
            ) {
                let g = if grads.len() == 1 {
                    Some(grads.get_item(0)?)
                } else {
                    None
                };
                // A complex gradient takes the Python formulas: they conjugate
                // (torch's Wirtinger convention), these loops do not.
                if let Some(g) = g.filter(|g| !is_complex_grad(g)) {
                    if let Some(out) = self.apply(py, node, &g)? {
                        return Ok(out);
                    }
                }
            }
        }
        self.fallback.call_bound(py, args, kwargs)
    }

    /// The gradients of the inputs, or None for the Python path.
    fn apply(
        &self,
        py: Python<'_>,
        node: &Bound<'_, PyNodeBase>,
        g: &Bound<'_, PyAny>,
    ) -> PyResult<Option<PyObject>> {
        let (released, saved, n_next) = {
            let n = node.borrow();
            let saved: SmallVec<[PyObject; 3]> = n.saved.iter().map(|o| o.clone_ref(py)).collect();
            (n.released, saved, n.next.len())
        };
        let ops = &self.ops;
        if self.kind == Kind::Addmm {
            return self.addmm(py, node, g, &saved, released);
        }
        if matches!(self.kind, Kind::Mul | Kind::Mm | Kind::Bmm) {
            return self.mul_tensor(py, node, g, &saved, released);
        }
        if self.kind == Kind::Div {
            return self.div_tensor(py, node, g, &saved, released);
        }
        if let Kind::Result(f) = self.kind {
            return self.by_result(py, f, g, &saved, released, n_next);
        }
        if self.kind == Kind::PowScalar {
            return self.pow_scalar(py, g, &saved, released, n_next);
        }
        let none = || -> PyObject {
            PyTuple::new_bound(py, (0..n_next).map(|_| py.None()))
                .into_any()
                .unbind()
        };
        if self.kind == Kind::SumAll {
            // `_sum_all_apply`: one output, whatever the edges.
            let Some(meta) = saved.first() else {
                return Ok(None);
            };
            if g.is_none() {
                return Ok(Some(
                    PyTuple::new_bound(py, [py.None()]).into_any().unbind(),
                ));
            }
            let shape = meta.bind(py).getattr(pyo3::intern!(py, "shape"))?;
            let size = match shape.downcast::<PyTuple>() {
                Ok(t) => PyList::new_bound(py, t.iter()),
                Err(_) => PyList::new_bound(py, shape.iter()?.collect::<PyResult<Vec<_>>>()?),
            };
            let out = call(py, &ops[0], [g, size.as_any()])?;
            return Ok(Some(PyTuple::new_bound(py, [out]).into_any().unbind()));
        }
        if g.is_none() {
            return Ok(Some(none()));
        }
        let grads: SmallVec<[PyObject; 2]> = match self.kind {
            Kind::Neg => smallvec::smallvec![call(py, &ops[0], [g])?],
            Kind::Identity => smallvec::smallvec![g.clone().unbind()],
            Kind::Add | Kind::Sub => {
                let Some(alpha) = saved.get(2) else {
                    return Ok(None);
                };
                let alpha = alpha.bind(py);
                // `other`'s gradient only when it needs one (`x + 2` computes none);
                // sub negates first, then scales, as torch's formula.
                let needs_other = node.borrow().next.get(1).is_some_and(|e| e.node.is_some());
                let other = if !needs_other {
                    py.None()
                } else {
                    let signed = if self.kind == Kind::Sub {
                        call(py, &ops[1], [g])?
                    } else {
                        g.clone().unbind()
                    };
                    if alpha.eq(1)? {
                        signed
                    } else {
                        call(py, &ops[0], [signed.bind(py), alpha])?
                    }
                };
                smallvec::smallvec![g.clone().unbind(), other]
            }
            Kind::ByOther => {
                let Some(other) = saved.get(1) else {
                    return Ok(None);
                };
                smallvec::smallvec![mul(ops, g, other.bind(py))?]
            }
            Kind::MeanAll => {
                let Some(meta) = saved.first() else {
                    return Ok(None);
                };
                let Some(size) = int_sizes(meta.bind(py))? else {
                    return Ok(None);
                };
                let numel: i64 = size
                    .iter()
                    .map(|d| d.extract::<i64>())
                    .product::<PyResult<i64>>()?;
                let count = numel.max(1).into_py(py).into_bound(py);
                let scaled = call(py, &ops[0], [g, &count])?;
                smallvec::smallvec![call(py, &ops[1], [scaled.bind(py), size.as_any()])?]
            }
            Kind::Unsqueeze => {
                // `squeeze.dim(g, dim)`.
                let Some(dim) = saved.get(1) else {
                    return Ok(None);
                };
                smallvec::smallvec![call(py, &ops[0], [g, dim.bind(py)])?]
            }
            Kind::ReshapeBack => {
                // `_squeeze_back`: `reshape(g, list(self.shape))`.
                let Some(meta) = saved.first() else {
                    return Ok(None);
                };
                let Some(size) = int_sizes(meta.bind(py))? else {
                    return Ok(None);
                };
                smallvec::smallvec![call(py, &ops[0], [g, size.as_any()])?]
            }
            Kind::MeanDim => {
                let Some(grad) = mean_dim(py, ops, g, &saved)? else {
                    return Ok(None);
                };
                smallvec::smallvec![grad]
            }
            Kind::SumAll
            | Kind::Mul
            | Kind::Div
            | Kind::Mm
            | Kind::Bmm
            | Kind::Addmm
            | Kind::PowScalar
            | Kind::Result(_) => {
                unreachable!("handled above")
            }
        };
        Ok(Some(PyTuple::new_bound(py, grads).into_any().unbind()))
    }
}

/// `_mean_dim` (`MeanBackward1`): `g / max(count, 1)` unsqueezed at each
/// reduced dim (sorted, when `keepdim` is false) and expanded to `self`'s
/// shape, `count` the product of the reduced sizes. None (the Python formula)
/// for a symbolic size or a `dim` that is not None, an int or a list of ints.
fn mean_dim(
    py: Python<'_>,
    ops: &[Py<PyOpOverload>],
    g: &Bound<'_, PyAny>,
    saved: &[PyObject],
) -> PyResult<Option<PyObject>> {
    let [meta, dim, keepdim, _dtype] = saved else {
        return Ok(None);
    };
    let Some(size) = int_sizes(meta.bind(py))? else {
        return Ok(None);
    };
    let shape: SmallVec<[i64; 6]> = size
        .iter()
        .map(|d| d.extract::<i64>())
        .collect::<PyResult<_>>()?;
    let Ok(keepdim) = keepdim.bind(py).extract::<bool>() else {
        return Ok(None);
    };
    let n = shape.len() as i64;
    let dim = dim.bind(py);
    // `normalize_dims`: None or [] is every dim; each dim taken modulo the rank (0 for a 0-dim self), sorted.
    let mut dims: SmallVec<[i64; 6]> = if dim.is_none() {
        (0..n).collect()
    } else if dim.is_exact_instance_of::<pyo3::types::PyLong>() {
        smallvec::smallvec![dim.extract::<i64>()?]
    } else if dim.is_instance_of::<PyList>() || dim.is_instance_of::<PyTuple>() {
        let mut out = SmallVec::new();
        for d in dim.iter()? {
            let d = d?;
            if !d.is_exact_instance_of::<pyo3::types::PyLong>() {
                return Ok(None);
            }
            out.push(d.extract::<i64>()?);
        }
        if out.is_empty() {
            (0..n).collect()
        } else {
            out
        }
    } else {
        return Ok(None);
    };
    for d in dims.iter_mut() {
        *d = if n == 0 { 0 } else { d.rem_euclid(n) };
    }
    dims.sort_unstable();
    let mut count: i64 = 1;
    for &d in &dims {
        count *= if n == 0 { 1 } else { shape[d as usize] };
    }
    let count = count.max(1).into_py(py).into_bound(py);
    let mut out = call(py, &ops[0], [g, &count])?;
    if !keepdim && n > 0 {
        for &d in &dims {
            let d = d.into_py(py).into_bound(py);
            out = call(py, &ops[1], [out.bind(py), &d])?;
        }
    }
    Ok(Some(call(py, &ops[2], [out.bind(py), size.as_any()])?))
}
