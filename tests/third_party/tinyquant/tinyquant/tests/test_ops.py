import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.proxy_tensor import make_fx

import tinyquant


def test_quantize_rounds_and_saturates():
    x = torch.tensor([0.26, -0.74, 100.0, -100.0])
    q = tinyquant.quantize(x, 0.5)
    assert q.dtype == torch.int8
    assert q.tolist() == [1, -1, 127, -128]


def test_dequantize_is_the_cpu_kernel():
    q = torch.tensor([1, -2, 127], dtype=torch.int8)
    assert torch.allclose(tinyquant.dequantize(q, 0.5), torch.tensor([0.5, -1.0, 63.5]))
    assert torch._C._dispatch_has_kernel_for_dispatch_key("tinyquant::dequantize", "CPU")


def test_fake_quant_error_is_within_half_a_step():
    x = torch.randn(64)
    scale = tinyquant.scale_for(x)
    assert (tinyquant.fake_quant(x, scale) - x).abs().max() <= scale / 2 + 1e-6


def test_straight_through_gradient():
    x = torch.tensor([0.1, 0.2, 1000.0], requires_grad=True)
    tinyquant.fake_quant(x, 0.01).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 0.0]


def test_clamp_mutates_in_place():
    x = torch.tensor([-3.0, 0.5, 3.0])
    assert tinyquant.clamp_(x, 1.0) is None
    assert x.tolist() == [-1.0, 0.5, 1.0]


def test_fake_tensors_carry_dtype_and_shape():
    with FakeTensorMode() as mode:
        x = mode.from_tensor(torch.randn(4, 3))
        q = tinyquant.quantize(x, 0.1)
        assert (q.shape, q.dtype) == ((4, 3), torch.int8)
        assert tinyquant.dequantize(q, 0.1).dtype == torch.float32
        with pytest.raises(RuntimeError, match="expected an int8 tensor"):
            tinyquant.dequantize(x, 0.1)


def test_traced_graph_calls_the_operators():
    gm = make_fx(lambda x: tinyquant.fake_quant(x, 0.1) + 1, tracing_mode="fake")(torch.randn(5))
    assert "tinyquant.fake_quant.default" in gm.code


@pytest.mark.parametrize("op, args", [
    (torch.ops.tinyquant.quantize.default, (torch.randn(3, 4), 0.05)),
    (torch.ops.tinyquant.fake_quant.default, (torch.randn(3, requires_grad=True), 0.05)),
    (torch.ops.tinyquant.dequantize.default, (torch.tensor([3, -4], dtype=torch.int8), 0.5)),
])
def test_opcheck(op, args):
    torch.library.opcheck(op, args)
