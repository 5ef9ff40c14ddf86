//! Selection and indexing along a dim: `topk` as a selection, `gather`,
//! `scatter` and `scatter_add` of contiguous data with int64 indices.
//!
//! Note [Select layout]: a C-contiguous array is read as `(outer, n, inner)`
//! around its dim of `n` elements; the index (and the result) of `gather` and
//! `scatter_add` as `(outer, m, inner)` with the same `outer` and `inner` (the
//! fast path takes only those shapes; others stay on the numpy kernel).
//!
//! Note [topk order]: the result is the first `k` of the stable sort the numpy
//! kernel makes — by value, `-0.0` equal to `0.0` and every nan the largest
//! value, `largest` descending; equal values in position order either way — so
//! it is bit-identical to it, ties included. Each element gets a `u64` rank
//! (the value's bits made order-preserving, inverted for `largest`), and
//! `(rank, position)` is a total order: one pass keeps the candidates that beat
//! the current k-th best (a single integer compare for most elements), pruning
//! the buffer with `select_nth_unstable` whenever it fills, then sorts the k.

use super::parallel::{for_row_blocks, map_blocks, GRAIN};
use parking_lot::Mutex;

/// Element types ranked for `topk` (Note [topk order]).
pub trait Ranked: Copy + PartialOrd + Send + Sync {
    /// Ascending order-preserving key: smaller key, smaller value.
    fn key(self) -> u64;
}

impl Ranked for f32 {
    #[inline(always)]
    fn key(self) -> u64 {
        let v = self + 0.0; // -0.0 + 0.0 is 0.0
        if v.is_nan() {
            return u64::MAX;
        }
        let b = v.to_bits();
        u64::from(if b >> 31 == 1 { !b } else { b | 1 << 31 })
    }
}

impl Ranked for f64 {
    #[inline(always)]
    fn key(self) -> u64 {
        let v = self + 0.0;
        if v.is_nan() {
            return u64::MAX;
        }
        let b = v.to_bits();
        if b >> 63 == 1 {
            !b
        } else {
            b | 1 << 63
        }
    }
}

impl Ranked for i64 {
    #[inline(always)]
    fn key(self) -> u64 {
        (self as u64) ^ (1 << 63)
    }
}

impl Ranked for i32 {
    #[inline(always)]
    fn key(self) -> u64 {
        u64::from((self as u32) ^ (1 << 31))
    }
}

/// Keeps the best `k` of `cands` (unordered), `k >= 1`.
fn prune(cands: &mut Vec<(u64, usize)>, k: usize) {
    if cands.len() > k {
        cands.select_nth_unstable(k - 1);
        cands.truncate(k);
    }
}

/// Keeps the best `k` `(rank, position)` of `row` (ranked by `rank`, offered
/// in position order from `start`), unordered (Note [topk order]); `k >= 1`.
/// Once the buffer has been pruned, each run of `RUN` elements is first
/// tested as a whole, by value (vectorised): a run with no element at least as
/// good as the k-th best so far is skipped without ranking its elements.
// `!(v < t)` on purpose: true for a nan on either side, and a plain compare that vectorises.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
fn best_of<T: Ranked, R: Fn(T) -> u64>(
    row: &[T],
    start: usize,
    k: usize,
    largest: bool,
    rank: R,
) -> Vec<(u64, usize)> {
    const RUN: usize = 64;
    let n = row.len();
    let cap = (2 * k).max(k + 64);
    let mut cands: Vec<(u64, usize)> = Vec::with_capacity(cap.min(n) + 1);
    let mut thr = u64::MAX;
    let mut thr_val = row[0];
    let mut full = false;
    for (r0, run) in row.chunks(RUN).enumerate() {
        if full {
            // nan compares false: a nan k-th best (or a nan here) keeps the run.
            let keep = if largest {
                run.iter().fold(false, |a, &v| a | !(v < thr_val))
            } else {
                run.iter().fold(false, |a, &v| a | !(v > thr_val))
            };
            if !keep {
                continue;
            }
        }
        for (j, &v) in run.iter().enumerate() {
            let r = rank(v);
            // A later position with the k-th best's rank loses the tie to it.
            if full && r >= thr {
                continue;
            }
            cands.push((r, start + r0 * RUN + j));
            if cands.len() == cap {
                prune(&mut cands, k);
                let worst = cands.iter().copied().max().unwrap_or((u64::MAX, start));
                (thr, thr_val) = (worst.0, row[worst.1 - start]);
                full = true;
            }
        }
    }
    prune(&mut cands, k);
    cands
}

/// `topk` of the `(outer, n, inner)` array `x` (Note [Select layout]) along its
/// middle dim: `vals` and `idx` of shape `(outer, k, inner)`, in the order of
/// Note [topk order]. `k <= n`.
pub fn topk<T: Ranked>(
    x: &[T],
    n: usize,
    inner: usize,
    k: usize,
    largest: bool,
    vals: &mut [T],
    idx: &mut [i64],
) {
    if k == 0 || x.is_empty() {
        return;
    }
    let flip = if largest { u64::MAX } else { 0 };
    let rank = move |v: T| v.key() ^ flip;
    let outer = x.len() / (n * inner);
    let write = |o: usize, j: usize, best: &[(u64, usize)], vals: &mut [T], idx: &mut [i64]| {
        for (t, &(_, p)) in best.iter().enumerate() {
            let at = (o * k + t) * inner + j;
            vals[at] = x[(o * n + p) * inner + j];
            idx[at] = p as i64;
        }
    };
    if outer * inner == 1 && n >= 4 * GRAIN {
        // One long row: the best k of each block, then of their union.
        let parts = map_blocks(x, n.div_ceil(8).max(2 * GRAIN), |b| {
            let start = (b.as_ptr() as usize - x.as_ptr() as usize) / std::mem::size_of::<T>();
            best_of(b, start, k, largest, rank)
        });
        let mut best: Vec<(u64, usize)> = parts.into_iter().flatten().collect();
        prune(&mut best, k);
        best.sort_unstable();
        write(0, 0, &best, vals, idx);
        return;
    }
    if inner == 1 {
        // Rows split across the pool: each block of rows writes its own vals.
        let mut pairs: Vec<(T, i64)> = vec![(x[0], 0); outer * k];
        for_row_blocks(x, n, &mut pairs, k, |_, xs, out| {
            for (r, row) in xs.chunks_exact(n).enumerate() {
                let mut best = best_of(row, 0, k, largest, rank);
                best.sort_unstable();
                for (o, &(_, p)) in out[r * k..(r + 1) * k].iter_mut().zip(best.iter()) {
                    *o = (row[p], p as i64);
                }
            }
        });
        for ((v, i), (pv, pi)) in vals.iter_mut().zip(idx.iter_mut()).zip(pairs) {
            *v = pv;
            *i = pi;
        }
        return;
    }
    let mut row = Vec::with_capacity(n);
    for o in 0..outer {
        for j in 0..inner {
            let base = o * n * inner + j;
            row.clear();
            row.extend((0..n).map(|i| x[base + i * inner]));
            let mut best = best_of(&row, 0, k, largest, rank);
            best.sort_unstable();
            write(o, j, &best, vals, idx);
        }
    }
}

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

/// `scatter` along the middle dim into `out` (a new copy of `self`, `(outer, n,
/// inner)`): `out[o, idx[o, j, i], i] = combine(out[..], src[o, j, i])`,
/// `idx`/`src` of `(outer, m, inner)`, in the index's C order (the numpy
/// kernel's order: `np.add.at`/`np.multiply.at`, or fancy assignment where the
/// last write wins, so results are bit-identical). `Err(i)`: the first index
/// outside `0..n`, `out` then partly written (the caller drops it).
pub fn scatter<T: super::Arith + Send + Sync>(
    out: &mut [T],
    n: usize,
    idx: &[i64],
    src: Src<'_, T>,
    m: usize,
    inner: usize,
    combine: Combine,
) -> Result<(), i64> {
    match combine {
        Combine::Assign => scatter_with(out, n, idx, src, m, inner, |_, s| s),
        Combine::Add => scatter_with(out, n, idx, src, m, inner, |o, s| o.add(s)),
        Combine::Multiply => scatter_with(out, n, idx, src, m, inner, |o, s| o.mul(s)),
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
    scatter(out, n, idx, Src::Tensor(src), m, inner, Combine::Add)
}

#[inline(always)]
fn scatter_with<T: Copy + Send + Sync>(
    out: &mut [T],
    n: usize,
    idx: &[i64],
    src: Src<'_, T>,
    m: usize,
    inner: usize,
    f: impl Fn(T, T) -> T + Sync,
) -> Result<(), i64> {
    let row = m * inner;
    if row == 0 || idx.is_empty() {
        return Ok(());
    }
    if n == 0 {
        return Err(idx[0]);
    }
    let bad = FirstBad::new();
    for_row_blocks(idx, row, out, n * inner, |first, is, os| {
        for (r, (ir, or)) in is
            .chunks_exact(row)
            .zip(os.chunks_exact_mut(n * inner))
            .enumerate()
        {
            // Each run of `inner` index elements targets the columns 0..inner.
            for (l, il) in ir.chunks_exact(inner).enumerate() {
                for (t, &i) in il.iter().enumerate() {
                    let u = i as usize; // a negative index wraps past n
                    if u >= n {
                        bad.record((first + r) * row, ir, n);
                        return;
                    }
                    let s = match src {
                        Src::Tensor(sv) => sv[(first + r) * row + l * inner + t],
                        Src::Value(v) => v,
                    };
                    let o = &mut or[u * inner + t];
                    *o = f(*o, s);
                }
            }
        }
    });
    bad.value().map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first k of the stable sort by (rank, position), the definition of Note [topk order].
    fn reference(x: &[f32], k: usize, largest: bool) -> Vec<usize> {
        let mut order: Vec<usize> = (0..x.len()).collect();
        let flip = if largest { u64::MAX } else { 0 };
        order.sort_by_key(|&i| (x[i].key() ^ flip, i));
        order.truncate(k);
        order
    }

    #[test]
    fn topk_keeps_ties_in_position_order_and_nan_largest() {
        let _serial = super::super::parallel::thread_count_guard();
        for n in [7usize, 1000, 300_000] {
            let x: Vec<f32> = (0..n)
                .map(|i| match i % 13 {
                    0 => f32::NAN,
                    1 => -0.0,
                    _ => ((i * 7919) % 101) as f32 - 50.0,
                })
                .collect();
            for k in [0, 1, 5, 100.min(n), n] {
                for largest in [true, false] {
                    let mut vals = vec![0.0f32; k];
                    let mut idx = vec![0i64; k];
                    topk(&x, n, 1, k, largest, &mut vals, &mut idx);
                    let want = reference(&x, k, largest);
                    let got: Vec<usize> = idx.iter().map(|&i| i as usize).collect();
                    assert_eq!(got, want, "n={n} k={k} largest={largest}");
                    for (v, &i) in vals.iter().zip(&want) {
                        assert_eq!(v.to_bits(), x[i].to_bits());
                    }
                }
            }
        }
    }

    #[test]
    fn keys_order_values_with_negative_zero_equal_and_every_nan_largest() {
        assert_eq!((-0.0f32).key(), 0.0f32.key());
        assert_eq!(f32::NAN.key(), (-f32::NAN).key());
        assert!(f32::INFINITY.key() < f32::NAN.key());
        assert!((-1.0f64).key() < (-0.5f64).key() && (-0.5f64).key() < 0.0f64.key());
        assert!(i64::MIN.key() < (-1i64).key() && (-1i64).key() < 0i64.key());
        assert!(i32::MIN.key() < 0i32.key() && 0i32.key() < i32::MAX.key());
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
