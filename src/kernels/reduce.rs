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
    if n < 8 {
        let mut res = T::ZERO;
        for &v in x {
            res = res.add(v);
        }
        return res;
    }
    if n <= BLOCK {
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
        return res;
    }
    let half = n / 2;
    let half = half - half % 8;
    pairwise(&x[..half]).add(pairwise(&x[half..]))
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

/// `sum` of a large bfloat16 buffer (the raw `u16` bits) in `f32`, blocked as
/// `sum_float_blocked`: each run of `BLOCK` values is widened exactly (a bfloat16 is
/// the high half of an `f32`'s bits) into a buffer on the stack and summed with
/// numpy's 8-lane loop, and the run sums are added pairwise, all in `f32`, torch's
/// accumulation type (pairwise error bound; no heap buffer per block).
pub fn sum_bf16_blocked(bits: &[u16]) -> f32 {
    let block_sum = |b: &[u16]| -> f32 {
        let mut runs = Vec::with_capacity(b.len().div_ceil(BLOCK));
        let mut wide = [0.0f32; BLOCK];
        for run in b.chunks(BLOCK) {
            for (w, &h) in wide.iter_mut().zip(run) {
                *w = f32::from_bits((h as u32) << 16);
            }
            runs.push(pairwise(&wide[..run.len()]));
        }
        pairwise(&runs)
    };
    let partial = map_blocks(bits, SUM_BLOCK, block_sum);
    0.0f32 + pairwise(&partial)
}

/// `sum` of an integer buffer in int64, wrapping on overflow (torch sums
/// integers in int64; numpy's `dtype=int64` reduction wraps the same way).
pub fn sum_int<I: Copy + Into<i64>>(x: &[I]) -> i64 {
    x.iter().fold(0i64, |acc, &v| acc.wrapping_add(v.into()))
}
