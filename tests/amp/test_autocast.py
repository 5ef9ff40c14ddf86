"""Autocast regions: defaults, torch's per-device cast lists on the built-in ops, nesting, errors.

Expected dtypes are torch 2.x's for the same calls (checked against torch on CPU).
"""

import threading
import warnings

import opyard
import pytest
from opyard import amp
from opyard.amp import policy
from opyard.amp.autocast_mode import STATE
from opyard.amp.kernels import BUILDERS

F16, BF16, F32, F64 = opyard.float16, opyard.bfloat16, opyard.float32, opyard.float64
A = opyard.ops.aten


@pytest.fixture(autouse=True)
def _clean_state():
    yield
    assert not amp.is_autocast_enabled("cpu") and not amp.is_autocast_enabled("cuda")
    assert STATE.nesting == 0 and not STATE.cache
    assert amp.get_autocast_dtype("cpu") is BF16 and amp.get_autocast_dtype("cuda") is F16


def _m(dtype=F32):
    return opyard.randn(2, 3).to(dtype)


def test_defaults_are_torchs():
    assert opyard.autocast is amp.autocast
    assert amp.get_autocast_dtype("cpu") is BF16
    assert amp.get_autocast_dtype("cuda") is F16
    assert not amp.is_autocast_enabled("cpu")
    assert not amp.is_autocast_enabled()  # the deprecated no-argument form asks about cuda
    assert amp.is_autocast_cache_enabled()
    assert amp.autocast("cpu").fast_dtype is BF16
    assert amp.is_autocast_available("cpu") and amp.is_autocast_available("cuda")
    assert not amp.is_autocast_available("meta")
    with pytest.raises(RuntimeError, match="at start of device string: tpu"):  # torch's parser refuses it
        amp.is_autocast_available("tpu")


# (call, input dtype, region dtype, expected output dtype); ops on torch's CPU lists and off them.
CPU_TABLE = [
    ("mm", lambda x: opyard.mm(x, x.t()), F32, F16, F16),
    ("mm f64 stays", lambda x: opyard.mm(x, x.t()), F64, F16, F64),
    ("mm mixed", lambda x: opyard.mm(x, x.t().to(F16)), F32, F16, F16),
    ("bmm", lambda x: opyard.bmm(x[None], x.t()[None]), F32, F16, F16),
    ("addmm", lambda x: opyard.addmm(opyard.zeros(2, 2), x, x.t()), F32, F16, F16),
    ("addmm bf16", lambda x: opyard.addmm(opyard.zeros(2, 2), x, x.t()), F32, BF16, BF16),
    ("baddbmm", lambda x: opyard.baddbmm(opyard.zeros(1, 2, 2), x[None], x.t()[None]), F32, F16, F16),
    ("matmul", lambda x: opyard.matmul(x, x.t()), F32, F16, F16),
    ("linear", lambda x: opyard.nn.functional.linear(x, x), F32, F16, F16),
    ("sdpa", lambda x: opyard.nn.functional.scaled_dot_product_attention(x[None], x[None], x[None]),
     F32, F16, F16),
    ("prod fp32", lambda x: opyard.prod(x), F16, F16, F32),
    ("prod bf16 fp32", lambda x: opyard.prod(x), BF16, BF16, F32),
    ("prod.dim_int fp32", lambda x: opyard.prod(x, 0), F16, F16, F32),
    ("cat promote f32", lambda x: opyard.cat([x, x.to(F16)]), F32, F16, F32),
    ("cat promote f16", lambda x: opyard.cat([x, x]), F16, F16, F16),
    ("cat f64 ignored", lambda x: opyard.cat([x, x.to(F64)]), F32, BF16, F64),
    ("cat bf16 + f32", lambda x: opyard.cat([x, x.to(BF16)]), F32, BF16, F32),
    ("stack promote", lambda x: opyard.stack([x.to(F16), x]), F32, F16, F32),
    ("stack ints", lambda x: opyard.stack([x.long(), x.long()]), F32, F16, opyard.int64),
    # Off the CPU lists: they run in their inputs' dtypes (exp, sum, softmax are fp32 on CUDA only).
    ("mv off list", lambda x: opyard.mv(x, x[0]), F32, F16, F32),
    ("add", lambda x: x + x, F32, F16, F32),
    ("exp", lambda x: opyard.exp(x), BF16, BF16, BF16),
    ("sum", lambda x: opyard.sum(x), BF16, BF16, BF16),
    ("softmax", lambda x: opyard.softmax(x, 0), BF16, BF16, BF16),
]


@pytest.mark.parametrize("label, call, in_dtype, region_dtype, expected", CPU_TABLE,
                         ids=[row[0] for row in CPU_TABLE])
def test_cpu_cast_lists(label, call, in_dtype, region_dtype, expected):
    x = _m(in_dtype)
    with opyard.autocast("cpu", dtype=region_dtype):
        assert call(x).dtype is expected


# numpy's matmul over ml_dtypes.bfloat16 computes in float32; aten's kernels cast back, as torch keeps
# the input dtype.
@pytest.mark.parametrize("call", [lambda x: opyard.mm(x, x.t()), lambda x: opyard.matmul(x, x.t()),
                                  lambda x: opyard.bmm(x[None], x.t()[None])], ids=["mm", "matmul", "bmm"])
def test_cpu_default_bf16_matmuls(call):
    with opyard.autocast("cpu"):
        assert call(_m()).dtype is BF16


def test_bf16_inputs_are_cast():
    seen = []
    lib = opyard.library.Library("aten", "IMPL")
    try:
        def spy(x, y):  # below autocast: sees what the autocast kernel passed on
            seen.append((x.dtype, y.dtype))
            return A.mm.default.redispatch(opyard.dispatcher.DispatchKeySet("CPU"), x, y)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # overriding aten's autograd kernel for this test only
            lib.impl("mm", spy, "AutogradCPU")
        with opyard.autocast("cpu"):
            opyard.mm(_m().requires_grad_(), _m().t())
    finally:
        lib._destroy()
    assert seen == [(BF16, BF16)]


def test_cuda_lists_are_torchs():
    # Data: the CUDA and CPU lists differ as in ATen.
    assert policy.policy_for("cuda", "mm") == policy.policy_for("cpu", "aten::mm") == "lower_precision_fp"
    assert policy.policy_for("cuda", "exp") == "fp32" and policy.policy_for("cpu", "exp") is None
    assert policy.policy_for("cuda", "softmax.int") == "fp32_set_opt_dtype"
    assert policy.policy_for("cpu", "softmax.int") is None
    assert policy.policy_for("cuda", "prod") == "fp32_set_opt_dtype" and policy.policy_for("cpu", "prod") == "fp32"
    assert policy.policy_for("cuda", "norm.Scalar") == "fp32_append_dtype"
    assert policy.policy_for("cuda", "dot") == "promote" and policy.policy_for("cpu", "dot") is None
    assert policy.policy_for("cpu", "cat.default") == "promote" and policy.policy_for("cuda", "cat") is None
    assert policy.policy_for("cuda", "binary_cross_entropy") == "banned"
    assert policy.policy_for("cpu", "binary_cross_entropy") == "fp32"
    assert policy.policy_for("cpu", "add.Tensor") is None


@pytest.mark.parametrize("op, key, kernel", [
    ("aten::mm", "AutocastCPU", "autocast_lower_precision_fp<mm>"),
    ("aten::mm", "AutocastCUDA", "autocast_lower_precision_fp<mm>"),
    ("aten::exp", "AutocastCUDA", "autocast_fp32<exp>"),
    ("aten::sum", "AutocastCUDA", "autocast_fp32_set_opt_dtype<sum>"),
    ("aten::sum.dim_IntList", "AutocastCUDA", "autocast_fp32_set_opt_dtype<sum.dim_IntList>"),
    ("aten::norm.Scalar", "AutocastCUDA", "autocast_fp32_append_dtype<norm.Scalar>"),
    ("aten::cat", "AutocastCPU", "autocast_promote<cat>"),
    ("aten::dot", "AutocastCUDA", "autocast_promote<dot>"),
])
def test_policy_kernels_registered(op, key, kernel):
    assert f"{key}: {kernel} [kernel]" in opyard.dispatcher.dump_table(op)


@pytest.mark.parametrize("op, key", [("aten::exp", "AutocastCPU"), ("aten::add.Tensor", "AutocastCPU"),
                                     ("aten::mm.out", "AutocastCPU"), ("aten::add.Tensor", "AutocastCUDA")])
def test_ops_off_the_lists_fall_through(op, key):
    assert f"{key}: fallthrough [backend fallback]" in opyard.dispatcher.dump_table(op)


# The CUDA-only policies, exercised by building their kernels for CPU tensors (no GPU needed).
POLICY_TABLE = [
    ("fp32_set_opt_dtype", A.sum.default, lambda k, h: k(h), F32),
    ("fp32_set_opt_dtype", A.sum.default, lambda k, h: k(h, dtype=F16), F16),  # an explicit dtype wins
    ("fp32_set_opt_dtype", A.sum.default, lambda k, h: k(h.double()), F64),  # ineligible: untouched
    ("fp32_set_opt_dtype", A.sum.dim_IntList, lambda k, h: k(h, [0]), F32),
    ("fp32_set_opt_dtype", A.softmax.int, lambda k, h: k(h, 0), F32),
    ("fp32_set_opt_dtype", A.softmax.int, lambda k, h: k(h, 0, F64), F64),  # positional dtype
    ("fp32_set_opt_dtype", A.cumsum.default, lambda k, h: k(h, 0), F32),
    ("fp32_set_opt_dtype", A.prod.dim_int, lambda k, h: k(h, 1), F32),
    ("fp32_set_opt_dtype", A.log_softmax.int, lambda k, h: k(h, 1), F32),
    ("fp32_set_opt_dtype", A.cumprod.default, lambda k, h: k(h, 1, dtype=F64), F64),
    ("fp32_set_opt_dtype", A.linalg_vector_norm.default, lambda k, h: k(h), F32),
    ("fp32_set_opt_dtype", A.sum.default, lambda k, h: k(h.long()), opyard.int64),
    ("fp32_append_dtype", A.norm.Scalar, lambda k, h: k(h), F32),
    ("fp32_append_dtype", A.norm.ScalarOpt_dim, lambda k, h: k(h, 2, [0]), F32),
    ("fp32_append_dtype", A.norm.Scalar, lambda k, h: k(h.double()), F64),
    ("fp32", A.exp.default, lambda k, h: k(h), F32),
    ("fp32", A.pow.Tensor_Scalar, lambda k, h: k(h, 2), F32),
    ("lower_precision_fp", A.mm.default, lambda k, h: k(h.float(), h.float().t()), F16),
    ("promote", A.dot.default, lambda k, h: k(h[0], h[0]), F16),
    ("promote", A.dot.default, lambda k, h: k(h[0], h[0].float()), F32),
    ("promote", A.addcmul.default, lambda k, h: k(h[0], h[0].float(), h[0]), F32),
]


@pytest.mark.parametrize("name, op, call, expected", POLICY_TABLE,
                         ids=[f"{r[0]}-{r[1].name()}-{i}" for i, r in enumerate(POLICY_TABLE)])
def test_policy_builders(name, op, call, expected):
    kernel = BUILDERS[name](op, "cpu")
    with opyard.autocast("cpu", dtype=F16):
        assert call(kernel, _m(F16)).dtype is expected


def test_banned_policy_raises_torchs_message():
    kernel = BUILDERS["banned"](A.mm.default, "cpu")
    with pytest.raises(RuntimeError, match="(?s)unsafe to autocast.*binary_cross_entropy_with_logits"):
        kernel(_m(), _m())


def test_cuda_region_leaves_cpu_tensors_alone(monkeypatch):
    monkeypatch.setattr(opyard.cuda, "is_available", lambda: True)
    x = _m()
    with opyard.autocast("cuda"):
        assert amp.is_autocast_enabled("cuda") and not amp.is_autocast_enabled("cpu")
        assert opyard.mm(x, x.t()).dtype is F32  # AutocastCUDA casts CUDA tensors only
        assert opyard.sum(x.half()).dtype is F16


def test_nesting_and_enabled_false():
    x = _m()
    with opyard.autocast("cpu", dtype=F16):
        assert opyard.mm(x, x.t()).dtype is F16
        with opyard.autocast("cpu", enabled=False):
            assert not amp.is_autocast_enabled("cpu")
            assert amp.get_autocast_dtype("cpu") is F16  # the dtype is kept, as torch
            assert opyard.mm(x, x.t()).dtype is F32
            with opyard.autocast("cpu", dtype=BF16):
                assert opyard.addmm(opyard.zeros(2, 2), x, x.t()).dtype is BF16
            assert not amp.is_autocast_enabled("cpu")
        with opyard.autocast("cpu"):  # no dtype: the current one (torch's get_autocast_dtype)
            assert amp.get_autocast_dtype("cpu") is F16
        assert amp.is_autocast_enabled("cpu") and opyard.mm(x, x.t()).dtype is F16
        assert STATE.nesting == 1
    assert opyard.mm(x, x.t()).dtype is F32


def test_state_restored_when_the_region_raises():
    with pytest.raises(KeyError), opyard.autocast("cpu", dtype=F16, cache_enabled=False):
        assert not amp.is_autocast_cache_enabled()
        raise KeyError("boom")
    assert amp.is_autocast_cache_enabled()


def test_decorator_and_reentry():
    @opyard.autocast("cpu", dtype=F16)
    def f(x, depth):
        inner = f(x, depth - 1) if depth else None
        assert amp.is_autocast_enabled("cpu")
        return opyard.mm(x, x.t()), inner

    out, inner = f(_m(), 2)
    assert out.dtype is F16 and inner[0].dtype is F16
    assert not amp.is_autocast_enabled("cpu")


def test_autocast_is_thread_local():
    seen = []
    with opyard.autocast("cpu", dtype=F16):
        t = threading.Thread(target=lambda: seen.append(
            (amp.is_autocast_enabled("cpu"), amp.get_autocast_dtype("cpu"), opyard.mm(_m(), _m().t()).dtype)))
        t.start()
        t.join()
    assert seen == [(False, BF16, F32)]


def test_set_functions_as_torch():
    x = _m()
    amp.set_autocast_enabled("cpu", True)
    amp.set_autocast_dtype("cpu", F16)
    try:
        assert amp.is_autocast_enabled("cpu") and opyard.mm(x, x.t()).dtype is F16
        assert amp.autocast_increment_nesting() == 1
        assert amp.autocast_decrement_nesting() == 0
    finally:
        amp.set_autocast_enabled("cpu", False)
        amp.set_autocast_dtype("cpu", BF16)
    amp.set_autocast_cache_enabled(False)
    assert not amp.is_autocast_cache_enabled()
    amp.set_autocast_cache_enabled(True)


def test_autocast_kernels_see_autocast_disabled():
    seen = []

    @opyard.library.custom_op("t_ac::peek", mutates_args=())
    def peek(x: opyard.Tensor) -> opyard.Tensor:
        seen.append((amp.is_autocast_enabled("cpu"), x.dtype))
        return x.clone()
    peek.register_autocast("cpu", F16)
    with opyard.autocast("cpu"):
        peek(_m())
        assert amp.is_autocast_enabled("cpu")  # restored after the kernel
    assert seen == [(False, F16)]


def test_autograd_through_autocast():
    w = opyard.randn(3, 3, requires_grad=True)
    with opyard.autocast("cpu", dtype=F16):
        y = opyard.mm(_m(), w)
    assert y.dtype is F16 and y.requires_grad
    y.float().sum().backward()
    assert w.grad.dtype is F32 and w.grad.shape == w.shape


@pytest.mark.parametrize("args, kwargs, exc, match", [
    (("tpu",), {}, RuntimeError, "Expected one of cpu, cuda.*device string: tpu"),
    (("meta",), {}, RuntimeError, "unsupported scalarType"),  # torch reads the dtype first
    (("meta",), {"dtype": opyard.float16}, RuntimeError, "unsupported autocast device_type 'meta'"),
    ((3,), {}, ValueError, r"Expected `device_type` of type `str`, got: `<class 'int'>`"),
    (("cpu",), {"dtype": "float16"}, TypeError, "argument 'dtype' must be opyard.dtype, not str"),
])
def test_autocast_errors(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        opyard.autocast(*args, **kwargs)


@pytest.mark.parametrize("call, exc, match", [
    (lambda: amp.get_autocast_dtype("tpu"), RuntimeError, "device string: tpu"),
    (lambda: amp.is_autocast_enabled("meta"), RuntimeError,
     "unknown device type for autocast in get_autocast_dispatch_key_from_device_type"),
    (lambda: amp.set_autocast_dtype("cpu", 16), TypeError, "must be opyard.dtype, not int"),
    (lambda: amp.set_autocast_enabled(None, True), TypeError,
     r"set_autocast_enabled\(\): argument 'device_type' \(position 1\) must be str, not NoneType"),
    (lambda: opyard.autocast("cpu")(3), TypeError, r"requires a callable, but got int"),
])
def test_state_api_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("device, dtype, message", [
    ("cpu", F32, ("In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                  "CPU Autocast only supports dtypes of opyard.bfloat16, opyard.float16 currently.")),
    ("cpu", F64, "CPU Autocast only supports dtypes of opyard.bfloat16, opyard.float16"),
    ("cpu", opyard.int32, "CPU Autocast only supports"),
])
def test_unsupported_dtype_warns_and_disables(device, dtype, message):
    with pytest.warns(UserWarning, match=message):
        region = opyard.autocast(device, dtype=dtype)
    x = _m()
    with region:
        assert not amp.is_autocast_enabled(device)
        assert opyard.mm(x, x.t()).dtype is F32


def test_cuda_without_cuda_warns_and_disables(monkeypatch):
    monkeypatch.setattr(opyard.cuda, "is_available", lambda: False)
    with pytest.warns(UserWarning, match="CUDA is not available.*Disabling autocast"):
        region = opyard.autocast("cuda")
    with region:
        assert not amp.is_autocast_enabled("cuda")


def test_cuda_dtypes(monkeypatch):
    monkeypatch.setattr(opyard.cuda, "is_available", lambda: True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert opyard.autocast("cuda", dtype=BF16)._enabled
        assert opyard.autocast("cuda", dtype=F32)._enabled  # torch accepts any float dtype on CUDA
    with pytest.warns(UserWarning, match="CUDA Autocast only supports"):
        assert not opyard.autocast("cuda", dtype=opyard.int64)._enabled


def test_autocast_under_fake_make_fx_and_vmap():
    from opyard.fake import FakeTensorMode

    with FakeTensorMode() as mode:
        x = mode.from_tensor(_m())
        with opyard.autocast("cpu", dtype=F16):
            assert type(x).__name__ == "FakeTensor" and opyard.mm(x, x.t()).dtype is F16

    def f(a, b):
        with opyard.autocast("cpu", dtype=F16):
            return opyard.mm(a, b)

    code = opyard.fx.make_fx(f)(_m(), _m().t()).code
    assert code.count("aten._to_copy.default") == 2 and "dtype = opyard.float16" in code
    w = _m().t()  # random ops inside vmap need randomness="same"/"different", as torch
    assert opyard.func.vmap(lambda a: f(a, w))(opyard.randn(4, 2, 3)).dtype is F16


@pytest.mark.skipif(not opyard.cuda.is_available(), reason="needs cupy and a CUDA device")
def test_cuda_tensors_follow_the_cuda_lists():
    x = opyard.randn(2, 3).to("cuda")
    with opyard.autocast("cuda"):
        assert opyard.mm(x, x.t()).dtype is F16
        assert opyard.exp(x.half()).dtype is F32
        assert opyard.sum(x.half()).dtype is F32
        assert opyard.dot(x[0].half(), x[0]).dtype is F32
        assert opyard.cat([x.half(), x.half()]).dtype is F16  # cat is on no CUDA list
    with opyard.autocast("cpu", dtype=F16):
        assert opyard.mm(x, x.t()).dtype is F32  # AutocastCPU leaves CUDA tensors alone


def test_threads_keep_their_own_regions():
    errors = []
    barrier = threading.Barrier(4)

    def work(dtype, enabled):
        x = _m()
        barrier.wait()
        try:
            for _ in range(100):
                with opyard.autocast("cpu", dtype=dtype, enabled=enabled):
                    got = opyard.addmm(opyard.zeros(2, 2), x, x.t()).dtype
                    want = dtype if enabled else F32
                    if got is not want or amp.get_autocast_dtype("cpu") is not dtype:
                        errors.append((dtype, enabled, got))
            if amp.is_autocast_enabled("cpu") or STATE.nesting:
                errors.append("state leaked")
        except Exception as e:  # noqa: BLE001 (reported below, with the thread's parameters)
            errors.append((dtype, enabled, repr(e)))

    threads = [threading.Thread(target=work, args=args)
               for args in ((F16, True), (BF16, True), (F16, False), (BF16, False))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
