//! Bulk registration registers what the same rows registered one by one would.

use super::super::{LibraryKind, Registry};
use super::BulkKernel;
use crate::dispatch::table::Slot;
use crate::dispatch::DispatchKey::{self, *};
use crate::schema::parse_schema;

type Reg = Registry<&'static str, ()>;

const SCHEMAS: [&str; 3] = [
    "a(Tensor x) -> Tensor",
    "a.two(Tensor x, Tensor y) -> Tensor",
    "b(Tensor x) -> Tensor",
];

fn library(r: &Reg) -> u64 {
    r.new_library("t", LibraryKind::Fragment, None, "test.py:1")
        .unwrap()
}

fn row(op: &str, key: DispatchKey, kernel: &'static str) -> BulkKernel<&'static str> {
    BulkKernel {
        op_name: op.to_string(),
        key: Some(key),
        kernel,
        fallthrough: false,
    }
}

const ROWS: [(&str, DispatchKey, &str); 5] = [
    ("a", CPU, "a_cpu"),
    ("a", Meta, "a_meta"),
    ("a.two", CompositeImplicitAutograd, "a_two_cia"),
    ("b", CompositeExplicitAutograd, "b_cea"),
    ("b", CPU, "b_cpu"),
];

fn slots(r: &Reg, op: &str) -> Vec<Option<(&'static str, u64)>> {
    let table = r.find_op(op).unwrap().table();
    table
        .slots
        .iter()
        .map(|s| match s {
            Slot::Kernel { reg, .. } => Some((reg.kernel, reg.id)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_batch_equals_the_same_rows_one_by_one() {
    let one = Reg::new();
    let lib1 = library(&one);
    for s in SCHEMAS {
        one.define(lib1, parse_schema(s).unwrap(), "test.py:2", |_| ())
            .unwrap();
    }
    for (op, key, k) in ROWS {
        one.impl_kernel(lib1, op, Some(key), k, false, true, "test.py:3")
            .unwrap();
    }
    let many = Reg::new();
    let lib2 = library(&many);
    let parsed = SCHEMAS.iter().map(|s| parse_schema(s).unwrap()).collect();
    let ops = many
        .define_many(lib2, parsed, "test.py:2", false, |_| ())
        .unwrap();
    assert_eq!(ops.len(), 3);
    let rows = ROWS.iter().map(|(op, key, k)| row(op, *key, k)).collect();
    assert!(many.impl_many(lib2, rows, "test.py:3").unwrap().is_empty());
    for op in ["t::a", "t::a.two", "t::b"] {
        assert_eq!(slots(&one, op), slots(&many, op), "{op}");
    }
    one.check_invariants().unwrap();
    many.check_invariants().unwrap();
    assert_eq!(
        one.dump("t::b").unwrap().1.len(),
        many.dump("t::b").unwrap().1.len()
    );
    // Destroying the library undoes the batch.
    many.destroy_library(lib2);
    assert!(many.find_op("t::a").is_none());
    many.check_invariants().unwrap();
}

#[test]
fn a_refused_batch_registers_nothing() {
    let r = Reg::new();
    let lib = library(&r);
    let dup = vec![
        parse_schema(SCHEMAS[0]).unwrap(),
        parse_schema(SCHEMAS[0]).unwrap(),
    ];
    let err = r
        .define_many(lib, dup, "test.py:2", false, |_| ())
        .err()
        .unwrap();
    assert!(err.to_string().contains("t::a"), "{err}");
    assert!(r.find_op("t::a").is_none());
    let parsed = SCHEMAS.iter().map(|s| parse_schema(s).unwrap()).collect();
    r.define_many(lib, parsed, "test.py:2", false, |_| ())
        .unwrap();
    let again = vec![parse_schema(SCHEMAS[2]).unwrap()];
    assert!(r
        .define_many(lib, again, "test.py:4", false, |_| ())
        .is_err());
    let bad = vec![row("a", CPU, "ok"), row("b", Undefined, "undefined key")];
    assert!(r.impl_many(lib, bad, "test.py:3").is_err());
    assert_eq!(r.dump("t::a").unwrap().1.len(), 0);
    r.check_invariants().unwrap();
}

#[test]
fn shadowed_rows_are_reported_and_replace_keeps_the_registration() {
    let r = Reg::new();
    let lib = library(&r);
    let parsed = SCHEMAS.iter().map(|s| parse_schema(s).unwrap()).collect();
    r.define_many(lib, parsed, "test.py:2", false, |_| ())
        .unwrap();
    let rows = vec![row("a", CPU, "first"), row("a", CPU, "second")];
    let shadowed = r.impl_many(lib, rows, "test.py:3").unwrap();
    assert_eq!(shadowed.len(), 1);
    assert_eq!((shadowed[0].0, &*shadowed[0].1), (1, "test.py:3"));
    let before = slots(&r, "t::a")[CPU as usize].unwrap();
    assert_eq!(before.0, "second");
    assert!(r
        .replace_kernel("t::a", CPU, |k| *k == "second", "built")
        .unwrap());
    assert!(!r
        .replace_kernel("t::a", CPU, |k| *k == "second", "again")
        .unwrap());
    assert!(!r.replace_kernel("t::nope", CPU, |_| true, "x").unwrap());
    let after = slots(&r, "t::a")[CPU as usize].unwrap();
    assert_eq!(after, ("built", before.1));
    r.check_invariants().unwrap();
}

#[test]
fn a_staged_batch_joins_its_packets_when_published() {
    // Note [Definitions published with their kernels]
    let r = Reg::new();
    let lib = library(&r);
    let parsed = SCHEMAS.iter().map(|s| parse_schema(s).unwrap()).collect();
    r.define_many(lib, parsed, "test.py:2", true, |_| ())
        .unwrap();
    let (a, b) = (r.packet("t::a").unwrap(), r.packet("t::b").unwrap());
    assert_eq!((a.overloads().len(), b.overloads().len()), (0, 0));
    // defined and found by name: the definer registers its kernels on them
    assert!(r.find_op("t::a.two").is_some());
    r.impl_many(lib, vec![row("a.two", CPU, "two_cpu")], "test.py:3")
        .unwrap();
    r.check_invariants().unwrap();
    r.publish_staged("t::a").unwrap();
    let names: Vec<_> = a.overloads().iter().map(|o| o.name.clone()).collect();
    assert_eq!(names, ["t::a", "t::a.two"]);
    assert_eq!(b.overloads().len(), 0);
    r.publish_staged("t::a").unwrap(); // nothing staged any more: no change
    assert_eq!(a.overloads().len(), 2);
    r.check_invariants().unwrap();
    // a library destroyed with overloads still staged takes them along
    r.destroy_library(lib);
    r.publish_staged("t::b").unwrap();
    assert_eq!((a.overloads().len(), b.overloads().len()), (0, 0));
    r.check_invariants().unwrap();
}
