//! Indexing along a dim: `gather`, `scatter` and `scatter_add` of contiguous
//! data with int64 indices (`topk` is in `topk.rs`); `where`'s elementwise
//! selection.
//!
//! Note [Select layout]: a C-contiguous array is read as `(outer, n, inner)`
//! around its dim of `n` elements; the index (and the result) of `gather` and
//! `scatter_add` as `(outer, m, inner)` with the same `outer` and `inner` (the
//! fast path takes only those shapes; others stay on the numpy kernel).

use super::parallel::for_row_blocks;
use parking_lot::Mutex;

/// The first out-of-range index a block of rows met: `(its position, its value)`,
/// the lowest position over all blocks.
struct FirstBad(Mutex<Option<(usize, i64)>>);

impl FirstBad {
    fn new() -> Self {
        FirstBad(Mutex::new(None))
    }

    /// Records the first index of `ir` (at `base`) outside `0..n`.
    #[cold]
    fn record(&self, base: usize, ir: &[i64], n: usize) {
        if let Some(p) = ir.iter().position(|&i| i < 0 || i as usize >= n) {
            let mut slot = self.0.lock();
            if slot.is_none_or(|(q, _)| base + p < q) {
                *slot = Some((base + p, ir[p]));
            }
        }
    }

    fn value(self) -> Option<i64> {
        self.0.into_inner().map(|(_, i)| i)
    }
}

/// `gather` along the middle dim (Note [Select layout]): `out[o, j, i] =
/// x[o, idx[o, j, i], i]`, `x` of `(outer, n, inner)`, `idx`/`out` of
/// `(outer, m, inner)`. `Err(i)`: the first index (in the index's order)
/// outside `0..n`, `out` then partly written (the caller drops it).
pub fn gather<T: Copy + Send + Sync>(
    x: &[T],
    n: usize,
    idx: &[i64],
    m: usize,
    inner: usize,
    out: &mut [T],
) -> Result<(), i64> {
    let row = m * inner;
    if row == 0 || idx.is_empty() {
        return Ok(());
    }
    if n == 0 {
        return Err(idx[0]);
    }
    let bad = FirstBad::new();
    for_row_blocks(idx, row, out, row, |first, is, os| {
        for (r, (ir, or)) in is
            .chunks_exact(row)
            .zip(os.chunks_exact_mut(row))
            .enumerate()
        {
            let xr = &x[(first + r) * n * inner..(first + r + 1) * n * inner];
            let ok = if inner == 1 {
                let mut ok = true;
                for (o, &i) in or.iter_mut().zip(ir) {
                    let u = i as usize; // a negative index wraps past n
                    ok &= u < n;
                    *o = xr[u.min(n - 1)];
                }
                ok
            } else {
                let mut ok = true;
                for (ol, il) in or.chunks_exact_mut(inner).zip(ir.chunks_exact(inner)) {
                    for (t, (o, &i)) in ol.iter_mut().zip(il).enumerate() {
                        let u = i as usize;
                        ok &= u < n;
                        *o = xr[u.min(n - 1) * inner + t];
                    }
                }
                ok
            };
            if !ok {
                bad.record((first + r) * row, ir, n);
                return;
            }
        }
    });
    bad.value().map_or(Ok(()), Err)
}

/// What `scatter` writes: the elements of a `src` of the index's shape, or one
/// value everywhere (`scatter.value`).
#[derive(Clone, Copy, Debug)]
pub enum Src<'a, T> {
    Tensor(&'a [T]),
    Value(T),
}

/// How `scatter` combines the written element with the one there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// `scatter`: the element is replaced (the last write in the index's order wins).
    Assign,
    /// `scatter_add`, `scatter(reduce="add")`.
    Add,
    /// `scatter(reduce="multiply")`.
    Multiply,
}

/// `scatter` along the middle dim into `out` (`(outer, n, inner)`):
/// `out[o, idx[o, j, i], i] = combine(out[..], src[o, j, i])`, `idx`/`src` of
/// `(outer, m, inner)`, in the index's C order (the numpy kernel's order:
/// `np.add.at`/`np.multiply.at`, or fancy assignment where the last write wins,
/// so results are bit-identical). With `base` (as long as `out`), `out` is first
/// made a copy of it, each block of rows copied and then scattered into by the
/// same task, so the copy runs on the pool too and the rows are still in cache
/// when they are written (`out` may then start uninitialised); without, `out`
/// already holds `self`. `Err(i)`: the first index outside `0..n`, `out` then
/// partly written (the caller drops it).
#[allow(clippy::too_many_arguments)]
pub fn scatter<T: super::Arith + Send + Sync>(
    out: &mut [T],
    base: Option<&[T]>,
    n: usize,
    idx: &[i64],
    src: Src<'_, T>,
    m: usize,
    inner: usize,
    combine: Combine,
) -> Result<(), i64> {
    if let Some(base) = base {
        assert_eq!(
            out.len(),
            base.len(),
            "scatter: base and out differ in length"
        );
    }
    match combine {
        Combine::Assign => scatter_with(out, base, n, idx, src, m, inner, |_, s| s),
        Combine::Add => scatter_with(out, base, n, idx, src, m, inner, |o, s| o.add(s)),
        Combine::Multiply => scatter_with(out, base, n, idx, src, m, inner, |o, s| o.mul(s)),
    }
}

/// `scatter_add` of a `src` tensor (see [`scatter`]).
pub fn scatter_add<T: super::Arith + Send + Sync>(
    out: &mut [T],
    n: usize,
    idx: &[i64],
    src: &[T],
    m: usize,
    inner: usize,
) -> Result<(), i64> {
    scatter(out, None, n, idx, Src::Tensor(src), m, inner, Combine::Add)
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn scatter_with<T: Copy + Send + Sync>(
    out: &mut [T],
    base: Option<&[T]>,
    n: usize,
    idx: &[i64],
    src: Src<'_, T>,
    m: usize,
    inner: usize,
    f: impl Fn(T, T) -> T + Sync,
) -> Result<(), i64> {
    let row = m * inner;
    if row == 0 || idx.is_empty() || n == 0 {
        if let Some(b) = base {
            out.copy_from_slice(b);
        }
        return if n == 0 && row != 0 && !idx.is_empty() {
            Err(idx[0])
        } else {
            Ok(())
        };
    }
    let bad = FirstBad::new();
    for_row_blocks(idx, row, out, n * inner, |first, is, os| {
        if let Some(b) = base {
            let start = first * n * inner;
            os.copy_from_slice(&b[start..start + os.len()]);
        }
        for (r, (ir, or)) in is
            .chunks_exact(row)
            .zip(os.chunks_exact_mut(n * inner))
            .enumerate()
        {
            // Each run of `inner` index elements targets the columns 0..inner.
            let ok = match src {
                Src::Tensor(sv) => {
                    let sr = &sv[(first + r) * row..(first + r + 1) * row];
                    scatter_row(or, n, ir, inner, |k| sr[k], &f)
                }
                Src::Value(v) => scatter_row(or, n, ir, inner, |_| v, &f),
            };
            if !ok {
                bad.record((first + r) * row, ir, n);
                return;
            }
        }
    });
    bad.value().map_or(Ok(()), Err)
}

/// One outer row of [`scatter_with`]: `src(k)` is the `k`-th source element of
/// the row; `false` at the first index outside `0..n` (the row then partly written).
#[inline(always)]
fn scatter_row<T: Copy>(
    or: &mut [T],
    n: usize,
    ir: &[i64],
    inner: usize,
    src: impl Fn(usize) -> T,
    f: &impl Fn(T, T) -> T,
) -> bool {
    for (l, il) in ir.chunks_exact(inner).enumerate() {
        for (t, &i) in il.iter().enumerate() {
            let u = i as usize; // a negative index wraps past n
            if u >= n {
                return false;
            }
            let o = &mut or[u * inner + t];
            *o = f(*o, src(l * inner + t));
        }
    }
    true
}

/// The bits of an element of `where` (an unsigned integer of its size): a select
/// by masks, which the compiler vectorises (a select of the loaded values was
/// compiled as a select of the two addresses followed by one load per element).
pub trait Bits: Copy + Send + Sync {
    /// All ones when `c`, else zero.
    fn mask(c: bool) -> Self;
    /// `(a & m) | (b & !m)`.
    fn blend(m: Self, a: Self, b: Self) -> Self;
}

macro_rules! bits {
    ($($t:ty),*) => {$(
        impl Bits for $t {
            #[inline(always)]
            fn mask(c: bool) -> Self {
                (c as $t).wrapping_neg()
            }
            #[inline(always)]
            fn blend(m: Self, a: Self, b: Self) -> Self {
                (a & m) | (b & !m)
            }
        }
    )*};
}
bits!(u8, u16, u32, u64);

/// `out[i] = if cond[i] { a[i] } else { b[i] }` for elements of any type given
/// as their bits, by chunks on the pool; one branchless select per element.
pub fn where_select<T: Bits>(cond: &[bool], a: &[T], b: &[T], out: &mut [T]) {
    super::parallel::for_chunks(out, |start, oc| {
        let end = start + oc.len();
        select_run(&cond[start..end], &a[start..end], &b[start..end], oc);
    });
}

#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512dq+avx512vl",
    "x86_64+avx2+fma"
))]
fn select_run<T: Bits>(cond: &[bool], a: &[T], b: &[T], out: &mut [T]) {
    for (((o, &c), &x), &y) in out.iter_mut().zip(cond).zip(a).zip(b) {
        *o = T::blend(T::mask(c), x, y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scatter_onto_a_base_is_a_copy_then_scatter_on_any_thread_count() {
        let _serial = crate::kernels::parallel::thread_count_guard();
        let (outer, n, m, inner) = (300, 257, 200, 2);
        let base: Vec<f32> = (0..outer * n * inner)
            .map(|i| (i % 1013) as f32 * 0.5)
            .collect();
        let idx: Vec<i64> = (0..outer * m * inner)
            .map(|i| ((i * 7919) % n) as i64)
            .collect();
        let src: Vec<f32> = (0..outer * m * inner)
            .map(|i| (i % 17) as f32 - 8.0)
            .collect();
        for combine in [Combine::Assign, Combine::Add, Combine::Multiply] {
            let mut want = base.clone();
            scatter(
                &mut want,
                None,
                n,
                &idx,
                Src::Tensor(&src),
                m,
                inner,
                combine,
            )
            .unwrap();
            for threads in [1, 2, 3] {
                crate::kernels::parallel::set_num_threads(threads);
                let mut got = vec![f32::NAN; base.len()];
                let r = scatter(
                    &mut got,
                    Some(&base),
                    n,
                    &idx,
                    Src::Tensor(&src),
                    m,
                    inner,
                    combine,
                );
                assert_eq!(r, Ok(()));
                assert!(got
                    .iter()
                    .zip(&want)
                    .all(|(a, b)| a.to_bits() == b.to_bits()));
            }
        }
        let mut got = vec![0.0f32; base.len()];
        let mut bad = idx.clone();
        bad[5000] = n as i64;
        let r = scatter(
            &mut got,
            Some(&base),
            n,
            &bad,
            Src::Value(1.0),
            m,
            inner,
            Combine::Assign,
        );
        assert_eq!(r, Err(n as i64));
        let r = scatter(
            &mut got,
            Some(&base),
            n,
            &[],
            Src::Value(1.0),
            0,
            inner,
            Combine::Add,
        );
        assert_eq!((r, got == base), (Ok(()), true));
    }

    #[test]
    fn where_takes_a_where_the_condition_holds() {
        let n = 100_003;
        let cond: Vec<bool> = (0..n).map(|i| i % 3 == 0 || i % 7 == 1).collect();
        let a: Vec<u32> = (0..n as u32).collect();
        let b: Vec<u32> = (0..n as u32).map(|i| !i).collect();
        let mut out = vec![0u32; n];
        where_select(&cond, &a, &b, &mut out);
        for i in 0..n {
            assert_eq!(out[i], if cond[i] { a[i] } else { b[i] });
        }
    }

    #[test]
    fn gather_and_scatter_add_name_the_first_bad_index() {
        let x = [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0];
        let mut out = [0.0; 6];
        assert_eq!(gather(&x, 3, &[2, 0, 1, 1, 1, 2], 3, 1, &mut out), Ok(()));
        assert_eq!(out, [3.0, 1.0, 2.0, 5.0, 5.0, 6.0]);
        assert_eq!(gather(&x, 3, &[0, 0, 1, 9, -1, 2], 3, 1, &mut out), Err(9));
        assert_eq!(
            gather(&x, 3, &[0, -4, 1, 9, -1, 2], 3, 1, &mut out),
            Err(-4)
        );
        let mut acc = x;
        assert_eq!(
            scatter_add(&mut acc, 3, &[0, 0, 2, 1, 1, 1], &[1.0; 6], 3, 1),
            Ok(())
        );
        assert_eq!(acc, [3.0, 2.0, 4.0, 4.0, 8.0, 6.0]);
        assert_eq!(
            scatter_add(&mut acc, 3, &[0, 3, 2, 1, 1, 1], &[1.0; 6], 3, 1),
            Err(3)
        );
        assert_eq!(gather(&x, 0, &[0], 1, 1, &mut out[..1]), Err(0));
    }
}
