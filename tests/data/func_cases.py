"""Snippets of ``torch.func`` / ``torch.autograd.functional`` use, run with ``T`` bound to torch (by
``gen_torch_func_cases.py``, which records what each one returns or raises) and to opyard (by
``tests/func/test_torch_cases.py``, which compares).

Each snippet sets ``out``; the names of ``PRELUDE`` are defined first (fixed values: no random
numbers, so both libraries see the same inputs). ``F`` is ``T.func``, ``AF`` is
``T.autograd.functional``, ``fwAD`` is ``T.autograd.forward_ad``.
"""

PRELUDE = """
import collections
F = T.func
AF = T.autograd.functional
fwAD = T.autograd.forward_ad
f64 = T.float64
x3 = T.tensor([0.5, 1.0, 2.0], dtype=f64)
y3 = T.tensor([-1.5, 0.25, 0.75], dtype=f64)
x23 = T.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype=f64)
w32 = T.tensor([[0.3, -0.2], [1.1, 0.4], [-0.6, 0.9]], dtype=f64)
s = T.tensor(0.7, dtype=f64)
ones3 = T.ones(3, dtype=f64)
Pair = collections.namedtuple("Pair", ["a", "b"])
def cube(x):
    return x ** 3
def quad(x):
    return (x ** 4).sum()
def mix(x, y):
    return (x.sin() * y.cos()).sum()
class Sin(T.autograd.Function):
    @staticmethod
    def forward(x):
        return x.sin()
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.save_for_forward(inputs[0])
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.cos()
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return t * x.cos()
class SinGen(Sin):
    generate_vmap_rule = True
class SinRule(Sin):
    @staticmethod
    def vmap(info, in_dims, x):
        return SinRule.apply(x), in_dims[0]
class CtxStyle(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
class MulSum(T.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x, w):
        return (x * w).sum(), x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)
    @staticmethod
    def backward(ctx, g, g2):
        x, w = ctx.saved_tensors
        return g * w + g2 * 2, g * x
X23 = x23.clone()
"""

CASES = {
    # --- grad / grad_and_value: values, structures and argnums -----------------------------------
    "grad_sin": "out = F.grad(T.sin)(s)",
    "grad_sum_cube": "out = F.grad(lambda x: cube(x).sum())(x3)",
    "grad_argnums_1": "out = F.grad(mix, argnums=1)(x3, y3)",
    "grad_argnums_tuple": "out = F.grad(mix, argnums=(0, 1))(x3, y3)",
    "grad_argnums_negative": "out = F.grad(mix, argnums=-1)(x3, y3)",
    "grad_dict_input": "out = F.grad(lambda d: (d['a'] * d['b']).sum())({'a': x3, 'b': y3})",
    "grad_namedtuple_input": "out = F.grad(lambda p: (p.a * p.b.exp()).sum())(Pair(x3, y3))",
    "grad_nested_argnums": "out = F.grad(lambda a, b: (a * b[0] * b[1][0]).sum(), argnums=(0, 1))(x3, (y3, [x3]))",
    "grad_non_tensor_arg": "out = F.grad(lambda a, k: (a * k).sum())(x3, 3.0)",
    "grad_kwargs": "out = F.grad(lambda a, scale=1.0: (a * scale).sum())(x3, scale=T.tensor(3.0, dtype=f64))",
    "grad_has_aux": "out = F.grad(lambda a: ((a * a).sum(), {'k': [a.sin(), (a.cos(),)]}), has_aux=True)(x3)",
    "grad_output_independent": "out = F.grad(lambda a: T.tensor(1.0, dtype=f64))(x3)",
    "grad_int_output": "out = F.grad(lambda a: a.sum().long())(x3)",
    "grad_and_value": "out = F.grad_and_value(lambda a: (a.exp() * a).sum())(x3)",
    "grad_and_value_aux": "out = F.grad_and_value(lambda a: ((a * 2).sum(), a.sin()), has_aux=True)(x3)",
    "grad_inplace_on_intermediate": "out = F.grad(lambda a: a.clone().mul_(a).sum())(x3)",
    "grad_inplace_on_view_of_intermediate": (
        "def f(a):\n    b = a * 1\n    b[:2].mul_(a[1:])\n    return b.sum()\nout = F.grad(f)(x3)"),
    "grad_detach_inside": "out = F.grad(lambda a: (a.detach() * a).sum())(x3)",
    "grad_no_grad_inside": (
        "def f(a):\n    with T.no_grad():\n        c = a ** 2\n    return (c * a).sum()\nout = F.grad(f)(x3)"),
    # errors
    "grad_argnum_out_of_range": "out = F.grad(lambda a: a.sum(), argnums=2)(x3)",
    "grad_argnum_negative_out_of_range": "out = F.grad(lambda a: a.sum(), argnums=-2)(x3)",
    "grad_argnums_repeated": "out = F.grad(mix, argnums=(0, 0))(x3, y3)",
    "grad_argnums_empty": "out = F.grad(mix, argnums=())(x3, y3)",
    "grad_argnums_float": "out = F.grad(mix, argnums=1.0)(x3, y3)",
    "grad_argnums_list": "out = F.grad(mix, argnums=[0])(x3, y3)",
    "grad_argnums_tuple_float": "out = F.grad(mix, argnums=(0, 1.0))(x3, y3)",
    "grad_no_positional_inputs": "out = F.grad(lambda: T.tensor(1.0))()",
    "grad_non_tensor_differentiated": "out = F.grad(lambda a, b: b.sum())(3.0, x3)",
    "grad_int_input": "out = F.grad(lambda a: a.sum())(T.tensor([1, 2]))",
    "grad_aux_not_a_pair": "out = F.grad(lambda a: a.sum(), has_aux=True)(x3)",
    "grad_aux_non_tensor": "out = F.grad(lambda a: (a.sum(), 3), has_aux=True)(x3)",
    "grad_aux_none": "out = F.grad(lambda a: (a.sum(), None), has_aux=True)(x3)",
    "grad_aux_nested_int": "out = F.grad(lambda a: (a.sum(), {'a': [a, 1]}), has_aux=True)(x3)",
    "grad_output_not_tensor": "out = F.grad(lambda a: 3.0)(x3)",
    "grad_output_not_scalar": "out = F.grad(lambda a: a)(x3)",
    "grad_inplace_on_differentiated_leaf": "out = F.grad(lambda a: a.add_(1).sum())(x3.clone())",

    # --- grad mode around and inside a transform ---------------------------------------------------
    "no_grad_outside_grad": (
        "x = T.tensor(0.5, dtype=f64, requires_grad=True)\n"
        "with T.no_grad():\n    out = F.grad(T.sin)(x)"),
    "no_grad_outside_vjp": (
        "x = x3.clone().requires_grad_()\n"
        "with T.no_grad():\n    o, fn = F.vjp(T.sin, x)\nout = (o, fn(ones3))"),
    "no_grad_outside_vjp_fn": (
        "o, fn = F.vjp(T.sin, x3)\n"
        "with T.no_grad():\n    out = fn(ones3)"),
    "inference_mode_outside_grad": (
        "with T.inference_mode():\n    out = F.grad(lambda a: (a.sin() * a).sum())(x3)"),
    "inference_mode_outside_jacrev": "with T.inference_mode():\n    out = F.jacrev(T.sin)(x3)",
    "set_grad_enabled_false_outside_grad_of_grad": (
        "with T.set_grad_enabled(False):\n    out = F.grad(F.grad(lambda a: a ** 3))(s)"),
    "grad_of_requires_grad_input_keeps_graph": (
        "x = s.clone().requires_grad_()\ng = F.grad(T.sin)(x)\n"
        "out = (g, g.requires_grad, T.autograd.grad(g, x))"),
    "grad_of_captured_requires_grad": (
        "w = x3.clone().requires_grad_()\ngv = F.grad_and_value(lambda a: (a * w).sum())(y3)\n"
        "out = (gv, T.autograd.grad(gv[0].sum() + gv[1], w))"),
    "grad_plain_results_do_not_require_grad": (
        "g, v = F.grad_and_value(lambda a: (a * a).sum())(x3)\nout = (g.requires_grad, v.requires_grad)"),
    "grad_aux_keeps_history_of_outer": (
        "x = x3.clone().requires_grad_()\ng, aux = F.grad(lambda a: ((a * a).sum(), a * 3), has_aux=True)(x)\n"
        "out = (aux.requires_grad, T.autograd.grad(aux.sum(), x))"),
    "grad_of_no_grad_grad_is_zero": (
        "def k(a):\n    with T.no_grad():\n        return F.grad(lambda z: z ** 3)(a)\nout = F.grad(k)(s)"),
    "grad_grad_no_grad_inside": (
        "def f(a):\n    with T.no_grad():\n        c = a ** 2\n    return c * a\nout = F.grad(F.grad(f))(s)"),
    "grad_grad_detach_inside": "out = F.grad(F.grad(lambda a: a.detach() * a))(s)",

    # --- vjp -----------------------------------------------------------------------------------------
    "vjp_tuple_output": "o, fn = F.vjp(lambda a: (a.sin(), a.cos()), x3)\nout = (o, fn((ones3, ones3)))",
    "vjp_dict_output": (
        "o, fn = F.vjp(lambda a: {'s': a.sin(), 'c': a * 2}, x3)\nout = (o, fn({'s': ones3, 'c': y3}))"),
    "vjp_two_primals": "o, fn = F.vjp(T.matmul, x23, w32)\nout = fn(T.ones(2, 2, dtype=f64))",
    "vjp_has_aux": "o, fn, aux = F.vjp(lambda a: (a.exp(), [a.sin()]), x3, has_aux=True)\nout = (o, fn(y3), aux)",
    "vjp_fn_twice": "o, fn = F.vjp(lambda a: a ** 2, x3)\nout = (fn(ones3), fn(y3))",
    "vjp_fn_retain_graph_false": "o, fn = F.vjp(lambda a: a ** 2, x3)\nout = fn(ones3, retain_graph=False)",
    "vjp_fn_create_graph": (
        "x = x3.clone().requires_grad_()\no, fn = F.vjp(lambda a: a ** 3, x)\n"
        "g = fn(ones3, create_graph=True)[0]\nout = (g, g.requires_grad, T.autograd.grad(g.sum(), x))"),
    "vjp_fn_cotangent_requires_grad": (
        "ct = ones3.clone().requires_grad_()\no, fn = F.vjp(T.sin, x3)\ng = fn(ct)[0]\n"
        "out = (g.requires_grad, T.autograd.grad(g.sum(), ct))"),
    "vjp_fn_dtype_cotangent": "o, fn = F.vjp(lambda a: a * 2, x3)\nout = fn(T.ones(3, dtype=T.float32))",
    "vjp_output_independent": "o, fn = F.vjp(lambda a: T.ones(2, dtype=f64), x3)\nout = fn(T.ones(2, dtype=f64))",
    # errors
    "vjp_aux_not_pair": "out = F.vjp(lambda a: a, x3, has_aux=True)",
    "vjp_aux_non_tensor": "out = F.vjp(lambda a: (a, 3), x3, has_aux=True)",
    "vjp_empty_output": "out = F.vjp(lambda a: (), x3)",
    "vjp_none_output": "out = F.vjp(lambda a: None, x3)",
    "vjp_int_output": "out = F.vjp(lambda a: a.long(), x3)",
    "vjp_non_tensor_output": "out = F.vjp(lambda a: (a, 3.0), x3)",
    "vjp_non_tensor_primal": "out = F.vjp(lambda a: a, 3.0)",
    "vjp_fn_structure": "o, fn = F.vjp(lambda a: (a, a * 2), x3)\nout = fn(ones3)",
    "vjp_fn_structure_dict": "o, fn = F.vjp(lambda a: {'a': a}, x3)\nout = fn([ones3])",
    "vjp_fn_shape": "o, fn = F.vjp(lambda a: a * 2, x3)\nout = fn(T.ones(2, dtype=f64))",
    "vjp_fn_non_tensor_cotangent": "o, fn = F.vjp(lambda a: a * 2, x3)\nout = fn(3.0)",

    # --- jvp -----------------------------------------------------------------------------------------
    "jvp_sin": "out = F.jvp(T.sin, (x3,), (y3,))",
    "jvp_two_primals": "out = F.jvp(mix, (x3, y3), (ones3, y3))",
    "jvp_pytree_primals": "out = F.jvp(lambda d: d['a'] * d['b'][0], ({'a': x3, 'b': [y3]},), ({'a': ones3, 'b': [x3]},))",
    "jvp_tuple_output": "out = F.jvp(lambda a: (a.sin(), {'e': a.exp()}), (x3,), (y3,))",
    "jvp_has_aux": "out = F.jvp(lambda a: (a * 2, {'k': a.sin()}), (x3,), (y3,), has_aux=True)",
    "jvp_output_independent": "out = F.jvp(lambda a: T.ones(2, dtype=f64), (x3,), (y3,))",
    "jvp_int_output": "out = F.jvp(lambda a: a.long(), (x3,), (y3,))",
    "jvp_strict_dependent": "out = F.jvp(lambda a: a * 2, (x3,), (y3,), strict=True)",
    "jvp_tangent_other_dtype": "out = F.jvp(lambda a: a * 2, (x3,), (T.ones(3, dtype=T.float32),))",
    "jvp_inplace_on_dual_clone": "out = F.jvp(lambda a: a.clone().mul_(a), (x3,), (y3,))",
    "jvp_inplace_into_view": (
        "def f(a):\n    b = a.clone()\n    b[:2].mul_(a[1:])\n    return b\nout = F.jvp(f, (x3,), (y3,))"),
    "jvp_copy_into_view_of_fresh": (
        "def f(a):\n    b = T.zeros(3, dtype=f64)\n    v = b[1:]\n    v.copy_(a[:2] * a[1:])\n    return b\n"
        "out = F.jvp(f, (x3,), (y3,))"),
    "jvp_base_modified_then_view": (
        "def f(a):\n    b = a.clone()\n    v = b[:2]\n    b.mul_(2)\n    return v * 1\nout = F.jvp(f, (x3,), (y3,))"),
    "jvp_under_no_grad": (
        "x = x3.clone().requires_grad_()\nwith T.no_grad():\n    o, t = F.jvp(T.sin, (x,), (y3,))\n"
        "out = (o, t, o.requires_grad, t.requires_grad)"),
    # errors
    "jvp_strict_independent": "out = F.jvp(lambda a: T.ones(3, dtype=f64), (x3,), (y3,), strict=True)",
    "jvp_primals_list": "out = F.jvp(T.sin, [x3], [y3])",
    "jvp_tangents_list": "out = F.jvp(T.sin, (x3,), [y3])",
    "jvp_structure_mismatch": "out = F.jvp(mix, (x3, y3), (y3,))",
    "jvp_no_primals": "out = F.jvp(lambda: x3, (), ())",
    "jvp_non_tensor_primal": "out = F.jvp(lambda a: a, (3.0,), (1.0,))",
    "jvp_non_tensor_tangent": "out = F.jvp(lambda a: a, (x3,), (1.0,))",
    "jvp_shape_mismatch": "out = F.jvp(lambda a: a, (x3,), (T.ones(2, dtype=f64),))",
    "jvp_int_primal": "out = F.jvp(lambda a: a, (T.tensor([1, 2]),), (T.tensor([1, 2]),))",
    "jvp_aux_not_pair": "out = F.jvp(lambda a: a, (x3,), (y3,), has_aux=True)",
    "jvp_aux_non_tensor": "out = F.jvp(lambda a: (a, 3), (x3,), (y3,), has_aux=True)",
    "jvp_output_non_tensor": "out = F.jvp(lambda a: 3.0, (x3,), (y3,))",
    "jvp_output_none": "out = F.jvp(lambda a: None, (x3,), (y3,))",
    "jvp_output_empty": "out = F.jvp(lambda a: (), (x3,), (y3,))",
    "jvp_inside_dual_level": "with fwAD.dual_level():\n    out = F.jvp(T.sin, (x3,), (y3,))",
    "dual_level_inside_jvp": (
        "def f(a):\n    with fwAD.dual_level():\n        return a * 2\nout = F.jvp(f, (x3,), (y3,))"),

    # --- jacrev / jacfwd / hessian --------------------------------------------------------------------
    "jacrev_sin": "out = F.jacrev(T.sin)(x3)",
    "jacrev_matrix": "out = F.jacrev(lambda a: a @ w32)(x23)",
    "jacrev_tuple_output": "out = F.jacrev(lambda a: (a.sin(), a.sum()))(x3)",
    "jacrev_dict_output": "out = F.jacrev(lambda a: {'s': a.sin(), 't': (a * a).sum()})(x3)",
    "jacrev_has_aux": "out = F.jacrev(lambda a: (a.sin(), {'c': a.cos()}), has_aux=True)(x3)",
    "jacrev_chunk_2": "out = F.jacrev(lambda a: (a.exp(), a.sum()), chunk_size=2)(x3)",
    "jacrev_chunk_1": "out = F.jacrev(lambda a: (a.exp(), a.sum()), chunk_size=1)(x3)",
    "jacrev_chunk_large": "out = F.jacrev(T.sin, chunk_size=100)(x3)",
    "jacrev_argnums_tuple": "out = F.jacrev(lambda a, b: a * b, argnums=(0, 1))(x3, y3)",
    "jacrev_nested_argnums": "out = F.jacrev(lambda a, b: a * b[0] * b[1], argnums=(0, 1))(x3, (y3, x3))",
    "jacrev_non_tensor_arg": "out = F.jacrev(lambda a, n: a * n)(x3, 3)",
    "jacrev_scalar_output": "out = F.jacrev(lambda a: (a ** 2).sum())(x3)",
    "jacrev_scalar_input": "out = F.jacrev(lambda a: a * ones3)(s)",
    "jacrev_inplace_into_undifferentiated_input": (
        "def f(a, w):\n    w[:2] = a[:2]\n    return w * a\nout = F.jacrev(f)(x3, T.zeros(3, dtype=f64))"),
    "jacfwd_sin": "out = F.jacfwd(T.sin)(x3)",
    "jacfwd_matrix": "out = F.jacfwd(lambda a: a @ w32)(x23)",
    "jacfwd_tuple_output": "out = F.jacfwd(lambda a: (a.sin(), a.sum()))(x3)",
    "jacfwd_has_aux": "out = F.jacfwd(lambda a: (a.sin(), {'c': a.cos()}), has_aux=True)(x3)",
    "jacfwd_argnums_tuple": "out = F.jacfwd(lambda a, b: a * b, argnums=(0, 1))(x3, y3)",
    "jacfwd_nested_argnums": "out = F.jacfwd(lambda a, b: a * b[0] * b[1], argnums=(0, 1))(x3, (y3, x3))",
    "jacfwd_non_tensor_arg": "out = F.jacfwd(lambda a, n: a * n)(x3, 3)",
    "jacfwd_scalar_input": "out = F.jacfwd(lambda a: a * ones3)(s)",
    "jacfwd_randomness_same": "out = F.jacfwd(lambda a: a * 2, randomness='same')(x3)",
    "hessian_quad": "out = F.hessian(quad)(x3)",
    "hessian_argnums": "out = F.hessian(lambda a, b: (a * a * b).sum(), argnums=(0, 1))(x3, y3)",
    "hessian_matrix_input": "out = F.hessian(lambda a: (a.sin() * a).sum())(x23)",
    # errors
    "jacrev_chunk_zero": "out = F.jacrev(T.sin, chunk_size=0)",
    "jacrev_complex_input": "out = F.jacrev(lambda a: a)(x3.to(T.complex128))",
    "jacrev_complex_output": "out = F.jacrev(lambda a: a.to(T.complex128))(x3)",
    "jacrev_int_input": "out = F.jacrev(lambda a: a)(T.tensor([1, 2]))",
    "jacrev_int_output": "out = F.jacrev(lambda a: a.long())(x3)",
    "jacrev_argnum_out_of_range": "out = F.jacrev(T.sin, argnums=1)(x3)",
    "jacfwd_complex_input": "out = F.jacfwd(lambda a: a)(x3.to(T.complex128))",
    "jacfwd_bad_randomness": "out = F.jacfwd(lambda a: a, randomness='bad')(x3)",
    "jacfwd_argnums_repeated": "out = F.jacfwd(mix, argnums=(1, 1))(x3, y3)",

    # --- compositions ---------------------------------------------------------------------------------
    "jvp_of_jvp": "out = F.jvp(lambda a: F.jvp(cube, (a,), (T.ones((), dtype=f64),))[1], (s,), (T.ones((), dtype=f64),))",
    "jacfwd_of_jacfwd": "out = F.jacfwd(F.jacfwd(cube))(s)",
    "jacfwd_of_jacfwd_vector": "out = F.jacfwd(F.jacfwd(T.sin))(x3)",
    "jacfwd_three_times": "out = F.jacfwd(F.jacfwd(F.jacfwd(cube)))(s)",
    "grad_of_jvp": "out = F.grad(lambda a: F.jvp(cube, (a,), (T.ones((), dtype=f64),))[1])(s)",
    "grad_of_jvp_vector": "out = F.grad(lambda a: F.jvp(T.sin, (a,), (y3,))[1].sum())(x3)",
    "jvp_of_grad": "out = F.jvp(F.grad(cube), (s,), (T.ones((), dtype=f64),))",
    "jvp_of_vjp": "out = F.jvp(lambda a: F.vjp(T.sin, a)[1](y3)[0], (x3,), (ones3,))",
    "jacfwd_of_grad": "out = F.jacfwd(F.grad(quad))(x3)",
    "jacrev_of_jacfwd": "out = F.jacrev(F.jacfwd(T.sin))(x3)",
    "jacrev_of_jacrev": "out = F.jacrev(F.jacrev(T.sin))(x3)",
    "grad_of_grad_of_grad": "out = F.grad(F.grad(F.grad(cube)))(s)",
    "jvp_grad_jvp": (
        "out = F.jvp(F.grad(lambda a: F.jvp(cube, (a,), (T.ones((), dtype=f64),))[1]), (s,), "
        "(T.ones((), dtype=f64),))"),
    "jvp_inside_grad_with_captured": (
        "def f(a):\n    _, t = F.jvp(lambda b: b * a, (y3,), (ones3,))\n    return (t * a).sum()\nout = F.grad(f)(x3)"),
    "perturbation_confusion": (
        "def f(a):\n    return F.grad(lambda b: (a * b).sum())(a)\nout = F.jacrev(f)(x3)"),
    "perturbation_confusion_forward": (
        "def f(a):\n    return F.jvp(lambda b: a * b, (a,), (ones3,))[1]\nout = F.jacfwd(f)(x3)"),
    "vmap_of_grad": "out = F.vmap(F.grad(lambda a: (a.sin() * a).sum()))(x23)",
    "vmap_of_jvp": "out = F.vmap(lambda a, t: F.jvp(T.sin, (a,), (t,)))(x23, x23 * 2)",
    "vmap_of_jacfwd_of_jacfwd": "out = F.vmap(F.jacfwd(F.jacfwd(cube)))(x3)",
    "vmap_of_hessian": "out = F.vmap(F.hessian(quad))(x23)",
    "vmap_of_jvp_of_grad": "out = F.vmap(lambda a: F.jvp(F.grad(cube), (a,), (T.ones((), dtype=f64),)))(x3)",
    "grad_of_vmap": "out = F.grad(lambda a: F.vmap(T.sin)(a).sum())(x23)",
    "jacrev_of_vmap": "out = F.jacrev(F.vmap(lambda r: r.sin() * r.sum()))(x23)",
    "jacfwd_of_vmap": "out = F.jacfwd(F.vmap(lambda r: r.sin() * r.sum()))(x23)",
    "vmap_jvp_inplace_into_view": (
        "def f(a):\n    b = a.clone()\n    b[:2].mul_(a[1:])\n    return b\n"
        "out = F.vmap(lambda a, t: F.jvp(f, (a,), (t,)))(x23, x23 * 3)"),
    "per_sample_grads": (
        "def loss(w, xi, yi):\n    return ((xi @ w - yi) ** 2).mean()\n"
        "out = F.vmap(F.grad(loss), in_dims=(None, 0, 0))(w32[:, 0], x23, y3[:2])"),
    "linearize_sin": "o, fn = F.linearize(T.sin, x3)\nout = (o, fn(y3), fn(ones3))",
    "linearize_two_primals": "o, fn = F.linearize(mix, x3, y3)\nout = (o, fn(ones3, y3))",
    "linearize_bad_shape": "o, fn = F.linearize(T.sin, x3)\nout = fn(T.ones(2, dtype=f64))",
    "linearize_bad_dtype": "o, fn = F.linearize(T.sin, x3)\nout = fn(T.ones(3))",
    "linearize_bad_structure": "o, fn = F.linearize(T.sin, x3)\nout = fn(y3, y3)",

    # --- in-place rules inside autodiff transforms -------------------------------------------------
    "captured_add_": "c = ones3.clone()\nout = F.grad(lambda a: (c.add_(a), (a * a).sum())[1])(x3)",
    "captured_add_constant": "c = ones3.clone()\nout = F.grad(lambda a: (c.add_(ones3), a.sum())[1])(x3)",
    "captured_copy_": "c = ones3.clone()\nout = F.grad(lambda a: (c.copy_(a), a.sum())[1])(x3)",
    "captured_zero_": "c = ones3.clone()\nout = F.grad(lambda a: (c.zero_(), a.sum())[1])(x3)",
    "captured_setitem_number": "c = ones3.clone()\nout = F.grad(lambda a: (c.__setitem__(0, 1.0), a.sum())[1])(x3)",
    "captured_view_mul_": "c = ones3.clone()\nout = F.grad(lambda a: (c[:2].mul_(a[:2]), a.sum())[1])(x3)",
    "captured_under_jvp": "c = ones3.clone()\nout = F.jvp(lambda a: (c.mul_(a), a)[1], (x3,), (y3,))",
    "captured_under_vmap_of_grad": (
        "c = ones3.clone()\nout = F.vmap(F.grad(lambda a: (c.add_(a), (a * a).sum())[1]))(x23)"),
    "captured_from_outer_grad": (
        "def f(a):\n    z = T.zeros(3, dtype=f64)\n    def g(w):\n        z.add_(w)\n        return (z * w).sum()\n"
        "    return F.grad(g)(a).sum()\nout = F.grad(f)(x3)"),
    "inplace_on_fresh_tensor": "out = F.grad(lambda a: T.zeros(3, dtype=f64).add_(a).mul(a).sum())(x3)",
    "inplace_on_undifferentiated_input": "out = F.grad(lambda a, w: (w.mul_(a), (a * w).sum())[1])(x3, ones3.clone())",
    "inplace_on_view_of_undifferentiated_input": (
        "out = F.grad(lambda a, w: (w[:2].mul_(a[:2]), (a * w).sum())[1])(x3, ones3.clone())"),
    "inplace_vmap_grad_undifferentiated_batched": (
        "out = F.vmap(F.grad(lambda a, w: (w.mul_(a), (a * w).sum())[1]))(x23, T.ones(2, 3, dtype=f64))"),
    "inplace_view_of_differentiated_leaf": "out = F.grad(lambda a: a[:2].mul_(2).sum())(x3)",
    "setitem_into_fresh_under_jacrev": (
        "def f(a):\n    out = T.zeros(3, dtype=f64)\n    out[1:] = a[:2] ** 2\n    return out\nout = F.jacrev(f)(x3)"),
    "setitem_into_fresh_under_jacfwd": (
        "def f(a):\n    out = T.zeros(3, dtype=f64)\n    out[1:] = a[:2] ** 2\n    return out\nout = F.jacfwd(f)(x3)"),
    "setitem_plain_autograd": (
        "a = x3.clone().requires_grad_()\nw = T.zeros(3, dtype=f64)\nw[:2] = a[:2]\n"
        "out = (w.requires_grad, T.autograd.grad((w * w).sum(), a))"),
    "view_inplace_plain_autograd": (
        "a = x3.clone().requires_grad_()\nw = T.zeros(3, dtype=f64)\nw[1:].add_(a[:2] * 3)\n"
        "out = (w.requires_grad, T.autograd.grad(w.sum(), a))"),
    "requires_grad__inside_grad": "out = F.grad(lambda a: a.requires_grad_().sum())(x3)",
    "requires_grad__inside_vmap": "out = F.vmap(lambda a: a.requires_grad_())(x23)",
    "requires_grad__inside_jvp": "out = F.jvp(lambda a: a.requires_grad_(), (x3,), (y3,))",
    "requires_grad__on_new_tensor_inside_grad": (
        "out = F.grad(lambda a: (T.zeros(3, dtype=f64).requires_grad_() * a).sum())(x3)"),
    "requires_grad_setter_inside_grad": (
        "def f(a):\n    z = T.zeros(3, dtype=f64)\n    z.requires_grad = False\n    return (z + a).sum()\n"
        "out = F.grad(f)(x3)"),
    "tensor_factory_requires_grad_inside_grad": (
        "out = F.grad(lambda a: (T.tensor([1.0, 2.0, 3.0], dtype=f64, requires_grad=True) * a).sum())(x3)"),
    "retain_grad_inside_grad": "out = F.grad(lambda a: (a * 2).retain_grad())(x3)",
    "retain_grad_inside_vmap_no_grad": "out = F.vmap(lambda a: (a.retain_grad(), a)[1])(x23)",
    "autograd_functional_inside_grad": "out = F.grad(lambda a: AF.jacobian(T.sin, a).sum())(x3)",

    # --- autograd.Function under transforms -------------------------------------------------------
    "function_without_setup_context_under_grad": "out = F.grad(lambda a: CtxStyle.apply(a).sum())(x3)",
    "function_without_setup_context_under_vmap": "out = F.vmap(CtxStyle.apply)(x23)",
    "function_without_setup_context_plain": "out = CtxStyle.apply(x3.clone().requires_grad_()).sum()",
    "function_grad": "out = F.grad(lambda a: Sin.apply(a).sum())(x3)",
    "function_grad_node_name": (
        "names = []\ndef f(a):\n    y = Sin.apply(a)\n    names.append(type(y.grad_fn).__name__)\n    return y.sum()\n"
        "F.grad(f)(x3)\nout = names"),
    "function_plain_node_name": "out = type(Sin.apply(x3.clone().requires_grad_()).grad_fn).__name__",
    "function_jvp": "out = F.jvp(Sin.apply, (x3,), (y3,))",
    "function_jvp_without_jvp": (
        "class NoJvp(T.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return x * 2\n"
        "    @staticmethod\n    def setup_context(ctx, inputs, output):\n        pass\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g\nout = F.jvp(NoJvp.apply, (x3,), (y3,))"),
    "function_jvp_reads_save_for_forward_only": (
        "class Only(Sin):\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n"
        "        ctx.save_for_backward(inputs[0])\nout = F.jvp(Only.apply, (x3,), (y3,))"),
    "function_vmap_without_rule": "out = F.vmap(Sin.apply)(x23)",
    "function_vmap_unbatched_without_rule": "out = F.vmap(lambda r: Sin.apply(x3) * r)(x23)",
    "function_vmap_generated": "out = F.vmap(SinGen.apply)(x23)",
    "function_vmap_rule": "out = F.vmap(SinRule.apply)(x23)",
    "function_vmap_rule_unbatched_argument": "out = F.vmap(lambda r: SinRule.apply(x3) * r)(x23)",
    "function_vmap_both_rules": (
        "class Both(SinRule):\n    generate_vmap_rule = True\nout = F.vmap(Both.apply)(x23)"),
    "function_vmap_rule_not_a_pair": (
        "class Bad(Sin):\n    @staticmethod\n    def vmap(info, in_dims, x):\n        return x.sin()\n"
        "out = F.vmap(Bad.apply)(x23)"),
    "function_vmap_rule_three_returns": (
        "class Bad(Sin):\n    @staticmethod\n    def vmap(info, in_dims, x):\n        return x.sin(), 0, 0\n"
        "out = F.vmap(Bad.apply)(x23)"),
    "function_vmap_rule_bad_out_dims": (
        "class Bad(Sin):\n    @staticmethod\n    def vmap(info, in_dims, x):\n        return x.sin(), (0, 0)\n"
        "out = F.vmap(Bad.apply)(x23)"),
    "function_vmap_rule_returns_input": (
        "class Ident(Sin):\n    @staticmethod\n    def vmap(info, in_dims, x):\n        return x, in_dims[0]\n"
        "out = F.vmap(lambda r: Ident.apply(r) is r)(x23)"),
    "function_vmap_rule_info": (
        "seen = []\nclass Rec(Sin):\n    @staticmethod\n    def vmap(info, in_dims, x):\n"
        "        seen.append((info.batch_size, info.randomness, in_dims))\n        return x.sin(), 0\n"
        "F.vmap(Rec.apply, randomness='same')(x23)\nout = seen"),
    "function_vmap_of_grad_generated": "out = F.vmap(F.grad(lambda a: SinGen.apply(a).sum()))(x23)",
    "function_vmap_of_grad_rule": "out = F.vmap(F.grad(lambda a: SinRule.apply(a).sum()))(x23)",
    "function_grad_of_vmap_generated": "out = F.grad(lambda a: F.vmap(SinGen.apply)(a).sum())(x23)",
    "function_vmap_of_jacrev_generated": "out = F.vmap(F.jacrev(SinGen.apply))(x23)",
    "function_vmap_of_jvp_generated": "out = F.vmap(lambda a, t: F.jvp(SinGen.apply, (a,), (t,)))(x23, x23 * 2)",
    "function_jacfwd_generated": "out = F.jacfwd(SinGen.apply)(x3)",
    "function_two_inputs_two_outputs_vmap_grad": (
        "out = F.vmap(F.grad(lambda a, w: MulSum.apply(a, w)[0] + MulSum.apply(a, w)[1].sum(), argnums=(0, 1)),"
        " in_dims=(0, None))(x23, y3)"),
    "function_returns_saved_input": (
        "class R(T.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return x\n"
        "    @staticmethod\n    def setup_context(ctx, inputs, output):\n        ctx.save_for_backward(inputs[0])\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g\nout = R.apply(x3)"),
    "function_returns_saved_input_no_grad": (
        "class R(T.autograd.Function):\n    @staticmethod\n    def forward(x):\n        return x\n"
        "    @staticmethod\n    def setup_context(ctx, inputs, output):\n        ctx.save_for_backward(inputs[0])\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g\nwith T.no_grad():\n    out = R.apply(x3)"),
    "function_keyword_only_under_grad": (
        "class K(T.autograd.Function):\n    @staticmethod\n    def forward(x, *, scale=2.0):\n        return x * scale\n"
        "    @staticmethod\n    def setup_context(ctx, inputs, output):\n        pass\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g\n"
        "out = F.grad(lambda a: K.apply(a, scale=3.0).sum())(x3)"),
    "function_keyword_only_plain": (
        "class K(T.autograd.Function):\n    @staticmethod\n    def forward(x, *, scale=2.0):\n        return x * scale\n"
        "    @staticmethod\n    def setup_context(ctx, inputs, output):\n        pass\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g\nout = K.apply(x3, scale=3.0)"),

    # --- autograd.functional ----------------------------------------------------------------------
    "af_jacobian": "out = AF.jacobian(lambda a: a.exp().sum(1), x23)",
    "af_jacobian_tuple": "out = AF.jacobian(lambda a, b: (a * b, (a + b).sum()), (x3, y3))",
    "af_jacobian_create_graph": (
        "x = x3.clone().requires_grad_()\nj = AF.jacobian(lambda a: a ** 3, x, create_graph=True)\n"
        "out = (j, j.requires_grad, T.autograd.grad(j.sum(), x))"),
    "af_jacobian_vectorize": "out = AF.jacobian(lambda a, b: (a * b, (a + b).sum()), (x3, y3), vectorize=True)",
    "af_jacobian_forward_mode": (
        "out = AF.jacobian(lambda a, b: (a * b, (a + b).sum()), (x3, y3), vectorize=True, strategy='forward-mode')"),
    "af_jacobian_forward_mode_not_vectorized": "out = AF.jacobian(T.sin, x3, strategy='forward-mode')",
    "af_jacobian_forward_mode_create_graph": (
        "out = AF.jacobian(T.sin, x3, strategy='forward-mode', vectorize=True, create_graph=True)"),
    "af_jacobian_bad_strategy": "out = AF.jacobian(T.sin, x3, strategy='sideways')",
    "af_jacobian_strict_independent": "out = AF.jacobian(lambda a, b: a * 2, (x3, y3), strict=True)",
    "af_jacobian_strict_vectorize": "out = AF.jacobian(T.sin, x3, strict=True, vectorize=True)",
    "af_jacobian_independent": "out = AF.jacobian(lambda a, b: a * 2, (x3, y3))",
    "af_jacobian_bad_input": "out = AF.jacobian(T.sin, [x3])",
    "af_jacobian_bad_input_tuple": "out = AF.jacobian(T.sin, (x3, 3))",
    "af_jacobian_bad_output": "out = AF.jacobian(lambda a: 3, x3)",
    "af_hessian": "out = AF.hessian(quad, x3)",
    "af_hessian_tuple": "out = AF.hessian(lambda a, b: (a * a * b).sum(), (x3, y3))",
    "af_hessian_vectorize": "out = AF.hessian(quad, x3, vectorize=True)",
    "af_hessian_forward_over_reverse": "out = AF.hessian(quad, x3, vectorize=True, outer_jacobian_strategy='forward-mode')",
    "af_hessian_not_scalar": "out = AF.hessian(lambda a: a * a, x3)",
    "af_hessian_strict_linear": "out = AF.hessian(lambda a: a.sum(), x3, strict=True)",
    "af_vjp": "out = AF.vjp(lambda a: a.exp().sum(1), x23, T.ones(2, dtype=f64))",
    "af_vjp_create_graph": (
        "x = x3.clone().requires_grad_()\no, v = AF.vjp(lambda a: a ** 3, x, ones3, create_graph=True)\n"
        "out = (o, v, T.autograd.grad(v.sum(), x))"),
    "af_vjp_no_v": "out = AF.vjp(lambda a: a.sum(), x3)",
    "af_vjp_no_v_many": "out = AF.vjp(lambda a: a * 2, x3)",
    "af_vjp_bad_v_size": "out = AF.vjp(lambda a: a * 2, x3, T.ones(2, dtype=f64))",
    "af_vjp_bad_v_len": "out = AF.vjp(lambda a: (a, a), x3, (ones3,))",
    "af_vjp_strict": "out = AF.vjp(lambda a, b: a * 2, (x3, y3), ones3, strict=True)",
    "af_vjp_strict_output": "out = AF.vjp(lambda a: ones3, x3, ones3, strict=True)",
    "af_jvp": "out = AF.jvp(lambda a: a.exp().sum(1), x23, T.ones(2, 3, dtype=f64))",
    "af_jvp_tuple": "out = AF.jvp(lambda a, b: (a * b, a.sum()), (x3, y3), (ones3, y3))",
    "af_jvp_strict_independent": "out = AF.jvp(lambda a: ones3 * 2, x3, ones3, strict=True)",
    "af_jvp_no_v": "out = AF.jvp(lambda a: a * 2, s)",
    "af_hvp": "out = AF.hvp(quad, x3, y3)",
    "af_vhp": "out = AF.vhp(quad, x3, y3)",
    "af_hvp_tuple": "out = AF.hvp(lambda a, b: (a * a * b).sum(), (x3, y3), (ones3, y3))",
    "af_hvp_not_scalar": "out = AF.hvp(lambda a: a * a, x3, y3)",
    "af_vhp_tuple_output": "out = AF.vhp(lambda a: ((a * a).sum(),), x3, y3)",
    "af_hvp_create_graph": (
        "x = x3.clone().requires_grad_()\no, h = AF.hvp(quad, x, ones3, create_graph=True)\n"
        "out = (h, T.autograd.grad(h.sum(), x))"),
    "af_under_no_grad": "with T.no_grad():\n    out = AF.jacobian(T.sin, x3)",

    # --- vmap surface -----------------------------------------------------------------------------
    "is_nested": "out = (T.ones(2).is_nested, F.vmap(lambda r: T.tensor(r.is_nested))(x23))",
    "vmap_add_number_tensor": "out = F.vmap(lambda r: T.add(2.5, r, alpha=2))(x23)",
    "vmap_sub_number_tensor": "out = F.vmap(lambda r: T.sub(2, r))(x23)",
    "vmap_mul_div_number_tensor": "out = F.vmap(lambda r: (T.mul(2, r), T.div(1, r)))(x23)",
    "add_number_tensor": "out = (T.add(2.5, x3), T.add(2, T.tensor([1, 2])), T.add(2, 3), T.mul(1.5, T.tensor(2)))",
    "add_number_int32_zero_dim": "out = T.add(2, T.tensor(3, dtype=T.int32))",
    "copy_number": "out = T.zeros(3).copy_(2.5)",
    "vmap_chunk_writes_through": (
        "x = X23.clone()\nF.vmap(lambda r: r.chunk(3)[0].mul_(10))(x)\nout = x"),
    "vmap_view_writes_through": "x = X23.clone()\nF.vmap(lambda r: r[:2].mul_(10))(x)\nout = x",
    "vmap_contiguous_is_self": "out = F.vmap(lambda r: T.tensor(r.contiguous() is r))(x23)",
    "vmap_contiguous_of_transposed": "out = F.vmap(lambda r: r.t().contiguous())(T.arange(24.).reshape(2, 3, 4))",
    "vmap_as_strided": "out = F.vmap(lambda r: (r.as_strided((2,), (1,)), r.as_strided((2,), (1,), 1)))(x23)",
    "vmap_as_strided_writes_through": (
        "x = X23.clone()\nF.vmap(lambda r: r.as_strided((2,), (1,)).mul_(10))(x)\nout = x"),
    "vmap_squeeze_": "out = F.vmap(lambda r: r.unsqueeze(0).clone().squeeze_(0))(x23)",
    "vmap_squeeze__all": "out = F.vmap(lambda r: r.unsqueeze(1).clone().squeeze_())(x23)",
    "vmap_unsqueeze_": "out = F.vmap(lambda r: r.clone().unsqueeze_(0))(x23)",
    "vmap_transpose_": "out = F.vmap(lambda r: r.clone().transpose_(0, 1))(T.arange(12.).reshape(2, 2, 3))",
    "squeeze__plain": (
        "x = T.ones(2, 1)\nv = x._version\nx.squeeze_()\ny = (T.ones(2, 1, dtype=f64, requires_grad=True) * x3[:1])\n"
        "y.unsqueeze_(0)\nout = (x.shape == (2,), x._version - v, y.shape == (1, 2, 1), y.grad_fn is not None)"),
    "squeeze__leaf": "out = T.ones(2, 1, requires_grad=True).squeeze_()",
    "vmap_clone_contiguous_format": "out = F.vmap(lambda r: r.clone(memory_format=T.contiguous_format))(x23)",
    "vmap_clone_channels_last": "out = F.vmap(lambda r: r.clone(memory_format=T.channels_last))(T.ones(2, 1, 2, 2, 2))",
    "vmap_clone_channels_last_3d": (
        "out = F.vmap(lambda r: r.clone(memory_format=T.channels_last_3d))(T.ones(2, 1, 2, 2, 2, 2))"),
    "vmap_data": "out = F.vmap(lambda r: r.data)(x23)",
    "vmap_data_set": "out = F.vmap(lambda r: setattr(r, 'data', ones3))(x23)",
    "vmap_out": "out = F.vmap(lambda r: T.sin(r, out=T.empty(3, dtype=f64)))(x23)",
    "vmap_out_batched": "out = F.vmap(lambda r, o: T.sin(r, out=o))(x23, T.empty(2, 3, dtype=f64))",
    "vmap_item": "out = F.vmap(lambda r: r.sum().item())(x23)",

    # --- tracing transforms ---------------------------------------------------------------------
    "make_fx_of_grad": (
        "mf = __import__(T.__name__ + \".fx.experimental.proxy_tensor\", fromlist=[\"make_fx\"]).make_fx\nout = mf(F.grad(lambda a: (a.sin() * a).sum()))(x3)(y3)"),
    "make_fx_of_vmap_of_grad": (
        "mf = __import__(T.__name__ + \".fx.experimental.proxy_tensor\", fromlist=[\"make_fx\"]).make_fx\ng = mf(F.vmap(F.grad(lambda a: (a.sin() * a).sum())))(x23)\n"
        "out = g(x23 * 2)"),
    "make_fx_of_jacfwd": "mf = __import__(T.__name__ + \".fx.experimental.proxy_tensor\", fromlist=[\"make_fx\"]).make_fx\nout = mf(F.jacfwd(T.sin))(x3)(y3)",
    "make_fx_of_vjp_fn": (
        "mf = __import__(T.__name__ + \".fx.experimental.proxy_tensor\", fromlist=[\"make_fx\"]).make_fx\no, fn = F.vjp(T.sin, x3)\nout = mf(fn)(ones3)"),

    # --- autocast API ----------------------------------------------------------------------------
    "autocast_dtypes": (
        "out = [T.get_autocast_dtype(d) for d in ('cpu', 'cuda', 'xpu', 'hpu', 'mps', 'cuda:0')]"),
    "autocast_enabled": (
        "with T.autocast('cpu'):\n    inside = (T.is_autocast_enabled('cpu'), T.is_autocast_enabled(), "
        "T.is_autocast_enabled('cuda'), T.get_autocast_dtype('cpu'))\nout = (inside, T.is_autocast_enabled('cpu'))"),
    "autocast_set_dtype": (
        "prev = T.get_autocast_dtype('cpu')\nT.set_autocast_dtype('cpu', T.float16)\n"
        "with T.autocast('cpu'):\n    y = T.ones(2, 2) @ T.ones(2, 2)\nnow = T.get_autocast_dtype('cpu')\n"
        "T.set_autocast_dtype('cpu', prev)\nout = (now, y.dtype, T.get_autocast_dtype('cpu'))"),
    "autocast_set_enabled": (
        "T.set_autocast_enabled('cpu', True)\na = T.is_autocast_enabled('cpu')\n"
        "T.set_autocast_enabled('cpu', False)\nout = (a, T.is_autocast_enabled('cpu'))"),
    "autocast_other_device_state": (
        "T.set_autocast_enabled('xpu', True)\nT.set_autocast_dtype('xpu', T.bfloat16)\n"
        "out = (T.is_autocast_enabled('xpu'), T.get_autocast_dtype('xpu'))\nT.set_autocast_enabled('xpu', False)\n"
        "T.set_autocast_dtype('xpu', T.float16)"),
    "autocast_unknown_device_get": "out = T.get_autocast_dtype('foo')",
    "autocast_unknown_device_enabled": "out = T.is_autocast_enabled('foo')",
    "autocast_unknown_device_set": "out = T.set_autocast_dtype('foo', T.float16)",
    "autocast_unknown_device_context": "out = T.autocast('foo')",
    "autocast_unsupported_device_context": "out = T.autocast('meta')",
    "autocast_meta_enabled": "out = T.is_autocast_enabled('meta')",
    "autocast_meta_dtype": "out = T.get_autocast_dtype('meta')",
    "autocast_device_not_str": "out = T.get_autocast_dtype(1)",
    "autocast_missing_device": "out = T.get_autocast_dtype()",
    "autocast_enabled_not_bool": "out = T.set_autocast_enabled('cpu', 1)",
    "autocast_dtype_not_dtype": "out = T.set_autocast_dtype('cpu', 'half')",
    "autocast_two_arguments": "out = T.is_autocast_enabled('cpu', 'cuda')",
}


def run(code, T):
    """``(out, error)`` of one snippet with ``T`` bound to a library; ``error`` is (type, text)."""
    env = {"T": T}
    exec(PRELUDE, env)  # noqa: S102 -- the fixed prelude above
    try:
        exec(code, env)  # noqa: S102 -- the snippets of this table
    except Exception as e:  # noqa: BLE001 -- recorded, whatever it is
        return None, (type(e).__name__, str(e))
    return env.get("out"), None


def serialize(value, T):
    """``value`` as JSON data: tensors with dtype, shape, values and requires_grad; containers by kind."""
    if isinstance(value, T.Tensor):
        dtype = str(value.dtype).split(".")[-1]
        data = value.detach()
        if data.is_complex():
            data = T.stack([data.real, data.imag], -1)
        if dtype in ("bfloat16", "float16"):
            data = data.to(T.float32)
        return {"tensor": data.tolist(), "dtype": dtype, "shape": list(value.shape),
                "requires_grad": bool(value.requires_grad)}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {"namedtuple": type(value).__name__, "items": [serialize(v, T) for v in value]}
    if isinstance(value, (tuple, list)):
        return {type(value).__name__: [serialize(v, T) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[k, serialize(v, T)] for k, v in value.items()]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, T.dtype):
        return {"dtype": str(value).split(".")[-1]}
    return {"repr": type(value).__name__}
