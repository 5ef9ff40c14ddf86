//! Property tests: no input makes the parser panic, and whatever parses
//! prints to a fixed point.

use super::corpus::rows;
use crate::schema::parse_schema;
use proptest::prelude::*;

fn check(s: &str) {
    if let Ok(parsed) = parse_schema(s) {
        let p = parsed.to_string();
        let again = parse_schema(&p).map(|x| x.to_string());
        assert_eq!(again.as_deref(), Ok(p.as_str()), "not a fixed point: {s:?}");
    }
}

fn corpus_line(i: usize) -> String {
    let n = rows().count();
    let (func, _) = rows().nth(i % n).unwrap_or(("f() -> ()", ""));
    format!("aten::{func}")
}

/// Grammar characters the mutations insert.
const GRAMMAR: &str = "()[]?!*|,.:=-> a\"'0$j";

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_strings_never_panic(s in "[ -~\\n\\t]{0,60}") {
        check(&s);
    }

    #[test]
    fn grammar_soup_never_panics(s in "[a-zA-Z_()\\[\\]?!*|,.:=\\->$ 0-9\"'\\\\é]{0,80}") {
        check(&s);
    }

    #[test]
    fn corpus_mutations_never_panic(i in 0usize..2584, cut in 0usize..400, pos in 0usize..400, g in 0usize..GRAMMAR.len()) {
        let line = corpus_line(i);
        let chars: Vec<char> = line.chars().collect();
        let ch = GRAMMAR.as_bytes().get(g).map_or('(', |b| *b as char);
        let mut inserted = chars.clone();
        inserted.insert(pos % (chars.len() + 1), ch);
        check(&inserted.iter().collect::<String>());
        check(&chars.iter().take(cut % (chars.len() + 1)).collect::<String>());
        let mut deleted = chars.clone();
        if !deleted.is_empty() {
            deleted.remove(pos % deleted.len());
        }
        check(&deleted.iter().collect::<String>());
    }
}
