"""The overloads that take another kind of argument than an op's first form: a list of dims
(``all``/``any``/``count_nonzero``/``movedim``), a tensor for a number (``narrow``, ``tensor_split``,
``linspace``), against numpy, with gradients, vmap and torch's messages for bad arguments."""

import numpy as np
import pytest

import opyard
from opyard.autograd import gradcheck

A = opyard.ops.aten


def _data():
    return np.array([[[1, 0, 2], [0, 0, 3]], [[4, 5, 0], [6, 7, 8]]])


@pytest.mark.parametrize("fn, ref", [(opyard.all, np.all), (opyard.any, np.any)])
@pytest.mark.parametrize("dim", [(0, 2), [1], (-1, 0, 1), None, ()])
@pytest.mark.parametrize("keepdim", [False, True])
def test_all_any_over_dims(fn, ref, dim, keepdim):
    x = _data()
    got = fn(opyard.tensor(x), dim=dim, keepdim=keepdim)
    axes = None if dim is None else tuple(d % 3 for d in dim)
    want = ref(x, axis=axes, keepdims=keepdim)
    assert got.dtype is opyard.bool
    np.testing.assert_array_equal(got.numpy(), want)


def test_all_over_dims_of_uint8_is_uint8():
    got = opyard.all(opyard.tensor(_data(), dtype=opyard.uint8), dim=(0, 1))
    assert got.dtype is opyard.uint8
    np.testing.assert_array_equal(got.numpy(), np.all(_data(), axis=(0, 1)).astype(np.uint8))


@pytest.mark.parametrize("dim", [(0, 2), [1], (), (-1,)])
def test_count_nonzero_over_dims(dim):
    x = _data()
    got = opyard.count_nonzero(opyard.tensor(x), dim=dim)
    want = np.count_nonzero(x, axis=tuple(d % 3 for d in dim) if dim else None)
    assert got.dtype is opyard.int64
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("call", [
    lambda x: opyard.all(x, dim=(0, 0)), lambda x: opyard.any(x, dim=(1, -2)),
    lambda x: opyard.count_nonzero(x, dim=(2, -1)), lambda x: opyard.sum(x, dim=(0, -3)),
    lambda x: opyard.amax(x, dim=(1, 1)),
])
def test_a_repeated_dim_is_refused(call):
    with pytest.raises(RuntimeError, match=r"^dim \d appears multiple times in the list of dims$"):
        call(opyard.tensor(_data()))


@pytest.mark.parametrize("fn", [lambda x: opyard.all(x, dim=(0, 1)), lambda x: opyard.any(x, dim=[1]),
                                lambda x: opyard.all(x, dim=()), lambda x: opyard.count_nonzero(x, dim=(0, 1)),
                                lambda x: opyard.count_nonzero(x, dim=())])
def test_vmap_over_dims_overloads(fn):
    xs = opyard.tensor(_data())
    got = opyard.vmap(fn)(xs)
    want = opyard.stack([fn(x) for x in xs])
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_vmap_reduces_every_dim_of_a_0_dim_example():
    xs = opyard.tensor([0.0, 2.0])
    assert opyard.vmap(lambda x: opyard.count_nonzero(x, dim=()))(xs).tolist() == [0, 1]
    assert opyard.vmap(lambda x: opyard.sum(x, dim=()))(xs).tolist() == [0.0, 2.0]


@pytest.mark.parametrize("source, destination", [((0, 1), (2, 0)), ([2], [0]), ((-1, 0), (0, -1)), ((), ())])
def test_movedim_lists(source, destination):
    x = np.arange(24.0).reshape(2, 3, 4)
    t = opyard.tensor(x, requires_grad=True)
    got = opyard.movedim(t, source, destination)
    np.testing.assert_array_equal(got.detach().numpy(), np.moveaxis(x, source, destination))
    assert got._base is t  # a view
    assert gradcheck(lambda a: opyard.movedim(a, source, destination), [t])


@pytest.mark.parametrize("source, destination, error, message", [
    ((0, 0), (1, 2), RuntimeError, r"movedim: repeated dim in `source` \(\[0, 0\]\)"),
    ((0, 1), (-1, 2), RuntimeError, r"movedim: repeated dim in `destination` \(\[-1, 2\]\)"),
    ((0, 1), (2,), RuntimeError, r"movedim: Invalid source or destination dims: source \(\[0, 1\] dims\) should "
                                 r"contain the same number of dims as destination \(\[2\] dims\)"),
    ((0, 5), (1, 2), IndexError, r"Dimension out of range \(expected to be in range of \[-3, 2\], but got 5\)"),
])
def test_movedim_list_errors(source, destination, error, message):
    with pytest.raises(error, match=f"^{message}$"):
        opyard.movedim(opyard.zeros(2, 3, 4), source, destination)


def test_narrow_with_a_tensor_start():
    x = opyard.arange(12.0, dtype=opyard.float64).reshape(3, 4).requires_grad_()
    got = opyard.narrow(x, 1, opyard.tensor(1), 2)
    np.testing.assert_array_equal(got.detach().numpy(), np.arange(12.0).reshape(3, 4)[:, 1:3])
    assert gradcheck(lambda a: opyard.narrow(a, 0, opyard.tensor(-2), 2), [x])


@pytest.mark.parametrize("start", [opyard.tensor([1]), opyard.tensor(1.0), opyard.tensor(True)])
def test_narrow_start_must_be_a_0_dim_integral_tensor(start):
    with pytest.raises(RuntimeError, match=r"^start must be an 0-dim integral Tensor\.$"):
        opyard.narrow(opyard.arange(6), 0, start, 2)


@pytest.mark.parametrize("split, want", [(opyard.tensor(3), [[0, 1], [2, 3], [4]]),
                                         (opyard.tensor([1, 4]), [[0], [1, 2, 3], [4]]),
                                         (opyard.tensor([]).long(), [[0, 1, 2, 3, 4]])])
def test_tensor_split_by_a_tensor(split, want):
    got = opyard.tensor_split(opyard.arange(5), split)
    assert [p.tolist() for p in got] == want


def test_tensor_split_by_a_tensor_gradients():
    x = opyard.arange(6.0, dtype=opyard.float64).reshape(2, 3).requires_grad_()
    assert gradcheck(lambda a: opyard.tensor_split(a, opyard.tensor([1]), 1), [x])


@pytest.mark.parametrize("split, message", [
    (opyard.tensor([[1, 2]]), "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                              "one-dimensional tensor, but got a tensor with 2 dims"),
    (opyard.tensor(2.0), "tensor_split expected tensor_indices_or_sections to have dtype of long, but got Float"),
    (opyard.tensor([1], dtype=opyard.int32), "tensor_split expected tensor_indices_or_sections to have dtype of "
                                             "long, but got Int"),
])
def test_tensor_split_tensor_errors(split, message):
    with pytest.raises(RuntimeError, match=f"^{message}$"):
        opyard.tensor_split(opyard.arange(6), split)


@pytest.mark.parametrize("start, end", [(opyard.tensor(1.5), opyard.tensor(4)), (opyard.tensor(-2), 3.0),
                                        (0.5, opyard.tensor(9.0, dtype=opyard.float64))])
@pytest.mark.parametrize("steps", [0, 1, 2, 7])
def test_linspace_with_tensor_ends_reads_their_values(start, end, steps):
    number = [v.item() if isinstance(v, opyard.Tensor) else v for v in (start, end)]
    got = opyard.linspace(start, end, steps)
    want = opyard.linspace(*number, steps)
    assert got.dtype is opyard.get_default_dtype() and not got.requires_grad
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    np.testing.assert_allclose(got.numpy(), np.linspace(*number, steps), rtol=1e-6)


def test_linspace_of_an_integral_dtype_truncates_the_ends_then_steps_in_double():
    # start 4.3 becomes 4; the values 4 + i * (0 - 4) / 49 truncate toward zero
    got = opyard.linspace(4.3, opyard.tensor(0), 50, dtype=opyard.uint8)
    want = np.trunc(4 + np.arange(50) * (-4 / 49))
    want[25:] = np.trunc(0 - (-4 / 49) * (50 - np.arange(25, 50) - 1))
    np.testing.assert_array_equal(got.numpy(), want.astype(np.uint8))


def test_linspace_tensor_overloads_are_not_differentiable():
    start = opyard.tensor(1.0, requires_grad=True)
    assert not opyard.linspace(start, 3.0, 4).requires_grad
    assert not opyard.logspace(start, 3.0, 4).requires_grad


def test_linspace_refuses_tensors_with_dims():
    with pytest.raises(RuntimeError, match=r"^linspace only supports 0-dimensional start and end tensors, but got "
                                           r"start with 1 dimension\(s\) and end with 0 dimension\(s\)\.$"):
        opyard.linspace(opyard.tensor([1.0, 2.0]), opyard.tensor(3.0), 3)


def test_linspace_of_bool_is_refused():
    with pytest.raises(NotImplementedError, match="\"linspace_cpu\" not implemented for 'Bool'"):
        opyard.linspace(0, 1, 3, dtype=opyard.bool)
