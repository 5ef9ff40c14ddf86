"""A 2-D convolution's columns made in Rust (Note [Columns in Rust], ``src/kernels/im2col.rs``) are
the window copy's elements bit for bit, in both block orders, at the sizes where the intra-op team
takes over and on one thread; other inputs keep the numpy copy; convolutions through them equal the
numpy path's."""

import numpy as np
import opyard
import pytest
from opyard import _core
from opyard._aten import windows as W

# (input (N, C, H, W), kernel, stride, padding, dilation)
GEOMETRIES = [
    ((2, 3, 9, 11), (3, 3), (1, 1), (1, 1), (1, 1)),
    ((2, 3, 9, 11), (3, 2), (2, 3), (0, 2), (1, 1)),
    ((1, 2, 8, 8), (2, 3), (1, 2), (3, 1), (2, 3)),
    ((3, 1, 5, 4), (5, 4), (1, 1), (0, 0), (1, 1)),
    ((1, 1, 3, 3), (1, 1), (2, 2), (4, 4), (1, 1)),
    ((4, 8, 64, 64), (3, 3), (1, 1), (1, 1), (1, 1)),  # past the team's threshold
]


def _out(shape, kernel, stride, padding, dilation):
    return [(s + 2 * p - d * (k - 1) - 1) // st + 1
            for s, k, st, p, d in zip(shape[2:], kernel, stride, padding, dilation)]


def _numpy_columns(x, out, kernel, stride, padding, dilation, kernel_major):
    w = W.padded_windows(x, out, kernel, stride, padding, dilation)
    order = (1, 4, 5, 0, 2, 3) if kernel_major else (0, 1, 4, 5, 2, 3)
    return np.ascontiguousarray(w.transpose(order))


@pytest.mark.skipif(not _core.FAST_PATHS, reason="with OPYARD_FASTPATH=0 every Rust kernel declines")
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kernel_major", [True, False])
@pytest.mark.parametrize("geometry", GEOMETRIES, ids=str)
def test_columns_are_the_window_copy(geometry, kernel_major, dtype, threads):
    shape, kernel, stride, padding, dilation = geometry
    x = (np.arange(np.prod(shape)) % 97 - 40.5).astype(dtype).reshape(shape)
    out = _out(shape, kernel, stride, padding, dilation)
    before = opyard.get_num_threads()
    opyard.set_num_threads(threads)
    try:
        got = _core._im2col(x, tuple(out), kernel, stride, padding, dilation, kernel_major)
    finally:
        opyard.set_num_threads(before)
    want = _numpy_columns(x, out, kernel, stride, padding, dilation, kernel_major)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("x", [
    np.ones((2, 3, 5, 5), np.float16),              # another dtype
    np.ones((2, 3, 5, 5), np.int64),
    np.ones((2, 3, 5, 10), np.float32)[..., ::2],   # not contiguous
    np.ones((3, 5, 5), np.float32),                 # not 4-D
], ids=["float16", "int64", "strided", "3d"])
def test_other_inputs_are_not_taken(x):
    assert _core._im2col(x, (3, 3), (3, 3), (1, 1), (0, 0), (1, 1), True) is None


def test_the_helpers_fall_back_to_the_window_copy_for_what_rust_does_not_take():
    x = np.arange(2 * 3 * 7 * 7, dtype=np.float32).reshape(2, 3, 7, 7)
    t = x.transpose(0, 1, 3, 2)  # not contiguous: the numpy copy
    for kernel_major, helper in ((True, W.batch_columns), (False, W.unfold_columns)):
        got = helper(t, [5, 5], (3, 3), (1, 1), (0, 0), (1, 1))
        assert np.array_equal(got, _numpy_columns(t, [5, 5], (3, 3), (1, 1), (0, 0), (1, 1), kernel_major))


@pytest.mark.parametrize("stride, padding, dilation, groups", [
    (1, 1, 1, 1), (2, 0, 1, 1), (1, 2, 2, 2), ((2, 1), (1, 0), (1, 2), 4)])
def test_convolutions_and_their_gradients_equal_the_window_copys(stride, padding, dilation, groups, monkeypatch):
    x = opyard.randn(3, 8, 13, 12, dtype=opyard.float64, requires_grad=True)
    w = opyard.randn(4, 8 // groups, 3, 3, dtype=opyard.float64, requires_grad=True)

    def run():
        y = opyard.nn.functional.conv2d(x, w, stride=stride, padding=padding, dilation=dilation, groups=groups)
        gx, gw = opyard.autograd.grad(y.sum() + (y * y).sum(), (x, w))
        return y.detach().numpy(), gx.numpy(), gw.numpy()

    fast = run()
    monkeypatch.setattr(W, "_columns_2d", lambda *args: None)
    slow = run()
    for a, b in zip(fast, slow):
        assert a.tobytes() == b.tobytes()
