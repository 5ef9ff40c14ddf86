//! Table rules and library lifetime, on the pure-Rust registry.

use super::*;
use crate::dispatch::table::{EntryKind, Slot};
use crate::schema::parse_schema;
use DispatchKey::*;

type Reg = Registry<&'static str, ()>;

fn setup(schema: &str) -> (Reg, u64) {
    let r = Reg::new();
    let lib = r
        .new_library("t", LibraryKind::Fragment, None, "test.py:1")
        .unwrap();
    r.define(lib, parse_schema(schema).unwrap(), "test.py:2", |_| ())
        .unwrap();
    (r, lib)
}

fn put(r: &Reg, lib: u64, key: DispatchKey, label: &'static str) {
    r.impl_kernel(lib, "op", Some(key), label, false, true, "test.py:3")
        .unwrap();
}

fn slot(r: &Reg, key: DispatchKey) -> Option<(&'static str, EntryKind)> {
    let op = r.find_op("t::op").unwrap();
    let table = op.table();
    match table.slot(key) {
        Slot::Kernel { reg, kind } => Some((reg.kernel, *kind)),
        _ => None,
    }
}

#[test]
fn direct_beats_aliases() {
    let (r, lib) = setup("op(Tensor x) -> Tensor");
    put(&r, lib, CompositeImplicitAutograd, "cia");
    put(&r, lib, CompositeExplicitAutograd, "cea");
    put(&r, lib, CPU, "cpu");
    assert_eq!(slot(&r, CPU), Some(("cpu", EntryKind::Kernel)));
    assert_eq!(slot(&r, Meta), Some(("cea", EntryKind::DefaultBackend)));
    assert_eq!(
        slot(&r, Undefined),
        Some(("cea", EntryKind::DefaultBackend))
    );
    // CIA must not shadow the backend kernel for autograd keys.
    assert_eq!(slot(&r, AutogradCPU), None);
    r.check_invariants().unwrap();
}

#[test]
fn ceanf_beats_cea() {
    let (r, lib) = setup("op(Tensor x) -> Tensor");
    put(&r, lib, CompositeExplicitAutograd, "cea");
    put(&r, lib, CompositeExplicitAutogradNonFunctional, "ceanf");
    assert_eq!(slot(&r, CUDA), Some(("ceanf", EntryKind::DefaultBackend)));
    assert_eq!(
        slot(&r, Undefined),
        Some(("cea", EntryKind::DefaultBackend))
    );
}

#[test]
fn cia_covers_autograd_and_undefined_alone() {
    let (r, lib) = setup("op(Tensor x) -> Tensor");
    put(&r, lib, CompositeImplicitAutograd, "cia");
    for k in [CPU, Meta, AutogradCPU, AutogradOther, Undefined] {
        assert_eq!(slot(&r, k), Some(("cia", EntryKind::Math)), "{k}");
    }
    assert_eq!(slot(&r, Tracer), None);
}

#[test]
fn batched_decomposition_beats_cia_at_batched_only() {
    let (r, lib) = setup("op(Tensor x) -> Tensor");
    put(&r, lib, CompositeImplicitAutograd, "cia");
    put(&r, lib, FuncTorchBatchedDecomposition, "decomp");
    assert_eq!(slot(&r, Batched), Some(("decomp", EntryKind::Batched)));
    for k in [CPU, AutogradCPU, Undefined] {
        assert_eq!(slot(&r, k), Some(("cia", EntryKind::Math)), "{k}");
    }
    assert!(FuncTorchBatchedDecomposition.is_alias());
    r.check_invariants().unwrap();
}

#[test]
fn autograd_alias_and_fallbacks() {
    let (r, lib) = setup("op(Tensor x) -> Tensor");
    put(&r, lib, Autograd, "ag");
    assert_eq!(slot(&r, AutogradMeta), Some(("ag", EntryKind::Autograd)));
    let g = r
        .new_library("_", LibraryKind::Impl, None, "test.py:9")
        .unwrap();
    r.fallback(g, Some(Tracer), "fb", false, "test.py:10")
        .unwrap();
    assert_eq!(slot(&r, Tracer), Some(("fb", EntryKind::BackendFallback)));
    r.destroy_library(g);
    assert_eq!(slot(&r, Tracer), None);
    r.check_invariants().unwrap();
}

#[test]
fn fallthrough_is_masked() {
    let (r, lib) = setup("op(Tensor x) -> Tensor");
    r.impl_kernel(lib, "op", Some(AutocastCPU), "ft", true, true, "f.py:1")
        .unwrap();
    let op = r.find_op("t::op").unwrap();
    assert!(!op.table().nonfallthrough.has(AutocastCPU));
    assert!(op.table().nonfallthrough.has(CPU));
}

#[test]
fn stacks_restore_on_destroy() {
    let (r, lib) = setup("op(Tensor x) -> Tensor");
    put(&r, lib, CPU, "first");
    let other = r
        .new_library("t", LibraryKind::Impl, None, "o.py:1")
        .unwrap();
    let out = r
        .impl_kernel(other, "op", Some(CPU), "second", false, true, "o.py:2")
        .unwrap();
    assert_eq!(out.shadowed.as_deref(), Some("test.py:3"));
    assert_eq!(slot(&r, CPU).unwrap().0, "second");
    r.destroy_library(other);
    assert_eq!(slot(&r, CPU).unwrap().0, "first");
    r.check_invariants().unwrap();
}

#[test]
fn override_refused_when_asked() {
    let (r, lib) = setup("op(Tensor x) -> Tensor");
    put(&r, lib, CPU, "first");
    let e = r
        .impl_kernel(lib, "op", Some(CPU), "x", false, false, "p.py:1")
        .unwrap_err();
    assert!(e.to_string().contains("allow_override=False"), "{e}");
}

#[test]
fn dangling_impl_goes_live_at_define() {
    let r = Reg::new();
    let imp = r
        .new_library("t", LibraryKind::Impl, None, "a.py:1")
        .unwrap();
    r.impl_kernel(imp, "late", Some(CPU), "k", false, true, "a.py:2")
        .unwrap();
    assert_eq!(r.dangling_impls(), vec!["t::late".to_string()]);
    assert!(r.find_op("t::late").is_none());
    let def = r
        .new_library("t", LibraryKind::Def, None, "a.py:3")
        .unwrap();
    r.define(
        def,
        parse_schema("late(Tensor x) -> Tensor").unwrap(),
        "a.py:4",
        |_| (),
    )
    .unwrap();
    assert!(r.dangling_impls().is_empty());
    let op = r.find_op("t::late").unwrap();
    assert!(matches!(op.table().slot(CPU), Slot::Kernel { .. }));
}

#[test]
fn library_kind_rules() {
    let r = Reg::new();
    r.new_library("ns", LibraryKind::Def, None, "a.py:1")
        .unwrap();
    let e = r
        .new_library("ns", LibraryKind::Def, None, "b.py:2")
        .unwrap_err();
    assert!(e.to_string().contains("a.py:1") && e.to_string().contains("b.py:2"));
    let imp = r
        .new_library("ns", LibraryKind::Impl, None, "c.py:1")
        .unwrap();
    assert!(r
        .define(
            imp,
            parse_schema("f(Tensor x) -> Tensor").unwrap(),
            "c.py:2",
            |_| ()
        )
        .is_err());
    assert!(r.fallback(imp, Some(CPU), "x", false, "c.py:3").is_err());
    assert!(LibraryKind::parse("DEFN").is_err());
}

#[test]
fn duplicate_define_names_both_sites() {
    let (r, lib) = setup("op(Tensor x) -> Tensor");
    let e = r.define(
        lib,
        parse_schema("op(Tensor x) -> Tensor").unwrap(),
        "z.py:7",
        |_| (),
    );
    let msg = e.err().unwrap().to_string();
    assert!(msg.contains("test.py:2") && msg.contains("z.py:7"), "{msg}");
}

#[test]
fn destroying_the_def_removes_the_op_and_packet_entry() {
    let (r, lib) = setup("op(Tensor x) -> Tensor");
    let packet = r.packet("t::op").unwrap();
    assert_eq!(packet.overloads().len(), 1);
    r.destroy_library(lib);
    assert!(r.find_op("t::op").is_none());
    assert_eq!(packet.overloads().len(), 0);
    r.check_invariants().unwrap();
}

#[test]
fn threads_dispatch_while_registering() {
    let (r, lib) = setup("op(Tensor x) -> Tensor");
    put(&r, lib, CPU, "base");
    let r = Arc::new(r);
    let op = r.find_op("t::op").unwrap();
    let readers: Vec<_> = (0..2)
        .map(|_| {
            let op = op.clone();
            std::thread::spawn(move || {
                for _ in 0..20_000 {
                    match op.table().slot(CPU) {
                        Slot::Kernel { reg, .. } => {
                            assert!(reg.kernel == "base" || reg.kernel == "over")
                        }
                        other => panic!("torn table: {other:?}"),
                    }
                }
            })
        })
        .collect();
    for _ in 0..200 {
        let l = r
            .new_library("t", LibraryKind::Impl, None, "w.py:1")
            .unwrap();
        r.impl_kernel(l, "op", Some(CPU), "over", false, true, "w.py:2")
            .unwrap();
        r.destroy_library(l);
    }
    for t in readers {
        t.join().unwrap();
    }
    r.check_invariants().unwrap();
}

#[test]
fn destroy_touches_only_the_operators_of_its_library() {
    let (r, lib) = setup("op(Tensor x) -> Tensor");
    r.define(
        lib,
        parse_schema("other(Tensor x) -> Tensor").unwrap(),
        "t.py:5",
        |_| (),
    )
    .unwrap();
    put(&r, lib, CPU, "base");
    let other = r.find_op("t::other").unwrap();
    let (table, list) = (other.table(), r.packet("t::other").unwrap().overloads());
    let l = r
        .new_library("t", LibraryKind::Impl, None, "w.py:1")
        .unwrap();
    r.impl_kernel(l, "op", Some(CPU), "over", false, true, "w.py:2")
        .unwrap();
    r.destroy_library(l);
    assert!(
        Arc::ptr_eq(&*table, &*other.table()),
        "t::other's table was rebuilt"
    );
    let after = r.packet("t::other").unwrap().overloads();
    assert_eq!(list.generation, after.generation);
    assert_eq!(slot(&r, CPU).unwrap().0, "base");
    r.check_invariants().unwrap();
}

#[test]
fn the_call_path_reads_no_registry_state() {
    // A call reads its operator's table only: it works while the registry is
    // locked, which any global lookup would deadlock on.
    let (r, lib) = setup("op(Tensor x) -> Tensor");
    put(&r, lib, CPU, "k");
    let op = r.find_op("t::op").unwrap();
    let seen = r
        .locked(|_, _| match op.table().slot(CPU) {
            Slot::Kernel { reg, .. } => reg.kernel,
            _ => "missing",
        })
        .unwrap();
    assert_eq!(seen, "k");
}

#[test]
fn overload_lists_change_generation_only_when_overloads_change() {
    let (r, lib) = setup("op(Tensor x) -> Tensor");
    let packet = r.packet("t::op").unwrap();
    let first = packet.overloads().generation;
    let choice = Choice {
        index: 0,
        strict: true,
    };
    packet.resolved.insert(first, b"T", choice);
    put(&r, lib, CPU, "k");
    assert_eq!(
        packet.overloads().generation,
        first,
        "a kernel is no overload"
    );
    assert_eq!(packet.resolved.get(first, b"T"), Some(choice));
    let more = r
        .new_library("t", LibraryKind::Fragment, None, "m.py:1")
        .unwrap();
    r.define(
        more,
        parse_schema("op.int(Tensor x, int n) -> Tensor").unwrap(),
        "m.py:2",
        |_| (),
    )
    .unwrap();
    let second = packet.overloads().generation;
    assert!(second > first);
    assert_eq!(
        packet.resolved.get(second, b"T"),
        None,
        "a new overload voids the cache"
    );
    packet.resolved.insert(second, b"T", choice);
    r.destroy_library(more);
    let third = packet.overloads().generation;
    assert!(third > second && packet.overloads().len() == 1);
    assert_eq!(
        packet.resolved.get(third, b"T"),
        None,
        "a removed overload voids it too"
    );
    r.check_invariants().unwrap();
}

#[test]
fn definitions_epoch_moves_with_definitions_and_lists_only() {
    let (r, lib) = setup("op(Tensor x) -> Tensor");
    let defined = r.definitions_epoch();
    assert!(defined > 0, "a definition moves it");
    put(&r, lib, CPU, "k");
    r.find_op("t::op").unwrap();
    assert_eq!(
        r.definitions_epoch(),
        defined,
        "a kernel or a lookup is no definition"
    );
    let more = r
        .new_library("t", LibraryKind::Fragment, None, "m.py:1")
        .unwrap();
    r.define(
        more,
        parse_schema("op.int(Tensor x, int n) -> Tensor").unwrap(),
        "m.py:2",
        |_| (),
    )
    .unwrap();
    let second = r.definitions_epoch();
    assert!(second > defined);
    let op = r.find_op("t::op.int").unwrap();
    assert!(op.def_full().is_some());
    r.destroy_library(more);
    assert!(
        r.definitions_epoch() > second,
        "an undefined overload moves it"
    );
    assert!(op.def_full().is_none());
    assert_eq!(r.packet("t::op").unwrap().overloads_full().len(), 1);
}

mod lifetime;
