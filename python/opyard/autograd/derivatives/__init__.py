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
from ..._aten import COMPOSITE_OPS as _COMPOSITE_OPS, OP_NAMES as _OP_NAMES, on_define as _on_define
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

    The built-in packets are defined on first use (Note [Operators defined on first use],
    src/python/lazy.rs): this plans each overload's Autograd kernel by name, and the rows of a
    packet are registered by one core call once it is defined (Note [Bulk registration],
    src/registry/bulk.rs). The formula kernels are built on first call (Note [Derivative kernels
    on first use]).
    """
    lib = KernelLibrary("aten", "IMPL")
    known = {"aten::" + name.removesuffix(".default") for name in _OP_NAMES}
    plan = {}  # overload name -> builders ``op -> Autograd kernel``, in registration order
    registered, missing = [], []

    def add(name, build):
        name = name.removesuffix(".default")
        if name not in known:
            return False
        plan.setdefault(name, []).append(build)
        return True

    rows = [(name, f, name) for name, f in FORMULAS.items()]
    rows += [(alias, FORMULAS[target], target) for alias, target in INPLACE_ALIASES.items()]
    for name, formula, row in rows:
        for target in ((name, inplace_name(name)) if name == row else (name,)):
            if target != name and target in INPLACE_ALIASES:
                continue  # mapped explicitly (pow_.Scalar is not pow.Scalar's in-place form)
            qualified = target.removesuffix(".default")
            if qualified not in known:
                if target == row:
                    missing.append(name)
                continue
            if qualified in _COMPOSITE_OPS:
                continue  # autograd records what a CompositeImplicitAutograd op calls (torch's rule)
            add(qualified, lambda op, formula=formula: _on_first_call(op, formula))
            registered.append(qualified)
    for name in NON_DIFFERENTIABLE:
        add(name, make_non_differentiable_kernel)
    add("aten::detach_", _detach_kernel)
    for name in OUT_OPS:
        add("aten::" + name, nn.make_out_kernel)

    def register_defined(names):
        kernels = [(name, "Autograd", build(_core._find_op(name)), True)
                   for name in names for build in plan.get(name, ())]
        if kernels:
            lib.impl_many(kernels)

    _on_define(register_defined)
    return lib, registered, missing
