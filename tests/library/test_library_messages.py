"""The messages users match on, held against torch's (``torch/library.py``,
``torch/_library/custom_ops.py``, ``torch/_library/infer_schema.py``): exception type and
text for the same mistakes, spelled with ``opyard`` where torch's names the package."""

import typing

import pytest

import opyard
from opyard import Tag, Tensor
from opyard.library import Library, custom_op, get_kernel, infer_schema


def _clone(x: Tensor) -> Tensor:
    return x.clone()


# --- the messages users match on (torch's library.py, custom_ops.py, infer_schema.py) ---------------

def _define_in_destroyed():
    lib = Library("t_par_d", "FRAGMENT")
    lib._destroy()
    lib.define("foo(Tensor x) -> Tensor")


def _kwarg_only_tensor(x: Tensor, *, y: Tensor) -> Tensor:
    return x.clone()


def _mutates_nothing(x: Tensor) -> None:
    pass


def _no_device(n: int) -> Tensor:
    return opyard.ones(n)


def _sig(*params, ret=Tensor):
    """A function with the given (name, annotation) parameters for infer_schema."""
    def f(**kwargs):
        pass
    import inspect

    f.__signature__ = inspect.Signature(
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=a) for n, a in params],
        return_annotation=ret)
    f.__annotations__ = {n: a for n, a in params if a is not inspect.Parameter.empty}
    return f


MESSAGES = [
    # torch/library.py
    (lambda: Library("t_par_a", "BAD"), ValueError, r"^Unsupported kind: BAD"),
    (lambda: Library("prim", "FRAGMENT"), ValueError, r"^prim is a reserved namespace\."),
    (lambda: Library("t_par_b", "FRAGMENT").define("foo(Tensor x) -> Tensor", alias_analysis="BAD"), RuntimeError,
     r"^Invalid alias_analysis type BAD"),
    (_define_in_destroyed, RuntimeError, r"^Library object has been destroyed"),
    (lambda: opyard.library.define("foo", "(Tensor x) -> Tensor"), ValueError,
     r"^Expected `qualname` to be of the form \"namespace::name\", but got foo\. The qualname passed to the "
     r"opyard\.library APIs must consist of a namespace and a name, e\.g\. aten::sin$"),
    (lambda: opyard.library.impl("t_par_c::foo", "tpu", _clone), RuntimeError,
     r"^Expected one of cpu, cuda, default, meta, privateuseone device type at start of device string: tpu"),
    (lambda: get_kernel("aten::sin", "Bogus"), ValueError, r"^Invalid dispatch key: Bogus$"),
    (lambda: opyard.library.register_fake("t_par_h::nope", lambda x: x), RuntimeError,
     r"^operator t_par_h::nope does not exist"),
    # torch/_library/custom_ops.py
    (lambda: custom_op("t_par_e::f", _clone), TypeError,
     r"custom_op\(\) missing 1 required keyword-only argument: 'mutates_args'"),
    (lambda: custom_op("t_par_e::f", _clone, mutates_args="x"), ValueError,
     r"^mutates_args must either be a sequence of the names of the arguments that are mutated or the string "
     r"'unknown'\. $"),
    (lambda: custom_op("t_par_e::f", _clone, mutates_args=(), device_types="tpu"), RuntimeError,
     r"^Expected one of .* device type at start of device string: tpu"),
    (lambda: custom_op("t_par_e::k", _kwarg_only_tensor, mutates_args=()), NotImplementedError,
     r"^custom_op with kwarg-only Tensor args\. Please make your tensors not kwarg-only\. Got: "
     r"k\(Tensor x, \*, Tensor y\) -> Tensor$"),
    (lambda: custom_op("t_par_e::s", _clone, mutates_args=(), schema="(Tensor(a!) x) -> Tensor"), ValueError,
     r"^Attempted to create a custom op with `mutates_args=\(\)` and `schema=\(Tensor\(a!\) x\) -> Tensor\. The "
     r"schema suggests that the op mutates \{'x'\}which is different from what was provided to us in "
     r"`mutates_args`\. Please make these consistent\.$"),
    (lambda: custom_op("t_par_e::m", _mutates_nothing, mutates_args=("x",)).register_autograd(lambda c, g: g),
     RuntimeError, r"^Cannot register autograd formula for non-functional operator <CustomOpDef\(t_par_e::m\)> "
                   r"with schema t_par_e::m\(Tensor\(a0!\) x\) -> \(\)\. Please create a functional operator and "
                   r"register an autograd formula for that\.$"),
    (lambda: custom_op("t_par_e::d", _no_device, mutates_args=(), device_types="cpu"), ValueError,
     r"^Functions without tensor inputs are required to have a `device: opyard\.device` argument$"),
    (lambda: custom_op("aten::t_par_f", _clone, mutates_args=()), ValueError,
     r"^custom_op\(\.\.\., ns='aten'\): 'aten' is a reserved namespace, please choose something else\. $"),
    # torch/_library/infer_schema.py
    (lambda: infer_schema(_sig(("x", Tensor)), mutates_args="x"), ValueError,
     r"^mutates_args must either be a sequence"),
    (lambda: infer_schema(_sig(("x", dict)), mutates_args=()), ValueError,
     r"^infer_schema\(func\): Parameter x has unsupported type <class 'dict'>\. The valid types are: "),
    (lambda: infer_schema(_sig(("x", typing.Tuple[int, int])), mutates_args=()), ValueError,
     r"^infer_schema\(func\): Parameter x has unsupported type typing\.Tuple\[int, int\]\. We do not support "
     r"Tuple inputs in schema\. As a workaround, please try to use List instead\. For example, list\[int\]\.\n\n"
     r"The valid types are: "),
    (lambda: infer_schema(_sig(("x", typing.Tuple[int, str])), mutates_args=()), ValueError,
     r"use List instead\. \n\nThe valid types are: "),
    (lambda: infer_schema(_sig(("x", "NoSuchType")), mutates_args=()), ValueError,
     r"^infer_schema\(func\): Unsupported type annotation NoSuchType\. It is not a type\. \(name 'NoSuchType' is "
     r"not defined\)\. If you are using 'from __future__ import annotations'"),
    (lambda: infer_schema(_sig(("x", Tensor), ret=dict), mutates_args=()), ValueError,
     r"^infer_schema\(func\): Return has unsupported type <class 'dict'>\. The valid types are: "),
    (lambda: infer_schema(_sig(("n", int)), mutates_args=("n",)), ValueError,
     r"^infer_schema\(func\): Parameter n is in mutable_args but only Tensors or collections of Tensors can be "
     r"mutated Got func with signature"),
    (lambda: infer_schema(_sig(("x", Tensor)), mutates_args=("y",)), ValueError,
     r"^infer_schema\(func\): \{'y'\} in mutates_args were not found in the custom op's signature\. "
     r"mutates_args should contain the names of all args that the custom op mutates, or just the string "
     r"'unknown' if you don't know\. Got func with signature"),
    (lambda: infer_schema(_sig(("x", Tensor), ("y", Tensor)), mutates_args=("y",), tags=Tag.inplace), ValueError,
     r"Tag\.inplace requires mutates_args to contain exactly the first positional argument, got \('y',\)\."),
    (lambda: infer_schema(_sig(("x", Tensor), ret=int), mutates_args=("x",), tags=Tag.inplace), ValueError,
     r"Tag\.inplace requires the return annotation to be opyard\.Tensor\."),
    (lambda: infer_schema(_sig(("x", Tensor), ("out", Tensor)), mutates_args=("out",), tags=Tag.out),
     ValueError, r"Tag\.out requires mutable arguments to be keyword-only\."),
    (lambda: infer_schema(_sig(("x", Tensor)), mutates_args=(), tags=Tag.out), ValueError,
     r"Tag\.out requires at least one mutable keyword-only Tensor argument\."),
    (lambda: infer_schema(_sig(("x", Tensor)), mutates_args=("x",), tags=(Tag.out, Tag.inplace)), AssertionError,
     r"Tag\.inplace and opyard\.Tag\.out are mutually exclusive"),
]


@pytest.mark.parametrize("call, exc, match", MESSAGES)
def test_library_messages_as_torch(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_unknown_device_type_is_still_a_value_error():
    # torch raises RuntimeError; opyard raised ValueError before: the error is both.
    with pytest.raises(ValueError, match="unknown device type 'tpu'"):
        custom_op("t_par_g::f", _clone, mutates_args=(), device_types="tpu")


@pytest.mark.parametrize("call, exc, match", [
    (lambda lib: lib.impl("f", 3, "CPU"), TypeError,
     r"^Input function is required to be a callable but found type <class 'int'>"),
    (lambda lib: lib.impl(3, _clone, "CPU"), TypeError,
     r"^impl should be passed either a name or an OpOverload object as the first argument, got <class 'int'>"),
])
def test_impl_argument_messages(ns, call, exc, match):
    lib = Library(ns, "FRAGMENT")
    lib.define("f(Tensor x) -> Tensor")
    with pytest.raises(exc, match=match):
        call(lib)


@pytest.mark.parametrize("device_type, exc, match", [
    (3, ValueError, r"^Expected `device_type` of type `str`, got: `<class 'int'>`$"),
    ("meta", ValueError, r"^Device type 'meta' does not support autocast\."),
    ("xyz", RuntimeError, r"^Expected one of cpu, cuda, meta, privateuseone device type at start of device "
                          r"string: xyz"),
    ("default", RuntimeError, r"^Expected one of .* device type at start of device string: default"),
])
def test_register_autocast_device_type_errors(ns, device_type, exc, match):
    op = custom_op(f"{ns}::ac", _clone, mutates_args=())
    with pytest.raises(exc, match=match):
        op.register_autocast(device_type, opyard.float16)
    with pytest.raises(exc, match=match):
        opyard.library.register_autocast(f"{ns}::ac", device_type, opyard.float16)
