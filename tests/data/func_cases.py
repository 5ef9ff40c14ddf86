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

    # --- vmap: in_dims/out_dims over pytrees, chunk_size, randomness, nesting and torch's checks -------
    'vmap_in_dims_dict': "out = F.vmap(lambda d: d['a'] * d['b'], in_dims=({'a': 0, 'b': None},))({'a': x23, 'b': x3})",
    'vmap_in_dims_namedtuple': 'out = F.vmap(lambda p: p.a * p.b, in_dims=(Pair(0, None),))(Pair(x23, x3))',
    'vmap_out_dims_tuple': 'out = F.vmap(lambda r: (r * 2, r.sum()), out_dims=(1, 0))(x23)',
    'vmap_out_dims_none_nontensor': 'out = F.vmap(lambda r: (r * 2, 3), out_dims=(0, None))(x23)',
    'vmap_out_dims_none_tensor': 'out = F.vmap(lambda r: (r * 2, x3), out_dims=(0, None))(x23)',
    'vmap_out_dims_none_batched': 'out = F.vmap(lambda r: r * 2, out_dims=None)(x23)',
    'vmap_namedtuple_out': 'out = F.vmap(lambda r: Pair(r, r * 2))(x23)',
    'vmap_dict_out': "out = F.vmap(lambda r: {'s': r.sin(), 'l': [r.cos()]})(x23)",
    'vmap_chunk_1': 'out = F.vmap(T.sin, chunk_size=1)(x23)',
    'vmap_chunk_0': 'out = F.vmap(T.sin, chunk_size=0)(x23)',
    'vmap_chunk_neg': 'out = F.vmap(T.sin, chunk_size=-1)(x23)',
    'vmap_in_dims_neg': 'out = F.vmap(lambda c: c * 2, in_dims=-1)(x23)',
    'vmap_out_dims_neg': 'out = F.vmap(lambda r: r[:, None] * w32[:, :1].T, out_dims=-1)(x23)',
    'vmap_kwargs_unbatched': 'out = F.vmap(lambda r, scale=1.0: r * scale)(x23, scale=s)',
    'vmap_nested': 'out = F.vmap(F.vmap(T.sin))(x23)',
    'vmap_nested_dims': 'out = F.vmap(F.vmap(lambda a, b: a * b, in_dims=(0, None)), in_dims=(None, 0))(x3, y3)',
    'vmap_in_dims_wrong_len': 'out = F.vmap(lambda a, b: a * b, in_dims=(0,))(x23, x23)',
    'vmap_batch_mismatch': 'out = F.vmap(lambda a, b: a * b)(x23, T.ones(3, 3, dtype=f64))',
    'vmap_no_tensor': 'out = F.vmap(lambda a: a)(3.0)',
    'vmap_all_none': 'out = F.vmap(lambda a: a, in_dims=None)(x23)',
    'vmap_in_dim_out_of_range': 'out = F.vmap(lambda a: a, in_dims=2)(x23)',
    'vmap_out_dim_out_of_range': 'out = F.vmap(lambda a: a, out_dims=3)(x23)',
    'vmap_returns_non_tensor': 'out = F.vmap(lambda a: 3.0)(x23)',
    'vmap_returns_none': 'out = F.vmap(lambda a: None)(x23)',
    'vmap_in_dims_float': 'out = F.vmap(lambda a: a, in_dims=0.5)(x23)',
    'vmap_in_dims_list': 'out = F.vmap(lambda a, b: a + b, in_dims=[0, None])(x23, x3)',
    'vmap_out_dims_wrong_len': 'out = F.vmap(lambda a: (a, a), out_dims=(0, 0, 0))(x23)',
    'vmap_bad_randomness': "out = F.vmap(T.sin, randomness='foo')(x23)",
    'vmap_random_error': 'out = F.vmap(lambda r: T.rand_like(r))(x23)',
    'vmap_random_same_shape': "o = F.vmap(lambda r: T.rand_like(r), randomness='same')(x23)\nout = (o.shape, bool((o[0] == o[1]).all()))",
    'vmap_random_different_shape': (
        "o = F.vmap(lambda r: T.rand_like(r), randomness='different')(x23)\n"
        'out = (o.shape, bool((o[0] == o[1]).all()))'),
    'vmap_not_callable': 'out = F.vmap(3)',
    'vmap_zero_batch': 'out = F.vmap(T.sin)(T.ones(0, 3))',
    'vmap_scalar_input_batch': 'out = F.vmap(lambda a: a)(s)',

    # --- compositions in more orders; pytree inputs and outputs of every transform; their checks -------
    'vmap_of_jacrev': 'out = F.vmap(F.jacrev(T.sin))(x23)',
    'vmap_of_vjp': 'out = F.vmap(lambda p, c: F.vjp(T.sin, p)[1](c))(x23, x23)',
    'vmap_of_linearize': 'out = F.vmap(lambda p: F.linearize(T.sin, p)[1](p))(x23)',
    'vmap_of_grad_and_value': 'out = F.vmap(F.grad_and_value(lambda a: (a ** 3).sum()))(x23)',
    'vmap_of_jvp_has_aux': 'out = F.vmap(lambda p: F.jvp(lambda a: (a.sin(), a.cos()), (p,), (p,), has_aux=True))(x23)',
    'vmap_of_vmap_of_grad': 'out = F.vmap(F.vmap(F.grad(lambda a: a.sin())))(x23)',
    'grad_of_vmap_of_grad': 'out = F.grad(lambda a: F.vmap(F.grad(lambda b: b.sin() * b))(a).sum())(x3)',
    'hessian_two_args': 'out = F.hessian(mix, argnums=(0, 1))(x3, y3)',
    'hessian_of_hessian': 'out = F.hessian(lambda a: F.hessian(quad)(a).sum())(x3)',
    'hessian_argnum_out_of_range': 'out = F.hessian(quad, argnums=3)(x3)',
    'hessian_dict_input': "out = F.hessian(lambda d: (d['a'] ** 3 * d['b']).sum())({'a': x3, 'b': y3})",
    'jacfwd_dict_output': "out = F.jacfwd(lambda a: {'s': a.sin(), 'c': [a.cos()]})(x3)",
    'jacfwd_namedtuple_output': 'out = F.jacfwd(lambda a: Pair(a.sin(), a.cos()))(x3)',
    'jacrev_namedtuple_output': 'out = F.jacrev(lambda a: Pair(a.sin(), a.cos()))(x3)',
    'jacrev_namedtuple_input': 'out = F.jacrev(lambda p: p.a * p.b)(Pair(x3, y3))',
    'jacfwd_dict_input': "out = F.jacfwd(lambda d: d['a'] * d['b'])({'a': x3, 'b': y3})",
    'jacrev_empty_output': 'out = F.jacrev(lambda a: ())(x3)',
    'jacfwd_empty_output': 'out = F.jacfwd(lambda a: ())(x3)',
    'jacrev_none_output': 'out = F.jacrev(lambda a: None)(x3)',
    'jacfwd_non_tensor_output': 'out = F.jacfwd(lambda a: 3.0)(x3)',
    'jacrev_non_tensor_output': 'out = F.jacrev(lambda a: (a, 3.0))(x3)',
    'jacrev_non_tensor_input': 'out = F.jacrev(lambda a: a)(3.0)',
    'jacfwd_non_tensor_input': 'out = F.jacfwd(lambda a: a)(3.0)',
    'jacrev_aux_non_tensor': 'out = F.jacrev(lambda a: (a, 3), has_aux=True)(x3)',
    'jacfwd_aux_non_tensor': 'out = F.jacfwd(lambda a: (a, 3), has_aux=True)(x3)',
    'jacrev_aux_not_pair': 'out = F.jacrev(lambda a: a, has_aux=True)(x3)',
    'jacfwd_aux_not_pair': 'out = F.jacfwd(lambda a: a, has_aux=True)(x3)',
    'jacrev_argnums_empty': 'out = F.jacrev(mix, argnums=())(x3, y3)',
    'jacfwd_argnums_float': 'out = F.jacfwd(mix, argnums=1.0)(x3, y3)',
    'jacfwd_argnum_out_of_range': 'out = F.jacfwd(mix, argnums=5)(x3, y3)',
    'jacrev_chunk_neg': 'out = F.jacrev(T.sin, chunk_size=-1)(x3)',
    'jacrev_chunk_tuple_output': 'out = F.jacrev(lambda a: (a.sin(), a[:2].cos()), chunk_size=2)(x3)',
    'jacrev_chunk_argnums': 'out = F.jacrev(lambda a, b: a * b, argnums=(0, 1), chunk_size=1)(x3, y3)',
    'jvp_of_jacrev': 'out = F.jvp(F.jacrev(T.sin), (x3,), (y3,))',
    'jacrev_of_jvp': 'out = F.jacrev(lambda a: F.jvp(T.sin, (a,), (a,))[1])(x3)',
    'linearize_dict': (
        "o, fn = F.linearize(lambda d: d['a'].sin() * d['b'], {'a': x3, 'b': y3})\n"
        "out = (o, fn({'a': ones3, 'b': x3}))"),
    'linearize_tuple_output': 'o, fn = F.linearize(lambda a: (a.sin(), a.cos()), x3)\nout = (o, fn(y3))',
    'linearize_fn_twice': 'o, fn = F.linearize(T.exp, x3)\nout = (fn(y3), fn(ones3))',
    'grad_and_value_argnums_tuple': 'out = F.grad_and_value(mix, argnums=(0, 1))(x3, y3)',
    'grad_and_value_argnums_bad': 'out = F.grad_and_value(mix, argnums=5)(x3, y3)',
    'vjp_dict_primal': "o, fn = F.vjp(lambda d: d['a'] * d['b'], {'a': x3, 'b': y3})\nout = (o, fn(ones3))",
    'vjp_namedtuple_output': 'o, fn = F.vjp(lambda a: Pair(a.sin(), a.cos()), x3)\nout = (o, fn(Pair(ones3, y3)))',
    'vjp_namedtuple_primal': 'o, fn = F.vjp(lambda p: p.a * p.b, Pair(x3, y3))\nout = fn(ones3)',
    'vjp_list_output': 'o, fn = F.vjp(lambda a: [a.sin(), a.cos()], x3)\nout = (o, fn([ones3, y3]))',
    'vjp_fn_tuple_for_list': 'o, fn = F.vjp(lambda a: [a.sin(), a.cos()], x3)\nout = fn((ones3, y3))',
    'vjp_no_primals': 'out = F.vjp(lambda: T.ones(2))',
    'jvp_namedtuple_primal': 'out = F.jvp(lambda p: p.a * p.b, (Pair(x3, y3),), (Pair(ones3, ones3),))',
    'jvp_has_aux_dict': "out = F.jvp(lambda a: (a.sin(), {'k': a.cos()}), (x3,), (y3,), has_aux=True)",
    'jvp_tangent_dtype_mismatch_strict': 'out = F.jvp(T.sin, (x3,), (T.ones(3),), strict=True)',
    'jvp_primal_not_tuple_tensor': 'out = F.jvp(T.sin, x3, (y3,))',
    'jvp_tangents_not_tuple': 'out = F.jvp(T.sin, (x3,), y3)',
    'jvp_len_mismatch': 'out = F.jvp(mix, (x3, y3), (y3,))',
    'grad_nested_tuple_argnums': 'out = F.grad(mix, argnums=((0,), 1))(x3, y3)',
    'grad_bool_argnums': 'out = F.grad(mix, argnums=True)(x3, y3)',
    'grad_output_two_elems': 'out = F.grad(lambda a: a[:2])(x3)',
    'grad_output_one_elem_1d': 'out = F.grad(lambda a: a[:1])(x3)',
    'grad_output_complex': 'out = F.grad(lambda a: (a * 1j).sum())(x3)',
    'grad_float32_input': 'out = F.grad(lambda a: (a * a).sum())(x3.float())',
    'grad_float16_input': 'out = F.grad(lambda a: (a * a).sum())(x3.half())',
    'grad_of_grad_argnums': 'out = F.grad(F.grad(mix, argnums=1), argnums=0)(s, s)',
    'jacrev_of_grad_and_value': 'out = F.jacrev(F.grad_and_value(lambda a: (a ** 3).sum()), has_aux=False)(x3)',
    'jacrev_of_grad_has_aux': 'out = F.jacrev(F.grad(lambda a: ((a ** 3).sum(), a * 2), has_aux=True), has_aux=True)(x3)',
    'functional_call_grad': (
        'm = T.nn.Linear(3, 2).double()\n'
        "p = {'weight': T.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], dtype=f64), 'bias': T.tensor([0.1, -0.1], dtype=f64)}\n"
        'out = F.grad(lambda p: F.functional_call(m, p, (x3,)).pow(2).sum())(p)'),
    'functional_call_vmap_grad': (
        'm = T.nn.Linear(3, 2).double()\n'
        "p = {'weight': T.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], dtype=f64), 'bias': T.tensor([0.1, -0.1], dtype=f64)}\n"
        'out = F.vmap(F.grad(lambda p, x: F.functional_call(m, p, (x,)).pow(2).sum()), in_dims=(None, 0))(p, x23)'),
    'functional_call_jacrev': (
        'm = T.nn.Linear(3, 2).double()\n'
        "p = {'weight': T.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], dtype=f64), 'bias': T.tensor([0.1, -0.1], dtype=f64)}\n"
        'out = F.jacrev(lambda p: F.functional_call(m, p, (x3,)))(p)'),

    # --- autograd.functional: more options and checks --------------------------------------------------
    'af_jacobian_tuple_out_vectorize': 'out = AF.jacobian(lambda a, b: (a * b, a.sin()), (x3, y3), vectorize=True)',
    'af_jacobian_forward_tuple': "out = AF.jacobian(lambda a, b: (a * b, a.sin()), (x3, y3), vectorize=True, strategy='forward-mode')",
    'af_hessian_vectorize_tuple': 'out = AF.hessian(mix, (x3, y3), vectorize=True)',
    'af_hessian_forward_not_vectorized': "out = AF.hessian(quad, x3, outer_jacobian_strategy='forward-mode')",
    'af_hessian_create_graph': 'x = x3.clone().requires_grad_()\nh = AF.hessian(quad, x, create_graph=True)\nout = (h, h.requires_grad)',
    'af_hvp_strict': 'out = AF.hvp(lambda a: (a * 2).sum(), x3, ones3, strict=True)',
    'af_vhp_create_graph': (
        'x = x3.clone().requires_grad_()\n'
        'o, v = AF.vhp(quad, x, ones3, create_graph=True)\n'
        'out = (o, v, v.requires_grad)'),
    'af_jvp_create_graph': (
        'x = x3.clone().requires_grad_()\n'
        'o, t = AF.jvp(lambda a: a ** 3, x, ones3, create_graph=True)\n'
        'out = (o, t, t.requires_grad)'),
    'af_vjp_non_tensor_output': 'out = AF.vjp(lambda a: 3.0, x3)',
    'af_jacobian_int_input': 'out = AF.jacobian(lambda a: a * 2, T.tensor([1, 2]))',
    'af_jacobian_scalar': 'out = AF.jacobian(lambda a: a.sin(), s)',
    'af_hvp_no_v': 'out = AF.hvp(quad, x3)',
    'af_hvp_v_bad_shape': 'out = AF.hvp(quad, x3, T.ones(2, dtype=f64))',
    'af_jacobian_strict_forward': "out = AF.jacobian(lambda a: a, x3, strict=True, vectorize=True, strategy='forward-mode')",
    'af_jacobian_forward_create_graph': "out = AF.jacobian(lambda a: a, x3, create_graph=True, vectorize=True, strategy='forward-mode')",

    # --- autograd.Function under more transforms -------------------------------------------------------
    'function_hessian': 'out = F.hessian(lambda a: Sin.apply(a).sum())(x3)',
    'function_jacrev_generated_vmap': 'out = F.jacrev(SinGen.apply)(x3)',
    'function_vmap_rule_in_dims_none': 'out = F.vmap(SinRule.apply, in_dims=(None,))(x3)',
    'function_vmap_jvp_rule': 'out = F.vmap(lambda p: F.jvp(SinRule.apply, (p,), (p,)))(x23)',
    'function_once_ctx_style_vmap': 'out = F.vmap(CtxStyle.apply)(x23)',
    'function_ctx_style_jvp': 'out = F.jvp(CtxStyle.apply, (x3,), (y3,))',
    'function_setup_no_jvp_jacfwd': 'out = F.jacfwd(MulSum.apply)(x3, y3)',
    'function_mulsum_vmap': 'out = F.vmap(MulSum.apply)(x23, x23)',
    'function_mulsum_vmap_grad': 'out = F.vmap(F.grad(lambda a, b: MulSum.apply(a, b)[0]))(x23, x23)',

    # --- vmap surface: views that write through, numbers, clone, data access ---------------------------
    'vmap_split_views': 'b = x23.clone()\nF.vmap(lambda r: r.split(2)[0].mul_(2))(b)\nout = b',
    'vmap_unbind_views': 'b = T.ones(2, 2, 3, dtype=f64)\nF.vmap(lambda r: r.unbind(0)[1].add_(1))(b)\nout = b',
    'vmap_narrow_views': 'b = x23.clone()\nF.vmap(lambda r: r.narrow(0, 1, 1).mul_(3))(b)\nout = b',
    'vmap_diagonal_views': 'b = T.zeros(2, 3, 3, dtype=f64)\nF.vmap(lambda r: r.diagonal().fill_(1))(b)\nout = b',
    'vmap_select_views': 'b = x23.clone()\nF.vmap(lambda r: r[1].zero_())(b)\nout = b',
    'vmap_is_contiguous': 'out = F.vmap(lambda r: T.tensor(r.is_contiguous()))(x23)',
    'vmap_t_ok': 'out = F.vmap(lambda r: r[None].t())(x23)',
    'vmap_number_rsub': 'out = F.vmap(lambda r: 2.5 - r)(x23)',
    'vmap_true_divide_number': 'out = F.vmap(lambda r: T.true_divide(2, r))(x23)',
    'vmap_clone_preserve': 'out = F.vmap(lambda r: r.clone(memory_format=T.preserve_format))(x23)',
    'vmap_clone_channels_last_bad_rank': 'out = F.vmap(lambda r: r.clone(memory_format=T.channels_last))(x23)',
    'vmap_inplace_unbatched_into_batched': 'out = F.vmap(lambda r: x3.clone().add_(r))(x23)',
    'vmap_inplace_batched_into_unbatched': 'c = x3.clone()\nout = F.vmap(lambda r: c.add_(r))(x23)',
    'vmap_tolist': 'out = F.vmap(lambda r: r.tolist())(x23)',
    'vmap_bool': 'out = F.vmap(lambda r: r if r.sum() > 0 else -r)(x23)',
    'vmap_numpy': 'out = F.vmap(lambda r: r.numpy())(x23)',
    'vmap_requires_grad_attr': 'out = F.vmap(lambda r: T.tensor(r.requires_grad))(x23)',
    'vmap_shape_dim': 'out = F.vmap(lambda r: T.tensor([r.dim(), r.numel(), r.shape[0]]))(x23)',

    # --- signatures: out_dims pytrees, in_dims checks, keywords, varargs; transforms of vmap and vmap of transforms ---
    'vmap_out_dims_dict': "out = F.vmap(lambda a: {'x': a, 'y': a.sum()}, out_dims={'x': 1, 'y': 0})(x23)",
    'vmap_out_dims_dict_chunked': "out = F.vmap(lambda a: {'x': a, 'y': a.sum()}, out_dims={'x': 1, 'y': 0}, chunk_size=1)(x23)",
    'vmap_out_dims_float': 'out = F.vmap(lambda a: a, out_dims=1.5)(x23)',
    'vmap_out_dims_nested_str': "out = F.vmap(lambda a: (a, a), out_dims=(0, 'a'))(x23)",
    'vmap_in_dims_inner_str': "out = F.vmap(lambda a: a, in_dims=('a',))(x23)",
    'vmap_in_dims_bool': 'out = F.vmap(lambda a: a * 2, in_dims=(True,))(x23)',
    'vmap_kwonly_unbatched': 'out = F.vmap(lambda a, *, b: a * b)(x23, b=x3)',
    'vmap_varargs': 'out = F.vmap(lambda *a: a[0] * a[1], in_dims=(0, None))(x23, x3)',
    'vmap_list_output': 'out = F.vmap(lambda a: [a, a * 2])(x23)',
    'vmap_random_same_chunked': (
        "o = F.vmap(lambda a: a * 0 + T.rand(()), randomness='same', chunk_size=1)(x23)\n"
        'out = (o.shape, bool((o == o[0, 0]).all()))'),
    'jacrev_kwargs': 'out = F.jacrev(lambda a, k=1.0: a * k)(x3, k=2.0)',
    'jacfwd_kwargs': 'out = F.jacfwd(lambda a, k=1.0: a * k)(x3, k=2.0)',
    'hessian_kwargs': 'out = F.hessian(lambda a, k=1.0: (a ** 3 * k).sum())(x3, k=2.0)',
    'grad_kwonly': 'out = F.grad(lambda a, *, k: (a * k).sum())(x3, k=x3)',
    'jacrev_has_aux_chunk_1': 'out = F.jacrev(lambda a: (a.sin(), a.cos()), has_aux=True, chunk_size=1)(x3)',
    'vmap_of_vjp_fn': 'out = F.vmap(F.vjp(T.sin, x3)[1])(T.eye(3, dtype=f64))',
    'vmap_of_linearize_fn': 'out = F.vmap(F.linearize(T.sin, x3)[1])(T.eye(3, dtype=f64))',
    'grad_of_vjp_fn': 'out = F.grad(lambda a: F.vjp(T.sin, a)[1](ones3)[0].sum())(x3)',
    'jvp_of_vmap': 'out = F.jvp(F.vmap(T.sin), (x23,), (x23,))',
    'linearize_of_vmap': 'out = F.linearize(F.vmap(T.sin), x23)[1](x23)',
    'vjp_of_vmap': 'out = F.vjp(F.vmap(T.sin), x23)[1](x23)',
    'hessian_of_vmap': 'out = F.hessian(lambda a: F.vmap(T.sin)(a[None]).sum())(x3)',
    'vmap_of_grad_has_aux': 'out = F.vmap(F.grad(lambda a: ((a ** 2).sum(), a * 3), has_aux=True))(x23)',
    'vmap_of_jacrev_argnums': 'out = F.vmap(F.jacrev(lambda a, b: a * b, argnums=(0, 1)))(x23, x23)',
    'vmap_of_jacfwd_has_aux': 'out = F.vmap(F.jacfwd(lambda a: (a.sin(), a.cos()), has_aux=True))(x23)',
    'vmap_of_hessian_argnums': 'out = F.vmap(F.hessian(lambda a, b: (a * b * b).sum(), argnums=1))(x23, x23)',
    'vmap_chunked_of_grad': 'out = F.vmap(F.grad(lambda a: (a ** 3).sum()), chunk_size=1)(x23)',
    'transform_names': (
        'def named(a):\n'
        '    return a.sin().sum()\n'
        'out = [t(named).__name__ for t in (F.grad, F.grad_and_value, F.vmap, F.jacrev, F.jacfwd, F.hessian)]'),

    # --- stack_module_state (ensembling with vmap) and debug_unwrap ------------------------------------
    'stack_module_state_ensemble': (
        'ms = [T.nn.Linear(3, 2).double() for _ in range(3)]\n'
        'with T.no_grad():\n'
        '    for i, m in enumerate(ms):\n'
        '        m.weight.copy_(w32.T * (i + 1))\n'
        '        m.bias.fill_(0.1 * i)\n'
        'p, b = F.stack_module_state(ms)\n'
        'y = F.vmap(lambda p, x: F.functional_call(ms[0], p, (x,)), in_dims=(0, None))(p, x23)\n'
        'out = (p, b, [p[k].is_leaf for k in p], y, F.grad(lambda p: F.vmap(lambda q: F.functional_call(ms[0], q, (x23,)))(p).sum())(p))'),
    'stack_module_state_no_grad_params': (
        'ms = [T.nn.Linear(3, 2).double().requires_grad_(False) for _ in range(2)]\n'
        'p, b = F.stack_module_state(ms)\n'
        'out = [(k, v.shape, v.requires_grad) for k, v in p.items()]'),
    'stack_module_state_empty': 'out = F.stack_module_state([])',
    'stack_module_state_mixed_mode': 'ms = [T.nn.Linear(3, 2), T.nn.Linear(3, 2).eval()]\nout = F.stack_module_state(ms)',
    'stack_module_state_mixed_class': 'out = F.stack_module_state([T.nn.Linear(3, 2), T.nn.Identity()])',
    'stack_module_state_mixed_requires_grad': (
        'ms = [T.nn.Linear(3, 2), T.nn.Linear(3, 2)]\n'
        'ms[1].bias.requires_grad_(False)\n'
        'out = F.stack_module_state(ms)'),
    'debug_unwrap_shapes': (
        'seen = []\n'
        'F.vmap(F.vmap(lambda r: seen.append((F.debug_unwrap(r).shape, F.debug_unwrap(r, recurse=False).shape)) or r))(T.ones(2, 3, 4))\n'
        'out = seen'),
    'debug_unwrap_plain': 'out = F.debug_unwrap(x3) is x3',

    # --- autograd.Function under transforms: mark_dirty, non-differentiable outputs, needs_input_grad, once_differentiable, vmap rule outputs ---
    'function_mark_dirty_under_grad': (
        'class MulInplace(T.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(x):\n'
        '        return x.mul_(2)\n'
        '    @staticmethod\n'
        '    def setup_context(ctx, inputs, output):\n'
        '        ctx.mark_dirty(inputs[0])\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        return g * 2\n'
        'out = F.grad(lambda a: MulInplace.apply(a.clone()).sum())(x3)'),
    'function_mark_dirty_under_vmap': (
        'class MulInplace(T.autograd.Function):\n'
        '    generate_vmap_rule = True\n'
        '    @staticmethod\n'
        '    def forward(x):\n'
        '        return x.mul_(2)\n'
        '    @staticmethod\n'
        '    def setup_context(ctx, inputs, output):\n'
        '        ctx.mark_dirty(inputs[0])\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        return g * 2\n'
        'out = F.vmap(lambda a: MulInplace.apply(a.clone()))(x23)'),
    'function_non_differentiable_output_under_grad': (
        'class Two(T.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(x):\n'
        '        return x * 2, (x > 1).double()\n'
        '    @staticmethod\n'
        '    def setup_context(ctx, inputs, output):\n'
        '        ctx.mark_non_differentiable(output[1])\n'
        '    @staticmethod\n'
        '    def backward(ctx, g, g2):\n'
        '        return g * 2\n'
        'out = F.grad(lambda a: (Two.apply(a)[0] * Two.apply(a)[1]).sum())(x3)'),
    'function_needs_input_grad_under_grad': (
        'seen = []\n'
        'class Mul(T.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(x, y):\n'
        '        return x * y\n'
        '    @staticmethod\n'
        '    def setup_context(ctx, inputs, output):\n'
        '        ctx.save_for_backward(*inputs)\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        seen.append(ctx.needs_input_grad)\n'
        '        x, y = ctx.saved_tensors\n'
        '        return g * y, g * x\n'
        'g = F.grad(lambda a, b: Mul.apply(a, b).sum())(x3, y3)\n'
        'out = (g, seen)'),
    'function_once_differentiable_double_grad': (
        'class Sq(T.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(x):\n'
        '        return x * x\n'
        '    @staticmethod\n'
        '    def setup_context(ctx, inputs, output):\n'
        '        ctx.save_for_backward(inputs[0])\n'
        '    @staticmethod\n'
        '    @T.autograd.function.once_differentiable\n'
        '    def backward(ctx, g):\n'
        '        x, = ctx.saved_tensors\n'
        '        return 2 * g * x\n'
        'out = F.grad(F.grad(lambda a: Sq.apply(a)))(s)'),
    'function_materialize_grads_under_grad': (
        'class Two(T.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(x):\n'
        '        return x * 2, x * 3\n'
        '    @staticmethod\n'
        '    def setup_context(ctx, inputs, output):\n'
        '        pass\n'
        '    @staticmethod\n'
        '    def backward(ctx, g1, g2):\n'
        '        return g1 * 2 + g2 * 3\n'
        'out = F.grad(lambda a: Two.apply(a)[0].sum())(x3)'),
    'function_vmap_rule_out_dims_tuple': (
        'class Pairf(T.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(x):\n'
        '        return x * 2, x.sum()\n'
        '    @staticmethod\n'
        '    def setup_context(ctx, inputs, output):\n'
        '        pass\n'
        '    @staticmethod\n'
        '    def backward(ctx, g1, g2):\n'
        '        return g1 * 2 + g2\n'
        '    @staticmethod\n'
        '    def vmap(info, in_dims, x):\n'
        '        d = in_dims[0]\n'
        '        return (x * 2, x.sum(d)), (d, 0)\n'
        'out = F.vmap(Pairf.apply)(x23)'),
    'function_vmap_rule_info_randomness': (
        'seen = []\n'
        'class Id(T.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(x):\n'
        '        return x * 1\n'
        '    @staticmethod\n'
        '    def setup_context(ctx, inputs, output):\n'
        '        pass\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        return g\n'
        '    @staticmethod\n'
        '    def vmap(info, in_dims, x):\n'
        '        seen.append((info.batch_size, info.randomness))\n'
        '        return x * 1, in_dims[0]\n'
        "F.vmap(Id.apply, randomness='different')(x23)\n"
        "F.vmap(Id.apply, in_dims=1, randomness='same')(x23)\n"
        'out = seen'),
    'function_jacrev_of_vmap_rule': 'out = F.jacrev(lambda a: F.vmap(SinRule.apply)(a[None])[0])(x3)',
    'function_jvp_under_vmap_no_jvp': 'out = F.vmap(lambda p: F.jvp(MulSum.apply, (p, p), (p, p)))(x23)',
    'function_grad_non_tensor_arg': (
        'class Scale(T.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(x, k):\n'
        '        return x * k\n'
        '    @staticmethod\n'
        '    def setup_context(ctx, inputs, output):\n'
        '        ctx.k = inputs[1]\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        return g * ctx.k, None\n'
        '    @staticmethod\n'
        '    def vmap(info, in_dims, x, k):\n'
        '        return Scale.apply(x, k), in_dims[0]\n'
        'out = (F.grad(lambda a: Scale.apply(a, 3.0).sum())(x3), F.vmap(Scale.apply, in_dims=(0, None))(x23, 2.0))'),
    'function_backward_returns_wrong_count_under_grad': (
        'class Bad(T.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(x):\n'
        '        return x * 2\n'
        '    @staticmethod\n'
        '    def setup_context(ctx, inputs, output):\n'
        '        pass\n'
        '    @staticmethod\n'
        '    def backward(ctx, g):\n'
        '        return g, g\n'
        'out = F.grad(lambda a: Bad.apply(a).sum())(x3)'),
    'function_vmap_rule_wrong_out_dims_len': (
        'class Bad(T.autograd.Function):\n'
        '    @staticmethod\n'
        '    def forward(x):\n'
        '        return x * 2, x * 3\n'
        '    @staticmethod\n'
        '    def setup_context(ctx, inputs, output):\n'
        '        pass\n'
        '    @staticmethod\n'
        '    def backward(ctx, g1, g2):\n'
        '        return g1\n'
        '    @staticmethod\n'
        '    def vmap(info, in_dims, x):\n'
        '        return (x * 2, x * 3), (0,)\n'
        'out = F.vmap(Bad.apply)(x23)'),

    # --- autograd.functional under outer graphs and inside transforms ----------------------------------
    'af_jacobian_create_graph_outer_grad': (
        'x = x3.clone().requires_grad_()\n'
        'j = AF.jacobian(lambda a: a ** 3, x, create_graph=True)\n'
        'out = (j, T.autograd.grad(j.sum(), x))'),
    'af_hvp_vectorize_ignored': 'out = AF.hvp(quad, x3, ones3)',
    'af_vjp_tuple_inputs_v_none_scalar': 'out = AF.vjp(lambda a, b: (a * b).sum(), (x3, y3))',
    'af_jvp_v_tuple': 'out = AF.jvp(lambda a, b: a * b, (x3, y3), (ones3, ones3))',
    'af_jacobian_inside_vmap': 'out = F.vmap(lambda r: AF.jacobian(T.sin, r))(x23)',
    'af_hessian_outer_jacobian_forward_tuple': "out = AF.hessian(mix, (x3, y3), vectorize=True, outer_jacobian_strategy='forward-mode')",

    # --- forward AD with in-place ops: tangents of their own, reverse over forward through in-place changes ---
    'fwad_inplace_result_tangent_own': (
        'p = x3.clone()\n'
        't = ones3.clone()\n'
        'with fwAD.dual_level():\n'
        '    d = fwAD.make_dual(p, t)\n'
        '    y = d + 0\n'
        '    y.mul_(2)\n'
        '    z = d * 1\n'
        '    z.add_(5)\n'
        '    out = (fwAD.unpack_dual(y).tangent, fwAD.unpack_dual(z).tangent, fwAD.unpack_dual(d).tangent, t)'),
    'fwad_inplace_alias_result_shares_tangent': (
        'p = x3.clone()\n'
        't = ones3.clone()\n'
        'with fwAD.dual_level():\n'
        '    d = fwAD.make_dual(p, t)\n'
        '    w = d.to(f64)\n'
        '    w.mul_(3)\n'
        '    out = (fwAD.unpack_dual(d).tangent, t)'),
    'fwad_over_reverse_inplace_clone': (
        'x = x3.clone().requires_grad_()\n'
        'with fwAD.dual_level():\n'
        '    d = fwAD.make_dual(x, y3)\n'
        '    y = d.clone()\n'
        '    y.mul_(d)\n'
        '    t = fwAD.unpack_dual(y).tangent\n'
        'out = T.autograd.grad(t.sum(), x)'),
    'fwad_over_reverse_inplace_add': (
        'x = x3.clone().requires_grad_()\n'
        'with fwAD.dual_level():\n'
        '    d = fwAD.make_dual(x, y3)\n'
        '    y = d + 0\n'
        '    y.mul_(d)\n'
        '    t = fwAD.unpack_dual(y).tangent\n'
        'out = T.autograd.grad(t.sum(), x)'),
    'grad_of_jvp_inplace_clone': 'out = F.grad(lambda a: F.jvp(lambda b: b.clone().mul_(b), (a,), (y3,))[1].sum())(x3)',
    'vjp_of_jacfwd_inplace_clone': 'out = F.vjp(lambda a: F.jacfwd(lambda b: b.clone().mul_(b))(a).sum(-1), x3)[1](y3)',
    'grad_of_vmap_of_jvp_inplace_clone': 'out = F.grad(lambda a: F.vmap(lambda t: F.jvp(lambda b: b.clone().mul_(b).add_(1).log(), (a,), (t,))[1])(T.eye(3, dtype=f64)).sum())(x3)',
    'hessian_of_inplace_chain': 'out = F.hessian(lambda a: a.clone().mul_(a).add_(1).log().sum())(x3)',
    'jacfwd_of_hessian_inplace': 'out = F.jacfwd(lambda a: F.hessian(lambda b: b.clone().mul_(b).add_(1).log().sum())(a).sum(0))(x3)',

    # --- found by composing transforms at random: autograd inside vmap, in-place views, generated rules -----
    'vmap_of_grad_of_af_jacobian_create_graph': 'out = F.vmap(F.grad(lambda a: AF.jacobian(lambda b: b ** 3, a, create_graph=True).sum()))(x23)',
    'vmap_of_grad_of_af_vjp_create_graph': 'out = F.vmap(F.grad(lambda a: AF.vjp(lambda b: b ** 3, a, a, create_graph=True)[1].sum()))(x23)',
    'vmap_of_vjp_of_af_jacobian': (
        'g = lambda a: a * a.amax() - a.max() / (a.abs() + 1)\n'
        'out = F.vmap(lambda q: F.vjp(lambda a: AF.jacobian(g, a, create_graph=True).sum(-1), q)[1](q.sin())[0])(x23)'),
    'autograd_grad_inside_vmap_of_grad': 'out = F.vmap(F.grad(lambda a: T.autograd.grad((a ** 3).sum(), a, create_graph=True)[0].sum()))(x23)',
    'vmap_of_grad_t__then_mul_': (
        'def tr(a):\n'
        '    b = a.reshape(3, 1).clone()\n'
        '    b.t_().mul_(a.reshape(1, 3))\n'
        '    return b.reshape(-1)\n'
        'out = F.vmap(F.grad(lambda a: tr(a).sum()))(x23)'),
    'vmap_unsqueeze__of_leaf_requiring_grad': 'x = x23.clone().requires_grad_()\nout = F.vmap(lambda r: r.unsqueeze_(0))(x)',
    'grad_of_jacfwd_setitem': (
        'def st(a):\n'
        '    b = a.clone()\n'
        '    b[0:2] = a[1:] ** 2\n'
        '    return b\n'
        'out = F.grad(lambda a: F.jacfwd(st)(a).sum())(x3)'),
    'vmap_of_grad_of_jacfwd_setitem': (
        'def st(a):\n'
        '    b = a.clone()\n'
        '    b[0:2] = a[1:] ** 2\n'
        '    return b\n'
        'out = F.vmap(F.grad(lambda a: F.jacfwd(st)(a).sum()))(x23)'),
    'jacrev_of_jacfwd_setitem_chunked': (
        'def st(a):\n'
        '    b = a.clone()\n'
        '    b[0:2] = a[1:] ** 2\n'
        '    return b\n'
        'out = F.jacrev(lambda a: F.jacfwd(st)(a).sum(-1), chunk_size=2)(x3)'),
    'function_generated_rule_in_dims_1_under_vmap_of_vjp': 'out = F.vmap(lambda q: F.vjp(lambda a: F.vmap(lambda r: SinGen.apply(r) * r, in_dims=1)(T.stack([a, a * 3], 1))[1], q)[1](q)[0])(x23)',
    'clone_of_expanded_strides': 'out = [T.ones(3).expand(2, 3).clone().stride(), x23.t().clone().stride(), T.ones(4, 6)[:, ::2].clone().stride()]',

    # --- vmap of in-place ops that take a dim or an index (their out-of-place form, written back) ----------
    'vmap_index_add_': 'out = F.vmap(lambda r, s: r.clone().index_add_(0, T.tensor([0, 2]), s))(x23, x23[:, :2] * 3)',
    'vmap_index_add__unbatched_source': 'out = F.vmap(lambda r: r.clone().index_add_(0, T.tensor([0, 2]), y3[:2], alpha=2))(x23)',
    'vmap_index_add__into_unbatched': 'c = x3.clone()\nout = F.vmap(lambda s: c.index_add_(0, T.tensor([0, 2]), s))(x23[:, :2])',
    'vmap_scatter_add_': 'out = F.vmap(lambda r: r.clone().scatter_add_(0, T.tensor([2, 0, 2]), r * 2))(x23)',
    'vmap_cumsum_': 'out = F.vmap(lambda r: r.clone().cumsum_(0))(x23)',
    'vmap_cumprod_dim': 'out = F.vmap(lambda r: r.clone().reshape(3, 1).cumprod_(0))(x23)',
    'vmap_index_copy_': 'out = F.vmap(lambda r: r.clone().index_copy_(0, T.tensor([1]), r[:1] * 5))(x23)',
    'vmap_index_fill_': 'out = F.vmap(lambda r: r.clone().index_fill_(0, T.tensor([0, 2]), -1.0))(x23)',
    'vmap_scatter_reduce_': "out = F.vmap(lambda r: r.clone().scatter_reduce_(0, T.tensor([0, 0, 1]), r, 'amax'))(x23)",
    'jacrev_of_index_add_': 'out = F.vmap(F.jacrev(lambda a: (lambda b: b.index_add_(0, T.tensor([0, 2]), a[:2] * a[1:]))(a.clone())))(x23)',
    'grad_of_vmap_cumsum_': 'out = F.grad(lambda a: F.vmap(lambda r: r.clone().cumsum_(0) ** 2)(a).sum())(x23)',

    # --- complex tensors: forward and reverse mode differentiate them (conjugate Wirtinger, as torch) --
    'grad_complex_input': 'out = F.grad(lambda a: (a * a).abs().sum())(x3 * (1 + 1j))',
    'vjp_complex_input': 'o, fn = F.vjp(lambda a: a * a, x3 * (1 + 1j))\nout = fn(T.ones(3, dtype=T.complex128))',
    'vjp_complex_output': 'o, fn = F.vjp(lambda a: a * (2 + 1j), x3)\nout = fn(T.ones(3, dtype=T.complex128) * 1j)',
    'vmap_of_grad_complex_input': 'out = F.vmap(F.grad(lambda a: (a * a).abs().sum()))((x3 * (1 + 1j))[None])',
    'af_jacobian_complex_input': 'out = AF.jacobian(lambda a: a * a, x3 * (1 + 1j))',
    'af_vjp_complex_output': 'out = AF.vjp(lambda a: a * (2 + 1j), x3, T.ones(3, dtype=T.complex128))',
    'jvp_complex_primal': 'out = F.jvp(lambda a: a * a, (x3 * (1 + 1j),), (x3 * (1 + 1j),))',
    'jvp_real_to_complex': 'out = F.jvp(lambda a: a * (1 + 1j), (x3,), (x3,))',
    'linearize_complex': 'o, fn = F.linearize(lambda a: a * a, x3 * (1 + 1j))\nout = fn(x3 * (1 + 1j))',

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

    # --- functionalize, batch norm replacement, autograd inside transforms -------------------------
    'functionalize_inplace_on_input': 'x = x3.clone()\nout = (F.functionalize(lambda a: a.mul_(y3) + 1)(x), x)',
    'functionalize_returns_mutated_input': 'x = x3.clone()\no = F.functionalize(lambda a: a.add_(ones3))(x)\nout = (o, x, o is x)',
    'functionalize_write_into_view_of_input': 'def f(a):\n    a[1:].mul_(y3[:2])\n    a.view(3, 1)[0, 0] = 5.0\n    return a.sum()\nx = x3.clone()\nout = (F.functionalize(f)(x), x)',
    'functionalize_views_mode': "def f(a):\n    b = a.t()\n    b[0].add_(ones3[:2])\n    return b\nx = x23.clone()\nout = (F.functionalize(f, remove='mutations_and_views')(x), x)",
    'functionalize_view_output_aliases_input': 'o = F.functionalize(lambda a: a.view(-1))(x23)\nout = o._base is x23',
    'functionalize_fresh_tensor_setitem': 'def f(a):\n    o = T.zeros(4, dtype=f64)\n    o[1:] = a * 2\n    o[0] = a.sum()\n    return o\nout = F.functionalize(f)(x3)',
    'functionalize_diagonal_write': 'x = T.zeros(2, 2, dtype=f64)\nout = (F.functionalize(lambda a: a.diagonal().add_(ones3[:2]))(x), x)',
    'functionalize_unbind_write': 'x = T.zeros(2, 3, dtype=f64)\nout = (F.functionalize(lambda a: a.unbind(0)[1].add_(x3))(x), x)',
    'functionalize_split_write': 'x = T.zeros(5, dtype=f64)\nout = (F.functionalize(lambda a: a.split(2)[1].add_(ones3[:2]))(x), x)',
    'functionalize_as_strided_write': 'x = T.zeros(2, 2, dtype=f64)\nout = (F.functionalize(lambda a: a.as_strided((2,), (3,)).add_(ones3[:2]))(x), x)',
    'functionalize_copy_into_slice': 'x = T.zeros(4, dtype=f64)\nout = (F.functionalize(lambda a, b: a[::2].copy_(b))(x, x3[:2]), x)',
    'functionalize_index_put': 'x = T.zeros(4, dtype=f64)\nout = (F.functionalize(lambda a: a.index_put_((T.tensor([0, 2]),), x3[:2]))(x), x)',
    'functionalize_out_argument': 'x = x3.clone()\nout = (F.functionalize(lambda a: T.sin(a, out=a))(x), x)',
    'functionalize_zero_': 'x = x3.clone()\nout = (F.functionalize(lambda a: a[1:].zero_())(x), x)',
    'functionalize_pytree_kwargs': "d = {'a': x3.clone(), 'b': [y3.clone()]}\no = F.functionalize(lambda d, k=1.0: {'s': d['a'].mul_(k) + d['b'][0].add_(1)})(d, k=T.tensor(2.0, dtype=f64))\nout = (o, d)",
    'functionalize_non_tensor_argument': 'out = F.functionalize(lambda a, k: a * k)(x3, 3)',
    'functionalize_nested': 'out = F.functionalize(F.functionalize(lambda a: a.add_(ones3)))(x3.clone())',
    'functionalize_requires_grad_input': 'x = x3.clone().requires_grad_()\no = F.functionalize(lambda a: (a.clone().mul_(a)).sum())(x)\nout = (o, o.requires_grad, T.autograd.grad(o, x))',
    'functionalize_name': 'def fname(a):\n    return a\nout = F.functionalize(fname).__name__',
    'functionalize_captured_requires_grad': 'w = y3.clone().requires_grad_()\nr = F.functionalize(lambda a: (a.clone().mul_(a) * w).sum())(x3)\nout = (r, r.requires_grad, T.autograd.grad(r, w))',
    'functionalize_captured_and_input_require_grad': 'w = y3.clone().requires_grad_()\nx = x3.clone().requires_grad_()\nr = F.functionalize(lambda a: (a.exp().mul_(w).relu() * w).sum())(x)\nout = (r, T.autograd.grad(r, [x, w]))',
    'functionalize_captured_double_backward': 'w = y3.clone().requires_grad_()\nr = F.functionalize(lambda a: (a.clone().mul_(w) ** 3).sum())(x3)\ng, = T.autograd.grad(r, w, create_graph=True)\nout = (g, T.autograd.grad(g.sum(), w))',
    'functionalize_unsqueeze_input': 'x = x23.clone()\no = F.functionalize(lambda a: a.unsqueeze_(0).mul(2))(x)\nout = (o, x.shape, x)',
    'functionalize_t_input_then_write': 'x = x23.clone()\no = F.functionalize(lambda a: a.t_().mul_(y3[:2]))(x)\nout = (o, x.shape, x)',
    'functionalize_transpose_of_fresh': 'def f(a):\n    b = a.clone()\n    b.transpose_(0, 1)\n    b[0].add_(1.0)\n    return b, list(b.shape)\nout = F.functionalize(f)(x23)',
    'functionalize_squeeze_views_mode': "x = x23.clone().reshape(2, 1, 3)\no = F.functionalize(lambda a: a.squeeze_(1).add_(ones3), remove='mutations_and_views')(x)\nout = (o, x.shape, x)",
    'grad_of_functionalize_inplace_views': 'out = F.grad(F.functionalize(lambda a: (a.clone().unsqueeze_(1).t_().mul_(a) ** 2).sum()))(x3)',
    'functionalize_bad_remove': "out = F.functionalize(lambda a: a, remove='views')",
    'functionalize_bad_remove_type': 'out = F.functionalize(lambda a: a, remove=1)',
    'functionalize_mutate_captured': 'c = T.zeros(3, dtype=f64)\ndef f(a):\n    c.add_(a)\n    return a\nout = F.functionalize(f)(x3)',
    'grad_of_functionalize_inplace': 'out = F.grad(F.functionalize(lambda a: a.exp().masked_fill_(a > 0.9, 0.0).sum()))(x3)',
    'functionalize_of_grad': 'out = F.functionalize(F.grad(lambda a: (a.clone().mul_(a)).sum()))(x3)',
    'vmap_of_functionalize_writes_input': 'x = x23.clone()\nout = (F.vmap(F.functionalize(lambda a: a[1:3].add_(1.0)))(x), x)',
    'functionalize_of_vmap_writes_input': 'x = x23.clone()\nout = (F.functionalize(F.vmap(lambda a: a[1:].add_(1.0)))(x), x)',
    'jvp_of_functionalize': 'out = F.jvp(F.functionalize(lambda a: a.clone().mul_(a)), (x3,), (y3,))',
    'hessian_of_functionalize': 'out = F.hessian(F.functionalize(lambda a: (a.clone()[1:3].mul_(a[:2]) ** 2).sum()))(x3)',
    'jacfwd_of_functionalize_views': "out = F.jacfwd(F.functionalize(lambda a: a.clone().view(3, 1).t()[0].mul_(a), remove='mutations_and_views'))(x3)",
    'make_fx_functionalize_mutations': "import importlib\\nmake_fx = importlib.import_module(T.__name__ + '.fx.experimental.proxy_tensor').make_fx\\ndef f(a):\n    y = a.clone()\n    y.add_(ones3)\n    a.mul_(y3)\n    return y\ngm = make_fx(F.functionalize(f))(x3.clone())\nout = sorted({str(n.target) for n in gm.graph.nodes if n.op == 'call_function'})",
    'make_fx_functionalize_views_kept': "import importlib\\nmake_fx = importlib.import_module(T.__name__ + '.fx.experimental.proxy_tensor').make_fx\\ndef f(a):\n    a[1:].add_(ones3[:2])\n    a.view(3, 1)[0, 0] = 5.0\n    return a.sum()\ngm = make_fx(F.functionalize(f))(x3.clone())\nout = sorted({str(n.target) for n in gm.graph.nodes if n.op == 'call_function'})",
    'make_fx_functionalize_views_removed': "import importlib\\nmake_fx = importlib.import_module(T.__name__ + '.fx.experimental.proxy_tensor').make_fx\\ndef f(a):\n    a[1:].add_(ones3[:2])\n    a.view(3, 1)[0, 0] = 5.0\n    return a.t()\ngm = make_fx(F.functionalize(f, remove='mutations_and_views'))(x3.clone())\nout = sorted({str(n.target) for n in gm.graph.nodes if n.op == 'call_function'})",
    'make_fx_functionalize_view_then_write_base': "import importlib\\nmake_fx = importlib.import_module(T.__name__ + '.fx.experimental.proxy_tensor').make_fx\\ndef f(a):\n    b = a.view(-1)\n    b.add_(ones3.repeat(2))\n    return a.t()\ngm = make_fx(F.functionalize(f, remove='mutations_and_views'))(x23.clone())\nout = sorted({str(n.target) for n in gm.graph.nodes if n.op == 'call_function'})",
    'replace_all_batch_norm_modules': 'net = T.nn.Module()\nnet.bn = T.nn.BatchNorm1d(3)\nnet.inner = T.nn.Module()\nnet.inner.bn = T.nn.BatchNorm2d(2, track_running_stats=False)\nr = F.replace_all_batch_norm_modules_(net)\nout = (r is net, net.bn.running_mean, net.bn.running_var, net.bn.num_batches_tracked, net.bn.track_running_stats, net.inner.bn.track_running_stats, sorted(k for k, _ in net.named_buffers()))',
    'replace_all_batch_norm_modules_root': 'bn = T.nn.BatchNorm1d(3)\nF.replace_all_batch_norm_modules_(bn)\nout = (bn.running_mean, bn.track_running_stats, bn(x23.double().T.contiguous().float()).shape if False else 0)',
    'vmap_over_batch_norm_after_replacement': 'bn = T.nn.BatchNorm1d(3, dtype=f64)\nF.replace_all_batch_norm_modules_(bn)\nxs = T.stack([x23, x23 * 2 + 1])\nout = F.vmap(bn)(xs)',
    'vmap_over_batch_norm_with_running_stats': 'bn = T.nn.BatchNorm1d(3, dtype=f64)\nout = F.vmap(bn)(T.stack([x23, x23 * 2 + 1]))',
    'autograd_grad_inside_vmap_captured_input': 'x = x3.clone().requires_grad_()\nout = F.vmap(lambda r: T.autograd.grad((r * x).sum(), x)[0])(x23)',
    'autograd_grad_inside_vmap_batched_input': 'out = F.vmap(lambda r: T.autograd.grad((r * r).sum(), r)[0])(x23.clone().requires_grad_())',
    'autograd_grad_inside_vmap_allow_unused': 'x = x3.clone().requires_grad_()\nout = F.vmap(lambda r: T.autograd.grad((r * x).sum(), x, allow_unused=True)[0])(x23)',
    'autograd_grad_inside_vmap_unbatched_graph': 'x = x3.clone().requires_grad_()\nout = F.vmap(lambda r: T.autograd.grad((x * x).sum(), x)[0] * r)(x23)',
    'autograd_grad_inside_vmap_batched_grad_outputs': 'x = x3.clone().requires_grad_()\nout = F.vmap(lambda r: T.autograd.grad(x * x, x, grad_outputs=r)[0])(x23)',
    'autograd_grad_inside_vmap_second_output_batched': 'x = x3.clone().requires_grad_()\nout = F.vmap(lambda r: T.autograd.grad([(x * x).sum(), (r * x).sum()], x)[0])(x23)',
    'autograd_grad_inside_vmap_input_not_in_graph': 'x = x3.clone().requires_grad_()\nout = F.vmap(lambda r: T.autograd.grad((x * x).sum(), r)[0])(x23)',
    'autograd_grad_inside_grad_of_vmap': 'out = F.grad(lambda y: F.vmap(lambda r: T.autograd.grad((r ** 3).sum(), r, create_graph=True)[0])(y).sum())(x23)',
    'autograd_grad_inside_vmap_of_grad_captured': 'x = x3.clone().requires_grad_()\nout = F.vmap(F.grad(lambda r: T.autograd.grad((r * x).sum(), x, create_graph=True)[0].sum()))(x23)',
    'requires_grad_inside_vmap': 'seen = []\nF.vmap(lambda r: seen.append((r.requires_grad, (r * 2).requires_grad, (r * 2).grad_fn)) or r)(x23.clone().requires_grad_())\nout = seen',
    'requires_grad_inside_vmap_of_grad': 'seen = []\nF.vmap(F.grad(lambda r: seen.append((r.requires_grad, (r * 2).requires_grad)) or r.sum()))(x23)\nout = seen',
    'requires_grad_inside_grad_of_vmap': 'seen = []\nF.grad(lambda y: F.vmap(lambda r: seen.append(r.requires_grad) or r)(y).sum())(x23)\nout = seen',
    'backward_inside_vmap': 'x = x3.clone().requires_grad_()\nout = F.vmap(lambda r: ((r * x).sum().backward(), r)[1])(x23)',
    'backward_inside_vmap_unbatched': 'x = x3.clone().requires_grad_()\nout = F.vmap(lambda r: ((x * x).sum().backward(), r)[1])(x23)',
    'backward_inside_grad': 'out = F.grad(lambda a: ((a * a).sum().backward(), a.sum())[1])(x3)',
    'backward_inside_jvp': 'x = x3.clone().requires_grad_()\nout = F.jvp(lambda a: ((x * x).sum().backward(), a.sum())[1], (x3,), (y3,))',
    'backward_inside_vjp': 'x = x3.clone().requires_grad_()\nout = F.vjp(lambda a: ((x * x).sum().backward(), a.sum())[1], x3)',
    'autograd_backward_inside_vmap': 'x = x3.clone().requires_grad_()\nout = F.vmap(lambda r: (T.autograd.backward((x * x).sum()), r)[1])(x23)',
    'backward_with_gradient_inside_grad': 'out = F.grad(lambda a: ((a * a).backward(ones3), a.sum())[1])(x3)',
    # --- rearrange ------------------------------------------------------------------------------------
    'rearrange_split_merge': "out = F.rearrange(x23.reshape(2, 3, 1).expand(2, 3, 4) * T.arange(4.0, dtype=f64), 'a b (c d) -> d (a c) b', c=2)",
    'rearrange_list': "out = F.rearrange([x23, y3.expand(2, 3)], 'n a b -> a (n b)')",
    'rearrange_ellipsis': "out = F.rearrange(x23.reshape(2, 3, 1), 'a ... -> ... a')",
    'rearrange_ellipsis_group': "out = F.rearrange(x23.reshape(1, 2, 3), 'a ... -> a (...)')",
    'rearrange_unit_axes': "out = F.rearrange(x23, 'a b -> a 1 b ()')",
    'rearrange_left_unnamed_axis_summed': "out = F.rearrange(x23.reshape(2, 3, 1), 'a 1 c -> a c')",
    'rearrange_left_unnamed_axis_longer': "out = F.rearrange(x23.reshape(2, 1, 3), 'a b 1 -> a b')",
    'rearrange_zero_dim': "out = F.rearrange(s, ' -> ')",
    'rearrange_gradient': "x = x23.clone().requires_grad_()\ny = F.rearrange(x, 'a (b c) -> c (b a)', b=1)\nout = (y, T.autograd.grad((y * y.detach().cos()).sum(), x))",
    'rearrange_under_vmap': "out = F.vmap(lambda r: F.rearrange(r, 'a b -> b a'))(x23.reshape(1, 2, 3).expand(2, 2, 3))",
    'rearrange_bad_split': "out = F.rearrange(T.zeros(2, 3, 4), 'a b (c d) -> a b c d', c=3)",
    'rearrange_two_unknown': "out = F.rearrange(T.zeros(2, 3, 4), 'a b (c d) -> a b c d')",
    'rearrange_ndim': "out = F.rearrange(T.zeros(2, 3, 4), 'a b -> b a')",
    'rearrange_ellipsis_ndim': "out = F.rearrange(T.zeros(2, 3), 'a b c ... -> a b c ...')",
    'rearrange_right_only': "out = F.rearrange(T.zeros(2, 3, 4), 'a b c -> a b c d')",
    'rearrange_length_not_found': "out = F.rearrange(T.zeros(2, 3, 4), 'a b c -> a b c', d=2)",
    'rearrange_length_float': "out = F.rearrange(T.zeros(2, 3, 4), 'a b (c d) -> a b c d', c=2.0)",
    'rearrange_numbered_axis': "out = F.rearrange(T.zeros(2, 3, 4), 'a b c -> a b c 2')",
    'rearrange_duplicate': "out = F.rearrange(T.zeros(2, 3, 4), 'a a c -> a c')",
    'rearrange_no_arrow': "out = F.rearrange(T.zeros(2, 3, 4), 'a b c')",
    'rearrange_size_mismatch': "out = F.rearrange(T.zeros(2, 3, 4), 'a b c -> a b c', a=3)",
    'rearrange_underscore': "out = F.rearrange(T.zeros(2, 3, 4), '_a b c -> b c _a')",
    'rearrange_bad_character': "out = F.rearrange(T.zeros(2, 3, 4), 'a b c -> a-b c')",
    'rearrange_nested_group': "out = F.rearrange(T.zeros(2, 3, 4), 'a b c -> ((a b) c)')",
    'rearrange_unbalanced': "out = F.rearrange(T.zeros(2, 3, 4), 'a b c -> (a b c')",
    'rearrange_closing_bracket': "out = F.rearrange(T.zeros(2, 3, 4), 'a b c -> a b c)')",
    'rearrange_ellipsis_right_only': "out = F.rearrange(T.zeros(2, 3, 4), 'a b c -> a b c ...')",
    'rearrange_ellipsis_grouped_left': "out = F.rearrange(T.zeros(2, 3, 4), 'a (b ...) -> a b ...')",
    'rearrange_two_ellipses': "out = F.rearrange(T.zeros(2, 3, 4), 'a ... ... -> a')",
    'rearrange_lone_dot': "out = F.rearrange(T.zeros(2, 3, 4), 'a.b c d -> a c d')",
}


# Transforms composed in chains of one to three over small functions (pointwise, reductions, in-place
# changes of intermediates and of their views, autograd.Functions), the chain under an outer vmap: each
# wrapper turns a function of a vector into another. Chains where torch itself fails are left out.
_BODIES = {
    'addcmul_like': 'a + 0.5 * a * a.sigmoid() / (1 + a.abs())',
    'cat_split': 'T.cat([p * (i + 1) for i, p in enumerate(a.split([1, 2]))]).sin()',
    'clamp_max': 'T.maximum(a.clamp(0.6, 1.8), a * 0.7) + T.atan2(a, a + 1)',
    'copy_slice': '(lambda b: (b[::2].copy_(a[:2] ** 3), b)[1])(a * 1)',
    'cumsum': 'a.cumsum(0) * a.sigmoid()',
    'exp_sum_bcast': 'a.exp() / (1 + a * a).sum()',
    'expand_sum': 'a.unsqueeze(0).expand(4, 3).mul(T.arange(4.0, dtype=a.dtype)[:, None]).sum(0)',
    'func_mulsum': 'MulSum.apply(a, a.cos())[1] * MulSum.apply(a, a)[0]',
    'func_sin': 'SinGen.apply(a) * a',
    'gather_scatter': 'a.gather(0, T.tensor([2, 0, 1])) * a + T.zeros(3, dtype=a.dtype).scatter(0, T.tensor([1, 2, 0]), a ** 2)',
    'index_cat': 'T.cat([a[:1] * 3, a[1:].sqrt()]) * a.flip(0)',
    'index_select_add': '(lambda b: b.index_add_(0, T.tensor([0, 2]), a[:2] * a[1:]))(a.clone())',
    'inplace_mid': 'a.clone().mul_(a).add_(1).log()',
    'layer_norm': 'T.nn.functional.layer_norm(a.reshape(1, 3) * a, (3,)).reshape(3) * a',
    'lerp_pow': 'T.lerp(a, a ** 2, 0.3) + a.pow(a)',
    'linear_fc': 'T.nn.functional.linear(a, w32.T * 1.0, y3[:2])[:, None].expand(2, 3).sum(0) * a',
    'log_softmax': 'T.log_softmax(a * 2, 0) + a.tanh()',
    'masked_fill_': '(lambda b: b.masked_fill_(a > 0.9, 0.0))(a.exp())',
    'matmul': '(a.reshape(-1, 1) @ a.reshape(1, -1)).tanh().sum(0)',
    'max_amax': 'a * a.amax() - a.max() / (a.abs() + 1)',
    'norm': 'a / a.norm()',
    'pow_div': '(a ** 3) / (a.exp() + 2)',
    'repeat_expand': 'a.repeat(2).reshape(2, 3).prod(0) + a.expand(2, 3).mean(0)',
    'roll_flip_tril': '(a.roll(1) * a.flip(0)) + T.tril(a[:, None] * a[None, :]).sum(0)',
    'setitem': '(lambda b: (b.__setitem__(slice(0, 2), a[1:] ** 2), b)[1])(a.clone())',
    'sin_mul': 'a.sin() * a',
    'softmax': 'a.softmax(-1) * a',
    'sort_topk': 'a.sort().values * a + a.topk(2).values.sum()',
    'stack_unbind': 'T.stack([u * (i + 1) for i, u in enumerate(a.unbind(0))]).exp()',
    'transpose_inplace': '(lambda b: (b.t_().mul_(a.reshape(1, 3)), b.reshape(-1)[:3])[1])(a.reshape(3, 1).clone())',
    'view_chain': '(lambda b: (b.view(3, 1).t()[0, :2].add_(a[:2]), b)[1])(a.exp())',
    'view_inplace': '(lambda b: (b[1:].mul_(2), b)[1])(a * 1).cos()',
    'where_abs': 'T.where(a > 0.8, a ** 2, a.abs() + 1)',
}
_WRAPPERS = {
    'af_jacobian': 'lambda f: (lambda a: AF.jacobian(f, a, create_graph=True).sum(-1))',
    'grad_and_value': 'lambda f: (lambda a: (lambda gv: gv[0] * gv[1])(F.grad_and_value(lambda b: f(b).sum())(a)))',
    'grad_of_sum': 'lambda f: (lambda a: F.grad(lambda b: f(b).sum())(a))',
    'hessian_diag': 'lambda f: (lambda a: F.hessian(lambda b: f(b).sum())(a).sum(0))',
    'hessian_rowsum': 'lambda f: (lambda a: F.hessian(lambda b: f(b).sum())(a).sum(0))',
    'jacfwd_rowsum': 'lambda f: (lambda a: F.jacfwd(f)(a).sum(-1))',
    'jacrev_chunk': 'lambda f: (lambda a: F.jacrev(f, chunk_size=2)(a).sum(0))',
    'jacrev_diag': 'lambda f: (lambda a: F.jacrev(f)(a).diagonal(0, -2, -1) if F.jacrev(f)(a).dim() == 2 else F.jacrev(f)(a).sum(-1))',
    'jacrev_rowsum': 'lambda f: (lambda a: F.jacrev(f)(a).sum(-1))',
    'jvp_aux': 'lambda f: (lambda a: (lambda r: r[1] + r[2])(F.jvp(lambda b: (f(b), b.sin()), (a,), (a,), has_aux=True)))',
    'jvp_tan': 'lambda f: (lambda a: F.jvp(f, (a,), (a.cos(),))[1])',
    'vjp_ct': 'lambda f: (lambda a: F.vjp(f, a)[1](a.sin())[0])',
    'vmap_chunk': 'lambda f: (lambda a: F.vmap(f, chunk_size=1)(T.stack([a, a * 2]))[1])',
    'vmap_in1': 'lambda f: (lambda a: F.vmap(f, in_dims=1)(T.stack([a, a * 3], 1))[1])',
    'vmap_outdim': 'lambda f: (lambda a: F.vmap(f, out_dims=1)(T.stack([a, a.cos()]))[:, 1])',
    'vmap_rows': 'lambda f: (lambda a: F.vmap(f)(a.reshape(1, -1)).reshape(-1))',
    'functionalize': 'lambda f: F.functionalize(f)',
    'functionalize_views': 'lambda f: F.functionalize(f, remove="mutations_and_views")',
}
_CHAINS = (
    ('sin_mul', 'vmap_chunk'), ('sin_mul', 'jacrev_diag'), ('sin_mul', 'vjp_ct+hessian_diag'),
    ('sin_mul', 'vmap_rows+jvp_tan+hessian_diag'), ('sin_mul', 'grad_of_sum+vjp_ct+grad_of_sum'),
    ('sin_mul', 'jacfwd_rowsum+vjp_ct+hessian_diag'), ('exp_sum_bcast', 'grad_of_sum'), ('exp_sum_bcast', 'vjp_ct'),
    ('exp_sum_bcast', 'jacfwd_rowsum'), ('exp_sum_bcast', 'jacfwd_rowsum+vmap_rows'),
    ('exp_sum_bcast', 'vmap_chunk+vmap_rows+jvp_tan'), ('exp_sum_bcast', 'hessian_diag+vjp_ct+jacrev_diag'),
    ('matmul', 'hessian_diag'), ('matmul', 'jacrev_diag'), ('matmul', 'jacfwd_rowsum'),
    ('matmul', 'vmap_chunk+jacrev_diag'), ('matmul', 'jvp_tan+vmap_rows'),
    ('matmul', 'jacfwd_rowsum+jvp_tan+jvp_tan'), ('matmul', 'jvp_tan+grad_of_sum+hessian_diag'),
    ('inplace_mid', 'vmap_rows'), ('inplace_mid', 'hessian_diag'), ('inplace_mid', 'jacfwd_rowsum+vjp_ct'),
    ('inplace_mid', 'hessian_diag+vjp_ct'), ('inplace_mid', 'jacfwd_rowsum+hessian_diag'),
    ('inplace_mid', 'vmap_rows+hessian_diag+jvp_tan'), ('inplace_mid', 'jacfwd_rowsum+vmap_chunk+vmap_rows'),
    ('view_inplace', 'jvp_tan'), ('view_inplace', 'vjp_ct'), ('view_inplace', 'grad_of_sum'),
    ('view_inplace', 'jvp_tan+grad_of_sum'), ('view_inplace', 'jacrev_diag+vjp_ct'),
    ('view_inplace', 'jacfwd_rowsum+grad_of_sum+grad_of_sum'), ('view_inplace', 'vmap_chunk+hessian_diag+vjp_ct'),
    ('index_cat', 'hessian_diag'), ('index_cat', 'jvp_tan'), ('index_cat', 'vmap_chunk+vjp_ct'),
    ('index_cat', 'vmap_rows+jacfwd_rowsum'), ('index_cat', 'vmap_rows+jvp_tan+jvp_tan'),
    ('index_cat', 'jacrev_diag+vjp_ct+jacfwd_rowsum'), ('where_abs', 'jvp_tan'), ('where_abs', 'vmap_rows'),
    ('where_abs', 'grad_of_sum'), ('where_abs', 'vmap_rows+vmap_chunk'), ('where_abs', 'jacrev_diag+jacfwd_rowsum'),
    ('where_abs', 'grad_of_sum+jvp_tan'), ('where_abs', 'jacrev_diag+hessian_diag+jacfwd_rowsum'),
    ('where_abs', 'jacrev_diag+jacfwd_rowsum+jvp_tan'), ('where_abs', 'jacfwd_rowsum+vmap_chunk+jacfwd_rowsum'),
    ('softmax', 'vmap_rows'), ('softmax', 'jacfwd_rowsum'), ('softmax', 'jacrev_diag'),
    ('softmax', 'jacrev_diag+jvp_tan'), ('softmax', 'grad_of_sum+jacfwd_rowsum'),
    ('softmax', 'jacrev_diag+jacrev_diag+hessian_diag'), ('softmax', 'vmap_chunk+jacfwd_rowsum+vjp_ct'),
    ('softmax', 'jacfwd_rowsum+jvp_tan+jacfwd_rowsum'), ('cumsum', 'vjp_ct'), ('cumsum', 'vmap_rows'),
    ('cumsum', 'vmap_chunk'), ('cumsum', 'grad_of_sum+jacrev_diag'), ('cumsum', 'jacrev_diag+jacfwd_rowsum'),
    ('cumsum', 'vmap_chunk+jvp_tan+vjp_ct'), ('cumsum', 'jvp_tan+jacrev_diag+grad_of_sum'), ('norm', 'grad_of_sum'),
    ('norm', 'vmap_rows'), ('norm', 'hessian_diag'), ('norm', 'vjp_ct+jacfwd_rowsum'),
    ('norm', 'vmap_rows+vmap_chunk+vjp_ct'), ('sin_mul', 'jvp_tan'), ('sin_mul', 'jacfwd_rowsum+jvp_aux'),
    ('sin_mul', 'vmap_outdim+jacrev_rowsum'), ('sin_mul', 'jacrev_chunk+vmap_rows+jacrev_chunk'),
    ('sin_mul', 'jvp_tan+vmap_in1+jacrev_rowsum'), ('inplace_mid', 'grad_of_sum+jacrev_rowsum'),
    ('inplace_mid', 'jacrev_chunk+jvp_aux'), ('inplace_mid', 'jvp_aux+jacrev_chunk+grad_of_sum'),
    ('inplace_mid', 'jacrev_chunk+vmap_rows+jvp_aux'), ('view_inplace', 'jacrev_rowsum'),
    ('view_inplace', 'vmap_in1+jacrev_chunk'), ('view_inplace', 'grad_of_sum+vmap_outdim'),
    ('view_inplace', 'vmap_outdim+vmap_in1+jacrev_rowsum'), ('view_inplace', 'vmap_in1+vmap_in1+jvp_aux'),
    ('view_chain', 'vmap_rows+jacfwd_rowsum'), ('setitem', 'grad_and_value'), ('setitem', 'vmap_rows+vmap_outdim'),
    ('setitem', 'jacfwd_rowsum+jacrev_chunk'), ('setitem', 'vmap_in1+vmap_in1+vmap_outdim'),
    ('setitem', 'grad_of_sum+jvp_tan+jacrev_chunk'), ('expand_sum', 'vmap_rows'),
    ('expand_sum', 'hessian_rowsum+jacrev_chunk'), ('expand_sum', 'vmap_in1+jacrev_rowsum'),
    ('expand_sum', 'vmap_in1+grad_of_sum+vjp_ct'), ('expand_sum', 'vmap_outdim+vmap_rows+jvp_aux'),
    ('func_sin', 'jvp_tan+vjp_ct'), ('func_sin', 'vmap_in1+vjp_ct'),
    ('func_sin', 'jvp_tan+grad_and_value+grad_of_sum'), ('func_mulsum', 'grad_of_sum+jacrev_chunk'),
    ('func_mulsum', 'vmap_in1+grad_and_value'), ('stack_unbind', 'vmap_in1'),
    ('stack_unbind', 'jacrev_chunk+jacrev_chunk'), ('stack_unbind', 'vmap_rows+jvp_aux'),
    ('stack_unbind', 'jacfwd_rowsum+vjp_ct+jvp_aux'), ('transpose_inplace', 'jacrev_rowsum'),
    ('transpose_inplace', 'vmap_outdim+jacrev_chunk'), ('transpose_inplace', 'jvp_tan+hessian_rowsum+jvp_tan'),
    ('max_amax', 'vmap_in1'), ('max_amax', 'vjp_ct+vmap_in1'), ('max_amax', 'af_jacobian+vjp_ct'),
    ('max_amax', 'jacrev_chunk+jacrev_chunk+grad_and_value'), ('max_amax', 'vjp_ct+hessian_rowsum+vmap_outdim'),
    ('pow_div', 'jacrev_chunk'), ('pow_div', 'jacrev_rowsum+hessian_rowsum'),
    ('pow_div', 'hessian_rowsum+grad_and_value'), ('pow_div', 'vmap_outdim+vmap_in1+vmap_outdim'),
    ('pow_div', 'vjp_ct+grad_and_value+hessian_rowsum'), ('layer_norm', 'hessian_rowsum'),
    ('layer_norm', 'jacrev_chunk'), ('layer_norm', 'jacrev_chunk+jvp_tan'), ('log_softmax', 'grad_of_sum'),
    ('log_softmax', 'jacfwd_rowsum'), ('log_softmax', 'hessian_rowsum+vjp_ct'),
    ('log_softmax', 'grad_of_sum+jacfwd_rowsum'), ('log_softmax', 'jacrev_chunk+jacrev_rowsum+vmap_in1'),
    ('gather_scatter', 'hessian_rowsum'), ('gather_scatter', 'grad_of_sum'),
    ('gather_scatter', 'jacrev_rowsum+jacrev_chunk'), ('gather_scatter', 'jacfwd_rowsum+jacrev_rowsum'),
    ('gather_scatter', 'jacrev_rowsum+jvp_tan+jvp_tan'), ('index_select_add', 'jacrev_rowsum'),
    ('index_select_add', 'hessian_rowsum'), ('index_select_add', 'vmap_rows+hessian_rowsum'),
    ('index_select_add', 'jvp_tan+jacrev_chunk'), ('index_select_add', 'jvp_tan+vjp_ct+hessian_rowsum'),
    ('masked_fill_', 'jacfwd_rowsum'), ('clamp_max', 'jvp_tan'), ('clamp_max', 'jacrev_chunk'),
    ('clamp_max', 'vjp_ct+jacrev_rowsum'), ('clamp_max', 'jacfwd_rowsum+jacfwd_rowsum'),
    ('clamp_max', 'vmap_in1+jacfwd_rowsum+vjp_ct'), ('roll_flip_tril', 'vmap_in1'),
    ('roll_flip_tril', 'jacfwd_rowsum'), ('roll_flip_tril', 'jacrev_rowsum+jacrev_rowsum'),
    ('roll_flip_tril', 'jvp_tan+jvp_tan'), ('roll_flip_tril', 'jacrev_rowsum+hessian_rowsum+vmap_in1'),
    ('sort_topk', 'vmap_in1'), ('sort_topk', 'jacfwd_rowsum+jvp_tan'), ('sort_topk', 'vjp_ct+vmap_rows'),
    ('sort_topk', 'jacfwd_rowsum+vjp_ct+vmap_rows'), ('repeat_expand', 'jacrev_rowsum'),
    ('repeat_expand', 'vmap_in1'), ('repeat_expand', 'jacfwd_rowsum+grad_of_sum'),
    ('repeat_expand', 'jvp_tan+jacfwd_rowsum'), ('repeat_expand', 'jacrev_rowsum+jacrev_rowsum+hessian_rowsum'),
    ('lerp_pow', 'hessian_rowsum'), ('lerp_pow', 'grad_of_sum'), ('lerp_pow', 'jacrev_chunk+jvp_tan'),
    ('lerp_pow', 'jvp_tan+grad_of_sum+vmap_in1'), ('cat_split', 'vmap_in1'), ('cat_split', 'jacfwd_rowsum'),
    ('cat_split', 'vmap_in1+vmap_in1'), ('cat_split', 'jvp_tan+jacrev_rowsum'),
    ('cat_split', 'vjp_ct+vjp_ct+jacrev_rowsum'), ('copy_slice', 'jacrev_rowsum'), ('copy_slice', 'vmap_rows'),
    ('copy_slice', 'vjp_ct+vmap_in1'), ('linear_fc', 'jacrev_rowsum'), ('linear_fc', 'vmap_rows'),
    ('linear_fc', 'vmap_rows+hessian_rowsum'), ('linear_fc', 'grad_of_sum+hessian_rowsum'),
    ('linear_fc', 'grad_of_sum+vmap_in1+grad_of_sum'), ('addcmul_like', 'grad_of_sum'), ('addcmul_like', 'vjp_ct'),
    ('addcmul_like', 'jvp_tan+jvp_tan'), ('addcmul_like', 'jvp_tan+grad_of_sum'),
    ('addcmul_like', 'jacrev_chunk+jvp_tan+vmap_in1'),
)
# functionalize in the chains (bodies that write in place, and a few that do not)
_CHAINS += (
    ('inplace_mid', 'functionalize'), ('inplace_mid', 'functionalize_views'),
    ('inplace_mid', 'functionalize+grad_of_sum'), ('inplace_mid', 'grad_of_sum+functionalize'),
    ('inplace_mid', 'functionalize+jacrev_rowsum'), ('inplace_mid', 'functionalize_views+jacfwd_rowsum'),
    ('inplace_mid', 'functionalize+hessian_diag'), ('inplace_mid', 'functionalize_views+vjp_ct'),
    ('inplace_mid', 'jvp_tan+functionalize'), ('inplace_mid', 'functionalize+vmap_rows'),
    ('inplace_mid', 'vmap_in1+functionalize_views'), ('inplace_mid', 'functionalize+jvp_tan+grad_of_sum'),
    ('inplace_mid', 'jacrev_rowsum+functionalize_views'), ('inplace_mid', 'functionalize+vmap_chunk+jacfwd_rowsum'),
    ('view_chain', 'functionalize'), ('view_chain', 'functionalize_views'),
    ('view_chain', 'functionalize+grad_of_sum'), ('view_chain', 'functionalize+jacrev_rowsum'),
    ('view_chain', 'functionalize_views+jacfwd_rowsum'), ('view_chain', 'functionalize+hessian_diag'),
    ('view_chain', 'functionalize_views+vjp_ct'), ('view_chain', 'jvp_tan+functionalize'),
    ('view_chain', 'functionalize+vmap_rows'), ('view_chain', 'vmap_in1+functionalize_views'),
    ('view_chain', 'functionalize+jvp_tan+grad_of_sum'), ('view_chain', 'functionalize+vmap_chunk+jacfwd_rowsum'),
    ('setitem', 'functionalize'), ('setitem', 'functionalize_views'), ('setitem', 'jvp_tan+functionalize'),
    ('setitem', 'functionalize+vmap_rows'), ('setitem', 'vmap_in1+functionalize_views'),
    ('index_select_add', 'functionalize'), ('index_select_add', 'functionalize_views'),
    ('index_select_add', 'functionalize+grad_of_sum'), ('index_select_add', 'grad_of_sum+functionalize'),
    ('index_select_add', 'functionalize+jacrev_rowsum'), ('index_select_add', 'functionalize_views+jacfwd_rowsum'),
    ('index_select_add', 'functionalize+hessian_diag'), ('index_select_add', 'functionalize_views+vjp_ct'),
    ('index_select_add', 'jvp_tan+functionalize'), ('index_select_add', 'functionalize+vmap_rows'),
    ('index_select_add', 'vmap_in1+functionalize_views'), ('index_select_add', 'functionalize+jvp_tan+grad_of_sum'),
    ('index_select_add', 'jacrev_rowsum+functionalize_views'),
    ('index_select_add', 'functionalize+vmap_chunk+jacfwd_rowsum'), ('masked_fill_', 'functionalize'),
    ('masked_fill_', 'functionalize_views'), ('masked_fill_', 'functionalize+grad_of_sum'),
    ('masked_fill_', 'functionalize+jacrev_rowsum'), ('masked_fill_', 'functionalize_views+jacfwd_rowsum'),
    ('masked_fill_', 'functionalize+hessian_diag'), ('masked_fill_', 'functionalize_views+vjp_ct'),
    ('masked_fill_', 'jvp_tan+functionalize'), ('masked_fill_', 'functionalize+vmap_rows'),
    ('masked_fill_', 'vmap_in1+functionalize_views'), ('masked_fill_', 'functionalize+jvp_tan+grad_of_sum'),
    ('masked_fill_', 'functionalize+vmap_chunk+jacfwd_rowsum'), ('transpose_inplace', 'functionalize'),
    ('transpose_inplace', 'functionalize_views'), ('transpose_inplace', 'functionalize+grad_of_sum'),
    ('transpose_inplace', 'grad_of_sum+functionalize'), ('transpose_inplace', 'functionalize+jacrev_rowsum'),
    ('transpose_inplace', 'functionalize_views+jacfwd_rowsum'), ('transpose_inplace', 'functionalize+hessian_diag'),
    ('transpose_inplace', 'functionalize_views+vjp_ct'), ('transpose_inplace', 'jvp_tan+functionalize'),
    ('transpose_inplace', 'functionalize+vmap_rows'), ('transpose_inplace', 'vmap_in1+functionalize_views'),
    ('transpose_inplace', 'functionalize+jvp_tan+grad_of_sum'),
    ('transpose_inplace', 'jacrev_rowsum+functionalize_views'),
    ('transpose_inplace', 'functionalize+vmap_chunk+jacfwd_rowsum'), ('stack_unbind', 'functionalize'),
    ('stack_unbind', 'functionalize_views'), ('stack_unbind', 'functionalize+grad_of_sum'),
    ('stack_unbind', 'grad_of_sum+functionalize'), ('stack_unbind', 'functionalize+jacrev_rowsum'),
    ('stack_unbind', 'functionalize_views+jacfwd_rowsum'), ('stack_unbind', 'functionalize+hessian_diag'),
    ('stack_unbind', 'functionalize_views+vjp_ct'), ('stack_unbind', 'jvp_tan+functionalize'),
    ('stack_unbind', 'functionalize+vmap_rows'), ('stack_unbind', 'vmap_in1+functionalize_views'),
    ('stack_unbind', 'functionalize+jvp_tan+grad_of_sum'), ('stack_unbind', 'jacrev_rowsum+functionalize_views'),
    ('stack_unbind', 'functionalize+vmap_chunk+jacfwd_rowsum'), ('cat_split', 'functionalize'),
    ('cat_split', 'functionalize_views'), ('cat_split', 'functionalize+grad_of_sum'),
    ('cat_split', 'grad_of_sum+functionalize'), ('cat_split', 'functionalize+jacrev_rowsum'),
    ('cat_split', 'functionalize_views+jacfwd_rowsum'), ('cat_split', 'functionalize+hessian_diag'),
    ('cat_split', 'functionalize_views+vjp_ct'), ('cat_split', 'jvp_tan+functionalize'),
    ('cat_split', 'functionalize+vmap_rows'), ('cat_split', 'vmap_in1+functionalize_views'),
    ('cat_split', 'functionalize+jvp_tan+grad_of_sum'), ('cat_split', 'jacrev_rowsum+functionalize_views'),
    ('cat_split', 'functionalize+vmap_chunk+jacfwd_rowsum'), ('sin_mul', 'functionalize'),
    ('sin_mul', 'functionalize_views'), ('sin_mul', 'functionalize+grad_of_sum'),
    ('sin_mul', 'grad_of_sum+functionalize'), ('sin_mul', 'functionalize+jacrev_rowsum'),
    ('sin_mul', 'functionalize_views+jacfwd_rowsum'), ('sin_mul', 'functionalize+hessian_diag'),
    ('sin_mul', 'functionalize_views+vjp_ct'), ('sin_mul', 'jvp_tan+functionalize'),
    ('sin_mul', 'functionalize+vmap_rows'), ('sin_mul', 'vmap_in1+functionalize_views'),
    ('sin_mul', 'functionalize+jvp_tan+grad_of_sum'), ('sin_mul', 'jacrev_rowsum+functionalize_views'),
    ('sin_mul', 'functionalize+vmap_chunk+jacfwd_rowsum'),
)
for _body, _chain in _CHAINS:
    CASES[f"composed|{_body}|{_chain}"] = (f"f = lambda a: {_BODIES[_body]}\n"
                                           + "".join(f"f = ({_WRAPPERS[w]})(f)\n" for w in _chain.split("+"))
                                           + "out = F.vmap(f)(T.stack([x3, x3 * 0.5 + 0.3]))")


def run(code, T):
    """``(out, error)`` of one snippet with ``T`` bound to a library; ``error`` is (type, text)."""
    env = {"T": T}
    exec(PRELUDE, env)  # noqa: S102 -- the fixed prelude above
    try:
        exec(code, env)  # noqa: S102 -- the snippets of this table
    except Exception as e:  # noqa: BLE001 -- recorded, whatever it is
        return None, (type(e).__name__, str(e))
    return env.get("out"), None


def _pairs(values):
    """Complex numbers (nested in lists) as ``[real, imag]`` pairs."""
    if isinstance(values, list):
        return [_pairs(v) for v in values]
    return [values.real, values.imag]


def serialize(value, T):
    """``value`` as JSON data: tensors with dtype, shape, values and requires_grad; containers by kind."""
    if isinstance(value, T.Tensor):
        dtype = str(value.dtype).split(".")[-1]
        data = value.detach()
        if dtype in ("bfloat16", "float16"):
            data = data.to(T.float32)
        values = _pairs(data.tolist()) if data.is_complex() else data.tolist()
        return {"tensor": values, "dtype": dtype, "shape": list(value.shape),
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
