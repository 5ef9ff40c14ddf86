"""Bad input gets a precise exception, never a silent wrong answer: argument
binding against schemas (int64 range, fixed-size lists, devices, dtypes), the
public constructors, backward's gradients, and messages that quote huge input."""

import pickle

import pytest

import opyard
from opyard.library import Library

BIG = 10 ** 7  # characters of a "10 MB" argument


def _lib(ns, *schemas, key="CompositeExplicitAutograd"):
    """Define `schemas` in `ns`, each with a kernel that returns what it received (keep the
    library alive: its finalizer removes the operators)."""
    lib = Library(ns, "FRAGMENT")
    for s in schemas:
        name = lib.define(s)
        lib.impl(name, lambda *a, **k: (a, k), key)
    return lib, getattr(opyard.ops, ns)


def _raises(fn, exc, pattern):
    with pytest.raises(exc, match=pattern) as info:
        fn()
    assert len(str(info.value)) < 2000, "a message must quote at most ~200 characters of input"
    return info.value


SCHEMAS = (
    "i(Tensor x, int n) -> Any",
    "si(Tensor x, SymInt n) -> Any",
    "il(Tensor x, int[] n) -> Any",
    "i2(Tensor x, int[2] s) -> Any",
    "i1(Tensor x, int[1] s) -> Any",
    "fl(Tensor x, float a) -> Any",
    "fll(Tensor x, float[] a) -> Any",
    "sc(Tensor x, Scalar s) -> Any",
    "scl(Tensor x, Scalar[] s) -> Any",
    "dev(Tensor x, Device d) -> Any",
    "st(Tensor x, ScalarType? dt=None) -> Any",
    "s(Tensor x, str s) -> Any",
)

X = opyard.ones(2)

# case id, call (ops namespace -> result), exception type, message regex
BINDING_CASES = [
    ("int 2**70", lambda o: o.i(X, 2 ** 70), TypeError,
     r"::i\(\) Expected a value of type 'int' for argument 'n' but instead found type 'int'\.\nPosition: 1\n"
     r"Value: 1180591620717411303424\n.*\nCast error details: value out of range for a 64-bit integer"),
    ("int 2**63", lambda o: o.i(X, 2 ** 63), RuntimeError, r"Cast error details: value out of range"),
    ("int -2**63-1", lambda o: o.i(X, -2 ** 63 - 1), TypeError, r"value out of range for a 64-bit integer"),
    ("int kwarg 2**64", lambda o: o.i(X, n=2 ** 64), TypeError, r"argument 'n'.*\n.*\nValue: 18446744073709551616"),
    ("SymInt 2**70", lambda o: o.si(X, 2 ** 70), TypeError, r"type 'SymInt' for argument 'n'.*\n(.*\n)*.*out of range"),
    ("int[] element 2**70", lambda o: o.il(X, [1, 2 ** 70]), TypeError,
     r"type 'int\[\]' for argument 'n' but instead found type 'list'.*\n(.*\n)*.*out of range"),
    ("int[2] single 2**70", lambda o: o.i2(X, 2 ** 70), TypeError, r"out of range for a 64-bit integer"),
    ("int[2] of floats", lambda o: o.i2(X, [1.0, 2.0]), TypeError, r"type 'int\[2\]' for argument 's'"),
    ("float 2**2000", lambda o: o.fl(X, 2 ** 2000), TypeError,
     r"type 'float' for argument 'a' but instead found type 'int'(.*\n)*.*int too large to convert to float"),
    ("float[] 2**2000", lambda o: o.fll(X, [1.0, 2 ** 2000]), TypeError, r"int too large to convert to float"),
    ("Scalar 2**64", lambda o: o.sc(X, 2 ** 64), TypeError,
     r"type 'Scalar' for argument 's'(.*\n)*.*int too big to convert: a Scalar holds integers from -2\*\*63 to 2\*\*64-1"),
    ("Scalar -2**63-1", lambda o: o.sc(X, -2 ** 63 - 1), TypeError, r"int too big to convert"),
    ("Scalar[] of a tensor", lambda o: o.scl(X, [opyard.tensor(2.0)]), TypeError,
     r"type 'Scalar\[\]' for argument 's' but instead found type 'list'"),
    ("Scalar[] of a 1-d tensor", lambda o: o.scl(X, (1, opyard.ones(3))), TypeError, r"type 'Scalar\[\]'"),
    ("Scalar[] of a str", lambda o: o.scl(X, [1, "a"]), TypeError, r"type 'Scalar\[\]'"),
    ("Scalar[] 2**64", lambda o: o.scl(X, [1, 2 ** 64]), TypeError, r"int too big to convert"),
    ("Scalar[] not a list", lambda o: o.scl(X, 3), TypeError, r"type 'Scalar\[\]' for argument 's' but instead found type 'int'"),
    ("Device 'notadevice'", lambda o: o.dev(X, "notadevice"), RuntimeError,
     r"^Expected one of cpu, cuda, meta, privateuseone device type at start of device string: notadevice$"),
    ("Device 'cpu:x'", lambda o: o.dev(X, "cpu:x"), RuntimeError, r"^Invalid device string: 'cpu:x'$"),
    ("Device 'cuda:-1'", lambda o: o.dev(X, "cuda:-1"), RuntimeError, r"^Invalid device string: 'cuda:-1'$"),
    ("Device int", lambda o: o.dev(X, 5), TypeError, r"type 'Device' for argument 'd' but instead found type 'int'"),
    ("Device None", lambda o: o.dev(X, None), TypeError, r"type 'Device' for argument 'd' but instead found type 'NoneType'"),
    ("ScalarType code 999", lambda o: o.st(X, 999), RuntimeError,
     r"type 'ScalarType\?' for argument 'dt'(.*\n)*Cast error details: unsupported scalarType"),
    ("ScalarType str", lambda o: o.st(X, "float32"), TypeError,
     r"type 'ScalarType\?' for argument 'dt' but instead found type 'str'\.\nPosition: 1\nValue: 'float32'"),
    # a long list (not 10 MB: a binding error first scans the arguments for __opyard_function__)
    ("str given long list", lambda o: o.s(X, [1] * 10 ** 5), TypeError, r"Value: \[1, 1, (1, )*1…\n"),
    ("str given 10 MB bytes", lambda o: o.s(X, b"b" * BIG), TypeError, r"Value: b'b{198}…\n"),
    ("float given 10 MB str", lambda o: o.fl(X, "a" * BIG), TypeError, r"Value: 'a{199}…\nDeclaration"),
    ("10 MB keyword", lambda o: o.i(X, 1, **{"k" * BIG: 1}), TypeError,
     r"got an unexpected keyword argument 'k{200}…'\. Declaration"),
    ("10 MB device string", lambda o: o.dev(X, "d" * BIG), RuntimeError, r"device string: d{200}…$"),
]


@pytest.mark.parametrize("call, exc, pattern", [c[1:] for c in BINDING_CASES], ids=[c[0] for c in BINDING_CASES])
def test_bad_arguments(ns, call, exc, pattern):
    lib, ops = _lib(ns, *SCHEMAS)
    _raises(lambda: call(ops), exc, pattern)


def test_single_int_for_a_huge_fixed_size_list(ns):
    lib, ops = _lib(ns, "big(Tensor x, int[100000] s) -> Any")
    _raises(lambda: ops.big(X, 1), TypeError,
            r"Cast error details: a single int would expand to 100000 elements \(more than 65536\); pass a list")


def test_binding_errors_are_type_and_runtime_errors(ns):
    # torch raises RuntimeError from an operator's binder and TypeError from its
    # argument parser; code catching either must catch ours.
    lib, ops = _lib(ns, *SCHEMAS)
    with pytest.raises(TypeError) as info:
        ops.i(X, "s")
    assert isinstance(info.value, RuntimeError)
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is type(info.value) and str(again) == str(info.value)


# the values right at the edges bind unchanged
GOOD_CASES = [
    ("int max", lambda o: o.i(X, 2 ** 63 - 1), (2 ** 63 - 1,)),
    ("int min", lambda o: o.i(X, -2 ** 63), (-2 ** 63,)),
    ("Scalar uint64 max", lambda o: o.sc(X, 2 ** 64 - 1), (2 ** 64 - 1,)),
    ("int[2] two", lambda o: o.i2(X, [1, 2]), ([1, 2],)),
    ("int[2] single int", lambda o: o.i2(X, 3), ([3, 3],)),
    # as torch's: the kernel checks the length of an int[N] list (the pooling ops take [k] for int[2])
    ("int[2] 3 elements", lambda o: o.i2(X, [1, 2, 3]), ([1, 2, 3],)),
    ("int[2] 1 element", lambda o: o.i2(X, (4,)), ((4,),)),
    ("int[1] any length", lambda o: o.i1(X, [1, 2, 3]), ([1, 2, 3],)),
    ("float from int", lambda o: o.fl(X, 2 ** 60), (float(2 ** 60),)),
    ("Device string", lambda o: o.dev(X, "cpu"), (opyard.device("cpu"),)),
    ("Device index", lambda o: o.dev(X, "cuda:1"), (opyard.device("cuda", 1),)),
    ("ScalarType code", lambda o: o.st(X, 4), (opyard.int64,)),
    ("Scalar[] numbers", lambda o: o.scl(X, (1, 2.5, True, 1j)), ((1, 2.5, True, 1j),)),
    ("Scalar[] empty", lambda o: o.scl(X, []), ([],)),
]


@pytest.mark.parametrize("call, expected", [c[1:] for c in GOOD_CASES], ids=[c[0] for c in GOOD_CASES])
def test_edge_values_bind(ns, call, expected):
    lib, ops = _lib(ns, *SCHEMAS)
    args, kwargs = call(ops)
    assert args[1:] == expected and kwargs == {}
    assert [type(a) for a in args[1:]] == [type(e) for e in expected]


def test_device_string_reaches_the_kernel_as_a_device(ns):
    lib, ops = _lib(ns, *SCHEMAS)
    (_, d), _ = ops.dev(X, "cpu")
    assert isinstance(d, opyard.device) and d.type == "cpu"


def test_defaults_the_type_cannot_hold_stay_the_schemas_choice(ns):
    # torch accepts such defaults at define time and passes nothing to the kernel.
    lib, ops = _lib(ns, "st(Tensor x, ScalarType? dt=999) -> Any", "p(Tensor x, int[2] stride=[]) -> Any")
    assert ops.st(X) == ((X,), {})
    assert ops.p(X) == ((X,), {})
    _raises(lambda: ops.st(X, 999), TypeError, r"unsupported scalarType")
    assert ops.p(X, []) == ((X,), {})  # any list binds (torch's); this one is the default, so it is not passed


# --- None for a non-optional Tensor: torch's undefined tensor -------------------------


def test_none_for_tensor_reaches_a_custom_kernel(ns):
    lib, ops = _lib(ns, "f(Tensor x) -> Any", "two(Tensor x, Tensor y) -> Any")
    assert ops.f(None) == ((None,), {})
    assert ops.two(None, X) == ((None, X), {})
    assert ops.two(X, y=None) == ((X, None), {})  # positional parameters arrive positionally


def test_none_is_ignored_by_the_key_set(ns):
    lib = Library(ns, "FRAGMENT")
    lib.define("two(Tensor x, Tensor y) -> Any")
    lib.impl("two", lambda x, y: "cpu", "CPU")
    lib.impl("two", lambda x, y: "meta", "Meta")
    two = getattr(opyard.ops, ns).two
    assert two(None, opyard.ones(1, device="meta")) == "meta"
    assert two(opyard.ones(1), None) == "cpu"
    # no tensor at all: the Undefined key, which a backend kernel does not serve
    _raises(lambda: two(None, None), NotImplementedError, r"Could not run '.*::two' with arguments from the 'Undefined' backend")


def test_none_for_tensor_prefers_an_overload_that_takes_it(ns):
    lib = Library(ns, "FRAGMENT")
    lib.define("g.Tensor(Tensor x, Tensor y) -> Any")
    lib.define("g.opt(Tensor x, Tensor? y) -> Any")
    lib.impl("g.Tensor", lambda x, y: "Tensor", "CompositeExplicitAutograd")
    lib.impl("g.opt", lambda x, y: "opt", "CompositeExplicitAutograd")
    assert getattr(opyard.ops, ns).g(X, None) == "opt"


UNDEFINED = r"Expected a proper Tensor but got None \(or an undefined Tensor in C\+\+\) for argument "


@pytest.mark.parametrize("call, pattern", [
    (lambda: opyard.ops.aten.add.Tensor(None, X), r"#0 'self'"),
    (lambda: opyard.ops.aten.add.Tensor(X, None), r"#1 'other'"),
    (lambda: opyard.ops.aten.sin.default(None), r"#0 'self'"),
    (lambda: opyard.ops.aten.mm.default(X, None), r"#1 'mat2'"),
])
def test_none_for_tensor_of_a_builtin_op(call, pattern):
    # ATen's kernels refuse undefined tensors with this message: a RuntimeError
    # from the operator (and a TypeError from torch's functional forms).
    err = _raises(call, RuntimeError, UNDEFINED + pattern)
    assert isinstance(err, TypeError)


@pytest.mark.parametrize("call, packet, pattern", [
    (lambda: opyard.add(None, X), "add", r"#0 'self'"),
    (lambda: X.add(None), "add", r"#1 'other'"),
    (lambda: opyard.ops.aten.mul(X, None), "mul", r"#1 'other'"),
])
def test_none_for_tensor_of_a_builtin_packet_explains_each_overload(call, packet, pattern):
    err = _raises(call, TypeError, r"failed to match any schema:\n(.*\n)*.*" + UNDEFINED + pattern)
    # each overload says why it does not fit
    assert str(err).count("Declaration: aten::") == len(getattr(opyard.ops.aten, packet).overloads())


def test_none_in_a_tensor_list_is_refused(ns):
    lib, ops = _lib(ns, "tl(Tensor[] xs) -> Any")
    _raises(lambda: ops.tl([X, None]), TypeError, r"type 'Tensor\[\]' for argument 'xs' but instead found type 'list'")


# --- public constructors and dtype helpers ---------------------------------------------

API_CASES = [
    ("tensor dtype str", lambda: opyard.tensor([1], dtype="float32"), TypeError,
     r"^tensor\(\): argument 'dtype' must be opyard\.dtype, not str$"),
    ("tensor dtype int", lambda: opyard.tensor([1], dtype=5), TypeError, r"argument 'dtype' must be opyard\.dtype, not int"),
    ("as_tensor dtype str", lambda: opyard.as_tensor([1], dtype="int"), TypeError, r"^as_tensor\(\): argument 'dtype'"),
    ("zeros dtype str", lambda: opyard.zeros(2, dtype="float32"), TypeError, r"^zeros\(\): argument 'dtype' must be opyard\.dtype"),
    ("full dtype str", lambda: opyard.full((2,), 1.0, dtype="x"), TypeError, r"^full\(\): argument 'dtype'"),
    ("arange dtype str", lambda: opyard.arange(3, dtype="x"), TypeError, r"^arange\(\): argument 'dtype'"),
    ("zeros_like dtype str", lambda: opyard.zeros_like(X, dtype="x"), TypeError, r"^zeros_like\(\): argument 'dtype'"),
    ("promote_types str", lambda: opyard.promote_types(opyard.float32, "int"), TypeError,
     r"^promote_types\(\): argument 'type2' \(position 2\) must be opyard\.dtype, not str$"),
    ("promote_types None", lambda: opyard.promote_types(None, opyard.float32), TypeError,
     r"argument 'type1' \(position 1\) must be opyard\.dtype, not NoneType"),
    ("promote_types same str", lambda: opyard.promote_types("a", "a"), TypeError, r"argument 'type1'"),
    ("set_default_dtype int64", lambda: opyard.set_default_dtype(opyard.int64), TypeError,
     r"^set_default_dtype: expected a floating dtype, got opyard\.int64 \(only floating-point types are supported "
     r"as the default type\)$"),
    ("set_default_dtype 10 MB str", lambda: opyard.set_default_dtype("f" * BIG), TypeError,
     r"^set_default_dtype: expected a floating dtype, got str \("),
    ("randn int64", lambda: opyard.randn(2, dtype=opyard.int64), NotImplementedError,
     r"^\"normal_kernel_cpu\" not implemented for 'Long'"),
    ("randn bool", lambda: opyard.randn(2, dtype=opyard.bool), NotImplementedError, r"not implemented for 'Bool'"),
    ("rand int32", lambda: opyard.rand(2, 3, dtype=opyard.int32), NotImplementedError,
     r"^\"check_uniform_bounds\" not implemented for 'Int'.*opyard\.randint"),
    ("randn_like int tensor", lambda: opyard.randn_like(opyard.zeros(2, dtype=opyard.int64)), NotImplementedError,
     r"not implemented for 'Long'"),
    ("rand_like int dtype", lambda: opyard.rand_like(X, dtype=opyard.uint8), NotImplementedError, r"for 'Byte'"),
    ("zeros 2**70", lambda: opyard.zeros(2 ** 70), TypeError, r"argument 'size'(.*\n)*.*out of range for a 64-bit integer"),
    ("tensor int 2**70", lambda: opyard.tensor([1, 2 ** 70]), ValueError, r"^Overflow when unpacking long long"),
    ("tensor uint8 300", lambda: opyard.tensor([300], dtype=opyard.uint8), RuntimeError,
     r"^value cannot be converted to type uint8 without overflow$"),
    ("tensor ragged", lambda: opyard.tensor([[1, 2], [3]]), ValueError,
     r"^expected sequence of length 2 at dim 1 \(got 1\)$"),
    ("tensor ragged deeper", lambda: opyard.tensor([[[1], [2]], [[3], [4, 5]]]), ValueError,
     r"^expected sequence of length 1 at dim 2 \(got 2\)$"),
    ("tensor bad device", lambda: opyard.tensor([1], device="bad"), RuntimeError,
     r"device type at start of device string: bad$"),
    ("zeros bad device", lambda: opyard.zeros(1, device="bad"), RuntimeError, r"device type at start of device string: bad$"),
]


@pytest.mark.parametrize("call, exc, pattern", [c[1:] for c in API_CASES], ids=[c[0] for c in API_CASES])
def test_bad_api_arguments(call, exc, pattern):
    _raises(call, exc, pattern)


def test_sampling_floating_dtypes_still_works():
    assert opyard.randn(2, dtype=opyard.float64).dtype is opyard.float64
    assert opyard.rand(2).dtype is opyard.float32
    assert opyard.randn_like(X).shape == X.shape
    assert opyard.promote_types(opyard.int32, opyard.float16) is opyard.float16


# --- device(), dispatch keys, backend renaming ----------------------------------------

MISC_CASES = [
    ("device float", lambda: opyard.device(5.5), TypeError,
     r"^device\(\) received an invalid combination of arguments - got \(float\)"),
    ("device None", lambda: opyard.device(None), TypeError, r"got \(NoneType\)"),
    ("device index str", lambda: opyard.device("cuda", "x"), TypeError,
     r"^device\(\): argument 'index' \(position 2\) must be int, not str$"),
    ("device index 2**70", lambda: opyard.device("cuda", 2 ** 70), RuntimeError, r"index 1180591620717411303424 is out of range"),
    ("device int 2**70", lambda: opyard.device(2 ** 70), RuntimeError, r"out of range for a device index"),
    ("device negative index", lambda: opyard.device("cuda", -1), RuntimeError, r"^Device index must not be negative"),
    ("device index twice", lambda: opyard.device("cuda:1", 2), RuntimeError,
     r"^type \(string\) must not include an index because index was passed explicitly: cuda:1$"),
    ("device 10 MB", lambda: opyard.device("x" * BIG), RuntimeError, r"device string: x{200}…$"),
    ("key name 10 MB", lambda: opyard.dispatcher.DispatchKeySet("N" * BIG), RuntimeError,
     r"^could not parse dispatch key: N{200}…$"),
    ("key negative int", lambda: opyard.dispatcher.DispatchKeySet(-1), RuntimeError, r"^could not parse dispatch key: -1$"),
    ("key huge int", lambda: opyard.dispatcher.DispatchKeySet(10 ** 30), RuntimeError, r"could not parse dispatch key: 1000"),
    ("key float", lambda: opyard.dispatcher.DispatchKeySet(3.5), TypeError, r"expected a DispatchKey \(or its name\), got float"),
    ("rename int", lambda: opyard.utils.rename_privateuse1_backend(5), RuntimeError,
     r"^_rename_privateuse1_backend expects a str, but got int$"),
    ("rename 10 MB", lambda: opyard.utils.rename_privateuse1_backend("-" * BIG), RuntimeError,
     r"'-{200}…' is not a valid new backend name"),
    ("schema 10 MB", lambda: opyard.parse_schema("f(" + "x" * BIG + ") -> Tensor"), opyard.SchemaError,
     r"expected an argument name but found '\)' \(line 1, column 10000003\):\n  \.\.\.x{40,120}\) -> Tensor\n {40,130}\^$"),
]


@pytest.mark.parametrize("call, exc, pattern", [c[1:] for c in MISC_CASES], ids=[c[0] for c in MISC_CASES])
def test_bad_misc_arguments(call, exc, pattern):
    err = _raises(call, exc, pattern)
    assert "PyString" not in str(err)


def test_short_schema_errors_are_unchanged():
    with pytest.raises(opyard.SchemaError) as info:
        opyard.parse_schema("f(Tensor x, int) -> Tensor")
    assert str(info.value).endswith("\n  f(Tensor x, int) -> Tensor\n                 ^")


# --- backward's gradients --------------------------------------------------------------


def _fn(ret):
    class F(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, *xs):
            return xs[0] * 2

        @staticmethod
        def backward(ctx, g):
            return ret(g)
    return F


def _leaf():
    return opyard.ones(2, requires_grad=True)


GRAD_CASES = [
    ("two for one", lambda: _fn(lambda g: (g, g)).apply(_leaf()), RuntimeError,
     r"^function FBackward returned an incorrect number of gradients \(expected 1, got 2\)$"),
    ("one for two", lambda: _fn(lambda g: g).apply(_leaf(), _leaf()), RuntimeError,
     r"incorrect number of gradients \(expected 2, got 1\)"),
    ("str gradient", lambda: _fn(lambda g: "a").apply(_leaf()), RuntimeError,
     r"^function FBackward returned an invalid gradient at position 1: expected Variable or None \(got str\)"),
    ("list gradient", lambda: _fn(lambda g: ([g],)).apply(_leaf()), RuntimeError, r"expected Variable or None \(got list\)"),
    ("int gradient", lambda: _fn(lambda g: (g, 3)).apply(_leaf(), _leaf()), RuntimeError,
     r"at position 2: expected Variable or None \(got int\)"),
    ("gradient for a non-tensor", lambda: _fn(lambda g: (g, g)).apply(_leaf(), 3), RuntimeError,
     r"returned a gradient different than None at position 2, but the corresponding forward input was not a Variable"),
]




def _hooked(register, hook):
    y = _leaf() * 2
    register(y, hook)
    return y


GRAD_CASES += [
    ("tensor hook returns str", lambda: _hooked(lambda y, h: y.register_hook(h), lambda g: "s"), TypeError,
     r"^expected Variable, but hook returned 'str'$"),
    ("node pre-hook returns two", lambda: _hooked(lambda y, h: y.grad_fn.register_prehook(h), lambda g: (g[0], g[0])),
     RuntimeError, r"^hook '<lambda>' has returned an incorrect number of values \(got 2, but expected 1\)$"),
    ("node pre-hook returns a str", lambda: _hooked(lambda y, h: y.grad_fn.register_prehook(h), lambda g: "s"),
     TypeError, r"^expected tuple, but hook returned 'str'$"),
    ("node pre-hook returns a str gradient", lambda: _hooked(lambda y, h: y.grad_fn.register_prehook(h), lambda g: ("s",)),
     TypeError, r"^expected Variable, but hook returned 'str'$"),
]


@pytest.mark.parametrize("make, exc, pattern", [c[1:] for c in GRAD_CASES], ids=[c[0] for c in GRAD_CASES])
def test_bad_gradients(make, exc, pattern):
    out = make().sum()
    _raises(out.backward, exc, pattern)


def test_extra_none_gradients_are_dropped():
    x = _leaf()
    _fn(lambda g: (g, None, None)).apply(x, 3).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


# --- no input reaches a Rust panic -------------------------------------------------------

JUNK = [None, True, 0, -1, 2 ** 63, -2 ** 63 - 1, 2 ** 70, 1.5, float("nan"), float("inf"), 1j, "", "cpu:", ":",
        "x" * 1000, b"", [], (), [None], [2 ** 70], [1.5], ["a"], [[1]], {}, object(), opyard.device("meta"),
        opyard.float32, X]


@pytest.mark.parametrize("junk", JUNK, ids=[type(j).__name__ + str(i) for i, j in enumerate(JUNK)])
def test_junk_never_panics(ns, junk):
    # pyo3's PanicException derives from BaseException: `except Exception` would miss it.
    lib, ops = _lib(ns, *SCHEMAS, "dn(Device d) -> Any", "b(Tensor x, bool f, bool[] fs) -> Any")
    for name in ("i", "si", "il", "i2", "i1", "fl", "fll", "sc", "dev", "st", "s", "b"):
        op = getattr(ops, name)
        for args, kwargs in (((X, junk), {}), ((junk, junk), {}), ((X,), {"n": junk}), ((junk,), {})):
            try:
                op(*args, **kwargs)
            except (TypeError, RuntimeError, NotImplementedError):
                pass
    try:
        ops.dn(junk)
    except (TypeError, RuntimeError, NotImplementedError):
        pass


@pytest.mark.parametrize("call, match", [
    (lambda lib: lib.define(5), r"Library.define: expected the schema as a str .* got int"),
    (lambda lib: lib.impl(5, lambda x: x, "CPU"), r"^impl should be passed either a name or an OpOverload object as the first argument, got <class .int.>"),
])
def test_library_refuses_non_string_names(call, match):
    lib = Library("bad_inputs_names", "FRAGMENT")
    try:
        with pytest.raises(TypeError, match=match):
            call(lib)
    finally:
        lib._destroy()


@pytest.mark.parametrize("call, match", [
    (lambda: opyard.ops.aten.randn.default([2], dtype=opyard.int64), r"\"normal_kernel_cpu\" not implemented for 'Long'"),
    (lambda: opyard.ops.aten.rand.default([2], dtype=opyard.bool), r"\"check_uniform_bounds\" not implemented for 'Bool'"),
    (lambda: opyard.ops.aten.rand_like.default(opyard.ones(2, dtype=opyard.int32)),
     r"\"check_uniform_bounds\" not implemented for 'Int'"),
])
def test_sampling_kernels_refuse_integer_dtypes(call, match):
    # The operators themselves refuse, not only the public constructors.
    with pytest.raises(NotImplementedError, match=match):
        call()


def test_no_matching_overload_is_a_runtime_error_as_torch():
    # torch raises RuntimeError from an operator packet; opyard's error is also a TypeError.
    with pytest.raises(RuntimeError, match=r"aten::add invoked from Python failed to match any schema"):
        opyard.ops.aten.add(opyard.ones(1), "x")
