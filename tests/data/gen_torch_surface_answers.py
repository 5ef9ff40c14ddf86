"""Writes ``torch_surface_answers.json``: torch 2.15's answers for the top-level functions and Tensor
methods around the operators: generators and the random state, predicates, small functions and the
global switches. Each case is an expression over ``T`` (the torch module) and the names of ``TENSORS``;
the tests evaluate the same expressions with opyard (``tests/tensor/test_surface_answers.py``).

- ``VALUES``: the result is recorded exactly (Python values; tensors as dtype, shape and values);
- ``SHAPES``: random results, recorded as their type, dtype and shape only;
- both record the exception's class, its bases and the first line of its message when one is raised.

Run with a Python that has torch (the tests read only the JSON)::

    python tests/data/gen_torch_surface_answers.py
"""

import array  # noqa: F401 -- named by the expressions
import json
import math
import os
import warnings

import numpy as np  # noqa: F401 -- named by the expressions
import torch

TENSORS = {
    "X": "T.arange(6.0).reshape(2, 3)",
    "I": "T.tensor([1, 2, 3])",
    "B": "T.tensor([True, False])",
    "Z": "T.tensor([1 + 2j, 3j])",
    "G": "T.Generator().manual_seed(7)",
    "S": "T.Generator().get_state()",
}

VALUES = [
    # Generator
    "T.Generator().initial_seed()",
    "T.Generator().manual_seed(3).initial_seed()",
    "T.Generator().manual_seed(-1).initial_seed()",
    "T.Generator().manual_seed(-2**63).initial_seed()",
    "T.Generator().manual_seed(2**64 - 1).initial_seed()",
    "T.Generator().manual_seed(2**64)",
    "T.Generator().manual_seed(-2**63 - 1)",
    "T.Generator().manual_seed(1.5)",
    "T.Generator().manual_seed('3')",
    "T.Generator().manual_seed(True)",
    "T.Generator().manual_seed(None)",
    "T.Generator().device",
    "T.Generator('cpu').device",
    "T.Generator(device='meta')",
    "isinstance(G.manual_seed(1), T.Generator)",
    "G.get_state().dtype",
    "G.get_state().dim()",
    "G.get_state().requires_grad",
    "G.set_state(G.get_state()) is G",
    "G.set_state(T.zeros(3, dtype=T.uint8))",
    "G.set_state(T.zeros(3))",
    "G.set_state([1, 2])",
    "G.set_state(None)",
    "type(G.seed()) is int",
    "isinstance(T.default_generator, T.Generator)",
    "T.manual_seed(5) is T.default_generator",
    "(T.manual_seed(5), T.initial_seed())[1]",
    "(T.manual_seed(1.7), T.initial_seed())[1]",
    "(T.manual_seed('12'), T.initial_seed())[1]",
    "T.manual_seed('x')",
    "T.manual_seed(None)",
    "T.set_rng_state(T.get_rng_state())",
    "T.set_rng_state([1])",
    "T.set_rng_state(T.zeros(2))",
    "T.get_rng_state().dtype",
    "T.random.initial_seed is not None",
    "T.random.thread_safe_generator()",
    "type(T.seed()) is int",
    # the samplers' argument checks with a generator
    "T.rand(2, generator=3)",
    "T.zeros(2).uniform_(generator='g')",
    "T.randint(0, (2,))",
    "T.randint(5, 0, (2,), generator=G)",
    "T.randint(3, 3, (2,))",
    "T.randint(-5, (2,))",
    "T.randint(0, 300, (2,), dtype=T.uint8)",
    "T.randint(3, 10, (2,), dtype=T.bool)",
    "T.randint(3, 10, (2,), dtype=T.complex64)",
    "T.rand(2, dtype=T.int64, generator=G)",
    "T.poisson(T.tensor([-1.0]))",
    "T.poisson(T.tensor([float('nan')]))",
    "T.poisson(T.tensor([1e20]))",
    "T.poisson(T.tensor([float('inf')]))",
    "T.poisson(T.zeros(3))",
    "T.poisson(I)",
    "T.poisson(B)",
    "T.poisson(Z)",
    "T.poisson(T.tensor([2], dtype=T.uint8))",
    "T.binomial(I.float(), T.tensor([1.5, -0.5, 1.0]))",
    "T.binomial(T.tensor([-5.0, 0.0]), T.tensor([0.5, 0.5]))",
    "T.binomial(T.tensor([5.0]), T.tensor([float('nan')]))",
    "T.binomial(I, T.tensor([0.5, 0.5, 0.5]))",
    "T.binomial(I.half(), T.tensor([0.5, 0.5, 0.5]).half())",
    "T.binomial(I.bfloat16(), T.tensor([0.5, 0.5, 0.5]).bfloat16())",
    "T.binomial(I.float(), T.tensor([0.5, 0.5, 0.5], dtype=T.float64))",
    "T.binomial(I.double(), T.tensor([0.5, 0.5, 0.5]))",
    "T.binomial(T.tensor([4.0]), T.tensor([0.5, 0.5]), generator=G).shape",
    "T.poisson(X.requires_grad_()).sum().backward()",
    "type(T.poisson(X.double().requires_grad_()).grad_fn).__name__",
    "T.autograd.grad(T.poisson(X.double().requires_grad_()).sum(), [X])",
    "type(T.binomial(X.requires_grad_(), T.full((2, 3), 0.5)).grad_fn).__name__",
    "T.binomial(X.requires_grad_(), T.full((2, 3), 0.5)).sum().backward()",
    # predicates and small functions
    "T.is_nonzero(T.tensor([0.]))", "T.is_nonzero(T.tensor(2))", "T.is_nonzero(T.tensor([1, 2]))",
    "T.is_nonzero(T.tensor([]))", "T.is_nonzero(T.tensor(float('nan')))", "T.is_nonzero(T.tensor(0j))",
    "T.is_nonzero(T.tensor([True]))", "T.tensor([3]).is_nonzero()",
    "T.is_same_size(X, X.t())", "T.is_same_size(X, X + 1)", "X.is_same_size(T.zeros(2, 3, dtype=T.int8))",
    "T.is_signed(T.tensor([1], dtype=T.uint8))", "T.is_signed(B)", "T.is_signed(Z)", "T.is_signed(X)",
    "T.is_signed(T.tensor([1], dtype=T.uint16))", "T.is_signed(I.to(T.int8))", "X.half().is_signed()",
    "T.is_complex(Z)", "T.is_complex(X)", "T.is_complex(3)", "T.is_conj(Z)", "T.is_neg(X)",
    "T.is_inference_mode_enabled()", "T.inference_mode()(T.is_inference_mode_enabled)()",
    "T.typename(X)", "T.typename(X.double())", "T.typename(Z)", "T.typename(3)", "T.typename(I.to(T.uint16))",
    "T.typename(X.bfloat16())", "T.typename(T.Tensor)", "T.typename('s')",
    "T.get_device(X)", "X.get_device()", "T.get_device(T.empty(1, device='meta'))",
    "T.can_cast(T.float32, T.int32)", "T.can_cast(T.int32, T.float32)", "T.can_cast(T.bool, T.uint8)",
    "T.can_cast(T.complex64, T.float64)", "T.can_cast(T.float64, T.float16)", "T.can_cast(T.int64, T.bool)",
    "T.can_cast(T.uint8, T.int8)", "T.can_cast(T.float16, T.complex64)", "T.can_cast(1, T.int32)",
    "T.can_cast(T.int32, 'float')",
    "T.range(1, 4)", "T.range(1, 4, 0.5)", "T.range(0, 1, 0.3)", "T.range(1, 4, dtype=T.int64)", "T.range(4, 1)",
    "T.range(1, 4, 0)", "T.range(4, 1, -1)", "T.range(1., 4.).dtype", "T.range(0, 10, 3, dtype=T.int32)",
    "T.range(1, 4, device='meta').shape", "T.range(0, 1, 0.1).shape", "T.range(2.5, 2.5)",
    "T.vander(I)", "T.vander(X[0], N=2)", "T.vander(I, 4, True)", "T.vander(X)", "T.vander(I, N=-1)",
    "T.vander(I, N=0)", "T.vander(B)", "T.vander(Z)", "T.vander(I.to(T.int8))", "T.vander(X[0].half())",
    "T.vander(I, N=1)", "T.vander(T.tensor([], dtype=T.float64))",
    "type(T.vander(X[0].requires_grad_()).grad_fn).__name__",
    "T.chain_matmul(X, X.t(), X)", "T.chain_matmul(X)", "T.chain_matmul()", "T.chain_matmul(X, X)",
    "T.chain_matmul(X[0], X)", "T.chain_matmul(X, X.t(), out=T.empty(2, 2))",
    "T.frobenius_norm(X, [0])", "T.frobenius_norm(X, (0, 1), True)", "T.frobenius_norm(X, [])",
    "T.frobenius_norm(X, [0, 1, 2])", "T.frobenius_norm(X, [0, 0])", "T.frobenius_norm(I, [0])",
    "T.frobenius_norm(Z, [0])", "T.frobenius_norm(X.double(), [1], True)",
    "T.nuclear_norm(X)", "T.nuclear_norm(X, keepdim=True)", "T.nuclear_norm(X, [0, 1])", "T.nuclear_norm(X[0])",
    "T.nuclear_norm(T.tensor([[1, 2], [3, 4]]))", "T.nuclear_norm(X.double().reshape(1, 2, 3), [1, 2])",
    "T.negative_(X.clone())", "X.clone().negative_()", "T.negative_(B.clone())", "Z.clone().negative_()",
    "T.slice_inverse(X[:, 1:], T.zeros(2, 3), 1, 1)", "T.slice_inverse(X[0], X, 0)",
    "T.slice_inverse(X[:, 1:], T.zeros(2, 3), 1, 1)._base is X",
    "X.clone().fill_diagonal_(9)", "T.zeros(5, 2).fill_diagonal_(1, wrap=True)", "T.zeros(7, 3).fill_diagonal_(1, True)",
    "T.zeros(7, 3).fill_diagonal_(1)", "T.zeros(2, 2, 2).fill_diagonal_(1)", "T.zeros(2, 3, 2).fill_diagonal_(1)",
    "T.zeros(3).fill_diagonal_(1)", "T.zeros(3, 3, dtype=T.int64).fill_diagonal_(1.5)",
    "T.zeros(2, 2).fill_diagonal_(1j)", "T.zeros(2, 4).fill_diagonal_(2, True)", "T.zeros(3, 3).t().fill_diagonal_(4)",
    "type(X.clone().requires_grad_().clone().fill_diagonal_(2).grad_fn).__name__",
    # Tensor methods that are no operators
    "X.is_pinned()", "X.is_sparse", "X.is_quantized", "X.is_mkldnn", "X.is_sparse_csr", "X.is_vulkan", "X.is_xla",
    "X.is_xpu", "X.is_ipu", "X.is_mps", "X.is_mtia", "X.is_maia", "X.is_distributed()", "X.name",
    "X.dim_order()", "X.t().dim_order()", "T.empty(2, 3, 4, 5).permute(0, 2, 3, 1).dim_order()",
    "T.empty(2, 3, 4, 5).permute(3, 1, 0, 2).dim_order()", "T.empty(2, 1, 4).permute(2, 0, 1).dim_order()",
    "T.empty(2, 1, 4).dim_order(ambiguity_check=True)", "X.dim_order(ambiguity_check=True)",
    "X.dim_order(ambiguity_check=3)", "T.tensor(1.0).dim_order()",
    "T.empty(2, 3, 4, 5).permute(0, 2, 3, 1).dim_order(ambiguity_check=[T.contiguous_format, T.channels_last])",
    "X.const_data_ptr() == X.data_ptr()",
    "X.new_tensor([1, 2])", "X.new_tensor([1, 2]).dtype", "X.new_tensor(X).requires_grad",
    "X.new_tensor([1], dtype=T.int8)", "I.new_tensor([1.5])", "X.new_tensor([1.0], requires_grad=True).requires_grad",
    "X.new([1, 2])", "I.new([1, 2])", "X.new(2, 3).shape", "X.new()", "X.new((2, 3))", "X.new(T.Size([2])).shape",
    "X.clone().resize(3, 2)", "X.clone().resize(7)", "X.clone().resize_as(T.zeros(3, 2))", "X.clone().resize((2, 3))",
    "type(X.clone().requires_grad_().resize(6).grad_fn).__name__",
    "X.clone().apply_(lambda v: v * 2)", "X.clone().map_(X, lambda a, b: a + b)",
    "X.clone().map2_(X, X, lambda a, b, c: a + b + c)", "X.requires_grad_().apply_(lambda v: v)",
    "I.clone().apply_(lambda v: v * 3)", "X.clone().map_(X[0], lambda a, b: a - b)",
    "T.e", "T.pi", "T.inf", "T.nan", "T.newaxis",
    # global switches (each case leaves them as it found them)
    "T.are_deterministic_algorithms_enabled()", "T.is_deterministic_algorithms_warn_only_enabled()",
    "T.get_deterministic_debug_mode()",
    "(T.use_deterministic_algorithms(True), T.are_deterministic_algorithms_enabled(), T.get_deterministic_debug_mode(), "
    "T.use_deterministic_algorithms(False))[1:3]",
    "(T.use_deterministic_algorithms(True, warn_only=True), T.is_deterministic_algorithms_warn_only_enabled(), "
    "T.get_deterministic_debug_mode(), T.use_deterministic_algorithms(False), "
    "T.is_deterministic_algorithms_warn_only_enabled())[1:]",
    "T.use_deterministic_algorithms(1)", "T.use_deterministic_algorithms('x')",
    "T.use_deterministic_algorithms(True, warn_only=1)",
    "(T.set_deterministic_debug_mode('warn'), T.get_deterministic_debug_mode(), T.are_deterministic_algorithms_enabled(), "
    "T.set_deterministic_debug_mode('error'), T.get_deterministic_debug_mode(), T.set_deterministic_debug_mode(0), "
    "T.get_deterministic_debug_mode())[1:]",
    "T.set_deterministic_debug_mode('x')", "T.set_deterministic_debug_mode(3)", "T.set_deterministic_debug_mode(1.5)",
    "(T.use_deterministic_algorithms(True), T.empty(3), T.empty(2, dtype=T.int32), T.empty(2, dtype=T.bool), "
    "T.empty_like(X), T.empty_strided((2,), (1,)), X.new_empty(2), T.empty(1, dtype=T.complex64), T.empty(0), "
    "T.use_deterministic_algorithms(False))[1:-1]",
    "T.is_warn_always_enabled()", "(T.set_warn_always(True), T.is_warn_always_enabled(), T.set_warn_always(False))[1]",
    "T.set_warn_always(1)",
    "(T.set_warn_always(True), T.nuclear_norm(X), T.nuclear_norm(X), T.set_warn_always(False))[1:3]",
    "T.get_float32_matmul_precision()",
    "(T.set_float32_matmul_precision('high'), T.get_float32_matmul_precision(), T.set_float32_matmul_precision('x'), "
    "T.get_float32_matmul_precision(), T.set_float32_matmul_precision('highest'))[1:4]",
    "T.init_num_threads()", "T.set_flush_denormal(1)", "(T.set_flush_denormal(True), T.set_flush_denormal(False))[0]", "T.set_num_interop_threads(0)", "T.set_num_interop_threads(1.5)",
    "type(T.get_num_interop_threads()) is int",
    "T.get_default_device()",
    "(T.set_default_device('meta'), T.get_default_device(), T.zeros(2).device, T.tensor([1]).device, T.rand(2).device, "
    "T.arange(3).device, T.full((2,), 1.0).device, T.eye(2).device, T.empty(2).device, T.randint(3, (2,)).device, "
    "T.randperm(3).device, T.hann_window(4).device, T.linspace(0, 1, 3).device, T.zeros_like(X).device, "
    "(X + 1).device, T.set_default_device(None), T.get_default_device())[1:]",
    "(T.set_default_device('cpu'), T.get_default_device(), T.set_default_device(None))[1]",
    # asarray and frombuffer
    "T.asarray(X) is X", "T.asarray(X, dtype=T.float64)", "T.asarray(X, copy=True) is X", "T.asarray(X, copy=False) is X",
    "T.asarray(X, dtype=T.float64, copy=False)", "T.asarray(X, requires_grad=True).requires_grad",
    "T.asarray(X, requires_grad=True) is X", "T.asarray(X.requires_grad_(), requires_grad=False).requires_grad",
    "T.asarray(X, device='meta')", "T.asarray(X, dtype=T.int32, copy=True)",
    "T.asarray(np.arange(3))", "T.asarray(np.arange(3.))", "T.asarray(np.float32(2.5))", "T.asarray(np.arange(3), copy=False)",
    "(lambda a: (T.asarray(a).__setitem__(0, 9), int(a[0]))[1])(np.arange(3))",
    "(lambda a: (T.asarray(a, copy=True).__setitem__(0, 9), int(a[0]))[1])(np.arange(3))",
    "(lambda a: (T.asarray(a, dtype=T.float32).__setitem__(0, 9), int(a[0]))[1])(np.arange(3))",
    "T.asarray(np.arange(3), dtype=T.float32, copy=False)",
    "T.asarray([1, 2])", "T.asarray([1., 2])", "T.asarray([[1, 2], [3]])", "T.asarray(3)", "T.asarray(3.5)",
    "T.asarray(True)", "T.asarray(1j)", "T.asarray([1, 2], copy=False)", "T.asarray([1, 2], dtype=T.float16)",
    "T.asarray((1, 2), device='meta')", "T.asarray(bytearray(b'\\x01\\x02'))",
    "T.asarray(bytearray(b'\\x01\\x02\\x03\\x04'), dtype=T.int16)", "T.asarray(array.array('f', [1, 2]))",
    "(lambda b: (T.asarray(b).__setitem__(0, 9), b[0])[1])(bytearray(2))",
    "T.asarray('abc')", "T.asarray(None)", "T.asarray(object())", "T.asarray(np.arange(3)[::2])",
    "T.asarray(np.arange(3)[::-1])", "T.asarray(np.array([1, 2], dtype='>i4'))",
    "T.frombuffer(bytearray(b'\\x01\\x02\\x03\\x04'), dtype=T.int16)", "T.frombuffer(bytearray(8), dtype=T.float32)",
    "T.frombuffer(bytearray(8), dtype=T.float32, count=1, offset=4)", "T.frombuffer(bytearray(7), dtype=T.float32)",
    "T.frombuffer(bytearray(8), dtype=T.float32, count=3)", "T.frombuffer(bytearray(0), dtype=T.float32)",
    "T.frombuffer(bytearray(8), dtype=T.float32, offset=9)", "T.frombuffer(bytearray(8), dtype=T.float32, count=0)",
    "T.frombuffer(bytearray(8), dtype=T.float32, count=-1)", "T.frombuffer([1, 2], dtype=T.float32)",
    "T.frombuffer(bytearray(8), dtype=T.float32, requires_grad=True).requires_grad",
    "(lambda b: (T.frombuffer(b, dtype=T.uint8).__setitem__(0, 9), b[0])[1])(bytearray(2))",
    "T.frombuffer(bytearray(8))", "T.frombuffer(bytearray(8), dtype=T.float32, offset=-1)",
    "T.frombuffer(array.array('h', [1, 2]), dtype=T.uint8)",
]

SHAPES = [
    "T.rand(2, 3, generator=G)",
    "T.rand((4,), generator=G, dtype=T.float64)",
    "T.randn(2, generator=G)",
    "T.randn(2, 3, generator=G, dtype=T.complex64)",
    "T.randint(5, (2, 3), generator=G)",
    "T.randint(3, 10, (2,), generator=G, dtype=T.float32)",
    "T.randint(-3, 10, (4,))",
    "T.randint(3, 10, (2,), dtype=T.int8)",
    "T.randperm(5, generator=G)",
    "T.randperm(5, generator=G, dtype=T.float32)",
    "T.rand_like(X, generator=G)",
    "T.randn_like(X, generator=G, dtype=T.float64)",
    "T.randint_like(X, 5, generator=G)",
    "T.randint_like(X, 2, 5, generator=G)",
    "T.randint_like(X, T.tensor(5), generator=G)",
    "T.normal(0.0, 1.0, (2,), generator=G)",
    "T.normal(X, 1.0, generator=G)",
    "T.normal(X, X + 1, generator=G)",
    "T.normal(1.0, X + 1, generator=G)",
    "T.bernoulli(X / 6, generator=G)",
    "T.bernoulli(X, 0.3, generator=G)",
    "T.multinomial(X + 1, 2, generator=G)",
    "T.multinomial(X + 1, 4, True, generator=G)",
    "X.clone().uniform_(generator=G)",
    "X.clone().normal_(generator=G)",
    "X.clone().exponential_(generator=G)",
    "X.clone().geometric_(0.5, generator=G)",
    "X.clone().cauchy_(generator=G)",
    "X.clone().log_normal_(generator=G)",
    "X.clone().random_(generator=G)",
    "X.clone().random_(3, generator=G)",
    "X.clone().random_(1, 3, generator=G)",
    "X.clone().bernoulli_(0.5, generator=G)",
    "X.clone().bernoulli_(X / 6, generator=G)",
    "T.poisson(X, G)",
    "T.poisson(X.double(), generator=G)",
    "T.poisson(X.half())",
    "T.poisson(X.bfloat16())",
    "T.poisson(T.tensor(3.0))",
    "T.binomial(X, X / 6, G)",
    "T.binomial(X.double(), X.double() / 6)",
    "T.binomial(T.tensor([[5.0], [3.0]]), T.tensor([0.5, 0.1]))",
    "T.nn.functional.rrelu(X - 3, training=True)",
    "T.get_rng_state()",
    "G.get_state()",
]


def tensors(T, table=TENSORS):
    env = {"T": T, "np": np, "array": array}
    for name, expr in table.items():
        env[name] = eval(expr, env)  # noqa: S307 -- the table above
    return env


def describe(value, exact):
    """A JSON-able account of ``value``: Python values as they are, tensors as dtype/shape(/values),
    anything else as its type's name."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, (tuple, list)):
        return [describe(v, exact) for v in value]
    kind = type(value).__name__
    if kind == "Tensor":
        d = {"tensor": str(value.dtype).split(".")[-1], "shape": list(value.shape)}
        if exact:
            v = value.detach()
            d["values"] = [repr(x) for x in (v.resolve_conj().reshape(-1).tolist())]
        return d
    if kind in ("dtype", "device", "Size"):
        return {kind: str(value).replace("torch.", "")}
    return {"type": kind}


def record(expr, exact):
    env = tensors(torch)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = eval(expr, env)  # noqa: S307 -- the expressions above
        case = {"expr": expr, "value": describe(value, exact)}
        if caught:
            case["warns"] = [c.category.__name__ for c in caught]
        return case
    except Exception as e:  # noqa: BLE001 -- recorded, whatever it is
        return {"expr": expr, "error": [type(e).__name__, [c.__name__ for c in type(e).__mro__],
                                        str(e).split("\n")[0]]}


def main():
    cases = [record(e, True) for e in VALUES] + [dict(record(e, False), shape_only=True) for e in SHAPES]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_surface_answers.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"torch": torch.__version__, "tensors": TENSORS, "cases": cases}, f, indent=1)
    print(f"wrote {path}: {len(cases)} cases")


if __name__ == "__main__":
    main()
