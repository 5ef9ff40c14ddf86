"""The small-input routes of the factories (``zeros``/``ones``/``empty``/``full``/``eye``/``arange``/
``linspace``/``rand``/``randn``/``tensor`` and the ``*_like`` ones), of ``_to_copy`` (``float()``,
``to(dtype)``), of the shape ops (``contiguous``, ``flatten``, ``cat``, ``stack``, ``flip``, ``split``/
``chunk``/``unbind``) and of indexing (``x[t]``, ``index``, ``index_select``, the bounds checks of
``gather``/``scatter``/``index_fill``/``index_copy``).

Each route is pinned against what the general route gives: numpy's own function where the kernel now
takes its steps (``np.full``, ``np.eye``, ``np.stack``, ``np.flip``, ``np.split``, fancy indexing), the
general kernel's formula written out (``linspace``, ``arange``), or the same call made to take the
general route (an explicit ``dtype=``, a non-contiguous or F-ordered input, an index of more than a
few elements); and against torch's rules: dtypes, the default dtype, ``requires_grad``, ``out=``, the
seeded streams, 0-d and empty inputs, the errors."""

import os
import subprocess
import sys
import warnings

import numpy as np
import opyard
import pytest
from opyard import _dtype as D
from opyard._aten import factory, indexing
from opyard._factories import _infer_dtype, _numbers_dtype
from opyard.overrides import TorchFunctionMode
from opyard.utils._python_dispatch import TorchDispatchMode

DTYPES = [None, opyard.float32, opyard.float64, opyard.float16, opyard.bfloat16, opyard.int64,
          opyard.int32, opyard.uint8, opyard.bool, opyard.complex64]
SIZES = [(64,), (16, 16), (), (0,), (2, 0, 3)]


@pytest.fixture(params=[opyard.float32, opyard.float64], ids=["default32", "default64"])
def default_dtype(request):
    old = opyard.get_default_dtype()
    opyard.set_default_dtype(request.param)
    yield request.param
    opyard.set_default_dtype(old)


def _np(dt):
    return (dt or opyard.get_default_dtype()).np


def _bits(t):
    a = t.numpy()
    return str(t.dtype), tuple(t.shape), tuple(t.stride()), a.tobytes()


class _Calls(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append((str(func), args, kwargs))
        return func(*args, **(kwargs or {}))


# --- factories ---------------------------------------------------------------------------------------

def test_keywords_left_out_are_what_a_mode_sees():
    # Note [Keywords left out]: a None keyword not passed is the same call to a dispatch mode
    with _Calls() as quiet:
        opyard.zeros(2, 3)
        opyard.full((2,), 1.5)
        opyard.arange(4)
        opyard.zeros_like(opyard.ones(2))
    with _Calls() as spelled:
        opyard.ops.aten.zeros.default([2, 3], dtype=None, device=None)
        opyard.ops.aten.full.default([2], 1.5, dtype=None, device=None)
        opyard.ops.aten.arange.default(4, dtype=None, device=None)
        opyard.ops.aten.zeros_like.default(opyard.ones(2), dtype=None, device=None)
    assert [(f, k) for f, _, k in quiet.seen] == [(f, k) for f, _, k in spelled.seen]
    assert [f for f, _, _ in quiet.seen][:3] == ["aten.zeros.default", "aten.full.default", "aten.arange.default"]
    with _Calls() as given:
        opyard.zeros(2, dtype=opyard.float64)
        opyard.eye(2, device="meta")
    assert given.seen[0][2] == {"dtype": opyard.float64}
    assert given.seen[1][2]["device"] == opyard.device("meta")


@pytest.mark.parametrize("dt", DTYPES, ids=str)
@pytest.mark.parametrize("size", SIZES, ids=str)
def test_zeros_ones_empty_against_numpy(dt, size, default_dtype):
    for make, ref in ((opyard.zeros, np.zeros), (opyard.ones, np.ones)):
        got = make(*size, dtype=dt)
        want = ref(size, _np(dt))
        assert got.dtype is (dt or default_dtype)
        assert got.numpy().dtype == want.dtype and got.numpy().tobytes() == want.tobytes()
        assert got.shape == size and got.is_contiguous() and not got.requires_grad
        assert make(list(size), dtype=dt).shape == size
    e = opyard.empty(size, dtype=dt)
    assert e.dtype is (dt or default_dtype) and e.shape == size and e.stride() == np.zeros(size).strides[:0] + \
        tuple(s // 8 for s in np.zeros(size).strides)


def test_empty_fills_in_deterministic_mode():
    opyard.use_deterministic_algorithms(True)
    try:
        assert np.isnan(opyard.empty(4).numpy()).all()
        assert (opyard.empty(3, dtype=opyard.int32).numpy() == np.iinfo(np.int32).max).all()
        assert np.isnan(opyard.empty_like(opyard.ones(2, dtype=opyard.float64)).numpy()).all()
    finally:
        opyard.use_deterministic_algorithms(False)


def test_empty_layouts_and_devices_take_the_general_route():
    assert opyard.empty(2, 3, 4, 5, memory_format=opyard.channels_last).stride() == (60, 1, 15, 3)
    assert opyard.empty(2, 3, memory_format=opyard.contiguous_format).stride() == (3, 1)
    m = opyard.empty(2, 3, device="meta")
    assert m.is_meta and m.shape == (2, 3)
    assert opyard.empty_like(opyard.empty(2, 3, 4, 5, memory_format=opyard.channels_last)).stride() == (60, 1, 15, 3)


@pytest.mark.parametrize("dt", DTYPES + [opyard.int8, opyard.float8_e4m3fn], ids=str)
@pytest.mark.parametrize("value", [2.0, -0.0, 1.5, 1e-50, 3.0e38, float("nan"), float("-inf"), 0, 1, -1, 7,
                                   255, 2**31 - 1, 2**53 + 1, 2**60 + 2**36 + 1, 2**64 - 1, -2**63, True, False,
                                   1j, 2.7],
                         ids=repr)
def test_full_stores_what_np_full_stores(dt, value):
    def outcome(make):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = make()
        except Exception as e:  # the same error, or the same values
            return type(e), str(e)
        return r.dtype, r.tobytes()

    got = outcome(lambda: opyard.full((3,), value, dtype=dt).numpy())
    like = outcome(lambda: opyard.full_like(opyard.zeros(3, dtype=opyard.float64), value,
                                            dtype=dt or D.scalar_dtype(value)).numpy())
    dt = dt or D.scalar_dtype(value)
    want = outcome(lambda: np.full((3,), factory.checked_fill(value, dt), dt.np))  # the general route
    assert got == want and like == want


def test_full_dtype_rules(default_dtype):
    assert opyard.full((2,), 1.0).dtype is default_dtype
    assert opyard.full((2,), 1).dtype is opyard.int64
    assert opyard.full((2,), True).dtype is opyard.bool
    assert opyard.full((2,), 1j).dtype is default_dtype.to_complex()
    assert opyard.full((2,), 2.0).shape == (2,) and opyard.full([], 2.0).shape == ()
    with pytest.raises(RuntimeError, match="value cannot be converted to type float without overflow"):
        opyard.full((2,), 1e40, dtype=opyard.float32)
    with pytest.raises(RuntimeError, match="value cannot be converted"):  # the value is checked first
        opyard.full((-1,), 1e40, dtype=opyard.float32)
    assert opyard.scalar_tensor(1).dtype is default_dtype and opyard.scalar_tensor(2.5).item() == 2.5


@pytest.mark.parametrize("dt", DTYPES + [opyard.float8_e5m2], ids=str)
def test_eye_against_np_eye(dt):
    for n in range(5):
        for m in (None, 0, 1, 2, 3, 5):
            got = opyard.eye(n, dtype=dt) if m is None else opyard.eye(n, m, dtype=dt)
            want = np.eye(n, n if m is None else m, dtype=_np(dt))
            assert got.shape == want.shape and got.numpy().tobytes() == want.tobytes()
    with pytest.raises(RuntimeError, match="n must be greater or equal to 0, got -1"):
        opyard.eye(-1)
    with pytest.raises(RuntimeError, match="m must be greater or equal to 0, got -2"):
        opyard.eye(2, -2)


ARANGES = [(64,), (0,), (1,), (0, 64), (-5, 5), (3, 3), (2, 20, 3), (-7, 11, 4), (2**61, 2**61 + 5),
           (-2**62, -2**62 + 3), (0, 2**62 - 1, 2**60), (2**62 - 3, 2**62 - 1)]


@pytest.mark.parametrize("args", ARANGES, ids=str)
def test_arange_of_ints_is_the_general_one(args):
    got = opyard.arange(*args)
    general = opyard.arange(*args, dtype=opyard.int64)  # an explicit dtype takes the general route
    assert got.dtype is opyard.int64 and _bits(got) == _bits(general)
    assert got.numpy().tolist() == list(range(*args))


@pytest.mark.parametrize("args, error", [
    ((0, 10, 0), "step must be nonzero"), ((5, 0), "upper bound and lower bound inconsistent with step sign"),
    ((2**63,), "invalid size, possible overflow?"), ((-2**63, 2**63 - 1), "invalid size, possible overflow?")],
    ids=str)
def test_arange_errors_kept(args, error):
    with pytest.raises(RuntimeError, match=error.replace("?", r"\?")):
        opyard.arange(*args)


def test_arange_floats_and_counting_down(default_dtype):
    assert opyard.arange(0.0, 1.0, 0.25).numpy().tolist() == [0.0, 0.25, 0.5, 0.75]
    assert opyard.arange(0.0, 1.0, 0.25).dtype is default_dtype
    assert opyard.arange(10, 0, -3).numpy().tolist() == [10, 7, 4, 1]
    assert opyard.arange(2.1, -2.9, -1.0, dtype=opyard.int64).numpy().tolist() == [2, 1, 0, -1, -2]
    assert opyard.arange(3, requires_grad=False).dtype is opyard.int64
    with pytest.raises(RuntimeError, match="Only Tensors of floating point"):
        opyard.arange(3, requires_grad=True)
    assert opyard.arange(3.0, requires_grad=True).requires_grad


def _linspace_formula(start, end, steps, npdt):
    """The general formula of ``torch_linspace`` as it was written before the coefficients were kept:
    ``start + step * i`` over the first half, ``end - step * (steps - 1 - i)`` over the second."""
    s, e = npdt.type(start), npdt.type(end)
    if steps == 1:
        return np.array([s], npdt)
    step = (e - s) / npdt.type(steps - 1)
    i = np.arange(steps, dtype=np.float64)
    first = i < steps // 2
    coef = np.where(first, i, -(steps - 1 - i))
    base = np.where(first, np.float64(s), np.float64(e))
    if npdt == np.float32:
        return (base + np.float64(step) * coef).astype(np.float32)
    return factory._fma(np.float64(step), coef, base)


ENDS = [0.0, -0.0, 1.0, -3.5, 0.1, 7, 1e-45, 3.3e38, -3.3e38, 1e300, float("inf"), float("nan"), float("-nan")]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dt", [opyard.float32, opyard.float64], ids=str)
@pytest.mark.parametrize("steps", [1, 2, 3, 4, 5, 64, 65, 4097, 5000])
def test_linspace_against_the_general_formula(dt, steps):
    for start in ENDS:
        for end in ENDS[::3] + [start, -start]:
            got = opyard.linspace(start, end, steps, dtype=dt).numpy()
            with np.errstate(all="ignore"):
                want = _linspace_formula(float(start), float(end), steps, dt.np)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (start, end, steps)
    for s in (64, 65):  # a kept multiplier array is never written
        coef = factory._linspace_coefs(s)
        assert not coef.flags.writeable and coef[-1] == 0 and np.signbit(coef[-1]) and coef[s // 2] < 0


def test_linspace_rules(default_dtype):
    assert opyard.linspace(0, 1, 5).dtype is default_dtype
    assert opyard.linspace(0, 1j, 3).dtype is default_dtype.to_complex()
    assert opyard.linspace(0, 10, 4, dtype=opyard.int64).numpy().tolist() == [0, 3, 6, 10]
    assert opyard.linspace(opyard.tensor(1.0), 2, 3).numpy().tolist() == [1.0, 1.5, 2.0]
    assert opyard.linspace(3, 5, 1).numpy().tolist() == [3.0] and opyard.linspace(3, 5, 0).shape == (0,)
    assert opyard.linspace(0, 1, 3, requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match="number of steps must be non-negative"):
        opyard.linspace(0, 1, -1)
    out = opyard.empty(3)
    assert opyard.logspace(0, 2, 3, out=out) is out and out.numpy().tolist() == [1.0, 10.0, 100.0]


def test_seeded_streams_unchanged():
    opyard.manual_seed(0)
    assert opyard.randn(3).numpy().tolist() == [0.1257302165031433, -0.13210485875606537, 0.6404226422309875]
    assert opyard.rand(2).numpy().tolist() == [0.016527635976672173, 0.8132702112197876]
    assert opyard.randn(2, dtype=opyard.float64).numpy().tolist() == [0.36159505490948474, 1.3040000451301372]
    assert opyard.randint(0, 100, (3,)).numpy().tolist() == [97, 72, 63]
    g = opyard.Generator()
    g.manual_seed(123)
    assert opyard.randn(2, generator=g).numpy().tolist() == [-0.9891213774681091, -0.3677866458892822]
    assert opyard.rand(2, generator=g, dtype=opyard.float64).numpy().tolist() == [0.22035987277261138,
                                                                                   0.1843718106986697]
    opyard.manual_seed(7)
    assert opyard.randn_like(opyard.zeros(2)).numpy().tolist() == [0.001230153371579945, 0.2987455427646637]
    assert opyard.rand_like(opyard.zeros(2, dtype=opyard.float64)).numpy().tolist() == [0.7756856902451935,
                                                                                         0.22520718999059186]


@pytest.mark.parametrize("size", [(64,), (2, 3), (), (0,)], ids=str)
def test_samplers_draw_as_numpy_does(size, default_dtype):
    for make, draw in ((opyard.randn, "standard_normal"), (opyard.rand, "random")):
        opyard.manual_seed(11)
        got = make(*size)
        want = getattr(np.random.default_rng(0), draw)  # (only the shape and dtype: the stream is pinned above)
        assert got.shape == size and got.dtype is default_dtype and got.numpy().dtype == default_dtype.np
        assert want is not None
        opyard.manual_seed(11)
        assert make(list(size)).numpy().tobytes() == got.numpy().tobytes()
    with pytest.raises(NotImplementedError, match='"normal_kernel_cpu" not implemented for \'Long\''):
        opyard.randn(2, dtype=opyard.int64)
    with pytest.raises(NotImplementedError, match='"check_uniform_bounds" not implemented for \'Bool\''):
        opyard.rand(2, dtype=opyard.bool)


DATA = [1.0, 1, True, 1j, [], [[]], (), [(), ()], [1.0, 2.0, 3.0], [1, 2.0], [1, 2], [True, False], [True, 1],
        [1, 2.0, 1j], [[1, 2], [3, 4]], ((1, 2), [3, True]), [[[1j]]], [[1, 2], [3]], [1, [2]],
        [np.float32(1.5)], [opyard.tensor(1.0), 2], [[opyard.tensor(1), opyard.tensor(2)]], np.float64(2.0)]


@pytest.mark.parametrize("data", DATA, ids=lambda d: repr(d)[:30])
def test_tensor_infers_the_general_dtype(data, default_dtype):
    found = _numbers_dtype(data)
    try:
        general = _infer_dtype(data)
    except TypeError:
        general = None
    assert found is None or found is general
    try:
        got = opyard.tensor(data)
    except ValueError as e:  # ragged: torch's message
        assert "expected sequence of length" in str(e)
        return
    if general is not None and not any(isinstance(x, opyard.Tensor) for x in np.ravel(np.array(data, dtype=object))):
        assert got.dtype is general
        assert _bits(got) == _bits(opyard.tensor(data, dtype=general))


def test_tensor_rules(default_dtype):
    assert opyard.tensor([1.0, 2.0]).dtype is default_dtype
    assert opyard.tensor([1, 2]).dtype is opyard.int64 and opyard.tensor(3.0).shape == ()
    assert opyard.tensor([1.5], dtype=opyard.float16).dtype is opyard.float16
    assert opyard.tensor([opyard.tensor(1.0), 2], dtype=opyard.float64).numpy().tolist() == [1.0, 2.0]
    assert opyard.tensor([1.0], requires_grad=True).requires_grad
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        opyard.tensor([2**63])
    with pytest.raises(TypeError, match="Could not infer dtype of str"):
        opyard.tensor(["a"])


def test_like_factories_keep_the_input():
    x = opyard.ones(2, 3, dtype=opyard.float64).t()
    for make in (opyard.zeros_like, opyard.ones_like, opyard.empty_like):
        r = make(x)
        assert r.dtype is opyard.float64 and r.shape == (3, 2) and not r.requires_grad
        assert make(x, dtype=opyard.int32).dtype is opyard.int32
        assert make(x, requires_grad=True).requires_grad
    assert opyard.full_like(x, 7).numpy().tolist() == [[7.0, 7.0]] * 3
    assert opyard.full_like(x, 7, dtype=opyard.int64).dtype is opyard.int64
    assert opyard.zeros_like(x, device="meta").is_meta
    assert x.new_zeros(4).dtype is opyard.float64 and x.new_empty((2, 2)).shape == (2, 2)
    assert x.new_full((2,), 3).numpy().tolist() == [3.0, 3.0] and x.new_ones(1).numpy().tolist() == [1.0]


# --- casts --------------------------------------------------------------------------------------------

CAST_INPUTS = [lambda: opyard.randn(3, 4), lambda: opyard.randn(3, 4).t(), lambda: opyard.arange(12).reshape(3, 4),
               lambda: opyard.tensor([1.5, -2.5, 1e10, float("nan"), 600.0]), lambda: opyard.tensor(3.0),
               lambda: opyard.zeros(0, 3), lambda: opyard.randn(2, 3, 4, 5).permute(0, 2, 3, 1),
               lambda: opyard.randn(8)[::2]]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("make", CAST_INPUTS)
@pytest.mark.parametrize("dt", [opyard.float32, opyard.float64, opyard.int64, opyard.float16, opyard.bool,
                                opyard.uint8, opyard.complex64], ids=str)
def test_casts_against_numpy(make, dt):
    x = make()
    got = x.to(dt)
    if dt is x.dtype:
        assert got is x
        return
    want = np.array(x.numpy(), dtype=dt.np, copy=True)  # numpy's cast, the input's layout kept (order K)
    assert got.dtype is dt and got.numpy().tobytes() == want.tobytes() and got.stride() == tuple(
        s // want.itemsize for s in want.strides)
    assert got.numpy().base is None or not np.shares_memory(got.numpy(), x.numpy())


def test_cast_rules():
    x = opyard.tensor([500.0, -500.0, float("inf"), 1.0])
    assert x.to(opyard.float8_e4m3fn).float().numpy().tolist() == [448.0, -448.0, 448.0, 1.0]  # saturates
    assert x.float() is x and x.double().dtype is opyard.float64
    assert x.to(opyard.float64, copy=True).dtype is opyard.float64
    assert x.to("meta").is_meta and x.to(dtype=opyard.float16, device="meta").dtype is opyard.float16
    g = opyard.ones(2, requires_grad=True)
    h = g.double()
    assert h.requires_grad and h.grad_fn is not None
    with pytest.raises(NotImplementedError, match="Cannot copy out of meta tensor"):
        opyard.empty(2, device="meta").to("cpu")


# --- shape ops ----------------------------------------------------------------------------------------

SHAPES = [lambda: opyard.randn(4, 6), lambda: opyard.randn(4, 6).t(), lambda: opyard.randn(2, 3, 4),
          lambda: opyard.randn(5), lambda: opyard.tensor(3.0), lambda: opyard.zeros(0, 3),
          lambda: opyard.randn(2, 3, 4, 5).permute(0, 2, 3, 1), lambda: opyard.randn(4, 6)[:, ::2],
          lambda: opyard.randn(1, 4), lambda: opyard.randn(4, 1).expand(4, 3)]


@pytest.mark.parametrize("make", SHAPES)
def test_contiguous(make):
    x = make()
    r = x.contiguous()
    assert (r is x) == x.is_contiguous()
    assert r.is_contiguous() and r.numpy().tobytes() == np.ascontiguousarray(x.numpy()).tobytes()
    assert x.contiguous(memory_format=opyard.preserve_format) is r if r is x else True
    m = opyard.empty(2, 3, device="meta")
    assert m.contiguous() is m and m.t().contiguous() is not m.t()


class _NeverContiguous(opyard.Tensor):
    def is_contiguous(self, memory_format=None):
        return False


def test_contiguous_asks_a_subclass():
    s = opyard.ones(2, 3).as_subclass(_NeverContiguous)
    assert s.contiguous() is not s


@pytest.mark.parametrize("make", SHAPES)
def test_flatten(make):
    x = make()
    r = x.flatten()
    assert r.shape == ((x.numel(),) if x.dim() else (1,)) and r.numpy().tobytes() == x.numpy().reshape(-1).tobytes()
    assert (r is x) == (x.dim() == 1)
    if x.dim() > 1:
        general = x.flatten(0, x.dim() - 1)  # an explicit last dim takes the general route
        assert _bits(r) == _bits(general) and (r._base is None) == (general._base is None)
        assert x.flatten(1).shape == x.shape[:1] + (int(np.prod(x.shape[1:])),)


@pytest.mark.parametrize("make", SHAPES)
@pytest.mark.parametrize("dim", [0, -1, 1])
def test_cat_and_stack_against_numpy(make, dim):
    x = make()
    if x.dim() == 0 or dim >= x.dim():
        return
    y = opyard.from_numpy(np.ascontiguousarray(x.numpy()) * 2)
    got = opyard.cat([x, y], dim)
    want = np.concatenate([x.numpy(), y.numpy()], axis=dim)
    assert got.numpy().tobytes() == want.tobytes() and got.shape == want.shape
    got = opyard.stack([x, y, x], dim)
    want = np.stack([x.numpy(), y.numpy(), x.numpy()], axis=dim)
    assert got.numpy().tobytes() == want.tobytes() and got.shape == want.shape and got.is_contiguous()


def test_cat_and_stack_rules():
    a, b = opyard.tensor([1, 2]), opyard.tensor([0.5], dtype=opyard.float64)
    assert opyard.cat([a, b]).dtype is opyard.float64 and opyard.cat([a, b]).numpy().tolist() == [1, 2, 0.5]
    assert opyard.stack([opyard.tensor(1), opyard.tensor(2.0), opyard.tensor(True)]).dtype is opyard.float32
    assert opyard.cat([opyard.tensor([]), opyard.tensor([1, 2])]).dtype is opyard.float32  # the empty one counts
    assert opyard.cat([opyard.tensor([]), opyard.tensor([], dtype=opyard.int64)]).shape == (0,)
    assert opyard.stack([opyard.zeros(2), opyard.zeros(2)], -1).stride() == (2, 1)
    with pytest.raises(RuntimeError, match="stack expects each tensor to be equal size"):
        opyard.stack([opyard.zeros(2), opyard.zeros(3)])
    with pytest.raises(RuntimeError, match="Sizes of tensors must match except in dimension 0"):
        opyard.cat([opyard.zeros(2, 3), opyard.zeros(3, 2)])
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        opyard.cat([opyard.zeros(2), opyard.zeros(2, device="meta")])
    assert opyard.stack([opyard.zeros(2, device="meta")] * 2).shape == (2, 2)
    x = opyard.ones(2, requires_grad=True)
    opyard.stack([x, x]).sum().backward()
    assert x.grad.numpy().tolist() == [2.0, 2.0]


@pytest.mark.parametrize("make", SHAPES)
def test_flip_against_numpy(make):
    x = make()
    for dims in ([0], [-1], [0, 1], [], [1, 0]):
        try:
            axes = tuple(d % max(x.dim(), 1) for d in dims)
            want = np.flip(x.numpy(), axes).copy() if x.dim() and max(axes, default=0) < x.dim() else None
        except Exception:
            want = None
        if want is None:
            continue
        got = x.flip(dims)
        assert got.numpy().tobytes() == want.tobytes() and got.is_contiguous()
    assert opyard.tensor(3.0).flip([]).item() == 3.0
    with pytest.raises(RuntimeError, match="dim 0 appears multiple times in the list of dims"):
        opyard.zeros(2, 2).flip(0, 0)


def _pieces(ts):
    return [(tuple(t.shape), tuple(t.stride()), t.storage_offset(), t.numpy().tobytes()) for t in ts]


@pytest.mark.parametrize("make", SHAPES[:4] + SHAPES[5:])
def test_split_chunk_unbind_are_numpys_views(make):
    x = make()
    for d in range(x.dim()):
        n = x.shape[d]
        for size in range(1, n + 2):
            got = x.split(size, d)
            want = np.split(x.numpy(), list(range(size, n, size)), axis=d)
            assert [(p.shape, p.tobytes()) for p in want] == [(tuple(t.shape), t.numpy().tobytes()) for t in got]
            assert all(t._base is (x._base if x._base is not None else x) for t in got)
            assert _pieces(x.chunk(size, d)) == _pieces(x.split(max(-(-n // size), 1), d))
        got = x.unbind(d)
        assert len(got) == n and _pieces(got) == _pieces([x.select(d, i) for i in range(n)])
    if x.dim() and x.shape[0] > 1 and x.is_contiguous():
        x.split(1)[1].fill_(9.0)  # views: the write shows in the input
        assert (x[1] == 9.0).all()


def test_split_of_an_empty_dim():
    z = opyard.zeros(0, 3)
    assert [t.shape for t in z.split(0)] == [(0, 3)]
    assert [t.shape for t in z.split(2)] == [(0, 3)]
    with pytest.raises(RuntimeError, match="split_size can only be 0 if dimension size is 0"):
        opyard.zeros(2).split(0)
    m = opyard.empty(4, 3, device="meta")
    assert [t.stride() for t in m.split(2)] == [(3, 1), (3, 1)] and [t.storage_offset() for t in m.unbind(1)] == [0, 1, 2]


def test_pieces_without_the_fast_paths():
    # Note [Piece kernels]: with OPYARD_FASTPATH=0 the Python kernels make the same pieces
    code = ("import opyard, json; x = opyard.arange(24.).reshape(4, 6)[:, ::2]; "
            "print(json.dumps([[list(t.shape), list(t.stride()), t.storage_offset()] "
            "for t in x.split(3) + x.split(2, 1) + x.unbind(1) + x.t().unbind(0) + x.chunk(3)]))")
    outs = []
    for flag in ("1", "0"):
        env = dict(os.environ, OPYARD_FASTPATH=flag)
        outs.append(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                   check=True).stdout)
    assert outs[0] == outs[1] and outs[0].startswith("[[[3, 3], [6, 2], 0]")


# --- indexing -----------------------------------------------------------------------------------------

INDEXED = [lambda: opyard.arange(10.0), lambda: opyard.arange(12.0).reshape(3, 4),
           lambda: opyard.arange(12.0).reshape(3, 4).t(), lambda: opyard.arange(24).reshape(2, 3, 4),
           lambda: opyard.from_numpy(np.asfortranarray(np.arange(12.0).reshape(3, 4))),
           lambda: opyard.from_numpy(np.asfortranarray(np.arange(24.0).reshape(2, 3, 4))),
           lambda: opyard.arange(12.0).reshape(3, 4)[:, ::2], lambda: opyard.zeros(0, 2)]
KEYS = [[0, 2, -1], [[0, 1], [1, 0]], 1, [], [1, 1, 1]]


@pytest.mark.parametrize("make", INDEXED)
@pytest.mark.parametrize("key", KEYS, ids=str)
@pytest.mark.parametrize("kdt", [opyard.int64, opyard.int32], ids=str)
def test_index_by_one_tensor_is_fancy_indexing(make, key, kdt):
    x = make()
    k = opyard.tensor(key, dtype=kdt)
    if k.numel() and not -x.shape[0] <= min(k.numpy().reshape(-1)) <= max(k.numpy().reshape(-1)) < x.shape[0]:
        return
    got = x[k]
    want = x.numpy()[(k.numpy(),)]
    assert got.shape == want.shape and got.numpy().tobytes() == want.tobytes()
    assert got.stride() == tuple(s // want.itemsize for s in want.strides)  # F order kept where numpy keeps it
    flat = k.reshape(-1)
    if not (flat < 0).any():
        want = np.take(x.numpy(), flat.numpy(), axis=0)
        assert _bits(x.index_select(0, flat)) == _bits(opyard.from_numpy(want))


def test_index_masks_and_errors():
    x = opyard.arange(6.0)
    mask = x > 2
    assert x[mask].numpy().tolist() == [3.0, 4.0, 5.0]
    assert opyard.tensor(5.0)[opyard.tensor(True)].numpy().tolist() == [5.0]
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 1"):
        x[opyard.ones(2, 3, dtype=opyard.bool)]
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 0"):
        opyard.tensor(1.0)[opyard.tensor([0])]
    with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or bool tensors"):
        x[opyard.tensor([0.0])]
    with pytest.warns(UserWarning, match="indexing with dtype torch.uint8 is now deprecated"):
        assert x[opyard.tensor([1, 0, 1, 0, 0, 0], dtype=opyard.uint8)].numpy().tolist() == [0.0, 2.0]


@pytest.mark.parametrize("n", [3, 40])  # a few elements read as Python ints; more, compared by numpy
def test_bounds_errors_name_the_first_bad_index(n):
    x = opyard.arange(10.0)
    idx = opyard.arange(n) % 10
    idx[1], idx[2] = 12, -11
    with pytest.raises(IndexError, match="index: index 12 is out of bounds for dimension 0 with size 10"):
        x[idx]
    with pytest.raises(IndexError, match="index out of range in self"):
        x.index_select(0, idx)
    with pytest.raises(IndexError, match="index out of range in self"):
        x.index_select(0, (idx % 10) - 1)  # no negative index for index_select
    with pytest.raises(RuntimeError, match="index 12 is out of bounds for dimension 0 with size 10"):
        x.gather(0, idx)
    with pytest.raises(RuntimeError, match="index 12 is out of bounds for dimension 0 with size 10"):
        x.scatter(0, idx, 1.0)
    with pytest.raises(IndexError, match="index 12 is out of bounds for dimension 0 with size 10"):
        x.index_fill(0, idx, 1.0)
    with pytest.raises(IndexError, match="index 12 is out of bounds for dimension 0 with size 10"):
        x.index_put_((idx,), opyard.tensor(1.0))
    assert indexing._first_outside(np.array([1, 5, -3, 7]), 0, 6) == -3
    assert indexing._first_outside(np.arange(100) - 3, 0, 200) == -3
    assert indexing._first_outside(np.arange(100).reshape(10, 10).T, 0, 50) == 50


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_index_fill_and_copy_against_numpy(dim):
    x = opyard.arange(12.0, dtype=opyard.float64).reshape(3, 4)
    idx = opyard.tensor([0, 2, -1])
    want = x.numpy().copy()
    np.moveaxis(want, dim, 0)[idx.numpy()] = 7.0
    assert x.index_fill(dim, idx, 7).numpy().tobytes() == want.tobytes()
    src = opyard.from_numpy(np.moveaxis(np.arange(100.0, 100.0 + 3 * 4).reshape(3, 4), dim, dim).copy())
    src = src.index_select(dim, opyard.tensor([0, 1, 2]))
    with pytest.raises(IndexError, match=r"index_copy_\(\): index -1 is out of bounds for dimension"):
        x.index_copy(dim, idx, src)  # torch's index_copy takes no index from the end (index_fill does)
    idx = opyard.tensor([0, 2, 1])
    want = x.numpy().copy()
    np.moveaxis(want, dim, 0)[idx.numpy()] = np.moveaxis(src.numpy(), dim, 0)
    assert x.index_copy(dim, idx, src).numpy().tobytes() == want.tobytes()


def test_a_function_mode_sees_the_index_packet():
    seen = []

    class Log(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append(func.__name__)
            return func(*args, **(kwargs or {}))

    x, k = opyard.arange(6.0), opyard.tensor([1, 2])
    mask = x > 2
    with Log():
        x[k]
        x[mask]
    assert seen == ["index", "index"]


def test_index_keeps_autograd():
    x = opyard.arange(6.0, requires_grad=True)
    x[opyard.tensor([1, 1, 4])].sum().backward()
    assert x.grad.numpy().tolist() == [0.0, 2.0, 0.0, 0.0, 1.0, 0.0]


@pytest.mark.parametrize("n", [3, 40])
def test_take_bounds_error_names_the_first_bad_index(n):
    x = opyard.arange(12.0).reshape(3, 4)
    idx = opyard.arange(n) % 12
    assert x.take(idx).numpy().tolist() == (np.arange(n) % 12).astype(float).tolist()
    idx[1], idx[2] = -13, 12
    with pytest.raises(IndexError, match="out of range: tried to access index -13 on a tensor of 12 elements."):
        x.take(idx)


@pytest.mark.parametrize("dt, top, name", [(opyard.float16, 65504.0, "c10::Half"),
                                           (opyard.bfloat16, 3.3895313892515355e38, "c10::BFloat16"),
                                           (opyard.float32, 3.4028234663852886e38, "float"),
                                           (opyard.complex64, 3.4028234663852886e38, "float")], ids=str)
def test_uniform_bounds_per_dtype(dt, top, name):
    for _ in range(2):  # the largest value is looked up once, then kept
        assert opyard.empty(3, dtype=dt).uniform_(-top / 2, top / 2).shape == (3,)
        with pytest.raises(RuntimeError, match="which result in to-from to exceed the limit"):
            opyard.empty(3, dtype=dt).uniform_(-top, top)
        with pytest.raises(RuntimeError, match=f"to is out of bounds for {name}"):
            opyard.empty(3, dtype=dt).uniform_(0, top * 1.01 if top < 1e38 else float("inf"))
    with pytest.raises(NotImplementedError, match="\"check_uniform_bounds\" not implemented for 'Long'"):
        opyard.empty(3, dtype=opyard.int64).uniform_()


# torch 2.15's answers: a 0-d tensor flips along dim 0 / -1 as the one element it is, and a repeated
# dim is named in torch's words (the first repeat, as wrapped).
@pytest.mark.parametrize("shape, dims, error", [
    ((), (), None), ((), (0,), None), ((), (-1,), None),
    ((), (0, -1), "dim 0 appears multiple times in the list of dims"),
    ((2, 3), (1, -1), "dim 1 appears multiple times in the list of dims"),
    ((2, 3), (0, -2, 1), "dim 0 appears multiple times in the list of dims"),
    ((2, 3), (0, 1, 0), "dim 0 appears multiple times in the list of dims"),
])
@pytest.mark.parametrize("device", ["cpu", "meta"])
def test_flip_of_a_zero_dim_tensor_and_repeated_dims_as_torch(shape, dims, error, device):
    x = opyard.arange(6.0)[:int(np.prod(shape))].reshape(shape).to(device)
    if error is not None:
        with pytest.raises(RuntimeError, match=error):
            x.flip(dims)
        return
    got = x.flip(dims)
    assert got.shape == x.shape and got.dtype == x.dtype
    if device == "cpu":
        assert got.tolist() == x.tolist() and got.numpy().base is not x.numpy()


@pytest.mark.parametrize("shape", [(5,), (0,), (3, 4), (2, 3, 4), (1, 0, 2)])
@pytest.mark.parametrize("shift", [0, 1, -1, 7, -13])
def test_roll_against_numpy(shape, shift):
    """``roll`` joins two slices per dim: numpy's ``roll``, every dim order and repeated dims (their
    shifts add up), a transposed input, never the input's own memory."""
    a = np.random.default_rng(3).standard_normal(shape)
    t = opyard.from_numpy(a.copy())
    flat = opyard.roll(t, shift)
    assert np.array_equal(flat.numpy(), np.roll(a.reshape(-1), shift).reshape(shape))
    assert not np.shares_memory(flat.numpy(), t.numpy())
    for dims in [(0,), (-1,), (0, -1), (-1, 0), (0, 0)][: 5 if len(shape) > 1 else 3]:
        shifts = [shift + i for i in range(len(dims))]
        assert np.array_equal(opyard.roll(t, shifts, dims).numpy(), np.roll(a, shifts, dims))
    if len(shape) == 2:
        assert np.array_equal(opyard.roll(t.t(), [shift, 2], [0, 1]).numpy(), np.roll(a.T, [shift, 2], [0, 1]))
