//! `Function.apply(*args)` without keywords: the ctx node, the forward call
//! and the output's recording (See Note [Function.apply in Rust] in
//! `autograd/function/mod.rs`).

use crate::python::ffi::object::vectorcall;
use crate::python::tensor::base::AsTensorBase;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use smallvec::SmallVec;

use crate::dispatch::tls::{self, LocalKeySets};
use crate::dispatch::DispatchKeySet;
use crate::python::autograd::function::outputs::record_outputs;
use crate::python::autograd::function::PyFunctionSpec;
use crate::python::autograd::node::{Edges, Extras, NodeEdge, NodeKind, PyNodeBase};
use crate::python::autograd::record::{autograd_mask, saved_tensor_type};
use crate::python::dispatch::operator::PyOpOverload;
use crate::python::hooks::hooks;
use crate::python::tensor::fields as tensor_fields;

/// The edge a gradient for tensor `t` (which requires grad) flows into.
fn gradient_edge(t: &Bound<'_, PyAny>) -> PyResult<NodeEdge> {
    if let Some(fn_) = tensor_fields::grad_fn(t)? {
        let nr = tensor_fields::output_nr(t)?;
        return Ok(NodeEdge {
            node: Some(fn_.unbind()),
            nr,
        });
    }
    let acc = crate::python::autograd::record::_grad_accumulator(t)?;
    Ok(NodeEdge {
        node: acc.map(Bound::unbind),
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
    vectorcall(
        callable,
        std::iter::once(first.as_borrowed()).chain(rest.iter_borrowed()),
    )
}

/// The ctx node of one call: a `<Name>Backward` with its fields set at
/// allocation (no `__init__` runs: `BackwardCFunction.__init__` is
/// `object.__init__`).
fn new_ctx<'py>(
    py: Python<'py>,
    spec: &Bound<'py, PyFunctionSpec>,
    needs: &[bool],
    next: Edges,
) -> PyResult<Bound<'py, PyNodeBase>> {
    let mut node = PyNodeBase::empty();
    node.kind = NodeKind::Function;
    node.next = next;
    let mut x = Extras {
        n_inputs: needs.len(),
        function: Some(spec.clone().unbind()),
        ..Extras::default()
    };
    if needs.len() <= 64 {
        x.needs_bits = needs
            .iter()
            .enumerate()
            .fold(0, |b, (i, &n)| b | (u64::from(n) << i));
    } else {
        x.needs_input_grad = Some(PyTuple::new_bound(py, needs).into_any().unbind());
    }
    node.extras = Some(Box::new(x));
    spec.get().backward_cls.new_instance(py, node)
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
            if crate::python::dispatch::custom_op::_outputs_alias(args.as_any(), None, &out)? {
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
            call_setup_context(ctx, setup, full, &out)?;
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

/// `setup_context(ctx, inputs, output)` of a `register_autograd` formula. Note
/// [needs_input_grad in setup_context]: torch's node for a custom op has one more
/// input than the passed arguments (its trailing metadata), and `setup_context`
/// runs while that node is the ctx, so there `needs_input_grad` ends with a
/// `False` for it; `backward` sees the passed arguments only. The Python path
/// (`opyard._library.autograd`) does the same for the nodes it builds.
fn call_setup_context(
    ctx: &Bound<'_, PyNodeBase>,
    setup: &PyObject,
    inputs: Bound<'_, PyTuple>,
    out: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let py = ctx.py();
    let own = crate::python::autograd::node::ctx::needs_input_grad(ctx);
    let own = own.bind(py).downcast::<PyTuple>()?.clone();
    let items: SmallVec<[Bound<'_, PyAny>; 8]> = own
        .iter()
        .chain([false.into_py(py).into_bound(py)])
        .collect();
    let with_meta = PyTuple::new_bound(py, items);
    crate::python::autograd::node::extras::set_extra(ctx, with_meta.into_any().unbind(), |x| {
        &mut x.needs_input_grad
    });
    let result = setup.call1(py, (ctx, inputs, out));
    crate::python::autograd::node::extras::set_extra(ctx, py.None(), |x| &mut x.needs_input_grad);
    result.map(drop)
}

/// torch refuses to save for backward an input that `forward` returned as-is
/// when the Function has `setup_context` (the same text as `function.py`),
/// except (as torch) under grad mode off for an input that requires grad.
fn check_saved_inputs(
    py: Python<'_>,
    ctx: &Bound<'_, PyNodeBase>,
    args: &Bound<'_, PyTuple>,
    output: &Bound<'_, PyAny>,
    grad_on: bool,
    mask: u64,
) -> PyResult<()> {
    let to_save = ctx
        .borrow()
        .extras()
        .and_then(|x| x.to_save.as_ref().map(|o| o.clone_ref(py)));
    let Some(to_save) = to_save else {
        return Ok(());
    };
    let outs: SmallVec<[Bound<'_, PyAny>; 2]> = match output.downcast::<PyTuple>() {
        Ok(t) => t.iter().collect(),
        Err(_) => smallvec::smallvec![output.clone()],
    };
    for saved in to_save.bind(py).iter()? {
        let saved = saved?;
        let requires = saved
            .as_tensor_base()
            .is_some_and(|t| t.get().keys() & mask != 0);
        if !saved.is_none()
            && (grad_on || !requires)
            && args.iter().any(|a| a.is(&saved))
            && outs.iter().any(|o| o.is(&saved))
        {
            return Err(PyRuntimeError::new_err(
                "An input that has been returned as-is as output is being saved for backward. This is \
                 not supported if you override setup_context. You should return and save a view of the \
                 input instead, e.g. with x.view_as(x) or setup ctx inside the forward function itself.",
            ));
        }
    }
    Ok(())
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
    let mut edges: Edges = SmallVec::new();
    // `needs_input_grad`: whether each input requires grad, in grad mode or
    // not (torch's flags are the inputs' `requires_grad`; only the graph
    // depends on grad mode).
    let mut needs: SmallVec<[bool; 8]> = SmallVec::new();
    let mut any_grad = false;
    for a in args.iter() {
        let tensor = a.as_tensor_base();
        let requires = tensor.is_some_and(|t| t.get().keys() & mask != 0);
        needs.push(requires);
        if !grad_on {
            continue;
        }
        any_grad |= requires;
        if requires {
            edges.push(gradient_edge(&a)?);
        } else {
            let nr = if tensor.is_some() { 0 } else { -1 };
            edges.push(NodeEdge { node: None, nr });
        }
    }
    if !any_grad {
        edges.clear();
    }
    // torch sets the edges before forward runs.
    let ctx = new_ctx(py, spec, &needs, edges)?;
    let output = below_autograd(|| run_forward(spec.get(), &ctx, args))?;
    if spec.get().setup_context.is_some() {
        check_saved_inputs(py, &ctx, args, &output, grad_on, mask)?;
    }
    if !any_grad {
        let dirty = ctx.borrow().extras().is_some_and(|x| x.dirty.is_some());
        if dirty {
            h.check_dirty.get(py)?.call1(py, (&ctx, args, &output))?;
        }
        return Ok(output.unbind());
    }
    let (dirty, nondiff, to_save) = {
        let node = ctx.borrow();
        let x = node.extras();
        let get = |pick: fn(&Extras) -> &Option<PyObject>| {
            x.and_then(|x| pick(x).as_ref()).map(|o| o.clone_ref(py))
        };
        (
            x.is_some_and(|x| x.dirty.is_some()),
            get(|x| &x.non_differentiable),
            get(|x| &x.to_save),
        )
    };
    let saved_type = saved_tensor_type(py);
    if !dirty && (to_save.is_none() || saved_type.is_some()) {
        let recorded = record_outputs(
            &ctx,
            args,
            &output,
            nondiff.as_ref().map(|n| n.bind(py)),
            to_save.as_ref().map(|t| t.bind(py)),
            saved_type.map(|t| t.bind(py).as_any()),
            h.alias.bind(py),
        )?;
        if let Some(out) = recorded {
            return Ok(out.unbind());
        }
    }
    // `mark_dirty`, and outputs that are not plain tensors: the Python rules.
    h.record_outputs.get(py)?.call1(py, (&ctx, args, output))
}
