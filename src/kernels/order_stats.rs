//! `sort` (not stable), `kthvalue` and `mode` along a dim as torch's CPU
//! kernels compute them, equal values included (Note [Unstable orders]).
//!
//! Each line along the dim becomes `(value, position)` pairs, then:
//! - `sort`: `std::sort` by value, nan the largest value (`descending`: the
//!   reverse), the order of torch's `sort(stable=False)`;
//! - `kthvalue`: torch's own quickselect (`quick_select_template`: a median of
//!   three moved to the front, a Hoare partition, nan the largest value), the
//!   pair at `k - 1`;
//! - `mode`: `std::sort` by a plain `<` (under which a nan equals everything),
//!   then the first run of equal values longer than every run before it, and
//!   the last pair of that run.
//!
//! Layout: a C-contiguous array read as `(outer, n, inner)` around its dim of
//! `n` elements (Note [Select layout]); the results `(outer, m, inner)` with
//! `m` = `n` for `sort`, 1 for the others.

use super::parallel::for_row_blocks;
use super::std_order::sort;
use super::topk::TopkElem;

/// torch's `sort` comparators: `a` goes before `b`.
#[inline(always)]
fn sorted_before<T: TopkElem>(a: T, b: T, descending: bool) -> bool {
    if descending {
        (a.nan() && !b.nan()) || a > b
    } else {
        (!a.nan() && b.nan()) || a < b
    }
}

/// The line `pairs` sorted as torch's `sort(stable=False)`.
pub fn sort_line<T: TopkElem>(pairs: &mut [(T, i64)], descending: bool) {
    sort(pairs, &|a: &(T, i64), b: &(T, i64)| {
        sorted_before(a.0, b.0, descending)
    });
}

/// torch's `sort(stable=False)` of each line of `x` along its middle dim into
/// `vals`/`idx` (both `(outer, n, inner)`). 32-bit types sort packed `(key,
/// position)` words compared by key (`TopkElem::key32`): the same compares as
/// on the pairs, so the same order, on half the bytes.
pub fn sort_lines<T: TopkElem>(
    x: &[T],
    n: usize,
    inner: usize,
    descending: bool,
    vals: &mut [T],
    idx: &mut [i64],
) {
    if n == 0 || x.is_empty() {
        return;
    }
    if !T::KEYED || n > u32::MAX as usize {
        let Some(&first) = x.first() else {
            return;
        };
        let mut pairs = vec![(first, 0i64); vals.len()];
        for_lines(x, n, inner, n, &mut pairs, |line, out| {
            sort_line(line, descending);
            out.copy_from_slice(line);
        });
        for ((v, i), (pv, pi)) in vals.iter_mut().zip(idx.iter_mut()).zip(pairs) {
            *v = pv;
            *i = pi;
        }
        return;
    }
    let flip = if descending { u32::MAX } else { 0 };
    let by_key = |a: &u64, b: &u64| (a >> 32) < (b >> 32);
    let sort_row = |row: &mut dyn Iterator<Item = T>, words: &mut Vec<u64>| {
        words.clear();
        words.extend(
            row.zip(0u64..)
                .map(|(v, i)| u64::from(v.key32() ^ flip) << 32 | i),
        );
        sort(words, &by_key);
    };
    if inner == 1 {
        let mut pos = vec![0i64; idx.len()];
        for_row_blocks(x, n, &mut pos, n, |_, xs, ps| {
            let mut words = Vec::with_capacity(n);
            for (row, p) in xs.chunks_exact(n).zip(ps.chunks_exact_mut(n)) {
                sort_row(&mut row.iter().copied(), &mut words);
                for (o, w) in p.iter_mut().zip(&words) {
                    *o = (w & 0xFFFF_FFFF) as i64;
                }
            }
        });
        for (r, (vr, pr)) in vals
            .chunks_exact_mut(n)
            .zip(pos.chunks_exact(n))
            .enumerate()
        {
            let row = &x[r * n..(r + 1) * n];
            for (v, &p) in vr.iter_mut().zip(pr) {
                *v = row[p as usize];
            }
        }
        idx.copy_from_slice(&pos);
        return;
    }
    let outer = x.len() / (n * inner);
    let mut words = Vec::with_capacity(n);
    for o in 0..outer {
        for j in 0..inner {
            let base = o * n * inner + j;
            sort_row(&mut (0..n).map(|i| x[base + i * inner]), &mut words);
            for (t, w) in words.iter().enumerate() {
                let p = (w & 0xFFFF_FFFF) as usize;
                vals[base + t * inner] = x[base + p * inner];
                idx[base + t * inner] = p as i64;
            }
        }
    }
}

/// The stable ascending order of `x` (positions): an LSD radix sort of each
/// value's offset from the smallest, a byte a pass and only as many passes as
/// the range of the values needs, the `(key, position)` pairs moved as a whole.
/// It is the order of torch's radix sort of 1-D integer data (stable).
pub fn radix_order<T: Copy + Into<i64>>(x: &[T]) -> Vec<i64> {
    let Some(lo) = x.iter().map(|&v| v.into()).min() else {
        return Vec::new();
    };
    let hi = x.iter().map(|&v| v.into()).max().unwrap_or(lo);
    let range = (hi as u64).wrapping_sub(lo as u64);
    let bits = u64::BITS - range.leading_zeros();
    let mut cur: Vec<(u64, i64)> = x
        .iter()
        .zip(0i64..)
        .map(|(&v, i)| ((v.into() as u64).wrapping_sub(lo as u64), i))
        .collect();
    let mut next = cur.clone();
    for shift in (0..bits).step_by(8) {
        let mut counts = [0usize; 257];
        for &(k, _) in &cur {
            counts[((k >> shift) & 0xFF) as usize + 1] += 1;
        }
        for b in 0..256 {
            counts[b + 1] += counts[b];
        }
        for &p in &cur {
            let b = ((p.0 >> shift) & 0xFF) as usize;
            next[counts[b]] = p;
            counts[b] += 1;
        }
        std::mem::swap(&mut cur, &mut next);
    }
    cur.into_iter().map(|(_, i)| i).collect()
}

/// torch's quickselect (`quick_select_template`) of the pair at `k` by value,
/// nan the largest.
pub fn kth_line<T: TopkElem>(arr: &mut [(T, i64)], k: usize) {
    let gt = |x: T, y: T| (x.nan() && !y.nan()) || x > y;
    if arr.is_empty() {
        return;
    }
    let (mut lo, mut hi) = (0usize, arr.len() - 1);
    loop {
        if hi <= lo {
            return;
        }
        if hi == lo + 1 {
            if gt(arr[lo].0, arr[hi].0) {
                arr.swap(lo, hi);
            }
            return;
        }
        let mid = lo + (hi - lo) / 2;
        arr.swap(mid, lo + 1);
        if gt(arr[lo + 1].0, arr[hi].0) {
            arr.swap(lo + 1, hi);
        }
        if gt(arr[lo].0, arr[hi].0) {
            arr.swap(lo, hi);
        }
        if gt(arr[lo + 1].0, arr[lo].0) {
            arr.swap(lo + 1, lo);
        }
        let (mut i, mut j) = (lo + 1, hi);
        let piv = arr[lo].0;
        loop {
            i += 1;
            while gt(piv, arr[i].0) {
                i += 1;
            }
            j -= 1;
            while gt(arr[j].0, piv) {
                j -= 1;
            }
            if j < i {
                break;
            }
            arr.swap(i, j);
        }
        arr.swap(lo, j);
        if j <= k {
            lo = i;
        }
        if j >= k {
            hi = j - 1;
        }
    }
}

/// torch's `mode` of a line: `(value, position)`.
pub fn mode_line<T: TopkElem>(pairs: &mut [(T, i64)]) -> (T, i64) {
    if T::KEYED && pairs.len() <= u32::MAX as usize && !pairs.iter().any(|p| p.0.nan()) {
        return mode_keyed(pairs);
    }
    sort(pairs, &|a: &(T, i64), b: &(T, i64)| a.0 < b.0);
    let n = pairs.len();
    let (mut best, mut best_freq, mut freq) = (pairs[0], 0usize, 0usize);
    for i in 0..n {
        freq += 1;
        // `!=` as torch's: a nan ends its run.
        #[allow(clippy::float_cmp)]
        let ends = i == n - 1 || pairs[i].0 != pairs[i + 1].0;
        if ends {
            if freq > best_freq {
                best = pairs[i];
                best_freq = freq;
            }
            freq = 0;
        }
    }
    best
}

/// `mode_line` of a line of 32-bit values without nan, on packed `(key,
/// position)` words: there `<` is a strict order, and compares as the keys
/// do, so the sort makes the same moves (half the bytes) and the runs of equal
/// keys are the runs of equal values.
fn mode_keyed<T: TopkElem>(pairs: &[(T, i64)]) -> (T, i64) {
    let mut words: Vec<u64> = pairs
        .iter()
        .zip(0u64..)
        .map(|(p, i)| u64::from(p.0.key32()) << 32 | i)
        .collect();
    sort(&mut words, &|a: &u64, b: &u64| (a >> 32) < (b >> 32));
    let n = words.len();
    let (mut best, mut best_freq, mut freq) = (words[0], 0usize, 0usize);
    for i in 0..n {
        freq += 1;
        if i == n - 1 || words[i] >> 32 != words[i + 1] >> 32 {
            if freq > best_freq {
                best = words[i];
                best_freq = freq;
            }
            freq = 0;
        }
    }
    pairs[(best & 0xFFFF_FFFF) as usize]
}

/// Calls `f(line, out)` for each line of `x` along its middle dim (`line`: its
/// `(value, position)` pairs; `out`: the line's `m` result pairs), on the pool
/// for many long rows; `out` of `(outer, m, inner)`.
pub fn for_lines<T, F>(x: &[T], n: usize, inner: usize, m: usize, out: &mut [(T, i64)], f: F)
where
    T: TopkElem,
    F: Fn(&mut Vec<(T, i64)>, &mut [(T, i64)]) + Sync,
{
    if n == 0 || x.is_empty() {
        return;
    }
    if inner == 1 {
        for_row_blocks(x, n, out, m, |_, xs, os| {
            let mut line = Vec::with_capacity(n);
            for (row, o) in xs.chunks_exact(n).zip(os.chunks_exact_mut(m)) {
                line.clear();
                line.extend(row.iter().copied().zip(0..));
                f(&mut line, o);
            }
        });
        return;
    }
    let outer = x.len() / (n * inner);
    let mut line = Vec::with_capacity(n);
    let mut res = vec![(x[0], 0i64); m];
    for o in 0..outer {
        for j in 0..inner {
            let base = o * n * inner + j;
            line.clear();
            line.extend((0..n).map(|i| (x[base + i * inner], i as i64)));
            f(&mut line, &mut res);
            for (t, &r) in res.iter().enumerate() {
                out[(o * m + t) * inner + j] = r;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(v: &[f64]) -> Vec<(f64, i64)> {
        v.iter().copied().zip(0..).collect()
    }

    #[test]
    fn torch_answers_with_ties_and_nan() {
        // torch 2.15: mode([nan, nan, 1, 1]) -> (1, 3); mode([nan, 1, nan, 2]) -> (nan, 0);
        // mode([2, nan, 1, nan, nan]) -> (1, 2); mode([1, 1, 2, 2]) -> (1, 1).
        let nan = f64::NAN;
        assert_eq!(mode_line(&mut line(&[nan, nan, 1.0, 1.0])), (1.0, 3));
        let (v, i) = mode_line(&mut line(&[nan, 1.0, nan, 2.0]));
        assert!(v.is_nan() && i == 0);
        assert_eq!(mode_line(&mut line(&[2.0, nan, 1.0, nan, nan])), (1.0, 2));
        assert_eq!(mode_line(&mut line(&[1.0, 1.0, 2.0, 2.0])), (1.0, 1));
    }

    #[test]
    fn keyed_mode_is_the_pairs_mode() {
        for seed in 0..20u64 {
            let v: Vec<f32> = (0..300u64)
                .map(|i| match (i * 7919 + seed * 104_729) % 23 {
                    0 => -0.0,
                    r => (r % 9) as f32 - 4.0,
                })
                .collect();
            let pairs: Vec<(f32, i64)> = v.iter().copied().zip(0..).collect();
            let keyed = mode_keyed(&pairs);
            let mut plain: Vec<(f32, i64)> = v.iter().copied().zip(0..).collect();
            sort(&mut plain, &|a: &(f32, i64), b: &(f32, i64)| a.0 < b.0);
            // the pairs' run scan, as mode_line's
            let (mut best, mut best_freq, mut freq) = (plain[0], 0, 0);
            for i in 0..plain.len() {
                freq += 1;
                if i == plain.len() - 1 || plain[i].0 != plain[i + 1].0 {
                    if freq > best_freq {
                        (best, best_freq) = (plain[i], freq);
                    }
                    freq = 0;
                }
            }
            assert_eq!(keyed.1, best.1);
        }
    }

    #[test]
    fn kth_line_puts_the_kth_value_at_k() {
        let v: Vec<f64> = (0..200).map(|i| ((i * 7919) % 37) as f64).collect();
        let mut sorted = v.clone();
        sorted.sort_by(f64::total_cmp);
        for k in [0, 1, 5, 100, 199] {
            let mut l = line(&v);
            kth_line(&mut l, k);
            assert_eq!(l[k].0, sorted[k]);
            assert_eq!(v[l[k].1 as usize], sorted[k]);
        }
    }

    #[test]
    fn keyed_sort_is_the_pairs_sort() {
        let nan = f32::NAN;
        let x: Vec<f32> = (0..3000)
            .map(|i| match i % 17 {
                0 => nan,
                1 => -0.0,
                2 => 0.0,
                _ => ((i * 7919) % 23) as f32 - 11.0,
            })
            .collect();
        for (n, inner) in [(3000, 1), (1000, 3), (30, 1)] {
            for descending in [false, true] {
                let (mut v, mut i) = (vec![0.0f32; 3000], vec![0i64; 3000]);
                sort_lines(&x, n, inner, descending, &mut v, &mut i);
                let mut pairs = vec![(0.0f32, 0i64); 3000];
                for_lines(&x, n, inner, n, &mut pairs, |line, out| {
                    sort_line(line, descending);
                    out.copy_from_slice(line);
                });
                assert_eq!(i, pairs.iter().map(|p| p.1).collect::<Vec<_>>());
                let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
                assert_eq!(
                    bits(&v),
                    bits(&pairs.iter().map(|p| p.0).collect::<Vec<_>>())
                );
            }
        }
    }

    #[test]
    fn radix_order_is_the_stable_order() {
        let x: Vec<i64> = (0..5000).map(|i| ((i * 7919) % 613) as i64 - 300).collect();
        let mut want: Vec<i64> = (0..5000).collect();
        want.sort_by_key(|&i| x[i as usize]);
        assert_eq!(radix_order(&x), want);
        let wide = [i64::MAX, i64::MIN, 0, -1, i64::MIN, 5];
        assert_eq!(radix_order(&wide), [1, 4, 3, 2, 5, 0]);
        assert!(radix_order::<i32>(&[]).is_empty());
    }

    #[test]
    fn sort_line_orders_nan_last_ascending_and_first_descending() {
        let nan = f64::NAN;
        let mut l = line(&[3.0, nan, -1.0, 2.0]);
        sort_line(&mut l, false);
        assert_eq!(l.iter().map(|p| p.1).collect::<Vec<_>>(), [2, 3, 0, 1]);
        sort_line(&mut l, true);
        assert_eq!(l.iter().map(|p| p.1).collect::<Vec<_>>(), [1, 0, 3, 2]);
    }
}
