"""``nn.functional.affine_grid`` (``aten::affine_grid_generator``), ``gumbel_softmax``, the in-place
activations ``relu_``/``leaky_relu_``/``hardtanh_`` and the function-protocol helpers, as torch's."""

import warnings

import numpy as np
import pytest

import opyard
from opyard.autograd import gradcheck

F = opyard.nn.functional


def _reference(theta, size, align_corners):
    """The grid from its definition: normalised coordinates (x fastest) times theta transposed."""
    spatial = size[2:]

    def coords(n):
        if n <= 1:
            return np.zeros(1)
        c = np.linspace(-1.0, 1.0, n)
        return c if align_corners else c * (n - 1) / n
    mesh = np.meshgrid(*[coords(n) for n in spatial], indexing="ij")  # z, y, x order of the dims
    base = np.stack([m for m in reversed(mesh)] + [np.ones(spatial)], -1)
    return np.einsum("...k,njk->n...j", base, theta)


@pytest.mark.parametrize("size, align", [([2, 1, 3, 4], False), ([2, 3, 3, 4], True), ([1, 1, 1, 5], True),
                                         ([2, 1, 2, 3, 4], False), ([1, 2, 2, 1, 3], True)])
def test_affine_grid_is_the_definition(size, align):
    k = len(size) - 2
    theta = np.random.default_rng(0).standard_normal((size[0], k, k + 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = F.affine_grid(opyard.tensor(theta), size, align_corners=align)
    assert got.shape == tuple([size[0]] + size[2:] + [k]) and got.dtype == opyard.float64
    np.testing.assert_allclose(got.numpy(), _reference(theta, size, align), rtol=1e-12, atol=1e-12)


def test_affine_grid_gradient_and_float32():
    theta = opyard.randn(2, 2, 3, dtype=opyard.float64, requires_grad=True)
    assert gradcheck(lambda t: F.affine_grid(t, [2, 1, 3, 4], align_corners=False), (theta,))
    t32 = opyard.randn(1, 3, 4)
    got = F.affine_grid(t32, [1, 1, 2, 2, 3], align_corners=True)
    np.testing.assert_allclose(got.numpy(), _reference(t32.numpy().astype(np.float64), [1, 1, 2, 2, 3], True),
                               rtol=1e-6, atol=1e-6)


def test_affine_grid_on_meta_and_its_trace():
    m = F.affine_grid(opyard.empty(3, 2, 3, device="meta"), [3, 1, 5, 6], align_corners=False)
    assert m.device.type == "meta" and m.shape == (3, 5, 6, 2)
    from opyard.fx.experimental.proxy_tensor import make_fx

    code = make_fx(lambda t: F.affine_grid(t, [1, 1, 2, 2], align_corners=False))(opyard.randn(1, 2, 3)).code
    assert "aten.affine_grid_generator.default(t_1, [1, 1, 2, 2], False)" in code  # a kernel of its own in torch


@pytest.mark.parametrize("call, exc, match", [
    (lambda: F.affine_grid(opyard.ones(1, 2, 3, dtype=opyard.int64), [1, 1, 2, 2], False), ValueError,
     "Expected theta to have floating point type, but got opyard.int64"),
    (lambda: F.affine_grid(opyard.ones(1, 3, 4), [1, 1, 2, 2], False), ValueError,
     r"Expected a batch of 2D affine matrices of shape Nx2x3 for size \[1, 1, 2, 2\]"),
    (lambda: F.affine_grid(opyard.ones(1, 2, 3), [1, 1, 2, 2, 2], False), ValueError,
     "Expected a batch of 3D affine matrices of shape Nx3x4"),
    (lambda: F.affine_grid(opyard.ones(1, 2, 3), [1, 2, 2], False), NotImplementedError,
     r"affine_grid only supports 4D and 5D sizes.*Got size \[1, 2, 2\]"),
    (lambda: F.affine_grid(opyard.ones(1, 2, 3), [1, 1, 0, 2], False), ValueError,
     r"Expected non-zero, positive output size. Got \[1, 1, 0, 2\]"),
    (lambda: opyard.ops.aten.affine_grid_generator(opyard.ones(1, 2, 3), [1, 2, 2], False), RuntimeError,
     "AffineGridGenerator needs 4d"),
])
def test_affine_grid_refusals(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_affine_grid_warnings():
    with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
        F.affine_grid(opyard.ones(1, 2, 3), [1, 1, 2, 2])
    with pytest.warns(UserWarning, match="unit-size grids when align_corners=True"):
        F.affine_grid(opyard.ones(1, 2, 3), [1, 1, 1, 2], align_corners=True)


def test_gumbel_softmax_soft_and_hard():
    opyard.manual_seed(0)
    x = opyard.randn(4, 6, dtype=opyard.float64, requires_grad=True)
    soft = F.gumbel_softmax(x, tau=0.5)
    np.testing.assert_allclose(soft.sum(-1).detach().numpy(), np.ones(4))
    hard = F.gumbel_softmax(x, hard=True, dim=0)
    assert set(np.unique(hard.detach().numpy())) <= {0.0, 1.0}
    np.testing.assert_array_equal(hard.detach().numpy().sum(0), np.ones(6))
    (hard * opyard.arange(6.0, dtype=opyard.float64)).sum().backward()
    assert x.grad is not None and x.grad.shape == x.shape and float(x.grad.abs().sum()) > 0
    with pytest.warns(UserWarning, match="`eps` parameter is deprecated"):
        F.gumbel_softmax(x, eps=1e-5)


def test_inplace_activations():
    x = opyard.tensor([-2.0, -0.5, 0.5, 2.0])
    assert F.relu_(x.clone()).tolist() == [0.0, 0.0, 0.5, 2.0]
    y = x.clone()
    assert F.leaky_relu_(y, 0.1) is y and y.tolist() == pytest.approx([-0.2, -0.05, 0.5, 2.0])
    z = x.clone()
    assert F.hardtanh_(z, -1.0, 1.0) is z and z.tolist() == [-1.0, -0.5, 0.5, 1.0]
    w = opyard.tensor([-1.0, 3.0], requires_grad=True)
    F.leaky_relu_(w * 1, 0.5).sum().backward()
    assert w.grad.tolist() == [0.5, 1.0]
    with pytest.raises(ValueError, match="min_val cannot be greater than max_val"):
        F.hardtanh_(x.clone(), 2.0, 1.0)


def test_function_protocol_helpers():
    class Seen(opyard.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return "handled"

    s = opyard.ones(2).as_subclass(Seen)
    assert F.has_torch_function_unary(s) and F.has_torch_function_variadic(opyard.ones(1), s)
    assert not F.has_torch_function((opyard.ones(1),))
    assert F.handle_torch_function(F.relu, (s,), s) == "handled"


# Every ``nn.functional`` activation with ``inplace=True``: on a non-leaf that requires grad it runs the
# in-place operator and the gradient is the out-of-place form's (torch's behaviour).
INPLACE_FORMS = [
    ("relu", {}), ("relu6", {}), ("leaky_relu", {"negative_slope": 0.2}), ("hardtanh", {"min_val": -0.5}),
    ("elu", {"alpha": 0.7}), ("silu", {}), ("celu", {}), ("selu", {}), ("hardsigmoid", {}), ("hardswish", {}),
    ("mish", {}), ("threshold", {"threshold": 0.1, "value": -1.0}),
]


@pytest.mark.parametrize("name, kwargs", INPLACE_FORMS, ids=[n for n, _ in INPLACE_FORMS])
def test_inplace_forms_under_autograd(name, kwargs):
    fn = getattr(F, name)
    data = opyard.tensor([-2.0, -0.7, -0.1, 0.2, 0.9, 3.0], dtype=opyard.float64)
    a = data.clone().requires_grad_()
    b = data.clone().requires_grad_()
    x = a * 1
    out = fn(x, inplace=True, **kwargs)
    assert out is x and x._version > 0
    expected = fn(b * 1, **kwargs)
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy())
    (out * opyard.arange(6.0, dtype=opyard.float64)).sum().backward()
    (expected * opyard.arange(6.0, dtype=opyard.float64)).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy())


@pytest.mark.parametrize("name", ["leaky_relu_", "hardtanh_", "silu_"])
def test_inplace_activation_operators_gradcheck(name):
    op = getattr(opyard.ops.aten, name).default
    x = opyard.tensor([-1.5, -0.3, 0.4, 1.7], dtype=opyard.float64, requires_grad=True)
    assert gradcheck(lambda t: op(t * 1), (x,))
