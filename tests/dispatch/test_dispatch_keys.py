import pytest

from opyard.dispatcher import DispatchKey, DispatchKeySet

RUNTIME_ORDER = [
    "CPU", "CUDA", "XLA", "MPS", "XPU", "HPU", "Lazy", "MAIA", "PrivateUse1", "Meta", "FPGA", "NestedTensor",
    "BackendSelect", "Fake", "Python", "Functionalize", "Conjugate", "Negative", "ZeroTensor",
    "ADInplaceOrView", "AutogradOther", "AutogradCPU", "AutogradCUDA", "AutogradXLA", "AutogradMPS",
    "AutogradXPU", "AutogradHPU", "AutogradLazy", "AutogradMAIA", "AutogradPrivateUse1",
    "AutogradMeta", "AutogradNestedTensor", "Tracer", "AutocastCPU", "AutocastCUDA", "Batched", "VmapMode",
    "PythonTLSSnapshot", "TESTING_ONLY_GenericWrapper", "TESTING_ONLY_GenericMode", "PythonDispatcher",
]


def test_runtime_keys_in_priority_order():
    names = [k.name for k in DispatchKey]
    assert names[: len(RUNTIME_ORDER)] == RUNTIME_ORDER
    for alias in ["Undefined", "Autograd", "CompositeImplicitAutograd",
                  "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional",
                  "FuncTorchBatchedDecomposition"]:
        assert alias in names


@pytest.mark.parametrize("keys, highest", [
    (["CPU"], "CPU"),
    (["CPU", "Meta"], "Meta"),
    (["CPU", "AutogradCPU"], "AutogradCPU"),
    (["Meta", "Fake", "CPU"], "Fake"),
    (["Batched", "AutogradCUDA", "CUDA"], "Batched"),
    ([], "Undefined"),
])
def test_highest_priority(keys, highest):
    ks = DispatchKeySet([DispatchKey[k] for k in keys])
    assert ks.highestPriorityTypeId() == DispatchKey[highest]


def test_set_algebra_and_repr():
    a = DispatchKeySet(DispatchKey.CPU) | DispatchKey.AutogradCPU
    assert repr(a) == "DispatchKeySet(CPU, AutogradCPU)"
    assert (a - DispatchKeySet(DispatchKey.AutogradCPU)) == DispatchKeySet(DispatchKey.CPU)
    assert (a & DispatchKeySet(DispatchKey.CPU)).has(DispatchKey.CPU)
    assert list(a) == [DispatchKey.CPU, DispatchKey.AutogradCPU]
    assert DispatchKey.CPU in a and DispatchKey.Meta not in a
    assert a.add(DispatchKey.Meta).has("Meta")
    assert not a.remove(DispatchKey.Autograd).has(DispatchKey.AutogradCPU)
    assert hash(a) == hash(DispatchKeySet([DispatchKey.CPU, DispatchKey.AutogradCPU]))
    assert repr(DispatchKeySet()) == "DispatchKeySet()"


def test_alias_expands():
    ks = DispatchKeySet(DispatchKey.Autograd)
    assert set(k.name for k in ks) == {"AutogradOther", "AutogradCPU", "AutogradCUDA", "AutogradXLA",
                                       "AutogradMPS", "AutogradXPU", "AutogradHPU", "AutogradLazy",
                                       "AutogradMAIA", "AutogradPrivateUse1", "AutogradMeta", "AutogradNestedTensor"}
    cea = DispatchKeySet(DispatchKey.CompositeExplicitAutograd)
    assert [k.name for k in cea] == ["CPU", "CUDA", "XLA", "MPS", "XPU", "HPU", "Lazy", "MAIA",
                                     "PrivateUse1", "Meta", "FPGA"]


@pytest.mark.parametrize("bad", ["XLA2", "cpu", ""])
def test_unknown_key_name(bad):
    with pytest.raises(RuntimeError, match=f"could not parse dispatch key: {bad}"):
        DispatchKeySet(bad)


def test_bad_key_type():
    with pytest.raises(TypeError, match="expected a DispatchKey"):
        DispatchKeySet(3.5)
