"""The backward engine: ``backward`` and ``grad``.

Execution is topological, by dependency counting (not recursion): a node runs
once every node that feeds it a gradient has run; among ready nodes the most
recently created runs first (highest sequence number; ``AccumulateGrad``
first of all), as in torch's engine. With ``inputs`` given, only the part of
the graph that leads to them runs. The pass runs in Rust
(``src/autograd/engine.rs``, driven by ``_core._run_backward``); this module
checks the arguments and holds the Python callbacks the pass uses.

Example::

    >>> x = opyard.ones(3, requires_grad=True)
    >>> (x * x).sum().backward()
    >>> x.grad
    tensor([2., 2., 2.])
"""

import warnings

from .. import _core
from .. import _function_protocol as _fp
from .._ops import ops
from ..dispatcher import DispatchKey, DispatchKeySet
from . import _tensor_meta as meta
from . import transform_levels as _transforms
from .forward_ad import _state as _fw_state
from .grad_mode import _current_state, _grad_state, _no_grad_guard, _set_state, no_grad
from .graph import AccumulateGrad, grad_accumulator, gradient_edge
from .._exports import public_dir

_TensorBase = _core.TensorBase
_BATCHED = DispatchKeySet(DispatchKey.Batched).raw()
_VMAP_MODE = DispatchKeySet(DispatchKey.VmapMode)  # included on the thread while a vmap runs
_AG_MASK = meta.AUTOGRAD_MASK
_ONES_LIKE = ops.aten.ones_like  # See Note [Root gradient through the dispatcher]
_run = _core._run_backward

__all__ = ["backward", "backward_scalar", "grad", "run_backward", "ExecutionEngine"]


def _as_tuple(x, what):
    if x is None:
        return ()
    if meta.is_tensor(x):
        return (x,)
    if isinstance(x, (tuple, list)):
        return tuple(x)
    raise TypeError(f"{what}: expected a Tensor or a sequence of Tensors, got {type(x).__name__}")


def _is_tensor_like(x):
    return meta.is_tensor(x) or _fp.protocol_impl(type(x)) is not None


def _overridable(*groups):
    """torch's ``overridable_args`` of ``backward``/``grad``: the Tensor-likes given (plain tensors
    included, as torch lists them), and whether the function protocol is to be asked: one of them
    takes part in it, or a function mode is active."""
    relevant = tuple(t for g in groups for t in g if _is_tensor_like(t))
    asked = _core._function_state() & _fp.MODE or any(
        not _fp.is_plain_type(type(t)) and _fp.protocol_impl(type(t)) is not None for t in relevant)
    return relevant, asked


def _sequence(x):
    """``x`` as torch's ``grad``/``backward`` normalize it for the protocol; anything else is left to
    the argument checks after it (their messages)."""
    if x is None:
        return ()
    return tuple(x) if isinstance(x, (list, tuple)) else (x,)


def _make_grads(outputs, grads):
    """One root gradient per output: given ones are shape-checked, missing ones are
    ones for scalar outputs."""
    if len(grads) != len(outputs):
        raise RuntimeError("grad can be implicitly created only for scalar outputs" if not grads else
                           f"got {len(outputs)} tensors and {len(grads)} gradients")
    result = []
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if g is None:
            if not meta.requires_grad(out):
                result.append(None)
                continue
            if meta.numel(out) != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if not meta.is_floating(out) or out.dtype.is_complex:
                raise RuntimeError(f"grad can be implicitly created only for real scalar outputs "
                                   f"but got {out.dtype!r}")
            result.append(meta.ones_like(out))
        elif meta.is_tensor(g):
            if meta.shape(g) != meta.shape(out):
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{i}] has a shape of {meta.size_repr(g)} and "
                    f"output[{i}] has a shape of {meta.size_repr(out)}.")
            result.append(g)
        else:
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    return result


def _check_roots(outputs):
    for i, out in enumerate(outputs):
        if not meta.is_tensor(out):
            raise TypeError(f"backward: element {i} of tensors is a {type(out).__name__}, not a Tensor")
        # A view made in no_grad mode requires grad with nothing to receive its gradient.
        if not meta.requires_grad(out) or gradient_edge(out)[0] is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")


# torch's text: the transforms differentiate with their own passes (``grad``, ``vjp``); a pass
# into ``.grad`` inside one has no level to belong to.
IN_TRANSFORM_BACKWARD = (
    "backward() called inside a functorch transform. This is not supported, please use functorch.grad or "
    "functorch.vjp instead or call backward() outside of functorch transforms.")


def _check_not_in_transform():
    if _transforms._tls.levels and _transforms.active():
        raise RuntimeError(IN_TRANSFORM_BACKWARD)


def backward_scalar(t, retain_graph=None):
    """``t.backward()`` for one tensor, no gradient given, no ``inputs``, no create_graph:
    the common ``loss.backward()``, without the general argument handling."""
    _check_not_in_transform()
    # Anything but a floating one-element tensor takes the general path (its checks and
    # messages). See Note [Scalar root shapes].
    if not (t._keyset & _AG_MASK and t.dtype.is_floating_point
            and (t.shape in _SCALAR_SHAPES or meta.numel(t) == 1)):
        return backward(t, None, retain_graph)  # the general path raises torch's message
    fn = t.grad_fn  # a stale view's history regenerated (Note [View history])
    with _no_grad_guard():
        root = _ONES_LIKE.default(t)  # the packet's first use defines it
        if fn is not None:
            _run([(fn, t._output_nr, root)], None, bool(retain_graph), False, True)
        else:
            acc = grad_accumulator(t)
            if acc is None:  # a view made in no_grad mode: nothing receives its gradient
                raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
            _run([(acc, 0, root)], None, bool(retain_graph), False, True)


# Note [Root gradient through the dispatcher]: the implicit root gradient is
# ``aten.ones_like`` called through the dispatcher, as torch's ``_make_grads`` does, so an
# active dispatch mode or a user's CPU kernel for ``ones_like`` sees it. Under the no-grad
# guard the call reaches the Rust ``ones_like`` kernel after ~75 ns of dispatch; calling
# that kernel directly measured no difference on ``plain(xr).sum().backward()`` (9.1-9.5 us
# either way, BENCHMARKS.md "Autograd in Rust"), so the short path keeps the dispatch.

# Note [Scalar root shapes]: ``loss.backward()`` is nearly always on a 0-d tensor; comparing
# the shape with these tuples replaces the Python loop of ``numel`` on that path.
_SCALAR_SHAPES = ((), (1,))


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate d(tensors)/d(leaves) into the leaves' ``.grad`` (or only ``inputs``').

    Tensor-likes and function modes take part in the ``__torch_function__`` protocol (torch's
    ``overridable_args``: the tensors and the inputs)."""
    if not meta.is_tensor(tensors) or inputs is not None:
        seq = _sequence(tensors) if tensors is not None else ()
        ins = () if inputs is None else _sequence(inputs)
        relevant, asked = _overridable(seq, ins)
        if asked:
            out = _core._handle_function_protocol(
                backward, relevant, (seq,), {"grad_tensors": grad_tensors, "retain_graph": retain_graph,
                                             "create_graph": create_graph,
                                             "inputs": ins if inputs is not None else None})
            if out is not NotImplemented:
                return out
    elif _core._function_state() & _fp.MODE or not _fp.is_plain_type(type(tensors)):
        relevant, asked = _overridable((tensors,))
        if asked:
            out = _core._handle_function_protocol(
                backward, relevant, ((tensors,),), {"grad_tensors": grad_tensors, "retain_graph": retain_graph,
                                                    "create_graph": create_graph, "inputs": None})
            if out is not NotImplemented:
                return out
    _check_not_in_transform()
    outputs = _as_tuple(tensors, "backward")
    grads = _as_tuple(grad_tensors, "backward") or (None,) * len(outputs)
    if inputs is not None:
        inputs = _as_tuple(inputs, "backward")
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    _check_roots(outputs)
    root_grads = _make_grads(outputs, list(grads))
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between the "
            "parameter and its gradient which can cause a memory leak. We recommend using "
            "autograd.grad when creating the graph to avoid this. If you have to use this function, "
            "make sure to reset the .grad fields of your parameters to None after use to break the "
            "cycle and avoid the leak.", UserWarning, stacklevel=3)
    run_backward(outputs, root_grads, retain_graph, create_graph, inputs, accumulate=True)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of ``outputs`` with respect to ``inputs`` (nothing is accumulated)."""
    if is_grads_batched:
        raise NotImplementedError("grad(is_grads_batched=True) needs vmap over the backward pass; "
                                  "loop over the batch of grad_outputs instead")
    if allow_unused is None:
        allow_unused = materialize_grads
    elif materialize_grads and not allow_unused:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    if not (meta.is_tensor(outputs) and meta.is_tensor(inputs) and _fp.is_plain_type(type(outputs))
            and _fp.is_plain_type(type(inputs)) and not _core._function_state() & _fp.MODE):
        outs_seq, ins_seq = _sequence(outputs), _sequence(inputs)
        relevant, asked = _overridable(outs_seq, ins_seq)
        if asked:
            out = _core._handle_function_protocol(
                grad, relevant, (outs_seq, ins_seq),
                {"grad_outputs": grad_outputs, "retain_graph": retain_graph, "create_graph": create_graph,
                 "only_inputs": only_inputs, "allow_unused": allow_unused, "is_grads_batched": is_grads_batched,
                 "materialize_grads": materialize_grads})
            if out is not NotImplemented:
                return out
    single = meta.is_tensor(inputs)
    outs = _as_tuple(outputs, "grad")
    ins = _as_tuple(inputs, "grad")
    if not ins:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grads = _as_tuple(grad_outputs, "grad") or (None,) * len(outs)
    if _core._is_included(_VMAP_MODE) and any(t._keyset & _BATCHED for t in outs + ins if meta.is_tensor(t)):
        # Inside ``vmap``: the graph is recorded on the physical tensors (``opyard.func``, a higher
        # layer: ``Hooks.batched_autograd_grad`` differentiates those and wraps the results back).
        result = _core._hooks().batched_autograd_grad(
            grad, outs, ins, grads, dict(retain_graph=retain_graph, create_graph=create_graph,
                                         allow_unused=allow_unused, materialize_grads=materialize_grads))
        return tuple(result) if not single or len(result) != 1 else (result[0],)
    _check_roots(outs)
    for t in ins:
        if not meta.is_tensor(t):
            raise TypeError(f"grad: inputs must be Tensors, got {type(t).__name__}")
        if not meta.requires_grad(t):
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    root_grads = _make_grads(outs, list(grads))
    if retain_graph is None:
        retain_graph = create_graph
    result = run_backward(outs, root_grads, retain_graph, create_graph, ins, accumulate=False)
    for i, (t, g) in enumerate(zip(ins, result)):
        if g is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in the "
                    "graph. Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:
                result[i] = meta.zeros_like(t)
    return tuple(result) if not single or len(result) != 1 else (result[0],)


def run_backward(outputs, root_grads, keep_graph, create_graph, inputs=None, accumulate=True):
    """Run the graph from ``outputs``; returns the captured gradients of ``inputs`` (if any).

    The pass itself (dependency counts, ready queue, input buffers) runs in
    ``_core._run_backward``; it calls back into the nodes' ``apply``, the hooks
    and ``_validate`` below."""
    roots = []
    for o, g in zip(outputs, root_grads):
        if g is not None:
            node, nr = gradient_edge(o)
            roots.append((node, nr, g))
    targets = None if inputs is None else [gradient_edge(t) for t in inputs]
    if not create_graph:
        # Under forward AD the pass still pushes tangents (forward over reverse): grad mode off
        # then is ``no_grad``'s flag, not the exclusion of the autograd keys.
        with _no_grad_guard() if not _fw_state.levels else no_grad():
            results = _core._run_backward(roots, targets, keep_graph, False, accumulate)
    else:
        prev = _current_state()
        _set_state(_grad_state(True))
        try:
            results = _core._run_backward(roots, targets, keep_graph, True, accumulate)
        finally:
            _set_state(prev)
    if accumulate and inputs:
        _accumulate_non_leaf_inputs(inputs, results)
    return results


def _accumulate_non_leaf_inputs(inputs, results):
    for t, g in zip(inputs, results):
        if g is not None and t._grad_fn is not None:
            meta.accumulate_grad(t, g)


def _call_tensor_pre_hooks(node, grads):
    """The hooks of the tensors whose gradients arrive at ``node`` (a leaf's own, at its
    ``AccumulateGrad``) and ``retain_grad``'s: what runs for a node whose gradients ``grad()``
    captures without running it (Note [Captured gradients] in src/autograd/engine.rs)."""
    grads = _run_tensor_hooks(node, grads)
    if isinstance(node, AccumulateGrad) and grads and grads[0] is not None:
        hooks = node.variable._backward_hooks
        if hooks:
            for hook in tuple(hooks.values()):
                new = hook(grads[0])
                if new is not None:
                    grads[0] = _hooked_grad(hook, new, grads[0])
    return grads


def _call_pre_hooks(node, grads):
    grads = _run_tensor_hooks(node, grads)
    if node._pre_hooks:
        for hook in tuple(node._pre_hooks.values()):
            new = hook(tuple(grads))
            if new is not None:
                grads = _hooked_grads(hook, new, grads)
    return grads


def _run_tensor_hooks(node, grads):
    tensor_hooks = node._tensor_pre_hooks
    if tensor_hooks:
        for nr, hooks in tensor_hooks.items():
            for hook in tuple(hooks.values()):
                if grads[nr] is not None:
                    new = hook(grads[nr])
                    if new is not None:
                        grads[nr] = _hooked_grad(hook, new, grads[nr])
    retains = node._retains_grad_hooks
    if retains:
        for nr, ref in tuple(retains.items()):
            t = ref()
            if t is not None and grads[nr] is not None:
                meta.retain_grad_update(t, grads[nr])
    return grads


def _hooked_grad(hook, g, old):
    """A tensor hook's replacement gradient, checked as torch checks it (type, then size)."""
    if not isinstance(g, _TensorBase):
        raise TypeError(f"expected Variable, but hook returned '{type(g).__name__}'")
    if old is None:
        return g
    name = getattr(hook, "__name__", type(hook).__name__)
    if meta.type_string(g) != meta.type_string(old):
        raise RuntimeError(f"hook '{name}' has changed the type of value (was {meta.type_string(old)} "
                           f"got {meta.type_string(g)})")
    if meta.shape(g) != meta.shape(old):
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    return g


def _hooked_grads(hook, new, grads):
    """A node pre-hook's replacement gradients: a tuple of ``n`` tensors or Nones."""
    if not isinstance(new, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(new).__name__}'")
    n = len(grads)
    if len(new) != n:
        name = getattr(hook, "__name__", type(hook).__name__)
        raise RuntimeError(f"hook '{name}' has returned an incorrect number of values "
                           f"(got {len(new)}, but expected {n})")
    for g, old in zip(new, grads):
        if g is not None:
            _hooked_grad(hook, g, old)
    return list(new)


def _call_post_hooks(node, outputs, grads):
    for hook in tuple(node._post_hooks.values()):
        new = hook(outputs, grads)
        if new is not None:
            outputs = new
    return list(outputs)


def _validate(node, i, g, nxt, nr, dtype=None):
    """Check the gradient ``node`` returned at index ``i`` for input ``nr`` of ``nxt`` as torch's engine
    does: a broadcast is summed back to the input's shape, and the gradient is cast to the input's
    ``dtype`` (None: not recorded). See Note [Gradient dtypes] in src/python/autograd.rs."""
    expected = tuple(nxt._out_shapes[nr])
    got = meta.shape(g)
    if got != expected:
        if not meta.can_sum_to(got, expected):
            raise RuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {i} - got "
                f"{list(got)} but expected shape compatible with {list(expected)}")
        g = meta.sum_to(g, expected)
    if dtype is not None and g.dtype is not dtype:
        if g.dtype.is_complex and not dtype.is_complex and getattr(node, "formula", None) is not None:
            # A built-in formula's gradient for a real input of a complex result: its real part
            # (torch's formulas take it, ``handle_r_to_c``; here once for all of them).
            g = ops.aten.real.default(g)
        elif g.dtype.is_complex and not dtype.is_complex:
            raise RuntimeError(
                "Expected isFloatingType(grad.scalar_type()) || (input_is_complex == grad_is_complex) to be "
                f"true, but got false. (Function {node.name()} returned a {g.dtype} gradient at index {i} for "
                f"a {dtype} input: a real input's gradient is real)")
        if g.dtype is not dtype:
            g = ops.aten._to_copy.default(g, dtype=dtype)
    return g


class _EngineBase:
    """torch's ``Variable._execution_engine``: the backward engine's raw entry points, as
    libraries reach them (``queue_callback`` to run code when the pass ends, ``run_backward``)."""

    __slots__ = ()

    def run_backward(self, tensors, grad_tensors, keep_graph, create_graph, inputs=(), allow_unreachable=False,
                     accumulate_grad=False):
        """Run backward from ``tensors`` with ``grad_tensors`` (one per tensor); with ``inputs``,
        only towards them. Returns their gradients when not ``accumulate_grad``, else None."""
        outputs = tuple(tensors)
        grads = tuple(grad_tensors)
        inputs = tuple(inputs) if inputs is not None else ()
        if not accumulate_grad and not inputs:
            raise RuntimeError("run_backward(accumulate_grad=False) needs inputs: grad requires non-empty inputs.")
        _check_roots(outputs)
        if len(grads) != len(outputs):
            raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
        for i, (out, g) in enumerate(zip(outputs, grads)):
            if g is None and meta.requires_grad(out):
                raise RuntimeError(f"element {i} of gradients tuple is None, but the corresponding Tensor "
                                   "requires grad")
        results = run_backward(outputs, list(grads), keep_graph, create_graph, inputs or None,
                               accumulate=accumulate_grad)
        if accumulate_grad:
            return None
        if not allow_unreachable:
            for i, g in enumerate(results):
                if g is None:
                    raise RuntimeError(
                        f"The differentiated Tensor at index {i} appears to not have been used in the "
                        "graph. Set allow_unused=True if this is the desired behavior.")
        return tuple(results)

    def queue_callback(self, callback):
        """Run ``callback()`` when the backward pass running on this thread ends (See Note
        [Final callbacks] in src/python/autograd/final_callbacks.rs); outside one it raises."""
        _core._queue_final_callback(callback)

    def is_checkpoint_valid(self):
        """False while a backward pass towards given inputs runs (``autograd.grad``)."""
        return _core._checkpoint_valid()


ExecutionEngine = _EngineBase
execution_engine = _EngineBase()

__dir__ = public_dir(globals())
