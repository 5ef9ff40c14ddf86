"""Autograd answers and messages as torch's.

The expectations were produced by torch (``tests/data/gen_torch_*.py``) and are
read from JSON: no test here imports torch.
"""

import json
import math
import os

import opyard
import opyard.nn.functional as F
import pytest

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data")


def _load(name):
    with open(os.path.join(DATA, name)) as f:
        return json.load(f)


def _decode(v):
    if isinstance(v, list):
        return [_decode(e) for e in v]
    if isinstance(v, str):
        return float(v)  # "nan", "inf", "-inf"
    return v


def _same(got, want):
    """Equal up to 1e-7 relative; nan equals nan; infinities exactly; the sign of a zero is not compared."""
    if got is None or want is None:
        return got is want
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(_same, got, want))
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    if math.isinf(want) or math.isinf(got):
        return got == want
    return abs(got - want) <= 1e-12 + 1e-7 * abs(want)


# ---------------------------------------------------------------------------------------
# Gradients at special points (0, -0, +-inf, nan, integer exponents, negative bases)
# ---------------------------------------------------------------------------------------

SPECIAL = _load("torch_grad_special_points.json")["cases"]

# Gradients that still differ from torch, with the reason; each is asserted to differ so
# that fixing it turns this table stale (the test then says to remove the entry).
KNOWN_DIFFERENT = {
    ("T.norm(x)", "[[0.0, 0.0]]"): "linalg_vector_norm is CompositeImplicitAutograd here (sqrt of a "
                                   "sum of squares), so its gradient at 0 is 0 * inf = nan; torch "
                                   "has a norm formula that masks norm == 0",
}


def _special_id(case):
    return f"{case['expr']}@{json.dumps(case['inputs'])[:60]}"


def _eval_grads(case):
    inputs = [_decode(v) for v in case["inputs"]]
    ts = [opyard.tensor(v, dtype=opyard.float64, requires_grad=True) for v in inputs]
    env = {"T": opyard, "F": F, "x": ts[0], "y": ts[1] if len(ts) > 1 else None}
    out = eval(case["expr"], env)  # expressions come from the generator script's tables
    out.backward(opyard.ones_like(out))
    return [None if t.grad is None else t.grad.tolist() for t in ts]


def test_special_points_cover_the_formula_table():
    exprs = " ".join(c["expr"] for c in SPECIAL)
    for name in ("pow", "prod", "amax", "std", "maximum", "relu", "clamp", "softmax", "log1p", "F.elu"):
        assert name in exprs
    assert len(SPECIAL) >= 100


# numpy's floating-point warnings from the kernels at these points (torch warns nothing).
_NUMPY_FP_WARNINGS = ("ignore:invalid value encountered:RuntimeWarning",
                      "ignore:divide by zero encountered:RuntimeWarning",
                      "ignore:overflow encountered:RuntimeWarning",
                      "ignore:Degrees of freedom <= 0:RuntimeWarning")


@pytest.mark.filterwarnings(*_NUMPY_FP_WARNINGS)
@pytest.mark.parametrize("case", SPECIAL, ids=_special_id)
def test_gradient_at_special_points_matches_torch(case):
    want = [None if g is None else _decode(g) for g in case["grads"]]
    got = _eval_grads(case)
    reason = KNOWN_DIFFERENT.get((case["expr"], json.dumps(case["inputs"])))
    if reason is not None:
        assert not _same(got, want), f"now equal to torch: remove it from KNOWN_DIFFERENT ({reason})"
        return
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if not _same(g, w)]
    assert not bad, f"{case['expr']} on {case['inputs']}: (arg, got, torch) {bad}"


@pytest.mark.filterwarnings(*_NUMPY_FP_WARNINGS)
@pytest.mark.parametrize("expr, x, want", [
    ("T.pow(x, 0.0)", 0.0, 0.0),                 # 0 ** 0: d/dx is 0, not 0 * 0 ** -1 = nan
    ("T.pow(x, y)", 0.0, 0.0),                    # tensor exponent 0 at base 0
    ("T.pow(0.0, x)", 0.0, 0.0),                  # scalar base 0, exponent >= 0
    ("T.prod(x)", 0.0, 6.0),                      # a single zero gets the product of the others
    ("T.std(x)", 1.0, 0.0),                       # constant input: zero std has zero gradient
    ("T.relu(x)", math.nan, 1.0),                 # nan passes threshold_backward
])
def test_named_special_points(expr, x, want):
    values = {"T.prod(x)": [x, 2.0, 3.0], "T.std(x)": [x, x, x]}.get(expr, [x])
    t = opyard.tensor(values, dtype=opyard.float64, requires_grad=True)
    y = opyard.zeros(len(values), dtype=opyard.float64)
    out = eval(expr, {"T": opyard, "x": t, "y": y})
    out.backward(opyard.ones_like(out))
    assert _same(t.grad.tolist()[0], want)


# ---------------------------------------------------------------------------------------
# Engine and Function answers
# ---------------------------------------------------------------------------------------

fwAD = opyard.autograd.forward_ad


@pytest.mark.parametrize("through_op", [False, True])
def test_duplicate_roots_accumulate(through_op):
    x = opyard.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1 if through_op else x
    g = opyard.tensor([1.0, 3.0])
    opyard.autograd.backward([y, y], [g, g])
    assert x.grad.tolist() == [2.0, 6.0]


def test_function_non_tensor_outputs_get_none_in_backward():
    seen = []

    class Fn(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, 3, "label"

        @staticmethod
        def backward(ctx, g, g_int, g_str):
            seen.append((g_int, g_str))
            return g * 2

    x = opyard.tensor([1.0], requires_grad=True)
    y, n, s = Fn.apply(x)
    assert (n, s) == (3, "label")
    y.sum().backward()
    assert seen == [(None, None)]
    assert x.grad.tolist() == [2.0]


_KW_LOG = []
_KW_SETUP_LOG = []


class _Kw(opyard.autograd.Function):

    @staticmethod
    def forward(ctx, x, y=None, z=None):
        return x * 2 if y is None else x * y

    @staticmethod
    def backward(ctx, g):
        _KW_LOG.append(ctx.needs_input_grad)
        return g * 2, g * 3, None


class _KwSetup(opyard.autograd.Function):

    @staticmethod
    def forward(x, y=None, z=7):
        return x * 2 if y is None else x * y

    @staticmethod
    def setup_context(ctx, inputs, output):
        _KW_SETUP_LOG.append(len(inputs))

    @staticmethod
    def backward(ctx, g):
        _KW_SETUP_LOG.append(ctx.needs_input_grad)
        return g * 2, g * 3, None


@pytest.mark.parametrize("fn, log", [(_Kw, _KW_LOG), (_KwSetup, _KW_SETUP_LOG)])
def test_apply_keywords_bind_to_forward_positions(fn, log):
    log.clear()
    x = opyard.tensor([1.0], requires_grad=True)
    y = opyard.tensor([1.0], requires_grad=True)
    fn.apply(x, y=y).sum().backward()
    assert (x.grad.tolist(), y.grad.tolist()) == ([2.0], [3.0])
    if fn is _Kw:
        assert log == [(True, True)]
    else:  # setup_context sees every input, defaults filled in; needs_input_grad follows it
        assert log == [3, (True, True, False)]


def _kwonly_fn():
    class KwOnly(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, x, *, s):
            return x * s

        @staticmethod
        def backward(ctx, g):
            return g, g
    return KwOnly


@pytest.mark.parametrize("call, match", [
    (lambda x: _Kw.apply(x, z=x), r"^forward\(\) missing required argument: 'y' \(position 1\)$"),
    (lambda x: _Kw.apply(x, w=x), r"^forward\(\) got an unexpected keyword argument 'w'$"),
    (lambda x: _Kw.apply(x, x=x), r"^forward\(\) got multiple values for argument 'x'$"),
    (lambda x: _Kw.apply(y=x), r"^forward\(\) missing required argument: 'x' \(position 0\)$"),
    (lambda x: _kwonly_fn().apply(x, s=x), r"^forward\(\) got an unexpected keyword argument 's'$"),
    (lambda x: _KwSetup.apply(x, w=x), r"^got an unexpected keyword argument 'w'$"),
    (lambda x: _KwSetup.apply(x, x=x), r"^multiple values for argument 'x'$"),
    (lambda x: _KwSetup.apply(y=x), r"^missing a required argument: 'x'$"),
])
def test_apply_keyword_mistakes(call, match):
    with pytest.raises(TypeError, match=match):
        call(opyard.tensor([1.0], requires_grad=True))


@pytest.mark.parametrize("write, match", [
    (lambda x: x.__setitem__(0, opyard.tensor(1.0)), "a view of a leaf Variable that requires grad"),
    (lambda x: x.add_(1), "^a leaf Variable that requires grad is being used in an in-place operation.$"),
    (lambda x: x[0:2].mul_(2), "a view of a leaf Variable that requires grad"),
])
def test_in_place_on_leaf_requiring_grad(write, match):
    x = opyard.zeros(3, requires_grad=True)
    with pytest.raises(RuntimeError, match=match):
        write(x)
    with opyard.no_grad():
        write(x)  # allowed without grad mode


@pytest.mark.parametrize("write, want_y_grad, want_x_grad", [
    (lambda y: y.mul_(3), [1.0, 1.0, 1.0], [6.0, 6.0, 6.0]),
    (lambda y: y[1:].mul_(3), None, [8.0, 72.0, 72.0]),
])
def test_retain_grad_follows_in_place(write, want_y_grad, want_x_grad):
    x = opyard.ones(3, requires_grad=True)
    y = x * 2
    y.retain_grad()
    write(y)
    if want_y_grad is None:
        (y * y).sum().backward()
        assert y.grad.tolist() == [4.0, 12.0, 12.0]  # the gradient of the modified y
    else:
        y.sum().backward()
        assert y.grad.tolist() == want_y_grad
    assert x.grad.tolist() == want_x_grad


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


def test_function_under_forward_ad_no_grad_records_nothing():
    class Double(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

        @staticmethod
        def jvp(ctx, t):
            return t * 2

    x = opyard.tensor([1.0], requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, opyard.tensor([5.0]))
        with opyard.no_grad():
            y = Double.apply(d)
        assert y.grad_fn is None
        assert fwAD.unpack_dual(y).tangent.tolist() == [10.0]


def test_function_dirty_view_input_stays_writable():
    class AddOne(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    base = opyard.ones(4, requires_grad=True) * 1
    view = base[1:]
    out = AddOne.apply(view)
    assert out is view
    out.mul_(2)  # a dirty input, not a view made inside forward: allowed, as torch
    base.sum().backward()


def test_function_view_output_refused_in_place_only_with_grad():
    class View(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view_as(x)

        @staticmethod
        def backward(ctx, g):
            return g

    x = opyard.ones(3, requires_grad=True) * 1
    y = View.apply(x)
    with pytest.raises(RuntimeError, match=r"^Output 0 of View is a view and is being modified inplace"):
        y.add_(1)
    with opyard.no_grad():
        y.add_(1)
    y.clone().add_(1)


def test_leaf_gradient_is_cast_to_the_leaf_dtype():
    class Up(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.float()

        @staticmethod
        def backward(ctx, g):
            return g  # float32 for a float16 input: the engine casts it, as torch's validate_outputs

    x = opyard.ones(2, dtype=opyard.float16, requires_grad=True)
    Up.apply(x).sum().backward()
    assert x.grad.dtype is opyard.float16
    x.grad = None
    assert x.grad is None
    with pytest.raises(RuntimeError,
                       match=r"^attempting to assign a gradient of size '\[3\]' to a tensor of size '\[2\]'"):
        x.grad = opyard.ones(3, dtype=opyard.float16)


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
