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
                "torch_behaviours_ports")


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
snippet("post_accumulate_grad_hook_sees_the_grad", """
x = T.ones(2, requires_grad=True)
seen = []
x.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.tolist()))
(x * 3).sum().backward()
out = seen
""")
