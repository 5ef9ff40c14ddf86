"""Kernel and fake-impl results are checked against the schema's returns at the op boundary,
as torch converts them (Note [Checked results] in src/python/binder/returns.rs): what fits
passes unchanged, what torch converts is converted, anything else raises torch's RuntimeError
naming the operator, the key and the schema."""

import numpy as np
import pytest

import opyard
from opyard.fake import FakeTensorMode
from opyard.library import Library

_n = [0]


def _op(returns, kernel, key="CPU"):
    _n[0] += 1
    lib = Library("kernel_results", "FRAGMENT")
    name = f"op{_n[0]}"
    lib.define(f"{name}(Tensor x) -> {returns}")
    lib.impl(name, kernel, key)
    _op.libs.append(lib)
    return getattr(opyard.ops.kernel_results, name)


_op.libs = []

T = opyard.ones(1)

REFUSED = [  # (returns, result, torch's words)
    ("Tensor", lambda x: np.ones(2), r"Unable to cast \[1. 1.\] to Tensor"),
    ("Tensor", lambda x: 1.5, r"Unable to cast 1.5 to Tensor"),
    ("Tensor", lambda x: (x,), r"Unable to cast \(tensor\(\[1.\]\),\) to Tensor"),
    ("Tensor", lambda x: [x, x], r"Unable to cast \[tensor"),
    ("Tensor?", lambda x: 3, r"Unable to cast 3 to Tensor"),
    ("(Tensor, Tensor)", lambda x: x, r"Object of type 'opyard._tensor.Tensor' is not an instance of 'sequence'"),
    ("(Tensor, Tensor)", lambda x: None, r"Object of type 'NoneType' is not an instance of 'sequence'"),
    ("(Tensor, Tensor)", lambda x: (x,), r"expected 2 results but got 1"),
    ("(Tensor, Tensor)", lambda x: (x, x, x), r"expected 2 results but got 3"),
    ("(Tensor, int)", lambda x: (x, "s"), r"Unable to cast Python instance of type str to int"),
    ("int", lambda x: 1.5, r"Unable to cast Python instance of type float to int"),
    ("int", lambda x: None, r"Unable to cast Python instance of type NoneType to int"),
    ("int", lambda x: np.float64(2.0), r"numpy.float64 to int"),
    ("float", lambda x: "s", r"Unable to cast Python instance of type str to float"),
    ("Tensor[]", lambda x: x, r"Unable to cast tensor\(\[1.\]\) to Tensor\[\]"),
    ("Scalar", lambda x: None, r"Cannot cast None to number"),
    ("Scalar", lambda x: x, r"Cannot cast tensor\(\[1.\]\) to number"),
    ("()", lambda x: x, r"Expected the kernel of kernel_results::op\d+ to return None"),
]


@pytest.mark.parametrize("returns, kernel, words", REFUSED)
def test_a_result_that_does_not_fit_raises_naming_op_key_and_schema(returns, kernel, words):
    op = _op(returns, kernel)
    # Not a sequence for a multi-output schema: a TypeError, as torch's cast; else a RuntimeError.
    with pytest.raises(TypeError if "sequence" in words else RuntimeError, match=words) as info:
        op(T)
    text = str(info.value)
    assert "the CPU kernel of kernel_results::op" in text and f"-> {returns}" in text


CONVERTED = [  # (returns, result, what the caller gets), as torch converts them
    ("(Tensor, Tensor)", lambda x: [x, x], lambda r: type(r) is tuple and len(r) == 2),
    ("Tensor[]", lambda x: (x, x), lambda r: type(r) is list and len(r) == 2),
    ("int", lambda x: True, lambda r: r == 1 and type(r) is int),
    ("int", lambda x: np.int64(2), lambda r: r == 2 and type(r) is int),
    ("int", lambda x: opyard.tensor(3), lambda r: r == 3 and type(r) is int),
    ("float", lambda x: 3, lambda r: r == 3.0 and type(r) is float),
    ("float", lambda x: np.float32(1.5), lambda r: r == 1.5 and type(r) is float),
    ("bool", lambda x: None, lambda r: r is False),
    ("bool", lambda x: 2.0, lambda r: r is True),
    ("Scalar", lambda x: np.float64(2.5), lambda r: r == 2.5 and type(r) is float),
    ("Tensor", lambda x: None, lambda r: r is None),  # torch's undefined tensor
    ("Tensor?", lambda x: None, lambda r: r is None),
    ("(Tensor, int)", lambda x: (x, 2), lambda r: r[1] == 2),
]


@pytest.mark.parametrize("returns, kernel, check", CONVERTED)
def test_results_torch_converts_are_converted(returns, kernel, check):
    assert check(_op(returns, kernel)(T))


def test_a_fitting_result_is_returned_as_is():
    out = opyard.ones(2)
    pair = (opyard.ones(1), opyard.zeros(1))
    assert _op("Tensor", lambda x: out)(T) is out
    assert _op("(Tensor, Tensor)", lambda x: pair)(T) is pair


def test_a_tensor_subclass_result_fits():
    class Sub(opyard.Tensor):
        pass

    sub = opyard.ones(1).as_subclass(Sub)
    assert _op("Tensor", lambda x: sub)(T) is sub


def test_fake_impl_results_are_checked_at_the_boundary():
    lib = Library("kernel_results_fake", "FRAGMENT")
    _op.libs.append(lib)
    lib.define("two(Tensor x) -> (Tensor, Tensor)")
    lib.define("one(Tensor x) -> Tensor")
    lib.impl("two", lambda x: (x * 1, x * 2), "CPU")
    lib.impl("one", lambda x: x * 1, "CPU")
    opyard.library.register_fake("kernel_results_fake::two", lambda x: opyard.empty_like(x), lib=lib)
    opyard.library.register_fake("kernel_results_fake::one", lambda x: 7, lib=lib)
    with FakeTensorMode():
        x = opyard.empty(3)
        with pytest.raises(TypeError, match=r"not an instance of 'sequence'.*kernel_results_fake::two"):
            opyard.ops.kernel_results_fake.two(x)
        with pytest.raises(RuntimeError, match=r"Unable to cast 7 to Tensor.*kernel_results_fake::one"):
            opyard.ops.kernel_results_fake.one(x)


def test_built_in_multi_output_ops_still_return_named_tuples():
    r = opyard.ones(2, 3).max(dim=1)
    assert type(r).__name__ == "max" and r.values.tolist() == [1.0, 1.0]
