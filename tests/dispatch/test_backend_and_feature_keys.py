"""The dispatch keys users name beyond CPU/CUDA/Meta (registration, dispatch, dump, guards,
fallbacks at them) and torch's key-set layout (``raw_repr``); ``PythonDispatcher`` with these keys:
``test_python_dispatcher.py``."""

import pytest

import opyard
from opyard.dispatcher import DispatchKey, DispatchKeySet
from opyard.library import Library

CIA = "CompositeImplicitAutograd"
CEA = "CompositeExplicitAutograd"
MISSING = NotImplementedError

NEW_BACKENDS = ["XLA", "MPS", "XPU", "HPU", "Lazy", "MAIA"]


def _define(ns, registered):
    lib = Library(ns, "DEF")
    lib.define("op(Tensor x) -> str")
    for key in registered:
        lib.impl("op", (lambda k: lambda x: k)(key), key)
    return lib


@pytest.mark.parametrize("registered, tensor_keys, expected", [
    *[([b], [b], b) for b in NEW_BACKENDS + ["FPGA"]],
    *[([f"Autograd{b}", b], [b, f"Autograd{b}"], f"Autograd{b}") for b in NEW_BACKENDS],
    (["Autograd", "XLA"], ["XLA", "AutogradXLA"], "Autograd"),
    (["AutogradOther", "FPGA"], ["FPGA", "AutogradOther"], "AutogradOther"),
    ([CEA], ["HPU"], CEA),
    ([CEA], ["FPGA"], CEA),
    ([CIA], ["MPS", "AutogradMPS"], CIA),
    ([CIA, "XPU"], ["XPU", "AutogradXPU"], "XPU"),
    # Mixed backends: the highest wins, FPGA above every dense backend, as in torch.
    (["CPU", "XLA"], ["CPU", "XLA"], "XLA"),
    (["Lazy", "Meta"], ["Lazy", "Meta"], "Meta"),
    (["Meta", "FPGA"], ["Meta", "FPGA"], "FPGA"),
    (["XLA"], ["CPU"], MISSING),
    (["CPU"], ["MAIA"], MISSING),
    # Functionality keys: only a direct kernel (or fallback) serves them.
    (["ZeroTensor", "CPU"], ["CPU", "ZeroTensor"], "ZeroTensor"),
    (["Conjugate", "Negative", "CPU"], ["CPU", "Conjugate", "Negative"], "Negative"),
    (["Functionalize", "CPU"], ["CPU", "Functionalize"], "Functionalize"),
    (["TESTING_ONLY_GenericWrapper", "CPU"], ["CPU", "TESTING_ONLY_GenericWrapper"],
     "TESTING_ONLY_GenericWrapper"),
    (["TESTING_ONLY_GenericMode", "TESTING_ONLY_GenericWrapper", "CPU"],
     ["CPU", "TESTING_ONLY_GenericWrapper", "TESTING_ONLY_GenericMode"],
     "TESTING_ONLY_GenericMode"),
    # Conjugate/Negative/ZeroTensor fall through by default (opyard has no conj/neg bits).
    (["CPU"], ["CPU", "Conjugate", "ZeroTensor"], "CPU"),
    ([CIA], ["CPU", "TESTING_ONLY_GenericMode"], MISSING),
])
def test_registration_and_dispatch_at_new_keys(ns, kt, registered, tensor_keys, expected):
    lib = _define(ns, registered)  # noqa: F841 (keep alive)
    op = getattr(opyard.ops, ns).op.default
    if expected is MISSING:
        with pytest.raises(NotImplementedError, match=f"Could not run '{ns}::op"):
            op(kt(*tensor_keys))
    else:
        assert op(kt(*tensor_keys)) == expected
    opyard._core._check_invariants()


def test_missing_kernel_names_the_new_key(ns, kt):
    lib = _define(ns, ["CPU"])  # noqa: F841 (keep alive)
    with pytest.raises(NotImplementedError, match=r"from the 'XLA' backend.*\[CPU"):
        getattr(opyard.ops, ns).op(kt("XLA"))


def test_fpga_kernel_with_math_kernel_is_ambiguous_for_autograd_other(ns):
    lib = _define(ns, ["FPGA", CIA])  # noqa: F841 (keep alive)
    table = opyard.dispatcher.dump_table(f"{ns}::op")
    assert "AutogradOther: ambiguous_autogradother [ambiguous autogradother]" in table
    assert "AutogradXLA: _define.<locals>.<lambda>.<locals>.<lambda> [math kernel]" in table


def test_explain_and_dump_table_show_new_keys(ns, kt, capsys):
    lib = _define(ns, ["HPU", "AutogradHPU"])  # noqa: F841 (keep alive)
    table = opyard.dispatcher.dump_table(f"{ns}::op")
    assert table.startswith("HPU: _define.<locals>.<lambda>.<locals>.<lambda> [kernel]")
    assert "AutogradHPU: _define.<locals>.<lambda>.<locals>.<lambda> [kernel]" in table
    e = opyard.dispatcher.explain(getattr(opyard.ops, ns).op, kt("HPU", "AutogradHPU"))
    assert e.key == "AutogradHPU" and e.reason == "kernel"
    assert "DispatchKeySet(HPU, AutogradHPU)" in capsys.readouterr().out


@pytest.mark.parametrize("keys, raw", [
    # Values torch 2.15 prints for DispatchKeySet(...).raw_repr().
    (["CPU"], 65537),
    (["CPU", "AutogradCPU"], 68719542273),
    (["Meta"], 98304),
    (["Functionalize"], 1073741824),
    (["XLA", "PythonDispatcher"], 2305843009213759496),
    (["FPGA"], 131072),
    (["MAIA"], 67584),
    (["TESTING_ONLY_GenericWrapper"], 288230376151711744),
    ([], 0),
])
def test_raw_repr_is_torchs_layout(keys, raw):
    ks = DispatchKeySet([DispatchKey[k] for k in keys])
    assert ks.raw_repr() == raw
    assert DispatchKeySet.from_raw_repr(raw) == ks


def test_raw_repr_is_not_injective_as_torch():
    lossy = DispatchKeySet(["CPU", "AutogradXLA"])
    assert DispatchKeySet.from_raw_repr(lossy.raw_repr()) == DispatchKeySet(
        ["CPU", "XLA", "AutogradCPU", "AutogradXLA"])
    assert lossy.raw() != lossy.raw_repr()  # opyard's own bits are one per key


@pytest.mark.parametrize("raw, bits", [
    ((1 << 16) | (1 << 2), "0x10004"),  # Dense + HIP: a backend opyard lacks
    ((1 << 23) | 65537, "0x800000"),  # Sparse next to CPU
    (1, "0x1"),  # a backend bit with no functionality
])
def test_from_raw_repr_rejects_unknown_bits(raw, bits):
    error = rf"from_raw_repr\({raw}\): bits {bits} name no dispatch key"
    with pytest.raises(RuntimeError, match=error):
        DispatchKeySet.from_raw_repr(raw)


@pytest.mark.parametrize("name", ["AutogradCPU", "AutogradXLA", "XLA", "Lazy", "ZeroTensor",
                                  "TESTING_ONLY_GenericMode", "AutogradMAIA", "FPGA"])
def test_new_keys_in_sets_and_guards(name, ns, kt):
    key = DispatchKey[name]
    assert DispatchKeySet(name).has(key) and repr(DispatchKeySet(key)) == f"DispatchKeySet({name})"
    with opyard.dispatcher.include(name):
        assert opyard.dispatcher.local_keysets()[0].has(key)


def test_boxed_fallback_at_testing_only_key_runs_under_include(ns, kt):
    lib = _define(ns, ["CPU"])  # noqa: F841 (keep alive)
    seen = []

    def fallback(keyset, op, *args, **kwargs):
        seen.append(keyset.highestPriorityTypeId())
        with opyard.dispatcher.exclude("TESTING_ONLY_GenericMode"):
            return op.redispatch(keyset.remove("TESTING_ONLY_GenericMode"), *args, **kwargs)

    g = Library("_", "IMPL")
    g.fallback(fallback, "TESTING_ONLY_GenericMode", with_keyset=True)
    try:
        op = getattr(opyard.ops, ns).op
        assert op(kt("CPU")) == "CPU" and seen == []
        with opyard.dispatcher.include("TESTING_ONLY_GenericMode"):
            assert op(kt("CPU")) == "CPU"
        assert seen == [DispatchKey.TESTING_ONLY_GenericMode]
        row = "TESTING_ONLY_GenericMode: " + fallback.__qualname__ + " [backend fallback]"
        assert row in opyard.dispatcher.dump_table(f"{ns}::op")
    finally:
        g._destroy()
    assert "TESTING_ONLY_GenericMode" not in opyard.dispatcher.dump_table(f"{ns}::op")


def test_dump_lists_registrations_at_new_keys(ns):
    lib = _define(ns, ["MAIA", "AutogradMAIA", "ZeroTensor"])  # noqa: F841 (keep alive)
    dump = opyard.dispatcher.dump(f"{ns}::op")
    for key in ["MAIA", "AutogradMAIA", "ZeroTensor"]:
        assert f"\n{key}: registered at " in dump
