//! `cumsum` and `cumprod` along a dim of contiguous data.
//!
//! Note [Scan accumulation]: torch's CPU scans accumulate in `acc_type`: a
//! float32 scan in float64, each partial result rounded once to float32 (asked
//! of torch 2.15: its float32 `cumsum` and `cumprod` of 1M elements equal the
//! float64 scan rounded, element for element, where numpy's float32 scan drifts
//! from it); float64 in float64; int64 in int64, wrapping on overflow. The
//! array is read as `(outer, n, inner)` around the dim (Note [Select layout]);
//! each row (each `outer` block when `inner > 1`) is scanned in order, and
//! blocks of rows go to the pool when large.

use super::parallel::for_row_blocks;
use super::Arith;

/// Element types of the scans, with their accumulation type.
pub trait Scan: Copy + Send + Sync {
    type Acc: Arith + Send + Sync;
    fn widen(self) -> Self::Acc;
    fn narrow(a: Self::Acc) -> Self;
}

impl Scan for f32 {
    type Acc = f64;
    #[inline(always)]
    fn widen(self) -> f64 {
        f64::from(self)
    }
    #[inline(always)]
    fn narrow(a: f64) -> f32 {
        a as f32
    }
}

impl Scan for f64 {
    type Acc = f64;
    #[inline(always)]
    fn widen(self) -> f64 {
        self
    }
    #[inline(always)]
    fn narrow(a: f64) -> f64 {
        a
    }
}

impl Scan for i64 {
    type Acc = i64;
    #[inline(always)]
    fn widen(self) -> i64 {
        self
    }
    #[inline(always)]
    fn narrow(a: i64) -> i64 {
        a
    }
}

/// The cumulative sum (`prod=false`) or product of the `(outer, n, inner)`
/// array `x` along its middle dim into `out` (same length), accumulated as
/// Note [Scan accumulation] says.
pub fn scan<T: Scan>(x: &[T], n: usize, inner: usize, prod: bool, out: &mut [T]) {
    let row = n * inner;
    if row == 0 || x.is_empty() {
        return;
    }
    let step = move |a: T::Acc, v: T| if prod { a.mul(v.widen()) } else { a.add(v.widen()) };
    let start = if prod { T::Acc::ONE } else { T::Acc::ZERO };
    for_row_blocks(x, row, out, row, |_, xs, os| {
        let mut acc = vec![start; inner];
        for (xr, or) in xs.chunks_exact(row).zip(os.chunks_exact_mut(row)) {
            if inner == 1 {
                let mut a = start;
                for (o, &v) in or.iter_mut().zip(xr) {
                    a = step(a, v);
                    *o = T::narrow(a);
                }
                continue;
            }
            acc.fill(start);
            for (xl, ol) in xr.chunks_exact(inner).zip(or.chunks_exact_mut(inner)) {
                for ((a, o), &v) in acc.iter_mut().zip(ol.iter_mut()).zip(xl) {
                    *a = step(*a, v);
                    *o = T::narrow(*a);
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float32_scans_accumulate_in_float64() {
        let x = [1.0e8f32, 1.0, 1.0, 1.0, -1.0e8];
        let mut out = [0.0f32; 5];
        scan(&x, 5, 1, false, &mut out);
        // float32 accumulation would lose every 1.0 and end at 0.0.
        assert_eq!(out[4], 3.0);
        let y = [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0];
        let mut o = [0.0f64; 6];
        scan(&y, 2, 3, true, &mut o); // (outer 1, n 2, inner 3): along the first dim
        assert_eq!(o, [1.0, 2.0, 3.0, 4.0, 10.0, 18.0]);
        let z = [i64::MAX, 1];
        let mut oz = [0i64; 2];
        scan(&z, 2, 1, false, &mut oz);
        assert_eq!(oz, [i64::MAX, i64::MIN]);
    }
}
