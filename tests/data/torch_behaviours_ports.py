"""Snippets of what real libraries' registration code does (see ``torch_behaviours.py`` for the
format): decompositions registered at import and traced by make_fx, torch.equal,
broadcast_shapes, in-place matrix products, the legacy ``torch._custom_op`` API, and vmap over an
autograd.Function whose forward leaves the tensor world (``.numpy()``) with a vmap staticmethod.

Every snippet defines its operators in a namespace of its own, so all of them run in one process.
"""

from torch_behaviours import snippet


def ports_snippet(name, code, check="value"):
    snippet(name, code, check, area="ports")


# --- decompositions (torchao registers some at import) -------------------------------------------

_DECOMP_OP = """
from T.library import Library
from T.fx.experimental.proxy_tensor import make_fx
lib = Library("{ns}", "DEF")
lib.define("scale(Tensor x, float s) -> Tensor")
lib.impl("scale", lambda x, s: x * s, "CompositeExplicitAutograd")
lib.define("shift(Tensor x) -> Tensor")
lib.define("shift.other(Tensor x, Tensor y) -> Tensor")
lib.impl("shift", lambda x: x + 1, "CompositeExplicitAutograd")
lib.impl("shift.other", lambda x, y: x + y, "CompositeExplicitAutograd")
def f(x):
    return T.ops.{ns}.scale(x, 2.0).sin()
def calls(gm):
    # the packets called (a Python number selects mul.Scalar here, mul.Tensor in torch)
    return [".".join(str(n.target).replace("torch.ops.", "").replace("opyard.ops.", "").split(".")[:2])
            for n in gm.graph.nodes if n.op == "call_function"]
"""
ports_snippet("inductor_register_decomposition_feeds_make_fx", _DECOMP_OP.format(ns="bh_decomp0") + """
from T._inductor.decomposition import register_decomposition, decompositions, select_decomp_table
@register_decomposition([T.ops.bh_decomp0.scale.default])
def _(x, s):
    return x * s + 0.5
table = {k: v for k, v in decompositions.items() if "bh_decomp0" in str(k)}
gm = make_fx(f, decomposition_table=table)(T.ones(2))
out = [calls(make_fx(f)(T.ones(2))), calls(gm), gm(T.zeros(2)).tolist(), len(table)]
""")
ports_snippet("register_decomposition_of_a_packet", _DECOMP_OP.format(ns="bh_decomp1") + """
from T._decomp import register_decomposition, get_decompositions
table = {}
register_decomposition(T.ops.bh_decomp1.shift, registry=table)(lambda x, *y: x - 1)
got = get_decompositions([T.ops.bh_decomp1.shift], type="post_autograd")
out = [sorted(str(k).replace("torch.ops.", "").replace("opyard.ops.", "") for k in table), len(got)]
""")
ports_snippet("register_decomposition_twice", _DECOMP_OP.format(ns="bh_decomp2") + """
from T._decomp import register_decomposition
table = {}
register_decomposition(T.ops.bh_decomp2.scale.default, registry=table)(lambda x, s: x)
register_decomposition(T.ops.bh_decomp2.scale.default, registry=table)(lambda x, s: x)
""")
ports_snippet("register_decomposition_returns_the_function", _DECOMP_OP.format(ns="bh_decomp3") + """
from T._decomp import register_decomposition
def g(x, s):
    return x
out = register_decomposition(T.ops.bh_decomp3.scale.default, registry={})(g) is g
""")
ports_snippet("make_fx_decomposition_returning_not_implemented", _DECOMP_OP.format(ns="bh_decomp4") + """
gm = make_fx(f, decomposition_table={T.ops.bh_decomp4.scale.default: lambda x, s: NotImplemented})(T.ones(2))
out = calls(gm)
""")

# --- torch.equal, broadcast_shapes, in-place matrix products -----------------------------------

ports_snippet("equal", """
out = [T.equal(T.tensor([1, 2]), T.tensor([1.0, 2.0])), T.equal(T.ones(2), T.ones(3)),
       T.equal(T.ones(2, 1), T.ones(2)), T.equal(T.tensor([float("nan")]), T.tensor([float("nan")])),
       T.ones(2).equal(T.ones(2)), T.equal(T.tensor(True), T.tensor(1)),
       T.equal(T.ones(2, requires_grad=True), T.ones(2)), type(T.equal(T.ones(1), T.ones(1))).__name__]
""")
ports_snippet("equal_of_a_number", """
try:
    T.equal(T.ones(2), 1)
except TypeError as e:
    out = ["TypeError", "other" in str(e)]
""")
ports_snippet("equal_on_meta", """
T.equal(T.ones(2, device="meta"), T.ones(2, device="meta"))
""", "words")
ports_snippet("equal_under_fake_tensor_mode", """
from T._subclasses.fake_tensor import FakeTensorMode
with FakeTensorMode() as mode:
    T.equal(mode.from_tensor(T.ones(2)), mode.from_tensor(T.ones(2)))
""", "words")
ports_snippet("broadcast_shapes", """
out = [list(T.broadcast_shapes((2, 1), (3,))), list(T.broadcast_shapes()), list(T.broadcast_shapes(4, (2, 1))),
       list(T.broadcast_shapes(T.Size([1, 2]))), list(T.broadcast_shapes([2, 1], None, (1, 3))),
       type(T.broadcast_shapes((1,))).__name__,
       [list(t.shape) for t in T.broadcast_tensors(T.ones(2, 1), T.ones(3))]]
""")
for i, bad in enumerate(["(2,), (3,)", "(-1,), (2,)", "'a'", "(2.0,)", "(2, 3), (4, 3)"]):
    ports_snippet(f"broadcast_shapes_refuses_{i}", f"""
T.broadcast_shapes({bad})
""", "words")
ports_snippet("addmm_in_place", """
x = T.ones(2, 2)
y = x.addmm_(T.ones(2, 3), T.full((3, 2), 2.0), beta=2, alpha=0.5)
out = [y is x, x, x._version]
""")
ports_snippet("addmm_in_place_gradient", """
m1 = T.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=T.float64, requires_grad=True)
m2 = T.tensor([[0.5, 1.0], [1.5, 2.0]], dtype=T.float64, requires_grad=True)
base = T.ones(2, 2, dtype=T.float64, requires_grad=True)
y = base.clone()
y.addmm_(m1, m2, alpha=2)
y.sum().backward()
out = [y.grad_fn.name(), m1.grad, m2.grad, base.grad]
""")
ports_snippet("addmm_in_place_of_a_leaf", """
x = T.ones(2, 2, requires_grad=True)
x.addmm_(T.ones(2, 2), T.ones(2, 2))
""", "words")
ports_snippet("addmm_in_place_dtype", """
x = T.ones(2, 2, dtype=T.int64)
x.addmm_(T.ones(2, 2), T.ones(2, 2))
""", "words")
ports_snippet("addcmul_addcdiv_baddbmm_in_place", """
a = T.ones(2)
b = a.addcmul_(T.full((2,), 2.0), T.full((2,), 3.0), value=0.5)
c = T.full((2,), 4.0).addcdiv_(T.ones(2), T.full((2,), 2.0), value=2)
d = T.ones(1, 2, 2).baddbmm_(T.ones(1, 2, 3), T.ones(1, 3, 2), beta=0.5, alpha=2)
e = T.full((1, 2, 2), float("nan")).baddbmm_(T.ones(1, 2, 3), T.ones(1, 3, 2), beta=0)
out = [b is a, a, c, d, e]
""")
ports_snippet("addcdiv_in_place_of_integers", """
T.ones(2).addcdiv_(T.ones(2, dtype=T.int64), T.ones(2, dtype=T.int64))
""", "words")

# --- the legacy torch._custom_op API -----------------------------------------------------------

ports_snippet("legacy_custom_op", """
import numpy as np
from T._custom_op.impl import custom_op
@custom_op("bh_legacy::numpy_sin")
def numpy_sin(x: T.Tensor) -> T.Tensor:
    ...
@numpy_sin.impl("cpu")
def _(x):
    return T.from_numpy(np.sin(x.numpy()))
@numpy_sin.impl_abstract()
def _(x):
    return x.new_empty(x.shape)
x = T.ones(2, requires_grad=True)
try:
    numpy_sin(x)
except RuntimeError as e:
    refused = str(e)
out = [repr(numpy_sin), numpy_sin(T.zeros(2)), refused, list(numpy_sin(T.empty(3, device="meta")).shape),
       T.ops.bh_legacy.numpy_sin.default(T.zeros(1))]
""")
ports_snippet("legacy_custom_op_name_mismatch", """
from T._custom_op.impl import custom_op
@custom_op("bh_legacy2::f")
def g(x: T.Tensor) -> T.Tensor:
    ...
""", "words")

# --- vmap over an autograd.Function with a vmap staticmethod ---------------------------------------

_NUMPY_SORT = """
import numpy as np
def to_numpy(t):
    return t.cpu().numpy()
class NumpySort(T.autograd.Function):
    @staticmethod
    def forward(x, dim):
        device = x.device
        x = to_numpy(x)
        ind = np.argsort(x, axis=dim)
        ind_inv = np.argsort(ind, axis=dim)
        result = np.take_along_axis(x, ind, axis=dim)
        return T.tensor(result, device=device), T.tensor(ind, device=device), T.tensor(ind_inv, device=device)
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim = inputs
        _, ind, ind_inv = output
        ctx.mark_non_differentiable(ind, ind_inv)
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim
    @staticmethod
    def backward(ctx, grad_output, _0, _1):
        ind, ind_inv = ctx.saved_tensors
        return NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim), None
    @staticmethod
    def vmap(info, in_dims, x, dim):
        x_bdim, _ = in_dims
        x = x.movedim(x_bdim, 0)
        dim = dim if dim >= 0 else dim + x.dim() - 1
        return NumpySort.apply(x, dim + 1), (0, 0, 0)
class NumpyTake(T.autograd.Function):
    @staticmethod
    def forward(x, ind, ind_inv, dim):
        device = x.device
        return T.tensor(np.take_along_axis(to_numpy(x), to_numpy(ind), dim), device=device)
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ind, ind_inv, dim = inputs
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim
    @staticmethod
    def backward(ctx, grad_output):
        ind, ind_inv = ctx.saved_tensors
        return NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim), None, None, None
    @staticmethod
    def vmap(info, in_dims, x, ind, ind_inv, dim):
        x_bdim, ind_bdim, ind_inv_bdim, _ = in_dims
        logical_dim = x.dim() if x_bdim is None else x_bdim - 1
        dim = dim if dim >= 0 else dim + logical_dim
        def front(t, bdim):
            return t.expand(info.batch_size, *t.shape) if bdim is None else t.movedim(bdim, 0)
        return NumpyTake.apply(front(x, x_bdim), front(ind, ind_bdim), front(ind_inv, ind_inv_bdim), dim + 1), 0
def numpy_sort(x, dim=-1):
    result, _, _ = NumpySort.apply(x, dim)
    return result
x = T.tensor([[3.0, 1.0, 2.0], [0.5, 2.5, 1.5]], dtype=T.float64)
w = T.tensor([1.0, 2.0, 3.0], dtype=T.float64)
"""
ports_snippet("vmap_over_a_function_that_leaves_the_tensor_world", _NUMPY_SORT + """
out = [T.vmap(numpy_sort)(x), T.vmap(numpy_sort, in_dims=1)(x.t().contiguous()),
       T.func.grad(lambda r: (numpy_sort(r) * w).sum())(x[0]),
       T.vmap(T.func.grad(lambda r: (numpy_sort(r) * w).sum()))(x)]
xx = x.clone().requires_grad_()
(T.vmap(numpy_sort)(xx) * w).sum().backward()
out.append(xx.grad)
""")
_SIMPLE = """
class {name}(T.autograd.Function):
    {extra}
    @staticmethod
    def forward(x):
        return x * 3
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g * 3
"""
ports_snippet("vmap_over_a_function_without_a_rule", _SIMPLE.format(name="F", extra="pass") + """
T.vmap(F.apply)(T.ones(2, 3))
""", "words")
ports_snippet("vmap_over_a_function_with_both_rules", _SIMPLE.format(name="F", extra="""generate_vmap_rule = True
    @staticmethod
    def vmap(info, in_dims, x):
        return x * 3, 0""") + """
T.vmap(F.apply)(T.ones(2, 3))
""", "words")
ports_snippet("vmap_rule_returning_one_value", _SIMPLE.format(name="F", extra="""@staticmethod
    def vmap(info, in_dims, x):
        return x * 3""") + """
T.vmap(F.apply)(T.ones(2, 3))
""", "words")
ports_snippet("vmap_rule_with_an_out_dim", _SIMPLE.format(name="F", extra="""@staticmethod
    def vmap(info, in_dims, x):
        return F.apply(x).movedim(0, 1), 1""") + """
x = T.arange(6.0).view(2, 3)
out = [T.vmap(F.apply)(x), T.vmap(T.func.grad(lambda r: F.apply(r).sum()))(x),
       T.func.grad(lambda r: T.vmap(F.apply)(r).sum())(x)]
""")
