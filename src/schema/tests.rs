//! Grammar tests beyond the corpus, with the forms torch's printer produces.
//! The corpus, error and fuzz tests live in `tests/`.

use super::*;

mod corpus;
mod errors;
mod fuzz;
mod hostile;
mod torch_cases;

/// The canonical text of `s`, checked to be a fixed point of parse ∘ print.
fn printed(s: &str) -> String {
    let got = parse_schema(s)
        .unwrap_or_else(|e| panic!("{s}: {e}"))
        .to_string();
    let again = parse_schema(&got).map(|x| x.to_string());
    assert_eq!(again.as_deref(), Ok(got.as_str()), "not a fixed point: {s}");
    got
}

#[test]
fn types_and_alias_annotations() {
    let cases = [
        (
            "f(Tensor(a -> *) x) -> Tensor",
            "f(Tensor(a -> *) x) -> Tensor",
        ),
        (
            "f(Tensor(a|b) x) -> Tensor(a|b)",
            "f(Tensor(a|b) x) -> Tensor(a|b)",
        ),
        ("f(Tensor(a|a) x) -> Tensor", "f(Tensor(a) x) -> Tensor"),
        (
            "f(Tensor(a! -> a|b) x) -> Tensor",
            "f(Tensor(a! -> a|b) x) -> Tensor",
        ),
        ("f(Tensor(*) x) -> Tensor", "f(Tensor(*) x) -> Tensor"),
        ("f(Tensor! x) -> Tensor", "f(Tensor($0! -> ) x) -> Tensor"),
        (
            "f(Tensor! x, Tensor! y) -> ()",
            "f(Tensor($0! -> ) x, Tensor($1! -> ) y) -> ()",
        ),
        (
            "f(Tensor(a)[] xs) -> Tensor(a)[]",
            "f(Tensor(a)[] xs) -> Tensor(a)[]",
        ),
        ("f(Tensor(a!)[] xs) -> ()", "f(Tensor(a!)[] xs) -> ()"),
        ("f(Tensor[](a!) xs) -> ()", "f(Tensor[](a!) xs) -> ()"),
        ("f(Tensor(a)[](b!) xs) -> ()", "f(Tensor(a)[](b!) xs) -> ()"),
        ("f(Tensor(a!)? x) -> ()", "f(Tensor(a!)? x) -> ()"),
        (
            "f(Tensor?[] xs, Tensor?[]? ys) -> ()",
            "f(Tensor?[] xs, Tensor?[]? ys) -> ()",
        ),
        // torch's printer puts an optional element's annotation after the `?`.
        ("f(Tensor(a!)?[] xs) -> ()", "f(Tensor?(a!)[] xs) -> ()"),
        ("f(Tensor!?[] xs) -> ()", "f(Tensor?($0! -> )[] xs) -> ()"),
        // ... and a nested list's element annotation as an empty one.
        ("f(Tensor(a)[][] xs) -> ()", "f(Tensor[]()[] xs) -> ()"),
        ("f(Tensor(a!)[][2] xs) -> ()", "f(Tensor[](!)[2] xs) -> ()"),
        (
            "f(Tensor(a)?? x) -> Tensor(b)??",
            "f(Tensor?(a)? x) -> Tensor?(b)?",
        ),
        ("f(Tensor(a)[]?[2]? x) -> ()", "f(Tensor[]?()[2]? x) -> ()"),
        ("f(DeviceIndex[2] i=-1) -> ()", "f(int[2] i=-1) -> ()"),
        (
            "f((int, str) pair, Dict(str, Tensor) d) -> (Tensor, int)",
            "f((int, str) pair, Dict(str, Tensor) d) -> (Tensor, int)",
        ),
        (
            "f(Dict(str, Tensor)(a!) d) -> ()",
            "f(Dict(str, Tensor)(a!) d) -> ()",
        ),
        (
            "f(Future(Tensor) fut, RRef(t) r, Await(int) a) -> t",
            "f(Future(Tensor) fut, RRef(t) r, Await(int) a) -> t",
        ),
        ("f(t[] xs, t x, t? y) -> t[]", "f(t[] xs, t x, t? y) -> t[]"),
        (
            "f(__torch__.torch.classes.ns.Cls c) -> ()",
            "f(__torch__.torch.classes.ns.Cls c) -> ()",
        ),
        (
            "f(DeviceIndex i, ConstQuantizerPtr q) -> ()",
            "f(int i, int q) -> ()",
        ),
        (
            "f(None a, NoneType b, Any c, Storage s, Stream t) -> ()",
            "f(NoneType a, NoneType b, Any c, Storage s, Stream t) -> ()",
        ),
        (
            "f(SymInt[] a, SymInt[2] b, int[1]? c=None, SymInt[]? d=None) -> ()",
            "f(SymInt[] a, SymInt[2] b, int[1]? c=None, SymInt[]? d=None) -> ()",
        ),
        ("f(Tensor(a)[2] x) -> ()", "f(Tensor(a)[2] x) -> ()"),
        ("f(int[2]? x) -> ()", "f(int[2]? x) -> ()"),
        (
            "f((int, int)[] xs) -> ((int, int)[])",
            "f((int, int)[] xs) -> ((int, int)[])",
        ),
    ];
    for (input, want) in cases {
        assert_eq!(printed(input), want, "input {input}");
    }
}

#[test]
fn names_arguments_and_returns() {
    let cases = [
        ("f(...) -> ...", "f(...) -> ..."),
        ("f(int a, ...) -> (int, ...)", "f(int a, ...) -> (int, ...)"),
        ("f() -> ()", "f() -> ()"),
        ("f(Tensor x) -> ((Tensor))", "f(Tensor x) -> ((Tensor))"),
        ("f(Tensor x) -> (Tensor)", "f(Tensor x) -> Tensor"),
        (
            "f(Tensor x) -> (Tensor values, Tensor indices)",
            "f(Tensor x) -> (Tensor values, Tensor indices)",
        ),
        (
            "f(Tensor from, Tensor to, Tensor self) -> ()",
            "f(Tensor from, Tensor to, Tensor self) -> ()",
        ),
        (
            "ns::f.ov(*, Tensor(a!) out) -> Tensor(a!)",
            "ns::f.ov(*, Tensor(a!) out) -> Tensor(a!)",
        ),
        (
            "ns :: f . ov ( Tensor x )->Tensor",
            "ns::f.ov(Tensor x) -> Tensor",
        ),
        ("f(Tensor a, *) -> ()", "f(Tensor a) -> ()"),
        // torch exempts lists from "no positional argument without a default after one with".
        ("f(int a=1, int[] b) -> ()", "f(int a=1, int[] b) -> ()"),
        ("f(int a=1, *, int b) -> ()", "f(int a=1, *, int b) -> ()"),
        ("f(Tensor x)\n -> Tensor\n", "f(Tensor x) -> Tensor"),
    ];
    for (input, want) in cases {
        assert_eq!(printed(input), want, "input {input}");
    }
}

#[test]
fn defaults_print_as_torch_prints_them() {
    let cases = [
        ("f(float a=1e-5, float b=-2.5e+3, float c=3, float d=-0.0, float e=1e20) -> ()",
         "f(float a=1.0000000000000001e-05, float b=-2500., float c=3., float d=0., float e=1e+20) -> ()"),
        ("f(float a=0.1, float b=.5, float c=123456789012.5, float d=- 1.5) -> ()",
         "f(float a=0.10000000000000001, float b=0.5, float c=123456789012.5, float d=-1.5) -> ()"),
        ("f(float? a=1, float? b=1.5, Scalar c=2, Scalar d=2.5, Scalar e=True) -> ()",
         "f(float? a=1, float? b=1.5, Scalar c=2, Scalar d=2.5, Scalar e=True) -> ()"),
        ("f(str s='it\\'s', str t=\"a\\nb\", str u='\\101\\t\\\\') -> ()",
         "f(str s=\"it\\'s\", str t=\"a\\nb\", str u=\"A\\t\\\\\") -> ()"),
        ("f(str s=\"\"\"tri\nple\"\"\", str? t=None, str? u='x') -> ()",
         "f(str s=\"tri\\nple\", str? t=None, str? u=\"x\") -> ()"),
        ("f(int[2] a=1, SymInt[2] b=1, float[2] c=[1.5, 2], bool[2] d=[True, False], int[2] e=[1, 2]) -> ()",
         "f(int[2] a=1, SymInt[2] b=[1, 1], float[2] c=[1.5, 2.], bool[2] d=[True, False], int[2] e=[1, 2]) -> ()"),
        ("f(int[] a=[], float[] b=[], bool[3] c=False, int[1] d=[7]) -> ()",
         "f(int[] a=[], float[] b=[], bool[3] c=[False, False, False], int[1] d=[7]) -> ()"),
        ("f(ScalarType a=long, MemoryFormat b=contiguous_format, int c=Mean, Layout d=strided, ScalarType? e=bfloat16, int f=long) -> ()",
         "f(ScalarType a=4, MemoryFormat b=0, int c=1, Layout d=0, ScalarType? e=15, int f=4) -> ()"),
        ("f(MemoryFormat a=contiguous_format, MemoryFormat? b=contiguous_format, ScalarType c=float, ScalarType d=complex, ScalarType e=int) -> ()",
         "f(MemoryFormat a=0, MemoryFormat? b=0, ScalarType c=6, ScalarType d=9, ScalarType e=3) -> ()"),
        ("f(complex c=1j, complex d=1.5-2j, complex e=2, complex[] f=[1, 2j]) -> ()",
         "f(complex c=0.+1.j, complex d=1.5-2.j, complex e=2.+0.j, complex[] f=[1.+0.j, 0.+2.j]) -> ()"),
        ("f(Device a=\"cpu\", Device b='cuda:1', Device? c=\"cpu\", Device? d=None) -> ()",
         "f(Device a=cpu, Device b=cuda:1, Device? c=cpu, Device? d=None) -> ()"),
        ("f(Tensor a=None, Generator? g=None, int[]? b=None, int[2]? c=1) -> ()",
         "f(Tensor a=None, Generator? g=None, int[]? b=None, int[2]? c=1) -> ()"),
        ("f(int a=-9223372036854775808, bool b=False) -> ()",
         "f(int a=-9223372036854775808, bool b=False) -> ()"),
    ];
    for (input, want) in cases {
        assert_eq!(printed(input), want, "input {input}");
    }
}

#[test]
fn schema_structure() {
    let s = parse_schema(
        "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
    )
    .unwrap();
    assert_eq!(
        (s.name.as_str(), s.overload_name.as_str()),
        ("aten::add", "out")
    );
    assert_eq!(
        (s.qualified_name().as_str(), s.namespace()),
        ("aten::add.out", Some("aten"))
    );
    assert_eq!(s.arguments.len(), 4);
    assert!(s.arguments[2].kwarg_only && !s.arguments[1].kwarg_only);
    assert_eq!(s.arguments[2].default, Some(DefaultValue::Int(1)));
    let alias = s.arguments[3].alias_info.as_ref().unwrap();
    assert!(alias.is_write && alias.before_set == ["a"] && alias.after_set == ["a"]);
    assert!(s.is_mutable());
    assert_eq!(s.arguments[3].to_string(), "Tensor(a!) out");
    assert_eq!(s.arguments[3].ty.to_string(), "Tensor");

    let list = parse_schema("f(Tensor(a!)[] xs) -> ()").unwrap();
    let a = list.arguments[0].alias_info.as_ref().unwrap();
    assert!(a.before_set.is_empty() && a.is_write && a.contained[0].before_set == ["a"]);
    assert!(list.is_mutable() && list.arguments[0].ty.is_dispatchable());
    let sized = parse_schema("f(int[3] x=1) -> ()").unwrap();
    assert_eq!(sized.arguments[0].n, Some(3));
    assert_eq!(
        sized.arguments[0].default,
        Some(DefaultValue::IntList(vec![1, 1, 1]))
    );
    assert!(parse_schema("f(Tensor?[] xs) -> ()").unwrap().arguments[0]
        .ty
        .is_dispatchable());
    assert!(!parse_schema("f(int[] xs) -> ()").unwrap().arguments[0]
        .ty
        .is_dispatchable());
    let v = parse_schema("f(int a, ...) -> ...").unwrap();
    assert!(v.is_vararg && v.is_varret && v.returns.is_empty());
}

/// Schema bugs torch accepts and opyard refuses, naming the argument (Note [Sized list
/// defaults] and `check_unique_names`); the spellings torch's own schemas use stay accepted.
#[test]
fn sized_list_defaults_and_repeated_names() {
    let refused = [
        (
            "f(int[2] x=[1, 2, 3]) -> ()",
            "argument 'x' has 3 elements",
            2,
        ),
        (
            "f(float[3] y=[1.5]) -> ()",
            "argument 'y' has 1 elements",
            2,
        ),
        (
            "f(bool[2] m=[True, False, True]) -> ()",
            "int[2]",
            usize::MAX,
        ),
        (
            "f(Tensor x, Tensor x) -> ()",
            "argument name 'x' appears twice",
            12,
        ),
        (
            "f(int a, *, int b, float a=1.) -> ()",
            "argument name 'a' appears twice",
            19,
        ),
    ];
    for (src, needle, offset) in refused {
        match parse_schema(src) {
            Ok(s) => panic!("{src}: accepted as {s}"),
            Err(e) if needle == "int[2]" => assert!(e.message.contains("bool[2]"), "{}", e.message),
            Err(e) => {
                assert!(e.message.contains(needle), "{src}: {}", e.message);
                assert_eq!(e.offset, offset, "{src}");
            }
        }
    }
    for ok in [
        "f(int[2] x=[1, 2]) -> ()",
        "f(int[2] x=1) -> ()",
        "f(int[2] stride=[]) -> ()",
        "f(int[1] dim=[-2, -1]) -> ()",
        "f(Tensor x) -> (Tensor x, Tensor x)",
    ] {
        printed(ok);
    }
}
