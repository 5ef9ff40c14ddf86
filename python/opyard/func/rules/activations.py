"""Batching rules of the activations: the compositions decompose (their ops batch), and the
randomized leaky relu is refused, as torch's vmap refuses it (its noise is drawn in place,
whatever the randomness mode)."""

from ..._aten import activation_ops
from .norms import decompose

__all__ = ["RULES"]


def _unsupported(op):
    name = op.name()

    def rule(*args, **kwargs):
        raise RuntimeError(f"vmap: we do not yet support {name}. Please file an issue")
    return rule


RULES = {name: decompose(kernel) for name, kernel in activation_ops.COMPOSITE.items()
         if not name.startswith("rrelu")}
RULES.update(dict.fromkeys(("rrelu", "rrelu_", "rrelu_with_noise", "rrelu_with_noise_"), _unsupported))
