"""register_autograd with defaulted, kwarg-only and Tensor[] arguments, as torch has it.

The node's inputs are the arguments actually passed; setup_context sees every schema
input; backward returns one gradient per passed argument or one per schema input.
"""

from typing import List, Optional

import pytest

import opyard
from opyard import Tensor
from opyard.library import Library, custom_op, register_autograd

N_DEFAULTED = 22


def _flash_like():
    """A forward with many trailing defaulted arguments, as flash-attention 3's (24 of 34 defaulted)."""
    params = ", ".join(
        [f"float p{i}=0.{i}" if i % 3 == 0 else f"int p{i}={i}" if i % 3 == 1 else f"Tensor? p{i}=None"
         for i in range(N_DEFAULTED)])
    lib = Library("t_fa", "FRAGMENT")
    lib.define(f"fwd(Tensor q, Tensor k, Tensor v, float scale, {params}) -> Tensor")
    lib.impl("fwd", lambda q, k, v, scale, *rest: (q * k + v) * scale, "CPU")
    seen = {}

    def setup_context(ctx, inputs, output):
        seen["inputs"] = inputs
        q, k, v, scale = inputs[:4]
        ctx.save_for_backward(q, k)
        ctx.scale = scale

    def backward(ctx, g):
        seen["needs"] = ctx.needs_input_grad
        q, k = ctx.saved_tensors
        g = g * ctx.scale
        return g * k, g * q, g, None  # only the four passed arguments

    register_autograd("t_fa::fwd", backward, setup_context=setup_context, lib=lib)
    return lib, seen


def _qkv(dtype=opyard.float32):
    return [opyard.randn(4, dtype=dtype, requires_grad=True) for _ in range(3)]


def test_backward_returns_gradients_only_for_the_passed_arguments():
    lib, seen = _flash_like()
    try:
        q, k, v = _qkv()
        opyard.ops.t_fa.fwd(q, k, v, 2.0).sum().backward()
        assert seen["needs"] == (True, True, True, False)
        assert len(seen["inputs"]) == 4 + N_DEFAULTED  # setup_context sees every default filled in
        assert seen["inputs"][4:7] == (0.0, 1, None)
        assert opyard.allclose(q.grad, k * 2.0) and opyard.allclose(k.grad, q * 2.0)
        assert opyard.allclose(v.grad, opyard.full_like(v, 2.0))
        q64, k64, v64 = _qkv(opyard.float64)
        assert opyard.autograd.gradcheck(lambda a, b, c: opyard.ops.t_fa.fwd(a, b, c, 0.5), (q64, k64, v64))
    finally:
        lib._destroy()


def test_passing_a_defaulted_argument_grows_needs_input_grad():
    lib, seen = _flash_like()
    try:
        q, k, v = _qkv()
        bias = opyard.randn(4, requires_grad=True)
        with pytest.raises(RuntimeError, match=r"incorrect number of gradients \(expected 7 or 26, got 4\)"):
            opyard.ops.t_fa.fwd(q, k, v, 2.0, 0.5, 7, bias).sum().backward()
        assert seen["needs"] == (True, True, True, False, False, False, True)
    finally:
        lib._destroy()


@custom_op("t_ra::mulk", mutates_args=())
def mulk(x: Tensor, y: Tensor, k: float = 3.0, bias: Optional[Tensor] = None) -> Tensor:
    out = x * y * k
    return out if bias is None else out + bias


def _mulk_backward(n_grads, extra=None):
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        grads = (g * y * ctx.k, g * x * ctx.k, None, extra)
        return grads[:n_grads] if n_grads > 1 else grads[0]
    return backward


def _mulk_setup(ctx, inputs, output):
    ctx.save_for_backward(inputs[0], inputs[1])
    ctx.k = inputs[2]


@pytest.mark.parametrize("call_args, n_grads", [
    ((), 2),         # one gradient per passed argument
    ((), 4),         # one per schema input
    ((5.0,), 3),
    ((5.0,), 4),
])
def test_accepted_gradient_counts(call_args, n_grads):
    mulk.register_autograd(_mulk_backward(n_grads), setup_context=_mulk_setup)
    x, y = opyard.randn(3, requires_grad=True), opyard.randn(3, requires_grad=True)
    mulk(x, y, *call_args).sum().backward()
    k = call_args[0] if call_args else 3.0
    assert opyard.allclose(x.grad, y * k) and opyard.allclose(y.grad, x * k)


@pytest.mark.parametrize("call_args, n_grads, expected", [
    ((), 1, "expected 2 or 4, got 1"),
    ((), 3, "expected 2 or 4, got 3"),
    ((5.0,), 2, "expected 3 or 4, got 2"),
])
def test_wrong_gradient_counts(call_args, n_grads, expected):
    mulk.register_autograd(_mulk_backward(n_grads), setup_context=_mulk_setup)
    x, y = opyard.randn(3, requires_grad=True), opyard.randn(3)
    with pytest.raises(RuntimeError, match=rf"The backward formula for t_ra.mulk.default returned an incorrect "
                                           rf"number of gradients \({expected}\)"):
        mulk(x, y, *call_args).sum().backward()


def test_count_message_when_every_input_is_passed():
    mulk.register_autograd(_mulk_backward(3), setup_context=_mulk_setup)
    x, y = opyard.randn(3, requires_grad=True), opyard.randn(3)
    with pytest.raises(RuntimeError, match=r"\(expected 4, got 3\)"):
        mulk(x, y, 2.0, opyard.randn(3)).sum().backward()


def test_a_gradient_for_an_argument_not_passed_must_be_none():
    mulk.register_autograd(_mulk_backward(4, extra=opyard.ones(3)), setup_context=_mulk_setup)
    x, y = opyard.randn(3, requires_grad=True), opyard.randn(3)
    with pytest.raises(RuntimeError, match="returned a non-None gradient for an input that was not passed to "
                                           "the operator. Defaulted inputs that were not passed through "
                                           "autograd must return None."):
        mulk(x, y).sum().backward()


def test_a_gradient_for_a_passed_non_tensor_is_refused():
    mulk.register_autograd(lambda ctx, g: (g, g, g), setup_context=_mulk_setup)
    x, y = opyard.randn(3, requires_grad=True), opyard.randn(3)
    with pytest.raises(RuntimeError, match="returned a gradient different than None at position 3"):
        mulk(x, y, 2.0).sum().backward()


def test_passed_optional_tensor_gets_its_gradient():
    def backward(ctx, g):
        assert ctx.needs_input_grad == (True, False, False, True)
        return g * ctx.k, None, None, g
    mulk.register_autograd(backward, setup_context=_mulk_setup)
    x, y, b = opyard.randn(3, requires_grad=True), opyard.randn(3), opyard.randn(3, requires_grad=True)
    mulk(x, y, 2.0, b).sum().backward()
    assert b.grad.tolist() == [1.0] * 3 and opyard.allclose(x.grad, opyard.full_like(x, 2.0))


# --- Tensor[] arguments and returns --------------------------------------------------------------

@custom_op("t_ra::mix", mutates_args=())
def mix(x: Tensor, ys: List[Tensor], w: float = 2.0) -> List[Tensor]:
    return [x * w + y for y in ys]


def _mix_setup(ctx, inputs, output):
    ctx.w, ctx.n = inputs[2], len(inputs[1])


def test_tensor_list_input_and_return_get_gradients():
    seen = {}

    def backward(ctx, grads):
        seen["needs"], seen["grads"] = ctx.needs_input_grad, grads
        return sum(grads) * ctx.w, list(grads)
    mix.register_autograd(backward, setup_context=_mix_setup)
    x = opyard.randn(3, requires_grad=True)
    ys = [opyard.randn(3, requires_grad=True), opyard.randn(3)]
    out = mix(x, ys)
    assert isinstance(out, list) and [o.requires_grad for o in out] == [True, True]
    assert out[0].grad_fn is out[1].grad_fn  # one node for the call
    (out[0].sum() + 3 * out[1].sum()).backward()
    assert seen["needs"] == (True, [True, False])
    assert isinstance(seen["grads"], list) and len(seen["grads"]) == 2
    assert x.grad.tolist() == [8.0] * 3 and ys[0].grad.tolist() == [1.0] * 3 and ys[1].grad is None


def test_tensor_list_gradients_per_schema_input_and_none_for_a_whole_list():
    mix.register_autograd(lambda ctx, grads: (sum(grads) * ctx.w, None, None), setup_context=_mix_setup)
    x, ys = opyard.randn(3, requires_grad=True), [opyard.randn(3, requires_grad=True)]
    mix(x, ys)[0].sum().backward()
    assert x.grad.tolist() == [2.0] * 3 and ys[0].grad is None


@pytest.mark.parametrize("result, got", [
    (lambda g: (g[0], g[0]), r"\(\*, \*\)"),
    (lambda g: (g[0], [g[0]]), r"\(\*, \[\*\]\)"),
    (lambda g: ([g[0]], [g[0], g[1]]), r"\(\[\*\], \[\*, \*\]\)"),
])
def test_tensor_list_structure_mismatch(result, got):
    mix.register_autograd(lambda ctx, grads: result(grads), setup_context=_mix_setup)
    x, ys = opyard.randn(3, requires_grad=True), [opyard.randn(3), opyard.randn(3)]
    with pytest.raises(RuntimeError, match=r"Expected the return from backward to be of the same structure as "
                                           rf"the inputs. Got: {got} \(return from backward\), \(\*, \[\*, \*\]\) "
                                           r"\(inputs\)"):
        sum(o.sum() for o in mix(x, ys)).backward()


def test_defaulted_optional_tensor_list():
    lib = Library("t_ral", "FRAGMENT")
    lib.define("dl(Tensor x, Tensor[]? extra=None, float s=1.0) -> Tensor")
    lib.impl("dl", lambda x, extra=None, s=1.0: (x + sum(extra) if extra else x.clone()) * s, "CPU")
    seen = {}

    def setup_context(ctx, inputs, output):
        seen["inputs"] = inputs
        ctx.s, ctx.n = inputs[2], len(inputs[1] or ())

    def backward(ctx, g):
        seen["needs"] = ctx.needs_input_grad
        return (g * ctx.s, [g * ctx.s] * ctx.n) if ctx.n else g * ctx.s
    try:
        register_autograd("t_ral::dl", backward, setup_context=setup_context, lib=lib)
        x = opyard.randn(3, requires_grad=True)
        opyard.ops.t_ral.dl(x).sum().backward()
        assert seen["needs"] == (True,) and seen["inputs"][1:] == (None, 1.0)
        e = [opyard.randn(3, requires_grad=True), opyard.randn(3, requires_grad=True)]
        opyard.ops.t_ral.dl(x, e).sum().backward()
        assert seen["needs"] == (True, [True, True])
        assert e[0].grad.tolist() == [1.0] * 3 and e[1].grad.tolist() == [1.0] * 3
        assert x.grad.tolist() == [2.0] * 3
    finally:
        lib._destroy()


# --- kwarg-only arguments ------------------------------------------------------------------------

def test_kwarg_only_tensors_get_gradients():
    lib = Library("t_rak", "FRAGMENT")
    lib.define("kw(Tensor x, *, Tensor y, Tensor? z=None, float s=1.0) -> Tensor")
    lib.impl("kw", lambda x, *, y, z=None, s=1.0: (x * y if z is None else x * y + z) * s, "CPU")
    seen = {}

    def setup_context(ctx, inputs, keyword_only_inputs, output):
        seen["kw"] = keyword_only_inputs
        ctx.save_for_backward(inputs[0], keyword_only_inputs["y"])
        ctx.s = keyword_only_inputs["s"]

    def per_passed(ctx, g):
        seen["needs"] = ctx.needs_input_grad
        x, y = ctx.saved_tensors
        return g * y * ctx.s, g * x * ctx.s

    def per_schema(ctx, g):
        x, y = ctx.saved_tensors
        return g * y * ctx.s, g * x * ctx.s, None, None
    try:
        register_autograd("t_rak::kw", per_passed, setup_context=setup_context, lib=lib)
        x, y = opyard.randn(3, requires_grad=True), opyard.randn(3, requires_grad=True)
        opyard.ops.t_rak.kw(x, y=y).sum().backward()
        assert seen["needs"] == (True, True) and seen["kw"] == {"y": y, "z": None, "s": 1.0}
        assert opyard.allclose(y.grad, x) and opyard.allclose(x.grad, y)
        register_autograd("t_rak::kw", per_schema, setup_context=setup_context, lib=lib)
        x.grad = y.grad = None
        opyard.ops.t_rak.kw(x, y=y, s=2.0).sum().backward()
        assert opyard.allclose(y.grad, x * 2.0)
        register_autograd("t_rak::kw", per_passed, setup_context=setup_context, lib=lib)
        with pytest.raises(RuntimeError, match=r"\(expected 3 or 4, got 2\)"):
            opyard.ops.t_rak.kw(x, y=y, s=2.0).sum().backward()  # s was passed: 3 per passed argument
    finally:
        lib._destroy()


def test_kwarg_only_non_tensors_travel_beside_the_inputs():
    @custom_op("t_ra::scale", mutates_args=())
    def scale(x: Tensor, *, val: float = 1.0, flag: bool = False) -> Tensor:
        return x * val

    def setup_context(ctx, inputs, keyword_only_inputs, output):
        ctx.val = keyword_only_inputs["val"]

    def backward(ctx, g):
        assert ctx.needs_input_grad == (True,)
        return g * ctx.val
    scale.register_autograd(backward, setup_context=setup_context)
    x = opyard.randn(3, requires_grad=True)
    scale(x, val=4.0, flag=True).sum().backward()
    assert x.grad.tolist() == [4.0] * 3


def test_registration_errors():
    @custom_op("t_ra::inplace_", mutates_args=("x",))
    def inplace_(x: Tensor) -> None:
        x.numpy()[...] += 1
    with pytest.raises(RuntimeError, match=r"Cannot register autograd formula for non-functional operator"):
        inplace_.register_autograd(lambda ctx, g: g)
    with pytest.raises(TypeError, match=r"expected backward to be a function, got 3"):
        mulk.register_autograd(3)
    with pytest.raises(TypeError, match=r"expected setup_context to be a function or None, got 'x'"):
        mulk.register_autograd(lambda ctx, g: g, setup_context="x")


# --- custom ops without a formula (torch runs them below autograd, unchecked) --------------------

@custom_op("t_ra::acc_", mutates_args=("x",))
def acc_(x: Tensor, y: Tensor) -> None:
    x.numpy()[...] += y.detach().numpy()


def test_a_mutating_custom_op_may_write_into_a_leaf_that_requires_grad():
    x, y = opyard.zeros(3, requires_grad=True), opyard.ones(3, requires_grad=True)
    v = x._version
    acc_(x, y)
    assert x.tolist() == [1.0] * 3 and x.is_leaf and x.grad_fn is None and x.requires_grad
    assert x._version > v
    with opyard.no_grad():
        acc_(x, y)
    assert x.tolist() == [2.0] * 3


def test_a_mutated_non_leaf_still_refuses_backward_without_a_formula():
    x = opyard.zeros(3, requires_grad=True).clone()
    acc_(x, opyard.ones(3))
    with pytest.raises(RuntimeError, match="Trying to backward through t_ra.acc_.default but no autograd "
                                           "formula was registered"):
        x.sum().backward()


def test_a_library_op_without_autograd_kernel_still_refuses_leaf_writes():
    lib = Library("t_ram", "FRAGMENT")
    lib.define("m_(Tensor(a!) x, Tensor y) -> ()")
    lib.impl("m_", lambda x, y: [x.add_(y), None][1], "CPU")  # `-> ()`: the kernel returns None
    try:
        x = opyard.zeros(3, requires_grad=True)
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an "
                                               "in-place operation."):
            opyard.ops.t_ram.m_(x, opyard.ones(3))
        with opyard.no_grad():
            opyard.ops.t_ram.m_(x, opyard.ones(3))
        assert x.tolist() == [1.0] * 3
    finally:
        lib._destroy()


@pytest.mark.parametrize("schema", [
    "noret(Tensor x) -> ()",
    "view(Tensor(a) x) -> Tensor(a)",
    "inc_(Tensor(a!) x) -> Tensor(a!)",
])
def test_library_ops_must_be_functional(schema):
    lib = Library("t_raf", "FRAGMENT")
    name = lib.define(schema)
    try:
        with pytest.raises(RuntimeError, match=rf"Cannot register autograd formula for non-functional operator "
                                               rf"t_raf.{name}.default with schema t_raf::{name}"):
            register_autograd(f"t_raf::{name}", lambda ctx, g: g, lib=lib)
    finally:
        lib._destroy()


def test_a_custom_op_may_be_a_single_view():
    @custom_op("t_ra::first", mutates_args=(), schema="(Tensor(a) x) -> Tensor(a)")
    def first(x):
        return x[:1]
    first.register_autograd(lambda ctx, g: g)  # torch allows one Tensor viewing the only input
    assert first._opoverload._schema.returns[0].alias_info is not None
