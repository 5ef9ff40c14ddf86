"""``opyard._check`` and friends, and the symbolic types fake impls use (torch's semantics)."""

import warnings

import pytest

import opyard
from opyard.fake import GuardOnDataDependentSymNode, ShapeEnv

CHECKS = [
    (opyard._check, RuntimeError),
    (opyard._check_index, IndexError),
    (opyard._check_value, ValueError),
    (opyard._check_type, TypeError),
    (opyard._check_not_implemented, NotImplementedError),
]


@pytest.mark.parametrize("check, exc", CHECKS, ids=[c.__name__ for c, _ in CHECKS])
def test_check_raises_its_type_with_the_message(check, exc):
    check(True, "never shown")
    with pytest.raises(exc, match="^A must be int8$"):
        check(False, "A must be int8")
    with pytest.raises(exc, match=r"^Expected out.shape == \(2, 3\), got \(3,\)$"):
        check(False, lambda: f"Expected out.shape == {(2, 3)}, got {(3,)}")
    with pytest.raises(exc, match="^Expected cond to be True, but got False."):
        check(False)


def test_message_callable_runs_only_on_failure():
    calls = []
    opyard._check(True, lambda: calls.append(1) or "msg")
    assert calls == []


@pytest.mark.parametrize("cond, match", [
    (1, "cond must be a bool, but got <class 'int'>"),
    (None, "cond must be a bool, but got <class 'NoneType'>"),
    ("yes", "cond must be a bool, but got <class 'str'>"),
])
def test_check_refuses_non_bool_conditions(cond, match):
    with pytest.raises(TypeError, match=match):
        opyard._check(cond, "x")


def test_check_refuses_a_tensor_condition_and_names_the_tensor_variant():
    with pytest.raises(TypeError, match=r"use opyard._check_tensor_all\(\)"):
        opyard._check(opyard.ones(2) > 0, "x")
    opyard._check_tensor_all(opyard.ones(2) > 0, "x")
    with pytest.raises(RuntimeError, match="^not all positive$"):
        opyard._check_tensor_all(opyard.tensor([1.0, -1.0]) > 0, lambda: "not all positive")
    with pytest.raises(TypeError, match="must have dtype opyard.bool"):
        opyard._check_tensor_all(opyard.ones(2), "x")


def test_check_with_validates_the_error_type():
    with pytest.raises(AssertionError, match="error_type must be a subclass of Exception but not Warning"):
        opyard._check_with(UserWarning, False, "x")
    with pytest.raises(KeyError):
        opyard._check_with(KeyError, False, "missing")


def test_prims_common_check_takes_the_exception_type_last():
    opyard._prims_common.check(True, lambda: "x")
    with pytest.raises(ValueError, match="^rois must have shape as Tensor\\[K, 5\\]$"):
        opyard._prims_common.check(False, lambda: "rois must have shape as Tensor[K, 5]", ValueError)


def test_check_is_size_warns_like_torch_and_checks_bounds():
    with pytest.warns(FutureWarning, match="_check_is_size will be removed"):
        opyard._check_is_size(64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        opyard._check_is_size(0, max=4)
        with pytest.raises(RuntimeError, match="^blocksize$"):
            opyard._check_is_size(-1, "blocksize")
        with pytest.raises(RuntimeError, match="Expected cond to be True"):
            opyard._check_is_size(5, max=4)
        with pytest.raises(TypeError, match="expected an int or SymInt size, got float '1.5'"):
            opyard._check_is_size(1.5)


# --- on symbolic sizes ------------------------------------------------------------------------------

def test_undecided_comparison_is_a_symbool_that_refuses_to_branch():
    u0 = ShapeEnv().create_unbacked_symint()
    cond = u0 < 5
    assert isinstance(cond, opyard.SymBool)
    assert str(cond) == "u0 < 5"
    with pytest.raises(GuardOnDataDependentSymNode, match=r"u0 < 5 \(value range of u0: \[0, inf\]\)"):
        bool(cond)
    with pytest.raises(GuardOnDataDependentSymNode):
        if u0 > 3:
            pass
    assert (u0 >= 0) is True  # decided by the range: a plain bool


def test_check_on_a_symbol_records_the_assertion_and_narrows_its_range():
    env = ShapeEnv()
    u0 = env.create_unbacked_symint()
    opyard._check(u0 <= 16)
    assert env.runtime_asserts and str(env.runtime_asserts[0]) == "u0 <= 16"
    assert env.var_to_range["u0"] == (0, 16)
    assert (u0 < 17) is True
    opyard._check(u0 > 2)
    assert u0.value_range() == (3, 16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        u1 = env.create_unbacked_symint()
        opyard._check_is_size(u1, max=8)
    assert u1.value_range() == (0, 8)


def test_check_on_a_compound_expression_is_recorded_without_narrowing():
    env = ShapeEnv()
    u0 = env.create_unbacked_symint()
    opyard._check(u0 * 2 < 10)
    assert [str(a) for a in env.runtime_asserts] == ["u0 * 2 < 10"]
    assert u0.value_range() == (0, None)


def test_sym_not():
    u0 = ShapeEnv().create_unbacked_symint()
    assert opyard.sym_not(True) is False
    negated = opyard.sym_not(u0 < 4)
    assert isinstance(negated, opyard.SymBool) and str(negated) == "Not(u0 < 4)"
    assert str(opyard.sym_not(negated)) == "u0 < 4"


@pytest.mark.parametrize("fn, a, b, expected", [
    (opyard.sym_max, 3, 5, 5), (opyard.sym_min, 3, 5, 3),
    (opyard.sym_max, 2, 3.0, 3.0), (opyard.sym_min, 2.5, 7, 2.5),
])
def test_sym_max_min_on_numbers_promote_like_torch(fn, a, b, expected):
    out = fn(a, b)
    assert out == expected and type(out) is type(expected)


def test_sym_max_min_on_symbols():
    env = ShapeEnv()
    u0 = env.create_unbacked_symint(min=0, max=10)
    assert opyard.sym_max(u0, 12) == 12  # decided: the range lies below 12
    assert opyard.sym_min(u0, 12) is u0
    m = opyard.sym_max(u0, 3)
    assert isinstance(m, opyard.SymInt) and str(m) == "max(u0, 3)"
    assert m.value_range() == (3, 10)
    n = opyard.sym_min(4, u0)
    assert str(n) == "min(4, u0)" and n.value_range() == (0, 4)
    with pytest.raises(TypeError, match="opyard.sym_max: expected int, float, SymInt or SymFloat"):
        opyard.sym_max(u0, "3")


def test_sym_int_and_sym_float():
    u0 = ShapeEnv().create_unbacked_symint()
    assert opyard.sym_int(3.9) == 3 and opyard.sym_float(2) == 2.0
    f = opyard.sym_float(u0)
    assert isinstance(f, opyard.SymFloat) and str(f) == "u0"
    assert opyard.sym_int(f) is u0
    assert opyard.sym_int(u0) is u0
    scaled = f * 0.5 + 1
    assert isinstance(scaled, opyard.SymFloat) and str(scaled) == "((u0 * 0.5) + 1)"
    with pytest.raises(GuardOnDataDependentSymNode, match="concrete float"):
        float(scaled)
    with pytest.raises(GuardOnDataDependentSymNode, match="concrete int"):
        opyard.sym_int(scaled)
    assert isinstance(opyard.sym_max(f, 1.0), opyard.SymFloat)


def test_symbolic_max_in_a_traced_graph_recomputes_on_rerun():
    lib = opyard.library.Library("compat_sym", "DEF")
    try:
        lib.define("pad_to(Tensor x, int n) -> Tensor")
        lib.impl("pad_to", lambda x, n: opyard.zeros(max(x.shape[0], n)), "CompositeExplicitAutograd")

        def fake(x, n):
            return x.new_empty(opyard.sym_max(x.shape[0], n))
        opyard.library.register_fake("compat_sym::pad_to", fake)
        gm = opyard.fx.make_fx(lambda x: opyard.ops.compat_sym.pad_to(x, 4), tracing_mode="symbolic")(opyard.ones(6))
        assert tuple(gm(opyard.ones(6)).shape) == (6,)
        assert tuple(gm(opyard.ones(2)).shape) == (4,)
    finally:
        lib._destroy()
