"""``opyard.masked``: reductions and normalizations over the masked-in elements, against numpy's
masked arrays and closed forms; result dtypes; gradients (gradcheck in float64); vmap; fake
tensors. Their errors are checked against torch's recorded ones in
``tests/aten/test_sampling_placement_answers.py``."""

import math

import numpy as np
import pytest

import opyard
from opyard.autograd import gradcheck

M = opyard.masked

X = np.array([[1.5, -2.0, 3.0, 0.25], [4.0, 5.0, -6.0, 2.0], [0.5, 1.0, 7.0, -3.0]])
MASK = np.array([[True, False, True, True], [False, False, False, False], [True, True, False, True]])
ROW_MASK = np.array([True, False, True, True])  # broadcast to every row


def _t(a, dtype=opyard.float64):
    return opyard.tensor(a.tolist(), dtype=dtype)


def _ma(a, mask):
    return np.ma.masked_array(a, mask=~np.broadcast_to(mask, a.shape))


@pytest.mark.parametrize("mask", [MASK, ROW_MASK], ids=["full", "broadcast"])
@pytest.mark.parametrize("name, ref", [
    ("sum", lambda m, d: m.sum(axis=d).filled(0.0)),
    ("prod", lambda m, d: m.prod(axis=d).filled(1.0)),
    ("amax", lambda m, d: m.max(axis=d).filled(-np.inf)),
    ("amin", lambda m, d: m.min(axis=d).filled(np.inf)),
    ("mean", lambda m, d: m.mean(axis=d).filled(np.nan)),
])
def test_reductions_over_the_masked_in_elements(name, ref, mask):
    for dim in (0, 1):
        got = getattr(M, name)(_t(X), dim, mask=_t(mask, opyard.bool)).numpy()
        np.testing.assert_allclose(got, ref(_ma(X, mask), dim), rtol=1e-12)


def test_reduction_over_every_dim_and_keepdim():
    m = _t(MASK, opyard.bool)
    assert M.sum(_t(X), mask=m).item() == pytest.approx(_ma(X, MASK).sum())
    assert M.sum(_t(X), (0, 1), keepdim=True, mask=m).shape == (1, 1)
    assert M.amax(_t(X), (), mask=m).item() == 3.0  # () is every dim (7.0 is masked out)


def test_median_is_the_lower_median_of_the_masked_in_elements():
    m = _t(MASK, opyard.bool)
    got = M.median(_t(X), 1, mask=m).numpy()
    for row, keep, value in zip(X, MASK, got):
        vals = np.sort(row[keep])
        assert (np.isnan(value) if vals.size == 0 else value == vals[(vals.size - 1) // 2])
    assert M.median(opyard.tensor([[3, 1, 2]]), 1, mask=opyard.tensor([True, True, False])).dtype == opyard.int64


@pytest.mark.parametrize("correction", [0, 1, 2])
def test_var_and_std(correction):
    m = _ma(X, MASK)
    n = (~m.mask).sum(axis=1)
    mean = m.mean(axis=1, keepdims=True)
    ss = ((m - mean) ** 2).sum(axis=1).filled(0.0)
    expected = ss / np.maximum(n - correction, 0)
    with np.errstate(all="ignore"):
        got = M.var(_t(X), 1, correction=correction, mask=_t(MASK, opyard.bool)).numpy()
        np.testing.assert_allclose(got, expected, rtol=1e-12)
        got = M.std(_t(X), 1, correction=correction, mask=_t(MASK, opyard.bool)).numpy()
        np.testing.assert_allclose(got, np.sqrt(expected), rtol=1e-12)


def test_norm_and_normalize():
    m = _t(MASK, opyard.bool)
    masked = np.where(MASK, X, 0.0)
    for ord in (1.0, 2.0, 3.0, math.inf):
        np.testing.assert_allclose(M.norm(_t(X), ord, 1, mask=m).numpy(),
                                   np.linalg.norm(masked, ord=ord, axis=1), rtol=1e-12)
    np.testing.assert_allclose(M.norm(_t(X), -math.inf, 1, mask=m).numpy(), [0.25, np.inf, 0.5])
    nrm = np.maximum(np.linalg.norm(masked, axis=1, keepdims=True), 1e-12)
    np.testing.assert_allclose(M.normalize(_t(X), 2.0, 1, mask=m).numpy(), masked / nrm, rtol=1e-12)


def test_softmax_family_gives_masked_out_elements_no_weight():
    m = _t(ROW_MASK, opyard.bool)
    e = np.where(ROW_MASK, np.exp(X), 0.0)
    soft = e / e.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(M.softmax(_t(X), 1, mask=m).numpy(), soft, rtol=1e-12)
    np.testing.assert_allclose(M.log_softmax(_t(X), 1, mask=m).numpy(), np.log(soft), rtol=1e-12)
    e = np.where(ROW_MASK, np.exp(-X), 0.0)
    np.testing.assert_allclose(M.softmin(_t(X), 1, mask=m).numpy(), e / e.sum(axis=1, keepdims=True), rtol=1e-12)


def test_logsumexp_and_logaddexp():
    m = _t(MASK, opyard.bool)
    with np.errstate(divide="ignore"):
        expected = np.log(np.where(MASK, np.exp(X), 0.0).sum(axis=1))
    np.testing.assert_allclose(M.logsumexp(_t(X), 1, mask=m).numpy(), expected, rtol=1e-12)
    a, b = _t(np.array([-100.0, -200, -300])), _t(np.array([-1.0, -2, -3]))
    mk = opyard.tensor([True, False, True])
    np.testing.assert_allclose(M.logaddexp(a, b, input_mask=mk, other_mask=mk).numpy(), [-1.0, -np.inf, -3.0])


def test_logsumexp_of_complex_shifts_by_the_largest_real_part():
    z = opyard.tensor([[1 + 2j, 3 - 1j], [0.5 + 0j, -1 + 4j]], dtype=opyard.complex128)
    got = M.logsumexp(z, 1, mask=opyard.tensor([True, True])).numpy()
    np.testing.assert_allclose(got, np.log(np.exp(z.numpy()).sum(axis=1)), rtol=1e-12)


def test_cumulative_ops_take_the_identity_at_masked_out_elements():
    m = _t(ROW_MASK, opyard.bool)
    np.testing.assert_allclose(M.cumsum(_t(X), 1, mask=m).numpy(), np.cumsum(np.where(ROW_MASK, X, 0), 1))
    np.testing.assert_allclose(M.cumprod(_t(X), 1, mask=m).numpy(), np.cumprod(np.where(ROW_MASK, X, 1), 1))


def test_argmax_argmin_ignore_masked_out_elements():
    m = _t(ROW_MASK, opyard.bool)
    assert M.argmax(_t(X), 1, mask=m).tolist() == [2, 0, 2]
    assert M.argmin(_t(X), 1, mask=m).tolist() == [3, 2, 3]


@pytest.mark.parametrize("name, dtype, expected", [
    ("sum", opyard.int8, opyard.int64), ("sum", opyard.bool, opyard.int64), ("prod", opyard.uint8, opyard.int64),
    ("sum", opyard.int64, opyard.int64), ("sum", opyard.float16, opyard.float16),
    ("amax", opyard.int16, opyard.int16), ("argmax", opyard.int32, opyard.int32),
    ("var", opyard.int32, opyard.float32), ("std", opyard.uint8, opyard.float32),
    ("logsumexp", opyard.int64, opyard.int64), ("cumsum", opyard.int8, opyard.int8),
])
def test_result_dtypes(name, dtype, expected):
    x = opyard.ones(2, 3, dtype=dtype)
    r = getattr(M, name)(x, 1, mask=opyard.tensor([True, False, True]))
    assert r.dtype == expected


def test_dtype_argument():
    x = opyard.tensor([[1, 2, 3]], dtype=opyard.int32)
    r = M.sum(x, 1, dtype=opyard.float64, mask=opyard.tensor([True, False, True]))
    assert r.dtype == opyard.float64 and r.tolist() == [4.0]
    r = M.mean(x, 1, dtype=opyard.float32, mask=opyard.tensor([True, False, True]))
    assert r.dtype == opyard.float32 and r.tolist() == [2.0]


def test_no_mask_is_the_plain_reduction():
    np.testing.assert_allclose(M.sum(_t(X), 1).numpy(), X.sum(axis=1))
    np.testing.assert_allclose(M.var(_t(X), 0).numpy(), X.var(axis=0, ddof=1))
    np.testing.assert_allclose(M.mean(_t(X)).numpy(), X.mean())


@pytest.mark.parametrize("name, args", [
    ("sum", (1,)), ("prod", (1,)), ("amax", (1,)), ("amin", (1,)), ("mean", (1,)), ("var", (1,)), ("std", (1,)),
    ("norm", (2.0, 1)), ("normalize", (2.0, 1)), ("softmax", (1,)), ("log_softmax", (1,)), ("softmin", (1,)),
    ("logsumexp", (1,)), ("cumsum", (1,)), ("cumprod", (1,)),
])
def test_gradients(name, args):
    fn = getattr(M, name)
    x = opyard.tensor([[1.5, -2.0, 3.0, 0.25], [4.0, 5.0, -6.0, 2.0]], dtype=opyard.float64, requires_grad=True)
    mask = opyard.tensor([[True, False, True, True], [False, True, True, True]])
    if name == "log_softmax":  # -inf at the masked-out elements: compare the others
        assert gradcheck(lambda t: fn(t, *args, mask=mask).masked_fill(~mask, 0.0), (x,))
    else:
        assert gradcheck(lambda t: fn(t, *args, mask=mask), (x,))


def test_gradient_is_zero_at_masked_out_elements():
    x = _t(X).requires_grad_()
    M.sum(x, 1, mask=_t(ROW_MASK, opyard.bool)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.broadcast_to(ROW_MASK, X.shape).astype(float))


@pytest.mark.parametrize("name", ["sum", "amax", "mean", "var", "softmax", "logsumexp"])
def test_vmap_over_input_and_mask(name):
    x = _t(np.stack([X, -X]))
    mask = _t(np.stack([MASK, ~MASK]), opyard.bool)
    got = opyard.vmap(lambda a, m: getattr(M, name)(a, 1, mask=m))(x, mask)
    for b in range(2):
        per = getattr(M, name)(x[b], 1, mask=mask[b])
        np.testing.assert_allclose(got[b].numpy(), per.numpy(), rtol=1e-12)


def test_fake_tensors_give_shapes_and_dtypes():
    from opyard.fake import FakeTensorMode
    with FakeTensorMode():
        x = opyard.empty(3, 4, dtype=opyard.int16)
        m = opyard.empty(4, dtype=opyard.bool)
        r = M.sum(x, 1, keepdim=True, mask=m)
        assert r.shape == (3, 1) and r.dtype == opyard.int64
        r = M.var(x, 0, mask=m)
        assert r.shape == (4,) and r.dtype == opyard.float32


def test_public_names():
    assert sorted(M.__all__) == sorted([
        "amax", "amin", "argmax", "argmin", "cumprod", "cumsum", "log_softmax", "logaddexp", "logsumexp", "mean",
        "median", "norm", "normalize", "prod", "softmax", "softmin", "std", "sum", "var"])
    assert "builtins" not in dir(M)
