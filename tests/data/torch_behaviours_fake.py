"""FakeTensorMode snippets (see ``torch_behaviours.py`` for the format): operators with no fake
impl or Meta kernel, data-dependent outputs, ``opcheck``'s fake check, ``repr``, kernel errors.

Every snippet defines its operators in a namespace of its own, so all of them run in one process.
"""

from torch_behaviours import snippet


def fake_snippet(name, code, check="value"):
    snippet(name, code, check, area="fake")


_MODE = """
from T._subclasses.fake_tensor import FakeTensorMode
from T.fx.experimental.symbolic_shapes import ShapeEnv
def meta(t):
    return [type(t).__name__, list(t.shape), plain(t.device), plain(t.dtype)]
"""

# --- operators with neither a fake impl nor a Meta kernel --------------------------------------

_CTORS = _MODE + """
from T.library import Library
lib = Library("{ns}", "DEF")
lib.define("ctor(int n) -> Tensor")
lib.impl("ctor", lambda n: T.ones(n, dtype=T.float64), "CompositeExplicitAutograd")
lib.define("ctor_dev(int n, Device device) -> Tensor")
lib.impl("ctor_dev", lambda n, device: T.ones(n, device=device), "CompositeExplicitAutograd")
lib.define("ctor_opt(int n, *, Device? device=None) -> Tensor")
lib.impl("ctor_opt", lambda n, device=None: T.ones(n, device=device), "CompositeExplicitAutograd")
ops = T.ops.{ns}
"""
for i, (call, kwargs) in enumerate([("ops.ctor(3)", ""), ("ops.ctor(3)", "allow_fallback_kernels=False"),
                                     ('ops.ctor_dev(2, "cpu")', ""), ('ops.ctor_dev(2, "meta")', ""),
                                     ("ops.ctor_opt(4)", ""), ('ops.ctor_opt(4, device="meta")', ""),
                                     ('ops.ctor_opt(4, device="cpu")', "allow_fallback_kernels=False")]):
    fake_snippet(f"constructor_without_fake_impl_{i}", _CTORS.format(ns=f"bh_ctor{i}") + f"""
with FakeTensorMode({kwargs}):
    out = meta({call})
""")

_BACKEND_ONLY = _MODE + """
from T.library import Library
lib = Library("{ns}", "DEF")
lib.define("f(Tensor x) -> Tensor")
lib.impl("f", lambda x: x.sin(), "CPU")
lib.define("g(Tensor x) -> Tensor")
lib.impl("g", lambda x: x.sin(), "CompositeExplicitAutograd")
lib.define("mut(Tensor(a!) x) -> ()")
lib.impl("mut", lambda x: None, "CPU")
lib.define("nothing(Tensor x) -> ()")
lib.impl("nothing", lambda x: None, "CPU")
ops = T.ops.{ns}
"""
for i, (call, kwargs) in enumerate([("ops.f(x)", ""), ("ops.f(x)", "allow_fallback_kernels=False"),
                                     ("ops.g(x)", ""), ("ops.mut(x)", ""), ("ops.nothing(x)", "")]):
    fake_snippet(f"op_without_fake_impl_{i}", _BACKEND_ONLY.format(ns=f"bh_backend{i}") + f"""
with FakeTensorMode({kwargs}) as mode:
    x = mode.from_tensor(T.ones(3))
    r = {call}
    out = meta(r) if r is not None else None
""")

fake_snippet("custom_op_without_fake_impl", _MODE + """
from T.library import custom_op
@custom_op("bh_cnofake::f", mutates_args=())
def f(x: T.Tensor) -> T.Tensor:
    return x.clone()
with FakeTensorMode() as mode:
    f(mode.from_tensor(T.ones(2)))
""", "words")
fake_snippet("custom_op_returning_nothing_without_fake_impl", _MODE + """
from T.library import custom_op
@custom_op("bh_cnothing::f", mutates_args=())
def f(x: T.Tensor) -> None:
    pass
with FakeTensorMode() as mode:
    f(mode.from_tensor(T.ones(2)))
""", "words")
fake_snippet("custom_op_mutating_without_fake_impl", _MODE + """
from T.library import custom_op
@custom_op("bh_cmut::f", mutates_args={"x"})
def f(x: T.Tensor) -> None:
    x.add_(1)
with FakeTensorMode() as mode:
    out = f(mode.from_tensor(T.ones(2)))
""")
fake_snippet("custom_constructor_without_fake_impl", _MODE + """
from T.library import custom_op
@custom_op("bh_cctor::f", mutates_args=())
def f(n: int) -> T.Tensor:
    return T.ones(n)
with FakeTensorMode():
    f(3)
""", "words")

# --- data-dependent outputs ----------------------------------------------------------------------

_DATA = {
    "nonzero": "list(x.nonzero().shape)",
    "nonzero_strides": "list(x.nonzero().stride())",
    "argwhere": "list(T.argwhere(x).shape)",
    "masked_select": "list(T.masked_select(x, b).shape)",
    "boolean_mask": "list(x[b].shape)",
    "boolean_mask_2d": "list(m[m > 0].shape)",
    "repeat_interleave": "list(T.repeat_interleave(i).shape)",
    "repeat_interleave_sized": "list(T.repeat_interleave(i, output_size=5).shape)",
    "item_int": "i[0].item()",
    "item_float": "x[0].item()",
    "item_bool": "b[0].item()",
    "tolist": "i.tolist()",
    "tolist_2d": "m.to(T.int64).tolist()",
    "int_of": "int(i[0])",
    "bool_of": "bool(b[0])",
    "item_of_two_tensors": "[i[0].item(), i[0].item()]",
    "item_twice": "[j.item(), j.item()]",
    "item_after_a_change": "[j.item(), j.add_(1).item()]",
    "nonzero_twice": "[list(x.nonzero().shape), list(x.nonzero().shape)]",
    "nonzero_of_empty": "list(x[:0].nonzero().shape)",
    "item_of_three": "i.item()",
    "local_scalar_dense": "[T.ops.aten._local_scalar_dense(i[0]), T.ops.aten._local_scalar_dense(x[1])]",
    "local_scalar_dense_of_three": "T.ops.aten._local_scalar_dense(i)",
}
for env_name, env in [("no_shape_env", "None"), ("shape_env", "ShapeEnv()"),
                      ("no_dynamic_shapes", "ShapeEnv(allow_dynamic_output_shape_ops=False)"),
                      ("no_scalar_outputs", "ShapeEnv(allow_scalar_outputs=False)")]:
    for name, expr in _DATA.items():
        fake_snippet(f"data_dependent_{name}_{env_name}", _MODE + f"""
# (made outside the mode: torch keeps the value of a one-element tensor made by tensor() inside it)
real = [T.tensor([1.0, 0.0, 2.0]), T.tensor([True, False, True]), T.tensor([1, 0, 2]),
        T.tensor([[1.0, 0.0], [2.0, 3.0]]), T.tensor(5)]
with FakeTensorMode(shape_env={env}) as mode:
    x, b, i, m, j = [mode.from_tensor(t) for t in real]
    out = plain({expr})
""")

# --- opcheck's fake check -----------------------------------------------------------------------

fake_snippet("opcheck_dynamic_output_op", """
import numpy as np
from T.library import custom_op, get_ctx, opcheck
@custom_op("bh_oc_nonzero::nonzero", mutates_args=())
def nonzero(x: T.Tensor) -> T.Tensor:
    return T.tensor(np.stack(np.nonzero(x.numpy()), axis=1))
@nonzero.register_fake
def _(x):
    n = get_ctx().new_dynamic_size()
    return x.new_empty([n, x.dim()], dtype=T.int64)
out = opcheck(nonzero, (T.tensor([1.0, 0.0, 2.0]),))
""")
fake_snippet("opcheck_quantize_op_with_dynamic_size", """
from T.library import custom_op, get_ctx, opcheck
@custom_op("bh_oc_quant::quantize", mutates_args=())
def quantize(A: T.Tensor, blocksize: int) -> tuple[T.Tensor, T.Tensor]:
    n = A.numel()
    blocks = -(n // -blocksize)
    return T.zeros(n, dtype=T.uint8), T.ones(blocks)
@quantize.register_fake
def _(A, blocksize):
    n = A.numel()
    blocks = -(n // -blocksize)
    nq = get_ctx().new_dynamic_size()
    return A.new_empty((nq,), dtype=T.uint8), A.new_empty((blocks,), dtype=T.float32)
out = opcheck(quantize, (T.randn(10), 4))
""")
fake_snippet("opcheck_mutating_op_returning_nothing", """
from T.library import custom_op, opcheck
@custom_op("bh_oc_mut::f", mutates_args={"x"})
def f(x: T.Tensor) -> None:
    x.add_(1)
out = opcheck(f, (T.randn(3),))
""")
fake_snippet("opcheck_op_returning_nothing_without_fake_impl", """
from T.library import custom_op, opcheck
@custom_op("bh_oc_nothing::f", mutates_args=())
def f(x: T.Tensor) -> None:
    pass
try:
    opcheck(f, (T.randn(3),))
except Exception as e:
    out = [type(e).__name__, "There was no fake impl registered" in str(e)]
""")
fake_snippet("opcheck_fake_impl_of_the_wrong_dtype", """
from T.library import custom_op, opcheck
@custom_op("bh_oc_dtype::f", mutates_args=())
def f(x: T.Tensor) -> T.Tensor:
    return x.clone()
f.register_fake(lambda x: x.new_empty(x.shape, dtype=T.float64))
try:
    opcheck(f, (T.randn(3),))
except Exception as e:
    out = [type(e).__name__, plain(str(e).split("found ")[1])]
""")
fake_snippet("opcheck_fake_impl_on_the_wrong_device", """
from T.library import custom_op, opcheck
@custom_op("bh_oc_dev::f", mutates_args=())
def f(x: T.Tensor) -> T.Tensor:
    return x.clone()
f.register_fake(lambda x: T.empty(x.shape, device="meta"))
try:
    opcheck(f, (T.randn(3),))
except Exception as e:
    out = [type(e).__name__, plain(str(e).split("found ")[1])]
""")

# --- repr, errors, factories under the mode ------------------------------------------------------

fake_snippet("fake_tensor_repr", _MODE + """
with FakeTensorMode() as mode:
    x = mode.from_tensor(T.ones(2, 3))
    out = [repr(x), str(x), repr(x.to(T.int64)), repr(mode.from_tensor(T.ones(()))),
           repr(mode.from_tensor(T.ones(2, device="meta"))), repr(mode.from_tensor(T.ones(1, dtype=T.float64)))]
out.append(repr(x))
out = plain(out)
""")
fake_snippet("fake_tensor_repr_with_grad", _MODE + """
with FakeTensorMode() as mode:
    x = mode.from_tensor(T.ones(2, 3, requires_grad=True))
    out = plain([repr(x), repr(x * x)])
""")
fake_snippet("as_strided_negative_stride_under_the_mode", _MODE + """
with FakeTensorMode() as mode:
    mode.from_tensor(T.ones(6)).as_strided((2,), (-1,))
""", "words")
fake_snippet("as_strided_negative_stride_on_meta", """
T.ones(6, device="meta").as_strided((2,), (-1,))
""", "words")
fake_snippet("as_strided_negative_stride", """
T.ones(6).as_strided((2,), (-1,))
""", "words")
fake_snippet("as_strided_negative_size", """
T.ones(6).as_strided((-2,), (1,))
""", "words")
for op in ("add_", "mul_", "sub_", "div_"):
    fake_snippet(f"in_place_{op}_not_broadcastable_under_the_mode", _MODE + f"""
with FakeTensorMode() as mode:
    mode.from_tensor(T.ones(3)).{op}(mode.from_tensor(T.ones(2, 3)))
""", "words")
    fake_snippet(f"in_place_{op}_not_broadcastable_on_meta", f"""
T.ones(3, device="meta").{op}(T.ones(2, 3, device="meta"))
""", "words")
    fake_snippet(f"in_place_{op}_not_broadcastable", f"""
T.ones(3).{op}(T.ones(2, 3))
""", "words")
fake_snippet("tensor_on_meta_under_the_mode", _MODE + """
with FakeTensorMode():
    out = [meta(T.tensor([1.0, 2.0], device="meta")), meta(T.tensor([1, 2])), meta(T.zeros(2, device="meta")),
           meta(T.tensor(3.0, device="meta"))]
""")

# A built-in namespace's op without a Meta kernel runs its real kernel on zeros of the inputs
# (allow_fallback_kernels, on by default); another namespace's op never does.
_ATEN_BACKEND_ONLY = _MODE + """
from T.library import Library
lib = Library("aten", "FRAGMENT")
lib.define("{name}(Tensor x) -> Tensor")
lib.impl("{name}", lambda x: x.sum(0, keepdim=True) * 2, "CPU")
lib.define("{name}_view(Tensor x) -> Tensor")
lib.impl("{name}_view", lambda x: x[1:], "CPU")
op = getattr(T.ops.aten, "{name}")
view_op = getattr(T.ops.aten, "{name}_view")
"""
for i, (call, kwargs) in enumerate([("op(x)", ""), ("op(x)", "allow_fallback_kernels=False"),
                                     ("view_op(x)", "")]):
    fake_snippet(f"builtin_op_without_meta_kernel_{i}", _ATEN_BACKEND_ONLY.format(name=f"_bh_fallback{i}") + f"""
with FakeTensorMode({kwargs}) as mode:
    x = mode.from_tensor(T.ones(3, 2, dtype=T.float64))
    out = meta({call})
""")

fake_snippet("local_scalar_dense_on_real_tensors", """
out = [T.ops.aten._local_scalar_dense(T.tensor([2.5])), type(T.ops.aten._local_scalar_dense(T.tensor(3))).__name__,
       T.ops.aten._local_scalar_dense(T.ones(3)), T.ops.aten._local_scalar_dense(T.tensor(True)),
       T.ops.aten._local_scalar_dense(T.ones(1, requires_grad=True))]
""")
fake_snippet("local_scalar_dense_on_meta", """
T.ops.aten._local_scalar_dense(T.ones(1, device="meta"))
""", "words")
