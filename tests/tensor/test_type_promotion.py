"""torch's type promotion: the promote_types table, wrapped Python scalars, zero-dim tensors."""

import itertools

import pytest

import opyard

D = {"u1": opyard.uint8, "i1": opyard.int8, "i2": opyard.int16, "i4": opyard.int32, "i8": opyard.int64,
     "f2": opyard.float16, "f4": opyard.float32, "f8": opyard.float64, "c4": opyard.complex64,
     "c8": opyard.complex128, "b1": opyard.bool}

# c10/core/ScalarType.cpp's promotion lookup, restricted to the dtypes opyard has.
TABLE = """
    u1 i1 i2 i4 i8 f2 f4 f8 c4 c8 b1
u1  u1 i2 i2 i4 i8 f2 f4 f8 c4 c8 u1
i1  i2 i1 i2 i4 i8 f2 f4 f8 c4 c8 i1
i2  i2 i2 i2 i4 i8 f2 f4 f8 c4 c8 i2
i4  i4 i4 i4 i4 i8 f2 f4 f8 c4 c8 i4
i8  i8 i8 i8 i8 i8 f2 f4 f8 c4 c8 i8
f2  f2 f2 f2 f2 f2 f2 f4 f8 c4 c8 f2
f4  f4 f4 f4 f4 f4 f4 f4 f8 c4 c8 f4
f8  f8 f8 f8 f8 f8 f8 f8 f8 c8 c8 f8
c4  c4 c4 c4 c4 c4 c4 c4 c8 c4 c8 c4
c8  c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8
b1  u1 i1 i2 i4 i8 f2 f4 f8 c4 c8 b1
"""


def _table():
    lines = TABLE.strip().splitlines()
    cols = lines[0].split()
    for line in lines[1:]:
        row, *cells = line.split()
        for col, cell in zip(cols, cells):
            yield row, col, cell


CASES = list(_table())


@pytest.mark.parametrize("a, b, expected", CASES)
def test_promote_types_table(a, b, expected):
    assert opyard.promote_types(D[a], D[b]) is D[expected]


@pytest.mark.parametrize("a, b, expected", CASES)
def test_binary_ops_follow_the_table(a, b, expected):
    x, y = opyard.ones(2, dtype=D[a]), opyard.ones(2, dtype=D[b])
    assert opyard.mul(x, y).dtype is D[expected]
    assert (x == y).dtype is opyard.bool
    want_div = D[expected] if D[expected].is_floating_point or D[expected].is_complex else opyard.float32
    assert (x / y).dtype is want_div


# (tensor dtype, Python scalar, result): a wrapped number only raises the category.
SCALARS = [
    ("i4", 2, "i4"), ("i8", 2.5, "f4"), ("u1", 300, "u1"), ("b1", 1, "i8"), ("b1", True, "b1"),
    ("b1", 1.5, "f4"), ("f2", 1.0, "f2"), ("f2", 2, "f2"), ("f8", 1, "f8"), ("i4", 1j, "c4"),
    ("f4", 1j, "c4"), ("f8", 1j, "c8"), ("f2", 1j, "c4"), ("c4", 2.0, "c4"),
]


@pytest.mark.parametrize("a, scalar, expected", SCALARS)
def test_wrapped_scalars_are_weaker_than_tensors(a, scalar, expected):
    x = opyard.ones(2, dtype=D[a])
    assert opyard.add(x, scalar).dtype is D[expected]
    assert opyard.mul(x, scalar).dtype is D[expected]


@pytest.mark.parametrize("dimensioned, zero_dim, expected", [
    ("f4", "f8", "f4"), ("i4", "i8", "i4"), ("i4", "f8", "f8"), ("u1", "i8", "u1"),
    ("f2", "c8", "c4"), ("b1", "i8", "i8"), ("i8", "f2", "f2"),
])
def test_zero_dim_tensors_are_weaker_than_dimensioned_ones(dimensioned, zero_dim, expected):
    x = opyard.ones(3, dtype=D[dimensioned])
    z = opyard.tensor(1, dtype=D[zero_dim])
    assert (x + z).dtype is D[expected] and (z + x).dtype is D[expected]


def test_zero_dim_with_zero_dim_uses_the_table():
    assert (opyard.tensor(1, dtype=opyard.int32) + opyard.tensor(1.0, dtype=opyard.float64)).dtype is opyard.float64


@pytest.mark.parametrize("a", sorted(D))
def test_integral_division_gives_the_default_float(a):
    x = opyard.ones(2, dtype=D[a])
    expected = D[a] if D[a].is_floating_point or D[a].is_complex else opyard.get_default_dtype()
    assert (x / 2).dtype is expected


def test_default_dtype_changes_inference_and_division():
    try:
        opyard.set_default_dtype(opyard.float64)
        assert opyard.tensor([1.5]).dtype is opyard.float64
        assert (opyard.tensor([1]) / 2).dtype is opyard.float64
        assert opyard.tensor([1j]).dtype is opyard.complex128
    finally:
        opyard.set_default_dtype(opyard.float32)
    with pytest.raises(TypeError, match="set_default_dtype: expected a floating dtype"):
        opyard.set_default_dtype(opyard.int64)


def test_python_data_inference():
    assert opyard.tensor([True]).dtype is opyard.bool
    assert opyard.tensor([1, 2]).dtype is opyard.int64
    assert opyard.tensor([1, 2.0]).dtype is opyard.float32
    assert opyard.tensor([1, 2j]).dtype is opyard.complex64
    assert opyard.tensor([True, 2]).dtype is opyard.int64
    with pytest.raises(TypeError, match="Could not infer dtype of str"):
        opyard.tensor(["a"])


def test_in_place_ops_refuse_a_higher_category():
    i = opyard.ones(2, dtype=opyard.int64)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        i.mul_(opyard.ones(2))
    i.add_(opyard.ones(2, dtype=opyard.int32))  # same category: fine
    assert i.tolist() == [2, 2]


def test_dtype_objects():
    assert repr(opyard.float32) == "opyard.float32" and opyard.float32.is_floating_point
    assert opyard.complex64.is_complex and opyard.int64.itemsize == 8
    codes = {n: getattr(opyard, n)._code for n in ("uint8", "int8", "int16", "int32", "int64", "float16",
                                                   "float32", "float64", "complex64", "complex128", "bool")}
    assert list(codes.values()) == [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11]
    assert opyard.double is opyard.float64 and opyard.long is opyard.int64 and opyard.int is opyard.int32
    assert all(opyard.promote_types(x, y) is opyard.promote_types(y, x) for x, y in itertools.product(D.values(), D.values()))
