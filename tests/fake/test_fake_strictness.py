"""FakeTensorMode as strict as torch's: real inputs refused, fresh tensors fake, from_tensor faithful."""

import numpy as np
import pytest

import opyard
from opyard import nn
from opyard.fake import (DynamicOutputShapeException, FakeTensor, FakeTensorMode, NonFakeInputError, ShapeEnv,
                         UnsupportedOperatorException)
from opyard.fake.convert import MixedFakeModesError
from opyard.fx import make_fx

_PREFIX = ("Please convert all Tensors to FakeTensors first or instantiate FakeTensorMode with "
           "'allow_non_fake_inputs'. Found in ")


_LONG = opyard.arange(3)


# --- real tensors mixed into ops -------------------------------------------------------------
@pytest.mark.parametrize("call, shown", [
    (lambda f, r: f + r, "aten.add.Tensor(FakeTensor(..., size=(3,)), tensor([...], size=(3,)))"),
    (lambda f, r: r * f, "aten.mul.Tensor(tensor([...], size=(3,)), FakeTensor(..., size=(3,)))"),
    (lambda f, r: opyard.cat([f, r]), "aten.cat.default([FakeTensor(..., size=(3,)), tensor([...], size=(3,))])"),
    (lambda f, r: f + _LONG, ("aten.add.Tensor(FakeTensor(..., size=(3,)), tensor([...], size=(3,), "
                              "dtype=opyard.int64))")),
    (lambda f, r: opyard.ops.aten.add.Tensor(f, r, alpha=2), ("aten.add.Tensor(FakeTensor(..., size=(3,)), "
                                                                "tensor([...], size=(3,)), alpha=2)")),
])
def test_real_input_is_refused_with_torchs_message(call, shown):
    real = opyard.randn(3)
    with FakeTensorMode():
        fake = opyard.randn(3)
        with pytest.raises(NonFakeInputError) as info:
            call(fake, real)
    assert str(info.value) == _PREFIX + shown


def test_refusal_is_both_assertion_and_runtime_error():
    real = opyard.randn(3)
    with FakeTensorMode():
        with pytest.raises(AssertionError, match="allow_non_fake_inputs"):
            opyard.randn(3) + real
        with pytest.raises(RuntimeError, match=r"Please convert all Tensors to FakeTensors first"):
            real.sin()


def test_fake_of_a_strict_mode_refuses_real_input_outside_the_mode():
    mode = FakeTensorMode()
    fake = mode.from_tensor(opyard.randn(3))
    with pytest.raises(AssertionError, match=r"Found in aten\.add\.Tensor\(FakeTensor"):
        fake + opyard.randn(3)


def test_refusal_quotes_a_long_call_briefly():
    real = opyard.randn(2)
    with FakeTensorMode():
        fakes = [opyard.randn(2) for _ in range(60)]
        with pytest.raises(NonFakeInputError) as info:
            opyard.cat(fakes + [real])
    text = str(info.value)
    assert text.startswith(_PREFIX + "aten.cat.default([FakeTensor") and text.endswith("...")
    assert len(text) - len(_PREFIX) <= 200


def test_allow_non_fake_inputs_converts_real_tensors():
    real = opyard.randn(3, 2).t()
    with FakeTensorMode(allow_non_fake_inputs=True) as mode:
        out = opyard.randn(2, 3) + real
        again = real * 2
    assert isinstance(out, FakeTensor) and tuple(out.shape) == (2, 3)
    assert isinstance(again, FakeTensor) and again.fake_mode is mode
    assert mode.from_tensor(real).stride() == (1, 2)


# --- opyard.tensor / as_tensor under the mode --------------------------------------------------
@pytest.mark.parametrize("make, shape, dtype", [
    (lambda: opyard.tensor([1.0, 2.0]), (2,), opyard.float32),
    (lambda: opyard.tensor([[1, 2, 3]]), (1, 3), opyard.int64),
    (lambda: opyard.tensor(3.5), (), opyard.float32),
    (lambda: opyard.tensor(np.zeros((2, 2))), (2, 2), opyard.float64),
    (lambda: opyard.as_tensor(np.zeros((2, 3), dtype=np.int32)), (2, 3), opyard.int32),
    (lambda: opyard.as_tensor([True, False]), (2,), opyard.bool),
    (lambda: opyard.as_tensor(np.ones(4), dtype=opyard.float32), (4,), opyard.float32),
])
def test_tensors_from_data_are_fake_under_the_mode(make, shape, dtype):
    with FakeTensorMode() as mode:
        t = make()
        assert isinstance(t, FakeTensor) and t.fake_mode is mode
        assert tuple(t.shape) == shape and t.dtype == dtype
        assert isinstance(t + t, FakeTensor)  # usable with other fakes: no refusal
    outside = make()
    assert type(outside) is opyard.Tensor and tuple(outside.shape) == shape


def test_fresh_tensor_keeps_requires_grad_and_is_a_leaf():
    with FakeTensorMode():
        t = opyard.tensor([1.0, 2.0], requires_grad=True)
    assert isinstance(t, FakeTensor) and t.requires_grad and t.is_leaf
    with FakeTensorMode(), pytest.raises(RuntimeError, match="Only Tensors of floating point"):
        opyard.tensor([1, 2], requires_grad=True)


# --- from_tensor -------------------------------------------------------------------------------
def test_from_tensor_keeps_parameter_ness():
    mode = FakeTensorMode()
    p = nn.Parameter(opyard.randn(2, 3))
    fp = mode.from_tensor(p)
    assert isinstance(fp, FakeTensor) and isinstance(fp, nn.Parameter)
    assert fp.requires_grad and fp.is_leaf and tuple(fp.shape) == (2, 3)
    assert repr(fp) == "Parameter(FakeTensor(..., size=(2, 3), requires_grad=True))"  # torch's
    frozen = mode.from_tensor(nn.Parameter(opyard.randn(2), requires_grad=False))
    assert isinstance(frozen, nn.Parameter) and not frozen.requires_grad
    with mode:
        view, out = fp.t(), fp * 2
    for t in (view, out):  # results of ops on a parameter are plain tensors, as in torch
        assert type(t) is FakeTensor and not isinstance(t, nn.Parameter)


def test_from_tensor_keeps_requires_grad_strides_offset_and_dtype():
    mode = FakeTensorMode()
    base = opyard.randn(4, 6, dtype=opyard.float64)
    x = base[1:, ::2]
    fx = mode.from_tensor(x)
    assert (fx.stride(), fx.storage_offset(), fx.dtype) == (x.stride(), x.storage_offset(), opyard.float64)
    w = opyard.randn(3, requires_grad=True)
    assert mode.from_tensor(w).requires_grad and not mode.from_tensor(base).requires_grad


def test_views_of_one_base_share_one_fake_storage():
    mode = FakeTensorMode()
    base = opyard.randn(4, 6)
    v1, v2 = base[1:], base.t()
    f1, f2 = mode.from_tensor(v1), mode.from_tensor(v2)
    fb = mode.from_tensor(base)
    assert f1._base is fb and f2._base is fb and fb._base is None
    assert f1.untyped_storage() is f2.untyped_storage() is fb.untyped_storage()
    assert fb.untyped_storage().nbytes() == 4 * 6 * 4
    assert (f1.stride(), f1.storage_offset(), f2.stride()) == ((6, 1), 6, (1, 6))
    assert mode.from_tensor(v1) is f1 and mode.from_tensor(base) is fb  # memo
    other = mode.from_tensor(opyard.randn(4, 6))
    assert other.untyped_storage() is not fb.untyped_storage()
    with mode:
        f1.add_(1)  # an in-place write through one view bumps the shared version counter
    assert fb._version == f2._version == f1._version == 1


def test_views_made_under_the_mode_share_their_base_storage():
    with FakeTensorMode():
        x = opyard.randn(3, 4)
        assert x.t().untyped_storage() is x[1:].untyped_storage() is x.untyped_storage()
        assert (x + 1).untyped_storage() is not x.untyped_storage()


@pytest.mark.parametrize("bad, message", [
    (np.zeros(3), "expected an opyard.Tensor, got ndarray"),
    ([1.0], "expected an opyard.Tensor, got list"),
])
def test_from_tensor_refuses_non_tensors(bad, message):
    with pytest.raises(TypeError, match=f"FakeTensorMode.from_tensor: {message}"):
        FakeTensorMode().from_tensor(bad)


def test_from_tensor_under_a_shape_env_makes_symbols():
    env = ShapeEnv()
    mode = FakeTensorMode(shape_env=env)
    a = mode.from_tensor(opyard.randn(3, 4))
    b = mode.from_tensor(opyard.randn(3, 1, 0))
    assert [str(s) for s in a.shape] == ["s26", "s49"]
    assert [str(s) for s in b.shape] == ["s26", "1", "0"]  # duck sizing; 0 and 1 specialize
    assert [str(s) for s in a.stride()] == ["s49", "1"]
    assert tuple(mode.from_tensor(opyard.randn(5), static_shapes=True).shape) == (5,)
    assert env.var_to_sources["s26"] == ["__meta_utils_unknown_tensor0.size()[0]",
                                         "__meta_utils_unknown_tensor1.size()[0]"]
    assert tuple(FakeTensorMode(shape_env=env, static_shapes=True).from_tensor(opyard.randn(3)).shape) == (3,)


# --- get_ctx in every register_fake form ------------------------------------------------------
def _nonzero_fake(x):
    ctx = opyard.library.get_ctx()
    return x.new_empty(ctx.new_dynamic_size(), dtype=opyard.int64)


def _kernel(x):
    return opyard.from_numpy(np.flatnonzero(x.numpy()))


@pytest.fixture
def ctx_ops():
    lib = opyard.library.Library("t_fstrict", "FRAGMENT")

    @opyard.library.custom_op("t_fstrict::method_form", mutates_args=())
    def method_form(x: opyard.Tensor) -> opyard.Tensor:
        return _kernel(x)
    method_form.register_fake(_nonzero_fake)

    for name in ("lib_form", "free_form"):
        lib.define(f"{name}(Tensor x) -> Tensor")
        lib.impl(name, _kernel, "CPU")
    lib._register_fake("lib_form", _nonzero_fake)
    opyard.library.register_fake("t_fstrict::free_form", _nonzero_fake, lib=lib)
    yield [method_form, opyard.ops.t_fstrict.lib_form.default, opyard.ops.t_fstrict.free_form]
    lib._destroy()


def test_get_ctx_works_in_every_register_fake_form(ctx_ops):
    for op in ctx_ops:
        env = ShapeEnv()
        with FakeTensorMode(shape_env=env):
            out = op(opyard.randn(5))
        assert str(out.shape[0]).startswith("u") and out.dtype == opyard.int64
        assert list(env.var_to_range.values()) == [(0, None)]
        assert tuple(op(opyard.tensor([0.0, 1.0, 2.0])).shape) == (2,)  # the real kernel outside


def test_get_ctx_outside_a_fake_impl_is_none():
    assert opyard.library.get_ctx() is None  # torch's answer outside a fake impl


# --- fake tensors of two modes -----------------------------------------------------------------
def test_mixing_fake_modes_raises():
    m1, m2 = FakeTensorMode(), FakeTensorMode()
    a, b = m1.from_tensor(opyard.randn(3)), m2.from_tensor(opyard.randn(3))
    with pytest.raises(AssertionError, match=r"^Mixing fake modes NYI: aten\.add\.Tensor got a fake tensor"):
        a + b
    with m2, pytest.raises(RuntimeError, match="Mixing fake modes NYI"):
        a.sin()  # the cached path must refuse too
    with m2, pytest.raises(MixedFakeModesError):
        opyard.cat([b, a])
    assert isinstance(a + a, FakeTensor) and (a + a).fake_mode is m1


def test_make_fx_traces_fake_inputs_in_their_own_mode():
    env = ShapeEnv()
    mode = FakeTensorMode(shape_env=env)
    x = mode.from_tensor(opyard.randn(3, 4))
    gm = make_fx(lambda t: t.view(-1), tracing_mode="symbolic")(x)
    assert gm.shape_env is env and list(env.var_to_range) == ["s26", "s49"]
    fake_gm = make_fx(lambda t: t.sin(), tracing_mode="fake")(FakeTensorMode().from_tensor(opyard.randn(2)))
    assert [n.name for n in fake_gm.graph.nodes] == ["t_1", "sin", "output"]


# --- torch's names and texts for what a fake tensor cannot do ----------------------------------
def test_op_without_fake_impl_or_meta_kernel():
    lib = opyard.library.Library("t_fstrict2", "FRAGMENT")
    try:
        lib.define("nometa(Tensor x) -> Tensor")
        lib.impl("nometa", lambda x: x.clone(), "CPU")
        with FakeTensorMode(), pytest.raises(UnsupportedOperatorException,
                                             match=r"^t_fstrict2\.nometa\.default: it has no fake impl and no "
                                                   r"Meta kernel.*register_fake\(\"t_fstrict2::nometa\"\)"):
            opyard.ops.t_fstrict2.nometa(opyard.randn(2))
        assert issubclass(UnsupportedOperatorException, RuntimeError)
    finally:
        lib._destroy()


def test_new_dynamic_size_without_shape_env_names_the_overload():
    @opyard.library.custom_op("t_fstrict::dyn", mutates_args=())
    def dyn(x: opyard.Tensor) -> opyard.Tensor:
        return x.clone()
    dyn.register_fake(_nonzero_fake)
    with FakeTensorMode(), pytest.raises(DynamicOutputShapeException,
                                         match=r"^t_fstrict\.dyn\.default: ctx\.new_dynamic_size\(\) needs"):
        dyn(opyard.randn(3))
