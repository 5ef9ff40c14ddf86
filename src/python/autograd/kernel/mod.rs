//! `_PlainAutogradKernel`: the `Autograd` kernel of a built-in op, in Rust.
//!
//! Note [Autograd kernel in Rust]: every built-in op with a derivative
//! formula and no `Tensor[]` differentiable argument and no mutation
//! (`derivatives/registry.py`'s "plain" ops: `x * 2`, `x.sum()`, `a + b`,
//! `x.clone()`, and the views `x.view(-1)`, `x[0]`, `x.t()`, ...) gets this
//! kernel at its `Autograd` key; a view op's also records how the view is
//! replayed from its base (Note [View replay] in `autograd/view_replay.rs`). It is
//! made once per op, when the op is first differentiated, with everything
//! that does not change between calls: the differentiable positions, the
//! defaults of trailing arguments, what to save of each argument (its value,
//! its shape/dtype stand-in, or the tensor itself), the node class, whether
//! the result is saved, and the op to run below autograd. A call
//! 1. fills in the defaults the dispatcher left out (and keyword-only
//!    arguments by name);
//! 2. builds the edges of the differentiable tensors that require grad from
//!    their `TensorBase` fields (`grad_fn`/`output_nr`, or the leaf's
//!    cached `AccumulateGrad`);
//! 3. runs the op with the autograd keys excluded on this thread (what
//!    `_no_grad_guard()` does), restored on every exit;
//! 4. records one node: the saved values (Note [Saved values from Rust]),
//!    the edges, and the output's history (as `_record_node`; `autograd/kernel/output.rs`).
//!
//! It takes the Python kernel it replaces, `general`, for what it does not
//! handle: a forward-AD level is active (a process-wide flag that
//! `forward_ad` keeps, see `function::forward_ad_active`), a keyword it
//! cannot place, more arguments than the schema has. An output that is not
//! one tensor is recorded by the Python `record` callable. The dispatcher
//! calls it like a kernel with the key set first; its `tp_call` is raw (see
//! Note [Packet call slots]) and `ops::invoke` calls it without the key-set
//! object and argument tuple the boxed convention builds.

pub mod api;
pub mod output;

use crate::python::tensor::base::AsTensorBase;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use smallvec::SmallVec;

use crate::dispatch::tls::{self as key_tls, LocalKeySets};
use crate::dispatch::DispatchKeySet;
use crate::python::autograd::kernel::api::Save;
use crate::python::autograd::node::{as_node, Edges, NodeEdge, PyNodeBase, SavedValues};
use crate::python::autograd::record::_grad_accumulator;
use crate::python::autograd::saved::SavedMakers;
use crate::python::dispatch::binder::BoundCall;
use crate::python::dispatch::keys::PyDispatchKeySet;
use crate::python::dispatch::operator::PyOpOverload;
use crate::python::dispatch::tls;
use crate::python::tensor::fields as tensor_fields;

/// The autograd keys excluded on this thread while alive (`_no_grad_guard()`),
/// the previous sets restored on drop, also when the op raised or panicked.
struct BelowAutograd(LocalKeySets);

impl BelowAutograd {
    fn enter() -> Self {
        let cur = key_tls::get();
        key_tls::replace(LocalKeySets {
            included: cur.included - DispatchKeySet::AUTOGRAD_KEYS,
            excluded: cur.excluded | DispatchKeySet::AUTOGRAD_KEYS,
        });
        BelowAutograd(cur)
    }
}

impl Drop for BelowAutograd {
    fn drop(&mut self) {
        key_tls::replace(self.0);
    }
}

/// The Autograd kernel of one plain built-in op. See Note [Autograd kernel in Rust].
#[pyclass(name = "_PlainAutogradKernel", module = "opyard._core", frozen)]
pub struct PyPlainAutogradKernel {
    pub(crate) op: Py<PyOpOverload>,
    pub(crate) general: PyObject,
    pub(crate) record: PyObject,
    pub(crate) node_cls: crate::python::ffi::type_slots::SubclassOf<PyNodeBase>,
    pub(crate) diff_pos: SmallVec<[usize; 2]>,
    pub(crate) saves: Vec<Save>,
    pub(crate) defaults: Vec<PyObject>,
    pub(crate) names: Vec<Py<PyString>>,
    pub(crate) result_name: Option<PyObject>,
    pub(crate) makers: SavedMakers,
    pub(crate) name: Py<PyString>,
    pub(crate) mask: u64,
    /// `node_cls` has `NodeBase`'s `__new__` and `object.__init__`: see `new_node`.
    pub(crate) direct_node: bool,
    /// The op returns a view of its first argument: record the view's replay
    /// (Note [View replay] in `autograd/view_replay.rs`).
    pub(crate) view: bool,
    /// The op modifies its first argument in place and returns it
    /// (Note [In-place ops in the Rust kernel]).
    pub(crate) inplace: bool,
    /// A complex result is differentiable (Note [Complex outputs] in
    /// `autograd/kernel/output.rs`).
    pub(crate) complex: bool,
    /// The op's result test (Note [Checked results]) for the call below autograd.
    pub(crate) quick: crate::python::dispatch::binder::Quick,
}

type Values<'py> = SmallVec<[Bound<'py, PyAny>; 4]>;

impl PyPlainAutogradKernel {
    /// A call without the key set (`ops::invoke`): `call` as the dispatcher bound
    /// it, `keys` (its key set after the thread's sets) only for `general`.
    pub fn call_unboxed(
        &self,
        py: Python<'_>,
        call: &BoundCall<'_>,
        keys: DispatchKeySet,
    ) -> PyResult<PyObject> {
        let (args, kwargs) = (&call.args, call.kwargs.as_ref());
        match self.fill(py, args, kwargs)? {
            Some(values) if self.takes(py, &values) => {
                self.run(py, args, kwargs, &values, Some((call.keys, call.foreign)))
            }
            _ => {
                let mut all: Vec<PyObject> = Vec::with_capacity(args.len() + 1);
                all.push(Py::new(py, PyDispatchKeySet(keys))?.into_any());
                all.extend(args.iter().map(Bound::unbind));
                self.general
                    .call_bound(py, PyTuple::new_bound(py, all), kwargs)
            }
        }
    }

    /// The boxed call: `(keyset, *args, **kwargs)`.
    pub(crate) fn call(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        if args.is_empty() {
            return Err(PyTypeError::new_err(format!(
                "{}: an Autograd kernel is called with the dispatch key set first",
                self.name.bind(py)
            )));
        }
        let rest = args.get_slice(1, args.len());
        match self.fill(py, &rest, kwargs)? {
            Some(values) if self.takes(py, &values) => self.run(py, &rest, kwargs, &values, None),
            _ => self.general.call_bound(py, args, kwargs),
        }
    }

    /// The full argument list in schema order, or None for `general`.
    fn fill<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Option<Values<'py>>> {
        let n = args.len();
        if n > self.defaults.len() {
            return Ok(None);
        }
        let mut values: Values<'py> = args.iter().collect();
        values.extend(self.defaults[n..].iter().map(|d| d.bind(py).clone()));
        if let Some(kw) = kwargs {
            for (k, v) in kw.iter() {
                let mut at = None;
                for (i, name) in self.names.iter().enumerate() {
                    if name.as_ptr() == k.as_ptr() || name.bind(py).as_any().eq(&k)? {
                        at = Some(i);
                        break;
                    }
                }
                match at {
                    Some(i) if i >= n => values[i] = v,
                    _ => return Ok(None),
                }
            }
        }
        Ok(Some(values))
    }

    /// Whether this kernel records the call (else `general` does): no forward-AD
    /// level, and for an in-place op a tensor whose history is simply replaced.
    ///
    /// Note [In-place ops in the Rust kernel]: an op that modifies `self` in
    /// place and returns it (`add_`, `mul_`, ...; `registry.py` hands over only
    /// those whose formula needs no copy of `self` from before the change)
    /// records here when `self` is not a view (no `CopySlices`, no custom
    /// Function view check), is not a leaf that requires grad (the error
    /// `check_inplace` raises) and does not retain its grad (whose hook moves to
    /// the new node): then torch's `check_inplace` passes and
    /// `rebase_history` is `set_history`, what `ag_output::attach` does. Every
    /// other case runs `general`, which checks, raises and rebases.
    fn takes(&self, py: Python<'_>, values: &Values<'_>) -> bool {
        if crate::python::autograd::function::forward_ad_active() {
            return false;
        }
        if !self.inplace {
            return true;
        }
        let Some(t) = values.first().and_then(|v| v.as_tensor_base()) else {
            return false;
        };
        let t = t.get();
        let leaf_requiring = t.grad_fn(py).is_none() && t.keys() & self.mask != 0;
        t.base(py).is_none() && !t.retains_grad() && !leaf_requiring
    }

    /// `bound`: the argument key set and subclass flag of the dispatcher's binding
    /// of these very arguments, when this call comes from it.
    fn run(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
        values: &Values<'_>,
        bound: Option<(DispatchKeySet, bool)>,
    ) -> PyResult<PyObject> {
        let mut edges: Edges = SmallVec::new();
        let mut any_grad = false;
        for &p in &self.diff_pos {
            let v = &values[p];
            let requires = v
                .as_tensor_base()
                .is_some_and(|t| t.get().keys() & self.mask != 0);
            edges.push(if requires {
                any_grad = true;
                match tensor_fields::grad_fn(v)? {
                    Some(f) => NodeEdge {
                        nr: tensor_fields::output_nr(v)?,
                        node: Some(f.unbind()),
                    },
                    None => NodeEdge {
                        node: _grad_accumulator(v)?.map(Bound::unbind),
                        nr: 0,
                    },
                }
            } else {
                NodeEdge { node: None, nr: 0 }
            });
        }
        let out = {
            let _below = BelowAutograd::enter();
            self.call_below(py, args, kwargs, bound)?
        };
        if any_grad {
            self.record(py, out.bind(py), values, edges)?;
            if self.view {
                crate::python::autograd::view_replay::record(
                    py,
                    self.op.bind(py),
                    out.bind(py),
                    args,
                    kwargs,
                )?;
            }
        }
        Ok(out)
    }

    /// One node for `out` (See Note [Autograd kernel in Rust], step 4).
    fn record(
        &self,
        py: Python<'_>,
        out: &Bound<'_, PyAny>,
        values: &Values<'_>,
        edges: Edges,
    ) -> PyResult<()> {
        if !out.is_tensor_base() {
            let pairs = edges.iter().map(|e| {
                let node = e
                    .node
                    .as_ref()
                    .map_or_else(|| py.None(), |n| n.clone_ref(py));
                (node, e.nr)
            });
            let edges = PyList::new_bound(py, pairs.collect::<Vec<_>>());
            let values = PyList::new_bound(py, values.iter());
            self.record.call1(py, (out, values, edges))?;
            return Ok(());
        }
        let mut saved: SavedValues =
            SmallVec::with_capacity(self.saves.len() + usize::from(self.result_name.is_some()));
        for (v, kind) in values.iter().zip(&self.saves) {
            let kind = match *kind {
                Save::TensorIf(k) if edges[k].node.is_none() => Save::Meta,
                Save::TensorIf(_) => Save::Tensor,
                other => other,
            };
            saved.push(match kind {
                // None, and a Python number in a Tensor argument (`x * 2` calls
                // `mul.Tensor`; Note [Numbers as tensors] in dispatch/binder/mod.rs).
                _ if v.is_none() || !v.is_tensor_base() => v.clone().unbind(),
                Save::Value => v.clone().unbind(),
                Save::Meta => self.makers.meta(v)?.unbind(),
                Save::Tensor | Save::TensorIf(_) => self.makers.saved(v, None)?.unbind(),
            });
        }
        if let Some(name) = &self.result_name {
            saved.push(self.makers.saved(out, Some(name.bind(py)))?.unbind());
        }
        let obj = self.new_node(py)?;
        let node = as_node(&obj)?;
        {
            let mut n = node.borrow_mut();
            // A fresh node: nothing is replaced, so nothing is dropped under the borrow.
            n.next = edges;
            n.saved = saved;
            n.has_saved = true;
        }
        crate::python::autograd::kernel::output::attach(node, out, self.complex)
    }
}

impl PyPlainAutogradKernel {
    /// The op called again with the autograd keys excluded: what `op(*args, **kwargs)`
    /// does. Arguments the dispatcher bound for this call are not bound again: its
    /// argument key set, with the thread's sets applied now, picks the kernel (the
    /// function protocol, when it would be consulted, takes the full call).
    fn call_below(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
        bound: Option<(DispatchKeySet, bool)>,
    ) -> PyResult<PyObject> {
        let op = self.op.bind(py);
        match bound {
            Some((keys, foreign)) if !tls::wants_function_protocol(foreign) => {
                let call = BoundCall {
                    args: args.clone(),
                    kwargs: kwargs.cloned(),
                    keys,
                    foreign,
                    quick: self.quick,
                };
                crate::python::dispatch::operator::dispatch(
                    py,
                    &op.get().op,
                    Some(op),
                    call,
                    tls::apply(keys),
                )
            }
            _ => PyOpOverload::call_reporting(op, args, kwargs, None, &mut None),
        }
    }

    /// A new `node_cls()`: allocated directly when the class adds no `__new__`
    /// or `__init__` of its own (a formula's node class), else called.
    fn new_node<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if !self.direct_node {
            return self.node_cls.bind(py).call0();
        }
        Ok(self
            .node_cls
            .new_instance(py, PyNodeBase::empty())?
            .into_any())
    }
}

crate::python::ffi::call_slot::raw_call_slot!(
    /// Points the type's `tp_call` at the raw body (See Note [Packet call slots]).
    install_call_slot, PyPlainAutogradKernel, method_descriptor = false,
    |py, slf, args, kwargs| slf.get().call(py, args, kwargs));
