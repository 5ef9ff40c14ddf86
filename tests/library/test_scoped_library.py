"""``library._scoped_library``: a library for a block, destroyed when the block ends (torch's test
helper, which ported tests use for every operator they define)."""

import pytest

import opyard
from opyard.library import _scoped_library


def test_definitions_and_kernels_last_for_the_block():
    with _scoped_library("scoped_lib_t", "DEF") as lib:
        lib.define("twice(Tensor x) -> Tensor")
        lib.impl("twice", lambda x: x * 2, "CPU")
        assert opyard.ops.scoped_lib_t.twice(opyard.ones(2)).tolist() == [2.0, 2.0]
    with pytest.raises(AttributeError, match="no operator scoped_lib_t::twice is defined"):
        opyard.ops.scoped_lib_t.twice
    with _scoped_library("scoped_lib_t", "DEF") as lib:  # the name is free again
        lib.define("twice(Tensor x) -> Tensor")


def test_the_library_is_destroyed_when_the_block_raises():
    with pytest.raises(ValueError, match="inside"):
        with _scoped_library("scoped_lib_t2", "DEF") as lib:
            lib.define("f(Tensor x) -> Tensor")
            raise ValueError("inside")
    with _scoped_library("scoped_lib_t2", "DEF") as lib:
        lib.define("f(Tensor x) -> Tensor")


def test_a_fragment_and_an_impl_library():
    with _scoped_library("scoped_lib_t3", "DEF") as lib:
        lib.define("g(Tensor x) -> Tensor")
        with _scoped_library("scoped_lib_t3", "IMPL") as impl:
            impl.impl("g", lambda x: x + 1, "CPU")
            assert opyard.ops.scoped_lib_t3.g(opyard.zeros(1)).tolist() == [1.0]
        with pytest.raises(NotImplementedError):
            opyard.ops.scoped_lib_t3.g(opyard.zeros(1))
