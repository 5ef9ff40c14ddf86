//! The intra-op thread pool of the large kernels (`opyard.set_num_threads`).
//!
//! Note [Intra-op threads]: a kernel splits its rows across the pool only when the
//! work is large enough to pay for waking the workers: `GRAIN` elements per task,
//! torch's `at::internal::GRAIN_SIZE`, measured here to be where two threads start
//! to win (a task of 32k floats takes ~10 µs; waking a rayon worker ~2-5 µs on a
//! quiet machine, tens of µs when the cores are busy). Small inputs run on the
//! calling thread, so the per-call cost of small ops is untouched. `num_threads()`
//! threads work on a call (default: the machine's available parallelism, as torch's
//! default; `set_num_threads` changes it): the calling thread and `num_threads() - 1`
//! pool workers. The tasks are claimed from a shared counter (Note [Caller takes
//! part]). Kernels never call back into Python, so the pool never needs the GIL.
//!
//! Note [Caller takes part]: handing a whole call to the pool (`ThreadPool::install`)
//! puts the calling thread to sleep until a woken worker has run it: two wake-ups
//! per call, and the caller's core idle. Instead the caller spawns `num_threads() - 1`
//! helpers and itself runs tasks from the same counter until none is left, so the
//! work starts at once and a helper that wakes late finds less (or nothing) to do.
//! The caller then waits only for the helpers that joined (each finishing a task it
//! claimed), never for one not yet scheduled: a helper that starts after the call
//! closed returns at once (rayon's scopes would wait for it, and on a busy machine a
//! worker can wait for a core for milliseconds). So a call never takes much longer
//! than on one thread. Which thread runs a task does not change what it computes:
//! the tasks and their order of combination are fixed by the sizes alone.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use parking_lot::{Condvar, Mutex, RwLock};
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

/// The helpers of a call: `num_threads() - 1` workers (the caller is the last thread).
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
            .num_threads(n - 1)
            .thread_name(|i| format!("opyard-intraop-{i}"))
            .build()
            .ok()
            .map(Arc::new);
    }
    slot.clone()
}

/// Runs `f(i)` once for each `i` in `0..tasks`, on the calling thread and, when
/// `parallel` and the pool exists, its workers (Note [Caller takes part]).
fn run_tasks<F: Fn(usize) + Sync>(tasks: usize, parallel: bool, f: F) {
    let pool = if parallel && tasks > 1 { pool() } else { None };
    let Some(pool) = pool else {
        (0..tasks).for_each(f);
        return;
    };
    let f: &(dyn Fn(usize) + Sync) = &f;
    // SAFETY: only the lifetime is erased. `Shared::run` calls the function only
    // between its registration (`enter`, refused once the call is closed) and its
    // `leave`, and `close` below returns only when no helper is registered, so no
    // helper calls it after this function returns and `f` is dropped.
    let f: &'static (dyn Fn(usize) + Sync) = unsafe { std::mem::transmute(f) };
    let shared = Arc::new(Shared {
        next: AtomicUsize::new(0),
        tasks,
        f: FnRef(f),
        state: Mutex::new((true, 0)),
        left: Condvar::new(),
        panic: Mutex::new(None),
    });
    for _ in 0..pool.current_num_threads().min(tasks - 1) {
        let s = shared.clone();
        pool.spawn(move || s.help());
    }
    {
        // Closed on the way out, also when a task of the caller's panics.
        let _close = CloseOnDrop(&shared);
        shared.work();
    }
    // A helper's panic surfaces in the caller, as a panic inside `install` did.
    let payload = shared.panic.lock().take();
    if let Some(payload) = payload {
        std::panic::resume_unwind(payload);
    }
}

/// Closes a call's tasks when dropped (see `Shared::close`).
struct CloseOnDrop<'a>(&'a Shared);

impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// The erased work function of one call (see `run_tasks`).
#[derive(Clone, Copy)]
struct FnRef(&'static (dyn Fn(usize) + Sync));

/// One call's tasks: the next unclaimed task, and whether helpers may still join
/// (`state.0`) and how many are working (`state.1`).
struct Shared {
    next: AtomicUsize,
    tasks: usize,
    f: FnRef,
    state: Mutex<(bool, usize)>,
    left: Condvar,
    /// The payload of a helper's panic, resumed by the caller.
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
}

impl Shared {
    /// Runs unclaimed tasks until none is left (a task that panics leaves the rest to
    /// the other threads).
    fn work(&self) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.tasks {
                break;
            }
            (self.f.0)(i);
        }
    }

    /// A helper's part: joins while the call is open, works, leaves. A helper that
    /// starts after the caller closed the call returns without touching its data.
    fn help(&self) {
        {
            let mut st = self.state.lock();
            if !st.0 || self.next.load(Ordering::Relaxed) >= self.tasks {
                return;
            }
            st.1 += 1;
        }
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.work()));
        if let Err(payload) = run {
            self.panic.lock().get_or_insert(payload);
        }
        let mut st = self.state.lock();
        st.1 -= 1;
        if st.1 == 0 {
            self.left.notify_all();
        }
    }

    /// The caller's end: no helper may join any more; waits for those working (each
    /// is finishing a task it claimed), not for helpers not yet started.
    fn close(&self) {
        let mut st = self.state.lock();
        st.0 = false;
        while st.1 > 0 {
            self.left.wait(&mut st);
        }
    }
}

/// `items` as slots a task takes its own item from (each exactly once).
fn slots<I>(items: impl Iterator<Item = I>) -> Vec<Mutex<Option<I>>> {
    items.map(|i| Mutex::new(Some(i))).collect()
}

/// Item `i` of `slots`, taken (each task's own; taken once).
fn take<I>(slots: &[Mutex<Option<I>>], i: usize) -> I {
    slots[i]
        .lock()
        .take()
        .expect("parallel: each task takes its own item once")
}

/// `(tasks, rows per task)` for `rows` rows of `work` elements in all, or `None`
/// when the work stays on the calling thread (Note [Intra-op threads]).
fn row_split(rows: usize, work: usize) -> Option<(usize, usize)> {
    let threads = num_threads();
    if threads <= 1 || work < 2 * GRAIN || rows < 2 {
        return None;
    }
    let tasks = (work / GRAIN).clamp(1, 4 * threads).min(rows);
    let per = rows.div_ceil(tasks);
    Some((rows.div_ceil(per), per))
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
    let Some((tasks, per)) = row_split(rows, rows * row_len.max(out_row_len)) else {
        f(0, x, out);
        return;
    };
    let outs = slots(out.chunks_mut((per * out_row_len).max(1)));
    let xs: Vec<&[T]> = x.chunks((per * row_len).max(1)).collect();
    run_tasks(tasks.min(outs.len()), true, |i| {
        f(i * per, xs.get(i).copied().unwrap_or(&[]), take(&outs, i))
    });
}

/// [`for_row_blocks`] with a second output of `aux_row_len` elements per row (a
/// kernel's per-row statistics, or the indices beside its values), split along the
/// same rows: `f(rows_of_x, rows_of_out, rows_of_aux)`.
pub fn for_row_blocks_aux<T, U, V, F>(
    x: &[T],
    row_len: usize,
    out: &mut [U],
    out_row_len: usize,
    aux: &mut [V],
    aux_row_len: usize,
    f: F,
) where
    T: Sync,
    U: Send,
    V: Send,
    F: Fn(&[T], &mut [U], &mut [V]) + Sync,
{
    let rows = x
        .len()
        .checked_div(row_len)
        .unwrap_or(out.len() / out_row_len.max(1));
    let work = rows * row_len.max(out_row_len);
    let split = if row_len == 0 {
        None
    } else {
        row_split(rows, work)
    };
    let Some((tasks, per)) = split else {
        f(x, out, aux);
        return;
    };
    let outs = slots(out.chunks_mut((per * out_row_len).max(1)));
    let auxs = slots(aux.chunks_mut((per * aux_row_len).max(1)));
    let xs: Vec<&[T]> = x.chunks(per * row_len).collect();
    let tasks = tasks.min(xs.len()).min(outs.len()).min(auxs.len());
    run_tasks(tasks, true, |i| f(xs[i], take(&outs, i), take(&auxs, i)));
}

/// `(tasks, elements per task)` for `n` outputs of `work` elements in all that may
/// split into pieces of at least `min_piece`, or `None` for the calling thread alone.
fn chunk_split(n: usize, work: usize, min_piece: usize) -> Option<(usize, usize)> {
    let threads = num_threads();
    if threads <= 1 || work < 2 * GRAIN || n < 2 * min_piece {
        return None;
    }
    let tasks = (work / GRAIN).clamp(1, 4 * threads).min(n / min_piece);
    let per = n.div_ceil(tasks);
    Some((n.div_ceil(per), per))
}

/// `f(start, chunk)` over `out` split into `per`-element chunks on the pool.
fn run_chunks<U: Send, F: Fn(usize, &mut [U]) + Sync>(
    out: &mut [U],
    tasks: usize,
    per: usize,
    f: F,
) {
    let outs = slots(out.chunks_mut(per));
    run_tasks(tasks.min(outs.len()), true, |i| f(i * per, take(&outs, i)));
}

/// `f(start, chunk)` over `out` split into contiguous chunks, on the pool when large.
pub fn for_chunks<U: Send, F: Fn(usize, &mut [U]) + Sync>(out: &mut [U], f: F) {
    match chunk_split(out.len(), out.len(), 1) {
        Some((tasks, per)) => run_chunks(out, tasks, per, f),
        None => f(0, out),
    }
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
    match chunk_split(n, n * weight.max(1), 64) {
        Some((tasks, per)) => run_chunks(out, tasks, per, f),
        None => f(0, out),
    }
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
    let parallel = num_threads() > 1 && x.len() >= 2 * GRAIN && x.len() > block;
    if !parallel {
        return x.chunks(block).map(f).collect();
    }
    let pieces: Vec<&[T]> = x.chunks(block).collect();
    let results = slots(std::iter::repeat_with(|| None::<R>).take(pieces.len()));
    run_tasks(pieces.len(), true, |i| {
        *results[i].lock() = Some(Some(f(pieces[i])));
    });
    collect(results)
}

/// The results each task stored, in order.
fn collect<R>(results: Vec<Mutex<Option<Option<R>>>>) -> Vec<R> {
    results
        .into_iter()
        .map(|r| {
            r.into_inner()
                .flatten()
                .expect("parallel: every task stores its result")
        })
        .collect()
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
    let parallel = num_threads() > 1 && work >= 2 * GRAIN && out.len() > chunk;
    if !parallel {
        return out
            .chunks_mut(chunk)
            .enumerate()
            .map(|(i, c)| f(i, c))
            .collect();
    }
    let pieces = slots(out.chunks_mut(chunk));
    let results = slots(std::iter::repeat_with(|| None::<R>).take(pieces.len()));
    run_tasks(pieces.len(), true, |i| {
        *results[i].lock() = Some(Some(f(i, take(&pieces, i))));
    });
    collect(results)
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
    fn every_task_runs_once_and_a_helpers_panic_reaches_the_caller() {
        let _serial = thread_count_guard();
        for threads in [1, 2, 4] {
            set_num_threads(threads);
            let mut out = vec![0u32; 1 << 18];
            for_chunks(&mut out, |start, c| {
                for (k, o) in c.iter_mut().enumerate() {
                    *o += (start + k) as u32;
                }
            });
            assert!(out.iter().enumerate().all(|(i, &o)| o == i as u32));
        }
        set_num_threads(2);
        let caught = std::panic::catch_unwind(|| {
            run_tasks(64, true, |i| {
                if i % 2 == 1 {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                    panic!("task {i}");
                }
            })
        });
        assert!(caught.is_err());
        set_num_threads(1);
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
