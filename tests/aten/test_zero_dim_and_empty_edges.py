"""0-d and empty inputs the general path mishandled: ``scatter_reduce`` of 0-d tensors (one-element
vectors, as torch treats them), ``searchsorted`` with no values or no boundaries, and the ``repr`` of
an empty tensor (its dtype named unless it is the default, as torch prints it)."""

import pytest

import opyard


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_of_0d_tensors_is_the_one_element_vector_case(reduce, include_self):
    s, i, src = opyard.tensor(1.5), opyard.tensor(0), opyard.tensor(2.5)
    got = opyard.scatter_reduce(s, 0, i, src, reduce, include_self=include_self)
    vec = opyard.scatter_reduce(s.reshape(1), 0, i.reshape(1), src.reshape(1), reduce, include_self=include_self)
    assert got.shape == () and got.item() == vec.item()
    with pytest.raises(RuntimeError, match="Index tensor must have the same number of dimensions as self tensor"):
        opyard.scatter_reduce(opyard.ones(2, 2), 0, opyard.tensor(0), opyard.tensor(1.0), "sum")


@pytest.mark.parametrize("boundaries, values, shape", [
    (opyard.tensor([], dtype=opyard.float32), opyard.tensor([1.0, 2.0]), (2,)),
    (opyard.tensor([1.0, 2.0]), opyard.tensor([], dtype=opyard.float32), (0,)),
    (opyard.zeros(0, 3), opyard.zeros(0, 2), (0, 2)),
    (opyard.zeros(2, 0), opyard.zeros(2, 3), (2, 3)),
])
@pytest.mark.parametrize("right", [False, True])
def test_searchsorted_with_nothing_to_place_or_no_boundaries(boundaries, values, shape, right):
    got = opyard.searchsorted(boundaries, values, right=right)
    assert got.dtype == opyard.int64 and got.shape == shape and int((got != 0).sum()) == 0
    assert opyard.searchsorted(boundaries, values, out_int32=True).dtype == opyard.int32


@pytest.mark.parametrize("dtype", [opyard.int64, opyard.int32, opyard.bool, opyard.float64, opyard.complex64])
def test_repr_of_an_empty_tensor_names_a_dtype_other_than_the_default(dtype):
    assert repr(opyard.zeros(0, dtype=dtype)) == f"tensor([], dtype={dtype!r})"
    assert repr(opyard.zeros(0, 2, dtype=dtype)) == f"tensor([], size=(0, 2), dtype={dtype!r})"
    assert repr(opyard.zeros(0)) == "tensor([])"
    assert repr(opyard.zeros(3, dtype=opyard.int64)) == "tensor([0, 0, 0])"  # with elements, int64 unnamed
