"""The derivative table of the built-in ``aten`` ops and its registration.

``FORMULAS`` maps an overload name to its :class:`~.registry.Formula`;
adding a derivative is one row in ``pointwise.py``, ``reductions.py`` or
``views.py``. :func:`register` installs, on one ``Library("aten", "IMPL")``
kept alive by ``opyard.autograd``, the generic kernel for every row whose op
is defined, the same formula for the in-place variant (``add_.Tensor`` uses
``add.Tensor``'s row), and a pass-through kernel for the ops whose outputs
are never differentiable.
"""

from ... import _core
from ..._aten import COMPOSITE_OPS as _COMPOSITE_OPS
from ..._aten import out_variants as _out_variants
from ..._registration import KernelLibrary
from ..fallback import make_non_differentiable_kernel
from . import decompositions, forward_rows, indexing, linalg, math, nn, pointwise, reduce_more, reductions, trig, views
from .registry import Formula, make_kernel

# ``out=`` overloads of the built-in ops (their Autograd kernel refuses inputs that require grad).
OUT_OPS = _out_variants.OUT_OPS

__all__ = ["FORMULAS", "INPLACE_ALIASES", "NON_DIFFERENTIABLE", "register", "Formula", "inplace_name"]

FORMULAS = {**pointwise.FORMULAS, **reductions.FORMULAS, **views.FORMULAS, **indexing.FORMULAS,
            **nn.FORMULAS, **math.FORMULAS, **reduce_more.FORMULAS, **linalg.FORMULAS,
            **decompositions.FORMULAS, **trig.FORMULAS}
forward_rows.attach(FORMULAS)

# In-place overloads whose name is not ``inplace_name`` of their out-of-place row.
INPLACE_ALIASES = {"aten::pow_.Scalar": "aten::pow.Tensor_Scalar"}

# derivatives.yaml's `output_differentiability: [False]` rows and the
# factories: their outputs never require grad.
NON_DIFFERENTIABLE = (
    "aten::zeros_like", "aten::ones_like", "aten::empty_like", "aten::full_like",
    "aten::rand_like", "aten::randn_like", "aten::new_zeros", "aten::new_ones",
    "aten::new_empty", "aten::new_full", "aten::argmax", "aten::argmin",
    "aten::eq.Tensor", "aten::eq.Scalar", "aten::ne.Tensor", "aten::ne.Scalar",
    "aten::lt.Tensor", "aten::lt.Scalar", "aten::le.Tensor", "aten::le.Scalar",
    "aten::gt.Tensor", "aten::gt.Scalar", "aten::ge.Tensor", "aten::ge.Scalar",
    "aten::isnan", "aten::isclose", "aten::allclose", "aten::nonzero", "aten::randint", "aten::logical_and", "aten::logical_or", "aten::logical_not",
    "aten::detach", "aten::bernoulli", "aten::bernoulli.p",
    "aten::argsort", "aten::argsort.stable", "aten::bucketize.Tensor", "aten::bucketize.Scalar",
    "aten::searchsorted.Tensor", "aten::searchsorted.Scalar", "aten::argwhere", "aten::one_hot",
    "aten::count_nonzero", "aten::view.dtype", "aten::new_empty_strided",
    "aten::repeat_interleave.Tensor", "aten::isin.Tensor_Tensor",
) + trig.NON_DIFFERENTIABLE


def _detach_kernel(op):
    """``detach_``: the tensor keeps its data and drops its history and ``requires_grad``."""
    from .. import _tensor_meta as meta
    from ..grad_mode import _no_grad_guard

    def kernel(keyset, self):
        if getattr(self, "_base", None) is not None and meta.requires_grad(self._base):
            raise RuntimeError("Can't detach views in-place. Use detach() instead.")
        with _no_grad_guard():
            op(self)
        self._grad_fn = None
        meta.set_requires_grad_bit(self, False)
        return self
    return kernel


def inplace_name(name):
    """``aten::add.Tensor`` -> ``aten::add_.Tensor``."""
    base, dot, overload = name.partition(".")
    return f"{base}_{dot}{overload}"


def _find(name):
    op = _core._find_op(name)
    if op is None and "." not in name:
        op = _core._find_op(name + ".default")
    return op


def _on_first_call(op, formula):
    """The Autograd kernel of ``op``, built from ``formula`` on its first call.

    Note [Derivative kernels on first use]: building a formula's kernel (binding data from the
    schema, a node class) costs tens of microseconds, and most processes differentiate a few
    of the hundreds of built-in ops, so import registers this stand-in instead. Its first call
    builds the real kernel and puts it in the stand-in's own registration (same key, library
    and provenance; ``_core._replace_kernel``), so every later call reaches the real kernel
    with no frame of ours in between. Whoever still holds the stand-in (``get_kernel``, a
    racing thread) is forwarded to the one real kernel.
    """
    real = None

    def kernel(keyset, *args, **kwargs):
        nonlocal real
        if real is None:
            built = make_kernel(op, formula)
            _core._replace_kernel(op.name(), "Autograd", kernel, built, True)
            real = built
        return real(keyset, *args, **kwargs)

    return kernel


def register():
    """Register every derivative kernel; returns ``(library, registered, missing)``.

    One core call registers them all (Note [Bulk registration], src/registry/bulk.rs); the
    formula kernels are built on first use (Note [Derivative kernels on first use]).
    """
    lib = KernelLibrary("aten", "IMPL")
    registered, missing, kernels = [], [], []
    rows = [(name, f, name) for name, f in FORMULAS.items()]
    rows += [(alias, FORMULAS[target], target) for alias, target in INPLACE_ALIASES.items()]
    for name, formula, row in rows:
        for target in ((name, inplace_name(name)) if name == row else (name,)):
            if target != name and target in INPLACE_ALIASES:
                continue  # mapped explicitly (pow_.Scalar is not pow.Scalar's in-place form)
            op = _find(target)
            if op is None:
                if target == row:
                    missing.append(name)
                continue
            if op.name() in _COMPOSITE_OPS:
                continue  # autograd records what a CompositeImplicitAutograd op calls (torch's rule)
            kernels.append((op.name(), "Autograd", _on_first_call(op, formula), True))
            registered.append(op.name())
    for name in NON_DIFFERENTIABLE:
        op = _find(name)
        if op is not None:
            kernels.append((op.name(), "Autograd", make_non_differentiable_kernel(op), True))
    op = _find("aten::detach_")
    if op is not None:
        kernels.append((op.name(), "Autograd", _detach_kernel(op), True))
    for name in OUT_OPS:
        op = _find("aten::" + name)
        if op is not None:
            kernels.append((op.name(), "Autograd", nn.make_out_kernel(op), True))
    lib.impl_many(kernels)
    return lib, registered, missing
