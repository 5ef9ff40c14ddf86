"""torch's private spellings exist in opyard under the same names, as the public objects."""

import importlib

import pytest

import opyard
from opyard import _compat
from opyard.dispatcher import DispatchKey, DispatchKeySet
from opyard.library import Library

# (private module, name, the public object it must be)
PUBLIC_HOMES = [
    ("opyard", "_check", lambda: opyard.fake.checks.check),
    ("opyard", "_check_is_size", lambda: opyard.fake.checks.check_is_size),
    ("opyard", "_check_value", lambda: opyard.fake.checks.check_value),
    ("opyard", "_check_index", lambda: opyard.fake.checks.check_index),
    ("opyard", "_check_type", lambda: opyard.fake.checks.check_type),
    ("opyard", "_check_not_implemented", lambda: opyard.fake.checks.check_not_implemented),
    ("opyard", "SymInt", lambda: opyard.fake.SymInt),
    ("opyard", "SymBool", lambda: opyard.fake.symbolic.SymBool),
    ("opyard", "SymFloat", lambda: opyard.fake.sym.SymFloat),
    ("opyard", "sym_max", lambda: opyard.fake.sym.sym_max),
    ("opyard", "Tag", lambda: opyard._ops.Tag),
    ("opyard._C", "Tag", lambda: opyard.Tag),
    ("opyard._C", "DispatchKey", lambda: opyard.dispatcher.DispatchKey),
    ("opyard._C", "DispatchKeySet", lambda: opyard.dispatcher.DispatchKeySet),
    ("opyard._C", "parse_schema", lambda: opyard.parse_schema),
    ("opyard._C", "FunctionSchema", lambda: opyard.FunctionSchema),
    ("opyard._C", "_disabled_torch_function_impl", lambda: opyard.overrides._disabled_torch_function_impl),
    ("opyard._C", "DisableTorchFunctionSubclass", lambda: opyard.overrides.DisableTorchFunctionSubclass),
    ("opyard._C", "DisableTorchFunction", lambda: opyard.overrides.DisableTorchFunction),
    ("opyard._C", "_AutoDispatchBelowAutograd", lambda: opyard.dispatcher.below_autograd),
    ("opyard._C", "_dispatch_find_dangling_impls", lambda: opyard.library.find_dangling_impls),
    ("opyard._subclasses", "FakeTensorMode", lambda: opyard.fake.FakeTensorMode),
    ("opyard._subclasses.fake_tensor", "FakeTensorMode", lambda: opyard.fake.FakeTensorMode),
    ("opyard._subclasses.fake_tensor", "FakeTensor", lambda: opyard.fake.FakeTensor),
    ("opyard.fx.experimental.proxy_tensor", "make_fx", lambda: opyard.fx.make_fx),
    ("opyard.fx.experimental.symbolic_shapes", "ShapeEnv", lambda: opyard.fake.ShapeEnv),
    ("opyard.fx.experimental.symbolic_shapes", "GuardOnDataDependentSymNode",
     lambda: opyard.fake.GuardOnDataDependentSymNode),
    ("opyard._python_dispatcher", "PythonDispatcher", lambda: opyard.dispatcher.PythonDispatcher),
    ("opyard._ops", "OpOverload", lambda: opyard._core.OpOverload),
    ("opyard._ops", "OpOverloadPacket", lambda: opyard._core.OpOverloadPacket),
    ("opyard._ops", "ops", lambda: opyard.ops),
    ("opyard._custom_ops", "get_ctx", lambda: opyard.library.get_ctx),
    ("opyard._prims_common", "check", lambda: opyard._compat._prims_check),
]


@pytest.mark.parametrize("module, name, home", PUBLIC_HOMES, ids=[f"{m}.{n}" for m, n, _ in PUBLIC_HOMES])
def test_private_spelling_is_the_public_object(module, name, home):
    assert getattr(importlib.import_module(module), name) is home()


@pytest.mark.parametrize("module", sorted(_compat.ALIASES))
def test_every_row_of_the_table_is_reachable_by_attribute(module):
    target = opyard
    for part in module.split(".")[1:]:
        target = getattr(target, part)
    for name, obj in _compat.ALIASES[module].items():
        assert getattr(target, name) is obj, f"{module}.{name}"
    if module != "opyard":
        assert sorted(target.__all__) == sorted(_compat.ALIASES[module])


def test_from_import_forms_work():
    from opyard._subclasses.fake_tensor import FakeTensorMode
    from opyard.fx.experimental.proxy_tensor import make_fx
    from opyard.fx.experimental.symbolic_shapes import ShapeEnv

    with FakeTensorMode(shape_env=ShapeEnv()):
        y = opyard.empty(2, 3) @ opyard.empty(3, 4)
    assert tuple(y.shape) == (2, 4)
    gm = make_fx(lambda x: x.sin())(opyard.ones(2))
    assert "sin" in gm.code


def test_public_symbolic_names_are_exported():
    for name in ("SymInt", "SymFloat", "SymBool", "sym_int", "sym_float", "sym_max", "sym_min", "sym_not",
                 "Tag", "version"):
        assert name in opyard.__all__
    assert "_check" not in opyard.__all__  # private in torch, private here


# --- opyard._C: registration queries ---------------------------------------------------------------

@pytest.fixture
def lib():
    lib = Library("compat_c", "DEF")
    lib.define("f(Tensor x) -> Tensor")
    lib.define("f.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)")
    yield lib
    lib._destroy()


def test_has_kernel_for_dispatch_key_counts_direct_registrations_only(lib):
    lib.impl("f", lambda x: x + 1, "CompositeExplicitAutograd")
    lib.impl("f.out", lambda x, out: out, "CPU")
    op = opyard.ops.compat_c.f.default
    assert op.has_kernel_for_dispatch_key(DispatchKey.CompositeExplicitAutograd)
    assert not op.has_kernel_for_dispatch_key(DispatchKey.CPU)  # CEA covers CPU but is not a CPU kernel
    assert opyard.ops.compat_c.f.out.has_kernel_for_dispatch_key("CPU")
    assert opyard._C._dispatch_has_kernel_for_dispatch_key("compat_c::f", "CompositeExplicitAutograd")
    assert not opyard._C._dispatch_has_kernel_for_dispatch_key("compat_c::f", "Meta")
    assert opyard._C._dispatch_has_kernel_for_dispatch_key("compat_c::f.out", "CPU")


def test_has_kernel_for_any_dispatch_key_ignores_alias_keys(lib):
    lib.impl("f", lambda x: x + 1, "CompositeImplicitAutograd")
    op = opyard.ops.compat_c.f.default
    cpu = DispatchKeySet(DispatchKey.CPU)
    assert not op.has_kernel_for_any_dispatch_key(cpu)
    assert not opyard._C._dispatch_has_kernel_for_any_dispatch_key("compat_c::f", cpu)
    lib.impl("f", lambda x: x + 2, "Meta")
    assert op.has_kernel_for_any_dispatch_key(cpu | DispatchKey.Meta)
    assert opyard._C._dispatch_has_kernel("compat_c::f")
    assert not opyard._C._dispatch_has_kernel("compat_c::f.out")


def test_registration_queries_see_destroyed_libraries_go(lib):
    extra = Library("compat_c", "IMPL")
    extra.impl("f", lambda x: x, "CPU")
    assert opyard.ops.compat_c.f.default.has_kernel_for_dispatch_key("CPU")
    extra._destroy()
    assert not opyard.ops.compat_c.f.default.has_kernel_for_dispatch_key("CPU")


@pytest.mark.parametrize("call, exc, match", [
    (lambda: opyard._C._dispatch_has_kernel_for_dispatch_key("compat_c::nope", "CPU"), RuntimeError,
     "operator compat_c::nope does not exist"),
    (lambda: opyard._C._dispatch_has_kernel_for_dispatch_key("compat_c::f", "Bogus"), RuntimeError,
     "could not parse dispatch key: Bogus"),
    (lambda: opyard.ops.compat_c.f.default.has_kernel_for_dispatch_key("cpu"), RuntimeError,
     "could not parse dispatch key: cpu"),
    (lambda: opyard._C._dispatch_has_kernel(42), TypeError, "expected an operator name"),
    (lambda: opyard._C._dispatch_key_for_device("tpu"), RuntimeError, "device string: tpu"),
    (lambda: opyard._C._dispatch_keys([1, 2]), TypeError, "expected a Tensor, got list"),
])
def test_c_query_errors(lib, call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_dump_functions_are_the_dispatcher_formats(lib):
    lib.impl("f", lambda x: x, "CPU")
    assert opyard._C._dispatch_dump("compat_c::f") == opyard.dispatcher.dump("compat_c::f")
    assert opyard._C._dispatch_dump_table("compat_c::f") == opyard.dispatcher.dump_table("compat_c::f")
    assert "CPU: registered at" in opyard._C._dispatch_dump("compat_c::f")


def test_dispatch_keys_of_a_tensor():
    keys = opyard._C._dispatch_keys(opyard.ones(2))
    assert keys.has(DispatchKey.CPU)
    assert not keys.has(DispatchKey.AutogradCPU)
    assert opyard._C._dispatch_keys(opyard.ones(2, requires_grad=True)).has(DispatchKey.AutogradCPU)


@pytest.mark.parametrize("device, key", [("cpu", "CPU"), ("cuda", "CUDA"), ("meta", "Meta"),
                                         ("privateuseone", "PrivateUse1")])
def test_dispatch_key_for_device(device, key):
    assert opyard._C._dispatch_key_for_device(device) == key


def test_key_guards_change_and_restore_thread_local_sets(lib):
    calls = []
    lib.impl("f", lambda x: calls.append("cpu") or x, "CPU")
    lib.impl("f", lambda x: calls.append("autograd") or x, "AutogradCPU")
    x = opyard.ones(1, requires_grad=True)
    opyard.ops.compat_c.f(x)
    with opyard._C._ExcludeDispatchKeyGuard(DispatchKeySet(DispatchKey.AutogradCPU)):
        assert opyard._C._dispatch_tls_is_dispatch_key_excluded(DispatchKey.AutogradCPU)
        opyard.ops.compat_c.f(x)
    with opyard._C._AutoDispatchBelowAutograd():
        opyard.ops.compat_c.f(x)
    assert calls == ["autograd", "cpu", "cpu"]
    assert not opyard._C._dispatch_tls_is_dispatch_key_excluded(DispatchKey.AutogradCPU)


def test_include_force_and_preserve_guards():
    key = DispatchKey.Functionalize
    with opyard._C._IncludeDispatchKeyGuard(key):
        assert opyard._C._dispatch_tls_local_include_set().has(key)
        assert opyard._C._dispatch_tls_is_dispatch_key_included(key)
        with opyard._C._ForceDispatchKeyGuard(DispatchKeySet(), DispatchKeySet(DispatchKey.Meta)):
            assert not opyard._C._dispatch_tls_is_dispatch_key_included(key)
            assert opyard._C._dispatch_tls_local_exclude_set().has(DispatchKey.Meta)
        assert opyard._C._dispatch_tls_is_dispatch_key_included(key)
        assert not opyard._C._dispatch_tls_local_exclude_set().has(DispatchKey.Meta)
    with pytest.raises(ZeroDivisionError):
        with opyard._C._PreserveDispatchKeyGuard():
            opyard._C._IncludeDispatchKeyGuard(key).__enter__()  # left open on purpose
            1 / 0
    assert not opyard._C._dispatch_tls_is_dispatch_key_included(key)


# --- tags -------------------------------------------------------------------------------------------

def test_tags_recorded_at_define_and_read_from_the_overload():
    lib = Library("compat_tags", "DEF")
    try:
        lib.define("g(Tensor x) -> Tensor", tags=opyard._C.Tag.needs_fixed_stride_order)
        lib.define("h(Tensor x) -> Tensor", tags=(opyard.Tag.core, opyard.Tag.pt2_compliant_tag))
        lib.define("k(Tensor x) -> Tensor")
        assert opyard.ops.compat_tags.g.default.tags == [opyard.Tag.needs_fixed_stride_order]
        assert opyard.ops.compat_tags.h.default.tags == [opyard.Tag.core, opyard.Tag.pt2_compliant_tag]
        assert opyard.ops.compat_tags.k.default.tags == []
        with pytest.raises(TypeError, match=r"tags must be opyard.Tag members .* got 'core'"):
            lib.define("bad(Tensor x) -> Tensor", tags="core")
    finally:
        lib._destroy()


def test_custom_op_is_tagged_pt2_compliant_then_with_its_tags():
    @opyard.library.custom_op("compat_tags::co", mutates_args=(), tags=(opyard.Tag.needs_fixed_stride_order,))
    def co(x: opyard.Tensor) -> opyard.Tensor:
        return x.clone()
    try:
        assert co._opoverload.tags == [opyard.Tag.pt2_compliant_tag, opyard.Tag.needs_fixed_stride_order]
    finally:
        co._destroy()


def test_tag_prints_like_torch():
    assert str(opyard.Tag.core) == "Tag.core"
    assert repr(opyard.Tag.pt2_compliant_tag) == "<Tag.pt2_compliant_tag: 17>"


def test_only_the_facade_and_the_alias_modules_import_the_alias_table():
    # The alias layer sits on top: a module below importing it would invert the layers.
    import ast
    import pathlib

    root = pathlib.Path(opyard.__file__).parent
    allowed = {m.removeprefix("opyard").lstrip(".").replace(".", "/") for m in _compat.ALIASES}
    importers = set()
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module is None:
                names = [a.name for a in node.names]
            if any(n.split(".")[-1] == "_compat" for n in names):
                rel = path.relative_to(root).with_suffix("").as_posix().removesuffix("/__init__")
                importers.add("" if rel == "__init__" else rel)
    assert importers and importers <= allowed | {""}, sorted(importers - allowed - {""})


def test_overload_objects_are_cached_per_packet():
    # Real code compares overloads by identity (`func is torch.ops.aten.add.Tensor`).
    assert opyard.ops.aten.add.Tensor is opyard.ops.aten.add.Tensor
    assert opyard.ops.aten.sin.default is opyard.ops.aten.sin.default
    lib = opyard.library.Library("ovl_identity", "DEF")
    lib.define("f(Tensor x) -> Tensor")
    first = opyard.ops.ovl_identity.f.default
    assert first is opyard.ops.ovl_identity.f.default
    lib._destroy()
    lib = opyard.library.Library("ovl_identity", "DEF")
    try:
        lib.define("f(Tensor x) -> Tensor")
        lib.impl("f", lambda x: x * 2, "CPU")
        again = opyard.ops.ovl_identity.f.default
        assert again is not first  # a redefined operator is a new object, not the destroyed one
        assert again(opyard.ones(2)).tolist() == [2.0, 2.0]
    finally:
        lib._destroy()
