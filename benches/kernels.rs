//! The fused kernels on 4096×1024 `f32` (torch's throughput sizes) and the
//! blocked sums of 16M `f32`, bfloat16 and float16 values, with the intra-op
//! pool at 1 thread and at the machine's default.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use opyard::kernels::fused::{gelu, norm, silu, softmax};
use opyard::kernels::parallel::{num_threads, set_num_threads};
use opyard::kernels::reduce::{sum_float_blocked, sum_half_blocked, Half};

const ROWS: usize = 4096;
const COLS: usize = 1024;

fn input() -> Vec<f32> {
    (0..ROWS * COLS)
        .map(|i| ((i * 7919) % 2001) as f32 / 1000.0 - 1.0)
        .collect()
}

fn fused(c: &mut Criterion) {
    let x = input();
    let w = vec![1.5f32; COLS];
    let b = vec![0.25f32; COLS];
    let mut out = vec![0.0f32; x.len()];
    let mut stats = vec![0.0f32; 2 * ROWS];
    let default = num_threads();
    for threads in [1, default] {
        set_num_threads(threads);
        let mut g = c.benchmark_group(format!("fused_4096x1024_{threads}t"));
        g.sample_size(20);
        g.bench_function("softmax", |bch| {
            bch.iter(|| softmax(black_box(&x), COLS, 1, &mut out, false))
        });
        g.bench_function("log_softmax", |bch| {
            bch.iter(|| softmax(black_box(&x), COLS, 1, &mut out, true))
        });
        g.bench_function("softmax_dim0", |bch| {
            bch.iter(|| softmax(black_box(&x), ROWS, COLS, &mut out, false))
        });
        g.bench_function("layer_norm", |bch| {
            bch.iter(|| {
                norm(
                    black_box(&x),
                    COLS,
                    Some(&w),
                    Some(&b),
                    1e-5,
                    true,
                    &mut out,
                    &mut stats,
                )
            })
        });
        g.bench_function("rms_norm", |bch| {
            bch.iter(|| {
                norm(
                    black_box(&x),
                    COLS,
                    Some(&w),
                    None,
                    1e-6,
                    false,
                    &mut out,
                    &mut stats,
                )
            })
        });
        g.bench_function("gelu", |bch| {
            bch.iter(|| gelu(black_box(&x), &mut out, false))
        });
        g.bench_function("gelu_tanh", |bch| {
            bch.iter(|| gelu(black_box(&x), &mut out, true))
        });
        g.bench_function("silu", |bch| bch.iter(|| silu(black_box(&x), &mut out)));
        g.finish();
    }
    set_num_threads(default);
}

fn sums(c: &mut Criterion) {
    let n = 1 << 24;
    let x: Vec<f32> = (0..n)
        .map(|i| ((i * 7919) % 2001) as f32 / 1000.0)
        .collect();
    // bfloat16: the high half of each f32; float16: 1.0 to 2.0 (0x3C00 plus 10 mantissa bits).
    let bf16: Vec<u16> = x.iter().map(|v| (v.to_bits() >> 16) as u16).collect();
    let f16: Vec<u16> = (0..n).map(|i| 0x3C00 | (i % 1024) as u16).collect();
    let default = num_threads();
    for threads in [1, default] {
        set_num_threads(threads);
        let mut g = c.benchmark_group(format!("sum_16M_{threads}t"));
        g.sample_size(20);
        g.bench_function("f32", |bch| bch.iter(|| sum_float_blocked(black_box(&x))));
        g.bench_function("bf16", |bch| {
            bch.iter(|| sum_half_blocked(black_box(&bf16), Half::BF16))
        });
        g.bench_function("f16", |bch| {
            bch.iter(|| sum_half_blocked(black_box(&f16), Half::F16))
        });
        g.finish();
    }
    set_num_threads(default);
}

criterion_group!(benches, fused, sums);
criterion_main!(benches);
