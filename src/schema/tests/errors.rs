//! Every error category: message, byte offset, and the caret under it.

use crate::schema::{parse_schema, parse_schema_with};

/// (input, part of the message, byte offset of the offending token)
const CASES: &[(&str, &str, usize)] = &[
    ("", "empty schema", 0),
    ("   ", "empty schema", 0),
    // unbalanced parentheses
    ("f(Tensor x -> Tensor", "expected ',' between arguments", 11),
    ("f(Tensor x)) -> ()", "expected '->'", 11),
    ("f(Tensor x) -> (Tensor", "expected ',' between returns", 22),
    (
        "f((int, str pair) -> ()",
        "expected ',' between tuple element types",
        12,
    ),
    (
        "f(Dict(str, Tensor d) -> ()",
        "expected ')' to close Dict(K, V)",
        19,
    ),
    // missing ->
    (
        "f(Tensor x) Tensor",
        "expected '->' after the argument list",
        12,
    ),
    (
        "f(Tensor x)",
        "expected '->' after the argument list but found end of input",
        11,
    ),
    ("f", "expected '(' to open the argument list of 'f'", 1),
    // unknown types
    (
        "f(Tenser x) -> Tensor",
        "unknown type specifier 'Tenser'. Common valid schema types include: Tensor",
        2,
    ),
    ("f(Dimname x) -> ()", "unknown type specifier 'Dimname'", 2),
    ("f(Union[int, str] x) -> ()", "expected '(' after Union", 7),
    ("f(Union(int, int) x) -> ()", "holds the single type int", 2),
    (
        "f(Union(SymInt, Layout) x) -> ()",
        "holds the single type int",
        2,
    ),
    ("f(Union(int, Any) x) -> ()", "holds the single type Any", 2),
    ("f(Union() x) -> ()", "expected a type but found ')'", 8),
    ("f(int[]? x=[1, 2]) -> ()", "never a list literal", 11),
    ("f(int[] x=None) -> ()", "only optional types", 10),
    (
        "f(float x=4e-320) -> ()",
        "out of the range of a double",
        10,
    ),
    (
        "f(float x=1e-400) -> ()",
        "out of the range of a double",
        10,
    ),
    ("f(float x=--1) -> ()", "a second sign", 11),
    (
        "f(MemoryFormat x=channels_last) -> ()",
        "nor an enum value",
        17,
    ),
    (
        "f(Device x=\"bogus\") -> ()",
        "expected one of cpu, cuda",
        11,
    ),
    (
        "f(Union(int, str) x=1) -> ()",
        "cannot have a default value",
        20,
    ),
    ("f(if x) -> ()", "'if' is a reserved word, not a type", 2),
    (
        "f(__torch__.torch.klasses.ns.C c) -> ()",
        "expected 'classes' in custom class path",
        18,
    ),
    ("f(, Tensor x) -> ()", "expected a type but found ','", 2),
    // invalid defaults
    ("f(float x=inf) -> ()", "invalid default 'inf'", 10),
    ("f(float x=nan) -> ()", "invalid default 'nan'", 10),
    ("f(float x=1e999) -> ()", "defaults must be finite", 10),
    ("f(int x=99999999999999999999) -> ()", "out of range", 8),
    (
        "f(str[] x=['a']) -> ()",
        "elements must be numbers or booleans",
        11,
    ),
    (
        "f(str[] x=[]) -> ()",
        "list defaults are only supported for int, float, bool and complex",
        10,
    ),
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
    (
        "f(int x=1.5) -> ()",
        "invalid default '1.5' for an argument of type int",
        8,
    ),
    (
        "f(bool x=1) -> ()",
        "invalid default '1' for an argument of type bool",
        9,
    ),
    (
        "f(int x=None) -> ()",
        "only optional types ('T?') default to None",
        8,
    ),
    (
        "f(int[] x=1) -> ()",
        "a list type without a size (T[N]) needs a list default",
        10,
    ),
    (
        "f(Scalar[2] x=1.5) -> ()",
        "list defaults are only supported for int, float, bool and complex lists",
        14,
    ),
    (
        "f(int[2] x=[True, 1]) -> ()",
        "booleans and numbers cannot be mixed",
        11,
    ),
    (
        "f(Tensor x=1) -> ()",
        "a Tensor can only default to None",
        11,
    ),
    (
        "f(int x=bfloat16) -> ()",
        "invalid default 'bfloat16' for an argument of type int",
        8,
    ),
    (
        "f(Device d=\"gpu 0\") -> ()",
        "invalid device string 'gpu 0'",
        11,
    ),
    (
        "f(Any x=1) -> ()",
        "an argument of type Any cannot have a default value",
        8,
    ),
    ("f(str s=\"a\\xb\") -> ()", "unsupported hex escape", 8),
    ("f(str s=\"a\\9\") -> ()", "invalid escape", 8),
    (
        "f(int a=1, ...) -> ()",
        "schemas with varargs ('...') can't have arguments with default values",
        2,
    ),
    // malformed alias annotations
    (
        "f(Tensor(a x) -> ()",
        "expected ')' to close the alias annotation",
        11,
    ),
    (
        "f(Tensor(a!!) x) -> ()",
        "expected ')' to close the alias annotation",
        11,
    ),
    (
        "f(Tensor() x) -> ()",
        "expected an alias set name or '*' but found ')'",
        9,
    ),
    (
        "f(Tensor(a|) x) -> ()",
        "expected an alias set name or '*' but found ')'",
        11,
    ),
    ("f(Tensor(*|a) x) -> ()", "'a' follows the wildcard '*'", 11),
    (
        "f(Tensor[]() x) -> ()",
        "expected an alias set name or '*' but found ')'",
        11,
    ),
    (
        "f(Tensor(if) x) -> ()",
        "expected an alias set name or '*' but found 'if'",
        9,
    ),
    (
        "f(Tensor?(a!) x) -> ()",
        "an alias annotation goes right after the type",
        9,
    ),
    (
        "f(int[2][] x) -> ()",
        "expected an argument name but found '['",
        8,
    ),
    ("f(int[x] a) -> ()", "expected a list size", 6),
    ("f(int[-1] a) -> ()", "expected a list size", 6),
    // trailing garbage
    ("f(Tensor x) -> Tensor y z", "trailing input", 24),
    ("f(Tensor x) -> Tensor $", "unexpected character '$'", 22),
    ("f(Tensor x) -> Tensor = 1", "trailing input", 22),
    // names
    (
        "(Tensor x) -> Tensor",
        "expected an operator name but found '('",
        0,
    ),
    (
        "ns::(Tensor x) -> Tensor",
        "expected an operator name after '::'",
        4,
    ),
    (
        "ns:f(Tensor x) -> Tensor",
        "expected '::' between the namespace and the operator name",
        2,
    ),
    (
        "f.(Tensor x) -> Tensor",
        "expected an overload name after '.'",
        2,
    ),
    (
        "f.default(Tensor x) -> Tensor",
        "'default' is not a legal overload name",
        2,
    ),
    ("f.__x(Tensor x) -> Tensor", "must not start with '__'", 2),
    (
        "if(Tensor x) -> Tensor",
        "'if' is a reserved word and cannot be an operator name",
        0,
    ),
    (
        "f(Tensor if) -> ()",
        "'if' is a reserved word and cannot be an argument name",
        9,
    ),
    ("f(Tensor None) -> ()", "'None' is a reserved word", 9),
    ("f(Tensor class) -> ()", "'class' is a reserved word", 9),
    ("f(Tensor in) -> ()", "'in' is a reserved word", 9),
    (
        "f(Tensor) -> ()",
        "expected an argument name but found ')'",
        8,
    ),
    (
        "f(Tensor x) -> Tensor return",
        "'return' is a reserved word and cannot be a return name",
        22,
    ),
    ("f(Tensor $0) -> ()", "'$0' is not a valid name", 9),
    // argument order
    (
        "f(int a=1, int b) -> ()",
        "non-default positional argument 'b' follows an argument with a default",
        11,
    ),
    (
        "f(*, int a, *, int b) -> ()",
        "the kwarg-only marker '*' appears twice",
        12,
    ),
    (
        "f(..., int a) -> ()",
        "'...' must be the last element of the argument list",
        7,
    ),
    (
        "f(Tensor x) -> (Tensor, ..., int)",
        "'...' must be the last element of the return list",
        29,
    ),
    // strings
    ("f(str s=\"abc) -> ()", "unterminated string literal", 8),
    ("f(str s='ab\nc') -> ()", "unterminated string literal", 8),
];

#[test]
fn errors_point_at_the_offending_token() {
    for &(input, msg, offset) in CASES {
        let e = parse_schema(input).expect_err(input);
        assert!(
            e.message.contains(msg),
            "{input:?}: message {:?} lacks {msg:?}",
            e.message
        );
        assert_eq!(e.offset, offset, "{input:?}: {e}");
        let shown = e.to_string();
        if !input.contains('\n') {
            assert_eq!((e.line, e.column), (1, offset + 1), "{input:?}");
            let caret = shown.lines().last().unwrap_or("");
            assert_eq!(caret.find('^'), Some(offset + 2), "{input:?}:\n{shown}");
            assert!(shown.contains(&format!("\n  {input}\n")), "{shown}");
        }
    }
}

#[test]
fn multiline_positions_count_lines_and_characters() {
    let e = parse_schema("f(Tensor x,\n  Tenser y) -> ()").unwrap_err();
    assert_eq!((e.line, e.column, e.offset), (2, 3, 14));
    assert_eq!(
        e.to_string().lines().skip(1).collect::<Vec<_>>(),
        ["    Tenser y) -> ()", "    ^"]
    );
    // Columns count characters, not bytes.
    let e = parse_schema("f(str s=\"é\", Tenser y) -> ()").unwrap_err();
    assert_eq!((e.offset, e.column), (14, 14));
}

/// Where type variables are not allowed (an operator definition), an unknown
/// lowercase name is an unknown type, with torch's hints for C++ spellings.
#[test]
fn unknown_lowercase_types_without_type_variables() {
    let cases = [
        ("f(double x) -> ()", "Use `float` instead of `double`"),
        (
            "f(int64_t x) -> ()",
            "Use `SymInt` or `int` instead of `int64_t`",
        ),
        ("f(asdf a) -> asdfasdf", "unknown type specifier 'asdf'"),
        ("f(int a) -> t", "unknown type specifier 't'"),
    ];
    for (input, msg) in cases {
        let e = parse_schema_with(input, false).expect_err(input);
        assert!(e.message.contains(msg), "{input:?}: {e}");
        // With type variables allowed (torch's `parse_schema`) they are variables.
        assert!(parse_schema(input).is_ok(), "{input:?}");
    }
}
