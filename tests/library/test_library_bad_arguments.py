"""Bad arguments to Library, parse_schema and FunctionSchema get a precise exception of torch's
type that names the argument (never a conversion error of the binding layer), and the schema
bugs torch accepts (a sized list default of the wrong length, a repeated argument name) are
refused with a SchemaError naming the argument: a deliberate difference from torch, recorded in
tests/data/torch_schema_divergences.json."""

import pytest

import opyard
from opyard import FunctionSchema, SchemaError, parse_schema
from opyard.dispatcher import DispatchKey
from opyard.library import Library


@pytest.mark.parametrize("args, exc, pattern", [
    (("x_bad", None), ValueError, r"Unsupported kind: None"),
    (("x_bad", 3), ValueError, r"Unsupported kind: 3"),
    (("x_bad", "BAD"), ValueError, r"Unsupported kind: BAD"),
    ((None, "DEF"), TypeError, r"Library\(\): argument 'ns' must be str .*not NoneType"),
    ((1, "DEF"), TypeError, r"argument 'ns' must be str .*not int"),
    (("x_bad", "DEF", 1), TypeError, r"Library\(\): argument 'dispatch_key' must be a key name .*not int"),
    (("x_bad", "DEF", None), TypeError, r"argument 'dispatch_key' .*not NoneType"),
])
def test_library_constructor_refuses_bad_arguments(args, exc, pattern):
    with pytest.raises(exc, match=pattern):
        Library(*args)


def test_library_takes_a_key_by_name_or_member():
    lib = Library("lib_bad_args_key", "FRAGMENT", DispatchKey.CPU)
    lib.define("f(Tensor x) -> Tensor")
    lib.impl("f", lambda x: x + 1)
    assert opyard.ops.lib_bad_args_key.f(opyard.zeros(1)).tolist() == [1.0]


@pytest.mark.parametrize("key", [1, 49, True, None, 1.5])
def test_impl_and_fallback_refuse_a_key_that_is_not_a_name_or_member(key):
    lib = Library("lib_bad_args_impl", "FRAGMENT")
    lib.define("g(Tensor x) -> Tensor")
    with pytest.raises(TypeError, match=r"Library.impl\(\): argument 'dispatch_key' must be a key name"):
        lib.impl("g", lambda x: x, key)
    with pytest.raises(TypeError, match=r"Library.fallback\(\): argument 'dispatch_key'"):
        Library("_", "IMPL").fallback(lambda op, *a, **k: None, key)
    # Nothing was registered by the refused calls.
    with pytest.raises(NotImplementedError):
        opyard.ops.lib_bad_args_impl.g(opyard.zeros(1))


@pytest.mark.parametrize("fn, api", [(parse_schema, "parse_schema"), (FunctionSchema, "FunctionSchema")])
@pytest.mark.parametrize("value, tname", [(None, "NoneType"), (123, "int"), (["f() -> ()"], "list")])
def test_schema_text_must_be_a_string(fn, api, value, tname):
    with pytest.raises(TypeError, match=rf"{api}\(\): argument 'schema' must be str .*not {tname}"):
        fn(value)


def test_schema_text_may_be_utf8_bytes_as_in_torch():
    assert str(parse_schema(b"f(Tensor x) -> Tensor")) == "f(Tensor x) -> Tensor"
    assert str(FunctionSchema(b"ns::g(int x=1) -> int")) == "ns::g(int x=1) -> int"
    with pytest.raises(TypeError, match="not UTF-8"):
        parse_schema(b"f(Tensor \xff) -> Tensor")


@pytest.mark.parametrize("text, pattern", [
    ("f(int[2] x=[1, 2, 3]) -> ()", r"the default of argument 'x' has 3 elements but its type int\[2\] holds 2"),
    ("f(float[3] w=[1.0]) -> ()", r"argument 'w' has 1 elements but its type float\[3\] holds 3"),
    ("f(Tensor x, Tensor x) -> ()", r"argument name 'x' appears twice"),
    ("f(Tensor self, *, int self=0) -> ()", r"argument name 'self' appears twice"),
])
def test_schema_bugs_torch_accepts_are_refused_naming_the_argument(text, pattern):
    with pytest.raises(SchemaError, match=pattern) as info:
        parse_schema(text)
    assert "^" in str(info.value)  # the caret line under the offending argument
    lib = Library("lib_bad_args_define", "FRAGMENT")
    with pytest.raises(SchemaError, match=pattern):
        lib.define(text)


@pytest.mark.parametrize("text", [
    "f(int[2] x=[1, 2]) -> ()", "f(int[2] x=1) -> ()", "f(int[2] stride=[]) -> ()",
    "f(int[1] dim=[-2, -1]) -> ()",  # T[1] is native_functions.yaml's "one or more"
])
def test_the_sized_list_spellings_torch_schemas_use_stay_accepted(text):
    assert str(parse_schema(text)) == text


def test_custom_class_types_unknown_to_define_are_refused():
    lib = Library("lib_bad_args_cls", "FRAGMENT")
    with pytest.raises(RuntimeError, match=r"Unknown custom class type foo.Bar. Please ensure it is registered"):
        lib.define("h(__torch__.torch.classes.foo.Bar x) -> Tensor")


@pytest.mark.parametrize("kind, macro", [("FRAGMENT", "TORCH_LIBRARY_FRAGMENT"), ("DEF", "TORCH_LIBRARY")])
def test_the_wildcard_namespace_takes_only_impl_libraries(kind, macro):
    with pytest.raises(RuntimeError, match=rf"{macro}: cannot define {macro} with the wildcard namespace _ "
                                           r".*Did you mean to use TORCH_LIBRARY_IMPL instead\?"):
        Library("_", kind)
    Library("_", "IMPL")  # the fallbacks' library


def test_a_fallback_needs_a_key_in_torchs_words():
    with pytest.raises(AssertionError, match="dispatch_key must not be empty for fallback"):
        Library("_", "IMPL").fallback(lambda op, *a, **k: None)


def test_allow_override_false_is_refused_in_torchs_words():
    lib = Library("lib_bad_args_override", "FRAGMENT")
    lib.define("k(Tensor x) -> Tensor")
    lib.impl("k", lambda x: x, "CPU")
    with pytest.raises(RuntimeError, match=r"This is not allowed since there's already a kernel registered from "
                                           r"python overriding k's behavior for CPU dispatch key and "
                                           r"lib_bad_args_override namespace"):
        lib.impl("k", lambda x: x, "CPU", allow_override=False)
