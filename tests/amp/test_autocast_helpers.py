"""``cached_cast`` / ``promote_type`` (torch's ``at::autocast`` helpers), the dispatcher tutorial's
autocast wrappers, ``custom_fwd`` / ``custom_bwd`` and ``register_autocast``."""

from typing import ClassVar

import opyard
import pytest
from opyard import amp
from opyard.amp import cached_cast, promote_type
from opyard.amp.autocast_mode import STATE
from opyard.library import Library

F16, BF16, F32, F64 = opyard.float16, opyard.bfloat16, opyard.float32, opyard.float64


@pytest.fixture(autouse=True)
def _clean_state():
    yield
    assert not amp.is_autocast_enabled("cpu") and STATE.nesting == 0 and not STATE.cache


def t(dtype=F32, **kw):
    return opyard.ones(2, dtype=dtype, **kw)


# (initial dtype, tensors, device_type, region dtype or None, expected)
PROMOTE_TABLE = [
    ("f32 wins over f16 on CPU tensors", F16, [t(F32), t(F16)], None, F16, F32),
    ("f32 wins outside any region", F16, [t(F32), t(F16)], None, None, F32),
    ("all lower stays lower", F16, [t(F16), t(F16)], None, F16, F16),
    ("bf16 region", BF16, [t(BF16), t(BF16)], None, None, BF16),
    ("f64 tensors ignored", F16, [t(F64), t(F16)], None, F16, F16),
    ("integers ignored", F16, [t(opyard.int64), t(F16)], None, F16, F16),
    ("non-tensors ignored", F16, [3, "x", None], None, None, F16),
    ("lists walked", F16, [[t(F16), t(F32)]], None, F16, F32),
    ("device_type cuda ignores CPU tensors", F16, [t(F32)], "cuda", None, F16),
    ("device_type cpu", F16, [t(F32)], "cpu", None, F32),
    ("no tensors", BF16, [], None, None, BF16),
]


@pytest.mark.parametrize("label, initial, tensors, device_type, region, expected", PROMOTE_TABLE,
                         ids=[r[0] for r in PROMOTE_TABLE])
def test_promote_type(label, initial, tensors, device_type, region, expected):
    if region is None:
        assert promote_type(initial, *tensors, device_type=device_type) is expected
    else:
        with opyard.autocast("cpu", dtype=region):
            assert promote_type(initial, *tensors, device_type=device_type) is expected


@pytest.mark.parametrize("call, exc, match", [
    (lambda: promote_type(F64, t()), RuntimeError, r"promote type is double \(opyard.float64\)"),
    (lambda: promote_type(F16, t(BF16)), RuntimeError,
     "unexpected floating dtype opyard.bfloat16 .a cpu tensor. against opyard.float16"),
    (lambda: promote_type("half", t()), TypeError, "promote_type.*must be opyard.dtype, not str"),
    (lambda: promote_type(F16, t(), device_type="tpu"), RuntimeError, "device string: tpu"),
    (lambda: promote_type(F16, t(), device_type="meta"), RuntimeError, "unsupported autocast device_type"),
    (lambda: cached_cast(None, t()), TypeError, "cached_cast.*must be opyard.dtype, not NoneType"),
    (lambda: cached_cast(F16, t(), device_type=0), ValueError, "Expected `device_type` of type `str`"),
])
def test_helper_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("value, dtype, device_type, expected", [
    (t(F32), F16, None, F16),           # CPU tensors without a device_type: their own device
    (t(F16), F32, None, F32),
    (t(F32), BF16, "cpu", BF16),
    (t(F32), F16, "cuda", F32),         # another device: unchanged
    (t(F64), F16, None, F64),           # float64 is never autocast
    (t(opyard.int32), F16, None, opyard.int32),
])
def test_cached_cast_eligibility(value, dtype, device_type, expected):
    out = cached_cast(dtype, value, device_type)
    assert out.dtype is expected
    if expected is value.dtype:
        assert out is value


def test_cached_cast_containers_and_non_tensors():
    a, b = t(), t(F64)
    lst = cached_cast(F16, [a, b, 3])
    assert isinstance(lst, list) and [x.dtype for x in lst[:2]] == [F16, F64] and lst[1] is b and lst[2] == 3
    tup = cached_cast(F16, (a,))
    assert isinstance(tup, tuple) and tup[0].dtype is F16
    assert cached_cast(F16, "text") == "text" and cached_cast(F16, None) is None
    assert cached_cast(F16, a) is not cached_cast(F16, a)  # outside a region nothing is cached


def test_cache_holds_weights_for_the_region():
    w = opyard.randn(3, requires_grad=True)
    with opyard.autocast("cpu", dtype=F16):
        first = cached_cast(F16, w)
        assert first.dtype is F16 and cached_cast(F16, w) is first
        with opyard.autocast("cpu", dtype=F16):
            assert cached_cast(F16, w) is first  # nested regions share the cache
        assert cached_cast(F16, w) is first  # an inner exit keeps it
        assert len(STATE.cache) == 1
    assert not STATE.cache  # the outermost exit clears it
    with opyard.autocast("cpu", dtype=F16):
        assert cached_cast(F16, w) is not first


@pytest.mark.parametrize("label, make, dtype, cache_enabled", [
    ("not requiring grad", lambda: opyard.randn(3), F16, True),
    ("not a leaf", lambda: opyard.randn(3, requires_grad=True) * 2, F16, True),
    ("float16 source", lambda: opyard.randn(3).half().requires_grad_(), F32, True),
    ("not the region's dtype", lambda: opyard.randn(3, requires_grad=True), BF16, True),
    ("cache disabled", lambda: opyard.randn(3, requires_grad=True), F16, False),
])
def test_cache_only_for_fp32_leaf_weights(label, make, dtype, cache_enabled):
    x = make()
    with opyard.autocast("cpu", dtype=F16, cache_enabled=cache_enabled):
        a, b = cached_cast(dtype, x), cached_cast(dtype, x)
        assert a.dtype is dtype and a is not b
        assert not STATE.cache


def test_builtin_kernels_use_the_cache():
    w = opyard.randn(3, 3, requires_grad=True)
    x = opyard.randn(2, 3)
    with opyard.autocast("cpu", dtype=F16):
        y1, y2 = opyard.mm(x, w), opyard.mm(x, w)
        assert len(STATE.cache) == 1 and y1.dtype is F16
        assert opyard.allclose(y1.float(), y2.float())
    (y1.float().sum() + y2.float().sum()).backward()
    assert opyard.allclose(w.grad, 2 * x.sum(0)[:, None].expand(3, 3), atol=1e-2)


def test_cache_is_keyed_by_dtype_across_nested_regions():
    w = opyard.randn(3, requires_grad=True)
    with opyard.autocast("cpu", dtype=F16):
        h = cached_cast(F16, w)
        with opyard.autocast("cpu", dtype=BF16):
            b = cached_cast(BF16, w)
            assert b.dtype is BF16 and cached_cast(BF16, w) is b
        assert cached_cast(F16, w) is h


# The dispatcher tutorial's autocast wrappers, with torch → opyard (the C++ guard and
# registration spelled with opyard's Python API; the wrapper bodies are the tutorial's).
def test_tutorial_autocast_wrappers():
    m = Library("tut_ac", "DEF")
    m.define("mymatmul(Tensor self, Tensor other) -> Tensor")
    m.define("my_multiple_input_op(Tensor t0, Tensor t1) -> Tensor")
    m.impl("mymatmul", lambda a, b: opyard.mm(a, b), "CPU")
    m.impl("my_multiple_input_op", lambda a, b: a * b, "CPU")
    mymatmul = opyard.ops.tut_ac.mymatmul
    my_multiple_input_op = opyard.ops.tut_ac.my_multiple_input_op

    def mymatmul_autocast(self, other):
        with opyard.dispatcher.exclude("AutocastCPU"):
            return mymatmul(amp.cached_cast(opyard.half, self), amp.cached_cast(opyard.half, other))

    def my_multiple_input_op_autocast(t0, t1):
        with opyard.dispatcher.exclude("AutocastCPU"):
            # The required opyard.half argument is an optimistic initial guess.
            exec_type = amp.promote_type(opyard.half, t0, t1)
            return my_multiple_input_op(amp.cached_cast(exec_type, t0), amp.cached_cast(exec_type, t1))

    m.impl("mymatmul", mymatmul_autocast, "AutocastCPU")
    m.impl("my_multiple_input_op", my_multiple_input_op_autocast, "AutocastCPU")
    a, h, d = opyard.randn(2, 2), opyard.randn(2, 2).half(), opyard.randn(2, 2).double()
    try:
        with opyard.autocast("cpu", dtype=F16):
            assert mymatmul(a, a).dtype is F16       # float32 CPU tensors run in float16
            assert mymatmul(a, h).dtype is F16       # any mixture of float16 and float32
            assert mymatmul(d, d).dtype is F64       # float64 is unaffected
            assert my_multiple_input_op(h, h).dtype is F16
            assert my_multiple_input_op(h, a).dtype is F32  # the widest floating type present
            ints = opyard.ones(2, 2, dtype=opyard.int64)
            assert my_multiple_input_op(ints, h).dtype is F16
        assert mymatmul(a, a).dtype is F32          # wrappers only act inside autocast regions
    finally:
        m._destroy()


class _Probe(opyard.autograd.Function):
    seen: ClassVar[list] = []

    @staticmethod
    @amp.custom_fwd(device_type="cpu", cast_inputs=F32)
    def forward(ctx, a, b):
        _Probe.seen.append(("fwd", amp.is_autocast_enabled("cpu"), a.dtype, b.dtype))
        return opyard.mm(a, b)

    @staticmethod
    @amp.custom_bwd(device_type="cpu")
    def backward(ctx, g):
        _Probe.seen.append(("bwd", amp.is_autocast_enabled("cpu"), g.dtype))
        return g, g.sum(0)[:, None].expand(2, 2)


class _Follow(opyard.autograd.Function):
    seen: ClassVar[list] = []

    @staticmethod
    @amp.custom_fwd(device_type="cpu")
    def forward(ctx, a):
        _Follow.seen.append(("fwd", amp.is_autocast_enabled("cpu"), amp.get_autocast_dtype("cpu")))
        return opyard.mm(a, a)

    @staticmethod
    @amp.custom_bwd(device_type="cpu")
    def backward(ctx, g):
        _Follow.seen.append(("bwd", amp.is_autocast_enabled("cpu"), amp.get_autocast_dtype("cpu")))
        return g


def test_custom_fwd_cast_inputs_runs_forward_without_autocast():
    _Probe.seen.clear()
    a = opyard.randn(2, 2).half().requires_grad_()
    with opyard.autocast("cpu", dtype=F16):
        out = _Probe.apply(a, opyard.randn(2, 2).half())
    assert out.dtype is F32
    out.sum().backward()
    assert _Probe.seen == [("fwd", False, F32, F32), ("bwd", False, F32)]
    _Probe.seen.clear()
    _Probe.apply(a, a)  # outside a region: a no-op, inputs as given
    assert _Probe.seen == [("fwd", False, F16, F16)]


def test_custom_bwd_replays_the_forward_state():
    _Follow.seen.clear()
    a = opyard.randn(2, 2, requires_grad=True)
    with opyard.autocast("cpu", dtype=F16):
        out = _Follow.apply(a)
    assert out.dtype is F16
    out.float().sum().backward()  # outside the region, yet backward runs as forward did
    assert _Follow.seen == [("fwd", True, F16), ("bwd", True, F16)]


@pytest.mark.parametrize("call, exc, match", [
    (lambda: amp.custom_fwd(device_type=3), ValueError, "Expected `device_type` of type `str`"),
    (lambda: amp.custom_bwd(lambda ctx, g: g, device_type=None), ValueError, "Expected `device_type`"),
    (lambda: amp.custom_fwd(lambda ctx: None, device_type="tpu"), RuntimeError, "device string: tpu"),
    (lambda: amp.custom_fwd(lambda ctx: None), TypeError, "device_type"),
])
def test_custom_fwd_bwd_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_custom_bwd_without_custom_fwd():
    class NoFwd(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        @amp.custom_bwd(device_type="cpu")
        def backward(ctx, g):
            return g

    y = NoFwd.apply(opyard.randn(2, requires_grad=True))
    with pytest.raises(RuntimeError, match="not decorated with opyard.amp.custom_fwd"):
        y.sum().backward()


def test_register_autocast_casts_uncached_and_only_eligible():
    @opyard.library.custom_op("t_acc::both", mutates_args=())
    def both(x: opyard.Tensor, y: opyard.Tensor) -> opyard.Tensor:
        return x * y.to(x.dtype)

    opyard.library.register_autocast("t_acc::both", "cpu", F16)
    w = opyard.randn(2, requires_grad=True)
    with opyard.autocast("cpu"):
        assert both(w, opyard.randn(2).double()).dtype is F16
        assert both(opyard.randn(2).double(), w).dtype is F64  # float64 stays
        assert not STATE.cache  # torch's custom-op rule casts without the weight cache
    assert both(w, w).dtype is F32


@pytest.mark.parametrize("device_type, cast_inputs, exc, match", [
    ("tpu", F16, RuntimeError, "device type at start of device string: tpu"),  # torch: unknown device
    ("meta", F16, ValueError, "Device type 'meta' does not support autocast"),
    (3, F16, ValueError, "Expected `device_type` of type `str`, got: `<class 'int'>`"),
    ("cpu", "float16", TypeError, r"register_autocast\(t_acc::err\): cast_inputs must be an opyard.dtype"),
])
def test_register_autocast_errors(device_type, cast_inputs, exc, match):
    @opyard.library.custom_op("t_acc::err", mutates_args=())
    def err(x: opyard.Tensor) -> opyard.Tensor:
        return x.clone()

    with pytest.raises(exc, match=match):
        err.register_autocast(device_type, cast_inputs)
    with pytest.raises(exc, match=match):
        opyard.library.register_autocast("t_acc::err", device_type, cast_inputs)
