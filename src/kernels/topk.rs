//! `topk` along a dim as torch's CPU kernel computes it.
//!
//! Note [topk order]: torch keeps the `(value, position)` pairs of a row and,
//! when `64 * k <= n`, runs `std::partial_sort` of the first `k`; otherwise
//! `std::nth_element` at `k - 1`, then (`sorted`) `std::sort` of the first
//! `k - 1`. Pairs compare by value alone — nan the largest value, `-0.0` equal
//! to `0.0` — so which of several equal values are kept, and their order, are
//! those algorithms' (Note [Unstable orders]); `std_order` repeats them. The
//! partial sort's heap selection offers each element to the heap of the best
//! `k` so far; runs of elements none of which beats the heap's top (one
//! vectorised compare per element) are skipped without changing a thing, so
//! a long row costs about one compare per element.
//!
//! Layout: a C-contiguous array read as `(outer, n, inner)` around its dim of
//! `n` elements, the result `(outer, k, inner)` (Note [Select layout]).

use super::parallel::for_row_blocks;
use super::std_order::{make_heap, nth_element, replace_top, sort, sort_heap};

/// Element types of `topk`: ordered, with nan for the floats.
pub trait TopkElem: Copy + PartialOrd + Send + Sync {
    fn nan(self) -> bool;
    /// Whether `key32` orders the type (its 32-bit ones).
    const KEYED: bool = false;
    /// An order-preserving key: `a < b` as values (nan the largest, every nan
    /// equal, `-0.0` equal to `0.0`) exactly when `key32(a) < key32(b)`.
    fn key32(self) -> u32 {
        0
    }
}

impl TopkElem for f32 {
    #[inline(always)]
    fn nan(self) -> bool {
        self.is_nan()
    }
    const KEYED: bool = true;
    #[inline(always)]
    fn key32(self) -> u32 {
        if self.is_nan() {
            return u32::MAX;
        }
        let b = (self + 0.0).to_bits(); // -0.0 + 0.0 is 0.0
        if b >> 31 == 1 {
            !b
        } else {
            b | 1 << 31
        }
    }
}

impl TopkElem for f64 {
    #[inline(always)]
    fn nan(self) -> bool {
        self.is_nan()
    }
}

macro_rules! no_nan {
    ($($t:ty),*) => {$(
        impl TopkElem for $t {
            #[inline(always)]
            fn nan(self) -> bool {
                false
            }
        }
    )*};
}
no_nan!(i64, u64);

impl TopkElem for i32 {
    #[inline(always)]
    fn nan(self) -> bool {
        false
    }
    const KEYED: bool = true;
    #[inline(always)]
    fn key32(self) -> u32 {
        (self as u32) ^ (1 << 31)
    }
}

/// torch's comparator: `a` goes before `b` in the result.
#[inline(always)]
fn before<T: TopkElem>(a: T, b: T, largest: bool) -> bool {
    if largest {
        (a.nan() && !b.nan()) || a > b
    } else {
        (!a.nan() && b.nan()) || a < b
    }
}

/// Whether some element of `run` goes before `top` (a superset test is fine:
/// a run that passes is then offered element by element).
// `!(v <= t)` on purpose: true for a nan `v`, and a plain compare that vectorises.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
#[inline(always)]
fn any_before<T: TopkElem>(run: &[T], top: T, largest: bool) -> bool {
    if largest {
        run.iter().fold(false, |a, &v| a | !(v <= top))
    } else if top.nan() {
        true
    } else {
        run.iter().fold(false, |a, &v| a | (v < top))
    }
}

/// The best `k` pairs of `row` into `queue[..k]`, in torch's order (Note [topk
/// order]); `1 <= k <= row.len()`.
fn row_topk<T: TopkElem>(
    row: &[T],
    k: usize,
    largest: bool,
    sorted: bool,
    queue: &mut Vec<(T, i64)>,
) {
    let n = row.len();
    let comp = |a: &(T, i64), b: &(T, i64)| before(a.0, b.0, largest);
    queue.clear();
    if k * 64 <= n {
        queue.extend(row[..k].iter().copied().zip(0..));
        make_heap(queue, &comp);
        const RUN: usize = 64;
        let mut i = k;
        while i < n {
            let end = (i + RUN).min(n);
            let top = queue[0].0;
            if largest && top.nan() {
                break; // the heap is all nan: nothing goes before it
            }
            if any_before(&row[i..end], top, largest) {
                for (j, &v) in row[i..end].iter().enumerate() {
                    if before(v, queue[0].0, largest) {
                        replace_top(queue, (v, (i + j) as i64), &comp);
                    }
                }
            }
            i = end;
        }
        sort_heap(queue, &comp);
    } else if T::KEYED && n <= u32::MAX as usize {
        // The same compares on packed `(key, position)` words (`TopkElem::key32`;
        // `largest` inverts the key): the same order, half the bytes moved.
        let flip = if largest { u32::MAX } else { 0 };
        let by_key = |a: &u64, b: &u64| (a >> 32) < (b >> 32);
        let mut words: Vec<u64> = row
            .iter()
            .zip(0u64..)
            .map(|(&v, i)| u64::from(v.key32() ^ flip) << 32 | i)
            .collect();
        nth_element(&mut words, k - 1, &by_key);
        if sorted {
            sort(&mut words[..k - 1], &by_key);
        }
        queue.extend(words[..k].iter().map(|w| {
            let p = (w & 0xFFFF_FFFF) as usize;
            (row[p], p as i64)
        }));
    } else {
        queue.extend(row.iter().copied().zip(0..));
        nth_element(queue, k - 1, &comp);
        if sorted {
            sort(&mut queue[..k - 1], &comp);
        }
        queue.truncate(k);
    }
}

/// `topk` of the `(outer, n, inner)` array `x` along its middle dim: `vals` and
/// `idx` of shape `(outer, k, inner)`, in torch's order (Note [topk order]).
/// `k <= n`.
#[allow(clippy::too_many_arguments)]
pub fn topk<T: TopkElem>(
    x: &[T],
    n: usize,
    inner: usize,
    k: usize,
    largest: bool,
    sorted: bool,
    vals: &mut [T],
    idx: &mut [i64],
) {
    if k == 0 || x.is_empty() {
        return;
    }
    let outer = x.len() / (n * inner);
    if inner == 1 {
        let mut pairs: Vec<(T, i64)> = vec![(x[0], 0); outer * k];
        for_row_blocks(x, n, &mut pairs, k, |_, xs, out| {
            let mut queue = Vec::with_capacity(n.min(k.max(64 * k)));
            for (row, o) in xs.chunks_exact(n).zip(out.chunks_exact_mut(k)) {
                row_topk(row, k, largest, sorted, &mut queue);
                o.copy_from_slice(&queue[..k]);
            }
        });
        for ((v, i), (pv, pi)) in vals.iter_mut().zip(idx.iter_mut()).zip(pairs) {
            *v = pv;
            *i = pi;
        }
        return;
    }
    let mut row = Vec::with_capacity(n);
    let mut queue = Vec::with_capacity(n);
    for o in 0..outer {
        for j in 0..inner {
            let base = o * n * inner + j;
            row.clear();
            row.extend((0..n).map(|i| x[base + i * inner]));
            row_topk(&row, k, largest, sorted, &mut queue);
            for (t, &(v, p)) in queue[..k].iter().enumerate() {
                let at = (o * k + t) * inner + j;
                vals[at] = v;
                idx[at] = p;
            }
        }
    }
}

/// `partial_sort` itself, for the tests: the heap selection without skipping.
#[cfg(test)]
fn row_topk_unskipped<T: TopkElem>(row: &[T], k: usize, largest: bool) -> Vec<(T, i64)> {
    let mut q: Vec<(T, i64)> = row.iter().copied().zip(0..).collect();
    super::std_order::partial_sort(&mut q, k, &|a: &(T, i64), b: &(T, i64)| {
        before(a.0, b.0, largest)
    });
    q.truncate(k);
    q
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn bits(v: &[(f64, i64)]) -> Vec<(u64, i64)> {
        v.iter().map(|&(x, i)| (x.to_bits(), i)).collect()
    }

    proptest! {
        #[test]
        fn skipping_runs_changes_nothing(
            v in proptest::collection::vec(prop_oneof![(-4i32..4).prop_map(f64::from), Just(f64::NAN)], 64..2000),
            k in 1usize..20,
            largest: bool,
        ) {
            let k = k.min(v.len() / 64).max(1);
            let mut q = Vec::new();
            row_topk(&v, k, largest, true, &mut q);
            prop_assert_eq!(bits(&q), bits(&row_topk_unskipped(&v, k, largest)));
        }
    }

    #[test]
    fn keyed_selection_is_the_pairs_selection() {
        let row: Vec<f32> = (0..700)
            .map(|i| match i % 19 {
                0 => f32::NAN,
                1 => -0.0,
                _ => ((i * 7919) % 29) as f32 - 14.0,
            })
            .collect();
        for k in [12, 100, 699, 700] {
            for largest in [true, false] {
                for sorted in [true, false] {
                    let mut keyed = Vec::new();
                    row_topk(&row, k, largest, sorted, &mut keyed);
                    let comp = |a: &(f32, i64), b: &(f32, i64)| before(a.0, b.0, largest);
                    let mut pairs: Vec<(f32, i64)> = row.iter().copied().zip(0..).collect();
                    nth_element(&mut pairs, k - 1, &comp);
                    if sorted {
                        sort(&mut pairs[..k - 1], &comp);
                    }
                    let pos = |q: &[(f32, i64)]| q.iter().map(|p| p.1).collect::<Vec<_>>();
                    assert_eq!(pos(&keyed), pos(&pairs[..k]));
                }
            }
        }
    }

    #[test]
    fn rows_and_strided_columns_agree() {
        // A (3, 70, 2) array: each (row, column) line alone gives the same answer.
        let x: Vec<f64> = (0..420).map(|i| ((i * 37) % 11) as f64).collect();
        let (n, inner, k) = (70, 2, 5);
        let (mut vals, mut idx) = (vec![0.0; 3 * k * inner], vec![0; 3 * k * inner]);
        topk(&x, n, inner, k, true, true, &mut vals, &mut idx);
        for o in 0..3 {
            for j in 0..inner {
                let line: Vec<f64> = (0..n).map(|i| x[(o * n + i) * inner + j]).collect();
                let mut q = Vec::new();
                row_topk(&line, k, true, true, &mut q);
                for t in 0..k {
                    assert_eq!(idx[(o * k + t) * inner + j], q[t].1);
                    assert_eq!(vals[(o * k + t) * inner + j], q[t].0);
                }
            }
        }
    }

    #[test]
    fn torch_order_of_equal_values() {
        // torch 2.15: topk(ones(40), 3) -> [28, 26, 27]; topk(ones(400), 3) -> [0, 1, 2].
        let mut q = Vec::new();
        row_topk(&[1.0f64; 40], 3, true, true, &mut q);
        assert_eq!(q.iter().map(|p| p.1).collect::<Vec<_>>(), [28, 26, 27]);
        row_topk(&[1.0f64; 400], 3, true, true, &mut q);
        assert_eq!(q.iter().map(|p| p.1).collect::<Vec<_>>(), [0, 1, 2]);
    }
}
