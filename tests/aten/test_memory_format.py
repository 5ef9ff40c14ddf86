"""channels_last / channels_last_3d: strides as torch computes them, the contiguity checks,
conversions (``to``, ``contiguous``, ``clone``, ``empty``, ``*_like``) and pointwise ops keeping
the layout; the Meta kernels agree."""

import numpy as np
import pytest

import opyard

CL, CL3 = opyard.channels_last, opyard.channels_last_3d


def test_formats_are_exported_and_print_as_torch():
    assert repr(CL) == "opyard.channels_last" and repr(CL3) == "opyard.channels_last_3d"


@pytest.mark.parametrize("shape, fmt, strides", [
    ((2, 3, 4, 5), CL, (60, 1, 15, 3)),
    ((2, 1, 4, 1), CL, (4, 1, 1, 1)),
    ((2, 3, 4, 5, 6), CL3, (360, 1, 90, 18, 3)),
])
@pytest.mark.parametrize("device", ["cpu", "meta"])
def test_empty_in_a_memory_format_has_torchs_strides(shape, fmt, strides, device):
    t = opyard.empty(*shape, memory_format=fmt, device=device)
    assert t.stride() == strides and t.is_contiguous(memory_format=fmt)


def test_to_channels_last_keeps_values_and_lays_out_nhwc():
    x = opyard.randn(2, 3, 4, 5)
    y = x.to(memory_format=CL)
    assert y.stride() == (60, 1, 15, 3) and not y.is_contiguous() and y.is_contiguous(memory_format=CL)
    np.testing.assert_array_equal(y.numpy(), x.numpy())
    assert y.to(memory_format=CL) is y and y.contiguous(memory_format=CL) is y
    assert y.contiguous().stride() == (60, 20, 5, 1)
    # N111-like strides are ambiguous for torch: converting copies into real NHWC strides
    assert opyard.randn(2, 1, 4, 1).to(memory_format=CL).stride() == (4, 1, 1, 1)


@pytest.mark.parametrize("device", ["cpu", "meta"])
def test_pointwise_ops_and_like_factories_keep_channels_last(device):
    y = opyard.empty(2, 3, 4, 5, memory_format=CL, device=device)
    for r in (y + 1, y.sin(), y * y, opyard.empty_like(y), opyard.zeros_like(y), y.clone()):
        assert r.stride() == (60, 1, 15, 3), r
    assert opyard.empty_like(y, memory_format=opyard.contiguous_format).stride() == (60, 20, 5, 1)
    assert y.clone(memory_format=opyard.contiguous_format).is_contiguous()


def test_contiguity_of_other_ranks_and_formats():
    x = opyard.randn(2, 3)
    assert x.is_contiguous(memory_format=CL) is False
    z = opyard.empty(2, 3, 1, 1)
    assert z.is_contiguous() and z.is_contiguous(memory_format=CL)  # size-1 dims are free


@pytest.mark.parametrize("fn", [
    lambda: opyard.randn(2, 3).to(memory_format=CL),
    lambda: opyard.randn(2, 3).contiguous(memory_format=CL),
    lambda: opyard.empty(2, 3, memory_format=CL),
    lambda: opyard.randn(2, 3, 4, 5).clone(memory_format=CL3),
])
def test_wrong_rank_raises_torchs_message(fn):
    with pytest.raises(RuntimeError, match=r"required rank (4|5) tensor to use channels_last(_3d)? format"):
        fn()


def test_gradient_flows_through_a_layout_change():
    x = opyard.randn(1, 2, 2, 2, dtype=opyard.float64, requires_grad=True)
    (x.to(memory_format=CL) * 3).sum().backward()
    assert x.grad.tolist() == np.full((1, 2, 2, 2), 3.0).tolist()


def _transposed(device):
    """A (4, 3) tensor with strides (1, 4)."""
    return opyard.randn(3, 4, device=device).t()


# layouts torch 2.15 gives for a transposed (4, 3) input (strides (1, 4))
LAYOUTS = [
    ("atan2(transposed, contiguous)", lambda x: opyard.atan2(x, opyard.ones(4, 3, device=x.device)), (1, 4)),
    ("sinc", lambda x: opyard.sinc(x), (1, 4)),
    ("index_fill", lambda x: opyard.index_fill(x, 0, opyard.tensor([1], device=x.device), 1.0), (1, 4)),
    ("index_copy", lambda x: opyard.index_copy(x, 0, opyard.tensor([1], device=x.device),
                                               opyard.ones(1, 3, device=x.device)), (3, 1)),
    ("scatter_reduce", lambda x: opyard.scatter_reduce(x, 0, opyard.tensor([[0, 1, 2]], device=x.device),
                                                       opyard.ones(1, 3, device=x.device), "sum"), (3, 1)),
    ("cumsum", lambda x: opyard.cumsum(x, 0), (3, 1)),
    ("cumprod", lambda x: opyard.cumprod(x, 0), (3, 1)),
    ("cummax", lambda x: opyard.cummax(x, 0).values, (3, 1)),
    ("tril", lambda x: opyard.tril(x), (3, 1)),
]


@pytest.mark.parametrize("name, fn, strides", LAYOUTS, ids=[row[0] for row in LAYOUTS])
@pytest.mark.parametrize("device", ["cpu", "meta"])
def test_results_of_non_contiguous_inputs_are_laid_out_as_torchs(name, fn, strides, device):
    assert fn(_transposed(device)).stride() == strides
