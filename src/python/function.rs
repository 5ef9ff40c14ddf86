//! `Function.apply` in Rust: one call records a custom Function's node.
//!
//! Note [Function.apply in Rust]: `MyFn.apply` is `MyFn._apply_spec` (a
//! `_FunctionSpec`, through the `_ApplyDescriptor` on `Function`), and calling
//! it runs `_function_apply(spec, args)`; the rare cases (keyword arguments,
//! missing defaulted inputs, forward-mode AD) go to Python's `_apply_general`.
//! Here, without a Python frame of ours: create the ctx (the node, torch's
//! `BackwardCFunction`), collect one edge and one `needs_input_grad` flag per
//! argument, run the user's `forward` (and `setup_context`) with the autograd
//! keys excluded, and attach the node to the output. The common output — one
//! tensor, nothing saved or marked — is wrapped here; anything else
//! (tuples, `save_for_backward`, `mark_dirty`, `mark_non_differentiable`)
//! goes to Python's `_record_outputs`, which owns those rules.

use pyo3::exceptions::PyRuntimeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyTuple};
use pyo3::{PyTraverseError, PyVisit};
use smallvec::SmallVec;
use std::sync::atomic::{AtomicBool, Ordering};

use super::node::{NodeEdge, NodeKind, PyNodeBase};
use super::record::{attach_output, autograd_mask, saved_tensor_type};
use super::tensor::PyTensorBase;
use super::tensor_fields;
use crate::dispatch::tls::{self, LocalKeySets};
use crate::dispatch::DispatchKeySet;

/// The Python helpers `apply` hands the rare cases to, installed by `function.py`.
struct FunctionHooks {
    /// `_record_outputs(ctx, args, output)`: the general output rules.
    record_outputs: PyObject,
    /// `_check_dirty(ctx, args, output)`: `mark_dirty` checks without grad.
    check_dirty: PyObject,
    /// `alias(t)`: a new tensor on `t`'s data (an input returned as-is).
    alias: PyObject,
    /// `_apply_general(cls, args, kwargs)`: keywords, defaults, forward AD.
    apply_general: PyObject,
    /// `zeros(shape, dtype)`: a materialized gradient for an unused output.
    zeros: PyObject,
}

/// Whether a forward-AD level is active (process-wide, as `forward_ad._state.level`).
static FORWARD_AD: AtomicBool = AtomicBool::new(false);

/// `forward_ad` says when a dual level starts and ends.
#[pyfunction]
pub fn _set_forward_ad_active(active: bool) {
    FORWARD_AD.store(active, Ordering::Relaxed);
}

/// Whether a forward-AD level is active: kernels called from Rust then take
/// their general Python path.
#[inline]
pub fn forward_ad_active() -> bool {
    FORWARD_AD.load(Ordering::Relaxed)
}

static HOOKS: GILOnceCell<FunctionHooks> = GILOnceCell::new();

/// Installs `apply`'s Python helpers (the first call wins).
#[pyfunction]
pub fn _function_init(
    py: Python<'_>,
    record_outputs: PyObject,
    check_dirty: PyObject,
    alias: PyObject,
    apply_general: PyObject,
    zeros: PyObject,
) {
    let hooks = FunctionHooks {
        record_outputs,
        check_dirty,
        alias,
        apply_general,
        zeros,
    };
    let _ = HOOKS.set(py, hooks);
}

fn hooks(py: Python<'_>) -> PyResult<&'static FunctionHooks> {
    HOOKS.get(py).ok_or_else(|| {
        PyRuntimeError::new_err("opyard._core._function_init was not called before apply")
    })
}

/// What `apply` needs of one `Function` subclass, computed at class creation.
/// Calling it is `cls.apply(*args, **kwargs)` without a Python frame: the
/// Autograd kernel `register_autograd` installs is this object.
#[pyclass(name = "_FunctionSpec", module = "opyard._core", frozen)]
pub struct PyFunctionSpec {
    cls: PyObject,
    /// The node class, `<Name>Backward`.
    backward_cls: PyObject,
    forward: PyObject,
    /// `setup_context` when the class defines it (then forward takes no ctx).
    setup_context: Option<PyObject>,
    /// Calls with fewer arguments get forward's defaults (the general path).
    fill_defaults_below: usize,
    /// How registration listings name this callable.
    qualname: String,
    /// `backward` (or `vjp`), run by the engine (`apply_node`).
    backward: PyObject,
}

#[pymethods]
impl PyFunctionSpec {
    #[new]
    #[pyo3(signature = (cls, backward_cls, forward, setup_context, fill_defaults_below, qualname, backward))]
    fn new(
        cls: PyObject,
        backward_cls: PyObject,
        forward: PyObject,
        setup_context: Option<PyObject>,
        fill_defaults_below: usize,
        qualname: String,
        backward: PyObject,
    ) -> Self {
        PyFunctionSpec {
            cls,
            backward_cls,
            forward,
            setup_context,
            fill_defaults_below,
            qualname,
            backward,
        }
    }

    #[getter]
    fn __qualname__(&self) -> &str {
        &self.qualname
    }

    #[getter]
    fn __name__(&self) -> &str {
        &self.qualname
    }

    /// `cls.apply(*args, **kwargs)`.
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        slf: &Bound<'_, Self>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let py = slf.py();
        let spec = slf.get();
        let general = kwargs.is_some_and(|k| !k.is_empty())
            || args.len() < spec.fill_defaults_below
            || FORWARD_AD.load(Ordering::Relaxed);
        if general {
            let kw = kwargs.map_or_else(|| PyDict::new_bound(py), |k| k.clone());
            return hooks(py)?.apply_general.call1(py, (&spec.cls, args, kw));
        }
        _function_apply(py, slf, args)
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.cls)?;
        visit.call(&self.backward_cls)?;
        visit.call(&self.forward)?;
        visit.call(&self.backward)?;
        if let Some(s) = &self.setup_context {
            visit.call(s)?;
        }
        Ok(())
    }
}

/// `Function.apply`: a descriptor whose class access returns the class's
/// `_FunctionSpec` (itself callable as `apply`), so that `MyFn.apply(x)` runs
/// no Python frame of ours. Through `super().apply` in a user's own `apply`
/// classmethod it returns the spec of the class the call started from, as a
/// classmethod would bind that class.
#[pyclass(name = "_ApplyDescriptor", module = "opyard._core", frozen)]
pub struct PyApplyDescriptor;

#[pymethods]
impl PyApplyDescriptor {
    #[new]
    fn new() -> Self {
        PyApplyDescriptor
    }

    fn __get__<'py>(
        &self,
        py: Python<'py>,
        obj: Option<&Bound<'py, PyAny>>,
        objtype: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let cls = match (objtype, obj) {
            (Some(t), _) if !t.is_none() => t.clone(),
            (_, Some(o)) => o.get_type().into_any(),
            _ => {
                return Err(pyo3::exceptions::PyTypeError::new_err(
                    "__get__(None, None) is invalid",
                ))
            }
        };
        cls.getattr(intern!(py, "_apply_spec")).map_err(|_| {
            pyo3::exceptions::PyAttributeError::new_err(format!(
                "{} has no apply: only subclasses of autograd.Function do",
                cls
            ))
        })
    }
}

/// The edge a gradient for tensor `t` (which requires grad) flows into.
fn gradient_edge(t: &Bound<'_, PyAny>) -> PyResult<NodeEdge> {
    if let Some(fn_) = tensor_fields::grad_fn(t)? {
        let nr = tensor_fields::output_nr(t)?;
        return Ok(NodeEdge {
            node: Some(fn_.unbind()),
            nr,
        });
    }
    let acc = super::record::_grad_accumulator(t)?.unbind();
    Ok(NodeEdge {
        node: Some(acc),
        nr: 0,
    })
}

/// Runs `f` with the autograd keys excluded (the no-grad guard), restoring
/// the thread's sets afterwards, also when `f` raised.
fn below_autograd<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    let prev = tls::get();
    let ag = DispatchKeySet::AUTOGRAD_KEYS;
    tls::replace(LocalKeySets {
        included: prev.included - ag,
        excluded: prev.excluded | ag,
    });
    let out = f();
    tls::replace(prev);
    out
}

/// `Function.apply(*args)` without keywords (See Note [Function.apply in Rust]).
#[pyfunction]
pub fn _function_apply(
    py: Python<'_>,
    spec: &Bound<'_, PyFunctionSpec>,
    args: &Bound<'_, PyTuple>,
) -> PyResult<PyObject> {
    let spec = spec.get();
    let h = hooks(py)?;
    let ctx_obj = spec.backward_cls.bind(py).call0()?;
    let ctx = ctx_obj.downcast::<PyNodeBase>()?;
    let mask = autograd_mask();
    let grad_on = !tls::get().excluded.has_any(DispatchKeySet::AUTOGRAD_KEYS);
    let mut edges: SmallVec<[NodeEdge; 1]> = SmallVec::new();
    let mut needs: SmallVec<[bool; 4]> = SmallVec::new();
    for a in args.iter() {
        let requires =
            grad_on && a.is_instance_of::<PyTensorBase>() && tensor_fields::keyset(&a)? & mask != 0;
        if requires {
            edges.push(gradient_edge(&a)?);
        } else {
            let nr = if a.is_instance_of::<PyTensorBase>() {
                0
            } else {
                -1
            };
            edges.push(NodeEdge { node: None, nr });
        }
        needs.push(requires);
    }
    let any_grad = needs.contains(&true);
    let needs = PyTuple::new_bound(py, needs).into_any().unbind();
    {
        let mut node = ctx.borrow_mut();
        node.kind = NodeKind::Function;
        let x = node.extras_mut();
        x.needs_input_grad = Some(needs);
        x.backward = Some(spec.backward.clone_ref(py));
    }
    let output = below_autograd(|| match &spec.setup_context {
        Some(setup) => {
            let out = spec.forward.call1(py, args)?;
            setup.call1(py, (ctx, args, &out))?;
            Ok(out)
        }
        None => {
            let mut call: SmallVec<[PyObject; 4]> = SmallVec::new();
            call.push(ctx_obj.clone().unbind());
            call.extend(args.iter().map(|a| a.unbind()));
            spec.forward.call1(py, PyTuple::new_bound(py, call))
        }
    })?;
    if !any_grad {
        let dirty = ctx.borrow().extras().is_some_and(|x| x.dirty.is_some());
        if dirty {
            h.check_dirty.call1(py, (ctx, args, &output))?;
        }
        return Ok(output);
    }
    let old = ctx.borrow_mut().take_next(edges);
    drop(old);
    let (marked, to_save) = {
        let node = ctx.borrow();
        match node.extras() {
            Some(x) => (
                x.dirty.is_some() || x.non_differentiable.is_some(),
                x.to_save.as_ref().map(|t| t.clone_ref(py)),
            ),
            None => (false, None),
        }
    };
    let out = output.bind(py);
    let saved_type = saved_tensor_type(py);
    if marked
        || !out.is_instance_of::<PyTensorBase>()
        || (to_save.is_some() && saved_type.is_none())
    {
        return h.record_outputs.call1(py, (ctx, args, output));
    }
    let out = if args.iter().any(|a| a.is(out)) {
        h.alias.call1(py, (out,))?.into_bound(py)
    } else {
        out.clone()
    };
    record_single_output(ctx, &out)?;
    if let (Some(to_save), Some(ty)) = (to_save, saved_type) {
        save_tensors(ctx, to_save.bind(py), &out, ty.bind(py))?;
    }
    Ok(out.unbind())
}

/// What `save_for_backward` received, as the node's saved values: one
/// `SavedTensor` (with the version it has now) per entry, None included.
/// A saved output remembers it is output 0 of this node, for torch's message
/// when it is modified in place later.
fn save_tensors(
    ctx: &Bound<'_, PyNodeBase>,
    to_save: &Bound<'_, PyAny>,
    out: &Bound<'_, PyAny>,
    saved_type: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let mut saved: SmallVec<[PyObject; 1]> = SmallVec::new();
    for t in to_save.iter()? {
        let t = t?;
        let is_out = t.is(out);
        let name = if is_out {
            node_name(ctx)
        } else {
            String::new()
        };
        saved.push(saved_type.call1((t, is_out, name, 0))?.unbind());
    }
    let old = {
        let mut node = ctx.borrow_mut();
        node.has_saved = true;
        std::mem::replace(&mut node.saved, saved)
    };
    drop(old);
    Ok(())
}

/// Makes `out` the only output of `ctx` (output number 0), with its dtype
/// kept for materializing a missing gradient.
fn record_single_output(ctx: &Bound<'_, PyNodeBase>, out: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = ctx.py();
    let dtype = attach_output(ctx, out, true)?;
    let dtypes = PyTuple::new_bound(py, [dtype]).into_any().unbind();
    let old = ctx.borrow_mut().extras_mut().out_dtypes.replace(dtypes);
    drop(old);
    Ok(())
}

/// The backward of a `Function` node, run by the engine (Python's
/// `BackwardCFunction.apply`, which direct calls of the node still use):
/// materialize the gradients of unused outputs, call the user's backward,
/// check what it returned (count, types, no gradient for a non-tensor input).
pub fn apply_node(
    node: &Bound<'_, PyNodeBase>,
    mut grads: Vec<Option<PyObject>>,
) -> PyResult<Vec<Option<PyObject>>> {
    let py = node.py();
    let h = hooks(py)?;
    let (backward, materialize, dtypes) = {
        let n = node.borrow();
        let x = n.extras();
        let backward = x.and_then(|x| x.backward.as_ref()).map(|b| b.clone_ref(py));
        let dtypes = x
            .and_then(|x| x.out_dtypes.as_ref())
            .map(|d| d.clone_ref(py));
        (backward, n.materialize_grads, dtypes)
    };
    let backward = backward.ok_or_else(|| {
        PyRuntimeError::new_err("a Function node was recorded without its backward")
    })?;
    if materialize && grads.iter().any(Option::is_none) {
        if let Some(dtypes) = dtypes {
            let shapes = node.getattr(intern!(py, "_out_shapes"))?;
            for (i, g) in grads.iter_mut().enumerate() {
                // A non-tensor output (dtype None) has no gradient: backward gets None, as torch.
                let dt = dtypes.bind(py).get_item(i)?;
                if g.is_none() && !dt.is_none() {
                    *g = Some(h.zeros.call1(py, (shapes.get_item(i)?, dt))?);
                }
            }
        }
    }
    let mut call: SmallVec<[PyObject; 4]> = SmallVec::new();
    call.push(node.clone().into_any().unbind());
    call.extend(grads.into_iter().map(|g| g.unwrap_or_else(|| py.None())));
    let result = backward.call1(py, PyTuple::new_bound(py, call))?;
    let result = result.bind(py);
    let mut items: Vec<Bound<'_, PyAny>> = match result.downcast::<PyTuple>() {
        Ok(t) => t.iter().collect(),
        Err(_) => vec![result.clone()],
    };
    let non_tensor: SmallVec<[bool; 4]> = node
        .borrow()
        .next
        .iter()
        .map(|e| e.node.is_none() && e.nr == -1)
        .collect();
    let n = non_tensor.len();
    if items.len() != n {
        if items.len() > n && items[n..].iter().all(|g| g.is_none()) {
            items.truncate(n);
        } else {
            return Err(PyRuntimeError::new_err(format!(
                "function {} returned an incorrect number of gradients (expected {n}, got {})",
                node_name(node),
                items.len()
            )));
        }
    }
    for (i, g) in items.iter().enumerate() {
        if g.is_none() {
            continue;
        }
        if !g.is_instance_of::<PyTensorBase>() {
            // torch's text is the tail ("expected Variable or None (got int)"); the head says where.
            return Err(PyRuntimeError::new_err(format!(
                "function {} returned an invalid gradient at position {}: expected Variable or \
                 None (got {})",
                node_name(node),
                i + 1,
                g.get_type().name()?
            )));
        }
        if non_tensor[i] {
            return Err(PyRuntimeError::new_err(format!(
                "function {} returned a gradient different than None at position {}, but the \
                 corresponding forward input was not a Variable",
                node_name(node),
                i + 1
            )));
        }
    }
    Ok(items
        .into_iter()
        .map(|g| (!g.is_none()).then(|| g.unbind()))
        .collect())
}

fn node_name(node: &Bound<'_, PyNodeBase>) -> String {
    node.call_method0(intern!(node.py(), "name"))
        .and_then(|n| n.extract::<String>())
        .unwrap_or_else(|_| node.get_type().to_string())
}
