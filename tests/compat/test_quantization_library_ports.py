"""Registration code in the style of quantization libraries, ported by ``import opyard as torch``.

The first module is written the way bitsandbytes registers its ops: schemas
with ``torch.library.define``, fake impls full of ``torch._check`` and
``torch._check_is_size``, data-dependent outputs through
``get_ctx().new_dynamic_size()``, and every reference kernel registered for
the ``"default"`` device type. The second follows executorch / torchao:
``Library("...", "DEF")`` with the 2.1 ``impl`` decorator and fake impls that
branch on ``SymInt`` and use ``sym_max``.
"""

import contextlib
import warnings
from math import prod

import pytest

import opyard as torch
from opyard.fake import FakeTensorMode, ShapeEnv

NS = "compat_bnb"

# --- a bitsandbytes-style module ------------------------------------------------------------------

if hasattr(torch.library, "register_fake"):
    register_fake = torch.library.register_fake
    register_kernel = torch.library.register_kernel
else:  # the fallback the real module keeps for old torch: must not be the branch taken
    register_fake = torch.library.impl_abstract
    register_kernel = torch.library.impl

torch.library.define(f"{NS}::vectorwise_quant", "(Tensor A, float threshold=0.0) -> (Tensor, Tensor, Tensor?)")


@register_fake(f"{NS}::vectorwise_quant")
def _(A: torch.Tensor, threshold=0.0):
    out_row = torch.empty(A.shape, device=A.device, dtype=torch.int8)
    row_stats = torch.empty(prod(A.shape[:-1]), device=A.device, dtype=torch.float32)
    if threshold == 0.0:
        return out_row, row_stats, None
    outlier_cols = torch.library.get_ctx().new_dynamic_size()
    torch._check(outlier_cols <= A.shape[-1], lambda: "more outliers than columns")
    return out_row, row_stats, A.new_empty(outlier_cols, dtype=torch.int64)


@register_kernel(f"{NS}::vectorwise_quant", "default")
def _(A: torch.Tensor, threshold=0.0):
    row_stats = A.abs().amax(dim=-1)
    out = (A * (127.0 / row_stats.view(-1, 1))).round().to(torch.int8)
    if threshold == 0.0:
        return out, row_stats, None
    return out, row_stats, (A.abs() > threshold).any(dim=0).nonzero().view(-1)


torch.library.define(f"{NS}::vectorwise_dequant", "(Tensor A, Tensor stats) -> Tensor")


@register_fake(f"{NS}::vectorwise_dequant")
def _(A: torch.Tensor, stats: torch.Tensor) -> torch.Tensor:
    torch._check(A.dtype == torch.int8, lambda: "A must be int8")
    return torch.empty_like(A, dtype=torch.float32)


@register_kernel(f"{NS}::vectorwise_dequant", "default")
def _(A: torch.Tensor, stats: torch.Tensor):
    return A.to(torch.float32) * stats.view(-1, 1) * (1.0 / 127)


torch.library.define(
    f"{NS}::dequantize_blockwise",
    "(Tensor A, Tensor absmax, int blocksize, ScalarType dtype) -> Tensor")
torch.library.define(
    f"{NS}::dequantize_blockwise.out",
    "(Tensor A, Tensor absmax, int blocksize, ScalarType dtype, Tensor! out) -> ()")


@register_fake(f"{NS}::dequantize_blockwise")
def _(A: torch.Tensor, absmax: torch.Tensor, blocksize: int, dtype: torch.dtype) -> torch.Tensor:
    torch._check_is_size(blocksize)
    torch._check(A.dtype == torch.uint8, lambda: f"A must be uint8, got {A.dtype}")
    return torch.empty_like(A, dtype=dtype)


@register_fake(f"{NS}::dequantize_blockwise.out")
def _(A, absmax, blocksize: int, dtype: torch.dtype, out: torch.Tensor) -> None:
    torch._check_is_size(blocksize)
    torch._check(out.shape == A.shape, lambda: f"Expected out.shape == {A.shape}, got {out.shape}")
    torch._check(out.dtype == dtype, lambda: f"Expected out.dtype == {dtype}, got {out.dtype}")


def _dequant_blocks(A, absmax, blocksize, dtype):
    values = A.to(torch.float32).view(-1, blocksize) * absmax.view(-1, 1) / 255.0
    return values.view(A.shape).to(dtype)


@register_kernel(f"{NS}::dequantize_blockwise", "default")
def _(A, absmax, blocksize: int, dtype: torch.dtype):
    return _dequant_blocks(A, absmax, blocksize, dtype)


@register_kernel(f"{NS}::dequantize_blockwise.out", "default")
def _(A, absmax, blocksize: int, dtype: torch.dtype, out: torch.Tensor) -> None:
    torch._check(out.shape == A.shape, lambda: f"Expected out.shape == {A.shape}, got {out.shape}")
    out.copy_(_dequant_blocks(A, absmax, blocksize, dtype))


ops = torch.ops.compat_bnb


@contextlib.contextmanager
def _ignore_size_deprecation():
    with warnings.catch_warnings():  # catch_warnings(action=...) is Python 3.11's
        warnings.simplefilter("ignore", FutureWarning)
        yield


def test_default_kernels_live_at_composite_explicit_autograd():
    for name in ("vectorwise_quant", "vectorwise_dequant", "dequantize_blockwise.out"):
        qualname = f"{NS}::{name}"
        assert torch._C._dispatch_has_kernel_for_dispatch_key(qualname, "CompositeExplicitAutograd")
        assert not torch._C._dispatch_has_kernel_for_dispatch_key(qualname, "CPU")
        assert "CompositeExplicitAutograd[alias]: registered at" in torch._C._dispatch_dump(qualname)


def test_eager_quant_dequant_round_trip():
    A = torch.tensor([[1.0, -2.0, 8.0], [0.5, 4.0, -1.0]])
    q, stats, outliers = ops.vectorwise_quant(A)
    assert q.dtype == torch.int8 and outliers is None
    assert q.tolist() == [[16, -32, 127], [16, 127, -32]]
    assert torch.allclose(ops.vectorwise_dequant(q, stats), A, atol=0.05)
    _, _, outliers = ops.vectorwise_quant(A, 3.0)
    assert outliers.tolist() == [1, 2]


def test_fake_impls_run_checks_and_make_data_dependent_sizes():
    with FakeTensorMode(shape_env=ShapeEnv(allow_dynamic_output_shape_ops=True)):
        A = torch.empty(4, 16)
        q, stats, outliers = ops.vectorwise_quant(A, 6.0)
        assert q.dtype == torch.int8 and tuple(stats.shape) == (4,)
        (n,) = outliers.shape
        assert isinstance(n, torch.SymInt) and n.value_range() == (0, 16)  # narrowed by torch._check
        with pytest.raises(RuntimeError, match="^A must be int8$"):
            ops.vectorwise_dequant(torch.empty(4, 16), torch.empty(4))


def test_out_overload_and_check_is_size():
    A = torch.tensor([[0, 255], [51, 102]], dtype=torch.uint8)
    absmax = torch.tensor([1.0, 2.0])
    out = torch.empty(2, 2)
    with _ignore_size_deprecation():
        assert ops.dequantize_blockwise.out(A, absmax, 2, torch.float32, out) is None
        assert torch.allclose(out, ops.dequantize_blockwise(A, absmax, 2, torch.float32))
        assert torch.allclose(out, torch.tensor([[0.0, 1.0], [0.4, 0.8]]))
        with FakeTensorMode():
            fake_A = torch.empty(2, 2, dtype=torch.uint8)
            assert ops.dequantize_blockwise(fake_A, torch.empty(2), 2, torch.float16).dtype == torch.float16
            with pytest.raises(RuntimeError, match=r"Expected cond to be True"):
                ops.dequantize_blockwise(fake_A, torch.empty(2), -2, torch.float16)
            with pytest.raises(RuntimeError, match=r"Expected out.shape == opyard.Size\(\[2, 2\]\)"):
                ops.dequantize_blockwise.out(fake_A, torch.empty(2), 2, torch.float32, torch.empty(3))


def test_opcheck_passes_on_the_default_kernels():
    # Forward-only ops with inputs that do not require grad: every default opcheck test passes.
    A = torch.tensor([[1.0, -2.0, 8.0], [0.5, 4.0, -1.0]])
    torch.library.opcheck(ops.vectorwise_quant.default, (A,))
    q, stats, _ = ops.vectorwise_quant(A)
    torch.library.opcheck(ops.vectorwise_dequant.default, (q, stats))


# --- an executorch / torchao-style module ----------------------------------------------------------

from opyard.library import Library, impl  # noqa: E402

qlib = Library("compat_qd", "DEF")
qlib.define("quantize_per_tensor(Tensor input, float scale, int zero_point, int quant_min, int quant_max, "
            "ScalarType dtype) -> Tensor")
qlib.define("pack_rows(Tensor x, int group_size) -> Tensor")


@impl(qlib, "quantize_per_tensor", "CompositeExplicitAutograd")
def quantize_per_tensor(input, scale, zero_point, quant_min, quant_max, dtype):
    torch._check(input.dtype == torch.float32, lambda: f"Expecting input to have dtype torch.float32, got {input.dtype}")
    return (input / scale + zero_point).round().clamp(quant_min, quant_max).to(dtype)


@impl(qlib, "quantize_per_tensor", "Meta")
def quantize_per_tensor_meta(input, scale, zero_point, quant_min, quant_max, dtype):
    torch._check(input.dtype == torch.float32, lambda: f"Expecting input to have dtype torch.float32, got {input.dtype}")
    return torch.empty_like(input, dtype=dtype)


@impl(qlib, "pack_rows", "CompositeExplicitAutograd")
def pack_rows(x, group_size):
    rows = max(x.shape[0], group_size)
    return torch.zeros(rows, x.shape[1])


@torch.library.register_fake("compat_qd::pack_rows")
def _(x, group_size: int):
    rows = x.shape[0]
    if isinstance(rows, torch.SymInt):
        rows = torch.sym_max(rows, group_size)  # no branch on a symbolic size
    else:
        rows = max(rows, group_size)
    return x.new_empty(rows, x.shape[1])


def test_2_1_impl_decorators_with_meta_kernel_and_check():
    x = torch.tensor([0.1, 0.5, -2.0])
    q = torch.ops.compat_qd.quantize_per_tensor(x, 0.01, 0, -128, 127, torch.int8)
    assert q.tolist() == [10, 50, -128]
    with FakeTensorMode():
        out = torch.ops.compat_qd.quantize_per_tensor(torch.empty(5), 0.1, 0, -128, 127, torch.int8)
        assert out.dtype == torch.int8 and tuple(out.shape) == (5,)
    with pytest.raises(RuntimeError, match="Expecting input to have dtype torch.float32, got opyard.int64"):
        torch.ops.compat_qd.quantize_per_tensor(torch.tensor([1, 2]), 0.1, 0, -128, 127, torch.int8)


def test_fake_impl_with_sym_max_traces_symbolically():
    gm = torch.fx.make_fx(lambda x: torch.ops.compat_qd.pack_rows(x, 8), tracing_mode="symbolic")(torch.ones(3, 2))
    assert tuple(gm(torch.ones(3, 2)).shape) == (8, 2)
    assert tuple(gm(torch.ones(11, 2)).shape) == (11, 2)
    with FakeTensorMode():
        assert tuple(torch.ops.compat_qd.pack_rows(torch.empty(20, 4), 8).shape) == (20, 4)
