"""bfloat16, the float8 formats, uint16/32/64: codes, promotion as torch's, conversions,
``Tensor.view(dtype)``, ``layout``, ``finfo``/``iinfo``, and a bitsandbytes-style fake impl."""

import ml_dtypes
import numpy as np
import pytest

import opyard
from opyard import _dtype as D

NEW = {
    # name: (ScalarType code, itemsize, is_floating_point, is_signed)
    "bfloat16": (15, 2, True, True), "float8_e5m2": (23, 1, True, True),
    "float8_e4m3fn": (24, 1, True, True), "float8_e5m2fnuz": (25, 1, True, True),
    "float8_e4m3fnuz": (26, 1, True, True), "uint16": (27, 2, False, False),
    "uint32": (28, 4, False, False), "uint64": (29, 8, False, False),
}


@pytest.mark.parametrize("name", sorted(NEW))
def test_new_dtype_attributes(name):
    code, size, floating, signed = NEW[name]
    d = getattr(opyard, name)
    assert isinstance(d, opyard.dtype) and repr(d) == f"opyard.{name}"
    assert (d._code, d.itemsize, d.is_floating_point, d.is_signed) == (code, size, floating, signed)
    assert D.FROM_CODE[code] is d  # what the binder turns a schema default into
    t = opyard.zeros(2, 3, dtype=d)
    assert t.dtype is d and t.element_size() == t.itemsize == size and t.is_floating_point() is floating
    assert t.nbytes == 6 * size and t.layout is opyard.strided
    assert opyard.empty(4, dtype=d, device="meta").dtype is d


PROMOTIONS = [
    ("bfloat16", "float16", "float32"), ("bfloat16", "float32", "float32"), ("bfloat16", "float64", "float64"),
    ("bfloat16", "int64", "bfloat16"), ("bool", "bfloat16", "bfloat16"), ("bfloat16", "complex64", "complex64"),
    ("bfloat16", "complex128", "complex128"), ("uint16", "float16", "float16"), ("uint32", "bfloat16", "bfloat16"),
    ("uint64", "float64", "float64"), ("uint16", "uint16", "uint16"), ("float8_e4m3fn", "float8_e4m3fn", "float8_e4m3fn"),
]


@pytest.mark.parametrize("a, b, expected", PROMOTIONS)
def test_promotion_as_torch(a, b, expected):
    da, db = getattr(opyard, a), getattr(opyard, b)
    assert opyard.promote_types(da, db) is getattr(opyard, expected)
    assert opyard.promote_types(db, da) is getattr(opyard, expected)


PROMOTION_ERRORS = [
    ("float8_e4m3fn", "float32", "Promotion for Float8 Types is not supported, attempted to promote Float8_e4m3fn and Float"),
    ("float8_e4m3fn", "float8_e5m2", "attempted to promote Float8_e4m3fn and Float8_e5m2"),
    ("bfloat16", "float8_e5m2fnuz", "attempted to promote BFloat16 and Float8_e5m2fnuz"),
    ("uint16", "float8_e4m3fnuz", "Float8 Types is not supported, attempted to promote UInt16 and Float8_e4m3fnuz"),
    ("uint16", "int8", "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote UInt16 and Char"),
    ("uint8", "uint16", "attempted to promote Byte and UInt16"),
    ("uint32", "uint64", "attempted to promote UInt32 and UInt64"),
    ("uint16", "bool", "attempted to promote UInt16 and Bool"),
    ("uint64", "complex64", "attempted to promote UInt64 and ComplexFloat"),
]


@pytest.mark.parametrize("a, b, message", PROMOTION_ERRORS)
def test_promotion_errors_as_torch(a, b, message):
    with pytest.raises(RuntimeError, match=message):
        opyard.promote_types(getattr(opyard, a), getattr(opyard, b))


def test_promotion_through_ops():
    bf = opyard.ones(3, dtype=opyard.bfloat16)
    assert (bf + opyard.ones(3, dtype=opyard.float16)).dtype is opyard.float32
    assert (bf + 1.5).dtype is opyard.bfloat16  # a Python float does not raise a floating tensor
    assert (bf + opyard.tensor(1.5)).dtype is opyard.bfloat16  # nor does a zero-dim tensor
    assert (opyard.ones(3, dtype=opyard.int32) + opyard.tensor(1.5, dtype=opyard.bfloat16)).dtype is opyard.bfloat16
    assert (opyard.ones(2, dtype=opyard.uint16) + 1).dtype is opyard.uint16
    with pytest.raises(RuntimeError, match="attempted to promote UInt16 and Int"):
        opyard.ones(2, dtype=opyard.uint16) + opyard.ones(2, dtype=opyard.int32)
    with pytest.raises(RuntimeError, match="attempted to promote Float8_e5m2 and Float"):
        opyard.ones(2, dtype=opyard.float8_e5m2) + opyard.ones(2)


def test_bfloat16_math_matches_ml_dtypes():
    x = np.array([0.1, 1.7, -3.3, 250.0], dtype=np.float32)
    t = opyard.tensor(x).to(opyard.bfloat16)
    assert t.numpy().dtype == np.dtype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(t.float().numpy(), x.astype(ml_dtypes.bfloat16).astype(np.float32))
    s = opyard.ones(3, dtype=opyard.bfloat16).softmax(0)  # computed in float32, as torch
    assert s.dtype is opyard.bfloat16 and s.float().tolist() == [0.333984375] * 3
    assert opyard.ones(4, dtype=opyard.bfloat16).mean().item() == 1.0
    assert "dtype=opyard.bfloat16" in repr(t)


@pytest.mark.parametrize("name, expected", [
    # torch's CPU conversion saturates float8_e4m3fn at +-448; the others follow their formats.
    ("float8_e4m3fn", [448.0, 448.0, -448.0, 448.0, 0.3125]),
    ("float8_e5m2", [512.0, float("inf"), float("-inf"), float("inf"), 0.3125]),
    ("float8_e4m3fnuz", [float("nan")] * 4 + [0.3125]),
    ("float8_e5m2fnuz", [512.0] + [float("nan")] * 3 + [0.3125]),
])
def test_float8_conversion_as_torch(name, expected):
    src = opyard.tensor([500.0, 1e6, -1e6, float("inf"), 0.3])
    got = src.to(getattr(opyard, name)).float().tolist()
    np.testing.assert_array_equal(np.array(got), np.array(expected))
    assert src.to(getattr(opyard, name)).type() == f"opyard.{D.LEGACY_NAMES[name]}Tensor"


def test_uint_wraparound_conversion():
    assert opyard.tensor([70000]).to(opyard.uint16).tolist() == [4464]
    assert opyard.tensor([-1]).to(opyard.uint32).tolist() == [4294967295]
    assert opyard.tensor([1, 2], dtype=opyard.uint64).sum().dtype is opyard.int64


VIEWS = [
    # (source dtype, shape, target dtype, expected shape)
    ("float32", (2, 3), "uint8", (2, 12)), ("float32", (2, 3), "float16", (2, 6)),
    ("uint8", (2, 4), "int32", (2, 1)), ("float32", (6,), "int32", (6,)),
    ("int16", (4,), "bfloat16", (4,)), ("uint8", (8,), "float8_e4m3fn", (8,)),
    ("float32", (4,), "int64", (2,)), ("uint16", (3,), "uint8", (6,)),
]


@pytest.mark.parametrize("src, shape, dst, expected", VIEWS)
def test_view_dtype_reinterprets_bytes(src, shape, dst, expected):
    n = int(np.prod(shape))
    t = opyard.arange(n).to(getattr(opyard, src)).view(*shape)
    v = t.view(getattr(opyard, dst))
    assert tuple(v.shape) == expected and v.dtype is getattr(opyard, dst)
    np.testing.assert_array_equal(v.numpy(), t.numpy().view(getattr(opyard, dst).np))
    assert np.shares_memory(v.numpy(), t.numpy()) and v._version == t._version
    meta = opyard.empty(*shape, dtype=getattr(opyard, src), device="meta").view(dtype=getattr(opyard, dst))
    assert tuple(meta.shape) == expected and meta.stride() == v.stride()


def test_view_dtype_shares_memory():
    t = opyard.zeros(2, dtype=opyard.float32)
    t.view(opyard.int32)[0] = 1065353216
    assert t.tolist() == [1.0, 0.0]


VIEW_ERRORS = [
    (lambda: opyard.tensor(1.0).view(opyard.uint8), "self.dim\\(\\) cannot be 0 to view Float as Byte \\(different element sizes\\)"),
    (lambda: opyard.arange(6.).view(2, 3).t().view(opyard.uint8), "self.stride\\(-1\\) must be 1 to view Float as Byte \\(different element sizes\\), but got 3"),
    (lambda: opyard.arange(6, dtype=opyard.uint8).view(opyard.float32), "self.size\\(-1\\) must be divisible by 4 to view Byte as Float \\(different element sizes\\), but got 6"),
    (lambda: opyard.arange(8, dtype=opyard.uint8).view(2, 4)[:, :3].view(opyard.int16), "self.stride\\(-1\\)|self.size\\(-1\\) must be divisible by 2"),
    (lambda: opyard.arange(9, dtype=opyard.uint8)[1:].view(opyard.int16), "self.storage_offset\\(\\) must be divisible by 2 to view Byte as Short"),
]


@pytest.mark.parametrize("call, message", VIEW_ERRORS)
def test_view_dtype_errors(call, message):
    with pytest.raises(RuntimeError, match=message):
        call()


def test_finfo_iinfo_as_torch():
    f = opyard.finfo(opyard.bfloat16)
    assert (f.bits, f.eps, f.resolution, f.dtype) == (16, 0.0078125, 0.01, "bfloat16")
    assert repr(f).startswith("finfo(resolution=0.01, min=-3.38953e+38, max=3.38953e+38, eps=0.0078125")
    e4 = opyard.finfo(opyard.float8_e4m3fn)
    assert (e4.max, e4.min, e4.eps, e4.tiny, e4.resolution) == (448.0, -448.0, 0.125, 0.015625, 1.0)
    assert opyard.finfo().dtype == "float32" and opyard.finfo(opyard.complex128).dtype == "float64"
    i = opyard.iinfo(opyard.uint16)
    assert (i.min, i.max, i.bits, repr(i)) == (0, 65535, 16, "iinfo(min=0, max=65535, dtype=uint16)")
    assert opyard.iinfo(opyard.uint64).max == 2 ** 64 - 1
    with pytest.raises(TypeError, match="torch.iinfo\\(\\) requires an integer input type. Use torch.finfo"):
        opyard.iinfo(opyard.float32)
    with pytest.raises(TypeError, match="torch.finfo\\(\\) requires a floating point input type. Use torch.iinfo"):
        opyard.finfo(opyard.int32)


def test_layout_is_strided_and_pickles():
    import pickle

    assert isinstance(opyard.strided, opyard.layout) and repr(opyard.strided) == "opyard.strided"
    assert pickle.loads(pickle.dumps(opyard.strided)) is opyard.strided
    assert pickle.loads(pickle.dumps(opyard.bfloat16)) is opyard.bfloat16
    assert opyard.zeros(2, device="meta").layout is opyard.strided


def test_schema_dtype_defaults_resolve_to_new_dtypes():
    lib = opyard.library.Library("dtext", "FRAGMENT")
    lib.define("make(SymInt n, ScalarType dtype=bfloat16) -> Tensor")
    lib.impl("make", lambda n, dtype=opyard.bfloat16: opyard.zeros(n, dtype=dtype), "CompositeExplicitAutograd")
    assert opyard.ops.dtext.make(2).dtype is opyard.bfloat16
    assert opyard.ops.dtext.make(2, opyard.float8_e5m2).dtype is opyard.float8_e5m2
    lib._destroy()


def test_bitsandbytes_style_4bit_dequant_fake():
    """A 4-bit dequantize op in bitsandbytes' shape: packed uint8 in, bfloat16 out; its fake impl
    only allocates (``empty`` with the requested dtype)."""
    lib = opyard.library.Library("bnbx", "FRAGMENT")
    lib.define("dequantize_4bit(Tensor A, Tensor absmax, int blocksize, str quant_type, int[] shape, "
               "ScalarType dtype) -> Tensor")

    @opyard.library.register_fake("bnbx::dequantize_4bit", lib=lib)
    def _(A, absmax, blocksize, quant_type, shape, dtype):
        assert A.dtype is opyard.uint8, f"A must be uint8, got {A.dtype}"
        return opyard.empty(shape, dtype=dtype, device=A.device)

    @opyard.library.impl(lib, "dequantize_4bit", "CPU")
    def _(A, absmax, blocksize, quant_type, shape, dtype):
        low = (A & 0x0F).to(opyard.float32) - 8
        high = (A.bitwise_and(0xF0) // 16).to(opyard.float32) - 8
        vals = opyard.stack([high, low], -1).reshape(-1)
        scale = absmax.repeat_interleave(blocksize)[: vals.shape[0]]
        return (vals * scale).reshape(shape).to(dtype)

    packed = opyard.tensor([0x9F, 0x08, 0x7A, 0x80], dtype=opyard.uint8)
    absmax = opyard.tensor([0.5, 2.0])
    out = opyard.ops.bnbx.dequantize_4bit(packed, absmax, 4, "fp4", [2, 4], opyard.bfloat16)
    assert out.dtype is opyard.bfloat16 and out.shape == (2, 4)
    assert out.float().tolist() == [[0.5, 3.5, -4.0, 0.0], [-2.0, 4.0, 0.0, -16.0]]
    with opyard.fake.FakeTensorMode() as mode:
        fake = opyard.ops.bnbx.dequantize_4bit(mode.from_tensor(packed), mode.from_tensor(absmax), 4,
                                               "fp4", [2, 4], opyard.bfloat16)
    assert fake.shape == (2, 4) and fake.dtype is opyard.bfloat16
    lib._destroy()
