//! Dispatch hot path and registration costs on the pure-Rust API.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use opyard::dispatch::table::{DispatchTable, Slot};
use opyard::dispatch::tls;
use opyard::registry::{Choice, LibraryKind};
use opyard::{parse_schema, DispatchKey, DispatchKeySet, Registry};
use std::time::Duration;

type Reg = Registry<u64, ()>;

fn registry_with_op() -> (Reg, u64) {
    let r = Reg::new();
    let lib = r
        .new_library("bench", LibraryKind::Def, None, "bench.rs:1")
        .unwrap();
    r.define(
        lib,
        parse_schema("op(Tensor[] xs) -> Tensor").unwrap(),
        "bench.rs:2",
        |_| (),
    )
    .unwrap();
    for (i, key) in [DispatchKey::CPU, DispatchKey::Meta, DispatchKey::Autograd]
        .into_iter()
        .enumerate()
    {
        r.impl_kernel(lib, "op", Some(key), i as u64, false, true, "bench.rs:3")
            .unwrap();
    }
    (r, lib)
}

/// What a call does after binding: union the arguments' keys, apply TLS,
/// mask fallthroughs, take the highest key, load the slot.
#[inline(always)]
fn lookup(table: &DispatchTable<u64>, args: &[DispatchKeySet]) -> u64 {
    let keys = args.iter().fold(DispatchKeySet::EMPTY, |a, b| a | *b);
    let masked = tls::apply(keys) & table.nonfallthrough;
    match table.slot(masked.highest()) {
        Slot::Kernel { reg, .. } => reg.kernel,
        _ => u64::MAX,
    }
}

fn bench_lookup(c: &mut Criterion) {
    let (r, _lib) = registry_with_op();
    let op = r.find_op("bench::op").unwrap();
    let cpu = DispatchKeySet::from_key(DispatchKey::CPU).add(DispatchKey::AutogradCPU);
    for n in [1usize, 2, 8] {
        let args = vec![cpu; n];
        c.bench_function(&format!("dispatch/lookup_{n}_tensors"), |b| {
            b.iter(|| {
                let table = op.table();
                black_box(lookup(&table, black_box(&args)))
            })
        });
    }
}

/// `n` more operators, each with a CPU kernel, in a library of their own.
fn add_ops(r: &Reg, n: usize) {
    let lib = r
        .new_library("other", LibraryKind::Fragment, None, "bench.rs:30")
        .unwrap();
    for i in 0..n {
        let s = parse_schema(&format!("op{i}(Tensor x) -> Tensor")).unwrap();
        r.define(lib, s, "bench.rs:31", |_| ()).unwrap();
        r.impl_kernel(
            lib,
            &format!("op{i}"),
            Some(DispatchKey::CPU),
            i as u64,
            false,
            true,
            "bench.rs:32",
        )
        .unwrap();
    }
}

/// The call path reads one operator's table: its cost must not depend on
/// how many other operators are registered.
fn bench_lookup_scaling(c: &mut Criterion) {
    let cpu = [DispatchKeySet::from_key(DispatchKey::CPU)];
    for n in [10usize, 10_000] {
        let (r, _lib) = registry_with_op();
        add_ops(&r, n);
        let op = r.find_op("bench::op").unwrap();
        c.bench_function(&format!("dispatch/lookup_with_{n}_ops"), |b| {
            b.iter(|| {
                let table = op.table();
                black_box(lookup(&table, black_box(&cpu)))
            })
        });
    }
}

/// A packet call's overload lookup: load the overload list, find the
/// signature (two tensors) in the packet's cache. See Note [Overload cache].
fn bench_overload_cache(c: &mut Criterion) {
    let (r, _lib) = registry_with_op();
    let packet = r.packet("bench::op").unwrap();
    let signature = [6u8, 6];
    let choice = Choice {
        index: 0,
        strict: true,
    };
    packet
        .resolved
        .insert(packet.overloads().generation, &signature, choice);
    c.bench_function("dispatch/overload_cache_hit", |b| {
        b.iter(|| {
            let list = packet.overloads();
            black_box(packet.resolved.get(list.generation, black_box(&signature)))
        })
    });
}

fn bench_recompute(c: &mut Criterion) {
    for n in [0usize, 10_000] {
        let (r, _lib) = registry_with_op();
        add_ops(&r, n);
        let name = if n == 0 {
            "dispatch/impl_and_destroy_cpu_kernel".to_string()
        } else {
            format!("dispatch/impl_and_destroy_with_{n}_ops")
        };
        c.bench_function(&name, |b| impl_and_destroy(b, &r));
    }
}

fn impl_and_destroy(b: &mut criterion::Bencher<'_>, r: &Reg) {
    {
        b.iter(|| {
            let l = r
                .new_library("bench", LibraryKind::Impl, None, "bench.rs:9")
                .unwrap();
            r.impl_kernel(
                l,
                "op",
                Some(DispatchKey::CPU),
                7,
                false,
                true,
                "bench.rs:10",
            )
            .unwrap();
            r.destroy_library(l);
        })
    }
}

fn bench_register_10k(c: &mut Criterion) {
    let schemas: Vec<_> = (0..10_000)
        .map(|i| parse_schema(&format!("op{i}(Tensor x, int n=1) -> Tensor")).unwrap())
        .collect();
    let mut g = c.benchmark_group("dispatch");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    g.bench_function("define_and_impl_10k_ops", |b| {
        b.iter_batched(
            || (Reg::new(), schemas.clone()),
            |(r, schemas)| {
                let lib = r
                    .new_library("bench", LibraryKind::Def, None, "bench.rs:20")
                    .unwrap();
                for (i, s) in schemas.into_iter().enumerate() {
                    let name = format!("op{i}");
                    r.define(lib, s, "bench.rs:21", |_| ()).unwrap();
                    r.impl_kernel(
                        lib,
                        &name,
                        Some(DispatchKey::CPU),
                        i as u64,
                        false,
                        true,
                        "bench.rs:22",
                    )
                    .unwrap();
                }
                r
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
    targets = bench_lookup, bench_lookup_scaling, bench_overload_cache, bench_recompute, bench_register_10k
}
criterion_main!(benches);
