"""Rust CPU kernels for the hottest built-in ops, registered over their Python kernels.

Each ``_core.RustKernel`` runs a Rust loop for the common call (plain CPU tensors
holding contiguous float32/float64/int32/int64 arrays of one dtype, equal shapes
or a single element or a Python number, default arguments, small enough; for
``expand``, ``detach``, ``alias`` and the shape views (``view``, ``reshape``, ``t``, ``transpose``,
``permute``, ``unsqueeze``, ``squeeze``, ``select``, ``slice``, ``narrow``), the same numpy view as the
Python kernel's, made without a frame; for
``add_``/``sub_``/``mul_``, the same in-place update and version bump, the operand
read through its strides when it is a view such as an expanded gradient) and
otherwise calls the Python kernel it wraps (``__wrapped__``), which stays the
readable definition and the behaviour of every other case: see Note [Rust
kernels] in ``src/python/kernels_py/mod.rs``. Imported by ``opyard._aten`` once the
Python kernels are registered; the Rust kernel is registered on top at the CPU key.

Example::

    >>> opyard.ops.aten.add.Tensor(opyard.ones(2), opyard.ones(2))   # the Rust loop
    tensor([2., 2.])
"""

import importlib
import warnings

import numpy as np

from .. import _core
from .._registration import KernelLibrary, _warned_overrides
from .._tensor import _make
from ._index import packet_rows as _packet_rows

__all__ = ["LIB", "PYTHON_KERNELS", "register"]

# The Python kernel each Rust kernel falls back to, by ``name.overload``: found through the index's
# rows (its kernel module and table), so that a kernel module loads only once one of its packets is
# defined (Note [Kernel modules on first use], ``_aten/__init__.py``), not with this module.
PYTHON_KERNELS: dict  # built on first read (``__getattr__``)
_RUST = frozenset(_core.RustKernel.ops())


def _python_kernel(name):
    module, path = next((row[1], row[2]) for row in _packet_rows("aten::" + name.partition(".")[0])
                        if row[0] == name)
    table = importlib.import_module(f"{__package__}.{module}")
    for part in path.split("."):
        table = getattr(table, part)
    return table[name]


def __getattr__(name):
    """``PYTHON_KERNELS``: every Rust kernel's Python kernel, by name (loads their modules), built on
    first read."""
    if name != "PYTHON_KERNELS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()["PYTHON_KERNELS"] = {n: _python_kernel(n) for n in _core.RustKernel.ops()}
    return value


LIB = KernelLibrary("aten", "IMPL")


def register(names):
    """Register the Rust kernels of the overloads ``names`` (``aten::add.Tensor``), just defined with
    their Python kernels: ``opyard._aten`` runs this as each packet is defined (Note [Operators
    defined on first use], src/python/dispatch/lazy.rs). With the fast paths off (``OPYARD_FASTPATH=0``)
    the Python kernels stay: See Note [Fast paths and general paths] in src/python/hooks.rs."""
    if not _core.FAST_PATHS:
        return
    mine = [name for name in (q.partition("::")[2] for q in names) if name in _RUST]
    if "sum" in mine and not _sums_as_numpy():
        mine.remove("sum")
    # Replacing the Python kernel is the point here, not a user's accident: no override
    # warning, and a user's own later override of these kernels still warns once.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for name in mine:
            LIB.impl(name, _core.RustKernel(name, _python_kernel(name)), "CPU")
    for name in mine:
        _warned_overrides.discard((f"aten::{name}", "CPU"))


def _sums_as_numpy():
    """Whether the Rust float ``sum`` (Note [Pairwise sum], src/kernels/reduce.rs) gives this numpy's
    bits on a buffer past numpy's ufunc buffer size: numpy before 2.3 sums such a buffer in chunks
    of that size, which the Rust loop does not reproduce. Where the two differ, ``sum`` keeps its
    Python kernel: a fast path must equal its general path. Runs once, when ``sum`` is defined."""
    x = np.sin(np.arange(16_387.0)) * 1e3  # two buffers and more; varied values, no numpy.random
    kernel = _core.RustKernel("sum", _python_kernel("sum"))
    return all(kernel(_make(x.astype(dt))).numpy().tobytes() == np.add.reduce(x.astype(dt)).tobytes()
               for dt in (np.float32, np.float64))
