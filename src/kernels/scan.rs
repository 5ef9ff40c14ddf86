//! Cumulative sums and products (`cumsum`, `cumprod`) of float data.
//!
//! Note [Scan accumulation]: torch's CPU scan kernels accumulate `float` and
//! `double` data in `double` (its `acc_type` on CPU) and store each output
//! rounded to the element type: a float32 `cumsum` is the float64 running sum
//! rounded element by element, not numpy's float32 running sum (which drifts
//! from it after a few thousand elements). These kernels do the same, along
//! one dim of C-contiguous data seen as `(outer, n, inner)`: the running
//! values of one `inner` row are kept in a buffer, so the loop over `inner`
//! vectorises; the `outer` blocks are independent and go to the pool.

use super::parallel::for_row_blocks;

/// An element type whose scans accumulate in `f64`.
pub trait ScanElem: Copy + Send + Sync {
    fn wide(self) -> f64;
    fn narrow(v: f64) -> Self;
}

impl ScanElem for f32 {
    #[inline(always)]
    fn wide(self) -> f64 {
        f64::from(self)
    }
    #[inline(always)]
    fn narrow(v: f64) -> Self {
        v as f32 // nearest, ties to even
    }
}

impl ScanElem for f64 {
    #[inline(always)]
    fn wide(self) -> f64 {
        self
    }
    #[inline(always)]
    fn narrow(v: f64) -> Self {
        v
    }
}

/// The running sum (`product` false) or product of `x`, `(outer, n, inner)` in
/// C order, along its middle axis into `out` (same layout). See Note [Scan accumulation].
pub fn scan<T: ScanElem>(x: &[T], n: usize, inner: usize, product: bool, out: &mut [T]) {
    let block = n * inner;
    if block == 0 {
        return;
    }
    let init = if product { 1.0 } else { 0.0 };
    if inner == 1 {
        // Along the last dim: one running value per row.
        for_row_blocks(x, block, out, block, |_, xs, os| {
            for (xb, ob) in xs.chunks_exact(block).zip(os.chunks_exact_mut(block)) {
                let mut a = init;
                for (&v, o) in xb.iter().zip(ob.iter_mut()) {
                    a = if product { a * v.wide() } else { a + v.wide() };
                    *o = T::narrow(a);
                }
            }
        });
        return;
    }
    for_row_blocks(x, block, out, block, |_, xs, os| {
        let mut acc = vec![0.0f64; inner];
        for (xb, ob) in xs.chunks_exact(block).zip(os.chunks_exact_mut(block)) {
            acc.fill(init);
            for (xr, or) in xb.chunks_exact(inner).zip(ob.chunks_exact_mut(inner)) {
                if product {
                    for ((a, &v), o) in acc.iter_mut().zip(xr).zip(or.iter_mut()) {
                        *a *= v.wide();
                        *o = T::narrow(*a);
                    }
                } else {
                    for ((a, &v), o) in acc.iter_mut().zip(xr).zip(or.iter_mut()) {
                        *a += v.wide();
                        *o = T::narrow(*a);
                    }
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::scan;

    #[test]
    fn cumsum_of_float32_accumulates_in_float64_along_each_axis() {
        // 1e8 + 1 + 1 ...: a float32 running sum would lose every 1.
        let x = [1e8f32, 1.0, 1.0, 1.0];
        let mut out = [0.0f32; 4];
        scan(&x, 4, 1, false, &mut out);
        assert_eq!(
            out,
            [
                1e8,
                (1e8f64 + 1.0) as f32,
                (1e8f64 + 2.0) as f32,
                (1e8f64 + 3.0) as f32
            ]
        );
        // (outer 1, n 2, inner 2): down the columns
        let y = [1.0f64, 2.0, 3.0, 4.0];
        let mut o = [0.0f64; 4];
        scan(&y, 2, 2, false, &mut o);
        assert_eq!(o, [1.0, 2.0, 4.0, 6.0]);
        scan(&y, 2, 2, true, &mut o);
        assert_eq!(o, [1.0, 2.0, 3.0, 8.0]);
        // (outer 2, n 2, inner 1): each block restarts
        scan(&y, 2, 1, false, &mut o);
        assert_eq!(o, [1.0, 3.0, 3.0, 7.0]);
    }

    #[test]
    fn empty_scans_write_nothing() {
        let mut out: [f32; 0] = [];
        scan(&[], 0, 3, false, &mut out);
        scan(&[], 3, 0, true, &mut out);
    }
}
