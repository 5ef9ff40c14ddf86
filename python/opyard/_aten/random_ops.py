"""Sampling from distributions: ``bernoulli`` (a probability per element, or one for all), the
in-place samplers ``cauchy_``, ``exponential_``, ``geometric_``, ``log_normal_``, ``bernoulli_`` and
``random_``, ``randint_like`` (``random_`` on a new tensor like the input), ``multinomial`` and the
functional ``normal`` overloads (a mean and a standard deviation per element, or numbers and a size).

Every draw comes from opyard's generator (``manual_seed`` makes it reproducible); the ``generator=``
argument is torch's and takes None. Parameters, element types and error messages are torch's CPU
kernels': a parameter out of its range raises before anything is drawn, an element type a
distribution has no values of raises ``NotImplementedError`` (or torch's ``RuntimeError`` for the
continuous distributions on integers), and the Meta kernels make the same checks without drawing.

``multinomial`` draws as torch does: with replacement, by inverting each row's cumulative
distribution at uniform samples; without replacement (or one sample), by the exponential race
(the ``n`` largest ``p / q`` with ``q ~ Exp(1)``: the Gumbel top-k trick).
"""

import numpy as np

from .. import _dtype as D
from .._tensor import _make_meta
from ._declare import OpTable
from .common import A, broadcast_shape, inplace_result, out, tensor_result_dtype
from .out_variants import write_out
from .shape import expand as _expand_kernel
from .factory import _check_from_to, _int_range, _new, _relaid, format_strides, generator, like_format

__all__ = ["OPS"]

OPS = OpTable()
_op = OPS.op

_FLOATING = frozenset(("float16", "bfloat16", "float32", "float64"))
_SIGNED_OR_BYTE = frozenset(("uint8", "int8", "int16", "int32", "int64"))
_LEGACY = D.legacy_name
_DIGITS = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}


def _fmt(x):
    """A double as torch's messages print it (C++ stream: six significant digits, ``1`` not ``1.0``)."""
    return "%g" % x


def _not_implemented(kernel, dt):
    return NotImplementedError(f"\"{kernel}\" not implemented for '{_LEGACY(dt)}'")


def _fill(self, values, name):
    """``values`` (float64 or int64 draws of ``self``'s shape) written into ``self`` in its dtype."""
    return inplace_result(self, np.asarray(values).astype(self.dtype.np, copy=False), name)


def _meta_inplace(check):
    """The Meta kernel of an in-place sampler: ``check``'s argument checks, then ``self``."""
    def meta(self, *args, **kwargs):
        check(self, *args, **kwargs)
        self._bump_version()
        return self
    meta.__name__ = f"meta_{check.__name__}"
    return meta


# --- the continuous in-place samplers ---------------------------------------------------------------

def _continuous(self, name):
    if self.dtype.name not in _FLOATING:
        raise RuntimeError(f"{name} distribution is a continuous probability distribution. dtype must be a floating "
                           f"point but you specified {D.c_type_name(self.dtype) if name == 'Cauchy' else _LEGACY(self.dtype)}")


def _check_cauchy(self, median=0, sigma=1, *, generator=None):
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_fmt(sigma)}")
    _continuous(self, "Cauchy")


def _cauchy_(self, median=0, sigma=1, *, generator=None):
    _check_cauchy(self, median, sigma)
    u = _gen(generator).random(self.shape)
    return _fill(self, median + sigma * np.tan(np.pi * (u - 0.5)), "aten::cauchy_")


def _check_exponential(self, lambd=1, *, generator=None):
    if not lambd > 0.0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_fmt(lambd)}")
    _continuous(self, "Exponential")


def _exponential_(self, lambd=1, *, generator=None):
    _check_exponential(self, lambd)
    return _fill(self, _gen(generator).exponential(1.0 / lambd, self.shape), "aten::exponential_")


def _check_log_normal(self, mean=1, std=2, *, generator=None):
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_fmt(std)}")
    if self.dtype.name not in _FLOATING:
        raise _not_implemented("log_normal_cpu", self.dtype)


def _log_normal_(self, mean=1, std=2, *, generator=None):
    _check_log_normal(self, mean, std)
    return _fill(self, np.exp(_gen(generator).normal(mean, std, self.shape)), "aten::log_normal_")


def _check_geometric(self, p, *, generator=None):
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_fmt(p)}")
    if self.dtype.name not in _FLOATING and self.dtype.name not in _SIGNED_OR_BYTE:
        raise _not_implemented("geometric_cpu", self.dtype)


def _geometric_(self, p, *, generator=None):
    """The number of Bernoulli(p) trials up to the first success: 1, 2, ..."""
    _check_geometric(self, p)
    return _fill(self, _gen(generator).geometric(p, self.shape), "aten::geometric_")


_op("cauchy_(Tensor(a!) self, float median=0, float sigma=1, *, Generator? generator=None) -> Tensor(a!)",
    meta=_meta_inplace(_check_cauchy))(_cauchy_)
_op("exponential_(Tensor(a!) self, float lambd=1, *, Generator? generator=None) -> Tensor(a!)",
    meta=_meta_inplace(_check_exponential))(_exponential_)
_op("log_normal_(Tensor(a!) self, float mean=1, float std=2, *, Generator? generator=None) -> Tensor(a!)",
    meta=_meta_inplace(_check_log_normal))(_log_normal_)
_op("geometric_(Tensor(a!) self, float p, *, Generator? generator=None) -> Tensor(a!)",
    meta=_meta_inplace(_check_geometric))(_geometric_)


def _gen(g):
    return generator(g)


# --- bernoulli -------------------------------------------------------------------------------------

_P_RANGE = "Expected p_in >= 0 && p_in <= 1 to be true, but got false."


def _check_bernoulli_tensor(self, p):
    if self.dtype.is_complex or self.dtype.name in ("uint16", "uint32", "uint64"):
        raise _not_implemented("bernoulli_tensor_cpu_self_", self.dtype)
    if p.dtype.name not in _FLOATING:
        raise _not_implemented("bernoulli_tensor_cpu_p_", p.dtype)


def _bernoulli_draw(self, p, g):
    """0/1 draws of ``self``'s shape, each 1 with the probability in ``p`` (broadcast to ``self``)."""
    probs = p._data.astype(np.float64)
    if probs.size and not ((probs >= 0) & (probs <= 1)).all():  # nan fails both
        raise RuntimeError(_P_RANGE)
    return _gen(g).random(self.shape) < np.broadcast_to(probs, self.shape)


def _meta_bernoulli(self, *, generator=None):
    _check_bernoulli_tensor(self, self)
    return _make_meta(self.shape, self.dtype)


@_op("bernoulli(Tensor self, *, Generator? generator=None) -> Tensor", meta=_meta_bernoulli,
     out="bernoulli.out(Tensor self, *, Generator? generator=None, Tensor(a!) out) -> Tensor(a!)")
def bernoulli(self, *, generator=None):
    """A 0/1 draw per element of ``self``, 1 with the probability that element holds."""
    _check_bernoulli_tensor(self, self)
    return out(_bernoulli_draw(self, self, generator).astype(self.dtype.np), self)


def _check_bernoulli_float(self, p=0.5, *, generator=None):
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_fmt(p)}")
    if self.dtype.is_complex or self.dtype.name in ("uint16", "uint32", "uint64"):
        raise _not_implemented("bernoulli_scalar_cpu_", self.dtype)


def _meta_bernoulli_p(self, p, *, generator=None):
    _check_bernoulli_float(self, p)
    return _make_meta(self.shape, self.dtype)


@_op("bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor", meta=_meta_bernoulli_p)
def bernoulli_p(self, p, *, generator=None):
    """A 0/1 draw per element of ``self``'s shape and dtype, each 1 with probability ``p``."""
    _check_bernoulli_float(self, p)
    return out((_gen(generator).random(self.shape) < p).astype(self.dtype.np), self)


def _bernoulli_float_(self, p=0.5, *, generator=None):
    _check_bernoulli_float(self, p)
    return _fill(self, _gen(generator).random(self.shape) < p, "aten::bernoulli_")


def _bernoulli_tensor_(self, p, *, generator=None):
    _check_bernoulli_tensor(self, p)
    p = _expand_kernel(p, list(self.shape))  # torch's expand and its error for shapes that do not broadcast
    return _fill(self, _bernoulli_draw(self, p, generator), "aten::bernoulli_")


def _meta_bernoulli_tensor_(self, p, *, generator=None):
    _check_bernoulli_tensor(self, p)
    _expand_kernel(p, list(self.shape))
    self._bump_version()
    return self


_op("bernoulli_.Tensor(Tensor(a!) self, Tensor p, *, Generator? generator=None) -> Tensor(a!)",
    meta=_meta_bernoulli_tensor_)(_bernoulli_tensor_)
_op("bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)",
    meta=_meta_inplace(_check_bernoulli_float))(_bernoulli_float_)


# --- random_ and randint_like ----------------------------------------------------------------------

def _default_range(dt):
    """``random_()`` without bounds: [0, 2**digits] for floating types, the type's non-negative range
    for integers, {0, 1} for bool."""
    if dt.is_complex:
        raise RuntimeError("check_random_bounds handles only integral, floating-point and boolean types")
    if dt.is_floating_point:
        return 0, 2 ** _DIGITS[dt.name] + 1
    return 0, _int_range(dt)[1] + 1


def _draw_ints(low, high, shape, g):
    """Uniform integers in [low, high) (int64, or Python ints past int64 for uint64)."""
    if high - 1 > np.iinfo(np.int64).max:
        return _gen(g).integers(low, high, shape, dtype=np.uint64)
    return _gen(g).integers(low, high, shape, dtype=np.int64)


def _random_from(self, from_, to=None, *, generator=None):
    high = to if to is not None else _default_range(self.dtype)[1]
    _check_from_to(self.dtype, from_, high)
    return _fill(self, _draw_ints(from_, high, self.shape, generator), "aten::random_")


def _random_to(self, to, *, generator=None):
    _check_from_to(self.dtype, 0, to)
    return _fill(self, _draw_ints(0, to, self.shape, generator), "aten::random_")


def _random(self, *, generator=None):
    low, high = _default_range(self.dtype)
    return _fill(self, _draw_ints(low, high, self.shape, generator), "aten::random_")


def _meta_random_from(self, from_, to=None, *, generator=None):
    _check_from_to(self.dtype, from_, to if to is not None else _default_range(self.dtype)[1])
    self._bump_version()
    return self


def _meta_random_to(self, to, *, generator=None):
    _check_from_to(self.dtype, 0, to)
    self._bump_version()
    return self


def _meta_random(self, *, generator=None):
    _default_range(self.dtype)
    self._bump_version()
    return self


_op("random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) -> Tensor(a!)",
    meta=_meta_random_from)(_random_from)
_op("random_.to(Tensor(a!) self, int to, *, Generator? generator=None) -> Tensor(a!)",
    meta=_meta_random_to)(_random_to)
_op("random_(Tensor(a!) self, *, Generator? generator=None) -> Tensor(a!)", meta=_meta_random)(_random)


def _high_of(high):
    """``high`` of the ``.Tensor`` overloads: a 0-d CPU tensor's value."""
    if high.dim() != 0 or high.is_meta:
        raise RuntimeError("high must be a scalar tensor and on CPU")
    return int(high.item())


def _randint_like(self, low, high, dtype, device, memory_format, meta, generator):
    dt = dtype if dtype is not None else self.dtype
    _check_from_to(dt, low, high)
    fmt = like_format(self, memory_format)
    if meta:
        return _make_meta(self.shape, dt, format_strides(tuple(self.shape), fmt))
    arr = _draw_ints(low, high, tuple(self.shape), generator).astype(dt.np, copy=False)
    return _relaid(_new(arr, device if device is not None else self._dev), fmt)


_LIKE = ("ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, "
         "MemoryFormat? memory_format=None) -> Tensor")


def _randint_like_high(meta):
    def kernel(self, high, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None,
               memory_format=None):
        return _randint_like(self, 0, high, dtype, device, memory_format, meta, generator)
    return kernel


def _randint_like_tensor(meta):
    def kernel(self, high, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None,
               memory_format=None):
        return _randint_like(self, 0, _high_of(high), dtype, device, memory_format, meta, generator)
    return kernel


def _randint_like_low(meta):
    def kernel(self, low, high, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None,
               memory_format=None):
        return _randint_like(self, low, high, dtype, device, memory_format, meta, generator)
    return kernel


for _schema, _make in (
    ("randint_like(Tensor self, SymInt high, *, " + _LIKE, _randint_like_high),
    ("randint_like.generator(Tensor self, SymInt high, *, Generator? generator, " + _LIKE, _randint_like_high),
    ("randint_like.Tensor(Tensor self, Tensor high, *, " + _LIKE, _randint_like_tensor),
    ("randint_like.Tensor_generator(Tensor self, Tensor high, *, Generator? generator, " + _LIKE,
     _randint_like_tensor),
    ("randint_like.low_dtype(Tensor self, SymInt low, SymInt high, *, " + _LIKE, _randint_like_low),
    ("randint_like.low_generator_dtype(Tensor self, SymInt low, SymInt high, *, Generator? generator, " + _LIKE,
     _randint_like_low),
):
    _kernel, _meta = _make(False), _make(True)
    _op(_schema, meta=_meta)(_kernel)
del _schema, _make, _kernel, _meta


# --- multinomial -----------------------------------------------------------------------------------

_MAX_CATEGORIES = 2 ** 24  # torch samples category indices as float32 values


def _check_multinomial(self, n_sample, replacement):
    if not 0 < self.dim() <= 2:
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if self.dtype.name not in _FLOATING:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: {_LEGACY(self.dtype)}")
    if not n_sample > 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    n_categories = self.shape[-1]
    if not (replacement or n_sample <= n_categories):
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if n_categories > _MAX_CATEGORIES:
        raise RuntimeError("number of categories cannot exceed 2^24")
    return [n_sample] if self.dim() == 1 else [self.shape[0], n_sample]


def _multinomial_meta(self, num_samples, replacement=False, *, generator=None):
    return _make_meta(_check_multinomial(self, num_samples, replacement), D.int64)


@_op("multinomial(Tensor self, SymInt num_samples, bool replacement=False, *, Generator? generator=None) -> Tensor",
     meta=_multinomial_meta)
def multinomial(self, num_samples, replacement=False, *, generator=None):
    """``num_samples`` category indices per row of ``self`` (non-negative weights, not necessarily
    summing to 1), with or without replacement."""
    shape = _check_multinomial(self, num_samples, replacement)
    if int(np.prod(shape)) == 0:
        return out(np.zeros(shape, dtype=np.int64), self)
    p = np.atleast_2d(self._data.astype(np.float64))
    if not replacement or num_samples == 1:
        idx = _exponential_race(p, num_samples, generator)
    else:
        idx = _inverse_cdf(p, num_samples, generator)
    return out(np.ascontiguousarray(idx.reshape(shape)), self)


@_op("multinomial.out(Tensor self, SymInt num_samples, bool replacement=False, *, Generator? generator=None, "
     "Tensor(a!) out) -> Tensor(a!)", kind="meta_aware")
def multinomial_out(self, num_samples, replacement=False, *, generator=None, out):
    """``multinomial`` into ``out`` (int64 only; resized to the result's shape without a warning, as
    torch's kernel resizes it)."""
    if out.dtype is not D.int64:
        raise RuntimeError(f"multinomial expects Long tensor out, got: {_LEGACY(out.dtype)}")
    r = A.multinomial(self, num_samples, replacement, generator=generator)
    return write_out("aten::multinomial.out", r, out, exact=True, warn_resize=False)


def _exponential_race(p, n, g):
    """torch's draw without replacement: the ``n`` largest ``p / q`` per row, ``q ~ Exp(1)``."""
    if p.size == 0:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.")
    if not (np.isfinite(p).all() and (p >= 0).all()):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (p.sum(axis=1) == 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    keys = p / _gen(g).exponential(1.0, p.shape)
    if n == 1:
        return np.argmax(keys, axis=1)[:, None]
    if n < p.shape[1]:  # the n largest keys, then sorted largest first (torch's topk)
        top = np.argpartition(-keys, n - 1, axis=1)[:, :n]
        ranks = np.argsort(-np.take_along_axis(keys, top, axis=1), axis=1, kind="stable")
        return np.take_along_axis(top, ranks, axis=1)
    return np.argsort(-keys, axis=1, kind="stable")


def _inverse_cdf(p, n, g):
    """torch's draw with replacement: each row's cumulative distribution (checked entry by entry in
    row order, as torch's loop) inverted at uniform samples."""
    bad = ~(p >= 0) | ~np.isfinite(p)
    if bad.any():
        first = p.ravel()[np.argmax(bad.ravel())]
        if not first >= 0:  # negative or nan
            raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
        raise RuntimeError("invalid multinomial distribution (encountering probability entry = infinity or NaN)")
    cum = np.cumsum(p, axis=1)
    total = cum[:, -1:]
    if not (total > 0).all():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    cum = cum / total
    cum[:, -1] = 1.0
    rows, cats = p.shape
    # One search over every row: row r's distribution shifted to [2r, 2r + 1]; the samples are
    # searched in increasing order (each search starts near the last one), then put back in place.
    shift = 2.0 * np.arange(rows)[:, None]
    u = _gen(g).random((rows, n))
    order = np.argsort(u, axis=1)
    keys = np.take_along_axis(u, order, axis=1) + shift
    found = np.searchsorted((cum + shift).ravel(), keys.ravel(), side="left").reshape(rows, n)
    idx = np.empty_like(found)
    np.put_along_axis(idx, order, found - cats * np.arange(rows)[:, None], axis=1)
    return idx


# --- normal: a draw per element with the mean and standard deviation given per element ---------------

def _check_normal_dtype(dt):
    if not (dt.name in _FLOATING or dt.is_complex):
        raise _not_implemented("normal_kernel_cpu", dt)


def _check_std_scalar(std):
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_fmt(std)}")


def _check_std_tensor(std):
    s = std._data
    if s.size and not (np.asarray(s.real if np.iscomplexobj(s) else s, dtype=np.float64) >= 0).all():
        raise RuntimeError("normal expects all elements of std >= 0.0")


def _standard(dt, shape, g):
    """Standard normal draws of ``shape`` (complex: unit variance split over the two parts, as torch)."""
    if dt.is_complex:
        z = _gen(g).standard_normal(tuple(shape) + (2,)) * np.sqrt(0.5)
        return z[..., 0] + 1j * z[..., 1]
    return _gen(g).standard_normal(tuple(shape))


def _normal(mean, std, dt, shape, ref, g):
    draws = np.asarray(mean + std * _standard(dt, shape, g))
    return out(np.array(np.broadcast_to(draws, shape), dtype=dt.np, order="C"), ref)


def _meta_normal_tensor_float(mean, std=1, *, generator=None):
    _check_std_scalar(std)
    _check_normal_dtype(mean.dtype)
    return _make_meta(mean.shape, mean.dtype)


@_op("normal.Tensor_float(Tensor mean, float std=1, *, Generator? generator=None) -> Tensor",
     meta=_meta_normal_tensor_float,
     out="normal.Tensor_float_out(Tensor mean, float std=1, *, Generator? generator=None, Tensor(a!) out) -> Tensor(a!)")
def normal_tensor_float(mean, std=1, *, generator=None):
    _meta_normal_tensor_float(mean, std)
    return _normal(mean._data.astype(np.complex128 if mean.dtype.is_complex else np.float64), std, mean.dtype,
                   mean.shape, mean, generator)


def _meta_normal_float_tensor(mean, std, *, generator=None):
    _check_normal_dtype(std.dtype)
    return _make_meta(std.shape, std.dtype)


@_op("normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> Tensor",
     meta=_meta_normal_float_tensor,
     out="normal.float_Tensor_out(float mean, Tensor std, *, Generator? generator=None, Tensor(a!) out) -> Tensor(a!)")
def normal_float_tensor(mean, std, *, generator=None):
    _check_normal_dtype(std.dtype)
    _check_std_tensor(std)
    return _normal(mean, std._data.astype(np.float64 if not std.dtype.is_complex else np.complex128), std.dtype,
                   std.shape, std, generator)


def _normal_tt_shape(mean, std):
    dt = tensor_result_dtype(mean, std)
    _check_normal_dtype(dt)
    return dt, broadcast_shape("aten::normal", tuple(mean.shape), tuple(std.shape))


def _meta_normal_tensor_tensor(mean, std, *, generator=None):
    dt, shape = _normal_tt_shape(mean, std)
    return _make_meta(shape, dt)


@_op("normal.Tensor_Tensor(Tensor mean, Tensor std, *, Generator? generator=None) -> Tensor",
     meta=_meta_normal_tensor_tensor,
     out="normal.Tensor_Tensor_out(Tensor mean, Tensor std, *, Generator? generator=None, Tensor(a!) out) -> Tensor(a!)")
def normal_tensor_tensor(mean, std, *, generator=None):
    dt, shape = _normal_tt_shape(mean, std)
    _check_std_tensor(std)
    wide = np.complex128 if dt.is_complex else np.float64
    return _normal(mean._data.astype(wide), std._data.astype(wide), dt, shape, mean, generator)


def _normal_float_float(meta):
    def kernel(mean, std, size, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None):
        _check_std_scalar(std)
        dt = dtype if dtype is not None else D.get_default_dtype()
        _check_normal_dtype(dt)
        shape = [int(s) for s in size]
        if meta:
            return _make_meta(shape, dt)
        arr = np.asarray(mean + std * _standard(dt, shape, generator)).astype(dt.np, copy=False)
        return _new(arr, device)
    return kernel


_op("normal.float_float(float mean, float std, SymInt[] size, *, Generator? generator=None, ScalarType? dtype=None, "
    "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
    meta=_normal_float_float(True))(_normal_float_float(False))


@_op("normal.float_float_out(float mean, float std, SymInt[] size, *, Generator? generator=None, Tensor(a!) out) "
     "-> Tensor(a!)", kind="meta_aware")
def normal_float_float_out(mean, std, size, *, generator=None, out):
    """``normal(mean, std, size)`` drawn in ``out``'s dtype on ``out``'s device, written into it."""
    r = A.normal__float_float(mean, std, size, generator=generator, dtype=out.dtype, device=out.device)
    return write_out("aten::normal.float_float_out", r, out)
