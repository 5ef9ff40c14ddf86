"""The small-input routes of the pointwise kernels (clamp, relu, pow, lerp, addcmul/addcdiv, floor_divide,
remainder, maximum/minimum, nan_to_num, copy_, equal, where with a Scalar) and the promotion helper they
share (``common.tensor_result_dtype``): each pinned bit for bit against a numpy reference written out
from torch's rule, on 0-d, 1-element, 64-element and non-contiguous inputs holding -0.0, nan and inf.

A C-contiguous float32/float64 input takes the short route (Rust's ``_clamp_scalars``, or numpy without
the general route's checks); the non-contiguous view of the same values takes the general one, so the
two layouts must also agree with each other."""

import math
import warnings

import ml_dtypes
import numpy as np
import opyard
import pytest
from kernel_values import as_test_dtype
from opyard import _dtype as D
from opyard._aten.common import tensor_result_dtype

EDGES = [-0.0, 0.0, math.nan, math.inf, -math.inf, 1.0, -1.0, 0.5, -0.5, 2.0, -3.0, 7.0, 1e-40, 3.5, -1e30]
LAYOUTS = ["0d", "1", "64", "strided"]
FLOATS = [np.float32, np.float64]
BF16 = np.dtype(ml_dtypes.bfloat16)


def _values(layout, dtype, seed=0):
    """The numpy values of ``layout``: the edge values and random normals (one edge value for 0-d and
    one element, by ``seed``)."""
    rng = np.random.default_rng(seed)
    v = np.concatenate([np.array(EDGES), rng.standard_normal(64) * 4])
    if seed:  # the edge values meet other partners in a binary op
        v = rng.permutation(v)
    v = v[seed % len(EDGES):][:1] if layout in ("0d", "1") else v[:64]
    v = as_test_dtype(v, dtype)
    return v.reshape(()) if layout == "0d" else v


def _tensor(values, layout):
    """A tensor of ``values``: a view every other element of a larger one for ``strided``."""
    if layout != "strided":
        return opyard.from_numpy(np.array(values, copy=True))
    t = opyard.from_numpy(np.repeat(values, 2))[::2]
    assert not t.is_contiguous()
    return t


def _bits(a):
    """dtype, shape and bytes of ``a`` (nan in one pattern: its sign and payload are not pinned)."""
    a = np.array(a, copy=True)
    if a.dtype.kind == "f" or a.dtype == BF16:
        a[np.isnan(a.astype(np.float64))] = np.nan
    return a.dtype, a.shape, a.tobytes()


def _same(tensor, want):
    got = tensor.numpy()
    assert _bits(got) == _bits(np.asarray(want)), (got, want)


# --- tensor_result_dtype -------------------------------------------------------------------------

def _grouped_result_dtype(items):
    """ATen's ResultTypeState written out: the promoted dtypes of dimensioned tensors, of zero-dim
    tensors and of wrapped numbers, each weaker group only raising the category."""
    def promoted(dtypes):
        r = None
        for d in dtypes:
            r = d if r is None else D.promote_types(r, d)
        return r
    dims = [x.dtype for x in items if isinstance(x, opyard.Tensor) and x.dim()]
    zeros = [x.dtype for x in items if isinstance(x, opyard.Tensor) and not x.dim()]
    numbers = [D.wrapped_scalar_dtype(x) for x in items if not isinstance(x, opyard.Tensor) and x is not None]
    return D.combine_categories(promoted(dims), D.combine_categories(promoted(zeros), promoted(numbers)))


def _result_dtype_items():
    items = []
    for d in (D.float32, D.float64, D.float16, D.bfloat16, D.int64, D.int8, D.uint8, D.bool, D.complex64,
              D.uint16, D.float8_e4m3fn):
        items.append(opyard.zeros(3, dtype=d))
        items.append(opyard.zeros((), dtype=d))
    return items + [True, 2, -1.5, math.nan, 1j, None, np.float64(1.0), np.int64(2)]


@pytest.mark.parametrize("default", [opyard.float32, opyard.float64])
def test_tensor_result_dtype_is_the_grouped_rule_for_every_pair_and_triple(default):
    items = _result_dtype_items()
    before = opyard.get_default_dtype()
    opyard.set_default_dtype(default)
    try:
        rng = np.random.default_rng(1)
        calls = [(a, b) for a in items for b in items]
        calls += [tuple(items[i] for i in rng.integers(0, len(items), 3)) for _ in range(3000)]
        for call in calls:
            try:
                want = ("ok", _grouped_result_dtype(call))
            except Exception as e:  # promotion errors (float8, uint16) and non-numbers
                want = ("err", type(e), str(e))
            try:
                got = ("ok", tensor_result_dtype(*call))
            except Exception as e:
                got = ("err", type(e), str(e))
            assert got == want, call
    finally:
        opyard.set_default_dtype(before)


def test_tensor_result_dtype_of_the_common_calls():
    f, d, i, b = (opyard.zeros(2, dtype=t) for t in (D.float32, D.float64, D.int64, D.bool))
    assert tensor_result_dtype(f, -1, 1) is D.float32
    assert tensor_result_dtype(d, 0.5, None) is D.float64
    assert tensor_result_dtype(i, 2.5) is D.float32  # a float number raises an integral tensor's category
    assert tensor_result_dtype(b, 3) is D.int64
    assert tensor_result_dtype(f, 1j) is D.complex64
    assert tensor_result_dtype(f, d) is D.float64
    assert tensor_result_dtype(f, opyard.zeros((), dtype=D.float64)) is D.float32  # 0-d is weaker


# --- clamp / clip / relu ---------------------------------------------------------------------------

def _torch_clamp(x, lo, hi):
    """torch's clamp by Scalars: below ``lo`` becomes ``lo``, then above ``hi`` becomes ``hi``; an element
    equal to a bound is kept (-0.0 under 0.0), a nan element stays, a nan bound gives nan everywhere."""
    if (lo is not None and lo != lo) or (hi is not None and hi != hi):
        return np.full_like(x, np.nan)
    w = x.astype(np.float32) if x.dtype == BF16 else x
    r = w
    if lo is not None:
        b = np.asarray(lo).astype(w.dtype)  # an integer rounded once, as C++'s conversion
        r = np.where(r < b, b, r)
    if hi is not None:
        b = np.asarray(hi).astype(w.dtype)
        r = np.where(r > b, b, r)
    return r.astype(x.dtype)


# Bounds that round: 2**60 + 2**36 + 1 is 2**60 + 2**37 in float32, but 2**60 when it is rounded to
# a Python float first.
BIG = 2**60 + 2**36 + 1
BOUNDS = [(-1, 1), (0.0, None), (None, 0.0), (-0.0, 2.5), (0.5, 0.25), (None, math.nan), (-math.inf, math.inf),
          (-BIG, BIG), (None, -(2**53 + 1)), (0.1, 1e30)]


@pytest.mark.parametrize("dtype", FLOATS + [BF16])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("lo,hi", BOUNDS)
def test_clamp_by_numbers_is_torchs_rule(dtype, layout, lo, hi):
    for seed in range(3):
        x = _values(layout, dtype, seed)
        t = _tensor(x, layout)
        want = _torch_clamp(x, lo, hi)
        _same(opyard.clamp(t, lo, hi), want)
        _same(opyard.clip(t, lo, hi), want)
        _same(t.clamp(lo, hi), want)
        if hi is None:
            _same(opyard.clamp_min(t, lo), want)
        if lo is None:
            _same(opyard.clamp_max(t, hi), want)
        if layout != "strided":
            s = t.clone()
            version = s._version
            assert s.clamp_(lo, hi) is s and s._version == version + 1
            _same(s, want)


def test_clamp_of_float32_by_a_large_integer_rounds_it_once():
    x = opyard.tensor([2.0**62, 2.0**61, -2.0**61], dtype=opyard.float32)
    bits = opyard.clamp(x, -BIG, BIG).numpy().view(np.uint32).tolist()
    assert bits == [0x5D800001, 0x5D800001, 0xDD800001]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_clamp_of_int64_by_numbers_and_its_errors(layout):
    x = _values(layout, np.int64)
    t = _tensor(x, layout)
    _same(opyard.clamp(t, -3, 4), np.clip(x, -3, 4))
    assert opyard.clamp(t, -0.5, 0.5).dtype == opyard.float32  # a float bound promotes
    with pytest.raises(RuntimeError, match="value cannot be converted to type float without overflow"):
        opyard.clamp(_tensor(_values(layout, np.float32), layout), 1e39)
    with pytest.raises(RuntimeError, match="At least one of 'min' or 'max' must not be None"):
        opyard.clamp(t)


@pytest.mark.parametrize("dtype", FLOATS + [np.int64])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_clamp_by_tensors_of_the_same_dtype(dtype, layout):
    x, lo, hi = (_values(layout, dtype, s) for s in (0, 1, 2))
    t, tlo, thi = (_tensor(v, layout) for v in (x, lo, hi))
    with np.errstate(invalid="ignore"):
        _same(opyard.clamp(t, tlo, thi), np.minimum(np.maximum(x, lo), hi))
        _same(opyard.clamp(t, min=tlo), np.maximum(x, lo))
        _same(opyard.clamp_max(t, thi), np.minimum(x, hi))


@pytest.mark.parametrize("dtype", FLOATS + [BF16, np.int64])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_relu_keeps_negative_zero_and_nan(dtype, layout):
    for seed in range(3):
        x = _values(layout, dtype, seed)
        w = x.astype(np.float32) if dtype is BF16 else x
        want = np.where(w < 0, w.dtype.type(0), w).astype(x.dtype)
        t = _tensor(x, layout)
        _same(opyard.relu(t), want)
        _same(opyard.nn.functional.relu(t), want)
        s = t.clone()
        assert s.relu_() is s
        _same(s, want)


def test_relu_of_bool_is_refused():
    with pytest.raises(RuntimeError, match="\"clamp_min_cpu\" not implemented for 'Bool'"):
        opyard.relu(opyard.tensor([True, False]))


def test_relu_of_a_transposed_matrix_keeps_its_layout():
    m = opyard.from_numpy(np.array([[-0.0, -1.0], [2.0, math.nan]])).t()
    r = opyard.relu(m)
    assert r.stride() == m.stride()
    _same(r, np.where(m.numpy() < 0, 0.0, m.numpy()))


# --- pow ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("exponent", [2, 3, 0.5, -1, -2.5, 0, math.nan])
def test_pow_by_a_number_is_numpys_power_in_the_data_dtype(dtype, layout, exponent):
    for seed in range(2):
        x = _values(layout, dtype, seed)
        with np.errstate(all="ignore"):
            want = np.asarray(np.power(x, dtype(exponent)))
            base = np.asarray(np.power(dtype(2), x))
        t = _tensor(x, layout)
        _same(t ** exponent, want)
        _same(t.pow(exponent), want)
        _same(2 ** t, base)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_pow_of_bfloat16_and_int64_and_its_errors(layout):
    x = _values(layout, BF16)
    with np.errstate(all="ignore"):
        _same(_tensor(x, layout) ** 2, np.power(x.astype(np.float32), 2.0).astype(BF16))
    i = _values(layout, np.int64)
    _same(_tensor(i, layout) ** 3, np.power(i, 3))
    with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed"):
        _tensor(i, layout) ** -1
    with pytest.raises(RuntimeError, match="value cannot be converted to type float without overflow"):
        _tensor(_values(layout, np.float32), layout) ** 1e39


# --- lerp, addcmul, addcdiv -------------------------------------------------------------------------

def _torch_lerp(x, e, w):
    """torch's lerp with one weight, in the data dtype: ``x + w (e - x)`` for ``|w| < 0.5``, else
    ``e - (e - x)(1 - w)``."""
    w = x.dtype.type(w)
    with np.errstate(all="ignore"):
        diff = e - x
        return np.asarray(x + w * diff if abs(w) < 0.5 else e - diff * (1 - w))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("weight", [0.3, 0.5, 0.7, -1, 2, math.nan])
def test_lerp_by_a_number(dtype, layout, weight):
    x, e = _values(layout, dtype, 0), _values(layout, dtype, 5)
    t = _tensor(x, layout)
    _same(opyard.lerp(t, _tensor(e, layout), weight), _torch_lerp(x, e, weight))
    # Exact at both ends.
    finite = np.isfinite(x) & np.isfinite(e)
    assert np.array_equal(opyard.lerp(t, _tensor(e, layout), 1).numpy()[finite], e[finite])


def test_lerp_of_integers_or_mixed_dtypes_is_refused():
    with pytest.raises(NotImplementedError, match="lerp_kernel_scalar"):
        opyard.lerp(opyard.arange(3), opyard.arange(3), 0.5)
    with pytest.raises(RuntimeError, match="expected dtype float for `end` but got dtype double"):
        opyard.lerp(opyard.zeros(3), opyard.zeros(3, dtype=opyard.float64), 0.5)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("value", [1, 0.5, -2, 0, True])
def test_addcmul_and_addcdiv_are_numpys_passes_in_the_data_dtype(dtype, layout, value):
    s, a, b = (_values(layout, dtype, seed) for seed in (0, 3, 6))
    ts, ta, tb = (_tensor(v, layout) for v in (s, a, b))
    with np.errstate(all="ignore"):
        for op, fn in ((np.multiply, opyard.addcmul), (np.true_divide, opyard.addcdiv)):
            term = np.asarray(op(a, b))
            if value != 1 or isinstance(value, bool):
                term = np.asarray(term * dtype(value))
            _same(fn(ts, ta, tb, value=value), np.asarray(term + s))


def test_addcmul_value_checks():
    t = opyard.ones(4)
    with pytest.raises(RuntimeError, match="value cannot be converted to type float without overflow"):
        opyard.addcmul(t, t, t, value=1e39)
    assert opyard.addcmul(t, t, t, value=1e39 if False else 1e38).dtype == opyard.float32


# --- floor_divide, remainder ----------------------------------------------------------------------

def _torch_floor_divide(x, y):
    """torch's ``div_floor`` written out with fmod (``-5 // inf`` is -1; a zero quotient takes the sign
    of ``x / y``; division by zero is ``x / y``)."""
    with np.errstate(all="ignore"):
        x, y = np.asarray(x), np.asarray(y)
        mod = np.fmod(x, y)
        div = (x - mod) / y
        div = div - ((mod != 0) & ((y < 0) != (mod < 0)))
        floordiv = np.floor(div)
        floordiv = floordiv + (div - floordiv > 0.5)
        plain = x / y
        r = np.where(div != 0, floordiv, np.copysign(np.zeros_like(floordiv), plain))
        return np.where(y == 0, plain, r)


def _torch_remainder(x, y):
    """torch's float ``remainder``: fmod moved into the divisor's sign, a zero keeping fmod's sign."""
    with np.errstate(all="ignore"):
        mod = np.fmod(x, y)
        return np.where((mod != 0) & ((np.asarray(y) < 0) != (mod < 0)), mod + y, mod)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("other", FLOATS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_floor_divide_and_remainder_of_float_tensors(dtype, other, layout):
    for seed in range(3):
        x, y = _values(layout, dtype, seed), _values(layout, other, seed + 7)
        tx, ty = _tensor(x, layout), _tensor(y, layout)
        wide = np.promote_types(dtype, other)
        xw, yw = x.astype(wide), y.astype(wide)
        _same(tx // ty, _torch_floor_divide(xw, yw).astype(wide))
        _same(tx % ty, _torch_remainder(xw, yw).astype(wide))
        _same(opyard.div(tx, ty, rounding_mode="floor"), _torch_floor_divide(xw, yw).astype(wide))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("number", [2, -2.5, 0.0, -0.0, math.inf, 3])
def test_floor_divide_and_remainder_by_a_number(dtype, layout, number):
    x = _values(layout, dtype)
    t = _tensor(x, layout)
    _same(t // number, _torch_floor_divide(x, dtype(number)).astype(dtype))
    _same(t % number, _torch_remainder(x, dtype(number)).astype(dtype))


def test_remainder_keeps_the_dividends_sign_on_a_zero_result():
    x = opyard.tensor([-4.0, 4.0, -0.0, 0.0, 6.0])
    r = (x % opyard.tensor([2.0, -2.0, 3.0, -3.0, 3.0])).tolist()
    assert [math.copysign(1.0, v) for v in r] == [-1.0, 1.0, -1.0, 1.0, 1.0] and r == [0.0] * 5
    assert math.copysign(1.0, (opyard.tensor(-0.0) % 1.0).item()) == -1.0


def test_floor_divide_and_remainder_of_integers():
    x = opyard.tensor([-7, 7, 0, -1])
    assert (x // 2).tolist() == [-4, 3, 0, -1] and (x % -3).tolist() == [-1, -2, 0, -1]
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        x // opyard.tensor([1, 0, 1, 1])
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        x % 0


# --- maximum, minimum -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype,other", [(np.float32, np.float32), (np.float64, np.float64), (np.float32, np.float64),
                                         (np.int64, np.int64), (np.bool_, np.bool_), (BF16, BF16),
                                         (np.int64, np.float32)])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_maximum_and_minimum_propagate_nan_in_the_promoted_dtype(dtype, other, layout):
    x, y = _values(layout, dtype, 1), _values(layout, other, 2)
    tx, ty = _tensor(x, layout), _tensor(y, layout)
    want_dt = tensor_result_dtype(tx, ty).np
    work = np.float32 if want_dt == BF16 else want_dt
    with np.errstate(invalid="ignore"):
        for fn, ref in ((opyard.maximum, np.maximum), (opyard.minimum, np.minimum), (opyard.max, np.maximum)):
            _same(fn(tx, ty), ref(x.astype(work), y.astype(work)).astype(want_dt))


def test_maximum_of_complex_is_refused():
    z = opyard.zeros(2, dtype=opyard.complex64)
    with pytest.raises(TypeError, match="maximum not implemented for complex tensors"):
        opyard.maximum(z, z)


# --- nan_to_num -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS + [BF16, np.int64])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("args", [(), (1.5,), (None, 10.0, -10.0), (-0.0,)])
def test_nan_to_num(dtype, layout, args):
    for seed in range(3):
        x = _values(layout, dtype, seed)
        t = _tensor(x, layout)
        if dtype is np.int64:
            _same(opyard.nan_to_num(t, *args), x)
            continue
        nan, posinf, neginf = (tuple(args) + (None, None, None))[:3]
        info = ml_dtypes.finfo(dtype)
        w = x.astype(np.float64)
        r = np.where(np.isnan(w), 0.0 if nan is None else nan, w)
        r = np.where(np.isposinf(w), float(info.max) if posinf is None else posinf, r)
        r = np.where(np.isneginf(w), float(info.min) if neginf is None else neginf, r)
        _same(opyard.nan_to_num(t, *args), r.astype(dtype))
        s = t.clone()
        assert s.nan_to_num_(*args) is s
        _same(s, r.astype(dtype))


def test_nan_to_num_reads_its_replacements_as_python_floats():
    # ``float? nan``: an integer becomes a Python float first (2**60 here), then float32.
    x = opyard.tensor([math.nan, 1.0], dtype=opyard.float32)
    assert x.nan_to_num(BIG).numpy().view(np.uint32).tolist() == [0x5D800000, 0x3F800000]


# --- copy_, equal ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS + [np.int64])
@pytest.mark.parametrize("src", FLOATS + [np.int64, np.bool_])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_copy_writes_the_source_converted(dtype, src, layout):
    x, y = _values(layout, dtype, 1), _values(layout, src, 2)
    t = _tensor(x, layout)
    version = t._version
    assert t.copy_(_tensor(y, layout)) is t and t._version == version + 1
    with np.errstate(invalid="ignore"):
        _same(t, y.astype(dtype))
    assert t.copy_(t) is t  # onto itself
    with np.errstate(invalid="ignore"):
        _same(t, y.astype(dtype))


def test_copy_broadcasts_and_refuses_what_does_not_fit():
    t = opyard.zeros(2, 3)
    t.copy_(opyard.tensor([1.0, 2.0, 3.0]))
    assert t.tolist() == [[1.0, 2.0, 3.0]] * 2
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast shape \[2, 3\]"):
        opyard.zeros(3).copy_(opyard.zeros(2, 3))
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        opyard.zeros(3).expand(2, 3).copy_(opyard.ones(2, 3))


@pytest.mark.parametrize("dtype", FLOATS + [np.int64, np.bool_, BF16])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_equal(dtype, layout):
    x = _values(layout, dtype, 4)
    t = _tensor(x, layout)
    want = bool(np.all(x.astype(np.float64) == x.astype(np.float64)))  # False with a nan
    r = opyard.equal(t, t.clone())
    assert type(r) is bool and r is want
    assert opyard.equal(t, t) is want
    assert opyard.equal(t, t.reshape(-1)) is (t.dim() == 1 and want)
    finite = _tensor(np.nan_to_num(x.astype(np.float64), posinf=9.0, neginf=-9.0).astype(dtype), layout)
    assert opyard.equal(finite, finite.to(opyard.float64)) is True  # values compared across dtypes
    if finite.numel():
        assert opyard.equal(finite, finite + 1) is False
    assert opyard.equal(opyard.zeros(0), opyard.zeros(0)) is True


# --- where with a Scalar --------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS + [BF16, np.int64])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("number", [0.0, -0.0, -math.inf, math.nan, 2, 0.1])
def test_where_with_a_number(dtype, layout, number):
    x = _values(layout, dtype, 2)
    t = _tensor(x, layout)
    c = np.asarray(_values(layout, np.float64, 3) > 0)
    mask = _tensor(c, layout)
    dt = tensor_result_dtype(t, number).np
    with np.errstate(all="ignore"):
        v = np.asarray(number).astype(dt)
    _same(opyard.where(mask, t, number), np.where(c, x.astype(dt), v))
    _same(opyard.where(mask, number, t), np.where(c, v, x.astype(dt)))


def test_where_checks():
    t = opyard.zeros(3)
    with pytest.raises(RuntimeError, match="value cannot be converted to type float without overflow"):
        opyard.where(t > 0, t, 1e39)
    with pytest.raises(RuntimeError, match="where expected condition to be a boolean tensor"):
        opyard.where(t, t, 0.0)


# --- addmm with the default factors (linear's call) ------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("self_shape", [(5,), (3, 5), (1, 5), (3, 1), ()])
@pytest.mark.parametrize("transposed", [False, True])
def test_addmm_default_factors_match_the_general_route(dtype, self_shape, transposed):
    """``addmm(self, a, b)`` (ints 1 for beta and alpha) gives what the general route (``beta=1.0``)
    gives, byte for byte, for every broadcastable ``self``, a transposed ``mat2``, and nan/inf
    entries, without a numpy warning."""
    rng = np.random.default_rng(5)
    a = rng.standard_normal((3, 4)).astype(dtype)
    b = rng.standard_normal((5, 4) if transposed else (4, 5)).astype(dtype)
    a[0, 0], a[1, 1] = np.inf, np.nan
    s = rng.standard_normal(self_shape).astype(dtype)
    ta, ts = opyard.from_numpy(a), opyard.from_numpy(s)
    tb = opyard.from_numpy(b).t() if transposed else opyard.from_numpy(b)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = opyard.addmm(ts, ta, tb)
    want = opyard.addmm(ts, ta, tb, beta=1.0, alpha=1.0)
    assert got.dtype == want.dtype and got.shape == want.shape == (3, 5)
    assert got.numpy().tobytes() == want.numpy().tobytes()
    assert np.array_equal(got.numpy(), (a @ (b.T if transposed else b)) + s, equal_nan=True)


# --- numpy's error state around a kernel's call -----------------------------------------------------

@pytest.mark.parametrize("call", [lambda t: t.log(), lambda t: t.sqrt(), lambda t: t.log1p(),
                                  lambda t: t / opyard.zeros(3, dtype=opyard.float64), lambda t: t % 0.0])
def test_kernels_are_quiet_and_leave_numpys_error_state_as_it_was(call):
    """A kernel computes inf/nan without a numpy warning (torch's silence), even under a user's
    ``np.seterr(all="raise")``, and that setting holds again after the call, also after an error."""
    t = opyard.tensor([-1.0, 0.0, 2.0])
    before = np.geterr()
    try:
        np.seterr(all="raise")
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            call(t)
        assert np.geterr() == {"divide": "raise", "over": "raise", "under": "raise", "invalid": "raise"}
        from opyard._aten.common import quietly
        with pytest.raises(ZeroDivisionError):
            quietly(lambda: 1 / 0)
        assert np.geterr()["invalid"] == "raise"
        with pytest.raises(FloatingPointError):
            np.sqrt(np.array([-1.0]))
    finally:
        np.seterr(**before)
