"""``opyard.autograd.functional``: Jacobians, Hessians and their products of a function of tensors,
computed with ``autograd.grad`` (torch's ``torch.autograd.functional``, same options and messages).

Example::

    >>> from opyard.autograd.functional import jacobian, hvp
    >>> jacobian(lambda x: x.exp().sum(0), opyard.ones(2, 2))      # shape (2, 2, 2)
    >>> hvp(lambda x: (x ** 3).sum(), opyard.ones(3), opyard.ones(3))   # (3., tensor([6., 6., 6.]))

Every function makes fresh differentiable copies of its inputs (``requires_grad_``, so calling one
inside an ``opyard.func`` transform raises, as torch's), runs ``func`` with grad mode on and
differentiates the outputs. ``jvp`` and ``hvp`` use the double-backward trick (the backward pass is
linear in its incoming gradient, so differentiating it with respect to that gradient gives the
forward product), as torch's. ``vectorize=True`` maps the backward pass over the rows of an identity
with ``opyard.func``'s legacy vmap (``strategy="forward-mode"``: the forward pass over its columns),
a higher layer reached through ``Hooks.legacy_vmap``.
"""

from .. import _core
from .._ops import resolve
from .._tensor import Tensor
from . import _tensor_meta as meta
from . import forward_ad as fwAD
from .engine import grad as _grad
from .grad_mode import enable_grad, is_grad_enabled, set_grad_enabled

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]

_stack_op = resolve("aten::stack")


def _as_tuple(x, arg_name, fn_name):
    """``(was_tuple, tuple of tensors)`` with torch's type checks."""
    was_tuple = isinstance(x, tuple)
    items = x if was_tuple else (x,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            where = f"value at index {i} has type {type(el)}" if was_tuple else \
                f"given {arg_name} has type {type(el)}"
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but the "
                            f"{where}.")
    return was_tuple, items


def _unpack(res, was_tuple):
    """Invert ``_as_tuple``: one flag, or (outer, inner) flags for a tuple of tuples."""
    if isinstance(was_tuple, tuple):
        outer, inner = was_tuple
        if not inner:
            res = tuple(r[0] for r in res)
        return res if outer else res[0]
    return res if was_tuple else res[0]


def _differentiable(inputs, create_graph, need_graph):
    """New tensor objects for ``inputs``: aliases keeping history when the caller wants a graph back,
    else detached copies that require grad when ``need_graph``."""
    out = []
    for t in inputs:
        if create_graph and t.requires_grad:
            out.append(t.view_as(t))
        else:
            out.append(t.detach().requires_grad_(need_graph))
    return tuple(out)


def _plain(items, create_graph):
    if not items or isinstance(items[0], Tensor):
        return items if create_graph else tuple(t.detach() for t in items)
    return tuple(_plain(t, create_graph) for t in items)


def _check_v(v, other, other_was_tuple):
    if len(other) != len(v):
        if other_was_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (a, b) in enumerate(zip(v, other)):
        if a.size() != b.size():
            prefix = f"Entry {idx} in " if other_was_tuple else ""
            raise RuntimeError(f"{prefix}v has invalid size: should be {b.size()} but got {a.size()}.")


_STRICT_NO_GRAD = {
    "hessian": ("The hessian of the user-provided function with respect to input {i} is independent of the input. "
                "This is not allowed in strict mode. You should ensure that your function is thrice differentiable "
                "and that the hessian depends on the inputs."),
    "jacobian": ("While computing the hessian, found that the jacobian of the user-provided function with respect "
                 "to input {i} is independent of the input. This is not allowed in strict mode. You should ensure "
                 "that your function is twice differentiable and that the jacobian depends on the inputs (this would "
                 "be violated by a linear function for example)."),
    "grad_inputs": ("The gradient with respect to input {i} is independent of the inputs of the user-provided "
                    "function. This is not allowed in strict mode."),
    "outputs": ("Output {i} of the user-provided function does not require gradients. The outputs must be computed "
                "in a differentiable manner from the input when running in strict mode."),
}


def _check_requires_grad(items, kind, strict):
    if not strict:
        return
    for i, t in enumerate(items):
        if t is None:
            raise RuntimeError(f"The output of the user-provided function is independent of input {i}. This is not "
                               "allowed in strict mode.")
        if not t.requires_grad:
            raise RuntimeError(_STRICT_NO_GRAD[kind].format(i=i))


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """``autograd.grad`` over the outputs that require grad; ``None`` per input when none does."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return _grad(tuple(o for o, _ in pairs), inputs, tuple(g for _, g in pairs), allow_unused=True,
                 create_graph=create_graph, retain_graph=retain_graph)


_STAGE_NONE = {
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in strict mode.",
    "back_trick": ("The gradient with respect to the input is independent of entry {i} in the grad_outputs when using "
                   "the double backward trick to compute forward mode gradients. This is not allowed in strict mode."),
    "double_back": ("The jacobian of the user-provided function is independent of input {i}. This is not allowed in "
                    "strict mode."),
    "double_back_trick": ("The hessian of the user-provided function is independent of entry {i} in the grad_jacobian. "
                          "This is not allowed in strict mode as it prevents from using the double backward trick to "
                          "replace forward mode AD."),
}


def _zeros_for_none(grads, refs, strict, create_graph, stage):
    """``None`` gradients as zeros (or torch's strict-mode errors)."""
    out = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_STAGE_NONE[stage].format(i=i))
            g = meta.zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. This is not "
                               "allowed in strict mode when create_graph=True.")
        out.append(g)
    return tuple(out)


def _grad_enabled_for(create_graph):
    return True if create_graph else is_grad_enabled()


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T J)``: the vector-Jacobian product of ``func`` at ``inputs``."""
    with enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _differentiable(inputs, create_graph, True)
        outputs = func(*inputs)
        outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict)
        if v is not None:
            _, v = _as_tuple(v, "v", "vjp")
            v = _differentiable(v, create_graph, False)
            _check_v(v, outputs, outputs_tuple)
        elif len(outputs) != 1 or outputs[0].nelement() != 1:
            raise RuntimeError("The vector v can only be None if the user-provided function returns a single Tensor "
                               "with a single element.")
    with set_grad_enabled(_grad_enabled_for(create_graph)):
        res = _zeros_for_none(_autograd_grad(outputs, inputs, v, create_graph=create_graph), inputs, strict,
                              create_graph, "back")
    return _unpack(_plain(outputs, create_graph), outputs_tuple), _unpack(_plain(res, create_graph), inputs_tuple)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J v)``: the Jacobian-vector product, by the double-backward trick."""
    with enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _differentiable(inputs, create_graph, True)
        if v is not None:
            _, v = _as_tuple(v, "v", "jvp")
            v = _differentiable(v, create_graph, False)
            _check_v(v, inputs, inputs_tuple)
        elif len(inputs) != 1 or inputs[0].nelement() != 1:
            raise RuntimeError("The vector v can only be None if the input to the user-provided function is a single "
                               "Tensor with a single element.")
        outputs = func(*inputs)
        outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict)
        # The backward pass is linear in these: any finite value does (zeros).
        grad_outputs = tuple(meta.zeros_like(o).requires_grad_(True) for o in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with enable_grad() if create_graph else _Null():
        res = _zeros_for_none(_autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph), outputs,
                              strict, create_graph, "back_trick")
    return _unpack(_plain(outputs, create_graph), outputs_tuple), _unpack(_plain(res, create_graph), outputs_tuple)


class _Null:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _basis(tensors, numels):
    """The identity of size ``sum(numels)``, its columns split per tensor (``(total, numel)`` each)."""
    total = sum(numels)
    out = []
    start = 0
    for t, n in zip(tensors, numels):
        block = t.new_zeros(total, n)
        block.diagonal(-start).fill_(1)
        out.append(block)
        start += n
    return tuple(out)


def _vmap():
    return _core._hooks().legacy_vmap


def _jacobian_forward(func, inputs, strict, vectorize):
    if strict:
        raise RuntimeError('opyard.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are not '
                           'supported together (yet). Please either set `strict=False` or `strategy="reverse-mode"`.')
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                  "only implemented for `vectorize=True`.")
    numels = tuple(t.numel() for t in inputs)
    info = []

    def push(tangents):
        with fwAD.dual_level():
            duals = tuple(fwAD.make_dual(t, d.view_as(t)) for t, d in zip(inputs, tangents))
            outputs_tuple, outs = _as_tuple(func(*duals), "outputs", None)
            info.append(outputs_tuple)
            primals, jv = [], []
            for o in outs:
                p, d = fwAD.unpack_dual(o)
                primals.append(p)
                jv.append(d if d is not None else meta.zeros_like(p))
            info.append(primals)
            return tuple(jv)

    stacked = _vmap()(push)(_basis(inputs, numels))
    outputs_tuple, outputs = info[0], info[1]
    per_out = []
    for jac_o, out in zip(stacked, outputs):
        row = []
        for jac, inp in zip(jac_o.split(numels, dim=0), inputs):
            row.append(jac.permute(*range(1, jac.ndim), 0).reshape((*out.shape, *inp.shape)))
        per_out.append(row)
    return _unpack(per_out, (outputs_tuple, inputs_tuple))


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: one tensor per (output, input) pair, shaped
    ``output.shape + input.shape`` (tuples as the function's outputs and ``inputs`` are)."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function '
                             'has more outputs than inputs, "forward-mode" tends to be more performant. Otherwise, '
                             'prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError('opyard.autograd.functional.jacobian: `create_graph=True` and '
                                      '`strategy="forward-mode"` are not supported together (yet). Please either set '
                                      '`create_graph=False` or `strategy="reverse-mode"`.')
        return _jacobian_forward(func, inputs, strict, vectorize)
    with enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _differentiable(inputs, create_graph, True)
        outputs = func(*inputs)
        outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict)
        if vectorize:
            if strict:
                raise RuntimeError("opyard.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
                                   "supported together. Please either set `strict=False` or `vectorize=False`.")
            result = _jacobian_vectorized(outputs, inputs, create_graph)
        else:
            result = tuple(_jacobian_rows(i, out, inputs, create_graph, strict) for i, out in enumerate(outputs))
        return _unpack(_plain(result, create_graph), (outputs_tuple, inputs_tuple))


def _jacobian_rows(i, out, inputs, create_graph, strict):
    """The Jacobian of output ``out`` (number ``i``): one backward pass per element."""
    rows = [[] for _ in inputs]
    flat = out.reshape(-1)
    for j in range(out.nelement()):
        got = _autograd_grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
        for k, (g, inp) in enumerate(zip(got, inputs)):
            if g is not None:
                if strict and create_graph and not g.requires_grad:
                    raise RuntimeError(f"The jacobian of the user-provided function is independent of input {i}. This "
                                       "is not allowed in strict mode when create_graph=True.")
                rows[k].append(g)
            else:
                if strict:
                    raise RuntimeError(f"Output {i} of the user-provided function is independent of input {k}. This is "
                                       "not allowed in strict mode.")
                rows[k].append(meta.zeros_like(inp))
    return tuple(_stack(r, inputs[k]).view(out.size() + inputs[k].size()) for k, r in enumerate(rows))


def _stack(rows, like):
    if rows:
        return _stack_op(rows, 0)
    return like.new_zeros((0,) + tuple(like.shape))


def _jacobian_vectorized(outputs, inputs, create_graph):
    """All rows in one backward pass mapped over the rows of the identity (``vectorize=True``)."""
    numels = tuple(o.numel() for o in outputs)
    total = sum(numels)
    flat_outputs = tuple(o.reshape(-1) for o in outputs)

    def rows(*grad_outputs):
        got = _autograd_grad(flat_outputs, inputs, grad_outputs, create_graph=create_graph, retain_graph=True)
        return tuple(meta.zeros_like(inp) if g is None else g for g, inp in zip(got, inputs))

    per_input = _vmap()(rows)(*_basis(outputs, numels))
    per_input = [r if r.shape[0] == total else r.expand((total,) + tuple(inp.shape))
                 for r, inp in zip(per_input, inputs)]
    by_input = [[jac.view(o.shape + inp.shape) for jac, o in zip(r.split(numels, dim=0), outputs)]
                for r, inp in zip(per_input, inputs)]
    return tuple(zip(*by_input))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function at ``inputs`` (a tuple of tuples for several inputs)."""
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def single_output(*inp):
        out = func(*inp)
        out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(t_out, "outputs", strict)
        if out_tuple or not isinstance(out, Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def jac_func(*inp):
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(single_output, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                   strategy=outer_jacobian_strategy)
    return _unpack(res, (inputs_tuple, inputs_tuple))


def _hessian_setup(func, inputs, v, create_graph, strict, api):
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", api)
    inputs = _differentiable(inputs, create_graph, True)
    if v is not None:
        _, v = _as_tuple(v, "v", api)
        v = _differentiable(v, create_graph, False)
        _check_v(v, inputs, inputs_tuple)
    elif len(inputs) != 1 or inputs[0].nelement() != 1:
        raise RuntimeError("The vector v can only be None if the input to the user-provided function is a single "
                           "Tensor with a single element.")
    outputs = func(*inputs)
    outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", api)
    _check_requires_grad(outputs, "outputs", strict)
    if outputs_tuple or not isinstance(outputs[0], Tensor):
        raise RuntimeError(f"The function given to {api} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {api} should contain a single element")
    jac = _autograd_grad(outputs, inputs, create_graph=True)
    _check_requires_grad(jac, "jacobian", strict)
    return inputs_tuple, inputs, v, outputs_tuple, outputs, jac


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T H)``: the vector-Hessian product of a scalar function."""
    with enable_grad():
        inputs_tuple, inputs, v, outputs_tuple, outputs, jac = _hessian_setup(func, inputs, v, create_graph, strict,
                                                                              "vhp")
    with set_grad_enabled(_grad_enabled_for(create_graph)):
        res = _zeros_for_none(_autograd_grad(jac, inputs, v, create_graph=create_graph), inputs, strict, create_graph,
                              "double_back")
    return _unpack(_plain(outputs, create_graph), outputs_tuple), _unpack(_plain(res, create_graph), inputs_tuple)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H v)``: the Hessian-vector product of a scalar function (double-backward trick)."""
    with enable_grad():
        inputs_tuple, inputs, v, outputs_tuple, outputs, jac = _hessian_setup(func, inputs, v, create_graph, strict,
                                                                              "hvp")
        grad_jac = tuple(meta.zeros_like(t).requires_grad_(True) for t in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict)
    with set_grad_enabled(_grad_enabled_for(create_graph)):
        res = _zeros_for_none(_autograd_grad(double_back, grad_jac, v, create_graph=create_graph), inputs, strict,
                              create_graph, "double_back_trick")
    return _unpack(_plain(outputs, create_graph), outputs_tuple), _unpack(_plain(res, create_graph), inputs_tuple)

from .._exports import public_dir

__dir__ = public_dir(globals())
