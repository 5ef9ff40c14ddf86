"""The parts of complex tensors: view_as_real/view_as_complex (views sharing memory, torch's strides
and checks), real/imag (views, and the Tensor properties with their setters), conj/conj_physical/
resolve_conj/resolve_neg, angle; their gradients (complex results are differentiable only through
formulas that compute the conjugate Wirtinger derivative), Meta kernels, vmap and errors."""

import math

import numpy as np
import pytest

import opyard
from opyard.autograd import gradcheck

A = opyard.ops.aten


def z(values, dtype=opyard.complex128):
    return opyard.tensor(values, dtype=dtype)


VALUES = [1 + 2j, -3 - 1j, 0j, -0.5 + 0.25j]


@pytest.mark.parametrize("dtype", [opyard.complex64, opyard.complex128])
def test_view_as_real_shares_memory_with_torchs_strides(dtype):
    x = opyard.tensor(np.arange(24).reshape(3, 8) * (1 + 1j), dtype=dtype)[:, ::2]
    r = opyard.view_as_real(x)
    assert r.dtype == (opyard.float32 if dtype is opyard.complex64 else opyard.float64)
    assert tuple(r.shape) == (3, 4, 2) and r.stride() == (16, 4, 1) and r.storage_offset() == 0
    np.testing.assert_array_equal(r.numpy()[..., 0], x.numpy().real)
    np.testing.assert_array_equal(r.numpy()[..., 1], x.numpy().imag)
    r[0, 0, 1] = 99.0  # a view: writes reach the complex tensor
    assert x[0, 0].item() == 0 + 99j
    assert opyard.view_as_real(x[1:]).storage_offset() == 16


def test_view_as_complex_views_pairs():
    y = opyard.arange(24, dtype=opyard.float64).reshape(3, 4, 2)[1:]
    c = opyard.view_as_complex(y)
    assert c.dtype == opyard.complex128 and tuple(c.shape) == (2, 4)
    assert c.stride() == (4, 1) and c.storage_offset() == 4
    np.testing.assert_array_equal(c.numpy(), y.numpy()[..., 0] + 1j * y.numpy()[..., 1])
    c[0, 0] = 5 - 6j
    assert y[0, 0].tolist() == [5.0, -6.0]
    assert opyard.view_as_complex(opyard.tensor([1.0, 2.0])).shape == ()


@pytest.mark.parametrize("make, exc, match", [
    (lambda: opyard.ones(2), TypeError, "view_as_real is only supported for complex tensors"),
])
def test_view_as_real_errors(make, exc, match):
    with pytest.raises(exc, match=match):
        opyard.view_as_real(make())


@pytest.mark.parametrize("make, exc, match", [
    (lambda: opyard.ones(2, dtype=opyard.int64), NotImplementedError,
     "view_as_complex is only supported for half, float and double tensors, but got a tensor of scalar type: Long"),
    (lambda: opyard.ones(2, dtype=opyard.bfloat16), NotImplementedError, "scalar type: BFloat16"),
    (lambda: opyard.ones(2, dtype=opyard.float16), NotImplementedError, "complex32"),
    (lambda: opyard.ones((), dtype=opyard.float64), RuntimeError, "Input tensor must have one or more dimensions"),
    (lambda: opyard.ones(2, 3), RuntimeError, "Tensor must have a last dimension of size 2"),
    (lambda: opyard.ones(2, 4)[:, ::2], RuntimeError, "Tensor must have a last dimension with stride 1"),
    (lambda: opyard.ones(4, 4)[:, 1:3], RuntimeError, "Tensor must have a storage_offset divisible by 2"),
    (lambda: opyard.ones(6).as_strided((2, 2), (3, 1)), RuntimeError,
     "Tensor must have a stride divisible by 2 for all but last dimension"),
])
def test_view_as_complex_errors(make, exc, match):
    with pytest.raises(exc, match=match):
        opyard.view_as_complex(make())


def test_real_and_imag_are_views():
    x = z(VALUES)
    re, im = opyard.real(x), opyard.imag(x)
    assert re.dtype == im.dtype == opyard.float64
    assert re.tolist() == [v.real for v in VALUES] and im.tolist() == [v.imag for v in VALUES]
    assert re.stride() == im.stride() == (2,) and im.storage_offset() == 1
    im[0] = 7.0
    assert x[0].item() == 1 + 7j
    assert x.real.tolist() == re.tolist() and x.imag.tolist() == im.tolist()


@pytest.mark.parametrize("dtype", [opyard.float32, opyard.int64, opyard.bool, opyard.float16])
def test_real_of_a_real_tensor_is_itself_and_it_has_no_imag(dtype):
    x = opyard.ones(3, dtype=dtype)
    assert opyard.real(x) is x and x.real is x
    with pytest.raises(TypeError, match=r"^imag is not implemented for tensors with non-complex dtypes\.$"):
        x.imag
    with pytest.raises(TypeError, match="imag is not implemented"):
        x.imag = opyard.ones(3)


def test_real_and_imag_setters_copy_into_the_parts():
    t = opyard.zeros(3, dtype=opyard.complex64)
    t.real = opyard.tensor([1.0, 2.0, 3.0])
    t.imag = opyard.tensor([4, 5, 6])
    assert t.tolist() == [1 + 4j, 2 + 5j, 3 + 6j]
    t.imag = 0.5
    assert t.tolist() == [1 + 0.5j, 2 + 0.5j, 3 + 0.5j]


def test_conj_family():
    x = z(VALUES)
    for fn in (opyard.conj, opyard.conj_physical, lambda t: A._conj.default(t), lambda t: A._conj_physical.default(t)):
        np.testing.assert_array_equal(fn(x).numpy(), np.conj(np.array(VALUES)))
    y = x.clone()
    assert y.conj_physical_() is y and y.tolist() == [v.conjugate() for v in VALUES]
    assert not x.is_conj() and not x.is_neg() and not opyard.conj(x).is_conj()
    assert opyard.resolve_conj(x) is x and opyard.resolve_neg(x) is x
    r = opyard.ones(3)
    assert opyard.conj(r) is r and opyard.conj_physical(r) is r and r.conj_physical_() is r


@pytest.mark.parametrize("dtype", [opyard.float64, opyard.float32, opyard.float16, opyard.bfloat16])
def test_angle_of_real_numbers(dtype):
    x = opyard.tensor([-2.0, -0.0, 0.0, 3.0, math.nan, -math.inf, math.inf], dtype=dtype)
    a = opyard.angle(x)
    assert a.dtype == dtype
    # pi rounded once to the dtype (3.140625 in half and bfloat16, as torch's)
    expected = opyard.tensor([math.pi, 0, 0, 0, math.nan, math.pi, 0], dtype=opyard.float64).to(dtype)
    np.testing.assert_array_equal(a.float().numpy(), expected.float().numpy())


@pytest.mark.parametrize("dtype", [opyard.int32, opyard.uint8, opyard.bool])
def test_angle_of_integers_is_the_default_float(dtype):
    a = opyard.angle(opyard.tensor([0, 1], dtype=dtype))
    assert a.dtype == opyard.float32 and a.tolist() == [0.0, 0.0]
    assert opyard.angle(opyard.tensor([-3])).tolist() == [pytest.approx(math.pi)]


@pytest.mark.parametrize("dtype, real", [(opyard.complex64, opyard.float32), (opyard.complex128, opyard.float64)])
def test_angle_of_complex_numbers(dtype, real):
    a = opyard.angle(z(VALUES, dtype))
    assert a.dtype == real
    np.testing.assert_allclose(a.numpy(), np.angle(np.array(VALUES)), rtol=1e-6)


def test_meta_kernels():
    m = opyard.empty(2, 3, dtype=opyard.complex64, device="meta")
    r = opyard.view_as_real(m)
    assert r.device.type == "meta" and tuple(r.shape) == (2, 3, 2) and r.dtype == opyard.float32
    assert r.stride() == (6, 2, 1)
    assert opyard.real(m).dtype == opyard.float32 and tuple(opyard.imag(m).shape) == (2, 3)
    assert opyard.angle(m).dtype == opyard.float32 and opyard.angle(m).device.type == "meta"
    c = opyard.view_as_complex(opyard.empty(4, 2, device="meta"))
    assert c.dtype == opyard.complex64 and tuple(c.shape) == (4,)
    assert opyard.conj_physical(m).dtype == opyard.complex64


def test_vmap_matches_per_example_calls():
    x = z([VALUES, VALUES[::-1]])
    for fn in (opyard.view_as_real, opyard.real, opyard.imag, opyard.angle, opyard.conj, opyard.conj_physical):
        batched = opyard.vmap(fn)(x)
        np.testing.assert_array_equal(batched.numpy(), np.stack([fn(x[0]).numpy(), fn(x[1]).numpy()]))
    y = opyard.arange(8, dtype=opyard.float64).reshape(2, 2, 2)
    np.testing.assert_array_equal(opyard.vmap(opyard.view_as_complex)(y).numpy(), opyard.view_as_complex(y).numpy())


def _pairs(n):
    rng = np.random.default_rng(3)
    return opyard.tensor(rng.uniform(0.5, 2.0, (n, 2)), dtype=opyard.float64, requires_grad=True)


@pytest.mark.parametrize("fn", [
    lambda p: opyard.view_as_real(opyard.conj(opyard.view_as_complex(p))),
    lambda p: opyard.view_as_real(opyard.conj_physical(opyard.view_as_complex(p))),
    lambda p: opyard.angle(opyard.view_as_complex(p)),
    lambda p: opyard.imag(opyard.view_as_complex(p)) * 3 + opyard.real(opyard.view_as_complex(p)),
    lambda p: opyard.view_as_real(opyard.polar(p[:, 0], p[:, 1])),
    lambda p: opyard.view_as_real(opyard.complex(p[:, 0], p[:, 1]).reshape(2, 2).t()),
], ids=["conj", "conj_physical", "angle", "real_imag", "polar", "complex_view"])
def test_gradients(fn):
    assert gradcheck(fn, (_pairs(4),), check_forward_ad=True)


def test_complex_gradients_match_torch_conventions():
    x = z([3 + 4j, 0j], opyard.complex128).requires_grad_()
    opyard.angle(x).sum().backward()
    # angle_backward: grad * x / |x|**2 * i, 0 at 0
    assert x.grad.tolist() == [pytest.approx(-4 / 25 + 3j / 25), 0j]
    assert opyard.conj(x).grad_fn.name() == "ConjBackward0"
    assert opyard.conj_physical(x).grad_fn.name() == "ConjPhysicalBackward0"
    assert opyard.view_as_real(x).grad_fn.name() == "ViewAsRealBackward0"
    assert opyard.angle(x).grad_fn.name() == "AngleBackward0"
    assert opyard.real(x).grad_fn.name() == "SelectBackward0"
    p = _pairs(2)
    assert opyard.view_as_complex(p).grad_fn.name() == "ViewAsComplexBackward0"
    assert opyard.angle(opyard.ones(2, requires_grad=True)).grad_fn.name() == "AngleBackward0"


def test_complex_results_of_real_only_formulas_do_not_require_grad():
    """A formula written for real numbers gives no history to a complex result: backward refuses it
    instead of returning a wrong gradient."""
    x = z(VALUES).requires_grad_()
    y = x * z([1 + 2j] * 4)
    assert not y.requires_grad
    with pytest.raises(RuntimeError, match="does not require grad"):
        opyard.view_as_real(y).sum().backward()

