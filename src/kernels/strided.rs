//! Reading a strided operand: a numpy view (an `expand`ed gradient with zero
//! strides, a transpose, a reversed slice) walked in C order, so an in-place
//! update `out op= other` takes `other` as it is instead of copying it first.
//!
//! The operand is a safe slice covering every element the view addresses
//! (`data`), the element index of the view's first element in it (`offset`),
//! and the view's sizes and element strides: every index is bounds-checked
//! by the slice, so a wrong stride is a panic in a test, never a wild read.

use super::elementwise::BinOp;
use super::Arith;

/// A strided view of `data`: element `(i0, .., ik)` is
/// `data[offset + i0 * strides[0] + .. + ik * strides[k]]`.
#[derive(Clone, Copy, Debug)]
pub struct Strided<'a, T> {
    pub data: &'a [T],
    pub offset: usize,
    pub dims: &'a [usize],
    pub strides: &'a [isize],
}

/// `out[i] = f(out[i], src[i])` with `i` walking `src` in C order (`out` is
/// C-contiguous with `src`'s element count).
///
/// # Panics
/// When `out.len()` is not the product of `src.dims`, or an index leaves `src.data`.
#[inline(always)]
fn zip_strided<T: Copy>(out: &mut [T], src: &Strided<'_, T>, f: impl Fn(T, T) -> T) {
    let n: usize = src.dims.iter().product();
    assert_eq!(out.len(), n, "strided operand of another element count");
    if n == 0 {
        return;
    }
    let Some((&inner, outer)) = src.dims.split_last() else {
        out[0] = f(out[0], src.data[src.offset]);
        return;
    };
    let step = src.strides[src.dims.len() - 1];
    let outer_strides = &src.strides[..outer.len()];
    assert!(
        outer.len() < 64,
        "strided operand of more than 64 dimensions"
    );
    // An odometer over the outer dimensions; `start` is the element index of
    // the current row's first element.
    let mut index = [0usize; 64];
    let mut start = src.offset as isize;
    for row in out.chunks_exact_mut(inner) {
        if step == 0 {
            let v = src.data[start as usize];
            for o in row.iter_mut() {
                *o = f(*o, v);
            }
        } else {
            let mut at = start;
            for o in row.iter_mut() {
                *o = f(*o, src.data[at as usize]);
                at += step;
            }
        }
        for d in (0..outer.len()).rev() {
            index[d] += 1;
            start += outer_strides[d];
            if index[d] < outer[d] {
                break;
            }
            start -= outer_strides[d] * outer[d] as isize;
            index[d] = 0;
        }
    }
}

/// `out = out op other` in place (add, sub, mul; wrapping for integers) with
/// `other` strided; `alpha` scales `other` first (rounded or wrapped in `T`,
/// as the Python kernel's `np.multiply` then `np.add`). `other` must not
/// alias `out`.
///
/// # Panics
/// On `BinOp::Div`, on `alpha` with `BinOp::Mul`, and as [`zip_strided`].
pub fn arith_inplace_strided<T: Arith>(
    op: BinOp,
    out: &mut [T],
    other: &Strided<'_, T>,
    alpha: Option<T>,
) {
    match (op, alpha) {
        (BinOp::Add, None) => zip_strided(out, other, T::add),
        (BinOp::Sub, None) => zip_strided(out, other, T::sub),
        (BinOp::Mul, None) => zip_strided(out, other, T::mul),
        (BinOp::Add, Some(a)) => zip_strided(out, other, |x, y| x.add(y.mul(a))),
        (BinOp::Sub, Some(a)) => zip_strided(out, other, |x, y| x.sub(y.mul(a))),
        (BinOp::Mul, Some(_)) | (BinOp::Div, _) => {
            panic!("arith_inplace_strided: add/sub (with alpha) or mul only")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The C-order reference: the index of each element, by the definition.
    fn reference<T: Arith>(op: BinOp, out: &[T], s: &Strided<'_, T>, alpha: Option<T>) -> Vec<T> {
        let mut idx = vec![0usize; s.dims.len()];
        let mut res = Vec::new();
        for &o in out {
            let at = s.offset as isize
                + idx
                    .iter()
                    .zip(s.strides)
                    .map(|(&i, &st)| i as isize * st)
                    .sum::<isize>();
            let y = s.data[at as usize];
            let y = alpha.map_or(y, |a| y.mul(a));
            res.push(match op {
                BinOp::Add => o.add(y),
                BinOp::Sub => o.sub(y),
                _ => o.mul(y),
            });
            for d in (0..idx.len()).rev() {
                idx[d] += 1;
                if idx[d] < s.dims[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
        res
    }

    fn check(dims: &[usize], strides: &[isize], offset: usize, data_len: usize) {
        let data: Vec<f64> = (0..data_len).map(|i| i as f64 * 0.37 - 1.1).collect();
        let n: usize = dims.iter().product();
        let s = Strided {
            data: &data,
            offset,
            dims,
            strides,
        };
        for (op, alpha) in [
            (BinOp::Add, None),
            (BinOp::Sub, None),
            (BinOp::Mul, None),
            (BinOp::Add, Some(-0.3)),
            (BinOp::Sub, Some(2.5)),
        ] {
            let start: Vec<f64> = (0..n).map(|i| i as f64 * 1.3 + 0.1).collect();
            let mut out = start.clone();
            arith_inplace_strided(op, &mut out, &s, alpha);
            let want = reference(op, &start, &s, alpha);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&out),
                bits(&want),
                "{dims:?} {strides:?} {op:?} {alpha:?}"
            );
        }
    }

    #[test]
    fn expanded_transposed_reversed() {
        check(&[3], &[0], 0, 1); // a scalar expanded to (3,)
        check(&[2, 3, 4], &[0, 0, 0], 0, 1); // to (2, 3, 4)
        check(&[4, 3], &[0, 1], 0, 3); // a row expanded
        check(&[3, 4], &[1, 0], 0, 3); // a column expanded
        check(&[3, 2], &[1, 3], 0, 6); // the transpose of a (2, 3)
        check(&[5], &[-1], 4, 5); // x[::-1]
        check(&[2, 3], &[-3, -1], 5, 6); // x[::-1, ::-1]
        check(&[2, 2, 2], &[1, -4, 2], 4, 8); // mixed signs
        check(&[], &[], 0, 1); // 0-d
    }

    #[test]
    fn integers_wrap() {
        let data = [i32::MAX];
        let s = Strided {
            data: &data,
            offset: 0,
            dims: &[3],
            strides: &[0],
        };
        let mut out = [1i32, 2, 3];
        arith_inplace_strided(BinOp::Add, &mut out, &s, None);
        assert_eq!(out, [i32::MIN, i32::MIN + 1, i32::MIN + 2]);
        arith_inplace_strided(BinOp::Sub, &mut out, &s, Some(2));
        assert_eq!(out[0], i32::MIN.wrapping_sub(i32::MAX.wrapping_mul(2)));
    }

    #[test]
    #[should_panic(expected = "another element count")]
    fn count_mismatch_panics() {
        let data = [1.0f32];
        let s = Strided {
            data: &data,
            offset: 0,
            dims: &[2],
            strides: &[0],
        };
        arith_inplace_strided(BinOp::Add, &mut [0.0f32; 3], &s, None);
    }
}
