"""infer_schema: torch's type mapping, alias annotations, defaults and errors."""

from numbers import Number
from typing import List, Optional, Sequence, Union

import pytest

import opyard
from opyard import Tensor
from opyard.library import infer_schema


def f_basic(x: Tensor, y: Optional[Tensor], n: int, s: float = 1.5, *, flag: bool = False) -> Tensor: ...
def f_lists(xs: list[Tensor], ys: Sequence[Optional[Tensor]], dims: List[int], w: Optional[list[float]] = None) -> List[Tensor]: ...
def f_scalars(x: Tensor, v: Number, dt: opyard.dtype, d: opyard.device, mode: str = "a") -> tuple[Tensor, Tensor]: ...
def f_mut(x: Tensor, out: Tensor) -> None: ...
def f_ret_scalars(x: Tensor) -> tuple[int, float, bool]: ...
def f_defaults(x: Tensor, dt: opyard.dtype = opyard.float64, d: opyard.device = opyard.device("cpu"),
               n: Optional[int] = None, b: bool = True) -> Tensor: ...
def f_pep604(x: Tensor | None, n: int | None) -> Tensor: ...


@pytest.mark.parametrize("fn, mutates, schema", [
    (f_basic, (), "(Tensor x, Tensor? y, SymInt n, float s=1.5, *, bool flag=False) -> Tensor"),
    (f_lists, (), "(Tensor[] xs, Tensor?[] ys, SymInt[] dims, float[]? w=None) -> Tensor[]"),
    (f_scalars, (), '(Tensor x, Scalar v, ScalarType dt, Device d, str mode="a") -> (Tensor, Tensor)'),
    (f_mut, ("out",), "(Tensor x, Tensor(a1!) out) -> ()"),
    (f_mut, {"x", "out"}, "(Tensor(a0!) x, Tensor(a1!) out) -> ()"),
    (f_mut, "unknown", "(Tensor(a0!) x, Tensor(a1!) out) -> ()"),
    (f_lists, ("xs",), "(Tensor(a0!)[] xs, Tensor?[] ys, SymInt[] dims, float[]? w=None) -> Tensor[]"),
    (f_ret_scalars, (), "(Tensor x) -> (SymInt, float, bool)"),
    (f_defaults, (), '(Tensor x, ScalarType dt=float64, Device d="cpu", SymInt? n=None, bool b=True) -> Tensor'),
    (f_pep604, (), "(Tensor? x, SymInt? n) -> Tensor"),
])
def test_inferred_schema(fn, mutates, schema):
    assert infer_schema(fn, mutates_args=mutates) == schema
    # Every inferred schema parses.
    opyard.parse_schema("ns::op" + schema)


def test_op_name_prefix():
    assert infer_schema(f_mut, mutates_args=(), op_name="foo") == "foo(Tensor x, Tensor out) -> ()"


def g_noann(x) -> Tensor: ...
def g_varargs(x: Tensor, *args: int) -> Tensor: ...
def g_varkw(x: Tensor, **kw: int) -> Tensor: ...
def g_posonly(x: Tensor, /) -> Tensor: ...
def g_badtype(x: dict) -> Tensor: ...
def g_tuple(x: tuple[int, int]) -> Tensor: ...
def g_noret(x: Tensor): ...
def g_badret(x: Tensor) -> dict: ...
def g_baddefault(x: Tensor, y: int = [1]) -> Tensor: ...
def g_str_list(x: list[str]) -> Tensor: ...


@pytest.mark.parametrize("fn, mutates, match", [
    (g_noann, (), r"Parameter x must have a type annotation\. Got func with signature \(x\)"),
    (g_varargs, (), "We do not support positional-only args, varargs, or varkwargs"),
    (g_varkw, (), "We do not support positional-only args, varargs, or varkwargs"),
    (g_posonly, (), "We do not support positional-only args, varargs, or varkwargs"),
    (g_badtype, (), r"Parameter x has unsupported type <class 'dict'>\. The valid types are: Tensor, Optional\[Tensor\]"),
    (g_tuple, (), "We do not support Tuple inputs in schema. As a workaround, please try to use List instead"),
    (g_noret, (), "No return type annotation was provided. Please add one."),
    (g_badret, (), "Return has unsupported type <class 'dict'>"),
    (g_baddefault, (), "Parameter y has an unsupported default value type <class 'list'>"),
    (g_str_list, (), r"Parameter x has unsupported type list\[str\]"),
    (f_basic, ("n",), "Parameter n is in mutable_args but only Tensors or collections of Tensors can be mutated"),
    (f_basic, ("nope",), r"\{'nope'\} in mutates_args were not found in the custom op's signature"),
    (f_basic, "x", "mutates_args must either be a sequence of the names of the arguments that are mutated or the string 'unknown'"),
])
def test_rejections(fn, mutates, match):
    with pytest.raises(ValueError, match=match):
        infer_schema(fn, mutates_args=mutates)


def test_string_annotations_are_evaluated():
    def f(x: "Tensor", n: "Optional[int]" = None) -> "Tensor": ...
    assert infer_schema(f, mutates_args=()) == "(Tensor x, SymInt? n=None) -> Tensor"


def test_wrapped_functions_use_the_wrapped_signature():
    import functools

    @functools.wraps(f_basic)
    def wrapper(*args, **kwargs):
        return f_basic(*args, **kwargs)
    assert infer_schema(wrapper, mutates_args=()) == infer_schema(f_basic, mutates_args=())


# torch's scalar annotation is Union[int, float, bool] (torch.types.Number); numbers.Number is kept.
def s_union(x: Tensor, a: Union[int, float, bool]) -> Union[int, float, bool]: ...
def s_pep604(x: Tensor, a: int | float | bool, b: Optional[Union[bool, int, float]] = None) -> Number: ...
def s_order(x: Tensor, a: Union[float, bool, int], b: list[Union[int, float, bool]]) -> tuple[Tensor, Union[int, float, bool]]: ...
def s_optional(x: Tensor, a: Union[int, float, bool, None]) -> Tensor: ...
def t_list_opt(x: Optional[list[Tensor]], y: Optional[Sequence[Optional[Tensor]]]) -> Tensor: ...
def t_one_tuple(x: Tensor) -> tuple[Tensor]: ...
def s_not_scalar(x: Tensor, a: Union[int, float]) -> Tensor: ...


@pytest.mark.parametrize("fn, schema", [
    (s_union, "(Tensor x, Scalar a) -> Scalar"),
    (s_pep604, "(Tensor x, Scalar a, Scalar? b=None) -> Scalar"),
    (s_order, "(Tensor x, Scalar a, Scalar[] b) -> (Tensor, Scalar)"),
    (s_optional, "(Tensor x, Scalar? a) -> Tensor"),
    (t_list_opt, "(Tensor[]? x, Tensor?[]? y) -> Tensor"),
    (t_one_tuple, "(Tensor x) -> ((Tensor))"),
])
def test_scalar_unions_and_torch_2_15_forms(fn, schema):
    assert infer_schema(fn, mutates_args=()) == schema
    assert str(opyard.parse_schema("f" + schema)) == "f" + schema


def test_a_union_that_is_not_a_scalar_is_refused():
    with pytest.raises(ValueError, match=r"Parameter a has unsupported type typing\.Union\[int, float\]"):
        infer_schema(s_not_scalar, mutates_args=())


def i_inplace(x: Tensor, alpha: float = 1.0) -> Tensor: ...
def i_out(x: Tensor, *, out: Tensor) -> Tensor: ...
def i_out2(x: Tensor, *, a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]: ...


@pytest.mark.parametrize("fn, mutates, tags, schema", [
    (i_inplace, ("x",), opyard.Tag.inplace, "(Tensor(a0!) x, float alpha=1.0) -> Tensor(a0!)"),
    (i_inplace, ("x",), [opyard.Tag.inplace, opyard.Tag.pt2_compliant_tag], "(Tensor(a0!) x, float alpha=1.0) -> Tensor(a0!)"),
    (i_out, ("out",), (opyard.Tag.out,), "(Tensor x, *, Tensor(a1!) out) -> Tensor(a1!)"),
    (i_out2, ("a", "b"), opyard.Tag.out, "(Tensor x, *, Tensor(a1!) a, Tensor(a2!) b) -> (Tensor(a1!), Tensor(a2!))"),
    (i_inplace, (), None, "(Tensor x, float alpha=1.0) -> Tensor"),
    (i_inplace, (), opyard.Tag.pt2_compliant_tag, "(Tensor x, float alpha=1.0) -> Tensor"),
])
def test_tags_infer_inplace_and_out_aliasing(fn, mutates, tags, schema):
    assert infer_schema(fn, mutates_args=mutates, tags=tags) == schema


def i_out_int(x: Tensor, *, out: Tensor) -> int: ...


@pytest.mark.parametrize("fn, tags, exc, match", [
    (i_out, "inplace", TypeError, r"infer_schema\(tags=\.\.\.\): expected an opyard\.Tag or a sequence of them"),
    (i_out_int, (opyard.Tag.out,), ValueError, r"Tag\.out requires the return annotation to match the mutable "
                                               r"keyword-only Tensor arguments \('out',\)"),
    (i_out2, opyard.Tag.out, ValueError, r"Tag\.out requires the return annotation to match"),
])
def test_bad_tags(fn, tags, exc, match):
    with pytest.raises(exc, match=match):
        infer_schema(fn, mutates_args=("out",) if fn is not i_out2 else ("a",), tags=tags)
