"""The window functions of ``stft``'s users (``hann_window``, ``hamming_window``, ``blackman_window``,
``bartlett_window``, ``kaiser_window``) and ``randperm``.

The windows are compositions of ``arange`` and pointwise ops in torch's order of operations (its
CompositeExplicitAutograd kernels: the same values, the dtype and device from the arguments): a
``periodic`` window is the symmetric window one longer, without its last element; a window of
length 0 is empty and of length 1 is ``[1.]``. ``randperm`` draws from the ``generator=`` given
(an ``opyard.Generator``) or the default one; its element types and checks are torch's."""

import math

import numpy as np

from .. import _dtype as D
from .._tensor import _make_meta
from ._declare import OpTable
from .common import A
from .factory import _new
from .factory import generator as draw_from

__all__ = ["OPS"]

OPS = OpTable()

_OPTIONS = "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None"


def _checked(name, window_length, dtype, layout, device):
    """torch's ``window_function_checks``; the dtype to compute in."""
    dt = dtype if dtype is not None else D.get_default_dtype()

    def options(lay):
        return (f"TensorOptions(dtype={D.C_TYPE_NAMES.get(dt.name, dt.name)}, device={device or 'cpu'}, "
                f"layout={lay}, requires_grad=false (default), pinned_memory=false, memory_format=(nullopt))")
    if layout is not None and str(layout) != "opyard.strided":
        raise RuntimeError(f"{name} is not implemented for sparse types, got: {options('Sparse')}")
    if dt.is_complex:  # torch's check lets complex dtypes through to ``arange``, which refuses them
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{D.legacy_name(dt)}'")
    if not dt.is_floating_point:
        raise RuntimeError(f"{name} expects floating point dtypes, got: {options('Strided (default)')}")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    return dt


def _window(name, body):
    """The kernel of window ``name``: ``body(n, dtype, device)`` computes the symmetric window of
    ``n >= 2`` elements."""
    def kernel(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=None):
        dt = _checked(name, window_length, dtype, layout, device)
        if window_length <= 1:
            return (A.ones if window_length else A.zeros)([window_length], dtype=dt, device=device)
        n = window_length + 1 if periodic else window_length
        w = body(n, dt, device)
        return A.narrow(w, 0, 0, n - 1) if periodic else w
    kernel.__name__ = name
    return kernel


def _hamming(alpha, beta):
    def body(n, dt, device):
        w = A.mul__Scalar(A.arange(n, dtype=dt, device=device), math.pi * 2.0 / (n - 1))
        return A.add__Scalar(A.mul__Scalar(A.cos(w), -beta), alpha)
    return body


def _blackman(n, dt, device):
    w = A.mul__Scalar(A.arange(n, dtype=dt, device=device), math.pi / (n - 1))
    return A.add__Scalar(A.sub__Tensor(A.mul__Scalar(A.cos(A.mul__Scalar(w, 4)), 0.08),
                                       A.mul__Scalar(A.cos(A.mul__Scalar(w, 2)), 0.5)), 0.42)


def _bartlett(n, dt, device):
    w = A.mul__Scalar(A.arange(n, dtype=dt, device=device), 2.0 / (n - 1))
    half = ((n - 1) >> 1) + 1
    return A.cat([A.narrow(w, 0, 0, half), A.add__Scalar(A.mul__Scalar(A.narrow(w, 0, half, n - half), -1), 2)])


def _kaiser(beta):
    """torch computes each element in one expression in the compute type (float32 for 16-bit
    dtypes) and rounds once."""
    def body(n, dt, device):
        wide = D.float32 if dt.itemsize == 2 else dt
        alpha = (n - 1) / 2.0
        ratio = A.div__Scalar(A.sub__Scalar(A.arange(n, dtype=wide, device=device), alpha), alpha)
        inside = A.sqrt(A.rsub__Scalar(A.pow__Tensor_Scalar(ratio, 2), 1))
        w = A.div__Scalar(A.i0(A.mul__Scalar(inside, beta)), float(np.i0(beta)))
        return w if wide is dt else A._to_copy(w, dtype=dt)
    return body


for _name, _body in (("hann_window", _hamming(0.5, 0.5)), ("hamming_window", _hamming(0.54, 0.46)),
                     ("blackman_window", _blackman), ("bartlett_window", _bartlett),
                     ("kaiser_window", _kaiser(12.0))):
    _k = _window(_name, _body)
    OPS.op(f"{_name}(int window_length, {_OPTIONS}) -> Tensor", kind="composite")(
        lambda window_length, *, _k=_k, **kw: _k(window_length, True, **kw))
    OPS.op(f"{_name}.periodic(int window_length, bool periodic, {_OPTIONS}) -> Tensor", kind="composite")(_k)


@OPS.op(f"hamming_window.periodic_alpha(int window_length, bool periodic, float alpha, {_OPTIONS}) -> Tensor",
        kind="composite")
def hamming_window_alpha(window_length, periodic, alpha, **kw):
    return _window("hamming_window", _hamming(alpha, 0.46))(window_length, periodic, **kw)


@OPS.op("hamming_window.periodic_alpha_beta(int window_length, bool periodic, float alpha, float beta, "
        f"{_OPTIONS}) -> Tensor", kind="composite")
def hamming_window_alpha_beta(window_length, periodic, alpha, beta, **kw):
    return _window("hamming_window", _hamming(alpha, beta))(window_length, periodic, **kw)


@OPS.op(f"kaiser_window.beta(int window_length, bool periodic, float beta, {_OPTIONS}) -> Tensor",
        kind="composite")
def kaiser_window_beta(window_length, periodic, beta, **kw):
    return _window("kaiser_window", _kaiser(beta))(window_length, periodic, **kw)


_DIGITS = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}


def _randperm_checked(n, dtype):
    dt = dtype if dtype is not None else D.int64
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    if dt.name == "bool" or dt.is_complex:
        raise NotImplementedError(f"\"randperm\" not implemented for '{D.legacy_name(dt)}'")
    if n > 0 and not dt.is_floating_point and n - 1 > np.iinfo(dt.np).max:
        raise RuntimeError(f"value cannot be converted to type {dt.name}_t without overflow")
    digits = _DIGITS.get(dt.name)
    if digits is not None and n > (1 << digits) + 1:  # every integer up to n - 1 must be exact
        raise RuntimeError(f"n cannot be greater than {(1 << digits) + 1} for {D.legacy_name(dt)} type.")
    return dt


def _randperm(meta):
    def kernel(n, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None):
        dt = _randperm_checked(n, dtype)
        if meta:
            return _make_meta([n], dt)
        return _new(draw_from(generator).permutation(n).astype(dt.np), device)
    return kernel


OPS.op("randperm(SymInt n, *, ScalarType? dtype=long, Layout? layout=None, Device? device=None, "
       "bool? pin_memory=None) -> Tensor", kind="factory", meta=_randperm(True))(_randperm(False))
OPS.op("randperm.generator(SymInt n, *, Generator? generator, ScalarType? dtype=long, Layout? layout=None, "
       "Device? device=None, bool? pin_memory=None) -> Tensor", kind="factory",
       meta=_randperm(True))(_randperm(False))
