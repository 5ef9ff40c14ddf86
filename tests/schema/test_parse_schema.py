"""opyard.parse_schema: the corpus, attributes, and errors with carets."""

import os

import pytest

import opyard
from opyard import parse_schema

CORPUS = os.path.join(os.path.dirname(__file__), os.pardir, "data", "native_functions.tsv")


def _corpus():
    with open(CORPUS) as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]


def test_whole_corpus_round_trips():
    rows = _corpus()
    assert len(rows) == 2584
    bad = []
    for func, canonical in rows:
        printed = str(parse_schema("aten::" + func))
        if printed != canonical or str(parse_schema(printed)) != printed:
            bad.append((func, printed, canonical))
    assert bad == []


def test_public_names():
    assert opyard.FunctionSchema.__name__ == "FunctionSchema"
    assert issubclass(opyard.SchemaError, ValueError)
    assert opyard.SchemaError.__module__ == "opyard"
    assert opyard.SchemaError is opyard._core.SchemaError
    assert isinstance(parse_schema("f() -> ()"), opyard.FunctionSchema)


def test_schema_attributes():
    s = parse_schema("aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)")
    assert isinstance(s, opyard.FunctionSchema)
    assert (s.name, s.overload_name) == ("aten::add", "out")
    assert [a.name for a in s.arguments] == ["self", "other", "alpha", "out"]
    assert [a.kwarg_only for a in s.arguments] == [False, False, True, True]
    assert s.is_mutable and not s.is_vararg and not s.is_varret
    assert [r.name for r in s.returns] == [""] and s.returns[0].alias_info.is_write
    alpha, out = s.arguments[2], s.arguments[3]
    assert isinstance(alpha, opyard.Argument)
    assert (alpha.type, alpha.real_type, alpha.default_value, alpha.N) == ("number", "Scalar", 1, None)
    assert alpha.has_default_value and not s.arguments[0].has_default_value
    assert out.is_write and out.is_out and not alpha.is_out and not alpha.is_write
    assert (str(out), str(alpha), str(s.returns[0])) == ("Tensor(a!) out", "Scalar alpha=1", "Tensor(a!)")
    assert "add.out" in repr(s)
    assert not parse_schema("f(Tensor(a) x) -> Tensor(a)").is_mutable
    assert parse_schema("f(Tensor(a!)[] xs) -> ()").is_mutable


def test_names_and_returns():
    assert (parse_schema("f(Tensor x) -> Tensor").name, parse_schema("f(Tensor x) -> Tensor").overload_name) == ("f", "")
    s = parse_schema("ns::op(Tensor x) -> (Tensor values, Tensor indices)")
    assert s.name == "ns::op" and [r.name for r in s.returns] == ["values", "indices"]
    assert parse_schema("f() -> ()").returns == []
    v = parse_schema("f(int a, ...) -> (int, ...)")
    assert v.is_vararg and v.is_varret and len(v.returns) == 1
    assert str(parse_schema("f(Tensor x) -> ((Tensor))")) == "f(Tensor x) -> ((Tensor))"


@pytest.mark.parametrize("decl, type_, real_type, default, n", [
    ("Tensor x", "Tensor", "Tensor", None, None),
    ("Tensor? x=None", "Optional[Tensor]", "Tensor?", None, None),
    ("Tensor[] xs", "List[Tensor]", "Tensor[]", None, None),
    ("Tensor?[] indices", "List[Optional[Tensor]]", "Tensor?[]", None, None),
    ("int[2] stride=1", "List[int]", "int[]", [1, 1], 2),
    ("int[1]? dim=None", "Optional[List[int]]", "int[]?", None, 1),
    ("SymInt[] size", "List[int]", "SymInt[]", None, None),
    ("SymInt[2] size=1", "List[int]", "SymInt[]", [1, 1], 2),
    ("SymInt s=0", "int", "SymInt", 0, None),
    ("ScalarType? dtype=None", "Optional[int]", "ScalarType?", None, None),
    ("ScalarType dtype=long", "int", "ScalarType", 4, None),
    ("Layout layout=strided", "int", "Layout", 0, None),
    ("MemoryFormat fmt=contiguous_format", "int", "MemoryFormat", 0, None),
    ("MemoryFormat? fmt=contiguous_format", "Optional[int]", "MemoryFormat?", 0, None),
    ("int reduction=Mean", "int", "int", 1, None),
    ("DeviceIndex i=-1", "int", "int", -1, None),
    ("float eps=1e-05", "float", "float", 1e-05, None),
    ("float x=2", "float", "float", 2.0, None),
    ("float? x=1", "Optional[float]", "float?", 1, None),
    ("float[] xs=[1, 2.5]", "List[float]", "float[]", [1.0, 2.5], None),
    ("bool flag=True", "bool", "bool", True, None),
    ("bool[3] mask=[True, False, True]", "List[bool]", "bool[]", [True, False, True], 3),
    ("str mode=\"mean\"", "str", "str", "mean", None),
    ("str s='a\\'b\\n'", "str", "str", "a'b\n", None),
    ("str? s=None", "Optional[str]", "str?", None, None),
    ("complex c=1.5-2j", "complex", "complex", complex(1.5, -2), None),
    ("complex[] cs=[1, 2j]", "List[complex]", "complex[]", [complex(1, 0), complex(0, 2)], None),
    ("Scalar s=2.5", "number", "Scalar", 2.5, None),
    ("Device? device=None", "Optional[Device]", "Device?", None, None),
    ("Device d=\"cuda:1\"", "Device", "Device", "cuda:1", None),
    ("Generator? g=None", "Optional[Generator]", "Generator?", None, None),
    ("SymBool b", "bool", "SymBool", None, None),
    ("QScheme q", "QScheme", "QScheme", None, None),
    ("(int, str) pair", "Tuple[int, str]", "(int, str)", None, None),
    ("() unit", "Tuple[()]", "()", None, None),
    ("Dict(str, Tensor) d", "Dict[str, Tensor]", "Dict(str, Tensor)", None, None),
    ("Future(Tensor) f", "Future[Tensor]", "Future[Tensor]", None, None),
    ("t[] xs", "List[t]", "t[]", None, None),
    ("__torch__.torch.classes.ns.Cls c", "__torch__.torch.classes.ns.Cls", "__torch__.torch.classes.ns.Cls", None, None),
    ("int[] xs=[]", "List[int]", "int[]", [], None),
])
def test_argument_types_and_defaults(decl, type_, real_type, default, n):
    arg = parse_schema(f"f({decl}) -> ()").arguments[0]
    assert arg.type == type_
    assert arg.real_type == real_type
    assert arg.default_value == default
    assert type(arg.default_value) is type(default)
    if isinstance(default, list):
        assert [type(x) for x in arg.default_value] == [type(x) for x in default]
    assert arg.N == n


@pytest.mark.parametrize("decl, before, after, is_write, printed", [
    ("Tensor(a) x", {"a"}, {"a"}, False, "Tensor(a) x"),
    ("Tensor(a!) x", {"a"}, {"a"}, True, "Tensor(a!) x"),
    ("Tensor(a -> *) x", {"a"}, {"*"}, False, "Tensor(a -> *) x"),
    ("Tensor(*) x", {"*"}, {"*"}, False, "Tensor(*) x"),
    ("Tensor(a|b) x", {"a", "b"}, {"a", "b"}, False, None),
    ("Tensor(a! -> a|b) x", {"a"}, {"a", "b"}, True, None),
    ("Tensor! x", {"$0"}, set(), True, "Tensor($0! -> ) x"),
    ("Tensor(a!)? x", {"a"}, {"a"}, True, "Tensor(a!)? x"),
    ("Tensor[](a!) xs", {"a"}, {"a"}, True, "Tensor[](a!) xs"),
    ("Tensor(a!)[] xs", set(), set(), True, "Tensor(a!)[] xs"),
])
def test_alias_info(decl, before, after, is_write, printed):
    arg = parse_schema(f"f({decl}) -> ()").arguments[0]
    info = arg.alias_info
    assert (info.before_set, info.after_set, info.is_write) == (before, after, is_write)
    assert arg.is_write == is_write
    if printed is not None:
        assert str(arg) == printed
    assert str(parse_schema(str(parse_schema(f"f({decl}) -> ()")))) == str(parse_schema(f"f({decl}) -> ()"))


def test_no_alias_info():
    assert parse_schema("f(Tensor x) -> ()").arguments[0].alias_info is None
    info = parse_schema("f(Tensor(a)[] xs) -> ()").arguments[0].alias_info
    assert str(info) == "()" and not info.is_write


@pytest.mark.parametrize("given, canonical", [
    ("f(float eps=1e-5) -> ()", "f(float eps=1.0000000000000001e-05) -> ()"),
    ("f(float x=1) -> ()", "f(float x=1.) -> ()"),
    ("f(int[2] s=1, SymInt[2] t=1) -> ()", "f(int[2] s=1, SymInt[2] t=[1, 1]) -> ()"),
    ("f(ScalarType d=float, MemoryFormat m=contiguous_format) -> ()", "f(ScalarType d=6, MemoryFormat m=0) -> ()"),
    ("f(str s='x') -> ()", "f(str s=\"x\") -> ()"),
    ("f(Device d='cpu') -> ()", "f(Device d=cpu) -> ()"),
    ("f(Tensor! x) -> Tensor", "f(Tensor($0! -> ) x) -> Tensor"),
    ("ns :: op . ov ( Tensor  x )->Tensor", "ns::op.ov(Tensor x) -> Tensor"),
])
def test_canonical_printing(given, canonical):
    assert str(parse_schema(given)) == canonical
    assert str(parse_schema(canonical)) == canonical


def test_equality_and_hash():
    a, b = parse_schema("f(float x=0.5) -> ()"), parse_schema("f(float  x = 0.5)->()")
    assert a == b and hash(a) == hash(b) and a != parse_schema("f(float x=0.25) -> ()")
    assert {a: 1}[b] == 1
    assert a != "f(float x=0.5) -> ()"
    assert opyard.FunctionSchema("f(float x=0.5) -> ()") == a


# (text, match, offset): one row per error category.
ERRORS = [
    ("", "empty schema", 0),
    ("f(Tensor x -> Tensor", "expected ',' between arguments", 11),
    ("f(Tensor x)) -> ()", "expected '->'", 11),
    ("f(Tensor x) Tensor", "expected '->' after the argument list", 12),
    ("f(Tenser x) -> Tensor", r"unknown type specifier 'Tenser'. Common valid schema types include: Tensor, SymInt, int", 2),
    ("f(float x=inf) -> ()", "invalid default 'inf'", 10),
    ("f(float x=nan) -> ()", "invalid default 'nan'", 10),
    ("f(str[] x=['a']) -> ()", "elements must be numbers or booleans", 11),
    ("f(Tensor[] x=[1]) -> ()", r"invalid default '\[1\]' for an argument of type Tensor\[\]", 13),
    ("f(int x=\"s\") -> ()", "invalid default '\"s\"' for an argument of type int", 8),
    ("f(int x=None) -> ()", r"only optional types \('T\?'\) default to None", 8),
    ("f(Tensor(a!!) x) -> ()", r"malformed alias annotation: expected '\)' to close the alias annotation", 11),
    ("f(Tensor(*|a) x) -> ()", "follows the wildcard", 11),
    ("f(Tensor x) -> Tensor y z", "trailing input", 24),
    ("f.default(Tensor x) -> Tensor", "'default' is not a legal overload name", 2),
    ("f.__x(Tensor x) -> Tensor", "must not start with '__'", 2),
    ("(Tensor x) -> Tensor", "expected an operator name", 0),
    ("f(Tensor if) -> ()", "'if' is a reserved word", 9),
    ("f(Tensor def) -> ()", "'def' is a reserved word", 9),
    ("f(Tensor True) -> ()", "'True' is a reserved word", 9),
    ("f(int a=1, int b) -> ()", "non-default positional argument 'b' follows an argument with a default", 11),
    ("f(..., int a) -> ()", r"'\.\.\.' must be the last element of the argument list", 7),
    ("f(str s=\"abc) -> ()", "unterminated string literal", 8),
    ("f(Tensor x) -> Tensor @", "unexpected character '@'", 22),
]


@pytest.mark.parametrize("text, match, offset", ERRORS)
def test_errors_have_position_and_caret(text, match, offset):
    with pytest.raises(opyard.SchemaError, match=match) as info:
        parse_schema(text)
    e = info.value
    assert isinstance(e, ValueError)
    assert (e.offset, e.line, e.column) == (offset, 1, offset + 1)
    lines = str(e).splitlines()
    assert lines[-2] == "  " + text
    assert lines[-1] == " " * (offset + 2) + "^"
    assert e.message in lines[0]


def test_multiline_position():
    with pytest.raises(opyard.SchemaError) as info:
        parse_schema("f(Tensor x,\n  Tenser y) -> ()")
    e = info.value
    assert (e.line, e.column, e.offset) == (2, 3, 14)
    assert str(e).splitlines()[-2:] == ["    Tenser y) -> ()", "    ^"]


@pytest.mark.parametrize("name", ["from", "to", "self", "out", "nan", "inf", "lambda", "yield"])
def test_names_torch_accepts(name):
    assert parse_schema(f"f(Tensor {name}) -> ()").arguments[0].name == name


def test_positional_list_after_default_is_accepted_as_in_torch():
    s = parse_schema("f(int a=1, int[] b) -> ()")
    assert [a.name for a in s.arguments] == ["a", "b"]


def test_garbage_never_crashes():
    import random

    rng = random.Random(0)
    alphabet = "()[]?!*|,.:=->abcTensorint 0123\"'$\\é"
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        try:
            s = parse_schema(text)
        except opyard.SchemaError:
            continue
        assert str(parse_schema(str(s))) == str(s)
