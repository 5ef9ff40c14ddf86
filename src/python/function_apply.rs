//! `Function.apply(*args)` without keywords: the ctx node, the forward call
//! and the output's recording (See Note [Function.apply in Rust] in
//! `function.rs`).

use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::GILProtected;
use pyo3::types::{PyString, PyTuple};
use smallvec::SmallVec;
use std::cell::RefCell;

use super::function::{hooks, PyFunctionSpec};
use super::node::{Extras, NodeEdge, NodeKind, OutShapes, PyNodeBase};
use super::ops::PyOpOverload;
use super::record::{attach_output, autograd_bit, autograd_mask, saved_tensor_type};
use super::tensor::{registered, PyTensorBase};
use super::tensor_fields;
use crate::dispatch::tls::{self, LocalKeySets};
use crate::dispatch::DispatchKeySet;

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

/// `callable(first, *rest)` by vectorcall: no argument tuple.
fn call_with_first<'py>(
    callable: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    rest: &Bound<'py, PyTuple>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = callable.py();
    let mut argv: SmallVec<[*mut ffi::PyObject; 6]> = SmallVec::with_capacity(rest.len() + 1);
    argv.push(first.as_ptr());
    argv.extend(rest.iter_borrowed().map(|a| a.as_ptr()));
    // SAFETY: every pointer in `argv` is borrowed from `first` or `rest`, which
    // outlive the call; vectorcall borrows its arguments and returns a new
    // reference or NULL with an exception set.
    unsafe {
        let out = ffi::PyObject_Vectorcall(
            callable.as_ptr(),
            argv.as_ptr(),
            argv.len(),
            std::ptr::null_mut(),
        );
        Bound::from_owned_ptr_or_err(py, out)
    }
}

/// The ctx node of one call: a `<Name>Backward` with its fields set at
/// allocation (no `__init__` runs: `BackwardCFunction.__init__` is
/// `object.__init__`).
fn new_ctx<'py>(
    py: Python<'py>,
    spec: &Bound<'py, PyFunctionSpec>,
    n_inputs: usize,
    next: SmallVec<[NodeEdge; 1]>,
) -> PyResult<Bound<'py, PyNodeBase>> {
    let mut node = PyNodeBase::empty();
    node.kind = NodeKind::Function;
    node.next = next;
    node.extras = Some(Box::new(Extras {
        n_inputs,
        function: Some(spec.clone().unbind()),
        ..Extras::default()
    }));
    let ty = spec.get().backward_cls.bind(py);
    // SAFETY: `ty` is `NodeBase` or a subclass of it (checked when the spec
    // was made), which is what `tp_new_impl` requires of its target type.
    let obj = unsafe { pyo3::impl_::pymethods::tp_new_impl(py, node.into(), ty.as_type_ptr())? };
    // SAFETY: `obj` is a new reference to an instance of `ty`, a `NodeBase`.
    Ok(unsafe { Bound::from_owned_ptr(py, obj).downcast_into_unchecked() })
}

/// Runs the forward (below autograd): the user's `forward(ctx, *args)`, or
/// `forward(*args)` then `setup_context`, or in op mode the operator (See
/// Note [register_autograd in Rust]).
fn run_forward<'py>(
    spec: &PyFunctionSpec,
    ctx: &Bound<'py, PyNodeBase>,
    args: &Bound<'py, PyTuple>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = ctx.py();
    if let Some(op) = &spec.op {
        let overload = op.overload.bind(py);
        let out = match overload.downcast::<PyOpOverload>() {
            // The op's own call path, without its Python call protocol.
            Ok(o) => PyOpOverload::call_reporting(o, args, None, None, &mut None)?.into_bound(py),
            Err(_) => overload.call1(args)?,
        };
        if let Some(check) = &op.check {
            if super::custom_op::_outputs_alias(args.as_any(), None, &out)? {
                check.call1(py, (args, py.None(), &out))?;
            }
        }
        if let Some(setup) = &op.setup {
            let defaults = op.defaults.bind(py);
            let full = if args.len() < defaults.len() {
                let rest = defaults.get_slice(args.len(), defaults.len());
                PyTuple::new_bound(
                    py,
                    args.iter().chain(rest.iter()).collect::<SmallVec<[_; 4]>>(),
                )
            } else {
                args.clone()
            };
            setup.call1(py, (ctx, full, &out))?;
        }
        return Ok(out);
    }
    match &spec.setup_context {
        Some(setup) => {
            let out = spec.forward.bind(py).call1(args)?;
            setup.call1(py, (ctx, args, &out))?;
            Ok(out)
        }
        None => call_with_first(spec.forward.bind(py), ctx.as_any(), args),
    }
}

/// `Function.apply(*args)` without keywords (See Note [Function.apply in Rust]).
#[pyfunction]
pub fn _function_apply(
    py: Python<'_>,
    spec: &Bound<'_, PyFunctionSpec>,
    args: &Bound<'_, PyTuple>,
) -> PyResult<PyObject> {
    let h = hooks(py)?;
    let mask = autograd_mask();
    let grad_on = !tls::get().excluded.has_any(DispatchKeySet::AUTOGRAD_KEYS);
    let mut edges: SmallVec<[NodeEdge; 1]> = SmallVec::new();
    let mut any_grad = false;
    if grad_on {
        for a in args.iter() {
            let tensor = a.downcast::<PyTensorBase>().ok();
            if tensor.is_some_and(|t| t.get().keys() & mask != 0) {
                edges.push(gradient_edge(&a)?);
                any_grad = true;
            } else {
                let nr = if tensor.is_some() { 0 } else { -1 };
                edges.push(NodeEdge { node: None, nr });
            }
        }
    }
    if !any_grad {
        edges.clear();
    }
    // torch sets the edges before forward runs (they are what `needs_input_grad` reads).
    let ctx = new_ctx(py, spec, args.len(), edges)?;
    let output = below_autograd(|| run_forward(spec.get(), &ctx, args))?;
    if !any_grad {
        let dirty = ctx.borrow().extras().is_some_and(|x| x.dirty.is_some());
        if dirty {
            h.check_dirty.call1(py, (&ctx, args, &output))?;
        }
        return Ok(output.unbind());
    }
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
    let saved_type = saved_tensor_type(py);
    if marked
        || !output.is_instance_of::<PyTensorBase>()
        || (to_save.is_some() && saved_type.is_none())
    {
        return h.record_outputs.call1(py, (&ctx, args, output));
    }
    let out = if args.iter().any(|a| a.is(&output)) {
        h.alias.call1(py, (&output,))?.into_bound(py)
    } else {
        output
    };
    record_single_output(&ctx, &out)?;
    if let (Some(to_save), Some(ty)) = (to_save, saved_type) {
        save_tensors(&ctx, to_save.bind(py), &out, ty.bind(py))?;
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
    let py = ctx.py();
    // `save_for_backward` stores a tuple; a list set from Python pays for an iterator.
    let items: SmallVec<[Bound<'_, PyAny>; 2]> = match to_save.downcast::<PyTuple>() {
        Ok(t) => t.iter().collect(),
        Err(_) => to_save.iter()?.collect::<PyResult<_>>()?,
    };
    let mut saved: SmallVec<[PyObject; 1]> = SmallVec::new();
    for t in items {
        let is_out = t.is(out);
        let name = if is_out {
            PyString::new_bound(py, &super::function_backward::node_name(ctx))
        } else {
            intern!(py, "").clone()
        };
        // See Note [SavedTensor by slots].
        let fast = match t.downcast::<PyTensorBase>() {
            Ok(tb) => super::saved_fast::new_saved(saved_type, tb, is_out, &name, 0)?,
            Err(_) => None,
        };
        match fast {
            Some(s) => saved.push(s),
            None => saved.push(saved_type.call1((t, is_out, name, 0))?.unbind()),
        }
    }
    let old = {
        let mut node = ctx.borrow_mut();
        node.has_saved = true;
        std::mem::replace(&mut node.saved, saved)
    };
    drop(old);
    Ok(())
}

/// Whether a dtype is differentiable as a `Function` output (floating point
/// or complex), remembered by the dtype object's identity (dtypes are a few
/// shared objects).
static DIFFERENTIABLE: GILProtected<RefCell<Vec<(PyObject, bool)>>> =
    GILProtected::new(RefCell::new(Vec::new()));

fn differentiable_dtype(dtype: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = dtype.py();
    let hit = DIFFERENTIABLE
        .get(py)
        .borrow()
        .iter()
        .find(|(d, _)| d.as_ptr() == dtype.as_ptr())
        .map(|&(_, f)| f);
    if let Some(f) = hit {
        return Ok(f);
    }
    let mut f = dtype
        .getattr(intern!(py, "is_floating_point"))?
        .is_truthy()?;
    if !f {
        f = dtype
            .getattr(intern!(py, "is_complex"))
            .map_or(Ok(false), |c| c.is_truthy())?;
    }
    let mut cache = DIFFERENTIABLE.get(py).borrow_mut();
    if cache.len() < 32 {
        cache.push((dtype.clone().unbind(), f));
    }
    Ok(f)
}

/// Makes `out` the only output of `ctx` (output number 0), with its dtype
/// kept for materializing a missing gradient. A plain `opyard.Tensor` on a
/// numpy array is read natively (its dtype and sizes are Rust state); other
/// tensors (subclasses may override `dtype`/`shape`) through their attributes.
fn record_single_output(ctx: &Bound<'_, PyNodeBase>, out: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = ctx.py();
    let native = match out.downcast::<PyTensorBase>() {
        Ok(t) if out.get_type().is(registered(py)?.tensor.bind(py)) => {
            let base = t.get();
            match base.with_dims(py, OutShapes::one) {
                Some(shape) => Some((base, shape)),
                None => None,
            }
        }
        _ => None,
    };
    let dtype = match native {
        Some((base, shape)) => {
            let dtype = base.dtype(py)?;
            let old = std::mem::replace(&mut ctx.borrow_mut().shapes, shape);
            drop(old);
            if differentiable_dtype(&dtype)? {
                base.set_history(py, Some(ctx.as_any()), 0);
                let ks = base.keys();
                if ks & autograd_mask() == 0 {
                    base.set_keys(ks | autograd_bit(ks));
                }
            }
            dtype
        }
        None => attach_output(ctx, out, true)?,
    };
    let old = ctx
        .borrow_mut()
        .extras_mut()
        .out_dtype
        .replace(dtype.unbind());
    drop(old);
    Ok(())
}
