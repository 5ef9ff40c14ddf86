"""Every built-in operator's Meta kernel agrees with its CPU kernel on shape, dtype and strides."""

import re

import pytest

import opyard
from opyard._aten import OP_NAMES, OP_TABLE

from meta_samples import DATA_DEPENDENT, META_REFUSES, NO_META_KERNEL, SAMPLES, A, Maker


def _op(name):
    base, _, overload = name.partition(".")
    return getattr(getattr(A, base), overload or "default")


def test_every_operator_has_a_sample():
    assert sorted(set(OP_NAMES) - set(SAMPLES) - set(DATA_DEPENDENT) - set(NO_META_KERNEL) - set(META_REFUSES)) == []
    assert {row[0] for row in OP_TABLE} == set(OP_NAMES)


def _describe(r):
    if isinstance(r, (list, tuple)):
        return [_describe(x) for x in r]
    if isinstance(r, opyard.Tensor):
        return (tuple(r.shape), r.dtype, r.stride(), r.storage_offset())
    return r


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_meta_matches_cpu(name):
    cpu_args, cpu_kwargs = SAMPLES[name](Maker("cpu"))
    meta_args, meta_kwargs = SAMPLES[name](Maker("meta"))
    real = _op(name)(*cpu_args, **cpu_kwargs)
    fake = _op(name)(*meta_args, **meta_kwargs)
    assert _describe(fake) == _describe(real)
    for r in (fake if isinstance(fake, (list, tuple)) else [fake]):
        if isinstance(r, opyard.Tensor):
            assert r.device.type == "meta"


@pytest.mark.parametrize("name", sorted(DATA_DEPENDENT))
def test_data_dependent_ops_refuse_meta(name):
    args, kwargs = DATA_DEPENDENT[name](Maker("meta"))
    with pytest.raises(NotImplementedError, match=f"aten::{name}: the result depends on the input data"):
        _op(name)(*args, **kwargs)


@pytest.mark.parametrize("name", sorted(NO_META_KERNEL))
def test_ops_without_a_meta_kernel_refuse_meta_as_torch(name):
    args, kwargs = NO_META_KERNEL[name](Maker("meta"))
    with pytest.raises(NotImplementedError, match=f"^aten::{name}: attempted to run this operator with Meta tensors"):
        _op(name)(*args, **kwargs)


@pytest.mark.parametrize("name", sorted(META_REFUSES))
def test_value_reads_refuse_meta_as_torch(name):
    sample, message, *kind = META_REFUSES[name]
    args, kwargs = sample(Maker("meta"))
    pattern = f"^{re.escape(message)}" + ("" if kind else "$")
    with pytest.raises(kind[0] if kind else RuntimeError, match=pattern):
        _op(name)(*args, **kwargs)


def test_meta_views_share_version_and_record_base():
    m = opyard.empty(4, 5, device="meta")
    v = m[1:, 2]
    assert v._base is m and v.stride() == (5,) and v.storage_offset() == 7
    v.add_(1)
    assert m._version == v._version == 1
    assert m.t().is_contiguous() is False and m.t().contiguous().is_contiguous()


def test_meta_in_place_returns_self_and_checks_shapes():
    m = opyard.empty(2, 3, device="meta")
    assert m.mul_(2) is m
    # torch's meta kernel of add_ (in Python) prints the shapes as Python does
    with pytest.raises(RuntimeError, match=r"output with shape opyard.Size\(\[2, 3\]\) doesn't match the broadcast "
                                           r"shape \(4, 2, 3\)"):
        m.add_(opyard.empty(4, 2, 3, device="meta"))
    with pytest.raises(RuntimeError, match=r"output with shape \[2, 3\] doesn't match the broadcast shape \[4, 2, 3\]"):
        m.copy_(opyard.empty(4, 2, 3, device="meta"))


def test_meta_errors_match_cpu():
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x5\)"):
        opyard.empty(2, 3, device="meta").mm(opyard.empty(4, 5, device="meta"))
    with pytest.raises(RuntimeError, match="The size of tensor a \\(3\\) must match the size of tensor b \\(4\\)"):
        opyard.empty(2, 3, device="meta") + opyard.empty(4, device="meta")
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        opyard.empty(2, 3, device="meta").t().view(6)
