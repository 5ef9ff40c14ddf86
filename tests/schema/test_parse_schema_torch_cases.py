"""opyard.parse_schema against what torch 2.15's parser does with the same text.

`data/torch_schema_cases.json` holds, per schema string, torch's acceptance
or refusal, `str(schema)` and each argument's `type`, `real_type`, `N` and
default (see `data/gen_torch_schema_cases.py`). opyard must agree on every
case except the few in DIVERGES, each of which says why and is itself
checked.
"""

import json
import os
import re

import pytest

from opyard import SchemaError, parse_schema

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "torch_schema_cases.json")
with open(DATA, encoding="utf-8") as _f:
    CASES = json.load(_f)["cases"]

# Where opyard deliberately differs from torch, each with its reason: schema ->
# {"opyard": "refuses" | "accepts" | "prints", "why": ..., "str": printed form}.
# The Rust tests read the same table.
with open(os.path.join(os.path.dirname(__file__), os.pardir, "data", "torch_schema_divergences.json"), encoding="utf-8") as _f:
    DIVERGES = json.load(_f)

# torch's cause (a regex on its message) -> a regex opyard's message must match.
CAUSES = [
    (r"unknown type specifier", r"unknown type specifier '"),
    (r"invalid numeric default value", r"not a literal .* nor an enum value|cannot have a default|finite"),
    (r"unexpected type, file a bug report",
     r"cannot have a default value|only optional types|unexpected character|expected a default value"),
    (r"INTERNAL ASSERT FAILED.*ivalue\.h.*expected (int|bool)", r"invalid default|only optional types"),
    (r"INTERNAL ASSERT FAILED.*union_type", r"holds the single type"),
    (r"lists are only supported for", r"list defaults are only supported|needs a list default|elements must be"),
    (r"expected number but found '\['", r"never a list literal|elements must be numbers"),
    (r"expected number but found '-'", r"second sign|expected a list size"),
    (r"expected number but found '\+'", r"'\+'"),
    (r"expected number but found 'ident'", r"not a literal|finite|but found"),
    (r"expected \[ but found", r"only optional types|needs a list default"),
    (r"^stod$|^stoll$", r"out of the range of a double|out of range for a 64-bit int|invalid number"),
    (r"Unknown custom class type", r"custom class"),
    (r"Expected classes namespace|expected \. but found", r"custom class path"),
    (r"Expected one of cpu, cuda", r"expected one of cpu, cuda"),
    (r"expected None but found", r"can only default to None"),
    (r"expected string_literal", r"invalid default"),
    (r"ill formed octal|unsupported hex|unsupported unicode", r"escape"),
    (r"seen_default_arg", r"non-default positional argument"),
    (r"vararg .* can't have default", r"varargs .* can't have arguments with default values"),
    (r"not a legal overload name", r"not a legal overload name"),
    (r"expected eof but found", r"trailing input|unexpected"),
    (r"expected (\(|\)|,|ident|\[) but found", r"expected"),
]


def _ours(arg):
    return {"name": arg.name, "type": arg.type, "real_type": arg.real_type, "N": arg.N,
            "default": repr(arg.default_value) if arg.has_default_value else None}


def _cause(torch_message):
    for theirs, ours in CAUSES:
        if re.search(theirs, torch_message):
            return ours
    raise AssertionError(f"no cause mapped for torch's message {torch_message!r}")


AGREED = [c for c in CASES if c["schema"] not in DIVERGES]


def test_the_table_covers_the_grammar():
    assert len(CASES) >= 700
    assert sum(c["ok"] for c in CASES) > 400 and sum(not c["ok"] for c in CASES) > 150
    assert all(s in {c["schema"] for c in CASES} for s in DIVERGES)


@pytest.mark.parametrize("case", [c for c in AGREED if c["ok"]], ids=lambda c: c["schema"])
def test_accepted_as_torch(case):
    s = parse_schema(case["schema"])
    assert str(s) == case["str"]
    assert str(parse_schema(str(s))) == case["str"]
    assert [_ours(a) for a in s.arguments] == case["arguments"]
    assert [_ours(a) for a in s.returns] == case["returns"]


@pytest.mark.parametrize("case", [c for c in AGREED if not c["ok"]], ids=lambda c: c["schema"])
def test_refused_as_torch(case):
    with pytest.raises(SchemaError) as info:
        parse_schema(case["schema"])
    assert re.search(_cause(case["error"]), str(info.value)), (case["error"], str(info.value))


@pytest.mark.parametrize("schema", sorted(DIVERGES))
def test_documented_divergences(schema):
    case = next(c for c in CASES if c["schema"] == schema)
    what, why = DIVERGES[schema]["opyard"], DIVERGES[schema]["why"]
    assert what in ("refuses", "accepts", "prints") and len(why) > 10
    if what == "refuses":
        assert case["ok"]
        with pytest.raises(SchemaError):
            parse_schema(schema)
    elif what == "accepts":
        assert not case["ok"]
        printed = str(parse_schema(schema))
        assert str(parse_schema(printed)) == printed
    else:
        ours = DIVERGES[schema]["str"]
        assert case["ok"] and case["str"] != ours
        assert str(parse_schema(schema)) == ours
        assert str(parse_schema(ours)) == ours


@pytest.mark.parametrize("schema, message", [
    ("foo(asdf a) -> asdfasdf", "unknown type specifier 'asdf'"),
    ("foo(t x) -> t", "unknown type specifier 't'"),
    ("foo(double x) -> int", "Use `float` instead of `double`"),
    ("foo(int64_t x) -> int", "Use `SymInt` or `int` instead of `int64_t`"),
])
def test_type_variables_refused_when_not_allowed(schema, message):
    assert str(parse_schema(schema))  # torch._C.parse_schema allows them by default
    with pytest.raises(SchemaError, match=re.escape(message)):
        parse_schema(schema, allow_typevars=False)
    assert str(parse_schema("foo(int x) -> int", allow_typevars=False)) == "foo(int x) -> int"
