//! The backward engine driven from Python: `_run_backward` runs
//! `crate::autograd::run_backward` over the graph of Python nodes
//! (`opyard.autograd.graph.Node`), with Python tensors as gradients.
//!
//! The Python side keeps what users read and extend: argument checking, the
//! node classes and their `apply` (the derivative formulas, `Function.backward`),
//! hooks, and gradient accumulation into `.grad` (`AccumulateGrad.apply`). The
//! engine's bookkeeping (dependency counts, ready queue, input buffers,
//! `inputs=` restriction) runs here without a Python frame per node.
//!
//! Note [GIL during backward]: `_run_backward` holds the GIL for the whole
//! pass and never releases it, so the node and gradient wrappers below reach
//! the interpreter through `gil()`.
//!
//! Note [No foreign code under a lock]: while a Rust lock is held, no Python
//! object is created or dropped and no Python code runs (an allocation may run
//! the cyclic GC, whose finalizers may re-enter and deadlock). This file takes
//! no Rust lock at all: the pass's state is owned by the call, so nodes, hooks
//! and `add` run and Python objects drop freely.

use pyo3::exceptions::PyRuntimeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use smallvec::SmallVec;

use crate::autograd::engine::{
    run_backward, BackwardOptions, Edge, EdgeBuf, EngineError, GraphNode,
};
use crate::autograd::Grad;
use crate::python::autograd::accumulate::{
    accumulate, call_op, same_plain_dtype, same_plain_shape, with_plain_array,
};
use crate::python::autograd::formulas::PyNodeApply;
use crate::python::autograd::node::{as_node, NodeKind, PyNodeBase};
use crate::python::autograd::record::release_saved;
use crate::python::ffi::gil::PassScope;
use crate::python::ffi::object::{is_python_function, lookup_on_type};
use crate::python::hooks::{fast_paths, hooks};
use crate::python::kernels_py::plain_cpu_tensor;
use crate::python::tensor::fields as tensor_fields;

/// See Note [GIL during backward]: the pass holds the GIL, so this reads
/// the token it holds (Note [Pass scope], Note [Held GIL]).
fn gil<R>(f: impl for<'py> FnOnce(Python<'py>) -> R) -> R {
    crate::python::ffi::gil::with_pass(f)
}

impl From<EngineError> for PyErr {
    fn from(e: EngineError) -> PyErr {
        PyRuntimeError::new_err(e.0)
    }
}

/// A gradient: a Python tensor.
struct PyGrad(PyObject);

impl Clone for PyGrad {
    fn clone(&self) -> Self {
        gil(|py| PyGrad(self.0.clone_ref(py)))
    }
}

impl Grad for PyGrad {
    type Error = PyErr;
    fn add(self, other: Self) -> PyResult<Self> {
        gil(|py| {
            let sum = call_op(hooks(py)?.add.bind(py), (self.0, other.0))?;
            Ok(PyGrad(sum.unbind()))
        })
    }
}

/// A node of the graph: a `NodeBase` object; its identity is its address.
/// The engine reads its Rust fields (See Note [Rust graph nodes]) and calls
/// Python only for `apply`, hooks and custom `release_variables`.
/// Nodes are checked when they enter the pass (`edge_of`, `next_edges`).
struct PyNode(Py<PyNodeBase>);

impl Clone for PyNode {
    fn clone(&self) -> Self {
        gil(|py| PyNode(self.0.clone_ref(py)))
    }
}

impl PyNode {
    /// The node's Rust part.
    fn base<'a, 'py>(&'a self, py: Python<'py>) -> &'a Bound<'py, PyNodeBase> {
        self.0.bind(py)
    }
}

fn to_list(py: Python<'_>, grads: Vec<Option<PyGrad>>) -> Bound<'_, PyList> {
    PyList::new_bound(
        py,
        grads
            .into_iter()
            .map(|g| g.map_or_else(|| py.None(), |g| g.0)),
    )
}

fn grad_of(item: Bound<'_, PyAny>) -> Option<PyGrad> {
    (!item.is_none()).then(|| PyGrad(item.unbind()))
}

/// A node's or hook's gradients: a tuple or list read directly, any other
/// sequence iterated.
fn from_seq(seq: &Bound<'_, PyAny>) -> PyResult<Vec<Option<PyGrad>>> {
    if let Ok(t) = seq.downcast::<PyTuple>() {
        return Ok(t.iter().map(grad_of).collect());
    }
    if let Ok(l) = seq.downcast::<PyList>() {
        return Ok(l.iter().map(grad_of).collect());
    }
    let mut out = Vec::with_capacity(seq.len().unwrap_or(0));
    for item in seq.iter()? {
        let item = item?;
        out.push((!item.is_none()).then(|| PyGrad(item.unbind())));
    }
    Ok(out)
}

/// Whether `shape` (a tensor's `shape`) equals `expected`.
fn same_shape(shape: &Bound<'_, PyAny>, expected: &[i64]) -> PyResult<bool> {
    if let Ok(t) = shape.downcast::<PyTuple>() {
        if t.len() != expected.len() {
            return Ok(false);
        }
        for (d, e) in t.iter().zip(expected) {
            match d.extract::<i64>() {
                Ok(d) if d == *e => {}
                _ => return Ok(false),
            }
        }
        return Ok(true);
    }
    let expected = PyTuple::new_bound(shape.py(), expected.iter());
    shape.eq(expected)
}

impl GraphNode<PyGrad> for PyNode {
    type Error = PyErr;

    fn key(&self) -> usize {
        self.0.as_ptr() as usize
    }
    fn sequence_nr(&self) -> u64 {
        gil(|py| self.base(py).borrow().seq)
    }
    fn name(&self) -> String {
        gil(|py| {
            let name = self.0.call_method0(py, intern!(py, "name"));
            name.and_then(|n| n.extract::<String>(py))
                .unwrap_or_else(|_| self.0.bind(py).get_type().to_string())
        })
    }
    fn num_inputs(&self) -> PyResult<usize> {
        gil(|py| {
            let node = self.base(py).borrow();
            match node.kind {
                NodeKind::Sink => Ok(1),
                NodeKind::Python | NodeKind::Function => node.num_outputs(py),
            }
        })
    }
    fn next_edges(&self, out: &mut EdgeBuf<Self>) -> PyResult<()> {
        gil(|py| self.next_edges_in(py, out))
    }
    fn is_sink(&self) -> bool {
        gil(|py| self.base(py).borrow().kind == NodeKind::Sink)
    }
    fn has_pre_hooks(&self) -> bool {
        gil(|py| {
            let slots = self.base(py).borrow().pre_hook_slots(py);
            // A hook container's truth test may run Python: outside the borrow.
            slots.iter().any(|h| h.bind(py).is_truthy().unwrap_or(true))
        })
    }
    fn pre_hooks(&self, grads: Vec<Option<PyGrad>>) -> PyResult<Vec<Option<PyGrad>>> {
        gil(|py| {
            let out = hooks(py)?
                .call_pre_hooks
                .get(py)?
                .call1(py, (&self.0, to_list(py, grads)))?;
            from_seq(out.bind(py))
        })
    }
    fn tensor_pre_hooks(&self, grads: Vec<Option<PyGrad>>) -> PyResult<Vec<Option<PyGrad>>> {
        gil(|py| {
            let out = hooks(py)?
                .call_tensor_pre_hooks
                .get(py)?
                .call1(py, (&self.0, to_list(py, grads)))?;
            from_seq(out.bind(py))
        })
    }
    fn has_post_hooks(&self) -> bool {
        gil(|py| {
            let slot = self.base(py).borrow().post_hook_slot(py);
            slot.is_some_and(|h| h.bind(py).is_truthy().unwrap_or(true))
        })
    }
    fn post_hooks(
        &self,
        outputs: Vec<Option<PyGrad>>,
        grads: Vec<Option<PyGrad>>,
    ) -> PyResult<Vec<Option<PyGrad>>> {
        gil(|py| {
            let args = (&self.0, to_list(py, outputs), to_list(py, grads));
            let out = hooks(py)?.call_post_hooks.get(py)?.call1(py, args)?;
            from_seq(out.bind(py))
        })
    }
    fn apply(
        &self,
        grads: Vec<Option<PyGrad>>,
        _create_graph: bool,
    ) -> PyResult<Vec<Option<PyGrad>>> {
        // create_graph is the grad mode `engine.py` set around the pass.
        gil(|py| self.apply_in(py, grads))
    }
    fn release(&self) -> PyResult<()> {
        gil(|py| self.release_in(py))
    }
    fn check_incoming(
        &self,
        producer: &Self,
        i: usize,
        nr: usize,
        grad: PyGrad,
    ) -> PyResult<PyGrad> {
        gil(|py| self.check_incoming_in(py, producer, i, nr, grad))
    }
}

impl PyNode {
    fn next_edges_in(&self, py: Python<'_>, out: &mut EdgeBuf<Self>) -> PyResult<()> {
        let node = self.base(py).borrow();
        for e in &node.next {
            let Some(next) = &e.node else {
                out.push((None, 0));
                continue;
            };
            let next = PyNode(as_node(next.bind(py))?.clone().unbind());
            let Ok(nr) = usize::try_from(e.nr) else {
                let msg = format!(
                    "an edge to {} has the negative input number {}",
                    next.name(),
                    e.nr
                );
                return Err(EngineError(msg).into());
            };
            out.push((Some(next), nr));
        }
        Ok(())
    }
    fn apply_in(
        &self,
        py: Python<'_>,
        grads: Vec<Option<PyGrad>>,
    ) -> PyResult<Vec<Option<PyGrad>>> {
        // With the fast paths off, every node runs its Python `apply` (See Note
        // [Fast paths and general paths] in hooks.rs).
        if !fast_paths() {
            let out = call_apply(self.0.bind(py), to_list(py, grads))?;
            return from_seq(&out);
        }
        if let Some(var) = self.sink_variable(py) {
            let var = var.bind(py);
            if !tensor_fields::has_leaf_hooks(var)? {
                if let Some(Some(g)) = grads.into_iter().next() {
                    let h = hooks(py)?;
                    accumulate(var, g.0, h.add_inplace(py)?, &h.accumulate_grad)?;
                }
                return Ok(Vec::new());
            }
        }
        if self.base(py).borrow().kind == NodeKind::Function {
            let grads = grads.into_iter().map(|g| g.map(|g| g.0)).collect();
            let out = crate::python::autograd::function::apply_node(self.base(py), grads)?;
            return Ok(out.into_iter().map(|g| g.map(PyGrad)).collect());
        }
        let out = call_apply(self.0.bind(py), to_list(py, grads))?;
        from_seq(&out)
    }
    fn release_in(&self, py: Python<'_>) -> PyResult<()> {
        let node = self.base(py);
        if crate::python::autograd::record::sink_type(py).is_some_and(|t| node.get_type().is(t)) {
            // `AccumulateGrad` saves nothing to free: its (default)
            // `release_variables` only marks it released.
            node.borrow_mut().released = true;
            return Ok(());
        }
        // Found on the type as an instance call would find it (no metaclass
        // attribute, no descriptor call): the default is a plain function.
        let method = lookup_on_type(node.as_any(), intern!(py, "release_variables"));
        let hooks = hooks(py)?;
        if method.is_some_and(|m| m.is(hooks.default_release.bind(py))) {
            return release_saved(node);
        }
        self.0.call_method0(py, intern!(py, "release_variables"))?;
        Ok(())
    }
    fn check_incoming_in(
        &self,
        py: Python<'_>,
        producer: &Self,
        i: usize,
        nr: usize,
        grad: PyGrad,
    ) -> PyResult<PyGrad> {
        let sink = self.sink_variable(py);
        if let Some(var) = &sink {
            let (g, v) = (grad.0.bind(py), var.bind(py));
            if same_plain_shape(g, v) == Some(true) && same_plain_dtype(g, v) == Some(true) {
                return Ok(grad);
            }
        }
        // See Note [Gradient dtypes].
        let expected = match &sink {
            Some(var) => Some(grad_dtype(var.bind(py))?),
            None => self.expected_dtype(py, nr),
        };
        let dtype_ok = match &expected {
            Some(d) => grad_dtype(grad.0.bind(py))?.is(d),
            None => true,
        };
        let same = dtype_ok
            && match sink {
                Some(var) => {
                    let shape = tensor_fields::shape(grad.0.bind(py))?;
                    shape.eq(tensor_fields::shape(var.bind(py))?)?
                }
                None => {
                    // Note [Plain tensors at the sink], for every node: a plain
                    // gradient's sizes are in its array header, compared with
                    // the recorded native shape without making a `Size`.
                    let plain = with_plain_array(grad.0.bind(py), |v| {
                        let node = self.base(py).borrow();
                        node.shapes.native(nr).map(|expected| {
                            let dims = v.dims();
                            node.shapes.py().is_none()
                                && dims.len() == expected.len()
                                && dims.iter().zip(expected).all(|(&d, &e)| d as i64 == e)
                        })
                    })
                    .flatten();
                    if plain == Some(true) {
                        return Ok(grad);
                    }
                    let shape = tensor_fields::shape(grad.0.bind(py))?;
                    // Copied out: comparing sizes may run Python (a symbolic size's
                    // `__index__`/`__eq__`), which must not happen under the borrow.
                    let (native, py_shapes) = {
                        let node = self.base(py).borrow();
                        let native: Option<SmallVec<[i64; 4]>> =
                            node.shapes.native(nr).map(SmallVec::from_slice);
                        (native, node.shapes.py().map(|o| o.clone_ref(py)))
                    };
                    match (py_shapes, native) {
                        (Some(o), _) => shape.eq(o.bind(py).get_item(nr)?)?,
                        (None, Some(expected)) => same_shape(&shape, &expected)?,
                        (None, None) => false,
                    }
                }
            };
        if same {
            return Ok(grad);
        }
        let expected = expected.map_or_else(|| py.None(), |d| d.unbind());
        let args = (&producer.0, i, grad.0, &self.0, nr, expected);
        Ok(PyGrad(hooks(py)?.validate_grad.get(py)?.call1(py, args)?))
    }
    /// The dtype of the forward output `nr` of this node, when recorded.
    fn expected_dtype<'py>(&self, py: Python<'py>, nr: usize) -> Option<Bound<'py, PyAny>> {
        // The slots are copied out: indexing a tuple set from Python may run
        // Python code, which must not happen under the borrow.
        let (one, many) = {
            let node = self.base(py).borrow();
            let x = node.extras();
            let one = match (&node.out_dtype, nr) {
                (Some(d), 0) => Some(d.clone_ref(py)),
                _ => x.and_then(|x| {
                    x.out_dtype
                        .as_ref()
                        .filter(|_| nr == 0)
                        .map(|d| d.clone_ref(py))
                }),
            };
            (
                one,
                x.and_then(|x| x.out_dtypes.as_ref().map(|d| d.clone_ref(py))),
            )
        };
        if let Some(d) = one {
            return Some(d.into_bound(py));
        }
        let d = many?.into_bound(py).get_item(nr).ok()?;
        (!d.is_none()).then_some(d)
    }
    /// The leaf tensor when this node is an `AccumulateGrad`.
    fn sink_variable(&self, py: Python<'_>) -> Option<PyObject> {
        let node = self.base(py).borrow();
        match node.kind {
            NodeKind::Sink => node.saved.first().map(|o| o.clone_ref(py)),
            NodeKind::Python | NodeKind::Function => None,
        }
    }
}

/// Note [Gradient dtypes]: as torch's engine (`validate_outputs`), a
/// gradient entering a node input is cast to the dtype of the tensor that
/// flowed forward along that edge: a leaf's own dtype at its
/// `AccumulateGrad`, else the dtype the producing op's output had (a
/// built-in node records it as `out_dtype`; a `Function`'s ctx as its
/// `_out_dtypes`). So `autograd.grad((a32 + b64).sum(), [a32, b64])` gives a
/// float32 and a float64 gradient, and every formula may return its
/// gradient in the output's dtype: the cast happens here, in one place.
fn grad_dtype<'py>(t: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    match plain_cpu_tensor(t) {
        Some(state) => state.dtype(t.py()),
        None => tensor_fields::dtype(t),
    }
}

/// `node.apply(grads)` of a Python node. Note [Node apply from its class]:
/// the engine calls the `apply` its class defines, as torch's engine calls
/// the node's C++ `apply`: when that is a plain function it is called with
/// the node directly, which skips the bound method and, for formula nodes
/// whose class has a `__getattr__`, CPython's slow attribute path; so is a
/// built-in formula's `_NodeApply`. Anything else (another descriptor, a
/// builtin) goes through attribute lookup.
fn call_apply<'py>(
    node: &Bound<'py, PyAny>,
    grads: Bound<'py, PyList>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = node.py();
    let name = intern!(py, "apply");
    match lookup_on_type(node, name) {
        Some(f) if is_python_function(&f) => f.call1((node, grads)),
        // A built-in formula's `apply` (Note [Rust node apply]): called as
        // its bound method would call it.
        Some(f) => match f.downcast::<PyNodeApply>() {
            Ok(apply) => {
                let args = PyTuple::new_bound(py, [node.as_any(), grads.as_any()]);
                Ok(apply.get().call(py, &args, None)?.into_bound(py))
            }
            Err(_) => node.call_method1(name, (grads,)),
        },
        None => node.call_method1(name, (grads,)),
    }
}

fn edge_of(node: PyObject, nr: isize, py: Python<'_>) -> PyResult<Edge<PyNode>> {
    if node.is_none(py) {
        return Ok((None, 0));
    }
    let node = PyNode(as_node(node.bind(py))?.clone().unbind());
    match usize::try_from(nr) {
        Ok(nr) => Ok((Some(node), nr)),
        Err(_) => Err(EngineError(format!(
            "an edge to {} has the negative input number {nr}",
            node.name()
        ))
        .into()),
    }
}

/// Runs a `backward()` pass from one root edge `(node, nr)` with gradient
/// `root`, accumulating into the leaves (Note [Backward entry in Rust]). The
/// caller has set the grad mode of the pass.
pub fn run_from_root(
    py: Python<'_>,
    node: Bound<'_, PyAny>,
    nr: i64,
    root: Bound<'_, PyAny>,
    retain_graph: bool,
) -> PyResult<()> {
    hooks(py)?;
    let nr = isize::try_from(nr).unwrap_or(-1);
    let roots = vec![(edge_of(node.unbind(), nr, py)?, PyGrad(root.unbind()))];
    let opts = BackwardOptions {
        retain_graph,
        create_graph: false,
        accumulate: true,
    };
    // See Note [Final callbacks].
    let _pass = PassScope::open(py);
    super::final_callbacks::with_final_callbacks(py, false, || run_backward(roots, None, opts))?;
    Ok(())
}

/// Runs backward from `roots` (`(node, input_nr, grad)` triples) and returns
/// the gradients captured for `inputs` (`(node, input_nr)` pairs; an empty
/// list without them).
#[pyfunction]
#[pyo3(signature = (roots, inputs, retain_graph, create_graph, accumulate))]
pub fn _run_backward(
    py: Python<'_>,
    roots: Vec<(PyObject, isize, PyObject)>,
    inputs: Option<Vec<(PyObject, isize)>>,
    retain_graph: bool,
    create_graph: bool,
    accumulate: bool,
) -> PyResult<Vec<Option<PyObject>>> {
    hooks(py)?;
    let roots = roots
        .into_iter()
        .map(|(node, nr, g)| Ok((edge_of(node, nr, py)?, PyGrad(g))))
        .collect::<PyResult<_>>()?;
    let inputs = match inputs {
        None => None,
        Some(v) => Some(
            v.into_iter()
                .map(|(n, nr)| edge_of(n, nr, py))
                .collect::<PyResult<_>>()?,
        ),
    };
    let opts = BackwardOptions {
        retain_graph,
        create_graph,
        accumulate,
    };
    // See Note [Final callbacks].
    let partial = inputs.is_some();
    let pass = PassScope::open(py);
    let results = super::final_callbacks::with_final_callbacks(py, partial, || {
        run_backward(roots, inputs, opts)
    });
    drop(pass);
    let results = results?;
    Ok(results.into_iter().map(|g| g.map(|g| g.0)).collect())
}
