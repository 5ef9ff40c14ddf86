"""make_fx(tracing_mode="symbolic"): input sizes as torch's backed symbols, its guards and graphs.

The expected graphs, symbol names, guards and ranges are what torch 2.15 prints
for the same functions.
"""

import operator

import re

import numpy as np

import pytest

import opyard
from opyard.fake import FakeTensor, FakeTensorMode, GuardOnDataDependentSymNode, ShapeEnv, SymInt
from opyard.fx import make_fx


def _body(gm):
    """The traced code's lines without the frees torch.fx appends (``;  x_1 = None``: checked by
    test_make_fx_against_torch.py), which these cases leave out."""
    return [re.sub(r";  [\w =]+ = None$", "", line.strip()) for line in gm.code.strip().splitlines()[1:]]


CASES = [
    ("sin_plus_size", lambda x: x.sin() + x.shape[0], [(3,)],
     ["sin = opyard.ops.aten.sin.default(x_1)",
      "sym_size_int = opyard.ops.aten.sym_size.int(x_1, 0)",
      "add = opyard.ops.aten.add.Tensor(sin, sym_size_int)", "return add"],
     [], {"s75": (2, None)}),
    ("view_of_product", lambda x: x.view(x.shape[0] * x.shape[1]), [(3, 4)],
     ["sym_size_int = opyard.ops.aten.sym_size.int(x_1, 0)",
      "sym_size_int_1 = opyard.ops.aten.sym_size.int(x_1, 1)",
      "mul = sym_size_int * sym_size_int_1",
      "view = opyard.ops.aten.view.default(x_1, [mul])", "return view"],
     [], {"s75": (2, None), "s96": (2, None)}),
    ("equal_sizes_share_a_symbol", lambda x, y: x + y, [(3,), (3,)],
     ["add = opyard.ops.aten.add.Tensor(x_1, y_1)", "return add"], [], {"s75": (2, None)}),
    ("size_one_specializes", lambda x: x.expand(x.shape[0], 5) if x.shape[1] == 1 else x, [(4, 1)],
     ["sym_size_int = opyard.ops.aten.sym_size.int(x_1, 0)",
      "expand = opyard.ops.aten.expand.default(x_1, [sym_size_int, 5])", "return expand"],
     [], {"s75": (2, None)}),
    ("broadcast", lambda x, y: x + y, [(3, 1), (1, 4)],
     ["add = opyard.ops.aten.add.Tensor(x_1, y_1)", "return add"], [], {"s75": (2, None), "s9": (2, None)}),
    ("branch_guards_and_narrows", lambda x: x.sin() if x.shape[0] > 2 else x.cos(), [(3,)],
     ["sin = opyard.ops.aten.sin.default(x_1)", "return sin"], ["s75 > 2"], {"s75": (3, None)}),
    ("unequal_sizes_guard_ne", lambda x, y: x.sin() if x.shape[0] == y.shape[0] else x.cos(), [(3,), (4,)],
     ["cos = opyard.ops.aten.cos.default(x_1)", "return cos"], ["Ne(s75, s57)"],
     {"s75": (2, None), "s57": (2, None)}),
    ("int_specializes", lambda x: x.view(int(x.shape[0]), 1), [(3,)],
     ["view = opyard.ops.aten.view.default(x_1, [3, 1])", "return view"], ["Eq(s75, 3)"], {"s75": (3, 3)}),
    ("size_arithmetic", lambda x: x.new_zeros(x.shape[0] + 1), [(3,)],
     ["sym_size_int = opyard.ops.aten.sym_size.int(x_1, 0)", "add = sym_size_int + 1",
      "new_zeros = opyard.ops.aten.new_zeros.default(x_1, [add])", "return new_zeros"],
     [], {"s75": (2, None)}),
    ("eq_guard_pins_the_range", lambda x: x.sum(0) if x.shape[0] == 2 else x, [(2, 3)],
     ["sum_1 = opyard.ops.aten.sum.dim_IntList(x_1, [0])", "return sum_1"],
     ["Eq(s75, 2)"], {"s75": (2, 2), "s96": (2, None)}),
]


@pytest.mark.parametrize("name, f, shapes, body, guards, ranges", CASES, ids=[c[0] for c in CASES])
def test_graphs_guards_and_ranges_match_torch(name, f, shapes, body, guards, ranges):
    inputs = [opyard.randn(*s) for s in shapes]
    gm = make_fx(f, tracing_mode="symbolic")(*inputs)
    assert _body(gm) == body
    assert [g.expr for g in gm.shape_env.guards] == guards
    assert gm.shape_env.var_to_range == ranges


@pytest.mark.parametrize("f, shapes, other_shapes", [
    (lambda x: x.view(x.shape[0] * x.shape[1]), [(3, 4)], [(5, 2)]),
    (lambda x: x.new_zeros(x.shape[0] + 1) + 1, [(3,)], [(7,)]),
    (lambda x: x.expand(x.shape[0], 5), [(4, 1)], [(2, 1)]),
    (lambda x, y: (x + y).sum(0), [(3, 1), (1, 4)], [(6, 1), (1, 2)]),
])
def test_graph_reruns_on_other_sizes(f, shapes, other_shapes):
    gm = make_fx(f, tracing_mode="symbolic")(*[opyard.randn(*s) for s in shapes])
    others = [opyard.randn(*s) for s in other_shapes]
    out, ref = gm(*others), f(*others)
    assert tuple(out.shape) == tuple(ref.shape) and np.allclose(out.numpy(), ref.numpy())


def test_int_inputs_become_symbols():
    gm = make_fx(lambda x, n: x * n, tracing_mode="symbolic")(opyard.randn(3), 5)
    assert _body(gm) == ["mul = opyard.ops.aten.mul.Tensor(x_1, n_1)", "return mul"]
    assert gm.shape_env.var_to_range == {"s75": (2, None), "s30": (None, None)}  # ints may be negative
    assert np.allclose(gm(opyard.ones(2), -4).numpy(), [-4.0, -4.0])
    fixed = make_fx(lambda x, n: x * n, tracing_mode="symbolic")(opyard.randn(3), 1)
    assert _body(fixed) == ["mul = opyard.ops.aten.mul.Tensor(x_1, 1)", "return mul"]  # 0/1 specialize


def test_placeholders_hold_fake_values_with_symbols():
    gm = make_fx(lambda x, y: x.t() @ y, tracing_mode="symbolic")(opyard.randn(3, 4), opyard.randn(3, 1))
    vals = [n.meta["val"] for n in gm.graph.nodes if n.op == "placeholder"]
    assert all(isinstance(v, FakeTensor) for v in vals)
    assert [str(s) for s in vals[0].shape] == ["s75", "s96"] and [str(s) for s in vals[1].shape] == ["s75", "1"]
    out = [n for n in gm.graph.nodes if n.op == "call_function"][-1].meta["val"]
    assert [str(s) for s in out.shape] == ["s96", "1"]


def test_custom_op_with_data_dependent_size():
    lib = opyard.library.Library("t_fxsym", "FRAGMENT")
    try:
        lib.define("nonzero(Tensor x) -> Tensor")
        lib.impl("nonzero", lambda x: opyard.from_numpy(np.flatnonzero(x.numpy())), "CPU")

        @opyard.library.register_fake("t_fxsym::nonzero", lib=lib)
        def _(x):
            return x.new_empty(opyard.library.get_ctx().new_dynamic_size(), dtype=opyard.int64)

        def f(x):
            return opyard.ops.t_fxsym.nonzero(x) * x.shape[0]
        gm = make_fx(f, tracing_mode="symbolic")(opyard.tensor([0.0, 1.0, 2.0, 0.0]))
        assert _body(gm) == ["nonzero = opyard.ops.t_fxsym.nonzero.default(x_1)",
                             "sym_size_int = opyard.ops.aten.sym_size.int(x_1, 0)",
                             "mul = opyard.ops.aten.mul.Tensor(nonzero, sym_size_int)", "return mul"]
        assert gm.shape_env.var_to_range == {"s75": (2, None), "u0": (0, None)}
        assert gm(opyard.tensor([5.0, 0.0, 7.0])).tolist() == [0, 6]
    finally:
        lib._destroy()


@pytest.mark.parametrize("f, names", [
    (lambda x, y: x + y, ["x_1", "y_1"]),
    (lambda *args: args[0] + args[1], ["arg0_1", "arg1_1"]),
    (lambda x, *rest: x + rest[0], ["arg0_1", "arg1_1"]),
    (opyard.ops.aten.add.Tensor, ["arg0_1", "arg1_1"]),
])
def test_placeholder_names_follow_torch(f, names):
    gm = make_fx(f, tracing_mode="symbolic")(opyard.randn(2), opyard.randn(2))
    assert [n.name for n in gm.graph.nodes if n.op == "placeholder"] == names


def test_argument_count_mismatch_is_refused():
    def f(x, y=2):
        return x * y
    with pytest.raises(RuntimeError, match="Tracing expected 2 arguments but got 1 concrete arguments"):
        make_fx(f, tracing_mode="symbolic")(opyard.randn(2))


def test_real_constants_follow_allow_non_fake_inputs():
    c = opyard.randn(3)
    with pytest.raises(AssertionError, match="Please convert all Tensors to FakeTensors first"):
        make_fx(lambda x: x + c, tracing_mode="symbolic")(opyard.randn(3))
    gm = make_fx(lambda x: x + c, tracing_mode="fake", _allow_non_fake_inputs=True)(opyard.randn(3))
    assert _body(gm)[0] == "_tensor_constant0 = self._tensor_constant0"
    x = opyard.randn(3)
    assert np.allclose(gm(x).numpy(), (x + c).numpy())


def test_fake_mode_keeps_static_sizes():
    gm = make_fx(lambda x: x.sin() + x.shape[0], tracing_mode="fake")(opyard.randn(3))
    assert _body(gm) == ["sin = opyard.ops.aten.sin.default(x_1)", "add = opyard.ops.aten.add.Tensor(sin, 3)",
                         "return add"]
    assert gm.shape_env is None


# --- the ShapeEnv behind it ----------------------------------------------------------------------
def test_symbol_names_hash_their_source_and_probe_on_collision():
    env = ShapeEnv()
    first = env.create_symbol(5, "input0.size()[2]")
    second = env.create_symbol(6, "input3.size()[1]")  # same hash bucket (7) as the first
    assert (str(first), str(second)) == ("s7", "s8")
    assert env.create_symbol(5, "input9.size()[0]") is first  # duck sizing
    assert env.var_to_sources["s7"] == ["input0.size()[2]", "input9.size()[0]"]
    assert env.create_symbol(6, "input3.size()[1]") is second  # a source maps to one symbol


def test_specialization_and_duck_sizing_can_be_turned_off():
    env = ShapeEnv(specialize_zero_one=False, duck_shape=False)
    one = env.create_symbol(1, "input0.size()[0]")
    a, b = env.create_symbol(3, "input0.size()[1]"), env.create_symbol(3, "input1.size()[0]")
    assert isinstance(one, SymInt) and env.var_to_range[str(one)] == (0, None)
    assert str(a) != str(b)
    assert bool(a == b) and [g.expr for g in env.guards] == [f"Eq({a}, {b})"]


@pytest.mark.parametrize("cond, held, guard, rng", [
    (lambda s: s > 2, True, "s75 > 2", (3, None)),
    (lambda s: s >= 2, True, None, (2, None)),  # decided by the range: no guard
    (lambda s: s < 5, True, "s75 < 5", (2, 4)),
    (lambda s: s <= 2, False, "s75 > 2", (3, None)),
    (lambda s: s == 3, True, "Eq(s75, 3)", (3, 3)),
    (lambda s: s != 3, False, "Eq(s75, 3)", (3, 3)),
    (lambda s: s == 4, False, "Ne(s75, 4)", (2, None)),
    (lambda s: s * 2 > 5, True, "s75 * 2 > 5", (2, None)),
    (lambda s: s > 0, True, None, (2, None)),
])
def test_backed_conditions_record_torchs_guards(cond, held, guard, rng):
    env = ShapeEnv()
    s = env.create_symbol(3, "input0.size()[0]")
    assert bool(cond(s)) is held
    assert [g.expr for g in env.guards] == ([guard] if guard else [])
    assert env.var_to_range["s75"] == rng


def test_check_decides_backed_conditions_and_keeps_unbacked_ones():
    env = ShapeEnv()
    s = env.create_symbol(7, "input0.size()[0]")
    opyard._check(s > 3)
    assert [g.expr for g in env.guards] == ["s75 > 3"]
    with pytest.raises(RuntimeError, match="Expected cond to be True"):
        opyard._check(s > 9)
    u = env.create_unbacked_symint()
    opyard._check(u <= 16)
    assert env.var_to_range["u0"] == (0, 16) and len(env.runtime_asserts) == 1
    with pytest.raises(GuardOnDataDependentSymNode, match="u0"):
        bool(u > 3)
    with pytest.raises(GuardOnDataDependentSymNode, match="u0"):
        int(u)


@pytest.mark.parametrize("val, source, kwargs, error, match", [
    (-1, "input0.size()[0]", {}, ValueError, "positive set for negative value: -1"),
    (2.5, "input0.size()[0]", {}, TypeError, "expected an int value, got float"),
    (True, "input0.size()[0]", {}, TypeError, "expected an int value, got bool"),
])
def test_create_symbol_refuses_bad_values(val, source, kwargs, error, match):
    with pytest.raises(error, match=match):
        ShapeEnv().create_symbol(val, source, **kwargs)


def test_negative_int_input_is_a_symbol():
    env = ShapeEnv()
    s = env.create_symbol(-3, "input1", positive=None)
    assert str(s) == "s30" and env.var_to_range["s30"] == (None, None)
    assert bool(s < 0) and [g.expr for g in env.guards] == ["s30 < 0"]


def test_infix_operators_print_in_code():
    gm = make_fx(lambda x: x.new_zeros(x.shape[0] // 2, x.shape[0] % 2 + 1, x.shape[0] - 1),
                 tracing_mode="symbolic")(opyard.randn(5))
    code = _body(gm)
    assert "floordiv = sym_size_int // 2" in code and "mod = sym_size_int % 2" in code
    assert "sub = sym_size_int - 1" in code
    targets = {n.target for n in gm.graph.nodes if n.op == "call_function"}
    assert {operator.floordiv, operator.mod, operator.sub} <= targets
    assert tuple(gm(opyard.randn(7)).shape) == (3, 2, 6)


@pytest.mark.parametrize("f, shape", [
    (lambda x: x.new_zeros(x.shape[1] - 1), ["s96 - 1"]),
    (lambda x: x.new_zeros(x.shape[0], x.shape[1] - 1), ["s75", "s96 - 1"]),
    (lambda x: opyard.ones(x.shape[1] - 1, 3), ["s96 - 1", "3"]),  # 3 is a constant, not s75
    (lambda x: x.new_zeros(3), ["3"]),
    (lambda x: x.view(x.shape[1], x.shape[0]), ["s96", "s75"]),
    (lambda x: x.view(-1, x.shape[0]), ["s96", "s75"]),
    (lambda x: x.narrow(1, 0, x.shape[1] - 1), ["s75", "s96 - 1"]),
    (lambda x: x.t(), ["s96", "s75"]),
    (lambda x: x.sum(0), ["s96"]),
    (lambda x: x + x.new_zeros(1, x.shape[1]), ["s75", "s96"]),
    (lambda x: x[:, :2], ["s75", "2"]),
])
def test_output_sizes_read_back_as_expressions(f, shape):
    gm = make_fx(f, tracing_mode="symbolic")(opyard.randn(3, 4))
    out = next(n for n in gm.graph.nodes if n.op == "output").args[0]
    assert [str(s) for s in out.meta["val"].shape] == shape


@pytest.mark.parametrize("mode", ["real", "fake", "symbolic"])
def test_nested_inputs_get_one_placeholder_per_tensor(mode):
    def f(xs, y):
        return xs[0] + xs[1] + y
    gm = make_fx(f, tracing_mode=mode)([opyard.randn(3), opyard.randn(3)], opyard.randn(3))
    assert _body(gm)[0] == "xs_1, xs_2, y_1, = self._flatten_inputs([xs, y])"
    assert gm.code.strip().startswith("def forward(self, xs, y):")
    a, b, c = opyard.randn(2), opyard.randn(2), opyard.randn(2)
    assert np.allclose(gm([a, b], c).numpy(), (a + b + c).numpy())  # the new inputs are used
    with pytest.raises(TypeError, match=r"input xs must have the structure it was traced with \(list of 2\), "
                                        r"got tuple of 1"):
        gm((a,), c)
    with pytest.raises(TypeError, match=r"expected 2 inputs \(xs, y\), got 1"):
        gm([a, b])


def test_dict_inputs_follow_insertion_order():
    gm = make_fx(lambda d: d["a"] - d["b"], tracing_mode="symbolic")({"a": opyard.ones(3), "b": opyard.zeros(3)})
    assert _body(gm)[:2] == ["d_1, d_2, = self._flatten_inputs([d])",
                             "sub = opyard.ops.aten.sub.Tensor(d_1, d_2)"]
    assert gm({"a": opyard.ones(2), "b": opyard.ones(2)}).tolist() == [0.0, 0.0]


def test_negation_and_sym_max_print_as_torch_prints_them():
    gm = make_fx(lambda x, n: x.new_zeros(-n), tracing_mode="symbolic")(opyard.randn(3), -4)
    assert _body(gm)[0] == "neg = -n_1"
    assert tuple(gm(opyard.randn(2), -2).shape) == (2,)
    gm = make_fx(lambda x: x.new_zeros(opyard.sym_max(x.shape[0], 5)), tracing_mode="symbolic")(opyard.randn(3))
    assert _body(gm)[1] == "sym_max = opyard.sym_max(sym_size_int, 5)"
    assert "call_function[target=opyard.sym_max](args = (%sym_size_int, 5)" in str(gm.graph)
    assert tuple(gm(opyard.randn(7)).shape) == (7,) and tuple(gm(opyard.randn(2)).shape) == (5,)


@pytest.mark.parametrize("f, shape, stride, contiguous", [
    (lambda x: x.t(), ["s96", "s75"], ["1", "s96"], False),
    (lambda x: x.t().contiguous(), ["s96", "s75"], ["s75", "1"], True),
    (lambda x: x.unsqueeze(1), ["s75", "1", "s96"], ["s96", "s96", "1"], True),
    (lambda x: x.permute(1, 0), ["s96", "s75"], ["1", "s96"], False),
])
def test_strides_are_symbolic_as_in_torch(f, shape, stride, contiguous):
    gm = make_fx(f, tracing_mode="symbolic")(opyard.randn(3, 4))
    val = next(n for n in gm.graph.nodes if n.op == "output").args[0].meta["val"]
    assert [str(s) for s in val.shape] == shape and [str(s) for s in val.stride()] == stride
    assert val.is_contiguous() is contiguous


@pytest.mark.parametrize("f, shape", [
    (lambda x: x.view(-1), ["s75 * s96"]),
    (lambda x: x.flatten(), ["s75 * s96"]),
    (lambda x: x[:, ::2], ["s75", "s58"]),  # torch: (s96 + 1) // 2, a size no argument states
    (lambda x: x.permute(1, 0)[1:], ["s65", "s75"]),  # torch: s96 - 1 (equal to s75 at the hints)
    # torch: ((s75*s96)//2); opyard names it a symbol of its own (a hash of the view's output source)
    (lambda x: x.reshape(-1, 2), ["s85", "2"]),
])
def test_sizes_the_kernel_derives_never_become_constants(f, shape):
    gm = make_fx(f, tracing_mode="symbolic")(opyard.randn(3, 4))
    val = next(n for n in gm.graph.nodes if n.op == "output").args[0].meta["val"]
    assert [str(s) for s in val.shape] == shape
    for name in (str(s) for s in val.shape if isinstance(s, SymInt) and str(s) not in ("s75", "s96")):
        if "*" not in name:
            assert gm.shape_env.var_to_range[name] == (0, None)


def test_a_derived_size_is_recomputed_on_rerun():
    def f(x):
        y = x[:, ::2]
        return x.new_zeros(y.shape[1] * 2)
    gm = make_fx(f, tracing_mode="symbolic")(opyard.randn(3, 4))
    assert "sym_size_int = opyard.ops.aten.sym_size.int(slice_1, 1)" in _body(gm)
    for shape in ((5, 7), (2, 2), (3, 4)):
        assert tuple(gm(opyard.randn(*shape)).shape) == tuple(f(opyard.randn(*shape)).shape)


def test_meta_kernels_of_mutating_ops_run_once_under_symbols():
    calls = []
    lib = opyard.library.Library("t_fxsym2", "FRAGMENT")
    try:
        lib.define("scale_(Tensor(a!) x, SymInt n) -> Tensor(a!)")
        lib.define("grow(Tensor x, SymInt n) -> Tensor")
        lib.impl("scale_", lambda x, n: calls.append("scale_") or x, "Meta")
        lib.impl("grow", lambda x, n: calls.append("grow") or x.new_empty(x.shape[0] + n), "Meta")
        env = ShapeEnv()
        mode = FakeTensorMode(shape_env=env)
        x = mode.from_tensor(opyard.randn(3, 4))
        with mode:
            opyard.ops.t_fxsym2.scale_(x, x.shape[1])
            grown = opyard.ops.t_fxsym2.grow(x, x.shape[1])
        # the functional op's kernel also ran at shifted sizes (Note [Perturbed run]); the mutating one did not
        assert calls == ["scale_", "grow", "grow"]
        # x.shape[0] + n is a size no argument states: a new symbol (torch: s26 + s49), never 7
        assert [str(s) for s in grown.shape] == ["s37"]
        assert env.backed_var_to_val == {"s26": 3, "s49": 4, "s37": 7}
    finally:
        lib._destroy()
