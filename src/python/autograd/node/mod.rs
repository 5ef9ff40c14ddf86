//! `NodeBase`: the Rust part of every autograd graph node.
//!
//! Note [Rust graph nodes]: a node's graph facts live in Rust fields, not in
//! a per-node `__dict__`: the edges towards the forward call's inputs, the
//! sequence number, the shapes of the forward outputs (to check and
//! materialize gradients), the `released` flag, the saved values and the
//! hook slots. The engine (`autograd/engine.rs`) reads them without a Python
//! attribute lookup, and a node costs one small GC-tracked object instead of
//! an object, a dict and a handful of tuples and lists. The Python node
//! kinds (`opyard.autograd.graph.Node` and its subclasses: derivative
//! formulas, `Function`'s `<Name>Backward`, `AccumulateGrad`, ...) subclass
//! this class and add behaviour (`apply`, `name`, hooks API); their instance
//! dict is created only when something sets an attribute that is not a
//! field here (e.g. a user's `ctx.constant = 3`).
//!
//! Python sees the fields under the names the Python graph always used:
//! `next_functions`, `_sequence_nr`, `_out_shapes`, `_released`, `_hooked`,
//! `_saved`, `_pre_hooks`, `_post_hooks`, `_tensor_pre_hooks`,
//! `_retains_grad_hooks_`, `metadata_dict`.
//!
//! See Note [No foreign code under a lock]: setters swap a value out of the
//! borrowed node and drop the old one after the borrow ends (a drop may run
//! a finalizer that reads this node).

pub mod ctx;
pub mod extras;
pub mod shapes;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use pyo3::{PyTraverseError, PyVisit};
use smallvec::SmallVec;

pub use crate::python::autograd::node::extras::Extras;
use crate::python::autograd::node::extras::{get_ctx_field, get_extra, set_extra};
pub use crate::python::autograd::node::shapes::{
    one_native_shape, parse_one_shape, parse_shapes, OutShapes,
};
use crate::python::autograd::record::release_saved;
use std::sync::atomic::{AtomicU64, Ordering};

static SEQUENCE: AtomicU64 = AtomicU64::new(0);

/// The sequence number of the sink of a leaf: it runs as soon as it is ready
/// (torch uses `UINT64_MAX`; the Python side always read `2**62`).
pub const SINK_SEQUENCE_NR: u64 = 1 << 62;

/// The next sequence number (creation order of nodes, process-wide).
#[pyfunction]
pub fn _next_sequence_nr() -> u64 {
    SEQUENCE.fetch_add(1, Ordering::Relaxed)
}

/// An edge towards a forward input: the node its gradient flows to (None
/// when it needs no gradient) and the input number there. `nr == -1` marks a
/// non-tensor argument (it may never get a gradient).
pub struct NodeEdge {
    pub node: Option<PyObject>,
    pub nr: i64,
}

/// The kinds of node the engine treats specially.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// Any Python node: the engine calls its `apply`.
    Python,
    /// A leaf's `AccumulateGrad`: `saved[0]` is the leaf tensor.
    Sink,
    /// A `Function`'s ctx recorded by `_function_apply`: the engine runs its
    /// backward from Rust (`function::apply_node`).
    Function,
}

/// A node's edges to the nodes of its inputs (a unary op's in place).
pub type Edges = SmallVec<[NodeEdge; 1]>;

/// A node's saved values: two in place (a unary op's input and result, a
/// binary op's operands) without an allocation per recorded op, and a unary
/// node stays within 200 bytes (tests/autograd/test_graph_nodes.py).
pub type SavedValues = SmallVec<[PyObject; 2]>;

/// Base class of every autograd graph node. See Note [Rust graph nodes].
#[pyclass(name = "NodeBase", module = "opyard._core", subclass)]
pub struct PyNodeBase {
    pub next: Edges,
    pub shapes: OutShapes,
    pub seq: u64,
    pub released: bool,
    pub hooked: bool,
    /// `ctx.materialize_grads` (`set_materialize_grads`).
    pub materialize_grads: bool,
    pub kind: NodeKind,
    /// Whether `_saved` was set (`saved` then holds the values, maybe none).
    pub has_saved: bool,
    /// The saved values (`_saved`), in the order the node kind defines.
    pub saved: SavedValues,
    pub extras: Option<Box<Extras>>,
    /// The dtype of output 0 of a one-output node recorded by a built-in
    /// op: the dtype its incoming gradient is cast to (torch's input
    /// metadata; See Note [Gradient dtypes] in `autograd.rs`).
    pub out_dtype: Option<PyObject>,
}

fn opt_obj(py: Python<'_>, o: &Option<PyObject>) -> PyObject {
    o.as_ref().map_or_else(|| py.None(), |o| o.clone_ref(py))
}

/// Parses a `(node, input_nr)` pair.
fn parse_edge(item: &Bound<'_, PyAny>) -> PyResult<NodeEdge> {
    let (node, nr): (Bound<'_, PyAny>, i64) = item.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "next_functions: expected (node, input_nr) pairs, got {}",
            crate::python::errors::quote(item)
        ))
    })?;
    Ok(NodeEdge {
        node: (!node.is_none()).then(|| node.unbind()),
        nr,
    })
}

impl PyNodeBase {
    /// The state of a leaf's `AccumulateGrad` for `variable` (what
    /// `_init_sink` sets), for a sink made without `__new__`.
    pub fn sink(variable: PyObject) -> Self {
        PyNodeBase {
            kind: NodeKind::Sink,
            seq: SINK_SEQUENCE_NR,
            has_saved: true,
            saved: smallvec::smallvec![variable],
            ..Self::empty()
        }
    }

    /// A node with no edges, shapes or saved values and the next sequence
    /// number: what `NodeBase(...)` makes.
    pub fn empty() -> Self {
        PyNodeBase {
            next: SmallVec::new(),
            shapes: OutShapes::default(),
            seq: _next_sequence_nr(),
            released: false,
            hooked: false,
            materialize_grads: true,
            kind: NodeKind::Python,
            has_saved: false,
            saved: SmallVec::new(),
            extras: None,
            out_dtype: None,
        }
    }

    /// The number of outputs of the forward call (gradient slots).
    pub fn num_outputs(&self, py: Python<'_>) -> PyResult<usize> {
        match self.shapes.py() {
            None => Ok(self.shapes.iter().count()),
            Some(o) => o.bind(py).len(),
        }
    }

    /// The pre-hook slots that are set (only looked at when `hooked`),
    /// copied out so that their truthiness is tested after the borrow ends.
    pub fn pre_hook_slots(&self, py: Python<'_>) -> SmallVec<[PyObject; 3]> {
        let Some(x) = self.extras.as_deref().filter(|_| self.hooked) else {
            return SmallVec::new();
        };
        [&x.tensor_pre_hooks, &x.retains_grad_hooks, &x.pre_hooks]
            .into_iter()
            .flatten()
            .map(|h| h.clone_ref(py))
            .collect()
    }

    /// The post-hook slot, if set (only looked at when `hooked`).
    pub fn post_hook_slot(&self, py: Python<'_>) -> Option<PyObject> {
        let x = self.extras.as_deref().filter(|_| self.hooked)?;
        x.post_hooks.as_ref().map(|h| h.clone_ref(py))
    }

    /// The hook slots and ctx state, created on first use.
    pub fn extras_mut(&mut self) -> &mut Extras {
        self.extras.get_or_insert_with(Box::default)
    }

    /// The hook slots and ctx state, if any was set.
    pub fn extras(&self) -> Option<&Extras> {
        self.extras.as_deref()
    }

    /// Replaces the edges (no Python code runs: the caller drops the old ones).
    pub fn take_next(&mut self, next: Edges) -> Edges {
        std::mem::replace(&mut self.next, next)
    }
}

#[pymethods]
impl PyNodeBase {
    /// Accepts and ignores arguments so that subclasses own `__init__`.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, pyo3::types::PyDict>>) -> Self {
        PyNodeBase::empty()
    }

    /// `((node, input_nr), ...)`: where the gradients of the forward inputs flow.
    #[getter]
    fn next_functions<'py>(&self, py: Python<'py>) -> Bound<'py, PyTuple> {
        PyTuple::new_bound(
            py,
            self.next
                .iter()
                .map(|e| -> PyObject { (opt_obj(py, &e.node), e.nr).into_py(py) }),
        )
    }

    #[setter]
    fn set_next_functions(slf: &Bound<'_, Self>, edges: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut next = SmallVec::new();
        for item in edges.iter()? {
            next.push(parse_edge(&item?)?);
        }
        let old = std::mem::replace(&mut slf.borrow_mut().next, next);
        drop(old);
        Ok(())
    }

    /// One bool per edge: does that input need a gradient (an edge to a node)?
    #[getter]
    fn _edge_needs<'py>(&self, py: Python<'py>) -> Bound<'py, PyTuple> {
        PyTuple::new_bound(py, self.next.iter().map(|e| e.node.is_some()))
    }

    #[getter]
    fn _sequence_nr(&self) -> u64 {
        self.seq
    }

    #[setter(_sequence_nr)]
    fn set_sequence_nr(&mut self, nr: u64) {
        self.seq = nr;
    }

    /// The shapes of the forward outputs, as tuples.
    #[getter]
    fn _out_shapes(&self, py: Python<'_>) -> PyObject {
        match self.shapes.py() {
            None => PyTuple::new_bound(
                py,
                self.shapes
                    .iter()
                    .map(|d| PyTuple::new_bound(py, d.iter()).into_any())
                    .collect::<SmallVec<[_; 2]>>(),
            )
            .into_any()
            .unbind(),
            Some(o) => o.clone_ref(py),
        }
    }

    #[setter(_out_shapes)]
    fn set_out_shapes(slf: &Bound<'_, Self>, shapes: &Bound<'_, PyAny>) -> PyResult<()> {
        let shapes = parse_shapes(shapes)?;
        let old = std::mem::replace(&mut slf.borrow_mut().shapes, shapes);
        drop(old);
        Ok(())
    }

    /// Whether a backward without `retain_graph` freed this node's saved values.
    #[getter]
    fn _released(&self) -> bool {
        self.released
    }

    #[setter(_released)]
    fn set_released(&mut self, flag: bool) {
        self.released = flag;
    }

    /// Set once any hook is attached: the engine looks at the hook slots only then.
    #[getter]
    fn _hooked(&self) -> bool {
        self.hooked
    }

    #[setter(_hooked)]
    fn set_hooked(&mut self, flag: bool) {
        self.hooked = flag;
    }

    /// The saved values (a tuple), or None when nothing was saved.
    #[getter]
    fn _saved(&self, py: Python<'_>) -> PyObject {
        if !self.has_saved {
            return py.None();
        }
        PyTuple::new_bound(py, self.saved.iter().map(|o| o.clone_ref(py)))
            .into_any()
            .unbind()
    }

    #[setter(_saved)]
    fn set_saved(slf: &Bound<'_, Self>, values: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut new = SmallVec::new();
        if !values.is_none() {
            for item in values.iter()? {
                new.push(item?.unbind());
            }
        }
        let old = {
            let mut node = slf.borrow_mut();
            node.has_saved = !values.is_none();
            std::mem::replace(&mut node.saved, new)
        };
        drop(old);
        Ok(())
    }

    /// Frees the saved tensors after a backward without `retain_graph`
    /// (see `release_saved`); subclasses with other state override it.
    fn release_variables(slf: &Bound<'_, Self>) -> PyResult<()> {
        release_saved(slf)
    }

    #[getter]
    fn _pre_hooks(slf: &Bound<'_, Self>) -> PyObject {
        get_extra(slf, |x| &x.pre_hooks)
    }

    #[setter(_pre_hooks)]
    fn set_pre_hooks(slf: &Bound<'_, Self>, v: PyObject) {
        set_extra(slf, v, |x| &mut x.pre_hooks);
    }

    #[getter]
    fn _post_hooks(slf: &Bound<'_, Self>) -> PyObject {
        get_extra(slf, |x| &x.post_hooks)
    }

    #[setter(_post_hooks)]
    fn set_post_hooks(slf: &Bound<'_, Self>, v: PyObject) {
        set_extra(slf, v, |x| &mut x.post_hooks);
    }

    #[getter]
    fn _tensor_pre_hooks(slf: &Bound<'_, Self>) -> PyObject {
        get_extra(slf, |x| &x.tensor_pre_hooks)
    }

    #[setter(_tensor_pre_hooks)]
    fn set_tensor_pre_hooks(slf: &Bound<'_, Self>, v: PyObject) {
        set_extra(slf, v, |x| &mut x.tensor_pre_hooks);
    }

    #[getter]
    fn _retains_grad_hooks_(slf: &Bound<'_, Self>) -> PyObject {
        get_extra(slf, |x| &x.retains_grad_hooks)
    }

    #[setter(_retains_grad_hooks_)]
    fn set_retains_grad_hooks(slf: &Bound<'_, Self>, v: PyObject) {
        set_extra(slf, v, |x| &mut x.retains_grad_hooks);
    }

    #[getter]
    fn metadata_dict(slf: &Bound<'_, Self>) -> PyObject {
        get_extra(slf, |x| &x.metadata)
    }

    #[setter]
    fn set_metadata_dict(slf: &Bound<'_, Self>, v: PyObject) {
        set_extra(slf, v, |x| &mut x.metadata);
    }

    #[getter]
    fn needs_input_grad(slf: &Bound<'_, Self>) -> PyObject {
        crate::python::autograd::node::ctx::needs_input_grad(slf)
    }

    #[setter]
    fn set_needs_input_grad(slf: &Bound<'_, Self>, v: PyObject) {
        set_extra(slf, v, |x| &mut x.needs_input_grad);
    }

    #[getter]
    fn to_save(slf: &Bound<'_, Self>) -> PyObject {
        get_ctx_field(slf, |x| &x.to_save)
    }

    #[setter]
    fn set_to_save(slf: &Bound<'_, Self>, v: PyObject) {
        set_extra(slf, v, |x| &mut x.to_save);
    }

    #[getter]
    fn _dirty(slf: &Bound<'_, Self>) -> PyObject {
        get_ctx_field(slf, |x| &x.dirty)
    }

    #[setter(_dirty)]
    fn set_dirty(slf: &Bound<'_, Self>, v: PyObject) {
        set_extra(slf, v, |x| &mut x.dirty);
    }

    #[getter]
    fn _non_differentiable(slf: &Bound<'_, Self>) -> PyObject {
        get_ctx_field(slf, |x| &x.non_differentiable)
    }

    #[setter(_non_differentiable)]
    fn set_non_differentiable(slf: &Bound<'_, Self>, v: PyObject) {
        set_extra(slf, v, |x| &mut x.non_differentiable);
    }

    #[getter]
    fn saved_for_forward(slf: &Bound<'_, Self>) -> PyObject {
        get_ctx_field(slf, |x| &x.saved_for_forward)
    }

    #[setter]
    fn set_saved_for_forward(slf: &Bound<'_, Self>, v: PyObject) {
        set_extra(slf, v, |x| &mut x.saved_for_forward);
    }

    #[getter]
    fn _out_dtypes(slf: &Bound<'_, Self>) -> PyObject {
        crate::python::autograd::node::ctx::out_dtypes(slf)
    }

    #[setter(_out_dtypes)]
    fn set_out_dtypes(slf: &Bound<'_, Self>, v: PyObject) {
        set_extra(slf, v, |x| &mut x.out_dtypes);
    }

    /// Output 0's dtype (a node with one output): the node's own slot, no
    /// extras (See Note [Gradient dtypes] in `autograd.rs`).
    #[getter(_out_dtype)]
    fn out_dtype_of(&self, py: Python<'_>) -> PyObject {
        self.out_dtype
            .as_ref()
            .map_or_else(|| py.None(), |d| d.clone_ref(py))
    }

    #[setter(_out_dtype)]
    fn set_out_dtype(slf: &Bound<'_, Self>, v: PyObject) {
        // The old value is dropped after the borrow ends.
        let old = slf.borrow_mut().out_dtype.replace(v);
        drop(old);
    }

    #[getter]
    fn materialize_grads(&self) -> bool {
        self.materialize_grads
    }

    #[setter(materialize_grads)]
    fn set_materialize_grads_field(&mut self, flag: bool) {
        self.materialize_grads = flag;
    }

    /// `ctx.save_for_backward(*tensors)` (See Note [Ctx fields in Rust]).
    #[pyo3(signature = (*tensors))]
    fn save_for_backward(slf: &Bound<'_, Self>, tensors: &Bound<'_, PyTuple>) -> PyResult<()> {
        crate::python::autograd::node::ctx::save_for_backward(slf, tensors)
    }

    /// `ctx.save_for_forward(*tensors)`: tensors for `jvp`.
    #[pyo3(signature = (*tensors))]
    fn save_for_forward(slf: &Bound<'_, Self>, tensors: &Bound<'_, PyTuple>) -> PyResult<()> {
        crate::python::autograd::node::ctx::save_for_forward(slf, tensors)
    }

    /// `ctx.mark_dirty(*args)`: the inputs forward modified in place.
    #[pyo3(signature = (*args))]
    fn mark_dirty(slf: &Bound<'_, Self>, args: &Bound<'_, PyTuple>) {
        crate::python::autograd::node::ctx::mark_dirty(slf, args);
    }

    /// `ctx.mark_non_differentiable(*args)`: outputs that get no gradient.
    #[pyo3(signature = (*args))]
    fn mark_non_differentiable(slf: &Bound<'_, Self>, args: &Bound<'_, PyTuple>) {
        crate::python::autograd::node::ctx::mark_non_differentiable(slf, args);
    }

    /// `ctx.set_materialize_grads(value)`: with False, backward gets None
    /// (not zeros) for the gradients of unused outputs.
    fn set_materialize_grads(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.materialize_grads = value.is_truthy()?;
        Ok(())
    }

    /// `ctx.saved_tensors` (See Note [Ctx fields in Rust]).
    #[getter]
    fn saved_tensors<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        crate::python::autograd::node::ctx::saved_tensors(slf)
    }

    /// Makes this node the sink of leaf `variable` (`AccumulateGrad`).
    fn _init_sink(slf: &Bound<'_, Self>, variable: PyObject) {
        let old = {
            let mut node = slf.borrow_mut();
            node.kind = NodeKind::Sink;
            node.seq = SINK_SEQUENCE_NR;
            node.has_saved = true;
            std::mem::replace(&mut node.saved, smallvec::smallvec![variable])
        };
        drop(old);
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        for e in &self.next {
            if let Some(n) = &e.node {
                visit.call(n)?;
            }
        }
        if let Some(o) = self.shapes.py() {
            visit.call(o)?;
        }
        for o in &self.saved {
            visit.call(o)?;
        }
        if let Some(o) = &self.out_dtype {
            visit.call(o)?;
        }
        if let Some(x) = &self.extras {
            for o in x.slots().into_iter().flatten() {
                visit.call(o)?;
            }
            if let Some(f) = &x.function {
                visit.call(f)?;
            }
        }
        Ok(())
    }

    fn __clear__(&mut self) {
        // Drops run under this borrow: a finalizer that reads this node gets
        // an "already borrowed" error instead of a torn node. tp_clear is the
        // cyclic GC's, so nothing else is expected to read the node then.
        self.next.clear();
        self.saved.clear();
        self.extras = None;
        self.out_dtype = None;
        self.shapes.clear_py();
    }
}

/// `isinstance(obj, NodeBase)` as a typed borrow, or a TypeError naming the object.
pub fn as_node<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> PyResult<&'a Bound<'py, PyNodeBase>> {
    NODE_BASE.downcast(obj).ok_or_else(|| {
        PyTypeError::new_err(format!(
            "autograd graph: expected a node (opyard.autograd.graph.Node), got {}",
            crate::python::errors::type_name(obj)
        ))
    })
}

/// `NodeBase`'s class, found once (Note [Class pointers kept], `ffi/type_slots.rs`).
pub static NODE_BASE: crate::python::ffi::type_slots::ClassPtr<PyNodeBase> =
    crate::python::ffi::type_slots::ClassPtr::new();

/// `_graph_reaches(roots, mark, own, birth)`: whether the graph behind the
/// nodes `roots` reaches a node with a sequence number below `mark` (recorded
/// before a transform call began) or the `AccumulateGrad` of a tensor made
/// before the call (its `_birth` below `birth`) that is not in `own` (a
/// sequence of tensors). One walk over the Rust edges; no Python code runs.
/// See Note [Reverse levels] in `opyard/func/transforms.py`.
#[pyfunction]
pub fn _graph_reaches(
    py: Python<'_>,
    roots: Vec<Bound<'_, PyAny>>,
    mark: u64,
    own: Vec<Bound<'_, PyAny>>,
    birth: u64,
) -> PyResult<bool> {
    let own: std::collections::HashSet<usize> = own.iter().map(|t| t.as_ptr() as usize).collect();
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<PyObject> = roots.into_iter().map(Bound::unbind).collect();
    while let Some(obj) = stack.pop() {
        if !seen.insert(obj.as_ptr() as usize) {
            continue;
        }
        let bound = obj.bind(py);
        let node = as_node(bound)?.borrow();
        if node.kind == NodeKind::Sink {
            let Some(var) = node.saved.first() else {
                return Ok(true);
            };
            let made_inside = var
                .bind(py)
                .downcast::<crate::python::tensor::base::PyTensorBase>()
                .is_ok_and(|t| t.get().birth() >= birth);
            if made_inside || own.contains(&(var.as_ptr() as usize)) {
                continue;
            }
            return Ok(true);
        }
        if node.seq < mark {
            return Ok(true);
        }
        stack.extend(
            node.next
                .iter()
                .filter_map(|e| e.node.as_ref().map(|n| n.clone_ref(py))),
        );
    }
    Ok(false)
}
