"""Samples of every built-in operator for its Meta kernel: per overload name, ``m -> (args, kwargs)``
where ``m`` makes tensors on the device under test. ``test_meta_kernels`` runs each on CPU and Meta
and compares; ``test_coverage`` counts them in the inventory."""

import numpy as np

import opyard

A = opyard.ops.aten
f32, i64, b8, c64 = opyard.float32, opyard.int64, opyard.bool, opyard.complex64


class Maker:
    """Builds the same inputs on one device: random data on cpu, no data on meta."""

    def __init__(self, device):
        self.device = device
        self.rng = np.random.default_rng(0)

    def __call__(self, *shape, dtype=f32, positive=False):
        data = self.rng.standard_normal(shape)
        if positive:
            data = np.abs(data) + 0.5
        return opyard.tensor(data, dtype=dtype, device=self.device) if dtype is not b8 else \
            opyard.tensor(data > 0, device=self.device)

    def idx(self, values):
        return opyard.tensor(values, dtype=i64, device=self.device)


def _unit(m, *shape):
    """Values in (0, 1) (probabilities): the sigmoid of normal samples."""
    return opyard.sigmoid(m(*shape))


def _t(m):
    return m(2, 3)


# name -> m -> (args, kwargs). Factories take the device from the maker.
SAMPLES = {
    "add.Tensor": lambda m: ((m(2, 3), m(3)), {"alpha": 2}), "add.Scalar": lambda m: ((m(2, 3), 2), {}),
    "sub.Tensor": lambda m: ((m(2, 3), m(2, 1)), {}), "sub.Scalar": lambda m: ((m(2, 3), 1.5), {}),
    "rsub.Tensor": lambda m: ((m(2, 3), m(3)), {}), "rsub.Scalar": lambda m: ((m(2, 3), 1), {}),
    "mul.Tensor": lambda m: ((m(2, 3), m(2, 3, dtype=i64)), {}), "mul.Scalar": lambda m: ((m(2, 3), 3), {}),
    "div.Tensor": lambda m: ((m(2, 3, dtype=i64), m(3, positive=True, dtype=i64)), {}),
    "div.Scalar": lambda m: ((m(2, 3), 2), {}),
    "div.Tensor_mode": lambda m: ((m(2, 3), m(3, positive=True)), {"rounding_mode": "floor"}),
    "div.Scalar_mode": lambda m: ((m(2, 3), 2), {"rounding_mode": "trunc"}),
    "floor_divide": lambda m: ((m(2, 3), m(3, positive=True)), {}),
    "floor_divide.Scalar": lambda m: ((m(2, 3), 2), {}),
    "remainder.Tensor": lambda m: ((m(2, 3), m(3, positive=True)), {}),
    "remainder.Scalar": lambda m: ((m(2, 3), 2), {}),
    "remainder.Scalar_Tensor": lambda m: ((7, m(2, 3, positive=True)), {}),
    "pow.Tensor_Tensor": lambda m: ((m(2, 3, positive=True), m(3)), {}),
    "pow.Tensor_Scalar": lambda m: ((m(2, 3), 2), {}), "pow.Scalar": lambda m: ((2, m(2, 3)), {}),
    "lerp.Scalar": lambda m: ((m(2, 3), m(2, 3), 0.5), {}),
    "where.self": lambda m: ((m(2, 3, dtype=b8), m(2, 3), m(3)), {}),
    "where.ScalarOther": lambda m: ((m(2, 3, dtype=b8), m(2, 3), 0.0), {}),
    "where.ScalarSelf": lambda m: ((m(2, 3, dtype=b8), 1, m(2, 3)), {}),
    "clamp": lambda m: ((m(2, 3), -0.5, 0.5), {}), "clamp.Tensor": lambda m: ((m(2, 3), m(3)), {}),
    "clamp_min": lambda m: ((m(2, 3), 0), {}), "clamp_max": lambda m: ((m(2, 3), 0), {}),
    "isclose": lambda m: ((m(2, 3), m(2, 3)), {}), "bitwise_not": lambda m: ((m(2, 3, dtype=b8),), {}),
    "copy": lambda m: ((m(2, 3), m(3)), {}), "fill.Scalar": lambda m: ((m(2, 3), 1), {}),
    "fill.Tensor": lambda m: ((m(2, 3), m()), {}),
    "copy_": lambda m: ((m(2, 3), m(3)), {}), "fill_.Scalar": lambda m: ((m(2, 3), 1), {}),
    "fill_.Tensor": lambda m: ((m(2, 3), m()), {}), "zero_": lambda m: ((m(2, 3),), {}),
    "sum": lambda m: ((m(2, 3),), {"dtype": opyard.float64}), "sum.dim_IntList": lambda m: ((m(2, 3, 4), [0, 2], True), {}),
    "mean": lambda m: ((m(2, 3),), {}), "mean.dim": lambda m: ((m(2, 3, 4), [1]), {}),
    "prod": lambda m: ((m(2, 3, dtype=i64),), {}), "prod.dim_int": lambda m: ((m(2, 3, 4), 1, True), {}), "amax": lambda m: ((m(2, 3, 4), [0, 1]), {}),
    "amin": lambda m: ((m(2, 3, 4), [2], True), {}), "max": lambda m: ((m(2, 3),), {}), "min": lambda m: ((m(2, 3),), {}),
    "max.dim": lambda m: ((m(2, 3, 4), 1), {}), "min.dim": lambda m: ((m(2, 3, 4), -1, True), {}),
    "max.other": lambda m: ((m(2, 3), m(3)), {}), "maximum": lambda m: ((m(2, 3), m(3, dtype=i64)), {}),
    "minimum": lambda m: ((m(2, 1), m(3)), {}), "min.other": lambda m: ((m(2, 3), m(3)), {}),
    "argmax": lambda m: ((m(2, 3), 1), {}), "argmin": lambda m: ((m(2, 3),), {}),
    "var.correction": lambda m: ((m(2, 3), [1]), {"correction": 0}), "std.correction": lambda m: ((m(2, 3),), {}),
    "softmax.int": lambda m: ((m(2, 3), 1), {}), "log_softmax.int": lambda m: ((m(2, 3), 0, opyard.float64), {}),
    "_softmax": lambda m: ((m(2, 3), 1, False), {}), "_log_softmax": lambda m: ((m(2, 3), 1, False), {}),
    "cumsum": lambda m: ((m(2, 3, dtype=i64), 1), {}), "any": lambda m: ((m(2, 3, dtype=b8),), {}),
    "all": lambda m: ((m(2, 3),), {}), "any.dim": lambda m: ((m(2, 3), 1), {}), "all.dim": lambda m: ((m(2, 3), 0, True), {}),
    "all.dims": lambda m: ((m(2, 3, 4), [0, 2]), {}), "any.dims": lambda m: ((m(2, 3), None, True), {}),
    "sort": lambda m: ((m(2, 3), 1, True), {}), "topk": lambda m: ((m(2, 5), 3), {}),
    "mm": lambda m: ((m(2, 3), m(3, 4)), {}), "bmm": lambda m: ((m(5, 2, 3), m(5, 3, 4)), {}),
    "addmm": lambda m: ((m(4), m(2, 3), m(3, 4)), {"beta": 0.5}), "dot": lambda m: ((m(3), m(3)), {}),
    "outer": lambda m: ((m(3), m(4)), {}), "mv": lambda m: ((m(2, 3), m(3)), {}),
    "einsum": lambda m: (("ij,jk->ki", [m(2, 3), m(3, 4)]), {}),
    "matmul": lambda m: ((m(5, 2, 3), m(3, 4)), {}), "linear": lambda m: ((m(2, 3), m(4, 3), m(4)), {}),
    "view": lambda m: ((m(2, 3), [3, 2]), {}), "reshape": lambda m: ((m(2, 3).t(), [6]), {}),
    "t": lambda m: ((m(2, 3),), {}), "transpose.int": lambda m: ((m(2, 3, 4), 0, 2), {}),
    "permute": lambda m: ((m(2, 3, 4), [2, 0, 1]), {}), "expand": lambda m: ((m(3, 1), [2, 3, 4]), {}),
    "expand_as": lambda m: ((m(3, 1), m(3, 4)), {}), "view_as": lambda m: ((m(2, 3), m(6)), {}),
    "unsqueeze": lambda m: ((m(2, 3), 1), {}), "squeeze": lambda m: ((m(2, 1, 3, 1),), {}),
    "squeeze.dim": lambda m: ((m(2, 1, 3), 1), {}), "squeeze.dims": lambda m: ((m(1, 2, 1), [0, 2]), {}),
    "select.int": lambda m: ((m(2, 3, 4), 1, 2), {}), "slice.Tensor": lambda m: ((m(5, 3), 0, 1, 5, 2), {}),
    "narrow": lambda m: ((m(5, 3), 1, 1, 2), {}), "unbind.int": lambda m: ((m(2, 3), 1), {}),
    "diagonal": lambda m: ((m(3, 4), 1), {}), "movedim.int": lambda m: ((m(2, 3, 4), 0, -1), {}),
    "movedim.intlist": lambda m: ((m(2, 3, 4), [0, 1], [-1, 0]), {}),
    "unflatten.int": lambda m: ((m(2, 6), 1, [2, 3]), {}), "flatten.using_ints": lambda m: ((m(2, 3, 4), 1), {}),
    "alias": lambda m: ((m(2, 3),), {}), "detach": lambda m: ((m(2, 3),), {}),
    "clone": lambda m: ((m(2, 3).t(),), {}), "contiguous": lambda m: ((m(2, 3).t(),), {}),
    "cat": lambda m: (([m(2, 3), m(1, 3, dtype=i64)], 0), {}), "stack": lambda m: (([m(2, 3), m(2, 3)], 1), {}),
    "split.Tensor": lambda m: ((m(5, 2), 2), {}), "chunk": lambda m: ((m(5, 2), 2), {}),
    "flip": lambda m: ((m(2, 3), [0]), {}), "repeat": lambda m: ((m(2, 3), [2, 1, 2]), {}),
    "triu": lambda m: ((m(3, 3), 1), {}), "tril": lambda m: ((m(3, 3),), {}),
    "index.Tensor": lambda m: ((m(4, 5), [m.idx([0, 2]), None]), {}),
    "index_put": lambda m: ((m(4, 5), [m.idx([0, 2])], m(5)), {}),
    "index_put_": lambda m: ((m(4, 5), [m.idx([0, 2])], m(5)), {}),
    "index_select": lambda m: ((m(4, 5), 1, m.idx([0, 4])), {}),
    "gather": lambda m: ((m(2, 3), 1, m.idx([[0, 0], [1, 2]])), {}),
    "scatter.src": lambda m: ((m(2, 3), 1, m.idx([[0], [2]]), m(2, 1)), {}),
    "scatter.value": lambda m: ((m(2, 3), 1, m.idx([[0], [2]]), 1.0), {}),
    "scatter_.src": lambda m: ((m(2, 3), 1, m.idx([[0], [2]]), m(2, 1)), {}),
    "scatter_.value": lambda m: ((m(2, 3), 1, m.idx([[0], [2]]), 1.0), {}),
    "scatter_add": lambda m: ((m(2, 3), 1, m.idx([[0], [2]]), m(2, 1)), {}),
    "masked_fill.Scalar": lambda m: ((m(2, 3), m(2, 3, dtype=b8), 0.0), {}),
    "masked_fill.Tensor": lambda m: ((m(2, 3), m(3, dtype=b8), m()), {}),
    "masked_fill_.Scalar": lambda m: ((m(2, 3), m(2, 3, dtype=b8), 0.0), {}),
    "masked_fill_.Tensor": lambda m: ((m(2, 3), m(2, 3, dtype=b8), m()), {}),
    "_to_copy": lambda m: ((m(2, 3),), {"dtype": opyard.float64}), "numel": lambda m: ((m(2, 3),), {}),
    "uniform_": lambda m: ((m(2, 3), -1.0, 1.0), {}), "normal_": lambda m: ((m(2, 3),), {}),
    "zeros": lambda m: (([2, 3],), {"device": m.device}), "ones": lambda m: (([2],), {"dtype": i64, "device": m.device}),
    "empty.memory_format": lambda m: (([2, 3],), {"device": m.device}),
    "empty_strided": lambda m: (([2, 3], [3, 1]), {"device": m.device}),
    "full": lambda m: (([2, 3], 7), {"device": m.device}), "arange": lambda m: ((5,), {"device": m.device}),
    "arange.start": lambda m: ((1, 4.5), {"device": m.device}),
    "arange.start_step": lambda m: ((0, 10, 3), {"device": m.device}),
    "eye": lambda m: ((3,), {"device": m.device}), "eye.m": lambda m: ((2, 4), {"device": m.device}),
    "linspace": lambda m: ((0, 1, 5), {"device": m.device}), "rand": lambda m: (([2, 3],), {"device": m.device}),
    "randn": lambda m: (([2, 3],), {"device": m.device}), "randint": lambda m: ((5, [2, 3]), {"dtype": i64, "device": m.device}),
    "zeros_like": lambda m: ((m(2, 3),), {"dtype": i64}), "ones_like": lambda m: ((m(2, 3),), {}),
    "empty_like": lambda m: ((m(2, 3),), {}), "full_like": lambda m: ((m(2, 3), 2), {}),
    "rand_like": lambda m: ((m(2, 3),), {}), "randn_like": lambda m: ((m(2, 3),), {}),
    "new_empty": lambda m: ((m(2, 3), [4]), {}), "new_zeros": lambda m: ((m(2, 3), [4]), {"dtype": i64}),
    "new_ones": lambda m: ((m(2, 3), [1, 2]), {}), "new_full": lambda m: ((m(2, 3), [2], 5), {}),
    "logical_and": lambda m: ((m(2, 3, dtype=b8), m(3, dtype=b8)), {}),
    "logical_or": lambda m: ((m(2, 3), m(2, 3)), {}), "logical_xor": lambda m: ((m(2, 3), m(3)), {}),
}
UNARY_FLOAT = ["abs", "neg", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan", "tanh",
               "sqrt", "rsqrt", "sigmoid", "reciprocal", "relu", "silu", "leaky_relu", "sign", "square",
               "floor", "ceil", "round", "trunc", "isnan", "isinf", "isfinite", "logical_not"]
for _n in UNARY_FLOAT:
    SAMPLES[_n] = lambda m: ((m(2, 3, positive=True),), {})
for _n in ("abs_", "neg_", "exp_", "log_", "sin_", "cos_", "tanh_", "sqrt_", "sigmoid_", "relu_", "sign_",
           "expm1_", "clamp_"):
    SAMPLES[_n] = (lambda m: ((m(2, 3, positive=True), 0.1)), {}) if _n == "clamp_" else \
        (lambda m: ((m(2, 3, positive=True),), {}))
SAMPLES["clamp_"] = lambda m: ((m(2, 3), 0.1), {})
for _op in ("eq", "ne", "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or", "bitwise_xor"):
    _int = _op.startswith("bitwise")
    SAMPLES[f"{_op}.Tensor"] = (lambda m, i=_int: ((m(2, 3, dtype=i64 if i else f32), m(3, dtype=i64 if i else f32)), {}))
    SAMPLES[f"{_op}.Scalar"] = (lambda m, i=_int: ((m(2, 3, dtype=i64 if i else f32), 1), {}))
for _n in ("add_.Tensor", "sub_.Tensor", "mul_.Tensor", "div_.Tensor", "pow_.Tensor", "remainder_.Tensor",
           "add_.Scalar", "sub_.Scalar", "mul_.Scalar", "div_.Scalar", "pow_.Scalar", "div_.Tensor_mode",
           "div_.Scalar_mode", "remainder_.Scalar", "floor_divide_.Tensor", "floor_divide_.Scalar"):
    _scalar = ".Scalar" in _n
    SAMPLES[_n] = (lambda m, s=_scalar, n=_n: ((m(2, 3, positive=True), 2 if s else m(3, positive=True)),
                                              {"rounding_mode": "floor"} if n.endswith("mode") else {}))
for _n in ("bitwise_and_.Tensor", "bitwise_or_.Tensor", "bitwise_xor_.Tensor"):
    SAMPLES[_n] = lambda m: ((m(2, 3, dtype=i64), m(3, dtype=i64)), {})

# --- operators real extension code calls (begin) ---
SAMPLES.update({
    "view.dtype": lambda m: ((m(2, 4), opyard.uint8), {}), "as_strided": lambda m: ((m(4, 5), [2, 2], [5, 1], 1), {}),
    "split_with_sizes": lambda m: ((m(6, 2), [1, 2, 3]), {}), "split.sizes": lambda m: ((m(2, 5), [2, 3], 1), {}),
    "argsort": lambda m: ((m(2, 3), 1, True), {}), "argsort.stable": lambda m: ((m(2, 3),), {"stable": True}),
    "sort.stable": lambda m: ((m(2, 3),), {"stable": True, "dim": 0}), "kthvalue": lambda m: ((m(2, 5), 2), {}),
    "bucketize.Tensor": lambda m: ((m(2, 3), m.idx([-1, 0, 1])), {"right": True}),
    "bucketize.Scalar": lambda m: ((0.5, m.idx([-1, 0, 1])), {"out_int32": True}),
    "searchsorted.Tensor": lambda m: ((m.idx([-1, 0, 1]), m(2, 3)), {}),
    "searchsorted.Scalar": lambda m: ((m.idx([-1, 0, 1]), 0), {"side": "right"}),
    "repeat_interleave.self_int": lambda m: ((m(2, 3), 2, 1), {}),
    "gelu": lambda m: ((m(2, 3),), {"approximate": "tanh"}), "erf": lambda m: ((m(2, 3),), {}),
    "gelu_backward": lambda m: ((m(2, 3), m(3)), {"approximate": "tanh"}),
    "silu_backward": lambda m: ((m(1, 3), m(2, 3)), {}),
    "hardtanh": lambda m: ((m(2, 3), -0.5, 0.5), {}), "elu": lambda m: ((m(2, 3),), {}),
    "softplus": lambda m: ((m(2, 3), 2), {}), "constant_pad_nd": lambda m: ((m(2, 3), [1, -1, 0, 2], 1.5), {}),
    "one_hot": lambda m: ((m.idx([0, 2]), 4), {}),
    "layer_norm": lambda m: ((m(2, 3), [3], m(3), m(3)), {}), "rms_norm": lambda m: ((m(2, 3), [3], m(3)), {}),
    "dropout": lambda m: ((m(2, 3), 0.5, False), {}), "embedding": lambda m: ((m(5, 3), m.idx([[0, 4], [1, 1]])), {}),
    "pad": lambda m: ((m(2, 3), [1, 2], "reflect"), {}),
    "scaled_dot_product_attention": lambda m: ((m(2, 4, 3), m(2, 5, 3), m(2, 5, 2)), {"is_causal": True}),
    "logsumexp": lambda m: ((m(2, 3), [1]), {}), "round.decimals": lambda m: ((m(2, 3),), {"decimals": 2}),
    "cumprod": lambda m: ((m(2, 3), 1), {}), "aminmax": lambda m: ((m(2, 3),), {"dim": 1}),
    "exp2": lambda m: ((m(2, 3, dtype=i64),), {}), "count_nonzero": lambda m: ((m(2, 3), 0), {}),
    "count_nonzero.dim_IntList": lambda m: ((m(2, 3, 4), [0, -1]), {}),
    "fmod.Tensor": lambda m: ((m(2, 3), m(3, positive=True)), {}), "fmod.Scalar": lambda m: ((m(2, 3), 2), {}),
    "diff": lambda m: ((m(2, 4),), {"prepend": m(2, 1)}),
    "new_empty_strided": lambda m: ((m(2, 3), [2, 2], [1, 2]), {}),
    "bitwise_left_shift.Tensor": lambda m: ((m(2, 3, dtype=i64), m(3, dtype=i64)), {}),
    "bitwise_left_shift.Tensor_Scalar": lambda m: ((m(2, 3, dtype=i64), 2), {}),
    "bitwise_right_shift.Tensor": lambda m: ((m(2, 3, dtype=i64), m(1, dtype=i64)), {}),
    "bitwise_right_shift.Tensor_Scalar": lambda m: ((m(2, 3, dtype=i64), 1), {}),
    "index_add": lambda m: ((m(4, 3), 0, m.idx([0, 0, 2]), m(3, 3)), {"alpha": 2}),
    "index_add_": lambda m: ((m(4, 3), 1, m.idx([2, 0]), m(4, 2)), {}),
    "scatter_add_": lambda m: ((m(2, 3), 1, m.idx([[0], [2]]), m(2, 1)), {}),
    "roll": lambda m: ((m(2, 3), [1, -1], [0, 1]), {}), "nan_to_num": lambda m: ((m(2, 3),), {"nan": 0.0}),
    "isin.Tensor_Tensor": lambda m: ((m(2, 3, dtype=i64), m(4, dtype=i64)), {"invert": True}),
    "norm.Scalar": lambda m: ((m(2, 3), 3), {}), "norm.ScalarOpt_dim": lambda m: ((m(2, 3), None, [1], True), {}),
    "linalg_vector_norm": lambda m: ((m(2, 3), float("inf"), [0]), {}),
    "var.dim": lambda m: ((m(2, 3), [1], False), {}), "std.dim": lambda m: ((m(2, 3), None, True, True), {}),
    "var": lambda m: ((m(2, 3),), {}), "std": lambda m: ((m(2, 3), False), {}),
    "addcmul": lambda m: ((m(2, 3), m(3), m(2, 1)), {"value": 0.5}),
    "addcdiv": lambda m: ((m(2, 3), m(3), m(2, 1, positive=True)), {}),
    "baddbmm": lambda m: ((m(2, 2, 4), m(2, 2, 3), m(2, 3, 4)), {"beta": 0.5, "alpha": 2}),
    "tile": lambda m: ((m(2, 3), [2]), {}),
    "addcmul_": lambda m: ((m(2, 3), m(3), m(2, 1)), {"value": 0.5}),
    "addcdiv_": lambda m: ((m(2, 3), m(3), m(2, 1, positive=True)), {"value": 2}),
    "baddbmm_": lambda m: ((m(2, 2, 4), m(2, 2, 3), m(2, 3, 4)), {"beta": 0.5, "alpha": 2}),
    "addbmm": lambda m: ((m(4), m(3, 2, 5), m(3, 5, 4)), {"beta": 0.5}),
    "addbmm_": lambda m: ((m(2, 4), m(3, 2, 5), m(3, 5, 4)), {"alpha": 0.5}),
    "addmm_": lambda m: ((m(2, 4), m(2, 3), m(3, 4)), {"beta": 0}),
    "addmv": lambda m: ((m(1), m(2, 3), m(3)), {"alpha": 2}), "addmv_": lambda m: ((m(2), m(2, 3), m(3)), {}),
    "addr": lambda m: ((m(), m(2), m(3)), {"beta": 0.5}), "addr_": lambda m: ((m(2, 3), m(2), m(3)), {}),
    "scatter.reduce": lambda m: ((m(3, 4), 0, m.idx([[0, 2]]), m(1, 2)), {"reduce": "multiply"}),
    "scatter.value_reduce": lambda m: ((m(3, 4), 1, m.idx([[0], [3]]), 2.0), {"reduce": "add"}),
    "scatter_.reduce": lambda m: ((m(3, 4), 0, m.idx([[0, 2]]), m(1, 2)), {"reduce": "add"}),
    "scatter_.value_reduce": lambda m: ((m(3, 4), 1, m.idx([[0], [3]]), 2.0), {"reduce": "multiply"}),
    "round_.decimals": lambda m: ((m(2, 3),), {"decimals": 2}),
})
DATA_DEPENDENT_EXT = {
    "argwhere": lambda m: ((m(2, 3),), {}), "masked_select": lambda m: ((m(2, 3), m(3, dtype=b8)), {}),
    "repeat_interleave.Tensor": lambda m: ((m.idx([1, 2]),), {}),
    "repeat_interleave.self_Tensor": lambda m: ((m(2, 3), m.idx([1, 2])), {"dim": 0}),
}


def _out_sample(name, functional_sample):
    def sample(m):
        args, kwargs = functional_sample(m)
        dtype = opyard.bool if name.startswith(("eq.", "lt.")) else \
            i64 if name.startswith(("argmax", "argmin", "argsort")) else f32
        return args, {**kwargs, "out": opyard.empty(0, dtype=dtype, device=m.device)}
    return sample


_OUT_OF = {
    "mm.out": "mm", "bmm.out": "bmm", "addmm.out": "addmm", "matmul.out": "matmul", "add.out": "add.Tensor",
    "sub.out": "sub.Tensor", "mul.out": "sub.Tensor", "div.out": "div.Tensor_mode", "maximum.out": "max.other",
    "minimum.out": "min.other", "pow.Tensor_Scalar_out": "pow.Tensor_Scalar", "clamp.out": "clamp",
    "where.self_out": "where.self", "eq.Tensor_out": "eq.Tensor", "lt.Tensor_out": "lt.Tensor",
    "sum.IntList_out": "sum.dim_IntList", "mean.out": "mean.dim", "amax.out": "amax", "argmax.out": "argmax",
    "cumsum.out": "sum.dim_IntList", "softmax.int_out": "softmax.int", "cat.out": "stack", "stack.out": "stack",
    "addbmm.out": "addbmm", "addcdiv.out": "addcdiv", "addcmul.out": "addcmul", "addmv.out": "addmv",
    "addr.out": "addr", "baddbmm.out": "baddbmm",
}
for _name, _src in _OUT_OF.items():
    SAMPLES[_name] = _out_sample(_name, SAMPLES[_src])
SAMPLES["div.out"] = _out_sample("div.out", lambda m: ((m(2, 3), m(3, positive=True)), {}))
SAMPLES["cumsum.out"] = _out_sample("cumsum.out", lambda m: ((m(2, 3), 1), {}))
for _n in ("exp", "neg", "abs", "sqrt", "rsqrt", "sigmoid", "tanh", "floor", "round"):
    SAMPLES[f"{_n}.out"] = _out_sample(f"{_n}.out", SAMPLES[_n])
# --- operators real extension code calls (end) ---

# --- math, reductions, indexing and linear algebra with a numpy equivalent (begin) ---
def _spd(m):
    if m.device != "cpu":
        return m(3, 3)
    a = m(3, 3)
    return a @ a.mT + opyard.eye(3) * 3


SAMPLES.update({
    "atan2": lambda m: ((m(2, 3), m(3)), {}), "atan2_": lambda m: ((m(2, 3), m(3)), {}),
    "hypot": lambda m: ((m(2, 3), m(2, 1)), {}), "hypot_": lambda m: ((m(2, 3), m(3)), {}),
    "logaddexp": lambda m: ((m(2, 3), m(3)), {}),
    "logaddexp2": lambda m: ((m(2, 3), m(3)), {}),
    "copysign.Tensor": lambda m: ((m(2, 3, dtype=i64), m(3)), {}), "copysign.Scalar": lambda m: ((m(2, 3), -1), {}),
    "copysign_.Tensor": lambda m: ((m(2, 3), m(3)), {}), "copysign_.Scalar": lambda m: ((m(2, 3), -1.0), {}),
    "heaviside": lambda m: ((m(2, 3), m(3)), {}), "heaviside_": lambda m: ((m(2, 3), m(3)), {}),
    "sinc": lambda m: ((m(2, 3, dtype=i64),), {}), "sinc_": lambda m: ((m(2, 3),), {}),
    "xlogy.Tensor": lambda m: ((m(2, 3), m(3, positive=True)), {}),
    "xlogy.Scalar_Self": lambda m: ((2, m(2, 3, positive=True)), {}),
    "xlogy.Scalar_Other": lambda m: ((m(2, 3), 3), {}), "xlogy_.Tensor": lambda m: ((m(2, 3), m(3)), {}),
    "xlogy_.Scalar_Other": lambda m: ((m(2, 3), 2.0), {}),
    "frac": lambda m: ((m(2, 3),), {}), "frac_": lambda m: ((m(2, 3),), {}),
    "sgn": lambda m: ((m(2, 3, dtype=i64),), {}), "sgn_": lambda m: ((m(2, 3),), {}),
    "lerp.Tensor": lambda m: ((m(2, 3), m(3), m(2, 1)), {}), "lerp_.Scalar": lambda m: ((m(2, 3), m(3), 0.3), {}),
    "lerp_.Tensor": lambda m: ((m(2, 3), m(3), m(3)), {}),
    "clamp_min_": lambda m: ((m(2, 3), 0), {}), "clamp_max_": lambda m: ((m(2, 3), 0), {}),
    "clamp_min.Tensor": lambda m: ((m(2, 3), m(3)), {}), "clamp_max.Tensor": lambda m: ((m(2, 3), m(2, 1)), {}),
    "clamp_min_.Tensor": lambda m: ((m(2, 3), m(3)), {}), "clamp_max_.Tensor": lambda m: ((m(2, 3), m(3)), {}),
    "clamp_.Tensor": lambda m: ((m(2, 3), m(3), m(2, 1)), {}),
    "_conj_physical": lambda m: ((m(2, 3, dtype=c64),), {}), "conj_physical": lambda m: ((m(2, 3, dtype=c64),), {}),
    "conj_physical_": lambda m: ((m(2, 3, dtype=c64),), {}), "conj": lambda m: ((m(2, 3, dtype=c64),), {}),
    "real": lambda m: ((m(2, 3, dtype=c64),), {}), "imag": lambda m: ((m(2, 3, dtype=c64),), {}),
    "resolve_conj": lambda m: ((m(2, 3, dtype=c64),), {}), "resolve_neg": lambda m: ((m(2, 3),), {}),
    "view_as_real": lambda m: ((m(2, 3, dtype=c64),), {}), "view_as_complex": lambda m: ((m(3, 2),), {}),
    "angle": lambda m: ((m(2, 3, dtype=c64),), {}),
    "nan_to_num_": lambda m: ((m(2, 3),), {"posinf": 1.0}),
    "nansum": lambda m: ((m(2, 3, 4), [0, 2], True), {}), "nanmean": lambda m: ((m(2, 3), 1), {}),
    "cummax": lambda m: ((m(2, 3), 1), {}), "cummin": lambda m: ((m(2, 3, dtype=i64), 0), {}),
    "median": lambda m: ((m(2, 3),), {}), "median.dim": lambda m: ((m(2, 5), 1, True), {}),
    "mode": lambda m: ((m(2, 5, dtype=i64),), {}),
    "var_mean.correction": lambda m: ((m(2, 3), [1]), {"correction": 0}),
    "var_mean.dim": lambda m: ((m(2, 3), [0], True, True), {}), "var_mean": lambda m: ((m(2, 3),), {}),
    "std_mean.correction": lambda m: ((m(2, 3),), {}), "std_mean.dim": lambda m: ((m(2, 3), [1]), {}),
    "std_mean": lambda m: ((m(2, 3), False), {}),
    "cumprod_": lambda m: ((m(2, 3), 1), {}), "cumsum_": lambda m: ((m(2, 3), 0), {}),
    "trace": lambda m: ((m(3, 4, dtype=i64),), {}), "linalg_det": lambda m: ((m(2, 3, 3),), {}),
    "det": lambda m: ((m(3, 3),), {}), "linalg_inv": lambda m: ((m(2, 3, 3),), {}),
    "inverse": lambda m: ((m(3, 3),), {}), "linalg_solve": lambda m: ((m(3, 3), m(3, 2)), {}),
    "linalg_cholesky": lambda m: ((_spd(m),), {"upper": True}), "cholesky": lambda m: ((_spd(m),), {}),
    "linalg_qr": lambda m: ((m(4, 3),), {}), "linalg_svd": lambda m: ((m(2, 4, 3), False), {}),
    "linalg_eigh": lambda m: ((m(3, 3),), {}), "linalg_cross": lambda m: ((m(2, 3), m(1, 3)), {}),
    "cross": lambda m: ((m(3, 2), m(3, 2)), {}), "kron": lambda m: ((m(2, 3), m(2)), {}),
    "matrix_power": lambda m: ((m(3, 3), 3), {}), "linalg_matrix_power": lambda m: ((m(2, 3, 3), 2), {}),
    "index_copy": lambda m: ((m(4, 3), 0, m.idx([3, 1]), m(2, 3)), {}),
    "index_copy_": lambda m: ((m(4, 3), 1, m.idx([2]), m(4, 1)), {}),
    "index_fill.int_Scalar": lambda m: ((m(4, 3), 0, m.idx([3, 1]), 2.0), {}),
    "index_fill.int_Tensor": lambda m: ((m(4, 3), 1, m.idx([0]), m()), {}),
    "index_fill_.int_Scalar": lambda m: ((m(4, 3), 0, m.idx([3, 1]), 2.0), {}),
    "index_fill_.int_Tensor": lambda m: ((m(4, 3), 1, m.idx([0]), m()), {}),
    "scatter_reduce.two": lambda m: ((m(3, 2), 0, m.idx([[0, 1], [0, 2]]), m(2, 2), "amax"), {}),
    "scatter_reduce_.two": lambda m: ((m(3, 2), 0, m.idx([[0, 1], [0, 2]]), m(2, 2), "mean"),
                                      {"include_self": False}),
    "take": lambda m: ((m(2, 3), m.idx([[0, 5], [1, 1]])), {}),
    "take_along_dim": lambda m: ((m(2, 3), m.idx([[0], [2]]), 1), {}),
    "unfold": lambda m: ((m(2, 5), 1, 2, 2), {}),
    "tensor_split.sections": lambda m: ((m(7, 2), 3), {}),
    "tensor_split.indices": lambda m: ((m(2, 7), [1, 5], 1), {}), "detach_": lambda m: ((m(2, 3),), {}),
})
for _n in ("trunc_", "floor_", "ceil_", "round_", "reciprocal_", "rsqrt_", "square_", "log2_", "log10_", "log1p_",
           "tan_", "erf_"):
    SAMPLES[_n] = lambda m: ((m(2, 3, positive=True),), {})
_OUT_MORE = {
    "sgn.out": "sgn", "copysign.out": "copysign.Tensor", "ceil.out": "ceil", "clamp_max.out": "clamp_max",
    "clamp_min.out": "clamp_min", "clamp_min.Tensor_out": "clamp_min.Tensor",
    "clamp_max.Tensor_out": "clamp_max.Tensor", "angle.out": "angle", "cos.out": "cos", "cumprod.out": "cumprod", "frac.out": "frac",
    "index_copy.out": "index_copy", "kron.out": "kron", "nan_to_num.out": "nan_to_num", "log.out": "log",
    "logaddexp.out": "logaddexp", "logaddexp2.out": "logaddexp2", "xlogy.OutTensor": "xlogy.Tensor", "logsumexp.out": "logsumexp",
    "matrix_power.out": "matrix_power", "nanmean.out": "nanmean", "sin.out": "sin", "sinc.out": "sinc",
    "nansum.out": "nansum", "prod.int_out": "prod.dim_int", "trunc.out": "trunc", "heaviside.out": "heaviside",
    "scatter_reduce.two_out": "scatter_reduce.two", "cross.out": "cross", "triu.out": "triu", "tril.out": "tril",
    "take.out": "take", "take_along_dim.out": "take_along_dim", "index_select.out": "index_select",
    "gather.out": "gather", "sign.out": "sign", "atan2.out": "atan2", "lerp.Scalar_out": "lerp.Scalar",
    "lerp.Tensor_out": "lerp.Tensor", "hypot.out": "hypot", "linalg_cholesky.out": "linalg_cholesky",
    "linalg_cross.out": "linalg_cross", "linalg_det.out": "linalg_det", "linalg_inv.out": "linalg_inv",
    "outer.out": "outer", "linalg_solve.out": "linalg_solve",
}
for _name, _src in _OUT_MORE.items():
    SAMPLES[_name] = _out_sample(_name, SAMPLES[_src])
SAMPLES.update({
    "exp2_": lambda m: ((m(2, 3),), {}), "fmod_.Scalar": lambda m: ((m(2, 3), 1.5), {}),
    "fmod_.Tensor": lambda m: ((m(2, 3), m(3, positive=True)), {}), "tril_": lambda m: ((m(3, 3), 1), {}),
    "triu_": lambda m: ((m(3, 3),), {}),
})
_OUT_MORE2 = {
    "argmin.out": "argmin", "erf.out": "erf", "exp2.out": "exp2", "expm1.out": "expm1", "log10.out": "log10",
    "log1p.out": "log1p", "log2.out": "log2", "amin.out": "amin", "reciprocal.out": "reciprocal",
    "square.out": "square", "std.correction_out": "std.correction", "tan.out": "tan",
    "var.correction_out": "var.correction", "norm.out": "norm.ScalarOpt_dim", "scatter.src_out": "scatter.src",
    "scatter.value_out": "scatter.value", "scatter_add.out": "scatter_add", "cholesky.out": "cholesky",
    "fmod.Scalar_out": "fmod.Scalar", "fmod.Tensor_out": "fmod.Tensor", "remainder.Tensor_out": "remainder.Tensor",
    "max.out": "max.other", "min.out": "min.other", "max.unary_out": "max", "min.unary_out": "min",
    "argsort.stable_out": "argsort.stable", "inverse.out": "inverse", "linalg_vector_norm.out": "linalg_vector_norm",
    "linalg_matrix_power.out": "linalg_matrix_power",
}
for _name, _src in _OUT_MORE2.items():
    SAMPLES[_name] = _out_sample(_name, SAMPLES[_src])


def _multi_out_sample(functional_sample, names, index_names=("indices", "max_values", "min_indices")):
    def sample(m):
        args, kwargs = functional_sample(m)
        outs = {n: opyard.empty(0, dtype=i64 if n in index_names else f32, device=m.device) for n in names}
        return args, {**kwargs, **outs}
    return sample


for _name, _src, _names in (
        ("cummax.out", "cummax", ("values", "indices")), ("kthvalue.values", "kthvalue", ("values", "indices")),
        ("aminmax.out", "aminmax", ("min", "max")), ("max.dim_max", "max.dim", ("max", "max_values")),
        ("min.dim_min", "min.dim", ("min", "min_indices")), ("median.dim_values", "median.dim", ("values", "indices")),
        ("sort.values", "sort", ("values", "indices")), ("topk.values", "topk", ("values", "indices")),
        ("linalg_qr.out", "linalg_qr", ("Q", "R")), ("linalg_eigh.eigvals", "linalg_eigh", ("eigvals", "eigvecs"))):
    SAMPLES[_name] = _multi_out_sample(SAMPLES[_src], _names)
for _n in ("asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "deg2rad", "rad2deg"):
    SAMPLES[_n] = SAMPLES[_n + "_"] = lambda m: ((m(2, 3),), {})
    SAMPLES[_n + ".out"] = _out_sample(_n + ".out", SAMPLES[_n])
SAMPLES.update({
    "logit": lambda m: ((m(2, 3, dtype=i64),), {"eps": 0.1}), "logit_": lambda m: ((m(2, 3),), {}),
    "signbit": lambda m: ((m(2, 3, dtype=i64),), {}), "fmax": lambda m: ((m(2, 3), m(3, dtype=i64)), {}),
    "fmin": lambda m: ((m(2, 1), m(3)), {}), "isposinf": lambda m: ((m(2, 3),), {}),
    "isneginf": lambda m: ((m(2, 3, dtype=i64),), {}),
})
SAMPLES["logit.out"] = _out_sample("logit.out", SAMPLES["logit"])
SAMPLES["fmax.out"] = _out_sample("fmax.out", SAMPLES["fmax"])
SAMPLES["fmin.out"] = _out_sample("fmin.out", SAMPLES["fmin"])
for _n in ("signbit", "isposinf", "isneginf"):
    SAMPLES[_n + ".out"] = (lambda m, n=_n: (SAMPLES[n](m)[0], {"out": opyard.empty(0, dtype=b8, device=m.device)}))
SAMPLES["linalg_svd.U"] = _multi_out_sample(SAMPLES["linalg_svd"], ("U", "S", "Vh"))
SAMPLES["cummin.out"] = _multi_out_sample(lambda m: ((m(2, 3), 1), {}), ("values", "indices"))
SAMPLES["mode.values"] = _multi_out_sample(lambda m: ((m(2, 5),), {}), ("values", "indices"))
# --- math, reductions, indexing and linear algebra with a numpy equivalent (end) ---

# Normalization kernels and their compositions (inputs (N, C, L) = (3, 2, 4)).
SAMPLES.update({
    "native_batch_norm": lambda m: ((m(3, 2, 4), m(2), m(2), m(2), m(2, positive=True), True, 0.1, 1e-5), {}),
    "_native_batch_norm_legit": lambda m: ((m(3, 2, 4), m(2), None, m(2), m(2, positive=True), True, 0.1, 1e-5), {}),
    "_native_batch_norm_legit.no_stats": lambda m: ((m(3, 2, 4), None, m(2), True, 0.1, 1e-5), {}),
    "_native_batch_norm_legit_no_training":
        lambda m: ((m(3, 2, 4), m(2), m(2), m(2), m(2, positive=True), 0.1, 1e-5), {}),
    "_batch_norm_with_update": lambda m: ((m(3, 2, 4), m(2), m(2), m(2), m(2, positive=True), 0.1, 1e-5), {}),
    "_batch_norm_no_update": lambda m: ((m(3, 2, 4), m(2), m(2), m(2), m(2, positive=True), 0.1, 1e-5), {}),
    "batch_norm": lambda m: ((m(3, 2, 4), m(2), m(2), None, None, True, 0.1, 1e-5, False), {}),
    "instance_norm": lambda m: ((m(3, 2, 4), m(2), m(2), None, None, True, 0.1, 1e-5, False), {}),
    "native_group_norm": lambda m: ((m(3, 4, 5), m(4), m(4), 3, 4, 5, 2, 1e-5), {}),
    "group_norm": lambda m: ((m(3, 4, 5), 2, m(4), m(4)), {}),
    "native_layer_norm": lambda m: ((m(3, 4, 5), [5], m(5), m(5), 1e-5), {}),
    "native_layer_norm_backward": lambda m: ((m(3, 4, 5), m(3, 4, 5), [5], m(3, 4, 1), m(3, 4, 1, positive=True),
                                              m(5), m(5), [True, True, True]), {}),
})

# Activation kernels and their compositions.
SAMPLES.update({
    "celu": lambda m: ((m(2, 3), 0.5), {}), "celu_": lambda m: ((m(2, 3),), {}),
    "selu": lambda m: ((m(2, 3),), {}), "selu_": lambda m: ((m(2, 3),), {}), "elu_": lambda m: ((m(2, 3), 2.0), {}),
    "glu": lambda m: ((m(2, 4), 1), {}), "hardshrink": lambda m: ((m(2, 3), 0.3), {}),
    "softshrink": lambda m: ((m(2, 3),), {}), "hardsigmoid": lambda m: ((m(2, 3),), {}),
    "hardsigmoid_": lambda m: ((m(2, 3),), {}), "hardswish": lambda m: ((m(2, 3),), {}),
    "hardswish_": lambda m: ((m(2, 3),), {}), "log_sigmoid": lambda m: ((m(2, 3),), {}),
    "log_sigmoid_forward": lambda m: ((m(2, 3),), {}), "mish": lambda m: ((m(2, 3),), {}),
    "mish_": lambda m: ((m(2, 3),), {}), "prelu": lambda m: ((m(2, 3, 4), m(3)), {}),
    "_prelu_kernel": lambda m: ((m(2, 3, 4), m(1, 3, 1)), {}), "rrelu": lambda m: ((m(2, 3),), {}),
    "rrelu_": lambda m: ((m(2, 3),), {}), "rrelu_with_noise": lambda m: ((m(2, 3), m(2, 3)), {}),
    "rrelu_with_noise_": lambda m: ((m(2, 3), m(2, 3)), {}),
    "threshold": lambda m: ((m(2, 3), 0.1, 20), {}), "threshold_": lambda m: ((m(2, 3), 0.1, 20), {}),
})

# Loss kernels and compositions (probabilities in (0, 1) where a loss needs them).
SAMPLES.update({
    "binary_cross_entropy": lambda m: ((_unit(m, 3, 4), _unit(m, 3, 4), m(4, positive=True), 2), {}),
    "binary_cross_entropy_with_logits": lambda m: ((m(3, 4), _unit(m, 3, 4), None, m(4, positive=True)), {}),
    "nll_loss_forward": lambda m: ((m(3, 4), m.idx([0, 3, 1]), None, 1, -100), {}),
    "nll_loss2d_forward": lambda m: ((m(2, 3, 2, 2), m.idx([[[0, 1], [2, 0]], [[1, 1], [0, 2]]]), m(3), 0, -100), {}),
    "nll_loss": lambda m: ((m(3, 4), m.idx([0, 3, 1])), {}),
    "nll_loss2d": lambda m: ((m(2, 3, 2, 2), m.idx([[[0, 1], [2, 0]], [[1, 1], [0, 2]]])), {}),
    "nll_loss_nd": lambda m: ((m(2, 3, 4), m.idx([[0, 1, 2, 0], [1, 1, 0, 2]]), None, 0), {}),
    "cross_entropy_loss": lambda m: ((m(3, 4), m.idx([0, 3, 1]), m(4, positive=True), 1, -100, 0.1), {}),
    "kl_div": lambda m: ((m(3, 4), _unit(m, 3, 4), 0), {}), "l1_loss": lambda m: ((m(3, 4), m(4), 2), {}),
    "smooth_l1_loss": lambda m: ((m(3, 4), m(3, 4), 0, 0.5), {}), "huber_loss": lambda m: ((m(3, 4), m(3, 4)), {}),
    "mse_loss": lambda m: ((m(3, 4), m(4, dtype=opyard.float64), 0), {}),
    "soft_margin_loss": lambda m: ((m(3, 4), m(3, 4), 0), {}),
    "poisson_nll_loss": lambda m: ((m(3, 4, positive=True), m(3, 4, positive=True), False, True, 1e-8, 0), {}),
    "hinge_embedding_loss": lambda m: ((m(3, 4), m(3, 4)), {}),
    "margin_ranking_loss": lambda m: ((m(3), m(3), m(3), 0.5, 0), {}),
    "cosine_embedding_loss": lambda m: ((m(3, 4), m(3, 4), m(3)), {}),
    "multi_margin_loss": lambda m: ((m(3, 4), m.idx([0, 3, 1]), 2, 1.0, m(4), 0), {}),
    "multilabel_margin_loss": lambda m: ((m(2, 4), m.idx([[3, 0, -1, 1], [1, -1, 0, 0]])), {}),
    "multilabel_margin_loss_forward": lambda m: ((m(2, 4), m.idx([[3, 0, -1, 1], [1, -1, 0, 0]]), 0), {}),
    "triplet_margin_loss": lambda m: ((m(3, 4), m(3, 4), m(3, 4)), {"swap": True}),
    "pairwise_distance": lambda m: ((m(3, 4), m(4)), {"keepdim": True}),
    "_ctc_loss": lambda m: ((m(5, 2, 4), m.idx([[1, 2], [3, 3]]), [5, 4], [2, 1]), {}),
    "_ctc_loss_backward": lambda m: ((m(2), m(5, 2, 4), m.idx([[1, 2], [3, 3]]), [5, 4], [2, 1], m(2), m(2, 5, 5), 0),
                                     {}),
    "_ctc_loss_backward.Tensor": lambda m: ((m(2), m(5, 2, 4), m.idx([[1, 2], [3, 3]]), m.idx([5, 4]), m.idx([2, 1]),
                                             m(2), m(2, 5, 5), 0), {}),
    "ctc_loss.IntList": lambda m: ((m(5, 2, 4), m.idx([[1, 2], [3, 3]]), [5, 4], [2, 1]), {}),
})

# Dropout (shapes and dtypes only: the draws differ between devices).
SAMPLES.update({
    "dropout_": lambda m: ((m(2, 3), 0.5, True), {}), "feature_dropout": lambda m: ((m(2, 3, 4), 0.5, True), {}),
    "feature_dropout_": lambda m: ((m(2, 3, 4), 0.5, True), {}), "alpha_dropout": lambda m: ((m(2, 3), 0.5, True), {}),
    "alpha_dropout_": lambda m: ((m(2, 3), 0.5, True), {}),
    "feature_alpha_dropout": lambda m: ((m(2, 3, 4), 0.5, True), {}),
    "feature_alpha_dropout_": lambda m: ((m(2, 3, 4), 0.5, True), {}),
    "native_dropout": lambda m: ((m(2, 3), 0.5, True), {}),
    "native_dropout_backward": lambda m: ((m(2, 3), m(2, 3, dtype=b8), 2.0), {}),
})

# Distances, bilinear forms and bag embeddings.
SAMPLES.update({
    "cdist": lambda m: ((m(2, 3, 4), m(5, 4), 1.5), {}), "_cdist_forward": lambda m: ((m(3, 4), m(5, 4), 2.0, None), {}),
    "_euclidean_dist": lambda m: ((m(3, 4), m(5, 4)), {}), "pdist": lambda m: ((m(4, 3),), {}),
    "_pdist_forward": lambda m: ((m(4, 3), 1.0), {}), "cosine_similarity": lambda m: ((m(3, 4), m(4)), {"dim": -1}),
    "bilinear": lambda m: ((m(2, 3), m(2, 4), m(5, 3, 4), m(5)), {}),
    "_trilinear": lambda m: ((m(2, 3), m(5, 3, 4), m(2, 4), [1, 3], [0], [1, 2], [2, 3]), {}),
    "embedding_bag": lambda m: ((m(6, 3), m.idx([1, 2, 5, 0]), m.idx([0, 2]), False, 1), {}),
    "embedding_bag.padding_idx": lambda m: ((m(6, 3), m.idx([1, 2, 5, 0]), m.idx([0, 2]), False, 2, False, None,
                                             False, 5), {}),
    "_embedding_bag": lambda m: ((m(6, 3), m.idx([1, 2, 5, 0]), m.idx([0, 2]), False, 0, False, m(4)), {}),
    "_embedding_bag_forward_only": lambda m: ((m(6, 3), m.idx([1, 2, 5, 0]), m.idx([0, 2, 4]), False, 1, False, None,
                                               True), {}),
    "embedding_renorm_": lambda m: ((m(6, 3), m.idx([1, 2, 1]), 0.5, 2.0), {}),
    "_embedding_bag_backward": lambda m: ((m(2, 3), m.idx([1, 2, 5, 0]), m.idx([0, 2]), m.idx([]), m.idx([0, 0]),
                                           m.idx([0, 0]), 6, False, 0, False, None), {}),
    "_embedding_bag_dense_backward": lambda m: ((m(2, 3), m.idx([1, 2, 5, 0]), m.idx([0, 0, 1, 1]), m.idx([2, 2]),
                                                 m.idx([0, 0]), 6, False, 1, None), {}),
    "_embedding_bag_per_sample_weights_backward": lambda m: ((m(2, 3), m(6, 3), m.idx([1, 2, 5, 0]), m.idx([0, 2]),
                                                              m.idx([0, 0, 1, 1]), 0), {}),
})

# Attention and softmax internals.
SAMPLES.update({
    "_safe_softmax": lambda m: ((m(2, 3), 1), {"dtype": opyard.float64}),
    "_softmax_backward_data": lambda m: ((m(2, 3), m(2, 3), 1, f32), {}),
    "_log_softmax_backward_data": lambda m: ((m(2, 3), m(2, 3), 0, f32), {}),
    "_scaled_dot_product_flash_attention_for_cpu": lambda m: ((m(2, 4, 3, 8), m(2, 2, 5, 8), m(2, 2, 5, 8)),
                                                              {"is_causal": True}),
    "_scaled_dot_product_flash_attention_for_cpu_backward":
        lambda m: ((m(2, 1, 3, 8), m(2, 1, 3, 8), m(2, 1, 5, 8), m(2, 1, 5, 8), m(2, 1, 3, 8), m(2, 1, 3), 0.0, False),
                   {}),
    "scaled_dot_product_attention": lambda m: ((m(2, 3, 8), m(2, 5, 8), m(2, 5, 4)), {}),
    "_scaled_dot_product_attention_math": lambda m: ((m(2, 3, 8), m(2, 5, 8), m(2, 5, 4)), {"is_causal": True}),
})

DATA_DEPENDENT = {"nonzero": lambda m: ((m(2, 3),), {}), "allclose": lambda m: ((m(2, 3), m(2, 3)), {}),
                  # the lengths are data: ctc's log_alpha is as wide as the longest target
                  "_ctc_loss.Tensor": lambda m: ((m(5, 2, 4), m.idx([[1, 2], [3, 3]]), m.idx([5, 4]), m.idx([2, 1])), {}),
                  "ctc_loss.Tensor": lambda m: ((m(5, 2, 4), m.idx([[1, 2], [3, 3]]), m.idx([5, 4]), m.idx([2, 1])), {})}

# --- convolution, pooling, resampling, unfold and channel shuffles ---
CL, CL3 = opyard.channels_last, opyard.channels_last_3d
f64 = opyard.float64


def _cl(t):
    return t.contiguous(memory_format=CL if t.dim() == 4 else CL3)


def _pool_idx(m, *shape):
    """Valid max-pool indices for a (2, 2) input plane pooled 2x2 from (4, 4)."""
    base = np.array([[0, 2], [9, 15]])
    return m.idx(np.broadcast_to(base, shape).tolist())


SAMPLES.update({
    "convolution": lambda m: ((m(2, 4, 7, 6), m(6, 2, 3, 3), m(6), [2, 1], [1, 0], [1, 2], False, [0, 0], 2), {}),
    "_convolution": lambda m: ((_cl(m(2, 4, 7, 6)), m(4, 3, 3, 3), None, [1, 1], [1, 1], [1, 1], True, [0, 0], 1,
                                False, False, True, True), {}),
    "convolution_backward": lambda m: ((m(2, 6, 4, 2), m(2, 4, 7, 6), m(6, 2, 3, 3), [6], [2, 1], [1, 0], [1, 2],
                                        False, [0, 0], 2, [True, True, True]), {}),
    "conv1d": lambda m: ((m(3, 9), m(2, 3, 3)), {"stride": [2]}),
    "conv2d": lambda m: ((m(1, 2, 5, 5), m(4, 2, 3, 3), m(4)), {"padding": [1, 1]}),
    "conv3d": lambda m: ((m(1, 2, 3, 4, 5), m(2, 2, 2, 2, 2)), {}),
    "conv1d.padding": lambda m: ((m(1, 3, 9), m(2, 3, 4)), {"padding": "same"}),
    "conv2d.padding": lambda m: ((m(1, 2, 5, 5), m(4, 2, 3, 3)), {"padding": "valid"}),
    "conv3d.padding": lambda m: ((m(1, 2, 3, 4, 5), m(2, 2, 3, 3, 3)), {"padding": "same"}),
    "conv_transpose1d": lambda m: ((m(1, 2, 5), m(2, 3, 3)), {"stride": [2]}),
    "conv_transpose2d.input": lambda m: ((_cl(m(1, 2, 4, 5)), m(2, 3, 3, 3), m(3)), {"stride": [2, 2]}),
    "conv_transpose3d.input": lambda m: ((m(1, 2, 3, 4, 3), m(2, 1, 2, 2, 2)), {"groups": 2}),
    "_convolution_mode": lambda m: ((m(1, 2, 5, 5), m(4, 2, 2, 2), None, [1, 1], "same", [1, 1], 1), {}),
    "_convolution.deprecated": lambda m: ((m(1, 2, 5, 5), m(4, 2, 2, 2), None, [1, 1], [0, 0], [1, 1], False, [0, 0],
                                           1, False, False, True), {}),
    "im2col": lambda m: ((m(2, 3, 5, 6), [2, 3], [1, 1], [1, 0], [2, 1]), {}),
    "col2im": lambda m: ((m(2, 12, 20), [5, 6], [2, 2], [1, 1], [0, 0], [1, 1]), {}),
    "pixel_shuffle": lambda m: ((m(2, 8, 3, 2), 2), {}), "pixel_unshuffle": lambda m: ((m(2, 2, 4, 6), 2), {}),
    "channel_shuffle": lambda m: ((_cl(m(2, 6, 3, 2)), 3), {}),
    "native_channel_shuffle": lambda m: ((m(2, 6, 3), 2), {}),
    "max_pool1d_with_indices": lambda m: ((m(2, 3, 9), [3], [2], [1]), {}),
    "max_pool1d": lambda m: ((m(2, 3, 9), [3]), {}),
    "max_pool2d": lambda m: ((m(2, 3, 7, 6), [3, 2], [2, 1], [1, 1], [1, 2], True), {}),
    "max_pool3d": lambda m: ((m(1, 2, 5, 6, 4), [2, 2, 2]), {}),
    "max_pool2d_with_indices": lambda m: ((_cl(m(2, 3, 7, 6)), [3, 2], [2, 1], [1, 1]), {}),
    "max_pool3d_with_indices": lambda m: ((_cl(m(1, 2, 5, 6, 4)), [2, 2, 2], [], [1, 1, 0], [1, 1, 1], True), {}),
    "max_pool2d_with_indices_backward": lambda m: ((m(1, 2, 2, 2), m(1, 2, 4, 4), [2, 2], [2, 2], [0, 0], [1, 1],
                                                    False, _pool_idx(m, 1, 2, 2, 2)), {}),
    "max_pool3d_with_indices_backward": lambda m: ((m(1, 2, 1, 2, 2), m(1, 2, 1, 4, 4), [1, 2, 2], [1, 2, 2],
                                                    [0, 0, 0], [1, 1, 1], False, _pool_idx(m, 1, 2, 1, 2, 2)), {}),
    "avg_pool1d": lambda m: ((m(2, 3, 9), [3], [2], [1], True), {}),
    "avg_pool2d": lambda m: ((_cl(m(2, 3, 7, 6)), [3, 2], [2, 1], [1, 1], True, False, None), {}),
    "avg_pool3d": lambda m: ((m(1, 2, 5, 6, 4), [2, 2, 2], [1, 2, 2], [1, 0, 1], False, True, 3), {}),
    "avg_pool2d_backward": lambda m: ((m(1, 2, 3, 3), m(1, 2, 5, 6), [2, 2], [2, 2], [0, 0], True, True, None), {}),
    "avg_pool3d_backward": lambda m: ((m(1, 2, 2, 3, 3), m(1, 2, 4, 5, 6), [2, 2, 2], [2, 2, 2], [0, 0, 0], True,
                                       True, None), {}),
    "adaptive_avg_pool1d": lambda m: ((m(2, 3, 9), [4]), {}),
    "adaptive_avg_pool2d": lambda m: ((_cl(m(2, 3, 7, 6)), [1, 1]), {}),
    "adaptive_avg_pool3d": lambda m: ((m(1, 2, 5, 6, 4), [2, 3, 3]), {}),
    "_adaptive_avg_pool2d": lambda m: ((_cl(m(2, 3, 7, 6)), [4, 3]), {}),
    "_adaptive_avg_pool3d": lambda m: ((m(1, 2, 5, 6, 4), [2, 3, 3]), {}),
    "_adaptive_avg_pool2d_backward": lambda m: ((m(2, 3, 4, 3), m(2, 3, 7, 6)), {}),
    "_adaptive_avg_pool3d_backward": lambda m: ((m(1, 2, 2, 3, 3), m(1, 2, 5, 6, 4)), {}),
    "adaptive_max_pool1d": lambda m: ((m(2, 3, 9), [4]), {}),
    "adaptive_max_pool2d": lambda m: ((_cl(m(2, 3, 7, 6)), [4, 3]), {}),
    "adaptive_max_pool3d": lambda m: ((m(1, 2, 5, 6, 4), [2, 3, 3]), {}),
    "adaptive_max_pool2d_backward": lambda m: ((m(1, 2, 2, 2), m(1, 2, 4, 4), _pool_idx(m, 1, 2, 2, 2)), {}),
    "adaptive_max_pool3d_backward": lambda m: ((m(1, 2, 1, 2, 2), m(1, 2, 1, 4, 4), _pool_idx(m, 1, 2, 1, 2, 2)), {}),
    "fractional_max_pool2d": lambda m: ((m(2, 3, 7, 6), [2, 2], [3, 4], m(2, 3, 2, positive=True) * 0.3), {}),
    "fractional_max_pool3d": lambda m: ((m(1, 2, 5, 6, 4), [2, 2, 2], [3, 3, 2], m(1, 2, 3, positive=True) * 0.3), {}),
    "fractional_max_pool2d_backward": lambda m: ((m(1, 2, 2, 2), m(1, 2, 4, 4), [2, 2], [2, 2],
                                                  _pool_idx(m, 1, 2, 2, 2)), {}),
    "fractional_max_pool3d_backward": lambda m: ((m(1, 2, 1, 2, 2), m(1, 2, 1, 4, 4), [1, 2, 2], [1, 2, 2],
                                                  _pool_idx(m, 1, 2, 1, 2, 2)), {}),
    "max_unpool2d": lambda m: ((_cl(m(1, 2, 2, 2)), _cl(_pool_idx(m, 1, 2, 2, 2)), [4, 4]), {}),
    "max_unpool3d": lambda m: ((m(1, 2, 1, 2, 2), _pool_idx(m, 1, 2, 1, 2, 2), [1, 4, 4], [1, 2, 2], [0, 0, 0]), {}),
    "grid_sampler": lambda m: ((m(2, 3, 5, 6), m(2, 4, 3, 2)), {"interpolation_mode": 0, "padding_mode": 1,
                                                                "align_corners": False}),
    "grid_sampler_2d": lambda m: ((m(2, 3, 5, 6), m(2, 4, 3, 2), 2, 2, True), {}),
    "grid_sampler_3d": lambda m: ((m(1, 2, 3, 5, 4), m(1, 2, 3, 2, 3), 1, 0, False), {}),
    "grid_sampler_2d_backward": lambda m: ((m(2, 3, 4, 3), m(2, 3, 5, 6), m(2, 4, 3, 2), 0, 0, False,
                                            [True, True]), {}),
    "grid_sampler_3d_backward": lambda m: ((m(1, 2, 2, 3, 2), m(1, 2, 3, 5, 4), m(1, 2, 3, 2, 3), 0, 0, False,
                                            [True, False]), {}),
})
_UPSAMPLE_SAMPLES = {  # name -> (input shape, output size, takes align_corners)
    "upsample_nearest1d": ((2, 3, 5), [7], False), "upsample_nearest2d": ((2, 3, 5, 4), [7, 3], False),
    "upsample_nearest3d": ((1, 2, 3, 4, 5), [4, 3, 7], False), "_upsample_nearest_exact1d": ((2, 3, 5), [7], False),
    "_upsample_nearest_exact2d": ((2, 3, 5, 4), [7, 3], False),
    "_upsample_nearest_exact3d": ((1, 2, 3, 4, 5), [4, 3, 7], False),
    "upsample_linear1d": ((2, 3, 5), [7], True), "upsample_bilinear2d": ((2, 3, 5, 4), [7, 3], True),
    "upsample_trilinear3d": ((1, 2, 3, 4, 5), [4, 3, 7], True), "upsample_bicubic2d": ((2, 3, 5, 4), [7, 3], True),
    "_upsample_bilinear2d_aa": ((2, 3, 5, 4), [2, 3], True), "_upsample_bicubic2d_aa": ((2, 3, 5, 4), [2, 3], True),
}
for _name, (_shape, _size, _align) in _UPSAMPLE_SAMPLES.items():
    _extra = (False,) if _align else ()
    _layout = _cl if len(_shape) == 4 else (lambda t: t)
    SAMPLES[_name] = (lambda m, s=_shape, o=_size, e=_extra, lay=_layout: ((lay(m(*s)), o) + e, {}))
    SAMPLES[_name + ".vec"] = (lambda m, s=_shape, o=_size, e=_extra: ((m(*s), None) + e + ([1.5] * len(o),), {}))
    SAMPLES[_name + "_backward"] = (lambda m, s=_shape, o=_size, e=_extra: (
        (m(*(s[:2] + tuple(o))), o, list(s)) + e, {}))

from meta_samples_linalg import SAMPLES as _LINALG_SAMPLES  # noqa: E402

SAMPLES.update(_LINALG_SAMPLES)

DATA_DEPENDENT.update(DATA_DEPENDENT_EXT)

# Operators torch has no Meta kernel for (a result that is data): meta tensors get its Meta fallback's error.
NO_META_KERNEL = {"equal": lambda m: ((m(2, 3), m(2, 3)), {})}
# torch's meta refusals of a tensor argument's values: (sample, message) for a RuntimeError with exactly that
# message, or (sample, message start, exception type)
META_REFUSES = {
    "_local_scalar_dense": (lambda m: ((m(1),), {}), "Tensor.item() cannot be called on meta tensors"),
    "narrow.Tensor": (lambda m: ((m(5, 3), 1, m.idx(1), 2), {}), "Tensor.item() cannot be called on meta tensors"),
    "tensor_split.tensor_indices_or_sections": (
        lambda m: ((m(2, 7), m.idx([1, 5]), 1), {}),
        "tensor_split expected tensor_indices_or_sections to be on cpu, but it's on meta"),
}

# In-place matrix products and pointwise helpers
SAMPLES.update({
    "addmm_": lambda m: ((m(3, 4), m(3, 2), m(2, 4)), {"beta": 0.5, "alpha": 2}),
    "baddbmm_": lambda m: ((m(2, 2, 4), m(2, 2, 3), m(2, 3, 4)), {"beta": 0.5}),
    "addcmul_": lambda m: ((m(2, 3), m(3), m(2, 3)), {"value": 2}),
    "addcdiv_": lambda m: ((m(2, 3), m(3), m(2, 3, positive=True)), {"value": 2}),
})

# Joining, splitting, broadcasting, diagonal, rotation, *_copy and *_scatter operators.
SAMPLES.update({
    "atleast_1d": lambda m: ((m(),), {}), "atleast_1d.Sequence": lambda m: (([m(), m(2)],), {}),
    "atleast_2d": lambda m: ((m(3),), {}), "atleast_2d.Sequence": lambda m: (([m(3), m(2, 2)],), {}),
    "atleast_3d": lambda m: ((m(2, 3),), {}), "atleast_3d.Sequence": lambda m: (([m(3), m(2, 2)],), {}),
    "hstack": lambda m: (([m(2, 3), m(2, 1)],), {}), "vstack": lambda m: (([m(3), m(2, 3)],), {}),
    "dstack": lambda m: (([m(2, 3), m(2, 3)],), {}), "column_stack": lambda m: (([m(3), m(3, 2)],), {}),
    "hsplit.int": lambda m: ((m(2, 4), 2), {}), "hsplit.array": lambda m: ((m(2, 4), [1, 3]), {}),
    "vsplit.int": lambda m: ((m(4, 2), 2), {}), "vsplit.array": lambda m: ((m(4, 2), [1]), {}),
    "dsplit.int": lambda m: ((m(2, 2, 4), 2), {}), "dsplit.array": lambda m: ((m(2, 2, 4), [3]), {}),
    "unsafe_split.Tensor": lambda m: ((m(5, 2), 2), {}), "unsafe_chunk": lambda m: ((m(5, 2), 2, 0), {}),
    "unsafe_split_with_sizes": lambda m: ((m(5, 2), [2, 3]), {}),
    "broadcast_to": lambda m: ((m(3, 1), [2, 3, 4]), {}), "broadcast_tensors": lambda m: (([m(3, 1), m(4)],), {}),
    "meshgrid": lambda m: (([m(3), m(2)],), {}), "meshgrid.indexing": lambda m: (([m(3), m(2)],), {"indexing": "xy"}),
    "cartesian_prod": lambda m: (([m(3), m(2)],), {}), "combinations": lambda m: ((m(4), 2), {}),
    "block_diag": lambda m: (([m(2, 2), m(3)],), {}), "diag": lambda m: ((m(3), 1), {}),
    "diag_embed": lambda m: ((m(2, 3), 1, 0, 2), {}), "diagflat": lambda m: ((m(2, 2), -1), {}),
    "fliplr": lambda m: ((m(2, 3),), {}), "flipud": lambda m: ((m(2, 3),), {}),
    "rot90": lambda m: ((m(2, 3, 4), 1, [1, 2]), {}), "ravel": lambda m: ((_t(m),), {}),
    "reshape_as": lambda m: ((m(2, 3), m(3, 2)), {}), "sum_to_size": lambda m: ((m(4, 3), [1, 3]), {}),
    "alias_copy": lambda m: ((m(2, 3),), {}), "detach_copy": lambda m: ((m(2, 3),), {}),
    "as_strided_copy": lambda m: ((m(4, 5), [2, 2], [5, 1], 1), {}),
    "diagonal_copy": lambda m: ((m(3, 4), 1), {}), "expand_copy": lambda m: ((m(3, 1), [3, 4]), {}),
    "narrow_copy": lambda m: ((m(5, 3), 0, 1, 2), {}), "permute_copy": lambda m: ((m(2, 3, 4), [2, 0, 1]), {}),
    "select_copy.int": lambda m: ((m(2, 3), 1, 1), {}), "slice_copy.Tensor": lambda m: ((m(5, 3), 0, 1, 4, 2), {}),
    "split_copy.Tensor": lambda m: ((m(5, 2), 2), {}), "split_with_sizes_copy": lambda m: ((m(5, 2), [2, 3]), {}),
    "squeeze_copy": lambda m: ((m(2, 1, 3),), {}), "squeeze_copy.dim": lambda m: ((m(2, 1, 3), 1), {}),
    "squeeze_copy.dims": lambda m: ((m(2, 1, 1), [1, 2]), {}), "t_copy": lambda m: ((m(2, 3),), {}),
    "transpose_copy.int": lambda m: ((m(2, 3, 4), 0, 2), {}), "unbind_copy.int": lambda m: ((m(2, 3), 1), {}),
    "unfold_copy": lambda m: ((m(7, 2), 0, 3, 2), {}), "unsqueeze_copy": lambda m: ((m(2, 3), 1), {}),
    "view_copy": lambda m: ((m(2, 6), [3, 4]), {}), "view_copy.dtype": lambda m: ((m(2, 4), opyard.int32), {}),
    "slice_scatter": lambda m: ((m(5, 3), m(2, 3), 0, 1, 3), {}),
    "select_scatter": lambda m: ((m(5, 3), m(3), 0, 2), {}),
    "diagonal_scatter": lambda m: ((m(3, 4), m(3), 1), {}),
    "as_strided_scatter": lambda m: ((m(3, 3), m(2, 2), [2, 2], [1, 2], 1), {}),
})
for _name in ("hstack", "vstack", "dstack", "column_stack", "diag"):
    SAMPLES[_name + ".out"] = _out_sample(_name + ".out", SAMPLES[_name])

# The special functions, the number-representation ops, the complex parts and logspace.
from special_meta_samples import SPECIAL_META_SAMPLES  # noqa: E402

for _name, _sample in SPECIAL_META_SAMPLES.items():
    SAMPLES.setdefault(_name, _sample)

# Statistics (_aten/statistics.py): histograms, nanmedian, quantiles, integration, gradient,
# logcumsumexp, renorm, dist, segment_reduce; the unique family and bincount depend on the data.
SAMPLES.update({
    "histc": lambda m: ((m(2, 3), 4), {}), "histc.out": lambda m: ((m(2, 3), 4), {"out": opyard.empty(0, device=m.device)}),
    "histogram.bin_ct": lambda m: ((m(7),), {"bins": 3, "weight": m(7), "density": True}),
    "histogram.bins_tensor": lambda m: ((m(2, 3), opyard.linspace(-1, 1, 4, device=m.device)), {}),
    "histogram.bin_ct_out": _multi_out_sample(lambda m: ((m(7), 3), {}), ("hist", "bin_edges")),
    "histogram.bins_tensor_out": _multi_out_sample(
        lambda m: ((m(7), opyard.linspace(-1, 1, 4, device=m.device)), {}), ("hist", "bin_edges")),
    "_histogramdd_bin_edges": lambda m: ((m(5, 2), [2, 3]), {}),
    "_histogramdd_from_bin_cts": lambda m: ((m(5, 2), [2, 3]), {"range": [-1.0, 1.0, 0.0, 2.0]}),
    "_histogramdd_from_bin_tensors": lambda m: ((m(5, 2), [opyard.linspace(-1, 1, 3, device=m.device),
                                                            opyard.linspace(-2, 2, 4, device=m.device)]), {}),
    "histogramdd": lambda m: ((m(5, 2), [2, 3]), {}), "histogramdd.int_bins": lambda m: ((m(5, 2), 3), {}),
    "histogramdd.TensorList_bins": lambda m: ((m(5, 2), [opyard.linspace(-1, 1, 3, device=m.device),
                                                          opyard.linspace(-2, 2, 4, device=m.device)]), {}),
    "nanmedian": lambda m: ((m(2, 3),), {}), "nanmedian.dim": lambda m: ((m(2, 5), 1, True), {}),
    "nanmedian.dim_values": _multi_out_sample(lambda m: ((m(2, 5), 1), {}), ("values", "indices")),
    "quantile": lambda m: ((m(3, 4), opyard.tensor([0.2, 0.7], device=m.device)), {"dim": 1, "keepdim": True}),
    "quantile.scalar": lambda m: ((m(3, 4), 0.4), {"interpolation": "midpoint"}),
    "nanquantile": lambda m: ((m(3, 4), opyard.tensor([0.2, 0.7], device=m.device)), {"dim": 0}),
    "nanquantile.scalar": lambda m: ((m(3, 4), 0.4), {"dim": -1}),
    "quantile.out": lambda m: ((m(3, 4), opyard.tensor([0.5], device=m.device)), {"out": opyard.empty(0, device=m.device)}),
    "quantile.scalar_out": lambda m: ((m(3, 4), 0.5, 0), {"out": opyard.empty(0, device=m.device)}),
    "nanquantile.out": lambda m: ((m(3, 4), opyard.tensor([0.5], device=m.device)), {"out": opyard.empty(0, device=m.device)}),
    "nanquantile.scalar_out": lambda m: ((m(3, 4), 0.5), {"out": opyard.empty(0, device=m.device)}),
    "msort": lambda m: ((m(3, 4),), {}), "msort.out": lambda m: ((m(3, 4),), {"out": opyard.empty(0, device=m.device)}),
    "trapezoid.x": lambda m: ((m(3, 4), m(4)), {}), "trapezoid.dx": lambda m: ((m(3, 4),), {"dx": 0.5, "dim": 0}),
    "trapz.x": lambda m: ((m(3, 4), m(3, 4)), {}), "trapz.dx": lambda m: ((m(3, 4),), {"dx": 2.0}),
    "cumulative_trapezoid.x": lambda m: ((m(3, 4), m(4)), {}),
    "cumulative_trapezoid.dx": lambda m: ((m(3, 4),), {"dx": 0.5, "dim": 0}),
    "gradient.scalarint": lambda m: ((m(3, 4),), {"spacing": 2.0}),
    "gradient.scalararray": lambda m: ((m(3, 4),), {"spacing": 2.0, "dim": [1]}),
    "gradient.array": lambda m: ((m(3, 4),), {"dim": [0, 1], "edge_order": 2}),
    "gradient.scalarrayint": lambda m: ((m(3, 4),), {"spacing": [1.0, 2.0]}),
    "gradient.scalarrayarray": lambda m: ((m(3, 4),), {"spacing": [0.5], "dim": [0]}),
    "gradient.tensorarrayint": lambda m: ((m(3, 4),), {"spacing": [opyard.tensor([0.0, 1.0, 3.0], device=m.device)],
                                                        "dim": 0}),
    "gradient.tensorarray": lambda m: ((m(3, 4),), {"spacing": [opyard.tensor([0.0, 1.0, 3.0, 4.0], device=m.device)],
                                                     "dim": [1]}),
    "logcumsumexp": lambda m: ((m(3, 4), 1), {}), "_logcumsumexp": lambda m: ((m(3, 4), 0), {}),
    "logcumsumexp.out": lambda m: ((m(3, 4), 1), {"out": opyard.empty(0, device=m.device)}),
    "renorm": lambda m: ((m(3, 4), 2, 0, 1.0), {}), "renorm_": lambda m: ((m(3, 4), 1.5, 1, 0.5), {}),
    "renorm.out": lambda m: ((m(3, 4), 2, 0, 1.0), {"out": opyard.empty(0, device=m.device)}),
    "dist": lambda m: ((m(3, 4), m(4)), {"p": 3}),
    "segment_reduce": lambda m: ((m(5, 2), "sum"), {"lengths": m.idx([2, 3])}),
    "_segment_reduce_backward": lambda m: ((m(2, 2), m(2, 2), m(5, 2), "max"), {"lengths": m.idx([2, 3])}),
})
DATA_DEPENDENT.update({
    "_unique2": lambda m: ((m(2, 3),), {}), "_unique": lambda m: ((m(2, 3),), {}),
    "unique_dim": lambda m: ((m(2, 3), 0), {}), "unique_consecutive": lambda m: ((m(2, 3),), {}),
    "unique_dim_consecutive": lambda m: ((m(2, 3), 1), {}), "bincount": lambda m: ((m.idx([1, 2]),), {}),
})
# cov and corrcoef ask equal() whether their weights are valid, which meta tensors cannot answer (as torch's):
# the refusal is equal's (its message goes on with where to register a Meta kernel).
_EQUAL_REFUSES = ("aten::equal: attempted to run this operator with Meta tensors, but there was no fake impl or "
                  "Meta kernel registered.", NotImplementedError)
META_REFUSES.update({"cov": (lambda m: ((m(2, 3),), {}), *_EQUAL_REFUSES),
                     "corrcoef": (lambda m: ((m(2, 3),), {}), *_EQUAL_REFUSES)})

# The samplers.
from random_meta_samples import RANDOM_META_SAMPLES  # noqa: E402

for _name, _sample in RANDOM_META_SAMPLES.items():
    SAMPLES.setdefault(_name, _sample)

# The placement operators and the layout factories.
from placement_meta_samples import PLACEMENT_META_SAMPLES  # noqa: E402

for _name, _sample in PLACEMENT_META_SAMPLES.items():
    SAMPLES.setdefault(_name, _sample)

# torch's alias operators and the in-place comparisons, logical and bitwise ops.
for _n in ("arccos", "arcsin", "arctan", "arcsinh", "arctanh", "fix"):
    SAMPLES[_n] = SAMPLES[_n + "_"] = lambda m: ((_unit(m, 2, 3),), {})
SAMPLES["arccosh"] = SAMPLES["arccosh_"] = lambda m: ((m(2, 3, positive=True) + 1,), {})
SAMPLES["arctan2"] = SAMPLES["arctan2_"] = lambda m: ((m(2, 3), m(3)), {})
SAMPLES["clip"] = SAMPLES["clip_"] = lambda m: ((m(2, 3), -0.5, 0.5), {})
SAMPLES["clip.Tensor"] = SAMPLES["clip_.Tensor"] = lambda m: ((m(2, 3), m(3)), {})
for _a in ("greater", "greater_equal", "less", "less_equal", "not_equal"):
    for _s in ("", "_"):
        SAMPLES[f"{_a}{_s}.Tensor"] = lambda m: ((m(2, 3), m(3)), {})
        SAMPLES[f"{_a}{_s}.Scalar"] = lambda m: ((m(2, 3), 0.5), {})
SAMPLES.update({
    "moveaxis.int": lambda m: ((m(2, 3, 4), 0, -1), {}), "moveaxis.intlist": lambda m: ((m(2, 3, 4), [0, 1], [2, 0]), {}),
    "swapaxes": lambda m: ((m(2, 3), 0, 1), {}), "swapaxes_": lambda m: ((m(2, 3), 0, 1), {}),
    "swapdims": lambda m: ((m(2, 3), 1, 0), {}), "swapdims_": lambda m: ((m(2, 3), 1, 0), {}),
    "row_stack": lambda m: (([m(2, 3), m(3)],), {}), "ger": lambda m: ((m(3), m(4)), {}),
})
for _op in ("eq", "ne", "lt", "le", "gt", "ge"):
    SAMPLES[f"{_op}_.Tensor"] = lambda m: ((m(2, 3), m(3)), {})
    SAMPLES[f"{_op}_.Scalar"] = lambda m: ((m(2, 3), 0.5), {})
for _op in ("logical_and_", "logical_or_", "logical_xor_"):
    SAMPLES[_op] = lambda m: ((m(2, 3), m(3)), {})
SAMPLES["logical_not_"] = lambda m: ((m(2, 3),), {})
SAMPLES["bitwise_not_"] = lambda m: ((m(2, 3, dtype=i64),), {})
for _op in ("bitwise_and_", "bitwise_or_", "bitwise_xor_"):
    SAMPLES[_op + ".Scalar"] = lambda m: ((m(2, 3, dtype=i64), 6), {})
for _op in ("bitwise_left_shift_", "bitwise_right_shift_"):
    SAMPLES[_op + ".Tensor"] = lambda m: ((m(2, 3, dtype=i64), m(3, dtype=i64).abs()), {})
    SAMPLES[_op + ".Tensor_Scalar"] = lambda m: ((m(2, 3, dtype=i64), 2), {})

# The window functions and randperm (factories: the device from the maker).
for _w in ("hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"):
    SAMPLES[_w] = lambda m: ((7,), {"device": m.device})
    SAMPLES[_w + ".periodic"] = lambda m: ((6, False), {"device": m.device})
SAMPLES["hamming_window.periodic_alpha"] = lambda m: ((6, True, 0.5), {"device": m.device})
SAMPLES["hamming_window.periodic_alpha_beta"] = lambda m: ((6, True, 0.5, 0.4), {"device": m.device})
SAMPLES["kaiser_window.beta"] = lambda m: ((6, True, 3.0), {"device": m.device})
SAMPLES["randperm"] = lambda m: ((5,), {"device": m.device})
SAMPLES["randperm.generator"] = lambda m: ((5,), {"generator": None, "device": m.device})
SAMPLES["_unsafe_view"] = lambda m: ((m(2, 3), [3, 2]), {})
SAMPLES["scalar_tensor"] = lambda m: ((2.5,), {"device": m.device})
SAMPLES["affine_grid_generator"] = lambda m: ((m(2, 2, 3), [2, 1, 3, 4], False), {})
SAMPLES["leaky_relu_"] = lambda m: ((m(2, 3), 0.2), {})
SAMPLES["hardtanh_"] = lambda m: ((m(2, 3), -0.5, 0.5), {})
SAMPLES["silu_"] = lambda m: ((m(2, 3),), {})

# torch's small operators of the top-level namespace (_aten/surface_ops.py)
SAMPLES.update({
    "chain_matmul": lambda m: (([m(2, 3), m(3, 4), m(4, 2)],), {}),
    "chain_matmul.out": lambda m: (([m(2, 3), m(3, 4)],), {"out": opyard.empty(0, device=m.device)}),
    "frobenius_norm.dim": lambda m: ((m(2, 3, 4), [0, 2], True), {}),
    "nuclear_norm": lambda m: ((m(3, 4),), {}),
    "nuclear_norm.dim": lambda m: ((m(2, 3, 4), [0, 2]), {}),
    "vander": lambda m: ((m(4),), {"N": 3, "increasing": True}),
    "negative_": lambda m: ((m(2, 3),), {}),
    "slice_inverse": lambda m: ((m(2, 5)[:, 1:4], m(2, 5), 1, 1, 4), {}),
    "fill_diagonal_": lambda m: ((m(7, 3), 2.0, True), {}),
    "range": lambda m: ((1, 4), {"device": m.device}),
    "range.step": lambda m: ((0, 1, 0.25), {"dtype": opyard.float64, "device": m.device}),
    "is_same_size": lambda m: ((m(2, 3), m(3, 2)), {}),
    "is_signed": lambda m: ((m(2, dtype=opyard.uint8),), {}),
    "is_pinned": lambda m: ((m(2),), {}),
})
META_REFUSES.update({
    "is_nonzero": (lambda m: ((m(1),), {}), "Tensor.item() cannot be called on meta tensors"),
    "pin_memory": (lambda m: ((m(2),), {}), "opyard: CUDA is not available", RuntimeError),
})
