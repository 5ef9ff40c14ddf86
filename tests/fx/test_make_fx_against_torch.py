"""``make_fx`` records what torch's records: the functions of ``tests/data/fx_cases.py`` traced
``real`` and ``fake`` give torch 2.15's code (``tests/data/torch_make_fx.json``, written by
``tests/data/gen_torch_make_fx.py``, ``make fx-expect``), frees included; and which operators a
trace records or composes follows torch's dispatch tables (``fx/_composites.py``)."""

import json
import os
import sys

import opyard
import pytest
from opyard._aten import OP_NAMES
from opyard._ops import registered_keys
from opyard.fx import _composites
from opyard.fx.experimental.proxy_tensor import make_fx

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data")
sys.path.insert(0, DATA)

from fx_cases import cases  # noqa: E402

with open(os.path.join(DATA, "torch_make_fx.json"), encoding="utf-8") as _f:
    TORCH = json.load(_f)

CASES = cases(opyard)

# Where the trace is not torch's yet, and why. Each must still differ (a fixed one leaves this list).
DIFFERENT = {
    "batch_norm/real": "torch's batch_norm goes through _batch_norm_impl_index (an empty uint8 reserve)",
    "batch_norm/fake": "the same",
    "embedding/real": "torch.tensor inside the traced function: torch records lift_fresh_copy of the constant",
    "embedding/fake": "the same",
    "full_like/real": "torch's Python bindings pass device= and pin_memory= to the factories",
    "full_like/fake": "the same",
    "matmul_1d2d/real": "torch squeezes its temporary in place (squeeze_.dim): opyard has no squeeze_ operator",
    "matmul_1d2d/fake": "the same",
    "one_hot/real": "torch's real trace refuses one_hot (it reads the data); opyard records one_hot",
    "one_hot/fake": "torch composes one_hot of fake data (arange, eq, _to_copy); opyard records one_hot",
    "mask_select/fake": "torch traces a boolean mask of fake data without a shape environment; opyard refuses",
}


def _code(name, mode):
    f, shapes = CASES[name]
    opyard.manual_seed(0)
    args = [opyard.randn(*s) for s in shapes]
    try:
        return make_fx(f, tracing_mode=mode)(*args).code
    except Exception as e:  # noqa: BLE001 - compared with what torch raised
        return f"ERROR {type(e).__name__}: {str(e)[:200]}"


KEYS = sorted(TORCH["graphs"])


def test_the_cases_are_the_recorded_ones():
    assert sorted(f"{n}/{m}" for n in CASES for m in ("real", "fake")) == KEYS
    assert set(DIFFERENT) <= set(KEYS)


@pytest.mark.parametrize("key", [k for k in KEYS if k not in DIFFERENT])
def test_trace_is_torchs(key):
    name, mode = key.split("/")
    assert _code(name, mode) == TORCH["graphs"][key]


@pytest.mark.parametrize("key", sorted(DIFFERENT))
def test_known_differences_still_differ(key):
    name, mode = key.split("/")
    assert _code(name, mode) != TORCH["graphs"][key], f"{key} is torch's now: drop it from DIFFERENT"


def _qualified(name):
    return "aten::" + name.removesuffix(".default")


def _composite_here(name):
    keys = registered_keys(name)
    return "CompositeImplicitAutograd" in keys and not keys & _composites._OWN_KERNEL_KEYS


def test_recorded_composites_are_the_ones_torch_runs_as_kernels():
    torch_composite = set(TORCH["composite"])
    here = {_qualified(n) for n in OP_NAMES if _composite_here(_qualified(n))}
    assert _composites.RECORDED == here - torch_composite


def test_composed_operators_are_torchs_composites_with_a_kernel_here():
    torch_composite = set(TORCH["composite"])
    for name in _composites.COMPOSED:
        assert name in torch_composite, name
        assert not _composite_here(name), name


def test_decomposition_answers():
    A = opyard.ops.aten
    assert _composites.decomposition(A.linear.default) is _composites.CALL_COMPOSITE
    assert _composites.decomposition(A.add.Tensor) is None
    assert _composites.decomposition(A.embedding.default) is None  # composite here, a kernel in torch
    assert _composites.decomposition(A.reshape.default) is _composites.COMPOSED["aten::reshape"]


def test_a_library_composite_is_traced_through_and_a_custom_op_is_recorded():
    lib = opyard.library.Library("fx_cases_lib", "DEF")
    try:
        lib.define("twice(Tensor x) -> Tensor")
        lib.impl("twice", lambda x: x + x, "CompositeImplicitAutograd")

        @opyard.library.custom_op("fx_cases_lib::thrice", mutates_args=())
        def thrice(x: opyard.Tensor) -> opyard.Tensor:
            return x * 3

        @thrice.register_fake
        def _(x):
            return opyard.empty_like(x)

        def f(x):
            return opyard.ops.fx_cases_lib.thrice(opyard.ops.fx_cases_lib.twice(x))

        code = make_fx(f)(opyard.randn(3)).code
        assert "aten.add.Tensor(x_1, x_1)" in code and "twice" not in code
        assert "opyard.ops.fx_cases_lib.thrice.default(add)" in code
    finally:
        lib._destroy()


def test_frees_follow_torch_fx():
    gm = make_fx(lambda x: (x.sin(), x.cos().sum()))(opyard.randn(2))
    lines = gm.code.strip().split("\n")[1:]
    assert lines[0].endswith("sin = opyard.ops.aten.sin.default(x_1)")
    assert lines[1].endswith("cos = opyard.ops.aten.cos.default(x_1);  x_1 = None")
    assert lines[2].endswith("sum_1 = opyard.ops.aten.sum.default(cos);  cos = None")
    assert lines[3].strip() == "return (sin, sum_1)"
