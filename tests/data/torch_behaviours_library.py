"""torch.library snippets (see ``torch_behaviours.py`` for the format): custom ops tagged
``Tag.inplace`` / ``Tag.out``, ``mutates_args`` spellings, ``infer_schema``'s type table.

Every snippet defines its operators in a namespace of its own, so all of them run in one process.
"""

from torch_behaviours import snippet


def lib_snippet(name, code, check="value"):
    snippet(name, code, check, area="library")


# --- custom_op with Tag.inplace / Tag.out ------------------------------------------------------

_INPLACE = """
from T.library import custom_op
@custom_op("{ns}::sin_", mutates_args={{"x"}}, tags=T.Tag.inplace)
def sin_(x: T.Tensor) -> T.Tensor:
    x.copy_(x.sin())
    return x
"""
_OUT = """
from T.library import custom_op
@custom_op("{ns}::sin_out", mutates_args={{"out"}}, tags=T.Tag.out)
def sin_out(x: T.Tensor, *, out: T.Tensor) -> T.Tensor:
    out.copy_(x.sin())
    return out
"""
_OUT2 = """
from T.library import custom_op
@custom_op("{ns}::split_out", mutates_args=("a", "b"), tags=T.Tag.out)
def split_out(x: T.Tensor, *, a: T.Tensor, b: T.Tensor) -> tuple[T.Tensor, T.Tensor]:
    a.copy_(x + 1)
    b.copy_(x * 2)
    return a, b
"""
_FAKE_MODE = "from T._subclasses.fake_tensor import FakeTensorMode\n"

lib_snippet("tag_inplace_schema_and_call", _INPLACE.format(ns="bh_inpl0") + """
x = T.zeros(3)
y = sin_(x)
out = [plain(sin_._opoverload._schema), y is x, x._version > 0, plain(sin_._opoverload.tags)]
""")
lib_snippet("tag_out_schema_and_call", _OUT2.format(ns="bh_out0") + """
x = T.ones(2)
a, b = T.empty(2), T.empty(2)
r = split_out(x, a=a, b=b)
out = [plain(split_out._opoverload._schema), r[0] is a, r[1] is b, a, b]
""")
lib_snippet("tag_inplace_fake_impl_follows_the_mutated_argument", _FAKE_MODE + _INPLACE.format(ns="bh_inpl1") + """
with FakeTensorMode() as mode:
    x = mode.from_tensor(T.ones(3, 4))
    y = sin_(x)
    out = [y is x, list(y.shape), type(y).__name__]
""")
lib_snippet("tag_out_fake_impl_returns_the_out_argument", _FAKE_MODE + _OUT.format(ns="bh_out1") + """
with FakeTensorMode() as mode:
    x = mode.from_tensor(T.ones(3, 4))
    o = mode.from_tensor(T.empty(3, 4))
    y = sin_out(x, out=o)
    out = [y is o, list(y.shape), type(y).__name__]
""")
lib_snippet("tag_out_fake_impl_returns_every_out_argument", _FAKE_MODE + _OUT2.format(ns="bh_out2") + """
with FakeTensorMode() as mode:
    x = mode.from_tensor(T.ones(2))
    a, b = mode.from_tensor(T.empty(2)), mode.from_tensor(T.empty(2))
    r = split_out(x, a=a, b=b)
    out = [type(r).__name__, r[0] is a, r[1] is b]
""")
lib_snippet("tag_inplace_meta_tensors", _INPLACE.format(ns="bh_inpl2") + """
x = T.empty(3, device="meta")
y = sin_(x)
out = [y is x, plain(y.device)]
""")
lib_snippet("tag_inplace_register_fake_warns_and_is_used", _FAKE_MODE + _INPLACE.format(ns="bh_inpl3") + """
calls = []
@sin_.register_fake
def _(x):
    calls.append(1)
    return x
with FakeTensorMode() as mode:
    x = mode.from_tensor(T.ones(3))
    y = sin_(x)
out = [y is x, calls]
""")
lib_snippet("tag_out_register_fake_warns", _OUT.format(ns="bh_out3") + """
sin_out.register_fake(lambda x, *, out: out)
""")
lib_snippet("tag_inplace_opcheck", _INPLACE.format(ns="bh_inpl4") + """
out = T.library.opcheck(sin_, (T.randn(3),))
""")
lib_snippet("tag_out_opcheck", _OUT.format(ns="bh_out4") + """
out = T.library.opcheck(sin_out, (T.randn(3),), {"out": T.empty(3)})
""")
lib_snippet("tag_out_autograd_refused_on_call", _OUT.format(ns="bh_out5") + """
x = T.randn(3, requires_grad=True)
sin_out(x, out=T.empty(3))
""", "words")
lib_snippet("tag_out_autograd_refused_when_out_requires_grad", _OUT.format(ns="bh_out6") + """
sin_out(T.randn(3), out=T.empty(3, requires_grad=True))
""", "words")
lib_snippet("tag_out_autograd_without_grad_runs", _OUT.format(ns="bh_out7") + """
o = T.empty(2)
r = sin_out(T.zeros(2), out=o)
out = [r is o, r.requires_grad, r.grad_fn is None]
""")
lib_snippet("tag_out_autograd_under_no_grad_runs", _OUT.format(ns="bh_out8") + """
with T.no_grad():
    r = sin_out(T.zeros(2, requires_grad=True), out=T.empty(2))
out = [r.requires_grad]
""")
lib_snippet("tag_out_register_autograd_refused", _OUT.format(ns="bh_out9") + """
sin_out.register_autograd(lambda ctx, g: g)
""", "words")
lib_snippet("tag_inplace_register_autograd_refused", _INPLACE.format(ns="bh_inpl5") + """
sin_.register_autograd(lambda ctx, g: g)
""", "words")
lib_snippet("tag_out_called_with_out_positionally", _OUT.format(ns="bh_out10") + """
try:
    sin_out(T.ones(2), T.ones(2))
except TypeError:
    out = "TypeError"
""")

# mutates_args: any iterable of names, or "unknown"
for i, spelling in enumerate(['["x"]', '("x",)', '{"x"}', 'iter(["x"])', '(n for n in ["x"])', '{"x": 1}',
                              'frozenset(["x"])', 'dict(x=1).keys()']):
    lib_snippet(f"tag_inplace_mutates_args_spelling_{i}", f"""
from T.library import custom_op
@custom_op("bh_spell{i}::f_", mutates_args={spelling}, tags=T.Tag.inplace)
def f_(x: T.Tensor) -> T.Tensor:
    x.add_(1)
    return x
x = T.zeros(2)
out = [plain(f_._opoverload._schema), f_(x) is x, x]
""")
    lib_snippet(f"mutates_args_spelling_{i}", f"""
from T.library import custom_op
@custom_op("bh_mspell{i}::f", mutates_args={spelling})
def f(x: T.Tensor, y: T.Tensor) -> None:
    x.add_(y)
x = T.zeros(2)
f(x, T.ones(2))
out = [plain(f._opoverload._schema), x]
""")
lib_snippet("mutates_args_a_string", """
from T.library import custom_op
@custom_op("bh_mstr::f", mutates_args="x")
def f(x: T.Tensor) -> None:
    pass
""", "words")
lib_snippet("mutates_args_unknown", """
from T.library import custom_op
@custom_op("bh_munk::f", mutates_args="unknown")
def f(x: T.Tensor, y: T.Tensor, n: int) -> None:
    pass
out = plain(f._opoverload._schema)
""")
lib_snippet("mutates_args_an_iterator_with_a_schema", """
from T.library import custom_op
@custom_op("bh_mschema::f", mutates_args=iter(["x"]), schema="(Tensor(a!) x) -> ()")
def f(x: T.Tensor) -> None:
    x.add_(1)
x = T.zeros(1)
f(x)
out = [plain(f._opoverload._schema), x]
""")
lib_snippet("mutates_args_wrong_with_a_schema", """
from T.library import custom_op
@custom_op("bh_mschema2::f", mutates_args=["y"], schema="(Tensor(a!) x, Tensor y) -> ()")
def f(x: T.Tensor, y: T.Tensor) -> None:
    pass
""")

# torch's refusals, in its words ("Got func with signature ..." names the module's types: cut before it)
_REFUSED = {
    "tag_inplace_no_positional_tensor": ('{"x"}', "T.Tag.inplace", "*, x: T.Tensor", "T.Tensor"),
    "tag_inplace_mutates_another_argument": ('["y"]', "T.Tag.inplace", "x: T.Tensor, y: T.Tensor", "T.Tensor"),
    "tag_inplace_mutates_nothing": ("()", "T.Tag.inplace", "x: T.Tensor", "T.Tensor"),
    "tag_inplace_mutates_two": ('["x", "y"]', "T.Tag.inplace", "x: T.Tensor, y: T.Tensor", "T.Tensor"),
    "tag_inplace_first_argument_not_a_tensor": ('["y"]', "T.Tag.inplace", "x: int, y: T.Tensor", "T.Tensor"),
    "tag_inplace_first_argument_not_a_tensor_mutated": ('["x"]', "T.Tag.inplace", "x: int, y: T.Tensor",
                                                         "T.Tensor"),
    "tag_inplace_returns_none": ('["x"]', "T.Tag.inplace", "x: T.Tensor", "None"),
    "tag_inplace_returns_a_list": ('["x"]', "T.Tag.inplace", "x: T.Tensor", "list[T.Tensor]"),
    "tag_out_positional_out": ('["out"]', "T.Tag.out", "x: T.Tensor, out: T.Tensor", "T.Tensor"),
    "tag_out_mutates_nothing": ("()", "T.Tag.out", "x: T.Tensor, *, out: T.Tensor", "T.Tensor"),
    "tag_out_returns_none": ('["out"]', "T.Tag.out", "x: T.Tensor, *, out: T.Tensor", "None"),
    "tag_out_list_out": ('["out"]', "T.Tag.out", "x: T.Tensor, *, out: list[T.Tensor]", "list[T.Tensor]"),
    "tag_out_returns_one_of_two": ('["a", "b"]', "T.Tag.out", "x: T.Tensor, *, a: T.Tensor, b: T.Tensor",
                                   "T.Tensor"),
    "tag_out_returns_in_another_order": ('["a", "b"]', "T.Tag.out", "x: T.Tensor, *, a: T.Tensor, b: T.Tensor",
                                         "tuple[T.Tensor, int]"),
    "tag_both_inplace_and_out": ('["x"]', "[T.Tag.inplace, T.Tag.out]", "x: T.Tensor", "T.Tensor"),
    "mutates_args_names_a_missing_argument": ('["z"]', "()", "x: T.Tensor", "T.Tensor"),
}
for name, (mutates, tags, params, ret) in _REFUSED.items():
    lib_snippet(name, f"""
from T.library import custom_op
try:
    @custom_op("bh_{name}::f", mutates_args={mutates}, tags={tags})
    def f({params}) -> {ret}:
        pass
except Exception as e:
    e.args = (str(e).split(" Got func with signature")[0],)
    raise
""", "words")

lib_snippet("tag_inplace_schema_without_mutation", """
from T.library import custom_op
@custom_op("bh_inpl_schema::f", mutates_args={"x"}, schema="(Tensor x) -> Tensor", tags=T.Tag.inplace)
def f(x: T.Tensor) -> T.Tensor:
    return x
""", "words")
lib_snippet("tag_inplace_kernel_returns_another_tensor", """
from T.library import custom_op
@custom_op("bh_inpl_ret::f", mutates_args={"x"}, tags=T.Tag.inplace)
def f(x: T.Tensor) -> T.Tensor:
    return x.clone()
try:
    f(T.ones(2))
except RuntimeError as e:
    out = [type(e).__name__, plain(str(e).split("): ")[1])]
""")
lib_snippet("tag_out_kernel_returns_another_tensor", """
from T.library import custom_op
@custom_op("bh_out_ret::f", mutates_args={"out"}, tags=T.Tag.out)
def f(x: T.Tensor, *, out: T.Tensor) -> T.Tensor:
    return x.clone()
try:
    f(T.ones(2), out=T.ones(2))
except RuntimeError as e:
    out = [type(e).__name__, plain(str(e).split("): ")[1])]
""")

# --- an op without tensor arguments: its device's kernel or torch's refusal ------------------------

_FACTORY = """
from T.library import custom_op
@custom_op("{ns}::fac", mutates_args=(), device_types="cpu")
def fac(n: int, device: T.device) -> T.Tensor:
    return T.ones(n, device=device)
@custom_op("{ns}::fac2", mutates_args=())
def fac2(n: int, device: T.device) -> T.Tensor:
    return T.ones(n, device=device)
"""
for i, call in enumerate(['fac(2, "meta")', 'fac(2, "cuda")', 'fac(2, T.device("meta"))',
                          'fac2.register_kernel("cpu", lambda n, device: T.zeros(n)); fac2(2, "meta")']):
    lib_snippet(f"factory_op_without_a_kernel_for_the_device_{i}", _FACTORY.format(ns=f"bh_fac{i}") + f"""
{call}
""", "words")
lib_snippet("factory_op_kernels_by_device", _FACTORY.format(ns="bh_fac_ok") + """
before = [fac(2, "cpu"), plain(fac2(2, "meta").device)]
fac2.register_kernel("cpu", lambda n, device: T.zeros(n))
fac2.register_kernel("meta", lambda n, device: T.empty(n, device="meta"))
out = before + [fac2(2, "cpu"), plain(fac2(2, "meta").device)]
""")
lib_snippet("factory_op_kernel_needs_a_device_argument", """
from T.library import custom_op
@custom_op("bh_fac_nodev::fac", mutates_args=())
def fac(n: int) -> T.Tensor:
    return T.ones(n)
fac.register_kernel("cpu", lambda n: T.ones(n))
""", "words")

# --- infer_schema: forward references, torch.types, tuple_to_list ---------------------------------

for i, (ann, ret) in enumerate([('list["T.Tensor"]', '"T.Tensor"'), ('"typing.Sequence[T.Tensor]"', 'list["T.Tensor"]'),
                                 ('list[typing.Optional["T.Tensor"]]', "T.Tensor"),
                                 ('typing.Optional["T.Tensor"]', "T.Tensor"), ('typing.List["T.Tensor"]', "T.Tensor"),
                                 ('typing.Optional[list["T.Tensor"]]', "T.Tensor")]):
    lib_snippet(f"infer_schema_forward_reference_{i}", f"""
import typing
from T.library import infer_schema
def f(x: {ann}) -> {ret}: ...
try:
    out = infer_schema(f, mutates_args=["x"])
except ValueError as e:
    out = ["ValueError", plain(str(e).split(" The valid types")[0])]
""")
lib_snippet("infer_schema_unknown_forward_reference", """
from T.library import infer_schema
def make():
    class MyTensor(T.Tensor):
        pass
    def f(x: "list[MyTensor]") -> T.Tensor: ...
    return f
try:
    infer_schema(make(), mutates_args=())
except ValueError as e:
    out = str(e).split(" Got func")[0]
""")
lib_snippet("infer_schema_torch_types", """
import typing
from T.library import infer_schema
def f(x: T.types.Number, d: T.dtype, dv: T.device, l: typing.Optional[T.Tensor] = None, s: str = "a",
      b: bool = True, n: typing.Optional[T.types.Number] = None) -> T.types.Number: ...
out = infer_schema(f, mutates_args=())
""")
for i, ann in enumerate(["tuple[int, ...]", "tuple[int, int]", "tuple[T.Tensor, ...]", "typing.Tuple[float, int]",
                         "tuple"]):
    lib_snippet(f"infer_schema_tuple_parameter_{i}", f"""
import typing
from T.library import infer_schema
def f(x: {ann}) -> T.Tensor: ...
try:
    infer_schema(f, mutates_args=())
except ValueError as e:
    out = plain(str(e).split("The valid types")[0].split("workaround, ")[1].strip()).replace("._tensor", "")
""")
lib_snippet("tuple_to_list", """
import typing
from T._library.infer_schema import tuple_to_list
out = [plain(tuple_to_list(t)).replace("._tensor", "") for t in (tuple, typing.Tuple, tuple[int], tuple[int, ...], tuple[int, float],
                                          typing.Tuple[int, int], tuple[T.Tensor, ...])]
""")


# --- Library.fallback at the keys the library itself serves --------------------------------------

# Every runtime key both name (torch cannot parse AutogradMAIA) and the alias keys (a fallback there is one
# at each runtime key the alias stands for: the first one held refuses it).
# Not NestedTensor and AutogradPrivateUse1: torch takes a second fallback there without a word (the
# first is lost), where opyard refuses it as at every other key.
_FALLBACK_KEYS = ("CPU", "CUDA", "XLA", "MPS", "XPU", "HPU", "Lazy", "MAIA", "PrivateUse1", "Meta", "FPGA",
                  "BackendSelect", "Fake", "Python", "Functionalize", "Conjugate", "Negative",
                  "ZeroTensor", "ADInplaceOrView", "AutogradOther", "AutogradCPU", "AutogradCUDA", "AutogradXLA",
                  "AutogradMPS", "AutogradXPU", "AutogradHPU", "AutogradLazy", "AutogradMeta",
                  "AutogradNestedTensor", "Tracer", "AutocastCPU", "AutocastCUDA", "Batched",
                  "VmapMode", "PythonTLSSnapshot", "TESTING_ONLY_GenericWrapper", "TESTING_ONLY_GenericMode",
                  "PythonDispatcher", "Autograd", "CompositeImplicitAutograd", "CompositeExplicitAutograd",
                  "CompositeExplicitAutogradNonFunctional")
# The refusal's words up to the first location, and where it says the new registration was made (the
# line that created the Library, as torch's TORCH_LIBRARY_IMPL block).
_FALLBACK = """
from T.library import Library, fallthrough_kernel
def fn(op, *args, **kwargs):
    return op(*args, **kwargs)
lib = Library("_", "IMPL")
again = Library("_", "IMPL")
def outcome(lib, fn):
    try:
        lib.fallback(fn, "{key}"{keyset})
    except RuntimeError as e:
        text = str(e)
        return [text.split(";")[0], text.split("new registration registered at ")[1].split(" ")[0]]
    return "registered"
try:
    out = [outcome(lib, fn), outcome(again, fn)]
finally:
    lib._destroy()
    again._destroy()
"""
for _key in _FALLBACK_KEYS:
    lib_snippet(f"fallback_at_{_key}", _FALLBACK.format(key=_key, keyset=""))
for _key in ("AutocastCPU", "Python", "CPU"):
    lib_snippet(f"fallback_with_keyset_at_{_key}", _FALLBACK.format(key=_key, keyset=", with_keyset=True"))
    lib_snippet(f"fallthrough_fallback_at_{_key}",
                _FALLBACK.format(key=_key, keyset="").replace("outcome(lib, fn), outcome(again, fn)",
                                                              "outcome(lib, fallthrough_kernel), outcome(again, fn)"))

# A refused fallback at an alias key keeps the runtime keys registered before the refusing one
# (the backends before Meta) until the Library is destroyed.
lib_snippet("fallback_at_an_alias_key_keeps_the_keys_before_the_refusal", """
from T.library import Library
d = Library("bh_fb_alias", "DEF")
d.define("f(Tensor x) -> Tensor")
lib = Library("_", "IMPL")
calls = []
def fn(op, *args, **kwargs):
    calls.append(str(op))
    return args[0] * 2
try:
    lib.fallback(fn, "CompositeExplicitAutograd")
except RuntimeError:
    calls.append("refused")
first = T.ops.bh_fb_alias.f(T.ones(2))
lib._destroy()
try:
    T.ops.bh_fb_alias.f(T.ones(2))
    after = "ran"
except NotImplementedError:
    after = "no kernel"
out = [first, calls, after]
""")

# --- a custom op on meta tensors before register_fake -------------------------------------------

# torch's Meta kernel of a custom op: the derived fake impl (a mutating op returning nothing: None,
# its function not run), else the "no fake impl" error, whatever its device_types.
for _i, (_sig, _mutates, _devices) in enumerate([("(x: T.Tensor) -> T.Tensor", "()", "None"),
                                                   ("(x: T.Tensor) -> T.Tensor", "()", "'cpu'"),
                                                   ("(x: T.Tensor) -> None", "('x',)", "None"),
                                                   ("(x: T.Tensor) -> tuple[T.Tensor, T.Tensor]", "()", "None")]):
    lib_snippet(f"custom_op_on_meta_without_fake_impl_{_i}", f"""
from T.library import custom_op
ran = []
@custom_op("bh_meta{_i}::my_fn", mutates_args={_mutates}, device_types={_devices})
def my_fn{_sig}:
    ran.append(1)
    return x.clone() if {_i} == 0 or {_i} == 1 else (x.clone(), x.clone()) if {_i} == 3 else None
for call in (lambda: my_fn(T.ones(2, device="meta")), lambda: T.ops.bh_meta{_i}.my_fn(T.ones(2, device="meta"))):
    try:
        r = call()
        ran.append(["returned", None if r is None else "tensor"])
    except RuntimeError as e:
        ran.append(str(e).split(" This is")[0])
out = ran
""")
lib_snippet("custom_op_on_meta_after_register_fake", """
from T.library import custom_op
@custom_op("bh_meta_f::g", mutates_args=())
def g(x: T.Tensor) -> T.Tensor:
    return x.clone()
g.register_fake(lambda x: x.new_empty(3))
out = list(g(T.ones(2, device="meta")).shape)
""")

# --- register_kernel replacing a custom op's own kernel ------------------------------------------

lib_snippet("custom_op_register_kernel_twice_is_silent", """
from T.library import custom_op
@custom_op("bh_rk2::f", mutates_args=(), device_types="cpu")
def f(x: T.Tensor) -> T.Tensor:
    return x.clone()
f.register_kernel("cpu")(lambda x: x * 2)
a = f(T.ones(2))
f.register_kernel("cpu")(lambda x: x * 3)
out = [a, f(T.ones(2))]
""")
