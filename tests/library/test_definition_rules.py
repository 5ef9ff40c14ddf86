"""The library surface held against torch's: custom_op names, reserved namespaces, aliasing,
CompositeImplicit + CompositeExplicit kernels, alias annotations in schemas, Tag.inplace /
Tag.out ops (get_kernel and set_kernel_enabled: test_get_kernel.py; the message table:
test_library_messages.py).

Each expected text below is torch's (``torch/library.py``, ``torch/_library/custom_ops.py``,
``torch/_library/infer_schema.py``), spelled with ``opyard`` where it names the package.
"""

import pytest

import opyard
from opyard import Tag, Tensor
from opyard.dispatcher import PythonDispatcher
from opyard.library import Library, custom_op


def _clone(x: Tensor) -> Tensor:
    return x.clone()


# --- custom_op names: overloads, reserved namespaces ----------------------------------------------

def test_custom_op_with_an_overload_name(ns):
    a = custom_op(f"{ns}::f.ov", lambda x: x * 2, mutates_args=(), schema="(Tensor x) -> Tensor")
    b = custom_op(f"{ns}::f.ov2", lambda x: x * 3, mutates_args=(), schema="(Tensor x) -> Tensor")
    x = opyard.ones(2)
    assert a._name == "f.ov" and a._qualname == f"{ns}::f.ov" and repr(a) == f"<CustomOpDef({ns}::f.ov)>"
    assert a._opoverload.name() == getattr(opyard.ops, ns).f.ov.name() == f"{ns}::f.ov"
    assert sorted(getattr(opyard.ops, ns).f.overloads()) == ["ov", "ov2"]
    assert a(x).tolist() == [2.0, 2.0] and b(x).tolist() == [3.0, 3.0]
    assert getattr(opyard.ops, ns).f.ov2(x).tolist() == [3.0, 3.0]
    a.register_kernel("cpu", lambda x: x * 5)
    assert a(x).tolist() == [5.0, 5.0] and b(x).tolist() == [3.0, 3.0]


@pytest.mark.parametrize("name", ["noseparator", "ns::", "::op", "ns::op.a.b", "ns::op.", "ns::a::b",
                                  "ns.x::op", "ns::1op", "ns::op.1"])
def test_custom_op_refuses_malformed_names(name):
    with pytest.raises(ValueError, match=r"expected a name like \"mylib::my_op\" or \"mylib::my_op.overload\""):
        custom_op(name, _clone, mutates_args=())


def test_default_is_not_an_overload_name(ns):
    with pytest.raises(opyard.SchemaError, match="'default' is not a legal overload name"):
        custom_op(f"{ns}::f.default", _clone, mutates_args=())


@pytest.mark.parametrize("reserved", ["prim", "prims", "aten", "at", "torch", "pytorch"])
def test_custom_op_refuses_reserved_namespaces(reserved):
    with pytest.raises(ValueError, match=rf"^custom_op\(\.\.\., ns='{reserved}'\): '{reserved}' is a reserved "
                                         r"namespace, please choose something else\. $"):
        custom_op(f"{reserved}::t_par_op", _clone, mutates_args=())
    assert opyard._core._find_op(f"{reserved}::t_par_op") is None


@pytest.mark.parametrize("kind", ["DEF", "FRAGMENT"])
def test_library_refuses_to_define_in_prim(kind):
    with pytest.raises(ValueError, match=r"^prim is a reserved namespace\. Please try creating a library with "
                                         r"another name\.$"):
        Library("prim", kind)


def test_library_may_implement_in_prim_and_define_in_prims():
    Library("prim", "IMPL")._destroy()
    Library("prims", "FRAGMENT")._destroy()  # only custom_op reserves "prims"


# --- aliasing at call time -------------------------------------------------------------------------

ALIASING = [
    # (schema, mutates_args, kernel, error expected)
    ("(Tensor x) -> Tensor", (), lambda x: x, True),
    ("(Tensor x) -> Tensor", (), lambda x: x[1:], True),
    ("(Tensor x) -> Tensor", (), lambda x: x.view(-1), True),
    ("(Tensor x) -> (Tensor, Tensor)", (), lambda x: (x.clone(), x[0:1]), True),
    ("(Tensor x) -> Tensor[]", (), lambda x: [x.clone(), x[1:]], True),
    ("(Tensor[] xs) -> Tensor", (), lambda xs: xs[0][1:], True),
    ("(Tensor(a!) x) -> Tensor", ("x",), lambda x: x, True),  # mutable ops are checked too
    ("(Tensor x) -> (Tensor, Tensor)", (), lambda x: (x.clone(), x.clone()), False),
    # A schema that says the output is a view of the input is not checked (torch's _is_view_op).
    ("(Tensor(a) x) -> Tensor(a)", (), lambda x: x.view(-1), False),
]


@pytest.mark.parametrize("schema, mutates, kernel, raises", ALIASING)
def test_outputs_aliasing_inputs_raise_at_call_time(ns, schema, mutates, kernel, raises):
    op = custom_op(f"{ns}::al", kernel, mutates_args=mutates, schema=schema)
    arg = [opyard.ones(3)] if "Tensor[] xs" in schema else opyard.ones(3)
    if not raises:
        op(arg)
        return
    with pytest.raises(RuntimeError, match=r"^al \(with implementation in .*\): The output of this custom "
                                           r"operator \(1\) must not also be an input to this custom operator and "
                                           r"\(2\) may not alias any inputs to this custom operator or other "
                                           r"returns\..*Please instead return a clone of the offending output "
                                           r"tensor\(s\) \(e\.g\. return x\.clone\(\)\)"):
        op(arg)


def test_returning_the_base_of_a_view_input_raises(ns):
    op = custom_op(f"{ns}::base", lambda x: x._base, mutates_args=(), schema="(Tensor x) -> Tensor")
    with pytest.raises(RuntimeError, match="must not also be an input"):
        op(opyard.ones(4)[1:])


# --- CompositeImplicitAutograd and CompositeExplicitAutograd for one op ----------------------------

@pytest.mark.parametrize("order", [("CompositeImplicitAutograd", "CompositeExplicitAutograd"),
                                   ("CompositeExplicitAutograd", "CompositeImplicitAutograd")])
def test_library_accepts_both_composite_kernels_and_explicit_wins(ns, order):
    # torch forbids the pair only in codegen and in PythonDispatcher; Library.impl accepts it.
    lib = Library(ns, "FRAGMENT")
    lib.define("a(Tensor x) -> Tensor")
    kernels = {"CompositeImplicitAutograd": lambda x: x + 1, "CompositeExplicitAutograd": lambda x: x + 2}
    for key in order:
        lib.impl("a", kernels[key], key)
    assert getattr(opyard.ops, ns).a(opyard.ones(2)).tolist() == [3.0, 3.0]


def test_python_dispatcher_refuses_both_composite_keys():
    with pytest.raises(RuntimeError, match=r"^Registration to both CompositeImplicitAutograd and "
                                           r"CompositeExplicitAutograd is not allowed\.$"):
        PythonDispatcher().register(["CompositeImplicitAutograd", "CompositeExplicitAutograd"])


# --- alias annotations on returns: torch's Library.define refuses none of these --------------------

@pytest.mark.parametrize("schema", [
    "c1(Tensor(a) x) -> Tensor(a)", "c2(Tensor(a!) x) -> Tensor(a!)", "c3(Tensor(a) x) -> (Tensor(a), Tensor)",
    "c4(Tensor x) -> Tensor(a)", "c5(Tensor(a) x) -> Tensor(a)[]", "c7(Tensor(a -> *) x) -> Tensor(a)",
    "c8(Tensor(a) x, Tensor(b) y) -> (Tensor(a), Tensor(b))", "c9(Tensor(a!) x) -> Tensor(a)",
    "c10(Tensor[](a!) x) -> ()", "c11(Tensor(a) x) -> Tensor(b)", "c12(Tensor x) -> Tensor(a!)",
    "c13(Tensor(a) x) -> Tensor(a!)",
])
def test_define_accepts_alias_annotated_returns_as_torch(ns, schema):
    lib = Library(ns, "FRAGMENT")
    assert lib.define(schema) == schema.split("(")[0]
    name = schema.split("(")[0]
    assert str(getattr(getattr(opyard.ops, ns), name).default._schema) == f"{ns}::{schema}"


def test_autograd_refuses_a_view_of_two_inputs(ns):
    op = custom_op(f"{ns}::v2", lambda x, y: x.view(-1), mutates_args=(),
                   schema="(Tensor(a) x, Tensor y) -> Tensor(a)")
    with pytest.raises(RuntimeError, match=r"^Cannot register autograd formula for non-functional operator "
                                           rf"<CustomOpDef\({ns}::v2\)> with schema {ns}::v2\(Tensor\(a\) x, "
                                           r"Tensor y\) -> Tensor\(a\)\. Please create a functional operator"):
        op.register_autograd(lambda ctx, g: (g, None))


# --- Tag.inplace / Tag.out custom ops ----------------------------------------------------------------

def test_inplace_tagged_custom_op(ns):
    @custom_op(f"{ns}::add1_", mutates_args=("x",), tags=Tag.inplace)
    def add1_(x: Tensor) -> Tensor:
        x.add_(1)
        return x
    assert str(add1_._schema) == f"{ns}::add1_(Tensor(a0!) x) -> Tensor(a0!)"
    x = opyard.zeros(2)
    assert add1_(x) is x and x.tolist() == [1.0, 1.0]

    @custom_op(f"{ns}::bad_", mutates_args=("x",), tags=Tag.inplace)
    def bad_(x: Tensor) -> Tensor:
        return x.clone()
    with pytest.raises(RuntimeError, match=r"^bad_ \(with implementation in .*\): An operator tagged with "
                                           r"opyard\.Tag\.inplace must return its first argument\.$"):
        bad_(opyard.zeros(2))


def test_out_tagged_custom_op(ns):
    @custom_op(f"{ns}::copy_out", mutates_args=("out",), tags=[Tag.out])
    def copy_out(x: Tensor, *, out: Tensor) -> Tensor:
        out.copy_(x)
        return out
    assert str(copy_out._schema) == f"{ns}::copy_out(Tensor x, *, Tensor(a1!) out) -> Tensor(a1!)"
    y = opyard.zeros(2)
    assert copy_out(opyard.ones(2), out=y) is y and y.tolist() == [1.0, 1.0]

    @custom_op(f"{ns}::bad_out", mutates_args=("out",), tags=Tag.out)
    def bad_out(x: Tensor, *, out: Tensor) -> Tensor:
        return x.clone()
    with pytest.raises(RuntimeError, match=r"An operator tagged with opyard\.Tag\.out must return its mutable "
                                           r"keyword-only arguments\.$"):
        bad_out(opyard.ones(2), out=opyard.zeros(2))


def test_out_tagged_custom_op_refuses_an_autograd_formula(ns):
    @custom_op(f"{ns}::o", mutates_args=("out",), tags=Tag.out)
    def o(x: Tensor, *, out: Tensor) -> Tensor:
        out.copy_(x)
        return out
    with pytest.raises(RuntimeError, match=rf"^Cannot register autograd formula for operator tagged with "
                                           rf"opyard\.Tag\.out: <CustomOpDef\({ns}::o\)>\. Out variants do not "
                                           r"support autograd\.$"):
        o.register_autograd(lambda ctx, g: g)


def test_an_overloaded_custom_op_gets_its_autograd_formula(ns):
    op = custom_op(f"{ns}::m.ov", lambda x: x * 2, mutates_args=(), schema="(Tensor x) -> Tensor")
    op.register_autograd(lambda ctx, g: g * 10)
    x = opyard.ones(2, requires_grad=True)
    op(x).sum().backward()
    assert x.grad.tolist() == [10.0, 10.0]


# --- Library.define of schemas tagged Tag.out / Tag.inplace (torch's _validate_*_schema) ----------

TAGGED_SCHEMAS = [
    ("o1(Tensor x, *, Tensor(a!) out) -> Tensor(a!)", Tag.out, None),
    ("o1b(Tensor x, *, Tensor(a!) a, Tensor(b!) b) -> (Tensor(a!), Tensor(b!))", Tag.out, None),
    ("o2(Tensor x) -> Tensor", Tag.out,
     r"^Schema tagged with opyard\.Tag\.out must have at least one mutable argument\. Got: o2\(Tensor x\) -> Tensor$"),
    ("o3(Tensor(a!) x) -> Tensor(a!)", Tag.out,
     r"requires all mutable arguments to be keyword-only \(after the \*\)\. Found mutable positional args: \['x'\]\."),
    ("o4(Tensor x, *, Tensor(a!)[] out) -> ()", Tag.out,
     r"only supports Tensor mutable arguments\. Found unsupported mutable args: \['out'\]\."),
    ("o5(Tensor x, *, Tensor(a!) out) -> ()", Tag.out,
     r"must return all mutable arguments \(got 1 mutable args but 0 returns\)\."),
    ("o6(Tensor x, *, Tensor(a!) out) -> Tensor", Tag.out, r"^Return 0 of schema tagged with opyard\.Tag\.out must "
                                                           r"alias mutable arg 'out'\. Got: "),
    ("o7(Tensor x, *, Tensor(a!) out) -> Tensor(a)", Tag.out,
     r"must be a mutable alias \(e\.g\., Tensor\(a!\), not Tensor\(a\)\) of arg 'out'\."),
    ("o8(Tensor x, *, Tensor(a!) out) -> Tensor(b!)", Tag.out,
     r"must alias mutable arg 'out' \(return aliases \{'b'\} but arg aliases \{'a'\}\)\."),
    ("i1(Tensor(a!) x) -> Tensor(a!)", Tag.inplace, None),
    ("i2(*, Tensor(a!) x) -> Tensor(a!)", Tag.inplace,
     r"^Schema tagged with opyard\.Tag\.inplace must have at least one positional argument\."),
    ("i3(Tensor x) -> Tensor", Tag.inplace,
     r"requires the first positional argument to be mutable \(e\.g\., Tensor\(a!\)\)\. Got: i3\(Tensor x\) -> Tensor$"),
    ("i4(Tensor(a!)[] x) -> Tensor(a!)", Tag.inplace,
     r"requires the first positional argument to be a Tensor\. Got type 'List\[Tensor\]' for arg 'x'\."),
    ("i5(Tensor(a!) x) -> (Tensor(a!), Tensor)", Tag.inplace,
     r"must return exactly one value \(the first argument\)\. Got 2 returns\."),
    ("i6(Tensor(a!) x) -> int", Tag.inplace, r"\(return must be a Tensor, got type 'int'\)\."),
    ("i7(Tensor(a!) x) -> Tensor", Tag.inplace, r"\(return must alias the first argument\)\."),
    ("i8(Tensor(a!) x) -> Tensor(a)", Tag.inplace, r"\(return must be a mutable alias, e\.g\., Tensor\(a!\)\)\."),
    ("i9(Tensor(a!) x) -> Tensor(b!)", Tag.inplace,
     r"\(return aliases \{'b'\} but first arg aliases \{'a'\}\)\."),
    ("i10(Tensor(a!) x, Tensor(b!) y) -> Tensor(a!)", Tag.inplace,
     r"must only mutate the first positional argument\. Found additional mutable args: \['y'\]\."),
    ("i11(Tensor(a!)? x) -> Tensor(a!)", Tag.inplace, r"Got type 'Optional\[Tensor\]' for arg 'x'\."),
]


@pytest.mark.parametrize("schema, tag, error", TAGGED_SCHEMAS)
def test_define_checks_out_and_inplace_schemas(ns, schema, tag, error):
    lib = Library(ns, "FRAGMENT")
    name = schema.split("(")[0]
    if error is None:
        assert lib.define(schema, tags=tag) == name
        assert tag in getattr(getattr(opyard.ops, ns), name).default.tags
        return
    with pytest.raises(ValueError, match=error):
        lib.define(schema, tags=(tag,))
    assert opyard._core._find_op(f"{ns}::{name}") is None
    lib.define(schema)  # untagged, the same schema is fine


def test_define_refuses_pure_function_alias_analysis(ns):
    with pytest.raises(RuntimeError, match=r"^Invalid alias_analysis type PURE_FUNCTION"):
        Library(ns, "FRAGMENT").define("f(Tensor x) -> Tensor", alias_analysis="PURE_FUNCTION")


def test_unknown_mutates_args_with_an_explicit_schema_is_refused(ns):
    # torch compares set("unknown") with the schema's mutated arguments: never equal.
    with pytest.raises(ValueError, match=r"^Attempted to create a custom op with `mutates_args=unknown` and "
                                         r"`schema=\(Tensor\(a!\) x\) -> \(\)\. The schema suggests that the op "
                                         r"mutates \{'x'\}which is different"):
        custom_op(f"{ns}::u", lambda x: None, mutates_args="unknown", schema="(Tensor(a!) x) -> ()")
    op = custom_op(f"{ns}::u", lambda x: None, mutates_args=("x",), schema="(Tensor(a!) x) -> ()")
    op(opyard.ones(1))


def test_library_register_fake_method_and_allow_override(ns):
    lib = Library(ns, "FRAGMENT")
    lib.define("f(Tensor x) -> Tensor")
    lib._register_fake("f", lambda x: x.new_empty(x.shape))
    lib._register_fake("f", lambda x: x.new_empty((2, *x.shape)))  # allow_override defaults to True, as torch
    with pytest.raises(RuntimeError, match=rf"^register_fake\(\.\.\.\): the operator {ns}::f already has a fake "
                                           r"impl registered at .*:\d+\.$"):
        lib._register_fake("f", lambda x: x.new_empty(x.shape), allow_override=False)
    with opyard.fake.FakeTensorMode() as mode:
        assert tuple(getattr(opyard.ops, ns).f(mode.from_tensor(opyard.ones(3))).shape) == (2, 3)


@pytest.mark.parametrize("reserved", ["aten", "prims"])
def test_legacy_custom_op_refuses_reserved_namespaces(reserved):
    with pytest.raises(ValueError, match=rf"^custom_op\(\.\.\., ns='{reserved}'\): '{reserved}' is a reserved"):
        opyard._custom_ops.custom_op(f"{reserved}::t_par_legacy", "(Tensor x) -> Tensor")


@pytest.mark.parametrize("schema, match", [
    ("foo(asdf a) -> Tensor", r"unknown type specifier 'asdf'"),
    ("foo(Tensor a) -> asdfasdf", r"unknown type specifier 'asdfasdf'"),
])
def test_define_refuses_unknown_type_names(schema, match):
    # parse_schema reads lowercase unknown names as type variables (as torch's parser);
    # defining an operator refuses them (as torch's operator registration).
    assert opyard.parse_schema("ns::" + schema)
    lib = Library("define_typevars", "FRAGMENT")
    try:
        with pytest.raises(opyard.SchemaError, match=match):
            lib.define(schema)
    finally:
        lib._destroy()
