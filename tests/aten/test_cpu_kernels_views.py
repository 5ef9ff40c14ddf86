"""The Rust kernels of the shape views (``view``, ``reshape``, ``t``, ``transpose``, ``permute``,
``unsqueeze``, ``squeeze``, ``select``, ``slice``, ``narrow``): each gives the very numpy view its
Python kernel gives (shape, byte strides, first byte, writeability), the same base and version
counter, and falls back to the Python kernel (same error, same message) for every call it does not
cover. ``kernel_probe`` tells which of the two ran.
"""

import re

import numpy as np
import opyard
import pytest
from opyard import _core
from opyard._aten import fast
from kernel_probe import Recorder, run
from view_checks import _addr, _inputs, same_as_python


CASES = [
    ("view", lambda s: [[-1]]), ("view", lambda s: [list(s)]), ("view", lambda s: [[s[0], -1]]),
    ("view", lambda s: [(int(np.prod(s)), 1)]),
    ("reshape", lambda s: [[-1]]), ("reshape", lambda s: [[1, -1, s[-1]]]),
    ("t", lambda s: []), ("transpose.int", lambda s: [0, -1]), ("transpose.int", lambda s: [1, 1]),
    ("permute", lambda s: [[-1] + list(range(len(s) - 1))]), ("permute", lambda s: [tuple(range(len(s)))]),
    ("unsqueeze", lambda s: [0]), ("unsqueeze", lambda s: [-1]), ("unsqueeze", lambda s: [1]),
    ("squeeze", lambda s: []), ("squeeze.dim", lambda s: [0]), ("squeeze.dim", lambda s: [-1]),
    ("select.int", lambda s: [0, 0]), ("select.int", lambda s: [-1, -1]), ("select.int", lambda s: [1, 1]),
    ("slice.Tensor", lambda s: []), ("slice.Tensor", lambda s: [0, 1]), ("slice.Tensor", lambda s: [-1, None, -1]),
    ("slice.Tensor", lambda s: [1, 0, 2, 2]), ("slice.Tensor", lambda s: [0, -5, 100]),
    ("slice.Tensor", lambda s: [-1, 5, 1]), ("slice.Tensor", lambda s: [0, 1, 0]),
    ("slice.Tensor", lambda s: [0, None, None, 3]),
    ("narrow", lambda s: [0, 0, 1]), ("narrow", lambda s: [-1, -2, 2]), ("narrow", lambda s: [1, 1, 0]),
]


@pytest.mark.parametrize("kind", ["contiguous", "transposed", "offset", "expanded"])
@pytest.mark.parametrize("name, make", CASES)
def test_rust_view_is_the_python_kernels_view(name, make, kind):
    x = _inputs()[kind]
    args = make(x.shape)
    try:
        want = fast.PYTHON_KERNELS[name](x, *args)
    except RuntimeError as e:  # a view of a non-viewable input, t() of a 3-d one: the same error
        rec = Recorder(name)
        with pytest.raises(RuntimeError, match=re.escape(str(e))):
            _core.RustKernel(name, rec)(x, *args)
        assert rec.calls == 1 and name in {"view", "t"}
        return
    got, fast_ran = run(name, x, *args)
    assert fast_ran
    same_as_python(name, got, want, x)


@pytest.mark.parametrize("dt", [np.float64, np.int64, np.bool_, np.complex64, np.float16])
@pytest.mark.parametrize("name, args", [
    ("view", [[2, -1]]), ("reshape", [[4, 6]]), ("transpose.int", [0, 2]), ("select.int", [1, 2]),
    ("slice.Tensor", [2, 1, None, 2]), ("unsqueeze", [3]), ("permute", [[1, 2, 0]]),
])
def test_every_dtype(name, args, dt):
    x = _inputs(dt)["contiguous"]
    got, fast_ran = run(name, x, *args)
    assert fast_ran
    same_as_python(name, got, fast.PYTHON_KERNELS[name](x, *args), x)


@pytest.mark.parametrize("name, args, np_fn", [
    ("view", [[6, 4]], lambda a: a.reshape(6, 4)),
    ("t", [], lambda a: a.T),
    ("transpose.int", [0, 1], lambda a: a.swapaxes(0, 1)),
    ("select.int", [1, -1], lambda a: a[:, -1]),
    ("slice.Tensor", [1, 1, None, 2], lambda a: a[:, 1::2]),
    ("narrow", [0, 2, 3], lambda a: a[2:5]),
    ("unsqueeze", [1], lambda a: np.expand_dims(a, 1)),
])
def test_matches_numpys_view(name, args, np_fn):
    a = np.arange(24, dtype=np.float32).reshape(6, 4)
    x = opyard.from_numpy(a)
    got, fast_ran = run(name, x, *args)
    want = np_fn(a)
    assert fast_ran and got.numpy().strides == want.strides and _addr(got.numpy()) == _addr(want)
    assert np.array_equal(got.numpy(), want)
    got.numpy()[...] = -1  # shares memory with the input
    assert (a[...] == -1).sum() == want.size


def test_zero_dim_inputs():
    s = opyard.tensor(3.0)
    for name, args in [("view", [[1]]), ("view", [[]]), ("reshape", [[-1]]), ("t", []), ("unsqueeze", [0]),
                       ("unsqueeze", [-1]), ("squeeze", []), ("squeeze.dim", [0]), ("permute", [[]])]:
        got, fast_ran = run(name, s, *args)
        assert fast_ran, name
        same_as_python(name, got, fast.PYTHON_KERNELS[name](s, *args), s)


def test_reshape_of_a_non_viewable_input_is_a_copy():
    x = opyard.arange(6.0).view(2, 3).t()
    got, fast_ran = run("reshape", x, [-1])
    assert fast_ran and got._base is None and got.tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    assert got.is_contiguous() and not np.shares_memory(got.numpy(), x.numpy())


def test_empty_slices_point_where_numpy_points():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    x = opyard.from_numpy(a)
    for args in ([1, 3, 1], [1, 10, 20], [0, 2, 1, 2], [1, -1, 0]):
        got, fast_ran = run("slice.Tensor", x, *args)
        want = fast.PYTHON_KERNELS["slice.Tensor"](x, *args)
        assert fast_ran and got.numel() == 0
        same_as_python("slice", got, want, x)


ERRORS = [
    ("view", [[5]], RuntimeError, "shape '[5]' is invalid for input of size 24"),
    ("view", [[-1, -1]], RuntimeError, "only one dimension can be inferred"),
    ("view", [[0, -1]], RuntimeError, "shape '[0, -1]' is invalid for input of size 24"),
    ("view", [[-2, 12]], RuntimeError, "invalid for input of size 24"),
    ("reshape", [[7, -1]], RuntimeError, "shape '[7, -1]' is invalid for input of size 24"),
    ("transpose.int", [0, 3], IndexError, "Dimension out of range (expected to be in range of [-3, 2], but got 3)"),
    ("t", [], RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is 3D"),
    ("permute", [[0, 1]], RuntimeError, "number of dimensions in the tensor input does not match"),
    ("permute", [[0, 1, 1]], RuntimeError, "permute(): duplicate dims are not allowed."),
    ("permute", [[0, 1, -4]], IndexError, "Dimension out of range"),
    ("unsqueeze", [4], IndexError, "Dimension out of range (expected to be in range of [-4, 3], but got 4)"),
    ("squeeze.dim", [3], IndexError, "Dimension out of range"),
    ("select.int", [0, 2], IndexError, "select(): index 2 out of range for tensor of size [2, 3, 4] at dimension 0"),
    ("select.int", [1, -4], IndexError, "index -4 out of range"),
    ("select.int", [5, 0], IndexError, "Dimension out of range"),
    ("slice.Tensor", [0, None, None, 0], RuntimeError, "slice step must be positive"),
    ("slice.Tensor", [0, None, None, -1], RuntimeError, "slice step must be positive"),
    ("slice.Tensor", [3], IndexError, "Dimension out of range"),
    ("narrow", [0, 1, 2], RuntimeError, "start (1) + length (2) exceeds dimension size (2)."),
    ("narrow", [2, 0, -1], RuntimeError, "narrow(): length must be non-negative."),
    ("narrow", [2, 5, 0], IndexError, "start out of range (expected to be in range of [-4, 4], but got 5)"),
]


@pytest.mark.parametrize("name, args, exc, msg", ERRORS)
def test_errors_are_the_python_kernels(name, args, exc, msg):
    x = _inputs()["contiguous"]
    with pytest.raises(exc, match=re.escape(msg)):
        fast.PYTHON_KERNELS[name](x, *args)
    rec = Recorder(name)
    with pytest.raises(exc, match=re.escape(msg)):
        _core.RustKernel(name, rec)(x, *args)
    assert rec.calls == 1
    with pytest.raises(exc, match=re.escape(msg)):  # and through the dispatcher
        getattr(opyard.ops.aten, name.split(".")[0])(x, *args)


@pytest.mark.parametrize("name, args", [
    ("view", [[2.0, 12]]), ("view", [[True, 24]]), ("view", [np.array([4, 6])]), ("select.int", [0, np.int64(1)]),
    ("slice.Tensor", [0, 1.0]), ("transpose.int", [False, 1]), ("narrow", [0, np.int32(0), 1]),
    ("view", [[2 ** 70, 1]]), ("slice.Tensor", [0, 0, 2 ** 70]),
])
def test_arguments_it_does_not_take_as_given_run_the_python_kernel(name, args):
    x = _inputs()["contiguous"]
    rec = Recorder(name)
    k = _core.RustKernel(name, rec)
    try:
        want = fast.PYTHON_KERNELS[name](x, *args)
    except Exception as e:  # noqa: BLE001  (the Rust kernel must raise the same error)
        with pytest.raises(type(e), match=re.escape(str(e))):
            k(x, *args)
    else:
        same_as_python(name, k(x, *args), want, x)
    assert rec.calls == 1


def test_other_tensors_run_the_python_kernel():
    meta = opyard.empty(2, 3, device="meta")
    rec = Recorder("view")
    out = _core.RustKernel("view", rec)(meta, [-1])
    assert rec.calls == 1 and out.shape == (6,) and out.device.type == "meta"


def test_registered_over_the_python_kernels():
    for name in ["view", "reshape", "t", "transpose.int", "permute", "unsqueeze", "squeeze", "squeeze.dim",
                 "select.int", "slice.Tensor", "narrow"]:
        assert name in _core.RustKernel.ops()
        assert fast.PYTHON_KERNELS[name].__name__ in {"view", "reshape", "t", "transpose", "permute", "unsqueeze",
                                                        "squeeze", "squeeze_dim", "select", "slice_", "narrow"}


def test_indexing_and_methods_through_the_dispatcher():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = opyard.from_numpy(a)
    for got, want in [(x[0], a[0]), (x[1:], a[1:]), (x[:, 0], a[:, 0]), (x[..., ::2], a[..., ::2]),
                      (x[-1, 1:], a[-1, 1:]), (x.view(-1), a.reshape(-1)), (x.mT, a.swapaxes(-1, -2)),
                      (x.transpose(0, 2), a.transpose(2, 1, 0)), (x.unsqueeze(1), np.expand_dims(a, 1)),
                      (x.narrow(2, 1, 2), a[:, :, 1:3]), (x.permute(2, 0, 1), a.transpose(2, 0, 1))]:
        assert got._base is x and got.numpy().strides == want.strides and np.array_equal(got.numpy(), want)


@pytest.mark.parametrize("fn", [
    lambda t: t.view(-1), lambda t: t.reshape(4, 3), lambda t: t.t(), lambda t: t.transpose(0, 1),
    lambda t: t.permute(1, 0), lambda t: t.unsqueeze(1), lambda t: t[None].squeeze(), lambda t: t[:, :1].squeeze(1),
    lambda t: t[1], lambda t: t[:, 2], lambda t: t[1:, ::2], lambda t: t.narrow(1, 1, 2),
])
def test_gradcheck(fn):
    x = opyard.randn(3, 4, dtype=opyard.float64, requires_grad=True)
    assert opyard.autograd.gradcheck(lambda t: fn(t) * 1.5, (x,))
    assert opyard.autograd.gradgradcheck(lambda t: fn(t) * fn(t), (x,))


@pytest.mark.parametrize("args", [[0, None, None, 2 ** 62], [1, -2 ** 62, 2 ** 62, 3], [0, 2 ** 63 - 1],
                                  [1, None, -2 ** 63], [1, None, None, 2 ** 63 - 1]])
def test_extreme_slice_arguments(args):
    x = _inputs()["contiguous"]
    want = fast.PYTHON_KERNELS["slice.Tensor"](x, *args)
    got, _ = run("slice.Tensor", x, *args)
    same_as_python("slice", got, want, x)


def _random_case(rng):
    nd = int(rng.integers(0, 5))
    shape = tuple(int(s) for s in rng.integers(0, 4, nd))
    root = opyard.from_numpy(np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape))
    x = root
    if nd and rng.random() < 0.5:
        x = x.permute([int(v) for v in rng.permutation(nd)])
    if nd and rng.random() < 0.5:
        d = int(rng.integers(0, nd))
        x = x.narrow(d, 0, x.shape[d] // 2 + (x.shape[d] % 2)) if x.shape[d] else x
    n = x.dim()

    def dim(extra=0):
        return int(rng.integers(-n - extra - 1, n + extra + 1))

    def idx():
        return int(rng.integers(-5, 6))
    numel = x.numel()
    choices = [
        ("view", lambda: [[-1]] if rng.random() < 0.5 else [[numel, 1]]),
        ("view", lambda: [[int(rng.integers(-1, 4)) for _ in range(int(rng.integers(0, 4)))]]),
        ("reshape", lambda: [[-1, 1]]),
        ("t", lambda: []), ("transpose.int", lambda: [dim(), dim()]),
        ("permute", lambda: [[dim() for _ in range(n)]]), ("permute", lambda: [list(rng.permutation(n))]),
        ("unsqueeze", lambda: [dim(1)]), ("squeeze", lambda: []), ("squeeze.dim", lambda: [dim()]),
        ("select.int", lambda: [dim(), idx()]),
        ("slice.Tensor", lambda: [dim(), rng.choice([None, idx()]), rng.choice([None, idx()]),
                                  int(rng.integers(-1, 4))]),
        ("narrow", lambda: [dim(), idx(), int(rng.integers(-1, 4))]),
    ]
    name, make = choices[int(rng.integers(0, len(choices)))]
    args = make()
    args = [[int(v) for v in a] if isinstance(a, list) else (None if a is None else int(a)) for a in args]
    return name, x, args


@pytest.mark.parametrize("seed", range(6))
def test_random_calls_agree_with_the_python_kernels(seed):
    rng = np.random.default_rng(seed)
    for _ in range(150):
        name, x, args = _random_case(rng)
        try:
            want = fast.PYTHON_KERNELS[name](x, *args)
        except Exception as e:  # noqa: BLE001  (the Rust kernel must raise the same error)
            with pytest.raises(type(e), match=re.escape(str(e))):
                _core.RustKernel(name, fast.PYTHON_KERNELS[name])(x, *args)
            continue
        got, _ = run(name, x, *args)
        same_as_python(f"{name}{args} of {x.shape}", got, want, x)
