"""Derivatives of the activation, padding and splitting ops real extension code calls
(derivatives.yaml rows: gelu, erf, exp2, hardtanh, leaky_relu, elu, softplus, constant_pad_nd,
split_with_sizes), and the Autograd kernel of the ``out=`` overloads."""

import math

from ... import _core
from ...dispatcher import AUTOGRAD_KEYS, after_autograd_keyset
from .. import _tensor_meta as meta
from ..grad_mode import is_grad_enabled
from ._helpers import A, cj, mul
from .indexing import _pieces_back, _zero_grad
from .reductions import _max_dim
from .registry import Formula as F

__all__ = ["FORMULAS", "make_out_kernel"]

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def _gelu_d(a):
    x = a.self
    if a.approximate == "tanh":
        inner = A.mul.Scalar(A.add.Tensor(x, A.mul.Scalar(A.pow.Tensor_Scalar(x, 3), 0.044715)), _SQRT_2_OVER_PI)
        t = A.tanh.default(inner)
        dinner = A.mul.Scalar(A.add.Scalar(A.mul.Scalar(A.mul.Tensor(x, x), 3 * 0.044715), 1.0), _SQRT_2_OVER_PI)
        sech2 = A.rsub.Scalar(A.mul.Tensor(t, t), 1.0)
        return A.add.Tensor(A.mul.Scalar(A.add.Scalar(t, 1.0), 0.5),
                            A.mul.Tensor(A.mul.Scalar(x, 0.5), A.mul.Tensor(sech2, dinner)))
    cdf = A.mul.Scalar(A.add.Scalar(A.erf.default(A.mul.Scalar(x, 1 / math.sqrt(2.0))), 1.0), 0.5)
    pdf = A.mul.Scalar(A.exp.default(A.mul.Scalar(A.mul.Tensor(x, x), -0.5)), 1 / math.sqrt(2 * math.pi))
    return A.add.Tensor(cdf, A.mul.Tensor(x, pdf))


def _gelu_dd(x, approximate):
    """gelu'' at ``x``: ``φ(x) (2 - x²)``; for ``tanh``, with ``u = k (x + c x³)`` and ``t = tanh u``,
    ``(1 - t²) (u' + x (u'' - 2 t u'²) / 2)``."""
    if approximate == "tanh":
        k, c = _SQRT_2_OVER_PI, 0.044715
        t = A.tanh.default(A.mul.Scalar(A.add.Tensor(x, A.mul.Scalar(A.pow.Tensor_Scalar(x, 3), c)), k))
        du = A.mul.Scalar(A.add.Scalar(A.mul.Scalar(A.mul.Tensor(x, x), 3 * c), 1.0), k)
        ddu = A.mul.Scalar(x, 6 * k * c)
        inner = A.sub.Tensor(ddu, A.mul.Scalar(A.mul.Tensor(t, A.mul.Tensor(du, du)), 2.0))
        return A.mul.Tensor(A.rsub.Scalar(A.mul.Tensor(t, t), 1.0),
                            A.add.Tensor(du, A.mul.Scalar(A.mul.Tensor(x, inner), 0.5)))
    pdf = A.mul.Scalar(A.exp.default(A.mul.Scalar(A.mul.Tensor(x, x), -0.5)), 1 / math.sqrt(2 * math.pi))
    return A.mul.Tensor(pdf, A.rsub.Scalar(A.mul.Tensor(x, x), 2.0))


def _gelu_back(grads, a, n):
    # torch's GeluBackward0: the fused gelu_backward kernel (itself differentiable).
    return (A.gelu_backward.default(grads[0], a.self, approximate=a.approximate),)


def _gelu_backward_back(grads, a, n):
    """GeluBackwardBackward0: ``gelu_backward(grad, self)`` for ``grad_output``;
    ``grad * grad_output * gelu''(self)`` for ``self``."""
    g = grads[0]
    gg = A.gelu_backward.default(g, a.self, approximate=a.approximate) if n[0] else None
    gx = mul(mul(g, a.grad_output), _gelu_dd(a.self, a.approximate)) if n[1] else None
    return (gg, gx)


def _gelu_backward_jvp(t, a):
    r = None
    if t[0] is not None:
        r = A.gelu_backward.default(t[0], a.self, approximate=a.approximate)
    if t[1] is not None:
        dx = mul(mul(t[1], a.grad_output), _gelu_dd(a.self, a.approximate))
        r = dx if r is None else A.add.Tensor(r, dx)
    return r


def _silu_d(x):
    s = A.sigmoid.default(x)
    return A.mul.Tensor(s, A.add.Scalar(A.mul.Tensor(x, A.rsub.Scalar(s, 1.0)), 1.0))


def _silu_back(grads, a, n):
    """SiluBackward0 as torch's: the fused ``silu_backward`` kernel, or with grad mode on
    (``create_graph=True``) its composition, which is differentiable (``silu_backward`` is not)."""
    if is_grad_enabled():
        return (mul(grads[0], _silu_d(a.self)),)
    return (A.silu_backward.default(grads[0], a.self),)


def _erf_d(a):
    return A.mul.Scalar(A.exp.default(A.neg.default(A.mul.Tensor(a.self, a.self))), 2 / math.sqrt(math.pi))


def _hardtanh_d(a):
    # torch zeroes where self <= min or self >= max, so a nan input passes the gradient.
    outside = A.logical_or.default(A.le.Scalar(a.self, a.min_val), A.ge.Scalar(a.self, a.max_val))
    return A._to_copy.default(A.logical_not.default(outside), dtype=meta.dtype(a.self))


def _leaky_relu_d(a):
    # torch's leaky_relu_backward: 1 where self > 0, negative_slope elsewhere (zero and nan included)
    return A.masked_fill.Scalar(A.full_like.default(a.self, a.negative_slope), A.gt.Scalar(a.self, 0), 1.0)


def _elu_d(a):
    neg_part = A.mul.Scalar(A.exp.default(A.mul.Scalar(a.self, a.input_scale)),
                            a.alpha * a.scale * a.input_scale)
    pos = A.full_like.default(a.self, a.scale)
    # torch picks the negative branch where self <= 0, so a nan input gets the positive one.
    return A.where.self(A.le.Scalar(a.self, 0), neg_part, pos)


def _softplus_d(a):
    z = A.sigmoid.default(A.mul.Scalar(a.self, a.beta))
    return A.where.self(A.gt.Scalar(A.mul.Scalar(a.self, a.beta), a.threshold), A.ones_like.default(z), z)


def _unary(name, dfn, save=("self",)):
    return F(name, ("self",), lambda grads, a, n: (mul(grads[0], cj(dfn(a))),), save=save,
             forward=lambda t, a: mul(t[0], dfn(a)))


def _pad_back(grads, a, n):
    return (A.constant_pad_nd.default(grads[0], [-p for p in a.pad]),)


def _index_add(grads, a, n):
    g = grads[0]
    src = A.index_select.default(g, a.dim, a.index) if n[1] else None
    if src is not None and a.alpha != 1:
        src = A.mul.Scalar(src, a.alpha)
    if src is not None and len(a.source.shape) == 0:
        src = A.reshape.default(src, [])
    return (g if n[0] else None, src)


def _roll(grads, a, n):
    return (A.roll.default(grads[0], [-s for s in a.shifts], a.dims),)


def _sorted_back(grads, a, n):
    """sort / topk: each value's gradient goes back to the position it came from."""
    g = grads[0]
    if g is None:
        return (None,)
    zeros = A.new_zeros.default(g, list(a.self.shape))
    return (A.scatter.src(zeros, a.dim, a.result[1], g),)


def _fmod_tensor(grads, a, n):
    g = grads[0]
    if not n[1]:  # self and other are saved only for other's gradient (Note [Conditional saves])
        return (g if n[0] else None, None)
    quotient = A.trunc.default(A.div.Tensor(a.self, a.other))
    return (g if n[0] else None, A.neg.default(mul(g, quotient)))


def _sizes_arg(a):
    return [int(s) for s in (a.split_sizes if hasattr(a, "split_sizes") else a.split_size)]


FORMULAS = {
    "aten::gelu": F("GeluBackward0", ("self",), _gelu_back, save=("self",),
                    forward=lambda t, a: mul(t[0], _gelu_d(a))),
    "aten::gelu_backward": F("GeluBackwardBackward0", ("grad_output", "self"), _gelu_backward_back,
                             save=("grad_output", "self"), forward=_gelu_backward_jvp),
    "aten::silu": F("SiluBackward0", ("self",), _silu_back, save=("self",),
                    forward=lambda t, a: mul(t[0], _silu_d(a.self))),
    "aten::erf": _unary("ErfBackward0", _erf_d),
    "aten::exp2": _unary("Exp2Backward0", lambda a: A.mul.Scalar(a.result, math.log(2.0)), save=("result",)),
    "aten::hardtanh": _unary("HardtanhBackward0", _hardtanh_d),
    "aten::leaky_relu": _unary("LeakyReluBackward0", _leaky_relu_d),
    "aten::elu": _unary("EluBackward0", _elu_d),
    "aten::softplus": _unary("SoftplusBackward0", _softplus_d),
    "aten::constant_pad_nd": F("ConstantPadNdBackward0", ("self",), _pad_back,
                               forward=lambda t, a: A.constant_pad_nd.default(t[0], a.pad, 0)),
    "aten::split_with_sizes": F("SplitWithSizesBackward0", ("self",), _pieces_back(_sizes_arg)),
    "aten::split.sizes": F("SplitWithSizesBackward0", ("self",), _pieces_back(_sizes_arg)),
    "aten::index_add": F("IndexAddBackward0", ("self", "source"), _index_add, save=("index",)),
    "aten::kthvalue": F("KthvalueBackward0", ("self",), _max_dim, save=("result",)),
    "aten::sort": F("SortBackward0", ("self",), _sorted_back, save=("result",)),
    "aten::sort.stable": F("SortBackward1", ("self",), _sorted_back, save=("result",)),
    "aten::topk": F("TopkBackward0", ("self",), _sorted_back, save=("result",)),
    "aten::fmod.Scalar": F("FmodBackward0", ("self",), lambda grads, a, n: (grads[0],),
                           forward=lambda t, a: t[0]),
    "aten::fmod.Tensor": F("FmodBackward1", ("self", "other"), _fmod_tensor, save=("self", "other"),
                           save_if={"self": "other", "other": "other"}),
    "aten::round.decimals": F("RoundBackward1", ("self",), _zero_grad),
    "aten::nan_to_num": _unary("NanToNumBackward0",
                               lambda a: A._to_copy.default(A.isfinite.default(a.self), dtype=meta.dtype(a.self))),
    "aten::roll": F("RollBackward0", ("self",), _roll,
                    forward=lambda t, a: A.roll.default(t[0], a.shifts, a.dims)),
}


def make_out_kernel(op):
    """Autograd kernel of an ``out=`` overload: torch refuses to differentiate through ``out=``;
    without inputs that require grad it runs below autograd."""
    base = op.name().split("::")[1].split(".")[0]
    message = (f"{base}(): functions with out=... arguments don't support automatic differentiation, "
               "but one of the arguments requires grad.")

    def kernel(keyset, *args, **kwargs):
        if not _core._is_excluded(AUTOGRAD_KEYS):
            for v in list(args) + list(kwargs.values()):
                items = v if isinstance(v, (list, tuple)) else (v,)
                if any(meta.is_tensor(t) and meta.requires_grad(t) for t in items):
                    raise RuntimeError(message)
        with _core._KeyGuard(exclude=AUTOGRAD_KEYS):
            return op.redispatch(keyset & after_autograd_keyset, *args, **kwargs)
    kernel.__name__ = f"autograd_out_{op.name().replace('::', '_').replace('.', '_')}"
    return kernel

from ..._exports import public_dir

__dir__ = public_dir(globals())
