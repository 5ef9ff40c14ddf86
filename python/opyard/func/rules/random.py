"""Batching rules of the samplers. Every sampler also gets the ``VmapMode`` kernel of the randomness
policy (``RANDOM_OPS``): under ``randomness="error"`` (vmap's default) a draw raises, under
``"different"`` each example draws its own values, under ``"same"`` the examples share one draw.

The in-place samplers draw into the physical tensor (or one example's worth, copied to every
example, for ``"same"``); ``bernoulli`` reads a probability per element, so the physical call serves
the batch; ``bernoulli.p`` and ``randint_like`` only read ``self``'s shape and dtype; ``multinomial``
draws for the batch's rows in one call. ``bernoulli_.Tensor`` goes through the per-example fallback."""

from ..batched import current_layer, wrap
from .common import aten
from .misc import random_inplace_rule
from .pointwise import pointwise_rule, unary_rule

__all__ = ["RULES", "RANDOM_OPS"]


def random_like_rule(op):
    """Ops drawing a tensor like ``self`` (its shape and dtype, not its values) with more arguments."""
    select = aten("select.int")

    def rule(self, *args, **kwargs):
        layer = current_layer()
        if layer is not None and layer.randomness == "same":
            return op(select(self._value, 0, 0), *args, **kwargs)
        return wrap(op(self._value, *args, **kwargs), self._level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


def multinomial_rule(op):
    """``multinomial``: each example's distributions are rows of one physical call."""
    select, reshape = aten("select.int"), aten("reshape")

    def rule(self, num_samples, replacement=False, **kwargs):
        value = self._value
        if value.dim() == 2:
            return wrap(op(value, num_samples, replacement, **kwargs), self._level)
        if value.dim() == 3:
            b, rows, n = value.shape
            r = op(reshape(value, [b * rows, n]), num_samples, replacement, **kwargs)
            return wrap(reshape(r, [b, rows, r.shape[-1]]), self._level)
        return op(select(value, 0, 0), num_samples, replacement, **kwargs)  # torch's error for the rank
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


def std_rule(op):
    """``normal.float_Tensor``: a draw per element of the batched ``std``."""
    def rule(mean, std, **kwargs):
        return wrap(op(mean, std._value, **kwargs), std._level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


_INPLACE = ("cauchy_", "exponential_", "geometric_", "log_normal_", "bernoulli_.float", "random_.from", "random_.to",
            "random_")
_LIKE = ("bernoulli.p", "randint_like", "randint_like.generator", "randint_like.Tensor",
         "randint_like.Tensor_generator", "randint_like.low_dtype", "randint_like.low_generator_dtype")

RULES = {
    **dict.fromkeys(_INPLACE, random_inplace_rule),
    **dict.fromkeys(_LIKE, random_like_rule),
    "bernoulli": unary_rule,
    "multinomial": multinomial_rule,
    "normal.Tensor_float": unary_rule,
    "normal.float_Tensor": std_rule,
    "normal.Tensor_Tensor": pointwise_rule,
    "rand_like.generator": random_like_rule,
    "randn_like.generator": random_like_rule,
    "poisson": unary_rule,
    "binomial": pointwise_rule,
}

# name -> index of the size argument (None: the draw's shape is a tensor argument's)
RANDOM_OPS = {
    **dict.fromkeys(_INPLACE + _LIKE + ("bernoulli", "bernoulli_.Tensor", "multinomial", "normal.Tensor_float",
                                        "normal.float_Tensor", "normal.Tensor_Tensor")),
    "normal.float_float": 2,
    **dict.fromkeys(("rand_like.generator", "randn_like.generator", "poisson", "binomial")),
    "rand.generator": 0, "randn.generator": 0, "randint.generator": 1, "randint.low": 2, "randint.low_generator": 2,
}

from ..._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
