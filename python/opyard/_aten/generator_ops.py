"""The factories' ``generator=`` overloads (``rand.generator``, ``randn.generator``,
``randint.generator``, ``randint.low``, ``randint.low_generator``, ``rand_like.generator``,
``randn_like.generator``) and the samplers ``poisson`` and ``binomial``.

Each draws from the ``opyard.Generator`` given, or the default generator for None
(``generators.py``); the values are numpy's, the shapes, dtypes and checks torch's CPU kernels'.
``poisson`` draws a count per rate (a rate past int64 gives int64's minimum, as torch's cast of the
overflowing count); ``binomial`` a count of successes per (count, prob) pair broadcast together (with
torch's warning when that is not ``count``'s shape): a probability above 1 gives the count, one below
0 (or a negative count) gives 0, a nan probability nan.
"""

import warnings

import numpy as np

from .. import _dtype as D
from .._tensor import _make_meta
from ._declare import OpTable
from .common import broadcast_shape, out
from .factory import _check_from_to, _dt, _meta_factory, _new, _relaid, _size, like_format, rand, randn, randint
from .generators import draws
from .random_ops import _draw_ints, _not_implemented

__all__ = ["OPS"]

OPS = OpTable()
_op = OPS.op

_FACTORY = "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"
_INT_FACTORY = "ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"
_LIKE = ("ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, "
         "MemoryFormat? memory_format=None) -> Tensor")

_op("rand.generator(SymInt[] size, *, Generator? generator, " + _FACTORY, meta=_meta_factory("size"))(rand)
_op("randn.generator(SymInt[] size, *, Generator? generator, " + _FACTORY, meta=_meta_factory("size"))(randn)
_op("randint.generator(SymInt high, SymInt[] size, *, Generator? generator, " + _INT_FACTORY,
    meta=_meta_factory("randint"))(randint)


def _randint_low(meta):
    def kernel(low, high, size, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None):
        dt = _dt(dtype, D.int64)
        _check_from_to(dt, low, high)
        shape = _size(size)
        if meta:
            draws(generator)  # a wrong generator raises on Meta too
            return _make_meta(shape, dt)
        return _new(_draw_ints(low, high, shape, generator).astype(dt.np), device)
    return kernel


_op("randint.low(SymInt low, SymInt high, SymInt[] size, *, " + _INT_FACTORY,
    meta=_randint_low(True))(_randint_low(False))
_op("randint.low_generator(SymInt low, SymInt high, SymInt[] size, *, Generator? generator, " + _INT_FACTORY,
    meta=_randint_low(True))(_randint_low(False))


def _like(fill):
    def kernel(self, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
        r = fill(list(self.shape), generator=generator, dtype=dtype if dtype is not None else self.dtype,
                 device=device if device is not None else self._dev)
        return _relaid(r, like_format(self, memory_format))
    return kernel


_op("rand_like.generator(Tensor self, *, Generator? generator, " + _LIKE, kind="like")(_like(rand))
_op("randn_like.generator(Tensor self, *, Generator? generator, " + _LIKE, kind="like")(_like(randn))


# --- poisson ---------------------------------------------------------------------------------------

_POISSON_MAX = 9.2e18  # numpy's largest rate (int64's maximum less ten deviations), about torch's overflow


def _check_poisson(self, generator=None):
    if self.dtype.name not in ("float16", "bfloat16", "float32", "float64"):
        raise _not_implemented("poisson_cpu", self.dtype)
    draws(generator)


def _meta_poisson(self, generator=None):
    _check_poisson(self, generator)
    return _make_meta(self.shape, self.dtype)


@_op("poisson(Tensor self, Generator? generator=None) -> Tensor", meta=_meta_poisson,
     out="poisson.out(Tensor self, Generator? generator=None, *, Tensor(a!) out) -> Tensor(a!)")
def poisson(self, generator=None):
    """A Poisson draw per element, the element its rate."""
    _check_poisson(self, generator)
    rate = self._data.astype(np.float64)
    if rate.size and not (rate >= 0).all():  # nan fails too
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    big = rate > _POISSON_MAX
    counts = np.asarray(draws(generator).poisson(np.where(big, 0.0, rate)), dtype=np.float64)
    counts[big] = float(np.iinfo(np.int64).min)  # torch casts the overflowing count to int64
    return out(counts.astype(self.dtype.np), self)


# --- binomial --------------------------------------------------------------------------------------

def _binomial_shape(count, prob, generator=None):
    if not (count.dtype.is_floating_point or count.dtype.is_complex):
        raise ValueError(f"binomial only supports floating-point dtypes for count, got: {D.legacy_name(count.dtype)}")
    if count.dtype.name not in ("float32", "float64"):
        raise _not_implemented("binomial_cpu", count.dtype)
    if prob.dtype is not count.dtype:
        raise RuntimeError(f"Found dtype {D.legacy_name(prob.dtype)} but expected {D.legacy_name(count.dtype)}")
    draws(generator)
    return broadcast_shape("aten::binomial", tuple(count.shape), tuple(prob.shape))


def _meta_binomial(count, prob, generator=None):
    return _make_meta(_binomial_shape(count, prob, generator), count.dtype)


@_op("binomial(Tensor count, Tensor prob, Generator? generator=None) -> Tensor", meta=_meta_binomial,
     out="binomial.out(Tensor count, Tensor prob, Generator? generator=None, *, Tensor(a!) out) -> Tensor(a!)")
def binomial(count, prob, generator=None):
    """A binomial draw per (count, prob) pair: the successes in ``count`` trials of probability ``prob``."""
    shape = _binomial_shape(count, prob, generator)
    if tuple(count.shape) != shape and count.numel():
        # torch's kernel writes into an output of ``count``'s shape, resized to the broadcast one
        warnings.warn(f"An output with one or more elements was resized since it had shape {list(count.shape)}, "
                      f"which does not match the required output shape {list(shape)}. This behavior is "
                      "deprecated, and in a future release outputs will not be resized unless they have zero "
                      "elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
                      "elements with t.resize_(0). (aten::binomial)", UserWarning, stacklevel=2)
    n = np.broadcast_to(count._data.astype(np.float64), shape)
    p = np.broadcast_to(prob._data.astype(np.float64), shape)
    trials = np.where(n > 0, np.floor(np.where(np.isfinite(n), n, 0)), 0).astype(np.int64)
    chance = np.clip(np.where(np.isnan(p), 0.0, p), 0.0, 1.0)
    r = np.asarray(draws(generator).binomial(trials, chance), dtype=np.float64)
    r[np.isnan(p)] = np.nan
    return out(r.astype(count.dtype.np), count)
