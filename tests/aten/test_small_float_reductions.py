"""Small float32/float64 sums and means along dims, and ``bmm`` with inner size 1.

Below the Rust reductions' minimum, ``sum.dim_IntList`` and ``mean.dim`` of float32/float64 data take
numpy's own steps directly (``np.add.reduce``, then the division by the count in place): pinned here
bit for bit against ``np.sum``/``np.mean`` over every spelling of dims (one, several, negative, none,
an empty list, a 0-d tensor, empty tensors), with ``keepdim`` both ways, and against the general path
for the dtypes that keep it (16-bit floats, ``dtype=``, integers). ``bmm`` of matrices with inner size 1
is a broadcast multiply: pinned against ``np.matmul`` bit for bit."""

import warnings

import numpy as np
import opyard
import pytest

# (shape, dims): dims as the operator takes them (None: every dim)
CASES = [
    ((64, 1), [1]), ((3, 4, 5), [0, 2]), ((3, 4, 5), [-1]), ((3, 4, 5), None), ((3, 4, 5), []),
    ((0, 3), [1]), ((0, 3), [0]), ((), [0]), ((), []), ((7,), [0]), ((2, 3), [-2, -1]),
]


def _numpy_axes(shape, dims):
    if not dims:  # None and [] both mean every dim
        return None
    return tuple(d % len(shape) for d in dims) if shape else None


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("shape, dims", CASES)
@pytest.mark.parametrize("which", ["sum", "mean"])
def test_small_float_reductions_are_numpys(which, shape, dims, keepdim, dt):
    x = np.random.default_rng(1).standard_normal(shape).astype(dt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpy's "mean of empty slice"; torch answers nan silently
        want = np.asarray(getattr(np, which)(x, axis=_numpy_axes(shape, dims), keepdims=keepdim, dtype=dt))
        got = getattr(opyard, which)(opyard.from_numpy(x), dims, keepdim).numpy()
    assert got.dtype == dt and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("which", ["sum", "mean"])
def test_the_other_dtypes_keep_their_rules(which):
    h = opyard.tensor([[1.0, 2.0, 3.5]], dtype=opyard.float16)
    assert getattr(opyard, which)(h, [1]).dtype == opyard.float16
    wide = getattr(opyard, which)(opyard.ones(2, 3), [1], dtype=opyard.float64)
    assert wide.dtype == opyard.float64
    assert wide.tolist() == ([3.0, 3.0] if which == "sum" else [1.0, 1.0])
    if which == "sum":
        assert opyard.sum(opyard.ones(2, 3, dtype=opyard.int32), [1]).dtype == opyard.int64
    else:
        with pytest.raises(NotImplementedError, match=r"mean\(\): could not infer output dtype.*Got: Int"):
            opyard.mean(opyard.ones(2, 3, dtype=opyard.int32), [1])


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int64, np.int32])
@pytest.mark.parametrize("shape_a, shape_b", [((64, 16, 1), (64, 1, 1)), ((3, 5, 1), (3, 1, 7)), ((0, 2, 1), (0, 1, 4))])
def test_bmm_with_inner_size_one_is_matmul(shape_a, shape_b, dt):
    rng = np.random.default_rng(2)
    a = (rng.standard_normal(shape_a) * 7).astype(dt)
    b = (rng.standard_normal(shape_b) * 7).astype(dt)
    got = opyard.bmm(opyard.from_numpy(a), opyard.from_numpy(b))
    assert got.dtype == opyard.from_numpy(a).dtype and got.is_contiguous()
    np.testing.assert_array_equal(got.numpy(), np.matmul(a, b))


def test_bmm_with_inner_size_one_differentiates():
    a = opyard.randn(4, 3, 1, dtype=opyard.float64, requires_grad=True)
    b = opyard.randn(4, 1, 2, dtype=opyard.float64, requires_grad=True)
    assert opyard.autograd.gradcheck(opyard.bmm, (a, b))


def test_bmm_with_inner_size_one_keeps_the_size_check():
    with pytest.raises(RuntimeError, match=r"Expected size for first two dimensions of batch2 tensor to be: \[2, 1\]"):
        opyard.bmm(opyard.ones(2, 3, 1), opyard.ones(3, 1, 2))
