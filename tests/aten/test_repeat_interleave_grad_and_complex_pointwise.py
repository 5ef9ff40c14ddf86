"""``repeat_interleave``'s gradient (each element's copies summed) and its single-count tensor,
``logaddexp`` and ``nan_to_num`` of complex tensors, ``normalize`` for every p: as torch's."""

import math

import numpy as np
import pytest

import opyard
from opyard.autograd import gradcheck

F = opyard.nn.functional


@pytest.mark.parametrize("call", [
    lambda t: t.repeat_interleave(2),
    lambda t: t.repeat_interleave(3, dim=1),
    lambda t: t.repeat_interleave(2, dim=-2),
    lambda t: t.repeat_interleave(opyard.tensor([1, 0, 2]), dim=1),
    lambda t: t.repeat_interleave(opyard.tensor([2]), dim=0),
    lambda t: t.repeat_interleave(opyard.tensor(2)),
    lambda t: opyard.repeat_interleave(t[0, 0], 3),
], ids=["flat", "dim1", "dim-2", "counts", "one-count", "0-d-count", "0-d-input"])
def test_repeat_interleave_gradient(call):
    x = opyard.randn(2, 3, dtype=opyard.float64, requires_grad=True)
    assert gradcheck(call, (x,))


def test_repeat_interleave_gradient_sums_the_copies():
    x = opyard.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    (x.repeat_interleave(opyard.tensor([3, 1]), dim=1) * opyard.arange(8.0).reshape(2, 4)).sum().backward()
    assert x.grad.tolist() == [[0.0 + 1 + 2, 3.0], [4.0 + 5 + 6, 7.0]]


def test_repeat_interleave_one_count_expands():
    x = opyard.arange(6).reshape(2, 3)
    assert x.repeat_interleave(opyard.tensor([2]), dim=1).tolist() == [[0, 0, 1, 1, 2, 2], [3, 3, 4, 4, 5, 5]]
    with pytest.raises(RuntimeError, match="repeats must have the same size as input along dim"):
        x.repeat_interleave(opyard.tensor([1, 2]), dim=1)


def _logaddexp_reference(a, b):
    if math.isnan(a.real) or math.isnan(a.imag) or math.isnan(b.real) or math.isnan(b.imag):
        return complex(math.nan, math.nan)
    lo, hi = (b, a) if a.real > b.real else (a, b)
    if not math.isfinite(lo.real) and lo.real == hi.real:
        return lo if lo.real < 0 else complex(math.inf, 0)
    import cmath

    return cmath.log(1 + cmath.exp(lo - hi)) + hi


@pytest.mark.parametrize("dtype", [opyard.complex64, opyard.complex128])
def test_logaddexp_of_complex_values(dtype):
    a = [1 + 2j, -1 - 1j, 0.5 + 0j, 3 - 4j, complex(math.inf, 0), complex(-math.inf, 0), 0j]
    b = [0.5 - 1j, 2 + 3j, 0.5 + 0j, -2 + 1j, 1 + 0j, complex(-math.inf, 0), complex(math.nan, 0)]
    got = opyard.logaddexp(opyard.tensor(a, dtype=dtype), opyard.tensor(b, dtype=dtype))
    assert got.dtype == dtype
    want = np.array([_logaddexp_reference(x, y) for x, y in zip(a, b)])
    tol = 1e-6 if dtype == opyard.complex64 else 1e-13
    np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)


def test_logaddexp_of_real_values_is_numpys():
    a, b = np.array([1.0, -700.0, 30.0]), np.array([2.0, -701.0, -30.0])
    np.testing.assert_array_equal(opyard.logaddexp(opyard.tensor(a), opyard.tensor(b)).numpy(), np.logaddexp(a, b))


def test_nan_to_num_of_complex_values_replaces_each_part():
    x = opyard.tensor([complex(math.nan, math.inf), complex(-math.inf, 1.0), 2 - 3j], dtype=opyard.complex64)
    got = opyard.nan_to_num(x, nan=1.0, posinf=2.0)
    lowest = float(np.finfo(np.float32).min)
    assert got.dtype == opyard.complex64
    assert got.tolist() == [complex(1.0, 2.0), complex(lowest, 1.0), complex(2.0, -3.0)]
    d = opyard.nan_to_num(opyard.tensor([complex(math.nan, -math.inf)], dtype=opyard.complex128))
    assert d.tolist() == [complex(0.0, float(np.finfo(np.float64).min))]


@pytest.mark.parametrize("p", [0, 1, 2, 3.5, math.inf, -math.inf])
def test_normalize_for_every_p(p):
    x = np.array([[1.0, -2.0, 0.0, 4.0], [0.5, 0.0, -0.25, 3.0]])
    got = F.normalize(opyard.tensor(x), p=p, dim=1).numpy()
    norm = np.linalg.norm(x, ord=p, axis=1, keepdims=True) if p not in (0,) else (x != 0).sum(1, keepdims=True)
    np.testing.assert_allclose(got, x / np.maximum(norm, 1e-12))
