"""Views and in-place changes of their memory (see ``torch_behaviours.py`` for the format).

A view taken before its base, or another view of the same base, is modified in place sees that
change: reading its ``grad_fn`` regenerates its history on top of the base's current history
(``AsStridedBackward0``), whatever kind of view it is and however the memory changed (in place
on the base, on a sibling view, under ``no_grad``, through ``copy_``). Views made in no_grad mode
and outputs of ops returning several views refuse instead. Each snippet records the view's
``grad_fn`` name and the gradients that flow to the leaf.
"""

from torch_behaviours import snippet

# How each kind of view is taken from ``b`` (a clone of the leaf ``x`` of shape (3, 4)).
VIEWS = {
    "slice": "b[1:]",
    "step_slice": "b[:, ::2]",
    "select": "b[1]",
    "select_method": "b.select(1, 2)",
    "narrow": "b.narrow(1, 1, 2)",
    "view": "b.view(4, 3)",
    "reshape": "b.reshape(12)",
    "flatten": "b.flatten()",
    "unflatten": "b.unflatten(1, (2, 2))",
    "transpose": "b.transpose(0, 1)",
    "t": "b.t()",
    "permute": "b.permute(1, 0)",
    "movedim": "b.movedim(0, 1)",
    "diagonal": "b.diagonal()",
    "as_strided": "b.as_strided((2, 2), (4, 1), 1)",
    "expand": "b[0:1].expand(2, 4)",
    "squeeze": "b[1:2].squeeze(0)",
    "unsqueeze": "b.unsqueeze(0)",
    "unfold": "b.unfold(1, 2, 1)",
    "view_of_view": "b[1:].t()[1:]",
    "tensor_split": "b.tensor_split(2, dim=1)[1]",
    "hsplit": "T.hsplit(b, 2)[0]",
    "alias_ellipsis": "b[...]",
}

# How the memory changes after the view was taken.
CHANGES = {
    "base_mul": "b.mul_(2)",
    "base_add_tensor": "b.add_(w_base)",
    "sibling": "b[0:2].mul_(3)",
    "sibling_select": "b.select(1, 0).mul_(w_base[:, 0])",
    "under_no_grad": "with T.no_grad():\n    b.mul_(5)",
    "copy": "b.copy_(w_base * x)",
}

_SETUP = """
x = T.arange(1.0, 13.0, dtype=T.float64).reshape(3, 4).requires_grad_()
w_base = ((T.arange(12, dtype=T.float64) - 5) / 4).reshape(3, 4).requires_grad_()
b = x * 1
v = {view}
{change}
name = v.grad_fn.name()
wv = T.arange(v.numel(), dtype=T.float64).reshape(v.shape) + 1
((v * wv).sum() + (b * b).sum() * 0.5).backward()
out = [name, x.grad, w_base.grad, v.requires_grad, v.is_leaf]
"""

for _view, _expr in VIEWS.items():
    for _change, _code in CHANGES.items():
        snippet(f"view_{_view}_after_{_change}", _SETUP.format(view=_expr, change=_code))

snippet("view_history_is_made_once_per_change", """
x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = x.clone()
v = b[1:]
g1 = v.grad_fn
b.mul_(2)
g2 = v.grad_fn
g3 = v.grad_fn
b.mul_(2)
g4 = v.grad_fn
out = [g1.name(), g2.name(), g1 is g2, g2 is g3, g3 is g4, v._version, g2.next_functions[0][0] is not None,
       v.output_nr, v.is_leaf]
""")
snippet("view_used_between_changes", """
x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = x.clone()
v = b[1:]
b.mul_(2)
y = v * v
b.mul_(3)
z = v * 1
out = list(T.autograd.grad((y + z).sum(), x))
""")
snippet("view_hook_before_change_stays_on_old_history", """
x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = x.clone()
v = b[1:]
seen = []
v.register_hook(lambda g: seen.append(g.clone()))
b.mul_(2)
v.sum().backward()
out = [seen, x.grad]
""")
snippet("view_hook_after_change_is_called", """
x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = x.clone()
v = b[1:]
b.mul_(2)
seen = []
v.register_hook(lambda g: seen.append(g * 1))
(v * T.tensor([2.0, 3.0])).sum().backward()
out = [seen, x.grad]
""")
snippet("view_retain_grad_follows_new_history", """
x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = x.clone()
v = b[1:]
v.retain_grad()
b.mul_(2)
(v * v).sum().backward()
out = [v.grad, x.grad, v.retains_grad]
""")
snippet("view_grad_fn_read_under_no_grad", """
x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = x.clone()
v = b[1:]
b.mul_(2)
with T.no_grad():
    name = v.grad_fn.name()
v.sum().backward()
out = [name, x.grad]
""")
snippet("view_backward_from_the_view", """
x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = x.clone()
v = b[1:]
b.mul_(4)
v.backward(T.tensor([1.0, 10.0]))
out = [v.grad_fn.name(), x.grad]
""")
snippet("view_modified_in_place_after_base_change", """
x = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
b = x.clone()
v = b[1:3]
b.mul_(2)
v.mul_(T.tensor([3.0, 5.0]))
(b * T.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
out = [type(b.grad_fn).__name__, type(v.grad_fn).__name__, x.grad]
""")
snippet("view_repr_after_change", """
x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = x.clone()
v = b[1:]
b.mul_(2)
out = plain(repr(v))
""")
snippet("view_in_custom_function_then_base_change", """
class Id(T.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 1
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = x.clone()
v = b[1:]
b.mul_(2)
Id.apply(v).sum().backward()
out = x.grad
""")

# --- outputs of ops returning several views ----------------------------------------------------

MULTI = {
    "unbind": "b.unbind(0)",
    "split": "b.split(2)",
    "split_with_sizes": "b.split_with_sizes([1, 3])",
    "chunk": "b.chunk(2)",
}
_MULTI = """
x = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
b = x.clone()
outs = {op}
"""
for _op, _expr in MULTI.items():
    setup = _MULTI.format(op=_expr)
    snippet(f"multi_output_{_op}_in_place", setup + "outs[0].mul_(2)\n", "words")
    snippet(f"multi_output_{_op}_after_base_change", setup + "b.mul_(2)\nouts[0] * 2\n", "words")
    snippet(f"multi_output_{_op}_after_sibling_change", setup + "outs[-1].mul_(2)\n", "words")
    snippet(f"multi_output_{_op}_grad_fn_after_no_grad_change",
            setup + "with T.no_grad():\n    b.mul_(2)\nouts[0].grad_fn\n", "words")
    snippet(f"multi_output_{_op}_unchanged_is_fine",
            setup + "(outs[0] * 2).sum().backward()\nout = [outs[0].grad_fn.name(), x.grad]\n")
snippet("multi_output_view_of_output_in_place", _MULTI.format(op="b.unbind(0)") + "outs[1][...].mul_(2)\n", "words")
snippet("multi_output_view_of_output_after_change",
        _MULTI.format(op="b.unbind(0)") + "v = outs[1][...]\nb.mul_(2)\nv.grad_fn\n", "words")
snippet("multi_output_repr_after_change", _MULTI.format(op="b.unbind(0)") + "b.mul_(2)\nout = plain(repr(outs[0]))\n")
snippet("multi_output_of_leaf_in_place", """
x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
x.unbind(0)[0].mul_(2)
""", "words")
snippet("multi_output_no_grad_change_of_result_is_fine", """
x = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
with T.no_grad():
    outs = x.clone().split(2)
    outs[0].mul_(2)
out = [outs[0], outs[0].grad_fn]
""")

# --- views made in no_grad mode ----------------------------------------------------------------

_NO_GRAD_VIEW = """
x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = x.clone()
with T.no_grad():
    v = b[1:]
"""
snippet("no_grad_view_after_base_change", _NO_GRAD_VIEW + "b.mul_(2)\nv.grad_fn\n", "words")
snippet("no_grad_view_after_no_grad_base_change", _NO_GRAD_VIEW + "with T.no_grad():\n    b.mul_(2)\nv.grad_fn\n",
        "words")
snippet("no_grad_view_in_place_with_grad_operand", _NO_GRAD_VIEW + "v.mul_(x[1:])\n", "words")
snippet("no_grad_view_of_leaf_after_no_grad_change", """
x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
with T.no_grad():
    v = x[1:]
    x.mul_(2)
v.grad_fn
""", "words")
snippet("no_grad_view_repr_after_change", _NO_GRAD_VIEW + "b.mul_(2)\nout = plain(repr(v))\n")
snippet("no_grad_view_unchanged_is_fine", _NO_GRAD_VIEW + "out = [v.grad_fn, v.is_leaf]\n")
snippet("no_grad_view_of_plain_tensor_changed_is_fine", """
b = T.zeros(3)
with T.no_grad():
    v = b[1:]
b.mul_(2)
out = [v.grad_fn, v]
""")
snippet("view_of_plain_tensor_in_place_with_grad_operand", """
x = T.tensor([1.0, 2.0], requires_grad=True)
z = T.zeros(3)
u = z[1:]
u.mul_(x)
out = [type(u.grad_fn).__name__, type(z.grad_fn).__name__]
""")
