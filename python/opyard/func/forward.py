"""Forward-mode transforms: ``jvp``, ``jacfwd``, ``hessian`` (``jacfwd(jacrev(f))``) and ``linearize``.

Note [Forward transforms under vmap]: a ``jvp`` call is a ``JvpLevel`` on the
transform stack and a forward-AD level of the same number (Note [Forward AD
levels]). Tangents ride on *physical* tensors, as gradients do (Note [Reverse
levels] in ``transforms.py``): each primal and its tangent are brought to their
plain form with one batch dim per active vmap level (one not batched at a level
is expanded there), joined by ``forward_ad.make_dual`` and re-wrapped, so every
batching rule runs its op on a dual tensor and the op's forward formula carries
the tangent of the whole batch in one call. ``jacfwd`` is ``vmap`` over ``jvp``
with the rows of an identity as tangents: the primals are not batched at that
level, so the function runs once on a batch of copies and each copy carries one
basis direction. Levels nest in any order: ``jacfwd(jacfwd(f))``, ``jvp`` of a
``grad`` (the backward pass pushes the tangents) and ``grad`` of a ``jvp`` (a
formula records when its inputs require grad).
"""

import functools

from .. import _core
from .._tensor import Tensor
from ..autograd import forward_ad as fwAD
from ..autograd import transform_levels as levels
from ..autograd.grad_mode import inference_mode
from ..autograd.graph import next_sequence_nr
from ..utils._pytree import tree_flatten, tree_unflatten
from ._checks import check_non_empty_tensor_outputs, error_if_complex, replace_args, slice_argnums, tensors_only
from .batched import BatchedTensor, layer_of, layers, wrap
from .inplace import inplace_guard, input_roots
from .rules.common import aten
from .transforms import from_plain, jacrev, keep_if_outside, standard_basis, to_plain

__all__ = ["hessian", "jacfwd", "jvp", "linearize"]

_JVP = "jvp(f, primals, tangents)"


def _batched_tangent(t, level):
    """The tangent of batched ``t`` at forward ``level`` (that of its physical tensor, re-wrapped),
    for ``Function.apply``."""
    if t.__class__ is not BatchedTensor:
        return NotImplemented
    inner = _batched_tangent(t._value, level)
    tangent = fwAD.tangent_at(t._value, level) if inner is NotImplemented else inner
    return None if tangent is None else wrap(tangent, t._level)


def _set_batched_tangent(t, tangent, level):
    if t.__class__ is not BatchedTensor:
        return NotImplemented
    if tangent.__class__ is not BatchedTensor or tangent._level != t._level:
        tangent = from_plain(to_plain(tangent, [layer_of(t._level)]), [layer_of(t._level)])
    if _set_batched_tangent(t._value, tangent._value, level) is NotImplemented:
        fwAD.set_tangent(t._value, tangent._value, level)
    return None


_zeros_like = aten("zeros_like")
_reshape = aten("reshape")
_movedim = aten("movedim.int")
_split = aten("split_with_sizes")
_squeeze = aten("squeeze.dim")


class _Forward:
    """One forward transform call: its level on the stack and its forward-AD level."""

    def __init__(self):
        self.lv = levels.JvpLevel(levels.new_number(), next_sequence_nr(), _core._next_birth())
        self.vmaps = layers()

    def __enter__(self):
        fwAD.push_level(self.lv.level)
        levels.push(self.lv)
        self._inference = inference_mode(False)
        self._inference.__enter__()
        self._inplace = inplace_guard()  # See Note [Captured tensors]
        self._inplace.__enter__()
        return self

    def __exit__(self, *exc):
        self._inplace.__exit__(*exc)
        self._inference.__exit__(*exc)
        levels.pop(self.lv)
        fwAD.pop_level(self.lv.level)
        self.lv.finish()
        return False

    def dual(self, p, t):
        if tuple(p.shape) != tuple(t.shape):  # checked on the logical shapes (make_dual sees physical ones)
            raise RuntimeError(
                "Trying to set a forward gradient that has a different size than that of the original Tensor, "
                f"this is not supported. Tensor is of size {list(p.shape)} while the given forward gradient "
                f"is of size {list(t.shape)}.")
        d = fwAD.make_dual(to_plain(p, self.vmaps), to_plain(t, self.vmaps))
        return from_plain(d, self.vmaps)

    def unpack(self, o, strict):
        """``(primal, tangent)`` of output ``o`` (torch's ``safe_unpack_dual``)."""
        if not isinstance(o, Tensor):
            raise RuntimeError(f"{_JVP}: expected f(*args) to return only tensors, got unsupported type {type(o)}")
        primal, tangent = fwAD.unpack_dual(to_plain(o, self.vmaps))
        if tangent is None:
            if strict:
                raise RuntimeError("jvp(f, primals, tangents, strict=True): The output of f is independent of the "
                                   "inputs. This is not allowed with strict=True.")
            tangent = _zeros_like(primal)
        # History only where something outside the call differentiates it (Note [Reverse levels]).
        return (keep_if_outside(from_plain(primal, self.vmaps), self.lv),
                keep_if_outside(from_plain(tangent, self.vmaps), self.lv))

    def aux(self, aux):
        flat, spec = tree_flatten(aux)
        for a in flat:
            if not isinstance(a, Tensor):
                raise RuntimeError(f"Expected tensors, got unsupported type {type(a)}")
        return tree_unflatten([keep_if_outside(from_plain(fwAD.unpack_dual(to_plain(a, self.vmaps)).primal,
                                                          self.vmaps), self.lv) for a in flat], spec)


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(func(*primals), J @ tangents)``: the output and its directional derivative, in forward mode.

    Example::

        >>> x, t = opyard.randn(3), opyard.ones(3)
        >>> out, jvp_out = opyard.func.jvp(opyard.sin, (x,), (t,))   # jvp_out == x.cos()
    """
    return _jvp_with_argnums(func, primals, tangents, None, strict=strict, has_aux=has_aux)


def _jvp_with_argnums(func, primals, tangents, argnums, *, strict=False, has_aux):
    """``jvp`` with tangents for ``primals[argnums]`` only (``jacfwd``); messages as ``jvp``'s."""
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals).")
    diff_args = primals if argnums is None else slice_argnums(primals, argnums)
    flat_primals, primals_spec = tree_flatten(diff_args)
    flat_tangents, tangents_spec = tree_flatten(tangents)
    if primals_spec != tangents_spec:
        raise RuntimeError(f"{_JVP}: Expected primals and tangents to have the same python structure. For example, "
                           "if primals is a tuple of 3 tensors, tangents also must be. Got primals with structure "
                           f"{primals_spec} and tangents with structure {tangents_spec}")
    tensors_only(flat_primals, _JVP, "primals")
    tensors_only(flat_tangents, _JVP, "tangents")
    with _Forward() as call:
        call.lv.add_inputs(input_roots(primals))
        duals = tree_unflatten([call.dual(p, t) for p, t in zip(flat_primals, flat_tangents)], primals_spec)
        if argnums is not None:
            duals = replace_args(primals, duals, argnums)
        result = func(*duals)
        aux = None
        if has_aux:
            if not (isinstance(result, tuple) and len(result) == 2):
                raise RuntimeError(f"{_JVP}: output of function f should be a tuple: (output, aux) if has_aux is True")
            result, aux = result
            aux = call.aux(aux)
        flat, spec = tree_flatten(result)
        check_non_empty_tensor_outputs(flat, _JVP)
        pairs = [call.unpack(o, strict) for o in flat]
        out = (tree_unflatten([p for p, _ in pairs], spec), tree_unflatten([t for _, t in pairs], spec))
    return out + (aux,) if has_aux else out


def _unflatten_last(t, shape):
    if len(shape) == 0:
        return _squeeze(t, -1)
    return _reshape(t, tuple(t.shape[:-1]) + tuple(shape))


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian by forward mode: ``vmap`` over ``jvp`` with the basis vectors of the inputs as
    tangents; ``out.shape + arg.shape`` per output and differentiated argument.

    Example::

        >>> opyard.func.jacfwd(opyard.sin)(x)    # diag(x.cos())
    """
    from .vmap import vmap

    @functools.wraps(func)
    def wrapper(*args):
        error_if_complex("jacfwd", args, is_input=True)
        primals = args if argnums is None else slice_argnums(args, argnums)
        flat_primals, primals_spec = tree_flatten(primals)
        tensors_only(flat_primals, _JVP, "primals")
        numels = tuple(p.numel() for p in flat_primals)
        basis = tree_unflatten(next(standard_basis(flat_primals, numels)), primals_spec)

        def push_jvp(basis):
            output = _jvp_with_argnums(func, args, basis, argnums, has_aux=has_aux)
            error_if_complex("jacfwd", output[0], is_input=False)
            return (output[1], output[2]) if has_aux else output[1]

        results = vmap(push_jvp, randomness=randomness)(basis)
        aux = None
        if has_aux:
            results, aux = results
            flat_aux, aux_spec = tree_flatten(aux)
            aux = tree_unflatten([a[0] for a in flat_aux], aux_spec)
        jac_outs, spec = tree_flatten(results)
        per_out = []
        for jac_out in jac_outs:
            moved = _movedim(jac_out, 0, -1)
            pieces = _split(moved, list(numels), -1)
            per_out.append(tree_unflatten([_unflatten_last(piece, tuple(p.shape))
                                           for p, piece in zip(flat_primals, pieces)], primals_spec))
        if isinstance(argnums, int):
            per_out = [blocks[0] for blocks in per_out]
        result = tree_unflatten(per_out, spec)
        return (result, aux) if has_aux else result
    return wrapper


def hessian(func, argnums=0):
    """``jacfwd(jacrev(func))``: the Hessian by forward over reverse, as torch.func.

    Example::

        >>> opyard.func.hessian(lambda x: (x ** 3).sum())(x)   # diag(6 * x)
    """
    return jacfwd(jacrev(func, argnums), argnums)


def linearize(func, *primals):
    """``(func(*primals), jvp_fn)``: ``jvp_fn(*tangents)`` is the Jacobian of ``func`` at ``primals``
    applied to ``tangents`` (checked against the primals' structure, shapes, devices and dtypes).

    Example::

        >>> out, jvp_fn = opyard.func.linearize(opyard.sin, x)
        >>> jvp_fn(opyard.ones_like(x))   # x.cos()
    """
    output = func(*primals)
    _, output_spec = tree_flatten(output)
    flat_primals, primals_spec = tree_flatten(primals)
    # The point of linearization is the primals' values now, whatever happens to them later.
    saved = [p.detach().clone() if isinstance(p, Tensor) else p for p in flat_primals]
    meta = [(p.shape, p.device, p.dtype) for p in saved]

    def jvp_fn(*tangents):
        flat_tangents, tangents_spec = tree_flatten(tangents)
        if tangents_spec != primals_spec:
            raise RuntimeError(f"Expected the tangents {tangents_spec} to have the same argspec as the primals "
                               f"{primals_spec}")
        for idx, t in enumerate(flat_tangents):
            shape, device, dtype = meta[idx]
            if t.shape != shape:
                raise RuntimeError(f"tangent:{idx} with shape {t.shape} in flattened pytree doesn't match the shape "
                                   f"{shape} of the corresponding primal.")
            if t.device != device:
                raise RuntimeError(f"tangent:{idx} with device {t.device} in flattened pytree doesn't match the "
                                   f"device {device} of the corresponding primal.")
            if t.dtype != dtype:
                raise RuntimeError(f"tangent:{idx} with dtype {t.dtype} in flattened pytree doesn't match the dtype "
                                   f"{dtype} of the corresponding primal.")
        out = jvp(func, tree_unflatten(saved, primals_spec), tangents)[1]
        flat_out, _ = tree_flatten(out)
        return tree_unflatten(flat_out, output_spec)

    return output, jvp_fn

from .._exports import public_dir

__dir__ = public_dir(globals())
