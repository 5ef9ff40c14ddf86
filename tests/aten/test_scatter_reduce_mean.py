"""scatter_reduce(reduce="mean") divides in floating types, bfloat16 included (numpy's kind of
ml_dtypes' bfloat16 is "V", not "f"), and floors in integral ones; values are torch 2.15's."""

import pytest

import opyard

X = [1.0, 2.0, 3.0, 4.0]
SRC = [1.0, 2.0, 4.0, 7.0, 3.0]
IDX = [0, 0, 1, 1, 1]

# (dtype, include_self) -> torch's result
TORCH = {
    (opyard.bfloat16, True): [1.3359375, 4.0, 3.0, 4.0],
    (opyard.bfloat16, False): [1.5, 4.65625, 3.0, 4.0],
    (opyard.float16, True): [1.3330078125, 4.0, 3.0, 4.0],
    (opyard.float16, False): [1.5, 4.66796875, 3.0, 4.0],
    (opyard.float32, True): [1.3333333730697632, 4.0, 3.0, 4.0],
    (opyard.float32, False): [1.5, 4.666666507720947, 3.0, 4.0],
    (opyard.int64, True): [1, 4, 3, 4],
    (opyard.int64, False): [1, 4, 3, 4],
}


@pytest.mark.parametrize("dtype,include_self", sorted(TORCH, key=str))
def test_scatter_reduce_mean_as_torch(dtype, include_self):
    x = opyard.tensor(X).to(dtype)
    src = opyard.tensor(SRC).to(dtype)
    got = x.scatter_reduce(0, opyard.tensor(IDX), src, "mean", include_self=include_self)
    assert got.dtype is dtype
    assert got.tolist() == TORCH[(dtype, include_self)]
