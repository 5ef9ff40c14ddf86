"""Small differentiable building blocks the formulas are written with.

Every helper calls ``opyard.ops.aten`` overloads, so a formula run with
``create_graph=True`` records its own graph (double backward).
"""

from ..._ops import ops
from .. import _tensor_meta as meta

A = ops.aten


def is_t(x):
    return meta.is_tensor(x)


def mul(a, b):
    return A.mul.Tensor(a, b) if is_t(b) else A.mul.Scalar(a, b)


def div(a, b):
    return A.div.Tensor(a, b) if is_t(b) else A.div.Scalar(a, b)


def add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return A.add.Tensor(a, b) if is_t(b) else A.add.Scalar(a, b)


def sub(a, b):
    return A.sub.Tensor(a, b) if is_t(b) else A.sub.Scalar(a, b)


def neg(a):
    return A.neg.default(a)


def cj(x):
    """The complex conjugate of a complex tensor or number, else ``x`` itself. torch's formulas follow
    the conjugate Wirtinger convention: the gradient of a holomorphic ``f`` is ``grad * conj(f'(x))``
    (``grad * other.conj()`` for mul); for real data the conjugate is the identity and costs nothing."""
    if is_t(x):
        return A._conj_physical.default(x) if x.dtype.is_complex else x
    return x.conjugate() if type(x) is complex else x


def scale(g, alpha):
    """``g * alpha``, skipping the multiply for alpha == 1."""
    return g if alpha == 1 else A.mul.Scalar(g, alpha)


def lin(*terms):
    """Sum of the non-None terms (a tangent that is None counts as zero)."""
    out = None
    for t in terms:
        if t is not None:
            out = t if out is None else A.add.Tensor(out, t)
    return out


def t_or_none(tangents, i):
    return tangents[i] if tangents is not None else None


def ndim(x):
    return len(x.shape)


def normalize_dims(dims, n):
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        return list(range(n))
    if isinstance(dims, int):
        dims = [dims]
    return sorted(d % n if n else 0 for d in dims)


def expand_reduced(g, shape, dims, keepdim):
    """Broadcast the gradient of a reduction over ``dims`` back to ``shape``."""
    if not keepdim and len(shape) > 0:
        for d in normalize_dims(dims, len(shape)):
            g = A.unsqueeze.default(g, d)
    return A.expand.default(g, list(shape))


def reduced_count(shape, dims):
    n = 1
    for d in normalize_dims(dims, len(shape)):
        n *= shape[d] if shape else 1
    return n


def pad_along(g, dim, before, after, like_shape):
    """``g`` placed at offset ``before`` of a zero tensor of ``like_shape`` along ``dim``."""
    pieces = []
    for n in (before, after):
        if n > 0:
            shape = list(like_shape)
            shape[dim] = n
            pieces.append(A.new_zeros.default(g, shape))
        else:
            pieces.append(None)
    parts = [p for p in (pieces[0], g, pieces[1]) if p is not None]
    return parts[0] if len(parts) == 1 else A.cat.default(parts, dim)


def sum_to_shape(g, shape):
    return meta.sum_to(g, tuple(shape))
