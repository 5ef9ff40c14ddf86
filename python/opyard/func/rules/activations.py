"""Batching rules of the activations and dropout: the compositions decompose (their ops batch,
and the dropout noise is drawn by ``rand_like``, which follows vmap's randomness mode);
``native_dropout`` draws its mask for the whole batch ("different") or once ("same"); the
randomized leaky relu is refused, as torch's vmap refuses it (its noise is drawn in place,
whatever the randomness mode)."""

from ..._aten import activation_ops, dropout_ops
from ..batched import current_layer
from .common import aten, wrap
from .norms import decompose

__all__ = ["RANDOM_OPS", "RULES"]

_select = aten("select.int")
_expand = aten("expand")
_backward = aten("native_dropout_backward")


def _unsupported(op):
    name = op.name()

    def rule(*args, **kwargs):
        raise RuntimeError(f"vmap: we do not yet support {name}. Please file an issue")
    return rule


def _native_dropout_rule(op):
    """One mask for every example's elements ("different": drawn over the physical batch), or one
    example's mask applied to all ("same")."""
    def rule(input, p, train=None):
        value = input._value
        layer = current_layer()
        if layer is not None and layer.randomness == "same" and train is not False:
            _, mask = op(_select(value, 0, 0), p, train)
            mask = _expand(mask, list(value.shape))
            scale = 0.0 if p == 1 else 1.0 / (1 - p)
            return wrap(_backward(value, mask, scale), input._level), wrap(mask, input._level)
        out, mask = op(value, p, train)
        return wrap(out, input._level), wrap(mask, input._level)
    return rule


RULES = {name: decompose(kernel) for name, kernel in activation_ops.COMPOSITE.items()
         if not name.startswith("rrelu")}
RULES.update({name: decompose(kernel) for name, kernel in dropout_ops.COMPOSITE.items()})
RULES.update(dict.fromkeys(("rrelu", "rrelu_", "rrelu_with_noise", "rrelu_with_noise_"), _unsupported))
RULES["native_dropout"] = _native_dropout_rule
# Random ops with a ``VmapMode`` kernel (name -> index of a size argument, None for none).
RANDOM_OPS = {"native_dropout": None}
