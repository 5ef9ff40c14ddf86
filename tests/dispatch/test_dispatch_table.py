"""Table computation: which kernel a call reaches, for combinations of registrations.

Expected values follow torch's rules (OperatorEntry::computeDispatchTableEntry,
torch/_python_dispatcher.py): direct > CEANF > CEA > CIA (not for an autograd
key whose backend or CEA has a kernel) > Autograd alias > backend fallback.
The autograd keys fall through to the backend when nothing handles them.
"""

import pytest

import opyard
from opyard.dispatcher import DispatchKey
from opyard.library import Library, fallthrough_kernel

CIA = "CompositeImplicitAutograd"
CEA = "CompositeExplicitAutograd"
CEANF = "CompositeExplicitAutogradNonFunctional"
MISSING = NotImplementedError

CASES = [
    # (registered keys, tensor keys, expected kernel)
    (["CPU"], ["CPU"], "CPU"),
    (["CPU"], ["Meta"], MISSING),
    (["CPU", "Meta"], ["CPU", "Meta"], "Meta"),
    (["CUDA", "Meta"], ["CUDA", "Meta"], "Meta"),
    (["PrivateUse1", "CPU"], ["CPU", "PrivateUse1"], "PrivateUse1"),
    ([CEA], ["CPU"], CEA),
    ([CEA], ["Meta"], CEA),
    ([CEA, "CPU"], ["CPU"], "CPU"),
    ([CEA, "CPU"], ["CUDA"], CEA),
    ([CIA], ["CPU"], CIA),
    ([CIA], ["CPU", "AutogradCPU"], CIA),
    ([CIA, "CPU"], ["Meta"], CIA),
    ([CIA, "CPU"], ["CPU", "AutogradCPU"], "CPU"),
    ([CIA, CEA], ["CPU", "AutogradCPU"], CEA),
    ([CIA, CEA], [], CEA),
    ([CIA], [], CIA),
    (["CPU"], [], MISSING),
    (["Autograd", "CPU"], ["CPU", "AutogradCPU"], "Autograd"),
    (["Autograd", "CPU"], ["CPU"], "CPU"),
    (["AutogradCPU", "Autograd", "CPU"], ["CPU", "AutogradCPU"], "AutogradCPU"),
    (["Autograd", "CPU"], ["Meta", "AutogradMeta"], "Autograd"),
    ([CEANF, CEA], ["CPU"], CEANF),
    ([CEANF, CEA], [], CEA),
    ([CEANF], [], MISSING),
    ([CIA, "Autograd"], ["CPU", "AutogradCPU"], CIA),
    ([CIA, "Autograd", "CPU"], ["CPU", "AutogradCPU"], "Autograd"),
    ([CIA, "Autograd", CEA], ["Meta", "AutogradMeta"], "Autograd"),
    (["Tracer", "CPU"], ["CPU"], "CPU"),
    (["AutocastCPU", "CPU"], ["CPU"], "CPU"),
    (["Batched", "CPU"], ["CPU", "Batched"], "Batched"),
    (["Fake", "Meta", "CPU"], ["CPU", "Fake"], "Fake"),
    ([CIA, "Meta"], ["Meta", "AutogradMeta"], "Meta"),
]


def _define(ns, registered):
    lib = Library(ns, "DEF")
    lib.define("op(Tensor x) -> str")
    for key in registered:
        lib.impl("op", (lambda k: lambda x: k)(key), key)
    return lib


@pytest.mark.parametrize("registered, tensor_keys, expected", CASES)
def test_table_entry(ns, kt, registered, tensor_keys, expected):
    lib = _define(ns, registered)
    op = getattr(opyard.ops, ns).op.default
    args = (kt(*tensor_keys),) if tensor_keys else ()
    if not tensor_keys:
        lib.define("op2() -> str")
        for key in registered:
            lib.impl("op2", (lambda k: lambda: k)(key), key)
        op = getattr(opyard.ops, ns).op2.default
    if expected is MISSING:
        # torch's Meta fallback has its own words
        words = "attempted to run this operator with Meta tensors" if "Meta" in tensor_keys else "Could not run"
        with pytest.raises(NotImplementedError, match=f"(Could not run '{ns}::op|{ns}::op: attempted to run)"):
            op(*args)
        with pytest.raises(NotImplementedError, match=words):
            op(*args)
    else:
        assert op(*args) == expected
    opyard._core._check_invariants()


@pytest.mark.parametrize("tls, expected", [
    ({"include": ["Tracer"]}, "Tracer"),
    ({"include": ["AutocastCPU"]}, "AutocastCPU"),
    ({"exclude": ["AutogradCPU"]}, "CPU"),
    ({}, "AutogradCPU"),
])
def test_thread_local_sets(ns, kt, tls, expected):
    lib = _define(ns, ["Tracer", "AutocastCPU", "AutogradCPU", "CPU"])  # noqa: F841 (keep alive)
    op = getattr(opyard.ops, ns).op
    guard = (opyard.dispatcher.include(*tls["include"]) if "include" in tls
             else opyard.dispatcher.exclude(*tls["exclude"]) if "exclude" in tls
             else opyard.dispatcher.include())
    with guard:
        assert op(kt("CPU", "AutogradCPU")) == expected


def test_below_autograd(ns, kt):
    lib = _define(ns, ["Autograd", "CPU"])  # noqa: F841 (keep alive)
    op = getattr(opyard.ops, ns).op
    with opyard.dispatcher.below_autograd():
        assert op(kt("CPU", "AutogradCPU")) == "CPU"
    assert op(kt("CPU", "AutogradCPU")) == "Autograd"


def test_fallthrough_direct_kernel_goes_to_next_key(ns, kt):
    lib = _define(ns, [CEA])
    lib.impl("op", fallthrough_kernel, "AutocastCPU")
    lib.impl("op", lambda x: "CPU", "CPU")
    with opyard.dispatcher.include("AutocastCPU"):
        assert getattr(opyard.ops, ns).op(kt("CPU")) == "CPU"


def test_fallthrough_on_backend_reaches_undefined_slot(ns, kt):
    lib = _define(ns, [CEA])
    lib.impl("op", fallthrough_kernel, "CPU")
    assert getattr(opyard.ops, ns).op(kt("CPU")) == CEA


@pytest.mark.parametrize("fallback_key, registered, tensor_keys, include, expected", [
    ("TESTING_ONLY_GenericMode", ["CPU"], ["CPU"], ["TESTING_ONLY_GenericMode"], "fallback"),
    ("CPU", ["Meta"], ["CPU"], [], "fallback"),
    ("CPU", ["CPU"], ["CPU"], [], "CPU"),
    ("TESTING_ONLY_GenericMode", ["TESTING_ONLY_GenericMode", "CPU"], ["CPU"], ["TESTING_ONLY_GenericMode"],
     "TESTING_ONLY_GenericMode"),
])
def test_backend_fallbacks(ns, kt, fallback_key, registered, tensor_keys, include, expected):
    lib = _define(ns, registered)  # noqa: F841 (keep alive)
    seen = []

    def fallback(op, *args, **kwargs):
        seen.append(op)
        return "fallback"

    g = Library("_", "IMPL")
    try:
        g.fallback(fallback, fallback_key)
        with opyard.dispatcher.include(*include):
            assert getattr(opyard.ops, ns).op(kt(*tensor_keys)) == expected
        if expected == "fallback":
            assert seen[0].name() == f"{ns}::op"
    finally:
        g._destroy()
    calls = len(seen)
    with opyard.dispatcher.include(*include):
        try:
            assert getattr(opyard.ops, ns).op(kt(*tensor_keys)) != "fallback"
        except NotImplementedError:
            pass
    assert len(seen) == calls


def test_fallback_with_keyset_gets_keyset_then_op(ns, kt):
    lib = _define(ns, ["CPU"])  # noqa: F841 (keep alive)
    got = {}

    def fallback(keyset, op, x):
        got["keyset"], got["op"] = keyset, op
        return op.redispatch(keyset.remove(DispatchKey.TESTING_ONLY_GenericMode), x)

    g = Library("_", "IMPL")
    g.fallback(fallback, "TESTING_ONLY_GenericMode", with_keyset=True)
    try:
        with opyard.dispatcher.include("TESTING_ONLY_GenericMode"):
            assert getattr(opyard.ops, ns).op(kt("CPU")) == "CPU"
        assert got["keyset"].has(DispatchKey.TESTING_ONLY_GenericMode) and got["keyset"].has(DispatchKey.CPU)
        assert got["op"] == getattr(opyard.ops, ns).op.default
    finally:
        g._destroy()


# The table engine behind PythonDispatcher, for any keys (PythonDispatcher itself accepts only
# torch's example keys: dispatch/test_backend_and_feature_keys.py). Backend fallbacks are the process's own:
# with no kernel, an autograd key gets opyard.autograd's fallback.
@pytest.mark.parametrize("keys, rows", [
    (["CPU", CIA], {"CPU": ("fn_CPU", "kernel"), "AutogradCPU": (None, "backend fallback"),
                    "AutogradCUDA": ("fn_CompositeImplicitAutograd", "math kernel"),
                    "Meta": ("fn_CompositeImplicitAutograd", "math kernel"),
                    "Undefined": ("fn_CompositeImplicitAutograd", "math kernel")}),
    (["CPU", CEA, CIA], {"AutogradCPU": (None, "backend fallback"),
                         "Meta": ("fn_CompositeExplicitAutograd", "default backend kernel"),
                         "Undefined": ("fn_CompositeExplicitAutograd", "default backend kernel")}),
    (["Autograd", "CPU"], {"AutogradCUDA": ("fn_Autograd", "autograd kernel"), "CUDA": ("missing", "missing")}),
    ([CEANF, CEA], {"CPU": ("fn_CompositeExplicitAutogradNonFunctional", "default backend kernel"),
                    "Undefined": ("fn_CompositeExplicitAutograd", "default backend kernel")}),
    # torch's FuncTorchBatchedDecomposition stands for the vmap key and wins over the math kernel there
    ([CIA, "FuncTorchBatchedDecomposition"], {"Batched": ("fn_FuncTorchBatchedDecomposition", "batched kernel"),
                                              "CPU": ("fn_CompositeImplicitAutograd", "math kernel")}),
    (["FuncTorchBatchedDecomposition"], {"Batched": ("fn_FuncTorchBatchedDecomposition", "batched kernel"),
                                         "CPU": ("missing", "missing")}),
])
def test_what_if_table(keys, rows):
    table = {k: (label, reason) for k, label, reason in opyard._core._what_if(keys)}
    for k, (label, reason) in rows.items():
        assert table[k][1] == reason
        if label is not None:
            assert table[k][0] == label
        else:
            assert table[k][0].startswith("registered at ")
