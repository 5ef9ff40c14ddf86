"""The README's "Porting torch.library code" example, as ported: it runs and the gate is taken."""

import warnings

import pytest

import opyard as torch

torch.library.define("compat_readme::dequant", "(Tensor A, Tensor stats, int blocksize) -> Tensor")


@torch.library.register_fake("compat_readme::dequant")
def _(A, stats, blocksize):
    torch._check_is_size(blocksize)
    torch._check(A.dtype == torch.int8, lambda: f"A must be int8, got {A.dtype}")
    return torch.empty_like(A, dtype=torch.float32)


@torch.library.register_kernel("compat_readme::dequant", "default")
def _(A, stats, blocksize):
    return A.to(torch.float32) * stats.view(-1, 1) / 127


if torch.version.torch_api >= "2.4":
    torch.library.register_autograd("compat_readme::dequant", lambda ctx, g: (g, None, None))


def test_ported_module_runs_eagerly_and_under_fake_tensors():
    A = torch.tensor([[127, -127], [0, 64]], dtype=torch.int8)
    out = torch.ops.compat_readme.dequant(A, torch.tensor([2.0, 1.0]), 2)
    assert torch.allclose(out, torch.tensor([[2.0, -2.0], [0.0, 64 / 127]]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        with torch.fake.FakeTensorMode():
            assert torch.ops.compat_readme.dequant(torch.empty(3, 2, dtype=torch.int8), torch.empty(3), 2).dtype \
                == torch.float32
            with pytest.raises(RuntimeError, match="A must be int8, got opyard.float32"):
                torch.ops.compat_readme.dequant(torch.empty(3, 2), torch.empty(3), 2)


def test_the_gated_registration_happened():
    assert torch._C._dispatch_has_kernel_for_dispatch_key("compat_readme::dequant", "Autograd")
