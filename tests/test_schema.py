"""opyard.parse_schema: the corpus, attributes, and errors with carets."""

import os

import pytest

import opyard
from opyard import parse_schema

CORPUS = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus", "native_functions.tsv")


def _corpus():
    with open(CORPUS) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]
    return rows


def test_whole_corpus_round_trips():
    rows = _corpus()
    assert len(rows) == 2584
    bad = []
    for func, canonical in rows:
        printed = str(parse_schema("aten::" + func))
        if printed != canonical or str(parse_schema(printed)) != printed:
            bad.append((func, printed, canonical))
    assert bad == []


def test_attributes():
    s = parse_schema("aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)")
    assert isinstance(s, opyard.FunctionSchema)
    assert (s.name, s.overload_name) == ("aten::add", "out")
    assert [a.name for a in s.arguments] == ["self", "other", "alpha", "out"]
    assert [a.kwarg_only for a in s.arguments] == [False, False, True, True]
    alpha, out = s.arguments[2], s.arguments[3]
    assert isinstance(alpha, opyard.Argument)
    assert (alpha.type, alpha.real_type, alpha.default_value) == ("number", "Scalar", 1)
    assert out.alias_info.before_set == {"alias::a"} and out.alias_info.after_set == {"alias::a"}
    assert out.alias_info.is_write and out.is_write and out.is_out and not alpha.is_out
    assert s.is_mutable and not s.is_vararg and not s.is_varret
    assert s.returns[0].alias_info.is_write
    assert str(out) == "Tensor(a!) out"


@pytest.mark.parametrize("decl, type_, real_type, default, n", [
    ("int[2] stride=1", "List[int]", "int[2]", [1, 1], 2),
    ("SymInt[] size", "List[int]", "SymInt[]", None, None),
    ("ScalarType? dtype=None", "Optional[int]", "ScalarType?", None, None),
    ("Tensor?[] indices", "List[Optional[Tensor]]", "Tensor?[]", None, None),
    ("float eps=1e-05", "float", "float", 1e-05, None),
    ("str mode=\"mean\"", "str", "str", "mean", None),
    ("bool[3] mask=[True, False, True]", "List[bool]", "bool[3]", [True, False, True], 3),
    ("complex c=1.5-2j", "complex", "complex", complex(1.5, -2), None),
    ("MemoryFormat fmt=contiguous_format", "int", "MemoryFormat", 0, None),
    ("ScalarType dtype=long", "int", "ScalarType", 4, None),
    ("Device? device=None", "Optional[Device]", "Device?", None, None),
    ("(int, str) pair", "Tuple[int, str]", "(int, str)", None, None),
    ("Dict(str, Tensor) d", "Dict[str, Tensor]", "Dict(str, Tensor)", None, None),
])
def test_argument_types_and_defaults(decl, type_, real_type, default, n):
    arg = parse_schema(f"f({decl}) -> ()").arguments[0]
    assert arg.type == type_
    assert arg.real_type == real_type
    assert arg.default_value == default
    assert type(arg.default_value) is type(default)
    assert arg.N == n


def test_varargs_and_equality():
    s = parse_schema("f(int a, ...) -> (int, ...)")
    assert s.is_vararg and s.is_varret
    a, b = parse_schema("f(float x=0.5) -> ()"), parse_schema("f(float  x = 0.5)->()")
    assert a == b and hash(a) == hash(b) and a != parse_schema("f(float x=0.25) -> ()")
    assert {a: 1}[b] == 1


def test_list_alias_vs_element_alias():
    elem = parse_schema("f(Tensor(a)[] xs) -> ()").arguments[0]
    whole = parse_schema("f(Tensor[](a!) xs) -> ()").arguments[0]
    assert elem.alias_info.before_set == set() and str(elem) == "Tensor(a)[] xs"
    assert whole.alias_info.before_set == {"alias::a"} and whole.alias_info.is_write


ERRORS = [
    ("", "empty schema", 0),
    ("f(Tensor x -> Tensor", "expected ',' between arguments", 11),
    ("f(Tensor x) Tensor", "expected '->'", 12),
    ("f(Tenser x) -> Tensor", r"unknown type 'Tenser'; common types are: Tensor, int", 2),
    ("f(float x=inf) -> ()", "invalid default 'inf'", 10),
    ("f(float x=nan) -> ()", "invalid default 'nan'", 10),
    ("f(str[] x=['a']) -> ()", "elements must be numbers", 11),
    ("f(Tensor[] x=[1]) -> ()", r"invalid default '\[1\]' for an argument of type Tensor\[\]", 13),
    ("f(Tensor(a!!) x) -> ()", "expected '\\)' to close the alias annotation", 11),
    ("f(Tensor x) -> Tensor y z", "trailing input", 24),
    ("f.default(Tensor x) -> Tensor", "overload name 'default' is reserved", 2),
    ("f.__x(Tensor x) -> Tensor", "must not start with '__'", 2),
    ("(Tensor x) -> Tensor", "expected an operator name", 0),
    ("f(Tensor if) -> ()", "'if' is a reserved word", 9),
    ("f(Tensor def) -> ()", "'def' is a reserved word", 9),
    ("f(int a=1, int b) -> ()", "positional argument 'b' without a default", 11),
    ("f(..., int a) -> ()", r"'\.\.\.' must be the last argument", 7),
    ("f(str s=\"abc) -> ()", "unterminated string literal", 8),
]


@pytest.mark.parametrize("text, match, offset", ERRORS)
def test_errors_have_position_and_caret(text, match, offset):
    with pytest.raises(opyard.SchemaError, match=match) as info:
        parse_schema(text)
    e = info.value
    assert isinstance(e, ValueError)
    assert e.offset == offset and e.line == 1 and e.column == offset + 1
    caret = str(e).splitlines()[-1]
    assert caret.index("^") == offset + 2
    assert text in str(e)


def test_multiline_position():
    with pytest.raises(opyard.SchemaError) as info:
        parse_schema("f(Tensor x,\n  Tenser y) -> ()")
    assert (info.value.line, info.value.column) == (2, 3)


@pytest.mark.parametrize("name", ["from", "to", "self"])
def test_names_torch_accepts(name):
    assert parse_schema(f"f(Tensor {name}) -> ()").arguments[0].name == name


def test_garbage_never_crashes():
    import random

    rng = random.Random(0)
    alphabet = "()[]?!*|,.:=->abcTensorint 0123\"'"
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        try:
            parse_schema(text)
        except opyard.SchemaError:
            pass
