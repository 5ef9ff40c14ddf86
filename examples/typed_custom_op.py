"""A custom operator written with types, as a user of opyard writes one.

``make lint`` checks this file with ``mypy --strict``; ``python examples/typed_custom_op.py`` runs it.
"""

from collections.abc import Callable
from typing import Any

import numpy as np

import opyard
from opyard import Tensor
from opyard.fake import FakeTensorMode
from opyard.func import grad, vmap
from opyard.library import CustomOpDef, Library, custom_op, opcheck, register_fake


@custom_op("typed_example::scaled_sin", mutates_args=())
def scaled_sin(x: Tensor, scale: float) -> Tensor:
    return opyard.from_numpy(np.sin(x.numpy()) * scale)


@scaled_sin.register_fake
def _(x: Tensor, scale: float) -> Tensor:
    return x.new_empty(x.shape)


# ``ctx`` carries what forward saves for backward (its own attributes too): typed Any, as torch types it.
def setup_context(ctx: Any, inputs: tuple[Tensor, float], output: Tensor) -> None:
    ctx.save_for_backward(inputs[0])
    ctx.scale = inputs[1]


def backward(ctx: Any, grad_out: Tensor) -> tuple[Tensor, None]:
    (x,) = ctx.saved_tensors
    return grad_out * x.cos() * ctx.scale, None


scaled_sin.register_autograd(backward, setup_context=setup_context)

# The 2.1 API: a library, a schema, a kernel per key.
lib = Library("typed_example", "FRAGMENT")
lib.define("twice(Tensor x) -> Tensor")


def twice_cpu(x: Tensor) -> Tensor:
    return x + x


lib.impl("twice", twice_cpu, "CPU")
register_fake("typed_example::twice", lambda x: x.new_empty(x.shape))


def loss(x: Tensor) -> Tensor:
    y: Tensor = scaled_sin(x, 2.0)  # the op's call is typed as its function: (Tensor, float) -> Tensor
    return (y * y).sum()


def main() -> None:
    x = opyard.randn(5, requires_grad=True)
    loss(x).backward()
    assert x.grad is not None
    expected = 8 * (2 * x.detach()).sin() / 2  # d/dx (2 sin x)^2 = 8 sin x cos x
    print("gradient matches:", opyard.allclose(x.grad, expected))

    op: CustomOpDef[[Tensor, float], Tensor] = scaled_sin
    results: dict[str, str] = opcheck(op, (x.detach(), 2.0))
    print("opcheck:", sorted(set(results.values())))

    with FakeTensorMode() as mode:
        fake = mode.from_tensor(opyard.randn(3, 4))
        print("fake shape:", tuple(scaled_sin(fake, 1.0).shape))

    per_row: Callable[..., Tensor] = vmap(lambda row: row.sum() * 2)
    print("vmap:", per_row(opyard.ones(2, 3)).tolist())
    dloss: Callable[..., Tensor] = grad(loss)
    print("grad:", dloss(x.detach()).shape)
    print("twice:", opyard.ops.typed_example.twice(opyard.ones(2)).tolist())
    n: int = x.size(0)
    values, indices = x.detach().max(0)
    print("sizes:", n, x.shape, values.shape, indices.dtype)


if __name__ == "__main__":
    main()
