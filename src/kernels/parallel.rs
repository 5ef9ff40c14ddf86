//! The intra-op thread pool of the large kernels (`opyard.set_num_threads`).
//!
//! Note [Intra-op threads]: a kernel splits its rows across the pool only when the
//! work is large enough to pay for waking the workers: `GRAIN` elements per task,
//! torch's `at::internal::GRAIN_SIZE`, measured here to be where two threads start
//! to win (a task of 32k floats takes ~10 µs; waking a rayon worker ~2-5 µs).
//! Small inputs run on the calling thread, so the per-call cost of small ops is
//! untouched. The pool has `num_threads()` workers (default: the machine's
//! available parallelism, as torch's default); `set_num_threads` replaces it.
//! Kernels never call back into Python, so the pool never needs the GIL.

use std::sync::Arc;

use parking_lot::RwLock;
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

/// Elements per task below which a kernel stays on the calling thread.
pub const GRAIN: usize = 32_768;

static POOL: RwLock<Option<Arc<ThreadPool>>> = RwLock::new(None);
static THREADS: RwLock<Option<usize>> = RwLock::new(None);

/// The number of intra-op threads (torch's `get_num_threads`).
pub fn num_threads() -> usize {
    if let Some(n) = *THREADS.read() {
        return n;
    }
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Sets the number of intra-op threads (at least 1); the pool is rebuilt on next use.
pub fn set_num_threads(n: usize) {
    let n = n.max(1);
    *THREADS.write() = Some(n);
    *POOL.write() = None;
}

fn pool() -> Option<Arc<ThreadPool>> {
    let n = num_threads();
    if n <= 1 {
        return None;
    }
    if let Some(p) = POOL.read().as_ref() {
        return Some(p.clone());
    }
    let mut slot = POOL.write();
    if slot.is_none() {
        *slot = ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("opyard-intraop-{i}"))
            .build()
            .ok()
            .map(Arc::new);
    }
    slot.clone()
}

/// Calls `f(first_row, rows_of_x, rows_of_out)` over `x` and `out` split into
/// blocks of whole rows (`row_len` elements each; `out_row_len` for `out`), on the
/// pool when the work is large (see Note [Intra-op threads]), else once inline.
pub fn for_row_blocks<T, U, F>(x: &[T], row_len: usize, out: &mut [U], out_row_len: usize, f: F)
where
    T: Sync,
    U: Send,
    F: Fn(usize, &[T], &mut [U]) + Sync,
{
    let rows = x
        .len()
        .checked_div(row_len)
        .unwrap_or(out.len() / out_row_len.max(1));
    let work = rows * row_len.max(out_row_len);
    let threads = num_threads();
    if threads <= 1 || work < 2 * GRAIN || rows < 2 {
        f(0, x, out);
        return;
    }
    let Some(pool) = pool() else {
        f(0, x, out);
        return;
    };
    let tasks = (work / GRAIN).clamp(1, 4 * threads).min(rows);
    let per = rows.div_ceil(tasks);
    pool.install(|| {
        x.par_chunks(per * row_len.max(1))
            .zip(out.par_chunks_mut(per * out_row_len))
            .enumerate()
            .for_each(|(i, (xs, os))| f(i * per, xs, os));
    });
}

/// `for_row_blocks` with a second output of `aux_row_len` elements per row (a
/// kernel's per-row statistics), split along the same rows.
pub fn for_row_blocks2<T, U, V, F>(
    x: &[T],
    row_len: usize,
    out: &mut [U],
    aux: &mut [V],
    aux_row_len: usize,
    f: F,
) where
    T: Sync,
    U: Send,
    V: Send,
    F: Fn(&[T], &mut [U], &mut [V]) + Sync,
{
    let rows = x.len() / row_len.max(1);
    let threads = num_threads();
    let pool = if threads > 1 && rows >= 2 && rows * row_len >= 2 * GRAIN {
        pool()
    } else {
        None
    };
    let Some(pool) = pool else {
        f(x, out, aux);
        return;
    };
    let tasks = (rows * row_len / GRAIN).clamp(1, 4 * threads).min(rows);
    let per = rows.div_ceil(tasks);
    pool.install(|| {
        x.par_chunks(per * row_len)
            .zip(out.par_chunks_mut(per * row_len))
            .zip(aux.par_chunks_mut(per * aux_row_len))
            .for_each(|((xs, os), aux)| f(xs, os, aux));
    });
}

/// [`for_row_blocks`] with two outputs of `out_row_len` elements per row each
/// (a kernel's values and their indices), split along the same rows.
pub fn for_row_blocks_pair<T, U, V, F>(
    x: &[T],
    row_len: usize,
    out: &mut [U],
    aux: &mut [V],
    out_row_len: usize,
    f: F,
) where
    T: Sync,
    U: Send,
    V: Send,
    F: Fn(&[T], &mut [U], &mut [V]) + Sync,
{
    let rows = out.len() / out_row_len.max(1);
    let work = rows * row_len.max(out_row_len);
    let threads = num_threads();
    let pool = if threads > 1 && rows >= 2 && work >= 2 * GRAIN && row_len > 0 {
        pool()
    } else {
        None
    };
    let Some(pool) = pool else {
        f(x, out, aux);
        return;
    };
    let tasks = (work / GRAIN).clamp(1, 4 * threads).min(rows);
    let per = rows.div_ceil(tasks);
    pool.install(|| {
        x.par_chunks(per * row_len)
            .zip(out.par_chunks_mut(per * out_row_len))
            .zip(aux.par_chunks_mut(per * out_row_len))
            .for_each(|((xs, os), aux)| f(xs, os, aux));
    });
}

/// `f(start, chunk)` over `out` split into contiguous chunks, on the pool when large.
pub fn for_chunks<U: Send, F: Fn(usize, &mut [U]) + Sync>(out: &mut [U], f: F) {
    let n = out.len();
    let threads = num_threads();
    if threads <= 1 || n < 2 * GRAIN {
        f(0, out);
        return;
    }
    let Some(pool) = pool() else {
        f(0, out);
        return;
    };
    let per = n.div_ceil((n / GRAIN).clamp(1, 4 * threads));
    pool.install(|| {
        out.par_chunks_mut(per)
            .enumerate()
            .for_each(|(i, c)| f(i * per, c));
    });
}

/// `f(start, chunk)` over `out` split into contiguous chunks as [`for_chunks`],
/// for outputs that each cost `weight` elements of work (a reduction of
/// `weight` values per output): on the pool when `out.len() * weight` is large.
pub fn for_weighted_chunks<U: Send, F: Fn(usize, &mut [U]) + Sync>(
    out: &mut [U],
    weight: usize,
    f: F,
) {
    let n = out.len();
    let work = n * weight.max(1);
    let threads = num_threads();
    if threads <= 1 || work < 2 * GRAIN || n < 2 * 64 {
        f(0, out);
        return;
    }
    let Some(pool) = pool() else {
        f(0, out);
        return;
    };
    let tasks = (work / GRAIN).clamp(1, 4 * threads).min(n / 64);
    let per = n.div_ceil(tasks);
    pool.install(|| {
        out.par_chunks_mut(per)
            .enumerate()
            .for_each(|(i, c)| f(i * per, c));
    });
}

/// `f(block)` for each consecutive `block`-element piece of `x` (the last may be
/// shorter), in order; on the pool when `x` is large. The pieces do not depend
/// on the number of threads, so a reduction combining the results in order gives
/// the same value whatever `num_threads()` is.
pub fn map_blocks<T, R, F>(x: &[T], block: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&[T]) -> R + Sync,
{
    let block = block.max(1);
    let threads = num_threads();
    let pool = if threads > 1 && x.len() >= 2 * GRAIN && x.len() > block {
        pool()
    } else {
        None
    };
    match pool {
        Some(pool) => pool.install(|| x.par_chunks(block).map(&f).collect()),
        None => x.chunks(block).map(f).collect(),
    }
}

/// `f(i, piece)` for each consecutive `chunk`-element piece of `out` (the last may
/// be shorter), the results in order; on the pool when `work` (the elements the
/// call touches) is large. The pieces do not depend on the number of threads, so
/// results combined in order are the same whatever `num_threads()` is.
pub fn map_chunks_mut<U, R, F>(out: &mut [U], chunk: usize, work: usize, f: F) -> Vec<R>
where
    U: Send,
    R: Send,
    F: Fn(usize, &mut [U]) -> R + Sync,
{
    let chunk = chunk.max(1);
    let threads = num_threads();
    let pool = if threads > 1 && work >= 2 * GRAIN && out.len() > chunk {
        pool()
    } else {
        None
    };
    match pool {
        Some(pool) => pool.install(|| {
            out.par_chunks_mut(chunk)
                .enumerate()
                .map(|(i, c)| f(i, c))
                .collect()
        }),
        None => out
            .chunks_mut(chunk)
            .enumerate()
            .map(|(i, c)| f(i, c))
            .collect(),
    }
}

/// Serialises the tests that change the process-wide thread count: the test
/// harness runs tests on several threads, and one test's `set_num_threads`
/// must not land between another's set and its read.
#[cfg(test)]
pub(crate) fn thread_count_guard() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_blocks_cover_every_row_once() {
        let _serial = thread_count_guard();
        set_num_threads(2);
        let rows = 300;
        let cols = 1000;
        let x: Vec<f32> = (0..rows * cols).map(|i| i as f32).collect();
        let mut out = vec![0.0f32; rows];
        for_row_blocks(&x, cols, &mut out, 1, |first, xs, os| {
            for (r, o) in os.iter_mut().enumerate() {
                *o = xs[r * cols] + first as f32 * 0.0;
            }
        });
        for (r, o) in out.iter().enumerate() {
            assert_eq!(*o, (r * cols) as f32);
        }
        set_num_threads(1);
        assert_eq!(num_threads(), 1);
    }

    #[test]
    fn map_blocks_keeps_the_order_of_the_blocks() {
        let _serial = thread_count_guard();
        let x: Vec<u32> = (0..200_000).collect();
        for threads in [1, 2, 3] {
            set_num_threads(threads);
            let firsts = map_blocks(&x, 70_000, |b| b[0]);
            assert_eq!(firsts, vec![0, 70_000, 140_000]);
        }
    }
}
