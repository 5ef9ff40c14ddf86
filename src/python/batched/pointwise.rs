//! `_BatchedPointwise`: the `Batched` kernel of a pointwise operator, in Rust.
//!
//! Note [Pointwise batching in Rust]: the pointwise family (unary ops,
//! binary and n-ary ops with broadcasting, their Scalar overloads, the
//! `*_like` factories) has one batching rule: unwrap the operands batched at
//! the innermost level to their physical tensors (batch dim 0), run the op
//! once on them, wrap the result at that level (`func/rules/pointwise.py`).
//! This kernel is that rule for the calls that need nothing else:
//! - a unary op: `self` is a batched tensor;
//! - an n-ary op: every operand batched at the innermost level has the
//!   largest logical rank among the tensor operands (so an unbatched operand
//!   broadcasts against the physical tensor exactly as it did against the
//!   logical one: it aligns on the right), and no such operand is a 0-dim
//!   tensor among operands of different dtypes (whose category would change
//!   physically: see the module note of `pointwise.py`).
//!
//! A call it does not take (rank padding, promotion of a batched 0-dim
//! operand, a tensor keyword argument or a tensor list, storage that is not
//! a numpy array) goes to `general`, the Python rule it replaces, which is
//! also the whole rule with the fast paths off. The op runs on the physical
//! operands without binding them again: their key sets and the thread's sets
//! pick the kernel (the call is bound again only when a physical operand is
//! not a plain tensor or a function mode is active, as `op(...)` would).

use crate::python::tensor::base::AsTensorBase;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use smallvec::SmallVec;

use crate::dispatch::DispatchKeySet;
use crate::python::batched::{as_batched, level_of, wrap};
use crate::python::dispatch::binder::{plain_tensor, BoundCall};
use crate::python::dispatch::operator::PyOpOverload;
use crate::python::dispatch::tls;
use crate::python::ffi::ndarray::ArrayView;
use crate::python::tensor::base::PyTensorBase;
use crate::python::tensor::slots::Field;

/// The `Batched` kernel of one pointwise op. See Note [Pointwise batching in Rust].
#[pyclass(name = "_BatchedPointwise", module = "opyard._core", frozen)]
pub struct PyBatchedPointwise {
    op: Py<PyOpOverload>,
    /// The Python rule: what this kernel does not take, and its boxed call.
    general: PyObject,
    /// `self` is the op's only tensor argument (`unary_rule`), else `pointwise_rule`.
    unary: bool,
}

/// An argument, its level when it is a batched tensor (else 0), and itself as a
/// batched or plain tensor (None for a non-tensor).
type Item<'py> = (Bound<'py, PyAny>, i64, Option<Bound<'py, PyTensorBase>>);

/// The physical call of a batched one: arguments, their key set, whether every
/// tensor among them is plain, and the level object of the result.
struct Physical<'py> {
    args: Bound<'py, PyTuple>,
    keys: DispatchKeySet,
    plain: bool,
    level: Bound<'py, PyAny>,
}

impl PyBatchedPointwise {
    /// A call from the dispatcher (`ops::invoke`), as it bound it.
    pub fn call_unboxed(&self, py: Python<'_>, call: &BoundCall<'_>) -> PyResult<PyObject> {
        let Some(phys) = self.physical(py, call)? else {
            return self
                .general
                .call_bound(py, call.args.clone(), call.kwargs.as_ref());
        };
        let op = self.op.bind(py);
        let out = if phys.plain && !tls::wants_function_protocol(false) {
            let below = BoundCall {
                args: phys.args,
                kwargs: call.kwargs.clone(),
                keys: phys.keys,
                foreign: false,
                quick: call.quick,
            };
            crate::python::dispatch::operator::dispatch(
                py,
                &op.get().op,
                Some(op),
                below,
                tls::apply(phys.keys),
            )?
        } else {
            PyOpOverload::call_reporting(op, &phys.args, call.kwargs.as_ref(), None, &mut None)?
        };
        Ok(wrap(py, out.bind(py), &phys.level)?.unbind())
    }

    /// The physical call, or None for `general`.
    fn physical<'py>(
        &self,
        py: Python<'py>,
        call: &BoundCall<'py>,
    ) -> PyResult<Option<Physical<'py>>> {
        if let Some(kw) = &call.kwargs {
            if kw.values().iter().any(|v| v.is_tensor_base()) {
                return Ok(None);
            }
        }
        let args = &call.args;
        let n = args.len();
        // (argument, its level when it is a batched tensor, the argument as a batched or plain tensor) each.
        let mut items: SmallVec<[Item<'py>; 4]> = SmallVec::with_capacity(n);
        let mut level = 0i64;
        let mut at = usize::MAX;
        for (i, a) in args.iter().enumerate() {
            let (l, tensor) = if let Some(b) = as_batched(&a) {
                (level_of(py, b.get()), Some(b.clone()))
            } else if let Some(t) = plain_tensor(&a) {
                (0, Some(t.clone()))
            } else if a.is_tensor_base() {
                // A tensor subclass among the operands: `general` (the rule calls the op).
                return Ok(None);
            } else if a.is_instance_of::<PyList>() || a.is_instance_of::<PyTuple>() {
                return Ok(None);
            } else {
                (0, None)
            };
            if l > level && (!self.unary || i == 0) {
                level = l;
                at = i;
            }
            items.push((a, l, tensor));
        }
        if level == 0 || (self.unary && at != 0) {
            return Ok(None);
        }
        if !self.unary && !self.same_rank(py, &items, level) {
            return Ok(None);
        }
        let mut keys = DispatchKeySet::EMPTY;
        let mut plain = true;
        let mut level_obj = None;
        let mut out: SmallVec<[Bound<'py, PyAny>; 4]> = SmallVec::with_capacity(n);
        for (i, (a, l, tensor)) in items.into_iter().enumerate() {
            let Some(t) = tensor else {
                out.push(a);
                continue;
            };
            let t = t.get();
            let a = if l == level {
                if i == at {
                    level_obj = t.field(py, Field::BatchLevel);
                }
                match t.field(py, Field::BatchValue) {
                    Some(v) => v,
                    None => return Ok(None),
                }
            } else {
                keys = keys | DispatchKeySet::from_raw(t.keys());
                out.push(a);
                continue;
            };
            match plain_tensor(&a) {
                Some(v) => keys = keys | DispatchKeySet::from_raw(v.get().keys()),
                None => {
                    plain = false;
                    if let Some(v) = a.as_tensor_base() {
                        keys = keys | DispatchKeySet::from_raw(v.get().keys());
                    }
                }
            }
            out.push(a);
        }
        let Some(level) = level_obj else {
            return Ok(None);
        };
        Ok(Some(Physical {
            args: PyTuple::new_bound(py, out),
            keys,
            plain,
            level,
        }))
    }

    /// Whether the n-ary rule needs no rank padding and no promotion of a
    /// batched 0-dim operand (See Note [Pointwise batching in Rust]).
    fn same_rank(&self, py: Python<'_>, items: &[Item<'_>], level: i64) -> bool {
        let mut datas: SmallVec<[(Bound<'_, PyAny>, i64); 4]> = SmallVec::new();
        for (_, l, tensor) in items {
            let Some(t) = tensor else {
                continue;
            };
            let Some(data) = t.get().data(py) else {
                return false;
            };
            datas.push((data, *l));
        }
        let mut views: SmallVec<[(ArrayView<'_>, i64); 4]> = SmallVec::new();
        for (d, l) in &datas {
            let Some(v) = ArrayView::of(d) else {
                return false;
            };
            views.push((v, *l));
        }
        let rank = views.iter().map(|(v, _)| v.dims().len()).max().unwrap_or(0);
        let one_dtype = views.windows(2).all(|w| w[0].0.same_descr(&w[1].0));
        views
            .iter()
            .filter(|(_, l)| *l == level)
            .all(|(v, _)| v.dims().len() == rank && (rank > 0 || one_dtype))
    }
}

#[pymethods]
impl PyBatchedPointwise {
    #[new]
    #[pyo3(signature = (op, general, *, unary))]
    fn new(op: Py<PyOpOverload>, general: PyObject, unary: bool) -> Self {
        PyBatchedPointwise { op, general, unary }
    }

    /// The boxed call (the kernel called as a function): the Python rule.
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        self.general.call_bound(py, args.clone(), kwargs)
    }

    /// The Python rule this kernel runs for the calls it does not take.
    #[getter]
    fn __wrapped__(&self, py: Python<'_>) -> PyObject {
        self.general.clone_ref(py)
    }

    #[getter]
    fn __name__(&self, py: Python<'_>) -> PyResult<PyObject> {
        self.general.getattr(py, pyo3::intern!(py, "__name__"))
    }

    #[getter]
    fn __qualname__(&self, py: Python<'_>) -> PyResult<PyObject> {
        self.general.getattr(py, pyo3::intern!(py, "__qualname__"))
    }
}
