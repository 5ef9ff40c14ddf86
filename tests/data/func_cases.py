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
