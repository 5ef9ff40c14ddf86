"""Batching rules of the matrix products: every one is a single physical ``matmul``.

``mm``, ``bmm``, ``mv``, ``dot`` and ``matmul`` check the logical ranks as the op
would, then: vectors become matrices (``unsqueeze``), batched operands are padded
to a common logical rank so the batch dim broadcasts ahead of every other batch
dim, unbatched operands broadcast as they are, and the added dims are squeezed
out of the product. ``outer``, ``addmm`` and ``linear`` are written with logical
ops on the batched tensors (their rules then run).
"""

from .common import BatchedTensor, aten, pad_to, wrap

__all__ = ["RULES", "addmm_rule", "linear_rule", "matmul_rule", "outer_rule", "product_rule"]

_matmul = aten("matmul")
_unsqueeze = aten("unsqueeze")
_squeeze_dim = aten("squeeze.dim")
_mul = aten("mul.Tensor")
_mm = aten("mm")
_bmm = aten("bmm")
_t = aten("t")
_reshape = aten("reshape")
_add = aten("add.Tensor")


def _operand(x, level):
    if x.__class__ is BatchedTensor and x._level == level:
        return x._value, True
    return x, False


def batched_matmul(a, b, level):
    """``matmul(a, b)`` of logical tensors, one physical call."""
    ra, rb = a._data.ndim, b._data.ndim
    if ra == 0 or rb == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {ra}D and {rb}D")
    pa, ba = _operand(a, level)
    pb, bb = _operand(b, level)
    fast = _fast_product(pa, ba, ra, pb, bb, rb)
    if fast is not None:
        return wrap(fast, level)
    vec_a, vec_b = ra == 1, rb == 1
    if vec_a:
        pa = _unsqueeze(pa, -2)
        ra = 2
    if vec_b:
        pb = _unsqueeze(pb, -1)
        rb = 2
    rank = max(ra, rb)
    if ba and bb and rank == 2:
        # Matrices (vectors made matrices) of every example: the one ``bmm`` ``matmul`` folds them into,
        # without its no-op expand and reshapes; the vectors' dims dropped by one view.
        out = _bmm(pa, pb)
        if vec_a or vec_b:
            b, n, m = out.shape
            out = _reshape(out, (b,) if vec_a and vec_b else (b, n) if vec_b else (b, m))
        return wrap(out, level)
    if ba:
        pa = pad_to(pa, ra, rank)
    if bb:
        pb = pad_to(pb, rb, rank)
    out = _matmul(pa, pb)
    if vec_b:
        out = _squeeze_dim(out, -1)
    if vec_a:
        out = _squeeze_dim(out, -1 if vec_b else -2)
    return wrap(out, level)


def _fast_product(pa, ba, ra, pb, bb, rb):
    """The common shapes as one ``mm`` / ``bmm`` (numpy's 2-d and 3-d products are the fast ones)."""
    if ba and not bb and rb == 2:
        if ra == 1:  # rows @ W
            return _mm(pa, pb)
        shape = pa.shape
        flat = _mm(_reshape(pa, (-1, shape[-1])), pb)
        return _reshape(flat, tuple(shape[:-1]) + (pb.shape[1],))
    if bb and not ba and ra == 2 and rb == 1:  # W @ rows
        return _mm(pb, _t(pa))
    if ba and bb and ra == 2 and rb == 2:
        return _bmm(pa, pb)
    return None


def _level(a, b):
    la = a._level if a.__class__ is BatchedTensor else 0
    lb = b._level if b.__class__ is BatchedTensor else 0
    return max(lb, la)


def matmul_rule(op):
    def rule(self, other):
        return batched_matmul(self, other, _level(self, other))
    return rule


# op -> the logical ranks it takes (torch's functorch checks, and their messages)
_RANKS = {"aten::mm": (2, 2), "aten::bmm": (3, 3), "aten::mv": (2, 1), "aten::dot": (1, 1)}


def product_rule(op):
    """``mm`` / ``bmm`` / ``mv`` / ``dot``: rank checks, then ``batched_matmul``."""
    ea, eb = _RANKS[op.name()]
    short = op.name().split("::")[1]

    def rule(self, other):
        ra, rb = self._data.ndim, other._data.ndim
        if ra != ea or rb != eb:
            if short == "dot":
                raise RuntimeError("Got wrong shapes for dot")
            raise RuntimeError(f"Shape mismatch: Got incorrect dims for {short}(a, b). a has dim {ra}and b has "
                               f"dim {rb}but expected them to have dim {ea} and dim {eb}")
        if self.dtype is not other.dtype:
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {self.dtype} != "
                               f"{other.dtype}")
        return batched_matmul(self, other, _level(self, other))
    return rule


def outer_rule(op):
    def rule(self, vec2):
        for name, t in (("self", self), ("vec2", vec2)):
            if t._data.ndim != 1:
                raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t._data.ndim}-D")
        return _mul(_unsqueeze(self, 1), vec2)
    return rule


_mul_scalar = aten("mul.Scalar")


def addmm_rule(op):
    mm = aten("mm")

    def rule(self, mat1, mat2, *, beta=1, alpha=1):
        prod = mm(mat1, mat2)
        if alpha != 1:
            prod = _mul_scalar(prod, alpha)
        if beta == 0:  # torch ignores ``self`` then (even its nans)
            return prod
        return _add(self if beta == 1 else _mul_scalar(self, beta), prod)
    return rule


def linear_rule(op):
    t = aten("t")

    def rule(input, weight, bias=None):
        out = _matmul(input, t(weight) if weight._data.ndim == 2 else weight)
        return out if bias is None else _add(out, bias)
    return rule


# The batching rules of this module, by overload name (``rules/__init__`` installs them).
RULES = {
    "matmul": matmul_rule, "mm": product_rule, "bmm": product_rule, "mv": product_rule, "dot": product_rule,
    "outer": outer_rule, "addmm": addmm_rule, "linear": linear_rule,
}
