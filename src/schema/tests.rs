use super::*;

const CORPUS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/corpus/native_functions.tsv"
));

#[test]
fn corpus_prints_exactly() {
    let mut bad = Vec::new();
    let mut n = 0;
    for line in CORPUS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (func, canonical) = line.split_once('\t').unwrap();
        n += 1;
        match parse_schema(&format!("aten::{func}")) {
            Ok(s) => {
                let printed = s.to_string();
                if printed != canonical {
                    bad.push(format!("{func}\n  got  {printed}\n  want {canonical}"));
                } else {
                    let again = parse_schema(&printed).map(|s| s.to_string());
                    if again.as_deref() != Ok(printed.as_str()) {
                        bad.push(format!("not a fixed point: {printed} -> {again:?}"));
                    }
                }
            }
            Err(e) => bad.push(format!("{func}\n  error {e}")),
        }
    }
    assert_eq!(n, 2584);
    assert!(
        bad.is_empty(),
        "{} of {n} rows differ:\n{}",
        bad.len(),
        bad.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
}

fn printed(s: &str) -> String {
    parse_schema(s)
        .unwrap_or_else(|e| panic!("{s}: {e}"))
        .to_string()
}

#[test]
fn grammar_beyond_the_corpus() {
    let cases = [
        ("f(Tensor(a -> *) x) -> Tensor", "f(Tensor(a -> *) x) -> Tensor"),
        ("f(Tensor(a|b) x) -> Tensor(a|b)", "f(Tensor(a|b) x) -> Tensor(a|b)"),
        ("f(Tensor(*) x) -> Tensor", "f(Tensor(*) x) -> Tensor"),
        ("f(Tensor! x) -> Tensor", "f(Tensor($0! -> ) x) -> Tensor"),
        ("f(Tensor(a)[] xs) -> Tensor(a)[]", "f(Tensor(a)[] xs) -> Tensor(a)[]"),
        ("f(Tensor[](a!) xs) -> ()", "f(Tensor[](a!) xs) -> ()"),
        ("f(Tensor(a!)? x) -> ()", "f(Tensor(a!)? x) -> ()"),
        ("f((int, str) pair, Dict(str, Tensor) d) -> (Tensor, int)", "f((int, str) pair, Dict(str, Tensor) d) -> (Tensor, int)"),
        ("f(Future(Tensor) fut, RRef(t) r, Await(int) a) -> t", "f(Future(Tensor) fut, RRef(t) r, Await(int) a) -> t"),
        ("f(t[] xs, t x) -> t[]", "f(t[] xs, t x) -> t[]"),
        ("f(__torch__.torch.classes.ns.Cls c) -> ()", "f(__torch__.torch.classes.ns.Cls c) -> ()"),
        ("f(...) -> ...", "f(...) -> ..."),
        ("f(int a, ...) -> (int, ...)", "f(int a, ...) -> (int, ...)"),
        ("f(Tensor x) -> ((Tensor))", "f(Tensor x) -> ((Tensor))"),
        ("f(Tensor x) -> (Tensor)", "f(Tensor x) -> Tensor"),
        ("f(Tensor x) -> (Tensor values, Tensor indices)", "f(Tensor x) -> (Tensor values, Tensor indices)"),
        ("f(float a=1e-5, float b=-2.5e+3, float c=3, float d=-0.0) -> ()", "f(float a=1.0000000000000001e-05, float b=-2500., float c=3., float d=-0.) -> ()"),
        ("f(str s='it\\'s', str t=\"a\\nb\") -> ()", "f(str s=\"it\\'s\", str t=\"a\\nb\") -> ()"),
        ("f(int[2] a=1, SymInt[2] b=1, float[2] c=[1.5, 2], bool[2] d=[True, False]) -> ()", "f(int[2] a=1, SymInt[2] b=[1, 1], float[2] c=[1.5, 2.], bool[2] d=[True, False]) -> ()"),
        ("f(ScalarType dtype=long, MemoryFormat m=channels_last, int r=Sum, Layout l=strided) -> ()", "f(ScalarType dtype=4, MemoryFormat m=2, int r=2, Layout l=0) -> ()"),
        ("f(complex c=1j, complex d=1.5-2j, Scalar s=2.5) -> ()", "f(complex c=0.+1.j, complex d=1.5-2.j, Scalar s=2.5) -> ()"),
        ("f(Tensor from, Tensor to, Tensor self) -> ()", "f(Tensor from, Tensor to, Tensor self) -> ()"),
        ("ns::f.ov(*, Tensor out) -> ()", "ns::f.ov(*, Tensor out) -> ()"),
    ];
    for (input, want) in cases {
        let got = printed(input);
        assert_eq!(got, want, "input {input}");
        assert_eq!(printed(&got), got, "fixed point of {got}");
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
    assert_eq!(s.arguments.len(), 4);
    assert!(s.arguments[2].kwarg_only && !s.arguments[1].kwarg_only);
    assert_eq!(s.arguments[2].default, Some(DefaultValue::Int(1)));
    let alias = s.arguments[3].alias_info.as_ref().unwrap();
    assert!(alias.is_write && alias.before_set == ["a"] && alias.after_set == ["a"]);
    assert!(s.is_mutable());
    let list = parse_schema("f(Tensor(a)[] xs) -> ()").unwrap();
    let a = list.arguments[0].alias_info.as_ref().unwrap();
    assert!(a.before_set.is_empty() && a.contained[0].before_set == ["a"]);
    assert!(list.arguments[0].ty.is_dispatchable());
    assert!(parse_schema("f(Tensor?[] xs) -> ()").unwrap().arguments[0]
        .ty
        .is_dispatchable());
    assert!(!parse_schema("f(int[] xs) -> ()").unwrap().arguments[0]
        .ty
        .is_dispatchable());
}

#[test]
fn errors_point_at_the_offending_token() {
    let cases: &[(&str, &str, usize)] = &[
        ("", "empty schema", 0),
        ("f(Tensor x -> Tensor", "expected ',' between arguments", 11),
        ("f(Tensor x) Tensor", "expected '->'", 12),
        ("f(Tensor x)", "expected '->'", 11),
        (
            "f(Tenser x) -> Tensor",
            "unknown type 'Tenser'; common types are: Tensor, int",
            2,
        ),
        ("f(float x=inf) -> ()", "invalid default 'inf'", 10),
        ("f(float x=nan) -> ()", "invalid default 'nan'", 10),
        ("f(str[] x=['a']) -> ()", "elements must be numbers", 11),
        (
            "f(Tensor[] x=[1]) -> ()",
            "invalid default '[1]' for an argument of type Tensor[]",
            13,
        ),
        (
            "f(int x=\"s\") -> ()",
            "invalid default '\"s\"' for an argument of type int",
            8,
        ),
        ("f(int x=None) -> ()", "only optional types", 8),
        (
            "f(Tensor(a x) -> ()",
            "expected an argument name after the type but found '('",
            8,
        ),
        (
            "f(Tensor(a!!) x) -> ()",
            "expected ')' to close the alias annotation",
            11,
        ),
        ("f(Tensor x) -> Tensor y z", "trailing input", 24),
        (
            "f.default(Tensor x) -> Tensor",
            "overload name 'default' is reserved",
            2,
        ),
        ("f.__x(Tensor x) -> Tensor", "must not start with '__'", 2),
        ("(Tensor x) -> Tensor", "expected an operator name", 0),
        ("f(Tensor if) -> ()", "'if' is a reserved word", 9),
        ("f(Tensor None) -> ()", "'None' is a reserved word", 9),
        (
            "f(int a=1, int b) -> ()",
            "positional argument 'b' without a default",
            11,
        ),
        ("f(..., int a) -> ()", "'...' must be the last argument", 7),
        ("f(str s=\"abc) -> ()", "unterminated string literal", 8),
        (
            "f(Tensor x) -> (Tensor, ..., int)",
            "'...' must be the last return",
            24,
        ),
        ("f(Tensor x)) -> ()", "expected '->'", 11),
        ("f(Tensor x) -> (Tensor", "expected ',' between returns", 22),
        ("f(int[x] a) -> ()", "expected ']'", 6),
        ("f(Tensor x) -> Tensor $", "unexpected character '$'", 22),
    ];
    for (input, msg, offset) in cases {
        let e = parse_schema(input).expect_err(input);
        assert!(
            e.message.contains(msg),
            "{input}: message {:?} lacks {msg:?}",
            e.message
        );
        assert_eq!(e.offset, *offset, "{input}: {e}");
        let shown = e.to_string();
        let caret_line = shown.lines().last().unwrap();
        assert_eq!(caret_line.find('^'), Some(offset + 2), "{input}:\n{shown}");
    }
}

#[test]
fn accepted_names() {
    for ok in [
        "f(Tensor from) -> ()",
        "f(Tensor to) -> ()",
        "f(Tensor self) -> ()",
        "ns::f(Tensor x) -> ()",
    ] {
        parse_schema(ok).unwrap();
    }
    let multi = parse_schema("f(Tensor x,\n  Tenser y) -> ()").unwrap_err();
    assert_eq!((multi.line, multi.column), (2, 3));
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    fn corpus_lines() -> Vec<String> {
        CORPUS
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .filter_map(|l| l.split_once('\t').map(|(f, _)| format!("aten::{f}")))
            .collect()
    }

    fn check(s: &str) {
        if let Ok(parsed) = parse_schema(s) {
            let p = parsed.to_string();
            let again = parse_schema(&p).map(|x| x.to_string());
            assert_eq!(again.as_deref(), Ok(p.as_str()), "not a fixed point: {s:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn random_strings_never_panic(s in "[ -~\\n]{0,60}") {
            check(&s);
        }

        #[test]
        fn grammar_soup_never_panics(s in "[a-zA-Z_()\\[\\]?!*|,.:=\\-> 0-9\"']{0,80}") {
            check(&s);
        }

        #[test]
        fn corpus_mutations_never_panic(i in 0usize..2584, cut in 0usize..400, pos in 0usize..400, ch in "[()\\[\\]?!*|,.:=\\-> a\"'0]") {
            let lines = corpus_lines();
            let line = &lines[i % lines.len()];
            let mut bytes: Vec<char> = line.chars().collect();
            let p = pos % (bytes.len() + 1);
            bytes.insert(p, ch.chars().next().unwrap_or('('));
            let mutated: String = bytes.iter().collect();
            check(&mutated);
            let truncated: String = line.chars().take(cut % (line.len() + 1)).collect();
            check(&truncated);
            let mut deleted: Vec<char> = line.chars().collect();
            if !deleted.is_empty() {
                deleted.remove(pos % deleted.len());
            }
            check(&deleted.iter().collect::<String>());
        }
    }
}
