"""parse_schema on hostile input: nesting past the limit, expansions, lone
surrogates, megabyte schemas. Every case is an exception with a message and a
position, never a crash, a hang or an exception other than the ones listed."""

import os
import subprocess
import sys
import threading
import time

import pytest

import opyard
from opyard import SchemaError, parse_schema

LIMIT = 256
NESTING = r"type nesting exceeds the limit of 256 levels \(each tuple, Dict\(K, V\)"


def on_small_stack(fn, size=256 * 1024):
    """Run `fn` on a thread with a 256 KiB stack (1,000 levels used to overflow one)."""
    result = {}

    def run():
        try:
            result["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - re-raised on the calling thread
            result["error"] = e

    old = threading.stack_size(size)
    try:
        t = threading.Thread(target=run)
        t.start()
        t.join()
    finally:
        threading.stack_size(old)
    if "error" in result:
        raise result["error"]
    return result.get("value")


def wrap(opener, depth, inner="int"):
    return opener * depth + inner + ")" * depth


# (id, text, exception, message regex, offset or None)
HOSTILE = [
    ("tuples past the limit", f"f({wrap('(', LIMIT)} x) -> ()", SchemaError, NESTING, 2 + LIMIT),
    ("13k tuples", f"f({wrap('(', 13_000)} x) -> ()", SchemaError, NESTING, 2 + LIMIT),
    ("13k Dict", f"f({wrap('Dict(str, ', 13_000)} x) -> ()", SchemaError, NESTING,
     2 + 10 * (LIMIT - 1) + len("Dict(")),  # the key of the 256th Dict
    ("13k Future", f"f({wrap('Future(', 13_000)} x) -> ()", SchemaError, NESTING, 2 + 7 * LIMIT),
    ("13k RRef in a return", f"f() -> {wrap('RRef(', 13_000)}", SchemaError, NESTING, 7 + 5 * LIMIT),
    ("unclosed tuples", "f(" + "(" * 100_000, SchemaError, NESTING, 2 + LIMIT),
    ("50k ?", "f(int" + "?" * 50_000 + " x) -> ()", SchemaError, NESTING, 5 + LIMIT - 1),
    ("50k []", "f(int" + "[]" * 50_000 + " x) -> ()", SchemaError, NESTING, 5 + 2 * (LIMIT - 1)),
    ("50k annotated []", "f(Tensor(a!)" + "[]" * 50_000 + " x) -> ()", SchemaError, NESTING,
     12 + 2 * (LIMIT - 1)),
    ("sized list past the limit", "f(int" + "?" * (LIMIT - 2) + "[2]? x) -> ()", SchemaError, NESTING,
     5 + LIMIT - 2 + 3),
    ("22k [ in a default", "f(int[] x=" + "[" * 22_000 + ") -> ()", SchemaError,
     "invalid list default: elements must be numbers or booleans, not lists", 11),
    ("nested list default", "f(int[] x=[1, [2]]) -> ()", SchemaError, "not lists", 14),
    ("N = 2^31 - 1", "f(int[2147483647] x=1) -> ()", SchemaError,
     "list size 2147483647 is too large for a repeated default: .* at most 65536 elements", 20),
    ("N past int32", "f(int[2147483648] x=1) -> ()", SchemaError, "expected a list size", 6),
    ("repeats add up", "f(int[40000] x=1, float[40000] y=1) -> ()", SchemaError,
     r"at most 65536 elements in all \(40000 used so far\)", 33),
    ("lone surrogate name", "f(Tensor \ud800) -> Tensor", SchemaError,
     r"parse_schema\(\): argument 'schema' is not valid Unicode: .*lone surrogate '\\ud800'", 9),
    ("lone low surrogate", "f(Tensor x, int y=1) -> Tensor\udfff", SchemaError,
     r"lone surrogate '\\udfff'", 30),
    ("surrogate in a default", 'f(str s="\udbff") -> ()', SchemaError, r"'\\udbff'", 9),
    ("surrogate after non-ASCII", "f(Tensor é\ud800) -> ()", SchemaError, r"'\\ud800'", 11),
    ("not a string", 42, TypeError, "schema", None),
    ("bytes not UTF-8", b"f(Tensor \xff) -> ()", TypeError, "not UTF-8", None),  # UTF-8 bytes parse, as in torch
]


@pytest.mark.parametrize("text, exc, match, offset", [c[1:] for c in HOSTILE],
                         ids=[c[0] for c in HOSTILE])
def test_hostile_inputs_raise_precise_errors(text, exc, match, offset):
    def parse():
        with pytest.raises(exc, match=match) as info:
            parse_schema(text)
        return info.value

    e = on_small_stack(parse)
    assert type(e) is exc
    if offset is not None:
        assert e.offset == offset
        assert len(str(e)) < 600, "the message quotes a window of the input, not all of it"
        caret = str(e).splitlines()[-1]
        assert caret.strip() == "^"


def test_the_constructor_refuses_surrogates_too():
    with pytest.raises(SchemaError, match=r"FunctionSchema\(\): argument 'schema'") as info:
        opyard.FunctionSchema("f(\ud800 x) -> ()")
    assert (info.value.offset, info.value.line, info.value.column) == (2, 1, 3)


def test_surrogate_position_counts_lines_and_characters():
    with pytest.raises(SchemaError) as info:
        parse_schema("f(Tensor x,\n  Tensor é\udc00) -> ()")
    e = info.value
    assert (e.line, e.column) == (2, 11)
    assert str(e).splitlines()[-2:] == ["    Tensor é\ufffd) -> ()", " " * 12 + "^"]


def _unions(pattern, inner, reps=(LIMIT - 1) // 2):
    for _ in range(reps):
        inner = pattern.format(inner)
    return inner


LEVELS = {
    "tuple": (f"f({wrap('(', LIMIT - 1)} x) -> ()", "(" * (LIMIT - 1) + "int" + ")" * (LIMIT - 1),
              "Tuple[" * (LIMIT - 1) + "int" + "]" * (LIMIT - 1)),
    "dict": (f"f({wrap('Dict(str, ', LIMIT - 1)} x) -> ()",
             "Dict(str, " * (LIMIT - 1) + "int" + ")" * (LIMIT - 1),
             "Dict[str, " * (LIMIT - 1) + "int" + "]" * (LIMIT - 1)),
    "await": (f"f({wrap('Await(', LIMIT - 1)} x) -> ()",
              "Await(" * (LIMIT - 1) + "int" + ")" * (LIMIT - 1),
              "Await[" * (LIMIT - 1) + "int" + "]" * (LIMIT - 1)),
    "optional": ("f(SymInt" + "?" * (LIMIT - 1) + " x) -> ()", "SymInt" + "?" * (LIMIT - 1),
                 "Optional[" * (LIMIT - 1) + "int" + "]" * (LIMIT - 1)),
    "list": ("f(Tensor(a!)" + "[]" * (LIMIT - 1) + " x) -> ()", "Tensor" + "[]" * (LIMIT - 1),
             "List[" * (LIMIT - 1) + "Tensor" + "]" * (LIMIT - 1)),
    "sized": ("f(int" + "?" * (LIMIT - 3) + "[3]? x=None) -> ()", "int" + "?" * (LIMIT - 3) + "[]?",
              "Optional[List[" + "Optional[" * (LIMIT - 3) + "int" + "]" * (LIMIT - 1)),
    # Union(str, T)[] per two levels: the list keeps the unions from flattening.
    "union": (f"f({_unions('Union(str, {})[]', 'int')} x) -> ()", _unions("Union({}, str)[]", "int"),
              _unions("List[Union[{}, str]]", "int")),
}


@pytest.mark.parametrize("text, real_type, type_", LEVELS.values(), ids=list(LEVELS))
def test_types_at_the_limit_render_on_a_small_stack(text, real_type, type_):
    def use():
        s = parse_schema(text)
        (arg,) = s.arguments
        assert arg.real_type == real_type
        assert arg.type == type_
        printed = str(s)
        again = parse_schema(printed)
        assert str(again) == printed and again == s and hash(again) == hash(s)
        assert str(arg) and repr(arg) and (arg.alias_info is None or str(arg.alias_info))
        del s, again, arg

    on_small_stack(use)


MB = 1 << 20


def _sized(part, sep, size=MB):
    return sep.join([part] * (size // (len(part) + len(sep))))


LARGE = {
    "arguments": "f(" + ", ".join(f"Tensor x{i}" for i in range(MB // 12)) + ") -> ()",
    "400k alias names": "f(Tensor(" + "|".join(f"a{i}" for i in range(400_000)) + ") x) -> ()",
    "repeated alias names": "f(Tensor(" + _sized("a", "|") + "! -> *) x) -> ()",
    "list default": f"f(int[] x=[{_sized('1', ', ')}]) -> ()",
    "string default": 'f(str s="' + "x" * MB + '") -> ()',
    "returns": f"f(Tensor x) -> ({_sized('Tensor', ', ')})",
    "bare writes": "f(" + ", ".join(f"Tensor! x{i}" for i in range(MB // 13)) + ") -> ()",
}


@pytest.mark.parametrize("text", LARGE.values(), ids=list(LARGE))
def test_a_megabyte_schema_parses_in_well_under_a_second(text):
    # Half a second per megabyte: parsing takes 3-40 ms per megabyte, so this
    # leaves room for a loaded machine; quadratic work took minutes.
    budget = 0.5 * max(1.0, len(text) / MB)
    start = time.perf_counter()
    s = parse_schema(text)
    took = time.perf_counter() - start
    assert took < budget, f"{took:.3f} s for {len(text) / MB:.1f} MB"
    assert str(s)


def test_alias_sets_keep_first_appearance_order_and_drop_duplicates():
    arg = parse_schema("f(Tensor(b|a|b|a! -> *|*) x) -> ()").arguments[0]
    assert str(arg) == "Tensor(b|a! -> *) x"
    names = [f"n{i % 50}" for i in range(1000)]
    arg = parse_schema(f"f(Tensor({'|'.join(names)}) x) -> ()").arguments[0]
    assert arg.alias_info.before_set == {f"n{i}" for i in range(50)}
    assert str(arg) == "Tensor(" + "|".join(f"n{i}" for i in range(50)) + ") x"


@pytest.mark.parametrize("text", [
    "f(Tensor " + "x" * 100_000 + "!) -> ()",
    "f(X" + "x" * 100_000 + " y) -> ()",
    "f(int y=" + "9" * 100_000 + ") -> ()",
    'f(Device d="' + "x" * 100_000 + ':") -> ()',
    "f(Tensor(*|" + "x" * 100_000 + ") y) -> ()",
    "f(int[] y=[" + "1.5, " * 20_000 + "True]) -> ()",
], ids=["name", "type", "number", "device", "alias", "list default"])
def test_messages_quote_at_most_a_window_of_the_input(text):
    with pytest.raises(SchemaError) as info:
        parse_schema(text)
    assert len(str(info.value)) < 600


def test_fuzz_driver_reports_nothing_on_a_short_run():
    driver = os.path.join(os.path.dirname(__file__), os.pardir, "fuzz", "fuzz_schema.py")
    p = subprocess.run([sys.executable, driver, "--count", "400", "--jobs", "1", "--batch", "400",
                        "--seed", "7"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "crashes: 0" in p.stdout and "non-SchemaError exceptions: 0" in p.stdout
