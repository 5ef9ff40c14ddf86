"""Snippets of torch.library / dispatcher / autograd / fake-tensor behaviour whose outcome
torch 2.15 records (``gen_torch_behaviours.py`` -> ``torch_behaviours.json``) and opyard
replays (``tests/autograd/test_torch_behaviours.py``).

Each snippet runs with ``T`` bound to the module under test (``torch`` or ``opyard``) and
``norm`` (below); it leaves its answer in ``out`` or raises. ``CHECK[name]`` says what must
agree besides the outcome kind: ``"value"`` (the normalised ``out``; for a raise, the exception
type), ``"words"`` (a raise whose first message line, with "torch" read as "opyard", opyard's
message contains). Warnings are recorded as (category, first line) and must agree too.

This module holds the autograd snippets; the other areas' are in the modules of
``AREA_MODULES`` (``load_all()`` imports them). ``AREA[name]`` is the test folder that
replays a snippet.
"""

import importlib

SNIPPETS = {}
CHECK = {}
AREA = {}
AREA_MODULES = ("torch_behaviours_library", "torch_behaviours_fake", "torch_behaviours_dispatch",
                "torch_behaviours_ports", "torch_behaviours_views")


def snippet(name, code, check="value", area="autograd"):
    assert name not in SNIPPETS, f"two snippets named {name}"
    SNIPPETS[name] = code
    CHECK[name] = check
    AREA[name] = area


def load_all():
    """Import every area's snippets (they register themselves through ``snippet``)."""
    for m in AREA_MODULES:
        importlib.import_module(m)


def plain(x):
    """``str(x)`` with the module's name read as ``T`` (``torch.float32`` -> ``T.float32``)."""
    return str(x).replace("torch", "T").replace("opyard", "T")


def norm(x):
    """A JSON-able picture of a result: tensors as values and requires_grad, containers by element."""
    if hasattr(x, "tolist") and hasattr(x, "requires_grad"):
        return ["tensor", x.tolist(), bool(x.requires_grad), str(x.dtype).split(".")[-1]]
    if isinstance(x, (list, tuple)):
        return [norm(v) for v in x]
    if isinstance(x, dict):
        return {str(k): norm(v) for k, v in x.items()}
    if isinstance(x, type):
        return ["type", x.__name__]
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    return ["object", type(x).__name__]


# --- autograd: legacy names -------------------------------------------------------------------

snippet("variable_is_a_detached_alias", """
from T.autograd import Variable
x = T.ones(2, requires_grad=True)
v = Variable(x)
w = Variable(T.ones(2), requires_grad=True)
out = [v is x, v.requires_grad, v.grad_fn is None, w.is_leaf, w.requires_grad, isinstance(x, Variable),
       isinstance(x * 2, Variable), Variable().tolist(), type(Variable(x)) is type(x)]
""")
snippet("variable_shares_memory", """
from T.autograd import Variable
x = T.zeros(2)
v = Variable(x)
v.add_(1)
out = x
""")
snippet("variable_of_a_list", """
from T.autograd import Variable
Variable([1.0])
""", "words")
snippet("variable_volatile_warns", """
from T.autograd import Variable
out = Variable(T.ones(1), volatile=True)
""")
snippet("inplace_function", """
from T.autograd.function import InplaceFunction
class Double(InplaceFunction):
    @staticmethod
    def forward(ctx, x, inplace=False):
        if inplace:
            ctx.mark_dirty(x)
            return x.mul_(2)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2, None
x = T.ones(2, requires_grad=True)
y = Double.apply(x * 1, True)
y.sum().backward()
out = [y, x.grad, issubclass(InplaceFunction, T.autograd.Function)]
""")
snippet("increment_version", """
from T.autograd.graph import increment_version
x = T.ones(2)
a = x._version
increment_version(x)
increment_version([x, x])
out = [a, x._version]
""")
snippet("increment_version_invalidates_saved", """
from T.autograd.graph import increment_version
x = T.ones(2, requires_grad=True)
y = x * 1
z = y.sin()
increment_version(y)
z.sum().backward()
""")
snippet("increment_version_of_none", """
from T.autograd.graph import increment_version
increment_version(None)
""", "words")

# --- grad mode as a decorator ------------------------------------------------------------------

snippet("no_grad_decorates_a_class", """
@T.no_grad()
class C:
    def __init__(self):
        self.at_init = T.is_grad_enabled()
    def f(self):
        return T.is_grad_enabled()
c = C()
out = [isinstance(C, type), c.at_init, c.f()]
""")
snippet("enable_grad_decorates_a_class", """
@T.enable_grad()
class C:
    def __init__(self):
        self.at_init = T.is_grad_enabled()
with T.no_grad():
    c = C()
out = [c.at_init, T.is_grad_enabled()]
""")
snippet("generator_in_no_grad", """
@T.no_grad()
def gen():
    yield T.is_grad_enabled()
    yield T.is_grad_enabled()
g = gen()
a = next(g)
inside = T.is_grad_enabled()
with T.enable_grad():
    b = next(g)
out = [a, inside, b]
""")
snippet("generator_throw_runs_in_the_mode", """
@T.no_grad()
def gen():
    try:
        yield 1
    except ValueError:
        yield T.is_grad_enabled()
g = gen()
next(g)
out = [g.throw(ValueError("x")), T.is_grad_enabled()]
""")
snippet("generator_throw_unhandled_propagates", """
@T.no_grad()
def gen():
    yield 1
g = gen()
next(g)
try:
    g.throw(KeyError("k"))
except KeyError as e:
    out = ["KeyError", T.is_grad_enabled()]
""")
snippet("generator_close_runs_cleanup_in_the_mode", """
seen = []
@T.no_grad()
def gen():
    try:
        yield 1
    finally:
        seen.append(T.is_grad_enabled())
g = gen()
next(g)
g.close()
out = [seen, T.is_grad_enabled()]
""")
snippet("generator_send_and_return_value", """
@T.enable_grad()
def gen():
    x = yield 1
    yield (x, T.is_grad_enabled())
    return "done"
with T.no_grad():
    g = gen()
    next(g)
    got = g.send(5)
    try:
        next(g)
    except StopIteration as e:
        ret = e.value
out = [got, ret]
""")
snippet("coroutine_is_wrapped_as_a_function", """
import asyncio
@T.no_grad()
async def co():
    return T.is_grad_enabled()
out = [asyncio.run(co()), T.is_grad_enabled()]
""")

# --- hooks --------------------------------------------------------------------------------------

snippet("post_accumulate_grad_hook_returning_a_value", """
x = T.ones(2, requires_grad=True)
x.register_post_accumulate_grad_hook(lambda p: 5)
(x * 2).sum().backward()
""", "words")
snippet("post_accumulate_grad_hook_returning_a_tensor", """
x = T.ones(2, requires_grad=True)
x.register_post_accumulate_grad_hook(lambda p: p.grad * 2)
(x * 2).sum().backward()
""", "words")
snippet("post_accumulate_grad_hook_sees_the_grad", """
x = T.ones(2, requires_grad=True)
seen = []
x.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.tolist()))
(x * 3).sum().backward()
out = seen
""")

# --- no unnecessary saves ------------------------------------------------------------------------

snippet("no_unnecessary_save", """
# torch's test_no_unnecessary_save: x * ft must not save x when ft needs no grad, so changing x in
# place afterwards does not break the backward.
mu = T.ones(1, requires_grad=True)
x = T.empty(1)
loss = 0
for i in range(3):
    x.detach_()
    x.copy_(mu + i)
    ft = T.tensor([float(i)])
    multiplied = x * ft
    s = multiplied.sum()
    loss += s
loss.backward()
out = mu.grad
""")
_SAVE_CASES = {
    "mul": "x * t", "rmul": "t * x", "div": "x / t", "rdiv": "t / x", "mm": "x.view(1, 2) @ t.view(2, 1)",
    "matmul": "x @ t", "dot": "T.dot(x, t)", "vdot": "T.dot(t, x)", "pow": "x ** t", "atan2": "T.atan2(x, t)",
    "maximum": "T.maximum(x, t)", "addmm": "T.addmm(t.view(1, 2), x.view(2, 1), t.view(1, 2))",
    "addmm_mat2": "T.addmm(t.view(2, 2), t.view(2, 1).expand(2, 1), x.view(1, 2))",
    "lerp": "T.lerp(x, t, 0.5)", "lerp_tensor": "T.lerp(x, t, t)", "lerp_weight": "T.lerp(t, t * 2, x)",
    "hypot": "T.hypot(x, t)", "linear": "T.nn.functional.linear(x, t.view(1, 2))",
    "bmm": "T.bmm(x.view(1, 1, 2), t.view(1, 2, 1))", "rbmm": "T.bmm(t.view(1, 1, 2), x.view(1, 2, 1))",
    "xlogy": "T.xlogy(x, t)", "outer": "T.outer(x, t)", "router": "T.outer(t, x)",
    "mv": "T.mv(t.view(1, 2).expand(2, 2), x)", "mv_matrix": "T.mv(x.view(1, 2), t)",
    "fmod": "T.fmod(x, t)", "rfmod": "T.fmod(t, x)", "remainder": "T.remainder(x, t)",
    "rremainder": "T.remainder(t, x)", "div_trunc": "T.div(x, t, rounding_mode='trunc')",
    "div_mode_none": "T.div(x, t, rounding_mode=None)", "rdiv_mode_none": "T.div(t, x, rounding_mode=None)",
    "cross": "T.linalg.cross(T.cat([x, t[:1]]), T.cat([t, t[:1]]))",
    "rcross": "T.linalg.cross(T.cat([t, t[:1]]), T.cat([x, t[:1]]))",
    "where": "T.where(t > 1, x, t)", "sub": "x - t", "copysign": "T.copysign(x, t)",
}
for _name, _expr in _SAVE_CASES.items():
    snippet(f"unnecessary_save_{_name}", f"""
# x requires grad (through copy_), t does not; x changes in place after each use.
mu = T.ones(2, requires_grad=True)
x = T.empty(2)
loss = 0
for i in range(3):
    x.detach_()
    x.copy_(mu + i)
    t = T.tensor([float(i) + 1, 2.0])
    loss = loss + ({_expr}).sum()
try:
    loss.backward()
    out = mu.grad
except RuntimeError as e:
    out = "modified by an inplace operation" in str(e)
""")
snippet("saved_tensors_of_a_product", """
a = T.ones(2, requires_grad=True)
b = T.full((2,), 3.0)
y = a * b
z = b * a
both = a * (b * 1).requires_grad_()
out = [y.grad_fn._saved_other, y.grad_fn._saved_self, z.grad_fn._saved_self, z.grad_fn._saved_other,
       both.grad_fn._saved_self, both.grad_fn._saved_other]
""")
snippet("saved_tensors_of_a_matmul", """
a = T.ones(2, 2, requires_grad=True)
b = T.full((2, 2), 3.0)
y = a.mm(b)
w = T.addmm(b, b, a)
out = [y.grad_fn._saved_self, y.grad_fn._saved_mat2, w.grad_fn._saved_mat1, w.grad_fn._saved_mat2]
""")
snippet("gradients_when_only_one_side_is_saved", """
x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
t = T.tensor([3.0, 4.0], dtype=T.float64)
m = T.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=T.float64)
out = [T.autograd.grad((x * t).sum(), x)[0], T.autograd.grad((t * x).sum(), x)[0],
       T.autograd.grad((x / t).sum(), x)[0], T.autograd.grad((t / x).sum(), x)[0],
       T.autograd.grad(x.view(1, 2).mm(m).sum(), x)[0], T.autograd.grad(m.mm(x.view(2, 1)).sum(), x)[0],
       T.autograd.grad(T.addmm(m, m, x.view(2, 1).expand(2, 2)).sum(), x)[0],
       T.autograd.grad(T.fmod(x, t).sum(), x)[0], T.autograd.grad(T.fmod(t, x).sum(), x)[0],
       T.autograd.grad(T.hypot(x, t).sum(), x)[0], T.autograd.grad(T.lerp(x, t, t / 8).sum(), x)[0],
       T.autograd.grad(T.dot(x, t), x)[0], T.autograd.grad(T.outer(t, x).sum(), x)[0]]
""")

# --- the execution engine ------------------------------------------------------------------------

_ENGINE = """
from T.autograd import Variable
E = Variable._execution_engine
calls = []
class F(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        {body}
        return g * 2
x = T.ones(2, requires_grad=True)
"""
snippet("engine_methods", """
from T.autograd import Variable
E = Variable._execution_engine
out = [sorted(m for m in dir(E) if not m.startswith("_")), E.is_checkpoint_valid()]
""")
snippet("engine_queue_callback_runs_after_the_pass", _ENGINE.format(body="""E.queue_callback(lambda: calls.append(("callback", x.grad is not None)))
        E.queue_callback(lambda: E.queue_callback(lambda: calls.append("queued by a callback")))
        calls.append("backward")""") + """
F.apply(x).sum().backward()
out = calls
""")
snippet("engine_queue_callback_in_grad", _ENGINE.format(body="""E.queue_callback(lambda: calls.append(("callback", E.is_checkpoint_valid())))""") + """
T.autograd.grad(F.apply(x).sum(), x)
out = calls
""")
snippet("engine_queue_callback_dropped_when_backward_raises", _ENGINE.format(body="""E.queue_callback(lambda: calls.append("callback"))
        raise ValueError("boom")""") + """
try:
    F.apply(x).sum().backward()
except ValueError:
    pass
out = calls
""")
snippet("engine_queue_callback_raising", _ENGINE.format(body="""E.queue_callback(lambda: 1 / 0)""") + """
F.apply(x).sum().backward()
""")
snippet("engine_queue_callback_outside_backward", """
from T.autograd import Variable
Variable._execution_engine.queue_callback(lambda: None)
""", "words")
snippet("engine_queue_callback_in_nested_backward", _ENGINE.format(body="""inner = T.ones(1, requires_grad=True)
        E.queue_callback(lambda: calls.append("outer callback"))
        class G(T.autograd.Function):
            @staticmethod
            def forward(ctx, y):
                return y * 1
            @staticmethod
            def backward(ctx, h):
                E.queue_callback(lambda: calls.append("inner callback"))
                return h
        with T.enable_grad():
            G.apply(inner).sum().backward()
        calls.append("after inner backward")""") + """
F.apply(x).sum().backward()
out = calls
""")
snippet("engine_run_backward", """
from T.autograd import Variable
E = Variable._execution_engine
x = T.ones(2, requires_grad=True)
z = T.ones(2, requires_grad=True)
a = E.run_backward(((x * 3).sum(),), (T.ones(()),), False, False, (), True, True)
b = E.run_backward(((x * 3).sum(),), (T.ones(()),), False, False, (x,), False, False)
c = E.run_backward(((x * 3).sum(),), (T.ones(()),), False, False, (x, z), True, False)
out = [a, x.grad, b, c]
""")
snippet("engine_run_backward_unused_input", """
from T.autograd import Variable
x = T.ones(2, requires_grad=True)
Variable._execution_engine.run_backward(((x * 3).sum(),), (T.ones(()),), False, False,
                                        (x, T.ones(2, requires_grad=True)), False, False)
""", "words")
snippet("engine_run_backward_missing_gradient", """
from T.autograd import Variable
x = T.ones(2, requires_grad=True)
Variable._execution_engine.run_backward(((x * 3).sum(),), (None,), False, False, (), True, True)
""", "words")
snippet("engine_run_backward_root_without_grad", """
from T.autograd import Variable
Variable._execution_engine.run_backward((T.ones(2),), (T.ones(2),), False, False, (), True, True)
""", "words")

# --- saved tensor hooks --------------------------------------------------------------------------

snippet("saved_tensors_hooks_pack_and_unpack", """
from T.autograd.graph import saved_tensors_hooks
calls = []
def pack(t):
    calls.append(("pack", list(t.shape)))
    return ("packed", t)
def unpack(p):
    calls.append("unpack")
    return p[1]
x = T.ones(3, requires_grad=True)
with saved_tensors_hooks(pack, unpack):
    y = x.exp()
    z = x * x
    w = x * 2 + 1
    v = x.sum() + x.clone().view(3).sum()
(y.sum() + z.sum()).backward()
out = [calls, x.grad]
""")
snippet("saved_tensors_hooks_unpack_replaces", """
from T.autograd.graph import saved_tensors_hooks
x = T.ones(2, requires_grad=True)
with saved_tensors_hooks(lambda t: "packed", lambda p: T.full((2,), 5.0)):
    y = x.pow(2)
out = [T.autograd.grad(y.sum(), x)[0], y.grad_fn._saved_self.tolist()]
""")
snippet("saved_tensors_hooks_pack_changes_the_value", """
from T.autograd.graph import saved_tensors_hooks
x = T.ones(3, requires_grad=True)
with saved_tensors_hooks(lambda t: t * 2, lambda t: t):
    y = x.pow(2)
y.sum().backward()
out = x.grad
""")
snippet("saved_tensors_hooks_skip_the_version_check", """
from T.autograd.graph import saved_tensors_hooks
x = T.ones(2, dtype=T.float64, requires_grad=True)
y = x * 1
with saved_tensors_hooks(lambda t: t, lambda t: t):
    w = y.sin()
y.add_(1)
w.sum().backward()
out = x.grad
""")
snippet("saved_tensors_hooks_on_a_function", """
from T.autograd.graph import saved_tensors_hooks
class F(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        ctx.save_for_backward(x, y, None)
        return y
    @staticmethod
    def backward(ctx, g):
        a, b, c = ctx.saved_tensors
        return g * a * 2 + (c is None)
calls = []
x = T.full((2,), 3.0, requires_grad=True)
with saved_tensors_hooks(lambda t: calls.append(("pack", t.tolist())) or t + 1, lambda t: calls.append("unpack") or t):
    y = F.apply(x)
y.sum().backward()
out = [calls, x.grad]
""")
snippet("saved_tensors_hooks_innermost_wins", """
from T.autograd.graph import saved_tensors_hooks
seen = []
x = T.ones(2, requires_grad=True)
with saved_tensors_hooks(lambda t: seen.append("outer") or t, lambda t: t):
    with saved_tensors_hooks(lambda t: seen.append("inner") or t, lambda t: t):
        y = x.exp()
    z = x.exp()
out = seen
""")
snippet("saved_tensors_hooks_not_used_without_grad", """
from T.autograd.graph import saved_tensors_hooks
seen = []
x = T.ones(2, requires_grad=True)
with saved_tensors_hooks(lambda t: seen.append("pack") or t, lambda t: t):
    with T.no_grad():
        y = x.exp()
    z = T.ones(2).exp()
out = seen
""")
snippet("saved_tensors_hooks_unpack_returns_none", """
from T.autograd.graph import saved_tensors_hooks
x = T.ones(2, requires_grad=True)
with saved_tensors_hooks(lambda t: None, lambda t: t):
    y = x.exp()
y.grad_fn._saved_result
""", "words")
snippet("saved_tensors_hooks_unpack_returns_an_int", """
from T.autograd.graph import saved_tensors_hooks
x = T.ones(2, requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda t: 1):
    y = x.exp()
y.sum().backward()
""", "words")
snippet("saved_tensors_hooks_after_the_graph_is_freed", """
from T.autograd.graph import saved_tensors_hooks
x = T.ones(2, requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda t: t):
    y = x.pow(2)
y.sum().backward()
y.grad_fn._saved_self
""", "words")
snippet("saved_tensors_hooks_disabled", """
from T.autograd.graph import disable_saved_tensors_hooks, saved_tensors_hooks
with disable_saved_tensors_hooks("not here"):
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        pass
""", "words")
snippet("saved_tensors_hooks_disabled_while_active", """
from T.autograd.graph import disable_saved_tensors_hooks, saved_tensors_hooks
with saved_tensors_hooks(lambda t: t, lambda t: t):
    with disable_saved_tensors_hooks("not here"):
        pass
""", "words")
snippet("saved_tensors_hooks_disabled_then_enabled", """
from T.autograd.graph import disable_saved_tensors_hooks, saved_tensors_hooks
with disable_saved_tensors_hooks("not here"):
    pass
seen = []
with saved_tensors_hooks(lambda t: seen.append(1) or t, lambda t: t):
    T.ones(1, requires_grad=True).exp()
out = seen
""")
snippet("raw_saved_tensor_register_hooks", """
x = T.ones(2, requires_grad=True)
y = x.exp()
raw = y.grad_fn._raw_saved_result
raw.register_hooks(lambda t: t * 0, lambda t: t * 0)
y.sum().backward()
out = [type(raw).__name__, x.grad]
""")
snippet("raw_saved_tensor_register_hooks_twice", """
x = T.ones(2, requires_grad=True)
y = x.exp()
raw = y.grad_fn._raw_saved_result
raw.register_hooks(lambda t: t, lambda t: t)
raw.register_hooks(lambda t: t, lambda t: t)
""", "words")
snippet("raw_saved_tensor_register_hooks_under_hooks", """
from T.autograd.graph import saved_tensors_hooks
x = T.ones(2, requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda t: t):
    y = x.exp()
y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t)
""", "words")
snippet("save_on_cpu", """
from T.autograd.graph import save_on_cpu, saved_tensors_hooks
x = T.ones(2, dtype=T.float64, requires_grad=True)
with save_on_cpu():
    y = x.exp()
out = [T.autograd.grad(y.sum(), x)[0], issubclass(save_on_cpu, saved_tensors_hooks)]
""")


# --- Function helpers: once_differentiable, materialized gradients, needs_input_grad -------------

_ONCE = """
from T.autograd.function import once_differentiable
seen = []
class F(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        seen.append([T.is_grad_enabled(), g.requires_grad])
        return 2 * x * g
x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
"""
snippet("once_differentiable_runs_without_grad", _ONCE + """
g, = T.autograd.grad(F.apply(x).sum(), x)
out = [seen, g, g.grad_fn is None]
""")
snippet("once_differentiable_with_create_graph", _ONCE + """
g, = T.autograd.grad(F.apply(x).sum(), x, create_graph=True)
out = [seen, g, type(g.grad_fn).__name__]
""")
snippet("once_differentiable_refuses_double_backward", _ONCE + """
g, = T.autograd.grad(F.apply(x).sum(), x, create_graph=True)
g.sum().backward()
""", "words")
_TWO_OUTPUTS = """
seen = []
class F(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads({flag})
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        seen.append([g1 is None, g2 is None, None if g2 is None else g2.tolist()])
        return g1 if g2 is None else g1 + g2
x = T.ones(2, requires_grad=True)
a, b = F.apply(x)
a.sum().backward()
out = [seen, x.grad]
"""
snippet("materialize_grads_off", _TWO_OUTPUTS.format(flag="False"))
snippet("materialize_grads_on", _TWO_OUTPUTS.format(flag="True"))
snippet("needs_input_grad_set_in_forward", """
seen = []
class F(T.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        seen.append(ctx.needs_input_grad)
        ctx.needs_input_grad = (False, True)
        return x * y
    @staticmethod
    def backward(ctx, g):
        seen.append(ctx.needs_input_grad)
        return None, g
x = T.ones(2, requires_grad=True)
y = T.ones(2, requires_grad=True)
F.apply(x, y).sum().backward()
out = [seen, x.grad, y.grad]
""")
snippet("needs_input_grad_set_in_setup_context", """
seen = []
class F(T.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        seen.append(ctx.needs_input_grad)
        ctx.needs_input_grad = [True]
    @staticmethod
    def backward(ctx, g):
        seen.append(ctx.needs_input_grad)
        return g * 2
x = T.ones(2, requires_grad=True)
F.apply(x).sum().backward()
out = [seen, x.grad]
""")


# --- tensor hooks and autograd.grad: what is captured ---------------------------------------------

snippet("grad_of_a_leaf_with_a_hook", """
x = T.ones(2, requires_grad=True)
x.register_hook(lambda g: g * 5)
g, = T.autograd.grad((x * 2).sum(), x)
out = [g, x.grad]
""")
snippet("grad_of_a_non_leaf_with_a_hook", """
x = T.ones(2, requires_grad=True)
y = x * 2
calls = []
y.register_hook(lambda g: calls.append(g.tolist()) or g + 1)
gy, = T.autograd.grad(y.sum(), y)
out = [gy, calls]
""")
snippet("grad_of_a_non_leaf_with_a_hook_and_of_its_input", """
x = T.ones(2, requires_grad=True)
y = x * 2
y.register_hook(lambda g: g * 3)
gx, gy = T.autograd.grad((y * y).sum(), (x, y))
out = [gx, gy]
""")
snippet("grad_of_a_non_leaf_with_a_hook_and_of_its_input_reversed", """
x = T.ones(2, requires_grad=True)
y = x * 2
y.register_hook(lambda g: g * 3)
gy, gx = T.autograd.grad((y * y).sum(), (y, x))
out = [gx, gy]
""")
snippet("grad_of_a_non_leaf_with_retain_grad_and_a_hook", """
x = T.ones(2, requires_grad=True)
y = x * 2
y.retain_grad()
y.register_hook(lambda g: g * 3)
gy, = T.autograd.grad(y.sum(), y)
out = [gy, y.grad]
""")
snippet("grad_of_a_non_leaf_with_a_node_pre_hook", """
x = T.ones(2, requires_grad=True)
y = x * 2
calls = []
y.grad_fn.register_prehook(lambda gs: calls.append("node") or None)
y.register_hook(lambda g: calls.append("tensor") or g * 3)
gy, = T.autograd.grad(y.sum(), y)
gx, = T.autograd.grad((x * 2).sum() + y.sum(), x)
out = [gy, gx, calls]
""")
snippet("backward_inputs_non_leaf_with_a_hook", """
x = T.ones(2, requires_grad=True)
y = x * 2
y.register_hook(lambda g: g * 3)
(y * y).sum().backward(inputs=[y, x])
out = [y.grad, x.grad]
""")
snippet("retain_grad_sees_the_hooked_gradient", """
x = T.ones(2, requires_grad=True)
y = x * 2
y.retain_grad()
y.register_hook(lambda g: g * 10)
y.sum().backward()
out = [y.grad, x.grad]
""")


# --- in-place changes of leaves and views, with hooks ---------------------------------------------

snippet("in_place_on_a_leaf", """
x = T.ones(2, requires_grad=True)
x.add_(1)
""", "words")
snippet("in_place_on_a_view_of_a_leaf", """
x = T.ones(2, requires_grad=True)
x[0].mul_(2)
""", "words")
snippet("in_place_on_a_leaf_under_no_grad", """
x = T.ones(2, requires_grad=True)
with T.no_grad():
    x.add_(1)
out = [x, x.is_leaf, x.grad_fn is None, x._version]
""")
snippet("hooks_registered_before_and_after_an_in_place_change", """
x = T.ones(2, requires_grad=True)
y = x.clone()
calls = []
y.register_hook(lambda g: calls.append(["before", g.tolist()]))
y.mul_(3)
y.register_hook(lambda g: calls.append(["after", g.tolist()]))
(y * 2).sum().backward()
out = [calls, x.grad]
""")
snippet("hook_on_a_view_then_in_place_on_the_view", """
x = T.ones(3, requires_grad=True)
b = x.clone()
v = b[:2]
calls = []
v.register_hook(lambda g: calls.append(["view", g.tolist()]))
b.register_hook(lambda g: calls.append(["base", g.tolist()]))
v.mul_(2)
b.sum().backward()
out = [calls, x.grad]
""")
snippet("hook_on_the_base_then_in_place_on_a_view", """
x = T.ones(3, requires_grad=True)
b = x.clone()
calls = []
b.register_hook(lambda g: calls.append(["base", g.tolist()]))
b[1:].mul_(4)
(b * 2).sum().backward()
out = [calls, x.grad]
""")


# --- reentrant backward ---------------------------------------------------------------------------

snippet("backward_inside_a_backward", """
class F(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 1
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        with T.enable_grad():
            xd = x.detach().requires_grad_()
            (xd ** 3).sum().backward()
        return g * xd.grad
x = T.tensor([1.0, 2.0], requires_grad=True)
F.apply(x).sum().backward()
out = x.grad
""")
snippet("grad_inside_a_backward", """
class F(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        with T.enable_grad():
            xd = x.detach().requires_grad_()
            gx, = T.autograd.grad((xd * xd).sum(), xd)
        return g * gx
x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
F.apply(x).sum().backward()
out = x.grad
""")
snippet("nested_reentrant_backward", """
depths = []
class F(T.autograd.Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.n = n
        return x * 1
    @staticmethod
    def backward(ctx, g):
        depths.append(ctx.n)
        if ctx.n > 0:
            with T.enable_grad():
                F.apply(T.ones(1, requires_grad=True), ctx.n - 1).sum().backward()
        return g * 2, None
x = T.ones(1, requires_grad=True)
F.apply(x, 30).sum().backward()
out = [x.grad, len(depths), depths[-1]]
""")
snippet("reentrant_backward_through_the_outer_graph", """
class F(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        with T.enable_grad():
            y = x * x
        gx, = T.autograd.grad(y.sum(), x)
        return g + gx
w = T.tensor([1.0, 3.0], requires_grad=True)
x = w * 2
F.apply(x).sum().backward()
out = w.grad
""")


# --- autograd.Function with default arguments under vmap ------------------------------------------

_DEFAULTS = """
class F(T.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x, scale=2.0):
        return x * scale
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.scale = inputs[1] if len(inputs) > 1 else 2.0
        ctx.n = len(inputs)
    @staticmethod
    def backward(ctx, g):
        return g * ctx.scale, None
x = T.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
"""
snippet("function_with_defaults_under_vmap", _DEFAULTS + """
out = [T.vmap(F.apply)(x), T.vmap(lambda t: F.apply(t, 3.0))(x), T.vmap(F.apply, in_dims=(0, None))(x, 4.0)]
""")
snippet("function_with_defaults_under_vmap_of_grad", _DEFAULTS + """
out = [T.vmap(T.func.grad(lambda t: F.apply(t).sum()))(x), T.vmap(T.func.grad(lambda t: F.apply(t, 5.0).sum()))(x)]
""")
snippet("function_with_defaults_under_grad_of_vmap", _DEFAULTS + """
out = T.func.grad(lambda t: T.vmap(F.apply)(t).sum())(x)
""")
snippet("function_with_defaults_under_grad", _DEFAULTS + """
out = T.func.grad(lambda t: F.apply(t).sum())(x)
""")
snippet("function_with_defaults_and_a_vmap_staticmethod", """
seen = []
class F(T.autograd.Function):
    @staticmethod
    def forward(x, scale=2.0):
        return x * scale
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def vmap(info, in_dims, x, scale=5.0):
        seen.append([list(in_dims), scale])
        return x * scale, in_dims[0]
x = T.ones(3, 2)
out = [T.vmap(F.apply)(x), T.vmap(lambda t: F.apply(t, scale=7.0))(x), seen]
""")
snippet("function_with_defaults_keyword_under_vmap", _DEFAULTS + """
out = T.vmap(lambda t: F.apply(t, scale=3.0))(x)
""")
