"""Factory kernels (they dispatch on their ``device`` argument), randomness, ``_to_copy``."""

import math

import numpy as np

from .. import _dtype as D
from .._core import device as Device
from .._memory_format import channels_last, channels_last_3d, check_memory_format_rank, contiguous_format
from .._memory_format import memory_format_permutation, preserve_format
from .._tensor import CPU, META, _make, _make_meta
from .common import checked_fill, inplace_result
from .generators import default_generator, draws
from .switches import fill_uninitialized

__all__ = ["KERNELS", "META_KERNELS", "manual_seed", "generator"]


class _LazyGen(type):
    # ``numpy.random`` costs a tenth of ``import opyard``: the default generator's numpy generator is
    # made on the first draw, after which ``_Rng.gen`` is a plain class attribute (kernels read it
    # directly); re-seeding and ``set_state`` change it in place (``generators.py``).
    def __getattr__(cls, name):
        if name != "gen":
            raise AttributeError(f"type object '_Rng' has no attribute '{name}'")
        cls.gen = default_generator._gen()
        return cls.gen


class _Rng(metaclass=_LazyGen):
    pass


def manual_seed(seed):
    """Seed opyard's default generator (torch's ``manual_seed``: ``int(seed)``, any integer in
    ``[-2**63, 2**64)``); returns it."""
    return default_generator.manual_seed(int(seed))


def generator(g=None):
    """The numpy generator a kernel draws from: that of ``g`` (an ``opyard.Generator``) or the default's."""
    return _Rng.gen if g is None else draws(g)


def _device(device):
    if device is None:
        return CPU
    d = device if isinstance(device, Device) else Device(device)
    if d.type == "cpu" and d.index is None:
        return CPU
    if d.type == "cuda":
        from ..cuda import _require

        _require()
    return d


def _dt(dtype, default=None):
    return dtype if dtype is not None else (default or D.get_default_dtype())


def _new(arr, device):
    if device is None or device is CPU:  # the common call: a CPU tensor (``_device``'s CPU), without its frame
        return _make(arr)
    dev = _device(device)
    if dev.type == "cuda":
        from ..cuda import to_device_array

        arr = to_device_array(arr, dev)
    return _make(arr, dev)


def _size(size):
    return tuple(map(int, size))


# Note [Sizes as numpy reads them]: the hot factories hand the dispatcher's ``SymInt[] size`` (a list
# of ints, or of SymInts) to numpy as it is: numpy reads each size with ``__index__``, which gives
# what ``_size``'s ``int()`` gives for every value the schema admits (floats, bools and tensors are
# refused before the kernel), so the tuple is not built.

def zeros(size, *, dtype=None, layout=None, device=None, pin_memory=None):
    return _new(np.zeros(size, (dtype if dtype is not None else D.get_default_dtype()).np), device)


def ones(size, *, dtype=None, layout=None, device=None, pin_memory=None):
    # np.ones's steps without its frame: ``empty``, then 1 written (exact in every dtype, so ``fill``
    # stores what its ``copyto`` does)
    arr = np.empty(size, (dtype if dtype is not None else D.get_default_dtype()).np)
    arr.fill(1)
    return _new(arr, device)


def laid_out(alloc, shape, fmt):
    """``alloc(shape)`` laid out in memory format ``fmt`` (channels_last: NCHW viewed over NHWC)."""
    if fmt is None or fmt is contiguous_format or fmt is preserve_format:
        return alloc(shape)
    check_memory_format_rank(fmt, len(shape))
    perm = memory_format_permutation(fmt, len(shape))
    return alloc(tuple(shape[d] for d in perm)).transpose(np.argsort(perm))


def format_strides(shape, fmt):
    """Element strides of a dense tensor of ``shape`` in ``fmt`` (None: contiguous)."""
    if fmt is None or fmt is contiguous_format or fmt is preserve_format:
        return None
    probe = laid_out(lambda s: np.lib.stride_tricks.as_strided(np.zeros(1, np.int8), s, _c_strides(s)), shape, fmt)
    return tuple(probe.strides)


def _c_strides(shape):
    acc, out_ = 1, []
    for n in reversed(shape):
        out_.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(out_))


def empty(size, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    np_dt = (dtype if dtype is not None else D.get_default_dtype()).np
    if memory_format is None and (device is None or device is CPU):  # the common call: row-major, CPU
        return _make(fill_uninitialized(np.empty(size, np_dt)))  # Note [Sizes as numpy reads them]
    return _new(fill_uninitialized(laid_out(lambda s: np.empty(s, np_dt), _size(size), memory_format)), device)


def _strided_storage(size, stride):
    """Elements of storage ``size``/``stride`` need (torch's computeStorageNbytes, in elements)."""
    if len(size) != len(stride):
        raise RuntimeError(f"empty_strided: mismatch in length of strides and shape ({len(stride)} strides "
                           f"for {len(size)} sizes)")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"empty_strided: negative strides are not supported, got {list(stride)}")
    if not all(size):
        return 0
    return 1 + sum((n - 1) * s for n, s in zip(size, stride))


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, pin_memory=None):
    """Uninitialized memory laid out with the requested strides (``x.stride()`` reports them)."""
    size, stride = _size(size), _size(stride)
    npd = _dt(dtype).np
    buf = fill_uninitialized(np.empty(_strided_storage(size, stride), npd))
    item = buf.itemsize
    return _new(np.lib.stride_tricks.as_strided(buf, size, [s * item for s in stride]), device)


def _fill_dtype(value, dtype):
    if dtype is not None:
        return dtype
    return D.get_default_dtype() if type(value) is float else D.scalar_dtype(value)


# (Python number type, numpy dtype) pairs where ``ndarray.fill`` stores what ``np.full``'s
# ``copyto(casting="unsafe")`` stores, at a fifth of its cost. Elsewhere the two differ: ``fill``
# refuses what ``copyto`` converts (an int out of a small integral type's range, which ``copyto``
# wraps; a complex for a real type, whose imaginary part ``copyto`` drops).
_FILLS_AS_COPYTO = frozenset((t, np.dtype(n)) for t, n in (
    (float, np.float32), (float, np.float64), (int, np.int64), (bool, np.bool_)))


def full(size, fill_value, *, dtype=None, layout=None, device=None, pin_memory=None):
    dt = _fill_dtype(fill_value, dtype)
    value = checked_fill(fill_value, dt)  # before the allocation, as np.full's arguments were
    arr = np.empty(size, dt.np)  # np.full's steps, without its frame (Note [Sizes as numpy reads them])
    if (type(value), arr.dtype) in _FILLS_AS_COPYTO:
        arr.fill(value)
    else:
        np.copyto(arr, value, casting="unsafe")
    return _new(arr, device)


def _arange_dtype(values, dtype):
    if dtype is not None:
        return dtype
    return D.get_default_dtype() if any(isinstance(v, float) for v in values) else D.int64


def _arange_size(start, end, step):
    """torch's checks of an ``arange`` range, in its order, and the number of values: computed in
    double (in exact integers when all three are integers), ``ceil((end - start) / step)``."""
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not math.isfinite(step):
        raise RuntimeError(f"step must be finite but got {step}")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start:g} -> {end:g}")
    if not (step > 0 and end >= start or step < 0 and end <= start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if type(start) is int and type(end) is int and type(step) is int:
        n = -((start - end) // step)
    else:
        n = math.ceil((float(end) - float(start)) / float(step))
    if not 0 <= n <= 2**63 - 1:
        raise RuntimeError("invalid size, possible overflow?")
    return n


# Bound of the ints of ``_arange``'s common call: int64 values whose differences fit in int64 too.
_ARANGE_BOUND = 2**62


def _arange(start, end, step, dtype, device):
    if (dtype is None and type(start) is int and type(end) is int and type(step) is int
            and 0 < step < _ARANGE_BOUND and -_ARANGE_BOUND <= start <= end < _ARANGE_BOUND):
        # The common call (Python ints counting up, int64): ``_arange_size``'s checks all pass, and
        # the general path's values, ``start + step * i`` in int64, with no cast to make.
        n = -((start - end) // step)
        vals = np.arange(n, dtype=np.int64)
        if start != 0 or step != 1:
            vals = np.int64(start) + np.int64(step) * vals
        return _new(vals, device)
    dt = _arange_dtype((start, end, step), dtype)
    n = _arange_size(start, end, step)
    if dt is D.bool:
        raise NotImplementedError("\"arange_cpu\" not implemented for 'Bool'")
    if dt._cat == 1:
        # torch's integral arange: ``start + step * i`` in int64, the bounds truncated toward zero
        # first (``arange(2.1, -2.9, -1.0)`` is 2, 1, 0, -1, -2; a step of 0.5 repeats ``start``),
        # then converted (wrapping) to the dtype.
        vals = np.int64(math.trunc(start)) + np.int64(math.trunc(step)) * np.arange(n, dtype=np.int64)
        return _new(vals.astype(dt.np), device)
    # Floating: ``start + step * i`` in torch's accumulation type (double, float32 for half types).
    acc = np.float32 if dt.itemsize == 2 and dt._cat == 2 else np.float64
    vals = acc(start) + acc(step) * np.arange(n, dtype=acc)
    return _new(vals.astype(dt.np), device)


def arange(end, *, dtype=None, layout=None, device=None, pin_memory=None):
    return _arange(0, end, 1, dtype, device)


def arange_start(start, end, *, dtype=None, layout=None, device=None, pin_memory=None):
    return _arange(start, end, 1, dtype, device)


def arange_start_step(start, end, step=1, *, dtype=None, layout=None, device=None, pin_memory=None):
    return _arange(start, end, step, dtype, device)


def _fma(a, b, c):
    """``a * b + c`` in float64 rounded once (the fused multiply-add torch's compiled kernels use):
    the product split exactly into a sum of two doubles (Dekker), then added (Knuth's two-sum)."""
    split = 134217729.0  # 2**27 + 1
    prod = a * b
    ah = a * split
    ah = ah - (ah - a)
    bh = b * split
    bh = bh - (bh - b)
    err = ((ah * bh - prod) + ah * (b - bh) + (a - ah) * bh) + (a - ah) * (b - bh)
    total = prod + c
    back = total - prod
    tail = (prod - (total - back)) + (c - back)
    return total + (tail + err)


_COEFS = {}  # steps -> ``_linspace_coefs(steps)``, for the counts asked again and again (bounded)


def _linspace_coefs(steps):
    """``torch_linspace``'s multipliers of the step, as float64 (read-only): i over the first half, and
    -(steps - 1 - i) over the second (the last -0.0). Kept for small counts: three numpy calls saved."""
    coef = _COEFS.get(steps)
    if coef is None:
        coef = np.arange(steps).astype(np.float64)  # (int64 first: too many steps fail as they did)
        tail = coef[steps // 2:]
        np.subtract(steps - 1, tail, out=tail)
        np.negative(tail, out=tail)
        coef.flags.writeable = False
        if steps <= 4096 and len(_COEFS) < 64:
            _COEFS[steps] = coef
    return coef


def torch_linspace(start, end, steps, npdt):
    """torch's CPU ``linspace`` for float32/float64 ``npdt``: the step ``(end - start) / (steps - 1)``
    in the element type, the first half ``start + step * i`` and the second ``end - step * (steps - 1
    - i)``, each one fused multiply-add (float32 computed in float64, which holds the product exactly,
    and rounded once)."""
    s, e = npdt.type(start), npdt.type(end)
    if steps == 1:
        return np.array([s], npdt)
    step = (e - s) / npdt.type(steps - 1)
    half = steps // 2
    coef = _linspace_coefs(steps)
    base = np.empty(steps)  # start over the first half, end over the second
    base[:half] = np.float64(s)
    base[half:] = np.float64(e)
    if npdt == np.float32:
        return (base + np.float64(step) * coef).astype(np.float32)
    return _fma(np.float64(step), coef, base)


# torch's C++ names of the element types, as its "not implemented for 'Long'" messages print them.
_CPP_NAMES = {
    "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int", "int64": "Long",
    "float16": "Half", "float32": "Float", "float64": "Double", "complex64": "ComplexFloat",
    "complex128": "ComplexDouble", "bool": "Bool",
}


def require_floating(api, kernel, dt):
    """torch's refusal to sample ``rand``/``randn`` values of an integer or bool dtype."""
    if dt is not None and not (dt.is_floating_point or dt.is_complex):
        cpp = _CPP_NAMES.get(dt.name, dt.name)
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{cpp}': {api}() samples floating point values; "
            f"pass a floating dtype such as opyard.float32 (opyard.randint draws integers)")


def _eye_sizes(n, m):
    """torch's checks of ``eye``'s sizes."""
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    return int(n), int(m)


def _eye(n, m, npdt):
    """``np.eye(n, m, dtype=npdt)``'s own steps (zeros, then 1 along the diagonal), without its frame."""
    arr = np.zeros((n, m), npdt)
    if m:
        arr[:m].flat[::m + 1] = 1
    return arr


def eye(n, *, dtype=None, layout=None, device=None, pin_memory=None):
    return _new(_eye(*_eye_sizes(n, n), _dt(dtype).np), device)


def eye_m(n, m, *, dtype=None, layout=None, device=None, pin_memory=None):
    return _new(_eye(*_eye_sizes(n, m), _dt(dtype).np), device)


def rand(size, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None):
    if dtype is not None:  # (the default dtype is floating)
        require_floating("rand", "check_uniform_bounds", dtype)
    gen = _Rng.gen if generator is None else draws(generator)
    # Note [Sizes as numpy reads them]; the draws are those of the same number of values.
    return _new(gen.random(size).astype((dtype if dtype is not None else D.get_default_dtype()).np), device)


def randn(size, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None):
    if dtype is not None:
        require_floating("randn", "normal_kernel_cpu", dtype)
    gen = _Rng.gen if generator is None else draws(generator)
    return _new(gen.standard_normal(size).astype((dtype if dtype is not None else D.get_default_dtype()).np),
                device)


_INT_RANGES = {}  # dtype -> (min, max): numpy's iinfo costs more than a draw of a few integers


def _int_range(dt):
    r = _INT_RANGES.get(dt)
    if r is None:
        if dt.name == "bool":
            r = 0, 1
        else:
            info = np.iinfo(dt.np)
            r = int(info.min), int(info.max)
        _INT_RANGES[dt] = r
    return r


def _check_from_to(dt, low, high):
    """torch's ``random_(from, to)`` checks: ``from < to``, both ends representable in ``dt``."""
    if not low < high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    if dt.is_complex:
        raise RuntimeError("check_random_bounds handles only integral, floating-point and boolean types")
    if dt.is_floating_point:
        return  # torch only warns past 2**digits (integers there are not all representable)
    lo, hi = _int_range(dt)
    if not lo <= low <= hi:
        raise RuntimeError(f"from is out of bounds for {D.c_type_name(dt)}")
    if not lo <= high - 1 <= hi:
        raise RuntimeError(f"to - 1 is out of bounds for {D.c_type_name(dt)}")


def randint(high, size, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None):
    _check_from_to(_dt(dtype, D.int64), 0, high)
    gen = _Rng.gen if generator is None else draws(generator)
    return _new(gen.integers(0, high, _size(size)).astype(_dt(dtype, D.int64).np), device)


def like_format(self, memory_format):
    """torch's ``preserve_format`` for a new tensor like ``self``: channels_last inputs (that are
    not also plain contiguous) give channels_last results; an explicit format wins."""
    if memory_format is not None and memory_format is not preserve_format:
        return memory_format
    nd = self._data.ndim
    if nd != 4 and nd != 5:  # the common case pays one comparison
        return None
    fmt = channels_last if nd == 4 else channels_last_3d
    return fmt if not self.is_contiguous() and self.is_contiguous(memory_format=fmt) else None


def _like(fill):
    def kernel(self, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
        dt = dtype if dtype is not None else self.dtype
        r = fill(list(self.shape), dtype=dt, device=device if device is not None else self._dev)
        return _relaid(r, like_format(self, memory_format))
    return kernel


def _relaid(r, fmt):
    """``r`` (a fresh dense result) moved into memory format ``fmt``."""
    if fmt is not None and not r.is_meta:
        arr = laid_out(lambda s: np.empty(s, r._data.dtype), r._data.shape, fmt)
        arr[...] = r._data
        r._data = arr
    return r


def full_like(self, fill_value, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    dt = dtype if dtype is not None else self.dtype
    r = full(list(self.shape), fill_value, dtype=dt, device=device if device is not None else self._dev)
    return _relaid(r, like_format(self, memory_format))


def _new_like(fill):
    def kernel(self, size, *, dtype=None, layout=None, device=None, pin_memory=None):
        return fill(size, dtype=dtype if dtype is not None else self.dtype,
                    device=device if device is not None else self._dev)
    return kernel


def new_full(self, size, fill_value, *, dtype=None, layout=None, device=None, pin_memory=None):
    return full(size, fill_value, dtype=dtype if dtype is not None else self.dtype,
                device=device if device is not None else self._dev)


# torch's C++ names of the floating element types, as its bound checks print them.
_BOUND_NAMES = {"float16": "c10::Half", "bfloat16": "c10::BFloat16", "float32": "float", "float64": "double"}


_LARGEST = {}  # dtype -> its largest finite value: numpy's finfo costs more than a few draws


def _largest(real):
    top = _LARGEST.get(real)
    if top is None:
        top = _LARGEST[real] = 3.3895313892515355e38 if real.name == "bfloat16" else float(np.finfo(real.np).max)
    return top


def _check_uniform(dt, from_, to):
    """torch's checks of ``uniform_``'s range for data of dtype ``dt`` (complex: of its parts)."""
    if dt._cat < 2:
        raise NotImplementedError(f"\"check_uniform_bounds\" not implemented for '{D.legacy_name(dt)}'")
    real = dt.to_real() if dt._cat == 3 else dt
    top = _largest(real)
    for name, v in (("from", from_), ("to", to)):
        if not -top <= v <= top:
            raise RuntimeError(f"{name} is out of bounds for {_BOUND_NAMES[real.name]}")
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={from_:g} > to={to:g}")
    if to - from_ > top:
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<{D.legacy_name(real)}>::max(), but "
                           f"found to={to:g} and from={from_:g} which result in to-from to exceed the limit")


def uniform_(self, from_=0, to=1, *, generator=None):
    _check_uniform(self.dtype, from_, to)
    gen = _Rng.gen if generator is None else draws(generator)
    shape = self._data.shape
    if self.dtype._cat == 3:  # torch draws both parts of a complex element from [from, to)
        return inplace_result(self, gen.uniform(from_, to, shape) + 1j * gen.uniform(from_, to, shape),
                              "aten::uniform_")
    return inplace_result(self, gen.uniform(from_, to, shape), "aten::uniform_")


def normal_(self, mean=0, std=1, *, generator=None):
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    if self.dtype._cat < 2:
        raise NotImplementedError(f"\"normal_kernel_cpu\" not implemented for '{D.legacy_name(self.dtype)}'")
    gen = _Rng.gen if generator is None else draws(generator)
    shape = self._data.shape
    if self.dtype._cat == 3:  # torch: both parts normal around ``mean``, each of deviation std / sqrt(2)
        part = std / math.sqrt(2)
        return inplace_result(self, gen.normal(mean, part, shape) + 1j * gen.normal(mean, part, shape),
                              "aten::normal_")
    return inplace_result(self, gen.normal(mean, std, shape), "aten::normal_")


def to_copy(self, *, dtype=None, layout=None, device=None, pin_memory=None, non_blocking=False,
            memory_format=None):
    dt = dtype if dtype is not None else self.dtype
    if device is None and self._dev is CPU:  # the common call, a cast on the CPU: numpy data, no device
        # (``astype`` makes the array ``np.array(..., copy=True)`` makes below: the same order K
        # layout and base class, for two thirds of its cost)
        return _make(D.saturate_for(self._data, dt).astype(dt.np, subok=False))
    dev = _device(device) if device is not None else self._dev
    if self._dev.type == "meta" and dev.type != "meta":
        raise NotImplementedError("Cannot copy out of meta tensor; no data! Please use a real tensor instead.")
    if dev.type == "meta":
        return _make_meta(self.shape, dt)
    data = self._data.get() if hasattr(self._data, "get") else self._data
    return _new(np.array(D.saturate_for(data, dt), dtype=dt.np, copy=True), dev)


def numel(self):
    return int(self._data.size)


KERNELS = {
    "zeros": zeros, "ones": ones, "empty.memory_format": empty, "empty_strided": empty_strided,
    "full": full, "arange": arange, "arange.start": arange_start, "arange.start_step": arange_start_step,
    "eye": eye, "eye.m": eye_m, "rand": rand, "randn": randn, "randint": randint,
    "zeros_like": _like(zeros), "ones_like": _like(ones), "empty_like": _like(empty),
    "rand_like": _like(rand), "randn_like": _like(randn), "full_like": full_like,
    "new_empty": _new_like(empty), "new_zeros": _new_like(zeros), "new_ones": _new_like(ones),
    "new_full": new_full, "uniform_": uniform_, "normal_": normal_, "_to_copy": to_copy, "numel": numel,
}


def _meta_factory(kind):
    def kernel(*args, dtype=None, layout=None, device=None, pin_memory=None, **kwargs):
        if kind == "arange":
            vals = [float(a) if not isinstance(a, int) else a for a in args]
            start, end, step = (0, vals[0], 1) if len(vals) == 1 else (vals[0], vals[1], vals[2] if len(vals) > 2 else 1)
            return _make_meta((_arange_size(start, end, step),), _arange_dtype(vals, dtype))
        if kind == "eye":
            return _make_meta(_eye_sizes(args[0], args[1] if len(args) > 1 else args[0]), _dt(dtype))
        if kind == "full":
            return _make_meta(_size(args[0]), _fill_dtype(args[1], dtype))
        if kind == "randint":
            _check_from_to(_dt(dtype, D.int64), 0, args[0])
            return _make_meta(_size(args[1]), _dt(dtype, D.int64))
        if kind == "strided":
            _strided_storage(_size(args[0]), _size(args[1]))
            return _make_meta(_size(args[0]), _dt(dtype), _size(args[1]))
        return _make_meta(_size(args[0]), _dt(dtype), format_strides(_size(args[0]), kwargs.get("memory_format")))
    return kernel


META_KERNELS = {
    name: _meta_factory(kind) for name, kind in (
        ("zeros", "size"), ("ones", "size"), ("empty.memory_format", "size"), ("empty_strided", "strided"),
        ("rand", "size"), ("randn", "size"), ("full", "full"), ("arange", "arange"),
        ("arange.start", "arange"), ("arange.start_step", "arange"), ("eye", "eye"), ("eye.m", "eye"),
        ("randint", "randint"))
}
_ = META

# Their Meta kernels are META_KERNELS' (kind factory); ``_to_copy`` and ``numel`` handle meta inputs
# in the kernel itself; the ``*_like`` and ``new_*`` factories take the input's metadata.
KINDS = {**dict.fromkeys(META_KERNELS, "factory"), "_to_copy": "meta_aware", "numel": "meta_aware"}
LIKE = {"zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like", "new_empty", "new_zeros",
        "new_ones", "new_full"}
