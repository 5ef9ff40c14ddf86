//! `sum` along the last dim of a contiguous float buffer: each row's value is
//! numpy's pairwise sum bit for bit (Note [Pairwise sum] in reduce.rs).
//!
//! Note [Rows side by side]: numpy's 8 partial sums of a run are one 8-lane
//! vector, so summing one row is a single chain of dependent additions: the
//! adder waits out its latency on every step. Rows of one length share one
//! pairing tree, so four rows are summed together: the tree is walked once (with
//! a stack; a recursive helper would be compiled for the baseline CPU), and each
//! run adds the four rows' vectors side by side, four independent chains, every
//! row's additions in exactly its own order. The loop is written with AVX
//! intrinsics: left to the compiler, the 32 partial sums of four rows were
//! vectorised along the wrong lanes (two at a time, with shuffles).

use super::reduce::{join_eight, pairwise_run, sum_float, BLOCK};
use super::Float;

/// Rows summed together (Note [Rows side by side]).
const ROWS_AT_ONCE: usize = 4;

/// A float type whose rows [`row_sums`] can sum with AVX.
pub trait RowSum: Float {
    /// The AVX row sums of `x` (rows of `n` values) into `out`.
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[cfg(target_arch = "x86_64")]
    unsafe fn row_sums_avx(x: &[Self], n: usize, out: &mut [Self]);
}

/// `out[r] = 0 + pairwise(row r)` for the rows of `n` values of `x` (`n > 0`,
/// `x.len() == n * out.len()`): numpy's `np.add.reduce(x, axis=-1)` bit for bit.
pub fn row_sums<T: RowSum>(x: &[T], n: usize, out: &mut [T]) {
    assert!(
        n > 0 && x.len() == n * out.len(),
        "row_sums: {} values are not {} rows of {n}",
        x.len(),
        out.len()
    );
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx") {
        // SAFETY: the CPU has AVX (checked above).
        unsafe { T::row_sums_avx(x, n, out) };
        return;
    }
    for (o, row) in out.iter_mut().zip(x.chunks_exact(n)) {
        *o = sum_float(row);
    }
}

/// numpy's pairwise recursion over `n` values, without recursion: `leaf(lo, len)`
/// sums the runs of at most `BLOCK` values, `join` adds two halves, in numpy's
/// order (left half, right half, then their sum). The stacks hold at most two
/// entries per level, and a level halves the length.
#[inline(always)]
fn pairwise_tree<V: Copy>(
    n: usize,
    zero: V,
    mut leaf: impl FnMut(usize, usize) -> V,
    join: impl Fn(V, V) -> V,
) -> V {
    if n <= BLOCK {
        return leaf(0, n);
    }
    // A task is a range to sum, or (`JOIN` as its start) the join of the two values
    // on top of the value stack.
    const JOIN: usize = usize::MAX;
    const LEVELS: usize = usize::BITS as usize;
    let mut tasks = [(0usize, 0usize); 2 * LEVELS + 2];
    let mut values = [zero; LEVELS + 2];
    let (mut nt, mut nv) = (1, 0);
    tasks[0] = (0, n);
    while nt > 0 {
        nt -= 1;
        let (lo, len) = tasks[nt];
        if lo == JOIN {
            nv -= 1;
            values[nv - 1] = join(values[nv - 1], values[nv]);
        } else if len <= BLOCK {
            values[nv] = leaf(lo, len);
            nv += 1;
        } else {
            let half = len / 2;
            let half = half - half % 8;
            tasks[nt] = (JOIN, 0);
            tasks[nt + 1] = (lo + half, len - half);
            tasks[nt + 2] = (lo, half);
            nt += 3;
        }
    }
    values[0]
}

/// Defines the AVX row sums of one float type: its 8 partial sums are `$per`
/// vectors of `$width` lanes.
#[cfg(target_arch = "x86_64")]
macro_rules! avx_row_sums {
    ($t:ty, $per:expr, $width:expr, $setzero:ident, $load:ident, $add:ident, $store:ident) => {
        impl RowSum for $t {
            #[target_feature(enable = "avx")]
            unsafe fn row_sums_avx(x: &[$t], n: usize, out: &mut [$t]) {
                use std::arch::x86_64::*;
                /// The 8 partial sums of `len >= 8` values of each row from `lo`,
                /// numpy's order, joined as numpy joins them. Plain loops only: a
                /// closure handed to a generic helper (`array::from_fn`, `map`) is
                /// compiled with AVX but called from the helper's baseline code, which
                /// cannot inline it.
                #[target_feature(enable = "avx")]
                #[inline]
                unsafe fn leaf4(
                    rows: &[&[$t]; ROWS_AT_ONCE],
                    lo: usize,
                    len: usize,
                ) -> [$t; ROWS_AT_ONCE] {
                    let mut p = [std::ptr::null::<$t>(); ROWS_AT_ONCE];
                    for k in 0..ROWS_AT_ONCE {
                        p[k] = rows[k][lo..lo + len].as_ptr();
                    }
                    let full = len - len % 8;
                    // The first 8 values start the partial sums, as in numpy.
                    let mut acc = [[$setzero(); $per]; ROWS_AT_ONCE];
                    for k in 0..ROWS_AT_ONCE {
                        for j in 0..$per {
                            // SAFETY: `p[k]` starts `len >= 8` values; this reads values `j * $width..(j + 1) * $width`.
                            acc[k][j] = unsafe { $load(p[k].add(j * $width)) };
                        }
                    }
                    let mut i = 8;
                    while i < full {
                        for k in 0..ROWS_AT_ONCE {
                            for j in 0..$per {
                                // SAFETY: `i + 8 <= full <= len`: the read stays within the run.
                                acc[k][j] =
                                    $add(acc[k][j], unsafe { $load(p[k].add(i + j * $width)) });
                            }
                        }
                        i += 8;
                    }
                    let mut out = [0.0; ROWS_AT_ONCE];
                    for k in 0..ROWS_AT_ONCE {
                        let mut r: [$t; 8] = [0.0; 8];
                        for j in 0..$per {
                            // SAFETY: `r` holds 8 values; store `j` writes `$width` of them.
                            unsafe { $store(r.as_mut_ptr().add(j * $width), acc[k][j]) };
                        }
                        let mut s = join_eight(&r);
                        for &v in &rows[k][lo + full..lo + len] {
                            s += v;
                        }
                        out[k] = s;
                    }
                    out
                }
                let mut rows = x.chunks_exact(n);
                let mut outs = out.chunks_exact_mut(ROWS_AT_ONCE);
                for group in &mut outs {
                    let mut r: [&[$t]; ROWS_AT_ONCE] = [&[]; ROWS_AT_ONCE];
                    for row in r.iter_mut() {
                        *row = rows.next().expect("one row per output");
                    }
                    let leaf = |lo: usize, len: usize| {
                        if len < 8 {
                            let mut out = [0.0; ROWS_AT_ONCE];
                            for k in 0..ROWS_AT_ONCE {
                                out[k] = pairwise_run(&r[k][lo..lo + len]);
                            }
                            out
                        } else {
                            // SAFETY: this function runs only where AVX is present.
                            unsafe { leaf4(&r, lo, len) }
                        }
                    };
                    let join =
                        |mut a: [$t; ROWS_AT_ONCE], b: [$t; ROWS_AT_ONCE]| -> [$t; ROWS_AT_ONCE] {
                            for k in 0..ROWS_AT_ONCE {
                                a[k] += b[k];
                            }
                            a
                        };
                    let sums = pairwise_tree(n, [0.0; ROWS_AT_ONCE], leaf, join);
                    for (o, s) in group.iter_mut().zip(sums) {
                        *o = 0.0 + s;
                    }
                }
                for (o, row) in outs.into_remainder().iter_mut().zip(rows) {
                    *o = sum_float(row);
                }
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
avx_row_sums!(
    f32,
    1,
    8,
    _mm256_setzero_ps,
    _mm256_loadu_ps,
    _mm256_add_ps,
    _mm256_storeu_ps
);
#[cfg(target_arch = "x86_64")]
avx_row_sums!(
    f64,
    2,
    4,
    _mm256_setzero_pd,
    _mm256_loadu_pd,
    _mm256_add_pd,
    _mm256_storeu_pd
);

#[cfg(not(target_arch = "x86_64"))]
impl RowSum for f32 {}
#[cfg(not(target_arch = "x86_64"))]
impl RowSum for f64 {}
