"""``FuncTorchBatchedDecomposition``: the alias key of a kernel vmap runs in place of the per-example rule.

torch 2.15: a kernel registered there serves ``FuncTorchBatched`` (opyard's ``Batched``), wins over the
operator's CompositeImplicitAutograd kernel under vmap, leaves the plain call alone, shows as an alias
registration in ``_dispatch_dump`` and as a "batched kernel" row of the table; a fallback there is refused
because vmap's own fallback holds the key.
"""

import itertools

import pytest

import opyard
from opyard.library import Library


_NAMESPACES = (f"batched_decomp_{i}" for i in itertools.count())


@pytest.fixture
def lib():
    ns = next(_NAMESPACES)
    library = Library(ns, "DEF")
    yield ns, library
    library._destroy()


def test_key_is_a_dispatch_key_member_and_an_alias():
    key = opyard._C.DispatchKey.FuncTorchBatchedDecomposition
    assert key.name == "FuncTorchBatchedDecomposition"
    assert opyard._C._dispatch_is_alias_key(key)


@pytest.mark.parametrize("key, alias, included", [
    ("Batched", "FuncTorchBatchedDecomposition", True),
    ("CPU", "FuncTorchBatchedDecomposition", False),
    ("CPU", "CompositeImplicitAutograd", True),
    ("Batched", "CompositeExplicitAutograd", False),
    ("AutogradCPU", "Autograd", True),
    ("CPU", "CPU", True),
])
def test_included_in_alias(key, alias, included):
    K = opyard._C.DispatchKey
    assert opyard._C._dispatch_is_included_in_alias(K[key], K[alias]) is included


@pytest.mark.parametrize("name, alias", [("CPU", False), ("Autograd", True), ("CompositeImplicitAutograd", True),
                                         ("Undefined", False), ("Batched", False)])
def test_is_alias_key(name, alias):
    assert opyard._C._dispatch_is_alias_key(opyard._C.DispatchKey[name]) is alias


def test_alias_queries_take_key_members_only():
    with pytest.raises(TypeError, match="_dispatch_is_alias_key\\(\\): argument must be a DispatchKey member"):
        opyard._C._dispatch_is_alias_key("CPU")


@pytest.mark.parametrize("key", ["FuncTorchBatchedDecomposition",
                                 opyard._C.DispatchKey.FuncTorchBatchedDecomposition])
def test_decomposition_kernel_serves_vmap_and_not_the_plain_call(lib, key):
    ns, library = lib
    library.define("f(Tensor x) -> Tensor")
    library.impl("f", lambda x: x + 1, "CompositeImplicitAutograd")
    library.impl("f", lambda x: x * 10, key)
    op = getattr(opyard.ops, ns).f
    x = opyard.ones(2, 3)
    assert opyard.vmap(op)(x).tolist() == [[10.0] * 3] * 2
    assert op(x).tolist() == [[2.0] * 3] * 2


def test_registration_shows_in_queries_and_dumps(lib):
    ns, library = lib
    library.define("f(Tensor x) -> Tensor")
    library.impl("f", lambda x: x * 10, "FuncTorchBatchedDecomposition")
    name = f"{ns}::f"
    assert opyard._C._dispatch_has_kernel_for_dispatch_key(name, "FuncTorchBatchedDecomposition")
    assert getattr(opyard.ops, ns).f.default.has_kernel_for_dispatch_key("FuncTorchBatchedDecomposition")
    assert "FuncTorchBatchedDecomposition[alias]: registered at" in opyard._C._dispatch_dump(name)
    rows = [row for row in opyard._C._dispatch_dump_table(name).splitlines() if row.startswith("Batched:")]
    assert rows and rows[0].endswith("[batched kernel]")


def test_destroying_the_library_frees_the_vmap_slot(lib):
    ns, library = lib
    library.define("f(Tensor x) -> Tensor")
    library.impl("f", lambda x: x + 1, "CompositeImplicitAutograd")
    extra = Library(ns, "IMPL")
    extra.impl("f", lambda x: x * 10, "FuncTorchBatchedDecomposition")
    op = getattr(opyard.ops, ns).f
    assert opyard.vmap(op)(opyard.ones(2)).tolist() == [10.0, 10.0]
    extra._destroy()
    assert opyard.vmap(op)(opyard.ones(2)).tolist() == [2.0, 2.0]


def test_fallback_at_the_alias_is_refused_as_torch():
    library = Library("_", "IMPL")
    try:
        with pytest.raises(RuntimeError, match="Tried to register multiple backend fallbacks for the same "
                                               "dispatch key Batched"):
            library.fallback(lambda op, *args, **kwargs: None, "FuncTorchBatchedDecomposition")
    finally:
        library._destroy()
