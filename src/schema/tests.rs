use super::*;

const CORPUS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/native_functions.tsv"));

#[test]
fn corpus_prints_exactly() {
    let mut bad = Vec::new();
    let mut n = 0;
    for line in CORPUS.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
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
    assert!(bad.is_empty(), "{} of {n} rows differ:\n{}", bad.len(), bad.iter().take(20).cloned().collect::<Vec<_>>().join("\n"));
}
