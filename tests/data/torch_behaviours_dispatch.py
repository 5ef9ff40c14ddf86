"""Dispatcher snippets (see ``torch_behaviours.py`` for the format): torch's ``_C`` key guards,
``dump_table`` rows, the Meta fallback, ``Layout``/``MemoryFormat`` arguments, SymInt results.

Every snippet defines its operators in a namespace of its own, so all of them run in one process.
"""

from torch_behaviours import snippet


def dispatch_snippet(name, code, check="value"):
    snippet(name, code, check, area="dispatch")


# --- the _C key guards ---------------------------------------------------------------------------

_GUARDS = """
C = T._C
K = C.DispatchKey
S = C.DispatchKeySet
def sets():
    return [C._dispatch_tls_is_dispatch_key_included(K.CPU), C._dispatch_tls_is_dispatch_key_excluded(K.AutogradCPU),
            C._dispatch_tls_is_dispatch_key_included(K.Functionalize)]
"""
dispatch_snippet("key_guards_are_classes", _GUARDS + """
names = ["_ForceDispatchKeyGuard", "_ExcludeDispatchKeyGuard", "_IncludeDispatchKeyGuard", "_PreserveDispatchKeyGuard"]
out = [[isinstance(getattr(C, n), type), hasattr(getattr(C, n), "__enter__"), hasattr(getattr(C, n), "__exit__")]
       for n in names]
""")
dispatch_snippet("force_dispatch_key_guard_acts_inside_with", _GUARDS + """
g = C._ForceDispatchKeyGuard(S(K.CPU), S(K.AutogradCPU))
after_init = sets()
with g:
    inside = sets()
out = [isinstance(g, C._ForceDispatchKeyGuard), after_init, inside, sets()]
""")
dispatch_snippet("exclude_and_include_guards", _GUARDS + """
with C._ExcludeDispatchKeyGuard(S(K.AutogradCPU)):
    with C._IncludeDispatchKeyGuard(K.Functionalize):
        inside = sets()
out = [inside, sets()]
""")
dispatch_snippet("preserve_dispatch_key_guard", _GUARDS + """
with C._PreserveDispatchKeyGuard():
    C._IncludeDispatchKeyGuard(K.Functionalize).__enter__()
    inside = sets()
out = [inside, sets()]
""")
for i, (guard, args) in enumerate([("_ForceDispatchKeyGuard", "()"), ("_ForceDispatchKeyGuard", "(S(K.CPU),)"),
                                    ("_ForceDispatchKeyGuard", "(1, 2)"), ("_ForceDispatchKeyGuard", "(S(K.CPU), 'x')"),
                                    ("_ExcludeDispatchKeyGuard", "(K.CPU,)"), ("_IncludeDispatchKeyGuard", "(S(K.CPU),)"),
                                    ("_PreserveDispatchKeyGuard", "(1,)")]):
    dispatch_snippet(f"key_guard_refuses_arguments_{i}", _GUARDS + f"""
C.{guard}(*{args})
""", "words")

# --- dump_table and the Meta fallback --------------------------------------------------------------

dispatch_snippet("dump_table_rows_of_backend_kernels", """
from T.library import Library
lib = Library("bh_dump", "DEF")
lib.define("f(Tensor x) -> Tensor")
for key in ("FPGA", "CPU", "XLA", "PrivateUse1"):
    lib.impl("f", lambda x: x, key)
lib.define("g(Tensor x) -> Tensor")
lib.impl("g", lambda x: x, "FPGA")
lib.impl("g", lambda x: x, "CPU")
def rows(name):
    table = T._C._dispatch_dump_table(name)
    return [r.split(":")[0] for r in table.splitlines() if "[kernel]" in r or r.startswith("Meta:")]
out = [rows("bh_dump::f"), rows("bh_dump::g")]
""")
dispatch_snippet("meta_tensors_without_a_meta_kernel", """
from T.library import Library
lib = Library("bh_nometa", "DEF")
lib.define("g(Tensor x) -> Tensor")
lib.impl("g", lambda x: x, "CPU")
T.ops.bh_nometa.g(T.ones(1, device="meta"))
""", "words")
dispatch_snippet("meta_fallback_is_in_the_table", """
from T.library import Library
lib = Library("bh_metarow", "DEF")
lib.define("g(Tensor x) -> Tensor")
lib.impl("g", lambda x: x, "CPU")
out = [T._C._dispatch_has_computed_kernel_for_dispatch_key("bh_metarow::g", "Meta"),
       T._C._dispatch_has_kernel_for_dispatch_key("bh_metarow::g", "Meta")]
""")

# --- Layout and MemoryFormat arguments -----------------------------------------------------------

_LAYOUT = """
from T.library import Library
lib = Library("{ns}", "DEF")
lib.define("h(Tensor x, Layout layout) -> str")
lib.define("g(Tensor x, Layout? layout=None) -> str")
lib.define("m(Tensor x, MemoryFormat mf) -> str")
for name in ("h", "g", "m"):
    lib.impl(name, lambda x, *a: plain(repr(a)), "CPU")
ops = T.ops.{ns}
"""
for i, call in enumerate(["ops.h(x, T.float32)", "ops.h(x, 'strided')", "ops.h(x, 1.5)", "ops.g(x, T.float32)",
                          "ops.m(x, T.float32)", "ops.m(x, T.strided)", "ops.h(x, T.contiguous_format)"]):
    dispatch_snippet(f"layout_argument_refuses_{i}", _LAYOUT.format(ns=f"bh_layout{i}") + f"""
x = T.ones(1)
try:
    {call}
except RuntimeError as e:
    out = [isinstance(e, RuntimeError), str(e).split(" but instead found type ")[1].split(".")[0]]
""")
dispatch_snippet("layout_argument_takes", _LAYOUT.format(ns="bh_layout_ok") + """
x = T.ones(1)
out = [ops.h(x, T.strided), ops.h(x, T.sparse_coo), ops.h(x, T._mkldnn), ops.h(x, 0), ops.h(x, True),
       ops.g(x), ops.g(x, None), ops.m(x, T.channels_last), ops.m(x, 0)]
""")
dispatch_snippet("layout_objects", """
names = ["strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc", "_mkldnn", "jagged"]
out = [[plain(repr(getattr(T, n))), plain(str(getattr(T, n))), type(getattr(T, n)).__name__] for n in names]
out.append([T.ones(1).layout is T.strided, T.sparse_coo == T.sparse_coo, T.strided != T.sparse_coo,
            isinstance(T.sparse_csr, T.layout)])
""")
dispatch_snippet("factory_layout_of_the_wrong_type", """
T.zeros(2, layout=T.float32)
""", "words")
dispatch_snippet("factory_layout_strided", """
out = [T.zeros(2, layout=T.strided).layout is T.strided, T.ones_like(T.ones(1), layout=T.strided).shape,
       T.full((2,), 1.0, layout=T.strided).tolist(), T.arange(3, layout=T.strided).tolist()]
""")

# --- kernels returning SymInt ----------------------------------------------------------------------

dispatch_snippet("kernel_returning_a_symint", """
from T.library import Library
from T._subclasses.fake_tensor import FakeTensorMode
from T.fx.experimental.symbolic_shapes import ShapeEnv
lib = Library("bh_symint", "DEF")
lib.define("sz(Tensor x) -> SymInt")
lib.impl("sz", lambda x: x.shape[0] * 2, "CompositeExplicitAutograd")
lib.define("szs(Tensor x) -> SymInt[]")
lib.impl("szs", lambda x: list(x.shape), "CompositeExplicitAutograd")
real = [T.ops.bh_symint.sz(T.ones(5)), T.ops.bh_symint.szs(T.ones(2, 3))]
with FakeTensorMode(shape_env=ShapeEnv()) as mode:
    x = mode.from_tensor(T.ones(3, 4))
    fake = [T.ops.bh_symint.sz(x), T.ops.bh_symint.szs(x)]
with FakeTensorMode() as mode:
    x = mode.from_tensor(T.ones(3, 4))
    fake.append(T.ops.bh_symint.sz(x))
out = [real, fake, type(real[0]).__name__]
""")
dispatch_snippet("kernel_returning_a_float_for_a_symint", """
from T.library import Library
lib = Library("bh_symint_f", "DEF")
lib.define("sz(Tensor x) -> SymInt")
lib.impl("sz", lambda x: 2.5, "CompositeExplicitAutograd")
T.ops.bh_symint_f.sz(T.ones(1))
""")


# --- Library.fallback ----------------------------------------------------------------------------

_FALLBACK = """
from T.library import Library, fallthrough_kernel
lib = Library("bh_fb{n}", "DEF")
lib.define("f(Tensor x) -> Tensor")
lib.impl("f", lambda x: x + x, "CPU")
calls = []
GENERIC = T._C.DispatchKeySet("TESTING_ONLY_GenericMode")
x = T.ones(2)
def generic_mode():
    return T._C._ForceDispatchKeyGuard(GENERIC, T._C.DispatchKeySet(T._C.DispatchKey.AutogradCPU))
"""
dispatch_snippet("fallback_python_kernel_with_keyset", _FALLBACK.format(n=1) + """
def fb(ks, op, *args, **kwargs):
    calls.append([str(op), ks.has(T._C.DispatchKey.CPU)])
    return op.redispatch(ks - GENERIC, *args, **kwargs)
g = Library("_", "IMPL")
try:
    g.fallback(fb, "TESTING_ONLY_GenericMode", with_keyset=True)
    with generic_mode():
        y = T.ops.bh_fb1.f(x)
finally:
    g._destroy()
out = [calls, y]
""")
dispatch_snippet("fallback_fallthrough", _FALLBACK.format(n=2) + """
g = Library("_", "IMPL")
try:
    g.fallback(fallthrough_kernel, "TESTING_ONLY_GenericMode")
    with generic_mode():
        y = T.ops.bh_fb2.f(x)
finally:
    g._destroy()
out = y
""")
dispatch_snippet("fallback_twice_at_one_key", """
from T.library import Library
g1 = Library("_", "IMPL")
g2 = Library("_", "IMPL")
g1.fallback(lambda *a, **k: None, "TESTING_ONLY_GenericMode")
try:
    g2.fallback(lambda *a, **k: None, "TESTING_ONLY_GenericMode")
finally:
    g1._destroy()
    g2._destroy()
""", "value")
dispatch_snippet("fallback_twice_from_one_library", """
from T.library import Library
g1 = Library("_", "IMPL")
g1.fallback(lambda *a, **k: None, "TESTING_ONLY_GenericMode")
try:
    g1.fallback(lambda *a, **k: None, "TESTING_ONLY_GenericMode")
finally:
    g1._destroy()
""", "value")
dispatch_snippet("fallback_again_after_destroy", """
from T.library import Library
g1 = Library("_", "IMPL")
g1.fallback(lambda *a, **k: None, "TESTING_ONLY_GenericMode")
g1._destroy()
g2 = Library("_", "IMPL")
g2.fallback(lambda *a, **k: None, "TESTING_ONLY_GenericMode")
g2._destroy()
out = "ok"
""")
dispatch_snippet("fallback_outside_the_global_namespace", """
from T.library import Library
lib = Library("aten", "IMPL")
try:
    lib.fallback(lambda *a, **k: None, "TESTING_ONLY_GenericMode")
finally:
    lib._destroy()
""", "value")


# --- overriding aten operators from several libraries --------------------------------------------

dispatch_snippet("aten_overridden_by_two_libraries", """
import warnings
warnings.simplefilter("ignore")  # torch warns once per process: not compared
from T.library import Library
l1 = Library("aten", "IMPL")
l2 = Library("aten", "IMPL")
l1.impl("sinh", lambda x: x * 0 + 1, "CPU")
l2.impl("sinh", lambda x: x * 0 + 2, "CPU")
a = T.sinh(T.zeros(1))
l2._destroy()
b = T.sinh(T.zeros(1))
l1._destroy()
c = T.sinh(T.zeros(1))
out = [a, b, c]
""")
dispatch_snippet("aten_overridden_twice_without_override", """
import warnings
warnings.simplefilter("ignore")  # torch warns once per process: not compared
from T.library import Library
l1 = Library("aten", "IMPL")
l2 = Library("aten", "IMPL")
l1.impl("tanh", lambda x: x * 0 + 1, "CPU")
try:
    l2.impl("tanh", lambda x: x * 0 + 2, "CPU", allow_override=False)
finally:
    l1._destroy()
    l2._destroy()
""", "words")
