//! The C++ standard library's sorting and selection, step for step as
//! libstdc++ implements them: `partial_sort` (a heap selection, then a heap
//! sort), `nth_element` (introselect) and `sort` (introsort, then an insertion
//! sort of runs of 16).
//!
//! Note [Unstable orders]: these algorithms are not stable, so which of several
//! equal elements they keep, and in which order, is a property of the exact
//! sequence of compares and moves. torch's CPU `topk` runs them on
//! `(value, position)` pairs compared by value alone, so matching torch's
//! indices where values tie means repeating that sequence here, compare for
//! compare (checked against torch on thousands of rows with ties, nan and
//! `sorted=False`). Every function takes `comp(a, b)`: "a goes before b", a
//! strict weak order. torch's `mode` sorts floats with a plain `<`, which nan
//! makes something else: where libstdc++'s unguarded loops would then run past
//! the ends of the range, these stop at them (the same steps wherever the C++
//! ones stay inside).

/// floor(log2(n)), `n >= 1`.
fn lg(n: usize) -> usize {
    (usize::BITS - 1 - n.leading_zeros()) as usize
}

fn push_heap<E: Copy>(
    a: &mut [E],
    mut hole: usize,
    top: usize,
    val: E,
    comp: &impl Fn(&E, &E) -> bool,
) {
    while hole > top {
        let parent = (hole - 1) / 2;
        if !comp(&a[parent], &val) {
            break;
        }
        a[hole] = a[parent];
        hole = parent;
    }
    a[hole] = val;
}

/// Sifts `val` into the hole at `hole` of the heap `a[..len]`.
fn adjust_heap<E: Copy>(
    a: &mut [E],
    mut hole: usize,
    len: usize,
    val: E,
    comp: &impl Fn(&E, &E) -> bool,
) {
    let top = hole;
    let mut child = hole;
    while len >= 2 && child < (len - 1) / 2 {
        child = 2 * (child + 1);
        if comp(&a[child], &a[child - 1]) {
            child -= 1;
        }
        a[hole] = a[child];
        hole = child;
    }
    if len >= 2 && len.is_multiple_of(2) && child == (len - 2) / 2 {
        child = 2 * (child + 1);
        a[hole] = a[child - 1];
        hole = child - 1;
    }
    push_heap(a, hole, top, val, comp);
}

/// `a` made a heap whose top is the element that goes last.
pub fn make_heap<E: Copy>(a: &mut [E], comp: &impl Fn(&E, &E) -> bool) {
    let len = a.len();
    if len < 2 {
        return;
    }
    let mut parent = (len - 2) / 2;
    loop {
        adjust_heap(a, parent, len, a[parent], comp);
        if parent == 0 {
            return;
        }
        parent -= 1;
    }
}

/// Replaces the top of the heap `heap` with `val` (libstdc++'s `__pop_heap`
/// with the popped element moved to where `val` was).
pub fn replace_top<E: Copy>(heap: &mut [E], val: E, comp: &impl Fn(&E, &E) -> bool) {
    let len = heap.len();
    adjust_heap(heap, 0, len, val, comp);
}

/// The heap `a` sorted (`__sort_heap`).
pub fn sort_heap<E: Copy>(a: &mut [E], comp: &impl Fn(&E, &E) -> bool) {
    let mut last = a.len();
    while last > 1 {
        last -= 1;
        let val = a[last];
        a[last] = a[0];
        adjust_heap(&mut a[..last], 0, last, val, comp);
    }
}

/// The first `m` elements of `a` replaced by the best `m` of all, as a heap
/// (`__heap_select`); the rest of `a` keeps the displaced elements.
fn heap_select<E: Copy>(a: &mut [E], m: usize, comp: &impl Fn(&E, &E) -> bool) {
    if m == 0 {
        return;
    }
    make_heap(&mut a[..m], comp);
    for i in m..a.len() {
        if comp(&a[i], &a[0]) {
            let val = a[i];
            a[i] = a[0];
            replace_top(&mut a[..m], val, comp);
        }
    }
}

/// `std::partial_sort(a, a + m, a + len)`.
pub fn partial_sort<E: Copy>(a: &mut [E], m: usize, comp: &impl Fn(&E, &E) -> bool) {
    heap_select(a, m, comp);
    sort_heap(&mut a[..m], comp);
}

fn unguarded_linear_insert<E: Copy>(a: &mut [E], mut last: usize, comp: &impl Fn(&E, &E) -> bool) {
    let val = a[last];
    while last > 0 && comp(&val, &a[last - 1]) {
        a[last] = a[last - 1];
        last -= 1;
    }
    a[last] = val;
}

fn insertion_sort<E: Copy>(a: &mut [E], comp: &impl Fn(&E, &E) -> bool) {
    for i in 1..a.len() {
        if comp(&a[i], &a[0]) {
            let val = a[i];
            a.copy_within(0..i, 1);
            a[0] = val;
        } else {
            unguarded_linear_insert(a, i, comp);
        }
    }
}

const THRESHOLD: usize = 16;

/// Swaps into `a[0]` the median of `a[1]`, `a[mid]` and `a[last]`.
fn move_median_to_first<E: Copy>(a: &mut [E], comp: &impl Fn(&E, &E) -> bool) {
    let (x, y, z) = (1, a.len() / 2, a.len() - 1);
    let pick = if comp(&a[x], &a[y]) {
        if comp(&a[y], &a[z]) {
            y
        } else if comp(&a[x], &a[z]) {
            z
        } else {
            x
        }
    } else if comp(&a[x], &a[z]) {
        x
    } else if comp(&a[y], &a[z]) {
        z
    } else {
        y
    };
    a.swap(0, pick);
}

/// Partitions `a[1..]` around the pivot `a[0]`; returns the cut.
fn partition_pivot<E: Copy>(a: &mut [E], comp: &impl Fn(&E, &E) -> bool) -> usize {
    move_median_to_first(a, comp);
    let (mut first, mut last) = (1, a.len());
    loop {
        while first < a.len() && comp(&a[first], &a[0]) {
            first += 1;
        }
        last -= 1;
        while last > 0 && comp(&a[0], &a[last]) {
            last -= 1;
        }
        if first >= last {
            return first;
        }
        a.swap(first, last);
        first += 1;
    }
}

fn introsort_loop<E: Copy>(mut a: &mut [E], mut depth: usize, comp: &impl Fn(&E, &E) -> bool) {
    while a.len() > THRESHOLD {
        if depth == 0 {
            let m = a.len();
            partial_sort(a, m, comp);
            return;
        }
        depth -= 1;
        let cut = partition_pivot(a, comp);
        let (left, right) = a.split_at_mut(cut);
        introsort_loop(right, depth, comp);
        a = left;
    }
}

/// `std::sort`.
pub fn sort<E: Copy>(a: &mut [E], comp: &impl Fn(&E, &E) -> bool) {
    if a.is_empty() {
        return;
    }
    introsort_loop(a, 2 * lg(a.len()), comp);
    if a.len() > THRESHOLD {
        insertion_sort(&mut a[..THRESHOLD], comp);
        for i in THRESHOLD..a.len() {
            unguarded_linear_insert(a, i, comp);
        }
    } else {
        insertion_sort(a, comp);
    }
}

/// `std::nth_element(a, a + nth, a + len)`.
pub fn nth_element<E: Copy>(a: &mut [E], nth: usize, comp: &impl Fn(&E, &E) -> bool) {
    if nth >= a.len() {
        return;
    }
    let mut depth = 2 * lg(a.len());
    let (mut first, mut last) = (0, a.len());
    while last - first > 3 {
        if depth == 0 {
            heap_select(&mut a[first..last], nth - first + 1, comp);
            a.swap(first, nth);
            return;
        }
        depth -= 1;
        let cut = first + partition_pivot(&mut a[first..last], comp);
        if cut <= nth {
            first = cut;
        } else {
            last = cut;
        }
    }
    insertion_sort(&mut a[first..last], comp);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn less(a: &(i32, usize), b: &(i32, usize)) -> bool {
        a.0 < b.0
    }

    fn pairs(v: &[i32]) -> Vec<(i32, usize)> {
        v.iter().copied().zip(0..).collect()
    }

    fn values(v: &[(i32, usize)]) -> Vec<i32> {
        v.iter().map(|p| p.0).collect()
    }

    proptest! {
        #[test]
        fn sort_orders_by_value(v in proptest::collection::vec(-5i32..5, 0..300)) {
            let mut a = pairs(&v);
            sort(&mut a, &less);
            let mut want = v.clone();
            want.sort();
            prop_assert_eq!(values(&a), want);
            let mut pos: Vec<usize> = a.iter().map(|p| p.1).collect();
            pos.sort();
            prop_assert_eq!(pos, (0..v.len()).collect::<Vec<_>>());
        }

        #[test]
        fn partial_sort_keeps_the_smallest_sorted(v in proptest::collection::vec(-5i32..5, 1..300), m in 0usize..300) {
            let m = m % (v.len() + 1);
            let mut a = pairs(&v);
            partial_sort(&mut a, m, &less);
            let mut want = v.clone();
            want.sort();
            prop_assert_eq!(values(&a[..m]), want[..m].to_vec());
        }

        #[test]
        fn nth_element_partitions(v in proptest::collection::vec(-5i32..5, 1..300), nth in 0usize..300) {
            let nth = nth % v.len();
            let mut a = pairs(&v);
            nth_element(&mut a, nth, &less);
            let mut want = v.clone();
            want.sort();
            prop_assert_eq!(a[nth].0, want[nth]);
            prop_assert!(a[..nth].iter().all(|p| p.0 <= a[nth].0));
            prop_assert!(a[nth + 1..].iter().all(|p| p.0 >= a[nth].0));
        }
    }

    #[test]
    fn equal_elements_end_where_libstdcxx_puts_them() {
        // torch 2.15's topk (largest, sorted) of 40 equal values, k = 3 (64 * k > 40: nth_element,
        // then a sort of the first k - 1).
        let mut a: Vec<(i32, usize)> = (0..40).map(|i| (1, i)).collect();
        nth_element(&mut a, 2, &|x, y| x.0 > y.0);
        sort(&mut a[..2], &|x, y| x.0 > y.0);
        let got: Vec<usize> = a[..3].iter().map(|p| p.1).collect();
        assert_eq!(got, TORCH_40_EQUAL_K3);
    }

    const TORCH_40_EQUAL_K3: [usize; 3] = [28, 26, 27];
}
