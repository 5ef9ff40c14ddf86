"""Derivatives of indexing, scattering, splitting, fills and the zero-gradient ops."""

import cmath
import math

import numpy as np

from ... import _factories
from ._helpers import A, cj, div, mul, pad_along
from .registry import Formula as F


def _zeros_for(g, shape):
    return A.new_zeros.default(g, list(shape))


def _full_index(index, dim, shape):
    """Coordinates for scatter-adding a tensor of ``shape`` whose ``dim`` coordinate is ``index``."""
    coords = []
    for d, n in enumerate(shape):
        if d == dim:
            coords.append(index)
        else:
            view = [1] * len(shape)
            view[d] = n
            coords.append(A.expand.default(A.view.default(A.arange.default(n), view), list(shape)))
    return coords


def _scatter_add(g, base_shape, dim, index):
    """zeros(base_shape) with ``g`` added at ``index`` along ``dim`` (index has g's shape)."""
    dim = dim % max(len(base_shape), 1)
    coords = _full_index(index, dim, tuple(g.shape))
    return A.index_put.default(_zeros_for(g, base_shape), coords, g, True)


def _gather(grads, a, n):
    """torch's ``gather_backward``: ``zeros_like(self).scatter_add(dim, index, grad)``."""
    g = grads[0]
    return (A.scatter_add.default(_zeros_for(g, a.self.shape), a.dim, a.index, g),)


def _index_select(grads, a, n):
    g = grads[0]
    if not len(a.self.shape):  # a scalar selected from itself
        return (g,)
    dim = a.dim % max(len(a.self.shape), 1)
    view = [1] * len(g.shape)
    view[dim] = -1
    index = A.expand.default(A.view.default(a.index, view), list(g.shape))
    return (_scatter_add(g, a.self.shape, dim, index),)


def _index(grads, a, n):
    g = grads[0]
    return (A.index_put.default(_zeros_for(g, a.self.shape), list(a.indices), g, True),)


def _index_put(grads, a, n):
    g = grads[0]
    indices = list(a.indices)
    gs = None
    if n[0]:
        gs = g if a.accumulate else A.index_put.default(
            g, indices, A.new_zeros.default(g, []), False)
    return gs, (A.index.Tensor(g, indices) if n[1] else None)


def _masked_fill_scalar(grads, a, n):
    g = grads[0]
    return (A.where.self(a.mask, A.zeros_like.default(g), g),)


def _masked_fill_tensor(grads, a, n):
    g = grads[0]
    zero = A.zeros_like.default(g)
    return (A.where.self(a.mask, zero, g) if n[0] else None,
            A.sum.default(A.where.self(a.mask, g, zero)) if n[1] else None)


def _scatter_src(grads, a, n):
    g = grads[0]
    return (A.scatter.value(g, a.dim, a.index, 0) if n[0] else None,
            A.gather.default(g, a.dim, a.index) if n[1] else None)


def _scatter_value(grads, a, n):
    return (A.scatter.value(grads[0], a.dim, a.index, 0),)


def _outer(grads, a, n):
    g = grads[0]
    return (A.sum.dim_IntList(mul(g, cj(A.unsqueeze.default(a.vec2, 0))), [1]) if n[0] else None,
            A.sum.dim_IntList(mul(g, cj(A.unsqueeze.default(a.self, 1))), [0]) if n[1] else None)


def _evenly(grads, a, n):
    """max()/min() of all elements: the gradient is shared by the elements equal to the result
    (a nan result: by the nan elements, as torch's evenly_distribute_backward)."""
    mask = A.logical_or.default(A.eq.Tensor(a.self, a.result),
                                A.logical_and.default(A.isnan.default(a.self), A.isnan.default(a.result)))
    count = A.sum.default(mask)
    g = A.expand.default(div(grads[0], count), list(a.self.shape))
    return (A.where.self(mask, g, A.zeros_like.default(g)),)


def _cumsum(grads, a, n):
    g = grads[0]
    if len(g.shape) == 0:
        return (g,)
    total = A.sum.dim_IntList(g, [a.dim], True)
    return (A.add.Tensor(A.sub.Tensor(total, A.cumsum.default(g, a.dim)), g),)


def _pieces_back(sizes):
    """split/chunk: concatenate the pieces' gradients (zeros for unused pieces)."""

    def back(grads, a, n):
        parts = []
        for g, size in zip(grads, sizes(a)):
            if g is None:
                piece = list(a.self.shape)
                piece[_dim(a)] = size
                g = A.new_zeros.default(_first(grads), piece)
            parts.append(g)
        return (A.cat.default(parts, _dim(a)),)

    return back


def _first(grads):
    return next(g for g in grads if g is not None)


def _dim(a):
    return a.dim % len(a.self.shape)


def _split_sizes(a):
    n = a.self.shape[_dim(a)]
    size = a.split_size
    return [min(size, n - i) for i in range(0, n, size)] if size > 0 else [n]


def _chunk_sizes(a):
    n = a.self.shape[_dim(a)]
    size = math.ceil(n / a.chunks) if a.chunks else n
    return [min(size, n - i) for i in range(0, n, size)] if size > 0 else [n]


def _unbind(grads, a, n):
    dim = _dim(a)
    piece = [s for i, s in enumerate(a.self.shape) if i != dim]
    parts = [g if g is not None else A.new_zeros.default(_first(grads), piece) for g in grads]
    return (A.stack.default(parts, dim),)


def _diagonal(grads, a, n):
    """Place ``g`` back on the diagonal: pad it to the length of dim1, broadcast along dim2,
    keep only the diagonal with a 0/1 mask, and move dim1/dim2 back (all differentiable)."""
    g = grads[0]
    shape = a.self.shape
    nd = len(shape)
    d1, d2 = a.dim1 % nd, a.dim2 % nd
    n1, n2, off = shape[d1], shape[d2], a.offset
    before = max(-off, 0)
    g = pad_along(g, len(g.shape) - 1, before, n1 - before - g.shape[-1], tuple(g.shape[:-1]) + (n1,))
    g = A.expand.default(A.unsqueeze.default(g, -1), list(g.shape) + [n2])
    mask = _factories.tensor(np.eye(n1, n2, k=off), dtype=g.dtype)
    g = mul(g, mask)
    order = [d for d in range(nd) if d not in (d1, d2)] + [d1, d2]
    inverse = [0] * nd
    for i, d in enumerate(order):
        inverse[d] = i
    return (A.permute.default(g, inverse),)


def _zero_grad(grads, a, n):
    return tuple(A.zeros_like.default(grads[0]) if need else None for need in n)


def _div_mode(grads, a, n):
    g = grads[0]
    if a.rounding_mode is not None:
        return _zero_grad(grads, a, n)
    if isinstance(a.other, (int, float)):
        return (div(g, a.other),)
    return (div(g, a.other) if n[0] else None,
            A.neg.default(div(mul(g, a.self), mul(a.other, a.other))) if n[1] else None)


def _pow_scalar(grads, a, n):
    # Scalar log as torch's: log(0) = -inf, log(<0) = nan; base 0 has derivative 0 where exponent >= 0.
    base = a.self
    if type(base) is complex:
        log = cmath.log(base) if base else complex(-math.inf, 0)
    else:
        log = math.log(base) if base > 0 else (-math.inf if base == 0 else math.nan)
    d = cj(A.mul.Scalar(a.result, log))
    if base == 0:
        d = A.where.self(A.ge.Scalar(a.exponent, 0), A.zeros_like.default(d), d)
    return (mul(grads[0], d),)


def _copy(grads, a, n):
    g = grads[0]
    return (A.zeros_like.default(g) if n[0] else None, g if n[1] else None)


_ZERO_OPS = {"aten::round": "RoundBackward0", "aten::sign": "SignBackward0",
             "aten::floor": "FloorBackward0", "aten::ceil": "CeilBackward0"}

def _not_implemented(name):
    """derivatives.yaml's ``not_implemented``: the node records, its backward raises torch's message."""
    def backward(grads, a, n):
        raise RuntimeError(f"derivative for {name} is not implemented")
    return backward


FORMULAS = {
    "aten::gather": F("GatherBackward0", ("self",), _gather, save=("index",)),
    "aten::index_select": F("IndexSelectBackward0", ("self",), _index_select, save=("index",)),
    "aten::index.Tensor": F("IndexBackward0", ("self",), _index, save=("indices",),
                            forward=lambda t, a: A.index.Tensor(t[0], list(a.indices))),
    "aten::index_put": F("IndexPutBackward0", ("self", "values"), _index_put, save=("indices",)),
    "aten::masked_fill.Scalar": F("MaskedFillBackward0", ("self",), _masked_fill_scalar, save=("mask",)),
    "aten::masked_fill.Tensor": F("MaskedFillBackward1", ("self", "value"), _masked_fill_tensor,
                                  save=("mask",)),
    "aten::scatter.src": F("ScatterBackward0", ("self", "src"), _scatter_src, save=("index",)),
    "aten::scatter.value": F("ScatterBackward1", ("self",), _scatter_value, save=("index",)),
    "aten::scatter.reduce": F("NotImplemented", ("self", "src"), _not_implemented("aten::scatter")),
    "aten::scatter.value_reduce": F("NotImplemented", ("self",), _not_implemented("aten::scatter")),
    "aten::outer": F("OuterBackward0", ("self", "vec2"), _outer, save=("self", "vec2"),
                     save_if={"self": "vec2", "vec2": "self"}),
    "aten::max": F("MaxBackward1", ("self",), _evenly, save=("self", "result")),
    "aten::min": F("MinBackward1", ("self",), _evenly, save=("self", "result")),
    "aten::cumsum": F("CumsumBackward0", ("self",), _cumsum,
                      forward=lambda t, a: A.cumsum.default(t[0], a.dim)),
    "aten::split.Tensor": F("SplitBackward0", ("self",), _pieces_back(_split_sizes)),
    "aten::chunk": F("ChunkBackward0", ("self",), _pieces_back(_chunk_sizes)),
    "aten::unbind.int": F("UnbindBackward0", ("self",), _unbind),
    "aten::diagonal": F("DiagonalBackward0", ("self",), _diagonal,
                        forward=lambda t, a: A.diagonal.default(t[0], a.offset, a.dim1, a.dim2)),
    "aten::div.Tensor_mode": F("DivBackward2", ("self", "other"), _div_mode, save=("self", "other"),
                               save_if={"self": "other"}),
    "aten::div.Scalar_mode": F("DivBackward3", ("self",), _div_mode),
    "aten::pow.Scalar": F("PowBackward2", ("exponent",), _pow_scalar, save=("exponent", "result")),
    "aten::copy_": F("CopyBackwards", ("self", "src"), _copy,
                     forward=lambda t, a: t[1] if t[1] is not None else A.zeros_like.default(a.self)),
    "aten::fill_.Scalar": F("FillBackward2", ("self",), _zero_grad),
    "aten::zero_": F("ZeroBackward0", ("self",), _zero_grad),
    "aten::uniform_": F("UniformBackward0", ("self",), _zero_grad),
    "aten::normal_": F("NormalBackward0", ("self",), _zero_grad),
    **{name: F(node, ("self",), _zero_grad) for name, node in _ZERO_OPS.items()},
}

from ..._exports import public_dir

__dir__ = public_dir(globals())
