"""Forward-mode transforms: ``jvp``, ``jacfwd`` and ``hessian`` (``jacfwd(jacrev(f))``), on dual tensors.

Note [Forward transforms under vmap]: tangents ride on *physical* tensors, as
gradients do (Note [Transforms under vmap] in ``transforms.py``): each primal
and its tangent are brought to their plain form with one batch dim per active
vmap level (one not batched at a level is expanded there), joined by
``forward_ad.make_dual`` and re-wrapped, so every batching rule runs its op on
a dual tensor and the op's forward formula carries the tangent of the whole
batch in one call. ``jacfwd`` is ``vmap`` over ``jvp`` with the rows of an
identity as tangents: the primals are not batched at that level, so the
function runs once on a batch of copies and each copy carries one basis
direction. Forward AD has one dual level at a time, so forward transforms do
not nest inside each other (``jacfwd(jacfwd(f))`` raises); reverse transforms
nest inside them (``hessian``).
"""

from .._tensor import Tensor
from ..autograd import forward_ad as fwAD
from ..autograd.grad_mode import is_grad_enabled
from ..utils._pytree import tree_flatten, tree_unflatten
from .batched import BatchedTensor, layer_of, layers, wrap
from .rules.common import aten
from .transforms import _argnums, from_plain, jacrev, to_plain

__all__ = ["hessian", "jacfwd", "jvp"]


def _batched_tangent(t):
    """The tangent of batched ``t`` (that of its physical tensor, re-wrapped), for ``Function.apply``."""
    if t.__class__ is not BatchedTensor:
        return NotImplemented
    inner = _batched_tangent(t._value)
    tangent = fwAD.get_tangent(t._value) if inner is NotImplemented else inner
    return None if tangent is None else wrap(tangent, t._level)


def _set_batched_tangent(t, tangent):
    if t.__class__ is not BatchedTensor:
        return NotImplemented
    if tangent.__class__ is not BatchedTensor or tangent._level != t._level:
        tangent = from_plain(to_plain(tangent, [layer_of(t._level)]), [layer_of(t._level)])
    if _set_batched_tangent(t._value, tangent._value) is NotImplemented:
        fwAD.set_tangent(t._value, tangent._value)
    return None


_zeros_like = aten("zeros_like")
_reshape = aten("reshape")
_permute = aten("permute")
_eye = aten("eye")
_to = aten("_to_copy")


def _tensors(flat, what):
    for x in flat:
        if not isinstance(x, Tensor):
            raise RuntimeError(f"jvp(f, primals, tangents): Expected {what} to only contain Tensors, got "
                               f"{type(x)}")


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(func(*primals), J @ tangents)``: the output and its directional derivative, in forward mode.

    Example::

        >>> x, t = opyard.randn(3), opyard.ones(3)
        >>> out, jvp_out = opyard.func.jvp(opyard.sin, (x,), (t,))   # jvp_out == x.cos()

    ``strict`` is accepted for torch.func's signature and, as there, changes nothing.
    """
    if not isinstance(primals, tuple):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it should be valid "
                           "to call f(*primals).")
    flat_p, spec_p = tree_flatten(primals)
    flat_t, spec_t = tree_flatten(tangents)
    if spec_p != spec_t:
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same python "
                           "structure. For example, if primals is a tuple of 3 tensors, tangents also must be. "
                           f"Got primals with structure {spec_p} and tangents with structure {spec_t}")
    _tensors(flat_p, "primals")
    _tensors(flat_t, "tangents")
    for p, t in zip(flat_p, flat_t):
        if tuple(p.shape) != tuple(t.shape):  # checked on the logical shapes (make_dual sees physical ones)
            raise RuntimeError(
                "Trying to set a forward gradient that has a different size than that of the original Tensor, "
                f"this is not supported. Tensor is of size {list(p.shape)} while the given forward gradient "
                f"is of size {list(t.shape)}.")
    active = list(layers())
    plain_p = [to_plain(p, active) for p in flat_p]
    plain_t = [to_plain(t, active) for t in flat_t]
    if is_grad_enabled() and any(p.requires_grad for p in plain_p):
        # Under a reverse transform (``grad`` of a ``jvp``) the tangent must be differentiable in
        # the primals, and forward formulas do not record their own derivatives: refuse rather
        # than return a tangent whose gradient would silently be zero.
        raise NotImplementedError(
            "jvp(f, primals, tangents): the primals require grad (jvp or jacfwd called inside grad, vjp or "
            "jacrev); reverse mode over forward mode is not supported yet. Use forward over reverse "
            "instead (jacfwd(jacrev(f)), as hessian does) or jacrev/vjp for the inner derivative")
    with fwAD.dual_level():
        duals = [from_plain(fwAD.make_dual(p, t), active) for p, t in zip(plain_p, plain_t)]
        out = func(*tree_unflatten(duals, spec_p))
        aux = None
        if has_aux:
            if not (isinstance(out, tuple) and len(out) == 2):
                raise RuntimeError("jvp(f, primals, tangents): output of function f should be a tuple: "
                                   "(output, aux) if has_aux is True")
            out, aux = out
        flat_o, spec_o = tree_flatten(out)
        outs, jvps = [], []
        for o in flat_o:
            if not isinstance(o, Tensor):
                raise RuntimeError("jvp(f, primals, tangents): expected f(*primals) to return only tensors, got "
                                   f"unsupported type {type(o)}")
            primal, tangent = fwAD.unpack_dual(to_plain(o, active))
            if tangent is None:  # the output does not depend on the primals
                tangent = _zeros_like(primal)
            outs.append(from_plain(primal, active))
            jvps.append(from_plain(tangent, active))
    result = (tree_unflatten(outs, spec_o), tree_unflatten(jvps, spec_o))
    return result + (aux,) if has_aux else result


def jacfwd(func, argnums=0, *, randomness="error"):
    """The Jacobian by forward mode: ``vmap`` over ``jvp`` with the basis vectors of the inputs as
    tangents; ``out.shape + arg.shape`` per output and differentiated argument."""
    from .vmap import vmap

    def wrapper(*args, **kwargs):
        nums = _argnums(argnums, len(args), "jacfwd")
        groups = []
        for i in nums:
            flat, spec = tree_flatten(args[i])
            _tensors(flat, "primals")
            groups.append((flat, spec))
        leaves = [x for flat, _ in groups for x in flat]
        sizes = [x.numel() for x in leaves]
        n = sum(sizes)
        eye = _eye(n, dtype=leaves[0].dtype) if n else None
        # Basis tangents, one row per input element: (n,) + leaf.shape for every leaf.
        basis, start = [], 0
        for x, k in zip(leaves, sizes):
            rows = eye[:, start:start + k] if n else _zeros_like(x)
            if rows.dtype != x.dtype:
                rows = _to(rows, dtype=x.dtype)
            basis.append(_reshape(rows, (n,) + tuple(x.shape)))
            start += k

        def substituted(*flat_leaves):
            new, k = list(args), 0
            for i, (flat, spec) in zip(nums, groups):
                new[i] = tree_unflatten(list(flat_leaves[k:k + len(flat)]), spec)
                k += len(flat)
            return func(*new, **kwargs)

        def push(*tangents):
            return jvp(substituted, tuple(leaves), tuple(tangents))[1]

        cols = vmap(push, randomness=randomness)(*basis)  # every output: (n,) + out.shape
        flat_cols, spec_out = tree_flatten(cols)
        result = []
        for c in flat_cols:
            out_shape = tuple(c.shape[1:])
            moved = _permute(c, list(range(1, c.dim())) + [0])  # out.shape + (n,)
            per_arg, s, k = [], 0, 0
            for flat, spec in groups:
                parts = []
                for x in flat:
                    parts.append(_reshape(moved[..., s:s + sizes[k]], out_shape + tuple(x.shape)))
                    s += sizes[k]
                    k += 1
                per_arg.append(tree_unflatten(parts, spec))
            result.append(per_arg[0] if isinstance(argnums, int) else tuple(per_arg))
        return tree_unflatten(result, spec_out)
    return wrapper


def hessian(func, argnums=0):
    """``jacfwd(jacrev(func))``: forward over reverse, as torch.func."""
    return jacfwd(jacrev(func, argnums), argnums)
