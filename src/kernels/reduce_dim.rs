//! Reductions along a dim: `sum` (and so `mean`) in the element type or, for
//! 16-bit floats, in `f32`; `amax`/`amin`.
//!
//! Note [Dim reduction layout]: a C-contiguous array is read as `(outer, n,
//! inner)` around the reduced dims (one dim, or a run of adjacent dims read as
//! one), the result as `(outer, inner)`. With `inner == 1` each output is a
//! contiguous row; otherwise the `n` slices of `inner` elements of an outer
//! block are folded into the output slice one after another.
//!
//! Note [Dim sum order]: a float32/float64 sum is numpy's value bit for bit, as
//! the Python kernel computed it: a row (`inner == 1`) is `0 + pairwise(row)`
//! (Note [Pairwise sum]), and with `inner > 1` every output is `0 + x0 + x1 +
//! ...` in order along the dim (numpy's reduction adds the slices in order).
//! 16-bit sums accumulate in `f32` (torch's accumulation type): rows as the
//! 16-bit blocked sum (`reduce::half_row_sums`), slices in order. The rows (or
//! the outer blocks, or column chunks of one block) go to the intra-op pool;
//! each output's order is fixed, so the value does not depend on the thread
//! count.
//!
//! Note [Dim max order]: `amax`/`amin` propagate nan (any nan gives nan, as
//! torch and numpy); otherwise the value is exact whatever the order, apart
//! from which of `0.0` and `-0.0` an all-zero comparison keeps: in order,
//! the first (a later value replaces the running one only when strictly
//! larger, torch's rule); a row of 16 or more is scanned in 16 lanes whose
//! results are then combined in lane order.

use super::parallel::{for_row_blocks, for_weighted_chunks};
use super::reduce::{bf16_to_f32, f16_to_f32, half_row_sums, Half};
use super::row_sum::{row_sums, RowSum};
use super::Float;
use multiversion::multiversion;

/// A float element type of the dim reductions.
pub trait DimElem: Float + RowSum + PartialOrd + Send + Sync {
    const NAN: Self;
    const NEG_INF: Self;
    fn is_nan(self) -> bool;
}

impl DimElem for f32 {
    const NAN: Self = f32::NAN;
    const NEG_INF: Self = f32::NEG_INFINITY;
    #[inline(always)]
    fn is_nan(self) -> bool {
        self.is_nan()
    }
}

impl DimElem for f64 {
    const NAN: Self = f64::NAN;
    const NEG_INF: Self = f64::NEG_INFINITY;
    #[inline(always)]
    fn is_nan(self) -> bool {
        self.is_nan()
    }
}

/// Which extreme `amax`/`amin` keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extreme {
    Max,
    Min,
}

/// Calls `f(out_part, x_part, first_column)` over the `(outer, n, inner)`
/// layout (Note [Dim reduction layout]) with `inner > 1`, split across the
/// pool by outer blocks or, for few outer blocks, by column chunks.
fn for_slices<T: Sync, U: Send>(
    x: &[T],
    outer: usize,
    n: usize,
    inner: usize,
    out: &mut [U],
    f: impl Fn(&mut [U], &[T], usize) + Sync,
) {
    if outer >= 4 {
        for_row_blocks(x, n * inner, out, inner, |_, xs, os| {
            for (xb, ob) in xs.chunks(n * inner).zip(os.chunks_mut(inner)) {
                f(ob, xb, 0);
            }
        });
        return;
    }
    for (xb, ob) in x.chunks(n * inner).zip(out.chunks_mut(inner)) {
        for_weighted_chunks(ob, n, |start, oc| f(oc, xb, start));
    }
}

/// `out[r] = f(&mut state, row r of x)` for the rows of `n` elements of `x` (the
/// `inner == 1` layout), the rows split across the pool in blocks, each block with
/// its own `state` from `init` (a scratch buffer).
fn for_rows<T: Sync, U: Send, S>(
    x: &[T],
    n: usize,
    out: &mut [U],
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &[T]) -> U + Sync,
) {
    for_row_blocks(x, n, out, 1, |_, rows, os| {
        let mut state = init();
        for (row, o) in rows.chunks(n).zip(os.iter_mut()) {
            *o = f(&mut state, row);
        }
    });
}

/// `sum` along the dim of `x` read as `(outer, n, inner)` into `out`
/// (`outer * inner` values), numpy's value bit for bit (Note [Dim sum order]).
pub fn sum_dim<T: DimElem>(x: &[T], outer: usize, n: usize, inner: usize, out: &mut [T]) {
    if n == 0 {
        out.fill(T::ZERO);
        return;
    }
    if inner == 1 {
        for_row_blocks(x, n, out, 1, |_, rows, os| row_sums(rows, n, os));
        return;
    }
    for_slices(x, outer, n, inner, out, |os, xb, start| {
        os.fill(T::ZERO);
        for slice in xb.chunks(inner) {
            add_into(os, &slice[start..start + os.len()]);
        }
    });
}

/// `acc[i] += x[i]`, compiled for the wider vector units.
#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn add_into<T: DimElem>(acc: &mut [T], x: &[T]) {
    for (a, &v) in acc.iter_mut().zip(x) {
        *a = a.add(v);
    }
}

/// The `f32` sums along the dim of 16-bit floats (raw bits) read as `(outer,
/// n, inner)`: rows (`inner == 1`) as `reduce::half_row_sums`, otherwise each
/// output `0 + x0 + x1 + ...` in order, in `f32`.
pub fn half_sum_slices(
    bits: &[u16],
    outer: usize,
    n: usize,
    inner: usize,
    format: Half,
    out: &mut [f32],
) {
    if n == 0 {
        out.fill(0.0);
        return;
    }
    if inner == 1 {
        half_row_sums(bits, n, format, out);
        return;
    }
    for_slices(bits, outer, n, inner, out, |os, xb, start| {
        os.fill(0.0);
        for slice in xb.chunks(inner) {
            add_half_into(os, &slice[start..start + os.len()], format);
        }
    });
}

/// `acc[i] += widen(x[i])`, compiled for the wider vector units.
#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn add_half_into(acc: &mut [f32], x: &[u16], format: Half) {
    match format {
        Half::BF16 => {
            for (a, &h) in acc.iter_mut().zip(x) {
                *a += bf16_to_f32(h);
            }
        }
        Half::F16 => {
            for (a, &h) in acc.iter_mut().zip(x) {
                *a += f16_to_f32(h);
            }
        }
    }
}

/// `v` replaces `m` when it is strictly beyond it (Note [Dim max order]).
#[inline(always)]
fn beyond<T: DimElem>(v: T, m: T, which: Extreme) -> bool {
    match which {
        Extreme::Max => v > m,
        Extreme::Min => v < m,
    }
}

/// Lanes of the row scan of [`extreme_row`].
const MAX_LANES: usize = 16;

/// The largest (smallest) value of a non-empty row; nan if it has one. A row
/// of `MAX_LANES` or more runs in that many lanes, each keeping its running
/// value and whether it saw a nan (flags, so the loop stays in vector registers).
#[inline(always)]
fn extreme_row<T: DimElem>(row: &[T], which: Extreme) -> T {
    let mut nan = false;
    let mut m;
    let rest;
    if row.len() >= MAX_LANES {
        let mut lanes = [row[0]; MAX_LANES];
        lanes.copy_from_slice(&row[..MAX_LANES]);
        let mut seen = [false; MAX_LANES];
        let full = row.len() - row.len() % MAX_LANES;
        for chunk in row[MAX_LANES..full].chunks_exact(MAX_LANES) {
            let c: &[T; MAX_LANES] = chunk
                .try_into()
                .expect("chunks_exact gives MAX_LANES values");
            for i in 0..MAX_LANES {
                let v = c[i];
                seen[i] |= v.is_nan();
                lanes[i] = if beyond(v, lanes[i], which) {
                    v
                } else {
                    lanes[i]
                };
            }
        }
        m = lanes[0];
        for (&l, &s) in lanes.iter().zip(&seen) {
            nan |= s | l.is_nan();
            m = if beyond(l, m, which) { l } else { m };
        }
        rest = &row[full..];
    } else {
        m = row[0];
        nan = m.is_nan();
        rest = &row[1..];
    }
    for &v in rest {
        nan |= v.is_nan();
        m = if beyond(v, m, which) { v } else { m };
    }
    if nan {
        T::NAN
    } else {
        m
    }
}

/// `acc[i] = x[i]` where `x[i]` is strictly beyond it or nan (nan sticks).
#[inline(always)]
fn extreme_into<T: DimElem>(acc: &mut [T], x: &[T], which: Extreme) {
    for (a, &v) in acc.iter_mut().zip(x) {
        let take = beyond(v, *a, which) || v.is_nan();
        *a = if take { v } else { *a };
    }
}

/// `amax` (`Extreme::Max`) or `amin` along the dim of `x` read as `(outer, n,
/// inner)` into `out`, `n >= 1` (Note [Dim max order]).
pub fn extreme_dim<T: DimElem>(
    x: &[T],
    outer: usize,
    n: usize,
    inner: usize,
    which: Extreme,
    out: &mut [T],
) {
    extreme_dim_mv(x, outer, n, inner, which, out)
}

#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn extreme_dim_mv<T: DimElem>(
    x: &[T],
    outer: usize,
    n: usize,
    inner: usize,
    which: Extreme,
    out: &mut [T],
) {
    if n == 0 {
        return;
    }
    if inner == 1 {
        for_rows(x, n, out, || (), |_, row| extreme_row(row, which));
        return;
    }
    for_slices(x, outer, n, inner, out, |os, xb, start| {
        let len = os.len();
        os.copy_from_slice(&xb[start..start + len]);
        for slice in xb.chunks(inner).skip(1) {
            extreme_into(os, &slice[start..start + len], which);
        }
    });
}

/// `x` widened into `buf` (resized to its length), compiled for the wider
/// vector units (the float16 widening is integer arithmetic that vectorises).
#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn widen_into(x: &[u16], format: Half, buf: &mut Vec<f32>) {
    buf.resize(x.len(), 0.0);
    match format {
        Half::BF16 => {
            for (w, &h) in buf.iter_mut().zip(x) {
                *w = bf16_to_f32(h);
            }
        }
        Half::F16 => {
            for (w, &h) in buf.iter_mut().zip(x) {
                *w = f16_to_f32(h);
            }
        }
    }
}

/// `amax`/`amin` along the dim of 16-bit floats (raw bits) read as `(outer, n,
/// inner)`, `n >= 1`, as `f32` values (each exactly one of the elements, or
/// nan): each row or slice widened exactly into a buffer, then scanned as
/// [`extreme_dim`] scans `f32` data, so the same rules hold.
pub fn half_extreme_dim(
    bits: &[u16],
    outer: usize,
    n: usize,
    inner: usize,
    format: Half,
    which: Extreme,
    out: &mut [f32],
) {
    if n == 0 {
        return;
    }
    if inner == 1 {
        for_rows(
            bits,
            n,
            out,
            || Vec::with_capacity(n),
            |buf, row| {
                widen_into(row, format, buf);
                extreme_row(buf, which)
            },
        );
        return;
    }
    for_slices(bits, outer, n, inner, out, |os, xb, start| {
        let len = os.len();
        let mut buf = Vec::with_capacity(len);
        for (i, slice) in xb.chunks(inner).enumerate() {
            widen_into(&slice[start..start + len], format, &mut buf);
            if i == 0 {
                os.copy_from_slice(&buf);
            } else {
                extreme_into(os, &buf, which);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::parallel::{set_num_threads, thread_count_guard};

    fn data(len: usize) -> Vec<f32> {
        let mut seed = 7u64;
        (0..len)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((seed >> 40) as f32 / (1u64 << 24) as f32) - 0.5
            })
            .collect()
    }

    #[test]
    fn slice_sums_add_in_order_on_any_thread_count() {
        let _serial = thread_count_guard();
        for (outer, n, inner) in [(1, 300, 5000), (3, 70, 1000), (40, 9, 3000), (2, 0, 4)] {
            let x = data(outer * n * inner);
            let mut want = vec![0.0f32; outer * inner];
            for o in 0..outer {
                for j in 0..inner {
                    let mut s = 0.0f32;
                    for i in 0..n {
                        s += x[(o * n + i) * inner + j];
                    }
                    want[o * inner + j] = s;
                }
            }
            for threads in [1, 2] {
                set_num_threads(threads);
                let mut got = vec![1.0f32; outer * inner];
                sum_dim(&x, outer, n, inner, &mut got);
                assert_eq!(got, want, "{outer}x{n}x{inner} on {threads}");
            }
        }
    }

    #[test]
    fn extremes_propagate_nan_and_keep_the_first_zero() {
        let mut x = data(64 * 100);
        x[5 * 100 + 37] = f32::NAN;
        let mut out = vec![0.0f32; 64];
        extreme_dim(&x, 64, 100, 1, Extreme::Max, &mut out);
        for (r, &o) in out.iter().enumerate() {
            let row = &x[r * 100..(r + 1) * 100];
            if r == 5 {
                assert!(o.is_nan());
            } else {
                assert_eq!(o, row.iter().cloned().fold(f32::MIN, f32::max));
            }
        }
        let zeros = [0.0f32, -0.0, 0.0];
        let mut o = [1.0f32];
        extreme_dim(&zeros, 1, 3, 1, Extreme::Min, &mut o);
        assert_eq!(o[0].to_bits(), 0.0f32.to_bits());
        extreme_dim(&zeros[1..], 1, 2, 1, Extreme::Max, &mut o);
        assert_eq!(o[0].to_bits(), (-0.0f32).to_bits());
    }
}
