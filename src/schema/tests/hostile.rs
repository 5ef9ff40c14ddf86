//! Hostile input: nesting at and past the limit (on a thread with a small
//! stack), inputs of a megabyte, expansions, and messages that quote only a
//! window of the input. See Note [Nesting limit].

use crate::schema::{parse_schema, FunctionSchema, MAX_NESTING};
use std::time::{Duration, Instant};

/// The stack of the threads below: 256 KiB, an eighth of Rust's default for
/// spawned threads, on which 1,000 levels used to overflow. Unoptimised
/// frames are several times larger (a `Future(` level takes over 2 KiB of
/// parser frames in a debug build), so a debug build gets 1 MiB: still far
/// less than an unbounded depth needs, which is what these tests catch.
const SMALL_STACK: usize = if cfg!(debug_assertions) {
    1024 * 1024
} else {
    256 * 1024
};

/// Run `f` on a fresh thread with `SMALL_STACK` bytes of stack. A stack
/// overflow aborts the whole test binary, so it cannot pass by accident.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let worker = std::thread::Builder::new().stack_size(SMALL_STACK).spawn(f);
    match worker.map(|h| h.join()) {
        Ok(Ok(v)) => v,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(e) => panic!("could not spawn a thread: {e}"),
    }
}

/// Schemas whose only argument's type nests `depth` levels (`int` is one).
fn nested(depth: usize) -> Vec<(&'static str, String)> {
    let d = depth - 1;
    vec![
        (
            "tuple",
            format!("f({}int{} x) -> ()", "(".repeat(d), ")".repeat(d)),
        ),
        (
            "dict",
            format!("f({}int{} x) -> ()", "Dict(str, ".repeat(d), ")".repeat(d)),
        ),
        (
            "future",
            format!("f({}int{} x) -> ()", "Future(".repeat(d), ")".repeat(d)),
        ),
        ("optional", format!("f(int{} x) -> ()", "?".repeat(d))),
        ("list", format!("f(int{} x) -> ()", "[]".repeat(d))),
        (
            "annotated list",
            format!("f(Tensor(a!){} x) -> ()", "[]".repeat(d)),
        ),
        (
            "sized list",
            format!("f(int{}[2]? x) -> ()", "?".repeat(d - 2)),
        ),
        (
            "mixed",
            format!(
                "f({}int{} x) -> ()",
                "Future(".repeat(d / 2),
                ")?".repeat(d / 2) + &"[]".repeat(d % 2)
            ),
        ),
        (
            "return",
            format!("f() -> ({}int{})", "(".repeat(d), ")".repeat(d)),
        ),
    ]
}

/// Everything that walks a parsed type: print, reparse, clone, compare, drop.
fn exercise(s: &FunctionSchema) -> String {
    let printed = s.to_string();
    let again = parse_schema(&printed).map(|t| t.to_string());
    assert_eq!(again.as_deref(), Ok(printed.as_str()), "fixed point");
    let copy = s.clone();
    assert!(copy == *s);
    let _ = s.is_mutable();
    drop(copy);
    printed
}

#[test]
fn nesting_at_the_limit_parses_prints_and_drops_on_a_small_stack() {
    on_small_stack(|| {
        for (kind, src) in nested(MAX_NESTING as usize) {
            let s = parse_schema(&src).unwrap_or_else(|e| panic!("{kind}: {e}"));
            exercise(&s);
        }
    });
}

#[test]
fn nesting_past_the_limit_names_the_limit_and_the_position() {
    on_small_stack(|| {
        for (kind, src) in nested(MAX_NESTING as usize + 1) {
            let e = parse_schema(&src).expect_err(kind);
            assert!(
                e.message
                    .starts_with("type nesting exceeds the limit of 256 levels"),
                "{kind}: {e}"
            );
            assert!(
                e.offset > 256 && e.offset < src.len(),
                "{kind}: {}",
                e.offset
            );
        }
    });
}

#[test]
fn the_error_points_at_the_first_token_past_the_limit() {
    let limit = MAX_NESTING as usize;
    // `int` itself is level 1, so the 256th `?` is level 257.
    let e = parse_schema(&format!("f(int{} x) -> ()", "?".repeat(limit))).unwrap_err();
    assert_eq!(e.offset, "f(int".len() + limit - 1);
    // 256 `(` put `int` at level 257.
    let e = parse_schema(&format!("f({}int x) -> ()", "(".repeat(limit))).unwrap_err();
    assert_eq!(e.offset, 2 + limit);
    // The argument-level `[N]` and `?` count too.
    let src = format!("f(int{}[2]? x) -> ()", "?".repeat(limit - 2));
    let e = parse_schema(&src).unwrap_err();
    assert_eq!(e.offset, src.find("]?").map_or(0, |i| i + 1));
}

#[test]
fn hostile_depths_are_errors_not_crashes() {
    on_small_stack(|| {
        let n = 100_000;
        let cases = [
            format!("f({} x) -> ()", "(".repeat(n)),
            format!("f({} x) -> ()", "Dict(".repeat(n)),
            format!("f({}int x) -> ()", "Future(".repeat(n)),
            format!("f(int{} x) -> ()", "?".repeat(n)),
            format!("f(int{} x) -> ()", "[]".repeat(n)),
            format!("f(Tensor(a){} x) -> ()", "[]".repeat(n)),
            format!("f(int[] x={}) -> ()", "[".repeat(n)),
            format!("f(int[] x={}1{}) -> ()", "[".repeat(n), "]".repeat(n)),
            format!("f() -> {}", "(".repeat(n)),
        ];
        for src in cases {
            let e = parse_schema(&src).expect_err("must not parse");
            assert!(e.offset < src.len(), "{e}");
            assert!(e.to_string().len() < 600, "message quotes too much: {e}");
        }
    });
}

#[test]
fn list_defaults_do_not_nest() {
    let e = parse_schema("f(int[] x=[1, [2]]) -> ()").unwrap_err();
    assert_eq!(e.offset, "f(int[] x=[1, ".len());
    assert!(e.message.contains("not lists"), "{e}");
}

/// `repeat` copies of `part` joined by `sep`, about `bytes` long.
fn sized(part: &str, sep: &str, bytes: usize) -> String {
    let n = bytes / (part.len() + sep.len());
    vec![part; n].join(sep)
}

/// A megabyte of each shape parses (or fails) in well under a second: every
/// path is linear. Quadratic alias-set deduplication took minutes for the
/// alias cases. An unoptimised build on a shared machine is given a few
/// seconds; quadratic work would still take minutes there.
#[test]
fn megabyte_schemas_parse_in_linear_time() {
    let budget = if cfg!(debug_assertions) {
        Duration::from_secs(4)
    } else {
        Duration::from_millis(500)
    };
    const MB: usize = 1 << 20;
    let names: Vec<String> = (0..MB / 8).map(|i| format!("a{i}")).collect();
    // Arguments need distinct names (a repeated name is refused).
    let args = |ty: &str| {
        let n = MB / (ty.len() + 10);
        (0..n)
            .map(|i| format!("{ty} x{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let cases = [
        (format!("f({}) -> ()", args("Tensor")), true),
        (format!("f(Tensor({}) x) -> ()", names.join("|")), true),
        (format!("f(Tensor(a -> {}) x) -> ()", names.join("|")), true),
        (format!("f(Tensor({}) x) -> ()", sized("a", "|", MB)), true),
        (format!("f(int[] x=[{}]) -> ()", sized("1", ", ", MB)), true),
        (
            format!("f(float[] x=[{}]) -> ()", sized("1.5", ",", MB)),
            true,
        ),
        (format!("f(str s=\"{}\") -> ()", "x".repeat(MB)), true),
        (format!("f(int x={}) -> ()", "9".repeat(MB)), false),
        (format!("f(float x=0.{}) -> ()", "1".repeat(MB)), true),
        (format!("f(float x={}.5) -> ()", "1".repeat(MB)), false),
        (format!("f({}) -> ()", args("Tensor!")), true),
        (
            format!("f(Tensor x) -> ({})", sized("Tensor", ",", MB)),
            true,
        ),
        (format!("{}(Tensor x) -> ()", "f".repeat(MB)), true),
        (format!("f({} x) -> ()", "(int, ".repeat(MB / 6)), false),
        (format!("f(Tensor{} x) -> ()", "?(a)".repeat(MB / 4)), false),
        (format!("f({}", " ".repeat(MB)), false),
    ];
    for (src, parses) in cases {
        let start = Instant::now();
        let result = parse_schema(&src);
        let took = start.elapsed();
        let head: String = src.chars().take(40).collect();
        let outcome = result.as_ref().map(|_| ()).map_err(|e| e.message.clone());
        assert_eq!(result.is_ok(), parses, "{head}...: {outcome:?}");
        if let Err(e) = &result {
            assert!(e.to_string().len() < 600, "message quotes too much: {e}");
        }
        assert!(took < budget, "{head}...: {took:?}");
    }
}

#[test]
fn repeated_defaults_share_one_budget() {
    let e = parse_schema("f(int[2147483647] x=1) -> ()").unwrap_err();
    assert!(e.message.contains("at most 65536 elements"), "{e}");
    assert!(parse_schema("f(int[65536] x=1) -> ()").is_ok());
    // Each argument fits, the schema does not.
    let e = parse_schema("f(int[40000] x=1, int[40000] y=1) -> ()").unwrap_err();
    assert!(e.message.contains("40000 used so far"), "{e}");
    assert_eq!(e.offset, "f(int[40000] x=1, int[40000] y=".len());
    // Optional `T[N]?` keeps the scalar: nothing is materialised.
    assert!(parse_schema("f(int[2147483647]? x=1, int[65536] y=1) -> ()").is_ok());
}

#[test]
fn messages_quote_a_window_of_long_input() {
    let long = "x".repeat(100_000);
    let cases = [
        format!("f(Tensor {long}!) -> ()"),
        format!("f(X{long} y) -> ()"),
        format!("f(Tensor y={long}) -> ()"),
        format!("f(int y=1{long}) -> ()"),
        format!("f(int y={}) -> ()", "9".repeat(100_000)),
        format!("f(Device d=\"{long}:\") -> ()"),
        format!("f(Tensor y=\"{long}\") -> ()"),
        format!("f(int[] y=[{}]) -> ()", "1.5, ".repeat(20_000) + "True"),
        format!("f(Tensor(*|{long}) y) -> ()"),
        format!("{long}.__x(Tensor y) -> ()"),
        format!("f.{long}"),
        format!("f(int x=1, Tensor {long}) -> ()"),
        format!("f(int{} x=1) -> ()", "[]".repeat(200)),
        format!("f(__torch__.torch.classes.ns.{long}.x c) -> ()"),
    ];
    for src in cases {
        let head: String = src.chars().take(40).collect();
        let Err(e) = parse_schema(&src) else {
            panic!("{head}... parsed");
        };
        assert!(
            e.to_string().chars().count() < 600,
            "message quotes too much ({} chars): {}",
            e.to_string().len(),
            e.to_string().chars().take(300).collect::<String>()
        );
    }
}

#[test]
fn alias_sets_keep_each_name_once_in_first_appearance_order() {
    // Names 0..20, then each again: duplicates of names scanned before and
    // after the switch to hashing (at 8 names) must all collapse.
    let names: Vec<String> = (0..20).chain(0..20).map(|i| format!("a{i}")).collect();
    let s = parse_schema(&format!("f(Tensor({}) x) -> ()", names.join("|"))).unwrap();
    let info = s.arguments[0].alias_info.as_ref().unwrap();
    let want: Vec<String> = (0..20).map(|i| format!("a{i}")).collect();
    assert_eq!(info.before_set, want);
    assert_eq!(info.after_set, want);
}

/// Unions: nesting counts against the limit, a union holds at most
/// `MAX_UNION_MEMBERS` members once spelled out, and the largest allowed
/// union of long, nearly equal tuples (the pairwise merge's worst case)
/// parses quickly, on a small stack.
#[test]
fn unions_are_bounded_in_depth_members_and_time() {
    on_small_stack(|| {
        let deep = format!(
            "f({}int, str{} x) -> ()",
            "Union(".repeat(300),
            ")".repeat(300)
        );
        let e = parse_schema(&deep).expect_err("too deep");
        assert!(e.message.contains("nesting exceeds the limit"), "{e}");
        // At the limit a union nested in unions still parses and flattens.
        let ok = format!(
            "f({}int, str{} x) -> ()",
            "Union(".repeat(200),
            ")".repeat(200)
        );
        assert_eq!(
            parse_schema(&ok).unwrap().to_string(),
            "f(Union(int, str) x) -> ()"
        );

        let members: Vec<String> = (0..=256).map(|i| format!("(int, t{i})")).collect();
        let wide = format!("f(Union({}, str) x) -> ()", members.join(", "));
        let e = parse_schema(&wide).expect_err("too many members");
        assert!(e.message.contains("at most 256 are supported"), "{e}");
        let scalars = format!("f(Union({}) x) -> ()", vec!["Scalar"; 90].join(", "));
        let e = parse_schema(&scalars).expect_err("270 members spelled out");
        assert!(e.message.contains("270 member types"), "{e}");

        // 255 tuples of 1,000 elements that hold None (so each is compared
        // with every other) and differ only in their last element.
        let long = "int, ".repeat(998);
        let tuples: Vec<String> = (0..255)
            .map(|i| format!("({long}None, t{})", "x".repeat(i)))
            .collect();
        let src = format!("f(Union({}, str) x) -> ()", tuples.join(", "));
        let start = Instant::now();
        let result = parse_schema(&src);
        let took = start.elapsed();
        let budget = if cfg!(debug_assertions) { 8 } else { 1 };
        assert!(took < Duration::from_secs(budget), "{took:?}");
        // The type variables are all alike, so every tuple is the same.
        assert!(result.is_ok(), "{result:?}");
    });
}
