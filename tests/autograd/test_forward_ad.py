"""Forward-mode AD: dual tensors, op formulas, custom Function jvp, errors."""

import numpy as np
import pytest

import opyard
import opyard.autograd.forward_ad as fwAD
from opyard.autograd import Function


def t(values, **kw):
    return opyard.tensor(values, dtype=opyard.float64, **kw)


def close(a, b):
    return np.allclose(np.asarray(a.detach().numpy()), np.asarray(b), atol=1e-6)


def test_make_dual_and_unpack():
    x, v = t([0.0, 1.0]), t([1.0, 2.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(x, v)
        primal, tangent = fwAD.unpack_dual(d)
        assert tangent is v and close(primal, [0, 1])
        assert fwAD.unpack_dual(x).tangent is None
        unpacked = fwAD.unpack_dual(d)
        assert unpacked.primal is unpacked[0] and unpacked.tangent is unpacked[1]


def test_tangents_are_cleared_when_the_level_exits():
    x = t([1.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t([1.0]))
    assert fwAD.unpack_dual(d).tangent is None


@pytest.mark.parametrize("fn, deriv", [
    (lambda x: x.sin(), lambda x: np.cos(x)),
    (lambda x: x.exp(), lambda x: np.exp(x)),
    (lambda x: x * x, lambda x: 2 * x),
    (lambda x: (x + 3) / 2, lambda x: np.full_like(x, 0.5)),
    (lambda x: x.tanh(), lambda x: 1 - np.tanh(x) ** 2),
])
def test_pointwise_jvp(fn, deriv):
    x = np.array([0.3, -1.2, 2.0])
    with fwAD.dual_level():
        out = fn(fwAD.make_dual(t(x), t([1.0, 1.0, 1.0])))
        assert close(fwAD.unpack_dual(out).tangent, deriv(x))


def test_matmul_sum_mean_view_jvp():
    a = np.arange(6.0).reshape(2, 3)
    b = np.ones((3, 2))
    ta = np.full((2, 3), 0.5)
    with fwAD.dual_level():
        da = fwAD.make_dual(t(a), t(ta))
        assert close(fwAD.unpack_dual(da.mm(t(b))).tangent, ta @ b)
        assert close(fwAD.unpack_dual(da.sum()).tangent, ta.sum())
        assert close(fwAD.unpack_dual(da.mean()).tangent, ta.mean())
        assert close(fwAD.unpack_dual(da.t()).tangent, ta.T)


def test_make_dual_errors():
    with pytest.raises(RuntimeError, match="Trying to create a dual Tensor for forward AD but no level "
                                           "exists, make sure to enter_dual_level\\(\\) first."):
        fwAD.make_dual(t([1.0]), t([1.0]))
    with fwAD.dual_level():
        with pytest.raises(RuntimeError, match="Trying to set a forward gradient that has a different size"):
            fwAD.make_dual(t([1.0, 2.0]), t([1.0]))
        with pytest.raises(RuntimeError, match="Nested forward mode AD is not supported"):
            fwAD.enter_dual_level()


def test_op_without_forward_formula(ns):
    lib = opyard.library.Library(ns, "DEF")
    lib.define("twice(Tensor x) -> Tensor")
    lib.impl("twice", lambda x: x * 2, "CPU")
    with fwAD.dual_level():
        d = fwAD.make_dual(t([1.0]), t([1.0]))
        with pytest.raises(NotImplementedError, match=f"Trying to use forward AD with {ns}::twice that "
                                                      "does not support it"):
            getattr(opyard.ops, ns).twice(d)


class MulConstantJvp(Function):
    """The seed's forward-mode notes: forward + backward + jvp, ctx shared with jvp."""

    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None

    @staticmethod
    def jvp(ctx, tangent, _):
        return tangent * ctx.constant


def test_function_jvp_under_dual_level():
    with fwAD.dual_level():
        d = fwAD.make_dual(t([1.0, 2.0]), t([1.0, -1.0]))
        out = MulConstantJvp.apply(d, 3.0)
        primal, tangent = fwAD.unpack_dual(out)
        assert close(primal, [3, 6]) and close(tangent, [3, -3])


def test_function_without_jvp():
    class NoJvp(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    with fwAD.dual_level():
        d = fwAD.make_dual(t([1.0]), t([1.0]))
        with pytest.raises(NotImplementedError, match="You must implement the jvp function"):
            NoJvp.apply(d)


def test_forward_and_backward_together():
    x = t([0.5, 1.0], requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t([1.0, 1.0]))
        y = (d * d).sum()
        assert close(fwAD.unpack_dual(y).tangent, 2 * (0.5 + 1.0))
    y.backward()
    assert close(x.grad, [1.0, 2.0])


# --- grad mode and forward AD levels ---------------------------------------------------------------

def test_forward_ad_under_no_grad():
    x = opyard.tensor([1.0, 2.0], requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, opyard.tensor([1.0, 1.0]))
        with opyard.no_grad():
            out = d.sin() * 2
            assert not opyard.is_grad_enabled()
            assert not out.requires_grad
            assert opyard.allclose(fwAD.unpack_dual(out).tangent, d.detach().cos() * 2)
            with opyard.enable_grad():
                assert (d * 1).requires_grad
        with opyard.set_grad_enabled(False):
            assert fwAD.unpack_dual(d * 3).tangent.tolist() == [3.0, 3.0]
            x.add_(0)  # grad mode is off: in place on a leaf is allowed
        assert opyard.is_grad_enabled() and (d * 1).requires_grad


def test_forward_ad_level_entered_under_no_grad():
    with opyard.no_grad():
        with fwAD.dual_level():
            d = fwAD.make_dual(opyard.tensor([0.0, 1.0]), opyard.tensor([1.0, 1.0]))
            assert not opyard.is_grad_enabled()
            assert opyard.allclose(fwAD.unpack_dual(d.exp()).tangent, opyard.tensor([0.0, 1.0]).exp())
        assert not opyard.is_grad_enabled()
        assert not (opyard.ones(1, requires_grad=True) * 1).requires_grad
    assert opyard.is_grad_enabled()


def test_grad_mode_set_inside_a_forward_ad_level_outlives_it():
    try:
        fwAD.enter_dual_level()
        opyard.set_grad_enabled(False)
        d = fwAD.make_dual(opyard.ones(2), opyard.ones(2))
        assert fwAD.unpack_dual(d * 4).tangent.tolist() == [4.0, 4.0]
        fwAD.exit_dual_level()
        assert not opyard.is_grad_enabled()
        assert not (opyard.ones(1, requires_grad=True) * 1).requires_grad
    finally:
        opyard.set_grad_enabled(True)
    with opyard.no_grad():
        fwAD.enter_dual_level()
        opyard.set_grad_enabled(True)
        fwAD.exit_dual_level()
        assert opyard.is_grad_enabled()
    assert opyard.is_grad_enabled()


def test_inference_mode_stops_tangents_and_no_grad_decorator_keeps_them():
    @opyard.no_grad()
    def triple(t):
        return t * 3

    with fwAD.dual_level():
        d = fwAD.make_dual(opyard.ones(2), opyard.ones(2))
        with opyard.inference_mode():
            assert fwAD.unpack_dual(d * 2).tangent is None
        assert fwAD.unpack_dual(triple(d)).tangent.tolist() == [3.0, 3.0]
