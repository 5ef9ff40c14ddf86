"""The Rust kernels of the shape views (``view``, ``reshape``, ``t``, ``transpose``, ``permute``,
``unsqueeze``, ``squeeze``, ``select``, ``slice``, ``narrow``): each gives the very numpy view its
Python kernel gives (shape, byte strides, first byte, writeability), the same base and version
counter, and falls back to the Python kernel (same error, same message) for every call it does not
cover. ``rust_kernel_probe`` tells which of the two ran.
"""

import re

import numpy as np
import opyard
import pytest
from opyard import _core
from opyard._aten import fast
from rust_kernel_probe import Recorder, run


def _addr(a):
    return a.__array_interface__["data"][0]


def _inputs(dt=np.float32):
    """A contiguous tensor, a transposed view, an offset strided view and a read-only expand."""
    root = opyard.from_numpy((np.arange(24) % 7).astype(dt).reshape(2, 3, 4))
    return {
        "contiguous": root,
        "transposed": root.permute([2, 0, 1]),
        "offset": root[1:, :, 1::2],
        "expanded": opyard.from_numpy(np.arange(4).astype(dt)).expand(2, 3, 4),
    }


def same_as_python(name, got, want, x):
    """``got`` (the Rust kernel's) is ``want`` (the Python kernel's) viewing ``x``."""
    g, w = got.numpy(), want.numpy()
    assert type(got) is type(want) is opyard.Tensor
    assert g.dtype == w.dtype and g.shape == w.shape and g.strides == w.strides, name
    assert np.array_equal(g, w) and g.flags.writeable == w.flags.writeable
    root = x._base if x._base is not None else x
    if want._base is None:  # reshape's copy
        assert got._base is None and not np.shares_memory(g, x.numpy()) and g.flags.c_contiguous
        return
    assert _addr(g) == _addr(w)
    assert got._base is root and want._base is root
    assert got._keyset == want._keyset and got.device == want.device
    assert got.stride() == want.stride() and got.storage_offset() == want.storage_offset()
    v = got._version
    root._counter().bump()  # what every in-place op on the root does
    assert got._version == v + 1


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
    ("narrow", [0, 1, 2], IndexError, "start (1) + length (2) exceeds dimension size (2)."),
    ("narrow", [2, 0, -1], IndexError, "start (0) + length (-1) exceeds dimension size (4)."),
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


# --- with grad: the Rust Autograd kernel of a view op (Note [View replay], src/python/view_replay.rs) ---

from opyard.autograd.derivatives import formula  # noqa: E402
from opyard.autograd.derivatives.registry import make_kernel  # noqa: E402

A = opyard.ops.aten

GRAD_VIEWS = [
    ("ViewBackward0", lambda t: t.view(-1)), ("ViewBackward0", lambda t: t.view(4, 3)),
    ("TBackward0", lambda t: t.t()), ("TransposeBackward0", lambda t: t.transpose(0, 1)),
    ("PermuteBackward0", lambda t: t.permute(1, 0)), ("UnsqueezeBackward0", lambda t: t.unsqueeze(0)),
    ("SelectBackward0", lambda t: t[1]), ("SelectBackward0", lambda t: t[:, 2]),
    ("SliceBackward0", lambda t: t[1:]), ("ExpandBackward0", lambda t: t[:1].expand(5, 4)),
    ("NarrowBackward0", lambda t: t.narrow(1, 1, 2)),
]


@pytest.mark.parametrize("name, fn", GRAD_VIEWS)
def test_grad_views_record_node_base_and_replay(name, fn):
    x = opyard.randn(3, 4, requires_grad=True)
    y = fn(x)
    assert type(y.grad_fn).__name__ == name and y.requires_grad and not y.is_leaf
    assert y._base is x and y._version == x._version
    assert isinstance(y._view_fn, _core._ViewReplay)
    other = opyard.randn(3, 4)
    with opyard.no_grad():
        replayed = y._view_fn(other)
        assert np.array_equal(replayed.numpy(), fn(other).numpy())
    x2 = x.detach().clone().requires_grad_()
    y.sum().backward()
    fn(x2).sum().backward()
    assert np.array_equal(x.grad.numpy(), x2.grad.numpy())


def test_replays_compose_along_a_chain_of_views():
    x = opyard.arange(12.0).requires_grad_()
    y = (x * 1).view(3, 4)[1:].t()[0]
    assert y._base is not None and y._base.grad_fn is not None and y._base._base is None
    base = opyard.arange(100.0, 112.0)
    with opyard.no_grad():
        assert y._view_fn(base).tolist() == [104.0, 108.0]


@pytest.mark.parametrize("op, name, args", [
    (A.view.default, "aten::view", ([-1],)), (A.t.default, "aten::t", ()),
    (A.select.int, "aten::select.int", (0, 1)), (A.slice.Tensor, "aten::slice.Tensor", (1, 1, 3)),
    (A.expand.default, "aten::expand", ([2, 3, 4],)),
])
def test_rust_and_python_autograd_kernels_agree(op, name, args):
    rust = make_kernel(op, formula(name))
    py = make_kernel(op, formula(name), rust=False)
    assert isinstance(rust, _core._PlainAutogradKernel) and not isinstance(py, _core._PlainAutogradKernel)
    x = opyard.randn(3, 4, requires_grad=True)
    a, b = rust(None, x, *args), py(None, x, *args)
    assert type(a.grad_fn).__name__ == type(b.grad_fn).__name__ and a._base is b._base is x
    assert a.stride() == b.stride() and a.storage_offset() == b.storage_offset()
    other = opyard.randn(3, 4)
    with opyard.no_grad():
        assert np.array_equal(a._view_fn(other).numpy(), b._view_fn(other).numpy())


def test_in_place_on_a_view_of_a_leaf_is_refused():
    x = opyard.ones(4, requires_grad=True)
    for v in (x[1:3], x.view(2, 2), x[0], x.t()):
        with pytest.raises(RuntimeError, match=re.escape(
                "a view of a leaf Variable that requires grad is being used in an in-place operation.")):
            v.mul_(2)


def test_in_place_on_a_view_rebases_history():
    x = opyard.arange(4.0).requires_grad_()
    y = x * 1
    v = y[1:3]
    before = y._version
    v.mul_(5)
    assert y._version == v._version == before + 1
    assert type(y.grad_fn).__name__ == "CopySlices" and type(v.grad_fn).__name__ == "AsStridedBackward0"
    (y * opyard.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    assert x.grad.tolist() == [1.0, 10.0, 15.0, 4.0]


def test_in_place_through_a_chain_of_views_and_double_backward():
    x = opyard.arange(1.0, 7.0, dtype=opyard.float64).requires_grad_()
    y = x * 1
    row = y.view(2, 3)[1]
    row.mul_(x[:3])
    out = (y * y).sum()
    (g,) = opyard.autograd.grad(out, x, create_graph=True)
    # y = [x0, x1, x2, x3*x0, x4*x1, x5*x2]: d/dx0 of sum(y^2) = 2 x0 + 2 x3^2 x0
    want = [2 * 1 + 2 * 16 * 1, 2 * 2 + 2 * 25 * 2, 2 * 3 + 2 * 36 * 3, 2 * 4 * 1, 2 * 5 * 4, 2 * 6 * 9]
    assert g.tolist() == want
    # d(sum g)/dx3 = d(2 x3^2 x0)/dx3 + d(2 x3 x0^2)/dx3 = 16 + 2: the saved original of the
    # in-place mul keeps its history, and CopySlices is differentiated (torch's values)
    (gg,) = opyard.autograd.grad(g.sum(), x)
    assert g.requires_grad and gg.tolist() == [50.0, 92.0, 146.0, 18.0, 48.0, 90.0]


def test_views_under_no_grad_record_nothing():
    x = opyard.ones(2, 3, requires_grad=True)
    with opyard.no_grad():
        v = x.view(-1)
    assert v.grad_fn is None and not v.requires_grad and v._base is x and v._view_fn is None


# --- in place under grad: Note [In-place ops in the Rust kernel] (src/python/ag_kernel.rs) ---


def test_in_place_on_a_non_leaf_in_the_rust_kernel():
    k = make_kernel(A.add_.Tensor, formula("aten::add.Tensor"))
    assert isinstance(k, _core._PlainAutogradKernel)
    x = opyard.arange(3.0).requires_grad_()
    w = opyard.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 2
    old_fn, v = h.grad_fn, h._version
    assert h.add_(w, alpha=3) is h
    assert h._version == v + 1 and type(h.grad_fn).__name__ == "AddBackward0" and h.grad_fn is not old_fn
    assert h.grad_fn.next_functions[0][0] is old_fn and h._output_nr == 0 and h.tolist() == [3.0, 8.0, 13.0]
    (h * opyard.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert x.grad.tolist() == [2.0, 20.0, 200.0] and w.grad.tolist() == [3.0, 30.0, 300.0]


def test_in_place_into_a_tensor_without_grad_takes_the_operands_history():
    w = opyard.ones(3, requires_grad=True)
    h = opyard.zeros(3)
    h.mul_(2).add_(w)
    assert h.requires_grad and type(h.grad_fn).__name__ == "AddBackward0"
    h.sum().backward()
    assert w.grad.tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("op", [lambda t, w: t.add_(w), lambda t, w: t.sub_(w), lambda t, w: t.mul_(w),
                                lambda t, w: t.copy_(w), lambda t, w: t.zero_()])
def test_in_place_on_a_leaf_that_requires_grad_is_refused(op):
    x, w = opyard.ones(3, requires_grad=True), opyard.ones(3)
    with pytest.raises(RuntimeError, match=re.escape(
            "a leaf Variable that requires grad is being used in an in-place operation.")):
        op(x, w)
    assert x.grad_fn is None and x._version == 0


def test_in_place_keeps_a_retained_grad_on_the_new_version():
    x = opyard.ones(3, requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.add_(1)
    (y * 3).sum().backward()
    assert y.grad.tolist() == [3.0, 3.0, 3.0] and x.grad.tolist() == [6.0, 6.0, 6.0]


def test_in_place_agrees_with_the_python_kernel_and_gradcheck():
    def f(a, b):
        h = a * 1.0
        h.add_(b, alpha=2).sub_(b).mul_(a)
        return h
    a = opyard.randn(4, dtype=opyard.float64, requires_grad=True)
    b = opyard.randn(4, dtype=opyard.float64, requires_grad=True)
    assert opyard.autograd.gradcheck(f, (a, b)) and opyard.autograd.gradgradcheck(f, (a, b))
    rust = make_kernel(A.add_.Tensor, formula("aten::add.Tensor"))
    py = make_kernel(A.add_.Tensor, formula("aten::add.Tensor"), rust=False)
    h1, h2 = a * 1.0, a * 1.0
    r1, r2 = rust(None, h1, b), py(None, h2, b)
    assert r1 is h1 and r2 is h2 and type(h1.grad_fn).__name__ == type(h2.grad_fn).__name__
    assert h1._version == h2._version and h1.tolist() == h2.tolist()


# --- indexing: ints and slices straight to select/slice (``_indexing._ints_and_slices``) ---

from opyard import _indexing  # noqa: E402

KEYS = [0, -1, 2, slice(None), slice(1, None), slice(None, -1), slice(None, None, 2), slice(5, 1),
        (0, 1), (slice(None), 0), (1, slice(1, 3), -1), (slice(None, None, 3), slice(None), 2), (), (0,),
        (slice(-100, 100),), (slice(None), slice(None), slice(None))]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_int_and_slice_keys_match_the_general_path_and_numpy(key):
    a = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    x = opyard.from_numpy(a)
    fast_t = _indexing._ints_and_slices(x, key)
    general, advanced = _indexing._basic_and_advanced(x, key)
    if general is x:
        general = opyard.ops.aten.alias(x)
    assert fast_t is not None and not advanced
    for got in (fast_t, x[key]):
        want = a[key]
        assert got._base is x and got.numpy().strides == want.strides == general.numpy().strides
        assert _addr(got.numpy()) == _addr(want) and np.array_equal(got.numpy(), want)


@pytest.mark.parametrize("key, exc, msg", [
    (3, IndexError, "select(): index 3 out of range for tensor of size [3, 4, 5] at dimension 0"),
    ((0, 0, 0, 0), IndexError, "too many indices for tensor of dimension 3"),
    (slice(None, None, 0), RuntimeError, "slice step must be positive"),
    (slice(None, None, -1), RuntimeError, "slice step must be positive"),
    ((0, 9), IndexError, "index 9 out of range"),
])
def test_int_and_slice_key_errors(key, exc, msg):
    x = opyard.from_numpy(np.zeros((3, 4, 5), np.float32))
    with pytest.raises(exc, match=re.escape(msg)):
        x[key]
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 0"):
        opyard.tensor(1.0)[0]


@pytest.mark.parametrize("key", [True, np.int64(1), (0, None), (Ellipsis, 0), [0, 1], (0, [1, 2])], ids=repr)
def test_other_keys_take_the_general_path(key):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = opyard.from_numpy(a)
    assert _indexing._ints_and_slices(x, key) is None
    assert np.array_equal(x[key].numpy(), a[key])


def test_indexing_a_subclass_takes_the_general_path():
    p = opyard.nn.Parameter(opyard.ones(2, 3))
    assert _indexing._ints_and_slices(p, 0) is None
    assert type(p[0]) is opyard.Tensor and p[0].grad_fn is not None


@pytest.mark.parametrize("fn", [lambda t: t[::2], lambda t: t[1::3], lambda t: t[:, -7:8:4], lambda t: t[::5, 1:],
                                lambda t: t[:, ::2][1:, ::2]])
def test_slice_with_a_step_has_a_gradient(fn):
    x = opyard.randn(6, 9, dtype=opyard.float64, requires_grad=True)
    assert opyard.autograd.gradcheck(lambda t: fn(t) * 2.0, (x,))
    assert opyard.autograd.gradgradcheck(lambda t: fn(t) * fn(t), (x,))


def test_slice_with_a_step_gradient_values():
    x = opyard.arange(7.0, dtype=opyard.float64).requires_grad_()
    y = x[::2]
    (g,) = opyard.autograd.grad((y * y * opyard.arange(1.0, 5.0, dtype=opyard.float64)).sum(), x,
                                create_graph=True)
    (gg,) = opyard.autograd.grad(g.sum(), x)
    assert g.tolist() == [0.0, 0.0, 8.0, 0.0, 24.0, 0.0, 48.0]  # torch's values
    assert gg.tolist() == [2.0, 0.0, 4.0, 0.0, 6.0, 0.0, 8.0]


# --- Tensor.view/reshape/expand/permute as ``_core._SizesMethod`` (Note [Sizes methods]) ---


def test_sizes_methods_take_varargs_or_one_sequence():
    x = opyard.arange(6.0)
    assert isinstance(opyard.Tensor.__dict__["view"], _core._SizesMethod)
    assert opyard.Tensor.view.__name__ == "view" and callable(opyard.Tensor.view.__wrapped__)
    for got in (x.view(2, 3), x.view((2, 3)), x.view([2, 3]), x.view(opyard.Size([2, 3])), x.view(-1, 3),
                x.reshape(2, 3), x.reshape((2, -1)), opyard.Tensor.view(x, 2, 3)):
        assert got.shape == (2, 3) and got._base is x
    assert x.view(6).shape == (6,) and opyard.tensor(1.0).view().shape == ()
    m = x.view(2, 3)
    assert m.permute(1, 0).shape == (3, 2) and m.permute((1, 0)).shape == (3, 2) and m.permute([-1, 0]).shape == (3, 2)
    assert m[:1].expand(4, 3).shape == (4, 3) and m[:1].expand((4, -1)).shape == (4, 3)
    assert m[:1].expand(4, 3, implicit=False).shape == (4, 3)  # a keyword: the Python method


def test_sizes_methods_hand_other_calls_to_the_python_method():
    x = opyard.arange(6.0)
    assert x.view(opyard.int32).dtype == opyard.int32 and x.view(dtype=opyard.int32).dtype == opyard.int32
    with pytest.raises(RuntimeError, match=re.escape("shape '[5]' is invalid for input of size 6")):
        x.view(5)
    with pytest.raises(RuntimeError, match=re.escape("view size is not compatible with input tensor's size")):
        x.view(2, 3).t().view(-1)
    with pytest.raises(TypeError):
        x.view(2, 3, bogus=1)


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
