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
//! does not depend on the number of threads. A block's leaves are summed into 32
//! partial sums, not numpy's 8 (four vector additions in flight instead of one:
//! 1.5 times the speed of numpy's pairing here), so the value equals numpy's up to the
//! rounding of a different pairing, not bit for bit: the Python kernel, whose
//! result numpy computes, is what smaller buffers keep.

use half::slice::{HalfBitsSliceExt, HalfFloatSliceExt};

use multiversion::multiversion;

use super::parallel::map_blocks;
use super::Float;

/// Elements per block of `sum_float_blocked` (a multiple of 8; 256 KiB of float32,
/// which stays in a core's L2 while it is summed).
pub const SUM_BLOCK: usize = 1 << 16;

/// Buffers up to this length are summed with 8 partial sums, no recursion.
pub(super) const BLOCK: usize = 128;

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
pub(super) fn pairwise_run<T: Float>(x: &[T]) -> T {
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
    let mut res = join_eight(&r);
    for &v in &x[full..] {
        res = res.add(v);
    }
    res
}

/// numpy's join of 8 partial sums: `((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7))`.
#[inline(always)]
pub(super) fn join_eight<T: Float>(r: &[T; 8]) -> T {
    (r[0].add(r[1]).add(r[2].add(r[3]))).add(r[4].add(r[5]).add(r[6].add(r[7])))
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
    let partial = map_blocks(x, SUM_BLOCK, |b| block_sum(b));
    T::ZERO.add(pairwise(&partial))
}

/// Partial sums of a leaf of [`block_sum`]: 32, four 8-lane vectors whose additions
/// are independent chains, so the adder is never waiting on one (8 partial sums are
/// one vector: one addition in flight at a time).
const WIDE_LANES: usize = 32;
/// Leaves of [`block_sum`]: 32 values per partial sum.
const WIDE_LEAF: usize = WIDE_LANES * 32;

/// The sum of one block (at most `SUM_BLOCK` values; Note [Blocked sum]): its leaves of
/// `WIDE_LEAF` values in order, each summed into 32 running partial sums combined
/// pairwise, then the leaf sums added pairwise. The error bound is the pairwise one; the
/// pairing differs from numpy's, which only smaller buffers keep. No recursion here: a
/// recursive helper would be compiled once, for the baseline CPU, and called from this
/// function's wider clones instead of being inlined into them.
#[multiversion(targets("x86_64+avx512f+avx512bw+avx512dq+avx512vl", "x86_64+avx2+fma"))]
fn block_sum<T: Float>(x: &[T]) -> T {
    debug_assert!(x.len() <= SUM_BLOCK, "block_sum takes one block");
    let mut leaves = [T::ZERO; SUM_BLOCK / WIDE_LEAF];
    let mut n = 0;
    for leaf in x.chunks(WIDE_LEAF) {
        leaves[n] = wide_leaf(leaf);
        n += 1;
    }
    pairwise(&leaves[..n])
}

#[inline(always)]
fn wide_leaf<T: Float>(x: &[T]) -> T {
    if x.len() < WIDE_LANES {
        return pairwise_run(x);
    }
    let mut r = [T::ZERO; WIDE_LANES];
    let full = x.len() - x.len() % WIDE_LANES;
    for chunk in x[..full].chunks_exact(WIDE_LANES) {
        for (acc, &v) in r.iter_mut().zip(chunk) {
            *acc = acc.add(v);
        }
    }
    let r = [halvings(&r)];
    let mut res = r[0];
    for &v in &x[full..] {
        res = res.add(v);
    }
    res
}

/// 32 partial sums (a [`wide_leaf`]'s, `layer_norm`'s run totals) added by halvings
/// (`r[i] + r[i + 16]`, and so on). Not inlined: inlined, its pairs of lanes set the
/// vector shape of the caller's loop, which was then compiled two lanes wide instead
/// of the widest vector.
#[inline(never)]
pub(super) fn halvings<T: Float>(r: &[T; WIDE_LANES]) -> T {
    let mut r = *r;
    let mut width = WIDE_LANES;
    while width > 1 {
        width /= 2;
        for i in 0..width {
            r[i] = r[i].add(r[i + width]);
        }
    }
    r[0]
}

/// bfloat16 bits widened to `f32` (exact: the high half of its bits).
#[inline(always)]
pub fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits((h as u32) << 16)
}

/// IEEE float16 bits widened to `f32`, exactly, by integer arithmetic and one
/// multiplication that a vector unit runs 8 or 16 lanes wide (the `half`
/// crate's conversion goes through F16C 4 values at a time, or a branchy
/// scalar routine). The magnitude bits moved to `f32`'s places read as a
/// float 2^-112 times the value (exponent bias 127 against 15), subnormals
/// included (an `f32` subnormal scaled by 2^112 is exact); the all-ones
/// exponent (inf, nan) maps to `f32`'s all-ones exponent, the payload kept.
#[inline(always)]
pub fn f16_to_f32(h: u16) -> f32 {
    f16_bits_to_f32(h as u32)
}

/// [`f16_to_f32`] of the float16 bits in the low half of `h` (the high half zero).
#[inline(always)]
fn f16_bits_to_f32(h: u32) -> f32 {
    let sign = (h & 0x8000) << 16;
    let mag = (h & 0x7fff) << 13;
    let scaled = (f32::from_bits(mag) * f32::from_bits(0x7780_0000)).to_bits(); // × 2^112
    let bits = if mag >= 0x0f80_0000 {
        mag | 0x7f80_0000
    } else {
        scaled
    };
    f32::from_bits(bits | sign)
}

/// Partial sums of a 16-bit run: 32 lanes, so an AVX2 unit keeps 4 (AVX-512: 2)
/// independent vector additions in flight instead of waiting on one.
const LANES: usize = 32;

/// Elements per run of the 16-bit sums: summed in `LANES` partial sums, the
/// partials then added as a tree; the runs of a block are added pairwise.
const RUN: usize = 1024;

/// The lane of element `j` of a group of `LANES` 16-bit values: float16 in
/// order; bfloat16 by halves of 16, the even elements of a half in its first 8
/// lanes and the odd ones in the next 8 (what widening a 32-bit word's two
/// halves in place gives: the low half shifted up, the high half masked).
#[inline(always)]
const fn lane_of(j: usize, format: Half) -> usize {
    match format {
        Half::F16 => j,
        Half::BF16 => (j / 16) * 16 + (j % 2) * 8 + (j % 16) / 2,
    }
}

/// `LANES` partial sums combined as a balanced tree (lane `j` with `j + 16`,
/// then `j + 8`, ...).
#[inline(always)]
fn tree(mut r: [f32; LANES]) -> f32 {
    let mut w = LANES;
    while w > 1 {
        w /= 2;
        for i in 0..w {
            r[i] += r[i + w];
        }
    }
    r[0]
}

/// The `f32` sum of at most `RUN` 16-bit values: `LANES` running partial sums
/// from zero, element `j` of each group of `LANES` going to lane
/// [`lane_of`]`(j)`, combined by [`tree`], then the remainder in order. The
/// order is fixed, so the value does not depend on the CPU's vector unit:
/// [`lanes_run_avx2`] computes the same sums 8 lanes per instruction.
#[inline(always)]
fn lanes_run(x: &[u16], format: Half) -> f32 {
    let wide = |h: u16| match format {
        Half::BF16 => bf16_to_f32(h),
        Half::F16 => f16_to_f32(h),
    };
    let mut r = [0.0f32; LANES];
    let full = x.len() - x.len() % LANES;
    for chunk in x[..full].chunks_exact(LANES) {
        for (j, &h) in chunk.iter().enumerate() {
            r[lane_of(j, format)] += wide(h);
        }
    }
    x[full..].iter().fold(tree(r), |acc, &h| acc + wide(h))
}

/// [`lanes_run`] with AVX2 and F16C: four 8-lane accumulators (lanes `8k..8k+8`
/// in the `k`-th), bfloat16 widened by a shift and a mask of 32-bit words,
/// float16 by `vcvtph2ps`; the same additions in the same order.
///
/// # Safety
/// The CPU must have AVX2 and F16C.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,f16c")]
unsafe fn lanes_run_avx2(x: &[u16], format: Half) -> f32 {
    use std::arch::x86_64::*;
    let mut acc = [_mm256_setzero_ps(); 4];
    let full = x.len() - x.len() % LANES;
    let high = _mm256_set1_epi32(0xffff_0000u32 as i32);
    for chunk in x[..full].chunks_exact(LANES) {
        let p = chunk.as_ptr();
        match format {
            Half::BF16 => {
                for half in 0..2 {
                    // SAFETY: the chunk holds LANES = 32 values; each load reads 16 of them.
                    let v = unsafe { _mm256_loadu_si256(p.add(16 * half) as *const __m256i) };
                    let lo = _mm256_castsi256_ps(_mm256_slli_epi32(v, 16));
                    let hi = _mm256_castsi256_ps(_mm256_and_si256(v, high));
                    acc[2 * half] = _mm256_add_ps(acc[2 * half], lo);
                    acc[2 * half + 1] = _mm256_add_ps(acc[2 * half + 1], hi);
                }
            }
            Half::F16 => {
                for (k, a) in acc.iter_mut().enumerate() {
                    // SAFETY: the chunk holds 32 values; each load reads 8 of them.
                    let h = unsafe { _mm_loadu_si128(p.add(8 * k) as *const __m128i) };
                    *a = _mm256_add_ps(*a, _mm256_cvtph_ps(h));
                }
            }
        }
    }
    let mut r = [0.0f32; LANES];
    for (k, a) in acc.iter().enumerate() {
        // SAFETY: r has 32 floats; each store writes 8 of them.
        unsafe { _mm256_storeu_ps(r.as_mut_ptr().add(8 * k), *a) };
    }
    let wide = |h: u16| match format {
        Half::BF16 => bf16_to_f32(h),
        Half::F16 => f16_to_f32(h),
    };
    x[full..].iter().fold(tree(r), |acc, &h| acc + wide(h))
}

/// Whether [`lanes_run_avx2`] can run here (the answer is cached by std).
#[inline(always)]
fn has_avx2_f16c() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx2") && is_x86_feature_detected!("f16c")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// [`lanes_run`] on the widest unit the CPU has (the same value on every CPU).
#[inline(always)]
fn lanes_run_best(x: &[u16], format: Half, avx2: bool) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `avx2` says the CPU has AVX2 and F16C.
        return unsafe { lanes_run_avx2(x, format) };
    }
    let _ = avx2;
    lanes_run(x, format)
}

/// The `f32` sum of at most `SUM_BLOCK` 16-bit values: the sums of its runs of
/// `RUN` ([`lanes_run`]) added pairwise.
#[inline(always)]
fn runs_sum(b: &[u16], format: Half) -> f32 {
    let avx2 = has_avx2_f16c();
    if b.len() <= RUN {
        return lanes_run_best(b, format, avx2);
    }
    let mut runs = [0.0f32; SUM_BLOCK / RUN];
    let mut k = 0;
    for run in b.chunks(RUN) {
        runs[k] = lanes_run_best(run, format, avx2);
        k += 1;
    }
    pairwise(&runs[..k])
}

/// A 16-bit float format given as its raw bits, summed in `f32` (torch's
/// accumulation type for both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// bfloat16: the high half of an `f32`'s bits, widened by a shift.
    BF16,
    /// IEEE float16, widened by [`f16_to_f32`].
    F16,
}

/// `sum` of a large bfloat16 or float16 buffer (the raw `u16` bits) in `f32`,
/// blocked as `sum_float_blocked`: each block of `SUM_BLOCK` values is summed
/// by runs of `RUN` in `LANES` partial sums, widened exactly as they are read
/// (no buffer), the runs and then the blocks added pairwise, all in `f32`
/// (torch's accumulation type; pairwise error bound). The result does not
/// depend on the CPU's vector unit nor on the number of threads: the same
/// roundings in the same order everywhere.
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

/// The `f32` sum of one block of at most `SUM_BLOCK` 16-bit floats (see
/// [`sum_half_blocked`], [`runs_sum`]).
pub fn half_block_sum(b: &[u16], format: Half) -> f32 {
    runs_sum(b, format)
}

/// `sum` of an integer buffer in int64, wrapping on overflow (torch sums
/// integers in int64; numpy's `dtype=int64` reduction wraps the same way).
pub fn sum_int<I: Copy + Into<i64>>(x: &[I]) -> i64 {
    x.iter().fold(0i64, |acc, &v| acc.wrapping_add(v.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every float16 bit pattern widens to the value the `half` crate gives.
    #[test]
    fn f16_widening_is_exact_for_every_bit_pattern() {
        for h in 0..=u16::MAX {
            let want = half::f16::from_bits(h).to_f32();
            let got = f16_to_f32(h);
            if want.is_nan() {
                assert!(got.is_nan(), "{h:#06x}");
                assert_eq!(got.to_bits() >> 31, want.to_bits() >> 31, "{h:#06x} sign");
            } else {
                assert_eq!(got.to_bits(), want.to_bits(), "{h:#06x}");
            }
        }
    }

    fn bits(len: usize, mask: u16) -> Vec<u16> {
        let mut seed = 11u64;
        (0..len)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (seed >> 48) as u16 & mask
            })
            .collect()
    }

    /// A run's sum is its lanes' sums (in order from zero) combined as the tree, then the rest;
    /// the AVX2 loop gives the same bits as the portable one.
    #[test]
    fn runs_add_lanes_then_the_tree_then_the_remainder() {
        // finite values of both signs: bfloat16 below 2^64, float16 below 2^15
        for (format, mask, wide) in [
            (Half::BF16, 0xBFFF, bf16_to_f32 as fn(u16) -> f32),
            (Half::F16, 0xBBFF, f16_to_f32 as fn(u16) -> f32),
        ] {
            let bits = bits(RUN + 77, mask);
            for n in [0, 1, 31, 32, 33, 100, RUN] {
                let x = &bits[..n];
                let full = n - n % LANES;
                let mut lanes = [0.0f32; LANES];
                for (i, &h) in x[..full].iter().enumerate() {
                    lanes[lane_of(i % LANES, format)] += wide(h);
                }
                let want = x[full..].iter().fold(tree(lanes), |a, &h| a + wide(h));
                let got = lanes_run(x, format);
                assert_eq!(got.to_bits(), want.to_bits(), "{format:?} {n} values");
                if has_avx2_f16c() {
                    let fast = lanes_run_best(x, format, true);
                    assert_eq!(
                        fast.to_bits(),
                        want.to_bits(),
                        "{format:?} {n} values, AVX2"
                    );
                }
            }
            let sum = half_block_sum(&bits, format);
            let want = 0.0 + lanes_run(&bits[..RUN], format) + lanes_run(&bits[RUN..], format);
            assert_eq!(sum.to_bits(), want.to_bits());
        }
    }
}
