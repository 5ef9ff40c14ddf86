"""Built-in operators whose outputs never require grad, beyond those beside their family's formulas:
derivatives.yaml's ``output_differentiability: [False]`` rows (comparisons, ``argmax``, ``nonzero``,
...) and the factories (``*_like``, ``new_*``). Their Autograd kernel passes the call through and
marks nothing (``autograd.fallback.make_non_differentiable_kernel``). A family module may list its
own in ``NON_DIFFERENTIABLE`` beside its ``FORMULAS`` (``trig.py``)."""

NON_DIFFERENTIABLE = (
    "aten::zeros_like", "aten::ones_like", "aten::empty_like", "aten::full_like",
    "aten::rand_like", "aten::randn_like", "aten::new_zeros", "aten::new_ones",
    "aten::new_empty", "aten::new_full", "aten::argmax", "aten::argmin",
    "aten::eq.Tensor", "aten::eq.Scalar", "aten::ne.Tensor", "aten::ne.Scalar",
    "aten::lt.Tensor", "aten::lt.Scalar", "aten::le.Tensor", "aten::le.Scalar",
    "aten::gt.Tensor", "aten::gt.Scalar", "aten::ge.Tensor", "aten::ge.Scalar",
    "aten::isnan", "aten::isclose", "aten::allclose", "aten::nonzero", "aten::randint", "aten::logical_and",
    "aten::logical_or", "aten::logical_not", "aten::detach",
    "aten::argsort", "aten::argsort.stable", "aten::bucketize.Tensor", "aten::bucketize.Scalar",
    "aten::searchsorted.Tensor", "aten::searchsorted.Scalar", "aten::argwhere", "aten::one_hot",
    "aten::count_nonzero", "aten::count_nonzero.dim_IntList", "aten::view.dtype", "aten::new_empty_strided",
    "aten::repeat_interleave.Tensor", "aten::isin.Tensor_Tensor",
    "aten::linspace.Tensor_Tensor", "aten::linspace.Tensor_Scalar", "aten::linspace.Scalar_Tensor",
    "aten::logspace.Tensor_Tensor", "aten::logspace.Tensor_Scalar", "aten::logspace.Scalar_Tensor",
)
