//! Full reductions: `sum` of every element.
//!
//! Note [Pairwise sum]: a float `sum` must equal numpy's `np.add.reduce`
//! bit for bit (the Python kernel it replaces calls that). numpy starts from
//! the identity `0` and adds the pairwise sum of the whole buffer: fewer than
//! 8 elements are added in order; up to 128 go into 8 running partial sums
//! (combined as `((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7))`, then the remainder in
//! order); longer buffers are split in two at half the length rounded down to
//! a multiple of 8 and summed recursively. The error grows as O(log n) rather
//! than O(n), and every step below rounds exactly where numpy's does.
//!
//! Note [Blocked sum]: a large buffer (`sum_float_blocked`) is cut into blocks of
//! `SUM_BLOCK` elements, each summed pairwise (on the intra-op pool, Note
//! [Intra-op threads]), and the block sums are added pairwise in order. The
//! accumulation stays in the element type (float32 for float32, as torch's CPU
//! kernel does) with the pairwise error bound; the blocks are fixed, so the value
//! does not depend on the number of threads. It equals numpy's value up to the
//! rounding of a different pairing, not bit for bit: the Python kernel, whose
//! result numpy computes, is what smaller buffers keep.

use half::f16;
use half::slice::{HalfBitsSliceExt, HalfFloatSliceExt};
use multiversion::multiversion;

use super::parallel::map_blocks;
use super::Float;

/// Elements per block of `sum_float_blocked` (a multiple of 8; 256 KiB of float32,
/// which stays in a core's L2 while it is summed).
pub const SUM_BLOCK: usize = 1 << 16;

/// Buffers up to this length are summed with 8 partial sums, no recursion.
const BLOCK: usize = 128;

/// numpy's pairwise sum of `x` (see Note [Pairwise sum]), without the identity.
fn pairwise<T: Float>(x: &[T]) -> T {
    let n = x.len();
    if n <= BLOCK {
        return pairwise_run(x);
    }
    let half = n / 2;
    let half = half - half % 8;
    pairwise(&x[..half]).add(pairwise(&x[half..]))
}

/// [`pairwise`] of at most `BLOCK` values: in order below 8, else 8 running
/// partial sums. Inlined, so a caller compiled for a wider vector unit
/// (`multiversion`) runs it 8 lanes wide; the roundings are the same.
#[inline(always)]
fn pairwise_run<T: Float>(x: &[T]) -> T {
    let n = x.len();
    if n < 8 {
        let mut res = T::ZERO;
        for &v in x {
            res = res.add(v);
        }
        return res;
    }
    let mut r = [x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]];
    let full = n - n % 8;
    for chunk in x[8..full].chunks_exact(8) {
        for (acc, &v) in r.iter_mut().zip(chunk) {
            *acc = acc.add(v);
        }
    }
    let mut res = (r[0].add(r[1]).add(r[2].add(r[3]))).add(r[4].add(r[5]).add(r[6].add(r[7])));
    for &v in &x[full..] {
        res = res.add(v);
    }
    res
}

/// `sum` of a float buffer, as `np.add.reduce` computes it: `0 + pairwise(x)`
/// (so the sum of `[-0.0]` is `0.0`, as in numpy and torch).
pub fn sum_float<T: Float>(x: &[T]) -> T {
    T::ZERO.add(pairwise(x))
}

/// `sum` of a large float buffer by blocks, on the pool (see Note [Blocked sum]).
pub fn sum_float_blocked<T: Float + Send + Sync>(x: &[T]) -> T {
    if x.len() <= SUM_BLOCK {
        return sum_float(x);
    }
    let partial = map_blocks(x, SUM_BLOCK, |b| pairwise(b));
    T::ZERO.add(pairwise(&partial))
}

/// [`pairwise_run`] of a run of 8 to `BLOCK` bfloat16 values (raw bits), each
/// widened exactly where it is read: the same additions in the same order.
#[inline(always)]
fn pairwise_run_bf16(x: &[u16]) -> f32 {
    let wide = |h: u16| f32::from_bits((h as u32) << 16);
    let n = x.len();
    let mut r = [0.0f32; 8];
    for (acc, &h) in r.iter_mut().zip(&x[..8]) {
        *acc = wide(h);
    }
    let full = n - n % 8;
    for chunk in x[8..full].chunks_exact(8) {
        for (acc, &h) in r.iter_mut().zip(chunk) {
            *acc += wide(h);
        }
    }
    let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for &h in &x[full..] {
        res += wide(h);
    }
    res
}

/// A 16-bit float format given as its raw bits, summed in `f32` (torch's
/// accumulation type for both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// bfloat16: the high half of an `f32`'s bits, widened by a shift.
    BF16,
    /// IEEE float16, widened by the `half` crate (F16C where the CPU has it).
    F16,
}

/// `sum` of a large bfloat16 or float16 buffer (the raw `u16` bits) in `f32`,
/// blocked as `sum_float_blocked`: each run of `BLOCK` values is widened exactly
/// into a buffer on the stack and summed with numpy's 8-lane loop, and the run
/// sums are added pairwise, all in `f32` (pairwise error bound; no heap buffer
/// per block). The result does not depend on the CPU's vector unit nor on the
/// number of threads: the same roundings in the same order everywhere.
pub fn sum_half_blocked(bits: &[u16], format: Half) -> f32 {
    let partial = map_blocks(bits, SUM_BLOCK, |b| half_block_sum(b, format));
    0.0f32 + pairwise(&partial)
}

/// `x` rounded to bfloat16 (nearest, ties to even; nan stays nan), as raw bits
/// into `out`, on the pool when large: what a bfloat16 result computed in
/// `f32` is stored as (ml_dtypes' and torch's rounding).
pub fn round_to_bf16(x: &[f32], out: &mut [u16]) {
    super::parallel::for_chunks(out, |start, os| {
        let xs = &x[start..start + os.len()];
        os.reinterpret_cast_mut::<half::bf16>()
            .convert_from_f32_slice(xs);
    });
}

/// The `f32` sum of each `row_len`-element row of a bfloat16 or float16 buffer
/// (raw bits) into `out` (one value per row), the rows spread over the pool:
/// each row summed as [`sum_half_blocked`] sums a buffer (so a row's value does
/// not depend on the number of threads either).
pub fn half_row_sums(bits: &[u16], row_len: usize, format: Half, out: &mut [f32]) {
    super::parallel::for_row_blocks(bits, row_len, out, 1, |_, rows, sums| {
        for (row, s) in rows.chunks(row_len.max(1)).zip(sums.iter_mut()) {
            *s = if row.len() <= SUM_BLOCK {
                0.0f32 + half_block_sum(row, format)
            } else {
                let partial: Vec<f32> = row
                    .chunks(SUM_BLOCK)
                    .map(|b| half_block_sum(b, format))
                    .collect();
                0.0f32 + pairwise(&partial)
            };
        }
        if row_len == 0 {
            sums.fill(0.0);
        }
    });
}

/// The `f32` sum of one block of 16-bit floats (see [`sum_half_blocked`]),
/// compiled for AVX-512, AVX2 (with F16C) and the baseline.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512dq+avx512vl+f16c",
    "x86_64+avx2+fma+f16c"
))]
fn half_block_sum(b: &[u16], format: Half) -> f32 {
    let mut runs = Vec::with_capacity(b.len().div_ceil(BLOCK));
    let mut wide = [0.0f32; BLOCK];
    for run in b.chunks(BLOCK) {
        let w = &mut wide[..run.len()];
        match format {
            // Widened as they are added: the same sums as `pairwise_run` of the widened run.
            Half::BF16 if run.len() >= 8 => {
                runs.push(pairwise_run_bf16(run));
                continue;
            }
            Half::BF16 => {
                for (w, &h) in w.iter_mut().zip(run) {
                    *w = f32::from_bits((h as u32) << 16);
                }
            }
            // The crate's slice conversion picks F16C at run time, once per run.
            Half::F16 => run.reinterpret_cast::<f16>().convert_to_f32_slice(w),
        }
        runs.push(pairwise_run(w));
    }
    pairwise(&runs)
}

/// `sum` of an integer buffer in int64, wrapping on overflow (torch sums
/// integers in int64; numpy's `dtype=int64` reduction wraps the same way).
pub fn sum_int<I: Copy + Into<i64>>(x: &[I]) -> i64 {
    x.iter().fold(0i64, |acc, &v| acc.wrapping_add(v.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bf16_runs_widened_in_place_add_as_the_widened_buffer() {
        let mut seed = 11u64;
        let bits: Vec<u16> = (0..BLOCK)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (seed >> 48) as u16 & 0xBFFF // finite values of both signs
            })
            .collect();
        for n in [8, 9, 15, 16, 63, 127, BLOCK] {
            let wide: Vec<f32> = bits[..n]
                .iter()
                .map(|&h| f32::from_bits((h as u32) << 16))
                .collect();
            assert_eq!(
                pairwise_run_bf16(&bits[..n]).to_bits(),
                pairwise_run(&wide).to_bits(),
                "{n} values"
            );
        }
    }
}
