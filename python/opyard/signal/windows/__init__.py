"""``opyard.signal.windows``: torch.signal.windows' window functions, composed of opyard's
operators as torch composes them (``linspace`` of the sample positions, then the window's formula),
so that they take the same ``dtype``/``device``/``requires_grad`` options and give torch's values.

Example::

    >>> opyard.signal.windows.hann(5)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
"""

import math
from collections.abc import Iterable

from ... import _dtype as D
from ... import _factories as F
from ..._ops import ops
from ..._tensor import strided

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine", "general_hamming",
           "hamming", "hann", "kaiser", "nuttall"]

_A = ops.aten


def _checks(name, M, dtype, layout):
    """torch's checks of every window: a non-negative length, a strided layout, float32 or float64."""
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not strided:
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (D.float32, D.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")


def _trivial(M, dtype, device, requires_grad, ones_at_one=True):
    """The window of length 0 (empty) or, for the windows that special-case it, 1 (``[1.]``)."""
    if M == 0:
        return F.empty((0,), dtype=dtype, device=device, requires_grad=requires_grad)
    if M == 1 and ones_at_one:
        return F.ones((1,), dtype=dtype, device=device, requires_grad=requires_grad)
    return None


def _positions(start, end, M, dtype, device, requires_grad):
    return F.linspace(start, end, M, dtype=dtype, device=device, requires_grad=requires_grad)


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The exponential (Poisson) window ``exp(-|n - center| / tau)``."""
    dtype = dtype if dtype is not None else D.get_default_dtype()
    _checks("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return F.empty((0,), dtype=dtype, device=device, requires_grad=requires_grad)
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    constant = 1 / tau
    k = _positions(-center * constant, (-center + (M - 1)) * constant, M, dtype, device, requires_grad)
    return _A.exp(_A.neg(_A.abs(k)))


def cosine(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The cosine (sine) window ``sin(pi (n + 1/2) / M)``."""
    dtype = dtype if dtype is not None else D.get_default_dtype()
    _checks("cosine", M, dtype, layout)
    if M == 0:
        return F.empty((0,), dtype=dtype, device=device, requires_grad=requires_grad)
    start = 0.5
    constant = math.pi / (M + 1 if not sym and M > 1 else M)
    k = _positions(start * constant, (start + (M - 1)) * constant, M, dtype, device, requires_grad)
    return _A.sin(k)


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The Gaussian window ``exp(-n**2 / (2 std**2))`` about the window's centre."""
    dtype = dtype if dtype is not None else D.get_default_dtype()
    _checks("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M == 0:
        return F.empty((0,), dtype=dtype, device=device, requires_grad=requires_grad)
    start = -(M if not sym and M > 1 else M - 1) / 2.0
    constant = 1 / (std * math.sqrt(2))
    k = _positions(start * constant, (start + (M - 1)) * constant, M, dtype, device, requires_grad)
    return _A.exp(_A.neg(_A.pow.Tensor_Scalar(k, 2)))


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The Kaiser window ``I0(sqrt(beta**2 - k**2)) / I0(beta)`` over ``k`` from ``-beta`` to ``beta``."""
    dtype = dtype if dtype is not None else D.get_default_dtype()
    _checks("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    trivial = _trivial(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    beta = F.tensor(beta, dtype=dtype, device=device)  # in the window's dtype, as torch (no nan at the ends)
    start = _A.neg(beta)
    constant = _A.div.Scalar(_A.mul.Scalar(beta, 2.0), M if not sym else M - 1)
    end = _A.minimum(beta, _A.add.Tensor(start, _A.mul.Scalar(constant, M - 1)))
    k = _positions(start.item(), end.item(), M, dtype, device, requires_grad)
    return _A.div.Tensor(_A.i0(_A.sqrt(_A.sub.Tensor(_A.mul.Tensor(beta, beta), _A.pow.Tensor_Scalar(k, 2)))),
                         _A.i0(beta))


def bartlett(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The Bartlett (triangular) window ``1 - |k|`` over ``k`` from -1 to 1."""
    dtype = dtype if dtype is not None else D.get_default_dtype()
    _checks("bartlett", M, dtype, layout)
    trivial = _trivial(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    start = -1
    constant = 2 / (M if not sym else M - 1)
    k = _positions(start, start + (M - 1) * constant, M, dtype, device, requires_grad)
    return _A.rsub.Scalar(_A.abs(k), 1)


def general_cosine(M, *, a, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The generalized cosine window ``sum_i (-1)**i a_i cos(2 pi i n / (M - 1))``."""
    dtype = dtype if dtype is not None else D.get_default_dtype()
    _checks("general_cosine", M, dtype, layout)
    trivial = _trivial(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    constant = 2 * math.pi / (M if not sym else M - 1)
    k = _positions(0, (M - 1) * constant, M, dtype, device, requires_grad)
    a_i = F.tensor([(-1) ** i * w for i, w in enumerate(a)], dtype=dtype, device=device, requires_grad=requires_grad)
    i = F.arange(a_i.shape[0], dtype=a_i.dtype, device=a_i.device, requires_grad=a_i.requires_grad)
    terms = _A.mul.Tensor(_A.unsqueeze(a_i, -1), _A.cos(_A.mul.Tensor(_A.unsqueeze(i, -1), k)))
    return _A.sum.dim_IntList(terms, [0])


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The generalized Hamming window ``alpha - (1 - alpha) cos(2 pi n / (M - 1))``."""
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def hamming(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The Hamming window (``general_hamming`` with ``alpha = 0.54``)."""
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, device=device, requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The Hann window (``general_hamming`` with ``alpha = 0.5``)."""
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The Blackman window (``general_cosine`` with ``a = [0.42, 0.5, 0.08]``)."""
    dtype = dtype if dtype is not None else D.get_default_dtype()
    _checks("blackman", M, dtype, layout)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def nuttall(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The minimum 4-term Blackman-Harris window of Nuttall."""
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)
