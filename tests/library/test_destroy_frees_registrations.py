"""Destroying a Library releases everything it registered: its kernels, the
tables that referred to them, its definitions. Memory is bounded by the live
registrations, not by the registration history."""

import gc
import os
import warnings
import weakref

import pytest

import opyard
from opyard import _core, library
from opyard.library import Library

_PAGE = os.sysconf("SC_PAGE_SIZE")
# Before tables were reclaimed: 131.6 MB per 10,000 override cycles, 0.58 MB
# per fallback cycle. What remains is allocator noise.
RSS_BOUND_MB = 8.0


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * _PAGE / 1e6


def rss_growth(cycle, n, warmup=200):
    """RSS growth (MB) over ``n`` calls of ``cycle(i)``, after a warm-up."""
    for i in range(warmup):
        cycle(i)
    gc.collect()
    before = rss_mb()
    for i in range(n):
        cycle(i)
    gc.collect()
    return rss_mb() - before


@pytest.fixture
def long_lived(ns, kt):
    """A defined operator with a CPU kernel, called once so its table is in use."""
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> str")
    lib.impl("f", lambda x: "base", "CPU")
    op = getattr(opyard.ops, ns).f.default
    assert op(kt("CPU")) == "base"
    yield ns, op
    lib._destroy()


def _override(ns, i, kt=None):
    big = bytearray(1000)  # makes a leaked closure visible in RSS

    def kernel(x):
        return f"over{len(big)}"

    over = Library(ns, "IMPL")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        over.impl("f", kernel, "CPU")
    if kt is not None:
        assert getattr(opyard.ops, ns).f.default(kt("CPU")) == "over1000"
    over._destroy()
    return weakref.ref(kernel)


def test_overriding_kernel_is_freed_with_its_library(long_lived, kt):
    ns, op = long_lived
    dead = _override(ns, 0, kt)
    assert dead() is None, "the destroyed library's kernel is still referenced"
    assert op(kt("CPU")) == "base"


@pytest.mark.parametrize("how", ["destroy", "finalizer", "cyclic_gc"])
def test_every_way_of_destroying_frees_the_kernel(long_lived, kt, how):
    ns, op = long_lived

    def kernel(x):
        return "over"

    over = Library(ns, "IMPL")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        over.impl("f", kernel, "CPU")
    ref = weakref.ref(kernel)
    del kernel
    assert op(kt("CPU")) == "over"
    if how == "destroy":
        over._destroy()
    elif how == "cyclic_gc":
        over.me = over
    del over
    gc.collect()
    assert ref() is None
    assert op(kt("CPU")) == "base"


def test_fallback_is_freed_with_its_library(long_lived, kt):
    ns, op = long_lived

    def fallback(op, *args, **kwargs):
        return "fallback"

    lib = Library("_", "IMPL")
    lib.fallback(fallback, "XLA")
    assert op(kt("XLA")) == "fallback"
    ref = weakref.ref(fallback)
    del fallback
    lib._destroy()
    assert ref() is None
    with pytest.raises(NotImplementedError, match="XLA"):
        op(kt("XLA"))


def test_definition_and_its_kernels_are_freed_with_the_defining_library(ns, kt):
    lib = Library(ns, "FRAGMENT")
    lib.define("g(Tensor x, int[] a=[1, 2]) -> str")

    def kernel(x, a=(1, 2)):
        return "g"

    lib.impl("g", kernel, "CPU")
    assert getattr(opyard.ops, ns).g(kt("CPU")) == "g"
    ref = weakref.ref(kernel)
    del kernel
    lib._destroy()
    gc.collect()
    assert ref() is None
    assert _core._find_op(f"{ns}::g") is None
    assert f"{ns}::g" not in library._op_tags


def test_rss_is_flat_over_10k_override_cycles(long_lived):
    ns, _ = long_lived
    grown = rss_growth(lambda i: _override(ns, i), 10_000)
    assert grown < RSS_BOUND_MB, f"RSS grew {grown:.1f} MB over 10,000 override/destroy cycles"


def test_rss_is_flat_over_fallback_cycles(long_lived):
    def cycle(i):
        lib = Library("_", "IMPL")
        lib.fallback(lambda op, *a, **k: bytearray(1000), "TESTING_ONLY_GenericMode")
        lib._destroy()

    grown = rss_growth(cycle, 1_000, warmup=50)
    assert grown < RSS_BOUND_MB, f"RSS grew {grown:.1f} MB over 1,000 fallback cycles"


def test_rss_is_flat_over_define_and_destroy_cycles(ns):
    def cycle(i):
        lib = Library(ns, "FRAGMENT")
        lib.define(f"op{i}(Tensor x, int[] a=[1, 2], float b=0.5) -> Tensor", tags=(opyard.Tag.pt2_compliant_tag,))
        lib.impl(f"op{i}", lambda x, a=(1, 2), b=0.5: x, "CPU")
        getattr(getattr(opyard.ops, ns), f"op{i}")  # cache the packet, forgotten on destroy
        lib._destroy()

    grown = rss_growth(cycle, 5_000)
    assert grown < RSS_BOUND_MB, f"RSS grew {grown:.1f} MB over 5,000 define/destroy cycles"
    assert not [n for n in library._op_tags if n.startswith(f"{ns}::")]
    _core._check_invariants()
